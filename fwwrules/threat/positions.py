"""Where the target stands: the grid of positions, the height it stands at, and where it
cannot stand (the threat map's positions).

Boundary cases
--------------
* Positions are the centres of the target's base, in the scenario's units. A grid covers the
  given ``area`` (default: the table, or every base and piece plus one target base) with
  cells of ``step``; positions are the cell centres, the grid centred on the area.
* **Standing** (``elevation.standing-on``): the model stands on the ground, or, when its
  centre lies inside pieces with a height (not on an outline), on top of the highest of them
  (:func:`fwwrules.placement.standing_height_v`).
* **Unplaceable**: where the placement rule refuses the base
  (:func:`fwwrules.placement.placeable_v`, the rule ``fwwrules check`` applies): overlapping
  a base on its level, or a ``blocking`` or ``cover`` piece it does not stand on, by more than
  the contact tolerance, or lower than the top of the piece its centre lies on. A base exactly
  touching a piece or a base is placeable.
"""

from __future__ import annotations

import math

import numpy as np

from ..arguments import number
from ..constants import MAX_THREAT_POSITIONS, NORMAL_BASE_MM
from ..data import Scenario
from ..errors import QueryError
from ..kernels import Array
from ..pieces import Bounds
from .cost import Load, too_coarse, too_costly

DEFAULT_BASE_MM = NORMAL_BASE_MM
"""The target's base when none is given: the rulebook's Normal base."""

DEFAULT_STEP_MM = 6.35
"""The grid step when none is given: a quarter inch (grown to stay within the limit)."""


def sides_of(scenario: Scenario) -> list[str]:
    """Every side of the scenario: declared ``sides`` and each model's side, in order."""
    out: list[str] = list(scenario.sides)
    for m in scenario.models:
        s = scenario.side_of(m.faction)
        if s not in out:
            out.append(s)
    return out


def faction_of(scenario: Scenario, side: str) -> str:
    """A faction of ``side`` for the target model (the side's first, else a model's)."""
    if scenario.sides.get(side):
        return scenario.sides[side][0]
    for m in scenario.models:
        if scenario.side_of(m.faction) == side:
            return m.faction
    return side


def fresh_id(scenario: Scenario) -> str:
    """An id no model or piece of the scenario has: ``target``, ``target-2`` ..."""
    taken = {m.id for m in scenario.models} | {t.id for t in scenario.terrain}
    ident, n = "target", 1
    while ident in taken:
        n += 1
        ident = f"target-{n}"
    return ident


def default_area(scenario: Scenario, base: float) -> Bounds:
    """The table (``board: {size}``) when the file gives it; else every base and piece plus
    one target base around (:meth:`Scenario.limits_mm` with that margin), in scenario units
    (:class:`~fwwrules.pieces.Bounds`). An empty board without a size is 100 mm square."""
    u = scenario.unit_mm
    xmin, ymin, xmax, ymax = scenario.limits_mm(margin_mm=base * u)
    return Bounds(xmin / u, ymin / u, xmax / u, ymax / u)


def grid(
    scenario: Scenario,
    base: float,
    step: float | None,
    area: tuple[float, float, float, float] | None,
    load: Load,
    *,
    grown: bool = False,
) -> tuple[Array, tuple[int, int], float]:
    """The positions of a grid over ``area`` (row by row), its ``(rows, columns)`` and step.

    Without a ``step``, a quarter inch grown until the grid fits both the positions limit and
    the map's time budget (``load``, :mod:`fwwrules.threat.cost`); a ``step`` given that does
    not fit is refused, saying the step that would (a ``QueryError``). A default grid
    (``step`` None, or ``grown``: a step the default grid grew to for the budget) is refused
    when the budget makes it coarser than
    :data:`~fwwrules.constants.THREAT_COARSEST_STEP_MM` (or than the positions limit makes
    it over a larger area), naming that limit (:func:`~fwwrules.threat.cost.too_coarse`)."""
    x0, y0, x1, y1 = area if area is not None else default_area(scenario, base)
    if area is not None:
        names = ("x0", "y0", "x1", "y1")
        x0, y0, x1, y1 = (number(v, f"area's {n}") for v, n in zip(area, names, strict=True))
    if x1 <= x0 or y1 <= y0:
        raise QueryError(f"area must be x0,y0,x1,y1 with x0 < x1 and y0 < y1, got {area!r}")
    w, h = x1 - x0, y1 - y0
    most = load.most_positions()
    if most == 0:
        raise QueryError(str(too_costly(load, 0, "")))
    if step is None or grown:
        roomy = DEFAULT_STEP_MM / scenario.unit_mm  # the positions limit alone
        while count(w, roomy) * count(h, roomy) > MAX_THREAT_POSITIONS:
            roomy *= 1.25
        if step is None:
            step = roomy
            while count(w, step) * count(h, step) > most:
                step *= 1.25
        coarse = too_coarse(step, roomy, scenario.unit_mm, scenario.units)
        if coarse is not None:
            raise QueryError(coarse)
    if isinstance(step, bool) or not isinstance(step, int | float) or not step > 0:
        raise QueryError(f"step must be a positive number, got {step!r}")
    step = number(step, "step")
    smallest = math.ceil(math.sqrt(w * h / most) * 100) / 100
    if (w / step) * (h / step) > MAX_THREAT_POSITIONS:
        raise QueryError(
            f"a step of {step:g} gives {_positions(w, h, step)}, more than the limit of "
            f"{MAX_THREAT_POSITIONS} positions; use a step of at least {smallest:g}"
        )
    nx, ny = count(w, step), count(h, step)
    refused = too_costly(load, nx * ny, f"use a step of at least {smallest:g} or a smaller area")
    if refused is not None:
        raise QueryError(refused)
    xs = x0 + (w - nx * step) / 2 + step * (np.arange(nx) + 0.5)
    ys = y0 + (h - ny * step) / 2 + step * (np.arange(ny) + 0.5)
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack((gx.ravel(), gy.ravel())), (ny, nx), float(step)


def _positions(w: float, h: float, step: float) -> str:
    """How many positions a step gives, in words (``400 x 400 = 160000 positions``; ``about
    1e+30 positions`` or ``too many positions to count`` when they cannot be written out)."""
    n = w / step * (h / step)
    if n <= 1e12:
        nx, ny = count(w, step), count(h, step)
        return f"{nx} x {ny} = {nx * ny} positions"
    return f"about {n:.3g} positions" if math.isfinite(n) else "too many positions to count"


def count(length: float, step: float) -> int:
    """Grid cells of ``step`` along ``length`` (at least one)."""
    return max(1, math.floor(length / step + 1e-9))
