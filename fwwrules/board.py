"""The board's geometry in millimetres, derived from a :class:`~fwwrules.data.Scenario`.

Rules never re-derive geometry: they read the :class:`Board` (``scenario.board``), built on first
use and kept in the scenario's cache (:data:`BOARD`, :mod:`fwwrules.cache`). Bases are exact
circles (:class:`Disc`); terrain pieces are shapely polygons, prepared, and indexed in an
STRtree (:data:`TERRAIN`, shared by every scenario with the same terrain). Building a scenario
computes nothing here; a changed scenario (``dataclasses.replace``) starts with an empty cache,
so nothing stale survives a move.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

import shapely
from shapely.geometry import Point, Polygon
from shapely.strtree import STRtree

from .cache import Derived, Key, Moved
from .constants import (
    BOARD_MARGIN_MM,
    HUGE_BASE_MM,
    LARGE_BASE_MM,
    NORMAL_BASE_MM,
    SIZE_CLASS_TOLERANCE_MM,
)
from .pieces import Bounds, Circle, Model, Rect, Terrain

SizeClass = Literal["normal", "large", "huge"]
SIZE_RANK: Mapping[str, int] = {"normal": 0, "large": 1, "huge": 2}
BASE_SIZES_MM: Mapping[str, float] = MappingProxyType(
    {"normal": NORMAL_BASE_MM, "large": LARGE_BASE_MM, "huge": HUGE_BASE_MM}
)
"""``size.classes``: the rulebook's base of each class (Normal 32 mm, Large 40 mm, Huge 60 mm),
the sizes the editor offers; :func:`size_class` gives each its own class."""

TERRAIN_CIRCLE_QUAD_SEGMENTS = 32
"""Segments per quarter circle for *terrain* circles (bases stay exact circles)."""


def size_class(diameter_mm: float) -> SizeClass:
    """``size.classes``: below 40 mm Normal, 40 mm up to under 60 mm Large, 60 mm or more Huge.

    >>> size_class(32), size_class(30), size_class(40), size_class(59.9), size_class(60)
    ('normal', 'normal', 'large', 'large', 'huge')
    >>> size_class(1.5748 * 25.4)  # a 40 mm base written in inches
    'large'
    """
    if diameter_mm >= HUGE_BASE_MM - SIZE_CLASS_TOLERANCE_MM:
        return "huge"
    if diameter_mm >= LARGE_BASE_MM - SIZE_CLASS_TOLERANCE_MM:
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
    """The scenario's cache (:mod:`fwwrules.cache`): what the rules derive from this board
    (Significant Edges, merged solids ...) is kept there."""
    terrain_extent: tuple[float, float, float, float] | None
    """The terrain's bounding box in mm (xmin, ymin, xmax, ymax; None without terrain),
    measured once with the terrain (:class:`TerrainPart`)."""

    def terrain_near(self, geom: shapely.Geometry) -> list[TerrainGeometry]:
        """Terrain whose bounding box meets ``geom``'s (an STRtree query), in file order."""
        idx = sorted(int(i) for i in self.tree.query(geom))
        return [self.terrain[self.terrain_ids[i]] for i in idx]


@dataclass(frozen=True, slots=True, eq=False)
class TerrainPart:
    """The terrain of a board in mm: each piece by id, the ids in file order, their STRtree."""

    pieces: Mapping[str, TerrainGeometry]
    ids: tuple[str, ...]
    tree: STRtree
    extent: tuple[float, float, float, float] | None
    """The pieces' bounding box (xmin, ymin, xmax, ymax; None without terrain)."""


def terrain_polygon(t: Terrain, unit_mm: float) -> Polygon:
    """A terrain piece's outline in millimetres."""
    s = t.shape
    if isinstance(s, Rect):
        return Polygon(s.corners(unit_mm))
    if isinstance(s, Circle):
        c = Point(s.at[0] * unit_mm, s.at[1] * unit_mm)
        return c.buffer(s.diameter * unit_mm / 2, quad_segs=TERRAIN_CIRCLE_QUAD_SEGMENTS)
    return Polygon([(x * unit_mm, y * unit_mm) for x, y in s])


