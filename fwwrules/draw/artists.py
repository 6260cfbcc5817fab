"""The style and the artists of a board picture: :class:`BoardStyle` (every colour, size and
line of the picture, in one place) and :class:`BoardArtists` (the artists by role).

Both live apart from :mod:`fwwrules.draw.board` so that the modules that place and lay out
the artists (:mod:`fwwrules.draw.labels`) can name them without importing the drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, PathPatch, Rectangle
from matplotlib.text import Annotation, Text
from matplotlib.typing import LineStyleType

from ..constants import BOARD_MARGIN_MM
from .figure import Margins

if TYPE_CHECKING:
    from matplotlib.figure import Figure


@dataclass(frozen=True, slots=True)
class TerrainLook:
    """How one terrain kind is drawn: fill, edge, hatch, edge line style, opacity."""

    face: str
    edge: str
    hatch: str
    linestyle: LineStyleType = "-"
    alpha: float = 1.0


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """Every colour, hatch, line style and size of a board picture, in one place.

    Colours are Okabe-Ito (colour-blind safe); hatches and line styles carry the same meaning,
    so no distinction rests on colour alone: sides differ by hatch too, grazes by marker and
    line style, legal and illegal slides by line style and label.
    """

    figsize: tuple[float, float] = (7.8, 5.4)
    """Inches; at ``dpi`` 100 the board is 780×540 CSS pixels (it fits a 1280 px window with
    JupyterLab's file browser open). A panel draws it at the screen's pixel ratio."""
    dpi: float = 100.0
    margins: Margins = (0.085, 0.72, 0.09, 0.9)
    """Where the board's Axes sits in the figure (the legend uses the room on the right)."""
    margin_mm: float = BOARD_MARGIN_MM
    """Around the contents when the scenario has no table size (the rules' one table extent,
    :meth:`fwwrules.data.Scenario.limits_mm`)."""
    font_size: float = 9.0
    """Points: at least 9 pt for every text on the board."""
    label_box_alpha: float = 0.9
    """Every label sits on a white box this opaque: readable on a hatch, on dark terrain and
    across a line (see :mod:`fwwrules.draw.labels`)."""
    label_zorder: float = 5.0
    """Labels are drawn above the lines of the ruling (zorder 4 to 5), which they avoid."""
    leader_colour: str = "#333333"
    leader_linewidth: float = 0.8
    min_base_px: float = 7.0
    """The smallest a base is drawn, in display pixels across at 100 dpi (scaled with the
    dpi): a smaller base (a big table in a small picture) is drawn this size, in its side's
    colour and hatch, and the legend says so."""
    label_unnamed_terrain: bool = False
    """Also write the id of terrain without a ``name`` (a height is always written)."""
    legend_font_size: float = 9.0
    grid_inches: bool = False
    """Draw a one-inch grid (the table's usual measure) under the board (on a table larger
    than 6 feet, the grid follows the ticks instead)."""
    scale_bar: bool = True
    """Draw a scale bar (2 in, or 50 mm on a millimetre board) in a corner."""
    table_colour: str = "#333333"
    """The table's outline (``board.size``, or the contents' box plus ``margin_mm``)."""
    table_linewidth: float = 1.5
    # Sides: one colour and hatch per side, by side order on the board (:func:`side_looks`).
    neutral_colour: str = "#999999"
    neutral_hatch: str = "oo"
    base_alpha: float = 1.0
    base_edge: str = "#000000"
    base_linewidth: float = 0.8
    base_hatch_linewidth: float = 0.6
    """The hatch of a base (its side's) is drawn thinner than a terrain piece's, so a base a few
    pixels across still shows its side's colour over most of its area."""
    # Terrain by kind.
    terrain: tuple[tuple[str, TerrainLook], ...] = (
        ("blocking", TerrainLook("#4D4D4D", "#000000", "xx")),
        ("cover", TerrainLook("#B3A27A", "#5C4F2E", "//")),
        ("area", TerrainLook("#A8D5BA", "#2E6B45", "..", "--", 0.6)),
        ("dense-area", TerrainLook("#5E9C76", "#1F4A30", "oo", "--", 0.8)),
        ("scenery", TerrainLook("#EEEEEE", "#888888", "", ":", 0.8)),
    )
    edge_colour: str = "#CC79A7"
    edge_linewidth: float = 3.5
    edge_linestyle: LineStyleType = "--"
    # Sight and cover.
    los_colour: str = "#009E73"
    los_linewidth: float = 2.0
    fan_colour: str = "#D55E00"
    fan_alpha: float = 0.45
    fan_linestyle: LineStyleType = ":"
    fan_lines: int = 5
    blocker_colour: str = "#D55E00"
    loc_colour: str = "#000000"
    loc_linestyle: LineStyleType = "--"
    loc_linewidth: float = 1.2
    cover_colour: str = "#E69F00"
    cover_linewidth: float = 3.0
    crossing_marker: str = "o"
    graze_colour: str = "#56B4E9"
    graze_linestyle: LineStyleType = ":"
    graze_marker: str = "D"
    ignored_colour: str = "#8C8C8C"
    """Pieces and models a rule ignores: grey, dash-dotted, never the cover colour."""
    ignored_linestyle: LineStyleType = "-."
    marker_size: float = 6.0
    # Bands, melee.
    band_colours: tuple[str, str] = ("#0072B2", "#56B4E9")
    band_linestyles: tuple[LineStyleType, LineStyleType] = ("-", "--")
    band_linewidth: float = 1.0
    engaged_colour: str = "#CC79A7"
    engaged_linewidth: float = 3.0
    number_colour: str = "#000000"
    number_face: str = "#F0E442"
    """The Armor-die numbers' box (yellow, with a black edge and bold digits)."""
    slide_legal_colour: str = "#009E73"
    slide_illegal_colour: str = "#D55E00"
    slide_legal_linestyle: LineStyleType = "-"
    slide_illegal_linestyle: LineStyleType = "--"
    slide_break_marker: str = "X"
    """Marks where a refused slide's contact breaks (a filled cross, not colour alone)."""
    free_attack_colour: str = "#D55E00"

    def terrain_look(self, kind: str) -> TerrainLook:
        """The look of a terrain kind (``scenery``'s for an unknown kind)."""
        looks = dict(self.terrain)
        return looks.get(kind, looks["scenery"])


DEFAULT_STYLE = BoardStyle()


def label_box(style: BoardStyle, edge: str = "none", face: str = "white") -> dict[str, Any]:
    """The background box of a board label (see :attr:`BoardStyle.label_box_alpha`)."""
    return {"boxstyle": "round,pad=0.15", "fc": face, "ec": edge, "alpha": style.label_box_alpha}


@dataclass(frozen=True, slots=True, eq=False)
class BoardArtists:
    """The artists of one board picture, by role, for tests and in-place updates.

    Dictionaries are keyed by model or terrain id. Overlays that vary in number (crossing
    segments, fan lines, engagement links) are single :class:`~matplotlib.lines.Line2D`
    artists whose pieces are separated by NaN; texts and arrows that vary in number are
    pools whose unused members are invisible.
    """

    figure: Figure
    ax: Axes
    style: BoardStyle
    bases: dict[str, Circle]
    labels: dict[str, Text]
    terrain: dict[str, PathPatch]
    """One patch per terrain kind, keyed by kind: a compound path of every piece of that
    kind (see :func:`terrain_patches`)."""
    terrain_labels: dict[str, Text]
    edges: Line2D
    sight: Line2D
    fan: Line2D
    fan_label: Text
    blockers: Line2D
    loc: Line2D
    cover_outline: Line2D
    crossings: Line2D
    crossing_points: Line2D
    grazes: Line2D
    graze_points: Line2D
    ignored: Line2D
    ignored_labels: list[Text]
    bands: dict[str, Circle]
    engagements: Line2D
    numbers: list[Text]
    slide_ghost: Circle
    slide_path: Line2D
    slide_label: Text
    free_attacks: list[Annotation]
    title: Text
    state: dict[str, Any] = field(default_factory=dict)
    cover_labels: list[Text] = field(default_factory=list)
    """The modifier (``−2``) beside each piece the Line of Cover passes through."""
    band_labels: dict[str, Text] = field(default_factory=dict)
    """The ruler's name on each range ring."""
    slide_breaks: Line2D | None = None
    """``melee.slide``: a cross where a refused slide's contact breaks (the ruling's
    ``breaks_at``), each with the name of the model whose contact breaks."""
    slide_break_labels: list[Text] = field(default_factory=list)
    table: Rectangle | None = None
    """The table's outline (:func:`fwwrules.draw.board.table_view` shows it with a margin)."""
    leaders: Line2D | None = None
    """Thin lines joining a name (or its numbered marker) placed away from its base or piece
    to it (:func:`fwwrules.draw.labels.place_labels`), one artist separated by NaN."""

    @property
    def legend(self) -> Legend | None:
        return self.ax.get_legend()

    def legend_texts(self) -> list[str]:
        """The legend's entries, each as one line (the layout may wrap them)."""
        leg = self.legend
        return [] if leg is None else [t.get_text().replace("\n", " ") for t in leg.get_texts()]

    def overlays(self) -> list[Artist]:
        """Every artist that depends on the ruling (not on the board alone)."""
        singles: list[Artist] = [
            self.sight,
            self.fan,
            self.fan_label,
            self.blockers,
            self.loc,
            self.cover_outline,
            self.crossings,
            self.crossing_points,
            self.grazes,
            self.graze_points,
            self.ignored,
            self.engagements,
            self.slide_ghost,
            self.slide_path,
            self.slide_label,
            *self.bands.values(),
        ]
        if self.slide_breaks is not None:
            singles.append(self.slide_breaks)
        if self.leaders is not None:
            singles.append(self.leaders)
        singles += self.state.get("margin_artists", ())  # a knife-edge call's marks
        return (
            singles
            + list(self.band_labels.values())
            + list(self.ignored_labels)
            + list(self.cover_labels)
            + list(self.numbers)
            + list(self.free_attacks)
            + list(self.slide_break_labels)
        )
