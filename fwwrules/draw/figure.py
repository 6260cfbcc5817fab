"""Figures for the drawings: one Axes with fixed margins (the legend sits on the right).

``pyplot=True`` makes the figure through pyplot, so a notebook shows it; otherwise it gets a
plain Agg canvas (files, widgets without ipympl), which no global state remembers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

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
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        fig = Figure(figsize=figsize, dpi=dpi)
        FigureCanvasAgg(fig)
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
