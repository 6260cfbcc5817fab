"""AttackPanel plumbing, headless on Agg: controls in, fwwrules called, artists updated.

The rules themselves are tested elsewhere; here ``fwwrules.ruling`` is replaced by a spy
that records its arguments and answers with plain data, so each test can fail only through
the panel.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import matplotlib
import pytest
from fwwrules_widgets import AttackPanel, move_model
from matplotlib.backend_bases import MouseEvent
from shapely.geometry import LineString

import fwwrules
from fwwrules.rulings import ArmorInfo, AttackRuling, Reason, Sight

matplotlib.use("Agg")

SCENARIO = """
format: fwwrules/scenario@1
title: Panel board
models:
  - {id: knight, name: Knight, faction: bos, base: 40, at: [50, 100], skills: {rifle: 7},
     weapons: [laser, pistol]}
  - {id: brute, name: Brute, faction: mutants, base: 40, at: [250, 100]}
  - {id: dog, faction: mutants, base: 32, at: [250, 300]}
terrain:
  - {id: wall, kind: blocking, rect: {at: [150, 250], size: [20, 200]}}
weapons:
  - {id: laser, type: rifle, short: red, long: green}
  - {id: pistol, type: pistol, short: yellow}
"""


class Spy:
    """Stands in for fwwrules.ruling: records calls; LoS unless the centre line meets the wall."""

    def __init__(self) -> None:
        self.calls: list[dict[str, Any]] = []

    def __call__(self, scenario: fwwrules.Scenario, attacker: str, target: str, **kw: Any) -> Any:
        self.calls.append({"attacker": attacker, "target": target, **kw})
        a = scenario.board.models[attacker].disc
        t = scenario.board.models[target].disc
        loc = ((a.x, a.y), (t.x, t.y))
        wall = scenario.board.terrain["wall"].polygon
        clear = not LineString(loc).intersects(wall)
        rules = kw.get("rules") or scenario.rules
        return AttackRuling(
            attacker=attacker,
            target=target,
            weapon=kw.get("weapon") or "laser",
            rules=rules,
            kind="ranged",
            allowed=clear,
            line_of_sight=clear,
            armor=ArmorInfo(bonus=1) if rules == "core" else ArmorInfo(boost=1),
            reasons=(
                Reason("size.classes", params={"model": target, "diameter": 40, "size": "large"}),
            ),
            sight=Sight(witness=loc if clear else None, loc=loc),
        )


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spy]:
    s = Spy()
    monkeypatch.setattr(fwwrules, "ruling", s)
    yield s


def panel(**kw: Any) -> AttackPanel:
    return AttackPanel(fwwrules.loads(SCENARIO), interactive=False, **kw)


def count_draws(p: AttackPanel) -> list[int]:
    """Counts full draws (``figure.canvas.draw``) from now on."""
    canvas = p.view.figure.canvas
    original = canvas.draw
    calls = [0]

    def counted(*args: Any, **kwargs: Any) -> None:
        calls[0] += 1
        original(*args, **kwargs)

    canvas.draw = counted  # type: ignore[method-assign]
    return calls


def count_shown(p: AttackPanel) -> list[int]:
    """Counts the pictures the panel shows (PNG publishes, without the live canvas) from now on."""
    original = p.view._publish
    calls = [0]

    def counted() -> None:
        calls[0] += 1
        original()

    p.view._publish = counted  # type: ignore[method-assign]
    return calls


def pixels(p: AttackPanel) -> bytes:
    return bytes(p.view.figure.canvas.buffer_rgba())  # type: ignore[attr-defined]


def test_panel_exposes_controls_ruling_and_artists(spy: Spy) -> None:
    p = panel()
    assert p.attacker.value == "knight" and p.target.value == "brute"
    assert [v for _, v in p.weapon.options] == ["laser", "pistol", "improvised"]
    assert isinstance(p.ruling, AttackRuling) and p.ruling.line_of_sight
    assert set(p.artists.bases) == {"knight", "brute", "dog"}
    assert p.artists.sight.get_visible()
    assert p.html.value == p.ruling.html("en")
    assert bytes(p.view.widget.value).startswith(b"\x89PNG")  # shown without the live canvas


def test_ranged_los_moving_target_behind_wall_shows_blocked_fan(spy: Spy) -> None:
    p = panel()
    sight = p.artists.sight
    p.model.value = "brute"
    p.y.value = 250.0  # the centre line now meets the wall
    assert p.scenario.model("brute").at == (250.0, 250.0)
    assert p.ruling is not None and p.ruling.line_of_sight is False
    assert p.artists.sight is sight and not sight.get_visible()
    assert p.artists.fan.get_visible() and p.artists.fan_label.get_visible()
    assert p.artists.bases["brute"].center == (250.0, 250.0)
    assert p.html.value == p.ruling.html("en")


def test_cover_armor_switching_rules_to_vts_is_passed_to_the_rules(spy: Spy) -> None:
    p = panel()
    before = p.ruling
    p.rules.value = "vts"
    assert spy.calls[-1]["rules"] == "vts"
    assert p.ruling is not None and p.ruling.armor == ArmorInfo(boost=1) != before.armor  # type: ignore[union-attr]


def test_ranged_range_band_and_weapon_controls_reach_the_ruling(spy: Spy) -> None:
    p = panel()
    assert spy.calls[-1]["band"] is None  # auto
    p.band.value = "long"
    assert spy.calls[-1]["band"] == "long"
    p.weapon.value = "pistol"
    assert spy.calls[-1]["weapon"] == "pistol"
    # the short ring follows the weapon (pistol: yellow ruler)
    s = p.scenario
    assert p.artists.bands["short"].get_radius() == pytest.approx(20 + s.ruler_mm("yellow"))
    assert not p.artists.bands["long"].get_visible()


def test_attacker_change_refreshes_weapons_and_calls_rules_once(spy: Spy) -> None:
    p = panel()
    draws, shown = count_draws(p), count_shown(p)
    n = len(spy.calls)
    p.attacker.value = "dog"
    assert len(spy.calls) == n + 1 and spy.calls[-1]["attacker"] == "dog"
    assert [v for _, v in p.weapon.options] == ["improvised"]
    assert draws[0] == 1 and shown[0] == 1  # the title changed: one full draw


@pytest.mark.parametrize(
    "control,value",
    [("target", "dog"), ("band", "short"), ("rules", "vts"), ("lang", "de"), ("x", 60.0)],
)
def test_each_change_redraws_at_most_once_in_place(spy: Spy, control: str, value: Any) -> None:
    p = panel()
    draws, shown = count_draws(p), count_shown(p)
    patches = list(p.view.ax.patches)
    getattr(p, control).value = value
    assert draws[0] <= 1 and shown[0] == 1
    assert list(p.view.ax.patches) == patches  # same artists, no rebuild
    assert not any(a.get_animated() for a in p.artists.overlays())  # savefig shows all


def test_cached_background_gives_the_same_pixels_as_a_full_draw(spy: Spy) -> None:
    p = panel()
    draws = count_draws(p)
    p.band.value = "long"  # only overlays change: no full draw
    p.rules.value = "vts"
    assert draws[0] == 0
    cached = pixels(p)
    p.view.invalidate()
    p.view.redraw()
    assert draws[0] == 1
    assert pixels(p) == cached


def test_moving_the_same_model_again_reuses_the_background(spy: Spy) -> None:
    p = panel()
    p.model.value = "dog"
    p.x.value = 240.0  # first move of the dog: one full draw without it, then the dog on top
    draws, shown = count_draws(p), count_shown(p)
    p.x.value = 230.0
    p.y.value = 290.0
    assert draws[0] == 0 and shown[0] == 2
    assert p.artists.bases["dog"].center == (230.0, 290.0)
    before = pixels(p)
    p.view.invalidate()
    p.view.redraw()
    assert pixels(p) == before


def test_lang_de_changes_labels_text_and_controls(spy: Spy) -> None:
    p = panel()
    p.lang.value = "de"
    assert "Deckungslinie" in p.artists.legend_texts()
    assert p.html.value == p.ruling.html("de")  # type: ignore[union-attr]
    assert p.attacker.description == "Angreifer"
    assert p.band.options[0][0] == "automatisch"
    assert p.band.value == "auto"


def test_selecting_a_model_shows_its_position_without_moving_it(spy: Spy) -> None:
    p = panel()
    n = len(spy.calls)
    p.model.value = "dog"
    assert (p.x.value, p.y.value) == (250.0, 300.0)
    assert len(spy.calls) == n


def test_query_errors_are_shown_not_raised(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kw: Any) -> Any:
        raise fwwrules.QueryError("no such attack")

    monkeypatch.setattr(fwwrules, "ruling", refuse)
    p = panel()
    assert p.ruling is None and p.error == "no such attack"
    assert "no such attack" in p.html.value
    assert not p.artists.sight.get_visible()


def test_move_model_replaces_only_that_model() -> None:
    s = fwwrules.loads(SCENARIO)
    moved = move_model(s, "dog", 10.0, 20.0)
    assert moved.model("dog").at == (10.0, 20.0)
    assert moved.model("brute") == s.model("brute")
    assert s.model("dog").at == (250.0, 300.0)
    with pytest.raises(fwwrules.UnknownIdError):
        move_model(s, "cat", 0, 0)


def _event(p: AttackPanel, name: str, x: float, y: float) -> None:
    px, py = p.view.ax.transData.transform((x, y))
    ev = MouseEvent(name, p.view.figure.canvas, px, py, button=1)
    p.view.figure.canvas.callbacks.process(name, ev)


def test_dragging_a_base_blits_and_redraws_once_on_drop(spy: Spy) -> None:
    p = panel()
    full = count_draws(p)
    _event(p, "button_press_event", 255.0, 100.0)  # on the brute, 5 mm right of its centre
    assert p.view.dragging == "brute" and p.model.value == "brute"
    assert p.artists.bases["brute"].get_animated()
    assert not p.artists.bases["dog"].get_animated()
    press_draws = full[0]
    for y in (150.0, 200.0, 250.0):
        _event(p, "motion_notify_event", 255.0, y)
    assert full[0] == press_draws  # motions blit, no full draw
    assert p.ruling is not None and p.ruling.line_of_sight is False
    assert p.artists.bases["brute"].center == pytest.approx((250.0, 250.0))
    _event(p, "button_release_event", 255.0, 250.0)
    assert p.view.dragging is None and not p.artists.bases["brute"].get_animated()
    assert (p.x.value, p.y.value) == pytest.approx((250.0, 250.0))
    assert full[0] == press_draws + 1  # one full draw, on the drop


def test_press_off_any_base_starts_no_drag(spy: Spy) -> None:
    p = panel()
    _event(p, "button_press_event", 150.0, 20.0)
    assert p.view.dragging is None


def test_dragging_a_base_into_contact_slides_round_it_instead_of_sticking(spy: Spy) -> None:
    """The brute (40 mm) is dragged up into the dog (32 mm): it stops at contact; the mouse
    then moves on sideways past the dog, and the brute goes round the dog, still touching."""
    p = panel()
    _event(p, "button_press_event", 250.0, 100.0)
    _event(p, "motion_notify_event", 250.0, 300.0)  # straight at the dog: stops at contact
    brute = p.scenario.board.models["brute"].disc
    dog = p.scenario.board.models["dog"].disc
    # in contact, never overlapping, at a tenth of a millimetre (the file's precision)
    assert 0.0 <= brute.gap(dog) <= 0.15
    assert (brute.x, brute.y) == pytest.approx((250.0, 264.0))
    _event(p, "motion_notify_event", 280.0, 300.0)  # on, to the right, into the dog
    brute = p.scenario.board.models["brute"].disc
    assert 0.0 <= brute.gap(dog) <= 0.15  # still touching, never overlapping
    assert all(round(v, 1) == v for v in p.scenario.model("brute").at)
    assert brute.x > 260.0  # it went round, keeping the sideways part of the motion
    assert p.artists.bases["brute"].center == pytest.approx((brute.x, brute.y))
    _event(p, "button_release_event", 280.0, 300.0)
    assert (p.x.value, p.y.value) == pytest.approx((brute.x, brute.y))


def test_default_target_is_the_nearest_opposing_model_it_may_attack() -> None:
    """A panel opened on a board whose next model is a teammate still opens on an enemy."""
    s = fwwrules.loads(
        """
