"""Drawing a threat map (:func:`fwwrules.threat_map`) as a translucent overlay on the board.

Each layer is shown in a few classes, each with a colour *and* a hatch and a legend entry in
words (English or German), so the picture reads without colour:

* ``attackers``: how many enemy models may attack a model standing there (0, 1, 2, 3 or more);
* ``uncovered``: how many may attack it without any cover applying;
* ``best-modifier``: the best skill modifier among those that may attack (no attack, -4 or
  worse, -2, 0 or better).

Positions where the model cannot stand are hatched grey ("cannot stand here").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.image import AxesImage
from matplotlib.legend import Legend
from matplotlib.patches import Patch, Rectangle

from ..catalogue import check_lang, ui_section
from ..errors import QueryError
from ..threat import ThreatMap
from ..threat import title as threat_title
from ..writing import check_output_name
from .board import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, lay_out
from .figure import figure_of

LAYERS = ("attackers", "uncovered", "best-modifier")

THREAT_WORDS: Mapping[str, Mapping[str, str]] = ui_section("threat")
"""The overlay's words by key: the ``threat/`` part of the catalogue's
:data:`~fwwrules.catalogue.UI_TEXT`."""

# Okabe-Ito colours (colour-blind safe), lightest threat first.
_CLASS_COLOURS = ("#009E73", "#F0E442", "#E69F00", "#D55E00")
_CLASS_HATCHES = ("", "..", "//", "xx")
_UNPLACEABLE = "#7f7f7f"


def threat_word(key: str, lang: str) -> str:
    return THREAT_WORDS[key][check_lang(lang)]


@dataclass(eq=False)
class ThreatArtists:
    """The overlay's artists: the class image, the hatch patches, the legend."""

    ax: Axes
    image: AxesImage | None
    hatches: list[PatchCollection]
    legend: Legend
    board: BoardArtists | None
    layer: str
    classes: Any = field(default=None, repr=False)

    def remove(self) -> None:
        """Take the overlay off the Axes (the board stays)."""
        if self.image is not None:
            self.image.remove()
        for h in self.hatches:
            h.remove()
        self.legend.remove()


