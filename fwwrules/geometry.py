"""Exact geometry primitives: clear segments between bases, Line of Cover passages, chords.

Everything is in millimetres, seen from above. Bases are exact circles (:class:`Disc`); terrain
is shapely polygons. The rules modules (``los``, ``cover``, ``elevation``) build on these.

Conventions (docs/rules.md, "Conventions")
------------------------------------------
* *Inside* means inside the **open** interior. A segment is inside a piece only over a length
  above :data:`~fwwrules.constants.LENGTH_EPSILON_MM`; touching a boundary is never crossing
  or blocking: a grazed corner, a line running along an edge, a tangent to a base.
* Rounding: a point closer than :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM` (1e-9 mm) to
  an outline lies on it. So a line computed through two corners of an edge, or a computed
  tangent to a base, touches instead of cutting by 1e-16 mm.
* Obstacles for line of sight (:data:`Obstacle`):

  - a shapely ``Polygon``/``MultiPolygon``: its open interior blocks;
  - a ``Disc`` (a Huge model's base): its open interior blocks;
  - a ``LineString`` (a zero-width wall, e.g. a Significant Edge): a segment that properly
    crosses one of its straight pieces (from one side to the other through the piece's
    relative interior) is blocked; touching it, ending on it, running along it or passing
    through an endpoint is not.

  Obstacles are taken one by one: merge touching pieces first (:func:`merge_touching`) when a
  line along their seam should count as inside.

Line of sight (``ranged.los``) is decided exactly by :func:`find_clear_segment`: if a clear
segment exists, it can be slid and turned until it touches two *features* (a base outline, a
Huge base, an obstacle corner, a point where an obstacle outline meets a base outline), so
testing the finitely many lines through two features decides it; sampling is only a test
oracle. In order, cheapest first:

1. the centre-to-centre segment (returned when clear);
2. a quick exact "no": one blocker, clear of both bases, spans the corridor between them
   (meets both outer common tangents inside the hull), so every segment must cross it;
3. cheap candidates: the centre line's gap and the four common tangents of the two bases;
4. a second exact "no": the blockers together cut the hull of the two bases into pieces;
5. every line through two features, tested in vectorised batches, stopping at the first
   clear one. Lines through a convex corner that point into the corner are dropped (they
   enter the piece there), as are lines whose features do not lie on their segment.

The "no" proofs use pieces eroded by ten times LENGTH_EPSILON_MM, so a segment meeting the
eroded piece is inside the piece over more than epsilon: the proofs never deny a grazing line.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeAlias

import numpy as np
import shapely
import shapely.ops
from numpy.typing import NDArray
from shapely.geometry import LineString, MultiPolygon, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.strtree import STRtree

from .board import Disc
from .cache import Derived, Key
from .constants import BOUNDARY_TOLERANCE_MM, LENGTH_EPSILON_MM
from .pieces import PassageHow

__all__ = [
    "Obstacle",
    "Passage",
    "Point",
    "Prepared",
    "Segment",
    "chord_length",
    "disc_passage",
    "distance_to_disc",
    "find_clear_segment",
    "find_clear_segment_to_polygon",
    "interior_length",
    "merge_touching",
    "passage",
    "prepared_for",
    "segment_clear",
    "segment_edge_crossing",
]

Point = tuple[float, float]
Segment = tuple[Point, Point]
Obstacle: TypeAlias = Polygon | MultiPolygon | LineString | Disc
"""What can block a line of sight: a polygon, a zero-width wall, or a Huge model's base."""

Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

_TOL = BOUNDARY_TOLERANCE_MM
_EPS = LENGTH_EPSILON_MM
_DEEP_MM = 10.0 * LENGTH_EPSILON_MM
"""A proof device, not a rule: a segment that reaches a point this deep inside a piece is inside
it over a length of at least ``_DEEP_MM - BOUNDARY_TOLERANCE_MM`` (the depth changes by at most
the distance travelled), which is above LENGTH_EPSILON_MM. So meeting the piece eroded by this
much proves "blocked" with a cheap predicate. The same eroded pieces give the quick "no LoS"
proof, where a larger free space only makes the proof safer."""

_WEDGE_SLACK = 1e-9
"""Sine of the angle by which a line must point into a corner's interior before the candidate
search drops it as surely blocked (a pruning margin, far above rounding, far below any real
angle). It never decides a ruling: a dropped line would have been blocked anyway."""

_CACHE_LIMIT = 4096

# ---------------------------------------------------------------------------------------------
# Prepared obstacles (kept per geometry object in a board's Prepared: boards build their
# geometry once)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Solid:
    """A polygon obstacle with its derived data (rings oriented with the inside on the left).

    The eroded forms (``core``, ``deep``) are computed on first use: a passage through a
    convex piece never needs them."""

    geom: BaseGeometry
    edges: Array  # (E, 4): x0, y0, x1, y1, inside on the left
    verts: Array  # (V, 2)
    w_in: Array  # (V, 2) unit direction of the edge arriving at the vertex
    w_out: Array  # (V, 2) unit direction of the edge leaving it
    convex: BoolArray  # (V,) False for reflex corners (no line touches those without entering)
    is_convex: bool  # one convex polygon (then its part inside a convex region is connected)
    py_edges: tuple[tuple[float, float, float, float, float], ...]  # ax, ay, ex, ey, |e|
    bounds: tuple[float, float, float, float]

    @cached_property
    def edge_columns(self) -> tuple[Array, Array, Array, Array, Array]:
        """``py_edges`` as five arrays (``ax, ay, ex, ey, |e|``, each contiguous), for
        :func:`_convex_clip_many`."""
        e = np.asarray(self.py_edges, dtype=float).reshape(-1, 5)
        ax, ay, ex, ey, el = (np.ascontiguousarray(e[:, k]) for k in range(5))
        return ax, ay, ex, ey, el

    @cached_property
    def core(self) -> BaseGeometry:
        """The piece eroded by BOUNDARY_TOLERANCE_MM: the points that count inside."""
        return _erode(self.geom, _TOL)

    @cached_property
    def deep(self) -> BaseGeometry:
        """The piece eroded by _DEEP_MM: meeting it proves a block."""
        return _erode(self.geom, _DEEP_MM)


@dataclass(frozen=True, slots=True, eq=False)
class _Wall:
    geom: BaseGeometry
    pieces: Array  # (M, 4)
    verts: Array  # (V, 2)


def _polygons(geom: BaseGeometry) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [] if geom.is_empty else [geom]
    if isinstance(geom, MultiPolygon):
        return [g for g in geom.geoms if not g.is_empty]
    if hasattr(geom, "geoms"):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(_polygons(g))
        return out
    raise TypeError(f"expected a Polygon or MultiPolygon, got {geom.geom_type}")


def _ring_arrays(coords: Array) -> tuple[Array, Array, Array, Array]:
    """Edges, vertices and unit in/out directions of a closed ring (duplicates dropped)."""
    pts = np.asarray(coords, dtype=float)[:, :2]
    if len(pts) > 1 and np.array_equal(pts[0], pts[-1]):
        pts = pts[:-1]
    keep = np.ones(len(pts), dtype=bool)
    keep[1:] = np.any(pts[1:] != pts[:-1], axis=1)
    pts = pts[keep]
    if len(pts) > 1 and np.array_equal(pts[0], pts[-1]):
        pts = pts[:-1]
    nxt = np.roll(pts, -1, axis=0)
    edges = np.hstack([pts, nxt])
    d = nxt - pts
    lengths = np.hypot(d[:, 0], d[:, 1])
    lengths[lengths == 0] = 1.0
    w_out = d / lengths[:, None]
    w_in = np.roll(w_out, 1, axis=0)
    return edges, pts, w_in, w_out


def _erode(geom: BaseGeometry, by: float) -> BaseGeometry:
    g = shapely.buffer(geom, -by, join_style="mitre", mitre_limit=10.0)
    shapely.prepare(g)
    return g


def _make_solid(geom: BaseGeometry) -> _Solid:
    edges, verts, w_in, w_out = [], [], [], []
    for poly in _polygons(geom):
        poly = orient(poly, sign=1.0)  # exterior counter-clockwise, holes clockwise
        for ring in (poly.exterior, *poly.interiors):
            e, v, wi, wo = _ring_arrays(np.asarray(ring.coords))
            if len(v) >= 3:
                edges.append(e)
                verts.append(v)
                w_in.append(wi)
                w_out.append(wo)
    if edges:
        e_all, v_all = np.vstack(edges), np.vstack(verts)
        wi_all, wo_all = np.vstack(w_in), np.vstack(w_out)
    else:
        e_all, v_all = np.zeros((0, 4)), np.zeros((0, 2))
        wi_all, wo_all = np.zeros((0, 2)), np.zeros((0, 2))
    turn = wi_all[:, 0] * wo_all[:, 1] - wi_all[:, 1] * wo_all[:, 0]
    shapely.prepare(geom)
    data = _Solid(
        geom=geom,
        edges=e_all,
        verts=v_all,
        w_in=wi_all,
        w_out=wo_all,
        convex=turn >= -_WEDGE_SLACK,
        is_convex=isinstance(geom, Polygon)
        and not geom.interiors
        and bool(np.all(turn >= -_WEDGE_SLACK)),
        py_edges=tuple(
            (x0, y0, x1 - x0, y1 - y0, math.hypot(x1 - x0, y1 - y0))
            for x0, y0, x1, y1 in e_all.tolist()
            if (x1, y1) != (x0, y0)
        ),
        bounds=tuple(float(v) for v in geom.bounds),  # type: ignore[arg-type]
    )
    return data


def _make_wall(geom: BaseGeometry) -> _Wall:
    lines = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
    pieces, verts = [], []
    for line in lines:
        pts = np.asarray(line.coords, dtype=float)[:, :2]
        if len(pts) < 2:
            continue
        pieces.append(np.hstack([pts[:-1], pts[1:]]))
        verts.append(pts)
    data = _Wall(
        geom=geom,
        pieces=np.vstack(pieces) if pieces else np.zeros((0, 4)),
        verts=np.vstack(verts) if verts else np.zeros((0, 2)),
    )
    return data


def _remember(cache: dict[int, tuple[BaseGeometry, Any]], geom: BaseGeometry, data: Any) -> None:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[id(geom)] = (geom, data)


