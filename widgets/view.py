"""One board figure inside a panel: redrawn once per change, dragged with blitting.

With ipympl installed (``pip install 'fwwrules[lab]'``, Binder) the figure is made with
ipympl's canvas directly, whatever backend the notebook chose (``%matplotlib inline`` or
none): the canvas *is* the widget, placed in the panel with an explicit pixel size (an
ipympl canvas nested in boxes otherwise collapses to 0×0), and bases can be dragged with the
mouse. ipympl draws at the browser's device pixel ratio, so the board stays sharp and keeps
its size on high-density screens. Without ipympl (or with ``interactive=False``, as headless
tests use) the figure is drawn on an Agg canvas at :data:`PNG_PIXEL_RATIO` times its CSS
size and shown as a PNG :class:`ipywidgets.Image` of that CSS size (sharp at a device pixel
ratio of 2); the panels' position controls still move models.

Dragging uses blitting: on the press the moving artists (the dragged base and every overlay)
are marked ``animated``, the rest is drawn once and cached, and each motion restores that
background and draws only the moving artists over it. The release redraws everything once.
"""

from __future__ import annotations

import base64
import html
import io
import math
import struct
import zlib
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
import matplotlib
import numpy as np
from matplotlib.artist import Artist
from matplotlib.backend_bases import MouseEvent
from matplotlib.figure import Figure

from fwwrules.draw import (
    DEFAULT_STYLE,
    BoardArtists,
    BoardStyle,
    moving_artists,
    set_animated,
)
from fwwrules.draw.board import FIXED_SIZE_GID
from fwwrules.draw.figure import place_axes

PNG_PIXEL_RATIO = 2.0
"""Without ipympl the board is a PNG drawn at this many pixels per CSS pixel and shown at its
CSS size, so it stays sharp on high-density screens (and is merely downscaled on others)."""

MoveCallback = Callable[[str, float, float], "tuple[float, float] | None"]
"""``(model id, x, y)`` with x, y in board millimetres; returns where the model really is
(mm) when the panel placed it elsewhere (a stop at contact), else None."""


def ipympl_active() -> bool:
    """True when matplotlib's current backend is ipympl's (``%matplotlib widget``)."""
    backend = matplotlib.get_backend().lower()
    return "ipympl" in backend or backend == "widget"


def ipympl_available() -> bool:
    """True when ipympl can be imported: the panels then draw on its interactive canvas.

    Importing ipympl switches pyplot's backend to ipympl's when matplotlib is loaded (its
    ``__init__`` calls ``matplotlib.use``); the panels never use pyplot, so that switch is
    suppressed here and a notebook's own ``%matplotlib inline`` figures stay inline.
    """
    try:
        import ipympl  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ipympl_canvas() -> tuple[Any, Any]:
    """ipympl's ``Canvas`` and ``FigureManager`` classes, without changing pyplot's backend."""
    import sys

    if "ipympl.backend_nbagg" not in sys.modules:
        use = matplotlib.use
        matplotlib.use = lambda *args, **kwargs: None
        try:
            import ipympl.backend_nbagg  # noqa: F401
        finally:
            matplotlib.use = use
    from ipympl.backend_nbagg import Canvas, FigureManager

    return Canvas, FigureManager


_SEEDED: list[Any] = []


def _seeded_canvas_class() -> Any:
    """ipympl's ``Canvas`` whose ``_data_url`` and ``_size`` start from ``seed`` (a class
    attribute set just around construction), so they are in the widget's first state."""
    if not _SEEDED:
        from traitlets import default

        Canvas, _ = _import_ipympl_canvas()

        class SeededCanvas(Canvas):  # type: ignore[misc,valid-type]
            """ipympl's canvas, seeded, and encoding its frames with :func:`fast_png`."""

            seed: tuple[str, tuple[int, int]] | None = None

            def get_diff_image(self) -> bytes | None:
                return diff_image(self)

            @default("_data_url")
            def _default_data_url(self) -> str | None:
                return None if self.seed is None else self.seed[0]

            @default("_size")
            def _default_size(self) -> tuple[int, int]:
                return (0, 0) if self.seed is None else self.seed[1]

        _SEEDED.append(SeededCanvas)
    return _SEEDED[0]


