"""Terrain kinds (``terrain.kinds``) and the merged solids the rules look at.

Each piece is declared ``blocking``, ``cover``, ``area``, ``dense-area`` or ``scenery``. A piece
may declare another kind for shots involving a Huge model (``huge:``) and for shots involving an
Elevated model (``elevated:``, clause ``elevation.terrain-variant``).

Boundary cases
--------------
* Precedence: the Elevated variant wins over the Huge variant when both apply.
* Pieces of one kind that touch or overlap are merged into one solid here; for cover the Line
  of Cover judges solid pieces (``blocking``, ``cover``) piece by piece and treats the merged
  solid as one object only for a line along the seam (see :mod:`fwwrules.cover`); touching
  area pieces of one kind stay one area (docs/rules.md, "Conventions"). For line of sight
  every blocker is merged with every blocker it touches, whatever its kind, because a line
  along the seam between a wall and a dense wood passes through neither gap.
* The Huge variant is asked for with ``huge=True``: shots use it for line of sight on every
  line to or from a Huge model, and for cover only when the target is Huge.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

import shapely
from shapely.geometry.base import BaseGeometry
from shapely.strtree import STRtree

from .board import Board, TerrainGeometry
from .cache import Key
from .geometry import merge_touching
from .pieces import TerrainRef

BLOCKS_LOS = frozenset({"blocking", "dense-area"})
GIVES_COVER = frozenset({"blocking", "cover", "area", "dense-area"})
AREA_KINDS = frozenset({"area", "dense-area"})


def effective_kind(piece: TerrainGeometry, *, huge: bool, elevated_kind: Mapping[str, str]) -> str:
    """``terrain.kinds``: the kind a piece has for this shot.

    ``huge`` is true when the attacker or the target is a Huge model; ``elevated_kind`` maps
    piece ids to their Elevated variant when the shot involves an Elevated model.
    """
    if piece.id in elevated_kind:
        return elevated_kind[piece.id]
    if huge and piece.huge is not None:
        return piece.huge
    return piece.kind


@dataclass(frozen=True, slots=True, eq=False)
class Solid:
    """One or more touching pieces acting as one: member ids (file order), kind, geometry."""

    ids: tuple[str, ...]
    kind: str
    geometry: BaseGeometry

    @property
    def ref(self) -> TerrainRef:
        """The reference rulings use for it (one piece, or touching pieces acting as one)."""
        return TerrainRef(self.ids)


@dataclass(frozen=True, slots=True, eq=False)
class SolidSet:
    """Solids with an STRtree over them, built once per distinct set of pieces."""

    solids: tuple[Solid, ...]
    tree: STRtree

    def near(self, geom: BaseGeometry) -> list[Solid]:
        return [self.solids[int(i)] for i in sorted(self.tree.query(geom))]


def _solid_set(solids: list[Solid]) -> SolidSet:
    for s in solids:
        shapely.prepare(s.geometry)
    return SolidSet(tuple(solids), STRtree([s.geometry for s in solids]))


def merged(board: Board, kinds: Mapping[str, str], *, los: bool) -> SolidSet:
    """The solids for a shot, given each relevant piece's effective kind.

    ``kinds`` maps piece id to kind (pieces left out take no part). With ``los=True`` only
    LoS blockers are kept and merged together; otherwise every covering kind is merged per
    kind. Memoised on the board, so a board whose shots all see the same kinds merges once.
    """
    signature = kinds.signature if isinstance(kinds, KindMap) else tuple(sorted(kinds.items()))
    key = ("los" if los else "cover", signature)
    solids_cache = board.derived.entry(SOLIDS)
    cached = solids_cache.get(key)
    if cached is not None:
        return cached
    solids: list[Solid] = []
    order = {tid: i for i, tid in enumerate(board.terrain_ids)}
    if los:
        pieces = [
            (tid, board.terrain[tid].polygon)
            for tid in board.terrain_ids
            if kinds.get(tid) in BLOCKS_LOS
        ]
        for ids, geom in merge_touching(pieces):
            solids.append(Solid(ids, "blocking", geom))
    else:
        by_kind: dict[str, list[str]] = {}
        for tid, kind in kinds.items():
            if kind in GIVES_COVER:
                by_kind.setdefault(kind, []).append(tid)
        for kind in sorted(by_kind):
            ids_sorted = sorted(by_kind[kind], key=order.__getitem__)
            pieces = [(tid, board.terrain[tid].polygon) for tid in ids_sorted]
            for ids, geom in merge_touching(pieces):
                solids.append(Solid(ids, kind, geom))
        solids.sort(key=lambda s: order[s.ids[0]])
    result = _solid_set(solids)
    solids_cache[key] = result
    return result


class KindMap(dict[str, str]):
    """Piece id -> kind for one shot, with a hashable ``signature`` of its contents and the
    pieces whose kind differs from the ``declared`` one (``changed``: (id, kind) pairs in the
    map's order; what a ruling tells)."""

    __slots__ = ("changed", "signature")

    def __init__(self, kinds: Mapping[str, str], declared: Mapping[str, str]) -> None:
        super().__init__(kinds)
        self.signature = tuple(sorted(kinds.items()))
        self.changed = tuple((tid, k) for tid, k in kinds.items() if k != declared[tid])


def shot_kinds(
    board: Board,
    *,
    huge: bool,
    elevated_kind: Mapping[str, str],
    excluded: Collection[str],
) -> KindMap:
    """Every piece's effective kind for one shot, leaving out the excluded pieces.

    Memoised on the board: most shots of a board share one map (and so one set of merged
    solids). Treat the result as read-only.
    """
    key = ("kinds", huge, tuple(sorted(elevated_kind.items())), tuple(sorted(excluded)))
    kinds_cache = board.derived.entry(KINDS)
    cached = kinds_cache.get(key)
    if cached is None:
        cached = KindMap(
            {
                tid: effective_kind(board.terrain[tid], huge=huge, elevated_kind=elevated_kind)
                for tid in board.terrain_ids
                if tid not in excluded
            },
            {tid: t.kind for tid, t in board.terrain.items()},
        )
        kinds_cache[key] = cached
    return cached


def shot_kinds_pair(
    board: Board,
    *,
    attacker_huge: bool,
    target_huge: bool,
    elevated_kind: Mapping[str, str],
    excluded: Collection[str],
    out_of_sight: Collection[str] = (),
) -> tuple[KindMap, KindMap]:
    """``terrain.kinds``: the kinds one shot sees, ``(for line of sight, for cover)``. The Huge
    variant governs line of sight on every line to or from a Huge model, and cover only when
    the target is Huge (a smaller target keeps the cover of the piece's normal kind). The
    pieces of ``excluded`` are left out of both; those of ``out_of_sight`` (the solid pieces
    without a height a model stands on, ``elevation.standing-on``) out of line of sight only.
    The one definition, for the ruling's shot and the threat map's shooters."""
    sight = shot_kinds(
        board,
        huge=attacker_huge or target_huge,
        elevated_kind=elevated_kind,
        excluded={*excluded, *out_of_sight},
    )
    cover = shot_kinds(board, huge=target_huge, elevated_kind=elevated_kind, excluded=excluded)
    return sight, cover


KINDS: Key[dict[tuple[object, ...], KindMap]] = Key("kinds", terrain_only=True, make=dict)
"""Each piece's effective kind per kind of shot (:func:`shot_kinds`)."""

SOLIDS: Key[dict[tuple[object, ...], SolidSet]] = Key("solids", terrain_only=True, make=dict)
"""Merged solids per set of kinds, for line of sight and for cover (:func:`merged`)."""
