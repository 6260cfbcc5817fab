"""How close is the call: how far the attacker or the target must move before a ruling changes.

A ruling's *margin* is the smallest distance that one of its two models (the attacker, or the
target when it is a model), moved alone in the table's plane (terrain, every other model and
its own elevation fixed), must travel before anything a player acts on changes: whether the
attack is allowed, the line of sight, the range bands, each cover source and its modifier, the
armor, close combat or not, the skill modifiers, the effect dice, the Armor-die numbers of a
shot into a melee. Its *margins* are the same per decision: the line of sight, each band's end,
each piece's cover, each base contact. The results are :mod:`fwwrules.closeness` records.

How each is found
-----------------
Every decision changes where the moving centre crosses a boundary that the geometry gives
in closed form; the nearest point of each boundary is a *candidate*:

* range bands and the minimum range (``ranged.range``, ``ranged.min-range``): circles round the
  other model's centre (a distance difference: the base's nearest or farthest point at the
  band's end plus the ruler tolerance), exact;
* base contacts (``melee.engaged``, and through it outnumbering, shooting into a melee, the
  Huge model's engaged exception): circles of the sum of the radii plus the contact tolerance,
  exact (the tolerance minus the gap, or the gap minus the tolerance); to make a contact,
  also the contact ring's inner edge (the radii minus the tolerance, the nearest the bases
  may stand), asked a hair onto the ring: where the base cannot stand at the ring's nearest
  places, the ring's nearest place it can stand may lie on that edge, where it meets a
  piece's (:func:`_walk_edge`);
* the Line of Cover (``cover.*``): rays from the fixed end of the line through each corner of a
  piece that the line could graze (a corner with the piece on one side of the line), rays
  tangent to other bases, each side of a piece's outline (the moving centre stepping onto it
  or off it, the line's end leaving it; a centre on a side: straight across it, either
  way), and
  the distance at which a piece touches the shooter (``cover.shooter-contact``; a centre on
  the piece: each side's nearest point, that distance on past it), and where
  a piece touching it would give cover once both the contact breaks and the line passes
  through it: where a ray grazing one of its corners crosses the line at the contact's
  reach from it, and where the reaches of two touching pieces acting as one cover source
  meet (the shooter clear of both: :func:`_contact_pair_corners`) (exact; at such a corner of
  two boundaries the direction stated leads into
  the corner, to the place the ruling is asked, and of such ways the one that stays in the
  corner farthest: moving the margin plus a hair that way changes the ruling, straight
  toward the corner need not, and a narrow corner may be left again micrometres on);
* the line of sight (``ranged.los*``): lines through a blocker's corner tangent to the other
  base (the edge of the corner's shadow) and lines through two corners on opposite sides (a gap
  between two blockers closing), each moved out by the moving base's radius on either side,
  and circles of that radius round each corner (the grazed corner is a tangent); tangents to
  Huge bases likewise; and the moving base reaching a blocker's edge from the piece's side
  (its centre the radius from the edge: stepping out of a dense area, or reaching across a
  strip thinner than the base); and where two of these lines meet (:func:`_line_corners`);
  circles of that radius round the places where two of the unmoved lines cross or one runs
  into a blocker's side (:func:`_crossings`: a pinch point that is no piece's corner), and
  where a circle round a pinch point meets one of the moved-out lines or another such circle
  (:func:`_round_corners`);
* elevation: distances to Significant Edges and to cover at Orange plus the ruler tolerance.

A line that matters only past a point (a ray from a corner, a side of a piece) has its
nearest place there when the perpendicular's foot falls outside it: its end (a ray through a
piece's corner gives cover only past the corner; a model beside the piece reaches it
nearest at the corner, or, where its base cannot stand there, farther along the ray).

A candidate counts only once a full exact ruling (:func:`fwwrules.ruling`) a hair
(:data:`~fwwrules.constants.MARGIN_PROBE_MM`) past it says something changed. Candidates are
confirmed nearest first, so the first confirmed one is the margin (``method: exact``). Where the
nearest point of a boundary is a place the moved model cannot stand (the placement rule: a
base overlapping another base on its level, or a solid piece it does not stand on, by more than
the contact tolerance; off the table), the boundary is searched each way for the nearest
place it can stand, and so is the straight line on past it (a centre stepping off a piece it
stands on reaches the open ground only where its base may stand beside the piece): sampled
every :data:`~fwwrules.constants.MARGIN_SEARCH_STEP_MM`, bisected to
:data:`~fwwrules.constants.MARGIN_PRECISION_MM`, then followed on until the ruling a hair past
the place can be asked where the model can stand too, and, on a line, a hair into the
corner between the line and the edge of where the base may stand, on either side of the
line (the change may lie on the side the model stands, held back only until its base can
stand there) (``method: search``; its
``precision_mm`` says how much nearer the true margin may lie: the bisection's step, more
where the boundary meets the placement's at a narrow angle). A place nobody can stand on is
not a change of the ruling. Clashes the model already has where it stands are not held
against it.

Boundary cases
--------------
* The margin is a boundary: moving the model exactly that far may keep the ruling (a gap of
  exactly the contact tolerance is contact), moving it any farther that way changes it.
* A ruling that does not change while either model moves up to
  :data:`~fwwrules.constants.MARGIN_RADIUS_MM` (2″) says so (``mm`` is ``None``).
* A refused attack presents no cover, armor or dice, so only the facts it keeps (allowed, line
  of sight, range, close combat) are compared while either ruling is refused.
* A target that is a terrain piece or a point does not move; only the attacker does.
* A decision that flips only once two of its line-of-sight boundaries are both crossed, or
  one crossed and the other not (neither alone changes it: a line of sight closing only past
  a side's tangent and short of a corner's shadow edge, or only once the whole base is past
  both shadow edges of a strip) flips nearest where they meet: each such corner within the
  radius is a candidate (:func:`_line_corners`, and with circles round pinch points
  :func:`_round_corners`: the line of sight seen past a corner and through a sliver of the
  other base beside a piece closes only once the base is clear of both); not searched along
  where the model cannot stand there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from .board import Board, Disc
from .closeness import Decision, Flip, Margin, Margins, Method
from .constants import (
    BOUNDARY_TOLERANCE_MM,
    LENGTH_EPSILON_MM,
    MARGIN_CORNER_DEPTH_MM,
    MARGIN_PRECISION_MM,
    MARGIN_PROBE_MM,
    MARGIN_RADIUS_MM,
    MARGIN_SEARCH_STEP_MM,
    MAX_MARGIN_CORNER_PAIRS,
    MAX_MARGIN_PROBES,
)
from .context import AttackContext
from .data import Scenario
from .elevation import compass, significant_edges
from .engagement import same_level
from .los import huge_blocks
from .placement import clashes_at, move_model, placeable_v
from .ranges import band_limits, min_range_mm
from .refs import ModelRef, PieceRef, TerrainRef
from .rulings import AttackRuling, CoverEntry, IgnoredEntry
from .terrain import Solid, merged
from .thresholds import contact_reach, ruler_floor, ruler_reach, touching

Point2 = tuple[float, float]
Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.intp]
Probe = Callable[[Scenario], AttackRuling]
"""A full exact ruling of the same query on a scenario where one model moved."""


# --- what a player acts on: a ruling's outcome, and what changed ------------------------------


def outcome(r: AttackRuling) -> dict[str, object]:
    """The fields of a ruling a player acts on, by key: ``allowed``, ``kind``, ``los``,
    ``bands``, and (kept only when the attack is allowed, as the ruling presents them only
    then) ``cover:<source>``, ``armor``, ``dice``, ``skill``, ``mod:<clause>``, ``into``."""
    out: dict[str, object] = {
        "allowed": (r.allowed, r.not_allowed),
        "kind": r.kind,
        "los": r.line_of_sight,
        "bands": None if r.range is None else (r.range.bands, r.range.band),
    }
    if not r.allowed:
        return out
    out["armor"] = (r.armor.bonus, r.armor.boost)
    out["dice"] = tuple(sorted((c, n) for c, n in r.effect_dice.items() if n))
    out["skill"] = (r.skill.icon, r.skill.value)
    out["into"] = None if r.into_melee is None else (r.into_melee.modifier, r.into_melee.numbers)
    for c in r.cover:
        out[f"cover:{c.source}"] = (c.clause, c.modifier)
    for clause, value in r.modifiers.items():
        out[f"mod:{clause}"] = value
    return out


_FIELD_CLAUSE = {
    "kind": "melee.engaged",
    "los": "ranged.los",
    "bands": "ranged.range",
    "armor": "cover.armor",
    "into": "melee.shoot-into",
}
_DICE_CLAUSES = ("melee.outnumbered", "melee.charge-bonus", "melee.strength", "ranged.range")


def changed(a: AttackRuling, oa: Mapping[str, object], b: AttackRuling) -> tuple[str, ...]:
    """The clause ids whose decisions differ between ruling ``a`` (outcome ``oa``) and ``b``;
    empty when nothing a player acts on changed."""
    ob = outcome(b)
    if oa == ob:
        return ()
    keys = [k for k in dict.fromkeys([*oa, *ob]) if oa.get(k) != ob.get(k)]
    both = a.allowed and b.allowed
    if not both:  # a refused attack presents only its facts
        keys = [k for k in keys if k in ("allowed", "kind", "los", "bands")]
    out: list[str] = []
    for k in keys:
        if k == "allowed":
            out.extend(sorted(set(a.not_allowed) ^ set(b.not_allowed)))
        elif k in _FIELD_CLAUSE:
            out.append(_FIELD_CLAUSE[k])
        elif k.startswith("cover:") and both:
            entry = oa.get(k) or ob.get(k)
            out.append(str(entry[0]) if isinstance(entry, tuple) else "cover.line")
        elif k.startswith("mod:") and both:
            out.append(k[4:])
        elif k in ("dice", "skill") and both:
            diff = {r.clause for r in a.reasons} ^ {r.clause for r in b.reasons}
            out.extend(c for c in _DICE_CLAUSES if c in diff)
    if "ranged.range" in out and "ranged.min-range" in out:
        out.remove("ranged.range")
    return tuple(dict.fromkeys(out)) or ("ranged.skill",)


# --- the work bound ---------------------------------------------------------------------------


class TooMuchWork(Exception):
    """The margins' work would pass its bound (:data:`MAX_MARGIN_CORNER_PAIRS`): ``pairs`` is
    what was counted before any of it was done."""

    def __init__(self, pairs: int) -> None:
        super().__init__(f"{pairs} corner pairs, more than {MAX_MARGIN_CORNER_PAIRS}")
        self.pairs = pairs


@dataclass(slots=True)
class Work:
    """What one margin computation has counted so far: the pairs of corners it weighs as
    lines closing a gap (:func:`_corner_pairs`; a terrain target: its corners times the
    blockers', :func:`_polygon_tangents`), the pairs of line-of-sight lines whose corners
    it weighs (:func:`_line_corners`), the pairs of lines and of lines with blocker sides
    whose crossings it weighs (:func:`_crossings`) and the pairs of circles round pinch
    points with lines and with each other (:func:`_round_corners`), and the pairs of touching
    pieces acting as one whose reaches meet (:func:`_contact_pair_corners`). :meth:`count`
    adds ``n`` items' pairs before they are built and raises :class:`TooMuchWork` past the
    bound."""

    pairs: int = 0

    def count(self, corners: int) -> None:
        self.add(corners * (corners - 1) // 2)

    def add(self, pairs: int) -> None:
        """Count ``pairs`` more (of corners, or of lines or circles meeting:
        :func:`_line_corners`, :func:`_crossings`, :func:`_round_corners`)."""
        self.pairs += pairs
        if self.pairs > MAX_MARGIN_CORNER_PAIRS:
            raise TooMuchWork(self.pairs)


# --- candidates: boundaries in closed form ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Curve:
    """A boundary the moving centre crosses: a line (``origin`` and unit ``way``) or a circle
    (``origin`` its centre, ``radius``). ``half``: a line that matters only on one side of
    ``origin`` (its end: ``+1`` along ``way``, ``-1`` against it; ``0``, the default: both)."""

    origin: Point2
    way: Point2 = (0.0, 0.0)
    radius: float | None = None
    half: int = 0

    def sample(self, p0: Point2, foot: Point2, reach: float, step: float) -> Array:
        """Points of the curve within ``reach`` of ``p0``, every ``step`` mm from ``foot`` (the
        nearest point) outward, nearest first (an ``(n, 2)`` array: ``foot``, then one point
        each way in turn; of a ``half`` line, ``foot`` and then the points on its side)."""
        if self.radius is None:
            off = math.dist(p0, foot)
            if self.half:  # from its end: as far as a place within reach of p0 may lie
                n = int((off + reach) // step)
                t = np.arange(n + 1) * step * self.half
            else:
                half = math.sqrt(max(reach * reach - off * off, 0.0))
                n = int(half // step)
                t = np.concatenate([[0.0], np.repeat(np.arange(1, n + 1) * step, 2)])
                t[2::2] *= -1.0
            return np.column_stack((foot[0] + t * self.way[0], foot[1] + t * self.way[1]))
        cx, cy = self.origin
        rho = self.radius
        d0 = math.dist(p0, self.origin)
        if rho <= 0.0 or d0 <= 0.0:
            return np.array([foot])
        cos_max = (d0 * d0 + rho * rho - reach * reach) / (2.0 * d0 * rho)
        span = math.pi if cos_max <= -1.0 else math.acos(min(max(cos_max, -1.0), 1.0))
        n = int(span * rho // step)
        a0 = math.atan2(foot[1] - cy, foot[0] - cx)
        k = np.concatenate([[0.0], np.repeat(np.arange(1, n + 1) * (step / rho), 2)])
        k[2::2] *= -1.0
        return np.column_stack((cx + rho * np.cos(a0 + k), cy + rho * np.sin(a0 + k)))

    def onward(self, p: Array, back: Array, step: float, n: int) -> Array:
        """``n + 1`` points of the curve from ``p`` (on it) every ``step`` mm, away from
        ``back`` (a point of it just behind ``p``), ``p`` first."""
        k = np.arange(n + 1) * step
        if self.radius is None:
            way = np.asarray(self.way)
            sign = 1.0 if float(np.dot(p - back, way)) >= 0.0 else -1.0
            return np.asarray(p + np.outer(k, sign * way))
        c, rho = np.asarray(self.origin), self.radius
        a = math.atan2(p[1] - c[1], p[0] - c[0])
        turn = a - math.atan2(back[1] - c[1], back[0] - c[0])
        sign = 1.0 if math.remainder(turn, 2.0 * math.pi) >= 0.0 else -1.0
        ang = a + sign * k / rho
        return np.column_stack((c[0] + rho * np.cos(ang), c[1] + rho * np.sin(ang)))


@dataclass(frozen=True, slots=True)
class Candidate:
    """A place where a decision may change: ``mover``'s centre moved to ``point`` (mm),
    ``distance`` from where it stands along unit ``direction``. ``decision``, ``clause``,
    ``source``: what may change (``change``, ``params``: the phrase when the family knows it);
    ``at`` the pinch point; ``curve`` the boundary it lies on (for the search when the model
    cannot stand at ``point``); ``probe``: where the ruling is asked when that is not a hair
    straight on past ``point`` (a corner of two boundaries: a point between them, reached by
    moving ``distance`` plus the hair along ``direction``). ``edge``: the curve is an edge of
    where the base may stand that lies past the change already (a contact ring's inner edge,
    the bases overlapping by the tolerance): where the model cannot stand at ``point`` it is
    searched along to the nearest place it can, asked a hair into the places it may stand
    there (:func:`_walk_edge`)."""

    mover: str
    point: Point2
    distance: float
    direction: Point2
    decision: Decision
    clause: str
    source: PieceRef | None = None
    at: Point2 | None = None
    change: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    curve: Curve | None = None
    method: Method = "exact"
    precision: float = 0.0
    probe: Point2 | None = None
    walk: bool = True
    edge: bool = False

    def probe_point(self) -> Point2:
        """Where the ruling is asked: ``probe``, by default a hair
        (:data:`MARGIN_PROBE_MM`) past ``point`` along ``direction``."""
        if self.probe is not None:
            return self.probe
        return _along(self.point, self.direction, MARGIN_PROBE_MM)


@dataclass(frozen=True, slots=True)
class Mover:
    """A model that may move: id, centre and radius (mm), and the fixed other end of its
    shot: the other model's base (``other``: a disc, radius 0 for a point) or a terrain
    target's polygon (``other_polygon``), and the Line of Cover's fixed end (``loc_end``)."""

    id: str
    p0: Point2
    r: float
    other: Disc | None
    other_polygon: Polygon | None
    loc_end: Point2


def _toward(p0: Point2, q: Point2) -> tuple[Point2, float]:
    """The unit vector from ``p0`` to ``q`` and the distance (``(1, 0)`` for ``q == p0``)."""
    dx, dy = q[0] - p0[0], q[1] - p0[1]
    d = math.hypot(dx, dy)
    return ((dx / d, dy / d) if d > 0.0 else (1.0, 0.0)), d


def _along(p0: Point2, way: Point2, distance: float) -> Point2:
    return (p0[0] + distance * way[0], p0[1] + distance * way[1])


def _radial(
    mover: Mover, centre: Point2, target_d: float, limit: float, **kw: Any
) -> Candidate | None:
    """The candidate where ``mover``'s centre is ``target_d`` from ``centre``: along the line
    of centres, outward or inward (a distance difference, exact); ``None`` beyond ``limit``."""
    out, d0 = _toward(centre, mover.p0)
    delta = target_d - d0
    if target_d < 0.0 or abs(delta) > limit:
        return None
    way = out if delta >= 0.0 else (-out[0], -out[1])
    point = _along(centre, out, target_d)
    return Candidate(mover.id, point, abs(delta), way, curve=Curve(centre, radius=target_d), **kw)


# --- families of candidates -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Threshold:
    """One comparison of a range rule: the centre distance ``d`` at which it flips, on the
    base's nearest (``near``) or farthest point; ``inside_keeps`` whether the decision's
    current side is the inner one; the phrase each way."""

    decision: Decision
    clause: str
    band: str | None
    d: float
    near: bool
    out_change: str
    in_change: str


def _thresholds(ctx: AttackContext, ra: float, rt: float) -> list[_Threshold]:
    """``ranged.range`` and ``ranged.min-range`` as centre distances between attacker and a
    target of radius ``rt`` (0 for a point): each band's end plus the ruler tolerance."""
    w, s = ctx.weapon, ctx.scenario
    if w.type == "melee" or w.short is None:
        return []
    short_end, long_end = band_limits(s, w)
    tol = s.ruler_tolerance_mm
    short = ruler_reach(short_end, tol)
    out = [
        _Threshold("band", "ranged.range", "short", short + ra + rt, True,
                   "band-leaves", "band-enters"),
    ]  # fmt: skip
    if long_end is not None:
        out += [
            _Threshold("band", "ranged.range", "long", short + ra - rt, False,
                       "band-enters", "band-leaves"),
            _Threshold("band", "ranged.range", "long", ruler_reach(long_end, tol) + ra + rt,
                       True, "band-leaves", "band-enters"),
        ]  # fmt: skip
    min_end = min_range_mm(s, w)
    if min_end > 0.0:
        out.append(
            _Threshold("min-range", "ranged.min-range", None,
                       ruler_floor(min_end, tol) + ra - rt, False,
                       "min-range-outside", "min-range-inside")
        )  # fmt: skip
    return out


def band_candidates(ctx: AttackContext, movers: Sequence[Mover], limit: float) -> list[Candidate]:
    """Where a range band's end (or the minimum range) flips: for a model or point target a
    circle round the other end (exact); for a terrain target the nearest or farthest point
    of the piece moved to the band's end (confirmed by a ruling)."""
    shot = ctx.shot
    if shot.b is None:
        return _terrain_band_candidates(ctx, movers[0], limit)
    ra, rt = shot.a.r, shot.b.r
    out: list[Candidate] = []
    for mv in movers:
        assert mv.other is not None
        centre = (mv.other.x, mv.other.y)
        d0 = math.dist(mv.p0, centre)
        toward_target = _toward(shot.a.center, shot.b.center)[0]
        for th in _thresholds(ctx, ra, rt):
            outward = th.d >= d0
            change = th.out_change if outward else th.in_change
            sign = -1.0 if th.near else 1.0
            at = _along(shot.b.center, toward_target, sign * rt)
            params = {"target": ctx.target_ref, "band": th.band}
            found = _radial(mv, centre, th.d, limit, decision=th.decision, clause=th.clause,
                            at=at, change=change, params=params)  # fmt: skip
            if found is not None:
                out.append(found)
    return out


def _terrain_band_candidates(ctx: AttackContext, mv: Mover, limit: float) -> list[Candidate]:
    """Band ends for a terrain target: the attacker moved toward or away from the piece's
    nearest point, or from its farthest corner, by the difference to the band's end."""
    poly = mv.other_polygon
    if poly is None:
        return []
    ra = mv.r
    q = _nearest_on(poly, mv.p0)
    coords = np.asarray(poly.exterior.coords)
    k = int(np.argmax(np.hypot(coords[:, 0] - mv.p0[0], coords[:, 1] - mv.p0[1])))
    w = (float(coords[k, 0]), float(coords[k, 1]))
    out: list[Candidate] = []
    for th in _thresholds(ctx, ra, 0.0):
        anchor = q if th.near else w
        away, d0 = _toward(anchor, mv.p0)
        delta = th.d - d0
        if abs(delta) > limit:
            continue
        way = away if delta >= 0.0 else (-away[0], -away[1])
        change = th.out_change if delta >= 0.0 else th.in_change
        out.append(
            Candidate(mv.id, _along(mv.p0, way, abs(delta)), abs(delta), way, th.decision,
                      th.clause, at=anchor, change=change,
                      params={"target": ctx.target_ref, "band": th.band})
        )  # fmt: skip
    return out


def _outline_feet(geom: BaseGeometry, p: Point2) -> list[tuple[Point2, Curve]]:
    """The nearest point of each side of ``geom``'s outline (a polygon's rings, a line's
    segments) to ``p``: where the centre at ``p`` crosses that side soonest. Every side, not
    only the nearest: a centre inside a piece leaves it at the side the Line of Cover runs
    out through, which may be no nearer than the others (a centre in the middle of a
    square is as near each side) and is the one that changes the cover. Each with the side
    as a :class:`Curve` (from the foot; from its end into the side, when the foot is a
    corner) for the search where the mover cannot stand at the foot."""
    rings = [geom.exterior, *geom.interiors] if isinstance(geom, Polygon) else [geom]
    out: dict[tuple[float, ...], tuple[Point2, Curve]] = {}
    for ring in rings:
        xy = np.asarray(ring.coords, dtype=float)
        a, b = xy[:-1], xy[1:]
        ab = b - a
        length2 = np.einsum("ij,ij->i", ab, ab)
        t = np.einsum("ij,ij->i", np.asarray(p) - a, ab) / np.where(length2 > 0, length2, 1.0)
        feet = a + np.clip(t, 0.0, 1.0)[:, None] * ab
        along = _unit_rows(ab)
        for k, (x, y) in enumerate(feet.tolist()):
            if length2[k] <= 0.0:
                continue
            way = (float(along[k, 0]), float(along[k, 1]))
            half = 1 if t[k] <= 0.0 else -1 if t[k] >= 1.0 else 0
            key = (round(x, 9), round(y, 9), round(way[0], 9), round(way[1], 9))
            out.setdefault(key, ((x, y), Curve((x, y), way, half=half)))
    return list(out.values())


def _across_sides(feet: Sequence[tuple[Point2, Curve]], p: Point2) -> list[Point2]:
    """The unit normals, both ways, of each side (of :func:`_outline_feet`) that ``p`` lies
    on (its foot within :data:`BOUNDARY_TOLERANCE_MM`): a centre on a side crosses it
    soonest straight across, either way (its nearest point of that side is where it
    stands)."""
    out: list[Point2] = []
    for q, side in feet:
        if math.dist(q, p) <= BOUNDARY_TOLERANCE_MM:
            ux, uy = side.way
            out += [(-uy, ux), (uy, -ux)]
    return out


def _nearest_on(geom: BaseGeometry, p: Point2) -> Point2:
    """The point of ``geom`` (its outline, for a polygon) nearest ``p``."""
    line = geom.boundary if isinstance(geom, Polygon) else geom
    q = line.interpolate(line.project(Point(p)))
    return (float(q.x), float(q.y))


def contact_candidates(
    ctx: AttackContext, movers: Sequence[Mover], limit: float
) -> list[Candidate]:
    """Where a base contact flips (``melee.engaged``): each mover against every other base on
    its level, at the sum of the radii plus the contact tolerance (exact: the tolerance minus
    the gap to break a contact, the gap minus the tolerance to make one)."""
    s = ctx.scenario
    board = s.board
    tol = board.contact_tolerance
    out: list[Candidate] = []
    for mv in movers:
        me = s.model(mv.id)
        for other in s.models:
            if other.id == mv.id or not same_level(s, me, other):
                continue
            d = board.models[other.id].disc
            reach = mv.r + d.r + tol
            gap = math.dist(mv.p0, d.center) - mv.r - d.r
            if abs(gap - tol) > limit:
                continue
            way, _ = _toward(d.center, mv.p0)
            at = _along(d.center, way, d.r + max(gap, 0.0) / 2.0)
            change = "contact-breaks" if touching(gap, tol) else "contact-made"
            clause = "melee.engaged" if s.opposing(me, other) else "melee.shoot-into"
            kw: dict[str, Any] = {"decision": "contact", "clause": clause,
                                  "source": ModelRef(other.id), "at": at, "change": change,
                                  "params": {"model": mv.id, "other": other.id}}  # fmt: skip
            found = _radial(mv, d.center, reach, limit, **kw)
            if found is not None:
                out.append(found)
            if not touching(gap, tol):  # the ring's inner edge, where the base may stand nearest
                inner = _radial(mv, d.center, mv.r + d.r - tol, limit, **kw)
                if inner is not None:
                    out.append(_on_edge(inner, mv.p0))
    return out


def _on_edge(cand: Candidate, p0: Point2) -> Candidate:
    """``cand`` (on a circle, its nearest place) as an edge of where the base may stand inside
    the change's region: asked a hair past the place along the circle's tangent side (the
    base on the ring, :func:`_into_corner` with the circle as its tangent there), searched
    along the circle where it cannot stand (``edge``)."""
    assert cand.curve is not None
    out, _ = _toward(cand.curve.origin, cand.point)
    corner = _into_corner(p0, cand.point, cand.distance, (out, out))
    if corner is None:
        return replace(cand, edge=True)
    probe, toward = corner
    return replace(cand, direction=toward, probe=probe, edge=True)


# --- corners: the features a line can graze -----------------------------------------------


@dataclass(frozen=True, slots=True)
class Corners:
    """Corners of pieces as arrays (mm): each corner ``v`` with the corners before and after
    it on its outline (``prev``, ``nxt``; a segment's end has the other end as both) and the
    index of its outline (``ring``; corners of one outline may not form a gap)."""

    v: Array
    prev: Array
    nxt: Array
    ring: NDArray[np.int64]

    @classmethod
    def of(cls, geoms: Iterable[BaseGeometry]) -> Corners:
        vs: list[Array] = []
        ps: list[Array] = []
        ns: list[Array] = []
        rings: list[NDArray[np.int64]] = []
        for k, ring in enumerate(_rings(geoms)):
            vs.append(ring)
            ps.append(np.roll(ring, 1, axis=0))
            ns.append(np.roll(ring, -1, axis=0))
            rings.append(np.full(len(ring), k, dtype=np.int64))
        if not vs:
            empty = np.zeros((0, 2))
            return cls(empty, empty, empty, np.zeros(0, dtype=np.int64))
        return cls(np.vstack(vs), np.vstack(ps), np.vstack(ns), np.concatenate(rings))

    def within(self, region: BaseGeometry) -> Corners:
        """The corners inside ``region`` (its outline included): a line that matters near the
        mover passes only corners between its fixed end and the places the mover can reach."""
        if not len(self.v):
            return self
        keep = shapely.intersects_xy(region, self.v[:, 0], self.v[:, 1])
        return Corners(self.v[keep], self.prev[keep], self.nxt[keep], self.ring[keep])

    def side(self, way: Array) -> Array:
        """Per corner and line direction (``way``: one per corner, ``(n, 2)``): +1 when the
        piece lies left of the line through the corner, -1 right, 0 when it lies on both sides
        (the line enters the piece there: no graze)."""
        a = _cross(way, self.prev - self.v)
        b = _cross(way, self.nxt - self.v)
        eps = BOUNDARY_TOLERANCE_MM * (1.0 + np.abs(self.v).max(initial=0.0))
        left = (a >= -eps) & (b >= -eps) & ((a > eps) | (b > eps))
        right = (a <= eps) & (b <= eps) & ((a < -eps) | (b < -eps))
        return np.where(left, 1.0, np.where(right, -1.0, 0.0))


def _rings(geoms: Iterable[BaseGeometry]) -> Iterator[Array]:
    """Each outline of the pieces as an array of its corners (no repeated first corner); a
    segment (a Significant Edge) as its two ends."""
    for g in geoms:
        if g.geom_type == "LineString":
            yield np.asarray(g.coords, dtype=float)[:2]
        elif g.geom_type in ("Polygon", "MultiPolygon"):
            for poly in getattr(g, "geoms", (g,)):
                for ring in (poly.exterior, *poly.interiors):
                    yield np.asarray(ring.coords, dtype=float)[:-1]


def _cross(u: Array, w: Array) -> Array:
    return np.asarray(u[..., 0] * w[..., 1] - u[..., 1] * w[..., 0])


def _unit_rows(w: Array) -> Array:
    n = np.hypot(w[:, 0], w[:, 1])
    return np.asarray(w / np.where(n > 0, n, 1.0)[:, None])


_PARALLEL_SINE = 1e-9
"""Two lines whose unit directions' cross product (the sine of the angle between them: no
unit, unlike :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`, a length) is at most this in
size count as parallel and give no crossing: at that angle lines 1 mm apart near the mover
cross 1,000 km off, and where lines even closer cross is rounding over the angle. Every
crossing of two lines here is found by :meth:`_Lines.meet`, the one comparison of its kind."""


@dataclass(frozen=True, slots=True)
class _Lines:
    """Lines as arrays: a point on each (``o``), its unit direction (``way``), the parameters
    along it from ``o`` where it starts and stops mattering (``start``, ``stop``: infinite for
    a ray) and the pinch point."""

    o: Array
    way: Array
    start: Array
    at: Array
    stop: Array | None = None

    @classmethod
    def empty(cls) -> _Lines:
        z = np.zeros((0, 2))
        return cls(z, z, np.zeros(0), z)

    @property
    def stops(self) -> Array:
        return np.full(len(self.o), np.inf) if self.stop is None else self.stop

    @classmethod
    def join(cls, parts: Sequence[_Lines]) -> _Lines:
        parts = [p for p in parts if len(p.o)] or [cls.empty()]
        o, way, start, at = (
            np.concatenate([getattr(p, f) for p in parts]) for f in ("o", "way", "start", "at")
        )
        return cls(o, way, start, at, np.concatenate([p.stops for p in parts]))

    def meet(self, a: IntArray, b: IntArray) -> tuple[IntArray, IntArray, Array, Array, Array]:
        """Where line ``a[k]`` crosses line ``b[k]`` (rows of these lines), pair by pair: the
        pairs that are not parallel (:data:`_PARALLEL_SINE`), the crossing's parameters along
        either line (from its ``o``, as ``start`` and ``stop``) and the crossing itself."""
        wa, wb = self.way[a], self.way[b]
        sine = _cross(wa, wb)
        ok = np.abs(sine) > _PARALLEL_SINE
        a, b, wa, wb, sine = a[ok], b[ok], wa[ok], wb[ok], sine[ok]
        rel = self.o[b] - self.o[a]
        ta, tb = _cross(rel, wb) / sine, _cross(rel, wa) / sine
        return a, b, ta, tb, self.o[a] + ta[:, None] * wa


def line_candidates(
    mv: Mover,
    lines: _Lines,
    limit: float,
    decision: Decision,
    clause: str,
    radius: float | None = None,
) -> list[Candidate]:
    """The moving base tangent to each line, on either side (its centre ``radius`` from the
    line; the mover's radius unless given), where the line matters (past its start): the edge
    of a shadow or a graze, moved out by the base's radius. ``radius = 0`` (a Line of Cover's
    end): the centre on the line.

    The nearest place of each such boundary: the foot of the perpendicular from the mover's
    centre when it lies where the line matters, else the boundary's end there (the line's
    start or stop, moved out by the radius): a Line of Cover's ray through a corner matters
    only past the corner, and a mover beside the piece reaches it nearest at the corner
    itself, or (where its base cannot stand there) farther along the ray (a ``half`` curve
    for the search)."""
    if not len(lines.o):
        return []
    r = mv.r if radius is None else radius
    p0 = np.asarray(mv.p0)
    normal = np.column_stack((-lines.way[:, 1], lines.way[:, 0]))
    rel = p0 - lines.o
    s = np.einsum("ij,ij->i", rel, normal)
    t = np.einsum("ij,ij->i", rel, lines.way)
    out: list[Candidate] = []
    for side in (1.0, -1.0) if r > 0 else (1.0,):
        delta = side * r - s
        eps = BOUNDARY_TOLERANCE_MM
        inside = (t >= lines.start - eps) & (t <= lines.stops + eps)
        keep = np.flatnonzero((np.abs(delta) <= limit) & inside)
        for i in keep:
            d, n = float(delta[i]), (float(normal[i, 0]), float(normal[i, 1]))
            ways = [(math.copysign(1.0, d) * n[0], math.copysign(1.0, d) * n[1])]
            if abs(d) <= BOUNDARY_TOLERANCE_MM:  # exactly on it now: either way may flip
                ways = [n, (-n[0], -n[1])]
            point = (mv.p0[0] + d * n[0], mv.p0[1] + d * n[1])
            curve = Curve(point, (float(lines.way[i, 0]), float(lines.way[i, 1])))
            at = (float(lines.at[i, 0]), float(lines.at[i, 1]))
            for way in ways:
                out.append(Candidate(mv.id, point, abs(d), way, decision, clause, at=at,
                                     curve=curve))  # fmt: skip
        out += _line_ends(mv, lines, side * r, normal, ~inside, limit, decision, clause)
    return out


def _line_ends(
    mv: Mover,
    lines: _Lines,
    offset: float,
    normal: Array,
    outside: BoolArray,
    limit: float,
    decision: Decision,
    clause: str,
) -> list[Candidate]:
    """For the lines whose foot from the mover's centre lies outside where they matter
    (``outside``), the nearest place of the boundary ``offset`` from each (along ``normal``):
    its end at the line's start (or stop), with the half line from it as the curve searched
    when the mover cannot stand there (exact: the nearest point of a half line is its end)."""
    idx = np.flatnonzero(outside)
    if not len(idx):
        return []
    t = np.einsum("ij,ij->i", np.asarray(mv.p0) - lines.o[idx], lines.way[idx])
    before = t < lines.start[idx]
    tc = np.where(before, lines.start[idx], lines.stops[idx])
    ends = lines.o[idx] + tc[:, None] * lines.way[idx] + offset * normal[idx]
    out: list[Candidate] = []
    for k, i in enumerate(idx):
        if not math.isfinite(float(tc[k])):
            continue
        point = (float(ends[k, 0]), float(ends[k, 1]))
        way, dist = _toward(mv.p0, point)
        if not 0.0 < dist <= limit:
            continue
        along = (float(lines.way[i, 0]), float(lines.way[i, 1]))
        curve = Curve(point, along, half=1 if bool(before[k]) else -1)
        at = (float(lines.at[i, 0]), float(lines.at[i, 1]))
        out.append(Candidate(mv.id, point, dist, way, decision, clause, at=at, curve=curve))
    return out


def _tangents_from(v: Array, c: Point2, r: float) -> list[tuple[Array, Array]]:
    """For each point of ``v`` (``(n, 2)``), the two lines through it tangent to the circle
    ``(c, r)``: per side, the tangent points and the unit directions from them to ``v``
    (rows of points inside the circle are NaN). ``r = 0``: the line through ``c``, once."""
    rel = v - np.asarray(c)
    dist = np.hypot(rel[:, 0], rel[:, 1])
    if r <= 0.0:
        return [(np.tile(np.asarray(c, dtype=float), (len(v), 1)), _unit_rows(rel))]
    with np.errstate(invalid="ignore", divide="ignore"):
        alpha = np.arccos(np.where(dist > r, r / dist, np.nan))
        base = np.arctan2(rel[:, 1], rel[:, 0])
        out = []
        for sgn in (1.0, -1.0):
            ang = base + sgn * alpha
            touch = np.column_stack((c[0] + r * np.cos(ang), c[1] + r * np.sin(ang)))
            out.append((touch, _unit_rows(v - touch)))
    return out


def _corner_tangents(corners: Corners, centre: Point2, r: float) -> _Lines:
    """Lines through each corner tangent to the circle ``(centre, r)`` (through ``centre`` for
    ``r = 0``) that only graze the corner's piece: the edges of the corners' shadows (for the
    line of sight) or the rays a Line of Cover grazes a corner along. Each starts at its
    corner, pointing away from the circle."""
    parts = []
    for _touch, way in _tangents_from(corners.v, centre, r):
        ok = np.isfinite(way).all(axis=1) & (corners.side(np.nan_to_num(way)) != 0)
        v = corners.v[ok]
        parts.append(_Lines(v, way[ok], np.zeros(len(v)), v))
    return _Lines.join(parts)


def _polygon_tangents(corners: Corners, poly: Polygon) -> _Lines:
    """Lines through an obstacle's corner and a corner of a terrain target ``poly`` that graze
    both (the edges of the corners' shadows seen from the target), pointing away from it."""
    target = Corners.of([poly])
    if not len(corners.v) or not len(target.v):
        return _Lines.empty()
    n, m = len(corners.v), len(target.v)
    vi, wi = np.repeat(np.arange(n), m), np.tile(np.arange(m), n)
    way = _unit_rows(corners.v[vi] - target.v[wi])
    ok = _sides(corners, vi, way) != 0
    ok &= _sides(target, wi, way) != 0
    v = corners.v[vi[ok]]
    return _Lines(v, way[ok], np.zeros(len(v)), v)


def _sides(corners: Corners, idx: NDArray[np.int64], way: Array) -> Array:
    """:meth:`Corners.side` for corners ``idx`` with one direction each."""
    sub = Corners(corners.v[idx], corners.prev[idx], corners.nxt[idx], corners.ring[idx])
    return sub.side(way)


def _corner_pairs(corners: Corners, source: Disc, p0: Point2, reach: float) -> _Lines:
    """Lines through two corners on opposite sides of the line (a gap between two pieces, or
    across a notch of one, closing) that meet the ``source`` base, within ``reach`` of ``p0``;
    each points away from the source and starts past both corners."""
    n = len(corners.v)
    if n < 2:
        return _Lines.empty()
    i, j = np.triu_indices(n, k=1)
    vi, vj = corners.v[i], corners.v[j]
    way = _unit_rows(vj - vi)
    f = np.asarray(source.center)
    ok = np.abs(_cross(way, f - vi)) <= source.r + BOUNDARY_TOLERANCE_MM
    ok &= np.abs(_cross(way, np.asarray(p0) - vi)) <= reach
    i, j, vi, vj, way = i[ok], j[ok], vi[ok], vj[ok], way[ok]
    same = corners.ring[i] == corners.ring[j]
    apart = np.ones(len(i), dtype=bool)
    apart[same] = ~_adjacent(corners, i[same], j[same])
    i, j, vi, vj, way = i[apart], j[apart], vi[apart], vj[apart], way[apart]
    sides = _sides(corners, i, way) * _sides(corners, j, way)
    keep = sides < 0
    i, vi, vj, way = i[keep], vi[keep], vj[keep], way[keep]
    back = np.einsum("ij,ij->i", f - vi, way) > 0  # point away from the source
    way = np.where(back[:, None], -way, way)
    start = np.maximum(0.0, np.einsum("ij,ij->i", vj - vi, way))
    at = np.where((start > 0)[:, None], vj, vi)
    return _Lines(vi, way, start, at)


def _adjacent(corners: Corners, i: NDArray[np.int64], j: NDArray[np.int64]) -> BoolArray:
    """Whether corners ``i`` and ``j`` of one outline are neighbours (their line is an edge)."""
    same_next = np.all(corners.nxt[i] == corners.v[j], axis=1)
    same_prev = np.all(corners.prev[i] == corners.v[j], axis=1)
    return np.asarray(same_next | same_prev)


def _disc_tangents(a: Disc, b: Disc) -> _Lines:
    """The common tangents of two circles (outer and inner), each from its touching point on
    ``b`` onward, pointing away from ``a``: the edges of the Huge base ``b``'s shadow seen
    from ``a`` (a Huge base gives the line of sight a round corner)."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = math.hypot(dx, dy)
    if dist <= 0.0:
        return _Lines.empty()
    e = (dx / dist, dy / dist)
    rows: list[tuple[Point2, Point2]] = []
    for rb in (b.r, -b.r):
        k = (rb - a.r) / dist
        if abs(k) > 1.0:
            continue
        h = math.sqrt(1.0 - k * k)
        for sgn in (1.0, -1.0):
            n = (k * e[0] - sgn * h * e[1], k * e[1] + sgn * h * e[0])
            on_b = (b.x - rb * n[0], b.y - rb * n[1])
            way = (-n[1], n[0]) if (-n[1] * dx + n[0] * dy) >= 0 else (n[1], -n[0])
            rows.append((on_b, way))
    if not rows:
        return _Lines.empty()
    o = np.array([r[0] for r in rows])
    return _Lines(o, np.array([r[1] for r in rows]), np.zeros(len(rows)), o)


@dataclass(frozen=True, slots=True)
class Sight:
    """What blocks the line of sight near one mover: the blockers' corners, the Huge bases
    that block, and the source (the other end) as a base or a terrain piece."""

    corners: Corners
    huge: tuple[Disc, ...]
    solids: tuple[BaseGeometry, ...] = ()


def sight_of(ctx: AttackContext, region: BaseGeometry) -> Sight:
    """The line-of-sight blockers of this shot (``ranged.los`` terrain, Huge bases by
    ``ranged.los.huge``, Significant Edges by ``elevation.edge-blocks-los``) that meet
    ``region``."""
    shot, board = ctx.shot, ctx.scenario.board
    solids = [s.geometry for s in merged(board, shot.kinds, los=True).near(region)]
    lines = [shapely.LineString([e.a, e.b]) for e in shot.context.los_edges]
    huge = tuple(
        mg.disc
        for mid, mg in board.models.items()
        if mid not in (shot.attacker_id, shot.target_id)
        and mg.size == "huge"
        and huge_blocks(shot.smaller_diameter, 2 * mg.disc.r)
        and region.distance(Point(mg.disc.x, mg.disc.y)) < mg.disc.r
    )
    return Sight(Corners.of([*solids, *lines]).within(region), huge, tuple(solids))


def los_candidates(
    ctx: AttackContext,
    mv: Mover,
    sources: Sequence[Disc | Polygon],
    limit: float,
    work: Work | None = None,
    blocked: bool = False,
) -> list[Candidate]:
    """Where the line of sight between ``mv`` and each source (the other end of the shot, or
    another model of a melee shot into) may open or close: the mover's base tangent to the edge
    of a corner's shadow (on either side), to a line closing a gap between two corners, to a
    Huge base's shadow, or touching a corner (``ranged.los``). The corner pairs are counted
    in ``work`` before they are built (:class:`Work`: past the bound, :class:`TooMuchWork`).
    ``blocked``: the line of sight to the first source is blocked now; it opens once the base
    reaches the region seen, nearest at a boundary's own nearest point (the corners where the
    circles round pinch points meet other boundaries point into that region, none is
    nearest: :func:`_round_corners` is left out)."""
    out: list[Candidate] = []
    for k, src in enumerate(sources):
        region = _region(src, mv, limit)
        sight = sight_of(ctx, region)
        c = sight.corners
        if work is not None and isinstance(src, Disc):
            work.count(len(c.v))
        elif work is not None:  # a terrain target: its corners with each blocker's
            work.add(len(c.v) * len(Corners.of([src]).v))
        if isinstance(src, Disc):
            lines = [
                _corner_tangents(c, src.center, src.r),
                _corner_pairs(c, src, mv.p0, limit + mv.r),
            ]
            corners = _Lines.join(lines).at
            for h in sight.huge:
                lines.append(_disc_tangents(src, h))
                lines.append(_corner_tangents(c, h.center, h.r))
        else:
            lines = [_polygon_tangents(c, src)]
            corners = lines[0].at
        joined = _Lines.join(lines)
        out += line_candidates(mv, joined, limit, "los", "ranged.los")
        edges = _inside_edge_lines(mv, sight, limit)
        out += _inside_edges(mv, edges, limit)
        bounds = _Lines.join([_offset(joined, mv.r), _offset(joined, -mv.r), _offset(edges, mv.r)])
        out += _line_corners(mv, bounds, limit, work)
        pinches = np.unique(corners, axis=0) if len(corners) else np.zeros((0, 2))
        crossings = _crossings(mv, joined, edges, limit, work)
        pinches = np.vstack([pinches, crossings])
        for v in pinches:
            found = _radial(mv, (float(v[0]), float(v[1])), mv.r, limit, decision="los",
                            clause="ranged.los", at=(float(v[0]), float(v[1])))  # fmt: skip
            if found is not None:
                out.append(found)
        if not (blocked and k == 0):
            out += _round_corners(mv, bounds, crossings, limit, work)
    return out


def _crossings(
    mv: Mover, lines: _Lines, edges: _Lines, limit: float, work: Work | None = None
) -> Array:
    """Where two of the line of sight's lines (``lines``: shadow edges, lines closing a gap,
    where each matters) cross, or one meets a side of a blocker near the mover (``edges``),
    within the mover's reach (its base can come to touch the place): a corner of the region
    seen past the blockers that is no corner of a piece (a shadow edge running into a piece
    that overlaps the other base: the part of that base left in sight narrows to a point
    there). The pairs are counted in ``work`` first (:class:`Work`)."""
    p0, r = np.asarray(mv.p0), mv.r
    if not len(lines.o):
        return np.zeros((0, 2))
    left = np.column_stack((-lines.way[:, 1], lines.way[:, 0]))
    near = np.flatnonzero(np.abs(np.einsum("ij,ij->i", p0 - lines.o, left)) <= limit + r)
    if work is not None:  # pairs of lines, and lines with sides, counted before they are built
        work.add(len(near) * (len(near) - 1) // 2 + len(near) * len(edges.o))
    if not len(near):
        return np.zeros((0, 2))
    i, j = np.triu_indices(len(near), k=1)
    a = np.concatenate([near[i], np.repeat(near, len(edges.o))])
    b = np.concatenate([near[j], np.tile(np.arange(len(edges.o)), len(near))])
    other = _Lines.join([lines, edges])
    b[len(i) :] += len(lines.o)  # the sides follow the lines in ``other``
    a, b, ta, tb, x = other.meet(a, b)
    eps = BOUNDARY_TOLERANCE_MM
    stops = other.stops
    # strictly past each line's start and short of its stop: a line's own corner and a side's
    # ends are pieces' corners, weighed already
    ok = (ta > other.start[a] + eps) & (ta <= stops[a] + eps)
    ok &= (tb > other.start[b] + eps) & (tb < stops[b] - eps)
    x = x[ok]
    reach = np.abs(np.hypot(x[:, 0] - p0[0], x[:, 1] - p0[1]) - r)
    return np.asarray(x[reach <= limit])


def _inside_edge_lines(mv: Mover, sight: Sight, limit: float) -> _Lines:
    """The sides of the blockers near the mover (within ``limit`` plus its radius), oriented
    with the piece on the left of each (for :func:`_inside_edges`)."""
    near = [g for g in sight.solids if g.distance(Point(mv.p0)) <= limit + mv.r]
    if not near:
        return _Lines.empty()
    c = Corners.of(shapely.orient_polygons(near, exterior_cw=False))
    length = np.hypot(*(c.nxt - c.v).T)
    return _Lines(c.v, _unit_rows(c.nxt - c.v), np.zeros(len(c.v)), c.v, length)


def _offset(lines: _Lines, by: float) -> _Lines:
    """The lines moved ``by`` to their left (right for a negative ``by``)."""
    normal = np.column_stack((-lines.way[:, 1], lines.way[:, 0]))
    return _Lines(lines.o + by * normal, lines.way, lines.start, lines.at, lines.stop)


def _line_corners(
    mv: Mover, bounds: _Lines, limit: float, work: Work | None = None
) -> list[Candidate]:
    """Where two line-of-sight boundaries (``bounds``: the lines the moving centre crosses,
    already moved out by the radius, each mattering from its start to its stop) meet within
    ``limit``: a line of sight that changes only on a given side of both (past one of them and
    short of the other, or past both) changes nearest at their corner when neither
    boundary's own nearest point lies on that side of the other. Exact; asked a hair into
    that quarter (:func:`_into_corner`); left out where the mover cannot stand there (not
    searched along). The pairs of lines are counted in ``work`` first (:class:`Work`)."""
    p0 = np.asarray(mv.p0)
    if len(bounds.o) < 2:
        return []
    left = np.column_stack((-bounds.way[:, 1], bounds.way[:, 0]))
    s = np.einsum("ij,ij->i", p0 - bounds.o, left)  # p0's side of each: + left
    near = np.flatnonzero((np.abs(s) <= limit) & (np.abs(s) > BOUNDARY_TOLERANCE_MM))
    if len(near) < 2:
        return []
    if work is not None:  # pairs of lines, counted before they are built
        work.count(len(near))
    i, j = np.triu_indices(len(near), k=1)
    i, j, ti, tj, x = bounds.meet(near[i], near[j])
    eps = BOUNDARY_TOLERANCE_MM
    stops = bounds.stops
    ok = (ti >= bounds.start[i] - eps) & (ti <= stops[i] + eps)
    ok &= (tj >= bounds.start[j] - eps) & (tj <= stops[j] + eps)
    dist = np.hypot(x[:, 0] - p0[0], x[:, 1] - p0[1])
    ok &= (dist > 0.0) & (dist <= limit)
    # each line's foot from p0: on p0's side of the other line (+) or past it (-)
    foot_i = p0 - s[i, None] * left[i]
    foot_j = p0 - s[j, None] * left[j]
    i_by_j = np.sign(np.einsum("ij,ij->i", foot_i - bounds.o[j], left[j]) * s[j])
    j_by_i = np.sign(np.einsum("ij,ij->i", foot_j - bounds.o[i], left[i]) * s[i])
    out: list[Candidate] = []
    for k in np.flatnonzero(ok):
        a, b = int(i[k]), int(j[k])
        point = (float(x[k, 0]), float(x[k, 1]))
        quarters = []  # (side of a, side of b): -1 past the line, +1 on p0's side
        if i_by_j[k] > 0 and j_by_i[k] > 0:
            quarters.append((-1.0, -1.0))
        if i_by_j[k] < 0:
            quarters.append((-1.0, 1.0))
        if j_by_i[k] < 0:
            quarters.append((1.0, -1.0))
        for qa, qb in quarters:
            na = qa * math.copysign(1.0, s[a])
            nb = qb * math.copysign(1.0, s[b])
            normals = ((na * float(left[a, 0]), na * float(left[a, 1])),
                       (nb * float(left[b, 0]), nb * float(left[b, 1])))  # fmt: skip
            corner = _into_corner(mv.p0, point, float(dist[k]), normals)
            if corner is None:
                continue
            probe, toward = corner
            at = (float(bounds.at[a, 0]), float(bounds.at[a, 1]))
            out.append(Candidate(mv.id, point, float(dist[k]), toward, "los", "ranged.los",
                                 at=at, probe=probe, walk=False))  # fmt: skip
    return out


def _round_corners(
    mv: Mover, bounds: _Lines, pinches: Array, limit: float, work: Work | None = None
) -> list[Candidate]:
    """Where a circle of the mover's radius round a pinch point (``pinches``: where two of
    the line of sight's lines cross or one runs into a blocker's side, :func:`_crossings`;
    not a blocker's own corners: on a crowded board their corners with every line flooded
    the probes, none found needed) meets a
    line-of-sight boundary (``bounds``, as for :func:`_line_corners`) or another such circle
    within ``limit``: a line of sight seen past two places at once (past a corner, through
    the part of the other base a shadow edge leaves in sight) closes only once the base is
    clear of both, nearest where their boundaries meet. The same quarters as
    :func:`_line_corners` (a circle's side: inside or outside it, its nearest point the radial
    one); exact, asked a hair into the corner (:func:`_into_corner`, the circle taken as its
    tangent there), not searched along. The pairs of circles with lines and with each other
    are counted in ``work`` first (:class:`Work`)."""
    p0, r = np.asarray(mv.p0), mv.r
    eps = BOUNDARY_TOLERANCE_MM
    rel = p0 - pinches
    d = np.hypot(rel[:, 0], rel[:, 1])
    sc = d - r  # p0's side of each circle: + outside
    cs = np.flatnonzero((np.abs(sc) <= limit) & (np.abs(sc) > eps) & (d > 0.0))
    left = np.column_stack((-bounds.way[:, 1], bounds.way[:, 0]))
    s = np.einsum("ij,ij->i", p0 - bounds.o, left)  # p0's side of each line: + left
    ls = np.flatnonzero((np.abs(s) <= limit) & (np.abs(s) > eps))
    if work is not None:  # pairs of circles with lines and with circles, counted first
        work.add(len(cs) * len(ls) + len(cs) * (len(cs) - 1) // 2)
    if not len(cs):
        return []
    circles = _Circles(pinches, r, sc, pinches + r * rel / np.where(d > 0.0, d, 1.0)[:, None])
    rows = _circle_line_rows(circles, cs, bounds, ls, left, s, p0 - s[:, None] * left)
    rows += _circle_circle_rows(circles, cs)
    return _round_corner_candidates(mv, rows, limit)


@dataclass(frozen=True)
class _Circles:
    """The circles of :func:`_round_corners`: centres (the pinch points), the common radius,
    p0's signed distance outside each (``side``: + outside) and each one's point nearest p0
    (``foot``)."""

    centre: Array
    r: float
    side: Array
    foot: Array


# per corner: the place, its pinch point (the first circle's centre), each boundary's normal
# toward p0's side, and whether each one's nearest point lies on p0's side of the other (+)
# or past it (-)
_CornerRows = list[tuple[Array, Array, Array, Array, Array, Array]]


def _circle_line_rows(
    circles: _Circles,
    cs: IntArray,
    bounds: _Lines,
    ls: IntArray,
    left: Array,
    s: Array,
    foot_l: Array,
) -> _CornerRows:
    """Where the circles ``cs`` meet the boundaries ``ls`` (``x = o + t way``, ``|x - c| =
    r``) within each line's stretch (its ends by the boundary tolerance); a line tangent to
    a circle (no two points) gives no corner."""
    eps, r, sc, foot_c = BOUNDARY_TOLERANCE_MM, circles.r, circles.side, circles.foot
    ci, li = np.repeat(cs, len(ls)), np.tile(ls, len(cs))
    o, w, c = bounds.o[li], bounds.way[li], circles.centre[ci]
    b = np.einsum("ij,ij->i", o - c, w)
    disc = b * b - (np.einsum("ij,ij->i", o - c, o - c) - r * r)
    has = disc > 0.0
    ci, li, o, w, c, b, disc = ci[has], li[has], o[has], w[has], c[has], b[has], disc[has]
    rows: _CornerRows = []
    for sign in (1.0, -1.0):
        t = -b + sign * np.sqrt(disc)
        ok = (t >= bounds.start[li] - eps) & (t <= bounds.stops[li] + eps)
        x = o[ok] + t[ok, None] * w[ok]
        n_c = (x - c[ok]) / r * np.sign(sc[ci[ok]])[:, None]
        n_l = left[li[ok]] * np.sign(s[li[ok]])[:, None]
        c_by_l = np.sign(np.einsum("ij,ij->i", foot_c[ci[ok]] - o[ok], left[li[ok]]) * s[li[ok]])
        l_by_c = np.sign((np.hypot(*(foot_l[li[ok]] - c[ok]).T) - r) * sc[ci[ok]])
        rows.append((x, c[ok], n_c, n_l, c_by_l, l_by_c))
    return rows


def _circle_circle_rows(circles: _Circles, cs: IntArray) -> _CornerRows:
    """Where two of the circles ``cs`` meet: both the mover's radius, so only centres less than
    ``2 r`` apart (and more than the boundary tolerance: one circle) give corners."""
    eps, r, sc, foot_c, pinches = (BOUNDARY_TOLERANCE_MM, circles.r, circles.side,
                                   circles.foot, circles.centre)  # fmt: skip
    i, j = np.triu_indices(len(cs), k=1)
    i, j = cs[i], cs[j]
    gap = pinches[j] - pinches[i]
    dd = np.hypot(gap[:, 0], gap[:, 1])
    ok = (dd > eps) & (dd < 2.0 * r)
    i, j, gap, dd = i[ok], j[ok], gap[ok], dd[ok]
    h = np.sqrt(r * r - (dd / 2.0) ** 2)
    mid = pinches[i] + gap / 2.0
    across = np.column_stack((-gap[:, 1], gap[:, 0])) / dd[:, None]
    rows: _CornerRows = []
    for sign in (1.0, -1.0):
        x = mid + sign * h[:, None] * across
        n_i = (x - pinches[i]) / r * np.sign(sc[i])[:, None]
        n_j = (x - pinches[j]) / r * np.sign(sc[j])[:, None]
        i_by_j = np.sign((np.hypot(*(foot_c[i] - pinches[j]).T) - r) * sc[j])
        j_by_i = np.sign((np.hypot(*(foot_c[j] - pinches[i]).T) - r) * sc[i])
        rows.append((x, pinches[i], n_i, n_j, i_by_j, j_by_i))
    return rows


def _round_corner_candidates(mv: Mover, rows: _CornerRows, limit: float) -> list[Candidate]:
    """A candidate per corner of ``rows`` within ``limit`` and per quarter of it that lies past
    at least one boundary (both past when each nearest point lies on p0's side of the other),
    asked a hair into the corner (:func:`_into_corner`; none where no direction enters it)."""
    out: list[Candidate] = []
    for x, pinch, n_a, n_b, a_by_b, b_by_a in rows:
        dist = np.hypot(x[:, 0] - mv.p0[0], x[:, 1] - mv.p0[1])
        for k in np.flatnonzero((dist > 0.0) & (dist <= limit)):
            point = (float(x[k, 0]), float(x[k, 1]))
            quarters = []  # (side of a, side of b): -1 past it, +1 on p0's side
            if a_by_b[k] > 0 and b_by_a[k] > 0:
                quarters.append((-1.0, -1.0))
            if a_by_b[k] < 0:
                quarters.append((-1.0, 1.0))
            if b_by_a[k] < 0:
                quarters.append((1.0, -1.0))
            for qa, qb in quarters:
                normals = ((qa * float(n_a[k, 0]), qa * float(n_a[k, 1])),
                           (qb * float(n_b[k, 0]), qb * float(n_b[k, 1])))  # fmt: skip
                corner = _into_corner(mv.p0, point, float(dist[k]), normals)
                if corner is None:
                    continue
                probe, toward = corner
                at = (float(pinch[k, 0]), float(pinch[k, 1]))
                out.append(Candidate(mv.id, point, float(dist[k]), toward, "los", "ranged.los",
                                     at=at, probe=probe, walk=False))  # fmt: skip
    return out


def _inside_edges(mv: Mover, edges: _Lines, limit: float) -> list[Candidate]:
    """The moving base reaching a blocker's edge from the piece's side (a model standing on a
    blocking piece, in a dense area, or across a strip thinner than its base): its centre the
    radius from the edge on the piece's side (inside the piece, or beyond its far edge when
    the piece is thinner than the base), where the base leaves or reaches the open ground
    beyond that edge. The outlines are oriented with the piece on the left of each edge."""
    if not len(edges.o):
        return []
    found = line_candidates(mv, edges, limit, "los", "ranged.los")
    return [f for f in found if f.curve is not None and _left_of(f.curve.way, f.at, f.point)]


def _left_of(way: Point2, o: Point2 | None, p: Point2) -> bool:
    """Whether ``p`` lies left of the line through ``o`` along ``way`` (strictly)."""
    assert o is not None
    return way[0] * (p[1] - o[1]) - way[1] * (p[0] - o[0]) > 0.0


def _region(src: Disc | Polygon, mv: Mover, limit: float) -> BaseGeometry:
    """The convex hull of the source and every place the mover's base can reach."""
    here = Point(mv.p0).buffer(limit + mv.r + 1.0, quad_segs=8)
    there = Point(src.x, src.y).buffer(src.r + 1.0, quad_segs=8) if isinstance(src, Disc) else src
    return shapely.union(here, there).convex_hull


