"""The process that draws the attack panel's side view while a model is dragged (see
:class:`~.explain.SideView`).

A side view takes a few tenths of a second to lay out and draw, far too long for every motion
of a drag and too long to draw in the kernel between two motions (the board's frames would
wait), so while a model is dragged the panel asks this process (``python -m
fwwrules_widgets.side_worker IN OUT``; the messages and the loop every helper process shares:
:mod:`.worker_process`). It draws the newest position once the pointer rests for
:data:`QUIET_S`, or after :data:`LONGEST_S` of a drag without a pause.

A question is ``(query, lang, ratio, style)``: the attack ``query`` (attacker, target,
weapon, ruleset, band), drawn in ``lang`` at ``ratio`` device pixels per CSS pixel with the
:class:`~fwwrules.draw.side.SideStyle` ``style``. The answer: the PNG (``None`` when the
attack cannot be answered there or has no Line of Cover), its one-line text and its width in
CSS pixels, from :func:`side_picture`, the one definition the kernel draws with too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fwwrules.data import Scenario
    from fwwrules.draw.side import SideArtists, SideStyle
    from fwwrules.rulings import AttackRuling

    from .margin_worker import Query

QUIET_S = 0.15
"""The side view is drawn once no motion came for this long (seconds): the pointer rests."""
LONGEST_S = 0.5
"""A drag without a pause still gets a side view this long after the last one was asked for
(a few a second at most: each takes a few tenths of a second to draw)."""


def side_picture(
    scenario: Scenario, ruling: AttackRuling, lang: str, ratio: float, style: SideStyle
) -> tuple[bytes, str, int, SideArtists]:
    """The side view of ``ruling`` on ``scenario`` as PNG drawn at ``ratio`` (at least 1)
    device pixels per CSS pixel, its one-line text (the title), its width in CSS pixels and
    its artists. ``ruling`` must have a Line of Cover."""
    from fwwrules.draw.figure import figure_bytes
    from fwwrules.draw.side import side_view_figure

    dpi = style.dpi * max(1.0, ratio)
    figure = side_view_figure(scenario, ruling, lang=lang, dpi=dpi, style=style)
    art: SideArtists = figure._fwwrules_side  # type: ignore[attr-defined]
    width = round(figure.get_figwidth() * style.dpi)
    return figure_bytes(figure, "png"), art.title_text, width, art


def _answer(
    board: Any,
    positions: Mapping[str, tuple[float, float, float]],
    query: Query,
    lang: str,
    ratio: float,
    style: SideStyle,
) -> tuple[Any, tuple[bytes | None, str, int]]:
    """The board with its models at ``positions`` and the side view of the attack there."""
    import fwwrules
    from fwwrules.errors import FwwError

    from .worker_process import moved

    board = moved(board, positions)
    attacker, target, weapon, rules, band = query
    try:
        r = fwwrules.ruling(board, attacker, target, weapon=weapon, rules=rules, band=band)
    except FwwError:  # not answerable there: no side view
        return board, (None, "", 0)
    if r.sight is None:
        return board, (None, "", 0)
    png, alt, width, _ = side_picture(board, r, lang, ratio, style)
    return board, (png, alt, width)


if __name__ == "__main__":
    import sys

    from .worker_process import main

    sys.exit(main(sys.argv[1:], _answer, QUIET_S, LONGEST_S))
