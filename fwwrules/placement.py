"""Where a base may stand, decided once; and placing a base by hand.

**The placement rule** (``elevation.standing-on``, ``cover.line``'s desk, the geometry
conventions), one definition for ``fwwrules check``, the ruling, the threat map, every panel's
drag and the editor, in a vector form (many positions at once, :func:`placeable_v`) whose
one-position case is the scalar form (:func:`clashes_at`, :func:`pieces_stood_on`):

* Two bases on one level (elevations less than Orange apart, as ``melee.engaged`` has it:
  :func:`~fwwrules.thresholds.levels_apart`) may not overlap by more than the contact
  tolerance (:func:`~fwwrules.thresholds.overlapping`); a base exactly that far in is in
  contact. Bases on different levels (a model on a gantry above one on the ground) may share
  a footprint.
* A base whose centre lies on a solid piece (declared kind ``blocking`` or ``cover``; inside
  its outline: a centre on the outline is half off the piece) **stands on it**: on a piece
  without a height at any elevation; on a piece with a height only at an elevation of at
  least that height (lower, it is refused: it would stand inside the piece). Any piece with
  a height above 0 under the centre is stood on at an elevation of at least its height
  (``elevation.standing-on``: area terrain of height 0, or any piece the model stands lower
  than, is stood *in*, not on).
* A base that overlaps a solid piece by more than the contact tolerance without standing on it
  (its centre off the piece) is refused, unless it stands at least as high as the piece's
  height (it overhangs the top); a piece without a height reaches every elevation.
* Area terrain (``area``, ``dense-area``) and scenery may hold bases anywhere.
* With a table size (``board: {size: [w, h]}``) every base lies on the table; touching an
  edge is on it (:func:`on_table_v`).

:func:`placement_problems` applies the rule to a whole :class:`~fwwrules.data.Scenario` and
names both pieces of each problem (:class:`Clash`): the file check turns them into messages
with the file and line; a board built in Python can be checked with the same function.

**Placing by hand**: panels and the board editor move bases with the mouse; these pure
functions say where such a move ends so that a base never breaks the placement rule and never
leaves the table.

* :func:`board_bounds`: the table ``(xmin, ymin, xmax, ymax)`` in scenario units: the
  scenario's ``board: {size: [w, h]}`` from the origin, or (without it) the contents' extent
  plus a margin.
* :func:`stop_at_contact`: move a base along the straight segment from where it stands toward
  a point and stop at the first contact with another base on its level (gap 0), at the edge
  of a solid piece it may not overlap, or at the table's edge.
* :func:`slide_at_contact`: what a mouse drag does: the straight move, and when it stops at a
  base or at the table's edge, the rest of the motion slides along what it touches (the base
  keeps the tangential part of the motion instead of sticking).
* :func:`place_by_hand` / :func:`hand_placement`: the drag as the panels use it, snapped and
  rounded; once the pointer's centre is over a solid piece (or a piece with a height) the
  model is put on it, at its height if it has one, and a model on a piece is put down off it
  once the pointer is at a place it may stand.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Literal

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from .arguments import number, point, scenario_object
from .cache import Key, Moved
from .constants import BOARD_MARGIN_MM, BOUNDARY_TOLERANCE_MM, LENGTH_EPSILON_MM
from .pieces import Bounds, ModelRef, TerrainRef
from .thresholds import levels_apart, overlapping

if TYPE_CHECKING:
    from .board import Board, Disc, TerrainGeometry
    from .data import Scenario

Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]

CONTENT_MARGIN_MM = BOARD_MARGIN_MM
"""Without a ``board`` size, the table is the contents' extent plus this on every side."""

SOLID_KINDS: frozenset[str] = frozenset({"blocking", "cover"})
"""The declared kinds of terrain a base may not overlap without standing on it."""

ClashHow = Literal["bases", "piece", "below"]


# --- the placement rule ---------------------------------------------------------------------


def same_level(board: Board, elevation_mm: Array | float, other_mm: Array | float) -> BoolArray:
    """Two bases stand on one level: their elevations (mm) are less than Orange apart
    (:func:`~fwwrules.thresholds.levels_apart`, ``elevation.elevated``: the level
    ``melee.engaged`` compares too)."""
    diff = np.abs(np.asarray(elevation_mm, dtype=float) - other_mm)
    return np.asarray(~levels_apart(diff, board.orange_mm, board.ruler_tolerance))


def _has_height(t: TerrainGeometry) -> bool:
    return t.height is not None and t.height > 0.0


def _at_top(t: TerrainGeometry, elevation_mm: Array) -> BoolArray:
    """Standing at least as high as the piece's height (never, for a piece without one)."""
    if not _has_height(t):
        return np.zeros(len(elevation_mm), dtype=bool)
    return np.asarray(elevation_mm >= float(t.height or 0.0) - LENGTH_EPSILON_MM)


def stands_on_v(t: TerrainGeometry, on: BoolArray, elevation_mm: Array) -> BoolArray:
    """``elevation.standing-on`` for one piece, at positions whose centre is on it (``on``): a
    piece with a height is stood on at an elevation of at least that height; a solid piece
    without one at any elevation."""
    if _has_height(t):
        return on & _at_top(t, elevation_mm)
    return on & (t.kind in SOLID_KINDS)


PIECE_CORES: Key[dict[str, BaseGeometry]] = Key("piece_cores", terrain_only=True, make=dict)
"""Each piece's outline eroded by :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM` (made on
first use): the centres that lie on the piece (:func:`centres_on`)."""


def centres_on(board: Board, t: TerrainGeometry, px: Array, py: Array) -> BoolArray:
    """Where a centre lies on the piece: inside its outline. A centre on the outline (within
    :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`, floating-point rounding) is not on it:
    touching a boundary is not entering the piece, and half the base would hang over the
    edge (``cover.line``: the piece a model stands on is the one its centre lies inside)."""
    cores = board.derived.entry(PIECE_CORES)
    core = cores.get(t.id)
    if core is None:
        core = shapely.buffer(t.polygon, -BOUNDARY_TOLERANCE_MM, join_style="mitre")
        shapely.prepare(core)
        cores[t.id] = core
    return np.asarray(shapely.contains_xy(core, px, py))


