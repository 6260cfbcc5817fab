"""A slide (``melee.slide``), animated: the sliding base moves along the exact path the ruling
found, and every frame shows whether it still touches each model it was engaged with.

:func:`slide_animation` asks :func:`fwwrules.slide` and draws the board once (with the slide's
destination, its path and the engagements); each frame then moves the sliding base along the
path (equal steps of the path's length, the first frame where it stands, the last where it
ends) and marks its contact with every model it was engaged with before the slide: a green dot
where the bases touch, a red cross where the contact is broken. A legal slide keeps every
contact in every frame (the ruling's path keeps the base within contact distance); a refused
one moves straight to where it was asked to go, and the crosses show where contact breaks.

Written as a GIF (Pillow; for posts) or as HTML with matplotlib's JavaScript player (for
notebooks: it also shows in a static view such as nbconvert's HTML, GitHub or nbviewer);
``.png``/``.svg`` give the still picture of the last frame. Every file goes through
:func:`fwwrules.writing.write_atomic`.

Boundary cases: a path of one point (a slide to where the model stands) gives frames that all
show the model there; ``frames`` is at least 2 (start and end) and at most
:data:`MAX_FRAMES`; a model engaged with nobody has no contact to mark (the ruling then
refuses the slide, and the frames show the straight move).
"""

from __future__ import annotations

import dataclasses
import io
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import QueryError
from ..writing import check_output_name
from .artists import DEFAULT_STYLE, BoardArtists, BoardStyle
from .export import export_dpi, save_picture
from .figure import figure_of, new_axes

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    from ..data import Scenario
    from ..movement import SlideRuling

DEFAULT_FRAMES = 24
MAX_FRAMES = 240
DEFAULT_FPS = 8
"""Frames per second: 24 frames take 3 seconds; the last frame is held for :data:`HOLD_S`."""
HOLD_S = 1.5
PLAYER_RATIO = 2.0
"""The HTML player's frames are drawn at this many pixels per CSS pixel of the board's own
size (``style.figsize`` at ``style.dpi``) and shown at that size: as sharp as a panel's board
on a high-density screen."""
HTML_HOLD_FRAMES = 3
"""The HTML player has one speed: the last frame is repeated this many times (each frame is
a picture in the page, so the hold is short; the player can pause)."""
ARC_SNAP_MM = 0.25
"""How far inside an arc a chord of the ruling's path may run (5 degree chords round a 100 mm
circle: 0.05 mm); a frame's centre that deep is put back on the arc."""

XY = tuple[float, float]


def path_points(path: Sequence[XY], n: int) -> list[XY]:
    """``n`` points along the polyline ``path`` at equal steps of its length, its first and
    last point included.

    >>> path_points([(0, 0), (2, 0), (2, 2)], 5)
    [(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 1.0), (2.0, 2.0)]
    >>> path_points([(1, 1)], 3)
    [(1.0, 1.0), (1.0, 1.0), (1.0, 1.0)]
    """
    pts = np.asarray(path, dtype=float).reshape(-1, 2)
    legs = np.hypot(*np.diff(pts, axis=0).T) if len(pts) > 1 else np.zeros(0)
    total = float(legs.sum())
    if total == 0.0:
        return [(float(pts[0, 0]), float(pts[0, 1]))] * n
    along = np.concatenate([[0.0], np.cumsum(legs)])
    out = []
    for k in range(n):
        s = total * k / (n - 1)
        i = min(int(np.searchsorted(along, s, side="right")) - 1, len(legs) - 1)
        t = 0.0 if legs[i] == 0 else (s - along[i]) / legs[i]
        p = pts[i] + (pts[i + 1] - pts[i]) * min(max(t, 0.0), 1.0)
        out.append((float(p[0]), float(p[1])))
    return out


@dataclasses.dataclass(frozen=True, slots=True)
class SlideFrames:
    """Where a sliding model stands in each frame and whether it touches each model it was
    engaged with there: ``positions`` (scenario units), ``engaged`` (ids), ``contact[k][i]``
    (frame ``k``, ``engaged[i]``; :func:`fwwrules.engagement.in_contact` on the board with the
    model moved there)."""

    positions: tuple[XY, ...]
    engaged: tuple[str, ...]
    contact: tuple[tuple[bool, ...], ...]

    def __len__(self) -> int:
        return len(self.positions)


