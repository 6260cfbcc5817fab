"""What the reader sees is what the kernel drew: the board canvas's pixels in Chromium after
fast real-mouse drags, selection changes, undo and a ruleset (or language) switch.

For the attack panel, the melee panel, the threat panel and the board editor, each in its own
notebook in JupyterLab: a fast drag (40 moves a few milliseconds apart along a curve), a
second model dragged back and forth, a selection change, undo (the editor), a ruleset switch
(the editor: a language switch). After each, once the kernel is idle and the browser shows the
kernel's last frame (waited for as a state, never as a time), the canvas's pixels as Chromium
holds them are compared

* with the last picture the kernel sent: no pixel may differ;
* with the kernel's own full render of the figure on a separate Agg canvas: at most
  :data:`MAX_FULL_DIFF` of the pixels may differ, where a pixel matches when one within a
  pixel of it does (antialiasing).

A ghost base is about 0.4 % of a canvas, so the first comparison is the one that catches it.
The melee panel plays a slow link (harder compression).
The editor's tools are then driven with the mouse and each preview (rubber band, the polygon's
open edges with the next edge following the mouse, the circle's radius, the rotation handle)
is found in the browser's pixels mid-gesture.

The kernel side is probed with plain Python (``PROBE``).
"""

from __future__ import annotations

import base64
import io
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from .conftest import ARTIFACTS, JS_SYNC, WAIT_TIMEOUT, Lab

pytestmark = pytest.mark.browser

MAX_FULL_DIFF = 0.005
"""Share of pixels that may differ from the kernel's full render (antialiasing allowed)."""
AA_TOLERANCE = 24
"""Per channel: a pixel matches a full-render pixel within one pixel of it up to this."""
PREVIEW_RGB = (0x00, 0x72, 0xB2)
"""The editor's preview colour (``editor_marks.SELECTED_COLOUR``)."""
MOVES = 40

PROBE = r"""
import base64 as _b64, io as _io, json as _json
import numpy as _np
from PIL import Image as _Image

def _fww_fig():
    v = getattr(panel, "view", None)
    return (v.figure if v is not None else panel.figure), v

def _fww_last():
    fig, v = _fww_fig()
    link = getattr(v, "link", None) if v is not None else None
    return None if link is None else link.sender.last_id

def _fww_png(a):
    out = _io.BytesIO()
    _Image.fromarray(_np.ascontiguousarray(a[:, :, :3])).save(out, format="png", compress_level=1)
    return _b64.b64encode(out.getvalue()).decode()

def _fww_pictures():
    # under the view's lock: while the figure is on the separate canvas, a frame sent from
    # another thread (a "how close" answer) would read that canvas half drawn
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    fig, v = _fww_fig()
    with v.lock:
        sent = v.link.sender.shown
        live, original = fig.canvas, fig._original_dpi
        try:
            agg = FigureCanvasAgg(fig)  # a separate Agg canvas, at the figure's own dpi
            agg.draw()
            full = _np.asarray(agg.buffer_rgba()).copy()
        finally:
            fig.set_canvas(live)
            fig._original_dpi = original
    return {"sent": _fww_png(sent), "full": _fww_png(full)}

def _fww_css(points):
    fig, v = _fww_fig()
    ax = fig.axes[0]
    r = float(getattr(fig.canvas, "device_pixel_ratio", 1.0) or 1.0)
    u = getattr(panel, "unit_mm", 1.0)  # the editor's points are in its units; boards are mm
    out = []
    for x, y in points:
        px, py = ax.transData.transform((x * u, y * u))
        out.append([float(px / r), float((fig.bbox.height - py) / r)])
    return out

def _fww_print(value):
    print(_json.dumps(value))
"""

# The answer to sync n, with the browser's frame and (when it is the final picture) pixels.
JS_SYNCED = """(n) => {
  const c = document.querySelector('.fwwrules-board-canvas');
  const s = c && c.dataset.synced ? JSON.parse(c.dataset.synced) : null;
  if (!s || s.n !== n) return null;
  const frame = +c.dataset.frame;
  const done = !s.busy && frame === s.last;
  return {frame, last: s.last, busy: s.busy, png: done ? c.toDataURL('image/png') : null};
}"""


def decode(b64: str) -> np.ndarray[Any, Any]:
    from PIL import Image

    data = base64.b64decode(b64.split(",", 1)[-1])
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(np.int16)


