"""elevation.* through ``fwwrules.ruling``: what a player asks, answered with elevation applied.

Scenarios: the shipped ``elevation-*`` examples (rooftop, stacked platform, gantry) plus small
boards built here for the boundary cases.
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from transforms import moved

import fwwrules
from fwwrules.rulings import AttackRuling
from fwwrules.scenario import Model, Rect, Scenario, Terrain, Weapon

ORANGE = 2 * 25.4  # mm
RIFLE = Weapon("rifle", "rifle", short="black", long=1000.0, dice={"short": ("black",)})


def example(name: str, **changes: object) -> Scenario:
    s = fwwrules.load(fwwrules.example_path(f"elevation-{name}"))
    assert isinstance(s, Scenario)
    return dataclasses.replace(s, **changes) if changes else s  # type: ignore[arg-type]


def rule(s: Scenario, attacker: str, target: str) -> AttackRuling:
    r = fwwrules.ruling(s, attacker, target)
    assert isinstance(r, AttackRuling)
    return r


def piece(source: str) -> str:
    """A cover source without the edge's side (``building:west`` -> ``building``)."""
    return source.split(":")[0]


def cover_of(r: AttackRuling) -> dict[str, tuple[str, int]]:
    return {c.source: (c.clause, c.modifier) for c in r.cover}


def ignored_of(r: AttackRuling) -> dict[str, str]:
    return {i.source: i.clause for i in r.ignored}


def clauses(r: AttackRuling) -> set[str]:
    return {x.clause for x in r.reasons}


def model(ident: str, faction: str, x: float, y: float, elevation: float = 0.0) -> Model:
    return Model(
        ident, faction, 32, (x, y), elevation=elevation, skills={"rifle": 6}, weapons=("rifle",)
    )


def board(*items: Model | Terrain, rules: str = "core") -> Scenario:
    return Scenario(
        models=tuple(i for i in items if isinstance(i, Model)),
        terrain=tuple(i for i in items if isinstance(i, Terrain)),
        weapons=(RIFLE,),
        rules=rules,
    )


def roof(height: float, kind: str = "blocking") -> Terrain:
    return Terrain("roof", kind, ((0.0, 0.0), (300.0, 0.0), (300.0, 200.0), (0.0, 200.0)), height)


# --- elevation.edge-blocks-los -----------------------------------------------------------------


def test_elevation_edge_blocks_los_deep_on_the_roof_cannot_see_or_be_seen() -> None:
    s = example("rooftop")
    for a, t in (("sniper", "knight"), ("knight", "sniper")):
        r = rule(s, a, t)
        assert r.line_of_sight is False
        assert not r.allowed and "ranged.los" in r.not_allowed
        assert "elevation.edge-blocks-los" in clauses(r)


def test_elevation_edge_blocks_los_not_for_a_model_near_the_edge() -> None:
    s = example("rooftop")
    assert rule(s, "lookout", "knight").line_of_sight is True
    assert rule(s, "knight", "lookout").line_of_sight is True


def test_elevation_edge_blocks_los_through_the_corner_of_the_roof() -> None:
    # A model deep on a square roof, its enemy diagonally beyond the roof's corner: a line
    # through the corner joins the two bases, but it leaves the roof there, so it crosses the
    # Significant Edges (it does not graze them).
    square = Terrain(
        "roof", "scenery", ((0.0, 0.0), (200.0, 0.0), (200.0, 200.0), (0.0, 200.0)), 100.0
    )
    s = board(square, model("up", "a", 100, 100, 100.0), model("down", "b", -100, -100))
    assert rule(s, "down", "up").line_of_sight is False
    s2 = board(square, model("up", "a", 100, 100, 100.0), model("down", "b", -100, 300))
    assert rule(s2, "down", "up").line_of_sight is False  # crosses the west edge
    s3 = board(square, model("up", "a", 170, 170, 100.0), model("down", "b", 400, 400))
    assert rule(s3, "down", "up").line_of_sight is True  # within Orange of two edges


def test_elevation_edge_blocks_los_through_the_joint_of_two_edge_parts() -> None:
    # The tall block's east edge is split where a shed lies beyond it; a line through the joint
    # still crosses the edge.
    tall = Terrain(
        "tall", "scenery", ((0.0, 0.0), (200.0, 0.0), (200.0, 200.0), (0.0, 200.0)), 120.0
    )
    shed = Terrain(
        "shed", "scenery", ((200.0, 0.0), (300.0, 0.0), (300.0, 100.0), (200.0, 100.0)), 40.0
    )
    s = board(tall, shed, model("up", "a", 100, 100, 120.0), model("down", "b", 400, 100))
    assert rule(s, "down", "up").line_of_sight is False


