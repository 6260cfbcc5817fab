"""The scale bar sits in a corner of the board clear of terrain and bases (the zoomed editor
drew its "2 in" label over a piece in the lower left corner)."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest
from matplotlib.offsetbox import AnchoredOffsetbox
from matplotlib.transforms import Bbox

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.board import BoardArtists
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import SCALE_BAR_CORNERS, base_discs
from fwwrules.pieces import Bounds
from fwwrules.scenario import Scenario

matplotlib.use("Agg")

BOARD = """format: fwwrules/scenario@1
title: Scale bar
rules: core
units: in
board: {{size: [24, 24]}}
models:
  - {{id: a, faction: brotherhood, base: 1.26, at: [{ax}, {ay}]}}
  - {{id: b, faction: super-mutants, base: 1.26, at: [20, 20]}}
terrain:
  - {{id: ruin, kind: blocking, polygon: {ruin}}}
"""


def board(ruin: str, at: tuple[float, float] = (12, 12)) -> Scenario:
    s = fwwrules.loads(BOARD.format(ruin=ruin, ax=at[0], ay=at[1]))
    assert isinstance(s, Scenario)
    return s


def drawn(s: Scenario, view: Bounds | None) -> BoardArtists:
    st = DEFAULT_STYLE
    art = draw_board(s, new_axes(st.figsize, st.dpi, st.margins), view=view)
    art.figure.canvas.draw()
    return art


def bar_box(art: BoardArtists) -> Bbox:
    bar = art.ax._fwwrules_scale_bar  # type: ignore[attr-defined]
    box: Bbox = bar.get_window_extent(art.figure.canvas.get_renderer())
    return box


def corner(art: BoardArtists) -> str:
    code = art.ax._fwwrules_scale_bar.loc  # type: ignore[attr-defined]
    names = {v: k for k, v in AnchoredOffsetbox.codes.items()}
    return names[code]


def on_terrain(art: BoardArtists, box: Bbox) -> bool:
    return any(
        p.get_path().transformed(p.get_transform()).intersects_bbox(box, filled=True)
        for p in art.terrain.values()
    )


def test_zoomed_view_puts_the_bar_clear_of_the_piece_in_the_lower_left_corner() -> None:
    # a zoom onto a ruin that fills the lower left of the view (as the zoomed editor showed)
    s = board("[[0, 0], [8, 0], [8, 5], [0, 5]]")
    mm = 25.4
    art = drawn(s, Bounds(0, 0, 12 * mm, 12 * mm))
    box = bar_box(art)
    assert not on_terrain(art, box), corner(art)
    assert corner(art) != "lower left"
    for x, y, r in base_discs(art):
        nx, ny = min(max(x, box.x0), box.x1), min(max(y, box.y0), box.y1)
        assert (x - nx) ** 2 + (y - ny) ** 2 >= r * r


def test_bar_stays_in_the_lower_left_corner_when_that_corner_is_clear() -> None:
    s = board("[[10, 10], [14, 10], [14, 14], [10, 14]]", at=(6, 18))
    art = drawn(s, None)
    assert corner(art) == SCALE_BAR_CORNERS[0] == "lower left"
    assert not on_terrain(art, bar_box(art))


def test_bar_avoids_a_base_in_the_lower_left_corner() -> None:
    s = board("[[10, 10], [14, 10], [14, 14], [10, 14]]", at=(0.9, 0.9))
    art = drawn(s, None)
    assert corner(art) != "lower left"


def test_every_corner_covered_takes_the_corner_covering_fewest() -> None:
    # the ruin fills the whole view: every corner lies on it, the first corner is kept
    s = board("[[0, 0], [24, 0], [24, 24], [0, 24]]", at=(12, 12))
    art = drawn(s, Bounds(100, 100, 300, 300))
    assert corner(art) == "lower left"
    assert on_terrain(art, bar_box(art))


def test_the_zoomed_editor_draws_its_scale_bar_clear_of_the_building() -> None:
    """The board editor zoomed onto the 4' x 4' table's building, which fills the lower left
    of the view: the "2 in" bar goes to a corner off the building."""
    pytest.importorskip("anywidget")
    from fwwrules_widgets import BoardEditor

    table = fwwrules.load(Path(__file__).with_name("table-48.yaml"))
    ed = BoardEditor(table, interactive=True)
    mm = 25.4
    ed._show_view(Bounds(22 * mm, 22 * mm, 34 * mm, 34 * mm), final=True)
    assert ed.zoomed is not None and ed.artists is not None
    ed.view.figure.canvas.draw()
    assert "building" in {t.id for t in table.terrain}
    assert not on_terrain(ed.artists, bar_box(ed.artists)), corner(ed.artists)


def test_a_narrow_margin_puts_the_bar_inside_the_table_not_across_its_edge() -> None:
    # the editor frames a 24" table with 1" around it: the Axes' corner lies 1" off the table,
    # and the 2" bar anchored there lay across the table's edge (editor screenshot, 1280x800)
    s = board("[[10, 10], [12, 10], [12, 12], [10, 12]]", at=(4, 12))
    mm = 25.4
    art = drawn(s, Bounds(-1 * mm, -1 * mm, 25 * mm, 25 * mm))
    box = bar_box(art)
    (tx0, ty0), (tx1, ty1) = art.ax.transData.transform([(0, 0), (24 * mm, 24 * mm)])
    inside = tx0 <= box.x0 and box.x1 <= tx1 and ty0 <= box.y0 and box.y1 <= ty1
    outside = box.x1 <= tx0 or box.x0 >= tx1 or box.y1 <= ty0 or box.y0 >= ty1
    assert inside or outside, (box, (tx0, ty0, tx1, ty1))
    assert corner(art) == "lower left"  # the table's own lower left corner: nothing is there
    assert not on_terrain(art, box)


def test_a_wide_margin_keeps_the_bar_off_the_table() -> None:
    # the attack panel's framing leaves room beside the table: the bar stays off the play area
    s = board("[[10, 10], [11, 10], [11, 11], [10, 11]]")  # clear of the base at (12, 12)
    mm = 25.4
    art = drawn(s, Bounds(-6 * mm, -6 * mm, 30 * mm, 30 * mm))
    box = bar_box(art)
    (tx0, ty0), _ = art.ax.transData.transform([(0, 0), (24 * mm, 24 * mm)])
    assert box.x1 <= tx0 or box.y1 <= ty0, box


ARMED = """format: fwwrules/scenario@1
title: Scale bar and rings
rules: core
units: in
board: {{size: [24, 24]}}
models:
  - {{id: a, faction: brotherhood, base: 1.26, at: [{ax}, {ay}], skills: {{rifle: 6}},
     weapons: [gun]}}
  - {{id: b, faction: super-mutants, base: 1.26, at: [20, 20]}}
weapons:
  - {{id: gun, name: Gun, type: rifle, short: red, long: green}}
"""


@pytest.mark.parametrize("at", [(6, 6), (4, 8)])
def test_bar_keeps_clear_of_the_range_rings_and_the_ruling_lines(at: tuple[int, int]) -> None:
    # the short range ring ran under the "2 in" bar in the lower left corner
    import numpy as np

    from fwwrules.draw.labels import _crosses, line_segments, ring_edges

    s = fwwrules.loads(ARMED.format(ax=at[0], ay=at[1]))
    assert isinstance(s, Scenario)
    st = DEFAULT_STYLE
    art = draw_board(
        s, new_axes(st.figsize, st.dpi, st.margins), ruling=fwwrules.ruling(s, "a", "b")
    )
    art.figure.canvas.draw()
    rings = ring_edges(art)
    assert rings  # both rings drawn
    lines = np.asarray(rings + line_segments(art, outlines=False), dtype=float)
    box = bar_box(art)
    edges = (np.asarray([v], dtype=float) for v in (box.x0, box.y0, box.x1, box.y1))
    assert not _crosses(*edges, lines)[0], corner(art)
    assert not on_terrain(art, box)
