"""Close combat (``melee.*``), shooting into a melee (``melee.shoot-into``) and Quick Action
attacks (``action.quick``).

What this module decides:

* whether an attack is a close combat attack and whether an engaged model may make it
  (:func:`classify`, ``melee.engaged``);
* the terms of a close combat attack (:func:`close_combat_terms`: skill icon and value,
  ``melee.ranged-weapon``, ``melee.super-mutant``, ``melee.stunned``, ``melee.strength``,
  ``melee.outnumbered``, ``melee.charge-bonus``);
* shooting into a melee (:func:`into_melee`, ``melee.shoot-into``);
* the Quick Action modifier (:func:`quick_action`).

:mod:`fwwrules.attack` composes them into an :class:`~fwwrules.rulings.AttackRuling`. Who is
engaged with whom is :mod:`fwwrules.engagement`; withdraw and slide are
:mod:`fwwrules.movement`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .data import Scenario
from .engagement import contacts, engagements
from .los import has_line_of_sight
from .pieces import AttackKind, Weapon
from .rulesets import RULESETS, ruleset
from .rulings import ArmorInfo, Choice, IntoMelee, Reason, Step

SUPER_MUTANT = "super-mutant"
"""The keyword that marks a Super Mutant (``melee.super-mutant``)."""

RANGED_WEAPON_MODIFIER = -2
"""``melee.ranged-weapon``: a ranged or thrown weapon in close combat, as if one piece of cover."""

STUNNED_MODIFIER = 2
"""``melee.stunned``: close combat attacks against a Stunned model."""

QUICK_ACTION_MODIFIER = -2
"""``action.quick``: a Quick Action attack."""

STRENGTH_BONUS_MIN = 7
"""``melee.strength``: Strength at or above this adds a black die to a melee weapon's attack."""

SHOOT_INTO_MODIFIER = {name: rs.shoot_into_modifier for name, rs in RULESETS.items()}
"""``melee.shoot-into``: the skill modifier for shooting at an engaged target, by ruleset."""

ARMOR_DIE_NUMBERS = 4
"""``melee.shoot-into`` (``core``): the red Armor die's numbers 1-4 that pick the model hit."""

_TWO_PI = 2.0 * math.pi


# ---------------------------------------------------------------------------------------------
# classify: is it close combat, and may an engaged model make it?
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackClass:
    """What kind of attack this is and whether ``melee.engaged`` forbids it.

    ``kind`` is ``"melee"`` when the attacker is engaged with the target, and also for every
    melee weapon (a melee weapon only ever makes close combat attacks; against a target not in
    contact it is not allowed). Otherwise ``"ranged"``.
    """

    kind: AttackKind
    not_allowed: tuple[str, ...]
    reasons: tuple[Reason, ...]


def classify(scenario: Scenario, attacker_id: str, target_id: str, weapon: Weapon) -> AttackClass:
    """``melee.engaged``: the kind of attack and whether engagement forbids it.

    * Attacker engaged with the target: a close combat attack (``melee``), with any weapon
      (ranged weapons take the ``melee.ranged-weapon`` terms).
    * Attacker engaged, target one it is not engaged with (another model, a friend, a terrain
      piece or a point): not allowed (``melee.engaged``).
    * A melee weapon against a target the attacker is not engaged with: not allowed
      (``melee.engaged``), kind ``melee``.
    * Otherwise a ranged attack; shooting at an engaged target is :func:`into_melee`'s business.
    """
    attacker = scenario.model(attacker_id)
    engaged = engagements(scenario)[attacker.id]
    a_id, t_id = attacker.id, target_id  # ids: the catalogue shows the names
    if target_id in engaged:
        return AttackClass(
            "melee",
            (),
            (Reason("melee.engaged", "close-combat", {"attacker": a_id, "target": t_id}),),
        )
    reasons: list[Reason] = []
    not_allowed: list[str] = []
    if engaged:
        not_allowed.append("melee.engaged")
        reasons.append(
            Reason(
                "melee.engaged",
                "only-engaged",
                {
                    "attacker": a_id,
                    "target": t_id,
                    "engaged": [e for e in engaged],
                },
            )
        )
    if weapon.type == "melee":
        if not engaged:
            not_allowed.append("melee.engaged")
        reasons.append(
            Reason(
                "melee.engaged",
                "no-contact",
                {"attacker": a_id, "target": t_id, "weapon": weapon.id},
            )
        )
        return AttackClass("melee", tuple(not_allowed), tuple(reasons))
    return AttackClass("ranged", tuple(not_allowed), tuple(reasons))


