"""The scenario file format (``fwwrules/scenario@1``): its pydantic spec, the checks a schema
cannot express, and the JSON Schema.

Reading a file is :func:`parse_scenario` (the spec, then :func:`_semantic_problems`, then the
frozen :class:`~fwwrules.data.Scenario`). Importing this module imports pydantic.

Boundary cases
--------------
* Where bases may stand is the one placement rule (:mod:`fwwrules.placement`), checked on the
  scenario once every other check passed: two bases on one level overlapping by more than the
  contact tolerance are invalid (an overlap of exactly the tolerance is contact), and so
  is a base overlapping a blocking or cover piece it does not stand on, or standing lower
  than the top of the piece its centre lies on.
* Ids are unique across models and terrain, because a target may be either. Weapon ids live in
  their own namespace; ``improvised`` is built in and may not be redefined.
* With a table size (``board: {size: [w, h]}``) every base must lie on the table: its circle
  within ``[0, w] x [0, h]`` (touching an edge is on the table); terrain may overhang.
"""

from __future__ import annotations

import math
import os
import re
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import (
    AfterValidator,
    Field,
    PlainValidator,
    StrictBool,
    StrictInt,
    ValidationError,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from shapely import validation as shapely_validation
from shapely.geometry import Polygon

from .board import TERRAIN_CIRCLE_QUAD_SEGMENTS
from .constants import (
    BOUNDARY_TOLERANCE_MM,
    LENGTH_EPSILON_MM,
    MARGIN_RADIUS_MM,
    MAX_CONTACT_TOLERANCE_MM,
    MAX_COORDINATE,
    MAX_MODEL_WEAPONS,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_TOTAL_VERTICES,
    MAX_WEAPONS,
    MIN_FEATURE_MM,
    MM_PER_INCH,
    SANE_BASE_MM,
    SANE_RULER_MM,
)
from .data import Scenario
from .errors import Problem, ScenarioError, format_path
from .filespec import (
    Ident,
    Name,
    NonNegative,
    Point,
    Positive,
    Spec,
    Title,
    pair_before,
    point_before,
    title_value,
)
from .loading import (
    Document,
    describe,
    parse_document,
    problems_from_validation,
    read_document,
)
from .pieces import (
    DICE_COLOURS,
    IMPROVISED,
    MAX_DICE_PER_COLOUR,
    RULER_COLOURS,
    RULER_INCHES,
    SCENARIO_FORMAT,
    SKILL_ICONS,
    ChargeBonus,
    ChargeMarker,
    Circle,
    Colour,
    CoverBy,
    DiceBand,
    DiceColour,
    Model,
    Options,
    Rect,
    Rules,
    Shape,
    SkillIcon,
    Status,
    Terrain,
    TerrainKind,
    Units,
    Weapon,
)
from .placement import placement_problems

# ---------------------------------------------------------------------------------------------
# The file schema (pydantic). Field names are the public file format (docs/scenario-format.md).
# ---------------------------------------------------------------------------------------------


class OptionsSpec(Spec):
    """Interpretation switches; each defaults to the original rulebook's reading."""

    contact_tolerance: NonNegative | None = Field(
        None, description="Largest gap (in `units`) between two bases that still counts as contact"
    )
    cover_by: CoverBy = Field(
        "side", description="Which models give cover: those of other sides, or other factions"
    )
    slide_through_engaged_enemy: StrictBool = Field(
        False, description="Let a slide pass through the engaged enemy (German reading)"
    )
    knife_edge: NonNegative | None = Field(
        None,
        description="A ruling whose smallest margin (in `units`) is below this is flagged as a "
        "knife-edge call (default 1 mm)",
    )


class ChargeBonusSpec(Spec):
    """Charge Bonus markers a model holds after charging `target`."""

    target: Ident = Field(description="Id of the charged model")
    markers: Annotated[list[ChargeMarker], Field(min_length=1, max_length=2)]


SkillValue = Annotated[StrictInt, Field(ge=0, le=20)]


class ColouredSkillSpec(Spec):
    """A skill value with the colour of its icon: the Throw skill's colour is how far the
    model throws a thrown weapon that has no range of its own (RoP p.44)."""

    value: SkillValue = Field(description="The skill value")
    colour: Colour = Field(description="The colour of the skill icon: a ruler colour")


class SkillsSpec(Spec):
    """Skill values by icon; the Throw skill may carry its icon's colour."""

    pistol: SkillValue | None = None
    rifle: SkillValue | None = None
    heavy: SkillValue | None = None
    melee: SkillValue | None = None
    thrown: SkillValue | ColouredSkillSpec | None = Field(
        None,
        description="The Throw skill: a value, or {value, colour} with the colour of its icon "
        "(how far the model throws a thrown weapon without a range of its own)",
    )

    def values(self) -> dict[str, int]:
        """The skill values by icon (those given)."""
        out: dict[str, int] = {}
        for icon in SKILL_ICONS:
            v = getattr(self, icon)
            if v is not None:
                out[icon] = v.value if isinstance(v, ColouredSkillSpec) else v
        return out

    @property
    def throw_colour(self) -> str | None:
        return self.thrown.colour if isinstance(self.thrown, ColouredSkillSpec) else None


class ModelSpec(Spec):
    """A model on the table; lengths in the scenario's `units`."""

    id: Ident = Field(description="Unique id: lowercase letters of any script, digits and '-'")
    name: Name | None = Field(
        None, description="Display name: one text, or one per language ({en: ..., de: ...})"
    )
    faction: Ident = Field(description="Faction id; sides group factions")
    base: Positive = Field(description="Base diameter")
    at: Point = Field(description="Base centre [x, y]")
    elevation: NonNegative = Field(0.0, description="Height of the base above the table")
    skills: SkillsSpec = Field(
        default_factory=SkillsSpec,
        description="Skill values by icon; the Throw skill may carry its icon's colour: "
        "thrown: {value: 5, colour: red}",
    )
    strength: Annotated[StrictInt, Field(ge=1, le=20)] | None = None
    keywords: Annotated[list[Ident], Field(max_length=MAX_MODEL_WEAPONS)] = Field(
        default_factory=list
    )
    status: Annotated[list[Status], Field(max_length=MAX_MODEL_WEAPONS)] = Field(
        default_factory=list
    )
    charge_bonus: ChargeBonusSpec | None = None
    weapons: Annotated[list[Ident], Field(max_length=MAX_MODEL_WEAPONS)] = Field(
        default_factory=list, description="Weapon ids; every model also has 'improvised'"
    )
    move: Positive | None = None

    @field_validator("at", mode="before")
    @classmethod
    def _point(cls, value: Any) -> Any:
        return point_before(value)


class RectSpec(Spec):
    """A rectangle by centre, size and counter-clockwise rotation in degrees."""

    at: Point = Field(description="Centre [x, y]")
    size: tuple[Positive, Positive] = Field(description="[width, height]")
    angle: Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-360, le=360)] = 0.0

    _p = field_validator("at", mode="before")(point_before)
    _s = field_validator("size", mode="before")(pair_before)


