"""All-pairs line of sight on the crowded board: the exact method against a sampling baseline.

For all 552 ordered pairs of the 24 models of ``bench/_board.py``:

(a) exact: :func:`fwwrules.geometry.find_clear_segment` over the LoS obstacles near the pair
    (blocking and dense-area pieces merged with :func:`~fwwrules.geometry.merge_touching`,
    found with an STRtree; Huge bases when the smaller model of the pair is smaller);
(b) baseline: 32 points on each base's circle, all 32 x 32 = 1024 segments tested against the
    same obstacles in one vectorised shapely call (``relate_pattern``: the segment's interior
    meets the obstacle's interior; Huge bases as 64-gons).

Prints both totals in ms, the speed-up, and the number of pairs where the baseline found a clear
segment but the exact method said no (must be 0). With ``--full``, also times the 552 complete
``fwwrules.ruling(scenario, a, b)`` calls on a fresh board (rulings memoise LoS per board).
Wall-clock and CPU (process) time are both printed: on a shared, busy machine the CPU time
is the steadier figure.

Usage: ``python bench/allpairs.py [--full [--heights]] [--repeat N]``
"""

from __future__ import annotations

import argparse
import gc
import itertools
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Point
from shapely.strtree import STRtree

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _board import LOS_KINDS, crowded_board

from fwwrules.board import Disc
from fwwrules.geometry import Prepared, find_clear_segment, merge_touching
from fwwrules.los import SIGHT
from fwwrules.scenario import Scenario

SAMPLES = 32


def los_obstacles(scenario):  # type: ignore[no-untyped-def]
    """Merged blocking + dense-area solids, and an STRtree over them."""
    pieces = [(t.id, t.polygon) for t in scenario.board.terrain.values() if t.kind in LOS_KINDS]
    solids = [g for _, g in merge_touching(pieces)]
    for g in solids:
        shapely.prepare(g)
    return solids, STRtree(solids)


def pair_obstacles(scenario, solids, tree, a_id, b_id):  # type: ignore[no-untyped-def]
    models = scenario.board.models
    a, b = models[a_id].disc, models[b_id].disc
    xmin, xmax = min(a.x - a.r, b.x - b.r), max(a.x + a.r, b.x + b.r)
    ymin, ymax = min(a.y - a.r, b.y - b.r), max(a.y + a.r, b.y + b.r)
    near = [solids[int(i)] for i in sorted(tree.query(shapely.box(xmin, ymin, xmax, ymax)))]
    obs: list[object] = list(near)
    if min(_rank(models[a_id].size), _rank(models[b_id].size)) < 2:  # ranged.los.huge
        for mid, mg in models.items():
            d = mg.disc
            if mid in (a_id, b_id) or mg.size != "huge":
                continue
            if d.x + d.r >= xmin and d.x - d.r <= xmax and d.y + d.r >= ymin and d.y - d.r <= ymax:
                obs.append(d)
    return a, b, obs


def _rank(size: str) -> int:
    return {"normal": 0, "large": 1, "huge": 2}[size]


_ANG = np.linspace(0.0, 2 * math.pi, SAMPLES, endpoint=False)


