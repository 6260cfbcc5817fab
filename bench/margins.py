"""What a ruling's margins cost (issue 35) on the crowded board of ``bench/_board.py``.

For all 552 ordered pairs of its 24 models, each on a fresh board (no ruling memoised):

* ``fwwrules.ruling`` alone (the margins are lazy: a plain ruling computes none of them);
* the ruling and its knife-edge question (``close_call``: the margins up to the knife edge
  only, what ``explain()`` and the panels' text ask);
* the ruling and all its margins (``margins``: up to the search radius, every decision; what
  ``fwwrules ruling --json`` asks).

Prints, per ruling in ms, the median, the 90th percentile and the largest, and the total for
the 552 pairs, each for wall-clock and for CPU (process) time alike (on a shared, busy machine
the CPU time is the steadier figure); then how many calls are knife edges and how many margin
searches were cut short (the probe limit).

Usage: ``python bench/margins.py [--heights] [--pairs N]`` (``--pairs``: every N-th pair only)
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _board import crowded_board

import fwwrules
from fwwrules.closeness import Margins
from fwwrules.scenario import Scenario


def _timed(
    pairs: list[tuple[str, str]], heights: bool, ask: Callable[[Scenario, str, str], object]
) -> tuple[list[float], list[float], list[object]]:
    """Wall and CPU ms per pair, each on a fresh board, and what ``ask`` returned."""
    wall, cpu, got = [], [], []
    for a, b in pairs:
        s = crowded_board(heights=heights)
        w0, c0 = time.perf_counter(), time.process_time()
        got.append(ask(s, a, b))
        wall.append((time.perf_counter() - w0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    return wall, cpu, got


def _figures(ms: list[float]) -> str:
    """Median, 90th percentile and largest (ms), and the total (s), of one clock's times."""
    p90 = sorted(ms)[int(0.9 * (len(ms) - 1))]
    return (
        f"median {statistics.median(ms):7.1f} ms  p90 {p90:7.1f} ms  max {max(ms):7.1f} ms  "
        f"total {sum(ms) / 1e3:6.1f} s"
    )


def _line(name: str, wall: list[float], cpu: list[float]) -> str:
    return f"  {name}\n    wall  {_figures(wall)}\n    cpu   {_figures(cpu)}"


def _plain(s: Scenario, a: str, b: str) -> object:
    return fwwrules.ruling(s, a, b)


def _knife(s: Scenario, a: str, b: str) -> object:
    return fwwrules.ruling(s, a, b).close_call("en") is not None


def _full(s: Scenario, a: str, b: str) -> object:
    return fwwrules.ruling(s, a, b).margins


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--heights", action="store_true", help="pieces with heights (elevation)")
    ap.add_argument("--pairs", type=int, default=1, help="every N-th pair only")
    args = ap.parse_args()
    ids = [m.id for m in crowded_board(heights=args.heights).models]
    pairs = list(itertools.permutations(ids, 2))[:: max(args.pairs, 1)]
    print(f"crowded board{' with heights' if args.heights else ''}: {len(pairs)} ordered pairs")
    wall, cpu, _ = _timed(pairs, args.heights, _plain)
    print(_line("ruling alone", wall, cpu))
    wall, cpu, knife = _timed(pairs, args.heights, _knife)
    print(_line("ruling + knife-edge question", wall, cpu))
    wall, cpu, full = _timed(pairs, args.heights, _full)
    print(_line("ruling + all margins", wall, cpu))
    margins = [m for m in full if isinstance(m, Margins)]
    found = sum(m.smallest.mm is not None for m in margins)
    cut = sum(not m.complete for m in margins)
    probes = statistics.median([m.probes for m in margins]) if margins else 0
    print(
        f"  knife-edge calls: {sum(bool(k) for k in knife)}; a change within the radius: "
        f"{found}; searches cut short: {cut}; median probes per ruling: {probes:g}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
