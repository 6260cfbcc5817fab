"""Scenario files (``fwwrules/scenario@1``): schema, validation and frozen data.

A :class:`Scenario` holds the values exactly as the file states them, in the file's ``units``
(so saving writes back what was read). Its :attr:`Scenario.board` is the derived geometry in
millimetres, built once when the scenario is made (and again by ``dataclasses.replace``).

Boundary cases
--------------
* Two bases overlapping by more than the contact tolerance are invalid; a gap of exactly
  ``-contact_tolerance`` is still allowed (counted as contact).
* Ids are unique across models and terrain, because a target may be either. Weapon ids live in
  their own namespace; ``improvised`` is built in and may not be redefined.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints
from pydantic import ValidationError, field_validator, model_validator
from shapely import validation as shapely_validation
from shapely.geometry import Polygon

from .constants import (
    DEFAULT_CONTACT_TOLERANCE_MM,
    MAX_COORDINATE,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_WEAPONS,
    MM_PER_INCH,
)
from .errors import Problem, ScenarioError, UnknownIdError
from .loading import Document, parse_document, problems_from_validation, read_document

SCENARIO_FORMAT = "fwwrules/scenario@1"
IMPROVISED = "improvised"

Rules = Literal["core", "vts"]
Units = Literal["mm", "in"]
Colour = Literal["orange", "yellow", "red", "green", "blue", "black"]
DiceColour = Literal["black", "green", "yellow", "blue"]
SkillIcon = Literal["pistol", "rifle", "heavy", "melee", "thrown"]
TerrainKind = Literal["blocking", "cover", "area", "dense-area", "scenery"]
Status = Literal["stunned"]

RULER_COLOURS: tuple[Colour, ...] = ("orange", "yellow", "red", "green", "blue", "black")
RULER_INCHES: Mapping[str, float] = {
    "orange": 2.0,
    "yellow": 4.0,
    "red": 6.0,
    "green": 8.0,
    "blue": 10.0,
    "black": 12.0,
}
"""Default ruler lengths in inches (RULES.md "Range rulers"); a scenario may override them."""

DICE_COLOURS: tuple[DiceColour, ...] = ("black", "green", "yellow", "blue")
SKILL_ICONS: tuple[SkillIcon, ...] = ("pistol", "rifle", "heavy", "melee", "thrown")
TERRAIN_KINDS: tuple[TerrainKind, ...] = ("blocking", "cover", "area", "dense-area", "scenery")

# ---------------------------------------------------------------------------------------------
# The file schema (pydantic). Field names are the public file format of SPEC.md.
# ---------------------------------------------------------------------------------------------

Ident = Annotated[
    str, StringConstraints(strict=True, pattern=r"^[a-z0-9][a-z0-9-]*$", max_length=64)
]
Number = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
NonNegative = Annotated[float, Field(allow_inf_nan=False, ge=0, le=MAX_COORDINATE)]
Positive = Annotated[float, Field(allow_inf_nan=False, gt=0, le=MAX_COORDINATE)]
Point = tuple[Number, Number]
Text = Annotated[str, StringConstraints(strict=True, max_length=200)]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def _reject_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("expected a number, got true/false")
    return value


class OptionsSpec(_Spec):
    contact_tolerance: NonNegative | None = None
    cover_by: Literal["side", "faction"] = "side"
    slide_through_engaged_enemy: StrictBool = False


class ChargeBonusSpec(_Spec):
    target: Ident
    markers: Annotated[list[Literal["black", "green"]], Field(min_length=1, max_length=2)]


class ModelSpec(_Spec):
    id: Ident
    name: Text | None = None
    faction: Ident
    base: Annotated[float, Field(allow_inf_nan=False, gt=0, le=MAX_COORDINATE)]
    at: Point
    elevation: NonNegative = 0.0
    skills: dict[SkillIcon, Annotated[StrictInt, Field(ge=0, le=20)]] = Field(default_factory=dict)
    strength: Annotated[StrictInt, Field(ge=1, le=20)] | None = None
    keywords: list[Ident] = Field(default_factory=list)
    status: list[Status] = Field(default_factory=list)
    charge_bonus: ChargeBonusSpec | None = None
    weapons: list[Ident] = Field(default_factory=list)
    move: Positive | None = None

    _b = field_validator("base", "elevation", "move", mode="before")(_reject_bool)

    @field_validator("at", mode="before")
    @classmethod
    def _point(cls, value: Any) -> Any:
        return _point_before(value)


def _point_before(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            raise ValueError(f"expected a point [x, y], got {len(value)} numbers")
        for v in value:
            _reject_bool(v)
    return value


class RectSpec(_Spec):
    at: Point
    size: tuple[Positive, Positive]
    angle: Annotated[float, Field(allow_inf_nan=False, ge=-360, le=360)] = 0.0

    _p = field_validator("at", mode="before")(_point_before)


class CircleSpec(_Spec):
    at: Point
    diameter: Positive

    _p = field_validator("at", mode="before")(_point_before)


class TerrainSpec(_Spec):
    id: Ident
    name: Text | None = None
    kind: TerrainKind
    polygon: Annotated[list[Point], Field(max_length=MAX_POLYGON_VERTICES)] | None = None
    rect: RectSpec | None = None
    circle: CircleSpec | None = None
    height: NonNegative | None = None
    huge: TerrainKind | None = None
    elevated: TerrainKind | None = None

    @field_validator("polygon", mode="before")
    @classmethod
    def _points(cls, value: Any) -> Any:
        if isinstance(value, list):
            for v in value:
                _point_before(v)
        return value

    @model_validator(mode="after")
    def _one_shape(self) -> TerrainSpec:
        given = [k for k in ("polygon", "rect", "circle") if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(
                "give exactly one shape: polygon, rect or circle"
                + (f" (got {', '.join(given)})" if given else "")
            )
        return self


RangeSpec = Colour | Positive


class WeaponSpec(_Spec):
    id: Ident
    name: Text | None = None
    type: SkillIcon
    short: RangeSpec | None = None
    long: RangeSpec | None = None
    min_range: RangeSpec | None = None
    dice: dict[
        Literal["short", "long", "melee"],
        Annotated[list[DiceColour], Field(max_length=16)],
    ] = Field(default_factory=dict)

    _b = field_validator("short", "long", "min_range", mode="before")(_reject_bool)

    @model_validator(mode="after")
    def _bands(self) -> WeaponSpec:
        if self.type == "melee":
            if self.short is not None or self.long is not None:
                raise ValueError("a melee weapon has no range bands (no short/long)")
            extra = set(self.dice) - {"melee"}
            if extra:
                raise ValueError(f"a melee weapon lists dice under 'melee', not {sorted(extra)}")
        else:
            if self.short is None:
                raise ValueError("a ranged or thrown weapon needs a short band ('short')")
            if "melee" in self.dice:
                raise ValueError("dice of a ranged weapon are listed by band (short, long)")
            if "long" in self.dice and self.long is None:
                raise ValueError("dice for the long band given, but the weapon has no long band")
        for band, colours in self.dice.items():
            for colour in DICE_COLOURS:
                if colours.count(colour) > 4:
                    raise ValueError(f"at most 4 {colour} dice in one test ({band} band)")
        return self


class ScenarioSpec(_Spec):
    format: Literal["fwwrules/scenario@1"]
    title: Text | None = None
    rules: Rules = "core"
    units: Units = "mm"
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    rulers: dict[Colour, Positive] = Field(default_factory=dict)
    sides: dict[Ident, list[Ident]] = Field(default_factory=dict)
    neutral: list[Ident] = Field(default_factory=list)
    models: Annotated[list[ModelSpec], Field(max_length=MAX_MODELS)] = Field(default_factory=list)
    terrain: Annotated[list[TerrainSpec], Field(max_length=MAX_TERRAIN)] = Field(
        default_factory=list
    )
    weapons: Annotated[list[WeaponSpec], Field(max_length=MAX_WEAPONS)] = Field(
        default_factory=list
    )


# ---------------------------------------------------------------------------------------------
# Frozen data
# ---------------------------------------------------------------------------------------------


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
    name: str | None = None
    skills: Mapping[str, int] = field(default_factory=dict)
    strength: int | None = None
    keywords: tuple[str, ...] = ()
    status: tuple[str, ...] = ()
    charge_bonus: ChargeBonus | None = None
    weapons: tuple[str, ...] = ()
    move: float | None = None

    @property
    def label(self) -> str:
        return self.name or self.id

    @property
    def stunned(self) -> bool:
        return "stunned" in self.status


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle by centre, size and rotation in degrees (counter-clockwise)."""

    at: tuple[float, float]
    size: tuple[float, float]
    angle: float = 0.0


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
    kind: str
    shape: Shape
    height: float | None = None
    huge: str | None = None
    elevated: str | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        return self.name or self.id


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon profile. ``short``/``long``/``min_range`` are a ruler colour or a length."""

    id: str
    type: str
    short: str | float | None = None
    long: str | float | None = None
    min_range: str | float | None = None
    dice: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    name: str | None = None

    @property
    def label(self) -> str:
        return self.name or self.id


IMPROVISED_WEAPON = Weapon(id=IMPROVISED, type="melee", name="Improvised Weapon")
"""Every model has it unless its card says otherwise (``melee.skill``)."""


@dataclass(frozen=True, slots=True)
class Options:
    """Interpretation switches. Each defaults to the original rulebook's reading."""

    contact_tolerance: float | None = None
    cover_by: str = "side"
    slide_through_engaged_enemy: bool = False


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole board. Build it with :func:`load`, :func:`parse` or directly; it validates."""

    models: tuple[Model, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    rules: str = "core"
    units: str = "mm"
    title: str | None = None
    options: Options = Options()
    rulers: Mapping[str, float] = field(default_factory=dict)
    sides: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    neutral: tuple[str, ...] = ()
    source: str = field(default="<scenario>", compare=False)
    board: Board = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        from .board import build_board

        object.__setattr__(self, "board", build_board(self))

    # --- lookups ----------------------------------------------------------------------------
    @property
    def unit_mm(self) -> float:
        """Millimetres per scenario unit."""
        return MM_PER_INCH if self.units == "in" else 1.0

    def model(self, ident: str) -> Model:
        for m in self.models:
            if m.id == ident:
                return m
        raise UnknownIdError("model", ident, (m.id for m in self.models), self.source)

    def terrain_piece(self, ident: str) -> Terrain:
        for t in self.terrain:
            if t.id == ident:
                return t
        raise UnknownIdError("terrain", ident, (t.id for t in self.terrain), self.source)

    def weapon(self, ident: str) -> Weapon:
        if ident == IMPROVISED:
            return IMPROVISED_WEAPON
        for w in self.weapons:
            if w.id == ident:
                return w
        known = [w.id for w in self.weapons] + [IMPROVISED]
        raise UnknownIdError("weapon", ident, known, self.source)

    def weapons_of(self, model: Model) -> tuple[Weapon, ...]:
        """The model's weapons in card order, with the Improvised Weapon last."""
        listed = tuple(self.weapon(w) for w in model.weapons)
        if IMPROVISED in model.weapons:
            return listed
        return (*listed, IMPROVISED_WEAPON)

    # --- sides ------------------------------------------------------------------------------
    def side_of(self, faction: str) -> str:
        """The side a faction plays on; without a ``sides`` entry a faction is its own side."""
        for side, factions in self.sides.items():
            if faction in factions:
                return side
        return faction

    def relation(self, a: Model, b: Model, *, by: str = "side") -> str:
        """``friendly``, ``neutral`` or ``enemy`` between two models.

        ``by="faction"`` compares factions instead of sides (the German reading of
        ``cover.models``). A model is friendly to itself; neutral factions are neutral to
        everyone else.
        """
        if a.id == b.id:
            return "friendly"
        if by == "faction":
            same = a.faction == b.faction
        else:
            same = self.side_of(a.faction) == self.side_of(b.faction)
        if same:
            return "friendly"
        if a.faction in self.neutral or b.faction in self.neutral:
            return "neutral"
        return "enemy"

    def opposing(self, a: Model, b: Model) -> bool:
        """True when ``b`` is not on ``a``'s side (enemy or neutral): whom one fights."""
        return self.relation(a, b) != "friendly"

    @property
    def contact_tolerance_mm(self) -> float:
        tol = self.options.contact_tolerance
        return DEFAULT_CONTACT_TOLERANCE_MM if tol is None else tol * self.unit_mm

    def ruler_mm(self, colour: str) -> float:
        """A ruler's length in millimetres, with the scenario's overrides."""
        if colour in self.rulers:
            return self.rulers[colour] * self.unit_mm
        return RULER_INCHES[colour] * MM_PER_INCH

    def length_mm(self, value: str | float) -> float:
        """A ruler colour or a length in scenario units, as millimetres."""
        if isinstance(value, str):
            return self.ruler_mm(value)
        return float(value) * self.unit_mm

    def to_mm(self, value: float) -> float:
        return value * self.unit_mm

    def from_mm(self, value: float) -> float:
        return value / self.unit_mm


