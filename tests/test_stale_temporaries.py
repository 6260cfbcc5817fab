"""A process killed while writing leaves its temporary file; the next write removes it (issue
31): a killed ``save`` left ``.board.yaml.<random>.tmp`` beside the (whole) file, and a
review killed while storing a picture left ``.<hash>.png.<random>.tmp`` in the cache for
ever. Only one's own stale temporaries go: named as the writer names them, regular files
owned by the user, not locked by a live writer, and ``STALE_TEMPORARY_S`` old (a kill is
simulated for real; its age is then set back, as a later run finds it).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import fwwrules
from fwwrules.writing import write_atomic

EXAMPLE = fwwrules.example_path("cover-example-1")

STALL_IN_FSYNC = """
import os, sys
def stall(fd):
    print("writing", flush=True)
    sys.stdin.read()  # until killed
os.fsync = stall
"""

SAVE = (
    STALL_IN_FSYNC
    + """
import fwwrules
fwwrules.save(fwwrules.load(sys.argv[1]), sys.argv[2])
"""
)

STORE_PICTURE = (
    STALL_IN_FSYNC
    + """
from pathlib import Path
from fwwrules.draw import review
review.PictureCache(Path(sys.argv[1])).put("item", "en", b"\\x89PNG\\r\\n\\x1a\\n" + b"0" * 4096)
"""
)


def stalled_writer(code: str, *args: str) -> subprocess.Popen[str]:
    """A process stopped in the middle of writing (its temporary file written, not renamed)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline() == "writing\n"
    return proc


def killed(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)


def temporaries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob(".*.tmp"))


AN_HOUR = 3600.0
"""How old a left temporary file is made: far older than ``STALE_TEMPORARY_S``."""


def aged(path: Path, seconds: float = AN_HOUR) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then), follow_symlinks=False)


def test_a_killed_save_leaves_a_temporary_file_the_next_save_removes(tmp_path: Path) -> None:
    target = tmp_path / "board.yaml"
    target.write_bytes(EXAMPLE.read_bytes())
    killed(stalled_writer(SAVE, str(EXAMPLE), str(target)))
    (left,) = temporaries(tmp_path)
    assert left.name.startswith(".board.yaml.")
    assert target.read_bytes() == EXAMPLE.read_bytes()  # the whole old file
    aged(left)
    fwwrules.save(fwwrules.load(target), target)
    assert temporaries(tmp_path) == []


def test_a_review_killed_while_storing_a_picture_leaves_nothing_behind_the_next_run(
    tmp_path: Path,
) -> None:
    from fwwrules.draw import review

    killed(stalled_writer(STORE_PICTURE, str(tmp_path)))
    (left,) = temporaries(tmp_path)
    aged(left)
    cache = review.PictureCache(tmp_path)
    cache.put("another item", "de", b"\x89PNG\r\n\x1a\n")
    assert temporaries(tmp_path) == []
    assert cache.get("another item", "de") is not None


def test_a_temporary_file_a_live_writer_holds_is_never_removed(tmp_path: Path) -> None:
    from fwwrules.constants import STALE_TEMPORARY_S
    from fwwrules.writing import remove_stale_temporaries

    assert STALE_TEMPORARY_S < AN_HOUR
    target = tmp_path / "board.yaml"
    writer = stalled_writer(SAVE, str(EXAMPLE), str(target))
    try:
        (held,) = temporaries(tmp_path)
        aged(held)  # however long it has been writing
        write_atomic(target, "format: fwwrules/scenario@1\n")
        assert remove_stale_temporaries(tmp_path) == 0
        assert held.exists()
    finally:
        killed(writer)
    assert remove_stale_temporaries(tmp_path) == 1  # once its writer is gone
    assert not held.exists()


@pytest.mark.parametrize(
    "make",
    ["young", "another target", "symbolic link", "folder", "not our name"],
)
def test_only_ones_own_stale_temporaries_are_removed(make: str, tmp_path: Path) -> None:
    target = tmp_path / "board.yaml"
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me", encoding="utf-8")
    names = {
        "young": ".board.yaml.0123456789ab.tmp",
        "another target": ".notes.txt.0123456789ab.tmp",
        "symbolic link": ".board.yaml.0123456789ab.tmp",
        "folder": ".board.yaml.0123456789ab.tmp",
        "not our name": ".board.yaml.backup.tmp",
    }
    other = tmp_path / names[make]
    if make == "symbolic link":
        other.symlink_to(outside)
    elif make == "folder":
        other.mkdir()
    else:
        other.write_text("someone's", encoding="utf-8")
    if make != "young":
        aged(other)
    write_atomic(target, "format: fwwrules/scenario@1\n")
    assert other.exists() or other.is_symlink()
    assert outside.read_text(encoding="utf-8") == "keep me"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_another_users_temporary_file_is_never_removed(tmp_path: Path) -> None:
    other = tmp_path / ".board.yaml.0123456789ab.tmp"
    other.write_text("someone's", encoding="utf-8")
    os.chown(other, 65534, 65534)
    aged(other)
    write_atomic(tmp_path / "board.yaml", "format: fwwrules/scenario@1\n")
    assert other.exists()
