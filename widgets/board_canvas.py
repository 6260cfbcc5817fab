"""The board in the browser: a canvas widget that shows exactly the pictures the kernel drew.

The kernel draws the board with matplotlib's Agg; this module sends those pictures to the
browser and brings the mouse back (the browser half is ``board_canvas.js``, an anywidget ES
module). Why not ipympl's canvas: its browser side replaces an image that is still decoding
when the next frame arrives, and paints diff frames over whatever it shows, so one lost
frame leaves stale pixels for good (ghost bases, two sets of range rings); it sends a move
every 33 ms whatever the link; and before the browser is ready it sends a raw RGBA buffer.

The protocol, in short (the JS file says it from the browser's side):

* **Nothing before hello.** The browser says ``hello`` with its device pixel ratio when a
  view is rendered; the kernel then draws at that ratio and sends one full frame.
* **Frames apply whole, in order, on the frame they were made for.** A frame is one zlib
  buffer: a head (JSON, its first ``head`` bytes: the rectangles, device pixels, and the
  words the frame carries) and then the rectangles' pixels; a diff frame names
  its ``base`` (the frame id it was computed against) and is applied only on that frame,
  else the browser asks for a full one (``refresh``). So whatever the transport drops or
  reorders, the browser shows either a frame the kernel sent or asks for the whole picture.
* **At most one frame in flight.** The browser acknowledges a frame once it is painted;
  until then the kernel only notes that the picture changed, and draws the next frame from
  its latest state when the ack arrives: a slow link gets fewer frames, never a queue.
* **Changed regions only.** A diff frame holds the 16 px tiles where the new picture differs
  from the one the browser has (merged into rectangles): the moving pieces, not the rows in
  between; a diff frame carries only the pixels that changed in them (a bit mask, then
  their colours). On a slow link (acks slower than :data:`SLOW_ACK_S`) it is compressed
  harder.
* **Moves never queue.** One move is outstanding, from the latest position; the next rides
  on the ack of the frame that answered it (``done`` answers a move that drew nothing; for
  a move marked ``quiet``, handled in its own message, the kernel's idle status of that
  message does instead: see :meth:`BoardLink._pointer`).
  While a frame is in flight the kernel only keeps the latest move and draws from it when
  the ack comes: a slow link costs frames, never a backlog of rulings.
* **The picture the mouse rests on overtakes.** When the pointer has not moved for
  ``REST_MS`` (board_canvas.js) the browser sends its position at once, marked ``rest``,
  and the kernel draws it and sends it even with a frame in flight; so does a release
  (``up``). At most :data:`MAX_IN_FLIGHT` frames are in flight, the second only for these:
  after the mouse stops, the exact picture is one round trip (plus drawing and transfer)
  away instead of two or three, and a long drag still never builds a queue.
* **A kept picture.** When a drag starts the kernel has the browser keep a second picture,
  the board without the moving pieces (``keep`` on the next frame: its changes to the
  picture that frame applies on, in a second buffer); diff frames then code each pixel of
  their tiles as "as in the kept picture", "as shown" or a colour (codec ``kept``, naming
  the frame that brought it; a view without it asks for a full frame). What the moving
  pieces leave behind them, and everything they never covered, is that picture: only
  where the pieces are now costs more than a run of one byte.
* **Words travel with the pictures.** What a panel shows beside the board about the
  position drawn (the ruling's text, the x/y fields) is carried by the frame drawn from that
  position (``texts``: model id, trait, value) and set in the browser when that frame is
  painted, never before (:class:`FrameTexts`); a long text goes as its change to the text
  the frame before carried (:func:`text_change`). The kernel's own widgets take those values
  once the browser has painted every frame sent (the ack that leaves none in flight).
* **Sync.** Tests and benchmarks ask ``sync``; the answer comes once every earlier message
  (mouse, controls, acks) has been handled, with the last frame's id and whether another is
  due: the browser has the kernel's final picture when it shows that id and none is due.
"""

from __future__ import annotations

import json
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

