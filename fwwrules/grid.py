"""Pathfinder 1st edition grid cover (``grid.*``) and its file format ``fwwrules/grid@1``.

The map is a grid of squares (5 ft each unless the file's ``square`` says otherwise). Square
``(c, r)`` spans the corners ``(c, r)`` to ``(c + 1, r + 1)``; columns grow to the right and
rows downward. Terrain lives in squares (``wall``, ``low`` obstacle, ``arrow-slit``) or on the
borders between squares (``walls``, given in corner coordinates). Creatures occupy
``size x size`` squares from their top-left square ``at``.

Every decision below is exact: corners are integer points, and all crossing tests use
:class:`fractions.Fraction` arithmetic, never floats.

Geometry (boundary cases)
-------------------------
* A line passes through a square only when it meets the square's **open interior**. A line
  along a square's border, or through one of its corners only, is not through it: a 5-ft
  corridor gives no cover.

  >>> squares_crossed((0, 0), (3, 0))          # along a border: no square
  ()
  >>> squares_crossed((0, 0), (2, 2))          # the diagonal touches (1, 0) and (0, 1) only
  ((0, 0), (1, 1))
  >>> squares_crossed((0, 0), (2, 1))          # crosses the border x = 1 at y = 1/2
  ((0, 0), (1, 0))

* Squares of one kind that share an edge act as one piece: a line running exactly along the
  seam between two wall squares (or two low squares, or two squares of one big creature) passes
  through both. A wall square and an arrow-slit square count as one wall too; along the seam
  between a wall and a low square the line passes the low obstacle only.
* Border walls: a line crossing a wall segment's relative interior is blocked; touching the
  wall's free end, or running along it, is not. Where wall material meets at a grid point
  (two collinear walls end to end, an L corner, or two wall squares touching diagonally), a
  line through that point is blocked when wall material lies on both sides of it, so no line
  slips through a joint or between two wall squares that touch at a corner.
* A line's end is a corner of the attacker's (or target's) square; walls at that corner are
  judged as seen from inside that square: a line that leaves the attacker's corner to the far
  side of a wall running through that corner is blocked; a line leaving from the free end of a
  wall is not. A zero-length line (the attacker's and target's squares share that corner) is
  blocked only when walls separate the two squares at that point.

Rule decisions (documented per clause)
--------------------------------------
* ``grid.ranged``: the attacker tries every corner of (every square of) its space and every
  square of the target's space, drawing the lines to the four corners of that target square.
  It takes the choice best for it: the lowest AC bonus, then the lowest Reflex bonus, then the
  fewest obstructed lines; remaining ties go to the first choice in this order: attacker
  squares in reading order (row by row, left to right), corners top-left, top-right,
  bottom-left, bottom-right, target squares in reading order.
* ``grid.big``: a creature of size 2 or more picks any square it occupies, attacking and
  attacked, in melee (the rule) and also for ranged attacks (our decision: the attacker picks
  both squares, as above). Lines through the attacker's and the target's own squares never
  count.
* ``grid.melee``: against an adjacent target (its space touches the attacker's, diagonals
  included) the target has cover when any line from any corner of the attacker's square to any
  corner of the target's square crosses a wall (wall square, border wall, arrow slit or low
  obstacle); creatures never matter. A big creature picks the adjacent pair of squares best
  for the attacker. A melee or reach attack on a target that is not adjacent uses the
  ``grid.ranged`` procedure, soft cover included (our reading: the ranged procedure is used
  whole). It must be within reach (``reach`` squares, default 1 for ``melee`` and 2 for
  ``reach``; a reach of 2 also reaches two squares diagonally, as Pathfinder's reach weapons
  do), otherwise the attack is not allowed.
* ``grid.low-obstacle``: a low square gives cover only when the target is within 30 ft of it
  and the attacker is not closer to it than the target. Distances count squares the Pathfinder
  way (diagonals alternate 5 and 10 ft: ``max + min // 2`` squares) between the nearest
  squares of the creature's space and the obstacle, times the file's ``square`` feet.
* ``grid.soft``: a line through a square holding another creature gives soft cover (+4 AC, no
  Reflex bonus, no Stealth), only against ranged (and reach) attacks.
* Categories from the chosen lines: any arrow slit -> ``improved``; else any wall, border wall
  or counted low obstacle -> ``cover``; else any creature -> soft cover; else ``none``.
* ``grid.partial`` (the GM's call): with ``cover`` from terrain, when more than half of the
  lines from the chosen corner to the target square's corners are clear, the engine suggests
  partial cover (+2 AC, +1 Reflex). The measure is ``clear lines / lines`` (3 of 4 clear
  suggests it, 2 of 4 does not). The ruling keeps the full values in ``partial``.
* ``grid.total``: total cover when no segment from any point of the attacker's space to any
  point of the target's space avoids the walls (wall squares and border walls; low obstacles,
  arrow slits and creatures never block line of effect). Decided exactly: if such a segment
  exists, one also exists through two grid points among the corners of the two spaces and of
  the walls, so those candidate lines are tried (the corner-to-corner lines first).
* ``grid.consequences``: cover (partial, normal, improved, total) forbids attacks of
  opportunity against the covered creature and allows a Stealth check; soft cover does
  neither (it only works against ranged attacks). The Reflex bonus is the one of the category.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Annotated, Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    ValidationError,
    field_validator,
)

from .catalogue import check_lang, render
from .constants import MAX_GRID_CELLS, MAX_MODELS
from .errors import Problem, QueryError, ScenarioError, UnknownIdError
from .loading import Document, problems_from_validation
from .rulings import Explained, Reason

GRID_FORMAT = "fwwrules/grid@1"

OPEN = "open"
WALL = "wall"
LOW = "low"
ARROW_SLIT = "arrow-slit"
KINDS: tuple[str, ...] = (OPEN, WALL, LOW, ARROW_SLIT)
DEFAULT_LEGEND: Mapping[str, str] = {"#": WALL, "o": LOW, "a": ARROW_SLIT, ".": OPEN}
"""Map characters every grid file knows; a file's ``legend`` adds to (or redefines) them."""

DEFAULT_SQUARE_FT = 5.0
"""Feet per square when the file does not say (``square``)."""

LOW_OBSTACLE_RANGE_FT = 30
"""``grid.low-obstacle``: a low obstacle covers only creatures within this many feet of it."""

MAX_CREATURE_SIZE = 6
"""Largest creature space in squares (Colossal: 30 ft)."""

MAX_REACH = 20
"""Longest reach in squares a file may give."""

