"""The board's frames: which tiles change, what the browser shows whatever the transport
does, flow control, and which artists a drag redraws.

The browser's rules (``widgets/board_canvas.js``) are played by :class:`Browser`: frames apply
in order, whole, and a diff only on the frame it was made for; otherwise it asks for a full
one. The properties drop, delay and reorder frames and check that once the kernel is idle
the browser shows exactly the kernel's picture.
"""

from __future__ import annotations

import io
import random
import threading
import zlib
from collections.abc import Callable
from typing import Any

import matplotlib
import numpy as np
import pytest
from frame_decoder import opened, unpack, words_painted
from fwwrules_widgets import AttackPanel, BoardEditor, MeleePanel, ThreatPanel
from fwwrules_widgets.board_canvas import (
    AS_KEPT,
    AS_SHOWN,
    CHANGE_MIN,
    KEPT_PALETTE,
    MAX_IN_FLIGHT,
    RARE,
    FrameSender,
    changed_rects,
    pack,
    pack_kept,
    pack_mask,
    pack_palette,
    text_change,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.backend_bases import MouseEvent
from PIL import Image

import fwwrules
from fwwrules.draw import moving_artists

matplotlib.use("Agg")

SCENARIO = """
format: fwwrules/scenario@1
title: Drag frames
models:
  - {id: knight, name: Knight, faction: bos, base: 40, at: [50, 100], skills: {rifle: 7},
     weapons: [laser]}
  - {id: brute, name: Brute, faction: mutants, base: 40, at: [250, 100]}
  - {id: dog, faction: mutants, base: 32, at: [250, 300]}
terrain:
  - {id: wall, kind: blocking, rect: {at: [150, 250], size: [20, 200]}}
weapons:
  - {id: laser, type: rifle, short: red, long: green}
"""


def decode(png: bytes) -> np.ndarray[Any, Any]:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGBA"))


def picture(h: int = 40, w: int = 56, seed: int = 1) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    out = rng.integers(0, 256, size=(h, w, 4), dtype=np.uint8)
    out[:, :, 3] = 255
    return out


# --- changed regions ---------------------------------------------------------------------------


def test_changed_rects_cover_what_changed_and_no_rows_between() -> None:
    old = picture(200, 300)
    new = old.copy()
    assert changed_rects(old, new) == []
    assert changed_rects(None, new) == [(0, 0, 300, 200)]
    new[5, 7, 0] ^= 1
    new[190, 290, 1] ^= 1  # far away: a second small rect, not the band between
    rects = changed_rects(old, new)
    assert rects == [(0, 0, 16, 16), (288, 176, 12, 16)]  # the right edge cut to the image
    area = sum(w * h for *_, w, h in rects)
    assert area < 0.01 * 200 * 300


def test_changed_rects_merge_runs_down_the_rows() -> None:
    old = picture(64, 64)
    new = old.copy()
    new[0:40, 16:40, 2] ^= 255  # a block: one rect over three tile rows
    assert changed_rects(old, new) == [(16, 0, 32, 48)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 49), st.integers(0, 70)), min_size=1, max_size=30))
def test_changed_rects_hold_every_changed_pixel(points: list[tuple[int, int]]) -> None:
    old = picture(50, 71)
    new = old.copy()
    for y, x in points:
        new[y, x, 0] ^= 0x5A
    rects = changed_rects(old, new)
    covered = np.zeros((50, 71), dtype=bool)
    for x, y, w, h in rects:
        assert not covered[y : y + h, x : x + w].any()  # no pixel sent twice
        covered[y : y + h, x : x + w] = True
    assert covered[(old != new).any(axis=2)].all()


def test_pack_and_unpack_give_back_the_pixels() -> None:
    new = picture(33, 47)
    rects = changed_rects(None, new)
    frame = {"id": 1, "base": -1, "full": True, "w": 47, "h": 33, "rects": rects}
    assert np.array_equal(unpack((1, 1), [(frame, pack(new, rects, 1))]), new)
    assert len(pack(np.zeros((200, 300, 4), np.uint8), [(0, 0, 300, 200)], 1)) < 1000


