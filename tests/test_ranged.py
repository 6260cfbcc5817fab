"""Ranged attacks: one test (or more) per clause of docs/rules.md, "Ranged attacks" and sizes."""

from __future__ import annotations

import textwrap

import pytest

import fwwrules
from fwwrules import QueryError, UnknownIdError
from fwwrules.board import size_class
from fwwrules.pieces import TerrainRef

HEAD = """\
format: fwwrules/scenario@1
units: mm
weapons:
  - {id: rifle, type: rifle, short: red, long: green, dice: {short: [green, yellow], long: [black]}}
  - {id: pistol, type: pistol, short: yellow}
  - {id: club, type: melee, dice: {melee: [black]}}
"""


def board(body: str, head: str = HEAD) -> fwwrules.Scenario:
    return fwwrules.loads(head + textwrap.dedent(body), "test.yaml")


def shooter_target(x: float = 300, *, target_base: float = 32, extra: str = "") -> str:
    return f"""\
models:
  - {{id: a, faction: x, base: 32, at: [0, 0], skills: {{rifle: 5, pistol: 4}},
     weapons: [rifle, pistol, club]}}
  - {{id: t, faction: y, base: {target_base}, at: [{x}, 0], skills: {{rifle: 4}}, weapons: [rifle]}}
{extra}"""


# --- size.classes ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("mm", "cls"),
    [
        (30, "normal"),
        (32, "normal"),
        (39.9, "normal"),
        (40, "large"),
        (50, "large"),
        (59.9, "large"),
        (59.995, "huge"),
        (60, "huge"),
        (120, "huge"),
    ],
)
def test_size_classes_boundaries(mm: float, cls: str) -> None:
    assert size_class(mm) == cls


def test_size_classes_inches_file() -> None:
    s = fwwrules.loads(
        HEAD.replace("units: mm", "units: in")
        + textwrap.dedent("""\
        models:
          - {id: a, faction: x, base: 1.5748, at: [0, 0]}
          - {id: b, faction: y, base: 2.3622, at: [5, 0]}
        """)
    )
    assert s.board.models["a"].size == "large" and s.board.models["b"].size == "huge"


# --- ranged.skill ---------------------------------------------------------------------------
def test_ranged_skill_missing_icon_not_allowed() -> None:
    s = board(shooter_target())
    r = fwwrules.ruling(s, "t", "a", weapon="rifle")
    assert r.allowed
    s2 = board(shooter_target().replace("skills: {rifle: 4}", "skills: {melee: 4}"))
    r2 = fwwrules.ruling(s2, "t", "a", weapon="rifle")
    assert not r2.allowed and r2.not_allowed == ("ranged.skill",)
    assert r2.skill.value is None and r2.skill.target is None


def test_ranged_skill_target_below_one_still_allowed() -> None:
    extra = "terrain:\n" + "".join(
        f"  - {{id: c{i}, kind: cover, rect: {{at: [{60 + 40 * i}, 0], size: [20, 60]}}}}\n"
        for i in range(4)
    )
    s = board(shooter_target(300, extra=extra))
    r = fwwrules.ruling(s, "a", "t", weapon="rifle")
    assert r.skill.modifier == -8 and r.skill.target == -3
    assert r.allowed
    assert any(x.clause == "ranged.skill" and x.key == "below-one" for x in r.reasons)


def test_ranged_skill_unknown_or_uncarried_weapon_is_an_error() -> None:
    s = board(shooter_target())
    with pytest.raises(UnknownIdError):
        fwwrules.ruling(s, "a", "t", weapon="plasma")
    with pytest.raises(QueryError):
        fwwrules.ruling(s, "t", "a", weapon="pistol")


# --- ranged.range ---------------------------------------------------------------------------
RED, GREEN = 6 * 25.4, 8 * 25.4


@pytest.mark.parametrize(
    ("gap", "bands", "dice"),
    [
        (10.0, ("short",), {"green": 1, "yellow": 1}),
        (RED, ("short", "long"), {"green": 1, "yellow": 1}),  # nearest point exactly at red
        (RED - 20, ("short", "long"), {"green": 1, "yellow": 1}),  # straddling
        (RED + 0.5, ("short", "long"), {"green": 1, "yellow": 1}),  # within the ruler tolerance
        (RED + 0.51, ("long",), {"black": 1}),
        (RED + GREEN, ("long",), {"black": 1}),  # exactly at the end of the long band
    ],
)
def test_ranged_range_bands(gap: float, bands: tuple[str, ...], dice: dict[str, int]) -> None:
    s = board(shooter_target(gap + 32))
    r = fwwrules.ruling(s, "a", "t", weapon="rifle")
    assert r.range is not None
    assert r.range.bands == bands
    assert r.range.distance == pytest.approx(gap)
    assert r.effect_dice == dice
    assert r.allowed


