"""Drag latency in a real browser: JupyterLab in Chromium, the AttackPanel on the crowded board.

Starts one JupyterLab server (as the browser tests do, ``tests/browser/conftest.py``), opens a
notebook holding ``AttackPanel`` on ``bench/_board.py``'s crowded board (24 models, 40 terrain
pieces) and drags the target's base with real mouse events. With ``--rtt``/``--down`` the
browser reaches the Lab through ``bench/_proxy.py`` (a delaying, rate-limiting TCP proxy:
Chromium's network emulation does not delay WebSockets).

Two measures:

* ``step`` (default locally): moves made one at a time, each timed in the page's clock from
  the ``mousemove`` to the moment both the canvas has been repainted and the ruling's text
  has changed (the next move after both, or after 2 s, counted as missed). Median and 90th
  percentile at each device pixel ratio. Goal: median <= 50 ms, p90 <= 100 ms at ratio 1.
* ``drag``: one continuous drag (a move every 16 ms for ``--seconds``), then the mouse held
  still, then released. From the board canvas's trace (frames name the last mouse message
  the kernel handled): how far the drawn base lags behind the mouse (median, p90, max, and
  max over the last second), how long after the mouse stops the picture is the final one,
  bytes toward the browser per mouse move and per frame, and the bytes of the first display
  (Run All to a quiet link, the static picture included).

Usage: ``python bench/browser_latency.py [--mode step|drag|both] [--moves N] [--ratios 1 2]
[--rtt MS] [--down MBIT] [--up MBIT] [--seconds S] [--path default|middle|edge]
[--driver playwright|page]`` (needs Chromium at /usr/bin/chromium or $FWWRULES_CHROMIUM,
and the dev extras). With
``FWWRULES_BENCH_LOG=file.json`` the drag's WebSocket messages are written to that file (and
the board canvas's trace to ``file.json.trace``).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import itertools
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "bench"))

from _proxy import LinkProxy  # noqa: E402
from conftest import CHROMIUM, board_synced, lab_session  # noqa: E402

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
def _css(x, y):
    px, py = panel.view.ax.transData.transform((x, y))
    return [float(px / _r), float((_f.bbox.height - py) / _r)]
_c = panel.artists.bases[panel.target.value]
_t = panel.scenario.limits_mm(panel.view.style.margin_mm)
_x, _y = _css(*_c.center)
print(json.dumps({"x": _x, "y": _y, "ratio": _r, "interactive": panel.view.interactive,
                  "middle": _css((_t.xmin + _t.xmax) / 2, (_t.ymin + _t.ymax) / 2),
                  "edge": _css(_c.center[0], _t.ymin)}))
"""
TO_EDGE = """\
_m = panel.scenario.model(panel.target.value)
_t = panel.scenario.limits_mm(panel.view.style.margin_mm)
panel.move(_m.id, _m.at[0], (_t.ymin + _m.base / 2 + 0.5) / panel.scenario.unit_mm)
"""
PATHS = ("default", "middle", "edge")
"""Where a drag goes (``--path``): 60 px to and fro from the target; to the board's crowded
middle and back; 200 px along the table's bottom edge toward its middle and back (the target
put there first; the pointer a little beyond the edge, so the base slides along it)."""
WS_TAP = REPO / "bench" / "_ws_tap.js"
"""Counts the kernel WebSocket's messages in the page (``window.__ws``)."""
CANVAS = ".fwwrules-board-canvas"
WORDS_ONLY_BYTES = 1000
"""Where the board canvas's trace does not say how many rects a frame has (before it did):
a frame's buffer below this carries words and no pixels (a words-only frame is a few hundred
bytes, one with a moved base at ratio 2 several thousand; at ratio 1 a small move's frame
may be less)."""


def pictured(frame: dict[str, Any]) -> bool:
    """Whether a painted frame (the trace's entry) changed the picture, not only words."""
    if "rects" in frame:
        return bool(frame["rects"])
    return bool(frame["bytes"] >= WORDS_ONLY_BYTES)


