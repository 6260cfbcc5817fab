"""Close combat (``melee.*``) and Quick Action attacks (``action.quick``).

What this module decides:

* the engagement graph (``melee.engaged``) and who is outnumbered (``melee.outnumbered``);
* whether an attack is a close combat attack and whether an engaged model may make it
  (:func:`classify`);
* the terms of a close combat attack (:func:`close_combat_terms`: skill icon and value,
  ``melee.ranged-weapon``, ``melee.super-mutant``, ``melee.stunned``, ``melee.strength``,
  ``melee.outnumbered``, ``melee.charge-bonus``);
* shooting into a melee (:func:`into_melee`, ``melee.shoot-into``);
* the free attacks a withdrawal provokes (:func:`withdraw`, ``melee.withdraw``) and whether a
  slide is legal (:func:`slide`, ``melee.slide``).

:mod:`fwwrules.attack` composes the first four into an
:class:`~fwwrules.rulings.AttackRuling`; :func:`withdraw` asks it for each free attack.

Boundary cases
--------------
* Contact: two bases are in contact when their gap is at most the contact tolerance
  (``scenario.board.contact_tolerance``, default 0.5 mm). A gap of exactly the tolerance is
  contact; so is any overlap the scenario allows (at most the tolerance). The comparison
  allows :data:`~fwwrules.constants.LENGTH_EPSILON_MM` more for floating-point rounding, so a
  rotated or translated board keeps its contacts.
* Levels: models whose elevations differ by the Orange ruler or more stand on different levels
  and are never in contact, whatever their footprints do (a model on a roof is not engaged
  with one in the street below). Smaller differences are the same level.
* Only opposing models (enemy or neutral, :meth:`Scenario.opposing`) engage; friendly bases in
  contact are just touching.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .catalogue import render
from .constants import LENGTH_EPSILON_MM
from .rulings import Choice, Explained, IntoMelee, Reason, SkillInfo
from .scenario import Model, Scenario, Weapon

if TYPE_CHECKING:
    from .board import Disc
    from .rulings import AttackRuling

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

SHOOT_INTO_MODIFIER = {"core": 2, "vts": -2}
"""``melee.shoot-into``: the skill modifier for shooting at an engaged target, by ruleset."""

ARMOR_DIE_NUMBERS = 4
"""``melee.shoot-into`` (``core``): the red Armor die's numbers 1-4 that pick the model hit."""

_TWO_PI = 2.0 * math.pi


def _rules(scenario: Scenario, rules: str | None) -> str:
    from .errors import QueryError

    r = scenario.rules if rules is None else rules
    if r not in ("core", "vts"):
        raise QueryError(f"unknown ruleset {r!r}; expected core or vts")
    return r


def _label(scenario: Scenario, ident: str) -> str:
    for m in scenario.models:
        if m.id == ident:
            return m.label
    return ident


# ---------------------------------------------------------------------------------------------
# melee.engaged, melee.outnumbered
# ---------------------------------------------------------------------------------------------


def same_level(scenario: Scenario, a: Model, b: Model) -> bool:
    """True when two models stand on one level: elevations differ by less than Orange.

    A difference of exactly the Orange ruler is another level (``elevation.elevated`` makes
    such a model Elevated), so the two are never in base contact.
    """
    ga, gb = scenario.board.models[a.id], scenario.board.models[b.id]
    return abs(ga.elevation - gb.elevation) < scenario.ruler_mm("orange")


def _touching(scenario: Scenario, a: Disc, b: Disc) -> bool:
    return a.gap(b) <= scenario.board.contact_tolerance + LENGTH_EPSILON_MM


def in_contact(scenario: Scenario, a_id: str, b_id: str) -> bool:
    """Base contact between two models (any sides): same level and gap at most the tolerance.

    A model is not in contact with itself.
    """
    if a_id == b_id:
        return False
    a, b = scenario.model(a_id), scenario.model(b_id)
    if not same_level(scenario, a, b):
        return False
    return _touching(scenario, scenario.board.models[a_id].disc, scenario.board.models[b_id].disc)


def contacts(scenario: Scenario, model_id: str) -> tuple[str, ...]:
    """Every model in base contact with ``model_id``, friend or foe, in file order."""
    scenario.model(model_id)
    return tuple(m.id for m in scenario.models if in_contact(scenario, model_id, m.id))


_ENGAGEMENT_CACHE: OrderedDict[int, tuple[Scenario, Mapping[str, tuple[str, ...]]]] = OrderedDict()
_ENGAGEMENT_CACHE_SIZE = 16
_ENGAGEMENT_LOCK = threading.Lock()


