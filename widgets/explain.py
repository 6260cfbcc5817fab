"""Explanations a panel shows below its board when the reader ticks them: the shot's side view
(a section along the Line of Cover, drawn by :mod:`fwwrules.draw.side`) and the core rules
beside the Vault-Tec Simulator (:mod:`fwwrules.compare`).

Each is a checkbox (labelled in the panel's language) and an HTML box below the board. The
panel hands it the ruling it already has; while a model is dragged the side view is drawn by
a separate process (:mod:`.side_worker`), which asks the rules for the position it draws. The
words and pictures travel with the board's frames (:meth:`~.view.BoardView.say`), so what the
box shows always belongs to the board drawn beside it, or is dimmed until it does.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from fwwrules.compare import Comparison
from fwwrules.draw.side import DEFAULT_SIDE_STYLE, SideArtists, SideStyle
from fwwrules.errors import FwwError

from .side_worker import side_picture
from .text import ui
from .worker import WorkerLine, positions

if TYPE_CHECKING:
    from fwwrules.data import Scenario
    from fwwrules.rulings import AttackRuling

    from .margin_worker import Query
    from .view import BoardView

__all__ = ["STALE_OPACITY", "CompareView", "SideView"]

STALE_OPACITY = 0.45
"""How opaque the side view is drawn while it shows another position than the board: during
a drag, until the side view of the position shown is drawn (it takes a few tenths of a
second: it is drawn when the pointer rests, by :mod:`.side_worker`)."""


def _below_layout() -> widgets.Layout:
    """An explanation's box below the board: hidden until ticked, as wide as the board and no
    wider (no margin: a wider box would push the ruling column off the board's row)."""
    return widgets.Layout(display="none", width="100%", max_width="100%", margin="0")


def _box() -> widgets.Checkbox:
    """A toggle of the panel (labelled by the panel's ``_relabel``)."""
    return widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))


class SideView(WorkerLine):
    """The side view of the panel's shot below its board (``toggle``: a checkbox; ``html``:
    the picture). ``artists`` are the :class:`~fwwrules.draw.side.SideArtists` of the picture
    shown when the kernel drew it (None while it is off, when the attack has no Line of Cover,
    and while a drag shows a picture drawn by the side view's process); ``current`` says
    whether the picture shown is of the position the board shows.

    Off, the box is hidden and nothing is drawn. On, :meth:`show` draws the section of the
    ruling it is given at the board's pixel ratio and shows it at the board's width (smaller
    when the notebook is narrower); a ruling that cannot be answered, or has no Line of Cover,
    shows one line saying there is no side view. While a model is dragged, :meth:`follow`
    dims the picture shown and asks :mod:`.side_worker` for the new position's: drawn when
    the pointer rests (or now and then during a long drag), it is shown with the frame the
    browser shows, at full strength when it is of the position the board shows, dimmed when
    the model has moved on since; a picture is always one position's whole picture.
    """

    module = "side_worker"

    def __init__(
        self, view: BoardView, scenario: Scenario, style: SideStyle = DEFAULT_SIDE_STYLE
    ) -> None:
        super().__init__(view, scenario)
        self.style = style
        self.toggle = _box()
        self.html = widgets.HTML(layout=_below_layout())
        self.artists: SideArtists | None = None
        self.current = True
        self._picture = ""
        """What the box shows at full strength (the side view, or the line saying there is
        none) for the position drawn last (dimmed by :meth:`follow`)."""
        self._drawn = 0
        """The generation of the picture shown (a picture of an older question is not shown)."""
        self._lang = "en"
        self._where: tuple[dict[str, tuple[float, float, float]], Any] | None = None
        """The models' positions and the question of the picture asked for last."""

    @property
    def on(self) -> bool:
        return bool(self.toggle.value)

    def relabel(self, lang: str) -> None:
        self.toggle.description = ui("side-view", lang)

    def show(self, scenario: Scenario, ruling: AttackRuling | None, lang: str) -> None:
        """Draw the side view of ``ruling`` on ``scenario`` (the box hidden while off). The
        attributes change once the new picture is drawn (a probe from another thread never
        sees them half set); a picture still being drawn for a drag is not shown after it."""
        self.forget_question()
        self._drawn, self.current, self._lang = self.generation, True, lang
        self._where = (positions(scenario), None)  # a drag step from here asks again
        if not self.on:
            self.artists, self._picture = None, ""
            self.html.layout.display = "none"
            self.view.say(self.html, "value", "")
            return
        self.html.layout.display = None
        self.live_worker()  # started now: ready when a model is dragged
        if ruling is None or ruling.sight is None:
            self.artists, self._picture = None, self._none(lang)
        else:
            png, alt, width, art = side_picture(scenario, ruling, lang, self.view.ratio, self.style)
            self.artists, self._picture = art, _img(png, alt, width)
        self.view.say(self.html, "value", self._picture)

    def follow(self, scenario: Scenario, query: Query, lang: str) -> None:
        """A drag step to ``scenario``: the picture shown is dimmed until the side view of
        ``query`` there (or of a later position) is drawn (call it holding the view's lock)."""
        if not self.on:
            return
        where = positions(scenario)
        question = (query, lang, self.view.ratio, self.style)
        if (where, question) == self._where:
            return  # where the last question left it (a release where the pointer rested)
        self._where = (where, question)
        self.current, self._lang = False, lang
        if self._picture:
            self.view.say(self.html, "value", _dim(self._picture))
        if self.enabled:
            self.send(scenario, question)

    def answer(self, gen: int, png: bytes | None = None, alt: str = "", width: int = 0) -> None:
        """The side view of question ``gen`` (the reader thread): shown, with a frame of words
        alone, unless a newer picture is shown; dimmed when the board shows a later position."""
        with self.view.lock:
            if gen <= self._drawn or gen > self.generation or not self.on:
                return  # a newer picture is shown (or none is wanted)
            self._drawn, self.current = gen, gen == self.generation
            self.artists = None  # drawn by the process: the kernel has no artists of it
            self._picture = _img(png, alt, width) if png is not None else self._none(self._lang)
            said = self._picture if self.current else _dim(self._picture)
            self.view.say(self.html, "value", said)
            self.view.publish_texts()
            if self.current:
                self.settled(gen)

    def _none(self, lang: str) -> str:
        return f"<p><i>{html.escape(ui('side-view-none', lang))}</i></p>"

    def picture_html(self) -> str:
        """The side view for a static view of the panel (empty while off)."""
        return str(self.view.said(self.html)) if self.on else ""