TALL_PIECES: Key[tuple[TerrainGeometry, ...]] = Key("tall_pieces", terrain_only=True)
"""The board's pieces with a height, in file order (:func:`standing_height_v` looks at these
alone; a drag asks it several times per motion)."""


def _tall(board: Board) -> tuple[TerrainGeometry, ...]:
    found = board.derived.get(TALL_PIECES)
    if found is None:
        tall = tuple(t for t in board.terrain.values() if _has_height(t))
        found = board.derived.put(TALL_PIECES, tall)
    return found


def standing_height_v(board: Board, px: Array, py: Array) -> Array:
    """The elevation (mm) a base placed by hand at each centre takes: the height of the highest
    piece with a height under it, 0 where there is none."""
    elev = np.zeros(len(px))
    for t in _tall(board):
        on = centres_on(board, t, px, py)
        elev = np.where(on, np.maximum(elev, float(t.height or 0.0)), elev)
    return elev


def pieces_stood_on(board: Board, x: float, y: float, elevation_mm: float) -> tuple[str, ...]:
    """``elevation.standing-on``: every piece a base centred at ``(x, y)`` mm at
    ``elevation_mm`` stands on, highest first (pieces without a height last; ties in file
    order). The one-position case of :func:`stands_on_v`.

    >>> from fwwrules import Model, Rect, Scenario, Terrain
    >>> desk = Terrain("desk", "cover", Rect((0.0, 0.0), (40.0, 40.0)))
    >>> roof = Terrain("roof", "blocking", Rect((0.0, 0.0), (90.0, 90.0)), height=60.0)
    >>> s = Scenario(models=(Model("a", "x", 32.0, (0.0, 0.0)),), terrain=(desk, roof))
    >>> pieces_stood_on(s.board, 0, 0, 60), pieces_stood_on(s.board, 0, 0, 0)
    (('roof', 'desk'), ('desk',))
    """
    px, py, ev = np.array([float(x)]), np.array([float(y)]), np.array([float(elevation_mm)])
    found = [
        t
        for t in board.terrain_near(Point(x, y))
        if bool(stands_on_v(t, centres_on(board, t, px, py), ev)[0])
    ]
    found.sort(key=lambda t: -float(t.height or 0.0))
    return tuple(t.id for t in found)


@dataclass(frozen=True, slots=True)
class Clash:
    """Why a base may not stand where it is: the model, the other base or piece, how
    (``bases``: two bases on one level overlap by more than the contact tolerance; ``piece``:
    the base overlaps a solid piece it does not stand on; ``below``: its centre is on a solid
    piece with a height, but it stands lower), and by how much in mm (the overlap; for
    ``below``, how far below the piece's top)."""

    model: str
    other: ModelRef | TerrainRef
    how: ClashHow
    mm: float

    def message(self, scenario: Scenario) -> str:
        """The problem in words, naming both (for ``fwwrules check``; English, as every file
        error is)."""
        tol = _length(scenario, scenario.board.contact_tolerance, ".3g", "g")
        by = _length(scenario, self.mm, ".2f", ".2f")
        if isinstance(self.other, ModelRef):
            return (
                f"the base of {self.model!r} overlaps {self.other.id!r} by {by} "
                f"(more than the contact tolerance {tol})"
            )
        t = scenario.board.terrain[self.other.ids[0]]
        piece = f"{t.kind} piece {t.id!r}"
        if self.how == "below":
            h = scenario.from_mm(float(t.height or 0.0))
            return (
                f"the centre of {self.model!r} lies on {piece} of height {h:g} "
                f"{scenario.units}, but the model stands {scenario.from_mm(self.mm):g} "
                f"{scenario.units} lower: a base whose centre is on a piece stands on top of it "
                f"(elevation at least {h:g})"
            )
        return (
            f"the base of {self.model!r} overlaps {piece} by {by} without standing "
            f"on it (its centre is off the piece; more than the contact tolerance {tol}): "
            "move the base off the piece, or its centre onto it"
        )


def _length(scenario: Scenario, mm: float, inches: str, millimetres: str) -> str:
    """A length of a file error in the file's units (format ``inches`` or ``millimetres``),
    with millimetres beside inches: the contact tolerance is given in the file's units, and
    an overlap is easier to see in millimetres."""
    if scenario.units == "mm":
        return f"{mm:{millimetres}} mm"
    return f"{scenario.from_mm(mm):{inches}} in ({mm:{millimetres}} mm)"


@dataclass(frozen=True, slots=True)
class _Solids:
    """The solid pieces (:data:`SOLID_KINDS`) of a board in file order, with their bounding
    boxes (mm, one row ``x0, y0, x1, y1`` each): the placement rule's candidates, found near a
    position without asking shapely piece by piece."""

    pieces: tuple[TerrainGeometry, ...]
    bounds: Array


SOLID_PIECES: Key[_Solids] = Key("solid_pieces", terrain_only=True)
"""The board's solid pieces and their bounding boxes (:class:`_Solids`)."""


def _solids(board: Board) -> _Solids:
    found = board.derived.get(SOLID_PIECES)
    if found is None:
        pieces = tuple(t for t in board.terrain.values() if t.kind in SOLID_KINDS)
        bounds = shapely.bounds([t.polygon for t in pieces]).reshape(len(pieces), 4)
        found = board.derived.put(SOLID_PIECES, _Solids(pieces, bounds))
    return found