def cover_candidates(
    ctx: AttackContext, movers: Sequence[Mover], limit: float, work: Work | None = None
) -> list[Candidate]:
    """Where a piece's cover may flip (``cover.*``): the Line of Cover's moving end on a ray
    from its fixed end through a corner it would graze, or tangent to another base; the moving
    centre crossing a piece's outline (standing on it, or the line ending inside it); and, for
    the attacker, a piece coming to touch its base or leaving it (``cover.shooter-contact``)."""
    shot, board = ctx.shot, ctx.scenario.board
    out: list[Candidate] = []
    for mv in movers:
        reach = Point(mv.p0).buffer(limit + 1.0, quad_segs=8)
        region = shapely.union(Point(mv.loc_end).buffer(1.0, quad_segs=4), reach).convex_hull
        pieces = [t for t in board.terrain_near(region) if region.intersects(t.polygon)]
        geoms: list[BaseGeometry] = [t.polygon for t in pieces]
        solids = merged(board, shot.cover_kinds, los=False).near(region)
        geoms += [s.geometry for s in solids]
        edges = [shapely.LineString([e.a, e.b]) for e in significant_edges(board)]
        edges = [e for e in edges if e.intersects(region)] if shot.context.elevated else []
        rays = [_corner_tangents(Corners.of([*geoms, *edges]).within(region), mv.loc_end, 0.0)]
        others = [mg.disc for mid, mg in board.models.items()
                  if mid not in (shot.attacker_id, shot.target_id)]  # fmt: skip
        xy = np.array([d.center for d in others]).reshape(-1, 2)
        gaps = shapely.distance(region, shapely.points(xy)) if len(others) else np.zeros(0)
        for d, gap in zip(others, gaps, strict=True):
            if gap > d.r:
                continue
            for touch, tangent in _tangents_from(np.asarray([mv.loc_end]), d.center, d.r):
                if np.isfinite(touch).all():
                    rays.append(_Lines(touch, -tangent, np.zeros(1), touch))
        out += line_candidates(mv, _Lines.join(rays), limit, "cover", "cover.line", 0.0)
        for g in [*(t.polygon for t in pieces), *edges]:
            feet = _outline_feet(g, mv.p0)
            for q, side in feet:
                way, dist = _toward(mv.p0, q)
                if 0.0 < dist <= limit:
                    out.append(Candidate(mv.id, q, dist, way, "cover", "cover.line", at=q,
                                         curve=side))  # fmt: skip
            for way in _across_sides(feet, mv.p0):  # a centre on a side: off it either way
                out.append(Candidate(mv.id, mv.p0, 0.0, way, "cover", "cover.line", at=mv.p0))
        if mv.id == shot.attacker_id:
            apart = mv.r + contact_reach(board.contact_tolerance)
            refs = [(TerrainRef((t.id,)), t.polygon) for t in pieces]
            out += _distance_candidates(mv, refs, apart, limit, "cover", "cover.shooter-contact")
            for ref, poly in refs:
                out += _contact_ray_corners(mv, ref, poly, apart, limit)
            out += _contact_pair_corners(mv, solids, board, apart, limit, work)
    return out


