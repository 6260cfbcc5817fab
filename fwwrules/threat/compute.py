"""The threat map's orchestration: every shooter's layer over the placeable positions, then
the exact path (:func:`fwwrules.ruling` on the scenario with the target added) for every cell
the layers left to it; and, after a move, which cells a move can change.

Boundary cases
--------------
* A position whose base touches an enemy's base is a close combat position: the cell is the
  close combat ruling (melee weapons included), decided on the exact path.
* A position within the sure margin of contact with any base, or touching a base off the
  ground or a Huge base, is decided on the exact path for every shooter.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ..attack import ruling
from ..board import size_class
from ..cache import Moved
from ..checks import checked, mark_checked
from ..constants import THREAT_BUDGET_S, THREAT_SURE_MARGIN_MM
from ..data import Scenario
from ..engagement import engagements, in_contact_v
from ..errors import QueryError
from ..geometry import prepared_for
from ..kernels import Array, BoolArray, segment_point_distance
from ..pieces import Model
from ..placement import on_table_v, placeable_v, standing_height_v
from ..rulesets import ruleset
from ..thresholds import contact_reach
from .cost import Load, TooCostly, Work, load_of, work_seconds
from .shooter import (
    NO_REASON,
    Clauses,
    Layers,
    Looked,
    Shots,
    Target,
    choose,
    finish,
    look,
    passes,
    shooter_layer,
    stood_on_groups,
    stood_on_pieces,
    weapon_indices,
)

_DELTA = THREAT_SURE_MARGIN_MM


@dataclass(frozen=True, slots=True)
class Query:
    """What a threat map asks: a target of ``side`` (as a model of ``faction`` with the id
    ``target_id``) and ``base`` (scenario units), under ``rules``, against ``shooters``, with
    ``weapon`` (``"best"`` or a weapon id)."""

    side: str
    faction: str
    target_id: str
    base: float
    rules: str
    shooters: tuple[str, ...]
    weapon: str = "best"

    def target_at(self, x: float, y: float, elevation: float = 0.0) -> Model:
        return Model(
            id=self.target_id, faction=self.faction, base=self.base, at=(x, y), elevation=elevation
        )


@dataclass(frozen=True, slots=True, eq=False)
class Computed:
    """The map's arrays: placeable positions, their standing height (scenario units), the
    cells, and the clause ids the reason codes stand for."""

    placeable: BoolArray
    elevation: Array
    layers: Layers
    clauses: tuple[str, ...]
    work: Work = dataclasses.field(default_factory=Work)
    """What computing them did (the estimate's units, :class:`~fwwrules.threat.cost.Work`)."""
    plan: Work = dataclasses.field(default_factory=Work)
    """What the estimate counted before doing it (bounds ``work``; an update is not
    estimated, its plan counts every cell as a whole map would)."""


def with_model(scenario: Scenario, model: Model) -> Scenario:
    """``scenario`` with ``model`` added (last), its cache started from ``scenario``'s
    (:meth:`~fwwrules.cache.Derived.carry_moved`: the terrain's derived geometry shared, the
    other models' bases, the pieces under them and their engagements carried). Equal to
    ``dataclasses.replace(scenario, models=(*scenario.models, model))`` in every ruling (the
    exactness tests compare with that); only faster when many positions are tried.

    Boundary case: a model whose id is already taken is refused (``QueryError``).
    """
    if any(m.id == model.id for m in scenario.models):
        raise QueryError(f"model id {model.id!r} is already taken")
    checked(scenario)  # once per scenario: a look-up after the first
    # what every position shares, computed once on the scenario without the target
    engagements(scenario)
    prepared_for(scenario.derived)
    out = dataclasses.replace(scenario, models=(*scenario.models, model))
    out.derived.carry_moved(scenario.derived, Moved(scenario, out, frozenset({model.id})))
    return mark_checked(out)  # the map placed the target by its own rule (positions.placeable)


def _exact_cell(scn: Scenario, q: Query, j: int, i: int, cells: tuple[Layers, Clauses]) -> int:
    """Cell ``(i, j)`` from the rulings themselves (one per weapon the cell may report); how
    many rulings that took."""
    out, clauses = cells
    sid = q.shooters[j]
    weapons = scn.weapons_of(scn.model(sid))
    which = weapon_indices(weapons, q.weapon)
    rs = [ruling(scn, sid, q.target_id, weapon=weapons[k].id, rules=q.rules) for k in which]
    c = choose(rs)
    r = rs[c]
    out.weapon[i, j] = which[c]
    out.allowed[i, j] = r.allowed
    out.modifier[i, j] = r.skill.modifier if r.allowed else 0
    out.covered[i, j] = bool(r.cover) if r.allowed else False
    out.reason[i, j] = NO_REASON if r.allowed else clauses.code(r.not_allowed[0])
    out.exact[i, j] = True
    return len(rs)


def _rulings(scenario: Scenario, q: Query, hard: BoolArray) -> int:
    """The rulings the fast path left: one per ``hard`` cell and weapon it may report."""
    rulings = 0
    for j, sid in enumerate(q.shooters):
        cells = int(hard[:, j].sum())
        if cells:
            weapons = scenario.weapons_of(scenario.model(sid))
            rulings += cells * len(weapon_indices(weapons, q.weapon))
    return rulings


def _afford(load: Load, plan: Work, positions: int, looked: float = 1.0) -> None:
    """Raise :class:`~fwwrules.threat.cost.TooCostly` when the work ``plan`` of a map of
    ``positions`` exceeds the budget. ``looked`` < 1: the share of the shooters whose
    passes' cheap proofs are done (the costly proofs counted so far are a lower bound; the
    refusal's estimate, from which it names a step, takes the others as alike)."""
    if work_seconds(load, plan) <= THREAT_BUDGET_S:
        return
    whole = dataclasses.replace(plan, proofs=math.ceil(plan.proofs / looked))
    raise TooCostly(positions, whole, work_seconds(load, whole), load.seconds(0), looked < 1.0)


def _start(n: int, k: int, only: BoolArray | None, prior: Computed | None) -> Layers:
    """Empty layers, or ``prior``'s with the ``only`` cells cleared."""
    if prior is None or only is None:
        return Layers.empty(n, k)
    p = prior.layers
    return Layers(
        allowed=np.where(only, False, p.allowed),
        modifier=np.where(only, 0, p.modifier).astype(np.int32),
        covered=np.where(only, False, p.covered),
        reason=np.where(only, 0, p.reason).astype(np.int16),
        weapon=np.where(only, 0, p.weapon).astype(np.int16),
        exact=np.where(only, False, p.exact),
    )


def _contacts(
    scenario: Scenario, q: Query, px: Array, py: Array, elev_mm: Array
) -> tuple[BoolArray, dict[str, BoolArray], BoolArray]:
    """``melee.engaged`` with the target: the positions left to the ruling for every shooter
    (within the margin of contact; touching off the ground or a Huge base: ``cover.huge`` is
    not for a target engaged with it), where the target touches each model, and where it is
    engaged (``melee.shoot-into``: the modifier only; the numbers do not change the cell)."""
    board = scenario.board
    rt = q.base * scenario.unit_mm / 2
    touch_limit = contact_reach(board.contact_tolerance)
    probe = q.target_at(0.0, 0.0)
    n = len(px)
    unsure = np.zeros(n, dtype=bool)
    engaged = np.zeros(n, dtype=bool)
    touching: dict[str, BoolArray] = {}
    for m in scenario.models:
        mg = board.models[m.id]
        gap, touch = in_contact_v(scenario, m.id, px, py, rt, elev_mm)
        if not (gap <= touch_limit + _DELTA).any():
            continue
        unsure |= np.abs(gap - touch_limit) <= _DELTA
        ground_both = (elev_mm == 0.0) & (mg.elevation == 0.0)
        unsure |= touch & (~ground_both | (mg.size == "huge"))
        touching[m.id] = touch
        if scenario.opposing(probe, m):
            engaged |= touch
    return unsure, touching, engaged


def compute(
    scenario: Scenario,
    q: Query,
    pts: Array,
    *,
    only: BoolArray | None = None,
    prior: Computed | None = None,
) -> Computed:
    """The map's cells at ``pts`` (scenario units); with ``only`` (``(positions, shooters)``)
    just those cells, the others taken from ``prior`` (a map of the same positions, shooters
    and target)."""
    u = scenario.unit_mm
    n, k = len(pts), len(q.shooters)
    px, py = pts[:, 0] * u, pts[:, 1] * u
    rt = q.base * u / 2
    elev_mm = standing_height_v(scenario.board, px, py)
    where = placeable_v(scenario.board, px, py, rt, elev_mm) & on_table_v(scenario, px, py, rt)
    clauses = Clauses(prior.clauses if prior is not None and only is not None else ("",))
    out = _start(n, k, only, prior)
    if prior is None or only is None:
        only = np.ones((n, k), dtype=bool)
    hard = np.zeros((n, k), dtype=bool)
    unsure, touching, engaged = _contacts(scenario, q, px, py, elev_mm)
    hard[where & unsure, :] = True
    hard &= only
    live = where & ~unsure
    probe = q.target_at(0.0, 0.0)
    nobody = np.zeros(n, dtype=bool)

    def engaged_with(model_id: str) -> BoolArray:
        m = scenario.model(model_id)
        return touching.get(model_id, nobody) & scenario.opposing(probe, m)

    into = np.where(engaged, ruleset(q.rules).shoot_into_modifier, 0).astype(np.int32)
    stood = stood_on_groups(scenario.board, px, py, where)
    load, work, plan = load_of(scenario, k), Work(), Work(cells=n * k)
    on = stood_on_pieces(stood)
    target = Target(px, py, rt, elev_mm, size_class(2 * rt), into, engaged_with, stood, on)
    shots: list[Shots] = []
    for j, sid in enumerate(q.shooters):
        if sid in touching:
            hard[live & touching[sid] & only[:, j], j] = True
        mine = live & only[:, j] & ~hard[:, j]
        if mine.any():
            work.cells += int(mine.sum())
            left = shooter_layer(scenario, sid, j, target, mine, (out, clauses, hard), q.weapon)
            shots += [left] if left is not None else []
    # the passes and the exact path counted before any line of sight (most of it) ...
    plan.passes = sum(1 for left in shots for _ in passes(target, left.need))
    plan.rulings = _rulings(scenario, q, hard)
    if prior is None:
        _afford(load, plan, n)
    # ... the costly line-of-sight proofs once every pass's cheap proofs are done ...
    looked: list[Looked] = []
    for left in shots:  # refused as soon as the proofs counted so far do not fit
        looked.append(look(scenario, left, target, hard, work))
        plan.proofs = sum(x.proofs for x in looked)
        if prior is None:
            _afford(load, plan, n, len(looked) / len(shots))
    plan.rulings = _rulings(scenario, q, hard)
    if prior is None:
        _afford(load, plan, n)
    for x in looked:
        finish(scenario, x, target, (out, hard), work)
    plan.rulings = _rulings(scenario, q, hard)  # ... and the cells line of sight left
    if prior is None:
        _afford(load, plan, n)
    # The exact path: fwwrules.ruling on the scenario with the target added.
    for i in np.flatnonzero(hard.any(axis=1)).tolist():
        model = q.target_at(float(pts[i, 0]), float(pts[i, 1]), float(elev_mm[i] / u))
        scn = with_model(scenario, model)
        for j in np.flatnonzero(hard[i]).tolist():
            work.rulings += _exact_cell(scn, q, j, i, (out, clauses))
    elevation = elev_mm / u
    for arr in (where, elevation, *(getattr(out, f.name) for f in dataclasses.fields(out))):
        arr.setflags(write=False)
    return Computed(where, elevation, out, tuple(clauses.names), work, plan)


def affected(old: Scenario, new: Scenario, moved: set[str], q: Query, pts: Array) -> BoolArray:
    """The cells a move of the ``moved`` models can change (see
    :meth:`fwwrules.threat.ThreatMap.update`), as a ``(positions, shooters)`` mask."""
    u = new.unit_mm
    px, py = pts[:, 0] * u, pts[:, 1] * u
    rt = q.base * u / 2
    n, k = len(px), len(q.shooters)
    only = np.zeros((n, k), dtype=bool)
    eng_old, eng_new = engagements(old), engagements(new)
    changed = {mid for mid in eng_new if set(eng_new[mid]) != set(eng_old.get(mid, ()))}
    whole = moved | changed
    for j, sid in enumerate(q.shooters):
        if sid in whole:
            only[:, j] = True
    reach_contact = rt + contact_reach(new.contact_tolerance_mm) + 1.0
    for mid in whole:
        for scn in (old, new):
            d = scn.board.models[mid].disc
            only[np.hypot(px - d.x, py - d.y) <= d.r + reach_contact, :] = True
    for j, sid in enumerate(q.shooters):
        if sid in whole:
            continue
        c = new.board.models[sid].disc
        reach = max(c.r, rt) + 1.0
        for mid in moved:
            for scn in (old, new):
                d = scn.board.models[mid].disc
                dist = segment_point_distance(c.x, c.y, px, py, d.x, d.y)
                only[dist <= d.r + reach, j] = True
    return only