def model_geometry(m: Model, unit_mm: float) -> ModelGeometry:
    """One model's base in mm: an exact circle, its elevation and size class."""
    u = unit_mm
    return ModelGeometry(
        id=m.id,
        disc=Disc(m.at[0] * u, m.at[1] * u, m.base * u / 2),
        elevation=m.elevation * u,
        size=size_class(m.base * u),
    )


def _terrain_part(terrain: Sequence[Terrain], unit_mm: float) -> TerrainPart:
    u = unit_mm
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
    boxes = [pieces[i].polygon.bounds for i in ids]
    extent = (
        (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )
        if boxes
        else None
    )
    return TerrainPart(pieces, ids, STRtree([pieces[i].polygon for i in ids]), extent)


def _carry_board(old: Board, moved: Moved) -> Board:
    """The board of ``moved.new``: ``old``'s terrain part, the other models' geometry, and the
    moved (or added) models' geometry made anew."""
    new = moved.new
    kept = {
        m.id: old.models[m.id]
        if m.id in old.models and m.id not in moved.ids
        else model_geometry(m, new.unit_mm)
        for m in new.models
    }
    return dataclasses.replace(old, models=kept, derived=new.derived)


TERRAIN: Key[TerrainPart] = Key("terrain", terrain_only=True)
"""The terrain pieces in mm and their STRtree (:class:`TerrainPart`)."""

BOARD: Key[Board] = Key("board", terrain_only=False, carry=_carry_board)
"""The :class:`Board` (``Scenario.board``); a moved scenario's replaces the moved models."""


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
    comes from the cache (:data:`TERRAIN`) when a moved scenario kept it
    (:meth:`~fwwrules.cache.Derived.carry_moved`)."""
    u = unit_mm
    geo = {m.id: model_geometry(m, u) for m in models}
    part = derived.get(TERRAIN)
    if part is None:
        part = derived.put(TERRAIN, _terrain_part(terrain, u))
    return Board(
        models=geo,
        terrain=part.pieces,
        terrain_ids=part.ids,
        tree=part.tree,
        contact_tolerance=contact_tolerance_mm,
        orange_mm=orange_mm,
        ruler_tolerance=contact_tolerance_mm if ruler_tolerance_mm is None else ruler_tolerance_mm,
        derived=derived,
        terrain_extent=part.extent,
    )


def board_limits(
    board: Board, size_mm: tuple[float, float] | None = None, margin_mm: float = BOARD_MARGIN_MM
) -> Bounds:
    """The table's :class:`~fwwrules.pieces.Bounds` in mm.

    With a table size (the scenario's ``board: {size: [w, h]}``, here in mm) the table runs
    from the origin ``[0, 0]`` to ``[w, h]``. Without one: the bounding box of every base and
    terrain piece plus ``margin_mm`` on each side; an empty board is ``(0, 0, 100, 100)``.

    >>> b = build_board([Model("a", "x", 32, (50, 50))], [], unit_mm=1.0,
    ...     contact_tolerance_mm=0.5, orange_mm=50.8, derived=Derived())
    >>> board_limits(b, margin_mm=10)
    Bounds(xmin=24.0, ymin=24.0, xmax=76.0, ymax=76.0)
    >>> board_limits(b, (1200.0, 900.0))
    Bounds(xmin=0.0, ymin=0.0, xmax=1200.0, ymax=900.0)
    """
    if size_mm is not None:
        return Bounds(0.0, 0.0, float(size_mm[0]), float(size_mm[1]))
    xs: list[float] = []
    ys: list[float] = []
    for g in board.models.values():
        d = g.disc
        xs += [d.x - d.r, d.x + d.r]
        ys += [d.y - d.r, d.y + d.r]
    if board.terrain_extent is not None:  # the terrain's, measured once (every piece's box)
        x0, y0, x1, y1 = board.terrain_extent
        xs += [x0, x1]
        ys += [y0, y1]
    if not xs:
        return Bounds(0.0, 0.0, 100.0, 100.0)
    m = margin_mm
    return Bounds(min(xs) - m, min(ys) - m, max(xs) + m, max(ys) + m)
