"""One attack query, resolved once: who attacks what, with which weapon, under which ruleset.

:func:`fwwrules.attack.attack_context` builds an :class:`AttackContext` at the start of a
ruling; every rule family then reads what it needs from it (the attacker and target models,
the weapon as the attacker uses it, the :class:`~fwwrules.rulesets.Ruleset`, the
:class:`~fwwrules.shot.Shot` with its elevation context, the engagement graph) instead of
looking each up again by id, and gives back one :class:`~fwwrules.rulings.Step`;
:func:`fwwrules.rulings.fold` is the only place that combines the steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .data import Scenario
from .pieces import Band, Model, Weapon
from .refs import TargetRef
from .rulesets import Ruleset
from .shot import Shot


@dataclass(frozen=True, slots=True, eq=False)
class AttackContext:
    """Everything one attack ruling resolves once.

    ``target`` is the target model (``None`` for a terrain piece or a point: see ``shot``);
    ``weapon`` is the weapon as the attacker uses it (a thrown weapon's range from its Throw
    colour); ``engaged`` is ``melee.engaged``'s graph (model id -> the opposing models it is
    engaged with, :func:`fwwrules.engagement.engagements`). ``band``, ``quick`` and
    ``reacting_to_charge`` are the attacker's choices as asked.
    """

    scenario: Scenario
    attacker: Model
    target: Model | None
    weapon: Weapon
    rules: Ruleset
    shot: Shot
    engaged: Mapping[str, tuple[str, ...]]
    band: Band | None = None
    quick: bool = False
    reacting_to_charge: bool = False

    @property
    def attacker_id(self) -> str:
        return self.attacker.id

    @property
    def target_id(self) -> str:
        """The target's id: a model's or terrain piece's id, or ``point(x,y)``."""
        return self.shot.target_id

    @property
    def target_ref(self) -> TargetRef:
        """What is shot at, typed (:mod:`fwwrules.refs`): what reasons carry for the target."""
        return self.shot.target
