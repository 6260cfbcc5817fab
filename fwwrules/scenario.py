"""Scenario files and data under their old module path (thin re-exports).

The scenario lives in three modules: :mod:`fwwrules.pieces` and :mod:`fwwrules.data` (the frozen
data), :mod:`fwwrules.scenario_spec` (the file format, its checks and JSON Schema) and
:mod:`fwwrules.saving` (writing files). Importing this module imports pydantic; ``import
fwwrules`` does not.
"""

from __future__ import annotations

from .board import Board
from .constants import MM_PER_INCH
from .data import Relation, Scenario
from .filespec import IDENT_PATTERN, Ident, NonNegative, Number, Point, Positive, Text
from .pieces import (
    DICE_COLOURS,
    IMPROVISED,
    IMPROVISED_WEAPON,
    MAX_DICE_PER_COLOUR,
    RULER_COLOURS,
    RULER_INCHES,
    SCENARIO_FORMAT,
    SKILL_ICONS,
    TERRAIN_KINDS,
    ChargeBonus,
    Circle,
    Colour,
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
from .saving import dump_text, save, to_data
from .scenario_spec import (
    MIN_POLYGON_POINTS,
    BoardSpec,
    ChargeBonusSpec,
    CircleSpec,
    ModelSpec,
    OptionsSpec,
    RectSpec,
    ScenarioSpec,
    TerrainSpec,
    WeaponSpec,
    json_schema,
    load_scenario,
    parse_scenario,
    polygon_point_count_problem,
)

__all__ = [
    "DICE_COLOURS",
    "IDENT_PATTERN",
    "IMPROVISED",
    "IMPROVISED_WEAPON",
    "MAX_DICE_PER_COLOUR",
    "MIN_POLYGON_POINTS",
    "MM_PER_INCH",
    "RULER_COLOURS",
    "RULER_INCHES",
    "SCENARIO_FORMAT",
    "SKILL_ICONS",
    "TERRAIN_KINDS",
    "Board",
    "BoardSpec",
    "ChargeBonus",
    "ChargeBonusSpec",
    "Circle",
    "CircleSpec",
    "Colour",
    "DiceColour",
    "Ident",
    "Model",
    "ModelSpec",
    "NonNegative",
    "Number",
    "Options",
    "OptionsSpec",
    "Point",
    "Positive",
    "Rect",
    "RectSpec",
    "Relation",
    "Rules",
    "Scenario",
    "ScenarioSpec",
    "Shape",
    "SkillIcon",
    "Status",
    "Terrain",
    "TerrainKind",
    "TerrainSpec",
    "Text",
    "Units",
    "Weapon",
    "WeaponSpec",
    "dump_text",
    "json_schema",
    "load_scenario",
    "parse_scenario",
    "polygon_point_count_problem",
    "save",
    "to_data",
]
