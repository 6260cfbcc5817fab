"""The rulebook example files shipped inside the package."""

from __future__ import annotations

from pathlib import Path

from .errors import UnknownIdError


def examples_dir() -> Path:
    """The folder of the rulebook example scenarios shipped with the package (beside this
    module; the package is always installed as files, never zipped)."""
    return Path(__file__).resolve().parent / "examples"


def example_names() -> tuple[str, ...]:
    """The names of the shipped examples, sorted (``cover-example-1``, ``grid/cleric`` ...):
    each file of the examples folder, by its path inside it without the suffix."""
    base = examples_dir()
    names = {
        p.relative_to(base).with_suffix("").as_posix()
        for suffix in ("*.yaml", "*.json")
        for p in base.rglob(suffix)
        if p.is_file() and not p.is_symlink()
    }
    return tuple(sorted(names))


def example_path(name: str) -> Path:
    """The path of a shipped example by name (one of :func:`example_names`).

    Only the listed names are served: an absolute path, ``../..`` or any other name raises
    :class:`~fwwrules.errors.UnknownIdError` listing the known ones.
    """
    known = example_names()
    if not isinstance(name, str) or name not in known:
        raise UnknownIdError("example", str(name), known)
    base = examples_dir()
    for suffix in (".yaml", ".json"):
        p = base / f"{name}{suffix}"
        if p.is_file():
            return p
    raise UnknownIdError("example", name, known)  # pragma: no cover - listed just above