# ---------------------------------------------------------------------------------------------
# close combat terms
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MeleeTerms:
    """The terms of one close combat attack.

    ``dice`` holds every effect die of the attack by colour: the weapon's ``melee`` dice (for a
    ranged or thrown weapon its short band's dice: a target in base contact lies in the short
    band), ``melee.strength`` black, ``melee.outnumbered`` green and ``melee.charge-bonus``.
    The limit of 4 dice per colour is not applied here. ``modifiers`` are (clause id, value)
    pairs; ``action.quick`` is not among them (the caller knows whether the attack is quick).
    """

    icon: str | None
    value: int | None
    modifiers: tuple[tuple[str, int], ...]
    armor_bonus: int
    armor_boost: int
    dice: Mapping[str, int]
    choices: tuple[Choice, ...]
    not_allowed: tuple[str, ...]
    reasons: tuple[Reason, ...]
    terms: tuple[Reason, ...] = ()
    """The reasons that present a modifier, armor or dice as applying (after ``reasons``)."""

    @property
    def modifier(self) -> int:
        """The total skill modifier of these terms."""
        return sum(v for _, v in self.modifiers)

    def step(self) -> Step:
        """These terms as the common step contract (:class:`~fwwrules.rulings.Step`)."""
        return Step(
            modifiers=self.modifiers,
            dice=self.dice,
            armor=ArmorInfo(self.armor_bonus, self.armor_boost),
            choices=self.choices,
            refusals=self.not_allowed,
            reasons=self.reasons,
            terms=self.terms,
        )


def _min_range_mm(scenario: Scenario, weapon: Weapon) -> float:
    return 0.0 if weapon.min_range is None else scenario.length_mm(weapon.min_range)