def test_ranged_range_choice_when_straddling() -> None:
    s = board(shooter_target(RED - 20 + 32))
    r = fwwrules.ruling(s, "a", "t", weapon="rifle", band="long")
    assert r.range is not None and r.range.band == "long"
    assert r.effect_dice == {"black": 1}
    assert [(c.kind, c.options, c.chosen) for c in r.choices] == [
        ("band", ("short", "long"), "long")
    ]


def test_ranged_range_out_of_range_and_short_only_weapon() -> None:
    s = board(shooter_target(RED + GREEN + 0.51 + 32))  # past the ruler tolerance (0.5 mm)
    r = fwwrules.ruling(s, "a", "t", weapon="rifle")
    assert not r.allowed and r.not_allowed == ("ranged.range",)
    s2 = board(shooter_target(4 * 25.4 + 1 + 32))
    r2 = fwwrules.ruling(s2, "a", "t", weapon="pistol")
    assert r2.range is not None and r2.range.bands == ()
    assert r2.not_allowed == ("ranged.range",)


def test_ranged_range_ruler_override_in_scenario() -> None:
    s = board(shooter_target(150 + 32).replace("models:", "rulers: {yellow: 160}\nmodels:"))
    assert fwwrules.ruling(s, "a", "t", weapon="pistol").allowed


# --- ranged.los -----------------------------------------------------------------------------
def test_ranged_los_wall_blocks_and_reasons_name_it() -> None:
    wall = "terrain:\n  - {id: wall, kind: blocking, rect: {at: [150, 0], size: [20, 200]}}\n"
    r = fwwrules.ruling(board(shooter_target(extra=wall)), "a", "t")
    assert r.line_of_sight is False and r.not_allowed == ("ranged.los",)
    assert r.sight is not None and r.sight.witness is None
    assert TerrainRef(("wall",)) in r.sight.blockers


def test_ranged_los_submillimetre_oblique_gap_is_found() -> None:
    # Two walls leave a 0.3 mm slanted slot; only a line along the slot sees through.
    terrain = """\
terrain:
  - {id: w1, kind: blocking, polygon: [[140, -200], [160, -200], [160.3, 0.15], [140.3, 0.15]]}
  - {id: w2, kind: blocking, polygon: [[140.3, 0.45], [160.3, 0.45], [160, 200], [140, 200]]}
"""
    r = fwwrules.ruling(board(shooter_target(extra=terrain)), "a", "t")
    assert r.line_of_sight is True
    assert r.sight is not None and r.sight.witness is not None


def test_ranged_los_staggered_walls_no_straight_gap() -> None:
    terrain = """\
terrain:
  - {id: w1, kind: blocking, rect: {at: [120, -55], size: [10, 120]}}
  - {id: w2, kind: blocking, rect: {at: [180, 55], size: [10, 120]}}
"""
    r = fwwrules.ruling(board(shooter_target(extra=terrain)), "a", "t")
    assert r.line_of_sight is False


def test_ranged_los_grazing_a_corner_is_not_blocked() -> None:
    # The wall's corner touches the tangent line y = 16 of both bases exactly.
    wall = (
        "terrain:\n  - {id: wall, kind: blocking, "
        "polygon: [[140, 16], [160, 16], [160, 300], [140, 300]]}\n"
    )
    r = fwwrules.ruling(board(shooter_target(extra=wall)), "a", "t")
    assert r.line_of_sight is True
    # Reaching down to the other tangent y = -16 still leaves that tangent line clear ...
    wall2 = wall.replace("16]", "-16]")
    assert fwwrules.ruling(board(shooter_target(extra=wall2)), "a", "t").line_of_sight is True
    # ... half a millimetre further and no straight line is left.
    wall3 = wall.replace("16]", "-16.5]")
    assert fwwrules.ruling(board(shooter_target(extra=wall3)), "a", "t").line_of_sight is False


