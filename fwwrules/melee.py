"""Everything of the ``melee.*`` clauses under its old module path (thin re-exports).

The close combat rules live in four modules, each one rule family:
:mod:`fwwrules.engagement` (``melee.engaged``, ``melee.outnumbered``),
:mod:`fwwrules.close_combat` (close combat terms, ``melee.shoot-into``, ``action.quick``),
:mod:`fwwrules.movement` (``melee.withdraw``, ``melee.slide``) and the shortest-path geometry
:mod:`fwwrules.paths`. ``from fwwrules import melee`` keeps working for notebooks and users.
"""

from __future__ import annotations

from .close_combat import (
    ARMOR_DIE_NUMBERS,
    QUICK_ACTION_MODIFIER,
    RANGED_WEAPON_MODIFIER,
    SHOOT_INTO_MODIFIER,
    STRENGTH_BONUS_MIN,
    STUNNED_MODIFIER,
    SUPER_MUTANT,
    AttackClass,
    MeleeTerms,
    classify,
    close_combat_terms,
    into_melee,
    quick_action,
)
from .engagement import (
    contacts,
    engagements,
    in_contact,
    is_engaged,
    is_outnumbered,
    same_level,
)
from .movement import FreeAttack, NoAttack, SlideRuling, WithdrawRuling, slide, withdraw
from .paths import (
    ROUTE_ARC_STEP,
    Obstacle,
    Point2,
    Route,
    _Obstacle,
    shortest_path,
    shortest_route,
)

__all__ = [
    "ARMOR_DIE_NUMBERS",
    "QUICK_ACTION_MODIFIER",
    "RANGED_WEAPON_MODIFIER",
    "ROUTE_ARC_STEP",
    "SHOOT_INTO_MODIFIER",
    "STRENGTH_BONUS_MIN",
    "STUNNED_MODIFIER",
    "SUPER_MUTANT",
    "AttackClass",
    "FreeAttack",
    "MeleeTerms",
    "NoAttack",
    "Obstacle",
    "Point2",
    "Route",
    "SlideRuling",
    "WithdrawRuling",
    "_Obstacle",
    "classify",
    "close_combat_terms",
    "contacts",
    "engagements",
    "in_contact",
    "into_melee",
    "is_engaged",
    "is_outnumbered",
    "quick_action",
    "same_level",
    "shortest_path",
    "shortest_route",
    "slide",
    "withdraw",
]
