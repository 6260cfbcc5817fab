"""What a reader of a picture would complain about, measured on the figure as drawn.

Only matplotlib's public API and the artists the drawing functions return are used, so the
same audit runs on any version of the drawing code. Boxes are measured with the figure's
renderer (display pixels) without writing a file.

* :func:`outside`: every text and legend that is not wholly inside the figure (cut off in a
  saved picture or a panel).
* :func:`board_overlaps`: a board's labels (model and terrain names, notes, badges, numbered
  discs, numbered markers) that overlap another label, a base, or a marker (crossing, graze,
  contact-break), or sit on terrain, a line or a hatch without a contrasting box.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from itertools import combinations, pairwise
from typing import Any

from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.offsetbox import AnchoredOffsetbox
from matplotlib.text import Text
from matplotlib.transforms import Bbox

Rect = tuple[float, float, float, float]
TOLERANCE_PX = 0.5
"""Half a pixel of antialiasing at an edge."""
OVERLAP_PX2 = 1.0
"""Two boxes sharing at most one square pixel (antialiasing) do not overlap."""
MIN_BOX_ALPHA = 0.85
"""A label's background box at least this opaque counts as a contrasting box."""


def renderer_of(fig: Figure) -> Any:
    return fig.canvas.get_renderer()  # type: ignore[attr-defined]


def _drawn(t: Text) -> bool:
    return bool(t.get_visible() and t.get_text().strip())


def text_box(t: Text, renderer: Any) -> Bbox:
    """The text with its background patch, as drawn."""
    box = t.get_window_extent(renderer)
    patch = t.get_bbox_patch()
    if patch is None:
        return box
    t.update_bbox_position_size(renderer)
    return Bbox.union([box, patch.get_window_extent(renderer)])


def _tick_labels(ax: Any, renderer: Any) -> Iterator[Text]:
    for axis in (ax.xaxis, ax.yaxis):
        if not axis.get_visible():
            continue
        lo, hi = sorted(axis.get_view_interval())
        for tick in axis.get_major_ticks() + axis.get_minor_ticks():
            if not tick.get_visible():
                continue
            loc = tick.get_loc()
            if loc is None or not (lo - 1e-9 <= loc <= hi + 1e-9):
                continue
            for label in (tick.label1, tick.label2):
                if _drawn(label):
                    yield label


def figure_texts(fig: Figure) -> Iterator[tuple[str, Any]]:
    """Every text and legend the figure draws, with a name for messages."""
    renderer = renderer_of(fig)
    for t in fig.texts:
        if _drawn(t):
            yield (f"figure text {t.get_text()!r}", t)
    for lg in fig.legends:
        if lg.get_visible():
            yield ("figure legend", lg)
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        # Axes are laid out (aspect, locator) before their parts are measured.
        ax.apply_aspect()
        for axis in (ax.xaxis, ax.yaxis):
            axis.get_tightbbox(renderer)  # places the axis label beside the tick labels
        for t in (ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label):
            if _drawn(t):
                yield (f"title/axis label {t.get_text()!r}", t)
        for t in _tick_labels(ax, renderer):
            yield (f"tick label {t.get_text()!r}", t)
        for t in ax.texts:
            if _drawn(t):
                yield (f"text {t.get_text()!r}", t)
        lg = ax.get_legend()
        if lg is not None and lg.get_visible():
            yield ("legend", lg)
        for a in ax.artists:
            if isinstance(a, AnchoredOffsetbox) and a.get_visible():
                yield ("scale bar", a)
            elif isinstance(a, Legend) and a.get_visible():
                yield ("key", a)


def extent(item: Any, renderer: Any) -> Bbox:
    if isinstance(item, Text):
        return text_box(item, renderer)
    if isinstance(item, Legend):
        return item.get_window_extent(renderer)
    return item.get_window_extent(renderer)


