"""The kernel's side of the panels' helper processes (:mod:`.worker_process`): the "how close"
line (:mod:`.how_close`, measured by :mod:`.margin_worker`) and the side view followed during
a drag (:class:`~.explain.SideView`, drawn by :mod:`.side_worker`).

A drag step must stay as fast as it is (a ruling and a blit) while what these lines show costs
tens to hundreds of milliseconds, and a thread in the kernel would share the interpreter lock
with the drag. So each kind of line has one process per kernel (started with its first line),
and a line is:

* **never stale**: an answer is shown only if it answers a question newer than the one whose
  answer is shown (the lines say what they show in the meantime, with the frame it belongs
  to: :meth:`~.view.BoardView.say`);
* **coalesced**: the process answers only the newest question of each line, once no newer one
  came for a while (:func:`~.worker_process.serve`);
* **off the drag step**: a question costs the kernel a tuple of positions handed to a sender
  thread; the process runs at the lowest CPU priority and is stopped while a drag step is
  drawn (:meth:`Worker.hold`), so it computes only between frames; the answer is handed to
  its line by a reader thread (the line shows it under the view's lock, after the frame).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import subprocess
import sys
import threading
import weakref
from multiprocessing.connection import Connection
from typing import Any, ClassVar

from fwwrules.data import Scenario

HAS_STOP = hasattr(signal, "SIGSTOP") and hasattr(signal, "SIGCONT")

MAX_STARTS = 3
"""How often a kernel starts one kind of process at most (again after it ended)."""


class Worker:
    """One helper process (``python -m fwwrules_widgets.<module>``): questions go through a
    sender thread (a step never waits on the pipe; of the questions not yet sent only each
    line's newest goes), answers are read on a thread and handed to their line (by key).

    :meth:`hold` stops the process (``SIGSTOP``, where there is one) while the kernel draws a
    drag step and lets it go on (``SIGCONT``) once the step is over (the view's lock is free):
    it computes in the time between two frames and never takes a core from a step. It is
    stopped for milliseconds at a time; where the system has it, it dies with the kernel
    (:func:`~.worker_process.main`), stopped or not."""

    def __init__(self, module: str) -> None:
        child_in, kernel_out = os.pipe()  # (read end, write end)
        kernel_in, child_out = os.pipe()
        self.process = subprocess.Popen(
            [sys.executable, "-m", f"{__package__}.{module}", str(child_in), str(child_out)],
            pass_fds=(child_in, child_out),
            stdin=subprocess.DEVNULL,
        )
        os.close(child_in)
        os.close(child_out)
        self.conn = Connection(kernel_out, readable=False)
        self.answers = Connection(kernel_in, writable=False)
        self.lines: weakref.WeakValueDictionary[str, WorkerLine] = weakref.WeakValueDictionary()
        self._queue: list[tuple[Any, ...]] = []
        self._asks: dict[str, tuple[Any, ...]] = {}
        self._wake = threading.Condition()
        self._release: Any = None
        """The lock whose release lets the stopped process go on (a view's), or None."""
        self._released = threading.Condition()
        for target in (self._read, self._send, self._resume):
            threading.Thread(target=target, daemon=True, name=f"fwwrules-{module}").start()

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
                _, key, gen, *said = self.answers.recv()
            except (EOFError, OSError):
                return
            line = self.lines.get(key)
            if line is not None:
                line.answer(gen, *said)


_WORKERS: dict[str, Worker] = {}
_STARTS: dict[str, int] = {}
_KEYS = itertools.count(1)


def worker(module: str) -> Worker | None:
    """The kernel's process of ``module`` (started on first use, again if it died), or None
    when none can be started."""
    found = _WORKERS.get(module)
    if found is not None and found.alive():
        return found
    if _STARTS.get(module, 0) >= MAX_STARTS:
        return None  # it keeps ending: its lines stay empty rather than start it on each step
    _STARTS[module] = _STARTS.get(module, 0) + 1
    try:
        started = Worker(module)
    except (OSError, RuntimeError, ValueError):
        return None
    _WORKERS[module] = started
    for line in list(found.lines.values()) if found is not None else []:
        line.adopt(started)
    return started


class WorkerLine:
    """A panel's line answered by the process of :attr:`module`, about the board shown by
    ``view`` (a :class:`~.view.BoardView`) on ``scenario`` (its models move with each
    question). Subclasses say what to ask (:meth:`send`) and show the answers
    (:meth:`answer`, called on the reader thread).

    ``generation`` counts the questions; ``shown`` is the generation whose answer the line
    shows (:meth:`wait` for it in tests and benchmarks). ``enabled`` False: nothing is asked.
    """

    module: ClassVar[str]

    def __init__(self, view: Any, scenario: Scenario) -> None:
        self.view = view
        self.key = f"line-{next(_KEYS)}"
        self.enabled = True
        self.generation = 0
        self.shown = 0
        self._asked: tuple[Scenario, tuple[Any, ...]] | None = None
        self._board = scenario
        self._done = threading.Condition()
        self._worker: Worker | None = None
        weakref.finalize(self, _forget, self.module, self.key)

    @functools.cached_property
    def board_text(self) -> str | None:
        """The board as scenario JSON for the process (None: it cannot be written), made when
        the line first needs its process."""
        return _board_text(self._board)

    def adopt(self, started: Worker) -> None:
        """Use ``started`` (a new process: the board is sent, the last question asked again)."""
        self._worker = started
        started.lines[self.key] = self
        started.send(("board", self.key, self.board_text))
        asked, self._asked = self._asked, None
        if asked is not None:
            self.send(*asked)

    def live_worker(self) -> Worker | None:
        """The process answering this line (started if need be), or None."""
        if self._worker is not None and self._worker.alive():
            return self._worker
        started = worker(self.module) if self.board_text is not None else None
        if started is not None and self._worker is not started:
            self._asked, asked = None, self._asked
            self.adopt(started)
            self._asked = asked
        return started

    def asked(self, scenario: Scenario, question: tuple[Any, ...]) -> bool:
        """Whether ``question`` on ``scenario`` is the question asked last."""
        last = self._asked
        return last is not None and last[0] is scenario and last[1] == question

    def send(self, scenario: Scenario, question: tuple[Any, ...]) -> int | None:
        """Ask ``question`` about ``scenario``'s positions (the board the next frame shows);
        its generation, or None when no process can answer. Call it holding the view's lock
        (a drag step: the process waits for the step's frame)."""
        self._asked = (scenario, question)
        with self._done:
            self.generation += 1
            gen = self.generation
        started = self.live_worker()
        if started is None:
            return None
        started.hold(self.view.lock)
        started.send(("ask", self.key, gen, positions(scenario), *question))
        return gen

    def settled(self, gen: int | None = None) -> None:
        """The line shows the answer to ``gen`` (default: the newest question; one it
        answered itself, or none is due): :meth:`wait` returns."""
        with self._done:
            self.shown = self.generation if gen is None else gen
            self._done.notify_all()

    def forget_question(self) -> None:
        """No question is open: answers still on their way are not shown."""
        self._asked = None
        with self._done:
            self.generation += 1
        self.settled()

    def answer(self, gen: int, *said: Any) -> None:  # pragma: no cover - every line has its own
        raise NotImplementedError

    def wait(self, timeout: float = 30.0) -> bool:
        """Wait until the line shows the answer to the newest question; False on timeout."""
        with self._done:
            return self._done.wait_for(lambda: self.shown == self.generation, timeout)


def positions(scenario: Scenario) -> dict[str, tuple[float, float, float]]:
    """Where the models stand, as a question gives them: id -> (x, y, elevation)."""
    return {m.id: (m.at[0], m.at[1], m.elevation) for m in scenario.models}


def _board_text(scenario: Scenario) -> str | None:
    """The board as scenario JSON for the process (None: it cannot be written)."""
    from fwwrules.errors import FwwError
    from fwwrules.saving import dump_text

    try:
        return dump_text(scenario, json_=True)
    except (FwwError, ValueError):
        return None


def _forget(module: str, key: str) -> None:
    found = _WORKERS.get(module)
    if found is not None and found.alive():
        with contextlib.suppress(OSError, ValueError):  # the process ended meanwhile
            found.send(("forget", key))