TILE = 16
"""Side of the square tiles (device pixels) a diff frame is made of."""
MAX_IN_FLIGHT = 2
"""Frames in flight at most: one while the mouse moves, a second for the picture the mouse
rests on or is released at (it overtakes the ack of the first)."""
SLOW_ACK_S = 0.05
"""A frame acknowledged later than this after it was sent marks the link as slow."""
LEVELS = {"fast": (1, 6), "slow": (6, 6)}
"""zlib levels (diff frames, full frames) by link speed. Full frames are palette frames
(:func:`pack_palette`, a third of the bytes of RGB); diff frames are mask frames
(:func:`pack_mask`: the changed pixels alone, about 40 % fewer bytes than RGB at about two
milliseconds more on a drag frame at ratio 2), at level 6 on a slow link and 1 on a fast
one (levels above 6 save under 1 % on a drag frame). A full frame at level 9 would cost a
third of a second for little."""
COMPACT: dict[str, Any] = {"separators": (",", ":"), "ensure_ascii": False}
"""JSON without spaces, as UTF-8 (a frame's head: its rects and words)."""
KEPT_LEVEL = 6
"""zlib level of a drag's diff frames (codec ``kept``) on every link: their code bytes are
mostly runs, a millisecond at level 6 on a drag frame at ratio 2 and a tenth fewer bytes
than at level 1 (the mask codec's bit planes gain less from it)."""

Pixels = np.ndarray[Any, np.dtype[np.uint8]]
Rect = tuple[int, int, int, int]