class CircleSpec(Spec):
    """A round terrain piece."""

    at: Point = Field(description="Centre [x, y]")
    diameter: Positive

    _p = field_validator("at", mode="before")(point_before)


class TerrainSpec(Spec):
    """A terrain piece: exactly one of `polygon`, `rect` or `circle`."""

    id: Ident = Field(description="Unique id (models and terrain share the namespace)")
    name: Name | None = Field(
        None, description="Display name: one text, or one per language ({en: ..., de: ...})"
    )
    kind: TerrainKind
    polygon: Annotated[list[Point], Field(max_length=MAX_POLYGON_VERTICES)] | None = Field(
        None, description="Corners [[x, y], ...] of a simple polygon (3 or more)"
    )
    rect: RectSpec | None = None
    circle: CircleSpec | None = None
    height: NonNegative | None = Field(None, description="Height, for elevation")
    huge: TerrainKind | None = Field(
        None,
        description=(
            "Kind for Huge models (terrain.kinds): it governs line of sight on every line to or "
            "from a Huge model, and cover only when the target is Huge; a smaller target keeps "
            "the cover of the piece's normal kind"
        ),
    )
    elevated: TerrainKind | None = Field(
        None, description="Kind seen by shots involving an Elevated model"
    )

    @field_validator("polygon", mode="before")
    @classmethod
    def _points(cls, value: Any) -> Any:
        if isinstance(value, list):
            for v in value:
                point_before(v)
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


