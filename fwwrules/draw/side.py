"""The side view of a shot: a section along the Line of Cover (``fwwrules render --side-view``).

A top-down picture cannot show why a model on a roof is Elevated, which edge is Significant, or
why only cover near the target counts for an Elevated shooter. The side view cuts the table
along the Line of Cover: the horizontal axis is the distance from the shooter's centre along
the line, the vertical axis the height above the table, both in millimetres and, unless the
section is very long for its heights, to the same scale (else the heights are drawn larger and
the caption says by how much). It shows

* both models at their elevations: the base (its true width, a thin slab) and a figure of a
  standard height (:attr:`SideStyle.figure_mm`, a drawing aid: the rules measure only the
  bases' heights; the caption says so);
* every terrain piece the section meets with its height (a piece without a height is a low
  dashed strip, "no height given": the rules ask none of it);
* every Significant Edge the section crosses, from the ground below up to the top;
* the Orange ruler where the ruling uses it: upright from the lower base where
  ``elevation.elevated`` compares the two levels, along the line from the Elevated model's base
  where ``elevation.edge-blocks-los`` or ``elevation.edge-cover`` measures the edges, and along
  the line back from the target's base where ``elevation.shooter-cover`` counts cover; each
  labelled with its clause and what it decides (the ruling's own verdict).

A shot without heights (both bases on the table, no piece on the line with a height) is drawn
as a flat section with one line saying so, so a panel that follows a drag never jumps between
a picture and none.

The geometry comes from the scenario (heights, edges, the pieces the line meets); which Orange
marks are drawn and what they say comes from the ruling's reasons, so the picture shows the
ruling's decisions and its numbers can be checked against them (``tests/test_side_view.py``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from matplotlib.lines import Line2D
from matplotlib.patches import PathPatch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

from ..catalogue import length as length_text
from ..catalogue import number, signed
from ..elevation import SignificantEdge, edge_crossed, significant_edges
from ..refs import EdgeRef, PieceRef, TerrainRef
from ..rulings import names_in
from .artists import DEFAULT_STYLE, BoardStyle, label_box
from .board import RULER_COLOURS, hatch_colour, side_looks
from .figure import figure_of, new_axes
from .text import draw_word

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from ..data import Scenario
    from ..rulings import AttackRuling

XY = tuple[float, float]


@dataclass(frozen=True, slots=True)
class SideStyle:
    """Sizes and looks of the side view (colours come from the board's :class:`BoardStyle`)."""

    figsize: tuple[float, float] = (7.8, 4.0)
    """Inches: as wide as a board picture, so the two stack (``render --side-view``)."""
    dpi: float = 100.0
    margins: tuple[float, float, float, float] = (0.09, 0.72, 0.16, 0.85)
    figure_mm: float = 35.0
    """The height every model's figure is drawn (a standing 32 mm-scale miniature); a drawing
    aid only: the rules measure the heights of the bases."""
    base_mm: float = 3.0
    """How thick a base is drawn."""
    no_height_mm: float = 6.0
    """How high a piece without a ``height`` is drawn (a dashed strip on the table)."""
    least_ratio: float = 0.3
    """The least height-to-length ratio of the drawn section: a section flatter than this is
    drawn with its heights enlarged (the caption gives the factor)."""
    orange_linewidth: float = 4.0
    board: BoardStyle = DEFAULT_STYLE


DEFAULT_SIDE_STYLE = SideStyle()

EDGE_GID = "side:edge:{}"
ORANGE_GID = "side:orange:{}"
"""Gids of the Significant Edges (``side:edge:<piece>:<side>``) and of the Orange marks
(``side:orange:<clause>``), for tests and readers of the figure."""


@dataclass(frozen=True, slots=True)
class SideModel:
    """A model on the section: where its centre lies along the line, its base's radius and the
    height of its base (mm)."""

    id: str
    s: float
    r: float
    elevation: float


@dataclass(frozen=True, slots=True)
class SidePiece:
    """A terrain piece the section meets: its spans along the line, its height (``None``: not
    given) and whether the Line of Cover itself (between the centres) meets it."""

    id: str
    kind: str
    height: float | None
    spans: tuple[tuple[float, float], ...]
    on_line: bool


@dataclass(frozen=True, slots=True)
class SideEdge:
    """A Significant Edge the section crosses, and where."""

    edge: SignificantEdge
    s: float


@dataclass(frozen=True, slots=True)
class Section:
    """The section along the Line of Cover (mm): from ``origin`` (the shooter's centre) in the
    unit direction ``along``, over ``start`` to ``end``; the models, pieces and edges on it."""

    origin: XY
    along: XY
    length: float
    start: float
    end: float
    attacker: SideModel
    target: SideModel | None
    pieces: tuple[SidePiece, ...]
    edges: tuple[SideEdge, ...]
    orange: float

    @property
    def flat(self) -> bool:
        """No heights at all: both bases on the table and no piece with a height."""
        models = [m for m in (self.attacker, self.target) if m is not None]
        return all(m.elevation <= 0 for m in models) and all(
            p.height is None or p.height <= 0 for p in self.pieces
        )

    def point(self, s: float) -> XY:
        return (self.origin[0] + s * self.along[0], self.origin[1] + s * self.along[1])


def section(scenario: Scenario, ruling: AttackRuling) -> Section:
    """The section of the ruling's Line of Cover on ``scenario`` (the ruling's own line)."""
    board = scenario.board
    if ruling.sight is None:
        raise ValueError("the ruling has no Line of Cover to cut along")
    (x0, y0), (x1, y1) = ruling.sight.loc
    length = math.hypot(x1 - x0, y1 - y0)
    along = ((x1 - x0) / length, (y1 - y0) / length) if length > 0 else (1.0, 0.0)
    a = board.models[ruling.attacker]
    shooter = SideModel(a.id, 0.0, a.disc.r, a.elevation)
    target = None
    t_r = 0.0
    if isinstance(ruling.target, str) and ruling.target in board.models:
        t = board.models[ruling.target]
        target = SideModel(t.id, length, t.disc.r, t.elevation)
        t_r = t.disc.r
    margin = max(20.0, 0.08 * length)
    start, end = -(a.disc.r + margin), length + t_r + margin
    cut = Section((x0, y0), along, length, start, end, shooter, target, (), (), board.orange_mm)
    pieces = _pieces(scenario, cut)
    edges = _edges(scenario, cut)
    return Section(
        cut.origin, along, length, start, end, shooter, target, pieces, edges, board.orange_mm
    )


def _pieces(scenario: Scenario, cut: Section) -> tuple[SidePiece, ...]:
    """Every piece the section meets, with its spans along it (in file order)."""
    from shapely.geometry import LineString

    board = scenario.board
    line = LineString([cut.point(cut.start), cut.point(cut.end)])
    loc = LineString([cut.point(0.0), cut.point(cut.length)])
    out = []
    for tid in board.terrain_ids:
        t = board.terrain[tid]
        hit = t.polygon.intersection(line)
        spans = []
        for part in getattr(hit, "geoms", [hit]):
            if part.is_empty or part.length <= 1e-6:
                continue
            ss = [_s_of(cut, p) for p in part.coords]
            spans.append((min(ss), max(ss)))
        if spans:
            on_line = t.polygon.intersection(loc).length > 1e-6
            out.append(SidePiece(tid, t.kind, t.height, tuple(sorted(spans)), on_line))
    return tuple(out)


def _s_of(cut: Section, p: Sequence[float]) -> float:
    return (p[0] - cut.origin[0]) * cut.along[0] + (p[1] - cut.origin[1]) * cut.along[1]


def _edges(scenario: Scenario, cut: Section) -> tuple[SideEdge, ...]:
    """Every Significant Edge the section crosses (elevation.edge_crossed), along the line."""
    board = scenario.board
    p, q = cut.point(cut.start), cut.point(cut.end)
    out = []
    for e in significant_edges(board):
        at = edge_crossed(board, e, p, q)
        if at is not None:
            out.append(SideEdge(e, _s_of(cut, at)))
    return tuple(sorted(out, key=lambda x: x.s))


# --- drawing ----------------------------------------------------------------------------------


@dataclass(slots=True, eq=False)
class SideArtists:
    """The artists of a side view, by role (keyed by model id, piece id, ``piece:side`` and
    clause)."""

    figure: Figure
    ax: Axes
    section: Section
    bases: dict[str, Rectangle] = field(default_factory=dict)
    figures: dict[str, PathPatch] = field(default_factory=dict)
    pieces: dict[str, list[Rectangle]] = field(default_factory=dict)
    edges: dict[str, Line2D] = field(default_factory=dict)
    orange: dict[str, Line2D] = field(default_factory=dict)
    rulers: dict[str, tuple[XY, XY]] = field(default_factory=dict)
    """Each Orange mark's ``(x0, x1), (y0, y1)`` in data coordinates (mm), by clause."""
    labels: list[Text] = field(default_factory=list)
    obstacles: list[Any] = field(default_factory=list)
    """Artists no label may cover (figures, bases, Orange rulers)."""
    scale: float = 1.0
    """How much larger than the distances the heights are drawn (1: to the same scale)."""
    handles: list[Any] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    caption: Text | None = None
    title_text: str = ""
    lang: str = "en"
    design_height: float = 4.0
    """The figure's height (inches) before a key below the section made it taller."""
    want: tuple[float, float, float, float] = (0.0, 1.0, 0.0, 1.0)
    """The least part of the section to show (x0, x1, y0, y1 in mm): the limits grow from
    it to fill the Axes' box at the heights' scale (:func:`_fit_limits`)."""


def draw_side_view(
    scenario: Scenario,
    ruling: AttackRuling,
    ax: Axes | None = None,
    *,
    lang: str = "en",
    style: SideStyle = DEFAULT_SIDE_STYLE,
) -> SideArtists:
    """Draw the side view of ``ruling`` on ``ax`` (a new figure of ``style.figsize`` without
    one) and lay it out: title, axes, legend column and caption inside the figure, every label
    placed clear of the others, the figures and the rulers. Returns the artists."""
    if ax is None:
        ax = new_axes(style.figsize, style.dpi, style.margins)
    cut = section(scenario, ruling)
    top = _top(cut, style)
    scale = max(1.0, style.least_ratio * (cut.end - cut.start) / top)
    art = SideArtists(figure_of(ax), ax, cut, scale=scale, lang=lang)
    art.design_height = float(art.figure.get_size_inches()[1])
    art.want = (cut.start, cut.end, -0.06 * top, top)
    _fit_limits(art)
    ax.axhline(0.0, color="#555555", linewidth=1.2, zorder=1)
    _draw_pieces(art, style)
    _draw_edges(art, style)
    for m in (cut.attacker, cut.target):
        if m is not None:
            _draw_model(art, scenario, m, style)
    _draw_orange(art, ruling, style)
    _decorate(art, ruling, style, lang)
    place_labels(art, _label_texts(art, scenario, ruling, style, lang), style)
    art.figure._fwwrules_side = art  # type: ignore[attr-defined]  # for readers of the figure
    return art


def _top(cut: Section, style: SideStyle) -> float:
    """The highest thing drawn (figures on their bases, pieces, the upright Orange), with
    room above for the labels."""
    heights = [p.height or style.no_height_mm for p in cut.pieces]
    levels = [m.elevation for m in (cut.attacker, cut.target) if m is not None]
    heights += [lv + style.base_mm + style.figure_mm for lv in levels]
    heights.append(min(levels) + cut.orange)
    return 1.35 * max(heights)


def _look(style: SideStyle, kind: str) -> Any:
    return style.board.terrain_look(kind)


def _draw_pieces(art: SideArtists, style: SideStyle) -> None:
    """The pieces as blocks up to their heights (the tallest first, so a tower on a roof shows
    above it); a piece without a height as a low dashed strip."""
    order = sorted(art.section.pieces, key=lambda p: -(p.height or 0.0))
    for piece in order:
        look = _look(style, piece.kind)
        drawn = []
        for s0, s1 in piece.spans:
            if piece.height is None:
                rect = Rectangle(
                    (s0, 0.0), s1 - s0, style.no_height_mm, facecolor=look.face, alpha=0.5,
                    edgecolor=look.edge, linestyle="--", linewidth=1.0, hatch=look.hatch,
                    zorder=2,
                )  # fmt: skip
            elif piece.kind == "scenery":
                rect = _platform(art, (s0, s1), piece.height, look, style)
            else:
                rect = Rectangle(
                    (s0, 0.0), s1 - s0, piece.height, facecolor=look.face,
                    edgecolor=look.edge, linewidth=1.0, hatch=look.hatch, zorder=2,
                )  # fmt: skip
            rect.set_gid(f"side:piece:{piece.id}")
            art.ax.add_patch(rect)
            drawn.append(rect)
            if piece.height is None:
                art.obstacles.append(rect)  # a thin strip a label would hide
        art.pieces[piece.id] = drawn


def _platform(
    art: SideArtists, span: tuple[float, float], height: float, look: Any, style: SideStyle
) -> Rectangle:
    """Scenery with a height (a gantry, a platform on legs: the rules let models on the table
    see under it): its deck drawn solid at the top, the room below it only outlined."""
    s0, s1 = span
    deck = min(style.base_mm * 2, height)
    below = Rectangle(
        (s0, 0.0), s1 - s0, height - deck, facecolor="none", edgecolor=look.edge,
        linewidth=0.8, linestyle=":", zorder=2,
    )  # fmt: skip
    art.ax.add_patch(below)
    return Rectangle(
        (s0, height - deck), s1 - s0, deck, facecolor="#9A9A9A", edgecolor="#333333",
        linewidth=1.0, zorder=2,
    )  # fmt: skip


def _draw_edges(art: SideArtists, style: SideStyle) -> None:
    """Each Significant Edge the section crosses: a line from the ground beyond it up to the
    piece's top, in the board's edge look."""
    b = style.board
    for e in art.section.edges:
        key = e.edge.label
        line = Line2D(
            [e.s, e.s], [e.edge.bottom, e.edge.top], color=b.edge_colour,
            linewidth=b.edge_linewidth, linestyle=b.edge_linestyle, zorder=3,
        )  # fmt: skip
        line.set_gid(EDGE_GID.format(key))
        art.ax.add_line(line)
        art.edges[key] = line


def _figure_path(s: float, level: float, r: float, height: float, scale: float) -> Path:
    """A standing figure's outline (body and head) of ``height`` on a base at ``level``: as
    wide as at most the base, its head round on the drawing (where heights are drawn
    ``scale`` times larger than distances)."""
    tall = height * scale  # as drawn, in millimetres across
    head = min(0.13 * tall, 0.45 * r)  # radius across
    w = min(1.4 * r, 0.55 * tall)
    ry = head / scale  # the head's radius up, in data
    body = height - 2 * ry
    verts = [
        (s - w / 2, level),
        (s + w / 2, level),
        (s + w * 0.42, level + body),
        (s - w * 0.42, level + body),
        (s - w / 2, level),
    ]
    codes = [Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY]
    cy = level + height - ry
    for k in range(25):
        a = 2 * math.pi * k / 24
        verts.append((s + head * math.cos(a), cy + ry * math.sin(a)))
        codes.append(Path.MOVETO if k == 0 else Path.LINETO)
    codes[-1] = Path.CLOSEPOLY
    return Path(verts, codes)


def _draw_model(art: SideArtists, scenario: Scenario, m: SideModel, style: SideStyle) -> None:
    """A model: its base (true width, thin) at its elevation and a standing figure on it, in
    its side's colour and hatch."""
    looks = side_looks(scenario)
    model = scenario.model(m.id)
    colour, hatch = looks.get(scenario.side_of(model.faction), (style.board.neutral_colour, ""))
    base = Rectangle(
        (m.s - m.r, m.elevation), 2 * m.r, style.base_mm, facecolor=colour,
        edgecolor=style.board.base_edge, linewidth=0.8, zorder=6,
    )  # fmt: skip
    base.set_gid(f"side:base:{m.id}")
    art.ax.add_patch(base)
    fig_path = _figure_path(m.s, m.elevation + style.base_mm, m.r, style.figure_mm, art.scale)
    figure = PathPatch(
        fig_path, facecolor=colour, edgecolor=style.board.base_edge, hatch=hatch,
        hatchcolor=hatch_colour(colour), linewidth=0.8, zorder=6,
    )  # fmt: skip
    figure.set_gid(f"side:figure:{m.id}")
    art.ax.add_patch(figure)
    art.bases[m.id] = base
    art.figures[m.id] = figure
    art.obstacles.extend([base, figure])


def _reasons(ruling: AttackRuling, clause: str) -> list[Any]:
    return [r for r in ruling.reasons if r.clause == clause]


def _model(cut: Section, ident: str) -> SideModel | None:
    return next((m for m in (cut.attacker, cut.target) if m is not None and m.id == ident), None)


def _ruler(art: SideArtists, clause: str, xs: XY, ys: XY, style: SideStyle) -> Line2D:
    """One Orange ruler (a thick line with square ends), kept by its clause."""
    line = Line2D(
        list(xs), list(ys), color=RULER_COLOURS["orange"], linewidth=style.orange_linewidth,
        solid_capstyle="butt", zorder=7,
    )  # fmt: skip
    line.set_gid(ORANGE_GID.format(clause))
    art.ax.add_line(line)
    art.orange[clause] = line
    art.rulers[clause] = (xs, ys)
    art.obstacles.append(line)
    return line


def _draw_orange(art: SideArtists, ruling: AttackRuling, style: SideStyle) -> None:
    """The Orange ruler where the ruling uses it (see the module's docstring)."""
    cut = art.section
    orange = cut.orange
    span = cut.end - cut.start
    up = _reasons(ruling, "elevation.elevated")
    if up and cut.target is not None:
        # Upright beside the lower base, from its level: the higher base (a dotted line at its
        # level reaches across) stands above the ruler's top, or not.
        params = up[0].params
        high = _model(cut, params.get("high", "")) or max(
            (cut.attacker, cut.target), key=lambda m: m.elevation
        )
        low = cut.target if high is cut.attacker else cut.attacker
        toward = 1.0 if high.s > low.s else -1.0
        x = low.s + toward * (low.r + 0.03 * span)
        _ruler(art, "elevation.elevated", (x, x), (low.elevation, low.elevation + orange), style)
        level = Line2D(
            [x, high.s - toward * high.r], [high.elevation, high.elevation],
            color=RULER_COLOURS["orange"], linewidth=1.0, linestyle=":", zorder=7,
        )  # fmt: skip
        art.ax.add_line(level)
    edge_reasons = _reasons(ruling, "elevation.edge-blocks-los") + _reasons(
        ruling, "elevation.edge-cover"
    )
    if edge_reasons and cut.target is not None:
        high = _model(cut, edge_reasons[0].params.get("model", "")) or cut.attacker
        other = cut.target if high is cut.attacker else cut.attacker
        toward = 1.0 if other.s > high.s else -1.0
        x0 = high.s + toward * high.r
        y = high.elevation + style.base_mm / 2
        _ruler(art, edge_reasons[0].clause, (x0, x0 + toward * orange), (y, y), style)
    if _reasons(ruling, "elevation.shooter-cover") and cut.target is not None:
        t = cut.target
        x0 = t.s - t.r
        y = t.elevation + style.base_mm / 2
        _ruler(art, "elevation.shooter-cover", (x0, x0 - orange), (y, y), style)


def _len(mm: float, lang: str) -> str:
    """A length in mm as the catalogue writes it (with inches), never broken across lines."""
    return length_text(mm, "mm", lang).replace(" ", "\u00a0")


def _say(key: str, lang: str, **values: Any) -> str:
    """A side-view label of the catalogue (``draw/side-<key>``) with its values."""
    text = draw_word(f"side-{key}", lang)
    return text.format(**values) if values else text


def _decorate(art: SideArtists, ruling: AttackRuling, style: SideStyle, lang: str) -> None:
    """Title, axis labels, the legend and the caption below the section; then the layout
    (:func:`_lay_out`)."""
    ax, cut = art.ax, art.section
    names = names_in(ruling.display_names(), lang)
    title = _say(
        "title",
        lang,
        attacker=names.get(ruling.attacker, ruling.attacker),
        target=names.get(str(ruling.target), str(ruling.target)),
    )
    size = style.board.font_size
    ax.set_xlabel(_say("x", lang), fontsize=size)
    ax.set_ylabel(_say("y", lang), fontsize=size)
    ax.tick_params(labelsize=size)
    art.handles = _legend_handles(art, style, lang)
    art.notes = [_say("figures", lang, height=_len(style.figure_mm, lang))]
    if art.scale > 1:
        art.notes.append(_say("scaled", lang, factor=number(art.scale, 1, lang)))
    art.caption = art.figure.text(0.0, 0.0, "", fontsize=size, color="#333333")
    art.caption.set_gid(NOTE_GID)
    art.title_text = title
    if cut.flat:
        flat = ax.text(
            0.02, 0.96, _say("flat", lang), transform=ax.transAxes, va="top", ha="left",
            fontsize=size, bbox=label_box(style.board), zorder=9,
        )  # fmt: skip
        flat.set_gid("side:flat")
        art.labels.append(flat)
    _lay_out(art, style, [])


LEGEND_GID = "side:legend"
NOTE_GID = "side:note"
PAD_PT = 4.0
GAP_PT = 6.0


def _lay_out(art: SideArtists, style: SideStyle, key: Sequence[str]) -> None:
    """Everything inside the figure: the caption (the notes, then the key of the labels that
    found no place by what they name) at the bottom, wrapped to the width; the legend above it
    (in fewer columns when one row is too wide); the title on top (wrapped); the section's
    Axes in between with room for its tick and axis labels, its limits filling the box at the
    heights' scale (:func:`_fit_limits`)."""
    from .layout import FIXED_SIZE, renderer_of, wrap

    fig, ax, title = art.figure, art.ax, art.title_text
    renderer = renderer_of(fig)
    assert art.caption is not None
    if renderer is None:
        ax.set_title(title)
        return
    pt = fig.dpi / 72.0
    pad, gap = PAD_PT * pt, GAP_PT * pt
    W = fig.bbox.width
    caption = art.caption
    notes = " ".join(art.notes)
    caption.set_text(wrap(notes, W - 2 * pad, caption, renderer))
    plain = caption.get_window_extent(renderer).height
    if key:
        lines = [notes, draw_word("key", art.lang) + ":", *key]
        caption.set_text(wrap("\n".join(lines), W - 2 * pad, caption, renderer))
    # The key makes the figure taller (never the section smaller), unless it is a panel's.
    grow = caption.get_window_extent(renderer).height - plain
    w_in = fig.get_size_inches()[0]
    if fig.get_gid() != FIXED_SIZE:
        fig.set_size_inches(w_in, art.design_height + grow / fig.dpi, forward=False)
    H = fig.bbox.height
    caption.set_position((pad / W, pad / H))
    bottom = pad + caption.get_window_extent(renderer).height + gap
    for old in list(fig.legends):
        old.remove()
    handles = art.handles
    for ncols in range(len(handles), 0, -1):
        legend = fig.legend(
            handles=handles, loc="lower left", ncols=ncols, frameon=False, borderaxespad=0.0,
            fontsize=style.board.legend_font_size, bbox_to_anchor=(pad / W, bottom / H),
            bbox_transform=fig.transFigure,
        )  # fmt: skip
        legend.set_gid(LEGEND_GID)
        if legend.get_window_extent(renderer).width <= W - 2 * pad or ncols == 1:
            bottom += legend.get_window_extent(renderer).height + gap
            break
        legend.remove()
    ax.title.set_fontsize(style.board.font_size + 2)
    for _ in range(2):
        box = ax.get_window_extent(renderer)
        # The title is centred over the Axes: it may be as wide as twice the nearer side.
        cx = (box.x0 + box.x1) / 2
        ax.set_title(wrap(title, 2 * min(cx - pad, W - pad - cx), ax.title, renderer))
        title_h = ax.title.get_window_extent(renderer).height + gap
        deco = _decorations(ax, renderer)
        left = pad + (box.x0 - deco.x0)
        low = bottom + (box.y0 - deco.y0)
        right = W - pad - max(deco.x1 - box.x1, 0.0)
        top = H - pad - title_h
        ax.set_position(Bbox.from_extents(left / W, low / H, right / W, top / H))
        _fit_limits(art)


def _fit_limits(art: SideArtists) -> None:
    """Limits that show at least ``art.want`` and fill the Axes' box, with the heights drawn
    ``art.scale`` times the distances' scale: the spare room goes to both ends of the section
    and above it (the table stays at the bottom). The distance from the shooter's centre
    always grows to the right: the shooter stands at the left whichever way the Line of
    Cover runs on the board (a section read as a sentence, shooter first)."""
    ax = art.ax
    x0, x1, y0, y1 = art.want
    box = ax.get_position().transformed(art.figure.transFigure)
    w, h = max(box.width, 1.0), max(box.height, 1.0)
    k = min(w / (x1 - x0), h / ((y1 - y0) * art.scale))  # pixels per mm across
    half = w / k / 2
    mid = (x0 + x1) / 2
    ax.set_xlim(mid - half, mid + half)
    ax.set_ylim(y0, y0 + h / (k * art.scale))


def _decorations(ax: Axes, renderer: Any) -> Bbox:
    """The Axes with its tick and axis labels (not the title)."""
    boxes = [ax.get_window_extent(renderer)]
    for axis in (ax.xaxis, ax.yaxis):
        b = axis.get_tightbbox(renderer)
        if b is not None:
            boxes.append(b)
    return Bbox.union(boxes)


def _legend_handles(art: SideArtists, style: SideStyle, lang: str) -> list[Any]:
    """The legend: the Orange ruler (its length), a Significant Edge, a piece without a
    height; only what the picture shows."""
    b = style.board
    out: list[Any] = []
    if art.orange:
        out.append(Line2D(
            [], [], color=RULER_COLOURS["orange"], linewidth=style.orange_linewidth,
            label=_say("orange", lang, length=_len(art.section.orange, lang)),
        ))  # fmt: skip
    if art.edges:
        out.append(Line2D(
            [], [], color=b.edge_colour, linewidth=b.edge_linewidth, linestyle=b.edge_linestyle,
            label=draw_word("edge", lang),
        ))  # fmt: skip
    if any(p.height is None for p in art.section.pieces):
        out.append(Rectangle(
            (0, 0), 1, 1, facecolor="#DDDDDD", edgecolor="#555555", linestyle="--",
            label=_say("no-height", lang),
        ))  # fmt: skip
    return out


# --- labels -----------------------------------------------------------------------------------

Label = tuple[str, XY, str]
"""A label's text, the point it names (data coordinates) and its gid."""


def _part_of(ref: PieceRef, part: TerrainRef | EdgeRef) -> bool:
    """Whether a ruling's reference ``ref`` names ``part`` (one piece or an edge): the same
    reference, or touching pieces acting as one among which the piece is."""
    if isinstance(ref, TerrainRef) and isinstance(part, TerrainRef):
        return set(part.ids) <= set(ref.ids)
    return ref == part


def _status(ruling: AttackRuling, part: TerrainRef | EdgeRef, lang: str) -> str:
    """What the ruling says of a piece or edge: its cover modifier (also as one of touching
    pieces acting as one), or the clause that ignores it, or that it blocks line of sight (as
    a blocker of its own); empty else."""
    cover = [c.modifier for c in ruling.cover if _part_of(c.ref, part)]
    if cover:
        return signed(sum(cover), lang)
    ignored = [i.clause for i in ruling.ignored if _part_of(i.ref, part)]
    if ignored:
        return f"{draw_word('ignored', lang)}: {ignored[0]}"
    if ruling.sight is not None and part in ruling.sight.blockers:
        return draw_word("blocker", lang)
    return ""


def _orange_verdict(ruling: AttackRuling, clause: str, lang: str) -> str:
    """The ruling's verdict at an Orange mark, in a few words, after the clause id."""
    keys = [r.key for r in ruling.reasons if r.clause == clause]
    if clause == "elevation.elevated":
        word = "elevated" if "yes" in keys else "not-elevated"
    elif clause == "elevation.edge-blocks-los":
        word = "edge-far" if "far" in keys else "edge-near"
    elif clause == "elevation.edge-cover":
        word = "edge-cover"
    else:
        word = "within"
    return f"{clause}: {_say(word, lang)}"


def _label_texts(
    art: SideArtists, scenario: Scenario, ruling: AttackRuling, style: SideStyle, lang: str
) -> list[Label]:
    """The labels: each model (name, height of its base), each piece the Line of Cover meets
    (name, height, what the ruling says of it), each edge (its drop), each Orange mark."""
    names = names_in(ruling.display_names(), lang)
    cut = art.section
    out: list[Label] = []
    for m in (cut.attacker, cut.target):
        if m is not None:
            text = names.get(m.id, m.id)
            if m.elevation > 0:
                text += f" ↑{_len(m.elevation, lang)}"
            top = m.elevation + style.base_mm + style.figure_mm
            out.append((text, (m.s, top), f"side:label:{m.id}"))
    for p in cut.pieces:
        if not p.on_line and p.height is None:
            continue
        s0, s1 = max(p.spans[0][0], cut.start), min(p.spans[-1][1], cut.end)
        height = _len(p.height, lang) if p.height is not None else _say("no-height", lang)
        parts = [
            names.get(p.id, p.id),
            height if p.height is not None else "",
            _status(ruling, TerrainRef((p.id,)), lang),
        ]
        top = p.height if p.height is not None else style.no_height_mm
        text = " · ".join(x for x in parts if x)
        out.append((text, ((s0 + s1) / 2, top), f"side:label:{p.id}"))
    for e in cut.edges:
        drop = _say("drop", lang, drop=_len(e.edge.drop, lang))
        status = _status(ruling, e.edge.ref, lang)
        text = " · ".join(x for x in (drop, status) if x)
        out.append((text, (e.s, (e.edge.top + e.edge.bottom) / 2), f"side:label:{e.edge.label}"))
    for clause in art.orange:
        (x0, x1), (y0, y1) = art.rulers[clause]
        mid = ((x0 + x1) / 2, (y0 + y1) / 2)
        out.append((_orange_verdict(ruling, clause, lang), mid, f"side:label:{clause}"))
    return out


HAlign = Literal["left", "center", "right"]
VAlign = Literal["bottom", "center", "top"]
CANDIDATES: tuple[tuple[float, float, HAlign, VAlign], ...] = (
    (0, 5, "center", "bottom"),
    (0, -5, "center", "top"),
    (7, 0, "left", "center"),
    (-7, 0, "right", "center"),
    (7, 7, "left", "bottom"),
    (-7, 7, "right", "bottom"),
    (7, -7, "left", "top"),
    (-7, -7, "right", "top"),
    (0, 20, "center", "bottom"),
    (0, -20, "center", "top"),
    (24, 16, "left", "bottom"),
    (-24, 16, "right", "bottom"),
    (0, 36, "center", "bottom"),
    (24, -16, "left", "top"),
    (-24, -16, "right", "top"),
    (0, 52, "center", "bottom"),
    (40, 30, "left", "bottom"),
    (-40, 30, "right", "bottom"),
    (0, -36, "center", "top"),
    (0, 70, "center", "bottom"),
    (60, 45, "left", "bottom"),
    (-60, 45, "right", "bottom"),
    (60, -30, "left", "top"),
    (-60, -30, "right", "top"),
    (0, 90, "center", "bottom"),
)
"""Where a label may go from the point it names, in points, in order of preference."""


def _overlaps(a: Bbox, b: Bbox) -> bool:
    """Whether two boxes share more than half a pixel each way (antialiasing)."""
    return bool(min(a.x1, b.x1) - max(a.x0, b.x0) > 0.5 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0.5)


def _box(t: Text, renderer: Any) -> Bbox:
    """The text with its background box as drawn (without an annotation's leader line)."""
    if isinstance(t, Annotation):
        t.update_positions(renderer)
    box = Text.get_window_extent(t, renderer)
    patch = t.get_bbox_patch()
    if patch is not None:
        t.update_bbox_position_size(renderer)
        box = Bbox.union([box, patch.get_window_extent(renderer)])
    return box


def place_labels(art: SideArtists, labels: Sequence[Label], style: SideStyle) -> None:
    """Put each label at the first place of :data:`CANDIDATES` inside the axes and clear of
    the labels placed before, the figures, bases, strips, edges and rulers. A label with no
    such place becomes a number at the point it names and its text goes into the key under
    the section; the layout then changes, so every label is placed again (at most three
    rounds; the numbered ones take any place inside the axes if no free one is left)."""
    keyed: list[str] = []
    made: list[Text] = []
    for _ in range(3):
        for t in made:
            t.remove()
        key = [f"{n}: {text}" for n, (text, _, gid) in _numbered(labels, keyed)]
        _lay_out(art, style, key)
        made, missing = _place_once(art, labels, keyed, style)
        if not missing:
            break
        keyed += missing
    art.labels.extend(made)


def _numbered(labels: Sequence[Label], keyed: Sequence[str]) -> list[tuple[int, Label]]:
    """The labels shown by a number, numbered from 1 in the labels' order."""
    chosen = [lab for lab in labels if lab[2] in keyed]
    return list(enumerate(chosen, 1))


def _place_once(
    art: SideArtists, labels: Sequence[Label], keyed: Sequence[str], style: SideStyle
) -> tuple[list[Text], list[str]]:
    """One round of :func:`place_labels`: the texts made, and the gids of the labels that
    found no free place."""
    from .layout import renderer_of

    ax = art.ax
    renderer = renderer_of(art.figure)
    if renderer is None:
        return [], []
    frame = ax.get_window_extent(renderer)
    taken = [_box(t, renderer) for t in art.labels]
    taken += [o.get_window_extent(renderer) for o in (*art.obstacles, *art.edges.values())]
    numbers = {lab[2]: n for n, lab in _numbered(labels, keyed)}
    leaders: list[Segment] = []
    made: list[Text] = []
    missing: list[str] = []
    b = style.board
    # the numbers first: their points are fixed and small boxes fit anywhere, and the words
    # placed after them keep clear of their leader lines
    for text, xy, gid in sorted(labels, key=lambda lab: lab[2] not in numbers):
        shown = str(numbers[gid]) if gid in numbers else text
        t = ax.annotate(
            shown, xy, xytext=(0, 0), textcoords="offset points", fontsize=b.font_size,
            bbox=label_box(b), zorder=9, annotation_clip=False,
            arrowprops={"arrowstyle": "-", "color": b.leader_colour,
                        "linewidth": b.leader_linewidth, "shrinkA": 0, "shrinkB": 0},
        )  # fmt: skip
        t.set_gid(gid)
        if not _try_places(t, renderer, frame, taken, leaders):
            if gid not in numbers:
                missing.append(gid)
            else:
                for level in (1, 2, 3):
                    if _try_places(t, renderer, frame, taken, leaders, level=level):
                        break
        taken.append(_box(t, renderer))
        made.append(t)
    return made, missing


Segment = tuple[XY, XY]


def _try_places(
    t: Annotation,
    renderer: Any,
    frame: Bbox,
    taken: list[Bbox],
    leaders: list[Segment],
    *,
    level: int = 0,
) -> bool:
    """Move ``t`` to the first free place: inside the axes, its box clear of ``taken`` and of
    the leader lines drawn so far, its own leader line (from the point it names to the box)
    clear of ``taken``. For a number with no such place: ``level`` 1 lets its box lie on
    other leader lines (its own still crosses no label), 2 lets its leader line cross labels
    too, 3 takes the first place inside the axes. Adds its leader line to ``leaders``."""
    anchor = tuple(t.axes.transData.transform(t.xy)) if t.axes is not None else (0.0, 0.0)
    for dx, dy, ha, va in CANDIDATES:
        t.set_position((dx, dy))  # offset points from the point named
        t.set_horizontalalignment(ha)
        t.set_verticalalignment(va)
        box = _box(t, renderer)
        inside = (
            frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1
        )
        lead = (anchor, _nearest(box, anchor))
        free = level >= 3 or not any(_overlaps(box, o) for o in taken)
        if level == 0:
            free = free and not any(_hits(box, seg) for seg in leaders)
        if level <= 1:
            free = free and not any(_hits(o, lead) for o in taken if not _inside(anchor, o))
        if inside and free:
            leaders.append(lead)
            return True
    return False


def _inside(p: Sequence[float], box: Bbox) -> bool:
    return bool(box.x0 <= p[0] <= box.x1 and box.y0 <= p[1] <= box.y1)


def _nearest(box: Bbox, p: Sequence[float]) -> XY:
    """The point of ``box`` nearest to ``p`` (where a leader line meets the label)."""
    return (min(max(p[0], box.x0), box.x1), min(max(p[1], box.y0), box.y1))


def _hits(box: Bbox, seg: Segment) -> bool:
    """Whether a segment passes through a box's inside (shrunk by a pixel: touching is not
    crossing), sampled finely enough for a label (every 2 pixels)."""
    (x0, y0), (x1, y1) = seg
    n = max(2, int(math.hypot(x1 - x0, y1 - y0) / 2))
    for k in range(n + 1):
        x, y = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
        if box.x0 + 1 < x < box.x1 - 1 and box.y0 + 1 < y < box.y1 - 1:
            return True
    return False


# --- the picture with the board above it --------------------------------------------------------


def side_view_figure(
    scenario: Scenario,
    ruling: AttackRuling,
    *,
    lang: str = "en",
    dpi: float | None = None,
    style: SideStyle = DEFAULT_SIDE_STYLE,
) -> Figure:
    """A new figure holding the side view of ``ruling`` at ``dpi`` (default ``style.dpi``)."""
    ax = new_axes(style.figsize, style.dpi if dpi is None else dpi, style.margins)
    return draw_side_view(scenario, ruling, ax, lang=lang, style=style).figure


def stacked(top: Figure, bottom: Figure, format: str = "png", *, dpi: float | None = None) -> bytes:
    """Two figures of one width as one picture, ``top`` above ``bottom`` (PNG or SVG), both
    at ``dpi`` (default: each at its own dpi; give them the same): the board with its side
    view below it."""
    from .figure import figure_bytes

    a = figure_bytes(top, format, dpi=top.dpi if dpi is None else dpi)
    b = figure_bytes(bottom, format, dpi=bottom.dpi if dpi is None else dpi)
    return _stack_svg(a, b) if format == "svg" else _stack_png(a, b)


def _stack_png(a: bytes, b: bytes) -> bytes:
    import io

    from PIL import Image

    one, two = Image.open(io.BytesIO(a)), Image.open(io.BytesIO(b))
    out = Image.new("RGBA", (max(one.width, two.width), one.height + two.height), "white")
    out.paste(one, (0, 0))
    out.paste(two, (0, one.height))
    buf = io.BytesIO()
    out.save(buf, format="png")
    return buf.getvalue()


_SVG = "http://www.w3.org/2000/svg"
_XLINK = "http://www.w3.org/1999/xlink"


def _stack_svg(a: bytes, b: bytes) -> bytes:
    """Two SVG documents as one, the second below the first; the second's ids are renamed
    (``b-<id>``) so that no reference of one picture reaches into the other."""
    import re
    import xml.etree.ElementTree as ET

    ET.register_namespace("", _SVG)
    ET.register_namespace("xlink", _XLINK)
    first, second = ET.fromstring(a), ET.fromstring(b)
    text = ET.tostring(second, encoding="unicode")
    text = re.sub(r'\bid="([^"]+)"', r'id="b-\1"', text)
    text = re.sub(r"url\(#([^)]+)\)", r"url(#b-\1)", text)
    text = re.sub(r'href="#([^"]+)"', r'href="#b-\1"', text)
    second = ET.fromstring(text)

    def size(root: Any) -> tuple[float, float]:
        return (float(root.get("width").rstrip("pt")), float(root.get("height").rstrip("pt")))

    (w1, h1), (w2, h2) = size(first), size(second)
    width, height = max(w1, w2), h1 + h2
    root = ET.Element(
        f"{{{_SVG}}}svg",
        {"width": f"{width}pt", "height": f"{height}pt", "viewBox": f"0 0 {width} {height}",
         "version": "1.1"},
    )  # fmt: skip
    for doc, y in ((first, 0.0), (second, h1)):
        doc.set("x", "0")
        doc.set("y", f"{y}")
        root.append(doc)
    return b'<?xml version="1.0" encoding="utf-8" standalone="no"?>\n' + ET.tostring(root)


def render_side_view(
    scenario: Scenario,
    path: str | os.PathLike[str],
    *,
    attacker: str,
    target: Any,
    lang: str = "en",
    **options: Any,
) -> Any:
    """``fwwrules render FILE --attacker A --target T --side-view -o FILE``: the board picture
    of :func:`fwwrules.draw.render.render_figure` (``options`` are its size, ruleset, band,
    weapon, title and frame) with the shot's side view below it, at the same resolution, as
    one PNG or SVG file (written atomically). Returns the path."""
    from ..attack import ruling as make_ruling
    from ..writing import write_atomic
    from .export import picture_path
    from .render import render_figure

    out, fmt = picture_path(path)
    board = render_figure(scenario, attacker=attacker, target=target, lang=lang, **options)
    answer = make_ruling(
        scenario,
        attacker,
        target,
        weapon=options.get("weapon"),
        rules=options.get("rules"),
        band=options.get("band"),
    )
    side = side_view_figure(scenario, answer, lang=lang, dpi=board.dpi)
    write_atomic(out, stacked(board, side, fmt))
    return out
