"""The panels' helper processes' loop (widgets/worker_process.py): only the newest question
of a line is answered, once the questions rest or, with ``longest``, while they keep coming
(the side view during a drag without a pause), and a fault answers with no fields."""

from __future__ import annotations

import threading
import time
from multiprocessing import Pipe
from typing import Any

from fwwrules_widgets.worker_process import serve

import fwwrules
from fwwrules.saving import dump_text


def _answer(board: Any, positions: Any, question: str) -> tuple[Any, tuple[Any, ...]]:
    if question == "fault":
        raise RuntimeError("a fault of the rules")
    return board, (question, positions["knight"])


def _run(longest: float | None, questions: list[str], gap: float) -> tuple[list[Any], int]:
    """Serve on a thread; send ``questions`` ``gap`` seconds apart; the answers read, and how
    many had come before the last question was sent."""
    kernel_out, child_in = Pipe()
    child_out, kernel_in = Pipe()
    worker = threading.Thread(
        target=serve, args=(child_in, child_out, _answer, 0.15, longest), daemon=True
    )
    worker.start()
    board = dump_text(fwwrules.load(fwwrules.example_path("elevation-rooftop")), json_=True)
    kernel_out.send(("board", "line-1", board))
    answers: list[Any] = []
    early = 0
    for gen, question in enumerate(questions, 1):
        kernel_out.send(("ask", "line-1", gen, {"knight": (float(gen), 1.0, 0.0)}, question))
        time.sleep(gap)
        while kernel_in.poll():
            answers.append(kernel_in.recv())
        early = len(answers)
    while kernel_in.poll(5.0):
        answers.append(kernel_in.recv())
        if answers[-1][2] == len(questions):
            break
    kernel_out.close()
    worker.join(5.0)
    return answers, early


def test_only_the_newest_question_is_answered_once_they_rest() -> None:
    answers, _ = _run(None, ["a", "b", "c"], 0.0)
    assert answers == [("said", "line-1", 3, "c", (3.0, 1.0, 0.0))]


def test_questions_that_keep_coming_are_answered_now_and_then_with_longest() -> None:
    answers, early = _run(0.3, [f"q{k}" for k in range(60)], 0.03)
    assert early >= 1  # answered while the questions kept coming
    gens = [a[2] for a in answers]
    assert gens == sorted(set(gens)) and gens[-1] == 60  # each newer; the last one answered
    assert all(a[3] == f"q{a[2] - 1}" for a in answers)


def test_a_fault_is_answered_with_no_fields() -> None:
    answers, _ = _run(None, ["fault"], 0.0)
    assert answers == [("said", "line-1", 1)]