class Prepared:
    """Prepared obstacles: each solid's oriented edges, corners and eroded cores and each
    wall's pieces, computed once per shapely geometry object.

    Entries are keyed by ``id()`` and hold the geometry, so an id cannot be reused while its
    entry lives; at most :data:`_CACHE_LIMIT` of each kind are kept (then it starts afresh).
    A board keeps one in its cache (:data:`PREPARED`, :func:`prepared_for`); the
    functions of this module take it as ``prepared=`` and, given none, prepare what they need
    for that call only (nothing outlives the call: the module keeps no state).
    """

    __slots__ = ("_solids", "_walls")

    def __init__(self) -> None:
        self._solids: dict[int, tuple[BaseGeometry, _Solid]] = {}
        self._walls: dict[int, tuple[BaseGeometry, _Wall]] = {}

    def known_solid(self, geom: object) -> _Solid | None:
        """The prepared solid of ``geom`` when it was prepared before, else None."""
        hit = self._solids.get(id(geom))
        return hit[1] if hit is not None and hit[0] is geom else None

    def solid(self, geom: BaseGeometry) -> _Solid:
        data = self.known_solid(geom)
        if data is None:
            data = _make_solid(geom)
            _remember(self._solids, geom, data)
        return data

    def wall(self, geom: BaseGeometry) -> _Wall:
        hit = self._walls.get(id(geom))
        if hit is not None and hit[0] is geom:
            return hit[1]
        data = _make_wall(geom)
        _remember(self._walls, geom, data)
        return data

    def __len__(self) -> int:
        return len(self._solids) + len(self._walls)


PREPARED: Key[Prepared] = Key("prepared", terrain_only=True, make=Prepared)
"""Each obstacle's edge arrays and eroded cores, per shapely geometry (:class:`Prepared`)."""


def prepared_for(derived: Derived) -> Prepared:
    """The board's :class:`Prepared` obstacles (:data:`PREPARED`), made on first use."""
    return derived.entry(PREPARED)


def _prep(prepared: Prepared | None) -> Prepared:
    return Prepared() if prepared is None else prepared


@dataclass(frozen=True, eq=False)
class _Obstacles:
    solids: tuple[_Solid, ...]
    walls: tuple[_Wall, ...]
    discs: Array  # (H, 3): x, y, r

    @cached_property
    def geoms(self) -> NDArray[Any]:
        """(S,) the solids' geometries, for vectorised predicates (made when first asked: a
        search that ends early never asks)."""
        return _object_array([s.geom for s in self.solids])

    @cached_property
    def cores(self) -> NDArray[Any]:
        """(S,) the solids' cores (:attr:`_Solid.core`)."""
        return _object_array([s.core for s in self.solids])

    @cached_property
    def deeps(self) -> NDArray[Any]:
        """(S,) the solids' deep parts (:attr:`_Solid.deep`)."""
        return _object_array([s.deep for s in self.solids])

    @property
    def empty(self) -> bool:
        return not self.solids and not self.walls and len(self.discs) == 0

    def subset(
        self, keep_solids: BoolArray, keep_walls: Sequence[bool], keep_discs: BoolArray
    ) -> _Obstacles:
        return _obstacles(
            [s for s, k in zip(self.solids, keep_solids, strict=True) if k],
            [w for w, k in zip(self.walls, keep_walls, strict=True) if k],
            self.discs[keep_discs],
        )


def _object_array(items: list[Any]) -> NDArray[Any]:
    """A 1-d object array of ``items`` (geometries stay elements, never unpacked)."""
    return np.asarray([*items, None], dtype=object)[:-1]


def _obstacles(solids: Sequence[_Solid], walls: Sequence[_Wall], discs: Array) -> _Obstacles:
    return _Obstacles(tuple(solids), tuple(walls), discs)


def _split(obstacles: Sequence[Obstacle], prep: Prepared) -> _Obstacles:
    solids: list[_Solid] = []
    walls: list[_Wall] = []
    discs: list[tuple[float, float, float]] = []
    for ob in obstacles:
        known = prep.known_solid(ob)
        if known is not None:  # the hot path: a piece seen before
            solids.append(known)
        elif isinstance(ob, Disc):
            if ob.r > 0:
                discs.append((ob.x, ob.y, ob.r))
        elif isinstance(ob, (Polygon, MultiPolygon)):
            if not ob.is_empty:
                solids.append(prep.solid(ob))
        elif isinstance(ob, BaseGeometry) and ob.geom_type in ("LineString", "MultiLineString"):
            if not ob.is_empty:
                walls.append(prep.wall(ob))
        elif isinstance(ob, BaseGeometry) and ob.geom_type == "GeometryCollection":
            polys = [g for g in ob.geoms if isinstance(g, (Polygon, MultiPolygon))]
            lines = [g for g in ob.geoms if g.geom_type in ("LineString", "MultiLineString")]
            sub = _split([*polys, *lines], prep)
            solids.extend(sub.solids)
            walls.extend(sub.walls)
        else:
            raise TypeError(f"not an obstacle: {ob!r}")
    return _obstacles(solids, walls, np.asarray(discs, dtype=float).reshape(-1, 3))


# ---------------------------------------------------------------------------------------------
# Many segments against the obstacles at once
# ---------------------------------------------------------------------------------------------


def _discs_block(discs: Array, p: Array, q: Array) -> BoolArray:
    """(K,) True where segment k cuts some disc over a length above epsilon."""
    k = len(p)
    out = np.zeros(k, dtype=bool)
    if len(discs) == 0 or k == 0:
        return out
    d = q - p
    length = np.hypot(d[:, 0], d[:, 1])
    ok = length > 0
    if not ok.any():
        return out
    for cx, cy, r in discs:
        rel_x, rel_y = cx - p[:, 0], cy - p[:, 1]
        with np.errstate(invalid="ignore", divide="ignore"):
            tc = (rel_x * d[:, 0] + rel_y * d[:, 1]) / length  # along the segment, in mm
            dist = np.abs(d[:, 0] * rel_y - d[:, 1] * rel_x) / length
            half = np.sqrt(np.maximum(r * r - dist * dist, 0.0))
            inside = np.minimum(tc + half, length) - np.maximum(tc - half, 0.0)
        out |= ok & (r - dist > _TOL) & (inside > _EPS)
    return out


def _walls_block(walls: Sequence[_Wall], p: Array, q: Array) -> BoolArray:
    """(K,) True where segment k properly crosses a piece of some wall."""
    k = len(p)
    out = np.zeros(k, dtype=bool)
    if not walls or k == 0:
        return out
    pieces = np.vstack([w.pieces for w in walls])
    if len(pieces) == 0:
        return out
    a, b = pieces[None, :, :2], pieces[None, :, 2:]
    pp, qq = p[:, None, :], q[:, None, :]
    e = b - a
    d = qq - pp
    with np.errstate(invalid="ignore", divide="ignore"):
        el = np.hypot(e[..., 0], e[..., 1])
        dl = np.hypot(d[..., 0], d[..., 1])
        sp = (e[..., 0] * (pp[..., 1] - a[..., 1]) - e[..., 1] * (pp[..., 0] - a[..., 0])) / el
        sq = (e[..., 0] * (qq[..., 1] - a[..., 1]) - e[..., 1] * (qq[..., 0] - a[..., 0])) / el
        sa = (d[..., 0] * (a[..., 1] - pp[..., 1]) - d[..., 1] * (a[..., 0] - pp[..., 0])) / dl
        sb = (d[..., 0] * (b[..., 1] - pp[..., 1]) - d[..., 1] * (b[..., 0] - pp[..., 0])) / dl
        across = ((sp > _TOL) & (sq < -_TOL)) | ((sp < -_TOL) & (sq > _TOL))
        hit = across & (((sa > _TOL) & (sb < -_TOL)) | ((sa < -_TOL) & (sb > _TOL)))
    out = np.asarray(hit.any(axis=1), dtype=bool)
    # A segment through the joint of wall pieces (a corner of a ring of edges, the point where
    # one edge is split in two) crosses the wall when pieces leave that joint on both sides of
    # it; one that only touches a corner from outside (all pieces on one side) stays clear.
    at_a = across & (np.abs(sa) <= _TOL)  # passes through a piece's start; its end is on sb
    at_b = across & (np.abs(sb) <= _TOL)
    for i in np.flatnonzero((at_a | at_b).any(axis=1) & ~out):
        sides: dict[tuple[float, float], set[bool]] = {}
        for j in np.flatnonzero(at_a[i]):
            sides.setdefault((pieces[j, 0], pieces[j, 1]), set()).add(bool(sb[i, j] > 0))
        for j in np.flatnonzero(at_b[i]):
            sides.setdefault((pieces[j, 2], pieces[j, 3]), set()).add(bool(sa[i, j] > 0))
        out[i] = any(len(found) == 2 for found in sides.values())
    return out


def _solid_blocks(solid: _Solid, lines: NDArray[Any], alive: BoolArray) -> BoolArray:
    """(K,) True where line k (of those ``alive``) is inside ``solid`` over more than epsilon."""
    out = np.zeros(len(lines), dtype=bool)
    idx = np.flatnonzero(alive)
    if len(idx) == 0 or solid.core.is_empty:
        return out
    hit = shapely.intersects(solid.core, lines[idx])
    idx = idx[hit]
    if len(idx) == 0:
        return out
    sure = (
        shapely.intersects(solid.deep, lines[idx])
        if not solid.deep.is_empty
        else np.zeros(len(idx), dtype=bool)
    )
    out[idx[sure]] = True
    unsure = idx[~sure]
    if len(unsure):
        out[unsure] = shapely.length(shapely.intersection(lines[unsure], solid.core)) > _EPS
    return out


def _clear_many(obs: _Obstacles, p: Array, q: Array) -> BoolArray:
    """(K,) True where the segment p[k]-q[k] crosses no obstacle."""
    d = q - p
    short = np.hypot(d[:, 0], d[:, 1]) <= _EPS  # nothing is inside them over more than epsilon
    blocked = _discs_block(obs.discs, p, q) | _walls_block(obs.walls, p, q)
    if short.any():
        blocked &= ~short
        if short.all():
            return ~blocked
    if obs.solids and not blocked.all():
        lines = shapely.linestrings(np.stack([p, q], axis=1))
        for s in obs.solids:
            blocked |= _solid_blocks(s, lines, ~blocked & ~short)
            if blocked.all():
                break
    return ~blocked


