"""The panels against the real rules engine, headless on Agg: set ``.value``, then look at
``.ruling`` and ``.artists``."""

from __future__ import annotations

from typing import Any

import matplotlib
import pytest
from fwwrules_widgets import AttackPanel, ExampleStepper, MeleePanel, Step

import fwwrules
from fwwrules import melee

matplotlib.use("Agg")

WALL = """
format: fwwrules/scenario@1
title: Wall and crate
models:
  - {id: knight, name: Knight, faction: bos, base: 40, at: [50, 100], skills: {rifle: 7},
     weapons: [laser]}
  - {id: brute, name: Brute, faction: mutants, base: 40, at: [250, 100]}
terrain:
  - {id: crate, kind: cover, rect: {at: [150, 100], size: [20, 20]}}
  - {id: wall, kind: blocking, rect: {at: [150, 320], size: [20, 300]}}
weapons:
  - {id: laser, type: rifle, short: green, long: blue, dice: {short: [green], long: [black]}}
"""


def example(name: str) -> fwwrules.Scenario:
    return fwwrules.load(fwwrules.example_path(name))


def visible_texts(texts: list[Any]) -> list[str]:
    return [t.get_text() for t in texts if t.get_visible()]


def test_ranged_los_target_moved_behind_wall_loses_witness_and_shows_fan() -> None:
    p = AttackPanel(fwwrules.loads(WALL), interactive=False)
    assert p.ruling is not None and p.ruling.line_of_sight is True
    assert p.artists.sight.get_visible() and not p.artists.fan.get_visible()
    p.model.value = "brute"
    p.y.value = 320.0
    assert p.ruling.line_of_sight is False and "ranged.los" in p.ruling.not_allowed
    assert not p.artists.sight.get_visible()
    assert p.artists.fan.get_visible() and p.artists.fan_label.get_visible()
    assert p.artists.blockers.get_visible()
    assert p.html.value == p.ruling.html("en")
    p.y.value = 100.0  # back in the open
    assert p.ruling.line_of_sight is True and p.artists.sight.get_visible()


def test_cover_armor_switching_rules_to_vts_changes_the_armor_text() -> None:
    p = AttackPanel(fwwrules.loads(WALL), interactive=False)
    assert p.ruling is not None and p.ruling.armor.bonus == 1 and p.ruling.armor.boost == 0
    core = p.html.value
    p.rules.value = "vts"
    assert p.ruling.rules == "vts" and p.ruling.armor.boost == 1 and p.ruling.armor.bonus == 0
    assert p.html.value != core and p.html.value == p.ruling.html("en")
    # the crate is highlighted as crossed in both
    assert p.artists.crossings.get_visible()


def test_cover_shooter_contact_example_1_marks_the_building_ignored() -> None:
    p = AttackPanel(
        example("cover-example-1"), attacker="knight", target="brute", interactive=False
    )
    assert p.ruling is not None
    ignored = [i.source for i in p.ruling.ignored]
    assert "building" in ignored
    assert any("ignored" in t for t in visible_texts(p.artists.ignored_labels))
    assert "cover.shooter-contact" in repr(p.ruling.ignored)


def test_lang_de_changes_board_labels_and_ruling_text() -> None:
    p = AttackPanel(fwwrules.loads(WALL), interactive=False)
    en_title = p.artists.title.get_text()
    p.lang.value = "de"
    assert p.html.value == p.ruling.html("de")  # type: ignore[union-attr]
    assert "Deckungslinie" in p.artists.legend_texts()
    assert p.artists.title.get_text() != en_title
    assert "angreifen" in p.artists.title.get_text()


def test_melee_shoot_into_numbers_drawn_by_the_attack_panel() -> None:
    p = AttackPanel(
        example("melee-shoot-into-3"), attacker="minuteman", target="raider", interactive=False
    )
    assert p.ruling is not None and p.ruling.into_melee is not None
    numbers = p.ruling.into_melee.numbers
    assert numbers is not None
    expected = {
        " ".join(str(i + 1) for i, m in enumerate(numbers) if m == mid) for mid in set(numbers)
    }
    assert set(visible_texts(p.artists.numbers)) == expected
    p.rules.value = "vts"  # no allocation under vts
    assert visible_texts(p.artists.numbers) == []


