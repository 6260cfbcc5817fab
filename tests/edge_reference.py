"""The edge-by-edge computation of the Significant Edges (``elevation.significant-edge``): all
pieces near each piece, then each edge on its own. Slower than
:func:`fwwrules.elevation._compute_edges`, and the reference it is tested against (moved out of
the package: only the tests use it)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from fwwrules.board import TerrainGeometry
from fwwrules.constants import EDGE_PROBE_MM, LENGTH_EPSILON_MM
from fwwrules.elevation import Point2, SignificantEdge, compass
from fwwrules.thresholds import reaches_ruler


def _signed_area(coords: list[Point2]) -> float:
    s = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(coords):
        s += x0 * y1 - x1 * y0
    return s / 2


def _compute_edges_reference(
    pieces: tuple[TerrainGeometry, ...], orange: float, tolerance: float = LENGTH_EPSILON_MM
) -> tuple[SignificantEdge, ...]:
    """The edge-by-edge computation (all pieces near each piece, then each edge on its own):
    slower, kept as the reference :func:`_compute_edges` is tested against."""
    tree = shapely.STRtree([t.polygon for t in pieces])
    out: list[SignificantEdge] = []
    for k, piece in enumerate(pieces):
        top = float(piece.height or 0.0)
        if not reaches_ruler(top, orange, tolerance):
            continue  # no drop from it can reach Orange
        coords = [(float(x), float(y)) for x, y in shapely.get_coordinates(piece.polygon.exterior)]
        ccw = _signed_area(coords) > 0
        # Pieces touching or overlapping this one; per edge, those that meet the edge itself.
        near = [pieces[int(j)] for j in sorted(tree.query(piece.polygon)) if int(j) != k]
        near = [q for q in near if q.polygon.intersects(piece.polygon)]
        hits = np.zeros((len(coords) - 1, len(near)), dtype=bool)
        if near:
            xy = np.asarray(coords, dtype=np.float64)
            lines = shapely.linestrings(np.stack([xy[:-1], xy[1:]], axis=1))
            for j, q in enumerate(near):
                hits[:, j] = shapely.intersects(lines, q.polygon)
        for i in range(len(coords) - 1):
            a, b = coords[i], coords[i + 1]
            beyond = [near[int(j)] for j in np.flatnonzero(hits[i])] if near else []
            out.extend(_edge_parts(piece, i, a, b, top, ccw, beyond, orange, tolerance))
    return tuple(out)


def _edge_parts(
    piece: TerrainGeometry,
    index: int,
    a: Point2,
    b: Point2,
    top: float,
    ccw: bool,
    neighbours: list[TerrainGeometry],
    orange: float,
    tolerance: float,
) -> list[SignificantEdge]:
    """The significant parts of edge ``index`` (``a -> b``); ``neighbours`` meet the edge."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length <= LENGTH_EPSILON_MM:
        return []
    # Outward normal: the right-hand side of a counter-clockwise ring.
    nx, ny = (dy / length, -dx / length) if ccw else (-dy / length, dx / length)
    side = compass(nx, ny)
    if not neighbours:  # the table lies beyond the whole edge
        return (
            [SignificantEdge(piece.id, index, a, b, top, 0.0, side)]
            if reaches_ruler(top, orange, tolerance)
            else []
        )
    line = LineString([a, b])
    ts = {0.0, 1.0}
    for q in neighbours:
        meet = line.intersection(q.polygon.boundary)
        for x, y in shapely.get_coordinates(meet):
            t = ((x - a[0]) * dx + (y - a[1]) * dy) / (length * length)
            if 0.0 < t < 1.0:
                ts.add(float(t))
    cuts = sorted(ts)
    parts: list[tuple[float, float, float]] = []  # (t0, t1, ground)
    for t0, t1 in itertools.pairwise(cuts):
        if (t1 - t0) * length <= LENGTH_EPSILON_MM:
            continue
        tm = (t0 + t1) / 2
        mx, my = a[0] + tm * dx, a[1] + tm * dy
        ground = 0.0
        mid = Point(mx, my)
        probe = Point(mx + nx * EDGE_PROBE_MM, my + ny * EDGE_PROBE_MM)
        for q in neighbours:
            h = float(q.height or 0.0)
            if h <= ground:
                continue
            # On (within epsilon of) q's outline, whether q holds the middle is rounding:
            # q lies beyond only if it holds the probe outside. So an outline shared with a
            # piece on the inner side (two pieces with one outline, a smaller piece flush with
            # the edge) leaves the table beyond, and one shared with a piece outside does not.
            if q.polygon.boundary.distance(mid) <= LENGTH_EPSILON_MM:
                if q.polygon.contains(probe):
                    ground = h
            elif q.polygon.contains(mid):
                ground = h
        joined = parts and abs(parts[-1][1] - t0) * length <= LENGTH_EPSILON_MM
        if joined and parts[-1][2] == ground:
            parts[-1] = (parts[-1][0], t1, ground)
        else:
            parts.append((t0, t1, ground))
    edges = []
    for t0, t1, ground in parts:
        if reaches_ruler(top - ground, orange, tolerance):
            pa = a if t0 == 0.0 else (a[0] + t0 * dx, a[1] + t0 * dy)
            pb = b if t1 == 1.0 else (a[0] + t1 * dx, a[1] + t1 * dy)
            edges.append(SignificantEdge(piece.id, index, pa, pb, top, ground, side))
    return edges
