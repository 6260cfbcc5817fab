"""The board's geometry in millimetres, derived once from a :class:`~fwwrules.scenario.Scenario`.

Rules never re-derive geometry: they read the :class:`Board` that the scenario built when it
was made. Bases are exact circles (:class:`Disc`); terrain pieces are shapely polygons,
prepared, and indexed in an STRtree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import shapely
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from .constants import SIZE_CLASS_TOLERANCE_MM

if TYPE_CHECKING:
    from .elevation import SignificantEdge
    from .scenario import Scenario, Terrain

SizeClass = Literal["normal", "large", "huge"]
SIZE_RANK: Mapping[str, int] = {"normal": 0, "large": 1, "huge": 2}

TERRAIN_CIRCLE_QUAD_SEGMENTS = 32
"""Segments per quarter circle for *terrain* circles (bases stay exact circles)."""


def size_class(diameter_mm: float) -> SizeClass:
    """``size.classes``: below 40 mm Normal, 40 mm up to under 60 mm Large, 60 mm or more Huge.

    >>> size_class(32), size_class(30), size_class(40), size_class(59.9), size_class(60)
    ('normal', 'normal', 'large', 'large', 'huge')
    >>> size_class(1.5748 * 25.4)  # a 40 mm base written in inches
    'large'
    """
    if diameter_mm >= 60.0 - SIZE_CLASS_TOLERANCE_MM:
        return "huge"
    if diameter_mm >= 40.0 - SIZE_CLASS_TOLERANCE_MM:
        return "large"
    return "normal"


def smaller_base(diameter_mm: float, than_mm: float) -> bool:
    """True when a base of ``diameter_mm`` is smaller than one of ``than_mm``.

    ``ranged.los.huge`` and ``cover.huge`` compare base diameters, not size classes: an 80 mm
    Huge model is bigger than a 60 mm Huge one. Differences up to
    :data:`~fwwrules.constants.SIZE_CLASS_TOLERANCE_MM` count as equal.

    >>> smaller_base(60, 80), smaller_base(60, 60), smaller_base(59.995, 60), smaller_base(80, 60)
    (True, False, False, False)
    """
    return diameter_mm < than_mm - SIZE_CLASS_TOLERANCE_MM


@dataclass(frozen=True, slots=True)
class Disc:
    """An exact circle: centre ``(x, y)`` and radius ``r``, in millimetres."""

    x: float
    y: float
    r: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x, self.y)

    def gap(self, other: Disc) -> float:
        """Edge-to-edge distance; negative when the discs overlap.

        >>> Disc(0, 0, 16).gap(Disc(40, 0, 20))
        4.0
        """
        return math.hypot(self.x - other.x, self.y - other.y) - self.r - other.r


@dataclass(frozen=True, slots=True)
class ModelGeometry:
    id: str
    disc: Disc
    elevation: float
    size: SizeClass


@dataclass(frozen=True, slots=True, eq=False)
class TerrainGeometry:
    """A terrain piece in millimetres. ``polygon`` is prepared for fast predicates."""

    id: str
    kind: str
    polygon: Polygon
    height: float | None
    huge: str | None
    elevated: str | None


@dataclass(frozen=True, slots=True, eq=False)
class Board:
    """Everything geometric about a scenario, in millimetres."""

    models: Mapping[str, ModelGeometry]
    terrain: Mapping[str, TerrainGeometry]
    terrain_ids: tuple[str, ...]
    tree: STRtree
    contact_tolerance: float
    significant_edges: tuple[SignificantEdge, ...] = ()
    """``elevation.significant-edge``: every Significant Edge, computed once (elevation.py)."""
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)
    """Derived geometry memoised per key (merged pieces per set of ids), filled on first use."""

    def terrain_near(self, geom: shapely.Geometry) -> list[TerrainGeometry]:
        """Terrain whose bounding box meets ``geom``'s (an STRtree query), in file order."""
        idx = sorted(int(i) for i in self.tree.query(geom))
        return [self.terrain[self.terrain_ids[i]] for i in idx]


def terrain_polygon(t: Terrain, unit_mm: float) -> Polygon:
    """A terrain piece's outline in millimetres."""
    from .scenario import Circle, Rect

    s = t.shape
    if isinstance(s, Rect):
        w, h = s.size[0] * unit_mm / 2, s.size[1] * unit_mm / 2
        a = math.radians(s.angle)
        ca, sa = math.cos(a), math.sin(a)
        cx, cy = s.at[0] * unit_mm, s.at[1] * unit_mm
        corners = [(-w, -h), (w, -h), (w, h), (-w, h)]
        return Polygon([(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in corners])
    if isinstance(s, Circle):
        c = Point(s.at[0] * unit_mm, s.at[1] * unit_mm)
        return c.buffer(s.diameter * unit_mm / 2, quad_segs=TERRAIN_CIRCLE_QUAD_SEGMENTS)
    return Polygon([(x * unit_mm, y * unit_mm) for x, y in s])


def build_board(scenario: Scenario) -> Board:
    from .elevation import significant_edges_of

    u = scenario.unit_mm
    models = {
        m.id: ModelGeometry(
            id=m.id,
            disc=Disc(m.at[0] * u, m.at[1] * u, m.base * u / 2),
            elevation=m.elevation * u,
            size=size_class(m.base * u),
        )
        for m in scenario.models
    }
    terrain: dict[str, TerrainGeometry] = {}
    for t in scenario.terrain:
        poly = terrain_polygon(t, u)
        shapely.prepare(poly)
        terrain[t.id] = TerrainGeometry(
            id=t.id,
            kind=t.kind,
            polygon=poly,
            height=None if t.height is None else t.height * u,
            huge=t.huge,
            elevated=t.elevated,
        )
    ids = tuple(terrain)
    tree = STRtree([terrain[i].polygon for i in ids])
    return Board(
        models=models,
        terrain=terrain,
        terrain_ids=ids,
        tree=tree,
        contact_tolerance=scenario.contact_tolerance_mm,
        significant_edges=significant_edges_of(terrain.values(), scenario.ruler_mm("orange")),
    )