def test_ranged_los_target_may_be_terrain_or_point() -> None:
    extra = """\
terrain:
  - {id: wall, kind: blocking, rect: {at: [150, 0], size: [20, 200]}}
  - {id: box, kind: cover, rect: {at: [80, 150], size: [20, 20]}}
"""
    s = board(shooter_target(extra=extra))
    r = fwwrules.ruling(s, "a", "box")
    assert r.line_of_sight is True and r.target == "box"
    assert fwwrules.ruling(s, "a", (300.0, 0.0)).line_of_sight is False
    assert fwwrules.ruling(s, "a", (100.0, 0.0)).line_of_sight is True


def test_ranged_los_models_normal_and_large_never_block() -> None:
    extra = "  - {id: m, faction: y, base: 40, at: [150, 0]}\n"
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert r.line_of_sight is True
    assert any(x.clause == "ranged.los.models" for x in r.reasons)


def test_ranged_los_huge_blocks_smaller_pairs_only() -> None:
    # A wall of three Huge bases between the two models.
    huge = "".join(
        f"  - {{id: h{i}, faction: z, base: 120, at: [150, {y}]}}\n"
        for i, y in enumerate((-120, 0, 120))
    )
    r = fwwrules.ruling(board(shooter_target(extra=huge)), "a", "t")
    assert r.line_of_sight is False
    assert any(x.clause == "ranged.los.huge" for x in r.reasons)
    # diameters, not size classes: 60 mm bases are smaller than the 120 mm wall (blocked) ...
    sixty = board(
        shooter_target(400, target_base=60, extra=huge).replace(
            "base: 32, at: [0, 0]", "base: 60, at: [-20, 0]"
        )
    )
    assert fwwrules.ruling(sixty, "a", "t").line_of_sight is False
    # ... and 120 mm bases are not (seen)
    big = board(
        shooter_target(400, target_base=120, extra=huge).replace(
            "base: 32, at: [0, 0]", "base: 120, at: [-60, 0]"
        )
    )
    assert fwwrules.ruling(big, "a", "t").line_of_sight is True


# --- terrain.kinds --------------------------------------------------------------------------
def test_terrain_kinds_scenery_has_no_effect() -> None:
    extra = "terrain:\n  - {id: rug, kind: scenery, rect: {at: [150, 0], size: [100, 100]}}\n"
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert r.line_of_sight is True and r.cover == () and r.ignored == ()


def test_terrain_kinds_huge_variant_wall_is_cover_for_a_behemoth() -> None:
    extra = """\
  - {id: behemoth, faction: x, base: 60, at: [0, 150], skills: {heavy: 5}, weapons: [rifle]}
terrain:
  - {id: wall, kind: blocking, huge: cover, rect: {at: [150, 75], size: [10, 400], angle: 0}}
"""
    s = board(shooter_target(extra=extra))
    assert fwwrules.ruling(s, "a", "t").line_of_sight is False
    s2 = board(shooter_target(extra=extra).replace("heavy: 5", "rifle: 5"))
    r = fwwrules.ruling(s2, "behemoth", "t")
    assert r.line_of_sight is True
    assert [c.source for c in r.cover] == ["wall"]
    assert any(x.clause == "terrain.kinds" for x in r.reasons)


# --- cover.* boundary cases -----------------------------------------------------------------
def test_cover_line_grazing_edge_is_no_cover() -> None:
    extra = (
        "terrain:\n  - {id: crate, kind: cover, "
        "polygon: [[140, 0], [170, 0], [170, 30], [140, 30]]}\n"
    )
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert r.cover == ()
    assert [(i.source, i.clause) for i in r.ignored] == [("crate", "cover.line")]


def test_cover_line_half_millimetre_corner_clip_counts() -> None:
    extra = (
        "terrain:\n  - {id: crate, kind: cover, "
        "polygon: [[140, -0.5], [170, -0.5], [170, 30], [140, 30]]}\n"
    )
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert [c.source for c in r.cover] == ["crate"]


def test_cover_line_touching_crates_of_one_kind_act_as_one() -> None:
    extra = """\
terrain:
  - {id: c1, kind: cover, polygon: [[140, 0], [170, 0], [170, 30], [140, 30]]}
  - {id: c2, kind: cover, polygon: [[140, -30], [170, -30], [170, 0], [140, 0]]}
"""
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert [c.source for c in r.cover] == ["c1+c2"] and r.skill.modifier == -2


