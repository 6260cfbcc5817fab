"""The process that measures how close the panels' calls are (see :mod:`.how_close`).

It runs beside the kernel (``python -m fwwrules_widgets.margin_worker IN OUT``: the file
descriptors of two pipes, read with :class:`multiprocessing.connection.Connection`) and imports only
:mod:`fwwrules`: a ruling's margins are full exact rulings at many moved positions (tens to
hundreds of milliseconds on a crowded board), which would slow a drag step many times over if
the kernel computed them, and a thread would share the kernel's interpreter lock with it.

Messages (pickled tuples), from the kernel:

* ``("board", key, text)``: the board of the line ``key`` as scenario JSON
  (:func:`fwwrules.dump_text`); its models move with each question;
* ``("ask", key, generation, positions, query, lang)``: the margins of the attack ``query``
  (attacker, target, weapon, ruleset, band) with the models at ``positions`` (id ->
  ``(x, y, elevation)``, scenario units); only the newest question of each line is answered
  (the older ones describe positions the panel no longer shows);
* ``("forget", key)``: the line is gone.

To the kernel: ``("said", key, generation, sentence, knife_edge)``, the sentence of
:meth:`fwwrules.closeness.Margins.sentence` in ``lang`` (``None`` when the query cannot be
answered there).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

WORKER_NICENESS = 19
"""How much lower this process's CPU priority is than the kernel's (Unix: ``os.nice``; 19 is
the lowest): where both want a core, the kernel's drag step has it and the margins wait."""

QUIET_S = 0.08
"""A question is answered once no newer one came for this long (seconds): while a model is
dragged the questions come every frame and the process waits; it measures when the model
rests (or moves slower than this), and never about a position already left behind."""

Query = tuple[str, str, "str | None", str, "str | None"]
"""attacker, target, weapon (None: the default), ruleset, band (None: by the range)."""


def serve(conn: Any, out: Any) -> None:
    """Answer the questions read from ``conn`` on ``out`` until the kernel closes its end
    (the kernel ended: so does this process)."""
    from fwwrules.files import loads

    boards: dict[str, Any] = {}
    while True:
        try:
            asked: dict[str, tuple[Any, ...]] = {}
            message = conn.recv()
            while True:
                kind, key = message[0], message[1]
                if kind == "board":
                    boards[key] = loads(message[2], source="<panel>", json=True)
                elif kind == "forget":
                    boards.pop(key, None)
                    asked.pop(key, None)
                elif kind == "ask":
                    asked[key] = message  # a newer question of this line replaces an older
                if not conn.poll(QUIET_S if asked else 0):
                    break  # quiet for QUIET_S since the newest question
                message = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        for key, (_, _, gen, positions, query, lang) in asked.items():
            if key in boards:
                boards[key], said = _answer(boards[key], positions, query, lang)
                try:
                    out.send(("said", key, gen, *said))
                except OSError:  # the kernel ended (a broken pipe): so does this process
                    return


def _answer(
    board: Any, positions: Mapping[str, tuple[float, float, float]], query: Query, lang: str
) -> tuple[Any, tuple[str | None, bool]]:
    """The board with its models at ``positions`` (kept: the next question moves one model
    from there, its derived geometry carried over) and the sentence of the margins."""
    import fwwrules
    from fwwrules.errors import FwwError
    from fwwrules.placement import move_model
    from fwwrules.rulings import names_in

    try:
        for mid, (x, y, elevation) in positions.items():
            m = board.model(mid)
            if (m.at[0], m.at[1], m.elevation) != (x, y, elevation):
                board = move_model(board, mid, x, y, elevation)
        attacker, target, weapon, rules, band = query
        r = fwwrules.ruling(board, attacker, target, weapon=weapon, rules=rules, band=band)
        m = r.margins
        if m is None:
            return board, (None, False)
        return board, (m.sentence(lang, names_in(r.labels, lang)), m.knife_edge)
    except FwwError:  # not answerable there (the line is empty)
        return board, (None, False)
    except Exception:  # a fault of the rules: said on stderr, the process keeps answering
        import traceback

        traceback.print_exc()
        return board, (None, False)


def main(argv: list[str]) -> int:
    """``IN OUT``: the pipes' file descriptors (inherited from the kernel)."""
    import os
    from multiprocessing.connection import Connection

    if hasattr(os, "nice"):  # the kernel's drag steps first: this process gets the idle CPU
        os.nice(WORKER_NICENESS)
    _die_with_parent()
    inbox = Connection(int(argv[0]), writable=False)
    outbox = Connection(int(argv[1]), readable=False)
    serve(inbox, outbox)
    return 0


def _die_with_parent() -> None:
    """On Linux, ask to be killed when the kernel ends (even while stopped: see
    :meth:`fwwrules_widgets.how_close._Worker.hold`); elsewhere the closed pipe ends it."""
    import ctypes
    import ctypes.util
    import os
    import signal
    import sys

    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL))
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the kernel ended before the request took effect
        os._exit(0)


PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal sent to this process when its parent ends."""


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
