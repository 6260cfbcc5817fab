"""A board at the size people play on (issue 33), in JupyterLab in Chromium at 1280x800 and
1920x1080, every step with real mouse and wheel events, the page reaching the Lab through the
benchmarks' slowed link (``bench/_proxy.py``: 150 ms round trip, 2 Mbit/s toward the browser).

On ``tests/table-48.yaml`` (a 48" x 48" table, eight models of two sides), in the attack panel:

* at the first view every base shows its side's colour over at least half its area, read from
  the canvas's pixels, and no label lies over a base;
* a wheel zoom about a model draws its base at least three times larger, where it was, and
  the picture is exactly the kernel's (the last frame sent, and its own full render);
* dragging empty board pans: the board moves with the pointer; "Fit table" brings back the
  first view; the + and - keys on the board zoom in about its middle and back out;
* a model dragged through the slowed link: at every frame the browser paints, the x/y fields
  name where that frame draws the base (its side's colour found there in the frame's pixels)
  and the ruling's text is the ruling for that position.

Screenshots of each step go to ``artifacts/`` (``table-<size>-<lang>-*.png``), in English and
in German.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import io
import math
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from .conftest import REPO, Lab
from .test_board_pixels import Board

pytestmark = pytest.mark.browser

TABLE = REPO / "tests" / "table-48.yaml"
COLOUR_SHARE = 0.5
"""Of a base's disc, the share that must show its side's colour."""
COLOUR_TOLERANCE = 10
"""Per channel, how far a pixel may be from the side's colour and still be it."""

CELL = """\
import fwwrules
from fwwrules_widgets import AttackPanel
panel = AttackPanel(fwwrules.load({path!r}), attacker="paladin", target="boss", lang={lang!r})
panel
"""
GEOMETRY = r"""
def _fww_bases():
    import matplotlib.colors as _mc
    from fwwrules.draw.labels import label_boxes
    fig, v = _fww_fig()
    ax, r = fig.axes[0], v.ratio
    out = {}
    for mid, base in panel.artists.bases.items():
        (cx, cy), (ex, _) = ax.transData.transform(
            [base.center, (base.center[0] + base.get_radius(), base.center[1])])
        out[mid] = {"x": float(cx), "y": float(fig.bbox.height - cy), "r": float(ex - cx),
                    "rgb": [round(255 * c) for c in _mc.to_rgb(base.get_facecolor())],
                    }
    boxes = [[float(b) for b in box] for t, box in label_boxes(panel.artists)]
    height = float(fig.bbox.height)
    a = ax.bbox
    return {"axes": [float(a.x0), float(height - a.y1), float(a.x1), float(height - a.y0)],
            "bases": out, "labels": [[x0, height - y1, x1, height - y0]
                                     for x0, y0, x1, y1 in boxes], "ratio": r,
            "view": [float(v) for v in v.view_box]}
"""
# A trace of every frame the browser paints: the frame, the x/y fields and the ruling's text
# as they are once that frame is painted (the observer runs right after the frame's task),
# and the canvas's pixels.
JS_TRACE = """() => {
  const canvas = document.querySelector('.fwwrules-board-canvas');
  const out = (window.__painted = []);
  new MutationObserver(() => {
    const fields = [...document.querySelectorAll('.widget-text input')].map(i => i.value);
    const ruling = document.querySelector('.fwwrules-ruling');
    out.push({frame: +canvas.dataset.frame, fields,
              text: ruling ? ruling.textContent : null, png: canvas.toDataURL('image/png')});
  }).observe(canvas, {attributes: true, attributeFilter: ['data-frame']});
}"""
JS_TEXT = """(html) => { const d = document.createElement('div'); d.innerHTML = html;
  const r = d.querySelector('.fwwrules-ruling'); return r ? r.textContent : d.textContent; }"""


def pixels(png: str) -> np.ndarray[Any, Any]:
    from PIL import Image

    data = base64.b64decode(png.split(",", 1)[-1])
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(np.int16)


