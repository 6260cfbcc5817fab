"""Exact geometry on the grid: which squares and walls a segment between grid points passes,
distances the Pathfinder way, and line of effect (``grid.total``).

All arithmetic is on integers and :class:`fractions.Fraction`, never floats. The boundary
cases are listed in :mod:`fwwrules.grid`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..constants import MAX_GRID_EFFECT_LINES
from ..errors import QueryError
from .model import Creature, GridScenario
from .vocabulary import (
    ARROW_SLIT,
    BORDER_WALL,
    CREATURE,
    OPEN,
    SOLID,
    WALL,
    Corner,
    IgnoredBy,
    ObstructionKind,
    Point,
    Square,
)


def frac(p: tuple[Any, Any]) -> Point:
    return (Fraction(p[0]), Fraction(p[1]))


def _is_int(v: Fraction) -> bool:
    return v.denominator == 1


def squares_crossed(p: tuple[Any, Any], q: tuple[Any, Any]) -> tuple[Square, ...]:
    """The squares whose open interior the closed segment ``p``-``q`` meets, from ``p`` on.

    Exact (rational arithmetic). A segment along a grid line meets no interior; one through a
    grid point does not meet the squares that only touch that point.

    >>> squares_crossed((0, 0), (0, 3))
    ()
    >>> squares_crossed((1, 1), (0, 3))
    ((0, 1), (0, 2))
    >>> squares_crossed((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    ((0, 0),)
    """
    if all(type(v) is int for v in (*p, *q)):
        return _squares_crossed_int(p[0], p[1], q[0], q[1])
    a, b = frac(p), frac(q)
    if all(_is_int(v) for v in (*a, *b)):
        return _squares_crossed_int(a[0].numerator, a[1].numerator, b[0].numerator, b[1].numerator)
    (px, py), (qx, qy) = a, b
    if px == qx:
        if _is_int(px):
            return ()
        c = math.floor(px)
        lo, hi = sorted((py, qy))
        if lo == hi:
            return () if _is_int(lo) else ((c, math.floor(lo)),)
        out = [(c, r) for r in range(math.floor(lo), math.ceil(hi))]
        return tuple(out if py <= qy else reversed(out))
    flip = px > qx
    if flip:
        (px, py), (qx, qy) = b, a
    slope = (qy - py) / (qx - px)
    result: list[Square] = []
    for c in range(math.floor(px), math.ceil(qx)):
        xa, xb = max(px, Fraction(c)), min(qx, Fraction(c + 1))
        if xa >= xb:
            continue
        ya, yb = py + (xa - px) * slope, py + (xb - px) * slope
        if ya == yb:
            if not _is_int(ya):
                result.append((c, math.floor(ya)))
            continue
        lo, hi = min(ya, yb), max(ya, yb)
        col = [(c, r) for r in range(math.floor(lo), math.ceil(hi))]
        result.extend(col if ya < yb else reversed(col))
    return tuple(reversed(result) if flip else result)


def _squares_crossed_int(px: int, py: int, qx: int, qy: int) -> tuple[Square, ...]:
    """:func:`squares_crossed` for integer ends, in integer arithmetic: the segment meets
    column ``c`` between the heights ``(py * dx + (c - px) * dy) / dx`` at its two sides."""
    if px == qx or py == qy:
        return ()  # along a grid line
    flip = px > qx
    if flip:
        px, py, qx, qy = qx, qy, px, py
    dx, dy = qx - px, qy - py
    result: list[Square] = []
    for c in range(px, qx):
        ya = py * dx + (c - px) * dy  # heights times dx
        yb = ya + dy
        lo, hi = (ya, yb) if ya < yb else (yb, ya)
        rows = range(lo // dx, -(-hi // dx))
        result.extend((c, r) for r in (rows if ya < yb else reversed(rows)))
    return tuple(reversed(result) if flip else result)


def _seams(p: Point, q: Point) -> list[tuple[Square, Square]]:
    """Pairs of squares on either side of the unit edges that ``p``-``q`` runs along."""
    (px, py), (qx, qy) = p, q
    out: list[tuple[Square, Square]] = []
    if px == qx and _is_int(px) and py != qy:
        x = int(px)
        lo, hi = sorted((py, qy))
        for r in range(math.floor(lo), math.ceil(hi)):
            out.append(((x - 1, r), (x, r)))
    elif py == qy and _is_int(py) and px != qx:
        y = int(py)
        lo, hi = sorted((px, qx))
        for c in range(math.floor(lo), math.ceil(hi)):
            out.append(((c, y - 1), (c, y)))
    return out


Num = int | Fraction
Vec = tuple[Num, Num]
"""A direction: integers where they suffice (the flood fill's are), else Fractions. The arc
tests below only compare signs, so a direction may be scaled by any positive number."""


def _cross(a: Vec, b: Vec) -> Num:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Vec, b: Vec) -> Num:
    return a[0] * b[0] + a[1] * b[1]


def _half(ref: Vec, v: Vec) -> int:
    c, d = _cross(ref, v), _dot(ref, v)
    return 0 if c > 0 or (c == 0 and d > 0) else 1


def _in_open_arc(start: Vec, end: Vec, ray: Vec) -> bool:
    """True when ``ray`` lies strictly inside the arc turning from ``start`` to ``end`` in the
    positive sense (rays parallel to ``start`` or ``end`` are outside)."""
    if _cross(start, ray) == 0 and _dot(start, ray) > 0:
        return False
    if _cross(end, ray) == 0 and _dot(end, ray) > 0:
        return False
    hr, he = _half(start, ray), _half(start, end)
    if hr != he:
        return hr < he
    return _cross(ray, end) > 0


def _in_cone(a: Vec, d: Vec, ray: Vec) -> bool:
    """True when ``ray`` lies strictly inside the convex cone between ``a`` and ``d`` (an angle
    below 180 degrees; parallel or opposite ``a`` and ``d`` span no cone)."""
    turn = _cross(a, d)
    if turn > 0:
        return _cross(a, ray) > 0 and _cross(ray, d) > 0
    if turn < 0:
        return _cross(a, ray) < 0 and _cross(ray, d) < 0
    return False


def _separated(before: Vec, after: Vec, rays: Iterable[Vec]) -> bool:
    """Wall material on both sides of a path that arrives along ``before`` and leaves along
    ``after`` (both pointing away from the point): the path is sealed there."""
    rays = list(rays)
    one = any(_in_open_arc(before, after, r) for r in rays)
    other = any(_in_open_arc(after, before, r) for r in rays)
    return one and other


_UNIT = (Fraction(1), Fraction(0))


@dataclass(frozen=True, slots=True)
class Obstruction:
    """Something a line passes: ``kind`` is one of :data:`VERDICTS`.

    ``square`` for square terrain and creatures, ``point`` where a line is sealed by border
    walls (or squeezes between wall squares, or meets a border wall's end, ``nudged``),
    ``creature`` the id for soft cover. ``counted``
    is False for a low obstacle the ``grid.low-obstacle`` rule discards (``ignored_by`` says
    which test: ``far`` or ``attacker-closer``) and for an arrow slit the target is not behind
    (``grid.improved``, ``not-behind``).
    """

    kind: ObstructionKind
    square: Square | None = None
    point: Point | None = None
    creature: str | None = None
    counted: bool = True
    ignored_by: IgnoredBy = ""
    nudged: bool = False
    """A border wall that the line only touches at ``point`` (a wall's end, or where walls meet
    beside it) and crosses once its ends are nudged into their squares (the lines-along-walls
    decision); ``False`` for a wall the line itself crosses."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.square is not None:
            out["square"] = list(self.square)
        if self.point is not None:
            out["at"] = [num(v) for v in self.point]
        if self.creature is not None:
            out["creature"] = self.creature
        out["counted"] = self.counted
        if self.nudged:
            out["nudged"] = True
        if self.ignored_by:
            clause = "grid.improved" if self.kind == ARROW_SLIT else "grid.low-obstacle"
            out["ignored_by"] = f"{clause}/{self.ignored_by}"
        return out


def num(v: Fraction) -> int | float:
    return int(v) if _is_int(v) else round(float(v), 6)


class Tracer:
    """Traces segments on one scenario, for one attacker and target (their squares never
    count)."""

    def __init__(
        self,
        scenario: GridScenario,
        own: Iterable[str],
        slit_open: Callable[[Square], bool] | None = None,
    ) -> None:
        self.s = scenario
        self.own = frozenset(own)
        self.slit_open = slit_open
        """``grid.improved``: which arrow-slit squares give no cover (the target is not behind
        them); when the caller asks for it, such a square is open ground for the line (a line
        along its seam with a wall square runs along the wall's face) and is reported as an
        uncounted ``not-behind`` obstruction."""
        self._cache: dict[tuple[Point, Point, bool, bool, bool], tuple[Obstruction, ...]] = {}
        self._corner_cache: dict[Corner, list[tuple[int, int]]] = {}

    def own_square(self, sq: Square) -> bool:
        occ = self.s.occupant(sq)
        return occ is not None and occ in self.own

    def _rays(self, x: Point) -> list[Point]:
        """Wall material at a point of the plane: border-wall rays, and for each wall square
        touching a grid point its diagonal (the bisector stands for the whole quadrant)."""
        s = self.s
        edges = s.wall_edges
        px, py = x
        integral = px.denominator == 1 and py.denominator == 1
        if integral and (px.numerator, py.numerator) not in s.material:
            return []
        rays: list[Point] = []
        one, zero = Fraction(1), Fraction(0)
        if integral:
            return [(Fraction(a), Fraction(b)) for a, b in self.corner_rays((int(px), int(py)))]
        if _is_int(px):
            r = math.floor(py)
            if ((int(px), r), (int(px), r + 1)) in edges:
                rays += [(zero, -one), (zero, one)]
        elif _is_int(py):
            c = math.floor(px)
            if ((c, int(py)), (c + 1, int(py))) in edges:
                rays += [(-one, zero), (one, zero)]
        return rays

    def corner_rays(self, pt: Corner) -> list[tuple[int, int]]:
        """:meth:`_rays` at a grid point, as integer directions (cached per point)."""
        rays = self._corner_cache.get(pt)
        if rays is not None:
            return rays
        s = self.s
        edges = s.wall_edges
        rays = []
        if pt in s.material:
            cx, cy = pt
            if ((cx, cy - 1), (cx, cy)) in edges:
                rays.append((0, -1))
            if ((cx, cy), (cx, cy + 1)) in edges:
                rays.append((0, 1))
            if ((cx - 1, cy), (cx, cy)) in edges:
                rays.append((-1, 0))
            if ((cx, cy), (cx + 1, cy)) in edges:
                rays.append((1, 0))
            for dc, dr in ((-1, -1), (0, -1), (-1, 0), (0, 0)):
                if s.kind((cx + dc, cy + dr)) == WALL:
                    rays.append((2 * dc + 1, 2 * dr + 1))
        self._corner_cache[pt] = rays
        return rays

    def _grid_points(self, p: Point, q: Point) -> list[Point]:
        """Points of the segment on grid lines where border walls or wall corners may stand,
        ends included."""
        (px, py), (qx, qy) = p, q
        dx, dy = qx - px, qy - py
        found: dict[Fraction, Point] = {}
        if dx == 0 and dy == 0:
            return [p]
        if dx != 0:
            for k in range(math.ceil(min(px, qx)), math.floor(max(px, qx)) + 1):
                t = (k - px) / dx
                found.setdefault(t, (Fraction(k), py + t * dy))
        if dy != 0:
            for k in range(math.ceil(min(py, qy)), math.floor(max(py, qy)) + 1):
                t = (k - py) / dy
                found.setdefault(t, (px + t * dx, Fraction(k)))
        found.setdefault(Fraction(0), p)
        found.setdefault(Fraction(1), q)
        return [found[t] for t in sorted(found)]

    def _wall_points(self, p: Point, q: Point) -> list[Point]:
        """For integer ends: the points of the segment where wall material may stand, in order
        from ``p`` (lattice points in :attr:`GridScenario.material`, and crossings of grid
        lines exactly where a border wall edge lies); the same verdicts as walking every
        crossing (:meth:`_grid_points`), in integer arithmetic, without visiting empty ones."""
        s = self.s
        px, py, qx, qy = (int(v) for v in (*p, *q))
        dx, dy = qx - px, qy - py
        hits: list[tuple[Fraction, Point]] = []
        g = math.gcd(dx, dy)
        if g:
            sx, sy = dx // g, dy // g
            for i in range(1, g):
                if (px + i * sx, py + i * sy) in s.material:
                    hits.append((Fraction(i, g), (Fraction(px + i * sx), Fraction(py + i * sy))))
        if dx and dy:
            edges = s.wall_edges
            for k in range(min(px, qx) + 1, max(px, qx)):  # vertical grid lines x = k
                num, den = py * dx + (k - px) * dy, dx
                if num % den and ((k, num // den), (k, num // den + 1)) in edges:
                    hits.append((Fraction(k - px, dx), (Fraction(k), Fraction(num, den))))
            for k in range(min(py, qy) + 1, max(py, qy)):  # horizontal grid lines y = k
                num, den = px * dy + (k - py) * dx, dy
                if num % den and ((num // den, k), (num // den + 1, k)) in edges:
                    hits.append((Fraction(k - py, dy), (Fraction(num, den), Fraction(k))))
        hits.sort(key=lambda h: h[0])
        return [pt for _, pt in hits]

    def trace(
        self,
        p: Point,
        q: Point,
        start_inside: Point,
        end_inside: Point,
        *,
        creatures: bool = True,
        effect_only: bool = False,
        slits: bool = False,
    ) -> tuple[Obstruction, ...]:
        """Everything the segment ``p``-``q`` passes. ``start_inside`` / ``end_inside`` are
        points inside the squares the ends belong to (their centres), which tell from which
        side the ends meet walls.

        Lines along walls (the grid geometry decision): a segment that runs along a wall (a
        border wall, or a face of a wall square) for some length is judged as lying on the
        side of the squares it joins, as if its ends sat an infinitesimal distance inside
        them (:meth:`_along_wall`, :func:`nudge`); the points it reports lie on ``p``-``q``.
        """
        if p != q and self._along_wall(p, q):
            eps = nudge_size(self.s)
            p2, q2 = nudge(p, start_inside, eps), nudge(q, end_inside, eps)
            raw = self._trace(p2, q2, start_inside, end_inside, creatures, effect_only, slits)
            return tuple(_back_on(o, p, q, p2, q2, self.s) for o in raw)
        return self._trace(p, q, start_inside, end_inside, creatures, effect_only, slits)

    def _along_wall(self, p: Point, q: Point) -> bool:
        """Whether ``p``-``q`` runs along a wall for some length: a border wall on one of the
        unit edges it lies along, or a wall square on either side of one."""
        s = self.s
        for a, b in _seams(p, q):
            if a[0] == b[0] - 1:  # squares left and right of a vertical edge
                edge = ((b[0], b[1]), (b[0], b[1] + 1))
            else:  # squares above and below a horizontal edge
                edge = ((b[0], b[1]), (b[0] + 1, b[1]))
            if edge in s.wall_edges:
                return True
            if any(s.inside(sq) and s.kind(sq) == WALL for sq in (a, b)):
                return True
        return False

    def _trace(
        self,
        p: Point,
        q: Point,
        start_inside: Point,
        end_inside: Point,
        creatures: bool,
        effect_only: bool,
        slits: bool,
    ) -> tuple[Obstruction, ...]:
        ends: list[Obstruction | None]
        into_start = (start_inside[0] - p[0], start_inside[1] - p[1])
        into_end = (end_inside[0] - q[0], end_inside[1] - q[1])
        if p == q:  # zero length: from one square's side of the shared corner to the other's
            ends = [self._end(p, into_start, into_end)]
        else:
            d = (q[0] - p[0], q[1] - p[1])
            ends = [self._end(p, into_start, d), self._end(q, into_end, (-d[0], -d[1]))]
        out = list(self._middle(p, q, creatures, effect_only, slits))
        if p != q:
            out += [ob for ob in self._nudged_middle(p, q, into_start, into_end) if ob not in out]
        for ob in ends:
            if ob is not None and ob not in out:
                out.append(ob)
        return tuple(out)

    def _nudged_middle(
        self, p: Point, q: Point, into_start: Point, into_end: Point
    ) -> list[Obstruction]:
        """Border walls that leave a grid point inside the segment toward the side the nudged
        line passes it on (the lines-along-walls decision: the ends sit an infinitesimal
        distance inside their squares, so the line is moved by ``(1 - t) * into_start + t *
        into_end`` times that distance at its point ``t``). A wall's end that the line only
        touches is crossed when the wall lies on that side: a wall along the whole border
        between two adjacent squares blocks the line along the squares' common side through
        its end. Where the nudged line still runs through the point, :meth:`_middle` judges it
        (sealed only by material on both sides)."""
        if not self.s.wall_edges:
            return []
        d = (q[0] - p[0], q[1] - p[1])
        found: list[Obstruction] = []
        for t, x in self._lattice_points(p, q):
            rays = [r for r in self._rays(x) if r[0] == 0 or r[1] == 0]
            if not rays:
                continue
            shift = (
                (1 - t) * into_start[0] + t * into_end[0],
                (1 - t) * into_start[1] + t * into_end[1],
            )
            side = _cross(d, shift)
            if side == 0:
                continue
            if any(_cross(d, r) * side > 0 for r in rays):
                found.append(Obstruction(BORDER_WALL, point=x, nudged=True))
        return found

    def _lattice_points(self, p: Point, q: Point) -> list[tuple[Fraction, Point]]:
        """The grid points strictly inside the segment ``p``-``q`` where wall material stands,
        with their parameter ``t`` (0 at ``p``, 1 at ``q``), in order."""
        (px, py), (qx, qy) = p, q
        dx, dy = qx - px, qy - py
        out: list[tuple[Fraction, Point]] = []
        if dx == 0 and dy == 0:
            return out
        if all(_is_int(v) for v in (px, py, qx, qy)):
            g = math.gcd(int(dx), int(dy))
            for i in range(1, g):
                x = (px + dx * i / g, py + dy * i / g)
                if (int(x[0]), int(x[1])) in self.s.material:
                    out.append((Fraction(i, g), x))
            return out
        for x in self._grid_points(p, q):
            if x in (p, q) or not (_is_int(x[0]) and _is_int(x[1])):
                continue
            if (int(x[0]), int(x[1])) in self.s.material:
                t = (x[0] - px) / dx if dx else (x[1] - py) / dy
                out.append((t, x))
        return out

    def _end(self, x: Point, inside: Point, along: Point) -> Obstruction | None:
        """Walls at an end ``x`` of the segment: ``inside`` points from ``x`` into the square
        the end belongs to, ``along`` along the segment (for a zero-length segment: into the
        other square).

        Sealed (wall material on both sides of the path from inside the square through ``x``
        along the segment): blocked, as at any point of a line. Otherwise the end is nudged
        into its square (the lines-along-walls decision applies to every end): the nudged line
        passes ``x`` on the side of the convex angle between ``inside`` and ``along``, so a
        border wall leaving ``x`` strictly inside that angle is crossed (a wall along the
        border of two adjacent squares blocks a line that ends on its end point, and the
        zero-length line at their shared corner). A wall square whose corner ``x`` is stays
        only touched (the PRD's figures: a line to a corner of a wall square is not blocked
        by it), as does a border wall outside that angle.
        """
        rays = self._rays(x)
        if not rays:
            return None
        sealed = self._sealed(x, inside, along, rays)
        if sealed is not None:
            return sealed
        if any(_in_cone(inside, along, r) for r in rays if r[0] == 0 or r[1] == 0):
            return Obstruction(BORDER_WALL, point=x, nudged=True)
        return None

    @staticmethod
    def _sealed(x: Point, before: Point, after: Point, rays: list[Point]) -> Obstruction | None:
        if not _separated(before, after, rays):
            return None
        borders = [r for r in rays if r[0] == 0 or r[1] == 0]
        kind: ObstructionKind = BORDER_WALL if _separated(before, after, borders) else WALL
        return Obstruction(kind, point=x)

    def _middle(
        self, p: Point, q: Point, creatures: bool, effect_only: bool, slits: bool = False
    ) -> tuple[Obstruction, ...]:
        """What the segment passes between its ends (cached: many lines share a segment)."""
        key = (p, q, creatures, effect_only, slits)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        s = self.s
        found: list[Obstruction] = []
        seen: set[tuple[str, Square | None, Point | None]] = set()

        def add(ob: Obstruction) -> None:
            k = (ob.kind, ob.square, ob.point)
            if k not in seen:
                seen.add(k)
                found.append(ob)

        slit_open = self.slit_open if slits else None

        def is_open(sq: Square) -> bool:
            return slit_open is not None and slit_open(sq)

        def seam_kind(sq: Square) -> str:
            k = s.kind(sq)
            return OPEN if k == ARROW_SLIT and is_open(sq) else k

        def square_terrain(sq: Square) -> None:
            if self.own_square(sq):
                return
            k = s.kind(sq)
            if k == ARROW_SLIT and is_open(sq):
                if not effect_only:
                    add(Obstruction(k, square=sq, counted=False, ignored_by="not-behind"))
            elif k != OPEN and (not effect_only or k == WALL):
                add(Obstruction(k, square=sq))
            occ = s.occupant(sq)
            if creatures and not effect_only and occ is not None and occ not in self.own:
                add(Obstruction(CREATURE, square=sq, creature=occ))

        integral = all(v.denominator == 1 for v in (*p, *q))
        for sq in squares_crossed(p, q):
            square_terrain(sq)
        for a, b in _seams(p, q):
            if not (s.inside(a) and s.inside(b)):
                continue
            ka, kb = seam_kind(a), seam_kind(b)
            if ka == kb or (ka in SOLID and kb in SOLID):
                square_terrain(a)
                square_terrain(b)
            elif OPEN not in (ka, kb):  # a low square beside a wall square: the low one
                square_terrain(a if ka not in SOLID else b)
            occ = s.occupant(a)
            if occ is not None and occ == s.occupant(b) and creatures and not effect_only:
                square_terrain(a)
                square_terrain(b)
        d = (q[0] - p[0], q[1] - p[1])
        back = (-d[0], -d[1])
        points = self._wall_points(p, q) if integral else self._grid_points(p, q)
        for x in points:
            if x in (p, q):
                continue
            rays = self._rays(x)
            if rays:
                ob = self._sealed(x, back, d, rays)
                if ob is not None:
                    add(ob)
        result = tuple(found)
        self._cache[key] = result
        return result


def nudge_size(scenario: GridScenario) -> Fraction:
    """The "infinitesimal" distance of the lines-along-walls decision, as an exact rational
    small enough that no smaller one changes any answer on this map: every event a nudged
    segment can meet (a grid line, a lattice point, a wall's end) lies at least ``1 / (4 n²)``
    away along it, ``n`` being the map's larger side plus 2, while a nudge moves it by less
    than ``n`` times this size."""
    n = max(scenario.width, scenario.height) + 2
    return Fraction(1, 64 * n**3)


def nudge(p: Point, inside: Point, eps: Fraction) -> Point:
    """``p`` moved the distance ``eps`` (relative to ``inside - p``) toward ``inside``."""
    return (p[0] + eps * (inside[0] - p[0]), p[1] + eps * (inside[1] - p[1]))


def _back_on(
    ob: Obstruction, p: Point, q: Point, p2: Point, q2: Point, s: GridScenario
) -> Obstruction:
    """An obstruction a nudged segment ``p2``-``q2`` reports, with its point moved back onto
    ``p``-``q`` (same place along the segment, snapped to the grid's fractions)."""
    if ob.point is None:
        return ob
    x, y = ob.point
    d2 = (q2[0] - p2[0], q2[1] - p2[1])
    t = ((x - p2[0]) * d2[0] + (y - p2[1]) * d2[1]) / (d2[0] ** 2 + d2[1] ** 2)
    bound = 4 * (max(s.width, s.height) + 2) ** 2
    pt = tuple(
        Fraction(a + t * (b - a)).limit_denominator(bound) for a, b in zip(p, q, strict=True)
    )
    return Obstruction(ob.kind, ob.square, (pt[0], pt[1]), ob.creature, ob.counted, ob.ignored_by)


def centre(sq: Square) -> Point:
    return (Fraction(2 * sq[0] + 1, 2), Fraction(2 * sq[1] + 1, 2))


def corners(sq: Square) -> tuple[Corner, ...]:
    """Corners of a square: top-left, top-right, bottom-left, bottom-right."""
    c, r = sq
    return ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1))


def pf_distance(a: Square, b: Square) -> int:
    """Squares between two squares counted the Pathfinder way (diagonals alternate 1 and 2).

    >>> pf_distance((0, 0), (1, 1)), pf_distance((0, 0), (2, 2)), pf_distance((0, 0), (6, 0))
    (1, 3, 6)
    """
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def space_distance(cr: Creature, sq: Square) -> int:
    return min(pf_distance(s, sq) for s in cr.squares)


def steps(a: Square, b: Square) -> tuple[int, int]:
    """The squares between two squares as a reader counts them on the map, and how many of
    those steps are diagonal (the 1-2-1 count of :func:`pf_distance` makes every second
    diagonal step count double).

    >>> steps((0, 0), (2, 2)), steps((0, 0), (3, 1)), pf_distance((0, 0), (2, 2))
    ((2, 2), (3, 1), 3)
    """
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy), min(dx, dy)


def space_steps(cr: Creature, sq: Square) -> tuple[int, int]:
    """:func:`steps` from the creature's square nearest to ``sq`` (the one
    :func:`space_distance` measures from)."""
    return min((pf_distance(s, sq), steps(s, sq)) for s in cr.squares)[1]


def creature_steps(a: Creature, b: Creature) -> tuple[int, int]:
    """:func:`steps` between the nearest squares of two creatures (those
    :func:`creature_distance` measures)."""
    return min((pf_distance(x, y), steps(x, y)) for x in a.squares for y in b.squares)[1]


def chebyshev(a: Creature, b: Creature) -> int:
    (a0, a1), (b0, b1) = a.box, b.box
    dx = max(b0[0] - a1[0] + 1, a0[0] - b1[0] + 1, 0)
    dy = max(b0[1] - a1[1] + 1, a0[1] - b1[1] + 1, 0)
    return max(dx, dy)


def creature_distance(a: Creature, b: Creature) -> int:
    """Squares between the nearest squares of two creatures (Pathfinder counting)."""
    return min(pf_distance(x, y) for x in a.squares for y in b.squares)


def in_reach(a: Creature, b: Creature, reach: int) -> bool:
    """Whether ``b`` is within ``reach`` squares of ``a`` (Pathfinder counting), or two squares
    away diagonally with a reach of 2 (``grid.reach``, :func:`reach_by_diagonal`)."""
    return creature_distance(a, b) <= reach or reach_by_diagonal(a, b, reach)


def reach_by_diagonal(a: Creature, b: Creature, reach: int) -> bool:
    """``grid.reach``: a 10-ft reach (2 squares) threatens the square two away diagonally,
    though the 1-2-1 count makes it 15 ft (3 squares): True when only this exception puts
    ``b`` in reach."""
    return reach == 2 and creature_distance(a, b) > reach and chebyshev(a, b) <= 2


# --- line of effect (grid.total) ------------------------------------------------------------


def _clip(u: Point, d: Point, box: tuple[Corner, Corner]) -> tuple[Fraction, Fraction] | None:
    """Parameters ``s`` where ``u + s*d`` lies in the closed box, or None."""
    lo, hi = Fraction(-(10**9)), Fraction(10**9)
    for axis in (0, 1):
        a, b = Fraction(box[0][axis]), Fraction(box[1][axis])
        if d[axis] == 0:
            if not a <= u[axis] <= b:
                return None
            continue
        s1, s2 = (a - u[axis]) / d[axis], (b - u[axis]) / d[axis]
        lo, hi = max(lo, min(s1, s2)), min(hi, max(s1, s2))
    return (lo, hi) if lo <= hi else None


def _hull(points: Sequence[Corner]) -> list[Corner]:
    """Convex hull, counter-clockwise in the (x, y) plane (monotone chain, integers)."""
    pts = sorted(set(points))

    def turn(o: Corner, a: Corner, b: Corner) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Corner] = []
    upper: list[Corner] = []
    for pt in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], pt) <= 0:
            lower.pop()
        lower.append(pt)
    for pt in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], pt) <= 0:
            upper.pop()
        upper.append(pt)
    return lower[:-1] + upper[:-1]


