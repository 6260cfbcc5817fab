"""One board figure inside a panel: drawn by the kernel, shown exactly in the browser.

The figure is drawn with matplotlib's Agg in the kernel. With anywidget installed
(``pip install 'fwwrules[lab]'``, Binder) it is shown by the live board canvas of
:mod:`.board_canvas`: the browser shows exactly the pictures the kernel sent (frames apply
whole, in order, at most one in flight), at the screen's device pixel ratio, and sends the
mouse back, which reaches the figure as matplotlib mouse events (``mpl_connect`` handlers
work as on any canvas). Without it (or with ``interactive=False``, as headless tests use)
the figure is drawn at :data:`PNG_PIXEL_RATIO` times its CSS size and shown as a PNG
:class:`ipywidgets.Image` of that CSS size; the panels' position controls still move models.

Dragging uses blitting: on the press the moving artists (the dragged base and every
overlay) are marked ``animated``, the rest is drawn once and kept, and each motion restores
that background and draws only the moving artists over it. The title and the caption, which
state the ruling, stay in the background and are drawn into it again only when their words
change. The release draws everything once.
"""

from __future__ import annotations

import base64
import html
import io
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backend_bases import MouseButton, MouseEvent
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.text import Text

from fwwrules.data import Scenario
from fwwrules.draw import (
    DEFAULT_STYLE,
    BoardArtists,
    BoardStyle,
    moving_artists,
    set_animated,
)
from fwwrules.draw.board import FIXED_SIZE_GID
from fwwrules.draw.figure import place_axes
from fwwrules.draw.layout import CAPTION_GID
from fwwrules.pieces import Bounds

from .board_canvas import BoardLink, FrameTexts, live_canvas_available
from .hatch_tiles import HatchTiles, TiledHatchRenderer
from .text import ui

PNG_PIXEL_RATIO = 2.0
"""Without the live canvas the board is a PNG drawn at this many pixels per CSS pixel and
shown at its CSS size, so it stays sharp on high-density screens."""

MoveCallback = Callable[[str, float, float], "tuple[float, float] | None"]
"""``(model id, x, y)`` with x, y in board millimetres; returns where the model really is
(mm) when the panel placed it elsewhere (a stop at contact), else None."""

ZOOM_STEP = 1.25
"""The zoom of one press of + or - (or of the zoom buttons)."""
MAX_PX_PER_MM = 24.0
"""The closest zoom: this many CSS pixels per millimetre (a 32 mm base 768 px across)."""
MAX_ZOOM_OUT = 3.0
"""The farthest zoom: a view this many times as wide as the whole table's."""
CLICK_PX = 3.0
"""A press and release closer than this (CSS px) on empty board is a click, not a pan."""


@dataclass
class Framing:
    """What a view's zoom and pan need from its client (a panel): the views of the whole
    table and of the models, and how to show a view. ``show(view, final)`` shows ``view``
    (board mm, widened to the board's box; None: the view shown, laid out again) and draws
    nothing: ``final`` False while the board is panned (only the limits change), True when
    it comes to rest (labels placed for the new scale)."""

    table: Callable[[], Bounds]
    models: Callable[[], Bounds]
    show: Callable[[Bounds | None, bool], None]


__all__ = [
    "PNG_PIXEL_RATIO",
    "BoardView",
    "Framing",
    "png_bytes",
    "static_bundle",
]


def png_bytes(figure: Figure) -> bytes:
    """The figure as PNG (no software version in it), at the figure's own dpi."""
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


STATIC_COLOURS = 256
"""Colours of the saved static picture (a palette PNG): a third of the bytes of the full
colour picture, which differs from it only in the faintest antialiasing."""


