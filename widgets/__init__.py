"""ipywidgets panels for fwwrules (import as ``fwwrules_widgets``).

The panels hold controls and call :mod:`fwwrules`; they decide nothing. Test them headless:
set ``.value`` on a control, then look at ``.ruling`` and ``.artists``.

* :class:`AttackPanel`: one attack, with dropdowns, position controls and mouse dragging
  (ipympl); the ruling beside the board.
* :class:`ExampleStepper` with :class:`Step`: Prev/Next through worked examples.
* :class:`MeleePanel`: engagements, outnumbered, withdraw and slide previews, into-melee.
* :class:`GridPanel` (``grid_panel``): Pathfinder 1e grid cover, when that module is there.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from .attack_panel import AttackPanel, move_model
from .melee_panel import MeleePanel
from .stepper import ExampleStepper, Step
from .view import BoardView, ipympl_active


def _grid_panel() -> Any:
    """``grid_panel.GridPanel`` once that module exists, else None (only a *missing* module
    is tolerated; an error inside an existing one is raised)."""
    if importlib.util.find_spec(f"{__name__}.grid_panel") is None:
        return None
    return getattr(importlib.import_module(f"{__name__}.grid_panel"), "GridPanel", None)


GridPanel: Any = _grid_panel()

__all__ = [
    "AttackPanel",
    "BoardView",
    "ExampleStepper",
    "GridPanel",
    "MeleePanel",
    "Step",
    "ipympl_active",
    "move_model",
]
