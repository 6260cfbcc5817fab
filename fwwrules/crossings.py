"""What the Line of Cover meets: each piece and how (``cover.line``), for one shot and for a
target at many positions at once.

The cover rules (:mod:`fwwrules.cover`) judge each piece the Line of Cover (LoC) meets; this
module finds those pieces, in one form per use:

* scalar (:func:`terrain_met`, :func:`models_met`, :func:`edges_met`): one shot, exactly, as
  :class:`Met` records in the order the ruling lists them (terrain, then models, then
  Significant Edges);
* vector (:func:`terrain_met_v`, :func:`models_met_v`): one shooter's centre and a target
  centre at each of many positions (a :class:`~fwwrules.kernels.Fan`), as :class:`VMet`
  records holding a code per position (:data:`HOW`). Positions the vectorised tests cannot
  decide with :data:`~fwwrules.constants.THREAT_SURE_MARGIN_MM` to spare are decided by the
  scalar :func:`~fwwrules.geometry.passage` itself, so a vector record is exact.

Boundary cases
--------------
* Touching solid pieces of one kind (``blocking``, ``cover``) are met piece by piece when the
  line passes into any of them, as one object (the merged solid) only when every piece alone
  is merely grazed (a line along their seam); touching area pieces of one kind are one area.
* Models: the attacker and the target are never met; a base is met when the LoC comes within
  the boundary tolerance of its circle.
* Significant Edges: those given (the shot context's ``cover_edges``) that the LoC crosses,
  one per piece (:func:`fwwrules.elevation.covering_edges`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from .board import Board, Disc
from .constants import THREAT_SURE_MARGIN_MM
from .convex import Part, is_convex, parts_of
from .elevation import SignificantEdge, covering_edges, edge_crossed
from .geometry import Prepared, disc_passage, passage
from .kernels import BoolArray, Fan, IndexArray, segment_point_distance
from .pieces import CrossingHow, ModelRef, PassageHow, PieceRef, TerrainRef
from .terrain import AREA_KINDS, merged

Point2 = tuple[float, float]
HowArray = NDArray[np.int8]

HOW: Mapping[PassageHow, int] = {
    "none": 0,
    "grazed": 1,
    "crossed": 2,
    "entered": 3,
    "inside": 4,
    "exited": 5,
}
"""The vector code of each passage (:class:`~fwwrules.geometry.Passage`)."""
INTO = 6
"""Vector code: the line passes into the piece (crossed, entered, inside or exited)."""
ENDS_IN = 7
"""Vector code: the line ends inside the piece (entered or inside), never passing through."""

_DELTA = THREAT_SURE_MARGIN_MM


@dataclass(frozen=True, slots=True)
class Met:
    """One piece the Line of Cover meets in one shot, and how (never ``none``).

    ``kind`` is a terrain piece's kind for this shot, ``"model"`` for a base or ``"edge"`` for
    a Significant Edge; ``geometry`` (terrain, mm), ``disc`` (a base) or ``edge`` is the piece.
    """

    ref: PieceRef
    kind: str
    how: CrossingHow
    points: tuple[Point2, ...] = ()
    geometry: BaseGeometry | None = None
    disc: Disc | None = None
    edge: SignificantEdge | None = None


@dataclass(frozen=True, slots=True, eq=False)
class VMet:
    """One piece the Line of Cover meets, for a target at many positions: the positions
    ``idx`` where it is met and, for each, how (:data:`HOW`, :data:`INTO`, :data:`ENDS_IN`)."""

    ref: PieceRef
    kind: str
    idx: IndexArray
    how: HowArray
    geometry: BaseGeometry | None = None
    disc: Disc | None = None

    @classmethod
    def of(
        cls,
        ref: PieceRef,
        kind: str,
        how: HowArray,
        geometry: BaseGeometry | None = None,
        disc: Disc | None = None,
    ) -> VMet | None:
        """The record of a piece from a code per position (0: not met); ``None`` when the
        line meets it nowhere."""
        idx = np.flatnonzero(how)
        return cls(ref, kind, idx, how[idx], geometry, disc) if len(idx) else None


def counts(how: str, area: bool) -> bool:
    """``cover.line`` / ``cover.area``: the line passes through the piece (entered and
    exited), or, for area terrain, enters it at all."""
    return how == "crossed" or (area and how in ("entered", "inside", "exited"))


def counts_v(how: HowArray, area: bool) -> BoolArray:
    """:func:`counts` for vector codes."""
    if area:
        return np.asarray(how >= HOW["crossed"])
    return np.asarray(how == HOW["crossed"])


# --- scalar ------------------------------------------------------------------------------


def terrain_met(
    board: Board, kinds: Mapping[str, str], p: Point2, q: Point2, prepared: Prepared
) -> list[Met]:
    """The terrain pieces (or touching pieces as one) the LoC ``p -> q`` meets, in file order."""
    loc = shapely.linestrings([p, q])  # the LineString([p, q]), without its Python-level checks
    out: list[Met] = []
    for solid in merged(board, kinds, los=False).near(loc):
        if not solid.geometry.intersects(loc):
            continue
        if len(solid.ids) > 1 and solid.kind not in AREA_KINDS:
            pieces = [(tid, board.terrain[tid].polygon) for tid in solid.ids]
            own = [(tid, g, passage(p, q, g, prepared=prepared)) for tid, g in pieces]
            if any(ps.how not in ("none", "grazed") for _, _, ps in own):
                for tid, g, ps in own:
                    if ps.how != "none":
                        out.append(Met(TerrainRef((tid,)), solid.kind, ps.how, ps.points, g))
                continue
        pas = passage(p, q, solid.geometry, prepared=prepared)
        if pas.how != "none":
            out.append(Met(solid.ref, solid.kind, pas.how, pas.points, solid.geometry))
    return out


def models_met(
    board: Board, skip: Collection[str], p: Point2, q: Point2, reach: float
) -> list[Met]:
    """The bases (other than ``skip``) the LoC ``p -> q`` meets, in file order; ``reach`` is
    how far beyond the segment's box a base may lie and still be looked at."""
    x0, x1 = min(p[0], q[0]) - reach, max(p[0], q[0]) + reach
    y0, y1 = min(p[1], q[1]) - reach, max(p[1], q[1]) + reach
    out: list[Met] = []
    for mid, mg in board.models.items():
        if mid in skip:
            continue
        d = mg.disc
        if d.x + d.r < x0 or d.x - d.r > x1 or d.y + d.r < y0 or d.y - d.r > y1:
            continue  # cannot reach the Line of Cover
        pas = disc_passage(p, q, d)
        if pas.how != "none":
            out.append(Met(ModelRef(mid), "model", pas.how, pas.points, disc=d))
    return out


