"""The rulings: :func:`grid_cover` and its answer :class:`GridRuling` (``grid.ranged``,
``grid.melee``, ``grid.big``, ``grid.low-obstacle``, ``grid.soft``, ``grid.partial``,
``grid.total``, ``grid.improved``, ``grid.consequences``; the decisions are listed in
:mod:`fwwrules.grid`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..catalogue import check_lang, render
from ..errors import QueryError
from ..pieces import Name
from ..rulings import Explained, Reason, names_in
from .geometry import (
    Obstruction,
    Tracer,
    centre,
    chebyshev,
    corners,
    creature_distance,
    creature_steps,
    frac,
    in_reach,
    line_of_effect,
    num,
    reach_by_diagonal,
    space_distance,
    space_steps,
)
from .model import Creature, GridScenario
from .vocabulary import (
    ARROW_SLIT,
    ATTACKS,
    BONUS,
    BORDER_WALL,
    CREATURE,
    DEFAULT_REACH,
    GRID_FORMAT,
    IMPROVED_STEALTH_BONUS,
    LOW,
    LOW_OBSTACLE_RANGE_FT,
    VERDICTS,
    WALL,
    AttackKind,
    Category,
    Corner,
    CoverLevel,
    Point,
    Procedure,
    Square,
    Verdict,
)


@dataclass(frozen=True, slots=True)
class GridLine:
    """One line from a corner of the attacker's square to a corner of the target's square,
    with its ``verdict`` (``clear`` or the strongest counted obstruction) and what it passes
    (``through``, ignored low obstacles included)."""

    start: Corner
    end: Corner
    verdict: Verdict
    through: tuple[Obstruction, ...] = ()

    @property
    def clear(self) -> bool:
        return self.verdict == "clear"

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": list(self.start),
            "to": list(self.end),
            "verdict": self.verdict,
            "through": [o.to_dict() for o in self.through],
        }


@dataclass(frozen=True, slots=True)
class PartialCover:
    """``grid.partial``: the measure behind the suggestion (``clear`` of ``lines`` lines from
    the chosen corner are clear) and the full-cover values the GM may keep instead."""

    clear: int
    lines: int
    measure: str = "clear-lines"
    full_ac: int = 4
    full_reflex: int = 2

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.clear, self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "suggested": True,
            "measure": self.measure,
            "clear": self.clear,
            "lines": self.lines,
            "visible": round(float(self.fraction), 6),
            "full": {"ac": self.full_ac, "reflex": self.full_reflex},
            "gm_call": True,
        }


@dataclass(frozen=True, slots=True)
class GridRuling(Explained):
    """The answer of :func:`grid_cover` (``fwwrules grid``).

    ``cover`` is one of :data:`COVERS` (soft cover is ``cover`` with ``soft=True``); ``ac`` and
    ``reflex`` are the bonuses that apply; ``corner`` is the attacker's chosen corner and
    ``lines`` the lines drawn from it (melee: from every corner of the attacker's square).
    """

    attacker: str
    target: str
    attack: AttackKind
    procedure: Procedure
    cover: CoverLevel
    soft: bool
    ac: int
    reflex: int
    stealth: bool
    stealth_bonus: int
    attack_allowed: bool
    attacks_of_opportunity: bool
    improved_evasion: bool
    corner: Corner
    attacker_square: Square
    target_square: Square
    lines: tuple[GridLine, ...] = ()
    partial: PartialCover | None = None
    in_reach: bool = True
    reasons: tuple[Reason, ...] = ()
    labels: Mapping[str, Name] = field(default_factory=dict, compare=False)
    """Name by creature id (one text, or one per language)."""

    @property
    def line_of_effect(self) -> bool:
        return self.cover != "total"

    def headline(self, lang: str = "en") -> str:
        check_lang(lang)
        names = names_in(self.labels, lang)
        values = {
            "attacker": names.get(self.attacker, self.attacker),
            "target": names.get(self.target, self.target),
            "attack": render(f"grid/attack/{self.attack}", {}, lang),
            "ac": self.ac,
            "reflex": self.reflex,
        }
        key = "soft" if self.soft else self.cover
        text = render(f"grid/headline/{key}", values, lang)
        if not self.in_reach:
            text += " " + render("grid/headline/out-of-reach", values, lang)
        return text

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        check_lang(lang)
        return {
            "attacker": self.attacker,
            "target": self.target,
            "attack": self.attack,
            "procedure": self.procedure,
            "cover": self.cover,
            "soft": self.soft,
            "ac": self.ac,
            "reflex": self.reflex,
            "stealth": self.stealth,
            "stealth_bonus": self.stealth_bonus,
            "attack_allowed": self.attack_allowed,
            "attacks_of_opportunity": self.attacks_of_opportunity,
            "improved_evasion": self.improved_evasion,
            "line_of_effect": self.line_of_effect,
            "in_reach": self.in_reach,
            "corner": list(self.corner),
            "attacker_square": list(self.attacker_square),
            "target_square": list(self.target_square),
            "partial": None if self.partial is None else self.partial.to_dict(),
            "lines": [ln.to_dict() for ln in self.lines],
            "headline": self.headline(lang),
            "reasons": [r.to_dict(lang, self.labels) for r in self.reasons],
        }


@dataclass(frozen=True, slots=True)
class _Choice:
    """One candidate of the attacker: its square and corner, the target square, the lines."""

    a_square: Square
    corner: Corner
    t_square: Square
    lines: tuple[GridLine, ...]
    category: Category
    index: int

    @property
    def obstructed(self) -> int:
        return sum(1 for ln in self.lines if not ln.clear)

    @property
    def key(self) -> tuple[int, int, int, int]:
        ac, reflex = BONUS[self.category]
        return (ac, reflex, self.obstructed, self.index)


def _verdict(through: Sequence[Obstruction]) -> Verdict:
    counted = {o.kind for o in through if o.counted}
    for v in VERDICTS:
        if v in counted:
            return v
    return "clear"


def _category(lines: Sequence[GridLine], *, partial: bool) -> Category:
    kinds = {o.kind for ln in lines for o in ln.through if o.counted}
    if ARROW_SLIT in kinds:
        return "improved"
    if kinds & {WALL, BORDER_WALL, LOW}:
        clear = sum(1 for ln in lines if ln.clear)
        return "partial" if partial and 2 * clear > len(lines) else "cover"
    if CREATURE in kinds:
        return "soft"
    return "none"


def _sq(square: Square) -> dict[str, int]:
    return {"c": square[0], "r": square[1]}


class _Judge:
    """Builds lines and reasons for one (attacker, target) pair."""

    def __init__(self, scenario: GridScenario, attacker: Creature, target: Creature) -> None:
        self.s = scenario
        self.a = attacker
        self.t = target
        self.tracer = Tracer(scenario, (attacker.id, target.id), self.slit_open)

    def low_rule(self, ob: Obstruction) -> Obstruction:
        """``grid.low-obstacle``: keep a low square only within range of the target and when
        the attacker is not closer to it."""
        if ob.kind != LOW or ob.square is None:
            return ob
        t_dist = space_distance(self.t, ob.square)
        a_dist = space_distance(self.a, ob.square)
        if t_dist * self.s.square > LOW_OBSTACLE_RANGE_FT:
            return Obstruction(LOW, square=ob.square, counted=False, ignored_by="far")
        if a_dist < t_dist:
            return Obstruction(LOW, square=ob.square, counted=False, ignored_by="attacker-closer")
        return ob

    def slit_open(self, sq: Square) -> bool:
        """``grid.improved``: an arrow slit covers only a target behind it, one strictly nearer
        to the slit than the attacker (Pathfinder distance between the nearest squares). For a
        creature behind a slit shooting out (nearer to it than the target, or as near), the
        slit is open: no cover from it, not even from its wall along a seam."""
        return space_distance(self.t, sq) >= space_distance(self.a, sq)

    def line(self, a_sq: Square, p: Corner, t_sq: Square, q: Corner, *, melee: bool) -> GridLine:
        raw = self.tracer.trace(
            frac(p), frac(q), centre(a_sq), centre(t_sq), creatures=not melee, slits=not melee
        )
        through = tuple(self.low_rule(o) for o in raw)
        return GridLine(p, q, _verdict(through), through)

    def target_corners(self) -> tuple[tuple[Square, Corner], ...]:
        """Every corner of every square of the target, once each, in reading order, with a
        square of the target it belongs to (which tells the tracer where the inside is)."""
        out: dict[Corner, Square] = {}
        (x0, y0), (x1, y1) = self.t.box
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                c = x1 - 1 if x == x1 else x
                r = y1 - 1 if y == y1 else y
                out[(x, y)] = (c, r)
        return tuple((sq, corner) for corner, sq in out.items())

    # --- ranged (and reach beyond adjacency) -------------------------------------------------
    def ranged_choices(
        self, *, stop_when_clear: bool = False, first_only: bool = False, all_corners: bool = False
    ) -> list[_Choice]:
        """Every (attacker square, corner, target square) in tie-break order. A corner shared
        by several of the attacker's squares is tried once, with the first of them (its lines
        do not depend on the square: no wall runs inside a space). With ``stop_when_clear``
        the search ends at the first choice whose lines are all clear (nothing beats it).

        With ``all_corners`` (a ranged attack on a big target, ``grid.big``) there is no target
        square to pick: each corner's lines go to every corner of every square of the target
        (``(size + 1) ** 2`` lines), and the choice names the target's top-left square."""
        out: list[_Choice] = []
        index = 0
        seen: set[Corner] = set()
        targets = self.target_corners() if all_corners else ()
        for a_sq in self.a.squares:
            for p in corners(a_sq):
                if p in seen:
                    continue
                seen.add(p)
                if all_corners:
                    lines = tuple(self.line(a_sq, p, t_sq, q, melee=False) for t_sq, q in targets)
                    choice = _Choice(
                        a_sq, p, self.t.at, lines, _category(lines, partial=True), index
                    )
                    out.append(choice)
                    index += 1
                    if first_only or (stop_when_clear and choice.obstructed == 0):
                        return out
                    continue
                for t_sq in self.t.squares:
                    lines = tuple(self.line(a_sq, p, t_sq, q, melee=False) for q in corners(t_sq))
                    choice = _Choice(a_sq, p, t_sq, lines, _category(lines, partial=True), index)
                    out.append(choice)
                    index += 1
                    if first_only or (stop_when_clear and choice.obstructed == 0):
                        return out
        return out

    # --- melee against an adjacent target ----------------------------------------------------
    def melee_choices(self) -> list[_Choice]:
        out: list[_Choice] = []
        index = 0
        for a_sq in self.a.squares:
            for t_sq in self.t.squares:
                if max(abs(a_sq[0] - t_sq[0]), abs(a_sq[1] - t_sq[1])) != 1:
                    continue
                lines = tuple(
                    self.line(a_sq, p, t_sq, q, melee=True)
                    for p in corners(a_sq)
                    for q in corners(t_sq)
                )
                walled = any(not ln.clear for ln in lines)
                first = next((ln.start for ln in lines if not ln.clear), corners(a_sq)[0])
                out.append(_Choice(a_sq, first, t_sq, lines, "cover" if walled else "none", index))
                index += 1
        return out