def engagements(scenario: Scenario) -> Mapping[str, tuple[str, ...]]:
    """``melee.engaged``: for every model id, the opposing models it is engaged with.

    Engaged means in base contact (:func:`in_contact`) with an opposing model (enemy or
    neutral). Every model id is a key (an empty tuple when it is not engaged); the ids follow
    the file order. The relation is symmetric.

    Boundary cases: a gap of exactly the contact tolerance engages; a gap a hair above it does
    not; models an Orange ruler or more apart in elevation never engage.

    >>> from fwwrules.scenario import Model, Scenario
    >>> a, b = Model("a", "x", 32, (0, 0)), Model("b", "y", 32, (32.5, 0))  # gap 0.5 mm
    >>> engagements(Scenario(models=(a, b)))["a"]
    ('b',)
    >>> engagements(Scenario(models=(a, Model("b", "y", 32, (32.51, 0)))))["a"]
    ()
    >>> engagements(Scenario(models=(a, Model("b", "x", 32, (32, 0)))))["a"]  # a friend
    ()

    The graph of the last few scenarios is kept (a scenario is frozen; the cache holds the
    scenario itself, so its identity cannot be reused while cached).
    """
    with _ENGAGEMENT_LOCK:
        hit = _ENGAGEMENT_CACHE.get(id(scenario))
        if hit is not None and hit[0] is scenario:
            _ENGAGEMENT_CACHE.move_to_end(id(scenario))
            return hit[1]
    graph = MappingProxyType(_engagement_graph(scenario))
    with _ENGAGEMENT_LOCK:
        _ENGAGEMENT_CACHE[id(scenario)] = (scenario, graph)
        while len(_ENGAGEMENT_CACHE) > _ENGAGEMENT_CACHE_SIZE:
            _ENGAGEMENT_CACHE.popitem(last=False)
    return graph


def _engagement_graph(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    models = scenario.models
    out: dict[str, list[str]] = {m.id: [] for m in models}
    geo = scenario.board.models
    orange = scenario.ruler_mm("orange")
    for j in range(len(models)):
        b = models[j]
        gb = geo[b.id]
        for i in range(j):
            a = models[i]
            ga = geo[a.id]
            if abs(ga.elevation - gb.elevation) >= orange:
                continue
            if not scenario.opposing(a, b):
                continue
            if _touching(scenario, ga.disc, gb.disc):
                out[a.id].append(b.id)
                out[b.id].append(a.id)
    order = {m.id: k for k, m in enumerate(models)}
    return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in out.items()}


def is_engaged(scenario: Scenario, model_id: str) -> bool:
    """True when the model is engaged with at least one opposing model."""
    scenario.model(model_id)
    return bool(engagements(scenario)[model_id])


