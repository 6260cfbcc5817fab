"""Moving out of and within close combat: withdraw (``melee.withdraw``) and slide
(``melee.slide``).

* :func:`withdraw`: the free Quick Action attacks a withdrawal provokes (each asked of
  :func:`fwwrules.attack.ruling` with ``quick=True``);
* :func:`slide` (``core`` only): whether a slide to a point is legal, with the exact shortest
  path among the opposing bases (:mod:`fwwrules.paths`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from shapely.geometry import LineString, Point

from .arguments import point
from .arguments import scenario as scenario_arg
from .attack import ruling
from .board import Disc
from .catalogue import render
from .close_combat import QUICK_ACTION_MODIFIER
from .constants import LENGTH_EPSILON_MM
from .data import Scenario
from .engagement import engagements, same_level, touching
from .paths import (
    Obstacle,
    Point2,
    blockers,
    contact_cuts,
    inside_any,
    seg_clear,
    shortest_route,
)
from .pieces import Model
from .rulesets import ruleset, ruleset_name
from .rulings import AttackRuling, Explained, Reason, SkillInfo

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
    """What leaving close combat costs ``model`` (``fwwrules withdraw``).

    ``allowed`` is False when the model may not withdraw at all (``not_allowed`` says why:
    ``melee.stunned``, a Stunned model cannot move); it then provokes no free attacks.
    """

    model: str
    rules: str
    engaged: tuple[str, ...]
    free_attacks: tuple[FreeAttack, ...]
    no_attack: tuple[NoAttack, ...]
    reasons: tuple[Reason, ...]
    labels: Mapping[str, str] = field(default_factory=dict, compare=False)
    not_allowed: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return not self.not_allowed

    def headline(self, lang: str = "en") -> str:
        if not self.allowed:
            return render(
                "melee.withdraw/headline-refused", {"model": self.model}, lang, self.labels
            )
        who = ", ".join(self.labels.get(f.attacker, f.attacker) for f in self.free_attacks)
        n = len(self.free_attacks)
        key = {0: "melee.withdraw/headline-none", 1: "melee.withdraw/headline-one"}.get(
            n, "melee.withdraw/headline"
        )
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
            "allowed": self.allowed,
            "not_allowed": list(self.not_allowed),
            "engaged": list(self.engaged),
            "free_attacks": [f.to_dict() for f in self.free_attacks],
            "no_attack": [n.to_dict() for n in self.no_attack],
            "reasons": [r.to_dict(lang, self.labels) for r in self.reasons],
        }


def _best_free_attack(
    scenario: Scenario, attacker_id: str, target_id: str, rules: str
) -> tuple[FreeAttack | None, tuple[str, ...]]:
    """The attacker's best close combat weapon against the withdrawing model, as a Quick Action.

    Best: the highest skill target of the resulting ruling; ties go to the earlier weapon in
    card order (the Improvised Weapon comes last). ``None`` and the forbidding clauses when no
    weapon may be used.
    """
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
    :func:`fwwrules.attack.ruling` with ``quick=True``; its reason lists every skill modifier of
    that attack. The free attacks trigger no reactions; a withdrawal is a normal Move, never a
    Charge. A model that is not engaged provokes nothing.

    ``melee.stunned`` (RoP p.48): a Stunned model cannot withdraw. Its only Move Action removes
    the Stunned marker and moves it nowhere, so the withdrawal is refused (``allowed`` False,
    ``not_allowed`` ``["melee.stunned"]``) and no free attacks are made.
    """
    scenario = scenario_arg(scenario, "withdraw")
    r = ruleset_name(scenario.rules, rules)
    model = scenario.model(model_id)
    eng = engagements(scenario)
    foes = eng[model.id]
    reasons: list[Reason] = []
    free: list[FreeAttack] = []
    none: list[NoAttack] = []
    labels = scenario.display_names()
    if model.stunned:
        reasons.append(Reason("melee.stunned", "no-withdraw", {"model": model.id}))
        if foes:
            reasons.append(Reason("melee.stunned", "stays", {"model": model.id, "engaged": foes}))
        else:
            reasons.append(Reason("melee.withdraw", "not-engaged", {"model": model.id}))
        return WithdrawRuling(
            model.id, r, foes, (), (), tuple(reasons), labels, not_allowed=("melee.stunned",)
        )
    if not foes:
        reasons.append(Reason("melee.withdraw", "not-engaged", {"model": model.id}))
    else:
        reasons.append(Reason("melee.withdraw", "move", {"model": model.id}))
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
                    {"model": foe.id, "others": list(others)},
                )
            )
        if foe.stunned:
            clauses.append("melee.stunned")
            reasons.append(
                Reason(
                    "melee.stunned",
                    "no-free-attack",
                    {"model": foe.id, "withdrawer": model.id},
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
                    {"model": foe.id, "withdrawer": model.id, "clauses": list(forbidden)},
                )
            )
            continue
        free.append(best)
        mods = {} if best.ruling is None else dict(best.ruling.modifiers)
        reasons.append(
            Reason(
                "melee.withdraw",
                "free-attack",
                {
                    "model": foe.id,
                    "weapon": best.weapon,
                    "value": best.skill.value,
                    "modifiers": [[clause, value] for clause, value in mods.items()],
                    "target": best.skill.target,
                },
            )
        )
        reasons.append(Reason("action.quick", "", {"modifier": QUICK_ACTION_MODIFIER}))
    return WithdrawRuling(model.id, r, foes, tuple(free), tuple(none), tuple(reasons), labels)


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
    breaks_at: tuple[tuple[str, str, tuple[float, float]], ...] = ()
    """Where the contact breaks when no path keeps it (the ``breaks-on-path`` reasons, with
    exact coordinates): ``(engaged model id, id of what is in the way, (x, y))``, the centre
    of the slider's base at the first point each way round the engaged model where going on
    would leave it; empty when a path exists or none was looked for."""
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
            "breaks_at": [
                {"model": m, "blocker": b, "at": [round(x, 3), round(y, 3)]}
                for m, b, (x, y) in self.breaks_at
            ],
            "blocked_by": list(self.blocked_by),
            "reasons": [r.to_dict(lang, self.labels) for r in self.reasons],
        }


