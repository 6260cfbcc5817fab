"""Laying out a picture so that nothing is cut: title, board, legends, key and caption.

A board picture is a figure of fixed size with one Axes (the board) and, around it:

* the **title** above the board, wrapped to the width it has (every language);
* a **column** on the right, :data:`COLUMN_WIDTH` of the figure wide, holding the legends
  (the board's, then a threat map's) and the numbered **key** of the labels that found no
  place on the board (:mod:`fwwrules.draw.labels`); every legend entry is wrapped to the
  column's width;
* a **caption** in the lower right corner (the ruleset the picture shows).

:func:`fit_layout` measures all of these with the figure's renderer (no drawing, no file)
and moves the board's Axes so that every one of them lies inside the figure with
:data:`PAD_PT` to spare: the Axes keeps the room the tick labels and axis labels need on the
left and below, the title's lines above. When the column cannot hold the key under the
legends, the key moves below the board, in as many columns as fit the figure's width; when
even the legends alone are taller than the figure, the figure grows (a last resort: no
shipped board and no board of the benchmark needs it).

Everything is measured in display pixels at the figure's dpi and set in figure fractions and
points, so the same picture at another resolution (an export at twice the size) is the same
layout.

Boundary cases: a word longer than the room is never broken (it is the only word of its line;
the column then holds it only if it fits); a figure without a renderer (no canvas that can
draw) is left as it is; texts that are empty or hidden take no room.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.legend import Legend
from matplotlib.lines import Line2D
from matplotlib.text import Text
from matplotlib.transforms import Bbox

PAD_PT = 4.0
"""Room kept free at every edge of the figure, in points."""
GAP_PT = 8.0
"""Room between the board and the column, and between two blocks of the column."""
COLUMN_WIDTH = 0.27
"""The right-hand column's width, as a fraction of the figure's width."""
KEY_GID = "fwwrules:key"
"""The gid of the numbered labels' key (a :class:`~matplotlib.legend.Legend` without
handles, made by :func:`show_key`) in the column; ``KEY_BELOW_GID`` below the board."""
KEY_BELOW_GID = "fwwrules:key-below"
CAPTION_GID = "fwwrules:caption"
FIXED_SIZE = "fwwrules:fixed-size"
"""The gid of a figure that must keep its size (a panel's canvas; also
:data:`fwwrules.draw.board.FIXED_SIZE_GID`)."""
"""The gid of the caption text (lower right corner)."""


def renderer_of(fig: Figure) -> Any:
    """The figure's renderer, or None when its canvas cannot draw."""
    get = getattr(fig.canvas, "get_renderer", None)
    return None if get is None else get()


# --- wrapping ----------------------------------------------------------------------------------


WIDTH_SLACK_PX = 1.5
"""Added to a width summed from the glyphs' advances (:func:`text_width`), in display pixels
at 100 dpi (scaled with the dpi): the most a line as matplotlib lays it out (with HarfBuzz)
was found wider than the sum, over thousands of random lines of Latin, German and the
drawing's symbols at 72 to 200 dpi, was 1.3 px at 200 dpi."""


class _Advances:
    """The hinted advance of each glyph of one font at one size and resolution, looked up
    once (FreeType), and the font's kerning: a line's width without laying it out."""

    def __init__(self, path: str, size: float, dpi: float) -> None:
        from matplotlib.backends.backend_agg import get_hinting_flag
        from matplotlib.font_manager import get_font

        self.font = get_font(path)
        self.size, self.dpi = size, dpi
        self.flags = get_hinting_flag()  # type: ignore[no-untyped-call]
        self.glyphs: dict[str, tuple[float, Any]] = {}

    def width(self, text: str) -> float | None:
        """The sum of the advances and kernings of ``text``'s glyphs in pixels, or None
        when the font lacks one of them (another font would set it)."""
        from matplotlib.ft2font import Kerning

        font = self.font
        font.set_size(self.size, self.dpi)
        total = 0.0
        prev: Any = None
        for ch in text:
            glyph = self.glyphs.get(ch)
            if glyph is None:
                index = font.get_char_index(ord(ch))
                if index == 0:
                    return None
                advance = font.load_char(ord(ch), flags=self.flags).horiAdvance / 64.0
                glyph = self.glyphs[ch] = (advance, index)
            total += glyph[0]
            if prev is not None:
                total += font.get_kerning(prev, glyph[1], Kerning.DEFAULT) / 64.0
            prev = glyph[1]
        return total


