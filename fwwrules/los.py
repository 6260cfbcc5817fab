"""Line of sight (``ranged.los``, ``ranged.los.models``, ``ranged.los.huge``).

LoS exists when some straight segment, seen from above, joins any point of the attacker's base
to any point of the target (base, terrain piece or point) without crossing the interior of
anything that blocks LoS for this shot:

* terrain whose kind for the shot is ``blocking`` or ``dense-area`` (``terrain.kinds``), touching
  pieces merged into one solid;
* a Huge model's base, when the smaller of attacker and target is smaller than it
  (``ranged.los.huge``); Normal and Large models never block (``ranged.los.models``);
* Significant Edges, for shots to or from an Elevated model standing more than Orange from the
  edge (``elevation.edge-blocks-los``).

It is decided exactly by :func:`fwwrules.geometry.find_clear_segment`, never by sampling.

Boundary cases
--------------
* A segment that only grazes a blocker (touches a corner, runs along an edge, is tangent to a
  Huge base) is not blocked.
* The piece a model stands on never blocks its shots (``elevation.standing-on``); a terrain
  target never blocks the view of itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import shapely
from shapely.geometry import LineString, MultiPoint, Point

from .board import SIZE_RANK
from .geometry import find_clear_segment, find_clear_segment_to_polygon
from .rulings import Reason, Segment
from .scenario import Scenario
from .shot import Shot, Target, build_shot
from .terrain import merged


@dataclass(frozen=True, slots=True)
class LosResult:
    """``visible`` with a ``witness`` segment (mm) when true; the ``blockers`` in the way."""

    visible: bool
    witness: Segment | None
    blockers: tuple[str, ...]
    reasons: tuple[Reason, ...]


def _hull(shot: Shot) -> shapely.Geometry:
    a = (
        Point(shot.a.x, shot.a.y).buffer(shot.a.r, quad_segs=8)
        if shot.a.r > 0
        else Point(shot.a.x, shot.a.y)
    )
    if shot.b_polygon is not None:
        other: shapely.Geometry = shot.b_polygon
    else:
        assert shot.b is not None
        other = (
            Point(shot.b.x, shot.b.y).buffer(shot.b.r, quad_segs=8)
            if shot.b.r > 0
            else (Point(shot.b.x, shot.b.y))
        )
    # The 8-segment buffers lie inside the true circles: widen by the sagitta so the hull
    # covers them (cos(pi/16) of the radius is the inner distance).
    pad = max(shot.a.r, shot.b.r if shot.b is not None else 0.0) * 0.02 + 1e-3
    return MultiPoint([]).union(a).union(other).convex_hull.buffer(pad)


def obstacles(shot: Shot) -> tuple[list[Any], list[str]]:
    """The LoS obstacles for a shot near the attacker and target, with their labels."""
    board = shot.scenario.board
    hull = _hull(shot)
    obs: list[Any] = []
    labels: list[str] = []
    for solid in merged(board, shot.kinds, los=True).near(hull):
        if solid.geometry.intersects(hull):
            obs.append(solid.geometry)
            labels.append(solid.label)
    smaller = shot.smaller_rank
    for mid, mg in board.models.items():
        if mid in (shot.attacker, shot.target) or mg.size != "huge":
            continue
        if smaller < SIZE_RANK[mg.size] and hull.distance(Point(mg.disc.x, mg.disc.y)) < mg.disc.r:
            obs.append(mg.disc)
            labels.append(mid)
    for edge in shot.context.los_edges:
        line = LineString([edge.a, edge.b])
        if line.intersects(hull):
            obs.append(line)
            labels.append(f"{edge.terrain}:{edge.side}")
    return obs, labels


def shot_line_of_sight(shot: Shot) -> LosResult:
    """``ranged.los`` for a prepared :class:`~fwwrules.shot.Shot`."""
    obs, labels = obstacles(shot)
    if shot.b_polygon is not None:
        witness = find_clear_segment_to_polygon(shot.a, shot.b_polygon, obs)
    else:
        assert shot.b is not None
        witness = find_clear_segment(shot.a, shot.b, obs)
    values = {"attacker": shot.attacker, "target": shot.target}
    reasons: list[Reason] = []
    board = shot.scenario.board
    p, q = shot.loc
    loc = LineString([p, q])
    for mid, mg in board.models.items():
        # ranged.los.models: Normal and Large models on the way are no obstacle.
        if mid in (shot.attacker, shot.target) or mg.size == "huge":
            continue
        if loc.distance(Point(mg.disc.x, mg.disc.y)) < mg.disc.r:
            reasons.append(Reason("ranged.los.models", "", {"model": mid}))
    if witness is not None:
        reasons.append(Reason("ranged.los", "clear", values))
        return LosResult(True, witness, (), tuple(reasons))
    reasons.append(Reason("ranged.los", "blocked", {**values, "blockers": labels or ["-"]}))
    for label in labels:
        if label in shot.scenario.board.models:
            reasons.append(Reason("ranged.los.huge", "", {"model": label}))
    return LosResult(False, None, tuple(labels), tuple(reasons))


def line_of_sight(scenario: Scenario, viewer: str, seen: Target) -> LosResult:
    """``ranged.los``: can ``viewer`` see ``seen`` (a model id, terrain id or point)?"""
    return shot_line_of_sight(build_shot(scenario, viewer, seen))


def has_line_of_sight(scenario: Scenario, viewer: str, seen: Target) -> bool:
    """Thin boolean helper beside :func:`line_of_sight`."""
    return line_of_sight(scenario, viewer, seen).visible