def sampled_los(a: Disc, b: Disc, obs: list[object]) -> bool:
    """The baseline: 32 x 32 perimeter points, one vectorised call."""
    pa = np.column_stack([a.x + a.r * np.cos(_ANG), a.y + a.r * np.sin(_ANG)])
    pb = np.column_stack([b.x + b.r * np.cos(_ANG), b.y + b.r * np.sin(_ANG)])
    p = np.repeat(pa, SAMPLES, axis=0)
    q = np.tile(pb, (SAMPLES, 1))
    if not obs:
        return True
    lines = shapely.linestrings(np.stack([p, q], axis=1))
    geoms = np.asarray(
        [Point(o.x, o.y).buffer(o.r, quad_segs=16) if isinstance(o, Disc) else o for o in obs],
        dtype=object,
    )
    blocked = shapely.relate_pattern(lines[:, None], geoms[None, :], "T********").any(axis=1)
    return bool((~blocked).any())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="also time 552 fwwrules.ruling calls")
    ap.add_argument("--repeat", type=int, default=3, help="runs; the best total is reported")
    ap.add_argument(
        "--heights", action="store_true", help="with --full: also the board with heights"
    )
    args = ap.parse_args()

    scenario = crowded_board()
    solids, tree = los_obstacles(scenario)
    ids = [m.id for m in scenario.models]
    pairs = list(itertools.permutations(ids, 2))
    full = time_full_rulings(pairs, args.repeat, heights=args.heights) if args.full else []
    prepared = [pair_obstacles(scenario, solids, tree, x, y) for x, y in pairs]

    # warm the prepared obstacles once (a board keeps its own, too: Derived.prepared)
    prep = Prepared()
    exact = [find_clear_segment(a, b, obs, prepared=prep) for a, b, obs in prepared]

    best_exact = best_base = best_exact_cpu = best_base_cpu = math.inf
    for _ in range(args.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        for x, y in pairs:
            a, b, obs = pair_obstacles(scenario, solids, tree, x, y)
            find_clear_segment(a, b, obs, prepared=prep)
        best_exact = min(best_exact, time.perf_counter() - t0)
        best_exact_cpu = min(best_exact_cpu, time.process_time() - c0)
        t0, c0 = time.perf_counter(), time.process_time()
        sampled = [sampled_los(a, b, obs) for a, b, obs in prepared]
        best_base = min(best_base, time.perf_counter() - t0)
        best_base_cpu = min(best_base_cpu, time.process_time() - c0)

    denials = sum(1 for s, e in zip(sampled, exact, strict=True) if s and e is None)
    found = sum(1 for s, e in zip(sampled, exact, strict=True) if not s and e is not None)
    visible = sum(e is not None for e in exact)
    print(f"crowded board: {len(ids)} models, {len(scenario.terrain)} pieces, {len(pairs)} pairs")
    print(f"  LoS (exact): {visible} visible, {len(pairs) - visible} blocked")
    print(
        f"  exact all-pairs     : {best_exact * 1e3:8.1f} ms wall, "
        f"{best_exact_cpu * 1e3:.1f} ms CPU (best of {args.repeat}; incl. the STRtree filter)"
    )
    print(
        f"  baseline 32x32      : {best_base * 1e3:8.1f} ms wall, {best_base_cpu * 1e3:.1f} ms CPU"
    )
    print(
        f"  speed-up            : {best_base / best_exact:8.1f} x wall, "
        f"{best_base_cpu / best_exact_cpu:.1f} x CPU"
    )
    print(f"  baseline clear, exact no (must be 0): {denials}")
    print(f"  exact clear, baseline missed it     : {found}")
    for line in full:
        print(line)


def _all_rulings_best(
    pairs: list[tuple[str, str]], repeat: int, board: Callable[[], Scenario]
) -> tuple[float, float]:
    """Best wall and CPU seconds of ``repeat`` runs of every ruling on ``board()``."""
    import fwwrules

    best = best_cpu = math.inf
    for _ in range(repeat):
        scenario = board()
        gc.collect()  # start each timed run with no garbage pending (as timeit does)
        t0, c0 = time.perf_counter(), time.process_time()
        for x, y in pairs:
            fwwrules.ruling(scenario, x, y)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best, best_cpu


def time_full_rulings(
    pairs: list[tuple[str, str]], repeat: int, *, heights: bool = False
) -> list[str]:
    """Time the 552 complete rulings; run first, in a clean process, as a user would.

    (Timed after the sampling baseline, the same calls run about 1.5x slower: the baseline
    leaves many live objects behind, which every garbage collection then has to walk.)
    """
    import fwwrules

    # A new board each run: nothing memoised from the last run.
    full, full_cpu = _all_rulings_best(pairs, repeat, crowded_board)
    lines = [
        f"  552 fwwrules.ruling : {full * 1e3:8.1f} ms wall, "
        f"{full_cpu * 1e3:.1f} ms CPU (best of {repeat}, fresh board each run)"
    ]
    # The same with the board's one-time geometry built (merged pieces, edges), only the
    # per-pair LoS memo emptied before each run.
    warm_board = crowded_board()
    for x, y in pairs:
        fwwrules.ruling(warm_board, x, y)

    def warm() -> Scenario:
        warm_board.derived.entry(SIGHT).clear()
        return warm_board

    best, best_cpu = _all_rulings_best(pairs, repeat, warm)
    lines.append(
        f"  ... board geometry built once: {best * 1e3:8.1f} ms wall, "
        f"{best_cpu * 1e3:.1f} ms CPU (LoS memo emptied each run)"
    )
    if heights:
        # Heights on every second piece (Significant Edges, standing on terrain): the
        # elevation goal is within 1.5x of the flat board.
        best, best_cpu = _all_rulings_best(pairs, repeat, lambda: crowded_board(heights=True))
        lines.append(
            f"  ... with heights    : {best * 1e3:8.1f} ms wall, {best_cpu * 1e3:.1f} ms CPU "
            f"({best_cpu / full_cpu:.2f}x the flat board, CPU)"
        )
    return lines


if __name__ == "__main__":
    main()
