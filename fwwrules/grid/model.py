"""The grid's frozen data: creatures, border walls and the map (:class:`GridScenario`).

Building a :class:`GridScenario` validates it (what a field-by-field schema cannot see:
geometry and cross-references) and indexes it (wall edges, the occupant of each square); it
never runs a rule.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..constants import MAX_GRID_CELLS, MAX_GRID_WALL_EDGES
from ..errors import Problem, ScenarioError, UnknownIdError
from ..pieces import Name, Title, title_in
from .vocabulary import (
    ARROW_SLIT,
    DEFAULT_SQUARE_FT,
    KINDS,
    OPEN,
    WALL,
    Corner,
    Edge,
    Square,
    SquareKind,
)


@dataclass(frozen=True, slots=True)
class Creature:
    """A creature on the grid: its top-left square ``at`` = ``(column, row)``, ``size`` squares
    wide and high, optional ``reach`` in squares."""

    id: str
    at: Square
    size: int = 1
    reach: int | None = None
    name: Name | None = None
    """One text, or one per language (:data:`~fwwrules.pieces.Name`); see :meth:`label_in`."""

    @property
    def label(self) -> str:
        """The English display name (:meth:`label_in`)."""
        return self.label_in("en")

    def label_in(self, lang: str) -> str:
        """The name a reader of ``lang`` sees (:func:`~fwwrules.pieces.title_in`), else the
        id."""
        return title_in(self.name, lang) or self.id

    @property
    def squares(self) -> tuple[Square, ...]:
        """Its squares in reading order (row by row, left to right)."""
        c0, r0 = self.at
        return tuple((c0 + i, r0 + j) for j in range(self.size) for i in range(self.size))

    def occupies(self, square: Square) -> bool:
        c0, r0 = self.at
        return c0 <= square[0] < c0 + self.size and r0 <= square[1] < r0 + self.size

    @property
    def box(self) -> tuple[Corner, Corner]:
        """Top-left and bottom-right corners of its space."""
        c0, r0 = self.at
        return (c0, r0), (c0 + self.size, r0 + self.size)


@dataclass(frozen=True, slots=True)
class Wall:
    """A wall along square borders, from corner ``start`` to corner ``end`` (axis-aligned)."""

    start: Corner
    end: Corner

    def edges(self) -> tuple[Edge, ...]:
        """The unit edges it covers, each as (smaller corner, larger corner)."""
        (x1, y1), (x2, y2) = self.start, self.end
        if x1 == x2:
            lo, hi = sorted((y1, y2))
            return tuple(((x1, y), (x1, y + 1)) for y in range(lo, hi))
        lo, hi = sorted((x1, x2))
        return tuple(((x, y1), (x + 1, y1)) for x in range(lo, hi))


@dataclass(frozen=True, slots=True)
class GridScenario:
    """A grid map with creatures and border walls. Build it with :func:`parse_grid` (via
    :func:`fwwrules.load`) or directly; it validates itself (:class:`ScenarioError`)."""

    kinds: tuple[tuple[SquareKind, ...], ...]
    creatures: tuple[Creature, ...] = ()
    walls: tuple[Wall, ...] = ()
    square: float = DEFAULT_SQUARE_FT
    title: Title | None = None
    """One text, or one per language (:data:`fwwrules.pieces.Title`)."""
    source: str = field(default="<grid>", compare=False)
    wall_edges: frozenset[Edge] = field(init=False, compare=False, repr=False)
    material: frozenset[Corner] = field(init=False, compare=False, repr=False)
    """Grid points where wall material meets (ends of border-wall edges, corners of wall
    squares): the only grid points where a line can be sealed. An index built once."""
    _occupant: Mapping[Square, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        problems = semantic_problems(self.kinds, self.walls, self.creatures, self.square)
        if problems:
            raise ScenarioError(self.source, [Problem(p, m) for p, m in problems])
        edges = frozenset(e for w in self.walls for e in w.edges())
        occupant = {sq: c.id for c in self.creatures for sq in c.squares}
        material = {pt for e in edges for pt in e}
        for r, row in enumerate(self.kinds):
            for c, k in enumerate(row):
                if k == WALL:
                    material.update(((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1)))
        object.__setattr__(self, "wall_edges", edges)
        object.__setattr__(self, "material", frozenset(material))
        object.__setattr__(self, "_occupant", occupant)

    @property
    def width(self) -> int:
        return len(self.kinds[0])

    @property
    def height(self) -> int:
        return len(self.kinds)

    def inside(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def kind(self, square: Square) -> SquareKind:
        """The terrain kind of a square; outside the map is ``open``."""
        c, r = square
        if 0 <= c < self.width and 0 <= r < self.height:
            return self.kinds[r][c]
        return OPEN

    def occupant(self, square: Square) -> str | None:
        """The id of the creature in that square, if any."""
        return self._occupant.get(square)

    def creature(self, ident: str) -> Creature:
        for c in self.creatures:
            if c.id == ident:
                return c
        raise UnknownIdError("creature", ident, (c.id for c in self.creatures), self.source)

    def summary(self) -> str:
        """One line for ``fwwrules check``: title, map size, creatures and walls."""
        title = "untitled" if self.title is None else repr(title_in(self.title, "en"))
        return (
            f"{title}: grid of {self.width}x{self.height} squares of {self.square:g} ft, "
            f"{len(self.creatures)} creatures, {len(self.walls)} walls"
        )


Problems = list[tuple[tuple[str | int, ...], str]]
"""(path in the file, message) pairs."""


def semantic_problems(
    kinds: Sequence[Sequence[str]],
    walls: Sequence[Wall],
    creatures: Sequence[Creature],
    square: float,
) -> Problems:
    """What a field-by-field schema cannot see: geometry and cross-references."""
    out: Problems = []
    if not kinds or not kinds[0]:
        return [(("map",), "the map is empty; expected rows of squares")]
    height, width = len(kinds), len(kinds[0])
    if any(len(row) != width for row in kinds):
        return [(("map",), "rows must be equally long")]
    if width * height > MAX_GRID_CELLS:
        return [(("map",), f"the map has {width * height} squares; limit {MAX_GRID_CELLS}")]
    if not (math.isfinite(square) and square > 0):
        out.append((("square",), "expected a positive number of feet"))
    for r, row in enumerate(kinds):
        for c, k in enumerate(row):
            if k not in KINDS:
                out.append((("map",), f"square ({c}, {r}) has unknown kind {k!r}"))
    too_long = _wall_problems(walls, width, height, out)
    _creature_problems(kinds, creatures, out)
    if not too_long:
        _walls_through_creatures(walls, creatures, width, height, out)
    return out


def _wall_problems(walls: Sequence[Wall], width: int, height: int, out: Problems) -> bool:
    """Walls along square borders, of two different corners on the map, not too many square
    borders together (True: too many, so they are not looked at further)."""
    length = sum(abs(w.end[0] - w.start[0]) + abs(w.end[1] - w.start[1]) for w in walls)
    too_long = length > MAX_GRID_WALL_EDGES
    if too_long:
        out.append(
            (
                ("walls",),
                f"the walls cover {length} square borders together; the limit is "
                f"{MAX_GRID_WALL_EDGES} (MAX_GRID_WALL_EDGES)",
            )
        )
    for j, w in enumerate(walls):
        (x1, y1), (x2, y2) = w.start, w.end
        if (x1, y1) == (x2, y2):
            out.append((("walls", j), "a wall needs two different corners"))
        elif x1 != x2 and y1 != y2:
            out.append(
                (
                    ("walls", j),
                    f"walls run along square borders: from ({x1}, {y1}) to ({x2}, {y2}) is "
                    "not horizontal or vertical",
                )
            )
        for x, y in (w.start, w.end):
            if not (0 <= x <= width and 0 <= y <= height):
                out.append(
                    (
                        ("walls", j),
                        f"corner ({x}, {y}) is outside the map (corners run 0..{width} "
                        f"across and 0..{height} down)",
                    )
                )
    return too_long


def _creature_problems(
    kinds: Sequence[Sequence[str]], creatures: Sequence[Creature], out: Problems
) -> None:
    """Creature ids once; each creature inside the map, on no wall or arrow slit, overlapping
    no other."""
    height, width = len(kinds), len(kinds[0])
    owner: dict[str, int] = {}
    taken: dict[Square, str] = {}
    for i, cr in enumerate(creatures):
        if cr.id in owner:
            out.append(
                (("creatures", i, "id"), f"duplicate id {cr.id!r} (creatures[{owner[cr.id]}])")
            )
        owner.setdefault(cr.id, i)
        c0, r0 = cr.at
        if not (c0 >= 0 and r0 >= 0 and c0 + cr.size <= width and r0 + cr.size <= height):
            out.append(
                (
                    ("creatures", i, "at"),
                    f"{cr.id!r} (size {cr.size}) at ({c0}, {r0}) does not fit inside the "
                    f"{width}x{height} map",
                )
            )
            continue
        for sq in cr.squares:
            k = kinds[sq[1]][sq[0]]
            if k in (WALL, ARROW_SLIT):
                out.append((("creatures", i, "at"), f"{cr.id!r} stands on the {k} square {sq}"))
                break
            if sq in taken:
                out.append(
                    (("creatures", i, "at"), f"{cr.id!r} overlaps {taken[sq]!r} at square {sq}")
                )
                break
        for sq in cr.squares:
            taken.setdefault(sq, cr.id)


def _walls_through_creatures(
    walls: Sequence[Wall],
    creatures: Sequence[Creature],
    width: int,
    height: int,
    out: Problems,
) -> None:
    """No wall runs through the space of a big creature."""
    # Borders inside big creatures, indexed once: each wall edge is looked up, never compared
    # with every creature.
    inner: dict[Edge, str] = {}
    for cr in creatures:
        c0, r0 = cr.at
        n = cr.size
        if n < 2 or not (c0 >= 0 and r0 >= 0 and c0 + n <= width and r0 + n <= height):
            continue
        for i in range(1, n):
            for m in range(n):
                inner.setdefault(((c0 + i, r0 + m), (c0 + i, r0 + m + 1)), cr.id)
                inner.setdefault(((c0 + m, r0 + i), (c0 + m + 1, r0 + i)), cr.id)
    if inner:
        for j, w in enumerate(walls):
            if not _wall_fits(w, width, height):
                continue
            hit = next((inner[e] for e in w.edges() if e in inner), None)
            if hit is not None:
                out.append((("walls", j), f"the wall runs through the space of {hit!r}"))


def _wall_fits(w: Wall, width: int, height: int) -> bool:
    """Axis-aligned, of positive length, with both ends on the map's corners."""
    (x1, y1), (x2, y2) = w.start, w.end
    if (x1, y1) == (x2, y2) or (x1 != x2 and y1 != y2):
        return False
    return all(0 <= x <= width and 0 <= y <= height for x, y in (w.start, w.end))
