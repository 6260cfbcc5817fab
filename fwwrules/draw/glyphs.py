"""Agg text drawn from kept glyph bitmaps: the same pixels, without rendering them again.

matplotlib's Agg renders every glyph of every text afresh on every draw (FreeType, at the
glyph's sub-pixel position), and a board's picture has several hundred glyphs (names, the
legend, ticks, the title) that stay where they are from one frame to the next: about a third of
a full draw went into rendering them again. :class:`GlyphCanvas` is the Agg canvas of the
figures :mod:`fwwrules.draw` and the panels make; its renderer keeps each unrotated glyph's
bitmap by font, size, dpi, glyph, hinting, antialiasing and the glyph's offset within its pixel
(in FreeType's 1/64 pixel units), and draws a kept bitmap at the glyph's whole-pixel place.

The pixels are those matplotlib draws: FreeType applies the translation after hinting and
rasterises relative to the glyph's own pixel box, so a glyph at the same offset within its
pixel gives the same bitmap one whole pixel further on (tests/test_glyph_cache.py compares
frames drawn both ways). Rotated text, slanted or stretched glyphs (mathtext) and text with
boxes (mathtext's rules) are drawn by matplotlib's own code. Written for matplotlib 3.10–3.11's
``RendererAgg._draw_text_glyphs_and_boxes``; with another version the canvas draws as Agg does.
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


def _supported() -> bool:
    """Whether this matplotlib draws text as :func:`_draw_glyphs` expects (3.10–3.11)."""
    from matplotlib import ft2font

    font = getattr(ft2font, "FT2Font", None)
    return (
        _AGG_DRAW is not None
        and hasattr(ft2font, "RenderMode")
        and hasattr(font, "_render_glyph")
        and hasattr(font, "_set_transform")
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
                    del _KEPT[old]
            kept = _KEPT[key] = (buffer, bitmap.left, bitmap.top, font)
        buffer, left, top, _font = kept
        left += tx >> 6
        top += ty >> 6
        # draw_text_image's y is downwards & the bitmap's bottom side (as matplotlib's)
        self._renderer.draw_text_image(
            buffer, left, int(self.height) - top + buffer.shape[0], 0, gc
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
        return renderer