def slide_frames(scenario: Scenario, ruling: SlideRuling, n: int = DEFAULT_FRAMES) -> SlideFrames:
    """``n`` frames of ``ruling``'s slide: along its exact path (a legal slide), or straight to
    where it was asked to end (a refused one), in equal steps."""
    from ..engagement import engagements, in_contact
    from ..placement import move_model

    if not 2 <= n <= MAX_FRAMES:
        raise QueryError(f"frames must be from 2 to {MAX_FRAMES} (got {n})")
    model = ruling.model
    start = scenario.model(model).at
    way = list(ruling.path) if ruling.path else [tuple(start), tuple(ruling.to)]
    positions = _onto_arcs(scenario, model, path_points([(float(x), float(y)) for x, y in way], n))
    engaged = tuple(engagements(scenario).get(model, ()))
    contact = tuple(
        tuple(in_contact(move_model(scenario, model, x, y), model, other) for other in engaged)
        for x, y in positions
    )
    return SlideFrames(positions, engaged, contact)


def contact_markers(artists: BoardArtists) -> tuple[Line2D, Line2D]:
    """The markers of kept (green dot) and broken (red cross) contacts on ``artists``' board,
    made on first use (hidden until a frame is shown)."""
    from matplotlib.lines import Line2D

    state = artists.state.setdefault("animation", {})
    if "kept" not in state:
        style = artists.style
        marker = style.marker_size
        kept = Line2D(
            [], [], linestyle="none", marker="o", markersize=marker,
            color=style.slide_legal_colour, markeredgecolor="black",
            zorder=style.label_zorder + 1.5, visible=False,
            animated=bool(artists.state.get("animated")),
        )  # fmt: skip
        broken = Line2D(
            [], [], linestyle="none", marker=style.slide_break_marker,
            markersize=marker * 1.6, color=style.slide_illegal_colour,
            markeredgecolor="black", zorder=style.label_zorder + 1.5, visible=False,
            animated=bool(artists.state.get("animated")),
        )  # fmt: skip
        artists.ax.add_line(kept)
        artists.ax.add_line(broken)
        state["kept"], state["broken"] = kept, broken
    return state["kept"], state["broken"]


def show_frame(
    artists: BoardArtists, scenario: Scenario, model: str, frames: SlideFrames, k: int
) -> None:
    """Put ``artists``' board in the state of frame ``k``: the sliding base where it stands,
    its name and the slide's note clear of it, the engagement links of the board with the
    model moved there, and a dot (kept) or cross (broken) where it meets each model it was
    engaged with. Nothing is drawn (the caller redraws, or blits the moving artists)."""
    from ..placement import move_model
    from .board import _draw_engagements
    from .labels import follow

    x, y = frames.positions[k]
    moved = move_model(scenario, model, x, y)
    u = scenario.unit_mm
    base = artists.bases[model]
    base.set_center((x * u, y * u))
    follow(artists, [artists.labels[model], artists.slide_label])  # clear of the moved base
    _draw_engagements(artists, moved, True)
    kept: list[XY] = []
    broken: list[XY] = []
    r = base.get_radius()
    for other, touching in zip(frames.engaged, frames.contact[k], strict=True):
        ox, oy = moved.board.models[other].disc.x, moved.board.models[other].disc.y
        d = math.hypot(ox - x * u, oy - y * u) or 1.0
        point = (x * u + (ox - x * u) * r / d, y * u + (oy - y * u) * r / d)
        (kept if touching else broken).append(point)
    dots, crosses = contact_markers(artists)
    _set_points(dots, kept)
    _set_points(crosses, broken)


def hide_contacts(artists: BoardArtists) -> None:
    """Hide the contact markers and take them out of the legend (the next update of the
    board shows it as a still picture again)."""
    state = artists.state.get("animation", {})
    for key in ("kept", "broken"):
        if key in state:
            state[key].set_visible(False)
    state.pop("kinds", None)


def show_contacts_in_legend(artists: BoardArtists, scenario: Scenario, frames: SlideFrames) -> None:
    """The legend lists the contact markers the frames show (kept, broken) and the picture
    is laid out again for it."""
    from .board import relegend

    kinds = set()
    for flags in frames.contact:
        kinds |= {"contact-kept" if f else "contact-broken" for f in flags}
    artists.state.setdefault("animation", {})["kinds"] = kinds
    relegend(artists, scenario)


