"""One shooter's layer of the threat map: for a target at every position, may this shooter
attack it (``melee.engaged``, ``ranged.skill``, ``ranged.range``, ``ranged.los``), with which
weapon, and with what skill modifier (``cover.*`` by the cover rules' vector forms,
``melee.shoot-into``).

Only flat shots are decided here (the target on the ground, neither model Elevated); every
cell within the sure margin of a boundary, or whose rules have no vector form, is marked for
the exact path (:func:`fwwrules.ruling` on the scenario with the target added).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..attack import ranged_skill
from ..board import Board
from ..constants import THREAT_SURE_MARGIN_MM
from ..cover import CoverPositions, cover_layer
from ..data import Scenario
from ..elevation import standing_exclusions
from ..engagement import engagements
from ..kernels import Array, BoolArray, Fan, IndexArray
from ..los import SightPositions
from ..pieces import Weapon
from ..placement import SOLID_KINDS, centres_on
from ..ranges import band_limits, range_bands
from ..rulings import add_modifiers
from ..terrain import shot_kinds_pair
from ..thresholds import levels_apart
from .cost import Work
from .sight import Unsure, by_pieces_stood_on, sight_finish, sight_start

_DELTA = THREAT_SURE_MARGIN_MM
IntArray = NDArray[np.int32]
NO_REASON = 0
"""The reason code of a cell whose attack is allowed."""


class Clauses:
    """Clause ids by small integer code (code 0: no reason), in first-seen order."""

    def __init__(self, names: Sequence[str] = ("",)) -> None:
        self.names: list[str] = list(names)

    def code(self, clause: str) -> int:
        if clause not in self.names:
            self.names.append(clause)
        return self.names.index(clause)


@dataclass(eq=False)
class Layers:
    """The map's per-cell arrays, ``(positions, shooters)``, filled shooter by shooter."""

    allowed: BoolArray
    modifier: IntArray
    covered: BoolArray
    reason: NDArray[np.int16]
    weapon: NDArray[np.int16]
    exact: BoolArray

    @classmethod
    def empty(cls, n: int, k: int) -> Layers:
        return cls(
            allowed=np.zeros((n, k), dtype=bool),
            modifier=np.zeros((n, k), dtype=np.int32),
            covered=np.zeros((n, k), dtype=bool),
            reason=np.zeros((n, k), dtype=np.int16),
            weapon=np.zeros((n, k), dtype=np.int16),
            exact=np.zeros((n, k), dtype=bool),
        )


@dataclass(frozen=True, slots=True, eq=False)
class Target:
    """The target at every position: centres and standing height (mm), base radius and size,
    the shoot-into modifier where it is engaged, where it would be engaged with a model, and
    the positions grouped by the solid pieces without a height it stands on there
    (:func:`stood_on_groups`, once for every shooter)."""

    px: Array
    py: Array
    rt: float
    elev_mm: Array
    size: str
    into: IntArray
    engaged_with: Callable[[str], BoolArray]
    stood: Mapping[frozenset[str], BoolArray]
    on: Mapping[str, BoolArray]
    """The positions standing on each of those pieces (:func:`stood_on_pieces` of ``stood``)."""


def best_weapon(
    targets: Sequence[NDArray[np.int_]], allowed: Sequence[BoolArray]
) -> tuple[NDArray[np.intp], BoolArray]:
    """Which weapon a cell reports, for many positions at once (arrays) or one (0-d arrays):
    of the weapons (in ``weapons_of`` order) whose attack is ``allowed``, the one with the
    highest skill target (ties: the first); where none is allowed, the first. Returns the
    index into the weapons given and whether any is allowed. :func:`choose` is its one-cell
    case, on rulings.

    >>> import numpy as np
    >>> which, ok = best_weapon([np.array([5, 5, 9]), np.array([7, 5, 2])],
    ...                         [np.array([True, True, False]), np.array([True, True, False])])
    >>> which.tolist(), ok.tolist()
    ([1, 0, 0], [True, True, False])
    """
    shape = np.broadcast(*targets, *allowed).shape if targets else ()
    best = np.full(shape, np.iinfo(np.int64).min, dtype=np.int64)
    which = np.zeros(shape, dtype=np.intp)
    for k, (value, ok) in enumerate(zip(targets, allowed, strict=True)):
        better = ok & (np.asarray(value, dtype=np.int64) > best)
        best = np.where(better, value, best)
        which = np.where(better, k, which)
    return which, np.asarray(best > np.iinfo(np.int64).min)