@functools.lru_cache(maxsize=32)
def _advances(path: str, size: float, dpi: float) -> _Advances:
    return _Advances(path, size, dpi)


MEASURES_KEPT = 4096
"""How many text measures :class:`Measures` keeps before it starts afresh (a few hundred
bytes each): far more than the distinct labels and titles of the boards open at once."""


def font_key(t: Text) -> tuple[Any, ...]:
    """Everything of ``t``'s font a measure of its text depends on, as a hashable value
    (a :class:`~matplotlib.font_manager.FontProperties` can change after it is hashed)."""
    p = t.get_fontproperties()
    return (
        tuple(p.get_family()),
        p.get_style(),
        p.get_variant(),
        p.get_weight(),
        p.get_stretch(),
        float(p.get_size_in_points()),
        p.get_file(),
        p.get_math_fontfamily(),
        t.get_linespacing(),
    )


def renderer_key(renderer: Any) -> tuple[str, float]:
    """The kind of renderer and its resolution: a text measured by one renderer measures the
    same by another of the same kind and dpi."""
    return (type(renderer).__name__, float(getattr(renderer, "dpi", 0.0)))


class Measures:
    """Text measures kept across drawings, keyed by what they depend on (the text, its font
    and box, the renderer's kind and dpi): a drag redraws the same labels and titles many
    times a second, and measuring them again gives the same pixels. Holds at most
    :data:`MEASURES_KEPT` entries; when full it starts afresh."""

    def __init__(self) -> None:
        self._kept: dict[tuple[Any, ...], Any] = {}

    def get(self, key: tuple[Any, ...], measure: Callable[..., Any], *args: Any) -> Any:
        """The measure kept under ``key``, or ``measure(*args)`` kept under it."""
        kept = self._kept.get(key, self)
        if kept is self:
            if len(self._kept) >= MEASURES_KEPT:
                self._kept.clear()
            kept = self._kept[key] = measure(*args)
        return kept


_TITLES = Measures()
_WRAPS = Measures()


def text_width(text: str, like: Text, renderer: Any) -> float:
    """Width in display pixels of one line ``text`` set in ``like``'s font: the sum of its
    glyphs' hinted advances and kernings plus :data:`WIDTH_SLACK_PX`, so never less than
    matplotlib's own measure and at most a few pixels more (no FreeType layout per line: a
    board's key and legends wrap hundreds of lines). A text the font cannot set alone (a
    glyph it lacks, mathtext) is measured through a Text, as drawn."""
    from matplotlib.font_manager import findfont

    prop = like.get_fontproperties()
    dpi = float(getattr(renderer, "dpi", 0.0))
    if dpi and "$" not in text:
        advances = _advances(findfont(prop), float(prop.get_size_in_points()), dpi)
        width = advances.width(text)
        if width is not None:
            return width + WIDTH_SLACK_PX * dpi / 100.0 if text else 0.0
    probe = Text(text=text, fontproperties=prop, parse_math=False)
    fig = like.get_figure(root=True)
    if fig is not None:
        probe.set_figure(fig)
    return float(probe.get_window_extent(renderer).width)


def wrap(text: str, width: float, like: Text, renderer: Any) -> str:
    """``text`` with its spaces turned into line breaks where a line would be wider than
    ``width`` pixels (each line of ``text`` is wrapped on its own; words are never split).

    Only spaces become breaks, so ``wrap(...).replace("\\n", " ")`` gives back a one-line
    ``text``. A line that fits is measured once; a longer one word by word; a text wrapped
    before in the same font, width and renderer is not measured again (:class:`Measures`).
    """
    key = (text, float(width), font_key(like), renderer_key(renderer))
    return str(_WRAPS.get(key, _wrap, text, width, like, renderer))