# Hooks in the page: the time of every pointer move on the board, every repaint of the board
# canvas (its putImageData) and every change of the ruling's text.
JS_HOOK = """(sel) => {
  const canvas = document.querySelector(sel);
  const top = canvas.parentElement.querySelectorAll('canvas');
  const target = top[top.length - 1];
  window.__moves = []; window.__draws = []; window.__rulings = [];
  target.addEventListener('pointermove', () => window.__moves.push(performance.now()), true);
  const ctx = canvas.getContext('2d');
  for (const name of ['drawImage', 'putImageData']) {
    const f = ctx[name].bind(ctx);
    ctx[name] = (...a) => { window.__draws.push(performance.now()); return f(...a); };
  }
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


@dataclasses.dataclass
class Net:
    rtt_ms: float = 0.0
    down_mbit: float | None = None
    up_mbit: float | None = None

    @property
    def emulated(self) -> bool:
        return self.rtt_ms > 0 or self.down_mbit is not None or self.up_mbit is not None

    def __str__(self) -> str:
        if not self.emulated:
            return "local"
        down = "unlimited" if self.down_mbit is None else f"{self.down_mbit:g} Mbit/s"
        return f"{self.rtt_ms:g} ms round trip, {down} down"


@contextlib.contextmanager
def through(lab: Any, net: Net) -> Iterator[tuple[Any, LinkProxy | None]]:
    """The lab as the browser reaches it: directly, or through the proxy."""
    if not net.emulated:
        yield lab, None
        return
    port = int(lab.url.rsplit(":", 1)[1])
    with LinkProxy(port, rtt_ms=net.rtt_ms, down_mbit=net.down_mbit, up_mbit=net.up_mbit) as p:
        yield dataclasses.replace(lab, url=f"http://127.0.0.1:{p.port}"), p


def quiet(proxy: LinkProxy | None, page: Any, seconds: float = 1.5, limit: float = 180) -> None:
    """Wait until no byte has gone toward the browser for ``seconds``."""
    if proxy is None:
        page.wait_for_timeout(1000)
        return
    end = time.monotonic() + limit
    last, since = proxy.kernel_bytes, time.monotonic()
    while time.monotonic() < end:
        page.wait_for_timeout(200)
        if proxy.kernel_bytes != last:
            last, since = proxy.kernel_bytes, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return


def open_panel(lab: Any, proxy: LinkProxy | None, ratio: float) -> tuple[Any, dict[str, Any], int]:
    """A page showing the panel; the probe's answer; the first display's bytes."""
    page = lab.new_page(1280, 800, scale=ratio)
    page.add_init_script(path=str(WS_TAP))
    lab.open(page, NOTEBOOK, run_all=False)
    quiet(proxy, page)
    before = proxy.kernel_bytes if proxy else 0
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(  # the board canvas's first frame painted
        f"() => {{ const c = document.querySelector({CANVAS!r});"
        " return c && c.getBoundingClientRect().width > 0"
        " && +c.dataset.frame > 0; }",
        timeout=300_000,
    )
    quiet(proxy, page)
    first = (proxy.kernel_bytes - before) if proxy else 0
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    page.locator(CANVAS).first.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    info = json.loads(lab.kernel(page, PROBE).strip().splitlines()[-1])
    if not info["interactive"]:
        raise SystemExit("the panel's board is not a live canvas: nothing to drag")
    return page, info, first


def measure_steps(page: Any, info: dict[str, Any], moves: int) -> tuple[list[float], str]:
    """Latency of each move (ms; inf when missed) and the messages per move."""
    page.evaluate(JS_HOOK, CANVAS)
    box = page.locator(CANVAS).first.bounding_box()
    x, y = box["x"] + info["x"], box["y"] + info["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.wait_for_timeout(500)
    messages(page, 0)
    out: list[float] = []
    for i in range(moves):
        x += 4.0 if (i // 10) % 2 == 0 else -4.0  # back and forth, 4 px a move
        n = page.evaluate("() => window.__moves.length")
        page.mouse.move(x, y)
        latency = None
        for _ in range(100):  # up to about 2 s
            latency = page.evaluate(JS_DONE, n)
            if latency is not None:
                break
            page.wait_for_timeout(20)
        out.append(float("inf") if latency is None else float(latency))
    page.wait_for_timeout(500)
    tally = messages(page, moves)
    page.mouse.up()
    return out, tally


def drag_path(info: dict[str, Any], path: str) -> Any:
    """The pointer's place (CSS px on the canvas) at ``phase`` (0 to 1: there and back)."""
    x0, y0 = info["x"], info["y"]
    if path == "middle":
        mx, my = info["middle"]
        return lambda phase: (
            x0 + (mx - x0) * (1 - abs(2 * phase - 1)),
            y0 + (my - y0) * (1 - abs(2 * phase - 1)),
        )
    if path == "edge":
        ex, ey = info["edge"]
        way = 200.0 if ex < info["middle"][0] else -200.0  # along the edge, toward its middle
        return lambda phase: (ex + way * (1 - abs(2 * phase - 1)), ey + 6.0)
    return lambda phase: (x0 + 60.0 * (1 - abs(2 * phase - 1)), y0 + 10.0 * (phase - 0.5))


