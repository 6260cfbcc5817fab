"""Elevation (``elevation.*``, RoP p.18): who is Elevated, Significant Edges, and the shot context.

The table is seen from above; heights are the only third dimension. A terrain piece's
``height`` is the height of its top above the *table* (not above whatever it stands on), and a
model's ``elevation`` is the height of its base above the table. All values here are in
millimetres (``scenario.board``); reasons report them in scenario units.

Orange is ``scenario.ruler_mm("orange")`` (2", or the scenario's override).

What this module decides, and what it leaves to :mod:`fwwrules.los` and :mod:`fwwrules.cover`:

* :func:`is_elevated` (``elevation.elevated``);
* :func:`significant_edges` (``elevation.significant-edge``), computed once per terrain
  (:data:`SIGNIFICANT_EDGES`; :func:`significant_edges_of` is the pure computation);
* :func:`standing_on` / :func:`pieces_under` (``elevation.standing-on``);
* :func:`shot_context`: for one pair of models, which edges act as walls for LoS
  (``elevation.edge-blocks-los``), which edges may give cover (``elevation.edge-cover``), how
  far cover may lie from the target (``elevation.shooter-cover``), and which pieces change kind
  (``elevation.terrain-variant``). LoS and cover apply it; :func:`edge_crossed` is the exact
  crossing test both should use for edges.

Boundary cases (decisions)
--------------------------
* **Exactly Orange counts** everywhere a height is compared: a base exactly Orange higher is
  Elevated, a drop of exactly Orange makes a Significant Edge. Comparisons allow
  :data:`~fwwrules.constants.LENGTH_EPSILON_MM` so that 2" written in inches (50.8 mm) is
  still exactly Orange.
* **Distance from a model to an edge** is measured from the *edge of its base* (the nearest
  point of the base disc) to the nearest point of the edge segment; 0 when the base reaches
  over the edge. "More than Orange" (edge blocks LoS) is ``distance > Orange + epsilon``;
  "within Orange" (edge gives cover) is ``distance <= Orange + epsilon``: a model exactly
  Orange from an edge is within Orange, so that edge does not block but may give cover.
* **Distance from the target to a piece of cover** (for an Elevated shooter) is edge to edge:
  from the target's base to the nearest point of the piece's outline (0 when they touch or
  overlap); cover exactly Orange away still counts.
* **Which edges matter for a shot**: only edges whose top lies between the two models' levels
  (above the lower model's base, at or below the Elevated model's base). An edge the lower
  model stands on top of hides nothing from it; an edge higher than both models is an
  ordinary piece of terrain whose kind decides.
* **Pieces without a height** are not surfaces: they have no edges and raise no ground. Give
  ``height`` only to terrain one can stand on (roofs, platforms, gantries), not to woods.
* **A piece of height 0** is flat on the table: nobody "stands on" it in the sense of
  ``elevation.standing-on``, so area terrain of height 0 still covers a target inside it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from .board import Board, ModelGeometry, TerrainGeometry
from .cache import Key, Moved
from .constants import BOUNDARY_TOLERANCE_MM, EDGE_PROBE_MM, LENGTH_EPSILON_MM
from .data import Scenario
from .pieces import EdgeRef
from .placement import pieces_stood_on
from .rulings import Reason, Step
from .thresholds import levels_apart, reaches_ruler, within_ruler

Point2 = tuple[float, float]

COMPASS: tuple[str, ...] = (
    "east",
    "north-east",
    "north",
    "north-west",
    "west",
    "south-west",
    "south",
    "south-east",
)
"""Names of the side an edge faces, by its outward normal: +x is east, +y is north.

