"""The time budget holds per ruling (issue 31): no command asks every pair of a board, and a
notebook's loop over all 39,800 ordered pairs of 200 models makes that many rulings (about
0.4 ms each, ~17 s in all: docs/scenario-format.md, Limits). What must hold is that each
ruling stays bounded however many the loop asks on one board, its memo included: here the
rulings of one model with every other model of the fullest crowd, both ways, and the pair the
benchmark found slowest, in a fresh interpreter under a CPU and memory cap (never a clock)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from capped_threat import run_capped

import fwwrules

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from worst_case import huge_crowd, los_circles


def _rule_one_against_all() -> None:
    for build in (huge_crowd, los_circles):
        s = fwwrules.loads(json.dumps(build()), source="crowd.json")
        ids = [m.id for m in s.models]
        assert len(ids) == 200
        for other in ids[1:]:
            fwwrules.ruling(s, ids[0], other)
            fwwrules.ruling(s, other, ids[0])


def test_a_models_rulings_with_every_other_model_run_under_a_cpu_and_memory_cap() -> None:
    """796 rulings on two full boards (about 0.5 s here) under 8 s of CPU and 1.5 GB."""
    run_capped(__file__, "_rule_one_against_all")
