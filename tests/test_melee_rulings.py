"""Close combat through the public rulings: shooting into a melee, withdrawals (free Quick Action
attacks), ``fwwrules.ruling`` for close combat, and the ``withdraw``/``slide`` commands."""

from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

import fwwrules
from fwwrules.attack import attack_context
from fwwrules.cli import main
from fwwrules.context import AttackContext
from fwwrules.melee import into_melee, withdraw
from fwwrules.scenario import Model, Scenario, Weapon

RULES = ("core", "vts")


def example(name: str) -> Scenario:
    return fwwrules.load(fwwrules.example_path(name))  # type: ignore[no-any-return]


def with_model(s: Scenario, ident: str, **changes: object) -> Scenario:
    models = tuple(replace(m, **changes) if m.id == ident else m for m in s.models)  # type: ignore[arg-type]
    return replace(s, models=models)


def shoot(
    s: Scenario, attacker: str, target: str, rules: str, thrown: bool = False
) -> AttackContext:
    """A shot from ``attacker`` at ``target`` with a rifle (or a thrown weapon)."""
    weapon = Weapon("grenade", "thrown", short="red") if thrown else Weapon("gun", "rifle", "red")
    return attack_context(s, attacker, target, weapon, rules)


# --- melee.shoot-into -----------------------------------------------------------------------


def test_melee_shoot_into_two_models_target_gets_1_and_3() -> None:
    s = example("melee-shoot-into-2")
    got = into_melee(shoot(s, "minuteman", "raider", "core"))
    assert got is not None
    im, reasons = got
    assert im.modifier == 2
    assert im.numbers == ("raider", "sentry", "raider", "sentry")
    # the scatter line belongs to thrown weapons only (the same allocation serves them)
    assert not any(r.key == "scatter" for r in reasons)
    thrown = into_melee(shoot(s, "minuteman", "raider", "core", thrown=True))
    assert thrown is not None and thrown[0] == im
    assert [r.key for r in thrown[1] if r.key == "scatter"] == ["scatter"]


def test_melee_shoot_into_three_models_target_gets_1_and_4() -> None:
    s = example("melee-shoot-into-3")
    got = into_melee(shoot(s, "minuteman", "raider", "core"))
    assert got is not None
    numbers = got[0].numbers
    assert numbers is not None
    assert [k + 1 for k, m in enumerate(numbers) if m == "raider"] == [1, 4]
    # clockwise (as drawn, y up) from the shooter's side (west): north (Sentry) before south
    assert numbers[1:3] == ("sentry", "settler")


def test_melee_shoot_into_hidden_model_gets_no_number() -> None:
    s = example("melee-shoot-into-hidden")
    from fwwrules.los import has_line_of_sight

    assert not has_line_of_sight(s, "minuteman", "settler")
    assert has_line_of_sight(s, "minuteman", "raider")
    got = into_melee(shoot(s, "minuteman", "raider", "core"))
    assert got is not None
    assert got[0].numbers == ("raider", "sentry", "raider", "sentry")
    assert [r.params["model"] for r in got[1] if r.key == "unseen"] == ["settler"]
    # without the building the Settler is seen and numbered
    open_ground = replace(s, terrain=())
    got = into_melee(shoot(open_ground, "minuteman", "raider", "core"))
    assert got is not None and got[0].numbers is not None
    assert "settler" in got[0].numbers


@pytest.mark.parametrize("name", ["melee-shoot-into-2", "melee-shoot-into-3"])
def test_melee_shoot_into_vts_minus_two_no_numbers(name: str) -> None:
    got = into_melee(shoot(example(name), "minuteman", "raider", "vts"))
    assert got is not None
    assert (got[0].modifier, got[0].numbers) == (-2, None)


def test_melee_shoot_into_friendly_target() -> None:
    """The target may be a friendly model (translation note 6)."""
    s = example("melee-shoot-into-2")
    got = into_melee(shoot(s, "minuteman", "sentry", "core"))
    assert got is not None
    assert got[0].numbers == ("sentry", "raider", "sentry", "raider")


def test_melee_shoot_into_only_when_the_target_is_engaged() -> None:
    s = example("melee-shoot-into-2")
    assert (
        into_melee(shoot(s, "raider", "minuteman", "core")) is None
    )  # the Minuteman is not engaged
    lone = with_model(s, "sentry", at=(350.0, 200.0))
    assert into_melee(shoot(lone, "minuteman", "raider", "core")) is None


def test_melee_shoot_into_more_than_three_others_only_three_numbered() -> None:
    shooter = Model("shooter", "a", 32, (0, 0), skills={"rifle": 5})
    target = Model("target", "b", 32, (300, 0))
    ring = [
        Model(f"o{k}", "a", 32, (300 + 32 * math.cos(a), 32 * math.sin(a)))
        for k, a in enumerate((math.pi * 0.75, math.pi * 0.25, -math.pi * 0.25, -math.pi * 0.75))
    ]
    s = Scenario(models=(shooter, target, *ring))
    got = into_melee(shoot(s, "shooter", "target", "core"))
    assert got is not None
    # clockwise from the west: north-west o0, north-east o1, south-east o2; o3 gets none
    assert got[0].numbers == ("target", "o0", "o1", "o2")
    assert any(r.key == "too-many" and r.params["models"] == ["o3"] for r in got[1])