def test_melee_outnumbered_panel_lists_engagements_and_outnumbered() -> None:
    s = example("melee-outnumbered-2")
    p = MeleePanel(s, interactive=False)
    assert p.engagements == melee.engagements(s)
    assert set(p.outnumbered) == {m.id for m in s.models if melee.is_outnumbered(s, m.id)}
    assert p.outnumbered
    assert "outnumbered" in p.engaged_html.value
    assert p.artists.engagements.get_visible()
    p.lang.value = "de"
    assert "Unterzahl" in p.engaged_html.value


def test_melee_withdraw_preview_draws_an_arrow_per_free_attack() -> None:
    s = example("melee-outnumbered-2")
    p = MeleePanel(s, interactive=False)
    p.withdrawer.value = "brotherhood-a"
    expected = fwwrules.withdraw(s, "brotherhood-a")
    assert p.withdrawal == expected
    arrows = [a for a in p.artists.free_attacks if a.get_visible()]
    assert len(arrows) == len(expected.free_attacks) >= 1
    assert expected.html("en") in p.html.value
    p.withdrawer.value = ""
    assert p.withdrawal is None
    assert not any(a.get_visible() for a in p.artists.free_attacks)


def test_melee_slide_preview_ghost_follows_legality() -> None:
    s = example("melee-behemoth-slide")
    p = MeleePanel(s, interactive=False)
    p.slider.value = "behemoth"
    offered = (p.to_x.value, p.to_y.value)
    assert offered != s.model("behemoth").at  # never a slide of 0 mm
    assert p.slide == fwwrules.slide(s, "behemoth", offered) and p.slide.legal
    p.to_y.value = 250.0
    p.to_x.value = 300.0
    assert p.slide == fwwrules.slide(s, "behemoth", (300.0, 250.0))
    assert p.slide.legal
    ghost = p.artists.slide_ghost
    assert ghost.get_visible() and ghost.center == pytest.approx((300.0, 250.0))
    assert ghost.get_linestyle() == p.artists.style.slide_legal_linestyle
    p.to_x.value = 600.0  # far away: the engagement with Dogmeat breaks
    assert p.slide is not None and not p.slide.legal
    assert ghost.get_linestyle() == p.artists.style.slide_illegal_linestyle
    p.rules.value = "vts"  # no slide at all under vts
    assert p.slide is not None and not p.slide.legal


def test_melee_panel_into_melee_numbers_for_a_chosen_shooter() -> None:
    s = example("melee-shoot-into-3")
    p = MeleePanel(s, interactive=False)
    assert p.ruling is None and visible_texts(p.artists.numbers) == []
    p.target.value = "raider"
    p.shooter.value = "minuteman"
    assert p.ruling == fwwrules.ruling(s, "minuteman", "raider")
    assert p.ruling.into_melee is not None and p.ruling.into_melee.numbers
    assert len(visible_texts(p.artists.numbers)) == len(set(p.ruling.into_melee.numbers))
    assert not any(r.get_visible() for r in p.artists.bands.values())


def steps() -> list[Step]:
    c1, out2, slide = (
        example(n) for n in ("cover-example-1", "melee-outnumbered-2", "melee-behemoth-slide")
    )
    return [
        Step("Cover 1", c1, {"attacker": "knight", "target": "brute"}, "The building is ignored."),
        Step(
            {"en": "Cover 1, back", "de": "Deckung 1, zurück"},
            c1,
            {"attacker": "brute", "target": "knight"},
        ),
        Step("Withdraw", out2, {"kind": "withdraw", "model": "brotherhood-a"}),
        Step("Slide", slide, {"kind": "slide", "model": "behemoth", "to": [300, 250]}),
    ]


