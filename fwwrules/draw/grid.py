"""Drawing a Pathfinder grid (``fwwrules/grid@1``) and a grid cover ruling with matplotlib.

The picture uses the file's coordinates: x is the column, y the row, growing downward (the y
axis is inverted), one unit per square; corners are integer points. Meaning never rests on
colour alone: square kinds differ by hatch, the attacker and target by hatch and label, and
each line verdict by its dash pattern as well as its (Okabe-Ito, colour-blind safe) colour.
Every text comes from the message catalogue (``grid/...`` entries) in English or German.

Only :mod:`fwwrules.draw` imports this module; ``import fwwrules`` never loads matplotlib.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, Patch, Rectangle
from matplotlib.text import Text

from ..catalogue import LANGS, check_lang, render
from ..grid import ARROW_SLIT, LOW, VERDICTS, WALL, GridRuling, GridScenario
from ..pieces import title_in
from .board import tick_step
from .figure import Margins, figure_of, new_axes
from .labels import place_names
from .layout import fit_height_to_board, fit_layout, restack, set_titles
from .text import draw_word


@dataclass(frozen=True, slots=True)
class SquareLook:
    """Face colour, edge colour and hatch of one kind of square."""

    face: str
    edge: str
    hatch: str


@dataclass(frozen=True, slots=True)
class LineLook:
    """Colour, dash pattern and width of the lines of one verdict."""

    colour: str
    dashes: Any
    width: float = 1.6


@dataclass(frozen=True, slots=True)
class GridStyle:
    """Every colour, hatch, dash and size of a grid picture, in one place (Okabe-Ito)."""

    figsize: tuple[float, float] = (8.0, 5.5)
    dpi: float = 100.0
    margins: Margins = (0.06, 0.68, 0.06, 0.86)
    """Where the grid's Axes sits in the figure (the legend uses the room on the right)."""
    font_size: float = 9.0
    """Points: at least 9 pt for every text of the picture at its display size (as boards)."""
    title_width: int = 70
    grid_colour: str = "#BBBBBB"
    grid_linewidth: float = 0.6
    squares: tuple[tuple[str, SquareLook], ...] = (
        (WALL, SquareLook("#4D4D4D", "#000000", "xx")),
        (LOW, SquareLook("#F0E442", "#8C7F00", "//")),
        (ARROW_SLIT, SquareLook("#56B4E9", "#000000", "||")),
    )
    border_wall_colour: str = "#000000"
    border_wall_linewidth: float = 4.0
    attacker: SquareLook = SquareLook("#0072B2", "#000000", "")
    target: SquareLook = SquareLook("#D55E00", "#000000", "\\\\")
    other: SquareLook = SquareLook("#BBBBBB", "#000000", "..")
    creature_alpha: float = 0.85
    lines: tuple[tuple[str, LineLook], ...] = (
        ("clear", LineLook("#009E73", "solid")),
        (WALL, LineLook("#000000", (0, (6, 2)))),
        ("border-wall", LineLook("#000000", (0, (2, 2)))),
        (ARROW_SLIT, LineLook("#0072B2", (0, (6, 2, 1, 2)))),
        (LOW, LineLook("#E69F00", (0, (1, 1)), 2.0)),
        ("creature", LineLook("#CC79A7", (0, (4, 1, 1, 1, 1, 1)))),
    )
    corner_colour: str = "#000000"
    corner_size: float = 9.0

    def square_look(self, kind: str) -> SquareLook | None:
        return dict(self.squares).get(kind)

    def line_look(self, verdict: str) -> LineLook:
        return dict(self.lines)[verdict]


DEFAULT_GRID_STYLE = GridStyle()


