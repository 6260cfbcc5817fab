"""The side view of a shot (``fwwrules.draw.side``, ``fwwrules render --side-view``).

On the rulebook's elevation examples (an Elevated shooter, an Elevated target behind a
Significant Edge, a model deep on a roof, a gantry, stacked platforms) the section's drawn
heights, edges and Orange marks are read from the figure's artists and compared with the
ruling's own numbers (its reasons' parameters). Then the picture: nothing cut, no two labels
overlapping, no label on a figure, a base, a strip or a ruler, in English and German, at 1x and
2x.
"""

from __future__ import annotations

import math
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from picture_audit import outside

import fwwrules
from fwwrules.draw.layout import renderer_of
from fwwrules.draw.side import (
    EDGE_GID,
    ORANGE_GID,
    SideArtists,
    draw_side_view,
    section,
    side_view_figure,
)
from fwwrules.draw.side import _box as label_box_of

SHOTS = [
    ("elevation-rooftop", "knight", "lookout"),  # Elevated target near an edge: edge cover
    ("elevation-rooftop", "lookout", "knight"),  # Elevated shooter: cover within Orange only
    ("elevation-rooftop", "sniper", "knight"),  # deep on the roof: the edge blocks
    ("elevation-rooftop", "knight", "sniper"),
    ("elevation-gantry", "scavenger", "raider"),
    ("elevation-gantry", "raider", "scavenger"),
    ("elevation-stacked-platform", "settler", "guard"),  # a model on a roof
    ("elevation-stacked-platform", "gunner", "settler"),
    ("elevation-stacked-platform", "gunner", "guard"),
]
ELEVATION = ("elevation.elevated", "elevation.edge-blocks-los", "elevation.edge-cover",
             "elevation.shooter-cover")  # fmt: skip


def _drawn(
    name: str, a: str, t: str, lang: str = "en", dpi: float = 100.0
) -> tuple[Any, Any, SideArtists]:
    s = fwwrules.load(fwwrules.example_path(name))
    r = fwwrules.ruling(s, a, t)
    fig = side_view_figure(s, r, lang=lang, dpi=dpi)
    art = fig._fwwrules_side  # type: ignore[attr-defined]
    return s, r, art


def _mm(s: Any, value: float) -> float:
    return float(s.to_mm(value))


def _y_span(artist: Any) -> tuple[float, float]:
    ys = [float(y) for y in artist.get_ydata()]
    return min(ys), max(ys)


def _x_span(artist: Any) -> tuple[float, float]:
    xs = [float(x) for x in artist.get_xdata()]
    return min(xs), max(xs)


@pytest.mark.parametrize("shot", SHOTS, ids=lambda x: "-".join(x))
def test_elevation_side_view_heights_are_the_rulings(shot: tuple[str, str, str]) -> None:
    """The bases stand at the heights whose difference the ruling states
    (``elevation.elevated``), and a model stands on a block as high as the piece the ruling
    says it stands on (``elevation.standing-on``)."""
    s, r, art = _drawn(*shot)
    base = {m: art.bases[m].get_y() for m in art.bases}
    for reason in r.reasons:
        p = reason.params
        if reason.clause == "elevation.elevated":
            a, t = (p["high"], p["low"]) if reason.key == "yes" else (p["attacker"], p["target"])
            assert abs(base[a] - base[t]) == pytest.approx(_mm(s, p["difference"]), abs=1e-3)
        if reason.clause == "elevation.standing-on":
            top = max(rect.get_y() + rect.get_height() for rect in art.pieces[p["piece"]])
            assert top == pytest.approx(_mm(s, p["height"]), abs=1e-3)
            assert base[p["model"]] >= top - 1e-6
    for m, y in base.items():
        assert y == pytest.approx(s.board.models[m].elevation)


@pytest.mark.parametrize("shot", SHOTS, ids=lambda x: "-".join(x))
def test_elevation_side_view_edges_are_the_rulings(shot: tuple[str, str, str]) -> None:
    """Every edge the ruling weighs (``edge-blocks-los``, ``edge-cover``) that the section
    crosses is drawn from the ground beyond it to the piece's top, as the ruling says; every
    edge drawn is a Significant Edge crossed by the section."""
    s, r, art = _drawn(*shot)
    weighed = 0
    for reason in r.reasons:
        p = reason.params
        if reason.clause not in ("elevation.edge-blocks-los", "elevation.edge-cover"):
            continue
        if "top" not in p:  # the cover entry's reason ("crossed"), no measure
            continue
        key = f"{p['piece']}:{p['side']}"
        if key in art.edges:
            weighed += 1
            assert art.edges[key].get_gid() == EDGE_GID.format(key)
            low, high = _y_span(art.edges[key])
            assert (low, high) == (
                pytest.approx(_mm(s, p["bottom"]), abs=1e-3),
                pytest.approx(_mm(s, p["top"]), abs=1e-3),
            )
    for e in art.section.edges:
        assert e.edge.drop >= s.board.orange_mm - 1e-6
    cited = [
        x for x in r.reasons if x.clause in ("elevation.edge-blocks-los", "elevation.edge-cover")
    ]
    if cited:
        assert weighed >= 1  # the section crosses at least one edge the ruling weighs


