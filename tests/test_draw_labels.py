"""Board pictures on Agg, as a reader sees them: on every shipped example and on the crowded
benchmark board, no two labels overlap, no label covers a base, the legend lists exactly the
kinds drawn, and ignored pieces never wear the cover colour."""

from __future__ import annotations

import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import matplotlib
import pytest
from matplotlib.colors import to_hex

import fwwrules
from fwwrules.catalogue import side_name
from fwwrules.draw import draw_board, draw_word
from fwwrules.draw.board import BoardArtists
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import base_discs, label_boxes
from fwwrules.errors import FwwError
from fwwrules.scenario import Scenario

matplotlib.use("Agg")

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(
    p for p in fwwrules.examples_dir().glob("*.yaml") if not p.stem.startswith("grid")
) + sorted((REPO / "notebooks" / "scenarios").glob("*.yaml"))


def crowded() -> Scenario:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from _board import crowded_board
    finally:
        sys.path.pop(0)
    scenario: Scenario = crowded_board(heights=True)
    return scenario


def first_ruling(s: Scenario) -> Any:
    """A ruling between the first two models of different sides, when there is one."""
    for a in s.models:
        for b in s.models:
            if a.id != b.id and s.side_of(a.faction) != s.side_of(b.faction):
                try:
                    return fwwrules.ruling(s, a.id, b.id)
                except FwwError:
                    continue
    return None


def drawn(s: Scenario) -> BoardArtists:
    from fwwrules.draw import DEFAULT_STYLE as st

    ax = new_axes(st.figsize, st.dpi, st.margins)
    art = draw_board(s, ax, ruling=first_ruling(s))
    art.figure.canvas.draw()
    return art


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Overlap area of two boxes (px²)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return max(w, 0.0) * max(h, 0.0)


def check_labels(art: BoardArtists) -> list[str]:
    problems = []
    boxes = label_boxes(art)
    for (t1, b1), (t2, b2) in combinations(boxes, 2):
        if _overlap(b1, b2) > 1.0:  # more than a pixel of antialiasing
            problems.append(f"{t1.get_text()!r} overlaps {t2.get_text()!r}")
    for t, b in boxes:
        if (t.get_gid() or "").startswith("fixed:"):
            continue  # the Armor-die numbers mark the base they sit on
        for x, y, r in base_discs(art):
            nx, ny = min(max(x, b[0]), b[2]), min(max(y, b[1]), b[3])
            if (nx - x) ** 2 + (ny - y) ** 2 < (r - 1.0) ** 2:
                problems.append(f"{t.get_text()!r} covers a base at ({x:.0f}, {y:.0f})")
                break
    return problems


# What each overlay kind is drawn with, and the word the legend uses for it.
KINDS = {
    "los": lambda a: a.sight.get_visible(),
    "no-los": lambda a: a.fan.get_visible(),
    "loc": lambda a: a.loc.get_visible(),
    "crossed": lambda a: a.crossing_points.get_visible() or a.cover_outline.get_visible(),
    "grazed": lambda a: a.graze_points.get_visible() or a.grazes.get_visible(),
    "ignored": lambda a: a.ignored.get_visible(),
    "short-band": lambda a: a.bands["short"].get_visible(),
    "long-band": lambda a: a.bands["long"].get_visible(),
    "engaged": lambda a: a.engagements.get_visible(),
    "edge": lambda a: a.edges.get_visible(),
    "free-attack": lambda a: any(x.get_visible() for x in a.free_attacks),
    "into-melee": lambda a: any(x.get_visible() and x.get_text() for x in a.numbers),
}


def check_legend(art: BoardArtists, s: Scenario) -> list[str]:
    texts = art.legend_texts()
    problems = []
    for kind, shown in KINDS.items():
        word = draw_word(kind)
        listed = any(t == word or t.startswith(word + ":") for t in texts)
        if shown(art) and not listed:
            problems.append(f"{kind} is drawn but not in the legend")
        if listed and not shown(art):
            problems.append(f"{kind} is in the legend but not drawn")
    sides = {s.side_of(m.faction) for m in s.models if m.faction not in s.neutral}
    for side in sides:
        if f"{draw_word('side')}: {side_name(side)}" not in texts:
            problems.append(f"side {side} missing from the legend")
    kinds = {t.kind for t in s.terrain}
    for kind in kinds:
        if draw_word(kind) not in texts:
            problems.append(f"terrain kind {kind} missing from the legend")
    expected = len(KINDS) + len(sides) + len(kinds)
    extra = len(texts) - sum(1 for k in KINDS if KINDS[k](art)) - len(sides) - len(kinds)
    if extra:
        problems.append(f"{extra} legend entries of kinds not drawn ({texts}, {expected})")
    return problems


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_labels_clear_and_legend_exact(path: Path) -> None:
    s = fwwrules.load(path)
    art = drawn(s)
    assert not check_labels(art), check_labels(art)
    assert not check_legend(art, s), check_legend(art, s)
    for t in art.labels.values():
        assert t.get_fontsize() >= 9