@dataclass(eq=False)
class GridArtists:
    """The artists of one grid picture, by role, for tests and in-place updates.

    ``lines`` holds one :class:`Line2D` per verdict (``clear``, ``wall``, ``border-wall``,
    ``arrow-slit``, ``low``, ``creature``); its pieces are separated by NaN. ``corner`` marks
    the attacker's chosen corner.
    """

    figure: Figure
    ax: Axes
    style: GridStyle
    squares: dict[str, list[Rectangle]]
    border_walls: Line2D
    creatures: dict[str, Circle]
    labels: dict[str, Text]
    lines: dict[str, Line2D]
    corner: Line2D
    title: Text
    legend: Legend | None = None
    roles: dict[str, str] = field(default_factory=dict)
    leaders: Line2D | None = None
    """Lines joining a creature's name placed away from it to it (:func:`place_names`)."""
    hidden: int = 0
    """How many creatures' names found no place (the legend's last line counts them)."""


def _runs(scenario: GridScenario, kind: str) -> list[tuple[int, int, int]]:
    """Horizontal runs ``(column, row, length)`` of squares of one kind."""
    out: list[tuple[int, int, int]] = []
    for r, row in enumerate(scenario.kinds):
        c = 0
        while c < len(row):
            if row[c] == kind:
                start = c
                while c < len(row) and row[c] == kind:
                    c += 1
                out.append((start, r, c - start))
            else:
                c += 1
    return out


def _word(key: str, lang: str) -> str:
    return render(key, {}, lang)


def draw_grid(
    scenario: GridScenario,
    ax: Axes | None = None,
    *,
    ruling: GridRuling | None = None,
    lang: str = "en",
    style: GridStyle = DEFAULT_GRID_STYLE,
) -> GridArtists:
    """Draw the grid, its terrain, border walls and creatures, and (when given) a ruling's
    lines from the attacker's chosen corner, each dashed and coloured by its verdict.

    Without ``ax`` a figure of ``style.figsize`` is made with pyplot (a notebook shows it).
    Returns the artists; :func:`update_grid` shows another ruling without redrawing the map.
    """
    check_lang(lang)
    if ax is None:
        ax = new_axes(style.figsize, style.dpi, style.margins, pyplot=True)
    _set_grid_axes(ax, scenario, style)
    _draw_grid_lines(ax, scenario, style)
    squares = _square_patches(ax, scenario, style)
    border_walls = _border_walls(ax, scenario, style)
    creatures, labels = _creatures(ax, scenario, style)
    lines = _verdict_lines(ax, style)
    (corner,) = ax.plot(
        [],
        [],
        linestyle="none",
        marker="o",
        markersize=style.corner_size,
        markerfacecolor="white",
        markeredgecolor=style.corner_colour,
        markeredgewidth=2.0,
        zorder=8,
    )
    title = ax.set_title("", fontsize=style.font_size + 1)
    (leaders,) = ax.plot([], [], color="#333333", linewidth=0.8, zorder=6.5)
    artists = GridArtists(
        figure=figure_of(ax),
        ax=ax,
        style=style,
        squares=squares,
        border_walls=border_walls,
        creatures=creatures,
        labels=labels,
        lines=lines,
        corner=corner,
        title=title,
        leaders=leaders,
    )
    update_grid(artists, scenario, ruling, lang=lang)
    return artists


def _set_grid_axes(ax: Axes, scenario: GridScenario, style: GridStyle) -> None:
    """Limits (rows grow downward), aspect and ticks (about twenty at most)."""
    w, h = scenario.width, scenario.height
    ax.set_xlim(-0.25, w + 0.25)
    ax.set_ylim(h + 0.25, -0.25)  # rows grow downward
    ax.set_aspect("equal", adjustable="box")
    ax.autoscale(False)
    ax.tick_params(labelsize=style.font_size)
    span = max(w, h)
    step = 1 if span <= 20 else int(tick_step(span, (5.0, 10.0, 20.0, 50.0)))
    ax.set_xticks(range(0, w + 1, step))
    ax.set_yticks(range(0, h + 1, step))