def _piece_clashes(
    board: Board,
    px: Array,
    py: Array,
    r: float | Array,
    elevation_mm: Array,
    tol: float | None = None,
    skip: frozenset[str] = frozenset(),
) -> Iterator[tuple[ModelRef | TerrainRef, ClashHow, BoolArray, Array]]:
    """Per solid piece (those of ``skip`` left out) whose bounding box comes within ``r`` of
    some position: where a base stands below its top with the centre on it, and where it
    overlaps it by more than the contact tolerance with the centre off it and not above its
    height (masks and depths, mm). ``r``: one radius, or one per position. ``tol``: the
    contact tolerance (the board's by default; a drag stops at 0, at the edge itself). A piece
    farther off has no clash to give."""
    tol = board.contact_tolerance if tol is None else tol
    solids = _solids(board)
    x0, y0, x1, y1 = (solids.bounds[:, k] for k in range(4))
    rc = r[:, None] if isinstance(r, np.ndarray) else r  # per position: one row each
    near_all = (
        (px[:, None] >= x0 - rc)
        & (px[:, None] <= x1 + rc)
        & (py[:, None] >= y0 - rc)
        & (py[:, None] <= y1 + rc)
    )
    for k in np.flatnonzero(near_all.any(axis=0)):
        t = solids.pieces[k]
        if t.id in skip:
            continue
        near = near_all[:, k]
        on = centres_on(board, t, px, py) & near
        ref = TerrainRef((t.id,))
        if _has_height(t):
            below = on & ~_at_top(t, elevation_mm)
            yield ref, "below", below, float(t.height or 0.0) - elevation_mm
        idx = np.flatnonzero(near & ~on & ~_at_top(t, elevation_mm))
        gap = np.full(len(px), np.inf)
        if len(idx):
            reach = r[idx] if isinstance(r, np.ndarray) else r
            gap[idx] = shapely.distance(t.polygon, shapely.points(px[idx], py[idx])) - reach
        yield ref, "piece", overlapping(gap, tol), -gap


def _base_overlaps(
    board: Board,
    px: Array,
    py: Array,
    r: float | Array,
    elevation_mm: Array,
    skip: frozenset[str],
) -> tuple[list[str], BoolArray, Array]:
    """The other bases (ids, in file order; those of ``skip`` left out), and per position and
    base (rows, columns) whether a base on its level overlaps it by more than the contact
    tolerance, and the gap (mm; negative for an overlap). ``r``: one radius, or one per
    position."""
    ids = [mid for mid in board.models if mid not in skip]
    discs = [board.models[mid].disc for mid in ids]
    ox = np.array([d.x for d in discs], dtype=float)
    oy = np.array([d.y for d in discs], dtype=float)
    orad = np.array([d.r for d in discs], dtype=float)
    oev = np.array([board.models[mid].elevation for mid in ids], dtype=float)
    rc = r[:, None] if isinstance(r, np.ndarray) else r  # per position: one row each
    gap = np.hypot(px[:, None] - ox, py[:, None] - oy) - orad - rc
    level = same_level(board, np.asarray(elevation_mm, dtype=float)[:, None], oev)
    return ids, overlapping(gap, board.contact_tolerance) & level, gap


def _base_clashes(
    board: Board, px: Array, py: Array, r: float, elevation_mm: Array, skip: frozenset[str]
) -> Iterator[tuple[ModelRef | TerrainRef, ClashHow, BoolArray, Array]]:
    """Per other base: where a base on its level overlaps it by more than the contact
    tolerance (masks and overlaps, mm)."""
    ids, bad, gap = _base_overlaps(board, px, py, r, elevation_mm, skip)
    for j, mid in enumerate(ids):
        yield ModelRef(mid), "bases", bad[:, j], -gap[:, j]


def placeable_v(
    board: Board,
    px: Array,
    py: Array,
    r: float,
    elevation_mm: Array,
    skip: frozenset[str] = frozenset(),
    tol: float | None = None,
    skip_pieces: frozenset[str] = frozenset(),
) -> BoolArray:
    """The placement rule at many positions: where a base of radius ``r`` (mm) centred at
    ``(px, py)`` standing at ``elevation_mm`` may stand (the models of ``skip`` and the pieces
    of ``skip_pieces`` left out; ``tol``: the contact tolerance for the pieces, the board's by
    default)."""
    _, bases, _ = _base_overlaps(board, px, py, r, elevation_mm, skip)
    ok: BoolArray = np.asarray(~bases.any(axis=1), dtype=bool)
    for _, _, bad, _ in _piece_clashes(board, px, py, r, elevation_mm, tol, skip_pieces):
        ok &= ~bad
    return ok


def on_table_v(scenario: Scenario, px: Array, py: Array, r: float | Array) -> BoolArray:
    """Whether a base of radius ``r`` (mm; one, or one per position) centred at ``(px, py)``
    (mm) lies on the table: everywhere without a table size; with ``board: {size: [w, h]}``,
    the whole base inside ``[0, w] x [0, h]``. A base touching an edge is on the table (within
    :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`); a hair over it is off.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 40.0, (20.0, 50.0)),), board_size=(100.0, 100.0))
    >>> on_table_v(s, np.array([20.0, 19.9, 80.0]), np.array([50.0, 50.0, 80.01]), 20.0).tolist()
    [True, False, False]
    """
    if scenario.board_size is None:
        return np.ones(len(px), dtype=bool)
    w, h = (v * scenario.unit_mm for v in scenario.board_size)
    tol = BOUNDARY_TOLERANCE_MM
    inside_x = (px - r >= -tol) & (px + r <= w + tol)
    return np.asarray(inside_x & (py - r >= -tol) & (py + r <= h + tol), dtype=bool)


def clashes_at(
    board: Board,
    model_id: str,
    at: tuple[float, float],
    r: float,
    elevation_mm: float,
    skip: frozenset[str] = frozenset(),
) -> list[Clash]:
    """The placement rule at one position (mm), the one-position case of :func:`clashes_v`
    (and so of :func:`placeable_v`): every clash of ``model_id``'s base there (bases first,
    then pieces, in file order), the models of ``skip`` left out."""
    px, py, ev = np.array([float(at[0])]), np.array([float(at[1])]), np.array([elevation_mm])
    return clashes_v(board, [model_id], px, py, np.array([float(r)]), ev, [skip])[0]


