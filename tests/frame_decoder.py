"""The browser's side of the board canvas's frames, in Python, for tests: what a browser
shows after applying a list of frames by ``widgets/board_canvas.js``'s rules (the package
sends frames; only the tests and benchmarks decode them)."""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from typing import Any

import numpy as np
from fwwrules_widgets.board_canvas import PALETTE_SIZE, Pixels, _rgb


def _decode(msg: Mapping[str, Any], buffer: bytes, shown: Pixels) -> Pixels:
    """A frame's pixels (``n × 3``) as the browser reads them (every codec; ``shown`` is
    the picture the frame applies on)."""
    raw = np.frombuffer(zlib.decompress(buffer), np.uint8)
    codec = msg.get("codec", "rgb")
    if codec == "rgb":
        return raw.reshape(-1, 3)
    total = sum(w * h for _, _, w, h in msg["rects"])
    if codec == "mask":
        nbits = -(-total // 8)
        changed = np.unpackbits(raw[:nbits])[:total].astype(bool)
        out: Pixels = _rgb(shown, msg["rects"]).copy()
        out[changed] = _unpalette(raw[nbits:], int(msg["colors"]), int(changed.sum()))
        return out
    return _unpalette(raw, int(msg["colors"]), total)


def _unpalette(raw: Pixels, n: int, total: int) -> Pixels:
    """``total`` pixels (``total × 3``) from the palette codec's bytes with ``n`` colours."""
    palette = raw[: 3 * n].reshape(n, 3)
    index = raw[3 * n : 3 * n + total]
    out = np.zeros((total, 3), np.uint8)
    common = index != PALETTE_SIZE
    out[common] = palette[index[common]]
    out[~common] = raw[3 * n + total :].reshape(-1, 3)
    return out


def unpack(shape: tuple[int, int], frames: list[tuple[Mapping[str, Any], bytes]]) -> Pixels:
    """What a browser shows after applying ``frames`` (content, buffer) in order, by the
    browser's rules (a frame older than the one shown is skipped, and a diff that is not
    on its base). The browser's own code is ``board_canvas.js``."""
    shown = np.zeros((*shape, 4), dtype=np.uint8)
    current = -1
    for msg, buffer in frames:
        if msg["id"] <= current or (not msg["full"] and msg["base"] != current):
            continue
        if msg["full"]:
            shown = np.zeros((msg["h"], msg["w"], 4), dtype=np.uint8)
        rgb = _decode(msg, buffer, shown)
        at = 0
        for x, y, w, h in msg["rects"]:
            shown[y : y + h, x : x + w, :3] = rgb[at : at + w * h].reshape(h, w, 3)
            shown[y : y + h, x : x + w, 3] = 255
            at += w * h
        current = msg["id"]
    return shown