@dataclasses.dataclass(eq=False, repr=False)
class SlideAnimation:
    """The frames of one slide, ready to be written (see the module's docstring).

    ``positions`` are the sliding model's centre in each frame (scenario units); ``engaged``
    the models it was engaged with before the slide; ``contact[k][i]`` whether it touches
    ``engaged[i]`` in frame ``k`` (asked of :func:`fwwrules.engagement.in_contact` for the
    board with the model moved there). ``artists`` is the board the frames are drawn on.
    """

    scenario: Scenario
    ruling: SlideRuling
    positions: tuple[XY, ...]
    engaged: tuple[str, ...]
    contact: tuple[tuple[bool, ...], ...]
    artists: BoardArtists
    lang: str
    fps: int = DEFAULT_FPS

    @property
    def figure(self) -> Figure:
        return self.artists.figure

    def __repr__(self) -> str:
        r = self.ruling
        verdict = "legal" if r.legal else "not legal"
        return f"<slide of {r.model} to ({r.to[0]:g}, {r.to[1]:g}): {verdict}, {len(self)} frames>"

    def __len__(self) -> int:
        return len(self.positions)

    def show(self, k: int) -> None:
        """Put the board in the state of frame ``k`` (nothing is drawn)."""
        show_frame(self.artists, self.scenario, self.ruling.model, self.frames, k)

    @property
    def frames(self) -> SlideFrames:
        return SlideFrames(self.positions, self.engaged, self.contact)

    @property
    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = self.artists.state.setdefault("animation", {})
        return out

    def moving(self) -> list[Any]:
        """The artists that change from frame to frame (drawn over a cached background)."""
        model = self.ruling.model
        art = self.artists
        return [
            art.engagements,
            art.bases[model],
            art.labels[model],
            art.slide_label,
            self.state["kept"],
            self.state["broken"],
        ]

    def rgba_frames(self, dpi: float | None = None) -> list[np.ndarray[Any, Any]]:
        """Every frame as an RGBA array (the board drawn once, the moving artists over it),
        at ``dpi`` (the figure keeps its own dpi afterwards)."""
        fig = self.figure
        own = fig.dpi
        if dpi is not None and abs(dpi - fig.dpi) > 1e-9:
            fig.set_dpi(dpi)
        try:
            return self._frames()
        finally:
            fig.set_dpi(own)

    def _frames(self) -> list[np.ndarray[Any, Any]]:
        fig = self.figure
        canvas: Any = fig.canvas
        moving = sorted(self.moving(), key=lambda a: a.get_zorder())
        for a in moving:
            a.set_animated(True)
        try:
            canvas.draw()
            background = canvas.copy_from_bbox(fig.bbox)
            frames = []
            for k in range(len(self)):
                self.show(k)
                canvas.restore_region(background)
                for a in moving:
                    if a.get_visible():
                        fig.draw_artist(a)
                frames.append(np.asarray(canvas.buffer_rgba()).copy())
        finally:
            for a in moving:
                a.set_animated(False)
        return frames

    def gif_bytes(self, dpi: float | None = None) -> bytes:
        """The animation as a GIF (Pillow): one palette for all frames, looping, the last
        frame held for :data:`HOLD_S` seconds."""
        from PIL import Image

        rgb = [Image.fromarray(f[..., :3]) for f in self.rgba_frames(dpi)]
        palette = rgb[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        images = [im.quantize(palette=palette, dither=Image.Dither.NONE) for im in rgb]
        step = round(1000 / self.fps)
        durations = [step] * (len(images) - 1) + [round(1000 * HOLD_S)]
        out = io.BytesIO()
        images[0].save(
            out,
            format="GIF",
            save_all=True,
            append_images=images[1:],
            duration=durations,
            loop=0,
            optimize=False,
            disposal=1,
        )
        return out.getvalue()

    def to_jshtml(self, dpi: float | None = None) -> str:
        """The animation as HTML with matplotlib's JavaScript player (``HTMLWriter``, frames
        embedded as PNG: it plays in a notebook and in static views alike, and needs nothing
        from the network). The frames are drawn at ``dpi`` (default :data:`PLAYER_RATIO`
        times the board's own dpi, or the figure's dpi when that is higher) and shown at the
        board's own size; they are the blitted ones as PNGs of one palette. The player's id
        is derived from what it shows, so the same animation gives the same HTML."""
        import base64
        import hashlib
        import tempfile

        design = self.artists.style.dpi
        if dpi is None:
            dpi = max(self.figure.dpi, PLAYER_RATIO * design)
        frames = _palette_pngs(self.rgba_frames(dpi))
        frames += [frames[-1]] * HTML_HOLD_FRAMES  # one speed: the end is held by repeating
        writer: Any = _FramesHTMLWriter(fps=self.fps, embed_frames=True, default_mode="loop")
        with tempfile.TemporaryDirectory(prefix="fwwrules-") as tmp:
            out = Path(tmp) / "slide.html"
            with writer.saving(self.figure, out, self.figure.dpi):
                for png in frames:
                    writer.add_frame(base64.encodebytes(png).decode("ascii"))
            page = out.read_text(encoding="utf-8")
        # The player's id from what the animation shows (not from the frames' bytes, which
        # depend on the fonts and libraries at hand): the same slide, the same HTML.
        key = f"{self.ruling.model}|{self.ruling.to}|{len(self)}|{self.lang}|{self.figure.dpi}"
        uid = hashlib.sha256((key + "|" + self.figure.axes[0].get_title()).encode()).hexdigest()[
            :32
        ]
        found = re.search(r"_anim_img([0-9a-f]{32})", page)  # the writer's random id
        if found is not None:
            page = page.replace(found.group(1), uid)
        width = round(self.figure.get_figwidth() * design)
        first = "data:image/png;base64," + base64.b64encode(frames[0]).decode("ascii")
        return _readable_player(page, width, first)

    def _repr_html_(self) -> str:
        return self.to_jshtml()

    def save(
        self,
        path: str | os.PathLike[str],
        *,
        scale: float | None = None,
        dpi: float | None = None,
        width: float | None = None,
    ) -> Path:
        """Write the animation: ``.gif`` or ``.html``; ``.png``/``.svg`` write the last frame
        as a still picture. Returns the path (see :mod:`fwwrules.draw.export` for the size)."""
        from ..writing import write_atomic

        out = Path(path)
        fmt = check_output_name(out, animation=True)
        out_dpi = export_dpi(self.figure, scale=scale, dpi=dpi, width=width)
        if fmt == "gif":
            return write_atomic(out, self.gif_bytes(out_dpi))
        if fmt == "html":
            return write_atomic(out, _page(self.to_jshtml(out_dpi), self.figure))
        self.show(len(self) - 1)
        return save_picture(self.figure, out, dpi=out_dpi)


PLAYER_GLYPHS: tuple[tuple[str, str], ...] = (
    ("fa fa-minus", "−"),
    ("fa fa-fast-backward", "⇤"),
    ("fa fa-step-backward", "◁"),
    ("fa fa-play fa-flip-horizontal", "◀"),
    ("fa fa-pause", "❚❚"),
    ("fa fa-play", "▶"),
    ("fa fa-step-forward", "▷"),
    ("fa fa-fast-forward", "⇥"),
    ("fa fa-plus", "+"),
)
"""The player's buttons as text: its icons come from a font on a web server (Font Awesome
4), which JupyterLab no longer loads and an offline page cannot reach (the link to it is
left out)."""


def _readable_player(page: str, width: int, first: str) -> str:
    """matplotlib's player, readable anywhere: its buttons as text glyphs
    (:data:`PLAYER_GLYPHS`; each keeps its title), and its picture holding the first frame
    from the start, at its width (JupyterLab lays out a picture without a source 0 pixels
    wide and keeps it so when the player sets its frame; a view without scripts shows the
    first frame)."""
    for icon, glyph in PLAYER_GLYPHS:
        page = page.replace(f'<i class="{icon}"></i>', glyph)
    page = re.sub(r"<link[^>]*font-awesome[^>]*>\s*", "", page)  # no font from the network
    return re.sub(
        r'<img id="(_anim_img[0-9a-f]+)">',
        lambda m: (
            f'<img id="{m.group(1)}" src="{first}" alt="" '
            f'style="width:{width}px;max-width:100%;height:auto">'
        ),
        page,
    )


def _set_points(line: Line2D, points: Sequence[XY]) -> None:
    line.set_data([p[0] for p in points], [p[1] for p in points])
    line.set_visible(bool(points))


def _palette_pngs(frames: Sequence[np.ndarray[Any, Any]]) -> list[bytes]:
    """The frames as 8-bit palette PNGs of one palette, the last frame's (a board has few
    colours, and the frames differ in a few: a third of the bytes of full colour)."""
    from PIL import Image

    images = [Image.fromarray(f[..., :3]) for f in frames]
    palette = images[-1].quantize(
        colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = []
    for image in images:
        buffer = io.BytesIO()
        image.quantize(palette=palette, dither=Image.Dither.NONE).save(
            buffer, format="png", optimize=True
        )
        out.append(buffer.getvalue())
    return out


def _frames_writer_class() -> Any:
    from matplotlib.animation import HTMLWriter

    class FramesHTMLWriter(HTMLWriter):
        """matplotlib's HTML writer (its JavaScript player) fed with ready PNG frames.

        ``add_frame`` appends to the list ``grab_frame`` fills (``_saved_frames``, matplotlib
        3.11): the frames are drawn once, blitted, and written as palette PNGs, where
        ``grab_frame`` would draw every frame again and write full-colour PNGs.
        """

        def add_frame(self, data64: str) -> None:
            frames: list[str] = self._saved_frames  # type: ignore[attr-defined]
            frames.append(data64)

    return FramesHTMLWriter


def _FramesHTMLWriter(**kwargs: Any) -> Any:
    return _frames_writer_class()(**kwargs)


def _page(player: str, fig: Figure) -> str:
    """A whole HTML page around the player (``fwwrules render ... -o slide.html``)."""
    import html

    title = html.escape(fig.axes[0].get_title().replace("\n", " — ") if fig.axes else "slide")
    return (
        '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>'
        f"{title}</title></head><body>\n{player}\n</body></html>\n"
    )


def _onto_arcs(scenario: Scenario, model: str, points: Sequence[XY]) -> tuple[XY, ...]:
    """The frames' centres on the exact path: the ruling's path goes round opposing bases as
    chords of the arcs it follows (for drawing), a few hundredths of a millimetre inside
    them; a point there is put back on the arc (as close as contact allows: the opposing base
    grown by the slider's radius less the contact tolerance, as ``melee.slide`` measures)."""
    from ..engagement import same_level

    board = scenario.board
    me = scenario.model(model)
    mine = board.models[model].disc
    u = scenario.unit_mm
    tol = board.contact_tolerance
    arcs = [
        (
            board.models[m.id].disc.x,
            board.models[m.id].disc.y,
            board.models[m.id].disc.r + mine.r - tol,
        )
        for m in scenario.models
        if m.id != model and scenario.opposing(me, m) and same_level(scenario, me, m)
    ]
    out = []
    for x, y in points:
        px, py = x * u, y * u
        for cx, cy, r in arcs:
            d = math.hypot(px - cx, py - cy)
            if 0 < d < r and r - d < ARC_SNAP_MM:
                px, py = cx + (px - cx) * r / d, cy + (py - cy) * r / d
        out.append((px / u, py / u))
    return tuple(out)


def slide_animation(
    scenario: Scenario,
    model: str,
    to: tuple[float, float],
    *,
    rules: str | None = None,
    lang: str = "en",
    title: str | None = None,
    frames: int | None = None,
    fps: int = DEFAULT_FPS,
    style: BoardStyle = DEFAULT_STYLE,
    scale: float | None = None,
    dpi: float | None = None,
    width: float | None = None,
) -> SlideAnimation:
    """The animation of ``model`` sliding to ``to`` (scenario units): see the module's
    docstring. ``frames`` (default :data:`DEFAULT_FRAMES`) and ``fps`` set its length; the
    size is set as for any picture (:mod:`fwwrules.draw.export`)."""
    from matplotlib.figure import Figure as _Figure

    from ..movement import slide
    from .board import draw_board

    if not 1 <= fps <= 60:
        raise QueryError(f"fps must be from 1 to 60 (got {fps!r})")
    out_dpi = export_dpi(
        _Figure(figsize=style.figsize, dpi=style.dpi), scale=scale, dpi=dpi, width=width
    )
    if title is not None:
        scenario = dataclasses.replace(scenario, title=title)
    ruling = slide(scenario, model, to, rules=rules)
    data = slide_frames(scenario, ruling, DEFAULT_FRAMES if frames is None else frames)
    ax = new_axes(style.figsize, out_dpi, style.margins)
    art = draw_board(scenario, ax, style=style, slide=ruling, lang=lang)
    contact_markers(art)
    show_contacts_in_legend(art, scenario, data)
    positions, engaged, contact = data.positions, data.engaged, data.contact
    anim = SlideAnimation(scenario, ruling, positions, engaged, contact, art, lang, fps)
    anim.show(len(positions) - 1)
    figure_of(ax)
    return anim


def render_slide(
    scenario: Scenario,
    model: str,
    to: tuple[float, float],
    path: str | os.PathLike[str],
    **options: Any,
) -> Path:
    """``fwwrules render FILE --slide MODEL --to X,Y -o slide.gif`` (or ``.html``, ``.png``,
    ``.svg``): :func:`slide_animation` written to ``path``. The size options (``scale``,
    ``dpi``, ``width``) are applied when the board is drawn."""
    out = Path(path)
    check_output_name(out, animation=True)
    anim = slide_animation(scenario, model, to, **options)
    return anim.save(out, dpi=anim.figure.dpi)
