"""The two rulesets as data: ``core`` (the Rules of Play) and ``vts`` (the Vault-Tec Simulator).

Every difference between them that a rule family asks about is one attribute of
:class:`Ruleset` (as python-chess keeps a variant's differences as class attributes), so a rule
reads ``rs.shoot_into_modifier`` instead of testing ``rules == "vts"``. The name is validated in
one place, :func:`ruleset`.

>>> ruleset("core").shoot_into_modifier, ruleset("vts").shoot_into_modifier
(2, -2)
>>> ruleset("vts").armor_step
ArmorInfo(bonus=0, boost=1)
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import QueryError
from .pieces import RULESET_NAMES, Rules
from .rulings import ArmorInfo


@dataclass(frozen=True, slots=True)
class Ruleset:
    """What one ruleset says where the two differ.

    ``armor_step`` is what cover (``cover.armor``) and a ranged weapon in close combat
    (``melee.ranged-weapon``) give the target: ``core`` armor +1, ``vts`` one Armor Boost.
    ``shoot_into_modifier`` and ``shoot_into_numbers`` are ``melee.shoot-into`` (the red Armor
    die's numbers pick the model hit in ``core`` only); ``super_mutant_melee`` is
    ``melee.super-mutant`` (``core`` only); ``slides`` is ``melee.slide`` (``core`` only).
    """

    name: Rules
    armor_step: ArmorInfo
    shoot_into_modifier: int
    shoot_into_numbers: bool
    super_mutant_melee: bool
    slides: bool


CORE = Ruleset(
    name="core",
    armor_step=ArmorInfo(bonus=1),
    shoot_into_modifier=2,
    shoot_into_numbers=True,
    super_mutant_melee=True,
    slides=True,
)
VTS = Ruleset(
    name="vts",
    armor_step=ArmorInfo(boost=1),
    shoot_into_modifier=-2,
    shoot_into_numbers=False,
    super_mutant_melee=False,
    slides=False,
)
RULESETS: dict[str, Ruleset] = {r.name: r for r in (CORE, VTS)}


def ruleset(name: str | Ruleset) -> Ruleset:
    """The ruleset named ``name`` (``core`` or ``vts``); anything else is a :class:`QueryError`.

    >>> ruleset("basic")
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: unknown ruleset 'basic'; expected core or vts
    """
    if isinstance(name, Ruleset):
        return name
    found = RULESETS.get(name) if isinstance(name, str) else None
    if found is None:
        raise QueryError(f"unknown ruleset {name!r}; expected {' or '.join(RULESET_NAMES)}")
    return found


def ruleset_name(scenario_rules: str, override: str | None = None) -> Rules:
    """The ruleset a query uses: ``override`` when given, else the scenario's (validated)."""
    return ruleset(scenario_rules if override is None else override).name