def outside(fig: Figure) -> list[str]:
    """Texts and legends not wholly inside the figure (they would be cut)."""
    renderer = renderer_of(fig)
    box = fig.bbox
    problems = []
    for name, item in figure_texts(fig):
        b = extent(item, renderer)
        if (
            b.x0 < box.x0 - TOLERANCE_PX
            or b.y0 < box.y0 - TOLERANCE_PX
            or b.x1 > box.x1 + TOLERANCE_PX
            or b.y1 > box.y1 + TOLERANCE_PX
        ):
            problems.append(
                f"{name} sticks out: [{b.x0:.0f}, {b.x1:.0f}]x[{b.y0:.0f}, {b.y1:.0f}] "
                f"beyond [{box.x0:.0f}, {box.x1:.0f}]x[{box.y0:.0f}, {box.y1:.0f}]"
            )
    return problems


def _rect(b: Bbox) -> Rect:
    return (b.x0, b.y0, b.x1, b.y1)


def overlap_area(a: Rect, b: Rect) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def _disc_hits(r: Rect, x: float, y: float, radius: float) -> bool:
    nx, ny = min(max(x, r[0]), r[2]), min(max(y, r[1]), r[3])
    return (nx - x) ** 2 + (ny - y) ** 2 < (radius - 1.0) ** 2


def blocks_overlaps(fig: Figure) -> list[str]:
    """The blocks beside and above the board (legends, title, the numbered key, captions,
    axis labels) must not overlap each other or the board's Axes."""
    renderer = renderer_of(fig)
    blocks: list[tuple[str, Rect]] = []
    for name, item in figure_texts(fig):
        if name.startswith(("text ", "tick label", "scale bar")):
            continue
        blocks.append((name, _rect(extent(item, renderer))))
    for ax in fig.axes:
        for t in ax.texts:  # texts placed outside the board (the numbered key)
            if _drawn(t) and t.get_transform() == ax.transAxes:
                blocks.append((f"key {t.get_text()[:20]!r}", _rect(text_box(t, renderer))))
        board = ax.get_window_extent(renderer)
        blocks.append(("board", _rect(board)))
    problems = []
    for (n1, b1), (n2, b2) in combinations(blocks, 2):
        if overlap_area(b1, b2) > OVERLAP_PX2:
            problems.append(f"{n1} overlaps {n2}")
    return problems


def marker_discs(line: Line2D | None, fig: Figure) -> list[tuple[float, float, float]]:
    """Every drawn marker of a markers-only line as ``(x, y, r)`` in display pixels."""
    if line is None or not line.get_visible():
        return []
    xs, ys = line.get_data()
    r = line.get_markersize() * fig.dpi / 72.0 / 2.0 + line.get_markeredgewidth() * fig.dpi / 144
    out = []
    for x, y in zip(xs, ys, strict=True):
        if x is None or y is None or math.isnan(float(x)) or math.isnan(float(y)):
            continue
        px, py = line.get_transform().transform((float(x), float(y)))
        out.append((float(px), float(py), r))
    return out


def _segments(line: Line2D) -> Iterator[tuple[tuple[float, float], tuple[float, float]]]:
    if not line.get_visible() or line.get_linestyle() in ("None", "none", " ", ""):
        return
    path = line.get_transform().transform(line.get_xydata())
    for (x0, y0), (x1, y1) in pairwise(path):
        if not any(math.isnan(v) for v in (x0, y0, x1, y1)):
            yield (float(x0), float(y0)), (float(x1), float(y1))


def segment_hits(r: Rect, a: tuple[float, float], b: tuple[float, float]) -> bool:
    """True when the segment passes through the inside of the rectangle (Liang-Barsky)."""
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    lo, hi = 0.0, 1.0
    for p, q in ((-dx, x0 - r[0]), (dx, r[2] - x0), (-dy, y0 - r[1]), (dy, r[3] - y0)):
        if p == 0:
            if q <= 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo >= hi:
            return False
    return hi - lo > 1e-9


def board_labels(art: Any) -> list[Text]:
    """The labels drawn on a board (everything written inside the board's Axes)."""
    ax = art.ax
    return [t for t in ax.texts if _drawn(t) and t.get_transform() != ax.transAxes]


