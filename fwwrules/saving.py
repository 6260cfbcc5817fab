"""Saving a scenario: plain data in the file format, YAML or JSON text, a file.

What :func:`save` writes loads back equal (``tests/test_scenario_roundtrip.py``): it checks so
before it writes, and writes atomically. Keys holding their default are left out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from .arguments import file_name
from .checks import checked
from .checks import usable as scenario_arg
from .data import Scenario
from .errors import Problem, QueryError, ScenarioError, printable
from .loading import parse_text
from .pieces import SCENARIO_FORMAT, Circle, Model, Rect, Terrain, Title, Weapon
from .scalars import Dumper
from .scenario_spec import parse_scenario
from .writing import write_atomic


def to_data(scenario: Scenario) -> dict[str, Any]:
    """The scenario as plain data in the file format (what :func:`save` writes)."""
    out: dict[str, Any] = {"format": SCENARIO_FORMAT}
    if scenario.title is not None:
        out["title"] = _text(scenario.title)
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
    if o.knife_edge is not None:
        opts["knife_edge"] = o.knife_edge
    if opts:
        out["options"] = opts
    if scenario.rulers:
        out["rulers"] = dict(scenario.rulers)
    if scenario.board_size is not None:
        out["board"] = {"size": _listed(scenario.board_size)}
    if scenario.sides:
        out["sides"] = {k: _listed(v) for k, v in dict(scenario.sides).items()}
    if scenario.neutral:
        out["neutral"] = _listed(scenario.neutral)
    out["models"] = [_model_data(m) for m in scenario.models]
    out["terrain"] = [_terrain_data(t) for t in scenario.terrain]
    out["weapons"] = [_weapon_data(w) for w in scenario.weapons]
    return out


def _listed(value: Any) -> Any:
    """A tuple or list as a list; anything else as it is (a board built in Python may hold
    anything: :func:`to_data` writes it down and the reader names what is wrong)."""
    return list(value) if isinstance(value, (tuple, list)) else value


def _text(text: Title) -> Any:
    """A title or name as the file writes it: the text, or a plain mapping by language
    (anything else as it is, for the reader to name)."""
    return dict(text) if isinstance(text, Mapping) else text


def _model_data(m: Model) -> dict[str, Any]:
    d: dict[str, Any] = {"id": m.id}
    if m.name is not None:
        d["name"] = _text(m.name)
    d.update(faction=m.faction, base=m.base, at=_listed(m.at))
    if m.elevation:
        d["elevation"] = m.elevation
    if m.skills:
        skills: dict[str, Any] = dict(m.skills)
        if m.throw_colour is not None and "thrown" in skills:
            # ranged.skill: the Throw skill carries its icon's colour
            skills["thrown"] = {"value": skills["thrown"], "colour": m.throw_colour}
        d["skills"] = skills
    if m.strength is not None:
        d["strength"] = m.strength
    for key in ("keywords", "status", "weapons"):
        if getattr(m, key):
            d[key] = _listed(getattr(m, key))
    if m.charge_bonus is not None:
        d["charge_bonus"] = {
            "target": m.charge_bonus.target,
            "markers": _listed(m.charge_bonus.markers),
        }
    if m.move is not None:
        d["move"] = m.move
    return d


def _terrain_data(t: Terrain) -> dict[str, Any]:
    d: dict[str, Any] = {"id": t.id}
    if t.name is not None:
        d["name"] = _text(t.name)
    d["kind"] = t.kind
    s = t.shape
    if isinstance(s, Rect):
        d["rect"] = {"at": _listed(s.at), "size": _listed(s.size), "angle": s.angle}
    elif isinstance(s, Circle):
        d["circle"] = {"at": _listed(s.at), "diameter": s.diameter}
    else:
        d["polygon"] = [_listed(p) for p in s] if isinstance(s, (tuple, list)) else s
    for key in ("height", "huge", "elevated"):
        if getattr(t, key) is not None:
            d[key] = getattr(t, key)
    return d


def _weapon_data(w: Weapon) -> dict[str, Any]:
    d: dict[str, Any] = {"id": w.id}
    if w.name is not None:
        d["name"] = _text(w.name)
    d["type"] = w.type
    for key in ("short", "long", "min_range"):
        if getattr(w, key) is not None:
            d[key] = getattr(w, key)
    if w.dice:
        d["dice"] = {k: _listed(v) for k, v in dict(w.dice).items()}
    return d


def dump_text(scenario: Scenario, *, json_: bool = False) -> str:
    """The scenario as the text :func:`save` writes: YAML (a text that could read as a number
    or a boolean is quoted, :class:`fwwrules.scalars.Dumper`), or JSON with ``json_``.

    Only a usable scenario is written out: anything else is a
    :class:`~fwwrules.errors.QueryError`, and a scenario the file format would refuse (changed
    in Python) the :class:`~fwwrules.errors.ScenarioError` of :func:`fwwrules.checks.checked`.
    """
    data = to_data(scenario_arg(scenario, "dump_text"))
    if json_:
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return yaml.dump(
        data, Dumper=Dumper, sort_keys=False, allow_unicode=True, default_flow_style=None
    )


def checked_text(scenario: Scenario, path: str | os.PathLike[str]) -> str:
    """The text :func:`save` writes to ``path``, after proving that it loads back equal.

    Raises :class:`~fwwrules.errors.ScenarioError` when the scenario could not be loaded from
    what would be written (a board changed in Python into one the format refuses: overlapping
    bases, a coordinate beyond the limit, NaN ...), naming the place, and
    :class:`~fwwrules.errors.QueryError` for something that is not a scenario (a grid).
    """
    name = file_name(path)
    if not isinstance(scenario, Scenario):
        what = "a grid scenario" if type(scenario).__name__ == "GridScenario" else "it"
        raise QueryError(
            f"cannot save {printable(name)}: {what} is not a fwwrules/scenario@1 "
            f"scenario (got {type(scenario).__name__})"
        )
    json_ = Path(name).suffix.lower() == ".json"
    source = f"{printable(name)} (not saved)"
    checked(scenario, source)  # the reason a board changed in Python cannot be saved
    text = dump_text(scenario, json_=json_)
    back = parse_scenario(parse_text(text, source, json_=json_))
    if back != scenario:
        problem = Problem((), "the scenario does not load back equal from the text")
        raise ScenarioError(source, [problem])
    return text


def save(scenario: Scenario, path: str | os.PathLike[str]) -> Path:
    """Write the scenario as YAML, or JSON when the name ends in ``.json``; return the path.

    What is written loads back equal: a scenario the format would refuse is not written
    (:class:`~fwwrules.errors.ScenarioError`, see :func:`checked_text`). The file is written
    atomically (:func:`fwwrules.writing.write_atomic`): a failure part-way (a full disk) leaves
    an existing file as it was, an existing file keeps its permissions and a new one follows
    the umask; a failure raises :class:`~fwwrules.writing.WriteError` (an ``OSError``).
    """
    return write_atomic(path, checked_text(scenario, path))