def _draw_grid_lines(ax: Axes, scenario: GridScenario, style: GridStyle) -> None:
    """The squares' lines, as one line with breaks."""
    w, h = scenario.width, scenario.height
    grid_x: list[float] = []
    grid_y: list[float] = []
    for x in range(w + 1):
        grid_x += [x, x, math.nan]
        grid_y += [0, h, math.nan]
    for y in range(h + 1):
        grid_x += [0, w, math.nan]
        grid_y += [y, y, math.nan]
    ax.plot(grid_x, grid_y, color=style.grid_colour, linewidth=style.grid_linewidth, zorder=1)


def _square_patches(
    ax: Axes, scenario: GridScenario, style: GridStyle
) -> dict[str, list[Rectangle]]:
    """The terrain squares, one rectangle per run of squares of a kind in a row."""
    squares: dict[str, list[Rectangle]] = {}
    for kind, look in style.squares:
        patches = []
        for c, r, n in _runs(scenario, kind):
            rect = Rectangle(
                (c, r),
                n,
                1,
                facecolor=look.face,
                edgecolor=look.edge,
                hatch=look.hatch,
                linewidth=0.8,
                zorder=2,
            )
            ax.add_artist(rect)  # the limits are fixed: no data limits to update
            patches.append(rect)
        squares[kind] = patches
    return squares


def _border_walls(ax: Axes, scenario: GridScenario, style: GridStyle) -> Line2D:
    """The walls along square borders, as one line with breaks."""
    wx: list[float] = []
    wy: list[float] = []
    for wall in scenario.walls:
        wx += [wall.start[0], wall.end[0], math.nan]
        wy += [wall.start[1], wall.end[1], math.nan]
    (border_walls,) = ax.plot(
        wx,
        wy,
        color=style.border_wall_colour,
        linewidth=style.border_wall_linewidth,
        solid_capstyle="butt",
        zorder=5,
    )
    return border_walls


def _creatures(
    ax: Axes, scenario: GridScenario, style: GridStyle
) -> tuple[dict[str, Circle], dict[str, Text]]:
    """Each creature's disc in the middle of its squares, and its label on it."""
    creatures: dict[str, Circle] = {}
    labels: dict[str, Text] = {}
    for cr in scenario.creatures:
        cx = cr.at[0] + cr.size / 2
        cy = cr.at[1] + cr.size / 2
        look = style.other
        circle = Circle(
            (cx, cy),
            0.38 * cr.size,
            facecolor=look.face,
            edgecolor=look.edge,
            hatch=look.hatch,
            alpha=style.creature_alpha,
            linewidth=1.0,
            zorder=3,
        )
        ax.add_artist(circle)  # not add_patch: 200 creatures' data limits cost more than all
        creatures[cr.id] = circle
        labels[cr.id] = ax.text(
            cx,
            cy,
            cr.label,
            ha="center",
            va="center",
            fontsize=style.font_size,
            zorder=7,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.75},
        )
    return creatures, labels


def _verdict_lines(ax: Axes, style: GridStyle) -> dict[str, Line2D]:
    """One (empty) line per verdict, in its colour and dashes, filled by :func:`update_grid`."""
    lines: dict[str, Line2D] = {}
    for verdict in ("clear", *VERDICTS):
        look_ = style.line_look(verdict)
        (line,) = ax.plot(
            [],
            [],
            color=look_.colour,
            linestyle=look_.dashes,
            linewidth=look_.width,
            zorder=6,
        )
        lines[verdict] = line
    return lines