def changed_rects(old: Pixels | None, new: Pixels, tile: int = TILE) -> list[Rect]:
    """Rectangles ``(x, y, w, h)`` covering every pixel where ``new`` differs from ``old``
    (both ``h × w × 4`` RGBA): the changed tiles, merged along each tile row and then down
    equal runs. The whole image when ``old`` is None or of another size; empty when equal.
    Rectangles at the right and bottom edges are cut to the image.
    """
    h, w = new.shape[:2]
    if old is None or old.shape != new.shape:
        return [(0, 0, w, h)]
    diff = (old.view(np.uint32) != new.view(np.uint32))[:, :, 0]
    rows, cols = -(-h // tile), -(-w // tile)
    padded = np.zeros((rows * tile, cols * tile), dtype=bool)
    padded[:h, :w] = diff
    tiles = np.asarray(padded.reshape(rows, tile, cols, tile).any(axis=(1, 3)), dtype=np.int8)
    edges = np.diff(np.pad(tiles, ((0, 0), (1, 1))), axis=1)  # +1 where a run starts, -1 after
    runs: list[list[int]] = []  # [x0, x1, y0, y1] in tiles
    open_runs: dict[tuple[int, int], list[int]] = {}
    for r in range(rows):
        starts, ends = np.flatnonzero(edges[r] == 1), np.flatnonzero(edges[r] == -1)
        now: dict[tuple[int, int], list[int]] = {}
        for x0, x1 in zip(starts.tolist(), ends.tolist(), strict=True):
            key = (x0, x1)
            run = open_runs.get(key)
            if run is None:
                run = [x0, x1, r, r + 1]
                runs.append(run)
            else:
                run[3] = r + 1
            now[key] = run
        open_runs = now
    return [
        (x0 * tile, y0 * tile, min(x1 * tile, w) - x0 * tile, min(y1 * tile, h) - y0 * tile)
        for x0, x1, y0, y1 in runs
    ]


def pack(pixels: Pixels, rects: list[Rect], level: int) -> bytes:
    """The RGB bytes of ``rects`` of ``pixels`` (RGBA), row by row, rect after rect, as one
    zlib stream at ``level`` (codec ``rgb``)."""
    return zlib.compress(_rgb(pixels, rects).tobytes(), level)


def _rgb(pixels: Pixels, rects: list[Rect]) -> Pixels:
    """The rects' pixels as one ``n × 3`` array, row by row, rect after rect."""
    parts = [np.asarray(pixels[y : y + h, x : x + w, :3]).reshape(-1, 3) for x, y, w, h in rects]
    return np.concatenate(parts) if parts else np.zeros((0, 3), np.uint8)


PALETTE_SIZE = 255
"""Colours a palette frame names by index; index 255 says "the next rare colour"."""


def pack_palette(pixels: Pixels, rects: list[Rect], level: int) -> tuple[bytes, int]:
    """The rects' pixels as (codec ``palette``) one zlib stream of the palette (``n × 3``
    bytes, the most frequent colours), one index byte per pixel (255: a rare colour), and
    the rare colours' RGB in order; and ``n``. A board has a few hundred colours that
    matter and antialiased edges in thousands more: a third of the bytes of RGB, lossless.
    """
    body, colours = _palette_body(_rgb(pixels, rects))
    return zlib.compress(body, level), colours


def pack_mask(old: Pixels, new: Pixels, rects: list[Rect], level: int) -> tuple[bytes, int]:
    """The rects' pixels of ``new`` as changes to ``old`` (codec ``mask``, for a diff frame
    applied on exactly the frame ``old`` is): one bit per pixel of the rects, row by row,
    rect after rect, most significant bit first (1: changed), then the changed pixels alone
    as :func:`pack_palette` codes them; one zlib stream, and the palette's size. A moving
    base changes about a third of the pixels of its tiles: a fifth fewer bytes than the
    palette codec and, at zlib level 9, faster too (fewer, more repetitive bytes).
    """
    body, colours = _mask_body(old, new, rects)
    return zlib.compress(body, level), colours


def _mask_body(old: Pixels, new: Pixels, rects: list[Rect]) -> tuple[bytes, int]:
    """:func:`pack_mask`'s bytes before compression, and the palette's size."""
    before, after = _rgb(old, rects), _rgb(new, rects)
    changed = (before != after).any(axis=1)
    body, colours = _palette_body(after[changed])
    return np.packbits(changed).tobytes() + body, colours


PALETTE_SAMPLE = 1 << 16
"""Pixels looked at to choose a palette (evenly spread): which colours are frequent is plain
from a sample, and any choice is lossless (a colour left out is sent as a rare one)."""


def pack_kept(
    old: Pixels, new: Pixels, kept: Pixels, rects: list[Rect], level: int
) -> tuple[bytes, int]:
    """The rects' pixels of ``new`` as changes to ``old`` with the kept picture ``kept`` at
    hand (codec ``kept``, for a diff frame of a drag applied on exactly the frame ``old``
    is; the browser holds ``kept``: :meth:`FrameSender.keep`): one code byte per pixel of
    the rects, row by row, rect after rect, after a palette of ``n`` colours and before the
    rare colours' RGB, as one zlib stream; and ``n``. Codes: :data:`AS_KEPT` (the kept
    picture's pixel), :data:`AS_SHOWN` (the pixel stays as shown), :data:`RARE` (the next
    rare colour), ``KEPT_PALETTE + i`` (the palette's colour ``i``).

    A drag moves pieces over the kept picture, the board without them: a pixel they leave
    is the kept picture's, and so is every pixel they never covered, so :data:`AS_KEPT`
    is the code of nearly every pixel that needs no colour, and :data:`AS_SHOWN` marks only
    what stays put of the pieces themselves. The codes then say where the pieces are now
    (a run of one byte where they are not) instead of a bit plane of every changed pixel:
    about a sixth fewer bytes than a changed-pixel mask on a drag across the board.
    """
    body, colours = _kept_body(old, new, kept, rects)
    return zlib.compress(body, level), colours


def _kept_body(old: Pixels, new: Pixels, kept: Pixels, rects: list[Rect]) -> tuple[bytes, int]:
    """:func:`pack_kept`'s bytes before compression, and the palette's size."""
    before, after, held = _rgb(old, rects), _rgb(new, rects), _rgb(kept, rects)
    paint = (after != held).any(axis=1)
    stays = paint & (before == after).all(axis=1)
    coloured = paint & ~stays
    palette, index = _palette_index(after[coloured], 256 - KEPT_PALETTE)
    codes = np.full(len(after), AS_KEPT, np.uint8)
    codes[stays] = AS_SHOWN
    codes[coloured] = np.where(index < 0, RARE, index + KEPT_PALETTE)
    rare = after[coloured][index < 0]
    return palette.tobytes() + codes.tobytes() + rare.astype(np.uint8).tobytes(), len(palette)


AS_KEPT = 0
"""Code of the ``kept`` codec: the pixel is the kept picture's."""
AS_SHOWN = 1
"""Code of the ``kept`` codec: the pixel stays as the browser shows it."""
RARE = 2
"""Code of the ``kept`` codec: the pixel is the next rare colour (RGB after the codes)."""
KEPT_PALETTE = 3
"""Code of the ``kept`` codec's first palette colour (``KEPT_PALETTE + i``: colour ``i``)."""


def _palette_index(rgb: Pixels, size: int) -> tuple[Pixels, np.ndarray[Any, np.dtype[np.int64]]]:
    """The palette of ``rgb`` (``n × 3``): its ``size`` most frequent colours in an even
    sample of at most :data:`PALETTE_SAMPLE` pixels (``m × 3``, most frequent first), and
    each pixel's place in it (-1: not in it, a rare colour)."""
    key = _keys(rgb)
    sample = key[:: max(1, key.size // PALETTE_SAMPLE)]
    values, counts = np.unique(sample, return_counts=True)
    top = values[np.argsort(-counts, kind="stable")[:size]]
    order = np.argsort(top)
    ranked = top[order]
    if not ranked.size:
        return np.zeros((0, 3), np.uint8), np.full(key.size, -1, np.int64)
    at = np.minimum(np.searchsorted(ranked, key), ranked.size - 1)
    index = np.where(ranked[at] == key, order[at], -1)
    palette = np.stack([(top >> 16) & 255, (top >> 8) & 255, top & 255], axis=1)
    return palette.astype(np.uint8), index


def _keys(rgb: Pixels) -> np.ndarray[Any, np.dtype[np.uint32]]:
    """Each pixel of ``rgb`` (``n × 3``) as one number ``0xRRGGBB``."""
    wide = rgb.astype(np.uint32)
    return np.asarray((wide[:, 0] << 16) | (wide[:, 1] << 8) | wide[:, 2], np.uint32)


def _palette_body(rgb: Pixels) -> tuple[bytes, int]:
    """``rgb`` (``n × 3``) as the palette codec's bytes (palette, indexes, rare colours)
    and the palette's size (:func:`_palette_index`, at most :data:`PALETTE_SIZE`)."""
    palette, index = _palette_index(rgb, PALETTE_SIZE)
    codes = np.where(index < 0, PALETTE_SIZE, index).astype(np.uint8)
    rare = rgb[index < 0].astype(np.uint8)
    return palette.tobytes() + codes.tobytes() + rare.tobytes(), len(palette)


@dataclass
class FrameStats:
    """What the sender has sent (for tests and ``bench/browser_latency.py``)."""

    frames: int = 0
    full: int = 0
    bytes: int = 0
    deferred: int = 0


class FrameSender:
    """The kernel's side of the frame protocol, without the widget (see the module's text).

    ``source()`` gives the current picture (``h × w × 4`` RGBA, opaque); ``send(content,
    buffers)`` delivers a message to the browser. :meth:`push` is called after every
    drawing; the browser's messages arrive at :meth:`hello`, :meth:`ack`, :meth:`refresh`.
    """

    def __init__(
        self,
        source: Callable[[], Pixels],
        send: Callable[[dict[str, Any], list[bytes]], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.source = source
        self._send = send
        self._clock = clock
        self.ready = False
        self.shown: Pixels | None = None
        """The picture the browser has once every frame sent is applied."""
        self.last_id = 0
        self.in_flight: list[int] = []
        """Frames sent and not yet acknowledged, oldest first."""
        self._sent_at: dict[int, float] = {}
        self.dirty = False
        self.overtake = False
        """While True (:meth:`overtaking`), :meth:`push` may send with one frame in flight."""
        self.slow = False
        self.seq = 0
        """The last pointer message handled (frames name it: the bench's lag measure)."""
        self.stats = FrameStats()
        self.texts: FrameTexts | None = None
        """Words that travel with the frames (a frame goes when only they changed)."""
        self.kept: Pixels | None = None
        """The picture the browser keeps besides the one it shows (:meth:`keep`)."""
        self.kept_id = 0
        self._keep = False

    def hello(self) -> None:
        """A view was rendered: start over with a full frame (it keeps no picture yet)."""
        self.ready = True
        self.kept, self._keep = None, False
        self.refresh()

    def keep(self, picture: Pixels) -> None:
        """The browser is to keep ``picture`` besides the one it shows (a drag starts:
        ``picture`` is the board without the moving pieces): the next frame says so (``keep``
        with a second buffer, ``picture`` as changes to the picture that frame applies on),
        and later diff frames may take pixels from it (codec ``kept``, naming that frame)."""
        self.kept, self._keep = np.array(picture, copy=True), True

    def refresh(self) -> None:
        """The browser could not apply a diff (not on its base): send a full frame."""
        self.shown = None
        self.in_flight.clear()
        self._sent_at.clear()
        self.push()

    @contextmanager
    def overtaking(self, allowed: bool = True) -> Iterator[None]:
        """Within the block, a frame may be sent with one already in flight (the picture the
        mouse rests on, or a release): see the module's text."""
        self.overtake = allowed
        try:
            yield
        finally:
            self.overtake = False

    def ack(self, frame_id: int, before: Callable[[], None] | None = None) -> None:
        """The browser painted frame ``frame_id``: call ``before`` (it may draw and push),
        then send the latest picture if it changed and nothing is in flight. Frames apply in
        order, so an ack also acknowledges every frame sent before it."""
        if frame_id not in self.in_flight:
            return
        self.slow = self._clock() - self._sent_at[frame_id] > SLOW_ACK_S
        for done in self.in_flight[: self.in_flight.index(frame_id) + 1]:
            self.in_flight.remove(done)
            del self._sent_at[done]
        if before is not None:
            before()
        if self.dirty and not self.in_flight:
            self.push()
        if not self.in_flight and not self.dirty and self.texts is not None:
            self.texts.commit()  # the browser shows every word sent: the kernel's widgets too

    def push(self) -> None:
        """The picture may have changed: send it now, or once the frame in flight is
        acknowledged (a second frame may go while :meth:`overtaking`). Nothing is sent
        before the browser said hello."""
        if not self.ready:
            return
        if len(self.in_flight) >= (MAX_IN_FLIGHT if self.overtake else 1):
            self.dirty = True
            self.stats.deferred += 1
            return
        self.dirty = False
        pixels = np.asarray(self.source())
        rects = changed_rects(self.shown, pixels)
        full = self.shown is None or self.shown.shape != pixels.shape
        texts = self.texts.carry(full) if self.texts is not None else []
        if not rects and not texts:
            return
        codec, body, level = self._encode(pixels, rects, full)
        self.last_id += 1
        head = json.dumps({"rects": [list(r) for r in rects], "texts": texts}, **COMPACT)
        buffers = [zlib.compress(head.encode() + body, level)]
        buffers += self._keep_part(codec, full)
        content = {
            **codec,
            "type": "frame",
            "id": self.last_id,
            "base": -1 if full else self.last_id - 1,
            "full": full,
            "seq": self.seq,
            "w": int(pixels.shape[1]),
            "h": int(pixels.shape[0]),
            "head": len(head.encode()),
        }
        self.shown = pixels.copy()
        self.in_flight.append(self.last_id)
        self._sent_at[self.last_id] = self._clock()
        self.stats.frames += 1
        self.stats.full += full
        self.stats.bytes += sum(len(b) for b in buffers)
        self._send(content, buffers)

    def _encode(
        self, pixels: Pixels, rects: list[Rect], full: bool
    ) -> tuple[dict[str, Any], bytes, int]:
        """The codec (and its fields), the pixel bytes (uncompressed) and the zlib level of
        the frame about to be sent, which shows ``pixels``."""
        levels = LEVELS["slow" if self.slow else "fast"]
        if full:
            if self.kept is not None:  # told again with the next diff frame
                self._keep = True
            body, colours = _palette_body(_rgb(pixels, rects))
            return {"codec": "palette", "colors": colours}, body, levels[1]
        assert self.shown is not None
        if not rects:  # only words changed
            return {"codec": "rgb"}, b"", levels[0]
        if self.kept is not None and self.kept.shape == pixels.shape:
            body, colours = _kept_body(self.shown, pixels, self.kept, rects)
            kept = self.last_id + 1 if self._keep else self.kept_id
            return {"codec": "kept", "colors": colours, "kept": kept}, body, KEPT_LEVEL
        body, colours = _mask_body(self.shown, pixels, rects)
        return {"codec": "mask", "colors": colours}, body, levels[0]

    def _keep_part(self, codec: dict[str, Any], full: bool) -> list[bytes]:
        """When the browser is to keep a picture (:meth:`keep`) and the frame about to be
        sent is a diff frame: ``keep`` in ``codec`` and the buffer that goes with it."""
        if not self._keep or full or self.kept is None:
            return []
        assert self.shown is not None
        self._keep = False
        if self.kept.shape != self.shown.shape:
            self.kept = None
            return []
        keep_rects = changed_rects(self.shown, self.kept)
        kept_payload, kept_colours = pack_mask(self.shown, self.kept, keep_rects, 6)
        codec["keep"] = {"rects": [list(r) for r in keep_rects], "colors": kept_colours}
        self.kept_id = self.last_id
        return [kept_payload]


TextKey = tuple[str, str]

CHANGE_MIN = 160
"""Texts at least this long (a ruling's HTML) travel as their change to the text the frame
before carried for the same widget (:func:`text_change`); shorter ones whole."""


def text_change(before: Any, value: Any) -> list[Any]:
    """How a frame carries ``value`` for a widget whose value in the frame before was
    ``before`` (None: none, or a full frame): ``[value]``, or for a long text ``[middle,
    [keep, tail]]``: the browser keeps the first ``keep`` and the last ``tail`` UTF-16 code
    units of the text it has from the frames before (JavaScript counts in them) and puts
    ``middle`` between. A drag changes a ruling's numbers, not its whole text: the change is
    a tenth of it. Frames apply in order on their base, and a full frame carries every
    value whole, so the browser always holds ``before``."""
    if not (isinstance(value, str) and isinstance(before, str) and len(value) >= CHANGE_MIN):
        return [value]
    most = min(len(value), len(before))
    keep = 0
    while keep < most and value[keep] == before[keep]:
        keep += 1
    tail = 0
    while tail < most - keep and value[-1 - tail] == before[-1 - tail]:
        tail += 1
    middle = value[keep : len(value) - tail]
    return [middle, [_utf16(value[:keep]), _utf16(value[len(value) - tail :])]]


def _utf16(text: str) -> int:
    """The length of ``text`` in UTF-16 code units (JavaScript's string length)."""
    return len(text.encode("utf-16-le")) // 2


class FrameTexts:
    """Words beside the board that describe the picture (a ruling's text, the x/y fields of
    a dragged model): the browser shows them when the frame drawn with them is painted.

    :meth:`say` records a widget trait's new value; the next frame sent carries every value
    that changed since the frame before (a full frame: all of them), and the browser sets
    them on its copies of those widgets right after painting that frame. The kernel's own
    trait keeps the old value until the browser has painted every frame sent
    (:meth:`commit`, called on the ack that leaves none in flight): set at once, it would
    reach the browser ahead of the frame still on its way. Before any view has said hello
    (and without the live canvas) a value is set at once. ``hold`` is the panel's guard
    against reacting to its own control changes, held while :meth:`commit` sets traits.
    """

    def __init__(self, hold: Callable[[], AbstractContextManager[Any]] | None = None) -> None:
        self.hold = hold
        self.latest: dict[TextKey, tuple[Any, str, Any]] = {}
        """The newest value of each trait said: (widget, trait, value)."""
        self.sent: dict[TextKey, Any] = {}
        """The value of each trait as of the last frame sent."""
        self.live = False
        """Whether a view showed the board (then values travel with frames)."""
        self.unset: set[TextKey] = set()
        """Traits said while live that the kernel's widgets do not hold yet."""

    def say(self, widget: Any, trait: str, value: Any) -> None:
        """``widget.<trait>`` is to show ``value`` from the next frame on."""
        key = (str(widget.model_id), trait)
        self.latest[key] = (widget, trait, value)
        if not self.live:
            self.sent[key] = value
            self._set(widget, trait, value)
        else:
            self.unset.add(key)

    def carry(self, full: bool) -> list[list[Any]]:
        """``[model id, trait, value]`` for a frame about to be sent: the values changed
        since the last frame (every value on a full frame, which may follow lost ones). A
        long text that a diff frame carries goes as its change to the text the frame
        before carried (:func:`text_change`)."""
        out = []
        for key, (_widget, trait, value) in self.latest.items():
            if full or key not in self.sent or self.sent[key] != value:
                before = None if full else self.sent.get(key)
                out.append([key[0], trait, *text_change(before, value)])
                self.sent[key] = value
        return out

    def commit(self) -> None:
        """Set the kernel's traits said since the last commit to what the browser now shows
        (every frame painted; a value the reader typed since is theirs, left alone). The
        browser set them when it painted the frames that carried them: the kernel does not
        send them again (a ruling's text and the x/y fields were about a tenth of a drag's
        bytes toward the browser, sent twice)."""
        for key in sorted(self.unset):
            widget, trait, _value = self.latest[key]
            if key in self.sent and getattr(widget, trait) != self.sent[key]:
                self._set(widget, trait, self.sent[key], shown=True)
        self.unset.clear()

    def _set(self, widget: Any, trait: str, value: Any, shown: bool = False) -> None:
        """``widget.<trait> = value`` under the panel's guard; ``shown``: the browser shows
        ``value`` already, so it is not sent (ipywidgets' own guard against echoing a value
        that came from the browser, its property lock)."""
        with (
            self.hold() if self.hold is not None else nullcontext(),
            _unsent(widget, trait, value, shown),
        ):
            setattr(widget, trait, value)


@contextmanager
def _unsent(widget: Any, trait: str, value: Any, shown: bool) -> Iterator[None]:
    """Within the block, setting ``widget.<trait>`` to ``value`` sends nothing to the
    browser when ``shown`` (and the widget has ipywidgets' property lock)."""
    lock = getattr(widget, "_lock_property", None)
    if not shown or lock is None:
        yield
        return
    to_json = widget.trait_metadata(trait, "to_json", widget._trait_to_json)
    with lock(**{trait: to_json(value, widget)}):
        yield


def _board_canvas_class() -> Any:
    """The widget class (made on first use: anywidget is imported only with a live board)."""
    if _CLASS:
        return _CLASS[0]
    import anywidget
    import traitlets

    folder = Path(__file__).parent

    class BoardCanvas(anywidget.AnyWidget):
        """A canvas showing the kernel's pictures and sending the mouse back (see module)."""

        _esm = (folder / "board_canvas.js").read_text(encoding="utf-8")
        _css = (folder / "board_canvas.css").read_text(encoding="utf-8")
        width = traitlets.Int(0).tag(sync=True)
        height = traitlets.Int(0).tag(sync=True)
        hover = traitlets.Bool(False).tag(sync=True)
        restarted_text = traitlets.Unicode("").tag(sync=True)
        zoomable = traitlets.Bool(False).tag(sync=True)
        tool_labels = traitlets.Dict().tag(sync=True)

    _CLASS.append(BoardCanvas)
    return BoardCanvas


_CLASS: list[Any] = []


def restart_notice(text: str) -> Any:
    """A widget for a panel without a board canvas (the grid panel's PNG picture) that shows
    nothing while the kernel is there and, after a kernel restart, says ``text``
    (``restarted_text``) over its container as the board canvas does over itself. Put it
    in a box with class ``fwwrules-overlaid`` beside the picture. Needs anywidget."""
    if not _NOTICE:
        import anywidget
        import traitlets

        class RestartNotice(anywidget.AnyWidget):
            """Words over a panel's picture once its kernel is gone (see restart_notice)."""

            _esm = (Path(__file__).parent / "restart_notice.js").read_text(encoding="utf-8")
            _css = (Path(__file__).parent / "board_canvas.css").read_text(encoding="utf-8")
            restarted_text = traitlets.Unicode("").tag(sync=True)

        _NOTICE.append(RestartNotice)
    return _NOTICE[0](restarted_text=text)


_NOTICE: list[Any] = []


def live_canvas_available() -> bool:
    """True when the live board canvas can be used (anywidget is installed)."""
    try:
        import anywidget  # noqa: F401
    except ImportError:
        return False
    return True


class BoardLink:
    """One board canvas widget and its frame sender: the view's connection to the browser.

    ``on_input(message)`` gets the browser's pointer messages (``down``, ``move``, ``up``
    with CSS-pixel ``x``, ``y``, and ``button`` 1 for the middle one) and its zoom messages
    (``zoom`` by ``factor`` about ``x``, ``y``; ``fit`` with ``which``: ``table`` or
    ``models``); a zoom is flow-controlled as a move is. ``on_ratio(ratio)`` gets the device
    pixel ratio of a new view before its first frame is drawn.
    """

    def __init__(
        self,
        size_px: tuple[int, int],
        source: Callable[[], Pixels],
        on_input: Callable[[Mapping[str, Any]], None],
        on_ratio: Callable[[float], None],
        *,
        lock: AbstractContextManager[Any] | None = None,
        texts: FrameTexts | None = None,
    ) -> None:
        self.lock = lock if lock is not None else threading.RLock()
        self.widget: Any = _board_canvas_class()(width=size_px[0], height=size_px[1])
        self.sender = FrameSender(source, self._send)
        self.texts = texts if texts is not None else FrameTexts()
        self.sender.texts = self.texts
        self.on_input = on_input
        self.on_ratio = on_ratio
        self._pending: Mapping[str, Any] | None = None
        self.widget.on_msg(self._message)

    def _send(self, content: dict[str, Any], buffers: list[bytes]) -> None:
        self.widget.send(content, buffers=buffers)

    def push(self) -> None:
        self.sender.push()

    def _message(self, widget: Any, content: Mapping[str, Any], buffers: Any) -> None:
        """A message from the browser, handled under the view's lock."""
        with self.lock:
            self._handle(content)

    def _handle(self, content: Mapping[str, Any]) -> None:
        kind = content.get("type")
        if kind == "hello":
            self.texts.live = True
            self.on_ratio(float(content.get("ratio") or 1.0))
            self.sender.hello()
        elif kind == "ack":
            move = content.get("move")
            if isinstance(move, Mapping):  # the latest position: the next frame shows it
                self._pending = move
            self.sender.ack(int(content.get("id", -1)), before=lambda: self._flush(move))
        elif kind == "refresh":
            self.sender.refresh()
        elif kind == "sync":
            s = self.sender
            busy = bool(s.in_flight) or s.dirty
            self._send(
                {"type": "synced", "n": content.get("n"), "last": s.last_id, "busy": busy}, []
            )
        elif kind == "move" and content.get("rest"):
            self._pending = None  # older than the position the mouse rests at
            with self.sender.overtaking():
                self._pointer(content)
        elif kind in ("move", "zoom") and self.sender.in_flight:
            self._pending = content  # drawn when the browser has the frame in flight
        elif kind in ("down", "move", "up", "zoom", "fit"):
            self._flush()
            with self.sender.overtaking(kind == "up"):
                self._pointer(content)

    def _flush(self, mine: Any = None) -> None:
        """Handle the latest move kept while a frame was in flight (if any); one the pointer
        rests at may overtake the frame in flight. ``mine``: the move that came with the
        message being handled (its idle status may answer it: :meth:`_pointer`)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            with self.sender.overtaking(bool(pending.get("rest"))):
                self._pointer(pending, own=pending is mine)

    def _pointer(self, content: Mapping[str, Any], own: bool = True) -> None:
        """A pointer message. A move is answered by the frame it makes or, when it made
        none and none is in flight to answer it, by ``done`` (the browser's next move); a
        ``quiet`` one handled in its own message gets no ``done``: the kernel's idle status
        of that message answers it (board_canvas.js). One kept from an earlier message
        (``own`` False) still gets ``done``: that message's idle status has gone by."""
        self.sender.seq = int(content.get("seq", 0))
        frames = self.sender.stats.frames
        try:
            self.on_input(content)
        finally:
            quiet = self.sender.stats.frames == frames and not self.sender.in_flight
            answered = own and bool(content.get("quiet"))
            if content.get("type") in ("move", "zoom") and quiet and not answered:
                self._send({"type": "done", "seq": self.sender.seq}, [])