def classes_of(result: ThreatMap, layer: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Per position: the class index 0..3 of the layer, or -1 where unplaceable."""
    if layer not in LAYERS:
        raise QueryError(f"unknown threat layer {layer!r}; expected {', '.join(LAYERS)}")
    if layer == "best-modifier":
        best = result.best_modifier
        cls = np.where(np.isnan(best), 0, np.where(best <= -4, 1, np.where(best <= -2, 2, 3)))
    else:
        values = result.attackers if layer == "attackers" else result.uncovered
        cls = np.minimum(values, 3)
    return np.where(result.placeable, cls, -1).astype(np.int64)


def _class_labels(layer: str, lang: str) -> list[str]:
    if layer == "best-modifier":
        keys = ("no-attack", "low", "mid", "high")
    else:
        first = "none" if layer == "attackers" else "none-covered"
        keys = (first, "one", "two", "many")
    return [threat_word(k, lang) for k in keys]


def draw_threat_map(
    result: ThreatMap,
    ax: Axes | None = None,
    layer: str = "attackers",
    *,
    lang: str = "en",
    alpha: float = 0.45,
    style: BoardStyle = DEFAULT_STYLE,
    board: BoardArtists | None = None,
) -> ThreatArtists:
    """Draw ``result``'s ``layer`` over the board.

    Without ``ax`` the board is drawn first (:func:`~fwwrules.draw.draw_board`); with ``ax``
    only the overlay is added (draw the board on it yourself, and pass its artists as
    ``board``). The legend names each class in words and sits below the board's legend, in
    the column beside the board; with the board's artists the picture is titled with the
    map's title and laid out again (:func:`fwwrules.draw.board.lay_out`), so nothing is cut.
    """
    check_lang(lang)
    cls = classes_of(result, layer)
    if ax is None:
        board = draw_board(result.scenario, lang=lang, style=style, engagements=True)
        ax = board.ax
    rgba = np.zeros((len(cls), 4))
    for k, colour in enumerate(_CLASS_COLOURS):
        rgba[cls == k] = _rgba(colour, alpha)
    rgba[cls == -1] = _rgba(_UNPLACEABLE, alpha * 0.8)
    image, hatches = _class_cells(ax, result, rgba)
    hatches += _class_hatches(ax, result, cls)
    legend = _class_legend(ax, layer, lang, alpha, style)
    if board is not None:
        from ..catalogue import LANGS
        from .layout import set_titles

        set_titles(ax, [threat_title(result, other) for other in LANGS])
        lay_out(board, result.scenario, threat_title(result, lang))
    return ThreatArtists(ax, image, hatches, legend, board, layer, cls)


def _half_cell(result: ThreatMap) -> float:
    """Half a cell's side, in the board's millimetres."""
    return (result.step or result.base / 2) * result.scenario.unit_mm / 2


def _class_cells(
    ax: Axes, result: ThreatMap, rgba: np.ndarray[Any, np.dtype[np.float64]]
) -> tuple[AxesImage | None, list[PatchCollection]]:
    """The cells in their classes' colours: one image for a regular grid of positions, one
    square per position otherwise."""
    u = result.scenario.unit_mm
    half = _half_cell(result)
    if result.shape is None:
        squares = [
            Rectangle((x * u - half, y * u - half), 2 * half, 2 * half)
            for x, y in result.positions.tolist()
        ]
        coll = PatchCollection(squares, facecolors=rgba, edgecolors="none", zorder=1.2)
        ax.add_collection(coll)
        return None, [coll]
    ny, nx = result.shape
    pos = result.positions.reshape(ny, nx, 2) * u
    x0, x1 = pos[0, 0, 0] - half, pos[0, -1, 0] + half
    y0, y1 = pos[0, 0, 1] - half, pos[-1, 0, 1] + half
    image = ax.imshow(
        rgba.reshape(ny, nx, 4),
        extent=(x0, x1, y0, y1),
        origin="lower",
        interpolation="nearest",
        zorder=1.2,
    )
    ax.set_xlim(*ax.get_xlim())
    ax.set_ylim(*ax.get_ylim())
    return image, []


def _class_hatches(
    ax: Axes, result: ThreatMap, cls: np.ndarray[Any, np.dtype[np.int64]]
) -> list[PatchCollection]:
    """Hatches over the classes, so that the picture reads in black and white too."""
    u = result.scenario.unit_mm
    half = _half_cell(result)
    out = []
    for k, hatch in enumerate((*_CLASS_HATCHES, "\\\\")):
        code = k if k < 4 else -1
        if not hatch:
            continue
        idx = np.flatnonzero(cls == code)
        if not len(idx):
            continue
        coll = PatchCollection(
            _merge_rows(result, idx, half, u),
            facecolor="none",
            edgecolor=(0, 0, 0, 0.35),
            linewidth=0,
            hatch=hatch,
            zorder=1.25,
        )
        ax.add_collection(coll)
        out.append(coll)
    return out


def _class_legend(ax: Axes, layer: str, lang: str, alpha: float, style: BoardStyle) -> Legend:
    """The classes named in words, below the board's legend in the column beside the board."""
    labels = _class_labels(layer, lang)
    handles = [
        Patch(facecolor=_rgba(c, alpha), edgecolor="0.3", hatch=h or None)
        for c, h in zip(_CLASS_COLOURS, _CLASS_HATCHES, strict=True)
    ]
    handles.append(Patch(facecolor=_rgba(_UNPLACEABLE, alpha), edgecolor="0.3", hatch="\\\\"))
    labels.append(threat_word("unplaceable", lang))
    # A figure legend anchored to the Axes: it stays beside the board's own legend, and a
    # "tight" saved picture (the notebook's inline PNGs) keeps it.
    return figure_of(ax).legend(
        handles,
        labels,
        title=threat_word(layer, lang),
        loc="lower left",
        bbox_to_anchor=(1.02, 0.0),
        bbox_transform=ax.transAxes,
        borderaxespad=0.0,
        fontsize=style.legend_font_size,
        title_fontsize=style.legend_font_size,
        frameon=False,
    )


def _merge_rows(result: ThreatMap, idx: Any, half: float, u: float) -> list[Rectangle]:
    """The cells ``idx`` of one class as rectangles, horizontally adjacent grid cells joined
    into one (fewer patches, and the hatch runs on without seams); a map of listed
    positions (no grid) has one square per position."""
    if result.shape is None or result.step is None:
        return [
            Rectangle((x * u - half, y * u - half), 2 * half, 2 * half)
            for x, y in result.positions[idx].tolist()
        ]
    nx = result.shape[1]
    rows: dict[int, list[int]] = {}
    for i in np.asarray(idx).tolist():
        rows.setdefault(i // nx, []).append(i % nx)
    out: list[Rectangle] = []
    for r, cols in rows.items():
        cols.sort()
        start = prev = cols[0]
        for col in [*cols[1:], None]:
            if col is not None and col == prev + 1:
                prev = col
                continue
            x0 = result.positions[r * nx + start, 0] * u - half
            x1 = result.positions[r * nx + prev, 0] * u + half
            y = result.positions[r * nx + start, 1] * u - half
            out.append(Rectangle((x0, y), x1 - x0, 2 * half))
            if col is not None:
                start = prev = col
    return out


def _rgba(colour: str, alpha: float) -> tuple[float, float, float, float]:
    from matplotlib.colors import to_rgba

    r, g, b, _ = to_rgba(colour)
    return (r, g, b, alpha)


def save_threat_map(
    result: ThreatMap, path: str, *, layer: str = "attackers", lang: str = "en"
) -> str:
    """Draw the map on the board and write it as PNG or SVG (``fwwrules threat -o``)."""
    from .figure import new_axes, save_figure

    check_output_name(path)
    style = DEFAULT_STYLE
    ax = new_axes(style.figsize, style.dpi, style.margins)
    board = draw_board(result.scenario, ax, lang=lang, style=style)
    draw_threat_map(result, ax, layer, lang=lang, style=style, board=board)
    save_figure(figure_of(ax), path)  # atomic; SVG without a date, with fixed ids
    return str(path)
