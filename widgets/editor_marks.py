"""What the board editor draws over the board (:func:`fwwrules.draw.draw_board`'s picture):
the selection, the pieces the file check names, the rotation handle, and the tools'
previews. Everything is in board millimetres, as the board is drawn.

The board itself is never restyled: a selected or flagged piece gets an outline over it
(blue for the selection, vermillion for a problem), not another look.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, PathPatch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Text

from fwwrules.constants import MM_PER_INCH
from fwwrules.data import Scenario
from fwwrules.draw import BoardStyle
from fwwrules.draw.board import terrain_patches
from fwwrules.draw.labels import PAD_PX

XY = tuple[float, float]

INVALID_COLOUR = "#D55E00"
"""A piece the file check names (Okabe-Ito vermillion), as the message lists it."""
SELECTED_COLOUR = "#0072B2"
"""The tools' previews (Okabe-Ito blue, dashed)."""
SELECTION_LOOK: dict[str, Any] = {"color": "#000000", "gapcolor": "#FFFFFF", "ls": (0, (2, 1.5))}
"""The selection ring: black and white dashes, which no side's colour or hatch looks like
(a ring in a side's colour read as a base of that side)."""
FLAGGED_LOOK: dict[str, Any] = {"color": INVALID_COLOUR, "gapcolor": "#FFFFFF", "ls": (0, (2, 1.5))}
"""A flagged piece's outline: vermillion and white dashes (not a solid ring, which read as a
base of the side drawn in vermillion)."""
RING_GAP_MM = 1.5
"""A base's selection ring lies this far outside its edge."""
RING_WIDTH_PT = 2.5
"""The selection ring's (and a flagged piece's outline's) line width, in points."""
RING_POINTS = 72
GRID_LINES = 200
"""Most lines of one kind of grid the editor lays over the table (1" and 6" lines); on a
larger table the grid is left out, so the drawing never grows with its size."""
GRID_COLOURS = ("#E6E6E6", "#C8C8C8")
"""The 1" grid and the 6" grid (inch boards): light, under the pieces."""


_TURN = np.linspace(0.0, 2.0 * np.pi, RING_POINTS + 1)
_UNIT = np.column_stack([np.cos(_TURN), np.sin(_TURN)])


def ring(x: float, y: float, r: float) -> np.ndarray[Any, np.dtype[np.float64]]:
    """A closed circle of ``RING_POINTS`` corners (for an outline drawn as a line)."""
    return _UNIT * r + (x, y)


Points = np.ndarray[Any, np.dtype[np.float64]]


def outline_mm(scenario: Scenario, ident: str) -> Points:
    """The outline the editor marks ``ident`` with (mm, ``n x 2``): a ring just outside a
    base, or a piece's own outline (the polygon the rules decide with)."""
    board = scenario.board
    if ident in board.models:
        d = board.models[ident].disc
        return ring(d.x, d.y, d.r + RING_GAP_MM)
    return np.asarray(board.terrain[ident].polygon.exterior.coords, dtype=float)


def _joined(parts: Iterable[Sequence[XY] | Points]) -> tuple[Points, Points]:
    """Outlines as one line's data, separated by NaN."""
    gap = np.full((1, 2), np.nan)
    blocks = [b for part in parts for b in (np.asarray(part, dtype=float).reshape(-1, 2), gap)]
    if not blocks:
        return np.empty(0), np.empty(0)
    both = np.concatenate(blocks)
    return both[:, 0], both[:, 1]