def _obstruction_reasons(lines: Sequence[GridLine], clause: str, judge: _Judge) -> list[Reason]:
    """One reason per distinct obstruction on the chosen lines (ignored low obstacles too)."""
    out: list[Reason] = []
    seen: set[tuple[str, Square | None, Point | None]] = set()
    ft = judge.s.square
    for ln in lines:
        for o in ln.through:
            key = (o.kind, o.square, o.point)
            if key in seen:
                continue
            seen.add(key)
            base: dict[str, Any] = {"attacker": judge.a.id, "target": judge.t.id, "square": ft}
            if o.square is not None:
                base.update(_sq(o.square))
            if o.point is not None:
                base.update(x=num(o.point[0]), y=num(o.point[1]))
            if o.kind == CREATURE:
                out.append(Reason("grid.soft", "through", {**base, "creature": o.creature}))
            elif o.kind == LOW and o.square is not None:
                dist = {
                    "limit_ft": LOW_OBSTACLE_RANGE_FT,
                    **_feet("target", space_distance(judge.t, o.square), ft),
                    **_counted("target", space_steps(judge.t, o.square)),
                    **_feet("attacker", space_distance(judge.a, o.square), ft),
                    **_counted("attacker", space_steps(judge.a, o.square)),
                }
                key2 = "counts" if o.counted else o.ignored_by
                out.append(Reason("grid.low-obstacle", key2, {**base, **dist}))
            elif o.kind == ARROW_SLIT and o.square is not None and clause == "grid.ranged":
                dist = {
                    **_feet("target", space_distance(judge.t, o.square), ft),
                    **_counted("target", space_steps(judge.t, o.square)),
                    **_feet("attacker", space_distance(judge.a, o.square), ft),
                    **_counted("attacker", space_steps(judge.a, o.square)),
                }
                if o.counted:
                    out.append(Reason(clause, o.kind, base))
                    out.append(Reason("grid.improved", "behind", {**base, **dist}))
                else:
                    out.append(Reason("grid.improved", "not-behind", {**base, **dist}))
            elif o.kind == WALL and o.point is not None:
                out.append(Reason(clause, "wall-corner", base))
            elif o.kind == BORDER_WALL and o.nudged:
                out.append(Reason(clause, "border-wall-end", base))
            else:
                out.append(Reason(clause, o.kind, base))
    return out