def _wrap(text: str, width: float, like: Text, renderer: Any) -> str:
    out: list[str] = []
    for para in text.split("\n"):
        if text_width(para, like, renderer) <= width:
            out.append(para)
            continue
        words = para.split(" ")
        line = words[0]
        for word in words[1:]:
            candidate = f"{line} {word}"
            if text_width(candidate, like, renderer) <= width:
                line = candidate
            else:
                out.append(line)
                line = word
        out.append(line)
    return "\n".join(out)


def unwrapped(t: Text) -> str:
    """A legend or key entry as one line (entries have no line breaks of their own)."""
    return t.get_text().replace("\n", " ")


# --- the blocks of the column -------------------------------------------------------------------


def column_blocks(ax: Axes) -> list[Legend]:
    """The legends beside the board, top to bottom: the board's, the figure's (a threat
    map's classes), then the key."""
    fig = ax.get_figure(root=True)
    assert isinstance(fig, Figure)
    blocks: list[Legend] = []
    legend = ax.get_legend()
    if legend is not None:
        blocks.append(legend)
    blocks += [lg for lg in fig.legends if lg.get_visible()]
    key = find_key(ax)
    if key is not None and key.get_visible() and key.get_gid() == KEY_GID:
        blocks.append(key)
    return blocks


def find_key(ax: Axes) -> Legend | None:
    """The key, in the column or below the board."""
    for a in ax.artists:
        if isinstance(a, Legend) and a.get_gid() in (KEY_GID, KEY_BELOW_GID):
            return a
    return None


def find_caption(fig: Figure) -> Text | None:
    for t in fig.texts:
        if t.get_gid() == CAPTION_GID:
            return t
    return None


def show_key(
    ax: Axes, lines: Sequence[str], *, title: str, fontsize: float, ncols: int = 0
) -> None:
    """The numbered labels' texts (``"1: Building"``) as a legend without handles, placed by
    :func:`fit_layout` in the column, or with ``ncols`` columns below the board
    (:func:`place_key_below`); no lines: no key."""
    old = find_key(ax)
    if old is not None:
        old.remove()
    if not lines:
        return
    handles = [Line2D([], [], linestyle="none") for _ in lines]
    key = Legend(
        ax,
        handles,
        list(lines),
        loc="upper left",
        ncols=max(ncols, 1),
        title=title,
        title_fontsize=fontsize,
        alignment="left",
        fontsize=fontsize,
        frameon=False,
        handlelength=0.0,
        handletextpad=0.0,
        labelspacing=0.25,
        borderaxespad=0.0,
        columnspacing=1.2,
    )
    key.set_gid(KEY_BELOW_GID if ncols else KEY_GID)
    ax.add_artist(key)


def _wrap_legend(legend: Legend, width: float, renderer: Any) -> None:
    """Wrap every entry (and the title) of ``legend`` to a box of ``width`` pixels."""
    texts = legend.get_texts()
    if not texts:
        return
    for t in texts:
        t.set_text(unwrapped(t))
    title = legend.get_title()
    title.set_text(unwrapped(title))
    # The handle, the gap after it and the border round the entries, in font sizes.
    em = float(renderer.points_to_pixels(texts[0].get_fontsize()))
    room = width - em * (legend.handlelength + legend.handletextpad + 2 * legend.borderpad)
    for t in texts:
        t.set_text(wrap(t.get_text(), room, t, renderer))
    if title.get_text():
        title_room = width - 2 * legend.borderpad * renderer.points_to_pixels(title.get_fontsize())
        title.set_text(wrap(title.get_text(), title_room, title, renderer))


# --- the layout -------------------------------------------------------------------------------


@dataclass
class _Frame:
    """The figure in pixels and the sizes that do not change while the Axes moves."""

    fig: Figure
    renderer: Any
    width: float
    height: float
    pad: float
    gap: float

    @property
    def column(self) -> float:
        return COLUMN_WIDTH * self.width


