"""Convex parts of terrain pieces and bases, grown and eroded by a sure margin (the threat
map's building blocks).

A concave piece (an L-shaped wall, a ring of ruins) is split into convex parts whose union is
the piece (:func:`convex_parts`); each part is kept three ways (:class:`Part`): grown by the
margin :data:`~fwwrules.constants.THREAT_SURE_MARGIN_MM` (a segment that misses it surely
misses the piece), eroded by it (a segment that meets it surely passes into the piece) and as
a ring further out (lines through its vertices may clear the piece). A base (an exact circle)
becomes regular polygons inside and outside the circle (:func:`disc_part`).

The parts of a merged solid depend on the terrain alone and are kept in the scenario's cache
(:data:`CONVEX_PARTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from .board import Board, Disc
from .cache import Key
from .constants import THREAT_SURE_MARGIN_MM
from .kernels import Array

_DELTA = THREAT_SURE_MARGIN_MM


def ring(poly: Polygon) -> Array:
    """The exterior of a convex polygon as counter-clockwise vertices (no repeat)."""
    oriented = shapely.geometry.polygon.orient(poly, 1.0)
    return np.asarray(oriented.exterior.coords)[:-1]


def is_convex(poly: Polygon) -> bool:
    return bool(poly.convex_hull.area - poly.area <= 1e-9 * max(poly.area, 1.0))


def convex_parts(geom: BaseGeometry) -> list[Polygon]:
    """Convex polygons whose union is ``geom`` (a polygon, possibly with holes, or several)."""
    polys = list(getattr(geom, "geoms", [geom]))
    parts: list[Polygon] = []
    for poly in polys:
        if poly.is_empty:
            continue
        if not poly.interiors and is_convex(poly):
            parts.append(poly)
            continue
        tris = [t for t in shapely.constrained_delaunay_triangles(poly).geoms if t.area > 0]
        parts.extend(merge_convex(tris))
    return parts


def merge_convex(tris: list[Polygon]) -> list[Polygon]:
    """Join the triangles of a triangulation across their shared edges while the union stays
    convex (Hertel and Mehlhorn: each shared edge is looked at once, so a piece of n corners
    costs O(n) unions, not O(n^2) tests; the parts are at most four times the fewest)."""
    pieces: list[Polygon | None] = list(tris)
    parent = list(range(len(tris)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    shared: dict[tuple[tuple[float, float], tuple[float, float]], list[int]] = {}
    for i, t in enumerate(tris):
        ring = [(float(x), float(y)) for x, y in t.exterior.coords[:-1]]
        for p, q in zip(ring, ring[1:] + ring[:1], strict=True):
            shared.setdefault((p, q) if p <= q else (q, p), []).append(i)
    for owners in shared.values():
        if len(owners) != 2:
            continue
        a, b = find(owners[0]), find(owners[1])
        pa, pb = pieces[a], pieces[b]
        if a == b or pa is None or pb is None:
            continue
        union = shapely.union(pa, pb)
        if isinstance(union, Polygon) and not union.interiors and is_convex(union):
            pieces[a], pieces[b] = union.simplify(0), None
            parent[b] = a
    return [p for p in pieces if p is not None]


@dataclass(frozen=True, slots=True, eq=False)
class Part:
    """A convex part of a piece: grown (a superset of everything within the margin) and
    eroded (a subset at least the margin inside), as counter-clockwise vertices."""

    grown: Array
    eroded: Array | None
    disc: bool = False
    outer: Array | None = None
    """Vertices at least the margin outside ``grown`` (lines through them may clear it)."""
    exact: Array | None = None
    """The eroded part at full resolution (every vertex; ``eroded`` may skip some)."""
    box: tuple[float, float, float, float] = field(init=False)
    """The bounding box of ``grown``: ``(xmin, ymin, xmax, ymax)``."""

    def __post_init__(self) -> None:
        lo, hi = self.grown.min(axis=0), self.grown.max(axis=0)
        object.__setattr__(self, "box", (float(lo[0]), float(lo[1]), float(hi[0]), float(hi[1])))


def part(poly: Polygon) -> Part:
    grown = poly.buffer(_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
    outer = poly.buffer(_DELTA * 3.03, join_style="mitre", mitre_limit=1e6)
    eroded = poly.buffer(-_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
    er: Array | None = None
    full: Array | None = None
    if isinstance(eroded, Polygon) and not eroded.is_empty and eroded.area > 0:
        er = ring(eroded) if is_convex(eroded) else None
        full = er
        if er is not None and len(er) > 24:
            # a round piece: a polygon on every k-th vertex lies inside it (enough to block)
            er = er[:: math.ceil(len(er) / 24)]
    return Part(ring(grown.convex_hull), er, outer=ring(outer.convex_hull), exact=full)


CONVEX_PARTS: Key[dict[int, tuple[BaseGeometry, tuple[Part, ...]]]] = Key(
    "convex_parts", terrain_only=True, make=dict
)
"""Convex parts of each piece or merged solid, by the geometry's ``id`` (the entry holds the
geometry, so the id cannot be reused while cached)."""


def parts_of(board: Board, geom: BaseGeometry) -> list[Part]:
    """The convex parts of a merged solid, kept in the scenario's cache (:data:`CONVEX_PARTS`,
    by the solid's id; the entry holds the solid itself)."""
    cache = board.derived.entry(CONVEX_PARTS)
    cached = cache.get(id(geom))
    if cached is not None and cached[0] is geom:
        return list(cached[1])
    parts = [part(p) for p in convex_parts(geom)]
    cache[id(geom)] = (geom, tuple(parts))
    return parts


DISC_PARTS: Key[dict[Disc, Part]] = Key("disc_parts", terrain_only=False, make=dict)
"""The convex part of each base that blocks as a disc (a Huge model's), by its disc: the
threat map asks for it once per line-of-sight pass and once per group of positions standing
on the same pieces that its costly proofs take apart)."""


def disc_part_of(board: Board, d: Disc) -> Part:
    """:func:`disc_part` of ``d``, kept in the scenario's cache (:data:`DISC_PARTS`)."""
    cache = board.derived.entry(DISC_PARTS)
    found = cache.get(d)
    if found is None:
        found = cache[d] = disc_part(d)
    return found


def disc_part(d: Disc) -> Part:
    n = 48
    a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    r_out = (d.r + _DELTA * 1.01) / math.cos(math.pi / n)
    r_in = d.r - _DELTA * 1.01
    r_outer = (d.r + _DELTA * 3.03) / math.cos(math.pi / n)
    grown = np.column_stack((d.x + r_out * np.cos(a), d.y + r_out * np.sin(a)))
    eroded = np.column_stack((d.x + r_in * np.cos(a), d.y + r_in * np.sin(a)))
    outer = np.column_stack((d.x + r_outer * np.cos(a), d.y + r_outer * np.sin(a)))
    er = eroded if r_in > 0 else None
    return Part(grown, er, disc=True, outer=outer, exact=er)