def segment_clear(
    p: Point, q: Point, obstacles: Sequence[Obstacle], *, prepared: Prepared | None = None
) -> bool:
    """True when the segment ``pq`` crosses no obstacle (see :data:`Obstacle`).

    Boundary cases: grazing a corner, running along an edge, being tangent to a Huge base,
    touching or ending on a wall, and a zero-length segment are all clear.

    >>> from shapely.geometry import box
    >>> wall = box(0, 0, 10, 10)
    >>> segment_clear((-5, 10), (15, 10), [wall])   # along the top edge
    True
    >>> segment_clear((-5, 5), (15, 5), [wall])
    False
    >>> segment_clear((-5, 15), (15, -5), [wall])   # through the corner (10, 0)? no: (5, 5)
    False
    >>> segment_clear((0, 20), (20, 0), [wall])     # touches the corner (10, 10) only
    True
    >>> segment_clear((-30, 20), (30, 20), [Disc(0, 0, 20)])  # tangent to a Huge base
    True
    """
    obs = _split(obstacles, _prep(prepared))
    if obs.empty:
        return True
    pa = np.asarray([p], dtype=float)
    qa = np.asarray([q], dtype=float)
    return bool(_clear_many(obs, pa, qa)[0])


# ---------------------------------------------------------------------------------------------
# Lengths inside pieces, passages of the Line of Cover
# ---------------------------------------------------------------------------------------------


def chord_length(p: Point, q: Point, disc: Disc) -> float:
    """Length of the segment ``pq`` inside the open ``disc`` (exact circle maths).

    Boundary cases: a tangent segment, one ending on the circle from outside, or one missing
    the disc gives 0; a segment inside the disc gives its own length; a chord whose depth is
    within :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM` (a computed tangent) gives 0.

    >>> chord_length((-20, 0), (20, 0), Disc(0, 0, 10))
    20.0
    >>> chord_length((-20, 10), (20, 10), Disc(0, 0, 10))   # tangent
    0.0
    >>> chord_length((0, 0), (20, 0), Disc(0, 0, 10))      # starts at the centre
    10.0
    """
    return _chord(p, q, disc)[2]


