"""Properties of the exact line of sight (``ranged.los``), checked with hypothesis.

* symmetric: swapping attacker and target never changes whether LoS exists;
* invariant under rotating and translating the whole table;
* a returned witness really is clear and joins the two bases;
* a sampling oracle (points on and inside both bases) that finds a clear segment is never
  contradicted by ``find_clear_segment`` returning None.
"""

from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from shapely import affinity
from shapely.geometry import LineString, Polygon, box

from fwwrules.board import Disc
from fwwrules.geometry import find_clear_segment, find_clear_segment_to_polygon, segment_clear

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

coord = st.floats(-150.0, 150.0, allow_nan=False)


@st.composite
def rects(draw: st.DrawFn) -> Polygon:
    cx, cy = draw(coord), draw(coord)
    w = draw(st.floats(2.0, 120.0))
    h = draw(st.floats(2.0, 40.0))
    ang = draw(st.floats(0.0, 180.0))
    return affinity.rotate(box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2), ang)


@st.composite
def obstacles(draw: st.DrawFn) -> list[object]:
    obs: list[object] = list(draw(st.lists(rects(), min_size=1, max_size=6)))
    if draw(st.booleans()):
        obs.append(Disc(draw(coord), draw(coord), draw(st.floats(20.0, 40.0))))
    if draw(st.booleans()):
        obs.append(LineString([(draw(coord), draw(coord)), (draw(coord), draw(coord))]))
    return obs


@st.composite
def scenes(draw: st.DrawFn) -> tuple[Disc, Disc, list[object]]:
    a = Disc(draw(coord), draw(coord), draw(st.sampled_from([16.0, 20.0, 30.0])))
    b = Disc(draw(coord), draw(coord), draw(st.sampled_from([16.0, 20.0, 30.0, 0.0])))
    if a.gap(b) < 1.0:
        b = Disc(b.x + 2 * (a.r + b.r) + 5, b.y, b.r)
    return a, b, draw(obstacles())


def _sample_points(d: Disc, n: int = 24) -> np.ndarray:
    if d.r == 0:
        return np.asarray([[d.x, d.y]])
    k = 16
    ang = np.linspace(0, 2 * np.pi, k, endpoint=False) + 0.1234  # off the axes: generic
    rim = np.column_stack([d.x + d.r * np.cos(ang), d.y + d.r * np.sin(ang)])
    ang2 = np.linspace(0, 2 * np.pi, n - k - 1, endpoint=False) + 0.3
    ring = np.column_stack([d.x + 0.5 * d.r * np.cos(ang2), d.y + 0.5 * d.r * np.sin(ang2)])
    return np.vstack([rim, ring, [[d.x, d.y]]])


def _oracle_clear(p: np.ndarray, q: np.ndarray, obs: list[object]) -> np.ndarray:
    """Independent of the module: shapely overlay lengths, exact chords, proper crossings."""
    lines = shapely.linestrings(np.stack([p, q], axis=1))
    ok = np.ones(len(p), dtype=bool)
    for o in obs:
        if isinstance(o, Disc):
            d = q - p
            ln = np.hypot(d[:, 0], d[:, 1])
            t = np.clip(((o.x - p[:, 0]) * d[:, 0] + (o.y - p[:, 1]) * d[:, 1]) / ln**2, 0, 1)
            near = np.hypot(p[:, 0] + t * d[:, 0] - o.x, p[:, 1] + t * d[:, 1] - o.y)
            ok &= near >= o.r - 1e-9
        elif isinstance(o, LineString):
            ok &= ~(shapely.crosses(lines, o) & ~shapely.touches(lines, o))
        else:
            inside = shapely.length(shapely.intersection(lines, o)) - shapely.length(
                shapely.intersection(lines, o.boundary)
            )
            ok &= inside <= 1e-6
    return ok


def _transform(d: Disc, ang: float, dx: float, dy: float) -> Disc:
    c, s = math.cos(ang), math.sin(ang)
    return Disc(c * d.x - s * d.y + dx, s * d.x + c * d.y + dy, d.r)


def _transform_obs(o: object, ang: float, dx: float, dy: float) -> object:
    if isinstance(o, Disc):
        return _transform(o, ang, dx, dy)
    g = affinity.rotate(o, ang, origin=(0, 0), use_radians=True)
    return affinity.translate(g, dx, dy)


