"""Draw a scenario with matplotlib: bases, terrain, edges, and the geometry behind a ruling.

Coordinates
-----------
Everything is drawn in board millimetres (``scenario.board``), whatever the file's ``units``:
x grows to the right and **y grows upwards**, exactly as the scenario file's coordinates (the
origin is the lower left corner of the picture). The aspect is equal, so a 40 mm base is a
true circle of 40 mm; the axis labels say mm. Bases are exact :class:`~matplotlib.patches.Circle`
patches; round terrain is drawn from the same polygon the rules decide with.

Boundary cases
--------------
* A part that is missing is skipped, never guessed: no ruling, no ``sight`` in it, a board
  without Significant Edges. The artist stays in :class:`BoardArtists`, empty and invisible,
  so an update can fill it later.
* A ruling without a witness line and with ``line_of_sight`` False draws the blocked fan; a
  ruling whose ``line_of_sight`` is None (not asked) draws neither.
* A grazed piece is drawn with its own marker (diamond) and line style (dotted); it is never
  drawn as a crossing.
* Range rings are centred on the attacker at base radius + band end (the bands are measured
  from the base edge); a weapon without a long band has no long ring.

In-place updates
----------------
:func:`draw_board` builds the artists once; :func:`update_board` moves and re-labels the same
artists (``set_center``, ``set_data``, ``set_text``) for a changed scenario or ruling, so a
panel redraws once per change without rebuilding the figure. :func:`moving_artists` lists the
artists that change when one model moves (for blitting).
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.colors import to_hex
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, PathPatch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.typing import LineStyleType

from ..catalogue import LANGS, side_name
from ..checks import usable as checked_scenario
from ..elevation import pieces_under, significant_edges
from ..engagement import engagements as engagement_graph
from ..pieces import Bounds, EdgeRef, ModelRef, PieceRef, TerrainRef
from .artists import DEFAULT_STYLE as DEFAULT_STYLE
from .artists import BoardArtists as BoardArtists
from .artists import BoardStyle as BoardStyle
from .artists import TerrainLook as TerrainLook
from .artists import label_box as label_box
from .figure import figure_of, new_axes
from .layout import FIXED_SIZE, renderer_of, set_titles
from .margin import draw_margin, legend_proxy, margin_shown
from .text import draw_word

if TYPE_CHECKING:
    from ..data import Scenario
    from ..movement import SlideRuling, WithdrawRuling
    from ..rulings import AttackRuling

XY = tuple[float, float]

OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)
"""The Okabe-Ito palette, safe for the common colour-vision deficiencies."""

SIDE_PALETTE: tuple[tuple[str, str], ...] = (
    ("#0072B2", ""),  # blue
    ("#D55E00", "//"),  # vermillion
    ("#000000", ".."),  # black
    ("#F0E442", "xx"),  # yellow
    ("#88CCEE", "\\\\"),  # cyan
    ("#882255", "++"),  # wine
    ("#CC79A7", "--"),  # reddish purple
    ("#332288", "||"),  # indigo
)
"""Colour and hatch of the sides of a board, by side order (:func:`side_looks`): Okabe-Ito
and Paul Tol colours picked so that any two stay apart under simulated protanopia,
deuteranopia and tritanopia (CIELAB distance at least 17, ``tests/test_side_looks.py``),
each with a hatch of its own, so two sides never look alike, in print either. The cover
colour (orange) and the neutral grey are no side's."""

SIDE_LOOKS: Mapping[str, tuple[str, str]] = {
    "brotherhood": ("#0072B2", ""),
    "super-mutants": ("#D55E00", "//"),
    "survivors": ("#009E73", ".."),
    "raiders": ("#CC79A7", "xx"),
    "minutemen": ("#56B4E9", "\\\\"),
    "institute": ("#F0E442", "++"),
    "enclave": ("#332288", "oo"),
    "gunners": ("#117733", "--"),
    "children-of-atom": ("#DDCC77", "||"),
}
"""The old look of a side by its id alone (:func:`side_look` without an order), kept for
drawings that know one side at a time; boards use :func:`side_looks`."""

OTHER_SIDE_COLOURS: tuple[str, ...] = (
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
)
"""Paul Tol's muted palette, for :func:`side_look` of ids not in :data:`SIDE_LOOKS`."""
OTHER_SIDE_HATCHES: tuple[str, ...] = ("", "//", "..", "xx", "\\\\", "++", "oo", "--", "||")

RULER_COLOURS: Mapping[str, str] = {
    "orange": "#E69F00",
    "yellow": "#C9B200",
    "red": "#D62728",
    "green": "#009E73",
    "blue": "#0072B2",
    "black": "#000000",
}
"""The range rulers' own colours (yellow darkened to show on white)."""


