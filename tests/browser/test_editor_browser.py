"""The board editor in JupyterLab in a real Chromium at 1280x800, driven by the mouse.

A fresh notebook shows a ``BoardEditor``; the test places two models and a crate with real
mouse clicks and drags on the board canvas, drags one model, saves the board with the Save
button, and checks the file with ``fwwrules check`` (exit 0) and the loader. Board points are
turned into screen pixels by the kernel's own figure (its layout at the browser's pixel
ratio), so a click lands where the test means it. Screenshots at 1280x800 and 1920x1080,
in English and German, go to ``artifacts/``.

The Lab server and Chromium are the browser suite's (``conftest.py``: skips, and the
``FWWRULES_REQUIRE_BROWSER`` failure, included).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fwwrules_widgets.editor import CANVAS_PX  # the default width, as a reader gets it

from .conftest import (  # the suite's Lab; fixtures come by name
    ARTIFACTS,
    Lab,
    check_panels,
    mouse_drag,
)

pytestmark = pytest.mark.browser

NOTEBOOK = "editor-browser.ipynb"
SAVED = "editor-browser-board.yaml"
SIZE = (24, 24)
SETUP = f"""\
from fwwrules_widgets import BoardEditor
editor = BoardEditor(units="in", size={SIZE})
editor"""
CANVAS = ".fwwrules-board-canvas"
MESSAGE = ".fwwrules-editor-message"
ACTION_TIMEOUT_S = 30


# Board points (inches) to CSS pixels from the canvas's top left, by the kernel's own figure
# (the board is drawn in mm; the layout may move the board when the legend grows).
TO_CSS = """
import json
_f, _u = editor.figure, editor.unit_mm
_r = float(getattr(_f.canvas, "device_pixel_ratio", 1.0) or 1.0)
_x, _y = editor.ax.transData.transform(({x} * _u, {y} * _u))
print(json.dumps([float(_x / _r), float((_f.bbox.height - _y) / _r)]))
"""


class Board:
    """Board points (inches) to page pixels, asked of the kernel's figure."""

    def __init__(self, lab: Lab, page: Any) -> None:
        self.lab = lab
        self.page = page
        self.canvas = page.locator(CANVAS).first

    def px(self, x: float, y: float) -> tuple[float, float]:
        box = self.canvas.bounding_box()
        assert box is not None, "the editor's canvas is not on the page"
        answer = self.lab.kernel(self.page, TO_CSS.format(x=x, y=y)).strip().splitlines()[-1]
        cx, cy = json.loads(answer)
        return (box["x"] + cx, box["y"] + cy)

    def click(self, x: float, y: float) -> None:
        self.page.mouse.click(*self.px(x, y))

    def drag(
        self, start: tuple[float, float], end: tuple[float, float], shot: str | None = None
    ) -> None:
        """Press, move in eight steps, release (``conftest.mouse_drag``; board points map to
        pixels affinely, so equal steps stay equal); ``shot`` names a screenshot taken just
        before the release (the blitted drag as the reader sees it)."""

        def screenshot() -> None:
            self.page.wait_for_timeout(400)
            self.page.screenshot(path=str(ARTIFACTS / str(shot)))

        mouse_drag(
            self.page,
            self.px(*start),
            self.px(*end),
            steps=8,
            pause_ms=40,
            before_release=None if shot is None else screenshot,
        )


def _wait_message(page: Any, text: str) -> str:
    """Wait until the editor's message contains ``text``; return the message."""
    message = page.locator(MESSAGE).first
    deadline = time.monotonic() + ACTION_TIMEOUT_S
    seen = ""
    while time.monotonic() < deadline:
        seen = message.inner_text()
        if text in seen:
            return str(seen)
        page.wait_for_timeout(150)
    raise AssertionError(f"the editor's message never said {text!r}; it says:\n{seen}")


def _wait_summary(page: Any, board: Board, what: str) -> None:
    """Wait until the 'Selected: ...' line names ``what`` (the kernel answered an action)."""
    deadline = time.monotonic() + ACTION_TIMEOUT_S
    label = page.locator(".widget-html", has_text="Selected").first
    while time.monotonic() < deadline:
        if what in label.inner_text():
            return
        page.wait_for_timeout(150)
    raise AssertionError(f"nothing named {what!r} got selected: {label.inner_text()}")


def _text_field(page: Any, label: str) -> Any:
    return page.locator(".widget-text", has=page.locator(f'label:text-is("{label}")')).first


def _tool(page: Any, name: str) -> None:
    page.locator(".widget-toggle-buttons button", has_text=name).first.click()