def update_grid(
    artists: GridArtists,
    scenario: GridScenario,
    ruling: GridRuling | None,
    *,
    lang: str = "en",
) -> GridArtists:
    """Show ``ruling`` (or none) on an existing picture: lines, chosen corner, roles of the
    creatures, title and legend change in place; nothing is drawn until the caller draws."""
    check_lang(lang)
    style = artists.style
    pieces: dict[str, tuple[list[float], list[float]]] = {v: ([], []) for v in artists.lines}
    if ruling is not None:
        for ln in ruling.lines:
            xs, ys = pieces[ln.verdict]
            xs += [ln.start[0], ln.end[0], math.nan]
            ys += [ln.start[1], ln.end[1], math.nan]
    for verdict, line in artists.lines.items():
        line.set_data(*pieces[verdict])
    if ruling is None:
        artists.corner.set_data([], [])
    else:
        corners = {ln.start for ln in ruling.lines} if ruling.procedure == "melee" else set()
        corners.add(ruling.corner)
        xs_ = [float(c[0]) for c in sorted(corners)]
        ys_ = [float(c[1]) for c in sorted(corners)]
        artists.corner.set_data(xs_, ys_)
    roles: dict[str, str] = {}
    if ruling is not None:
        roles = {ruling.attacker: "attacker", ruling.target: "target"}
    for ident, circle in artists.creatures.items():
        role = roles.get(ident, "other")
        look = {"attacker": style.attacker, "target": style.target}.get(role, style.other)
        circle.set_facecolor(look.face)
        circle.set_hatch(look.hatch)
    artists.roles = roles
    for cr in scenario.creatures:  # each creature's name in ``lang``
        if cr.id in artists.labels:
            artists.labels[cr.id].set_text(cr.label_in(lang))
    # The grid's title in ``lang`` (a file's title per language), then the ruling's headline.
    text = _grid_title(scenario, ruling, lang)
    set_titles(artists.ax, [_grid_title(scenario, ruling, other) for other in LANGS])
    _legend(artists, scenario, ruling, lang)
    fit_layout(artists.ax, title=text)  # nothing cut: fwwrules.draw.layout
    fit_height_to_board(artists.ax, title=text)  # no empty bands round a wide grid
    hidden = _place_creature_names(artists, scenario)
    if hidden != artists.hidden:  # the legend's last line counts them
        artists.hidden = hidden
        _legend(artists, scenario, ruling, lang)
        if restack(artists.ax) > 0.5:
            fit_layout(artists.ax, title=text)
            _place_creature_names(artists, scenario)
    return artists


def _place_creature_names(artists: GridArtists, scenario: GridScenario) -> int:
    """Each creature's name beside it, clear of every creature and name (the attacker's and
    the target's first; :func:`fwwrules.draw.labels.place_names`); how many found no place."""
    ax = artists.ax
    roles = artists.roles
    order = sorted(
        scenario.creatures, key=lambda c: {"attacker": 0, "target": 1}.get(roles.get(c.id, ""), 2)
    )
    to_px = ax.transData
    discs = {}
    for cr in scenario.creatures:
        circle = artists.creatures[cr.id]
        (cx, cy), (ex, _) = to_px.transform(
            [circle.center, (circle.center[0] + circle.get_radius(), circle.center[1])]
        )
        discs[cr.id] = (float(cx), float(cy), abs(float(ex - cx)))
        label = artists.labels[cr.id]
        label.set_visible(True)
        label.set_position(circle.center)
    hidden, leaders = place_names(
        ax, [(artists.labels[c.id], discs[c.id]) for c in order], list(discs.values()),
        lines=_ruling_segments(artists),
    )  # fmt: skip
    if artists.leaders is not None:
        to_data = to_px.inverted()
        xs: list[float] = []
        ys: list[float] = []
        for x0, y0, x1, y1 in leaders:
            (a, b), (c, d) = to_data.transform([(x0, y0), (x1, y1)])
            xs += [a, c, math.nan]
            ys += [b, d, math.nan]
        artists.leaders.set_data(xs, ys)
    return hidden


def _ruling_segments(artists: GridArtists) -> list[tuple[float, float, float, float]]:
    """The ruling's lines in display pixels (names keep clear of them where they can)."""
    import numpy as np

    out: list[tuple[float, float, float, float]] = []
    for line in artists.lines.values():
        xy = np.asarray(line.get_xydata(), dtype=float).reshape(-1, 2)
        if not len(xy):
            continue
        px = artists.ax.transData.transform(xy)
        for p, q in zip(px[:-1].tolist(), px[1:].tolist(), strict=True):
            if not any(map(math.isnan, (*p, *q))):
                out.append((*p, *q))
    return out