_MANAGER_NUMBERS = iter(range(1_000_000, 2_000_000))
"""Numbers for the panels' figure managers (never registered with pyplot)."""


def ipympl_canvas(figure: Figure, size_px: tuple[int, int]) -> widgets.DOMWidget:
    """ipympl's canvas for ``figure``, seeded with its current picture and CSS size.

    ipympl's frontend starts from the model's ``_data_url`` and ``_size`` as they are when
    the widget is created; ipympl sets them only when it displays a figure itself. Left
    empty, the browser's first resize draws a broken image and the canvas stays 0×0
    inside a panel. Mouse callbacks live on the figure, so they survive the new canvas.
    No toolbar (pan and zoom would fight the dragging), no header or footer, a fixed size.
    """
    png = png_bytes(figure)
    seeded = _seeded_canvas_class()
    seeded.seed = ("data:image/png;base64," + base64.b64encode(png).decode("ascii"), size_px)
    _, FigureManager = _import_ipympl_canvas()
    canvas: Any = seeded(figure)
    seeded.seed = None
    manager = FigureManager(canvas, next(_MANAGER_NUMBERS))
    toolbar = getattr(manager, "toolbar", None) or getattr(canvas, "toolbar", None)
    drag_id = getattr(toolbar, "_id_drag", None)
    if drag_id is not None:
        # The hidden toolbar's cursor read-out (``_message``, "x=… y=…"): after every
        # motion it looks for artists under the pointer and sends a state update, which
        # keeps the kernel busy and delays the next drag frame. Nothing shows it here.
        canvas.mpl_disconnect(drag_id)
    canvas.header_visible = False
    canvas.footer_visible = False
    canvas.toolbar_visible = False
    canvas.resizable = False
    width_px, height_px = size_px
    canvas.layout = widgets.Layout(
        width=f"{width_px}px",
        height=f"{height_px}px",
        min_width=f"{width_px}px",
        flex="0 0 auto",
    )
    return canvas


_ZERO_ROWS: dict[tuple[int, int], bytes] = {}
"""Raw deflate of ``count`` rows of zeros ``row`` bytes long, by ``(row, count)``."""


def _zero_rows(row: int, n: int) -> bytes:
    """``n`` transparent rows (``row`` bytes each, filter byte included) as raw deflate,
    sync-flushed and not final, so that it can be followed by more deflate data. Built from
    cached pieces: the rows outside a drag frame's changed band cost no compression."""
    out: list[bytes] = []
    for count in (4096, 256, 16, 1):
        q, n = divmod(n, count)
        if q:
            piece = _ZERO_ROWS.get((row, count))
            if piece is None:
                c = zlib.compressobj(1, zlib.DEFLATED, -15)
                piece = c.compress(bytes(row * count)) + c.flush(zlib.Z_SYNC_FLUSH)
                _ZERO_ROWS[(row, count)] = piece
            out.append(piece * q)
    return b"".join(out)


