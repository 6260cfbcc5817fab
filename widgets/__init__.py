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

from .attack_panel import AttackPanel, move_model
from .editor import BoardEditor, EditRefused
from .grid_panel import GridPanel
from .melee_panel import MeleePanel
from .stepper import ExampleStepper, Step
from .threat_panel import ThreatPanel
from .view import BoardView, ipympl_active

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
    "ipympl_active",
    "move_model",
]
