"""Placing a board's labels so that they overlap neither each other nor any base.

:func:`place_labels` moves every visible label of a board (model names, terrain names, notes
such as "ignored", cover modifiers, range-ring names, Armor-die numbers, the slide's notes and
where its contact breaks, the blocked fan's note) to the first free place among a few
candidates around what it labels: inside the Axes, clear of every base and of every label
placed before it. Labels are placed in priority order (model names first). A label with no
free place becomes a small numbered marker at its first candidate, and its text goes to a
key beside the board ("1: Building").

Boxes are measured in display pixels with the figure's renderer, so the result holds for the
figure as drawn (and is checked the same way: :func:`label_boxes`).

Armor-die numbers (``melee.shoot-into``) sit on the base they pick (gid ``fixed:...``): they
are never moved, and the others keep clear of them.

Boundary cases: a figure without a renderer (no canvas that can draw) is left as it is; a
hidden label is neither placed nor an obstacle; text that is empty is hidden.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.patches import BoxStyle
from matplotlib.text import Text
from matplotlib.transforms import Bbox

if TYPE_CHECKING:
    from .board import BoardArtists

PAD_PX = 2.0
"""Room kept around every label box, in display pixels."""

_PADDED_BOXES = (BoxStyle.Round, BoxStyle.Square)
"""Background boxes that are the text's box padded on every side (corners inside)."""

