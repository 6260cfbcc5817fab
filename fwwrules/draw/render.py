"""Render a board to a file (``fwwrules render``): PNG or SVG, byte-stable across runs, at the
size asked (:mod:`fwwrules.draw.export`).

:func:`render_figure` draws the picture (a figure laid out at the resolution it will be saved
at, so every gap holds at that size); :func:`render_file` writes it. PNG files carry no
software version; SVG files carry no date and use a fixed ``svg.hashsalt``, so rendering the
same scenario twice gives the same bytes. SVG text is written as text.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import QueryError
from .board import DEFAULT_STYLE, BoardStyle, draw_board
from .export import export_dpi, picture_path, save_picture
from .figure import figure_of, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from ..data import Scenario
    from ..grid import GridScenario
    from ..shot import Target


def render_figure(
    scenario: Scenario | GridScenario,
    *,
    attacker: str | None = None,
    target: Target | None = None,
    weapon: str | None = None,
    rules: str | None = None,
    band: str | None = None,
    title: str | None = None,
    lang: str = "en",
    style: BoardStyle = DEFAULT_STYLE,
    attack: str = "ranged",
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
    frame: str = "table",
) -> Figure:
    """The picture ``fwwrules render`` writes, as a figure drawn at the resolution asked
    (``scale``, ``dpi`` or ``width``: :func:`fwwrules.draw.export.export_dpi`).

    With ``attacker`` and ``target`` the ruling's lines are drawn and its headline is the second
    line of the title; a knife-edge call also shows its pinch point and the move that changes it
    (:mod:`fwwrules.draw.margin`, as in the panels); ``rules`` and ``band`` go to the ruling
    (the picture's caption names the ruleset and band it shows). ``title`` replaces the file's
    title (in every language). A Pathfinder grid scenario is drawn with
    :func:`fwwrules.draw.grid.draw_grid`, with the lines of :func:`fwwrules.grid_cover` for
    ``attack`` (``ranged``, ``melee``, ``reach``); ``rules``, ``band`` and ``weapon`` do not
    apply to it. ``frame`` shows the whole table (``"table"``) or the models with a margin
    (``"models"``, :func:`fwwrules.draw.board.frame_view`); a grid is always shown whole.

    Raises :class:`~fwwrules.errors.QueryError` for only one of ``attacker``/``target``, for
    ``band`` without a pair, and for a size out of range.
    """
    from matplotlib.figure import Figure as _Figure

    if (attacker is None) != (target is None):
        raise QueryError("give both attacker and target, or neither")
    if band is not None and attacker is None:
        raise QueryError("a band applies to an attack: give attacker and target too")
    probe = _Figure(figsize=style.figsize, dpi=style.dpi)
    out_dpi = export_dpi(probe, scale=scale, dpi=dpi, width=width)
    from ..grid import GridScenario

    if isinstance(scenario, GridScenario):
        return _render_grid(
            scenario, attacker, target, attack, rules, band, weapon, title, lang, out_dpi
        )
    if title is not None:
        scenario = dataclasses.replace(scenario, title=title)
    ruling = None
    if attacker is not None and target is not None:
        from ..attack import ruling as make_ruling

        ruling = make_ruling(scenario, attacker, target, weapon=weapon, rules=rules, band=band)
    elif rules is not None:
        from ..rulesets import ruleset_name

        scenario = dataclasses.replace(scenario, rules=ruleset_name(scenario.rules, rules))
    from .board import frame_view

    view = frame_view(scenario, frame, style)
    ax = new_axes(style.figsize, out_dpi, style.margins)
    # a knife-edge call's pinch point and move, as the panels show them (the knife-edge
    # question only: the margins up to the knife edge, a few ms)
    margin = ruling is not None
    draw_board(scenario, ax, style=style, ruling=ruling, lang=lang, view=view, margin=margin)
    return figure_of(ax)


def _render_grid(
    scenario: GridScenario,
    attacker: str | None,
    target: Target | None,
    attack: str,
    rules: str | None,
    band: str | None,
    weapon: str | None,
    title: str | None,
    lang: str,
    out_dpi: float,
) -> Figure:
    """A Pathfinder grid: the grid drawing, with the lines of grid_cover for a pair."""
    from ..grid import grid_cover
    from .grid import DEFAULT_GRID_STYLE, draw_grid

    for name, value in (("rules", rules), ("band", band), ("weapon", weapon)):
        if value is not None:
            raise QueryError(f"{name} does not apply to a Pathfinder grid file")
    if title is not None:
        scenario = dataclasses.replace(scenario, title=title)
    grid_ruling = None
    if attacker is not None and target is not None:
        if not isinstance(target, str):
            raise QueryError("a Pathfinder grid's target is a creature id, not a point")
        grid_ruling = grid_cover(scenario, attacker, target, attack=attack)
    g = DEFAULT_GRID_STYLE
    ax = new_axes(g.figsize, out_dpi, g.margins)
    draw_grid(scenario, ax, ruling=grid_ruling, lang=lang)
    return figure_of(ax)


def render_file(
    scenario: Scenario | GridScenario,
    path: str | os.PathLike[str],
    *,
    attacker: str | None = None,
    target: Target | None = None,
    weapon: str | None = None,
    rules: str | None = None,
    band: str | None = None,
    title: str | None = None,
    lang: str = "en",
    style: BoardStyle = DEFAULT_STYLE,
    attack: str = "ranged",
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
    frame: str = "table",
) -> Path:
    """Draw the picture of :func:`render_figure` into ``path``; the suffix picks the format
    (``.png`` or ``.svg``). Returns the path.

    Raises :class:`~fwwrules.errors.QueryError` for another suffix (before drawing) and as
    :func:`render_figure` does.
    """
    out, _fmt = picture_path(path)
    fig = render_figure(
        scenario,
        attacker=attacker,
        target=target,
        weapon=weapon,
        rules=rules,
        band=band,
        title=title,
        lang=lang,
        style=style,
        attack=attack,
        scale=scale,
        dpi=dpi,
        width=width,
        frame=frame,
    )
    return save_picture(fig, out, dpi=fig.dpi)


def render_files(
    scenario: Scenario | GridScenario,
    path: str | os.PathLike[str],
    langs: Sequence[str],
    **options: Any,
) -> list[Path]:
    """The picture of :func:`render_file` in each of ``langs`` (``fwwrules render --lang
    en,de``), one file per language named by :func:`~fwwrules.draw.export.language_path`
    (``board.png`` becomes ``board.en.png`` and ``board.de.png``). Every language's picture
    puts the board's axes in the same pixels. Every language is checked before anything is
    drawn; ``options`` are :func:`render_file`'s."""
    from ..catalogue import check_lang
    from .export import language_path

    picture_path(path)
    chosen = list(dict.fromkeys(langs))
    for lang in chosen:
        check_lang(lang)
    return [
        render_file(scenario, language_path(path, lang), lang=lang, **options) for lang in chosen
    ]
