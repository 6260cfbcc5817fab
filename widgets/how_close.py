"""The attack and melee panels' "how close" line: how far a model must move before the ruling
changes (:attr:`fwwrules.rulings.AttackRuling.margins`), kept up to date while a model is
dragged.

A drag step must stay as fast as it is (a ruling and a blit, about 10 ms on a crowded board)
while the margins cost tens to hundreds of milliseconds, and a thread in the kernel would share
the interpreter lock with the drag. So the margins are measured in a separate process
(:mod:`.margin_worker`, one per kernel, started with the first line), and the line is:

* **never stale**: every question (a drag step, a drop, a control change) says "measuring"
  with the picture it belongs to (:meth:`~.view.BoardView.say`: the words travel with the
  frame), and an answer is shown only if it answers the newest question, with the frame the
  browser shows (a frame of words alone when the picture did not change);
* **coalesced**: the process answers only the newest question of each line, once no newer
  one came for :data:`~.margin_worker.QUIET_S`: while the model moves the line says
  "measuring", and it answers as soon as the model rests (or moves slowly);
* **off the drag step**: a question costs the kernel a tuple of positions handed to a sender
  thread; the process runs at the lowest CPU priority and is stopped while a drag step is
  drawn (:meth:`_Worker.hold`), so it computes only between frames; the answer is shown by
  a reader thread under the view's lock, after the frame.

Where no process can be started, the line is left empty (the knife-edge sentence of the
ruling's own text is unaffected).
"""

from __future__ import annotations

import contextlib
import html
import itertools
import os
import signal
import subprocess
import sys
import threading
import weakref
from multiprocessing.connection import Connection
from typing import Any

import ipywidgets as widgets

from fwwrules.data import Scenario

from .margin_worker import Query
from .text import ui

KNIFE_EDGE_STYLE = "color:#a40000"
"""The sentence of a knife-edge call stands out."""


class _Worker:
    """The kernel's side of the measuring process: questions go through a sender thread (a
    step never waits on the pipe; of the questions not yet sent only each line's newest goes),
    answers are read on a thread and handed to their line (by key).

    :meth:`hold` stops the process (``SIGSTOP``, where there is one) while the kernel draws a
    drag step and lets it go on (``SIGCONT``) once the step is over (the view's lock is free):
    it computes in the time between two frames and never takes a core from a step. It is
    stopped for milliseconds at a time; where the system has it, it dies with the kernel
    (:func:`~.margin_worker.main`), stopped or not."""

    def __init__(self) -> None:
        child_in, kernel_out = os.pipe()  # (read end, write end)
        kernel_in, child_out = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", f"{__package__}.margin_worker", str(child_in), str(child_out)],
            pass_fds=(child_in, child_out),
            stdin=subprocess.DEVNULL,
        )
        os.close(child_in)
        os.close(child_out)
        self.conn = Connection(kernel_out, readable=False)
        self.answers = Connection(kernel_in, writable=False)
        self.lines: weakref.WeakValueDictionary[str, HowClose] = weakref.WeakValueDictionary()
        self._queue: list[tuple[Any, ...]] = []
        self._asks: dict[str, tuple[Any, ...]] = {}
        self._wake = threading.Condition()
        self._release: Any = None
        """The lock whose release lets the stopped process go on (a view's), or None."""
        self._released = threading.Condition()
        for target in (self._read, self._send, self._resume):
            threading.Thread(target=target, daemon=True, name="fwwrules-how-close").start()

    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, message: tuple[Any, ...]) -> None:
        """Queue ``message`` (never blocks); a question replaces its line's unsent one."""
        with self._wake:
            if message[0] == "ask":
                self._asks[message[1]] = message
            else:
                self._queue.append(message)
            self._wake.notify()

    def hold(self, lock: Any) -> None:
        """Stop the process until ``lock`` (held by the caller: a drag step) is released."""
        if not HAS_STOP or not self.alive():
            return
        with self._released:
            os.kill(self.process.pid, signal.SIGSTOP)
            self._release = lock
            self._released.notify()

    def _resume(self) -> None:
        while True:
            with self._released:
                self._released.wait_for(lambda: self._release is not None)
                lock, self._release = self._release, None
            with lock:  # the step is over (the frame sent): go on
                if self.alive():
                    os.kill(self.process.pid, signal.SIGCONT)

    def _send(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: bool(self._queue or self._asks))
                out = [*self._queue, *self._asks.values()]
                self._queue, self._asks = [], {}
            try:
                for message in out:
                    self.conn.send(message)
            except OSError:  # the process ended
                return

    def _read(self) -> None:
        while True:
            try:
                _, key, gen, sentence, knife = self.answers.recv()
            except (EOFError, OSError):
                return
            line = self.lines.get(key)
            if line is not None:
                line.answer(gen, sentence, knife)


HAS_STOP = hasattr(signal, "SIGSTOP") and hasattr(signal, "SIGCONT")


_WORKER: list[_Worker] = []
_KEYS = itertools.count(1)
_STARTS = itertools.count()
MAX_STARTS = 3
"""How often a kernel starts the measuring process at most (again after it ended)."""


def _worker() -> _Worker | None:
    """The kernel's measuring process (started on first use, again if it died), or None when
    none can be started."""
    if _WORKER and _WORKER[0].alive():
        return _WORKER[0]
    if next(_STARTS) >= MAX_STARTS:
        return None  # it keeps ending: the lines stay empty rather than start it on each step
    try:
        worker = _Worker()
    except (OSError, RuntimeError, ValueError):
        return None
    old = _WORKER[0].lines if _WORKER else {}
    _WORKER[:] = [worker]
    for line in list(old.values()):
        line.adopt(worker)
    return worker