def _grid_title(scenario: GridScenario, ruling: GridRuling | None, lang: str) -> str:
    lines = (title_in(scenario.title, lang), None if ruling is None else ruling.headline(lang))
    return "\n".join(line for line in lines if line)


def _legend(
    artists: GridArtists, scenario: GridScenario, ruling: GridRuling | None, lang: str
) -> None:
    """The legend beside the grid: what is drawn, and nothing else."""
    style = artists.style
    handles = _terrain_handles(scenario, style, lang) + _role_handles(artists, lang)
    if ruling is not None:
        handles += _ruling_handles(artists, ruling, lang)
    if artists.hidden:
        more = draw_word("key-dropped", lang).format(n=artists.hidden)
        handles.append(Line2D([], [], linestyle="none", label=more))
    if artists.legend is not None:
        artists.legend.remove()
    artists.legend = artists.ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(1.02, 1.0),
        borderaxespad=0.0,  # the same conventions as a board's legend
        fontsize=style.font_size,
        frameon=False,
        handlelength=3.0,
        handletextpad=0.5,
        labelspacing=0.35,
    )


def _terrain_handles(scenario: GridScenario, style: GridStyle, lang: str) -> list[Any]:
    """Legend entries for the kinds of square on the grid and its border walls."""
    handles: list[Any] = []
    present = {k for row in scenario.kinds for k in row}
    for kind, look in style.squares:
        if kind in present:
            handles.append(
                Patch(
                    facecolor=look.face,
                    edgecolor=look.edge,
                    hatch=look.hatch,
                    label=_word(f"grid/kind/{kind}", lang),
                )
            )
    if scenario.walls:
        handles.append(
            Line2D(
                [],
                [],
                color=style.border_wall_colour,
                linewidth=style.border_wall_linewidth,
                label=_word("grid/kind/border-wall", lang),
            )
        )
    return handles


def _role_handles(artists: GridArtists, lang: str) -> list[Any]:
    """Legend entries for the creatures' roles drawn (attacker, target, other creatures)."""
    style = artists.style
    roles: Mapping[str, SquareLook] = {
        "attacker": style.attacker,
        "target": style.target,
        "creature": style.other,
    }
    drawn_roles = set(artists.roles.values())
    if any(ident not in artists.roles for ident in artists.creatures):
        drawn_roles.add("creature")  # some creature is neither attacker nor target
    handles: list[Any] = []
    for role, look in roles.items():
        if role not in drawn_roles:
            continue  # the legend lists only what is drawn
        key = f"grid/word/{role}" if role != "creature" else "grid/kind/creature"
        handles.append(
            Patch(
                facecolor=look.face, edgecolor=look.edge, hatch=look.hatch, label=_word(key, lang)
            )
        )
    return handles


def _ruling_handles(artists: GridArtists, ruling: GridRuling, lang: str) -> list[Any]:
    """Legend entries for the ruling's verdicts drawn and the chosen corner."""
    style = artists.style
    handles: list[Any] = []
    shown = sorted({ln.verdict for ln in ruling.lines}, key=list(artists.lines).index)
    for verdict in shown:
        look_ = style.line_look(verdict)
        handles.append(
            Line2D(
                [],
                [],
                color=look_.colour,
                linestyle=look_.dashes,
                linewidth=look_.width,
                label=_word(f"grid/verdict/{verdict}", lang),
            )
        )
    handles.append(
        Line2D(
            [],
            [],
            linestyle="none",
            marker="o",
            markerfacecolor="white",
            markeredgecolor=style.corner_colour,
            markeredgewidth=2.0,
            label=_word("grid/word/corner", lang),
        )
    )
    return handles
