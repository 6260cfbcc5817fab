"""ExampleStepper: Prev/Next through worked examples, each a board plus its ruling.

The notebooks use it for every rulebook example: a :class:`Step` names the scenario, the
question (an attack, a withdrawal or a slide) and a short narrative; the stepper asks
fwwrules and shows the board and the answer. It decides nothing.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets

import fwwrules
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.errors import FwwError, QueryError

from . import arguments as args
from .attack_panel import error_html
from .export import PictureExport
from .layout import board_and_side, fit_control, wrap_row
from .text import ui
from .view import BoardView, static_bundle

Text = str | Mapping[str, str]
"""Plain text, or the same text by language (``{"en": ..., "de": ...}``)."""

QUERY_KINDS = ("attack", "withdraw", "slide")
QUERY_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "attack": (("attacker", "target"), ("weapon", "rules", "band", "quick", "reacting_to_charge")),
    "withdraw": (("model",), ("rules",)),
    "slide": (("model", "to"), ("rules",)),
}
"""The keys a step's query of each kind needs, and those it may have (besides ``kind``): the
arguments of :func:`fwwrules.ruling`, :func:`fwwrules.withdraw` and :func:`fwwrules.slide`."""


@dataclass(frozen=True, slots=True)
class Step:
    """One worked example.

    ``query`` is the question: ``{"attacker": ..., "target": ..., "weapon": ..., "rules": ...,
    "band": ..., "quick": ...}`` for an attack (the keys of :func:`fwwrules.ruling`),
    ``{"kind": "withdraw", "model": ...}`` or ``{"kind": "slide", "model": ..., "to": [x, y]}``.
    ``title`` and ``narrative`` are plain text (escaped when shown), or one text per language.
    """

    title: Text
    scenario: Scenario
    query: Mapping[str, Any] = field(default_factory=dict)
    narrative: Text = ""

    def kind(self) -> str:
        """The question's kind; a :class:`QueryError` naming what is wrong and what would do
        when the query has an unknown kind, lacks a key its kind needs or has one it cannot
        take (a typo such as ``"atacker"``)."""
        kind = str(self.query.get("kind", "attack"))
        if kind not in QUERY_KINDS:
            raise QueryError(f"unknown step kind {kind!r}; expected one of {QUERY_KINDS}")
        needed, optional = QUERY_KEYS[kind]
        keys = [str(k) for k in self.query if k != "kind"]
        wrong = [k for k in keys if k not in needed + optional]
        missing = [k for k in needed if k not in self.query]
        if wrong or missing:
            what = [f"no key {k!r}" for k in missing] + [f"an unknown key {k!r}" for k in wrong]
            raise QueryError(
                f"a {kind} step's query has {' and '.join(what)}; it needs"
                f" {', '.join(needed)} and may have {', '.join(optional)}"
            )
        return kind

    def answer(self) -> Any:
        """Ask fwwrules the step's question; returns its ruling object."""
        q = dict(self.query)
        kind = self.kind()
        q.pop("kind", None)
        if kind == "withdraw":
            return fwwrules.withdraw(self.scenario, q.pop("model"), **q)
        if kind == "slide":
            to = q.pop("to")
            return fwwrules.slide(self.scenario, q.pop("model"), (float(to[0]), float(to[1])), **q)
        return fwwrules.ruling(self.scenario, q.pop("attacker"), q.pop("target"), **q)


def _text(value: Text, lang: str) -> str:
    if isinstance(value, str):
        return value
    return value.get(lang) or next(iter(value.values()), "")


