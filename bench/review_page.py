"""How long ``fwwrules review`` takes: drawn in full (``--no-cache``), then with an empty
picture cache (first run), then again with the cache the first run filled.

Each run is a fresh ``fwwrules review -o`` in a temporary folder with its own
``FWWRULES_CACHE_DIR`` (never the user's cache); wall-clock and CPU (user + system) seconds of
the child are printed, with the number of pictures and the page's size. On a machine shared
with other work the wall-clock time varies; the CPU time much less.

    python bench/review_page.py [--lang de]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "fwwrules", "review", *args], env=env, check=True,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=("en", "de"), default="en")
    lang = parser.parse_args().lang
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, FWWRULES_CACHE_DIR=str(Path(tmp) / "cache"))
        out = Path(tmp) / "review.html"
        base = ["-o", str(out), "--lang", lang]
        for label, extra in (
            ("drawn in full (--no-cache)", ["--no-cache"]),
            ("first run (empty cache)", []),
            ("second run (cache filled)", []),
        ):
            wall, cpu = run(base + extra, env)
            print(f"{label:28s} {wall:6.2f} s wall  {cpu:6.2f} s CPU")
        page = out.read_text(encoding="utf-8")
        print(f"pictures: {page.count('<img ')}, page: {len(page) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
