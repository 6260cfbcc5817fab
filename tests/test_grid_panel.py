"""The grid panel, headless: set a control's ``.value``, then look at the ruling, the text and
the drawn line artists. The panel asks ``fwwrules.grid_cover``; these tests compare with it."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("matplotlib")

from fwwrules_widgets.grid_panel import GridPanel

import fwwrules
from fwwrules.grid import grid_cover


def _segments(panel: GridPanel, verdict: str) -> int:
    xs = list(panel.artists.lines[verdict].get_xdata())
    return sum(1 for x in xs if isinstance(x, float) and math.isnan(x))


@pytest.fixture
def panel() -> GridPanel:
    return GridPanel(fwwrules.load(fwwrules.example_path("grid/rogue")))


def test_grid_panel_starts_with_a_ruling(panel: GridPanel) -> None:
    assert (panel.attacker.value, panel.target.value) == ("ogre", "fighter")
    assert panel.ruling == grid_cover(panel.scenario, "ogre", "fighter")
    assert bytes(panel.image.value).startswith(b"\x89PNG")
    assert panel.ruling.headline("en") in panel.text.value


def test_grid_panel_attack_type_changes_ruling_and_lines(panel: GridPanel) -> None:
    panel.attacker.value = "rogue"
    panel.target.value = "ogre"
    before = (_segments(panel, "clear"), _segments(panel, "wall"))
    png = panel.image.value
    panel.attack.value = "melee"  # the rogue's melee attack around the wall corner
    assert panel.ruling is not None
    assert panel.ruling == grid_cover(panel.scenario, "rogue", "ogre", attack="melee")
    assert panel.ruling.cover == "cover"
    after = (_segments(panel, "clear"), _segments(panel, "wall"))
    assert after != before
    assert sum(after) == len(panel.ruling.lines) == 16
    assert after[1] == sum(1 for ln in panel.ruling.lines if ln.verdict == "wall") > 0
    assert bytes(panel.image.value) != bytes(png)
    assert "Ogre has cover" in panel.text.value


def test_grid_panel_attacker_and_target_controls(panel: GridPanel) -> None:
    panel.attacker.value = "ogre"
    panel.target.value = "rogue"
    panel.attack.value = "reach"
    assert panel.ruling is not None and panel.ruling.procedure == "ranged"
    assert panel.artists.roles == {"ogre": "attacker", "rogue": "target"}
    assert (
        panel.artists.creatures["ogre"].get_facecolor()
        != panel.artists.creatures["fighter"].get_facecolor()
    )
    assert _segments(panel, "wall") == sum(1 for ln in panel.ruling.lines if ln.verdict == "wall")


def test_grid_panel_language_switch(panel: GridPanel) -> None:
    panel.attacker.value = "rogue"
    panel.target.value = "ogre"
    panel.attack.value = "melee"
    panel.lang.value = "de"
    assert panel.attack.value == "melee"  # relabelling keeps the choice
    assert "Oger hat Deckung gegen den Nahkampfangriff von Schurke" in panel.text.value
    assert panel.attacker.description == "Angreifer"
    # the creatures are named in German too: in the dropdowns and on the picture
    assert dict(panel.attacker.options)["Schurke"] == "rogue"
    assert (panel.attacker.value, panel.target.value) == ("rogue", "ogre")
    assert panel.artists.labels["ogre"].get_text() == "Oger"
    legend = [t.get_text() for t in panel.artists.legend.get_texts()]
    assert "Mauer" in legend and "durch ein Mauerfeld" in legend
    panel.lang.value = "en"
    assert dict(panel.target.options)["Ogre"] == "ogre"
    assert panel.artists.labels["ogre"].get_text() == "Ogre"


def test_grid_panel_same_creature_shows_the_error(panel: GridPanel) -> None:
    panel.target.value = "ogre"
    assert panel.ruling is None and panel.error is not None
    assert "cannot attack itself" in panel.text.value
    assert all(len(line.get_xdata()) == 0 for line in panel.artists.lines.values())


def _png_size(png: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        return img.size


def test_grid_picture_is_sharp_and_readable_at_display_size(panel: GridPanel) -> None:
    """Drawn at twice its CSS size (sharp at a device pixel ratio of 2); every text at least
    9 pt; the legend in the board's conventions (outside the map, no frame)."""
    css = int(str(panel.image.layout.width).removesuffix("px"))
    width, _ = _png_size(bytes(panel.image.value))
    assert width == 2 * css
    fig = panel.figure
    texts = [t for t in fig.findobj(lambda a: hasattr(a, "get_fontsize")) if t.get_text()]
    assert texts and min(t.get_fontsize() for t in texts) >= 9.0
    legend = panel.artists.legend
    assert legend is not None and not legend.get_frame_on()
    fig.canvas.draw()
    assert legend.get_window_extent().x0 > panel.artists.ax.get_window_extent().x1


@pytest.mark.parametrize(("name", "others"), [("rogue", True), ("big", False)])
def test_grid_legend_lists_only_the_roles_drawn(name: str, others: bool) -> None:
    """The "creature" entry (neither attacker nor target) only when such a creature is drawn."""
    s = fwwrules.load(fwwrules.example_path(f"grid/{name}"))
    assert (len(s.creatures) > 2) == others
    p = GridPanel(s)
    legend = [t.get_text() for t in p.artists.legend.get_texts()]
    assert "attacker" in legend and "target" in legend
    assert ("creature" in legend) == others
    p.lang.value = "de"
    assert len(p.artists.legend.get_texts()) == len(legend)
