"""The threat map's estimate counts every term of its work and bounds what the map does
(issue 31): the cells the fast path takes, its line-of-sight passes (one per shooter and group
of positions standing on the same pieces, which the estimate left out before: 10 models among
500 rectangles took 3.4 s of CPU at a step the estimate let through) and the full rulings.
The map counts what it does as it runs (``Computed.work``) and what its estimate counted
before (``Computed.plan``); the tests compare the counts, never a clock. A step whose passes
do not fit is refused, naming them and a step that fits, under a CPU and memory cap. So is
one whose positions in the partial shadow of the pieces (left to the costly line-of-sight
proofs, counted once the cheap proofs are done) do not fit: on the crowded board of
``bench/threat_map.py`` the estimate left them out (2.05 s estimated, 2.4-3.2 s of CPU).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fwwrules
import fwwrules.threat.map as threat_module
from fwwrules import Model, Rect, Scenario, Terrain, Weapon
from fwwrules.constants import THREAT_BUDGET_S
from fwwrules.placement import centres_on
from fwwrules.saving import dump_text
from fwwrules.threat import threat_map
from fwwrules.threat.compute import Computed
from fwwrules.threat.cost import Load, load_of, work_seconds
from fwwrules.threat.shooter import stood_on_groups

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _board import BOARD_MM, crowded_board
from _scaling import scaling_board
from capped_threat import follow_refusals

RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("black",)})


@pytest.fixture
def maps(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[Load, Computed]]]:
    """Every computation a threat map finishes: the board's load and what it computed."""
    seen: list[tuple[Load, Computed]] = []
    compute = threat_module.compute

    def recorded(scenario: Scenario, q: Any, pts: Any, **kw: Any) -> Computed:
        c = compute(scenario, q, pts, **kw)
        seen.append((load_of(scenario, len(q.shooters)), c))
        return c

    monkeypatch.setattr(threat_module, "compute", recorded)
    yield seen


def from_data(data: dict[str, Any]) -> Scenario:
    return fwwrules.loads(json.dumps(data), source="board.json")