DRIVE_IN_PAGE = """({sel, points, period}) => {
  const canvas = document.querySelector(sel);
  let i = 0;
  window.__driven = null;
  const timer = setInterval(() => {
    if (i >= points.length) {
      clearInterval(timer);
      window.__driven = performance.now();
      return;
    }
    const [x, y] = points[i++];
    canvas.dispatchEvent(new PointerEvent("pointermove", {
      clientX: x, clientY: y, buttons: 1, pointerId: 1, pointerType: "mouse",
      isPrimary: true, bubbles: true,
    }));
  }, period);
}"""
"""The drag's pointer moves made in the page (``--driver page``): one every ``period`` ms by
the page's own timer, so that the load on the benchmark's process leaves no gaps in them."""


def measure_drag(
    page: Any,
    info: dict[str, Any],
    proxy: LinkProxy | None,
    seconds: float,
    path: str,
    driver: str = "playwright",
) -> dict[str, Any]:
    """One continuous drag along ``path``; lag and bytes from the board canvas's trace. The
    moves come from Playwright (a mouse move every 16 ms and the time it takes: under load
    fewer, with gaps) or, with ``driver`` "page", from the page's own timer (see
    :data:`DRIVE_IN_PAGE`; the press, the last position and the release stay real)."""
    box = page.locator(CANVAS).first.bounding_box()
    where = drag_path(info, path)
    x0, y0 = box["x"] + info["x"], box["y"] + info["y"]
    page.evaluate(
        "(sel) => { window.fwwrulesTrace = []; window.__pointer = [];"
        " document.querySelector(sel).addEventListener('pointermove',"
        " (e) => window.__pointer.push(e.timeStamp)); }",
        CANVAS,
    )
    page.mouse.move(x0, y0)
    page.mouse.down()
    messages(page, 0)
    start_bytes = proxy.kernel_bytes if proxy else 0
    t0 = time.monotonic()
    k = 0
    if driver == "page":
        ticks = [where((k % 120) / 120.0) for k in range(1, int(seconds * 1000 / 16) + 1)]
        points = [[box["x"] + x, box["y"] + y] for x, y in ticks]
        page.evaluate(DRIVE_IN_PAGE, {"sel": CANVAS, "points": points, "period": 16})
        page.wait_for_function("() => window.__driven !== null", timeout=seconds * 10_000)
        page.mouse.move(*points[-1])  # the mouse is where the drag left it
    while driver != "page" and time.monotonic() - t0 < seconds:
        k += 1
        phase = (k % 120) / 120.0  # to and fro, a round every ~2 s
        x, y = where(phase)
        page.mouse.move(box["x"] + x, box["y"] + y)
        page.wait_for_timeout(16)
    stopped = page.evaluate("() => performance.now()")
    pointer: list[float] = page.evaluate("() => window.__pointer.slice()")
    gaps = [b - a for a, b in itertools.pairwise(pointer)]
    page.wait_for_timeout(3000)  # held still: the picture catches up
    drag_bytes = (proxy.kernel_bytes if proxy else 0) - start_bytes
    moved = page.evaluate("() => window.fwwrulesTrace.filter(e => e.input === 'move').length")
    log: list[dict[str, Any]] = page.evaluate("() => window.__ws.slice()")
    last_id = board_synced(page)["last"]  # the kernel's last frame before the release
    if os.environ.get("FWWRULES_BENCH_LOG"):  # the drag's messages, for a closer look
        Path(os.environ["FWWRULES_BENCH_LOG"]).write_text(json.dumps(log), encoding="utf-8")
    tally = messages(page, moved)
    page.mouse.up()
    page.wait_for_timeout(3000)
    trace: list[dict[str, Any]] = page.evaluate("() => window.fwwrulesTrace")
    if os.environ.get("FWWRULES_BENCH_LOG"):  # and the board canvas's trace beside them
        Path(os.environ["FWWRULES_BENCH_LOG"] + ".trace").write_text(
            json.dumps(trace), encoding="utf-8"
        )
    sent = {e["seq"]: e["t"] for e in trace if "input" in e}
    moves = [e for e in trace if e.get("input") == "move"]
    frames = [e for e in trace if "frame" in e and e.get("seq") in sent]
    during = [f for f in frames if f["t"] <= stopped]
    lags = sorted(f["t"] - sent[f["seq"]] for f in during)
    # frames that change the picture (not only the words beside it: a worker's answer, sent
    # with the seq of the last move handled, however long the pointer has moved on since)
    drawn = sorted(f["t"] - sent[f["seq"]] for f in during if pictured(f))
    last_second = [f["t"] - sent[f["seq"]] for f in during if f["t"] > stopped - 1000]
    last_move = max((m["seq"] for m in moves), default=0)
    final = next((f for f in frames if f["seq"] >= last_move), None)
    # A last move that changed nothing (a base stopped at contact or at the table's edge) is
    # answered by "done" with no frame, or (a quiet move) by the kernel's idle status of its
    # message (the trace's "quiet"): the picture is exact from then (or from the last frame
    # painted before it).
    answers = [m for m in log if m["kind"] == "custom:done" and (m.get("seq") or 0) >= last_move]
    answers += [e for e in trace if (e.get("quiet") or 0) >= last_move]
    done = min(answers, key=lambda m: m["t"], default=None)
    if done is not None and (final is None or done["t"] < final["t"]):
        painted = [f["t"] for f in frames if f["t"] <= done["t"]]
        final = {"t": max([stopped, *painted[-1:]])}
    # the kernel's last frame (words or picture) before the release, painted: from then on
    # the browser shows all the kernel has to say about where the mouse stopped
    settled = next((f["t"] for f in trace if f.get("frame") == last_id), None)
    return {
        "pointer events": len(pointer),
        "pointer gaps over 50 ms": sum(g > 50 for g in gaps),
        "moves sent": len(moves),
        "frames painted": len(during),
        "lag median ms": statistics.median(lags) if lags else None,
        "lag p90 ms": lags[min(len(lags) - 1, round(0.9 * (len(lags) - 1)))] if lags else None,
        "lag max ms": lags[-1] if lags else None,
        "picture frames": len(drawn),
        "their lag median ms": statistics.median(drawn) if drawn else None,
        "their lag p90 ms": p90(drawn) if drawn else None,
        "lag max, last second, ms": max(last_second) if last_second else None,
        "exact after the mouse stops ms": (final["t"] - stopped) if final else None,
        "last frame after it ms": max(0.0, settled - stopped) if settled else None,
        "frame bytes median": statistics.median(f["bytes"] for f in during) if during else None,
        "bytes down per move": drag_bytes / len(moves) if moves and proxy else None,
        "drag KB down": drag_bytes / 1e3 if proxy else None,
        # the link's bytes over the messages' (below 1: the WebSocket compresses them)
        "wire/messages": f"{drag_bytes / down:.2f}"
        if proxy and (down := sum(m["bytes"] for m in log if m["dir"] == "down"))
        else None,
        "bytes down per move median": per_frame(log),
        "per frame p90": per_frame(log, 0.9),
        "per frame": per_frame_kinds(log),
        "messages": tally,
    }


