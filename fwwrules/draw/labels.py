"""Placing a board's labels so that every one stays readable.

:func:`place_labels` moves every visible label of a board (the Armor-die numbers, model
names, cover modifiers, range-ring names, notes such as "ignored", the slide's notes and where
its contact breaks, the blocked fan's note, terrain names) to the first good place among
candidates around what it labels, inside the Axes:

* never over a base, a marker (crossing, graze, where contact breaks), the scale bar or a
  label placed before it (*hard* obstacles); the scale bar itself goes first to a corner
  clear of terrain and bases (:func:`place_scale_bar`);
* never across the edge of a piece that blocks line of sight (a wall, a building) where any
  other candidate is free: a label box over a wall's edge makes the wall look gapped, as if
  the line of sight could pass there, which is worse than a label lying on one of the
  ruling's lines;
* where such a place exists nearby, not over a drawn line either (the lines of sight and
  cover, the fan, engagement links, the slide's path, Significant Edges, the outlines the
  ruling highlights, the other pieces' edges, the free attacks' arrows): a place across one of
  the ruling's lines is taken only when every free candidate crosses one, a place across an
  outline only when no place clear of outlines is among the next :data:`LINE_PENALTY`
  candidates;
* a terrain name sits inside its piece only when it fits inside the piece's outline, else
  beside the piece.

Every label has an opaque white box (see :class:`~fwwrules.draw.board.BoardStyle`), so one
that must lie on a hatch, on dark terrain or across a line stays readable. Labels are placed
in priority order. A label with no free place becomes a small numbered marker near what it
labels (searched over the whole board, never over anything), and its text goes to the key
beside or below the board ("1: Building", :func:`fwwrules.draw.layout.show_key`).

Boxes are measured in display pixels with the figure's renderer, so the result holds for the
figure as drawn (and is checked the same way: :func:`label_boxes`); positions are kept in data
coordinates, so the picture saved at another resolution keeps every gap.

Boundary cases: a figure without a renderer (no canvas that can draw) is left as it is; a
hidden label is neither placed nor an obstacle; text that is empty is hidden; a label whose gid
starts with ``fixed:`` is not moved (an obstacle for the others).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import BoxStyle
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

from .artists import label_box
from .layout import Measures, font_key, renderer_key, renderer_of, show_key, text_width
from .text import draw_word

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.patches import Patch
    from matplotlib.path import Path

    from .artists import BoardArtists

PAD_PX = 2.0
"""Room kept around every label box, in display pixels at 100 dpi (scaled with the dpi)."""

LINE_PENALTY = 12
"""How many candidates further a place clear of lines may be before a place across a line
is taken instead."""

_PADDED_BOXES = (BoxStyle.Round, BoxStyle.Square, BoxStyle.Round4)
"""Background boxes that are the text's box padded on every side (corners inside)."""

Rect = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in display pixels."""
Disc = tuple[float, float, float]
"""``(x, y, r)`` in display pixels."""
Segment = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in display pixels."""


def _renderer(artists: BoardArtists) -> Any:
    return renderer_of(artists.figure)


def _rect(b: Bbox, pad: float = 0.0) -> Rect:
    return (b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad)


BASE_RINGS = "base_rings"
"""``artists.state`` key: ``{model id: (gap_mm, width_pt)}``, the bases drawn with a ring
round them (the board editor's selection ring, ``gap_mm`` outside the base's edge and
``width_pt`` wide). Labels treat such a ring as part of its base: none covers it, and the
model's name is placed outside it."""


def base_discs(artists: BoardArtists) -> list[Disc]:
    """Every visible base as ``(x, y, r)`` in display pixels (with its ring, when it has
    one: :data:`BASE_RINGS`)."""
    return [
        disc
        for mid, base in artists.bases.items()
        if base.get_visible() and (disc := _base_disc(artists, mid)) is not None
    ]


def _base_disc(artists: BoardArtists, model_id: str) -> Disc | None:
    """The base of ``model_id`` as ``(x, y, r)`` in display pixels, grown by its ring
    (:data:`BASE_RINGS`: the gap in mm and half the ring's width in points); None for a
    model without a base."""
    memo: dict[str, Disc | None] | None = artists.state.get("base_discs")
    if memo is not None and model_id in memo:  # placing: nothing moves but the labels
        return memo[model_id]
    base = artists.bases.get(model_id)
    if base is None:
        return None
    cx, cy = base.center
    r = base.get_radius()
    ring = artists.state.get(BASE_RINGS, {}).get(model_id)
    gap_mm, width_pt = ring if ring is not None else (0.0, 0.0)
    (px, py), (ex, _) = artists.ax.transData.transform([(cx, cy), (cx + r + gap_mm, cy)])
    disc = (float(px), float(py), float(ex - px) + width_pt / 2 * artists.figure.dpi / 72.0)
    if memo is not None:
        memo[model_id] = disc
    return disc


def marker_discs(artists: BoardArtists) -> list[Disc]:
    """Every drawn marker (crossing, graze, where contact breaks, a knife-edge call's pinch
    point) as a disc in display px."""
    out: list[Disc] = []
    fig = artists.figure
    star = (artists.state.get("margin_artists") or (None,))[0]  # a knife-edge call's pinch
    for line in (artists.crossing_points, artists.graze_points, artists.slide_breaks, star):
        if line is None or not line.get_visible():
            continue
        r = (line.get_markersize() + line.get_markeredgewidth()) * fig.dpi / 72.0 / 2.0
        xy = np.asarray(line.get_xydata(), dtype=float)
        xy = xy[~np.isnan(xy).any(axis=1)]
        if len(xy):
            for px, py in line.get_transform().transform(xy):
                out.append((float(px), float(py), r))
    return out


def ruling_lines(artists: BoardArtists) -> list[Line2D]:
    """The lines that carry the answer: sight, cover, the blocked fan, the crossings,
    engagement links, the slide's path."""
    return [
        artists.sight,
        artists.loc,
        artists.fan,
        artists.crossings,
        artists.engagements,
        artists.slide_path,
    ]


def outline_lines(artists: BoardArtists) -> list[Line2D]:
    """The lines along pieces' outlines: Significant Edges and the outlines a ruling
    highlights (blockers, cover, grazes, ignored pieces)."""
    return [artists.edges, artists.cover_outline, artists.blockers, artists.grazes, artists.ignored]


def line_segments(artists: BoardArtists, *, outlines: bool = True) -> list[Segment]:
    """The drawn lines a label should keep clear of, as segments in display pixels: the
    ruling's lines and the free attacks' arrows, and with ``outlines`` the outlines too."""
    lines = ruling_lines(artists) + (outline_lines(artists) if outlines else [])
    out: list[Segment] = []
    for line in lines:
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        a, b = xy[:-1], xy[1:]
        ok = ~(np.isnan(a).any(axis=1) | np.isnan(b).any(axis=1))
        out += [(*p, *q) for p, q in zip(a[ok].tolist(), b[ok].tolist(), strict=True)]
    for arrow in artists.free_attacks:
        if arrow.get_visible():
            out.append(_arrow_segment(arrow))
    move = artists.state.get("margin_arrow")  # a knife-edge call's move, when shown
    if move is not None:
        (x0, y0), (x1, y1) = artists.ax.transData.transform(move)
        out.append((float(x0), float(y0), float(x1), float(y1)))
    return out


def terrain_edges(artists: BoardArtists, *, blocking: bool | None = None) -> list[Segment]:
    """Every drawn terrain piece's outline as segments in display pixels: a label box lying
    across one cuts the piece in two in the picture (a wall seemed to have a gap), so
    labels keep clear of them. With ``blocking`` True only the pieces whose kind blocks line
    of sight (:data:`~fwwrules.terrain.BLOCKS_LOS`: walls, buildings, dense woods), with
    False only the others, with None every piece. A kind's patch drawn hidden gives none."""
    from ..terrain import BLOCKS_LOS

    return _patch_edges(
        patch
        for kind, patch in artists.terrain.items()
        if blocking is None or (kind in BLOCKS_LOS) == blocking
    )


