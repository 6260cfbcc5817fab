"""The rulebook example files shipped inside the package."""

from __future__ import annotations

from pathlib import Path

from .errors import UnknownIdError


def examples_dir() -> Path:
    """The folder of the rulebook example scenarios shipped with the package (beside this
    module; the package is always installed as files, never zipped)."""
    return Path(__file__).resolve().parent / "examples"


def example_path(name: str) -> Path:
    """The path of a shipped example by name (``cover-example-1``, ``grid/cleric`` ...).

    An unknown name raises :class:`~fwwrules.errors.UnknownIdError` listing the known ones.
    """
    base = examples_dir()
    for suffix in (".yaml", ".json"):
        p = base / f"{name}{suffix}"
        if p.is_file():
            return p
    known = sorted(str(p.relative_to(base).with_suffix("")) for p in base.rglob("*.yaml"))
    raise UnknownIdError("example", name, known)
