"""Placing a base by hand: where a straight move stops, and the board it must stay on.

Panels and the board editor move bases with the mouse; these pure functions say where such a
move ends so that a base never overlaps another base and never leaves the table.

* :func:`board_bounds`: the table ``(xmin, ymin, xmax, ymax)`` in scenario units: the
  scenario's ``board: {size: [w, h]}`` from the origin, or (without it) the contents' extent
  plus a margin.
* :func:`stop_at_contact`: move a base along the straight segment from where it stands toward
  a point and stop at the first contact with another base (gap 0) or at the table's edge.
* :func:`slide_at_contact`: what a mouse drag does: the straight move, and when it stops at a
  base or at the table's edge, the rest of the motion slides along what it touches (the base
  keeps the tangential part of the motion instead of sticking).

Terrain does not stop a base (models stand on and in terrain); only other bases and the
table's edge do.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from .arguments import point, scenario_object
from .cache import Moved
from .constants import BOARD_MARGIN_MM, BOUNDARY_TOLERANCE_MM
from .pieces import Bounds

if TYPE_CHECKING:
    from .board import Board, Disc, ModelGeometry
    from .data import Scenario

"""``(xmin, ymin, xmax, ymax)``."""

CONTENT_MARGIN_MM = BOARD_MARGIN_MM
"""Without a ``board`` size, the table is the contents' extent plus this on every side."""


def move_model(scenario: Scenario, model_id: str, x: float, y: float) -> Scenario:
    """The scenario with one model's centre at ``(x, y)`` in scenario units (a new scenario;
    nothing is checked here but the id and the point: use :func:`stop_at_contact` to keep
    bases apart). An unknown id raises :class:`~fwwrules.errors.UnknownIdError`, a point
    that is not two finite numbers within the coordinate limit a
    :class:`~fwwrules.errors.QueryError`. The moved board is checked as any board is, when
    it is next ruled on, drawn or mapped (:func:`fwwrules.checks.checked`): the moved model
    alone, against the rest (a base moved onto another is refused then, naming both).

    Its cache starts from the old scenario's (:meth:`~fwwrules.cache.Derived.carry_moved`):
    what was derived from the terrain alone is shared (terrain geometry, merged solids,
    Significant Edges), what depends on the models is carried where the move cannot change it
    (the other models' bases, the pieces under them, the engagements between them).

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 32.0, (0.0, 0.0)),))
    >>> move_model(s, "a", 10, 20).model("a").at
    (10.0, 20.0)
    """
    scenario = scenario_object(scenario, "move_model")  # checked when next ruled on
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    at = point((x, y), "the new centre")
    models = tuple(
        dataclasses.replace(m, at=at) if m.id == model_id else m for m in scenario.models
    )
    moved = dataclasses.replace(scenario, models=models)
    moved.derived.carry_moved(scenario.derived, Moved(scenario, moved, frozenset({model_id})))
    return moved


def board_bounds(scenario: Scenario) -> Bounds:
    """The table's :class:`~fwwrules.pieces.Bounds` in scenario units.

    With ``board: {size: [w, h]}`` it is ``(0, 0, w, h)``. Without it, every base and terrain
    piece plus :data:`CONTENT_MARGIN_MM` on each side; an empty scenario gets
    ``(0, 0, 100 mm, 100 mm)``.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 40.0, (100.0, 50.0)),))
    >>> board_bounds(s)
    Bounds(xmin=50.0, ymin=0.0, xmax=150.0, ymax=100.0)
    """
    size = scenario.board_size
    if size is not None:
        return Bounds(0.0, 0.0, float(size[0]), float(size[1]))
    xmin, ymin, xmax, ymax = scenario.limits_mm(CONTENT_MARGIN_MM)
    u = scenario.unit_mm
    return Bounds(xmin / u, ymin / u, xmax / u, ymax / u)


def _first_contact(
    px: float, py: float, dx: float, dy: float, qx: float, qy: float, reach: float
) -> float | None:
    """The smallest s in [0, 1] where ``|p + s d - q| = reach``, moving closer; ``0.0`` when
    already within ``reach`` and moving closer; None when the move never comes that close."""
    ox, oy = px - qx, py - qy
    c = ox * ox + oy * oy - reach * reach
    b = 2.0 * (ox * dx + oy * dy)
    if c <= 0.0:  # touching or overlapping already: only moving away is free
        return 0.0 if b < 0.0 else None
    a = dx * dx + dy * dy
    disc = b * b - 4.0 * a * c
    if a == 0.0 or disc < 0.0 or b >= 0.0:
        return None
    s = (-b - math.sqrt(disc)) / (2.0 * a)
    return s if s <= 1.0 else None