def per_frame(log: list[dict[str, Any]], at: float = 0.5) -> float | None:
    """The median (or the quantile ``at``) of the bytes toward the browser per frame painted
    during a drag: each frame's message with every message before it since the previous
    frame (the ruling's text, the kernel's status). The WebSocket's own bytes, without HTTP
    or the proxy."""
    groups: list[float] = []
    since = 0.0
    for m in log:
        if m["dir"] != "down":
            continue
        since += m["bytes"]
        if m["kind"] == "custom:frame":
            groups.append(since)
            since = 0.0
    if not groups:
        return None
    return statistics.median(groups) if at == 0.5 else quantile(groups, at)


def per_frame_kinds(log: list[dict[str, Any]]) -> str:
    """What the groups of :func:`per_frame` hold, by kind: the median of each kind's bytes
    over the groups (a kind missing from a group counts 0), and how often it comes a group."""
    groups: list[dict[str, float]] = []
    since: dict[str, float] = {}
    for m in log:
        if m["dir"] != "down":
            continue
        since[m["kind"]] = since.get(m["kind"], 0.0) + m["bytes"]
        since["n " + m["kind"]] = since.get("n " + m["kind"], 0.0) + 1
        if m["kind"] == "custom:frame":
            groups.append(since)
            since = {}
    kinds = sorted({k for g in groups for k in g if not k.startswith("n ")})
    return ", ".join(
        f"{k} {statistics.median(g.get(k, 0.0) for g in groups):.0f} B"
        f" ({sum(g.get('n ' + k, 0.0) for g in groups) / len(groups):.2f})"
        for k in kinds
    )


