"""Line of Cover and cover modifiers (``cover.*``; kinds from ``terrain.kinds``).

The Line of Cover (LoC) joins the centres of the attacker's and the target's bases. Each object
it passes through gives -2 to the attacker's skill value, and any cover raises the target's
armor once.

Boundary cases
--------------
* ``cover.line``: an object counts when the LoC enters *and* exits it. A graze (touching a
  corner, running along an edge) is no crossing. The piece the target stands on (the LoC's end
  lies inside it) is entered but not exited: no cover (the desk of RoP example 3). Touching
  solid pieces judge each piece on its own (two abutting crates crossed: -4; a crate that
  does not touch the shooter counts even when it abuts one that does); they act as one object
  only for a line running along their seam (each piece alone merely grazed). Touching or
  overlapping area pieces of one kind form one area.
* ``cover.area``: area terrain (``area``, ``dense-area``) only has to be entered. A target whose
  base reaches into a wood while the LoC stays outside gets nothing.
* ``cover.shooter-contact``: any piece (terrain or model) whose gap to the shooter's base is at
  most the contact tolerance is ignored.
* ``cover.models``: Normal and Large models not on the shooter's side give cover when the LoC
  fully crosses their base (a tangent does not). ``options.cover_by: faction`` compares
  factions instead of sides (the German reading; named in the reasons when used).
* ``cover.huge``: a Huge model the LoC crosses gives cover to a target whose base diameter is
  smaller than its own (an 80 mm model covers a 60 mm one; equal bases: no cover), whatever
  its side, unless the target is engaged with it. A terrain or point target gets none.
* ``terrain.kinds``: a piece's Huge variant decides its cover only when the target is Huge;
  a smaller target shot at by a Huge model keeps the cover of the piece's normal kind.
* ``cover.armor``: ``core`` +1 armor once however many objects; ``vts`` one Armor Boost.
* Elevation: when the target is Elevated, Significant Edges within Orange of it that the LoC
  crosses count as cover (``elevation.edge-cover``); when the attacker is Elevated, only cover
  within Orange of the target counts (``elevation.shooter-cover``).
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from .board import Disc, smaller_base
from .constants import LENGTH_EPSILON_MM
from .elevation import covering_edges, edge_crossed
from .engagement import engagements
from .geometry import Passage, disc_passage, passage, prepared_for
from .pieces import ModelRef, PieceRef, TerrainRef
from .rulesets import ruleset
from .rulings import ArmorInfo, CoverEntry, Crossing, IgnoredEntry, Reason, Step
from .shot import Shot
from .terrain import AREA_KINDS, merged

COVER_MODIFIER = -2
"""Skill modifier for each object the Line of Cover passes through (``cover.line``)."""


@dataclass(frozen=True, slots=True)
class CoverResult:
    cover: tuple[CoverEntry, ...]
    ignored: tuple[IgnoredEntry, ...]
    crossings: tuple[Crossing, ...]
    armor: ArmorInfo
    reasons: tuple[Reason, ...]

    @property
    def modifier(self) -> int:
        return sum(c.modifier for c in self.cover)

    def step(self) -> Step:
        """The common step contract: each cover entry's modifier by clause, the armor; every
        reason presents cover as applying, so all are terms (told only for an allowed attack)."""
        mods = tuple((c.clause, c.modifier) for c in self.cover)
        return Step(modifiers=mods, armor=self.armor, terms=self.reasons)


def armor_for_cover(rules: str, covered: bool) -> tuple[ArmorInfo, Reason | None]:
    """``cover.armor``: +1 armor once (``core``) or one Armor Boost (``vts``)."""
    if not covered:
        return ArmorInfo(), None
    rs = ruleset(rules)
    return rs.armor_step, Reason("cover.armor", rs.name, {})


def _engaged(shot: Shot, a: str, b: str) -> bool:
    return b in engagements(shot.scenario).get(a, ())


def line_of_cover(shot: Shot, rules: str) -> CoverResult:
    """The cover a shot meets along its Line of Cover (``cover.line`` and friends)."""
    scenario = shot.scenario
    board = scenario.board
    p, q = shot.loc
    loc = LineString([p, q])
    shooter = Point(shot.a.x, shot.a.y)
    # exactly the contact tolerance is contact, whatever rounding a move of the board brings
    tol = board.contact_tolerance + LENGTH_EPSILON_MM
    ctx = shot.context
    target_disc = shot.b
    target_geom = shot.b_polygon if shot.b_polygon is not None else None

    def near_target(piece: BaseGeometry | Disc) -> bool:
        """elevation.shooter-cover: only cover within Orange of the target counts."""
        if ctx.cover_within is None:
            return True
        if isinstance(piece, Disc):
            if target_disc is not None:
                d = piece.gap(target_disc)
            else:
                assert target_geom is not None
                d = target_geom.distance(Point(piece.x, piece.y)) - piece.r
        elif target_disc is not None:
            d = piece.distance(Point(target_disc.x, target_disc.y)) - target_disc.r
        else:
            assert target_geom is not None
            d = piece.distance(target_geom)
        return bool(d <= ctx.cover_within)

    cover: list[CoverEntry] = []
    ignored: list[IgnoredEntry] = []
    crossings: list[Crossing] = []
    reasons: list[Reason] = []

    def give(ref: PieceRef, clause: str, key: str, **values: object) -> None:
        cover.append(CoverEntry(ref, clause, COVER_MODIFIER))
        reasons.append(
            Reason(clause, key, {"source": ref.name, "modifier": COVER_MODIFIER, **values})
        )

    def ignore(ref: PieceRef, clause: str, key: str, **values: object) -> None:
        ignored.append(IgnoredEntry(ref, clause))
        reasons.append(Reason(clause, key, {"source": ref.name, **values}))

    # --- terrain ------------------------------------------------------------------------
    def judge(label: TerrainRef, geom: BaseGeometry, pas: Passage, kind: str) -> None:
        assert pas.how != "none"
        crossings.append(Crossing(label, pas.how, pas.points))
        area = kind in AREA_KINDS
        counts = pas.how == "crossed" or (area and pas.how in ("entered", "inside", "exited"))
        if pas.how == "grazed":
            ignore(label, "cover.line", "grazed", kind=kind)
        elif geom.distance(shooter) - shot.a.r <= tol:
            ignore(label, "cover.shooter-contact", "", kind=kind)
        elif not counts:
            ignore(label, "cover.line", "entered-only", kind=kind)
        elif not near_target(geom):
            ignore(label, "elevation.shooter-cover", "ignored", kind=kind)
        elif area:
            give(label, "cover.area", "", kind=kind)
        else:
            give(label, "cover.line", "crossed", kind=kind)

    prep = prepared_for(board.derived)
    for solid in merged(board, shot.cover_kinds, los=False).near(loc):
        if not solid.geometry.intersects(loc):
            continue
        if len(solid.ids) > 1 and solid.kind not in AREA_KINDS:
            # Abutting solid pieces are judged piece by piece; they act as one only for a line
            # running along their seam (every piece alone is merely grazed, the union is not).
            pieces = [(tid, board.terrain[tid].polygon) for tid in solid.ids]
            own = [(tid, g, passage(p, q, g, prepared=prep)) for tid, g in pieces]
            if any(ps.how not in ("none", "grazed") for _, _, ps in own):
                for tid, g, ps in own:
                    if ps.how != "none":
                        judge(TerrainRef((tid,)), g, ps, solid.kind)
                continue
        pas = passage(p, q, solid.geometry, prepared=prep)
        if pas.how != "none":
            judge(solid.ref, solid.geometry, pas, solid.kind)

    # --- models -------------------------------------------------------------------------
    attacker = scenario.model(shot.attacker)
    target_diameter = 2 * board.models[shot.target].disc.r if shot.target_type == "model" else None
    by = scenario.options.cover_by
    x0, x1 = min(p[0], q[0]) - tol, max(p[0], q[0]) + tol
    y0, y1 = min(p[1], q[1]) - tol, max(p[1], q[1]) + tol
    for m in scenario.models:
        if m.id in (shot.attacker, shot.target):
            continue
        mg = board.models[m.id]
        d = mg.disc
        if d.x + d.r < x0 or d.x - d.r > x1 or d.y + d.r < y0 or d.y - d.r > y1:
            continue  # cannot reach the Line of Cover
        pas = disc_passage(p, q, d)
        ref = ModelRef(m.id)
        if pas.how == "none":
            continue
        crossings.append(Crossing(ref, pas.how, pas.points))
        if pas.how != "crossed":
            ignore(ref, "cover.models", "tangent")
            continue
        if mg.disc.gap(shot.a) <= tol:
            ignore(ref, "cover.shooter-contact", "", kind="model")
            continue
        if not near_target(mg.disc):
            ignore(ref, "elevation.shooter-cover", "ignored", kind="model")
            continue
        if mg.size == "huge":
            if target_diameter is None:
                ignore(ref, "cover.huge", "no-base", target=shot.target)
            elif not smaller_base(target_diameter, 2 * d.r):
                ignore(
                    ref,
                    "cover.huge",
                    "not-smaller",
                    target=shot.target,
                    diameter=round(2 * d.r, 2),
                    target_diameter=round(target_diameter, 2),
                )
            elif _engaged(shot, shot.target, m.id):
                ignore(ref, "cover.huge", "engaged", target=shot.target)
            else:
                give(ref, "cover.huge", "")
            continue
        relation = scenario.relation(attacker, m, by=by)
        if relation == "friendly":
            ignore(ref, "cover.models", "friendly", by=by)
        elif by == "faction" and scenario.relation(attacker, m) == "friendly":
            give(ref, "cover.models", "other-faction", by=by)
        else:
            give(ref, "cover.models", relation, by=by)

    # --- Significant Edges (elevation.edge-cover) --------------------------------------
    for edge in covering_edges(board, ctx.cover_edges, p, q):
        hit = edge_crossed(board, edge, p, q)
        crossings.append(Crossing(edge.ref, "edge", () if hit is None else (hit,)))
        give(edge.ref, "elevation.edge-cover", "crossed", terrain=edge.terrain, side=edge.side)

    armor, armor_reason = armor_for_cover(rules, bool(cover))
    if armor_reason is not None:
        reasons.append(armor_reason)
    elif not cover:
        reasons.append(Reason("cover.line", "none", {}))
    if by == "faction" and any(r.clause == "cover.models" for r in reasons):
        reasons.append(Reason("cover.models", "by-faction", {"option": "cover_by"}))
    return CoverResult(tuple(cover), tuple(ignored), tuple(crossings), armor, tuple(reasons))