def test_editor_builds_a_board_with_the_mouse_and_saves_a_valid_file(lab: Lab) -> None:
    lab.write_notebook(NOTEBOOK, SETUP)
    saved = lab.root / "notebooks" / SAVED
    with lab.session(1280, 800, failure_shot="editor-failure.png") as page:
        lab.open(page, NOTEBOOK)
        # as a newcomer has it: the file browser open beside the notebook, at 1280x800
        page.evaluate("() => window.jupyterapp.shell.activateById('filebrowser')")
        page.locator(CANVAS).first.wait_for(state="visible", timeout=ACTION_TIMEOUT_S * 1000)
        problems = check_panels(lab, page, NOTEBOOK, (1280, 800))
        assert not problems, "\n".join(problems)
        _drive(lab, page, saved)

    done = subprocess.run(
        [sys.executable, "-m", "fwwrules", "check", str(saved)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 models, 1 terrain piece" in done.stdout
    import fwwrules

    board = fwwrules.load(saved)
    assert {m.label for m in board.models} == {"Knight", "Raider"}
    assert board.model("raider").at == (16.0, 16.0)  # dragged from (18, 12), snapped
    assert board.model("knight").at == (4.0, 12.0)
    (crate,) = board.terrain
    assert (crate.label, crate.kind) == ("Crate", "cover")
    assert crate.shape == fwwrules.Rect((11.0, 12.0), (2.0, 4.0))


def _kernel_has(lab: Lab, page: Any, condition: str) -> None:
    """Wait until ``condition`` (Python, about ``editor``) holds in the kernel. The form's
    controls and the board's canvas may be handled on different kernel threads (JupyterLab's
    comms over subshells), so a click on the board is made only once the form's values have
    arrived, as a person's would be."""
    code = f"import json; print(json.dumps(bool({condition})))"
    deadline = time.monotonic() + ACTION_TIMEOUT_S
    while time.monotonic() < deadline:
        if json.loads(lab.kernel(page, code).strip().splitlines()[-1]):
            return
        page.wait_for_timeout(150)
    raise AssertionError(f"the kernel never saw {condition}")


def _drive(lab: Lab, page: Any, saved: Path) -> None:
    page.locator(CANVAS).first.wait_for(state="visible", timeout=ACTION_TIMEOUT_S * 1000)
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    _wait_message(page, "The board is valid.")
    canvas = page.locator(CANVAS).first
    box = canvas.bounding_box()
    height = round(CANVAS_PX * 540 / 780)  # the panels' board: 780 x 540
    assert box is not None and box["width"] >= CANVAS_PX - 1 and box["height"] >= height - 1, (
        f"the editor's canvas is {box} on the page, expected {CANVAS_PX} x {height} px"
    )
    board = Board(lab, page)
    _text_field(page, "File").locator("input").fill(SAVED)

    # Two models with the form and the Model tool.
    _tool(page, "Model")
    _text_field(page, "Faction").locator("input").fill("bos")
    _text_field(page, "Name").first.locator("input").fill("Knight")
    _kernel_has(lab, page, "editor.tool.value == 'model' and editor.form.name.value == 'Knight' "
                "and editor.form.faction.value == 'bos'")  # fmt: skip
    canvas.scroll_into_view_if_needed()
    board.click(4, 12)
    _wait_summary(page, board, "knight")
    _text_field(page, "Faction").locator("input").fill("raiders")
    _text_field(page, "Name").first.locator("input").fill("Raider")
    _kernel_has(
        lab, page, "editor.form.name.value == 'Raider' and editor.form.faction.value == 'raiders'"
    )
    canvas.scroll_into_view_if_needed()
    board.click(18, 12)
    _wait_summary(page, board, "raider")

    # A crate: the Rectangle tool, dragged from corner to corner (kind cover, named Crate).
    _tool(page, "Rectangle")
    names = page.locator(".widget-text", has=page.locator('label:text-is("Name")'))
    names.nth(1).locator("input").fill("Crate")
    _kernel_has(
        lab, page, "editor.tool.value == 'rect' and editor.form.piece_name.value == 'Crate'"
    )
    canvas.scroll_into_view_if_needed()
    board.drag((10, 10), (12, 14))
    _wait_summary(page, board, "crate")

    # Drag the raider with the Select tool.
    _tool(page, "Select")
    _kernel_has(lab, page, "editor.tool.value == 'select'")
    canvas.scroll_into_view_if_needed()
    board.drag((18, 12), (16, 16), shot="editor-dragging-1280x800.png")
    _kernel_has(lab, page, "editor.data['models'][1]['at'] == [16.0, 16.0]")
    canvas.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "editor-1280x800.png"))

    # Malformed actions: a model on top of another is refused; a bow tie is kept red and
    # blocks saving until it is undone.
    _tool(page, "Model")
    _kernel_has(lab, page, "editor.tool.value == 'model'")
    canvas.scroll_into_view_if_needed()
    board.click(4.3, 12)
    assert "overlaps 'knight'" in _wait_message(page, "Not done")
    _tool(page, "Polygon")
    _kernel_has(lab, page, "editor.tool.value == 'polygon'")
    canvas.scroll_into_view_if_needed()
    for x, y in [(2, 2), (6, 6), (6, 2), (2, 6), (2, 2)]:
        board.click(x, y)
        page.wait_for_timeout(150)
    _wait_message(page, "cross each other")
    canvas.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / "editor-invalid-1280x800.png"))
    page.locator("button", has_text="Save").first.click()
    _wait_message(page, "Not saved while")
    assert not saved.exists(), "an invalid board was written"
    page.locator("button", has_text="Undo").first.click()
    _wait_message(page, "The board is valid.")

    page.locator("button", has_text="Save").first.click()
    message = _wait_message(page, "Saved")
    assert SAVED in message and "problem" not in message.lower(), message
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.wait_for_timeout(500)
    page.locator(".widget-toggle-buttons").first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "editor-1920x1080.png"))