def _in_hull(hull: Sequence[Corner], pt: Corner) -> bool:
    """``pt`` inside or on the boundary of a convex polygon given counter-clockwise."""
    n = len(hull)
    for i in range(n):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
        if (bx - ax) * (pt[1] - ay) - (by - ay) * (pt[0] - ax) < 0:
            return False
    return True


def _wall_square_on(scenario: GridScenario, tracer: Tracer, p: Point, q: Point) -> bool:
    """Whether the segment meets the open interior of a wall square (early exit)."""
    (px, py), (qx, qy) = (p, q) if p[0] <= q[0] else (q, p)
    if px == qx:
        return any(scenario.kind(sq) == WALL for sq in squares_crossed(p, q))
    slope = (qy - py) / (qx - px)
    for c in range(math.floor(px), math.ceil(qx)):
        xa, xb = max(px, Fraction(c)), min(qx, Fraction(c + 1))
        if xa >= xb:
            continue
        ya, yb = py + (xa - px) * slope, py + (xb - px) * slope
        if ya == yb:
            rows = [] if _is_int(ya) else [math.floor(ya)]
        else:
            rows = list(range(math.floor(min(ya, yb)), math.ceil(max(ya, yb))))
        for r in rows:
            if scenario.kind((c, r)) == WALL and not tracer.own_square((c, r)):
                return True
    return False