from .board import Board  # noqa: E402  (Board needs Scenario's names at import time)

# ---------------------------------------------------------------------------------------------
# Building, checking, saving
# ---------------------------------------------------------------------------------------------


def _shape(spec: TerrainSpec) -> Shape:
    if spec.polygon is not None:
        return tuple((float(x), float(y)) for x, y in spec.polygon)
    if spec.rect is not None:
        r = spec.rect
        return Rect((float(r.at[0]), float(r.at[1])), (float(r.size[0]), float(r.size[1])), r.angle)
    assert spec.circle is not None
    c = spec.circle
    return Circle((float(c.at[0]), float(c.at[1])), float(c.diameter))


def _from_spec(spec: ScenarioSpec, source: str) -> Scenario:
    models = tuple(
        Model(
            id=m.id,
            faction=m.faction,
            base=float(m.base),
            at=(float(m.at[0]), float(m.at[1])),
            elevation=float(m.elevation),
            name=m.name,
            skills=dict(m.skills),
            strength=m.strength,
            keywords=tuple(m.keywords),
            status=tuple(m.status),
            charge_bonus=(
                None
                if m.charge_bonus is None
                else ChargeBonus(m.charge_bonus.target, tuple(m.charge_bonus.markers))
            ),
            weapons=tuple(m.weapons),
            move=None if m.move is None else float(m.move),
        )
        for m in spec.models
    )
    terrain = tuple(
        Terrain(
            id=t.id,
            kind=t.kind,
            shape=_shape(t),
            height=None if t.height is None else float(t.height),
            huge=t.huge,
            elevated=t.elevated,
            name=t.name,
        )
        for t in spec.terrain
    )
    weapons = tuple(
        Weapon(
            id=w.id,
            type=w.type,
            short=_range_value(w.short),
            long=_range_value(w.long),
            min_range=_range_value(w.min_range),
            dice={k: tuple(v) for k, v in w.dice.items()},
            name=w.name,
        )
        for w in spec.weapons
    )
    o = spec.options
    return Scenario(
        models=models,
        terrain=terrain,
        weapons=weapons,
        rules=spec.rules,
        units=spec.units,
        title=spec.title,
        options=Options(
            contact_tolerance=None if o.contact_tolerance is None else float(o.contact_tolerance),
            cover_by=o.cover_by,
            slide_through_engaged_enemy=o.slide_through_engaged_enemy,
        ),
        rulers={k: float(v) for k, v in spec.rulers.items()},
        sides={k: tuple(v) for k, v in spec.sides.items()},
        neutral=tuple(spec.neutral),
        source=source,
    )


