"""A knife-edge call's distance label takes part in the label placer: on the notebook's board
built to be close (tests/../notebooks/scenarios/knife-edge-gap.yaml) and on the rulebook's
close calls, in English and German, no two labels overlap, the distance label covers no base
and lies inside the axes, and it stays near its arrow."""

from __future__ import annotations

import math
from itertools import combinations
from pathlib import Path

import matplotlib
import pytest

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import base_discs, label_boxes

matplotlib.use("Agg")

GAP = Path(__file__).resolve().parents[1] / "notebooks" / "scenarios" / "knife-edge-gap.yaml"
BOARDS = [
    ("gap", "gunner", "raider"),
    ("cover-example-1", "knight", "brute"),
    ("melee-shoot-into-hidden", "minuteman", "raider"),
]


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("example", "attacker", "target"), BOARDS)
def test_knife_edge_distance_label_is_placed_clear_of_other_labels(
    example: str, attacker: str, target: str, lang: str
) -> None:
    s = fwwrules.load(GAP if example == "gap" else fwwrules.example_path(example))
    r = fwwrules.ruling(s, attacker, target)
    assert r.margin is not None and r.margin.knife_edge
    ax = new_axes(DEFAULT_STYLE.figsize, DEFAULT_STYLE.dpi, DEFAULT_STYLE.margins)
    artists = draw_board(s, ax, ruling=r, lang=lang, margin=True)
    ax.figure.canvas.draw()
    boxes = label_boxes(artists)
    distance = [(t, b) for t, b in boxes if t.get_gid() == "knife-edge:distance"]
    assert len(distance) == 1, "the distance label is not among the placed labels"
    label, box = distance[0]
    assert "mm" in label.get_text()
    for (ta, a), (tb, b) in combinations(boxes, 2):
        assert not _overlap(a, b), (ta.get_text(), tb.get_text())
    for x, y, rad in base_discs(artists):
        nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
        assert math.hypot(nx - x, ny - y) >= rad - 0.5, "the distance label covers a base"
    frame = ax.bbox
    assert frame.x0 <= box[0] and box[2] <= frame.x1 and frame.y0 <= box[1] and box[3] <= frame.y1
    start, tip = artists.state["margin_arrow"]
    (sx, sy), (ex, ey) = ax.transData.transform([start, tip])
    mx, my = (sx + ex) / 2, (sy + ey) / 2
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    near = 6 * max(box[2] - box[0], box[3] - box[1])
    assert math.hypot(cx - mx, cy - my) <= near, "the distance label strays from its arrow"
