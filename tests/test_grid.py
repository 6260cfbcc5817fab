"""Pathfinder 1e grid cover (``grid.*``): the PRD figures, every clause, the exact geometry.

Tests are named after the clause they check. Scenarios are the shipped examples
(``fwwrules/examples/grid``) or small maps written inline with :func:`grid`.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fwwrules
from fwwrules.catalogue import MESSAGES
from fwwrules.errors import QueryError, UnknownIdError
from fwwrules.grid import (
    GridLine,
    GridRuling,
    GridScenario,
    _Tracer,
    grid_cover,
    line_of_effect,
    pf_distance,
    squares_crossed,
)


def example(name: str) -> GridScenario:
    scenario = fwwrules.load(fwwrules.example_path(f"grid/{name}"))
    assert isinstance(scenario, GridScenario)
    return scenario


def grid(
    rows: list[str], creatures: list[str], walls: str = "[]", square: float = 5
) -> GridScenario:
    """A grid scenario from map rows and creature flow mappings (YAML)."""
    text = "format: fwwrules/grid@1\n"
    text += f"square: {square}\n"
    text += "map: |\n" + "".join(f"  {row}\n" for row in rows)
    text += f"walls: {walls}\n"
    text += "creatures:\n" + "".join(f"  - {c}\n" for c in creatures)
    scenario = fwwrules.loads(text)
    assert isinstance(scenario, GridScenario)
    return scenario


def verdicts(r: GridRuling) -> list[str]:
    return [ln.verdict for ln in r.lines]


def clauses(r: GridRuling) -> set[str]:
    return {reason.message_id for reason in r.reasons}


# --- the four PRD figures ---------------------------------------------------------------------


def test_grid_melee_prd_fighter_adjacent_to_ogre_has_no_cover() -> None:
    s = example("fighter")
    r = grid_cover(s, "fighter", "ogre", attack="melee")
    assert r.procedure == "melee"
    assert (r.cover, r.ac, r.reflex, r.attack_allowed) == ("none", 0, 0, True)
    assert set(verdicts(r)) == {"clear"}
    for attack in ("melee", "reach", "ranged"):  # the ogre has reach: ranged procedure
        r = grid_cover(s, "ogre", "fighter", attack=attack)
        assert r.procedure == "ranged"
        assert (r.cover, r.ac, r.attack_allowed) == ("none", 0, True)


def test_grid_melee_prd_rogue_gives_the_ogre_melee_cover_at_the_wall_corner() -> None:
    s = example("rogue")
    r = grid_cover(s, "rogue", "ogre", attack="melee")
    assert r.procedure == "melee"
    assert (r.cover, r.ac, r.reflex, r.soft) == ("cover", 4, 2, False)
    assert (r.attacker_square, r.target_square) == ((3, 4), (4, 3))  # the only adjacent pair
    assert "wall" in verdicts(r)
    assert "grid.melee/adjacent-wall" in clauses(r)


def test_grid_melee_prd_rogue_has_no_cover_from_the_ogre_with_reach() -> None:
    # The ogre is adjacent to the rogue, but a creature with reach figures its attacks as
    # ranged attacks (grid.melee): from its corner (5, 4) every line is clear. (From the corner
    # (4, 4) the two share, the line to the rogue's corner (3, 4) runs along the wall square's
    # bottom face from the ogre's side to the rogue's: judged from inside the two squares, it
    # crosses the wall; the lines-along-walls decision.)
    s = example("rogue")
    for attack in ("melee", "reach"):
        r = grid_cover(s, "ogre", "rogue", attack=attack)
        assert r.procedure == "ranged"
        assert r.in_reach and r.attack_allowed
        assert "grid.melee/reach-creature" in clauses(r)
        assert (r.cover, r.ac, r.soft) == ("none", 0, False)
        assert r.corner == (5, 4) and len(r.lines) == 4
        assert all(ln.clear for ln in r.lines)


def test_grid_melee_creature_without_reach_adjacent_keeps_the_melee_procedure() -> None:
    s = grid(["...", "...", "..."], ["{id: a, at: [0, 0]}", "{id: b, at: [1, 1]}"])
    assert grid_cover(s, "a", "b", attack="melee").procedure == "melee"
    s = grid(["...", "...", "..."], ["{id: a, at: [0, 0], reach: 2}", "{id: b, at: [1, 1]}"])
    assert grid_cover(s, "a", "b", attack="melee").procedure == "ranged"


def test_grid_big_prd_cleric_shoots_at_the_ogre_partly_behind_the_wall() -> None:
    r = grid_cover(example("cleric"), "cleric", "ogre")
    assert r.procedure == "ranged"
    assert (r.cover, r.ac, r.reflex, r.stealth, r.soft) == ("cover", 4, 2, True, False)
    assert r.partial is None
    # lines to the corners of every square of the 2x2 ogre: 9 corners, none clear (the three
    # to the ogre's bottom corners run along the wall square's bottom face, from the cleric's
    # side to the ogre's: judged from inside the squares they join, they cross the wall)
    assert len(r.lines) == 9 and {ln.end for ln in r.lines} == {
        (x, y) for x in range(4, 7) for y in range(2, 5)
    }
    assert sum(ln.clear for ln in r.lines) == 0
    assert {"grid.big/target-ranged", "grid.ranged/corner-all", "grid.partial/not"} <= clauses(r)


def test_grid_partial_prd_sorcerer_sees_more_than_half_of_the_ogre() -> None:
    r = grid_cover(example("sorcerer"), "sorcerer", "ogre")
    assert (r.cover, r.ac, r.reflex) == ("partial", 2, 1)
    assert r.partial is not None
    assert (r.partial.clear, r.partial.lines) == (6, 9)
    assert (r.partial.full_ac, r.partial.full_reflex) == (4, 2)
    d = r.to_dict()
    assert d["partial"]["gm_call"] is True and d["partial"]["visible"] == round(6 / 9, 6)
    assert "grid.partial/suggested" in clauses(r)


def test_grid_big_ranged_attack_never_picks_one_square_of_a_big_target() -> None:
    # A wall hides the lower part of the 2x2 target. Picking its upper-left square would give
    # no cover; a ranged attack draws its lines to all 9 corners of its squares, 2 of them
    # blocked: partial cover. A reach attack (melee) still picks a square (grid.big): none.
    s = grid(
        ["......", "......", "...#..", "...#.."],
        ["{id: a, at: [0, 0], reach: 4}", "{id: t, at: [4, 1], size: 2}"],
    )
    r = grid_cover(s, "a", "t")
    assert (r.cover, len(r.lines), sum(ln.clear for ln in r.lines)) == ("partial", 9, 7)
    reach = grid_cover(s, "a", "t", attack="reach")
    assert (reach.cover, len(reach.lines), reach.target_square) == ("none", 4, (4, 1))


# --- grid.ranged ------------------------------------------------------------------------------


def test_grid_ranged_attacker_takes_best_corner() -> None:
    # Worked by hand: the wall square (2, 0) stands between a (0, 1) and t (4, 0). From the
    # corners (0, 1), (1, 1) and (0, 2) the lines to t's two top corners pass through it (2 of
    # 4 clear); from (1, 2) the line to (5, 0) passes below it, through (2, 1), (3, 0): 3 of 4
    # clear, the best corner, and partial cover is suggested.
    s = grid(["..#...", "......", "......"], ["{id: a, at: [0, 1]}", "{id: t, at: [4, 0]}"])
    r = grid_cover(s, "a", "t")
    assert r.corner == (1, 2)
    assert [(ln.end, ln.verdict) for ln in r.lines] == [
        ((4, 0), "wall"),
        ((5, 0), "clear"),
        ((4, 1), "clear"),
        ((5, 1), "clear"),
    ]
    assert r.cover == "partial"
    # from (1, 1) every line is blocked: two pass through the wall square, and the two along
    # its bottom face (y = 1), from a's side below to t's side above, cross into it
    assert [ln.verdict for ln in _lines_from(s, "a", "t", (1, 1))].count("wall") == 4


def _lines_from(s: GridScenario, a: str, t: str, corner: tuple[int, int]) -> list[GridLine]:
    from fwwrules.grid import _Judge

    judge = _Judge(s, s.creature(a), s.creature(t))
    choices = [c for c in judge.ranged_choices() if c.corner == corner]
    return list(choices[0].lines)


def test_grid_ranged_tie_break_is_reading_order_of_corners() -> None:
    s = grid(["........"], ["{id: a, at: [0, 0]}", "{id: t, at: [6, 0]}"])
    r = grid_cover(s, "a", "t")
    assert r.cover == "none"
    assert r.corner == (0, 0)  # every corner is equally good: the top-left one is taken


def test_grid_ranged_corridor_gives_no_cover() -> None:
    r = grid_cover(example("corridor"), "archer", "rat")
    assert r.cover == "none"
    assert set(verdicts(r)) == {"clear"}


def test_grid_ranged_wall_square_on_a_line_gives_cover_and_reasons_name_it() -> None:
    r = grid_cover(example("cleric"), "cleric", "ogre")
    walls = [r_ for r_ in r.reasons if r_.message_id == "grid.ranged/wall"]
    assert walls and {(p.params["c"], p.params["r"]) for p in walls} == {(3, 2), (3, 3)}


def test_grid_ranged_border_wall_crossed_and_free_end_touched() -> None:
    s = example("border-walls")
    assert grid_cover(s, "archer", "cat").cover == "none"  # lines pass the wall's free end
    r = grid_cover(s, "archer", "knight")
    assert r.cover == "cover"
    assert "border-wall" in verdicts(r)
    assert r.line_of_effect


def test_grid_ranged_border_wall_joint_does_not_leak() -> None:
    # Two walls meet end to end at (3, 1): the diagonal through that joint is blocked.
    s = grid(
        ["......", "......", "......"],
        ["{id: a, at: [1, 0]}", "{id: t, at: [4, 1]}"],
        walls="[[[3, 0], [3, 1]], [[3, 1], [3, 3]]]",
    )
    tracer = _Tracer(s, ("a", "t"))
    through = tracer.trace(
        (Fraction(2), Fraction(0)),
        (Fraction(4), Fraction(2)),
        (Fraction(3, 2), Fraction(1, 2)),
        (Fraction(9, 2), Fraction(3, 2)),
    )
    assert [o.kind for o in through] == ["border-wall"]
    assert grid_cover(s, "a", "t").cover == "total"


def test_grid_ranged_seam_between_wall_squares_blocks() -> None:
    # A line along the border between two wall squares runs inside the wall.
    s = grid(["..##..", "......"], ["{id: a, at: [0, 0]}", "{id: t, at: [5, 0]}"])
    tracer = _Tracer(s, ("a", "t"))
    f = Fraction
    seam = tracer.trace((f(1), f(0)), (f(5), f(0)), (f(1, 2), f(1, 2)), (f(11, 2), f(1, 2)))
    # along the map's top edge past the wall squares' faces, between two squares of row 0:
    # judged inside row 0, it passes through them (lines along walls)
    assert {(o.kind, o.square) for o in seam} == {("wall", (2, 0)), ("wall", (3, 0))}
    s2 = grid(["..#...", "..#...", "......"], ["{id: a, at: [0, 0]}", "{id: t, at: [5, 0]}"])
    tracer2 = _Tracer(s2, ("a", "t"))
    inside = tracer2.trace((f(1), f(1)), (f(5), f(1)), (f(1, 2), f(1, 2)), (f(11, 2), f(1, 2)))
    assert {o.kind for o in inside} == {"wall"}


def test_grid_ranged_pinch_between_diagonal_wall_squares_blocks() -> None:
    s = grid(["#.", ".#"], ["{id: a, at: [1, 0]}", "{id: t, at: [0, 1]}"])
    assert not line_of_effect(s, s.creature("a"), s.creature("t"))
    assert grid_cover(s, "a", "t").cover == "total"


# --- grid.melee -------------------------------------------------------------------------------


def test_grid_melee_only_walls_count_not_creatures() -> None:
    s = example("soft")
    assert grid_cover(s, "fighter", "wizard", attack="melee").cover == "none"


def test_grid_melee_low_wall_counts() -> None:
    s = grid([".o.", "..."], ["{id: a, at: [0, 0]}", "{id: t, at: [1, 1]}"])
    r = grid_cover(s, "a", "t", attack="melee")
    assert r.procedure == "melee"
    assert (r.cover, r.ac) == ("cover", 4)
    assert "low" in verdicts(r)


def test_grid_melee_border_wall_between_adjacent_squares() -> None:
    s = grid(
        ["...", "..."], ["{id: a, at: [0, 0]}", "{id: t, at: [1, 0]}"], walls="[[[1, 0], [1, 1]]]"
    )
    r = grid_cover(s, "a", "t", attack="melee")
    assert (r.cover, r.attack_allowed) == ("total", False)  # issue 32: total across it
    assert "border-wall" in verdicts(r)


def test_grid_melee_out_of_reach_is_not_allowed() -> None:
    s = grid(["........"], ["{id: a, at: [0, 0]}", "{id: t, at: [3, 0]}"])
    r = grid_cover(s, "a", "t", attack="melee")
    assert not r.in_reach and not r.attack_allowed
    assert r.procedure == "ranged"
    assert "grid.melee/out-of-reach" in clauses(r)
    assert grid_cover(s, "a", "t", attack="reach").attack_allowed is False  # 3 > 2
    s2 = grid(["........"], ["{id: a, at: [0, 0], reach: 3}", "{id: t, at: [3, 0]}"])
    assert grid_cover(s2, "a", "t", attack="melee").attack_allowed


def test_grid_melee_reach_of_two_reaches_two_diagonal_squares() -> None:
    s = grid(["....", "....", "...."], ["{id: a, at: [0, 0]}", "{id: t, at: [2, 2]}"])
    assert pf_distance((0, 0), (2, 2)) == 3
    assert grid_cover(s, "a", "t", attack="reach").in_reach


# --- grid.low-obstacle ------------------------------------------------------------------------


def test_grid_low_obstacle_counts_near_the_target() -> None:
    r = grid_cover(example("low-obstacle"), "archer", "guard")
    assert r.cover == "cover"
    assert "grid.low-obstacle/counts" in clauses(r)


def test_grid_low_obstacle_ignored_when_attacker_is_closer() -> None:
    r = grid_cover(example("low-obstacle"), "scout", "runner")
    assert r.cover == "none"
    assert "grid.low-obstacle/attacker-closer" in clauses(r)
    ignored = [o for ln in r.lines for o in ln.through if o.kind == "low"]
    assert ignored and all(not o.counted for o in ignored)


def test_grid_low_obstacle_ignored_beyond_30_ft() -> None:
    r = grid_cover(example("low-obstacle"), "sniper", "wanderer")
    assert r.cover == "none"
    assert "grid.low-obstacle/far" in clauses(r)


def test_grid_low_obstacle_range_follows_square_size() -> None:
    # 4 squares away: 20 ft with 5-ft squares (counts), 40 ft with 10-ft squares (too far).
    rows = ["..........", ".....o....", ".........."]
    who = ["{id: a, at: [0, 1]}", "{id: t, at: [9, 1]}"]
    assert grid_cover(grid(rows, who), "a", "t").cover == "cover"
    far = grid_cover(grid(rows, who, square=10), "a", "t")
    assert far.cover == "none"
    assert "grid.low-obstacle/far" in clauses(far)


def test_grid_low_obstacle_equal_distance_counts() -> None:
    s = grid([".....", "..o..", "....."], ["{id: a, at: [0, 1]}", "{id: t, at: [4, 1]}"])
    r = grid_cover(s, "a", "t")
    assert r.cover == "cover"  # both 2 squares away: the attacker is not closer


# --- grid.soft --------------------------------------------------------------------------------


def test_grid_soft_creature_gives_soft_cover() -> None:
    r = grid_cover(example("soft"), "archer", "wizard")
    assert (r.cover, r.soft, r.ac, r.reflex, r.stealth) == ("cover", True, 4, 0, False)
    assert r.attacks_of_opportunity  # soft cover works against ranged attacks only
    d = r.to_dict()
    assert d["soft"] is True and d["reflex"] == 0 and d["stealth"] is False
    assert "grid.soft/through" in clauses(r)


def test_grid_soft_terrain_beats_creature() -> None:
    s = grid(
        ["........", "...#....", "........"],
        ["{id: a, at: [0, 1]}", "{id: b, at: [2, 1]}", "{id: t, at: [6, 2]}"],
    )
    r = grid_cover(s, "a", "t")
    assert r.cover in ("cover", "partial") and not r.soft
    assert any({"creature", "wall"} <= {o.kind for o in ln.through} for ln in r.lines)


# --- grid.big ---------------------------------------------------------------------------------


def test_grid_big_creature_picks_any_square_in_melee() -> None:
    s = example("big")
    for attacker, target in (("fighter", "ogre"), ("ogre", "fighter")):
        r = grid_cover(s, attacker, target, attack="melee")
        assert r.cover == "none"
        assert any(reason.clause == "grid.big" for reason in r.reasons)
    # Without the choice (the walled pair only) there would be cover:
    from fwwrules.grid import _Judge

    judge = _Judge(s, s.creature("fighter"), s.creature("ogre"))
    categories = {(c.a_square, c.t_square): c.category for c in judge.melee_choices()}
    assert categories[((3, 2), (2, 1))] == "cover"
    assert categories[((3, 2), (2, 2))] == "none"


def test_grid_big_own_squares_never_count() -> None:
    s = grid(
        ["......", "......", "......"], ["{id: ogre, at: [0, 0], size: 2}", "{id: t, at: [5, 2]}"]
    )
    r = grid_cover(s, "ogre", "t")
    assert r.cover == "none"


def test_grid_big_seam_inside_a_creature_is_through_it() -> None:
    # The line along y = 2 runs between two squares of the same big creature: soft cover.
    s = grid(
        ["........", "........", "........", "........"],
        ["{id: a, at: [0, 1]}", "{id: ogre, at: [3, 1], size: 2}", "{id: t, at: [7, 1]}"],
    )
    tracer = _Tracer(s, ("a", "t"))
    f = Fraction
    through = tracer.trace((f(1), f(2)), (f(7), f(2)), (f(1, 2), f(3, 2)), (f(15, 2), f(3, 2)))
    assert {o.creature for o in through} == {"ogre"}


# --- grid.partial -----------------------------------------------------------------------------


def test_grid_partial_not_for_soft_or_improved() -> None:
    assert grid_cover(example("soft"), "archer", "wizard").partial is None
    assert grid_cover(example("improved"), "archer", "guard").partial is None


# --- grid.total -------------------------------------------------------------------------------


def test_grid_total_closed_cell() -> None:
    s = example("total")
    for attacker in ("guard", "jailer"):
        r = grid_cover(s, attacker, "prisoner")
        assert (r.cover, r.attack_allowed, r.ac, r.reflex) == ("total", False, 0, 0)
        assert not r.line_of_effect and r.stealth and not r.attacks_of_opportunity
        assert "grid.total" in clauses(r)


def test_grid_total_a_line_only_through_wall_ends_is_no_line_of_effect() -> None:
    # Found by a search, checked by hand: every corner-to-corner line is blocked; the segment
    # from (1.8, 2) on the attacker's lower edge through the free end (2, 3) of the first wall
    # to the target's corner (3, 8), the free end of the second wall, touches both walls at
    # their ends only. Its end nudged into the target's square, it crosses the second wall,
    # which runs along the target's whole west side (issue 32: the nudge applies to lines
    # ending on a wall's end): no line of effect, total cover.
    s = grid(
        ["......"] * 8,
        ["{id: a, at: [1, 1]}", "{id: t, at: [3, 7]}"],
        walls="[[[2, 0], [2, 3]], [[2, 4], [2, 8]], [[3, 1], [3, 8]]]",
    )
    a, t = s.creature("a"), s.creature("t")
    tracer = _Tracer(s, ("a", "t"))
    f = Fraction
    ca, ct = (f(3, 2), f(3, 2)), (f(7, 2), f(15, 2))
    corners_a = [(f(x), f(y)) for x in (1, 2) for y in (1, 2)]
    corners_t = [(f(x), f(y)) for x in (3, 4) for y in (7, 8)]
    assert all(tracer.trace(p, q, ca, ct, effect_only=True) for p in corners_a for q in corners_t)
    through = tracer.trace((f(9, 5), f(2)), (f(3), f(8)), ca, ct, effect_only=True)
    assert [(o.kind, o.point, o.nudged) for o in through] == [("border-wall", (3, 8), True)]
    assert not line_of_effect(s, a, t)
    r = grid_cover(s, "a", "t")
    assert r.cover == "total" and not r.attack_allowed
    # the first wall's free end (2, 3) is passed on the side away from that wall: only touched
    assert all(o.point != (2, 3) for o in through)


def test_grid_total_low_obstacles_and_creatures_do_not_block_effect() -> None:
    s = grid(
        [".....", ".ooo.", "....."],
        ["{id: a, at: [2, 0]}", "{id: t, at: [2, 2]}", "{id: b, at: [1, 2]}"],
    )
    assert line_of_effect(s, s.creature("a"), s.creature("t"))


# --- grid.improved ----------------------------------------------------------------------------


def test_grid_improved_arrow_slit() -> None:
    r = grid_cover(example("improved"), "archer", "guard")
    assert (r.cover, r.ac, r.reflex, r.improved_evasion, r.stealth_bonus) == (
        "improved",
        8,
        4,
        True,
        10,
    )
    assert "arrow-slit" in verdicts(r)
    assert {"grid.improved", "grid.improved/behind"} <= clauses(r)


def test_grid_improved_only_for_a_target_behind_the_slit() -> None:
    # The guard stands behind the slit; shooting out at the archer in the open, the slit gives
    # the archer no cover at all (the slit's line is clear), and the wall beside it still does.
    s = example("improved")
    r = grid_cover(s, "guard", "archer")
    assert (r.cover, r.ac, r.improved_evasion, r.stealth_bonus) == ("none", 0, False, 0)
    assert "grid.improved/not-behind" in clauses(r)
    slit = [o for ln in r.lines for o in ln.through if o.kind == "arrow-slit"]
    assert slit and not any(o.counted for o in slit)
    assert slit[0].to_dict()["ignored_by"] == "grid.improved/not-behind"
    # as near to the slit as the target: not behind it either
    s = grid([".a."], ["{id: a, at: [0, 0]}", "{id: b, at: [2, 0]}"])
    assert grid_cover(s, "a", "b").cover == "none"


# --- grid.consequences ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "attacker", "target", "aoo", "stealth", "reflex"),
    [
        ("cleric", "cleric", "ogre", False, True, 2),
        ("sorcerer", "sorcerer", "ogre", False, True, 1),
        ("improved", "archer", "guard", False, True, 4),
        ("soft", "archer", "wizard", True, False, 0),
        ("fighter", "ogre", "fighter", True, False, 0),
    ],
)
def test_grid_consequences(
    name: str, attacker: str, target: str, aoo: bool, stealth: bool, reflex: int
) -> None:
    r = grid_cover(example(name), attacker, target)
    assert (r.attacks_of_opportunity, r.stealth, r.reflex) == (aoo, stealth, reflex)
    assert any(reason.clause == "grid.consequences" for reason in r.reasons)


# --- the ruling object ------------------------------------------------------------------------


def test_grid_ruling_json_has_spec_keys() -> None:
    r = grid_cover(example("cleric"), "ogre", "cleric")
    d = r.to_dict("de")
    for key in (
        "cover",
        "soft",
        "ac",
        "reflex",
        "stealth",
        "attack_allowed",
        "corner",
        "lines",
        "reasons",
    ):
        assert key in d
    assert d["cover"] in ("none", "partial", "cover", "improved", "total")
    assert d["corner"] == list(r.corner)
    line = d["lines"][0]
    assert set(line) == {"from", "to", "verdict", "through"}
    json.dumps(d)  # plain data
    assert all("text" in reason for reason in d["reasons"])


def test_grid_every_reason_has_both_languages() -> None:
    for name, pairs in {
        "fighter": [("ogre", "fighter", "melee"), ("fighter", "ogre", "ranged")],
        "rogue": [("rogue", "ogre", "melee"), ("ogre", "rogue", "reach")],
        "cleric": [("cleric", "ogre", "ranged"), ("cleric", "ogre", "reach")],
        "low-obstacle": [
            ("archer", "guard", "ranged"),
            ("scout", "runner", "ranged"),
            ("sniper", "wanderer", "ranged"),
        ],
        "total": [("guard", "prisoner", "melee")],
        "improved": [("archer", "guard", "ranged"), ("guard", "archer", "ranged")],
        "soft": [("archer", "wizard", "ranged")],
        "sorcerer": [("sorcerer", "ogre", "ranged")],
        "border-walls": [("archer", "knight", "ranged")],
        "big": [("fighter", "ogre", "melee")],
    }.items():
        s = example(name)
        for attacker, target, attack in pairs:
            r = grid_cover(s, attacker, target, attack=attack)
            for lang in ("en", "de"):
                text = r.explain(lang)
                assert "{" not in text
            for reason in r.reasons:
                assert reason.message_id in MESSAGES
            assert r.html("de").startswith("<div")


def test_grid_explain_german_uses_pathfinder_terms() -> None:
    de = grid_cover(example("cleric"), "cleric", "ogre").explain("de")
    assert "Deckung" in de and "RK" in de and "Reflexwürfe" in de
    assert "Gelegenheitsangriffe" in de and "Heimlichkeit" in de
    assert "verbesserte Deckung" in grid_cover(example("improved"), "archer", "guard").explain("de")
    assert "weiche Deckung" in grid_cover(example("soft"), "archer", "wizard").explain("de")


def test_grid_queries_reject_bad_ids_and_attacks() -> None:
    s = example("fighter")
    with pytest.raises(UnknownIdError):
        grid_cover(s, "ogre", "nobody")
    with pytest.raises(QueryError):
        grid_cover(s, "ogre", "ogre")
    with pytest.raises(QueryError):
        grid_cover(s, "ogre", "fighter", attack="spell")
    with pytest.raises(QueryError):
        grid_cover(fwwrules.load(fwwrules.example_path("cover-example-1")), "a", "b")  # type: ignore[arg-type]


# --- exact geometry ---------------------------------------------------------------------------


def test_grid_ranged_squares_crossed_boundary_cases() -> None:
    assert squares_crossed((0, 0), (4, 0)) == ()  # along a border
    assert squares_crossed((0, 0), (2, 2)) == ((0, 0), (1, 1))  # through a corner point
    assert squares_crossed((0, 0), (1, 3)) == ((0, 0), (0, 1), (0, 2))
    assert squares_crossed((3, 0), (0, 1)) == ((2, 0), (1, 0), (0, 0))
    assert squares_crossed((2, 2), (2, 2)) == ()


def test_grid_pf_distance_alternates_diagonals() -> None:
    assert [pf_distance((0, 0), (k, k)) for k in range(5)] == [0, 1, 3, 4, 6]


# --- properties -------------------------------------------------------------------------------

ROW_CHARS = st.sampled_from(".....#o")


@st.composite
def small_maps(draw: st.DrawFn) -> tuple[list[str], tuple[int, int], tuple[int, int]]:
    w = draw(st.integers(3, 7))
    h = draw(st.integers(2, 5))
    rows = [list(draw(st.text(ROW_CHARS, min_size=w, max_size=w))) for _ in range(h)]
    cells = [(c, r) for r in range(h) for c in range(w)]
    a = draw(st.sampled_from(cells))
    t = draw(st.sampled_from([x for x in cells if x != a]))
    for c, r in (a, t):
        rows[r][c] = "."
    return ["".join(r) for r in rows], a, t


def _mk(rows: list[str], a: tuple[int, int], t: tuple[int, int], walls: str = "[]") -> GridScenario:
    return grid(
        rows, [f"{{id: a, at: [{a[0]}, {a[1]}]}}", f"{{id: t, at: [{t[0]}, {t[1]}]}}"], walls=walls
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_maps(), st.sampled_from(["ranged", "melee"]))
def test_grid_ranged_mirror_left_right_keeps_the_category(
    case: tuple[list[str], tuple[int, int], tuple[int, int]], attack: str
) -> None:
    rows, a, t = case
    w = len(rows[0])
    base = grid_cover(_mk(rows, a, t), "a", "t", attack=attack)
    mirrored_rows = [row[::-1] for row in rows]
    m = grid_cover(
        _mk(mirrored_rows, (w - 1 - a[0], a[1]), (w - 1 - t[0], t[1])), "a", "t", attack=attack
    )
    assert (m.cover, m.soft, m.ac, m.reflex) == (base.cover, base.soft, base.ac, base.reflex)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_maps(), st.integers(0, 3), st.integers(0, 3), st.sampled_from(["ranged", "melee"]))
def test_grid_ranged_translation_in_a_larger_map_changes_nothing(
    case: tuple[list[str], tuple[int, int], tuple[int, int]], dx: int, dy: int, attack: str
) -> None:
    rows, a, t = case
    w = len(rows[0])
    base = grid_cover(_mk(rows, a, t), "a", "t", attack=attack)
    big = (
        ["." * (w + 6)] * dy
        + ["." * dx + row + "." * (6 - dx) for row in rows]
        + ["." * (w + 6)] * 2
    )
    moved = grid_cover(
        _mk(big, (a[0] + dx, a[1] + dy), (t[0] + dx, t[1] + dy)), "a", "t", attack=attack
    )
    assert (moved.cover, moved.soft, moved.ac) == (base.cover, base.soft, base.ac)
    assert moved.corner == (base.corner[0] + dx, base.corner[1] + dy)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    small_maps(), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 4)), max_size=4), st.data()
)
def test_grid_total_sampled_clear_segment_never_contradicts_line_of_effect(
    case: tuple[list[str], tuple[int, int], tuple[int, int]],
    wall_starts: list[tuple[int, int]],
    data: st.DataObject,
) -> None:
    """Oracle: any sampled clear segment between the two squares proves line of effect."""
    rows, a, t = case
    w, h = len(rows[0]), len(rows)
    walls = [
        f"[[{x}, {y}], [{x + 1}, {y}]]" if (x + y) % 2 else f"[[{x}, {y}], [{x}, {y + 1}]]"
        for x, y in wall_starts
        if x + 1 <= w and y + 1 <= h
    ]
    s = _mk(rows, a, t, walls="[" + ", ".join(walls) + "]")
    exact = line_of_effect(s, s.creature("a"), s.creature("t"))
    tracer = _Tracer(s, ("a", "t"))
    ca = (Fraction(2 * a[0] + 1, 2), Fraction(2 * a[1] + 1, 2))
    ct = (Fraction(2 * t[0] + 1, 2), Fraction(2 * t[1] + 1, 2))
    fr = st.fractions(min_value=0, max_value=1, max_denominator=8)
    for _ in range(8):
        p = (a[0] + data.draw(fr), a[1] + data.draw(fr))
        q = (t[0] + data.draw(fr), t[1] + data.draw(fr))
        clear = not tracer.trace(p, q, ca, ct, effect_only=True)
        if clear:
            assert exact
    if exact:
        assert grid_cover(s, "a", "t").cover != "total"


# --- the CLI ----------------------------------------------------------------------------------


def test_grid_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    from fwwrules.cli import main

    path = str(fwwrules.example_path("grid/cleric"))
    assert main(["grid", path, "--attacker", "cleric", "--target", "ogre", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["cover"], d["ac"], d["reflex"], d["stealth"], d["attack_allowed"]) == (
        "cover",
        4,
        2,
        True,
        True,
    )


def test_grid_cli_german_text(capsys: pytest.CaptureFixture[str]) -> None:
    from fwwrules.cli import main

    path = str(fwwrules.example_path("grid/rogue"))
    code = main(
        [
            "grid",
            path,
            "--attacker",
            "rogue",
            "--target",
            "ogre",
            "--attack",
            "melee",
            "--lang",
            "de",
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert out.startswith("Oger hat Deckung gegen den Nahkampfangriff von Schurke")
    assert "[grid.melee]" in out


def test_grid_cli_unknown_id_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    from fwwrules.cli import main

    path = str(fwwrules.example_path("grid/rogue"))
    assert main(["grid", path, "--attacker", "rogue", "--target", "dragon"]) == 2
    err = capsys.readouterr().err
    assert "unknown creature id 'dragon'" in err and "Traceback" not in err


def test_grid_cli_scenario_file_is_not_a_grid(capsys: pytest.CaptureFixture[str]) -> None:
    from fwwrules.cli import main

    path = str(fwwrules.example_path("cover-example-1"))
    assert main(["grid", path, "--attacker", "a", "--target", "b"]) == 2
    assert "fwwrules/grid@1" in capsys.readouterr().err