def fast_png(rgba: Any, *, top: int = 0, height: int | None = None) -> bytes:
    """An RGBA image as PNG, quickly: no row filters, zlib level 1.

    ``rgba`` (``rows × w × 4`` uint8) holds the image's rows ``top`` to ``top + rows``; the
    other rows of an image ``height`` rows high (default: just these rows) are transparent
    black. A drag frame is such a diff image: only a band of rows changed, and the rest is
    written from cached compressed pieces. This takes a fraction of the time of PIL's
    default encoding (adaptive filters, level 6), for a few percent more bytes. Boundary
    cases: an empty band (``rows`` 0) gives a wholly transparent image; ``height`` 0 gives a
    valid PNG with no rows.
    """
    pixels = np.ascontiguousarray(rgba, dtype=np.uint8)
    rows, w = int(pixels.shape[0]), int(pixels.shape[1])
    h = rows + top if height is None else int(height)
    if top < 0 or top + rows > h:
        raise ValueError(f"rows {top}..{top + rows} outside an image {h} rows high")
    row = w * 4 + 1
    raw = np.zeros((rows, row), dtype=np.uint8)  # filter byte 0 ("none") on every row
    raw[:, 1:] = pixels.reshape(rows, w * 4)
    body = raw.tobytes()
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    deflate = b"".join(
        (
            _zero_rows(row, top),
            c.compress(body),
            c.flush(zlib.Z_SYNC_FLUSH),
            _zero_rows(row, h - top - rows),
            zlib.compressobj(1, zlib.DEFLATED, -15).flush(zlib.Z_FINISH),  # the last block
        )
    )
    # Adler-32 of all rows: n zero bytes leave its sum ``a`` alone and add n·a to ``b``.
    a, b = 1, (top * row) % 65521
    adler = zlib.adler32(body, (b << 16) | a)
    a, b = adler & 0xFFFF, adler >> 16
    b = (b + (h - top - rows) * row * a) % 65521

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    stream = b"\x78\x01" + deflate + struct.pack(">I", (b << 16) | a)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")
    )


def diff_image(canvas: Any) -> bytes | None:
    """matplotlib's ``FigureCanvasWebAggCore.get_diff_image`` with :func:`fast_png`.

    Same protocol: None when the picture has not changed since the last frame; a full frame
    after a resize, a refresh or when any pixel is transparent, else a diff frame (changed
    pixels, the rest transparent black) that the browser paints over the last one.
    """
    if not canvas._png_is_old:
        return None
    pixels = np.asarray(canvas.get_renderer().buffer_rgba())
    buff = pixels.view(np.uint32).squeeze(2)
    if (
        canvas._force_full
        or buff.shape != canvas._last_buff.shape
        or (pixels[:, :, 3] != 255).any()
    ):
        canvas.set_image_mode("full")
        output = buff
        top = 0
    else:
        canvas.set_image_mode("diff")
        changed = buff != canvas._last_buff
        rows = np.flatnonzero(changed.any(axis=1))
        top, end = (int(rows[0]), int(rows[-1]) + 1) if rows.size else (0, 0)
        output = np.where(changed[top:end], buff[top:end], 0)
    canvas._last_buff = buff.copy()
    canvas._force_full = False
    canvas._png_is_old = False
    rgba = output.view(dtype=np.uint8).reshape((*output.shape, 4))
    return fast_png(rgba, top=top, height=buff.shape[0])


def png_bytes(figure: Figure) -> bytes:
    """The figure as PNG (no software version in it), at the figure's own dpi."""
    out = io.BytesIO()
    figure.savefig(out, format="png", metadata={"Software": None})
    return out.getvalue()


