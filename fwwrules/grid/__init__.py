"""Pathfinder 1st edition grid cover (``grid.*``) and its file format ``fwwrules/grid@1``.

Modules, each importing only those above it: :mod:`.vocabulary` (kinds, bonuses, types),
:mod:`.model` (frozen data), :mod:`.fileformat` (the file spec; needs pydantic, loaded only
when a file is read), :mod:`.geometry` (exact Fraction geometry), :mod:`.cover` (rulings).
This package only re-exports.

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
  wall's free end is not, unless the line passes on the wall's side once its ends are nudged
  into their squares (below). Where wall material meets at a grid point
  (two collinear walls end to end, an L corner, or two wall squares touching diagonally), a
  line through that point is blocked when wall material lies on both sides of it, so no line
  slips through a joint or between two wall squares that touch at a corner.
* Lines along walls (the grid geometry decision): a line that only touches a wall at a point
  (a wall's end, a corner) is not blocked by it. A line that runs along a wall for some length
  (a border wall, or a face of a wall square) is judged on the side of the squares it joins, as
  if its two ends sat an infinitesimal distance inside their own squares
  (:meth:`~fwwrules.grid.geometry.Tracer.trace`): a wall down the side of a corridor does not
  block a line between two squares of that corridor, a wall between two adjacent squares
  blocks the line running along it from one to the other, and no line reaches a walled-in
  square by running along its walls (so such a square has total cover from everywhere).
  Decided exactly: the ends are moved toward their squares' centres by a rational distance
  small enough that no smaller one changes the answer (:func:`~fwwrules.grid.geometry.nudge`);
  the points a ruling reports lie on the original line.
* The nudge applies to every line where it meets a border wall at a point (issue 32): a line
  that ends on a wall's end point, a zero-length line between two corners the squares share,
  and a line whose middle touches a wall's end are judged as if their ends sat an
  infinitesimal distance inside their squares. Nudged, such a line passes the point on one
  side; a border wall leaving the point toward that side blocks it (reported as
  ``nudged``), one on the other side is only touched. So a wall along the whole border
  between two adjacent squares gives total cover across it, for melee and ranged attacks.
  Wall squares stay judged on the line itself: a line to a wall square's corner only touches
  it (the PRD's sorcerer figure).
* A line's end is a corner of the attacker's (or target's) square; walls at that corner are
  judged as seen from inside that square: a line that leaves the attacker's corner to the far
  side of a wall running through that corner is blocked, and so is one that leaves it on the
  wall's side (the nudge); a line leaving a wall's free end away from the wall is not.

Rule decisions (documented per clause)
--------------------------------------
* ``grid.ranged``: the attacker tries every corner of (every square of) its space. Against a
  target of size 1, or in a melee or reach attack that uses this procedure, it also picks a
  square of the target's space and draws the lines to the four corners of that square.
  A **ranged** attack on a big target picks no square: its lines go to every corner of every
  square the target occupies (``(size + 1) ** 2`` lines, ``grid.big``). The attacker takes the
  choice best for it: the lowest AC bonus, then the lowest Reflex bonus, then the fewest
  obstructed lines; remaining ties go to the first choice in this order: attacker squares in
  reading order (row by row, left to right), corners top-left, top-right, bottom-left,
  bottom-right, target squares in reading order.
* ``grid.big``: in melee, a creature of size 2 or more picks any square it occupies when
  attacking, and a creature attacking it picks any square it occupies. A big attacker making
  a ranged attack may use any corner of any square it occupies (decision). Picking one of the
  target's squares is a melee rule only: a ranged attack draws its lines to all of them, so a
  wall hiding part of a big creature gives cover or partial cover. Lines through the
  attacker's and the target's own squares never count.
* ``grid.melee``: a melee attack by a creature without reach against an adjacent target (its
  space touches the attacker's, diagonals included): the target has cover when any line from
  any corner of the attacker's square to any corner of the target's square crosses a wall
  (wall square, border wall, arrow slit or low obstacle); creatures never matter. A big
  creature picks the adjacent pair of squares best for the attacker. A creature with reach
  (a ``reach`` attack, or a creature whose ``reach`` is 2 squares or more) figures every
  attack with the ``grid.ranged`` procedure, even against an adjacent target (the PRD's rogue
  figure: the ogre has melee cover from the rogue, she has none from the ogre); so does a melee
  attack on a target that is not adjacent. The ranged procedure is used whole, soft cover
  included (our reading). The target must be within reach (``reach`` squares, default 1 for
  ``melee`` and 2 for ``reach``), otherwise the attack is not allowed.
* ``grid.reach``: a reach of 2 squares (10 ft) also reaches the square two away diagonally,
  though the 1-2-1 count makes it 3 squares (15 ft): an exception the PRD allows for 10-ft
  reach. The ruling says so (``grid.reach/diagonal``) when only this exception puts the target
  in reach.
* ``grid.low-obstacle``: a low square gives cover only when the target is within 30 ft of it
  and the attacker is not closer to it than the target. Distances count squares the Pathfinder
  way (diagonals alternate 5 and 10 ft: ``max + min // 2`` squares) between the nearest
  squares of the creature's space and the obstacle, times the file's ``square`` feet.
* ``grid.soft``: a line through a square holding another creature gives soft cover (+4 AC, no
  Reflex bonus, no Stealth), only against ranged (and reach) attacks.
* ``grid.improved``: an arrow slit gives improved cover only to a target behind it: one
  strictly nearer to the slit square than the attacker (Pathfinder distance between the
  nearest squares, decision as for low obstacles). For an attacker behind the slit (nearer,
  or as near as the target) shooting out, the slit is open ground for its lines: it gives the
  target no cover, and a line along its seam with a wall square runs along the wall's face.
  In adjacent melee (``grid.melee``) a slit is a wall like any other.
* Categories from the chosen lines: any counted arrow slit -> ``improved``; else any wall,
  border wall or counted low obstacle -> ``cover``; else any creature -> soft cover; else
  ``none``.
* ``grid.partial`` (the GM's call): with ``cover`` from terrain, when more than half of the
  lines from the chosen corner are clear, the engine suggests partial cover (+2 AC, +1
  Reflex). The measure is ``clear lines / lines`` (3 of 4 clear suggests it, 2 of 4 does not;
  against a 2x2 target 5 of 9 suggests it). The ruling keeps the full values in ``partial``.
* ``grid.total``: total cover when no segment from any point of the attacker's space to any
  point of the target's space (judged as the lines-along-walls decision says) avoids the
  walls (wall squares and border walls; low obstacles, arrow slits and creatures never block
  line of effect). Decided exactly: if such a segment
  exists, one also exists through two grid points among the corners of the two spaces and of
  the walls, so those candidate lines are tried (the corner-to-corner lines first). Under
  total cover the ruling neither counts clear lines for partial cover nor lists creatures on
  the lines (soft cover no longer matters).
* ``grid.consequences``: cover (partial, normal, improved, total) forbids attacks of
  opportunity against the covered creature and allows a Stealth check; soft cover does
  neither (it only works against ranged attacks). The Reflex bonus is the one of the category.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .cover import GridLine, GridRuling, PartialCover, _Choice, _Judge, grid_cover
from .geometry import (
    Obstruction,
    Tracer,
    creature_distance,
    line_of_effect,
    pf_distance,
    squares_crossed,
)
from .model import Creature, GridScenario, Wall
from .vocabulary import (
    ARROW_SLIT,
    ATTACKS,
    BORDER_WALL,
    COVERS,
    CREATURE,
    DEFAULT_LEGEND,
    DEFAULT_REACH,
    DEFAULT_SQUARE_FT,
    GRID_FORMAT,
    IMPROVED_STEALTH_BONUS,
    KINDS,
    LOW,
    LOW_OBSTACLE_RANGE_FT,
    MAX_CREATURE_SIZE,
    MAX_REACH,
    OPEN,
    VERDICTS,
    WALL,
    AttackKind,
    Corner,
    CoverLevel,
    Edge,
    ObstructionKind,
    Point,
    Square,
    SquareKind,
)

if TYPE_CHECKING:
    from .fileformat import CreatureSpec, GridSpec, parse_grid

_Tracer = Tracer  # the name tests and notebooks knew

_LAZY = {"parse_grid", "GridSpec", "CreatureSpec"}


def __getattr__(name: str) -> Any:
    """The file-format names, imported on first use (they need pydantic)."""
    if name in _LAZY:
        return getattr(importlib.import_module(f"{__name__}.fileformat"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ARROW_SLIT",
    "ATTACKS",
    "BORDER_WALL",
    "COVERS",
    "CREATURE",
    "DEFAULT_LEGEND",
    "DEFAULT_REACH",
    "DEFAULT_SQUARE_FT",
    "GRID_FORMAT",
    "IMPROVED_STEALTH_BONUS",
    "KINDS",
    "LOW",
    "LOW_OBSTACLE_RANGE_FT",
    "MAX_CREATURE_SIZE",
    "MAX_REACH",
    "OPEN",
    "VERDICTS",
    "WALL",
    "AttackKind",
    "Corner",
    "CoverLevel",
    "Creature",
    "CreatureSpec",
    "Edge",
    "GridLine",
    "GridRuling",
    "GridScenario",
    "GridSpec",
    "Obstruction",
    "ObstructionKind",
    "PartialCover",
    "Point",
    "Square",
    "SquareKind",
    "Tracer",
    "Wall",
    "_Choice",
    "_Judge",
    "_Tracer",
    "creature_distance",
    "grid_cover",
    "line_of_effect",
    "parse_grid",
    "pf_distance",
    "squares_crossed",
]
