"""Close combat: ``melee.*`` (engagement, terms, slide geometry) without the attack composer.

Tests that need :func:`fwwrules.ruling` (withdraw, Quick Actions) and line of sight (shooting
into a melee) live in ``test_melee_rulings.py``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from transforms import moved

import fwwrules
from fwwrules.attack import attack_context
from fwwrules.constants import LENGTH_EPSILON_MM
from fwwrules.melee import (
    _Obstacle,
    classify,
    close_combat_terms,
    engagements,
    in_contact,
    is_outnumbered,
    quick_action,
    shortest_path,
    shortest_route,
    slide,
)
from fwwrules.rulings import Step
from fwwrules.scenario import IMPROVISED_WEAPON, ChargeBonus, Model, Options, Scenario, Weapon

RIFLE = Weapon("laser-rifle", "rifle", short="red", long="green", dice={"short": ("green",)})
PISTOL = Weapon("pistol", "pistol", short="red", dice={"short": ("yellow",)})
HEAVY = Weapon("minigun", "heavy", short="green", dice={"short": ("black",)})
MORTAR = Weapon("mortar", "heavy", short="black", min_range="red", dice={"short": ("black",)})
SWORD = Weapon("sword", "melee", dice={"melee": ("black", "yellow")})
WEAPONS = (RIFLE, PISTOL, HEAVY, MORTAR, SWORD)


def model(
    ident: str, faction: str, at: tuple[float, float], base: float = 32, **kw: object
) -> Model:
    kw.setdefault("skills", {"melee": 5, "rifle": 6, "pistol": 6, "heavy": 4})
    return Model(ident, faction, base, at, **kw)  # type: ignore[arg-type]


def board(*models: Model, **kw: object) -> Scenario:
    kw.setdefault("weapons", WEAPONS)
    return Scenario(models=models, **kw)  # type: ignore[arg-type]


def example(name: str) -> Scenario:
    return fwwrules.load(fwwrules.example_path(name))  # type: ignore[no-any-return]


# --- melee.engaged -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gap", "engaged"),
    [(-0.5, True), (0.0, True), (0.25, True), (0.5, True), (0.5 + 1e-3, False), (3.0, False)],
)
def test_melee_engaged_contact_within_tolerance(gap: float, engaged: bool) -> None:
    """A gap of exactly the tolerance (0.5 mm) is contact; a hair above is not."""
    s = board(model("a", "x", (0, 0)), model("b", "y", (32 + gap, 0)))
    assert ("b" in engagements(s)["a"]) is engaged
    assert in_contact(s, "a", "b") is engaged


def test_melee_engaged_scenario_tolerance_option_and_inches() -> None:
    a = model("a", "x", (0, 0), base=1.26)  # inches
    b = model("b", "y", (1.26 + 0.05, 0), base=1.26)
    loose = board(a, b, units="in", options=Options(contact_tolerance=0.06))
    tight = board(a, b, units="in", options=Options(contact_tolerance=0.04))
    assert engagements(loose)["a"] == ("b",)
    assert engagements(tight)["a"] == ()


def test_melee_engaged_only_opposing_models() -> None:
    s = board(
        model("a", "x", (0, 0)),
        model("friend", "x", (32, 0)),
        model("ally", "z", (0, 32)),
        model("dog", "wild", (-32, 0)),
        model("foe", "y", (0, -32)),
        sides={"x": ("x", "z")},
        neutral=("wild",),
    )
    eng = engagements(s)
    assert eng["a"] == ("dog", "foe")  # neutral and enemy engage; friends and allies do not
    assert eng["friend"] == () and eng["ally"] == ()


@pytest.mark.parametrize(("dz", "engaged"), [(0.0, True), (50.0, True), (50.8, False), (60, False)])
def test_melee_engaged_needs_the_same_level(dz: float, engaged: bool) -> None:
    """Elevations an Orange ruler (50.8 mm) or more apart are different levels: no contact."""
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0), elevation=dz))
    assert (engagements(s)["a"] == ("b",)) is engaged


def test_melee_engaged_classify_engaged_target_is_close_combat() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    for weapon in (SWORD, RIFLE, IMPROVISED_WEAPON):
        c = classify(attack_context(s, "a", "b", weapon))
        assert c.kind == "melee" and c.not_allowed == ()


def test_melee_engaged_classify_engaged_attacker_may_not_shoot_others() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)), model("c", "y", (300, 0)))
    c = classify(attack_context(s, "a", "c", RIFLE))
    assert c.not_allowed == ("melee.engaged",)
    assert classify(attack_context(s, "a", "c", SWORD)).not_allowed == ("melee.engaged",)


def test_melee_engaged_classify_melee_weapon_needs_contact() -> None:
    s = board(model("a", "x", (0, 0)), model("c", "y", (100, 0)))
    c = classify(attack_context(s, "a", "c", SWORD))
    assert c.kind == "melee" and c.not_allowed == ("melee.engaged",)
    r = classify(attack_context(s, "a", "c", RIFLE))
    assert r.kind == "ranged" and r.not_allowed == ()


def test_melee_engaged_friend_in_contact_is_not_a_close_combat_target() -> None:
    s = board(model("a", "x", (0, 0)), model("f", "x", (32, 0)))
    assert classify(attack_context(s, "a", "f", SWORD)).not_allowed == ("melee.engaged",)
    assert classify(attack_context(s, "a", "f", RIFLE)).kind == "ranged"


positions = st.tuples(st.floats(-300, 300, allow_nan=False), st.floats(-300, 300, allow_nan=False))


@st.composite
def crowds(draw: st.DrawFn) -> Scenario:
    n = draw(st.integers(2, 7))
    ms = []
    for k in range(n):
        at = draw(positions)
        base = draw(st.sampled_from([32.0, 40.0, 60.0]))
        faction = draw(st.sampled_from(["x", "y", "wild"]))
        ms.append(model(f"m{k}", faction, at, base=base))
    for i in range(n):
        for j in range(i):
            gap = math.dist(ms[i].at, ms[j].at) - (ms[i].base + ms[j].base) / 2
            assume(gap >= -0.5)
    return board(*ms, neutral=("wild",))


def _gaps_far_from_threshold(s: Scenario) -> bool:
    g = s.board.models
    tol = s.board.contact_tolerance + LENGTH_EPSILON_MM
    return all(abs(g[a].disc.gap(g[b].disc) - tol) > 1e-6 for a in g for b in g if a < b)


@settings(max_examples=60, deadline=None)
@given(crowds())
def test_melee_engaged_is_symmetric(s: Scenario) -> None:
    eng = engagements(s)
    for a, foes in eng.items():
        assert a not in foes
        for b in foes:
            assert a in eng[b]


@settings(max_examples=60, deadline=None)
@given(crowds(), st.floats(0, 2 * math.pi), st.floats(-500, 500), st.floats(-500, 500))
def test_melee_engaged_rotation_and_translation_change_nothing(
    s: Scenario, angle: float, dx: float, dy: float
) -> None:
    assume(_gaps_far_from_threshold(s))
    assert engagements(moved(s, angle, dx, dy)) == engagements(s)


# --- melee.skill ----------------------------------------------------------------------------


def test_melee_skill_improvised_weapon_uses_melee_value() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", IMPROVISED_WEAPON, "core"))
    assert (t.icon, t.value, t.not_allowed, t.modifier) == ("melee", 5, (), 0)
    assert t.dice == {}
    assert IMPROVISED_WEAPON in s.weapons_of(s.model("a"))


def test_melee_skill_missing_icon_is_not_allowed() -> None:
    s = board(model("a", "x", (0, 0), skills={"rifle": 6}), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", SWORD, "core"))
    assert t.value is None and "melee.skill" in t.not_allowed
    assert (
        "melee.skill" in close_combat_terms(attack_context(s, "a", "b", PISTOL, "core")).not_allowed
    )


def test_melee_skill_ranged_weapon_uses_its_own_icon() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", HEAVY, "core"))
    assert (t.icon, t.value) == ("heavy", 4)


# --- melee.ranged-weapon ----------------------------------------------------------------------


@pytest.mark.parametrize("weapon", [RIFLE, PISTOL, HEAVY])
def test_melee_ranged_weapon_core_minus_two_and_armor_plus_one(weapon: Weapon) -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", weapon, "core"))
    assert t.modifiers == (("melee.ranged-weapon", -2),)
    assert (t.armor_bonus, t.armor_boost) == (1, 0)
    assert t.dice == dict.fromkeys(weapon.dice["short"], 1)  # its short band's dice
    assert t.not_allowed == ()


def test_melee_ranged_weapon_vts_gives_an_armor_boost_instead() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", RIFLE, "vts"))
    assert t.modifiers == (("melee.ranged-weapon", -2),)
    assert (t.armor_bonus, t.armor_boost) == (0, 1)


def test_melee_ranged_weapon_thrown_takes_the_same_penalty() -> None:
    grenade = Weapon("grenade", "thrown", short="yellow", dice={"short": ("black",)})
    s = board(
        model("a", "x", (0, 0), skills={"thrown": 5}),
        model("b", "y", (32, 0)),
        weapons=(*WEAPONS, grenade),
    )
    t = close_combat_terms(attack_context(s, "a", "b", grenade, "core"))
    assert (t.icon, t.value, t.modifier, t.armor_bonus) == ("thrown", 5, -2, 1)


def test_melee_ranged_weapon_with_minimum_range_is_not_allowed() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    assert (
        "melee.ranged-weapon"
        in close_combat_terms(attack_context(s, "a", "b", MORTAR, "core")).not_allowed
    )
    zero = replace(MORTAR, min_range=0.0)
    assert close_combat_terms(attack_context(s, "a", "b", zero, "core")).not_allowed == ()


def test_melee_ranged_weapon_melee_weapon_has_no_penalty() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)))
    t = close_combat_terms(attack_context(s, "a", "b", SWORD, "vts"))
    assert (t.modifiers, t.armor_bonus, t.armor_boost) == ((), 0, 0)
    assert t.dice == {"black": 1, "yellow": 1}


# --- melee.strength -------------------------------------------------------------------------


@pytest.mark.parametrize(("strength", "black"), [(None, 1), (6, 1), (7, 2), (10, 2)])
def test_melee_strength_seven_or_more_adds_a_black_die(strength: int | None, black: int) -> None:
    s = board(model("a", "x", (0, 0), strength=strength), model("b", "y", (32, 0)))
    assert close_combat_terms(attack_context(s, "a", "b", SWORD, "core")).dice["black"] == black


def test_melee_strength_only_with_a_melee_weapon() -> None:
    s = board(model("a", "x", (0, 0), strength=9), model("b", "y", (32, 0)))
    assert close_combat_terms(attack_context(s, "a", "b", PISTOL, "core")).dice == {"yellow": 1}
    assert close_combat_terms(attack_context(s, "a", "b", IMPROVISED_WEAPON, "core")).dice == {
        "black": 1
    }


# --- melee.super-mutant ---------------------------------------------------------------------


def _mutant_board() -> Scenario:
    return board(
        model(
            "sm",
            "mutants",
            (0, 0),
            base=40,
            skills={"melee": 7, "rifle": 3, "pistol": 3, "heavy": 3},
            keywords=("super-mutant",),
        ),
        model("b", "y", (36, 0)),
    )


@pytest.mark.parametrize("weapon", [RIFLE, PISTOL])
def test_melee_super_mutant_core_only(weapon: Weapon) -> None:
    s = _mutant_board()
    core = close_combat_terms(attack_context(s, "sm", "b", weapon, "core"))
    assert (core.icon, core.value) == ("melee", 7)
    assert core.modifiers == (("melee.ranged-weapon", -2),)  # the penalties stay
    assert core.armor_bonus == 1
    assert [c.chosen for c in core.choices] == ["melee"]
    vts = close_combat_terms(attack_context(s, "sm", "b", weapon, "vts"))
    assert (vts.icon, vts.value) == (weapon.type, 3)
    assert any(r.clause == "melee.super-mutant" and r.key == "vts" for r in vts.terms)


def test_melee_super_mutant_not_for_heavy_weapons_nor_other_models() -> None:
    s = _mutant_board()
    assert close_combat_terms(attack_context(s, "sm", "b", HEAVY, "core")).icon == "heavy"
    plain = replace(s, models=(replace(s.models[0], keywords=()), s.models[1]))
    assert close_combat_terms(attack_context(plain, "sm", "b", RIFLE, "core")).icon == "rifle"


def test_melee_super_mutant_keeps_a_higher_weapon_skill() -> None:
    s = _mutant_board()
    sharp = replace(s.models[0], skills={"melee": 4, "rifle": 6})
    s2 = replace(s, models=(sharp, s.models[1]))
    t = close_combat_terms(attack_context(s2, "sm", "b", RIFLE, "core"))
    assert (t.icon, t.value) == ("rifle", 6)
    assert t.choices[0].options == ("melee", "rifle") and t.choices[0].chosen == "rifle"


# --- melee.outnumbered ----------------------------------------------------------------------


def test_melee_outnumbered_example_1() -> None:
    s = example("melee-outnumbered-1")
    assert is_outnumbered(s, "super-mutant-1")
    assert not is_outnumbered(s, "brotherhood-a") and not is_outnumbered(s, "brotherhood-b")
    for bos in ("brotherhood-a", "brotherhood-b"):
        t = close_combat_terms(attack_context(s, bos, "super-mutant-1", IMPROVISED_WEAPON, "core"))
        assert t.dice.get("green") == 1
    t = close_combat_terms(
        attack_context(s, "super-mutant-1", "brotherhood-a", s.weapon("board"), "core")
    )
    assert t.dice == {"black": 2}  # the board's die and Strength 7; no green


def test_melee_outnumbered_example_2() -> None:
    s = example("melee-outnumbered-2")
    out = {m.id for m in s.models if is_outnumbered(s, m.id)}
    # the caption names exactly two: Brotherhood A and Super Mutant 1 (melee.outnumbered)
    assert out == {"super-mutant-1", "brotherhood-a"}
    e = engagements(s)
    assert set(e["brotherhood-a"]) == {"super-mutant-1", "super-mutant-2", "super-mutant-3"}
    assert set(e["brotherhood-b"]) == {"super-mutant-1"}
    t = close_combat_terms(
        attack_context(s, "super-mutant-1", "brotherhood-b", s.weapon("board"), "core")
    )
    assert "green" not in t.dice  # Brotherhood B is not outnumbered
    t = close_combat_terms(
        attack_context(s, "brotherhood-a", "super-mutant-3", IMPROVISED_WEAPON, "core")
    )
    assert "green" not in t.dice
    t = close_combat_terms(
        attack_context(s, "super-mutant-2", "brotherhood-a", s.weapon("board"), "vts")
    )
    assert t.dice == {"black": 2, "green": 1}
    t = close_combat_terms(
        attack_context(s, "brotherhood-a", "super-mutant-2", IMPROVISED_WEAPON, "core")
    )
    assert "green" not in t.dice


def test_melee_outnumbered_needs_opposing_models() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0)), model("f", "x", (-32, 0)))
    assert not is_outnumbered(s, "a")
    assert not is_outnumbered(s, "no-such-model")


# --- melee.charge-bonus ---------------------------------------------------------------------


@pytest.mark.parametrize("colour", ["black", "green"])
def test_melee_charge_bonus_one_marker_adds_its_colour(colour: str) -> None:
    cb = ChargeBonus("b", (colour,))
    s = board(model("a", "x", (0, 0), charge_bonus=cb), model("b", "y", (32, 0)))
    assert close_combat_terms(attack_context(s, "a", "b", IMPROVISED_WEAPON, "core")).dice == {
        colour: 1
    }


@pytest.mark.parametrize("markers", [("black", "black"), ("green", "green"), ("black", "green")])
def test_melee_charge_bonus_two_markers_add_black_and_green(markers: tuple[str, str]) -> None:
    cb = ChargeBonus("b", markers)
    s = board(model("a", "x", (0, 0), charge_bonus=cb), model("b", "y", (32, 0)))
    assert close_combat_terms(attack_context(s, "a", "b", IMPROVISED_WEAPON, "vts")).dice == {
        "black": 1,
        "green": 1,
    }


def test_melee_charge_bonus_discarded_against_another_target() -> None:
    cb = ChargeBonus("c", ("black", "green"))
    s = board(
        model("a", "x", (0, 0), charge_bonus=cb),
        model("b", "y", (32, 0)),
        model("c", "y", (-32, 0)),
    )
    t = close_combat_terms(attack_context(s, "a", "b", IMPROVISED_WEAPON, "core"))
    assert t.dice == {}
    assert any(r.clause == "melee.charge-bonus" and r.key == "discarded" for r in t.terms)


# --- melee.stunned --------------------------------------------------------------------------


def test_melee_stunned_target_gives_plus_two() -> None:
    s = board(model("a", "x", (0, 0)), model("b", "y", (32, 0), status=("stunned",)))
    t = close_combat_terms(attack_context(s, "a", "b", RIFLE, "core"))
    assert dict(t.modifiers) == {"melee.ranged-weapon": -2, "melee.stunned": 2}
    assert t.modifier == 0
    assert (
        close_combat_terms(attack_context(s, "b", "a", SWORD, "core")).modifier == 0
    )  # a is not stunned


# --- action.quick ---------------------------------------------------------------------------


def test_action_quick_helper_is_minus_two() -> None:
    s = Scenario(models=(Model("a", "x", 32, (0, 0)), Model("b", "y", 32, (100, 0))))
    step = quick_action(attack_context(s, "a", "b", quick=True))
    mods, reasons = step.modifiers, step.terms
    assert mods == (("action.quick", -2),) and reasons[0].clause == "action.quick"
    assert quick_action(attack_context(s, "a", "b")) == Step()
    assert "−2" in reasons[0].text("en") and "−2" in reasons[0].text("de")


# --- melee.slide ----------------------------------------------------------------------------


def test_melee_slide_behemoth_around_dogmeat() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "behemoth", (324.8, 343.4))
    assert r.legal and r.not_allowed == () and r.breaks == () and r.overlaps == ()
    assert r.new_engagements == ("sole-survivor",)
    assert any(x.key == "no-free-attacks" for x in r.reasons)
    # tangent, arc of radius 49.5 mm around Dogmeat, tangent (the grown disc of Dogmeat)
    assert r.path_length is not None and 100 < r.path_length < 110
    after = replace(s, models=(replace(s.models[0], at=(324.8, 343.4)), *s.models[1:]))
    assert engagements(after)["behemoth"] == ("dogmeat", "sole-survivor")


def test_melee_slide_vts_has_no_slide() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "behemoth", (324.8, 343.4), rules="vts")
    assert not r.legal and r.not_allowed == ("melee.slide",)
    assert r.reasons[0].key == "vts"
    assert not slide(replace(s, rules="vts"), "behemoth", (324.8, 343.4)).legal


def test_melee_slide_may_not_break_an_engagement() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "behemoth", (250, 390))
    assert not r.legal and r.breaks == ("dogmeat",) and r.not_allowed == ("melee.slide",)


def test_melee_slide_may_not_end_on_a_base() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "behemoth", (335.36, 335.36))  # touches Dogmeat
    assert not r.legal and r.overlaps == ("sole-survivor",)


def test_melee_slide_needs_an_engagement() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "sole-survivor", (340, 250))
    assert not r.legal and r.reasons[0].key == "not-engaged"


def _pinned(**options: object) -> Scenario:
    """A slider left of its foe; the foe's flanks are closed by two more enemies, so getting to
    the far side means a long way round (or straight through the foe with the option)."""
    return board(
        model("slider", "x", (-32, 0), move=70.0),
        model("foe", "y", (0, 0)),
        model("top", "y", (0, 32)),
        model("bottom", "y", (0, -32)),
        options=Options(**options),  # type: ignore[arg-type]
    )


def test_melee_slide_opposing_bases_cannot_be_passed() -> None:
    """melee.slide keeps contact at every point: the long way round (away from the foe) is no
    slide; the answer says which contact would break and where (RoP p.25)."""
    r = slide(_pinned(), "slider", (32, 0))
    assert not r.legal and r.breaks == () and r.overlaps == ()
    assert r.path_length is None
    assert set(r.blocked_by) == {"top", "bottom"}
    assert [x.params["model"] for x in r.reasons if x.key == "breaks-on-path"] == ["foe", "foe"]


def test_melee_slide_through_engaged_enemy_option() -> None:
    r = slide(_pinned(slide_through_engaged_enemy=True), "slider", (32, 0))
    assert r.legal and r.path_length == pytest.approx(64)
    keys = [(x.clause, x.key) for x in r.reasons]
    assert ("option/used", "") in keys and ("melee.slide", "option-needed") in keys


def test_melee_slide_friendly_bases_may_be_passed() -> None:
    """The way round the foe's lower side runs over a friend's base: allowed for a friend,
    a detour for an enemy; ending on the friend is forbidden."""

    def with_third(faction: str | None) -> Scenario:
        third = () if faction is None else (model("third", faction, (-40, -40)),)
        return board(model("slider", "x", (-32, 0)), model("foe", "y", (0, 0)), *third)

    alone = slide(with_third(None), "slider", (0, -32))
    friend = slide(with_third("x"), "slider", (0, -32))
    enemy = slide(with_third("y"), "slider", (0, -32))
    assert alone.legal and friend.legal and enemy.legal
    assert friend.path_length == pytest.approx(alone.path_length)
    assert enemy.path_length is not None and alone.path_length is not None
    # an enemy there: going round it would leave the foe, so the slide goes the other way
    # round the foe (three quarters of it), keeping contact all the way
    assert enemy.path_length > 2 * alone.path_length
    on_friend = slide(with_third("x"), "slider", (-30.5, -30.5))
    assert on_friend.overlaps == ("third",) and not on_friend.legal


def test_melee_slide_enclosed_goal_names_the_ring() -> None:
    ring = [
        model(f"r{k}", "y", (200 + 45 * math.cos(k * math.pi / 4), 45 * math.sin(k * math.pi / 4)))
        for k in range(8)
    ]
    s = board(model("slider", "x", (-32, 0)), model("foe", "y", (0, 0)), *ring)
    r = slide(s, "slider", (200, 0))
    assert not r.legal and r.path_length is None
    assert r.breaks == ("foe",)  # the end leaves the foe: no path is looked for


def test_melee_slide_zero_length_is_legal() -> None:
    s = example("melee-behemoth-slide")
    r = slide(s, "behemoth", (250, 300))
    assert r.legal and r.path_length == 0


@settings(max_examples=40, deadline=None)
@given(
    st.floats(0, 2 * math.pi),
    st.floats(-400, 400),
    st.floats(-400, 400),
    st.floats(0, 2 * math.pi),
    st.floats(0, 90),
)
def test_melee_slide_rotation_and_translation_change_nothing(
    angle: float, dx: float, dy: float, where: float, reach: float
) -> None:
    s = _pinned()
    to = (reach * math.cos(where), reach * math.sin(where))
    before = slide(s, "slider", to)
    c, sn = math.cos(angle), math.sin(angle)
    moved_to = (to[0] * c - to[1] * sn + dx, to[0] * sn + to[1] * c + dy)
    after = slide(moved(s, angle, dx, dy), "slider", moved_to)
    g = s.board.models
    from fwwrules.board import Disc

    new = Disc(to[0], to[1], 16)
    assume(all(abs(abs(new.gap(g[m].disc)) - 0.5) > 1e-6 for m in g if m != "slider"))
    assume(before.path_length is None or abs(before.path_length - 70) > 1e-6)
    assert after.legal == before.legal
    assert after.breaks == before.breaks and after.overlaps == before.overlaps
    if before.path_length is None:
        assert after.path_length is None
    else:
        assert after.path_length == pytest.approx(before.path_length, abs=1e-6)


# --- the exact shortest path ----------------------------------------------------------------


def test_melee_slide_shortest_path_round_one_disc() -> None:
    r, d = 5.0, 10.0
    got = shortest_path((-d, 0), (d, 0), [_Obstacle("a", 0, 0, r)])
    tangent = math.sqrt(d * d - r * r)
    arc = r * (math.pi - 2 * math.acos(r / d))
    assert got == pytest.approx(2 * tangent + arc, abs=1e-9)


def test_melee_slide_shortest_route_follows_the_circle() -> None:
    """The route's polyline starts and ends at the ends, never enters the disc, and its length
    approaches the exact length from below (chords are shorter than arcs)."""
    r, d = 5.0, 10.0
    route = shortest_route((-d, 0), (d, 0), [_Obstacle("a", 0, 0, r)])
    assert route is not None
    assert route.points[0] == (-d, 0) and route.points[-1] == (d, 0)
    assert all(math.hypot(x, y) >= r - 1e-9 for x, y in route.points)
    drawn = sum(math.dist(p, q) for p, q in itertools.pairwise(route.points))
    assert route.length - 0.01 < drawn <= route.length + 1e-9
    assert len(route.points) > 4  # the arc is drawn as several chords


def test_melee_slide_shortest_path_grazing_is_not_entering() -> None:
    # the straight line is tangent to the disc: no detour
    assert shortest_path((-10, 5), (10, 5), [_Obstacle("a", 0, 0, 5)]) == pytest.approx(20)
    # from a point on the circle to the opposite point: half the circumference
    assert shortest_path((-5, 0), (5, 0), [_Obstacle("a", 0, 0, 5)]) == pytest.approx(5 * math.pi)


def test_melee_slide_shortest_path_two_overlapping_discs() -> None:
    obs = [_Obstacle("a", 0, -4, 5), _Obstacle("b", 0, 4, 5)]
    d = math.hypot(10, 4)
    tangent = math.sqrt(d * d - 25)
    w = math.acos(5 / d)
    arc_angle = (math.atan2(-4, -10) % (2 * math.pi) - w) - (math.atan2(-4, 10) + w)
    assert shortest_path((-10, 0), (10, 0), obs) == pytest.approx(2 * tangent + 5 * arc_angle)


def _polygon_reachable(
    start: tuple[float, float], goal: tuple[float, float], obs: list[_Obstacle], grow: float
) -> bool:
    """Oracle: whether the goal is reachable around polygons ``grow`` times the discs."""
    from shapely.geometry import Point, box
    from shapely.ops import unary_union

    blobs = unary_union([Point(o.x, o.y).buffer(o.r * grow, quad_segs=64) for o in obs])
    free = box(-500, -500, 500, 500).difference(blobs)
    parts = getattr(free, "geoms", [free])
    for p in parts:
        if p.covers(Point(start)):
            return bool(p.covers(Point(goal)))
    return False


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.floats(-100, 100), st.floats(-100, 100), st.floats(5, 45)),
        min_size=1,
        max_size=7,
    ),
    positions,
    positions,
)
def test_melee_slide_shortest_path_agrees_with_a_polygon_oracle(
    discs: list[tuple[float, float, float]],
    start: tuple[float, float],
    goal: tuple[float, float],
) -> None:
    obs = [_Obstacle(f"o{k}", x, y, r) for k, (x, y, r) in enumerate(discs)]
    for p in (start, goal):
        assume(all(math.hypot(p[0] - o.x, p[1] - o.y) > o.r * 1.02 for o in obs))
    got = shortest_path(start, goal, obs)
    if got is None:  # then not even the smaller polygons let it through
        assert not _polygon_reachable(start, goal, obs, 0.99)
    else:
        assert got >= math.dist(start, goal) - 1e-9
        assert _polygon_reachable(start, goal, obs, 0.99)
    if _polygon_reachable(start, goal, obs, 1.01):  # reachable around larger discs
        assert got is not None


def test_melee_engaged_terrain_target_with_a_melee_weapon() -> None:
    from fwwrules.scenario import Rect, Terrain

    s = board(
        model("a", "x", (0, 0), charge_bonus=ChargeBonus("b", ("black",))),
        model("b", "y", (300, 0)),
        terrain=(Terrain("crate", "cover", Rect((100, 0), (20, 20))),),
    )
    assert classify(attack_context(s, "a", "crate", SWORD)).not_allowed == ("melee.engaged",)
    t = close_combat_terms(attack_context(s, "a", "crate", SWORD, "core"))
    assert t.dice == {"black": 1, "yellow": 1} and t.modifiers == ()  # the sword only


def test_melee_slide_terrain_does_not_stop_it_and_says_so() -> None:
    from fwwrules.scenario import Rect, Terrain

    s = example("melee-behemoth-slide")
    wall = Terrain("wall", "blocking", Rect((260, 345), (30, 10)))
    r = slide(replace(s, terrain=(wall,)), "behemoth", (324.8, 343.4))
    assert r.legal
    assert [x.key for x in r.reasons if x.key == "terrain"] == ["terrain"]
    assert not any(x.key == "terrain" for x in slide(s, "behemoth", (324.8, 343.4)).reasons)


def test_melee_slide_over_a_friend_says_friends_may_be_passed() -> None:
    s = board(
        model("slider", "x", (-32, 0)),
        model("foe", "y", (0, 0)),
        model("friend", "x", (-49.1, -28.35)),  # 29 mm off the middle of the way
    )
    r = slide(s, "slider", (-16, -27.7))
    assert r.overlaps == () and any(x.key == "friends" for x in r.reasons)