Rect = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)`` in display pixels."""


def _renderer(artists: BoardArtists) -> Any:
    get = getattr(artists.figure.canvas, "get_renderer", None)
    return None if get is None else get()


def _rect(b: Bbox, pad: float = 0.0) -> Rect:
    return (b.x0 - pad, b.y0 - pad, b.x1 + pad, b.y1 + pad)


def _overlap(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits_circle(r: Rect, cx: float, cy: float, radius: float) -> bool:
    """True when the rectangle and the disc share more than a boundary point."""
    nx = min(max(cx, r[0]), r[2])
    ny = min(max(cy, r[1]), r[3])
    return math.hypot(nx - cx, ny - cy) < radius


def base_discs(artists: BoardArtists) -> list[tuple[float, float, float]]:
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


def board_labels(artists: BoardArtists) -> list[Text]:
    """Every label of the board in placing order (first placed, first served)."""
    texts: list[Text] = [
        *artists.labels.values(),
        *artists.numbers,
        *artists.cover_labels,
        *artists.band_labels.values(),
        *artists.ignored_labels,
        artists.slide_label,
        *artists.slide_break_labels,
        artists.fan_label,
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


def _candidates(
    t: Text, artists: BoardArtists, w: float, h: float, anchor: tuple[float, float]
) -> list[tuple[float, float]]:
    """Centres (display px) to try for a label of size w x h that labels ``anchor``."""
    x, y = anchor
    owner = t.get_gid() or ""
    radius = 0.0
    if owner.startswith("model:"):
        base = artists.bases.get(owner[6:])
        if base is not None:
            cx, cy = base.center
            (px, py), (ex, _) = artists.ax.transData.transform(
                [(cx, cy), (cx + base.get_radius(), cy)]
            )
            x, y, radius = float(px), float(py), float(ex - px)
    gap = PAD_PX + 1.0
    dy = radius + h / 2 + gap
    dx = radius + w / 2 + gap
    first = [(x, y - dy), (x, y + dy), (x + dx, y), (x - dx, y)]
    if radius == 0.0:
        first = [(x, y), *first]
    diag = [(x + dx, y - dy), (x - dx, y - dy), (x + dx, y + dy), (x - dx, y + dy)]
    far = [(x, y - dy - h - gap), (x, y + dy + h + gap), (x + dx + w / 2, y), (x - dx - w / 2, y)]
    # Then rings further out (a leader-free label still close to what it names).
    rings = [
        (x + (dx + k * w / 2) * math.cos(a), y + (dy + k * h) * math.sin(a))
        for k in (2, 3, 4)
        for a in (i * math.pi / 8 for i in range(16))
    ]
    return first + diag + far + rings


def place_labels(artists: BoardArtists) -> None:
    """Move every visible label to a free place (see the module's docstring)."""
    renderer = _renderer(artists)
    if renderer is None:
        return
    ax = artists.ax
    for m in artists.state.get("markers", []):
        m.set_visible(False)
    key_lines: list[str] = []
    axes_box = _rect(ax.get_window_extent(renderer))
    discs = base_discs(artists)
    placed: list[Rect] = []
    to_data = ax.transData.inverted()
    pending: list[tuple[Text, float, float, tuple[float, float]]] = []
    for t in board_labels(artists):
        if t in artists.state.get("markers", []):
            continue
        if not t.get_visible():
            continue
        if (t.get_gid() or "").startswith("fixed:"):
            if t.get_text():
                placed.append(_rect(_text_bbox(t, renderer), PAD_PX))
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
        pending.append((t, box.width + 2 * PAD_PX, box.height + 2 * PAD_PX, (ax_, ay_)))
    for t, w, h, anchor_px in pending:
        spot = _free_spot(_candidates(t, artists, w, h, anchor_px), w, h, axes_box, discs, placed)
        if spot is None:
            number = len(key_lines) + 1
            key_lines.append(f"{number}: {t.get_text()}".replace("\n", ", "))
            t.set_visible(False)
            marker = _marker(artists, len(key_lines) - 1, str(number), t)
            mbox = _text_bbox(marker, renderer)
            mw, mh = mbox.width + 2 * PAD_PX, mbox.height + 2 * PAD_PX
            cands = _candidates(t, artists, mw, mh, anchor_px)
            spot = _free_spot(cands, mw, mh, axes_box, discs, placed) or cands[0]
            marker.set_position(tuple(to_data.transform(spot)))
            placed.append((spot[0] - mw / 2, spot[1] - mh / 2, spot[0] + mw / 2, spot[1] + mh / 2))
            continue
        t.set_position(tuple(to_data.transform(spot)))
        placed.append((spot[0] - w / 2, spot[1] - h / 2, spot[0] + w / 2, spot[1] + h / 2))
    _show_key(artists, key_lines, renderer)


def _free_spot(
    candidates: Iterable[tuple[float, float]],
    w: float,
    h: float,
    axes_box: Rect,
    discs: Sequence[tuple[float, float, float]],
    placed: Sequence[Rect],
) -> tuple[float, float] | None:
    """The first candidate centre whose box lies in the Axes and meets no base and no label
    placed before (the same tests as :func:`_hits_circle` and :func:`_overlap`), tried for all
    candidates against all bases and boxes at once (numpy): a crowded board has hundreds of
    labels, bases and candidates."""
    cands = np.asarray(list(candidates), dtype=float).reshape(-1, 2)
    if len(cands) == 0:
        return None
    x0, y0 = cands[:, 0] - w / 2, cands[:, 1] - h / 2
    x1, y1 = cands[:, 0] + w / 2, cands[:, 1] + h / 2
    ok = ~((x0 < axes_box[0]) | (y0 < axes_box[1]) | (x1 > axes_box[2]) | (y1 > axes_box[3]))
    if len(discs) and ok.any():
        d = np.asarray(discs, dtype=float).reshape(-1, 3)
        cx, cy, radius = d[None, :, 0], d[None, :, 1], d[None, :, 2]
        nx = np.minimum(np.maximum(cx, x0[:, None]), x1[:, None])
        ny = np.minimum(np.maximum(cy, y0[:, None]), y1[:, None])
        ok &= ~(np.hypot(nx - cx, ny - cy) < radius).any(axis=1)
    if len(placed) and ok.any():
        b = np.asarray(placed, dtype=float).reshape(-1, 4)
        ok &= ~(
            (x0[:, None] < b[None, :, 2])
            & (b[None, :, 0] < x1[:, None])
            & (y0[:, None] < b[None, :, 3])
            & (b[None, :, 1] < y1[:, None])
        ).any(axis=1)
    hits = np.flatnonzero(ok)
    if len(hits) == 0:
        return None
    k = int(hits[0])
    return (float(cands[k, 0]), float(cands[k, 1]))


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


def _show_key(artists: BoardArtists, lines: list[str], renderer: Any) -> None:
    """The numbered labels' texts beside the board, under the legend."""
    key: Text | None = artists.state.get("key")
    if key is None:
        key = artists.ax.text(
            1.02, 0.0, "", transform=artists.ax.transAxes, fontsize=artists.style.font_size,
            ha="left", va="top", zorder=6, clip_on=False,
        )  # fmt: skip
        artists.state["key"] = key
    if not lines:
        key.set_visible(False)
        return
    top = 1.0
    leg = artists.legend
    if leg is not None:
        box = leg.get_window_extent(renderer).transformed(artists.ax.transAxes.inverted())
        top = box.y0 - 0.03
    key.set_position((1.02, top))
    key.set_text("\n".join(lines))
    key.set_visible(True)