@pytest.mark.parametrize("shot", SHOTS, ids=lambda x: "-".join(x))
def test_elevation_side_view_orange_marks_are_the_rulings(shot: tuple[str, str, str]) -> None:
    """An Orange mark for each elevation clause the ruling cites (and none else), each as long
    as the ruling's Orange: upright from the lower base (``elevated``), along the line from the
    higher base's edge (the edge clauses), back from the target's base (``shooter-cover``)."""
    s, r, art = _drawn(*shot)
    cited = {x.clause for x in r.reasons if x.clause in ELEVATION}
    assert set(art.orange) == cited
    orange = s.board.orange_mm
    for reason in r.reasons:
        if "orange" in reason.params:
            assert _mm(s, reason.params["orange"]) == pytest.approx(orange, abs=1e-3)
    cut = art.section
    for clause, line in art.orange.items():
        assert line.get_gid() == ORANGE_GID.format(clause)
        (x0, x1), (y0, y1) = _x_span(line), _y_span(line)
        assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(orange, abs=1e-6)
    if "elevation.elevated" in art.orange:
        low = min((cut.attacker, cut.target), key=lambda m: m.elevation)
        assert _y_span(art.orange["elevation.elevated"])[0] == pytest.approx(low.elevation)
    if "elevation.shooter-cover" in art.orange:
        assert cut.target is not None
        x0, x1 = _x_span(art.orange["elevation.shooter-cover"])
        assert x1 == pytest.approx(cut.target.s - cut.target.r)  # from the target's base edge
        for c in r.cover:  # what counts lies within the ruler, along the line too
            spans = [p.spans for p in cut.pieces if p.id == c.source]
            if spans:
                assert max(b for _, b in spans[0]) >= x0 - 1e-6


def test_side_view_section_is_the_line_of_cover() -> None:
    s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    r = fwwrules.ruling(s, "knight", "lookout")
    cut = section(s, r)
    (x0, y0), (x1, y1) = r.sight.loc  # type: ignore[union-attr]
    assert cut.length == pytest.approx(math.hypot(x1 - x0, y1 - y0))
    assert cut.target is not None and cut.target.s == pytest.approx(cut.length)
    crossed = {p.id for p in cut.pieces if p.on_line}
    assert {"building", "crate-near", "crate-far"} <= crossed
    assert [e.edge.label for e in cut.edges] == ["building:west"]


@pytest.mark.parametrize("shot", SHOTS, ids=lambda x: "-".join(x))
def test_side_view_distance_grows_to_the_right(shot: tuple[str, str, str]) -> None:
    """The shooter stands at the left and the distance from its centre grows to the right,
    also for a Line of Cover that runs right to left (or straight up or down) on the board."""
    _, _, art = _drawn(*shot)
    x0, x1 = art.ax.get_xlim()
    assert x0 < x1, shot
    renderer = renderer_of(art.figure)
    shooter = art.bases[art.section.attacker.id].get_window_extent(renderer)
    assert art.section.target is not None
    target = art.bases[art.section.target.id].get_window_extent(renderer)
    assert shooter.x1 < target.x0, shot


def test_side_view_runs_left_to_right_for_a_shot_to_the_west() -> None:
    """The lookout shoots west (right to left on the board): its section still has the
    lookout at the left, distance 0 left of the target's distance."""
    _, _, art = _drawn("elevation-rooftop", "lookout", "knight")
    assert art.section.along[0] == pytest.approx(-1.0)
    x0, x1 = art.ax.get_xlim()
    assert x0 < x1
    shooter = art.ax.transData.transform((0.0, 0.0))[0]
    target = art.ax.transData.transform((art.section.length, 0.0))[0]
    assert shooter < target


def test_side_view_of_a_flat_shot_says_so() -> None:
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    r = fwwrules.ruling(s, "knight", "brute")
    art = draw_side_view(s, r, lang="de")
    assert art.section.flat and not art.orange and not art.edges
    texts = [t.get_text() for t in art.labels]
    assert any(t.startswith("Keine Höhen bei diesem Schuss") for t in texts)


def _crosses(box: Any, seg: Any) -> bool:
    """Whether a segment passes through a box shrunk by 1.5 pixels (touching is not
    crossing), sampled every pixel."""
    (x0, y0), (x1, y1) = seg
    n = max(2, int(math.hypot(x1 - x0, y1 - y0)))
    return any(
        box.x0 + 1.5 < x0 + (x1 - x0) * k / n < box.x1 - 1.5
        and box.y0 + 1.5 < y0 + (y1 - y0) * k / n < box.y1 - 1.5
        for k in range(n + 1)
    )


