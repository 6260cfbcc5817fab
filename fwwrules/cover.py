"""Line of Cover and cover modifiers (``cover.*``; kinds from ``terrain.kinds``): the cover
rules as one ordered table, for one ruling and for the threat map's thousands of cells.

The Line of Cover (LoC) joins the centres of the attacker's and the target's bases. Each object
it passes through gives -2 to the attacker's skill value, and any cover raises the target's
armor once.

The rules are :data:`COVER_RULES`: named predicates, each citing its clause, walked in order
for every piece the LoC meets (:mod:`fwwrules.crossings` finds them); the first that decides
gives the piece's verdict (cover with a modifier, or no cover and why), as python-chess's
``outcome()`` walks its checks. Each rule has a scalar form (one shot: :func:`line_of_cover`
composes them into the ruling's cover) and, where written, a vector form (one shooter, a
target at many positions: :func:`cover_layer`, the threat map's fast path). A rule without a
vector form sends the positions it would judge to the exact path (the ruling itself), so a new
rule is right in the threat map at once and fast once its vector form is written. Adding a
rule touches this table, the catalogue's words for its clause, a test and a notebook cell
(docs/ARCHITECTURE.md, "How to add a rule").

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

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from shapely.geometry import Point

from .board import Disc, smaller_base
from .context import AttackContext
from .crossings import (
    HOW,
    Met,
    VMet,
    counts,
    counts_v,
    edges_met,
    models_met,
    models_met_v,
    terrain_met,
    terrain_met_v,
)
from .data import Scenario
from .engagement import engagements
from .geometry import prepared_for
from .kernels import BoolArray, Fan
from .pieces import EdgeRef, Model, ModelRef, PieceRef
from .rulesets import Ruleset, ruleset
from .rulings import ArmorInfo, Covered, CoverEntry, Crossing, Facts, IgnoredEntry, Reason, Step
from .shot import Shot
from .terrain import AREA_KINDS
from .thresholds import contact_reach, within_ruler

COVER_MODIFIER = -2
"""Skill modifier for each object the Line of Cover passes through (``cover.line``)."""

PieceClass = Literal["terrain", "model", "edge"]


def piece_class(ref: PieceRef) -> PieceClass:
    """Which rules look at a piece: terrain pieces, models' bases or Significant Edges."""
    if isinstance(ref, ModelRef):
        return "model"
    return "edge" if isinstance(ref, EdgeRef) else "terrain"


# --- verdicts and the two forms of a rule -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a rule decides for one piece: cover with a skill ``modifier``, or (``None``) no
    cover; the clause and message key of the reason, and the reason's values."""

    clause: str
    key: str = ""
    modifier: int | None = None
    values: Mapping[str, object] = field(default_factory=dict)


def gives(clause: str, key: str = "", modifier: int = COVER_MODIFIER, **values: object) -> Verdict:
    """The piece gives cover (``modifier``, -2 unless said otherwise)."""
    return Verdict(clause, key, modifier, values)


def ignores(clause: str, key: str = "", **values: object) -> Verdict:
    """The piece gives no cover, by ``clause``."""
    return Verdict(clause, key, None, values)


@dataclass(frozen=True, slots=True, eq=False)
class Decided:
    """A rule's vector form for one piece: at the positions where the piece is met (the
    :class:`~fwwrules.crossings.VMet`'s ``idx``, in that order), where it gives cover
    (``modifier`` each), where it decides there is none, and where it cannot tell (the exact
    path decides those cells). ``True``/``False`` stand for every position or none."""

    gives: BoolArray | bool = False
    ignores: BoolArray | bool = False
    modifier: int = COVER_MODIFIER
    unsure: BoolArray | bool = False


