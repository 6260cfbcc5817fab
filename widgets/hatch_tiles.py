"""A dragged base's hatch drawn from a kept tile: the same pixels as Agg's, at a fraction of
the cost.

Agg draws a hatched path in three passes: the face, then the hatch, then the edge. For the
hatch it renders a tile of ``int(dpi)`` pixels square afresh on every call (cleared, and the
hatch's lines rasterized into it) and lays it over the path's coverage, the tile anchored at
the canvas's top left corner; only that last step depends on where the path is. A drag draws
the same base in a new place on every motion, so :class:`TiledHatchRenderer` keeps the tile
(per dpi and hatch look, :class:`HatchTiles`) and draws a hatched path as the face alone, the
kept tile laid over the path's coverage (an image clipped to the path: Agg computes that
coverage as it does for the hatch), then the edge alone: byte for byte what one draw gives
(``tests/test_hatch_tiles.py`` compares whole frames of drags at several sub-pixel offsets).

Boundary cases: only paths with curves (a base's circle) take the tiled way: a straight
path's face and edge are snapped and clipped differently when drawn apart. A path that is
clipped to another path, is snapped on purpose (``snap=True``), or has a hatch colour other
than black or white (the one tile colour that survives being read back exactly; the bases'
hatch is always one of them) is drawn the ordinary way. A path that is off the canvas draws
nothing in either way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.backend_bases import GraphicsContextBase
from matplotlib.path import Path
from matplotlib.transforms import Affine2D, Transform, TransformedPath

__all__ = ["HatchTiles", "TiledHatchRenderer"]

TileKey = tuple[Any, ...]


MAX_LOOKS = 8
"""Hatch looks kept at once (a look's pattern is the tile repeated over the base's box; at
the closest zoom that is a few megabytes): past this many, all are forgotten."""


class HatchTiles:
    """The hatch tiles Agg would render, kept by look (hatch, colour, line width, alpha,
    dpi) and repeated into a pattern as large as the largest box asked for: a base dragged
    across the board renders its tile once."""

    def __init__(self) -> None:
        self._looks: dict[TileKey, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = {}

    def __len__(self) -> int:
        return len(self._looks)

    def window(
        self, gc: GraphicsContextBase, dpi: float, rows: tuple[int, int], cols: tuple[int, int]
    ) -> np.ndarray[Any, Any]:
        """The hatch pattern that Agg lays on the canvas under rows ``[top, bottom)`` and
        columns ``[left, right)`` (device pixels from the top left corner; not empty), as an
        RGBA image whose first row is the bottom one (as ``draw_image`` reads an image)."""
        (top, bottom), (left, right) = rows, cols
        tile, pattern = self._pattern(gc, dpi, bottom - top, right - left)
        size = tile.shape[0]
        # pattern[j] is the tile's row (-1 - j) mod size; the image's row i is the canvas's
        # row bottom - 1 - i, whose pattern row is (bottom - 1 - i) mod size: j = i - bottom.
        r0, c0 = -bottom % size, left % size
        return np.ascontiguousarray(pattern[r0 : r0 + bottom - top, c0 : c0 + right - left])

    def _pattern(
        self, gc: GraphicsContextBase, dpi: float, height: int, width: int
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """The look's tile and its pattern (the tile upside down, repeated), the pattern
        at least one tile larger each way than ``height`` x ``width``."""
        key = _tile_key(gc, dpi)
        found = self._looks.get(key)
        if found is None:
            if len(self._looks) >= MAX_LOOKS:
                self._looks.clear()
            tile = _render_tile(gc, dpi)
            found = (tile, tile[:0])
        tile, pattern = found
        size = tile.shape[0]
        if pattern.shape[0] < height + size or pattern.shape[1] < width + size:
            reps = (-(-height // size) + 1, -(-width // size) + 1, 1)
            pattern = np.tile(tile[::-1], reps)
        self._looks[key] = (tile, pattern)
        return tile, pattern


def _tile_key(gc: GraphicsContextBase, dpi: float) -> TileKey:
    return (
        gc.get_hatch(),
        tuple(gc.get_hatch_color()),
        gc.get_hatch_linewidth(),
        gc.get_alpha(),
        gc.get_forced_alpha(),
        float(dpi),
    )


def _render_tile(gc: GraphicsContextBase, dpi: float) -> np.ndarray[Any, Any]:
    """Agg's hatch tile for ``gc`` at ``dpi``: the hatch drawn alone over a transparent
    canvas of one tile, fully covered (where the tile is transparent the canvas stays so)."""
    from matplotlib.backends import backend_agg

    size = int(dpi)
    renderer: Any = backend_agg.RendererAgg  # untyped in matplotlib's stubs
    renderer = renderer(size, size, dpi)
    tile_gc = renderer.new_gc()
    tile_gc.copy_properties(gc)
    tile_gc.set_clip_rectangle(None)
    tile_gc.set_clip_path(None)
    tile_gc.set_linewidth(0)
    square = Affine2D().scale(size + 2).translate(-1, -1)
    renderer.draw_path(tile_gc, Path.unit_rectangle(), square, None)
    tile_gc.restore()
    return np.array(renderer.buffer_rgba(), copy=True)


def _black_or_white(rgba: Any) -> bool:
    return rgba is not None and all(float(c) in (0.0, 1.0) for c in tuple(rgba)[:3])


def tiled(gc: GraphicsContextBase, path: Path) -> bool:
    """Whether a draw of ``path`` with ``gc`` may take the tiled way (see the module's
    docstring): a hatch in black or white, a path with curves, no clip path, no forced snap.

    >>> from matplotlib.backend_bases import GraphicsContextBase
    >>> gc = GraphicsContextBase()
    >>> gc.set_hatch("xx")
    >>> gc.set_hatch_color("black")
    >>> tiled(gc, Path.unit_circle()), tiled(gc, Path.unit_rectangle())
    (True, False)
    >>> gc.set_hatch_color("#D55E00")
    >>> tiled(gc, Path.unit_circle())
    False
    """
    return (
        gc.get_hatch() is not None
        and path.codes is not None
        and bool(np.any((path.codes == Path.CURVE3) | (path.codes == Path.CURVE4)))
        and gc.get_clip_path() == (None, None)
        and gc.get_snap() is not True
        and _black_or_white(gc.get_hatch_color())
    )


class TiledHatchRenderer:
    """A canvas's renderer that draws hatched curved paths from kept tiles (see the module's
    docstring) and passes everything else to the canvas's own renderer."""

    def __init__(self, renderer: Any, tiles: HatchTiles):
        self._renderer = renderer
        self._tiles = tiles

    def __getattr__(self, name: str) -> Any:
        return getattr(self._renderer, name)

    def draw_path(
        self, gc: GraphicsContextBase, path: Path, transform: Transform, rgbFace: Any = None
    ) -> None:
        """Draw as the canvas's renderer would: face, hatch from the kept tile, edge."""
        real = self._renderer
        if not tiled(gc, path):
            real.draw_path(gc, path, transform, rgbFace)
            return
        plain = real.new_gc()
        plain.copy_properties(gc)
        plain.set_hatch(None)
        try:
            if rgbFace is not None:
                width = plain.get_linewidth()
                plain.set_linewidth(0)
                real.draw_path(plain, path, transform, rgbFace)
                plain.set_linewidth(width)
            self._hatch(gc, path, transform)
            if plain.get_linewidth() > 0:
                real.draw_path(plain, path, transform, None)
        finally:
            plain.restore()

    def _hatch(self, gc: GraphicsContextBase, path: Path, transform: Transform) -> None:
        """The kept tile laid over ``path``'s coverage: an image of the tile's pixels under
        the path's box (whole pixels), clipped to the path."""
        real = self._renderer
        width, height = int(real.width), int(real.height)
        # The control points' box holds the path (a curve stays within its control points),
        # and is much cheaper than the curves' own extents.
        xy = transform.transform(path.vertices)
        (left, low), (right, high) = xy.min(axis=0), xy.max(axis=0)
        x0 = max(int(np.floor(left)) - 1, 0)
        x1 = min(int(np.ceil(right)) + 1, width)
        top = max(height - int(np.ceil(high)) - 1, 0)  # rows counted from the top
        bottom = min(height - int(np.floor(low)) + 1, height)
        if x1 <= x0 or bottom <= top:
            return
        image = self._tiles.window(gc, real.dpi, (top, bottom), (x0, x1))
        clip = real.new_gc()
        try:
            clip.set_clip_rectangle(gc.get_clip_rectangle())
            clip.set_clip_path(TransformedPath(path, transform))
            clip.set_snap(gc.get_snap())
            real.draw_image(clip, x0, height - bottom, image)
        finally:
            clip.restore()