ATTACKS: tuple[str, ...] = ("ranged", "melee", "reach")
DEFAULT_REACH: Mapping[str, int] = {"melee": 1, "reach": 2}
"""Reach in squares when the creature states none (natural reach / a reach weapon)."""

COVERS: tuple[str, ...] = ("none", "partial", "cover", "improved", "total")

# Bonuses per category: (AC, Reflex). Soft cover is "cover" with soft=True.
_BONUS: Mapping[str, tuple[int, int]] = {
    "none": (0, 0),
    "soft": (4, 0),
    "partial": (2, 1),
    "cover": (4, 2),
    "improved": (8, 4),
    "total": (0, 0),
}
IMPROVED_STEALTH_BONUS = 10
"""``grid.improved``: improved cover adds this to Stealth checks."""

# Obstruction kinds, strongest first (a line's verdict is its strongest counted obstruction).
BORDER_WALL = "border-wall"
CREATURE = "creature"
VERDICTS: tuple[str, ...] = (WALL, BORDER_WALL, ARROW_SLIT, LOW, CREATURE)
_BLOCKS_EFFECT = frozenset({WALL, BORDER_WALL})
_SOLID = frozenset({WALL, ARROW_SLIT})  # an arrow slit is a wall with a slit in it

Corner = tuple[int, int]
Square = tuple[int, int]
Edge = tuple[Corner, Corner]
Point = tuple[Fraction, Fraction]

# =============================================================================================
# Frozen data
# =============================================================================================


@dataclass(frozen=True, slots=True)
class Creature:
    """A creature on the grid: its top-left square ``at`` = ``(column, row)``, ``size`` squares
    wide and high, optional ``reach`` in squares."""

    id: str
    at: Square
    size: int = 1
    reach: int | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        return self.name or self.id

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

    kinds: tuple[tuple[str, ...], ...]
    creatures: tuple[Creature, ...] = ()
    walls: tuple[Wall, ...] = ()
    square: float = DEFAULT_SQUARE_FT
    title: str | None = None
    source: str = field(default="<grid>", compare=False)
    wall_edges: frozenset[Edge] = field(init=False, compare=False, repr=False)
    _occupant: Mapping[Square, str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        problems = _semantic_problems(self.kinds, self.walls, self.creatures, self.square)
        if problems:
            raise ScenarioError(self.source, [Problem(p, m) for p, m in problems])
        edges = frozenset(e for w in self.walls for e in w.edges())
        occupant = {sq: c.id for c in self.creatures for sq in c.squares}
        object.__setattr__(self, "wall_edges", edges)
        object.__setattr__(self, "_occupant", occupant)

    @property
    def width(self) -> int:
        return len(self.kinds[0])

    @property
    def height(self) -> int:
        return len(self.kinds)

    def inside(self, square: Square) -> bool:
        return 0 <= square[0] < self.width and 0 <= square[1] < self.height

    def kind(self, square: Square) -> str:
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
        title = "untitled" if self.title is None else repr(self.title)
        return (
            f"{title}: grid of {self.width}x{self.height} squares of {self.square:g} ft, "
            f"{len(self.creatures)} creatures, {len(self.walls)} walls"
        )


# =============================================================================================
# The file format
# =============================================================================================

GridIdent = Annotated[
    str, StringConstraints(strict=True, pattern=r"^[a-z0-9-]+$", min_length=1, max_length=64)
]
Text = Annotated[str, StringConstraints(strict=True, max_length=200)]
MapChar = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=1)]
IntCorner = tuple[StrictInt, StrictInt]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class CreatureSpec(_Spec):
    id: GridIdent
    name: Text | None = None
    at: IntCorner
    size: Annotated[StrictInt, Field(ge=1, le=MAX_CREATURE_SIZE)] = 1
    reach: Annotated[StrictInt, Field(ge=0, le=MAX_REACH)] | None = None

    @field_validator("at", mode="before")
    @classmethod
    def _pair(cls, value: Any) -> Any:
        if isinstance(value, (list, tuple)) and len(value) != 2:
            raise ValueError(f"expected [column, row], got {len(value)} numbers")
        return value


class GridSpec(_Spec):
    format: Literal["fwwrules/grid@1"]
    title: Text | None = None
    square: Annotated[float, Field(gt=0, le=1000, allow_inf_nan=False)] = DEFAULT_SQUARE_FT
    map: (
        Annotated[str, StringConstraints(strict=True)]
        | list[Annotated[str, StringConstraints(strict=True)]]
    )
    legend: dict[MapChar, Literal["open", "wall", "low", "arrow-slit"]] = Field(
        default_factory=dict
    )
    walls: Annotated[list[tuple[IntCorner, IntCorner]], Field(max_length=MAX_GRID_CELLS)] = Field(
        default_factory=list
    )
    creatures: Annotated[list[CreatureSpec], Field(max_length=MAX_MODELS)] = Field(
        default_factory=list
    )

    @field_validator("square", mode="before")
    @classmethod
    def _number(cls, value: Any) -> Any:
        if isinstance(value, bool):
            raise ValueError("expected a number of feet, got true/false")
        return value

    @field_validator("legend", mode="before")
    @classmethod
    def _legend_keys(cls, value: Any) -> Any:
        if isinstance(value, dict):
            for key in value:
                if isinstance(key, str) and len(key) != 1:
                    raise ValueError(f"legend keys are single map characters (got {key!r})")
                if isinstance(key, str) and key.isspace():
                    raise ValueError("a blank character cannot stand for a square")
        return value


def _row_line(doc: Document, index: int) -> int | None:
    """The line of map row ``index`` (block scalars and lists know it; else the ``map`` line)."""
    node: yaml.Node | None = doc.root
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "map":
                if isinstance(value, yaml.SequenceNode):
                    return doc.line(("map", index))
                if isinstance(value, yaml.ScalarNode) and value.style in ("|", ">"):
                    return int(value.start_mark.line) + 2 + index
                return int(value.start_mark.line) + 1
    return doc.line(("map",))


def _map_rows(spec: GridSpec) -> list[str]:
    """Rows of the map: trailing blanks of each row and trailing empty rows are dropped."""
    rows = spec.map.split("\n") if isinstance(spec.map, str) else list(spec.map)
    rows = [row.rstrip(" \t\r") for row in rows]
    while rows and rows[-1] == "":
        rows.pop()
    return rows