def fit_layout(
    ax: Axes,
    *,
    title: str | None = None,
    refit: Callable[[], None] | None = None,
    strip: float = 0.0,
    height: float | None = None,
    grow: float = 0.0,
) -> None:
    """Place ``ax``, its title, the column and the caption so that everything is inside the
    figure (see the module's docstring).

    ``title`` is the title's text before wrapping (default: the title as it is now);
    ``refit`` is called after each move of the Axes to set its limits again (a board fills
    its box); ``strip`` is the height in pixels kept free below the board for the key
    (:func:`place_key_below`). ``height`` is the figure's height as designed (inches; default:
    its height now) and ``grow`` how many pixels taller it is made: the board keeps the box
    it has in the designed figure, at the top, and the column gets the extra room. Legends
    too tall for the column make the figure grow too.
    """
    frame = _frame(ax)
    if frame is None:
        if title is not None:
            ax.title.set_text(title)
        return
    fig = frame.fig
    if title is None:
        title = ax.title.get_text()
    w_in, h_in = fig.get_size_inches()
    design = h_in if height is None else height
    for block in column_blocks(ax):
        _wrap_legend(block, frame.column, frame.renderer)
    extra = grow
    for _ in range(2):
        fig.set_size_inches(w_in, design + extra / fig.dpi, forward=False)
        frame.height = fig.bbox.height
        caption_h = _place_caption(frame)
        bottom = extra + (caption_h + strip if strip else 0.0)
        _place_axes(ax, frame, title, bottom, refit)
        overflow = _stack_column(ax, frame, caption_h)
        if overflow <= 0.5:
            return
        extra += overflow + 1.0


def fit_height_to_board(ax: Axes, *, title: str | None = None) -> None:
    """For a board of fixed limits and equal aspect (a grid) that fills the Axes' width but
    not its height: make the figure that much shorter, so the picture has no empty bands
    above and below the board (never shorter than its column needs)."""
    frame = _frame(ax)
    if frame is None or frame.fig.get_gid() == FIXED_SIZE:
        return
    if title is None:
        title = ax.title.get_text().replace("\n", " ")
    ax.apply_aspect()
    box = ax.get_position(original=True).transformed(frame.fig.transFigure)
    active = ax.get_window_extent(frame.renderer)
    slack = box.height - active.height
    if slack <= 2 * frame.pad:
        return
    w_in, h_in = frame.fig.get_size_inches()
    frame.fig.set_size_inches(w_in, h_in - slack / frame.fig.dpi, forward=False)
    fit_layout(ax, title=title)


def restack(ax: Axes) -> float:
    """Wrap and stack the column again (after a legend changed) without moving the board;
    how many pixels it reaches below its room (0 or less: it fits)."""
    frame = _frame(ax)
    if frame is None:
        return 0.0
    for block in column_blocks(ax):
        _wrap_legend(block, frame.column, frame.renderer)
    return _stack_column(ax, frame, _place_caption(frame))


def key_overflow(ax: Axes) -> float:
    """How many pixels the column, with the key under the legends, reaches below its room
    (0 or less: the key fits there)."""
    frame = _frame(ax)
    key = find_key(ax)
    if frame is None or key is None:
        return 0.0
    _wrap_legend(key, frame.column, frame.renderer)
    return _stack_column(ax, frame, _place_caption(frame))


def place_key_below(ax: Axes) -> float:
    """Move the key below the board, in as many columns as fit the figure's width, above the
    caption; returns the height of the strip it takes (0 without a key)."""
    frame = _frame(ax)
    key = find_key(ax)
    if frame is None or key is None:
        return 0.0
    caption_h = _place_caption(frame)
    key = _key_below(ax, frame, key)
    key.set_loc("lower left")
    key.set_bbox_to_anchor(
        (frame.pad / frame.width, (frame.pad + caption_h) / frame.height),
        transform=frame.fig.transFigure,
    )
    return float(key.get_window_extent(frame.renderer).height) + frame.gap