def choose(rulings: Sequence[Any]) -> int:
    """Which of a shooter's rulings (one per weapon, in ``weapons_of`` order) a cell reports:
    the allowed one with the highest ``skill.target`` (ties: the first), else the first
    (:func:`best_weapon` at one position)."""
    if not rulings:
        return 0
    targets = [
        np.asarray(r.skill.target if r.skill.target is not None else -(10**9)) for r in rulings
    ]
    which, _ = best_weapon(targets, [np.asarray(bool(r.allowed)) for r in rulings])
    return int(which)


def weapon_indices(weapons: Sequence[Weapon], choice: str) -> tuple[int, ...]:
    """Which of a shooter's weapons (``Scenario.weapons_of`` order) a cell may report:
    all of them for ``"best"``; only the named one when the shooter carries it; all of them
    (its best) when it does not.

    >>> from fwwrules.pieces import IMPROVISED_WEAPON
    >>> weapon_indices((IMPROVISED_WEAPON,), "best"), weapon_indices((IMPROVISED_WEAPON,), "laser")
    ((0,), (0,))
    """
    for k, w in enumerate(weapons):
        if choice != "best" and w.id == choice:
            return (k,)
    return tuple(range(len(weapons)))


def reach_end(scenario: Scenario, weapon: Weapon, rt: float) -> float:
    """The farthest edge-to-edge distance (mm) at which :func:`fwwrules.ranges.range_bands`
    still puts a base of radius ``rt`` in a band: the long ruler's end (or the short one's),
    plus whatever ruler tolerance the engine applies, found by bisecting the engine's own
    answer (so the fast path follows it exactly)."""
    short_end, long_end = band_limits(scenario, weapon)
    end = long_end if long_end is not None else short_end

    def inside(x: float) -> bool:
        return bool(range_bands(scenario, weapon, x, x + 2 * rt).bands)

    lo, hi = end - 1.0, end + 10.0
    if not inside(lo) or inside(hi):  # pragma: no cover - a ruler of another shape
        return end
    while True:
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            return lo
        if inside(mid):
            lo = mid
        else:
            hi = mid


def _in_range(
    scenario: Scenario,
    sid: str,
    which: tuple[int, ...],
    t: Target,
    reasons: tuple[Clauses, NDArray[np.int16]],
    unsure: BoolArray,
) -> list[tuple[int, Weapon, BoolArray]]:
    """``ranged.skill`` and ``ranged.range`` per weapon: the usable weapons and where each
    reaches; the first weapon's refusal written into ``reasons`` (``ranged.los`` where it
    reaches); positions at a ruler's end or the minimum range set in ``unsure``."""
    clauses, first_reason = reasons
    model = scenario.model(sid)
    c = scenario.board.models[sid].disc
    d = np.hypot(t.px - c.x, t.py - c.y)
    nearest = np.maximum(d - c.r - t.rt, 0.0)
    usable: list[tuple[int, Weapon, BoolArray]] = []
    for wi, w in enumerate(scenario.weapons_of(model)):
        if wi not in which:
            continue
        if w.type == "melee":
            if wi == which[0]:
                first_reason[:] = clauses.code("melee.engaged")
            continue
        end = reach_end(scenario, w, t.rt)
        in_range = nearest <= end
        unsure |= np.abs(nearest - end) <= _DELTA
        if w.min_range is not None:
            lo = scenario.length_mm(w.min_range)
            unsure |= d - c.r - t.rt <= lo + 2 * t.rt + _DELTA
        has_skill = ranged_skill(model, w)[1] is not None
        if wi == which[0]:
            if not has_skill:
                first_reason[:] = clauses.code("ranged.skill")
            else:
                first_reason[:] = np.where(
                    in_range, clauses.code("ranged.los"), clauses.code("ranged.range")
                )
        if has_skill:
            usable.append((wi, w, in_range))
    return usable


