"""Numbers a reader sees or saves after dragging: never more decimals than the file has.

Drags (matplotlib mouse events through each panel's board, as the browser's pointer
arrives) move bases in an inch file and a mm file, into contact and along curves, with
snapping on and off. Afterwards no x/y field, title or saved file holds a number with more
decimals than the file's precision (``fwwrules.placement.decimals``: 2 in inch files, 1 in
mm files, or what the file itself uses), snapped positions are on the grid (¼″ or 1 mm), and
the saved board loads back equal and rules as the panel shows.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import matplotlib
import pytest
from fwwrules_widgets import AttackPanel, BoardEditor, MeleePanel, ThreatPanel
from matplotlib.backend_bases import MouseEvent

import fwwrules
from fwwrules.placement import decimals

matplotlib.use("Agg")

INCHES = """
format: fwwrules/scenario@1
units: in
board: {size: [24, 24]}
models:
  - {id: knight, name: Knight, faction: bos, base: 1.25, at: [4, 12], skills: {rifle: 6},
     weapons: [rifle]}
  - {id: raider, name: Raider, faction: raiders, base: 1.25, at: [14, 12.5]}
  - {id: dog, name: Dog, faction: raiders, base: 1.25, at: [10, 20]}
terrain:
  - {id: crate, kind: cover, rect: {at: [9, 12], size: [1, 3]}}
weapons:
  - {id: rifle, type: rifle, short: red, long: green}
"""
MILLIMETRES = """
format: fwwrules/scenario@1
models:
  - {id: knight, name: Knight, faction: bos, base: 40, at: [100, 100], skills: {rifle: 6},
     weapons: [rifle]}
  - {id: raider, name: Raider, faction: raiders, base: 32, at: [260, 100]}
  - {id: dog, name: Dog, faction: raiders, base: 32, at: [100, 260]}
weapons:
  - {id: rifle, type: rifle, short: red, long: green}
"""
LONG = re.compile(r"\d+[.,](\d+)")


def most_decimals(text: str) -> int:
    return max((len(m.group(1)) for m in LONG.finditer(text)), default=0)


def mouse(view: Any, name: str, x: float, y: float) -> None:
    """A matplotlib mouse event at board point (x, y) (view units: mm for the panels)."""
    px, py = view.ax.transData.transform((x, y))
    canvas = view.figure.canvas
    if name == "motion_notify_event":
        event = MouseEvent(name, canvas, px, py, buttons={1})
    else:
        event = MouseEvent(name, canvas, px, py, button=1)
    canvas.callbacks.process(name, event)


def curve_drag(view: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    mouse(view, "button_press_event", *start)
    for k in range(1, 41):
        t = k / 40
        bend = 0.15 * math.dist(start, end) * math.sin(math.pi * t)
        x = start[0] + (end[0] - start[0]) * t + bend
        y = start[1] + (end[1] - start[1]) * t - bend
        mouse(view, "motion_notify_event", x, y)
    mouse(view, "button_release_event", x, y)


def check_numbers(panel: Any, tmp_path: Path, *, snapped: bool) -> None:
    s = panel.scenario
    places = decimals(s)
    step = 0.25 if s.units == "in" else 1.0
    for m in s.models:
        for v in m.at:
            assert round(v, places) == v, (m.id, m.at)
    for field in ("x", "y"):
        if hasattr(panel, field):
            value = getattr(panel, field).value
            assert round(value, places) == value, (field, value)
    assert most_decimals(panel.view.figure.axes[0].get_title()) <= 2, panel.artists.title
    saved = fwwrules.save(s, tmp_path / f"moved-{s.units}.yaml")
    text = saved.read_text()
    for line in text.splitlines():
        if "at:" in line:
            assert most_decimals(line) <= places, line
    back = fwwrules.load(saved)
    assert back.models == s.models  # loads back as shown
    if snapped:  # a free drop lands on the grid; a stop at contact need not
        free = [m for m in s.models if all(abs(v / step - round(v / step)) < 1e-9 for v in m.at)]
        assert free, [m.at for m in s.models]


@pytest.mark.parametrize("text", [INCHES, MILLIMETRES], ids=["in", "mm"])
@pytest.mark.parametrize("snap", [True, False], ids=["snap", "free"])
@pytest.mark.parametrize("cls", [AttackPanel, MeleePanel, ThreatPanel])
def test_drags_leave_no_number_longer_than_the_file(
    cls: Any, snap: bool, text: str, tmp_path: Path
) -> None:
    scenario = fwwrules.loads(text)
    extra = {"step": 4.0 if scenario.units == "in" else 100.0} if cls is ThreatPanel else {}
    panel = cls(scenario, interactive=False, **extra)
    panel.snap.value = snap
    u = scenario.unit_mm
    knight, raider = scenario.model("knight").at, scenario.model("raider").at
    # the knight along a curve into the raider (it stops at contact and slides round)
    curve_drag(panel.view, (knight[0] * u, knight[1] * u), (raider[0] * u, raider[1] * u))
    check_numbers(panel, tmp_path, snapped=snap)
    dog = panel.scenario.model("dog").at
    curve_drag(panel.view, (dog[0] * u, dog[1] * u), ((dog[0] + 3.3) * u, (dog[1] - 1.7) * u))
    check_numbers(panel, tmp_path, snapped=snap)
    if cls is AttackPanel:
        ruled = fwwrules.ruling(fwwrules.load(tmp_path / f"moved-{scenario.units}.yaml"),
                                panel.attacker.value, panel.target.value)  # fmt: skip
        assert panel.ruling is not None and ruled.explain("en") == panel.ruling.explain("en")


def test_threat_title_names_the_base_as_bases_are_sized() -> None:
    panel = ThreatPanel(fwwrules.loads(INCHES), "bos", step=4.0, interactive=False)
    assert "for a 32 mm base" in panel.board.title.get_text()  # not "1.25984 in"
    odd = ThreatPanel(fwwrules.loads(INCHES), "bos", base=1.25, step=4.0, interactive=False)
    assert "for a 31.8 mm base" in odd.board.title.get_text()
    odd.lang.value = "de"
    assert "Base von 31,8 mm" in odd.board.title.get_text()  # German decimal comma


@pytest.mark.parametrize("units", ["in", "mm"])
def test_editor_drags_save_the_numbers_placed(units: str, tmp_path: Path) -> None:
    size = (24.0, 24.0) if units == "in" else (600.0, 600.0)
    ed = BoardEditor(units=units, size=size, interactive=False)
    k = 1.0 if units == "in" else 25.0
    ed.add_model((4 * k, 12 * k), name="Knight", faction="bos")
    ed.add_model((14 * k, 12 * k), name="Raider", faction="raiders")
    ed.snap_box.value = False
    curve_drag(ed.view, (14 * k, 12 * k), (4.3 * k, 12.2 * k))  # into the knight
    saved = ed.save(tmp_path / "board.yaml")
    places = 2 if units == "in" else 1
    for line in saved.read_text().splitlines():
        if "at:" in line:
            assert most_decimals(line) <= places, line
    assert fwwrules.load(saved).models == ed.scenario.models
