"""Threat map on the crowded board: the whole map, the ratio to per-cell rulings, a drag.

On ``bench/_board.py`` (4' x 4', 24 models, 40 pieces) for a 32 mm model of side ``north``:
the 12 ``south`` models shoot; positions every 10.2 mm over the table (119 x 119 =
14,161 positions, 169,932 cells). A finer step (7.5 mm, ``--step 7.5``: 26,244 positions, and
a quarter inch) is over the threat map's time budget on this board once the estimate counts
the targets in the pieces' partial shadow (the costly line-of-sight proofs), so the map
refuses it and names a step that fits; the default is a step that fits, the same for every
tree compared (the start commit took 7.5 mm: give ``--step`` to compare at one step).

Prints

* the whole map's wall-clock and CPU time, and how many cells ``fwwrules.ruling`` itself
  decided (the exact path, near boundaries);
* the cost of the reference (the target model added to the scenario, one ruling per weapon
  per shooter) measured on a random sample of positions in the same run, extrapolated to
  every cell, and the ratio of that to the map's time;
* the time for the updated map after one shooter moves 1" (``ThreatMap.update``: its own
  layer, and the others' cells where it blocks, covers or engages), and whether it equals
  the map recomputed from scratch.

The issue's targets: whole map <= 2 s, updated map after a drag <= 300 ms on this 2-core
machine. Also checks the sampled cells against the rulings (prints the disagreements: 0).

Usage: ``python bench/threat_map.py [--step MM] [--sample N]``
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _board import BOARD_MM, crowded_board

import fwwrules
from fwwrules.threat import choose, threat_map


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--step", type=float, default=10.2, help="grid step in mm (default 10.2)")
    ap.add_argument("--sample", type=int, default=60, help="positions for the reference")
    args = ap.parse_args()
    scn = crowded_board()
    area = (0.0, 0.0, BOARD_MM, BOARD_MM)

    t0, c0 = time.perf_counter(), time.process_time()
    tm = threat_map(scn, "north", base=32.0, step=args.step, area=area)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    n_pos = len(tm.positions)
    n_cells = n_pos * len(tm.shooters)
    stats = tm.stats
    print(
        f"positions: {tm.shape[1] if tm.shape else n_pos} x {tm.shape[0] if tm.shape else 1}"
        f" = {n_pos}; shooters: {len(tm.shooters)}; cells: {n_cells}"
    )
    print(
        f"whole map: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU "
        f"(placeable cells {stats['cells']}, decided by fwwrules.ruling itself: {stats['exact']})"
    )

    # the reference on a sample, same run
    rng = random.Random(11)
    idx = rng.sample(np.flatnonzero(tm.placeable).tolist(), args.sample)
    bad = 0
    t0 = time.perf_counter()
    for i in idx:
        x, y = (float(v) for v in tm.positions[i])
        z = float(tm.elevation[i])
        target = fwwrules.Model(tm.target_id, tm.faction, tm.base, (x, y), elevation=z)
        s2 = dataclasses.replace(scn, models=(*scn.models, target))  # as a caller would
        for k, sid in enumerate(tm.shooters):
            weapons = s2.weapons_of(s2.model(sid))
            rs = [fwwrules.ruling(s2, sid, tm.target_id, weapon=w.id) for w in weapons]
            best = choose(rs)
            r = rs[best]
            cell = tm.cell(i, k)
            assert cell is not None
            want = (r.allowed, r.skill.modifier if r.allowed else None, weapons[best].id)
            if (cell.allowed, cell.modifier, cell.weapon) != want:
                bad += 1
    per_cell = (time.perf_counter() - t0) / (len(idx) * len(tm.shooters))
    full = per_cell * n_cells
    print(
        f"reference: {per_cell * 1e6:.0f} us per cell on {len(idx)} positions x "
        f"{len(tm.shooters)} shooters; all {n_cells} cells would take {full:.0f} s; "
        f"ratio reference / map = {full / wall:.0f}x; disagreements: {bad}"
    )

    # drag one shooter an inch east (by hand: stopped at a piece's edge, as a drag stops) and
    # update the map (ThreatMap.update), then recompute it
    from fwwrules.placement import place_by_hand

    mover = tm.shooters[0]
    m = scn.model(mover)
    moved = dataclasses.replace(
        m, at=place_by_hand(scn, mover, (m.at[0] + 25.4, m.at[1]), snapped=False)
    )
    scn2 = dataclasses.replace(scn, models=tuple(moved if x.id == mover else x for x in scn.models))
    t0, c0 = time.perf_counter(), time.process_time()
    updated = tm.update(scn2, mover)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    fresh = threat_map(scn2, "north", base=32.0, step=args.step, area=area)
    same = all(
        np.array_equal(getattr(updated, k)[updated.placeable], getattr(fresh, k)[fresh.placeable])
        for k in ("allowed", "modifier", "covered", "weapon")
    ) and np.array_equal(updated.placeable, fresh.placeable)
    print(
        f"after dragging {mover} by {moved.at[0] - m.at[0]:.1f} mm: {wall * 1000:.0f} ms wall, "
        f"{cpu * 1000:.0f} ms CPU "
        f"(ThreatMap.update; equal to the map recomputed: {same})"
    )


if __name__ == "__main__":
    main()
