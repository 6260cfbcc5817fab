"""The threat map's line of sight to targets standing on solid pieces without a height
(``elevation.standing-on``: the pieces stood on block no line of sight to the target) is
looked at in each shooter's one pass over every position, each piece left out for the
positions standing on it (``sight_start``'s ``stood``), and the positions left to the costly
proofs are parted by the pieces they stand on (``by_pieces_stood_on``). At every position the
answer is the one a pass over its group alone gives, with those pieces left out of the shot
(what the map did before, one small pass per group), on the crowded board of
``bench/threat_map.py`` (groups on one piece, on two touching pieces, on blocking and cover
pieces).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from fwwrules.elevation import standing_exclusions
from fwwrules.kernels import BoolArray, Fan
from fwwrules.los import SightPositions
from fwwrules.placement import placeable_v
from fwwrules.terrain import shot_kinds_pair
from fwwrules.threat.shooter import stood_on_groups, stood_on_pieces
from fwwrules.threat.sight import (
    _extremal,
    by_pieces_stood_on,
    sight_finish,
    sight_layer,
    sight_start,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _board import BOARD_MM, crowded_board

STEP_MM = 10.2
RT = 16.0


def _positions() -> tuple[np.ndarray, np.ndarray]:
    xs = np.arange(STEP_MM / 2, BOARD_MM, STEP_MM)
    gx, gy = np.meshgrid(xs, xs)
    return gx.ravel(), gy.ravel()


@pytest.mark.parametrize("shooter", ["south-00", "south-05", "south-09"])
def test_positions_on_pieces_share_the_shooters_pass(shooter: str) -> None:
    scn = crowded_board()
    board = scn.board
    px, py = _positions()
    need = placeable_v(board, px, py, RT, np.zeros(len(px)))
    groups = stood_on_groups(board, px, py, need)
    assert sum(1 for g in groups if g) > 10  # positions on pieces, one and two at a time
    c = board.models[shooter].disc
    excluded, out_of_sight = standing_exclusions(scn, (shooter,))

    def sight_of(stood: frozenset[str]) -> SightPositions:
        kinds, _ = shot_kinds_pair(
            board,
            attacker_huge=False,
            target_huge=False,
            elevated_kind={},
            excluded=excluded,
            out_of_sight=out_of_sight | stood,
        )
        return SightPositions(scn, shooter, c, RT, kinds)

    # one pass, each piece left out for the positions on it
    first = sight_start(
        sight_of(frozenset()), Fan(c.x, c.y, px, py), px, py, need, stood_on_pieces(groups)
    )
    assert first is not None
    visible: BoolArray = first[0].copy()
    if first[2] is not None:
        for u in by_pieces_stood_on(first[2], groups, sight_of):
            seen, _ = sight_finish(u)
            visible[u.idx[seen]] = True
    # each group by itself, its pieces left out of the shot
    for stood, group in groups.items():
        alone = sight_layer(sight_of(stood), Fan(c.x, c.y, px, py), px, py, group)
        assert alone is not None
        assert np.array_equal(visible[group], alone[0][group]), sorted(stood)


def test_a_clear_line_tangent_to_the_target_proves_it_visible_without_the_exact_search() -> None:
    """South-00 and a target standing on blocking-02 and reaching out of the round dense wood
    dense-area-28: the only clear lines pass the wood's edge tangent to the target's base.
    The extremal-line proof takes the lines tangent to a base shrunk by the sure margin (an
    exactly tangent line misses the base shrunk by rounding), so it proves the target
    visible; before, such a target fell to the exact search (168 of them on this board)."""
    scn = crowded_board()
    board = scn.board
    c = board.models["south-00"].disc
    kinds, _ = shot_kinds_pair(
        board,
        attacker_huge=False,
        target_huge=False,
        elevated_kind={},
        excluded=(),
        out_of_sight={"blocking-02"},
    )
    px, py = np.array([109.8]), np.array([436.2])
    first = sight_start(
        SightPositions(scn, "south-00", c, RT, kinds),
        Fan(c.x, c.y, px, py),
        px,
        py,
        np.ones(1, dtype=bool),
    )
    assert first is not None and first[2] is not None  # left to the costly proofs
    u = first[2]
    seen, cut = _extremal(c, c.r, u.px, u.py, RT, np.ones(1, dtype=bool), u.parts)
    assert seen.tolist() == [True] and cut.tolist() == [False]
