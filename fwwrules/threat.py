"""Threat map: what the enemy can do to a model standing at each position of the board.

:func:`threat_map` places a model of one side (its base given) at every position of a grid,
or at given positions, and asks for each enemy model what :func:`fwwrules.ruling` says about
an attack on it: allowed or not (and the first clause that refuses it), the total skill
modifier and whether cover applies. Summary layers count the shooters that can attack, those
that can attack without cover, and the best modifier among them.

Every cell equals what :func:`fwwrules.ruling` says for a model of that base and side
standing there (the exactness test in ``tests/test_threat_map.py`` checks random boards,
random positions and boundary positions against it). Most cells are decided by a vectorised
fast path (numpy over all positions, per shooter and per piece); every cell the fast path
cannot decide with a margin of :data:`~fwwrules.constants.THREAT_SURE_MARGIN_MM` from every
boundary (a base touching a piece or a base, a range end, a sight line grazing a corner, an
Elevated shot, a Huge model in the way) is decided by :func:`fwwrules.ruling` itself, on the
scenario with the target model added.

Definitions
-----------
* **The target model** at a position has the given base and a faction of ``target_side``;
  the shooters are every model opposing it (``Scenario.opposing``), in file order.
* **Standing** (``elevation.standing-on``): the model stands on the ground, or, when its
  centre lies on pieces with a height (outline included), on top of the highest of them
  (its elevation is that height, so it stands on all of them).
* **Unplaceable**: the base would overlap another model's base on the same level by more than
  the contact tolerance (as a file would be refused), or would reach more than the contact
  tolerance into a ``blocking`` or ``dense-area`` piece (declared kind) it does not stand
  on. A base exactly touching a piece or a base is placeable (touching a base: engaged).
* **Best weapon**: of the shooter's weapons (``Scenario.weapons_of``: card order, the
  Improvised Weapon last) whose ruling is allowed, the one with the highest adjusted skill
  value (``skill.target``), ties by that order. When none is allowed, the cell reports the
  first weapon (the one ``fwwrules ruling`` takes without ``--weapon``) and the first clause
  of its ``not_allowed``.
* **A named weapon** (``weapon="laser-rifle"``): a shooter carrying it is judged with it
  alone (not allowed: the first clause of its ``not_allowed``); a shooter without it keeps
  its best weapon.
* ``modifier`` is the chosen ruling's ``skill.modifier`` and ``covered`` whether its
  ``cover`` list is non-empty; both are meaningful only where the attack is allowed.

Boundary cases
--------------
* A position whose base touches an enemy's base is a close combat position: the cell is the
  close combat ruling (melee weapons included), exactly as ``fwwrules ruling`` gives it.
* Positions are the centres of the target's base, in the scenario's units.
* A grid covers the given ``area`` (default: every base and piece plus one target base) with
  cells of ``step``; positions are the cell centres, the grid centred on the area.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

import fwwrules.board as _board_module

from .attack import ruling
from .board import SIZE_RANK, Board, Disc, size_class
from .cache import Key, Moved
from .catalogue import check_lang
from .close_combat import SHOOT_INTO_MODIFIER
from .constants import (
    BOUNDARY_TOLERANCE_MM,
    LENGTH_EPSILON_MM,
    MAX_THREAT_POSITIONS,
    THREAT_SURE_MARGIN_MM,
)
from .cover import COVER_MODIFIER
from .data import Scenario
from .elevation import pieces_under
from .engagement import engagements
from .errors import QueryError
from .geometry import disc_passage, find_clear_segment, passage, prepared_for
from .pieces import IMPROVISED, Model, Weapon
from .ranges import band_limits, range_bands
from .rulesets import ruleset_name
from .terrain import AREA_KINDS, BLOCKS_LOS, merged, shot_kinds
from .thresholds import reaches_ruler

THREAT_FORMAT = "fwwrules/threat@1"
"""The ``format`` of ``fwwrules threat --json``."""

DEFAULT_BASE_MM = 32.0
"""The target's base when none is given: the rulebook's Normal base."""

DEFAULT_STEP_MM = 6.35
"""The grid step when none is given: a quarter inch (grown to stay within the limit)."""

Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
_DELTA = THREAT_SURE_MARGIN_MM

NO_REASON = 0


@dataclass(frozen=True, slots=True)
class ThreatCell:
    """One position and one shooter: the ruling's outcome, reduced."""

    shooter: str
    weapon: str
    allowed: bool
    modifier: int | None
    covered: bool | None
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "allowed": self.allowed,
            "modifier": self.modifier,
            "reason": self.reason,
            "weapon": self.weapon,
        }