def ring_edges(artists: BoardArtists) -> list[Segment]:
    """The drawn range rings as segments in display pixels (the scale bar keeps clear of
    them; a label does not: a ring's name sits on its ring)."""
    return _patch_edges(artists.bands.values())


def _patch_edges(patches: Iterable[Patch]) -> list[Segment]:
    """The outlines of the visible ``patches`` (curves flattened) as segments in display
    pixels; a hidden patch gives none."""
    out: list[Segment] = []
    for patch in patches:
        if not patch.get_visible():
            continue
        path = patch.get_path().transformed(patch.get_transform())
        for ring in path.to_polygons(closed_only=False):
            pts = np.asarray(ring, dtype=float)
            out += [tuple(row) for row in np.hstack([pts[:-1], pts[1:]]).tolist()]
    return out


def table_edges(artists: BoardArtists) -> list[Segment]:
    """The table's outline as four segments in display pixels (no label lies across it)."""
    table = artists.table
    if table is None or not table.get_visible():
        return []
    x, y = table.get_xy()
    w, h = table.get_width(), table.get_height()
    corners = artists.ax.transData.transform([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
    pts = [(float(px), float(py)) for px, py in corners]
    return [(*pts[i], *pts[(i + 1) % 4]) for i in range(4)]


def _arrow_segment(arrow: Annotation) -> Segment:
    to_px = arrow.axes.transData if arrow.axes is not None else arrow.get_transform()
    (x0, y0), (x1, y1) = to_px.transform([arrow.get_position(), arrow.xy])
    return (float(x0), float(y0), float(x1), float(y1))


def ruling_labels(artists: BoardArtists) -> list[Text]:
    """The labels that carry a ruling's answer, in placing order: the Armor-die numbers, the
    cover modifiers, where contact breaks, the slide's and the blocked fan's notes, the
    ignored pieces' notes, the range rings' names and a knife-edge call's distance. They are
    few and always offered a place (never counted against :data:`LABEL_ROOM_PT2`)."""
    margin = artists.state.get("margin_artists")
    return [
        *artists.numbers,
        *artists.cover_labels,
        *artists.slide_break_labels,
        artists.slide_label,
        artists.fan_label,
        *artists.ignored_labels,
        *artists.band_labels.values(),
        *(() if margin is None else (margin[2],)),
    ]


def name_labels(artists: BoardArtists) -> list[Text]:
    """The names on the board, in placing order: the models a ruling names (attacker, then
    target), the other models in file order, then the terrain pieces."""
    drawn = artists.state.get("drawn") or {}
    first = [
        getattr(drawn.get(key), attr, None)
        for key, attr in (("ruling", "attacker"), ("ruling", "target"), ("slide", "model"))
    ]
    named = [artists.labels[m] for m in dict.fromkeys(first) if m in artists.labels]
    seen = {id(t) for t in named}
    named += [t for t in artists.labels.values() if id(t) not in seen]
    return [*named, *artists.terrain_labels.values()]


def board_labels(artists: BoardArtists) -> list[Text]:
    """Every label of the board in placing order (first placed, first served): the ruling's
    labels, the names, then the numbered markers."""
    return [*ruling_labels(artists), *name_labels(artists), *artists.state.get("markers", [])]


def label_boxes(artists: BoardArtists) -> list[tuple[Text, Rect]]:
    """Each visible, non-empty label with its box in display pixels (as drawn)."""
    renderer = _renderer(artists)
    out = []
    for t in board_labels(artists):
        if t.get_visible() and t.get_text():
            out.append((t, _rect(_text_bbox(t, renderer))))
    return out


def text_rect(t: Text, renderer: Any) -> Rect:
    """The label's box as drawn (its background included), in display pixels."""
    return _rect(_text_bbox(t, renderer))


def _text_bbox(t: Text, renderer: Any) -> Bbox:
    """The text's box including its background patch, if any.

    An unrotated round or square background box is the text's box padded by the style's
    ``pad`` (in units of the font size) on every side, its corners inside; a circle (the
    numbered markers) is the circle round that padded box. Both are computed directly,
    because measuring the patch's path (Bezier curves) costs more than the rest of placing a
    label. Any other box (another style, a rotated text) is measured.
    """
    box = t.get_window_extent(renderer)
    patch = t.get_bbox_patch()
    if patch is None:
        return box
    style = patch.get_boxstyle()
    if isinstance(style, (*_PADDED_BOXES, BoxStyle.Circle)) and not t.get_rotation():
        pad = float(style.pad) * float(renderer.points_to_pixels(t.get_fontsize()))
        x0, y0, x1, y1 = box.x0 - pad, box.y0 - pad, box.x1 + pad, box.y1 + pad
        if isinstance(style, BoxStyle.Circle):  # the circle round the padded box's centre
            cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) / 2
            x0, y0, x1, y1 = cx - r, cy - r, cx + r, cy + r
        return Bbox.from_extents(x0, y0, x1, y1)
    t.update_bbox_position_size(renderer)
    return Bbox.union([box, patch.get_window_extent(renderer)])


# --- candidates ---------------------------------------------------------------------------------


def _owner_disc(t: Text, artists: BoardArtists) -> Disc | None:
    """The base a label names (model names and Armor-die numbers), in display pixels, with
    its ring when it has one (:data:`BASE_RINGS`: the name goes outside the ring). While
    :func:`place_labels` runs (nothing moves but the labels) each label's is worked out once:
    its candidates, its leader and the view test all ask for it."""
    memo: dict[int, Disc | None] | None = artists.state.get("owner_discs")
    if memo is not None and id(t) in memo:
        return memo[id(t)]
    found: Disc | None = None
    owner = t.get_gid() or ""
    for prefix in ("model:", "numbers:"):
        if owner.startswith(prefix):
            base = artists.bases.get(owner[len(prefix) :])
            if base is not None and base.get_visible():
                found = _base_disc(artists, owner[len(prefix) :])
                break
    if memo is not None:
        memo[id(t)] = found
    return found


_RINGS = [
    (k, math.cos(a), math.sin(a))
    for k in (1, 2, 3, 4)
    for a in (i * math.pi / 8 for i in range(16))
]
"""The rings of :func:`_around`: ring number, cosine and sine of each of 16 directions."""


def _around(
    x: float, y: float, w: float, h: float, rx: float, ry: float, gap: float
) -> list[tuple[float, float]]:
    """Centres around a box of half-size ``rx`` x ``ry`` at (x, y): sides, corners, further
    out, then rings."""
    dy = ry + h / 2 + gap
    dx = rx + w / 2 + gap
    first = [(x, y - dy), (x, y + dy), (x + dx, y), (x - dx, y)]
    # Still touching the box above or below, shifted sideways (beside the board's edge).
    shift = max(w / 2 - rx / 2, 0.0)
    first += [(x - shift, y - dy), (x + shift, y - dy), (x - shift, y + dy), (x + shift, y + dy)]
    diag = [(x + dx, y - dy), (x - dx, y - dy), (x + dx, y + dy), (x - dx, y + dy)]
    far = [(x, y - dy - h - gap), (x, y + dy + h + gap), (x + dx + w / 2, y), (x - dx - w / 2, y)]
    rings = [(x + (dx + k * w / 2) * c, y + (dy + k * h) * s) for k, c, s in _RINGS]
    return first + diag + far + rings


def _candidates(
    t: Text, artists: BoardArtists, w: float, h: float, anchor: tuple[float, float], gap: float
) -> list[tuple[float, float]]:
    """Centres (display px) to try for a label of size w x h that labels ``anchor``."""
    x, y = anchor
    disc = _owner_disc(t, artists)
    if disc is not None:
        return _around(disc[0], disc[1], w, h, disc[2], disc[2], gap)
    piece = artists.state.get("terrain_label_of", {}).get(id(t))
    if piece is not None:
        return _terrain_candidates(artists, piece, w, h, gap)
    return [(x, y), *_around(x, y, w, h, 0.0, 0.0, gap)]


def _terrain_candidates(
    artists: BoardArtists, outline: Sequence[tuple[float, float]], w: float, h: float, gap: float
) -> list[tuple[float, float]]:
    """A terrain name: at the middle of the piece when the label fits inside its outline,
    then around the piece's box (so that a small piece is not hidden under its name)."""
    from shapely.geometry import Polygon, box

    pts = artists.ax.transData.transform(np.asarray(outline, dtype=float))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    out: list[tuple[float, float]] = []
    poly = Polygon(pts) if w < x1 - x0 and h < y1 - y0 else None  # else it cannot fit inside
    if poly is not None and poly.is_valid and not poly.is_empty:
        p = poly.representative_point()
        cx, cy = float(p.x), float(p.y)
        for x, y in [(cx, cy), (float(poly.centroid.x), float(poly.centroid.y))]:
            if poly.contains(box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)):
                out.append((x, y))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return out + _around(float(cx), float(cy), w, h, (x1 - x0) / 2, (y1 - y0) / 2, gap)