def _box_centre(box: tuple[Corner, Corner]) -> Point:
    return (Fraction(box[0][0] + box[1][0], 2), Fraction(box[0][1] + box[1][1], 2))


def _box_centre2(box: tuple[Corner, Corner]) -> Corner:
    """Twice the centre of a box (integers)."""
    return (box[0][0] + box[1][0], box[0][1] + box[1][1])


def _box_corners(box: tuple[Corner, Corner]) -> list[Corner]:
    (x0, y0), (x1, y1) = box
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def _free_region(
    scenario: GridScenario, tracer: Tracer, attacker: Creature, target: Creature
) -> tuple[bool, set[Square]]:
    """The squares a segment leaving the attacker's space could pass without being blocked,
    and whether one of them leads into the target's space: a flood fill over the squares that
    are not wall squares, one step across a square border that is not a wall, or diagonally
    through a grid point that walls do not seal (the tracer's own test at that point).

    It over-approximates every segment that is not along a grid line: such a segment crosses
    open borders and passes grid points transversally into the opposite square, so a clear one
    joins squares of this region from the attacker's space to the target's. So when the target
    is not reached there is no line of effect. Work: one visit per square of the map.
    """
    s = tracer.s
    own_a, own_t = set(attacker.squares), set(target.squares)
    # Integer arithmetic throughout: every point here is a grid point or the centre of a
    # square or of a space, so twice its coordinates are integers ("doubled" points), and
    # the arc tests compare only signs.
    ac, tc = _box_centre2(attacker.box), _box_centre2(target.box)

    def passable(sq: Square) -> bool:
        return s.inside(sq) and s.kind(sq) != WALL

    def around(pt: Corner) -> list[Square]:
        x, y = pt
        return [(x - 1, y - 1), (x, y - 1), (x - 1, y), (x, y)]

    def centre2(sq: Square) -> Corner:
        return (2 * sq[0] + 1, 2 * sq[1] + 1)

    def open_at(pt: Corner, before: Corner, after: Corner) -> bool:
        """Whether a path from doubled point ``before`` through grid point ``pt`` to doubled
        point ``after`` passes unsealed (the tracer's test at that point)."""
        rays = tracer.corner_rays(pt)
        if not rays:
            return True
        x, y = 2 * pt[0], 2 * pt[1]
        return not _separated((before[0] - x, before[1] - y), (after[0] - x, after[1] - y), rays)

    def boundary_points(cr: Creature) -> list[Corner]:
        (x0, y0), (x1, y1) = cr.box
        return [
            (x, y)
            for x in range(x0, x1 + 1)
            for y in range(y0, y1 + 1)
            if x in (x0, x1) or y in (y0, y1)
        ]

    region: set[Square] = set(own_a)
    todo = list(own_a)
    for pt in boundary_points(attacker):
        for sq in around(pt):
            if sq not in region and passable(sq) and open_at(pt, ac, centre2(sq)):
                region.add(sq)
                todo.append(sq)
    goal: set[Square] = set(own_t)
    for pt in boundary_points(target):
        for sq in around(pt):
            if passable(sq) and open_at(pt, centre2(sq), tc):
                goal.add(sq)
    edges = s.wall_edges
    while todo:
        c, r = todo.pop()
        steps: list[tuple[Square, bool]] = [
            ((c + 1, r), ((c + 1, r), (c + 1, r + 1)) not in edges),
            ((c - 1, r), ((c, r), (c, r + 1)) not in edges),
            ((c, r + 1), ((c, r + 1), (c + 1, r + 1)) not in edges),
            ((c, r - 1), ((c, r), (c + 1, r)) not in edges),
        ]
        for dc, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
            pt = (c + (dc > 0), r + (dr > 0))
            nxt = (c + dc, r + dr)
            steps.append((nxt, passable(nxt) and open_at(pt, centre2((c, r)), centre2(nxt))))
        for nxt, ok in steps:
            if ok and nxt not in region and passable(nxt):
                region.add(nxt)
                todo.append(nxt)
    return not region.isdisjoint(goal), region