@dataclass(frozen=True, slots=True, eq=False)
class ThreatMap:
    """The result of :func:`threat_map`. Arrays are read-only; index ``[position, shooter]``.

    ``positions`` is ``(P, 2)`` in scenario units; for a grid, ``shape`` is ``(ny, nx)`` and
    the positions run row by row (``positions.reshape(ny, nx, 2)``), else ``shape`` is None.
    """

    scenario: Scenario
    side: str
    faction: str
    target_id: str
    base: float
    step: float | None
    rules: str
    shooters: tuple[str, ...]
    positions: Array
    shape: tuple[int, int] | None
    placeable: BoolArray
    elevation: Array
    allowed: BoolArray
    modifier: NDArray[np.int32]
    covered: BoolArray
    reason: NDArray[np.int16]
    weapon: NDArray[np.int16]
    exact: BoolArray
    clauses: tuple[str, ...] = field(default=("",))
    weapon_choice: str = "best"
    """``"best"``, or the weapon id asked for (shooters without it use their best weapon)."""

    # --- summary layers ---------------------------------------------------------------------
    @property
    def attackers(self) -> NDArray[np.int64]:
        """Per position: how many shooters may attack (0 where unplaceable)."""
        return np.asarray(self.allowed.sum(axis=1), dtype=np.int64)

    @property
    def uncovered(self) -> NDArray[np.int64]:
        """Per position: how many shooters may attack without any cover applying."""
        return np.asarray((self.allowed & ~self.covered).sum(axis=1), dtype=np.int64)

    @property
    def best_modifier(self) -> Array:
        """Per position: the highest skill modifier among the shooters that may attack (NaN
        where none may, or the position is unplaceable)."""
        m = np.where(self.allowed, self.modifier.astype(np.float64), -np.inf)
        best = m.max(axis=1) if m.shape[1] else np.full(len(self.positions), -np.inf)
        return np.where(np.isfinite(best), best, np.nan)

    def layer(self, name: str) -> Array:
        """A summary layer by name: ``attackers``, ``uncovered`` or ``best-modifier``, as
        floats with NaN where the position is unplaceable."""
        if name == "attackers":
            values = self.attackers.astype(np.float64)
        elif name == "uncovered":
            values = self.uncovered.astype(np.float64)
        elif name == "best-modifier":
            values = self.best_modifier
        else:
            raise QueryError(
                f"unknown threat layer {name!r}; expected attackers, uncovered or best-modifier"
            )
        return np.where(self.placeable, values, np.nan)

    # --- cells ------------------------------------------------------------------------------
    def cell(self, position: int, shooter: int | str) -> ThreatCell | None:
        """The cell of one position and shooter (``None`` where the position is unplaceable)."""
        k = self.shooters.index(shooter) if isinstance(shooter, str) else shooter
        if not self.placeable[position]:
            return None
        sid = self.shooters[k]
        weapons = self.scenario.weapons_of(self.scenario.model(sid))
        allowed = bool(self.allowed[position, k])
        code = int(self.reason[position, k])
        return ThreatCell(
            shooter=sid,
            weapon=weapons[int(self.weapon[position, k])].id,
            allowed=allowed,
            modifier=int(self.modifier[position, k]) if allowed else None,
            covered=bool(self.covered[position, k]) if allowed else None,
            reason=None if code == NO_REASON else self.clauses[code],
        )

    def nearest(self, x: float, y: float) -> int:
        """The index of the position nearest to ``(x, y)`` (scenario units)."""
        d = np.hypot(self.positions[:, 0] - x, self.positions[:, 1] - y)
        return int(np.argmin(d))

    def target_scenario(self, position: int) -> Scenario:
        """The scenario with the target model standing at ``position`` (for full rulings)."""
        x, y = (float(v) for v in self.positions[position])
        model = Model(
            id=self.target_id,
            faction=self.faction,
            base=self.base,
            at=(x, y),
            elevation=float(self.elevation[position]),
        )
        return with_model(self.scenario, model)

    def rulings(self, position: int) -> list[Any]:
        """The full rulings behind one position, one per shooter, with the reported weapon
        (``AttackRuling`` objects: ``explain("de")`` reads them in German)."""

        if not self.placeable[position]:
            return []
        scn = self.target_scenario(position)
        out = []
        for k, sid in enumerate(self.shooters):
            weapons = scn.weapons_of(scn.model(sid))
            w = weapons[int(self.weapon[position, k])]
            out.append(ruling(scn, sid, self.target_id, weapon=w.id, rules=self.rules))
        return out

    def update(self, scenario: Scenario, moved: str | Iterable[str]) -> ThreatMap:
        """The map for ``scenario``, which differs from this map's scenario only in where the
        ``moved`` models stand (``at``, ``elevation``): equal to a full :func:`threat_map`
        with this map's arguments, but only the cells a move can change are recomputed --
        a moved shooter's whole layer, every shooter whose engagements changed, every
        shooter at the positions near a moved model or a model whose engagements changed
        (placing, contact, close combat), and each other shooter at the positions whose
        line to it passes near a moved model's old or new place (line of sight behind a
        Huge model, cover by models).

        Boundary case: any other difference (terrain, rules, options, models added or
        removed, a side changed) recomputes the whole map.
        """
        ids = {moved} if isinstance(moved, str) else set(moved)
        old = self.scenario
        same = (
            len(scenario.models) == len(old.models)
            and all(
                a.id == b.id
                and (
                    a == b
                    or (a.id in ids and dataclasses.replace(a, at=b.at, elevation=b.elevation) == b)
                )
                for a, b in zip(old.models, scenario.models, strict=True)
            )
            and dataclasses.replace(scenario, models=old.models) == old
        )
        only = _affected(old, scenario, ids, self) if same else None
        return _compute(
            scenario,
            self.side,
            self.faction,
            self.target_id,
            self.base,
            self.step,
            self.rules,
            self.shooters,
            np.array(self.positions),
            self.shape,
            only=only,
            prior=self if same else None,
            weapon=self.weapon_choice,
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``fwwrules/threat@1`` JSON (placeable positions only)."""
        idx = np.flatnonzero(self.placeable)
        cells = []
        for i in idx.tolist():
            row = []
            for k in range(len(self.shooters)):
                c = self.cell(i, k)
                assert c is not None
                row.append(c.to_dict())
            cells.append(row)
        return {
            "format": THREAT_FORMAT,
            "side": self.side,
            "base": self.base,
            "step": self.step,
            "units": self.scenario.units,
            "rules": self.rules,
            "weapon": self.weapon_choice,
            "shooters": list(self.shooters),
            "positions": [[_num(x), _num(y)] for x, y in self.positions[idx].tolist()],
            "elevation": [_num(e) for e in self.elevation[idx].tolist()],
            "grid": None if self.shape is None else {"shape": list(self.shape)},
            "unplaceable": int(len(self.positions) - len(idx)),
            "cells": cells,
        }

    @property
    def stats(self) -> dict[str, int]:
        """How many cells there are and how many ``fwwrules.ruling`` decided itself."""
        live = self.placeable[:, None] & np.ones(len(self.shooters), dtype=bool)[None, :]
        return {"cells": int(live.sum()), "exact": int((self.exact & live).sum())}


def _num(v: float) -> float:
    return round(float(v), 6)


def with_model(scenario: Scenario, model: Model) -> Scenario:
    """``scenario`` with ``model`` added (last), its derived geometry built from
    ``scenario``'s instead of from scratch: the same terrain, index, merged solids, kinds and
    Significant Edges (they depend on the terrain only), the other models' geometry and the
    pieces under them, and the engagement graph with the new model's contacts added
    (``melee.engaged``, as :func:`fwwrules.engagement.engagements` finds them). Equal to
    ``dataclasses.replace(scenario, models=(*scenario.models, model))`` in every ruling (the
    exactness tests compare with that); only faster when many positions are tried.

    Boundary case: a model whose id is already taken is refused (``QueryError``).
    """
    if any(m.id == model.id for m in scenario.models):
        raise QueryError(f"model id {model.id!r} is already taken")
    # what every position shares, computed once on the scenario without the target
    engagements(scenario)
    prepared_for(scenario.derived)
    out = dataclasses.replace(scenario, models=(*scenario.models, model))
    out.derived.carry_moved(scenario.derived, Moved(scenario, out, frozenset({model.id})))
    return out


# ---------------------------------------------------------------------------------------------
# Public entry point
# ---------------------------------------------------------------------------------------------


def sides_of(scenario: Scenario) -> list[str]:
    """Every side of the scenario: declared ``sides`` and each model's side, in order."""
    out: list[str] = list(scenario.sides)
    for m in scenario.models:
        s = scenario.side_of(m.faction)
        if s not in out:
            out.append(s)
    return out


def threat_map(
    scenario: Scenario,
    target_side: str,
    base: float | None = None,
    step: float | None = None,
    rules: str | None = None,
    weapon: str = "best",
    *,
    positions: Sequence[tuple[float, float]] | None = None,
    area: tuple[float, float, float, float] | None = None,
) -> ThreatMap:
    """The threat map for a model of ``target_side`` with a base of ``base`` (scenario units;
    default a 32 mm base) at every position of a grid of ``step`` (default a quarter inch,
    grown so that the grid stays within :data:`~fwwrules.constants.MAX_THREAT_POSITIONS`),
    or at the given ``positions``. ``area`` is ``(x0, y0, x1, y1)`` in scenario units.

    Raises :class:`~fwwrules.errors.QueryError` for an unknown side, a base or step that is
    not a positive number, an unknown ``weapon`` (``"best"`` or a weapon id of the file,
    ``improvised`` included), or more positions than the limit.

    ``weapon``: ``"best"`` (each shooter's best weapon, see the module's definitions), or a
    weapon id: each shooter that carries it is judged with that weapon alone (the cell is
    what ``fwwrules ruling --weapon W`` says); a shooter that does not carry it keeps its
    best weapon (the cell's ``weapon`` says which).
    """
    rules = ruleset_name(scenario.rules, rules or None)
    if weapon != "best":
        known_weapons = [w.id for w in scenario.weapons] + [IMPROVISED]
        if weapon not in known_weapons:
            raise QueryError(
                f"unknown weapon {weapon!r}; expected best or a weapon id of the file "
                f"({', '.join(known_weapons)})"
            )
    known = sides_of(scenario)
    if target_side not in known:
        raise QueryError(f"unknown side {target_side!r}; known sides: {', '.join(known) or '-'}")
    u = scenario.unit_mm
    if base is None:
        base = DEFAULT_BASE_MM / u
    if not (isinstance(base, int | float) and math.isfinite(base) and base > 0):
        raise QueryError(f"base must be a positive number, got {base!r}")
    base = float(base)
    faction = _faction_of(scenario, target_side)
    target_id = _fresh_id(scenario)
    if positions is not None:
        pts = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
        if not np.isfinite(pts).all():
            raise QueryError("positions must be finite numbers")
        if len(pts) > MAX_THREAT_POSITIONS:
            raise QueryError(
                f"{len(pts)} positions is more than the limit of {MAX_THREAT_POSITIONS}"
            )
        shape: tuple[int, int] | None = None
        step_used: float | None = step
    else:
        pts, shape, step_used = _grid(scenario, base, step, area)
    probe = Model(id=target_id, faction=faction, base=base, at=(0.0, 0.0))
    shooters = tuple(m.id for m in scenario.models if scenario.opposing(probe, m))
    return _compute(
        scenario,
        target_side,
        faction,
        target_id,
        base,
        step_used,
        rules,
        shooters,
        pts,
        shape,
        weapon=weapon,
    )


def _faction_of(scenario: Scenario, side: str) -> str:
    if scenario.sides.get(side):
        return scenario.sides[side][0]
    for m in scenario.models:
        if scenario.side_of(m.faction) == side:
            return m.faction
    return side


def _fresh_id(scenario: Scenario) -> str:
    taken = {m.id for m in scenario.models} | {t.id for t in scenario.terrain}
    ident, n = "target", 1
    while ident in taken:
        n += 1
        ident = f"target-{n}"
    return ident


def default_area(scenario: Scenario, base: float) -> tuple[float, float, float, float]:
    """The table (``board: {size}``) when the file gives it; else every base and piece plus
    one target base around (:meth:`Scenario.limits_mm` with that margin), in scenario units
    as ``(x0, y0, x1, y1)``. An empty board without a size is 100 mm square."""
    u = scenario.unit_mm
    xmin, xmax, ymin, ymax = scenario.limits_mm(margin_mm=base * u)
    return (xmin / u, ymin / u, xmax / u, ymax / u)


def _grid(
    scenario: Scenario,
    base: float,
    step: float | None,
    area: tuple[float, float, float, float] | None,
) -> tuple[Array, tuple[int, int], float]:
    x0, y0, x1, y1 = area if area is not None else default_area(scenario, base)
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)) or x1 <= x0 or y1 <= y0:
        raise QueryError(f"area must be x0,y0,x1,y1 with x0 < x1 and y0 < y1, got {area!r}")
    w, h = x1 - x0, y1 - y0
    if step is None:
        step = DEFAULT_STEP_MM / scenario.unit_mm
        while _count(w, step) * _count(h, step) > MAX_THREAT_POSITIONS:
            step *= 1.25
    if not (isinstance(step, int | float) and math.isfinite(step) and step > 0):
        raise QueryError(f"step must be a positive number, got {step!r}")
    nx, ny = _count(w, step), _count(h, step)
    if nx * ny > MAX_THREAT_POSITIONS:
        smallest = math.sqrt(w * h / MAX_THREAT_POSITIONS)
        raise QueryError(
            f"a step of {step:g} gives {nx} x {ny} = {nx * ny} positions, more than the limit "
            f"of {MAX_THREAT_POSITIONS}; use a step of at least {math.ceil(smallest * 100) / 100:g}"
        )
    xs = x0 + (w - nx * step) / 2 + step * (np.arange(nx) + 0.5)
    ys = y0 + (h - ny * step) / 2 + step * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack((gx.ravel(), gy.ravel())), (ny, nx), float(step)


def _count(length: float, step: float) -> int:
    return max(1, math.floor(length / step + 1e-9))


# ---------------------------------------------------------------------------------------------
# The computation
# ---------------------------------------------------------------------------------------------


class _Clauses:
    def __init__(self) -> None:
        self.names: list[str] = [""]

    def code(self, clause: str) -> int:
        if clause not in self.names:
            self.names.append(clause)
        return self.names.index(clause)


@dataclass
class _Out:
    allowed: BoolArray
    modifier: NDArray[np.int32]
    covered: BoolArray
    reason: NDArray[np.int16]
    weapon: NDArray[np.int16]
    exact: BoolArray


def _compute(
    scenario: Scenario,
    side: str,
    faction: str,
    target_id: str,
    base: float,
    step: float | None,
    rules: str,
    shooters: tuple[str, ...],
    pts: Array,
    shape: tuple[int, int] | None,
    *,
    only: BoolArray | None = None,
    prior: ThreatMap | None = None,
    weapon: str = "best",
) -> ThreatMap:
    """The map; with ``only`` (``(positions, shooters)``) just those cells, the others taken
    from ``prior`` (a map of the same grid, shooters and target)."""
    board = scenario.board
    u = scenario.unit_mm
    n, k = len(pts), len(shooters)
    px, py = pts[:, 0] * u, pts[:, 1] * u
    rt = base * u / 2
    tol = board.contact_tolerance
    elev_mm = _standing_height(scenario, px, py)
    placeable, _ = _placement(scenario, px, py, rt, elev_mm)
    clauses = _Clauses()
    if prior is None or only is None:
        only = np.ones((n, k), dtype=bool)
        out = _Out(
            allowed=np.zeros((n, k), dtype=bool),
            modifier=np.zeros((n, k), dtype=np.int32),
            covered=np.zeros((n, k), dtype=bool),
            reason=np.zeros((n, k), dtype=np.int16),
            weapon=np.zeros((n, k), dtype=np.int16),
            exact=np.zeros((n, k), dtype=bool),
        )
    else:
        clauses.names = list(prior.clauses)
        out = _Out(
            allowed=np.where(only, False, prior.allowed),
            modifier=np.where(only, 0, prior.modifier).astype(np.int32),
            covered=np.where(only, False, prior.covered),
            reason=np.where(only, 0, prior.reason).astype(np.int16),
            weapon=np.where(only, 0, prior.weapon).astype(np.int16),
            exact=np.where(only, False, prior.exact),
        )
    hard = np.zeros((n, k), dtype=bool)
    orange = scenario.ruler_mm("orange")
    # melee.engaged: base contact with the target. A shooter touching it makes a close combat
    # attack (left to the ruling); every other shooter shoots into a melee when the target is
    # engaged (melee.shoot-into: the modifier only; the numbers do not change the cell).

    probe = Model(id=target_id, faction=faction, base=base, at=(0.0, 0.0))
    touch_limit = tol + LENGTH_EPSILON_MM
    unsure_all = np.zeros(n, dtype=bool)
    engaged_t = np.zeros(n, dtype=bool)
    touching: dict[str, BoolArray] = {}
    for m in scenario.models:
        mg = board.models[m.id]
        gap = np.hypot(px - mg.disc.x, py - mg.disc.y) - mg.disc.r - rt
        near = gap <= touch_limit + _DELTA
        if not near.any():
            continue
        unsure_all |= np.abs(gap - touch_limit) <= _DELTA
        touch = gap <= touch_limit
        ground_both = (elev_mm == 0.0) & (mg.elevation == 0.0)
        # off the ground, or touching a Huge model (cover.huge: not for a target engaged
        # with it): left to the ruling
        unsure_all |= touch & (~ground_both | (mg.size == "huge"))
        touching[m.id] = touch
        if scenario.opposing(probe, m):
            engaged_t |= touch
    hard[placeable & unsure_all, :] = True
    hard &= only
    live = placeable & ~unsure_all
    into = np.where(engaged_t, SHOOT_INTO_MODIFIER[rules], 0).astype(np.int32)
    target_size = size_class(2 * rt)
    for j, sid in enumerate(shooters):
        if sid in touching:
            hard[live & touching[sid] & only[:, j], j] = True
        if not (live & only[:, j] & ~hard[:, j]).any():
            continue
        _shooter_layer(
            scenario,
            sid,
            j,
            px,
            py,
            rt,
            tol,
            elev_mm,
            orange,
            target_size,
            live & only[:, j] & ~hard[:, j],
            rules,
            clauses,
            out,
            hard,
            into,
            weapon,
        )
    # The exact path: fwwrules.ruling on the scenario with the target added.
    todo = np.flatnonzero(hard.any(axis=1))
    if len(todo):
        partial = ThreatMap(
            scenario,
            side,
            faction,
            target_id,
            base,
            step,
            rules,
            shooters,
            pts,
            shape,
            placeable,
            elev_mm / u,
            out.allowed,
            out.modifier,
            out.covered,
            out.reason,
            out.weapon,
            out.exact,
        )
        for i in todo.tolist():
            scn = partial.target_scenario(i)
            for j in np.flatnonzero(hard[i]).tolist():
                _exact_cell(scn, shooters[j], target_id, rules, clauses, out, i, j, weapon)
    for arr in (
        pts,
        placeable,
        elev_mm,
        out.allowed,
        out.modifier,
        out.covered,
        out.reason,
        out.weapon,
        out.exact,
    ):
        arr.setflags(write=False)
    return ThreatMap(
        scenario=scenario,
        side=side,
        faction=faction,
        target_id=target_id,
        base=base,
        step=step,
        rules=rules,
        shooters=shooters,
        positions=pts,
        shape=shape,
        placeable=placeable,
        elevation=elev_mm / u,
        allowed=out.allowed,
        modifier=out.modifier,
        covered=out.covered,
        reason=out.reason,
        weapon=out.weapon,
        exact=out.exact,
        clauses=tuple(clauses.names),
        weapon_choice=weapon,
    )


