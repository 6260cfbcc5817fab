"""Widget latency on the crowded board: move a model in the AttackPanel and time each change.

Headless on matplotlib's Agg backend, the AttackPanel on ``bench/_board.py``'s crowded board
(24 models, 40 terrain pieces; a comparable board is built here if that file is missing). One
model is moved 50 times along a path across the board; for each change the script times

* ``fwwrules.ruling`` alone (the rules' share) and ``update_board`` alone (the artists');
* move -> ruling -> artists updated in place -> one full draw (a position control with the
  background forgotten);
* move -> ruling -> in place -> cached background + moving artists, then a blit (position
  controls on the live board canvas) or a whole PNG (headless, without the live canvas): the
  panel's own path, where the rest of the figure is drawn once and reused while only this
  model moves;
* drag -> ruling -> in place -> blit (what a mouse drag does on the board canvas; the frame
  encoding and sending are measured in the browser by ``bench/browser_latency.py``);
* for comparison, drawing the whole figure from scratch each time (10 moves).

Prints the median and the 90th percentile in ms. Goal: drag -> ruling -> redraw <= 50 ms.

With ``--editor`` it times the board editor on the same board instead (``BoardEditor`` on
the scenario, its figure drawn without a browser): a model dragged with the Select tool (each
motion, and the drop that makes it a new board), a terrain piece dragged, a move by method
(a new board and a full draw), and a model added and undone. It drives the editor through
its public methods and matplotlib mouse events only, so the same script times an older tree
(``/path/to/other/.venv/bin/python bench/widget_latency.py --editor``).

With ``--how-close`` it times the drag step of two attack panels on the same board, one with
the live "how close" line (the margins measured by a separate process after each step) and
one with the line off (the drag step as it was), interleaved round by round, each motion
followed by ``--gap`` ms of idle time (the frame's round trip to the browser, in which the
measuring process works); it prints both and how many steps the line answered before the
next motion. ``--side-view`` does the same with the attack panel's side view (drawn during
the drag by its own process) on and off instead.

To time another tree on the very same positions (this tree places each one by hand, an older
one may not), ``--save-positions FILE`` writes the path as JSON (a list of ``[x, y]`` in
scenario units) and ``--positions FILE`` moves the model along a path read from such a file
(its length sets the number of moves). The drag follows the panel's placement rule, so a
motion may end elsewhere (on the snap grid, at a base in the way): the script prints how many
did.

Usage: ``python bench/widget_latency.py [--moves N] [--heights] [--editor] [--how-close]
[--positions FILE | --save-positions FILE]``
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

from fwwrules_widgets import AttackPanel

import fwwrules
from fwwrules import Model, Rect, Scenario, Terrain, Weapon
from fwwrules.draw import draw_board, update_board

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _fallback_board() -> Scenario:
    """A comparable crowded board when bench/_board.py is not there: 24 models, 40 pieces."""
    kinds = ["blocking"] * 12 + ["cover"] * 10 + ["area"] * 6 + ["dense-area"] * 6
    kinds += ["scenery"] * 6
    terrain = tuple(
        Terrain(
            id=f"{k}-{i:02d}",
            kind=k,
            shape=Rect((80.0 + (i % 8) * 150.0, 150.0 + (i // 8) * 230.0), (60.0, 25.0), 15.0 * i),
        )
        for i, k in enumerate(kinds)
    )
    models = tuple(
        Model(
            id=f"m{j:02d}",
            faction="vault" if j < 12 else "raiders",
            base=(32.0, 40.0, 60.0)[j % 3],
            at=(60.0 + (j % 12) * 95.0, 50.0 if j < 12 else 1170.0),
            skills={"rifle": 6},
            weapons=("rifle",),
        )
        for j in range(24)
    )
    rifle = Weapon("rifle", "rifle", short="black", long="black", dice={"short": ("black",)})
    return Scenario(models=models, terrain=terrain, weapons=(rifle,), title="Fallback board")


def board(heights: bool) -> tuple[Scenario, str]:
    try:
        from _board import crowded_board
    except ImportError:
        return _fallback_board(), "fallback board (bench/_board.py missing)"
    return crowded_board(heights=heights), "bench/_board.py crowded_board"


GIVEN: list[tuple[float, float]] = []
"""The path read with ``--positions`` (empty: :func:`path` computes one)."""


def path(scenario: Scenario, model_id: str, n: int) -> list[tuple[float, float]]:
    """``n`` positions toward a circle of 150 mm around the model's start, each where a base
    moved there by hand from the start ends (:func:`fwwrules.placement.place_by_hand`:
    stopped at contact, on the table), so that no position overlaps another base (a board
    the rules refuse since issue 31)."""
    from fwwrules.placement import place_by_hand

    if GIVEN:
        return GIVEN[:n]
    x0, y0 = scenario.model(model_id).at
    out = []
    for i in range(n):
        a = 2 * math.pi * i / n
        aim = (x0 + 150.0 * math.cos(a), y0 + 150.0 * math.sin(a))
        out.append(place_by_hand(scenario, model_id, aim, snapped=False))
    return out


Timing = tuple[float, float]
"""(wall ms, CPU ms) of one call: the machine may be shared, so both are printed."""


def timed(fn: Callable[[], object]) -> Timing:
    c = time.process_time()
    t = time.perf_counter()
    fn()
    return ((time.perf_counter() - t) * 1000.0, (time.process_time() - c) * 1000.0)


def report(name: str, timings: list[Timing]) -> None:
    wall = sorted(w for w, _ in timings)
    cpu = [c for _, c in timings]
    p90 = wall[min(len(wall) - 1, int(0.9 * len(wall)))]
    print(
        f"  {name:<44} median {statistics.median(wall):7.1f} ms  p90 {p90:7.1f} ms"
        f"  (cpu median {statistics.median(cpu):6.1f} ms)"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=50)
    ap.add_argument("--heights", action="store_true", help="terrain with heights (elevation)")
    ap.add_argument("--editor", action="store_true", help="time the board editor instead")
    ap.add_argument("--how-close", action="store_true", help="drag steps with the line on/off")
    ap.add_argument("--side-view", action="store_true", help="drag steps with the side view on/off")
    ap.add_argument("--gap", type=float, default=40.0, help="ms between motions (--how-close)")
    ap.add_argument("--rounds", type=int, default=4, help="rounds of each (--how-close)")
    ap.add_argument("--positions", type=Path, help="move along the path in this JSON file")
    ap.add_argument("--save-positions", type=Path, help="write the path to this JSON file")
    args = ap.parse_args()
    scenario, source = board(args.heights)
    if args.positions is not None:
        GIVEN[:] = [(float(x), float(y)) for x, y in json.loads(args.positions.read_text())]
        args.moves = len(GIVEN)
    if args.save_positions is not None:
        target = scenario.models[-1].id
        args.save_positions.write_text(json.dumps(path(scenario, target, args.moves)))
    if args.editor:
        return editor_bench(scenario, source, args.moves)
    if args.how_close or args.side_view:
        line = "side" if args.side_view else "how_close"
        return how_close_bench(scenario, source, args.moves, args.gap / 1000.0, args.rounds, line)
    attacker, target = scenario.models[0].id, scenario.models[-1].id
    print(
        f"widget latency: {source}, {len(scenario.models)} models, {len(scenario.terrain)} "
        f"terrain pieces, {args.moves} moves of {target!r}, attacker {attacker!r}, Agg"
    )
    moves = path(scenario, target, args.moves)

    panel = AttackPanel(scenario, attacker=attacker, target=target, interactive=False)
    view = panel.view
    u = scenario.unit_mm

    ruling_times = [
        timed(lambda x=x, y=y: fwwrules.ruling(_moved(scenario, target, x, y), attacker, target))
        for x, y in moves
    ]

    # in place + a full draw each change (the background forgotten first), no PNG
    view.interactive = True  # Agg's blit is a no-op: this times the drawing alone

    def full_move(x: float, y: float) -> None:
        view.invalidate()
        panel.move(target, x, y)

    full = [timed(lambda x=x, y=y: full_move(x, y)) for x, y in moves]
    # position controls on the live board canvas: cached background + moving artists + blit
    cached_blit = [timed(lambda x=x, y=y: panel.move(target, x, y)) for x, y in moves]
    view.interactive = False
    # without the live canvas (headless): cached background, moving artists, a whole PNG
    cached = [timed(lambda x=x, y=y: panel.move(target, x, y)) for x, y in moves]
    update = [
        timed(lambda: update_board(panel.artists, panel.scenario, ruling=panel.ruling))
        for _ in moves
    ]

    # blitting: press on the base, drag, release (the board canvas's path, driven directly;
    # interactive, so each motion blits as in the browser instead of encoding a whole PNG)
    view.interactive = True
    panel.move(target, *scenario.model(target).at)
    base = panel.artists.bases[target]
    cx, cy = base.center
    px, py = view.ax.transData.transform((cx, cy))
    from matplotlib.backend_bases import MouseEvent

    canvas = view.figure.canvas
    press = MouseEvent("button_press_event", canvas, px, py, button=1)
    canvas.callbacks.process("button_press_event", press)
    assert view.dragging == target, "the press did not pick the target's base"
    blit = []
    short = 0
    for x, y in moves:
        blit.append(timed(lambda x=x, y=y: view.drag_to(x * u, y * u)))
        short += math.dist(view._last, (x * u, y * u)) > 1e-6
    release = MouseEvent("button_release_event", canvas, px, py, button=1)
    drop = timed(lambda: canvas.callbacks.process("button_release_event", release))

    rebuild = []
    for x, y in moves[:10]:

        def again(x: float = x, y: float = y) -> None:
            s = _moved(scenario, target, x, y)
            r = fwwrules.ruling(s, attacker, target)
            view.ax.clear()
            draw_board(s, view.ax, ruling=r)
            canvas.draw()

        rebuild.append(timed(again))

    report("ruling only (fwwrules.ruling)", ruling_times)
    report("update_board alone (artists in place)", update)
    report("move -> ruling -> in place + full draw", full)
    report("move -> ruling -> cached bg + blit (canvas)", cached_blit)
    report("move -> ruling -> cached bg + PNG (headless)", cached)
    report("drag -> ruling -> in place + blit (canvas)", blit)
    report("rebuilding the figure each change (10 moves)", rebuild)
    report("drop (one full redraw after a drag)", [drop])
    print(
        f"  drag motions that ended elsewhere (snap grid, a base in the way): "
        f"{short} of {len(moves)}"
    )
    return 0


def editor_bench(scenario: Scenario, source: str, n: int) -> int:
    """The board editor on ``scenario``: drags (per motion and the drop), a move by method,
    a model added and undone (see the module's docstring)."""
    from fwwrules_widgets import BoardEditor
    from matplotlib.backend_bases import MouseEvent

    mover = scenario.models[-1]
    piece = next(t for t in scenario.terrain if t.kind == "cover")
    print(
        f"editor latency: {source}, {len(scenario.models)} models, {len(scenario.terrain)} "
        f"terrain pieces, {n} motions of {mover.id!r} and of {piece.id!r}, Agg"
    )
    ed = BoardEditor(scenario, interactive=False)
    ed.view.interactive = True  # no browser: this times the drawing, not a PNG's encoding
    # the board's Axes: in mm (this tree's editor), or in scenario units (an older one)
    per_unit = ed.unit_mm if hasattr(ed, "draft") else 1.0
    canvas = ed.figure.canvas

    def mouse(kind: str, x: float, y: float) -> None:
        px, py = ed.ax.transData.transform((x * per_unit, y * per_unit))
        button = None if kind == "motion_notify_event" else 1
        canvas.callbacks.process(kind, MouseEvent(kind, canvas, px, py, button=button))

    def drag(
        start: tuple[float, float], points: list[tuple[float, float]]
    ) -> tuple[list[Timing], Timing]:
        mouse("button_press_event", *start)
        motions = [timed(lambda p=p: mouse("motion_notify_event", *p)) for p in points]
        return motions, timed(lambda: mouse("button_release_event", *points[-1]))

    u = scenario.unit_mm
    model_path = [(x / u, y / u) for x, y in path(scenario, mover.id, n)]
    motions, drop = drag(mover.at, model_path)
    centre = scenario.board.terrain[piece.id].polygon.representative_point()
    start = (centre.x / u, centre.y / u)
    step = 60.0 / u  # a circle of 60 mm round the piece's centre
    piece_path = [
        (
            start[0] + step * math.cos(2 * math.pi * k / n),
            start[1] + step * math.sin(2 * math.pi * k / n),
        )
        for k in range(1, n + 1)
    ]
    piece_motions, piece_drop = drag(start, piece_path)
    moves = [timed(lambda p=p: ed.move(mover.id, p)) for p in model_path[:10]]
    free = (model_path[n // 2][0], model_path[n // 2][1])

    def add_and_undo() -> None:
        made = ed.add_model(free, faction="bench")
        ed.undo()
        assert made

    added = [timed(add_and_undo) for _ in range(5)]
    report("editor: drag a model, each motion", motions)
    report("editor: drop of the model (a new board)", [drop])
    report("editor: drag a terrain piece, each motion", piece_motions)
    report("editor: drop of the piece (a new board)", [piece_drop])
    report("editor: move by method (new board, full draw)", moves)
    report("editor: add a model, then undo (2 boards)", added)
    return 0


def how_close_bench(
    scenario: Scenario, source: str, n: int, gap: float, rounds: int, what: str = "how_close"
) -> int:
    """Drag steps with the live "how close" line (``what``: ``how_close``) or the side view
    (``side``) on and off (see the module's docstring)."""
    from matplotlib.backend_bases import MouseEvent

    attacker, target = scenario.models[0].id, scenario.models[-1].id
    title = "how-close line" if what == "how_close" else "side view"
    print(
        f"{title}: {source}, {n} motions of {target!r} per drag, {rounds} rounds, "
        f"{gap * 1000:.0f} ms between motions, Agg"
    )
    moves = path(scenario, target, n)
    panels = {}
    for name in ("off", "on"):
        panel = AttackPanel(scenario, attacker=attacker, target=target, interactive=False)
        panel.how_close.enabled = what == "how_close" and name == "on"
        panel.side.toggle.value = what == "side" and name == "on"
        panel.view.interactive = True  # each motion blits, as on the live canvas
        panels[name] = panel
    if what == "side":  # the drawing process started and ready: one rested position drawn
        panel = panels["on"]
        panel.side.follow(panel.scenario, panel._query(), "en")
    assert getattr(panels["on"], what).wait(60.0), "the helper process did not answer"
    steps: dict[str, list[Timing]] = {"off": [], "on": []}
    answered = 0
    u = scenario.unit_mm
    for _ in range(rounds):
        for name, panel in panels.items():
            view, canvas = panel.view, panel.view.figure.canvas
            panel.move(target, *scenario.model(target).at)
            px, py = view.ax.transData.transform(panel.artists.bases[target].center)
            with view.lock:
                press = MouseEvent("button_press_event", canvas, px, py, button=1)
                canvas.callbacks.process("button_press_event", press)
            for x, y in moves:

                def step(x: float = x, y: float = y, view: Any = view) -> None:
                    with view.lock:  # as the board canvas's messages are handled
                        view.drag_to(x * u, y * u)

                steps[name].append(timed(step))
                time.sleep(gap)
                line = getattr(panel, what)
                answered += name == "on" and line.shown == line.generation
            with view.lock:
                release = MouseEvent("button_release_event", canvas, px, py, button=1)
                canvas.callbacks.process("button_release_event", release)
    report(f"drag step, {title} off (before)", steps["off"])
    report(f"drag step, {title} on", steps["on"])
    off = statistics.median(w for w, _ in steps["off"])
    on = statistics.median(w for w, _ in steps["on"])
    print(f"  median on/off: {on / off:.2f}; the {title} answered {answered} of "
          f"{len(steps['on'])} steps within {gap * 1000:.0f} ms")  # fmt: skip
    return 0


def _moved(scenario: Scenario, model_id: str, x: float, y: float) -> Scenario:
    from fwwrules.placement import move_model

    return move_model(scenario, model_id, x, y)


if __name__ == "__main__":
    sys.exit(main())