class ExampleStepper(PictureExport):
    """Prev/Next through ``steps``; shows each step's board, narrative and ruling.

    Attributes: ``steps``, ``index`` (current step, 0-based), ``step``, ``ruling`` (the
    current answer, None when the question could not be answered; ``error`` says why),
    ``artists``, and the controls ``prev``, ``next``, ``lang``; ``widget`` is the panel.
    """

    def __init__(
        self,
        steps: Sequence[Step],
        *,
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
    ) -> None:
        lang, interactive = args.language(lang), args.interactive(interactive)
        args.style(style, BoardStyle)
        if isinstance(steps, Step) or not all(isinstance(s, Step) for s in steps):
            raise TypeError("an example stepper needs a list of Step(title, scenario, query)")
        if not steps:
            raise ValueError("an example stepper needs at least one step")
        self.steps = tuple(steps)
        self.index = 0
        self.ruling: Any = None
        self.error: str | None = None
        self.style = style
        self.prev = widgets.Button(description=ui("prev", lang))
        self.next = widgets.Button(description=ui("next", lang))
        self.position = widgets.Label()
        self.lang = widgets.Dropdown(
            options=[("English", "en"), ("Deutsch", "de")], value=lang, description=""
        )
        self.title = widgets.HTML()
        fit_control(self.lang)
        self.narrative = widgets.HTML(layout=widgets.Layout(width="auto"))
        self.html = widgets.HTML(layout=widgets.Layout(width="auto"))
        self.view = BoardView(style, interactive=interactive)
        self.artists: BoardArtists | None = None
        self.view.frame_board(lambda: self.artists, lambda: self.step.scenario)
        self._drawn: Scenario | None = None
        self.prev.on_click(lambda _: self.go(self.index - 1))
        self.next.on_click(lambda _: self.go(self.index + 1))
        self.lang.observe(self._lang_changed, "value")
        bar = wrap_row([self.prev, self.position, self.next, self.lang])
        self.widget = widgets.VBox(
            [
                bar,
                self.title,
                board_and_side(
                    self.view.widget, [self.narrative, self.html, self.export_control.widget]
                ),
            ],
            layout=widgets.Layout(width="100%"),
        )
        self.go(0)

    def _lang_changed(self, _change: Any) -> None:
        self._relabel_export()
        self.go(self.index)

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the current step's board as PNG and its text as HTML."""
        text = self.title.value + self.narrative.value + self.html.value
        return static_bundle(
            self.widget, self.view.figure, text, self.lang.value, lock=self.view.lock
        )

    def go(self, index: int) -> None:
        """Show step ``index`` (clamped to the steps), redrawing the board once."""
        self.index = max(0, min(index, len(self.steps) - 1))
        step, lang = self.step, self.lang.value
        try:
            self.ruling = step.answer()
            self.error = None
        except FwwError as exc:
            self.ruling, self.error = None, str(exc)
        kind = step.kind()
        overlays: dict[str, Any] = {
            "ruling": self.ruling if kind == "attack" else None,
            "slide": self.ruling if kind == "slide" else None,
            "withdraw": self.ruling if kind == "withdraw" else None,
        }
        if self.artists is None or self._drawn is not step.scenario:
            self.view.clear()
            self.artists = draw_board(
                step.scenario, self.view.ax, style=self.style, lang=lang, **overlays
            )
            self.view.artists = self.artists
            self._drawn = step.scenario
        else:
            update_board(self.artists, step.scenario, lang=lang, **overlays)
        self.title.value = f"<h4>{html.escape(_text(step.title, lang))}</h4>"
        narrative = html.escape(_text(step.narrative, lang)).replace("\n", "<br>")
        self.narrative.value = (
            f'<p style="white-space:normal;overflow-wrap:anywhere">{narrative}</p>'
            if narrative
            else ""
        )
        if self.ruling is not None:
            self.html.value = self.ruling.html(lang)
        else:
            self.html.value = error_html(FwwError(self.error or ""), lang)
        self.position.value = f"{self.index + 1} / {len(self.steps)}"
        self.prev.disabled = self.index == 0
        self.next.disabled = self.index == len(self.steps) - 1
        self.prev.description = ui("prev", lang)
        self.next.description = ui("next", lang)
        self.view.relabel(lang)
        self.view.redraw()
