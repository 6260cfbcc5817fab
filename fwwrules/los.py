"""Line of sight (``ranged.los``, ``ranged.los.models``, ``ranged.los.huge``).

LoS exists when some straight segment, seen from above, joins any point of the attacker's base
to any point of the target (base, terrain piece or point) without crossing the interior of
anything that blocks LoS for this shot:

* terrain whose kind for the shot is ``blocking`` or ``dense-area`` (``terrain.kinds``), touching
  pieces merged into one solid;
* a Huge model's base, when the smaller base of attacker and target has a smaller diameter
  than it (``ranged.los.huge``: diameters, not size classes, so an 80 mm model blocks the
  line between two 60 mm ones; a point or terrain target has no base, only the attacker's
  counts); Normal and Large models never block (``ranged.los.models``);
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

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from .board import Disc, smaller_base
from .cache import Key
from .context import AttackContext
from .data import Scenario
from .elevation import SignificantEdge
from .geometry import (
    Obstacle,
    find_clear_segment,
    find_clear_segment_to_polygon,
    point_segment_distance,
    prepared_for,
)
from .pieces import Model, ModelRef, PieceRef
from .rulings import Facts, Reason, Seen, Segment, Step
from .shot import Shot, Target, build_shot
from .terrain import merged

PairSight = tuple[Segment | None, tuple[PieceRef, ...]]
"""What the LoS search keeps per pair (:data:`SIGHT`): the witness and the blockers."""

SIGHT: Key[dict[tuple[object, ...], PairSight]] = Key("sight", terrain_only=False, make=dict)
"""The LoS witness and blockers per unordered pair of models and set of obstacles."""


@dataclass(frozen=True, slots=True)
class LosResult(Seen):
    """What the search found (:class:`~fwwrules.rulings.Seen`: ``visible`` with a ``witness``
    segment (mm) when true; the ``blockers`` in the way) and the ``reasons`` that say so."""

    reasons: tuple[Reason, ...]

    def step(self) -> Step:
        """The common step contract: ``ranged.los`` refuses the attack when nothing is seen;
        the ruling keeps what was found (``facts.seen``)."""
        refusals = () if self.visible else ("ranged.los",)
        return Step(refusals=refusals, reasons=self.reasons, facts=Facts(seen=self))


def sight_step(ctx: AttackContext) -> Step:
    """``ranged.los`` for one attack, as the ruling folds it: :func:`shot_line_of_sight` of the
    context's shot."""
    return shot_line_of_sight(ctx.shot).step()


def _box(shot: Shot) -> shapely.Geometry:
    """The bounding box of attacker and target: a cheap first filter for obstacles."""
    a = shot.a
    if shot.b_polygon is not None:
        bx0, by0, bx1, by1 = shot.b_polygon.bounds
    else:
        assert shot.b is not None
        b = shot.b
        bx0, by0, bx1, by1 = b.x - b.r, b.y - b.r, b.x + b.r, b.y + b.r
    return shapely.box(
        min(a.x - a.r, bx0), min(a.y - a.r, by0), max(a.x + a.r, bx1), max(a.y + a.r, by1)
    )


def _hull(shot: Shot) -> shapely.Geometry:
    """The convex hull of attacker and target (for naming blockers): each circle as a
    32-gon widened so that it contains the true circle."""
    points = [_ring(shot.a)]
    if shot.b_polygon is not None:
        points.append(np.asarray(shot.b_polygon.exterior.coords))
    else:
        assert shot.b is not None
        points.append(_ring(shot.b))
    return shapely.multipoints(np.concatenate(points)).convex_hull


_RING = np.linspace(0.0, 2.0 * math.pi, 32, endpoint=False)
_RING_COS, _RING_SIN = np.cos(_RING), np.sin(_RING)
_WIDEN = 1.0 / math.cos(math.pi / 32)
"""A regular 32-gon with this circumradius factor contains its circle."""


def _ring(d: Disc) -> np.ndarray[Any, np.dtype[np.float64]]:
    r = d.r * _WIDEN + 1e-3
    out = np.empty((len(_RING), 2))
    out[:, 0] = d.x + r * _RING_COS
    out[:, 1] = d.y + r * _RING_SIN
    return out


Blocking = tuple[PieceRef, Obstacle]
"""A blocker's reference and its obstacle (a solid, a Huge base or a Significant Edge's line)."""


@dataclass(frozen=True, slots=True, eq=False)
class SightPositions:
    """One shooter and a target base of radius ``rt`` (mm) wherever it stands, as the blocker
    rules' vector forms see them: the shot's kinds (``terrain.kinds``) and the Significant
    Edges that act as walls (none for a flat shot, the only kind the threat map's fast path
    takes)."""

    scenario: Scenario
    shooter: str
    a: Disc
    rt: float
    kinds: Mapping[str, str]
    los_edges: tuple[SignificantEdge, ...] = ()