def line_of_effect(scenario: GridScenario, attacker: Creature, target: Creature) -> bool:
    """Whether some segment joins a point of the attacker's space to a point of the target's
    space without being blocked by a wall square or a border wall (``grid.total``).

    Exact: corner-to-corner segments are tried first; if all are blocked, every line through
    two critical grid points (corners of the spaces, of wall squares, ends of wall edges)
    inside the convex hull of the two spaces is tried, between the near ends of its chords
    through the two spaces.
    """
    tracer = Tracer(scenario, (attacker.id, target.id))
    abox, tbox = attacker.box, target.box
    ac, tc = _box_centre(abox), _box_centre(tbox)

    def clear(p: Point, q: Point) -> bool:
        if _wall_square_on(scenario, tracer, p, q):  # fast exit: most candidates end here
            return False
        return not tracer.trace(p, q, ac, tc, effect_only=True)

    for a in _box_corners(abox):
        for t in _box_corners(tbox):
            if clear(frac(a), frac(t)):
                return True
    region: set[Square] | None = None
    (ax0, ay0), (ax1, ay1) = abox
    (tx0, ty0), (tx1, ty1) = tbox
    if max(ax0, tx0) > min(ax1, tx1) and max(ay0, ty0) > min(ay1, ty1):
        # No grid line meets both spaces, so every segment between them crosses squares.
        reached, region = _free_region(scenario, tracer, attacker, target)
        if not reached:
            return False
    cands = _pinning_points(scenario, abox, tbox, region)
    lines = len(cands) * (len(cands) - 1) // 2
    if lines > MAX_GRID_EFFECT_LINES:
        raise QueryError(
            f"line of effect between {attacker.id!r} and {target.id!r} needs {lines} candidate "
            f"lines; the limit is {MAX_GRID_EFFECT_LINES} (MAX_GRID_EFFECT_LINES)"
        )
    return _some_line_clear(cands, abox, tbox, clear)


