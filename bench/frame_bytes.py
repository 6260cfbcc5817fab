"""Bytes of a drag's frames, without a browser: the same drag every run.

The AttackPanel on ``bench/_board.py``'s crowded board (as ``bench/browser_latency.py``)
gets a view's ``hello`` at device pixel ratio ``--ratio``, a press on the target's base and
``--moves`` moves of ``--step`` CSS pixels toward the board's middle (``--path middle``) or
along its bottom edge (``--path edge``), each frame acknowledged at once with the next move
(as a slow link does: the larger the step, the more a frame shows). Prints, over the drag's
frames: the median bytes of a frame (its zlib buffers, and its message's JSON as sent), the
part of the buffer that is the frame's head (rects and words), the changed rects' pixels,
and how they are coded. Deterministic: compare codecs with it (``bench/browser_latency.py``
gives the figures through a real browser and link).

Usage: ``python bench/frame_bytes.py [--ratio 2] [--step 12] [--moves 40] [--path middle]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import matplotlib

matplotlib.use("Agg")

from _board import crowded_board
from fwwrules_widgets import AttackPanel


def drag(
    ratio: float, step: float, moves: int, path: str
) -> list[tuple[dict[str, Any], list[bytes]]]:
    """The frames sent during the drag (the press's and the moves' frames)."""
    board = crowded_board()
    panel = AttackPanel(board, attacker=board.models[0].id, target=board.models[13].id,
                        interactive=True)  # fmt: skip
    panel.how_close.wait()
    panel.how_close.enabled = False
    link = panel.view.link
    assert link is not None
    sent: list[tuple[dict[str, Any], list[bytes]]] = []
    link._send = lambda c, b: sent.append((c, list(b)))  # type: ignore[method-assign]
    link.sender._send = link._send
    link._message(None, {"type": "hello", "ratio": ratio}, [])
    fig, ax = panel.view.figure, panel.view.ax

    def css(x: float, y: float) -> tuple[float, float]:
        px, py = ax.transData.transform((x, y))
        return float(px / ratio), float((fig.bbox.height - py) / ratio)

    target = panel.scenario.model(panel.target.value)
    limits = panel.scenario.limits_mm(panel.view.style.margin_mm)
    u = panel.scenario.unit_mm
    if path == "edge":  # the target put on the bottom edge first, as browser_latency does
        panel.move(target.id, target.at[0], (limits.ymin + target.base / 2 + 0.5) / u)
        target = panel.scenario.model(target.id)
    x, y = css(*(v * u for v in target.at))
    if path == "middle":
        mx, my = css((limits.xmin + limits.xmax) / 2, (limits.ymin + limits.ymax) / 2)
    else:  # along the edge toward its middle, the pointer a little beyond it
        mx, my = css((limits.xmin + limits.xmax) / 2, limits.ymin)
        my += 6.0
    length = max(1e-9, ((mx - x) ** 2 + (my - y) ** 2) ** 0.5)
    dx, dy = (mx - x) / length * step, (my - y) / length * step
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    start = len(sent)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    for i in range(moves):
        move = {"type": "move", "x": x + dx * (i + 1), "y": y + dy * (i + 1), "buttons": 1,
                "seq": i + 2}  # fmt: skip
        frame = sent[-1][0]["id"] if sent[-1][0].get("type") == "frame" else None
        if frame is not None and frame in link.sender.in_flight:
            link._message(None, {"type": "ack", "id": frame, "move": move}, [])
        else:
            link._message(None, move, [])
    return [(c, b) for c, b in sent[start:] if c.get("type") == "frame" and not c["full"]]


def head_bytes(content: dict[str, Any], buffers: list[bytes]) -> int:
    """The bytes of the frame's rects and words: compressed, when in its buffer's head."""
    size = int(content.get("head", 0))
    if size:
        raw = zlib.decompress(buffers[0])
        return len(zlib.compress(raw[:size], 6))
    words = {k: content[k] for k in ("rects", "texts") if k in content}
    return len(json.dumps(words, separators=(",", ":")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ratio", type=float, default=2.0)
    parser.add_argument("--step", type=float, default=12.0, help="CSS px a move")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--path", choices=["middle", "edge"], default="middle")
    args = parser.parse_args()
    frames = drag(args.ratio, args.step, args.moves, args.path)
    buffers = [sum(len(b) for b in bs) for _, bs in frames]
    messages = [len(json.dumps(c, separators=(",", ":"))) for c, _ in frames]
    heads = [head_bytes(c, bs) for c, bs in frames]
    codecs = sorted({str(c.get("codec")) for c, _ in frames})
    print(
        f"ratio {args.ratio:g}, {args.path}, {len(frames)} diff frames of {args.moves} moves"
        f" of {args.step:g} px ({', '.join(codecs)}): median bytes a frame"
        f" {statistics.median(b + m for b, m in zip(buffers, messages, strict=True)):.0f}"
        f" (buffers {statistics.median(buffers):.0f}, message JSON"
        f" {statistics.median(messages):.0f}, rects and words"
        f" {statistics.median(heads):.0f}); total {sum(buffers) + sum(messages)}"
    )


if __name__ == "__main__":
    main()
