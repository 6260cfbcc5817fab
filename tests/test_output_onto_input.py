"""No command writes its output onto one of its inputs (issue 31): a scenario is read as YAML
whatever its name, so ``fwwrules render board.svg -o board.svg`` replaced the scenario with
its picture (exit 0). Every command that writes refuses, with exit status 2 and before any
work, an output that is one of its inputs: by the same name, through a symbolic link, or as a
hard link of it; the input is left as it was.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import fwwrules
from fwwrules.cli import main

EXAMPLE = fwwrules.example_path("cover-example-1")

# command -> its arguments around the scenario (``{input}``) and the output (``{output}``)
WRITERS: dict[str, list[str]] = {
    "render": ["render", "{input}", "-o", "{output}"],
    "render-pair": [
        "render", "{input}", "--attacker", "knight", "--target", "brute", "-o", "{output}",
    ],
    "render-langs": ["render", "{input}", "--lang", "en,de", "-o", "{output}"],
    "render-slide": ["render", "{input}", "--slide", "behemoth", "--to", "324.8,343.4",
                     "-o", "{output}"],
    "threat": ["threat", "{input}", "--side", "brotherhood", "--step", "20", "-o", "{output}"],
}  # fmt: skip
SOURCE = {"render-slide": "melee-behemoth-slide"}


def _same_name(src: Path, name: str) -> None:
    src.rename(src.with_name(name))


def _symlink(src: Path, name: str) -> None:
    src.with_name(name).symlink_to(src)


def _hard_link(src: Path, name: str) -> None:
    os.link(src, src.with_name(name))


HOW: dict[str, Callable[[Path, str], None]] = {
    "same name": _same_name,
    "symbolic link": _symlink,
    "hard link": _hard_link,
}


@pytest.mark.parametrize("how", sorted(HOW))
@pytest.mark.parametrize("command", sorted(WRITERS))
def test_a_command_never_writes_onto_its_input(
    command: str, how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The output named as the input, as a link to it, or as a hard link of it (for several
    languages, the first language's file: ``board.en.svg`` of ``-o board.svg``)."""
    src = tmp_path / "scenario.yaml"
    shutil.copy(fwwrules.example_path(SOURCE.get(command, "cover-example-1")), src)
    before = src.read_bytes()
    written = "board.en.svg" if command == "render-langs" else "board.svg"
    HOW[how](src, written)
    if how == "same name":
        src = tmp_path / written
    args = [a.format(input=src, output=tmp_path / "board.svg") for a in WRITERS[command]]
    code = main(args)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "it is an input of this command" in err
    assert src.read_bytes() == before


def test_the_same_file_by_another_spelling_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "board.svg"
    shutil.copy(EXAMPLE, src)
    monkeypatch.chdir(tmp_path)
    assert main(["render", "board.svg", "-o", f"./../{tmp_path.name}/board.svg"]) == 2
    assert "it is an input of this command" in capsys.readouterr().err
    assert src.read_bytes() == EXAMPLE.read_bytes()


def test_examples_never_copies_an_example_onto_itself(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The example's own file as ``-o`` (an installed package's file, or the checkout's)."""
    folder = tmp_path / "examples"
    shutil.copytree(fwwrules.examples_dir(), folder)
    monkeypatch.setattr("fwwrules.resources.examples_dir", lambda: folder)
    monkeypatch.setattr("fwwrules.examples_dir", lambda: folder)
    target = folder / "cover-example-1.yaml"
    before = target.read_bytes()
    code = main(["examples", "cover-example-1", "-o", str(target)])
    assert code == 2
    assert "it is an input of this command" in capsys.readouterr().err
    assert target.read_bytes() == before


def test_review_suggestions_never_write_onto_an_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "de.po"
    text = json.dumps(
        {"format": "fwwrules/review@1", "lang": "de", "reviewer": "x", "suggestions": {}}
    )
    export.write_text(text, encoding="utf-8")
    code = main(["review", "--suggestions", str(export), "-o", str(export)])
    assert code == 2
    assert "it is an input of this command" in capsys.readouterr().err
    assert export.read_text(encoding="utf-8") == text


def test_writing_beside_the_input_still_works(tmp_path: Path) -> None:
    """Control: another file in the same folder is written as before."""
    src = tmp_path / "board.yaml"
    shutil.copy(EXAMPLE, src)
    assert main(["render", str(src), "-o", str(tmp_path / "board.svg")]) == 0
    assert (tmp_path / "board.svg").read_bytes().startswith(b"<?xml")