def colour_share(picture: np.ndarray[Any, Any], base: dict[str, Any]) -> float:
    """The share of the base's disc (all but its outline) in its side's colour."""
    h, w = picture.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = np.hypot(xx + 0.5 - base["x"], yy + 0.5 - base["y"]) <= base["r"] - 1.5
    close = (np.abs(picture - np.array(base["rgb"])) <= COLOUR_TOLERANCE).all(axis=2)
    return float(close[inside].mean()) if inside.any() else 0.0


def overlaps(box: list[float], base: dict[str, Any]) -> bool:
    """Whether a label's box (device px, top-left origin) lies over a base's disc."""
    x0, y0, x1, y1 = box
    nx, ny = min(max(base["x"], x0), x1), min(max(base["y"], y0), y1)
    return math.hypot(nx - base["x"], ny - base["y"]) < base["r"] - 1.0


@contextlib.contextmanager
def slowed(lab: Lab) -> Iterator[Lab]:
    """The Lab as a remote reader reaches it: through the benchmarks' proxy."""
    sys.path.insert(0, str(REPO / "bench"))
    from _proxy import LinkProxy

    port = int(lab.url.rsplit(":", 1)[1])
    with LinkProxy(port, rtt_ms=150, down_mbit=2, up_mbit=1) as proxy:
        yield dataclasses.replace(lab, url=f"http://127.0.0.1:{proxy.port}")


def geometry(board: Board) -> dict[str, Any]:
    return board.run("_fww_print(_fww_bases())")  # type: ignore[no-any-return]


def check_bases(board: Board, picture: np.ndarray[Any, Any], step: str) -> dict[str, Any]:
    """Every base in view shows its side's colour over half its area; no label lies on one."""
    seen = geometry(board)
    x0, y0, x1, y1 = seen["axes"]
    for mid, base in seen["bases"].items():
        x, y, r = base["x"], base["y"], base["r"]
        if not (x0 + r <= x <= x1 - r and y0 + r <= y <= y1 - r):
            continue  # out of view (a zoomed board)
        share = colour_share(picture, base)
        assert share >= COLOUR_SHARE, f"{step}: {mid} shows its side's colour on {share:.0%}"
        for box in seen["labels"]:
            assert not overlaps(box, base), f"{step}: a label {box} lies on {mid}"
    return seen


def page_at(board: Board, base: dict[str, Any], ratio: float) -> tuple[float, float]:
    box = board.canvas.bounding_box()
    assert box is not None
    return box["x"] + base["x"] / ratio, box["y"] + base["y"] / ratio


@pytest.mark.parametrize(("width", "height", "lang"), [(1280, 800, "en"), (1920, 1080, "de")])
def test_a_48_inch_table_zooms_pans_and_keeps_its_words_with_its_pictures(
    lab: Lab, width: int, height: int, lang: str
) -> None:
    name = f"table-{width}-{lang}"
    lab.write_notebook(f"{name}.ipynb", CELL.format(path=str(TABLE), lang=lang))
    shot = f"{name}-failed.png"
    with slowed(lab) as remote, remote.session(width, height, failure_shot=shot) as page:
        remote.open(page, f"{name}.ipynb")
        board = Board(remote, page, name)
        board.run(GEOMETRY + "\n_fww_print(1)")
        shots = Shots(remote, page, board, name, lang)

        # the first view: every base in its side's colour, no label on a base
        first = check_bases(board, pixels(board.settled()["png"]), "first view")
        shots.take("first")
        r = first["ratio"]

        # a wheel zoom about the Waster: three times larger, where it was, the kernel's picture
        waster = first["bases"]["waster"]
        page.mouse.move(*page_at(board, waster, r))
        for _ in range(8):
            page.mouse.wheel(0, -120)
            page.wait_for_timeout(60)
        board.check("zoomed")
        zoomed = check_bases(board, pixels(board.settled()["png"]), "zoomed")
        after = zoomed["bases"]["waster"]
        assert after["r"] >= 3 * waster["r"], (waster, after)
        assert math.dist((after["x"], after["y"]), (waster["x"], waster["y"])) <= 1.5 * r
        shots.take("zoomed")

        # dragging empty board pans: the board moves with the pointer
        empty = {"x": after["x"] + 3 * after["r"] + 40 * r, "y": after["y"] - 60 * r}
        start = page_at(board, empty, r)
        page.mouse.move(*start)
        page.mouse.down()
        for k in range(1, 11):
            page.mouse.move(start[0] - 8 * k, start[1] + 4 * k)
            page.wait_for_timeout(40)
        page.mouse.up()
        board.check("panned")
        panned = geometry(board)["bases"]["waster"]
        assert abs(panned["x"] - (after["x"] - 80 * r)) <= 2 * r, (after, panned)
        assert abs(panned["y"] - (after["y"] + 40 * r)) <= 2 * r, (after, panned)
        shots.take("panned")

        # a model dragged at this scale through the slowed link: words and picture in step
        drag_in_step(board, page, geometry(board), lang)
        shots.take("dragged")

        # fit table: the first view again
        page.locator(".fwwrules-fit-table").click()
        board.check("fit-table")
        assert geometry(board)["view"] == pytest.approx(first["view"], abs=0.5)
        shots.take("fit-table")

        # the keys on the focused board: + zooms in about the middle, - back out
        board.canvas.focus()
        page.keyboard.press("+")
        board.check("key-zoom-in")
        view = geometry(board)["view"]
        assert view[2] - view[0] < first["view"][2] - first["view"][0], (view, first["view"])
        page.keyboard.press("-")
        board.check("key-zoom-out")
        assert geometry(board)["view"] == pytest.approx(first["view"], abs=0.5)
        print("\n".join(board.report))