def clashes_v(
    board: Board,
    model_ids: Sequence[str],
    px: Array,
    py: Array,
    r: Array,
    elevation_mm: Array,
    skips: Sequence[frozenset[str]],
) -> list[list[Clash]]:
    """The placement rule at many positions (mm) at once, one base each (``model_ids[i]``'s, of
    radius ``r[i]``, at ``elevation_mm[i]``): per position every clash of that base (bases
    first, then pieces, in file order), the base itself and the models of ``skips[i]`` left
    out."""
    ids, bases, gap = _base_overlaps(board, px, py, r, elevation_mm, frozenset())
    out = [
        [
            Clash(mid, ModelRef(ids[j]), "bases", float(-gap[i, j]))
            for j in np.flatnonzero(bases[i])
            if ids[j] != mid and ids[j] not in skip
        ]
        for i, (mid, skip) in enumerate(zip(model_ids, skips, strict=True))
    ]
    for ref, how, bad, depth in _piece_clashes(board, px, py, r, elevation_mm):
        for i in np.flatnonzero(bad).tolist():
            out[i].append(Clash(model_ids[i], ref, how, float(depth[i])))
    return out


def placement_problems(scenario: Scenario) -> list[tuple[int, Clash]]:
    """The placement rule over a whole scenario: for each model (by index in
    ``scenario.models``) every clash of its base with a base listed before it and with every
    solid piece. Empty for a scenario whose bases all may stand where they are.

    This is the one check of where bases stand: the scenario file's check reports each as a
    problem at ``models[i].at`` naming both; a board built in Python is checked by calling it.

    >>> from fwwrules import Model, Rect, Scenario, Terrain
    >>> s = Scenario(models=(Model("knight", "x", 40.0, (125.0, 100.0)),),
    ...              terrain=(Terrain("building", "blocking", Rect((160.0, 100.0), (50.0, 60.0))),))
    >>> [(i, c.other.name, c.how, round(c.mm, 1)) for i, c in placement_problems(s)]
    [(0, 'building', 'piece', 10.0)]
    """
    board = scenario.board
    ids = [m.id for m in scenario.models]
    if not ids:
        return []
    mgs = [board.models[mid] for mid in ids]
    px = np.array([float(mg.disc.center[0]) for mg in mgs])
    py = np.array([float(mg.disc.center[1]) for mg in mgs])
    r = np.array([float(mg.disc.r) for mg in mgs])
    ev = np.array([mg.elevation for mg in mgs])
    later = [frozenset(ids[j:]) for j in range(len(ids))]  # each base against earlier ones
    found = clashes_v(board, ids, px, py, r, ev, later)
    return [(j, c) for j, clashes in enumerate(found) for c in clashes]


def move_model(
    scenario: Scenario, model_id: str, x: float, y: float, elevation: float | None = None
) -> Scenario:
    """The scenario with one model's centre at ``(x, y)`` in scenario units, and its base at
    ``elevation`` (scenario units; ``None``: as it was) (a new scenario; nothing is checked
    here but the id and the numbers: use :func:`hand_placement` to keep to the placement
    rule). An unknown id raises :class:`~fwwrules.errors.UnknownIdError`, a point that is not
    two finite numbers within the coordinate limit (or such an elevation) a
    :class:`~fwwrules.errors.QueryError`. The moved board is checked as any board is, when it
    is next ruled on, drawn or mapped (:func:`fwwrules.checks.checked`): the moved model
    alone, against the rest (a base moved onto another is refused then, naming both).

    Its cache starts from the old scenario's (:meth:`~fwwrules.cache.Derived.carry_moved`):
    what was derived from the terrain alone is shared (terrain geometry, merged solids,
    Significant Edges), what depends on the models is carried where the move cannot change it
    (the other models' bases, the pieces under them, the engagements between them).

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 32.0, (0.0, 0.0)),))
    >>> move_model(s, "a", 10, 20).model("a").at
    (10.0, 20.0)
    """
    scenario = scenario_object(scenario, "move_model")  # checked when next ruled on
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    at = point((x, y), "the new centre")
    level = None if elevation is None else number(elevation, "the new elevation")
    model = scenario.model(model_id)
    placed = dataclasses.replace(model, at=at)
    if level is not None and level != model.elevation:
        placed = dataclasses.replace(placed, elevation=level)
    models = tuple(placed if m.id == model_id else m for m in scenario.models)
    moved = dataclasses.replace(scenario, models=models)
    moved.derived.carry_moved(scenario.derived, Moved(scenario, moved, frozenset({model_id})))
    return moved


def board_bounds(scenario: Scenario) -> Bounds:
    """The table's :class:`~fwwrules.pieces.Bounds` in scenario units.

    With ``board: {size: [w, h]}`` it is ``(0, 0, w, h)``. Without it, every base and terrain
    piece plus :data:`CONTENT_MARGIN_MM` on each side; an empty scenario gets
    ``(0, 0, 100 mm, 100 mm)``.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 40.0, (100.0, 50.0)),))
    >>> board_bounds(s)
    Bounds(xmin=50.0, ymin=0.0, xmax=150.0, ymax=100.0)
    """
    size = scenario.board_size
    if size is not None:
        return Bounds(0.0, 0.0, float(size[0]), float(size[1]))
    xmin, ymin, xmax, ymax = scenario.limits_mm(CONTENT_MARGIN_MM)
    u = scenario.unit_mm
    return Bounds(xmin / u, ymin / u, xmax / u, ymax / u)


def _first_contact(
    px: float, py: float, dx: float, dy: float, qx: float, qy: float, reach: float
) -> float | None:
    """The smallest s in [0, 1] where ``|p + s d - q| = reach``, moving closer; ``0.0`` when
    already within ``reach`` and moving closer; None when the move never comes that close."""
    ox, oy = px - qx, py - qy
    c = ox * ox + oy * oy - reach * reach
    b = 2.0 * (ox * dx + oy * dy)
    if c <= 0.0:  # touching or overlapping already: only moving away is free
        return 0.0 if b < 0.0 else None
    a = dx * dx + dy * dy
    disc = b * b - 4.0 * a * c
    if a == 0.0 or disc < 0.0 or b >= 0.0:
        return None
    s = (-b - math.sqrt(disc)) / (2.0 * a)
    return s if s <= 1.0 else None