def test_a_kept_frame_codes_every_pixel_of_its_tiles_and_gives_back_the_picture() -> None:
    """Codec ``kept``: pixels the pieces leave are the kept picture's, pixels of a piece
    that did not move stay as shown, new pixels get a palette colour or (past the palette's
    253 colours) a rare one; the browser's picture is then exactly the new one."""
    kept = picture(64, 96, seed=2)
    old = kept.copy()
    old[8:24, 8:40] = picture(16, 32, seed=3)  # a piece over the kept picture
    old[40:56, 60:90] = picture(16, 30, seed=4)  # another one, which stays put
    new = kept.copy()
    new[40:56, 60:90] = old[40:56, 60:90]
    new[20:40, 30:60] = picture(20, 30, seed=5)  # the first piece, moved: 600 colours
    rects = changed_rects(old, new)
    payload, colours = pack_kept(old, new, kept, rects, 6)
    raw = np.frombuffer(zlib.decompress(payload), np.uint8)
    total = sum(w * h for *_, w, h in rects)
    codes = raw[3 * colours : 3 * colours + total]
    assert colours == 256 - KEPT_PALETTE and (codes == RARE).sum() > 0
    assert (codes == AS_KEPT).sum() > (codes == AS_SHOWN).sum()
    full = {"id": 1, "base": -1, "full": True, "w": 96, "h": 64, "rects": [(0, 0, 96, 64)]}
    keep = {"rects": [(0, 0, 96, 64)], "colors": pack_mask(old, kept, [(0, 0, 96, 64)], 6)[1]}
    first = {**full, "id": 2, "base": 1, "full": False, "codec": "mask", "keep": keep}
    drag = {**full, "id": 3, "base": 2, "full": False, "codec": "kept", "kept": 2, "rects": rects}
    frames = [
        (full, [pack(old, [(0, 0, 96, 64)], 6)]),
        (
            {**first, "rects": [], "colors": 0},
            [zlib.compress(b""), pack_mask(old, kept, [(0, 0, 96, 64)], 6)[0]],
        ),
        ({**drag, "colors": colours}, [payload]),
    ]
    assert np.array_equal(unpack((1, 1), frames), new)
    still = new.copy()
    still[0:4, 0:4] = picture(4, 4, seed=6)  # a tile where a piece stays put beside a change
    rects = [(0, 0, 96, 64)]
    payload, colours = pack_kept(old, still, kept, rects, 6)
    raw = np.frombuffer(zlib.decompress(payload), np.uint8)
    assert (raw[3 * colours : 3 * colours + 96 * 64] == AS_SHOWN).sum() == 16 * 30
    frames[-1] = ({**drag, "colors": colours, "rects": rects}, [payload])
    assert np.array_equal(unpack((1, 1), frames), still)


# --- the protocol under a transport that drops and reorders ------------------------------------


class Browser:
    """The browser's side of the protocol (board_canvas.js), fed by a lossy transport."""

    def __init__(self, sender: FrameSender, drop: float, seed: int) -> None:
        self.sender = sender
        self.rng = random.Random(seed)
        self.drop = drop
        self.wire: list[tuple[dict[str, Any], list[bytes]]] = []
        self.frames: list[
            tuple[dict[str, Any], list[bytes]]
        ] = []  # the ones that arrived, in order
        self.current = -1
        self.asked = False
        self.kept = -1  # the frame whose base picture the browser keeps

    def deliver(self, content: dict[str, Any], buffers: list[bytes]) -> None:
        self.wire.append((content, list(buffers)))

    def step(self) -> bool:
        """Deliver one frame from the wire (maybe dropped, maybe out of order); False when
        nothing is left."""
        if not self.wire:
            return False
        i = self.rng.randrange(len(self.wire)) if self.rng.random() < 0.3 else 0
        msg, buf = self.wire.pop(i)
        if self.rng.random() < self.drop and not msg["full"]:
            return True  # lost: the kernel hears nothing (no ack)
        if msg["id"] <= self.current:
            return True  # older than the picture shown: dropped
        if not msg["full"] and msg["base"] == self.current and msg.get("keep"):
            self.kept = msg["id"]  # a copy of the picture before this frame is painted
        lost = msg.get("codec") == "kept" and msg["kept"] != self.kept
        if lost or (not msg["full"] and msg["base"] != self.current):
            if not self.asked:
                self.asked = True
                self.sender.refresh()
            return True
        self.frames.append((msg, buf))
        self.current = msg["id"]
        self.asked = False
        self.sender.ack(msg["id"])
        return True

    def shows(self, shape: tuple[int, int]) -> np.ndarray[Any, Any]:
        return unpack(shape, self.frames)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 39), st.integers(0, 55), st.integers(1, 255), st.booleans()),
        max_size=40,
    ),
    st.floats(0.0, 0.5),
    st.integers(0, 10_000),
    st.booleans(),
)
def test_whatever_is_dropped_or_reordered_the_browser_ends_on_the_kernels_picture(
    edits: list[tuple[int, int, int, bool]], drop: float, seed: int, slow: bool
) -> None:
    """Some edits are pictures the mouse rests on (they may overtake the frame in flight);
    now and then a drag starts (the browser keeps a picture, later frames take pixels from
    it)."""
    state = {"pixels": picture()}
    now = [0.0]

    def clock() -> float:  # a slow link: every ack comes a tenth of a second later
        now[0] += 0.1 if slow else 0.0
        return now[0]

    sender = FrameSender(lambda: state["pixels"], lambda c, b: browser.deliver(c, b), clock)
    browser = Browser(sender, drop, seed)
    sender.hello()
    for y, x, value, rest in edits:
        if value % 7 == 0:  # now and then a drag starts: the browser keeps a picture (the
            board = state["pixels"].copy()  # board without the moving piece)
            board[y : y + 4, x : x + 4, 1] = value // 7
            sender.keep(board)
        pixels = state["pixels"].copy()
        pixels[y : y + 3, x : x + 5, 0] = value
        if value % 3 == 0:  # and a piece goes back to how the kept picture has it
            pixels[y : y + 2, x : x + 2, :3] = (
                sender.kept[y : y + 2, x : x + 2, :3]
                if (sender.kept is not None)
                else pixels[y : y + 2, x : x + 2, :3]
            )
        state["pixels"] = pixels
        with sender.overtaking(rest):
            sender.push()
        for _ in range(browser.rng.randrange(3)):
            browser.step()
        assert len(sender.in_flight) <= MAX_IN_FLIGHT
        assert len(browser.wire) <= MAX_IN_FLIGHT + 1  # (plus a refresh's)
    sender.refresh()  # a view's own safety net: a lost frame is never acknowledged
    while browser.step():
        pass
    assert np.array_equal(browser.shows((40, 56)), state["pixels"])