def static_png(figure: Figure) -> bytes:
    """The figure as a palette PNG (:data:`STATIC_COLOURS`, no dithering) for the saved
    static view: what every display of a panel carries for GitHub and nbviewer."""
    from PIL import Image

    img = Image.open(io.BytesIO(png_bytes(figure))).convert("RGB")
    quantized = img.quantize(
        colors=STATIC_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    quantized.save(out, format="png", optimize=True)
    return out.getvalue()


def static_bundle(
    widget: widgets.Widget,
    figure: Figure,
    ruling_html: str,
    lang: str = "en",
    below: str = "",
    *,
    lock: AbstractContextManager[Any] | None = None,
) -> dict[str, Any]:
    """A display bundle with the widget view plus one static picture and the ruling.

    JupyterLab shows the widget; GitHub, nbviewer and nbconvert (no widget state), and
    JupyterLab after a page reload while the saved outputs are old, show the ``text/html``:
    the board as an image beside the ruling, under a line saying that this is a saved
    picture and that running the cell brings the live board back. The picture is in the
    bundle once (an ``image/png`` beside it would send the board a second time). ``below``
    is HTML shown under the board picture, as wide as it (a panel's side view, its comparison).
    ``lock`` is the board view's: the picture is drawn on the live figure's canvas, which
    another thread may be sending to the browser frame by frame (the board's mouse, a "how
    close" answer), and a frame read while the figure is half drawn would leave the browser
    a picture the kernel does not know it has.
    """
    data: dict[str, Any] = dict(widget._repr_mimebundle_() or {})
    with lock if lock is not None else nullcontext():
        png = static_png(figure)
    b64 = base64.b64encode(png).decode("ascii")
    ratio = float(getattr(figure.canvas, "device_pixel_ratio", 1.0) or 1.0)
    width = round(figure.get_figwidth() * figure.dpi / ratio)
    note = html.escape(ui("saved-picture", lang))
    board = (
        f'<img class="fwwrules-board" src="data:image/png;base64,{b64}" '
        f'style="width:{width}px;max-width:100%" alt="{html.escape(_alt(figure))}"/>'
    )
    if below:
        board = f'<div style="width:{width}px;max-width:100%">{board}{below}</div>'
    data["text/html"] = (
        f'<p class="fwwrules-saved-note"><i>{note}</i></p>'
        '<div class="fwwrules-static" style="display:flex;flex-wrap:wrap;gap:12px;'
        'align-items:flex-start">'
        f"{board}"
        f'<div style="flex:1 1 320px;min-width:280px;max-width:560px">{ruling_html}</div>'
        "</div>"
    )
    data["text/plain"] = _alt(figure)
    return data


def _alt(figure: Figure) -> str:
    """A one-line text for the board picture: its Axes' title."""
    axes = figure.get_axes()
    title = axes[0].get_title() if axes else ""
    return " — ".join(line for line in title.splitlines() if line) or "board"


def set_pixel_ratio(figure: Figure, ratio: float) -> bool:
    """Draw ``figure`` at ``ratio`` device pixels per CSS pixel (its dpi times the ratio);
    True when that changed anything.

    The widgets' one use of a private API: matplotlib's own hook for high-density screens,
    ``FigureCanvasBase._set_device_pixel_ratio`` (written for matplotlib 3.8–3.11; its
    GUI backends call it). It keeps ``canvas.device_pixel_ratio`` and the figure's
    original dpi, which a plain ``set_dpi`` would not. The panels use no ipympl API at all.
    """
    canvas: Any = figure.canvas
    return bool(canvas._set_device_pixel_ratio(ratio))


def _tool_labels(lang: str) -> dict[str, str]:
    """The words of the board's zoom buttons (and their tooltips) in ``lang``."""
    keys = ("zoom-in", "zoom-out", "fit-table", "fit-models", "zoom-help")
    return {key: ui(key, lang) for key in keys}


class BoardView:
    """A figure with one board Axes, shown as a widget (``.widget``).

    ``redraw(moved)`` shows a change with at most one full draw (see :meth:`redraw`). Mouse
    dragging calls ``on_move`` for every motion (the panel updates its scenario, ruling and
    artists there, drawing nothing) and ``on_drop`` once on release; the view blits in
    between. ``style`` gives the figure's size, dpi and margins.
    """

    def __init__(self, style: BoardStyle = DEFAULT_STYLE, *, interactive: bool | None = None):
        from fwwrules.draw.glyphs import GlyphCanvas

        self.style = style
        self.interactive = live_canvas_available() if interactive is None else interactive
        self.size_px = (round(style.figsize[0] * style.dpi), round(style.figsize[1] * style.dpi))
        """The board's size in CSS pixels (the same at every device pixel ratio)."""
        fig = Figure(figsize=style.figsize, dpi=style.dpi)
        GlyphCanvas(fig)  # matplotlib's Agg, its glyphs kept from frame to frame
        self._link: BoardLink | None = None
        self._widget: widgets.DOMWidget | None = None
        if not self.interactive:
            set_pixel_ratio(fig, PNG_PIXEL_RATIO)
            width_px = self.size_px[0]
            self._widget = widgets.Image(
                format="png",
                layout=widgets.Layout(
                    width=f"{width_px}px", min_width=f"{width_px}px", flex="0 0 auto"
                ),
            )
        place_axes(fig, style.margins)
        # The board is laid out to fit this size (its key moves below the board, never out).
        fig.set_gid(FIXED_SIZE_GID)
        self.figure = fig
        self.ax = fig.add_subplot()
        self.artists: BoardArtists | None = None
        self.on_move: MoveCallback | None = None
        self.on_drop: MoveCallback | None = None
        self.on_pick: Callable[[str], None] | None = None
        self.on_click: Callable[[float, float], None] | None = None
        """Called with the point (mm) of a click on the board that hits no model and does
        not pan (a press and release within :data:`CLICK_PX`)."""
        self.on_press: Callable[[float, float], bool] | None = None
        """Asked first of a left press on the board (the point in mm): True when the client's
        tool takes it (a board editor's drawing tools, a piece it drags; the client's own
        motion and release handlers follow the gesture), False to let the view drag the
        model under it, pan or click."""
        self.client_moving: Callable[[str], Sequence[Artist]] = lambda _model_id: ()
        """Artists the client draws over the board that move with a dragged model (an
        editor's selection mark): redrawn with it on every motion."""
        self.handles: dict[str, Any] = {}
        """Other things a drag moves, by id (not a model id: ids hold no ':'): circles such as
        a slide's ghost. A drag of one calls ``on_move``/``on_drop`` with its id."""
        self.framing: Framing | None = None
        self.pan_on_empty: Callable[[], bool] = lambda: True
        """Whether a left drag that starts on no model pans the board (a tool that draws on
        empty board says no; the middle button always pans)."""
        self._pan: dict[str, Any] | None = None
        self._drafted: dict[int, tuple[Any, bool]] = {}
        """Moving artists drawn without antialiasing while dragged, with their own setting."""
        self.dragging: str | None = None
        self._offset = (0.0, 0.0)
        self._last = (0.0, 0.0)
        self._background: Any = None
        self._moving_set: list[Artist] | None = None
        self._cache: tuple[tuple[Any, ...], Any] | None = None
        self._cache_key: str | None = None
        self._baked: dict[int, tuple[Text, str, Any]] = {}
        """The slow texts (title, caption) as the blit background holds them, by id: the
        artist, its text and its box (device pixels)."""
        self._pressed: dict[int, str] = {}
        """The slow texts' words when the drag started (the kept picture shows them)."""
        self._baked_legend: tuple[Any, Any] | None = None
        """The legend as the blit background holds it, and its box (device pixels)."""
        self.hatch_tiles: HatchTiles | None = HatchTiles()
        """The hatch tiles a moving base is drawn with (:mod:`.hatch_tiles`: the same pixels
        as drawing it whole); None draws moving artists the ordinary way."""
        self._restarted = ui("kernel-restarted", "en")
        self._tool_labels = _tool_labels("en")
        self.texts = FrameTexts()
        """The words beside the board that travel with its frames (:meth:`say`)."""
        self.lock = threading.RLock()
        """Held while the board changes or is drawn: the kernel may hand the board's mouse and
        frame messages to another thread than the controls' (JupyterLab's kernel subshells),
        and a frame must never be read while the figure is half drawn."""
        fig.canvas.mpl_connect("button_press_event", self._press)
        fig.canvas.mpl_connect("motion_notify_event", self._motion)
        fig.canvas.mpl_connect("button_release_event", self._release)

    @property
    def widget(self) -> widgets.DOMWidget:
        """The board as a widget: the live board canvas (made on first use) or, without
        anywidget, a PNG :class:`ipywidgets.Image`."""
        if self._widget is None:
            self._link = BoardLink(
                self.size_px,
                self._pixels,
                self._input,
                self._set_ratio,
                lock=self.lock,
                texts=self.texts,
            )
            self._link.widget.restarted_text = self._restarted
            self._link.widget.zoomable = self.framing is not None
            self._link.widget.tool_labels = self._tool_labels
            self._widget = self._link.widget
        return self._widget

    def say(self, widget: widgets.Widget, trait: str, value: Any) -> None:
        """Show ``value`` in ``widget.<trait>`` (words beside the board about what it shows:
        the ruling's text, a model's x/y) together with the next picture: the browser sets it
        when it paints the frame drawn next (:class:`~.board_canvas.FrameTexts`), never
        before. Without the live canvas, or before it is shown, it is set at once. Follow
        it with a redraw (or :meth:`publish_texts` when the picture stays)."""
        self.texts.say(widget, trait, value)

    def said(self, widget: widgets.Widget, trait: str = "value") -> Any:
        """The newest value :meth:`say` gave ``widget.<trait>`` (the kernel's own trait may
        still hold the one the browser shows until it paints the frame in flight)."""
        found = self.texts.latest.get((str(widget.model_id), trait))
        return found[2] if found is not None else getattr(widget, trait)

    def publish_texts(self) -> None:
        """Send the words said since the last frame when the picture did not change."""
        if self._link is not None:
            self._link.push()

    @property
    def link(self) -> BoardLink | None:
        """The live canvas's connection (frames sent, ...), once the widget exists."""
        return self._link

    @property
    def ratio(self) -> float:
        """Device pixels per CSS pixel the figure is drawn at."""
        return float(getattr(self.figure.canvas, "device_pixel_ratio", 1.0) or 1.0)

    def relabel(self, lang: str) -> None:
        """Words the board itself shows (its zoom buttons, the notice after a kernel
        restart), in ``lang``."""
        self._restarted = ui("kernel-restarted", lang)
        self._tool_labels = _tool_labels(lang)
        if self._link is not None:
            self._link.widget.restarted_text = self._restarted
            self._link.widget.tool_labels = self._tool_labels

    def frame_board(
        self,
        artists: Callable[[], BoardArtists | None],
        scenario: Callable[[], Scenario],
    ) -> None:
        """Let a board drawn by :func:`~fwwrules.draw.draw_board` zoom and pan: ``artists``
        and ``scenario`` give the board as it is now. A view at rest is laid out again
        (:func:`~fwwrules.draw.board.set_view`: labels placed for the new scale) and kept
        when the panel redraws; while the board is panned only its limits change."""
        from fwwrules.draw.board import fit_limits, frame_view, set_view, table_view

        def show(view: Bounds | None, final: bool) -> None:
            drawn = artists()
            if drawn is None:
                return
            if view is None:
                view = drawn.state.get("view")
            if final:
                set_view(drawn, scenario(), view)
            elif view is not None:
                drawn.state["view"] = view
                fit_limits(self.ax, view)

        self.set_framing(
            Framing(
                table=lambda: table_view(scenario(), self.style),
                models=lambda: frame_view(scenario(), "models", self.style),
                show=show,
            )
        )

    def set_framing(self, framing: Framing) -> None:
        """Let the board zoom and pan (wheel, pinch, +/-, the fit buttons, dragging empty
        board), showing views through ``framing``."""
        self.framing = framing
        if self._link is not None:
            self._link.widget.zoomable = True

    def set_hover(self, on: bool) -> None:
        """Whether the browser sends pointer moves without a button pressed (a tool whose
        preview follows the mouse)."""
        if self._link is not None:
            self._link.widget.hover = on

    # --- the browser -------------------------------------------------------------------------
    def _pixels(self) -> Any:
        """The picture drawn (drawn again first if a ``savefig`` at another size, an
        export, left the canvas holding a picture of another size)."""
        canvas: Any = self.figure.canvas
        pixels = np.asarray(canvas.buffer_rgba())
        width, height = canvas.get_width_height(physical=True)
        if pixels.shape[:2] != (height, width):
            self.invalidate()
            canvas.draw()
            pixels = np.asarray(canvas.buffer_rgba())
        return pixels

    def _set_ratio(self, ratio: float) -> None:
        """A view was shown at ``ratio``: lay the board out and draw it at that ratio (once)
        before its frame (text sizes in pixels differ a little between ratios)."""
        if set_pixel_ratio(self.figure, ratio):
            if self.framing is not None:
                self.framing.show(None, True)
            self.invalidate()
            self.redraw(self._cache_key)

    def _input(self, message: Mapping[str, Any]) -> None:
        """A pointer message from the browser (CSS px from the top-left corner) as matplotlib
        mouse events, or a zoom (``zoom`` by ``factor`` about the pointer, ``fit`` the
        ``table`` or the ``models``). A release first moves to where the pointer was let go."""
        kind = str(message.get("type"))
        if kind == "fit":
            self.fit(str(message.get("which", "table")))
            return
        ratio = self.ratio
        x = float(message.get("x", 0.0)) * ratio
        y = self.figure.bbox.height - float(message.get("y", 0.0)) * ratio
        if not (math.isfinite(x) and math.isfinite(y)):
            return
        if kind == "zoom":
            factor = float(message.get("factor", 1.0))
            if math.isfinite(factor) and factor > 0:
                self.zoom(factor, about=(x, y))
            return
        names = {"down": "button_press_event", "move": "motion_notify_event"}
        names["up"] = "button_release_event"
        if kind not in names:
            return
        middle = int(message.get("button", 0)) == 1
        pressed = MouseButton.MIDDLE if middle else MouseButton.LEFT
        buttons = int(message.get("buttons", 0))
        held = {MouseButton.LEFT} if buttons & 1 else set()
        if buttons & 4:
            held.add(MouseButton.MIDDLE)
        if kind == "up":
            self._mouse("motion_notify_event", x, y, None, {pressed})
        button = pressed if kind != "move" else None
        self._mouse(names[kind], x, y, button, held)

    def _mouse(self, name: str, x: float, y: float, button: Any, held: set[Any]) -> None:
        canvas = self.figure.canvas
        # matplotlib's own canvases give device pixels as floats too (high-density screens)
        px: Any = x
        py: Any = y
        if name == "motion_notify_event":
            event = MouseEvent(name, canvas, px, py, buttons=held)
        else:
            event = MouseEvent(name, canvas, px, py, button=button)
        canvas.callbacks.process(name, event)

    def _publish(self) -> None:
        """Show the picture drawn: a frame to the browser, or a PNG without the live canvas."""
        if self.interactive:
            if self._link is not None:
                self._link.push()
            return
        if self._widget is None:
            return
        from PIL import Image

        canvas: Any = self.figure.canvas
        rgba = canvas.buffer_rgba()
        img = Image.frombuffer("RGBA", (rgba.shape[1], rgba.shape[0]), rgba, "raw", "RGBA", 0, 1)
        img = img.convert("RGB")  # the figure is opaque; RGB encodes about twice as fast
        out = io.BytesIO()
        img.save(out, format="png", compress_level=1)
        self._widget.value = out.getvalue()

    # --- drawing -------------------------------------------------------------------------
    def draw(self) -> None:
        """Draw everything and show it."""
        self.figure.canvas.draw()
        self._publish()

    def redraw(self, moved: str | None = None) -> None:
        """Show the current artists: at most one full draw per change.

        The figure minus the moving artists (``moved``'s base and label, and every overlay)
        is drawn once and cached; while nothing else changes (same moved model, title, legend,
        language), a change restores that background and draws only the moving artists over
        it, in z-order, then shows the result. Artists are animated only during that draw, so
        a ``savefig`` of the figure always shows everything.
        """
        canvas: Any = self.figure.canvas
        if self.artists is None:
            self.draw()
            return
        key = moved if moved is not None else self._cache_key
        items = sorted(moving_artists(self.artists, key), key=lambda a: a.get_zorder())
        signature = (key, *self._static_signature())
        set_animated(self.artists, items, True)
        try:
            if self._cache is None or self._cache[0] != signature:
                canvas.draw()  # the one full draw; the background is copied right after
                self._cache = (signature, canvas.copy_from_bbox(self.figure.bbox))
                self._cache_key = key
            else:
                canvas.restore_region(self._cache[1])
            for a in items:
                if a.get_visible():
                    self._draw_moving(a)
        finally:
            set_animated(self.artists, items, False)
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
            self.figure.dpi,
        )

    def invalidate(self) -> None:
        """Forget the cached background (the next redraw draws everything)."""
        self._cache = None
        self._cache_key = None

    def clear(self) -> None:
        """Empty the Axes and take the board's caption off the figure (a new scenario is
        drawn from scratch; :func:`~fwwrules.draw.draw_board` makes its own caption)."""
        self.ax.clear()
        for text in list(self.figure.texts):
            if text.get_gid() == CAPTION_GID:
                text.remove()
        self.artists = None
        self.invalidate()

    # --- blitting (the panels' drags and the editor's tools) ----------------------------------
    def start_blit(self, moving: Sequence[Artist]) -> None:
        """Draw everything but ``moving`` once and keep it; :meth:`blit` then draws only
        ``moving`` over it, until :meth:`end_blit`."""
        self._moving_set = list(moving)
        for a in self._moving_set:
            a.set_animated(True)
        canvas: Any = self.figure.canvas
        canvas.draw()
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        if self._link is not None:  # what the moving pieces leave behind them
            self._link.sender.keep(np.asarray(self._background))
        self.blit()

    def blit(self) -> None:
        """Restore the kept background, draw the moving artists over it and show it."""
        if self._background is None or self._moving_set is None:
            return
        canvas: Any = self.figure.canvas
        canvas.restore_region(self._background)
        for a in self._moving_set:
            if a.get_visible():
                self._draw_moving(a)
        self._publish()

    def _draw_moving(self, artist: Artist) -> None:
        """Draw a moving artist over the background: a hatched shape with the kept hatch
        tiles (:mod:`.hatch_tiles`, the same pixels), anything else as ``draw_artist`` does."""
        renderer: Any = self.figure.canvas.get_renderer()  # type: ignore[attr-defined]
        if self.hatch_tiles is not None and isinstance(artist, Patch) and artist.get_hatch():
            renderer = TiledHatchRenderer(renderer, self.hatch_tiles)
        artist.draw(renderer)

    def end_blit(self) -> None:
        """Stop blitting: the moving artists are drawn as usual again (nothing is drawn)."""
        for a in self._moving_set or ():
            a.set_animated(False)
        self._moving_set = None
        self._background = None

    # --- zoom and pan ------------------------------------------------------------------------
    @property
    def view_box(self) -> Bounds:
        """The part of the board shown (board mm)."""
        (x0, x1), (y0, y1) = self.ax.get_xlim(), self.ax.get_ylim()
        return Bounds(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def _px_per_mm(self) -> float:
        """CSS pixels per board millimetre at the current view."""
        box = self.view_box
        return float(self.ax.bbox.width) / self.ratio / max(box.xmax - box.xmin, 1e-9)

    def zoom(self, factor: float, about: tuple[float, float] | None = None) -> None:
        """Zoom in by ``factor`` (below 1: out) keeping the board point under ``about``
        (device pixels from the lower left, as matplotlib counts; default: the middle of the
        board) where it is, between the whole table seen :data:`MAX_ZOOM_OUT` times over and
        :data:`MAX_PX_PER_MM`. The kernel draws the board at the new scale (labels placed
        again)."""
        if self.framing is None or self.dragging is not None or self._pan is not None:
            return
        box = self.view_box
        table = self.framing.table()
        wide = max(table.xmax - table.xmin, table.ymax - table.ymin) * MAX_ZOOM_OUT
        now = self._px_per_mm()
        lowest = now * max(box.xmax - box.xmin, box.ymax - box.ymin) / wide
        factor = min(max(factor, lowest / now), MAX_PX_PER_MM / now)
        if about is None or not self.ax.bbox.contains(*about):
            about = (
                float(self.ax.bbox.x0 + self.ax.bbox.x1) / 2,
                float(self.ax.bbox.y0 + self.ax.bbox.y1) / 2,
            )
        cx, cy = (float(v) for v in self.ax.transData.inverted().transform(about))
        view = Bounds(
            cx - (cx - box.xmin) / factor,
            cy - (cy - box.ymin) / factor,
            cx + (box.xmax - cx) / factor,
            cy + (box.ymax - cy) / factor,
        )
        self.framing.show(view, True)
        # The layout may have moved the board's edges a little (wider tick labels): the
        # point zoomed about goes back under the pointer (the limits alone; same scale).
        nx, ny = (float(v) for v in self.ax.transData.transform((cx, cy)))
        per_px = (self.view_box.xmax - self.view_box.xmin) / float(self.ax.bbox.width)
        dx, dy = (nx - about[0]) * per_px, (ny - about[1]) * per_px
        if math.hypot(dx, dy) > 0.25 * per_px:
            b = self.view_box
            self.framing.show(Bounds(b.xmin + dx, b.ymin + dy, b.xmax + dx, b.ymax + dy), False)
        self.invalidate()
        self.draw()

    def fit(self, which: str = "table") -> None:
        """Show the whole table (``"table"``) or every model with a margin (``"models"``)."""
        if self.framing is None:
            return
        if which not in ("table", "models"):
            raise ValueError(f"unknown view {which!r}; expected one of table, models")
        self.show_view(self.framing.table() if which == "table" else self.framing.models())

    def show_view(self, view: Bounds) -> None:
        """Show ``view`` (board mm) and draw the board at that scale."""
        if self.framing is None:
            return
        self.framing.show(view, True)
        self.invalidate()
        self.draw()

    def _start_pan(self, event: MouseEvent) -> None:
        (x0, x1), (y0, y1) = self.ax.get_xlim(), self.ax.get_ylim()
        self._pan = {"at": (event.x, event.y), "limits": (x0, x1, y0, y1), "moved": False}

    def _pan_to(self, x: float, y: float) -> None:
        """The pointer (device px) moved while panning: the board point pressed stays under
        it (whole device pixels, so the board moves as the picture does)."""
        assert self._pan is not None
        (px, py), (x0, x1, y0, y1) = self._pan["at"], self._pan["limits"]
        dx, dy = round(x - px), round(y - py)
        if not self._pan["moved"] and math.hypot(dx, dy) < CLICK_PX * self.ratio:
            return
        self._pan["moved"] = True
        per_px = (x1 - x0) / float(self.ax.bbox.width)
        view = Bounds(x0 - dx * per_px, y0 - dy * per_px, x1 - dx * per_px, y1 - dy * per_px)
        assert self.framing is not None
        self.framing.show(view, False)
        self.invalidate()
        self.draw()

    def _end_pan(self, event: MouseEvent) -> None:
        pan, self._pan = self._pan, None
        assert pan is not None
        if pan["moved"]:
            self.show_view(self.view_box)  # at rest: labels placed for this view
        elif self.on_click is not None and event.button == MouseButton.LEFT:
            xd, yd = self.ax.transData.inverted().transform(pan["at"])
            self.on_click(float(xd), float(yd))

    # --- dragging ------------------------------------------------------------------------
    def handle_at(self, x: float, y: float) -> str | None:
        """The handle (:attr:`handles`) whose circle contains the point (mm), if any."""
        for ident, circle in self.handles.items():
            cx, cy = circle.center
            if circle.get_visible() and math.hypot(x - cx, y - cy) <= circle.get_radius():
                return ident
        return None

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

    def _slow_texts(self) -> list[Text]:
        """The texts that state the ruling (the title, the caption with the rules and band):
        costly to draw (a wrapped title is a third of a drag frame's drawing) and rarely
        changed by a drag, so a drag keeps them in the blit background (:meth:`_bake`)."""
        assert self.artists is not None
        caption: Text | None = self.artists.state.get("caption")
        return [self.artists.title] + ([caption] if caption is not None else [])

    def _drag_artists(self, model_id: str) -> list[Artist]:
        """What a drag of ``model_id`` redraws on every motion: its base and label and the
        overlays. The title and caption are in the background (:meth:`_bake`); the legend
        and other labels wait for the drop."""
        assert self.artists is not None
        slow = {id(a) for a in self._slow_texts()}
        items = [a for a in moving_artists(self.artists, model_id, drag=True)
                 if id(a) not in slow]  # fmt: skip
        items += [a for a in self.client_moving(model_id) if a not in items]
        return sorted(items, key=lambda a: a.get_zorder())

    def _bake(self) -> None:
        """Draw into the blit background the slow texts that say something else than it
        holds, and the legend when the panel rebuilt it (a drag hides a knife-edge call's
        marks, and the legend drops their entry): each over an eraser of its old box (the
        figure's colour), then keep the background again. A motion that leaves them
        unchanged costs nothing here."""
        if self._background is None:
            return
        changed: list[tuple[Artist | None, Any]] = [
            (a, box) for a, text, box in self._baked.values() if a.get_text() != text
        ]
        legend = self.artists.legend if self.artists is not None else None
        if self._baked_legend is not None and self._baked_legend[0] is not legend:
            changed.append((legend, self._baked_legend[1]))
        if not changed:
            return
        canvas: Any = self.figure.canvas
        canvas.restore_region(self._background)
        for a, _box in changed:  # new words crisp, as the moving labels; the press's smooth
            if not isinstance(a, Text):
                continue  # the legend is drawn as at rest
            if a.get_text() == self._pressed.get(id(a)):
                self._smooth(a)  # again: the kept picture (the browser has it) shows them so
            else:
                self._draft([a])
        for a, box in changed:
            if box is not None:
                self.ax.draw_artist(self._eraser(box))
            if a is not None and a.get_visible():
                self.ax.draw_artist(a)
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        self._note_baked()

    def _note_baked(self) -> None:
        """Remember the slow texts' words and boxes, and the legend and its box, as the
        background now holds them. The legend's box is measured when the legend is new (at
        the press, or rebuilt by the panel): a legend that is still the one noted has the
        box noted (measuring one lays it out again, about 1.6 ms on the crowded board, at
        every change of the title during a drag)."""
        canvas: Any = self.figure.canvas
        renderer = canvas.get_renderer()
        self._baked = {
            id(a): (a, a.get_text(), a.get_window_extent(renderer)) for a in self._slow_texts()
        }
        legend = self.artists.legend if self.artists is not None else None
        if self._baked_legend is not None and self._baked_legend[0] is legend:
            return
        box = None if legend is None else legend.get_window_extent(renderer)
        self._baked_legend = (legend, box)

    def _eraser(self, box: Any) -> Artist:
        """A patch of the figure's colour over ``box`` (device pixels, 2 px more each way):
        what a slow text left in the background, wiped before its new words are drawn."""
        from matplotlib.patches import Rectangle
        from matplotlib.transforms import IdentityTransform

        patch = Rectangle(
            (box.x0 - 2, box.y0 - 2),
            box.width + 4,
            box.height + 4,
            transform=IdentityTransform(),
            facecolor=self.figure.get_facecolor(),
            edgecolor="none",
        )
        patch.set_figure(self.figure)
        return patch

    def _press(self, event: MouseEvent) -> None:
        if event.inaxes is not self.ax or event.xdata is None or event.ydata is None:
            return
        taken = self.on_press is not None and event.button == MouseButton.LEFT
        if taken and self.on_press is not None and self.on_press(event.xdata, event.ydata):
            return  # the client's tool took it
        hit = None
        if self.on_move is not None:
            hit = self.handle_at(event.xdata, event.ydata) or self.model_at(
                event.xdata, event.ydata
            )
        if event.button == MouseButton.MIDDLE or (
            event.button == MouseButton.LEFT and hit is None and self.pan_on_empty()
        ):
            if self.framing is not None:
                self._start_pan(event)
            elif self.on_click is not None and event.button == MouseButton.LEFT:
                self.on_click(float(event.xdata), float(event.ydata))
            return
        if hit is None or self.artists is None or event.button != MouseButton.LEFT:
            return  # nothing to drag for (the stepper), or not a left click on a base
        mid = hit
        if self.on_pick is not None and mid not in self.handles:
            self.on_pick(mid)
        cx, cy = (self.handles[mid] if mid in self.handles else self.artists.bases[mid]).center
        self.dragging = mid
        self._offset = (cx - event.xdata, cy - event.ydata)
        self._last = (cx, cy)
        set_animated(self.artists, [], True)  # pools made during the drag are animated
        moving = self._drag_artists(mid)
        for a in moving:  # a label dragged off a zoomed view is cut at the board's edge
            if isinstance(a, Text):
                a.set_clip_box(self.ax.bbox)
                a.set_clip_on(True)
        self._draft(moving)
        self.start_blit(moving)
        self._baked_legend = None  # measured afresh: the figure may have changed since
        self._note_baked()
        self._pressed = {key: text for key, (_a, text, _box) in self._baked.items()}

    def _motion(self, event: MouseEvent) -> None:
        if event.x is None or event.y is None:
            return
        if self._pan is not None:
            self._pan_to(event.x, event.y)
            return
        if self.dragging is None:
            return
        if event.inaxes is self.ax and event.xdata is not None and event.ydata is not None:
            xd, yd = event.xdata, event.ydata
        else:  # outside the Axes: the panel still keeps the base on the table
            xd, yd = self.ax.transData.inverted().transform((event.x, event.y))
        self.drag_to(float(xd) + self._offset[0], float(yd) + self._offset[1])

    def drag_to(self, x: float, y: float) -> None:
        """Move the dragged model to (x, y) mm: the panel recomputes, the view blits."""
        if self.dragging is None:
            return
        self._last = (x, y)
        if self.on_move is not None:
            placed = self.on_move(self.dragging, x, y)
            if placed is not None:
                self._last = placed
        if self._moving_set is not None:
            # artists the panel made during this motion (a pool grew) move too
            assert self.artists is not None
            for a in self._drag_artists(self.dragging):
                if a not in self._moving_set:
                    a.set_animated(True)
                    self._draft([a])
                    self._moving_set.append(a)
            self._moving_set.sort(key=lambda a: a.get_zorder())
        self._bake()
        self.blit()

    def _draft(self, artists: Sequence[Artist]) -> None:
        """Draw ``artists`` (lines, shapes and texts: the labels that move) without
        antialiasing while they are dragged: a thin line's smoothed edge over hatched terrain
        is hundreds of colours, a crisp one is one, and a drag frame on a slow link is about
        half the bytes; a moving label's smoothed glyphs are a third of a drag frame's bytes
        at device pixel ratio 2 (crisp glyphs read as well while they move). The picture the
        drag ends on is drawn smoothed again (:meth:`_undraft`)."""
        for a in artists:
            smooth = getattr(a, "get_antialiased", None)
            if smooth is None or id(a) in self._drafted:
                continue
            self._drafted[id(a)] = (a, bool(smooth()))
            a.set_antialiased(False)  # type: ignore[attr-defined]

    def _undraft(self) -> None:
        for a, smooth in self._drafted.values():
            a.set_antialiased(smooth)
        self._drafted = {}

    def _smooth(self, artist: Artist) -> None:
        """Draw ``artist`` smoothed again, as before :meth:`_draft`."""
        drafted = self._drafted.pop(id(artist), None)
        if drafted is not None:
            artist.set_antialiased(drafted[1])  # type: ignore[attr-defined]

    def _release(self, event: MouseEvent) -> None:
        if self._pan is not None:
            self._end_pan(event)
            return
        if self.dragging is None:
            return
        mid, (x, y) = self.dragging, self._last
        assert self.artists is not None
        self._undraft()
        self.end_blit()
        set_animated(self.artists, [], False)
        self.dragging = None
        self._baked = {}
        self._baked_legend = None
        if self.on_drop is not None:
            self.on_drop(mid, x, y)
        # Everything drawn at once, in z-order (not a background plus moving artists): the
        # picture the drag ends on is exactly the figure's full render.
        self.invalidate()
        self._cache_key = mid
        self.draw()