def _edge_stop(p: float, d: float, low: float, high: float) -> float | None:
    """The smallest s in [0, 1] where ``p + s d`` reaches ``low`` or ``high`` moving outward
    (``0.0`` when already outside and moving further out)."""
    if d < 0.0:
        if p <= low:
            return 0.0
        s = (low - p) / d
        return s if s <= 1.0 else None
    if d > 0.0:
        if p >= high:
            return 0.0
        s = (high - p) / d
        return s if s <= 1.0 else None
    return None


def stop_at_contact(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where ``model_id``'s centre ends when moved straight toward ``to`` (scenario units).

    The base moves along the segment from its centre to ``to`` and stops at the first point
    where it touches another base (gap 0, never overlapping) or where its edge reaches the
    table's edge (``bounds``, default :func:`board_bounds`). Boundary cases:

    * a base already in contact with (or overlapping) another may move away from it, but a
      move that brings the two centres closer stops at once (the base stays put);
    * a base already (partly) off the table may move back on, not further off;
    * a move passing another base at exactly the sum of the radii touches it (gap 0) and
      stops there;
    * ``to`` equal to the centre returns the centre; other bases' overlaps are not checked.

    The stop is placed a rounding step (:data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`)
    before the contact, so the bases touch within any contact tolerance and never overlap.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 20.0, (0.0, 0.0)), Model("b", "y", 20.0, (50.0, 0.0))))
    >>> x, y = stop_at_contact(s, "a", (100.0, 0.0))
    >>> round(x, 6), y
    (30.0, 0.0)
    >>> stop_at_contact(s, "a", (0.0, 25.0))  # sideways: free (the contents' margin is 30)
    (0.0, 25.0)
    """
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    u = scenario.unit_mm
    board = scenario.board
    me = board.models[model_id].disc
    px, py, r = me.x, me.y, me.r
    tx, ty = (v * u for v in point(to, "the point moved toward"))
    dx, dy = tx - px, ty - py
    length = math.hypot(dx, dy)
    if length == 0.0:
        return (px / u, py / u)
    s = 1.0
    for mid, g in board.models.items():
        if mid == model_id:
            continue
        hit = _first_contact(px, py, dx, dy, g.disc.x, g.disc.y, r + g.disc.r)
        if hit is not None:
            s = min(s, hit)
    xmin, ymin, xmax, ymax = board_bounds(scenario) if bounds is None else bounds
    for p, d, low, high in (
        (px, dx, xmin * u + r, xmax * u - r),
        (py, dy, ymin * u + r, ymax * u - r),
    ):
        hit = _edge_stop(p, d, low, high)
        if hit is not None:
            s = min(s, hit)
    if s < 1.0:
        s = max(0.0, s - BOUNDARY_TOLERANCE_MM / length)
    return ((px + s * dx) / u, (py + s * dy) / u)


SLIDE_STEP_MM = 2.0
"""A slide around a base is checked for other bases every this many mm of arc."""


def _clear(
    board_models: Mapping[str, ModelGeometry], model_id: str, x: float, y: float, r: float
) -> bool:
    """True when a base of radius ``r`` at ``(x, y)`` mm overlaps no other base."""
    for mid, g in board_models.items():
        if mid != model_id and math.hypot(x - g.disc.x, y - g.disc.y) < r + g.disc.r:
            return False
    return True


def slide_at_contact(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where ``model_id``'s centre ends when dragged toward ``to`` (scenario units).

    First the straight move of :func:`stop_at_contact`. When it stops short of ``to``, the
    rest of the motion is not lost:

    * stopped by another base: the base slides round it, keeping contact (gap 0), by the
      tangential part of the rest of the motion (as arc length on the circle of contact);
      the part into the other base is dropped. It goes no further than the point of contact
      nearest ``to``, so a pointer held still inside the other base draws the base to the
      contact point facing it without overshooting;
    * stopped by the table's edge: it slides along the edge toward ``to`` clamped onto the
      table, stopping at a base on the way (a straight :func:`stop_at_contact`).

    Boundary cases: a slide round a base stops before the first point (checked every
    :data:`SLIDE_STEP_MM` of arc) where it would overlap a third base or leave the table, so a
    base wedged between two others stays where the straight move left it; a slide never
    goes more than a quarter turn round the touched base in one motion; a motion straight at
    the touched base's centre (no tangential part) leaves the base where it stopped.

    >>> from fwwrules.data import Model, Scenario
    >>> s = Scenario(models=(Model("a", "x", 20.0, (0.0, 0.0)), Model("b", "y", 20.0, (30.0, 0.0))))
    >>> x, y = slide_at_contact(s, "a", (60.0, 40.0))  # aimed past b: slides round it
    >>> round(math.hypot(x - 30.0, y), 6), y > 10.0
    (20.0, True)
    """
    u = scenario.unit_mm
    box = board_bounds(scenario) if bounds is None else bounds
    sx, sy = stop_at_contact(scenario, model_id, to, bounds=box)
    tx, ty = float(to[0]), float(to[1])
    if math.isclose(sx, tx, abs_tol=1e-12) and math.isclose(sy, ty, abs_tol=1e-12):
        return (sx, sy)
    board = scenario.board
    r = board.models[model_id].disc.r
    px, py, gx, gy = sx * u, sy * u, tx * u, ty * u
    xmin, ymin, xmax, ymax = (v * u for v in box)
    lo_x, hi_x, lo_y, hi_y = xmin + r, xmax - r, ymin + r, ymax - r
    touched = _touched(board, model_id, (px, py), r)
    if touched is None:  # stopped by the table's edge: slide along it
        cx, cy = min(max(gx, lo_x), hi_x), min(max(gy, lo_y), hi_y)
        moved = move_model(scenario, model_id, px / u, py / u)
        return stop_at_contact(moved, model_id, (cx / u, cy / u), bounds=box)

    def free(x: float, y: float) -> bool:
        slack = BOUNDARY_TOLERANCE_MM
        on_table = lo_x - slack <= x <= hi_x + slack and lo_y - slack <= y <= hi_y + slack
        return on_table and _clear(board.models, model_id, x, y, r)

    end = _round_base(touched, r, (px, py), (gx, gy), free)
    if end is None:
        return (sx, sy)
    return (end[0] / u, end[1] / u)


def _touched(board: Board, model_id: str, at: tuple[float, float], r: float) -> Disc | None:
    """The base a base of radius ``r`` at ``at`` (mm) stopped against: the nearest within the
    contact tolerance, if any."""
    touched = None
    best = math.inf
    for mid, g in board.models.items():
        if mid == model_id:
            continue
        gap = math.hypot(at[0] - g.disc.x, at[1] - g.disc.y) - r - g.disc.r
        if gap <= board.contact_tolerance and gap < best:
            touched, best = g.disc, gap
    return touched


def _round_base(
    touched: Disc,
    r: float,
    at: tuple[float, float],
    aim: tuple[float, float],
    free: Callable[[float, float], bool],
) -> tuple[float, float] | None:
    """Where a base of radius ``r`` at ``at`` (mm, touching ``touched``) ends when it slides
    round ``touched`` toward ``aim``: by the tangential part of the motion, never past the
    point of contact nearest the aim, never more than a quarter turn, stopping before the
    first place that is not ``free``. ``None`` when there is no tangential part."""
    (px, py), (gx, gy) = at, aim
    bx, by, reach = touched.x, touched.y, r + touched.r + BOUNDARY_TOLERANCE_MM
    a0 = math.atan2(py - by, px - bx)
    # The tangential part of the rest of the motion, as an angle round the touched base ...
    tangential = (gx - px) * -math.sin(a0) + (gy - py) * math.cos(a0)
    turn = tangential / reach
    # ... never past the point of contact nearest the aim, never more than a quarter turn.
    a1 = math.atan2(gy - by, gx - bx)
    nearest = (a1 - a0 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    if turn * nearest <= 0.0:
        return None
    turn = math.copysign(min(abs(turn), abs(nearest), math.pi / 2), turn)
    steps = max(1, math.ceil(abs(turn) * reach / SLIDE_STEP_MM))
    end = (px, py)
    for i in range(1, steps + 1):
        a = a0 + turn * i / steps
        x, y = bx + reach * math.cos(a), by + reach * math.sin(a)
        if not free(x, y):
            break
        end = (x, y)
    return end


# --- snapping and the numbers a hand placement writes ---------------------------------------

SNAP_STEPS: Mapping[str, float] = MappingProxyType({"in": 0.25, "mm": 1.0})
"""The snap grid by units: a quarter inch in inch files, a millimetre in mm files."""
PLACED_DECIMALS: Mapping[str, int] = MappingProxyType({"in": 2, "mm": 1})
"""Decimals a hand placement keeps when it is not on the snap grid (a stop at contact):
a hundredth of an inch (0.254 mm) or a tenth of a millimetre, both far inside the contact
tolerance, so a base rounded there is still in contact and never overlaps beyond it."""
MAX_DECIMALS = 4
"""The most decimals a file's coordinates are shown with (1e-4 of a unit)."""


def snap_step(units: str) -> float:
    """The snap grid's step in ``units`` (``"in"`` or ``"mm"``)."""
    return SNAP_STEPS["in" if units == "in" else "mm"]


def snap(value: float, units: str) -> float:
    """``value`` on the snap grid of ``units`` (0.25 in or 1 mm), as a short decimal.

    >>> snap(7.0054869684499295, "in"), snap(11.999999999999998, "in"), snap(31.6, "mm")
    (7.0, 12.0, 32.0)
    """
    step = snap_step(units)
    return round(round(value / step) * step, PLACED_DECIMALS["in" if units == "in" else "mm"])


def decimals(scenario: Scenario) -> int:
    """How many decimals the scenario's positions are shown and written with: those of its
    units' hand placements (2 for inches, 1 for mm), or more where the file itself gives
    more (an eighth of an inch, 0.125), up to :data:`MAX_DECIMALS`."""
    out = PLACED_DECIMALS["in" if scenario.units == "in" else "mm"]
    for m in scenario.models:
        for v in m.at:
            out = max(out, _decimals_of(v))
    return min(out, MAX_DECIMALS)


def _decimals_of(value: float) -> int:
    text = repr(float(value))
    if "e" in text or "E" in text:
        return MAX_DECIMALS
    return len(text.partition(".")[2].rstrip("0"))


def place_by_hand(
    scenario: Scenario,
    model_id: str,
    to: tuple[float, float],
    *,
    snapped: bool = True,
    bounds: Bounds | None = None,
) -> tuple[float, float]:
    """Where a base dragged by hand toward ``to`` ends, as the number a file would hold.

    ``to`` is put on the snap grid (with ``snapped``), the base moves there as
    :func:`slide_at_contact` says (stopping at contact and at the table's edge), and the
    result is rounded to the units' :data:`PLACED_DECIMALS`: of the four nearest such points,
    the nearest that overlaps no base and stays on the table. On the grid the result is the
    grid point; at a contact it is the contact point to a hundredth of an inch or a tenth of
    a millimetre, on the free side (a gap of at most 0.36 mm: still in contact, far inside
    the contact tolerance). When no rounded point is clear the plain rounding is returned.
    """
    units = "in" if scenario.units == "in" else "mm"
    if snapped:
        to = (snap(to[0], units), snap(to[1], units))
    box = board_bounds(scenario) if bounds is None else bounds
    x, y = slide_at_contact(scenario, model_id, to, bounds=box)
    places = PLACED_DECIMALS[units]
    scale = 10**places
    plain = (round(x, places), round(y, places))
    if plain == (x, y):
        return plain
    options = sorted(
        {(round(cx / scale, places), round(cy / scale, places))
         for cx in (math.floor(x * scale), math.ceil(x * scale))
         for cy in (math.floor(y * scale), math.ceil(y * scale))},
        key=lambda p: math.hypot(p[0] - x, p[1] - y),
    )  # fmt: skip
    u = scenario.unit_mm
    models = scenario.board.models
    r = models[model_id].disc.r
    for px, py in options:
        on_table = (
            box[0] * u + r <= px * u <= box[2] * u - r
            and box[1] * u + r <= py * u <= box[3] * u - r
        )
        if on_table and _clear(models, model_id, px * u, py * u, r):
            return (px, py)
    return plain