@pytest.mark.parametrize(("gap", "visible"), [(ORANGE, True), (ORANGE + 0.5, False)])
def test_elevation_edge_blocks_los_exactly_orange_from_the_edge_still_sees(
    gap: float, visible: bool
) -> None:
    s = board(roof(80.0), model("up", "a", 300 - gap - 16, 100, 80.0), model("down", "b", 500, 100))
    assert rule(s, "up", "down").line_of_sight is visible


# --- elevation.edge-cover ----------------------------------------------------------------------


def test_elevation_edge_cover_shooting_up_at_a_model_near_the_edge() -> None:
    s = example("rooftop")
    r = rule(s, "knight", "lookout")
    edges = {k: v for k, v in cover_of(r).items() if v[0] == "elevation.edge-cover"}
    assert {piece(k) for k in edges} == {"building"}
    assert list(edges.values()) == [("elevation.edge-cover", -2)]
    assert r.sight is not None
    assert any(c.how == "edge" and piece(c.source) == "building" for c in r.sight.crossings)
    # Both crates lie on the Knight's line too (it is not Elevated, every cover counts).
    assert r.skill.modifier == -6
    assert r.armor.bonus == 1


def test_elevation_edge_cover_not_when_shooting_down() -> None:
    s = example("rooftop")
    r = rule(s, "lookout", "knight")
    assert not any(c.clause == "elevation.edge-cover" for c in r.cover)


def test_elevation_edge_cover_stacked_platform_tower_edge_covers_the_gunner() -> None:
    s = example("stacked-platform")
    r = rule(s, "guard", "gunner")
    assert r.line_of_sight is True
    assert [(piece(c.source), c.clause) for c in r.cover] == [("tower", "elevation.edge-cover")]
    assert r.skill.modifier == -2


def test_elevation_edge_cover_stacked_platform_roof_edge_covers_the_guard() -> None:
    s = example("stacked-platform")
    r = rule(s, "settler", "guard")
    assert r.line_of_sight is True
    assert [(piece(c.source), c.clause) for c in r.cover] == [("roof", "elevation.edge-cover")]


def test_elevation_edge_blocks_los_stacked_platform_roof_edge_hides_the_ground() -> None:
    s = example("stacked-platform")
    assert rule(s, "gunner", "settler").line_of_sight is False
    assert rule(s, "settler", "gunner").line_of_sight is False
    r = rule(s, "gunner", "guard")
    assert r.line_of_sight is True and r.cover == ()


# --- elevation.shooter-cover -------------------------------------------------------------------


def test_elevation_shooter_cover_ignores_a_crate_far_from_the_target() -> None:
    s = example("rooftop")
    r = rule(s, "lookout", "knight")
    assert cover_of(r) == {"crate-near": ("cover.line", -2)}
    assert ignored_of(r).get("crate-far") == "elevation.shooter-cover"
    assert r.skill.modifier == -2


def test_elevation_shooter_cover_exactly_orange_from_the_target_counts() -> None:
    # The Elevated shooter stands near the west edge of a roof (x 300..400); the crate's near
    # face lies exactly Orange from the target's base edge, then a millimetre farther.
    top = Terrain("roof", "blocking", Rect((350, 100), (100, 200)), 80.0)
    crate = Terrain(
        "crate", "cover", ((200.0, 80.0), (220.0, 80.0), (220.0, 120.0), (200.0, 120.0))
    )
    t_x = 200 - ORANGE - 16
    s = board(top, crate, model("up", "a", 320, 100, 80.0), model("down", "b", t_x, 100))
    assert cover_of(rule(s, "up", "down")) == {"crate": ("cover.line", -2)}
    far = board(top, crate, model("up", "a", 320, 100, 80.0), model("down", "b", t_x - 1, 100))
    r = rule(far, "up", "down")
    assert r.cover == () and ignored_of(r)["crate"] == "elevation.shooter-cover"


# --- elevation.terrain-variant -----------------------------------------------------------------


def test_elevation_terrain_variant_wall_blocks_on_the_ground() -> None:
    s = example("gantry")
    assert rule(s, "raider", "settler").line_of_sight is False


