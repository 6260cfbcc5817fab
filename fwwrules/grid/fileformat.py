"""The grid file format ``fwwrules/grid@1``: its pydantic spec and :func:`parse_grid`.

Loaded only when a grid file is read (it needs pydantic).
"""

from __future__ import annotations

from collections.abc import Mapping
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

from ..constants import MAX_GRID_CELLS, MAX_GRID_WALLS, MAX_MODELS
from ..errors import Problem, ScenarioError
from ..filespec import Ident, Name, Title, title_value
from ..loading import Document, problems_from_validation
from .model import Creature, GridScenario, Wall, semantic_problems
from .vocabulary import (
    DEFAULT_LEGEND,
    DEFAULT_SQUARE_FT,
    MAX_CREATURE_SIZE,
    MAX_REACH,
    OPEN,
    SquareKind,
)

GridIdent = Ident
"""A creature's id: the scenario file's ids (:data:`fwwrules.filespec.Ident`)."""
MapChar = Annotated[str, StringConstraints(strict=True, min_length=1, max_length=1)]
IntCorner = tuple[StrictInt, StrictInt]


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class CreatureSpec(_Spec):
    id: GridIdent
    name: Name | None = Field(
        None, description="Display name: one text, or one per language ({en: ..., de: ...})"
    )
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
    title: Title | None = None
    square: Annotated[float, Field(strict=True, gt=0, le=1000, allow_inf_nan=False)] = (
        DEFAULT_SQUARE_FT
    )
    map: (
        Annotated[str, StringConstraints(strict=True)]
        | list[Annotated[str, StringConstraints(strict=True)]]
    )
    legend: dict[MapChar, SquareKind] = Field(default_factory=dict)
    walls: Annotated[list[tuple[IntCorner, IntCorner]], Field(max_length=MAX_GRID_WALLS)] = Field(
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
    rows: list[str], legend: Mapping[str, SquareKind], doc: Document
) -> tuple[list[Problem], tuple[tuple[SquareKind, ...], ...]]:
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
    kinds: list[tuple[SquareKind, ...]] = []
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
            name=title_value(c.name),
        )
        for c in spec.creatures
    )
    found = semantic_problems(kinds, walls, creatures, float(spec.square))
    if found:
        raise ScenarioError(doc.source, [doc.problem(p, m) for p, m in found])
    return GridScenario(
        kinds=kinds,
        creatures=creatures,
        walls=walls,
        square=float(spec.square),
        title=title_value(spec.title),
        source=doc.source,
    )