class Board:
    """The open notebook's panel: kernel probes, browser pixels, the real mouse."""

    def __init__(self, lab: Lab, page: Any, name: str) -> None:
        self.lab, self.page, self.name = lab, page, name
        lab.kernel(page, PROBE)
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        canvas = page.locator(".fwwrules-board-canvas").first
        canvas.wait_for(state="visible", timeout=WAIT_TIMEOUT * 1000)
        canvas.scroll_into_view_if_needed()
        self.canvas = canvas
        self.report: list[str] = []
        self.syncs = 0

    def run(self, code: str) -> Any:
        return json.loads(self.lab.kernel(self.page, code).strip().splitlines()[-1])

    def css(self, points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
        """Board points to page pixels."""
        box = self.canvas.bounding_box()
        assert box is not None
        got = self.run(f"_fww_print(_fww_css({[list(p) for p in points]!r}))")
        return [(box["x"] + x, box["y"] + y) for x, y in got]

    def settled(self) -> dict[str, Any]:
        """The browser's picture once it is final: the kernel has handled every message the
        browser sent, no frame is due, and the browser shows the last one. The kernel may
        handle the controls (main shell) and the board's messages (a subshell) on two
        threads: a probe through the main shell returns once the controls' work is done,
        then a sync through the board's own channel once its messages are handled; both
        must name the same last frame."""
        deadline = time.monotonic() + WAIT_TIMEOUT
        while time.monotonic() < deadline:
            main = self.run("_fww_print(_fww_last())")
            self.syncs += 1
            assert self.page.evaluate(JS_SYNC, self.syncs), "no board canvas on the page"
            handle = self.page.wait_for_function(
                JS_SYNCED, arg=self.syncs, timeout=WAIT_TIMEOUT * 1000
            )
            answer: dict[str, Any] = handle.json_value()
            if answer["png"] is not None and answer["last"] == main:
                return answer
            self.page.wait_for_timeout(100)
        raise AssertionError(f"{self.name}: the board never settled")

    def compare(self, step: str) -> tuple[int, float]:
        """The browser's pixels against the last frame sent and the full render."""
        shown = decode(self.settled()["png"])
        pictures = self.run("_fww_print(_fww_pictures())")
        sent, full = decode(pictures["sent"]), decode(pictures["full"])
        assert shown.shape == sent.shape == full.shape, (shown.shape, sent.shape, full.shape)
        exact = int((shown != sent).any(axis=2).sum())
        near = np.zeros(shown.shape[:2], dtype=bool)
        padded = np.pad(full, ((1, 1), (1, 1), (0, 0)), mode="edge")
        h, w = shown.shape[:2]
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                other = padded[dy : dy + h, dx : dx + w]
                near |= (np.abs(shown - other) <= AA_TOLERANCE).all(axis=2)
        share = float((~near).mean())
        line = f"{self.name} {step}: {exact} px differ from the last frame sent, "
        line += f"{100 * share:.3f} % from the full render"
        self.report.append(line)
        if exact or share > MAX_FULL_DIFF:
            ARTIFACTS.mkdir(exist_ok=True)
            from PIL import Image

            stem = f"pixels-{self.name}-{step}"
            Image.fromarray(shown.astype(np.uint8)).save(ARTIFACTS / f"{stem}-browser.png")
            Image.fromarray(full.astype(np.uint8)).save(ARTIFACTS / f"{stem}-kernel.png")
        return exact, share

    def check(self, step: str) -> None:
        exact, share = self.compare(step)
        assert exact == 0, self.report[-1]
        assert share <= MAX_FULL_DIFF, self.report[-1]

    # --- the mouse ---------------------------------------------------------------------------
    def drag(
        self, path: Sequence[tuple[float, float]], hold: Callable[[], None] | None = None
    ) -> None:
        """Press at the path's first point (board units), move through the rest a few ms
        apart with real mouse events, call ``hold`` before letting go, release."""
        rng = random.Random(len(path))
        points = self.css(path)
        self.page.mouse.move(*points[0])
        self.page.mouse.down()
        for p in points[1:]:
            self.page.mouse.move(*p)
            self.page.wait_for_timeout(rng.choice((3, 5, 8)))
        if hold is not None:
            hold()
        self.page.mouse.up()

    def click(self, x: float, y: float) -> None:
        self.page.mouse.click(*self.css([(x, y)])[0])

    def select(self, label: str, option: str) -> None:
        """Choose ``option`` (its text) in the panel's dropdown labelled ``label``."""
        box = self.page.locator(
            ".widget-dropdown", has=self.page.locator(f'label:text-is("{label}")')
        )
        box.first.locator("select").select_option(label=option)


def curve(
    start: tuple[float, float], end: tuple[float, float], bulge: float
) -> list[tuple[float, float]]:
    """:data:`MOVES` points from ``start`` to ``end`` bending ``bulge`` units to the side."""
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0) or 1.0
    nx, ny = -(y1 - y0) / length, (x1 - x0) / length
    out = [start]
    for k in range(1, MOVES + 1):
        t = k / MOVES
        s = bulge * math.sin(math.pi * t)
        out.append((x0 + (x1 - x0) * t + nx * s, y0 + (y1 - y0) * t + ny * s))
    return out


