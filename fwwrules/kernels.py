"""Vector segment kernels: many segments (or one centre and many positions) against convex
polygons and circles at once, with numpy.

The threat map asks the same geometric questions as a single ruling for thousands of target
positions: does the segment from a shooter's centre to each position meet this convex part,
does this line between two bases clear every part, where do lines tangent to two circles run.
These kernels answer them over whole arrays; the rules' exact scalar forms stay in
:mod:`fwwrules.geometry`. Polygons are convex and given as counter-clockwise vertex arrays
(``(n, 2)``); nothing here knows a scenario.

Boundary cases
--------------
* The segment tests are closed: touching a polygon's outline counts as meeting it (callers
  that need a sure answer test grown or eroded polygons, see :mod:`fwwrules.convex`).
* A segment of length 0 is a point.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

_SLACK = 1e-9
"""How much a candidate lookup widens its angles (radians) and distances (mm) so that rounding
never drops a position it must return: the lookups give supersets (each candidate is then
decided exactly), so a wider net costs a few more exact tests, never a different answer."""

Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IndexArray = NDArray[np.int64]


def seg_hits(ax: Array, ay: Array, bx: Array, by: Array, v: Array) -> BoolArray:
    """Whether each segment ``a -> b`` meets the closed convex polygon ``v`` (ccw vertices):
    separating-axis test on the polygon's edge normals and the segment's normal."""
    w = np.concatenate((v[1:], v[:1]))  # each vertex's next one (``np.roll``, faster)
    ex = w[:, 0] - v[:, 0]
    ey = w[:, 1] - v[:, 1]
    nx, ny = ey, -ex
    h = nx * v[:, 0] + ny * v[:, 1]
    pa = np.outer(ax, nx) + np.outer(ay, ny)
    pb = np.outer(bx, nx) + np.outer(by, ny)
    sep = ((pa > h) & (pb > h)).any(axis=1)
    dx, dy = bx - ax, by - ay
    cr = dx[:, None] * (v[None, :, 1] - ay[:, None]) - dy[:, None] * (v[None, :, 0] - ax[:, None])
    sep |= (cr > 0).all(axis=1) | (cr < 0).all(axis=1)
    return np.asarray(~sep)


@dataclass(slots=True, eq=False)
class _View:
    """A convex polygon ``v`` as seen from a fan's centre (whatever its positions): whether
    the centre lies in it, its angular span ``lo``-``hi`` and nearest distance, the angular
    offsets ``d`` of its vertices from the first (``None`` when the centre lies inside), and
    its shadow once built."""

    v: Array
    lo: float
    hi: float
    near: float
    d: Array | None
    shadow: BaseGeometry | None = None
    shadow_made: bool = False


class Fan:
    """Positions sorted by angle around a shooter's centre, for quick angular filtering.

    :meth:`subset` gives the fan of some of the positions, sharing what depends on the
    centre and the polygons only (their views and shadows), so that a question about a few
    positions costs what those positions cost; each position's answer is the same in either
    fan."""

    def __init__(self, cx: float, cy: float, px: Array, py: Array) -> None:
        self._setup(cx, cy, px, py, np.arctan2(py - cy, px - cx), np.hypot(px - cx, py - cy))
        self.far = float(self.dist.max()) if len(px) else 0.0
        """The distance of the farthest position: how far the shadows reach."""
        self._views: dict[int, _View] = {}

    def _setup(self, cx: float, cy: float, px: Array, py: Array, ang: Array, dist: Array) -> None:
        self.cx, self.cy = cx, cy
        self.px, self.py = px, py
        self.ang, self.dist = ang, dist
        self.order = np.argsort(self.ang, kind="stable")
        self.sorted = self.ang[self.order]
        self._sectors: dict[int, tuple[Array, IndexArray]] = {}

    def subset(self, idx: IndexArray) -> Fan:
        """The fan of the positions ``idx`` (indices of the subset's positions: ``0 ..
        len(idx) - 1``), sharing this fan's views, shadows and reach."""
        sub = Fan.__new__(Fan)
        sub._setup(self.cx, self.cy, self.px[idx], self.py[idx], self.ang[idx], self.dist[idx])
        sub.far, sub._views = self.far, self._views
        return sub

    def near_disc(self, x: float, y: float, r: float) -> IndexArray:
        """Indices of the positions ``p`` whose segment ``c -> p`` may come within ``r`` of the
        point ``(x, y)`` (a superset): those within the angle the circle spans from the centre
        and no nearer than the circle. Every position when the centre lies within ``r``."""
        d = math.hypot(x - self.cx, y - self.cy)
        if d <= r:
            return np.arange(len(self.px))
        half = math.asin(r / d) + _SLACK
        mid = math.atan2(y - self.cy, x - self.cx)
        idx = self._between(mid - half, mid + half)
        return idx[self.dist[idx] >= d - r - _SLACK]

    def _view(self, v: Array) -> _View:
        """``v`` as seen from the centre (kept per polygon for the fan's life, and its
        subsets': line of sight and cover ask about the same parts)."""
        found = self._views.get(id(v))
        if found is not None and found.v is v:
            return found
        rel = v - (self.cx, self.cy)
        inside, near = _inside_and_distance(v, self.cx, self.cy)
        if inside:
            view = _View(v, -math.inf, math.inf, -math.inf, None)
        else:
            a = np.arctan2(rel[:, 1], rel[:, 0])
            d = (a - a[0] + math.pi) % (2 * math.pi) - math.pi
            lo, hi = a[0] + d.min() - _SLACK, a[0] + d.max() + _SLACK
            view = _View(v, float(lo), float(hi), near - _SLACK, d)
        self._views[id(v)] = view
        return view

    def _sector(self, v: Array) -> tuple[IndexArray, _View]:
        """The candidate positions (within the angle ``v`` spans from the centre and no
        nearer than it; every position when the centre lies inside ``v``), and ``v``'s
        view. Kept per polygon for the fan's life."""
        view = self._view(v)
        found = self._sectors.get(id(v))
        if found is not None and found[0] is v:
            return found[1], view
        if view.d is None:
            idx = np.arange(len(self.px))
        else:
            idx = self._between(view.lo, view.hi)
            idx = idx[self.dist[idx] >= view.near]
        self._sectors[id(v)] = (v, idx)
        return idx, view

    def _shadow(self, view: _View) -> BaseGeometry | None:
        """``v`` and everything behind it as seen from the centre, as far as any position of
        the whole fan, when it is well defined (the part spans less than half a turn)."""
        if view.shadow_made or view.d is None:
            return view.shadow
        view.shadow_made = True
        v, d = view.v, view.d
        half = (d.max() - d.min()) / 2 + _SLACK
        if math.cos(half) <= 0.05:
            return None
        c = np.array([self.cx, self.cy])
        rel = v - c
        far = (self.far + 10.0) / math.cos(half) * 1.5
        ends = []
        for k in (int(np.argmin(d)), int(np.argmax(d))):
            r = rel[k] / np.hypot(rel[k, 0], rel[k, 1])
            ends.append(c + r * far)
        shadow = shapely.convex_hull(shapely.multipoints(np.vstack([v, *ends])))
        shapely.prepare(shadow)
        view.shadow = shadow
        return shadow

    def _between(self, lo: float, hi: float) -> IndexArray:
        two = 2 * math.pi
        if lo < -math.pi:
            parts = [(lo + two, math.pi), (-math.pi, hi)]
        elif hi > math.pi:
            parts = [(lo, math.pi), (-math.pi, hi - two)]
        else:
            parts = [(lo, hi)]
        found = []
        for a, b in parts:
            i0 = int(np.searchsorted(self.sorted, a, side="left"))
            i1 = int(np.searchsorted(self.sorted, b, side="right"))
            found.append(self.order[i0:i1])
        return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)

    def hits(self, v: Array, among: BoolArray) -> BoolArray:
        """Which positions (among ``among``) have a centre segment meeting polygon ``v``."""
        out = np.zeros(len(self.px), dtype=bool)
        if not among.any():
            return out
        idx, view = self._sector(v)
        idx = idx[among[idx]]
        if not len(idx):
            return out
        # few candidates: the segment test itself; many: one shadow polygon for all of them
        shadow = self._shadow(view) if len(idx) > _SHADOW_FROM else None
        if shadow is not None:
            # a point of the (closed) shadow is one whose centre segment meets v; rounding
            # in the shadow's far corners is far below the margin v was grown or eroded by
            out[idx] = shapely.intersects_xy(shadow, self.px[idx], self.py[idx])
        else:
            c = np.full(len(idx), self.cx), np.full(len(idx), self.cy)
            out[idx] = seg_hits(c[0], c[1], self.px[idx], self.py[idx], v)
        return out


