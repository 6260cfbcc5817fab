"""Agg text drawn from kept layouts and glyph bitmaps: the same pixels, without laying out
and rendering them again.

matplotlib's Agg lays out every text (FreeType's glyphs and their places) and renders every
glyph afresh on every draw, and a board's picture has several hundred glyphs (names, the
legend, ticks, the title) that stay where they are from one frame to the next: about a third of
a full draw went into laying them out and rendering them again. :class:`GlyphCanvas` is the
Agg canvas of the figures :mod:`fwwrules.draw` and the panels make; its renderer keeps each
text's layout by font, text, size, dpi, hinting, font features and language, and each
unrotated glyph's bitmap by font, size, dpi, glyph, hinting, antialiasing and the glyph's
offset within its pixel (in FreeType's 1/64 pixel units), and draws a kept bitmap at the
glyph's whole-pixel place.

The pixels are those matplotlib draws: FreeType applies the translation after hinting and
rasterises relative to the glyph's own pixel box, so a glyph at the same offset within its
pixel gives the same bitmap one whole pixel further on (tests/test_glyph_cache.py compares
frames drawn both ways). Rotated text, slanted or stretched glyphs (mathtext) and text with
boxes (mathtext's rules) are drawn by matplotlib's own code. Written for matplotlib 3.10–3.11's
``RendererAgg.draw_text`` and ``_draw_text_glyphs_and_boxes``; with another version the canvas
draws as Agg does.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from types import MethodType
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg, get_hinting_flag

MAX_GLYPHS = 8192
"""Most glyph bitmaps kept (a few hundred bytes each); past it the oldest quarter goes."""

_KEPT: dict[tuple[Any, ...], tuple[np.ndarray[Any, Any], int, int, Any]] = {}
"""Kept bitmaps: key -> (bitmap, left, top at a zero whole-pixel offset, the font, kept alive
so that its ``id`` in the key names no other font)."""

_AGG_DRAW = getattr(RendererAgg, "_draw_text_glyphs_and_boxes", None)


TESTED_MATPLOTLIB = ((3, 10), (3, 11))
"""The matplotlib releases (major, minor) whose private Agg and FreeType text code
:func:`_draw_glyphs` follows, byte for byte (tests/test_glyph_cache.py); any other draws its
text with matplotlib's own code: a newer release may keep the methods' names and change what
they do."""


def _supported(version: str | None = None) -> bool:
    """Whether this matplotlib (or ``version``) is one of :data:`TESTED_MATPLOTLIB` and has
    the private methods :func:`_draw_glyphs` calls."""
    import matplotlib
    from matplotlib import ft2font

    release = tuple(int(p) for p in (version or matplotlib.__version__).split(".")[:2])
    font = getattr(ft2font, "FT2Font", None)
    return (
        release in TESTED_MATPLOTLIB
        and _AGG_DRAW is not None
        and hasattr(ft2font, "RenderMode")
        and hasattr(font, "_render_glyph")
        and hasattr(font, "_set_transform")
        and hasattr(font, "_layout")
    )


_SUPPORTED = _supported()


def _draw_glyphs(
    self: Any,
    gc: Any,
    x: float,
    y: float,
    angle: float,
    glyphs: Iterable[tuple[Any, float, int, float, float, float, float]],
    boxes: Any,
) -> None:
    """``RendererAgg._draw_text_glyphs_and_boxes`` for unrotated text, from kept bitmaps."""
    assert _AGG_DRAW is not None  # installed only where it exists (_SUPPORTED)
    if angle != 0 or boxes:
        _AGG_DRAW(self, gc, x, y, angle, glyphs, boxes)
        return
    from matplotlib.ft2font import RenderMode

    load_flags = get_hinting_flag()  # type: ignore[no-untyped-call]
    antialiased = gc.get_antialiased()
    for glyph in glyphs:
        font, size, index, slant, extend, dx, dy = glyph
        if slant != 0 or extend != 1:
            _AGG_DRAW(self, gc, x, y, angle, [glyph], [])
            continue
        # matplotlib's own arithmetic at angle 0 (cos 1, sin 0), in 1/64 pixel
        tx = round(0x40 * (x + dx * 1.0 - dy * 0.0))
        ty = round(0x40 * (self.height - y + dx * 0.0 + dy * 1.0))
        key = (id(font), size, self.dpi, index, load_flags, antialiased, tx & 63, ty & 63)
        kept = _KEPT.get(key)
        if kept is None:
            font.set_size(size, self.dpi)
            font._set_transform([[0x10000, 0], [0, 0x10000]], [tx & 63, ty & 63])
            mode = RenderMode.NORMAL if antialiased else RenderMode.MONO
            bitmap = font._render_glyph(index, load_flags, mode)
            buffer = np.array(bitmap.buffer)
            if not antialiased:
                buffer *= 0xFF
            if len(_KEPT) >= MAX_GLYPHS:
                for old in list(islice(_KEPT, MAX_GLYPHS // 4)):
                    _KEPT.pop(old, None)  # another thread may have dropped it
            kept = _KEPT[key] = (buffer, bitmap.left, bitmap.top, font)
        buffer, left, top, _font = kept
        left += tx >> 6
        top += ty >> 6
        # draw_text_image's y is downwards & the bitmap's bottom side (as matplotlib's)
        self._renderer.draw_text_image(
            buffer, left, int(self.height) - top + buffer.shape[0], 0, gc
        )


MAX_LAYOUTS = 2048
"""Most text layouts kept (a list of glyphs each); past it the oldest quarter goes."""

_LAID: dict[tuple[Any, ...], tuple[list[tuple[Any, int, float, float]], Any]] = {}
"""Kept layouts: key -> (each glyph's font, index and place, the text's font kept alive)."""


def _draw_text(
    self: Any,
    gc: Any,
    x: float,
    y: float,
    s: str,
    prop: Any,
    angle: float,
    ismath: Any = False,
    mtext: Any = None,
) -> None:
    """``RendererAgg.draw_text`` with each text's layout (FreeType's glyphs and their places:
    the same for the same text, font, size and dpi) kept, drawn by :func:`_draw_glyphs`."""
    if ismath:
        RendererAgg.draw_text(self, gc, x, y, s, prop, angle, ismath, mtext)  # type: ignore[no-untyped-call]
        return
    font = self._prepare_font(prop)
    features = mtext.get_fontfeatures() if mtext is not None else None
    language = mtext.get_language() if mtext is not None else None
    flags = get_hinting_flag()  # type: ignore[no-untyped-call]
    size = prop.get_size_in_points()
    key = (id(font), s, size, self.dpi, flags, repr(features), repr(language))
    kept = _LAID.get(key)
    if kept is None:
        items = font._layout(s, flags=flags, features=features, language=language)
        if len(_LAID) >= MAX_LAYOUTS:
            for old in list(islice(_LAID, MAX_LAYOUTS // 4)):
                _LAID.pop(old, None)
        laid = [(item.ft_object, item.glyph_index, item.x, item.y) for item in items]
        kept = _LAID[key] = (laid, font)
    self._draw_text_glyphs_and_boxes(
        gc, x, y, angle, ((ft, size, index, 0, 1, gx, gy) for ft, index, gx, gy in kept[0]), []
    )


class GlyphCanvas(FigureCanvasAgg):
    """matplotlib's Agg canvas whose renderers draw text from kept glyph bitmaps (see the
    module's docstring); everything else as :class:`FigureCanvasAgg`."""

    def get_renderer(self) -> RendererAgg:
        renderer: RendererAgg = super().get_renderer()  # type: ignore[no-untyped-call]
        if _SUPPORTED and "_draw_text_glyphs_and_boxes" not in vars(renderer):
            renderer._draw_text_glyphs_and_boxes = MethodType(  # type: ignore[method-assign]
                _draw_glyphs, renderer
            )
            renderer.draw_text = MethodType(_draw_text, renderer)  # type: ignore[method-assign]
        return renderer