def back_and_forth(at: tuple[float, float], reach: float) -> list[tuple[float, float]]:
    """:data:`MOVES` points swinging ``reach`` units either side of ``at`` twice, ending
    near the start."""
    x, y = at
    return [at] + [
        (
            x + reach * math.sin(4 * math.pi * k / MOVES),
            y + 0.2 * reach * math.sin(2 * math.pi * k / MOVES),
        )
        for k in range(1, MOVES + 1)
    ]


def opened(lab: Lab, name: str, source: str, scale: float = 1.0) -> tuple[Any, Board]:
    lab.write_notebook(f"{name}.ipynb", source)
    page = lab.new_page(1280, 800, scale=scale)
    lab.open(page, f"{name}.ipynb")
    return page, Board(lab, page, name)


def finish(lab: Lab, page: Any, board: Board | None) -> None:
    if board is not None:
        print("\n".join(board.report))
    page.context.close()
    lab.shutdown_kernels()


ATTACK = """\
import fwwrules
from fwwrules_widgets import AttackPanel
panel = AttackPanel(fwwrules.load(fwwrules.example_path("cover-example-4")))
panel
"""


def test_attack_panel_shows_exactly_the_kernels_board_after_fast_drags(lab: Lab) -> None:
    page, board = opened(lab, "pixels-attack", ATTACK, scale=2.0)
    try:
        board.check("first-display")
        board.drag(curve((385.0, 300.0), (300.0, 150.0), 60.0))  # the target, fast
        board.check("drag-target")
        board.drag(back_and_forth((100.0, 300.0), 60.0))  # the attacker, to and fro
        board.check("drag-attacker")
        board.select("Target", "Super Mutant 3")
        board.check("target-changed")
        board.select("Rules", "vts")
        board.check("ruleset-vts")
    except Exception:
        print(lab.tail())
        raise
    finally:
        finish(lab, page, board)


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
panel = MeleePanel(s)
# This one plays a slow link: every acknowledgement counts as late (harder compression);
# diff frames are mask frames (only the changed pixels, painted over the browser's own).
import fwwrules_widgets.board_canvas as _bc
_bc.SLOW_ACK_S = -1.0
_codecs = []
_send = panel.view.link._send
panel.view.link.sender._send = lambda c, b: (_codecs.append(c.get("codec")), _send(c, b))
panel
"""


def test_melee_panel_shows_exactly_the_kernels_board_after_fast_drags(lab: Lab) -> None:
    page, board = opened(lab, "pixels-melee", MELEE)
    try:
        board.drag(curve((100.0, 100.0), (280.0, 110.0), 50.0))  # into contact with the raider
        board.check("drag-knight")
        board.drag(back_and_forth((100.0, 260.0), 50.0))
        board.check("drag-dog")
        board.select("Withdraws", "Knight")
        board.check("withdrawer-chosen")
        board.select("Rules", "vts")
        board.check("ruleset-vts")
        codecs = board.run("_fww_print(sorted(set(_codecs)))")
        # diff frames (after a drag: taking what its pieces leave behind from the picture the
        # browser kept at the press), decoded by the browser exactly
        assert "kept" in codecs, codecs
    except Exception:
        print(lab.tail())
        raise
    finally:
        finish(lab, page, board)


THREAT = """\
import fwwrules
from fwwrules_widgets import ThreatPanel
panel = ThreatPanel(fwwrules.load(fwwrules.example_path("cover-example-4")), "brotherhood", step=20)
panel
"""


def test_threat_panel_shows_exactly_the_kernels_board_after_fast_drags(lab: Lab) -> None:
    page, board = opened(lab, "pixels-threat", THREAT)
    try:
        board.drag(curve((385.0, 300.0), (300.0, 420.0), 40.0))
        board.check("drag-mutant")
        board.drag(back_and_forth((470.0, 400.0), 40.0))
        board.check("drag-second")
        board.click(250.0, 150.0)  # a free spot: its rulings are listed, a mark is drawn
        board.check("spot-selected")
        board.select("Rules", "vts")
        board.check("ruleset-vts")
    except Exception:
        print(lab.tail())
        raise
    finally:
        finish(lab, page, board)


EDITOR = """\
from fwwrules_widgets import BoardEditor
panel = BoardEditor(units="in", size=(24, 24))
panel.add_model((4, 12), name="Knight", faction="bos")
panel.add_model((18, 12), name="Raider", faction="raiders")
panel.add_rect((10, 10), (12, 14), name="Crate")
panel.selected = None
panel.refresh()
panel
"""


def blue_pixels(shown: np.ndarray[Any, Any], box: tuple[float, float, float, float]) -> int:
    """Pixels of the preview colour inside ``box`` (device px, x0 y0 x1 y1)."""
    x0, y0, x1, y1 = (round(v) for v in box)
    part = shown[max(0, y0) : y1, max(0, x0) : x1]
    return int((np.abs(part - np.array(PREVIEW_RGB)) <= 40).all(axis=2).sum())


def test_editor_shows_exactly_the_kernels_board_and_every_tools_preview(lab: Lab) -> None:
    page, board = opened(lab, "pixels-editor", EDITOR)
    try:
        board.drag(curve((18.0, 12.0), (16.0, 18.0), 2.0))
        board.check("drag-raider")
        board.drag(back_and_forth((4.0, 12.0), 2.5))
        board.check("drag-knight")
        board.click(11.0, 12.0)  # select the crate
        board.check("crate-selected")
        board.click(20.0, 4.0)  # nothing there: the selection (its blue ring) goes
        board.check("selection-cleared")
        page.locator("button", has_text="Undo").first.click()
        board.check("undo")
        board.select("Language", "Deutsch")
        board.check("language-de")
        _tools(board)
    except Exception:
        print(lab.tail())
        raise
    finally:
        finish(lab, page, board)


def _preview_seen(board: Board, corners: Sequence[tuple[float, float]], what: str) -> None:
    """Mid-gesture: the browser shows the kernel's last frame exactly, and it holds the
    preview colour along the preview's outline (``corners``, board units)."""
    exact, _ = board.compare(f"{what}-mid-gesture")
    assert exact == 0, board.report[-1]
    shown = decode(board.settled()["png"])
    ratio = shown.shape[1] / board.canvas.bounding_box()["width"]
    box = board.canvas.bounding_box()
    pts = [((x - box["x"]) * ratio, (y - box["y"]) * ratio) for x, y in board.css(corners)]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    found = blue_pixels(shown, (min(xs) - 4, min(ys) - 4, max(xs) + 4, max(ys) + 4))
    assert found >= 20, f"the {what} preview is not in the browser's pixels ({found} px)"


