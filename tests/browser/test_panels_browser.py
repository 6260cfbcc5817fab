"""Every panel in a real JupyterLab in Chromium, as a reader sees it, at 1280x800 and 1920x1080.

One Lab server and one browser for the suite (``conftest.py``). For every notebook: Run All at
1280x800, then check each panel, then resize to 1920x1080 and check again:

* no error output, no "Loading widget" / "Error displaying widget";
* every panel's board (an ipympl canvas, or the grid's picture) visible, at least 300 px wide;
* no element of a panel sticking out of its output area;
* no dropdown whose selected text is wider than the control.

Then, with real mouse events (down, moves, up): drag a base in the attack panel of notebook
01 (the ruling text and the x/y fields change), drag a model into contact in a melee panel
(a new engagement appears), and do the same in a fresh notebook holding the README's snippet.
Screenshots of each panel at both sizes go to ``artifacts/``.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPO, Lab

pytestmark = pytest.mark.browser

SIZES = ((1280, 800), (1920, 1080))
NOTEBOOKS = sorted(p.name for p in (REPO / "notebooks").glob("*.ipynb"))
MIN_BOARD_PX = 300
CHANGE_TIMEOUT = 30.0

# A panel: an output area holding a widget view with a board (an ipympl canvas or an image).
JS_PANEL_CELLS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const out = [];
  w.content.widgets.forEach((c, i) => {
    if (c.model.type !== 'code') return;
    const n = c.node;
    if (n.querySelector('.jupyter-widgets') || /Loading widget|Error displaying widget/
        .test(n.innerText)) out.push(i);
  });
  return out;
}"""
JS_SCROLL_TO = """async (i) => {
  const w = window.jupyterapp.shell.currentWidget;
  await w.content.scrollToItem(i, 'start');
  const node = w.content.widgets[i].node;
  const out = node.querySelector('.jp-Cell-outputWrapper') || node;
  out.scrollIntoView({block: 'start'});
}"""
JS_CANVASES_SIZED = """(i) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
  return [...cell.node.querySelectorAll('.jupyter-matplotlib-canvas-div')]
    .every(c => c.getBoundingClientRect().width > 0);
}"""
CANVAS_TIMEOUT = 30
# Problems of the panel in cell i, as text.
JS_CHECK_PANEL = """(i) => {
  const w = window.jupyterapp.shell.currentWidget;
  const cell = w.content.widgets[i];
  const problems = [];
  const text = cell.node.innerText;
  if (/Loading widget/.test(text)) problems.push('shows "Loading widget"');
  if (/Error displaying widget/.test(text)) problems.push('shows "Error displaying widget"');
  const errors = cell.node.querySelectorAll(
    '[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output.jp-mod-error');
  errors.forEach(e => problems.push('error output: ' + e.innerText.slice(0, 300)));
  const areas = cell.node.querySelectorAll('.jp-OutputArea-output');
  const boards = [];
  areas.forEach(area => {
    if (!area.querySelector('.jupyter-widgets')) return;
    const box = area.getBoundingClientRect();
    area.querySelectorAll('.jupyter-matplotlib-canvas-div, .widget-image').forEach(b => {
      const r = b.getBoundingClientRect();
      const style = getComputedStyle(b);
      boards.push({w: r.width, h: r.height, visible: style.visibility !== 'hidden'
                   && style.display !== 'none' && r.width > 0 && r.height > 0});
    });
    area.querySelectorAll('.jupyter-widgets *').forEach(e => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      if (e.closest('option')) return;
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        problems.push('sticks out of the output area by ' + Math.round(r.right - box.right)
          + ' px: <' + e.tagName.toLowerCase() + ' class="' + e.className + '"> '
          + (e.innerText || '').slice(0, 40));
      }
    });
    const ctx = document.createElement('canvas').getContext('2d');
    area.querySelectorAll('.widget-dropdown select').forEach(s => {
      const cs = getComputedStyle(s);
      ctx.font = cs.font;
      const opt = s.options[s.selectedIndex];
      const label = opt ? opt.textContent : '';
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const need = ctx.measureText(label).width;
      if (need > room) problems.push('dropdown text cut: "' + label + '" needs '
        + Math.round(need) + ' px, has ' + Math.round(room));
    });
  });
  if (!boards.length) problems.push('no board (canvas or picture) in the panel');
  boards.forEach(b => {
    if (!b.visible) problems.push('board not visible: ' + JSON.stringify(b));
    else if (b.w < MIN) problems.push('board only ' + Math.round(b.w) + ' px wide');
  });
  return problems;
}""".replace("MIN", str(MIN_BOARD_PX))


