"""Render a board to a file (``fwwrules render``): PNG or SVG, byte-stable across runs.

PNG files carry no software version (``metadata={'Software': None}``); SVG files carry no date
and use a fixed ``svg.hashsalt``, so rendering the same scenario twice gives the same bytes.
SVG text is written as text (``svg.fonttype: none``), not as outlines.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import QueryError
from .board import DEFAULT_STYLE, BoardStyle, draw_board
from .figure import figure_of, new_axes, save_figure

if TYPE_CHECKING:
    from ..data import Scenario
    from ..grid import GridScenario


def render_file(
    scenario: Scenario | GridScenario,
    path: str | os.PathLike[str],
    *,
    attacker: str | None = None,
    target: str | None = None,
    weapon: str | None = None,
    lang: str = "en",
    style: BoardStyle = DEFAULT_STYLE,
    attack: str = "ranged",
) -> Path:
    """Draw the board (with the ruling's LoS and LoC when ``attacker`` and ``target`` are given)
    into ``path``; the suffix picks the format (``.png`` or ``.svg``). Returns the path.

    A Pathfinder grid scenario is drawn with :func:`fwwrules.draw.grid.draw_grid`, with the
    lines of :func:`fwwrules.grid_cover` for ``attack`` (``ranged``, ``melee``, ``reach``).

    Raises :class:`~fwwrules.errors.QueryError` for another suffix or for only one of
    ``attacker``/``target``.
    """
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise QueryError(f"cannot render to {out.name!r}: the name must end in .png or .svg")
    if (attacker is None) != (target is None):
        raise QueryError("give both attacker and target, or neither")
    from ..grid import GridScenario

    if isinstance(scenario, GridScenario):
        # A Pathfinder grid: the grid drawing, with the lines of grid_cover for a pair.
        from ..grid import grid_cover
        from .grid import DEFAULT_GRID_STYLE, draw_grid

        grid_ruling = None
        if attacker is not None and target is not None:
            grid_ruling = grid_cover(scenario, attacker, target, attack=attack)
        g = DEFAULT_GRID_STYLE
        ax = new_axes(g.figsize, g.dpi, g.margins)
        draw_grid(scenario, ax, ruling=grid_ruling, lang=lang)
    else:
        ruling = None
        if attacker is not None and target is not None:
            from ..attack import ruling as make_ruling

            ruling = make_ruling(scenario, attacker, target, weapon=weapon)
        ax = new_axes(style.figsize, style.dpi, style.margins)
        draw_board(scenario, ax, style=style, ruling=ruling, lang=lang)
    save_figure(figure_of(ax), out)
    return out