def _tools(board: Board) -> None:
    page = board.page
    # Rectangle: the rubber band while the mouse is held down.
    page.locator(".widget-toggle-buttons button", has_text="Rechteck").first.click()
    board.drag(
        curve((2.0, 2.0), (6.0, 5.0), 0.5),
        hold=lambda: _preview_seen(board, [(2, 2), (6, 5)], "rect"),
    )
    board.check("rect-added")
    # Polygon: two corners, then the next edge follows the mouse (no button pressed).
    page.locator(".widget-toggle-buttons button", has_text="Polygon").first.click()
    board.click(2.0, 16.0)
    board.click(6.0, 16.0)
    page.mouse.move(*board.css([(6.0, 20.0)])[0])
    _preview_seen(board, [(2.0, 16.0), (6.0, 20.0)], "polygon")
    board.click(6.0, 20.0)
    board.click(2.0, 16.0)  # back on the first corner: closed
    board.check("polygon-added")
    # Circle: the radius while dragging.
    page.locator(".widget-toggle-buttons button", has_text="Kreis").first.click()
    board.drag(
        curve((20.0, 18.0), (22.0, 18.0), 0.3),
        hold=lambda: _preview_seen(board, [(18.0, 16.0), (22.0, 20.0)], "circle"),
    )
    board.check("circle-added")
    # Rotation: select the crate, drag its handle round.
    page.locator(".widget-toggle-buttons button", has_text="Auswahl").first.click()
    board.click(11.0, 12.0)
    board.settled()
    handle = board.run("_fww_print([v / panel.unit_mm for v in panel.marks.handle.center])")
    hx, hy = handle
    board.drag(
        curve((hx, hy), (14.0, 12.0), 1.0),
        hold=lambda: _preview_seen(board, [(13.0, 11.0), (15.0, 13.0)], "rotation"),
    )
    board.check("rotated")
