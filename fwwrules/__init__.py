"""fwwrules: the rules of Fallout: Wasteland Warfare (and Pathfinder 1e grid cover), executable.

>>> import fwwrules
>>> s = fwwrules.load(fwwrules.example_path("cover-example-1"))   # doctest: +SKIP
>>> fwwrules.ruling(s, "knight", "brute").skill.modifier          # doctest: +SKIP
-2

``import fwwrules`` loads neither matplotlib nor ipywidgets: drawing lives in
:mod:`fwwrules.draw`, the panels in :mod:`fwwrules_widgets`.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import FwwError, QueryError, ScenarioError, UnknownIdError
from .rulings import AttackRuling, Reason
from .scenario import (
    ChargeBonus,
    Circle,
    Model,
    Options,
    Rect,
    Scenario,
    Terrain,
    Weapon,
    dump_text,
    save,
)

__version__ = "0.1.0"


def load(path: str | os.PathLike[str]) -> Any:
    """Load a scenario (``fwwrules/scenario@1``) or a grid (``fwwrules/grid@1``) file.

    Raises :class:`ScenarioError` naming the file and the place inside it when the file is
    unusable.
    """
    from .grid.fileformat import parse_grid
    from .grid.vocabulary import GRID_FORMAT
    from .loading import load_any
    from .scenario import SCENARIO_FORMAT, parse_scenario

    return load_any(path, {SCENARIO_FORMAT: parse_scenario, GRID_FORMAT: parse_grid})


def loads(text: str, source: str = "<string>", *, json: bool = False) -> Any:
    """Like :func:`load`, for text in memory (notebooks build scenarios this way)."""
    from .grid.fileformat import parse_grid
    from .grid.vocabulary import GRID_FORMAT
    from .loading import parse_document, parse_text
    from .scenario import SCENARIO_FORMAT, parse_scenario

    doc = parse_text(text, source, json_=json)
    return parse_document(doc, {SCENARIO_FORMAT: parse_scenario, GRID_FORMAT: parse_grid})


def examples_dir() -> Path:
    """The folder of the rulebook example scenarios shipped with the package."""
    return Path(str(resources.files("fwwrules") / "examples"))


def example_path(name: str) -> Path:
    """The path of a shipped example by name (``cover-example-1``, ``grid/cleric`` ...)."""
    base = examples_dir()
    for suffix in (".yaml", ".json"):
        p = base / f"{name}{suffix}"
        if p.is_file():
            return p
    known = sorted(str(p.relative_to(base).with_suffix("")) for p in base.rglob("*.yaml"))
    raise UnknownIdError("example", name, known)


def examples() -> dict[str, str]:
    """The shipped examples: name (as :func:`example_path` takes it) to title, sorted by name.

    A file without a ``title`` maps to ``""``. Grid examples are named ``grid/<name>``.
    """
    from .loading import read_document

    base = examples_dir()
    out: dict[str, str] = {}
    for p in base.rglob("*.yaml"):
        data = read_document(p).data
        title = data.get("title") if isinstance(data, dict) else None
        out[p.relative_to(base).with_suffix("").as_posix()] = (
            title if isinstance(title, str) else ""
        )
    return dict(sorted(out.items()))


from .attack import ruling  # noqa: E402
from .grid import grid_cover  # noqa: E402
from .melee import slide, withdraw  # noqa: E402
from .threat import ThreatMap, threat_map  # noqa: E402

__all__ = [
    "AttackRuling",
    "ChargeBonus",
    "Circle",
    "FwwError",
    "Model",
    "Options",
    "QueryError",
    "Reason",
    "Rect",
    "Scenario",
    "ScenarioError",
    "Terrain",
    "ThreatMap",
    "UnknownIdError",
    "Weapon",
    "dump_text",
    "example_path",
    "examples",
    "examples_dir",
    "grid_cover",
    "load",
    "loads",
    "ruling",
    "save",
    "slide",
    "threat_map",
    "withdraw",
]