def drag_in_step(board: Board, page: Any, seen: dict[str, Any], lang: str) -> None:
    """Drag the Waster down past the building; at every painted frame the fields name where
    that frame draws its base, and the ruling's text is the ruling for that position."""
    r = seen["ratio"]
    waster = seen["bases"]["waster"]
    page.evaluate(JS_TRACE)
    start = page_at(board, waster, r)
    page.mouse.move(*start)
    page.mouse.down()
    for k in range(1, 31):
        page.mouse.move(start[0] + 2 * k, start[1] + 6 * k)
        page.wait_for_timeout(30)
    page.mouse.up()
    board.settled()
    painted: list[dict[str, Any]] = page.evaluate("() => window.__painted")
    moved = [p for p in painted if p["fields"][:2] != painted[0]["fields"][:2]]
    assert len(moved) >= 3, f"only {len(moved)} frames painted during the drag"
    for p in painted:
        x, y = (float(v) for v in p["fields"][:2])
        expected = board.run(
            "import fwwrules\n"
            f"_s = fwwrules.move_model(panel.scenario, 'waster', {x!r}, {y!r})\n"
            "_r = fwwrules.ruling(_s, panel.attacker.value, panel.target.value)\n"
            f"_x, _y = _fww_css([({x!r} * _s.unit_mm, {y!r} * _s.unit_mm)])[0]\n"
            f"_fww_print({{'html': _r.html({lang!r}), 'x': _x, 'y': _y}})"
        )
        assert p["text"] == page.evaluate(JS_TEXT, expected["html"]), (p["frame"], x, y)
        # the frame draws the base where the fields say: its colour is centred there
        picture = pixels(p["png"])
        at = {**waster, "x": expected["x"] * r, "y": expected["y"] * r}
        share = colour_share(picture, at)
        assert share >= COLOUR_SHARE, f"frame {p['frame']}: no base at the fields' {x}, {y}"


@dataclasses.dataclass
class Shots:
    """Screenshots of the page at each step, in the panel's language and the other one."""

    lab: Lab
    page: Any
    board: Board
    name: str
    lang: str

    def take(self, step: str) -> None:
        self.board.canvas.scroll_into_view_if_needed()
        self.lab.screenshot(self.page, f"{self.name}-{step}.png")
        if step in ("first", "zoomed"):
            other = "de" if self.lang == "en" else "en"
            self.board.run(f"panel.lang.value = {other!r}\n_fww_print(1)")
            self.board.settled()
            self.lab.screenshot(self.page, f"{self.name}-{step}-{other}.png")
            self.board.run(f"panel.lang.value = {self.lang!r}\n_fww_print(1)")
            self.board.settled()