def test_example_stepper_prev_next_through_attack_withdraw_and_slide() -> None:
    st = ExampleStepper(steps(), interactive=False)
    assert st.index == 0 and st.prev.disabled and not st.next.disabled
    assert st.ruling == fwwrules.ruling(st.step.scenario, "knight", "brute")
    assert "ignored" in st.narrative.value
    first = st.artists
    st.next.click()
    assert st.index == 1 and st.artists is first  # same scenario: updated in place
    assert st.ruling.attacker == "brute"
    st.next.click()
    assert st.artists is not first  # another scenario: drawn anew
    assert st.ruling == fwwrules.withdraw(st.step.scenario, "brotherhood-a")
    assert any(a.get_visible() for a in st.artists.free_attacks)
    st.next.click()
    assert st.index == 3 and st.next.disabled
    assert st.artists.slide_ghost.get_visible()
    st.next.click()  # clamped
    assert st.index == 3
    st.prev.click()
    assert st.index == 2 and st.position.value == "3 / 4"


def test_example_stepper_lang_de_translates_title_and_ruling() -> None:
    st = ExampleStepper(steps(), interactive=False)
    st.go(1)
    st.lang.value = "de"
    assert "Deckung 1, zurück" in st.title.value
    assert st.html.value == st.ruling.html("de")
    assert st.next.description == "Weiter ▶"


def test_example_stepper_bad_step_kind_is_an_error() -> None:
    with pytest.raises(fwwrules.QueryError):
        ExampleStepper(
            [Step("x", example("cover-example-1"), {"kind": "dance"})], interactive=False
        )


def test_example_stepper_board_cannot_be_dragged() -> None:
    from matplotlib.backend_bases import MouseEvent

    st = ExampleStepper(steps(), interactive=False)
    canvas = st.view.figure.canvas
    centre = st.artists.bases["knight"].center  # type: ignore[union-attr]
    px, py = st.view.ax.transData.transform(centre)
    canvas.callbacks.process(
        "button_press_event", MouseEvent("button_press_event", canvas, px, py, button=1)
    )
    assert st.view.dragging is None


def test_melee_slide_destination_is_placed_by_dragging_its_ghost() -> None:
    """The ghost of the sliding model is dragged to where the slide ends: the ruling, the
    ghost and the "to" fields follow the pointer; the release settles it."""
    from matplotlib.backend_bases import MouseEvent

    s = example("melee-behemoth-slide")
    p = MeleePanel(s, interactive=False)
    p.snap.value = False
    p.slider.value = "behemoth"
    canvas = p.view.figure.canvas
    ghost = p.artists.slide_ghost

    def event(name: str, x: float, y: float) -> None:
        px, py = p.view.ax.transData.transform((x, y))
        canvas.callbacks.process(name, MouseEvent(name, canvas, px, py, button=1))

    start = ghost.center
    event("button_press_event", *start)
    assert p.view.dragging == "slide:to"
    event("motion_notify_event", start[0] + 300.0, start[1])  # far off: contact breaks
    assert p.slide is not None and not p.slide.legal
    assert p.to_x.value == pytest.approx(start[0] + 300.0, abs=0.5)
    assert ghost.center == pytest.approx((p.to_x.value, p.to_y.value))
    event("motion_notify_event", 324.8, 343.4)  # the rulebook's destination
    event("button_release_event", 324.8, 343.4)
    assert p.view.dragging is None and p.scenario == s  # no model moved
    assert p.slide == fwwrules.slide(s, "behemoth", (324.8, 343.4)) and p.slide.legal
    assert (p.to_x.value, p.to_y.value) == pytest.approx((324.8, 343.4))
    assert "ghost" in p.slide_hint.value


def test_melee_a_model_engaged_with_nobody_is_offered_a_slide_an_inch_away() -> None:
    from fwwrules_widgets.melee_panel import suggested_slide

    s = example("melee-behemoth-slide")
    lonely = fwwrules.move_model(s, "sole-survivor", 900.0, 900.0)
    assert suggested_slide(lonely, "sole-survivor", "core") == (925.0, 900.0)