def _contact_pair_corners(
    mv: Mover,
    solids: Sequence[Solid],
    board: Board,
    reach: float,
    limit: float,
    work: Work | None = None,
) -> list[Candidate]:
    """Where touching pieces acting as one cover source (two or more) stop touching the
    shooter: its centre more than ``reach`` from every one of them. Past one piece's reach
    alone another may still touch; nearest where two pieces' grown outlines meet (their
    sides moved out by ``reach``, circles round their corners), on neither grown piece.
    Exact; asked a hair into the corner, away from both (:func:`_into_corner`). The pairs of
    pieces are counted in ``work`` first (:class:`Work`)."""
    p0 = Point(mv.p0)
    eps = BOUNDARY_TOLERANCE_MM * (1.0 + reach)
    out: list[Candidate] = []
    for solid in solids:
        if len(solid.ids) < 2 or float(solid.geometry.distance(p0)) > reach + limit:
            continue
        parts = [board.terrain[i].polygon for i in solid.ids]
        parts = [g for g in parts if float(g.distance(p0)) <= reach + limit]
        if work is not None:
            work.count(len(parts))
        for k, a in enumerate(parts):
            for b in parts[k + 1 :]:
                for x in _grown_meets(a, b, reach):
                    dist = math.dist(mv.p0, x)
                    if not 0.0 < dist <= limit:
                        continue
                    px = Point(x)
                    if abs(float(a.distance(px)) - reach) > eps:
                        continue
                    if abs(float(b.distance(px)) - reach) > eps:
                        continue
                    if float(solid.geometry.distance(px)) < reach - eps:
                        continue  # within another piece's reach: still touching there
                    qa, qb = _nearest_on(a, x), _nearest_on(b, x)
                    normals = (_toward(qa, x)[0], _toward(qb, x)[0])
                    corner = _into_corner(mv.p0, x, dist, normals)
                    if corner is None:
                        continue
                    probe, toward = corner
                    out.append(Candidate(mv.id, x, dist, toward, "cover", "cover.shooter-contact",
                                         source=solid.ref, at=qa, probe=probe))  # fmt: skip
    return out