def _chord(p: Point, q: Point, disc: Disc) -> tuple[float, float, float]:
    """(t0, t1, length): the parameters (0..1 along pq) of the inside stretch, and its length."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0.0 or disc.r <= 0:
        return (0.0, 0.0, 0.0)
    rx, ry = disc.x - p[0], disc.y - p[1]
    tc = (rx * dx + ry * dy) / length
    dist = abs(dx * ry - dy * rx) / length
    if disc.r - dist <= _TOL:
        return (0.0, 0.0, 0.0)
    half = math.sqrt(disc.r * disc.r - dist * dist)
    a, b = max(tc - half, 0.0), min(tc + half, length)
    if b <= a:
        return (0.0, 0.0, 0.0)
    return (a / length, b / length, b - a)


def _runs(p: Point, q: Point, solid: _Solid) -> list[tuple[float, float]]:
    """Inside stretches of pq in ``solid`` as (t0, t1), 0 <= t0 < t1 <= 1, each above epsilon.

    The crossing parameters come from the exact edges; a stretch between two of them is inside
    when its midpoint lies in the open interior deeper than the boundary tolerance. Touching
    stretches (through a seam or a pinch) join into one.
    """
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0.0 or len(solid.edges) == 0 or solid.core.is_empty:
        return []
    e = solid.edges
    nx, ny = -dy / length, dx / length
    sa = (e[:, 0] - p[0]) * nx + (e[:, 1] - p[1]) * ny
    sb = (e[:, 2] - p[0]) * nx + (e[:, 3] - p[1]) * ny
    near_a = np.abs(sa) <= 1e3 * _TOL
    near_b = np.abs(sb) <= 1e3 * _TOL
    cross = ((sa > _TOL) & (sb < -_TOL)) | ((sa < -_TOL) & (sb > _TOL))
    s = sa[cross] / (sa[cross] - sb[cross])
    cx = e[cross, 0] + s * (e[cross, 2] - e[cross, 0])
    cy = e[cross, 1] + s * (e[cross, 3] - e[cross, 1])
    xs = np.concatenate([cx, e[near_a, 0], e[near_b, 2]])
    ys = np.concatenate([cy, e[near_a, 1], e[near_b, 3]])
    t = ((xs - p[0]) * dx + (ys - p[1]) * dy) / (length * length)
    step = _TOL / length
    t = t[(t > step) & (t < 1.0 - step)]
    ts = np.unique(np.concatenate([[0.0, 1.0], t]))
    if len(ts) > 2:  # fold parameters closer than the boundary tolerance
        keep = np.ones(len(ts), dtype=bool)
        keep[1:] = np.diff(ts) > step
        keep[-1] = True
        ts = ts[keep]
    mids = (ts[:-1] + ts[1:]) / 2.0
    pts = shapely.points(p[0] + mids * dx, p[1] + mids * dy)
    inside = shapely.contains_properly(solid.core, pts)
    runs: list[tuple[float, float]] = []
    start: float | None = None
    for i, ins in enumerate(inside):
        if ins and start is None:
            start = float(ts[i])
        if not ins and start is not None:
            runs.append((start, float(ts[i])))
            start = None
    if start is not None:
        runs.append((start, 1.0))
    return [(a, b) for a, b in runs if (b - a) * length > _EPS]


def _convex_clip(
    p: Point, q: Point, edges: tuple[tuple[float, float, float, float, float], ...]
) -> tuple[bool, float, float, float]:
    """Liang-Barsky clip of pq to a convex polygon (counter-clockwise edges).

    Returns (near, t0, t1, depth): ``near`` is whether pq comes within the boundary
    tolerance of the polygon (every edge pushed out by it); (t0, t1) the clipped parameters
    (t0 > t1 when pq misses it) and ``depth`` the distance of their midpoint from the
    outline (negative outside).
    """
    p0, p1 = p
    dx, dy = q[0] - p0, q[1] - p1
    flat = 1e-15 * math.hypot(dx, dy)
    t0 = n0 = -math.inf
    t1 = n1 = math.inf
    fg = []
    for ax, ay, ex, ey, el in edges:
        f = (ex * (p1 - ay) - ey * (p0 - ax)) / el  # signed distance of p, inside > 0
        g = (ex * dy - ey * dx) / el  # its rate along pq
        fg.append((f, g))
        if -flat <= g <= flat:
            if f < 0:
                t0 = math.inf
                if f < -_TOL:
                    return (False, 1.0, 0.0, -1.0)
            continue
        t, tn = -f / g, -(f + _TOL) / g
        if g > 0:
            t0 = t if t > t0 else t0
            n0 = tn if tn > n0 else n0
        else:
            t1 = t if t < t1 else t1
            n1 = tn if tn < n1 else n1
    near = max(n0, 0.0) <= min(n1, 1.0)
    t0, t1 = max(t0, 0.0), min(t1, 1.0)
    if not near or t0 > t1:
        return (near, t0, t1, -1.0)
    tm = (t0 + t1) / 2
    depth = min(f + tm * g for f, g in fg)
    return (True, t0, t1, depth)


_CLIP_IN_NUMPY = 24
"""Edges of a convex piece past which :func:`_convex_clip_many` clips it (a circle's 128)."""


def _convex_clip_many(
    p: Point, q: Point, edges: tuple[Array, Array, Array, Array, Array]
) -> tuple[bool, float, float, float]:
    """:func:`_convex_clip` with the edges as five arrays (:attr:`_Solid.edge_columns`): the
    same operations on each edge, so the same numbers (the loop's results depend on no order:
    maxima and minima are exact). Few numpy calls, none through a Python-level wrapper: on a
    circle's 128 edges each call costs more than its arithmetic."""
    p0, p1 = p
    dx, dy = q[0] - p0, q[1] - p1
    flat = 1e-15 * math.hypot(dx, dy)
    ax, ay, ex, ey, el = edges
    f = (ex * (p1 - ay) - ey * (p0 - ax)) / el
    g = (ex * dy - ey * dx) / el
    steep = np.abs(g)
    t0 = n0 = -math.inf
    fp = f[steep <= flat]  # parallel edges (flat >= 0)
    if len(fp):
        if _any(fp < -_TOL):
            return (False, 1.0, 0.0, -1.0)
        if _any(fp < 0):
            t0 = math.inf
    cut = steep > flat  # not parallel: entering (g > 0) or leaving (g < 0)
    fc, gc = f[cut], g[cut]
    at, near_at = -fc / gc, -(fc + _TOL) / gc
    entering = gc > 0
    leaving = ~entering
    t0 = max(t0, float(_max(at, where=entering, initial=-math.inf)))
    n0 = float(_max(near_at, where=entering, initial=-math.inf))
    t1 = float(_min(at, where=leaving, initial=math.inf))
    n1 = float(_min(near_at, where=leaving, initial=math.inf))
    near = max(n0, 0.0) <= min(n1, 1.0)
    t0, t1 = max(t0, 0.0), min(t1, 1.0)
    if not near or t0 > t1:
        return (near, t0, t1, -1.0)
    tm = (t0 + t1) / 2
    depth = float(_min(f + tm * g))
    return (True, t0, t1, depth)


_any, _max, _min = np.logical_or.reduce, np.maximum.reduce, np.minimum.reduce
"""The reductions of :func:`_convex_clip_many`, called as ufunc methods (``ndarray.any`` and
``.max`` go through Python-level wrappers first)."""


def _solid_runs(p: Point, q: Point, data: _Solid) -> list[tuple[float, float]] | None:
    """Inside stretches of pq; None instead of [] when pq stays clear of the piece's closure
    (farther than the boundary tolerance)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length == 0.0:
        return []
    if data.is_convex:
        if len(data.py_edges) > _CLIP_IN_NUMPY:
            near, t0, t1, depth = _convex_clip_many(p, q, data.edge_columns)
        else:
            near, t0, t1, depth = _convex_clip(p, q, data.py_edges)
        if not near:
            return None
        if depth <= _TOL or (t1 - t0) * length <= _EPS:
            return []
        step = _TOL / length
        return [(0.0 if t0 <= step else t0, 1.0 if t1 >= 1.0 - step else t1)]
    x0, y0, x1, y1 = data.bounds
    if (
        max(p[0], q[0]) < x0 - _TOL
        or min(p[0], q[0]) > x1 + _TOL
        or max(p[1], q[1]) < y0 - _TOL
        or min(p[1], q[1]) > y1 + _TOL
    ):
        return None
    if len(data.py_edges) <= _SMALL_POLYGON:
        return _runs_small(p, q, data)
    return _runs(p, q, data)


_SMALL_POLYGON = 64
"""Pieces with at most this many edges are clipped with plain Python (faster than numpy)."""


def _runs_small(p: Point, q: Point, data: _Solid) -> list[tuple[float, float]]:
    """:func:`_runs` in plain Python: the same crossings, the same midpoint test (inside by
    the even-odd rule and deeper than the boundary tolerance)."""
    p0, p1 = p
    dx, dy = q[0] - p0, q[1] - p1
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    l2 = length * length
    near = 1e3 * _TOL
    ts = [0.0, 1.0]
    for ax, ay, ex, ey, _el in data.py_edges:
        bx, by = ax + ex, ay + ey
        sa = (ax - p0) * nx + (ay - p1) * ny
        sb = (bx - p0) * nx + (by - p1) * ny
        if -near <= sa <= near:
            ts.append(((ax - p0) * dx + (ay - p1) * dy) / l2)
        if -near <= sb <= near:
            ts.append(((bx - p0) * dx + (by - p1) * dy) / l2)
        if (sa > _TOL and sb < -_TOL) or (sa < -_TOL and sb > _TOL):
            k = sa / (sa - sb)
            ts.append(((ax + k * ex - p0) * dx + (ay + k * ey - p1) * dy) / l2)
    step = _TOL / length
    inner = sorted(t for t in ts if step < t < 1.0 - step)
    cuts = [0.0]
    for t in inner:
        if t - cuts[-1] > step:
            cuts.append(t)
    if 1.0 - cuts[-1] <= step and len(cuts) > 1:
        cuts.pop()
    cuts.append(1.0)
    runs: list[tuple[float, float]] = []
    start: float | None = None
    for i in range(len(cuts) - 1):
        tm = (cuts[i] + cuts[i + 1]) / 2
        ins = _deep_inside(p0 + tm * dx, p1 + tm * dy, data.py_edges)
        if ins and start is None:
            start = cuts[i]
        elif not ins and start is not None:
            runs.append((start, cuts[i]))
            start = None
    if start is not None:
        runs.append((start, 1.0))
    return [(a, b) for a, b in runs if (b - a) * length > _EPS]


def _deep_inside(
    x: float, y: float, edges: tuple[tuple[float, float, float, float, float], ...]
) -> bool:
    """Inside (even-odd over every ring) and farther than the boundary tolerance from it."""
    inside = False
    for ax, ay, ex, ey, el in edges:
        by = ay + ey
        if (ay > y) != (by > y) and x < ax + (y - ay) * ex / ey:
            inside = not inside
        # distance from (x, y) to the edge
        t = ((x - ax) * ex + (y - ay) * ey) / (el * el)
        t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
        if math.hypot(ax + t * ex - x, ay + t * ey - y) <= _TOL:
            return False
    return inside


def interior_length(
    p: Point, q: Point, solid: Polygon | MultiPolygon, *, prepared: Prepared | None = None
) -> float:
    """Length of the segment ``pq`` inside the open interior of ``solid``.

    Boundary cases: running along an edge, grazing a corner or touching from outside gives 0;
    stretches of at most :data:`~fwwrules.constants.LENGTH_EPSILON_MM` are dropped; a seam
    inside a merged piece (:func:`merge_touching`) is interior.

    >>> from shapely.geometry import box
    >>> interior_length((-5, 5), (15, 5), box(0, 0, 10, 10))
    10.0
    >>> interior_length((-5, 10), (15, 10), box(0, 0, 10, 10))   # along an edge
    0.0
    >>> round(interior_length((9, -0.5), (11, 1.5), box(0, 0, 10, 10)), 6)  # a corner clip
    0.707107
    """
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    data = _prep(prepared).solid(solid)
    return sum((b - a) for a, b in _solid_runs(p, q, data) or []) * length


@dataclass(frozen=True, slots=True)
class Passage:
    """How the Line of Cover ``p -> q`` meets one piece (or one base).

    ``how`` is one of:

    * ``"crossed"``: some inside stretch starts after ``p`` and ends before ``q`` (entered and
      left again: a full pass-through, ``cover.line``);
    * ``"entered"``: the stretch reaches ``q`` (the target stands on the piece);
    * ``"exited"``: the stretch starts at ``p`` (the shooter stands in it);
    * ``"inside"``: one stretch from ``p`` to ``q``;
    * ``"grazed"``: the segment touches the outline but is inside over no length above
      :data:`~fwwrules.constants.LENGTH_EPSILON_MM` (corner, edge, tangent);
    * ``"none"``: no contact.

    Precedence when a concave piece gives several stretches: crossed, inside, entered, exited.
    ``inside_length`` totals the stretches; ``points`` are the boundary points where the
    segment enters or leaves, in order along ``p -> q`` (``p`` and ``q`` themselves are never
    listed).
    """

    how: PassageHow
    inside_length: float
    points: tuple[Point, ...]

    @property
    def crossed(self) -> bool:
        return self.how == "crossed"


def _classify(runs: list[tuple[float, float]], p: Point, q: Point, touches: bool) -> Passage:
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if not runs:
        return Passage("grazed" if touches else "none", 0.0, ())
    pts: list[Point] = []
    kinds: set[PassageHow] = set()
    for a, b in runs:
        at_p, at_q = a <= 0.0, b >= 1.0
        if not at_p:
            pts.append((p[0] + a * dx, p[1] + a * dy))
        if not at_q:
            pts.append((p[0] + b * dx, p[1] + b * dy))
        kinds.add(
            "inside" if at_p and at_q else "entered" if at_q else "exited" if at_p else "crossed"
        )
    order: tuple[PassageHow, ...] = ("crossed", "inside", "entered", "exited")
    how = next(k for k in order if k in kinds)
    total = sum(b - a for a, b in runs) * length
    return Passage(how, total, tuple(pts))


_NONE = Passage("none", 0.0, ())


def passage(
    p: Point, q: Point, solid: Polygon | MultiPolygon, *, prepared: Prepared | None = None
) -> Passage:
    """How the segment ``p -> q`` meets a terrain piece (``cover.line``).

    Boundary cases: a corner touched or an edge run along is ``"grazed"``, never
    ``"crossed"``; a 0.5 mm corner clip is ``"crossed"``; a line along the seam of a merged
    piece is inside it; a concave piece passed through once and then entered again at ``q``
    is ``"crossed"`` (a full pass-through exists).

    >>> from shapely.geometry import box
    >>> passage((-5, 5), (15, 5), box(0, 0, 10, 10))
    Passage(how='crossed', inside_length=10.0, points=((0.0, 5.0), (10.0, 5.0)))
    >>> passage((-5, 5), (5, 5), box(0, 0, 10, 10)).how     # the target stands on it
    'entered'
    >>> passage((0, 20), (20, 0), box(0, 0, 10, 10)).how    # touches a corner
    'grazed'
    """
    data = _prep(prepared).solid(solid)
    runs = _solid_runs(p, q, data)
    if runs is None:
        return _NONE
    touches = False
    if not runs:
        line = LineString([p, q]) if p != q else ShapelyPoint(p)
        touches = bool(shapely.distance(data.geom, line) <= _TOL)
    return _classify(runs, p, q, touches)


def disc_passage(p: Point, q: Point, disc: Disc) -> Passage:
    """How the segment ``p -> q`` meets a model's base (exact circle; ``cover.models``).

    Boundary cases: a tangent is ``"grazed"``; a segment ending on the circle from outside has
    ``"entered"`` nothing (``"grazed"``); ``q`` at the centre is ``"entered"``.

    >>> disc_passage((-50, 0), (50, 0), Disc(0, 0, 16)).how
    'crossed'
    >>> disc_passage((-50, 16), (50, 16), Disc(0, 0, 16)).how
    'grazed'
    >>> disc_passage((-50, 0), (0, 0), Disc(0, 0, 16)).how
    'entered'
    """
    if point_segment_distance((disc.x, disc.y), p, q) > disc.r + _TOL:
        return _NONE
    t0, t1, length = _chord(p, q, disc)
    dx, dy = q[0] - p[0], q[1] - p[1]
    total = math.hypot(dx, dy)
    runs: list[tuple[float, float]] = []
    if length > _EPS:
        step = _TOL / total
        a = 0.0 if t0 <= step else t0
        b = 1.0 if t1 >= 1.0 - step else t1
        runs.append((a, b))
    touches = False
    if not runs:
        touches = point_segment_distance((disc.x, disc.y), p, q) <= disc.r + _TOL
    return _classify(runs, p, q, touches)


def point_segment_distance(c: Point, p: Point, q: Point) -> float:
    """Distance from point ``c`` to the segment ``p -> q`` (exact)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    l2 = dx * dx + dy * dy
    t = 0.0 if l2 == 0 else max(0.0, min(1.0, ((c[0] - p[0]) * dx + (c[1] - p[1]) * dy) / l2))
    return math.hypot(p[0] + t * dx - c[0], p[1] + t * dy - c[1])


# ---------------------------------------------------------------------------------------------
# Small helpers for the rules modules
# ---------------------------------------------------------------------------------------------


def merge_touching(
    pieces: Sequence[tuple[str, Polygon]],
) -> list[tuple[tuple[str, ...], Polygon | MultiPolygon]]:
    """Group pieces whose closures meet (transitively) and unite each group.

    The geometry conventions: pieces of one kind that touch or overlap act as one piece, so a
    line along the seam between two crates is inside cover. Pieces closer than
    :data:`~fwwrules.constants.LENGTH_EPSILON_MM` count as touching (rotated pieces placed
    edge to edge differ by rounding); a merged group is closed by that distance, so the seam
    leaves no crack. Each pair that meets without sharing area is closed on its own (grown
    and shrunk by epsilon), and the group is the union of its pieces and those pairs: pieces
    that overlap have no seam to close. A piece alone is returned as the very object given.
    Groups come in the order of their first member; member ids keep the input order.

    >>> from shapely.geometry import box
    >>> [(ids, round(g.area, 6)) for ids, g in merge_touching(
    ...     [("a", box(0, 0, 1, 1)), ("b", box(5, 5, 6, 6)), ("c", box(1, 0, 2, 1))])]
    [(('a', 'c'), 2.0), (('b',), 1.0)]
    """
    n = len(pieces)
    if n == 0:
        return []
    geoms = [g for _, g in pieces]
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    tree = STRtree(geoms)
    left, right = tree.query(geoms, predicate="dwithin", distance=_EPS)
    for i, j in zip(left.tolist(), right.tolist(), strict=True):
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    # Pairs that meet without sharing area (touching along an edge or at a corner, or within
    # epsilon): their seam or crack is closed by the closing of that pair alone. Pairs that
    # overlap need nothing: their union has no seam. Closing each such pair instead of the
    # whole group keeps the cost with the pair (a group of hundreds of overlapping pieces
    # would otherwise be buffered twice as one polygon of tens of thousands of corners).
    pairs = [(i, j) for i, j in zip(left.tolist(), right.tolist(), strict=True) if i < j]
    bridges: dict[int, list[BaseGeometry]] = {}
    if pairs:
        pi = np.asarray([i for i, _ in pairs])
        pj = np.asarray([j for _, j in pairs])
        g = np.asarray(geoms, dtype=object)
        shared = shapely.area(shapely.intersection(g[pi], g[pj]))
        for k in np.flatnonzero(shared <= 0.0).tolist():
            i, j = pairs[k]
            pair = shapely.union(geoms[i], geoms[j])
            closed_pair = _closing(pair)
            bridges.setdefault(find(i), []).append(closed_pair)
    out: list[tuple[tuple[str, ...], Polygon | MultiPolygon]] = []
    for members in sorted(groups.values(), key=lambda m: m[0]):
        ids = tuple(pieces[i][0] for i in members)
        if len(members) == 1:
            out.append((ids, geoms[members[0]]))
            continue
        union = shapely.union_all([geoms[i] for i in members] + bridges.get(find(members[0]), []))
        out.append((ids, union))
    return out


def _closing(geom: BaseGeometry) -> BaseGeometry:
    """``geom`` grown and shrunk by epsilon (mitred): cracks and seams narrower than twice
    epsilon are filled, nothing else changes by more than rounding."""
    closed = shapely.buffer(
        shapely.buffer(geom, _EPS, join_style="mitre", mitre_limit=10.0),
        -_EPS,
        join_style="mitre",
        mitre_limit=10.0,
    )
    return closed if not closed.is_empty else geom


def segment_edge_crossing(
    p: Point, q: Point, edge: LineString, *, prepared: Prepared | None = None
) -> Point | None:
    """The point where ``pq`` properly crosses a straight ``edge``, else None.

    Proper means from one side to the other through both relative interiors: touching,
    ending on the edge, passing through its endpoint or running along it gives None. A
    polyline edge is taken piece by piece (the first crossing along ``pq`` is returned).

    >>> segment_edge_crossing((0, -1), (0, 1), LineString([(-1, 0), (1, 0)]))
    (0.0, 0.0)
    >>> segment_edge_crossing((0, 0), (0, 1), LineString([(-1, 0), (1, 0)])) is None
    True
    >>> segment_edge_crossing((1, -1), (1, 1), LineString([(-1, 0), (1, 0)])) is None
    True
    """
    pieces = _prep(prepared).wall(edge).pieces
    if len(pieces) == 0:
        return None
    pa = np.asarray([p], dtype=float)
    qa = np.asarray([q], dtype=float)
    best: tuple[float, Point] | None = None
    for piece in pieces:
        w = _Wall(edge, piece[None, :], np.zeros((0, 2)))
        if not _walls_block([w], pa, qa)[0]:
            continue
        ax, ay, bx, by = (float(v) for v in piece)
        ex, ey = bx - ax, by - ay
        dx, dy = q[0] - p[0], q[1] - p[1]
        den = dx * ey - dy * ex
        t = ((ax - p[0]) * ey - (ay - p[1]) * ex) / den
        pt = (p[0] + t * dx, p[1] + t * dy)
        if best is None or t < best[0]:
            best = (t, pt)
    return None if best is None else best[1]


def distance_to_disc(geom: BaseGeometry, disc: Disc) -> float:
    """Edge distance from a shapely geometry to a base: 0 when touching, negative when it
    reaches into the base (``-r`` when it covers the centre).

    >>> from shapely.geometry import box
    >>> distance_to_disc(box(20, -5, 30, 5), Disc(0, 0, 16))
    4.0
    """
    return float(shapely.distance(geom, ShapelyPoint(disc.x, disc.y))) - disc.r


# ---------------------------------------------------------------------------------------------
# Exact line of sight between two discs
# ---------------------------------------------------------------------------------------------


_UNIT16 = np.column_stack(
    [np.cos(np.arange(16) * (2 * math.pi / 16)), np.sin(np.arange(16) * (2 * math.pi / 16))]
) / math.cos(math.pi / 16)


def _outer_polygon(x: float, y: float, r: float) -> Array:
    """Vertices of a regular 16-gon circumscribed about the circle (it contains the disc)."""
    return np.asarray(_UNIT16 * (r + 1e3 * _TOL) + np.asarray([x, y]), dtype=float)


def _hull(discs: Sequence[Disc]) -> BaseGeometry:
    pts = np.vstack([_outer_polygon(d.x, d.y, d.r) for d in discs])
    hull = shapely.convex_hull(shapely.multipoints(pts))
    shapely.prepare(hull)
    return hull


def _restrict(obs: _Obstacles, region: BaseGeometry) -> _Obstacles:
    """Only the obstacles meeting ``region`` can touch a segment inside it."""
    keep = shapely.intersects(obs.geoms, region) if len(obs.geoms) else np.zeros(0, dtype=bool)
    walls = [bool(shapely.intersects(w.geom, region)) for w in obs.walls]
    near = np.zeros(len(obs.discs), dtype=bool)
    if len(obs.discs):
        pts = shapely.points(obs.discs[:, 0], obs.discs[:, 1])
        near = shapely.distance(region, pts) < obs.discs[:, 2]
    return obs.subset(keep, walls, near)


def _restrict_to_corridor(obs: _Obstacles, cor: _Corridor) -> _Obstacles:
    """Only the obstacles meeting the hull of the two discs (the quadrilateral or a disc)."""
    keep = np.zeros(0, dtype=bool)
    if len(obs.geoms):
        keep = shapely.intersects(obs.geoms, cor.quad) | shapely.dwithin(
            obs.geoms[:, None], cor.centres[None, :], cor.radii[None, :]
        ).any(axis=1)
    walls = [
        bool(shapely.intersects(w.geom, cor.quad))
        or bool(shapely.dwithin(w.geom, cor.centres, cor.radii).any())
        for w in obs.walls
    ]
    near = np.zeros(len(obs.discs), dtype=bool)
    if len(obs.discs):
        pts = shapely.points(obs.discs[:, 0], obs.discs[:, 1])
        near = shapely.distance(cor.quad, pts) < obs.discs[:, 2]
        cen = shapely.get_coordinates(cor.centres)
        for k in range(2):
            near |= (
                np.hypot(obs.discs[:, 0] - cen[k, 0], obs.discs[:, 1] - cen[k, 1])
                < obs.discs[:, 2] + cor.radii[k]
            )
    return obs.subset(keep, walls, near)


def _clear_one(p: Point, q: Point, obs: _Obstacles) -> bool:
    """``segment_clear`` for one segment, with scalar maths (the hot path)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy)
    if length <= _EPS:
        return True
    for cx, cy, r in obs.discs.tolist():
        rx, ry = cx - p[0], cy - p[1]
        dist = abs(dx * ry - dy * rx) / length
        if r - dist > _TOL:
            tc = (rx * dx + ry * dy) / length
            half = math.sqrt(r * r - dist * dist)
            if min(tc + half, length) - max(tc - half, 0.0) > _EPS:
                return False
    if obs.walls and _walls_block(obs.walls, np.asarray([p]), np.asarray([q]))[0]:
        return False
    if len(obs.cores):
        line = shapely.linestrings([p, q])  # LineString([p, q]), without its Python-level checks
        hits = np.flatnonzero(shapely.intersects(obs.cores, line))
        for i in hits.tolist():
            s = obs.solids[i]
            if not s.deep.is_empty and shapely.intersects(s.deep, line):
                return False
            if shapely.length(shapely.intersection(line, s.core)) > _EPS:
                return False
    return True


@dataclass(frozen=True, slots=True, eq=False)
class _Corridor:
    """The convex hull of two disjoint discs: the quadrilateral of the outer tangent points
    plus the two discs. Its long sides are the outer tangent segments."""

    quad: BaseGeometry
    sides: NDArray[Any]  # (2,) LineStrings
    centres: NDArray[Any]  # (2,) Points: a's and b's centres
    radii: Array  # (2,)
    ends: Array  # (2, 2, 2): side k, [point on a, point on b]


def _corridor(a: Disc, b: Disc) -> _Corridor:
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    # outer tangents: n . (a - b) = a.r - b.r, so n = R(+-delta) applied to (a - b) / dist
    phi = math.atan2(-dy, -dx)
    delta = math.acos(max(-1.0, min(1.0, (a.r - b.r) / dist)))
    ends = np.empty((2, 2, 2))
    for k, sg in enumerate((1.0, -1.0)):
        nx, ny = math.cos(phi + sg * delta), math.sin(phi + sg * delta)
        # tangent points: each centre moved by its radius against the normal
        ends[k, 0] = (a.x - a.r * nx, a.y - a.r * ny)
        ends[k, 1] = (b.x - b.r * nx, b.y - b.r * ny)
    quad = shapely.polygons(ends[[0, 0, 1, 1, 0], [0, 1, 1, 0, 0]])
    sides = shapely.linestrings(ends)
    centres = shapely.points([[a.x, a.y], [b.x, b.y]])
    return _Corridor(quad, sides, centres, np.asarray([a.r, b.r]), ends)


def _cut_by_one(obs: _Obstacles, cor: _Corridor, a: Disc, b: Disc) -> bool:
    """Quick exact "no": one obstacle, kept away from both bases, spans the corridor.

    A connected set inside the hull that meets both long sides and neither disc separates the
    two discs (their ends of the hull lie on opposite sides of it). Pieces are eroded by
    ``_DEEP_MM``, so every segment that meets the set is blocked over a length above epsilon.
    A piece's part inside the quadrilateral is checked for a component touching both sides
    (one convex piece: always connected).
    """
    if len(obs.deeps):
        deeps = obs.deeps[:, None]
        cand = shapely.intersects(deeps, cor.sides[None, :]).all(axis=1) & ~(
            shapely.dwithin(deeps, cor.centres[None, :], cor.radii[None, :]).any(axis=1)
        )
        for i in np.flatnonzero(cand).tolist():
            s = obs.solids[i]
            if s.is_convex:
                return True
            # the overlay puts the part's edges on the sides only up to rounding: allow
            # LENGTH_EPSILON_MM, which keeps every point within it deeper than 9 * epsilon
            part = shapely.intersection(s.deep, cor.quad)
            for g in getattr(part, "geoms", [part]):
                if shapely.dwithin(g, cor.sides, _EPS).all():
                    return True
    for cx, cy, r in obs.discs.tolist():
        deep = r - _DEEP_MM
        if deep <= 0:
            continue
        if math.hypot(cx - a.x, cy - a.y) <= deep + a.r or math.hypot(cx - b.x, cy - b.y) <= (
            deep + b.r
        ):
            continue
        e = cor.ends
        if (
            point_segment_distance((cx, cy), tuple(e[0, 0]), tuple(e[0, 1])) < deep
            and point_segment_distance((cx, cy), tuple(e[1, 0]), tuple(e[1, 1])) < deep
        ):
            return True
    return False


class _Lines:
    """Candidate lines ``n . x = c`` (unit normal ``n``), with up to two feature points each
    that must lie on the tested segment (NaN where a line has none) and, for polygon corners,
    the index of the corner (-1 otherwise) for the supporting-line test."""

    def __init__(self) -> None:
        self.n: list[Array] = []
        self.c: list[Array] = []
        self.f: list[Array] = []  # (K, 2, 2) feature points
        self.w: list[NDArray[np.int64]] = []  # (K, 2) corner index or -1

    def add(
        self,
        n: Array,
        c: Array,
        f: Array | None = None,
        w: NDArray[np.int64] | None = None,
    ) -> None:
        k = len(c)
        if k == 0:
            return
        self.n.append(n)
        self.c.append(c)
        self.f.append(np.full((k, 2, 2), np.nan) if f is None else f)
        self.w.append(np.full((k, 2), -1, dtype=np.int64) if w is None else w)

    def arrays(self) -> tuple[Array, Array, Array, NDArray[np.int64]]:
        if not self.c:
            return (np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2, 2)), np.zeros((0, 2), int))
        return (
            np.vstack(self.n),
            np.concatenate(self.c),
            np.concatenate(self.f),
            np.vstack(self.w),
        )


def _tangents_point_disc(v: Array, m: Array, r: Array) -> tuple[Array, Array]:
    """Both tangents from points v (P, 2) to circles (m, r) (D): normals (P, D, 2, 2), c."""
    dvec = m[None, :, :] - v[:, None, :]
    dist = np.hypot(dvec[..., 0], dvec[..., 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = r[None, :] / dist
    ok = dist >= r[None, :] - _TOL
    ratio = np.clip(np.where(ok, ratio, np.nan), -1.0, 1.0)
    phi = np.arctan2(dvec[..., 1], dvec[..., 0])
    delta = np.arccos(ratio)
    ns = []
    cs = []
    for sgn in (1.0, -1.0):
        ang = phi + sgn * delta
        n = np.stack([np.cos(ang), np.sin(ang)], axis=-1)
        ns.append(n)
        cs.append(n[..., 0] * v[:, None, 0] + n[..., 1] * v[:, None, 1])
    return np.stack(ns, axis=2), np.stack(cs, axis=2)


def _tangents_disc_disc(m1: Array, r1: float, m2: Array, r2: float) -> tuple[Array, Array]:
    """The (up to) four common tangents of two circles: normals (k, 2), offsets (k,)."""
    d = m1 - m2
    dist = math.hypot(d[0], d[1])
    out_n, out_c = [], []
    if dist <= 0:
        return np.zeros((0, 2)), np.zeros(0)
    phi = math.atan2(d[1], d[0])
    for s2 in (1.0, -1.0):
        k = r1 - s2 * r2  # n . (m1 - m2) = r1 - s2 r2 with n . m1 - c = r1
        ratio = k / dist
        if abs(ratio) > 1.0 + 1e-12:
            continue
        delta = math.acos(max(-1.0, min(1.0, ratio)))
        for sg in (1.0, -1.0):
            ang = phi + sg * delta
            n = (math.cos(ang), math.sin(ang))
            out_n.append(n)
            out_c.append(n[0] * m1[0] + n[1] * m1[1] - r1)
    return np.asarray(out_n, dtype=float).reshape(-1, 2), np.asarray(out_c, dtype=float)


def _circle_edge_points(edges: Array, x: float, y: float, r: float) -> Array:
    """Points where the circle (x, y, r) meets the edges (E, 4)."""
    if len(edges) == 0 or r <= 0:
        return np.zeros((0, 2))
    ax, ay = edges[:, 0] - x, edges[:, 1] - y
    ex, ey = edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1]
    qa = ex * ex + ey * ey
    qb = 2 * (ax * ex + ay * ey)
    qc = ax * ax + ay * ay - r * r
    disc = qb * qb - 4 * qa * qc
    ok = (disc >= 0) & (qa > 0)
    root = np.sqrt(np.where(ok, disc, 0.0))
    out = []
    for sgn in (1.0, -1.0):
        with np.errstate(invalid="ignore", divide="ignore"):
            s = (-qb + sgn * root) / (2 * qa)
        good = ok & (s >= 0) & (s <= 1)
        out.append(
            np.column_stack(
                [edges[good, 0] + s[good] * ex[good], edges[good, 1] + s[good] * ey[good]]
            )
        )
    return np.vstack(out)


def _circle_circle_points(x1: float, y1: float, r1: float, discs: Array) -> Array:
    out = []
    for x2, y2, r2 in discs:
        d = math.hypot(x2 - x1, y2 - y1)
        if d == 0 or d > r1 + r2 or d < abs(r1 - r2):
            continue
        a = (r1 * r1 - r2 * r2 + d * d) / (2 * d)
        h = math.sqrt(max(r1 * r1 - a * a, 0.0))
        mx, my = x1 + a * (x2 - x1) / d, y1 + a * (y2 - y1) / d
        out.append((mx + h * (y2 - y1) / d, my - h * (x2 - x1) / d))
        out.append((mx - h * (y2 - y1) / d, my + h * (x2 - x1) / d))
    return np.asarray(out, dtype=float).reshape(-1, 2)


class _DiscTarget:
    """The far end is a disc: on each line, the stretch from the end of a's chord to the start
    of b's chord."""

    def __init__(self, a: Disc, b: Disc) -> None:
        self.a, self.b = a, b
        self.discs = [b]

    @cached_property
    def hull(self) -> BaseGeometry:
        return _hull([self.a, self.b])

    @cached_property
    def outline(self) -> BaseGeometry:
        return shapely.Polygon(_outer_polygon(self.b.x, self.b.y, self.b.r))

    def extra_points(self, obs: _Obstacles, edges: Array) -> list[Array]:
        b = self.b
        return [
            _circle_edge_points(edges, b.x, b.y, b.r),
            _circle_circle_points(b.x, b.y, b.r, obs.discs),
        ]

    def segments(self, n: Array, c: Array) -> tuple[Array, Array, Array, Array, BoolArray, Any]:
        """p, q (K, 2); direction u from a to b; parameters (K, 2) of p and q along u (a point
        is c n + t u); which lines meet both discs; the source line of each segment."""
        a, b = self.a, self.b
        u = np.column_stack([-n[:, 1], n[:, 0]])
        da = n[:, 0] * a.x + n[:, 1] * a.y - c
        db = n[:, 0] * b.x + n[:, 1] * b.y - c
        ok = (np.abs(da) <= a.r + _TOL) & (np.abs(db) <= b.r + _TOL)
        ha = np.sqrt(np.maximum(a.r * a.r - da * da, 0.0))
        hb = np.sqrt(np.maximum(b.r * b.r - db * db, 0.0))
        ta = u[:, 0] * a.x + u[:, 1] * a.y
        tb = u[:, 0] * b.x + u[:, 1] * b.y
        flip = ta > tb
        u[flip] = -u[flip]
        ta = np.where(flip, -ta, ta)
        tb = np.where(flip, -tb, tb)
        t0 = ta + ha
        t1 = tb - hb
        mid = (t0 + t1) / 2
        bad = t0 > t1
        t0 = np.where(bad, mid, t0)
        t1 = np.where(bad, mid, t1)
        base = n * c[:, None]
        p = base + t0[:, None] * u
        q = base + t1[:, None] * u
        return p, q, u, np.column_stack([t0, t1]), ok, np.arange(len(c))


class _PolygonTarget:
    """The far end is a terrain piece: on each line, the stretch from a's chord to the first
    point of the piece, in both directions along the line."""

    def __init__(self, a: Disc, target: BaseGeometry, prep: Prepared) -> None:
        self.a = a
        self.discs: list[Disc] = []
        data = prep.solid(target)
        self.edges = data.edges
        self.verts = np.vstack([r for r in [data.verts]]) if len(data.verts) else np.zeros((0, 2))
        pts = np.vstack([_outer_polygon(a.x, a.y, a.r), shapely.get_coordinates(target)])
        self.hull = shapely.convex_hull(shapely.multipoints(pts))
        shapely.prepare(self.hull)
        self.outline = target
        self.target = target

    def extra_points(self, obs: _Obstacles, edges: Array) -> list[Array]:
        out = [self.verts]
        rim = shapely.boundary(self.target)
        for s in obs.solids:
            out.append(shapely.get_coordinates(shapely.intersection(rim, shapely.boundary(s.geom))))
        for w in obs.walls:
            out.append(shapely.get_coordinates(shapely.intersection(rim, w.geom)))
        for x, y, r in obs.discs:
            out.append(_circle_edge_points(self.edges, x, y, r))
        return out

    def segments(self, n: Array, c: Array) -> tuple[Array, Array, Array, Array, BoolArray, Any]:
        a = self.a
        k = len(c)
        u = np.column_stack([-n[:, 1], n[:, 0]])
        da = n[:, 0] * a.x + n[:, 1] * a.y - c
        ok_a = np.abs(da) <= a.r + _TOL
        ha = np.sqrt(np.maximum(a.r * a.r - da * da, 0.0))
        ta = u[:, 0] * a.x + u[:, 1] * a.y
        e = self.edges
        sa = n @ e[:, :2].T - c[:, None]  # (K, E) signed distances of the edge ends
        sb = n @ e[:, 2:].T - c[:, None]
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.clip(sa / (sa - sb), 0.0, 1.0)
        s = np.where(np.abs(sa) <= _TOL, 0.0, np.where(np.abs(sb) <= _TOL, 1.0, s))
        hit = (sa * sb <= 0) | (np.abs(sa) <= _TOL) | (np.abs(sb) <= _TOL)
        px = e[None, :, 0] + s * (e[None, :, 2] - e[None, :, 0])
        py = e[None, :, 1] + s * (e[None, :, 3] - e[None, :, 1])
        t = px * u[:, 0:1] + py * u[:, 1:2]
        hi = (ta + ha)[:, None]
        lo = (ta - ha)[:, None]
        fwd = np.where(hit & (t >= hi), t, np.inf).min(axis=1)
        bwd = np.where(hit & (t <= lo), t, -np.inf).max(axis=1)
        base = n * c[:, None]
        t_hi, t_lo = (ta + ha), (ta - ha)
        # forward: from a's chord end to the first hit; backward: reversed direction
        p1 = base + t_hi[:, None] * u
        q1 = base + np.where(np.isfinite(fwd), fwd, t_hi)[:, None] * u
        p2 = base + t_lo[:, None] * u
        q2 = base + np.where(np.isfinite(bwd), bwd, t_lo)[:, None] * u
        tt1 = np.column_stack([t_hi, np.where(np.isfinite(fwd), fwd, t_hi)])
        tt2 = np.column_stack([-t_lo, -np.where(np.isfinite(bwd), bwd, t_lo)])
        ok1 = ok_a & np.isfinite(fwd)
        ok2 = ok_a & np.isfinite(bwd)
        src = np.concatenate([np.arange(k), np.arange(k)])
        return (
            np.vstack([p1, p2]),
            np.vstack([q1, q2]),
            np.vstack([u, -u]),
            np.vstack([tt1, tt2]),
            np.concatenate([ok1, ok2]),
            src,
        )


_Target: TypeAlias = _DiscTarget | _PolygonTarget


def _filter_lines(
    lines: _Lines, target: _Target, corners: tuple[Array, Array, Array]
) -> tuple[Array, Array]:
    """Segments of the candidate lines that can be extremal, in candidate order.

    A line through a feature point is kept only when the point lies on its segment; a line
    through a convex corner strictly inside its segment must not point into the corner (it
    would enter the piece there).
    """
    n, c, f, w = lines.arrays()
    if len(c) == 0:
        return np.zeros((0, 2)), np.zeros((0, 2))
    good = np.isfinite(c) & np.all(np.isfinite(n), axis=1)
    n, c, f, w = n[good], c[good], f[good], w[good]
    p, q, u, tt, ok, src = target.segments(n, c)
    f, w = f[src], w[src]
    verts, w_in, w_out = corners
    for j in (0, 1):
        fp = f[:, j, :]
        has = np.isfinite(fp[:, 0])
        tv = u[:, 0] * fp[:, 0] + u[:, 1] * fp[:, 1]
        on = (tv >= tt[:, 0] - 1e3 * _TOL) & (tv <= tt[:, 1] + 1e3 * _TOL)
        ok &= ~has | on
        wi = w[:, j]
        corner = wi >= 0
        if corner.any() and len(verts):
            idx = np.where(corner, wi, 0)
            win, wout = w_in[idx], w_out[idx]
            strictly = (tv > tt[:, 0] + _EPS) & (tv < tt[:, 1] - _EPS)
            enters = _into(win, wout, u) | _into(win, wout, -u)
            ok &= ~(corner & strictly & enters)
    return p[ok], q[ok]


def _into(w_in: Array, w_out: Array, d: Array) -> BoolArray:
    """Whether direction d points strictly into the interior wedge of a convex corner."""
    c1 = w_out[:, 0] * d[:, 1] - w_out[:, 1] * d[:, 0]
    c2 = w_in[:, 0] * d[:, 1] - w_in[:, 1] * d[:, 0]
    return np.asarray((c1 > _WEDGE_SLACK) & (c2 > _WEDGE_SLACK), dtype=bool)


def _separated(obs: _Obstacles, hull: BaseGeometry, a: Disc, far: BaseGeometry) -> bool:
    """Quick exact "no": the blockers cut the hull so that no path joins ``a`` and ``far``.

    Uses pieces eroded by ``_DEEP_MM`` and Huge bases shrunk likewise (inscribed polygons):
    the free space is only made larger, so "separated" is a proof (:func:`separated`). Walls
    are left out (they cannot separate in this test).
    """
    parts: list[BaseGeometry] = [s.deep for s in obs.solids if not s.deep.is_empty]
    for x, y, r in obs.discs:
        if r > 2 * _DEEP_MM:
            parts.append(ShapelyPoint(x, y).buffer(r - _DEEP_MM, quad_segs=8))
    if not parts:
        return False
    pa = shapely.Polygon(_outer_polygon(a.x, a.y, a.r))
    hulls = np.asarray([hull], dtype=object)
    return bool(separated(hulls, shapely.union_all(parts), pa, np.asarray([far], dtype=object))[0])


def separated(
    hulls: NDArray[np.object_], wall: BaseGeometry, a_end: BaseGeometry, b_ends: NDArray[np.object_]
) -> BoolArray:
    """For each hull (a convex region holding every segment between ``a_end`` and its
    ``b_end``): whether the hull less ``wall`` leaves no free region joining the two ends.
    Then every segment between them inside the hull meets ``wall`` (the proof that a line of
    sight is blocked, when ``wall`` lies inside the blockers).

    Boundary case: free regions that touch at a single point (a pinch between two pieces)
    join, so a pinch never makes "separated" true.
    """
    m = len(hulls)
    free = shapely.difference(hulls, wall)
    pieces, owner = shapely.get_parts(free, return_index=True)
    keep = ~shapely.is_empty(pieces)
    pieces, owner = pieces[keep], owner[keep]
    meets_a = shapely.intersects(pieces, a_end)
    meets_b = shapely.intersects(pieces, b_ends[owner])
    joined = np.zeros(m, dtype=bool)
    np.logical_or.at(joined, owner, meets_a & meets_b)
    some_a = np.zeros(m, dtype=bool)
    some_b = np.zeros(m, dtype=bool)
    np.logical_or.at(some_a, owner, meets_a)
    np.logical_or.at(some_b, owner, meets_b)
    for k in np.flatnonzero(~joined & some_a & some_b).tolist():
        mine = owner == k
        joined[k] = _joined_through_pinches(list(pieces[mine]), meets_a[mine], meets_b[mine])
    return ~joined


def _joined_through_pinches(
    comps: list[BaseGeometry], from_a: BoolArray, from_b: BoolArray
) -> bool:
    """Flood fill over regions that touch (at a point or more) from those meeting one end."""
    reached = from_a.copy()
    frontier = [int(i) for i in np.flatnonzero(reached)]
    tree = STRtree(comps)
    while frontier:
        i = frontier.pop()
        for j in tree.query(comps[i], predicate="intersects"):
            if not reached[j]:
                reached[j] = True
                frontier.append(int(j))
    return bool((reached & from_b).any())


def _first_clear(obs: _Obstacles, p: Array, q: Array) -> int:
    """Index of the first clear segment, testing in growing batches; -1 when none."""
    start = 0
    size = 16
    while start < len(p):
        stop = min(start + size, len(p))
        clear = _clear_many(obs, p[start:stop], q[start:stop])
        hits = np.flatnonzero(clear)
        if len(hits):
            return start + int(hits[0])
        start = stop
        size *= 4
    return -1


def _as_segment(p: Array, q: Array) -> Segment:
    return ((float(p[0]), float(p[1])), (float(q[0]), float(q[1])))


def find_clear_segment(
    a: Disc, b: Disc, obstacles: Sequence[Obstacle], *, prepared: Prepared | None = None
) -> Segment | None:
    """``ranged.los``: a straight segment from a point of disc ``a`` to a point of disc ``b``
    (both closed) that crosses no obstacle, or None when there is none. Decided exactly.

    The centre-to-centre segment is returned when it is clear; otherwise some clear segment.
    ``obstacles`` may be pre-filtered (e.g. with an STRtree): only those meeting the convex hull
    of ``a`` and ``b`` matter. A disc of radius 0 is a point target.

    Boundary cases:

    * a segment that grazes a corner, runs along an edge, is tangent to a Huge base or touches
      a wall is clear, so a gap between two walls that only touch at a corner lets LoS through,
      and a sub-millimetre oblique gap is found;
    * two staggered walls with no straight gap block, whatever gaps a sampled search hopes for;
    * bases that touch or overlap always see each other: a zero-length segment at the contact
      point crosses nothing (it has no length inside anything);
    * obstacles may overlap ``a`` or ``b`` (the segment may start anywhere in the disc) and
      may have holes; with no obstacles the centre segment is returned.

    >>> from shapely.geometry import box
    >>> find_clear_segment(Disc(0, 0, 10), Disc(100, 0, 10), [])
    ((0.0, 0.0), (100.0, 0.0))
    >>> find_clear_segment(Disc(0, 0, 10), Disc(100, 0, 10), [box(40, -50, 60, 50)]) is None
    True
    >>> seg = find_clear_segment(Disc(0, 0, 10), Disc(100, 0, 10), [box(40, -50, 60, 5)])
    >>> seg is not None and min(seg[0][1], seg[1][1]) >= 5
    True
    """
    ca: Point = (float(a.x), float(a.y))
    cb: Point = (float(b.x), float(b.y))
    obs = _split(obstacles, _prep(prepared))
    if obs.empty or _clear_one(ca, cb, obs):
        return (ca, cb)
    dist = math.hypot(b.x - a.x, b.y - a.y)
    if dist <= a.r + b.r:
        # touching or overlapping: a point of both discs (inside the lens, on the centre line)
        if dist == 0:
            return (ca, ca)
        s = min(max((a.r + (dist - b.r)) / 2 / dist, 0.0), 1.0)
        x = (a.x + s * (b.x - a.x), a.y + s * (b.y - a.y))
        return (x, x)
    cor = _corridor(a, b)
    # 1. quick exact "no": one blocker spans the corridor between the bases
    if _cut_by_one(obs, cor, a, b):
        return None
    obs = _restrict_to_corridor(obs, cor)
    if obs.empty:
        return (ca, cb)
    # 2. cheap candidates: the centre line's gap, the four common tangents of a and b
    target = _DiscTarget(a, b)
    ma, mb = np.asarray(ca), np.asarray(cb)
    lines = _Lines()
    nrm = np.asarray([[a.y - b.y, b.x - a.x]]) / dist
    lines.add(nrm, nrm @ ma)
    tn, tc = _tangents_disc_disc(ma, a.r, mb, b.r)
    lines.add(tn, tc)
    p, q = _filter_lines(lines, target, _NO_CORNERS)
    i = _first_clear(obs, p, q)
    if i >= 0:
        return _as_segment(p[i], q[i])
    # 3. quick exact "no": the blockers together cut the hull
    if _separated(obs, target.hull, a, target.outline):
        return None
    # 4. every extremal line
    return _search(obs, a, target)


_NO_CORNERS = (np.zeros((0, 2)), np.zeros((0, 2)), np.zeros((0, 2)))


def inner_point(target: Polygon | MultiPolygon) -> Point:
    """A point inside ``target`` that moves with it: its centroid when that lies inside;
    else the middle of the first stretch inside the piece along the ray from the centroid
    towards its nearest points (the mean of them when several are equally near, as for a
    symmetric L-shaped piece). All of it is defined by the shape alone, so translating,
    rotating or scaling the board moves the point with it (shapely's
    ``representative_point`` depends on the coordinate axes).

    >>> from shapely.geometry import Polygon
    >>> inner_point(Polygon([(0, 0), (4, 0), (4, 2), (0, 2)]))
    (2.0, 1.0)
    >>> inner_point(Polygon([(0, 0), (10, 0), (10, 1), (1, 1), (1, 10), (0, 10)]))
    (0.5, 0.5)
    """
    c = target.centroid
    cx, cy = float(c.x), float(c.y)
    if target.contains(c):
        return (cx, cy)
    # the nearest points of every edge, and those (nearly) as near as the nearest
    rings = [g.exterior for g in _polygons(target)] + [
        r for g in _polygons(target) for r in g.interiors
    ]
    e = np.vstack(
        [np.hstack([xy[:-1], xy[1:]]) for xy in (shapely.get_coordinates(r) for r in rings)]
    )
    dx, dy = e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]
    length2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(((cx - e[:, 0]) * dx + (cy - e[:, 1]) * dy) / length2, 0.0, 1.0)
    t = np.where(length2 > 0, t, 0.0)
    fx, fy = e[:, 0] + t * dx, e[:, 1] + t * dy
    dist = np.hypot(fx - cx, fy - cy)
    near = dist <= dist.min() * (1.0 + 1e-9) + _TOL
    # one point per distinct foot (an edge's end is the next edge's start)
    feet = np.unique(np.round(np.column_stack([fx[near], fy[near]]), 9), axis=0)
    ux, uy = float(feet[:, 0].mean()) - cx, float(feet[:, 1].mean()) - cy
    d = math.hypot(ux, uy)
    if d > 0:
        x0, y0, x1, y1 = target.bounds
        reach = 2.0 * math.hypot(x1 - x0, y1 - y0) + 2.0 * d
        ray = LineString([(cx, cy), (cx + ux / d * reach, cy + uy / d * reach)])
        inside = shapely.intersection(ray, target)
        parts = [g for g in getattr(inside, "geoms", [inside]) if g.geom_type == "LineString"]
        parts = [g for g in parts if g.length > 0]
        if parts:
            first = min(parts, key=lambda g: g.distance(c))
            mid = first.interpolate(0.5, normalized=True)
            return (float(mid.x), float(mid.y))
    rep = target.representative_point()  # pragma: no cover - the feet balance out exactly
    return (float(rep.x), float(rep.y))


