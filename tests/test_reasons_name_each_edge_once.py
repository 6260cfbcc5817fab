"""A ruling names each blocking edge and piece once (issue 31): a star of many points with a
height, seen from an Elevated model, has dozens of Significant Edge parts facing the same
compass side; its reasons said each part ("the north-east Significant Edge of star") and its
line-of-sight reason listed each part as a blocker, so that eight such stars gave a 394 KB
explanation. Reasons are data (clause id and values), rendered by the one catalogue in English
and German: the data names each edge once, so every rendering does.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

import fwwrules
from fwwrules.elevation import significant_edges
from fwwrules.rulings import AttackRuling, Explained
from fwwrules.scenario import Model, Scenario, Terrain, Weapon
from fwwrules.shot import build_shot

RIFLE = Weapon("rifle", "rifle", short="black", long=1000.0, dice={"short": ("black",)})
EDGE_CLAUSES = ("elevation.edge-blocks-los", "elevation.edge-cover")


def star(cx: float, cy: float, corners: int = 64) -> tuple[tuple[float, float], ...]:
    """A star of ``corners`` corners (outer radius 50 mm, inner 30 mm)."""
    out = []
    for k in range(corners):
        r = 50.0 if k % 2 == 0 else 30.0
        a = 2 * math.pi * k / corners
        out.append((round(cx + r * math.cos(a), 1), round(cy + r * math.sin(a), 1)))
    return tuple(out)


def model(ident: str, faction: str, x: float, y: float, elevation: float = 0.0) -> Model:
    return Model(
        ident, faction, 32, (x, y), elevation=elevation, skills={"rifle": 6}, weapons=("rifle",)
    )


def board() -> Scenario:
    """An Elevated shooter (5" up) far from two tall stars standing between it and the
    target: every edge part facing the shooter is beyond Orange and blocks."""
    return Scenario(
        models=(model("high", "a", 0.0, 0.0, elevation=127.0), model("low", "b", 400.0, 0.0)),
        terrain=(
            Terrain("star", "blocking", star(200.0, 0.0), height=25.4),
            Terrain("star2", "blocking", star(270.0, 0.0), height=50.8),
        ),
        weapons=(RIFLE,),
    )


@pytest.fixture(scope="module")
def ruling() -> AttackRuling:
    r = fwwrules.ruling(board(), "high", "low")
    assert isinstance(r, AttackRuling)
    return r


def test_the_board_has_many_edge_parts_facing_one_side() -> None:
    """Control: the case the test is about arises (many parts share a name)."""
    names = Counter(e.ref for e in significant_edges(board().board))
    assert max(names.values()) >= 4


def test_each_edge_is_named_once_per_verdict(ruling: AttackRuling) -> None:
    said = Counter(
        (r.clause, r.key, r.params["piece"], r.params["side"])
        for r in ruling.reasons
        if r.clause in EDGE_CLAUSES
    )
    assert said, "the stars' edges are ruled on"
    assert max(said.values()) == 1, said.most_common(3)


def test_the_distance_said_is_to_the_nearest_part_of_that_edge(ruling: AttackRuling) -> None:
    s = board()
    high = s.board.models["high"].disc
    nearest: dict[tuple[str, str], float] = {}
    parts = build_shot(s, "high", "low").context.los_edges  # every part that blocks
    assert len(parts) > len({e.ref for e in parts})
    for e in parts:
        d = e.distance_to_disc(high.x, high.y, high.r)
        key = (e.terrain, e.side)
        nearest[key] = min(d, nearest.get(key, math.inf))
    for r in ruling.reasons:
        if r.clause == "elevation.edge-blocks-los":
            assert r.params["distance"] == pytest.approx(
                nearest[(r.params["piece"], r.params["side"])], abs=0.01
            )


def test_each_blocker_is_named_once(ruling: AttackRuling) -> None:
    assert ruling.sight is not None and not ruling.line_of_sight
    assert len(set(ruling.sight.blockers)) == len(ruling.sight.blockers)
    (los,) = [r for r in ruling.reasons if r.clause == "ranged.los"]
    blockers = los.params["blockers"]
    assert len(set(blockers)) == len(blockers)
    assert any(getattr(b, "side", None) for b in blockers), "edges are among the blockers"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_explanation_names_each_edge_once(ruling: AttackRuling, lang: str) -> None:
    text = Explained.explain(ruling, lang)
    tag = "[elevation.edge-blocks-los]"
    lines = [x for x in text.splitlines() if x.lstrip().startswith(tag)]
    assert lines and len(lines) == len(set(lines))
    edges = {(e.terrain, e.side) for e in significant_edges(board().board)}
    assert len(lines) <= len(edges)
