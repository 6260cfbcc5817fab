"""``ruling()``: may the attacker attack the target, and how? (``fwwrules ruling``)

It composes the rule families in the order a player checks them:

1. close combat or ranged (``melee.engaged``), weapon and skill (``ranged.skill`` /
   ``melee.skill``);
2. for a ranged attack: range (``ranged.range``), line of sight (``ranged.los*``), cover
   (``cover.*``) with elevation (``elevation.*``), and shooting into a melee
   (``melee.shoot-into``);
3. for a close combat attack: the close combat terms (``melee.*``);
4. a Quick Action (``action.quick``), and the total skill target.

Boundary cases
--------------
* Every check runs even when an earlier one already refuses the attack, so a refused ruling
  still lists all that is wrong (``not_allowed`` holds each clause id once, in this order).
* A skill target below 1 still allows the attack, but only a special icon face can succeed
  (``ranged.skill``, key ``below-one``).
* ``weapon=None`` takes the model's first weapon, or the Improvised Weapon when it has none.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import cast

from .arguments import flag
from .arguments import scenario as scenario_arg
from .close_combat import (
    charge_reaction_unused,
    classify,
    close_combat_terms,
    into_melee,
    quick_action,
)
from .cover import line_of_cover
from .data import Scenario
from .errors import QueryError
from .los import shot_line_of_sight
from .pieces import Band, Weapon
from .ranges import range_bands
from .rulesets import ruleset_name
from .rulings import (
    AttackRuling,
    CoverEntry,
    IgnoredEntry,
    IntoMelee,
    RangeInfo,
    Reason,
    Sight,
    SkillInfo,
    Step,
    fold,
)
from .shot import Shot, Target, build_shot


def _weapon(scenario: Scenario, attacker: str, weapon: str | None) -> Weapon:
    """The weapon as the attacker uses it (a thrown weapon's range from its Throw colour)."""
    return scenario.weapon_of(attacker, weapon)


def _thrown_reasons(scenario: Scenario, w: Weapon, attacker: str) -> Step:
    """``ranged.skill`` (RoP p.44): where a thrown weapon's range comes from. Without a range of
    its own it reaches the colour of the thrower's Throw skill icon; with one it keeps it; with
    neither it cannot be thrown at all (refused)."""
    model = scenario.model(attacker)
    if w.type != "thrown" or "thrown" not in model.skills:
        return Step()
    values: dict[str, object] = {"attacker": attacker, "weapon": w.id, "ruler": model.throw_colour}
    if not scenario.weapon(w.id).range_from_thrower:
        if model.throw_colour is None:
            return Step()
        return Step(reasons=(Reason("ranged.skill", "own-range", values),))
    if w.short is None:
        reason = Reason("ranged.skill", "no-throw-range", values)
        return Step(refusals=("ranged.skill",), reasons=(reason,))
    values.update(short=scenario.from_mm(scenario.length_mm(w.short)), units=scenario.units)
    return Step(reasons=(Reason("ranged.skill", "throw-range", values),))


def _size_reasons(scenario: Scenario, shot: Shot) -> list[Reason]:
    """``size.classes`` and ``terrain.kinds``: say so when a Huge model changes the shot."""
    board = scenario.board
    huge_ids = {mid for mid, mg in board.models.items() if mg.size == "huge"}
    if not (shot.huge_involved or huge_ids - {shot.attacker, shot.target}):
        return []
    out = []
    for mid in (shot.attacker, shot.target):
        if mid in board.models:
            mg = board.models[mid]
            diameter = round(2 * mg.disc.r, 2)
            out.append(
                Reason("size.classes", "", {"model": mid, "diameter": diameter, "size": mg.size})
            )
    for tid, kind in shot.kinds.items():
        declared = board.terrain[tid].kind
        if kind != declared and tid not in shot.context.elevated_kind:
            # the Huge kind governs cover only when the target is Huge (terrain.kinds)
            key = "huge-variant" if shot.cover_kinds.get(tid) == kind else "huge-variant-sight"
            out.append(
                Reason("terrain.kinds", key, {"source": tid, "kind": kind, "declared": declared})
            )
    return out


def _ranged_skill(
    w: Weapon, skills: Mapping[str, int], attacker: str
) -> tuple[str, int | None, Step]:
    """``ranged.skill``: the weapon type's skill icon, the attacker's value for it (None: it
    lacks the icon, which refuses the attack)."""
    icon = w.type
    value = skills.get(icon)
    if value is None:
        reason = Reason("ranged.skill", "missing", {"attacker": attacker, "icon": icon})
        return icon, None, Step(refusals=("ranged.skill",), reasons=(reason,))
    return (
        icon,
        value,
        Step(reasons=(Reason("ranged.skill", "has", {"icon": icon, "value": value}),)),
    )


def ruling(
    scenario: Scenario,
    attacker: str,
    target: Target,
    weapon: str | None = None,
    rules: str | None = None,
    band: str | None = None,
    quick: bool = False,
    reacting_to_charge: bool = False,
) -> AttackRuling:
    """Rule on one attack. ``rules`` overrides the scenario's ruleset (``core`` or ``vts``).

    ``target`` is a model id, a terrain piece id, or a point ``(x, y)`` in scenario units.
    ``band`` is the attacker's choice when the target is in both range bands.
    ``reacting_to_charge``: the attacker shoots in reaction to being charged by the target
    (RoP p.41): a ranged weapon in close combat then suffers none of the penalties of
    ``melee.ranged-weapon`` (a weapon with a minimum range still cannot be used); on any other
    attack the ruling says the exception changes nothing.

    An attack that is not allowed presents nothing as applying: its headline says why, and
    it has no cover, armor, effect dice or skill modifiers (``skill.target`` is the value);
    the geometric facts (``line_of_sight``, ``range``) stay.
    """
    scenario = scenario_arg(scenario, "ruling")
    quick = flag(quick, "quick")
    reacting_to_charge = flag(reacting_to_charge, "reacting_to_charge")
    scenario.model(attacker)  # an id of this scenario (UnknownIdError, QueryError)
    rules = ruleset_name(scenario.rules, rules or None)
    if band not in (None, "short", "long"):
        raise QueryError(f"unknown band {band!r}; expected short or long")
    w = _weapon(scenario, attacker, weapon)
    shot = build_shot(scenario, attacker, target)
    model = scenario.model(attacker)
    labels = {**scenario.display_names(), w.id: w.label}

    # Each rule family contributes one Step (rulings.Step); they are folded in this order.
    steps: list[Step] = []
    cover: tuple[CoverEntry, ...] = ()
    ignored: tuple[IgnoredEntry, ...] = ()
    range_info: RangeInfo | None = None
    into: IntoMelee | None = None
    los_ok: bool | None = None
    sight: Sight | None = None
    icon: str | None
    value: int | None

    # melee.engaged: close combat or ranged, and whether engagement forbids it (a terrain
    # piece or a point is never engaged with, so an engaged attacker may not shoot at it).
    cls = classify(scenario, attacker, shot.target, w)
    kind = cls.kind
    steps.append(Step(refusals=cls.not_allowed, reasons=cls.reasons))

    if kind == "melee":
        terms = close_combat_terms(
            scenario, attacker, shot.target, w, rules, reacting_to_charge=reacting_to_charge
        )
        icon, value = terms.icon, terms.value
        steps.append(terms.step())
    else:
        icon, value, skill_step = _ranged_skill(w, model.skills, attacker)
        steps.append(skill_step)
        steps.append(_thrown_reasons(scenario, w, attacker))
        if reacting_to_charge:
            steps.append(charge_reaction_unused(attacker, shot.target, w))
        if w.type != "melee" and w.short is not None:
            near, far = shot.target_distances()
            chosen = cast("Band | None", band)  # checked above
            rng = range_bands(scenario, w, near, far, band=chosen, target_kind=shot.target_type)
            range_info = RangeInfo(scenario.from_mm(max(rng.distance, 0.0)), rng.bands, rng.band)
            steps.append(rng.step(w))
        # size.classes and terrain.kinds where a Huge model changes the shot
        steps.append(Step(reasons=tuple(_size_reasons(scenario, shot))))
        # elevation context, then ranged.los and cover.*
        steps.append(Step(reasons=shot.context.reasons))
        los = shot_line_of_sight(shot)
        los_ok = los.visible
        steps.append(los.step())
        cov = line_of_cover(shot, rules)
        cover, ignored = cov.cover, cov.ignored
        steps.append(cov.step())
        sight = Sight(los.witness, shot.loc, cov.crossings, los.blockers)
        # melee.shoot-into
        if shot.target_type == "model":
            found = into_melee(scenario, attacker, shot.target, rules, thrown=w.type == "thrown")
            if found is not None:
                into, into_reasons = found
                mods = (("melee.shoot-into", into.modifier),)
                steps.append(Step(modifiers=mods, terms=into_reasons))

    quick_mods, quick_reasons = quick_action(quick)
    steps.append(Step(modifiers=quick_mods, terms=quick_reasons))

    folded = fold(steps)
    modifier, armor = folded.modifier, folded.armor
    reasons = list(folded.reasons)
    not_allowed = list(folded.refusals)
    choices = list(folded.choices)
    dice: Counter[str] = Counter(folded.dice)
    by_clause = dict(folded.modifiers)
    skill = SkillInfo(icon, value, modifier)
    if skill.target is not None and skill.target < 1 and folded.allowed:
        reasons.append(Reason("ranged.skill", "below-one", {"target": skill.target}))
    for colour in list(dice):
        if dice[colour] > 4:
            reasons.append(
                Reason("ranged.skill", "dice-cap", {"colour": colour, "count": dice[colour]})
            )
            dice[colour] = 4
    if sight is None:
        sight = Sight(None, shot.loc)
    if not folded.allowed:  # nothing applies to an attack that is not made (decision 1)
        cover, ignored, into = (), (), None
    return AttackRuling(
        attacker=attacker,
        target=shot.target,
        weapon=w.id,
        rules=rules,
        kind=kind,
        allowed=not not_allowed,
        not_allowed=tuple(not_allowed),
        line_of_sight=los_ok,
        range=range_info,
        cover=cover,
        ignored=ignored,
        skill=skill,
        armor=armor,
        effect_dice=dict(dice),
        choices=tuple(choices),
        into_melee=into,
        reasons=tuple(reasons),
        sight=sight,
        labels=labels,
        modifiers=by_clause,
        reacting_to_charge=reacting_to_charge,
    )