def _range_value_check(value: Any) -> str | float:
    """A band or minimum range: a ruler colour, or a positive finite length (one message)."""
    colours = ", ".join(RULER_COLOURS)
    if isinstance(value, str):
        if value in RULER_COLOURS:
            return value
        raise ValueError(f"expected a ruler colour ({colours}) or a length (got {value!r})")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"expected a ruler colour ({colours}) or a length (got {describe(value)})")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite length (got {describe(value)})")
    if not 0 < value <= MAX_COORDINATE:
        raise ValueError(f"expected a length above 0 (got {describe(value)})")
    return float(value)


RangeSpec = Annotated[
    Colour | float,
    PlainValidator(_range_value_check),
    WithJsonSchema(
        {
            "anyOf": [
                {"enum": list(RULER_COLOURS)},
                {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_COORDINATE},
            ]
        }
    ),
]


def _dice_limit(colours: list[str]) -> list[str]:
    """Dice facts: at most 4 effect dice of each colour in one test."""
    for colour in DICE_COLOURS:
        n = colours.count(colour)
        if n > MAX_DICE_PER_COLOUR:
            raise ValueError(f"at most {MAX_DICE_PER_COLOUR} {colour} dice in one test (got {n})")
    return colours


DiceList = Annotated[
    list[DiceColour],
    Field(max_length=MAX_DICE_PER_COLOUR * len(DICE_COLOURS)),
    AfterValidator(_dice_limit),
]


class WeaponSpec(Spec):
    """A weapon profile; ranged weapons need `short`, melee weapons have no bands; a thrown
    weapon without `short` reaches its thrower's Throw colour."""

    id: Ident = Field(description="Weapon id ('improvised' is built in)")
    name: Name | None = Field(
        None, description="Display name: one text, or one per language ({en: ..., de: ...})"
    )
    type: SkillIcon = Field(description="The skill icon the weapon uses")
    short: RangeSpec | None = Field(
        None,
        description="Short band: a ruler colour or a length (a thrown weapon without it "
        "reaches its thrower's Throw colour)",
    )
    long: RangeSpec | None = Field(None, description="Long band, laid after the short one")
    min_range: RangeSpec | None = None
    dice: dict[DiceBand, DiceList] = Field(
        default_factory=dict, description="Effect dice by band (melee weapons: under 'melee')"
    )


class BoardSpec(Spec):
    """The table: its size in the scenario's `units`, with the origin at [0, 0]."""

    size: tuple[Positive, Positive] = Field(description="[width, height]")

    _s = field_validator("size", mode="before")(pair_before)


