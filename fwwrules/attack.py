"""``ruling()``: may the attacker attack the target, and how? (``fwwrules ruling``)

A ruling resolves the query once into an :class:`~fwwrules.context.AttackContext`
(:func:`attack_context`); every rule family reads it and gives one
:class:`~fwwrules.rulings.Step`, in the order a player checks them, and
:func:`~fwwrules.rulings.fold` alone combines the steps:

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

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .arguments import flag
from .checks import usable as scenario_arg
from .close_combat import (
    charge_reaction,
    charge_reaction_unused,
    close_combat_step,
    engaged_step,
    quick_action,
    shoot_into,
    stunned_attacker,
)
from .closeness import LazyMargins, Margins
from .context import AttackContext
from .cover import cover_step
from .data import Scenario
from .engagement import engagements
from .errors import QueryError
from .los import sight_step
from .pieces import BANDS, Model, Weapon
from .ranges import ranges_step
from .rulesets import ruleset, ruleset_name
from .rulings import NO_STEP, AttackRuling, Covered, Reason, Seen, Sight, Step, fold
from .shot import Target, build_shot

if TYPE_CHECKING:
    from .margins import attack_margins


def _thrown_reasons(ctx: AttackContext) -> Step:
    """``ranged.skill`` (RoP p.44): where a thrown weapon's range comes from. Without a range of
    its own it reaches the colour of the thrower's Throw skill icon; with one it uses that
    range, and the ruling says so (every Thrown Weapon card of the rulebook uses the Throw
    colour: an own range is this project's extension), naming the Throw colour it did not use
    when the scenario gives one; with neither it cannot be thrown at all (refused)."""
    model, w, scenario = ctx.attacker, ctx.weapon, ctx.scenario
    if w.type != "thrown" or "thrown" not in model.skills:
        return NO_STEP
    values: dict[str, object] = {"attacker": model.id, "weapon": w.id, "ruler": model.throw_colour}
    if w.short is not None:
        values.update(short=scenario.from_mm(scenario.length_mm(w.short)), units=scenario.units)
    if not scenario.weapon(w.id).range_from_thrower:
        key = "own-range" if model.throw_colour is not None else "own-range-no-colour"
        return Step(reasons=(Reason("ranged.skill", key, values),))
    if w.short is None:
        reason = Reason("ranged.skill", "no-throw-range", values)
        return Step(refusals=("ranged.skill",), reasons=(reason,))
    return Step(reasons=(Reason("ranged.skill", "throw-range", values),))


def _size_reasons(ctx: AttackContext) -> Step:
    """``size.classes`` and ``terrain.kinds``: say so when a Huge model changes the shot."""
    shot, board = ctx.shot, ctx.scenario.board
    huge_ids = {mid for mid, mg in board.models.items() if mg.size == "huge"}
    if not (shot.huge_involved or huge_ids - {shot.attacker_id, shot.target_id}):
        return NO_STEP
    out = []
    for mid in (shot.attacker_id, shot.target_id):
        if mid in board.models:
            mg = board.models[mid]
            diameter = round(2 * mg.disc.r, 2)
            out.append(
                Reason("size.classes", "", {"model": mid, "diameter": diameter, "size": mg.size})
            )
    for tid, kind in shot.kinds.changed:
        declared = board.terrain[tid].kind
        if tid not in shot.context.elevated_kind:
            # the Huge kind governs cover only when the target is Huge (terrain.kinds)
            key = "huge-variant" if shot.cover_kinds.get(tid) == kind else "huge-variant-sight"
            out.append(
                Reason("terrain.kinds", key, {"source": tid, "kind": kind, "declared": declared})
            )
    return Step(reasons=tuple(out))


def ranged_skill(model: Model, weapon: Weapon) -> tuple[str, int | None]:
    """``ranged.skill``: the skill icon a weapon needs (its type's) and the model's value for
    it, ``None`` when the model lacks the icon (the attack is refused). The one definition, for
    the ruling and the threat map.

    >>> from fwwrules.pieces import Model, Weapon
    >>> ranged_skill(Model("k", "x", 32, (0, 0), skills={"rifle": 6}), Weapon("r", "rifle"))
    ('rifle', 6)
    """
    return weapon.type, model.skills.get(weapon.type)


def _ranged_skill(ctx: AttackContext) -> Step:
    """``ranged.skill``: the weapon type's skill icon and the attacker's value for it (None: it
    lacks the icon, which refuses the attack)."""
    icon, value = ranged_skill(ctx.attacker, ctx.weapon)
    if value is None:
        reason = Reason("ranged.skill", "missing", {"attacker": ctx.attacker_id, "icon": icon})
        return Step(refusals=("ranged.skill",), reasons=(reason,), skill=(icon, None))
    reason = Reason("ranged.skill", "has", {"icon": icon, "value": value})
    return Step(reasons=(reason,), skill=(icon, value))


def attack_context(
    scenario: Scenario,
    attacker: str,
    target: Target,
    weapon: str | Weapon | None = None,
    rules: str | None = None,
    *,
    band: str | None = None,
    quick: bool = False,
    reacting_to_charge: bool = False,
) -> AttackContext:
    """Resolve one attack query once (:class:`~fwwrules.context.AttackContext`): the attacker
    and target, the weapon as the attacker uses it (a :class:`~fwwrules.pieces.Weapon` is
    taken as given), the ruleset (``rules`` overrides the scenario's), the shot and the
    engagement graph. Raises :class:`~fwwrules.errors.QueryError` (or ``UnknownIdError``) for
    what cannot be asked."""
    scenario = scenario_arg(scenario, "ruling")
    quick = flag(quick, "quick")
    reacting_to_charge = flag(reacting_to_charge, "reacting_to_charge")
    model = scenario.model(attacker)  # an id of this scenario (UnknownIdError, QueryError)
    rs = ruleset(ruleset_name(scenario.rules, rules or None))
    if band is not None and band not in BANDS:
        raise QueryError(f"unknown band {band!r}; expected short or long")
    w = weapon if isinstance(weapon, Weapon) else scenario.weapon_of(attacker, weapon)
    shot = build_shot(scenario, model, target)
    return AttackContext(
        scenario=scenario,
        attacker=model,
        target=shot.target_model,
        weapon=w,
        rules=rs,
        shot=shot,
        engaged=engagements(scenario),
        band=band,  # checked above
        quick=quick,
        reacting_to_charge=reacting_to_charge,
    )


def _elevation_step(ctx: AttackContext) -> Step:
    """``elevation.*``: the shot's elevation context told (what it changes is decided by line
    of sight and cover)."""
    return ctx.shot.context.step()


Family = Callable[[AttackContext], Step]
"""A rule family as the ruling asks it: the attack's context in, one ``Step`` out."""

HEAD: tuple[Family, ...] = (stunned_attacker, engaged_step, charge_reaction)
"""The families every attack starts with: ``melee.stunned``, ``melee.engaged`` (which says
whether the attack is close combat or ranged) and ``melee.charge-reaction``."""

RANGED: tuple[Family, ...] = (
    _ranged_skill,
    _thrown_reasons,
    charge_reaction_unused,
    ranges_step,
    _size_reasons,
    _elevation_step,
    sight_step,
    cover_step,
    shoot_into,
)
"""A ranged attack's families in the order a player checks them: skill, thrown range,
an unused charge reaction, range, size, elevation, line of sight, cover, shooting into a
melee."""

CLOSE_COMBAT: tuple[Family, ...] = (close_combat_step,)
"""A close combat attack's families: its terms (``melee.*``)."""

TAIL: tuple[Family, ...] = (quick_action,)
"""The families every attack ends with: ``action.quick``."""


def attack_steps(ctx: AttackContext) -> list[Step]:
    """Every family's step for one attack, in the order :func:`~fwwrules.rulings.fold` takes
    them: the head, then the close combat or the ranged families (as ``melee.engaged``'s step
    says), then the tail."""
    head = [family(ctx) for family in HEAD]
    kinds = [step.facts.kind for step in head if step.facts.kind is not None]
    body = CLOSE_COMBAT if kinds[-1] == "melee" else RANGED  # melee.engaged decides it
    return [*head, *(family(ctx) for family in body), *(family(ctx) for family in TAIL)]


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
    attack the ruling says the exception changes nothing. ``melee.charge-reaction`` limits it:
    the reaction is a Quick Action (``action.quick``'s penalty applies), only the charger (the
    model holding Charge Bonus markers against the attacker) may be targeted, and a charge
    with a won Battle Cry (two markers) triggers no reaction (the penalties stand).

    A Stunned attacker is refused (``melee.stunned``): it takes no Action but the Move that
    removes its marker.

    An attack that is not allowed presents nothing as applying: its headline says why, and
    it has no cover, armor, effect dice or skill modifiers (``skill.target`` is the value);
    the geometric facts (``line_of_sight``, ``range``) stay.
    """
    ctx = attack_context(
        scenario,
        attacker,
        target,
        weapon,
        rules,
        band=band,
        quick=quick,
        reacting_to_charge=reacting_to_charge,
    )
    # Each rule family contributes one Step (rulings.Step); fold alone combines them, in order.
    folded = fold(attack_steps(ctx))
    facts, allowed = folded.facts, folded.allowed
    seen, covered = facts.seen, facts.covered
    assert facts.kind is not None  # melee.engaged decides it for every attack
    return AttackRuling(
        attacker=ctx.attacker_id,
        target=ctx.target_id,
        target_ref=ctx.shot.target,
        weapon=ctx.weapon.id,
        rules=ctx.rules.name,
        kind=facts.kind,
        allowed=allowed,  # nothing applies to an attack that is not made (decision 1)
        not_allowed=folded.refusals,
        line_of_sight=None if seen is None else seen.visible,
        range=facts.range,
        cover=covered.cover if allowed and covered else (),
        ignored=covered.ignored if allowed and covered else (),
        skill=folded.skill,
        armor=folded.armor,
        effect_dice=dict(folded.dice),
        choices=folded.choices,
        into_melee=facts.into if allowed else None,
        reasons=folded.reasons,
        sight=_sight(ctx, seen, covered),
        labels={**ctx.scenario.names(), ctx.weapon.id: ctx.weapon.name or ctx.weapon.id},
        modifiers=dict(folded.modifiers),
        reacting_to_charge=ctx.reacting_to_charge,
        margins_box=_lazy_margins(
            ctx, (attacker, target, weapon, rules, band, quick, reacting_to_charge)
        ),
    )


def _sight(ctx: AttackContext, seen: Seen | None, covered: Covered | None) -> Sight:
    """The geometry behind a ruling for the drawing layer: the line of sight search's witness
    and blockers, the Line of Cover and what it met (none of them for close combat)."""
    return Sight(
        None if seen is None else seen.witness,
        ctx.shot.loc,
        () if covered is None else covered.crossings,
        () if seen is None else seen.blockers,
    )


def _lazy_margins(ctx: AttackContext, query: tuple[Any, ...]) -> LazyMargins:
    """How close the call is (:mod:`fwwrules.margins`), computed when first asked, never by
    the ruling itself; each probe rules the same ``query`` on a board where one model moved."""

    def probe(moved: Scenario) -> AttackRuling:
        return ruling(moved, *query)

    def margins(base: AttackRuling, knife_only: bool, only: str | None) -> Margins:
        # fwwrules.margins, the largest rule module, is loaded when a margin is first asked
        compute = importlib.import_module(f"{__package__}.margins").attack_margins
        if TYPE_CHECKING:
            compute = attack_margins  # the same function, with its signature
        found: Margins = compute(ctx, base, probe, knife_only, only)
        return found

    return LazyMargins(margins)
