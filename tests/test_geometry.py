"""Boundary cases of the exact geometry core (fwwrules.geometry), named after the clauses."""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Polygon, box

from fwwrules.board import Disc
from fwwrules.constants import LENGTH_EPSILON_MM
from fwwrules.geometry import (
    Passage,
    chord_length,
    disc_passage,
    distance_to_disc,
    find_clear_segment,
    find_clear_segment_to_polygon,
    interior_length,
    merge_touching,
    passage,
    segment_clear,
    segment_edge_crossing,
)

A = Disc(0.0, 0.0, 16.0)
B = Disc(200.0, 0.0, 16.0)


def _in_disc(p: tuple[float, float], d: Disc) -> bool:
    return math.hypot(p[0] - d.x, p[1] - d.y) <= d.r + 1e-7


def _in_geom(p: tuple[float, float], g: Polygon) -> bool:
    return g.distance(shapely.Point(p)) <= 1e-7


def _assert_witness(seg, a: Disc, b: Disc, obstacles) -> None:
    assert seg is not None
    assert _in_disc(seg[0], a), seg
    assert _in_disc(seg[1], b), seg
    assert segment_clear(seg[0], seg[1], obstacles)


def _sampled_los(a: Disc, b: Disc, obstacles, n: int = 32) -> bool:
    """Perimeter sampling: the oracle the exact method must never contradict."""
    ang = np.linspace(0, 2 * np.pi, n, endpoint=False)
    pa = [(a.x + a.r * math.cos(t), a.y + a.r * math.sin(t)) for t in ang]
    pb = [(b.x + b.r * math.cos(t), b.y + b.r * math.sin(t)) for t in ang]
    return any(segment_clear(p, q, obstacles) for p in pa for q in pb)


def _slit(width: float) -> list[Polygon]:
    """Two blocks leaving a slanted slit (slope 0.1) of the given vertical width at x 80..120."""
    w = width / 2
    up = Polygon([(80, -2 + w), (120, 2 + w), (120, 60), (80, 60)])
    lo = Polygon([(80, -60), (120, -60), (120, 2 - w), (80, -2 - w)])
    return [up, lo]


# --- ranged.los ---------------------------------------------------------------------------------


def test_ranged_los_no_obstacles_gives_centre_segment() -> None:
    assert find_clear_segment(A, B, []) == ((0.0, 0.0), (200.0, 0.0))


def test_ranged_los_prefers_centre_segment_when_clear() -> None:
    assert find_clear_segment(A, B, [box(90, 5, 110, 50)]) == ((0.0, 0.0), (200.0, 0.0))


def test_ranged_los_full_wall_blocks() -> None:
    assert find_clear_segment(A, B, [box(90, -100, 110, 100)]) is None


@pytest.mark.parametrize("width", [0.8, 0.2, 0.01])
def test_ranged_los_finds_submillimetre_oblique_gap(width: float) -> None:
    walls = _slit(width)
    assert not segment_clear(A.center, B.center, walls)  # the centre line hits the blocks
    seg = find_clear_segment(A, B, walls)
    _assert_witness(seg, A, B, walls)


def test_ranged_los_submillimetre_gap_missed_by_sampling() -> None:
    walls = _slit(0.05)
    assert not _sampled_los(A, B, walls, n=16)  # sampling misses it ...
    assert find_clear_segment(A, B, walls) is not None  # ... the exact method does not


def test_ranged_los_closed_slit_blocks() -> None:
    # the same slit closed by an overlap of 0.01 mm: no straight gap at all
    assert find_clear_segment(A, B, _slit(-0.01)) is None


def test_ranged_los_staggered_walls_no_gap() -> None:
    walls = [box(60, -100, 70, 30), box(130, -30, 140, 100)]
    assert find_clear_segment(A, B, walls) is None
    assert not _sampled_los(A, B, walls)


def test_ranged_los_staggered_walls_with_diagonal_gap() -> None:
    walls = [box(60, -100, 70, 2), box(130, -2, 140, 100)]
    seg = find_clear_segment(A, B, walls)
    _assert_witness(seg, A, B, walls)