def test_crowded_board_labels_clear_and_legend_exact() -> None:
    s = crowded()
    art = drawn(s)
    assert not check_labels(art), check_labels(art)
    assert not check_legend(art, s), check_legend(art, s)


def test_cover_shooter_contact_ignored_piece_colour_is_not_the_cover_colour() -> None:
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    r = fwwrules.ruling(s, "knight", "brute")
    assert any(i.source == "building" for i in r.ignored)
    art = drawn(s)
    art = draw_board(s, art.ax, ruling=r)
    assert art.ignored.get_visible()
    cover = to_hex(art.style.cover_colour)
    assert to_hex(art.ignored.get_color()) != cover
    # nothing of the building is drawn in the cover colour
    xs, ys = art.cover_outline.get_data()
    bx0, by0, bx1, by1 = s.board.terrain["building"].polygon.bounds
    inside = [
        (x, y)
        for x, y in zip(xs, ys, strict=True)
        if bx0 - 1e-6 <= x <= bx1 + 1e-6 and by0 - 1e-6 <= y <= by1 + 1e-6
    ]
    assert not inside, inside


def test_side_looks_follow_side_order_and_never_repeat_on_a_board() -> None:
    """Each side's colour and hatch follow its order on the board (issue 33: the first side
    blue, the second vermillion, ...), the same for every model of the side, and no two
    sides of one board share a look (the old per-id colours gave two sides of the editor
    magenta and pink)."""
    from fwwrules.draw.board import side_looks

    for path in EXAMPLES:
        s = fwwrules.load(path)
        art = drawn(s)
        looks: dict[str, set[tuple[str, str]]] = {}
        for m in s.models:
            if m.faction in s.neutral:
                continue
            base = art.bases[m.id]
            look = (to_hex(base.get_facecolor(), keep_alpha=False), base.get_hatch() or "")
            looks.setdefault(s.side_of(m.faction), set()).add(look)
        assert all(len(v) == 1 for v in looks.values()), (path.stem, looks)
        assert len({next(iter(v)) for v in looks.values()}) == len(looks), path.stem
        expected = {side: (to_hex(c), h) for side, (c, h) in side_looks(s).items()}
        assert {k: next(iter(v)) for k, v in looks.items()} == expected, path.stem


def test_label_box_computed_equals_the_measured_background_box() -> None:
    """Labels' boxes with a round or circular background are computed (text box + pad), not
    measured from the patch's path: on every example and the crowded board, the two agree."""
    from matplotlib.transforms import Bbox

    from fwwrules.draw.labels import _renderer, _text_bbox, board_labels

    checked = circles = 0
    for s in [*(fwwrules.load(p) for p in EXAMPLES), crowded()]:
        art = drawn(s)
        renderer = _renderer(art)
        for t in board_labels(art):
            if not (t.get_visible() and t.get_text()) or t.get_bbox_patch() is None:
                continue
            t.update_bbox_position_size(renderer)
            measured = Bbox.union(
                [t.get_window_extent(renderer), t.get_bbox_patch().get_window_extent(renderer)]
            )
            assert _text_bbox(t, renderer).bounds == pytest.approx(measured.bounds, abs=1e-6)
            checked += 1
            circles += t.get_bbox_patch().get_boxstyle().__class__.__name__ == "Circle"
    assert checked > 50
    assert circles > 5  # numbered markers


def test_a_model_name_keeps_clear_of_a_plain_terrain_edge_when_room_is_near() -> None:
    # cover example 4: "Super Mutant 1" lay across the forest's edge, which the ruling does
    # not highlight (only highlighted outlines were kept clear of); beside it was room
    from shapely.geometry import LineString, box

    s = fwwrules.load(fwwrules.example_path("cover-example-4"))
    assert isinstance(s, Scenario)
    from fwwrules.draw import DEFAULT_STYLE as st

    art = draw_board(s, new_axes(st.figsize, st.dpi, st.margins),
                     ruling=fwwrules.ruling(s, "paladin", "mutant-1"))  # fmt: skip
    art.figure.canvas.draw()
    forest = art.ax.transData.transform(list(s.board.terrain["forest"].polygon.exterior.coords))
    edge = LineString(forest)
    named = {t.get_text(): r for t, r in label_boxes(art)}
    for name in ("Super Mutant 1", "Super Mutant 2", "Super Mutant 3"):
        assert not box(*named[name]).intersects(edge), name