def _grown_meets(a: Polygon, b: Polygon, reach: float) -> list[Point2]:
    """Where the outlines of pieces ``a`` and ``b`` grown by ``reach`` may meet: each side of
    one moved out by ``reach`` (either way) against the other grown
    (:func:`_ray_offset_hits`), and the circles of ``reach`` round their corners (a candidate
    set: :func:`_contact_pair_corners` keeps those on both grown outlines)."""
    out: list[Point2] = []
    for one, other in ((a, b), (b, a)):
        c, grown = Corners.of([one]), Corners.of([other])
        edge = c.nxt - c.v
        length = np.hypot(edge[:, 0], edge[:, 1])
        way = _unit_rows(edge)
        normal = np.column_stack((-way[:, 1], way[:, 0]))
        for k in np.flatnonzero(length > 0.0):
            for sign in (1.0, -1.0):
                start = c.v[k] + sign * reach * normal[k]
                for t in _ray_offset_hits(grown, start, way[k], reach):
                    if t <= length[k]:
                        out.append(
                            (float(start[0] + t * way[k, 0]), float(start[1] + t * way[k, 1]))
                        )
    va, vb = Corners.of([a]).v, Corners.of([b]).v
    for u in va:
        gap = vb - u
        d = np.hypot(gap[:, 0], gap[:, 1])
        ok = (d > 0.0) & (d < 2.0 * reach)
        h = np.sqrt(reach * reach - (d[ok] / 2.0) ** 2)
        mid = u + gap[ok] / 2.0
        across = np.column_stack((-gap[ok, 1], gap[ok, 0])) / d[ok, None]
        for sign in (1.0, -1.0):
            out += [(float(x), float(y)) for x, y in mid + sign * h[:, None] * across]
    return out