def grow_for_key_below(
    ax: Axes, *, title: str, refit: Callable[[], None] | None, height: float
) -> None:
    """For a figure that may grow: the key below the board, in as many columns as fit the
    figure's width, and the figure taller by the key's strip, so the board keeps its box
    (and its labels their places) and no column of key runs far below the board."""
    need = place_key_below(ax)
    frame = _frame(ax)
    if frame is None or not need:
        return
    grow = need + _place_caption(frame)
    w_in, h_in = frame.fig.get_size_inches()
    # The layout of fit_layout(..., grow=grow) without measuring the board again: the same
    # pixel box, as far from the top, in a figure taller by ``grow``.
    box = ax.get_position(original=True).transformed(frame.fig.transFigure)
    top_gap = frame.fig.bbox.height - box.y1
    frame.fig.set_size_inches(w_in, h_in + grow / frame.fig.dpi, forward=False)
    frame.height = frame.fig.bbox.height
    y1 = frame.height - top_gap
    ax.set_position(
        Bbox.from_extents(
            box.x0 / frame.width,
            (y1 - box.height) / frame.height,
            box.x1 / frame.width,
            y1 / frame.height,
        )
    )
    ax.apply_aspect()
    restack(ax)
    place_key_below(ax)  # anchored again in the taller figure


def _frame(ax: Axes) -> _Frame | None:
    fig = ax.get_figure(root=True)
    assert isinstance(fig, Figure)
    renderer = renderer_of(fig)
    if renderer is None:
        return None
    pt = fig.dpi / 72.0
    return _Frame(fig, renderer, fig.bbox.width, fig.bbox.height, PAD_PT * pt, GAP_PT * pt)


def wrap_title(ax: Axes, title: str) -> None:
    """Set ``ax``'s title wrapped to the room it has where the Axes is now (no move)."""
    frame = _frame(ax)
    if frame is None:
        ax.title.set_text(title)
        return
    box = ax.get_position(original=True).transformed(frame.fig.transFigure)
    cx = (box.x0 + box.x1) / 2
    room = 2 * min(cx - frame.pad, frame.width - frame.pad - cx)
    ax.title.set_text(wrap(title, room, ax.title, frame.renderer) if title else "")


def _place_caption(frame: _Frame) -> float:
    """Put the caption in the lower right corner (wrapped to the column); its height."""
    caption = find_caption(frame.fig)
    if caption is None or not caption.get_visible() or not caption.get_text():
        return 0.0
    caption.set_text(
        wrap(caption.get_text().replace("\n", " "), frame.column, caption, frame.renderer)
    )
    caption.set_transform(frame.fig.transFigure)
    caption.set_position((1 - frame.pad / frame.width, frame.pad / frame.height))
    caption.set_horizontalalignment("right")
    caption.set_verticalalignment("bottom")
    return float(caption.get_window_extent(frame.renderer).height) + frame.gap


def _place_axes(
    ax: Axes, frame: _Frame, title: str, bottom_room: float, refit: Callable[[], None] | None
) -> None:
    """Move the Axes so that its tick labels, axis labels and wrapped title fit (twice: the
    tick labels change with the limits; once when the first pass leaves the Axes where it
    was, as a redraw of an unchanged layout does: a second pass would measure the same)."""
    r = frame.renderer
    W, H = frame.width, frame.height
    for _ in range(2):
        before = _axes_state(ax)
        active = ax.get_window_extent(r)  # inside the position when the aspect shrinks it
        deco = _decorations(ax, r)
        cx = (active.x0 + active.x1) / 2
        room = 2 * min(cx - frame.pad, W - frame.pad - cx)
        title_h = _title_room(ax, title, room, r)
        left = frame.pad + (active.x0 - deco.x0)
        bottom = frame.pad + bottom_room + (active.y0 - deco.y0)
        right_overhang = max(deco.x1 - active.x1, 0.0)
        right = W - frame.pad - frame.column - max(frame.gap, right_overhang + frame.pad)
        top = H - frame.pad - title_h
        ax.set_position(Bbox.from_extents(left / W, bottom / H, right / W, top / H))
        if refit is not None:
            refit()
        ax.apply_aspect()
        if _axes_state(ax) == before:
            break


