"""Worst-case Pathfinder grid files within the limits: time and peak memory per command.

Each case writes a ``fwwrules/grid@1`` file (the largest or most tangled the limits accept, or
one just over a limit), runs one ``fwwrules`` command on it in a fresh Python process, and
prints its wall time, CPU time (user + system: the machine is shared, so wall time varies with
load), peak memory (maximum resident set size of that process) and exit status.
The budget of issue 14 is 2 s and 500 MB per command on the project machine; figures are
printed, never asserted (tests never time anything).

Run: ``python bench/worst_case_grid.py [--keep DIR] [CASE ...]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fwwrules.constants import MAX_GRID_CELLS, MAX_GRID_WALL_EDGES, MAX_GRID_WALLS, MAX_MODELS

SIDE = int(MAX_GRID_CELLS**0.5)
"""The side of the largest square map."""


def _file(
    rows: list[str],
    walls: list[tuple[tuple[int, int], tuple[int, int]]],
    creatures: list[str],
    title: str,
) -> str:
    out = ["format: fwwrules/grid@1", f"title: {title}", "map: |"]
    out += [f"  {row}" for row in rows]
    if walls:
        out.append("walls:")
        out += [f"  - [[{a[0]}, {a[1]}], [{b[0]}, {b[1]}]]" for a, b in walls]
    out.append("creatures:")
    out += [f"  - {c}" for c in creatures]
    return "\n".join(out) + "\n"


def _open_rows(side: int = SIDE) -> list[str]:
    return ["." * side] * side


def _many_walls_and_creatures() -> str:
    """The most wall entries and wall length the limits allow (short walls on every other
    border of the upper rows, then long walls repeated) and the most creatures (sizes 1 to 3
    in the lower rows, clear of the walls)."""
    walls: list[tuple[tuple[int, int], tuple[int, int]]] = []
    top = SIDE * 3 // 5
    used = 0
    y = 0
    while len(walls) < MAX_GRID_WALLS - 100 and used < MAX_GRID_WALL_EDGES // 2:
        for x in range(0, SIDE, 2):
            walls.append(((x, y), (x + 1, y)))
        used += SIDE // 2
        y = (y + 1) % top
    while len(walls) < MAX_GRID_WALLS and used + SIDE <= MAX_GRID_WALL_EDGES:
        k = len(walls)
        walls.append(((0, 1 + k % (top - 1)), (SIDE, 1 + k % (top - 1))))
        used += SIDE
    creatures = []
    for r in range(top + 1, SIDE - 3, 4):
        for c in range(0, SIDE - 3, 4):
            k = len(creatures)
            if k < MAX_MODELS:
                creatures.append(f"{{id: c{k}, at: [{c}, {r}], size: {1 + k % 3}}}")
    return _file(_open_rows(), walls, creatures, "many walls and creatures")


def _colossal_open() -> str:
    return _file(
        _open_rows(),
        [],
        [
            "{id: a, at: [0, 0], size: 6, reach: 20}",
            f"{{id: b, at: [{SIDE - 6}, {SIDE - 6}], size: 6}}",
        ],
        "two Colossal creatures far apart",
    )


def _colossal_crowd() -> str:
    """Two Colossal creatures far apart with the most creatures between them (soft cover)."""
    creatures = [
        "{id: a, at: [0, 0], size: 6, reach: 20}",
        f"{{id: b, at: [{SIDE - 6}, {SIDE - 6}], size: 6}}",
    ]
    k = 0
    for i in range(8, SIDE - 8, 2):
        for j in range(8, SIDE - 8, 2):
            if len(creatures) < MAX_MODELS and abs(i - j) <= 10:
                creatures.append(f"{{id: c{k}, at: [{i}, {j}]}}")
                k += 1
    return _file(_open_rows(), [], creatures, "Colossal creatures through a crowd")


def _colossal_sealed_maze() -> str:
    """Total cover between two Colossal creatures: a closed wall ring around one, and border
    walls on many grid lines between them (many corners for the line-of-effect search)."""
    walls: list[tuple[tuple[int, int], tuple[int, int]]] = []
    lo, hi = SIDE - 8, SIDE
    walls += [((lo, lo), (hi, lo)), ((lo, lo), (lo, hi))]
    used = 2 * (hi - lo)
    for y in range(8, SIDE - 10):
        for x in range(8 + (y % 2), SIDE - 10, 2):
            if used >= MAX_GRID_WALL_EDGES or len(walls) >= 10_000:
                break
            walls.append(((x, y), (x, y + 1)))
            used += 1
    creatures = [
        "{id: a, at: [0, 0], size: 6}",
        f"{{id: b, at: [{SIDE - 6}, {SIDE - 6}], size: 6}}",
    ]
    return _file(_open_rows(), walls, creatures, "sealed Colossal behind a maze")


def _checker_walls() -> str:
    """Wall squares on every other square (the most corners a line can meet)."""
    rows = []
    for r in range(SIDE):
        rows.append("".join("#" if (c + r) % 2 and 6 < r < SIDE - 7 else "." for c in range(SIDE)))
    creatures = [
        "{id: a, at: [0, 0], size: 6}",
        f"{{id: b, at: [{SIDE - 6}, {SIDE - 6}], size: 6}}",
    ]
    return _file(rows, [], creatures, "checkerboard of wall squares")


def _long_number() -> str:
    return _file(["...."], [], ["{id: a, at: [0, 0]}", "{id: b, at: [3, 0]}"], "x").replace(
        "title: x", "square: " + "9" * 5000
    )


CASES: dict[str, tuple[Callable[[], str], list[str]]] = {
    "check-walls-creatures": (_many_walls_and_creatures, ["check"]),
    "grid-walls-creatures-far": (
        _many_walls_and_creatures,
        ["grid", "--attacker", "c0", "--target", "c199"],
    ),
    "grid-colossal-open": (_colossal_open, ["grid", "--attacker", "a", "--target", "b"]),
    "grid-colossal-open-reach": (
        _colossal_open,
        ["grid", "--attacker", "a", "--target", "b", "--attack", "reach"],
    ),
    "grid-colossal-crowd": (_colossal_crowd, ["grid", "--attacker", "a", "--target", "b"]),
    "grid-colossal-sealed": (_colossal_sealed_maze, ["grid", "--attacker", "a", "--target", "b"]),
    "grid-checker-walls": (_checker_walls, ["grid", "--attacker", "a", "--target", "b"]),
    "check-5000-digits": (_long_number, ["check"]),
}


def run(name: str, folder: Path, timeout: float) -> tuple[float, float, float, int]:
    make, args = CASES[name]
    path = folder / f"{name}.yaml"
    path.write_text(make(), encoding="utf-8")
    cmd = [sys.executable, "-m", "fwwrules", args[0], str(path), *args[1:]]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() - start > timeout:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            return float("inf"), float("inf"), usage.ru_maxrss / 1024, -9
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return elapsed, cpu, usage.ru_maxrss / 1024, proc.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help=", ".join(CASES))
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    parser.add_argument("--timeout", type=float, default=120.0, help="stop a case after this")
    args = parser.parse_args()
    names = args.cases or list(CASES)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        print(f"{'case':28} {'wall s':>7} {'cpu s':>7} {'peak MB':>8} {'exit':>4}")
        for name in names:
            t, cpu, mb, code = run(name, folder, args.timeout)
            print(f"{name:28} {t:7.2f} {cpu:7.2f} {mb:8.0f} {code:4d}", flush=True)


if __name__ == "__main__":
    main()