def test_elevation_terrain_variant_wall_is_only_cover_for_an_elevated_shot() -> None:
    s = example("gantry")
    down = rule(s, "scavenger", "raider")
    assert down.line_of_sight is True
    assert cover_of(down) == {"wall": ("cover.line", -2)}
    assert "elevation.terrain-variant" in clauses(down)
    up = rule(s, "raider", "scavenger")
    assert up.line_of_sight is True
    assert sorted((piece(c.source), c.clause) for c in up.cover) == [
        ("gantry", "elevation.edge-cover"),
        ("wall", "cover.line"),
    ]
    assert up.skill.modifier == -4
    assert up.armor.bonus == 1


# --- elevation.elevated: heights exactly at Orange ---------------------------------------------


@pytest.mark.parametrize(
    ("height", "edge_cover"),
    [(ORANGE, True), (ORANGE - 0.5, True), (ORANGE - 0.51, False)],  # ruler tolerance 0.5 mm
)
def test_elevation_elevated_exactly_orange_counts_in_a_ruling(
    height: float, edge_cover: bool
) -> None:
    s = board(roof(height), model("up", "a", 280, 100, height), model("down", "b", 500, 100))
    r = rule(s, "down", "up")
    assert r.line_of_sight is True
    assert any(c.clause == "elevation.edge-cover" for c in r.cover) is edge_cover
    assert r.skill.modifier == (-2 if edge_cover else 0)


# --- elevation.standing-on ---------------------------------------------------------------------


def test_elevation_standing_on_a_blocking_crate_neither_blocks_nor_covers() -> None:
    crate = Terrain("crate", "blocking", ((0.0, 0.0), (60.0, 0.0), (60.0, 60.0), (0.0, 60.0)), 30.0)
    s = board(crate, model("on", "a", 30, 30, 30.0), model("foe", "b", 300, 30))
    for a, t in (("on", "foe"), ("foe", "on")):
        r = rule(s, a, t)
        assert r.line_of_sight is True
        assert "crate" not in cover_of(r) and r.skill.modifier == 0
        assert "elevation.standing-on" in clauses(r)


def test_elevation_standing_on_the_same_roof_both_see_each_other() -> None:
    s = example("rooftop")
    r = rule(s, "sniper", "lookout")
    assert r.line_of_sight is True and r.cover == ()


# --- rulesets ----------------------------------------------------------------------------------


def test_elevation_edge_cover_vts_gives_an_armor_boost() -> None:
    core = rule(example("rooftop"), "knight", "lookout")
    vts = rule(example("rooftop", rules="vts"), "knight", "lookout")
    assert (core.armor.bonus, core.armor.boost) == (1, 0)
    assert (vts.armor.bonus, vts.armor.boost) == (0, 1)
    assert vts.skill.modifier == core.skill.modifier
    assert {piece(c.source) for c in vts.cover} == {piece(c.source) for c in core.cover}


@pytest.mark.parametrize("rules", ["core", "vts"])
def test_elevation_edge_blocks_los_in_both_rulesets(rules: str) -> None:
    s = example("rooftop", rules=rules)
    assert rule(s, "sniper", "knight").line_of_sight is False
    assert rule(s, "lookout", "knight").line_of_sight is True


@pytest.mark.parametrize("lang", ["en", "de"])
def test_elevation_ruling_explains_in_both_languages(lang: str) -> None:
    text = rule(example("rooftop"), "knight", "lookout").explain(lang)
    assert "elevation.edge-cover" in text


# --- properties --------------------------------------------------------------------------------


def _rulings(s: Scenario) -> list[object]:
    out: list[object] = []
    ids = [m.id for m in s.models]
    for a in ids:
        for t in ids:
            if a != t:
                r = rule(s, a, t)
                out.append(
                    (
                        a,
                        t,
                        r.line_of_sight,
                        r.allowed,
                        sorted((piece(c.source), c.clause, c.modifier) for c in r.cover),
                        sorted((piece(i.source), i.clause) for i in r.ignored),
                        r.skill.modifier,
                        r.armor,
                    )
                )
    return out


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(["rooftop", "stacked-platform", "gantry"]),
    angle=st.floats(-180, 180),
    dx=st.floats(-400, 400),
    dy=st.floats(-400, 400),
)
def test_elevation_rulings_do_not_change_when_the_board_turns_or_moves(
    name: str, angle: float, dx: float, dy: float
) -> None:
    s = example(name)
    assert _rulings(moved(s, math.radians(angle), dx, dy)) == _rulings(s)