def _affected(old: Scenario, new: Scenario, moved: set[str], prior: ThreatMap) -> BoolArray:
    """The cells of ``prior`` a move of the ``moved`` models can change (see
    :meth:`ThreatMap.update`), as a ``(positions, shooters)`` mask."""
    u = new.unit_mm
    px, py = prior.positions[:, 0] * u, prior.positions[:, 1] * u
    rt = prior.base * u / 2
    n, k = len(px), len(prior.shooters)
    only = np.zeros((n, k), dtype=bool)
    eng_old, eng_new = engagements(old), engagements(new)
    changed = {mid for mid in eng_new if set(eng_new[mid]) != set(eng_old.get(mid, ()))}
    whole = moved | changed
    for j, sid in enumerate(prior.shooters):
        if sid in whole:
            only[:, j] = True
    reach_contact = rt + new.contact_tolerance_mm + 1.0
    discs = []
    for mid in whole:
        for scn in (old, new):
            discs.append(scn.board.models[mid].disc)
    for d in discs:
        near = np.hypot(px - d.x, py - d.y) <= d.r + reach_contact
        only[near, :] = True
    for j, sid in enumerate(prior.shooters):
        if sid in whole:
            continue
        c = new.board.models[sid].disc
        reach = max(c.r, rt) + 1.0
        for mid in moved:
            for scn in (old, new):
                d = scn.board.models[mid].disc
                dist = _seg_point_distance(c.x, c.y, px, py, d.x, d.y)
                only[dist <= d.r + reach, j] = True
    return only


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


def choose(rulings: Sequence[Any]) -> int:
    """Which of a shooter's rulings (one per weapon, in ``weapons_of`` order) a cell reports:
    the allowed one with the highest ``skill.target`` (ties: the first), else the first."""
    best, best_value = 0, None
    for i, r in enumerate(rulings):
        if not r.allowed:
            continue
        value = r.skill.target if r.skill.target is not None else -(10**9)
        if best_value is None or value > best_value:
            best, best_value = i, value
    return best


def _exact_cell(
    scn: Scenario,
    sid: str,
    target_id: str,
    rules: str,
    clauses: _Clauses,
    out: _Out,
    i: int,
    j: int,
    choice: str = "best",
) -> None:
    weapons = scn.weapons_of(scn.model(sid))
    which = weapon_indices(weapons, choice)
    rs = [ruling(scn, sid, target_id, weapon=weapons[k].id, rules=rules) for k in which]
    c = choose(rs)
    r = rs[c]
    out.weapon[i, j] = which[c]
    out.allowed[i, j] = r.allowed
    out.modifier[i, j] = r.skill.modifier if r.allowed else 0
    out.covered[i, j] = bool(r.cover) if r.allowed else False
    out.reason[i, j] = NO_REASON if r.allowed else clauses.code(r.not_allowed[0])
    out.exact[i, j] = True


# --- standing and placement ------------------------------------------------------------------


def _standing_height(scenario: Scenario, px: Array, py: Array) -> Array:
    """``elevation.standing-on``: the height of the highest piece under each centre (0 if none)."""
    elev = np.zeros(len(px))
    for t in scenario.board.terrain.values():
        if t.height is None or t.height <= 0.0:
            continue
        on = shapely.intersects_xy(t.polygon, px, py)
        elev = np.where(on, np.maximum(elev, t.height), elev)
    return elev


def _near_box(geom: BaseGeometry, px: Array, py: Array, reach: float) -> NDArray[np.int64]:
    x0, y0, x1, y1 = geom.bounds
    m = (px >= x0 - reach) & (px <= x1 + reach) & (py >= y0 - reach) & (py <= y1 + reach)
    return np.flatnonzero(m)


def _placement(
    scenario: Scenario, px: Array, py: Array, rt: float, elev_mm: Array
) -> tuple[BoolArray, BoolArray]:
    """Placeable positions, and those in (or near) base contact with any model."""
    board = scenario.board
    tol = board.contact_tolerance
    n = len(px)
    placeable = np.ones(n, dtype=bool)
    contact = np.zeros(n, dtype=bool)
    for mg in board.models.values():
        d = mg.disc
        gap = np.hypot(px - d.x, py - d.y) - d.r - rt
        same = elev_mm == mg.elevation
        placeable &= ~(same & (gap < -tol))
        contact |= gap <= tol + _DELTA
    for t in board.terrain.values():
        if t.kind not in ("blocking", "dense-area"):
            continue
        idx = _near_box(t.polygon, px, py, rt)
        if not len(idx):
            continue
        if t.height is not None and t.height > 0.0:
            stands = (t.height <= elev_mm[idx] + LENGTH_EPSILON_MM) & shapely.intersects_xy(
                t.polygon, px[idx], py[idx]
            )
        else:
            stands = np.zeros(len(idx), dtype=bool)
        dist = shapely.distance(t.polygon, shapely.points(px[idx], py[idx]))
        inside = shapely.contains_xy(t.polygon, px[idx], py[idx])
        overlap = (inside | (dist < rt - tol)) & ~stands
        placeable[idx[overlap]] = False
    return placeable, contact


# --- convex parts ----------------------------------------------------------------------------


def _ring(poly: Polygon) -> Array:
    """The exterior of a convex polygon as counter-clockwise vertices (no repeat)."""
    oriented = shapely.geometry.polygon.orient(poly, 1.0)
    return np.asarray(oriented.exterior.coords)[:-1]


def _is_convex(poly: Polygon) -> bool:
    return bool(poly.convex_hull.area - poly.area <= 1e-9 * max(poly.area, 1.0))


def convex_parts(geom: BaseGeometry) -> list[Polygon]:
    """Convex polygons whose union is ``geom`` (a polygon, possibly with holes, or several)."""
    polys = list(getattr(geom, "geoms", [geom]))
    parts: list[Polygon] = []
    for poly in polys:
        if poly.is_empty:
            continue
        if not poly.interiors and _is_convex(poly):
            parts.append(poly)
            continue
        tris = [t for t in shapely.constrained_delaunay_triangles(poly).geoms if t.area > 0]
        parts.extend(_merge_convex(tris))
    return parts


def _merge_convex(tris: list[Polygon]) -> list[Polygon]:
    """Greedily join neighbouring convex pieces while the union stays convex."""
    pieces = list(tris)
    merged_any = True
    while merged_any and len(pieces) > 1:
        merged_any = False
        for a in range(len(pieces)):
            for b in range(a + 1, len(pieces)):
                pa, pb = pieces[a], pieces[b]
                if pa.intersection(pb).length <= 0:
                    continue
                union = shapely.union(pa, pb)
                if isinstance(union, Polygon) and not union.interiors and _is_convex(union):
                    pieces[a] = union.simplify(0)
                    del pieces[b]
                    merged_any = True
                    break
            if merged_any:
                break
    return pieces


@dataclass(frozen=True, slots=True, eq=False)
class _Part:
    """A convex part of a piece: grown (a superset of everything within the margin) and
    eroded (a subset at least the margin inside), as counter-clockwise vertices."""

    grown: Array
    eroded: Array | None
    disc: bool = False
    outer: Array | None = None
    """Vertices at least the margin outside ``grown`` (lines through them may clear it)."""
    exact: Array | None = None
    """The eroded part at full resolution (every vertex; ``eroded`` may skip some)."""


