"""The shipped examples (and the notebooks' own boards) and every ordered pair of their
models: the attacks the tests that walk every example ask about."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import fwwrules
from fwwrules.data import Scenario

REPO = Path(__file__).resolve().parents[1]


def example_paths(notebooks: bool = False) -> list[Path]:
    """Every shipped example file; with ``notebooks``, the notebooks' own boards too."""
    out = sorted(fwwrules.examples_dir().glob("*.yaml"))
    return out + sorted((REPO / "notebooks" / "scenarios").glob("*.yaml")) if notebooks else out


def model_pairs(path: Path) -> Iterator[tuple[Scenario, str, str]]:
    """The scenario of ``path`` with each ordered pair of its models' ids (attacker, target)."""
    s = fwwrules.load(path)
    assert isinstance(s, Scenario)
    for a in s.models:
        for b in s.models:
            if a.id != b.id:
                yield s, a.id, b.id