class ScenarioSpec(Spec):
    """A Fallout: Wasteland Warfare board for fwwrules (docs/scenario-format.md)."""

    format: Literal["fwwrules/scenario@1"]
    title: Title | None = Field(
        None, description="One line of text, or one per language: {en: ..., de: ...}"
    )
    rules: Rules = Field("core", description="Ruleset: core (Rules of Play) or vts")
    units: Units = Field("mm", description="Unit of every length in the file")
    options: OptionsSpec = Field(default_factory=OptionsSpec)
    rulers: dict[Colour, Positive] = Field(
        default_factory=dict, description="Ruler lengths (in `units`) overriding the defaults"
    )
    board: BoardSpec | None = Field(
        None,
        description="Table size (in `units`), origin at [0, 0]; default: the contents' "
        "bounding box plus a margin",
    )
    sides: dict[Ident, list[Ident]] = Field(
        default_factory=dict, description="Side id to factions; default: one side per faction"
    )
    neutral: list[Ident] = Field(default_factory=list, description="Factions neutral to all")
    models: Annotated[list[ModelSpec], Field(max_length=MAX_MODELS)] = Field(default_factory=list)
    terrain: Annotated[list[TerrainSpec], Field(max_length=MAX_TERRAIN)] = Field(
        default_factory=list
    )
    weapons: Annotated[list[WeaponSpec], Field(max_length=MAX_WEAPONS)] = Field(
        default_factory=list
    )


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
            name=title_value(m.name),
            skills=m.skills.values(),
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
            throw_colour=m.skills.throw_colour,
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
            name=title_value(t.name),
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
            name=title_value(w.name),
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
        title=title_value(spec.title),
        options=Options(
            contact_tolerance=None if o.contact_tolerance is None else float(o.contact_tolerance),
            cover_by=o.cover_by,
            slide_through_engaged_enemy=o.slide_through_engaged_enemy,
            knife_edge=None if o.knife_edge is None else float(o.knife_edge),
        ),
        rulers={k: float(v) for k, v in spec.rulers.items()},
        sides={k: tuple(v) for k, v in spec.sides.items()},
        neutral=tuple(spec.neutral),
        board_size=(
            None if spec.board is None else (float(spec.board.size[0]), float(spec.board.size[1]))
        ),
        source=source,
    )


def _skill_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """``ranged.skill``: a model that carries a thrown weapon without a range of its own needs
    its Throw skill's colour (else it could throw the weapon nowhere)."""
    out: list[Problem] = []
    rangeless = {w.id for w in spec.weapons if w.type == "thrown" and w.short is None}
    for i, m in enumerate(spec.models):
        throw = m.skills.thrown
        if throw is None or isinstance(throw, ColouredSkillSpec):
            continue
        for j, w in enumerate(m.weapons):
            if w in rangeless:
                out.append(
                    doc.problem(
                        ("models", i, "skills", "thrown"),
                        f"weapon {w!r} (weapons[{j}]) is thrown and has no range of its own: "
                        f"it reaches the colour of the Throw skill icon; give it, e.g. "
                        f"thrown: {{value: {throw}, colour: red}}",
                    )
                )
    return out


def _range_value(value: str | float | None) -> str | float | None:
    return value if value is None or isinstance(value, str) else float(value)


def _semantic_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """Cross-references and geometry that a field-by-field schema cannot see."""
    unit = MM_PER_INCH if spec.units == "in" else 1.0
    problems = _id_problems(spec, doc)
    problems.extend(_reference_problems(spec, doc))
    problems.extend(_faction_problems(spec, doc))
    problems.extend(_length_problems(spec, doc, unit))
    problems.extend(_tolerance_problems(spec, doc, unit))
    problems.extend(_knife_edge_problems(spec, doc, unit))
    problems.extend(_shape_problems(spec, doc, unit))
    problems.extend(_total_vertex_problems(spec, doc))
    for i, weapon in enumerate(spec.weapons):
        problems.extend(_weapon_problems(weapon, ("weapons", i), doc))
    problems.extend(_skill_problems(spec, doc))
    problems.extend(_off_board_problems(spec, doc, unit))
    return problems


def _id_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """Ids used twice (models and terrain share one namespace; weapons have their own, and
    ``improvised`` is built in)."""
    problems: list[Problem] = []
    owner: dict[str, tuple[str | int, ...]] = {}
    ids = [("models", i, m.id) for i, m in enumerate(spec.models)]
    ids += [("terrain", i, t.id) for i, t in enumerate(spec.terrain)]
    for kind, i, ident in ids:
        if ident in owner:
            first = owner[ident]
            problems.append(
                doc.problem(
                    (kind, i, "id"), f"duplicate id {ident!r} (already used at {_fmt(first)})"
                )
            )
        else:
            owner[ident] = (kind, i, "id")
    weapon_ids: set[str] = set()
    for i, weapon in enumerate(spec.weapons):
        if weapon.id == IMPROVISED:
            problems.append(
                doc.problem(("weapons", i, "id"), "'improvised' is built in; choose another id")
            )
        elif weapon.id in weapon_ids:
            problems.append(doc.problem(("weapons", i, "id"), f"duplicate weapon id {weapon.id!r}"))
        weapon_ids.add(weapon.id)
    return problems


def _reference_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """A model's weapons and charge bonus target must name what the file holds."""
    problems: list[Problem] = []
    weapon_ids = {w.id for w in spec.weapons}
    model_ids = {m.id for m in spec.models}
    known = _id_list(sorted(weapon_ids))
    for i, m in enumerate(spec.models):
        for j, w in enumerate(m.weapons):
            if w not in weapon_ids and w != IMPROVISED:
                problems.append(
                    doc.problem(
                        ("models", i, "weapons", j),
                        f"unknown weapon {w!r}; expected one of the ids under 'weapons' ({known})",
                    )
                )
        if m.charge_bonus is not None:
            t = m.charge_bonus.target
            where = ("models", i, "charge_bonus", "target")
            if t not in model_ids:
                problems.append(doc.problem(where, f"unknown model id {t!r}"))
            elif t == m.id:
                problems.append(doc.problem(where, "a model cannot charge itself"))
    return problems


def _faction_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """A faction belongs to one side at most, and a neutral faction to none."""
    problems: list[Problem] = []
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
    return problems


def _length_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    """Bases of a sensible size; rulers of a sensible length."""
    problems: list[Problem] = []
    low, high = SANE_BASE_MM
    for i, m in enumerate(spec.models):
        mm = m.base * unit
        if not low <= mm <= high:
            problems.append(
                doc.problem(
                    ("models", i, "base"),
                    f"a base of {mm:g} mm makes no sense; expected {low:g} to {high:g} mm"
                    " (32, 40, 60 ...; check 'units')",
                )
            )
    for colour, length in spec.rulers.items():
        problems.extend(_ruler_problems(length * unit, ("rulers", colour), doc))
    return problems


def _shape_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    """Weapon bands of a sensible length; terrain polygons valid, not too thin, not too small."""
    problems: list[Problem] = []
    for i, weapon in enumerate(spec.weapons):
        for band in ("short", "long"):
            value = getattr(weapon, band)
            if isinstance(value, float):
                problems.extend(_ruler_problems(value * unit, ("weapons", i, band), doc))
    for i, piece in enumerate(spec.terrain):
        if piece.polygon is not None:
            found = _polygon_problems(piece.polygon, ("terrain", i, "polygon"), doc)
            if not found:
                found = _thin_polygon_problems(piece.polygon, unit, ("terrain", i, "polygon"), doc)
            problems.extend(found)
        problems.extend(_small_shape_problems(piece, unit, ("terrain", i), doc))
    return problems


def _off_board_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    """With a table size, every base lies on the table (touching an edge is on it)."""
    if spec.board is None:
        return []
    w, h = spec.board.size
    tol = BOUNDARY_TOLERANCE_MM / unit
    problems = []
    for i, m in enumerate(spec.models):
        r = m.base / 2
        x, y = m.at
        if x - r < -tol or y - r < -tol or x + r > w + tol or y + r > h + tol:
            problems.append(
                doc.problem(
                    ("models", i, "at"),
                    f"the base of {m.id!r} (centre [{x:g}, {y:g}], diameter {m.base:g}) lies "
                    f"partly off the table [0, {w:g}] x [0, {h:g}] given under 'board'",
                )
            )
    return problems


def _id_list(ids: list[str], most: int = 12) -> str:
    """Ids for a message: all of them, or the first ``most`` and how many more (a file may
    declare hundreds; one message per unknown id must stay short)."""
    if not ids:
        return "none"
    if len(ids) <= most:
        return ", ".join(ids)
    return ", ".join(ids[:most]) + f" and {len(ids) - most} more"


