"""The threat map's JSON (``fwwrules threat --json``, format ``fwwrules/threat@1``) as one
typed model: the document is built from these dataclasses and its JSON
Schema (``fwwrules schema --threat``) is derived from the same classes (:func:`json_schema`),
so the two cannot drift apart (:meth:`fwwrules.threat.ThreatMap.to_dict` fills it).

Each field's ``metadata`` holds its ``description``; ``required=False`` marks a field that
documents of this format may lack (those added after the format's first version).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Literal, Union

from ..pieces import Rules, Units

THREAT_FORMAT = "fwwrules/threat@1"
"""The ``format`` of ``fwwrules threat --json``."""


def _about(text: str, *, required: bool = True) -> dict[str, Any]:
    return {"description": text, "required": required}


@dataclass(frozen=True, slots=True)
class CellDoc:
    """One cell: what one shooter may do to the model at one position."""

    allowed: bool = field(metadata=_about("the ruling's `allowed`"))
    modifier: int | None = field(
        metadata=_about(
            "the ruling's `skill.modifier` with the best weapon; null when the attack is not "
            "allowed"
        )
    )
    reason: str | None = field(
        metadata=_about(
            "the first clause id of the ruling's `not_allowed` (of the shooter's first weapon when "
            "none may attack); null when allowed"
        )
    )
    weapon: str = field(metadata=_about("the weapon of the reported ruling", required=False))


CellFields = tuple[bool, int | None, str | None, str]
"""A :class:`CellDoc`'s fields as a tuple, in :data:`CELL_FIELDS` order."""
CELL_FIELDS = tuple(f.name for f in dataclasses.fields(CellDoc))
"""The names of a :class:`CellDoc`'s fields, in order (a cell's keys in the JSON)."""


@dataclass(frozen=True, slots=True)
class GridDoc:
    """The grid the positions come from."""

    shape: tuple[int, int] = field(metadata=_about("rows and columns"))


@dataclass(frozen=True, slots=True)
class ThreatDocument:
    """What each enemy model may do to a model standing at each position (`fwwrules threat
    FILE --side SIDE --json`). Each cell equals `fwwrules ruling` for a model of that base and
    side standing there, with the shooter's best weapon."""

    format: Literal["fwwrules/threat@1"] = field(metadata=_about("the format of this document"))
    side: str = field(metadata=_about("side of the model at each position"))
    base: float = field(metadata=_about("its base diameter, in `units`"))
    step: float | None = field(metadata=_about("grid step, in `units`"))
    units: Units = field(metadata=_about("the scenario's units"))
    rules: Rules = field(metadata=_about("the ruleset of every ruling", required=False))
    weapon: str = field(
        metadata=_about(
            "`best`, or the weapon id asked for (`--weapon`): shooters carrying it are judged "
            "with it alone, the others with their best weapon",
            required=False,
        )
    )
    shooters: list[str] = field(metadata=_about("the enemy models, in file order"))
    positions: list[tuple[float, float]] = field(
        metadata=_about("centres of the model's base where it can stand, in `units`")
    )
    elevation: list[float] = field(
        metadata=_about(
            "per position: the height it stands at (elevation.standing-on)", required=False
        )
    )
    grid: GridDoc | None = field(
        metadata=_about(
            "the grid's [rows, columns]; unplaceable positions are left out", required=False
        )
    )
    unplaceable: int = field(metadata=_about("positions left out", required=False))
    cells: list[list[CellDoc]] = field(
        metadata=_about("per position, one cell per shooter (in `shooters` order)")
    )

    def to_json(self) -> dict[str, Any]:
        """The document as JSON data (dicts, lists, numbers, strings)."""
        plain = _plain(self)
        assert isinstance(plain, dict)
        return plain


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


# --- the schema, from the same classes -------------------------------------------------------

_SCALARS: dict[Any, str] = {bool: "boolean", int: "integer", float: "number", str: "string"}


def _schema_of(tp: Any) -> dict[str, Any]:
    """The JSON Schema of one annotation (scalars, ``None`` unions, ``Literal``, lists,
    fixed-length tuples and the document's dataclasses)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if origin in (Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        assert len(inner) == 1, tp
        schema = _schema_of(inner[0])
        if "type" in schema:
            return {**schema, "type": [schema["type"], "null"]}
        return {"anyOf": [schema, {"type": "null"}]}  # pragma: no cover - not used today
    if origin is list:
        return {"type": "array", "items": _schema_of(args[0])}
    if origin is tuple:
        return {
            "type": "array",
            "items": _schema_of(args[0]),
            "minItems": len(args),
            "maxItems": len(args),
        }
    if dataclasses.is_dataclass(tp):
        return _object_schema(tp)
    raise TypeError(f"no JSON Schema for {tp!r}")  # pragma: no cover - a new field's type


def _object_schema(cls: Any) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    required = []
    for f in dataclasses.fields(cls):
        props[f.name] = {**_schema_of(hints[f.name]), "description": f.metadata["description"]}
        if f.metadata.get("required", True):
            required.append(f.name)
    return {"type": "object", "required": required, "properties": props}


def json_schema() -> dict[str, Any]:
    """The JSON Schema of ``fwwrules threat --json`` (``fwwrules schema --threat``), derived
    from :class:`ThreatDocument`."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://fwwrules.invalid/schema/threat@1",
        "title": "fwwrules threat map",
        "description": " ".join((ThreatDocument.__doc__ or "").split()),
        **_object_schema(ThreatDocument),
    }
