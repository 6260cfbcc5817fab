"""Exact shortest paths among open discs (the geometry of ``melee.slide``).

A path of a point among circular obstacles: straight segments along common tangents and arcs
along the obstacles' circles (a visibility graph of tangent points, searched with Dijkstra).
Pure geometry in millimetres: no scenario, no rule.

Boundary cases
--------------
* Obstacles are *open* discs: a path may touch a circle (a tangent, an arc along it) but not
  enter it; two obstacles that touch or overlap leave no gap between them.
* A start or goal inside an obstacle has no path (``None``).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from .constants import LENGTH_EPSILON_MM

_TWO_PI = 2.0 * math.pi

Point2 = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Obstacle:
    """An open disc the slider's centre may not enter: an opposing base grown by the slider."""

    id: str
    x: float
    y: float
    r: float


def seg_clear(p: Point2, q: Point2, obstacles: Sequence[Obstacle]) -> bool:
    """True when segment ``pq`` enters no obstacle's interior (a tangent is not entering)."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    ll = dx * dx + dy * dy
    for o in obstacles:
        t = 0.0 if ll == 0.0 else ((o.x - px) * dx + (o.y - py) * dy) / ll
        t = max(0.0, min(1.0, t))
        cx, cy = px + t * dx - o.x, py + t * dy - o.y
        if math.hypot(cx, cy) < o.r - LENGTH_EPSILON_MM:
            return False
    return True


_CLEAR_BATCH = 1 << 18
"""Segment-obstacle pairs tested at once by :func:`_clear_mask` (bounded memory: a few MB)."""


def _clear_mask(
    p: NDArray[np.float64], q: NDArray[np.float64], discs: NDArray[np.float64]
) -> NDArray[np.bool_]:
    """:func:`seg_clear` for many segments at once: ``p`` and ``q`` are ``(S, 2)`` arrays of
    ends, ``discs`` an ``(n, 3)`` array of ``x, y, r``; the same test, in batches of at most
    :data:`_CLEAR_BATCH` segment-disc pairs."""
    out = np.ones(len(p), dtype=bool)
    if len(p) == 0 or len(discs) == 0:
        return out
    ox, oy = discs[None, :, 0], discs[None, :, 1]
    reach = discs[None, :, 2] - LENGTH_EPSILON_MM
    reach2 = np.where(reach > 0.0, reach * reach, -1.0)  # a disc with no reach stops nothing
    step = max(1, _CLEAR_BATCH // len(discs))
    for lo in range(0, len(p), step):
        px, py = p[lo : lo + step, 0:1], p[lo : lo + step, 1:2]
        dx, dy = q[lo : lo + step, 0:1] - px, q[lo : lo + step, 1:2] - py
        ll = dx * dx + dy * dy
        ux, uy = ox - px, oy - py
        t = (ux * dx + uy * dy) / np.where(ll == 0.0, 1.0, ll)  # a point: t = 0
        np.clip(t, 0.0, 1.0, out=t)
        cx, cy = t * dx - ux, t * dy - uy
        out[lo : lo + step] = ~(cx * cx + cy * cy < reach2).any(axis=1)
    return out


def inside_any(p: Point2, obstacles: Sequence[Obstacle], skip: int = -1) -> bool:
    return any(
        k != skip and math.hypot(p[0] - o.x, p[1] - o.y) < o.r - LENGTH_EPSILON_MM
        for k, o in enumerate(obstacles)
    )


def _point_tangents(p: Point2, o: Obstacle) -> list[float]:
    """Angles (around ``o``) of the tangent points from ``p``; ``p`` itself when it lies on it."""
    dx, dy = p[0] - o.x, p[1] - o.y
    d = math.hypot(dx, dy)
    base = math.atan2(dy, dx)
    if d <= o.r + LENGTH_EPSILON_MM:
        return [base]
    w = math.acos(o.r / d)
    return [base - w, base + w]


def _bitangents(a: Obstacle, b: Obstacle) -> list[tuple[Point2, Point2]]:
    """Segments tangent to both circles (outer, and inner when the circles are apart)."""
    dx, dy = b.x - a.x, b.y - a.y
    z = dx * dx + dy * dy
    if z == 0.0:
        return []
    out: list[tuple[Point2, Point2]] = []
    for s2 in (1.0, -1.0):
        r = s2 * b.r - a.r
        h = z - r * r
        if h < -LENGTH_EPSILON_MM:
            continue
        root = math.sqrt(max(h, 0.0))
        for pm in (1.0, -1.0) if root > 0 else (1.0,):
            na = (dx * r + pm * dy * root) / z
            nb = (dy * r - pm * dx * root) / z
            # the line na*x + nb*y + c = 0 has signed distance a.r from a, s2*b.r from b
            ta = (a.x - a.r * na, a.y - a.r * nb)
            tb = (b.x - s2 * b.r * na, b.y - s2 * b.r * nb)
            out.append((ta, tb))
    return out


def _blocked_arcs(i: int, obstacles: Sequence[Obstacle]) -> list[tuple[float, float]] | None:
    """Open angular intervals (start, length) of circle ``i`` inside other discs; ``None``: all."""
    a = obstacles[i]
    out: list[tuple[float, float]] = []
    for k, b in enumerate(obstacles):
        if k == i:
            continue
        d = math.hypot(b.x - a.x, b.y - a.y)
        if d + a.r <= b.r - LENGTH_EPSILON_MM:
            return None  # circle i lies inside disc k
        if d >= a.r + b.r or d + b.r <= a.r or d == 0.0:
            continue  # apart, k inside i, or concentric with radii equal within the epsilon
        c = (a.r * a.r + d * d - b.r * b.r) / (2 * a.r * d)
        w = math.acos(max(-1.0, min(1.0, c)))
        phi = math.atan2(b.y - a.y, b.x - a.x)
        out.append(((phi - w) % _TWO_PI, 2 * w))
    return out


def _arc_free(
    start: float, length: float, blocked: Sequence[tuple[float, float]], r: float
) -> bool:
    """True when the arc (start, start+length) meets no open blocked interval."""
    eps = LENGTH_EPSILON_MM / r
    for s, w in blocked:
        if (s - start) % _TWO_PI < length - eps or (start - s) % _TWO_PI < w - eps:
            return False
    return True


ROUTE_ARC_STEP = math.radians(5.0)
"""Arcs of a route are drawn as chords of at most this angle (drawing only; lengths are exact)."""


@dataclass(frozen=True, slots=True)
class Route:
    """A shortest path: its exact ``length`` and the ``points`` of a polyline that follows it
    (the arcs around bases as short chords, for drawing)."""

    length: float
    points: tuple[Point2, ...]


def shortest_path(start: Point2, goal: Point2, obstacles: Sequence[Obstacle]) -> float | None:
    """Length of the shortest path from ``start`` to ``goal`` avoiding the open discs, or None.

    Exact: a shortest path among discs consists of straight segments tangent to the circles and
    arcs along them (the visibility graph of tangent points). Segments may graze a circle and
    arcs may run along its boundary (grazing is not entering); points where two circles cross
    cut the arcs. Obstacles containing ``start`` or ``goal`` must be removed by the caller.
    """
    route = shortest_route(start, goal, obstacles)
    return None if route is None else route.length


# An edge of the tangent graph: (to node, length, arc) with arc = None for a straight segment,
# else (circle index, start angle at the from-node, signed sweep).
_Arc = tuple[int, float, float]


def _outside(p: Point2, within: Sequence[Obstacle]) -> bool:
    """True when ``p`` lies outside one of the closed discs ``within`` (beyond the epsilon)."""
    return any(math.hypot(p[0] - w.x, p[1] - w.y) > w.r + LENGTH_EPSILON_MM for w in within)


def _outside_arcs(a: Obstacle, within: Sequence[Obstacle]) -> list[tuple[float, float]] | None:
    """Open angular intervals (start, length) of circle ``a`` outside the closed discs
    ``within``; ``None`` when the whole circle lies outside one of them."""
    out: list[tuple[float, float]] = []
    for w in within:
        d = math.hypot(w.x - a.x, w.y - a.y)
        if d + a.r <= w.r + LENGTH_EPSILON_MM:
            continue  # circle a lies inside w
        if d >= a.r + w.r or d + w.r <= a.r:
            return None  # apart, or w inside circle a: every point of the circle is outside w
        c = (a.r * a.r + d * d - w.r * w.r) / (2 * a.r * d)
        half_in = math.acos(max(-1.0, min(1.0, c)))
        phi = math.atan2(w.y - a.y, w.x - a.x)
        out.append(((phi + half_in) % _TWO_PI, _TWO_PI - 2 * half_in))
    return out


def relevant_obstacles(obstacles: Sequence[Obstacle], within: Sequence[Obstacle]) -> list[Obstacle]:
    """The obstacles that reach into every disc of ``within`` (the others cannot touch a path
    that stays inside them). All of them when ``within`` is empty."""
    return [
        o for o in obstacles if all(math.hypot(o.x - w.x, o.y - w.y) < o.r + w.r for w in within)
    ]


def shortest_route(
    start: Point2,
    goal: Point2,
    obstacles: Sequence[Obstacle],
    within: Sequence[Obstacle] = (),
) -> Route | None:
    """:func:`shortest_path` with the way itself (see :class:`Route`).

    ``within``: closed discs the whole path must stay inside (``melee.slide``: the slider's
    centre stays within contact distance of every model it is engaged with). Their
    intersection is convex, so a straight segment between two points inside it stays inside;
    arcs along an obstacle are cut where they leave it. ``None`` when ``start`` or ``goal``
    lies outside, or no path exists. Obstacles that do not reach into every disc of
    ``within`` are dropped first, which keeps the search small among many bases.
    """
    if _outside(start, within) or _outside(goal, within):
        return None
    obstacles = relevant_obstacles(obstacles, within)
    if seg_clear(start, goal, obstacles):
        return Route(math.dist(start, goal), (start, goal))
    g = _TangentGraph(obstacles, within, [start, goal])
    blocked = [_blocked_arcs(i, obstacles) for i in range(len(obstacles))]
    if within:
        for i, o in enumerate(obstacles):
            arcs, out = blocked[i], _outside_arcs(o, within)
            blocked[i] = None if arcs is None or out is None else arcs + out
    g.link_ends(blocked)
    g.link_bitangents(blocked)
    g.link_arcs(blocked)
    return g.shortest()


class _TangentGraph:
    """The visibility graph of tangent points for :func:`shortest_route`: node 0 is the start,
    node 1 the goal, the others points on the obstacles' circles (none inside another
    obstacle or outside ``within``); edges are tangent segments and free arcs."""

    def __init__(
        self, obstacles: Sequence[Obstacle], within: Sequence[Obstacle], ends: list[Point2]
    ) -> None:
        self.obstacles = obstacles
        self.within = within
        self.nodes = ends
        self.on_circle: list[list[tuple[float, int]]] = [[] for _ in obstacles]
        self.edges: dict[int, list[tuple[int, float, _Arc | None]]] = {}
        self.discs = np.array([(o.x, o.y, o.r) for o in obstacles], dtype=float).reshape(-1, 3)
        self.reach = self.discs[:, 2] - LENGTH_EPSILON_MM

    def add_node(self, i: int, angle: float) -> int | None:
        """The point at ``angle`` on circle ``i`` as a node; ``None`` where it is not free."""
        o, discs = self.obstacles[i], self.discs
        p = (o.x + o.r * math.cos(angle), o.y + o.r * math.sin(angle))
        # inside_any(p, obstacles, skip=i), for all obstacles at once
        inside = np.hypot(discs[:, 0] - p[0], discs[:, 1] - p[1]) < self.reach
        inside[i] = False
        if inside.any() or _outside(p, self.within):
            return None
        self.nodes.append(p)
        n = len(self.nodes) - 1
        self.on_circle[i].append((angle % _TWO_PI, n))
        return n

    def link(self, u: int, v: int, length: float, arc: _Arc | None = None) -> None:
        back = None if arc is None else (arc[0], arc[1] + arc[2], -arc[2])
        self.edges.setdefault(u, []).append((v, length, arc))
        self.edges.setdefault(v, []).append((u, length, back))

    def link_ends(self, blocked: list[list[tuple[float, float]] | None]) -> None:
        """The tangents from the start and the goal to each circle, where clear."""
        for i, o in enumerate(self.obstacles):
            if blocked[i] is None:
                continue
            for end in (0, 1):
                p = self.nodes[end]
                for ang in _point_tangents(p, o):
                    n = self.add_node(i, ang)
                    if n is not None and seg_clear(p, self.nodes[n], self.obstacles):
                        self.link(end, n, math.dist(p, self.nodes[n]))

    def link_bitangents(self, blocked: list[list[tuple[float, float]] | None]) -> None:
        """Every bitangent first, then one batched clearance test of all of them (the same test
        as seg_clear; the search would otherwise spend its time there), then the nodes in the
        same order as one by one."""
        obstacles = self.obstacles
        tangents: list[tuple[int, int, Point2, Point2]] = []
        for i in range(len(obstacles)):
            if blocked[i] is None:
                continue
            for k in range(i + 1, len(obstacles)):
                if blocked[k] is None:
                    continue
                pairs = _bitangents(obstacles[i], obstacles[k])
                tangents.extend((i, k, ta, tb) for ta, tb in pairs)
        ends = np.array([(*ta, *tb) for _, _, ta, tb in tangents], dtype=float).reshape(-1, 4)
        clear = _clear_mask(ends[:, :2], ends[:, 2:], self.discs)
        for (i, k, ta, tb), ok in zip(tangents, clear.tolist(), strict=True):
            if not ok:
                continue
            a, b = obstacles[i], obstacles[k]
            na = self.add_node(i, math.atan2(ta[1] - a.y, ta[0] - a.x))
            nb = self.add_node(k, math.atan2(tb[1] - b.y, tb[0] - b.x))
            if na is not None and nb is not None:
                self.link(na, nb, math.dist(ta, tb))

    def link_arcs(self, blocked: list[list[tuple[float, float]] | None]) -> None:
        """The free arcs between consecutive nodes on each circle."""
        for i, o in enumerate(self.obstacles):
            arcs = blocked[i]
            pts = sorted(self.on_circle[i])
            if arcs is None or len(pts) < 2:
                continue
            for j in range(len(pts)):
                a0, n0 = pts[j]
                a1, n1 = pts[(j + 1) % len(pts)]
                length = (a1 - a0) % _TWO_PI
                if len(pts) == 2 and j == 1 and length == 0.0:
                    continue
                if _arc_free(a0, length, arcs, o.r):
                    self.link(n0, n1, o.r * length, (i, a0, length))

    def shortest(self) -> Route | None:
        """Dijkstra from the start (node 0) to the goal (node 1); ``None``: no way."""
        dist = {0: 0.0}
        prev: dict[int, tuple[int, _Arc | None]] = {}
        heap = [(0.0, 0)]
        while heap:
            d, u = heapq.heappop(heap)
            if u == 1:
                return Route(d, _route_points(self.nodes, prev, self.obstacles))
            if d > dist.get(u, math.inf):
                continue
            for v, w, arc in self.edges.get(u, ()):
                nd = d + w
                if nd < dist.get(v, math.inf):
                    dist[v] = nd
                    prev[v] = (u, arc)
                    heapq.heappush(heap, (nd, v))
        return None


def _route_points(
    nodes: Sequence[Point2],
    prev: Mapping[int, tuple[int, _Arc | None]],
    obstacles: Sequence[Obstacle],
) -> tuple[Point2, ...]:
    """The polyline from node 0 (start) to node 1 (goal), arcs as chords."""
    legs: list[list[Point2]] = []
    v = 1
    while v != 0:
        u, arc = prev[v]
        if arc is None:
            legs.append([nodes[v]])
        else:
            i, a0, sweep = arc
            o = obstacles[i]
            n = max(1, math.ceil(abs(sweep) / ROUTE_ARC_STEP))
            pts = [a0 + sweep * k / n for k in range(1, n)]
            legs.append([(o.x + o.r * math.cos(a), o.y + o.r * math.sin(a)) for a in pts])
            legs[-1].append(nodes[v])
        v = u
    out: list[Point2] = [nodes[0]]
    for leg in reversed(legs):
        out.extend(leg)
    return tuple(out)


def _clusters(obstacles: Sequence[Obstacle]) -> list[list[int]]:
    """Groups of obstacles whose discs overlap or touch (connected components)."""
    parent = list(range(len(obstacles)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(obstacles):
        for k in range(i + 1, len(obstacles)):
            b = obstacles[k]
            if math.hypot(a.x - b.x, a.y - b.y) <= a.r + b.r:
                parent[find(i)] = find(k)
    groups: dict[int, list[int]] = {}
    for i in range(len(obstacles)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def blockers(start: Point2, goal: Point2, obstacles: Sequence[Obstacle]) -> list[str]:
    """The obstacles that stand in the way: a cluster that alone cuts ``goal`` off from
    ``start``, else those the straight segment enters."""
    cut: list[str] = []
    for group in _clusters(obstacles):
        sub = [obstacles[i] for i in group]
        if shortest_path(start, goal, sub) is None:
            cut.extend(o.id for o in sub)
    if cut:
        return cut
    return [o.id for o in obstacles if not seg_clear(start, goal, [o])]


def contact_cuts(
    start: Point2, obstacles: Sequence[Obstacle], within: Sequence[Obstacle]
) -> list[tuple[str, Point2, str]]:
    """Where a path that hugs a disc of ``within`` must stop, both ways round.

    For each disc of ``within`` (a model the slider is engaged with) the point runs round its
    centre at its present distance; the first point each way where an obstacle or the edge of
    another disc of ``within`` cuts that ring is where going on would leave the disc. Returns
    ``(within id, point, id of what cuts it)``, nearest first, without repeats; empty when
    nothing cuts the ring.
    """
    out: list[tuple[str, Point2, str]] = []
    for k, w in enumerate(within):
        r = math.hypot(start[0] - w.x, start[1] - w.y)
        if r <= LENGTH_EPSILON_MM:
            continue
        ring = Obstacle(w.id, w.x, w.y, r)
        cuts: list[tuple[float, float, str]] = []  # (start angle, length, cause)
        for o in obstacles:
            arcs = _blocked_arcs(0, [ring, o])
            if arcs is None:
                cuts.append((0.0, _TWO_PI, o.id))
            cuts.extend((s, length, o.id) for s, length in arcs or ())
        for j, other in enumerate(within):
            if j != k:
                arcs = _outside_arcs(ring, [other])
                if arcs is None:
                    cuts.append((0.0, _TWO_PI, other.id))
                cuts.extend((s, length, other.id) for s, length in arcs or ())
        if not cuts:
            continue
        theta = math.atan2(start[1] - w.y, start[0] - w.x)
        ccw = min(cuts, key=lambda c: (c[0] - theta) % _TWO_PI)
        cw = min(cuts, key=lambda c: (theta - c[0] - c[1]) % _TWO_PI)
        hits = [
            ((ccw[0] - theta) % _TWO_PI, ccw[0], ccw[2]),
            ((theta - cw[0] - cw[1]) % _TWO_PI, cw[0] + cw[1], cw[2]),
        ]
        for _, angle, cause in sorted(hits):
            p = (w.x + r * math.cos(angle), w.y + r * math.sin(angle))
            if all(math.dist(p, q) > LENGTH_EPSILON_MM for _, q, _ in out):
                out.append((w.id, p, cause))
    return out


_Obstacle = Obstacle
"""The old private name (tests and notebooks written before the split)."""