# --- placing ------------------------------------------------------------------------------------

MAX_MARKERS = 40
"""Most numbered markers on one board: past them (a board of hundreds of pieces) a label that
finds no place is counted in the key's last line instead ("+ 412 more labels not shown")."""

MAX_KEY_ENTRIES = 24
"""Most entries of the key (labels of the same text share one entry and one number)."""

LABEL_ROOM_PT2 = 1400.0
"""The room one label takes on the board, in square points (a box of about 40 x 11 pt and
the room around it): a board of ``A`` square points is offered at most ``A /
LABEL_ROOM_PT2`` labels (about 150 on a panel's board), in placing order; the rest are
counted in the key's last line unmeasured. A board that crowded cannot show more labels
than that readably, and each label tried costs a few milliseconds."""


FEW_ITEMS = 64
""":func:`_crosses` tests more than this many segments against the boxes' common box first."""


class _Index:
    """The boxes of numbered items (display pixels, rows ``x0, y0, x1, y1``): which items a
    box meets.

    :meth:`near` answers with every item whose box meets the given box (edges included): a
    superset of the items the box's exact tests can find, never missing one, so those tests
    run on the items near a label's candidates only. One vectorised comparison over the
    boxes (a crowded board has a few hundred, a board of hundreds of pieces a few thousand)
    costs less than walking a grid of buckets in Python. An item whose box is not finite is
    never near anything.
    """

    def __init__(self, boxes: np.ndarray[Any, Any] | None = None) -> None:
        rows = np.zeros((0, 4)) if boxes is None else np.asarray(boxes, dtype=float)
        self._boxes = np.zeros((max(16, len(rows)), 4))
        self.n = 0
        self.extend(rows)

    def extend(self, rows: np.ndarray[Any, Any]) -> None:
        """Items ``n``, ``n + 1``, ... with the boxes ``rows``."""
        rows = np.asarray(rows, dtype=float).reshape(-1, 4)
        while self.n + len(rows) > len(self._boxes):
            self._boxes = np.concatenate([self._boxes, np.zeros_like(self._boxes)])
        part = self._boxes[self.n : self.n + len(rows)]
        part[:] = rows
        part[~np.isfinite(rows).all(axis=1)] = np.nan  # NaN compares false: never near
        self.n += len(rows)

    def near(self, x0: float, y0: float, x1: float, y1: float) -> np.ndarray[Any, Any]:
        b = self._boxes[: self.n]
        return np.flatnonzero((b[:, 2] >= x0) & (b[:, 0] <= x1) & (b[:, 3] >= y0) & (b[:, 1] <= y1))


