"""The pieces of a scenario as frozen data: models, terrain, weapons, options, and the vocabulary.

Values are kept exactly as the file states them, in the scenario's ``units``. Building a piece
runs no rule and no geometry; nothing here imports pydantic.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, NamedTuple, get_args

from .catalogue import Lang as Lang  # the languages, defined once in the catalogue
from .refs import EdgeRef as EdgeRef  # references, defined once in refs
from .refs import ModelRef as ModelRef
from .refs import PieceRef as PieceRef
from .refs import PointRef as PointRef
from .refs import TargetRef as TargetRef
from .refs import TerrainRef as TerrainRef

SCENARIO_FORMAT = "fwwrules/scenario@1"
IMPROVISED = "improvised"

Rules = Literal["core", "vts"]
Units = Literal["mm", "in"]
Colour = Literal["orange", "yellow", "red", "green", "blue", "black"]
DiceColour = Literal["black", "green", "yellow", "blue"]
SkillIcon = Literal["pistol", "rifle", "heavy", "melee", "thrown"]
TerrainKind = Literal["blocking", "cover", "area", "dense-area", "scenery"]
Status = Literal["stunned"]
Band = Literal["short", "long"]
DiceBand = Literal["short", "long", "melee"]
"""What a weapon's effect dice are listed under: its range bands, and close combat."""
ChargeMarker = Literal["black", "green"]
"""The colours of Charge Bonus markers (``melee.charge-bonus``)."""
CoverBy = Literal["side", "faction"]
"""``options.cover_by``: whose models give cover (``cover.models``)."""
TargetKind = Literal["model", "terrain", "point"]
AttackKind = Literal["ranged", "melee"]
PassageHow = Literal["none", "grazed", "crossed", "entered", "inside", "exited"]
"""How a segment meets a piece (:class:`fwwrules.geometry.Passage`)."""
BookSource = Literal["RoP", "PRD"]
"""Which book shows an example: ``RoP`` the *Rules of Play*, ``PRD`` the Pathfinder Reference
Document (:class:`fwwrules.conformance.BookRef`)."""
CrossingHow = Literal["grazed", "crossed", "entered", "inside", "exited", "edge"]
"""How the Line of Cover meets a piece it reports (:class:`fwwrules.rulings.Crossing`): a
passage other than ``none``, or ``edge`` for a Significant Edge."""


class Bounds(NamedTuple):
    """A box on the table, ``(xmin, ymin, xmax, ymax)`` (shapely's ``.bounds`` order): the one
    bounds type (the table's limits, placement bounds, threat map areas).

    >>> Bounds(0.0, 0.0, 30.0, 20.0).scaled(2.0)
    Bounds(xmin=0.0, ymin=0.0, xmax=60.0, ymax=40.0)
    """

    xmin: float
    ymin: float
    xmax: float
    ymax: float

    def scaled(self, factor: float) -> Bounds:
        """Each coordinate times ``factor`` (from scenario units to mm and back)."""
        return Bounds(*(v * factor for v in self))


Title = str | Mapping[str, str]
"""A scenario's title: one text for every language, or one text per language
(``{"en": ..., "de": ...}``; the file format's ``title: {en: ..., de: ...}``)."""

Name = Title
"""A piece's display name (a model's, terrain piece's, weapon's, grid creature's), in the same
two forms as a title: one text for every language, or one per language (the file format's
``name: {en: ..., de: ...}``). Read it with :func:`title_in`."""


def title_in(title: Title | None, lang: str) -> str | None:
    """The title (or name, :data:`Name`) a reader of ``lang`` sees: the text itself, or the one
    in ``lang``, else the English one, else the first one given.

    >>> title_in("Crates", "de"), title_in({"en": "Crates", "de": "Kisten"}, "de")
    ('Crates', 'Kisten')
    >>> title_in({"de": "Kisten"}, "en"), title_in(None, "en") is None
    ('Kisten', True)
    """
    if title is None or isinstance(title, str):
        return title
    for key in (lang, "en"):
        if key in title:
            return title[key]
    return next(iter(title.values()), None)


RULER_COLOURS: tuple[Colour, ...] = get_args(Colour)
RULER_INCHES: Mapping[str, float] = {
    "orange": 2.0,
    "yellow": 4.0,
    "red": 6.0,
    "green": 8.0,
    "blue": 10.0,
    "black": 12.0,
}
"""Default ruler lengths in inches (docs/rules.md, "Range rulers"); a scenario may override them."""

DICE_COLOURS: tuple[DiceColour, ...] = get_args(DiceColour)
MAX_DICE_PER_COLOUR = 4
"""``ranged.skill``: at most four effect dice of one colour join a test (a weapon's list, and
the ruling's total: :func:`fwwrules.rulings.fold` caps it and says so)."""
SKILL_ICONS: tuple[SkillIcon, ...] = get_args(SkillIcon)
TERRAIN_KINDS: tuple[TerrainKind, ...] = get_args(TerrainKind)
BANDS: tuple[Band, ...] = get_args(Band)
RULESET_NAMES: tuple[Rules, ...] = get_args(Rules)