def _axes_state(ax: Axes) -> tuple[Any, ...]:
    """What :func:`_place_axes` measures from: the Axes' box (as set and as drawn) and its
    limits."""
    return (
        tuple(ax.get_position(original=True).bounds),
        tuple(ax.get_position().bounds),
        tuple(ax.get_xlim()),
        tuple(ax.get_ylim()),
    )


def set_titles(ax: Axes, titles: Iterable[str]) -> None:
    """The title of ``ax`` in every language (before wrapping): the layout keeps room above
    the board for the tallest of them, so the board has the same box in every language's
    picture (the German title may wrap to more lines than the English one). ``titles`` is
    read when the layout needs them (a drag step, which lays nothing out, never reads them)."""
    ax._fwwrules_titles = titles  # type: ignore[attr-defined]


def _title_room(ax: Axes, title: str, room: float, renderer: Any) -> float:
    """Set ``ax``'s title to ``title`` wrapped to ``room`` pixels; the height kept for it:
    the tallest of the titles in every language (:func:`set_titles`) wrapped alike."""
    heights = [0.0]
    look = (room, font_key(ax.title), renderer_key(renderer))
    for text in (*getattr(ax, "_fwwrules_titles", ()), title):
        if text:
            heights.append(_TITLES.get((text, *look), _title_height, ax, text, room, renderer))
    ax.title.set_text(wrap(title, room, ax.title, renderer) if title else "")
    return max(heights) + (renderer.points_to_pixels(6.0) if max(heights) else 0.0)


def _title_height(ax: Axes, text: str, room: float, renderer: Any) -> float:
    """The height of ``ax``'s title set to ``text`` wrapped to ``room`` pixels (it is left
    set so; :func:`_title_room` sets the title it keeps)."""
    ax.title.set_text(wrap(text, room, ax.title, renderer))
    return float(ax.title.get_window_extent(renderer).height)


def _decorations(ax: Axes, renderer: Any) -> Bbox:
    """The box of the Axes with its tick labels and axis labels (not title, not texts)."""
    boxes = [ax.get_window_extent(renderer)]
    for axis in (ax.xaxis, ax.yaxis):
        if axis.get_visible():
            b = axis.get_tightbbox(renderer)
            if b is not None:
                boxes.append(b)
    return Bbox.union(boxes)


def _stack_column(ax: Axes, frame: _Frame, caption_h: float) -> float:
    """Put the column's blocks under each other from the board's top; how many pixels the
    last one reaches below the caption (0 or less: they fit)."""
    r = frame.renderer
    board = ax.get_window_extent(r)
    x = frame.width - frame.pad - frame.column
    y = board.y1
    lowest = y
    for block in column_blocks(ax):
        block.set_loc("upper left")
        block.set_bbox_to_anchor(
            (x / frame.width, y / frame.height), transform=frame.fig.transFigure
        )
        block.borderaxespad = 0.0
        h = block.get_window_extent(r).height
        lowest = y - h
        y = lowest - frame.gap
    return float((frame.pad + caption_h) - lowest)


def _key_below(ax: Axes, frame: _Frame, key: Legend) -> Legend:
    """The key again, in as many columns as fit the figure's width."""
    r = frame.renderer
    texts = key.get_texts()
    lines = [unwrapped(t) for t in texts]
    widest = max(text_width(line, texts[0], r) for line in lines)
    spacing = key.columnspacing * r.points_to_pixels(texts[0].get_fontsize())
    ncols = max(1, int((frame.width - 2 * frame.pad + spacing) // (widest + spacing)))
    show_key(
        ax,
        lines,
        title=unwrapped(key.get_title()),
        fontsize=float(texts[0].get_fontsize()),
        ncols=min(ncols, len(lines)),
    )
    new = find_key(ax)
    assert new is not None
    return new
