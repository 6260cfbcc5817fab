"""The rulebook's cover examples 1-4 (RoP p.17), each stated outcome as a test.

Tests are named after the clause each example demonstrates.
"""

from __future__ import annotations

import pytest

import fwwrules
from fwwrules import example_path


@pytest.fixture(scope="module")
def ex1() -> fwwrules.Scenario:
    return fwwrules.load(example_path("cover-example-1"))


def sources(r: fwwrules.AttackRuling) -> list[str]:
    return [c.source for c in r.cover]


def ignored(r: fwwrules.AttackRuling) -> dict[str, str]:
    return {i.source: i.clause for i in r.ignored}


def test_cover_shooter_contact_example_1_building_ignored(ex1: fwwrules.Scenario) -> None:
    r = fwwrules.ruling(ex1, "knight", "brute")
    assert r.allowed and r.line_of_sight
    assert sources(r) == ["crate"]
    assert ignored(r)["building"] == "cover.shooter-contact"
    assert r.skill.modifier == -2 and r.skill.target == 4
    assert r.armor.bonus == 1 and r.armor.boost == 0


def test_cover_armor_example_1_return_fire_minus_4_armor_once(ex1: fwwrules.Scenario) -> None:
    r = fwwrules.ruling(ex1, "brute", "knight")
    assert r.allowed and r.line_of_sight
    assert sorted(sources(r)) == ["building", "crate"]
    assert r.skill.modifier == -4
    assert r.armor.bonus == 1  # once, however many objects


def test_cover_armor_vts_gives_one_armor_boost(ex1: fwwrules.Scenario) -> None:
    r = fwwrules.ruling(ex1, "brute", "knight", rules="vts")
    assert r.skill.modifier == -4
    assert (r.armor.bonus, r.armor.boost) == (0, 1)


def test_cover_models_example_2_friendly_never_enemy_gives() -> None:
    s = fwwrules.load(example_path("cover-example-2"))
    a = fwwrules.ruling(s, "settler-a", "knight-1")
    assert a.cover == () and ignored(a) == {"settler-b": "cover.models"}
    assert a.skill.modifier == 0 and a.armor.bonus == 0
    back = fwwrules.ruling(s, "knight-1", "settler-a")
    assert sources(back) == ["settler-b"] and back.skill.modifier == -2
    assert back.cover[0].clause == "cover.models"


def test_cover_models_option_cover_by_faction_changes_example_2() -> None:
    """With cover_by: faction two allied factions are no longer friendly to each other."""
    from dataclasses import replace

    s = fwwrules.load(example_path("cover-example-2"))
    m = s.model("settler-b")
    allied = replace(
        s,
        models=tuple(
            replace(x, faction="minutemen") if x.id == "settler-b" else x for x in s.models
        ),
        sides={"commonwealth": ("settlers", "minutemen")},
    )
    assert fwwrules.ruling(allied, "settler-a", "knight-1").cover == ()
    by_faction = replace(allied, options=replace(allied.options, cover_by="faction"))
    r = fwwrules.ruling(by_faction, "settler-a", "knight-1")
    assert sources(r) == [m.id]
    assert any(x.key == "by-faction" for x in r.reasons)


def test_cover_line_example_3_desk_entered_not_exited() -> None:
    s = fwwrules.load(example_path("cover-example-3"))
    r = fwwrules.ruling(s, "mutant", "knight")
    assert sources(r) == ["crate"]
    assert ignored(r) == {"desk": "cover.line"}
    assert r.skill.modifier == -2 and r.armor.bonus == 1


def test_cover_area_example_4_forest() -> None:
    s = fwwrules.load(example_path("cover-example-4"))
    m1 = fwwrules.ruling(s, "paladin", "mutant-1")
    assert m1.line_of_sight and m1.cover == () and m1.skill.modifier == 0
    for target in ("mutant-2", "mutant-3"):
        r = fwwrules.ruling(s, "paladin", target)
        assert r.line_of_sight
        assert [(c.source, c.clause) for c in r.cover] == [("forest", "cover.area")]
        assert r.skill.modifier == -2 and r.armor.bonus == 1


def test_cover_shooter_contact_example_4_shooting_back() -> None:
    s = fwwrules.load(example_path("cover-example-4"))
    for shooter in ("mutant-1", "mutant-2", "mutant-3"):
        r = fwwrules.ruling(s, shooter, "paladin")
        assert r.cover == (), shooter
        if shooter != "mutant-1":
            assert ignored(r) == {"forest": "cover.shooter-contact"}


def test_terrain_kinds_dense_forest_example_4() -> None:
    s = fwwrules.load(example_path("cover-example-4-dense"))
    m1 = fwwrules.ruling(s, "paladin", "mutant-1")
    assert m1.allowed and m1.line_of_sight and m1.cover == ()
    m2 = fwwrules.ruling(s, "paladin", "mutant-2")
    assert m2.allowed and m2.line_of_sight and sources(m2) == ["forest"]
    m3 = fwwrules.ruling(s, "paladin", "mutant-3")
    assert not m3.allowed and m3.not_allowed == ("ranged.los",)
    assert m3.line_of_sight is False


def test_ranged_range_example_1_long_band_dice(ex1: fwwrules.Scenario) -> None:
    r = fwwrules.ruling(ex1, "knight", "brute")
    assert r.range is not None and r.range.bands == ("long",) and r.range.band == "long"
    assert r.range.distance == pytest.approx((300**2 + 60**2) ** 0.5 - 40)
    assert r.effect_dice == {"black": 1}
