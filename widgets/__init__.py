"""ipywidgets panels for fwwrules (import as ``fwwrules_widgets``).

The panels hold controls and call :mod:`fwwrules`; they decide nothing. Test them headless:
set ``.value`` on a control, then look at ``.ruling`` and ``.artists``.

* :class:`AttackPanel`: one attack, with dropdowns, position controls and mouse dragging
  (the live board canvas); the ruling beside the board.
* :class:`ExampleStepper` with :class:`Step`: Prev/Next through worked examples.
* :class:`MeleePanel`: engagements, outnumbered, withdraw and slide previews, into-melee.
* :class:`GridPanel`: Pathfinder 1e grid cover (attacker, target, attack type).
* :class:`BoardEditor`: build a scenario with the mouse; save it as a file.
* :class:`ThreatPanel`: the threat map over the board; drag shooters, click a spot.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .attack_panel import AttackPanel, move_model
    from .editor import BoardEditor, EditRefused
    from .grid_panel import GridPanel
    from .melee_panel import MeleePanel
    from .stepper import ExampleStepper, Step
    from .threat_panel import ThreatPanel
    from .view import BoardView

# Each name from the module that defines it, loaded on first use: ``import fwwrules_widgets``
# alone (as the Jupyter server does for its extension, fwwrules_widgets.server) loads neither
# matplotlib nor ipywidgets.
_WHERE = {
    "AttackPanel": "attack_panel",
    "move_model": "attack_panel",
    "BoardEditor": "editor",
    "EditRefused": "editor",
    "GridPanel": "grid_panel",
    "MeleePanel": "melee_panel",
    "ExampleStepper": "stepper",
    "Step": "stepper",
    "ThreatPanel": "threat_panel",
    "BoardView": "view",
}

__all__ = [
    "AttackPanel",
    "BoardEditor",
    "BoardView",
    "EditRefused",
    "ExampleStepper",
    "GridPanel",
    "MeleePanel",
    "Step",
    "ThreatPanel",
    "move_model",
]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported from its module the first time it is asked for."""
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'fwwrules_widgets' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
