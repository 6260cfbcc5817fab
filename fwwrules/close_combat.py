"""Close combat (``melee.*``), shooting into a melee (``melee.shoot-into``) and Quick Action
attacks (``action.quick``).

What this module decides:

* whether an attack is a close combat attack and whether an engaged model may make it
  (:func:`classify`, ``melee.engaged``);
* the terms of a close combat attack (:func:`close_combat_terms`: skill icon and value,
  ``melee.ranged-weapon``, ``melee.super-mutant``, ``melee.stunned``, ``melee.strength``,
  ``melee.outnumbered``, ``melee.charge-bonus``);
* shooting into a melee (:func:`into_melee`, ``melee.shoot-into``);
* whether a Stunned model may attack at all (:func:`stunned_attacker`, ``melee.stunned``);
* the limits of a reaction to a charge (:func:`charge_reaction`, ``melee.charge-reaction``);
* the Quick Action modifier (:func:`quick_action`).

:mod:`fwwrules.attack` composes them into an :class:`~fwwrules.rulings.AttackRuling`. Who is
engaged with whom is :mod:`fwwrules.engagement`; withdraw and slide are
:mod:`fwwrules.movement`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .context import AttackContext
from .data import Scenario
from .engagement import contacts
from .los import has_line_of_sight
from .pieces import AttackKind
from .ranges import min_range_mm
from .rulesets import RULESETS
from .rulings import NO_STEP, ArmorInfo, Choice, Facts, IntoMelee, Reason, Step

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

    def step(self) -> Step:
        """The common step contract: the refusal, the reasons and the kind of attack."""
        return Step(refusals=self.not_allowed, reasons=self.reasons, facts=Facts(kind=self.kind))


def classify(ctx: AttackContext) -> AttackClass:
    """``melee.engaged``: the kind of attack and whether engagement forbids it.

    * Attacker engaged with the target: a close combat attack (``melee``), with any weapon
      (ranged weapons take the ``melee.ranged-weapon`` terms).
    * Attacker engaged, target one it is not engaged with (another model, a friend, a terrain
      piece or a point): not allowed (``melee.engaged``).
    * A melee weapon against a target the attacker is not engaged with: not allowed
      (``melee.engaged``), kind ``melee``.
    * Otherwise a ranged attack; shooting at an engaged target is :func:`into_melee`'s business.
    """
    engaged = ctx.engaged[ctx.attacker_id]
    a_id, t_id = ctx.attacker_id, ctx.target_id  # ids: the catalogue shows the names
    if t_id in engaged:
        return AttackClass(
            "melee",
            (),
            (
                Reason(
                    "melee.engaged", "close-combat", {"attacker": a_id, "target": ctx.target_ref}
                ),
            ),
        )
    reasons: list[Reason] = []
    not_allowed: list[str] = []
    if engaged:
        not_allowed.append("melee.engaged")
        reasons.append(
            Reason(
                "melee.engaged",
                "only-engaged",
                {"attacker": a_id, "target": ctx.target_ref, "engaged": list(engaged)},
            )
        )
    if ctx.weapon.type == "melee":
        if not engaged:
            not_allowed.append("melee.engaged")
        reasons.append(
            Reason(
                "melee.engaged",
                "no-contact",
                {"attacker": a_id, "target": ctx.target_ref, "weapon": ctx.weapon.id},
            )
        )
        return AttackClass("melee", tuple(not_allowed), tuple(reasons))
    return AttackClass("ranged", tuple(not_allowed), tuple(reasons))


def engaged_step(ctx: AttackContext) -> Step:
    """:func:`classify` as the ruling folds it: close combat or ranged (``facts.kind``), and
    whether engagement forbids the attack."""
    return classify(ctx).step()


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
            skill=(self.icon, self.value),
        )


def close_combat_step(ctx: AttackContext) -> Step:
    """:func:`close_combat_terms` as the ruling folds it."""
    return close_combat_terms(ctx).step()


@dataclass(slots=True)
class _Gathered:
    """A close combat attack's terms while :func:`close_combat_terms` gathers them."""

    icon: str | None = None
    value: int | None = None
    reasons: list[Reason] = field(default_factory=list)  # facts and refusals
    terms: list[Reason] = field(default_factory=list)  # what applies when the attack is made
    modifiers: list[tuple[str, int]] = field(default_factory=list)
    not_allowed: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)
    dice: Counter[str] = field(default_factory=Counter)
    armor: ArmorInfo = field(default_factory=ArmorInfo)