def _obstacles(
    scenario: Scenario, mover: Model, start: Point2, goal: Point2, skip: Sequence[str]
) -> list[Obstacle]:
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
        o = Obstacle(m.id, d.x, d.y, d.r + me.r - tol)
        if o.r <= 0 or inside_any(start, [o]) or inside_any(goal, [o]):
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
    * a path of its centre exists that keeps base contact with every model it was engaged with
      at every point (RoP p.25: the path hugs their bases) and never takes its base into an
      opposing base (deeper than the contact tolerance); friendly bases may be passed through.
      With the option ``slide_through_engaged_enemy`` (German reading, translation note 3) the
      models it is engaged with may be passed through too (contact still holds all the way);
    * when the model has a ``move``, the shortest such path is no longer than it.

    The path is decided exactly (:func:`~fwwrules.paths.shortest_route` inside the engaged
    models' contact discs: tangent segments and arcs around the grown discs); only the opposing
    bases that reach those discs are looked at, so many bases on the table cost little. When
    no path exists, the reasons say which contact would break and where (``breaks-on-path``:
    the first point each way round where something cuts the ring round the engaged model), and
    ``blocked_by`` names what cuts it. Models it touches at ``to`` that it was not engaged with
    join the engagement (``new_engagements``). Terrain does not stop a slide: the rules say
    nothing on moving through terrain, so the engine leaves it to the players (a reason says
    so when the straight line meets terrain). A slide provokes no free attacks. ``vts``: never
    legal.
    """
    scenario = scenario_arg(scenario, "slide")
    r = ruleset_name(scenario.rules, rules)
    model = scenario.model(model_id)
    x, y = point(to, "the slide's end position")
    labels = scenario.display_names()
    if not ruleset(r).slides:
        return SlideRuling(
            model.id, (x, y), r, False, ("melee.slide",),
            reasons=(Reason("melee.slide", r, {}),), labels=labels,
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
        reasons.append(Reason("melee.slide", "not-engaged", {"model": model.id}))
    breaks = tuple(e for e in engaged if not touching(scenario, new, geo[e].disc))
    kept = [e for e in engaged if e not in breaks]
    if kept:
        reasons.append(Reason("melee.slide", "keeps", {"models": kept}))
    for b in breaks:
        failed = True
        gap = scenario.from_mm(new.gap(geo[b].disc))
        reasons.append(
            Reason("melee.slide", "breaks", {"model": b, "gap": gap, "units": scenario.units})
        )
    level = [m for m in scenario.models if m.id != model.id and same_level(scenario, model, m)]
    overlaps = []
    for m in level:
        g = new.gap(geo[m.id].disc)
        if g < -tol - LENGTH_EPSILON_MM:
            failed = True
            overlaps.append(m.id)
            reasons.append(
                Reason(
                    "melee.slide",
                    "overlap",
                    {"model": m.id, "overlap": scenario.from_mm(-g), "units": scenario.units},
                )
            )
    new_eng = tuple(
        m.id
        for m in level
        if m.id not in engaged
        and scenario.opposing(model, m)
        and touching(scenario, new, geo[m.id].disc)
    )
    if new_eng:
        reasons.append(Reason("melee.slide", "new", {"models": list(new_eng)}))

    through = scenario.options.slide_through_engaged_enemy
    skip = engaged if through else ()
    obstacles = _obstacles(scenario, model, start, goal, skip)
    # the centre stays within contact distance of every engaged model at every point
    within = [
        Obstacle(e, geo[e].disc.x, geo[e].disc.y, geo[e].disc.r + me.r + tol) for e in engaged
    ]
    route = None if not engaged or breaks else shortest_route(start, goal, obstacles, within)
    length_mm = None if route is None else route.length
    move_mm = None if model.move is None else scenario.to_mm(model.move)
    blocked_by: tuple[str, ...] = ()
    breaks_at: list[tuple[str, str, tuple[float, float]]] = []
    if not engaged or breaks:
        pass  # already refused: nothing to find a path for
    elif length_mm is None:
        failed = True
        cuts = contact_cuts(start, obstacles, within)
        blocked_by = tuple(dict.fromkeys(c[2] for c in cuts))
        if not cuts:
            blocked_by = tuple(blockers(start, goal, obstacles))
            reasons.append(Reason("melee.slide", "no-path", {"blockers": list(blocked_by)}))
        for e, (px, py), cause in cuts:
            breaks_at.append((e, cause, _units(scenario, (px, py))))
            reasons.append(
                Reason(
                    "melee.slide",
                    "breaks-on-path",
                    {
                        "model": e,
                        "blocker": cause,
                        "x": round(scenario.from_mm(px), 1),
                        "y": round(scenario.from_mm(py), 1),
                    },
                )
            )
    else:
        values = {"length": scenario.from_mm(length_mm), "units": scenario.units}
        if model.move is None:
            reasons.append(Reason("melee.slide", "path", values))
        else:
            reasons.append(Reason("melee.slide", "path-move", {**values, "move": model.move}))
        if move_mm is not None and length_mm > move_mm + LENGTH_EPSILON_MM:
            failed = True
            blocked_by = tuple(o.id for o in obstacles if not seg_clear(start, goal, [o]))
            reasons.append(
                Reason(
                    "melee.slide",
                    "too-far",
                    {
                        "length": scenario.from_mm(length_mm),
                        "model": model.id,
                        "move": model.move,
                        "units": scenario.units,
                        "blockers": list(blocked_by),
                    },
                )
            )
    if through and engaged:
        reasons.append(
            Reason("option/used", "", {"option": "slide_through_engaged_enemy", "value": "true"})
        )
        reasons.append(Reason("melee.slide", "through-engaged", {"models": list(engaged)}))
        strict = _obstacles(scenario, model, start, goal, ())
        strict_route = shortest_route(start, goal, strict, within)
        strict_len = None if strict_route is None else strict_route.length
        worse = strict_len is None or (
            move_mm is not None and strict_len > move_mm + LENGTH_EPSILON_MM
        )
        if length_mm is not None and worse:
            names = list(blockers(start, goal, strict))
            reasons.append(Reason("melee.slide", "option-needed", {"blockers": names}))
    friends = [
        Obstacle(m.id, *geo[m.id].disc.center, geo[m.id].disc.r + me.r - tol)
        for m in level
        if not scenario.opposing(model, m)
    ]
    friends_crossed = not seg_clear(start, goal, friends)
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
        breaks_at=tuple(breaks_at),
        reasons=tuple(reasons),
        labels=labels,
    )


def _units(scenario: Scenario, p: Point2) -> tuple[float, float]:
    return (scenario.from_mm(p[0]), scenario.from_mm(p[1]))


def _meets_terrain(scenario: Scenario, start: Point2, goal: Point2, radius: float) -> bool:
    """True when the base, swept along the straight line, touches a terrain piece's interior."""
    swept = LineString([start, goal]) if start != goal else Point(start)
    area = swept.buffer(radius)
    return any(
        t.kind != "scenery" and t.polygon.intersection(area).area > 0
        for t in scenario.board.terrain_near(area)
    )