def _contact_ray_corners(
    mv: Mover, ref: TerrainRef, poly: Polygon, reach: float, limit: float
) -> list[Candidate]:
    """Where a piece touching the shooter may start to give cover only when both change: the
    contact breaks (the centre more than ``reach`` from the piece) and the Line of Cover
    passes through it (the centre past a ray from the line's fixed end grazing one of its
    corners). Each ray's crossings with the line ``reach`` from the piece (its sides moved out,
    circles round its corners), exact; the ruling is asked a hair into the corner between
    them (away from the piece and into its shadow), the direction leading there
    (:func:`_into_corner`)."""
    if float(poly.distance(Point(mv.p0))) > reach + limit:
        return []
    c = Corners.of([poly])
    way = _unit_rows(c.v - np.asarray(mv.loc_end))
    side = c.side(way)
    out: list[Candidate] = []
    for v, w, sd in zip(c.v, way, side, strict=True):
        if sd == 0.0:
            continue
        into = (-sd * float(w[1]), sd * float(w[0]))  # toward the piece's side: its shadow
        for t in _ray_offset_hits(c, v, w, reach):
            p = (float(v[0] + t * w[0]), float(v[1] + t * w[1]))
            if abs(float(poly.distance(Point(p))) - reach) > BOUNDARY_TOLERANCE_MM:
                continue  # inside the grown piece: not where the contact breaks
            dist = math.dist(mv.p0, p)
            out_way, _ = _toward(_nearest_on(poly, p), p)
            if 0.0 < dist <= limit:
                corner = _into_corner(mv.p0, p, dist, (into, out_way))
                if corner is None:
                    continue  # the two boundaries leave no room between them
                probe, toward = corner
                at = (float(v[0]), float(v[1]))
                out.append(Candidate(mv.id, p, dist, toward, "cover", "cover.shooter-contact",
                                     source=ref, at=at, probe=probe))  # fmt: skip
    return out