format: fwwrules/scenario@1
models:
  - {id: knight, name: Knight, faction: brotherhood, base: 32, at: [50, 100],
     skills: {rifle: 6}, weapons: [rifle]}
  - {id: paladin, name: Paladin, faction: brotherhood, base: 32, at: [100, 100],
     skills: {rifle: 6}, weapons: [rifle]}
  - {id: hidden, name: Hidden, faction: raiders, base: 32, at: [200, 100]}
  - {id: raider, name: Raider, faction: raiders, base: 32, at: [50, 300]}
terrain:
  - {id: wall, kind: blocking, rect: {at: [150, 100], size: [20, 120]}}
weapons:
  - {id: rifle, type: rifle, short: red, long: green}
"""
    )
    p = AttackPanel(s, interactive=False)
    assert p.attacker.value == "knight"
    assert p.target.value == "raider"  # the nearer raider is behind the wall
    assert s.opposing(s.model("knight"), s.model(p.target.value))
    assert p.ruling is not None and p.ruling.allowed
    walled = AttackPanel(s, attacker="paladin", interactive=False)
    assert walled.target.value in ("hidden", "raider")


def test_a_position_typed_onto_another_base_is_refused_in_words_not_a_traceback() -> None:
    """The x/y fields place a model exactly where asked; a board the file format refuses
    (issue 31: overlapping bases) is then answered by the refusal, in the panel."""
    p = panel()
    p.model.value = "brute"
    p.x.value = 60.0  # 10 mm from the knight's centre: the 40 mm bases overlap by 30 mm
    assert p.ruling is None
    assert "the base of &#x27;brute&#x27; overlaps &#x27;knight&#x27; by 30.00 mm" in p.html.value
    p.x.value = 250.0  # back: answered again
    assert p.ruling is not None
