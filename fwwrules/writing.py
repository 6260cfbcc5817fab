"""Writing files safely: the one way every file the project writes reaches the disk.

Scenario saves (:func:`fwwrules.save`, the editor's Save), pictures (``fwwrules render -o``,
``threat -o``, exports), the review page and the review page's picture cache all go through
:func:`atomic_open` (or :func:`write_atomic`, its one-call form), which writes as git and
editors do:

1. a temporary file is created beside the target, in the same folder (so the rename below
   stays on one file system), named ``.<name>.<random>.tmp``, never through a symbolic link
   (``O_EXCL | O_NOFOLLOW``);
2. the data is written, flushed and ``fsync``-ed;
3. the temporary file is renamed over the target (atomic on POSIX): a reader sees the old file
   or the new one, never half a file, and a failure part-way (a full disk, a file-size limit,
   an interrupt) leaves the user's existing file exactly as it was.

Boundary cases
--------------
* An existing regular file keeps its permission bits (and, where the process may, its owner):
  the temporary file is created private (0600) and given the old file's mode before anything
  is written, so no one can read it through a wider mode meanwhile.
* A new file follows the umask (``0666 & ~umask``, and the folder's default ACL), as a file
  made by ``open()`` would.
* A symbolic link at the target is replaced by the new file; the file it pointed to is left
  untouched (a link is never followed out of the folder being written).
* A target that exists and is not a regular file (``/dev/null``, ``/dev/full``, a FIFO, a
  terminal) is written directly: there is no file to protect and nothing may be renamed over
  a device. A folder is refused.
* Every failure removes the temporary file and raises :class:`WriteError`, an ``OSError``
  that is also a :class:`~fwwrules.errors.FwwError`: the CLI prints
  ``cannot write FILE: reason`` and exits 2. An exception raised by the caller's own code
  inside :func:`atomic_open` (not an ``OSError``) is re-raised unchanged, after the same
  clean-up.
"""

from __future__ import annotations

import contextlib
import errno as errno_
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

from .errors import FwwError, printable

_NAME_MAX = 255
"""Longest file name most file systems take, in bytes (the temporary name must fit too)."""


class WriteError(FwwError, OSError):
    """A file could not be written: ``cannot write FILE: reason``.

    ``path`` is the target as given, ``reason`` the system's words (or a clearer one for a
    missing folder); ``errno`` and ``filename`` are set as on any ``OSError``.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str, code: int | None = None) -> None:
        OSError.__init__(self, code, reason, os.fspath(path))
        self.path = os.fspath(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {printable(self.path)}: {self.reason}"


def _reason(exc: OSError, folder: str) -> str:
    if exc.errno == errno_.ENOENT:
        return f"no folder {printable(folder)}"
    if exc.errno == errno_.ENOTDIR:
        return f"{printable(folder)} is not a folder"
    return exc.strerror or str(exc)


def _temp_name(name: str) -> str:
    """``.<name>.<random>.tmp``, shortened so that it fits where ``name`` fits."""
    token = secrets.token_hex(6)
    room = _NAME_MAX - len(f"..{token}.tmp")
    return f".{os.fsdecode(os.fsencode(name)[:room])}.{token}.tmp"


def _create_temp(folder: str, name: str, private: bool) -> tuple[int, str]:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(16):
        tmp = os.path.join(folder, _temp_name(name))
        try:
            return os.open(tmp, flags, 0o600 if private else 0o666), tmp
        except FileExistsError:  # pragma: no cover - 48 random bits collided
            continue
    raise FileExistsError(errno_.EEXIST, "no free temporary name", folder)  # pragma: no cover


@overload
def atomic_open(
    path: str | os.PathLike[str], mode: Literal["wb"] = "wb", *, encoding: str = "utf-8"
) -> contextlib.AbstractContextManager[IO[bytes]]: ...
@overload
def atomic_open(
    path: str | os.PathLike[str], mode: Literal["w"], *, encoding: str = "utf-8"
) -> contextlib.AbstractContextManager[IO[str]]: ...
def atomic_open(
    path: str | os.PathLike[str], mode: str = "wb", *, encoding: str = "utf-8"
) -> contextlib.AbstractContextManager[IO[Any]]:
    """A file object for ``path`` whose contents replace the file only when the block ends
    without an exception (see the module's docstring for every boundary case).

    ``mode`` is ``"wb"`` (bytes) or ``"w"`` (text in ``encoding``).

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_open(folder / "a.txt", "w") as f:
    ...     _ = f.write("hello")
    >>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
    ('hello', ['a.txt'])
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"mode must be 'w' or 'wb', got {mode!r}")
    return _atomic(os.fspath(path), mode, encoding)


@contextlib.contextmanager
def _atomic(path: str, mode: str, encoding: str) -> Iterator[IO[Any]]:
    folder, name = os.path.split(path)
    folder = folder or "."
    try:
        st: os.stat_result | None = os.lstat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(path, _reason(exc, folder), exc.errno) from None
    if not name or (st is not None and stat.S_ISDIR(st.st_mode)):
        raise WriteError(path, "it is a folder", errno_.EISDIR)
    if st is not None and not stat.S_ISREG(st.st_mode) and not stat.S_ISLNK(st.st_mode):
        with _direct(path, mode, encoding) as f:
            yield f
        return
    keep = st if st is not None and stat.S_ISREG(st.st_mode) else None
    try:
        fd, tmp = _create_temp(folder, name, private=keep is not None)
    except OSError as exc:
        raise WriteError(path, _reason(exc, folder), exc.errno) from None
    try:
        if keep is not None:
            os.fchmod(fd, stat.S_IMODE(keep.st_mode))
            if (keep.st_uid, keep.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.fchown(fd, keep.st_uid, keep.st_gid)
        out: IO[Any] = os.fdopen(fd, mode, encoding=encoding if mode == "w" else None)
    except BaseException as exc:
        os.close(fd)
        _remove(tmp)
        if isinstance(exc, OSError):
            raise WriteError(path, _reason(exc, folder), exc.errno) from None
        raise
    try:
        with out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        _remove(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, WriteError):
            raise WriteError(path, _reason(exc, folder), exc.errno) from None
        raise
    _sync_folder(folder)


@contextlib.contextmanager
def _direct(path: str, mode: str, encoding: str) -> Iterator[IO[Any]]:
    """Write a device, FIFO or terminal in place (nothing to protect, nothing to rename)."""
    try:
        f: IO[Any] = open(path, mode, encoding=encoding if mode == "w" else None)  # noqa: SIM115
    except OSError as exc:
        raise WriteError(path, exc.strerror or str(exc), exc.errno) from None
    try:
        with f:
            yield f
    except OSError as exc:
        if isinstance(exc, WriteError):
            raise
        raise WriteError(path, exc.strerror or str(exc), exc.errno) from None


def _remove(tmp: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(tmp)


def _sync_folder(folder: str) -> None:
    """Make the rename itself durable (best effort: not every file system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(
    path: str | os.PathLike[str], data: bytes | str, *, encoding: str = "utf-8"
) -> Path:
    """Write ``data`` (text in ``encoding``, or bytes) to ``path`` through :func:`atomic_open`;
    return the path. Raises :class:`WriteError` (``cannot write FILE: reason``)."""
    if isinstance(data, str):
        with atomic_open(path, "w", encoding=encoding) as f:
            f.write(data)
    else:
        with atomic_open(path, "wb") as fb:
            fb.write(data)
    return Path(path)