def _box_alpha(t: Text) -> float:
    patch = t.get_bbox_patch()
    if patch is None or not patch.get_visible():
        return 0.0
    face = patch.get_facecolor()
    return float(face[3]) if face is not None else 0.0


def board_overlaps(art: Any, *, lines: Iterable[Line2D] = ()) -> list[str]:
    """A board's labels against each other, the bases and the markers; ``lines`` (the
    ruling's lines) must not pass under a label unless it has a contrasting box."""
    fig = art.figure
    renderer = renderer_of(fig)
    labels = [(t, _rect(text_box(t, renderer))) for t in board_labels(art)]
    problems = []
    for (t1, b1), (t2, b2) in combinations(labels, 2):
        if overlap_area(b1, b2) > OVERLAP_PX2:
            problems.append(f"label {t1.get_text()!r} overlaps label {t2.get_text()!r}")
    bases = []
    for mid, base in art.bases.items():
        if base.get_visible():
            cx, cy = base.center
            r = base.get_radius()
            (px, py), (ex, _) = art.ax.transData.transform([(cx, cy), (cx + r, cy)])
            bases.append((mid, float(px), float(py), float(ex - px)))
    bars = [
        _rect(a.get_window_extent(renderer))
        for a in art.ax.artists
        if isinstance(a, AnchoredOffsetbox) and a.get_visible()
    ]
    for t, b in labels:
        for bar in bars:
            if overlap_area(b, bar) > OVERLAP_PX2:
                problems.append(f"label {t.get_text()!r} overlaps the scale bar")
    markers = []
    for name in ("crossing_points", "graze_points", "slide_breaks"):
        for d in marker_discs(getattr(art, name, None), fig):
            markers.append((name, *d))
    for t, b in labels:
        gid = t.get_gid() or ""
        for mid, x, y, r in bases:
            if gid.startswith("fixed:") and _disc_hits(b, x, y, r):
                continue  # checked against other labels only; sits by the base it numbers
            if _disc_hits(b, x, y, r):
                problems.append(f"label {t.get_text()!r} overlaps the base of {mid}")
        for name, x, y, r in markers:
            if _disc_hits(b, x, y, r + 1.0):
                problems.append(f"label {t.get_text()!r} overlaps a marker ({name})")
        if _box_alpha(t) < MIN_BOX_ALPHA:
            crossing = [ln for ln in lines if any(segment_hits(b, p, q) for p, q in _segments(ln))]
            if crossing:
                problems.append(f"label {t.get_text()!r} lies on a line without a box")
    return problems


def unboxed_labels(art: Any) -> list[str]:
    """Labels without a contrasting (opaque enough, light) background box: on a hatch or dark
    terrain they would be unreadable."""
    out = []
    for t in board_labels(art):
        if _box_alpha(t) < MIN_BOX_ALPHA:
            out.append(f"label {t.get_text()!r} has no contrasting box")
    return out


def labels_across(art: Any, lines: Iterable[Line2D]) -> list[str]:
    """Labels that one of ``lines`` passes under (whatever their box)."""
    renderer = renderer_of(art.figure)
    segments = [seg for ln in lines for seg in _segments(ln)]
    out = []
    for t in board_labels(art):
        b = _rect(text_box(t, renderer))
        if any(segment_hits(b, p, q) for p, q in segments):
            out.append(f"label {t.get_text()!r} lies across a line of the ruling")
    return out


def grid_overlaps(art: Any) -> list[str]:
    """A grid picture: no two labels overlap, no label covers the chosen corner."""
    fig = art.figure
    renderer = renderer_of(fig)
    labels = [(t, _rect(text_box(t, renderer))) for t in art.labels.values() if _drawn(t)]
    problems = []
    for (t1, b1), (t2, b2) in combinations(labels, 2):
        if overlap_area(b1, b2) > OVERLAP_PX2:
            problems.append(f"label {t1.get_text()!r} overlaps label {t2.get_text()!r}")
    for t, b in labels:
        for x, y, r in marker_discs(art.corner, fig):
            if _disc_hits(b, x, y, r + 1.0):
                problems.append(f"label {t.get_text()!r} covers the chosen corner")
    return problems
