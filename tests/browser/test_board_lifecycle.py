"""A board that cannot reach its kernel says so in words.

In JupyterLab in Chromium: a saved notebook reloaded shows either the live board again (the
kernel still holds it) or the saved picture with the line that running the cell brings the
board back, never a bare picture; after a kernel restart the board says, over itself, that
the kernel restarted and the cell must be run again.
"""

from __future__ import annotations

import pytest

from .conftest import WAIT_TIMEOUT, Lab

pytestmark = pytest.mark.browser

NOTEBOOK = """\
import fwwrules
from fwwrules_widgets import AttackPanel
AttackPanel(fwwrules.load(fwwrules.example_path("cover-example-1")))
"""
JS_LIVE = """() => {
  const c = document.querySelector('.fwwrules-board-canvas');
  return !!c && +c.dataset.frame > 0 && c.getBoundingClientRect().width > 0;
}"""
JS_SAVED_NOTE = """() => {
  const n = document.querySelector('.fwwrules-saved-note');
  return n && n.getBoundingClientRect().height > 0 ? n.innerText : null;
}"""
JS_RESTARTED = """() => {
  const n = document.querySelector('.fwwrules-restarted');
  if (!n) return null;
  const box = n.getBoundingClientRect();
  return getComputedStyle(n).display !== 'none' && box.height > 0 ? n.innerText : null;
}"""
JS_RESTART = """() => {
  window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.restart();
}"""


def test_reload_and_restart_say_what_to_do(lab: Lab) -> None:
    name = lab.write_notebook("lifecycle.ipynb", NOTEBOOK)
    with lab.session(1280, 800) as page:
        lab.open(page, name)
        page.wait_for_function(JS_LIVE, timeout=WAIT_TIMEOUT * 1000)
        assert page.evaluate(JS_RESTARTED) is None  # nothing to say while the kernel is there
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_timeout(1000)
        page.reload()
        page.wait_for_function(
            f"() => ({JS_LIVE})() || !!({JS_SAVED_NOTE})()", timeout=WAIT_TIMEOUT * 1000
        )
        lab.screenshot(page, "lifecycle-reloaded.png")
        if not page.evaluate(JS_LIVE):
            note = page.evaluate(JS_SAVED_NOTE)
            assert "run the cell" in note, note
        else:  # the kernel still held the panel: the live board came back
            assert page.evaluate(JS_SAVED_NOTE) is None
            page.evaluate(JS_RESTART)
            page.wait_for_function(f"() => !!({JS_RESTARTED})()", timeout=WAIT_TIMEOUT * 1000)
            text = page.evaluate(JS_RESTARTED)
            lab.screenshot(page, "lifecycle-restarted.png")
            assert "kernel restarted" in text and "run the cell again" in text, text


GRID_NOTEBOOK = """\
import fwwrules
from fwwrules_widgets import GridPanel
GridPanel(fwwrules.load(fwwrules.example_path("grid/rogue")), lang="de")
"""
JS_GRID_LIVE = """() => {
  const img = document.querySelector('.fwwrules-overlaid img');
  return !!img && img.naturalWidth > 0 && !!document.querySelector('.fwwrules-notice');
}"""
JS_ICONS = """() => [...document.querySelectorAll('.jupyter-widgets-disconnected')]
  .filter(e => getComputedStyle(e, '::before').display !== 'none'
               && getComputedStyle(e, '::before').content !== 'none').length"""
JS_OVER_PICTURE = """() => {
  const n = document.querySelector('.fwwrules-restarted').getBoundingClientRect();
  const p = document.querySelector('.fwwrules-board-canvas, .fwwrules-overlaid img')
    .getBoundingClientRect();
  return [[n.left, n.top, n.width, n.height], [p.left, p.top, p.width, p.height]]
    .map(r => r.map(Math.round));
}"""


@pytest.mark.parametrize(
    ("panel", "notebook", "live", "words"),
    [
        ("attack", NOTEBOOK, JS_LIVE,
         "The kernel restarted: run the cell again to bring the board back."),
        ("grid", GRID_NOTEBOOK, JS_GRID_LIVE,
         "Der Kernel wurde neu gestartet: die Zelle erneut ausführen, um das Spielfeld "
         "zurückzuholen."),
    ],
)  # fmt: skip
def test_a_restarted_kernel_is_named_on_the_board(
    lab: Lab, panel: str, notebook: str, live: str, words: str
) -> None:
    """The words lie over the picture, in the panel's language; the controls keep their
    width (no broken-link icon squeezes a dropdown's text)."""
    name = lab.write_notebook(f"restart-{panel}.ipynb", notebook)
    with lab.session(1280, 800) as page:
        lab.open(page, name)
        page.wait_for_function(live, timeout=WAIT_TIMEOUT * 1000)
        assert page.evaluate(JS_RESTARTED) is None
        page.evaluate(JS_RESTART)
        page.wait_for_function(f"() => !!({JS_RESTARTED})()", timeout=WAIT_TIMEOUT * 1000)
        text = page.evaluate(JS_RESTARTED)
        page.locator(".fwwrules-restarted").first.scroll_into_view_if_needed()
        lab.screenshot(page, f"{panel}-kernel-restarted.png")
        assert text == words, text
        words_box, picture_box = page.evaluate(JS_OVER_PICTURE)
        assert all(abs(a - b) <= 1 for a, b in zip(words_box, picture_box, strict=True)), (
            words_box,
            picture_box,
        )
        assert page.evaluate(JS_ICONS) == 0
