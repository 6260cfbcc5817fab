"""The review page's picture cache in a folder others can write: it deletes only what it made,
never follows a link, reads only regular files of bounded size, and leaves no ``.tmp`` litter
(issue #21: a symlinked cache folder had every sub-folder of its target deleted; a FIFO hung
``review``; a link to /dev/zero read until MemoryError)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fwwrules.cli import main
from fwwrules.draw import review

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def fake_drawing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    drawn: list[str] = []

    def fake(scenario: object, answer: object, kind: str, lang: str) -> bytes:
        drawn.append(kind)
        return PNG + b"picture"

    monkeypatch.setattr(review, "_draw_picture", fake)
    return drawn


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root`` (links not followed) with what it is."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            kind = "link" if p.is_symlink() else "dir" if p.is_dir() else repr(p.read_bytes())
            out[str(p.relative_to(root))] = kind
    return out


def test_a_symlinked_cache_folder_is_not_used_and_its_target_is_untouched(
    tmp_path: Path, fake_drawing: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    victim = tmp_path / "victim"
    for name in ("photos", "a" * 24, "b" * 24):
        (victim / name).mkdir(parents=True)
        (victim / name / "keep.txt").write_text("mine")
    (victim / ("c" * 24)).mkdir()
    (victim / ("c" * 24) / ("d" * 32 + ".png")).write_text("looks like a picture")
    before = tree(victim)
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    (cache_dir / "review-pictures").symlink_to(victim)
    monkeypatch.setenv("FWWRULES_CACHE_DIR", str(cache_dir))
    for _ in range(2):
        assert main(["review", "-o", str(tmp_path / "page.html")]) == 0
    assert tree(victim) == before
    pictures = len(fake_drawing) // 2
    assert pictures > 0 and fake_drawing[:pictures] == fake_drawing[pictures:]  # no cache


def test_pruning_removes_only_the_caches_own_files(tmp_path: Path, fake_drawing: list[str]) -> None:
    root = tmp_path / "review-pictures"
    old = root / ("0" * 24)
    old.mkdir(parents=True)
    (old / ("1" * 32 + ".png")).write_bytes(PNG)
    (old / (".{}.png.{}.tmp".format("2" * 32, "3" * 12))).write_bytes(b"half")
    (old / "notes.txt").write_text("not the cache's")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep")
    (old / "link").symlink_to(outside)
    (old / "sub").mkdir()
    (old / "sub" / ("4" * 32 + ".png")).write_bytes(PNG)
    other = root / "my-things"
    other.mkdir()
    (other / ("5" * 32 + ".png")).write_bytes(PNG)
    (root / ("6" * 24)).symlink_to(outside)  # a link named like a digest folder
    review.build_review("en", clauses=[], cache=review.PictureCache(tmp_path))
    assert sorted(p.name for p in old.iterdir()) == ["link", "notes.txt", "sub"]
    assert (old / "sub" / ("4" * 32 + ".png")).exists()
    assert (other / ("5" * 32 + ".png")).exists()
    assert tree(outside) == {"precious.txt": "b'keep'"}
    assert (root / ("6" * 24)).is_symlink()
    # an old folder holding only the cache's own files goes entirely
    (old / "notes.txt").unlink()
    (old / "link").unlink()
    (old / "sub" / ("4" * 32 + ".png")).unlink()
    (old / "sub").rmdir()
    (old / ("7" * 32 + ".png")).write_bytes(PNG)
    cache = review.PictureCache(tmp_path)
    for picture in (root / cache.digest[:24]).iterdir():
        picture.unlink()  # so that this run stores pictures again, and prunes first
    review.build_review("en", clauses=[], cache=cache)
    assert not old.exists()


READ_ONE = textwrap.dedent(
    """
    import os, resource, sys
    from pathlib import Path
    from fwwrules.draw import review
    resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
    cache = review.PictureCache(Path(sys.argv[1]))
    path = cache._path("item", "en")
    path.parent.mkdir(parents=True)
    if sys.argv[2] == "fifo":
        os.mkfifo(path)
    elif sys.argv[2] == "big":
        path.write_bytes(b"\\x89PNG\\r\\n\\x1a\\n" + b"0" * 9_000_000)
    else:
        path.symlink_to(sys.argv[2])
    print(cache.get("item", "en"), cache.misses)
    """
)


@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "big"])
def test_a_cached_picture_that_is_not_a_regular_small_file_is_a_miss(
    tmp_path: Path, special: str
) -> None:
    """A FIFO hung ``review``; a link to /dev/zero read until MemoryError."""
    proc = subprocess.run(
        [sys.executable, "-c", READ_ONE, str(tmp_path), special],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.stdout == "None 1\n", proc.stderr[-2000:]


FULL_DISK = textwrap.dedent(
    """
    import resource, sys
    from pathlib import Path
    from fwwrules.draw import review
    review._draw_picture = lambda *a: b"\\x89PNG\\r\\n\\x1a\\n" + b"0" * 5000
    resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))
    cache = review.PictureCache(Path(sys.argv[1]))
    review.build_review("en", clauses=[], cache=cache)
    print("done", cache.misses > 0)
    """
)


def test_a_full_disk_leaves_no_temporary_files_in_the_cache(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", FULL_DISK, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.stdout == "done True\n", proc.stderr[-2000:]
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []
