"""The scenario file format (``fwwrules/scenario@1``): its pydantic spec (the grammar: keys,
each field's type and range, for the file's messages) and the JSON Schema.

Reading a file is :func:`parse_scenario`: the spec, then the frozen
:class:`~fwwrules.data.Scenario`, then :func:`fwwrules.checks.scenario_problems`, the one
check every scenario goes through, whether read from a file or built in Python (ids used
once, references, sides, sane lengths, simple polygons, and where bases stand by the one
placement rule of :mod:`fwwrules.placement` ...: the boundary cases are written there), each
problem at its line. Importing this module imports pydantic.
"""

from __future__ import annotations

import math
import os
from typing import Annotated, Any, Literal

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

from .checks import MIN_POLYGON_POINTS as MIN_POLYGON_POINTS
from .checks import mark_checked, scenario_problems
from .checks import polygon_point_count_problem as polygon_point_count_problem
from .constants import (
    MAX_COORDINATE,
    MAX_MODEL_WEAPONS,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_WEAPONS,
)
from .data import Scenario
from .errors import Problem, ScenarioError
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
    MAX_DICE_PER_COLOUR,
    RULER_COLOURS,
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


def _range_value(value: str | float | None) -> str | float | None:
    return value if value is None or isinstance(value, str) else float(value)


def read_scenario(doc: Document) -> tuple[Scenario, list[Problem]]:
    """The scenario a parsed document describes, and every problem the file check finds in it
    (:func:`fwwrules.checks.scenario_problems`: crossing outlines, bases where the placement
    rule refuses them ...: what :func:`parse_scenario` refuses it for). A field that is not
    what the format allows (a word for a number, an unknown key) leaves no scenario to
    describe: :class:`~fwwrules.errors.ScenarioError` with every such problem.

    The board editor keeps a board with such problems (drawn red, listed, not saved); a file
    is loaded by :func:`parse_scenario`, which refuses both kinds."""
    try:
        spec = ScenarioSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise ScenarioError(doc.source, problems_from_validation(doc, exc, ScenarioSpec)) from None
    scenario = _from_spec(spec, doc.source)
    return scenario, [doc.problem(p.path, p.message) for p in scenario_problems(scenario)]


def parse_scenario(doc: Document) -> Scenario:
    """Validate a parsed document as a scenario; every problem is reported at once."""
    scenario, problems = read_scenario(doc)
    if problems:
        raise ScenarioError(doc.source, problems)
    return mark_checked(scenario)


def load_scenario(path: str | os.PathLike[str]) -> Scenario:
    """Load a ``fwwrules/scenario@1`` file (YAML or JSON)."""
    return parse_document(read_document(path), {SCENARIO_FORMAT: parse_scenario})  # type: ignore[no-any-return]


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the scenario file (``fwwrules schema``)."""
    schema = ScenarioSpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "fwwrules scenario (fwwrules/scenario@1)"
    return schema