_CORNER_WAYS = 65
"""How many ways into a corner of two boundaries :func:`_into_corner` weighs (evenly spread
over the ways that reach the corner the margin plus :data:`MARGIN_PROBE_MM` away)."""


def _into_corner(
    p0: Point2, p: Point2, dist: float, normals: tuple[Point2, Point2]
) -> tuple[Point2, Point2] | None:
    """The place to ask the ruling at a corner ``p`` of two boundaries (``dist`` from ``p0``;
    ``normals``: each boundary's unit normal at ``p``, pointing into the corner), and the
    direction from ``p0`` to it, the place exactly ``dist`` plus :data:`MARGIN_PROBE_MM` along
    it. Of the ways whose place lies inside the corner (at least
    :data:`MARGIN_CORNER_DEPTH_MM` inside both boundaries, or half as deep as any place can
    be when the corner is narrower), the one that stays inside it farthest (for good when
    the way runs into the corner's opening), the deepest of those. Moving straight toward
    ``p`` a hair on need not enter the corner (the way may run along a boundary or outside
    it), and a way that enters it may leave it again a few micrometres on (the corner is
    narrow); moving the margin plus any hair up to where the way leaves it changes the
    ruling. The corner is taken as its two tangents at ``p`` (the side of the grown piece
    curves away from it: the true corner is wider). ``None`` when the boundaries leave no
    room between them (opposite normals)."""
    far = dist + MARGIN_PROBE_MM
    n = np.asarray(normals, dtype=float)
    a = n @ (np.asarray(p0) - np.asarray(p))  # how far inside each boundary p0 lies
    ahead = math.atan2(p[1] - p0[1], p[0] - p0[0])
    centre = np.remainder(np.arctan2(n[:, 1], n[:, 0]) - ahead + math.pi, 2.0 * math.pi) - math.pi
    if abs(float(centre[0] - centre[1])) > math.pi:  # the same arc, the other way round
        centre[0] -= math.copysign(2.0 * math.pi, float(centre[0] - centre[1]))
    half = np.arccos(np.clip(-a / far, -1.0, 1.0))  # the ways whose place `far` on is inside
    lo, hi = float(np.max(centre - half)), float(np.min(centre + half))
    if not lo < hi:
        return None
    phi = ahead + np.linspace(lo, hi, _CORNER_WAYS)
    ways = np.column_stack((np.cos(phi), np.sin(phi)))
    b = ways @ n.T  # (ways, boundaries): how fast each way goes in
    depth = np.min(a + far * b, axis=1)
    with np.errstate(divide="ignore"):
        leaves = np.min(np.where(b < 0.0, -a / np.where(b < 0.0, b, -1.0), np.inf), axis=1)
    deep = np.flatnonzero(depth >= min(MARGIN_CORNER_DEPTH_MM, 0.5 * float(np.max(depth))))
    if not len(deep):  # no way reaches inside (the depths are not numbers: a degenerate corner)
        return None
    best = max(deep, key=lambda k: (float(leaves[k]), float(depth[k])))
    way = (float(ways[best, 0]), float(ways[best, 1]))
    return _along(p0, way, far), way


def _ray_offset_hits(c: Corners, v: Array, w: Array, reach: float) -> list[float]:
    """Where the ray from ``v`` along unit ``w`` (``t >= 0``) crosses the outline of the
    corners' piece grown by ``reach``: its sides moved out either way, circles round its
    corners (a candidate set: :func:`_contact_ray_corners` keeps those on the grown outline)."""
    hits: list[float] = []
    edge = c.nxt - c.v
    normal = _unit_rows(np.column_stack((-edge[:, 1], edge[:, 0])))
    denom = _cross(np.broadcast_to(w, edge.shape), edge)
    for sign in (1.0, -1.0):
        rel = c.v + sign * reach * normal - v
        with np.errstate(divide="ignore", invalid="ignore"):
            t = _cross(rel, edge) / denom
            u = _cross(rel, np.broadcast_to(w, edge.shape)) / denom
        ok = np.isfinite(t) & (t >= 0.0) & (u >= 0.0) & (u <= 1.0)
        hits += t[ok].tolist()
    rel = v - c.v
    b = rel @ w
    disc = b * b - (np.einsum("ij,ij->i", rel, rel) - reach * reach)
    root = np.sqrt(disc[disc >= 0.0])
    for t in (-b[disc >= 0.0] - root, -b[disc >= 0.0] + root):
        hits += t[t >= 0.0].tolist()
    return hits


def _distance_candidates(
    mv: Mover,
    pieces: Sequence[tuple[PieceRef, BaseGeometry]],
    reach: float,
    limit: float,
    decision: Decision,
    clause: str,
) -> list[Candidate]:
    """Where the mover's centre comes to ``reach`` from a piece (toward its nearest point) or
    leaves it (straight away from it): a distance difference, exact for a convex piece and
    confirmed by a ruling for any. A centre on the piece (standing on it) leaves it across
    any side: each side's nearest point, ``reach`` on past it (:func:`_outline_feet`: the
    side the change needs may not be the nearest). Beside a piece, the centre may also go
    round it to ``reach`` past a side facing away (:func:`_far_sides`): a piece near the
    shooter gives area cover once the shooter stands beyond it, clear of it."""
    out: list[Candidate] = []
    for ref, geom in pieces:
        d0 = float(geom.distance(Point(mv.p0)))
        if d0 <= 0.0 and isinstance(geom, Polygon):
            feet = _outline_feet(geom, mv.p0)
            for q, _ in feet:
                way, dq = _toward(mv.p0, q)
                if dq > 0.0 and dq + reach <= limit:
                    out.append(Candidate(mv.id, _along(mv.p0, way, dq + reach), dq + reach,
                                         way, decision, clause, source=ref, at=q))  # fmt: skip
            for way in _across_sides(feet, mv.p0) if reach <= limit else ():
                out.append(Candidate(mv.id, _along(mv.p0, way, reach), reach, way, decision,
                                     clause, source=ref, at=mv.p0))  # fmt: skip
            continue
        if isinstance(geom, Polygon):
            for point, q in _far_sides(geom, mv.p0, reach):
                way, dist = _toward(mv.p0, point)
                if 0.0 < dist <= limit:
                    out.append(Candidate(mv.id, point, dist, way, decision, clause, source=ref,
                                         at=q))  # fmt: skip
        if d0 <= 0.0 or abs(d0 - reach) > limit:
            continue
        q = _nearest_on(geom, mv.p0)
        way, _ = _toward(mv.p0, q)
        if d0 < reach:
            way = (-way[0], -way[1])
        dist = abs(d0 - reach)
        out.append(Candidate(mv.id, _along(mv.p0, way, dist), dist, way, decision, clause,
                             source=ref, at=q))  # fmt: skip
    return out


def _far_sides(poly: Polygon, p: Point2, reach: float) -> list[tuple[Point2, Point2]]:
    """For each side of ``poly`` facing away from ``p`` (its outward normal pointing away),
    the nearest point to ``p`` of that side moved ``reach`` outward (the foot, kept within
    the side), with the foot: where a centre ``reach`` beyond that side lies nearest."""
    oriented = shapely.orient_polygons(poly, exterior_cw=False)  # the piece left of each side
    out: list[tuple[Point2, Point2]] = []
    for ring in (oriented.exterior, *oriented.interiors):
        xy = np.asarray(ring.coords, dtype=float)
        a, ab = xy[:-1], xy[1:] - xy[:-1]
        length2 = np.einsum("ij,ij->i", ab, ab)
        ok = length2 > 0.0
        a, ab, length2 = a[ok], ab[ok], length2[ok]
        t = np.clip(np.einsum("ij,ij->i", np.asarray(p) - a, ab) / length2, 0.0, 1.0)
        feet = a + t[:, None] * ab
        normal = _unit_rows(np.column_stack((ab[:, 1], -ab[:, 0])))  # right of the side: out
        away = np.einsum("ij,ij->i", feet - np.asarray(p), normal) > 0.0
        for q, n in zip(feet[away], normal[away], strict=True):
            point = (float(q[0] + reach * n[0]), float(q[1] + reach * n[1]))
            out.append((point, (float(q[0]), float(q[1]))))
    return out


def elevation_candidates(
    ctx: AttackContext, movers: Sequence[Mover], limit: float
) -> list[Candidate]:
    """Where elevation's distances flip: the Elevated model coming within Orange (plus the
    ruler tolerance) of a Significant Edge or leaving it (``elevation.edge-blocks-los``,
    ``elevation.edge-cover``), and a piece of cover coming within Orange of the target of an
    Elevated attacker or leaving it (``elevation.shooter-cover``)."""
    shot, s = ctx.shot, ctx.scenario
    sc = shot.context
    if not sc.elevated:
        return []
    orange = ruler_reach(s.board.orange_mm, s.ruler_tolerance_mm)
    high = shot.attacker_id if sc.attacker_elevated else shot.target_id
    out: list[Candidate] = []
    for mv in movers:
        if mv.id == high:
            edges = [(e.ref, shapely.LineString([e.a, e.b])) for e in significant_edges(s.board)]
            out += _distance_candidates(mv, edges, orange + mv.r, limit, "los",
                                        "elevation.edge-blocks-los")  # fmt: skip
        if sc.cover_within is not None and mv.id == shot.target_id:
            near = Point(mv.p0).buffer(sc.cover_within + mv.r + limit)
            pieces = [(TerrainRef((t.id,)), t.polygon) for t in s.board.terrain_near(near)]
            out += _distance_candidates(mv, pieces, sc.cover_within + mv.r, limit, "cover",
                                        "elevation.shooter-cover")  # fmt: skip
    return out


