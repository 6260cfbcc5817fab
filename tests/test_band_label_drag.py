"""A range ring's name is never cut: on every frame (a drag step included, where the labels
are not placed again until the drop), its whole box, read from the figure as drawn, lies
inside the board's axes (and so inside the figure), in English and German."""

from __future__ import annotations

import matplotlib
import pytest

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board, update_board
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import label_boxes
from fwwrules.placement import move_model

matplotlib.use("Agg")

SPOTS = [(85.0, 90.0), (70.0, 250.0), (420.0, 60.0), (100.0, 160.0), (300.0, 280.0)]
"""Where the Knight is dragged on cover example 1: near the left edge (the frame where the
short ring's name was cut at the axes' edge), the corners, the middle."""


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("spot", SPOTS)
def test_band_labels_stay_inside_the_axes_while_the_attacker_is_dragged(
    lang: str, spot: tuple[float, float]
) -> None:
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    style = DEFAULT_STYLE
    ax = new_axes(style.figsize, style.dpi, style.margins)
    artists = draw_board(s, ax, ruling=fwwrules.ruling(s, "knight", "brute"), lang=lang)
    moved = move_model(s, "knight", *spot)
    r = fwwrules.ruling(moved, "knight", "brute")
    for drop in (False, True):  # a drag step, then the drop
        update_board(artists, moved, ruling=r, lang=lang, place_labels=drop, legend=drop)
        ax.figure.canvas.draw()
        frame = ax.bbox
        page = ax.figure.bbox
        shown = [
            (t.get_text(), box)
            for t, box in label_boxes(artists)
            if t in artists.band_labels.values()
        ]
        assert shown, "no range ring is named"
        for text, (x0, y0, x1, y1) in shown:
            where = f"{text!r} at {spot} ({'drop' if drop else 'drag'})"
            assert frame.x0 - 0.5 <= x0 and x1 <= frame.x1 + 0.5, where
            assert frame.y0 - 0.5 <= y0 and y1 <= frame.y1 + 0.5, where
            assert page.x0 <= x0 and x1 <= page.x1 and page.y0 <= y0 and y1 <= page.y1, where
