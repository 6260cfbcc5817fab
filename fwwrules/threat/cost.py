"""What a threat map costs, and its limit: the map's work is bounded by design.

The fast path's work grows with three things (positions × shooters × corners): for each
shooter, every position's line is tested against the pieces and bases in view (a cost per
position and object), and every convex part of every piece is prepared once for the shooter
(a cost per corner). :func:`estimate` models the time with constants measured on the 2-core
development machine (the threat rows of ``bench/worst_case.py``, the crowded board of
``bench/threat_map.py``); it errs high. A map estimated above
:data:`~fwwrules.constants.THREAT_BUDGET_S` is refused with a
:class:`~fwwrules.errors.QueryError` that names what to reduce (the step, the area, the
positions), and the default grid grows its step until its estimate fits. Memory stays
bounded by batching (the line-of-sight proofs take
:data:`~fwwrules.threat.sight._EXTREMAL_BATCH` positions at a time): about 130 MB at worst.

Boundary cases
--------------
* A board whose shooters and corners alone exceed the budget (no position at all) is refused
  whatever the step: the message names the shooters and the corners.
* The positions limit :data:`~fwwrules.constants.MAX_THREAT_POSITIONS` applies as well.
* The default grid grows its step at most to
  :data:`~fwwrules.constants.THREAT_COARSEST_STEP_MM` (6″): a board whose map fits only at a
  coarser step is refused (:func:`too_coarse`), naming that limit and the step that fits,
  rather than answered with a map of a few positions. A step given is taken as asked.
* The positions standing on solid pieces without a height are looked at group by group
  (positions on the same pieces together, those pieces left out): each shooter's look at
  a group costs :data:`PER_PASS_OBJECT_S` per piece or base. The passes, and the cells left
  to the rulings themselves (a target near contact, off the ground, beside heights:
  :func:`fwwrules.ruling` per cell and weapon; :data:`PER_RULING_S` each, and
  :data:`PER_RULING_OBJECT_S` per piece or base), are counted once the rules before line
  of sight (range, elevation) have marked them and before any pass runs, and the rulings
  once more before any of them runs. The positions each pass's cheap line-of-sight
  proofs leave to the costly ones (a target in the partial shadow of the pieces:
  :func:`fwwrules.threat.sight.sight_finish`, :data:`PER_PROOF_S` each) are counted
  shooter by shooter once those cheap proofs are done and before any costly proof runs (a
  map is refused as soon as the count so far does not fit). A map whose whole estimate
  (:func:`work_seconds` of its :class:`Work`) then exceeds the budget is refused
  (:class:`TooCostly`), naming a step that fits; the default grid grows its step instead.
  What a map did is counted as it runs (``Computed.work``) and never exceeds what was
  counted before (``Computed.plan``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..constants import MAX_THREAT_POSITIONS, THREAT_BUDGET_S, THREAT_COARSEST_STEP_MM
from ..data import Scenario
from ..errors import QueryError

PER_POSITION_S = 0.3e-6
"""Seconds per position and shooter, before any piece (measured: 0.2-0.3 µs)."""

PER_OBJECT_S = 0.06e-6
"""Seconds per position, shooter and piece or base on the board (the crowded board of
``bench/threat_map.py``: 3.8 µs per position and shooter with 64 objects)."""

PER_CORNER_S = 45e-6
"""Seconds per corner of the terrain (and of Huge bases) per shooter: each convex part is
prepared for each shooter (measured: 25-35 µs; 8 touching 256-corner stars the most)."""

PER_RULING_S = 1.0e-3
"""Seconds per cell and weapon left to :func:`fwwrules.ruling` (the exact path: the target
added to the board, a full ruling), before any piece: with :data:`PER_RULING_OBJECT_S`,
measured 1.5 ms among 60 pieces and bases, 5 ms among 510 (heights, models at elevations)."""

PER_RULING_OBJECT_S = 10e-6
"""Seconds per such ruling and piece or base on the board."""

PER_PASS_OBJECT_S = 4e-6
"""Seconds per line-of-sight pass and piece or base on the board: a shooter looks at each
group of positions standing on the same solid pieces without a height once, without those
pieces (they block no line of sight to it: the blockers merged again and gathered for the pass;
measured 1.4 ms a pass among 510 pieces and bases, 0.3 ms among 150). The groups now share one
vectorised pass per shooter (each piece left out for the positions on it), and the blockers
are merged again only for a group with positions left to the costly proofs, so this errs
high; kept as measured, so that the maps refused stay those refused before."""

PER_PROOF_S = 300e-6
"""Seconds per position a line-of-sight pass leaves to its costly proofs (extremal lines,
the blockers together, the exact search: :func:`fwwrules.threat.sight.sight_finish`), a
target in the partial shadow of the pieces (the crowded board of ``bench/threat_map.py``:
about 3,800 such positions of 26,244, 0.27 ms each, 40 % of the map's time)."""

HUGE_BASE_CORNERS = 48
"""A Huge base blocks line of sight as a 48-gon of convex parts."""


@dataclass(frozen=True, slots=True)
class Load:
    """What a threat map's time depends on, besides its positions."""

    shooters: int
    objects: int
    corners: int

    def seconds(self, positions: int) -> float:
        """The estimated time (s) of a map of ``positions``."""
        per_position = PER_POSITION_S + PER_OBJECT_S * self.objects
        return self.shooters * (positions * per_position + PER_CORNER_S * self.corners)

    def most_positions(self, budget: float | None = None) -> int:
        """The most positions whose map fits in ``budget`` seconds (default
        :data:`THREAT_BUDGET_S`; at most :data:`MAX_THREAT_POSITIONS`; 0 when none does)."""
        if self.shooters == 0:
            return MAX_THREAT_POSITIONS
        budget = THREAT_BUDGET_S if budget is None else budget
        left = budget / self.shooters - PER_CORNER_S * self.corners
        per_position = PER_POSITION_S + PER_OBJECT_S * self.objects
        return max(0, min(MAX_THREAT_POSITIONS, math.floor(left / per_position)))


def load_of(scenario: Scenario, shooters: int) -> Load:
    """The load of a map of ``scenario`` with ``shooters`` shooters."""
    board = scenario.board
    corners = sum(len(t.polygon.exterior.coords) - 1 for t in board.terrain.values())
    corners += HUGE_BASE_CORNERS * sum(1 for g in board.models.values() if g.size == "huge")
    return Load(shooters, len(board.terrain) + len(board.models), corners)


def too_costly(load: Load, positions: int, hint: str) -> str | None:
    """Why a map of ``positions`` is refused (``hint``: what to reduce), or ``None``."""
    if load.seconds(positions) <= THREAT_BUDGET_S:
        return None
    most = load.most_positions()
    if most == 0:
        return (
            f"{load.shooters} shooters against {load.corners} corners would take about "
            f"{load.seconds(0):.0f} s before the first position, more than the threat map's "
            f"budget of {THREAT_BUDGET_S:g} s: ask for a side with fewer enemy models, or "
            "simplify the terrain (fewer or simpler pieces)"
        )
    return (
        f"{positions} positions with {load.shooters} shooters against {load.corners} corners "
        f"would take about {load.seconds(positions):.0f} s, more than the threat map's budget "
        f"of {THREAT_BUDGET_S:g} s: at most {most} positions fit; {hint}"
    )


def too_coarse(step: float, roomy: float, unit_mm: float, units: str) -> str | None:
    """Why a default grid that fits the budget only at ``step`` (scenario units, ``unit_mm``
    mm each) is refused, or ``None`` when the step is at most
    :data:`~fwwrules.constants.THREAT_COARSEST_STEP_MM` or at most ``roomy``, the step the
    positions limit alone gives the area (an area larger than about 39 m square)."""
    coarsest = THREAT_COARSEST_STEP_MM / unit_mm
    if step <= max(coarsest, roomy):
        return None
    if roomy > coarsest:
        limit = f"{roomy:g} {units}, the step the positions limit gives this area"
    else:
        limit = (
            f"{coarsest:g} {units}, THREAT_COARSEST_STEP_MM: cells that far apart no longer "
            "say where to stand"
        )
    step = math.ceil(step * 100) / 100
    return (
        f"the threat map fits its budget of {THREAT_BUDGET_S:g} s only at a step of "
        f"{step:g} {units}, coarser than a default grid may be ({limit}): ask for a smaller "
        "area or a side with fewer enemy models, or give a step of at least "
        f"{step:g} {units} for a map that coarse"
    )


@dataclass(slots=True)
class Work:
    """A map's work in the units of its estimate: the cells the fast path takes (a position
    and a shooter), its line-of-sight passes (a shooter and a group of positions standing on
    the same pieces) and the full rulings (a cell and a weapon). :func:`compute` counts what
    it does (``Computed.work``) and what its estimate counted before doing it
    (``Computed.plan``: every cell, and the passes and rulings once the rules before line of
    sight have marked them), which bounds each count."""

    cells: int = 0
    passes: int = 0
    rulings: int = 0
    proofs: int = 0
    """Positions the passes' cheap proofs left to the costly ones (counted once every pass's
    cheap proofs are done, before any costly proof runs)."""

    def bounds(self, done: Work) -> bool:
        """Whether this plan counts at least as much of each kind of work as ``done``."""
        return (
            self.cells >= done.cells
            and self.passes >= done.passes
            and self.rulings >= done.rulings
            and self.proofs >= done.proofs
        )


def work_seconds(load: Load, work: Work) -> float:
    """The estimated time (s) of ``work`` on a board of ``load`` (with each shooter's
    preparation of the corners): :meth:`Load.seconds` when there are no passes or rulings."""
    per_cell = PER_POSITION_S + PER_OBJECT_S * load.objects
    per_ruling = PER_RULING_S + PER_RULING_OBJECT_S * load.objects
    return (
        work.cells * per_cell
        + load.shooters * PER_CORNER_S * load.corners
        + work.passes * PER_PASS_OBJECT_S * load.objects
        + work.rulings * per_ruling
        + work.proofs * PER_PROOF_S
    )


class TooCostly(QueryError):
    """A map whose whole estimate (:func:`work_seconds`), once its groups of positions, the
    positions left to the costly proofs or the rulings its fast path left are counted,
    exceeds the budget: ``seconds`` is that estimate, ``fixed`` the part no step changes
    (each shooter's preparation), ``positions`` and ``work`` what it counts (``partial``:
    refused before every shooter's proofs were counted, the others' taken as alike)."""

    def __init__(
        self, positions: int, work: Work, seconds: float, fixed: float, partial: bool = False
    ) -> None:
        self.positions, self.work, self.seconds, self.fixed = positions, work, seconds, fixed
        terms = [
            f"take {work.passes} line-of-sight passes (each shooter looks at each group of "
            "positions standing on the same pieces once)",
            f"leave {work.rulings} cells to a full ruling (a target near contact, off the "
            "ground or beside heights)",
            f"leave {'about ' if partial else ''}{work.proofs} positions to the costly "
            "line-of-sight proofs (a target in the partial shadow of the pieces)",
        ]
        counts = (work.passes, work.rulings, work.proofs)
        what = " and ".join(t for t, n in zip(terms, counts, strict=True) if n)
        super().__init__(
            f"{positions} positions {what}, about {seconds:.0f} s in all, more than the "
            f"threat map's budget of {THREAT_BUDGET_S:g} s"
        )

    def fitting_step(self, step: float) -> float:
        """A step (from ``step``) whose grid, with as many rulings per position, fits 80 % of
        the budget: what grows with the positions shrinks with the square of the step
        (rounded up to two decimals; at least 10 % more)."""
        room = max(0.8 * THREAT_BUDGET_S - self.fixed, 0.05 * THREAT_BUDGET_S)
        grow = math.sqrt(max(self.seconds - self.fixed, 0.0) / room)
        return math.ceil(step * max(grow, 1.1) * 100) / 100
