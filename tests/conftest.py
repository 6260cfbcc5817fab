"""Shared fixtures: a small valid scenario as text, and a helper to write files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

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