def _weapon_problems(w: WeaponSpec, at: tuple[str | int, ...], doc: Document) -> list[Problem]:
    """Bands and dice that do not fit the weapon's type (``ranged.range``, ``melee.skill``)."""
    out: list[Problem] = []
    if w.type == "melee":
        for band in ("short", "long", "min_range"):
            if getattr(w, band) is not None:
                out.append(doc.problem((*at, band), "a melee weapon has no range bands"))
        for band in sorted(set(w.dice) - {"melee"}):
            out.append(
                doc.problem((*at, "dice", band), "a melee weapon lists its dice under 'melee'")
            )
        return out
    if w.short is None and w.type != "thrown":
        out.append(
            doc.problem(
                (*at, "short"),
                f"required key 'short' is missing: a {w.type} weapon needs a short band",
            )
        )
    if w.short is None and w.type == "thrown":
        for key in ("long", "min_range"):
            if getattr(w, key) is not None:
                out.append(
                    doc.problem(
                        (*at, key),
                        f"a thrown weapon without 'short' reaches its thrower's Throw colour "
                        f"only; give 'short' too, or leave '{key}' out",
                    )
                )
    if "melee" in w.dice:
        out.append(
            doc.problem(
                (*at, "dice", "melee"),
                f"a {w.type} weapon lists its dice by band (short, long), not under 'melee'",
            )
        )
    if "long" in w.dice and w.long is None:
        out.append(
            doc.problem((*at, "dice", "long"), "dice for a long band, but 'long' is not given")
        )
    return out


def _tolerance_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    """``options.contact_tolerance`` above :data:`MAX_CONTACT_TOLERANCE_MM`, or above half
    of the shortest ruler (the ruler tolerance follows it)."""
    tolerance = spec.options.contact_tolerance
    if tolerance is None:
        return []
    rulers = {c: RULER_INCHES[c] * MM_PER_INCH for c in RULER_INCHES}
    rulers.update({c: v * unit for c, v in spec.rulers.items()})
    shortest = min(rulers, key=lambda c: rulers[c])
    limit = min(MAX_CONTACT_TOLERANCE_MM, rulers[shortest] / 2)
    if tolerance * unit <= limit:
        return []
    why = (
        "MAX_CONTACT_TOLERANCE_MM"
        if limit == MAX_CONTACT_TOLERANCE_MM
        else f"half the {shortest} ruler"
    )
    return [
        doc.problem(
            ("options", "contact_tolerance"),
            f"a contact tolerance of {tolerance * unit:g} mm is too wide; the limit is "
            f"{limit:g} mm ({why}): rulers and elevation use it too",
        )
    ]


def _knife_edge_problems(spec: ScenarioSpec, doc: Document, unit: float) -> list[Problem]:
    """``options.knife_edge`` wider than the margin search reaches (:data:`MARGIN_RADIUS_MM`):
    a margin beyond the search radius is not known, so it cannot be called a knife edge."""
    value = spec.options.knife_edge
    if value is None or value * unit <= MARGIN_RADIUS_MM + LENGTH_EPSILON_MM:
        return []
    return [
        doc.problem(
            ("options", "knife_edge"),
            f"a knife edge of {value * unit:g} mm is wider than the margin search reaches "
            f"({MARGIN_RADIUS_MM:g} mm, MARGIN_RADIUS_MM)",
        )
    ]


def _ruler_problems(mm: float, path: tuple[str | int, ...], doc: Document) -> list[Problem]:
    """A ruler (or a band given as a length) outside a sane range: likely a unit mistake."""
    low, high = SANE_RULER_MM
    if low <= mm <= high:
        return []
    return [
        doc.problem(
            path,
            f"a ruler of {mm:g} mm makes no sense; expected {low:g} to {high:g} mm (check 'units')",
        )
    ]


def _fmt(path: tuple[str | int, ...]) -> str:
    return format_path(path)


MIN_POLYGON_POINTS = 3
"""Fewest corners a terrain polygon may have (the file's loader and the board editor both
refuse fewer, with :func:`polygon_point_count_problem`'s message)."""


def polygon_point_count_problem(count: int) -> str | None:
    """The message refusing a polygon of ``count`` corners, or None when it has enough.

    Only the count: two equal corners among three still pass here (the loader's shape check
    finds them). The loader and the board editor both call this, so they say the same thing.

    >>> polygon_point_count_problem(2)
    'expected at least 3 points (got 2)'
    >>> polygon_point_count_problem(3) is None
    True
    """
    if count < MIN_POLYGON_POINTS:
        return f"expected at least {MIN_POLYGON_POINTS} points (got {count})"
    return None