def is_outnumbered(scenario: Scenario, model_id: str) -> bool:
    """``melee.outnumbered``: engaged with more than one opposing model.

    Engaged with exactly one: not outnumbered. A model that is not a model id (a terrain target
    or a point) is never outnumbered.
    """
    return len(engagements(scenario).get(model_id, ())) > 1


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

    kind: str
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
    a_label = attacker.label
    t_label = _label(scenario, target_id)
    if target_id in engaged:
        return AttackClass(
            "melee",
            (),
            (Reason("melee.engaged", "close-combat", {"attacker": a_label, "target": t_label}),),
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
                    "attacker": a_label,
                    "target": t_label,
                    "engaged": [_label(scenario, e) for e in engaged],
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
                {"attacker": a_label, "target": t_label, "weapon": weapon.label},
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

    @property
    def modifier(self) -> int:
        """The total skill modifier of these terms."""
        return sum(v for _, v in self.modifiers)


def _min_range_mm(scenario: Scenario, weapon: Weapon) -> float:
    return 0.0 if weapon.min_range is None else scenario.length_mm(weapon.min_range)


def close_combat_terms(
    scenario: Scenario, attacker_id: str, target_id: str, weapon: Weapon, rules: str
) -> MeleeTerms:
    """The skill, modifiers, armor and effect dice of a close combat attack.

    * ``melee.skill``: a melee weapon uses the Melee icon, any other weapon its type's icon;
      without the icon the attack is not allowed. Every model has the Improvised Weapon.
    * ``melee.ranged-weapon``: pistol, rifle, heavy or thrown: -2 skill and the target's armor
      +1 (``core``) or one Armor Boost (``vts``). A minimum range above zero: not allowed.
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
    a_label, t_label = attacker.label, _label(scenario, target_id)
    eng = engagements(scenario)
    reasons: list[Reason] = []
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
        if rules == "core":
            own = attacker.skills.get(weapon.type)
            melee_value = attacker.skills.get("melee")
            if melee_value is not None and (own is None or melee_value >= own):
                icon = "melee"
            options = tuple(i for i in ("melee", weapon.type) if i in attacker.skills)
            if len(options) == 2:
                choices.append(Choice("skill-icon", "melee.super-mutant", options, icon))
            reasons.append(
                Reason(
                    "melee.super-mutant",
                    "used" if icon == "melee" else "not-used",
                    {"attacker": a_label, "weapon_icon": weapon.type},
                )
            )
        else:
            reasons.append(Reason("melee.super-mutant", "vts", {"attacker": a_label}))
    value = attacker.skills.get(icon) if icon is not None else None
    if value is None:
        not_allowed.append("melee.skill")
        reasons.append(
            Reason("melee.skill", "missing", {"attacker": a_label, "weapon": weapon.label})
        )
    else:
        reasons.append(
            Reason(
                "melee.skill",
                "melee" if icon == "melee" else "weapon",
                {"attacker": a_label, "weapon": weapon.label, "icon": icon, "value": value},
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
                    {"weapon": weapon.label, "min_range": scenario.from_mm(min_range)},
                )
            )
        modifiers.append(("melee.ranged-weapon", RANGED_WEAPON_MODIFIER))
        if rules == "vts":
            armor_boost = 1
        else:
            armor_bonus = 1
        reasons.append(
            Reason(
                "melee.ranged-weapon",
                rules,
                {"weapon": weapon.label, "modifier": RANGED_WEAPON_MODIFIER, "target": t_label},
            )
        )
        short_dice = weapon.dice.get("short", ())
        dice.update(short_dice)
        if short_dice:
            reasons.append(
                Reason("melee.ranged-weapon", "dice", {"weapon": weapon.label, "dice": short_dice})
            )
    else:
        dice.update(weapon.dice.get("melee", ()))

    # --- melee.stunned -----------------------------------------------------------------------
    if target is not None and target.stunned and target.id in eng[attacker.id]:
        modifiers.append(("melee.stunned", STUNNED_MODIFIER))
        reasons.append(
            Reason("melee.stunned", "attack", {"target": t_label, "modifier": STUNNED_MODIFIER})
        )

    # --- melee.strength ----------------------------------------------------------------------
    if not ranged and attacker.strength is not None and attacker.strength >= STRENGTH_BONUS_MIN:
        dice["black"] += 1
        reasons.append(
            Reason("melee.strength", "", {"attacker": a_label, "strength": attacker.strength})
        )

    # --- melee.outnumbered -------------------------------------------------------------------
    foes = eng.get(target_id, ())
    if len(foes) > 1:
        dice["green"] += 1
        reasons.append(
            Reason(
                "melee.outnumbered",
                "",
                {
                    "target": t_label,
                    "count": len(foes),
                    "foes": [_label(scenario, f) for f in foes],
                },
            )
        )

    # --- melee.charge-bonus ------------------------------------------------------------------
    cb = attacker.charge_bonus
    if cb is not None:
        if cb.target == target_id:
            added = ("black", "green") if len(cb.markers) >= 2 else (cb.markers[0],)
            dice.update(added)
            reasons.append(
                Reason(
                    "melee.charge-bonus",
                    "two" if len(added) == 2 else "one",
                    {"attacker": a_label, "target": t_label, "dice": added},
                )
            )
        else:
            reasons.append(
                Reason(
                    "melee.charge-bonus",
                    "discarded",
                    {
                        "attacker": a_label,
                        "charged": _label(scenario, cb.target),
                        "target": t_label,
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
    )


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
    scenario: Scenario, attacker_id: str, target_id: str, rules: str
) -> tuple[IntoMelee, tuple[Reason, ...]] | None:
    """``melee.shoot-into``: shooting at a model engaged with others.

    ``None`` when the target is not engaged (or is not a model), and when the attacker itself
    is engaged with the target (that is close combat, not shooting into a melee).

    * ``core``: +2 skill. The red Armor die's numbers 1-4 go to the target first, then to each
      other model in base contact with the target (any side, the attacker's friends too) that
      the attacker can see, then round again from the target until four numbers are given.
      Two models: target 1 and 3, the other 2 and 4; three: target 1 and 4; with four or more
      models in contact only the first three get a number. The order of the others: clockwise
      around the target (as drawn, y up) starting from the direction of the attacker, ties by
      id. The attacker never gets a number. The same numbers serve area effects and thrown
      weapons; a miss scatters from the intended target. The target may be a friendly model.
    * ``vts``: -2 skill, no numbers: a hit always strikes the target.
    """
    attacker = scenario.model(attacker_id)
    if target_id not in engagements(scenario) or not engagements(scenario)[target_id]:
        return None
    if attacker.id in engagements(scenario)[target_id]:
        return None
    target = scenario.model(target_id)
    t_label = target.label
    modifier = SHOOT_INTO_MODIFIER[rules]
    reasons: list[Reason] = []
    foes = [_label(scenario, f) for f in engagements(scenario)[target_id]]
    if rules == "vts":
        reasons.append(
            Reason(
                "melee.shoot-into",
                "vts",
                {"target": t_label, "engaged": foes, "modifier": modifier},
            )
        )
        return IntoMelee(modifier, None), tuple(reasons)

    from .los import has_line_of_sight

    reasons.append(
        Reason(
            "melee.shoot-into", "core", {"target": t_label, "engaged": foes, "modifier": modifier}
        )
    )
    near = [m for m in contacts(scenario, target_id) if m != attacker.id]
    seen: list[str] = []
    for m in near:
        if has_line_of_sight(scenario, attacker.id, m):
            seen.append(m)
        else:
            reasons.append(
                Reason(
                    "melee.shoot-into",
                    "unseen",
                    {"model": _label(scenario, m), "attacker": attacker.label},
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
                {"models": [_label(scenario, m) for m in left_out]},
            )
        )
    listing = [f"{k + 1}: {_label(scenario, m)}" for k, m in enumerate(numbers)]
    reasons.append(Reason("melee.shoot-into", "numbers", {"numbers": listing}))
    reasons.append(Reason("melee.shoot-into", "scatter", {"target": t_label}))
    return IntoMelee(modifier, numbers), tuple(reasons)


# ---------------------------------------------------------------------------------------------
# Exact shortest paths among open discs (for melee.slide)
# ---------------------------------------------------------------------------------------------

Point2 = tuple[float, float]


@dataclass(frozen=True, slots=True)
class _Obstacle:
    """An open disc the slider's centre may not enter: an opposing base grown by the slider."""

    id: str
    x: float
    y: float
    r: float


def _seg_clear(p: Point2, q: Point2, obstacles: Sequence[_Obstacle]) -> bool:
    """True when segment ``pq`` enters no obstacle's interior (a tangent is not entering)."""
    px, py = p
    dx, dy = q[0] - px, q[1] - py
    ll = dx * dx + dy * dy
    for o in obstacles:
        t = 0.0 if ll == 0.0 else ((o.x - px) * dx + (o.y - py) * dy) / ll
        t = max(0.0, min(1.0, t))
        cx, cy = px + t * dx - o.x, py + t * dy - o.y
        if math.hypot(cx, cy) < o.r - LENGTH_EPSILON_MM:
            return False
    return True


def _inside_any(p: Point2, obstacles: Sequence[_Obstacle], skip: int = -1) -> bool:
    return any(
        k != skip and math.hypot(p[0] - o.x, p[1] - o.y) < o.r - LENGTH_EPSILON_MM
        for k, o in enumerate(obstacles)
    )


def _point_tangents(p: Point2, o: _Obstacle) -> list[float]:
    """Angles (around ``o``) of the tangent points from ``p``; ``p`` itself when it lies on it."""
    dx, dy = p[0] - o.x, p[1] - o.y
    d = math.hypot(dx, dy)
    base = math.atan2(dy, dx)
    if d <= o.r + LENGTH_EPSILON_MM:
        return [base]
    w = math.acos(o.r / d)
    return [base - w, base + w]


def _bitangents(a: _Obstacle, b: _Obstacle) -> list[tuple[Point2, Point2]]:
    """Segments tangent to both circles (outer, and inner when the circles are apart)."""
    dx, dy = b.x - a.x, b.y - a.y
    z = dx * dx + dy * dy
    if z == 0.0:
        return []
    out: list[tuple[Point2, Point2]] = []
    for s2 in (1.0, -1.0):
        r = s2 * b.r - a.r
        h = z - r * r
        if h < -LENGTH_EPSILON_MM:
            continue
        root = math.sqrt(max(h, 0.0))
        for pm in (1.0, -1.0) if root > 0 else (1.0,):
            na = (dx * r + pm * dy * root) / z
            nb = (dy * r - pm * dx * root) / z
            # the line na*x + nb*y + c = 0 has signed distance a.r from a, s2*b.r from b
            ta = (a.x - a.r * na, a.y - a.r * nb)
            tb = (b.x - s2 * b.r * na, b.y - s2 * b.r * nb)
            out.append((ta, tb))
    return out


def _blocked_arcs(i: int, obstacles: Sequence[_Obstacle]) -> list[tuple[float, float]] | None:
    """Open angular intervals (start, length) of circle ``i`` inside other discs; ``None``: all."""
    a = obstacles[i]
    out: list[tuple[float, float]] = []
    for k, b in enumerate(obstacles):
        if k == i:
            continue
        d = math.hypot(b.x - a.x, b.y - a.y)
        if d + a.r <= b.r - LENGTH_EPSILON_MM:
            return None  # circle i lies inside disc k
        if d >= a.r + b.r or d + b.r <= a.r:
            continue
        c = (a.r * a.r + d * d - b.r * b.r) / (2 * a.r * d)
        w = math.acos(max(-1.0, min(1.0, c)))
        phi = math.atan2(b.y - a.y, b.x - a.x)
        out.append(((phi - w) % _TWO_PI, 2 * w))
    return out


def _arc_free(
    start: float, length: float, blocked: Sequence[tuple[float, float]], r: float
) -> bool:
    """True when the arc (start, start+length) meets no open blocked interval."""
    eps = LENGTH_EPSILON_MM / r
    for s, w in blocked:
        if (s - start) % _TWO_PI < length - eps or (start - s) % _TWO_PI < w - eps:
            return False
    return True


ROUTE_ARC_STEP = math.radians(5.0)
"""Arcs of a route are drawn as chords of at most this angle (drawing only; lengths are exact)."""


@dataclass(frozen=True, slots=True)
class Route:
    """A shortest path: its exact ``length`` and the ``points`` of a polyline that follows it
    (the arcs around bases as short chords, for drawing)."""

    length: float
    points: tuple[Point2, ...]


def shortest_path(start: Point2, goal: Point2, obstacles: Sequence[_Obstacle]) -> float | None:
    """Length of the shortest path from ``start`` to ``goal`` avoiding the open discs, or None.

    Exact: a shortest path among discs consists of straight segments tangent to the circles and
    arcs along them (the visibility graph of tangent points). Segments may graze a circle and
    arcs may run along its boundary (grazing is not entering); points where two circles cross
    cut the arcs. Obstacles containing ``start`` or ``goal`` must be removed by the caller.
    """
    route = shortest_route(start, goal, obstacles)
    return None if route is None else route.length


# An edge of the tangent graph: (to node, length, arc) with arc = None for a straight segment,
# else (circle index, start angle at the from-node, signed sweep).
_Arc = tuple[int, float, float]


def shortest_route(start: Point2, goal: Point2, obstacles: Sequence[_Obstacle]) -> Route | None:
    """:func:`shortest_path` with the way itself (see :class:`Route`)."""
    if _seg_clear(start, goal, obstacles):
        return Route(math.dist(start, goal), (start, goal))
    nodes: list[Point2] = [start, goal]
    on_circle: list[list[tuple[float, int]]] = [[] for _ in obstacles]
    edges: dict[int, list[tuple[int, float, _Arc | None]]] = {}

    def add_node(i: int, angle: float) -> int | None:
        o = obstacles[i]
        p = (o.x + o.r * math.cos(angle), o.y + o.r * math.sin(angle))
        if _inside_any(p, obstacles, skip=i):
            return None
        nodes.append(p)
        n = len(nodes) - 1
        on_circle[i].append((angle % _TWO_PI, n))
        return n

    def link(u: int, v: int, length: float, arc: _Arc | None = None) -> None:
        back = None if arc is None else (arc[0], arc[1] + arc[2], -arc[2])
        edges.setdefault(u, []).append((v, length, arc))
        edges.setdefault(v, []).append((u, length, back))

    blocked = [_blocked_arcs(i, obstacles) for i in range(len(obstacles))]
    for i, o in enumerate(obstacles):
        if blocked[i] is None:
            continue
        for end in (0, 1):
            p = nodes[end]
            for ang in _point_tangents(p, o):
                n = add_node(i, ang)
                if n is not None and _seg_clear(p, nodes[n], obstacles):
                    link(end, n, math.dist(p, nodes[n]))
    for i in range(len(obstacles)):
        for k in range(i + 1, len(obstacles)):
            if blocked[i] is None or blocked[k] is None:
                continue
            a, b = obstacles[i], obstacles[k]
            for ta, tb in _bitangents(a, b):
                if not _seg_clear(ta, tb, obstacles):
                    continue
                na = add_node(i, math.atan2(ta[1] - a.y, ta[0] - a.x))
                nb = add_node(k, math.atan2(tb[1] - b.y, tb[0] - b.x))
                if na is not None and nb is not None:
                    link(na, nb, math.dist(ta, tb))
    for i, o in enumerate(obstacles):
        arcs = blocked[i]
        pts = sorted(on_circle[i])
        if arcs is None or len(pts) < 2:
            continue
        for j in range(len(pts)):
            a0, n0 = pts[j]
            a1, n1 = pts[(j + 1) % len(pts)]
            length = (a1 - a0) % _TWO_PI
            if len(pts) == 2 and j == 1 and length == 0.0:
                continue
            if _arc_free(a0, length, arcs, o.r):
                link(n0, n1, o.r * length, (i, a0, length))
    dist = {0: 0.0}
    prev: dict[int, tuple[int, _Arc | None]] = {}
    heap = [(0.0, 0)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == 1:
            return Route(d, _route_points(nodes, prev, obstacles))
        if d > dist.get(u, math.inf):
            continue
        for v, w, arc in edges.get(u, ()):
            nd = d + w
            if nd < dist.get(v, math.inf):
                dist[v] = nd
                prev[v] = (u, arc)
                heapq.heappush(heap, (nd, v))
    return None


def _route_points(
    nodes: Sequence[Point2],
    prev: Mapping[int, tuple[int, _Arc | None]],
    obstacles: Sequence[_Obstacle],
) -> tuple[Point2, ...]:
    """The polyline from node 0 (start) to node 1 (goal), arcs as chords."""
    legs: list[list[Point2]] = []
    v = 1
    while v != 0:
        u, arc = prev[v]
        if arc is None:
            legs.append([nodes[v]])
        else:
            i, a0, sweep = arc
            o = obstacles[i]
            n = max(1, math.ceil(abs(sweep) / ROUTE_ARC_STEP))
            pts = [a0 + sweep * k / n for k in range(1, n)]
            legs.append([(o.x + o.r * math.cos(a), o.y + o.r * math.sin(a)) for a in pts])
            legs[-1].append(nodes[v])
        v = u
    out: list[Point2] = [nodes[0]]
    for leg in reversed(legs):
        out.extend(leg)
    return tuple(out)


def _clusters(obstacles: Sequence[_Obstacle]) -> list[list[int]]:
    """Groups of obstacles whose discs overlap or touch (connected components)."""
    parent = list(range(len(obstacles)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(obstacles):
        for k in range(i + 1, len(obstacles)):
            b = obstacles[k]
            if math.hypot(a.x - b.x, a.y - b.y) <= a.r + b.r:
                parent[find(i)] = find(k)
    groups: dict[int, list[int]] = {}
    for i in range(len(obstacles)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _blockers(start: Point2, goal: Point2, obstacles: Sequence[_Obstacle]) -> list[str]:
    """The obstacles that stand in the way: a cluster that alone cuts ``goal`` off from
    ``start``, else those the straight segment enters."""
    cut: list[str] = []
    for group in _clusters(obstacles):
        sub = [obstacles[i] for i in group]
        if shortest_path(start, goal, sub) is None:
            cut.extend(o.id for o in sub)
    if cut:
        return cut
    return [o.id for o in obstacles if not _seg_clear(start, goal, [o])]


# ---------------------------------------------------------------------------------------------
# melee.withdraw (with action.quick and melee.stunned)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FreeAttack:
    """One free Quick Action attack provoked by a withdrawal, with its best weapon."""

    attacker: str
    weapon: str
    skill: SkillInfo
    ruling: AttackRuling | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {"attacker": self.attacker, "weapon": self.weapon, "skill": self.skill.to_dict()}


@dataclass(frozen=True, slots=True)
class NoAttack:
    """A model the withdrawing model leaves that gets no free attack, and why.

    ``clause`` is the first reason (``melee.withdraw``: still engaged with ``others``;
    ``melee.stunned``; or the clause that forbids every weapon, e.g. ``melee.skill``);
    ``clauses`` lists them all.
    """

    model: str
    clause: str
    clauses: tuple[str, ...] = ()
    others: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "clause": self.clause,
            "clauses": list(self.clauses),
            "engaged_with": list(self.others),
        }


@dataclass(frozen=True, slots=True)
class WithdrawRuling(Explained):
    """What leaving close combat costs ``model`` (``fwwrules withdraw``)."""

    model: str
    rules: str
    engaged: tuple[str, ...]
    free_attacks: tuple[FreeAttack, ...]
    no_attack: tuple[NoAttack, ...]
    reasons: tuple[Reason, ...]
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)

    def headline(self, lang: str = "en") -> str:
        who = ", ".join(self.labels.get(f.attacker, f.attacker) for f in self.free_attacks)
        key = "melee.withdraw/headline" if self.free_attacks else "melee.withdraw/headline-none"
        return render(
            key,
            {
                "model": self.labels.get(self.model, self.model),
                "count": len(self.free_attacks),
                "who": f" ({who})" if who else "",
            },
            lang,
        )

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "model": self.model,
            "rules": self.rules,
            "engaged": list(self.engaged),
            "free_attacks": [f.to_dict() for f in self.free_attacks],
            "no_attack": [n.to_dict() for n in self.no_attack],
            "reasons": [r.to_dict(lang) for r in self.reasons],
        }


def _best_free_attack(
    scenario: Scenario, attacker_id: str, target_id: str, rules: str
) -> tuple[FreeAttack | None, tuple[str, ...]]:
    """The attacker's best close combat weapon against the withdrawing model, as a Quick Action.

    Best: the highest skill target of the resulting ruling; ties go to the earlier weapon in
    card order (the Improvised Weapon comes last). ``None`` and the forbidding clauses when no
    weapon may be used.
    """
    from .attack import ruling

    best: FreeAttack | None = None
    forbidden: list[str] = []
    for weapon in scenario.weapons_of(scenario.model(attacker_id)):
        r = ruling(scenario, attacker_id, target_id, weapon=weapon.id, rules=rules, quick=True)
        target = r.skill.target
        if not r.allowed or target is None:
            forbidden.extend(c for c in r.not_allowed if c not in forbidden)
            continue
        if best is None or (best.skill.target is not None and target > best.skill.target):
            best = FreeAttack(attacker_id, weapon.id, r.skill, r)
    return best, tuple(forbidden)


def withdraw(scenario: Scenario, model_id: str, rules: str | None = None) -> WithdrawRuling:
    """``melee.withdraw``: the free attacks a model provokes by moving out of base contact.

    Each opposing model it is engaged with gets one free Quick Action attack (``action.quick``,
    -2) against it, before it moves, unless that model

    * is still engaged with another model (``melee.withdraw``): engaged with anyone besides the
      withdrawing model, or
    * is Stunned (``melee.stunned``), or
    * may use none of its weapons against it (the forbidding clause, e.g. ``melee.skill``).

    Each free attack uses the attacker's best weapon (see :func:`_best_free_attack`) through
    :func:`fwwrules.attack.ruling` with ``quick=True``. The free attacks trigger no reactions; a
    withdrawal is a normal Move, never a Charge. A model that is not engaged provokes nothing.
    """
    r = _rules(scenario, rules)
    model = scenario.model(model_id)
    eng = engagements(scenario)
    foes = eng[model.id]
    reasons: list[Reason] = []
    free: list[FreeAttack] = []
    none: list[NoAttack] = []
    if not foes:
        reasons.append(Reason("melee.withdraw", "not-engaged", {"model": model.label}))
    else:
        reasons.append(Reason("melee.withdraw", "move", {"model": model.label}))
    for f in foes:
        foe = scenario.model(f)
        others = tuple(x for x in eng[f] if x != model.id)
        clauses: list[str] = []
        if others:
            clauses.append("melee.withdraw")
            reasons.append(
                Reason(
                    "melee.withdraw",
                    "still-engaged",
                    {"model": foe.label, "others": [_label(scenario, x) for x in others]},
                )
            )
        if foe.stunned:
            clauses.append("melee.stunned")
            reasons.append(
                Reason(
                    "melee.stunned",
                    "no-free-attack",
                    {"model": foe.label, "withdrawer": model.label},
                )
            )
        if clauses:
            none.append(NoAttack(f, clauses[0], tuple(clauses), others))
            continue
        best, forbidden = _best_free_attack(scenario, f, model.id, r)
        if best is None:
            clause = forbidden[0] if forbidden else "melee.skill"
            none.append(NoAttack(f, clause, forbidden or (clause,)))
            reasons.append(
                Reason(
                    "melee.withdraw",
                    "no-weapon",
                    {"model": foe.label, "withdrawer": model.label, "clauses": list(forbidden)},
                )
            )
            continue
        free.append(best)
        reasons.append(
            Reason(
                "melee.withdraw",
                "free-attack",
                {
                    "model": foe.label,
                    "weapon": _weapon_label(scenario, best.weapon),
                    "target": best.skill.target,
                },
            )
        )
        reasons.append(Reason("action.quick", "", {"modifier": QUICK_ACTION_MODIFIER}))
    labels = {m.id: m.label for m in scenario.models}
    return WithdrawRuling(model.id, r, foes, tuple(free), tuple(none), tuple(reasons), labels)


def _weapon_label(scenario: Scenario, weapon_id: str) -> str:
    return scenario.weapon(weapon_id).label


# ---------------------------------------------------------------------------------------------
# melee.slide
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SlideRuling(Explained):
    """The answer to "may ``model`` slide to ``to``?" (``fwwrules slide``).

    Lengths (``to``, ``path_length``) are in scenario units. ``path_length`` is the length of
    the shortest legal path of the base centre (``None`` when none exists or it was not
    looked for, e.g. under ``vts``); ``path`` is that way as a polyline from the model's centre
    to ``to`` (arcs around bases as short chords, for drawing).
    """

    model: str
    to: tuple[float, float]
    rules: str
    legal: bool
    not_allowed: tuple[str, ...] = ()
    breaks: tuple[str, ...] = ()
    overlaps: tuple[str, ...] = ()
    new_engagements: tuple[str, ...] = ()
    path_length: float | None = None
    blocked_by: tuple[str, ...] = ()
    path: tuple[tuple[float, float], ...] = ()
    reasons: tuple[Reason, ...] = ()
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)

    def headline(self, lang: str = "en") -> str:
        key = "melee.slide/headline-legal" if self.legal else "melee.slide/headline-illegal"
        values = {
            "model": self.labels.get(self.model, self.model),
            "x": self.to[0],
            "y": self.to[1],
        }
        return render(key, values, lang)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "model": self.model,
            "to": list(self.to),
            "rules": self.rules,
            "legal": self.legal,
            "not_allowed": list(self.not_allowed),
            "breaks": list(self.breaks),
            "overlaps": list(self.overlaps),
            "new_engagements": list(self.new_engagements),
            "path_length": None if self.path_length is None else round(self.path_length, 3),
            "path": [[round(x, 3), round(y, 3)] for x, y in self.path],
            "blocked_by": list(self.blocked_by),
            "reasons": [r.to_dict(lang) for r in self.reasons],
        }


def _obstacles(
    scenario: Scenario, mover: Model, start: Point2, goal: Point2, skip: Sequence[str]
) -> list[_Obstacle]:
    """Opposing bases on the mover's level, grown by the mover's radius less the tolerance.

    The mover's centre may touch such a disc but not enter it: its base may come as close as
    contact allows (overlap up to the contact tolerance). Obstacles that already hold ``start``
    or ``goal`` are left out (an overlap at the goal is reported on its own).
    """
    geo = scenario.board.models
    me = geo[mover.id].disc
    tol = scenario.board.contact_tolerance
    out = []
    for m in scenario.models:
        if m.id == mover.id or m.id in skip:
            continue
        if not scenario.opposing(mover, m) or not same_level(scenario, mover, m):
            continue
        d = geo[m.id].disc
        o = _Obstacle(m.id, d.x, d.y, d.r + me.r - tol)
        if o.r <= 0 or _inside_any(start, [o]) or _inside_any(goal, [o]):
            continue
        out.append(o)
    return out


def slide(
    scenario: Scenario, model_id: str, to: tuple[float, float], rules: str | None = None
) -> SlideRuling:
    """``melee.slide`` (``core`` only): may the model end a slide with its centre at ``to``?

    ``to`` is in scenario units. Legal when all hold:

    * the model is engaged (a slide follows its close combat attack);
    * at ``to`` its base still touches every model it was engaged with (``breaks`` lists those
      it would leave; contact as in :func:`engagements`);
    * it overlaps no other base on its level by more than the contact tolerance (``overlaps``);
    * a path of its centre exists that never takes its base into an opposing base (deeper than
      the contact tolerance); friendly bases may be passed through. With the option
      ``slide_through_engaged_enemy`` (German reading, translation note 3) the models it is
      engaged with may be passed through too;
    * when the model has a ``move``, the shortest such path is no longer than it.

    The path is decided exactly (:func:`shortest_path`: tangent segments and arcs around the
    grown discs). Only the end position must keep contact; on the way the base may swing
    around. Models it touches at ``to`` that it was not engaged with join the engagement
    (``new_engagements``). Terrain does not stop a slide: the rules say nothing on moving
    through terrain, so the engine leaves it to the players (a reason says so when the straight
    line meets terrain). A slide provokes no free attacks. ``vts``: never legal.
    """
    from .board import Disc
    from .errors import QueryError

    r = _rules(scenario, rules)
    model = scenario.model(model_id)
    x, y = float(to[0]), float(to[1])
    if not (math.isfinite(x) and math.isfinite(y)):
        raise QueryError(f"the slide's end position must be finite numbers, got {to!r}")
    labels = {m.id: m.label for m in scenario.models}
    if r == "vts":
        return SlideRuling(
            model.id, (x, y), r, False, ("melee.slide",),
            reasons=(Reason("melee.slide", "vts", {}),), labels=labels,
        )  # fmt: skip
    geo = scenario.board.models
    u = scenario.unit_mm
    me = geo[model.id].disc
    new = Disc(x * u, y * u, me.r)
    start, goal = me.center, new.center
    tol = scenario.board.contact_tolerance
    engaged = engagements(scenario)[model.id]
    reasons: list[Reason] = []
    failed = False
    if not engaged:
        failed = True
        reasons.append(Reason("melee.slide", "not-engaged", {"model": model.label}))
    breaks = tuple(e for e in engaged if not _touching(scenario, new, geo[e].disc))
    kept = [labels[e] for e in engaged if e not in breaks]
    if kept:
        reasons.append(Reason("melee.slide", "keeps", {"models": kept}))
    for b in breaks:
        failed = True
        gap = scenario.from_mm(new.gap(geo[b].disc))
        reasons.append(Reason("melee.slide", "breaks", {"model": labels[b], "gap": gap}))
    level = [m for m in scenario.models if m.id != model.id and same_level(scenario, model, m)]
    overlaps = []
    for m in level:
        g = new.gap(geo[m.id].disc)
        if g < -tol - LENGTH_EPSILON_MM:
            failed = True
            overlaps.append(m.id)
            reasons.append(
                Reason(
                    "melee.slide", "overlap", {"model": m.label, "overlap": scenario.from_mm(-g)}
                )
            )
    new_eng = tuple(
        m.id
        for m in level
        if m.id not in engaged
        and scenario.opposing(model, m)
        and _touching(scenario, new, geo[m.id].disc)
    )
    if new_eng:
        reasons.append(Reason("melee.slide", "new", {"models": [labels[m] for m in new_eng]}))

    through = scenario.options.slide_through_engaged_enemy
    skip = engaged if through else ()
    obstacles = _obstacles(scenario, model, start, goal, skip)
    route = shortest_route(start, goal, obstacles)
    length_mm = None if route is None else route.length
    move_mm = None if model.move is None else scenario.to_mm(model.move)
    blocked_by: tuple[str, ...] = ()
    if length_mm is None:
        failed = True
        blocked_by = tuple(_blockers(start, goal, obstacles))
        reasons.append(
            Reason("melee.slide", "no-path", {"blockers": [labels[b] for b in blocked_by]})
        )
    else:
        limit = "" if move_mm is None else f" / {model.move:g}"
        reasons.append(
            Reason("melee.slide", "path", {"length": scenario.from_mm(length_mm), "limit": limit})
        )
        if move_mm is not None and length_mm > move_mm + LENGTH_EPSILON_MM:
            failed = True
            blocked_by = tuple(o.id for o in obstacles if not _seg_clear(start, goal, [o]))
            reasons.append(
                Reason(
                    "melee.slide",
                    "too-far",
                    {
                        "length": scenario.from_mm(length_mm),
                        "model": model.label,
                        "move": model.move,
                        "blockers": [labels[b] for b in blocked_by] or ["-"],
                    },
                )
            )
    if through and engaged:
        reasons.append(
            Reason("option/used", "", {"option": "slide_through_engaged_enemy", "value": "true"})
        )
        reasons.append(
            Reason("melee.slide", "through-engaged", {"models": [labels[e] for e in engaged]})
        )
        strict = _obstacles(scenario, model, start, goal, ())
        strict_len = shortest_path(start, goal, strict)
        worse = strict_len is None or (
            move_mm is not None and strict_len > move_mm + LENGTH_EPSILON_MM
        )
        if length_mm is not None and worse:
            names = [labels[b] for b in _blockers(start, goal, strict)]
            reasons.append(Reason("melee.slide", "option-needed", {"blockers": names}))
    friends = [
        _Obstacle(m.id, *geo[m.id].disc.center, geo[m.id].disc.r + me.r - tol)
        for m in level
        if not scenario.opposing(model, m)
    ]
    friends_crossed = not _seg_clear(start, goal, friends)
    if friends_crossed:
        reasons.append(Reason("melee.slide", "friends", {}))
    if _meets_terrain(scenario, start, goal, me.r):
        reasons.append(Reason("melee.slide", "terrain", {}))
    legal = not failed
    if legal:
        reasons.append(Reason("melee.slide", "no-free-attacks", {}))
    return SlideRuling(
        model=model.id,
        to=(x, y),
        rules=r,
        legal=legal,
        not_allowed=() if legal else ("melee.slide",),
        breaks=breaks,
        overlaps=tuple(overlaps),
        new_engagements=new_eng,
        path_length=None if length_mm is None else scenario.from_mm(length_mm),
        path=() if route is None else tuple(_units(scenario, p) for p in route.points),
        blocked_by=blocked_by,
        reasons=tuple(reasons),
        labels=labels,
    )


def _units(scenario: Scenario, p: Point2) -> tuple[float, float]:
    return (scenario.from_mm(p[0]), scenario.from_mm(p[1]))


def _meets_terrain(scenario: Scenario, start: Point2, goal: Point2, radius: float) -> bool:
    """True when the base, swept along the straight line, touches a terrain piece's interior."""
    from shapely.geometry import LineString, Point

    swept = LineString([start, goal]) if start != goal else Point(start)
    area = swept.buffer(radius)
    return any(
        t.kind != "scenery" and t.polygon.intersection(area).area > 0
        for t in scenario.board.terrain_near(area)
    )
