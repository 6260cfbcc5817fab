"""The Pathfinder grid's vocabulary: square kinds, attack kinds, cover levels, obstruction
kinds, their bonuses, and the coordinate types (``grid.*`` clauses).

Only constants and types; imports nothing from the rest of the package.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Final, Literal, get_args

from ..pieces import AttackKind as AttackKind_

GRID_FORMAT: Final = "fwwrules/grid@1"

SquareKind = Literal["open", "wall", "low", "arrow-slit"]
"""What a square of the map holds."""
AttackKind = Literal["ranged", "melee", "reach"]
"""The attack whose cover is asked for (``fwwrules grid --attack``)."""
CoverLevel = Literal["none", "partial", "cover", "improved", "total"]
"""The cover of a ruling (soft cover is ``cover`` with ``soft=True``)."""
Category = Literal["none", "soft", "partial", "cover", "improved", "total"]
"""A cover level with soft cover kept apart (what the bonuses are looked up by)."""
ObstructionKind = Literal["wall", "border-wall", "arrow-slit", "low", "creature"]
"""What a line can pass, strongest first."""
Verdict = Literal["clear", "wall", "border-wall", "arrow-slit", "low", "creature"]
"""A line's verdict: ``clear`` or its strongest counted obstruction."""
IgnoredBy = Literal["", "far", "attacker-closer", "not-behind"]
"""Why an obstruction on a line does not count (empty: it counts): ``far`` and
``attacker-closer`` (``grid.low-obstacle``), ``not-behind`` (``grid.improved``: the target is
not nearer to the arrow slit than the attacker)."""
Procedure = AttackKind_
"""Which procedure decided a ruling: ``grid.ranged`` or ``grid.melee`` (the words of
:data:`fwwrules.pieces.AttackKind`)."""

OPEN: Final = "open"
WALL: Final = "wall"
LOW: Final = "low"
ARROW_SLIT: Final = "arrow-slit"
KINDS: tuple[SquareKind, ...] = get_args(SquareKind)
DEFAULT_LEGEND: Mapping[str, SquareKind] = {"#": "wall", "o": "low", "a": "arrow-slit", ".": "open"}
"""Map characters every grid file knows; a file's ``legend`` adds to (or redefines) them."""

DEFAULT_SQUARE_FT = 5.0
"""Feet per square when the file does not say (``square``)."""

LOW_OBSTACLE_RANGE_FT = 30
"""``grid.low-obstacle``: a low obstacle covers only creatures within this many feet of it."""

MAX_CREATURE_SIZE = 6
"""Largest creature space in squares (Colossal: 30 ft)."""

MAX_REACH = 20
"""Longest reach in squares a file may give."""

ATTACKS: tuple[AttackKind, ...] = get_args(AttackKind)
DEFAULT_REACH: Mapping[AttackKind, int] = {"melee": 1, "reach": 2}
"""Reach in squares when the creature states none (natural reach / a reach weapon)."""

COVERS: tuple[CoverLevel, ...] = get_args(CoverLevel)

BONUS: Mapping[Category, tuple[int, int]] = {
    "none": (0, 0),
    "soft": (4, 0),
    "partial": (2, 1),
    "cover": (4, 2),
    "improved": (8, 4),
    "total": (0, 0),
}
"""Bonuses per category: (AC, Reflex)."""

IMPROVED_STEALTH_BONUS = 10
"""``grid.improved``: improved cover adds this to Stealth checks."""

BORDER_WALL: Final = "border-wall"
CREATURE: Final = "creature"
VERDICTS: tuple[ObstructionKind, ...] = get_args(ObstructionKind)
"""Obstruction kinds, strongest first (a line's verdict is its strongest counted one)."""
SOLID: frozenset[str] = frozenset({WALL, ARROW_SLIT})
"""Square kinds that are wall material (an arrow slit is a wall with a slit in it)."""

Corner = tuple[int, int]
Square = tuple[int, int]
Edge = tuple[Corner, Corner]
Point = tuple[Fraction, Fraction]
