"""AttackPanel: pick attacker, target, weapon, band, ruleset and language; move models; read
the ruling beside the board. The panel decides nothing: it asks :func:`fwwrules.ruling`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

import fwwrules
from fwwrules.compare import Comparison
from fwwrules.compare import compare as compare_rulesets
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.draw.side import DEFAULT_SIDE_STYLE
from fwwrules.errors import FwwError
from fwwrules.pieces import RULESET_NAMES
from fwwrules.placement import move_model
from fwwrules.rulings import AttackRuling

from . import arguments as args
from .explain import CompareView, SideView
from .how_close import HowClose
from .layout import below_board, board_and_side, fit_control, wrap_row
from .margin_worker import Query
from .panel import MovablePanel
from .text import snap_label, ui
from .view import BoardView, static_bundle

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["AttackPanel", "error_html", "move_model"]

AUTO = "auto"


def error_html(exc: Exception, lang: str) -> str:
    return (
        f'<div class="fwwrules-ruling fwwrules-error"><p><b>{html.escape(ui("error", lang))}'
        f"</b></p><p>{html.escape(str(exc))}</p></div>"
    )


def default_target(scenario: Scenario, attacker: str) -> str:
    """The target a panel opens on: the nearest opposing model ``attacker`` may attack, else
    the nearest opposing model, else (one side only) the nearest other model. Ties go to
    the model listed first."""
    me = scenario.model(attacker)
    others = [m for m in scenario.models if m.id != attacker]
    foes = [m for m in others if scenario.opposing(me, m)] or others
    foes.sort(key=lambda m: math.hypot(m.at[0] - me.at[0], m.at[1] - me.at[1]))
    for m in foes:
        try:
            if fwwrules.ruling(scenario, attacker, m.id).allowed:
                return m.id
        except FwwError:
            continue
    return foes[0].id


class AttackPanel(MovablePanel):
    """Controls, board and ruling for one attack on ``scenario``.

    Attributes tests and notebooks use: ``scenario`` (the current, moved scenario),
    ``ruling`` (the last :class:`~fwwrules.rulings.AttackRuling`, or None when the query
    could not be answered; ``error`` then holds why), ``artists`` (the board's
    :class:`~fwwrules.draw.BoardArtists`, updated in place), and the controls ``attacker``,
    ``target``, ``weapon``, ``band``, ``rules``, ``lang``, ``model`` (whose position
    ``x``/``y`` show and set, in scenario units), ``html`` (the ruling), ``widget`` (the
    whole panel), ``side`` and ``compare`` (below the board when their toggles are ticked:
    the shot's side view, :class:`~.explain.SideView`, drawn again on each change and on a
    drag's drop, and during a drag whenever the pointer rests (by a separate process: the
    board's frames never wait for it); both rulesets side by side,
    :class:`~.explain.CompareView`, on every drag step). Every change recomputes the ruling
    and redraws the board once.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        attacker: str | None = None,
        target: str | None = None,
        weapon: str | None = None,
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
    ) -> None:
        args.scenario("AttackPanel", scenario, Scenario)
        lang, interactive = args.language(lang), args.interactive(interactive)
        args.style(style, BoardStyle)
        if len(scenario.models) < 2:
            raise ValueError("an attack panel needs a scenario with at least two models")
        known = [m.id for m in scenario.models]
        for role, given in (("attacker", attacker), ("target", target)):
            if given is not None:
                args.an_id(role, given, known, scenario.source)
        self.scenario = scenario
        self.ruling: AttackRuling | None = None
        self.error: str | None = None
        self._hold = 0
        ids = [(m.label, m.id) for m in scenario.models]
        attacker = attacker or scenario.models[0].id
        target = target or default_target(scenario, attacker)
        self.attacker = widgets.Dropdown(options=ids, value=attacker)
        self.target = widgets.Dropdown(options=ids, value=target)
        self.weapon = widgets.Dropdown(options=self._weapon_options(attacker))
        if weapon is not None:
            whose = f" for {scenario.model(attacker).label}"
            choices = [w for _, w in self.weapon.options]
            self.weapon.value = args.one_of("weapon", weapon, choices, whose)
        self.band = widgets.Dropdown(options=[AUTO, "short", "long"], value=AUTO)
        self.rules = widgets.Dropdown(options=list(RULESET_NAMES), value=scenario.rules)
        self.lang = widgets.Dropdown(options=[("English", "en"), ("Deutsch", "de")], value=lang)
        self.html = widgets.HTML()

        self.view = BoardView(style, interactive=interactive)
        self.how_close = HowClose(self.view, scenario)
        """The live "how close" line (how far a model must move before the ruling changes)."""
        self.side = SideView(self.view, scenario, replace(DEFAULT_SIDE_STYLE, board=style))
        """The shot's side view below the board (``side.toggle`` shows it)."""
        self.compare = CompareView(self.view)
        """The attack under both rulesets, below the board (``compare.toggle`` shows it)."""
        self._make_move_controls(target)
        self._compute()
        self.artists: BoardArtists = draw_board(
            self.scenario,
            self.view.ax,
            style=style,
            ruling=self.ruling,
            lang=self.lang.value,
            margin=True,  # a knife-edge call's pinch point and move
        )
        self.view.artists = self.artists
        self.view.frame_board(lambda: self.artists, lambda: self.scenario)
        self._show_text()
        self._relabel()

        self.attacker.observe(self._attacker_changed, "value")
        for control in (self.target, self.weapon, self.band, self.rules, self.lang):
            control.observe(self._changed, "value")
        self.side.toggle.observe(self._toggled, "value")
        self.compare.toggle.observe(self._toggled, "value")
        picks = [self.attacker, self.target, self.weapon, self.band, self.rules, self.lang]
        controls = wrap_row([*picks, self.side.toggle, self.compare.toggle])
        moves = wrap_row([self.model, self.x, self.y, self.snap, self.hint])
        explained = [self.side.html, self.compare.html]  # below the board, when ticked
        board = below_board(self.view.widget, self.view.size_px[0], explained)
        side = [self.how_close.html, self.html, moves, self.export_control.widget]
        self.widget = widgets.VBox(
            [controls, board_and_side(board, side)], layout=widgets.Layout(width="100%")
        )
        self.view.redraw()

    # --- display ---------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the board as PNG and the ruling as HTML for static views (the
        side view and the comparison, when ticked, below the board)."""
        said, lang = self.view.said(self.html), self.lang.value
        below = self.side.picture_html() + self.compare.shown_html()
        return static_bundle(
            self.widget, self.view.figure, said, lang, below=below, lock=self.view.lock
        )

    def picture_below(self) -> Figure | None:
        """The side view shown under the board (while ticked): exported with it."""
        return self.side.artists.figure if self.side.artists is not None else None

    # --- the one place that asks the rules ----------------------------------------------------
    def _compute(self) -> None:
        band = None if self.band.value == AUTO else self.band.value
        try:
            self.ruling = fwwrules.ruling(
                self.scenario,
                self.attacker.value,
                self.target.value,
                weapon=self.weapon.value,
                rules=self.rules.value,
                band=band,
            )
            self.error = None
        except FwwError as exc:
            self.ruling = None
            self.error = str(exc)

    def _show_text(self, *, close_call: bool = True) -> None:
        """The ruling in words; a drag step leaves out the knife-edge sentence (how close the
        call is: computed on the drop, not on every motion)."""
        lang = self.lang.value
        if self.ruling is not None:
            text = self.ruling.html(lang, close_call=close_call)
        else:
            text = error_html(FwwError(self.error or ""), lang)
        self.view.say(self.html, "value", text)
        if self.ruling is None:
            self.how_close.clear()
        else:
            self.how_close.ask(self.scenario, self._query(), lang)

    def _query(self) -> Query:
        """The attack asked: attacker, target, weapon, ruleset and band (None: by the range)."""
        band = None if self.band.value == AUTO else self.band.value
        return (self.attacker.value, self.target.value, self.weapon.value, self.rules.value, band)

    def _explain(self) -> None:
        """The side view of the ruling now shown and the comparison of the rulesets (each
        hidden while its toggle is off)."""
        self.side.show(self.scenario, self.ruling, self.lang.value)
        self.compare.show(self._questions(), self.lang.value)

    def _questions(self) -> list[Callable[[], Comparison]]:
        """The panel's attack, to be asked under both rulesets (:mod:`fwwrules.compare`); the
        panel's own ruling stands for its ruleset (only the other one is asked)."""
        (a, t, w, _, band), s, r = self._query(), self.scenario, self.ruling
        return [lambda: compare_rulesets(s, a, t, weapon=w, band=band, known=r)]

    def _update_artists(self, *, place_labels: bool = True) -> None:
        update_board(
            self.artists,
            self.scenario,
            ruling=self.ruling,
            lang=self.lang.value,
            place_labels=place_labels,
            legend=place_labels,  # a drag frame leaves the legend to the drop
            margin=place_labels,  # a knife-edge call's marks: on the drop, not every motion
        )

    def refresh(self, moved: str | None = None) -> None:
        """Recompute the ruling, update the artists in place, show the text, redraw once."""
        self._compute()
        self._update_artists()
        self._show_text()
        self._explain()
        self.view.redraw(moved)

    # --- control callbacks ------------------------------------------------------------------

    def _weapon_options(self, attacker: str) -> list[tuple[str, str]]:
        m = self.scenario.model(attacker)
        lang = self.lang.value if hasattr(self, "lang") else "en"
        return [(w.label_in(lang), w.id) for w in self.scenario.weapons_of(m)]

    def _attacker_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._locked():
            with self._held():
                self.weapon.options = self._weapon_options(change["new"])
            self.refresh()

    def _relabel(self) -> None:
        lang = self.lang.value
        for key in ("attacker", "target", "weapon", "band", "rules", "lang", "model", "x", "y"):
            getattr(self, key).description = ui(key, lang)
        self.snap.description = snap_label(self.scenario.units, lang)
        with self._held():
            value = self.band.value
            self.band.options = [(ui(b, lang), b) for b in (AUTO, "short", "long")]
            self.band.value = value
        names = self.scenario.display_names(lang)
        self._show_names((self.attacker, self.target, self.weapon, self.model), names)
        self.hint.value = self._move_hint(lang)
        self.view.relabel(lang)
        self.side.relabel(lang)
        self.compare.relabel(lang)
        for control in (self.attacker, self.target, self.weapon, self.band, self.rules):
            fit_control(control)
        for control in (self.lang, self.model, self.x, self.y):
            fit_control(control)

    def _settle(self) -> None:
        self._update_artists(place_labels=True)
        self._show_text()  # with the knife-edge sentence the drag steps left out
        self._explain()  # the side view of where the drag ended

    def _drag_update(self) -> None:
        self._compute()
        self._update_artists(place_labels=False)  # placed once, on the drop
        self._show_text(close_call=False)
        self.side.follow(self.scenario, self._query(), self.lang.value)  # when the pointer rests
        self.compare.show(self._questions(), self.lang.value)  # two rulings: every step

    def _toggled(self, change: dict[str, Any]) -> None:
        """The side view's or the comparison's toggle: show (or hide) that one for the ruling
        shown (the other stays as it is: a side view takes most of a second to draw)."""
        if self._hold:
            return
        with self._locked():
            if change["owner"] is self.side.toggle:
                self.side.show(self.scenario, self.ruling, self.lang.value)
            else:
                self.compare.show(self._questions(), self.lang.value)
            self.view.publish_texts()
