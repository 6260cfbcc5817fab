"""The threat map's result (:class:`ThreatMap`) and its entry point (:func:`threat_map`).

Definitions
-----------
* **The target model** at a position has the given base and a faction of ``target_side``;
  the shooters are every model opposing it (``Scenario.opposing``), in file order.
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
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from .. import arguments
from ..attack import ruling
from ..checks import usable
from ..constants import MAX_COORDINATE, MAX_THREAT_POSITIONS, SANE_BASE_MM, THREAT_BUDGET_S
from ..data import Scenario
from ..errors import QueryError
from ..kernels import Array, BoolArray
from ..pieces import IMPROVISED, Rules
from ..rulesets import ruleset_name
from .compute import Computed, Query, affected, compute, with_model
from .cost import Load, TooCostly, load_of, too_costly
from .document import CELL_FIELDS, CellDoc, CellFields, GridDoc, ThreatDocument
from .positions import DEFAULT_BASE_MM, DEFAULT_STEP_MM, faction_of, fresh_id, grid, sides_of
from .shooter import NO_REASON, Layers


@dataclass(frozen=True, slots=True)
class ThreatCell:
    """One position and one shooter: the ruling's outcome, reduced."""

    shooter: str
    weapon: str
    allowed: bool
    modifier: int | None
    covered: bool | None
    reason: str | None


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
    step_default: float | None = None
    """The default step (a quarter inch, scenario units) when the grid's step was not given;
    ``step`` is wider where the default grid grew to fit its limits. ``None``: a step was
    given, or positions."""

    @classmethod
    def of(
        cls,
        scenario: Scenario,
        q: Query,
        pts: Array,
        where: tuple[tuple[int, int] | None, float | None],
        c: Computed,
        *,
        step_default: float | None = None,
    ) -> ThreatMap:
        """The map of ``q`` at ``pts`` (a grid's ``(shape, step)``, or ``(None, step)``;
        ``step_default``: the default step where none was given)."""
        pts.setflags(write=False)
        out = c.layers
        return cls(
            scenario=scenario,
            side=q.side,
            faction=q.faction,
            target_id=q.target_id,
            base=q.base,
            step=where[1],
            rules=q.rules,
            shooters=q.shooters,
            positions=pts,
            shape=where[0],
            placeable=c.placeable,
            elevation=c.elevation,
            allowed=out.allowed,
            modifier=out.modifier,
            covered=out.covered,
            reason=out.reason,
            weapon=out.weapon,
            exact=out.exact,
            clauses=c.clauses,
            weapon_choice=q.weapon,
            step_default=step_default,
        )

    @property
    def query(self) -> Query:
        """What this map asks (side, target, base, rules, shooters, weapon)."""
        return Query(
            self.side,
            self.faction,
            self.target_id,
            self.base,
            self.rules,
            self.shooters,
            self.weapon_choice,
        )

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
        """The cell of one position and shooter (``None`` where the position is unplaceable):
        the one-cell case of :meth:`_cell_rows`."""
        k = self.shooters.index(shooter) if isinstance(shooter, str) else shooter
        if not self.placeable[position]:
            return None
        ((allowed, modifier, reason, weapon),) = self._cell_rows(np.array([position]), (k,))[0]
        return ThreatCell(
            shooter=self.shooters[k],
            weapon=weapon,
            allowed=allowed,
            modifier=modifier,
            covered=bool(self.covered[position, k]) if allowed else None,
            reason=reason,
        )

    def nearest(self, x: float, y: float) -> int:
        """The index of the position nearest to ``(x, y)`` (scenario units)."""
        d = np.hypot(self.positions[:, 0] - x, self.positions[:, 1] - y)
        return int(np.argmin(d))

    def target_scenario(self, position: int) -> Scenario:
        """The scenario with the target model standing at ``position`` (for full rulings)."""
        x, y = (float(v) for v in self.positions[position])
        model = self.query.target_at(x, y, float(self.elevation[position]))
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
        scenario = usable(scenario, "ThreatMap.update")  # a moved board too
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
        q = self.query
        pts = np.array(self.positions)
        only = affected(old, scenario, ids, q, pts) if same else None
        prior = self._computed() if same else None
        c = compute(scenario, q, pts, only=only, prior=prior)
        where = (self.shape, self.step)
        return ThreatMap.of(scenario, q, pts, where, c, step_default=self.step_default)

    def _computed(self) -> Computed:
        layers = Layers(
            self.allowed, self.modifier, self.covered, self.reason, self.weapon, self.exact
        )
        return Computed(self.placeable, self.elevation, layers, self.clauses)

    def _cell_rows(
        self, idx: NDArray[np.intp], shooters: Sequence[int] | None = None
    ) -> list[list[CellFields]]:
        """The fields of :class:`CellDoc` (allowed, modifier, reason, weapon) of every cell at
        the positions ``idx``, one row per position, one entry per shooter (the indices
        ``shooters``, default all in :attr:`shooters` order), read column by column (one
        shooter at a time): the one place a cell's modifier (only where the attack is allowed),
        reason (a clause id, or none) and weapon id are read from the layers."""
        columns = []
        for k in range(len(self.shooters)) if shooters is None else shooters:
            sid = self.shooters[k]
            ids = [w.id for w in self.scenario.weapons_of(self.scenario.model(sid))]
            allowed = self.allowed[idx, k].tolist()
            modifier = self.modifier[idx, k].tolist()
            reason = [
                None if code == NO_REASON else self.clauses[code]
                for code in self.reason[idx, k].tolist()
            ]
            weapon = [ids[w] for w in self.weapon[idx, k].tolist()]
            columns.append(
                [
                    (a, m if a else None, r, w)
                    for a, m, r, w in zip(allowed, modifier, reason, weapon, strict=True)
                ]
            )
        return [list(row) for row in zip(*columns, strict=True)] if columns else [[] for _ in idx]

    def document(self) -> ThreatDocument:
        """The ``fwwrules/threat@1`` document (placeable positions only)."""
        idx = np.flatnonzero(self.placeable)
        cells = [[CellDoc(*f) for f in row] for row in self._cell_rows(idx)]
        return self._document(idx, cells)

    def _document(self, idx: NDArray[np.intp], cells: list[list[CellDoc]]) -> ThreatDocument:
        return ThreatDocument(
            format="fwwrules/threat@1",
            side=self.side,
            base=self.base,
            step=self.step,
            units=self.scenario.units,
            rules=cast("Rules", self.rules),
            weapon=self.weapon_choice,
            shooters=list(self.shooters),
            positions=[(_num(x), _num(y)) for x, y in self.positions[idx].tolist()],
            elevation=[_num(e) for e in self.elevation[idx].tolist()],
            grid=None if self.shape is None else GridDoc(self.shape),
            unplaceable=int(len(self.positions) - len(idx)),
            cells=cells,
        )

    def to_dict(self) -> dict[str, Any]:
        """The ``fwwrules/threat@1`` JSON (placeable positions only): ``document().to_json()``,
        with the cells written straight from the layers (a map holds up to
        :data:`~fwwrules.constants.MAX_THREAT_POSITIONS` positions times its shooters)."""
        idx = np.flatnonzero(self.placeable)
        out = self._document(idx, []).to_json()
        out["cells"] = [
            [dict(zip(CELL_FIELDS, f, strict=True)) for f in row] for row in self._cell_rows(idx)
        ]
        return out

    @property
    def stats(self) -> dict[str, int]:
        """How many cells there are and how many ``fwwrules.ruling`` decided itself."""
        live = self.placeable[:, None] & np.ones(len(self.shooters), dtype=bool)[None, :]
        return {"cells": int(live.sum()), "exact": int((self.exact & live).sum())}


