"""The threat map's estimate counts every term of its work (issue 31): 50 models at elevations
0/20/40 mm among 50 rectangles with heights took 36 s of CPU (without the elevations 5.8 s),
because the estimate left out the cells the fast path leaves to a full ruling (a target near
contact, off the ground, beside heights). They are now counted once the fast path is done and
before any of them runs: a map over the budget is refused naming a step that fits, and the
default grid grows its step until it fits. Checked under a CPU and memory cap, never a clock.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _scaling import scaling_board
from capped_threat import capped_threat, follow_refusals

from fwwrules.constants import THREAT_COARSEST_STEP_MM
from fwwrules.threat.cost import too_coarse


def lifted_board(tmp_path: Path, models: int, pieces: int) -> str:
    path = tmp_path / f"lifted-{models}-{pieces}.json"
    data = scaling_board(models, pieces, heights=True, elevations=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("models", "pieces"), [(50, 50), (10, 100)])
def test_a_default_threat_map_among_heights_and_elevations_fits_a_cpu_and_memory_cap(
    tmp_path: Path, models: int, pieces: int
) -> None:
    """The default grid grows its step until the rulings its fast path leaves fit the budget
    (the code before ran 36 s on the 50 x 50 board and was killed by the cap)."""
    proc = capped_threat(lifted_board(tmp_path, models, pieces), "--side", "north", "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = json.loads(proc.stdout)
    assert doc["step"] > 6.35  # grown from the default quarter inch


def test_a_step_too_fine_is_refused_naming_a_step_that_fits_and_that_step_fits(
    tmp_path: Path,
) -> None:
    """Each refusal (exit 2, no traceback) names a step; the step named is asked next, and
    within three rounds a map is made under the cap. One of the refusals counts the rulings
    the fast path left (the part of the work the estimate left out before)."""
    board = lifted_board(tmp_path, 50, 50)
    said = follow_refusals(board, "8")
    assert any("full ruling" in text and "budget of 2.5 s" in text for text in said), said


def test_a_default_threat_map_coarser_than_six_inches_is_refused_naming_the_limit(
    tmp_path: Path,
) -> None:
    """200 models among 100 pieces with heights: the code before grew the default grid to a
    step of 1031 mm and answered a map of one position on a 6' table (exit 0). It is refused
    (exit 2) before any position is computed, naming THREAT_COARSEST_STEP_MM and a step; the
    step named, asked for, leads to a map (as coarse as asked) under the cap."""
    board = lifted_board(tmp_path, 200, 100)
    proc = capped_threat(board, "--side", "north", "--json")
    assert proc.returncode == 2, proc.stdout[:200]
    assert "Traceback" not in proc.stderr
    assert "THREAT_COARSEST_STEP_MM" in proc.stderr and "(152.4 mm" in proc.stderr
    step = re.search(r"give a step of at least ([0-9.]+) mm", proc.stderr)
    assert step, proc.stderr
    follow_refusals(board, step.group(1))


def test_the_coarsest_default_step_is_six_inches_in_any_units() -> None:
    """Exactly 6 in (152.4 mm) is allowed, in mm and in inches; beyond it a default grid is
    refused, unless the area is so large that the positions limit alone makes it coarser."""
    assert THREAT_COARSEST_STEP_MM == 152.4
    assert too_coarse(152.4, 6.35, 1.0, "mm") is None
    assert too_coarse(6.0, 0.25, 25.4, "in") is None
    assert "(6 in, THREAT_COARSEST_STEP_MM" in str(too_coarse(6.01, 0.25, 25.4, "in"))
    assert too_coarse(3000.0, 3000.0, 1.0, "mm") is None  # a 768 m area: the positions limit
    said = str(too_coarse(3001.0, 3000.0, 1.0, "mm"))
    assert "(3000 mm, the step the positions limit gives this area)" in said
