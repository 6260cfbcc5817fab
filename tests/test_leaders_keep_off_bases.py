"""A name's leader line never runs through another model's base while a place for the name
exists whose leader does not: a line from "Paladin Danse" through the Knight's base reads as
the Knight's line. Found on the 48-inch table's AttackPanel in German at 1920 px (the
browser draws it at one device pixel per CSS pixel): every place near Paladin Danse's base
was taken by the range bands' names, and the place chosen lay beyond the Knight."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib
import pytest
from matplotlib.figure import Figure

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.board import BoardArtists, frame_view
from fwwrules.draw.export import export_dpi
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import base_discs
from fwwrules.scenario import Scenario

matplotlib.use("Agg")

TABLE = Path(__file__).parent / "table-48.yaml"


def table() -> Scenario:
    s = fwwrules.load(TABLE)
    assert isinstance(s, Scenario)
    return s


def leaders_through_bases(art: BoardArtists) -> list[tuple[str, str]]:
    """Each (owner, other) where the leader of ``owner``'s name passes through the base of
    ``other`` (more than a pixel inside its disc), in display pixels as drawn."""
    found = []
    discs = {mid: d for mid in art.bases if (d := _disc(art, mid)) is not None}
    for owner, _centre, ((x0, y0), (x1, y1)), _drawn in art.state.get("leaders", []):
        (ax, ay), (bx, by) = art.ax.transData.transform([(x0, y0), (x1, y1)])
        for other, (cx, cy, r) in discs.items():
            if other == owner:
                continue
            dx, dy = bx - ax, by - ay
            length2 = dx * dx + dy * dy
            t = 0.0 if length2 == 0 else ((cx - ax) * dx + (cy - ay) * dy) / length2
            t = min(max(t, 0.0), 1.0)
            if math.hypot(ax + t * dx - cx, ay + t * dy - cy) < r - 1.0:
                found.append((str(owner), other))
    return found


def _disc(art: BoardArtists, mid: str) -> tuple[float, float, float] | None:
    base = art.bases[mid]
    if not base.get_visible():
        return None
    (x, y), (ex, _ey) = art.ax.transData.transform(
        [base.center, (base.center[0] + base.radius, base.center[1])]
    )
    return (float(x), float(y), float(ex - x))


def panel_board(lang: str, ratio: float) -> BoardArtists:
    """The README's AttackPanel on the 48-inch table, laid out at ``ratio`` device pixels per
    CSS pixel as the browser's canvas asks for it."""
    from fwwrules_widgets import AttackPanel

    panel = AttackPanel(table(), attacker="paladin", target="boss", lang=lang, interactive=False)
    panel.view._set_ratio(ratio)
    panel.view.figure.canvas.draw()
    art = panel.view.artists
    assert art is not None
    return art


def rendered(lang: str, width: int) -> BoardArtists:
    """The same shot as ``fwwrules render --width`` draws it."""
    st, s = DEFAULT_STYLE, table()
    dpi = export_dpi(Figure(figsize=st.figsize, dpi=st.dpi), width=width)
    art = draw_board(
        s,
        new_axes(st.figsize, dpi, st.margins),
        ruling=fwwrules.ruling(s, "paladin", "boss"),
        lang=lang,
        view=frame_view(s, "table", st),
        margin=True,
    )
    art.figure.canvas.draw()
    return art


@pytest.mark.parametrize("ratio", [1.0, 2.0])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_leader_runs_through_another_base_in_the_panel(lang: str, ratio: float) -> None:
    art = panel_board(lang, ratio)
    assert len(base_discs(art)) == 8
    assert leaders_through_bases(art) == []


@pytest.mark.parametrize("width", [780, 1280, 1920])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_leader_runs_through_another_base_in_a_picture(lang: str, width: int) -> None:
    assert leaders_through_bases(rendered(lang, width)) == []


def test_the_check_sees_a_leader_through_a_base() -> None:
    """The test's own check finds a leader laid across the Knight's base by hand."""
    art = rendered("en", 780)
    knight, paladin = art.bases["knight"].center, art.bases["paladin"].center
    beyond = (2 * knight[0] - paladin[0], 2 * knight[1] - paladin[1])
    art.state["leaders"] = [("paladin", tuple(paladin), [tuple(paladin), beyond], 0)]
    assert leaders_through_bases(art) == [("paladin", "knight")]