def _part(poly: Polygon) -> _Part:
    grown = poly.buffer(_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
    outer = poly.buffer(_DELTA * 3.03, join_style="mitre", mitre_limit=1e6)
    eroded = poly.buffer(-_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
    er: Array | None = None
    full: Array | None = None
    if isinstance(eroded, Polygon) and not eroded.is_empty and eroded.area > 0:
        er = _ring(eroded) if _is_convex(eroded) else None
        full = er
        if er is not None and len(er) > 24:
            # a round piece: a polygon on every k-th vertex lies inside it (enough to block)
            er = er[:: math.ceil(len(er) / 24)]
    return _Part(_ring(grown.convex_hull), er, outer=_ring(outer.convex_hull), exact=full)


THREAT_PARTS: Key[dict[int, tuple[BaseGeometry, tuple[_Part, ...]]]] = Key(
    "threat_parts", terrain_only=True, make=dict
)
"""Convex parts of each merged solid, by the solid's ``id`` (the entry holds the solid, so
the id cannot be reused while cached)."""


def _parts_of(board: Board, geom: BaseGeometry) -> list[_Part]:
    """The convex parts of a merged solid, kept in the scenario's cache (:data:`THREAT_PARTS`,
    by the solid's id; the entry holds the solid itself)."""
    cache = board.derived.entry(THREAT_PARTS)
    cached = cache.get(id(geom))
    if cached is not None and cached[0] is geom:
        return list(cached[1])
    parts = [_part(p) for p in convex_parts(geom)]
    cache[id(geom)] = (geom, tuple(parts))
    return parts


def _disc_part(d: Disc) -> _Part:
    n = 48
    a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
    r_out = (d.r + _DELTA * 1.01) / math.cos(math.pi / n)
    r_in = d.r - _DELTA * 1.01
    r_outer = (d.r + _DELTA * 3.03) / math.cos(math.pi / n)
    grown = np.column_stack((d.x + r_out * np.cos(a), d.y + r_out * np.sin(a)))
    eroded = np.column_stack((d.x + r_in * np.cos(a), d.y + r_in * np.sin(a)))
    outer = np.column_stack((d.x + r_outer * np.cos(a), d.y + r_outer * np.sin(a)))
    er = eroded if r_in > 0 else None
    return _Part(grown, er, disc=True, outer=outer, exact=er)


# --- segment tests ---------------------------------------------------------------------------


def _seg_hits(ax: Array, ay: Array, bx: Array, by: Array, v: Array) -> BoolArray:
    """Whether each segment ``a -> b`` meets the closed convex polygon ``v`` (ccw vertices):
    separating-axis test on the polygon's edge normals and the segment's normal."""
    ex = np.roll(v[:, 0], -1) - v[:, 0]
    ey = np.roll(v[:, 1], -1) - v[:, 1]
    nx, ny = ey, -ex
    h = nx * v[:, 0] + ny * v[:, 1]
    pa = np.outer(ax, nx) + np.outer(ay, ny)
    pb = np.outer(bx, nx) + np.outer(by, ny)
    sep = ((pa > h) & (pb > h)).any(axis=1)
    dx, dy = bx - ax, by - ay
    cr = dx[:, None] * (v[None, :, 1] - ay[:, None]) - dy[:, None] * (v[None, :, 0] - ax[:, None])
    sep |= (cr > 0).all(axis=1) | (cr < 0).all(axis=1)
    return np.asarray(~sep)


class _Fan:
    """Positions sorted by angle around a shooter's centre, for quick angular filtering."""

    def __init__(self, cx: float, cy: float, px: Array, py: Array) -> None:
        self.cx, self.cy = cx, cy
        self.px, self.py = px, py
        self.ang = np.arctan2(py - cy, px - cx)
        self.order = np.argsort(self.ang, kind="stable")
        self.sorted = self.ang[self.order]
        self.dist = np.hypot(px - cx, py - cy)

    def candidates(self, v: Array) -> NDArray[np.int64]:
        """Indices of positions ``p`` for which the segment ``c -> p`` may meet polygon ``v``."""
        return self._sector(v)[0]

    def _sector(self, v: Array) -> tuple[NDArray[np.int64], BaseGeometry | None]:
        """The candidate positions, and the shadow of ``v`` (``v`` and everything behind it
        as seen from the centre, as far as any position) when it is well defined."""
        c = np.array([self.cx, self.cy])
        rel = v - c
        if _inside_convex(v, self.cx, self.cy):
            return np.arange(len(self.px)), None
        a = np.arctan2(rel[:, 1], rel[:, 0])
        d = (a - a[0] + math.pi) % (2 * math.pi) - math.pi
        lo, hi = a[0] + d.min() - 1e-9, a[0] + d.max() + 1e-9
        poly = Polygon(v)
        near = float(poly.exterior.distance(Point(self.cx, self.cy))) - 1e-9
        idx = self._between(lo, hi)
        idx = idx[self.dist[idx] >= near]
        half = (hi - lo) / 2
        shadow = None
        if math.cos(half) > 0.05 and len(idx):
            far = (float(self.dist.max()) + 10.0) / math.cos(half) * 1.5
            ends = []
            for k in (int(np.argmin(d)), int(np.argmax(d))):
                r = rel[k] / np.hypot(rel[k, 0], rel[k, 1])
                ends.append(c + r * far)
            shadow = shapely.convex_hull(shapely.multipoints(np.vstack([v, *ends])))
            shapely.prepare(shadow)
        return idx, shadow

    def _between(self, lo: float, hi: float) -> NDArray[np.int64]:
        two = 2 * math.pi
        if lo < -math.pi:
            parts = [(lo + two, math.pi), (-math.pi, hi)]
        elif hi > math.pi:
            parts = [(lo, math.pi), (-math.pi, hi - two)]
        else:
            parts = [(lo, hi)]
        found = []
        for a, b in parts:
            i0 = int(np.searchsorted(self.sorted, a, side="left"))
            i1 = int(np.searchsorted(self.sorted, b, side="right"))
            found.append(self.order[i0:i1])
        return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)

    def hits(self, v: Array, among: BoolArray) -> BoolArray:
        """Which positions (among ``among``) have a centre segment meeting polygon ``v``."""
        out = np.zeros(len(self.px), dtype=bool)
        idx, shadow = self._sector(v)
        idx = idx[among[idx]]
        if not len(idx):
            return out
        if shadow is not None:
            # a point of the (closed) shadow is one whose centre segment meets v; rounding
            # in the shadow's far corners is far below the margin v was grown or eroded by
            out[idx] = shapely.intersects_xy(shadow, self.px[idx], self.py[idx])
        else:
            c = np.full(len(idx), self.cx), np.full(len(idx), self.cy)
            out[idx] = _seg_hits(c[0], c[1], self.px[idx], self.py[idx], v)
        return out


def _inside_convex(v: Array, x: float, y: float) -> bool:
    ex = np.roll(v[:, 0], -1) - v[:, 0]
    ey = np.roll(v[:, 1], -1) - v[:, 1]
    return bool((ex * (y - v[:, 1]) - ey * (x - v[:, 0]) >= 0).all())


def _seg_point_distance(cx: float, cy: float, px: Array, py: Array, mx: float, my: float) -> Array:
    dx, dy = px - cx, py - cy
    l2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(l2 > 0, ((mx - cx) * dx + (my - cy) * dy) / l2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.asarray(np.hypot(cx + t * dx - mx, cy + t * dy - my))


# --- blocked by one convex part (every segment between the two discs meets it) ---------------


def _arcs_union(centres: Array, halfs: Array) -> list[tuple[float, float]]:
    """The union of closed arcs (centre, half-width) as intervals within [-pi, pi]."""
    iv: list[tuple[float, float]] = []
    for c, h in zip(centres.tolist(), halfs.tolist(), strict=True):
        if h < 0:
            continue
        if h >= math.pi:
            return [(-math.pi, math.pi)]
        a, b = c - h, c + h
        for s in (-2 * math.pi, 0.0, 2 * math.pi):
            lo, hi = max(a + s, -math.pi), min(b + s, math.pi)
            if lo <= hi:
                iv.append((lo, hi))
    iv.sort()
    merged: list[tuple[float, float]] = []
    for a, b in iv:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _gaps(covered: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The open intervals of [-pi, pi) not covered (joined across the wrap)."""
    gaps: list[tuple[float, float]] = []
    at = -math.pi
    for a, b in covered:
        if a > at:
            gaps.append((at, a))
        at = max(at, b)
    if at < math.pi:
        gaps.append((at, math.pi))
    if len(gaps) >= 2 and gaps[0][0] <= -math.pi and gaps[-1][1] >= math.pi:
        first = gaps.pop(0)
        last = gaps.pop()
        gaps.append((last[0], first[1] + 2 * math.pi))
    return gaps


_ANGLE_SLACK = 1e-9


def _blocked_by(
    cx: float, cy: float, rs: float, px: Array, py: Array, rt: float, q: Array
) -> BoolArray:
    """True where every segment from disc ``(c, rs)`` to disc ``(p, rt)`` meets the convex
    polygon ``q`` (sure, with a small angular slack).

    A segment misses a convex set iff a line separates them: some direction ``u`` in which
    both discs reach beyond ``q`` (``u.c + rs > max u.v`` and ``u.p + rt > max u.v``). The
    directions where a disc does not reach beyond vertex ``v`` form an arc around the
    direction of ``v - centre``; the target is hidden when these arcs cover every direction.
    """
    rel = q - np.array([cx, cy])
    dist = np.hypot(rel[:, 0], rel[:, 1])
    half = np.where(dist > rs, np.arccos(np.clip(rs / np.maximum(dist, 1e-300), -1, 1)), -1.0)
    shooter_arcs = _arcs_union(np.arctan2(rel[:, 1], rel[:, 0]), half - _ANGLE_SLACK)
    gaps = _gaps(shooter_arcs)
    n = len(px)
    if not gaps:
        return np.ones(n, dtype=bool)
    vx = q[None, :, 0] - px[:, None]
    vy = q[None, :, 1] - py[:, None]
    d = np.hypot(vx, vy)
    centre = np.arctan2(vy, vx)
    with np.errstate(invalid="ignore", divide="ignore"):
        hw = np.where(d > rt, np.arccos(np.clip(rt / d, -1, 1)), -1.0) - _ANGLE_SLACK
    ok = np.ones(n, dtype=bool)
    two = 2 * math.pi
    for g0, g1 in gaps:
        length = g1 - g0
        start = np.mod(centre - hw - g0, two)
        end = start + 2 * hw
        valid = hw >= 0
        # the part of a wrapping arc that covers the gap's start
        reach = np.where(valid & (end >= two), end - two, 0.0).max(axis=1)
        # arcs that start exactly at 0 also count as covering the start
        starts_at_zero = valid & (start <= 0.0)
        reach = np.maximum(reach, np.where(starts_at_zero, end, 0.0).max(axis=1))
        has_start = (valid & ((end >= two) | (start <= 0.0))).any(axis=1)
        s_sorted_idx = np.argsort(np.where(valid, start, np.inf), axis=1)
        s_sorted = np.take_along_axis(np.where(valid, start, np.inf), s_sorted_idx, axis=1)
        e_sorted = np.take_along_axis(end, s_sorted_idx, axis=1)
        alive = has_start.copy()
        for col in range(s_sorted.shape[1]):
            s = s_sorted[:, col]
            e = e_sorted[:, col]
            step_ok = alive & (s < reach)
            reach = np.where(step_ok, np.maximum(reach, e), reach)
        ok &= alive & (reach > length)
    return ok


# --- one shooter's layer ----------------------------------------------------------------------


def _smaller_base() -> Any:
    """The engine's diameter comparison (``fwwrules.board.smaller_base``) when it has one."""
    return getattr(_board_module, "smaller_base", None)


def _huge_blocks(shooter_base: float, target_base: float, huge_base: float) -> bool:
    """``ranged.los.huge``: a Huge model blocks the line when the smaller base of shooter and
    target is smaller than it, compared as :mod:`fwwrules.los` compares them (diameters with
    ``smaller_base``, else size classes)."""
    smaller_base = _smaller_base()
    if smaller_base is not None:
        return bool(smaller_base(min(shooter_base, target_base), huge_base))
    smaller = min(SIZE_RANK[size_class(shooter_base)], SIZE_RANK[size_class(target_base)])
    return smaller < SIZE_RANK[size_class(huge_base)]


def _huge_covers(target_base: float, huge_base: float) -> bool:
    """``cover.huge``: a Huge model covers a smaller target (not engaged with it; a target in
    contact with nobody is engaged with nobody), compared as :mod:`fwwrules.cover` does."""
    smaller_base = _smaller_base()
    if smaller_base is not None:
        return bool(smaller_base(target_base, huge_base))
    return SIZE_RANK[size_class(target_base)] < SIZE_RANK[size_class(huge_base)]


def _reach_end(scenario: Scenario, weapon: Weapon, rt: float) -> float:
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


def _shooter_layer(
    scenario: Scenario,
    sid: str,
    j: int,
    px: Array,
    py: Array,
    rt: float,
    tol: float,
    elev_mm: Array,
    orange: float,
    target_size: str,
    live: BoolArray,
    rules: str,
    clauses: _Clauses,
    out: _Out,
    hard: BoolArray,
    into: NDArray[np.int32],
    choice: str = "best",
) -> None:
    rtol = scenario.ruler_tolerance_mm

    board = scenario.board
    model = scenario.model(sid)
    mg = board.models[sid]
    c, rs = mg.disc, mg.disc.r
    weapons = scenario.weapons_of(model)
    which = weapon_indices(weapons, choice)
    n = len(px)
    # melee.engaged: an engaged shooter may attack only those it is engaged with.
    out.weapon[live, j] = which[0]  # the weapon reported where none may attack
    if engagements(scenario).get(sid):
        out.reason[live, j] = clauses.code("melee.engaged")
        return
    # ranged.range per weapon; ranged.skill per weapon
    d = np.hypot(px - c.x, py - c.y)
    nearest = np.maximum(d - rs - rt, 0.0)
    usable: list[tuple[int, Weapon, BoolArray]] = []
    first_reason = np.zeros(n, dtype=np.int16)
    for wi, w in enumerate(weapons):
        if wi not in which:
            continue
        if w.type == "melee":
            if wi == which[0]:
                first_reason[:] = clauses.code("melee.engaged")
            continue
        end = _reach_end(scenario, w, rt)
        in_range = nearest <= end
        unsure = np.abs(nearest - end) <= _DELTA
        if w.min_range is not None:
            lo = scenario.length_mm(w.min_range)
            unsure |= d - rs - rt <= lo + 2 * rt + _DELTA
        hard[live & unsure, j] = True
        has_skill = model.skills.get(w.type) is not None
        if wi == which[0]:
            if not has_skill:
                first_reason[:] = clauses.code("ranged.skill")
            else:
                first_reason[:] = np.where(
                    in_range, clauses.code("ranged.los"), clauses.code("ranged.range")
                )
        if has_skill:
            usable.append((wi, w, in_range))
    out.reason[live, j] = first_reason[live]
    if not usable:
        return
    any_in = np.zeros(n, dtype=bool)
    for _, _, ir in usable:
        any_in |= ir
    need = live & any_in & ~hard[:, j]
    # Elevation: the fast path takes flat shots only (target on the ground, neither Elevated).
    on_piece = elev_mm > 0.0
    diff_t = mg.elevation - elev_mm
    elevated = reaches_ruler(diff_t, orange, rtol) | reaches_ruler(-diff_t, orange, rtol)
    flat_bad = need & (on_piece | elevated)
    hard[flat_bad, j] = True
    need &= ~flat_bad
    if not need.any():
        return
    target_huge = target_size == "huge"
    huge = mg.size == "huge" or target_huge
    excluded = set(pieces_under(scenario, sid))
    kinds = shot_kinds(board, huge=huge, elevated_kind={}, excluded=excluded)
    fan = _Fan(c.x, c.y, px, py)
    # --- line of sight ----------------------------------------------------------------------
    los_parts: list[_Part] = []
    for tid in board.terrain_ids:
        if kinds.get(tid) in BLOCKS_LOS:
            los_parts.extend(_parts_of(board, board.terrain[tid].polygon))
    for hid, hg in board.models.items():
        if hid == sid or hg.size != "huge":
            continue
        if _huge_blocks(2 * rs, 2 * rt, 2 * hg.disc.r):
            los_parts.append(_disc_part(hg.disc))
    centre_hit = np.zeros(n, dtype=bool)
    for part in los_parts:
        centre_hit |= fan.hits(part.grown, need)
    visible = need & ~centre_hit
    blocked = np.zeros(n, dtype=bool)
    for part in los_parts:
        if part.eroded is None:
            continue
        cand = need & centre_hit & ~blocked
        if not cand.any():
            break
        hit = fan.hits(part.eroded, cand)
        idx = np.flatnonzero(hit)
        if len(idx):
            blocked[idx[_blocked_by(c.x, c.y, rs, px[idx], py[idx], rt, part.eroded)]] = True
    unsure = need & ~visible & ~blocked
    if unsure.any():
        seen = _try_segments(c, rs, px, py, rt, unsure, los_parts)
        visible |= seen
        unsure &= ~seen
    if unsure.any():
        seen, cut = _extremal(c, rs, px, py, rt, unsure, los_parts)
        visible |= seen
        blocked |= cut
        unsure &= ~(seen | cut)
    if unsure.any():
        cut = _separated(c, px, py, rt, unsure, _eroded_wall(scenario, kinds, los_parts))
        blocked |= cut
        unsure &= ~cut
    if unsure.any():
        solids = _los_obstacles(scenario, kinds, sid, rs, rt)
        for i in np.flatnonzero(unsure).tolist():
            b = Disc(float(px[i]), float(py[i]), rt)
            if find_clear_segment(c, b, _near(solids, c, b)) is not None:
                visible[i] = True
            else:
                blocked[i] = True
    # --- cover (only where the attack is allowed) -------------------------------------------
    count, cover_unsure = _cover_counts(scenario, sid, kinds, fan, visible, rt, target_huge)
    if huge and not target_huge and any(t.huge is not None for t in board.terrain.values()):
        # terrain.kinds: whether a piece's Huge variant decides its cover for a smaller target
        # shot at by a Huge model -- sure only where both readings give the same count
        plain = shot_kinds(board, huge=False, elevated_kind={}, excluded=excluded)
        other, other_unsure = _cover_counts(scenario, sid, plain, fan, visible, rt, target_huge)
        cover_unsure |= other_unsure | (visible & (other != count))
    hard[cover_unsure, j] = True
    ok = visible & ~cover_unsure

    best_value = np.full(n, -(10**9))
    best_index = np.zeros(n, dtype=np.int16)
    for wi, w, ir in usable:
        value = int(model.skills[w.type])
        better = ok & ir & (value > best_value)
        best_value = np.where(better, value, best_value)
        best_index = np.where(better, wi, best_index)
    allowed = ok & (best_value > -(10**9))
    out.allowed[allowed, j] = True
    out.weapon[allowed, j] = best_index[allowed]
    out.modifier[allowed, j] = COVER_MODIFIER * count[allowed] + into[allowed]
    out.covered[allowed, j] = count[allowed] > 0
    out.reason[allowed, j] = NO_REASON


def _near(
    obstacles: list[tuple[tuple[float, float, float, float], Any]], a: Disc, b: Disc
) -> list[Any]:
    x0, x1 = min(a.x - a.r, b.x - b.r), max(a.x + a.r, b.x + b.r)
    y0, y1 = min(a.y - a.r, b.y - b.r), max(a.y + a.r, b.y + b.r)
    return [
        o
        for (bx0, by0, bx1, by1), o in obstacles
        if not (bx1 < x0 or bx0 > x1 or by1 < y0 or by0 > y1)
    ]


def _los_obstacles(
    scenario: Scenario, kinds: Any, sid: str, rs: float, rt: float
) -> list[tuple[tuple[float, float, float, float], Any]]:
    """The LoS obstacles of a flat shot from ``sid`` at a target of radius ``rt`` (as
    :func:`fwwrules.los.obstacles` gathers them), with bounding boxes."""

    board = scenario.board
    out: list[tuple[tuple[float, float, float, float], Any]] = []
    for solid in merged(board, kinds, los=True).solids:
        out.append((solid.geometry.bounds, solid.geometry))
    for hid, hg in board.models.items():
        if hid == sid or hg.size != "huge":
            continue
        if _huge_blocks(2 * rs, 2 * rt, 2 * hg.disc.r):
            dd = hg.disc
            out.append(((dd.x - dd.r, dd.y - dd.r, dd.x + dd.r, dd.y + dd.r), dd))
    return out


THREAT_WALLS: Key[dict[tuple[object, ...], BaseGeometry | None]] = Key(
    "threat_walls", terrain_only=True, make=dict
)
"""The LoS blockers eroded as one, per set of kinds (:func:`_eroded_wall`)."""

_RING_N = 32
_RING_ANGLES = np.linspace(0.0, 2 * math.pi, _RING_N, endpoint=False)
_RING_OUT = 1.0 / math.cos(math.pi / _RING_N)


def _eroded_wall(scenario: Scenario, kinds: Any, parts: list[_Part]) -> BaseGeometry | None:
    """Every LoS blocker of a flat shot (merged solids and Huge bases), eroded by the margin
    as a whole, so that touching pieces leave no crack between them."""
    board = scenario.board
    walls = board.derived.entry(THREAT_WALLS)
    key = kinds.signature
    if key not in walls:
        geoms = [
            s.geometry.buffer(-_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
            for s in merged(board, kinds, los=True).solids
        ]
        walls[key] = shapely.union_all(geoms) if geoms else None
    wall = walls[key]
    discs = [Polygon(p.eroded) for p in parts if p.disc and p.eroded is not None]
    if discs:
        wall = shapely.union_all([*discs, *([] if wall is None else [wall])])
    return wall if wall is None or not wall.is_empty else None


def _separated(
    c: Disc, px: Array, py: Array, rt: float, among: BoolArray, wall: BaseGeometry | None
) -> BoolArray:
    """Positions whose base is cut off from the shooter's by the eroded LoS parts together:
    within the convex hull of the two bases (a polygon containing it), no piece of the hull
    left free of the eroded parts meets both bases. Every segment between the bases lies in
    that hull, so each one passes through some eroded part, deeper than the margin."""
    out = np.zeros(len(px), dtype=bool)
    if wall is None:
        return out
    idx = np.flatnonzero(among)
    ring_a = np.column_stack(
        (c.x + c.r * _RING_OUT * np.cos(_RING_ANGLES), c.y + c.r * _RING_OUT * np.sin(_RING_ANGLES))
    )
    rb = rt * _RING_OUT
    bx = px[idx, None] + rb * np.cos(_RING_ANGLES)[None, :]
    by = py[idx, None] + rb * np.sin(_RING_ANGLES)[None, :]
    b_rings = np.stack((bx, by), axis=2)
    a_poly = Polygon(ring_a)
    b_polys = shapely.polygons(b_rings)
    m = len(idx)
    pts = np.concatenate((np.broadcast_to(ring_a, (m, _RING_N, 2)), b_rings), axis=1)
    hulls = shapely.convex_hull(
        shapely.multipoints(pts.reshape(-1, 2), indices=np.repeat(np.arange(m), 2 * _RING_N))
    )
    free = shapely.difference(hulls, wall)
    pieces, owner = shapely.get_parts(free, return_index=True)
    meets_a = shapely.intersects(pieces, a_poly)
    meets_b = shapely.intersects(pieces, b_polys[owner])
    joined = np.zeros(m, dtype=bool)
    np.logical_or.at(joined, owner, meets_a & meets_b)
    out[idx[~joined]] = True
    return out


_OFFSETS = (
    (1.0, 1.0),
    (-1.0, -1.0),
    (0.5, 0.5),
    (-0.5, -0.5),
    (1.0, -1.0),
    (-1.0, 1.0),
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
)


def _try_segments(
    c: Disc, rs: float, px: Array, py: Array, rt: float, among: BoolArray, parts: list[_Part]
) -> BoolArray:
    """Positions where one of a few segments between points of the two bases is surely clear
    (misses every grown LoS part): offsets across the line of centres at each end."""
    idx = np.flatnonzero(among)
    seen = np.zeros(len(px), dtype=bool)
    dx, dy = px[idx] - c.x, py[idx] - c.y
    ln = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        nx, ny = -dy / ln, dx / ln
    shrink = 1.0 - 1e-9
    left = np.ones(len(idx), dtype=bool)
    boxes = [
        (p.grown[:, 0].min(), p.grown[:, 0].max(), p.grown[:, 1].min(), p.grown[:, 1].max())
        for p in parts
    ]
    for sa, sb in _OFFSETS:
        if not left.any():
            break
        sel = np.flatnonzero(left)
        ax = c.x + sa * rs * shrink * nx[sel]
        ay = c.y + sa * rs * shrink * ny[sel]
        bx = px[idx[sel]] + sb * rt * shrink * nx[sel]
        by = py[idx[sel]] + sb * rt * shrink * ny[sel]
        hit = np.zeros(len(sel), dtype=bool)
        bx0, bx1 = np.minimum(ax, bx), np.maximum(ax, bx)
        by0, by1 = np.minimum(ay, by), np.maximum(ay, by)
        for part, (gx0, gx1, gy0, gy1) in zip(parts, boxes, strict=True):
            g = part.grown
            m = ~hit & ~((bx1 < gx0) | (bx0 > gx1) | (by1 < gy0) | (by0 > gy1))
            w = np.flatnonzero(m)
            if len(w):
                hit[w] |= _seg_hits(ax[w], ay[w], bx[w], by[w], g)
        clear = ~hit & np.isfinite(ax)
        seen[idx[sel[clear]]] = True
        left[sel[clear]] = False
    return seen


# --- extremal lines (straight-line proofs for the positions the quick tests leave) ------------

_ROUND = BOUNDARY_TOLERANCE_MM
"""Rounding allowed in the extremal-line tests (the rules' boundary tolerance)."""

_MAX_FEATURES = 160
"""Most feature points one position's proofs take (more: left to the exact search)."""

_CHUNK = 1 << 15


@dataclass(frozen=True, slots=True, eq=False)
class _Convex:
    """Convex polygons as edge arrays: unit outward normals ``(nx, ny)`` and offsets ``h``
    (inside: ``n . x <= h``), one row per polygon padded with ``h = inf``, and boxes."""

    nx: Array
    ny: Array
    h: Array
    box: Array  # (K, 4): x0, y0, x1, y1


def _convex(polys: Sequence[Array]) -> _Convex:
    k = len(polys)
    e = max((len(v) for v in polys), default=1)
    nx, ny = np.zeros((k, e)), np.zeros((k, e))
    h = np.full((k, e), np.inf)
    box = np.zeros((k, 4))
    for i, v in enumerate(polys):
        ex = np.roll(v[:, 0], -1) - v[:, 0]
        ey = np.roll(v[:, 1], -1) - v[:, 1]
        ln = np.hypot(ex, ey)
        ok = ln > 0
        ux, uy = ey[ok] / ln[ok], -ex[ok] / ln[ok]
        m = int(ok.sum())
        nx[i, :m], ny[i, :m] = ux, uy
        h[i, :m] = ux * v[ok, 0] + uy * v[ok, 1]
        box[i] = (v[:, 0].min(), v[:, 1].min(), v[:, 0].max(), v[:, 1].max())
    return _Convex(nx, ny, h, box)


def _clip(
    cv: _Convex,
    k: int,
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    t0: Array,
    t1: Array,
    grow: float,
) -> tuple[Array, Array]:
    """The stretch ``[lo, hi]`` of each segment ``o + t d`` (``t0 <= t <= t1``, ``d`` a unit
    vector) inside polygon ``k`` grown by ``grow`` (shrunk when negative); empty: lo > hi."""
    nx, ny, h = cv.nx[k], cv.ny[k], cv.h[k] + grow
    live = np.isfinite(h)
    nx, ny, h = nx[live], ny[live], h[live]
    num = h[None, :] - (ox[:, None] * nx[None, :] + oy[:, None] * ny[None, :])
    den = dx[:, None] * nx[None, :] + dy[:, None] * ny[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        r = num / den
    lo = np.maximum(t0, np.where(den < 0, r, -np.inf).max(axis=1, initial=-np.inf))
    hi = np.minimum(t1, np.where(den > 0, r, np.inf).min(axis=1, initial=np.inf))
    outside = ((den == 0) & (num < 0)).any(axis=1)
    lo = np.where(outside, np.inf, lo)
    return lo, hi


def _any_hit(
    cv: _Convex,
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    t0: Array,
    t1: Array,
    *,
    grow: float,
    strict: bool,
) -> BoolArray:
    """Whether each segment meets some polygon of ``cv`` grown by ``grow``: through its
    interior over some length (``strict``) or at all (closed)."""
    n = len(ox)
    hit = np.zeros(n, dtype=bool)
    ax, bx = ox + t0 * dx, ox + t1 * dx
    ay, by = oy + t0 * dy, oy + t1 * dy
    sx0, sx1 = np.minimum(ax, bx), np.maximum(ax, bx)
    sy0, sy1 = np.minimum(ay, by), np.maximum(ay, by)
    pad = abs(grow) + 1.0
    for k in range(len(cv.box)):
        x0, y0, x1, y1 = cv.box[k]
        sel = np.flatnonzero(
            ~hit & (sx1 >= x0 - pad) & (sx0 <= x1 + pad) & (sy1 >= y0 - pad) & (sy0 <= y1 + pad)
        )
        if not len(sel):
            continue
        lo, hi = _clip(cv, k, ox[sel], oy[sel], dx[sel], dy[sel], t0[sel], t1[sel], grow)
        hit[sel] = lo < hi if strict else lo <= hi
    return hit


def _stretch(
    ox: Array,
    oy: Array,
    dx: Array,
    dy: Array,
    ax: float,
    ay: float,
    ra: float,
    bx: Array,
    by: Array,
    rb: float,
    slack: float,
) -> tuple[Array, Array, Array, Array, Array, BoolArray]:
    """For lines ``o + t d``: the stretch between the two discs (from where the line leaves
    disc a to where it enters disc b, ``d`` turned to point from a to b), and whether the
    line meets both discs (their radii grown by ``slack``, negative: shrunk)."""
    ta = (ax - ox) * dx + (ay - oy) * dy
    tb = (bx - ox) * dx + (by - oy) * dy
    flip = tb < ta
    dx, dy = np.where(flip, -dx, dx), np.where(flip, -dy, dy)
    ta, tb = np.where(flip, -ta, ta), np.where(flip, -tb, tb)
    qa = (ax - ox) ** 2 + (ay - oy) ** 2 - ta * ta
    qb = (bx - ox) ** 2 + (by - oy) ** 2 - tb * tb
    ga = (ra + slack) ** 2 - qa
    gb = (rb + slack) ** 2 - qb
    ok = (ga >= 0) & (gb >= 0)
    ha = np.sqrt(np.maximum(ra * ra - qa, 0.0))
    hb = np.sqrt(np.maximum(rb * rb - qb, 0.0))
    return ox, oy, dx, dy, np.column_stack((ta + ha, tb - hb)), ok


def _tangent_lines(
    fx: Array, fy: Array, cx: Array, cy: Array, r: float
) -> tuple[Array, Array, Array, Array, BoolArray]:
    """The two lines through point ``f`` tangent to the circle ``(c, r)`` (where ``f`` lies
    outside it): origin, unit direction, and which exist."""
    vx, vy = fx - cx, fy - cy
    d = np.hypot(vx, vy)
    ok = d > r
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = np.arccos(np.clip(r / d, -1.0, 1.0))
    phi = np.arctan2(vy, vx)
    out = []
    for sgn in (1.0, -1.0):
        tx = cx + r * np.cos(phi + sgn * alpha)
        ty = cy + r * np.sin(phi + sgn * alpha)
        ux, uy = tx - fx, ty - fy
        ln = np.hypot(ux, uy)
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append((fx, fy, ux / ln, uy / ln, ok & (ln > 0)))
    (o1x, o1y, d1x, d1y, k1), (o2x, o2y, d2x, d2y, k2) = out
    return (
        np.concatenate((o1x, o2x)),
        np.concatenate((o1y, o2y)),
        np.concatenate((d1x, d2x)),
        np.concatenate((d1y, d2y)),
        np.concatenate((k1, k2)),
    )


def _common_tangents(
    ax: float, ay: float, ra: float, bx: Array, by: Array, rb: float
) -> tuple[Array, Array, Array, Array, BoolArray]:
    """The (up to) four lines tangent to both circles, per second circle."""
    dxv, dyv = bx - ax, by - ay
    ln = np.hypot(dxv, dyv)
    psi = np.arctan2(dyv, dxv)
    ox, oy, ux, uy, oks = [], [], [], [], []
    for s1, s2 in ((1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)):
        w = s2 * rb - s1 * ra
        with np.errstate(invalid="ignore", divide="ignore"):
            ratio = w / ln
        ok = np.abs(ratio) <= 1.0
        theta = psi + np.arccos(np.clip(ratio, -1.0, 1.0))
        nx, ny = np.cos(theta), np.sin(theta)
        # n . b - k = s2 rb and n . a - k = s1 ra; a point of the line: a - s1 ra n
        ox.append(ax - s1 * ra * nx)
        oy.append(ay - s1 * ra * ny)
        ux.append(-ny)
        uy.append(nx)
        oks.append(ok)
    return (
        np.concatenate(ox),
        np.concatenate(oy),
        np.concatenate(ux),
        np.concatenate(uy),
        np.concatenate(oks),
    )


def _edge_circle_points(
    cv_polys: Sequence[Array], cx: Array, cy: Array, r: float
) -> tuple[NDArray[np.int64], Array, Array]:
    """Where the polygons' edges meet circles ``(c_m, r)``: (circle index, x, y)."""
    if not cv_polys:
        return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
    e = np.vstack([np.hstack((v, np.roll(v, -1, axis=0))) for v in cv_polys])
    x0, y0, x1, y1 = e[:, 0], e[:, 1], e[:, 2], e[:, 3]
    ex, ey = x1 - x0, y1 - y0
    a = ex * ex + ey * ey
    fx = x0[None, :] - cx[:, None]
    fy = y0[None, :] - cy[:, None]
    b = 2 * (fx * ex[None, :] + fy * ey[None, :])
    c = fx * fx + fy * fy - r * r
    disc = b * b - 4 * a[None, :] * c
    ms, xs, ys = [], [], []
    root = np.sqrt(np.maximum(disc, 0.0))
    for sgn in (-1.0, 1.0):
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (-b + sgn * root) / (2 * a[None, :])
        ok = (disc >= 0) & (t >= 0) & (t <= 1) & (a[None, :] > 0)
        m, k = np.nonzero(ok)
        ms.append(m)
        xs.append(x0[k] + t[m, k] * ex[k])
        ys.append(y0[k] + t[m, k] * ey[k])
    return np.concatenate(ms), np.concatenate(xs), np.concatenate(ys)


_EXTREMAL_BATCH = 2048
"""Positions the extremal-line proofs take at once (their arrays grow with positions times
corners)."""


def _extremal(
    c: Disc, rs: float, px: Array, py: Array, rt: float, among: BoolArray, parts: list[_Part]
) -> tuple[BoolArray, BoolArray]:
    """:func:`_extremal_batch` over the positions in batches of :data:`_EXTREMAL_BATCH`."""
    seen = np.zeros(len(px), dtype=bool)
    cut = np.zeros(len(px), dtype=bool)
    idx = np.flatnonzero(among)
    for b0 in range(0, len(idx), _EXTREMAL_BATCH):
        mask = np.zeros(len(px), dtype=bool)
        mask[idx[b0 : b0 + _EXTREMAL_BATCH]] = True
        s_b, c_b = _extremal_batch(c, rs, px, py, rt, mask, parts)
        seen |= s_b
        cut |= c_b
    return seen, cut


def _extremal_batch(
    c: Disc, rs: float, px: Array, py: Array, rt: float, among: BoolArray, parts: list[_Part]
) -> tuple[BoolArray, BoolArray]:
    """Positions proved visible, and positions proved hidden, by the straight lines that
    decide line of sight (as the exact search of :mod:`fwwrules.geometry` does, over all
    positions at once).

    If some segment joins the two bases avoiding a set of convex pieces, one does that is
    extremal: tangent to both bases, or through a corner (or a point where a piece's outline
    meets a base's circle) and tangent to a base, or through two such points. *Visible*: one
    of these lines, built on points at least the margin outside the grown parts, clears them
    all between the bases. *Hidden*: every such line for the eroded parts passes through
    the interior of one (deeper than rounding), so every segment between the bases passes
    more than the margin into a piece.
    """
    n = len(px)
    seen = np.zeros(n, dtype=bool)
    cut = np.zeros(n, dtype=bool)
    idx = np.flatnonzero(among)
    if not len(idx) or not parts:
        return seen, cut
    grown = _convex([p.grown for p in parts])
    ero_polys = [p.exact for p in parts if p.exact is not None]
    eroded = _convex(ero_polys) if ero_polys else None
    outer_polys = [p.outer for p in parts if p.outer is not None]
    outer = np.vstack(outer_polys)
    ero_v = np.vstack(ero_polys) if ero_polys else np.zeros((0, 2))
    bx_all, by_all = px[idx], py[idx]
    reach = max(rs, rt) + 1e-6

    def corridor(fx: Array, fy: Array, bx: Array, by: Array) -> BoolArray:
        # points near the segment between the centres (a superset of the bases' hull)
        return _seg_point_distance_v(c.x, c.y, bx, by, fx, fy) <= reach

    def features(verts: Array, bx: Array, by: Array) -> tuple[NDArray[np.int64], Array, Array]:
        if not len(verts):
            return np.zeros(0, dtype=np.int64), np.zeros(0), np.zeros(0)
        inside = corridor(verts[None, :, 0], verts[None, :, 1], bx[:, None], by[:, None])
        m, k = np.nonzero(inside)
        return m, verts[k, 0], verts[k, 1]

    for proof in ("visible", "hidden"):
        if proof == "visible":
            verts, cv, grow, slack = outer, grown, _ROUND, -_ROUND
        else:
            if eroded is None:
                break
            verts, cv, grow, slack = ero_v, eroded, -_ROUND, _ROUND
        left = ~(seen[idx] | cut[idx])
        sub = np.flatnonzero(left)
        if not len(sub):
            break
        bx, by = bx_all[sub], by_all[sub]
        m_f, fx, fy = features(verts, bx, by)
        # where outlines cross the bases' circles (a base reaching into a piece)
        polys = outer_polys if proof == "visible" else ero_polys
        _, ax_, ay_ = _edge_circle_points(polys, np.array([c.x]), np.array([c.y]), rs)
        if len(ax_):
            near = corridor(ax_[None, :], ay_[None, :], bx[:, None], by[:, None])
            mm, kk = np.nonzero(near)
            m_f = np.concatenate((m_f, mm))
            fx = np.concatenate((fx, ax_[kk]))
            fy = np.concatenate((fy, ay_[kk]))
        mb, bxx, byy = _edge_circle_points(polys, bx, by, rt)
        m_f = np.concatenate((m_f, mb))
        fx = np.concatenate((fx, bxx))
        fy = np.concatenate((fy, byy))
        order = np.argsort(m_f, kind="stable")
        m_f, fx, fy = m_f[order], fx[order], fy[order]
        counts = np.bincount(m_f, minlength=len(sub))
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        too_many = counts > _MAX_FEATURES
        found = np.zeros(len(sub), dtype=bool)  # visible: a clear line; hidden: a line not cut

        feats = (m_f, fx, fy, counts, starts, too_many)
        for mm, ox, oy, dx, dy in _candidates(c, rs, rt, bx, by, feats, found):
            for s0 in range(0, len(mm), _CHUNK):
                sl = slice(s0, s0 + _CHUNK)
                m_c = mm[sl]
                keep = ~found[m_c]
                if not keep.any():
                    continue
                m_c = m_c[keep]
                o_x, o_y, d_x, d_y, st, ok = _stretch(
                    ox[sl][keep],
                    oy[sl][keep],
                    dx[sl][keep],
                    dy[sl][keep],
                    c.x,
                    c.y,
                    rs,
                    bx[m_c],
                    by[m_c],
                    rt,
                    slack,
                )
                if proof == "visible":
                    ok &= st[:, 1] > st[:, 0]
                sel = np.flatnonzero(ok)
                if not len(sel):
                    continue
                hit = _any_hit(
                    cv,
                    o_x[sel],
                    o_y[sel],
                    d_x[sel],
                    d_y[sel],
                    st[sel, 0],
                    st[sel, 1],
                    grow=grow,
                    strict=proof != "visible",
                )
                # visible: a line no piece touches; hidden: a line not cut (or too short to be)
                free = ~hit if proof == "visible" else ~hit | (st[sel, 1] <= st[sel, 0])
                found[m_c[sel[free]]] = True
        if proof == "visible":
            seen[idx[sub[found]]] = True
        else:
            cut[idx[sub[~found & ~too_many]]] = True
    return seen, cut


def _candidates(
    c: Disc,
    rs: float,
    rt: float,
    bx: Array,
    by: Array,
    feats: tuple[NDArray[np.int64], Array, Array, NDArray[np.int64], NDArray[np.int64], BoolArray],
    found: BoolArray,
) -> Iterator[tuple[NDArray[np.int64], Array, Array, Array, Array]]:
    """The candidate lines of :func:`_extremal_batch` in bounded batches, cheapest kinds
    first: (position, origin x, y, unit direction x, y). Positions already ``found`` (the
    caller sets them while consuming) get no more pairs of features."""
    m_f, fx, fy, counts, starts, too_many = feats
    sub_n = len(bx)
    # a. tangent to both bases
    tox, toy, tdx, tdy, tok = _common_tangents(c.x, c.y, rs, bx, by, rt)
    yield np.tile(np.arange(sub_n), 4)[tok], tox[tok], toy[tok], tdx[tok], tdy[tok]
    # b. through a feature, tangent to a base
    if len(m_f):
        cxs, cys = np.full(len(fx), c.x), np.full(len(fx), c.y)
        ox, oy, dx, dy, ok = _tangent_lines(fx, fy, cxs, cys, rs)
        mm = np.tile(m_f, 2)
        yield mm[ok], ox[ok], oy[ok], dx[ok], dy[ok]
        ox, oy, dx, dy, ok = _tangent_lines(fx, fy, bx[m_f], by[m_f], rt)
        yield mm[ok], ox[ok], oy[ok], dx[ok], dy[ok]
    # c. through two features, a few positions at a time
    for size in np.unique(counts[~too_many]).tolist():
        if size < 2:
            continue
        iu, ju = np.triu_indices(size, 1)
        every = np.flatnonzero((counts == size) & ~too_many)
        per = max(1, _CHUNK // len(iu))
        for b0 in range(0, len(every), per):
            which = every[b0 : b0 + per]
            which = which[~found[which]]
            if not len(which):
                continue
            gi = (starts[which][:, None] + iu[None, :]).ravel()
            gj = (starts[which][:, None] + ju[None, :]).ravel()
            ux, uy = fx[gj] - fx[gi], fy[gj] - fy[gi]
            ln = np.hypot(ux, uy)
            nz = ln > _ROUND
            with np.errstate(invalid="ignore", divide="ignore"):
                ux, uy = ux / ln, uy / ln
            yield m_f[gi][nz], fx[gi][nz], fy[gi][nz], ux[nz], uy[nz]


def _seg_point_distance_v(
    cx: float, cy: float, bx: Array, by: Array, fx: Array, fy: Array
) -> Array:
    """Distance from points ``f`` to segments ``c -> b`` (broadcasting)."""
    dx, dy = bx - cx, by - cy
    l2 = dx * dx + dy * dy
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(l2 > 0, ((fx - cx) * dx + (fy - cy) * dy) / l2, 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.asarray(np.hypot(cx + t * dx - fx, cy + t * dy - fy))


def _cover_counts(
    scenario: Scenario,
    sid: str,
    kinds: Any,
    fan: _Fan,
    among: BoolArray,
    rt: float,
    target_huge: bool,
) -> tuple[NDArray[np.int64], BoolArray]:
    """Objects the Line of Cover passes through (``cover.line``, ``cover.area``,
    ``cover.models``, ``cover.huge``) for flat shots, and where that is not sure."""

    board = scenario.board
    mg = board.models[sid]
    c = mg.disc
    tol = board.contact_tolerance
    n = len(fan.px)
    count = np.zeros(n, dtype=np.int64)
    unsure = np.zeros(n, dtype=bool)
    if not among.any():
        return count, unsure
    shooter = Point(c.x, c.y)
    # cover.shooter-contact as line_of_cover measures it (the tolerance plus rounding)
    touch_limit = tol + LENGTH_EPSILON_MM
    centre = (c.x, c.y)
    for solid in merged(board, kinds, los=False).solids:
        area = solid.kind in AREA_KINDS
        if area or len(solid.ids) == 1:
            if solid.geometry.distance(shooter) - c.r <= touch_limit:
                continue  # cover.shooter-contact: ignored whatever the line does
            parts = _parts_of(board, solid.geometry)
            hit_g = np.zeros(n, dtype=bool)
            for part in parts:
                hit_g |= fan.hits(part.grown, among)
            if not hit_g.any():
                continue
            c_add, u_add = _solid_passage(fan, solid.geometry, parts, hit_g, area=area)
            count += c_add
            for i in np.flatnonzero(u_add).tolist():
                q = (float(fan.px[i]), float(fan.py[i]))
                count[i] += _passage_count(centre, q, solid.geometry, area=area)
            continue
        # Touching solid pieces (cover.line): judged piece by piece when the line passes
        # into any of them; as one object only when every piece alone is merely grazed.
        members = []
        any_g = np.zeros(n, dtype=bool)
        any_e = np.zeros(n, dtype=bool)
        for tid in solid.ids:
            poly = board.terrain[tid].polygon
            parts = _parts_of(board, poly)
            hit_g = np.zeros(n, dtype=bool)
            for part in parts:
                hit_g |= fan.hits(part.grown, among)
            hit_e = np.zeros(n, dtype=bool)
            for part in parts:
                if part.eroded is not None:
                    hit_e |= fan.hits(part.eroded, hit_g)
            contact = poly.distance(shooter) - c.r <= touch_limit
            members.append((poly, parts, hit_g, contact))
            any_g |= hit_g
            any_e |= hit_e
        if not any_g.any():
            continue
        # piece by piece where some piece is surely passed into (not merely grazed)
        for poly, parts, hit_g, contact in members:
            if contact:
                continue
            sel = hit_g & any_e
            c_add, u_add = _solid_passage(fan, poly, parts, sel, area=False)
            count += c_add
            for i in np.flatnonzero(u_add).tolist():
                q = (float(fan.px[i]), float(fan.py[i]))
                count[i] += _passage_count(centre, q, poly, area=False)
        # near every piece but into none of them for sure: decided as line_of_cover does
        union_contact = solid.geometry.distance(shooter) - c.r <= touch_limit
        for i in np.flatnonzero(any_g & ~any_e).tolist():
            q = (float(fan.px[i]), float(fan.py[i]))
            own = [passage(centre, q, poly).how for poly, _, _, _ in members]
            if any(how not in ("none", "grazed") for how in own):
                count[i] += sum(
                    1
                    for how, (_, _, _, contact) in zip(own, members, strict=True)
                    if how == "crossed" and not contact
                )
            elif not union_contact:
                count[i] += _passage_count(centre, q, solid.geometry, area=False)
    attacker = scenario.model(sid)
    by = scenario.options.cover_by
    for m in scenario.models:
        if m.id == sid:
            continue
        hg = board.models[m.id]
        d = hg.disc
        if d.gap(c) <= tol:
            continue  # cover.shooter-contact
        if hg.size == "huge":
            gives = _huge_covers(2 * rt, 2 * d.r)
        else:
            gives = scenario.relation(attacker, m, by=by) != "friendly"
        if not gives:
            continue
        idx = np.flatnonzero(among)
        dist = _seg_point_distance(c.x, c.y, fan.px[idx], fan.py[idx], d.x, d.y)
        crossed = dist < d.r - _DELTA
        near = dist <= d.r + _DELTA
        count[idx[crossed]] += 1
        for i in idx[near & ~crossed].tolist():
            q = (float(fan.px[i]), float(fan.py[i]))
            if disc_passage((c.x, c.y), q, d).how == "crossed":
                count[i] += 1
    return count, unsure & among


def _passage_count(p: tuple[float, float], q: tuple[float, float], geom: Any, *, area: bool) -> int:
    """1 when the Line of Cover ``p -> q`` takes cover from a (single) piece, as
    :func:`fwwrules.cover.line_of_cover` judges a passage (``cover.line``, ``cover.area``)."""
    how = passage(p, q, geom).how
    if how == "crossed" or (area and how in ("entered", "inside", "exited")):
        return 1
    return 0


def _solid_passage(
    fan: _Fan, poly: Polygon, parts: list[_Part], hit_g: BoolArray, *, area: bool
) -> tuple[NDArray[np.int64], BoolArray]:
    """One piece met by the Line of Cover (``hit_g``: within the margin): 1 where it surely
    gives cover (``cover.line``: passed through; ``cover.area``: entered), and where that is
    not sure (a graze or a clip within the margin, a concave piece the target stands in)."""
    n = len(fan.px)
    count = np.zeros(n, dtype=np.int64)
    unsure = np.zeros(n, dtype=bool)
    if not hit_g.any():
        return count, unsure
    hit_e = np.zeros(n, dtype=bool)
    for part in parts:
        if part.eroded is not None:
            hit_e |= fan.hits(part.eroded, hit_g)
    if area:
        count[hit_e] = 1
        unsure = hit_g & ~hit_e
        return count, unsure
    idx = np.flatnonzero(hit_g)
    grown = poly.buffer(_DELTA * 1.01)
    eroded = poly.buffer(-_DELTA * 1.01)
    p_out = ~shapely.intersects_xy(grown, fan.px[idx], fan.py[idx])
    p_in = (
        shapely.contains_xy(eroded, fan.px[idx], fan.py[idx])
        if not eroded.is_empty
        else np.zeros(len(idx), dtype=bool)
    )
    crossed = hit_e[idx] & p_out
    entered = p_in & _is_convex(poly)
    count[idx[crossed]] = 1
    unsure[idx[~(crossed | entered)]] = True
    return count, unsure


_SUMMARY = {
    "head": {
        "en": "Threat map for a {base:g} {units} base of side {side} ({rules} rules): "
        "{n} positions, {placeable} where it can stand; {k} enemy shooters: {shooters}.",
        "de": "Bedrohungskarte für eine {base:g}-{units}-Base der Seite {side} "
        "(Regeln {rules}): {n} Positionen, auf {placeable} kann sie stehen; {k} feindliche "
        "Schützen: {shooters}.",
    },
    "count": {
        "en": "  {label}: {count} positions",
        "de": "  {label}: {count} Positionen",
    },
    "safe": {"en": "safe from every shooter", "de": "vor jedem Schützen sicher"},
    "by": {"en": "attackable by {n}", "de": "angreifbar von {n}"},
    "uncovered": {
        "en": "attackable without cover by at least one",
        "de": "von mindestens einem ohne Deckung angreifbar",
    },
    "exact": {
        "en": "({exact} of {cells} cells near a boundary were decided by the ruling itself)",
        "de": "({exact} von {cells} Zellen nahe einer Grenze hat die Entscheidung selbst "
        "berechnet)",
    },
}


def summary_text(result: ThreatMap, lang: str = "en") -> str:
    """A few lines for ``fwwrules threat`` without ``--json`` (English or German)."""
    check_lang(lang)
    att = result.attackers[result.placeable]
    lines = [
        _SUMMARY["head"][lang].format(
            base=result.base,
            units=result.scenario.units,
            side=result.side,
            rules=result.rules,
            n=len(result.positions),
            placeable=int(result.placeable.sum()),
            k=len(result.shooters),
            shooters=", ".join(result.shooters) or "-",
        )
    ]
    lines.append(
        _SUMMARY["count"][lang].format(label=_SUMMARY["safe"][lang], count=int((att == 0).sum()))
    )
    for n in range(1, int(att.max(initial=0)) + 1):
        lines.append(
            _SUMMARY["count"][lang].format(
                label=_SUMMARY["by"][lang].format(n=n), count=int((att == n).sum())
            )
        )
    unc = result.uncovered[result.placeable]
    lines.append(
        _SUMMARY["count"][lang].format(
            label=_SUMMARY["uncovered"][lang], count=int((unc > 0).sum())
        )
    )
    lines.append(_SUMMARY["exact"][lang].format(**result.stats))
    return "\n".join(lines)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of ``fwwrules threat --json`` (``fwwrules schema --threat``)."""
    number = {"type": "number"}
    point = {"type": "array", "items": number, "minItems": 2, "maxItems": 2}
    cell = {
        "type": "object",
        "required": ["allowed", "modifier", "reason"],
        "properties": {
            "allowed": {"type": "boolean", "description": "the ruling's `allowed`"},
            "modifier": {
                "type": ["integer", "null"],
                "description": "the ruling's `skill.modifier` with the best weapon; "
                "null when the attack is not allowed",
            },
            "reason": {
                "type": ["string", "null"],
                "description": "the first clause id of the ruling's `not_allowed` (of the "
                "shooter's first weapon when none may attack); null when allowed",
            },
            "weapon": {"type": "string", "description": "the weapon of the reported ruling"},
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://fwwrules.invalid/schema/threat@1",
        "title": "fwwrules threat map",
        "description": "What each enemy model may do to a model standing at each position "
        "(`fwwrules threat FILE --side SIDE --json`). Each cell equals `fwwrules ruling` for "
        "a model of that base and side standing there, with the shooter's best weapon.",
        "type": "object",
        "required": ["format", "side", "base", "step", "units", "shooters", "positions", "cells"],
        "properties": {
            "format": {"const": THREAT_FORMAT},
            "side": {"type": "string", "description": "side of the model at each position"},
            "base": {**number, "description": "its base diameter, in `units`"},
            "step": {"type": ["number", "null"], "description": "grid step, in `units`"},
            "units": {"enum": ["mm", "in"]},
            "rules": {"enum": ["core", "vts"]},
            "weapon": {
                "type": "string",
                "description": "`best`, or the weapon id asked for (`--weapon`): shooters "
                "carrying it are judged with it alone, the others with their best weapon",
            },
            "shooters": {"type": "array", "items": {"type": "string"}},
            "positions": {
                "type": "array",
                "items": point,
                "description": "centres of the model's base where it can stand, in `units`",
            },
            "elevation": {
                "type": "array",
                "items": number,
                "description": "per position: the height it stands at (elevation.standing-on)",
            },
            "grid": {
                "type": ["object", "null"],
                "description": "the grid's [rows, columns]; unplaceable positions are left out",
            },
            "unplaceable": {"type": "integer", "description": "positions left out"},
            "cells": {
                "type": "array",
                "description": "per position, one cell per shooter (in `shooters` order)",
                "items": {"type": "array", "items": cell},
            },
        },
    }


def iter_cells(result: ThreatMap) -> Iterable[tuple[int, int, ThreatCell]]:
    """Every (position, shooter, cell) of the placeable positions."""
    for i in np.flatnonzero(result.placeable).tolist():
        for k in range(len(result.shooters)):
            c = result.cell(i, k)
            assert c is not None
            yield i, k, c
