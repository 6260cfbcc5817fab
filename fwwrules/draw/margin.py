"""A knife-edge call on a board picture: the pinch point, and the move that changes the ruling.

When a ruling's smallest margin (:mod:`fwwrules.margins`) is below the scenario's knife edge,
the picture marks the pinch point (the grazed corner, the band's end, the contact: a star)
and draws an arrow from the model that would move, the way it would move, labelled with the
distance (``0.4 mm``). The arrow has a fixed length on the picture (the distance itself is far
too short to see); the label says how far. Nothing is drawn for a call that is not close.

The artists are kept in the picture's ``state`` (``margin_artists``) and made on first use;
:meth:`fwwrules.draw.artists.BoardArtists.overlays` lists them, so a blitting panel redraws
them with the other overlays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch
from matplotlib.text import Text

from ..catalogue import length
from ..closeness import TINY_MARGIN_MM, Margin
from .artists import BoardArtists, label_box

if TYPE_CHECKING:
    from ..data import Scenario

ARROW_SHARE = 0.07
"""The arrow's length as a share of the view's width (a fixed length on the picture)."""
PINCH_COLOUR = "#F0E442"
"""The pinch point's star: yellow with a black edge (not colour alone: a star)."""


def margin_shown(artists: BoardArtists) -> bool:
    """Whether the picture shows a knife-edge call now (for the legend)."""
    return any(a.get_visible() for a in artists.state.get("margin_artists", ()))


def legend_proxy() -> Line2D:
    """The legend's mark of a knife-edge call: the pinch point's star."""
    return Line2D(
        [], [], linestyle="none", marker="*", markersize=11, markerfacecolor=PINCH_COLOUR,
        markeredgecolor="black",
    )  # fmt: skip


def margin_artists(artists: BoardArtists) -> tuple[Line2D, FancyArrowPatch, Text]:
    """The star, the arrow and the label of a knife-edge call (made hidden on first use)."""
    made = artists.state.get("margin_artists")
    if made is not None:
        star, arrow, label = made
        return star, arrow, label
    style, ax = artists.style, artists.ax
    star = Line2D(
        [], [], linestyle="none", marker="*", markersize=style.marker_size * 2.6,
        markerfacecolor=PINCH_COLOUR, markeredgecolor="black", markeredgewidth=1.0,
        zorder=5.6, visible=False, gid="knife-edge:pinch",
    )  # fmt: skip
    ax.add_line(star)
    arrow = FancyArrowPatch(
        (0.0, 0.0), (1.0, 0.0), arrowstyle="-|>", mutation_scale=14.0, linewidth=2.0,
        color="black", zorder=5.6, visible=False, gid="knife-edge:move",
    )  # fmt: skip
    ax.add_patch(arrow)
    label = ax.text(
        0.0, 0.0, "", fontsize=style.font_size, fontweight="bold", zorder=style.label_zorder + 0.2,
        visible=False, bbox=label_box(style, edge="black"), gid="knife-edge:distance",
        parse_math=False,
    )  # fmt: skip
    made = (star, arrow, label)
    for a in made:
        a.set_animated(bool(artists.state.get("animated")))
    artists.state["margin_artists"] = made
    return star, arrow, label


def draw_margin(
    artists: BoardArtists, scenario: Scenario, margin: Margin | None, lang: str
) -> None:
    """Show ``margin`` (a ruling's smallest, :class:`~fwwrules.closeness.Margin`) when it is a
    knife-edge call, else hide the marks. Draws nothing: the caller redraws."""
    artists.state.pop("margin_arrow", None)
    if margin is None or not margin.knife_edge:
        for a in artists.state.get("margin_artists", ()):
            a.set_visible(False)
        return
    star, arrow, label = margin_artists(artists)
    g = scenario.board.models.get(margin.model or "")
    if g is None or margin.mm is None or margin.direction is None:
        for a in (star, arrow, label):
            a.set_visible(False)
        return
    if margin.at is not None:
        star.set_data([margin.at[0]], [margin.at[1]])
    star.set_visible(margin.at is not None)
    x0, x1 = artists.ax.get_xlim()
    reach = ARROW_SHARE * abs(x1 - x0)
    dx, dy = margin.direction
    d = g.disc
    start = (d.x + d.r * dx, d.y + d.r * dy)
    tip = (start[0] + reach * dx, start[1] + reach * dy)
    arrow.set_positions(start, tip)
    arrow.set_visible(True)
    artists.state["margin_arrow"] = (start, tip)  # the label placer keeps clear of it
    text = length(max(margin.mm, TINY_MARGIN_MM), "mm", lang, inches=False)
    label.set_text(("< " if margin.mm < TINY_MARGIN_MM else "") + text)
    # Beside the arrow's middle, on its upper side (its left or right side when it is
    # upright), until the label placer (fwwrules.draw.labels) finds it a place clear of the
    # other labels, the bases and the arrow, as near that middle as it can.
    mid = ((start[0] + tip[0]) / 2, (start[1] + tip[1]) / 2)
    artists.state.setdefault("anchors", {})[label.get_gid()] = mid
    px, py = (-dy, dx) if dx > 0 or (dx == 0 and dy < 0) else (dy, -dx)
    to_px = artists.ax.transData
    off = 6.0 * artists.figure.dpi / 72.0  # 6 points
    mx, my = to_px.transform(mid)
    x, y = to_px.inverted().transform((mx + off * px, my + off * py))
    label.set_transform(to_px)
    label.set_position((float(x), float(y)))
    label.set_horizontalalignment("center" if abs(px) < 0.5 else ("left" if px > 0 else "right"))
    label.set_verticalalignment("center" if abs(py) < 0.5 else ("bottom" if py > 0 else "top"))
    label.set_visible(True)
