"""The picture of a knife-edge call (``fwwrules.draw.margin``): the pinch point's star, the
arrow the model would move along and its distance, in English and German; nothing when the
call is not close or the picture is not asked for it (``margin=False``, the default)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.transforms import Bbox
from numpy.typing import NDArray
from panel_mouse import panel_mouse

import fwwrules
from fwwrules import Scenario
from fwwrules.draw import BoardArtists, draw_board
from fwwrules.draw.board import drawn_kinds

EXAMPLE = Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml"


def _example() -> Scenario:
    """The rulebook's cover example 1 (a scenario file, not a grid)."""
    s = fwwrules.load(EXAMPLE)
    assert isinstance(s, Scenario)
    return s


def _marks(artists: object) -> dict[str, object]:
    return {a.get_gid(): a for a in artists.state.get("margin_artists", ())}  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "text"), [("en", "0.3 mm"), ("de", "0,3 mm")])
def test_a_knife_edge_call_marks_its_pinch_point_and_move(lang: str, text: str) -> None:
    s = _example()
    r = fwwrules.ruling(s, "knight", "brute")
    edge = r.knife_edge()
    assert edge is not None and edge.model == "knight" and edge.at is not None
    art = draw_board(s, ruling=r, lang=lang, margin=True)
    marks = _marks(art)
    assert "knife-edge" in drawn_kinds(art)
    star, arrow, label = (
        marks["knife-edge:pinch"],
        marks["knife-edge:move"],
        marks["knife-edge:distance"],
    )
    assert star.get_visible() and tuple(star.get_xydata()[0]) == pytest.approx(edge.at)  # type: ignore[attr-defined]
    assert arrow.get_visible() and label.get_visible()  # type: ignore[attr-defined]
    assert label.get_text() == text  # type: ignore[attr-defined]
    # the arrow points the way the model would move (west here)
    (x0, y0), (x1, y1) = arrow._posA_posB  # type: ignore[attr-defined]
    assert x1 < x0 and y1 == pytest.approx(y0, abs=1e-6)
    plt.close(art.figure)


def test_no_marks_unless_asked_or_close() -> None:
    s = _example()
    art = draw_board(s, ruling=fwwrules.ruling(s, "knight", "brute"))
    assert "knife-edge" not in drawn_kinds(art)
    plt.close(art.figure)
    far = fwwrules.ruling(s, "brute", "knight")  # the building does not touch the Brute
    assert far.knife_edge() is None
    art = draw_board(s, ruling=far, margin=True)
    assert "knife-edge" not in drawn_kinds(art)
    plt.close(art.figure)


def test_the_attack_panel_marks_a_knife_edge_call_on_the_drop() -> None:
    """The attack panel shows the marks with its ruling; a drag step hides them (no margins
    computed on a motion) and the drop shows them again, with the knife-edge sentence."""
    # mypy does not follow the editable install's import hook to widgets/ (installed as
    # fwwrules_widgets); an installed wheel it does follow
    from fwwrules_widgets import AttackPanel  # type: ignore[import-not-found,unused-ignore]

    s = _example()
    panel = AttackPanel(s, attacker="knight", target="brute")
    assert "knife-edge" in drawn_kinds(panel.artists)
    panel._drag_update()
    assert "knife-edge" not in drawn_kinds(panel.artists)
    assert "knife-edge" not in panel.html.value
    panel._settle()
    assert "knife-edge" in drawn_kinds(panel.artists)
    assert "A knife-edge call" in panel.html.value
    plt.close(panel.view.figure)


@pytest.mark.parametrize(("lang", "text"), [("en", "0.3 mm"), ("de", "0,3 mm")])
def test_the_rendered_picture_marks_a_knife_edge_call(lang: str, text: str) -> None:
    """``fwwrules render --attacker --target`` (``render_figure``) marks a knife-edge call as
    the panels do; a call that is not close has no marks."""
    from fwwrules.draw.render import render_figure

    s = _example()
    fig = render_figure(s, attacker="knight", target="brute", lang=lang)
    art = fig._fwwrules_board  # type: ignore[attr-defined]
    marks = _marks(art)
    assert "knife-edge" in drawn_kinds(art)
    assert marks["knife-edge:pinch"].get_visible()  # type: ignore[attr-defined]
    assert marks["knife-edge:distance"].get_text() == text  # type: ignore[attr-defined]
    plt.close(fig)
    fig = render_figure(s, attacker="brute", target="knight", lang=lang)
    assert "knife-edge" not in drawn_kinds(fig._fwwrules_board)  # type: ignore[attr-defined]
    plt.close(fig)


