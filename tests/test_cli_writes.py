"""What the command line writes: every write failure is ``cannot write FILE: reason`` with exit
status 2 (a missing folder, a read-only folder, a full disk, /dev/full), a standard output that
cannot take the answer ends it with exit 2 quietly, file names reach the terminal escaped (also
names that are not UTF-8, under a strict UTF-8 locale), ``examples`` serves only its listed
names, and every SVG it writes is the same bytes on every run (issue #21)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

import fwwrules
from fwwrules.cli import main

EXAMPLE = str(fwwrules.example_path("cover-example-1"))
GRID = str(fwwrules.example_path("grid/cleric"))


def fwwrules_process(
    args: Sequence[str | bytes],
    cwd: Path,
    *,
    prefix: Sequence[str] = (),
    limit_file_size: int | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[bytes]:
    def limits() -> None:
        if limit_file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    base_env = {k: v for k, v in os.environ.items() if k != "FWWRULES_DEBUG"}
    return subprocess.run(
        [*prefix, sys.executable, "-m", "fwwrules", *args],
        cwd=cwd,
        env={**base_env, **(env or {})},
        capture_output=True,
        timeout=300,
        check=False,
        preexec_fn=limits,
    )


# Each command that writes a file: its arguments with the output path last.
WRITERS: dict[str, list[str]] = {
    "render": ["render", EXAMPLE, "--attacker", "knight", "--target", "brute", "-o"],
    "render-grid": ["render", GRID, "-o"],
    "threat": ["threat", EXAMPLE, "--side", "brotherhood", "--step", "20", "-o"],
    "examples": ["examples", "cover-example-1", "-o"],
}
SUFFIX = {"render": ".svg", "render-grid": ".png", "threat": ".png", "examples": ".yaml"}


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_writing_into_a_missing_folder(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``render -o`` and ``threat -o`` into a missing folder said "internal error"."""
    out = tmp_path / "missing" / f"out{SUFFIX[command]}"
    assert main([*WRITERS[command], str(out)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"fwwrules: error: cannot write {out}: no folder {out.parent}\n"
    assert list(tmp_path.iterdir()) == []


def test_review_into_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing" / "review.html"
    assert main(["review", "-o", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"fwwrules: error: cannot write {out}: no folder {out.parent}\n"
    )


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_writing_into_a_read_only_folder(command: str, tmp_path: Path) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    prefix: list[str] = []
    if os.geteuid() == 0:  # root writes anywhere: run without the capability that allows it
        setpriv = shutil.which("setpriv")
        assert setpriv, "setpriv (util-linux) is needed to test a read-only folder as root"
        prefix = [setpriv, "--bounding-set=-dac_override"]
    out = folder / f"out{SUFFIX[command]}"
    proc = fwwrules_process([*WRITERS[command], str(out)], tmp_path, prefix=prefix)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == b""
    assert proc.stderr.decode() == f"fwwrules: error: cannot write {out}: Permission denied\n"
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("command", sorted(WRITERS))
def test_writing_onto_a_full_disk_keeps_the_old_file(command: str, tmp_path: Path) -> None:
    """A full disk (a file-size limit here) said "internal error" and left a 0-byte file."""
    out = tmp_path / f"out{SUFFIX[command]}"
    out.write_bytes(b"the user's old file")
    proc = fwwrules_process([*WRITERS[command], str(out)], tmp_path, limit_file_size=600)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.decode() == f"fwwrules: error: cannot write {out}: File too large\n"
    assert out.read_bytes() == b"the user's old file"
    assert [p.name for p in tmp_path.iterdir()] == [out.name]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_writing_to_dev_full(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples", "cover-example-1", "-o", "/dev/full"]) == 2
    assert capsys.readouterr().err == (
        "fwwrules: error: cannot write /dev/full: No space left on device\n"
    )


def test_review_onto_a_full_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from fwwrules.draw import review

    monkeypatch.setattr(review, "build_review", lambda *a, **k: "x" * 100_000)
    assert main(["review", "--no-cache", "-o", "/dev/full"]) == 2


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize(
    "args",
    [
        ["schema"],
        ["check", EXAMPLE],
        ["ruling", EXAMPLE, "--attacker", "knight", "--target", "brute", "--json"],
        ["examples"],
        ["examples", "cover-example-1"],
        ["threat", EXAMPLE, "--side", "brotherhood", "--step", "20", "--json"],
    ],
)
def test_a_full_standard_output_exits_2_quietly(args: list[str], tmp_path: Path) -> None:
    """A full stdout said "internal error"."""
    with open("/dev/full", "wb") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "fwwrules", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            timeout=300,
            check=False,
        )
    assert proc.returncode == 2
    assert proc.stderr == b""


def test_a_closed_pipe_exits_2_quietly(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["bash", "-c", f'"{sys.executable}" -m fwwrules examples | true; echo ${{PIPESTATUS[0]}}'],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert proc.stdout == "2\n"
    assert proc.stderr == ""


def test_non_utf8_file_names_under_a_strict_utf8_locale(tmp_path: Path) -> None:
    """A name that is not UTF-8 crashed the command after the work was done."""
    name = b"board-\xff"
    source = os.fsencode(tmp_path) + b"/" + name + b".yaml"
    with open(source, "wb") as f:
        f.write(Path(EXAMPLE).read_bytes())
    env = {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    proc = fwwrules_process(["check", source], tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(os.fsencode(tmp_path) + b"/board-\\xff.yaml: ok")
    picture = os.fsencode(tmp_path) + b"/" + name + b".png"
    proc = fwwrules_process(["render", source, "-o", picture], tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == b"wrote " + os.fsencode(tmp_path) + b"/board-\\xff.png\n"
    assert os.path.exists(picture)


def test_file_names_reach_the_terminal_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name could carry escape sequences or forge an "ok" line."""
    forged = tmp_path / "x\ngood.yaml: ok\x1b[2J"
    forged.write_text("format: fwwrules/scenario@1\nmodels: 5\n")
    assert main(["check", str(forged)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert err.count("\n") == 1
    assert err.startswith(f"{tmp_path}/x\\ngood.yaml: ok\\x1b[2J:2: models:")
    good = tmp_path / "fine\x1b]0;title\x07.yaml"
    good.write_text(Path(EXAMPLE).read_text())
    assert main(["check", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{tmp_path}/fine\\x1b]0;title\\x07.yaml: ok")
    assert main(["render", str(good), "-o", str(tmp_path / "a\rb.png")]) == 0
    assert capsys.readouterr().out == f"wrote {tmp_path}/a\\rb.png\n"


@pytest.mark.parametrize(
    "name",
    [EXAMPLE, str(Path(EXAMPLE).with_suffix("")), "../../tests/conftest", "../examples/x", ""],
)
def test_examples_serves_only_listed_names(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``examples /abs/path`` (or ``../..``) printed, and with -o copied, any .yaml file."""
    assert main(["examples", name]) == 2
    assert main(["examples", name, "-o", str(tmp_path / "copy.yaml")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "unknown example id" in err
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(fwwrules.UnknownIdError):
        fwwrules.example_path(name)


def test_examples_never_serves_a_file_out_of_its_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``examples ../../..`` (a path relative to the examples folder) printed, and with -o
    copied, any readable .yaml file outside it."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("secret: 1\n")
    name = os.path.relpath(tmp_path / "secret", fwwrules.examples_dir())
    assert name.startswith("..")
    assert main(["examples", name]) == 2
    assert main(["examples", name, "-o", str(tmp_path / "copy.yaml")]) == 2
    out, err = capsys.readouterr()
    assert "secret" not in out and "unknown example id" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["secret.yaml"]
    with pytest.raises(fwwrules.UnknownIdError):
        fwwrules.example_path(name)


def test_every_listed_example_is_served(capsys: pytest.CaptureFixture[str]) -> None:
    for name in fwwrules.examples():
        assert fwwrules.example_path(name).is_file()
    assert main(["examples", "grid/cleric"]) == 0
    assert capsys.readouterr().out == Path(GRID).read_text()


@pytest.mark.parametrize("command", ["render", "threat"])
def test_svg_pictures_are_the_same_bytes_on_every_run(command: str, tmp_path: Path) -> None:
    """``threat -o x.svg`` differed on every run (a timestamp, random ids)."""
    args: Callable[[str], list[str]] = lambda out: [*WRITERS[command], out]  # noqa: E731
    runs = []
    for name in ("a.svg", "b.svg"):
        proc = fwwrules_process(args(str(tmp_path / name)), tmp_path)
        assert proc.returncode == 0, proc.stderr
        runs.append((tmp_path / name).read_bytes())
    assert runs[0] == runs[1]
    assert b"<dc:date>" not in runs[0]