# --- fwwrules.ruling for close combat -------------------------------------------------------


@pytest.mark.parametrize("rules", RULES)
def test_melee_outnumbered_ruling_adds_green(rules: str) -> None:
    s = example("melee-outnumbered-1")
    r = fwwrules.ruling(s, "brotherhood-a", "super-mutant-1", weapon="improvised", rules=rules)
    assert r.kind == "melee" and r.allowed
    assert r.effect_dice["green"] == 1
    back = fwwrules.ruling(s, "super-mutant-1", "brotherhood-a", weapon="board", rules=rules)
    assert back.effect_dice.get("green", 0) == 0 and back.effect_dice["black"] == 2


@pytest.mark.parametrize("rules", RULES)
def test_melee_engaged_ruling_forbids_shooting_elsewhere(rules: str) -> None:
    s = example("melee-shoot-into-2")
    r = fwwrules.ruling(s, "sentry", "minuteman", rules=rules)
    assert not r.allowed and "melee.engaged" in r.not_allowed


@pytest.mark.parametrize("rules", RULES)
def test_melee_ranged_weapon_ruling(rules: str) -> None:
    s = example("melee-outnumbered-1")
    r = fwwrules.ruling(s, "brotherhood-a", "super-mutant-1", weapon="laser-rifle", rules=rules)
    assert r.kind == "melee" and r.allowed
    assert r.skill.icon == "rifle" and r.skill.modifier == -2
    assert (r.armor.bonus, r.armor.boost) == ((1, 0) if rules == "core" else (0, 1))


@pytest.mark.parametrize("rules", RULES)
def test_melee_shoot_into_ruling(rules: str) -> None:
    s = example("melee-shoot-into-3")
    r = fwwrules.ruling(s, "minuteman", "raider", rules=rules)
    assert r.kind == "ranged" and r.into_melee is not None
    if rules == "core":
        assert r.into_melee.modifier == 2
        assert r.into_melee.numbers == ("raider", "sentry", "settler", "raider")
    else:
        assert r.into_melee.modifier == -2 and r.into_melee.numbers is None


@pytest.mark.parametrize("rules", RULES)
def test_action_quick_ruling_is_two_lower(rules: str) -> None:
    s = example("melee-outnumbered-1")
    slow = fwwrules.ruling(s, "brotherhood-a", "super-mutant-1", weapon="improvised", rules=rules)
    quick = fwwrules.ruling(
        s, "brotherhood-a", "super-mutant-1", weapon="improvised", rules=rules, quick=True
    )
    assert slow.skill.target is not None and quick.skill.target == slow.skill.target - 2


# --- melee.withdraw -------------------------------------------------------------------------


def _expected_free_attack(s: Scenario, attacker: str, target: str, rules: str) -> tuple[str, int]:
    """Oracle: the best Quick Action target over all the attacker's weapons (card order)."""
    best: tuple[str, int] | None = None
    for w in s.weapons_of(s.model(attacker)):
        r = fwwrules.ruling(s, attacker, target, weapon=w.id, rules=rules, quick=True)
        if r.allowed and r.skill.target is not None and (best is None or r.skill.target > best[1]):
            best = (w.id, r.skill.target)
    assert best is not None
    return best


@pytest.mark.parametrize("rules", RULES)
def test_melee_withdraw_behemoth_gives_both_a_free_attack(rules: str) -> None:
    s = example("melee-behemoth-after-slide")
    w = withdraw(s, "behemoth", rules=rules)
    assert [f.attacker for f in w.free_attacks] == ["dogmeat", "sole-survivor"]
    assert w.no_attack == ()
    for f in w.free_attacks:
        assert (f.weapon, f.skill.target) == _expected_free_attack(s, f.attacker, "behemoth", rules)
    d = w.to_dict()
    assert d["model"] == "behemoth"
    assert [a["attacker"] for a in d["free_attacks"]] == ["dogmeat", "sole-survivor"]
    assert d["free_attacks"][0]["skill"]["target"] == w.free_attacks[0].skill.target


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize(
    ("leaver", "other"), [("sole-survivor", "dogmeat"), ("dogmeat", "sole-survivor")]
)
def test_melee_withdraw_none_while_the_behemoth_is_still_engaged(
    rules: str, leaver: str, other: str
) -> None:
    w = withdraw(example("melee-behemoth-after-slide"), leaver, rules=rules)
    assert w.free_attacks == ()
    assert [(n.model, n.clause, n.others) for n in w.no_attack] == [
        ("behemoth", "melee.withdraw", (other,))
    ]


def test_melee_withdraw_before_the_slide_only_dogmeat() -> None:
    w = withdraw(example("melee-behemoth-slide"), "behemoth")
    assert [f.attacker for f in w.free_attacks] == ["dogmeat"]


