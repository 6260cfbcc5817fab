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
from .attack import ruling
from .board import Disc
from .catalogue import render
from .checks import usable as scenario_arg
from .close_combat import QUICK_ACTION_MODIFIER
from .constants import LENGTH_EPSILON_MM
from .data import Scenario
from .engagement import engagements, same_level, touching
from .paths import (
    Obstacle,
    Point2,
    Route,
    blockers,
    contact_cuts,
    inside_any,
    seg_clear,
    shortest_route,
)
from .pieces import Model, Name
from .rulesets import ruleset, ruleset_name
from .rulings import AttackRuling, Explained, Reason, SkillInfo, names_in

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
    labels: Mapping[str, Name] = field(default_factory=dict, compare=False)
    not_allowed: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return not self.not_allowed

    def headline(self, lang: str = "en") -> str:
        names = names_in(self.labels, lang)
        if not self.allowed:
            return render("melee.withdraw/headline-refused", {"model": self.model}, lang, names)
        who = ", ".join(names.get(f.attacker, f.attacker) for f in self.free_attacks)
        n = len(self.free_attacks)
        key = {0: "melee.withdraw/headline-none", 1: "melee.withdraw/headline-one"}.get(
            n, "melee.withdraw/headline"
        )
        return render(
            key,
            {
                "model": names.get(self.model, self.model),
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
    labels = scenario.names()
    if model.stunned:
        reasons = [Reason("melee.stunned", "no-withdraw", {"model": model.id})]
        if foes:
            reasons.append(Reason("melee.stunned", "stays", {"model": model.id, "engaged": foes}))
        else:
            reasons.append(Reason("melee.withdraw", "not-engaged", {"model": model.id}))
        return WithdrawRuling(
            model.id, r, foes, (), (), tuple(reasons), labels, not_allowed=("melee.stunned",)
        )
    key = "move" if foes else "not-engaged"
    reasons = [Reason("melee.withdraw", key, {"model": model.id})]
    free: list[FreeAttack] = []
    none: list[NoAttack] = []
    for f in foes:
        answer = _free_attack(scenario, scenario.model(f), model, eng, r, reasons)
        if isinstance(answer, FreeAttack):
            free.append(answer)
        else:
            none.append(answer)
    return WithdrawRuling(model.id, r, foes, tuple(free), tuple(none), tuple(reasons), labels)


def _free_attack(
    scenario: Scenario,
    foe: Model,
    model: Model,
    eng: Mapping[str, tuple[str, ...]],
    rules: str,
    reasons: list[Reason],
) -> FreeAttack | NoAttack:
    """``melee.withdraw``: the free attack ``foe`` makes on the withdrawing ``model``, or why it
    makes none (still engaged with another, Stunned, no usable weapon); the reasons say so."""
    others = tuple(x for x in eng[foe.id] if x != model.id)
    clauses: list[str] = []
    values: dict[str, Any]
    if others:
        clauses.append("melee.withdraw")
        values = {"model": foe.id, "others": list(others)}
        reasons.append(Reason("melee.withdraw", "still-engaged", values))
    if foe.stunned:
        clauses.append("melee.stunned")
        values = {"model": foe.id, "withdrawer": model.id}
        reasons.append(Reason("melee.stunned", "no-free-attack", values))
    if clauses:
        return NoAttack(foe.id, clauses[0], tuple(clauses), others)
    best, forbidden = _best_free_attack(scenario, foe.id, model.id, rules)
    if best is None:
        clause = forbidden[0] if forbidden else "melee.skill"
        values = {"model": foe.id, "withdrawer": model.id, "clauses": list(forbidden)}
        reasons.append(Reason("melee.withdraw", "no-weapon", values))
        return NoAttack(foe.id, clause, forbidden or (clause,))
    mods = {} if best.ruling is None else dict(best.ruling.modifiers)
    values = {
        "model": foe.id,
        "weapon": best.weapon,
        "value": best.skill.value,
        "modifiers": [[clause, value] for clause, value in mods.items()],
        "target": best.skill.target,
    }
    reasons.append(Reason("melee.withdraw", "free-attack", values))
    reasons.append(Reason("action.quick", "", {"modifier": QUICK_ACTION_MODIFIER}))
    return best


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
    labels: Mapping[str, Name] = field(default_factory=dict, compare=False)

    def headline(self, lang: str = "en") -> str:
        key = "melee.slide/headline-legal" if self.legal else "melee.slide/headline-illegal"
        values = {
            "model": names_in(self.labels, lang).get(self.model, self.model),
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


@dataclass(slots=True)
class _Slide:
    """One slide while :func:`slide` decides it (lengths in mm; ``new`` is the base at ``to``)."""

    scenario: Scenario
    model: Model
    me: Disc
    new: Disc
    engaged: tuple[str, ...]
    tol: float
    reasons: list[Reason] = field(default_factory=list)
    failed: bool = False
    level: list[Model] = field(default_factory=list)
    breaks: tuple[str, ...] = ()
    overlaps: list[str] = field(default_factory=list)
    new_engagements: tuple[str, ...] = ()
    route: Route | None = None
    blocked_by: tuple[str, ...] = ()
    breaks_at: list[tuple[str, str, tuple[float, float]]] = field(default_factory=list)

    @property
    def start(self) -> Point2:
        return self.me.center

    @property
    def goal(self) -> Point2:
        return self.new.center

    @property
    def move_mm(self) -> float | None:
        return None if self.model.move is None else self.scenario.to_mm(self.model.move)

    def within(self) -> list[Obstacle]:
        """The engaged models' contact discs: the centre stays in every one at every point."""
        geo, me, tol = self.scenario.board.models, self.me, self.tol
        return [Obstacle(e, *geo[e].disc.center, geo[e].disc.r + me.r + tol) for e in self.engaged]

    def refuse(self, key: str, values: Mapping[str, Any]) -> None:
        self.failed = True
        self.reasons.append(Reason("melee.slide", key, values))


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
    labels = scenario.names()
    if not ruleset(r).slides:
        return SlideRuling(
            model.id, (x, y), r, False, ("melee.slide",),
            reasons=(Reason("melee.slide", r, {}),), labels=labels,
        )  # fmt: skip
    me = scenario.board.models[model.id].disc
    new = Disc(x * scenario.unit_mm, y * scenario.unit_mm, me.r)
    engaged = engagements(scenario)[model.id]
    sl = _Slide(scenario, model, me, new, engaged, scenario.board.contact_tolerance)
    _slide_end(sl)
    _slide_path(sl)
    _slide_through_engaged(sl)
    _slide_notes(sl)
    legal = not sl.failed
    if legal:
        sl.reasons.append(Reason("melee.slide", "no-free-attacks", {}))
    route = sl.route
    return SlideRuling(
        model=model.id,
        to=(x, y),
        rules=r,
        legal=legal,
        not_allowed=() if legal else ("melee.slide",),
        breaks=sl.breaks,
        overlaps=tuple(sl.overlaps),
        new_engagements=sl.new_engagements,
        path_length=None if route is None else scenario.from_mm(route.length),
        path=() if route is None else tuple(_units(scenario, p) for p in route.points),
        blocked_by=sl.blocked_by,
        breaks_at=tuple(sl.breaks_at),
        reasons=tuple(sl.reasons),
        labels=labels,
    )


def _slide_end(sl: _Slide) -> None:
    """Where the slide ends: engaged at all, the contacts kept and broken, the bases overlapped
    and the models newly touched (``melee.slide``)."""
    scenario, model, new, engaged = sl.scenario, sl.model, sl.new, sl.engaged
    geo, units = scenario.board.models, scenario.units
    if not engaged:
        sl.refuse("not-engaged", {"model": model.id})
    sl.breaks = tuple(e for e in engaged if not touching(scenario, new, geo[e].disc))
    kept = [e for e in engaged if e not in sl.breaks]
    if kept:
        sl.reasons.append(Reason("melee.slide", "keeps", {"models": kept}))
    for b in sl.breaks:
        sl.refuse(
            "breaks", {"model": b, "gap": scenario.from_mm(new.gap(geo[b].disc)), "units": units}
        )
    sl.level = [m for m in scenario.models if m.id != model.id and same_level(scenario, model, m)]
    for m in sl.level:
        g = new.gap(geo[m.id].disc)
        if g < -sl.tol - LENGTH_EPSILON_MM:
            sl.overlaps.append(m.id)
            sl.refuse("overlap", {"model": m.id, "overlap": scenario.from_mm(-g), "units": units})
    sl.new_engagements = tuple(
        m.id
        for m in sl.level
        if m.id not in engaged
        and scenario.opposing(model, m)
        and touching(scenario, new, geo[m.id].disc)
    )
    if sl.new_engagements:
        sl.reasons.append(Reason("melee.slide", "new", {"models": list(sl.new_engagements)}))


def _slide_path(sl: _Slide) -> None:
    """The shortest path that keeps every contact (``melee.slide``): none, where the contacts
    break and what is in the way; or its length against the model's move."""
    scenario, model = sl.scenario, sl.model
    if not sl.engaged or sl.breaks:
        return  # already refused: nothing to find a path for
    skip = sl.engaged if scenario.options.slide_through_engaged_enemy else ()
    obstacles = _obstacles(scenario, model, sl.start, sl.goal, skip)
    sl.route = shortest_route(sl.start, sl.goal, obstacles, sl.within())
    if sl.route is None:
        _no_path(sl, obstacles)
        return
    length_mm, move_mm = sl.route.length, sl.move_mm
    values: dict[str, Any] = {"length": scenario.from_mm(length_mm), "units": scenario.units}
    if model.move is None:
        sl.reasons.append(Reason("melee.slide", "path", values))
    else:
        sl.reasons.append(Reason("melee.slide", "path-move", {**values, "move": model.move}))
    if move_mm is not None and length_mm > move_mm + LENGTH_EPSILON_MM:
        sl.blocked_by = tuple(o.id for o in obstacles if not seg_clear(sl.start, sl.goal, [o]))
        values = {
            "length": values["length"],
            "model": model.id,
            "move": model.move,
            "units": scenario.units,
            "blockers": list(sl.blocked_by),
        }
        sl.refuse("too-far", values)


def _no_path(sl: _Slide, obstacles: list[Obstacle]) -> None:
    """No path keeps the contacts: where each breaks and what cuts it (``breaks-on-path``), or
    what blocks the way (``no-path``)."""
    scenario = sl.scenario
    sl.failed = True
    cuts = contact_cuts(sl.start, obstacles, sl.within())
    sl.blocked_by = tuple(dict.fromkeys(c[2] for c in cuts))
    if not cuts:
        sl.blocked_by = tuple(blockers(sl.start, sl.goal, obstacles))
        sl.reasons.append(Reason("melee.slide", "no-path", {"blockers": list(sl.blocked_by)}))
    for e, (px, py), cause in cuts:
        sl.breaks_at.append((e, cause, _units(scenario, (px, py))))
        values = {
            "model": e,
            "blocker": cause,
            "x": round(scenario.from_mm(px), 1),
            "y": round(scenario.from_mm(py), 1),
        }
        sl.reasons.append(Reason("melee.slide", "breaks-on-path", values))


def _slide_through_engaged(sl: _Slide) -> None:
    """The option ``slide_through_engaged_enemy`` (translation note 3): say it was used, and
    whether the path needed it."""
    if not (sl.scenario.options.slide_through_engaged_enemy and sl.engaged):
        return
    option = {"option": "slide_through_engaged_enemy", "value": "true"}
    sl.reasons.append(Reason("option/used", "", option))
    sl.reasons.append(Reason("melee.slide", "through-engaged", {"models": list(sl.engaged)}))
    strict = _obstacles(sl.scenario, sl.model, sl.start, sl.goal, ())
    strict_route = shortest_route(sl.start, sl.goal, strict, sl.within())
    strict_len = None if strict_route is None else strict_route.length
    move_mm = sl.move_mm
    worse = strict_len is None or (move_mm is not None and strict_len > move_mm + LENGTH_EPSILON_MM)
    if sl.route is not None and worse:
        names = list(blockers(sl.start, sl.goal, strict))
        sl.reasons.append(Reason("melee.slide", "option-needed", {"blockers": names}))


def _slide_notes(sl: _Slide) -> None:
    """What the slide passes that does not stop it: friendly bases, terrain."""
    geo, scenario, me, tol = sl.scenario.board.models, sl.scenario, sl.me, sl.tol
    friends = [
        Obstacle(m.id, *geo[m.id].disc.center, geo[m.id].disc.r + me.r - tol)
        for m in sl.level
        if not scenario.opposing(sl.model, m)
    ]
    if not seg_clear(sl.start, sl.goal, friends):
        sl.reasons.append(Reason("melee.slide", "friends", {}))
    if _meets_terrain(scenario, sl.start, sl.goal, sl.me.r):
        sl.reasons.append(Reason("melee.slide", "terrain", {}))


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
