"""The clip of a segment to a convex piece of many edges (a circle's 128), done on all edges
at once (numpy), gives exactly the numbers of the edge-by-edge clip: on random segments,
segments through corners, tangent, axis-parallel and of no length."""

from __future__ import annotations

import random

import pytest
from shapely.geometry import Point

from fwwrules import geometry


@pytest.mark.parametrize("radius, segments", [(1.0, 32), (55.0, 32), (10.0, 8), (300.0, 32)])
def test_the_clip_on_all_edges_at_once_is_the_edge_by_edge_clip(
    radius: float, segments: int
) -> None:
    solid = geometry._make_solid(Point(5.0, -3.0).buffer(radius, quad_segs=segments))
    assert solid.is_convex
    corners = list(solid.verts.tolist())
    rng = random.Random(radius)
    span = 1.5 * radius + 10

    def point() -> tuple[float, float]:
        k = rng.random()
        if k < 0.3:
            x, y = rng.choice(corners)
            return (x + rng.choice([0.0, 1e-9, -1e-3, 0.005]), y)
        if k < 0.4:
            return (rng.choice([5.0 - radius, 5.0, 5.0 + radius]), rng.uniform(-span, span))
        return (rng.uniform(-span, span), rng.uniform(-span, span))

    for _ in range(3000):
        p, q = point(), point()
        k = rng.random()
        q = (p[0], q[1]) if k < 0.1 else (q[0], p[1]) if k < 0.2 else p if k < 0.25 else q
        expected = geometry._convex_clip(p, q, solid.py_edges)
        assert geometry._convex_clip_many(p, q, solid.edge_columns) == expected, (p, q)
