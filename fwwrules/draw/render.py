"""Render a board to a file (``fwwrules render``): PNG or SVG, byte-stable across runs.

PNG files carry no software version (``metadata={'Software': None}``); SVG files carry no date
and use a fixed ``svg.hashsalt``, so rendering the same scenario twice gives the same bytes.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import QueryError
from .board import DEFAULT_STYLE, BoardStyle, draw_board

if TYPE_CHECKING:
    from ..scenario import Scenario

SVG_HASHSALT = "fwwrules"
"""Fixed salt for the ids matplotlib writes into SVG files (stable output)."""


def render_file(
    scenario: Scenario,
    path: str | os.PathLike[str],
    *,
    attacker: str | None = None,
    target: str | None = None,
    weapon: str | None = None,
    lang: str = "en",
    style: BoardStyle = DEFAULT_STYLE,
) -> Path:
    """Draw the board (with the ruling's LoS and LoC when ``attacker`` and ``target`` are given)
    into ``path``; the suffix picks the format (``.png`` or ``.svg``). Returns the path.

    Raises :class:`~fwwrules.errors.QueryError` for another suffix or for only one of
    ``attacker``/``target``.
    """
    from matplotlib import rc_context
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise QueryError(f"cannot render to {out.name!r}: the name must end in .png or .svg")
    if (attacker is None) != (target is None):
        raise QueryError("give both attacker and target, or neither")
    ruling = None
    if attacker is not None and target is not None:
        from ..attack import ruling as make_ruling

        ruling = make_ruling(scenario, attacker, target, weapon=weapon)
    fig = Figure(figsize=style.figsize, dpi=style.dpi)
    FigureCanvasAgg(fig)
    fig.subplots_adjust(left=0.08, right=0.66, bottom=0.09, top=0.92)
    ax = fig.add_subplot()
    draw_board(scenario, ax, style=style, ruling=ruling, lang=lang)
    if suffix == ".png":
        fig.savefig(out, format="png", metadata={"Software": None})
    else:
        with rc_context({"svg.hashsalt": SVG_HASHSALT}):
            fig.savefig(out, format="svg", metadata={"Date": None})
    return out