@pytest.mark.parametrize("angle", [0.0, 17.0, 33.0, 90.0, 141.0])
def test_ranged_los_walls_touching_at_a_corner_let_it_graze_through(angle: float) -> None:
    # two walls meet only at (100, 0); the line through that corner grazes both
    walls = [box(90, -100, 100, 0), box(100, 0, 110, 100)]
    rot = [affinity.rotate(w, angle, origin=(100, 0)) for w in walls]
    pa = affinity.rotate(shapely.Point(0, 30), angle, origin=(100, 0))
    pb = affinity.rotate(shapely.Point(200, -30), angle, origin=(100, 0))
    a, b = Disc(pa.x, pa.y, 4.0), Disc(pb.x, pb.y, 4.0)
    seg = find_clear_segment(a, b, rot)
    _assert_witness(seg, a, b, rot)


def test_ranged_los_grazing_corner_is_not_blocked() -> None:
    # the only way past is the tangent line that grazes the block's corner (100, 16)
    block = box(90, -100, 110, 16)
    seg = find_clear_segment(A, B, [block])
    _assert_witness(seg, A, B, [block])
    assert find_clear_segment(A, B, [box(90, -100, 110, 16.001)]) is None


def test_ranged_los_huge_tangent_base_is_not_blocking() -> None:
    huge = [Disc(100, 25, 25), Disc(100, -25, 25)]  # they touch on the centre line
    assert find_clear_segment(A, B, huge) == ((0.0, 0.0), (200.0, 0.0))
    assert find_clear_segment(A, B, [Disc(100, 24.99, 25), Disc(100, -25, 25)]) is None


def test_ranged_los_huge_base_only_tangent_lines_pass() -> None:
    # a Huge base that leaves only the common outer tangent of a and b free
    huge = Disc(100, -25, 41)  # reaches up to y = 16: tangent to the top tangent line
    seg = find_clear_segment(A, B, [huge])
    _assert_witness(seg, A, B, [huge])
    assert find_clear_segment(A, B, [Disc(100, -25, 41.001)]) is None


def test_ranged_los_obstacle_overlapping_attacker_base() -> None:
    # a post through the attacker's centre: the segment may start beside it
    post = box(-5, -100, 5, 100)
    seg = find_clear_segment(Disc(0, 0, 20), B, [post])
    _assert_witness(seg, Disc(0, 0, 20), B, [post])


def test_ranged_los_touching_bases_always_see_each_other() -> None:
    a, b = Disc(0, 0, 16), Disc(32, 0, 16)
    wall = box(10, -100, 22, 100)  # covers the contact point's surroundings
    seg = find_clear_segment(a, b, [wall])
    assert seg is not None and seg[0] == seg[1] == (16.0, 0.0)
    overlapping = find_clear_segment(a, Disc(31.5, 0, 16), [wall])
    assert overlapping is not None and _in_disc(overlapping[0], Disc(31.5, 0, 16))


def test_ranged_los_obstacle_with_hole() -> None:
    ring = Polygon(
        [(-100, -100), (300, -100), (300, 100), (-100, 100)],
        [[(-50, -50), (250, -50), (250, 50), (-50, 50)]],
    )
    assert find_clear_segment(A, B, [ring]) == ((0.0, 0.0), (200.0, 0.0))
    assert find_clear_segment(A, Disc(200, 200, 16), [ring]) is None


def test_ranged_los_multipolygon_obstacle() -> None:
    walls = MultiPolygon([box(60, -100, 70, 30), box(130, -30, 140, 100)])
    assert find_clear_segment(A, B, [walls]) is None


def test_ranged_los_wall_edge_crossed_blocks_touching_does_not() -> None:
    edge = LineString([(100, -100), (100, 100)])
    assert find_clear_segment(A, B, [edge]) is None
    short = LineString([(100, -100), (100, 16)])  # its end touches the top tangent
    seg = find_clear_segment(A, B, [short])
    _assert_witness(seg, A, B, [short])
    assert find_clear_segment(A, B, [LineString([(100, -100), (100, 16.001)])]) is None


def test_ranged_los_point_target() -> None:
    pt = Disc(200, 0, 0.0)
    assert find_clear_segment(A, pt, [box(90, -100, 110, 100)]) is None
    seg = find_clear_segment(A, pt, [box(90, -100, 110, 5)])
    _assert_witness(seg, A, pt, [box(90, -100, 110, 5)])


def test_ranged_los_is_symmetric_on_the_slit() -> None:
    walls = _slit(0.2)
    assert (find_clear_segment(A, B, walls) is None) == (find_clear_segment(B, A, walls) is None)


