"""One board figure inside a panel: redrawn once per change, dragged with blitting.

With matplotlib's ``ipympl`` backend active (``%matplotlib widget``) the figure's canvas *is*
the widget, and bases can be dragged with the mouse. Anywhere else (the inline backend, a
headless test on Agg) the figure is drawn on an Agg canvas and shown as a PNG
:class:`ipywidgets.Image`; the panels' position controls still move models.

Dragging uses blitting: on the press the moving artists (the dragged base and every overlay)
are marked ``animated``, the rest is drawn once and cached, and each motion restores that
background and draws only the moving artists over it (STYLE.md: about 0.4 ms instead of a
full draw of about 77 ms on the crowded board).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import matplotlib
from matplotlib.artist import Artist
from matplotlib.backend_bases import MouseEvent
from matplotlib.figure import Figure

from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, moving_artists, set_animated
from fwwrules.draw.figure import place_axes

MoveCallback = Callable[[str, float, float], None]
"""``(model id, x, y)`` with x, y in board millimetres."""


def ipympl_active() -> bool:
    """True when matplotlib's current backend is ipympl's (``%matplotlib widget``)."""
    backend = matplotlib.get_backend().lower()
    return "ipympl" in backend or backend == "widget"


class BoardView:
    """A figure with one board Axes, shown as a widget (``.widget``).

    ``redraw(moved)`` shows a change with at most one full draw (see :meth:`redraw`). Mouse
    dragging calls ``on_move`` for every motion (the panel updates its scenario, ruling and
    artists there, drawing nothing) and ``on_drop`` once on release; the view blits in between.
    """

    def __init__(self, style: BoardStyle = DEFAULT_STYLE, *, interactive: bool | None = None):
        self.style = style
        self.interactive = ipympl_active() if interactive is None else interactive
        self.widget: widgets.DOMWidget
        if self.interactive:
            import matplotlib.pyplot as plt

            with plt.ioff():
                fig = plt.figure(figsize=style.figsize, dpi=style.dpi)
            canvas: Any = fig.canvas
            canvas.header_visible = False
            canvas.footer_visible = False
            canvas.toolbar_position = "bottom"
            self.widget = canvas
        else:
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            fig = Figure(figsize=style.figsize, dpi=style.dpi)
            FigureCanvasAgg(fig)
            self.widget = widgets.Image(format="png")
        place_axes(fig, style.margins)
        self.figure = fig
        self.ax = fig.add_subplot()
        self.artists: BoardArtists | None = None
        self.on_move: MoveCallback | None = None
        self.on_drop: MoveCallback | None = None
        self.on_pick: Callable[[str], None] | None = None
        self.dragging: str | None = None
        self._offset = (0.0, 0.0)
        self._last = (0.0, 0.0)
        self._background: Any = None
        self._cache: tuple[tuple[Any, ...], Any] | None = None
        self._cache_key: str | None = None
        canvas_ = fig.canvas
        canvas_.mpl_connect("button_press_event", self._press)
        canvas_.mpl_connect("motion_notify_event", self._motion)
        canvas_.mpl_connect("button_release_event", self._release)

    # --- drawing -------------------------------------------------------------------------
    def redraw(self, moved: str | None = None) -> None:
        """Show the current artists: at most one full draw per change.

        The figure minus the moving artists (``moved``'s base and label, and every overlay)
        is drawn once and cached; while nothing else changes (same moved model, title, legend,
        language), a change restores that background and draws only the moving artists over
        it, in z-order, then shows the result (a blit with ipympl, a PNG without). Artists
        are animated only during that draw, so a ``savefig`` of the figure, or a redraw by
        the frontend, always shows everything.
        """
        canvas: Any = self.figure.canvas
        if self.artists is None:
            canvas.draw_idle()
            if not self.interactive:
                self._publish()
            return
        key = moved if moved is not None else self._cache_key
        items = sorted(moving_artists(self.artists, key), key=lambda a: a.get_zorder())
        signature = (key, *self._static_signature())
        set_animated(self.artists, items, True)
        try:
            if self._cache is None or self._cache[0] != signature:
                # The one full draw (synchronous: the background is copied right after).
                canvas.draw() if self.interactive else canvas.draw_idle()
                self._cache = (signature, canvas.copy_from_bbox(self.figure.bbox))
                self._cache_key = key
            else:
                canvas.restore_region(self._cache[1])
            for a in items:
                if a.get_visible():
                    self.ax.draw_artist(a)
        finally:
            set_animated(self.artists, items, False)
        if self.interactive:
            canvas.blit(self.figure.bbox)
        else:
            self._publish()

    def _static_signature(self) -> tuple[Any, ...]:
        """What the cached background depends on besides the moved model."""
        assert self.artists is not None
        art = self.artists
        legend = art.legend
        return (
            art.title.get_text(),
            id(legend),
            tuple(art.legend_texts()),
            art.ax.get_xlabel(),
            len(art.bases),
            tuple(t.get_text() for t in art.terrain_labels.values()),
            art.ax.get_xlim(),
            art.ax.get_ylim(),
        )

    def invalidate(self) -> None:
        """Forget the cached background (the next redraw draws everything)."""
        self._cache = None
        self._cache_key = None

    def _publish(self) -> None:
        from PIL import Image

        canvas: Any = self.figure.canvas
        rgba = canvas.buffer_rgba()
        img = Image.frombuffer("RGBA", (rgba.shape[1], rgba.shape[0]), rgba, "raw", "RGBA", 0, 1)
        img = img.convert("RGB")  # the figure is opaque; RGB encodes about twice as fast
        out = io.BytesIO()
        img.save(out, format="png", compress_level=1)
        assert isinstance(self.widget, widgets.Image)
        self.widget.value = out.getvalue()

    def clear(self) -> None:
        """Empty the Axes (a new scenario is drawn from scratch)."""
        self.ax.clear()
        self.artists = None
        self.invalidate()

    # --- dragging ------------------------------------------------------------------------
    def model_at(self, x: float, y: float) -> str | None:
        """The model whose base contains the point (mm); the one drawn last when stacked."""
        if self.artists is None:
            return None
        found = None
        for mid, base in self.artists.bases.items():
            cx, cy = base.center
            if base.get_visible() and math.hypot(x - cx, y - cy) <= base.get_radius():
                found = mid
        return found

    def _moving(self) -> list[Artist]:
        # The title (the ruling's headline) is left out: text is costly to draw, and the drop
        # redraws it once.
        assert self.artists is not None
        return moving_artists(self.artists, self.dragging)

    def _press(self, event: MouseEvent) -> None:
        if self.on_move is None or event.inaxes is not self.ax or event.button != 1:
            return  # nothing to drag for (the stepper), or not a left click on the board
        if event.xdata is None:
            return
        assert event.ydata is not None
        mid = self.model_at(event.xdata, event.ydata)
        if mid is None or self.artists is None:
            return
        if self.on_pick is not None:
            self.on_pick(mid)
        cx, cy = self.artists.bases[mid].center
        self.dragging = mid
        self._offset = (cx - event.xdata, cy - event.ydata)
        self._last = (cx, cy)
        set_animated(self.artists, self._moving(), True)
        canvas: Any = self.figure.canvas
        canvas.draw()  # everything that stays put, once
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        self.blit()

    def _motion(self, event: MouseEvent) -> None:
        if self.dragging is None or event.inaxes is not self.ax or event.xdata is None:
            return
        assert event.ydata is not None
        x, y = event.xdata + self._offset[0], event.ydata + self._offset[1]
        self.drag_to(x, y)

    def drag_to(self, x: float, y: float) -> None:
        """Move the dragged model to (x, y) mm: the panel recomputes, the view blits."""
        if self.dragging is None:
            return
        self._last = (x, y)
        if self.on_move is not None:
            self.on_move(self.dragging, x, y)
        self.blit()

    def blit(self) -> None:
        """Restore the cached background and draw only the moving artists over it."""
        if self._background is None or self.artists is None:
            return
        canvas: Any = self.figure.canvas
        canvas.restore_region(self._background)
        for a in self._moving():
            if a.get_visible():
                self.ax.draw_artist(a)
        canvas.blit(self.figure.bbox)

    def _release(self, event: MouseEvent) -> None:
        if self.dragging is None:
            return
        mid, (x, y) = self.dragging, self._last
        assert self.artists is not None
        set_animated(self.artists, self._moving(), False)
        self.dragging = None
        self._background = None
        if self.on_drop is not None:
            self.on_drop(mid, x, y)
        self.invalidate()
        self.redraw(mid)