def test_cover_models_tangent_base_gives_no_cover() -> None:
    extra = "  - {id: m, faction: y, base: 32, at: [150, 16]}\n"
    r = fwwrules.ruling(board(shooter_target(extra=extra)), "a", "t")
    assert r.cover == ()
    extra2 = "  - {id: m, faction: y, base: 32, at: [150, 15]}\n"
    r2 = fwwrules.ruling(board(shooter_target(extra=extra2)), "a", "t")
    assert [c.source for c in r2.cover] == ["m"]


def test_cover_models_neutral_model_gives_cover() -> None:
    extra = "  - {id: dog, faction: wildlife, base: 32, at: [150, 0]}\n"
    s = board(shooter_target(extra=extra).replace("models:", "neutral: [wildlife]\nmodels:"))
    r = fwwrules.ruling(s, "a", "t")
    assert [(c.source, c.clause) for c in r.cover] == [("dog", "cover.models")]
    assert any(x.key == "neutral" for x in r.reasons)


def test_cover_huge_gives_cover_to_smaller_unless_engaged() -> None:
    # The Huge base (r=30) stands 25 mm off the Line of Cover, which crosses it; lines below
    # it still reach the target (on the line it would block LoS: no attack, nothing applies).
    extra = "  - {id: h, faction: z, base: 60, at: [236, 25]}\n"
    s = board(shooter_target(300, extra=extra))
    # At x=236 it is 22.7 mm from the target's base: not engaged.
    r = fwwrules.ruling(s, "a", "t")
    assert r.allowed
    assert [(c.source, c.clause) for c in r.cover] == [("h", "cover.huge")]
    engaged = board(shooter_target(300, extra=extra.replace("236", "261.4")))
    r2 = fwwrules.ruling(engaged, "a", "t")
    assert r2.cover == ()
    assert [(i.source, i.clause) for i in r2.ignored] == [("h", "cover.huge")]


def test_cover_shooter_contact_uses_the_contact_tolerance() -> None:
    near = "terrain:\n  - {id: crate, kind: cover, rect: {at: [31.5, 0], size: [30, 30]}}\n"
    r = fwwrules.ruling(board(shooter_target(extra=near)), "a", "t")  # gap 0.5 mm
    assert r.cover == () and r.ignored[0].clause == "cover.shooter-contact"
    far = near.replace("31.5", "31.6")  # gap 0.6 mm
    r2 = fwwrules.ruling(board(shooter_target(extra=far)), "a", "t")
    assert [c.source for c in r2.cover] == ["crate"]


def test_cli_ruling_json_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from fwwrules.cli import main

    path = str(fwwrules.example_path("cover-example-1"))
    assert main(["ruling", path, "--attacker", "brute", "--target", "knight", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["skill"] == {"icon": "rifle", "value": 5, "modifier": -4, "target": 1}
    assert data["cover"][0]["clause"] == "cover.line"
    assert main(["ruling", path, "--attacker", "brute", "--target", "nobody"]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err and "Traceback" not in err
    assert main(["ruling", path, "--attacker", "knight", "--target", "brute", "--lang", "de"]) == 0
    assert "Deckungslinie" in capsys.readouterr().out


def test_melee_engaged_attacker_may_not_shoot_terrain_or_a_point() -> None:
    extra = """\
  - {id: e, faction: y, base: 32, at: [32.2, 0]}
terrain:
  - {id: crate, kind: cover, rect: {at: [100, 100], size: [20, 20]}}
"""
    s = board(shooter_target(extra=extra))
    for target in ("crate", (100.0, -100.0)):
        r = fwwrules.ruling(s, "a", target)
        assert not r.allowed and "melee.engaged" in r.not_allowed


def test_ranged_los_cli_target_may_be_a_point(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from fwwrules.cli import main

    path = str(fwwrules.example_path("cover-example-1"))
    assert main(["ruling", path, "--attacker", "knight", "--target", "300,100", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["target"] == "point(300,100)" and data["line_of_sight"] is True
    assert main(["ruling", path, "--attacker", "knight", "--target", "3,x"]) == 2
    assert "--target" in capsys.readouterr().err
