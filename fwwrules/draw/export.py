"""Pictures for authors: a figure written as PNG or SVG at the size asked for.

One resolution rule for every export (``fwwrules render``, the panels' export control and
``panel.save_picture``, animations): a picture is the figure as laid out (nothing cut, see
:mod:`fwwrules.draw.layout`), drawn at

* ``scale`` times its own resolution (``scale=2``: a 780 x 540 board becomes 1560 x 1080
  pixels, sharp on a high-density screen), or
* ``dpi`` dots per inch (for print: the board is 7.8 x 5.4 inches), or
* ``width`` pixels wide (the height follows).

Only the resolution changes: text, lines and layout keep their proportions, so a picture at
any size shows exactly what the panel shows. SVG is resolution-free (``scale`` and friends
only set its nominal size).

Boundary cases: at most one of ``scale``, ``dpi``, ``width``; a picture may have between
:data:`MIN_DPI` and :data:`MAX_DPI` dots per inch and at most :data:`MAX_PIXELS` pixels
(anything else is a :class:`~fwwrules.errors.QueryError`, exit status 2 on the command line);
a name without a suffix gets the format's; a suffix that contradicts ``format`` is refused.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, overload

from ..catalogue import check_lang
from ..errors import QueryError
from ..writing import PICTURE_FORMATS, check_output_name
from .figure import figure_bytes, save_figure

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = PICTURE_FORMATS
"""The still picture formats, by name (also the file name's suffix)."""
MIN_DPI = 20.0
MAX_DPI = 600.0
MAX_PIXELS = 40_000_000
"""Largest picture, in pixels (a board at 600 dpi is 4680 x 3240): memory grows with it."""


def base_dpi(fig: Figure) -> float:
    """The figure's own resolution: its dpi without the screen's device pixel ratio (an
    canvas for a high-density screen draws at dpi times the ratio)."""
    ratio = float(getattr(fig.canvas, "device_pixel_ratio", 1.0) or 1.0)
    return float(fig.dpi) / ratio


def export_dpi(
    fig: Figure,
    *,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
) -> float:
    """The dpi that draws ``fig`` at the size asked (see the module's docstring).

    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(7.8, 5.4), dpi=100)
    >>> export_dpi(fig), export_dpi(fig, scale=2), export_dpi(fig, width=1200)
    (100.0, 200.0, 153.84615384615384)
    >>> export_dpi(fig, dpi=300, scale=2)
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: give one of scale, dpi and width, not several
    """
    given = [v for v in (scale, dpi, width) if v is not None]
    if len(given) > 1:
        raise QueryError("give one of scale, dpi and width, not several")
    w_in, h_in = fig.get_size_inches()
    for name, value in (("scale", scale), ("dpi", dpi), ("width", width)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise QueryError(f"{name} must be a positive number (got {value!r})")
    if scale is not None:
        out = base_dpi(fig) * scale
    elif dpi is not None:
        out = float(dpi)
    elif width is not None:
        out = float(width) / float(w_in)
    else:
        out = base_dpi(fig)
    pixels = (w_in * out) * (h_in * out)
    if not MIN_DPI <= out <= MAX_DPI or pixels > MAX_PIXELS:
        size = f"{round(w_in * out)} x {round(h_in * out)} pixels at {out:.0f} dpi"
        raise QueryError(
            f"a picture of {size} is out of range: from {MIN_DPI:.0f} to {MAX_DPI:.0f} dpi "
            f"and at most {MAX_PIXELS:,} pixels"
        )
    return out


def picture_path(path: str | os.PathLike[str], format: str | None = None) -> tuple[Path, str]:
    """``(path, format)``: the format from ``format`` or the name's suffix; a name without a
    suffix gets ``.<format>``.

    >>> picture_path("board.svg"), picture_path("board", "png")
    ((PosixPath('board.svg'), 'svg'), (PosixPath('board.png'), 'png'))
    """
    out = Path(path)
    suffix = out.suffix.lower().lstrip(".")
    if format is not None:
        fmt = format.lower()
        if fmt not in FORMATS:
            raise QueryError(f"unknown picture format {format!r}; expected png or svg")
        if not suffix:
            return out.with_name(out.name + "." + fmt), fmt
        if suffix != fmt:
            raise QueryError(f"{out.name!r} does not end in .{fmt}")
        return out, fmt
    return out, check_output_name(out)


def language_path(path: str | os.PathLike[str], lang: str) -> Path:
    """The file of one language's picture when several are written: the language before
    the suffix.

    >>> language_path("out/board.png", "de")
    PosixPath('out/board.de.png')
    """
    out = Path(path)
    return out.with_name(f"{out.stem}.{lang}{out.suffix}")


@overload
def save_picture(
    fig: Figure,
    path: str | os.PathLike[str],
    *,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
    format: str | None = None,
    lang: str | None = None,
    frame: str | None = None,
) -> Path: ...
@overload
def save_picture(
    fig: Figure,
    path: str | os.PathLike[str],
    *,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
    format: str | None = None,
    lang: list[str] | tuple[str, ...],
    frame: str | None = None,
) -> list[Path]: ...
def save_picture(
    fig: Figure,
    path: str | os.PathLike[str],
    *,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
    format: str | None = None,
    lang: str | Sequence[str] | None = None,
    frame: str | None = None,
) -> Path | list[Path]:
    """Write ``fig`` as PNG or SVG at the size asked (see the module's docstring), atomically
    (:func:`fwwrules.draw.figure.save_figure`); returns the path written.

    ``lang`` draws the picture again in that language (a board drawn by
    :func:`fwwrules.draw.draw_board`, at the figure's size); several languages (``("en",
    "de")``) write one file each, named by :func:`language_path` (``board.de.png``), and
    return their paths. Every language's picture puts the board in the same pixels (the
    layout keeps room for the longest title). ``frame`` draws it again showing the whole
    table (``"table"``) or the models with a margin (``"models"``:
    :func:`fwwrules.draw.board.frame_view`), whatever the figure shows now (a zoomed panel).
    The figure itself is left as it is. Raises :class:`~fwwrules.errors.QueryError` for a
    figure that is no board (a grid, a threat map) when ``lang`` or ``frame`` asks for a
    change.
    """
    out, _fmt = picture_path(path, format)
    if lang is None or isinstance(lang, str):
        picture = fig if lang is None and frame is None else redrawn(fig, lang=lang, frame=frame)
        save_figure(picture, out, dpi=export_dpi(picture, scale=scale, dpi=dpi, width=width))
        return out
    langs = list(dict.fromkeys(lang))
    for one in langs:
        check_lang(one)
    written = []
    for one in langs:
        picture = redrawn(fig, lang=one, frame=frame)
        target = language_path(out, one)
        save_figure(picture, target, dpi=export_dpi(picture, scale=scale, dpi=dpi, width=width))
        written.append(target)
    return written


def redrawn(fig: Figure, *, lang: str | None = None, frame: str | None = None) -> Figure:
    """A new figure of ``fig``'s size showing the same board (the scenario and rulings it
    was last drawn with) in ``lang`` and ``frame`` (default: as ``fig`` shows them)."""
    from .board import BoardArtists, draw_board, frame_view
    from .figure import figure_of, new_axes

    art = getattr(fig, "_fwwrules_board", None)
    if not isinstance(art, BoardArtists) or "drawn" not in art.state:
        raise QueryError(
            "only a board drawn by draw_board can be drawn in another language or frame"
        )
    drawn = dict(art.state["drawn"])
    scenario = drawn["scenario"]
    style = art.style
    view = art.state.get("view") if frame is None else frame_view(scenario, frame, style)
    w, h = fig.get_size_inches()
    height = float(art.state.get("design_height", h))
    ax = new_axes((float(w), height), base_dpi(fig), style.margins)
    figure_of(ax).set_gid(fig.get_gid())
    draw_board(
        ax=ax, style=style, lang=lang or str(art.state.get("lang", "en")), view=view, **drawn
    )
    return figure_of(ax)


def picture_bytes(
    fig: Figure,
    format: str = "png",
    *,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
) -> bytes:
    """The bytes :func:`save_picture` would write (for a download link)."""
    fmt = format.lower()
    if fmt not in FORMATS:
        raise QueryError(f"unknown picture format {format!r}; expected png or svg")
    return figure_bytes(fig, fmt, dpi=export_dpi(fig, scale=scale, dpi=dpi, width=width))


def pixel_size(fig: Figure, **size: float | None) -> tuple[int, int]:
    """The picture's size in pixels at the size asked (``scale``, ``dpi`` or ``width``)."""
    out = export_dpi(fig, **size)
    w_in, h_in = fig.get_size_inches()
    return (round(w_in * out), round(h_in * out))
