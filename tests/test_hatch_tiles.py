"""A dragged base's hatch from a kept tile (widgets/hatch_tiles.py): the frames are byte for
byte the ones a plain draw gives, at device pixel ratios 1 and 2, in English and German, at
sub-pixel positions, smoothed or drafted, for every side's look (black and white hatches)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest
from fwwrules_widgets import AttackPanel
from fwwrules_widgets.hatch_tiles import HatchTiles, TiledHatchRenderer
from fwwrules_widgets.view import set_pixel_ratio
from matplotlib.backend_bases import MouseEvent
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.patches import Circle, Rectangle

import fwwrules
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE
from fwwrules.draw.board import SIDE_PALETTE, hatch_colour

matplotlib.use("Agg")

TABLE = fwwrules.load(Path(__file__).with_name("table-48.yaml"))
assert isinstance(TABLE, Scenario)

STEPS = [(0.0, 0.0), (0.137, 0.091), (0.29, -0.4), (1.013, 0.55), (-2.47, 1.333), (5.5, -3.21)]
"""Moves of a base (board units): fractions of a pixel and a few whole ones."""

Frame = np.ndarray[Any, Any]


def _circle_frames(ratio: float, smooth: bool, tiles: HatchTiles | None) -> list[Frame]:
    """A base of every hatched side look at each of :data:`STEPS`, drawn over a background
    (a hatched piece and a line, so the base's smoothed edge blends over something), plainly
    or (``tiles``) from the kept tiles."""
    fig = Figure(figsize=(3.0, 2.0), dpi=100.0 * ratio)
    canvas = FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_xlim(0, 60)
    ax.set_ylim(0, 40)
    ax.add_patch(Rectangle((10, 8), 30, 22, facecolor="#E69F00", hatch="..", edgecolor="k"))
    ax.plot([0, 60], [17, 25], color="k", linewidth=1.3)
    style = DEFAULT_STYLE
    frames = []
    for colour, hatch in SIDE_PALETTE[1:]:
        base = Circle(
            (22.0, 18.0), 6.3, facecolor=colour, edgecolor=style.base_edge, hatch=hatch,
            hatchcolor=hatch_colour(colour), linewidth=style.base_linewidth,
            antialiased=smooth, animated=True,
        )  # fmt: skip
        base.set_hatch_linewidth(style.base_hatch_linewidth)
        ax.add_artist(base)
        canvas.draw()
        background = canvas.copy_from_bbox(fig.bbox)
        renderer = canvas.get_renderer()
        drawer: Any = renderer if tiles is None else TiledHatchRenderer(renderer, tiles)
        for dx, dy in STEPS:
            base.set_center((22.0 + dx, 18.0 + dy))
            canvas.restore_region(background)
            base.draw(drawer)
            frames.append(np.asarray(canvas.buffer_rgba()).copy())
        base.remove()
    return frames


def _assert_same(plain: list[Frame], tiled: list[Frame]) -> None:
    assert len(plain) == len(tiled)
    for k, (a, b) in enumerate(zip(plain, tiled, strict=True)):
        differ = np.any(a != b, axis=2)
        assert not differ.any(), f"frame {k}: {int(differ.sum())} pixels differ"


@pytest.mark.parametrize("ratio", [1.0, 2.0])
@pytest.mark.parametrize("smooth", [True, False], ids=["smoothed", "drafted"])
def test_every_side_look_is_drawn_as_the_plain_draw(ratio: float, smooth: bool) -> None:
    tiles = HatchTiles()
    _assert_same(_circle_frames(ratio, smooth, None), _circle_frames(ratio, smooth, tiles))
    assert len(tiles) == len(SIDE_PALETTE) - 1  # every look took the tiled way


def test_a_pattern_one_pixel_off_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison sees a tile laid one column off (the kind of slip it is there for)."""
    plain = _circle_frames(1.0, False, None)
    window = HatchTiles.window

    def one_off(self: HatchTiles, gc: Any, dpi: float, rows: Any, cols: Any) -> Frame:
        return window(self, gc, dpi, rows, (cols[0] + 1, cols[1] + 1))

    monkeypatch.setattr(HatchTiles, "window", one_off)
    with pytest.raises(AssertionError, match="pixels differ"):
        _assert_same(plain, _circle_frames(1.0, False, HatchTiles()))


def _drag_frames(ratio: float, lang: str, tiled: bool) -> list[Frame]:
    """Frames of the Waster dragged by :data:`STEPS` (then moved by the position controls)
    on the 4' table's attack panel, shown at ``ratio``."""
    panel = AttackPanel(TABLE, attacker="paladin", target="waster", lang=lang, interactive=False)
    view = panel.view
    if not tiled:
        view.hatch_tiles = None
    view.interactive = True  # each motion blits, as on the live board canvas
    set_pixel_ratio(view.figure, ratio)
    view.invalidate()
    canvas = view.figure.canvas
    base = panel.artists.bases["waster"]
    assert base.get_hatch(), "the second side's bases are hatched"
    x0, y0 = base.center
    px, py = view.ax.transData.transform((x0, y0))
    canvas.callbacks.process(
        "button_press_event", MouseEvent("button_press_event", canvas, px, py, button=1)
    )
    assert view.dragging == "waster"
    u = TABLE.unit_mm
    frames = []
    for dx, dy in STEPS[1:]:
        view.drag_to(x0 + dx * u, y0 + dy * u)
        frames.append(np.asarray(canvas.buffer_rgba()).copy())
    canvas.callbacks.process(
        "button_release_event", MouseEvent("button_release_event", canvas, px, py, button=1)
    )
    x, y = TABLE.model("waster").at
    for dx, dy in STEPS[1:3]:  # the position controls: a kept background and the base over it
        panel.move("waster", x + dx, y + dy)
        frames.append(np.asarray(canvas.buffer_rgba()).copy())
    assert view.hatch_tiles is None or len(view.hatch_tiles) == 1
    return frames


@pytest.mark.parametrize("ratio", [1.0, 2.0])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_drag_frames_are_the_plain_draws(ratio: float, lang: str) -> None:
    _assert_same(_drag_frames(ratio, lang, False), _drag_frames(ratio, lang, True))