class EditorMarks:
    """The editor's artists over a drawn board on ``ax`` (made anew whenever the board is)."""

    def __init__(self, ax: Axes, style: BoardStyle) -> None:
        self.ax = ax
        self.style = style
        dashed: dict[str, Any] = {"fill": False, "edgecolor": SELECTED_COLOUR, "ls": "--"}
        self.grid = [Line2D([], [], color=c, lw=0.6, zorder=0.5) for c in GRID_COLOURS]
        # a selected piece with a problem is outlined red: the problem shows over the selection
        self.selection = Line2D([], [], lw=RING_WIDTH_PT, zorder=3.6, **SELECTION_LOOK)
        self.flagged = Line2D([], [], lw=RING_WIDTH_PT, zorder=3.65, **FLAGGED_LOOK)
        self.handle = Circle((0, 0), 1, facecolor="white", edgecolor=SELECTED_COLOUR,
                             lw=2, zorder=8, visible=False)  # fmt: skip
        self.ghost = PathPatch(Path([(0, 0)]), visible=False, zorder=1.9)
        self.preview = Circle((0, 0), 1, visible=False, zorder=9, lw=1.5, **dashed)
        self.rubber_band = Rectangle((0, 0), 0, 0, visible=False, zorder=9, lw=1.5, **dashed)
        self.corners = Line2D([], [], color=SELECTED_COLOUR, ls="--", lw=1.5, marker="o", ms=4,
                              zorder=9, visible=False)  # fmt: skip
        for a in (*self.grid, self.flagged, self.selection, self.corners):
            ax.add_line(a)
        for p in (self.handle, self.ghost, self.preview, self.rubber_band):
            ax.add_artist(p)

    @property
    def previews(self) -> list[Artist]:
        """The tools' previews (hidden between gestures)."""
        return [self.ghost, self.preview, self.rubber_band, self.corners]

    def show_grid(self, size: XY, units: str) -> None:
        """A light grid over a table of ``size`` (scenario units) from the origin: every inch
        and, on an inch board, every 6 inches, each one line artist (one artist per grid
        line would make every full draw several times slower); the snap grid is a quarter
        of it on inch boards. A grid of more than :data:`GRID_LINES` lines is left out."""
        u = MM_PER_INCH if units == "in" else 1.0
        w, h = size[0] * u, size[1] * u
        steps = [MM_PER_INCH, 6 * MM_PER_INCH] if units == "in" else [MM_PER_INCH, math.inf]
        for line, step in zip(self.grid, steps, strict=True):
            if not math.isfinite(step) or max(w, h) / step > GRID_LINES:
                line.set_data([], [])
                continue
            cuts = [k * step for k in range(1, int(w / step + 1e-9) + 1)]
            rows = [k * step for k in range(1, int(h / step + 1e-9) + 1)]
            line.set_data(
                *_joined([[(x, 0.0), (x, h)] for x in cuts] + [[(0.0, y), (w, y)] for y in rows])
            )

    def show(self, scenario: Scenario, selected: str | None, flagged: Iterable[str]) -> None:
        """Outline the selected model or piece and every flagged one of ``scenario``."""
        known = scenario.board.models.keys() | scenario.board.terrain.keys()
        self.flagged.set_data(*_joined(outline_mm(scenario, i) for i in flagged if i in known))
        chosen = [outline_mm(scenario, selected)] if selected in known else []
        self.selection.set_data(*_joined(chosen))

    def follow(self, scenario: Scenario, ident: str, flagged: Iterable[str]) -> None:
        """A dragged model's marks where it is now in ``scenario``: its selection ring (the
        red outlines too when it is one of the ``flagged``)."""
        if ident in flagged:
            self.show(scenario, ident, flagged)
            return
        self.selection.set_data(*_joined([outline_mm(scenario, ident)]))

    def name_below_ring(self, label: Text, scenario: Scenario, ident: str) -> None:
        """A dragged model's name (``label``, centred, its top at its position) just below
        its selection ring: a drag places no label (:func:`fwwrules.draw.update_board` with
        ``place_labels=False`` puts the name 1.5 mm under the base), so the name's box lay
        over the ring's lower dashes. The gap is the ring's half width, the name's box padding
        and the gap label placement keeps below a base (twice
        :data:`fwwrules.draw.labels.PAD_PX` and a pixel), in points, so it holds at any zoom
        and resolution and the name does not jump at the drop, whose placement treats the
        ring as part of the base (:data:`fwwrules.draw.labels.BASE_RINGS`); arithmetic only
        (no label placement on a drag step).

        Boundary cases: an ``ident`` that is not a model of ``scenario`` (a terrain piece)
        and a hidden label are left alone; a label without a box (never placed) keeps only
        the ring's half width and the room."""
        board = scenario.board
        if ident not in board.models or not label.get_visible():
            return
        d = board.models[ident].disc
        fig = self.ax.get_figure(root=True)
        dpi = 100.0 if fig is None else float(fig.dpi)
        (x0, _), (x1, _) = self.ax.transData.transform([(0.0, 0.0), (1.0, 0.0)])
        pt_per_mm = abs(float(x1 - x0)) * 72.0 / dpi
        patch = label.get_bbox_patch()
        pad_pt = 0.0 if patch is None else float(getattr(patch.get_boxstyle(), "pad", 0.0))
        room_pt = self.selection.get_linewidth() / 2 + pad_pt * float(label.get_fontsize())
        room_pt += 2 * PAD_PX * 72.0 / 100.0 + 72.0 / dpi  # the gap the drop's placing keeps
        below = d.r + RING_GAP_MM + (room_pt / pt_per_mm if pt_per_mm > 0 else 0.0)
        label.set_horizontalalignment("center")
        label.set_verticalalignment("top")
        label.set_position((d.x, d.y - below))

    def show_handle(self, at: XY | None, radius: float) -> None:
        """The rotation handle at ``at`` (mm), or none."""
        self.handle.set_visible(at is not None)
        if at is not None:
            self.handle.set_center(at)
            self.handle.set_radius(radius)

    def show_ghost(self, piece_scenario: Scenario | None) -> None:
        """A terrain piece where a drag puts it (a scenario holding just that piece), drawn
        as the board draws its kind; None hides it."""
        if piece_scenario is None or not piece_scenario.terrain:
            self.ghost.set_visible(False)
            return
        (patch,) = terrain_patches(piece_scenario, self.style).values()
        ghost = self.ghost
        ghost.set_path(patch.get_path())
        ghost.set_facecolor(patch.get_facecolor())
        ghost.set_edgecolor(patch.get_edgecolor())
        ghost.set_hatch(patch.get_hatch())
        ghost.set_linestyle(patch.get_linestyle())
        ghost.set_linewidth(patch.get_linewidth())
        ghost.set_visible(True)
        (ident,) = (t.id for t in piece_scenario.terrain)
        self.selection.set_data(*_joined([outline_mm(piece_scenario, ident)]))

    def show_corners(self, corners: Sequence[XY], mouse: XY | None) -> None:
        """The polygon being drawn: its corners, its open edges and the next edge to the
        mouse."""
        points = [*corners, *([mouse] if mouse is not None else [])]
        self.corners.set_data([p[0] for p in points], [p[1] for p in points])
        self.corners.set_visible(bool(points))

    def hide_previews(self) -> None:
        for a in self.previews:
            a.set_visible(False)