def _range_value(value: str | float | None) -> str | float | None:
    return value if value is None or isinstance(value, str) else float(value)


def _semantic_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """Cross-references and geometry that a field-by-field schema cannot see."""
    problems: list[Problem] = []
    owner: dict[str, tuple[str | int, ...]] = {}
    for kind, items in (("models", spec.models), ("terrain", spec.terrain)):
        for i, item in enumerate(items):
            if item.id in owner:
                first = owner[item.id]
                problems.append(
                    doc.problem(
                        (kind, i, "id"),
                        f"duplicate id {item.id!r} (already used at {_fmt(first)})",
                    )
                )
            else:
                owner[item.id] = (kind, i, "id")
    weapon_ids: dict[str, int] = {}
    for i, w in enumerate(spec.weapons):
        if w.id == IMPROVISED:
            problems.append(
                doc.problem(("weapons", i, "id"), "'improvised' is built in; choose another id")
            )
        elif w.id in weapon_ids:
            problems.append(doc.problem(("weapons", i, "id"), f"duplicate weapon id {w.id!r}"))
        weapon_ids.setdefault(w.id, i)
    model_ids = {m.id for m in spec.models}
    for i, m in enumerate(spec.models):
        for j, w in enumerate(m.weapons):
            if w not in weapon_ids and w != IMPROVISED:
                known = ", ".join(sorted(weapon_ids)) or "none"
                problems.append(
                    doc.problem(
                        ("models", i, "weapons", j),
                        f"unknown weapon {w!r}; expected one of the ids under 'weapons' ({known})",
                    )
                )
        if m.charge_bonus is not None:
            t = m.charge_bonus.target
            if t not in model_ids:
                problems.append(
                    doc.problem(
                        ("models", i, "charge_bonus", "target"), f"unknown model id {t!r}"
                    )
                )
            elif t == m.id:
                problems.append(
                    doc.problem(
                        ("models", i, "charge_bonus", "target"), "a model cannot charge itself"
                    )
                )
    seen_faction: dict[str, str] = {}
    for side, factions in spec.sides.items():
        for j, f in enumerate(factions):
            if f in seen_faction:
                problems.append(
                    doc.problem(
                        ("sides", side, j),
                        f"faction {f!r} is already on side {seen_faction[f]!r}",
                    )
                )
            seen_faction[f] = side
    for j, f in enumerate(spec.neutral):
        if f in seen_faction:
            problems.append(
                doc.problem(
                    ("neutral", j), f"faction {f!r} is on side {seen_faction[f]!r}; not neutral"
                )
            )
    unit = MM_PER_INCH if spec.units == "in" else 1.0
    for i, m in enumerate(spec.models):
        mm = m.base * unit
        if not 10.0 <= mm <= 300.0:
            problems.append(
                doc.problem(
                    ("models", i, "base"),
                    f"a base of {mm:g} mm makes no sense; expected 10 to 300 mm (32, 40, 60 ...)",
                )
            )
    for colour, length in spec.rulers.items():
        mm = length * unit
        if not 5.0 <= mm <= 2000.0:
            problems.append(
                doc.problem(("rulers", colour), f"a ruler of {mm:g} mm makes no sense")
            )
    for i, t in enumerate(spec.terrain):
        if t.polygon is not None:
            problems.extend(_polygon_problems(t.polygon, ("terrain", i, "polygon"), doc))
    problems.extend(_overlap_problems(spec, doc, unit))
    return problems