def _edge_stop(p: float, d: float, low: float, high: float) -> float | None:
    """The smallest s in [0, 1] where ``p + s d`` reaches ``low`` or ``high`` moving outward
    (``0.0`` when already outside and moving further out)."""
    if d < 0.0:
        if p <= low:
            return 0.0
        s = (low - p) / d
        return s if s <= 1.0 else None
    if d > 0.0:
        if p >= high:
            return 0.0
        s = (high - p) / d
        return s if s <= 1.0 else None
    return None


def stop_at_contact(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where ``model_id``'s centre ends when moved straight toward ``to`` (scenario units).

    The base moves along the segment from its centre to ``to`` and stops at the first point
    where it touches another base (gap 0, never overlapping) or where its edge reaches the
    table's edge (``bounds``, default :func:`board_bounds`). Boundary cases:

    * a base already in contact with (or overlapping) another may move away from it, but a
      move that brings the two centres closer stops at once (the base stays put);
    * a base already (partly) off the table may move back on, not further off;
    * a move passing another base at exactly the sum of the radii touches it (gap 0) and
      stops there;
    * ``to`` equal to the centre returns the centre; other bases' overlaps are not checked.

    The stop is placed a rounding step (:data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`)
    before the contact, so the bases touch within any contact tolerance and never overlap.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 20.0, (0.0, 0.0)), Model("b", "y", 20.0, (50.0, 0.0))))
    >>> x, y = stop_at_contact(s, "a", (100.0, 0.0))
    >>> round(x, 6), y
    (30.0, 0.0)
    >>> stop_at_contact(s, "a", (0.0, 25.0))  # sideways: free (the contents' margin is 30)
    (0.0, 25.0)
    """
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    box = board_bounds(scenario) if bounds is None else bounds
    return _stop_at_contact(scenario, _hand(scenario.board, model_id), to, box)


def _stop_at_contact(
    scenario: Scenario, hand: _Hand, to: tuple[float, float], box: Bounds
) -> tuple[float, float]:
    """:func:`stop_at_contact` of ``hand``'s model on ``scenario`` (its board) within ``box``."""
    u = scenario.unit_mm
    me = hand.board.models[hand.model_id].disc
    px, py, r = me.x, me.y, me.r
    to = point(to, "the point moved toward")
    tx, ty = to[0] * u, to[1] * u
    dx, dy = tx - px, ty - py
    length = math.hypot(dx, dy)
    if length == 0.0:
        return (px / u, py / u)
    s = 1.0
    for g in hand.others:
        hit = _first_contact(px, py, dx, dy, g.x, g.y, r + g.r)
        if hit is not None:
            s = min(s, hit)
    hit = _piece_stop(hand, (px, py), (dx, dy), s)
    if hit is not None:
        s = min(s, hit)
    xmin, ymin, xmax, ymax = box
    for p, d, low, high in (
        (px, dx, xmin * u + r, xmax * u - r),
        (py, dy, ymin * u + r, ymax * u - r),
    ):
        hit = _edge_stop(p, d, low, high)
        if hit is not None:
            s = min(s, hit)
    if s < 1.0:
        s = max(0.0, s - BOUNDARY_TOLERANCE_MM / length)
    return ((px + s * dx) / u, (py + s * dy) / u)


SLIDE_STEP_MM = 2.0
"""A slide around a base is checked for other bases every this many mm of arc."""

PATH_STEP_MM = 0.5
"""A straight move is checked against the solid pieces every this many mm (far below any
base's radius, so no piece's edge is passed unseen), then the stop is found by bisection."""


@dataclass(frozen=True, slots=True)
class _Hand:
    """One model's base moved by hand on one board: what every test along the move asks
    again, worked out once (:func:`_hand`): its radius, the other bases on its level (file
    order), the pieces it stands on now, and the elevation it takes off every piece with a
    height (:func:`hand_levels`)."""

    board: Board
    model_id: str
    r: float
    others: tuple[Disc, ...]
    here: tuple[str, ...]
    ground: float


def _hand(board: Board, model_id: str) -> _Hand:
    mg = board.models[model_id]
    ids = [mid for mid in board.models if mid != model_id]
    elevations = np.array([board.models[mid].elevation for mid in ids], dtype=float)
    level = same_level(board, mg.elevation, elevations)
    others = tuple(board.models[mid].disc for mid, on in zip(ids, level, strict=True) if on)
    here = pieces_stood_on(board, mg.disc.x, mg.disc.y, mg.elevation)
    on_high = any(_has_height(board.terrain[tid]) for tid in here)
    return _Hand(board, model_id, mg.disc.r, others, here, 0.0 if on_high else mg.elevation)


def _levels(hand: _Hand, px: Array, py: Array) -> Array:
    """:func:`hand_levels` of ``hand``'s model."""
    top = standing_height_v(hand.board, px, py)
    return np.where(top > 0.0, top, hand.ground)


def hand_levels(board: Board, model_id: str, px: Array, py: Array) -> Array:
    """The elevation (mm) a model placed by hand takes at each centre: on top of the highest
    piece with a height under it; elsewhere on the table when it stood on such a piece, else
    at the elevation it has (a file may put a model at an elevation without a piece)."""
    return _levels(_hand(board, model_id), px, py)


def level_at(scenario: Scenario, model_id: str, at: tuple[float, float]) -> float:
    """The elevation (scenario units) a model put at ``at`` (scenario units) takes by the
    placement rule (:func:`hand_levels`): on top of the highest piece with a height under its
    centre; on the ground when it leaves such a piece; else the elevation it has.

    >>> from fwwrules import Model, Rect, Scenario, Terrain
    >>> tower = Terrain("tower", "blocking", Rect((0.0, 0.0), (40.0, 40.0)), height=30.0)
    >>> s = Scenario(models=(Model("k", "x", 32.0, (100.0, 0.0)),), terrain=(tower,))
    >>> level_at(s, "k", (0.0, 0.0))      # on top of the tower
    30.0
    >>> level_at(s, "k", (200.0, 0.0))   # on the ground, as it was
    0.0
    """
    u = scenario.unit_mm
    x, y = point(at, "the new centre")
    levels = hand_levels(scenario.board, model_id, np.array([x * u]), np.array([y * u]))
    return file_level(scenario, float(levels[0]))


def file_level(scenario: Scenario, level_mm: float) -> float:
    """An elevation in mm as the number a file holds: scenario units at :data:`MAX_DECIMALS`
    (a piece 3 in high puts a base at 3.0, not at 76.2 mm / 25.4 = 2.9999999999999996)."""
    return round(scenario.from_mm(level_mm), MAX_DECIMALS)


def _pieces_allow(hand: _Hand, px: Array, py: Array) -> BoolArray:
    """Where the model's base, at the level :func:`hand_levels` gives it, keeps to the
    placement rule's pieces part, touching a piece's edge at most (as a drag touches a base;
    bases are the exact contact stop's): :func:`placeable_v` with every base left out."""
    ok = np.ones(len(px), dtype=bool)
    for _, _, bad, _ in _piece_clashes(hand.board, px, py, hand.r, _levels(hand, px, py), 0.0):
        ok &= ~bad
    return ok


def _piece_stop(
    hand: _Hand, at: tuple[float, float], d: tuple[float, float], s_max: float
) -> float | None:
    """The last fraction ``s`` of the move ``at + s d`` (mm) before the base would break the
    placement rule against a solid piece (sampled every :data:`PATH_STEP_MM`, then bisected);
    ``None`` when nothing stops it before ``s_max``, or when it stands wrongly already."""
    if not _solids(hand.board).pieces:
        return None
    length = math.hypot(*d) * s_max
    ss = np.linspace(0.0, s_max, max(2, math.ceil(length / PATH_STEP_MM) + 1))
    ok = _pieces_allow(hand, at[0] + ss * d[0], at[1] + ss * d[1])
    if not ok[0] or ok.all():
        return None
    k = int(np.argmin(ok))
    lo, hi = float(ss[k - 1]), float(ss[k])
    for depth in BISECTION_BATCHES:
        lo, hi = _bisected(hand, at, d, lo, hi, depth)
    return lo


BISECTION_BATCHES = (5, 5, 5, 5, 5, 5, 5, 5)
"""A piece's stop is bisected 40 times, in batches of this many halvings: each batch tests
every midpoint the halvings could visit (``2**depth - 1`` of them) in one vector call."""


def _bisected(
    hand: _Hand, at: tuple[float, float], d: tuple[float, float], lo: float, hi: float, depth: int
) -> tuple[float, float]:
    """``depth`` halvings of ``[lo, hi]`` toward the last fraction of the move ``at + s d``
    where the pieces allow the base: the midpoints of the whole tree of halvings (heap order,
    each ``(lo + hi) / 2`` of its own interval, so each is the number one halving at a time
    would test) tested at once, then walked as one halving at a time would."""
    bounds = [(lo, hi)]
    mids: list[float] = []
    for a, b in bounds:  # grows while it is read, breadth first
        mid = (a + b) / 2
        mids.append(mid)
        if len(bounds) < 2**depth - 1:
            bounds += [(a, mid), (mid, b)]
    s = np.array(mids)
    ok = _pieces_allow(hand, at[0] + s * d[0], at[1] + s * d[1])
    i = 0
    for _ in range(depth):
        if ok[i]:
            lo, i = mids[i], 2 * i + 2
        else:
            hi, i = mids[i], 2 * i + 1
    return lo, hi


def _clear(hand: _Hand, x: float, y: float) -> bool:
    """True when the model's base at ``(x, y)`` mm overlaps no other base on its level and
    keeps to the placement rule's pieces part."""
    r = hand.r
    for g in hand.others:
        if math.hypot(x - g.x, y - g.y) < r + g.r:
            return False
    return bool(_pieces_allow(hand, np.array([x]), np.array([y]))[0])


def _clear_run(hand: _Hand, points: list[tuple[float, float]]) -> int:
    """How many of ``points`` (mm), from the first, are :func:`_clear` (the pieces part tested
    at once, on the points clear of bases)."""
    r = hand.r
    n = 0
    for x, y in points:
        if any(math.hypot(x - g.x, y - g.y) < r + g.r for g in hand.others):
            break
        n += 1
    if n == 0:
        return 0
    ok = _pieces_allow(
        hand, np.array([p[0] for p in points[:n]]), np.array([p[1] for p in points[:n]])
    )
    return n if bool(ok.all()) else int(np.argmin(ok))


def slide_at_contact(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where ``model_id``'s centre ends when dragged toward ``to`` (scenario units).

    First the straight move of :func:`stop_at_contact`. When it stops short of ``to``, the
    rest of the motion is not lost:

    * stopped by another base: the base slides round it, keeping contact (gap 0), by the
      tangential part of the rest of the motion (as arc length on the circle of contact);
      the part into the other base is dropped. It goes no further than the point of contact
      nearest ``to``, so a pointer held still inside the other base draws the base to the
      contact point facing it without overshooting;
    * stopped by the table's edge: it slides along the edge toward ``to`` clamped onto the
      table, stopping at a base on the way (a straight :func:`stop_at_contact`).

    Boundary cases: a slide round a base stops before the first point (checked every
    :data:`SLIDE_STEP_MM` of arc) where it would overlap a third base or leave the table, so a
    base wedged between two others stays where the straight move left it; a slide never
    goes more than a quarter turn round the touched base in one motion; a motion straight at
    the touched base's centre (no tangential part) leaves the base where it stopped.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 20.0, (0.0, 0.0)), Model("b", "y", 20.0, (30.0, 0.0))))
    >>> x, y = slide_at_contact(s, "a", (60.0, 40.0))  # aimed past b: slides round it
    >>> round(math.hypot(x - 30.0, y), 6), y > 10.0
    (20.0, True)
    """
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    box = board_bounds(scenario) if bounds is None else bounds
    return _slide_at_contact(scenario, _hand(scenario.board, model_id), to, box)


def _slide_at_contact(
    scenario: Scenario, hand: _Hand, to: tuple[float, float], box: Bounds
) -> tuple[float, float]:
    """:func:`slide_at_contact` of ``hand``'s model on ``scenario`` (its board) within
    ``box``."""
    u = scenario.unit_mm
    sx, sy = _stop_at_contact(scenario, hand, to, box)
    tx, ty = float(to[0]), float(to[1])
    if math.isclose(sx, tx, abs_tol=1e-12) and math.isclose(sy, ty, abs_tol=1e-12):
        return (sx, sy)
    r = hand.r
    px, py, gx, gy = sx * u, sy * u, tx * u, ty * u
    xmin, ymin, xmax, ymax = (v * u for v in box)
    lo_x, hi_x, lo_y, hi_y = xmin + r, xmax - r, ymin + r, ymax - r
    touched = _touched(hand, (px, py))
    if touched is None:  # stopped by the table's edge: slide along it
        cx, cy = min(max(gx, lo_x), hi_x), min(max(gy, lo_y), hi_y)
        moved = move_model(scenario, hand.model_id, px / u, py / u)
        return _stop_at_contact(moved, _hand(moved.board, hand.model_id), (cx / u, cy / u), box)

    def free(points: list[tuple[float, float]]) -> int:
        slack = BOUNDARY_TOLERANCE_MM
        n = 0
        for x, y in points:
            if not (lo_x - slack <= x <= hi_x + slack and lo_y - slack <= y <= hi_y + slack):
                break
            n += 1
        return _clear_run(hand, points[:n])

    end = _round_base(touched, r, (px, py), (gx, gy), free)
    if end is None:
        return (sx, sy)
    return (end[0] / u, end[1] / u)


def _touched(hand: _Hand, at: tuple[float, float]) -> Disc | None:
    """The base the model's base at ``at`` (mm) stopped against: the nearest on its level
    within the contact tolerance, if any."""
    touched = None
    best = math.inf
    tolerance = hand.board.contact_tolerance
    for g in hand.others:
        gap = math.hypot(at[0] - g.x, at[1] - g.y) - hand.r - g.r
        if gap <= tolerance and gap < best:
            touched, best = g, gap
    return touched


def _round_base(
    touched: Disc,
    r: float,
    at: tuple[float, float],
    aim: tuple[float, float],
    free: Callable[[list[tuple[float, float]]], int],
) -> tuple[float, float] | None:
    """Where a base of radius ``r`` at ``at`` (mm, touching ``touched``) ends when it slides
    round ``touched`` toward ``aim``: by the tangential part of the motion, never past the
    point of contact nearest the aim, never more than a quarter turn, stopping before the
    first place that is not free (``free(points)``: how many of the points, from the first,
    are). ``None`` when there is no tangential part."""
    (px, py), (gx, gy) = at, aim
    bx, by, reach = touched.x, touched.y, r + touched.r + BOUNDARY_TOLERANCE_MM
    a0 = math.atan2(py - by, px - bx)
    # The tangential part of the rest of the motion, as an angle round the touched base ...
    tangential = (gx - px) * -math.sin(a0) + (gy - py) * math.cos(a0)
    turn = tangential / reach
    # ... never past the point of contact nearest the aim, never more than a quarter turn.
    a1 = math.atan2(gy - by, gx - bx)
    nearest = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    if turn * nearest <= 0.0:
        return None
    turn = math.copysign(min(abs(turn), abs(nearest), math.pi / 2), turn)
    steps = max(1, math.ceil(abs(turn) * reach / SLIDE_STEP_MM))
    points = []
    for i in range(1, steps + 1):
        a = a0 + turn * i / steps
        points.append((bx + reach * math.cos(a), by + reach * math.sin(a)))
    n = free(points)
    return points[n - 1] if n else (px, py)


# --- snapping and the numbers a hand placement writes ---------------------------------------

SNAP_STEPS: Mapping[str, float] = MappingProxyType({"in": 0.25, "mm": 1.0})
"""The snap grid by units: a quarter inch in inch files, a millimetre in mm files."""
PLACED_DECIMALS: Mapping[str, int] = MappingProxyType({"in": 2, "mm": 1})
"""Decimals a hand placement keeps when it is not on the snap grid (a stop at contact):
a hundredth of an inch (0.254 mm) or a tenth of a millimetre, both far inside the contact
tolerance, so a base rounded there is still in contact and never overlaps beyond it."""
MAX_DECIMALS = 4
"""The most decimals a file's coordinates are shown with (1e-4 of a unit)."""


def snap_step(units: str) -> float:
    """The snap grid's step in ``units`` (``"in"`` or ``"mm"``)."""
    return SNAP_STEPS["in" if units == "in" else "mm"]


def snap(value: float, units: str) -> float:
    """``value`` on the snap grid of ``units`` (0.25 in or 1 mm), as a short decimal.

    >>> snap(7.0054869684499295, "in"), snap(11.999999999999998, "in"), snap(31.6, "mm")
    (7.0, 12.0, 32.0)
    """
    step = snap_step(units)
    return round(round(value / step) * step, PLACED_DECIMALS["in" if units == "in" else "mm"])


def decimals(scenario: Scenario) -> int:
    """How many decimals the scenario's positions are shown and written with: those of its
    units' hand placements (2 for inches, 1 for mm), or more where the file itself gives
    more (an eighth of an inch, 0.125), up to :data:`MAX_DECIMALS`."""
    out = PLACED_DECIMALS["in" if scenario.units == "in" else "mm"]
    for m in scenario.models:
        for v in m.at:
            out = max(out, _decimals_of(v))
    return min(out, MAX_DECIMALS)


def _decimals_of(value: float) -> int:
    text = repr(float(value))
    if "e" in text or "E" in text:
        return MAX_DECIMALS
    return len(text.partition(".")[2].rstrip("0"))


@dataclass(frozen=True, slots=True)
class HandPlacement:
    """Where a base placed by hand ends: its centre ``(x, y)`` and ``elevation`` in scenario
    units, and the pieces it stands on there (``elevation.standing-on``, highest first)."""

    x: float
    y: float
    elevation: float
    on: tuple[str, ...] = ()

    @property
    def at(self) -> tuple[float, float]:
        return (self.x, self.y)


def _may_stand(
    scenario: Scenario, model_id: str, at_mm: tuple[float, float], level_mm: float, box: Bounds
) -> bool:
    """The placement rule (and the table) for the model's base at ``at_mm`` on ``level_mm``."""
    u, board = scenario.unit_mm, scenario.board
    r = board.models[model_id].disc.r
    x, y = at_mm
    on_table = box[0] * u + r <= x <= box[2] * u - r and box[1] * u + r <= y <= box[3] * u - r
    return on_table and not clashes_at(board, model_id, at_mm, r, level_mm)


def _rounded(
    scenario: Scenario, hand: _Hand, xy: tuple[float, float], box: Bounds
) -> tuple[float, float]:
    """``xy`` (scenario units) at the units' :data:`PLACED_DECIMALS`: of the four nearest such
    points, the nearest on the table that overlaps no base on the model's level and no solid
    piece it may not overlap (touching at most, as a drag stops); the plain rounding when
    none is clear."""
    places = PLACED_DECIMALS["in" if scenario.units == "in" else "mm"]
    x, y = xy
    plain = (round(x, places), round(y, places))
    if plain == (x, y):
        return plain
    scale = 10**places
    options = sorted(
        {(round(cx / scale, places), round(cy / scale, places))
         for cx in (math.floor(x * scale), math.ceil(x * scale))
         for cy in (math.floor(y * scale), math.ceil(y * scale))},
        key=lambda p: math.hypot(p[0] - x, p[1] - y),
    )  # fmt: skip
    u, r = scenario.unit_mm, hand.r
    for px, py in options:
        on_table = box[0] * u + r <= px * u <= box[2] * u - r and (
            box[1] * u + r <= py * u <= box[3] * u - r
        )
        if on_table and _clear(hand, px * u, py * u):
            return (px, py)
    return plain


def hand_placement(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    snapped: bool = True,
    bounds: Bounds | None = None,
) -> HandPlacement:
    """Where a base dragged by hand toward ``to`` (scenario units) ends, as the numbers a file
    would hold, by the placement rule.

    ``to`` is put on the snap grid (with ``snapped``). When the base would stand on other
    pieces there than where it stands now (the pointer's centre over a solid piece or a piece
    with a height, or off the piece the model is on), it is put there, on top of the highest
    piece with a height under it (:func:`hand_levels`), if it may stand there. Otherwise it
    moves on its level as :func:`slide_at_contact` says: it stops at contact with a base on
    its level, at the edge of a solid piece as at a base, and at the table's edge, and slides
    round a touched base or along the table's edge; a slide that ends on another level where
    the base may not stand leaves it where it is. The result is rounded to the units'
    :data:`PLACED_DECIMALS` on the side where it may stand (a gap of at most 0.36 mm at a
    contact: still in contact, far inside the contact tolerance).

    >>> from fwwrules import Model, Rect, Scenario, Terrain
    >>> s = Scenario(models=(Model("k", "x", 40.0, (100.0, 100.0)),),
    ...              terrain=(Terrain("building", "blocking", Rect((160.0, 100.0), (40.0, 60.0))),))
    >>> hand_placement(s, "k", (130.0, 100.0)).at     # stops at the building's edge
    (120.0, 100.0)
    >>> p = hand_placement(s, "k", (160.0, 100.0))     # the centre over it: stands on it
    >>> p.at, p.on
    ((160.0, 100.0), ('building',))
    """
    units = "in" if scenario.units == "in" else "mm"
    if snapped:
        to = (snap(to[0], units), snap(to[1], units))
    box = board_bounds(scenario) if bounds is None else bounds
    u, board = scenario.unit_mm, scenario.board
    mg = board.models[model_id]
    to = point(to, "the point moved toward")
    tx, ty = to[0] * u, to[1] * u
    hand = _hand(board, model_id)
    level_to = float(_levels(hand, np.array([tx]), np.array([ty]))[0])
    there = pieces_stood_on(board, tx, ty, level_to)
    moves_level = abs(level_to - mg.elevation) > LENGTH_EPSILON_MM
    if (there != hand.here or moves_level) and _may_stand(
        scenario, model_id, (tx, ty), level_to, box
    ):
        x, y = to  # on to the piece, or off it (the numbers asked for, not via mm)
    else:
        slid = _slide_at_contact(scenario, hand, to, box)
        x, y = _rounded(scenario, hand, slid, box)
    level = float(_levels(hand, np.array([x * u]), np.array([y * u]))[0])
    if abs(level - mg.elevation) > LENGTH_EPSILON_MM and not _may_stand(
        scenario, model_id, (x * u, y * u), level, box
    ):
        # the slide (on the model's level) ended off its piece, on a level where the base
        # may not stand (over a base on the ground, say): the base stays where it is
        x, y = scenario.model(model_id).at
        level = mg.elevation
    on = pieces_stood_on(board, x * u, y * u, level)
    return HandPlacement(x, y, file_level(scenario, level), on)


def place_by_hand(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    snapped: bool = True,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where a base dragged by hand toward ``to`` ends (scenario units): the centre of
    :func:`hand_placement`, whose ``elevation`` a caller that moves the model sets too."""
    return hand_placement(scenario, model_id, to, snapped=snapped, bounds=bounds).at
