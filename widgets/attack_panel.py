"""AttackPanel: pick attacker, target, weapon, band, ruleset and language; move models; read
the ruling beside the board. The panel decides nothing: it asks :func:`fwwrules.ruling`.
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any

import ipywidgets as widgets

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.errors import FwwError
from fwwrules.rulings import AttackRuling
from fwwrules.scenario import Scenario

from .panel import ControlPanel
from .text import ui
from .view import BoardView

AUTO = "auto"


def move_model(scenario: Scenario, model_id: str, x: float, y: float) -> Scenario:
    """The scenario with one model's centre at (x, y) in scenario units (a new scenario)."""
    scenario.model(model_id)  # raises UnknownIdError for a bad id
    models = tuple(
        dataclasses.replace(m, at=(float(x), float(y))) if m.id == model_id else m
        for m in scenario.models
    )
    return dataclasses.replace(scenario, models=models)


def error_html(exc: Exception, lang: str) -> str:
    return (
        f'<div class="fwwrules-ruling fwwrules-error"><p><b>{html.escape(ui("error", lang))}'
        f"</b></p><p>{html.escape(str(exc))}</p></div>"
    )


class AttackPanel(ControlPanel):
    """Controls, board and ruling for one attack on ``scenario``.

    Attributes tests and notebooks use: ``scenario`` (the current, moved scenario),
    ``ruling`` (the last :class:`~fwwrules.rulings.AttackRuling`, or None when the query
    could not be answered; ``error`` then holds why), ``artists`` (the board's
    :class:`~fwwrules.draw.BoardArtists`, updated in place), and the controls ``attacker``,
    ``target``, ``weapon``, ``band``, ``rules``, ``lang``, ``model`` (whose position
    ``x``/``y`` show and set, in scenario units), ``html`` (the ruling), ``widget`` (the
    whole panel). Every change recomputes the ruling and redraws the board once.
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
        if len(scenario.models) < 2:
            raise ValueError("an attack panel needs a scenario with at least two models")
        self.scenario = scenario
        self.ruling: AttackRuling | None = None
        self.error: str | None = None
        self._hold = 0
        ids = [(m.label, m.id) for m in scenario.models]
        attacker = attacker or scenario.models[0].id
        target = target or next(m.id for m in scenario.models if m.id != attacker)
        layout = widgets.Layout(width="250px")
        # Labels take their natural width so the choices are not cut off ("Sole S...").
        kw: dict[str, Any] = {"layout": layout, "style": {"description_width": "initial"}}
        self.attacker = widgets.Dropdown(options=ids, value=attacker, **kw)
        self.target = widgets.Dropdown(options=ids, value=target, **kw)
        self.weapon = widgets.Dropdown(options=self._weapon_options(attacker), **kw)
        if weapon is not None:
            self.weapon.value = weapon
        self.band = widgets.Dropdown(options=[AUTO, "short", "long"], value=AUTO, **kw)
        self.rules = widgets.Dropdown(options=["core", "vts"], value=scenario.rules, **kw)
        self.lang = widgets.Dropdown(
            options=[("English", "en"), ("Deutsch", "de")], value=lang, **kw
        )
        self.model = widgets.Dropdown(options=ids, value=target, **kw)
        step = 0.1 if scenario.units == "in" else 1.0
        at = scenario.model(target).at
        self.x = widgets.FloatText(value=at[0], step=step, **kw)
        self.y = widgets.FloatText(value=at[1], step=step, **kw)
        self.hint = widgets.HTML()
        self.html = widgets.HTML(layout=widgets.Layout(width="380px"))

        self.view = BoardView(style, interactive=interactive)
        self.view.on_move = self._dragged
        self.view.on_drop = self._dropped
        self.view.on_pick = self._picked
        self._compute()
        self.artists: BoardArtists = draw_board(
            self.scenario, self.view.ax, style=style, ruling=self.ruling, lang=self.lang.value
        )
        self.view.artists = self.artists
        self._show_text()
        self._relabel()

        self.attacker.observe(self._attacker_changed, "value")
        for control in (self.target, self.weapon, self.band, self.rules, self.lang):
            control.observe(self._changed, "value")
        self.model.observe(self._model_changed, "value")
        self.x.observe(self._position_changed, "value")
        self.y.observe(self._position_changed, "value")
        controls = widgets.VBox(
            [
                self.attacker,
                self.target,
                self.weapon,
                self.band,
                self.rules,
                self.lang,
                self.model,
                self.x,
                self.y,
                self.hint,
            ]
        )
        self.widget = widgets.HBox([controls, self.view.widget, self.html])
        self.view.redraw()

    # --- display ---------------------------------------------------------------------------
    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)

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

    def _show_text(self) -> None:
        lang = self.lang.value
        if self.ruling is not None:
            self.html.value = self.ruling.html(lang)
        else:
            self.html.value = error_html(FwwError(self.error or ""), lang)

    def _update_artists(self) -> None:
        update_board(self.artists, self.scenario, ruling=self.ruling, lang=self.lang.value)

    def refresh(self, moved: str | None = None) -> None:
        """Recompute the ruling, update the artists in place, show the text, redraw once."""
        self._compute()
        self._update_artists()
        self._show_text()
        self.view.redraw(moved)

    def move(self, model_id: str, x: float, y: float) -> None:
        """Put a model's centre at (x, y) in scenario units and refresh (one redraw)."""
        self.scenario = move_model(self.scenario, model_id, x, y)
        if model_id == self.model.value:
            with self._held():
                self.x.value, self.y.value = float(x), float(y)
        self.refresh(moved=model_id)

    # --- control callbacks ------------------------------------------------------------------

    def _weapon_options(self, attacker: str) -> list[tuple[str, str]]:
        m = self.scenario.model(attacker)
        return [(w.label, w.id) for w in self.scenario.weapons_of(m)]

    def _attacker_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._held():
            self.weapon.options = self._weapon_options(change["new"])
        self.refresh()

    def _model_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        at = self.scenario.model(change["new"]).at
        with self._held():
            self.x.value, self.y.value = at

    def _position_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        self.move(self.model.value, self.x.value, self.y.value)

    def _relabel(self) -> None:
        lang = self.lang.value
        for key in ("attacker", "target", "weapon", "band", "rules", "lang", "model", "x", "y"):
            getattr(self, key).description = ui(key, lang)
        with self._held():
            value = self.band.value
            self.band.options = [(ui(b, lang), b) for b in (AUTO, "short", "long")]
            self.band.value = value
        self.hint.value = f"<i>{html.escape(ui('drag-hint', lang))}</i>"

    # --- mouse (ipympl) -----------------------------------------------------------------------
    def _picked(self, model_id: str) -> None:
        with self._held():
            self.model.value = model_id
            self.x.value, self.y.value = self.scenario.model(model_id).at

    def _dragged(self, model_id: str, x_mm: float, y_mm: float) -> None:
        """A motion while dragging: new scenario, ruling and artists; the view blits."""
        u = self.scenario.unit_mm
        self.scenario = move_model(self.scenario, model_id, x_mm / u, y_mm / u)
        self._compute()
        self._update_artists()
        self._show_text()

    def _dropped(self, model_id: str, x_mm: float, y_mm: float) -> None:
        u = self.scenario.unit_mm
        with self._held():
            self.x.value, self.y.value = x_mm / u, y_mm / u
