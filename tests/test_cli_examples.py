"""``fwwrules examples``: list the shipped examples, print one, or copy one to a file."""

from __future__ import annotations

from pathlib import Path

import pytest

import fwwrules
from fwwrules.cli import main


def test_examples_lists_every_shipped_file_with_its_title(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["examples"]) == 0
    lines = capsys.readouterr().out.splitlines()
    base = fwwrules.examples_dir()
    files = sorted(p.relative_to(base).with_suffix("").as_posix() for p in base.rglob("*.yaml"))
    assert [ln.split()[0] for ln in lines] == files
    by_name = {ln.split()[0]: ln.split(None, 1)[1] for ln in lines}
    assert by_name["cover-example-1"].startswith("Cover example 1")
    assert by_name["grid/cleric"] == "PRD cover figure: cleric shooting at the ogre (cover)"


def test_examples_prints_one_byte_for_byte(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples", "grid/cleric"]) == 0
    shipped = fwwrules.example_path("grid/cleric").read_text(encoding="utf-8")
    assert capsys.readouterr().out == shipped


def test_examples_copies_one_that_then_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "mine.yaml"
    assert main(["examples", "melee-behemoth-slide", "-o", str(out)]) == 0
    assert str(out.resolve()) in capsys.readouterr().out
    assert fwwrules.load(out).model("behemoth").id == "behemoth"


def test_examples_unknown_name_or_o_without_name_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["examples", "nope"]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "cover-example-1" in err and "Traceback" not in err
    assert main(["examples", "-o", str(tmp_path / "x.yaml")]) == 2
    assert "NAME" in capsys.readouterr().err
    assert main(["examples", "cover-example-1", "-o", str(tmp_path / "no" / "x.yaml")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_render_without_o_says_where_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["render", str(fwwrules.example_path("cover-example-1"))]) == 0
    assert capsys.readouterr().out.strip() == f"wrote {tmp_path.resolve() / 'board.png'}"
    assert (tmp_path / "board.png").read_bytes().startswith(b"\x89PNG")