@dataclass(frozen=True, slots=True)
class BlockerRule:
    """One kind of line-of-sight blocker: its name, the clause that makes it block, the
    obstacles it puts between one shot's attacker and target (``obstacles(shot, box)``, ``box``
    the bounding box of the two; a superset is fine), and its vector form: every obstacle it
    may put between the shooter and the target wherever the target stands (``None`` from the
    form, or no form: the exact path decides those cells)."""

    name: str
    clause: str
    obstacles: Callable[[Shot, shapely.Geometry], list[Blocking]]
    vector: Callable[[SightPositions], list[Blocking] | None] | None = None


def _terrain(shot: Shot, box: shapely.Geometry) -> list[Blocking]:
    """``ranged.los`` / ``terrain.kinds``: pieces whose kind for the shot blocks (``blocking``,
    ``dense-area``), touching blockers merged into one solid."""
    solids = merged(shot.scenario.board, shot.kinds, los=True).near(box)
    return [(solid.ref, solid.geometry) for solid in solids]


def _terrain_v(p: SightPositions) -> list[Blocking]:
    solids = merged(p.scenario.board, p.kinds, los=True).solids
    return [(solid.ref, solid.geometry) for solid in solids]


def huge_blocks(smaller_diameter: float, huge_diameter: float) -> bool:
    """``ranged.los.huge``: a Huge base blocks the line when the smaller base of attacker and
    target has a smaller diameter than it (diameters, not size classes)."""
    return smaller_base(smaller_diameter, huge_diameter)


def _huge(shot: Shot, box: shapely.Geometry) -> list[Blocking]:
    """``ranged.los.huge``: Huge bases near the line between the two (``ranged.los.models``:
    Normal and Large bases never block)."""
    board = shot.scenario.board
    smaller = shot.smaller_diameter
    (px, py), (qx, qy) = shot.loc
    reach = max(shot.a.r, shot.b.r if shot.b is not None else _polygon_reach(shot))
    out: list[Blocking] = []
    ends = (shot.attacker_id, shot.target_id)
    x0, x1, y0, y1 = min(px, qx), max(px, qx), min(py, qy), max(py, qy)
    for mid, mg in board.models.items():
        if mid in ends or mg.size != "huge" or not huge_blocks(smaller, 2 * mg.disc.r):
            continue
        d = mg.disc
        far = d.r + reach  # nearer than this to the line: in the way
        if d.x - far >= x1 or d.x + far <= x0 or d.y - far >= y1 or d.y + far <= y0:
            continue  # the box around the line is already that far
        if point_segment_distance((d.x, d.y), (px, py), (qx, qy)) < far:
            out.append((ModelRef(mid), d))
    return out


def _huge_v(p: SightPositions) -> list[Blocking]:
    smaller = min(2 * p.a.r, 2 * p.rt)
    return [
        (ModelRef(mid), mg.disc)
        for mid, mg in p.scenario.board.models.items()
        if mid != p.shooter and mg.size == "huge" and huge_blocks(smaller, 2 * mg.disc.r)
    ]


EDGE_LINES: Key[dict[SignificantEdge, LineString]] = Key("edge_lines", terrain_only=True, make=dict)
"""Each Significant Edge part as one line, made once per terrain: the same object every shot,
so that its wall is prepared once (:class:`~fwwrules.geometry.Prepared` keys by object)."""


def _edges(shot: Shot, box: shapely.Geometry) -> list[Blocking]:
    """``elevation.edge-blocks-los``: Significant Edges between the two models' levels, more
    than Orange from the Elevated model, act as walls."""
    edges = shot.context.los_edges
    if not edges:
        return []
    known = shot.scenario.derived.entry(EDGE_LINES)
    lines = []
    for edge in edges:
        line = known.get(edge)
        if line is None:
            line = known[edge] = LineString([edge.a, edge.b])
        lines.append(line)
    meets = shapely.intersects(np.asarray([*lines, None], dtype=object)[:-1], box)
    return [(e.ref, line) for e, line, m in zip(edges, lines, meets, strict=True) if m]


def _edges_v(p: SightPositions) -> list[Blocking] | None:
    return [] if not p.los_edges else None


BLOCKERS: tuple[BlockerRule, ...] = (
    BlockerRule("terrain", "ranged.los", _terrain, _terrain_v),
    BlockerRule("huge", "ranged.los.huge", _huge, _huge_v),
    BlockerRule("edges", "elevation.edge-blocks-los", _edges, _edges_v),
)
"""What blocks line of sight, in the order the obstacles are gathered (and blockers named)."""


def obstacles(shot: Shot) -> tuple[list[Obstacle], list[PieceRef]]:
    """The LoS obstacles that may lie between attacker and target (:data:`BLOCKERS`), with
    their references.

    A superset is fine (the exact search restricts to the hull itself); nothing that meets
    the hull of the two bases may be left out.
    """
    box = _box(shot)
    found = [b for rule in BLOCKERS for b in rule.obstacles(shot, box)]
    return [o for _, o in found], [ref for ref, _ in found]