def palette_look(position: int) -> tuple[str, str]:
    """``(colour, hatch)`` of the side at ``position`` (0 first) of a board: the palette's
    colours in order, then again with the hatches shifted, so no two of the first 64 sides
    share both.

    >>> palette_look(0), palette_look(1), palette_look(8)
    (('#0072B2', ''), ('#D55E00', '//'), ('#0072B2', '//'))
    """
    n = len(SIDE_PALETTE)
    colour = SIDE_PALETTE[position % n][0]
    hatch = SIDE_PALETTE[(position + position // n) % n][1]
    return colour, hatch


def side_order(scenario: Scenario) -> list[str]:
    """The sides of a board in order: those the file's ``sides`` lists, in its order, then
    the sides of the models in the order they come; neutral factions are no side."""
    order = dict.fromkeys(scenario.sides)
    for faction in dict.fromkeys(m.faction for m in scenario.models):
        if faction not in scenario.neutral:
            order.setdefault(scenario.side_of(faction))
    return list(order)


def side_looks(scenario: Scenario) -> dict[str, tuple[str, str]]:
    """``(colour, hatch)`` of every side of a board, by side order (:func:`side_order`,
    :func:`palette_look`): the first side blue, the second vermillion, and so on, so the
    sides of one board never look alike."""
    return {side: palette_look(i) for i, side in enumerate(side_order(scenario))}


def side_look(side: str, order: Sequence[str] | None = None) -> tuple[str, str]:
    """``(colour, hatch)`` of a side: by its place in ``order`` (a board's
    :func:`side_order`; a side not in it comes after them); without an order, the old look
    by the id alone (the fixed table, else a stable pick by the id's CRC).

    >>> side_look("raiders", ["brotherhood", "raiders"])
    ('#D55E00', '//')
    >>> side_look("brotherhood")
    ('#0072B2', '')
    """
    if order is not None:
        position = list(order).index(side) if side in order else len(order)
        return palette_look(position)
    if side in SIDE_LOOKS:
        return SIDE_LOOKS[side]
    h = zlib.crc32(side.encode("utf-8"))
    return (
        OTHER_SIDE_COLOURS[h % len(OTHER_SIDE_COLOURS)],
        OTHER_SIDE_HATCHES[(h // len(OTHER_SIDE_COLOURS)) % len(OTHER_SIDE_HATCHES)],
    )


def hatch_colour(face: str) -> str:
    """The colour a hatch is drawn in over ``face``: white on a dark face, black else."""
    from matplotlib.colors import to_rgb

    r, g, b = to_rgb(face)
    return "#FFFFFF" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.3 else "#000000"


CIRCLE_OUTLINE_POINTS = 97
"""Points of the *highlight outline* drawn around a base (the base itself is an exact Circle)."""


# --- small geometry helpers ------------------------------------------------------------------


def _nan_join(pieces: Iterable[Sequence[XY]]) -> tuple[list[float], list[float]]:
    """Polylines joined into one x/y list, separated by NaN (one artist, many pieces)."""
    xs: list[float] = []
    ys: list[float] = []
    for piece in pieces:
        if not piece:
            continue
        if xs:
            xs.append(math.nan)
            ys.append(math.nan)
        xs.extend(p[0] for p in piece)
        ys.extend(p[1] for p in piece)
    return xs, ys


def _set_pieces(line: Line2D, pieces: Iterable[Sequence[XY]]) -> None:
    xs, ys = _nan_join(pieces)
    line.set_data(xs, ys)
    line.set_visible(bool(xs))


def _circle_points(x: float, y: float, r: float) -> list[XY]:
    n = CIRCLE_OUTLINE_POINTS
    return [
        (x + r * math.cos(2 * math.pi * i / (n - 1)), y + r * math.sin(2 * math.pi * i / (n - 1)))
        for i in range(n)
    ]


def _edge_parts(scenario: Scenario, ref: EdgeRef) -> list[list[XY]]:
    """The parts (mm) of a Significant Edge (its piece and side, as rulings name it)."""
    edges = significant_edges(scenario.board)
    return [[_xy(e.a), _xy(e.b)] for e in edges if e.ref == ref]


def _outlines(scenario: Scenario, ref: PieceRef) -> list[list[XY]]:
    """The outline (mm) of a model, terrain piece (or touching pieces acting as one) or
    Significant Edge a ruling names; empty for an id the board does not know."""
    board = scenario.board
    if isinstance(ref, ModelRef):
        if ref.id not in board.models:
            return []
        d = board.models[ref.id].disc
        return [_circle_points(d.x, d.y, d.r)]
    if isinstance(ref, TerrainRef):
        return [
            [(float(x), float(y)) for x, y in board.terrain[tid].polygon.exterior.coords]
            for tid in ref.ids
            if tid in board.terrain
        ]
    return _edge_parts(scenario, ref)


def _anchor(scenario: Scenario, ref: PieceRef) -> XY | None:
    """Where to write a note about a piece: above a base, inside a terrain piece (the first
    of touching pieces), or at the middle of a Significant Edge."""
    board = scenario.board
    if isinstance(ref, ModelRef):
        if ref.id not in board.models:
            return None
        d = board.models[ref.id].disc
        return (d.x, d.y + d.r)
    if isinstance(ref, TerrainRef):
        if ref.ids[0] not in board.terrain:
            return None
        p = board.terrain[ref.ids[0]].polygon.representative_point()
        return (float(p.x), float(p.y))
    parts = _edge_parts(scenario, ref)
    if parts:
        (x0, y0), (x1, y1) = parts[0]
        return ((x0 + x1) / 2, (y0 + y1) / 2)
    return None


def _side_look(
    scenario: Scenario, faction: str, style: BoardStyle, order: Sequence[str] | None = None
) -> tuple[str, str, str]:
    """(side id, colour, hatch) for a faction: by the side's order on the board
    (:func:`side_looks`; ``order`` is :func:`side_order`, computed once by a caller that
    asks for many models); neutral factions grey."""
    if faction in scenario.neutral:
        return (faction, style.neutral_colour, style.neutral_hatch)
    side = scenario.side_of(faction)
    colour, hatch = side_look(side, side_order(scenario) if order is None else order)
    return (side, colour, hatch)


def tick_step(span: float, steps: tuple[float, ...], most: int = 12) -> float:
    """The first of ``steps`` that gives at most ``most`` ticks over ``span``; beyond the
    largest, a 1-2-5 step (times a power of ten) that does, so a table of any size gets about
    a dozen ticks, never one per inch of a mile-long board.

    >>> tick_step(24, (1.0, 2.0, 6.0, 12.0)), tick_step(1_000_000, (1.0, 2.0, 6.0, 12.0))
    (2.0, 100000.0)
    """
    for step in steps:
        if span / step <= most:
            return step
    raw = span / most
    power = 10.0 ** math.floor(math.log10(raw))
    return next(m * power for m in (1.0, 2.0, 5.0, 10.0) if m * power >= raw)


def _set_axes_units(ax: Axes, scenario: Scenario, style: BoardStyle, lang: str) -> None:
    """Axes in the scenario's units: ticks every inch (or 2, 6, 12 in on a big table) on an
    ``in`` board, every 50/100 mm on a ``mm`` board (on a larger table, steps that keep about a
    dozen ticks: :func:`tick_step`); the picture itself stays in mm."""
    from matplotlib.ticker import FuncFormatter, MultipleLocator

    u = scenario.unit_mm
    inches = scenario.units == "in"
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    span = max(abs(x1 - x0), abs(y1 - y0)) / u
    if inches:
        step = tick_step(span, (1.0, 2.0, 6.0, 12.0, 24.0))
        if style.grid_inches and span <= 72:  # a one-inch grid up to a 6-foot table
            step = 1.0
    else:
        step = tick_step(span, (10.0, 25.0, 50.0, 100.0, 200.0, 500.0))
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MultipleLocator(step * u))
        axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v / u:.4g}"))
    suffix = "-in" if inches else ""
    ax.set_xlabel(draw_word("x-axis" + suffix, lang), fontsize=style.font_size)
    ax.set_ylabel(draw_word("y-axis" + suffix, lang), fontsize=style.font_size)


def _add_scale_bar(ax: Axes, scenario: Scenario, style: BoardStyle) -> None:
    """A bar of 2 in (``in`` boards) or 50 mm in the lower left corner, labelled (moved to a
    corner clear of terrain and bases by :func:`fwwrules.draw.labels.place_scale_bar`)."""
    from matplotlib.offsetbox import AnchoredOffsetbox, AuxTransformBox, TextArea, VPacker
    from matplotlib.patches import Rectangle

    inches = scenario.units == "in"
    length = 2 * 25.4 if inches else 50.0
    text = _length(2.0, "in", "en") if inches else _length(50.0, "mm", "en", inches=False)
    bar = AuxTransformBox(ax.transData)
    bar.add_artist(Rectangle((0, 0), length, 0, fill=False, linewidth=3, edgecolor="black"))
    label = TextArea(text, textprops={"fontsize": style.font_size})
    box = VPacker(children=[bar, label], align="center", pad=0, sep=3)
    anchored = AnchoredOffsetbox(loc="lower left", child=box, pad=0.3, borderpad=0.4, frameon=True)
    anchored.patch.set_facecolor("white")
    anchored.patch.set_alpha(0.8)
    anchored.patch.set_edgecolor("none")
    anchored.set_zorder(7)
    ax.add_artist(anchored)
    ax._fwwrules_scale_bar = anchored  # type: ignore[attr-defined]


def _piece_label(scenario: Scenario, ref: PieceRef, lang: str) -> str:
    """A piece's display name in ``lang`` (its id when it has none); touching pieces joined by
    " + "."""
    names = scenario.display_names(lang)
    if isinstance(ref, TerrainRef):
        return " + ".join(names.get(tid, tid) for tid in ref.ids)
    if isinstance(ref, ModelRef):
        return names.get(ref.id, ref.id)
    return ref.name


def fit_limits(ax: Axes, limits: Bounds) -> None:
    """Set ``ax``'s limits to ``limits`` widened on the shorter side so that, at equal
    aspect, the board fills the Axes' box (no empty bands around a long, narrow board)."""
    x0, y0, x1, y1 = limits
    figure = figure_of(ax)
    pos = ax.get_position(original=True)
    w_in, h_in = figure.get_size_inches()
    box = (w_in * pos.width) / (h_in * pos.height)
    dx, dy = x1 - x0, y1 - y0
    if dx / dy < box:
        grow = (dy * box - dx) / 2
        x0, x1 = x0 - grow, x1 + grow
    else:
        grow = (dx / box - dy) / 2
        y0, y1 = y0 - grow, y1 + grow
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)


@functools.lru_cache(maxsize=1024)
def _length(value: float, units: str, lang: str, *, inches: bool = True) -> str:
    """A length as the catalogue writes it (:func:`fwwrules.catalogue.length`), never broken
    across lines (no-break spaces); each length once per process (a board of hundreds of
    pieces of three heights formats three)."""
    from ..catalogue import length

    return length(value, units, lang, inches=inches).replace(" ", "\u00a0")


TERRAIN_DRAW_ORDER: tuple[str, ...] = ("area", "dense-area", "scenery", "cover", "blocking")
"""Terrain kinds from bottom to top: ground areas under the pieces standing on them."""


def terrain_patches(scenario: Scenario, style: BoardStyle = DEFAULT_STYLE) -> dict[str, PathPatch]:
    """One patch per terrain kind on the board, keyed by kind, bottom kind first.

    Each patch is a compound path of the outlines (the polygons the rules decide with) of
    every piece of that kind, each turned counter-clockwise, so the non-zero fill covers
    the union of the pieces and one hatch is laid over all of them: the cost of drawing
    the board grows with the number of kinds, not of pieces (a file may hold
    ``MAX_TERRAIN`` pieces). Each piece's outline is still stroked.

    Boundary cases: a kind without pieces has no patch; overlapping pieces of one kind are
    filled once (a translucent area is not darker where two areas overlap); a kind the style
    does not know is drawn as scenery, above the known kinds; holes of a polygon are not
    drawn (the outline is).
    """
    paths: dict[str, list[Path]] = {}
    for t in scenario.terrain:
        ring = scenario.board.terrain[t.id].polygon.exterior
        coords = list(ring.coords) if ring.is_ccw else list(ring.coords)[::-1]
        paths.setdefault(t.kind, []).append(Path(coords, closed=True))
    rank = {kind: i for i, kind in enumerate(TERRAIN_DRAW_ORDER)}
    out: dict[str, PathPatch] = {}
    for i, kind in enumerate(sorted(paths, key=lambda k: (rank.get(k, len(rank)), k))):
        look = style.terrain_look(kind)
        out[kind] = PathPatch(
            Path.make_compound_path(*paths[kind]),
            facecolor=look.face,
            edgecolor=look.edge,
            hatch=look.hatch or None,
            linestyle=look.linestyle,
            alpha=look.alpha,
            zorder=1 + i / 100,
            label=kind,
        )
    return out


# --- the table and the view ---------------------------------------------------------------------

VIEW_MARGIN = 0.03
"""Room shown around the table, as a fraction of its larger side (at least a millimetre), so
that the table's outline is drawn inside the board's frame, never on it."""

FRAMES = ("table", "models")
"""What a picture shows (:func:`frame_view`): the whole table, or the models with a margin."""


def _grown(b: Bounds, by: float) -> Bounds:
    return Bounds(b.xmin - by, b.ymin - by, b.xmax + by, b.ymax + by)


def table_view(scenario: Scenario, style: BoardStyle = DEFAULT_STYLE) -> Bounds:
    """The whole table (:meth:`fwwrules.data.Scenario.limits_mm`: ``board.size`` from the
    origin, or the contents' bounding box plus ``style.margin_mm``) with :data:`VIEW_MARGIN`
    around it, in board millimetres."""
    t = scenario.limits_mm(style.margin_mm)
    return _grown(t, max(1.0, VIEW_MARGIN * max(t.xmax - t.xmin, t.ymax - t.ymin)))


def frame_view(
    scenario: Scenario, frame: str = "table", style: BoardStyle = DEFAULT_STYLE
) -> Bounds:
    """The view a picture shows: ``"table"`` (the whole table, :func:`table_view`) or
    ``"models"`` (every base with ``style.margin_mm`` around them; the table when the board
    has no models). Raises :class:`~fwwrules.errors.QueryError` for another frame.

    >>> import fwwrules
    >>> s = fwwrules.loads("format: fwwrules/scenario@1\\nboard: {size: [1000, 1000]}\\n"
    ...     "models: [{id: a, faction: x, base: 40, at: [100, 100]}]")
    >>> frame_view(s, "models")
    Bounds(xmin=50.0, ymin=50.0, xmax=150.0, ymax=150.0)
    """
    from ..errors import QueryError

    if frame not in FRAMES:
        raise QueryError(f"unknown frame {frame!r}; expected one of {', '.join(FRAMES)}")
    discs = [g.disc for g in scenario.board.models.values()]
    if frame == "table" or not discs:
        return table_view(scenario, style)
    box = Bounds(
        min(d.x - d.r for d in discs),
        min(d.y - d.r for d in discs),
        max(d.x + d.r for d in discs),
        max(d.y + d.r for d in discs),
    )
    return _grown(box, style.margin_mm)


def _table_outline(ax: Axes, scenario: Scenario, style: BoardStyle) -> Rectangle:
    """The table's edge (:meth:`~fwwrules.data.Scenario.limits_mm`), under everything; hidden
    for a board without ``board.size`` (:func:`_set_table`)."""
    outline = Rectangle(
        (0.0, 0.0), 1.0, 1.0, fill=False, edgecolor=style.table_colour,
        linewidth=style.table_linewidth, zorder=0.9, gid="table",
    )  # fmt: skip
    ax.add_artist(outline)
    _set_table(outline, scenario, style)
    return outline


def _set_table(outline: Rectangle, scenario: Scenario, style: BoardStyle) -> None:
    """The outline follows the table; a board whose file gives no size has no table edge
    (its limits follow the contents and would move while a model is dragged), so its
    outline is hidden: an edge is drawn only where the file says the table ends."""
    t = scenario.limits_mm(style.margin_mm)
    outline.set_bounds(t.xmin, t.ymin, t.xmax - t.xmin, t.ymax - t.ymin)
    outline.set_visible(scenario.board_size is not None)


def set_view(artists: BoardArtists, scenario: Scenario, view: Bounds | None) -> None:
    """Show ``view`` (board millimetres; None: the whole table) on a drawn board and lay it
    out again (labels placed for the new scale). Draws nothing: the caller redraws."""
    artists.state["view"] = view or table_view(scenario, artists.style)
    lay_out(artists, scenario, str(artists.state.get("title_text", artists.title.get_text())))


# --- drawing -----------------------------------------------------------------------------------


def draw_board(
    scenario: Scenario,
    ax: Axes | None = None,
    *,
    style: BoardStyle = DEFAULT_STYLE,
    ruling: AttackRuling | None = None,
    lang: str = "en",
    show_bands: bool = True,
    engagements: bool = True,
    into_melee: bool = True,
    slide: SlideRuling | None = None,
    withdraw: WithdrawRuling | None = None,
    view: Bounds | None = None,
    margin: bool = False,
    flagged: bool = False,
) -> BoardArtists:
    """Draw ``scenario`` (and, when given, a ruling, slide or withdrawal) on ``ax``.

    Without ``ax`` a figure of ``style.figsize`` is made with pyplot (so a notebook shows it),
    laid out with fixed margins and the legend at the right. Returns the artists; pass them
    to :func:`update_board` to show another ruling or moved models without redrawing all.

    ``slide`` is a slide ruling (``fwwrules.slide``), ``withdraw`` a withdrawal ruling
    (``fwwrules.withdraw``); ``engagements`` draws the engagement links of
    :func:`fwwrules.engagement.engagements`.

    ``view`` is the part of the table to show, in board millimetres (``Bounds(xmin, ymin,
    xmax, ymax)``, widened on its shorter side to fill the board's box); None shows the
    whole table (:func:`table_view`). :func:`frame_view` gives the view of the models, and
    :func:`set_view` changes the view of a drawn board (a panel's zoom and pan).

    With ``margin`` a ruling that is a knife-edge call shows its pinch point and the move that
    changes it (:mod:`fwwrules.draw.margin`); off by default (it asks the ruling's margins).

    A scenario the file check refuses is refused here too (a board built in Python too),
    unless ``flagged``: the board editor draws a board with problems as it is, and outlines
    the pieces concerned itself.
    """
    if not flagged:
        scenario = checked_scenario(scenario, "draw_board")
    if ax is None:
        ax = new_axes(style.figsize, style.dpi, style.margins, pyplot=True)
    view = view or table_view(scenario, style)
    fit_limits(ax, view)
    ax.set_aspect("equal", adjustable="box")
    ax.autoscale(False)
    artists = _board_artists(ax, scenario, style, view, lang)
    return update_board(
        artists,
        scenario,
        ruling=ruling,
        lang=lang,
        show_bands=show_bands,
        engagements=engagements,
        into_melee=into_melee,
        slide=slide,
        withdraw=withdraw,
        margin=margin,
    )


def _board_artists(
    ax: Axes, scenario: Scenario, style: BoardStyle, view: Bounds, lang: str
) -> BoardArtists:
    """Every artist of a board picture, made empty or hidden where a ruling fills them."""
    # The artists are made in drawing order (equal zorders draw in the order they were added).
    terrain, edges, bases, labels = _piece_artists(ax, scenario, style)
    bands = _band_circles(ax, style)
    lines = _ruling_lines(ax, style)
    slide_ghost = Circle((0.0, 0.0), 1.0, fill=False, linewidth=2.0, zorder=4.5, visible=False)
    ax.add_patch(slide_ghost)
    fan_label, slide_label = _note_labels(ax, style)
    _decorate_axes(ax, scenario, style, lang)

    artists = BoardArtists(
        figure=figure_of(ax),
        ax=ax,
        style=style,
        bases=bases,
        labels=labels,
        terrain=terrain,
        terrain_labels={},  # made by update_board, only for pieces that show one
        edges=edges,
        sight=lines["sight"],
        fan=lines["fan"],
        fan_label=fan_label,
        blockers=lines["blockers"],
        loc=lines["loc"],
        cover_outline=lines["cover_outline"],
        crossings=lines["crossings"],
        crossing_points=lines["crossing_points"],
        grazes=lines["grazes"],
        graze_points=lines["graze_points"],
        ignored=lines["ignored"],
        ignored_labels=[],
        bands=bands,
        engagements=lines["engagements"],
        numbers=[],
        slide_ghost=slide_ghost,
        slide_path=lines["slide_path"],
        slide_label=slide_label,
        slide_breaks=lines["slide_breaks"],
        free_attacks=[],
        title=ax.title,
        state={
            "animated": False,
            "terrain_drawn": frozenset(t.id for t in scenario.terrain),
            "view": view,
        },
        table=_table_outline(ax, scenario, style),
        leaders=_leader_line(ax, style),
    )
    return artists


def _leader_line(ax: Axes, style: BoardStyle) -> Line2D:
    """The (empty) leader lines of names placed away from what they name."""
    line = Line2D(
        [], [], color=style.leader_colour, linewidth=style.leader_linewidth,
        zorder=2.9, visible=False, solid_capstyle="round",
    )  # fmt: skip
    ax.add_line(line)
    return line


def _piece_artists(
    ax: Axes, scenario: Scenario, style: BoardStyle
) -> tuple[dict[str, PathPatch], Line2D, dict[str, Circle], dict[str, Text]]:
    """The terrain (one patch per kind), the Significant Edges' line (filled by
    :func:`update_board`), and each model's base with its label."""
    terrain = terrain_patches(scenario, style)
    for patch in terrain.values():
        ax.add_artist(patch)
    edges = Line2D(
        [],
        [],
        color=style.edge_colour,
        linewidth=style.edge_linewidth,
        linestyle=style.edge_linestyle,
        zorder=2,
    )
    ax.add_line(edges)
    bases: dict[str, Circle] = {}
    labels: dict[str, Text] = {}
    order = side_order(scenario)
    for m in scenario.models:
        _add_base(ax, scenario, m.id, style, bases, labels, order)
    return terrain, edges, bases, labels


def _band_circles(ax: Axes, style: BoardStyle) -> dict[str, Circle]:
    """The short and long range rings (hidden until a ruling has a band)."""
    bands = {
        name: Circle(
            (0.0, 0.0),
            1.0,
            fill=False,
            edgecolor=style.band_colours[i],
            linestyle=style.band_linestyles[i],
            linewidth=style.band_linewidth,
            zorder=1.5,
            visible=False,
        )
        for i, name in enumerate(("short", "long"))
    }
    for c in bands.values():
        ax.add_patch(c)
    return bands


def _ruling_lines(ax: Axes, style: BoardStyle) -> dict[str, Line2D]:
    """The (hidden, empty) lines and markers a ruling, a slide or a withdrawal fills, by the
    name of their :class:`BoardArtists` field, added in drawing order."""

    def line(zorder: float, **kw: Any) -> Line2D:
        ln = Line2D([], [], zorder=zorder, visible=False, **kw)
        ax.add_line(ln)
        return ln

    def markers(zorder: float, colour: str, marker: str, size: float, **kw: Any) -> Line2D:
        return line(
            zorder, color=colour, linestyle="none", marker=marker, markersize=size,
            markeredgecolor="black", **kw,
        )  # fmt: skip

    out: dict[str, Line2D] = {}
    out["engagements"] = line(
        3.2,
        color=style.engaged_colour,
        linewidth=style.engaged_linewidth,
        solid_capstyle="round",
        alpha=0.8,
    )
    out["blockers"] = line(4.0, color=style.blocker_colour, linewidth=2.5)
    # The sight, the fan and the Line of Cover run below the bases: a base a few pixels across
    # keeps its side's colour (the lines join the bases; inside them they tell nothing).
    out["fan"] = line(
        2.85,
        color=style.fan_colour,
        alpha=style.fan_alpha,
        linestyle=style.fan_linestyle,
        linewidth=1.2,
    )
    out["ignored"] = line(
        4.2, color=style.ignored_colour, linestyle=style.ignored_linestyle, linewidth=1.8
    )
    out["cover_outline"] = line(4.3, color=style.cover_colour, linewidth=style.cover_linewidth)
    out["grazes"] = line(
        4.4, color=style.graze_colour, linestyle=style.graze_linestyle, linewidth=2.0
    )
    out["loc"] = line(
        2.95, color=style.loc_colour, linestyle=style.loc_linestyle, linewidth=style.loc_linewidth
    )
    out["crossings"] = line(4.6, color=style.cover_colour, linewidth=style.cover_linewidth + 1.0)
    out["sight"] = line(2.9, color=style.los_colour, linewidth=style.los_linewidth)
    size = style.marker_size
    out["crossing_points"] = markers(4.8, style.cover_colour, style.crossing_marker, size)
    out["graze_points"] = markers(4.8, style.graze_colour, style.graze_marker, size)
    out["slide_path"] = line(4.5, color=style.slide_legal_colour, linestyle=":", linewidth=1.2)
    out["slide_breaks"] = markers(
        5.5, style.slide_illegal_colour, style.slide_break_marker, size * 1.6, markeredgewidth=1.0
    )
    return out


def _note_labels(ax: Axes, style: BoardStyle) -> tuple[Text, Text]:
    """The blocked fan's note and the slide's note (hidden until used)."""
    fs = style.font_size
    note_box = label_box(style)
    fan_label = ax.text(
        0, 0, "", fontsize=fs, color=style.fan_colour, ha="center", va="center",
        zorder=style.label_zorder + 0.1, visible=False, bbox=note_box,
    )  # fmt: skip
    slide_label = ax.text(
        0, 0, "", fontsize=fs, ha="center", va="bottom", zorder=style.label_zorder + 0.1,
        visible=False, bbox=note_box,
    )  # fmt: skip
    return fan_label, slide_label


def _decorate_axes(ax: Axes, scenario: Scenario, style: BoardStyle, lang: str) -> None:
    """Axis units, tick labels, the inch grid and the scale bar, as the style asks."""
    _set_axes_units(ax, scenario, style, lang)
    ax.tick_params(labelsize=style.font_size)
    if style.grid_inches:
        ax.grid(True, which="major", color="#DDDDDD", linewidth=0.6, zorder=0)
        ax.set_axisbelow(True)
    if style.scale_bar:
        _add_scale_bar(ax, scenario, style)


def _add_base(
    ax: Axes,
    scenario: Scenario,
    model_id: str,
    style: BoardStyle,
    bases: dict[str, Circle],
    labels: dict[str, Text],
    order: Sequence[str] | None = None,
) -> None:
    m = scenario.model(model_id)
    d = scenario.board.models[model_id].disc
    _, colour, hatch = _side_look(scenario, m.faction, style, order)
    base = Circle(
        (d.x, d.y),
        d.r,
        facecolor=colour,
        edgecolor=style.base_edge,
        hatch=hatch or None,
        hatchcolor=hatch_colour(colour),
        alpha=style.base_alpha,
        linewidth=style.base_linewidth,
        zorder=3,
        label=model_id,
        picker=True,
    )
    thinner = getattr(base, "set_hatch_linewidth", None)  # matplotlib 3.10 and later
    if thinner is not None:
        thinner(style.base_hatch_linewidth)
    # add_artist, not add_patch: the limits are fixed (autoscale off), and updating the data
    # limits with every base's path is a noticeable part of drawing a full board.
    ax.add_artist(base)
    bases[model_id] = base
    labels[model_id] = ax.text(
        d.x,
        d.y - d.r - 1.5,
        "",
        fontsize=style.font_size,
        ha="center",
        va="top",
        zorder=style.label_zorder,
        gid=f"model:{model_id}",
        parse_math=False,
    )  # its box is made when it is placed (fwwrules.draw.labels): most of 200 never are


def _add_terrain_label(ax: Axes, style: BoardStyle) -> Text:
    return ax.text(
        0.0,
        0.0,
        "",
        fontsize=style.font_size,
        ha="center",
        va="center",
        zorder=style.label_zorder,
        parse_math=False,
    )  # its box is made when it is placed (fwwrules.draw.labels)


def update_board(
    artists: BoardArtists,
    scenario: Scenario,
    *,
    ruling: AttackRuling | None = None,
    lang: str = "en",
    show_bands: bool = True,
    engagements: bool = True,
    into_melee: bool = True,
    slide: SlideRuling | None = None,
    withdraw: WithdrawRuling | None = None,
    place_labels: bool = True,
    legend: bool = True,
    margin: bool = False,
) -> BoardArtists:
    """Bring ``artists`` in line with ``scenario`` and the given rulings, in place.

    Moves bases (``set_center``) and labels, refills every overlay (``set_data``,
    ``set_text``), and relabels the legend for ``lang``. With ``place_labels`` (the default)
    every label is then moved to a free place (:func:`fwwrules.draw.labels.place_labels`);
    a drag passes False and places them once on the drop. A drag also passes
    ``legend=False``: the legend is part of the cached background, so it is brought up to
    date once, on the drop, not on every motion; only its knife-edge entry follows the
    marks at once (a drag hides them, so the legend drops the entry with them, once per
    drag: it may not name a mark the picture does not show). With ``margin`` a ruling that is a
    knife-edge call shows its pinch point and the move that changes it
    (:mod:`fwwrules.draw.margin`; off by default: it asks the ruling's margins; without it
    no marks are shown). Draws nothing: the caller redraws once (``fig.canvas.draw_idle()``)
    or blits :func:`moving_artists`.
    """
    draw_word("board", lang)  # checks lang
    # What this picture shows, so that it can be drawn again in another language or frame
    # (fwwrules.draw.export.save_picture(..., lang=("en", "de"), frame="models")).
    artists.state["drawn"] = {
        "scenario": scenario, "ruling": ruling, "show_bands": show_bands,
        "engagements": engagements, "into_melee": into_melee, "slide": slide,
        "withdraw": withdraw, "margin": margin,
    }  # fmt: skip
    artists.figure._fwwrules_board = artists  # type: ignore[attr-defined]
    artists.state.pop("placed_out", None)  # the labels are shown (or not) below
    style = artists.style
    ax = artists.ax
    board = scenario.board
    _update_bases(artists, scenario, lang, changed_only=not place_labels)
    _update_terrain_labels_once(artists, scenario, lang, place_labels)
    if artists.table is not None:
        _set_table(artists.table, scenario, style)

    # Significant Edges.
    edges = significant_edges(board)
    _set_pieces(artists.edges, [[_xy(e.a), _xy(e.b)] for e in edges])

    _draw_sight(artists, scenario, ruling, lang)
    _draw_bands(artists, scenario, ruling if show_bands else None, lang)
    _draw_engagements(artists, scenario, engagements)
    _draw_numbers(artists, scenario, ruling if into_melee else None)
    draw_margin(artists, scenario, ruling.knife_edge() if margin and ruling else None, lang)
    _draw_slide(artists, scenario, slide, lang)
    _draw_withdraw(artists, scenario, withdraw)

    title = _set_titles(ax, scenario, ruling, lang)
    artists.title.set_fontsize(style.font_size + 1)
    artists.state["lang"] = lang
    artists.state["title_text"] = title
    _set_caption(artists, scenario, ruling, lang)

    rebuilt_in_drag = not legend and _knife_edge_entry_stale(artists)
    if legend or rebuilt_in_drag:
        _update_legend(artists, scenario, lang)
    if place_labels:
        lay_out(artists, scenario, title)
    else:
        _drag_layout(artists, title, rebuilt_in_drag)
        for label in (*artists.labels.values(), *artists.terrain_labels.values()):
            if label.get_bbox_patch() is None:  # never placed: no room for it on the board
                label.set_visible(False)
    return artists


def _update_terrain_labels_once(
    artists: BoardArtists, scenario: Scenario, lang: str, place_labels: bool
) -> None:
    """The terrain labels brought up to date; a drag (no labels placed) leaves the terrain as
    it was: its labels stay where the last placement put them, not made again on every motion
    (a tenth of a drag frame)."""
    now = (scenario.terrain, scenario.units, lang)
    if place_labels or artists.state.get("terrain_labelled") != now:
        _update_terrain_labels(artists, scenario, lang)
        artists.state["terrain_labelled"] = now


def _wrap_title_once(artists: BoardArtists, title: str) -> None:
    """The title wrapped to the room the Axes gives it now (:func:`~.layout.wrap_title`),
    unless it already shows ``title`` wrapped for the same room: a drag's motions mostly
    keep the title, and measuring it is a third of a drag frame's updating."""
    from .layout import wrap_title

    ax = artists.ax
    room = (title, tuple(ax.get_position(original=True).bounds), artists.figure.dpi)
    done = artists.state.get("title_wrapped")
    if done is not None and done == (room, ax.title.get_text()):
        return
    wrap_title(ax, title)
    artists.state["title_wrapped"] = (room, ax.title.get_text())


def _set_titles(ax: Axes, scenario: Scenario, ruling: AttackRuling | None, lang: str) -> str:
    """The title in ``lang``; every language's kept for the layout (:func:`~.layout.set_titles`,
    each made when it is first read)."""
    titles = _Titles(scenario, ruling)
    set_titles(ax, titles)
    return titles.made(lang)


class _Titles:
    """The picture's title in every language (:func:`~.layout.set_titles`), each made when it
    is first read (the layout reads them all; a drag step only the panel's language)."""

    __slots__ = ("_made", "_ruling", "_scenario")

    def __init__(self, scenario: Scenario, ruling: AttackRuling | None) -> None:
        self._scenario, self._ruling = scenario, ruling
        self._made: dict[str, str] = {}

    def made(self, lang: str) -> str:
        found = self._made.get(lang)
        if found is None:
            found = self._made[lang] = _title(self._scenario, self._ruling, lang)
        return found

    def __iter__(self) -> Iterator[str]:
        return (self.made(lang) for lang in LANGS)


def _title(scenario: Scenario, ruling: AttackRuling | None, lang: str) -> str:
    """The picture's title: the board's (its file's title in ``lang``), then the ruling's
    headline."""
    title = scenario.title_in(lang) or draw_word("board", lang)
    return title if ruling is None else f"{title}\n{ruling.headline(lang)}"


def _standing_text(scenario: Scenario, model_id: str, lang: str) -> str:
    """`` on <piece>`` when the model stands on a piece (``elevation.standing-on``, the
    placement rule: the highest piece under it), else nothing."""
    under = pieces_under(scenario, model_id)
    if not under:
        return ""
    name = scenario.display_names(lang).get(under[0], under[0])
    return " " + draw_word("on-piece", lang).replace("{piece}", name)


def _update_bases(
    artists: BoardArtists, scenario: Scenario, lang: str, *, changed_only: bool = False
) -> None:
    """Every model's base and label where the scenario has it (new models get theirs);
    models no longer in the scenario are hidden. With ``changed_only`` (a drag, where no
    label is placed) a model drawn as it is now is left alone (its label where the last
    placement put it)."""
    style = artists.style
    board = scenario.board
    drawn: dict[str, tuple[Any, ...]] = artists.state.setdefault("bases_drawn", {})
    for m in scenario.models:
        now = (m, scenario.terrain, lang, scenario.units, artists.state.get("min_base_mm"))
        if changed_only and drawn.get(m.id) == now:
            continue
        drawn[m.id] = now
        if m.id not in artists.bases:
            _add_base(artists.ax, scenario, m.id, style, artists.bases, artists.labels)
            _animate([artists.bases[m.id], artists.labels[m.id]], artists.state["animated"])
        d = board.models[m.id].disc
        base = artists.bases[m.id]
        base.set_center((d.x, d.y))
        base.set_radius(max(d.r, float(artists.state.get("min_base_mm", 0.0))))
        base.set_visible(True)
        text = m.label_in(lang) + _standing_text(scenario, m.id, lang)
        if m.elevation:
            text += f" ↑{_length(m.elevation, scenario.units, lang)}"
        lab = artists.labels[m.id]
        lab.set_position((d.x, d.y - d.r - 1.5))
        lab.set_horizontalalignment("center")
        lab.set_verticalalignment("top")
        lab.set_text(text)
        lab.set_visible(True)
    for mid in artists.bases.keys() - board.models.keys():
        artists.bases[mid].set_visible(False)
        artists.labels[mid].set_visible(False)


def _update_terrain_labels(artists: BoardArtists, scenario: Scenario, lang: str) -> None:
    """Terrain labels: name and height (unnamed pieces without a height only when the style
    asks: on a crowded board forty ids cost more to draw than everything else).

    A label is made only for as many pieces as the board has room for after the models'
    (:func:`fwwrules.draw.labels.label_room`); the pieces left without one are counted in
    the key's last line ("+ 412 more labels not shown"), like labels that find no place.
    """
    from .labels import label_room

    style = artists.style
    board = scenario.board
    outlines: dict[int, list[XY]] = artists.state.setdefault("terrain_label_of", {})
    room = label_room(artists) - len(scenario.models)
    unlabelled = 0
    for t in scenario.terrain:
        named = t.name is not None or t.height is not None or style.label_unnamed_terrain
        lines = [t.label_in(lang)] if named else []
        if t.height is not None:
            lines.append(f"{draw_word('height', lang)} {_length(t.height, scenario.units, lang)}")
        tl = artists.terrain_labels.get(t.id)
        if tl is None:
            if not lines or t.id not in artists.state.get("terrain_drawn", ()):
                continue
            if len(artists.terrain_labels) >= room:
                unlabelled += 1
                continue
            tl = _add_terrain_label(artists.ax, style)
            _animate([tl], artists.state["animated"])
            artists.terrain_labels[t.id] = tl
        tl.set_text("\n".join(lines))
        tl.set_visible(bool(lines))
        polygon = board.terrain[t.id].polygon
        p = polygon.representative_point()
        tl.set_position((float(p.x), float(p.y)))
        outlines[id(tl)] = [(float(x), float(y)) for x, y in polygon.exterior.coords]
    artists.state["unlabelled"] = unlabelled


FIXED_SIZE_GID = FIXED_SIZE
"""The gid of a figure that must keep its size (a panel's canvas): its key moves below the
board when the column cannot hold it, where any other figure grows taller instead."""


def lay_out(artists: BoardArtists, scenario: Scenario, title: str) -> None:
    """Fit the picture into its figure and place every label (:mod:`fwwrules.draw.layout`,
    :mod:`fwwrules.draw.labels`): the board's Axes moves to leave room for the title, the
    axis labels, the legend column and the caption; its limits are set again to fill it;
    bases too small to see are drawn at the smallest size (:func:`fit_small_bases`); the
    range rings' names go where the rings show; then the labels are placed and the key goes
    under the legends. When the column cannot hold the key, the figure grows taller and the
    key goes below the board (the board keeps its box); a figure of fixed size
    (:data:`FIXED_SIZE_GID`, a panel's) keeps the key in the column instead, shortened to
    what fits (:func:`fwwrules.draw.labels.trim_key`), so its board has the same box
    whatever the key holds, in every language."""
    from .labels import place_labels, trim_key
    from .layout import fit_layout, grow_for_key_below, key_overflow, restack, show_key

    ax = artists.ax
    fig = artists.figure
    limits = artists.state.get("view") or table_view(scenario, artists.style)
    lang = str(artists.state.get("lang", "en"))
    height = float(artists.state.setdefault("design_height", fig.get_size_inches()[1]))

    def refit() -> None:
        fit_limits(ax, limits)
        _set_axes_units(ax, scenario, artists.style, lang)

    show_key(ax, [], title="", fontsize=artists.style.font_size)
    fit_layout(ax, title=title, refit=refit, height=height)
    if fit_small_bases(artists, scenario):  # the legend's entry for them came or went
        _update_legend(artists, scenario, lang)
        if restack(ax) > 0.5:  # the column no longer fits: the figure grows
            fit_layout(ax, title=title, refit=refit, height=height)
    _spot_band_labels(artists)
    place_labels(artists)
    if key_overflow(ax) <= 0.0:
        return
    if fig.get_gid() == FIXED_SIZE_GID:
        trim_key(artists, lambda: key_overflow(ax))
    else:
        grow_for_key_below(ax, title=title, refit=refit, height=height)


def fit_small_bases(artists: BoardArtists, scenario: Scenario) -> bool:
    """Draw every base at least :attr:`BoardStyle.min_base_px` across at the board's scale
    now (a 25 mm base on a 6-foot table in a panel is 5 pixels: drawn 7, in its side's
    colour and hatch); the rest true to size. Returns whether the legend's entry for such
    bases ("small bases drawn larger") must come or go."""
    ax = artists.ax
    (x0, _), (x1, _) = ax.transData.transform([(0.0, 0.0), (1.0, 0.0)])
    px_per_mm = abs(float(x1 - x0))
    dpi = float(artists.figure.dpi)
    least = artists.style.min_base_px * dpi / 100.0 / 2.0 / px_per_mm if px_per_mm else 0.0
    before = bool(artists.state.get("enlarged"))
    artists.state["min_base_mm"] = least
    enlarged = []
    board = scenario.board
    for mid, base in artists.bases.items():
        geo = board.models.get(mid)
        if geo is None:
            continue
        base.set_radius(max(geo.disc.r, least))
        if geo.disc.r < least:
            enlarged.append(mid)
    artists.state["enlarged"] = enlarged
    return before != bool(enlarged)


def relegend(artists: BoardArtists, scenario: Scenario) -> None:
    """Build the legend again for what is drawn now and lay the picture out again (after
    something outside :func:`update_board` drew more, such as a slide's contact markers)."""
    _update_legend(artists, scenario, str(artists.state.get("lang", "en")))
    lay_out(artists, scenario, str(artists.state.get("title_text", artists.title.get_text())))


def _set_caption(
    artists: BoardArtists, scenario: Scenario, ruling: AttackRuling | None, lang: str
) -> None:
    """The lower right corner says which rules the picture shows (the ruling's, else the
    board's), and the range band a ranged attack uses."""
    from .layout import CAPTION_GID

    rules = ruling.rules if ruling is not None else scenario.rules
    text = draw_word(f"rules-{rules}", lang)
    band = None if ruling is None or ruling.range is None else ruling.range.band
    if band is not None and ruling is not None and ruling.kind == "ranged" and ruling.allowed:
        text += f" · {draw_word(f'{band}-band', lang)}"
    caption = artists.state.get("caption")
    if caption is None:
        fig = artists.figure
        caption = fig.text(
            1.0, 0.0, "", fontsize=artists.style.font_size, color="#333333",
            ha="right", va="bottom", gid=CAPTION_GID,
        )  # fmt: skip
        artists.state["caption"] = caption
    caption.set_text(text)


def _xy(p: Any) -> XY:
    """A point from a tuple or a shapely Point."""
    if hasattr(p, "x") and hasattr(p, "y"):
        return (float(p.x), float(p.y))
    return (float(p[0]), float(p[1]))


def _disc(scenario: Scenario, ident: str) -> tuple[float, float, float] | None:
    g = scenario.board.models.get(ident)
    return None if g is None else (g.disc.x, g.disc.y, g.disc.r)


def _draw_sight(
    artists: BoardArtists, scenario: Scenario, ruling: AttackRuling | None, lang: str
) -> None:
    """A ruling's line of sight (its witness, or the blocked fan and what blocks it) and,
    when the attack is allowed, its Line of Cover (:func:`_draw_cover`)."""
    sight = None if ruling is None else ruling.sight
    if ruling is None or sight is None:
        for a in (artists.sight, artists.fan, artists.fan_label, artists.blockers):
            a.set_visible(False)
        _hide_cover(artists)
        return
    # The witness that proves LoS, or the blocked fan.
    if sight.witness is not None:
        _set_pieces(artists.sight, [[_xy(sight.witness[0]), _xy(sight.witness[1])]])
    else:
        _set_pieces(artists.sight, [])
    if sight.witness is None and ruling.line_of_sight is False:
        _draw_fan(artists, scenario, ruling, lang)
    else:
        _set_pieces(artists.fan, [])
        artists.fan_label.set_visible(False)
        _set_pieces(artists.blockers, [])
    if not ruling.allowed:
        # Decision 1: an attack that is not allowed presents no cover. Its Line of Cover, the
        # pieces it crosses, grazes or ignores and their modifiers are not drawn; the line
        # of sight (or the blocked fan) and the range rings say why it is not allowed.
        _hide_cover(artists)
        return
    _draw_cover(artists, scenario, ruling, lang)


def _hide_cover(artists: BoardArtists) -> None:
    """No Line of Cover: its lines, markers, notes and badges hidden."""
    for a in (
        artists.loc,
        artists.cover_outline,
        artists.crossings,
        artists.crossing_points,
        artists.grazes,
        artists.graze_points,
        artists.ignored,
    ):
        a.set_visible(False)
    _sync_texts(artists, artists.ignored_labels, [])
    _sync_texts(artists, artists.cover_labels, [])


def _draw_fan(artists: BoardArtists, scenario: Scenario, ruling: AttackRuling, lang: str) -> None:
    """No line of sight: the fan of blocked lines across both bases, its note, and the
    outlines of what blocks it."""
    assert ruling.sight is not None
    fan = _fan(scenario, ruling, artists.style.fan_lines)
    _set_pieces(artists.fan, fan)
    mid = fan[len(fan) // 2]
    artists.fan_label.set_position(((mid[0][0] + mid[1][0]) / 2, (mid[0][1] + mid[1][1]) / 2))
    artists.fan_label.set_text("✕ " + draw_word("no-los", lang))
    artists.fan_label.set_visible(True)
    blockers = [o for b in ruling.sight.blockers for o in _outlines(scenario, b)]
    _set_pieces(artists.blockers, blockers)


def _draw_cover(artists: BoardArtists, scenario: Scenario, ruling: AttackRuling, lang: str) -> None:
    """The Line of Cover, what it crosses, what it only grazes, what is ignored (with a
    note), and each piece it passes through marked with its modifier (the badge)."""
    sight = ruling.sight
    assert sight is not None
    _set_pieces(artists.loc, [[_xy(sight.loc[0]), _xy(sight.loc[1])]])
    ignored = {i.ref: i.clause for i in ruling.ignored}
    outlines: list[list[XY]] = []
    segments: list[list[XY]] = []
    points: list[XY] = []
    graze_outlines: list[list[XY]] = []
    graze_points: list[XY] = []
    for c in sight.crossings:
        pts = [_xy(p) for p in c.points]
        if c.ref in ignored:
            continue  # drawn in the ignored style below, never in the cover colour
        outline = _outlines(scenario, c.ref)
        if c.how == "grazed":
            graze_points.extend(pts)
            graze_outlines.extend(outline)
            continue
        points.extend(pts)
        if len(pts) >= 2:
            segments.append([pts[0], pts[-1]])
        outlines.extend(outline)
    _set_pieces(artists.cover_outline, outlines)
    _set_pieces(artists.crossings, segments)
    _set_pieces(artists.crossing_points, [[p] for p in points])
    _set_pieces(artists.grazes, graze_outlines)
    _set_pieces(artists.graze_points, [[p] for p in graze_points])
    _set_pieces(artists.ignored, [o for s in ignored for o in _outlines(scenario, s)])
    _draw_ignored_notes(artists, scenario, list(ignored), lang)
    _draw_cover_badges(artists, scenario, ruling)


def _draw_ignored_notes(
    artists: BoardArtists, scenario: Scenario, ignored: list[PieceRef], lang: str
) -> None:
    """'<piece>: ignored' beside each piece the Line of Cover ignores (the clause is in the
    ruling beside the board). A terrain piece's note is placed as the piece's name is:
    inside the piece where it fits, else around it (never across the middle of its edges:
    a wall under a note looked gapped), with a leader when away from it; for touching
    pieces acting as one, around the first."""
    style = artists.style
    notes = []
    outlines: dict[int, list[XY]] = artists.state.setdefault("terrain_label_of", {})
    pieces: list[list[XY] | None] = []
    for ref in ignored:
        at = _anchor(scenario, ref)
        if at is not None:
            notes.append((at, f"{_piece_label(scenario, ref, lang)}: {draw_word('ignored', lang)}"))
            first = _outlines(scenario, ref)[:1] if isinstance(ref, TerrainRef) else []
            pieces.append(first[0] if first else None)
    _sync_texts(
        artists,
        artists.ignored_labels,
        notes,
        color="#555555",
        fontsize=style.font_size,
        ha="center",
        va="bottom",
        zorder=style.label_zorder + 0.1,
        parse_math=False,
        bbox={**label_box(style, edge=style.ignored_colour), "alpha": 1.0},
    )
    for label, piece in zip(artists.ignored_labels, pieces, strict=False):
        outlines.pop(id(label), None)
        if piece is not None:
            outlines[id(label)] = piece


def _draw_cover_badges(artists: BoardArtists, scenario: Scenario, ruling: AttackRuling) -> None:
    """Each piece the Line of Cover passes through, marked with its modifier where the line
    leaves it."""
    style = artists.style
    sight = ruling.sight
    assert sight is not None
    exits = {c.ref: _xy(c.points[-1]) for c in sight.crossings if c.points}
    marks = []
    for entry in ruling.cover:
        at = exits.get(entry.ref) or _anchor(scenario, entry.ref)
        if at is not None and entry.modifier:
            marks.append((at, f"{entry.modifier:+d}".replace("-", "\u2212")))
    _sync_texts(
        artists,
        artists.cover_labels,
        marks,
        color="black",
        fontsize=style.font_size,
        fontweight="bold",
        ha="left",
        va="bottom",
        zorder=style.label_zorder + 1,
        bbox={**label_box(style, edge="black", face=style.cover_colour), "alpha": 1.0},
    )


def _fan(scenario: Scenario, ruling: AttackRuling, n: int) -> list[list[XY]]:
    """Lines across the attacker's and target's bases (offsets -r..r along the normal)."""
    assert ruling.sight is not None
    (ax_, ay), (tx, ty) = _xy(ruling.sight.loc[0]), _xy(ruling.sight.loc[1])
    a = _disc(scenario, ruling.attacker)
    t = _disc(scenario, ruling.target)
    ra = 0.0 if a is None else a[2]
    rt = 0.0 if t is None else t[2]
    length = math.hypot(tx - ax_, ty - ay)
    if length == 0:
        return [[(ax_, ay), (tx, ty)]]
    nx, ny = -(ty - ay) / length, (tx - ax_) / length
    n = max(n, 1)
    ks = [0.0] if n == 1 else [-1 + 2 * i / (n - 1) for i in range(n)]
    return [
        [(ax_ + k * ra * nx, ay + k * ra * ny), (tx + k * rt * nx, ty + k * rt * ny)] for k in ks
    ]


def _draw_bands(
    artists: BoardArtists, scenario: Scenario, ruling: AttackRuling | None, lang: str
) -> None:
    """Range rings around the attacker, each in its ruler's colour (short solid, long dashed)
    and labelled with the ruler's name, so no ring relies on colour alone."""
    from ..ranges import band_limits

    style = artists.style
    limits: tuple[float, float | None] = (0.0, None)
    rulers: tuple[str | float | None, str | float | None] = (None, None)
    a = None if ruling is None else _disc(scenario, ruling.attacker)
    artists.state["bands_of"] = None if ruling is None or a is None else ruling.attacker
    if ruling is not None and a is not None and ruling.kind == "ranged":
        weapon = scenario.weapon_of(ruling.attacker, ruling.weapon)  # a throw: its thrower's
        limits = band_limits(scenario, weapon)
        rulers = (weapon.short, weapon.long)
    for i, (name, end) in enumerate(zip(("short", "long"), limits, strict=True)):
        ring = artists.bands[name]
        label = artists.band_labels.get(name)
        if label is None:
            label = artists.ax.text(
                0, 0, "", fontsize=style.font_size, ha="center", va="bottom",
                zorder=style.label_zorder, visible=False,
                animated=bool(artists.state["animated"]), bbox=label_box(style),
            )  # fmt: skip
            artists.band_labels[name] = label
        if a is None or end is None or end <= 0:
            ring.set_visible(False)
            label.set_visible(False)
            continue
        ruler = rulers[i]
        colour = (
            RULER_COLOURS.get(ruler, style.band_colours[i])
            if isinstance(ruler, str)
            else style.band_colours[i]
        )
        radius = a[2] + end
        ring.set_center((a[0], a[1]))
        ring.set_radius(radius)
        ring.set_edgecolor(colour)
        ring.set_visible(True)
        ruler_name = draw_word(ruler, lang) if isinstance(ruler, str) else ""
        artists.state.setdefault("band_rulers", {})[name] = ruler if isinstance(ruler, str) else ""
        band = draw_word(f"{name}-band", lang)
        label.set_text(f"{band}: {ruler_name}" if ruler_name else band)
        label.set_color(colour if colour != RULER_COLOURS["yellow"] else "#6B5E00")
        label.set_visible(True)
    _spot_band_labels(artists)


def _spot_band_labels(artists: BoardArtists) -> None:
    """Each range ring's name goes on the ring where it shows with its whole box inside the
    board's axes (above the attacker, else the first such angle, from the top alternating
    left and right every 5 degrees); where the ring shows but no place on it holds the whole
    name, at the first place it shows, moved into the axes: a name is never cut at the axes'
    edge (the drag frames keep these places until the drop). A ring wholly off the board is
    not drawn. Run again whenever the limits change.

    A ring whose centre, radius and name (its words, font and alignment: the label placer
    centres a name it places), the view and the figure's size are as when its name was last
    placed here keeps that place without measuring again (a drag step moves the target, not
    the attacker the rings are centred on)."""
    ax = artists.ax
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    renderer = renderer_of(artists.figure)
    view = (x0, x1, y0, y1, tuple(ax.bbox.bounds), artists.figure.dpi, renderer is None)
    spotted: dict[str, tuple[tuple[Any, ...], bool, tuple[float, float]]]
    spotted = artists.state.setdefault("band_spots", {})
    degs = np.radians([90 + (k + 1) // 2 * 5 * (1 if k % 2 else -1) for k in range(72)])
    for name, ring in artists.bands.items():
        label = artists.band_labels.get(name)
        if label is None or not label.get_text() or not (ring.get_visible() or label.get_visible()):
            continue
        (cx, cy), radius = ring.center, ring.get_radius()
        look = (hash(label.get_fontproperties()), label.get_rotation())
        align = (label.get_horizontalalignment(), label.get_verticalalignment())
        key = (cx, cy, radius, label.get_text(), look, align, view)
        known = spotted.get(name)
        if known is not None and known[0] == key:
            _, shows, at = known
            label.set_visible(shows)
            ring.set_visible(shows)
            label.set_position(at)
            continue
        pts = np.column_stack((cx + radius * np.cos(degs), cy + radius * np.sin(degs)))
        shown = pts[(pts[:, 0] > x0) & (pts[:, 0] < x1) & (pts[:, 1] > y0) & (pts[:, 1] < y1)]
        label.set_visible(len(shown) > 0)
        ring.set_visible(len(shown) > 0)
        if not len(shown):
            label.set_position((cx, cy + radius))
        else:
            label.set_position((float(shown[0, 0]), float(shown[0, 1])))
            if renderer is not None:
                label.set_position(_whole_inside(ax, label, shown, renderer))
        spotted[name] = (key, len(shown) > 0, label.get_position())


def _whole_inside(ax: Axes, label: Text, spots: Any, renderer: Any) -> tuple[float, float]:
    """The first of ``spots`` (data, on the ring; the label is at the first now) where the
    label's whole box (its background included) lies inside the axes; none: the first,
    moved just far enough to be inside."""
    from .labels import text_rect

    bx0, by0, bx1, by1 = text_rect(label, renderer)
    at = ax.transData.transform(spots)
    lo = np.array([bx0, by0]) - at[0]  # the box's corners from its anchor, in pixels
    hi = np.array([bx1, by1]) - at[0]
    f = ax.bbox
    fits = (at[:, 0] + lo[0] >= f.x0) & (at[:, 0] + hi[0] <= f.x1)
    fits &= (at[:, 1] + lo[1] >= f.y0) & (at[:, 1] + hi[1] <= f.y1)
    if fits.any():
        k = int(np.argmax(fits))
        return (float(spots[k][0]), float(spots[k][1]))
    x, y = at[0]
    x += max(f.x0 - (x + lo[0]), 0.0) - max(x + hi[0] - f.x1, 0.0)
    y += max(f.y0 - (y + lo[1]), 0.0) - max(y + hi[1] - f.y1, 0.0)
    back = ax.transData.inverted().transform((x, y))
    return (float(back[0]), float(back[1]))


def _engagement_links(scenario: Scenario) -> list[tuple[str, str]]:
    graph: Mapping[str, Sequence[str]] = engagement_graph(scenario)
    links = []
    for a, others in graph.items():
        for b in others:
            if a < b or a not in graph.get(b, ()):
                links.append((a, b))
    return sorted(set(links))


def _draw_engagements(artists: BoardArtists, scenario: Scenario, on: bool) -> None:
    links = _engagement_links(scenario) if on else None
    pieces = []
    for a, b in links or ():
        da, db = _disc(scenario, a), _disc(scenario, b)
        if da is not None and db is not None:
            pieces.append([(da[0], da[1]), (db[0], db[1])])
    _set_pieces(artists.engagements, pieces)


def _draw_numbers(artists: BoardArtists, scenario: Scenario, ruling: AttackRuling | None) -> None:
    """``melee.shoot-into``: the Armor-die numbers 1-4 in one yellow box beside each base they
    pick (placed like a model's name, clear of everything: :mod:`fwwrules.draw.labels`)."""
    numbers = None
    if ruling is not None and ruling.into_melee is not None:
        numbers = ruling.into_melee.numbers
    by_model: dict[str, list[int]] = {}
    for i, mid in enumerate(numbers or (), start=1):
        by_model.setdefault(mid, []).append(i)
    notes = []
    owners = []
    for mid, ns in by_model.items():
        d = _disc(scenario, mid)
        if d is not None:
            notes.append(((d[0] + d[2] * 0.75, d[1] + d[2] * 0.75), " ".join(str(n) for n in ns)))
            owners.append(mid)
    style = artists.style
    _sync_texts(
        artists,
        artists.numbers,
        notes,
        fontsize=style.font_size + 2,
        fontweight="bold",
        color=style.number_colour,
        ha="left",
        va="bottom",
        zorder=style.label_zorder + 1,
        bbox={"boxstyle": "round,pad=0.25", "fc": style.number_face, "ec": "black"},
    )
    for text, mid in zip(artists.numbers, owners, strict=False):
        text.set_gid(f"numbers:{mid}")


def _draw_slide(
    artists: BoardArtists, scenario: Scenario, slide: SlideRuling | None, lang: str
) -> None:
    """A ghost base at the slide's destination: solid and "legal", or dashed and "not legal"."""
    style = artists.style
    d = None if slide is None else _disc(scenario, slide.model)
    if slide is None or d is None:
        for a in (artists.slide_ghost, artists.slide_path, artists.slide_label):
            a.set_visible(False)
        _draw_slide_breaks(artists, scenario, None, lang)
        return
    to = slide.to
    u = scenario.unit_mm
    x, y = float(to[0]) * u, float(to[1]) * u
    legal = slide.legal
    colour = style.slide_legal_colour if legal else style.slide_illegal_colour
    ghost = artists.slide_ghost
    ghost.set_center((x, y))
    ghost.set_radius(d[2])
    ghost.set_edgecolor(colour)
    ghost.set_linestyle(style.slide_legal_linestyle if legal else style.slide_illegal_linestyle)
    ghost.set_visible(True)
    artists.slide_path.set_color(colour)
    # The shortest legal way (bending around bases) when the ruling has one, else straight.
    path = slide.path
    way = [(float(px) * u, float(py) * u) for px, py in path] or [(d[0], d[1]), (x, y)]
    _set_pieces(artists.slide_path, [way])
    text = draw_word("slide-legal" if legal else "slide-illegal", lang)
    breaks = list(slide.breaks)
    # melee.slide: contacts that would break on the way (no path keeps them all)
    for r in slide.reasons:
        if r.key == "breaks-on-path" and r.params.get("model") not in breaks:
            breaks.append(str(r.params["model"]))
    if breaks:
        names = {m.id: m.label_in(lang) for m in scenario.models}
        who = ", ".join(names.get(str(b), str(b)) for b in breaks)
        text += f" ({draw_word('breaks', lang)} {who})"
    label = artists.slide_label
    label.set_position((x, y + d[2] + 1.5))
    # Its anchor (above the ghost) is kept: an animation places the note again each frame.
    label.set_gid("slide-note")
    artists.state.setdefault("anchors", {})["slide-note"] = (x, y + d[2] + 1.5)
    label.set_text(text)
    label.set_color(colour)
    label.set_visible(True)
    _draw_slide_breaks(artists, scenario, slide, lang)


def _draw_slide_breaks(
    artists: BoardArtists, scenario: Scenario, slide: SlideRuling | None, lang: str
) -> None:
    """A cross at each point where a refused slide's contact breaks (``breaks_at``: the centre
    of the slider's base there, in scenario units), with the name of the model it would leave.

    Nothing when the slide has a path (or no ruling): only a refusal for a broken contact on
    the way has such points. The same point cut by two blockers is marked once.
    """
    if artists.slide_breaks is None:
        return
    u = scenario.unit_mm
    names = {m.id: m.label_in(lang) for m in scenario.models}
    seen: dict[XY, str] = {}
    for model, _blocker, (bx, by) in () if slide is None else slide.breaks_at:
        seen.setdefault((float(bx) * u, float(by) * u), names.get(model, model))
    _set_pieces(artists.slide_breaks, [[p] for p in seen])
    style = artists.style
    word = draw_word("slide-breaks", lang)
    _sync_texts(
        artists,
        artists.slide_break_labels,
        [((px, py), f"{word}: {who}") for (px, py), who in seen.items()],
        color=style.slide_illegal_colour,
        fontsize=style.font_size,
        ha="left",
        va="top",
        zorder=style.label_zorder + 0.5,
        bbox={**label_box(style, edge=style.slide_illegal_colour), "alpha": 1.0},
    )


def _draw_withdraw(
    artists: BoardArtists, scenario: Scenario, withdraw: WithdrawRuling | None
) -> None:
    """An arrow from each model that gets a free attack to the model withdrawing."""
    pieces: list[tuple[XY, XY]] = []
    m = None if withdraw is None else _disc(scenario, withdraw.model)
    if withdraw is not None and m is not None:
        for fa in withdraw.free_attacks:
            a = _disc(scenario, fa.attacker)
            if a is None:
                continue
            dx, dy = m[0] - a[0], m[1] - a[1]
            dist = math.hypot(dx, dy) or 1.0
            ux, uy = dx / dist, dy / dist
            start = (a[0] + ux * a[2] * 0.5, a[1] + uy * a[2] * 0.5)
            end = (m[0] - ux * m[2] * 0.5, m[1] - uy * m[2] * 0.5)
            pieces.append((start, end))
    pool = artists.free_attacks
    while len(pool) < len(pieces):
        ann = artists.ax.annotate(
            "",
            xy=(0, 0),
            xytext=(0, 0),
            zorder=6,
            arrowprops={
                "arrowstyle": "-|>",
                "color": artists.style.free_attack_colour,
                "linewidth": 2.0,
                "mutation_scale": 14,
            },
        )
        ann.set_animated(bool(artists.state["animated"]))
        pool.append(ann)
    for i, ann in enumerate(pool):
        if i < len(pieces):
            start, end = pieces[i]
            ann.xy = end
            ann.set_position(start)
            ann.set_visible(True)
        else:
            ann.set_visible(False)


def _sync_texts(
    artists: BoardArtists, pool: list[Text], notes: Sequence[tuple[XY, str]], **kw: Any
) -> None:
    """Show ``notes`` with the texts of ``pool`` (made when missing; the rest hidden)."""
    while len(pool) < len(notes):
        t = artists.ax.text(0, 0, "", visible=False, **kw)
        t.set_animated(bool(artists.state["animated"]))
        pool.append(t)
    for i, t in enumerate(pool):
        if i < len(notes):
            at, text = notes[i]
            t.set_position(at)
            t.set_text(text)
            t.set_visible(True)
        else:
            t.set_visible(False)


# --- legend ------------------------------------------------------------------------------------


def drawn_kinds(artists: BoardArtists) -> list[str]:
    """The overlay kinds that are visible on the board now, in legend order."""
    visible = {
        "edge": artists.edges.get_visible(),
        "los": artists.sight.get_visible(),
        "no-los": artists.fan.get_visible(),
        "loc": artists.loc.get_visible(),
        "crossed": artists.crossings.get_visible() or artists.crossing_points.get_visible()
        or artists.cover_outline.get_visible(),
        "grazed": artists.graze_points.get_visible() or artists.grazes.get_visible(),
        "ignored": artists.ignored.get_visible(),
        "short-band": artists.bands["short"].get_visible(),
        "long-band": artists.bands["long"].get_visible(),
        "engaged": artists.engagements.get_visible(),
        "slide-legal": artists.slide_ghost.get_visible()
        and artists.slide_ghost.get_linestyle() in ("-", "solid"),
        "slide-illegal": artists.slide_ghost.get_visible()
        and artists.slide_ghost.get_linestyle() not in ("-", "solid"),
        "slide-breaks": artists.slide_breaks is not None and artists.slide_breaks.get_visible(),
        "free-attack": any(a.get_visible() for a in artists.free_attacks),
        "into-melee": any(t.get_visible() and t.get_text() for t in artists.numbers),
        "small-bases": bool(artists.state.get("enlarged")),
        "knife-edge": margin_shown(artists),
        # a slide being played (fwwrules.draw.animate): the contacts its frames show
        "contact-kept": "contact-kept" in artists.state.get("animation", {}).get("kinds", ()),
        "contact-broken": "contact-broken" in artists.state.get("animation", {}).get("kinds", ()),
    }  # fmt: skip
    return [k for k, on in visible.items() if on]


def _legend_entries(
    artists: BoardArtists, scenario: Scenario, lang: str
) -> list[tuple[str, str, Callable[[], Artist]]]:
    """(key, data part of the label, maker of its proxy artist) for every legend entry:
    the sides and terrain kinds on the board, then only the overlays drawn now.

    The proxies are made only when the legend is (re)built, not on every update.
    """
    st = artists.style
    out: list[tuple[str, str, Callable[[], Artist]]] = []
    seen_sides: list[str] = []
    order = side_order(scenario)
    for m in scenario.models:
        side, colour, hatch = _side_look(scenario, m.faction, st, order)
        if side in seen_sides:
            continue
        seen_sides.append(side)
        proxy = partial(
            Patch,
            facecolor=colour,
            edgecolor=st.base_edge,
            hatch=hatch or None,
            hatchcolor=hatch_colour(colour),
        )
        out.append(("side", side, proxy))
    for kind in dict.fromkeys(str(t.kind) for t in scenario.terrain):
        lk = st.terrain_look(kind)
        proxy = partial(
            Patch,
            facecolor=lk.face,
            edgecolor=lk.edge,
            hatch=lk.hatch or None,
            linestyle=lk.linestyle,
            alpha=lk.alpha,
        )
        out.append((kind, "", proxy))
    makers = _overlay_makers(st)
    for kind in drawn_kinds(artists):
        if kind in ("short-band", "long-band"):
            name = kind.removesuffix("-band")
            ring = artists.bands[name]
            ruler = artists.state.get("band_rulers", {}).get(name, "")
            i = 0 if name == "short" else 1
            colour = to_hex(ring.get_edgecolor())
            out.append(
                (kind, ruler, partial(_proxy, colour, st.band_linestyles[i], st.band_linewidth))
            )
            continue
        out.append((kind, "", makers[kind]))
    return out


def _overlay_makers(st: BoardStyle) -> dict[str, Callable[[], Artist]]:
    """The makers of the legend's proxy artist for each overlay kind (:func:`drawn_kinds`)."""
    return {
        "edge": partial(_proxy, st.edge_colour, st.edge_linestyle, st.edge_linewidth),
        "los": partial(_proxy, st.los_colour, "-", st.los_linewidth),
        "no-los": partial(_proxy, st.fan_colour, st.fan_linestyle, 1.2),
        "loc": partial(_proxy, st.loc_colour, st.loc_linestyle, st.loc_linewidth),
        "crossed": partial(_proxy, st.cover_colour, "-", st.cover_linewidth, st.crossing_marker),
        "grazed": partial(_proxy, st.graze_colour, st.graze_linestyle, 2.0, st.graze_marker),
        "ignored": partial(_proxy, st.ignored_colour, st.ignored_linestyle, 1.8),
        "engaged": partial(_proxy, st.engaged_colour, "-", st.engaged_linewidth),
        "slide-legal": partial(_proxy, st.slide_legal_colour, st.slide_legal_linestyle, 2.0),
        "slide-illegal": partial(_proxy, st.slide_illegal_colour, st.slide_illegal_linestyle, 2.0),
        "slide-breaks": partial(
            _proxy, st.slide_illegal_colour, "none", 0.0, st.slide_break_marker
        ),
        "free-attack": partial(_proxy, st.free_attack_colour, "-", 2.0, ">"),
        "into-melee": partial(Patch, facecolor=st.number_face, edgecolor="black"),
        "knife-edge": legend_proxy,
        "small-bases": partial(
            _proxy,
            st.neutral_colour,
            "none",
            0.0,
            "o",
            markeredgecolor=st.base_edge,
            markersize=st.min_base_px * 0.72,
        ),
        "contact-kept": partial(
            _proxy, st.slide_legal_colour, "none", 0.0, "o", markeredgecolor="black"
        ),
        "contact-broken": partial(
            _proxy,
            st.slide_illegal_colour,
            "none",
            0.0,
            st.slide_break_marker,
            markeredgecolor="black",
        ),
    }


def _proxy(
    colour: str, linestyle: LineStyleType, width: float, marker: str = "", **kw: Any
) -> Line2D:
    return Line2D(
        [], [], color=colour, linestyle=linestyle, linewidth=width, marker=marker or "None", **kw
    )


def _label(key: str, data: str, lang: str) -> str:
    word = draw_word(key, lang)
    if key.endswith("-band") and data:
        data = draw_word(data, lang)  # a ruler's colour
    elif key == "side":
        data = side_name(data, lang)
    return f"{word}: {data}" if data else word


def _drag_layout(artists: BoardArtists, title: str, legend_rebuilt: bool) -> None:
    """A drag: the layout stays; the title is wrapped to the room it has, and a legend
    rebuilt on the way has its entries wrapped to the column, as the layout wraps them."""
    from .labels import drop_moved_leaders
    from .layout import restack

    _wrap_title_once(artists, title)
    drop_moved_leaders(artists)
    if legend_rebuilt:
        restack(artists.ax)


def _knife_edge_entry_stale(artists: BoardArtists) -> bool:
    """Whether the legend names a knife-edge call the picture no longer marks, or leaves out
    one it marks now."""
    listed = any(k == "knife-edge" for k, _ in artists.state.get("legend_keys", ()))
    return artists.legend is not None and listed != margin_shown(artists)


def _update_legend(artists: BoardArtists, scenario: Scenario, lang: str) -> None:
    """Relabel the legend in place; rebuild it only when its set of entries changes."""
    entries = _legend_entries(artists, scenario, lang)
    keys = [(k, d) for k, d, _ in entries]
    leg = artists.legend
    if leg is not None and artists.state.get("legend_keys") == keys:
        for text, (k, d) in zip(leg.get_texts(), keys, strict=True):
            text.set_text(_label(k, d, lang))
        return
    if leg is not None:
        leg.remove()
    ax = artists.ax
    leg = ax.legend(
        [make() for _, _, make in entries],
        [_label(k, d, lang) for k, d, _ in entries],
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,
        fontsize=artists.style.legend_font_size,
        handlelength=2.0,
        handletextpad=0.5,
        labelspacing=0.35,
        frameon=False,
    )
    artists.state["legend_keys"] = keys


# --- blitting ----------------------------------------------------------------------------------


def moving_artists(
    artists: BoardArtists, model_id: str | None = None, *, drag: bool = False
) -> list[Artist]:
    """The artists that change when ``model_id`` moves: its base and label, and every overlay.

    Blitting draws only these over a cached background (``animated=True``). With ``drag``
    (a mouse drag, where labels are not re-placed until the drop) the range rings and their
    labels are left out when they are centred on another model: they depend on the attacker
    and the weapon alone, so dragging the target or a bystander leaves them (and their costly
    text) in the background. So are the leader lines when none of them starts at the dragged
    base: a drag places no labels, it only drops the moved base's own leaders
    (:func:`~fwwrules.draw.labels.drop_moved_leaders`), so the others stay as they are until
    the drop. With ``model_id`` None every overlay is included.
    """
    out: list[Artist] = []
    if model_id is not None and model_id in artists.bases:
        out += [artists.bases[model_id], artists.labels[model_id]]
    caption = artists.state.get("caption")
    if caption is not None:  # the ruleset and band: they change with the ruling
        out.append(caption)
    animation = artists.state.get("animation", {})  # a slide's contact markers, when shown
    out += [animation[k] for k in ("kept", "broken") if k in animation]
    overlays = artists.overlays()
    if drag and model_id is not None and artists.state.get("bands_of") not in (None, model_id):
        rings = {id(a) for a in (*artists.bands.values(), *artists.band_labels.values())}
        overlays = [a for a in overlays if id(a) not in rings]
    leads = artists.state.get("leaders", [])
    if drag and model_id is not None and all(lead[0] != model_id for lead in leads):
        overlays = [a for a in overlays if a is not artists.leaders]
    return out + overlays


def _animate(items: Iterable[Artist], on: bool) -> None:
    for a in items:
        a.set_animated(on)


def set_animated(artists: BoardArtists, items: Sequence[Artist], on: bool) -> None:
    """Mark ``items`` animated (left out of full draws) or not; pools made later follow."""
    artists.state["animated"] = on
    _animate(items, on)
