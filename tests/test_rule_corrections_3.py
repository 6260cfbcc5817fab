"""Issue 23: a third audit's cases, as the rulebooks (RoP) and the lead's decisions say.

Every scenario is built here in the file format and asked through the public API
(``fwwrules.loads``, ``fwwrules.ruling``, ``fwwrules.withdraw``, the CLI). Tests are named
after the clause they check.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import fwwrules
from fwwrules.errors import ScenarioError
from fwwrules.scenario import Scenario

RULES = ("core", "vts")

WEAPONS = """\
  - {id: rifle, type: rifle, short: red, long: green, dice: {short: [green], long: [black]}}
  - {id: pistol, name: Pipe Pistol, type: pistol, short: yellow, dice: {short: [black]}}
  - {id: mortar, type: heavy, short: red, long: green, min_range: yellow,
     dice: {short: [black]}}
  - {id: grenade, name: Frag Grenade, type: thrown, dice: {short: [black, black]}}
  - {id: knife, name: Throwing Knife, type: thrown, short: orange, dice: {short: [black]}}
  - {id: club, type: melee, dice: {melee: [black]}}
"""


def board(models: str, *, terrain: str = "", rules: str = "core") -> Scenario:
    text = f"format: fwwrules/scenario@1\nrules: {rules}\nmodels:\n{models}"
    if terrain:
        text += "terrain:\n" + terrain
    text += "weapons:\n" + WEAPONS
    return fwwrules.loads(text, "issue23.yaml")  # type: ignore[no-any-return]


def model(ident: str, faction: str, at: tuple[float, float], extra: str = "", **kw: Any) -> str:
    base = kw.get("base", 32)
    skills = kw.get("skills", "{rifle: 7, pistol: 6, heavy: 5, melee: 6}")
    weapons = kw.get("weapons", "[rifle, pistol, mortar, club]")
    return (
        f"  - {{id: {ident}, faction: {faction}, base: {base}, at: [{at[0]!r}, {at[1]!r}], "
        f"skills: {skills}, weapons: {weapons}{extra}}}\n"
    )


def nothing_applies(d: dict[str, Any]) -> None:
    """Decision 1: a ruling whose attack is not allowed presents nothing as applying."""
    assert d["allowed"] is False and d["not_allowed"]
    assert d["cover"] == [] and d["ignored"] == []
    assert d["armor"] == {"bonus": 0, "boost": 0}
    assert d["effect_dice"] == {"green": 0, "black": 0, "yellow": 0, "blue": 0}
    assert d["modifiers"] == {}
    assert d["skill"]["modifier"] == 0 and d["skill"]["target"] == d["skill"]["value"]
    assert d["into_melee"] is None
    assert d["summary"] == []
    shown = {r["clause"] for r in d["reasons"]}
    assert not shown & {"cover.line", "cover.area", "cover.models", "cover.huge", "cover.armor"}
    assert not shown & {"action.quick", "melee.shoot-into", "melee.stunned", "melee.strength"}


# --- decision 1: an attack that is not allowed ------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_ranged_los_refused_attack_presents_no_cover_and_leads_with_why(rules: str) -> None:
    """A Huge model on the line blocks LoS; the crate before it would give cover: the ruling
    says "no line of sight" first and lists no cover, armor or dice."""
    s = board(
        model("a", "x", (0, 0))
        + model("h", "z", (200, 0), base=80, weapons="[club]")
        + model("t", "y", (300, 0)),
        terrain="  - {id: crate, kind: cover, rect: {at: [100, 0], size: [30, 30]}}\n",
        rules=rules,
    )
    r = fwwrules.ruling(s, "a", "t", quick=True)
    d = r.to_dict()
    nothing_applies(d)
    assert d["not_allowed"] == ["ranged.los"]
    assert d["line_of_sight"] is False and d["range"]["bands"] == ["long"]  # facts stay
    assert r.explain("en").splitlines()[0] == "a may not attack t with rifle: no line of sight."
    assert (
        r.explain("de").splitlines()[0] == "a darf t nicht mit rifle angreifen: keine Sichtlinie."
    )
    assert "crate" not in r.explain("en") and "−2" not in r.explain("en")
    assert r.sight is not None and r.sight.loc  # the picture still has its lines


@pytest.mark.parametrize("rules", RULES)
def test_ranged_range_refused_shot_into_melee_has_no_numbers(rules: str) -> None:
    """Out of range: no +2/−2 for shooting into the melee, no Armor-die numbers."""
    s = board(
        model("a", "x", (0, 0), weapons="[pistol]")
        + model("t", "y", (600, 0))
        + model("f", "x", (632, 0)),
        rules=rules,
    )
    r = fwwrules.ruling(s, "a", "t")
    nothing_applies(r.to_dict())
    assert r.not_allowed == ("ranged.range",)
    assert r.why("en") == ("out of range",) and r.why("de") == ("außer Reichweite",)
    assert r.range is not None and r.range.distance == pytest.approx(568)


def test_melee_ranged_weapon_refused_minimum_range_shows_no_stunned_bonus() -> None:
    """A weapon with a minimum range cannot be used in close combat: the Stunned target's +2,
    the −2 and the armor +1 are not presented."""
    s = board(model("a", "x", (0, 0)) + model("t", "y", (32, 0), extra=", status: [stunned]"))
    r = fwwrules.ruling(s, "a", "t", weapon="mortar")
    d = r.to_dict()
    nothing_applies(d)
    assert d["kind"] == "melee" and d["not_allowed"] == ["melee.ranged-weapon"]
    assert r.headline("en").endswith(
        ": a weapon with a minimum range cannot be used in close combat."
    )
    allowed = fwwrules.ruling(s, "a", "t", weapon="pistol").to_dict()
    assert allowed["modifiers"] == {"melee.ranged-weapon": -2, "melee.stunned": 2}


def test_melee_engaged_refusal_says_who_the_attacker_is_engaged_with() -> None:
    s = board(
        model("a", "x", (0, 0), extra=", name: Alice")
        + model("b", "y", (32, 0), extra=", name: Bob")
        + model("t", "y", (200, 0), extra=", name: Tom")
    )
    r = fwwrules.ruling(s, "a", "t")
    nothing_applies(r.to_dict())
    assert r.headline("en") == (
        "Alice may not attack Tom with rifle: it is engaged and may attack only Bob."
    )


# --- melee.ranged-weapon: a shot reacting to a charge (RoP p.41) --------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_melee_ranged_weapon_charge_reaction_with_a_pistol_has_no_penalties(rules: str) -> None:
    """The charger is in base contact; the charged model shoots it with a pistol in reaction:
    no −2, no armor +1 (core) nor Armor Boost (vts); the pistol's short range dice stay. The
    reaction is a Quick Action (issue 32, ``melee.charge-reaction``): its −2 stays."""
    charger = ", charge_bonus: {target: a, markers: [black]}"
    s = board(model("a", "x", (0, 0)) + model("c", "y", (32, 0), extra=charger), rules=rules)
    plain = fwwrules.ruling(s, "a", "c", weapon="pistol")
    assert plain.modifiers == {"melee.ranged-weapon": -2}
    assert plain.armor.bonus + plain.armor.boost == 1
    r = fwwrules.ruling(s, "a", "c", weapon="pistol", reacting_to_charge=True)
    d = r.to_dict()
    assert d["allowed"] and d["kind"] == "melee" and d["reacting_to_charge"] is True
    assert d["modifiers"] == {"action.quick": -2} and d["skill"] == {
        "icon": "pistol",
        "value": 6,
        "modifier": -2,
        "target": 4,
    }
    assert d["armor"] == {"bonus": 0, "boost": 0}
    assert d["effect_dice"]["black"] == 1  # the pistol's short range die
    keys = [(x["clause"], x["key"]) for x in d["reasons"]]
    assert ("melee.ranged-weapon", "charge-reaction") in keys
    assert ("melee.ranged-weapon", rules) not in keys
    assert "reaction to being charged" in r.explain("en")
    assert "Reaktion auf den Ansturm" in r.explain("de")


def test_melee_ranged_weapon_charge_reaction_keeps_the_minimum_range_ban() -> None:
    charger = ", charge_bonus: {target: a, markers: [black]}"
    s = board(model("a", "x", (0, 0)) + model("c", "y", (32, 0), extra=charger))
    r = fwwrules.ruling(s, "a", "c", weapon="mortar", reacting_to_charge=True)
    assert r.not_allowed == ("melee.ranged-weapon",)


def test_melee_ranged_weapon_charge_reaction_changes_nothing_elsewhere() -> None:
    """With a melee weapon, or when the attacker is not in contact, the exception has nothing
    to lift: the terms are those without it (but for the Quick Action every reaction is), and
    the ruling says why."""
    charger = ", charge_bonus: {target: a, markers: [green]}"
    s = board(
        model("a", "x", (0, 0))
        + model("c", "y", (32, 0), extra=charger)
        + model("far", "y", (200, 0))
    )
    club = fwwrules.ruling(s, "a", "c", weapon="club", reacting_to_charge=True)
    plain = fwwrules.ruling(s, "a", "c", weapon="club", quick=True)
    assert club.to_dict()["modifiers"] == plain.modifiers == {"action.quick": -2}
    assert any(r.key == "charge-reaction-melee" for r in club.reasons)
    t = board(model("a", "x", (0, 0)) + model("c", "y", (80, 0), extra=charger))
    shot = fwwrules.ruling(t, "a", "c", weapon="pistol", reacting_to_charge=True)
    assert shot.allowed
    assert shot.kind == "ranged" and shot.modifiers == {"action.quick": -2}
    assert any(r.key == "charge-reaction-unused" for r in shot.reasons)


def test_melee_ranged_weapon_charge_reaction_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fwwrules.cli import main
    from fwwrules.saving import dump_text

    charger = ", charge_bonus: {target: a, markers: [black]}"
    s = board(model("a", "x", (0, 0)) + model("c", "y", (32, 0), extra=charger))
    path = tmp_path / "charge.yaml"
    path.write_text(dump_text(s), encoding="utf-8")
    args = ["ruling", str(path), "--attacker", "a", "--target", "c", "--weapon", "pistol"]
    assert main([*args, "--reacting-to-charge", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["reacting_to_charge"] is True and d["skill"]["target"] == 4  # 6, Quick −2
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["skill"]["target"] == 4  # 6, close combat −2


# --- ranged.skill: a thrown weapon's range is its thrower's Throw colour (RoP p.44) -----------


def _throwers(rules: str = "core") -> Scenario:
    throw = "{value: 6, colour: %s}"
    return board(
        model(
            "lob",
            "x",
            (0, 0),
            skills="{thrown: %s}" % (throw % "orange"),
            weapons="[grenade, knife]",
        )
        + model(
            "hurl",
            "x",
            (0, 200),
            skills="{thrown: %s}" % (throw % "red"),
            weapons="[grenade, knife]",
        )
        + model("t", "y", (132, 100)),
        rules=rules,
    )


@pytest.mark.parametrize("rules", RULES)
def test_ranged_skill_two_throwers_of_one_grenade_reach_their_throw_colours(rules: str) -> None:
    """The target is about 132 mm from either thrower's base: beyond Orange (2″), within Red
    (6″). The grenade has no range of its own, so only the Red thrower reaches."""
    s = _throwers(rules)
    short = fwwrules.ruling(s, "lob", "t", weapon="grenade")
    far = fwwrules.ruling(s, "hurl", "t", weapon="grenade")
    assert short.range is not None and far.range is not None
    assert short.range.distance == pytest.approx(far.range.distance)
    assert short.not_allowed == ("ranged.range",) and far.allowed
    assert far.effect_dice == {"black": 2}
    text = far.explain("en")
    assert "Frag Grenade has no range of its own: thrown by hurl, it reaches Red" in text
    assert "von hurl geworfen, reicht sie Rot (152,4 mm (6″)) weit" in far.explain("de")
    assert "reaches Orange (50.8 mm (2″))" in fwwrules.ruling(
        s, "lob", "t", weapon="grenade"
    ).explain("en")


def test_ranged_skill_a_thrown_weapon_with_its_own_range_keeps_it() -> None:
    s = _throwers()
    for thrower in ("lob", "hurl"):
        r = fwwrules.ruling(s, thrower, "t", weapon="knife")
        assert r.not_allowed == ("ranged.range",)  # Orange, whoever throws it
        assert any(x.key == "own-range" for x in r.reasons)


def test_ranged_skill_throw_colour_in_the_file_format() -> None:
    """The colour loads, saves and loads back; without it a rangeless thrown weapon is
    refused when the file is read, with the place and a hint."""
    from fwwrules.saving import dump_text

    s = _throwers()
    assert s.model("hurl").throw_colour == "red" and s.model("hurl").skills == {"thrown": 6}
    again = fwwrules.loads(dump_text(s), "again.yaml")
    assert again == s
    assert "colour: red" in dump_text(s)
    with pytest.raises(ScenarioError) as err:
        board(model("a", "x", (0, 0), skills="{thrown: 6}", weapons="[grenade]"))
    assert "models[0].skills.thrown" in str(err.value)
    assert "thrown: {value: 6, colour: red}" in str(err.value)
    with pytest.raises(ScenarioError) as err2:
        board(model("a", "x", (0, 0), skills="{rifle: {value: 6, colour: red}}"))
    assert "models[0].skills.rifle" in str(err2.value)


def test_ranged_skill_a_thrower_without_a_colour_cannot_throw_a_rangeless_weapon() -> None:
    """Built in Python, such a board is refused as the file would be (issue 31: a board built
    in Python is checked before it is ruled on), naming the model and its Throw skill."""
    from dataclasses import replace

    s = _throwers()
    models = tuple(replace(m, throw_colour=None) if m.id == "lob" else m for m in s.models)
    with pytest.raises(fwwrules.ScenarioError, match=r"skills\.thrown: weapon 'grenade'") as exc:
        fwwrules.ruling(replace(s, models=models), "lob", "t", weapon="grenade")
    assert "has no range of its own" in str(exc.value) and "(model 'lob')" in str(exc.value)


def test_ranged_skill_throw_colour_reaches_the_threat_map_and_the_range_rings() -> None:
    s = _throwers()
    grenade = s.weapon_of("hurl", "grenade")
    assert grenade.short == "red" and s.weapon_of("lob", "grenade").short == "orange"
    assert [w.short for w in s.weapons_of(s.model("hurl"))][:2] == ["red", "orange"]


# --- melee.shoot-into: the scatter line belongs to thrown weapons -------------------------------


def test_melee_shoot_into_scatter_line_only_for_a_thrown_weapon() -> None:
    s = board(
        model(
            "a",
            "x",
            (0, 0),
            skills="{rifle: 7, thrown: {value: 6, colour: red}}",
            weapons="[rifle, grenade]",
        )
        + model("t", "y", (100, 0))
        + model("f", "x", (132, 0))
    )
    rifle = fwwrules.ruling(s, "a", "t", weapon="rifle")
    grenade = fwwrules.ruling(s, "a", "t", weapon="grenade")
    assert rifle.into_melee == grenade.into_melee and rifle.into_melee is not None
    assert not any(r.key == "scatter" for r in rifle.reasons)
    assert any(r.key == "scatter" for r in grenade.reasons)


@pytest.mark.parametrize("rules", RULES)
def test_elevation_shooter_cover_is_not_told_after_a_huge_model_blocks_the_line(
    rules: str,
) -> None:
    """The audit's case: an Elevated shooter, a Huge model in the way far from the target. The
    Huge model blocks line of sight, so the shot is refused for that reason alone; the ruling
    no longer goes on to say that the Elevated shooter ignores it as cover."""
    text = f"""format: fwwrules/scenario@1
rules: {rules}
models:
  - {{id: s, faction: x, base: 32, at: [0, 0], elevation: 60, skills: {{rifle: 7}},
     weapons: [rifle]}}
  - {{id: h, faction: y, base: 80, at: [150, 0]}}
  - {{id: t, faction: y, base: 32, at: [300, 0]}}
terrain:
  - {{id: tower, kind: blocking, rect: {{at: [0, 0], size: [60, 60]}}, height: 60}}
weapons:
  - {{id: rifle, type: rifle, short: red, long: green, dice: {{short: [green]}}}}
"""
    s = fwwrules.loads(text, "elevated.yaml")
    r = fwwrules.ruling(s, "s", "t")
    assert r.not_allowed == ("ranged.los",)
    nothing_applies(r.to_dict())
    keys = [x.message_id for x in r.reasons]
    assert "ranged.los/blocked" in keys and "elevation.shooter-cover/ignored" not in keys
    assert "ignores it" not in r.explain("en") and "ignoriert es" not in r.explain("de")
    assert r.explain("en").splitlines()[0].endswith(": no line of sight.")