def test_nothing_is_sent_before_hello_and_one_frame_is_in_flight() -> None:
    sent: list[dict[str, Any]] = []
    state = {"pixels": picture()}
    sender = FrameSender(lambda: state["pixels"], lambda c, b: sent.append(c))
    sender.push()
    assert sent == []  # no picture (raw or not) before the browser is there
    sender.hello()
    assert [m["full"] for m in sent] == [True]
    for v in (1, 2, 3):
        state["pixels"] = state["pixels"].copy()
        state["pixels"][0, 0, 0] = v
        sender.push()
    assert len(sent) == 1 and sender.dirty  # waiting for the ack
    sender.ack(sent[-1]["id"])
    assert len(sent) == 2 and sent[-1]["base"] == sent[0]["id"] and not sent[-1]["full"]
    sender.ack(sent[-1]["id"])
    sender.push()
    assert len(sent) == 2  # nothing changed: nothing sent


def test_the_picture_the_mouse_rests_on_overtakes_one_frame_in_flight_never_two() -> None:
    sent: list[tuple[dict[str, Any], list[bytes]]] = []
    state = {"pixels": picture()}
    sender = FrameSender(lambda: state["pixels"], lambda c, b: sent.append((c, list(b))))
    sender.hello()

    def change(v: int, overtake: bool) -> None:
        state["pixels"] = state["pixels"].copy()
        state["pixels"][v, v, 0] = v
        with sender.overtaking(overtake):
            sender.push()

    change(1, overtake=False)
    assert len(sent) == 1 and sender.dirty  # one in flight: a moving picture waits
    change(2, overtake=True)
    assert len(sent) == 2 and not sender.dirty and sent[1][0]["base"] == sent[0][0]["id"]
    change(3, overtake=True)
    assert len(sent) == 2 and sender.dirty  # never a third in flight
    assert not sender.overtake  # only within the block
    sender.ack(sent[0][0]["id"])
    assert len(sent) == 2  # the second still in flight: the third waits for its ack
    sender.ack(sent[1][0]["id"])
    assert len(sent) == 3 and sender.in_flight == [sent[2][0]["id"]]
    sender.ack(sent[2][0]["id"])
    assert np.array_equal(unpack((1, 1), sent), state["pixels"])


def test_an_ack_acknowledges_every_frame_before_it() -> None:
    sent: list[dict[str, Any]] = []
    state = {"pixels": picture()}
    sender = FrameSender(lambda: state["pixels"], lambda c, b: sent.append(c))
    sender.hello()
    state["pixels"] = state["pixels"].copy()
    state["pixels"][0, 0, 0] = 9
    with sender.overtaking():
        sender.push()
    assert sender.in_flight == [1, 2]
    sender.ack(2)  # frames apply in order: frame 1 was painted too
    assert sender.in_flight == []
    sender.ack(1)  # a late or repeated ack changes nothing
    assert sender.in_flight == [] and not sender.dirty


def test_a_slow_link_gets_harder_compression() -> None:
    now = [0.0]
    sent: list[tuple[dict[str, Any], list[bytes]]] = []
    state = {"pixels": np.zeros((64, 64, 4), np.uint8) + 255}
    sender = FrameSender(lambda: state["pixels"], lambda c, b: sent.append((c, list(b))),
                         clock=lambda: now[0])  # fmt: skip
    sender.hello()
    now[0] += 0.2  # the ack takes a fifth of a second
    sender.ack(sent[-1][0]["id"])
    assert sender.slow
    state["pixels"] = picture(64, 64)
    sender.push()
    assert zlib.decompress(sent[-1][1][0])  # a valid stream, whatever the level
    assert sent[-1][0]["base"] == sent[0][0]["id"]
    assert sent[-1][0]["codec"] == "mask"  # only the changed pixels, on their base
    assert np.array_equal(unpack((1, 1), sent), state["pixels"])