def static_bundle(widget: widgets.Widget, figure: Figure, ruling_html: str) -> dict[str, Any]:
    """A display bundle with the widget view plus a static picture and the ruling.

    JupyterLab shows the widget; GitHub, nbviewer and nbconvert (no widget state) show the
    ``text/html`` (the board as an image beside the ruling) or the ``image/png``.
    """
    data: dict[str, Any] = dict(widget._repr_mimebundle_() or {})
    png = png_bytes(figure)
    b64 = base64.b64encode(png).decode("ascii")
    ratio = float(getattr(figure.canvas, "device_pixel_ratio", 1.0) or 1.0)
    width = round(figure.get_figwidth() * figure.dpi / ratio)
    data["image/png"] = b64
    data["text/html"] = (
        '<div class="fwwrules-static" style="display:flex;flex-wrap:wrap;gap:12px;'
        'align-items:flex-start">'
        f'<img class="fwwrules-board" src="data:image/png;base64,{b64}" '
        f'style="width:{width}px;max-width:100%" alt="{html.escape(_alt(figure))}"/>'
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


class BoardView:
    """A figure with one board Axes, shown as a widget (``.widget``).

    ``redraw(moved)`` shows a change with at most one full draw (see :meth:`redraw`). Mouse
    dragging calls ``on_move`` for every motion (the panel updates its scenario, ruling and
    artists there, drawing nothing) and ``on_drop`` once on release; the view blits in between.
    """

    def __init__(self, style: BoardStyle = DEFAULT_STYLE, *, interactive: bool | None = None):
        self.style = style
        self.interactive = ipympl_available() if interactive is None else interactive
        width_px = round(style.figsize[0] * style.dpi)
        height_px = round(style.figsize[1] * style.dpi)
        self.size_px = (width_px, height_px)
        """The board's size in CSS pixels (the same at every device pixel ratio)."""
        if self.interactive:
            # Drawn on Agg until the panel asks for the widget (:attr:`widget`): ipympl's
            # canvas is made then, with its first picture in the state the browser receives.
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            fig = Figure(figsize=style.figsize, dpi=style.dpi)
            FigureCanvasAgg(fig)
            self._widget: widgets.DOMWidget | None = None
        else:
            from matplotlib.backends.backend_agg import FigureCanvasAgg

            fig = Figure(figsize=style.figsize, dpi=style.dpi)
            agg: Any = FigureCanvasAgg(fig)
            agg._set_device_pixel_ratio(PNG_PIXEL_RATIO)  # the figure's dpi times the ratio
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
        self.dragging: str | None = None
        self._offset = (0.0, 0.0)
        self._last = (0.0, 0.0)
        self._background: Any = None
        self._moving_set: list[Artist] | None = None
        self._cache: tuple[tuple[Any, ...], Any] | None = None
        self._cache_key: str | None = None
        canvas_ = fig.canvas
        canvas_.mpl_connect("button_press_event", self._press)
        canvas_.mpl_connect("motion_notify_event", self._motion)
        canvas_.mpl_connect("button_release_event", self._release)

    @property
    def widget(self) -> widgets.DOMWidget:
        """The board as a widget: ipympl's canvas (made on first use, holding the picture
        drawn so far) or, without ipympl, a PNG :class:`ipywidgets.Image`."""
        if self._widget is None:
            self._widget = self._make_canvas()
        return self._widget

    def _make_canvas(self) -> widgets.DOMWidget:
        """ipympl's canvas for the figure (see :func:`ipympl_canvas`)."""
        canvas = ipympl_canvas(self.figure, self.size_px)
        self._cache = None
        self._background = None
        return canvas

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
                self._render() if self.interactive else canvas.draw_idle()
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
            self.figure.dpi,
        )

    def _render(self) -> None:
        """Draw the whole figure into the canvas's buffer without sending it to the browser.

        ipympl's ``draw()`` sends a frame at once; a blit follows every full draw here, so
        that frame would be followed by another within milliseconds. The browser decodes
        frames asynchronously and drops one whose successor arrives first; as the frames
        are diffs, a dropped one leaves stale pixels for good (a ghost of the base where a
        drag began). So the full draw is only rendered and the blit sends one frame.
        """
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        canvas: Any = self.figure.canvas
        if self.interactive:
            canvas._png_is_old = True
            agg_draw: Any = FigureCanvasAgg.draw
            agg_draw(canvas)
        else:
            canvas.draw()

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
        """The artists a drag redraws, fixed on the press (the background holds the rest).

        The title (the ruling's headline) and the legend are left out: text is costly to
        draw, and the drop redraws everything once.
        """
        assert self.artists is not None
        if self._moving_set is None:
            self._moving_set = moving_artists(self.artists, self.dragging, drag=True)
        return self._moving_set

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
        self._moving_set = None
        set_animated(self.artists, self._moving(), True)
        canvas: Any = self.figure.canvas
        self._render()  # everything that stays put, once (sent with the blit below)
        self._background = canvas.copy_from_bbox(self.figure.bbox)
        self.blit()

    def _motion(self, event: MouseEvent) -> None:
        if self.dragging is None or event.x is None or event.y is None:
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
        self._moving_set = None
        if self.on_drop is not None:
            self.on_drop(mid, x, y)
        self.invalidate()
        if self.interactive:
            # The drop's frame is a full one: whatever drag frame the browser may have
            # dropped under load, the board it shows after the drop is exactly this one.
            self.figure.canvas._force_full = True  # type: ignore[attr-defined]
        self.redraw(mid)
