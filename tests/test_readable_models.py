"""Models readable at a panel's size (issue 33): on a 4' x 4' table with ten models of three
sides, drawn in a panel's fixed-size figure, every base shows its side's colour over at least
half its area in the rendered pixels and no label lies on a base; a name placed away from its
base, or nearer another base than its own, is joined to it by a leader line; a base too small
to see is drawn at the smallest size, in its side's colour, and the legend says so; no label
crosses the table's edge. (The browser's canvas shows the same picture:
``tests/browser/test_board_pixels.py`` checks that it equals the kernel's render.)"""

from __future__ import annotations

import io
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

import fwwrules
from fwwrules.catalogue import LANGS
from fwwrules.draw import DEFAULT_STYLE, draw_board, draw_word
from fwwrules.draw.board import FIXED_SIZE_GID, side_looks
from fwwrules.draw.figure import figure_bytes, figure_of, new_axes
from fwwrules.draw.labels import _owner_disc, base_discs, label_boxes, table_edges

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _scaling import scaling_board

TABLE = """\
format: fwwrules/scenario@1
title: "Sanctuary crossing: a 4' table"
units: in
board: {size: [48, 48]}
sides: {minutemen: [minutemen], raiders: [raiders], brotherhood: [brotherhood]}
models:
  - {id: preston, name: Preston Garvey, faction: minutemen, base: 1.26, at: [8, 9]}
  - {id: sturges, name: Sturges, faction: minutemen, base: 1.26, at: [9.6, 9.2]}
  - {id: sentry, name: Minuteman Sentry, faction: minutemen, base: 1.26, at: [12, 6]}
  - {id: boss, name: Raider Boss, faction: raiders, base: 1.26, at: [38, 40]}
  - {id: psycho, name: Raider Psycho, faction: raiders, base: 1.26, at: [39.5, 41]}
  - {id: scavver, name: Raider Scavver, faction: raiders, base: 1.26, at: [36, 42.5]}
  - {id: dog, name: Attack Dog, faction: raiders, base: 1.26, at: [30, 38]}
  - {id: danse, name: Paladin Danse, faction: brotherhood, base: 1.57, at: [24, 24]}
  - {id: knight, name: Knight Rhys, faction: brotherhood, base: 1.26, at: [25.7, 24.5]}
  - {id: haylen, name: Scribe Haylen, faction: brotherhood, base: 1.26, at: [0.8, 47.2]}
weapons: [{id: rifle, type: rifle, short: red, long: green}]
terrain:
  - {id: ruin, name: Red Rocket ruin, kind: blocking, rect: {at: [16, 14], size: [8, 3]}, height: 3}
  - {id: wall, kind: cover, rect: {at: [28, 30], size: [6, 1]}}
  - {id: crater, name: Crater, kind: area, circle: {at: [20, 36], diameter: 8}}
  - {id: car, kind: cover, rect: {at: [33, 16], size: [4, 2]}}
"""
SIDE_COLOUR_DISTANCE = 60.0
"""How far (RGB, 0-255) a pixel may be from its side's colour and still show it
(antialiasing at the edge, the hatch's thin lines and the outline take the rest)."""


def panel_board(lang: str, pair: tuple[str, str] | None = None) -> Any:
    """The table drawn as a panel draws it: the panels' default style, fixed size."""
    s = fwwrules.loads(TABLE, source="table.yaml")
    for m in s.models:
        s = _with_rifle(s, m.id)
    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    figure_of(ax).set_gid(FIXED_SIZE_GID)
    ruling = None if pair is None else fwwrules.ruling(s, *pair)
    return s, draw_board(s, ax, ruling=ruling, lang=lang)


def _with_rifle(s: Any, model_id: str) -> Any:
    import dataclasses

    models = tuple(
        dataclasses.replace(m, weapons=("rifle",), skills={"rifle": 5}) if m.id == model_id else m
        for m in s.models
    )
    return dataclasses.replace(s, models=models)


def pixels(art: Any) -> np.ndarray[Any, Any]:
    data = figure_bytes(art.figure, "png")
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"), dtype=float)