class HowClose:
    """One panel's "how close" line (``html``, an :class:`ipywidgets.HTML`) about the board
    shown by ``view`` (a :class:`~.view.BoardView`). :meth:`ask` after each change of the
    picture (with the frame's words); :meth:`clear` when there is no attack ruling to measure.

    ``generation`` counts the questions; ``shown`` is the generation whose answer the line
    shows (:meth:`wait` for it in tests and benchmarks). ``enabled`` False: nothing is asked
    and the line stays empty (the benchmark's before).
    """

    def __init__(self, view: Any, scenario: Scenario) -> None:
        self.html = widgets.HTML()
        self.html.add_class("fwwrules-how-close")
        self.view = view
        self.key = f"line-{next(_KEYS)}"
        self.enabled = True
        self.generation = 0
        self.shown = 0
        self.knife_edge = False
        self.sentence: str | None = None
        self._asked: tuple[Scenario, Query, str] | None = None
        self._board_text = _board_text(scenario)
        self._lang = "en"
        self._done = threading.Condition()
        self._worker: _Worker | None = None
        weakref.finalize(self, _forget, self.key)

    def adopt(self, worker: _Worker) -> None:
        """Use ``worker`` (a new process: the board is sent, the last question asked again)."""
        self._worker = worker
        worker.lines[self.key] = self
        worker.send(("board", self.key, self._board_text))
        asked, self._asked = self._asked, None
        if asked is not None:
            self.ask(*asked)

    def _live_worker(self) -> _Worker | None:
        if self._worker is not None and self._worker.alive():
            return self._worker
        worker = _worker() if self._board_text is not None else None
        if worker is not None and self._worker is not worker:
            self._asked, asked = None, self._asked
            self.adopt(worker)
            self._asked = asked
        return worker

    def ask(self, scenario: Scenario, query: Query, lang: str) -> None:
        """The line is about ``query`` on ``scenario`` (the board the next frame shows), in
        ``lang``: "measuring" with that frame, then the answer. Asking again what is asked
        changes nothing (a drop where the last drag step left the model)."""
        if not self.enabled:
            return
        with self.view.lock:  # the question and its "measuring" at once (see answer)
            self._ask(scenario, query, lang)

    def _ask(self, scenario: Scenario, query: Query, lang: str) -> None:
        if (
            self._asked is not None
            and self._asked[0] is scenario
            and self._asked[1:] == (query, lang)
        ):
            return
        self._asked = (scenario, query, lang)
        self._lang = lang
        with self._done:
            self.generation += 1
            gen = self.generation
            self.sentence, self.knife_edge = None, False
        worker = self._live_worker()
        if worker is None:  # nothing can measure it: no line
            self.view.say(self.html, "value", "")
            return
        worker.hold(self.view.lock)  # a drag step: the process waits for its frame
        self.view.say(self.html, "value", self._html(None, False, lang))
        where = {m.id: (m.at[0], m.at[1], m.elevation) for m in scenario.models}
        worker.send(("ask", self.key, gen, where, query, lang))

    def clear(self) -> None:
        """No attack ruling to measure: the line is empty (with the next frame)."""
        self._asked = None
        with self.view.lock, self._done:
            self.generation += 1
            self.shown = self.generation
            self.sentence, self.knife_edge = None, False
            self._done.notify_all()
        self.view.say(self.html, "value", "")

    def answer(self, gen: int, sentence: str | None, knife_edge: bool) -> None:
        """The answer to question ``gen`` (the reader thread): shown when it is the newest
        question, with a frame of words alone (the picture is the one it was asked for)."""
        with self.view.lock:
            with self._done:
                if gen != self.generation:
                    return  # a newer position is shown: this answer describes an old one
                self.shown, self.sentence, self.knife_edge = gen, sentence, knife_edge
                self._done.notify_all()
            said = "" if sentence is None else self._html(sentence, knife_edge, self._lang)
            self.view.say(self.html, "value", said)  # None: not answerable there
            self.view.publish_texts()

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait until the line shows the answer to the newest question; False on timeout."""
        with self._done:
            return self._done.wait_for(lambda: self.shown == self.generation, timeout)

    def _html(self, sentence: str | None, knife_edge: bool, lang: str) -> str:
        """The line: its label, then the sentence (None: "measuring")."""
        label = html.escape(ui("how-close", lang))
        if sentence is None:
            words = f"<i>{html.escape(ui('measuring', lang))}</i>"
        else:
            style = f' style="{KNIFE_EDGE_STYLE}"' if knife_edge else ""
            words = f"<span{style}>{html.escape(sentence)}</span>"
        return f"<p><b>{label}</b> {words}</p>"


def _board_text(scenario: Scenario) -> str | None:
    """The board as scenario JSON for the measuring process (None: it cannot be written)."""
    from fwwrules.errors import FwwError
    from fwwrules.saving import dump_text

    try:
        return dump_text(scenario, json_=True)
    except (FwwError, ValueError):
        return None


def _forget(key: str) -> None:
    if _WORKER and _WORKER[0].alive():
        with contextlib.suppress(OSError, ValueError):  # the process ended meanwhile
            _WORKER[0].send(("forget", key))