def _map_problems(
    rows: list[str], legend: Mapping[str, str], doc: Document
) -> tuple[list[Problem], tuple[tuple[str, ...], ...]]:
    problems: list[Problem] = []
    path: tuple[str | int, ...] = ("map",)

    def at(i: int, message: str) -> None:
        line = _row_line(doc, i)
        problems.append(Problem(path, f"row {i + 1}: {message}", line))

    if not rows:
        problems.append(doc.problem(path, "the map is empty; expected rows of squares"))
        return problems, ()
    width = len(rows[0])
    cells = width * len(rows)
    if cells > MAX_GRID_CELLS:
        msg = f"the map has {cells} squares; the limit is {MAX_GRID_CELLS}"
        problems.append(doc.problem(path, msg))
        return problems, ()
    known = "".join(sorted(legend))
    kinds: list[tuple[str, ...]] = []
    for i, row in enumerate(rows):
        if not row:
            at(i, "is empty; every row needs the same number of squares")
            continue
        if len(row) != width:
            at(
                i,
                f"has {len(row)} squares but row 1 has {width}; rows must be equally long "
                "(they are not padded)",
            )
            continue
        bad = [(j, ch) for j, ch in enumerate(row) if ch not in legend]
        for j, ch in bad[:5]:
            at(i, f"column {j + 1}: unknown map character {ch!r}; the legend knows {known!r}")
        kinds.append(tuple(legend.get(ch, OPEN) for ch in row))
    return problems, tuple(kinds)


def _semantic_problems(
    kinds: Sequence[Sequence[str]],
    walls: Sequence[Wall],
    creatures: Sequence[Creature],
    square: float,
) -> list[tuple[tuple[str | int, ...], str]]:
    """What a field-by-field schema cannot see: geometry and cross-references."""
    out: list[tuple[tuple[str | int, ...], str]] = []
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
    for j, w in enumerate(walls):
        if w.start == w.end or (w.start[0] != w.end[0] and w.start[1] != w.end[1]):
            continue
        for cr in creatures:
            if cr.size > 1 and any(_edge_inside(e, cr) for e in w.edges()):
                out.append((("walls", j), f"the wall runs through the space of {cr.id!r}"))
                break
    return out


def _edge_inside(edge: Edge, cr: Creature) -> bool:
    """True when both squares beside ``edge`` belong to the creature."""
    (x1, y1), (x2, _) = edge
    a, b = ((x1 - 1, y1), (x1, y1)) if x1 == x2 else ((x1, y1 - 1), (x1, y1))
    return cr.occupies(a) and cr.occupies(b)


def parse_grid(doc: Document) -> GridScenario:
    """Validate a parsed document as a ``fwwrules/grid@1`` file; every problem at once.

    Rows of unequal length are rejected (never padded), as are unknown map characters, walls
    that are not axis-aligned or leave the map, and creatures that leave the map, overlap one
    another or stand on a wall or arrow-slit square.
    """
    try:
        spec = GridSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(doc.source, problems_from_validation(doc, exc)) from None
    legend = {**DEFAULT_LEGEND, **spec.legend}
    problems, kinds = _map_problems(_map_rows(spec), legend, doc)
    if problems:
        raise ScenarioError(doc.source, problems)
    walls = tuple(Wall(tuple(a), tuple(b)) for a, b in spec.walls)  # type: ignore[arg-type]
    creatures = tuple(
        Creature(
            id=c.id,
            at=(c.at[0], c.at[1]),
            size=c.size,
            reach=c.reach,
            name=c.name,
        )
        for c in spec.creatures
    )
    found = _semantic_problems(kinds, walls, creatures, float(spec.square))
    if found:
        raise ScenarioError(doc.source, [doc.problem(p, m) for p, m in found])
    return GridScenario(
        kinds=kinds,
        creatures=creatures,
        walls=walls,
        square=float(spec.square),
        title=spec.title,
        source=doc.source,
    )


# =============================================================================================
# Exact geometry on the grid
# =============================================================================================


def _frac(p: tuple[Any, Any]) -> Point:
    return (Fraction(p[0]), Fraction(p[1]))


def _is_int(v: Fraction) -> bool:
    return v.denominator == 1


def squares_crossed(p: tuple[Any, Any], q: tuple[Any, Any]) -> tuple[Square, ...]:
    """The squares whose open interior the closed segment ``p``-``q`` meets, from ``p`` on.

    Exact (rational arithmetic). A segment along a grid line meets no interior; one through a
    grid point does not meet the squares that only touch that point.

    >>> squares_crossed((0, 0), (0, 3))
    ()
    >>> squares_crossed((1, 1), (0, 3))
    ((0, 1), (0, 2))
    >>> squares_crossed((Fraction(1, 2), Fraction(1, 2)), (Fraction(1, 2), Fraction(1, 2)))
    ((0, 0),)
    """
    a, b = _frac(p), _frac(q)
    (px, py), (qx, qy) = a, b
    if px == qx:
        if _is_int(px):
            return ()
        c = math.floor(px)
        lo, hi = sorted((py, qy))
        if lo == hi:
            return () if _is_int(lo) else ((c, math.floor(lo)),)
        out = [(c, r) for r in range(math.floor(lo), math.ceil(hi))]
        return tuple(out if py <= qy else reversed(out))
    flip = px > qx
    if flip:
        (px, py), (qx, qy) = b, a
    slope = (qy - py) / (qx - px)
    result: list[Square] = []
    for c in range(math.floor(px), math.ceil(qx)):
        xa, xb = max(px, Fraction(c)), min(qx, Fraction(c + 1))
        if xa >= xb:
            continue
        ya, yb = py + (xa - px) * slope, py + (xb - px) * slope
        if ya == yb:
            if not _is_int(ya):
                result.append((c, math.floor(ya)))
            continue
        lo, hi = min(ya, yb), max(ya, yb)
        col = [(c, r) for r in range(math.floor(lo), math.ceil(hi))]
        result.extend(col if ya < yb else reversed(col))
    return tuple(reversed(result) if flip else result)


def _seams(p: Point, q: Point) -> list[tuple[Square, Square]]:
    """Pairs of squares on either side of the unit edges that ``p``-``q`` runs along."""
    (px, py), (qx, qy) = p, q
    out: list[tuple[Square, Square]] = []
    if px == qx and _is_int(px) and py != qy:
        x = int(px)
        lo, hi = sorted((py, qy))
        for r in range(math.floor(lo), math.ceil(hi)):
            out.append(((x - 1, r), (x, r)))
    elif py == qy and _is_int(py) and px != qx:
        y = int(py)
        lo, hi = sorted((px, qx))
        for c in range(math.floor(lo), math.ceil(hi)):
            out.append(((c, y - 1), (c, y)))
    return out