def _fmt(path: tuple[str | int, ...]) -> str:
    from .errors import format_path

    return format_path(path)


def _polygon_problems(
    points: list[tuple[float, float]], path: tuple[str | int, ...], doc: Document
) -> list[Problem]:
    if len(points) < 3:
        return [doc.problem(path, f"a polygon needs at least 3 points, got {len(points)}")]
    poly = Polygon(points)
    if not poly.is_valid:
        why = shapely_validation.explain_validity(poly)
        return [doc.problem(path, f"the polygon is not simple (self-intersecting?): {why}")]
    if poly.area <= 0:
        return [doc.problem(path, "the polygon has no area (all points on one line)")]
    return []


def _overlap_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    tol_mm = (
        DEFAULT_CONTACT_TOLERANCE_MM
        if spec.options.contact_tolerance is None
        else spec.options.contact_tolerance * unit
    )
    problems = []
    ms = spec.models
    for j in range(len(ms)):
        for i in range(j):
            a, b = ms[i], ms[j]
            # Stacked models (different levels) may share a footprint.
            if abs(a.elevation - b.elevation) * unit > 0:
                continue
            d = math.dist(a.at, b.at) * unit
            gap = d - (a.base + b.base) * unit / 2
            if gap < -tol_mm:
                problems.append(
                    doc.problem(
                        ("models", j, "at"),
                        f"the base of {b.id!r} overlaps {a.id!r} by {-gap:.2f} mm "
                        f"(more than the contact tolerance {tol_mm:g} mm)",
                    )
                )
    return problems