def _segment_boxes(seg: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    return np.column_stack(
        [
            np.minimum(seg[:, 0], seg[:, 2]),
            np.minimum(seg[:, 1], seg[:, 3]),
            np.maximum(seg[:, 0], seg[:, 2]),
            np.maximum(seg[:, 1], seg[:, 3]),
        ]
    ).reshape(-1, 4)


class _Obstacles:
    """What a label must not cover (bases, markers, boxes placed so far) and the lines it
    should keep clear of, in display pixels, each kind filed in an :class:`_Index`: a label's
    exact tests run on what lies near its candidates only."""

    def __init__(
        self,
        axes_box: Rect,
        discs: Sequence[Disc],
        major: Sequence[Segment] = (),
        minor: Sequence[Segment] = (),
        hard: Sequence[Segment] = (),
        blocking: Sequence[Segment] = (),
    ) -> None:
        """``discs`` are never covered, ``hard`` lines never crossed (the table's edge);
        ``blocking`` lines (the edges of pieces that block line of sight) are crossed only
        when every free place crosses one, ``major`` lines (the ruling's) only when every
        free place clear of blocking lines crosses one, ``minor`` ones (outlines) when no
        place clear of them is near (:data:`LINE_PENALTY`)."""
        self.axes_box = axes_box
        self.discs = np.asarray(discs, dtype=float).reshape(-1, 3)
        x, y, r = self.discs[:, 0], self.discs[:, 1], self.discs[:, 2]
        self.disc_index = _Index(np.column_stack([x - r, y - r, x + r, y + r]))
        self._boxes = np.zeros((16, 4))
        self.n_boxes = 0
        self.box_index = _Index()
        self.free: _FreeRaster | None = None
        self.major = np.asarray(major, dtype=float).reshape(-1, 4)
        self.minor = np.asarray(minor, dtype=float).reshape(-1, 4)
        self.major_index = _Index(_segment_boxes(self.major))
        self.minor_index = _Index(_segment_boxes(self.minor))
        self.hard = np.asarray(hard, dtype=float).reshape(-1, 4)
        self.blocking = np.asarray(blocking, dtype=float).reshape(-1, 4)
        self.blocking_index = _Index(_segment_boxes(self.blocking))

    @classmethod
    def of_board(
        cls, artists: BoardArtists, renderer: Any, *, scale_bar: bool = True
    ) -> _Obstacles:
        """A board's: its bases and markers, the scale bar (unless ``scale_bar`` is false:
        :func:`place_scale_bar` places it with these obstacles first), the ruling's lines
        (major), the outlines and the edges of pieces that do not block line of sight
        (minor), the edges of those that do (blocking) and the table's edge (hard)."""
        major = line_segments(artists, outlines=False)
        blocking = terrain_edges(artists, blocking=True)
        seen = set(major) | set(blocking)
        minor = dict.fromkeys(line_segments(artists) + terrain_edges(artists, blocking=False))
        obstacles = cls(
            _rect(artists.ax.get_window_extent(renderer)),
            base_discs(artists) + marker_discs(artists),
            major,
            [s for s in minor if s not in seen],
            table_edges(artists),
            blocking,
        )
        if scale_bar:
            obstacles.add_scale_bar(artists, renderer)
        return obstacles

    def add_scale_bar(self, artists: BoardArtists, renderer: Any) -> None:
        """The scale bar's box, where it is now (when drawn), as a hard obstacle."""
        bar = getattr(artists.ax, "_fwwrules_scale_bar", None)
        if bar is not None and bar.get_visible():
            self.add_box(_rect(bar.get_window_extent(renderer)))

    def crosses_major(self, box: Rect, extra: np.ndarray[Any, Any] | None = None) -> bool:
        """Whether ``box`` (display px) lies across one of the ruling's lines (found through
        the index, as for a label) or one of the ``extra`` segments (rows ``x0, y0, x1,
        y1``); a line that only touches the box's edge does not count."""
        near = self.major[self.major_index.near(*box)]
        if extra is not None and len(extra):
            near = np.vstack([near, extra])
        if not len(near):
            return False
        x0, y0, x1, y1 = (np.asarray([v], dtype=float) for v in box)
        return bool(_crosses(x0, y0, x1, y1, near)[0])

    def add_line(self, segment: Segment) -> None:
        """A line drawn after the index was made (a label's leader): later labels keep
        clear of it as of the ruling's lines."""
        self.major = np.vstack([self.major, np.asarray(segment, dtype=float)[None, :]])
        self.major_index.extend(_segment_boxes(self.major[-1:]))

    @property
    def boxes(self) -> np.ndarray[Any, Any]:
        """The boxes placed so far (and the scale bar), rows ``x0, y0, x1, y1``."""
        return self._boxes[: self.n_boxes]

    def add_box(self, box: Rect) -> None:
        if self.n_boxes == len(self._boxes):
            self._boxes = np.concatenate([self._boxes, np.zeros_like(self._boxes)])
        self._boxes[self.n_boxes] = box
        self.box_index.extend(np.asarray(box, dtype=float))
        self.n_boxes += 1
        if self.free is not None:
            self.free.take(box)

    def add(self, x: float, y: float, w: float, h: float) -> None:
        self.add_box((x - w / 2, y - h / 2, x + w / 2, y + h / 2))

    def best(
        self,
        candidates: Iterable[tuple[float, float]],
        w: float,
        h: float,
        owner: Disc | None = None,
    ) -> tuple[float, float] | None:
        """The first candidate centre whose box lies in the Axes and covers no hard obstacle,
        preferring one clear of lines (see :data:`LINE_PENALTY`) and, for the name of the
        base ``owner``, one whose leader would not pass through another base; the
        candidates are tried at once (numpy) against the obstacles the index finds near
        them."""
        cands = np.asarray(list(candidates), dtype=float).reshape(-1, 2)
        if len(cands) == 0:
            return None
        x0, y0 = cands[:, 0] - w / 2, cands[:, 1] - h / 2
        x1, y1 = cands[:, 0] + w / 2, cands[:, 1] + h / 2
        ab = self.axes_box
        ok = ~((x0 < ab[0]) | (y0 < ab[1]) | (x1 > ab[2]) | (y1 > ab[3]))
        if len(self.hard) and ok.any():  # never across the table's edge
            ok &= ~_crosses(x0, y0, x1, y1, self.hard)
        if not ok.any():
            return None
        region = (
            float(x0[ok].min()),
            float(y0[ok].min()),
            float(x1[ok].max()),
            float(y1[ok].max()),
        )
        d = self.discs[self.disc_index.near(*region)]
        if len(d):
            cx, cy, radius = d[None, :, 0], d[None, :, 1], d[None, :, 2]
            nx = np.minimum(np.maximum(cx, x0[:, None]), x1[:, None])
            ny = np.minimum(np.maximum(cy, y0[:, None]), y1[:, None])
            ok &= ~(np.hypot(nx - cx, ny - cy) < radius).any(axis=1)
        b = self.boxes[self.box_index.near(*region)]
        if len(b) and ok.any():
            ok &= ~(
                (x0[:, None] < b[None, :, 2])
                & (b[None, :, 0] < x1[:, None])
                & (y0[:, None] < b[None, :, 3])
                & (b[None, :, 1] < y1[:, None])
            ).any(axis=1)
        free = np.flatnonzero(ok)
        if len(free) == 0:
            return None
        score = self._line_score(free, cands, x0, y0, x1, y1, region)
        if owner is not None:
            box = (x0[free], y0[free], x1[free], y1[free])
            score += self._through_bases(owner, *box) * len(cands)
        k = int(free[int(np.argmin(score))])
        return (float(cands[k, 0]), float(cands[k, 1]))

    def _through_bases(
        self,
        owner: Disc,
        x0: np.ndarray[Any, Any],
        y0: np.ndarray[Any, Any],
        x1: np.ndarray[Any, Any],
        y1: np.ndarray[Any, Any],
    ) -> np.ndarray[Any, Any]:
        """For each box, whether the line from ``owner``'s centre to the box's nearest point
        (where its leader runs, :func:`leader`) passes through another base: a reader would
        take the name for that base's. A line that only touches a base (a base in contact
        with ``owner``) does not count. Weighted as a ruling line in :meth:`best`."""
        ox, oy, _r = owner
        nx, ny = np.clip(ox, x0, x1), np.clip(oy, y0, y1)
        region = (
            min(ox, float(nx.min())),
            min(oy, float(ny.min())),
            max(ox, float(nx.max())),
            max(oy, float(ny.max())),
        )
        d = self.discs[self.disc_index.near(*region)]
        d = d[~(d == np.asarray(owner)).all(axis=1)]
        if not len(d):
            return np.zeros(len(x0), dtype=bool)
        dx, dy = (nx - ox)[:, None], (ny - oy)[:, None]
        cx, cy, radius = d[None, :, 0] - ox, d[None, :, 1] - oy, d[None, :, 2]
        length2 = dx * dx + dy * dy
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(length2 > 0, (cx * dx + cy * dy) / length2, 0.0)
        t = np.clip(t, 0.0, 1.0)
        through: np.ndarray[Any, Any] = (np.hypot(t * dx - cx, t * dy - cy) < radius).any(axis=1)
        return through

    def _line_score(
        self,
        free: np.ndarray[Any, Any],
        cands: np.ndarray[Any, Any],
        x0: np.ndarray[Any, Any],
        y0: np.ndarray[Any, Any],
        x1: np.ndarray[Any, Any],
        y1: np.ndarray[Any, Any],
        region: Rect,
    ) -> np.ndarray[Any, Any]:
        """The score of each free candidate (lowest wins): its rank, plus the number of
        candidates when it crosses one of the ruling's lines, plus twice that when it crosses
        a blocking piece's edge (so any place clear of those wins, however far), plus
        :data:`LINE_PENALTY` when it crosses an outline (only among those near the best)."""
        score = free.astype(float)
        major, blocking, minor = (
            lines[index.near(*region)]
            for lines, index in (
                (self.major, self.major_index),
                (self.blocking, self.blocking_index),
                (self.minor, self.minor_index),
            )
        )
        if not (len(major) or len(blocking) or len(minor)):
            return score
        fx0, fy0, fx1, fy1 = x0[free], y0[free], x1[free], y1[free]
        on_major, on_blocking, on_minor = _crosses_each(
            fx0, fy0, fx1, fy1, [major, blocking, minor]
        )
        score += on_major * len(cands) + on_blocking * (2 * len(cands))
        if len(minor):
            near = score <= score.min() + LINE_PENALTY
            score[near] += on_minor[near] * LINE_PENALTY
            score[~near] = np.inf
        return score

    def anywhere(
        self, w: float, h: float, anchor: tuple[float, float]
    ) -> tuple[float, float] | None:
        """The free place for a box of ``w`` x ``h`` nearest to ``anchor`` over the whole
        board (a numbered marker's last resort), found on :class:`_FreeRaster` and then
        tested exactly like any candidate."""
        if self.free is None:
            self.free = _FreeRaster(self, max(2.0, min(w, h) / 4))
        return self.best(self.free.spots(w, h, anchor), w, h)


class _FreeRaster:
    """The board as a raster of cells, each marked taken when a hard obstacle (a base, a
    marker, a placed box) meets it; a box whose cells are all free meets no hard obstacle,
    so free places over the whole board are found with one summed-area table instead of
    testing thousands of places against every obstacle."""

    def __init__(self, obstacles: _Obstacles, cell: float) -> None:
        ab = obstacles.axes_box
        self.x0, self.y0, self.cell = ab[0], ab[1], cell
        nx = max(1, math.ceil((ab[2] - ab[0]) / cell))
        ny = max(1, math.ceil((ab[3] - ab[1]) / cell))
        self.taken = np.zeros((ny, nx), dtype=bool)
        cx = self.x0 + (np.arange(nx) + 0.5) * cell
        cy = self.y0 + (np.arange(ny) + 0.5) * cell
        half = cell / 2
        for x, y, r in obstacles.discs.tolist():
            cols = slice(*self._cells(x - r, x + r, nx, self.x0))
            rows = slice(*self._cells(y - r, y + r, ny, self.y0))
            dx = np.maximum(np.abs(cx[cols] - x) - half, 0.0)
            dy = np.maximum(np.abs(cy[rows] - y) - half, 0.0)
            self.taken[rows, cols] |= np.hypot(dx[None, :], dy[:, None]) < r
        for box in obstacles.boxes.tolist():
            self.take(box)

    def _cells(self, lo: float, hi: float, n: int, origin: float) -> tuple[int, int]:
        a = min(max(math.floor((lo - origin) / self.cell), 0), n)
        b = min(max(math.ceil((hi - origin) / self.cell), 0), n)
        return a, b

    def take(self, box: Rect) -> None:
        ny, nx = self.taken.shape
        c0, c1 = self._cells(box[0], box[2], nx, self.x0)
        r0, r1 = self._cells(box[1], box[3], ny, self.y0)
        self.taken[r0:r1, c0:c1] = True

    def spots(
        self, w: float, h: float, anchor: tuple[float, float], most: int = 64
    ) -> list[tuple[float, float]]:
        """Centres of up to ``most`` free boxes of ``w`` x ``h``, nearest to ``anchor`` first."""
        kw, kh = math.ceil(w / self.cell), math.ceil(h / self.cell)
        ny, nx = self.taken.shape
        if kw > nx or kh > ny:
            return []
        sat = np.zeros((ny + 1, nx + 1), dtype=np.int32)
        sat[1:, 1:] = self.taken.cumsum(axis=0).cumsum(axis=1)
        window = sat[kh:, kw:] - sat[:-kh, kw:] - sat[kh:, :-kw] + sat[:-kh, :-kw]
        rows, cols = np.nonzero(window == 0)
        if not len(rows):
            return []
        px = self.x0 + cols * self.cell + kw * self.cell / 2
        py = self.y0 + rows * self.cell + kh * self.cell / 2
        dist = np.hypot(px - anchor[0], py - anchor[1])
        order = np.argsort(dist, kind="stable")[:most]
        return [(float(px[k]), float(py[k])) for k in order]


def _crosses(
    x0: np.ndarray[Any, Any],
    y0: np.ndarray[Any, Any],
    x1: np.ndarray[Any, Any],
    y1: np.ndarray[Any, Any],
    seg: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """For each box, whether any segment passes through its inside (Liang-Barsky, at once on
    every pair of a box and a segment whose bounding boxes overlap: no other pair can cross)."""
    return _crosses_each(x0, y0, x1, y1, [seg])[0]


def _crosses_each(
    x0: np.ndarray[Any, Any],
    y0: np.ndarray[Any, Any],
    x1: np.ndarray[Any, Any],
    y1: np.ndarray[Any, Any],
    groups: Sequence[np.ndarray[Any, Any]],
) -> list[np.ndarray[Any, Any]]:
    """:func:`_crosses` for each group of segments (rows ``x0, y0, x1, y1``), in one pass
    over the pairs of every group (a label's candidates meet the ruling's lines, the blocking
    edges and the outlines at once)."""
    seg = np.concatenate([np.asarray(g, dtype=float).reshape(-1, 4) for g in groups])
    group = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    lo_x = np.minimum(seg[:, 0], seg[:, 2])
    hi_x = np.maximum(seg[:, 0], seg[:, 2])
    lo_y = np.minimum(seg[:, 1], seg[:, 3])
    hi_y = np.maximum(seg[:, 1], seg[:, 3])
    if len(seg) > FEW_ITEMS:  # first the segments near the boxes at all
        near = (hi_x > x0.min()) & (lo_x < x1.max()) & (hi_y > y0.min()) & (lo_y < y1.max())
        seg, group = seg[near], group[near]
        lo_x, hi_x, lo_y, hi_y = lo_x[near], hi_x[near], lo_y[near], hi_y[near]
    meets = (  # a box and a segment whose boxes overlap (only these can cross)
        (hi_x[None, :] > x0[:, None])
        & (lo_x[None, :] < x1[:, None])
        & (hi_y[None, :] > y0[:, None])
        & (lo_y[None, :] < y1[:, None])
    )
    box, k = np.nonzero(meets)  # Liang-Barsky on those pairs alone
    crossed: np.ndarray[Any, Any] = np.zeros((len(groups), len(x0)), dtype=bool)
    if len(box) == 0:
        return list(crossed)
    bx0, by0, bx1, by1 = x0[box], y0[box], x1[box], y1[box]
    sx, sy = seg[k, 0], seg[k, 1]
    dx, dy = seg[k, 2] - sx, seg[k, 3] - sy
    lo = np.zeros(len(box))
    hi = np.ones(len(box))
    inside = np.ones(len(box), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in ((-dx, sx - bx0), (dx, bx1 - sx), (-dy, sy - by0), (dy, by1 - sy)):
            t = q / p
            inside &= ~((p == 0) & (q <= 0))
            lo = np.where(p < 0, np.maximum(lo, t), lo)
            hi = np.where(p > 0, np.minimum(hi, t), hi)
    hit = inside & (hi - lo > 1e-9)
    crossed[group[k[hit]], box[hit]] = True
    return list(crossed)


SCALE_BAR_CORNERS: tuple[str, ...] = ("lower left", "lower right", "upper left", "upper right")
"""The scale bar's corners, the first preferred: those of the Axes, then (where every one of
them covers something or lies across the table's edge) those inside the table."""


def _covers(bar: Rect, paths: Sequence[Path], discs: Sequence[Disc]) -> int:
    """How many of ``paths`` (terrain, display px) and ``discs`` (bases) the scale bar's box
    ``bar`` (display px) touches; a path that encloses the box counts (the bar lies on it)."""
    box = Bbox.from_extents(*bar)
    hits = sum(bool(path.intersects_bbox(box, filled=True)) for path in paths)
    for x, y, r in discs:
        nx, ny = min(max(x, bar[0]), bar[2]), min(max(y, bar[1]), bar[3])
        hits += math.hypot(x - nx, y - ny) < r
    return hits


def _straddles(bar: Rect, table: Rect | None) -> bool:
    """Whether the box ``bar`` lies across an edge of the ``table`` box: partly inside it and
    partly outside (a box wholly inside or wholly outside does not; touching is not
    crossing)."""
    if table is None:
        return False
    meets = bar[0] < table[2] and table[0] < bar[2] and bar[1] < table[3] and table[1] < bar[3]
    inside = table[0] <= bar[0] and bar[2] <= table[2] and table[1] <= bar[1] and bar[3] <= table[3]
    return meets and not inside


def _table_box(artists: BoardArtists) -> tuple[Rect | None, Any]:
    """The table's box in display px and the same box as a transform-following anchor (for
    the scale bar), or ``(None, None)`` for a board drawn without its table."""
    from matplotlib.transforms import TransformedBbox

    table = artists.table
    if table is None or not table.get_visible():
        return None, None
    x, y = table.get_xy()
    box = Bbox.from_bounds(x, y, table.get_width(), table.get_height())
    anchor = TransformedBbox(box, artists.ax.transData)
    return _rect(anchor.frozen()), anchor


def place_scale_bar(
    artists: BoardArtists, renderer: Any, obstacles: _Obstacles | None = None
) -> None:
    """Put the scale bar (when drawn) in the first corner of :data:`SCALE_BAR_CORNERS` where
    it covers no terrain and no base, lies across no edge of the table and no drawn line (the
    ruling's lines, as :func:`place_labels` finds them in ``obstacles``, made here when not
    given, and the range rings) and stays within the Axes; where every corner fails, in the
    one failing least (a covered piece weighs more than a crossed edge or line; ties: the
    earlier corner). A line that only touches the bar's box does not count. A zoomed view is
    placed anew by each layout."""
    from matplotlib.offsetbox import AnchoredOffsetbox

    bar = getattr(artists.ax, "_fwwrules_scale_bar", None)
    if bar is None or not bar.get_visible():
        return
    if obstacles is None:
        obstacles = _Obstacles.of_board(artists, renderer, scale_bar=False)
    rings = np.asarray(ring_edges(artists), dtype=float).reshape(-1, 4)
    paths = [
        p.get_path().transformed(p.get_transform())
        for p in artists.terrain.values()
        if p.get_visible()
    ]
    discs = base_discs(artists)
    table, on_table = _table_box(artists)
    view = _rect(artists.ax.bbox)
    places = [(c, None) for c in SCALE_BAR_CORNERS]
    places += [(c, on_table) for c in SCALE_BAR_CORNERS if on_table is not None]
    best: tuple[int, int] | None = None
    for i, (corner, anchor) in enumerate(places):
        bar.loc = AnchoredOffsetbox.codes[corner]
        bar.set_bbox_to_anchor(anchor)
        box = _rect(bar.get_window_extent(renderer))
        outside = not (
            view[0] <= box[0] and box[2] <= view[2] and view[1] <= box[1] and box[3] <= view[3]
        )
        hits = 2 * _covers(box, paths, discs) + _straddles(box, table) + 4 * outside
        hits += obstacles.crosses_major(box, rings)
        if hits == 0:
            return
        best = min(best or (hits, i), (hits, i))
    assert best is not None
    corner, anchor = places[best[1]]
    bar.loc = AnchoredOffsetbox.codes[corner]
    bar.set_bbox_to_anchor(anchor)


def place_labels(artists: BoardArtists) -> None:
    """Move every visible label to a good place (see the module's docstring).

    A label with no place becomes a numbered marker and a line of the key; labels of the same
    text share one number and one line ("one entry per kind": on a board of hundreds of
    pieces of three heights the key has three height lines). Past :data:`MAX_MARKERS`
    markers or :data:`MAX_KEY_ENTRIES` entries, what is left is counted in the key's last
    line ("+ 412 more labels not shown"), so a board of any size draws a bounded number of
    texts.
    """
    renderer = _renderer(artists)
    if renderer is None:
        return
    artists.state["owner_discs"] = {}  # each label's base, found once (_owner_disc)
    artists.state["base_discs"] = {}  # each base's disc, found once (_base_disc)
    try:
        _place_labels(artists, renderer)
    finally:
        del artists.state["owner_discs"]
        del artists.state["base_discs"]


def _place_labels(artists: BoardArtists, renderer: Any) -> None:
    for m in artists.state.get("markers", []):
        m.set_visible(False)
    for t in artists.state.pop("placed_out", []):  # placed again: maybe there is room now
        t.set_visible(True)
    pad = PAD_PX * artists.figure.dpi / 100.0
    obstacles = _Obstacles.of_board(artists, renderer, scale_bar=False)
    place_scale_bar(artists, renderer, obstacles)
    obstacles.add_scale_bar(artists, renderer)
    to_data = artists.ax.transData.inverted()
    key: dict[str, int] = {}
    counts: dict[str, int] = {}
    leaders: list[tuple[Text, Segment]] = []
    markers = 0
    pending, dropped = _pending(artists, obstacles, renderer, pad)
    for t, w, h, anchor_px in pending:
        cands = _candidates(t, artists, w, h, anchor_px, pad + 1.0)
        spot = obstacles.best(cands, w, h, _owner_disc(t, artists))
        if spot is not None:
            t.set_position(tuple(to_data.transform(spot)))
            obstacles.add(spot[0], spot[1], w, h)
            _lead(artists, obstacles, leaders, t, t, spot, w - 2 * pad, h - 2 * pad)
            continue
        _place_out(artists, t)
        text = t.get_text().replace("\n", ", ")
        number = key.get(text)
        if markers >= MAX_MARKERS or (number is None and len(key) >= MAX_KEY_ENTRIES):
            dropped += 1
            continue
        if number is None:
            number = key[text] = len(key) + 1
        counts[text] = counts.get(text, 0) + 1
        marker = _place_marker(artists, obstacles, markers, number, t, anchor_px, renderer, pad)
        if marker is not None:
            _lead(artists, obstacles, leaders, t, *marker)
        markers += 1
    artists.state["key_entries"] = dict(key)
    artists.state["key_counts"] = counts
    artists.state["key_dropped"] = dropped
    set_leaders(artists, leaders)
    _show_key(artists, key, dropped)


LEADER_GAP_PX = 8.0
"""A name whose box lies farther than this (display pixels at 100 dpi, scaled with the dpi)
from the base or piece it names is joined to it by a leader line."""


def _lead(
    artists: BoardArtists,
    obstacles: _Obstacles,
    leaders: list[tuple[Text, Segment]],
    named: Text,
    drawn: Text,
    spot: tuple[float, float],
    w: float,
    h: float,
) -> None:
    """Add the leader of ``drawn`` (the label ``named`` or its numbered marker), a box of
    ``w`` x ``h`` centred at ``spot``, when it lies away from what ``named`` names; later
    labels keep clear of the leader."""
    box = (spot[0] - w / 2, spot[1] - h / 2, spot[0] + w / 2, spot[1] + h / 2)
    segment = leader(artists, named, box, obstacles)
    if segment is not None:
        leaders.append((drawn, segment))
        obstacles.add_line(segment)


def leader(
    artists: BoardArtists, t: Text, box: Rect, obstacles: _Obstacles | None = None
) -> Segment | None:
    """The leader line (display pixels) from what ``t`` names (a base, or a terrain piece's
    outline) to the nearest point of ``box``, or None when ``t`` names nothing or the box
    lies within :data:`LEADER_GAP_PX` of it, and, for a base, no other base (of
    ``obstacles``) lies as near the box: a name between two bases says which is its own."""
    gap = LEADER_GAP_PX * artists.figure.dpi / 100.0
    disc = _owner_disc(t, artists)
    if disc is not None:
        x, y, r = disc
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        dist = math.hypot(nx - x, ny - y)
        if dist == 0.0:
            return None
        if dist - r <= gap and not _nearer_base(obstacles, box, (x, y, r), dist - r):
            return None
        return (x + (nx - x) * r / dist, y + (ny - y) * r / dist, nx, ny)
    outline = artists.state.get("terrain_label_of", {}).get(id(t))
    if outline is None:
        return None
    from shapely.geometry import Polygon
    from shapely.geometry import box as shapely_box
    from shapely.ops import nearest_points

    pts = artists.ax.transData.transform(np.asarray(outline, dtype=float))
    piece = Polygon(pts)
    if not piece.is_valid:
        piece = piece.buffer(0)
    label = shapely_box(*box)
    if piece.is_empty or piece.distance(label) <= gap:
        return None
    a, b = nearest_points(piece, label)
    return (float(a.x), float(a.y), float(b.x), float(b.y))


def _nearer_base(obstacles: _Obstacles | None, box: Rect, own: Disc, own_gap: float) -> bool:
    """Whether another base than ``own`` lies at most ``own_gap`` (plus a pixel) from
    ``box``: a reader could take the label for that base's."""
    if obstacles is None:
        return False
    found = obstacles.discs[obstacles.disc_index.near(*_grown(box, own_gap + 2.0))]
    for x, y, r in found.tolist():
        if (x, y, r) == own:
            continue
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        if math.hypot(nx - x, ny - y) - r <= own_gap + 1.0:
            return True
    return False


def _grown(box: Rect, by: float) -> Rect:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def set_leaders(artists: BoardArtists, leaders: Sequence[tuple[Text, Segment]]) -> None:
    """Draw ``leaders`` (each with the label it leads to, display pixels) as the board's
    leader line; each is kept in board millimetres with the base it starts from, so a drag
    can drop the leader of a base that moves (:func:`drop_moved_leaders`)."""
    line = artists.leaders
    if line is None:
        return
    to_data = artists.ax.transData.inverted()
    kept: list[tuple[str | None, tuple[float, float], list[tuple[float, float]], int]] = []
    for t, (x0, y0, x1, y1) in leaders:
        owner = (t.get_gid() or "").partition(":")[2] or None
        base = artists.bases.get(owner or "")
        centre = (float(base.center[0]), float(base.center[1])) if base is not None else (0, 0)
        a, b = to_data.transform([(x0, y0), (x1, y1)])
        kept.append((owner if base is not None else None, centre, [tuple(a), tuple(b)], id(t)))
    artists.state["leaders"] = kept
    _show_leaders(artists)


def drop_moved_leaders(artists: BoardArtists) -> None:
    """Hide the leaders of bases that moved since the labels were placed (a drag frame,
    where a moved model's name sits under its base until the drop places it again)."""
    kept = artists.state.get("leaders", [])
    still = [
        lead
        for lead in kept
        if lead[0] is None
        or (lead[0] in artists.bases and tuple(artists.bases[lead[0]].center) == lead[1])
    ]
    if len(still) != len(kept):
        artists.state["leaders"] = still
        _show_leaders(artists)


def _show_leaders(artists: BoardArtists) -> None:
    line = artists.leaders
    if line is None:
        return
    xs: list[float] = []
    ys: list[float] = []
    for _owner, _centre, ((x0, y0), (x1, y1)), _drawn in artists.state.get("leaders", []):
        xs += [x0, x1, math.nan]
        ys += [y0, y1, math.nan]
    line.set_data(xs, ys)
    line.set_visible(bool(xs))


def _pending(
    artists: BoardArtists, obstacles: _Obstacles, renderer: Any, pad: float
) -> tuple[list[tuple[Text, float, float, tuple[float, float]]], int]:
    """The labels to place, in placing order, each with its padded size (as estimated:
    :func:`label_size`) and its anchor in display pixels, and how many were left out: the
    ruling's labels always, the names as many as the board has room for
    (:data:`LABEL_ROOM_PT2`); fixed labels become obstacles, empty ones are hidden."""
    ax = artists.ax
    room = _room(obstacles.axes_box, artists.figure.dpi)
    pending: list[tuple[Text, float, float, tuple[float, float]]] = []
    dropped = int(artists.state.get("unlabelled", 0))
    names = 0
    ruling = {id(t) for t in ruling_labels(artists)}
    for t in [*ruling_labels(artists), *name_labels(artists)]:
        if not t.get_visible():
            continue
        if (t.get_gid() or "").startswith("fixed:"):
            if t.get_text():
                obstacles.add_box(_rect(_text_bbox(t, renderer), pad))
            continue
        if not t.get_text():
            t.set_visible(False)
            continue
        anchor = t.get_gid() and artists.state.get("anchors", {}).get(t.get_gid())
        t.set_horizontalalignment("center")
        t.set_verticalalignment("center")
        if anchor:
            t.set_position(anchor)
        ax_, ay_ = ax.transData.transform(t.get_position())
        if not _in_view(t, artists, (ax_, ay_), obstacles.axes_box):
            _place_out(artists, t)  # what it names is out of view (a zoomed panel): no label
            continue
        if id(t) not in ruling:
            if names >= room:
                _place_out(artists, t)
                dropped += 1
                continue
            names += 1
            if t.get_bbox_patch() is None:  # a name's box is made when it is first placed
                t.set_bbox(label_box(artists.style))
        size = _SIZES.get((*_look(t), renderer_key(renderer)), label_size, t, renderer)
        pending.append((t, size[0] + 2 * pad, size[1] + 2 * pad, (ax_, ay_)))
    return pending, dropped


def label_size(t: Text, renderer: Any) -> tuple[float, float]:
    """The size in display pixels of a centred label with its background box, at least as
    large as drawn and at most a few pixels larger: the widest line's width from the glyphs'
    advances (:func:`fwwrules.draw.layout.text_width`), the height of a text of as many
    lines measured once per font (lines of tall letters and descenders: ``Ég``), the box's
    padding as :func:`_text_bbox` adds it. A rotated label or one in another box is
    measured as drawn."""
    patch = t.get_bbox_patch()
    style = None if patch is None else patch.get_boxstyle()
    text = t.get_text()
    if t.get_rotation() or (patch is not None and not isinstance(style, _PADDED_BOXES)):
        box = _text_bbox(t, renderer)
        return (box.width, box.height)
    lines = text.split("\n")
    width = max(text_width(line, t, renderer) for line in lines)
    height = _lines_height(len(lines), t, renderer)
    if isinstance(style, _PADDED_BOXES):
        pad = float(style.pad) * float(renderer.points_to_pixels(t.get_fontsize()))
        width, height = width + 2 * pad, height + 2 * pad
    return (width, height)


def _lines_height(n: int, like: Text, renderer: Any) -> float:
    """The height in display pixels of a text of ``n`` lines of tall letters with
    descenders, in ``like``'s font and line spacing (measured by matplotlib; its metrics
    cache answers every label after the first)."""
    probe = Text(
        text="\n".join(["Ég"] * n),
        fontproperties=like.get_fontproperties(),
        linespacing=like.get_linespacing(),
        parse_math=False,
    )
    fig = like.get_figure(root=True)
    if fig is not None:
        probe.set_figure(fig)
    return float(probe.get_window_extent(renderer).height)


def _place_out(artists: BoardArtists, t: Text) -> None:
    """Hide a label that placing leaves out (no room, out of view); the next placing shows
    it again first (a board laid out again for another view, :func:`~.board.set_view`,
    without :func:`~.board.update_board`, which shows every label itself)."""
    t.set_visible(False)
    artists.state.setdefault("placed_out", []).append(t)


def _in_view(t: Text, artists: BoardArtists, anchor: tuple[float, float], box: Rect) -> bool:
    """Whether what ``t`` names is in the board's box (display px): a base's centre, a piece
    of terrain's outline (any part of it), else the label's anchor. A zoomed panel labels
    only what it shows."""
    disc = _owner_disc(t, artists)
    if disc is not None:
        anchor = (disc[0], disc[1])
    else:
        piece = artists.state.get("terrain_label_of", {}).get(id(t))
        if piece is not None:
            pts = artists.ax.transData.transform(np.asarray(piece, dtype=float))
            (x0, y0), (x1, y1) = pts.min(axis=0), pts.max(axis=0)
            return bool(x0 <= box[2] and box[0] <= x1 and y0 <= box[3] and box[1] <= y1)
    return box[0] <= anchor[0] <= box[2] and box[1] <= anchor[1] <= box[3]


def _room(axes_box: Rect, dpi: float) -> int:
    """How many labels a board of ``axes_box`` (display pixels) is offered."""
    pt = 72.0 / dpi
    area = (axes_box[2] - axes_box[0]) * (axes_box[3] - axes_box[1]) * pt * pt
    return max(1, int(area / LABEL_ROOM_PT2))


def label_room(artists: BoardArtists) -> int:
    """How many labels the board is offered where its Axes is now (:data:`LABEL_ROOM_PT2`)."""
    fig = artists.figure
    box = artists.ax.get_position().transformed(fig.transFigure)
    return _room(_rect(box), fig.dpi)


def _look(t: Text) -> tuple[Any, ...]:
    """What a label's size depends on: its text, font (line spacing included), rotation
    and background box: labels of one look are one size, on every drawing."""
    patch = t.get_bbox_patch()
    box = None if patch is None else (type(patch.get_boxstyle()), str(patch.get_boxstyle()))
    return (t.get_text(), font_key(t), t.get_rotation(), box)


_SIZES = Measures()
"""Label sizes (:func:`label_size`) by look and renderer, kept across drawings."""


def _show_key(artists: BoardArtists, key: dict[str, int], dropped: int) -> None:
    """The key: one line per text that found no place (``"1: Building"``), then how many
    labels are not shown at all."""
    lang = str(artists.state.get("lang", "en"))
    lines = [f"{number}: {text}" for text, number in key.items()]
    if dropped:
        lines.append(draw_word("key-dropped", lang).format(n=dropped))
    show_key(artists.ax, lines, title=draw_word("key", lang), fontsize=artists.style.font_size)


def trim_key(artists: BoardArtists, overflow: Callable[[], float]) -> None:
    """Keep as many of the key's first entries as fit: ``overflow()`` says how many pixels
    the key reaches beyond its room (0 or less: it fits). The markers of the entries left
    out are hidden with their leaders, and their labels are counted in the key's last line
    ("+ 7 more labels not shown"). For a figure that must keep its size (a panel), whose key
    stays in the column beside the board, so the board's box never depends on the key."""
    state = artists.state
    entries = list(state.get("key_entries", {}).items())
    counts: dict[str, int] = state.get("key_counts", {})
    dropped = int(state.get("key_dropped", 0))

    def show(k: int) -> float:
        more = dropped + sum(counts.get(text, 0) for text, _number in entries[k:])
        _show_key(artists, dict(entries[:k]), more)
        return overflow()

    lo, hi = 0, len(entries)  # lo entries fit or none can; hi do not fit
    if show(hi) <= 0.0:
        return
    while hi - lo > 1:  # the most entries that fit, in a few layouts
        mid = (lo + hi) // 2
        if show(mid) <= 0.0:
            lo = mid
        else:
            hi = mid
    show(lo)
    gone = {str(number) for _text, number in entries[lo:]}
    hidden = set()
    for m in state.get("markers", []):
        if m.get_visible() and m.get_text() in gone:
            m.set_visible(False)
            hidden.add(id(m))
    state["leaders"] = [lead for lead in state.get("leaders", []) if lead[3] not in hidden]
    _show_leaders(artists)
    state["key_entries"] = dict(entries[:lo])
    state["key_dropped"] = dropped + sum(counts.get(text, 0) for text, _n in entries[lo:])


def _place_marker(
    artists: BoardArtists,
    obstacles: _Obstacles,
    index: int,
    number: int,
    t: Text,
    anchor_px: tuple[float, float],
    renderer: Any,
    pad: float,
) -> tuple[Text, tuple[float, float], float, float] | None:
    """The numbered marker of a label that found no place: near what it labels, searched
    over the whole board if need be (:meth:`_Obstacles.anywhere`); hidden (the key still
    lists it) only where the board has no free spot at all. Returns the marker, its centre
    and its size (display pixels) when it is drawn."""
    marker = _marker(artists, index, str(number), t)
    mbox = _text_bbox(marker, renderer)
    mw, mh = mbox.width + 2 * pad, mbox.height + 2 * pad
    cands = _candidates(t, artists, mw, mh, anchor_px, pad + 1.0)
    spot = obstacles.best(cands, mw, mh, _owner_disc(t, artists))
    spot = spot or obstacles.anywhere(mw, mh, anchor_px)
    if spot is None:
        marker.set_visible(False)
        return None
    marker.set_position(tuple(artists.ax.transData.inverted().transform(spot)))
    marker.set_gid(t.get_gid())
    obstacles.add(spot[0], spot[1], mw, mh)
    return marker, spot, mbox.width, mbox.height


def _marker(artists: BoardArtists, index: int, text: str, like: Text) -> Text:
    markers: list[Text] = artists.state.setdefault("markers", [])
    while len(markers) <= index:
        m = artists.ax.text(
            0, 0, "", fontsize=artists.style.font_size, ha="center", va="center", zorder=6,
            animated=bool(artists.state.get("animated")),
            bbox={"boxstyle": "circle,pad=0.15", "fc": "white", "ec": "#333333"},
        )  # fmt: skip
        markers.append(m)
    m = markers[index]
    m.set_text(text)
    m.set_color(like.get_color())
    m.set_visible(True)
    return m


def place_names(
    ax: Axes,
    names: Sequence[tuple[Text, Disc]],
    discs: Sequence[Disc],
    *,
    lines: Sequence[Segment] = (),
    outlines: Sequence[Segment] = (),
) -> tuple[int, list[Segment]]:
    """Place ``names`` (each with the disc it names, display pixels), in priority order,
    beside what they name as a board's names are placed: clear of every disc of ``discs``
    and of each other, inside the Axes, preferring places clear of ``lines`` and then of
    ``outlines``; as many as the Axes has room for (:data:`LABEL_ROOM_PT2`). A name with no
    place is hidden. For any drawing of discs with names (a Pathfinder grid's creatures, a
    side view). Returns how many names are hidden and the leader lines (display pixels) of
    names placed away from their disc (:func:`leader`'s rule; the caller draws them)."""
    fig = ax.get_figure(root=True)
    renderer = None if fig is None else renderer_of(fig)
    if fig is None or renderer is None:
        return 0, []
    dpi = float(fig.dpi)
    pad = PAD_PX * dpi / 100.0
    gap = LEADER_GAP_PX * dpi / 100.0
    axes_box = _rect(ax.get_window_extent(renderer))
    obstacles = _Obstacles(axes_box, discs, lines, outlines)
    to_data = ax.transData.inverted()
    room = _room(axes_box, dpi)
    hidden = 0
    leaders: list[Segment] = []
    for k, (t, (x, y, r)) in enumerate(names):
        if not t.get_visible() or not t.get_text():
            continue
        t.set_horizontalalignment("center")
        t.set_verticalalignment("center")
        w, h = (v + 2 * pad for v in label_size(t, renderer))
        around = _around(x, y, w, h, r, r, pad + 1.0)
        spot = None if k >= room else obstacles.best(around, w, h, (x, y, r))
        if spot is None:
            t.set_visible(False)
            hidden += 1
            continue
        t.set_position(tuple(to_data.transform(spot)))
        obstacles.add(spot[0], spot[1], w, h)
        half_w, half_h = w / 2 - pad, h / 2 - pad
        box = (spot[0] - half_w, spot[1] - half_h, spot[0] + half_w, spot[1] + half_h)
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        dist = math.hypot(nx - x, ny - y)
        if dist and (dist - r > gap or _nearer_base(obstacles, box, (x, y, r), dist - r)):
            segment = (x + (nx - x) * r / dist, y + (ny - y) * r / dist, nx, ny)
            leaders.append(segment)
            obstacles.add_line(segment)
    return hidden, leaders


def follow(artists: BoardArtists, texts: Sequence[Text]) -> None:
    """Move ``texts`` (labels of what has moved, as in an animation's frame: the moving
    model's name, the slide's note) to good places as :func:`place_labels` would, clear of
    every base where it is now, the markers and the other labels, which stay where they are."""
    renderer = _renderer(artists)
    if renderer is None:
        return
    pad = PAD_PX * artists.figure.dpi / 100.0
    obstacles = _Obstacles.of_board(artists, renderer)
    moving = {id(t) for t in texts}
    for t, r in label_boxes(artists):
        if id(t) not in moving:
            obstacles.add_box((r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad))
    to_data = artists.ax.transData.inverted()
    for t in texts:
        if not t.get_visible() or not t.get_text():
            continue
        anchor = t.get_gid() and artists.state.get("anchors", {}).get(t.get_gid())
        if anchor:
            t.set_position(anchor)
        size = _text_bbox(t, renderer)
        w, h = size.width + 2 * pad, size.height + 2 * pad
        x, y = artists.ax.transData.transform(t.get_position())
        cands = _candidates(t, artists, w, h, (x, y), pad + 1.0)
        spot = obstacles.best(cands, w, h, _owner_disc(t, artists))
        if spot is not None:
            t.set_position(tuple(to_data.transform(spot)))
            obstacles.add(spot[0], spot[1], w, h)
