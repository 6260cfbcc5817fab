"""The ThreatPanel in a real JupyterLab in Chromium, with real mouse events, at 1280x800 and
1920x1080: the panel fits and shows its board; dragging a shooter updates the map when it is
dropped (equal to a fresh map); clicking a free spot lists the rulings for a model standing
there. Screenshots go to ``artifacts/``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Lab, canvas_box, check_panels, drag, kernel_json, panel_probe
from .conftest import wait_until as wait_for_state

pytestmark = pytest.mark.browser

NOTEBOOK = """\
import fwwrules
from fwwrules_widgets import ThreatPanel
ThreatPanel(fwwrules.load(fwwrules.example_path("cover-example-1")), "brotherhood", step=10)
"""

PROBE = """
import fwwrules
_bases = {}
for _mid, _c in _p.board.bases.items():
    _bases[_mid] = list(_css(_c.center))
print(json.dumps({
    "interactive": _p.view.interactive,
    "bases": _bases,
    "at": {m.id: list(m.at) for m in _p.scenario.models},
    "allowed": int(_p.result.allowed.sum()),
    "selected": _p.selected,
    "html": _p.html.value,
    "free": list(_css((300.0, 60.0))),
    "fresh": bool((fwwrules.threat_map(_p.scenario, _p.side.value, step=_p.step, area=_p.area)
                   .allowed == _p.result.allowed).all()),
}))
"""


def probe(lab: Lab, page: Any) -> dict[str, Any]:
    return kernel_json(lab, page, panel_probe("ThreatPanel", PROBE))


def wait_until(lab: Lab, page: Any, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Probe the panel until ``done`` (the final condition) holds (``conftest.wait_until``)."""
    return wait_for_state(lambda: probe(lab, page), done, page)


def test_threat_panel_drag_and_click(lab: Lab) -> None:
    name = lab.write_notebook("threat-panel.ipynb", NOTEBOOK)
    with lab.session(1280, 800) as page:
        lab.open(page, name)
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        problems = check_panels(lab, page, name, (1280, 800))
        assert not problems, "\n".join(problems)
        before = probe(lab, page)
        assert before["interactive"], "the threat panel's board is not a live board canvas"
        box = canvas_box(page, 0)
        lab.screenshot(page, "threat-panel-1280.png")
        bx, by = before["bases"]["brute"]
        drag(page, box, [bx, by], (bx - 90.0, by + 40.0))
        after = wait_until(
            lab,
            page,
            lambda s: (
                s["allowed"] != before["allowed"] and s["at"]["brute"] != before["at"]["brute"]
            ),
        )
        assert after["at"]["brute"] != before["at"]["brute"], "the brute did not move"
        assert after["allowed"] != before["allowed"], "the map did not follow the drag"
        assert after["fresh"], "the map updated on drop differs from a fresh map"
        page.wait_for_timeout(800)  # the frontend paints the redrawn board after the state
        lab.screenshot(page, "threat-panel-dragged.png")
        fx, fy = after["free"]
        page.mouse.click(box["x"] + fx, box["y"] + fy)
        clicked = wait_until(
            lab, page, lambda s: s["selected"] is not None and "fwwrules-ruling" in s["html"]
        )
        assert clicked["selected"] is not None, "the click selected no position"
        assert "A model standing at" in clicked["html"]
        assert "fwwrules-ruling" in clicked["html"]
        lab.screenshot(page, "threat-panel-clicked.png")
        page.set_viewport_size({"width": 1920, "height": 1080})
        page.wait_for_timeout(800)
        problems = check_panels(lab, page, name, (1920, 1080))
        assert not problems, "\n".join(problems)
        lab.screenshot(page, "threat-panel-1920.png")