def _cross(a: Point, b: Point) -> Fraction:
    return a[0] * b[1] - a[1] * b[0]


def _dot(a: Point, b: Point) -> Fraction:
    return a[0] * b[0] + a[1] * b[1]


def _half(ref: Point, v: Point) -> int:
    c, d = _cross(ref, v), _dot(ref, v)
    return 0 if c > 0 or (c == 0 and d > 0) else 1


def _in_open_arc(start: Point, end: Point, ray: Point) -> bool:
    """True when ``ray`` lies strictly inside the arc turning from ``start`` to ``end`` in the
    positive sense (rays parallel to ``start`` or ``end`` are outside)."""
    if _cross(start, ray) == 0 and _dot(start, ray) > 0:
        return False
    if _cross(end, ray) == 0 and _dot(end, ray) > 0:
        return False
    hr, he = _half(start, ray), _half(start, end)
    if hr != he:
        return hr < he
    return _cross(ray, end) > 0


def _separated(before: Point, after: Point, rays: Iterable[Point]) -> bool:
    """Wall material on both sides of a path that arrives along ``before`` and leaves along
    ``after`` (both pointing away from the point): the path is sealed there."""
    rays = list(rays)
    one = any(_in_open_arc(before, after, r) for r in rays)
    other = any(_in_open_arc(after, before, r) for r in rays)
    return one and other


_UNIT = (Fraction(1), Fraction(0))


@dataclass(frozen=True, slots=True)
class Obstruction:
    """Something a line passes: ``kind`` is one of :data:`VERDICTS`.

    ``square`` for square terrain and creatures, ``point`` where a line is sealed by border
    walls (or squeezes between wall squares), ``creature`` the id for soft cover. ``counted``
    is False for a low obstacle the ``grid.low-obstacle`` rule discards (``ignored_by`` says
    which test: ``far`` or ``attacker-closer``).
    """

    kind: str
    square: Square | None = None
    point: Point | None = None
    creature: str | None = None
    counted: bool = True
    ignored_by: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.square is not None:
            out["square"] = list(self.square)
        if self.point is not None:
            out["at"] = [_num(v) for v in self.point]
        if self.creature is not None:
            out["creature"] = self.creature
        out["counted"] = self.counted
        if self.ignored_by:
            out["ignored_by"] = f"grid.low-obstacle/{self.ignored_by}"
        return out


def _num(v: Fraction) -> int | float:
    return int(v) if _is_int(v) else round(float(v), 6)


class _Tracer:
    """Traces segments on one scenario, for one attacker and target (their squares never
    count)."""

    def __init__(self, scenario: GridScenario, own: Iterable[str]) -> None:
        self.s = scenario
        self.own = frozenset(own)
        self._cache: dict[tuple[Point, Point, bool, bool], tuple[Obstruction, ...]] = {}

    def own_square(self, sq: Square) -> bool:
        occ = self.s.occupant(sq)
        return occ is not None and occ in self.own

    def _rays(self, x: Point) -> list[Point]:
        """Wall material at a point of the plane: border-wall rays, and for each wall square
        touching a grid point its diagonal (the bisector stands for the whole quadrant)."""
        s = self.s
        edges = s.wall_edges
        px, py = x
        rays: list[Point] = []
        one, zero = Fraction(1), Fraction(0)
        if _is_int(px) and _is_int(py):
            cx, cy = int(px), int(py)
            if ((cx, cy - 1), (cx, cy)) in edges:
                rays.append((zero, -one))
            if ((cx, cy), (cx, cy + 1)) in edges:
                rays.append((zero, one))
            if ((cx - 1, cy), (cx, cy)) in edges:
                rays.append((-one, zero))
            if ((cx, cy), (cx + 1, cy)) in edges:
                rays.append((one, zero))
            for dc, dr in ((-1, -1), (0, -1), (-1, 0), (0, 0)):
                if s.kind((cx + dc, cy + dr)) == WALL:
                    rays.append((Fraction(2 * dc + 1), Fraction(2 * dr + 1)))
        elif _is_int(px):
            r = math.floor(py)
            if ((int(px), r), (int(px), r + 1)) in edges:
                rays += [(zero, -one), (zero, one)]
        elif _is_int(py):
            c = math.floor(px)
            if ((c, int(py)), (c + 1, int(py))) in edges:
                rays += [(-one, zero), (one, zero)]
        return rays

    def _grid_points(self, p: Point, q: Point) -> list[Point]:
        """Points of the segment on grid lines where border walls or wall corners may stand,
        ends included."""
        (px, py), (qx, qy) = p, q
        dx, dy = qx - px, qy - py
        found: dict[Fraction, Point] = {}
        if dx == 0 and dy == 0:
            return [p]
        if dx != 0:
            for k in range(math.ceil(min(px, qx)), math.floor(max(px, qx)) + 1):
                t = (k - px) / dx
                found.setdefault(t, (Fraction(k), py + t * dy))
        if dy != 0:
            for k in range(math.ceil(min(py, qy)), math.floor(max(py, qy)) + 1):
                t = (k - py) / dy
                found.setdefault(t, (px + t * dx, Fraction(k)))
        found.setdefault(Fraction(0), p)
        found.setdefault(Fraction(1), q)
        return [found[t] for t in sorted(found)]

    def trace(
        self,
        p: Point,
        q: Point,
        start_inside: Point,
        end_inside: Point,
        *,
        creatures: bool = True,
        effect_only: bool = False,
    ) -> tuple[Obstruction, ...]:
        """Everything the segment ``p``-``q`` passes. ``start_inside`` / ``end_inside`` are
        points inside the squares the ends belong to (their centres), which tell from which
        side the ends meet walls."""
        ends: list[Obstruction | None]
        if p == q:  # zero length: walls between the two squares at their shared corner
            rays = self._rays(p)
            before = (start_inside[0] - p[0], start_inside[1] - p[1])
            after = (end_inside[0] - q[0], end_inside[1] - q[1])
            ends = [self._sealed(p, before, after, rays) if rays else None]
        else:
            d = (q[0] - p[0], q[1] - p[1])
            ends = [
                self._end(p, (start_inside[0] - p[0], start_inside[1] - p[1]), d),
                self._end(q, (-d[0], -d[1]), (end_inside[0] - q[0], end_inside[1] - q[1])),
            ]
        out = list(self._middle(p, q, creatures, effect_only))
        for ob in ends:
            if ob is not None and ob not in out:
                out.append(ob)
        return tuple(out)

    def _end(self, x: Point, before: Point, after: Point) -> Obstruction | None:
        """Walls at an end of the segment: ``before`` points into the square the end belongs
        to (or back along the segment), ``after`` along the segment (or into the square)."""
        rays = self._rays(x)
        return self._sealed(x, before, after, rays) if rays else None

    @staticmethod
    def _sealed(x: Point, before: Point, after: Point, rays: list[Point]) -> Obstruction | None:
        if not _separated(before, after, rays):
            return None
        borders = [r for r in rays if r[0] == 0 or r[1] == 0]
        kind = BORDER_WALL if _separated(before, after, borders) else WALL
        return Obstruction(kind, point=x)

    def _middle(
        self, p: Point, q: Point, creatures: bool, effect_only: bool
    ) -> tuple[Obstruction, ...]:
        """What the segment passes between its ends (cached: many lines share a segment)."""
        key = (p, q, creatures, effect_only)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        s = self.s
        found: list[Obstruction] = []
        seen: set[tuple[str, Square | None, Point | None]] = set()

        def add(ob: Obstruction) -> None:
            k = (ob.kind, ob.square, ob.point)
            if k not in seen:
                seen.add(k)
                found.append(ob)

        def square_terrain(sq: Square) -> None:
            if self.own_square(sq):
                return
            k = s.kind(sq)
            if k != OPEN and (not effect_only or k == WALL):
                add(Obstruction(k, square=sq))
            occ = s.occupant(sq)
            if creatures and not effect_only and occ is not None and occ not in self.own:
                add(Obstruction(CREATURE, square=sq, creature=occ))

        for sq in squares_crossed(p, q):
            square_terrain(sq)
        for a, b in _seams(p, q):
            if not (s.inside(a) and s.inside(b)):
                continue
            ka, kb = s.kind(a), s.kind(b)
            if ka == kb or (ka in _SOLID and kb in _SOLID):
                square_terrain(a)
                square_terrain(b)
            elif OPEN not in (ka, kb):  # a low square beside a wall square: the low one
                square_terrain(a if ka not in _SOLID else b)
            occ = s.occupant(a)
            if occ is not None and occ == s.occupant(b) and creatures and not effect_only:
                square_terrain(a)
                square_terrain(b)
        d = (q[0] - p[0], q[1] - p[1])
        back = (-d[0], -d[1])
        for x in self._grid_points(p, q):
            if x in (p, q):
                continue
            rays = self._rays(x)
            if rays:
                ob = self._sealed(x, back, d, rays)
                if ob is not None:
                    add(ob)
        result = tuple(found)
        self._cache[key] = result
        return result