def base_shares(s: Any, art: Any) -> dict[str, float]:
    """For each model, the share of its base's pixels (its true disc) that show its side's
    colour in the picture as written."""
    img = pixels(art)
    height = img.shape[0]
    yy, xx = np.mgrid[0 : img.shape[0], 0 : img.shape[1]]
    looks = side_looks(s)
    out = {}
    for m in s.models:
        base = art.bases[m.id]
        cx, cy = base.center
        r_mm = s.board.models[m.id].disc.r
        (px, py), (ex, _) = art.ax.transData.transform([(cx, cy), (cx + r_mm, cy)])
        r, py = ex - px, height - py
        inside = (xx + 0.5 - px) ** 2 + (yy + 0.5 - py) ** 2 <= r * r
        colour = np.array(to_rgb(looks[s.side_of(m.faction)][0])) * 255
        near = np.linalg.norm(img[inside] - colour, axis=1) < SIDE_COLOUR_DISTANCE
        out[m.id] = float(near.mean())
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("pair", [None, ("preston", "boss"), ("danse", "dog")])
def test_every_base_shows_its_sides_colour_over_half_its_area(
    lang: str, pair: tuple[str, str] | None
) -> None:
    s, art = panel_board(lang, pair)
    shares = base_shares(s, art)
    assert len(shares) == 10
    low = {k: round(v, 2) for k, v in shares.items() if v < 0.5}
    assert not low, f"bases showing their side's colour over less than half their area: {low}"


def _gap(disc: tuple[float, float, float], box: tuple[float, ...]) -> float:
    x, y, r = disc
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    return math.hypot(nx - x, ny - y) - r


@pytest.mark.parametrize("lang", LANGS)
def test_no_label_on_a_base_and_every_name_says_which_base_is_its_own(lang: str) -> None:
    """No label box meets a base; a name is nearer its own base than any other, or has a
    leader line (and a far one always has one)."""
    _s, art = panel_board(lang, ("preston", "boss"))
    art.figure.canvas.draw()
    discs = base_discs(art)
    led = {lead[3] for lead in art.state.get("leaders", [])}
    problems = []
    for t, box in label_boxes(art):
        for disc in discs:
            if _gap(disc, box) < -0.5:
                problems.append(f"{t.get_text()!r} lies on a base at {disc[:2]}")
        own = _owner_disc(t, art)
        if own is None:
            continue
        mine = _gap(own, box)
        nearest_other = min(_gap(d, box) for d in discs if d != own)
        if id(t) not in led and (nearest_other <= mine or mine > 8.0):
            problems.append(f"{t.get_text()!r} needs a leader ({mine:.1f}, {nearest_other:.1f})")
    assert not problems, "\n".join(problems)
    line = art.leaders
    assert line is not None
    segments = np.asarray(line.get_xydata(), dtype=float)
    assert led and line.get_visible() and np.isnan(segments).any()  # some names lead away


def test_no_label_crosses_the_tables_edge() -> None:
    _s, art = panel_board("de", ("preston", "boss"))
    edges = table_edges(art)
    assert len(edges) == 4
    for t, (x0, y0, x1, y1) in label_boxes(art):
        for ex0, ey0, ex1, ey1 in edges:
            if ex0 == ex1:  # a vertical edge
                crosses = x0 < ex0 < x1 and y0 < max(ey0, ey1) and min(ey0, ey1) < y1
            else:
                crosses = y0 < ey0 < y1 and x0 < max(ex0, ex1) and min(ex0, ex1) < x1
            assert not crosses, f"{t.get_text()!r} lies across the table's edge"


@pytest.mark.parametrize("lang", LANGS)
def test_bases_too_small_to_see_are_drawn_at_the_smallest_size_and_said_so(lang: str) -> None:
    """200 models with 25 mm bases on a 6' table: about 5 pixels in a panel, drawn at 7 in
    their side's colour, and a legend entry says why; on the 4' table the bases are true
    to size and the legend says nothing of it."""
    data = scaling_board(200, 10)
    s = fwwrules.loads(json.dumps(data), source="crowd.json")
    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    figure_of(ax).set_gid(FIXED_SIZE_GID)
    art = draw_board(s, ax, lang=lang)
    radii = [r for _x, _y, r in base_discs(art)]
    assert min(radii) == pytest.approx(st.min_base_px / 2, abs=0.05)
    true = s.board.models["m0"].disc.r
    assert art.bases["m0"].get_radius() > true  # drawn larger than it is
    word = draw_word("small-bases", lang)
    assert word in art.legend_texts()
    colours = {b.get_facecolor()[:3] for b in art.bases.values()}
    assert len(colours) == 3  # each in its side's colour
    s4, art4 = panel_board(lang)
    assert word not in art4.legend_texts()
    for m in s4.models:
        assert art4.bases[m.id].get_radius() == pytest.approx(s4.board.models[m.id].disc.r)
