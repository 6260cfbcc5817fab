"""Explanations a panel shows below its board when the reader ticks them: the shot's side view
(a section along the Line of Cover, drawn by :mod:`fwwrules.draw.side`) and the core rules
beside the Vault-Tec Simulator (:mod:`fwwrules.compare`).

Each is a checkbox (labelled in the panel's language) and an HTML box below the board. The
panel hands it the ruling it already has; nothing here asks the rules anything. The words and
pictures travel with the board's frames (:meth:`~.view.BoardView.say`), so what the box shows
always belongs to the board drawn beside it.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import ipywidgets as widgets

from fwwrules.compare import Comparison
from fwwrules.draw.side import DEFAULT_SIDE_STYLE, SideArtists, SideStyle, side_view_figure
from fwwrules.errors import FwwError

from .text import ui
from .view import png_bytes

if TYPE_CHECKING:
    from fwwrules.data import Scenario
    from fwwrules.rulings import AttackRuling

    from .view import BoardView

__all__ = ["STALE_OPACITY", "CompareView", "SideView"]

STALE_OPACITY = 0.45
"""How opaque the side view is drawn while a model is dragged: it shows the shot as it was
before the drag until the drop draws the new one (a side view takes most of a second to lay
out, too long for every motion of a drag)."""


def _below_layout() -> widgets.Layout:
    """An explanation's box below the board: hidden until ticked, as wide as the board and no
    wider (no margin: a wider box would push the ruling column off the board's row)."""
    return widgets.Layout(display="none", width="100%", max_width="100%", margin="0")


def _box() -> widgets.Checkbox:
    """A toggle of the panel (labelled by the panel's ``_relabel``)."""
    return widgets.Checkbox(value=False, indent=False, layout=widgets.Layout(width="auto"))


class SideView:
    """The side view of the panel's shot below its board (``toggle``: a checkbox; ``html``:
    the picture). ``artists`` are the :class:`~fwwrules.draw.side.SideArtists` of the picture
    shown (None while it is off or the attack has no Line of Cover), for tests and readers.

    Off, the box is hidden and nothing is drawn. On, :meth:`show` draws the section of the
    ruling it is given at the board's pixel ratio and shows it at the board's width (smaller
    when the notebook is narrower); a ruling that cannot be answered, or has no Line of Cover,
    shows one line saying there is no side view.
    """

    def __init__(self, view: BoardView, style: SideStyle = DEFAULT_SIDE_STYLE) -> None:
        self.view = view
        self.style = style
        self.toggle = _box()
        self.html = widgets.HTML(layout=_below_layout())
        self.artists: SideArtists | None = None
        self._picture = ""
        """The ``<img>`` of the side view drawn last (dimmed by :meth:`stale`)."""

    @property
    def on(self) -> bool:
        return bool(self.toggle.value)

    def relabel(self, lang: str) -> None:
        self.toggle.description = ui("side-view", lang)

    def show(self, scenario: Scenario, ruling: AttackRuling | None, lang: str) -> None:
        """Draw the side view of ``ruling`` on ``scenario`` (the box hidden while off). The
        attributes change once the new picture is drawn (a probe from another thread never
        sees them half set)."""
        if not self.on:
            self.artists, self._picture = None, ""
            self.html.layout.display = "none"
            self.view.say(self.html, "value", "")
            return
        self.html.layout.display = None
        if ruling is None or ruling.sight is None:
            self.artists, self._picture = None, ""
            note = html.escape(ui("side-view-none", lang))
            self.view.say(self.html, "value", f"<p><i>{note}</i></p>")
            return
        ratio = max(1.0, self.view.ratio)
        figure = side_view_figure(
            scenario, ruling, lang=lang, dpi=self.style.dpi * ratio, style=self.style
        )
        art: SideArtists = figure._fwwrules_side  # type: ignore[attr-defined]
        data = base64.b64encode(png_bytes(figure)).decode("ascii")
        width = round(figure.get_figwidth() * self.style.dpi)
        alt = html.escape(art.title_text)
        picture = (
            f'<img class="fwwrules-side-view" src="data:image/png;base64,{data}" alt="{alt}" '
            f'style="width:{width}px;max-width:100%;height:auto;display:block"/>'
        )
        self.artists, self._picture = art, picture
        self.view.say(self.html, "value", picture)

    def stale(self) -> None:
        """A drag step: the picture shown is dimmed until the drop draws the new one."""
        if self._picture:
            dim = f'<div style="opacity:{STALE_OPACITY}">{self._picture}</div>'
            self.view.say(self.html, "value", dim)

    def picture_html(self) -> str:
        """The side view for a static view of the panel (empty while off)."""
        return str(self.view.said(self.html)) if self.on else ""


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