def find_clear_segment_to_polygon(
    a: Disc,
    target: Polygon | MultiPolygon,
    obstacles: Sequence[Obstacle],
    *,
    prepared: Prepared | None = None,
) -> Segment | None:
    """``ranged.los`` at a terrain piece: a clear segment from disc ``a`` to any point of
    ``target`` (closed), or None. Decided exactly like :func:`find_clear_segment`, with the
    target's corners and the points where obstacle outlines meet it as extra features.

    Boundary cases: a base touching or overlapping the target sees it (a zero-length
    segment); the target should not be among the obstacles (it never hides itself).

    >>> from shapely.geometry import box
    >>> find_clear_segment_to_polygon(Disc(0, 0, 10), box(90, -5, 100, 5), [])
    ((0.0, 0.0), (90.0, 0.0))
    >>> find_clear_segment_to_polygon(
    ...     Disc(0, 0, 10), box(90, -5, 100, 5), [box(40, -50, 60, 50)]) is None
    True
    """
    ca: Point = (float(a.x), float(a.y))
    centre = ShapelyPoint(ca)
    near = shapely.ops.nearest_points(target, centre)[0]
    nb: Point = (float(near.x), float(near.y))
    if math.hypot(nb[0] - ca[0], nb[1] - ca[1]) <= a.r:
        return (nb, nb)  # the base reaches the piece
    prep = _prep(prepared)
    obs = _split(obstacles, prep)
    if obs.empty or _clear_one(ca, nb, obs):
        return (ca, nb)
    tgt = _PolygonTarget(a, target, prep)
    obs = _restrict(obs, tgt.hull)
    if obs.empty:
        return (ca, nb)
    rep = inner_point(target)
    lines = _Lines()
    for x, y in ((nb[0], nb[1]), rep):
        d = math.hypot(x - ca[0], y - ca[1])
        if d > 0:
            nrm = np.asarray([[ca[1] - y, x - ca[0]]]) / d
            lines.add(nrm, nrm @ np.asarray(ca))
    p, q = _filter_lines(lines, tgt, _NO_CORNERS)
    i = _first_clear(obs, p, q)
    if i >= 0:
        return _as_segment(p[i], q[i])
    if _separated(obs, tgt.hull, a, target):
        return None
    return _search(obs, a, tgt)


