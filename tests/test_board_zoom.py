"""Zoom and pan on a panel's board (issue 33): the kernel draws every view itself.

Driven as the browser drives the live board canvas (``board_canvas.js``): ``zoom`` messages
(by a factor about a point), ``fit`` messages, and presses, moves and releases on empty board
(a pan) or with the middle button. Every picture the browser ends on equals the kernel's own
full render of the figure (no scaled pixels).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest
from frame_decoder import unpack
from fwwrules_widgets import AttackPanel, BoardEditor, ThreatPanel
from fwwrules_widgets.view import MAX_PX_PER_MM

import fwwrules

matplotlib.use("Agg")
pytest.importorskip("anywidget")

TABLE = fwwrules.load(Path(__file__).with_name("table-48.yaml"))
"""A 4' x 4' table with eight models of two sides."""

Sent = list[tuple[dict[str, Any], list[bytes]]]


def live(panel: Any, ratio: float = 2.0) -> tuple[Any, Sent]:
    """The panel's link shown in a browser (hello at ``ratio``) that paints and acknowledges
    every frame at once; the frames sent."""
    link = panel.view.widget and panel.view.link
    sent: Sent = []

    def send(content: dict[str, Any], buffers: list[bytes]) -> None:
        if content["type"] == "frame":
            sent.append((content, list(buffers)))
            link._message(None, {"type": "ack", "id": content["id"]}, [])

    link._send = send
    link.sender._send = send
    link._message(None, {"type": "hello", "ratio": ratio}, [])
    return link, sent


def css_of(panel: Any, x: float, y: float) -> tuple[float, float]:
    """Where board point (x, y) mm is on the canvas, in CSS px from the top left."""
    view = panel.view
    px, py = view.ax.transData.transform((x, y))
    return px / view.ratio, (view.figure.bbox.height - py) / view.ratio


def radius_px(panel: Any, model_id: str) -> float:
    base = panel.artists.bases[model_id]
    (x0, _), (x1, _) = panel.view.ax.transData.transform(
        [base.center, (base.center[0] + base.get_radius(), base.center[1])]
    )
    return float(x1 - x0)


def shows_full_render(panel: Any, sent: Sent) -> bool:
    canvas: Any = panel.view.figure.canvas
    shown = unpack((1, 1), sent)
    canvas.draw()
    return bool(np.array_equal(shown, np.asarray(canvas.buffer_rgba())))


def zoom_about(link: Any, panel: Any, model_id: str, factor: float, seq: int = 1) -> None:
    x, y = css_of(panel, *panel.artists.bases[model_id].center)
    link._message(None, {"type": "zoom", "x": x, "y": y, "factor": factor, "seq": seq}, [])


def drag_empty_board(link: Any, start: tuple[float, float]) -> tuple[float, float]:
    """A left-button drag from ``start`` (CSS pixels) in five moves, 60 px left and 35 px
    down; where it ends."""
    link._message(None, {"type": "down", "x": start[0], "y": start[1], "buttons": 1}, [])
    for k in range(1, 6):
        move = {"type": "move", "x": start[0] - 12 * k, "y": start[1] + 7 * k, "buttons": 1}
        link._message(None, move, [])
    end = (start[0] - 60, start[1] + 35)
    link._message(None, {"type": "up", "x": end[0], "y": end[1], "buttons": 0}, [])
    return end


def zoomed_about_waster(panel: Any) -> tuple[Any, Sent, Any]:
    """Four wheel notches about the Waster (each a message: one outstanding at a time),
    asserting the base is drawn three times larger where it was, by the kernel at the new
    scale; returns the link, the frames sent and the view before the zoom."""
    link, sent = live(panel)
    first, before_r = panel.view.view_box, radius_px(panel, "waster")
    before_at = css_of(panel, *panel.artists.bases["waster"].center)
    for k in range(4):
        zoom_about(link, panel, "waster", 1.35, seq=k + 1)
    assert radius_px(panel, "waster") >= 3 * before_r
    after_at = css_of(panel, *panel.artists.bases["waster"].center)
    assert math.dist(before_at, after_at) < 1.0  # zoomed about the pointer
    assert shows_full_render(panel, sent)  # drawn at the new scale by the kernel, exact
    return link, sent, first


def test_a_wheel_zoom_about_a_model_draws_it_three_times_larger_where_it_was() -> None:
    zoomed_about_waster(AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True))


@pytest.mark.parametrize("make", ["melee", "stepper"])
def test_the_melee_panel_and_the_stepper_zoom_about_a_model_and_fit_the_table(make: str) -> None:
    from fwwrules_widgets import ExampleStepper, MeleePanel, Step

    if make == "melee":
        p: Any = MeleePanel(TABLE, interactive=True)
    else:
        step = Step("t", TABLE, {"attacker": "paladin", "target": "boss"})
        p = ExampleStepper([step], interactive=True)
    link, sent, first = zoomed_about_waster(p)
    link._message(None, {"type": "fit", "which": "table"}, [])
    assert p.view.view_box == pytest.approx(first, abs=1e-6)
    assert shows_full_render(p, sent)


def test_fit_table_restores_the_first_view_and_fit_models_shows_every_base() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True)
    link, sent = live(p)
    first = p.view.view_box
    zoom_about(link, p, "knight", 4.0)
    assert p.view.view_box != pytest.approx(first)
    link._message(None, {"type": "fit", "which": "table"}, [])
    assert p.view.view_box == pytest.approx(first, abs=1e-6)
    link._message(None, {"type": "fit", "which": "models"}, [])
    box = p.view.view_box
    assert box.xmax - box.xmin < first.xmax - first.xmin  # the models leave table edges out
    for m in TABLE.models:
        d = p.scenario.board.models[m.id].disc
        assert box.xmin <= d.x - d.r and d.x + d.r <= box.xmax
        assert box.ymin <= d.y - d.r and d.y + d.r <= box.ymax
    assert shows_full_render(p, sent)


def test_dragging_empty_board_pans_and_the_pressed_point_stays_under_the_pointer() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True)
    link, sent = live(p)
    zoom_about(link, p, "waster", 3.0)
    start = css_of(p, 26.0 * 25.4, 40.0 * 25.4)  # empty board
    assert p.view.model_at(26.0 * 25.4, 40.0 * 25.4) is None
    end = drag_empty_board(link, start)
    assert math.dist(css_of(p, 26.0 * 25.4, 40.0 * 25.4), end) < 1.0
    assert p.scenario == TABLE  # nothing moved on the table
    assert shows_full_render(p, sent)


def test_the_middle_button_pans_even_from_a_base() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True)
    link, _sent = live(p)
    centre = p.artists.bases["boss"].center
    x, y = css_of(p, *centre)
    link._message(None, {"type": "down", "x": x, "y": y, "button": 1, "buttons": 4}, [])
    link._message(None, {"type": "move", "x": x - 40, "y": y, "buttons": 4}, [])
    link._message(None, {"type": "up", "x": x - 40, "y": y, "button": 1, "buttons": 0}, [])
    assert p.scenario == TABLE and p.view.dragging is None
    assert css_of(p, *centre)[0] == pytest.approx(x - 40, abs=1.0)


def test_a_zoomed_view_stays_through_a_control_change_and_a_drag() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True)
    link, sent = live(p)
    zoom_about(link, p, "waster", 3.0)
    zoomed = p.view.view_box
    p.rules.value = "vts"
    assert p.view.view_box == pytest.approx(zoomed)
    x, y = css_of(p, *p.artists.bases["waster"].center)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "move", "x": x + 30, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "up", "x": x + 30, "y": y, "buttons": 0}, [])
    assert p.scenario.model("waster").at[0] > 30.0  # dragged, at the zoomed scale
    assert p.view.view_box == pytest.approx(zoomed)
    assert shows_full_render(p, sent)


def test_zoom_stops_at_the_closest_and_the_farthest_view() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=False)
    table = p.view.view_box
    p.view.zoom(1e6)
    assert p.view._px_per_mm() == pytest.approx(MAX_PX_PER_MM, rel=0.02)
    p.view.zoom(1e-9)
    wide = p.view.view_box
    assert wide.xmax - wide.xmin <= 3.02 * (table.xmax - table.xmin)
    with pytest.raises(ValueError, match="unknown view 'all'; expected one of table, models"):
        p.view.fit("all")


def test_a_click_on_empty_board_selects_a_spot_a_drag_pans_instead() -> None:
    p = ThreatPanel(TABLE, "brotherhood", interactive=True, step=2.0)
    link, _sent = live(p, ratio=1.0)
    x, y = css_of(p, 26.0 * 25.4, 40.0 * 25.4)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "move", "x": x + 40, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "up", "x": x + 40, "y": y, "buttons": 0}, [])
    assert p.selected is None  # a pan
    x, y = css_of(p, 26.0 * 25.4, 40.0 * 25.4)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "move", "x": x + 1, "y": y, "buttons": 1}, [])
    link._message(None, {"type": "up", "x": x + 1, "y": y, "buttons": 0}, [])
    assert p.selected is not None  # a click
    spot = p.result.positions[p.selected] if p.result is not None else None
    assert spot is not None and math.dist(spot, (26.0, 40.0)) <= 2.0


def test_a_zoomed_board_labels_only_what_it_shows() -> None:
    """Models and pieces out of view get no label, no numbered marker and no key line (they
    would fill the key and push it under the board, moving the board at every zoom)."""
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=False)
    box = p.view.ax.get_position().bounds
    p.view.zoom(5.0, about=tuple(p.view.ax.transData.transform(p.artists.bases["boss"].center)))
    view = p.view.view_box
    for mid, label in p.artists.labels.items():
        d = p.scenario.board.models[mid].disc
        inside = view.xmin <= d.x <= view.xmax and view.ymin <= d.y <= view.ymax
        assert label.get_visible() == inside or inside, mid
    assert p.artists.labels["boss"].get_visible()
    assert p.view.ax.get_position().bounds == pytest.approx(box, abs=0.02)


def test_labels_left_out_of_a_zoomed_view_come_back_when_it_zooms_out() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=False)
    shown = {mid for mid, label in p.artists.labels.items() if label.get_visible()}
    p.view.zoom(5.0, about=tuple(p.view.ax.transData.transform(p.artists.bases["boss"].center)))
    assert not p.artists.labels["paladin"].get_visible()
    p.view.fit("models")
    assert {mid for mid, label in p.artists.labels.items() if label.get_visible()} >= shown


def test_the_editor_zooms_pans_with_select_keeps_the_view_through_an_edit_and_fits() -> None:
    """The board editor on a 4' x 4' table zooms about the pointer (the base three times
    larger, where it was, the kernel's own picture), keeps the view through an edit, pans
    when its Select tool drags empty board (a click there still deselects) and "Fit table"
    brings back its first view."""
    ed = BoardEditor(TABLE, interactive=True)
    link, sent, first = zoomed_about_waster(ed)
    zoomed = ed.view.view_box
    ed.move("waster", (31, 36))  # an edit: the view stays
    assert ed.view.view_box == pytest.approx(zoomed, abs=1e-6)
    ed.selected = "waster"
    start = css_of(ed, 26.0 * 25.4, 38.0 * 25.4)  # empty board
    end = drag_empty_board(link, start)
    assert math.dist(css_of(ed, 26.0 * 25.4, 38.0 * 25.4), end) < 1.0
    assert ed.draft.scenario.model("waster").at == (31, 36)  # the pan moved nothing
    assert shows_full_render(ed, sent)
    link._message(None, {"type": "fit", "which": "table"}, [])
    assert ed.view.view_box == pytest.approx(first, abs=1e-6) and ed.zoomed is None