def _num(v: float) -> float:
    return round(float(v), 6)


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

    Raises :class:`~fwwrules.errors.QueryError` for something else than a scenario, an
    unknown side, a base or step that is not a positive number (or a base outside the bases
    a file may hold, a step or area beyond the coordinate limit), an unknown ``weapon``
    (``"best"`` or a weapon id of the file, ``improvised`` included), more positions than the
    limit, or a map whose estimated time exceeds the budget (:mod:`fwwrules.threat.cost`; the
    message names the step or the number of positions that would fit), or whose default grid
    would fit it only at a step coarser than
    :data:`~fwwrules.constants.THREAT_COARSEST_STEP_MM` (6″; the message names the limit and
    the step).

    ``weapon``: ``"best"`` (each shooter's best weapon, see the module's definitions), or a
    weapon id: each shooter that carries it is judged with that weapon alone (the cell is
    what ``fwwrules ruling --weapon W`` says); a shooter that does not carry it keeps its
    best weapon (the cell's ``weapon`` says which).
    """
    scenario = usable(scenario, "threat_map")  # a grid is refused by name
    area = None if area is None else arguments.area(area, "area")
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
    base = _base(scenario, base)
    faction = faction_of(scenario, target_side)
    q = Query(target_side, faction, fresh_id(scenario), base, rules, (), weapon)
    probe = q.target_at(0.0, 0.0)
    q = dataclasses.replace(
        q, shooters=tuple(m.id for m in scenario.models if scenario.opposing(probe, m))
    )
    load = load_of(scenario, len(q.shooters))
    if positions is not None:
        pts = _positions(positions, load)
        try:
            return ThreatMap.of(scenario, q, pts, (None, step), compute(scenario, q, pts))
        except TooCostly as exc:
            raise QueryError(f"{exc}: ask for fewer positions") from None
    return _grid_map(scenario, q, (base, step, area), load)


GRID_TRIES = 4
"""How often the default grid grows its step after the rulings its fast path left were
counted (:class:`~fwwrules.threat.cost.TooCostly`) before the map is refused."""


def _grid_map(
    scenario: Scenario,
    q: Query,
    asked: tuple[float, float | None, tuple[float, float, float, float] | None],
    load: Load,
) -> ThreatMap:
    """The map over a grid: ``asked`` is the base, the step (``None``: the default, grown
    until the whole estimate fits, at most to
    :data:`~fwwrules.constants.THREAT_COARSEST_STEP_MM`) and the area. A step given whose
    rulings do not fit is refused, naming a step that would."""
    base, step, area = asked
    given = step is not None
    default = None if given else DEFAULT_STEP_MM / scenario.unit_mm
    for _ in range(GRID_TRIES):
        pts, shape, step_used = grid(scenario, base, step, area, load, grown=not given)
        try:
            c = compute(scenario, q, pts)
            return ThreatMap.of(scenario, q, pts, (shape, step_used), c, step_default=default)
        except TooCostly as exc:
            fit = exc.fitting_step(step_used)
            if given:
                raise QueryError(
                    f"{exc}: a step of {fit:g} {scenario.units} or more fits (or a smaller area)"
                ) from None
            step = fit
    raise QueryError(
        f"the threat map does not fit its budget of {THREAT_BUDGET_S:g} s even at a step of "
        f"{step:g} {scenario.units}: ask for a smaller area or a side with fewer enemy models"
    )


def _base(scenario: Scenario, base: float | None) -> float:
    """The target's base diameter (scenario units): a positive number within the bases a
    scenario file may hold (:data:`~fwwrules.constants.SANE_BASE_MM`)."""
    if base is None:
        return DEFAULT_BASE_MM / scenario.unit_mm
    if isinstance(base, bool) or not isinstance(base, int | float) or not base > 0:
        raise QueryError(f"base must be a positive number, got {base!r}")
    base = arguments.number(base, "base")
    lo, hi = SANE_BASE_MM
    if not lo <= base * scenario.unit_mm <= hi:
        u = scenario.units
        raise QueryError(
            f"base {base:g} {u} is outside the bases a scenario may hold "
            f"({lo / scenario.unit_mm:g} to {hi / scenario.unit_mm:g} {u})"
        )
    return base


def _positions(positions: Sequence[tuple[float, float]], load: Load) -> Array:
    """Given positions as a ``(P, 2)`` array: finite, within the coordinate limit, not more
    than the limit and the time budget allow."""
    try:
        pts = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
    except (TypeError, ValueError):
        raise QueryError("positions must be a list of (x, y) points of two numbers") from None
    if not np.isfinite(pts).all():
        raise QueryError("positions must be finite numbers")
    if len(pts) and np.abs(pts).max() > MAX_COORDINATE:
        raise QueryError(f"positions must lie within the coordinate limit of {MAX_COORDINATE:g}")
    if len(pts) > MAX_THREAT_POSITIONS:
        raise QueryError(f"{len(pts)} positions is more than the limit of {MAX_THREAT_POSITIONS}")
    refused = too_costly(load, len(pts), "ask for fewer positions")
    if refused is not None:
        raise QueryError(refused)
    return pts
