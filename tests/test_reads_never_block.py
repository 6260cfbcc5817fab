"""Every reader of a user's file opens it without blocking and checks what it opened (issue
31): a file swapped for a FIFO between a check and the open (a shared folder, a sync tool)
is refused with exit status 2 at once, never waited on; a device is never read without end.

The swap is simulated by letting the name check see a regular file (``Path.is_file`` answers
True) while a FIFO stands at the path, with a writer waiting on it: a reader that opens the
FIFO blocking waits for that writer and then reads its text (the starting code answered with
the scenario the FIFO carried); one that opens without blocking sees a FIFO and refuses.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from fwwrules.cli import main
from fwwrules.errors import FwwError

EXPORT = {"format": "fwwrules/review@1", "lang": "de", "reviewer": "x", "suggestions": {}}


@contextlib.contextmanager
def swapped_for_a_fifo(
    path: Path, text: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[threading.Thread]:
    """A FIFO at ``path`` that a checked name calls a regular file, with a thread waiting to
    write ``text`` into it as soon as a reader opens it."""
    os.mkfifo(path)
    monkeypatch.setattr(Path, "is_file", lambda self: True)
    monkeypatch.setattr(os.path, "isfile", lambda p: True)

    def write() -> None:
        with contextlib.suppress(OSError), open(path, "w", encoding="utf-8") as f:
            f.write(text)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        yield writer
    finally:
        monkeypatch.undo()
        for _ in range(200):  # let a writer still waiting for a reader go
            if not writer.is_alive():
                break
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            os.close(fd)
            writer.join(0.05)


def test_load_refuses_a_file_swapped_for_a_fifo(
    tmp_path: Path, good_yaml: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fwwrules

    path = tmp_path / "board.yaml"
    with (
        swapped_for_a_fifo(path, good_yaml, monkeypatch),
        pytest.raises(FwwError, match="not a regular file"),
    ):
        fwwrules.load(path)


@pytest.mark.parametrize(
    "args",
    [
        ["check"],
        ["ruling", "--attacker", "knight", "--target", "brute"],
        ["grid", "--attacker", "a", "--target", "b"],
    ],
    ids=["check", "ruling", "grid"],
)
def test_commands_refuse_a_file_swapped_for_a_fifo_with_exit_2(
    args: list[str],
    tmp_path: Path,
    good_yaml: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "board.yaml"
    with swapped_for_a_fifo(path, good_yaml, monkeypatch):
        code = main([args[0], str(path), *args[1:]])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{path}: cannot read the file (not a regular file)" in err


def test_the_editor_refuses_a_file_swapped_for_a_fifo(
    tmp_path: Path, good_yaml: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fwwrules_widgets import BoardEditor

    path = tmp_path / "board.yaml"
    with (
        swapped_for_a_fifo(path, good_yaml, monkeypatch),
        pytest.raises(FwwError, match="not a regular file"),
    ):
        BoardEditor.from_file(path, interactive=False)


def test_a_review_export_swapped_for_a_fifo_is_refused_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "review.json"
    out = tmp_path / "de.po"
    with swapped_for_a_fifo(path, json.dumps(EXPORT), monkeypatch):
        code = main(["review", "--suggestions", str(path), "-o", str(out)])
    assert code == 2
    assert "not a regular file" in capsys.readouterr().err
    assert not out.exists()


def test_a_gettext_file_swapped_for_a_fifo_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fwwrules.pofile import PoError, read_po

    path = tmp_path / "de.po"
    with (
        swapped_for_a_fifo(path, 'msgid ""\nmsgstr ""\n', monkeypatch),
        pytest.raises(PoError, match="not a regular file"),
    ):
        read_po(path)


def test_a_folder_is_refused_as_a_scenario(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(tmp_path)]) == 2
    assert "cannot read the file (not a regular file)" in capsys.readouterr().err


DEVICE_EXPORT = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_000_000_000, 1_000_000_000))
resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
from fwwrules.cli import main
sys.exit(main(["review", "--suggestions", "/dev/zero", "-o", sys.argv[1]]))
"""


def test_a_review_export_that_is_a_device_is_refused_unread(tmp_path: Path) -> None:
    """Under a 1 GB address-space and 30 s CPU cap: ``/dev/zero`` as an export is refused at
    once (the starting code read it until MemoryError)."""
    proc = subprocess.run(
        [sys.executable, "-c", DEVICE_EXPORT, str(tmp_path / "de.po")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "/dev/zero: cannot read: not a regular file" in proc.stderr