def test_a_mask_frame_carries_only_the_changed_pixels() -> None:
    old = picture(48, 64)
    new = old.copy()
    new[5:9, 3:30, :3] = 7  # a thin change inside three tiles
    rects = changed_rects(old, new)
    masked, colours = pack_mask(old, new, rects, 9)
    assert len(masked) < len(pack_palette(new, rects, 9)[0])
    whole = [(0, 0, 64, 48)]
    first = {"id": 1, "base": -1, "full": True, "w": 64, "h": 48, "rects": whole}
    diff = {"id": 2, "base": 1, "full": False, "w": 64, "h": 48, "rects": rects,
            "codec": "mask", "colors": colours}  # fmt: skip
    assert np.array_equal(unpack((1, 1), [(first, pack(old, whole, 1)), (diff, masked)]), new)


# --- the panels' drags through the live canvas ----------------------------------------------


def live_panel() -> tuple[AttackPanel, list[tuple[dict[str, Any], list[bytes]]]]:
    pytest.importorskip("anywidget")
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=True)  # fmt: skip
    link = p.view.widget and p.view.link
    assert link is not None
    # the "how close" line's answers come in frames of their own at any time: these tests
    # count frames, so it is answered first and then off (tests/test_how_close.py tests it)
    assert p.how_close.wait()
    p.how_close.enabled = False
    sent: list[tuple[dict[str, Any], list[bytes]]] = []
    link._send = lambda c, b: sent.append((c, list(b)))  # type: ignore[method-assign]
    link.sender._send = link._send
    return p, sent


def css(p: AttackPanel, x: float, y: float) -> tuple[float, float]:
    px, py = p.view.ax.transData.transform((x, y))
    return px / p.view.ratio, (p.view.figure.bbox.height - py) / p.view.ratio


def test_a_fast_drag_ends_on_exactly_the_full_render_with_one_frame_in_flight() -> None:
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    assert sent == []  # made, not yet shown: nothing sent
    link._message(None, {"type": "hello", "ratio": 2.0}, [])
    assert p.view.ratio == 2.0 and sent[-1][0]["full"] and sent[-1][0]["w"] == 1560
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    for i in range(40):  # the browser never acknowledges: no new frame goes out, and the
        move = {"type": "move", "x": x + i, "y": y - i, "buttons": 1, "seq": i + 2}
        link._message(None, move, [])  # kernel keeps only the latest move (no rulings)
    assert len(sent) == 1 and link._pending == move and p.ruling is not None
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    assert len(sent) == 2 and not sent[-1][0]["full"]  # the latest state, as a diff
    assert len(sent[-1][1][0]) < 40_000
    link._message(None, {"type": "up", "x": x + 60, "y": y, "buttons": 0, "seq": 43}, [])
    assert len(sent) == 3  # the release overtakes the frame in flight
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    shown = unpack((1, 1), sent)
    canvas: Any = p.view.figure.canvas
    canvas.draw()  # the kernel's own full render
    assert np.array_equal(shown, np.asarray(canvas.buffer_rgba()))
    title = p.artists.title.get_text()
    assert ("may attack" in title) == (p.ruling is not None and p.ruling.allowed)