def edges_met(board: Board, edges: tuple[SignificantEdge, ...], p: Point2, q: Point2) -> list[Met]:
    """The Significant Edges among ``edges`` the LoC crosses, one per piece
    (``elevation.edge-cover``), with where it crosses each."""
    out: list[Met] = []
    for edge in covering_edges(board, edges, p, q):
        hit = edge_crossed(board, edge, p, q)
        out.append(Met(edge.ref, "edge", "edge", () if hit is None else (hit,), edge=edge))
    return out


# --- vector ------------------------------------------------------------------------------


def _hits(fan: Fan, parts: list[Part], among: BoolArray, eroded: bool) -> BoolArray:
    """Positions (of ``among``) whose centre line meets one of the parts, grown or eroded."""
    hit = np.zeros(len(fan.px), dtype=bool)
    for part in parts:
        v = part.eroded if eroded else part.grown
        if v is not None:
            hit |= fan.hits(v, among)
    return hit


def _exact(fan: Fan, how: HowArray, which: BoolArray, geom: BaseGeometry) -> None:
    """Fill ``how`` at ``which`` with the scalar passage of each position's line (the
    piece's edges prepared once for them all)."""
    centre = (fan.cx, fan.cy)
    prepared = Prepared()
    for i in np.flatnonzero(which).tolist():
        end = (float(fan.px[i]), float(fan.py[i]))
        how[i] = HOW[passage(centre, end, geom, prepared=prepared).how]


def _piece_how(
    fan: Fan,
    poly: BaseGeometry,
    parts: list[Part],
    hit_g: BoolArray,
    *,
    area: bool,
    hit_e: BoolArray | None = None,
) -> HowArray:
    """How each line (of ``hit_g``: within the margin of the piece) meets one piece: sure
    where the grown and eroded parts agree, the scalar passage elsewhere. ``hit_e``: the
    lines meeting an eroded part, when known (else found here)."""
    how = np.zeros(len(fan.px), dtype=np.int8)
    if not hit_g.any():
        return how
    hit_e = _hits(fan, parts, hit_g, eroded=True) if hit_e is None else hit_e & hit_g
    unsure = np.zeros(len(fan.px), dtype=bool)
    if area:
        how[hit_e] = INTO
        unsure = hit_g & ~hit_e
    else:
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
        ends_in = p_in & isinstance(poly, Polygon) & is_convex(poly) & ~crossed
        how[idx[crossed]] = HOW["crossed"]
        how[idx[ends_in]] = ENDS_IN
        unsure[idx[~(crossed | ends_in)]] = True
    _exact(fan, how, unsure, poly)
    return how