# --- where a model can stand (the placement rule) ---------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Footing:
    """Where one model's base may stand, by the placement rule
    (:func:`fwwrules.placement.placeable_v`, the one definition), at its elevation, on the
    table when the scenario gives its size. What the model already clashes with where it
    stands (a base, a piece) is left out: not held against it."""

    model: str
    board: Board
    r: float
    elevation: float
    skip: frozenset[str]
    skip_pieces: frozenset[str]
    table: tuple[float, float] | None

    @classmethod
    def of(cls, scenario: Scenario, model_id: str) -> Footing:
        board = scenario.board
        me = board.models[model_id]
        here = clashes_at(board, model_id, me.disc.center, me.disc.r, me.elevation)
        size = scenario.board_size
        return cls(
            model_id,
            board,
            me.disc.r,
            me.elevation,
            frozenset({model_id}) | {c.other.id for c in here if isinstance(c.other, ModelRef)},
            frozenset(c.other.ids[0] for c in here if isinstance(c.other, TerrainRef)),
            None if size is None else (size[0] * scenario.unit_mm, size[1] * scenario.unit_mm),
        )

    def outward(self, p: Point2) -> Point2 | None:
        """The unit normal of the edge of where the base may stand, at ``p`` on it (within
        :data:`MARGIN_PRECISION_MM`), pointing to where it may: round ``p``
        (:data:`_EDGE_RING_MM` out) the two ways where the places it may stand on begin and
        end, each narrowed down to about a millionth of a radian (three rounds of
        :data:`_EDGE_RING` ways across the bracket); the normal halves the ways between
        them. ``None`` when every place round it, or none, may be stood on, or they do not
        form one run of ways (a corner of two edges: no one normal)."""
        run = self._run(p)
        if run is None:
            return None
        first_ok, last_ok = run
        span = math.remainder(last_ok - first_ok, 2.0 * math.pi) % (2.0 * math.pi)
        mid = first_ok + span / 2.0
        return (math.cos(mid), math.sin(mid))

    def inside(self, p: Point2) -> tuple[Point2, Point2] | None:
        """At ``p`` on the edge of where the base may stand (or at a corner of two such
        edges), the unit normal of each edge pointing to where it may: the places round ``p``
        where it may stand run counterclockwise from one edge to the other
        (:meth:`outward`'s run); on a straight edge both are its normal. ``None`` as for
        :meth:`outward`."""
        run = self._run(p)
        if run is None:
            return None
        a, b = run
        return (-math.sin(a), math.cos(a)), (math.sin(b), -math.cos(b))

    def _run(self, p: Point2) -> tuple[float, float] | None:
        """The first and the last way (angles) of the one run of ways round ``p`` where the
        base may stand, counterclockwise (see :meth:`outward`)."""
        k = np.arange(_EDGE_RING) * (2.0 * math.pi / _EDGE_RING)
        ok = self.ok(np.asarray(p) + _EDGE_RING_MM * np.column_stack((np.cos(k), np.sin(k))))
        starts = np.flatnonzero(ok & ~np.roll(ok, 1))  # ways where a run of standing begins
        ends = np.flatnonzero(~ok & np.roll(ok, 1))  # ways just past where one ends
        if len(starts) != 1 or len(ends) != 1:
            return None
        step = 2.0 * math.pi / _EDGE_RING
        # per crossing, a bracket of angles from a way it may not stand to one it may
        lo = np.array([k[starts[0]] - step, k[ends[0]]])
        hi = np.array([k[starts[0]], k[ends[0]] - step])
        t = np.linspace(0.0, 1.0, _EDGE_RING + 1)
        for _ in range(3):
            ang = lo[:, None] + (hi - lo)[:, None] * t[None, :]  # (2, n): lo first, hi last
            pts = np.asarray(p) + _EDGE_RING_MM * np.stack((np.cos(ang), np.sin(ang)), axis=-1)
            good = self.ok(pts.reshape(-1, 2)).reshape(ang.shape)
            first = np.argmax(good, axis=1)  # the first way it may stand on (hi stands)
            rows = np.arange(2)
            lo, hi = ang[rows, np.maximum(first - 1, 0)], ang[rows, first]
        return float(hi[0]), float(hi[1])

    def ok(self, pts: Array) -> BoolArray:
        """Where the base may stand with its centre at each of ``pts`` (mm, ``(n, 2)``)."""
        px, py = pts[:, 0], pts[:, 1]
        elev = np.full(len(pts), self.elevation)
        ok = placeable_v(self.board, px, py, self.r, elev, self.skip, skip_pieces=self.skip_pieces)
        if self.table is not None:
            w, h, r, eps = self.table[0], self.table[1], self.r, LENGTH_EPSILON_MM
            ok &= (px >= r - eps) & (px <= w - r + eps) & (py >= r - eps) & (py <= h - r + eps)
        return ok


_EDGE_RING = 72
"""How many ways round a place :meth:`Footing.outward` tries first (5 degrees apart)."""
_EDGE_RING_MM = 0.02
"""How far out :meth:`Footing.outward` tries them: well past the search's precision
(:data:`MARGIN_PRECISION_MM`), well within the edge's curvature (a base's radius or more)."""


def standable(scenario: Scenario, model_id: str, pts: Array) -> BoolArray:
    """Where ``model_id``'s base may stand with its centre at each of ``pts`` (mm, ``(n, 2)``),
    by the placement rule (:func:`fwwrules.placement.placeable_v`) at the model's elevation,
    on the table when the scenario gives its size. What the model already clashes with where
    it stands is not held against it (:class:`Footing`)."""
    return Footing.of(scenario, model_id).ok(pts)


def _walk(
    footing: Footing, cand: Candidate, p0: Point2, limit: float, straight: bool = True
) -> list[Candidate]:
    """The nearest places where the mover can stand on the candidate's boundary, each way
    along it from its nearest point, and (unless not ``straight``) straight on past it (a
    centre stepping off a piece it stands on, where the base may stand again beside it):
    each a candidate found by search (:func:`_first_standing`); none within ``limit``:
    empty."""
    if cand.edge:
        return _walk_edge(footing, cand, p0, limit)
    out: list[Candidate] = []
    runs: list[tuple[Curve, Array]] = []
    if cand.curve is not None:
        pts = cand.curve.sample(p0, cand.point, limit, MARGIN_SEARCH_STEP_MM)
        if cand.curve.half:
            runs.append((cand.curve, pts))
        else:
            runs += [(cand.curve, pts[[0, *range(k, len(pts), 2)]]) for k in (1, 2)]
    if straight:
        ahead = np.arange(0.0, max(limit - cand.distance, 0.0), MARGIN_SEARCH_STEP_MM)
        ray = np.asarray(cand.point) + ahead[:, None] * np.asarray(cand.direction)
        runs.append((Curve(cand.point, cand.direction), ray))
    for curve, run in runs:
        found = _first_standing(footing, curve, run, p0)
        if found is None:
            continue
        good, precision = found
        way, dist = _toward(p0, good)
        if dist > limit:
            continue
        out.append(replace(cand, point=good, distance=dist, direction=way, method="search",
                           precision=precision, probe=None))  # fmt: skip
        if curve is cand.curve and curve.radius is None:
            out += _beside_line(footing, cand, curve, good, dist, precision, p0)
    return out


def _walk_edge(footing: Footing, cand: Candidate, p0: Point2, limit: float) -> list[Candidate]:
    """For a candidate on an edge of where the base may stand that lies inside the change's
    region (``cand.edge``: a contact ring's inner edge), the nearest places along it, each
    way from its nearest point, where the base may stand (sampled, bisected to
    :data:`_EDGE_CORNER_MM`: where the edge meets another, a piece's): each asked a hair
    into the places it may stand there (:meth:`Footing.inside`, :func:`_into_corner`). The
    ring there is the change's region already; straight on from ``p0`` a hair past the place
    the base cannot stand (search; the precision as :func:`_first_standing`'s)."""
    curve = cand.curve
    if curve is None:
        return []
    pts = curve.sample(p0, cand.point, limit, MARGIN_SEARCH_STEP_MM)
    out: list[Candidate] = []
    for run in (pts[[0, *range(k, len(pts), 2)]] for k in (1, 2)):
        found = _first_standing(footing, curve, run, p0, asked=False, to=_EDGE_CORNER_MM)
        if found is None:
            continue
        good, precision = found
        dist = math.dist(p0, good)
        normals = footing.inside(good)
        corner = None if normals is None else _into_corner(p0, good, dist, normals)
        if dist > limit or corner is None:
            continue
        probe, toward = corner
        out.append(replace(cand, point=good, distance=dist, direction=toward, method="search",
                           precision=precision, probe=probe))  # fmt: skip
    return out


_EDGE_CORNER_MM = 1e-6
"""How near :func:`_walk_edge` narrows down where an edge of where the base may stand meets
another (far below :data:`_EDGE_RING_MM`, so :meth:`Footing.inside` sees the corner's two
edges where they are, and below :data:`MARGIN_CORNER_DEPTH_MM`, the depth asked into it)."""


def _held_end(footing: Footing, cand: Candidate) -> bool:
    """Whether ``cand`` is a half line's end (a ray through a piece's corner) whose line
    the mover cannot stand on a search step past the end: the ruling asked at the end (on
    the piece) says nothing of the line beyond it, where the base stands clear again."""
    curve = cand.curve
    if curve is None or not curve.half or curve.radius is not None:
        return False
    step = MARGIN_SEARCH_STEP_MM * curve.half
    nxt = np.array([[cand.point[0] + step * curve.way[0], cand.point[1] + step * curve.way[1]]])
    return not bool(footing.ok(nxt)[0])


def _walk_curve(footing: Footing, cand: Candidate, p0: Point2, limit: float) -> list[Candidate]:
    """:func:`_walk` along the candidate's curve only (not straight on past its place),
    the places whose probe the mover can stand at."""
    walked = _walk(footing, cand, p0, limit, straight=False)
    if not walked:
        return []
    probes = np.array([w.probe_point() for w in walked])
    return [w for w, good in zip(walked, footing.ok(probes), strict=True) if good]


def _beside_line(
    footing: Footing,
    cand: Candidate,
    curve: Curve,
    good: Point2,
    dist: float,
    precision: float,
    p0: Point2,
) -> list[Candidate]:
    """At ``good``, where a line boundary (``curve``) meets the edge of where the mover can
    stand, the ruling asked a hair into the corner between them on either side of the line
    (:func:`_into_corner`): straight on from ``p0`` crosses the line to its far side, but
    the change may lie on the near side (the mover's centre already on the changed side of
    that line, held back by another boundary: standing on a piece, the Line of Cover still
    ending in it), reached only once the base can stand there."""
    edge = footing.outward(good)
    if edge is None:
        return []
    out: list[Candidate] = []
    for sd in (1.0, -1.0):
        normal = (-sd * curve.way[1], sd * curve.way[0])
        corner = _into_corner(p0, good, dist, (normal, edge))
        if corner is not None:
            probe, toward = corner
            out.append(replace(cand, point=good, distance=dist, direction=toward,
                               method="search", precision=precision, probe=probe))  # fmt: skip
    return out


def _first_standing(
    footing: Footing,
    curve: Curve,
    run: Array,
    p0: Point2,
    asked: bool = True,
    to: float = MARGIN_PRECISION_MM,
) -> tuple[Point2, float] | None:
    """Along ``run`` (points of ``curve`` one way from ``run[0]``, the candidate's place, where
    the ruling a hair past it cannot be asked), the first place where the mover can stand and
    the ruling can be asked a hair past it (away from ``p0``): sampled, the first place it can
    stand bisected to :data:`MARGIN_PRECISION_MM`, then followed on in steps of that size
    until the hair past it stands too (the boundary may meet the placement's at a narrow
    angle). With the precision: how much nearer the true boundary may lie (the distance from
    ``p0`` to the last place it could not stand, or to ``run[0]``). Not ``asked``: the first
    place it can stand, bisected to ``to``, whether or not the hair past it stands."""
    if len(run) < 2:
        return None
    ok = footing.ok(run)
    found = np.flatnonzero(ok[1:]) + 1
    if not len(found):
        return None
    k = int(found[0])
    good, bad = run[k], run[k - 1]
    while math.dist(good, bad) > (MARGIN_PRECISION_MM if asked else to):
        mid = _on_curve(curve, (good + bad) / 2.0)
        if footing.ok(mid[None, :])[0]:
            good = mid
        else:
            bad = mid
    if not asked:
        point = (float(good[0]), float(good[1]))
        return point, math.dist(point, p0) - math.dist((float(bad[0]), float(bad[1])), p0)
    onward = curve.onward(good, bad, MARGIN_PRECISION_MM, _ONWARD_STEPS)
    stands = np.flatnonzero(_asked_stands(footing, onward, p0))
    if not len(stands):
        return None
    best = onward[int(stands[0])]
    point = (float(best[0]), float(best[1]))
    return point, math.dist(point, p0) - math.dist((float(bad[0]), float(bad[1])), p0)


_ONWARD_STEPS = 1000
"""How many steps of :data:`MARGIN_PRECISION_MM` (1e-3 mm: 1 mm in all) :func:`_first_standing`
follows a boundary past the first place the mover can stand, looking for a place whose probe
stands too."""


def _asked_stands(footing: Footing, pts: Array, p0: Point2) -> BoolArray:
    """Where the mover can stand at each of ``pts`` and a hair (:data:`MARGIN_PROBE_MM`)
    past it, away from ``p0``: where the ruling a candidate there asks can be asked."""
    way = _unit_rows(pts - np.asarray(p0))
    return footing.ok(pts) & footing.ok(pts + MARGIN_PROBE_MM * way)


def _on_curve(curve: Curve, p: Array) -> Array:
    """``p`` put back on a circle (a midpoint of a chord lies inside it); a line keeps it."""
    if curve.radius is None:
        return p
    c = np.asarray(curve.origin)
    d = p - c
    n = float(np.hypot(d[0], d[1]))
    return c + d * (curve.radius / n) if n > 0 else p


def stand_where_possible(
    scenario: Scenario, movers: Sequence[Mover], cands: list[Candidate], limit: float
) -> list[Candidate]:
    """The candidates whose probe point the mover can stand at, and for the others the
    nearest place on the same boundary where it can (:func:`_walk`). A half line's end
    where the mover can stand (a ray's corner: standing on the piece) whose line it cannot
    stand on just past the end is searched along too (:func:`_held_end`). A contact ring's
    inner edge (``edge``) is left out where the ring's own nearest place can be asked: no
    place of the edge is nearer."""
    out: list[Candidate] = []
    for mv in movers:
        mine = [c for c in cands if c.mover == mv.id]
        if not mine:
            continue
        footing = Footing.of(scenario, mv.id)
        ok = footing.ok(np.array([c.probe_point() for c in mine]))
        rings = {c.source for c, good in zip(mine, ok, strict=True)
                 if good and c.decision == "contact" and not c.edge}  # fmt: skip
        for cand, good in zip(mine, ok, strict=True):
            if cand.edge and cand.source in rings:
                continue
            if good:
                out.append(cand)
                if _held_end(footing, cand):
                    out += _walk_curve(footing, cand, mv.p0, limit)
                continue
            if not cand.walk:
                continue  # a corner of two boundaries: asked only where the mover stands
            walked = _walk(footing, cand, mv.p0, limit)
            if walked:
                probes = np.array([w.probe_point() for w in walked])
                out += [w for w, good in zip(walked, footing.ok(probes), strict=True) if good]
    return out


