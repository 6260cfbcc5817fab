"""Text from kept layouts and glyph bitmaps (fwwrules/draw/glyphs.py): every frame byte for
byte the one matplotlib's Agg draws, for a panel's board (en and de, device pixel ratios 1 and
2, drawn again from the kept layouts and glyphs and after a move), and for texts at many
sub-pixel places, sizes, weights, rotated, mathtext, without antialiasing, and with the stores
cut short."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest
from fwwrules_widgets import AttackPanel
from fwwrules_widgets.view import set_pixel_ratio
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

import fwwrules
from fwwrules.data import Scenario
from fwwrules.draw import glyphs
from fwwrules.draw.glyphs import GlyphCanvas

matplotlib.use("Agg")

EXAMPLE = Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml"


def _frame(fig: Figure, canvas_type: type[FigureCanvasAgg]) -> np.ndarray[Any, Any]:
    canvas = canvas_type(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def _both(fig: Figure) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The figure drawn by Agg, then twice with kept glyphs (the second from the store): both
    kept-glyph frames must be Agg's."""
    plain = _frame(fig, FigureCanvasAgg)
    first = _frame(fig, GlyphCanvas)
    again = _frame(fig, GlyphCanvas)
    assert np.array_equal(first, again)
    return plain, first


def test_an_untested_matplotlib_draws_its_own_text() -> None:
    """A release the glyph store was not checked against gets matplotlib's own text code."""
    assert glyphs._supported("3.11.2") and glyphs._supported("3.10.0")
    assert not glyphs._supported("3.12.0") and not glyphs._supported("3.9.4")
    assert not glyphs._supported("4.0.0rc1")


def test_the_glyph_canvas_keeps_glyphs_on_this_matplotlib() -> None:
    assert glyphs._SUPPORTED
    fig = Figure(figsize=(2.0, 1.0), dpi=100)
    fig.text(0.1, 0.5, "kept")
    glyphs._KEPT.clear()
    glyphs._LAID.clear()
    _frame(fig, GlyphCanvas)
    assert len(glyphs._KEPT) == 4
    assert len(glyphs._LAID) == 1


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("ratio", [1.0, 2.0])
def test_a_panels_board_is_drawn_as_agg_draws_it(lang: str, ratio: float) -> None:
    scenario = fwwrules.load(EXAMPLE)
    assert isinstance(scenario, Scenario)
    a, t = scenario.models[0].id, scenario.models[-1].id
    panel = AttackPanel(scenario, attacker=a, target=t, interactive=False, lang=lang)
    assert isinstance(panel.view.figure.canvas, GlyphCanvas)
    fig = panel.view.figure
    set_pixel_ratio(fig, ratio)
    for step in range(2):
        plain, kept = _both(fig)
        assert np.array_equal(plain, kept), (lang, ratio, step)
        x, y = scenario.model(t).at
        panel.move(t, x + 0.37, y - 0.21)  # labels to new sub-pixel places


def test_texts_at_sub_pixel_places_sizes_and_looks_are_drawn_as_agg_draws_them() -> None:
    fig = Figure(figsize=(4.0, 3.0), dpi=137)
    rng = np.random.default_rng(7)
    looks: list[dict[str, Any]] = [
        {"fontsize": 9},
        {"fontsize": 13.5, "weight": "bold"},
        {"fontsize": 7, "style": "italic"},
        {"fontsize": 11, "rotation": 30},  # rotated: Agg's own code
        {"fontsize": 10, "antialiased": False},
        {"fontsize": 12, "family": "monospace"},
    ]
    for k in range(60):
        x, y = rng.uniform(0.0, 0.9), rng.uniform(0.0, 0.95)
        fig.text(x, y, "Wg Ärger ß 1.5″ –", **looks[k % len(looks)])
    fig.text(0.5, 0.5, r"$\alpha^2 + \sqrt{x}$", fontsize=12)  # mathtext, with a rule
    fig.text(0.2, 0.1, r"$x_1$", fontsize=9)
    plain, kept = _both(fig)
    assert np.array_equal(plain, kept)


def test_a_full_store_drops_its_oldest_and_draws_the_same(monkeypatch: Any) -> None:
    monkeypatch.setattr(glyphs, "MAX_GLYPHS", 16)
    monkeypatch.setattr(glyphs, "MAX_LAYOUTS", 4)
    glyphs._KEPT.clear()
    glyphs._LAID.clear()
    fig = Figure(figsize=(3.0, 1.0), dpi=100)
    for k in range(9):
        fig.text(0.05, 0.1 * k, f"{k} abcdefghijklmnopqrstuvwxyz 0123456789", fontsize=6 + k)
    plain, kept = _both(fig)
    assert np.array_equal(plain, kept)
    assert len(glyphs._KEPT) <= 16
    assert len(glyphs._LAID) <= 4