def _feet(name: str, squares: int, square_ft: float) -> dict[str, float]:
    """``<name>_ft``: a distance of ``squares`` (the 1-2-1 count) in feet."""
    return {f"{name}_ft": squares * square_ft}


def _counted(name: str, counted: tuple[int, int]) -> dict[str, int]:
    """``<name>_squares`` and ``<name>_diagonal``: the squares a reader counts on the map and
    how many of those steps are diagonal, shown beside ``<name>_ft`` (the rule's count)."""
    return {f"{name}_squares": counted[0], f"{name}_diagonal": counted[1]}


def _reach_reasons(
    s: GridScenario, att: Creature, tgt: Creature, reach: int, *, adjacent: bool
) -> list[Reason]:
    """``grid.melee`` (a melee attack judged as a ranged one) and ``grid.reach`` (the square two
    away diagonally, in reach of a 10-ft reach weapon although 15 ft away by the 1-2-1 count).
    Lengths in feet (``*_ft``) with the feet per square (``square``) for the text."""
    dist = creature_distance(att, tgt)
    values: dict[str, Any] = {
        "attacker": att.id,
        "target": tgt.id,
        "reach": reach,
        "distance": dist,
        "reach_ft": reach * s.square,
        "distance_ft": dist * s.square,
        **_counted("distance", creature_steps(att, tgt)),
        "square": s.square,
    }
    if adjacent:
        return [Reason("grid.melee", "reach-creature", values)]
    if not in_reach(att, tgt, reach):
        return [Reason("grid.melee", "out-of-reach", values)]
    out = [Reason("grid.melee", "reach", values)]
    if reach_by_diagonal(att, tgt, reach):
        out.append(Reason("grid.reach", "diagonal", values))
    return out