def _features(
    obs: _Obstacles, hull: BaseGeometry, a: Disc, target: _Target
) -> tuple[Array, NDArray[np.int64], Array, Array, Array]:
    """Point features in the hull: convex corners (with their index into the corner arrays),
    wall vertices, and points where an obstacle outline meets a's circle or the target."""
    verts = np.vstack([s.verts[s.convex] for s in obs.solids] or [np.zeros((0, 2))])
    w_in = np.vstack([s.w_in[s.convex] for s in obs.solids] or [np.zeros((0, 2))])
    w_out = np.vstack([s.w_out[s.convex] for s in obs.solids] or [np.zeros((0, 2))])
    if len(verts):
        inside = shapely.intersects(hull, shapely.points(verts))
        verts, w_in, w_out = verts[inside], w_in[inside], w_out[inside]
    edges = np.vstack(
        [np.zeros((0, 4))] + [s.edges for s in obs.solids] + [w.pieces for w in obs.walls]
    )
    free: list[Array] = [w.verts for w in obs.walls]
    free.append(_circle_edge_points(edges, a.x, a.y, a.r))
    free.append(_circle_circle_points(a.x, a.y, a.r, obs.discs))
    free.extend(target.extra_points(obs, edges))
    extra = np.vstack([f.reshape(-1, 2) for f in free])
    if len(extra):
        extra = extra[shapely.intersects(hull, shapely.points(extra))]
    pts = np.vstack([verts, extra])
    widx = np.concatenate(
        [np.arange(len(verts), dtype=np.int64), np.full(len(extra), -1, dtype=np.int64)]
    )
    return pts, widx, verts, w_in, w_out


