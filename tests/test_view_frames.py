"""The board view's drag frames: the fast PNG encoding, ipympl's diff protocol, and which
artists a drag redraws."""

from __future__ import annotations

import io
from typing import Any

import matplotlib
import numpy as np
import pytest
from fwwrules_widgets import AttackPanel
from fwwrules_widgets.view import diff_image, fast_png
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


@pytest.mark.parametrize("shape", [(1, 1), (7, 3), (54, 78)])
def test_fast_png_decodes_to_the_same_pixels(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(5)
    rgba = rng.integers(0, 256, size=(*shape, 4), dtype=np.uint8)
    assert np.array_equal(decode(fast_png(rgba)), rgba)


def idat(png: bytes) -> bytes:
    """The zlib stream of a one-IDAT PNG, decompressed (zlib checks its Adler-32)."""
    import struct
    import zlib

    at = png.index(b"IDAT")
    (length,) = struct.unpack(">I", png[at - 4 : at])
    return zlib.decompress(png[at + 4 : at + 4 + length])


@pytest.mark.parametrize(
    ("height", "top", "rows"),
    [(40, 10, 5), (40, 0, 40), (40, 0, 3), (40, 37, 3), (40, 20, 0), (5000, 4100, 30), (1, 0, 1)],
)
def test_fast_png_of_a_band_of_rows_is_that_band_on_transparent_black(
    height: int, top: int, rows: int
) -> None:
    rng = np.random.default_rng(height + top + rows)
    band = rng.integers(0, 256, size=(rows, 6, 4), dtype=np.uint8)
    png = fast_png(band, top=top, height=height)
    full = np.zeros((height, 6, 4), dtype=np.uint8)
    full[top : top + rows] = band
    assert np.array_equal(decode(png), full)
    assert len(idat(png)) == height * (6 * 4 + 1)


def test_fast_png_refuses_a_band_outside_the_image() -> None:
    with pytest.raises(ValueError, match="outside"):
        fast_png(np.zeros((3, 2, 4), dtype=np.uint8), top=9, height=10)


def test_fast_png_of_a_mostly_empty_diff_is_small() -> None:
    rgba = np.zeros((540, 780, 4), dtype=np.uint8)
    rgba[100:140, 200:260] = (200, 30, 30, 255)
    png = fast_png(rgba)
    assert len(png) < 20_000  # 1.7 MB of pixels
    assert np.array_equal(decode(png), rgba)


class FakeCanvas:
    """What :func:`diff_image` reads and writes of matplotlib's web canvas."""

    def __init__(self, rgba: np.ndarray[Any, Any]) -> None:
        self.rgba = rgba
        self._png_is_old = True
        self._force_full = True
        self._last_buff = np.empty((0, 0))
        self.modes: list[str] = []

    def get_renderer(self) -> Any:
        return self

    def buffer_rgba(self) -> np.ndarray[Any, Any]:
        return self.rgba

    def set_image_mode(self, mode: str) -> None:
        self.modes.append(mode)


def test_diff_image_sends_a_full_frame_then_only_changed_pixels() -> None:
    rgba = np.full((20, 30, 4), 255, dtype=np.uint8)
    c = FakeCanvas(rgba)
    first = diff_image(c)
    assert first is not None and c.modes == ["full"]
    assert np.array_equal(decode(first), rgba)
    assert diff_image(c) is None  # nothing new drawn
    rgba = rgba.copy()
    rgba[5:8, 10:12] = (10, 20, 30, 255)
    c.rgba, c._png_is_old = rgba, True
    diff = diff_image(c)
    assert diff is not None and c.modes[-1] == "diff"
    got = decode(diff)
    changed = np.zeros((20, 30), dtype=bool)
    changed[5:8, 10:12] = True
    assert np.array_equal(got[changed], rgba[changed])
    assert not got[~changed].any()  # transparent black elsewhere: the browser keeps the rest


def test_diff_image_sends_a_full_frame_when_a_pixel_is_transparent() -> None:
    rgba = np.full((4, 4, 4), 255, dtype=np.uint8)
    c = FakeCanvas(rgba)
    diff_image(c)
    rgba = rgba.copy()
    rgba[0, 0, 3] = 0
    c.rgba, c._png_is_old = rgba, True
    diff_image(c)
    assert c.modes[-1] == "full"


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


def test_dragging_the_target_keeps_the_rings_drawn_in_the_background() -> None:
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=False)  # fmt: skip
    canvas: Any = p.view.figure.canvas
    ax = p.view.ax

    def event(name: str, x: float, y: float) -> None:
        px, py = ax.transData.transform((x, y))
        canvas.callbacks.process(name, MouseEvent(name, canvas, px, py, button=1))

    event("button_press_event", 250.0, 100.0)
    ring = p.artists.bands["short"]
    assert ring.get_visible() and not ring.get_animated()  # in the cached background
    before = bytes(canvas.buffer_rgba())
    event("motion_notify_event", 250.0, 80.0)
    frame = p.view._moving()
    assert p.artists.bases["brute"] in frame and ring not in frame
    assert p.artists.bases["brute"].center == pytest.approx((250.0, 80.0))
    assert bytes(canvas.buffer_rgba()) != before  # the frame shows the move
    event("button_release_event", 250.0, 80.0)
    assert p.view._moving_set is None and not p.artists.bases["brute"].get_animated()


