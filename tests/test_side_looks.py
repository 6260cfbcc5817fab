"""Sides that cannot be confused (issue 33): a colour-blind-safe palette assigned by side
order, each colour with a hatch of its own. Eight sides get eight colours that stay apart
under simulated protanopia, deuteranopia and tritanopia (Machado et al. 2009, severity 1,
CIELAB distance of the colours as drawn: 80 % opaque on white) and eight different hatches;
two sides of one board never share a look, whatever their ids."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from matplotlib.colors import to_hex, to_rgb

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.board import side_looks, side_order
from fwwrules.draw.figure import new_axes

SIMULATIONS = {
    "normal": np.eye(3),
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
         [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
         [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
         [0.004733, 0.691367, 0.303900]]
    ),
}  # fmt: skip
"""Machado, Oliveira and Fernandes (2009), full severity, on linear RGB."""
MIN_DISTANCE = 15.0
"""Least CIELAB (1976) distance between two sides' colours under any simulation."""


def _linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear: np.ndarray) -> np.ndarray:
    xyz = (
        linear
        @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    )
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(colour: str, simulation: str, alpha: float = DEFAULT_STYLE.base_alpha) -> np.ndarray:
    """The colour as a base shows it (``alpha`` over white), as seen under ``simulation``."""
    rgb = alpha * np.array(to_rgb(colour)) + (1 - alpha)
    return _lab(np.clip(SIMULATIONS[simulation] @ _linear(rgb), 0, 1))


def board_of_sides(n: int) -> fwwrules.Scenario:
    models = [
        {"id": f"m{i}", "faction": f"faction-{i}", "base": 32, "at": [60 + 70 * i, 60]}
        for i in range(n)
    ]
    text = json.dumps({"format": "fwwrules/scenario@1", "models": models})
    s = fwwrules.loads(text, source="sides.json")
    assert isinstance(s, fwwrules.Scenario)
    return s


def test_eight_sides_get_distinct_colours_under_colour_blindness_and_distinct_hatches() -> None:
    s = board_of_sides(8)
    looks = side_looks(s)
    assert len(looks) == 8
    colours = [c for c, _ in looks.values()]
    hatches = [h for _, h in looks.values()]
    assert len(set(colours)) == 8 and len(set(hatches)) == 8
    worst = min(
        (float(np.linalg.norm(seen(a, sim) - seen(b, sim))), sim, a, b)
        for sim in SIMULATIONS
        for a, b in itertools.combinations(colours, 2)
    )
    assert worst[0] >= MIN_DISTANCE, worst
    for colour in colours:  # never the cover colour, never the neutral grey
        assert to_hex(colour) not in (to_hex(DEFAULT_STYLE.cover_colour), "#999999")


def test_the_drawn_bases_of_eight_sides_never_look_alike() -> None:
    s = board_of_sides(8)
    st = DEFAULT_STYLE
    art = draw_board(s, new_axes(st.figsize, st.dpi, st.margins))
    looks = {
        (to_hex(b.get_facecolor(), keep_alpha=False), b.get_hatch()) for b in art.bases.values()
    }
    assert len(looks) == 8
    legend = art.legend_texts()
    assert sum(t.startswith("side: ") for t in legend) == 8


@pytest.mark.parametrize("n", [2, 9, 20])
def test_sides_are_coloured_by_their_order_and_never_share_a_look(n: int) -> None:
    s = board_of_sides(n)
    order = side_order(s)
    assert order == [f"faction-{i}" for i in range(n)]
    looks = side_looks(s)
    assert looks[order[0]] == ("#0072B2", "") and looks[order[1]][0] == "#D55E00"
    assert len(set(looks.values())) == n


def test_the_files_sides_come_first_in_their_order() -> None:
    text = (
        "format: fwwrules/scenario@1\nsides: {red: [raiders], blue: [vault]}\nmodels:\n"
        "  - {id: a, faction: vault, base: 32, at: [50, 50]}\n"
        "  - {id: b, faction: raiders, base: 32, at: [150, 50]}\n"
    )
    s = fwwrules.loads(text)
    assert isinstance(s, fwwrules.Scenario)
    assert side_order(s) == ["red", "blue"]
    assert side_looks(s)["red"] == ("#0072B2", "")