def _centre(sq: Square) -> Point:
    return (Fraction(2 * sq[0] + 1, 2), Fraction(2 * sq[1] + 1, 2))


def _corners(sq: Square) -> tuple[Corner, ...]:
    """Corners of a square: top-left, top-right, bottom-left, bottom-right."""
    c, r = sq
    return ((c, r), (c + 1, r), (c, r + 1), (c + 1, r + 1))


def pf_distance(a: Square, b: Square) -> int:
    """Squares between two squares counted the Pathfinder way (diagonals alternate 1 and 2).

    >>> pf_distance((0, 0), (1, 1)), pf_distance((0, 0), (2, 2)), pf_distance((0, 0), (6, 0))
    (1, 3, 6)
    """
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dx, dy) + min(dx, dy) // 2


def _space_distance(cr: Creature, sq: Square) -> int:
    return min(pf_distance(s, sq) for s in cr.squares)


def _chebyshev(a: Creature, b: Creature) -> int:
    (a0, a1), (b0, b1) = a.box, b.box
    dx = max(b0[0] - a1[0] + 1, a0[0] - b1[0] + 1, 0)
    dy = max(b0[1] - a1[1] + 1, a0[1] - b1[1] + 1, 0)
    return max(dx, dy)


def creature_distance(a: Creature, b: Creature) -> int:
    """Squares between the nearest squares of two creatures (Pathfinder counting)."""
    return min(pf_distance(x, y) for x in a.squares for y in b.squares)


def _in_reach(a: Creature, b: Creature, reach: int) -> bool:
    if creature_distance(a, b) <= reach:
        return True
    return reach == 2 and _chebyshev(a, b) <= 2  # reach weapons reach 2 squares diagonally


# --- line of effect (grid.total) ------------------------------------------------------------


def _clip(u: Point, d: Point, box: tuple[Corner, Corner]) -> tuple[Fraction, Fraction] | None:
    """Parameters ``s`` where ``u + s*d`` lies in the closed box, or None."""
    lo, hi = Fraction(-(10**9)), Fraction(10**9)
    for axis in (0, 1):
        a, b = Fraction(box[0][axis]), Fraction(box[1][axis])
        if d[axis] == 0:
            if not a <= u[axis] <= b:
                return None
            continue
        s1, s2 = (a - u[axis]) / d[axis], (b - u[axis]) / d[axis]
        lo, hi = max(lo, min(s1, s2)), min(hi, max(s1, s2))
    return (lo, hi) if lo <= hi else None


def _hull(points: Sequence[Corner]) -> list[Corner]:
    """Convex hull, counter-clockwise in the (x, y) plane (monotone chain, integers)."""
    pts = sorted(set(points))

    def turn(o: Corner, a: Corner, b: Corner) -> int:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Corner] = []
    upper: list[Corner] = []
    for pt in pts:
        while len(lower) >= 2 and turn(lower[-2], lower[-1], pt) <= 0:
            lower.pop()
        lower.append(pt)
    for pt in reversed(pts):
        while len(upper) >= 2 and turn(upper[-2], upper[-1], pt) <= 0:
            upper.pop()
        upper.append(pt)
    return lower[:-1] + upper[:-1]


def _in_hull(hull: Sequence[Corner], pt: Corner) -> bool:
    """``pt`` inside or on the boundary of a convex polygon given counter-clockwise."""
    n = len(hull)
    for i in range(n):
        (ax, ay), (bx, by) = hull[i], hull[(i + 1) % n]
        if (bx - ax) * (pt[1] - ay) - (by - ay) * (pt[0] - ax) < 0:
            return False
    return True


