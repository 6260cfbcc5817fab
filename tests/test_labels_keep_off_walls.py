"""No label lies across the edge of a piece that blocks line of sight (a wall, a building)
while another place is free: a label box over a wall's edge makes the wall look gapped. The
48-inch table's blocked shot (Paladin Danse at the Raider Boss, through the Building) put the
blocked fan's note "× keine Sichtlinie: blockiert" and the short range's name on the Wall at
1920 px, because every nearer place crossed the fan and a ruling line ranked worse than a
terrain edge."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pytest
from matplotlib.figure import Figure

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.board import BoardArtists, frame_view
from fwwrules.draw.export import export_dpi
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import _crosses, _Obstacles, label_boxes, terrain_edges
from fwwrules.scenario import Scenario

matplotlib.use("Agg")

TABLE = Path(__file__).parent / "table-48.yaml"
WIDTHS = (780, 1280, 1920)
"""The render CLI's own size (scale 1), and the panels' 1280 and 1920 px windows."""


def table() -> Scenario:
    s = fwwrules.load(TABLE)
    assert isinstance(s, Scenario)
    return s


def drawn(lang: str, width: int) -> BoardArtists:
    """The 48-inch table with the blocked shot, as ``fwwrules render --width`` draws it."""
    st = DEFAULT_STYLE
    s = table()
    dpi = export_dpi(Figure(figsize=st.figsize, dpi=st.dpi), width=width)
    ruling = fwwrules.ruling(s, "paladin", "boss")
    art = draw_board(
        s,
        new_axes(st.figsize, dpi, st.margins),
        ruling=ruling,
        lang=lang,
        view=frame_view(s, "table", st),
        margin=True,
    )
    art.figure.canvas.draw()
    return art


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_no_label_lies_across_a_wall_or_a_building(lang: str, width: int) -> None:
    art = drawn(lang, width)
    walls = np.asarray(terrain_edges(art, blocking=True), dtype=float)
    assert len(walls) >= 8  # the Building's and the Wall's four edges each
    across = []
    for t, (x0, y0, x1, y1) in label_boxes(art):
        box = [np.asarray([v], dtype=float) for v in (x0, y0, x1, y1)]
        if _crosses(*box, walls)[0]:
            across.append(t.get_text())
    assert not across, across
    assert art.fan_label.get_visible()


def test_blocking_edges_are_only_the_pieces_that_block_line_of_sight() -> None:
    art = drawn("en", 780)
    every = set(terrain_edges(art))
    blocking = set(terrain_edges(art, blocking=True))
    other = set(terrain_edges(art, blocking=False))
    assert blocking | other == every
    assert not blocking & other
    assert len(blocking) == 8  # Building and Wall, not Crates nor Ruins


def test_a_place_across_a_ruling_line_beats_one_across_a_wall() -> None:
    # two candidates of a 10 x 10 box: the first across a wall's edge, the second across the
    # ruling's line; nothing else in the way
    wall = [(45.0, 0.0, 45.0, 100.0)]
    line = [(0.0, 75.0, 100.0, 75.0)]
    obstacles = _Obstacles((0.0, 0.0, 100.0, 100.0), [], major=line, blocking=wall)
    assert obstacles.best([(45.0, 20.0), (80.0, 75.0)], 10.0, 10.0) == (80.0, 75.0)
    # with a place clear of both, that one, even last
    assert obstacles.best([(45.0, 20.0), (80.0, 75.0), (80.0, 20.0)], 10.0, 10.0) == (80.0, 20.0)
    # with only places across a wall, the first of them: a label is never dropped for it
    assert obstacles.best([(45.0, 20.0), (45.0, 40.0)], 10.0, 10.0) == (45.0, 20.0)
