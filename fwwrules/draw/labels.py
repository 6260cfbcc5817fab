"""Placing a board's labels so that every one stays readable.

:func:`place_labels` moves every visible label of a board (the Armor-die numbers, model
names, cover modifiers, range-ring names, notes such as "ignored", the slide's notes and where
its contact breaks, the blocked fan's note, terrain names) to the first good place among
candidates around what it labels, inside the Axes:

* never over a base, a marker (crossing, graze, where contact breaks), the scale bar or a
  label placed before it (*hard* obstacles);
* where such a place exists nearby, not over a drawn line either (the lines of sight and
  cover, the fan, engagement links, the slide's path, Significant Edges, the outlines the
  ruling highlights, the free attacks' arrows): a place crossing a line is taken only when no
  place clear of lines is among the next :data:`LINE_PENALTY` candidates;
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
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import BoxStyle
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

from .layout import renderer_of, show_key
from .text import draw_word

if TYPE_CHECKING:
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


def base_discs(artists: BoardArtists) -> list[Disc]:
    """Every visible base as ``(x, y, r)`` in display pixels."""
    out = []
    to_px = artists.ax.transData
    for base in artists.bases.values():
        if not base.get_visible():
            continue
        cx, cy = base.center
        r = base.get_radius()
        (px, py), (ex, _) = to_px.transform([(cx, cy), (cx + r, cy)])
        out.append((float(px), float(py), float(ex - px)))
    return out


def marker_discs(artists: BoardArtists) -> list[Disc]:
    """Every drawn marker (crossing, graze, where contact breaks) as a disc in display px."""
    out: list[Disc] = []
    fig = artists.figure
    for line in (artists.crossing_points, artists.graze_points, artists.slide_breaks):
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
    return out


def _arrow_segment(arrow: Annotation) -> Segment:
    to_px = arrow.axes.transData if arrow.axes is not None else arrow.get_transform()
    (x0, y0), (x1, y1) = to_px.transform([arrow.get_position(), arrow.xy])
    return (float(x0), float(y0), float(x1), float(y1))


def board_labels(artists: BoardArtists) -> list[Text]:
    """Every label of the board in placing order (first placed, first served)."""
    texts: list[Text] = [
        *artists.numbers,
        *artists.labels.values(),
        *artists.cover_labels,
        *artists.slide_break_labels,
        artists.slide_label,
        artists.fan_label,
        *artists.ignored_labels,
        *artists.band_labels.values(),
        *artists.terrain_labels.values(),
    ]
    return [*texts, *artists.state.get("markers", [])]


def label_boxes(artists: BoardArtists) -> list[tuple[Text, Rect]]:
    """Each visible, non-empty label with its box in display pixels (as drawn)."""
    renderer = _renderer(artists)
    out = []
    for t in board_labels(artists):
        if t.get_visible() and t.get_text():
            out.append((t, _rect(_text_bbox(t, renderer))))
    return out


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
    """The base a label names (model names and Armor-die numbers), in display pixels."""
    owner = t.get_gid() or ""
    for prefix in ("model:", "numbers:"):
        if owner.startswith(prefix):
            base = artists.bases.get(owner[len(prefix) :])
            if base is not None and base.get_visible():
                cx, cy = base.center
                (px, py), (ex, _) = artists.ax.transData.transform(
                    [(cx, cy), (cx + base.get_radius(), cy)]
                )
                return (float(px), float(py), float(ex - px))
    return None


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
    rings = [
        (x + (dx + k * w / 2) * math.cos(a), y + (dy + k * h) * math.sin(a))
        for k in (1, 2, 3, 4)
        for a in (i * math.pi / 8 for i in range(16))
    ]
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
    poly = Polygon(pts)
    out: list[tuple[float, float]] = []
    if poly.is_valid and not poly.is_empty:
        p = poly.representative_point()
        cx, cy = float(p.x), float(p.y)
        for x, y in [(cx, cy), (float(poly.centroid.x), float(poly.centroid.y))]:
            if poly.contains(box(x - w / 2, y - h / 2, x + w / 2, y + h / 2)):
                out.append((x, y))
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return out + _around(float(cx), float(cy), w, h, (x1 - x0) / 2, (y1 - y0) / 2, gap)


def _everywhere(
    axes_box: Rect, w: float, h: float, anchor: tuple[float, float]
) -> list[tuple[float, float]]:
    """Centres on a grid over the whole board, nearest to ``anchor`` first (the numbered
    marker's last resort)."""
    step = max(min(w, h) / 2, 2.0)
    xs = np.arange(axes_box[0] + w / 2, axes_box[2] - w / 2 + 1e-9, step)
    ys = np.arange(axes_box[1] + h / 2, axes_box[3] - h / 2 + 1e-9, step)
    if not len(xs) or not len(ys):
        return []
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    order = np.argsort(np.hypot(pts[:, 0] - anchor[0], pts[:, 1] - anchor[1]), kind="stable")
    return [(float(px), float(py)) for px, py in pts[order]]


# --- placing ------------------------------------------------------------------------------------


class _Obstacles:
    """What a label must not cover (bases, markers, boxes placed so far) and the lines it
    should keep clear of, in display pixels."""

    def __init__(self, artists: BoardArtists, renderer: Any) -> None:
        self.axes_box = _rect(artists.ax.get_window_extent(renderer))
        self.discs = np.asarray(base_discs(artists) + marker_discs(artists), dtype=float).reshape(
            -1, 3
        )
        self.boxes: list[Rect] = []
        bar = getattr(artists.ax, "_fwwrules_scale_bar", None)
        if bar is not None and bar.get_visible():
            self.boxes.append(_rect(bar.get_window_extent(renderer)))
        self.major = np.asarray(line_segments(artists, outlines=False), dtype=float).reshape(-1, 4)
        outline_only = [s for s in line_segments(artists) if s not in set(map(tuple, self.major))]
        self.minor = np.asarray(outline_only, dtype=float).reshape(-1, 4)

    def add(self, x: float, y: float, w: float, h: float) -> None:
        self.boxes.append((x - w / 2, y - h / 2, x + w / 2, y + h / 2))

    def best(
        self, candidates: Iterable[tuple[float, float]], w: float, h: float
    ) -> tuple[float, float] | None:
        """The first candidate centre whose box lies in the Axes and covers no hard obstacle,
        preferring one clear of lines (see :data:`LINE_PENALTY`); all candidates are tried
        against all obstacles at once (numpy: a crowded board has hundreds of each)."""
        cands = np.asarray(list(candidates), dtype=float).reshape(-1, 2)
        if len(cands) == 0:
            return None
        x0, y0 = cands[:, 0] - w / 2, cands[:, 1] - h / 2
        x1, y1 = cands[:, 0] + w / 2, cands[:, 1] + h / 2
        ab = self.axes_box
        ok = ~((x0 < ab[0]) | (y0 < ab[1]) | (x1 > ab[2]) | (y1 > ab[3]))
        if len(self.discs) and ok.any():
            d = self.discs
            cx, cy, radius = d[None, :, 0], d[None, :, 1], d[None, :, 2]
            nx = np.minimum(np.maximum(cx, x0[:, None]), x1[:, None])
            ny = np.minimum(np.maximum(cy, y0[:, None]), y1[:, None])
            ok &= ~(np.hypot(nx - cx, ny - cy) < radius).any(axis=1)
        if self.boxes and ok.any():
            b = np.asarray(self.boxes, dtype=float)
            ok &= ~(
                (x0[:, None] < b[None, :, 2])
                & (b[None, :, 0] < x1[:, None])
                & (y0[:, None] < b[None, :, 3])
                & (b[None, :, 1] < y1[:, None])
            ).any(axis=1)
        free = np.flatnonzero(ok)
        if len(free) == 0:
            return None
        # A place across one of the ruling's lines only when no free place is clear of them;
        # across an outline only when no place clear of it is among the next LINE_PENALTY.
        score = free.astype(float)
        if len(self.major):
            crossed = _crosses(x0[free], y0[free], x1[free], y1[free], self.major)
            score += crossed * len(cands)
        if len(self.minor):
            best = score.min()
            near = score <= best + LINE_PENALTY
            crossed = _crosses(
                x0[free[near]], y0[free[near]], x1[free[near]], y1[free[near]], self.minor
            )
            score[near] += crossed * LINE_PENALTY
            score[~near] = np.inf
        k = int(free[int(np.argmin(score))])
        return (float(cands[k, 0]), float(cands[k, 1]))


def _crosses(
    x0: np.ndarray[Any, Any],
    y0: np.ndarray[Any, Any],
    x1: np.ndarray[Any, Any],
    y1: np.ndarray[Any, Any],
    seg: np.ndarray[Any, Any],
) -> np.ndarray[Any, Any]:
    """For each box, whether any segment passes through its inside (Liang-Barsky, all boxes
    against all segments at once)."""
    lo_x = np.minimum(seg[:, 0], seg[:, 2])
    hi_x = np.maximum(seg[:, 0], seg[:, 2])
    lo_y = np.minimum(seg[:, 1], seg[:, 3])
    hi_y = np.maximum(seg[:, 1], seg[:, 3])
    near = (hi_x > x0.min()) & (lo_x < x1.max()) & (hi_y > y0.min()) & (lo_y < y1.max())
    seg = seg[near]
    if len(seg) == 0:
        return np.zeros(len(x0), dtype=bool)
    sx, sy = seg[None, :, 0], seg[None, :, 1]
    dx, dy = seg[None, :, 2] - sx, seg[None, :, 3] - sy
    lo = np.zeros((len(x0), len(seg)))
    hi = np.ones((len(x0), len(seg)))
    inside = np.ones((len(x0), len(seg)), dtype=bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        for p, q in (
            (-dx, sx - x0[:, None]),
            (dx, x1[:, None] - sx),
            (-dy, sy - y0[:, None]),
            (dy, y1[:, None] - sy),
        ):
            p = np.broadcast_to(p, lo.shape)
            t = q / p
            inside &= ~((p == 0) & (q <= 0))
            lo = np.where(p < 0, np.maximum(lo, t), lo)
            hi = np.where(p > 0, np.minimum(hi, t), hi)
    crossed: np.ndarray[Any, Any] = np.asarray((inside & (hi - lo > 1e-9)).any(axis=1))
    return crossed


def place_labels(artists: BoardArtists) -> None:
    """Move every visible label to a good place (see the module's docstring)."""
    renderer = _renderer(artists)
    if renderer is None:
        return
    ax = artists.ax
    for m in artists.state.get("markers", []):
        m.set_visible(False)
    pad = PAD_PX * artists.figure.dpi / 100.0
    obstacles = _Obstacles(artists, renderer)
    to_data = ax.transData.inverted()
    pending: list[tuple[Text, float, float, tuple[float, float]]] = []
    for t in board_labels(artists):
        if t in artists.state.get("markers", []) or not t.get_visible():
            continue
        if (t.get_gid() or "").startswith("fixed:"):
            if t.get_text():
                b = _rect(_text_bbox(t, renderer), pad)
                obstacles.boxes.append(b)
            continue
        if not t.get_text():
            t.set_visible(False)
            continue
        anchor = t.get_gid() and artists.state.get("anchors", {}).get(t.get_gid())
        t.set_horizontalalignment("center")
        t.set_verticalalignment("center")
        if anchor:
            t.set_position(anchor)
        box = _text_bbox(t, renderer)
        ax_, ay_ = ax.transData.transform(t.get_position())
        pending.append((t, box.width + 2 * pad, box.height + 2 * pad, (ax_, ay_)))
    key_lines: list[str] = []
    for t, w, h, anchor_px in pending:
        cands = _candidates(t, artists, w, h, anchor_px, pad + 1.0)
        spot = obstacles.best(cands, w, h)
        if spot is None:
            key_lines.append(f"{len(key_lines) + 1}: {t.get_text()}".replace("\n", ", "))
            t.set_visible(False)
            _place_marker(artists, obstacles, len(key_lines), t, anchor_px, renderer, pad)
            continue
        t.set_position(tuple(to_data.transform(spot)))
        obstacles.add(spot[0], spot[1], w, h)
    style = artists.style
    show_key(
        ax,
        key_lines,
        title=draw_word("key", artists.state.get("lang", "en")),
        fontsize=style.font_size,
    )


def _place_marker(
    artists: BoardArtists,
    obstacles: _Obstacles,
    number: int,
    t: Text,
    anchor_px: tuple[float, float],
    renderer: Any,
    pad: float,
) -> None:
    """The numbered marker of a label that found no place: near what it labels, searched
    over the whole board if need be; hidden (the key still lists it) only where the board has
    no free spot at all."""
    marker = _marker(artists, number - 1, str(number), t)
    mbox = _text_bbox(marker, renderer)
    mw, mh = mbox.width + 2 * pad, mbox.height + 2 * pad
    cands = _candidates(t, artists, mw, mh, anchor_px, pad + 1.0)
    spot = obstacles.best(cands, mw, mh) or obstacles.best(
        _everywhere(obstacles.axes_box, mw, mh, anchor_px), mw, mh
    )
    if spot is None:
        marker.set_visible(False)
        return
    marker.set_position(tuple(artists.ax.transData.inverted().transform(spot)))
    obstacles.add(spot[0], spot[1], mw, mh)


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


def follow(artists: BoardArtists, texts: Sequence[Text]) -> None:
    """Move ``texts`` (labels of what has moved, as in an animation's frame: the moving
    model's name, the slide's note) to good places as :func:`place_labels` would, clear of
    every base where it is now, the markers and the other labels, which stay where they are."""
    renderer = _renderer(artists)
    if renderer is None:
        return
    pad = PAD_PX * artists.figure.dpi / 100.0
    obstacles = _Obstacles(artists, renderer)
    moving = {id(t) for t in texts}
    for t, r in label_boxes(artists):
        if id(t) not in moving:
            obstacles.boxes.append((r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad))
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
        spot = obstacles.best(_candidates(t, artists, w, h, (x, y), pad + 1.0), w, h)
        if spot is not None:
            t.set_position(tuple(to_data.transform(spot)))
            obstacles.add(spot[0], spot[1], w, h)