def _wall_square_on(scenario: GridScenario, tracer: _Tracer, p: Point, q: Point) -> bool:
    """Whether the segment meets the open interior of a wall square (early exit)."""
    (px, py), (qx, qy) = (p, q) if p[0] <= q[0] else (q, p)
    if px == qx:
        return any(scenario.kind(sq) == WALL for sq in squares_crossed(p, q))
    slope = (qy - py) / (qx - px)
    for c in range(math.floor(px), math.ceil(qx)):
        xa, xb = max(px, Fraction(c)), min(qx, Fraction(c + 1))
        if xa >= xb:
            continue
        ya, yb = py + (xa - px) * slope, py + (xb - px) * slope
        if ya == yb:
            rows = [] if _is_int(ya) else [math.floor(ya)]
        else:
            rows = list(range(math.floor(min(ya, yb)), math.ceil(max(ya, yb))))
        for r in rows:
            if scenario.kind((c, r)) == WALL and not tracer.own_square((c, r)):
                return True
    return False


def _box_centre(box: tuple[Corner, Corner]) -> Point:
    return (Fraction(box[0][0] + box[1][0], 2), Fraction(box[0][1] + box[1][1], 2))


def _box_corners(box: tuple[Corner, Corner]) -> list[Corner]:
    (x0, y0), (x1, y1) = box
    return [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]


def line_of_effect(scenario: GridScenario, attacker: Creature, target: Creature) -> bool:
    """Whether some segment joins a point of the attacker's space to a point of the target's
    space without being blocked by a wall square or a border wall (``grid.total``).

    Exact: corner-to-corner segments are tried first; if all are blocked, every line through
    two critical grid points (corners of the spaces, of wall squares, ends of wall edges)
    inside the convex hull of the two spaces is tried, between the near ends of its chords
    through the two spaces.
    """
    tracer = _Tracer(scenario, (attacker.id, target.id))
    abox, tbox = attacker.box, target.box
    ac, tc = _box_centre(abox), _box_centre(tbox)

    def clear(p: Point, q: Point) -> bool:
        if _wall_square_on(scenario, tracer, p, q):  # fast exit: most candidates end here
            return False
        return not tracer.trace(p, q, ac, tc, effect_only=True)

    for a in _box_corners(abox):
        for t in _box_corners(tbox):
            if clear(_frac(a), _frac(t)):
                return True
    x0 = min(abox[0][0], tbox[0][0])
    y0 = min(abox[0][1], tbox[0][1])
    x1 = max(abox[1][0], tbox[1][0])
    y1 = max(abox[1][1], tbox[1][1])
    points: set[Corner] = set(_box_corners(abox)) | set(_box_corners(tbox))
    for e in scenario.wall_edges:
        for x, y in e:
            if x0 <= x <= x1 and y0 <= y <= y1:
                points.add((x, y))
    for y in range(y0, y1):
        for x in range(x0, x1):
            if scenario.kind((x, y)) == WALL:
                points.update(_corners((x, y)))
    solid = {
        pt
        for pt in points
        if all(scenario.kind((pt[0] + dc, pt[1] + dr)) == WALL for dc in (-1, 0) for dr in (-1, 0))
    }
    hull = _hull(_box_corners(abox) + _box_corners(tbox))
    # A segment from one space to the other lies in their convex hull: only points there can
    # pin it.
    cands = sorted(pt for pt in points - solid if _in_hull(hull, pt))
    tried: set[tuple[int, int, int]] = set()
    for i, u in enumerate(cands):
        for v in cands[i + 1 :]:
            la, lb = v[1] - u[1], u[0] - v[0]
            g = math.gcd(la, lb)
            la, lb = la // g, lb // g
            if la < 0 or (la == 0 and lb < 0):
                la, lb = -la, -lb
            key = (la, lb, la * u[0] + lb * u[1])
            if key in tried:
                continue
            tried.add(key)
            uu, d = _frac(u), (Fraction(v[0] - u[0]), Fraction(v[1] - u[1]))
            sa, st = _clip(uu, d, abox), _clip(uu, d, tbox)
            if sa is None or st is None:
                continue
            if sa[1] < st[0]:
                pairs = [(sa[1], st[0])]
            elif st[1] < sa[0]:
                pairs = [(sa[0], st[1])]
            else:  # the spaces touch along this line
                lo, hi = max(sa[0], st[0]), min(sa[1], st[1])
                pairs = [(lo, lo), (hi, hi)]
            for s1, s2 in pairs:
                p = (uu[0] + s1 * d[0], uu[1] + s1 * d[1])
                q = (uu[0] + s2 * d[0], uu[1] + s2 * d[1])
                if clear(p, q):
                    return True
    return False


# =============================================================================================
# Rulings
# =============================================================================================


@dataclass(frozen=True, slots=True)
class GridLine:
    """One line from a corner of the attacker's square to a corner of the target's square,
    with its ``verdict`` (``clear`` or the strongest counted obstruction) and what it passes
    (``through``, ignored low obstacles included)."""

    start: Corner
    end: Corner
    verdict: str
    through: tuple[Obstruction, ...] = ()

    @property
    def clear(self) -> bool:
        return self.verdict == "clear"

    @property
    def blocks_effect(self) -> bool:
        return any(o.counted and o.kind in _BLOCKS_EFFECT for o in self.through)

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": list(self.start),
            "to": list(self.end),
            "verdict": self.verdict,
            "through": [o.to_dict() for o in self.through],
        }


@dataclass(frozen=True, slots=True)
class PartialCover:
    """``grid.partial``: the measure behind the suggestion (``clear`` of ``lines`` lines from
    the chosen corner are clear) and the full-cover values the GM may keep instead."""

    clear: int
    lines: int
    measure: str = "clear-lines"
    full_ac: int = 4
    full_reflex: int = 2

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.clear, self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "suggested": True,
            "measure": self.measure,
            "clear": self.clear,
            "lines": self.lines,
            "visible": round(float(self.fraction), 6),
            "full": {"ac": self.full_ac, "reflex": self.full_reflex},
            "gm_call": True,
        }


