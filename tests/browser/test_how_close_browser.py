"""The attack panel's live "how close" line in a real JupyterLab in Chromium (issue 35).

A real mouse drag of the Knight in the book's cover example 1 (a knife-edge call): the mouse is
pressed, moved in small steps and held still after each; while it is still pressed the line
beside the board changes from answer to answer, and each answer the page shows is the one the
kernel computes for the position drawn (never one about an earlier position). English at
1280x800 and German at 1920x1080 (and the other two pairs for the screenshots); screenshots of
the line during the drag go to ``artifacts/how-close-<lang>-<w>x<h>.png``.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from .conftest import WAIT_TIMEOUT, Lab, board_synced, canvas_box, kernel_json, wait_until

pytestmark = pytest.mark.browser

NOTEBOOK = """\
from pathlib import Path
import fwwrules
from fwwrules_widgets import AttackPanel
s = fwwrules.load(Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml")
panel = AttackPanel(s, attacker="knight", target="brute", lang="{lang}")
panel
"""

# The knight's base (CSS px from the canvas's top-left corner), the line the kernel last
# said and the sentence of the margins where the knight now stands, computed here afresh.
PROBE = """
import json
from fwwrules.rulings import names_in
_v = panel.view
_ratio = float(getattr(_v.figure.canvas, "device_pixel_ratio", 1.0) or 1.0)
_h = _v.figure.bbox.height
_px, _py = _v.ax.transData.transform(panel.artists.bases["knight"].center)
_r = fwwrules.ruling(panel.scenario, "knight", "brute")
print(json.dumps({
    "knight": [_px / _ratio, (_h - _py) / _ratio],
    "expected": _r.margins.sentence(panel.lang.value, names_in(_r.labels, panel.lang.value)),
    "said": _v.said(panel.how_close.html),
}))
"""

MEASURING = {"en": "measuring", "de": "wird gemessen"}
ANSWER_TIMEOUT = 2 * WAIT_TIMEOUT
"""Seconds to wait for the line's answer: the measuring process runs at the lowest CPU
priority (it yields to the kernel), so on a loaded machine its first answer (a new process
importing the package) can take far longer than a kernel probe."""


def _line(page: Any) -> str:
    text: str = page.locator(".fwwrules-how-close").first.inner_text()
    return text


def _answered(page: Any, lang: str, timeout: float = ANSWER_TIMEOUT) -> str:
    """The line's text once it shows an answer (not "measuring")."""
    deadline = time.monotonic() + timeout
    text = _line(page)
    while (MEASURING[lang] in text or not text.strip()) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        text = _line(page)
    return text


def _showing(page: Any, words: str, timeout: float = ANSWER_TIMEOUT) -> str:
    """The line's text once it shows ``words`` (or the timeout passed)."""
    deadline = time.monotonic() + timeout
    text = _line(page)
    while words not in text and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        text = _line(page)
    return text


@pytest.mark.parametrize(
    ("lang", "size"),
    [("en", (1280, 800)), ("de", (1920, 1080)), ("de", (1280, 800)), ("en", (1920, 1080))],
)
def test_the_how_close_line_changes_during_a_real_mouse_drag(
    lab: Lab, lang: str, size: tuple[int, int]
) -> None:
    name = lab.write_notebook(f"how-close-{lang}.ipynb", NOTEBOOK.format(lang=lang))
    with lab.session(*size, failure_shot=f"how-close-{lang}-failed.png") as page:
        lab.open(page, name)
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        first = _answered(page, lang)
        label = "How close:" if lang == "en" else "Wie knapp:"
        assert first.startswith(label), first
        box = canvas_box(page, 0)
        state = kernel_json(lab, page, PROBE)
        assert state["expected"] in first  # the book's knife edge, as the kernel computes it
        kx, ky = state["knight"]
        page.mouse.move(box["x"] + kx, box["y"] + ky)
        page.mouse.down()
        seen = []
        for k in range(1, 5):
            # a few CSS pixels west and south at a time, then held still: the line answers
            page.mouse.move(box["x"] + kx - 4 * k, box["y"] + ky + 3 * k, steps=2)
            # the kernel has handled the moves (the board's messages may be handled on a
            # subshell, after a probe): the knight stands under the pointer
            board_synced(page)
            moved = kernel_json(lab, page, PROBE)["knight"]
            assert abs(moved[0] - (kx - 4 * k)) < 2 and abs(moved[1] - (ky + 3 * k)) < 2, (k, moved)
            # the kernel answers the position it drew; the page shows that answer
            state = wait_until(
                lambda: kernel_json(lab, page, PROBE),
                lambda s: s["expected"] in s["said"],
                page,
                ANSWER_TIMEOUT,
            )
            assert state["expected"] in state["said"], (k, state)
            text = _showing(page, state["expected"])
            assert state["expected"] in text, (k, text, state)
            seen.append(text)
            if k == 4:
                lab.screenshot(page, f"how-close-{lang}-{size[0]}x{size[1]}.png")
        page.mouse.up()
        board_synced(page)
        assert len(set(seen)) > 1, f"the line did not change during the drag: {seen}"
        state = wait_until(
            lambda: kernel_json(lab, page, PROBE),
            lambda s: s["expected"] in s["said"],
            page,
            ANSWER_TIMEOUT,
        )
        assert state["expected"] in _showing(page, state["expected"])