def test_ranged_los_terrain_target() -> None:
    target = box(190, -5, 200, 5)
    assert find_clear_segment_to_polygon(A, target, [box(90, -100, 110, 100)]) is None
    wall = box(90, -100, 110, 8)
    seg = find_clear_segment_to_polygon(A, target, [wall])
    assert seg is not None and _in_disc(seg[0], A) and _in_geom(seg[1], target)
    assert segment_clear(seg[0], seg[1], [wall])
    assert find_clear_segment_to_polygon(A, target, [box(90, -100, 110, 14)]) is None


def test_ranged_los_terrain_target_behind_slit() -> None:
    walls = _slit(0.1)
    target = Polygon([(190, 5), (200, 5), (200, 15), (190, 15)])
    seg = find_clear_segment_to_polygon(A, target, walls)
    assert seg is not None and _in_geom(seg[1], target) and segment_clear(*seg, walls)


def test_ranged_los_terrain_target_touching_base() -> None:
    target = box(16, -5, 30, 5)
    seg = find_clear_segment_to_polygon(A, target, [box(5, -50, 40, 50)])
    assert seg is not None and seg[0] == seg[1]


# --- cover.line ---------------------------------------------------------------------------------


def test_cover_line_crossing_piece() -> None:
    pas = passage((-5, 5), (15, 5), box(0, 0, 10, 10))
    assert pas == Passage("crossed", 10.0, ((0.0, 5.0), (10.0, 5.0)))


def test_cover_line_grazing_corner_is_not_crossing() -> None:
    crate = box(0, 0, 10, 10)
    assert passage((0, 20), (20, 0), crate).how == "grazed"
    assert interior_length((0, 20), (20, 0), crate) == 0.0
    rot = affinity.rotate(crate, 27, origin=(3, 1))
    c = rot.exterior.coords[2]
    # a line through a computed corner, turned so it only touches
    cx, cy = rot.centroid.x, rot.centroid.y
    dx, dy = c[0] - cx, c[1] - cy
    p = (c[0] - dy * 5, c[1] + dx * 5)
    q = (c[0] + dy * 5, c[1] - dx * 5)
    assert passage(p, q, rot).how == "grazed"


def test_cover_line_along_edge_is_not_crossing() -> None:
    crate = box(0, 0, 10, 10)
    assert passage((-5, 10), (15, 10), crate).how == "grazed"
    rot = affinity.rotate(crate, 33, origin=(0, 0))
    (x0, y0), (x1, y1) = rot.exterior.coords[0], rot.exterior.coords[1]
    p = (x0 - (x1 - x0), y0 - (y1 - y0))
    q = (x1 + (x1 - x0), y1 + (y1 - y0))
    assert passage(p, q, rot).how == "grazed"
    assert interior_length(p, q, rot) == 0.0


def test_cover_line_half_mm_corner_clip_counts() -> None:
    crate = box(0, 0, 10, 10)
    # cut the corner (10, 0): enters at (9.5, 0), leaves at (10, 0.5)
    pas = passage((9, -0.5), (11, 1.5), crate)
    assert pas.how == "crossed"
    assert pas.inside_length == pytest.approx(math.sqrt(0.5))
    assert np.ravel(pas.points) == pytest.approx([9.5, 0.0, 10.0, 0.5])


def test_cover_line_clip_below_epsilon_is_grazing() -> None:
    crate = box(0, 0, 10, 10)
    d = LENGTH_EPSILON_MM / 4
    assert passage((10 - d - 1, -1), (10 + 1, d + 1), crate).how == "grazed"


def test_cover_line_target_standing_on_piece_is_entered() -> None:
    desk = box(0, 0, 10, 10)
    assert passage((-20, 5), (5, 5), desk).how == "entered"
    assert passage((5, 5), (20, 5), desk).how == "exited"
    assert passage((2, 5), (8, 5), desk).how == "inside"
    assert passage((-20, 50), (5, 50), desk).how == "none"


def test_cover_line_concave_piece_crossed_then_entered() -> None:
    u_shape = Polygon([(0, 0), (30, 0), (30, 10), (20, 10), (20, 2), (10, 2), (10, 10), (0, 10)])
    pas = passage((-5, 5), (25, 5), u_shape)
    assert pas.how == "crossed"
    assert pas.inside_length == pytest.approx(15.0)
    assert len(pas.points) == 3


