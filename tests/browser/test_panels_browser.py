"""Every panel in a real JupyterLab in Chromium, as a reader sees it, at 1280x800 and 1920x1080.

One Lab server and one browser for the suite (``conftest.py``). For every notebook: Run All at
1280x800 with JupyterLab's file browser open, then check each panel, then resize to
1920x1080 and check again:

* no error output, no "Loading widget" / "Error displaying widget";
* every panel's board (a live board canvas, or the grid's picture) visible, at least 300 px wide;
* no element of a panel sticking out of its output area;
* no dropdown whose selected text is wider than the control.

Then, with real mouse events (down, moves, up): drag a base in the attack panel of notebook
01 (the ruling text and the x/y fields change), drag a model into contact in a melee panel
(a new engagement appears), and do the same in a fresh notebook holding the README's snippet.
Screenshots of each panel at both sizes go to ``artifacts/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import (
    MIN_BOARD_PX,
    REPO,
    Lab,
    canvas_box,
    check_panels,
    drag,
    kernel_json,
    panel_probe,
    wait_until,
)

pytestmark = pytest.mark.browser

SIZES = ((1280, 800), (1920, 1080))
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("notebook", [n for n in NOTEBOOKS if not n.startswith("10-")])
def test_every_panel_fits_and_shows_its_board(lab: Lab, notebook: str) -> None:
    with lab.session(*SIZES[0]) as page:
        lab.open(page, notebook)
        # as a newcomer has it: JupyterLab's file browser open beside the notebook
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
        problems = []
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(500)
            problems += check_panels(lab, page, notebook, size)
        assert not problems, "\n".join(problems)


# --- dragging ---------------------------------------------------------------------------------

# Prints the newest panel of a class: its canvas's CSS size and every base (id, CSS centre
# from the canvas's top-left corner, CSS radius), the ruling text and the x/y fields.
PROBE = """
_bases = {}
for _mid, _c in _p.artists.bases.items():
    _cx, _cy = _css(_c.center)
    _ex, _ = _css((_c.center[0] + _c.get_radius(), _c.center[1]))
    _bases[_mid] = [_cx, _cy, _ex - _cx]
print(json.dumps({
    "interactive": _p.view.interactive,
    "size": [_fig.bbox.width / _ratio, _h / _ratio],
    "bases": _bases,
    "at": {m.id: list(m.at) for m in _p.scenario.models},
    "engaged": sorted(k for k, v in getattr(_p, "engagements", {}).items() if v),
    "xy": [_p.x.value, _p.y.value],
    "html": _p.html.value,
}))
"""


def probe(lab: Lab, page: Any, cls: str) -> dict[str, Any]:
    return kernel_json(lab, page, panel_probe(cls, PROBE))


def _drag_attack(lab: Lab, page: Any, shot: str) -> None:
    before = probe(lab, page, "AttackPanel")
    assert before["interactive"], "the attack panel's board is not a live board canvas"
    box = canvas_box(page, 0)
    assert box["width"] >= MIN_BOARD_PX, box
    mid, (cx, cy, _r) = next(iter(before["bases"].items()))
    # Drag the first model a quarter of the board to the side (toward the middle).
    dx = box["width"] / 4 if cx < box["width"] / 2 else -box["width"] / 4
    drag(page, box, [cx, cy], (cx + dx, cy))
    # The model, then the ruling, then the fields are updated: wait until all three are.
    after = wait_until(
        lambda: probe(lab, page, "AttackPanel"),
        lambda s: (
            s["at"][mid] != before["at"][mid]
            and s["html"] != before["html"]
            and s["xy"] != before["xy"]
        ),
        page,
    )
    lab.screenshot(page, f"drag-{shot}.png")
    assert after["at"][mid] != before["at"][mid], f"{mid} did not move: {after['at'][mid]}"
    assert after["html"] != before["html"], "the ruling text did not change after the drag"
    assert after["xy"] != before["xy"], "the x/y fields did not follow the drag"


def test_attack_panel_drag_in_notebook_01(lab: Lab) -> None:
    with lab.session(1280, 800) as page:
        lab.open(page, "01-ranged-attacks.ipynb")
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        _drag_attack(lab, page, "01-attack-panel")


def test_readme_snippet_in_a_fresh_notebook_drags(lab: Lab) -> None:
    """The README's notebook snippet, as a newcomer types it, in a new notebook."""
    readme = (REPO / "README.md").read_text()
    assert "AttackPanel(fwwrules.load(" in readme
    start = readme.index("from fwwrules_widgets import AttackPanel")
    snippet = readme[readme.rindex("```", 0, start) : readme.index("```", start)]
    snippet = snippet.split("\n", 1)[1]
    name = lab.write_notebook("readme-snippet.ipynb", snippet)
    with lab.session(1280, 800) as page:
        lab.open(page, name)
        problems = check_panels(lab, page, name, (1280, 800))
        assert not problems, "\n".join(problems)
        _drag_attack(lab, page, "readme-snippet")


