"""Figures for the drawings: one Axes with fixed margins (the legend sits on the right).

``pyplot=True`` makes the figure through pyplot, so a notebook shows it; otherwise it gets a
plain Agg canvas (files, the panels' boards), which no global state remembers.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import QueryError
from ..writing import check_output_name, write_atomic

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Margins = tuple[float, float, float, float]
"""``(left, right, bottom, top)`` of the Axes, as fractions of the figure."""


def new_axes(
    figsize: tuple[float, float], dpi: float, margins: Margins, *, pyplot: bool = False
) -> Axes:
    """A new figure of ``figsize`` inches with one Axes placed by ``margins``."""
    if pyplot:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=figsize, dpi=dpi)
    else:
        from matplotlib.figure import Figure

        from .glyphs import GlyphCanvas

        fig = Figure(figsize=figsize, dpi=dpi)
        GlyphCanvas(fig)
    place_axes(fig, margins)
    return fig.add_subplot()


def place_axes(fig: Figure, margins: Margins) -> None:
    """Put the figure's Axes at ``margins``."""
    left, right, bottom, top = margins
    fig.subplots_adjust(left=left, right=right, bottom=bottom, top=top)


def figure_of(ax: Axes) -> Figure:
    """The (top-level) figure an Axes belongs to."""
    fig = ax.get_figure(root=True)
    assert fig is not None
    return fig


SVG_HASHSALT = "fwwrules"
"""Fixed salt for the ids matplotlib writes into SVG files (stable output)."""


def figure_bytes(fig: Figure, format: str, **savefig: Any) -> bytes:
    """``fig`` as PNG or SVG bytes, byte-stable: PNG without a software version, SVG without
    a date, with a fixed ``svg.hashsalt`` and text kept as text (``svg.fonttype: none``).
    Other keywords go to ``savefig`` (``dpi``)."""
    import io

    from matplotlib import rc_context

    buf = io.BytesIO()
    if format == "png":
        fig.savefig(buf, format="png", metadata={"Software": None}, **savefig)
    elif format == "svg":
        with rc_context({"svg.hashsalt": SVG_HASHSALT, "svg.fonttype": "none"}):
            fig.savefig(buf, format="svg", metadata={"Date": None}, **savefig)
    else:
        raise QueryError(f"unknown picture format {format!r}; expected png or svg")
    return buf.getvalue()


def save_figure(fig: Figure, path: str | os.PathLike[str], **savefig: Any) -> Path:
    """Write ``fig`` to ``path`` as PNG or SVG (by its suffix), byte-stable and atomically.

    The one way a picture reaches the disk: the bytes of :func:`figure_bytes` (the same
    figure gives the same bytes on every run), written through
    :func:`fwwrules.writing.write_atomic` (a temporary file renamed over the target: a failure
    leaves any existing file as it was; ``cannot write FILE: reason`` as
    :class:`~fwwrules.writing.WriteError`). Other keywords go to ``savefig`` (``dpi``).
    Another suffix raises :class:`~fwwrules.errors.QueryError`.
    """
    out = Path(path)
    fmt = check_output_name(out)  # the one rule for a picture's name
    # Encoded before the file is opened: a drawing error leaves no file behind.
    write_atomic(out, figure_bytes(fig, fmt, **savefig))
    return out
