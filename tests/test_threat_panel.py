"""ThreatPanel headless: the map follows a moved shooter, a click shows every enemy's ruling
for a model standing there (English or German), the layer and language controls relabel."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from fwwrules_widgets import ThreatPanel

import fwwrules


def panel() -> ThreatPanel:
    scn = fwwrules.load(fwwrules.example_path("cover-example-1"))
    return ThreatPanel(scn, "brotherhood", step=10, interactive=False)


def test_threat_panel_click_shows_the_rulings_there() -> None:
    p = panel()
    assert p.result is not None and p.result.shooters == ("brute",)
    p.select(300, 100)
    assert p.selected is not None
    assert [r.attacker for r in p.rulings] == ["brute"]
    cell = p.result.cell(p.selected, 0)
    assert cell is not None and cell.allowed == p.rulings[0].allowed
    assert "A model standing at" in p.html.value and "fwwrules-ruling" in p.html.value
    p.lang.value = "de"
    assert "Ein Modell bei" in p.html.value
    assert p.side.description == "Seite, die steht"


def test_threat_panel_side_names_follow_the_language() -> None:
    """The side dropdown names the sides as the legend does, in the panel's language, from
    the start and after the language changes; the chosen side stays chosen."""
    from fwwrules.catalogue import side_name

    p = panel()
    assert p.side.options[0] == (side_name("brotherhood", "en"), "brotherhood")
    p.lang.value = "de"
    assert dict((v, k) for k, v in p.side.options)["brotherhood"] == "Bruderschaft"
    assert p.side.value == "brotherhood"
    scn = fwwrules.load(fwwrules.example_path("cover-example-1"))
    german = ThreatPanel(scn, "brotherhood", step=10, interactive=False, lang="de")
    assert ("Bruderschaft", "brotherhood") in german.side.options


def test_threat_panel_map_follows_a_moved_shooter() -> None:
    p = panel()
    assert p.result is not None
    before = p.result
    p.select(160, 200)
    p.move("brute", 250, 200)
    assert p.result is not None
    # the grid stays put; the map and the rulings at the clicked spot are recomputed
    assert np.array_equal(before.positions, p.result.positions)
    assert not np.array_equal(before.allowed, p.result.allowed)
    want = fwwrules.threat_map(p.scenario, "brotherhood", step=10, area=p.area)
    assert np.array_equal(want.allowed, p.result.allowed)
    assert [r.attacker for r in p.rulings] == ["brute"]


def test_threat_panel_layer_control_redraws_the_overlay() -> None:
    p = panel()
    assert p.overlay is not None and p.overlay.layer == "attackers"
    p.layer.value = "best-modifier"
    assert p.overlay is not None and p.overlay.layer == "best-modifier"
    texts = [t.get_text() for t in p.overlay.legend.get_texts()]
    assert "no attack possible" in texts


def test_threat_panel_drop_updates_the_map_incrementally(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dropping a dragged shooter updates the map (``ThreatMap.update``, only the cells the
    move can change) and the result equals the map computed afresh."""
    from fwwrules.threat import ThreatMap

    p = panel()
    calls: list[str] = []
    original = ThreatMap.update

    def spy(self: ThreatMap, scenario: fwwrules.Scenario, moved: str) -> ThreatMap:
        calls.append(moved)
        return original(self, scenario, moved)

    monkeypatch.setattr(ThreatMap, "update", spy)
    u = p.scenario.unit_mm
    p._dragged("brute", 240 * u, 210 * u)
    p._dropped("brute", 250 * u, 200 * u)
    assert calls == ["brute"]
    assert p.result is not None
    want = fwwrules.threat_map(p.scenario, "brotherhood", step=10, area=p.area)
    for name in ("allowed", "modifier", "covered", "weapon", "placeable"):
        assert np.array_equal(getattr(want, name), getattr(p.result, name)), name
