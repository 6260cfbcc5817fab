"""Drag latency in a real browser: JupyterLab in Chromium, the AttackPanel on the crowded board.

Starts one JupyterLab server (as the browser tests do, ``tests/browser/conftest.py``), opens
a notebook holding ``AttackPanel`` on ``bench/_board.py``'s crowded board (24 models, 40
terrain pieces), presses the mouse on the target's base and moves it in small steps with real
mouse events. For every move it times, in the page's own clock, from the ``mousemove`` event on
the canvas to the moment both the canvas has been repainted (ipympl's ``drawImage`` onto the
board) and the ruling's text has changed. Moves are made one at a time (the next after both
changed, or after a timeout, counted as missed).

Prints the median and the 90th percentile (ms) at device pixel ratio 1 and 2.
Goal: median <= 50 ms and p90 <= 100 ms at ratio 1.

Usage: ``python bench/browser_latency.py [--moves N] [--ratios 1 2]``
(needs Chromium at /usr/bin/chromium or $FWWRULES_CHROMIUM, and the dev extras).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))

from conftest import CHROMIUM, lab_session  # noqa: E402

NOTEBOOK = "bench-latency.ipynb"
CELL = f"""\
import sys
sys.path.insert(0, {str(REPO / "bench")!r})
from _board import crowded_board
from fwwrules_widgets import AttackPanel
board = crowded_board()
panel = AttackPanel(board, attacker=board.models[0].id, target=board.models[13].id)
panel
"""
PROBE = """\
import json
_f = panel.view.figure
_r = float(getattr(_f.canvas, "device_pixel_ratio", 1.0) or 1.0)
_c = panel.artists.bases[panel.target.value]
_x, _y = panel.view.ax.transData.transform(_c.center)
print(json.dumps({"x": _x / _r, "y": (_f.bbox.height - _y) / _r, "ratio": _r,
                  "interactive": panel.view.interactive}))
"""
# Hooks in the page: the time of every mousemove on the board, every repaint of the board
# canvas and every change of the ruling's text.
JS_HOOK = """() => {
  const div = document.querySelector('.jupyter-matplotlib-canvas-div');
  const [canvas, top] = div.querySelectorAll('canvas');
  window.__moves = []; window.__draws = []; window.__rulings = [];
  top.addEventListener('mousemove', () => window.__moves.push(performance.now()), true);
  const ctx = canvas.getContext('2d');
  const draw = ctx.drawImage.bind(ctx);
  ctx.drawImage = (...args) => { window.__draws.push(performance.now()); return draw(...args); };
  const ruling = document.querySelector('.fwwrules-ruling').closest('.widget-html-content');
  new MutationObserver(() => window.__rulings.push(performance.now()))
    .observe(ruling, {childList: true, subtree: true, characterData: true});
  return true;
}"""
JS_DONE = """(n) => {
  const t = window.__moves[n];
  if (t === undefined) return null;
  const d = window.__draws.find(x => x > t);
  const r = window.__rulings.find(x => x > t);
  return (d === undefined || r === undefined) ? null : Math.max(d, r) - t;
}"""


def measure(lab: Any, ratio: float, moves: int) -> list[float]:
    page = lab.new_page(1280, 800, scale=ratio)
    try:
        lab.open(page, NOTEBOOK)
        page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
        canvas = page.locator(".jupyter-matplotlib-canvas-div").first
        canvas.scroll_into_view_if_needed()
        page.wait_for_function(
            "() => document.querySelector('.jupyter-matplotlib-canvas-div')"
            ".getBoundingClientRect().width > 0",
            timeout=60_000,
        )
        page.wait_for_timeout(1000)
        info = json.loads(lab.kernel(page, PROBE).strip().splitlines()[-1])
        if not info["interactive"]:
            raise SystemExit("the panel's board is not an ipympl canvas: nothing to drag")
        page.evaluate(JS_HOOK)
        box = canvas.bounding_box()
        x, y = box["x"] + info["x"], box["y"] + info["y"]
        page.mouse.move(x, y)
        page.mouse.down()
        page.wait_for_timeout(500)
        out: list[float] = []
        for i in range(moves):
            step = 4.0 if (i // 10) % 2 == 0 else -4.0  # back and forth, 4 px a move
            x += step
            n = page.evaluate("() => window.__moves.length")
            page.mouse.move(x, y)
            latency = None
            for _ in range(100):  # up to about 2 s
                latency = page.evaluate(JS_DONE, n)
                if latency is not None:
                    break
                page.wait_for_timeout(20)
            out.append(float("inf") if latency is None else float(latency))
        page.mouse.up()
        return out
    finally:
        page.context.close()
        lab.shutdown_kernels()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--ratios", type=float, nargs="+", default=[1.0, 2.0])
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}")
    with tempfile.TemporaryDirectory() as tmp, lab_session(Path(tmp), CHROMIUM) as lab:
        lab.write_notebook(NOTEBOOK, CELL)
        print(f"crowded board, {args.moves} moves of the target by 4 px, one at a time")
        for ratio in args.ratios:
            times = measure(lab, ratio, args.moves)
            done = sorted(t for t in times if t != float("inf"))
            missed = len(times) - len(done)
            if not done:
                print(f"DPR {ratio:g}: no move showed a change within 2 s")
                continue
            p90 = done[min(len(done) - 1, round(0.9 * (len(done) - 1)))]
            print(
                f"DPR {ratio:g}: mouse move -> canvas and ruling changed: "
                f"median {statistics.median(done):.1f} ms, p90 {p90:.1f} ms "
                f"(min {done[0]:.1f}, max {done[-1]:.1f}; {missed} missed)"
            )


if __name__ == "__main__":
    main()