def parse_scenario(doc: Document) -> Scenario:
    """Validate a parsed document as a scenario; every problem is reported at once."""
    try:
        spec = ScenarioSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(doc.source, problems_from_validation(doc, exc)) from None
    problems = _semantic_problems(spec, doc)
    if problems:
        raise ScenarioError(doc.source, problems)
    return _from_spec(spec, doc.source)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Load a ``fwwrules/scenario@1`` file (YAML or JSON)."""
    return parse_document(read_document(path), {SCENARIO_FORMAT: parse_scenario})  # type: ignore[no-any-return]


def to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format (what :func:`save` writes)."""
    out: dict[str, Any] = {"format": SCENARIO_FORMAT}
    if scenario.title is not None:
        out["title"] = scenario.title
    out["rules"] = scenario.rules
    out["units"] = scenario.units
    opts: dict[str, Any] = {}
    o = scenario.options
    if o.contact_tolerance is not None:
        opts["contact_tolerance"] = o.contact_tolerance
    if o.cover_by != "side":
        opts["cover_by"] = o.cover_by
    if o.slide_through_engaged_enemy:
        opts["slide_through_engaged_enemy"] = True
    if opts:
        out["options"] = opts
    if scenario.rulers:
        out["rulers"] = dict(scenario.rulers)
    if scenario.sides:
        out["sides"] = {k: list(v) for k, v in scenario.sides.items()}
    if scenario.neutral:
        out["neutral"] = list(scenario.neutral)
    out["models"] = [_model_data(m) for m in scenario.models]
    out["terrain"] = [_terrain_data(t) for t in scenario.terrain]
    out["weapons"] = [_weapon_data(w) for w in scenario.weapons]
    return out


