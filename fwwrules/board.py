"""The board's geometry in millimetres, derived from a :class:`~fwwrules.data.Scenario`, and
:class:`Derived`, the one typed cache of everything derived from a scenario.

Rules never re-derive geometry: they read the :class:`Board` (``scenario.board``), built on first
use and kept in the scenario's :class:`Derived` cache. Bases are exact circles (:class:`Disc`);
terrain pieces are shapely polygons, prepared, and indexed in an STRtree. Building a scenario
computes nothing here; a changed scenario (``dataclasses.replace``) starts with an empty cache,
so nothing stale survives a move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import shapely
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from .constants import BOARD_MARGIN_MM, SIZE_CLASS_TOLERANCE_MM
from .elevation import significant_edges_of
from .pieces import Circle, Model, Rect, Terrain

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from .elevation import SignificantEdge, _EdgeArrays
    from .geometry import Prepared
    from .los import PairSight
    from .terrain import KindMap, SolidSet
    from .threat import _Part

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
    kind: str  # a TerrainKind, or a Huge / elevated variant's kind
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
    orange_mm: float
    """The Orange ruler in mm (Significant Edges and levels are measured with it)."""
    ruler_tolerance: float
    """Every comparison against a ruler length allows this much (mm; the contact tolerance)."""
    derived: Derived
    """The scenario's cache; the board's own derived parts (edges, merged solids) live there."""

    @property
    def significant_edges(self) -> tuple[SignificantEdge, ...]:
        """``elevation.significant-edge``: every Significant Edge, computed on first use."""
        d = self.derived
        if d.significant_edges is None:
            d.significant_edges = significant_edges_of(
                self.terrain.values(), self.orange_mm, self.ruler_tolerance
            )
        return d.significant_edges

    def terrain_near(self, geom: shapely.Geometry) -> list[TerrainGeometry]:
        """Terrain whose bounding box meets ``geom``'s (an STRtree query), in file order."""
        idx = sorted(int(i) for i in self.tree.query(geom))
        return [self.terrain[self.terrain_ids[i]] for i in idx]


class Derived:
    """The one cache of everything derived from one scenario, each entry filled on first use.

    A :class:`~fwwrules.data.Scenario` holds one, empty when the scenario is built; the module
    that owns an entry fills it (named below). Entries never change once filled, so a race
    between two threads at worst computes one twice.

    * ``board``: the :class:`Board` (this module);
    * ``terrain``: the terrain pieces in mm and their STRtree (this module, for the board);
    * ``labels``: display name by weapon, model and terrain id (``data.Scenario.display_names``,
      the names the catalogue shows for the ids in reason params);
    * ``engagements``: the engagement graph (``engagement``, ``melee.engaged``);
    * ``significant_edges`` and ``edge_arrays``: Significant Edges and their numpy form
      (``elevation``);
    * ``pieces_under``: the pieces under each model (``elevation.standing-on``);
    * ``kinds``: each piece's effective kind per kind of shot (``terrain``);
    * ``solids``: merged solids per set of kinds, for LoS and for cover (``terrain``);
    * ``prepared``: the obstacles' edge arrays and eroded cores per shapely geometry
      (``geometry.Prepared``, filled through ``geometry.prepared_for`` by ``los`` and
      ``cover``);
    * ``sight``: the LoS witness per unordered pair of models and obstacles (``los``);
    * ``threat_parts``: convex parts of each merged solid, by the solid's ``id`` (the entry
      holds the solid, so the id cannot be reused while cached) (``threat``);
    * ``threat_walls``: the LoS blockers eroded as one, per set of kinds (``threat``).

    :data:`TERRAIN_ENTRIES` depend on the terrain (and units and rulers) only: a scenario whose
    models alone moved (:func:`fwwrules.placement.move_model`) starts with them
    (:meth:`carry_terrain`), so dragging a model recomputes neither terrain geometry, merged
    solids nor Significant Edges.
    """

    __slots__ = (
        "board",
        "edge_arrays",
        "engagements",
        "kinds",
        "labels",
        "pieces_under",
        "prepared",
        "sight",
        "significant_edges",
        "solids",
        "terrain",
        "threat_parts",
        "threat_walls",
    )

    def __init__(self) -> None:
        self.board: Board | None = None
        self.terrain: TerrainPart | None = None
        self.labels: Mapping[str, str] | None = None
        self.engagements: Mapping[str, tuple[str, ...]] | None = None
        self.significant_edges: tuple[SignificantEdge, ...] | None = None
        self.edge_arrays: _EdgeArrays | None = None
        self.pieces_under: dict[str, tuple[str, ...]] = {}
        self.kinds: dict[tuple[object, ...], KindMap] = {}
        self.solids: dict[tuple[object, ...], SolidSet] = {}
        self.prepared: Prepared | None = None
        self.sight: dict[tuple[object, ...], PairSight] = {}
        self.threat_parts: dict[int, tuple[BaseGeometry, tuple[_Part, ...]]] = {}
        self.threat_walls: dict[tuple[object, ...], BaseGeometry | None] = {}

    def carry_terrain(self, old: Derived) -> None:
        """Take over ``old``'s :data:`TERRAIN_ENTRIES` (shared, not copied).

        Only for the cache of a scenario that differs from ``old``'s in model positions and
        nothing else (same terrain tuple, units, tolerances and rulers; what
        :func:`fwwrules.placement.move_model` makes). Entries that depend on where models
        stand (``board``'s models, ``sight``, ``engagements``, ``pieces_under``) start empty.
        Boundary case: entries ``old`` has not computed yet stay empty here too (and are then
        computed separately by each scenario).
        """
        for name in TERRAIN_ENTRIES:
            setattr(self, name, getattr(old, name))


