"""Every file the project writes goes through ``fwwrules.writing``: a temporary file beside the
target, renamed over it; an existing file keeps its mode, a new one follows the umask; a link is
replaced, never followed; a failure leaves the old file and no litter, as ``WriteError``.

Also issue #20's file modes: the editor's Save and ``fwwrules.save`` over an existing 0644 file.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

import fwwrules
from fwwrules.errors import FwwError
from fwwrules.writing import WriteError, atomic_open, write_atomic

EXAMPLE = fwwrules.example_path("cover-example-1")


@pytest.fixture
def umask() -> Iterator[None]:
    """Run the test under umask 077 (so a mode kept and a mode made from the umask differ)."""
    old = os.umask(0o077)
    yield
    os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_new_file_follows_the_umask(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        write_atomic(tmp_path / "a.txt", "x")
    finally:
        os.umask(old)
    assert mode(tmp_path / "a.txt") == 0o640
    assert os.listdir(tmp_path) == ["a.txt"]


@pytest.mark.parametrize("kept", [0o644, 0o600, 0o664, 0o444])
def test_existing_file_keeps_its_mode(tmp_path: Path, umask: None, kept: int) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old")
    target.chmod(kept)
    write_atomic(target, "new")
    assert target.read_text() == "new"
    assert mode(target) == kept


def test_save_and_editor_save_keep_an_existing_0644_file_0644(tmp_path: Path, umask: None) -> None:
    """Issue #20: the editor wrote 0600 and reset an existing file's mode to 0600."""
    from fwwrules_widgets import BoardEditor

    scenario = fwwrules.load(EXAMPLE)
    for name in ("saved.yaml", "saved.json"):
        target = tmp_path / name
        target.write_text("old\n")
        target.chmod(0o644)
        fwwrules.save(scenario, target)
        assert mode(target) == 0o644, name
        assert fwwrules.load(target) == scenario
        editor = BoardEditor(scenario, interactive=False)
        target.chmod(0o644)
        editor.save(target)
        assert mode(target) == 0o644, name
        assert fwwrules.load(target) == editor.scenario  # the editor adds the table's size
    # new files follow the umask (077 here), from either
    fwwrules.save(scenario, tmp_path / "new.yaml")
    BoardEditor(scenario, interactive=False).save(tmp_path / "new2.yaml")
    assert mode(tmp_path / "new.yaml") == mode(tmp_path / "new2.yaml") == 0o600
    assert sorted(os.listdir(tmp_path)) == [
        "new.yaml",
        "new2.yaml",
        "saved.json",
        "saved.yaml",
    ]


def test_a_symlink_is_replaced_and_its_target_left_alone(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    precious = outside / "precious.txt"
    precious.write_text("keep me")
    folder = tmp_path / "folder"
    folder.mkdir()
    link = folder / "out.txt"
    link.symlink_to(precious)
    write_atomic(link, "new")
    assert precious.read_text() == "keep me"
    assert not link.is_symlink()
    assert link.read_text() == "new"


def test_a_failure_inside_the_block_keeps_the_old_file_and_leaves_no_litter(
    tmp_path: Path,
) -> None:
    target = tmp_path / "board.yaml"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(target, "w") as f:
        f.write("half")
        raise RuntimeError("drawing failed")
    assert target.read_text() == "old"
    assert os.listdir(tmp_path) == ["board.yaml"]


def test_write_errors_say_cannot_write_and_are_oserrors(tmp_path: Path) -> None:
    with pytest.raises(WriteError) as info:
        write_atomic(tmp_path / "missing" / "x.png", b"data")
    assert str(info.value) == f"cannot write {tmp_path}/missing/x.png: no folder {tmp_path}/missing"
    assert isinstance(info.value, OSError) and isinstance(info.value, FwwError)
    (tmp_path / "dir").mkdir()
    with pytest.raises(WriteError, match="it is a folder"):
        write_atomic(tmp_path / "dir", "x")
    (tmp_path / "file").write_text("")
    with pytest.raises(WriteError, match="is not a folder"):
        write_atomic(tmp_path / "file" / "x.txt", "x")
    assert sorted(os.listdir(tmp_path)) == ["dir", "file"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_devices_are_written_in_place_never_replaced() -> None:
    write_atomic("/dev/null", "x")
    assert stat.S_ISCHR(os.lstat("/dev/null").st_mode)
    with pytest.raises(WriteError) as info:
        write_atomic("/dev/full", b"x" * 100_000)
    assert str(info.value) == "cannot write /dev/full: No space left on device"
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)


FULL_DISK = textwrap.dedent(
    """
    import resource, sys
    import fwwrules
    s = fwwrules.load(fwwrules.example_path("cover-example-4"))
    resource.setrlimit(resource.RLIMIT_FSIZE, (200, 200))
    try:
        fwwrules.save(s, sys.argv[1])
    except OSError as exc:
        print(type(exc).__name__, exc)
    """
)


def test_save_onto_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    """Issue #21: ``fwwrules.save`` wrote in place; a disk full part-way (here a file-size
    limit) left half a YAML file that no longer loads."""
    target = tmp_path / "board.yaml"
    fwwrules.save(fwwrules.load(EXAMPLE), target)
    before = target.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.strip() == f"WriteError cannot write {target}: File too large", proc.stderr
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["board.yaml"]
    fwwrules.load(target)


def test_editor_save_onto_a_full_disk_keeps_the_old_file(tmp_path: Path) -> None:
    code = FULL_DISK.replace("import fwwrules\n", "import fwwrules\nimport fwwrules_widgets\n")
    code = code.replace(
        "fwwrules.save(s, sys.argv[1])",
        "fwwrules_widgets.BoardEditor(s, interactive=False).save(sys.argv[1])",
    )
    target = tmp_path / "board.yaml"
    fwwrules.save(fwwrules.load(EXAMPLE), target)
    before = target.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-c", code, str(target)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout.strip() == f"WriteError cannot write {target}: File too large", proc.stderr
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == ["board.yaml"]
