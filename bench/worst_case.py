"""The worst files the limits allow, per command: time and peak memory of each, in one table.

Each case writes one file (scenario files as compact JSON, so that as much as possible fits
under ``MAX_FILE_BYTES``; grid files as YAML) and runs one ``python -m fwwrules ...`` command on
it in a fresh subprocess; the figures are the wall-clock time of that process and its peak
resident memory (``ru_maxrss`` of the helper's only child), interpreter start and imports
included, and its CPU time (user + system): on a shared, busy machine the CPU time is the
steadier figure. The modules are compiled once before the first case and kept (a bytecode
folder beside the files, whatever ``PYTHONDONTWRITEBYTECODE`` says), as an installed package
has them: compiling the source again in every command (about 0.3 s) is no user's cost. The
budget of issue 14 is 2 s and 500 MB for every case; a case over it (in CPU time), or one
exiting other than 0 or 2, is marked ``OVER``. Each command runs under an
address-space cap (:data:`CAP_BYTES`) and a time cap, so a blow-up is reported, not suffered.

Cases (``--list``): many pieces at the vertex limit with heights everywhere (Significant
Edges), many circles with heights, LoS among hundreds of circular pieces, Huge models in the
way, many unknown weapon ids (the error path), withdrawal from a crowd, slides among many
bases (a crowd the slide must go round, with the German option that makes the engine look for
the blockers of the strict reading), rendering the fullest board, every ruling between all
pairs of models (a Python loop over ``fwwrules.ruling``: no command does it, a notebook
might; the budget holds per ruling, so the case is judged by its worst ruling, and the loop's
whole time, ~0.4 ms a ruling times 39,800 pairs, is printed as it is), Pathfinder grid
files (the most walls and creatures, Colossal creatures far apart, open, in a crowd,
sealed behind a maze, a checkerboard of wall squares), over-limit files
refused early, long numbers; two models a million inches (or mm) apart rendered, a point and
a slide at the coordinate limit and beyond it, the board editor with a circle a million
inches wide or a table that size, the review page's picture cache holding a FIFO or a link
to /dev/zero; threat maps at the corner limit (eight 256-corner stars touching, in a row,
apart; one star; ten, forty and ninety-nine shooters; a step of 1 mm), among 200 models, on a
real game's 4' table (12 models, one on a 3" tower; and its ``--json -o`` with a wrong suffix,
refused before the map), on the crowded board of ``bench/threat_map.py`` (at the default step
and at 7.5 mm, refused since the estimate counts the costly line-of-sight proofs), and with a
step, base or area out of range.

``--scaling`` prints the scaling table of issue 31 instead: for boards of 10, 50 and 200
models among 10, 100 and 500 named rectangles (``bench/_scaling.py``, every one an accepted
file), flat or with heights and elevations, the CPU time, wall time (what a user waits for,
interpreter start included; the machine's load stretches it) and peak memory of one ruling
(the first two models), one render and one threat map (``--side north``), each in a fresh
process capped at :data:`SCALING_CPU_CAP` s of CPU (``>cap`` when killed by it). ``--python``
runs the commands with another environment's interpreter (``/work/base/.venv/bin/python``:
the figures before a change, on the same files); given twice or more, each command runs with
every interpreter in turn (interleaved, one row per interpreter), so that the load of a
shared machine falls on before and after alike.

Usage: ``python bench/worst_case.py [--case NAME ...] [--keep DIR] [--repeat N] [--list]``;
``python bench/worst_case.py --scaling [--python PATH ...] [--models 10,50,200]
[--pieces 10,100,500] [--keep DIR]``
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fwwrules.constants import (
    MAX_FILE_BYTES,
    MAX_GRID_CELLS,
    MAX_GRID_EFFECT_LINES,
    MAX_GRID_WALL_EDGES,
    MAX_GRID_WALLS,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_TOTAL_VERTICES,
    MAX_WEAPONS,
)

BUDGET_S = 2.0
BUDGET_MB = 500.0
FORMAT = "fwwrules/scenario@1"
BOARD = 1800.0  # mm: a 6' x 6' table holds everything below


def _scenario(models: list[Any], terrain: list[Any], weapons: list[Any] | None = None) -> Any:
    return {
        "format": FORMAT,
        "units": "mm",
        "models": models,
        "terrain": terrain,
        "weapons": weapons
        if weapons is not None
        else [{"id": "rifle", "type": "rifle", "short": "red", "long": "green"}],
    }


def _model(i: int, x: float, y: float, base: float = 32.0, **extra: Any) -> dict[str, Any]:
    m: dict[str, Any] = {
        "id": f"m{i}",
        "faction": "north" if i % 2 == 0 else "south",
        "base": base,
        "at": [round(x, 2), round(y, 2)],
        "skills": {"rifle": 5, "melee": 5},
        "weapons": ["rifle"],
    }
    m.update(extra)
    return m


def _star(cx: float, cy: float, r_out: float, r_in: float, n: int) -> list[list[float]]:
    """A star of ``n`` corners (n even): alternate outer and inner radii, integer-ish."""
    pts = []
    for k in range(n):
        r = r_out if k % 2 == 0 else r_in
        a = 2 * math.pi * k / n
        pts.append([round(cx + r * math.cos(a), 1), round(cy + r * math.sin(a), 1)])
    return pts


def _fit(build: Callable[[int], Any], high: int) -> Any:
    """The largest ``build(n)`` (n <= high) whose compact JSON fits in MAX_FILE_BYTES."""
    lo, hi = 1, high
    best = build(lo)
    while lo <= hi:
        mid = (lo + hi) // 2
        data = build(mid)
        if len(_dump(data)) <= MAX_FILE_BYTES:
            best, lo = data, mid + 1
        else:
            hi = mid - 1
    return best


def _dump(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _grid_positions(n: int, spacing: float, x0: float = 60.0, y0: float = 60.0) -> list[Any]:
    per_row = max(1, int((BOARD - 2 * x0) // spacing) + 1)
    return [(x0 + (i % per_row) * spacing, y0 + (i // per_row) * spacing) for i in range(n)]


# --- the files ---------------------------------------------------------------------------------


def _ring_models(n: int = MAX_MODELS, radius: float = 1600.0, **extra: Any) -> list[Any]:
    """``n`` models on a ring around the table's centre (every fourth one Huge)."""
    out = []
    for i in range(n):
        a = 2 * math.pi * i / n
        x = BOARD / 2 + radius * math.cos(a)
        y = BOARD / 2 + radius * math.sin(a)
        out.append(_model(i, x, y, base=60.0 if i % 4 == 0 else 32.0, **extra))
    return out


