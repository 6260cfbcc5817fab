"""The attack and melee panels' live "how close" line (issue 35), with real panels: it answers
the position drawn (the sentence of the ruling's margins there, English and German), says
"measuring" with each drag frame and never shows an answer about a position no longer drawn;
the margins are measured by a separate process (widgets/margin_worker.py), not on the drag."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest
from frame_decoder import opened
from panel_mouse import panel_mouse

import fwwrules
from fwwrules.rulings import names_in

EXAMPLE = Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml"
MEASURING = {"en": "<i>measuring</i>", "de": "<i>wird gemessen</i>"}


def _expected(scenario: fwwrules.Scenario, attacker: str, target: str, lang: str) -> str:
    """The sentence the line must show, computed here in the test's own process."""
    r = fwwrules.ruling(scenario, attacker, target)
    assert r.margins is not None
    return r.margins.sentence(lang, names_in(r.labels, lang))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_line_answers_the_position_drawn_during_a_real_drag(lang: str) -> None:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(EXAMPLE)
    panel = AttackPanel(s, attacker="knight", target="brute", lang=lang, interactive=False)
    line = panel.how_close
    assert line.wait(), "no answer from the measuring process"
    first = _expected(panel.scenario, "knight", "brute", lang)
    assert first in line.html.value
    assert "0.3 mm" in first or "0,3 mm" in first  # the knife edge of the book's example
    assert "color:#a40000" in line.html.value  # a knife-edge call stands out
    u = s.unit_mm
    x, y = (c * u for c in s.model("knight").at)
    panel_mouse(panel, "button_press_event", x, y)
    assert panel.view.dragging == "knight"
    seen = []
    for k in range(1, 6):
        panel_mouse(panel, "motion_notify_event", x - 6.0 * k, y + 2.0 * k)
        # with the frame of this position: "measuring", or already this position's answer
        now = _expected(panel.scenario, "knight", "brute", lang)
        shown = line.html.value
        assert MEASURING[lang] in shown or now in shown, (k, shown, now)
        seen.append(now)
        assert line.wait()
        assert now in line.html.value
    panel_mouse(panel, "button_release_event", x - 30.0, y + 10.0)
    assert line.wait()
    assert _expected(panel.scenario, "knight", "brute", lang) in line.html.value
    assert len(set(seen)) > 1, "the drag never changed how close the call is"
    plt.close(panel.view.figure)


def test_an_answer_about_an_older_position_is_never_shown() -> None:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(EXAMPLE)
    panel = AttackPanel(s, attacker="knight", target="brute", interactive=False)
    line = panel.how_close
    assert line.wait()
    old = line.generation
    panel.move("knight", *(c + 0.25 for c in s.model("knight").at))
    assert line.generation == old + 1
    before = line.html.value
    line.answer(old, "about where the knight was", False)  # late: the knight has moved
    assert line.html.value == before and "where the knight was" not in line.html.value
    assert line.wait()
    assert _expected(panel.scenario, "knight", "brute", "en") in line.html.value
    # asking again what is shown (a drop where the drag left the model) asks nothing
    gen = line.generation
    panel._settle()
    assert line.generation == gen
    plt.close(panel.view.figure)


def test_a_language_change_measures_again_in_that_language() -> None:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(EXAMPLE)
    panel = AttackPanel(s, attacker="knight", target="brute", interactive=False)
    assert panel.how_close.wait()
    panel.lang.value = "de"
    assert panel.how_close.wait()
    assert "Wie knapp:" in panel.how_close.html.value
    assert _expected(panel.scenario, "knight", "brute", "de") in panel.how_close.html.value
    plt.close(panel.view.figure)


def test_the_melee_panel_measures_the_shot_into_the_melee_only() -> None:
    from fwwrules_widgets import MeleePanel

    s = fwwrules.load(EXAMPLE)
    panel = MeleePanel(s, interactive=False)
    assert panel.how_close.wait()
    assert panel.how_close.html.value == ""  # no shooter: nothing to measure
    panel.target.value = "brute"
    panel.shooter.value = "knight"
    assert panel.how_close.wait()
    assert _expected(panel.scenario, "knight", "brute", "en") in panel.how_close.html.value
    panel.shooter.value = ""
    assert panel.how_close.wait()
    assert panel.how_close.html.value == ""
    plt.close(panel.view.figure)


def test_a_disabled_line_asks_nothing() -> None:
    """The benchmark's before: a panel whose line is off does exactly the old drag step."""
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(EXAMPLE)
    panel = AttackPanel(s, attacker="knight", target="brute", interactive=False)
    panel.how_close.enabled = False
    gen = panel.how_close.generation
    panel.move("knight", *(c + 0.25 for c in s.model("knight").at))
    assert panel.how_close.generation == gen
    plt.close(panel.view.figure)


def test_on_the_live_canvas_the_answer_follows_its_frame_in_a_frame_of_words() -> None:
    """The live board canvas: a move's frame carries "measuring"; the answer, ready while
    that frame is in flight, goes in the next frame (after the browser painted the first),
    with no pixels: the words about the picture already shown."""
    pytest.importorskip("anywidget")
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(EXAMPLE)
    panel = AttackPanel(s, attacker="knight", target="brute", interactive=True)
    link = panel.view.widget and panel.view.link
    assert link is not None and panel.how_close.wait()
    sent: list[dict[str, object]] = []
    link._send = lambda c, b: sent.append(opened(c, b[0])[0] if b else c)  # type: ignore[method-assign]
    link.sender._send = link._send
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1]["id"]}, [])
    line = str(panel.how_close.html.model_id)
    with panel.view.lock:
        panel.move("knight", *(c - 0.25 for c in s.model("knight").at))
        moved = sent[-1]
    said = {t[0]: t[2] for t in moved.get("texts", [])}  # type: ignore[attr-defined]
    assert MEASURING["en"] in said[line] and moved["rects"]
    assert panel.how_close.wait()
    assert sent[-1] is moved  # the frame in flight: the answer waits for its ack
    link._message(None, {"type": "ack", "id": moved["id"]}, [])
    words = sent[-1]
    assert words is not moved and words["rects"] == []
    answer = {t[0]: t[2] for t in words["texts"]}[line]  # type: ignore[attr-defined]
    assert _expected(panel.scenario, "knight", "brute", "en") in answer
    plt.close(panel.view.figure)
