"""One shot's geometry: who shoots at what, and how the terrain looks for that shot.

A target is a model id, a terrain piece id, or a point ``(x, y)`` in scenario units
(``ranged.los``: "a target may also be a terrain object or a point").

Boundary cases
--------------
* The Line of Cover runs from the attacker's centre to the target's centre; for a terrain
  target that is a point inside the piece (its centroid when inside, else the middle of the
  piece's stretch along the ray from the centroid through the nearest point of the piece:
  :func:`~fwwrules.geometry.inner_point`, which moves with the board), for a point target
  the point itself.
* Elevation (``elevation.*``) applies between two models; shots at terrain or a point are
  taken at table level.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from shapely.geometry import Point, Polygon

from .arguments import point
from .board import Disc
from .data import Scenario
from .elevation import ShotContext, shot_context
from .errors import QueryError, UnknownIdError
from .geometry import inner_point
from .pieces import Model, TargetKind
from .refs import ModelRef, PointRef, TargetRef, TerrainRef
from .terrain import KindMap, shot_kinds_pair

Target = str | tuple[float, float]


@dataclass(frozen=True, slots=True, eq=False)
class Shot:
    """Everything geometric about one attack, in millimetres.

    ``attacker`` is the attacking model and ``target_model`` the target model (``None`` for a
    terrain piece or a point); ``target`` names what is shot at (:mod:`fwwrules.refs`): a
    :class:`~fwwrules.refs.ModelRef`, a :class:`~fwwrules.refs.TerrainRef` of one piece, or a
    :class:`~fwwrules.refs.PointRef` in scenario units. The rules read the models from here,
    never looking them up again by id.
    """

    scenario: Scenario
    attacker: Model
    target_model: Model | None
    target: TargetRef
    target_type: TargetKind
    a: Disc
    b: Disc | None
    b_polygon: Polygon | None
    loc: tuple[tuple[float, float], tuple[float, float]]
    huge_involved: bool
    context: ShotContext
    kinds: KindMap
    cover_kinds: KindMap
    attacker_id: str
    """The attacker's id (``attacker.id``, kept: the rules ask it many times per shot)."""
    target_id: str
    """The target's id: a model's or terrain piece's id, or ``point(x,y)`` (the JSON's;
    ``target.name``, kept)."""

    @property
    def smaller_diameter(self) -> float:
        """Base diameter (mm) of the smaller of attacker and target (``ranged.los.huge``).

        A point or terrain target has no base: only the attacker's counts.
        """
        diameters = [2 * self.a.r]
        if self.target_type == "model" and self.b is not None:
            diameters.append(2 * self.b.r)
        return min(diameters)

    def target_distances(self) -> tuple[float, float]:
        """Nearest and farthest distance (mm) from the attacker's base edge to the target."""
        ax, ay = self.a.x, self.a.y
        if self.b is not None:
            d = math.hypot(self.b.x - ax, self.b.y - ay)
            return (d - self.a.r - self.b.r, d - self.a.r + self.b.r)
        assert self.b_polygon is not None
        centre = Point(ax, ay)
        near = self.b_polygon.distance(centre) - self.a.r
        far = max(math.hypot(x - ax, y - ay) for x, y in self.b_polygon.exterior.coords) - self.a.r
        return (near, far)


def build_shot(scenario: Scenario, attacker: str | Model, target: Target) -> Shot:
    """Resolve ``attacker`` (an id or the model) and ``target`` into a :class:`Shot` (raises on
    unknown ids)."""
    board = scenario.board
    a_model = attacker if isinstance(attacker, Model) else scenario.model(attacker)
    a = board.models[a_model.id].disc
    b: Disc | None = None
    poly: Polygon | None = None
    t_model: Model | None = None
    ref: TargetRef
    kind: TargetKind
    if not isinstance(target, str):
        x, y = point(target, "the target point")
        b = Disc(x * scenario.unit_mm, y * scenario.unit_mm, 0.0)
        ref, kind, end = PointRef(x, y), "point", (b.x, b.y)
    elif target in board.models:
        if target == a_model.id:
            raise QueryError(f"{a_model.id!r} cannot target itself")
        b = board.models[target].disc
        t_model = scenario.model(target)
        ref, kind, end = ModelRef(target), "model", (b.x, b.y)
    elif target in board.terrain:
        poly = board.terrain[target].polygon
        ref, kind, end = TerrainRef((target,)), "terrain", inner_point(poly)
    else:
        known = list(board.models) + list(board.terrain)
        raise UnknownIdError("target", str(target), known, scenario.source)
    huge_target = kind == "model" and board.models[ref.name].size == "huge"
    huge = board.models[a_model.id].size == "huge" or huge_target
    ctx = shot_context(scenario, a_model.id, ref.name) if kind == "model" else ShotContext.flat()
    excluded = set(ctx.excluded)
    if kind == "terrain":
        excluded.add(ref.name)
    kinds, cover_kinds = shot_kinds_pair(
        board,
        attacker_huge=board.models[a_model.id].size == "huge",
        target_huge=huge_target,
        elevated_kind=ctx.elevated_kind,
        excluded=excluded,
        out_of_sight=ctx.out_of_sight,
    )
    return Shot(
        scenario=scenario,
        attacker=a_model,
        target_model=t_model,
        target=ref,
        target_type=kind,
        a=a,
        b=b,
        b_polygon=poly,
        loc=((a.x, a.y), end),
        huge_involved=huge,
        context=ctx,
        kinds=kinds,
        cover_kinds=cover_kinds,
        attacker_id=a_model.id,
        target_id=ref.name,
    )