def stars_heights() -> Any:
    """Stars of MAX_POLYGON_VERTICES corners, as many as MAX_TOTAL_VERTICES allows, each
    overlapping its neighbours (one merged blob), heights everywhere; MAX_MODELS models, two
    of them Elevated inside the cluster's corners."""
    n = MAX_TOTAL_VERTICES // MAX_POLYGON_VERTICES
    side = math.ceil(math.sqrt(n))
    terrain = []
    for i in range(n):
        x, y = 700.0 + (i % side) * 70.0, 700.0 + (i // side) * 70.0
        terrain.append(
            {
                "id": f"t{i}",
                "kind": "blocking",
                "polygon": _star(x, y, 50.0, 30.0, MAX_POLYGON_VERTICES),
                "height": 25.4 * (1 + i % 5),
            }
        )
    models = _ring_models(MAX_MODELS - 2)
    models.append(_model(900, 640.0, 640.0, elevation=127.0))
    models.append(_model(901, 700.0 + side * 70.0, 700.0 + side * 70.0))
    return _scenario(models, terrain)


def circles_heights() -> Any:
    """Overlapping circles with heights, as many as MAX_TOTAL_VERTICES allows (a circle
    counts 128 corners), MAX_MODELS models."""
    n = MAX_TOTAL_VERTICES // 128
    side = math.ceil(math.sqrt(n))
    terrain = [
        {
            "id": f"t{i}",
            "kind": "blocking" if i % 3 else "dense-area",
            "circle": {
                "at": [700.0 + (i % side) * 70.0, 700.0 + (i // side) * 70.0],
                "diameter": 110.0,
            },
            "height": 25.4 * (1 + i % 5),
        }
        for i in range(n)
    ]
    models = _ring_models(MAX_MODELS - 2)
    models.append(_model(900, 630.0, 630.0, elevation=127.0))
    models.append(_model(901, 700.0 + side * 70.0, 700.0 + side * 70.0))
    return _scenario(models, terrain)


def los_circles() -> Any:
    """Separate blocking circles (as many as MAX_TOTAL_VERTICES allows) in a staggered
    lattice with gaps, MAX_MODELS models around: long lines of sight through the gaps."""
    n = MAX_TOTAL_VERTICES // 128
    side = math.ceil(math.sqrt(n))
    terrain = []
    for i in range(n):
        row = i // side
        x = 500.0 + (i % side) * 120.0 + (60.0 if row % 2 else 0.0)
        y = 500.0 + row * 120.0
        terrain.append(
            {"id": f"t{i}", "kind": "blocking", "circle": {"at": [x, y], "diameter": 60.0}}
        )
    return _scenario(_ring_models(), terrain)


def los_boxes() -> Any:
    """MAX_TERRAIN small blocking boxes in a staggered lattice with narrow gaps (corners are
    the candidate features of the exact LoS search), MAX_MODELS models around."""
    n = min(MAX_TERRAIN, MAX_TOTAL_VERTICES // 4)
    side = math.ceil(math.sqrt(n))
    terrain = []
    for i in range(n):
        row = i // side
        x = 300.0 + (i % side) * 52.0 + (26.0 if row % 2 else 0.0)
        y = 300.0 + row * 52.0
        terrain.append(
            {
                "id": f"t{i}",
                "kind": "blocking" if i % 2 else "dense-area",
                "rect": {"at": [x, y], "size": [40.0, 40.0], "angle": (i * 7) % 90},
            }
        )
    return _scenario(_ring_models(), terrain)


def huge_crowd() -> Any:
    """MAX_MODELS models, most of them Huge, between attacker and target."""
    models = [
        _model(i, x, y, base=60.0 if i % 10 else 32.0)
        for i, (x, y) in enumerate(_grid_positions(MAX_MODELS, 75.0, 40.0, 40.0))
    ]
    return _scenario(models, [])


def unknown_weapons() -> Any:
    """One model listing as many unknown weapon ids as fit, MAX_WEAPONS weapons declared."""
    weapons = [
        {"id": f"w{i:03d}", "type": "rifle", "short": "red", "long": "green"}
        for i in range(MAX_WEAPONS)
    ]

    def build(n: int) -> Any:
        m = _model(0, 100.0, 100.0)
        m["weapons"] = [f"x{i}" for i in range(n)]
        return _scenario([m, _model(1, 300.0, 100.0)], [], weapons)

    return _fit(build, 1_000_000)


def withdraw_crowd() -> Any:
    """A 60 mm model ringed by 32 mm enemies in contact, MAX_MODELS models in all, among
    MAX_TERRAIN pieces."""
    models = [_model(0, 900.0, 900.0, base=60.0)]
    ring = 8
    for k in range(ring):
        a = 2 * math.pi * k / ring
        models.append(_model(2 * k + 1, 900.0 + 46 * math.cos(a), 900.0 + 46 * math.sin(a)))
    i = len(models)
    for x, y in _grid_positions(MAX_MODELS, 40.0, 40.0, 40.0):
        if len(models) >= MAX_MODELS:
            break
        if math.hypot(x - 900.0, y - 900.0) < 120:
            continue
        models.append(_model(i * 2 + 1, x, y))
        i += 1
    return _scenario(models, [])


def slide_crowd() -> Any:
    """m0 is engaged with m1; the rest of MAX_MODELS opposing bases stand in a lattice round
    the pair (40 mm apart, so the slide's grown discs overlap into one cluster). With the
    German option (``slide_through_engaged_enemy``) the slide through m1 is legal, and the
    engine also finds what blocks the strict reading: a shortest path among the whole
    cluster."""
    models = [_model(0, 900.0, 900.0), _model(1, 932.0, 900.0)]
    side = 15
    for gy in range(-(side // 2), side // 2 + 1):
        for gx in range(-(side // 2), side // 2 + 1):
            x, y = 916.0 + gx * 40.0, 900.0 + gy * 40.0
            if any(math.hypot(x - m["at"][0], y - m["at"][1]) < 32.5 for m in models):
                continue
            if len(models) < MAX_MODELS:
                models.append(_model(2 * len(models) + 1, x, y))
    data = _scenario(models, [])
    data["options"] = {"slide_through_engaged_enemy": True}
    return data


def slide_ring() -> Any:
    """A 10 mm model engaged with a 250 mm one; two staggered rings of opposing 10 mm bases
    just off the big base, with gaps, all reaching the contact ring (the search can drop none
    of them), the rest of MAX_MODELS farther out; the slide goes half way round."""
    cx = cy = 900.0
    models = [_model(0, cx - 130.5, cy, base=10.0), _model(1, cx, cy, base=250.0)]
    n = int(0.8 * math.pi * 130.6 // 12.0)  # per half ring, 12 mm apart
    for half in (0.0, math.pi):  # gaps round the start (left) and the goal (right)
        for ring, r in enumerate((130.6, 139.5)):
            for j in range(n):
                a = half + 0.1 * math.pi + 0.8 * math.pi * (j + ring / 2) / n
                x, y = cx + r * math.cos(a), cy + r * math.sin(a)
                models.append(_model(len(models) * 2 + 1, x, y, base=10.0))
    k, rest = 0, MAX_MODELS - len(models)
    while len(models) < MAX_MODELS:
        a = 2 * math.pi * k / rest
        models.append(_model(len(models) * 2 + 1, cx + 700 * math.cos(a), cy + 700 * math.sin(a)))
        k += 1
    return _scenario(models, [])


def too_many_models() -> Any:
    """Far more models than MAX_MODELS (refused)."""
    return _fit(lambda n: _scenario([_model(i, 20.0 * i, 0.0) for i in range(n)], []), 1_000_000)


def long_number() -> Any:
    """A coordinate written with 5,000 digits (refused)."""
    return None  # written as text by the case


def deep_list() -> Any:
    return None


# --- Pathfinder grid files ------------------------------------------------------------------

SIDE = int(MAX_GRID_CELLS**0.5)
"""The side of the largest square map."""


def _grid_file(
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
    return _grid_file(_open_rows(), walls, creatures, "many walls and creatures")


def _colossal_open() -> str:
    return _grid_file(
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
    return _grid_file(_open_rows(), [], creatures, "Colossal creatures through a crowd")


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
    return _grid_file(_open_rows(), walls, creatures, "sealed Colossal behind a maze")


def _checker_walls() -> str:
    """Wall squares on every other square (the most corners a line can meet)."""
    rows = []
    for r in range(SIDE):
        rows.append("".join("#" if (c + r) % 2 and 6 < r < SIDE - 7 else "." for c in range(SIDE)))
    creatures = [
        "{id: a, at: [0, 0], size: 6}",
        f"{{id: b, at: [{SIDE - 6}, {SIDE - 6}], size: 6}}",
    ]
    return _grid_file(rows, [], creatures, "checkerboard of wall squares")


def _too_many_lines() -> str:
    """Two big creatures in a corridor of pillars (wall squares on every other column): the
    exact line-of-effect search would need more than MAX_GRID_EFFECT_LINES lines (refused)."""
    rows = ["".join("#" if 5 <= c <= 29 and c % 2 else "." for c in range(36))] * 6
    creatures = ["{id: a, at: [0, 1], size: 3}", "{id: b, at: [33, 1], size: 3}"]
    return _grid_file(rows, [], creatures, f"over {MAX_GRID_EFFECT_LINES} candidate lines")


# --- every ruling between all pairs (no command does it; a notebook loop might) ---------------

ALL_PAIRS = """
import itertools, sys, time
import fwwrules
from fwwrules.errors import FwwError
s = fwwrules.load(sys.argv[1])
n = answered = 0
worst = total = 0.0
for a, b in itertools.permutations([m.id for m in s.models], 2):
    n += 1
    t = time.process_time()
    try:
        fwwrules.ruling(s, a, b)
        answered += 1
    except FwwError:
        pass
    t = time.process_time() - t
    total, worst = total + t, max(worst, t)
print(f"{answered} of {n} pairs answered; CPU per ruling {total / n * 1e3:.2f} ms, "
      f"worst {worst * 1e3:.1f} ms")
"""
"""Every ``fwwrules.ruling`` between two models of the file, in one process."""


# --- positions as far apart as the format allows (issue 21) -----------------------------------


def far_apart(units: str) -> Any:
    """Two models ``MAX_COORDINATE`` apart (1,000,000 in or mm: inside the limit)."""
    base = 1.25 if units == "in" else 32.0
    models = [_model(0, 0.0, 0.0, base), _model(1, 1_000_000.0, 0.0, base)]
    return {**_scenario(models, []), "units": units}


def engaged_pair() -> Any:
    """Two models in base contact (a slide's start)."""
    return _scenario([_model(0, 100.0, 100.0), _model(1, 132.0, 100.0)], [])


# --- threat maps at the corner limit (issue 21: bounded work) ------------------------------


def threat_stars(
    layout: str, stars: int = MAX_TOTAL_VERTICES // MAX_POLYGON_VERTICES, shooters: int = 10
) -> Any:
    """``stars`` blocking stars of MAX_POLYGON_VERTICES corners (the corner limit for 8),
    touching in a cluster, in a row or scattered, and ``shooters`` models of side ``south``
    facing as many of side ``north`` across the table."""
    terrain = []
    for i in range(stars):
        if layout == "cluster":
            x, y, r_out, r_in = 700.0 + (i % 3) * 70.0, 700.0 + (i // 3) * 70.0, 50.0, 30.0
        elif layout == "row":
            x, y, r_out, r_in = 250.0 + i * 180.0, 900.0, 80.0, 40.0
        else:
            x, y, r_out, r_in = 300.0 + (i % 4) * 400.0, 500.0 + (i // 4) * 800.0, 120.0, 60.0
        poly = _star(x, y, r_out, r_in, MAX_POLYGON_VERTICES)
        terrain.append({"id": f"t{i}", "kind": "blocking", "polygon": poly})
    models = []
    per_row = 40
    for i in range(2 * shooters):
        k = i // 2
        x = 60.0 + (BOARD - 120.0) * (k % per_row) / (per_row - 1)
        row = 50.0 * (k // per_row)
        models.append(_model(i, x, 60.0 + row if i % 2 == 0 else 1740.0 - row))
    return _scenario(models, terrain)


_THREAT = ("threat", "{file}", "--side", "north")


TABLE_MODELS = (  # (x, y, base in, elevation in): a 4' table's two sides, one on a tower
    (6, 6, 1.5748, 0), (10, 4, 1.5748, 0), (14, 8, 1.2598, 0), (20, 12, 1.2598, 3),
    (30, 6, 1.2598, 0), (40, 10, 1.2598, 0), (8, 40, 1.5748, 0), (16, 42, 1.5748, 0),
    (24, 30, 1.5748, 0), (32, 36, 1.5748, 0), (38, 26, 1.5748, 0), (44, 42, 2.3622, 0),
)  # fmt: skip
TABLE_PIECES = (  # (kind, x0, y0, x1, y1, height in)
    ("blocking", 18, 10, 22, 14, 3), ("blocking", 10, 20, 18, 26, 0),
    ("cover", 26, 20, 34, 21, 0), ("cover", 36, 16, 39, 19, 0), ("area", 20, 32, 28, 38, 0),
)  # fmt: skip


def real_table() -> Any:
    """A real game's table: 4' x 4' in inches, six models of side ``north`` (one on a 3"
    tower) against six of ``south``, five pieces; at the default step (a quarter inch) the
    threat map of ``north`` has about 37,000 positions and six shooters."""
    models = [
        {
            "id": f"m{i}",
            "faction": "north" if i < 6 else "south",
            "base": base,
            "at": [x, y],
            "skills": {"rifle": 5, "melee": 5},
            "weapons": ["rifle"],
            **({"elevation": lift} if lift else {}),
        }
        for i, (x, y, base, lift) in enumerate(TABLE_MODELS)
    ]
    terrain = [
        {
            "id": f"t{i}",
            "kind": kind,
            "polygon": [[x0, y0], [x1, y0], [x1, y1], [x0, y1]],
            **({"height": h} if h else {}),
        }
        for i, (kind, x0, y0, x1, y1, h) in enumerate(TABLE_PIECES)
    ]
    return {**_scenario(models, terrain), "units": "in", "board": {"size": [48, 48]}}


def crowded() -> str:
    """The crowded board of ``bench/threat_map.py`` (``bench/_board.py``: 4' x 4', 24 models,
    40 pieces; 12 shooters against side ``north``) as a file: many targets in the partial
    shadow of the pieces, the costly line-of-sight proofs."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _board import crowded_board

    from fwwrules.saving import dump_text

    return dump_text(crowded_board())


EDITOR = """
import sys
from fwwrules_widgets import BoardEditor, EditRefused
kind = sys.argv[2]
size = (1_000_000, 1_000_000) if kind == "table" else (48, 48)
ed = BoardEditor(units="in", size=size, interactive=False)
ed.add_model((10, 10), faction="a")
try:
    if kind == "circle":
        ed.add_circle((24, 24), 1_000_000, kind="area")
    else:
        ed.add_model((500_000, 500_000), faction="b")
    print("drawn:", len(ed.png()), "bytes of PNG")
except EditRefused as exc:
    print("refused:", str(exc)[:80])
"""
"""The board editor headless: a circle a million inches wide on a 4' table, or a table a
million inches wide."""


CACHED = """
import os, sys, tempfile
from pathlib import Path
from fwwrules.draw import review
root = Path(tempfile.mkdtemp(dir=sys.argv[3]))
cache = review.PictureCache(root)
path = cache._path("item", "en")
path.parent.mkdir(parents=True)
if sys.argv[2] == "fifo":
    os.mkfifo(path)
else:
    path.symlink_to(sys.argv[2])
picture = cache.get("item", "en")
print("cached picture:", "none (a miss)" if picture is None else f"{len(picture)} bytes")
"""
"""The review page's picture cache holding a FIFO, or a link to /dev/zero, where a picture
belongs: the read ``fwwrules review`` makes of it (it hung on the FIFO; it read /dev/zero until
MemoryError)."""


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Any]
    args: tuple[str, ...]
    text: str | None = None  # raw file text instead of JSON data
    suffix: str = ".json"
    program: tuple[str, ...] = ("-m", "fwwrules")  # what the interpreter runs: a command
    per_call: bool = False  # many calls in one process: the budget holds for the worst one


_RENDER = ("render", "{file}", "-o", "{dir}/out.png")

_RULING = ("ruling", "{file}", "--attacker")
_GRID = ("grid", "{file}", "--attacker")
_Y = ".yaml"
_PAIRS = ("-c", ALL_PAIRS)
CASES = [
    Case("stars+heights check", stars_heights, ("check", "{file}")),
    Case("stars+heights ruling", stars_heights, (*_RULING, "m900", "--target", "m901")),
    Case("stars+heights ruling 2", stars_heights, (*_RULING, "m0", "--target", "m99")),
    Case("stars+heights render", stars_heights, _RENDER),
    Case("circles+heights check", circles_heights, ("check", "{file}")),
    Case("circles+heights ruling", circles_heights, (*_RULING, "m900", "--target", "m901")),
    Case("circles+heights ruling 2", circles_heights, (*_RULING, "m0", "--target", "m99")),
    Case("los among circles", los_circles, (*_RULING, "m0", "--target", "m100")),
    Case("los circles, diagonal", los_circles, (*_RULING, "m25", "--target", "m125")),
    Case("los circles, far point", los_circles, (*_RULING, "m0", "--target", "1000000,-1000000")),
    Case("los circles, terrain", los_circles, (*_RULING, "m0", "--target", "t7")),
    Case("los circles render", los_circles, (*_RENDER, "--attacker", "m0", "--target", "m100")),
    Case("los among boxes", los_boxes, (*_RULING, "m0", "--target", "m100")),
    Case("los boxes, diagonal", los_boxes, (*_RULING, "m25", "--target", "m125")),
    Case("los boxes, steep", los_boxes, (*_RULING, "m50", "--target", "m150")),
    Case("los boxes render", los_boxes, _RENDER),
    Case("huge crowd ruling", huge_crowd, (*_RULING, "m0", "--target", "m199")),
    Case("unknown weapons", unknown_weapons, ("check", "{file}")),
    Case("withdraw crowd", withdraw_crowd, ("withdraw", "{file}", "--model", "m0")),
    Case("slide crowd", slide_crowd, ("slide", "{file}", "--model", "m0", "--to", "964,900")),
    Case("slide ring", slide_ring, ("slide", "{file}", "--model", "m0", "--to", "1030.5,900")),
    Case("all pairs, huge crowd", huge_crowd, ("{file}",), program=_PAIRS, per_call=True),
    Case("all pairs, circles", los_circles, ("{file}",), program=_PAIRS, per_call=True),
    Case("grid: walls+creatures check", _many_walls_and_creatures, ("check", "{file}"), suffix=_Y),
    Case(
        "grid: walls+creatures far",
        _many_walls_and_creatures,
        (*_GRID, "c0", "--target", "c199"),
        suffix=_Y,
    ),
    Case("grid: Colossal, open", _colossal_open, (*_GRID, "a", "--target", "b"), suffix=_Y),
    Case(
        "grid: Colossal, reach",
        _colossal_open,
        (*_GRID, "a", "--target", "b", "--attack", "reach"),
        suffix=_Y,
    ),
    Case("grid: Colossal, crowd", _colossal_crowd, (*_GRID, "a", "--target", "b"), suffix=_Y),
    Case(
        "grid: Colossal, sealed", _colossal_sealed_maze, (*_GRID, "a", "--target", "b"), suffix=_Y
    ),
    Case("grid: checker walls", _checker_walls, (*_GRID, "a", "--target", "b"), suffix=_Y),
    Case(
        "grid: walls+creatures render",
        _many_walls_and_creatures,
        (*_RENDER, "--attacker", "c0", "--target", "c199"),
        suffix=_Y,
    ),
    Case("grid: too many lines", _too_many_lines, (*_GRID, "a", "--target", "b"), suffix=_Y),
    Case("render, 1e6 in apart", lambda: far_apart("in"), _RENDER),
    Case("render, 1e6 mm apart", lambda: far_apart("mm"), _RENDER),
    Case(
        "ruling, point at the limit",
        lambda: far_apart("in"),
        (*_RULING, "m0", "--target", "1000000,1000000", "--json"),
    ),
    Case(
        "ruling, point beyond it", lambda: far_apart("in"), (*_RULING, "m0", "--target", "1e307,0")
    ),
    Case(
        "slide to the far corner",
        engaged_pair,
        ("slide", "{file}", "--model", "m0", "--to", "1000000,1000000"),
    ),
    Case(
        "slide beyond the limit",
        engaged_pair,
        ("slide", "{file}", "--model", "m0", "--to", "1e307,1e307"),
    ),
    Case("threat: 8 stars touching", lambda: threat_stars("cluster"), _THREAT),
    Case("threat: 8 stars in a row", lambda: threat_stars("row"), _THREAT),
    Case("threat: 8 stars apart", lambda: threat_stars("scatter"), _THREAT),
    Case("threat: 1 star", lambda: threat_stars("scatter", stars=1), _THREAT),
    Case("threat: 8 stars, step 1", lambda: threat_stars("cluster"), (*_THREAT, "--step", "1")),
    Case("threat: 8 stars, 40 shooters", lambda: threat_stars("row", shooters=40), _THREAT),
    Case("threat: 1 star, 99 shooters", lambda: threat_stars("row", 1, shooters=99), _THREAT),
    Case("threat: 200 models", huge_crowd, _THREAT),
    Case("threat: 4' table, tower", real_table, _THREAT),
    Case("threat: crowded board", crowded, _THREAT, suffix=_Y),
    Case("threat: crowded board, step 7.5", crowded, (*_THREAT, "--step", "7.5"), suffix=_Y),
    Case("threat: 4' table, tower, -o", real_table, (*_THREAT, "--json", "-o", "{dir}/m.json")),
    Case("threat: --step 1e-320", engaged_pair, (*_THREAT, "--step", "1e-320")),
    Case("threat: --base 1e308", engaged_pair, (*_THREAT, "--base", "1e308")),
    Case("threat: --area 1e6 square", engaged_pair, (*_THREAT, "--area", "0,0,1e6,1e6")),
    Case("threat: --area 1e308", engaged_pair, (*_THREAT, "--area", "0,0,1e308,1e308")),
    Case("editor: 1e6 in circle", engaged_pair, ("{file}", "circle"), program=("-c", EDITOR)),
    Case("editor: 1e6 in table", engaged_pair, ("{file}", "table"), program=("-c", EDITOR)),
    Case("review cache: a FIFO", engaged_pair, ("{file}", "fifo", "{dir}"), program=("-c", CACHED)),
    Case(
        "review cache: a dev-zero link",
        engaged_pair,
        ("{file}", "/dev/zero", "{dir}"),
        program=("-c", CACHED),
    ),
    Case("too many models", too_many_models, ("check", "{file}")),
    Case(
        "5000-digit number",
        long_number,
        ("check", "{file}"),
        text=f"format: {FORMAT}\nmodels:\n- id: a\n  faction: f\n  base: 32\n"
        f"  at: [{'9' * 5000}, 1]\n",
        suffix=".yaml",
    ),
    Case(
        "5000-digit number (JSON)",
        long_number,
        ("check", "{file}"),
        text='{"format": "' + FORMAT + '", "models": [{"id": "a", "faction": "f", "base": 32, '
        '"at": [' + "9" * 5000 + ", 1]}]}",
    ),
    Case(
        "256 KiB of numbers (YAML)",
        deep_list,
        ("check", "{file}"),
        text=f"format: {FORMAT}\nextra: [" + "1," * (MAX_FILE_BYTES // 2 - 40) + "1]\n",
        suffix=".yaml",
    ),
    Case(
        "200 models, every field bad",
        deep_list,
        ("check", "{file}"),
        text=f"format: {FORMAT}\nmodels:\n"
        + "".join(
            f"- {{id: 'M {i}', faction: 7, base: '40', at: [a, b], elevation: -1, "
            f"skills: {{rifle: x, melee: y}}, weapons: [1, 2, 3], keywords: [K], move: z}}\n"
            for i in range(MAX_MODELS)
        ),
        suffix=".yaml",
    ),
    Case(
        "grid: 5000-digit number",
        long_number,
        ("check", "{file}"),
        text="format: fwwrules/grid@1\nsquare: " + "9" * 5000 + "\nmap: |\n  ....\n"
        "creatures:\n  - {id: a, at: [0, 0]}\n  - {id: b, at: [3, 0]}\n",
        suffix=".yaml",
    ),
    Case(
        "nesting at the file limit",
        deep_list,
        ("check", "{file}"),
        text=f"format: {FORMAT}\ntitle: " + "[" * 100_000 + "]" * 100_000 + "\n",
        suffix=".yaml",
    ),
]


def run_case(case: Case, workdir: Path) -> tuple[float, float, float, int, str]:
    """(seconds, CPU seconds, peak MB, exit status, last line of output) of one case."""
    path = workdir / (case.name.replace(" ", "_").replace(",", "") + case.suffix)
    data = case.text if case.text is not None else case.build()
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(_dump(data))
    argv = [a.format(file=path, dir=workdir) for a in case.args]
    env = _scaling_env(workdir)  # compiled modules kept, as an installed package has them
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, *case.program, *argv],
            capture_output=True,
            env=env,
            preexec_fn=_cap,
            timeout=CAP_SECONDS,
            check=False,
        )
        rc, out, err = proc.returncode, proc.stdout, proc.stderr
    except subprocess.TimeoutExpired:
        rc, out, err = -9, b"", f"killed after {CAP_SECONDS} s".encode()
    seconds = time.perf_counter() - start
    peak_mb = _child_peak_mb()
    cpu = _child_cpu()
    text = (err or out).decode("utf-8", "replace").strip().splitlines()
    size = path.stat().st_size
    return seconds, cpu, peak_mb, rc, (text[-1] if text else "")[:100] + f" [{size} B]"


CAP_BYTES = 3 * 1024**3
"""Address-space cap for each command, so that a blow-up fails instead of swapping."""
CAP_SECONDS = 120


def _cap() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))


def _child_cpu() -> float:
    import resource

    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return float(ru.ru_utime + ru.ru_stime)


def _child_peak_mb() -> float:
    """Peak RSS of this helper's children: exactly one, the command (Linux: kilobytes)."""
    import resource

    return float(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024.0


SCALING_CPU_CAP = 60
"""CPU seconds a command of the scaling table may take before it is killed (``>cap``)."""
SCALING_COMMANDS = {
    "ruling": ("ruling", "{file}", "--attacker", "m0", "--target", "m1"),
    "render": ("render", "{file}", "-o", "{dir}/out.png"),
    "threat": ("threat", "{file}", "--side", "north"),
}


def _scaling_cap() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (CAP_BYTES, CAP_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (SCALING_CPU_CAP, SCALING_CPU_CAP + 1))


def command_cost(python: str, argv: list[str], cwd: Path) -> tuple[float, float, float, int]:
    """(CPU s, wall s, peak MB, exit status) of ``python -m fwwrules *argv`` in a fresh process
    (its own resource usage, from ``wait4``; the wall time from start to exit, what a user
    waits for, which a shared machine's load stretches). It runs in ``cwd`` (a folder without
    a ``fwwrules`` package), so that each interpreter imports its own tree's package, not the
    one under the current directory."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [python, "-m", "fwwrules", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_scaling_env(cwd),
        cwd=cwd,
        preexec_fn=_scaling_cap,
    )
    _pid, status, usage = os.wait4(proc.pid, 0)
    return (
        usage.ru_utime + usage.ru_stime,
        time.perf_counter() - start,
        usage.ru_maxrss / 1024.0,
        os.waitstatus_to_exitcode(status),
    )


def _scaling_env(folder: Path) -> dict[str, str]:
    """The commands' environment: the Agg backend, and compiled modules kept (in ``folder``,
    never in the trees) whatever ``PYTHONDONTWRITEBYTECODE`` says, so that a command's figure
    is what an installed package costs, not the compiling of its source on every run."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, "MPLBACKEND": "Agg", "PYTHONPYCACHEPREFIX": str(folder / "pycache")}


def _warm(pythons: list[str], folder: Path) -> None:
    """Run every command once with every interpreter on a small board (figures discarded):
    the compiled modules are then written and the font cache built."""
    from _scaling import scaling_board

    path = folder / "warm.json"
    path.write_text(json.dumps(scaling_board(3, 3)), encoding="utf-8")
    for python in pythons:
        for args in SCALING_COMMANDS.values():
            command_cost(python, [a.format(file=path, dir=folder) for a in args], folder)


def scaling(pythons: list[str], models: list[int], pieces: list[int], folder: Path) -> int:
    """Print the scaling table (one row per board and interpreter, the interpreters' runs of
    each command interleaved, so that a change of the machine's load hits all of them alike);
    the number of cells over the budget."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _scaling import scaling_board

    _warm(pythons, folder)
    for k, python in enumerate(pythons):
        print(f"[{k}] commands run by {python}")
    print(f"budget {BUDGET_S:g} s CPU and {BUDGET_MB:g} MB; load {_load()}")
    print(
        f"{'models':>6} {'pieces':>6} {'heights':>8} {'run':>3}  "
        + "  ".join(f"{name + ' s':>9} {'wall':>5} {'MB':>5}" for name in SCALING_COMMANDS)
    )
    over = 0
    for m in models:
        for n in pieces:
            for lift in (False, True):
                path = folder / f"scaling-{m}-{n}-{'lift' if lift else 'flat'}.json"
                data = scaling_board(m, n, heights=lift, elevations=lift)
                path.write_text(json.dumps(data), encoding="utf-8")
                cells: list[list[str]] = [[] for _ in pythons]
                for args in SCALING_COMMANDS.values():
                    argv = [a.format(file=path, dir=folder) for a in args]
                    for k, python in enumerate(pythons):
                        text, bad = _scaling_cell(python, argv, folder)
                        over += bad
                        cells[k].append(text)
                label = "yes" if lift else "no"
                for k in range(len(pythons)):
                    print(f"{m:>6} {n:>6} {label:>8} {k:>3}  " + "  ".join(cells[k]), flush=True)
    print(f"{over} cell(s) over the budget (*); heights: pieces 1-3 in high, models at 0/20/40 mm")
    print(f"r: refused (exit 2); load at the end {_load()}")
    return over


def _scaling_cell(python: str, argv: list[str], folder: Path) -> tuple[str, bool]:
    """One cell of the scaling table (CPU s, wall s and peak MB) and whether it is over the
    budget (in CPU time: the wall time depends on the machine's load as much)."""
    cpu, wall, peak, rc = command_cost(python, argv, folder)
    killed = rc < 0 or cpu >= SCALING_CPU_CAP
    bad = killed or rc not in (0, 2) or cpu > BUDGET_S or peak > BUDGET_MB
    text = ">cap" if killed else f"{cpu:.2f}" + {0: "", 2: "r"}.get(rc, f"!{rc}")
    return f"{text + ('*' if bad else ''):>9} {wall:5.2f} {peak:5.0f}", bad


def _load() -> str:
    """The machine's load averages (1, 5, 15 min)."""
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--scaling", action="store_true", help="print the scaling table")
    parser.add_argument(
        "--python",
        action="append",
        help="(--scaling) an interpreter to run the commands with (repeat it to compare trees: "
        "their runs interleave); default this one",
    )
    parser.add_argument("--models", default="10,50,200", help="(--scaling) model counts")
    parser.add_argument("--pieces", default="10,100,500", help="(--scaling) piece counts")
    parser.add_argument("--case", action="append", help="run only cases whose name contains it")
    parser.add_argument("--keep", help="write the files into this folder and keep them")
    parser.add_argument("--list", action="store_true", help="list the cases")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="run each case N times and print the run with the least CPU time (a shared "
        "machine's load only ever adds time)",
    )
    args = parser.parse_args()
    if args.scaling:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(args.keep or tmp)
            folder.mkdir(parents=True, exist_ok=True)
            numbers = (
                [int(v) for v in args.models.split(",")],
                [int(v) for v in args.pieces.split(",")],
            )
            scaling(args.python or [sys.executable], *numbers, folder)
        return 0
    cases = [c for c in CASES if not args.case or any(k in c.name for k in args.case)]
    if args.list:
        for c in cases:
            print(f"{c.name}: fwwrules {' '.join(c.args)}")
        return 0
    print(f"budget: {BUDGET_S:g} s and {BUDGET_MB:g} MB per command (interpreter start included)")
    print(f"{'case':30} {'exit':>4} {'wall s':>7} {'cpu s':>6} {'peak MB':>8}  last line of output")
    over = 0
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(args.keep) if args.keep else Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        _warm([sys.executable], workdir)  # compile the modules once, as installing does
        for case in cases:
            runs = [_isolated(case, workdir) for _ in range(max(1, args.repeat))]
            seconds, cpu, peak, rc, line = min(runs, key=lambda r: r[1])
            ok = min(seconds, _per_call(case, line, cpu)) <= BUDGET_S
            ok = ok and peak <= BUDGET_MB and rc in (0, 2)
            flag = "" if ok else " OVER"
            over += bool(flag)
            print(
                f"{case.name:30} {rc:>4} {seconds:7.2f} {cpu:6.2f} {peak:8.0f}  {line}{flag}",
                flush=True,
            )
    print(f"{over} case(s) over the budget or exiting 1")
    return 0


def _per_call(case: Case, line: str, cpu: float) -> float:
    """The CPU seconds the budget judges: the whole command's, or for a case of many calls
    in one process (a notebook's loop over every pair) its worst call's ("worst N ms")."""
    if not case.per_call:
        return cpu
    found = re.search(r"worst ([0-9.]+) ms", line)
    return float(found.group(1)) / 1000.0 if found else math.inf


def _isolated(case: Case, workdir: Path) -> tuple[float, float, float, int, str]:
    """Run the case from a fresh helper process, so that RUSAGE_CHILDREN is this case's alone."""
    helper = subprocess.run(
        [sys.executable, __file__, "--_one", case.name, str(workdir)],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        seconds, cpu, peak, rc, line = json.loads(helper.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError, ValueError):
        return 0.0, 0.0, 0.0, -1, ("helper failed: " + helper.stderr.strip()[-200:])
    return float(seconds), float(cpu), float(peak), int(rc), str(line)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--_one":
        (chosen,) = [c for c in CASES if c.name == sys.argv[2]]
        print(json.dumps(run_case(chosen, Path(sys.argv[3]))))
        sys.exit(0)
    sys.exit(main())
