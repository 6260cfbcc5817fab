"""How much ``import fwwrules`` costs over ``import shapely`` alone (issue 11: at most +40 ms).

Each run is a fresh interpreter timing one import from inside (interpreter start-up left out);
the imports alternate, ``--runs`` times each; the two medians are printed with their
difference; then two more figures: ``import fwwrules`` after ``import shapely`` (its own cost,
whether or not it loads shapely itself: the ruling's modules load on first use) and
``import fwwrules`` with loading cover-example-1 and its first ruling (what a notebook's first
answer costs). Bytecode is cached as an installed package has it: the runs write and read it in a
temporary ``PYTHONPYCACHEPREFIX`` (never in the repository), after one warm-up run of each, even
when ``PYTHONDONTWRITEBYTECODE`` is set (without cached bytecode every run compiles the
sources, which costs more than the imports themselves). It also reports which heavy modules
the import left loaded (pydantic, yaml, matplotlib, ipywidgets should not be).

    python bench/import_time.py [--runs 9]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

_PROBE = """
import sys, time
{before}
t = time.perf_counter()
{statement}
dt = time.perf_counter() - t
heavy = [m for m in ("pydantic", "yaml", "matplotlib", "ipywidgets", "scipy") if m in sys.modules]
print(dt * 1000, ",".join(heavy))
"""


_FIRST_RULING = (
    "import fwwrules; s = fwwrules.load(fwwrules.example_path('cover-example-1')); "
    "fwwrules.ruling(s, 'knight', 'brute')"
)
_STATEMENTS = {
    "shapely": ("", "import shapely"),
    "fwwrules": ("", "import fwwrules"),
    "fwwrules after shapely": ("import shapely", "import fwwrules"),
    "fwwrules + first ruling": ("", _FIRST_RULING),
}
"""What each run times (label: statement run before the clock, statement timed)."""


def _once(label: str, env: dict[str, str]) -> tuple[float, str]:
    before, statement = _STATEMENTS[label]
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(before=before, statement=statement)],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    ).stdout.split()
    return float(out[0]), (out[1] if len(out) > 1 else "")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=9, help="runs of each import (at least 7)")
    args = p.parse_args()
    runs = max(7, args.runs)
    times: dict[str, list[float]] = {label: [] for label in _STATEMENTS}
    heavy = ""
    cache = tempfile.TemporaryDirectory(prefix="fwwrules-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache.name
    for module in times:
        _once(module, env)  # warm-up: writes the bytecode
    for _ in range(runs):
        for module in times:
            ms, loaded = _once(module, env)
            times[module].append(ms)
            if module == "fwwrules":
                heavy = loaded
    med = {m: statistics.median(v) for m, v in times.items()}
    for m, v in times.items():
        spread = f"min {min(v):.1f}, max {max(v):.1f}, n={runs}"
        print(f"import {m:<23} median {med[m]:6.1f} ms  ({spread})")
    extra = med["fwwrules"] - med["shapely"]
    print(f"fwwrules over shapely: {extra:+.1f} ms (goal: at most +40 ms)")
    print(f"heavy modules loaded by import fwwrules: {heavy or 'none'}")
    cache.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