def test_the_position_the_mouse_rests_at_is_drawn_at_once_with_a_frame_in_flight() -> None:
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    link._message(None, {"type": "move", "x": x + 5, "y": y, "buttons": 1, "seq": 2}, [])
    frames = len(sent)
    link._message(None, {"type": "move", "x": x + 9, "y": y, "buttons": 1, "seq": 3}, [])
    assert len(sent) == frames and link._pending is not None  # kept: a frame is in flight
    rest = {"type": "move", "x": x + 30, "y": y - 20, "buttons": 1, "seq": 4, "rest": True}
    link._message(None, rest, [])
    assert len(sent) == frames + 1 and sent[-1][0]["seq"] == 4  # drawn and sent at once
    assert link._pending is None  # the older position is dropped, never drawn after it
    assert len(link.sender.in_flight) == 2
    for msg, _ in sent[-2:]:
        link._message(None, {"type": "ack", "id": msg["id"]}, [])
    assert not link.sender.in_flight and not link.sender.dirty
    link._message(None, {"type": "up", "x": x + 30, "y": y - 20, "buttons": 0, "seq": 5}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    canvas: Any = p.view.figure.canvas
    canvas.draw()
    assert np.array_equal(unpack((1, 1), sent), np.asarray(canvas.buffer_rgba()))


@pytest.mark.parametrize("rest", [False, True])
def test_a_position_riding_on_an_ack_overtakes_only_when_the_pointer_rests(rest: bool) -> None:
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    link._message(None, {"type": "move", "x": x + 5, "y": y, "buttons": 1, "seq": 2}, [])
    first = sent[-1][0]["id"]
    still = {"type": "move", "x": x + 9, "y": y, "buttons": 1, "seq": 3, "rest": True}
    link._message(None, still, [])  # a pause mid-drag: a second frame in flight
    assert len(link.sender.in_flight) == 2
    frames = len(sent)
    move = {"type": "move", "x": x + 30, "y": y, "buttons": 1, "seq": 4, "rest": rest}
    link._message(None, {"type": "ack", "id": first, "move": move}, [])
    assert len(sent) == frames + rest  # drawn at once only when the pointer rests there
    assert len(link.sender.in_flight) == (2 if rest else 1) and link.sender.dirty != rest
    while link.sender.in_flight:  # the browser paints what comes
        link._message(None, {"type": "ack", "id": link.sender.in_flight[0]}, [])
    assert sent[-1][0]["seq"] == 4 and not link.sender.dirty


def mouse_panel() -> tuple[AttackPanel, Any, Callable[[str, float, float], None]]:
    """A still panel, its canvas and ``event(name, x, y)``: a mouse event at board point
    (x, y) handed to the canvas as matplotlib would."""
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=False)  # fmt: skip
    canvas: Any = p.view.figure.canvas

    def event(name: str, x: float, y: float) -> None:
        px, py = p.view.ax.transData.transform((x, y))
        canvas.callbacks.process(name, MouseEvent(name, canvas, px, py, button=1))

    return p, canvas, event


def test_the_title_changes_with_a_drag() -> None:
    """The title states the ruling: once a drag changes it, the blit background is drawn
    again with the old title wiped and the new one in it, so a picture never says "may
    attack" over a text that says it may not; an unchanged title costs a motion nothing
    (it is never among the artists drawn on every motion). New words are drawn crisp while
    the drag lasts, as the moving labels (a tenth to a third fewer bytes in a frame that
    changes them), and smooth on the drop."""
    p, canvas, event = mouse_panel()
    title = p.artists.title
    before = title.get_text()
    event("button_press_event", 250.0, 100.0)
    background = p.view._background
    event("motion_notify_event", 250.0, 110.0)
    assert title.get_text() == before and title not in (p.view._moving_set or [])
    assert p.view._background is background  # nothing to draw again
    event("motion_notify_event", 250.0, 250.0)  # behind the wall: the ruling changes
    assert title.get_text() != before and title not in (p.view._moving_set or [])
    assert p.view._background is not background  # drawn into a new background
    box = title.get_window_extent()
    rows = slice(int(canvas.get_width_height(physical=True)[1] - box.y1) - 3, None)
    frame = np.asarray(canvas.buffer_rgba())[rows][: int(box.height) + 6].copy()
    event("button_release_event", 250.0, 250.0)  # a full draw, same title
    assert title.get_antialiased()  # the drop: smooth again
    title.set_antialiased(False)
    canvas.draw()
    crisp = np.asarray(canvas.buffer_rgba())[rows][: int(box.height) + 6].copy()
    title.set_antialiased(True)
    canvas.draw()
    full = np.asarray(canvas.buffer_rgba())[rows][: int(box.height) + 6]
    assert np.array_equal(frame, crisp) and not np.array_equal(frame, full)


def test_a_title_back_at_the_presss_words_is_drawn_smooth_as_the_kept_picture_has_it() -> None:
    """A title that a drag changes and changes back says again what the kept picture (the
    board at the press, which the browser holds) says: it is drawn smooth, as there, so its
    pixels are "as kept" in the frame instead of a crisp copy coded pixel by pixel."""
    p, _canvas, event = mouse_panel()
    title = p.artists.title
    before = title.get_text()
    event("button_press_event", 250.0, 100.0)
    event("motion_notify_event", 250.0, 250.0)  # behind the wall: crisp new words
    assert title.get_text() != before and not title.get_antialiased()
    event("motion_notify_event", 250.0, 100.0)  # back: the press's words, smooth
    assert title.get_text() == before and title.get_antialiased()
    event("button_release_event", 250.0, 100.0)


def test_a_drag_of_the_target_leaves_the_range_rings_in_the_background() -> None:
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=False)  # fmt: skip
    art = p.artists
    rings = [*art.bands.values(), *art.band_labels.values()]
    assert art.bands["short"].get_visible()
    dragged = moving_artists(art, "brute", drag=True)
    assert art.bases["brute"] in dragged and not any(r in dragged for r in rings)
    # dragging the attacker moves the rings; a control change (no drag) redraws them too
    assert all(r in moving_artists(art, "knight", drag=True) for r in rings)
    assert all(r in moving_artists(art, "brute") for r in rings)


