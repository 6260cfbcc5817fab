"""The table's outline in every panel and every picture, and an exported picture's own framing
(issue 33: the attack panel and exported pictures of a 48" table ran their axes from about -3
to 52 with no outline of the table; only the editor drew one).

The outline is read from the rendered pixels: along each side of the table (the file's
``board.size``), the table colour is found where the outline should be drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import pytest
from fwwrules_widgets import AttackPanel, BoardEditor, ExampleStepper, MeleePanel, Step, ThreatPanel
from matplotlib.colors import to_rgb
from PIL import Image

import fwwrules
from fwwrules.cli import main
from fwwrules.draw import DEFAULT_STYLE
from fwwrules.draw.animate import slide_animation
from fwwrules.draw.board import frame_view
from fwwrules.draw.export import save_picture

matplotlib.use("Agg")

TABLE = Path(__file__).with_name("table-48.yaml")
T = fwwrules.load(TABLE)
_MELEE_TEXT = fwwrules.example_path("melee-behemoth-slide").read_text(encoding="utf-8")
MELEE = fwwrules.loads(_MELEE_TEXT.replace("units: mm\n", "units: mm\nboard: {size: [600, 600]}\n"))
"""The melee example on a 600 mm table (the file gives no size: no table edge is drawn)."""
SIZELESS = fwwrules.load(fwwrules.example_path("melee-behemoth-slide"))
OFF = {"interactive": False}
SAMPLES = 24
"""Points along each side of the table where the outline is looked for."""
FOUND = 0.7
"""Of those points, the share that must show the outline: a base may lie over the edge."""
REACH = 2
"""Pixels either side of the edge's exact place searched for the outline's colour."""
CLOSE = 60
"""How far (sum over R, G, B, 0-255) a pixel may be from the table colour and still be it."""


def outline_shown(fig: Any, ax: Any, limits: tuple[float, float, float, float]) -> list[float]:
    """For each side of the table (board mm), the share of points along it where the rendered
    picture shows the table colour."""
    fig.canvas.draw()
    rgb = np.asarray(fig.canvas.buffer_rgba())[:, :, :3].astype(int)
    height = rgb.shape[0]
    want = np.array([round(255 * c) for c in to_rgb(DEFAULT_STYLE.table_colour)])
    x0, y0, x1, y1 = limits
    sides = [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    shares = []
    for a, b in sides:
        hits = 0
        for t in np.linspace(0.05, 0.95, SAMPLES):
            px, py = ax.transData.transform((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
            col, row = round(px), round(height - py)
            patch = rgb[row - REACH : row + REACH + 1, col - REACH : col + REACH + 1]
            hits += bool((np.abs(patch - want).sum(axis=2) <= CLOSE).any())
        shares.append(hits / SAMPLES)
    return shares


def limits(scenario: fwwrules.Scenario) -> tuple[float, float, float, float]:
    b = scenario.limits_mm(DEFAULT_STYLE.margin_mm)
    return (b.xmin, b.ymin, b.xmax, b.ymax)


def stepper() -> Any:
    return ExampleStepper([Step("t", T, {"attacker": "paladin", "target": "boss"})], **OFF)


PANELS: dict[str, tuple[Callable[[], Any], fwwrules.Scenario]] = {
    "attack": (lambda: AttackPanel(T, attacker="paladin", target="boss", **OFF), T),
    "melee": (lambda: MeleePanel(MELEE, **OFF), MELEE),
    "threat": (lambda: ThreatPanel(T, "brotherhood", step=4, **OFF), T),
    "stepper": (stepper, T),
    "editor": (lambda: BoardEditor(T, **OFF), T),
}


@pytest.mark.parametrize("name", sorted(PANELS))
def test_every_panel_draws_the_whole_tables_outline(name: str) -> None:
    make, scenario = PANELS[name]
    panel = make()
    shares = outline_shown(panel.view.figure, panel.view.ax, limits(scenario))
    assert min(shares) >= FOUND, (name, shares)


@pytest.mark.parametrize("make", [
    lambda: MeleePanel(SIZELESS, **OFF),
    lambda: AttackPanel(fwwrules.load(fwwrules.example_path("cover-example-1")), **OFF),
])  # fmt: skip
def test_a_board_without_a_size_draws_no_table_edge(make: Callable[[], Any]) -> None:
    # its limits are the contents' box with a margin: drawn as an edge, it read as the table's
    # and moved while a model was dragged (the threat panel's map reached past it)
    panel = make()
    assert panel.artists.table is not None and not panel.artists.table.get_visible()
    scenario = panel.scenario
    assert max(outline_shown(panel.view.figure, panel.view.ax, limits(scenario))) < FOUND


def test_a_board_without_its_outline_is_seen_as_such() -> None:
    """The check itself: with the outline hidden, the sides of the table are not found."""
    panel = AttackPanel(T, attacker="paladin", target="boss", **OFF)
    panel.artists.table.set_visible(False)
    assert max(outline_shown(panel.view.figure, panel.view.ax, limits(T))) < FOUND


def test_the_slide_animations_frames_draw_the_tables_outline() -> None:
    anim = slide_animation(MELEE, "behemoth", (324.8, 343.4))
    shares = outline_shown(anim.figure, anim.artists.ax, limits(MELEE))
    assert min(shares) >= FOUND, shares


def test_an_exported_picture_of_a_zoomed_panel_shows_the_whole_table_or_the_models(
    tmp_path: Path,
) -> None:
    """A zoomed panel's picture is framed as asked, not as the panel shows it now: "table"
    (the default of the command line) is the whole table with its outline, "models" every
    base with a margin and less than the table."""
    panel = AttackPanel(T, attacker="paladin", target="boss", **OFF)
    about = panel.view.ax.transData.transform(panel.artists.bases["waster"].center)
    panel.view.zoom(4.0, (float(about[0]), float(about[1])))
    zoomed = panel.view.view_box
    assert zoomed.xmax - zoomed.xmin < 0.5 * 48 * T.unit_mm

    whole = save_picture(panel.view.figure, tmp_path / "table.png", frame="table")
    models = save_picture(panel.view.figure, tmp_path / "models.png", frame="models")
    assert panel.view.view_box == zoomed  # the panel keeps its view
    assert Image.open(whole).size == Image.open(models).size

    from fwwrules.draw.export import redrawn

    table_fig = redrawn(panel.view.figure, frame="table")
    assert min(outline_shown(table_fig, table_fig.axes[0], limits(T))) >= FOUND
    box = frame_view(T, "models")
    for m in T.models:
        r = m.base * T.unit_mm / 2
        x, y = m.at[0] * T.unit_mm, m.at[1] * T.unit_mm
        assert box.xmin <= x - r and x + r <= box.xmax and box.ymin <= y - r and y + r <= box.ymax
    assert box.xmax - box.xmin < 48 * T.unit_mm  # the models leave the table's far sides out
    shown = redrawn(panel.view.figure, frame="models").axes[0]
    (vx0, vx1), (vy0, vy1) = shown.get_xlim(), shown.get_ylim()
    assert vx0 <= box.xmin and box.xmax <= vx1 and vy0 <= box.ymin and box.ymax <= vy1
    # a closer view than the whole table's (the picture keeps its shape: the wider side fills)
    (tx0, tx1), (ty0, ty1) = table_fig.axes[0].get_xlim(), table_fig.axes[0].get_ylim()
    assert (vx1 - vx0) * (vy1 - vy0) < 0.9 * (tx1 - tx0) * (ty1 - ty0)


def test_the_command_lines_picture_draws_the_outline_and_frames_the_models(tmp_path: Path) -> None:
    table, models = tmp_path / "table.png", tmp_path / "models.png"
    assert main(["render", str(TABLE), "-o", str(table)]) == 0
    assert main(["render", str(TABLE), "-o", str(models), "--frame", "models"]) == 0
    a = np.asarray(Image.open(table).convert("RGB")).astype(int)
    b = np.asarray(Image.open(models).convert("RGB")).astype(int)
    assert a.shape == b.shape and np.abs(a - b).sum() > 0  # one size, another view