def _model_data(m: Model) -> dict[str, Any]:
    d: dict[str, Any] = {"id": m.id}
    if m.name is not None:
        d["name"] = m.name
    d.update(faction=m.faction, base=m.base, at=list(m.at))
    if m.elevation:
        d["elevation"] = m.elevation
    if m.skills:
        d["skills"] = dict(m.skills)
    if m.strength is not None:
        d["strength"] = m.strength
    for key in ("keywords", "status", "weapons"):
        if getattr(m, key):
            d[key] = list(getattr(m, key))
    if m.charge_bonus is not None:
        d["charge_bonus"] = {"target": m.charge_bonus.target, "markers": list(m.charge_bonus.markers)}
    if m.move is not None:
        d["move"] = m.move
    return d


def _terrain_data(t: Terrain) -> dict[str, Any]:
    d: dict[str, Any] = {"id": t.id}
    if t.name is not None:
        d["name"] = t.name
    d["kind"] = t.kind
    s = t.shape
    if isinstance(s, Rect):
        d["rect"] = {"at": list(s.at), "size": list(s.size), "angle": s.angle}
    elif isinstance(s, Circle):
        d["circle"] = {"at": list(s.at), "diameter": s.diameter}
    else:
        d["polygon"] = [list(p) for p in s]
    for key in ("height", "huge", "elevated"):
        if getattr(t, key) is not None:
            d[key] = getattr(t, key)
    return d


def _weapon_data(w: Weapon) -> dict[str, Any]:
    d: dict[str, Any] = {"id": w.id}
    if w.name is not None:
        d["name"] = w.name
    d["type"] = w.type
    for key in ("short", "long", "min_range"):
        if getattr(w, key) is not None:
            d[key] = getattr(w, key)
    if w.dice:
        d["dice"] = {k: list(v) for k, v in w.dice.items()}
    return d


def dump_text(scenario: Scenario, *, json_: bool = False) -> str:
    data = to_data(scenario)
    if json_:
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=None)


def save(scenario: Scenario, path: str | os.PathLike[str]) -> None:
    """Write the scenario as YAML, or JSON when the name ends in ``.json``; it loads back equal."""
    p = Path(path)
    p.write_text(dump_text(scenario, json_=p.suffix.lower() == ".json"), encoding="utf-8")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the scenario file (``fwwrules schema``)."""
    schema = ScenarioSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "fwwrules scenario (fwwrules/scenario@1)"
    return schema