# --- confirming candidates with rulings -------------------------------------------------------


@dataclass(slots=True)
class _Search:
    """The rulings asked so far: the smallest confirmed change and, per decision a player
    acts on (``los``, ``cover:<source>``), the first candidate that changes it."""

    base: AttackRuling
    base_outcome: dict[str, object]
    probe: Probe
    scenario: Scenario
    tracked: set[str]
    smallest: tuple[Candidate, tuple[str, ...], AttackRuling] | None = None
    first: dict[str, tuple[Candidate, AttackRuling]] = field(default_factory=dict)
    probes: int = 0
    cut: bool = False

    def ask(self, cand: Candidate) -> AttackRuling:
        x, y = cand.probe_point()
        u = self.scenario.unit_mm
        self.probes += 1
        return self.probe(move_model(self.scenario, cand.mover, x / u, y / u))

    def note(self, cand: Candidate, r: AttackRuling) -> None:
        changes = changed(self.base, self.base_outcome, r)
        if not changes:
            return
        if self.smallest is None:
            self.smallest = (cand, changes, r)
        for key in _decision_keys(self.base, r):
            self.first.setdefault(key, (cand, r))

    def resolved(self) -> bool:
        return self.smallest is not None and self.tracked <= self.first.keys()

    def wants(self, key: str) -> bool:
        """Whether decision ``key``'s first change is still looked for."""
        return key in self.tracked and key not in self.first


def _decision_keys(a: AttackRuling, b: AttackRuling) -> list[str]:
    """The per-decision keys that differ between two rulings: ``los``, and ``cover:<source>``
    while both attacks are allowed (a refused attack presents no cover)."""
    out = ["los"] if a.line_of_sight != b.line_of_sight else []
    if a.allowed and b.allowed:
        ca = {c.source: (c.clause, c.modifier) for c in a.cover}
        cb = {c.source: (c.clause, c.modifier) for c in b.cover}
        out += [f"cover:{k}" for k in dict.fromkeys([*ca, *cb]) if ca.get(k) != cb.get(k)]
    return out


def _los_corner(cand: Candidate) -> bool:
    """Whether ``cand`` is a corner of two line-of-sight boundaries (asked into the corner,
    never searched along)."""
    return cand.decision == "los" and not cand.walk


def confirm(search: _Search, cands: Sequence[Candidate], knife_only: bool) -> None:
    """Ask the ruling a hair past each candidate, nearest first, until the smallest change is
    found (and, unless ``knife_only``, every tracked decision's first change), the candidates
    run out or :data:`MAX_MARGIN_PROBES` rulings were asked. A corner of two line-of-sight
    boundaries (:func:`_line_corners`, :func:`_round_corners`) tells only of the line of
    sight: past the smallest change it is asked only while the line of sight's first change
    is looked for."""
    asked: dict[tuple[str, float, float], AttackRuling] = {}
    for cand in sorted(cands, key=lambda c: (c.distance, c.method != "exact")):
        if search.smallest is not None and (knife_only or search.resolved()):
            return
        if search.smallest is not None and cand.decision not in ("los", "cover"):
            continue
        if search.smallest is not None and _los_corner(cand) and not search.wants("los"):
            continue
        if search.probes >= MAX_MARGIN_PROBES:
            search.cut = True
            return
        x, y = cand.probe_point()
        key = (cand.mover, round(x, 9), round(y, 9))
        if key not in asked:
            asked[key] = search.ask(cand)
        search.note(cand, asked[key])


# --- the margins of one ruling ----------------------------------------------------------------


def movers_of(ctx: AttackContext) -> list[Mover]:
    """The models that may move: the attacker, and the target when it is a model (a terrain
    piece or a point stays)."""
    shot = ctx.shot
    out = [Mover(shot.attacker_id, shot.a.center, shot.a.r, shot.b, shot.b_polygon, shot.loc[1])]
    if shot.target_type == "model" and shot.b is not None:
        out.append(Mover(shot.target_id, shot.b.center, shot.b.r, shot.a, None, shot.loc[0]))
    return out


def _melee_members(ctx: AttackContext, r: AttackRuling) -> list[Disc]:
    """The other models of a melee the attacker shoots into (the Armor die's numbers go to
    those in its line of sight)."""
    board = ctx.scenario.board
    members: set[str] = set()
    if r.into_melee is not None and r.into_melee.numbers:
        members = set(r.into_melee.numbers)
    members |= set(ctx.engaged.get(ctx.target_id, ()))
    members.discard(ctx.target_id)
    members.discard(ctx.attacker_id)
    return [board.models[m].disc for m in sorted(members) if m in board.models]


def gather(
    ctx: AttackContext,
    r: AttackRuling,
    movers: Sequence[Mover],
    limit: float,
    work: Work | None = None,
) -> list[Candidate]:
    """Every candidate of every family that can matter for this ruling (the costly ones
    counted in ``work`` first: :class:`TooMuchWork` past its bound)."""
    out = contact_candidates(ctx, movers, limit)
    if r.kind == "melee":
        return out
    out += band_candidates(ctx, movers, limit)
    out += cover_candidates(ctx, movers, limit, work)
    out += elevation_candidates(ctx, movers, limit)
    for mv in movers:
        sources: list[Disc | Polygon] = []
        if mv.other is not None:
            sources.append(mv.other)
        elif mv.other_polygon is not None:
            sources.append(mv.other_polygon)
        if mv.id == ctx.attacker_id:
            sources += _melee_members(ctx, r)
        out += los_candidates(ctx, mv, sources, limit, work, r.line_of_sight is False)
    return out


def _flip(cand: Candidate, **kw: Any) -> Flip:
    """A decision's :class:`Flip` where ``cand`` changes it."""
    values: dict[str, Any] = {
        "decision": cand.decision,
        "clause": cand.clause,
        "source": cand.source,
        "change": cand.change,
        "params": cand.params,
        **kw,
    }
    return Flip(**values, mm=cand.distance, model=cand.mover, direction=cand.direction,
                heading=compass(*cand.direction), at=cand.at, method=cand.method,
                precision_mm=cand.precision)  # fmt: skip


def words_at(
    ctx: AttackContext, base: AttackRuling, r: AttackRuling, cand: Candidate, changes: Sequence[str]
) -> tuple[Flip, ...]:
    """The decisions that change at the smallest margin, for the words: the line of sight,
    the bands entered or left, the minimum range, a contact, each cover source."""
    out: list[Flip] = []
    if r.line_of_sight is not None and base.line_of_sight != r.line_of_sight:
        change = "los-opens" if r.line_of_sight else "los-closes"
        out.append(_flip(cand, decision="los", clause="ranged.los", source=None, change=change))
    target = {"target": ctx.target_ref}
    if "ranged.min-range" in changes:
        inside = "ranged.min-range" in r.not_allowed
        change = "min-range-inside" if inside else "min-range-outside"
        out.append(_flip(cand, decision="min-range", clause="ranged.min-range", source=None,
                         change=change, params=target))  # fmt: skip
    elif base.range is not None and r.range is not None:
        old, new = set(base.range.bands), set(r.range.bands)
        for band, change in [*((b, "band-leaves") for b in old - new),
                             *((b, "band-enters") for b in new - old)]:  # fmt: skip
            out.append(_flip(cand, decision="band", clause="ranged.range", source=None,
                             change=change, params={**target, "band": band}))  # fmt: skip
    if cand.decision == "contact":
        out.append(_flip(cand))
    if base.allowed and r.allowed:
        ca = {c.source: c for c in base.cover}
        cb = {c.source: c for c in r.cover}
        for name in dict.fromkeys([*ca, *cb]):
            a, b = ca.get(name), cb.get(name)
            if (a is None) != (b is None) or (a and b and a.modifier != b.modifier):
                entry = b or a
                assert entry is not None
                change = "cover-gained" if b is not None else "cover-lost"
                out.append(_flip(cand, decision="cover", clause=entry.clause, source=entry.ref,
                                 change=change, params={"source": entry.ref}))  # fmt: skip
    return tuple(out)


def _geometric(cands: Sequence[Candidate], decision: str) -> dict[tuple[Any, ...], Candidate]:
    """The nearest candidate of each band end or contact (by band, or by mover and model)."""
    best: dict[tuple[Any, ...], Candidate] = {}
    for c in sorted(cands, key=lambda c: c.distance):
        if c.decision != decision:
            continue
        key: tuple[Any, ...] = (
            (c.params.get("band"),) if decision != "contact" else (c.mover, c.source)
        )
        best.setdefault(key, c)
    return best


def decisions(
    ctx: AttackContext, base: AttackRuling, search: _Search, cands: Sequence[Candidate]
) -> tuple[Flip, ...]:
    """One :class:`Flip` per decision: the line of sight, each band's end (and the minimum
    range), each cover source the Line of Cover meets or comes to meet, each contact with an
    opposing model."""
    out: list[Flip] = []
    if base.kind == "ranged" and base.line_of_sight is not None:
        found = search.first.get("los")
        change = "los-closes" if base.line_of_sight else "los-opens"
        out.append(
            _flip(
                found[0], decision="los", clause="ranged.los", source=None, change=change, params={}
            )
            if found is not None
            else Flip("los", "ranged.los")
        )
    if base.kind == "ranged":
        for th in _thresholds(ctx, 0.0, 0.0):
            if (th.decision, th.band) in {(f.decision, f.params.get("band")) for f in out}:
                continue
            near = _geometric(cands, th.decision).get((th.band,))
            out.append(
                _flip(near)
                if near is not None
                else Flip(th.decision, th.clause, params={"band": th.band})
            )
    out += _cover_flips(base, search)
    for c in _geometric(cands, "contact").values():
        if c.clause == "melee.engaged":
            out.append(_flip(c))
    return tuple(out)


def _cover_flips(base: AttackRuling, search: _Search) -> list[Flip]:
    """Each cover source met now or changed by a ruling asked, and where it first changes."""
    refs: dict[str, tuple[PieceRef, str]] = {}
    entries: list[CoverEntry | IgnoredEntry] = [*base.cover, *base.ignored]
    for e in entries:
        refs.setdefault(e.source, (e.ref, e.clause))
    for key, (_, r) in search.first.items():
        if key.startswith("cover:"):
            for e in r.cover:
                if f"cover:{e.source}" == key:
                    refs.setdefault(e.source, (e.ref, e.clause))
    out: list[Flip] = []
    covered = {c.source for c in base.cover}
    for name, (ref, clause) in refs.items():
        found = search.first.get(f"cover:{name}")
        change = "cover-lost" if name in covered else "cover-gained"
        if found is None or not base.allowed:
            out.append(Flip("cover", clause, ref))
        else:
            out.append(_flip(found[0], decision="cover", clause=clause, source=ref,
                             change=change, params={"source": ref}))  # fmt: skip
    return out


def attack_margins(
    ctx: AttackContext,
    base: AttackRuling,
    probe: Probe,
    knife_only: bool = False,
    only: str | None = None,
) -> Margins:
    """The margins of the attack ruling ``base`` of ``ctx`` (``probe`` rules the same query on a
    scenario where one model moved). ``knife_only``: look only as far as the knife edge (is it
    a close call?), else as far as :data:`MARGIN_RADIUS_MM`; ``only``: move that model alone
    (the attacker or the target; ``None``: each of them)."""
    s = ctx.scenario
    limit = s.knife_edge_mm if knife_only else MARGIN_RADIUS_MM
    movers = [mv for mv in movers_of(ctx) if only is None or mv.id == only]
    try:
        found_cands = gather(ctx, base, movers, limit, Work())
    except TooMuchWork as e:  # counted before it was done: not measured
        return Margins(smallest=Margin(), radius_mm=MARGIN_RADIUS_MM,
                       knife_edge_mm=s.knife_edge_mm, unit_mm=s.unit_mm, complete=False,
                       measured=False, work=e.pairs)  # fmt: skip
    cands = stand_where_possible(s, movers, found_cands, limit)
    tracked = set() if knife_only else _tracked(base)
    search = _Search(base, outcome(base), probe, s, tracked)
    confirm(search, cands, knife_only)
    smallest = Margin()
    if search.smallest is not None:
        cand, changes, r = search.smallest
        smallest = Margin(
            mm=cand.distance,
            model=cand.mover,
            direction=cand.direction,
            heading=compass(*cand.direction),
            at=cand.at,
            changes=changes,
            flips=words_at(ctx, base, r, cand, changes),
            knife_edge=cand.distance < s.knife_edge_mm,
            method=cand.method,
            precision_mm=cand.precision,
        )
    found = () if knife_only else decisions(ctx, base, search, cands)
    return Margins(
        smallest=smallest,
        decisions=found,
        radius_mm=MARGIN_RADIUS_MM,
        knife_edge_mm=s.knife_edge_mm,
        unit_mm=s.unit_mm,
        complete=not (knife_only or search.cut),
        probes=search.probes,
        measured=search.smallest is not None or not search.cut,
    )


def _tracked(base: AttackRuling) -> set[str]:
    """The decisions whose first change the search looks for besides the smallest: the line
    of sight of a ranged attack, and each cover source of an allowed one."""
    out = {"los"} if base.kind == "ranged" and base.line_of_sight is not None else set()
    if base.allowed:
        out |= {f"cover:{c.source}" for c in base.cover}
        out |= {f"cover:{i.source}" for i in base.ignored}
    return out
