"""A drag that pushes a base against another (issue 33, bytes per move on a slow link): a
motion that leaves the base where it is changes nothing, so the kernel sends nothing for it,
neither a frame nor words ("how close" is not measured again for the same board)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib
import pytest
from fwwrules_widgets import AttackPanel

import fwwrules
from fwwrules.data import Scenario

matplotlib.use("Agg")
pytest.importorskip("anywidget")

TABLE = fwwrules.load(Path(__file__).with_name("table-48.yaml"))
assert isinstance(TABLE, Scenario)


def live(panel: Any) -> list[dict[str, Any]]:
    """The panel's board shown in a browser that paints and acknowledges every frame at
    once; the frames sent (their messages)."""
    link = panel.view.widget and panel.view.link
    sent: list[dict[str, Any]] = []

    def send(content: dict[str, Any], buffers: list[bytes]) -> None:
        if content["type"] == "frame":
            sent.append(content)
            link._message(None, {"type": "ack", "id": content["id"]}, [])

    link._send = send
    link.sender._send = send
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    return sent


def css_of(panel: Any, x: float, y: float) -> tuple[float, float]:
    """Where board point (x, y) mm is on the canvas, in CSS px from the top left."""
    view = panel.view
    px, py = view.ax.transData.transform((x, y))
    return px / view.ratio, (view.figure.bbox.height - py) / view.ratio


def test_pushing_a_base_against_another_sends_nothing_once_it_stands_at_contact() -> None:
    p = AttackPanel(TABLE, attacker="paladin", target="boss", interactive=True)
    sent = live(p)
    link = p.view.link
    u = TABLE.unit_mm
    (ax, ay), (bx, by) = (TABLE.model(m).at for m in ("waster", "knight"))
    seq = iter(range(1, 100))

    def mouse(kind: str, x: float, y: float) -> None:
        cx, cy = css_of(p, x * u, y * u)
        link._message(None, {"type": kind, "x": cx, "y": cy, "buttons": 1, "seq": next(seq)}, [])

    mouse("down", ax, ay)
    assert p.view.dragging == "waster"
    for k in range(1, 5):  # toward the knight's centre: the Waster stops at contact, head on
        mouse("move", ax + (bx - ax) * k / 4, ay + (by - ay) * k / 4)
    stood = p.scenario
    at = stood.model("waster").at
    assert at != pytest.approx((ax, ay)) and at != pytest.approx((bx, by))
    assert p.how_close.wait()  # its answer about where the Waster stands has come
    frames, asked = len(sent), p.how_close.generation
    for _ in range(3):  # pushing on at the knight's centre: held at contact
        mouse("move", bx, by)
    assert p.scenario is stood  # no new board, no new ruling
    assert p.how_close.generation == asked  # "how close" not asked again
    assert len(sent) == frames  # no frame, not even one of words
    mouse("up", bx, by)
    assert p.scenario.model("waster").at == pytest.approx(at)