def test_a_drag_leaves_the_leader_lines_in_the_background_unless_one_is_the_dragged_bases() -> None:
    """A drag places no labels: it only hides the moved base's own leaders, so the others
    stay in the cached background (one artist fewer to draw on each motion)."""
    from fwwrules.draw.labels import set_leaders

    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=False)  # fmt: skip
    art = p.artists
    assert art.leaders is not None
    set_leaders(art, [(art.labels["dog"], (10.0, 10.0, 40.0, 40.0))])  # the dog's name led
    assert art.leaders.get_visible()
    assert art.leaders not in moving_artists(art, "brute", drag=True)
    assert art.leaders in moving_artists(art, "dog", drag=True)  # its leader goes on the move
    assert art.leaders in moving_artists(art, "brute")  # a control change places labels anew


def test_dragging_the_target_keeps_the_rings_drawn_in_the_background() -> None:
    p, canvas, event = mouse_panel()
    event("button_press_event", 250.0, 100.0)
    ring = p.artists.bands["short"]
    assert ring.get_visible() and not ring.get_animated()  # in the cached background
    before = bytes(canvas.buffer_rgba())
    event("motion_notify_event", 250.0, 80.0)
    frame = p.view._moving_set or []
    assert p.artists.bases["brute"] in frame and ring not in frame
    assert p.artists.bases["brute"].center == pytest.approx((250.0, 80.0))
    assert bytes(canvas.buffer_rgba()) != before  # the frame shows the move
    event("button_release_event", 250.0, 80.0)
    assert p.view._moving_set is None and not p.artists.bases["brute"].get_animated()


def test_png_fallback_is_drawn_at_twice_its_css_size() -> None:
    """Without the live canvas the board is a PNG of twice the CSS size shown at the CSS size (sharp
    at a device pixel ratio of 2); the static view's image keeps the CSS width."""
    from fwwrules_widgets.view import PNG_PIXEL_RATIO

    p = AttackPanel(fwwrules.loads(SCENARIO), interactive=False)
    css = int(str(p.view.widget.layout.width).removesuffix("px"))
    assert css == p.view.size_px[0] == 780
    png = decode(bytes(p.view.widget.value))
    assert png.shape[1] == round(css * PNG_PIXEL_RATIO) == 1560
    html = p._repr_mimebundle_()["text/html"]
    assert f"width:{css}px" in html


def _held_elsewhere(lock: Any) -> bool:
    """Whether ``lock`` is held by some thread (asked from a thread of its own)."""
    free: list[bool] = []

    def probe() -> None:
        got = lock.acquire(blocking=False)
        free.append(got)
        if got:
            lock.release()

    t = threading.Thread(target=probe)
    t.start()
    t.join()
    return not free[0]


@pytest.mark.parametrize("kind", ["attack", "melee", "threat", "editor"])
def test_the_static_picture_is_drawn_holding_the_boards_lock(
    kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A panel's saved picture (its display bundle for static views) is drawn on the live
    figure's canvas: the board's frames may be sent from another thread meanwhile (the mouse
    on a kernel subshell, a "how close" answer), and a frame read from a half-drawn canvas
    leaves the browser a picture the kernel believes it has not (labels and title missing
    for good). So the picture is drawn only while holding the board view's lock."""
    import fwwrules_widgets.editor as editor_module
    import fwwrules_widgets.view as view_module

    s = fwwrules.loads(SCENARIO)
    made = {
        "attack": lambda: AttackPanel(s, interactive=True),
        "melee": lambda: MeleePanel(s, interactive=True),
        "threat": lambda: ThreatPanel(s, "bos", interactive=True, step=20.0),
        "editor": lambda: BoardEditor(s, interactive=True),
    }
    panel = made[kind]()
    held: list[bool] = []
    module = editor_module if kind == "editor" else view_module
    draw = module.png_bytes if kind == "editor" else module.static_png
    monkeypatch.setattr(
        module,
        "png_bytes" if kind == "editor" else "static_png",
        lambda figure: (held.append(_held_elsewhere(panel.view.lock)), draw(figure))[1],
    )
    panel._repr_mimebundle_()
    assert held == [True]


# --- words beside the board travel with the frames -----------------------------------------


def texts_of(sent: list[tuple[dict[str, Any], list[bytes]]], *widgets: Any) -> dict[str, Any]:
    """The values the last frame of ``sent`` (fields and buffers, in order) sets for
    ``widgets`` when the browser paints it, by model id."""
    ids = {w.model_id for w in widgets}
    return {k: v for k, v in words_painted(sent)[-1].items() if k in ids}


def test_the_ruling_and_the_fields_change_with_the_frame_drawn_from_their_position() -> None:
    """A drag's frame carries the ruling's text and the dragged model's x/y; the kernel's own
    widgets keep what the browser shows until it has painted every frame sent (a value set
    at once would reach the browser ahead of the frame still on its way)."""
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    full = sent[-1][0]
    assert texts_of(sent, p.html, p.x, p.y) == {
        p.html.model_id: p.html.value,
        p.x.model_id: p.x.value,
        p.y.model_id: p.y.value,
    }  # a full frame carries every word: it may follow lost frames
    link._message(None, {"type": "ack", "id": full["id"]}, [])
    before = p.html.value
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    link._message(None, {"type": "move", "x": x, "y": y + 150, "buttons": 1, "seq": 2}, [])
    frame = sent[-1][0]
    words = texts_of(sent, p.html, p.x, p.y)
    at = p.scenario.model("brute").at
    assert words[p.y.model_id] == at[1] != 100.0  # mid-drag, the fields say where it is
    assert words.get(p.x.model_id, 250.0) == at[0]  # (only what changed travels)
    assert words[p.html.model_id] != before  # behind the wall now: another ruling
    assert p.html.value == before and p.y.value == 100.0  # not yet: the frame is in flight
    link._message(None, {"type": "ack", "id": frame["id"]}, [])
    assert p.html.value == words[p.html.model_id] and (p.x.value, p.y.value) == at


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\u2033\U0001f600 <>", max_size=300),
       st.text(alphabet="ab\u2033\U0001f600 <>", max_size=300))  # fmt: skip