def close_combat_terms(
    scenario: Scenario,
    attacker_id: str,
    target_id: str,
    weapon: Weapon,
    rules: str,
    *,
    reacting_to_charge: bool = False,
) -> MeleeTerms:
    """The skill, modifiers, armor and effect dice of a close combat attack.

    * ``melee.skill``: a melee weapon uses the Melee icon, any other weapon its type's icon;
      without the icon the attack is not allowed. Every model has the Improvised Weapon.
    * ``melee.ranged-weapon``: pistol, rifle, heavy or thrown: −2 skill and the target's armor
      +1 (``core``) or one Armor Boost (``vts``). A minimum range above zero: not allowed.
      ``reacting_to_charge`` (RoP p.41: the attacker shoots in reaction to being charged):
      none of these penalties; the minimum range still forbids the weapon, and its short
      range dice still join the roll. With a melee weapon the option changes nothing (said).
    * ``melee.super-mutant`` (``core`` only): a Super Mutant with a pistol or rifle may use its
      Melee value; the engine takes the higher of the two (Melee on a tie) and lists the other
      as a choice. The ranged-weapon penalties stay. ``vts`` removes the rule.
    * ``melee.stunned``: +2 against a Stunned target the attacker is engaged with.
    * ``melee.strength``: Strength 7 or more with a melee weapon: +1 black die (Strength 6 or
      no Strength: none; a ranged weapon: none).
    * ``melee.outnumbered``: the target engaged with more than one opposing model: +1 green.
    * ``melee.charge-bonus``: markers held against this target: one marker adds its colour, two
      markers add one black and one green; against another target they are discarded unused.

    The target may be a terrain piece or a point (never Stunned nor outnumbered); whether the
    attack is allowed at all is :func:`classify`'s answer.
    """
    attacker = scenario.model(attacker_id)
    target = next((m for m in scenario.models if m.id == target_id), None)  # None: terrain/point
    a_id, t_id = attacker.id, target_id  # ids: the catalogue shows the names
    eng = engagements(scenario)
    reasons: list[Reason] = []  # facts and refusals
    terms: list[Reason] = []  # what applies to the attack when it is made
    modifiers: list[tuple[str, int]] = []
    not_allowed: list[str] = []
    choices: list[Choice] = []
    dice: Counter[str] = Counter()
    armor_bonus = armor_boost = 0
    ranged = weapon.type != "melee"

    # --- skill icon (melee.skill, melee.super-mutant) ---------------------------------------
    icon: str | None = "melee" if not ranged else weapon.type
    is_super_mutant = SUPER_MUTANT in attacker.keywords
    if ranged and is_super_mutant and weapon.type in ("pistol", "rifle"):
        if ruleset(rules).super_mutant_melee:
            own = attacker.skills.get(weapon.type)
            melee_value = attacker.skills.get("melee")
            if melee_value is not None and (own is None or melee_value >= own):
                icon = "melee"
            options = tuple(i for i in ("melee", weapon.type) if i in attacker.skills)
            if len(options) == 2:
                choices.append(Choice("skill-icon", "melee.super-mutant", options, icon))
            terms.append(
                Reason(
                    "melee.super-mutant",
                    "used" if icon == "melee" else "not-used",
                    {"attacker": a_id, "weapon_icon": weapon.type},
                )
            )
        else:
            terms.append(Reason("melee.super-mutant", rules, {"attacker": a_id}))
    value = attacker.skills.get(icon) if icon is not None else None
    if value is None:
        not_allowed.append("melee.skill")
        reasons.append(Reason("melee.skill", "missing", {"attacker": a_id, "weapon": weapon.id}))
    else:
        reasons.append(
            Reason(
                "melee.skill",
                "melee" if icon == "melee" else "weapon",
                {"attacker": a_id, "weapon": weapon.id, "icon": icon, "value": value},
            )
        )

    # --- melee.ranged-weapon -----------------------------------------------------------------
    if ranged:
        min_range = _min_range_mm(scenario, weapon)
        if min_range > 0:
            not_allowed.append("melee.ranged-weapon")
            reasons.append(
                Reason(
                    "melee.ranged-weapon",
                    "min-range",
                    {
                        "weapon": weapon.id,
                        "min_range": scenario.from_mm(min_range),
                        "units": scenario.units,
                    },
                )
            )
        values = {"attacker": a_id, "weapon": weapon.id, "target": t_id}
        if reacting_to_charge:  # RoP p.41: no penalties for a shot reacting to a charge
            terms.append(Reason("melee.ranged-weapon", "charge-reaction", values))
        else:
            modifiers.append(("melee.ranged-weapon", RANGED_WEAPON_MODIFIER))
            step = ruleset(rules).armor_step  # core: armor +1, vts: an Armor Boost
            armor_bonus, armor_boost = step.bonus, step.boost
            terms.append(
                Reason(
                    "melee.ranged-weapon",
                    rules,
                    {"weapon": weapon.id, "modifier": RANGED_WEAPON_MODIFIER, "target": t_id},
                )
            )
        short_dice = weapon.dice.get("short", ())
        dice.update(short_dice)
        if short_dice:
            terms.append(
                Reason("melee.ranged-weapon", "dice", {"weapon": weapon.id, "dice": short_dice})
            )
    else:
        dice.update(weapon.dice.get("melee", ()))
        if reacting_to_charge:
            values = {"attacker": a_id, "weapon": weapon.id, "target": t_id}
            reasons.append(Reason("melee.ranged-weapon", "charge-reaction-melee", values))

    # --- melee.stunned -----------------------------------------------------------------------
    if target is not None and target.stunned and target.id in eng[attacker.id]:
        modifiers.append(("melee.stunned", STUNNED_MODIFIER))
        terms.append(
            Reason("melee.stunned", "attack", {"target": t_id, "modifier": STUNNED_MODIFIER})
        )

    # --- melee.strength ----------------------------------------------------------------------
    if not ranged and attacker.strength is not None and attacker.strength >= STRENGTH_BONUS_MIN:
        dice["black"] += 1
        terms.append(
            Reason("melee.strength", "", {"attacker": a_id, "strength": attacker.strength})
        )

    # --- melee.outnumbered -------------------------------------------------------------------
    foes = eng.get(target_id, ())
    if len(foes) > 1:
        dice["green"] += 1
        terms.append(
            Reason(
                "melee.outnumbered",
                "",
                {
                    "target": t_id,
                    "count": len(foes),
                    "foes": [f for f in foes],
                },
            )
        )

    # --- melee.charge-bonus ------------------------------------------------------------------
    cb = attacker.charge_bonus
    if cb is not None:
        if cb.target == target_id:
            added = ("black", "green") if len(cb.markers) >= 2 else (cb.markers[0],)
            dice.update(added)
            terms.append(
                Reason(
                    "melee.charge-bonus",
                    "two" if len(added) == 2 else "one",
                    {"attacker": a_id, "target": t_id, "dice": added},
                )
            )
        else:
            terms.append(
                Reason(
                    "melee.charge-bonus",
                    "discarded",
                    {
                        "attacker": a_id,
                        "charged": cb.target,
                        "target": t_id,
                    },
                )
            )

    return MeleeTerms(
        icon=icon,
        value=value,
        modifiers=tuple(modifiers),
        armor_bonus=armor_bonus,
        armor_boost=armor_boost,
        dice=dict(dice),
        choices=tuple(choices),
        not_allowed=tuple(not_allowed),
        reasons=tuple(reasons),
        terms=tuple(terms),
    )


def charge_reaction_unused(attacker_id: str, target_id: str, weapon: Weapon) -> Step:
    """``melee.ranged-weapon`` (RoP p.41): an attack said to react to a charge that is not a
    ranged weapon used in close combat (the attacker is not engaged with the target): the
    exception has no penalty to lift; the ruling says so."""
    values = {"attacker": attacker_id, "weapon": weapon.id, "target": target_id}
    return Step(reasons=(Reason("melee.ranged-weapon", "charge-reaction-unused", values),))