_SHADOW_FROM = 256
"""From this many candidate positions on, :meth:`Fan.hits` tests them against one shadow
polygon rather than segment by segment."""


def _inside_and_distance(v: Array, x: float, y: float) -> tuple[bool, float]:
    """Whether ``(x, y)`` lies in the convex polygon ``v`` (counter-clockwise; outline
    included), and its distance to the outline."""
    ax, ay = v[:, 0], v[:, 1]
    bx = np.concatenate((ax[1:], ax[:1]))
    by = np.concatenate((ay[1:], ay[:1]))
    dx, dy = bx - ax, by - ay
    inside = bool((dx * (y - ay) - dy * (x - ax) >= 0).all())
    l2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.clip(np.where(l2 > 0, ((x - ax) * dx + (y - ay) * dy) / l2, 0.0), 0.0, 1.0)
    return inside, float(np.hypot(ax + t * dx - x, ay + t * dy - y).min())


def segment_point_distance(
    cx: float, cy: float, bx: Array, by: Array, fx: Array | float, fy: Array | float
) -> Array:
    """Distance from points ``f`` to the segments ``c -> b`` (broadcasting)."""
    dx, dy = bx - cx, by - cy
    l2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(l2 > 0, ((fx - cx) * dx + (fy - cy) * dy) / l2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.asarray(np.hypot(cx + t * dx - fx, cy + t * dy - fy))


def arcs_union(centres: Array, halfs: Array) -> list[tuple[float, float]]:
    """The union of closed arcs (centre, half-width) as intervals within [-pi, pi]."""
    iv: list[tuple[float, float]] = []
    for c, h in zip(centres.tolist(), halfs.tolist(), strict=True):
        if h < 0:
            continue
        if h >= math.pi:
            return [(-math.pi, math.pi)]
        a, b = c - h, c + h
        for s in (-2 * math.pi, 0.0, 2 * math.pi):
            lo, hi = max(a + s, -math.pi), min(b + s, math.pi)
            if lo <= hi:
                iv.append((lo, hi))
    iv.sort()
    merged: list[tuple[float, float]] = []
    for a, b in iv:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def arc_gaps(covered: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The open intervals of [-pi, pi) not covered (joined across the wrap)."""
    gaps: list[tuple[float, float]] = []
    at = -math.pi
    for a, b in covered:
        if a > at:
            gaps.append((at, a))
        at = max(at, b)
    if at < math.pi:
        gaps.append((at, math.pi))
    if len(gaps) >= 2 and gaps[0][0] <= -math.pi and gaps[-1][1] >= math.pi:
        first = gaps.pop(0)
        last = gaps.pop()
        gaps.append((last[0], first[1] + 2 * math.pi))
    return gaps


@dataclass(frozen=True, slots=True, eq=False)
class ConvexSet:
    """Convex polygons as edge arrays: unit outward normals ``(nx, ny)`` and offsets ``h``
    (inside: ``n . x <= h``), one row per polygon padded with ``h = inf``, and boxes."""

    nx: Array
    ny: Array
    h: Array
    box: Array  # (K, 4): x0, y0, x1, y1
    rows: tuple[tuple[Array, Array, Array], ...]
    """Each polygon's ``(nx, ny, h)`` without the padding (what :func:`clip` reads)."""


def convex_set(polys: Sequence[Array]) -> ConvexSet:
    k = len(polys)
    e = max((len(v) for v in polys), default=1)
    nx, ny = np.zeros((k, e)), np.zeros((k, e))
    h = np.full((k, e), np.inf)
    box = np.zeros((k, 4))
    for i, v in enumerate(polys):
        w = np.concatenate((v[1:], v[:1]))  # each vertex's next one (``np.roll``, faster)
        ex = w[:, 0] - v[:, 0]
        ey = w[:, 1] - v[:, 1]
        ln = np.hypot(ex, ey)
        ok = ln > 0
        ux, uy = ey[ok] / ln[ok], -ex[ok] / ln[ok]
        m = int(ok.sum())
        nx[i, :m], ny[i, :m] = ux, uy
        h[i, :m] = ux * v[ok, 0] + uy * v[ok, 1]
        box[i] = (v[:, 0].min(), v[:, 1].min(), v[:, 0].max(), v[:, 1].max())
    live = np.isfinite(h)
    rows = tuple((nx[i][live[i]], ny[i][live[i]], h[i][live[i]]) for i in range(k))
    return ConvexSet(nx, ny, h, box, rows)


def clip(
    cv: ConvexSet,
    k: int,
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    t0: Array,
    t1: Array,
    grow: float,
) -> tuple[Array, Array]:
    """The stretch ``[lo, hi]`` of each segment ``o + t d`` (``t0 <= t <= t1``, ``d`` a unit
    vector) inside polygon ``k`` grown by ``grow`` (shrunk when negative); empty: lo > hi."""
    nx, ny, h = cv.rows[k]
    h = h + grow
    num = h[None, :] - (ox[:, None] * nx[None, :] + oy[:, None] * ny[None, :])
    den = dx[:, None] * nx[None, :] + dy[:, None] * ny[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / den
    lo = np.maximum(t0, r.max(axis=1, initial=-np.inf, where=den < 0))
    hi = np.minimum(t1, r.min(axis=1, initial=np.inf, where=den > 0))
    zero = den == 0
    if zero.any():  # parallel to an edge: outside when beyond it
        lo = np.where((zero & (num < 0)).any(axis=1), np.inf, lo)
    return lo, hi


def any_hit(
    cv: ConvexSet,
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    t0: Array,
    t1: Array,
    *,
    grow: float,
    strict: bool,
) -> BoolArray:
    """Whether each segment meets some polygon of ``cv`` grown by ``grow``: through its
    interior over some length (``strict``) or at all (closed)."""
    n = len(ox)
    hit = np.zeros(n, dtype=bool)
    ax, bx = ox + t0 * dx, ox + t1 * dx
    ay, by = oy + t0 * dy, oy + t1 * dy
    sx0, sx1 = np.minimum(ax, bx), np.maximum(ax, bx)
    sy0, sy1 = np.minimum(ay, by), np.maximum(ay, by)
    pad = abs(grow) + 1.0
    for k in range(len(cv.box)):
        x0, y0, x1, y1 = cv.box[k]
        sel = np.flatnonzero(
            ~hit & (sx1 >= x0 - pad) & (sx0 <= x1 + pad) & (sy1 >= y0 - pad) & (sy0 <= y1 + pad)
        )
        if not len(sel):
            continue
        lo, hi = clip(cv, k, ox[sel], oy[sel], dx[sel], dy[sel], t0[sel], t1[sel], grow)
        hit[sel] = lo < hi if strict else lo <= hi
    return hit


def stretch(
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    ax: float,
    ay: float,
    ra: float,
    bx: Array,
    by: Array,
    rb: float,
    slack: float,
) -> tuple[Array, Array, Array, Array, Array, BoolArray]:
    """For lines ``o + t d``: the stretch between the two discs (from where the line leaves
    disc a to where it enters disc b, ``d`` turned to point from a to b), and whether the
    line meets both discs (their radii grown by ``slack``, negative: shrunk)."""
    ta = (ax - ox) * dx + (ay - oy) * dy
    tb = (bx - ox) * dx + (by - oy) * dy
    flip = tb < ta
    dx, dy = np.where(flip, -dx, dx), np.where(flip, -dy, dy)
    ta, tb = np.where(flip, -ta, ta), np.where(flip, -tb, tb)
    qa = (ax - ox) ** 2 + (ay - oy) ** 2 - ta * ta
    qb = (bx - ox) ** 2 + (by - oy) ** 2 - tb * tb
    ga = (ra + slack) ** 2 - qa
    gb = (rb + slack) ** 2 - qb
    ok = (ga >= 0) & (gb >= 0)
    ha = np.sqrt(np.maximum(ra * ra - qa, 0.0))
    hb = np.sqrt(np.maximum(rb * rb - qb, 0.0))
    return ox, oy, dx, dy, np.column_stack((ta + ha, tb - hb)), ok


def tangent_lines(
    fx: Array, fy: Array, cx: Array, cy: Array, r: float
) -> tuple[Array, Array, Array, Array, BoolArray]:
    """The two lines through point ``f`` tangent to the circle ``(c, r)`` (where ``f`` lies
    outside it): origin, unit direction, and which exist."""
    vx, vy = fx - cx, fy - cy
    d = np.hypot(vx, vy)
    ok = d > r
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = np.arccos(np.clip(r / d, -1.0, 1.0))
    phi = np.arctan2(vy, vx)
    out = []
    for sgn in (1.0, -1.0):
        tx = cx + r * np.cos(phi + sgn * alpha)
        ty = cy + r * np.sin(phi + sgn * alpha)
        ux, uy = tx - fx, ty - fy
        ln = np.hypot(ux, uy)
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append((fx, fy, ux / ln, uy / ln, ok & (ln > 0)))
    (o1x, o1y, d1x, d1y, k1), (o2x, o2y, d2x, d2y, k2) = out
    return (
        np.concatenate((o1x, o2x)),
        np.concatenate((o1y, o2y)),
        np.concatenate((d1x, d2x)),
        np.concatenate((d1y, d2y)),
        np.concatenate((k1, k2)),
    )


def common_tangents(
    ax: float, ay: float, ra: float, bx: Array, by: Array, rb: float
) -> tuple[Array, Array, Array, Array, BoolArray]:
    """The (up to) four lines tangent to both circles, per second circle."""
    dxv, dyv = bx - ax, by - ay
    ln = np.hypot(dxv, dyv)
    psi = np.arctan2(dyv, dxv)
    ox, oy, ux, uy, oks = [], [], [], [], []
    for s1, s2 in ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)):
        w = s2 * rb - s1 * ra
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = w / ln
        ok = np.abs(ratio) <= 1.0
        theta = psi + np.arccos(np.clip(ratio, -1.0, 1.0))
        nx, ny = np.cos(theta), np.sin(theta)
        # n . b - k = s2 rb and n . a - k = s1 ra; a point of the line: a - s1 ra n
        ox.append(ax - s1 * ra * nx)
        oy.append(ay - s1 * ra * ny)
        ux.append(-ny)
        uy.append(nx)
        oks.append(ok)
    return (
        np.concatenate(ox),
        np.concatenate(oy),
        np.concatenate(ux),
        np.concatenate(uy),
        np.concatenate(oks),
    )


def edge_circle_points(
    cv_polys: Sequence[Array], cx: Array, cy: Array, r: float
) -> tuple[IndexArray, Array, Array]:
    """Where the polygons' edges meet circles ``(c_m, r)``: (circle index, x, y)."""
    if not cv_polys:
        return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
    e = np.vstack([np.hstack((v, np.roll(v, -1, axis=0))) for v in cv_polys])
    x0, y0, x1, y1 = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
    ex, ey = x1 - x0, y1 - y0
    a = ex * ex + ey * ey
    fx = x0[None, :] - cx[:, None]
    fy = y0[None, :] - cy[:, None]
    b = 2 * (fx * ex[None, :] + fy * ey[None, :])
    c = fx * fx + fy * fy - r * r
    disc = b * b - 4 * a[None, :] * c
    ms, xs, ys = [], [], []
    root = np.sqrt(np.maximum(disc, 0.0))
    for sgn in (-1.0, 1.0):
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (-b + sgn * root) / (2 * a[None, :])
        ok = (disc >= 0) & (t >= 0) & (t <= 1) & (a[None, :] > 0)
        m, k = np.nonzero(ok)
        ms.append(m)
        xs.append(x0[k] + t[m, k] * ex[k])
        ys.append(y0[k] + t[m, k] * ey[k])
    return np.concatenate(ms), np.concatenate(xs), np.concatenate(ys)