TERRAIN_ENTRIES: tuple[str, ...] = (
    "terrain",
    "significant_edges",
    "edge_arrays",
    "kinds",
    "solids",
    "prepared",
    "threat_parts",
    "threat_walls",
)
"""The :class:`Derived` entries computed from the terrain alone (never from the models)."""


@dataclass(frozen=True, slots=True, eq=False)
class TerrainPart:
    """The terrain of a board in mm: each piece by id, the ids in file order, their STRtree."""

    pieces: Mapping[str, TerrainGeometry]
    ids: tuple[str, ...]
    tree: STRtree


def terrain_polygon(t: Terrain, unit_mm: float) -> Polygon:
    """A terrain piece's outline in millimetres."""
    s = t.shape
    if isinstance(s, Rect):
        return Polygon(s.corners(unit_mm))
    if isinstance(s, Circle):
        c = Point(s.at[0] * unit_mm, s.at[1] * unit_mm)
        return c.buffer(s.diameter * unit_mm / 2, quad_segs=TERRAIN_CIRCLE_QUAD_SEGMENTS)
    return Polygon([(x * unit_mm, y * unit_mm) for x, y in s])


def build_board(
    models: Sequence[Model],
    terrain: Sequence[Terrain],
    *,
    unit_mm: float,
    contact_tolerance_mm: float,
    orange_mm: float,
    derived: Derived,
    ruler_tolerance_mm: float | None = None,
) -> Board:
    """The board in mm (``Scenario.board`` calls it once, on first use). The terrain part
    comes from ``derived.terrain`` when a moved scenario kept it (:meth:`Derived.carry_terrain`)."""
    u = unit_mm
    geo = {
        m.id: ModelGeometry(
            id=m.id,
            disc=Disc(m.at[0] * u, m.at[1] * u, m.base * u / 2),
            elevation=m.elevation * u,
            size=size_class(m.base * u),
        )
        for m in models
    }
    part = derived.terrain
    if part is None:
        pieces: dict[str, TerrainGeometry] = {}
        for t in terrain:
            poly = terrain_polygon(t, u)
            shapely.prepare(poly)
            pieces[t.id] = TerrainGeometry(
                id=t.id,
                kind=t.kind,
                polygon=poly,
                height=None if t.height is None else t.height * u,
                huge=t.huge,
                elevated=t.elevated,
            )
        ids = tuple(pieces)
        part = TerrainPart(pieces, ids, STRtree([pieces[i].polygon for i in ids]))
        derived.terrain = part
    return Board(
        models=geo,
        terrain=part.pieces,
        terrain_ids=part.ids,
        tree=part.tree,
        contact_tolerance=contact_tolerance_mm,
        orange_mm=orange_mm,
        ruler_tolerance=contact_tolerance_mm if ruler_tolerance_mm is None else ruler_tolerance_mm,
        derived=derived,
    )


def board_limits(
    board: Board, size_mm: tuple[float, float] | None = None, margin_mm: float = BOARD_MARGIN_MM
) -> tuple[float, float, float, float]:
    """``(xmin, xmax, ymin, ymax)`` of the table in mm.

    With a table size (the scenario's ``board: {size: [w, h]}``, here in mm) the table runs
    from the origin ``[0, 0]`` to ``[w, h]``. Without one: the bounding box of every base and
    terrain piece plus ``margin_mm`` on each side; an empty board is ``(0, 100, 0, 100)``.

    >>> b = build_board([Model("a", "x", 32, (50, 50))], [], unit_mm=1.0,
    ...     contact_tolerance_mm=0.5, orange_mm=50.8, derived=Derived())
    >>> board_limits(b, margin_mm=10)
    (24.0, 76.0, 24.0, 76.0)
    >>> board_limits(b, (1200.0, 900.0))
    (0.0, 1200.0, 0.0, 900.0)
    """
    if size_mm is not None:
        return (0.0, float(size_mm[0]), 0.0, float(size_mm[1]))
    xs: list[float] = []
    ys: list[float] = []
    for g in board.models.values():
        d = g.disc
        xs += [d.x - d.r, d.x + d.r]
        ys += [d.y - d.r, d.y + d.r]
    for t in board.terrain.values():
        x0, y0, x1, y1 = t.polygon.bounds
        xs += [x0, x1]
        ys += [y0, y1]
    if not xs:
        return (0.0, 100.0, 0.0, 100.0)
    return (min(xs) - margin_mm, max(xs) + margin_mm, min(ys) - margin_mm, max(ys) + margin_mm)