def _polygon_problems(
    points: list[tuple[float, float]], path: tuple[str | int, ...], doc: Document
) -> list[Problem]:
    """A terrain polygon must be simple: 3 or more corners, an area, no edge crossing another.

    Touching itself at a corner counts as crossing (shapely calls such a ring invalid).
    """
    too_few = polygon_point_count_problem(len(points))
    if too_few is not None:
        return [doc.problem(path, too_few)]
    poly = Polygon(points)
    if not poly.is_valid:
        why = shapely_validation.explain_validity(poly)
        match = re.fullmatch(r"(.*)\[(\S+) (\S+)\]", why)
        if match and "self-intersection" in match.group(1).lower():
            x, y = float(match.group(2)), float(match.group(3))
            msg = (
                f"the polygon's edges cross each other at ({x:g}, {y:g}); expected a simple outline"
            )
        elif match and "too few points" in match.group(1).lower():
            msg = "expected at least 3 distinct points"
        else:
            msg = f"expected a simple polygon ({why})"
        return [doc.problem(path, msg)]
    if poly.area <= 0:
        return [doc.problem(path, "the polygon has no area (all points on one line)")]
    return []


def _terrain_corners(piece: TerrainSpec) -> int:
    """Corners a piece has on the board: a polygon its own, a rectangle 4, a circle 128."""
    if piece.polygon is not None:
        return len(piece.polygon)
    if piece.rect is not None:
        return 4
    return 4 * TERRAIN_CIRCLE_QUAD_SEGMENTS


def _total_vertex_problems(spec: ScenarioSpec, doc: Document) -> list[Problem]:
    """:data:`~fwwrules.constants.MAX_TOTAL_VERTICES` over all pieces."""
    total = sum(_terrain_corners(t) for t in spec.terrain)
    if total <= MAX_TOTAL_VERTICES:
        return []
    return [
        doc.problem(
            ("terrain",),
            f"the terrain has {total} corners in all (a rectangle counts 4, a circle "
            f"{4 * TERRAIN_CIRCLE_QUAD_SEGMENTS}): the limit is {MAX_TOTAL_VERTICES} "
            "(MAX_TOTAL_VERTICES)",
        )
    ]


def _small_shape_problems(
    piece: TerrainSpec, unit: float, at: tuple[str | int, ...], doc: Document
) -> list[Problem]:
    """A rectangle side or circle diameter below :data:`~fwwrules.constants.MIN_FEATURE_MM`."""
    low = MIN_FEATURE_MM
    below = low - LENGTH_EPSILON_MM  # exactly the minimum is allowed, rounding aside
    if piece.rect is not None:
        for k, name in enumerate(("width", "height")):
            mm = piece.rect.size[k] * unit
            if mm < below:
                return [
                    doc.problem(
                        (*at, "rect", "size", k),
                        f"a {name} of {mm:g} mm is below the smallest feature allowed, "
                        f"{low:g} mm (MIN_FEATURE_MM)",
                    )
                ]
    if piece.circle is not None and piece.circle.diameter * unit < below:
        mm = piece.circle.diameter * unit
        return [
            doc.problem(
                (*at, "circle", "diameter"),
                f"a diameter of {mm:g} mm is below the smallest feature allowed, "
                f"{low:g} mm (MIN_FEATURE_MM)",
            )
        ]
    return []


