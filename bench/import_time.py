"""How much ``import fwwrules`` costs over ``import shapely`` alone (issue 11: at most +40 ms).

Each run is a fresh interpreter timing one import from inside (interpreter start-up left out);
the two imports alternate, ``--runs`` times each, and the medians are printed with their
difference. Bytecode is cached as an installed package has it: the runs write and read it in a
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
t = time.perf_counter()
import {module}
dt = time.perf_counter() - t
heavy = [m for m in ("pydantic", "yaml", "matplotlib", "ipywidgets", "scipy") if m in sys.modules]
print(dt * 1000, ",".join(heavy))
"""


def _once(module: str, env: dict[str, str]) -> tuple[float, str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(module=module)],
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
    times: dict[str, list[float]] = {"shapely": [], "fwwrules": []}
    heavy = ""
    cache = tempfile.TemporaryDirectory(prefix="fwwrules-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache.name
    for module in ("shapely", "fwwrules"):
        _once(module, env)  # warm-up: writes the bytecode
    for _ in range(runs):
        for module in ("shapely", "fwwrules"):
            ms, loaded = _once(module, env)
            times[module].append(ms)
            if module == "fwwrules":
                heavy = loaded
    med = {m: statistics.median(v) for m, v in times.items()}
    for m, v in times.items():
        spread = f"min {min(v):.1f}, max {max(v):.1f}, n={runs}"
        print(f"import {m:<9} median {med[m]:6.1f} ms  ({spread})")
    extra = med["fwwrules"] - med["shapely"]
    print(f"fwwrules over shapely: {extra:+.1f} ms (goal: at most +40 ms)")
    print(f"heavy modules loaded by import fwwrules: {heavy or 'none'}")
    cache.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