def _pinning_points(
    scenario: GridScenario,
    abox: tuple[Corner, Corner],
    tbox: tuple[Corner, Corner],
    region: set[Square] | None,
) -> list[Corner]:
    """The critical grid points that may pin a clear segment between the two spaces: corners
    of the spaces, of wall squares and ends of wall edges, inside the convex hull of the two
    spaces (not inside solid wall); with a free ``region`` only those beside it."""
    x0 = min(abox[0][0], tbox[0][0])
    y0 = min(abox[0][1], tbox[0][1])
    x1 = max(abox[1][0], tbox[1][0])
    y1 = max(abox[1][1], tbox[1][1])
    points: set[Corner] = set(_box_corners(abox)) | set(_box_corners(tbox))
    for e in scenario.wall_edges:
        for x, y in e:
            if x0 <= x <= x1 and y0 <= y <= y1:
                points.add((x, y))
    for y in range(y0, y1):
        for x in range(x0, x1):
            if scenario.kind((x, y)) == WALL:
                points.update(corners((x, y)))
    solid = {
        pt
        for pt in points
        if all(scenario.kind((pt[0] + dc, pt[1] + dr)) == WALL for dc in (-1, 0) for dr in (-1, 0))
    }
    hull = _hull(_box_corners(abox) + _box_corners(tbox))
    # A segment from one space to the other lies in their convex hull: only points there can
    # pin it.
    cands = sorted(pt for pt in points - solid if _in_hull(hull, pt))
    if region is not None:  # a pinning point lies on the segment, beside a square it passes
        corners_ab = set(_box_corners(abox)) | set(_box_corners(tbox))
        cands = [
            pt
            for pt in cands
            if pt in corners_ab
            or any(
                sq in region for sq in ((pt[0] - dc, pt[1] - dr) for dc in (0, 1) for dr in (0, 1))
            )
        ]
    return cands


