"""The attack and melee panels' "how close" line: how far a model must move before the ruling
changes (:attr:`fwwrules.rulings.AttackRuling.margins`), kept up to date while a model is
dragged.

A drag step must stay as fast as it is (a ruling and a blit, about 10 ms on a crowded board)
while the margins cost tens to hundreds of milliseconds, so they are measured in a separate
process (:mod:`.margin_worker`, one per kernel, started with the first line; how the panels'
helper processes stay off the drag step: :mod:`.worker`), and the line is:

* **never stale**: every question (a drag step, a drop, a control change) says "measuring"
  with the picture it belongs to (:meth:`~.view.BoardView.say`: the words travel with the
  frame), and an answer is shown only if it answers the newest question, with the frame the
  browser shows (a frame of words alone when the picture did not change);
* **coalesced**: the process answers only the newest question of each line, once no newer
  one came for :data:`~.margin_worker.QUIET_S`: while the model moves the line says
  "measuring", and it answers as soon as the model rests (or moves slowly).

Where no process can be started, the line is left empty (the knife-edge sentence of the
ruling's own text is unaffected).
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from fwwrules.data import Scenario

from .margin_worker import Query
from .text import ui
from .worker import WorkerLine

KNIFE_EDGE_STYLE = "color:#a40000"
"""The sentence of a knife-edge call stands out."""


class HowClose(WorkerLine):
    """One panel's "how close" line (``html``, an :class:`ipywidgets.HTML`) about the board
    shown by ``view`` (a :class:`~.view.BoardView`). :meth:`ask` after each change of the
    picture (with the frame's words); :meth:`clear` when there is no attack ruling to measure.

    ``generation`` counts the questions; ``shown`` is the generation whose answer the line
    shows (:meth:`wait` for it in tests and benchmarks). ``enabled`` False: nothing is asked
    and the line stays empty (the benchmark's before).
    """

    module = "margin_worker"

    def __init__(self, view: Any, scenario: Scenario) -> None:
        super().__init__(view, scenario)
        self.html = widgets.HTML()
        self.html.add_class("fwwrules-how-close")
        self.knife_edge = False
        self.sentence: str | None = None
        self._lang = "en"

    def ask(self, scenario: Scenario, query: Query, lang: str) -> None:
        """The line is about ``query`` on ``scenario`` (the board the next frame shows), in
        ``lang``: "measuring" with that frame, then the answer. Asking again what is asked
        changes nothing (a drop where the last drag step left the model)."""
        if not self.enabled:
            return
        with self.view.lock:  # the question and its "measuring" at once (see answer)
            self.send(scenario, (query, lang))

    def send(self, scenario: Scenario, question: tuple[Any, ...]) -> int | None:
        if self.asked(scenario, question):
            return None
        _, lang = question
        self._lang = lang
        self.sentence, self.knife_edge = None, False
        gen = super().send(scenario, question)
        if gen is None:  # nothing can measure it: no line
            self.settled()
            self.view.say(self.html, "value", "")
        else:
            self.view.say(self.html, "value", self._html(None, False, lang))
        return gen

    def clear(self) -> None:
        """No attack ruling to measure: the line is empty (with the next frame)."""
        with self.view.lock:
            self.forget_question()
            self.sentence, self.knife_edge = None, False
            self.view.say(self.html, "value", "")

    def answer(self, gen: int, sentence: str | None = None, knife_edge: bool = False) -> None:
        """The answer to question ``gen`` (the reader thread): shown when it is the newest
        question, with a frame of words alone (the picture is the one it was asked for)."""
        with self.view.lock:
            if gen != self.generation:
                return  # a newer position is shown: this answer describes an old one
            self.sentence, self.knife_edge = sentence, knife_edge
            said = "" if sentence is None else self._html(sentence, knife_edge, self._lang)
            self.view.say(self.html, "value", said)  # None: not answerable there
            self.view.publish_texts()
            self.settled(gen)

    def _html(self, sentence: str | None, knife_edge: bool, lang: str) -> str:
        """The line: its label, then the sentence (None: "measuring")."""
        label = html.escape(ui("how-close", lang))
        if sentence is None:
            words = f"<i>{html.escape(ui('measuring', lang))}</i>"
        else:
            style = f' style="{KNIFE_EDGE_STYLE}"' if knife_edge else ""
            words = f"<span{style}>{html.escape(sentence)}</span>"
        return f"<p><b>{label}</b> {words}</p>"
