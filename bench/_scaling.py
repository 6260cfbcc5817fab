"""Boards for scaling tables: ``models`` models among ``pieces`` rectangles on a 6' x 6'
table, with or without terrain heights and model elevations (shared by the benchmarks in
``bench/``; ``bench/render_scaling.py`` renders them).

``scaling_board(models, pieces, heights=..., elevations=..., names=...)`` returns the file's
data (a dict to dump as JSON): rectangles of four kinds in a lattice, each with a name (so
that the picture has one label per piece) and, with ``heights``, a height (1, 2 or 3 in);
models of three sides in a lattice of their own between the pieces, each with a name, at
elevation 0, 20 or 40 mm with ``elevations``. Deterministic; no two pieces or bases overlap
and no base stands on a piece, so every such board is an accepted file.
"""

from __future__ import annotations

import math
from typing import Any

TABLE_MM = 1828.8
"""Six feet."""
KINDS = ("blocking", "cover", "area", "scenery")
SIDES = ("north", "south", "east")


def scaling_board(
    models: int,
    pieces: int,
    *,
    heights: bool = False,
    elevations: bool = False,
    names: bool = True,
) -> dict[str, Any]:
    """The file data of a board of ``models`` models and ``pieces`` rectangles."""
    side = max(1, math.ceil(math.sqrt(max(pieces, models, 1))))
    cell = (TABLE_MM - 200.0) / side
    terrain = []
    for i in range(pieces):  # a piece in the lower left 40 % of its cell (a rect's at: centre)
        x, y = _corner(i, side, cell)
        at = [round(x + cell * 0.2, 1), round(y + cell * 0.2, 1)]
        t: dict[str, Any] = {
            "id": f"t{i}",
            "kind": KINDS[i % len(KINDS)],
            "rect": {"at": at, "size": [round(cell * 0.4, 1)] * 2},
        }
        if names:
            t["name"] = f"Ruin {i}"
        if heights:
            t["height"] = round(25.4 * (1 + i % 3), 1)
        terrain.append(t)
    out = []
    for j in range(models):  # a model in the upper right of a cell, spread over the cells
        x, y = _corner(j * side * side // max(models, 1), side, cell)
        m: dict[str, Any] = {
            "id": f"m{j}",
            "name": f"Model {j}",
            "faction": SIDES[j % len(SIDES)],
            "base": 25.0,
            "at": [round(x + cell * 0.72, 1), round(y + cell * 0.72, 1)],
            "skills": {"rifle": 5, "melee": 5},
            "weapons": ["rifle"],
        }
        if elevations:
            m["elevation"] = (0, 20, 40)[j % 3]
        out.append(m)
    return {
        "format": "fwwrules/scenario@1",
        "title": f"{models} models, {pieces} pieces",
        "units": "mm",
        "board": {"size": [TABLE_MM, TABLE_MM]},
        "models": out,
        "terrain": terrain,
        "weapons": [{"id": "rifle", "type": "rifle", "short": "red", "long": "green"}],
    }


def _corner(i: int, side: int, cell: float) -> tuple[float, float]:
    """The lower left corner of cell ``i`` of a lattice of ``side`` x ``side`` cells."""
    return (100.0 + (i % side) * cell, 100.0 + (i // side) * cell)