def obstacles_v(p: SightPositions) -> list[Blocking] | None:
    """Every obstacle that may stand between the shooter and the target wherever it stands
    (the vector forms of :data:`BLOCKERS`); ``None`` when some rule has none for this shot."""
    out: list[Blocking] = []
    for rule in BLOCKERS:
        found = rule.vector(p) if rule.vector is not None else None
        if found is None:
            return None
        out.extend(found)
    return out


def _polygon_reach(shot: Shot) -> float:
    """How far a terrain target reaches from the Line of Cover's end (a disc around it)."""
    assert shot.b_polygon is not None
    qx, qy = shot.loc[1]
    return max(math.hypot(x - qx, y - qy) for x, y in shot.b_polygon.exterior.coords)


def _meets(obstacle: Any, hull: shapely.Geometry) -> bool:
    if isinstance(obstacle, Disc):
        return bool(hull.distance(Point(obstacle.x, obstacle.y)) < obstacle.r)
    return bool(obstacle.intersects(hull))


def _search(shot: Shot) -> tuple[Segment | None, list[PieceRef]]:
    """The witness segment (or ``None``) and the obstacles meeting the hull."""
    key: tuple[Any, ...] | None = None
    if shot.target_type == "model":
        pair = tuple(sorted((shot.attacker_id, shot.target_id)))
        edges = tuple((e.terrain, e.index, e.a, e.b) for e in shot.context.los_edges)
        key = ("los-pair", pair, shot.kinds.signature, edges)
        memo = shot.scenario.derived.entry(SIGHT)
        if key in memo:
            witness, labels = memo[key]
            if witness is not None and pair[0] != shot.attacker_id:
                witness = (witness[1], witness[0])
            return witness, list(labels)
    obs, names = obstacles(shot)
    prep = prepared_for(shot.scenario.derived)
    if shot.b_polygon is not None:
        witness = find_clear_segment_to_polygon(shot.a, shot.b_polygon, obs, prepared=prep)
    else:
        assert shot.b is not None
        witness = find_clear_segment(shot.a, shot.b, obs, prepared=prep)
    if witness is None:
        hull = _hull(shot)
        # Each blocker named once (a piece's many edge parts facing one way share a name).
        met = (label for label, o in zip(names, obs, strict=True) if _meets(o, hull))
        found = list(dict.fromkeys(met))
    else:
        found = []
    if key is not None:
        stored = witness
        if witness is not None and key[1][0] != shot.attacker_id:
            stored = (witness[1], witness[0])
        shot.scenario.derived.entry(SIGHT)[key] = (stored, tuple(found))
    return witness, found


def shot_line_of_sight(shot: Shot) -> LosResult:
    """``ranged.los`` for a prepared :class:`~fwwrules.shot.Shot`.

    Between two models the answer is symmetric (every obstacle rule of this module is), so
    it is memoised on the board per unordered pair and per set of obstacles: the return shot
    reuses the search, with the witness reversed.
    """
    witness, labels = _search(shot)
    values = {"attacker": shot.attacker_id, "target": shot.target}
    reasons: list[Reason] = []
    board = shot.scenario.board
    p, q = shot.loc
    x0, x1, y0, y1 = min(p[0], q[0]), max(p[0], q[0]), min(p[1], q[1]), max(p[1], q[1])
    ends = (shot.attacker_id, shot.target_id)
    for mid, mg in board.models.items():
        # ranged.los.models: Normal and Large models on the way are no obstacle.
        if mid in ends or mg.size == "huge":
            continue
        d = mg.disc
        if d.x + d.r < x0 or d.x - d.r > x1 or d.y + d.r < y0 or d.y - d.r > y1:
            continue
        if point_segment_distance((d.x, d.y), p, q) < d.r:
            reasons.append(Reason("ranged.los.models", "", {"model": mid}))
    if witness is not None:
        reasons.append(Reason("ranged.los", "clear", values))
        return LosResult(True, witness, (), tuple(reasons))
    blockers: list[PieceRef | str] = [*labels] or ["-"]
    reasons.append(Reason("ranged.los", "blocked", {**values, "blockers": blockers}))
    for ref in labels:
        if isinstance(ref, ModelRef):
            huge = {
                "model": ref.id,
                "diameter": round(2 * board.models[ref.id].disc.r, 2),
                "smaller": round(shot.smaller_diameter, 2),
            }
            reasons.append(Reason("ranged.los.huge", "", huge))
    return LosResult(False, None, tuple(labels), tuple(reasons))


def line_of_sight(scenario: Scenario, viewer: str | Model, seen: Target) -> LosResult:
    """``ranged.los``: can ``viewer`` (an id or the model) see ``seen`` (a model id, terrain id
    or point)?"""
    return shot_line_of_sight(build_shot(scenario, viewer, seen))


def has_line_of_sight(scenario: Scenario, viewer: str | Model, seen: Target) -> bool:
    """Thin boolean helper beside :func:`line_of_sight`."""
    return line_of_sight(scenario, viewer, seen).visible