def test_ipympl_drag_sends_one_frame_per_event_and_a_full_frame_on_the_drop() -> None:
    """Two frames in a row let the browser drop the first (its decoding is asynchronous),
    and a dropped diff leaves a ghost: a press, each motion and the drop send one frame
    each, and the drop's frame is a full one."""
    pytest.importorskip("ipympl")
    p = AttackPanel(fwwrules.loads(SCENARIO), attacker="knight", target="brute",
                    interactive=True)  # fmt: skip
    p.widget  # noqa: B018 - makes ipympl's canvas
    canvas: Any = p.view.figure.canvas
    canvas.syncing_data_url = False  # as once a browser has shown the canvas
    frames: list[tuple[str, bytes]] = []
    canvas.send_binary = lambda data: frames.append((canvas._current_image_mode, data))
    ax = p.view.ax

    def event(name: str, x: float, y: float) -> None:
        px, py = ax.transData.transform((x, y))
        MouseEvent(name, canvas, px, py, button=1)._process()

    event("button_press_event", 250.0, 100.0)
    assert len(frames) == 1
    for y in (120.0, 140.0, 160.0):
        event("motion_notify_event", 250.0, y)
    assert len(frames) == 4 and all(mode == "diff" for mode, _ in frames[1:])
    event("button_release_event", 250.0, 160.0)
    assert len(frames) == 5
    mode, png = frames[-1]
    assert mode == "full"
    assert np.array_equal(decode(png), np.asarray(canvas.buffer_rgba()))


def test_png_fallback_is_drawn_at_twice_its_css_size() -> None:
    """Without ipympl the board is a PNG of twice the CSS size shown at the CSS size (sharp
    at a device pixel ratio of 2); the static view's image keeps the CSS width."""
    from fwwrules_widgets.view import PNG_PIXEL_RATIO

    p = AttackPanel(fwwrules.loads(SCENARIO), interactive=False)
    css = int(str(p.view.widget.layout.width).removesuffix("px"))
    assert css == p.view.size_px[0] == 780
    png = decode(bytes(p.view.widget.value))
    assert png.shape[1] == round(css * PNG_PIXEL_RATIO) == 1560
    html = p._repr_mimebundle_()["text/html"]
    assert f"width:{css}px" in html


def test_ipympl_motion_sends_no_cursor_read_out() -> None:
    """The hidden toolbar's "x=… y=…" read-out would cost the kernel a state update after
    every drag frame: a panel's canvas has no motion handler of the toolbar."""
    pytest.importorskip("ipympl")
    p = AttackPanel(fwwrules.loads(SCENARIO), interactive=True)
    p.widget  # noqa: B018 - makes ipympl's canvas
    canvas: Any = p.view.figure.canvas
    assert canvas.toolbar is not None
    handlers = [ref() for ref in canvas.callbacks.callbacks["motion_notify_event"].values()]
    owners = {getattr(h, "__self__", None) for h in handlers}
    assert p.view in owners  # the drag's own handler is there
    assert canvas.toolbar not in owners