def grid_cover(
    scenario: GridScenario, attacker_id: str, target_id: str, attack: str = "ranged"
) -> GridRuling:
    """Pathfinder 1e cover of ``target_id`` against ``attacker_id`` on a grid scenario.

    ``attack`` is ``ranged``, ``melee`` or ``reach``. A melee attack on an adjacent target by a
    creature without reach uses ``grid.melee``; everything else uses the ``grid.ranged``
    procedure: ranged attacks, every attack of a creature with reach (a ``reach`` attack, or a
    creature whose ``reach`` is 2 squares or more), even against an adjacent target, and melee
    attacks on targets that are not adjacent. A ranged attack on a big target draws its lines
    to the corners of all its squares; melee and reach attacks pick one of its squares. The
    package docstring (:mod:`fwwrules.grid`) lists every decision and boundary case.

    Raises :class:`UnknownIdError` for an unknown creature and :class:`QueryError` for a
    scenario that is not a grid, an unknown attack type, or a creature attacking itself.
    """
    att, tgt, attack = _creatures(scenario, attacker_id, target_id, attack)
    judge = _Judge(scenario, att, tgt)
    labels: dict[str, Name] = {c.id: c.id if c.name is None else c.name for c in scenario.creatures}
    names = {"attacker": att.id, "target": tgt.id}
    reasons: list[Reason] = []
    adjacent = chebyshev(att, tgt) == 1
    reach = att.reach if att.reach is not None else DEFAULT_REACH.get(attack, 1)
    reachable = attack == "ranged" or in_reach(att, tgt, reach)
    has_reach = attack == "reach" or reach > 1
    melee_proc = attack == "melee" and adjacent and not has_reach
    all_corners = attack == "ranged" and tgt.size > 1

    if att.size > 1:
        reasons.append(Reason("grid.big", "attacker", {**names, "size": att.size}))
    if tgt.size > 1:
        key = "target-ranged" if all_corners else "target"
        reasons.append(Reason("grid.big", key, {**names, "size": tgt.size}))
    effect = line_of_effect(scenario, att, tgt)
    procedure: Procedure
    if melee_proc:
        best, procedure = _melee_best(judge, names, reasons), "melee"
    else:
        if attack != "ranged":
            reasons += _reach_reasons(scenario, att, tgt, reach, adjacent=adjacent)
        best = _ranged_best(judge, names, reasons, effect=effect, all_corners=all_corners)
        procedure = "ranged"
    category, partial = _category_of(best, procedure, names, reasons, effect=effect)
    soft = category == "soft"
    cover: CoverLevel = "cover" if category == "soft" else category
    ac, reflex = BONUS[category]
    _result_reasons(category, procedure, names, reasons)
    covered = category in ("partial", "cover", "improved", "total")
    stealth = covered
    stealth_bonus = IMPROVED_STEALTH_BONUS if category == "improved" else 0
    attack_allowed = category != "total" and reachable
    return GridRuling(
        attacker=att.id,
        target=tgt.id,
        attack=attack,
        procedure=procedure,
        cover=cover,
        soft=soft,
        ac=ac,
        reflex=reflex,
        stealth=stealth,
        stealth_bonus=stealth_bonus,
        attack_allowed=attack_allowed,
        attacks_of_opportunity=not covered,
        improved_evasion=category == "improved",
        corner=best.corner,
        attacker_square=best.a_square,
        target_square=best.t_square,
        lines=best.lines,
        partial=partial,
        in_reach=reachable,
        reasons=tuple(reasons),
        labels=labels,
    )