def _some_line_clear(
    cands: list[Corner],
    abox: tuple[Corner, Corner],
    tbox: tuple[Corner, Corner],
    clear: Callable[[Point, Point], bool],
) -> bool:
    """Whether some line through two of ``cands`` (each line once) joins the two spaces clear:
    between the near ends of its chords through them (both ends where the spaces touch along
    it)."""
    tried: set[tuple[int, int, int]] = set()
    for i, u in enumerate(cands):
        for v in cands[i + 1 :]:
            la, lb = v[1] - u[1], u[0] - v[0]
            g = math.gcd(la, lb)
            la, lb = la // g, lb // g
            if la < 0 or (la == 0 and lb < 0):
                la, lb = -la, -lb
            key = (la, lb, la * u[0] + lb * u[1])
            if key in tried:
                continue
            tried.add(key)
            uu, d = frac(u), (Fraction(v[0] - u[0]), Fraction(v[1] - u[1]))
            sa, st = _clip(uu, d, abox), _clip(uu, d, tbox)
            if sa is None or st is None:
                continue
            if sa[1] < st[0]:
                pairs = [(sa[1], st[0])]
            elif st[1] < sa[0]:
                pairs = [(sa[0], st[1])]
            else:  # the spaces touch along this line
                lo, hi = max(sa[0], st[0]), min(sa[1], st[1])
                pairs = [(lo, lo), (hi, hi)]
            for s1, s2 in pairs:
                p = (uu[0] + s1 * d[0], uu[1] + s1 * d[1])
                q = (uu[0] + s2 * d[0], uu[1] + s2 * d[1])
                if clear(p, q):
                    return True
    return False
