"""Line of sight for a target at many positions (``ranged.los``), proved position by position
with straight lines: the threat map's sight proofs.

For one shooter, every obstacle that may stand between it and the target
(:func:`fwwrules.los.obstacles_v`, the vector forms of the blocker rules) is split into convex
parts grown and eroded by the sure margin (:mod:`fwwrules.convex`). Then, cheapest first:

1. the centre line misses every grown part: **visible**;
2. every segment between the two bases meets one eroded part (:func:`_blocked_by`): **hidden**;
3. one of a few offset segments misses every grown part (:func:`_try_segments`): visible;
4. the extremal lines (tangent to both bases, through corners): all cut proves hidden, a
   clear one proves visible (:func:`_extremal`);
5. the eroded blockers together cut the hull of the two bases (:func:`_separated`): hidden;
6. what is left: the rules' own exact search (:func:`fwwrules.geometry.find_clear_segment`).

Every proof keeps the margin :data:`~fwwrules.constants.THREAT_SURE_MARGIN_MM` (or the rules'
boundary tolerance) from every boundary, so each cell agrees with :func:`fwwrules.ruling`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from ..board import Board, Disc
from ..cache import Key
from ..constants import BOUNDARY_TOLERANCE_MM, THREAT_SURE_MARGIN_MM
from ..convex import Part, disc_part_of, parts_of
from ..geometry import find_clear_segment, prepared_for, separated
from ..kernels import (
    Array,
    BoolArray,
    Fan,
    IndexArray,
    any_hit,
    arc_gaps,
    arcs_union,
    common_tangents,
    convex_set,
    edge_circle_points,
    seg_hits,
    segment_point_distance,
    stretch,
    tangent_lines,
)
from ..los import Blocking, SightPositions, obstacles_v
from ..pieces import TerrainRef

_DELTA = THREAT_SURE_MARGIN_MM


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
    shooter_arcs = arcs_union(np.arctan2(rel[:, 1], rel[:, 0]), half - _ANGLE_SLACK)
    gaps = arc_gaps(shooter_arcs)
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
    c: Disc,
    rs: float,
    px: Array,
    py: Array,
    rt: float,
    among: BoolArray,
    parts: list[tuple[Part, BoolArray | None]],
) -> BoolArray:
    """Positions where one of a few segments between points of the two bases is surely clear
    (misses every grown LoS part): offsets across the line of centres at each end. Each part
    comes with the positions it is left out for (``None``: none)."""
    idx = np.flatnonzero(among)
    seen = np.zeros(len(px), dtype=bool)
    dx, dy = px[idx] - c.x, py[idx] - c.y
    ln = np.hypot(dx, dy)
    with np.errstate(invalid="ignore", divide="ignore"):
        nx, ny = -dy / ln, dx / ln
    shrink = 1.0 - 1e-9
    left = np.ones(len(idx), dtype=bool)
    boxes = [(x0, x1, y0, y1) for x0, y0, x1, y1 in (p.box for p, _ in parts)]
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
        for (part, off), (gx0, gx1, gy0, gy1) in zip(parts, boxes, strict=True):
            g = part.grown
            m = ~hit & ~((bx1 < gx0) | (bx0 > gx1) | (by1 < gy0) | (by0 > gy1))
            if off is not None:
                m &= ~off[idx[sel]]
            w = np.flatnonzero(m)
            if len(w):
                hit[w] |= seg_hits(ax[w], ay[w], bx[w], by[w], g)
        clear = ~hit & np.isfinite(ax)
        seen[idx[sel[clear]]] = True
        left[sel[clear]] = False
    return seen


_ROUND = BOUNDARY_TOLERANCE_MM
"""Rounding allowed in the extremal-line tests (the rules' boundary tolerance)."""

_MAX_FEATURES = 160
"""Most feature points one position's proofs take (more: left to the exact search)."""

_CHUNK = 1 << 15


_EXTREMAL_BATCH = 2048
"""Positions the extremal-line proofs take at once (their arrays grow with positions times
corners)."""


def _extremal(
    c: Disc, rs: float, px: Array, py: Array, rt: float, among: BoolArray, parts: list[Part]
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
    c: Disc, rs: float, px: Array, py: Array, rt: float, among: BoolArray, parts: list[Part]
) -> tuple[BoolArray, BoolArray]:
    """Positions proved visible, and positions proved hidden, by the straight lines that
    decide line of sight (as the exact search of :mod:`fwwrules.geometry` does, over all
    positions at once).

    If some segment joins the two bases avoiding a set of convex pieces, one does that is
    extremal: tangent to both bases, or through a corner (or a point where a piece's outline
    meets a base's circle) and tangent to a base, or through two such points. *Visible*: one
    of these lines, built on points at least the margin outside the grown parts, clears them
    all between the bases (a line tangent to a base is taken tangent to the base shrunk by
    the margin, so that it crosses the base). *Hidden*: every such line for the eroded parts
    passes through the interior of one (deeper than rounding), so every segment between the
    bases passes more than the margin into a piece.

    Hidden is tried first: a hidden position tries every line, a visible one mostly stops at
    its first lines (most of the positions left here are hidden).
    """
    n = len(px)
    seen = np.zeros(n, dtype=bool)
    cut = np.zeros(n, dtype=bool)
    idx = np.flatnonzero(among)
    if not len(idx) or not parts:
        return seen, cut
    ero_polys = [p.exact for p in parts if p.exact is not None]
    outer_polys = [p.outer for p in parts if p.outer is not None]
    # (visible, the polygons whose points lines pass through, the polygons lines must miss
    # or be cut by, grow, slack)
    proofs = [(False, ero_polys, ero_polys, -_ROUND, _ROUND)] if ero_polys else []
    proofs.append((True, outer_polys, [p.grown for p in parts], _ROUND, -_ROUND))
    for visible, polys, solids, grow, slack in proofs:
        sub = np.flatnonzero(~(seen[idx] | cut[idx]))
        if not len(sub):
            break
        bx, by = px[idx[sub]], py[idx[sub]]
        feats = _features(c, rs, rt, bx, by, polys)
        # visible: a clear line found; hidden: a line not cut found
        found = _prove(c, rs, rt, bx, by, feats, (convex_set(solids), grow, slack, visible))
        if visible:
            seen[idx[sub[found]]] = True
        else:
            cut[idx[sub[~found & ~feats[5]]]] = True
    return seen, cut


Features = tuple[IndexArray, Array, Array, IndexArray, IndexArray, BoolArray]
"""The points extremal lines may pass through, per position: ``(position index, x, y)`` sorted
by position, with each position's count and first index, and whether it has too many."""


def _features(c: Disc, rs: float, rt: float, bx: Array, by: Array, polys: list[Array]) -> Features:
    """The corners of ``polys`` near each position's centre line, and where their outlines
    cross the shooter's or the target's circle (a base reaching into a piece)."""
    reach = max(rs, rt) + 1e-6

    def corridor(fx: Array, fy: Array) -> BoolArray:
        # points near the segment between the centres (a superset of the bases' hull)
        return segment_point_distance(c.x, c.y, bx[:, None], by[:, None], fx, fy) <= reach

    verts = np.vstack(polys) if polys else np.zeros((0, 2))
    m_f, k = np.nonzero(corridor(verts[None, :, 0], verts[None, :, 1]))
    fx, fy = verts[k, 0], verts[k, 1]
    _, ax_, ay_ = edge_circle_points(polys, np.array([c.x]), np.array([c.y]), rs)
    if len(ax_):
        mm, kk = np.nonzero(corridor(ax_[None, :], ay_[None, :]))
        m_f = np.concatenate((m_f, mm))
        fx = np.concatenate((fx, ax_[kk]))
        fy = np.concatenate((fy, ay_[kk]))
    mb, bxx, byy = edge_circle_points(polys, bx, by, rt)
    m_f = np.concatenate((m_f, mb))
    fx = np.concatenate((fx, bxx))
    fy = np.concatenate((fy, byy))
    order = np.argsort(m_f, kind="stable")
    m_f, fx, fy = m_f[order], fx[order], fy[order]
    counts = np.bincount(m_f, minlength=len(bx))
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    return m_f, fx, fy, counts, starts, counts > _MAX_FEATURES


def _prove(
    c: Disc,
    rs: float,
    rt: float,
    bx: Array,
    by: Array,
    feats: Features,
    against: tuple[Any, float, float, bool],
) -> BoolArray:
    """Which positions have an extremal line that, ``visible``: no part of ``cv`` (grown by
    ``grow``) touches; hidden: no part cuts (or too short to be cut). ``against``: ``(cv,
    grow, slack, visible)``."""
    cv, grow, slack, visible = against
    found = np.zeros(len(bx), dtype=bool)
    # a line tangent to a base misses the base shrunk by rounding: the visible proof takes
    # the lines tangent to the bases shrunk by the sure margin (crossing both bases)
    inset = _DELTA if visible else 0.0
    lines = _candidates(c, rs - inset, rt - inset, bx, by, feats, found)
    for mm, ox, oy, dx, dy in lines:
        for s0 in range(0, len(mm), _CHUNK):
            sl = slice(s0, s0 + _CHUNK)
            keep = ~found[mm[sl]]
            if not keep.any():
                continue
            m_c = mm[sl][keep]
            o_x, o_y, d_x, d_y, st, ok = stretch(
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
            if visible:
                ok &= st[:, 1] > st[:, 0]
            sel = np.flatnonzero(ok)
            if not len(sel):
                continue
            hit = any_hit(
                cv,
                o_x[sel],
                o_y[sel],
                d_x[sel],
                d_y[sel],
                st[sel, 0],
                st[sel, 1],
                grow=grow,
                strict=not visible,
            )
            free = ~hit if visible else ~hit | (st[sel, 1] <= st[sel, 0])
            found[m_c[sel[free]]] = True
    return found


def _candidates(
    c: Disc,
    rs: float,
    rt: float,
    bx: Array,
    by: Array,
    feats: Features,
    found: BoolArray,
) -> Iterator[tuple[IndexArray, Array, Array, Array, Array]]:
    """The candidate lines of :func:`_extremal_batch` in bounded batches, cheapest kinds
    first: (position, origin x, y, unit direction x, y). Positions already ``found`` (the
    caller sets them while consuming) get no more pairs of features."""
    m_f, fx, fy, counts, starts, too_many = feats
    sub_n = len(bx)
    # a. tangent to both bases
    tox, toy, tdx, tdy, tok = common_tangents(c.x, c.y, rs, bx, by, rt)
    yield np.tile(np.arange(sub_n), 4)[tok], tox[tok], toy[tok], tdx[tok], tdy[tok]
    # b. through a feature, tangent to a base
    if len(m_f):
        cxs, cys = np.full(len(fx), c.x), np.full(len(fx), c.y)
        ox, oy, dx, dy, ok = tangent_lines(fx, fy, cxs, cys, rs)
        mm = np.tile(m_f, 2)
        yield mm[ok], ox[ok], oy[ok], dx[ok], dy[ok]
        ox, oy, dx, dy, ok = tangent_lines(fx, fy, bx[m_f], by[m_f], rt)
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


# --- the blockers, as parts and as one eroded wall -------------------------------------------

THREAT_WALLS: Key[dict[tuple[tuple[str, ...], ...], BaseGeometry | None]] = Key(
    "threat_walls", terrain_only=True, make=dict
)
"""The terrain blockers of a shot eroded as one (by the tuple of their pieces' ids)."""


def _in_reach(parts: list[_Owned], c: Disc, gx: Array, gy: Array, rt: float) -> list[_Owned]:
    """The parts that may meet a segment between the shooter's base ``c`` and a target base
    of radius ``rt`` at one of the positions ``(gx, gy)``: every such segment lies within
    ``max(c.r, rt + spread)`` of the segment from the shooter's centre to the positions'
    middle (``spread``: how far the positions lie from it), so a part whose bounding box's
    circle stays farther than that from it meets none (a part kept may still meet none).
    Positions close together (those on one piece) keep only the parts along their line."""
    if not parts or not len(gx):
        return parts
    mx, my = (gx.min() + gx.max()) / 2, (gy.min() + gy.max()) / 2
    reach = max(c.r, rt + float(np.hypot(gx - mx, gy - my).max()))
    box = np.asarray([p.box for _, p in parts])
    bx, by = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    half = np.hypot(box[:, 2] - box[:, 0], box[:, 3] - box[:, 1]) / 2
    far = segment_point_distance(c.x, c.y, np.asarray(mx), np.asarray(my), bx, by)
    keep = far <= reach + half + 1e-6 * (1.0 + reach + half)
    return [p for p, k in zip(parts, keep.tolist(), strict=True) if k]


_Owned = tuple[str | None, Part]
"""A convex part of a blocker with the terrain piece it is part of (``None``: a Huge base)."""


def _blocking_parts(board: Board, found: list[Blocking]) -> list[_Owned] | None:
    """Convex parts of every blocker (terrain pieces in file order, then Huge bases), each with
    its piece; ``None`` when one is neither (a Significant Edge: not a shot the fast path
    takes)."""
    pieces: set[str] = set()
    discs: list[Disc] = []
    for ref, obstacle in found:
        if isinstance(ref, TerrainRef):
            pieces.update(ref.ids)
        elif isinstance(obstacle, Disc):
            discs.append(obstacle)
        else:
            return None
    parts: list[_Owned] = []
    for tid in board.terrain_ids:
        if tid in pieces:
            parts.extend((tid, part) for part in parts_of(board, board.terrain[tid].polygon))
    parts.extend((None, disc_part_of(board, d)) for d in discs)
    return parts


def _eroded_wall(board: Board, found: list[Blocking], parts: list[Part]) -> BaseGeometry | None:
    """Every blocker eroded by the margin as a whole, so that touching pieces leave no crack
    between them (terrain kept in the cache; Huge bases from their eroded parts)."""
    terrain = [(ref, o) for ref, o in found if isinstance(ref, TerrainRef)]
    key = tuple(ref.ids for ref, _ in terrain)
    walls = board.derived.entry(THREAT_WALLS)
    if key not in walls:
        geoms = [
            o.buffer(-_DELTA * 1.01, join_style="mitre", mitre_limit=1e6)
            for _, o in terrain
            if isinstance(o, BaseGeometry)
        ]
        walls[key] = shapely.union_all(geoms) if geoms else None
    wall = walls[key]
    discs = [Polygon(p.eroded) for p in parts if p.disc and p.eroded is not None]
    if discs:
        wall = shapely.union_all([*discs, *([] if wall is None else [wall])])
    return wall if wall is None or not wall.is_empty else None


_RING_N = 32
_RING_ANGLES = np.linspace(0.0, 2 * math.pi, _RING_N, endpoint=False)
_RING_OUT = 1.0 / math.cos(math.pi / _RING_N)


def _separated(
    c: Disc, px: Array, py: Array, rt: float, among: BoolArray, wall: BaseGeometry | None
) -> BoolArray:
    """Positions whose base is cut off from the shooter's by the eroded blockers together
    (:func:`fwwrules.geometry.separated` over the convex hull of the two bases, each base a
    polygon containing it): every segment between them passes more than the margin into
    some blocker."""
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
    m = len(idx)
    pts = np.concatenate((np.broadcast_to(ring_a, (m, _RING_N, 2)), b_rings), axis=1)
    hulls = shapely.convex_hull(
        shapely.multipoints(pts.reshape(-1, 2), indices=np.repeat(np.arange(m), 2 * _RING_N))
    )
    cut = separated(hulls, wall, Polygon(ring_a), shapely.polygons(b_rings))
    out[idx[cut]] = True
    return out


def _with_bounds(found: list[Blocking]) -> list[tuple[tuple[float, float, float, float], Any]]:
    out: list[tuple[tuple[float, float, float, float], Any]] = []
    for _, o in found:
        if isinstance(o, Disc):
            out.append(((o.x - o.r, o.y - o.r, o.x + o.r, o.y + o.r), o))
        else:
            out.append((o.bounds, o))
    return out


# --- one shooter ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Unsure:
    """The positions of one line-of-sight pass that its cheap proofs (steps 1-3) left to the
    costly ones (steps 4-6: extremal lines, the blockers together, the exact search): their
    indices ``idx`` (into the positions the pass was given) and centres ``(px, py)``, with
    what the proofs need (the shot, its blockers and their convex parts). The threat map
    counts them (:class:`~fwwrules.threat.cost.Work` ``proofs``) before any costly proof
    runs."""

    p: SightPositions
    found: list[Blocking]
    parts: list[Part]
    idx: IndexArray
    px: Array
    py: Array


def sight_start(
    p: SightPositions,
    fan: Fan,
    px: Array,
    py: Array,
    need: BoolArray,
    stood: Mapping[str, BoolArray] | None = None,
) -> tuple[BoolArray, BoolArray, Unsure | None] | None:
    """``ranged.los`` from ``p``'s shooter to a target of radius ``p.rt`` at each position of
    ``need``, by the cheap proofs (steps 1-3): (visible, hidden, the positions left to
    :func:`sight_finish`, ``None`` when none is); ``None`` when some blocker rule has no
    vector form for this shot (the exact path decides every cell). ``stood``: the positions
    standing on each piece (``elevation.standing-on``), for which that piece blocks nothing;
    the positions left on them are parted by :func:`by_pieces_stood_on` before the costly
    proofs."""
    board = p.scenario.board
    found = obstacles_v(p)
    owned = None if found is None else _blocking_parts(board, found)
    if found is None or owned is None:
        return None
    c, rs, rt, n = p.a, p.a.r, p.rt, len(px)
    owned = _in_reach(owned, c, px[need], py[need], rt)
    left_out = stood or {}
    parts = [(part, None if tid is None else left_out.get(tid)) for tid, part in owned]
    centre_hit = np.zeros(n, dtype=bool)
    for part, off in parts:
        centre_hit |= fan.hits(part.grown, need if off is None else need & ~off)
    visible = need & ~centre_hit
    blocked = np.zeros(n, dtype=bool)
    for part, off in parts:
        if part.eroded is None:
            continue
        cand = need & centre_hit & ~blocked
        if not cand.any():
            break
        idx = np.flatnonzero(fan.hits(part.eroded, cand if off is None else cand & ~off))
        if len(idx):
            blocked[idx[_blocked_by(c.x, c.y, rs, px[idx], py[idx], rt, part.eroded)]] = True
    unsure = need & ~visible & ~blocked
    if unsure.any():
        seen = _try_segments(c, rs, px, py, rt, unsure, parts)
        visible |= seen
        unsure &= ~seen
    if not unsure.any():
        return visible, blocked, None
    idx = np.flatnonzero(unsure)
    return visible, blocked, Unsure(p, found, [part for _, part in owned], idx, px[idx], py[idx])


def by_pieces_stood_on(
    u: Unsure,
    groups: Mapping[frozenset[str], BoolArray],
    sight_of: Callable[[frozenset[str]], SightPositions],
) -> Iterator[Unsure]:
    """The positions of ``u`` (left by a pass with ``stood``, :func:`sight_start`; ``u.idx``
    indices into the positions ``groups`` part) parted by the blocking pieces they stand on,
    each part with its own shot (``sight_of`` those pieces: left out of line of sight, the
    other blockers merged again without them) for the costly proofs."""
    blockers = frozenset(i for ref, _ in u.found if isinstance(ref, TerrainRef) for i in ref.ids)
    parted: dict[frozenset[str], BoolArray] = {}
    for pieces, group in groups.items():
        key, at = pieces & blockers, group[u.idx]
        parted[key] = parted[key] | at if key in parted else at
    for key, at in parted.items():
        if not at.any():
            continue
        idx, px, py = u.idx[at], u.px[at], u.py[at]
        if not key:
            yield Unsure(u.p, u.found, u.parts, idx, px, py)
            continue
        p = sight_of(key)
        found = obstacles_v(p)
        owned = None if found is None else _blocking_parts(p.scenario.board, found)
        # the pieces left out were terrain: the rules without a vector form did not change
        assert found is not None and owned is not None
        parts = [part for _, part in _in_reach(owned, p.a, px, py, p.rt)]
        yield Unsure(p, found, parts, idx, px, py)


def sight_finish(u: Unsure) -> tuple[BoolArray, BoolArray]:
    """The costly proofs (steps 4-6) at every position of ``u``: (visible, hidden), one of
    them true at each (each position decided by itself: the same answer whatever other
    positions are asked with it)."""
    c, rs, rt, px, py = u.p.a, u.p.a.r, u.p.rt, u.px, u.py
    unsure = np.ones(len(px), dtype=bool)
    visible, blocked = _extremal(c, rs, px, py, rt, unsure, u.parts)
    unsure &= ~(visible | blocked)
    if unsure.any():
        board = u.p.scenario.board
        cut = _separated(c, px, py, rt, unsure, _eroded_wall(board, u.found, u.parts))
        blocked |= cut
        unsure &= ~cut
    if unsure.any():
        solids = _with_bounds(u.found)
        prep = prepared_for(u.p.scenario.derived)  # the pieces' edges, as the ruling has them
        for i in np.flatnonzero(unsure).tolist():
            b = Disc(float(px[i]), float(py[i]), rt)
            if find_clear_segment(c, b, _near(solids, c, b), prepared=prep) is not None:
                visible[i] = True
            else:
                blocked[i] = True
    return visible, blocked


def sight_layer(
    p: SightPositions, fan: Fan, px: Array, py: Array, need: BoolArray
) -> tuple[BoolArray, BoolArray] | None:
    """``ranged.los`` from ``p``'s shooter to a target of radius ``p.rt`` at each position of
    ``need``: (visible, hidden), exact at every position (:func:`sight_start`, then
    :func:`sight_finish` where it left positions); ``None`` when some blocker rule has no
    vector form for this shot (the exact path decides every cell)."""
    first = sight_start(p, fan, px, py, need)
    if first is None:
        return None
    visible, blocked, rest = first
    if rest is not None:
        seen, cut = sight_finish(rest)
        visible[rest.idx[seen]] = True
        blocked[rest.idx[cut]] = True
    return visible, blocked
