"""Drawing layer: boards and rulings with matplotlib (``pip install 'fwwrules[draw]'``).

Only this package imports matplotlib; ``import fwwrules`` does not. Boards are drawn in
millimetres with y growing upwards (as in the scenario file); see :mod:`fwwrules.draw.board`.
"""

from __future__ import annotations

from .board import (
    DEFAULT_STYLE,
    OKABE_ITO,
    BoardArtists,
    BoardStyle,
    TerrainLook,
    draw_board,
    moving_artists,
    set_animated,
    update_board,
)
from .grid import GridArtists, GridStyle, draw_grid, update_grid
from .render import render_file
from .text import DRAW_WORDS, draw_word

__all__ = [
    "DEFAULT_STYLE",
    "DRAW_WORDS",
    "OKABE_ITO",
    "BoardArtists",
    "BoardStyle",
    "GridArtists",
    "GridStyle",
    "TerrainLook",
    "draw_board",
    "draw_grid",
    "draw_word",
    "moving_artists",
    "render_file",
    "set_animated",
    "update_board",
    "update_grid",
]