def test_cover_line_seam_between_touching_crates_is_inside() -> None:
    crates = [("c1", box(0, 0, 10, 10)), ("c2", box(10, 0, 20, 10))]
    assert passage((10, -5), (10, 15), crates[0][1]).how == "grazed"  # apart: just an edge
    merged = merge_touching(crates)
    assert [ids for ids, _ in merged] == [("c1", "c2")]
    pas = passage((10, -5), (10, 15), merged[0][1])
    assert pas.how == "crossed"
    assert pas.inside_length == pytest.approx(10.0, abs=1e-5)


def test_cover_line_seam_between_rotated_touching_crates_is_inside() -> None:
    c1 = affinity.rotate(box(0, 0, 10, 10), 31, origin=(0, 0))
    c2 = affinity.rotate(box(10, 0, 20, 10), 31, origin=(0, 0))
    merged = merge_touching([("c1", c1), ("c2", c2)])
    assert len(merged) == 1
    g = merged[0][1]
    assert isinstance(g, Polygon) and not g.interiors
    s0 = affinity.rotate(shapely.Point(10, -5), 31, origin=(0, 0))
    s1 = affinity.rotate(shapely.Point(10, 15), 31, origin=(0, 0))
    assert passage((s0.x, s0.y), (s1.x, s1.y), g).how == "crossed"


def test_terrain_merge_keeps_apart_pieces_apart_and_order() -> None:
    pieces = [("a", box(0, 0, 1, 1)), ("b", box(5, 5, 6, 6)), ("c", box(1, 0, 2, 1))]
    merged = merge_touching(pieces)
    assert [ids for ids, _ in merged] == [("a", "c"), ("b",)]
    assert merged[1][1] is pieces[1][1]
    corner = merge_touching([("x", box(0, 0, 1, 1)), ("y", box(1, 1, 2, 2))])  # corner contact
    assert [ids for ids, _ in corner] == [("x", "y")]
    apart = merge_touching([("x", box(0, 0, 1, 1)), ("y", box(1.01, 0, 2, 1))])
    assert [ids for ids, _ in apart] == [("x",), ("y",)]


def test_cover_models_tangent_base_not_crossed() -> None:
    base = Disc(50, 16, 16)
    assert disc_passage((0, 0), (100, 0), base).how == "grazed"
    assert chord_length((0, 0), (100, 0), base) == 0.0
    # a tangent computed with rounding noise is still a tangent
    ang = 0.3
    n = (math.cos(ang), math.sin(ang))
    c = n[0] * 50 + n[1] * 16 - 16
    u = (-n[1], n[0])
    p = (c * n[0] - 80 * u[0], c * n[1] - 80 * u[1])
    q = (c * n[0] + 80 * u[0], c * n[1] + 80 * u[1])
    assert disc_passage(p, q, base).how == "grazed"


def test_cover_models_base_crossed_entered() -> None:
    base = Disc(50, 0, 16)
    pas = disc_passage((0, 0), (100, 0), base)
    assert pas.how == "crossed" and pas.inside_length == pytest.approx(32.0)
    assert np.ravel(pas.points) == pytest.approx([34.0, 0.0, 66.0, 0.0])
    assert disc_passage((0, 0), (50, 0), base).how == "entered"
    assert disc_passage((0, 0), (34, 0), base).how == "grazed"  # ends on the rim
    assert disc_passage((50, 0), (100, 0), base).how == "exited"
    assert disc_passage((0, 50), (100, 50), base).how == "none"


def test_cover_models_small_chord_counts() -> None:
    base = Disc(50, 15.9, 16)  # the line cuts 0.1 mm deep
    assert disc_passage((0, 0), (100, 0), base).how == "crossed"
    assert chord_length((0, 0), (100, 0), base) == pytest.approx(2 * math.sqrt(16**2 - 15.9**2))


def test_cover_line_multipolygon_counts_once_per_stretch() -> None:
    two = MultiPolygon([box(10, -5, 20, 5), box(30, -5, 40, 5)])
    pas = passage((0, 0), (50, 0), two)
    assert pas.how == "crossed" and pas.inside_length == pytest.approx(20.0)
    assert len(pas.points) == 4


# --- elevation.significant-edge (walls) and helpers ---------------------------------------------