class CoverShot:
    """One shot as the cover rules see it (built once per Line of Cover)."""

    __slots__ = (
        "a",
        "attacker",
        "by",
        "cover_within",
        "ruler_tol",
        "scenario",
        "shot",
        "target",
        "tol",
    )

    def __init__(self, shot: Shot) -> None:
        self.shot = shot
        self.scenario = shot.scenario
        self.a = shot.a
        # exactly the contact tolerance is contact, whatever rounding a move of the board brings
        self.tol = contact_reach(shot.scenario.board.contact_tolerance)
        self.ruler_tol = shot.scenario.ruler_tolerance_mm
        self.attacker = shot.attacker
        self.target = shot.target
        self.by = shot.scenario.options.cover_by
        self.cover_within = shot.context.cover_within

    @property
    def target_diameter(self) -> float | None:
        """The target's base diameter (mm); ``None`` for a terrain or point target."""
        if self.shot.target_type != "model":
            return None
        assert self.shot.b is not None
        return 2 * self.shot.b.r

    def near_target(self, met: Met) -> bool:
        """``elevation.shooter-cover``: only cover within Orange of the target counts when the
        attacker is Elevated (edge to edge; always true otherwise)."""
        if self.cover_within is None:
            return True
        b, poly = self.shot.b, self.shot.b_polygon
        if met.disc is not None:
            d = met.disc
            gap = d.gap(b) if b is not None else poly.distance(Point(d.x, d.y)) - d.r  # type: ignore[union-attr]
        else:
            assert met.geometry is not None
            gap = (
                met.geometry.distance(Point(b.x, b.y)) - b.r
                if b is not None
                else met.geometry.distance(poly)
            )
        return bool(within_ruler(gap, self.cover_within, self.ruler_tol))

    def target_engaged_with(self, model_id: str) -> bool:
        return model_id in engagements(self.scenario).get(self.shot.target_id, ())


@dataclass(frozen=True, slots=True, eq=False)
class CoverPositions:
    """One shooter and a target base at many positions, as the cover rules' vector forms see
    them: the lines from the shooter's centre (``fan``) to the positions of ``among``.

    ``target_engaged_with(model_id)`` is, per position, whether the target would be engaged
    with that model; ``cover_within`` is the shot's ``elevation.shooter-cover`` distance
    (``None`` for a flat shot, the only kind the threat map's fast path takes).
    """

    scenario: Scenario
    attacker: Model
    a: Disc
    rt: float
    fan: Fan
    among: BoolArray
    target_engaged_with: Callable[[str], BoolArray]
    cover_within: float | None = None

    @property
    def tol(self) -> float:
        return contact_reach(self.scenario.board.contact_tolerance)


@dataclass(frozen=True, slots=True)
class CoverRule:
    """One cover rule: its name, the clause it applies, which pieces it looks at, its scalar
    form (one shot: a verdict, or ``None`` to leave the piece to the next rule) and its
    vector form (``None``: not written yet; the cells it would judge take the exact path)."""

    name: str
    clause: str
    pieces: frozenset[PieceClass]
    decide: Callable[[CoverShot, Met], Verdict | None]
    vector: Callable[[CoverPositions, VMet], Decided] | None = None


TERRAIN: frozenset[PieceClass] = frozenset({"terrain"})
MODELS: frozenset[PieceClass] = frozenset({"model"})
PIECES: frozenset[PieceClass] = frozenset({"terrain", "model"})


# --- the rules, in the order a player checks them ------------------------------------------