def _creatures(
    scenario: GridScenario, attacker_id: str, target_id: str, attack: str
) -> tuple[Creature, Creature, AttackKind]:
    """The attacker, the target and the attack of a grid attack, checked (:class:`QueryError`)."""
    if not isinstance(scenario, GridScenario):
        raise QueryError(f"grid cover needs a {GRID_FORMAT} file, not {type(scenario).__name__}")
    if attack not in ATTACKS:
        raise QueryError(f"unknown attack {attack!r}; expected one of {', '.join(ATTACKS)}")
    att = scenario.creature(attacker_id)
    tgt = scenario.creature(target_id)
    if att.id == tgt.id:
        raise QueryError(f"{att.id!r} cannot attack itself")
    return att, tgt, attack


def _melee_best(judge: _Judge, names: Mapping[str, str], reasons: list[Reason]) -> _Choice:
    """``grid.melee``: the attacker's best square pair (adjacent, no reach); the reasons say
    which and what obstructs it."""
    choices = judge.melee_choices()
    best = min(choices, key=lambda c: c.key)
    key = "adjacent-wall" if best.category == "cover" else "adjacent-clear"
    values = {**names, **_sq(best.a_square), "n": len(best.lines)}
    reasons.append(Reason("grid.melee", key, values))
    reasons += _obstruction_reasons(best.lines, "grid.melee", judge)
    return best