@dataclass(frozen=True, slots=True)
class ChargeBonus:
    """Charge Bonus markers held by a model that charged ``target`` (``melee.charge-bonus``)."""

    target: str
    markers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Model:
    """A model on the table. Lengths are in the scenario's units; ``at`` is the base centre."""

    id: str
    faction: str
    base: float
    at: tuple[float, float]
    elevation: float = 0.0
    name: Name | None = None
    """One text, or one per language (:data:`Name`); see :meth:`label_in`."""
    skills: Mapping[str, int] = field(default_factory=dict)
    strength: int | None = None
    keywords: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    charge_bonus: ChargeBonus | None = None
    weapons: tuple[str, ...] = ()
    move: float | None = None
    throw_colour: str | None = None
    """The colour of the model's Throw skill icon (file: ``skills: {thrown: {value: 5,
    colour: red}}``): how far it throws a thrown weapon that has no range of its own
    (``ranged.skill``, RoP p.44). ``None``: the icon's colour is not given."""

    @property
    def label(self) -> str:
        """The English display name (:meth:`label_in`)."""
        return self.label_in("en")

    def label_in(self, lang: str) -> str:
        """The display name a reader of ``lang`` sees (:func:`title_in`), else the id."""
        return title_in(self.name, lang) or self.id

    @property
    def stunned(self) -> bool:
        return "stunned" in self.status


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle by centre, size and rotation in degrees (counter-clockwise)."""

    at: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0

    def corners(self, scale: float = 1.0) -> list[tuple[float, float]]:
        """The four corners, counter-clockwise from the one the angle turns from the
        lower left, times ``scale`` (e.g. ``unit_mm``).

        >>> Rect((1.0, 1.0), (2.0, 4.0)).corners()
        [(0.0, -1.0), (2.0, -1.0), (2.0, 3.0), (0.0, 3.0)]
        """
        w, h = self.size[0] * scale / 2, self.size[1] * scale / 2
        a = math.radians(self.angle)
        ca, sa = math.cos(a), math.sin(a)
        cx, cy = self.at[0] * scale, self.at[1] * scale
        return [
            (cx + x * ca - y * sa, cy + x * sa + y * ca)
            for x, y in ((-w, -h), (w, -h), (w, h), (-w, h))
        ]


@dataclass(frozen=True, slots=True)
class Circle:
    """A round terrain piece (drawn and decided as a fine polygon; bases are exact circles)."""

    at: tuple[float, float]
    diameter: float


Shape = tuple[tuple[float, float], ...] | Rect | Circle


@dataclass(frozen=True, slots=True)
class Terrain:
    """A terrain piece. ``shape`` is a polygon's vertices, a :class:`Rect` or a :class:`Circle`."""

    id: str
    kind: TerrainKind
    shape: Shape
    height: float | None = None
    huge: str | None = None
    elevated: str | None = None
    name: Name | None = None
    """One text, or one per language (:data:`Name`); see :meth:`label_in`."""

    @property
    def label(self) -> str:
        """The English display name (:meth:`label_in`)."""
        return self.label_in("en")

    def label_in(self, lang: str) -> str:
        """The display name a reader of ``lang`` sees (:func:`title_in`), else the id."""
        return title_in(self.name, lang) or self.id


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile. ``short``/``long``/``min_range`` are a ruler colour or a length."""

    id: str
    type: str
    short: str | float | None = None
    long: str | float | None = None
    min_range: str | float | None = None
    dice: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    name: Name | None = None
    """One text, or one per language (:data:`Name`); see :meth:`label_in`."""

    @property
    def label(self) -> str:
        """The English display name (:meth:`label_in`)."""
        return self.label_in("en")

    def label_in(self, lang: str) -> str:
        """The display name a reader of ``lang`` sees (:func:`title_in`), else the id."""
        return title_in(self.name, lang) or self.id

    @property
    def range_from_thrower(self) -> bool:
        """A thrown weapon without a range of its own: its range is its thrower's Throw colour
        (``ranged.skill``)."""
        return self.type == "thrown" and self.short is None

    def held_by(self, model: Model) -> Weapon:
        """The weapon as ``model`` uses it (``ranged.skill``, RoP p.44): a thrown weapon
        without a range of its own reaches the colour of the thrower's Throw skill icon (short
        band only); every other weapon, and a thrown one with its own range, is unchanged. A
        thrower whose Throw colour is not given leaves it without a range.

        >>> grenade = Weapon("grenade", "thrown", dice={"short": ("black",)})
        >>> grenade.held_by(Model("a", "x", 32, (0, 0), throw_colour="red")).short
        'red'
        >>> Weapon("knife", "thrown", short="orange").held_by(
        ...     Model("a", "x", 32, (0, 0), throw_colour="red")).short
        'orange'
        """
        if not self.range_from_thrower or model.throw_colour is None:
            return self
        return replace(self, short=model.throw_colour)


IMPROVISED_WEAPON = Weapon(
    id=IMPROVISED, type="melee", name={"en": "Improvised Weapon", "de": "Improvisierte Waffe"}
)
"""Every model has it unless its card says otherwise (``melee.skill``)."""


@dataclass(frozen=True, slots=True)
class Options:
    """Interpretation switches. Each defaults to the original rulebook's reading."""

    contact_tolerance: float | None = None
    cover_by: CoverBy = "side"
    slide_through_engaged_enemy: bool = False
    knife_edge: float | None = None
    """A margin below this (in the scenario's units) makes a knife-edge call
    (:data:`~fwwrules.constants.KNIFE_EDGE_MM` when ``None``)."""