def _label_problems(art: SideArtists) -> list[str]:
    renderer = renderer_of(art.figure)
    boxes = [(t.get_text(), label_box_of(t, renderer)) for t in art.labels if t.get_visible()]
    problems = []
    for (a, ba), (b, bb) in combinations(boxes, 2):
        w = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
        h = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
        if w > 1 and h > 1:
            problems.append(f"{a!r} overlaps {b!r}")
    for o in art.obstacles:
        ob = o.get_window_extent(renderer)
        for text, box in boxes:
            w = min(box.x1, ob.x1) - max(box.x0, ob.x0)
            h = min(box.y1, ob.y1) - max(box.y0, ob.y0)
            if w > 1 and h > 1:
                problems.append(f"{text!r} lies on {o.get_gid()}")
    for t in art.labels:  # a leader line crosses no other label
        if not t.get_visible() or not hasattr(t, "xy"):
            continue
        anchor = tuple(art.ax.transData.transform(t.xy))
        own = label_box_of(t, renderer)
        lead = (anchor, (min(max(anchor[0], own.x0), own.x1), min(max(anchor[1], own.y0), own.y1)))
        for text, box in boxes:
            inside = box.x0 <= anchor[0] <= box.x1 and box.y0 <= anchor[1] <= box.y1
            if box is not own and box != own and not inside and _crosses(box, lead):
                problems.append(f"the leader of {t.get_text()!r} crosses {text!r}")
    frame = art.ax.get_window_extent(renderer)
    for text, box in boxes:
        if (
            box.x0 < frame.x0 - 1
            or box.x1 > frame.x1 + 1
            or box.y0 < frame.y0 - 1
            or box.y1 > frame.y1 + 1
        ):
            problems.append(f"{text!r} leaves the section")
    return problems


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("dpi", [100.0, 200.0], ids=["1x", "2x"])
def test_side_view_nothing_cut_or_overlapping(lang: str, dpi: float) -> None:
    shots = [
        *SHOTS,
        ("cover-example-1", "knight", "brute"),
        ("melee-shoot-into-3", "minuteman", "raider"),
    ]
    for shot in shots:
        _, _, art = _drawn(*shot, lang=lang, dpi=dpi)
        fig = art.figure
        assert outside(fig) == [], (shot, lang, dpi)
        assert _label_problems(art) == [], (shot, lang, dpi)
        title = art.ax.title.get_window_extent(renderer_of(fig))
        legend = fig.legends[0].get_window_extent(renderer_of(fig)) if fig.legends else None
        axes = art.ax.get_tightbbox(renderer_of(fig))
        if legend is not None:
            assert legend.y1 <= axes.y0 + 1, (shot, lang, dpi)
        assert title.y0 >= art.ax.get_window_extent(renderer_of(fig)).y1 - 1


def test_side_view_at_2x_is_as_wide_twice_and_says_the_same() -> None:
    _, _, one = _drawn("elevation-rooftop", "lookout", "knight", "de", 100.0)
    _, _, two = _drawn("elevation-rooftop", "lookout", "knight", "de", 200.0)
    assert two.figure.bbox.width == pytest.approx(2 * one.figure.bbox.width)
    assert set(one.orange) == set(two.orange) and set(one.edges) == set(two.edges)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fwwrules", *args], capture_output=True, text=True, check=False
    )


def test_render_side_view_stacks_the_section_under_the_board(tmp_path: Path) -> None:
    from PIL import Image

    path = str(fwwrules.example_path("elevation-rooftop"))
    board, both = tmp_path / "board.png", tmp_path / "both.png"
    assert (
        _cli(
            "render", path, "--attacker", "lookout", "--target", "knight", "-o", str(board)
        ).returncode
        == 0
    )
    done = _cli("render", path, "--attacker", "lookout", "--target", "knight", "--side-view",
                "-o", str(both), "--lang", "en,de", "--scale", "2")  # fmt: skip
    assert done.returncode == 0, done.stderr
    one = Image.open(board)
    for lang in ("en", "de"):
        two = Image.open(tmp_path / f"both.{lang}.png")
        assert two.width == 2 * one.width and two.height > 2 * one.height + 400
    svg = tmp_path / "both.svg"
    assert _cli("render", path, "--attacker", "knight", "--target", "lookout", "--side-view",
                "-o", str(svg)).returncode == 0  # fmt: skip
    import xml.etree.ElementTree as ET

    root = ET.parse(svg).getroot()
    assert len(root) == 2 and root[1].get("y") not in (None, "0", "0.0")
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))
    refused = _cli("render", path, "--side-view")
    assert (
        refused.returncode == 2
        and "--attacker" in refused.stderr
        and "Traceback" not in refused.stderr
    )
    grid = _cli("render", str(fwwrules.example_path("grid/cleric")), "--attacker", "cleric",
                "--target", "ogre", "--side-view")  # fmt: skip
    assert grid.returncode == 2 and "grid" in grid.stderr