@pytest.mark.parametrize("rules", RULES)
def test_melee_stunned_model_makes_no_free_attack(rules: str) -> None:
    s = with_model(example("melee-behemoth-after-slide"), "dogmeat", status=("stunned",))
    w = withdraw(s, "behemoth", rules=rules)
    assert [f.attacker for f in w.free_attacks] == ["sole-survivor"]
    assert [(n.model, n.clause) for n in w.no_attack] == [("dogmeat", "melee.stunned")]


@pytest.mark.parametrize("rules", RULES)
def test_melee_stunned_model_cannot_withdraw(rules: str) -> None:
    """RoP p.48: a Stunned model's only Move Action removes the marker and moves it nowhere:
    its withdrawal is refused and provokes no free attacks (before: Dogmeat attacked at +2)."""
    s = with_model(example("melee-behemoth-slide"), "behemoth", status=("stunned",))
    w = withdraw(s, "behemoth", rules=rules)
    assert not w.allowed and w.not_allowed == ("melee.stunned",)
    assert w.free_attacks == () and w.no_attack == ()
    d = w.to_dict()
    assert (d["allowed"], d["not_allowed"], d["free_attacks"]) == (False, ["melee.stunned"], [])
    assert w.headline("en") == "Behemoth may not withdraw from close combat: it is Stunned."
    assert [r.message_id for r in w.reasons] == ["melee.stunned/no-withdraw", "melee.stunned/stays"]
    # close combat attacks against it still get +2
    plain = fwwrules.ruling(example("melee-behemoth-slide"), "dogmeat", "behemoth", rules=rules)
    stunned = fwwrules.ruling(s, "dogmeat", "behemoth", rules=rules)
    assert plain.skill.target is not None and stunned.skill.target == plain.skill.target + 2


def test_melee_withdraw_free_attack_text_lists_every_modifier() -> None:
    """The free attack's reason shows its value, each modifier and the target they make."""
    w = withdraw(example("melee-behemoth-slide"), "behemoth")
    (reason,) = [r for r in w.reasons if r.key == "free-attack"]
    f = w.free_attacks[0]
    assert reason.params["modifiers"] == [["action.quick", -2]]
    assert f"skill value {f.skill.value}, −2 (Quick Action): skill target {f.skill.target}" in (
        reason.text("en", w.labels)
    )
    assert "−2 (Schnellaktion): Zielwert" in reason.text("de", w.labels)


@pytest.mark.parametrize("rules", RULES)
def test_action_quick_free_attacks_are_quick(rules: str) -> None:
    s = example("melee-behemoth-after-slide")
    for f in withdraw(s, "behemoth", rules=rules).free_attacks:
        normal = fwwrules.ruling(s, f.attacker, "behemoth", weapon=f.weapon, rules=rules)
        assert normal.skill.target is not None
        assert f.skill.target == normal.skill.target - 2


def test_melee_withdraw_not_engaged_provokes_nothing() -> None:
    w = withdraw(example("melee-shoot-into-2"), "minuteman")
    assert w.free_attacks == () and w.no_attack == ()
    assert w.reasons[0].key == "not-engaged"


def test_melee_withdraw_without_a_usable_weapon() -> None:
    s = with_model(example("melee-behemoth-slide"), "dogmeat", skills={})
    w = withdraw(s, "behemoth")
    assert w.free_attacks == ()
    assert [(n.model, n.clause) for n in w.no_attack] == [("dogmeat", "melee.skill")]


# --- CLI: withdraw and slide ----------------------------------------------------------------


def test_melee_withdraw_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fwwrules.example_path("melee-behemoth-after-slide"))
    assert main(["withdraw", path, "--model", "sole-survivor", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model"] == "sole-survivor" and data["free_attacks"] == []
    assert data["no_attack"][0]["model"] == "behemoth"
    assert data["no_attack"][0]["clause"] == "melee.withdraw"
    assert all({"clause", "text"} <= set(r) for r in data["reasons"])


def test_melee_withdraw_cli_text_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fwwrules.example_path("melee-behemoth-after-slide"))
    assert main(["withdraw", path, "--model", "behemoth", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Rückzug" in out and "Schnellaktion" in out


def test_melee_slide_cli_json_and_german(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(fwwrules.example_path("melee-behemoth-slide"))
    assert main(["slide", path, "--model", "behemoth", "--to", "250,390", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["legal"] is False and data["not_allowed"] == ["melee.slide"]
    assert data["breaks"] == ["dogmeat"]
    assert {"overlaps", "new_engagements", "path_length", "reasons"} <= set(data)
    assert main(["slide", path, "--model", "behemoth", "--to", "324.8,343.4", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "darf per Slide" in out and "keine freien Angriffe" in out
    assert (
        main(
            [
                "slide",
                path,
                "--model",
                "behemoth",
                "--to",
                "324.8,343.4",
                "--rules",
                "vts",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["legal"] is False


@pytest.mark.parametrize(
    "argv",
    [
        ["withdraw", "--model", "nobody"],
        ["slide", "--model", "nobody", "--to", "1,2"],
    ],
)
def test_melee_cli_unknown_model_exits_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(fwwrules.example_path("melee-behemoth-slide"))
    assert main([argv[0], path, *argv[1:]]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err and "Traceback" not in err