def overlapping_flat_pieces(pieces: int = 90) -> Scenario:
    """``pieces`` blocking rectangles without a height in rows, each overlapping the next (a
    centre there stands on two), a shooter on a 3-inch tower and a Huge model among them."""
    terrain = [
        Terrain(
            f"slab{i}",
            "blocking",
            Rect((60.0 + 45.0 * (i % 15), 120.0 + 90.0 * (i // 15)), (60.0, 30.0)),
        )
        for i in range(pieces)
    ]
    terrain.append(Terrain("tower", "blocking", Rect((760.0, 60.0), (80.0, 80.0)), height=76.2))
    skills = {"rifle": 5}
    models = (
        Model(
            "sniper", "red", 32.0, (760.0, 60.0), elevation=76.2, skills=skills, weapons=("rifle",)
        ),
        Model("gunner", "red", 32.0, (20.0, 20.0), skills=skills, weapons=("rifle",)),
        Model("behemoth", "red", 70.0, (400.0, 760.0), skills=skills, weapons=("rifle",)),
        Model("scout", "blue", 32.0, (780.0, 780.0), skills=skills, weapons=("rifle",)),
    )
    return Scenario(models=models, terrain=tuple(terrain), weapons=(RIFLE,))


BOARDS = {
    "10 models, 100 pieces, heights, elevations": lambda: from_data(
        scaling_board(10, 100, heights=True, elevations=True)
    ),
    "10 models, 500 flat pieces": lambda: from_data(scaling_board(10, 500)),
    "50 models, 10 pieces, heights, elevations": lambda: from_data(
        scaling_board(50, 10, heights=True, elevations=True)
    ),
    "overlapping flat pieces, a tower, a Huge base": overlapping_flat_pieces,
}


@pytest.mark.parametrize("name", BOARDS)
def test_the_estimate_counts_at_least_the_work_the_map_does(
    name: str, maps: list[tuple[Load, Computed]]
) -> None:
    """Each count of the plan bounds the work done (cells, passes, rulings), the plan fits the
    budget, and the work is real (passes and cells counted)."""
    scn = BOARDS[name]()
    side = "blue" if name.startswith("overlapping") else "north"
    tm = threat_map(scn, side)
    load, c = maps[-1]
    assert len(c.placeable) == len(tm.positions)
    assert c.plan.bounds(c.work), (c.plan, c.work)
    done = (c.work.passes, c.work.rulings, c.work.proofs)
    assert (c.plan.passes, c.plan.rulings, c.plan.proofs) == done  # all counted
    assert c.work.passes > 0 and c.work.cells > 0
    assert work_seconds(load, c.work) <= work_seconds(load, c.plan) <= THREAT_BUDGET_S


def test_an_update_counts_its_work_within_a_whole_maps_plan(
    maps: list[tuple[Load, Computed]],
) -> None:
    scn = overlapping_flat_pieces()
    tm = threat_map(scn, "blue", step=25.0)
    moved = fwwrules.move_model(scn, "gunner", x=60.0, y=40.0)
    tm.update(moved, {"gunner"})
    _, whole = maps[0]
    _, update = maps[-1]
    assert update.plan.bounds(update.work)
    assert update.work.cells < whole.work.cells  # only the cells the move can change


def test_positions_on_overlapping_pieces_are_grouped_by_the_pieces_under_them() -> None:
    """More pieces than an integer has bits (the packed path): each group holds exactly the
    positions whose centre lies on its pieces, and the groups part the positions asked."""
    scn = overlapping_flat_pieces()
    board = scn.board
    rng = np.random.default_rng(31)
    px, py = rng.uniform(0, 800, 6000), rng.uniform(0, 800, 6000)
    need = rng.random(6000) < 0.9
    groups = stood_on_groups(board, px, py, need)
    flat = [t for t in board.terrain.values() if not (t.height or 0.0) > 0.0]
    on = {t.id: centres_on(board, t, px, py) for t in flat}
    several = 0
    seen = np.zeros(len(px), dtype=int)
    for pieces, where in groups.items():
        seen += where
        for i in np.flatnonzero(where).tolist():
            assert pieces == frozenset(tid for tid, o in on.items() if o[i])
        several += int(where.sum()) if len(pieces) > 1 else 0
    assert (seen == need).all()
    assert several > 0 and len(groups) > 62


def star_board() -> str:
    """One 256-corner star among rectangles, north's models around it (a file)."""
    data = scaling_board(10, 100)
    n = 256
    data["terrain"].append(
        {
            "id": "star",
            "kind": "blocking",
            "polygon": [
                [
                    round(900 + (60, 30)[k % 2] * math.cos(2 * math.pi * k / n), 3),
                    round(900 + (60, 30)[k % 2] * math.sin(2 * math.pi * k / n), 3),
                ]
                for k in range(n)
            ],
        }
    )
    return json.dumps(data)


def test_a_step_whose_passes_do_not_fit_is_refused_naming_them_and_a_step_that_fits(
    tmp_path: Path,
) -> None:
    """10 models among 500 flat pieces at a step of 19 mm: the code before accepted it and ran
    3.4 s of CPU (the passes uncounted). Refused (exit 2, no traceback) naming the passes and
    a step; the step named is asked next, and within three rounds a map is made."""
    board = tmp_path / "flat-500.json"
    board.write_text(json.dumps(scaling_board(10, 500)), encoding="utf-8")
    said = follow_refusals(str(board), "19")
    assert said and "line-of-sight passes" in said[0], said


def test_a_star_among_pieces_is_mapped_within_its_plan(maps: list[tuple[Load, Computed]]) -> None:
    scn = fwwrules.loads(star_board(), source="star.json")
    threat_map(scn, "north")
    load, c = maps[-1]
    assert c.plan.bounds(c.work)
    assert work_seconds(load, c.plan) <= THREAT_BUDGET_S


def test_the_positions_left_to_the_costly_proofs_are_counted_before_they_run(
    maps: list[tuple[Load, Computed]],
) -> None:
    """The crowded board (24 models, 40 pieces, many targets in partial shadow): the
    positions the cheap line-of-sight proofs leave are counted (the plan's ``proofs``, all
    of them, before any costly proof runs) and the whole plan fits the budget."""
    threat_map(crowded_board(), "north", base=32.0, step=12.0, area=(0, 0, BOARD_MM, BOARD_MM))
    load, c = maps[-1]
    assert c.work.proofs > 0
    assert c.plan.proofs == c.work.proofs and c.plan.bounds(c.work)
    assert work_seconds(load, c.plan) <= THREAT_BUDGET_S


def test_a_step_whose_costly_proofs_do_not_fit_is_refused_naming_them_and_a_step_that_fits(
    tmp_path: Path,
) -> None:
    """The crowded board at a step of 7.5 mm: the code before accepted it (estimate 2.05 s,
    2.4-3.2 s of CPU). Refused (exit 2, no traceback) naming the positions left to the costly
    proofs and a step; the step named is asked next, and within three rounds a map is made."""
    board = tmp_path / "crowded.yaml"
    board.write_text(dump_text(crowded_board()), encoding="utf-8")
    said = follow_refusals(str(board), "7.5")
    assert said and "costly line-of-sight proofs" in said[0], said