def quick_action(quick: bool) -> tuple[tuple[tuple[str, int], ...], tuple[Reason, ...]]:
    """``action.quick``: a Quick Action attack has -2 skill (no modifier when not quick)."""
    if not quick:
        return (), ()
    return (("action.quick", QUICK_ACTION_MODIFIER),), (
        Reason("action.quick", "", {"modifier": QUICK_ACTION_MODIFIER}),
    )


# ---------------------------------------------------------------------------------------------
# melee.shoot-into
# ---------------------------------------------------------------------------------------------


def _clockwise_order(
    scenario: Scenario, centre_id: str, from_id: str, ids: Sequence[str]
) -> list[str]:
    """``ids`` sorted clockwise around ``centre_id``, starting from the direction of ``from_id``.

    Clockwise as the board is drawn (x to the right, y up): the angle from the centre toward
    ``from_id`` comes first, then angles decreasing. Equal angles: by id.
    """
    geo = scenario.board.models
    c = geo[centre_id].disc
    f = geo[from_id].disc
    ref = math.atan2(f.y - c.y, f.x - c.x)

    def key(i: str) -> tuple[float, str]:
        d = geo[i].disc
        a = math.atan2(d.y - c.y, d.x - c.x)
        off = (ref - a) % _TWO_PI
        if off > _TWO_PI - 1e-12:
            off = 0.0
        return (off, i)

    return sorted(ids, key=key)


def into_melee(
    scenario: Scenario, attacker_id: str, target_id: str, rules: str, *, thrown: bool = False
) -> tuple[IntoMelee, tuple[Reason, ...]] | None:
    """``melee.shoot-into``: shooting at a model engaged with others.

    ``None`` when the target is not engaged (or is not a model), and when the attacker itself
    is engaged with the target (that is close combat, not shooting into a melee).

    * ``core``: +2 skill. The red Armor die's numbers 1-4 go to the target first, then to each
      other model in that melee (in base contact with the target and itself engaged with at
      least one model: any side, the attacker's friends too; a friend of the target that
      touches it but is engaged with nobody is not in it) that the attacker can see, then
      round again from the target until four numbers are given.
      Two models: target 1 and 3, the other 2 and 4; three: target 1 and 4; with four or more
      models in contact only the first three get a number. The order of the others: clockwise
      around the target (as drawn, y up) starting from the direction of the attacker, ties by
      id. The attacker never gets a number. The same numbers serve area effects and thrown
      weapons; a miss scatters from the intended target (said only when ``thrown``: the
      weapon is a thrown one). The target may be a friendly model.
    * ``vts``: -2 skill, no numbers: a hit always strikes the target.
    """
    attacker = scenario.model(attacker_id)
    if target_id not in engagements(scenario) or not engagements(scenario)[target_id]:
        return None
    if attacker.id in engagements(scenario)[target_id]:
        return None
    target = scenario.model(target_id)
    t_id = target.id
    rs = ruleset(rules)
    modifier = rs.shoot_into_modifier
    reasons: list[Reason] = []
    foes = list(engagements(scenario)[target_id])
    if not rs.shoot_into_numbers:
        reasons.append(
            Reason(
                "melee.shoot-into",
                rs.name,
                {"target": t_id, "engaged": foes, "modifier": modifier},
            )
        )
        return IntoMelee(modifier, None), tuple(reasons)

    reasons.append(
        Reason("melee.shoot-into", rs.name, {"target": t_id, "engaged": foes, "modifier": modifier})
    )
    eng = engagements(scenario)
    near = []
    for m in contacts(scenario, target_id):
        if m == attacker.id:
            continue
        if eng.get(m):
            near.append(m)
        else:  # touches the target but is engaged with nobody: not in that melee
            reasons.append(Reason("melee.shoot-into", "not-in-melee", {"model": m}))
    seen: list[str] = []
    for m in near:
        if has_line_of_sight(scenario, attacker.id, m):
            seen.append(m)
        else:
            reasons.append(
                Reason(
                    "melee.shoot-into",
                    "unseen",
                    {"model": m, "attacker": attacker.id},
                )
            )
    ordered = _clockwise_order(scenario, target_id, attacker.id, seen)
    group = [target_id, *ordered]
    numbers = tuple(group[k % len(group)] for k in range(ARMOR_DIE_NUMBERS))
    left_out = ordered[ARMOR_DIE_NUMBERS - 1 :]
    if left_out:
        reasons.append(
            Reason(
                "melee.shoot-into",
                "too-many",
                {"models": list(left_out)},
            )
        )
    reasons.append(Reason("melee.shoot-into", "numbers", {"numbers": list(numbers)}))
    if thrown:
        reasons.append(Reason("melee.shoot-into", "scatter", {"target": t_id}))
    return IntoMelee(modifier, numbers), tuple(reasons)