def test_a_long_text_travels_as_its_change_and_the_browser_rebuilds_it(
    before: str, value: str
) -> None:
    """A long text goes as the middle that changed and how many UTF-16 units (JavaScript's
    string length: an emoji is two) to keep on either side of it; short ones whole."""
    change = text_change(before, value)
    if len(value) < CHANGE_MIN:
        assert change == [value]
        return
    middle, (keep, tail) = change
    units = before.encode("utf-16-le")
    rebuilt = (
        units[: 2 * keep].decode("utf-16-le")
        + middle
        + units[len(units) - 2 * tail :].decode("utf-16-le")
    )
    assert rebuilt == value
    assert text_change(None, value) == [value]  # a full frame: whole


def test_a_drag_carries_the_rulings_change_not_the_whole_text() -> None:
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    for i in range(2, 6):
        link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
        link._message(None, {"type": "move", "x": x - 8 * i, "y": y, "buttons": 1, "seq": i}, [])
    changes = [
        t
        for msg, buffers in sent
        for t in opened(msg, buffers[0])[0]["texts"]
        if t[0] == p.html.model_id and not msg["full"]
    ]
    assert changes and all(len(t) == 4 and len(t[2]) < len(p.html.value) / 2 for t in changes)
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    assert words_painted(sent)[-1][p.html.model_id] == p.html.value  # rebuilt: the same words