def _ranged_best(
    judge: _Judge,
    names: Mapping[str, str],
    reasons: list[Reason],
    *,
    effect: bool,
    all_corners: bool,
) -> _Choice:
    """``grid.ranged``: the attacker's best corner (and the target's square, or all its corners
    for a big target shot at); the reasons say which lines are clear and what obstructs them.
    Under total cover every line is blocked; the first choice shows that."""
    choices = judge.ranged_choices(
        stop_when_clear=True, first_only=not effect, all_corners=all_corners
    )
    best = min(choices, key=lambda c: c.key)
    clear = sum(1 for ln in best.lines if ln.clear)
    values = {
        **names,
        "x": best.corner[0],
        "y": best.corner[1],
        "clear": clear,
        "n": len(best.lines),
        **_sq(best.t_square),
    }
    reasons.append(Reason("grid.ranged", "corner-all" if all_corners else "corner", values))
    reasons += _obstruction_reasons(best.lines, "grid.ranged", judge)
    return best


def _category_of(
    best: _Choice,
    procedure: Procedure,
    names: Mapping[str, str],
    reasons: list[Reason],
    *,
    effect: bool,
) -> tuple[Category, PartialCover | None]:
    """The cover category of the best choice and the partial cover it suggests; without line
    of effect ``total`` (``grid.total``), where neither the partial-cover count nor the
    creatures on the lines (soft cover) matter any longer: their reasons are dropped."""
    if effect:
        return best.category, _partial_cover(best, procedure, names, reasons)
    reasons[:] = [x for x in reasons if x.message_id != "grid.soft/through"]
    reasons.append(Reason("grid.total", "", names))
    return "total", None


def _partial_cover(
    best: _Choice, procedure: Procedure, names: Mapping[str, str], reasons: list[Reason]
) -> PartialCover | None:
    """``grid.partial``: for the ranged procedure, partial cover is suggested when some lines
    are clear; the reasons say how many."""
    if procedure != "ranged":
        return None
    clear = sum(1 for ln in best.lines if ln.clear)
    n = len(best.lines)
    if best.category == "partial":
        reasons.append(Reason("grid.partial", "suggested", {**names, "clear": clear, "n": n}))
        return PartialCover(clear, n)
    if best.category == "cover":
        reasons.append(Reason("grid.partial", "not", {**names, "clear": clear, "n": n}))
    return None


def _result_reasons(
    category: Category, procedure: Procedure, names: Mapping[str, str], reasons: list[Reason]
) -> None:
    """The result (``grid.<procedure>``, ``grid.soft``, ``grid.improved``) and what follows
    from it (``grid.consequences``)."""
    ac, reflex = BONUS[category]
    if category in ("none", "soft", "cover", "partial"):
        values = {**names, "ac": ac, "reflex": reflex}
        reasons.append(Reason(f"grid.{procedure}", f"result-{category}", values))
    if category == "soft":
        reasons.append(Reason("grid.soft", "", names))
    if category == "improved":
        reasons.append(
            Reason("grid.improved", "", {**names, "ac": ac, "reflex": reflex, "stealth": 10})
        )
    covered = category in ("partial", "cover", "improved", "total")
    if covered:
        reasons.append(Reason("grid.consequences", "no-aoo", names))
        if category != "total":
            reasons.append(Reason("grid.consequences", "reflex", {**names, "reflex": reflex}))
        reasons.append(Reason("grid.consequences", "stealth", names))
    else:
        reasons.append(Reason("grid.consequences", f"aoo-{category}", names))
