"""What the panels' helper processes share: the "how close" line's (:mod:`.margin_worker`) and
the side view's (:mod:`.side_worker`). Each runs beside the kernel (``python -m
fwwrules_widgets.<module> IN OUT``: the file descriptors of two pipes, read with
:class:`multiprocessing.connection.Connection`) at the lowest CPU priority, and dies with it.

Messages (pickled tuples), from the kernel:

* ``("board", key, text)``: the board of the line ``key`` as scenario JSON
  (:func:`fwwrules.dump_text`); its models move with each question;
* ``("ask", key, generation, positions, *question)``: the models at ``positions`` (id ->
  ``(x, y, elevation)``, scenario units), then what the process answers about them; only the
  newest question of each line is answered (the older ones describe positions the panel no
  longer shows);
* ``("forget", key)``: the line is gone.

To the kernel: ``("said", key, generation, *answer)`` (no answer fields: nothing could be
said there, a fault written on the process's stderr).

A question is answered once no newer one came for ``quiet`` seconds (while a model is dragged
the questions come every frame and the process waits: it answers when the model rests), or,
with ``longest``, once the oldest question not answered waited that long (a model dragged
without a pause still gets an answer now and then).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

WORKER_NICENESS = 19
"""How much lower a helper process's CPU priority is than the kernel's (Unix: ``os.nice``; 19
is the lowest): where both want a core, the kernel's drag step has it and the helper waits."""

Answer = Callable[..., "tuple[Any, tuple[Any, ...]]"]
"""``answer(board, positions, *question)``: the board with its models at ``positions`` (kept:
the next question moves one model from there) and the answer's fields."""


def moved(board: Any, positions: Mapping[str, tuple[float, float, float]]) -> Any:
    """``board`` (a :class:`~fwwrules.data.Scenario`) with its models at ``positions``; a model
    already there is left as it is (its derived geometry carried over)."""
    from fwwrules.placement import move_model

    for mid, (x, y, elevation) in positions.items():
        m = board.model(mid)
        if (m.at[0], m.at[1], m.elevation) != (x, y, elevation):
            board = move_model(board, mid, x, y, elevation)
    return board


def _questions(conn: Any, boards: dict[str, Any], quiet: float, longest: float | None) -> Any:
    """Read messages until the newest question of any line is ``quiet`` seconds old (or the
    oldest waited ``longest``); the questions to answer, by line."""
    from fwwrules.files import loads

    asked: dict[str, tuple[Any, ...]] = {}
    first = 0.0
    message = conn.recv()
    while True:
        kind, key = message[0], message[1]
        if kind == "board":
            boards[key] = loads(message[2], source="<panel>", json=True)
        elif kind == "forget":
            boards.pop(key, None)
            asked.pop(key, None)
        elif kind == "ask":
            first = first if asked else time.monotonic()
            asked[key] = message  # a newer question of this line replaces an older
        wait = quiet if asked else 0.0
        if asked and longest is not None:
            wait = min(wait, first + longest - time.monotonic())
            if wait <= 0:
                return asked  # asked long enough ago: answered although more may follow
        if not conn.poll(wait):
            return asked  # quiet for ``quiet`` since the newest question
        message = conn.recv()


def serve(conn: Any, out: Any, answer: Answer, quiet: float, longest: float | None = None) -> None:
    """Answer the questions read from ``conn`` on ``out`` until the kernel closes its end
    (the kernel ended: so does this process)."""
    boards: dict[str, Any] = {}
    while True:
        try:
            asked = _questions(conn, boards, quiet, longest)
        except (EOFError, OSError, KeyboardInterrupt):
            return
        for key, (_, _, gen, positions, *question) in asked.items():
            if key in boards:
                boards[key], said = _answered(answer, boards[key], positions, question)
                try:
                    out.send(("said", key, gen, *said))
                except OSError:  # the kernel ended (a broken pipe): so does this process
                    return


def _answered(
    answer: Answer, board: Any, positions: Any, question: list[Any]
) -> tuple[Any, tuple[Any, ...]]:
    """``answer``'s reply; a fault of the rules or the drawing is said on stderr and answered
    with no fields (the line shows nothing for it): the process keeps answering."""
    try:
        return answer(board, positions, *question)
    except Exception:
        import traceback

        traceback.print_exc()
        return board, ()


def main(argv: list[str], answer: Answer, quiet: float, longest: float | None = None) -> int:
    """``IN OUT``: the pipes' file descriptors (inherited from the kernel)."""
    import os
    from multiprocessing.connection import Connection

    if hasattr(os, "nice"):  # the kernel's drag steps first: this process gets the idle CPU
        os.nice(WORKER_NICENESS)
    _die_with_parent()
    inbox = Connection(int(argv[0]), writable=False)
    outbox = Connection(int(argv[1]), readable=False)
    try:
        serve(inbox, outbox, answer, quiet, longest)
    except KeyboardInterrupt:  # the kernel's interrupt reached its process group: quietly
        return 0
    return 0


def _die_with_parent() -> None:
    """On Linux, ask to be killed when the kernel ends (even while stopped: see
    :meth:`fwwrules_widgets.worker.Worker.hold`); elsewhere the closed pipe ends it."""
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