def close_combat_terms(ctx: AttackContext) -> MeleeTerms:
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
    g = _Gathered()
    _skill(ctx, g)
    if ctx.weapon.type != "melee":
        _ranged_weapon(ctx, g)
    else:
        _melee_weapon(ctx, g)
    _stunned(ctx, g)
    _strength(ctx, g)
    _outnumbered(ctx, g)
    _charge_bonus(ctx, g)
    return MeleeTerms(
        icon=g.icon,
        value=g.value,
        modifiers=tuple(g.modifiers),
        armor_bonus=g.armor.bonus,
        armor_boost=g.armor.boost,
        dice=dict(g.dice),
        choices=tuple(g.choices),
        not_allowed=tuple(g.not_allowed),
        reasons=tuple(g.reasons),
        terms=tuple(g.terms),
    )


def _skill(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.skill`` and ``melee.super-mutant``: the skill icon and the attacker's value."""
    attacker, weapon, a_id = ctx.attacker, ctx.weapon, ctx.attacker_id
    ranged = weapon.type != "melee"
    icon: str | None = "melee" if not ranged else weapon.type
    if ranged and SUPER_MUTANT in attacker.keywords and weapon.type in ("pistol", "rifle"):
        if ctx.rules.super_mutant_melee:
            own = attacker.skills.get(weapon.type)
            melee_value = attacker.skills.get("melee")
            if melee_value is not None and (own is None or melee_value >= own):
                icon = "melee"
            options = tuple(i for i in ("melee", weapon.type) if i in attacker.skills)
            if len(options) == 2:
                g.choices.append(Choice("skill-icon", "melee.super-mutant", options, icon))
            g.terms.append(
                Reason(
                    "melee.super-mutant",
                    "used" if icon == "melee" else "not-used",
                    {"attacker": a_id, "weapon_icon": weapon.type},
                )
            )
        else:
            g.terms.append(Reason("melee.super-mutant", ctx.rules.name, {"attacker": a_id}))
    value = attacker.skills.get(icon) if icon is not None else None
    g.icon, g.value = icon, value
    if value is None:
        g.not_allowed.append("melee.skill")
        g.reasons.append(Reason("melee.skill", "missing", {"attacker": a_id, "weapon": weapon.id}))
        return
    g.reasons.append(
        Reason(
            "melee.skill",
            "melee" if icon == "melee" else "weapon",
            {"attacker": a_id, "weapon": weapon.id, "icon": icon, "value": value},
        )
    )


def charger_markers(ctx: AttackContext) -> int:
    """How many Charge Bonus markers the target holds against the attacker (0: none, or the
    target is no model): the target charged the attacker when it holds any
    (``melee.charge-reaction``)."""
    cb = ctx.target.charge_bonus if ctx.target is not None else None
    if cb is None or cb.target != ctx.attacker_id:
        return 0
    return len(cb.markers)


def reaction_lifts_penalties(ctx: AttackContext) -> bool:
    """``melee.ranged-weapon``'s exception (RoP p.41) within the limits of
    ``melee.charge-reaction``: the attack reacts to a charge, the target is the charger (it
    holds markers against the attacker), and the charge came without a won Battle Cry (one
    marker; two markers trigger no reaction)."""
    return ctx.reacting_to_charge and charger_markers(ctx) == 1


def _ranged_weapon(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.ranged-weapon``: a ranged or thrown weapon in close combat (its minimum range,
    the penalties unless reacting to a charge, its short band's dice)."""
    scenario, weapon = ctx.scenario, ctx.weapon
    min_range = min_range_mm(scenario, weapon)
    if min_range > 0:
        g.not_allowed.append("melee.ranged-weapon")
        values = {
            "weapon": weapon.id,
            "min_range": scenario.from_mm(min_range),
            "units": scenario.units,
        }
        g.reasons.append(Reason("melee.ranged-weapon", "min-range", values))
    if reaction_lifts_penalties(ctx):  # RoP p.41: no penalties for a shot reacting to a charge
        values = {"attacker": ctx.attacker_id, "weapon": weapon.id, "target": ctx.target_ref}
        g.terms.append(Reason("melee.ranged-weapon", "charge-reaction", values))
    else:
        g.modifiers.append(("melee.ranged-weapon", RANGED_WEAPON_MODIFIER))
        g.armor = ctx.rules.armor_step  # core: armor +1, vts: an Armor Boost
        values = {"weapon": weapon.id, "modifier": RANGED_WEAPON_MODIFIER, "target": ctx.target_ref}
        g.terms.append(Reason("melee.ranged-weapon", ctx.rules.name, values))
    short_dice = weapon.dice.get("short", ())
    g.dice.update(short_dice)
    if short_dice:
        g.terms.append(
            Reason("melee.ranged-weapon", "dice", {"weapon": weapon.id, "dice": short_dice})
        )


def _melee_weapon(ctx: AttackContext, g: _Gathered) -> None:
    """A melee weapon's dice; reacting to a charge changes nothing for it (said)."""
    g.dice.update(ctx.weapon.dice.get("melee", ()))
    if reaction_lifts_penalties(ctx):
        values = {"attacker": ctx.attacker_id, "weapon": ctx.weapon.id, "target": ctx.target_ref}
        g.reasons.append(Reason("melee.ranged-weapon", "charge-reaction-melee", values))


def _stunned(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.stunned``: +2 against a Stunned target the attacker is engaged with."""
    target = ctx.target
    if target is not None and target.stunned and target.id in ctx.engaged[ctx.attacker_id]:
        g.modifiers.append(("melee.stunned", STUNNED_MODIFIER))
        g.terms.append(
            Reason(
                "melee.stunned", "attack", {"target": ctx.target_ref, "modifier": STUNNED_MODIFIER}
            )
        )


def _strength(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.strength``: Strength 7 or more with a melee weapon adds a black die."""
    attacker = ctx.attacker
    strength = attacker.strength
    if ctx.weapon.type == "melee" and strength is not None and strength >= STRENGTH_BONUS_MIN:
        g.dice["black"] += 1
        g.terms.append(
            Reason("melee.strength", "", {"attacker": attacker.id, "strength": strength})
        )


def _outnumbered(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.outnumbered``: a target engaged with more than one opposing model: +1 green."""
    foes = ctx.engaged.get(ctx.target_id, ())
    if len(foes) > 1:
        g.dice["green"] += 1
        g.terms.append(
            Reason(
                "melee.outnumbered",
                "",
                {"target": ctx.target_ref, "count": len(foes), "foes": list(foes)},
            )
        )


def _charge_bonus(ctx: AttackContext, g: _Gathered) -> None:
    """``melee.charge-bonus``: markers held against this target add dice; against another
    target they are discarded unused."""
    cb = ctx.attacker.charge_bonus
    if cb is None:
        return
    a_id, t_id = ctx.attacker_id, ctx.target_id
    if cb.target == t_id:
        added = ("black", "green") if len(cb.markers) >= 2 else (cb.markers[0],)
        g.dice.update(added)
        g.terms.append(
            Reason(
                "melee.charge-bonus",
                "two" if len(added) == 2 else "one",
                {"attacker": a_id, "target": ctx.target_ref, "dice": added},
            )
        )
    else:
        g.terms.append(
            Reason(
                "melee.charge-bonus",
                "discarded",
                {"attacker": a_id, "charged": cb.target, "target": ctx.target_ref},
            )
        )


def stunned_attacker(ctx: AttackContext) -> Step:
    """``melee.stunned`` (RoP p.48): a Stunned model takes no Action but the Move that removes
    its marker, so it may not attack in close combat, shoot, throw or react: the attack is
    refused with that reason (whatever the weapon, target or ruleset; the geometric facts are
    still reported, as for any refusal). No step for a model that is not Stunned."""
    if not ctx.attacker.stunned:
        return NO_STEP
    key = "attacker-reaction" if ctx.reacting_to_charge else "attacker"
    reason = Reason("melee.stunned", key, {"attacker": ctx.attacker_id})
    return Step(refusals=("melee.stunned",), reasons=(reason,))


def charge_reaction(ctx: AttackContext) -> Step:
    """``melee.charge-reaction`` (RoP p.41): the limits of an attack made in reaction to a
    charge (no step when the attack is not said to be one).

    * Only the charger may be targeted: the model holding Charge Bonus markers against the
      attacker. Any other target (another model, a terrain piece, a point, or a model when
      nobody charged the attacker) is refused, and the ruling names the charger if any.
    * A charge paired with a won Battle Cry (the charger holds two markers) triggers no
      reaction: the attack stays allowed but ``melee.ranged-weapon``'s exception does not
      apply (its penalties stand), and the ruling says why.
    * A reaction is a Quick Action: :func:`quick_action` adds the Quick Action penalty, and
      says the exception lifts only the close combat penalties.
    """
    if not ctx.reacting_to_charge:
        return NO_STEP
    a_id = ctx.attacker_id
    markers = charger_markers(ctx)
    if markers == 0:
        chargers = [
            m.id
            for m in ctx.scenario.models
            if m.charge_bonus is not None and m.charge_bonus.target == a_id
        ]
        values: dict[str, object] = {"attacker": a_id, "target": ctx.target_ref}
        key = "no-charger"
        if chargers:
            key, values["charger"] = "not-charger", chargers[0]
        reason = Reason("melee.charge-reaction", key, values)
        return Step(refusals=("melee.charge-reaction",), reasons=(reason,))
    if markers >= 2:
        reason = Reason(
            "melee.charge-reaction", "battle-cry", {"attacker": a_id, "target": ctx.target_ref}
        )
        return Step(reasons=(reason,))
    return NO_STEP


def charge_reaction_unused(ctx: AttackContext) -> Step:
    """``melee.ranged-weapon`` (RoP p.41): an attack said to react to a charge that is not a
    ranged weapon used in close combat (the attacker is not engaged with the target): the
    exception has no penalty to lift; the ruling says so. No step when not reacting, nor when
    the target is not the charger (``melee.charge-reaction`` refuses that)."""
    if not ctx.reacting_to_charge or charger_markers(ctx) == 0:
        return NO_STEP
    values = {"attacker": ctx.attacker_id, "weapon": ctx.weapon.id, "target": ctx.target_ref}
    return Step(reasons=(Reason("melee.ranged-weapon", "charge-reaction-unused", values),))


def quick_action(ctx: AttackContext) -> Step:
    """``action.quick``: a Quick Action attack has -2 skill (no modifier when not quick). An
    attack made in reaction to a charge is a Quick Action too (``melee.charge-reaction``),
    asked as quick or not; the penalty is taken once."""
    if not (ctx.quick or ctx.reacting_to_charge):
        return NO_STEP
    terms = [Reason("action.quick", "", {"modifier": QUICK_ACTION_MODIFIER})]
    if reaction_lifts_penalties(ctx):  # melee.charge-reaction: why a reaction takes it
        values = {"attacker": ctx.attacker_id, "target": ctx.target_ref}
        terms.insert(0, Reason("melee.charge-reaction", "quick", values))
    return Step(modifiers=(("action.quick", QUICK_ACTION_MODIFIER),), terms=tuple(terms))


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


def into_melee(ctx: AttackContext) -> tuple[IntoMelee, tuple[Reason, ...]] | None:
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
      weapons; a miss scatters from the intended target (said only when the weapon is a
      thrown one). The target may be a friendly model.
    * ``vts``: -2 skill, no numbers: a hit always strikes the target.
    """
    a_id, t_id = ctx.attacker_id, ctx.target_id
    foes = list(ctx.engaged.get(t_id, ()))
    if not foes or a_id in foes:
        return None
    rs = ctx.rules
    modifier = rs.shoot_into_modifier
    reasons = [
        Reason(
            "melee.shoot-into",
            rs.name,
            {"target": ctx.target_ref, "engaged": foes, "modifier": modifier},
        )
    ]
    if not rs.shoot_into_numbers:
        return IntoMelee(modifier, None), tuple(reasons)
    seen = _seen_in_melee(ctx, reasons)
    ordered = _clockwise_order(ctx.scenario, t_id, a_id, seen)
    group = [t_id, *ordered]
    numbers = tuple(group[k % len(group)] for k in range(ARMOR_DIE_NUMBERS))
    left_out = ordered[ARMOR_DIE_NUMBERS - 1 :]
    if left_out:
        reasons.append(Reason("melee.shoot-into", "too-many", {"models": list(left_out)}))
    reasons.append(Reason("melee.shoot-into", "numbers", {"numbers": list(numbers)}))
    if ctx.weapon.type == "thrown":
        reasons.append(Reason("melee.shoot-into", "scatter", {"target": ctx.target_ref}))
    return IntoMelee(modifier, numbers), tuple(reasons)


def _seen_in_melee(ctx: AttackContext, reasons: list[Reason]) -> list[str]:
    """The other models in the target's melee that the attacker sees (``melee.shoot-into``);
    the reasons say who is left out and why."""
    a_id = ctx.attacker_id
    near = []
    for m in contacts(ctx.scenario, ctx.target_id):
        if m == a_id:
            continue
        if ctx.engaged.get(m):
            near.append(m)
        else:  # touches the target but is engaged with nobody: not in that melee
            reasons.append(Reason("melee.shoot-into", "not-in-melee", {"model": m}))
    seen: list[str] = []
    for m in near:
        if has_line_of_sight(ctx.scenario, ctx.attacker, m):
            seen.append(m)
        else:
            reasons.append(Reason("melee.shoot-into", "unseen", {"model": m, "attacker": a_id}))
    return seen


def shoot_into(ctx: AttackContext) -> Step:
    """:func:`into_melee` as a step: its skill modifier, its reasons as terms (told only when
    the attack is allowed) and the ruling's ``facts.into``. An empty step when the target is no
    model (a terrain piece or a point) or not in a melee."""
    found = into_melee(ctx) if ctx.target is not None else None
    if found is None:
        return NO_STEP
    into, reasons = found
    modifiers = (("melee.shoot-into", into.modifier),)
    return Step(modifiers=modifiers, terms=reasons, facts=Facts(into=into))