@SETTINGS
@given(scenes())
def test_ranged_los_is_symmetric(scene: tuple[Disc, Disc, list[object]]) -> None:
    a, b, obs = scene
    if b.r == 0:
        return
    assert (find_clear_segment(a, b, obs) is None) == (find_clear_segment(b, a, obs) is None)


@SETTINGS
@given(scenes(), st.floats(0.0, 2 * math.pi), coord, coord)
def test_ranged_los_invariant_under_rotation_and_translation(
    scene: tuple[Disc, Disc, list[object]], ang: float, dx: float, dy: float
) -> None:
    a, b, obs = scene
    moved = find_clear_segment(
        _transform(a, ang, dx, dy),
        _transform(b, ang, dx, dy),
        [_transform_obs(o, ang, dx, dy) for o in obs],
    )
    assert (find_clear_segment(a, b, obs) is None) == (moved is None)


@SETTINGS
@given(scenes())
def test_ranged_los_witness_is_clear_and_joins_the_bases(
    scene: tuple[Disc, Disc, list[object]],
) -> None:
    a, b, obs = scene
    seg = find_clear_segment(a, b, obs)
    if seg is None:
        return
    p, q = seg
    assert math.hypot(p[0] - a.x, p[1] - a.y) <= a.r + 1e-7
    assert math.hypot(q[0] - b.x, q[1] - b.y) <= b.r + 1e-7
    assert segment_clear(p, q, obs)


@SETTINGS
@given(scenes())
def test_ranged_los_sampling_oracle_never_contradicted(
    scene: tuple[Disc, Disc, list[object]],
) -> None:
    a, b, obs = scene
    pa, pb = _sample_points(a), _sample_points(b)
    p = np.repeat(pa, len(pb), axis=0)
    q = np.tile(pb, (len(pa), 1))
    sampled = bool(_oracle_clear(p, q, obs).any())
    if sampled:
        assert find_clear_segment(a, b, obs) is not None


@settings(max_examples=60, deadline=None)
@given(scenes())
def test_ranged_los_exact_agrees_with_module_segment_test_on_samples(
    scene: tuple[Disc, Disc, list[object]],
) -> None:
    """The oracle and ``segment_clear`` agree on generic sampled segments."""
    a, b, obs = scene
    pa, pb = _sample_points(a)[::6], _sample_points(b)[::6]
    rims = [
        None if isinstance(o, Disc) else o if isinstance(o, LineString) else o.boundary for o in obs
    ]

    def generic(x: np.ndarray) -> bool:  # not on an outline (the oracle has no tolerance)
        pt = shapely.Point(x)
        return all(r is None or r.distance(pt) > 1e-6 for r in rims) and all(
            abs(math.hypot(x[0] - o.x, x[1] - o.y) - o.r) > 1e-6 for o in obs if isinstance(o, Disc)
        )

    for p in pa:
        for q in pb:
            if not (generic(p) and generic(q)):
                continue
            want = bool(_oracle_clear(p[None, :], q[None, :], obs)[0])
            assert segment_clear(tuple(p), tuple(q), obs) == want


@settings(max_examples=40, deadline=None)
@given(scenes(), rects())
def test_ranged_los_terrain_target_oracle_and_witness(
    scene: tuple[Disc, Disc, list[object]], target: Polygon
) -> None:
    """``ranged.los`` at a terrain piece: the witness ends in the piece and is clear; a
    sampled clear segment (base points to points of the piece) is never contradicted."""
    a, _, obs = scene
    obs = [o for o in obs if not (isinstance(o, Polygon) and o.intersects(target))]
    seg = find_clear_segment_to_polygon(a, target, obs)
    if seg is not None:
        p, q = seg
        assert math.hypot(p[0] - a.x, p[1] - a.y) <= a.r + 1e-7
        assert target.distance(shapely.Point(q)) <= 1e-7
        assert segment_clear(p, q, obs)
    u = np.linspace(0.05, 0.95, 5)
    minx, miny, maxx, maxy = target.bounds
    grid = np.asarray([(minx + s * (maxx - minx), miny + t * (maxy - miny)) for s in u for t in u])
    grid = grid[shapely.contains_xy(target, grid[:, 0], grid[:, 1])]
    if len(grid) == 0:
        return
    pa = _sample_points(a)
    p = np.repeat(pa, len(grid), axis=0)
    q = np.tile(grid, (len(pa), 1))
    if _oracle_clear(p, q, obs).any():
        assert seg is not None