def _img(png: bytes, alt: str, width: int) -> str:
    """The side view's ``<img>`` (PNG ``png`` shown ``width`` CSS pixels wide at most)."""
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<img class="fwwrules-side-view" src="data:image/png;base64,{data}" '
        f'alt="{html.escape(alt)}" style="width:{width}px;max-width:100%;height:auto;'
        'display:block"/>'
    )


def _dim(picture: str) -> str:
    """``picture`` dimmed: it shows another position than the board."""
    return f'<div style="opacity:{STALE_OPACITY}">{picture}</div>'


class CompareView:
    """The panel's question under the core rules and the Vault-Tec Simulator, side by side
    below its board (``toggle``: a checkbox; ``html``: both rulings with the differences
    highlighted, each with its clause id). ``comparisons`` are the
    :class:`~fwwrules.compare.Comparison` objects shown (empty while off).

    Off, the box is hidden and nothing is asked. On, :meth:`show` asks each question the
    panel gives (an attack: :func:`fwwrules.compare.compare`; a slide:
    :func:`~fwwrules.compare.compare_slide`) and shows the answers in that order; a question
    the rules cannot answer shows why, and no question at all says what to choose.
    """

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self.toggle = _box()
        self.html = widgets.HTML(layout=_below_layout())
        self.comparisons: tuple[Comparison, ...] = ()

    @property
    def on(self) -> bool:
        return bool(self.toggle.value)

    def relabel(self, lang: str) -> None:
        self.toggle.description = ui("compare", lang)

    def show(self, questions: Sequence[Callable[[], Comparison]], lang: str) -> None:
        """Ask ``questions`` and show their answers (the box hidden while off);
        ``comparisons`` changes once all are answered."""
        if not self.on:
            self.comparisons = ()
            self.html.layout.display = "none"
            self.view.say(self.html, "value", "")
            return
        self.html.layout.display = None
        parts, found = [], []
        for ask in questions:
            try:
                answer = ask()
            except FwwError as exc:
                parts.append(f"<p><i>{html.escape(str(exc))}</i></p>")
                continue
            found.append(answer)
            parts.append(answer.html(lang, close_call=False))
        if not questions:
            parts.append(f"<p><i>{html.escape(ui('compare-nothing', lang))}</i></p>")
        self.comparisons = tuple(found)
        self.view.say(self.html, "value", "".join(parts))

    def shown_html(self) -> str:
        """The comparison for a static view of the panel (empty while off)."""
        return str(self.view.said(self.html)) if self.on else ""