@dataclass(frozen=True, slots=True)
class GridRuling(Explained):
    """The answer of :func:`grid_cover` (``fwwrules grid``).

    ``cover`` is one of :data:`COVERS` (soft cover is ``cover`` with ``soft=True``); ``ac`` and
    ``reflex`` are the bonuses that apply; ``corner`` is the attacker's chosen corner and
    ``lines`` the lines drawn from it (melee: from every corner of the attacker's square).
    """

    attacker: str
    target: str
    attack: str
    procedure: str
    cover: str
    soft: bool
    ac: int
    reflex: int
    stealth: bool
    stealth_bonus: int
    attack_allowed: bool
    attacks_of_opportunity: bool
    improved_evasion: bool
    corner: Corner
    attacker_square: Square
    target_square: Square
    lines: tuple[GridLine, ...] = ()
    partial: PartialCover | None = None
    in_reach: bool = True
    reasons: tuple[Reason, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def line_of_effect(self) -> bool:
        return self.cover != "total"

    def headline(self, lang: str = "en") -> str:
        check_lang(lang)
        values = {
            "attacker": self.labels.get(self.attacker, self.attacker),
            "target": self.labels.get(self.target, self.target),
            "attack": render(f"grid/attack/{self.attack}", {}, lang),
            "ac": self.ac,
            "reflex": self.reflex,
        }
        key = "soft" if self.soft else self.cover
        text = render(f"grid/headline/{key}", values, lang)
        if not self.in_reach:
            text += " " + render("grid/headline/out-of-reach", values, lang)
        return text

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        check_lang(lang)
        return {
            "attacker": self.attacker,
            "target": self.target,
            "attack": self.attack,
            "procedure": self.procedure,
            "cover": self.cover,
            "soft": self.soft,
            "ac": self.ac,
            "reflex": self.reflex,
            "stealth": self.stealth,
            "stealth_bonus": self.stealth_bonus,
            "attack_allowed": self.attack_allowed,
            "attacks_of_opportunity": self.attacks_of_opportunity,
            "improved_evasion": self.improved_evasion,
            "line_of_effect": self.line_of_effect,
            "in_reach": self.in_reach,
            "corner": list(self.corner),
            "attacker_square": list(self.attacker_square),
            "target_square": list(self.target_square),
            "partial": None if self.partial is None else self.partial.to_dict(),
            "lines": [ln.to_dict() for ln in self.lines],
            "headline": self.headline(lang),
            "reasons": [r.to_dict(lang) for r in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class _Choice:
    """One candidate of the attacker: its square and corner, the target square, the lines."""

    a_square: Square
    corner: Corner
    t_square: Square
    lines: tuple[GridLine, ...]
    category: str  # none | soft | partial | cover | improved
    index: int

    @property
    def obstructed(self) -> int:
        return sum(1 for ln in self.lines if not ln.clear)

    @property
    def key(self) -> tuple[int, int, int, int]:
        ac, reflex = _BONUS[self.category]
        return (ac, reflex, self.obstructed, self.index)


def _verdict(through: Sequence[Obstruction]) -> str:
    counted = {o.kind for o in through if o.counted}
    for v in VERDICTS:
        if v in counted:
            return v
    return "clear"


def _category(lines: Sequence[GridLine], *, partial: bool) -> str:
    kinds = {o.kind for ln in lines for o in ln.through if o.counted}
    if ARROW_SLIT in kinds:
        return "improved"
    if kinds & {WALL, BORDER_WALL, LOW}:
        clear = sum(1 for ln in lines if ln.clear)
        return "partial" if partial and 2 * clear > len(lines) else "cover"
    if CREATURE in kinds:
        return "soft"
    return "none"


def _sq(square: Square) -> dict[str, int]:
    return {"c": square[0], "r": square[1]}


class _Judge:
    """Builds lines and reasons for one (attacker, target) pair."""

    def __init__(self, scenario: GridScenario, attacker: Creature, target: Creature) -> None:
        self.s = scenario
        self.a = attacker
        self.t = target
        self.tracer = _Tracer(scenario, (attacker.id, target.id))

    def low_rule(self, ob: Obstruction) -> Obstruction:
        """``grid.low-obstacle``: keep a low square only within range of the target and when
        the attacker is not closer to it."""
        if ob.kind != LOW or ob.square is None:
            return ob
        t_dist = _space_distance(self.t, ob.square)
        a_dist = _space_distance(self.a, ob.square)
        if t_dist * self.s.square > LOW_OBSTACLE_RANGE_FT:
            return Obstruction(LOW, square=ob.square, counted=False, ignored_by="far")
        if a_dist < t_dist:
            return Obstruction(LOW, square=ob.square, counted=False, ignored_by="attacker-closer")
        return ob

    def line(self, a_sq: Square, p: Corner, t_sq: Square, q: Corner, *, melee: bool) -> GridLine:
        raw = self.tracer.trace(
            _frac(p), _frac(q), _centre(a_sq), _centre(t_sq), creatures=not melee
        )
        through = tuple(self.low_rule(o) for o in raw)
        return GridLine(p, q, _verdict(through), through)

    # --- ranged (and reach beyond adjacency) -------------------------------------------------
    def ranged_choices(
        self, *, stop_when_clear: bool = False, first_only: bool = False
    ) -> list[_Choice]:
        """Every (attacker square, corner, target square) in tie-break order. A corner shared
        by several of the attacker's squares is tried once, with the first of them (its lines
        do not depend on the square: no wall runs inside a space). With ``stop_when_clear``
        the search ends at the first choice whose lines are all clear (nothing beats it)."""
        out: list[_Choice] = []
        index = 0
        seen: set[Corner] = set()
        for a_sq in self.a.squares:
            for p in _corners(a_sq):
                if p in seen:
                    continue
                seen.add(p)
                for t_sq in self.t.squares:
                    lines = tuple(self.line(a_sq, p, t_sq, q, melee=False) for q in _corners(t_sq))
                    choice = _Choice(a_sq, p, t_sq, lines, _category(lines, partial=True), index)
                    out.append(choice)
                    index += 1
                    if first_only or (stop_when_clear and choice.obstructed == 0):
                        return out
        return out

    # --- melee against an adjacent target ----------------------------------------------------
    def melee_choices(self) -> list[_Choice]:
        out: list[_Choice] = []
        index = 0
        for a_sq in self.a.squares:
            for t_sq in self.t.squares:
                if max(abs(a_sq[0] - t_sq[0]), abs(a_sq[1] - t_sq[1])) != 1:
                    continue
                lines = tuple(
                    self.line(a_sq, p, t_sq, q, melee=True)
                    for p in _corners(a_sq)
                    for q in _corners(t_sq)
                )
                walled = any(not ln.clear for ln in lines)
                first = next((ln.start for ln in lines if not ln.clear), _corners(a_sq)[0])
                out.append(_Choice(a_sq, first, t_sq, lines, "cover" if walled else "none", index))
                index += 1
        return out


def _obstruction_reasons(lines: Sequence[GridLine], clause: str, judge: _Judge) -> list[Reason]:
    """One reason per distinct obstruction on the chosen lines (ignored low obstacles too)."""
    out: list[Reason] = []
    seen: set[tuple[str, Square | None, Point | None]] = set()
    ft = judge.s.square
    for ln in lines:
        for o in ln.through:
            key = (o.kind, o.square, o.point)
            if key in seen:
                continue
            seen.add(key)
            base: dict[str, Any] = {"attacker": judge.a.id, "target": judge.t.id}
            if o.square is not None:
                base.update(_sq(o.square))
            if o.point is not None:
                base.update(x=_num(o.point[0]), y=_num(o.point[1]))
            if o.kind == CREATURE:
                out.append(Reason("grid.soft", "through", {**base, "creature": o.creature}))
            elif o.kind == LOW and o.square is not None:
                dist = {
                    "limit": LOW_OBSTACLE_RANGE_FT,
                    "target_ft": _space_distance(judge.t, o.square) * ft,
                    "attacker_ft": _space_distance(judge.a, o.square) * ft,
                }
                key2 = "counts" if o.counted else o.ignored_by
                out.append(Reason("grid.low-obstacle", key2, {**base, **dist}))
            elif o.kind == WALL and o.point is not None:
                out.append(Reason(clause, "wall-corner", base))
            else:
                out.append(Reason(clause, o.kind, base))
    return out


def grid_cover(
    scenario: GridScenario, attacker_id: str, target_id: str, attack: str = "ranged"
) -> GridRuling:
    """Pathfinder 1e cover of ``target_id`` against ``attacker_id`` on a grid scenario.

    ``attack`` is ``ranged``, ``melee`` or ``reach``. Adjacent melee (or reach) attacks use
    ``grid.melee``; everything else uses the ``grid.ranged`` procedure. The module docstring
    lists every decision and boundary case.

    Raises :class:`UnknownIdError` for an unknown creature and :class:`QueryError` for a
    scenario that is not a grid, an unknown attack type, or a creature attacking itself.
    """
    if not isinstance(scenario, GridScenario):
        raise QueryError(f"grid cover needs a {GRID_FORMAT} file, not {type(scenario).__name__}")
    if attack not in ATTACKS:
        raise QueryError(f"unknown attack {attack!r}; expected one of {', '.join(ATTACKS)}")
    att = scenario.creature(attacker_id)
    tgt = scenario.creature(target_id)
    if att.id == tgt.id:
        raise QueryError(f"{att.id!r} cannot attack itself")
    judge = _Judge(scenario, att, tgt)
    labels = {c.id: c.label for c in scenario.creatures}
    names = {"attacker": att.id, "target": tgt.id}
    reasons: list[Reason] = []

    adjacent = _chebyshev(att, tgt) == 1
    reach = att.reach if att.reach is not None else DEFAULT_REACH.get(attack, 1)
    in_reach = attack == "ranged" or _in_reach(att, tgt, reach)
    melee_proc = attack != "ranged" and adjacent

    if att.size > 1:
        reasons.append(Reason("grid.big", "attacker", {**names, "size": att.size}))
    if tgt.size > 1:
        reasons.append(Reason("grid.big", "target", {**names, "size": tgt.size}))

    effect = line_of_effect(scenario, att, tgt)
    if melee_proc:
        choices = judge.melee_choices()
        best = min(choices, key=lambda c: c.key)
        key = "adjacent-wall" if best.category == "cover" else "adjacent-clear"
        reasons.append(
            Reason("grid.melee", key, {**names, **_sq(best.a_square), "n": len(best.lines)})
        )
        reasons += _obstruction_reasons(best.lines, "grid.melee", judge)
        procedure = "melee"
    else:
        if attack != "ranged":
            msg = "reach" if in_reach else "out-of-reach"
            dist = creature_distance(att, tgt)
            reasons.append(Reason("grid.melee", msg, {**names, "reach": reach, "distance": dist}))
        # Under total cover every line is blocked; the first choice shows that.
        choices = judge.ranged_choices(stop_when_clear=True, first_only=not effect)
        best = min(choices, key=lambda c: c.key)
        clear = sum(1 for ln in best.lines if ln.clear)
        reasons.append(
            Reason(
                "grid.ranged",
                "corner",
                {
                    **names,
                    "x": best.corner[0],
                    "y": best.corner[1],
                    "clear": clear,
                    "n": len(best.lines),
                    **_sq(best.t_square),
                },
            )
        )
        reasons += _obstruction_reasons(best.lines, "grid.ranged", judge)
        procedure = "ranged"
    category = best.category

    partial: PartialCover | None = None
    if procedure == "ranged":
        clear = sum(1 for ln in best.lines if ln.clear)
        n = len(best.lines)
        if category == "partial":
            partial = PartialCover(clear, n)
            reasons.append(Reason("grid.partial", "suggested", {**names, "clear": clear, "n": n}))
        elif category == "cover":
            reasons.append(Reason("grid.partial", "not", {**names, "clear": clear, "n": n}))

    if not effect:
        category = "total"
        partial = None
        reasons.append(Reason("grid.total", "", names))

    soft = category == "soft"
    cover = "cover" if soft else category
    ac, reflex = _BONUS[category]
    if category in ("none", "soft", "cover", "partial"):
        reasons.append(
            Reason(f"grid.{procedure}", f"result-{category}", {**names, "ac": ac, "reflex": reflex})
        )
    if category == "soft":
        reasons.append(Reason("grid.soft", "", names))
    if category == "improved":
        reasons.append(
            Reason("grid.improved", "", {**names, "ac": ac, "reflex": reflex, "stealth": 10})
        )
    covered = category in ("partial", "cover", "improved", "total")
    stealth = covered
    stealth_bonus = IMPROVED_STEALTH_BONUS if category == "improved" else 0
    if covered:
        reasons.append(Reason("grid.consequences", "no-aoo", names))
        if category != "total":
            reasons.append(Reason("grid.consequences", "reflex", {**names, "reflex": reflex}))
        reasons.append(Reason("grid.consequences", "stealth", names))
    else:
        reasons.append(Reason("grid.consequences", f"aoo-{category}", names))
    attack_allowed = category != "total" and in_reach
    return GridRuling(
        attacker=att.id,
        target=tgt.id,
        attack=attack,
        procedure=procedure,
        cover=cover,
        soft=soft,
        ac=ac,
        reflex=reflex,
        stealth=stealth,
        stealth_bonus=stealth_bonus,
        attack_allowed=attack_allowed,
        attacks_of_opportunity=not covered,
        improved_evasion=category == "improved",
        corner=best.corner,
        attacker_square=best.a_square,
        target_square=best.t_square,
        lines=best.lines,
        partial=partial,
        in_reach=in_reach,
        reasons=tuple(reasons),
        labels=labels,
    )
