"""Shared fixtures: a small valid scenario as text, a helper to write files, and a picture
cache of the session's own (``fwwrules review`` never touches the user's ``~/.cache``)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _session_picture_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``FWWRULES_CACHE_DIR`` for the whole session (subprocesses inherit it): the review page
    built by one test is drawn from the cache by the next."""
    cache = tmp_path_factory.mktemp("fwwrules-cache")
    before = os.environ.get("FWWRULES_CACHE_DIR")
    os.environ["FWWRULES_CACHE_DIR"] = str(cache)
    yield cache
    if before is None:
        os.environ.pop("FWWRULES_CACHE_DIR", None)
    else:
        os.environ["FWWRULES_CACHE_DIR"] = before


GOOD_YAML = """\
format: fwwrules/scenario@1
title: Catalogue base
rules: core
units: mm
models:
  - id: knight
    faction: brotherhood
    base: 40
    at: [100, 100]
    skills: {rifle: 7}
    weapons: [laser-rifle]
  - id: brute
    faction: mutants
    base: 40
    at: [300, 100]
terrain:
  - id: crate
    kind: cover
    polygon: [[180, 80], [220, 80], [220, 120], [180, 120]]
weapons:
  - id: laser-rifle
    type: rifle
    short: red
    long: green
    dice: {short: [green], long: [black]}
"""
"""The scenario every file in ``tests/malformed/`` was made from (each breaks one thing)."""


@pytest.fixture
def good_yaml() -> str:
    return GOOD_YAML


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str | bytes], Path]:
    """``write(name, text_or_bytes)`` puts a file into ``tmp_path`` and returns its path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        return path

    return _write