def terrain_met_v(board: Board, kinds: Mapping[str, str], fan: Fan, among: BoolArray) -> list[VMet]:
    """:func:`terrain_met` for the line from ``fan``'s centre to each position of ``among``."""
    out: list[VMet] = []
    for solid in merged(board, kinds, los=False).solids:
        area = solid.kind in AREA_KINDS
        if area or len(solid.ids) == 1:
            parts = parts_of(board, solid.geometry)
            hit_g = _hits(fan, parts, among, eroded=False)
            how = _piece_how(fan, solid.geometry, parts, hit_g, area=area)
            found = VMet.of(solid.ref, solid.kind, how, solid.geometry)
            if found is not None:
                out.append(found)
            continue
        out.extend(_touching_met_v(board, solid.ids, solid.geometry, solid.kind, fan, among))
    return out


def _touching_met_v(
    board: Board,
    ids: tuple[str, ...],
    union: BaseGeometry,
    kind: str,
    fan: Fan,
    among: BoolArray,
) -> list[VMet]:
    """Touching solid pieces: piece by piece where the line surely passes into one of them;
    elsewhere near them, piece by piece or as one object, as :func:`terrain_met` decides."""
    n = len(fan.px)
    members = []
    any_g = np.zeros(n, dtype=bool)
    any_e = np.zeros(n, dtype=bool)
    for tid in ids:
        poly = board.terrain[tid].polygon
        parts = parts_of(board, poly)
        hit_g = _hits(fan, parts, among, eroded=False)
        hit_e = _hits(fan, parts, hit_g, eroded=True)
        any_e |= hit_e
        any_g |= hit_g
        members.append((tid, poly, parts, hit_g, hit_e))
    if not any_g.any():
        return []
    hows = [
        _piece_how(fan, poly, parts, hit_g & any_e, area=False, hit_e=hit_e)
        for _, poly, parts, hit_g, hit_e in members
    ]
    whole = np.zeros(n, dtype=np.int8)
    centre = (fan.cx, fan.cy)
    for i in np.flatnonzero(any_g & ~any_e).tolist():
        q = (float(fan.px[i]), float(fan.py[i]))
        own = [passage(centre, q, poly).how for _, poly, _, _, _ in members]
        if any(how not in ("none", "grazed") for how in own):
            for k, how in enumerate(own):
                hows[k][i] = HOW[how]
        else:
            whole[i] = HOW[passage(centre, q, union).how]
    found = [
        VMet.of(TerrainRef((tid,)), kind, how, poly)
        for (tid, poly, _, _, _), how in zip(members, hows, strict=True)
    ]
    found.append(VMet.of(TerrainRef(ids), kind, whole, union))
    return [vm for vm in found if vm is not None]


def models_met_v(board: Board, skip: Collection[str], fan: Fan, among: BoolArray) -> list[VMet]:
    """:func:`models_met` for the line from ``fan``'s centre to each position of ``among``:
    a base is crossed where the line passes more than the margin inside its circle, not met
    where it stays more than the margin outside, and decided exactly in between."""
    out: list[VMet] = []
    centre = (fan.cx, fan.cy)
    for mid, mg in board.models.items():
        if mid in skip:
            continue
        d = mg.disc
        idx = fan.near_disc(d.x, d.y, d.r + 2 * _DELTA)
        idx = idx[among[idx]]
        dist = segment_point_distance(fan.cx, fan.cy, fan.px[idx], fan.py[idx], d.x, d.y)
        crossed = dist < d.r - _DELTA
        near = dist <= d.r + _DELTA
        how = np.zeros(len(fan.px), dtype=np.int8)
        how[idx[crossed]] = HOW["crossed"]
        for i in idx[near & ~crossed].tolist():
            how[i] = HOW[disc_passage(centre, (float(fan.px[i]), float(fan.py[i])), d).how]
        found = VMet.of(ModelRef(mid), "model", how, disc=d)
        if found is not None:
            out.append(found)
    return out
