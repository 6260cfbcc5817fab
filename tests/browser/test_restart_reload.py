"""A panel whose kernel is gone says so after a kernel restart followed by a page reload
(issue 33: every panel showed JupyterLab's "Error displaying widget: model not found").

The notebook is saved with its widget state (fwwrules_widgets switches JupyterLab's "save
widget state" on), so after the reload the widget manager makes the panels again from the
saved state, without a kernel: every board shows the picture it last showed (kept by the
board canvas as it rested) under the notice that the cell must be run again, in the panel's
language; the grid panel's picture is the saved image under its notice.
"""

from __future__ import annotations

import pytest

from .conftest import JS_SCROLL_TO, RUN_ALL_TIMEOUT, WAIT_TIMEOUT, Lab

pytestmark = pytest.mark.browser

SETUP = """\
import fwwrules
from fwwrules_widgets import (AttackPanel, BoardEditor, ExampleStepper, GridPanel, MeleePanel,
                              Step, ThreatPanel)
cover = fwwrules.load(fwwrules.example_path("cover-example-1"))
melee = fwwrules.load(fwwrules.example_path("melee-behemoth-slide"))
"""
PANELS = {
    "attack": 'AttackPanel(cover, lang="de")',
    "melee": "MeleePanel(melee)",
    "threat": 'ThreatPanel(cover, "brotherhood", step=10)',
    "grid": 'GridPanel(fwwrules.load(fwwrules.example_path("grid/rogue")), lang="de")',
    "stepper": 'ExampleStepper([Step("Cover", cover, {"attacker": "knight", "target": "brute"})])',
    "editor": 'BoardEditor(units="in", size=(24, 24))',
}
WORDS = {
    "en": "The kernel restarted: run the cell again to bring the board back.",
    "de": "Der Kernel wurde neu gestartet: die Zelle erneut ausführen, um das Spielfeld "
    "zurückzuholen.",
}
LANGS = {"attack": "de", "grid": "de"}

JS_ALL_LIVE = """(n) => {
  const canvases = [...document.querySelectorAll('.fwwrules-board-canvas')];
  const grid = document.querySelector('.fwwrules-overlaid img');
  return canvases.length === n && canvases.every(c => +c.dataset.frame > 0)
    && !!grid && grid.naturalWidth > 0;
}"""
# Each code cell's output after the reload: the notice's words (when shown) and the picture.
JS_CELLS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!w || !w.content || !w.content.widgets) return [];
  return w.content.widgets.filter(c => c.model.type === 'code').map(c => {
    const node = c.node.querySelector('.jp-Cell-outputWrapper');
    const text = node ? node.textContent : '';
    const notice = node && node.querySelector('.fwwrules-restarted');
    const shown = notice && getComputedStyle(notice).display !== 'none'
      && notice.getBoundingClientRect().height > 0;
    const canvas = node && node.querySelector('.fwwrules-board-canvas');
    const img = node && node.querySelector('.fwwrules-overlaid img');
    return {
      error: /Error displaying widget|model not found/.test(text),
      notice: shown ? notice.textContent : null,
      poster: canvas ? canvas.dataset.poster || null
        : (img && img.naturalWidth > 0 ? 'image' : null),
    };
  });
}"""
JS_RESTART = """() => {
  window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart();
}"""
JS_RESTARTED = """() => {
  const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  return !!k && k.status === 'idle' && k.connectionStatus === 'connected';
}"""


def test_after_a_restart_and_a_reload_every_panel_shows_its_picture_and_the_notice(
    lab: Lab,
) -> None:
    name = lab.write_notebook("restart-reload.ipynb", SETUP, *PANELS.values())
    with lab.session(1280, 800, failure_shot="restart-reload-failed.png") as page:
        lab.open(page, name)
        boards = len(PANELS) - 1  # every panel but the grid's has a board canvas
        page.wait_for_function(JS_ALL_LIVE, arg=boards, timeout=RUN_ALL_TIMEOUT * 1000)
        page.wait_for_timeout(2500)  # each board at rest keeps its picture
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_timeout(1500)
        page.evaluate(JS_RESTART)
        page.wait_for_timeout(1000)
        page.wait_for_function(JS_RESTARTED, timeout=WAIT_TIMEOUT * 1000)
        page.reload()
        page.wait_for_function(
            f"() => {{ const c = ({JS_CELLS})().slice(1); return c.length === {len(PANELS)}"
            " && c.every(x => x.notice); }",
            timeout=WAIT_TIMEOUT * 1000,
        )
        page.wait_for_timeout(1000)
        cells = []
        for i in range(1, len(PANELS) + 1):  # each in view (JupyterLab skips the rest)
            page.evaluate(JS_SCROLL_TO, i)
            page.wait_for_timeout(300)
            cells.append(page.evaluate(JS_CELLS)[i])
        for (panel, _), cell in zip(PANELS.items(), cells, strict=True):
            assert not cell["error"], (panel, cell)
            assert cell["notice"] == WORDS[LANGS.get(panel, "en")], (panel, cell)
            assert cell["poster"] in ("shown", "image"), (panel, cell)
        for panel in ("attack", "grid"):
            page.evaluate(JS_SCROLL_TO, list(PANELS).index(panel) + 1)
            page.wait_for_timeout(500)
            lab.screenshot(page, f"restart-reload-{panel}.png")