MELEE = """\
import fwwrules
from fwwrules_widgets import MeleePanel
s = fwwrules.loads('''
format: fwwrules/scenario@1
models:
  - {id: knight, name: Knight, faction: bos, base: 40, at: [100, 100]}
  - {id: raider, name: Raider, faction: raiders, base: 32, at: [260, 100]}
  - {id: dog, name: Dog, faction: raiders, base: 32, at: [100, 260]}
''')
MeleePanel(s)
"""


def test_melee_panel_drag_into_contact_makes_an_engagement(lab: Lab) -> None:
    name = lab.write_notebook("melee-drag.ipynb", MELEE)
    with lab.session(1280, 800) as page:
        lab.open(page, name)
        before = probe(lab, page, "MeleePanel")
        assert before["interactive"], "the melee panel's board is not a live board canvas"
        assert before["engaged"] == []
        box = canvas_box(page, 0)
        kx, ky, _ = before["bases"]["knight"]
        rx, ry, _ = before["bases"]["raider"]
        # Aim past the raider: the knight stops at contact instead of overlapping it.
        drag(page, box, [kx, ky], (rx + 5.0, ry))
        after = wait_until(
            lambda: probe(lab, page, "MeleePanel"),
            lambda s: (
                s["engaged"] == ["knight", "raider"] and s["at"]["knight"] != before["at"]["knight"]
            ),
            page,
        )
        lab.screenshot(page, "drag-melee-panel.png")
        assert after["engaged"] == ["knight", "raider"], after["engaged"]
        assert after["at"]["knight"] != before["at"]["knight"]
        # Drag on, down and into the raider: the knight slides round it, keeping contact,
        # instead of sticking where it touched.
        kx, ky, _ = after["bases"]["knight"]
        rx, ry, rr = after["bases"]["raider"]
        drag(page, box, [kx, ky], (rx, ry + 3 * rr))
        slid = wait_until(
            lambda: probe(lab, page, "MeleePanel"),
            lambda s: (
                s["at"]["knight"][1] < after["at"]["knight"][1] - 10.0
                and s["engaged"] == ["knight", "raider"]
            ),
            page,
        )
        lab.screenshot(page, "drag-melee-panel-slide.png")
        assert slid["at"]["knight"][1] < after["at"]["knight"][1] - 10.0, slid["at"]
        assert slid["engaged"] == ["knight", "raider"], slid["engaged"]


FALLBACK = """\
import fwwrules
from fwwrules_widgets import AttackPanel
AttackPanel(fwwrules.load(fwwrules.example_path("cover-example-1")), interactive=False)
"""
JS_BOARD_IMAGE = """() => {
  const img = document.querySelector('.jp-OutputArea-output img.widget-image');
  if (!img || !img.complete || img.naturalWidth === 0) return null;
  return {natural: img.naturalWidth, css: img.getBoundingClientRect().width};
}"""


def test_png_fallback_is_sharp_at_device_pixel_ratio_2(lab: Lab) -> None:
    """Without the live canvas (``interactive=False`` stands in for a kernel without anywidget)
    the board is a PNG of twice its CSS size, shown at its CSS size: sharp at ratio 2."""
    name = lab.write_notebook("png-fallback.ipynb", FALLBACK)
    with lab.session(1280, 800, scale=2.0) as page:
        lab.open(page, name)
        page.wait_for_function(JS_BOARD_IMAGE, timeout=60_000)
        got = page.evaluate(JS_BOARD_IMAGE)
        page.locator("img.widget-image").first.scroll_into_view_if_needed()
        lab.screenshot(page, "png-fallback-dpr2.png")
        assert got["css"] >= MIN_BOARD_PX, got
        assert got["natural"] >= 2 * got["css"] - 1, got  # one image pixel per device pixel


def test_artifacts_folder_is_gitignored() -> None:
    assert "artifacts" in Path(REPO / ".gitignore").read_text()