def messages(page: Any, moves: int) -> str:
    """The kernel WebSocket's messages since the last call, per mouse move, each direction by
    kind: how many and how many bytes."""
    log: list[dict[str, Any]] = page.evaluate("() => window.__ws.splice(0)")
    if not moves:
        return "no moves"
    out = []
    for way, name in (("up", "to the kernel"), ("down", "to the browser")):
        count: dict[str, list[float]] = {}
        for m in log:
            if m["dir"] == way:
                n, b = count.setdefault(m["kind"], [0, 0])
                count[m["kind"]] = [n + 1, b + m["bytes"]]
        total = sum(b for _, b in count.values()) / moves
        kinds = ", ".join(
            f"{k} {n / moves:.2f} ({b / moves / 1e3:.2f} KB)"
            for k, (n, b) in sorted(count.items(), key=lambda kv: -kv[1][1])
        )
        out.append(f"{name} {total / 1e3:.2f} KB: {kinds}")
    return "; ".join(out)


def p90(values: list[float]) -> float:
    return quantile(values, 0.9)


def quantile(values: list[float], at: float) -> float:
    done = sorted(values)
    return done[min(len(done) - 1, round(at * (len(done) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=["step", "drag", "both"], default="step")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--ratios", type=float, nargs="+", default=[1.0, 2.0])
    parser.add_argument("--rtt", type=float, default=0.0, help="round trip added, ms")
    parser.add_argument("--down", type=float, default=None, help="Mbit/s toward the browser")
    parser.add_argument("--up", type=float, default=None, help="Mbit/s toward the kernel")
    parser.add_argument("--seconds", type=float, default=4.0, help="length of the drag")
    parser.add_argument("--path", choices=PATHS, default="default", help="where the drag goes")
    parser.add_argument(
        "--driver",
        choices=["playwright", "page"],
        default="playwright",
        help="who makes the drag's moves (page: the page's own timer, no gaps under load)",
    )
    args = parser.parse_args()
    if not CHROMIUM.exists():
        raise SystemExit(f"no Chromium at {CHROMIUM}")
    net = Net(args.rtt, args.down, args.up)
    with tempfile.TemporaryDirectory() as tmp, lab_session(Path(tmp), CHROMIUM) as lab:
        lab.write_notebook(NOTEBOOK, CELL)
        print(f"crowded board, {net} ({load()})")
        for ratio in args.ratios:
            with through(lab, net) as (reached, proxy):
                page, info, first = open_panel(reached, proxy, ratio)
                try:
                    if proxy is not None:
                        print(
                            f"DPR {ratio:g}: first display {first / 1e3:.0f} KB toward the browser"
                        )
                    if args.mode in ("step", "both"):
                        times, tally = measure_steps(page, info, args.moves)
                        report_steps(ratio, times)
                        print(f"DPR {ratio:g}: step messages per move: {tally}")
                    if args.mode in ("drag", "both"):
                        if args.path == "edge":
                            lab.kernel(page, TO_EDGE)
                            quiet(proxy, page)
                            info = json.loads(lab.kernel(page, PROBE).strip().splitlines()[-1])
                        got = measure_drag(page, info, proxy, args.seconds, args.path, args.driver)
                        tally = got.pop("messages")
                        text = ", ".join(
                            f"{k} {v:.0f}" if isinstance(v, float) else f"{k} {v}"
                            for k, v in got.items()
                        )
                        print(
                            f"DPR {ratio:g}: drag {args.seconds:g} s ({args.path}, moves by"
                            f" {args.driver}): {text} "
                            f"({load()})"
                        )
                        print(f"DPR {ratio:g}: drag messages per move: {tally}")
                finally:
                    page.context.close()
                    lab.shutdown_kernels()


def report_steps(ratio: float, times: list[float]) -> None:
    done = sorted(t for t in times if t != float("inf"))
    missed = len(times) - len(done)
    if not done:
        print(f"DPR {ratio:g}: no move showed a change within 2 s")
        return
    print(
        f"DPR {ratio:g}: mouse move -> canvas and ruling changed: "
        f"median {statistics.median(done):.1f} ms, p90 {p90(done):.1f} ms "
        f"(min {done[0]:.1f}, max {done[-1]:.1f}; {missed} missed; {load()})"
    )


def load() -> str:
    """The machine's load (the benchmarks share it: figures under load are slower)."""
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
