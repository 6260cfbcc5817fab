"""Drawing layer: boards and rulings with matplotlib (``pip install 'fwwrules[draw]'``).

Only this package imports matplotlib; ``import fwwrules`` does not. Boards are drawn in
millimetres with y growing upwards (as in the scenario file); see :mod:`fwwrules.draw.board`.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from .board import (
    DEFAULT_STYLE,
    OKABE_ITO,
    BoardArtists,
    BoardStyle,
    TerrainLook,
    board_limits,
    draw_board,
    moving_artists,
    set_animated,
    update_board,
)
from .render import render_file
from .text import DRAW_WORDS, draw_word


def _draw_grid() -> Any:
    """``fwwrules.draw.grid.draw_grid`` once that module exists, else None.

    Only a *missing* module is tolerated; an error inside an existing one is raised.
    """
    if importlib.util.find_spec(f"{__name__}.grid") is None:
        return None
    return getattr(importlib.import_module(f"{__name__}.grid"), "draw_grid", None)


draw_grid: Any = _draw_grid()

__all__ = [
    "DEFAULT_STYLE",
    "DRAW_WORDS",
    "OKABE_ITO",
    "BoardArtists",
    "BoardStyle",
    "TerrainLook",
    "board_limits",
    "draw_board",
    "draw_grid",
    "draw_word",
    "moving_artists",
    "render_file",
    "set_animated",
    "update_board",
]
