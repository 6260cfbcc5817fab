"""The process that measures how close the panels' calls are (see :mod:`.how_close`).

It runs beside the kernel (``python -m fwwrules_widgets.margin_worker IN OUT``; the messages
and the loop every helper process shares: :mod:`.worker_process`) and imports only
:mod:`fwwrules`: a ruling's margins are full exact rulings at many moved positions (tens to
hundreds of milliseconds on a crowded board), which would slow a drag step many times over if
the kernel computed them, and a thread would share the kernel's interpreter lock with it.

A question is ``(query, lang)``: the margins of the attack ``query`` (attacker, target,
weapon, ruleset, band) in ``lang``. The answer: the sentence of
:meth:`fwwrules.closeness.Margins.sentence` (``None`` when the query cannot be answered
there) and whether the call is a knife edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

QUIET_S = 0.08
"""A question is answered once no newer one came for this long (seconds): while a model is
dragged the questions come every frame and the process waits; it measures when the model
rests (or moves slower than this), and never about a position already left behind."""

Query = tuple[str, str, "str | None", str, "str | None"]
"""attacker, target, weapon (None: the default), ruleset, band (None: by the range)."""


def _answer(
    board: Any, positions: Mapping[str, tuple[float, float, float]], query: Query, lang: str
) -> tuple[Any, tuple[str | None, bool]]:
    """The board with its models at ``positions`` (kept: the next question moves one model
    from there, its derived geometry carried over) and the sentence of the margins."""
    import fwwrules
    from fwwrules.errors import FwwError
    from fwwrules.rulings import names_in

    from .worker_process import moved

    board = moved(board, positions)
    try:
        attacker, target, weapon, rules, band = query
        r = fwwrules.ruling(board, attacker, target, weapon=weapon, rules=rules, band=band)
        m = r.margins
        if m is None:
            return board, (None, False)
        return board, (m.sentence(lang, names_in(r.labels, lang)), m.knife_edge)
    except FwwError:  # not answerable there (the line is empty)
        return board, (None, False)


if __name__ == "__main__":
    import sys

    from .worker_process import main

    sys.exit(main(sys.argv[1:], _answer, QUIET_S))