_LINES_PER_BATCH = 1 << 15
"""Most candidate lines built at once in the exhaustive LoS search: the search walks the
feature pairs in this many at a time, so its memory stays flat however many features the
obstacles have (the full set of pairs grows with their square)."""


def _search(obs: _Obstacles, a: Disc, target: _Target) -> Segment | None:
    """Test every line through two features (see the module docstring), cheapest first.

    The candidates are generated and tested in batches of :data:`_LINES_PER_BATCH`, in the
    same order as one big batch would be (so the witness is the same), stopping at the
    first clear one.
    """
    pts, widx, verts, w_in, w_out = _features(obs, target.hull, a, target)
    corners = (verts, w_in, w_out)
    discs = [a, *target.discs] + [Disc(float(x), float(y), float(r)) for x, y, r in obs.discs]
    cm = np.asarray([[d.x, d.y] for d in discs], dtype=float)
    cr = np.asarray([d.r for d in discs], dtype=float)
    for lines in _candidate_batches(pts, widx, cm, cr, len(target.discs)):
        p, q = _filter_lines(lines, target, corners)
        k = _first_clear(obs, p, q)
        if k >= 0:
            return _as_segment(p[k], q[k])
    return None


def _candidate_batches(
    pts: Array, widx: NDArray[np.int64], cm: Array, cr: Array, n_target: int
) -> Iterator[_Lines]:
    """The candidate lines of :func:`_search`, stage by stage, in bounded batches."""
    npts, nd = len(pts), len(cm)
    # 1. a feature point and a tangent to a disc (a and b first: lines hugging a corner)
    step = max(1, _LINES_PER_BATCH // max(1, 4 * nd))
    for start in range(0, npts, step):
        chunk = pts[start : start + step]
        wchunk = widx[start : start + step]
        tn, tc = _tangents_point_disc(chunk, cm, cr)  # (P, D, 2, 2), (P, D, 2)
        m = len(chunk)
        f = np.full((nd, m, 2, 2, 2), np.nan)
        f[:, :, :, 0, :] = chunk[None, :, None, :]
        wi = np.full((nd, m, 2, 2), -1, dtype=np.int64)
        wi[:, :, :, 0] = wchunk[None, :, None]
        tn = np.transpose(tn, (1, 0, 2, 3))
        tc = np.transpose(tc, (1, 0, 2))
        lines = _Lines()
        lines.add(tn.reshape(-1, 2), tc.reshape(-1), f.reshape(-1, 2, 2), wi.reshape(-1, 2))
        yield lines
    # 2. common tangents of two discs, one of them a Huge base
    lines = _Lines()
    count = 0
    for i in range(nd):
        for j in range(max(i + 1, 1 + n_target), nd):
            tn2, tc2 = _tangents_disc_disc(cm[i], float(cr[i]), cm[j], float(cr[j]))
            lines.add(tn2, tc2)
            count += len(tc2)
            if count >= _LINES_PER_BATCH:
                yield lines
                lines, count = _Lines(), 0
    yield lines
    # 3. two feature points, row by row of the upper triangle
    row = 0
    while row < npts - 1:
        stop = row + 1
        size = npts - row - 1
        while stop < npts - 1 and size + (npts - stop - 1) <= _LINES_PER_BATCH:
            size += npts - stop - 1
            stop += 1
        ii = np.concatenate([np.full(npts - r - 1, r) for r in range(row, stop)])
        jj = np.concatenate([np.arange(r + 1, npts) for r in range(row, stop)])
        d = pts[jj] - pts[ii]
        ln = np.hypot(d[:, 0], d[:, 1])
        keep = ln > 0
        ii, jj, d, ln = ii[keep], jj[keep], d[keep], ln[keep]
        nn = np.column_stack([-d[:, 1], d[:, 0]]) / ln[:, None]
        cc = nn[:, 0] * pts[ii, 0] + nn[:, 1] * pts[ii, 1]
        lines = _Lines()
        lines.add(
            nn, cc, np.stack([pts[ii], pts[jj]], axis=1), np.column_stack([widx[ii], widx[jj]])
        )
        yield lines
        row = stop