def test_elevation_significant_edge_crossing_point() -> None:
    edge = LineString([(-10, 0), (10, 0)])
    assert segment_edge_crossing((0, -5), (0, 5), edge) == pytest.approx((0.0, 0.0))
    assert segment_edge_crossing((0, 0), (0, 5), edge) is None  # starts on it
    assert segment_edge_crossing((0, -5), (0, 0), edge) is None  # ends on it
    assert segment_edge_crossing((10, -5), (10, 5), edge) is None  # through its endpoint
    assert segment_edge_crossing((-20, 0), (20, 0), edge) is None  # along it
    assert segment_edge_crossing((20, -5), (20, 5), edge) is None  # misses


def test_cover_shooter_contact_distance_to_disc() -> None:
    assert distance_to_disc(box(20, -5, 30, 5), Disc(0, 0, 16)) == pytest.approx(4.0)
    assert distance_to_disc(box(16, -5, 30, 5), Disc(0, 0, 16)) == pytest.approx(0.0)
    assert distance_to_disc(box(-5, -5, 30, 5), Disc(0, 0, 16)) == pytest.approx(-16.0)


def test_ranged_los_segment_clear_zero_length() -> None:
    assert segment_clear((5, 5), (5, 5), [box(0, 0, 10, 10)])


def test_ranged_los_l_shaped_blocker_spanning_the_corridor() -> None:
    # a non-convex piece whose foot spans the corridor: the quick "no" must see it
    ell = Polygon([(90, -100), (110, -100), (110, 60), (60, 60), (60, 40), (90, 40)])
    assert find_clear_segment(A, B, [ell]) is None
    # the same shape with a notch through the foot: a straight gap at y = 0
    notched = ell.difference(box(85, -0.5, 115, 0.5))
    seg = find_clear_segment(A, B, [notched])
    _assert_witness(seg, A, B, [notched])


def test_ranged_los_blocker_touching_a_base_still_decided() -> None:
    # a wall that reaches into the attacker's base cannot serve the quick "no"; the exact
    # search decides: the base's far side sees past the wall's end
    wall = box(10, -100, 30, 10)
    seg = find_clear_segment(A, B, [wall])
    _assert_witness(seg, A, B, [wall])
    assert find_clear_segment(A, B, [box(10, -100, 30, 100)]) is None


def test_ranged_los_huge_base_spanning_the_corridor() -> None:
    assert find_clear_segment(A, B, [Disc(100, 0, 40)]) is None
    assert find_clear_segment(Disc(0, 0, 30), Disc(200, 0, 30), [Disc(100, 0, 29)]) is not None


def test_elevation_edge_blocks_los_through_the_joint_of_two_wall_pieces() -> None:
    """Two edge pieces meeting at (0, 0): through the joint is a crossing, touching is not."""
    walls = [LineString([(-10, -10), (0, 0)]), LineString([(0, 0), (10, -10)])]
    # Through the joint, with one piece on each side of the segment: blocked.
    assert not segment_clear((0, 10), (0, -20), walls)
    # Through the joint, both pieces on one side (touching the corner from outside): clear.
    assert segment_clear((-20, 0), (20, 0), walls)
    # A straight edge split in two: through the split point is a crossing.
    split = [LineString([(-10, 0), (0, 0)]), LineString([(0, 0), (10, 0)])]
    assert not segment_clear((0, 10), (0, -10), split)


def test_exhaustive_search_in_small_batches_finds_the_same_segment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The exhaustive LoS search builds its candidate lines in bounded batches (memory stays
    flat however many corners the obstacles have); batching never changes the answer: staggered
    columns of round pieces that block every straight line, and the same with one gap open."""
    from shapely.geometry import Point as P

    import fwwrules.geometry as geometry

    def columns(open_gap: bool) -> list[object]:
        obs: list[object] = []
        for c in range(2):
            for k in range(6):
                if open_gap and c == 1 and k == 2:
                    continue
                y = 500 - 5 * 35 + k * 70 + (35 if c else 0)
                obs.append(P(500 + c * 62, y).buffer(30, quad_segs=4))
        return obs

    a, b = Disc(100, 500, 150), Disc(1000, 500, 150)
    for open_gap in (False, True):
        obs = columns(open_gap)
        whole = geometry.find_clear_segment(a, b, obs)  # type: ignore[arg-type]
        monkeypatch.setattr(geometry, "_LINES_PER_BATCH", 7)
        batched = geometry.find_clear_segment(a, b, obs)  # type: ignore[arg-type]
        monkeypatch.undo()
        assert batched == whole
        assert (whole is not None) is open_gap
