"""Issue 32: what a Stunned model may do, the limits of a reaction to a charge, and a thrown
weapon's own range, as the rules reference (docs/rules.md) now says (RoP p.41, p.44, p.48).

Every scenario is built in the file format and asked through the public API. Each case is
also asked on rotated, mirrored and transposed copies of its board (the rules do not depend on
where the table's edges are), under both rulesets where they differ. Tests are named after
the clause they check.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from test_rule_corrections_3 import RULES, board, model, nothing_applies
from transforms import moved

import fwwrules
from fwwrules.scenario import Scenario


def copies(s: Scenario) -> Iterator[tuple[str, Scenario]]:
    """``s`` and copies of it rotated by 90, 180 and 270 degrees, mirrored left to right and
    transposed (x and y swapped), all shifted to stay on the positive quadrant."""
    yield "identity", s
    for quarter in (1, 2, 3):
        yield f"rotated {90 * quarter}", moved(s, quarter * math.pi / 2, 1000.0, 1000.0)

    def remap(f: Any) -> Scenario:
        models = tuple(replace(m, at=f(m.at)) for m in s.models)
        return replace(s, models=models)

    yield "mirrored", remap(lambda p: (1000.0 - p[0], p[1]))
    yield "transposed", remap(lambda p: (p[1] + 500.0, p[0] + 500.0))


STUNNED = ", status: [stunned]"


def refused(d: dict[str, Any]) -> None:
    """A refused ruling presents nothing as applying; the refusing clauses' own reasons (the
    ones saying why) are the only ones of their clause it shows."""
    why = set(d["not_allowed"])
    nothing_applies({**d, "reasons": [x for x in d["reasons"] if x["clause"] not in why]})


THROWER = "{thrown: {value: 6, colour: red}, melee: 5}"


# --- melee.stunned: a Stunned model takes no Action but the Move that removes its marker -----


@pytest.mark.parametrize("rules", RULES)
def test_melee_stunned_attacker_may_not_make_a_close_combat_attack(rules: str) -> None:
    """Engaged with its enemy, a Stunned model may not club it (today: allowed, +0)."""
    s = board(
        model("a", "x", (0, 0), extra=STUNNED) + model("t", "y", (32, 0)),
        rules=rules,
    )
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "t", weapon="club")
        d = r.to_dict()
        refused(d)
        assert (d["kind"], d["not_allowed"]) == ("melee", ["melee.stunned"]), name
        assert [x["key"] for x in d["reasons"] if x["clause"] == "melee.stunned"] == ["attacker"]
    r = fwwrules.ruling(s, "a", "t", weapon="club")
    assert r.headline("en") == (
        "a may not attack t with club: it is Stunned and takes no Action but the Move that "
        "removes the marker."
    )
    assert r.headline("de") == (
        "a darf t nicht mit club angreifen: es ist betäubt und führt keine Aktion aus außer "
        "der Bewegung, die den Marker entfernt."
    )


@pytest.mark.parametrize("rules", RULES)
def test_melee_stunned_attacker_may_not_shoot_and_the_facts_stay(rules: str) -> None:
    """Unengaged, a Stunned model may not shoot (today: allowed); line of sight and range are
    still reported, as for any refusal."""
    s = board(model("a", "x", (0, 0), extra=STUNNED) + model("t", "y", (100, 0)), rules=rules)
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "t", weapon="rifle")
        d = r.to_dict()
        refused(d)
        assert (d["kind"], d["not_allowed"]) == ("ranged", ["melee.stunned"]), name
        assert d["line_of_sight"] is True and d["range"]["bands"] == ["short"], name
        assert d["range"]["distance"] == pytest.approx(68.0), name


def test_melee_stunned_attacker_may_not_throw() -> None:
    s = board(
        model("a", "x", (0, 0), extra=STUNNED, skills=THROWER, weapons="[grenade]")
        + model("t", "y", (100, 0))
    )
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "t", weapon="grenade")
        assert r.not_allowed == ("melee.stunned",) and r.range is not None, name
    assert "may not attack in close combat, shoot or throw" in r.explain("en")
    assert "weder im Nahkampf angreifen noch schießen noch werfen" in r.explain("de")


@pytest.mark.parametrize("rules", RULES)
def test_melee_stunned_attacker_may_not_react_to_a_charge(rules: str) -> None:
    charger = ", charge_bonus: {target: a, markers: [black]}"
    s = board(
        model("a", "x", (0, 0), extra=STUNNED) + model("c", "y", (32, 0), extra=charger),
        rules=rules,
    )
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "c", weapon="pistol", reacting_to_charge=True)
        assert r.not_allowed == ("melee.stunned",), name
        assert [x.key for x in r.reasons if x.clause == "melee.stunned"] == ["attacker-reaction"]
    assert r.why("en") == ("it is Stunned and cannot react",)
    assert r.why("de") == ("es ist betäubt und kann nicht reagieren",)


def test_melee_stunned_attacker_and_stunned_target_together() -> None:
    """A Stunned target still gives +2 to a model that may attack; a Stunned attacker is
    refused whatever the target (a terrain piece, a point, a Stunned enemy)."""
    s = board(
        model("a", "x", (0, 0), extra=STUNNED)
        + model("t", "y", (32, 0), extra=STUNNED)
        + model("b", "x", (32, 32)),
        terrain="  - {id: crate, kind: cover, rect: {at: [150, 0], size: [30, 30]}}\n",
    )
    assert fwwrules.ruling(s, "b", "t", weapon="club").modifiers == {"melee.stunned": 2}
    for target in ("t", "crate", (100.0, 100.0)):
        r = fwwrules.ruling(s, "a", target, weapon="club")
        assert "melee.stunned" in r.not_allowed, target


def test_melee_stunned_shooter_threatens_no_cell_of_the_threat_map() -> None:
    """The threat map asks the same rule: a Stunned shooter can attack no position, and every
    cell agrees with a ruling for a model standing there."""
    s = board(
        model("a", "x", (0, 0), extra=STUNNED)
        + model("b", "x", (0, 100))
        + model("t", "y", (300, 300))
    )
    tm = fwwrules.threat_map(s, "y", base=32, step=40)
    k = tm.shooters.index("a")
    assert not tm.allowed[:, k].any()
    assert {tm.clauses[c] for c in tm.reason[tm.placeable, k].tolist()} == {"melee.stunned"}
    assert tm.allowed[:, tm.shooters.index("b")].any()
    for i in range(0, len(tm.positions), 7):
        cell = tm.cell(i, "a")
        if cell is not None:
            at = tuple(float(v) for v in tm.positions[i])
            there = replace(s.model("t"), at=at)
            again = replace(s, models=tuple(there if m.id == "t" else m for m in s.models))
            assert fwwrules.ruling(again, "a", "t").not_allowed[0] == "melee.stunned"


# --- melee.charge-reaction: the limits of a reaction to a charge (RoP p.41) ------------------


def _charged(markers: str, rules: str = "core", extra_a: str = "") -> Scenario:
    """``c`` charged ``a`` and holds ``markers`` against it; ``d``, another enemy, is also in
    contact with ``a``; a crate stands apart."""
    charger = f", charge_bonus: {{target: a, markers: {markers}}}"
    return board(
        model("a", "x", (0, 0), extra=extra_a)
        + model("c", "y", (32, 0), extra=charger)
        + model("d", "y", (0, 32)),
        terrain="  - {id: crate, kind: cover, rect: {at: [200, 200], size: [30, 30]}}\n",
        rules=rules,
    )


@pytest.mark.parametrize("rules", RULES)
def test_melee_charge_reaction_takes_the_quick_action_penalty(rules: str) -> None:
    """A reaction is a Quick Action: −2 without ``quick`` (today 0), and once with it; the
    exception still lifts the close combat penalties."""
    s = _charged("[black]", rules)
    for name, copy in copies(s):
        for quick in (False, True):
            r = fwwrules.ruling(
                copy, "a", "c", weapon="pistol", quick=quick, reacting_to_charge=True
            )
            assert r.allowed and r.modifiers == {"action.quick": -2}, (name, quick)
            assert (r.armor.bonus, r.armor.boost, r.skill.target) == (0, 0, 4), (name, quick)
            keys = [x.message_id for x in r.reasons]
            assert "melee.charge-reaction/quick" in keys and "action.quick" in keys, name
    text = fwwrules.ruling(s, "a", "c", weapon="pistol", reacting_to_charge=True).explain("en")
    assert "A reaction is a Quick Action" in text
    de = fwwrules.ruling(s, "a", "c", weapon="pistol", reacting_to_charge=True).explain("de")
    assert "Eine Reaktion ist eine Schnellaktion" in de


@pytest.mark.parametrize("rules", RULES)
def test_melee_charge_reaction_may_target_only_the_charger(rules: str) -> None:
    """``d`` is engaged with ``a`` too but did not charge it: a reaction at ``d`` is refused
    and names the charger (today allowed without penalties); so is one at a terrain piece or
    a point."""
    s = _charged("[green]", rules)
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "d", weapon="pistol", reacting_to_charge=True)
        d = r.to_dict()
        nothing_applies(d)
        assert d["not_allowed"] == ["melee.charge-reaction"], name
        assert d["kind"] == "melee", name
    r = fwwrules.ruling(s, "a", "d", weapon="pistol", reacting_to_charge=True)
    assert r.why("en") == ("a reaction to the charge of c may target only c",)
    assert r.why("de") == ("eine Reaktion auf den Ansturm von c darf nur c zum Ziel haben",)
    for target in ("crate", (300.0, 300.0)):
        other = fwwrules.ruling(s, "a", target, weapon="pistol", reacting_to_charge=True)
        assert "melee.charge-reaction" in other.not_allowed, target
    assert fwwrules.ruling(s, "a", "c", weapon="pistol", reacting_to_charge=True).allowed


def test_melee_charge_reaction_without_any_charger_is_refused() -> None:
    s = board(model("a", "x", (0, 0)) + model("c", "y", (32, 0)))
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "c", weapon="pistol", reacting_to_charge=True)
        assert r.not_allowed == ("melee.charge-reaction",), name
        assert [x.key for x in r.reasons if x.clause == "melee.charge-reaction"] == ["no-charger"]
    assert "no model holds Charge Bonus markers against it" in r.headline("en")
    assert "kein Modell hält Ansturm-Bonusmarker gegen es" in r.headline("de")


@pytest.mark.parametrize("rules", RULES)
def test_melee_charge_reaction_after_a_won_battle_cry_is_no_reaction(rules: str) -> None:
    """Two markers (a Charge with a won Battle Cry) trigger no reaction: the exception does not
    apply, −2 for the pistol and −2 Quick (−4, today −2) and armor +1 or an Armor Boost (today
    none), and the ruling says why instead of claiming the reaction."""
    s = _charged("[black, green]", rules)
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "a", "c", weapon="pistol", reacting_to_charge=True)
        assert r.allowed, name
        assert r.modifiers == {"melee.ranged-weapon": -2, "action.quick": -2}, name
        assert r.skill.modifier == -4 and r.skill.target == 2, name
        expected = (1, 0) if rules == "core" else (0, 1)
        assert (r.armor.bonus, r.armor.boost) == expected, name
        keys = [x.message_id for x in r.reasons]
        assert "melee.charge-reaction/battle-cry" in keys, name
        assert "melee.ranged-weapon/charge-reaction" not in keys, name
    r = fwwrules.ruling(s, "a", "c", weapon="pistol", reacting_to_charge=True)
    assert "with a won Battle Cry (two Charge Bonus markers)" in r.explain("en")
    assert "reaction to being charged by" not in r.explain("en")
    assert "mit gewonnenem Kampfschrei angestürmt" in r.explain("de")


# --- ranged.skill: a thrown weapon with a range of its own (this project's extension) ---------


def test_ranged_skill_thrown_weapon_with_its_own_range_says_it_used_it() -> None:
    """The knife has a range of its own (Orange): the ruling says it used it, naming the Throw
    colour it did not use, and says so also when the thrower's Throw colour is not given
    (today: nothing said)."""
    s = board(
        model("lob", "x", (0, 0), skills=THROWER, weapons="[knife]") + model("t", "y", (60, 0))
    )
    for name, copy in copies(s):
        r = fwwrules.ruling(copy, "lob", "t", weapon="knife")
        assert r.allowed and [x.key for x in r.reasons if x.key.startswith("own-range")] == [
            "own-range"
        ], name
    text = fwwrules.ruling(s, "lob", "t", weapon="knife").explain("en")
    assert "Throwing Knife is thrown with its own range (50.8 mm (2″)), not as far as" in text
    assert "Red" in text and "this project's extension" in text
    de = fwwrules.ruling(s, "lob", "t", weapon="knife").explain("de")
    assert "Throwing Knife wird mit eigener Reichweite (50,8 mm (2″)) geworfen" in de
    plain = replace(s, models=tuple(replace(m, throw_colour=None) for m in s.models))
    r = fwwrules.ruling(plain, "lob", "t", weapon="knife")
    assert [x.key for x in r.reasons if x.clause == "ranged.skill"] == [
        "has",
        "own-range-no-colour",
    ]
    assert "is thrown with its own range (50.8 mm (2″))" in r.explain("en")