def _legend_kinds(art: BoardArtists) -> list[str]:
    return [k for k, _ in art.state.get("legend_keys", ())]


def _pixels(canvas: FigureCanvasAgg, box: Bbox) -> NDArray[np.uint8]:
    """The figure's pixels inside ``box`` (device pixels, 2 more each way; rows from the
    top)."""
    rgba = np.asarray(canvas.buffer_rgba(), dtype=np.uint8)  # type: ignore[no-untyped-call]
    h = rgba.shape[0]
    x0, x1 = int(box.x0) - 2, int(np.ceil(box.x1)) + 2
    y0, y1 = h - int(np.ceil(box.y1)) - 2, h - int(box.y0) + 2
    out: NDArray[np.uint8] = rgba[max(y0, 0) : y1, max(x0, 0) : x1].copy()
    return out


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_legend_drops_the_knife_edge_entry_while_a_drag_hides_the_marks(lang: str) -> None:
    """A drag hides a knife-edge call's marks (no margins on a motion); the legend, which a
    drag otherwise leaves to the drop (it is in the blitted background), drops the entry
    with them on the first motion, and the frames show that legend (its pixels as a full
    draw of the same figure has them). The drop shows marks and entry again."""
    from fwwrules_widgets import AttackPanel  # type: ignore[import-not-found,unused-ignore]

    s = _example()
    panel = AttackPanel(s, attacker="knight", target="brute", lang=lang, interactive=False)
    art, canvas = panel.artists, panel.view.figure.canvas
    assert "knife-edge" in drawn_kinds(art) and "knife-edge" in _legend_kinds(art)
    before = art.legend.get_window_extent(canvas.get_renderer())
    x, y = (c * s.unit_mm for c in s.model("knight").at)
    panel_mouse(panel, "button_press_event", x, y)
    assert panel.view.dragging == "knight"
    panel_mouse(panel, "motion_notify_event", x + 0.1, y)
    assert "knife-edge" not in drawn_kinds(art)
    assert "knife-edge" not in _legend_kinds(art)
    shown = _pixels(canvas, before)  # the frame just sent: the old legend's place
    canvas.draw()  # everything but the moving artists (animated during the drag), afresh
    assert np.array_equal(shown, _pixels(canvas, before))
    panel_mouse(panel, "motion_notify_event", x, y)
    panel_mouse(panel, "button_release_event", x, y)
    assert "knife-edge" in drawn_kinds(art) and "knife-edge" in _legend_kinds(art)
    plt.close(panel.view.figure)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_legend_rebuilt_mid_drag_is_wrapped_to_its_column(lang: str) -> None:
    """The legend a drag rebuilds (without the knife-edge entry) has its entries wrapped to
    the legend column as the layout wraps them: it stays inside the figure (the German
    "Deckungslinie durchquert: Deckung" ran 94 px past the figure's right edge, cut), and
    its entries read as the drop's legend reads them."""
    from fwwrules_widgets import AttackPanel  # type: ignore[import-not-found,unused-ignore]

    s = _example()
    panel = AttackPanel(s, attacker="knight", target="brute", lang=lang, interactive=False)
    art, canvas = panel.artists, panel.view.figure.canvas
    width = panel.view.figure.bbox.width
    x, y = (c * s.unit_mm for c in s.model("knight").at)
    panel_mouse(panel, "button_press_event", x, y)
    panel_mouse(panel, "motion_notify_event", x - 10, y - 8)
    assert "knife-edge" not in _legend_kinds(art)
    assert art.legend.get_window_extent(canvas.get_renderer()).x1 <= width
    mid = [t.get_text() for t in art.legend.get_texts()]
    panel_mouse(panel, "button_release_event", x - 10, y - 8)
    canvas.draw()
    assert art.legend.get_window_extent(canvas.get_renderer()).x1 <= width
    assert [t.get_text() for t in art.legend.get_texts()] == mid
    plt.close(panel.view.figure)
