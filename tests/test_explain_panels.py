"""The attack panel's side-view toggle (issue 36): ticking it shows the section along the Line
of Cover of the ruling the panel shows, drawn by ``fwwrules.draw.side``; a real drag of a model
(mouse events on the board) draws it again for where the model ends; unticking hides it. The
numbers are read from the side view's artists and compared with the panel's ruling."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import pytest
from matplotlib.backend_bases import MouseEvent

import fwwrules
from fwwrules.draw.side import ORANGE_GID

ELEVATION = ("elevation.elevated", "elevation.edge-blocks-los", "elevation.edge-cover",
             "elevation.shooter-cover")  # fmt: skip


def _mouse(panel: object, kind: str, x_mm: float, y_mm: float) -> None:
    view = panel.view  # type: ignore[attr-defined]
    canvas = view.figure.canvas
    px, py = view.ax.transData.transform((x_mm, y_mm))
    button = None if kind == "motion_notify_event" else 1
    with view.lock:  # as the board canvas's messages are handled in the kernel
        canvas.callbacks.process(kind, MouseEvent(kind, canvas, px, py, button=button))


def _panel(lang: str = "en") -> object:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    return AttackPanel(s, attacker="lookout", target="knight", lang=lang, interactive=False)


def _check_side_is_the_ruling(panel: object) -> None:
    """The side view shown is the section of the panel's ruling: its length, the models'
    levels, and one Orange mark per elevation clause the ruling cites, as long as Orange."""
    r = panel.ruling  # type: ignore[attr-defined]
    s = panel.scenario  # type: ignore[attr-defined]
    art = panel.side.artists  # type: ignore[attr-defined]
    assert r is not None and r.sight is not None and art is not None
    (x0, y0), (x1, y1) = r.sight.loc
    length = math.hypot(x1 - x0, y1 - y0)
    assert art.section.length == pytest.approx(length)
    target = art.bases[r.target]
    assert target.get_x() + target.get_width() / 2 == pytest.approx(length)
    for m, base in art.bases.items():
        assert base.get_y() == pytest.approx(s.board.models[m].elevation)
    cited = {x.clause for x in r.reasons if x.clause in ELEVATION}
    assert set(art.orange) == cited
    for clause, line in art.orange.items():
        assert line.get_gid() == ORANGE_GID.format(clause)
        xs, ys = line.get_xdata(), line.get_ydata()
        drawn = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
        assert drawn == pytest.approx(s.board.orange_mm)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_side_view_toggle_shows_the_rulings_section(lang: str) -> None:
    panel = _panel(lang)
    side = panel.side  # type: ignore[attr-defined]
    assert side.toggle.description == {"en": "Side view", "de": "Seitenansicht"}[lang]
    assert side.html.layout.display == "none" and side.html.value == ""
    assert side.artists is None
    side.toggle.value = True
    assert side.html.layout.display != "none"
    assert side.html.value.startswith('<img class="fwwrules-side-view" src="data:image/png')
    assert side.artists.lang == lang
    assert "elevation.elevated" in side.artists.orange  # the lookout on the roof is Elevated
    _check_side_is_the_ruling(panel)
    assert "fwwrules-side-view" in panel._repr_mimebundle_()["text/html"]  # type: ignore[attr-defined]


def test_side_view_follows_a_real_drag_and_the_controls() -> None:
    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    before = side.artists.section.length
    shown = side.html.value
    x, y = panel.scenario.model("knight").at  # type: ignore[attr-defined]
    _mouse(panel, "button_press_event", x, y)
    assert panel.view.dragging == "knight"  # type: ignore[attr-defined]
    for k in range(1, 5):
        _mouse(panel, "motion_notify_event", x + 15.0 * k, y + 10.0 * k)
        assert "opacity:0.45" in side.html.value  # the old picture, dimmed until the drop
    _mouse(panel, "button_release_event", x + 60.0, y + 40.0)
    assert panel.scenario.model("knight").at != (x, y)  # type: ignore[attr-defined]
    assert "opacity" not in side.html.value and side.html.value != shown
    assert side.artists.section.length != pytest.approx(before)
    _check_side_is_the_ruling(panel)
    # another target: the side view of the new shot
    panel.target.value = "sniper"  # type: ignore[attr-defined]
    assert side.artists.section.target.id == "sniper"
    _check_side_is_the_ruling(panel)
    panel.lang.value = "de"  # type: ignore[attr-defined]
    assert side.artists.lang == "de" and side.toggle.description == "Seitenansicht"


def test_side_view_toggle_off_hides_it_and_draws_nothing() -> None:
    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    assert side.artists is not None
    side.toggle.value = False
    assert side.html.layout.display == "none" and side.html.value == ""
    assert side.artists is None
    panel.move("knight", 150.0, 320.0)  # type: ignore[attr-defined]
    assert side.artists is None and side.html.value == ""
    assert "fwwrules-side-view" not in panel._repr_mimebundle_()["text/html"]  # type: ignore[attr-defined]