@dataclass(frozen=True, slots=True, eq=False)
class Shots:
    """A shooter's flat shots left to line of sight and cover (:func:`look`, :func:`finish`): the
    shooter, its column, the positions and the usable weapons with where each reaches."""

    sid: str
    j: int
    need: BoolArray
    usable: list[tuple[int, Weapon, BoolArray]]


def shooter_layer(
    scenario: Scenario,
    sid: str,
    j: int,
    t: Target,
    live: BoolArray,
    cells: tuple[Layers, Clauses, BoolArray],
    choice: str = "best",
) -> Shots | None:
    """Fill column ``j`` (shooter ``sid``) of the layers at the ``live`` positions as far as
    the rules before line of sight decide it (engaged, stunned, skill, range, elevation);
    mark in ``hard`` (the third of ``cells``) the cells left to the exact path. Returns the
    flat shots left to :func:`look` and :func:`finish` (``None``: none), so that every cell the
    exact path gets from these rules is known before any line of sight is looked at."""
    out, clauses, hard = cells
    n = len(t.px)
    weapons = scenario.weapons_of(scenario.model(sid))
    which = weapon_indices(weapons, choice)
    # melee.engaged: an engaged shooter may attack only those it is engaged with.
    out.weapon[live, j] = which[0]  # the weapon reported where none may attack
    # melee.stunned: a Stunned shooter takes no Action but the Move that removes its marker.
    if scenario.model(sid).stunned:
        out.reason[live, j] = clauses.code("melee.stunned")
        return None
    if engagements(scenario).get(sid):
        out.reason[live, j] = clauses.code("melee.engaged")
        return None
    first_reason = np.zeros(n, dtype=np.int16)
    unsure = np.zeros(n, dtype=bool)
    usable = _in_range(scenario, sid, which, t, (clauses, first_reason), unsure)
    hard[live & unsure, j] = True
    out.reason[live, j] = first_reason[live]
    if not usable:
        return None
    any_in = np.zeros(n, dtype=bool)
    for _, _, ir in usable:
        any_in |= ir
    need = live & any_in & ~hard[:, j]
    # Elevation: the fast path takes flat shots only (target on the ground, neither Elevated).
    mg = scenario.board.models[sid]
    orange, rtol = scenario.ruler_mm("orange"), scenario.ruler_tolerance_mm
    diff = mg.elevation - t.elev_mm
    elevated = levels_apart(diff, orange, rtol) | levels_apart(-diff, orange, rtol)
    flat_bad = need & ((t.elev_mm > 0.0) | elevated)
    hard[flat_bad, j] = True
    need &= ~flat_bad
    return Shots(sid, j, need, usable) if need.any() else None


def passes(t: Target, need: BoolArray) -> Iterator[tuple[frozenset[str], BoolArray]]:
    """The groups of a shooter's flat shots at ``need`` its line of sight looks at: every
    group of positions standing on the same pieces (``t.stood``) that holds some of them,
    with those positions (the estimate's passes: the map counts them before any line of
    sight runs; one vectorised pass, :func:`look`, takes them all)."""
    for stood, group in t.stood.items():
        again = group & need
        if again.any():
            yield stood, again


@dataclass(eq=False)
class Looked:
    """A shooter's flat shots after every line-of-sight pass's cheap proofs
    (:func:`look`): where the target is visible so far, the positions each pass left to
    the costly proofs (:class:`~fwwrules.threat.sight.Unsure`, indices into all positions),
    and the kinds of terrain the cover rules look at."""

    shots: Shots
    visible: BoolArray
    rest: list[Unsure]
    cover_kinds: Any = None

    @property
    def proofs(self) -> int:
        """How many positions the costly proofs will take."""
        return sum(len(u.idx) for u in self.rest)