def test_a_quiet_move_that_draws_nothing_is_answered_by_its_idle_status_not_done() -> None:
    """A move that changes nothing gets ``done`` (the browser's next move may go), unless the
    view marked it ``quiet`` (it reads the kernel's idle status of its own message): then
    nothing. A quiet move kept while a frame was in flight and drawn on an ack without a
    move still gets ``done``: the idle status of the message that brought it has gone by."""
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    x, y = css(p, 250.0, 100.0)
    y1, y2, y3 = (css(p, 250.0, mm)[1] for mm in (130.0, 160.0, 190.0))
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])

    def kinds(after: int) -> list[str]:
        return [m["type"] for m, _ in sent[after:]]

    link._message(None, {"type": "move", "x": x, "y": y1, "buttons": 1, "seq": 2}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    n = len(sent)
    link._message(None, {"type": "move", "x": x, "y": y1, "buttons": 1, "seq": 3}, [])
    assert kinds(n) == ["done"]  # nothing moved
    n = len(sent)
    still = {"type": "move", "x": x, "y": y1, "buttons": 1, "seq": 4, "quiet": 1}
    link._message(None, still, [])
    assert kinds(n) == []  # its idle status answers it
    link._message(None, {"type": "move", "x": x, "y": y2, "buttons": 1, "seq": 5}, [])
    assert kinds(n) == ["frame"]
    n = len(sent)
    kept = {"type": "move", "x": x, "y": y2, "buttons": 1, "seq": 6, "quiet": 1}
    link._message(None, kept, [])  # kept: a frame is in flight
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    assert kinds(n) == ["done"]  # drawn on an ack that did not bring it: nothing changed
    n = len(sent)
    link._message(None, {"type": "move", "x": x, "y": y3, "buttons": 1, "seq": 7}, [])
    riding = {"type": "move", "x": x, "y": y3, "buttons": 1, "seq": 8, "quiet": 1}
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"], "move": riding}, [])
    assert kinds(n) == ["frame"]  # the frame of seq 7; seq 8 (on its ack) drew nothing


class RecordingComm:
    """A widget's comm to a browser that records the state the kernel sends."""

    kernel = True

    def __init__(self, comm_id: str) -> None:
        self.comm_id = comm_id  # the widget's model id stays
        self.sent: list[dict[str, Any]] = []

    def on_msg(self, callback: Any) -> None:
        pass

    def send(self, data: dict[str, Any], buffers: Any = None) -> None:
        self.sent.append(data)


def test_the_kernels_widgets_take_the_words_without_sending_them_again() -> None:
    """Once the browser painted the frames that carried a ruling and the x/y fields, the
    kernel's widgets take those values without sending them back (the browser set them);
    a value the kernel sets itself is still sent."""
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    comms = {w.model_id: RecordingComm(w.model_id) for w in (p.html, p.x, p.y)}
    for w in (p.html, p.x, p.y):
        w.comm = comms[w.model_id]
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    link._message(None, {"type": "move", "x": x, "y": y + 150, "buttons": 1, "seq": 2}, [])
    words = texts_of(sent, p.html, p.x, p.y)
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    assert p.html.value == words[p.html.model_id] and p.y.value == words[p.y.model_id]
    assert all(not c.sent for c in comms.values())  # the browser has them: nothing sent
    p.x.value = 123.0  # the kernel's own change goes to the browser as before
    assert [m["state"] for m in comms[p.x.model_id].sent if m.get("method") == "update"]


def test_words_that_change_without_the_picture_go_in_a_frame_of_their_own() -> None:
    p, sent = live_panel()
    link = p.view.link
    assert link is not None
    link._message(None, {"type": "hello", "ratio": 1.0}, [])
    link._message(None, {"type": "ack", "id": sent[-1][0]["id"]}, [])
    p.model.value = "dog"  # the fields show the dog's position; the board stays as it is
    msg, payload = sent[-1]
    head, pixels = opened(msg, payload[0])
    assert head["rects"] == [] and not msg["full"] and pixels == b""
    assert texts_of(sent, p.x, p.y) == {p.y.model_id: 300.0}  # x stays 250: only y travels
    link._message(None, {"type": "ack", "id": msg["id"]}, [])
    assert (p.x.value, p.y.value) == (250.0, 300.0)
    assert np.array_equal(unpack((1, 1), sent), np.asarray(p.view.figure.canvas.buffer_rgba()))


def test_without_a_view_the_words_are_set_at_once() -> None:
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=False)  # fmt: skip
    p.move("brute", 250.0, 250.0)
    assert (p.x.value, p.y.value) == (250.0, 250.0) and "blocked" in p.html.value.lower()


def test_a_drag_takes_what_its_pieces_leave_behind_from_the_kept_picture() -> None:
    """At the press the browser keeps the picture it has; the drag's diff frames say which
    pixels are as in that picture (codec ``kept``): fewer bytes than the mask codec, and
    the drop is still exactly the full render."""
    p, _ = live_panel()
    link = p.view.link
    assert link is not None
    sent: list[tuple[dict[str, Any], list[bytes]]] = []

    def send(content: dict[str, Any], buffers: list[bytes]) -> None:
        if content["type"] == "frame":  # painted and acknowledged at once
            sent.append((content, list(buffers)))
            link._message(None, {"type": "ack", "id": content["id"]}, [])

    link._send = link.sender._send = send  # type: ignore[method-assign]
    link._message(None, {"type": "hello", "ratio": 2.0}, [])
    x, y = css(p, 250.0, 100.0)
    link._message(None, {"type": "down", "x": x, "y": y, "buttons": 1, "seq": 1}, [])
    for i in range(2, 8):
        link._message(None, {"type": "move", "x": x, "y": y + 12 * i, "buttons": 1}, [])
    drag = [(m, b) for m, b in sent if m.get("codec") == "kept"]
    assert drag and drag[0][0].get("keep") and all(m["kept"] == drag[0][0]["id"] for m, _ in drag)
    old, new = unpack((1, 1), sent[:-1]), unpack((1, 1), sent)
    head, pixels = opened(sent[-1][0], sent[-1][1][0])
    rects = [tuple(r) for r in head["rects"]]
    kept = link.sender.kept
    assert kept is not None
    assert pixels == zlib.decompress(pack_kept(old, new, kept, rects, 6)[0])
    assert len(pack_kept(old, new, kept, rects, 6)[0]) < len(pack_mask(old, new, rects, 6)[0])
    link._message(None, {"type": "up", "x": x, "y": y + 90, "buttons": 0, "seq": 9}, [])
    canvas: Any = p.view.figure.canvas
    canvas.draw()
    assert np.array_equal(unpack((1, 1), sent), np.asarray(canvas.buffer_rgba()))