def _check_panels(lab: Lab, page: Any, notebook: str, size: tuple[int, int]) -> list[str]:
    cells: list[int] = page.evaluate(JS_PANEL_CELLS)
    problems = []
    for n, i in enumerate(cells):
        page.evaluate(JS_SCROLL_TO, i)
        page.wait_for_timeout(400)
        # The canvases get their size once the kernel answers the browser's first call; a
        # canvas that never does is reported below as "board not visible".
        with contextlib.suppress(Exception):
            page.wait_for_function(JS_CANVASES_SIZED, arg=i, timeout=CANVAS_TIMEOUT * 1000)
        found: list[str] = page.evaluate(JS_CHECK_PANEL, i)
        problems += [f"{notebook} cell {i} at {size[0]}x{size[1]}: {p}" for p in found]
        stem = notebook.removesuffix(".ipynb")
        lab.screenshot(page, f"panel-{stem}-{n + 1}-{size[0]}x{size[1]}.png")
    if not cells and _has_panel(notebook):
        problems.append(f"{notebook}: no panel found")
    return problems


def _has_panel(notebook: str) -> bool:
    """Whether the notebook makes a panel (an AttackPanel, ExampleStepper ... in a cell)."""
    path = REPO / "notebooks" / notebook
    if not path.exists():
        return True  # the tests' own notebooks all hold one
    nb = json.loads(path.read_text())
    sources = ("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return any(re.search(r"\b(\w*Panel|ExampleStepper|BoardEditor)\(", s) for s in sources)


@pytest.mark.parametrize("notebook", [n for n in NOTEBOOKS if not n.startswith("10-")])
def test_every_panel_fits_and_shows_its_board(lab: Lab, notebook: str) -> None:
    page = lab.new_page(*SIZES[0])
    try:
        lab.open(page, notebook)
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        problems = []
        for size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.wait_for_timeout(500)
            problems += _check_panels(lab, page, notebook, size)
        assert not problems, "\n".join(problems)
    except Exception:
        print(lab.tail())
        raise
    finally:
        page.context.close()
        lab.shutdown_kernels()


# --- dragging ---------------------------------------------------------------------------------

# Prints the newest panel of a class: its canvas's CSS size and every base (id, CSS centre
# from the canvas's top-left corner, CSS radius), the ruling text and the x/y fields.
PROBE = """
import gc, json
from fwwrules_widgets import {cls}
_panels = [o for o in gc.get_objects() if isinstance(o, {cls})]
_p = _panels[-1]
_fig = _p.view.figure
_ratio = float(getattr(_fig.canvas, "device_pixel_ratio", 1.0) or 1.0)
_h = _fig.bbox.height
def _css(xy):
    px, py = _p.view.ax.transData.transform(xy)
    return (px / _ratio, (_h - py) / _ratio)
_bases = {{}}
for _mid, _c in _p.artists.bases.items():
    _cx, _cy = _css(_c.center)
    _ex, _ = _css((_c.center[0] + _c.get_radius(), _c.center[1]))
    _bases[_mid] = [_cx, _cy, _ex - _cx]
print(json.dumps({{
    "interactive": _p.view.interactive,
    "size": [_fig.bbox.width / _ratio, _h / _ratio],
    "bases": _bases,
    "at": {{m.id: list(m.at) for m in _p.scenario.models}},
    "engaged": sorted(k for k, v in getattr(_p, "engagements", {{}}).items() if v),
    "xy": [_p.x.value, _p.y.value],
    "html": _p.html.value,
}}))
"""


def probe(lab: Lab, page: Any, cls: str) -> dict[str, Any]:
    out = lab.kernel(page, PROBE.format(cls=cls))
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def canvas_box(page: Any, index: int = -1) -> dict[str, float]:
    """Page coordinates of the index-th ipympl canvas of the open notebook."""
    canvases = page.locator(".jupyter-matplotlib-canvas-div")
    count = canvases.count()
    assert count > 0, "no ipympl canvas on the page: the board cannot be dragged"
    c = canvases.nth(index if index >= 0 else count + index)
    c.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box: dict[str, float] = c.bounding_box()
    return box


def drag(page: Any, box: dict[str, float], start: list[float], end: tuple[float, float]) -> None:
    """Press on ``start`` (canvas CSS px), move in steps to ``end``, release."""
    x0, y0 = box["x"] + start[0], box["y"] + start[1]
    x1, y1 = box["x"] + end[0], box["y"] + end[1]
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 13):
        page.mouse.move(x0 + (x1 - x0) * k / 12, y0 + (y1 - y0) * k / 12)
        page.wait_for_timeout(60)
    page.mouse.up()


def wait_changed(lab: Lab, page: Any, cls: str, key: str, before: Any) -> dict[str, Any]:
    deadline = time.monotonic() + CHANGE_TIMEOUT
    now = probe(lab, page, cls)
    while now[key] == before and time.monotonic() < deadline:
        page.wait_for_timeout(300)
        now = probe(lab, page, cls)
    return now


def _drag_attack(lab: Lab, page: Any, shot: str) -> None:
    before = probe(lab, page, "AttackPanel")
    assert before["interactive"], "the attack panel's board is not an ipympl canvas"
    box = canvas_box(page, 0)
    assert box["width"] >= MIN_BOARD_PX, box
    mid, (cx, cy, _r) = next(iter(before["bases"].items()))
    # Drag the first model a quarter of the board to the side (toward the middle).
    dx = box["width"] / 4 if cx < box["width"] / 2 else -box["width"] / 4
    drag(page, box, [cx, cy], (cx + dx, cy))
    after = wait_changed(lab, page, "AttackPanel", "html", before["html"])
    lab.screenshot(page, f"drag-{shot}.png")
    assert after["at"][mid] != before["at"][mid], f"{mid} did not move: {after['at'][mid]}"
    assert after["html"] != before["html"], "the ruling text did not change after the drag"
    assert after["xy"] != before["xy"], "the x/y fields did not follow the drag"


def test_attack_panel_drag_in_notebook_01(lab: Lab) -> None:
    page = lab.new_page(1280, 800)
    try:
        lab.open(page, "01-ranged-attacks.ipynb")
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        _drag_attack(lab, page, "01-attack-panel")
    except Exception:
        print(lab.tail())
        raise
    finally:
        page.context.close()
        lab.shutdown_kernels()


def test_readme_snippet_in_a_fresh_notebook_drags(lab: Lab) -> None:
    """The README's notebook snippet, as a newcomer types it, in a new notebook."""
    readme = (REPO / "README.md").read_text()
    assert "AttackPanel(fwwrules.load(" in readme
    start = readme.index("from fwwrules_widgets import AttackPanel")
    snippet = readme[readme.rindex("```", 0, start) : readme.index("```", start)]
    snippet = snippet.split("\n", 1)[1]
    name = lab.write_notebook("readme-snippet.ipynb", snippet)
    page = lab.new_page(1280, 800)
    try:
        lab.open(page, name)
        problems = _check_panels(lab, page, name, (1280, 800))
        assert not problems, "\n".join(problems)
        _drag_attack(lab, page, "readme-snippet")
    except Exception:
        print(lab.tail())
        raise
    finally:
        page.context.close()
        lab.shutdown_kernels()


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
    page = lab.new_page(1280, 800)
    try:
        lab.open(page, name)
        before = probe(lab, page, "MeleePanel")
        assert before["interactive"], "the melee panel's board is not an ipympl canvas"
        assert before["engaged"] == []
        box = canvas_box(page, 0)
        kx, ky, _ = before["bases"]["knight"]
        rx, ry, _ = before["bases"]["raider"]
        # Aim past the raider: the knight stops at contact instead of overlapping it.
        drag(page, box, [kx, ky], (rx + 5.0, ry))
        after = wait_changed(lab, page, "MeleePanel", "engaged", before["engaged"])
        lab.screenshot(page, "drag-melee-panel.png")
        assert after["engaged"] == ["knight", "raider"], after["engaged"]
        assert after["at"]["knight"] != before["at"]["knight"]
        # Drag on, down and into the raider: the knight slides round it, keeping contact,
        # instead of sticking where it touched.
        kx, ky, _ = after["bases"]["knight"]
        rx, ry, rr = after["bases"]["raider"]
        drag(page, box, [kx, ky], (rx, ry + 3 * rr))
        slid = wait_changed(lab, page, "MeleePanel", "at", after["at"])
        lab.screenshot(page, "drag-melee-panel-slide.png")
        assert slid["at"]["knight"][1] < after["at"]["knight"][1] - 10.0, slid["at"]
        assert slid["engaged"] == ["knight", "raider"], slid["engaged"]
    except Exception:
        print(lab.tail())
        raise
    finally:
        page.context.close()
        lab.shutdown_kernels()


def test_artifacts_folder_is_gitignored() -> None:
    assert "artifacts" in Path(REPO / ".gitignore").read_text()