def look(scenario: Scenario, shots: Shots, t: Target, hard: BoolArray, work: Work) -> Looked:
    """The cheap line-of-sight proofs of ``shots``, in one pass over every position (each
    group of positions standing on the same pieces counted in ``work``); a shot without a
    vector form leaves its cells to the exact path (``hard``). :func:`finish` does the rest,
    once the map has counted it."""
    board = scenario.board
    sid, j = shots.sid, shots.j
    c = board.models[sid].disc
    excluded, out_of_sight = standing_exclusions(scenario, (sid,))
    looked = Looked(shots, np.zeros(len(t.px), dtype=bool), [])
    work.passes += sum(1 for _ in passes(t, shots.need))

    def sight_of(stood: frozenset[str]) -> SightPositions:
        kinds, looked.cover_kinds = shot_kinds_pair(
            board,
            attacker_huge=board.models[sid].size == "huge",
            target_huge=t.size == "huge",
            elevated_kind={},
            excluded=excluded,
            out_of_sight=out_of_sight | stood,
        )
        return SightPositions(scenario, sid, c, t.rt, kinds)

    # elevation.standing-on: the solid pieces without a height the target stands on block no
    # line of sight to it: each piece is left out for the positions on it, and the positions
    # left to the costly proofs are parted by the pieces they stand on
    first = _pass_sight(sight_of(frozenset()), Fan(c.x, c.y, t.px, t.py), t, shots.need)
    if first is None:
        hard[shots.need, j] = True
        return looked
    looked.visible[first[0]] = True
    if first[1] is not None:
        looked.rest.extend(by_pieces_stood_on(first[1], t.stood, sight_of))
    return looked


def finish(
    scenario: Scenario, looked: Looked, t: Target, cells: tuple[Layers, BoolArray], work: Work
) -> None:
    """Finish column ``looked.shots.j``: the costly line-of-sight proofs where the cheap ones
    left positions (counted in ``work``), then cover (:func:`_attack`)."""
    for u in looked.rest:
        seen, _ = sight_finish(u)
        looked.visible[u.idx[seen]] = True
        work.proofs += len(u.idx)
    _attack(scenario, looked, t, cells)


def stood_on_groups(
    board: Board, px: Array, py: Array, need: BoolArray
) -> dict[frozenset[str], BoolArray]:
    """The positions of ``need`` grouped by the solid pieces without a height their centre
    lies on (``elevation.standing-on`` by :mod:`fwwrules.placement`: a base there stands on
    them, at any elevation); the group of no piece holds the positions on none. The groups
    part ``need``: each position is looked at once, with the pieces it stands on left out."""
    pieces = [
        t for t in board.terrain.values() if t.kind in SOLID_KINDS and not (t.height or 0.0) > 0.0
    ]
    ons = [centres_on(board, t, px, py) & need for t in pieces]
    hit = [k for k, on in enumerate(ons) if on.any()]
    out: dict[frozenset[str], BoolArray] = {}
    if len(hit) > 62:  # more pieces than bits
        return _many_stood_on([pieces[k].id for k in hit], [ons[k] for k in hit], need)
    # the pieces under each position as one integer (bit b: the b-th piece hit)
    code = np.zeros(len(px), dtype=np.int64)
    for b, k in enumerate(hit):
        code |= ons[k].astype(np.int64) << b
    for value in np.unique(code[need]).tolist():
        stood = frozenset(pieces[hit[b]].id for b in range(len(hit)) if value >> b & 1)
        out[stood] = need & (code == value)
    return out


def stood_on_pieces(groups: Mapping[frozenset[str], BoolArray]) -> dict[str, BoolArray]:
    """The positions standing on each piece, from :func:`stood_on_groups`' groups."""
    out: dict[str, BoolArray] = {}
    for pieces, group in groups.items():
        for tid in pieces:
            out[tid] = out[tid] | group if tid in out else group.copy()
    return out


