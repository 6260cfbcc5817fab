"""fwwrules: the rules of Fallout: Wasteland Warfare (and Pathfinder 1e grid cover), executable.

>>> import fwwrules
>>> s = fwwrules.load(fwwrules.example_path("cover-example-1"))   # doctest: +SKIP
>>> fwwrules.ruling(s, "knight", "brute").skill.modifier          # doctest: +SKIP
-2

This module only re-exports. ``import fwwrules`` loads neither matplotlib nor ipywidgets
(drawing lives in :mod:`fwwrules.draw`, the panels in :mod:`fwwrules_widgets`) nor pydantic
nor yaml: the attack ruling (:func:`ruling`, the rule families it runs, :class:`AttackRuling`
and :class:`Reason`), the file readers and writers (:func:`load`, :func:`loads`,
:func:`examples`, :func:`save`, :func:`dump_text`) and the rule families an attack ruling does
not need (withdraw and slide, placement, grid cover, threat maps) are imported when first asked
for (``bench/import_time.py`` measures the cost of ``import fwwrules``; the first ruling pays
for its rule families).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .data import Scenario
from .errors import FwwError, QueryError, ScenarioError, UnknownIdError
from .pieces import ChargeBonus, Circle, Model, Options, Rect, Terrain, Weapon
from .resources import example_path, examples_dir

if TYPE_CHECKING:
    from .attack import ruling
    from .compare import Comparison, compare
    from .files import examples, load, loads
    from .grid import grid_cover
    from .movement import slide, withdraw
    from .placement import move_model
    from .rulings import AttackRuling, Reason
    from .saving import dump_text, save
    from .threat import ThreatMap, threat_map

__version__ = "0.2.0"

_LAZY = {
    "ruling": "attack",
    "AttackRuling": "rulings",
    "Reason": "rulings",
    "compare": "compare",
    "Comparison": "compare",
    "load": "files",
    "loads": "files",
    "examples": "files",
    "save": "saving",
    "dump_text": "saving",
    "slide": "movement",
    "withdraw": "movement",
    "move_model": "placement",
    "grid_cover": "grid",
    "ThreatMap": "threat",
    "threat_map": "threat",
}
"""Names imported on first use, by module: the attack ruling and its types (with the rule
families it runs: cover, line of sight, elevation, close combat, the file check and
placement), the file readers (pydantic) and writers (yaml), and the rule families an attack
ruling does not need (the two rulesets compared, withdraw and slide, placement, Pathfinder grid
cover, threat maps)."""


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fwwrules' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The loaded names and every public one, loaded or not (tab completion lists ``ruling``
    and ``load`` before their first use)."""
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "AttackRuling",
    "ChargeBonus",
    "Circle",
    "Comparison",
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
    "compare",
    "dump_text",
    "example_path",
    "examples",
    "examples_dir",
    "grid_cover",
    "load",
    "loads",
    "move_model",
    "ruling",
    "save",
    "slide",
    "threat_map",
    "withdraw",
]
