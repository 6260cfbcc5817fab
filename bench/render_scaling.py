"""What ``fwwrules render`` costs as boards grow: CPU time and peak memory of one render per
board of 10, 50 and 200 models among 10, 100 and 500 named pieces (``bench/_scaling.py``),
flat or with heights and elevations, each in a fresh process (interpreter start, imports and
loading included, as a user meets it).

The budget (issue 31) is 2 s of CPU and 500 MB for any accepted file; a case over it is marked
``OVER``. CPU time is the figure to read on a shared machine (the load only ever adds to it);
``--repeat N`` keeps each case's run with the least CPU time. ``--python`` renders with
another environment's interpreter (``/work/base/.venv/bin/python``: the figures before a
change, on the same boards); ``--lang de`` renders in German; ``--pair`` draws a ruling
between the first two models too.

Usage: ``python bench/render_scaling.py [--models 10,50,200] [--pieces 10,100,500]
[--repeat N] [--python PATH] [--lang de] [--pair] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _scaling import scaling_board

BUDGET_S = 2.0
BUDGET_MB = 500.0
CAP_BYTES = 3 * 1024**3
CAP_SECONDS = 120


def render_cost(
    python: str, board: Path, out: Path, extra: tuple[str, ...] = ()
) -> tuple[float, float, float, int]:
    """(wall s, CPU s, peak MB, exit status) of one ``fwwrules render`` of ``board``."""

    def cap() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))
        resource.setrlimit(resource.RLIMIT_CPU, (CAP_SECONDS, CAP_SECONDS))

    start = time.perf_counter()
    proc = subprocess.Popen(
        [python, "-m", "fwwrules", "render", str(board), "-o", str(out), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "MPLBACKEND": "Agg"},
        preexec_fn=cap,
    )
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_maxrss / 1024.0, os.waitstatus_to_exitcode(status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--models", default="10,50,200")
    parser.add_argument("--pieces", default="10,100,500")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--pair", action="store_true")
    parser.add_argument("--keep", help="write the boards and pictures into this folder")
    args = parser.parse_args()
    extra = ("--lang", args.lang)
    if args.pair:
        extra += ("--attacker", "m0", "--target", "m1")
    print(f"render with {args.python} ({args.lang}); budget {BUDGET_S:g} s, {BUDGET_MB:g} MB")
    head = ("models", "pieces", "heights", "exit", "wall s", "cpu s", "MB")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (6, 6, 8, 4, 7, 6, 5), strict=True)))
    over = 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for models in map(int, args.models.split(",")):
            for pieces in map(int, args.pieces.split(",")):
                for heights in (False, True):
                    name = f"m{models}-p{pieces}{'-h' if heights else ''}"
                    board = folder / f"{name}.json"
                    data = scaling_board(models, pieces, heights=heights, elevations=heights)
                    board.write_text(json.dumps(data), encoding="utf-8")
                    out = folder / f"{name}-{args.lang}.png"
                    runs = [render_cost(args.python, board, out, extra) for _ in range(args.repeat)]
                    wall, cpu, mb, rc = min(runs, key=lambda r: r[1])
                    flag = "" if rc == 0 and cpu <= BUDGET_S and mb <= BUDGET_MB else " OVER"
                    over += bool(flag)
                    yes = "yes" if heights else "no"
                    print(
                        f"{models:>6} {pieces:>6} {yes:>8} {rc:>4} {wall:7.2f} {cpu:6.2f} "
                        f"{mb:5.0f}{flag}",
                        flush=True,
                    )
    print(f"{over} case(s) over the budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