def _thin_polygon_problems(
    points: list[tuple[float, float]], unit: float, path: tuple[str | int, ...], doc: Document
) -> list[Problem]:
    """A simple polygon with a feature below :data:`~fwwrules.constants.MIN_FEATURE_MM`: an
    edge that short, or a corner that close to an edge it is not on (a sliver, a spike, a
    near-touch). Boundary case: exactly the minimum is allowed."""
    xy = np.asarray(points, dtype=float) * unit
    n = len(xy)
    nxt = np.roll(xy, -1, axis=0)
    d = nxt - xy
    lengths = np.hypot(d[:, 0], d[:, 1])
    low = MIN_FEATURE_MM
    below = low - LENGTH_EPSILON_MM  # exactly the minimum is allowed, rounding aside
    short = np.flatnonzero(lengths < below)
    if len(short):
        k = int(short[0])
        return [
            doc.problem(
                (*path, k),
                f"the edge from corner {k} to corner {(k + 1) % n} is {lengths[k]:.3g} mm long; "
                f"the shortest allowed is {low:g} mm (MIN_FEATURE_MM)",
            )
        ]
    # distance from every corner i to every edge j that does not end at i
    rel = xy[:, None, :] - xy[None, :, :]  # (i, j, 2): corner i from the start of edge j
    t = np.clip(
        (rel[..., 0] * d[None, :, 0] + rel[..., 1] * d[None, :, 1]) / (lengths[None, :] ** 2),
        0.0,
        1.0,
    )
    gap = np.hypot(rel[..., 0] - t * d[None, :, 0], rel[..., 1] - t * d[None, :, 1])
    idx = np.arange(n)
    gap[idx, idx] = np.inf  # edge i starts at corner i
    gap[idx, (idx - 1) % n] = np.inf  # edge i - 1 ends there
    i, j = np.unravel_index(int(np.argmin(gap)), gap.shape)
    if gap[i, j] < below:
        return [
            doc.problem(
                (*path, int(i)),
                f"corner {int(i)} is {gap[i, j]:.3g} mm from the edge from corner {int(j)} to "
                f"corner {(int(j) + 1) % n}; the smallest feature allowed is {low:g} mm "
                "(MIN_FEATURE_MM)",
            )
        ]
    return []


def _placement_problems(scenario: Scenario, doc: Document) -> list[Problem]:
    """Where bases stand, by the one placement rule
    (:func:`fwwrules.placement.placement_problems`): each problem at ``models[i].at``,
    naming both bases or the base and the piece."""
    return [
        doc.problem(("models", i, "at"), clash.message(scenario))
        for i, clash in placement_problems(scenario)
    ]


def _spec_of(doc: Document) -> ScenarioSpec:
    """The document read field by field; a field the format cannot hold raises
    :class:`~fwwrules.errors.ScenarioError` with every such problem."""
    try:
        return ScenarioSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(doc.source, problems_from_validation(doc, exc, ScenarioSpec)) from None


def read_scenario(doc: Document) -> tuple[Scenario, list[Problem]]:
    """The scenario a parsed document describes, and every problem its cross-checks find
    (crossing outlines, bases where the placement rule refuses them ...: what
    :func:`parse_scenario` refuses it for). A field that is not what the format allows (a word
    for a number, an unknown key) leaves no scenario to describe:
    :class:`~fwwrules.errors.ScenarioError` with every such problem.

    The board editor keeps a board with cross-check problems (drawn red, listed, not saved);
    a file is loaded by :func:`parse_scenario`, which refuses both kinds."""
    spec = _spec_of(doc)
    scenario = _from_spec(spec, doc.source)
    return scenario, _semantic_problems(spec, doc) + _placement_problems(scenario, doc)


def parse_scenario(doc: Document) -> Scenario:
    """Validate a parsed document as a scenario; every problem is reported at once (where
    bases stand is judged once the rest is right)."""
    spec = _spec_of(doc)
    problems = _semantic_problems(spec, doc)
    if problems:
        raise ScenarioError(doc.source, problems)
    scenario = _from_spec(spec, doc.source)
    problems = _placement_problems(scenario, doc)
    if problems:
        raise ScenarioError(doc.source, problems)
    return scenario


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Load a ``fwwrules/scenario@1`` file (YAML or JSON)."""
    return parse_document(read_document(path), {SCENARIO_FORMAT: parse_scenario})  # type: ignore[no-any-return]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the scenario file (``fwwrules schema``)."""
    schema = ScenarioSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "fwwrules scenario (fwwrules/scenario@1)"
    return schema