def _grazed(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.line``: a graze (touching a corner, running along an edge) is no crossing."""
    return ignores("cover.line", "grazed", kind=m.kind) if m.how == "grazed" else None


def _grazed_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(ignores=m.how == HOW["grazed"])


def _tangent(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.models``: a base gives cover only when the LoC fully crosses it."""
    return ignores("cover.models", "tangent") if m.how != "crossed" else None


def _tangent_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(ignores=m.how != HOW["crossed"])


def touches_shooter(a: Disc, tol: float, piece: Met | VMet) -> bool:
    """Whether a piece's gap to the shooter's base ``a`` is at most ``tol`` (a terrain piece
    measured from the shooter's centre less its radius, a base edge to edge)."""
    if piece.disc is not None:
        return bool(piece.disc.gap(a) <= tol)
    assert piece.geometry is not None
    return bool(piece.geometry.distance(_centre(a.x, a.y)) - a.r <= tol)


@lru_cache(maxsize=1024)
def _centre(x: float, y: float) -> Point:
    """A base's centre as a shapely point, made once per place (a shot asks it of every piece
    its Line of Cover meets; shapely's ``Point`` costs several microseconds to make)."""
    return Point(x, y)


def _shooter_contact(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.shooter-contact``: a piece (terrain or model) the shooter's base touches is
    ignored, whatever the line does."""
    if touches_shooter(s.a, s.tol, m):
        kind = "model" if m.disc is not None else m.kind
        return ignores("cover.shooter-contact", kind=kind)
    return None


def _shooter_contact_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(ignores=touches_shooter(p.a, p.tol, m))


def _entered_only(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.line``: a piece entered but not passed through (the piece the target stands
    on) gives nothing; area terrain only has to be entered (``cover.area``)."""
    if counts(m.how, m.kind in AREA_KINDS):
        return None
    return ignores("cover.line", "entered-only", kind=m.kind)


def _entered_only_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(ignores=~counts_v(m.how, m.kind in AREA_KINDS))


def _shooter_cover(s: CoverShot, m: Met) -> Verdict | None:
    """``elevation.shooter-cover``: an Elevated attacker ignores cover farther than Orange from
    the target."""
    if s.near_target(m):
        return None
    return ignores("elevation.shooter-cover", "ignored", kind="model" if m.disc else m.kind)


def _shooter_cover_v(p: CoverPositions, m: VMet) -> Decided:
    # a flat shot: every piece counts; an Elevated attacker's shot is left to the ruling
    return Decided() if p.cover_within is None else Decided(unsure=True)


HugeCase = Literal["not-huge", "no-base", "not-smaller", "covers"]


def _huge_case(scenario: Scenario, ref: PieceRef, radius: float, target: float | None) -> HugeCase:
    """``cover.huge``, the one body of the rule for both forms: whether the model met (``ref``,
    base ``radius`` mm) is Huge, and whether the target (base diameter ``target`` mm; ``None``
    for a terrain or point target) has a smaller base than its own (then it covers, unless
    the target is engaged with it, which each form asks per target)."""
    assert isinstance(ref, ModelRef)
    if scenario.board.models[ref.id].size != "huge":
        return "not-huge"
    if target is None:
        return "no-base"
    return "covers" if smaller_base(target, 2 * radius) else "not-smaller"


def _huge(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.huge``: a Huge model covers a target whose base is smaller than its own,
    whatever its side, unless the target is engaged with it; a terrain or point target gets
    none."""
    assert m.disc is not None and isinstance(m.ref, ModelRef)
    case = _huge_case(s.scenario, m.ref, m.disc.r, s.target_diameter)
    if case == "not-huge":
        return None
    if case == "no-base":
        return ignores("cover.huge", "no-base", target=s.target)
    if case == "not-smaller":
        assert s.target_diameter is not None
        return ignores(
            "cover.huge",
            "not-smaller",
            target=s.target,
            diameter=round(2 * m.disc.r, 2),
            target_diameter=round(s.target_diameter, 2),
        )
    if s.target_engaged_with(m.ref.id):
        return ignores("cover.huge", "engaged", target=s.target)
    return gives("cover.huge")


def _huge_v(p: CoverPositions, m: VMet) -> Decided:
    assert m.disc is not None and isinstance(m.ref, ModelRef)
    case = _huge_case(p.scenario, m.ref, m.disc.r, 2 * p.rt)
    if case == "not-huge":
        return Decided()
    if case != "covers":
        return Decided(ignores=True)
    engaged = p.target_engaged_with(m.ref.id)[m.idx]
    return Decided(gives=~engaged, ignores=engaged)


def _area(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.area``: area terrain entered gives cover."""
    return gives("cover.area", kind=m.kind) if m.kind in AREA_KINDS else None


def _area_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(gives=m.kind in AREA_KINDS)


def _line(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.line``: a piece the LoC enters and exits gives cover."""
    return gives("cover.line", "crossed", kind=m.kind)


def _line_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(gives=True)


def _model_relation(scenario: Scenario, attacker: Model, ref: PieceRef) -> str:
    """``cover.models``, the one body of the rule for both forms: how the model met stands to
    the shooter, by the scenario's ``cover_by`` (``friendly`` gives no cover; ``enemy``,
    ``neutral``, or ``other-faction``: an ally of another faction read by faction, give it)."""
    assert isinstance(ref, ModelRef)
    by = scenario.options.cover_by
    other = scenario.model(ref.id)
    relation = scenario.relation(attacker, other, by=by)
    by_side = scenario.relation(attacker, other) if by == "faction" else relation
    return "other-faction" if relation != "friendly" and by_side == "friendly" else relation


def _models(s: CoverShot, m: Met) -> Verdict | None:
    """``cover.models``: Normal and Large models not on the shooter's side give cover
    (``options.cover_by: faction`` compares factions instead)."""
    relation = _model_relation(s.scenario, s.attacker, m.ref)
    if relation == "friendly":
        return ignores("cover.models", "friendly", by=s.by)
    return gives("cover.models", relation, by=s.by)


def _models_v(p: CoverPositions, m: VMet) -> Decided:
    friendly = _model_relation(p.scenario, p.attacker, m.ref) == "friendly"
    return Decided(gives=not friendly, ignores=friendly)


def _edge_cover(s: CoverShot, m: Met) -> Verdict | None:
    """``elevation.edge-cover``: a Significant Edge within Orange of an Elevated target that
    the LoC crosses gives cover (one per piece)."""
    assert isinstance(m.ref, EdgeRef)
    return gives("elevation.edge-cover", "crossed", terrain=m.ref.terrain, side=m.ref.side)


COVER_RULES: tuple[CoverRule, ...] = (
    CoverRule("grazed", "cover.line", TERRAIN, _grazed, _grazed_v),
    CoverRule("tangent", "cover.models", MODELS, _tangent, _tangent_v),
    CoverRule(
        "shooter-contact", "cover.shooter-contact", PIECES, _shooter_contact, _shooter_contact_v
    ),
    CoverRule("entered-only", "cover.line", TERRAIN, _entered_only, _entered_only_v),
    CoverRule("shooter-cover", "elevation.shooter-cover", PIECES, _shooter_cover, _shooter_cover_v),
    CoverRule("huge", "cover.huge", MODELS, _huge, _huge_v),
    CoverRule("area", "cover.area", TERRAIN, _area, _area_v),
    CoverRule("line", "cover.line", TERRAIN, _line, _line_v),
    CoverRule("models", "cover.models", MODELS, _models, _models_v),
    CoverRule("edge-cover", "elevation.edge-cover", frozenset({"edge"}), _edge_cover),
)
"""The cover rules in the order they are checked for each piece the LoC meets; the first
verdict decides. ``edge-cover`` has no vector form: the threat map's fast path takes flat
shots only, where no Significant Edge gives cover."""


def judge(s: CoverShot, met: Met) -> tuple[CoverRule, Verdict] | None:
    """The first rule of :data:`COVER_RULES` that decides the piece, and its verdict."""
    cls = piece_class(met.ref)
    for rule in COVER_RULES:
        if cls in rule.pieces:
            verdict = rule.decide(s, met)
            if verdict is not None:
                return rule, verdict
    return None


# --- one shot ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CoverResult(Covered):
    """What the Line of Cover met (:class:`~fwwrules.rulings.Covered`: the cover, what it
    ignores, the crossings), the ``armor`` the cover gives and the ``reasons``."""

    armor: ArmorInfo
    reasons: tuple[Reason, ...]

    @property
    def modifier(self) -> int:
        return sum(c.modifier for c in self.cover)

    def step(self) -> Step:
        """The common step contract: each cover entry's modifier by clause, the armor; every
        reason presents cover as applying, so all are terms (told only for an allowed attack);
        the ruling keeps what the Line of Cover met (``facts.covered``)."""
        mods = tuple((c.clause, c.modifier) for c in self.cover)
        return Step(modifiers=mods, armor=self.armor, terms=self.reasons, facts=Facts(covered=self))


def cover_step(ctx: AttackContext) -> Step:
    """``cover.*`` for one attack, as the ruling folds it: :func:`line_of_cover` of the
    context's shot under its ruleset."""
    return line_of_cover(ctx.shot, ctx.rules).step()


def armor_for_cover(rules: str | Ruleset, covered: bool) -> tuple[ArmorInfo, Reason | None]:
    """``cover.armor``: +1 armor once (``core``) or one Armor Boost (``vts``)."""
    if not covered:
        return ArmorInfo(), None
    rs = ruleset(rules)
    return rs.armor_step, Reason("cover.armor", rs.name, {})


def met_pieces(shot: Shot) -> list[Met]:
    """Every piece the shot's Line of Cover meets: terrain (with the shot's kinds for cover),
    models other than attacker and target, and the Significant Edges that may give cover."""
    board = shot.scenario.board
    p, q = shot.loc
    reach = contact_reach(board.contact_tolerance)
    return [
        *terrain_met(board, shot.cover_kinds, p, q, prepared_for(board.derived)),
        *models_met(board, (shot.attacker_id, shot.target_id), p, q, reach),
        *edges_met(board, shot.context.cover_edges, p, q),
    ]


def line_of_cover(shot: Shot, rules: str | Ruleset) -> CoverResult:
    """The cover a shot meets along its Line of Cover: each piece it meets judged by
    :data:`COVER_RULES` (``cover.*``, ``elevation.edge-cover``, ``elevation.shooter-cover``),
    then the armor (``cover.armor``)."""
    s = CoverShot(shot)
    cover: list[CoverEntry] = []
    ignored: list[IgnoredEntry] = []
    crossings: list[Crossing] = []
    reasons: list[Reason] = []
    for met in met_pieces(shot):
        crossings.append(Crossing(met.ref, met.how, met.points))
        found = judge(s, met)
        if found is None:
            continue
        _, v = found
        if v.modifier is None:
            ignored.append(IgnoredEntry(met.ref, v.clause))
            reasons.append(Reason(v.clause, v.key, {"source": met.ref, **v.values}))
        else:
            cover.append(CoverEntry(met.ref, v.clause, v.modifier))
            params = {"source": met.ref, "modifier": v.modifier, **v.values}
            reasons.append(Reason(v.clause, v.key, params))
    armor, armor_reason = armor_for_cover(rules, bool(cover))
    if armor_reason is not None:
        reasons.append(armor_reason)
    elif not cover:
        reasons.append(Reason("cover.line", "none", {}))
    if s.by == "faction" and any(r.clause == "cover.models" for r in reasons):
        reasons.append(Reason("cover.models", "by-faction", {"option": "cover_by"}))
    return CoverResult(tuple(cover), tuple(ignored), tuple(crossings), armor, tuple(reasons))


# --- a target at many positions (the threat map) -------------------------------------------

IntArray = NDArray[np.int32]


@dataclass(frozen=True, slots=True, eq=False)
class CoverLayer:
    """The cover rules over many positions: the skill modifier of each clause, where any
    cover applies, and the cells no vector form could decide (for the exact path)."""

    modifiers: Mapping[str, IntArray]
    covered: BoolArray
    unsure: BoolArray


def cover_layer(p: CoverPositions, kinds: Mapping[str, str], skip: Collection[str]) -> CoverLayer:
    """:func:`line_of_cover` for the lines from one shooter to a target at each position of
    ``p.among`` (a flat shot: no Significant Edge gives cover), every piece the lines meet
    (:func:`fwwrules.crossings.terrain_met_v`, ``models_met_v``; ``skip``: the shooter)
    judged by the vector forms of :data:`COVER_RULES` in order."""
    board = p.scenario.board
    n = len(p.fan.px)
    mods: dict[str, IntArray] = {}
    covered = np.zeros(n, dtype=bool)
    unsure = np.zeros(n, dtype=bool)
    pieces = [
        *terrain_met_v(board, kinds, p.fan, p.among),
        *models_met_v(board, skip, p.fan, p.among),
    ]
    for vm in pieces:
        open_ = p.among[vm.idx]
        cls = piece_class(vm.ref)
        for rule in COVER_RULES:
            if cls not in rule.pieces or not open_.any():
                continue
            if rule.vector is None:
                break  # left open: the exact path judges these cells
            d = rule.vector(p, vm)
            g = open_ & d.gives
            no = open_ & d.ignores & ~g
            u = open_ & d.unsure & ~(g | no)
            if g.any():
                mods.setdefault(rule.clause, np.zeros(n, dtype=np.int32))[vm.idx[g]] += d.modifier
                covered[vm.idx[g]] = True
            unsure[vm.idx[u]] = True
            open_ &= ~(g | no | u)
        unsure[vm.idx[open_]] = True  # no rule decided these (or one without a vector form)
    return CoverLayer(mods, covered, unsure)
