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
* A process killed part-way (``kill -9``, a power cut) cannot clean up: its temporary file
  stays. The writer holds an exclusive lock (``flock``) on its temporary file from creation to
  rename, so the next write to the same target removes such a file once no process holds its
  lock and it is :data:`~fwwrules.constants.STALE_TEMPORARY_S` old
  (:func:`remove_stale_temporaries`): only files named as this module names them, regular
  files (never a link) owned by the user running it, never one a live writer is writing.

Reading the user's files goes through :func:`read_regular`: opened without blocking and
checked on the open descriptor, so a FIFO or a device put where a file was expected (even
between a check and the open: a shared folder, a sync tool) is refused at once. Before a
command writes, :func:`refuse_onto_inputs` makes sure the output is none of its inputs (the
same file, through a hard or a symbolic link too).
"""

from __future__ import annotations

import contextlib
import errno as errno_
import fcntl
import os
import re
import stat
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any, Literal, overload

from .constants import STALE_TEMPORARY_S
from .errors import FwwError, QueryError, printable

_NAME_MAX = 255
"""Longest file name most file systems take, in bytes (the temporary name must fit too)."""


PICTURE_FORMATS = ("png", "svg")
"""The still picture formats, by name (also the file name's suffix)."""
ANIMATION_FORMATS = ("gif", "html")
"""The animation formats of a slide (``fwwrules render --slide``), by name and suffix."""


def check_output_name(path: str | os.PathLike[str], *, animation: bool = False) -> str:
    """The format named by ``path``'s suffix (lower case, no dot): ``png`` or ``svg``, and with
    ``animation`` also ``gif`` or ``html``. Anything else (no suffix, ``.jpg``, ``.json``) raises
    :class:`~fwwrules.errors.QueryError` naming the file: the command line calls this before it
    reads its input, so a wrong name costs no work.

    >>> check_output_name("Board.SVG"), check_output_name("slide.gif", animation=True)
    ('svg', 'gif')
    """
    name = os.path.basename(os.fspath(path))
    fmt = os.path.splitext(name)[1].lower().lstrip(".")
    if fmt in PICTURE_FORMATS or (animation and fmt in ANIMATION_FORMATS):
        return fmt
    if animation:
        raise QueryError(
            f"cannot write {name!r}: the name must end in .gif or .html (an animation) "
            "or .png or .svg (where the slide ends)"
        )
    raise QueryError(f"cannot write {name!r}: the name must end in .png or .svg")


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


_TOKEN_HEX = 12
"""Hex digits of the random part of a temporary name (48 bits)."""
_TEMP_NAME = re.compile(rf"\.(.+)\.[0-9a-f]{{{_TOKEN_HEX}}}\.tmp", re.DOTALL)
"""A temporary file this module names: ``.<name>.<random>.tmp``."""


def _temp_stem(name: str) -> str:
    """The target's part of its temporary names: ``name``, shortened so that the whole
    temporary name fits where ``name`` fits."""
    room = _NAME_MAX - len(f"..{'0' * _TOKEN_HEX}.tmp")
    return os.fsdecode(os.fsencode(name)[:room])


def _temp_name(name: str) -> str:
    """``.<name>.<random>.tmp``, shortened so that it fits where ``name`` fits."""
    return f".{_temp_stem(name)}.{os.urandom(_TOKEN_HEX // 2).hex()}.tmp"


def _create_temp(folder: str, name: str, private: bool) -> tuple[int, str]:
    """A new temporary file for ``name`` in ``folder``, locked (``flock``) as being written."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    for _ in range(16):
        tmp = os.path.join(folder, _temp_name(name))
        try:
            fd = os.open(tmp, flags, 0o600 if private else 0o666)
        except FileExistsError:  # pragma: no cover - 48 random bits collided
            continue
        with contextlib.suppress(OSError):  # a file system without locks: never seen stale
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd, tmp
    raise FileExistsError(errno_.EEXIST, "no free temporary name", folder)  # pragma: no cover


def remove_stale_temporaries(folder: str | os.PathLike[str], name: str | None = None) -> int:
    """Remove the temporary files that writers killed part-way left in ``folder`` (those of
    the target ``name`` only, or of any target); return how many were removed.

    A file is removed only when all of these hold: it is named as :func:`atomic_open` names
    its temporary files (``.<name>.<12 hex digits>.tmp``); it is a regular file, not a link,
    owned by the user running this; no process holds its lock (a live writer holds it from
    creating the file until renaming it, however long it writes); and it was last written at
    least :data:`~fwwrules.constants.STALE_TEMPORARY_S` ago (the instant between a writer's
    creating and locking it). Anything that cannot be read, locked or removed is left alone,
    silently: cleaning up never makes a write fail.
    """
    try:
        entries = os.listdir(folder)
    except OSError:
        return 0
    stem = None if name is None else _temp_stem(name)
    removed = 0
    for entry in entries:
        found = _TEMP_NAME.fullmatch(entry)
        if found is None or (stem is not None and found.group(1) != stem):
            continue
        removed += _remove_if_stale(os.path.join(folder, entry))
    return removed


def _remove_if_stale(path: str) -> int:
    """1 when ``path`` was a stale temporary file and is removed (see
    :func:`remove_stale_temporaries`), else 0."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError:
        return 0
    try:
        st = os.fstat(fd)
        old = time.time() - st.st_mtime >= STALE_TEMPORARY_S
        if not (stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and old):
            return 0
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # held by a live writer: OSError
        now = os.lstat(path)
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
            return 0
        os.unlink(path)
        return 1
    except OSError:
        return 0
    finally:
        os.close(fd)


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
    remove_stale_temporaries(folder, name)
    try:
        fd, tmp = _create_temp(folder, name, private=keep is not None)
    except OSError as exc:
        raise WriteError(path, _reason(exc, folder), exc.errno) from None
    lock = os.dup(fd)  # holds the temporary file's lock until it is renamed (or removed)
    try:
        yield from _fill_and_rename(fd, tmp, path, (folder, mode, encoding), keep)
    finally:
        os.close(lock)
    _sync_folder(folder)


def _fill_and_rename(
    fd: int, tmp: str, path: str, how: tuple[str, str, str], keep: os.stat_result | None
) -> Iterator[IO[Any]]:
    """The body of :func:`_atomic` once its temporary file exists: the old file's mode, the
    caller's writing, ``fsync``, the rename; the temporary file removed on any failure."""
    folder, mode, encoding = how
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


class NotARegularFile(OSError):
    """What :func:`read_regular` found is not a regular file (a FIFO, a device, a folder)."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file ``path``: at most ``limit + 1`` of them (the caller sees
    that a file is over its limit without reading more).

    The file is opened without blocking (``O_NONBLOCK``) and checked on the open descriptor
    (``fstat``), never by its name beforehand: a FIFO, a device or a folder at ``path`` raises
    :class:`NotARegularFile` at once, even one swapped in between a check and the open (a
    FIFO opened blocking waits for a writer for ever; ``/dev/zero`` never ends). A symbolic
    link to a regular file is read (a user's file may be one). Other failures raise the
    ``OSError`` of the system (no such file, no permission).
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
            raise NotARegularFile(errno_.EINVAL, what, os.fspath(path))
        chunks: list[bytes] = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def refuse_onto_inputs(
    output: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]]
) -> None:
    """Raise :class:`WriteError` when writing ``output`` would replace one of ``inputs``: the
    same file by its name, through a symbolic link, or as a hard link of it (same device and
    inode). A command reads its inputs before it writes, so writing over one would lose the
    user's file (``fwwrules render board.svg -o board.svg`` read the scenario from
    ``board.svg``). An output that does not exist yet is none of the inputs.
    """
    try:
        out = os.stat(output)
    except OSError:
        return
    for source in inputs:
        try:
            src = os.stat(source)
        except OSError:
            continue
        if (out.st_dev, out.st_ino) == (src.st_dev, src.st_ino):
            same = os.fspath(output) == os.fspath(source)
            how = "" if same else f" (the same file as {printable(os.fspath(source))})"
            raise WriteError(
                output,
                f"it is an input of this command{how}; write the output to another file",
                errno_.EEXIST,
            )
