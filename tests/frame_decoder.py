"""The browser's side of the board canvas's frames, in Python, for tests: what a browser
shows after applying a list of frames by ``widgets/board_canvas.js``'s rules (the package
sends frames; only the tests and benchmarks decode them)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from fwwrules_widgets.board_canvas import (
    AS_KEPT,
    KEPT_PALETTE,
    PALETTE_SIZE,
    RARE,
    Pixels,
    _rgb,
)


def opened(msg: Mapping[str, Any], buffer: bytes) -> tuple[dict[str, Any], bytes]:
    """A frame as the browser reads it: its fields with ``rects`` and ``texts`` from the
    head at the start of its buffer (a frame made by hand may hold them in its fields and
    have no head), and its pixel bytes (uncompressed)."""
    raw = zlib.decompress(buffer)
    size = int(msg.get("head", 0))
    head = json.loads(raw[:size].decode()) if size else {}
    return {"texts": [], **msg, **head}, raw[size:]


def words_painted(
    frames: Sequence[tuple[Mapping[str, Any], bytes | Sequence[bytes]]],
) -> list[dict[str, Any]]:
    """The words each frame of ``frames`` sets when the browser paints it, by model id (a
    frame's ``texts``, a long text's change applied to the text the frame before carried,
    as ``board_canvas.js`` does); frames the browser would not apply give ``{}``."""
    held: dict[tuple[str, str], Any] = {}
    out: list[dict[str, Any]] = []
    current = -1
    for msg, buffers in frames:
        if msg.get("type", "frame") != "frame":
            continue
        buffer = buffers if isinstance(buffers, bytes | bytearray | memoryview) else buffers[0]
        msg = opened(msg, bytes(buffer))[0]
        if msg["id"] <= current or (not msg["full"] and msg["base"] != current):
            out.append({})
            continue
        now: dict[str, Any] = {}
        for id_, trait, value, *change in msg["texts"]:
            if change:
                before = held[(id_, trait)]
                keep, tail = change[0]
                units = before.encode("utf-16-le")
                value = (
                    units[: 2 * keep].decode("utf-16-le")
                    + value
                    + units[len(units) - 2 * tail :].decode("utf-16-le")
                )
            held[(id_, trait)] = now[id_] = value
        out.append(now)
        current = msg["id"]
    return out


def _decode(
    msg: Mapping[str, Any], buffer: bytes, shown: Pixels, kept: Pixels | None = None
) -> Pixels:
    """A frame's pixels (``n × 3``) as the browser reads them (every codec; ``shown`` is
    the picture the frame applies on, ``kept`` the picture the browser keeps)."""
    msg, data = opened(msg, buffer)
    raw = np.frombuffer(data, np.uint8)
    codec = msg.get("codec", "rgb")
    if codec == "rgb":
        return raw.reshape(-1, 3)
    total = sum(w * h for _, _, w, h in msg["rects"])
    if codec == "kept":
        assert kept is not None
        n = int(msg["colors"])
        palette = raw[: 3 * n].reshape(n, 3)
        codes = raw[3 * n : 3 * n + total]
        rare = raw[3 * n + total :].reshape(-1, 3)
        out = _rgb(shown, msg["rects"]).copy()
        held = codes == AS_KEPT
        out[held] = _rgb(kept, msg["rects"])[held]
        out[codes == RARE] = rare
        coloured = codes >= KEPT_PALETTE
        out[coloured] = palette[codes[coloured] - KEPT_PALETTE]
        return out
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


def unpack(
    shape: tuple[int, int], frames: Sequence[tuple[Mapping[str, Any], bytes | Sequence[bytes]]]
) -> Pixels:
    """What a browser shows after applying ``frames`` (content, buffers: the frame's buffer,
    and the kept picture's for a frame that keeps one) in order, by the
    browser's rules (a frame older than the one shown is skipped, and a diff that is not
    on its base; a frame that takes pixels from a kept picture it does not have). The
    browser's own code is ``board_canvas.js``."""
    shown = np.zeros((*shape, 4), dtype=np.uint8)
    current = -1
    kept: tuple[int, Pixels] | None = None
    for msg, buffers in frames:
        if isinstance(buffers, bytes | bytearray | memoryview):
            buffers = [bytes(buffers)]
        buffer = buffers[0]
        msg = opened(msg, buffer)[0]
        if msg["id"] <= current or (not msg["full"] and msg["base"] != current):
            continue
        if msg.get("keep"):  # the picture to keep, as changes to the one shown
            keep = msg["keep"]
            picture = shown.copy()
            rgb = _decode({**keep, "codec": "mask"}, buffers[1], picture)
            _put(picture, keep["rects"], rgb)
            kept = (msg["id"], picture)
        if msg.get("codec") == "kept" and (kept is None or kept[0] != msg["kept"]):
            continue  # the browser would ask for a full frame
        if msg["full"]:
            shown = np.zeros((msg["h"], msg["w"], 4), dtype=np.uint8)
        rgb = _decode(msg, buffer, shown, kept[1] if kept is not None else None)
        _put(shown, msg["rects"], rgb)
        current = msg["id"]
    return shown


def _put(picture: Pixels, rects: list[list[int]], rgb: Pixels) -> None:
    at = 0
    for x, y, w, h in rects:
        picture[y : y + h, x : x + w, :3] = rgb[at : at + w * h].reshape(h, w, 3)
        picture[y : y + h, x : x + w, 3] = 255
        at += w * h