def _many_stood_on(
    ids: list[str], ons: list[BoolArray], need: BoolArray
) -> dict[frozenset[str], BoolArray]:
    """:func:`stood_on_groups` for more pieces than an integer has bits (``ons[k]``: the
    positions on piece ``ids[k]``, each hit somewhere): the positions on no piece or on one
    (most of them) grouped by the index of that piece; those on several by their rows of
    pieces, packed into bytes and sorted once."""
    rows = np.stack(ons, axis=1)
    count = rows.sum(axis=1)
    first = rows.argmax(axis=1)
    out: dict[frozenset[str], BoolArray] = {}
    none = need & (count == 0)
    if none.any():
        out[frozenset()] = none
    one = need & (count == 1)
    for k in np.unique(first[one]).tolist():
        out[frozenset((ids[k],))] = one & (first == k)
    several = np.flatnonzero(need & (count > 1))
    if len(several):
        packed = np.ascontiguousarray(np.packbits(rows[several], axis=1))
        keys = packed.view(np.dtype((np.void, packed.shape[1]))).reshape(-1)
        _, first_of, index = np.unique(keys, return_index=True, return_inverse=True)
        for g, i in enumerate(first_of.tolist()):
            group = np.zeros(len(need), dtype=bool)
            group[several[index.reshape(-1) == g]] = True
            out[frozenset(ids[k] for k in np.flatnonzero(rows[several[i]]))] = group
    return out


_SUBSET_BELOW = 0.5
"""A line-of-sight pass over fewer than this share of the positions works on arrays of its
own positions only (:meth:`~fwwrules.kernels.Fan.subset`), so that it costs what its
positions cost and keeps only what it leaves to the costly proofs; a larger one shares the
shooter's fan."""


def _pass_sight(
    p: SightPositions, fan: Fan, t: Target, again: BoolArray
) -> tuple[IndexArray, Unsure | None] | None:
    """The cheap proofs of a line-of-sight pass (:func:`~fwwrules.threat.sight.sight_start`,
    each piece left out for the positions standing on it: ``t.on``) over the positions of
    ``again``: the indices of those proved visible and what is left to the costly proofs
    (indices into all positions), or ``None`` when the exact path decides them. The answer
    at each position is the same whatever positions are asked with it (each proof decides a
    position by itself)."""
    if again.sum() >= _SUBSET_BELOW * len(again):
        first = sight_start(p, fan, t.px, t.py, again, t.on)
        if first is None:
            return None
        return np.flatnonzero(first[0] & again), first[2]
    idx = np.flatnonzero(again)
    px, py = t.px[idx], t.py[idx]
    on = {tid: where[idx] for tid, where in t.on.items()}
    first = sight_start(p, fan.subset(idx), px, py, np.ones(len(idx), dtype=bool), on)
    if first is None:
        return None
    rest = first[2]
    return idx[first[0]], None if rest is None else dataclasses.replace(rest, idx=idx[rest.idx])


def _attack(scenario: Scenario, looked: Looked, t: Target, cells: tuple[Layers, BoolArray]) -> None:
    """Cover for the shots of ``looked`` where the target is visible; the best usable
    weapon, the skill modifier (the cover rules' modifiers and ``melee.shoot-into``, added
    as a ruling adds them) where the attack is allowed."""
    out, hard = cells
    sid, j, usable, visible = looked.shots.sid, looked.shots.j, looked.shots.usable, looked.visible
    model = scenario.model(sid)
    c = scenario.board.models[sid].disc
    if looked.cover_kinds is None or not visible.any():
        return
    fan = Fan(c.x, c.y, t.px, t.py)
    where = CoverPositions(scenario, model, c, t.rt, fan, visible, t.engaged_with)
    cover = cover_layer(where, looked.cover_kinds, skip=(sid,))
    hard[cover.unsure, j] = True
    ok = visible & ~cover.unsure
    values = [np.full(len(t.px), ranged_skill(model, w)[1] or 0) for _, w, _ in usable]
    which, allowed = best_weapon(values, [ok & ir for _, _, ir in usable])
    best_index = np.asarray([wi for wi, _, _ in usable], dtype=np.int16)[which]
    by_clause: dict[str, IntArray] = {}
    add_modifiers(by_clause, cover.modifiers.items())
    add_modifiers(by_clause, [("melee.shoot-into", t.into)])
    modifier = sum(by_clause.values(), np.zeros(len(t.px), dtype=np.int32))
    out.allowed[allowed, j] = True
    out.weapon[allowed, j] = best_index[allowed]
    out.modifier[allowed, j] = modifier[allowed]
    out.covered[allowed, j] = cover.covered[allowed]
    out.reason[allowed, j] = NO_REASON