The board is drawn with y growing upwards (matplotlib's default), so "north" is the top of
the picture. A normal between two names goes to the nearer one (22.5° sectors).
"""


# ---------------------------------------------------------------------------------------------
# elevation.elevated
# ---------------------------------------------------------------------------------------------


def orange_mm(scenario: Scenario) -> float:
    """The Orange ruler in millimetres (the scenario may override it)."""
    return scenario.ruler_mm("orange")


def height_difference(scenario: Scenario, a_id: str, b_id: str) -> float:
    """How much higher ``a``'s base stands than ``b``'s, in millimetres (negative if lower)."""
    models = scenario.board.models
    _require_model(scenario, a_id)
    _require_model(scenario, b_id)
    return models[a_id].elevation - models[b_id].elevation


def is_elevated(scenario: Scenario, a_id: str, b_id: str) -> bool:
    """``elevation.elevated``: ``a``'s base stands at least Orange higher than ``b``'s.

    Exactly Orange counts (within :data:`LENGTH_EPSILON_MM`). The relation is one-way: at most
    one of ``is_elevated(s, a, b)`` and ``is_elevated(s, b, a)`` is true.
    """
    return levels_apart(
        height_difference(scenario, a_id, b_id), orange_mm(scenario), scenario.ruler_tolerance_mm
    )


def _require_model(scenario: Scenario, ident: str) -> None:
    if ident not in scenario.board.models:
        scenario.model(ident)  # raises UnknownIdError naming the known ids


# ---------------------------------------------------------------------------------------------
# elevation.significant-edge
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SignificantEdge:
    """``elevation.significant-edge``: (part of) a terrain edge where the ground drops by Orange+.

    ``terrain`` is the piece, ``index`` the edge's index in the piece's outline (edge ``i``
    runs from vertex ``i`` to vertex ``i + 1`` of ``board.terrain[terrain].polygon.exterior``),
    ``a``/``b`` the part of that edge (mm) that is significant, ``top`` the piece's height and
    ``bottom`` the height of the ground just beyond (the table, 0, or the top of the piece
    there), ``side`` the compass name of the outward normal (see :data:`COMPASS`).

    An edge is split where what lies beyond it changes; adjacent parts with the same ground are
    merged, so one part has one ``bottom``. The end points of a part belong to it.
    """

    terrain: str
    index: int
    a: Point2
    b: Point2
    top: float
    bottom: float
    side: str

    @property
    def drop(self) -> float:
        return self.top - self.bottom

    @property
    def label(self) -> str:
        """``piece:side``, the name a ruling shows for the edge."""
        return self.ref.name

    @property
    def ref(self) -> EdgeRef:
        """The reference rulings use for the edge (its piece and side)."""
        return EdgeRef(self.terrain, self.side)

    def distance_to_disc(self, x: float, y: float, r: float) -> float:
        """Distance (mm) from a base (centre ``x, y``, radius ``r``) to this edge part.

        Measured from the base's edge; 0 when the base reaches over the edge.

        >>> e = SignificantEdge("roof", 0, (0.0, 0.0), (100.0, 0.0), 60.0, 0.0, "south")
        >>> e.distance_to_disc(50, 66, 16), e.distance_to_disc(150, 0, 16)
        (50.0, 34.0)
        >>> e.distance_to_disc(5, 5, 16)  # the base reaches over the edge
        0.0
        """
        return max(0.0, _segment_distance(x, y, self.a, self.b) - r)


def edge_reason(scenario: Scenario, edge: SignificantEdge) -> Reason:
    """``elevation.significant-edge``: a reason describing one edge (for drawings, notebooks).

    >>> import fwwrules
    >>> s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    >>> edge_reason(s, significant_edges(s.board)[0]).text("de", s.names())[:63]
    'Die Südkante von Gebäude fällt von 102 mm (4,02″) auf 0 mm (0″)'
    """
    return Reason(
        "elevation.significant-edge",
        "",
        {
            "piece": scenario.terrain_piece(edge.terrain).id,
            "side": edge.side,
            "top": _r(scenario, edge.top),
            "bottom": _r(scenario, edge.bottom),
            "orange": _r(scenario, orange_mm(scenario)),
            "unit": scenario.units,
        },
    )


def compass(nx: float, ny: float) -> str:
    """The compass name of a direction (+x east, +y north).

    >>> compass(0, 1), compass(1, 0), compass(-1, -1), compass(0.2, -1)
    ('north', 'east', 'south-west', 'south')
    """
    angle = math.degrees(math.atan2(ny, nx)) % 360.0
    return COMPASS[int(((angle + 22.5) % 360.0) // 45.0)]


def _segment_distance(x: float, y: float, a: Point2, b: Point2) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / length2))
    return math.hypot(x - (ax + t * dx), y - (ay + t * dy))


def significant_edges_of(
    terrain: Iterable[TerrainGeometry], orange: float, tolerance: float = LENGTH_EPSILON_MM
) -> tuple[SignificantEdge, ...]:
    """``elevation.significant-edge``: every Significant Edge of a board, in file order.

    ``terrain`` is the board's pieces (mm), ``orange`` the Orange ruler in mm. For each piece
    with a ``height`` and each edge of its outline, the ground just beyond the edge is the
    highest top among the *other* pieces with a height that lie beyond it there (the table, 0,
    when none does). The edge is split where that ground changes (where another piece's outline
    meets the edge); a part is significant when ``top - ground >= Orange`` (exactly Orange
    counts). So a platform on a roof has Significant Edges only where the drop to the roof (or
    below, past the roof's edge) is at least Orange, and two touching roofs of the same height
    have none along their seam.

    "Beyond" is decided at the middle of each part: a piece beyond the edge there either holds
    that point inside it, farther than :data:`LENGTH_EPSILON_MM` from its own outline (the edge
    lies on top of it), or its outline passes through that point and it holds the probe
    :data:`EDGE_PROBE_MM` outside (it shares the edge line and lies on the outer side). Two
    pieces with one outline: the table lies beyond both; the higher one's edges drop to it.
    """
    pieces = tuple(t for t in terrain if t.height is not None)
    if not pieces or all(
        not reaches_ruler(float(t.height or 0.0), orange, tolerance) for t in pieces
    ):
        return ()
    # Pure: the cache keeps the result (SIGNIFICANT_EDGES, terrain-only: a scenario whose
    # models alone moved shares it).
    return _compute_edges(pieces, orange, tolerance)


SIGNIFICANT_EDGES: Key[tuple[SignificantEdge, ...]] = Key("significant_edges", terrain_only=True)
"""Every Significant Edge of the board (:func:`significant_edges`)."""


def significant_edges(board: Board) -> tuple[SignificantEdge, ...]:
    """``elevation.significant-edge``: every Significant Edge of the board, computed on first
    use and kept in the scenario's cache (:data:`SIGNIFICANT_EDGES`)."""
    d = board.derived
    edges = d.get(SIGNIFICANT_EDGES)
    if edges is None:
        computed = significant_edges_of(
            board.terrain.values(), board.orange_mm, board.ruler_tolerance
        )
        edges = d.put(SIGNIFICANT_EDGES, computed)
    return edges


Array = np.ndarray[Any, Any]


def _compute_edges(
    pieces: tuple[TerrainGeometry, ...], orange: float, tolerance: float = LENGTH_EPSILON_MM
) -> tuple[SignificantEdge, ...]:
    """Every Significant Edge, with spatial indexes instead of all-against-all.

    The same decisions as the edge-by-edge reference the tests compare with
    (``tests/edge_reference.py``), in bulk: an STRtree over the pieces gives each edge the pieces
    that meet it; one over every outline segment gives the points where those outlines cut
    the edge; the ground beyond each part is the highest piece holding its midpoint (or
    sharing the edge line and holding the probe just outside). Work grows with the edges and
    the pieces actually meeting them, not with their product.
    """
    polys = np.asarray([t.polygon for t in pieces], dtype=object)
    heights = np.asarray([float(t.height or 0.0) for t in pieces])
    tops = [k for k, h in enumerate(heights) if reaches_ruler(h, orange, tolerance)]
    found = _drop_edges(pieces, tops)
    if found is None:
        return ()
    edges, own, idx, ccw_of = found
    lines = shapely.linestrings(edges.reshape(-1, 2, 2))
    # pieces whose boxes meet each edge's (other than its own piece): the candidates for the
    # edge's neighbours (the ground test below only counts pieces that meet the edge)
    e_of, q_of = shapely.STRtree(polys).query(lines)
    keep = q_of != own[e_of]
    e_of, q_of = e_of[keep], q_of[keep]
    # cut points: every outline segment of a neighbour that meets the edge
    cuts = _cut_parameters(edges, own, e_of, q_of, pieces)
    lengths = np.hypot(edges[:, 2] - edges[:, 0], edges[:, 3] - edges[:, 1])
    pe, pt = _edge_parts_bulk(lengths, cuts)
    if len(pe) == 0:
        return ()
    ground = _grounds(edges, lines, pe, pt, e_of, q_of, polys, heights, own, ccw_of)
    # merge touching parts of one edge with the same ground; keep the significant ones
    new_run = np.ones(len(pe), dtype=bool)
    new_run[1:] = ~(
        (pe[1:] == pe[:-1])
        & (np.abs(pt[:-1, 1] - pt[1:, 0]) * lengths[pe[1:]] <= LENGTH_EPSILON_MM)
        & (ground[1:] == ground[:-1])
    )
    first = np.flatnonzero(new_run)
    last = np.append(first[1:] - 1, len(pe) - 1)
    run_e, run_t0, run_t1, run_g = pe[first], pt[first, 0], pt[last, 1], ground[first]
    significant = reaches_ruler(heights[own[run_e]] - run_g, orange, tolerance)
    runs = zip(
        run_e[significant].tolist(),
        run_t0[significant].tolist(),
        run_t1[significant].tolist(),
        run_g[significant].tolist(),
        strict=True,
    )
    return tuple(
        _edge_of_run(pieces, heights, edges[e], int(own[e]), int(idx[e]), ccw_of, t0, t1, g)
        for e, t0, t1, g in runs
    )


def _drop_edges(
    pieces: tuple[TerrainGeometry, ...], tops: list[int]
) -> tuple[Array, Array, Array, dict[int, bool]] | None:
    """The outline edges of the pieces ``tops`` (those that can drop by Orange): their ends
    ``(x0, y0, x1, y1)``, owning piece, index in its outline, and each piece's orientation
    (counter-clockwise); ``None`` when there are none."""
    rows: list[Any] = []
    owner: list[Any] = []
    index: list[Any] = []
    ccw_of: dict[int, bool] = {}
    for k in tops:
        xy = shapely.get_coordinates(pieces[k].polygon.exterior)
        x0, y0, x1, y1 = xy[:-1, 0], xy[:-1, 1], xy[1:, 0], xy[1:, 1]
        ccw_of[k] = float(np.sum(x0 * y1 - x1 * y0)) > 0
        rows.append(np.hstack([xy[:-1], xy[1:]]))
        owner.append(np.full(len(xy) - 1, k))
        index.append(np.arange(len(xy) - 1))
    if not rows:
        return None
    return np.vstack(rows), np.concatenate(owner), np.concatenate(index), ccw_of


def _edge_parts_bulk(lengths: Array, cuts: tuple[Array, Array]) -> tuple[Array, Array]:
    """The parts of every edge: consecutive distinct parameters (0, the cuts, 1), longer than
    :data:`LENGTH_EPSILON_MM`, as (edge index, (t0, t1)) sorted by edge and parameter."""
    eps = LENGTH_EPSILON_MM
    n_e = len(lengths)
    ce, ct = cuts
    all_e = np.concatenate([np.arange(n_e), np.arange(n_e), ce])
    all_t = np.concatenate([np.zeros(n_e), np.ones(n_e), ct])
    order = np.lexsort((all_t, all_e))
    all_e, all_t = all_e[order], all_t[order]
    same = all_e[1:] == all_e[:-1]
    pe = all_e[:-1][same]
    pt = np.column_stack([all_t[:-1][same], all_t[1:][same]])
    long_enough = ((pt[:, 1] - pt[:, 0]) * lengths[pe] > eps) & (lengths[pe] > eps)
    return pe[long_enough], pt[long_enough]


def _edge_of_run(
    pieces: tuple[TerrainGeometry, ...],
    heights: Array,
    edge: Array,
    k: int,
    index: int,
    ccw_of: Mapping[int, bool],
    t0: float,
    t1: float,
    ground: float,
) -> SignificantEdge:
    """The Significant Edge from ``t0`` to ``t1`` along ``edge`` of piece ``k``."""
    ax, ay, bx, by = edge.tolist()
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    nx, ny = (dy / length, -dx / length) if ccw_of[k] else (-dy / length, dx / length)
    pa = (ax, ay) if t0 == 0.0 else (ax + t0 * dx, ay + t0 * dy)
    pb = (bx, by) if t1 == 1.0 else (ax + t1 * dx, ay + t1 * dy)
    return SignificantEdge(pieces[k].id, index, pa, pb, float(heights[k]), ground, compass(nx, ny))


def _cut_parameters(
    edges: np.ndarray[Any, np.dtype[np.float64]],
    own: np.ndarray[Any, Any],
    e_of: np.ndarray[Any, Any],
    q_of: np.ndarray[Any, Any],
    pieces: tuple[TerrainGeometry, ...],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """(edge, t) pairs: the parameters (0 < t < 1) where a neighbour's outline meets an edge.

    Only pairs (edge, neighbour) found by the caller are looked at, and within each pair only
    the outline segments whose boxes meet the edge (an STRtree over all outline segments).
    A segment crossing or touching the edge gives its crossing point; one lying along the
    edge (within :data:`~fwwrules.constants.BOUNDARY_TOLERANCE_MM`) gives its end points.
    Extra cuts are harmless: parts with the same ground are merged again.
    """
    if len(e_of) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    segs: list[Any] = []
    seg_owner: list[Any] = []
    for k in sorted({int(q) for q in q_of}):
        poly = pieces[k].polygon
        for ring in [poly.exterior, *poly.interiors]:
            xy = shapely.get_coordinates(ring)
            segs.append(np.hstack([xy[:-1], xy[1:]]))
            seg_owner.append(np.full(len(xy) - 1, k))
    s_arr = np.vstack(segs)
    s_own = np.concatenate(seg_owner)
    tree = shapely.STRtree(shapely.linestrings(s_arr.reshape(-1, 2, 2)))
    boxes = shapely.box(
        np.minimum(edges[:, 0], edges[:, 2]),
        np.minimum(edges[:, 1], edges[:, 3]),
        np.maximum(edges[:, 0], edges[:, 2]),
        np.maximum(edges[:, 1], edges[:, 3]),
    )
    candidates = np.unique(e_of)
    ei, si = tree.query(boxes[candidates])
    ei = candidates[ei]
    pair_ok = s_own[si] != own[ei]
    ei, si = ei[pair_ok], si[pair_ok]
    e, sg = edges[ei], s_arr[si]
    ax, ay, dx, dy = e[:, 0], e[:, 1], e[:, 2] - e[:, 0], e[:, 3] - e[:, 1]
    cx, cy, fx, fy = sg[:, 0], sg[:, 1], sg[:, 2] - sg[:, 0], sg[:, 3] - sg[:, 1]
    length2 = dx * dx + dy * dy
    length = np.sqrt(length2)
    tol = BOUNDARY_TOLERANCE_MM
    # signed distances of the segment's ends from the edge line
    d0 = (dx * (cy - ay) - dy * (cx - ax)) / length
    d1 = (dx * (cy + fy - ay) - dy * (cx + fx - ax)) / length
    out_e: list[np.ndarray[Any, Any]] = []
    out_t: list[np.ndarray[Any, Any]] = []

    def add(which: np.ndarray[Any, Any], t: np.ndarray[Any, Any]) -> None:
        ok = which & (t > 0.0) & (t < 1.0)
        out_e.append(ei[ok])
        out_t.append(t[ok])

    along = (np.abs(d0) <= tol) & (np.abs(d1) <= tol)
    t_c = ((cx - ax) * dx + (cy - ay) * dy) / length2
    t_f = ((cx + fx - ax) * dx + (cy + fy - ay) * dy) / length2
    add(along, t_c)
    add(along, t_f)
    # ends touching the edge line (a corner on the edge)
    add(~along & (np.abs(d0) <= tol), t_c)
    add(~along & (np.abs(d1) <= tol), t_f)
    # proper crossings
    cross = ~along & (d0 * d1 < 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        s = d0 / (d0 - d1)
        px, py = cx + s * fx, cy + s * fy
        t = ((px - ax) * dx + (py - ay) * dy) / length2
    add(cross, t)
    return np.concatenate(out_e), np.concatenate(out_t)


def _grounds(
    edges: np.ndarray[Any, np.dtype[np.float64]],
    lines: np.ndarray[Any, Any],
    pe: np.ndarray[Any, Any],
    pt: np.ndarray[Any, Any],
    e_of: np.ndarray[Any, Any],
    q_of: np.ndarray[Any, Any],
    polys: np.ndarray[Any, Any],
    heights: np.ndarray[Any, np.dtype[np.float64]],
    own: np.ndarray[Any, Any],
    ccw_of: Mapping[int, bool],
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """The ground beyond each part (as the edge-by-edge reference, ``tests/edge_reference.py``,
    decides it at the part's middle):
    the highest neighbour of the edge holding the middle, or meeting the edge, passing within
    :data:`LENGTH_EPSILON_MM` of the middle and holding the probe :data:`EDGE_PROBE_MM`
    outside; 0 (the table) when none does. ``e_of``/``q_of`` are candidate (edge, piece)
    pairs (boxes meet); a piece holding the middle of a part meets its edge."""
    ground = np.zeros(len(pe))
    order = np.argsort(e_of, kind="stable")
    e_sorted, q_sorted = e_of[order], q_of[order]
    start = np.searchsorted(e_sorted, pe, side="left")
    stop = np.searchsorted(e_sorted, pe, side="right")
    counts = stop - start
    if counts.sum() == 0:
        return ground
    part = np.repeat(np.arange(len(pe)), counts)
    total = int(counts.sum())
    offs = (
        np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(start, counts)
    )
    q = q_sorted[offs]
    e = pe[part]
    tm = (pt[part, 0] + pt[part, 1]) / 2
    ax, ay = edges[e, 0], edges[e, 1]
    dx, dy = edges[e, 2] - ax, edges[e, 3] - ay
    length = np.hypot(dx, dy)
    mx, my = ax + tm * dx, ay + tm * dy
    ccw = np.asarray([ccw_of[int(k)] for k in own[e]], dtype=bool)
    nx = np.where(ccw, dy / length, -dy / length)
    ny = np.where(ccw, -dx / length, dx / length)
    # A middle within epsilon of the neighbour's outline is decided by the probe outside
    # (whether the neighbour holds a point on its own outline is rounding), as in the reference
    # (tests/edge_reference.py).
    outlines = shapely.boundary(polys)
    on_outline = shapely.dwithin(outlines[q], shapely.points(mx, my), LENGTH_EPSILON_MM)
    holds = ~on_outline & shapely.contains_xy(polys[q], mx, my)
    if on_outline.any():
        r = np.flatnonzero(on_outline)
        probe = shapely.contains_xy(
            polys[q[r]], mx[r] + nx[r] * EDGE_PROBE_MM, my[r] + ny[r] * EDGE_PROBE_MM
        )
        r = r[probe]
        # only a piece that meets the edge itself counts (one 1e-6 mm away does not)
        holds[r] = shapely.intersects(lines[e[r]], polys[q[r]])
    h = np.where(holds, heights[q], 0.0)
    np.maximum.at(ground, part, h)
    return ground


# ---------------------------------------------------------------------------------------------
# elevation.standing-on
# ---------------------------------------------------------------------------------------------


def _carry_pieces_under(
    old: dict[str, tuple[str, ...]], moved: Moved
) -> dict[str, tuple[str, ...]]:
    """The models that did not move stand on what they stood on."""
    return {mid: under for mid, under in old.items() if mid not in moved.ids}


PIECES_UNDER: Key[dict[str, tuple[str, ...]]] = Key(
    "pieces_under", terrain_only=False, make=dict, carry=_carry_pieces_under
)
"""The pieces under each model, by model id (:func:`pieces_under`)."""


def pieces_under(scenario: Scenario, model_id: str) -> tuple[str, ...]:
    """Every piece a model stands on (``elevation.standing-on``), highest first, as the
    placement rule decides it (:func:`fwwrules.placement.pieces_stood_on`): a piece with a
    height above 0 whose outline contains the model's centre (boundary included) and whose
    height is at most the model's elevation (+ :data:`LENGTH_EPSILON_MM`), and a solid piece
    (``blocking``, ``cover``) without a height whose outline contains the centre. A model on a
    platform on a roof stands on both: neither blocks nor covers its shots. Ties in height
    keep file order; pieces without a height come last.
    """
    _require_model(scenario, model_id)
    board = scenario.board
    cache = board.derived.entry(PIECES_UNDER)
    cached = cache.get(model_id)
    if cached is not None:
        return cached
    mg = board.models[model_id]
    cache[model_id] = pieces_stood_on(board, mg.disc.x, mg.disc.y, mg.elevation)
    return cache[model_id]


def standing_exclusions(
    scenario: Scenario, model_ids: Iterable[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """``elevation.standing-on``: the pieces the models stand on, left out of their shots:
    ``(excluded, out_of_sight)``. Pieces with a height are left out of line of sight and
    cover alike; a solid piece without a height is left out of line of sight only, and the
    Line of Cover still meets it: entered and not left, or touching the shooter, it gives no
    cover by ``cover.line``'s desk rule and ``cover.shooter-contact`` (RoP example 3)."""
    return _exclusions(scenario.board, [pieces_under(scenario, mid) for mid in model_ids])


def _exclusions(
    board: Board, unders: Iterable[tuple[str, ...]]
) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`standing_exclusions` of the pieces each model stands on (``unders``, each model's
    :func:`pieces_under`): a piece with a height above 0 left out of both, any other out of
    line of sight only (a piece in both groups counts as one with a height)."""
    excluded: set[str] = set()
    sight: set[str] = set()
    for under in unders:
        for tid in under:
            t = board.terrain[tid]
            (excluded if t.height is not None and t.height > 0.0 else sight).add(tid)
    return frozenset(excluded), frozenset(sight - excluded)


def standing_on(scenario: Scenario, model_id: str) -> str | None:
    """``elevation.standing-on``: the highest piece the model stands on, or ``None``.

    See :func:`pieces_under` for the test. A model whose elevation is below a piece's height
    stands *in* it (area terrain, a ruin) and not on it.
    """
    under = pieces_under(scenario, model_id)
    return under[0] if under else None


# ---------------------------------------------------------------------------------------------
# Crossing an edge
# ---------------------------------------------------------------------------------------------


def _orient(ax: float, ay: float, bx: float, by: float, px: float, py: float) -> float:
    """Signed distance of ``p`` from the line ``a -> b`` (positive on the left)."""
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return 0.0
    return ((bx - ax) * (py - ay) - (by - ay) * (px - ax)) / length


def edge_crossed(board: Board, edge: SignificantEdge, p: Point2, q: Point2) -> Point2 | None:
    """Where the segment ``p -> q`` crosses a Significant Edge, or ``None``.

    Crossing means passing from one side of the edge to the other (between the piece's top and
    the drop). Grazing is never crossing: a segment that runs along the edge, or that only
    touches it with one of its own end points, does not cross it. A segment through an *end
    point* of the edge part crosses it when it passes from inside the piece to outside (or
    back) there, so a line through the piece's corner, or through the joint between two parts
    of one edge, crosses; a line that only touches the corner from outside does not.
    """
    (px, py), (qx, qy) = p, q
    (ax, ay), (bx, by) = edge.a, edge.b
    eps = LENGTH_EPSILON_MM
    o1 = _orient(ax, ay, bx, by, px, py)
    o2 = _orient(ax, ay, bx, by, qx, qy)
    if not ((o1 > eps and o2 < -eps) or (o1 < -eps and o2 > eps)):
        return None  # both ends on one side, or an end on the edge line: no crossing
    o3 = _orient(px, py, qx, qy, ax, ay)
    o4 = _orient(px, py, qx, qy, bx, by)
    if (o3 > eps and o4 > eps) or (o3 < -eps and o4 < -eps):
        return None  # the line passes beside the edge part
    t = o1 / (o1 - o2)
    x, y = px + t * (qx - px), py + t * (qy - py)
    if abs(o3) > eps and abs(o4) > eps:
        return (x, y)  # a proper crossing
    # Through an end point of the part: inside the piece on one side, outside on the other?
    vx, vy = (ax, ay) if abs(o3) <= eps else (bx, by)
    length = math.hypot(qx - px, qy - py)
    ux, uy = (qx - px) / length, (qy - py) / length
    poly = board.terrain[edge.terrain].polygon
    before = Point(vx - ux * EDGE_PROBE_MM, vy - uy * EDGE_PROBE_MM)
    after = Point(vx + ux * EDGE_PROBE_MM, vy + uy * EDGE_PROBE_MM)
    inside_before, inside_after = poly.contains(before), poly.contains(after)
    outside_before, outside_after = not poly.covers(before), not poly.covers(after)
    if (inside_before and outside_after) or (outside_before and inside_after):
        return (vx, vy)
    return None


def covering_edges(
    board: Board, edges: Iterable[SignificantEdge], p: Point2, q: Point2
) -> tuple[SignificantEdge, ...]:
    """``elevation.edge-cover``: the crossed edges that give cover, **one per piece**.

    Decision: the Significant Edges of one piece are one object (the drop off that roof), so a
    Line of Cover crossing two parts of one piece's edge (at their joint, or an L-shaped roof
    twice) gives -2 once; edges of two different pieces (a platform and the roof under it) are
    two objects, -4. The first crossed part (nearest ``q``, the target) stands for the piece.
    """
    hits = [(e, edge_crossed(board, e, p, q)) for e in edges]
    crossed = [(e, x) for e, x in hits if x is not None]
    crossed.sort(key=lambda ex: math.hypot(ex[1][0] - q[0], ex[1][1] - q[1]))
    seen: set[str] = set()
    out = []
    for e, _ in crossed:
        if e.terrain not in seen:
            seen.add(e.terrain)
            out.append(e)
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# The shot context
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShotContext:
    """How elevation changes one shot between two models (attacker, target).

    * ``attacker_elevated`` / ``target_elevated``: ``elevation.elevated`` each way (at most one).
    * ``excluded``: pieces that neither block nor cover this shot, those with a height the
      attacker or the target stands on (``elevation.standing-on``, every piece under each
      model); ``out_of_sight``: the solid pieces without a height they stand on.
    * ``elevated_kind``: ``elevation.terrain-variant``, piece id -> kind for pieces with
      ``elevated:``, filled only when one of the two is Elevated.
    * ``los_edges``: ``elevation.edge-blocks-los``, edges that act as zero-width walls for LoS
      (the Elevated model stands more than Orange from them). Only edges whose top lies
      between the two models' levels and that could meet a line between the two bases.
    * ``cover_edges``: ``elevation.edge-cover``, when the target is Elevated, the edges within
      Orange of it (inclusive) that could meet a line between the two bases. Cover counts the
      ones the Line of Cover crosses, one per piece (:func:`covering_edges`).
    * ``cover_within``: ``elevation.shooter-cover``, when the attacker is Elevated: only cover
      within this ruler (Orange, mm, edge to edge) of the target's base counts, compared by
      :func:`~fwwrules.thresholds.within_ruler` with the ruler tolerance, so cover exactly
      Orange away counts (``200 - 133.2`` is ``66.80000000000001`` in floating point).
    * ``reasons``: what applies, citing ``elevation.*`` with values (scenario units).
    """

    attacker_elevated: bool = False
    target_elevated: bool = False
    excluded: frozenset[str] = frozenset()
    out_of_sight: frozenset[str] = frozenset()
    """Solid pieces without a height the attacker or the target stands on: they block no line
    of sight of this shot, and give no cover by ``cover.line``'s desk rule."""
    elevated_kind: Mapping[str, str] = field(default_factory=dict)
    los_edges: tuple[SignificantEdge, ...] = ()
    cover_edges: tuple[SignificantEdge, ...] = ()
    cover_within: float | None = None
    reasons: tuple[Reason, ...] = ()

    @classmethod
    def flat(cls) -> ShotContext:
        """No elevation at all (shots at terrain or a point are taken at table level)."""
        return cls()

    @property
    def elevated(self) -> bool:
        return self.attacker_elevated or self.target_elevated

    def step(self) -> Step:
        """The common step contract: the elevation facts as reasons (what they change is
        decided by line of sight and cover)."""
        return Step(reasons=self.reasons)


@dataclass(frozen=True, slots=True, eq=False)
class _EdgeArrays:
    ax: np.ndarray[Any, np.dtype[np.float64]]
    ay: np.ndarray[Any, np.dtype[np.float64]]
    bx: np.ndarray[Any, np.dtype[np.float64]]
    by: np.ndarray[Any, np.dtype[np.float64]]
    top: np.ndarray[Any, np.dtype[np.float64]]


EDGE_ARRAYS: Key[_EdgeArrays] = Key("edge_arrays", terrain_only=True)
"""The Significant Edges as numpy arrays, for the shot context."""


def _edge_arrays(board: Board) -> _EdgeArrays:
    d = board.derived
    found = d.get(EDGE_ARRAYS)
    if found is not None:
        return found
    edges = significant_edges(board)
    arr = np.array(
        [(e.a[0], e.a[1], e.b[0], e.b[1], e.top) for e in edges], dtype=np.float64
    ).reshape(-1, 5)
    return d.put(EDGE_ARRAYS, _EdgeArrays(arr[:, 0], arr[:, 1], arr[:, 2], arr[:, 3], arr[:, 4]))


def _disc_edge_distances(
    arrs: _EdgeArrays, x: float, y: float, r: float
) -> np.ndarray[Any, np.dtype[np.float64]]:
    d = _point_segments(x, y, arrs.ax, arrs.ay, arrs.bx, arrs.by) - r
    out: np.ndarray[Any, np.dtype[np.float64]] = np.maximum(d, 0.0)
    return out


def _point_segments(
    x: float | np.ndarray[Any, np.dtype[np.float64]],
    y: float | np.ndarray[Any, np.dtype[np.float64]],
    ax: float | np.ndarray[Any, np.dtype[np.float64]],
    ay: float | np.ndarray[Any, np.dtype[np.float64]],
    bx: float | np.ndarray[Any, np.dtype[np.float64]],
    by: float | np.ndarray[Any, np.dtype[np.float64]],
) -> np.ndarray[Any, np.dtype[np.float64]]:
    """Distances from points to segments, element-wise (numpy broadcasting)."""
    dx, dy = np.subtract(bx, ax), np.subtract(by, ay)
    length2 = dx * dx + dy * dy
    safe = np.where(length2 > 0, length2, 1.0)
    t = np.clip(((np.subtract(x, ax)) * dx + (np.subtract(y, ay)) * dy) / safe, 0.0, 1.0)
    t = np.where(length2 > 0, t, 0.0)
    out: np.ndarray[Any, np.dtype[np.float64]] = np.hypot(
        np.subtract(x, np.add(ax, t * dx)), np.subtract(y, np.add(ay, t * dy))
    )
    return out


def _near_pair(
    arrs: _EdgeArrays, a: tuple[float, float, float], b: tuple[float, float, float]
) -> np.ndarray[Any, np.dtype[np.bool_]]:
    """Edges that could meet a segment between the two bases: those within the larger radius
    of the segment joining the centres (a capsule holding the convex hull of both bases; the
    same hull when the bases are equal). Rotation- and translation-invariant."""
    (px, py, ra), (qx, qy, rb) = a, b
    ax, ay, bx, by = arrs.ax, arrs.ay, arrs.bx, arrs.by
    d = np.minimum(
        np.minimum(
            _point_segments(px, py, ax, ay, bx, by), _point_segments(qx, qy, ax, ay, bx, by)
        ),
        np.minimum(
            _point_segments(ax, ay, px, py, qx, qy), _point_segments(bx, by, px, py, qx, qy)
        ),
    )
    o1 = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    o2 = (bx - ax) * (qy - ay) - (by - ay) * (qx - ax)
    o3 = (qx - px) * (ay - py) - (qy - py) * (ax - px)
    o4 = (qx - px) * (by - py) - (qy - py) * (bx - px)
    crossing = (o1 * o2 < 0) & (o3 * o4 < 0)
    near: np.ndarray[Any, np.dtype[np.bool_]] = crossing | (d <= max(ra, rb) + LENGTH_EPSILON_MM)
    return near


def _r(scenario: Scenario, mm: float) -> float:
    return round(scenario.from_mm(mm), 3)


def shot_context(scenario: Scenario, attacker_id: str, target_id: str) -> ShotContext:
    """Elevation for one shot between two models (``elevation.*``); see :class:`ShotContext`.

    Boundary cases: a height difference of exactly Orange makes the higher model Elevated; an
    Elevated model exactly Orange from an edge is *within* Orange (the edge does not block LoS
    and, for an Elevated target, may give cover); with neither model Elevated no edge matters
    and no ``elevated:`` kind applies, but the pieces each model stands on are still excluded.
    """
    board = scenario.board
    _require_model(scenario, attacker_id)
    _require_model(scenario, target_id)
    unit = scenario.units
    orange = orange_mm(scenario)
    ma, mt = board.models[attacker_id], board.models[target_id]
    reasons: list[Reason] = []  # params carry ids; the ruling's labels name them
    excluded, out_of_sight = _standing_on(scenario, (attacker_id, target_id), reasons)
    diff = ma.elevation - mt.elevation
    tol = scenario.ruler_tolerance_mm
    attacker_elevated = levels_apart(diff, orange, tol)
    target_elevated = levels_apart(-diff, orange, tol)
    if not (attacker_elevated or target_elevated):
        if abs(diff) > LENGTH_EPSILON_MM:
            pair = {"attacker": attacker_id, "target": target_id}
            values = _elevation_values(scenario, diff, orange)
            reasons.append(Reason("elevation.elevated", "neither", {**pair, **values}))
        return ShotContext(excluded=excluded, out_of_sight=out_of_sight, reasons=tuple(reasons))
    values = _elevation_values(scenario, diff, orange)
    high, low = (ma, mt) if attacker_elevated else (mt, ma)
    reasons.append(Reason("elevation.elevated", "yes", {"high": high.id, "low": low.id, **values}))
    elevated_kind = _elevated_kinds(board, ma, mt, excluded, reasons)
    los_edges, cover_edges = _edges_between(
        scenario, (ma, mt), (high, low), target_elevated, reasons
    )
    cover_within = None
    if attacker_elevated:
        cover_within = orange  # within Orange: thresholds.within_ruler (cover.near_target)
        shooter = {"attacker": attacker_id, "target": target_id, "orange": _r(scenario, orange)}
        reasons.append(Reason("elevation.shooter-cover", "applies", {**shooter, "unit": unit}))
    return ShotContext(
        attacker_elevated=attacker_elevated,
        target_elevated=target_elevated,
        excluded=excluded,
        out_of_sight=out_of_sight,
        elevated_kind=elevated_kind,
        los_edges=los_edges,
        cover_edges=cover_edges,
        cover_within=cover_within,
        reasons=tuple(reasons),
    )


def _elevation_values(scenario: Scenario, diff: float, orange: float) -> dict[str, Any]:
    """What ``elevation.elevated``'s reasons say: the height difference and Orange (in the
    scenario's units)."""
    return {
        "difference": _r(scenario, abs(diff)),
        "orange": _r(scenario, orange),
        "unit": scenario.units,
    }


def _standing_on(
    scenario: Scenario, model_ids: tuple[str, str], reasons: list[Reason]
) -> tuple[frozenset[str], frozenset[str]]:
    """``elevation.standing-on``: the pieces the two models stand on, left out of the shot
    (:func:`standing_exclusions`), each model's told."""
    board = scenario.board
    unders = [pieces_under(scenario, mid) for mid in model_ids]
    for mid, under in zip(model_ids, unders, strict=True):
        if under:
            top = board.terrain[under[0]]
            values: dict[str, Any] = {"model": mid, "piece": top.id, "pieces": list(under)}
            if top.height is not None and top.height > 0.0:
                values.update(height=_r(scenario, top.height), unit=scenario.units)
                reasons.append(Reason("elevation.standing-on", "", values))
            else:  # a crate gives no cover (cover.line's desk), a building blocks nothing
                key = "no-height-cover" if top.kind == "cover" else "no-height"
                reasons.append(Reason("elevation.standing-on", key, values))
    return _exclusions(board, unders)


def _elevated_kinds(
    board: Board,
    ma: ModelGeometry,
    mt: ModelGeometry,
    excluded: frozenset[str],
    reasons: list[Reason],
) -> dict[str, str]:
    """``elevation.terrain-variant``: the ``elevated:`` kind of every piece that has one (the
    pieces stood on excepted); the reasons name those near the pair."""
    elevated_kind: dict[str, str] = {}
    for tid in board.terrain_ids:
        t = board.terrain[tid]
        if t.elevated is not None and tid not in excluded:
            elevated_kind[tid] = t.elevated
    if elevated_kind:
        pair = LineString([ma.disc.center, mt.disc.center])
        reach = max(ma.disc.r, mt.disc.r)
        for tid, kind in elevated_kind.items():
            t = board.terrain[tid]
            if t.polygon.distance(pair) <= reach + LENGTH_EPSILON_MM:
                values = {"piece": tid, "kind": kind, "usual": t.kind}
                reasons.append(Reason("elevation.terrain-variant", "", values))
    return elevated_kind


def _edges_between(
    scenario: Scenario,
    pair: tuple[ModelGeometry, ModelGeometry],
    high_low: tuple[ModelGeometry, ModelGeometry],
    target_elevated: bool,
    reasons: list[Reason],
) -> tuple[tuple[SignificantEdge, ...], tuple[SignificantEdge, ...]]:
    """The Significant Edges between the two levels (of the higher and the lower model), near
    the pair (attacker, target): those beyond Orange of the higher model block line of sight
    (``elevation.edge-blocks-los``); those within it give an Elevated target cover
    (``elevation.edge-cover``). ``(los_edges, cover_edges)``, every part; the reasons name
    each edge (piece and side) once per verdict, at its part nearest the higher model."""
    board = scenario.board
    edges = significant_edges(board)
    if not edges:
        return (), ()
    orange, tol = orange_mm(scenario), scenario.ruler_tolerance_mm
    (ma, mt), (high, low) = pair, high_low
    los_edges: list[SignificantEdge] = []
    cover_edges: list[SignificantEdge] = []
    arrs = _edge_arrays(board)
    hd = high.disc
    eps = LENGTH_EPSILON_MM
    between = (arrs.top > low.elevation + eps) & (arrs.top <= high.elevation + eps)
    pa, pt = (ma.disc.x, ma.disc.y, ma.disc.r), (mt.disc.x, mt.disc.y, mt.disc.r)
    near = _near_pair(arrs, pa, pt)
    dist = _disc_edge_distances(arrs, hd.x, hd.y, hd.r)
    # One reason per named edge (piece and side) and verdict: a piece's many parts facing one
    # way (a star's points) are said once, at the part nearest the Elevated model.
    said: dict[tuple[str, str, str, str], tuple[float, SignificantEdge]] = {}
    for i in np.flatnonzero(between & near):
        e = edges[int(i)]
        d = float(dist[i])
        if not within_ruler(d, orange, tol):
            los_edges.append(e)
            verdict = ("elevation.edge-blocks-los", "far")
        elif target_elevated:
            cover_edges.append(e)
            verdict = ("elevation.edge-cover", "near")
        else:
            verdict = ("elevation.edge-blocks-los", "near")
        name = (*verdict, e.terrain, e.side)
        if name not in said or d < said[name][0]:
            said[name] = (d, e)
    for (clause, key, _, _), (d, e) in said.items():
        values = {
            "model": high.id,
            "piece": e.terrain,
            "side": e.side,
            "distance": _r(scenario, d),
            "orange": _r(scenario, orange),
            "top": _r(scenario, e.top),
            "bottom": _r(scenario, e.bottom),
            "unit": scenario.units,
        }
        reasons.append(Reason(clause, key, values))
    return tuple(los_edges), tuple(cover_edges)


def distance_to_piece(scenario: Scenario, model_id: str, piece_id: str) -> float:
    """Edge-to-edge distance (mm) from a model's base to a terrain piece or another model's base.

    0 when they touch or overlap. Used for ``elevation.shooter-cover`` ("within Orange of the
    target" means ``distance_to_piece(...) <= Orange``, exactly Orange included).
    """
    board = scenario.board
    _require_model(scenario, model_id)
    d = board.models[model_id].disc
    if piece_id in board.models:
        return max(0.0, d.gap(board.models[piece_id].disc))
    if piece_id not in board.terrain:
        scenario.terrain_piece(piece_id)  # raises UnknownIdError
    poly = board.terrain[piece_id].polygon
    return max(0.0, float(poly.distance(Point(d.x, d.y))) - d.r)
