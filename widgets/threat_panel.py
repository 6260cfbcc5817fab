"""ThreatPanel: the threat map over the board; drag a shooter and the map follows, click a
spot and read every enemy's ruling for a model standing there.

The panel decides nothing: it asks :func:`fwwrules.threat_map` for the map and
:meth:`fwwrules.ThreatMap.rulings` for the rulings at a position.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

import fwwrules
from fwwrules.catalogue import side_name
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.draw.threat import LAYERS, ThreatArtists, draw_threat_map
from fwwrules.errors import FwwError
from fwwrules.pieces import RULESET_NAMES
from fwwrules.placement import hand_placement
from fwwrules.threat import DEFAULT_BASE_MM, ThreatMap, default_area, sides_of

from . import arguments as args
from .attack_panel import error_html, move_model
from .layout import board_and_side, fit_control, wrap_row
from .panel import ControlPanel, put
from .text import snap_label, ui
from .view import BoardView, static_bundle


def _checked(scenario: Any, side: Any, layer: Any, lang: Any, interactive: Any) -> list[str]:
    """The threat panel's arguments checked (:mod:`.arguments`); the scenario's sides."""
    args.scenario("ThreatPanel", scenario, Scenario)
    args.language(lang)
    args.interactive(interactive)
    sides = sides_of(scenario)
    if not sides:
        raise ValueError("a threat panel needs a scenario with models")
    if side is not None:
        args.one_of("side", side, sides)
    args.one_of("threat layer", layer, LAYERS)
    return list(sides)


class ThreatPanel(ControlPanel):
    """The threat map of ``scenario`` for a model of ``side`` with a ``base`` (scenario units).

    Attributes tests and notebooks use: ``scenario`` (current, with moved models), ``result``
    (the :class:`~fwwrules.ThreatMap`, or None when it could not be made; ``error`` says
    why), ``selected`` (the index of the clicked position, or None), ``rulings`` (the
    rulings there), ``board`` and ``overlay`` (the artists), the controls ``side``, ``layer``,
    ``rules``, ``lang``, ``html`` (the rulings' text), ``widget`` (the whole panel).
    Headless: :meth:`move` moves a model, :meth:`select` clicks a position.
    """

    def __init__(
        self,
        scenario: Scenario,
        side: str | None = None,
        *,
        base: float | None = None,
        step: float | None = None,
        area: tuple[float, float, float, float] | None = None,
        layer: str = "attackers",
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
    ) -> None:
        sides = _checked(scenario, side, layer, lang, interactive)
        base, step = args.positive("base", base), args.positive("step", step)
        area, style = args.area(area), args.style(style, BoardStyle)
        self.scenario = scenario
        self.base = base
        self.step = step
        # The grid stays put while models move (the default area follows the contents).
        u = scenario.unit_mm
        b = base if base is not None else DEFAULT_BASE_MM / u
        self.area = area if area is not None else default_area(scenario, b)
        self.result: ThreatMap | None = None
        self.error: str | None = None
        self.selected: int | None = None
        self.rulings: list[Any] = []
        self._hold = 0
        self.side = widgets.Dropdown(
            options=[(side_name(s), s) for s in sides], value=side or sides[0]
        )
        self.layer = widgets.Dropdown(options=list(LAYERS), value=layer)
        self.rules = widgets.Dropdown(options=list(RULESET_NAMES), value=scenario.rules)
        self.lang = widgets.Dropdown(options=[("English", "en"), ("Deutsch", "de")], value=lang)
        self.snap = widgets.Checkbox(value=True, indent=False, layout=widgets.Layout(width="auto"))
        self.hint = widgets.HTML()
        self.html = widgets.HTML()
        self.view = BoardView(style, interactive=interactive)
        self.view.on_move = self._dragged
        self.view.on_drop = self._dropped
        self.view.texts.hold = self._held
        self.board: BoardArtists = draw_board(self.scenario, self.view.ax, style=style, lang=lang)
        self.view.artists = self.board
        self.view.frame_board(lambda: self.board, lambda: self.scenario)
        self.overlay: ThreatArtists | None = None
        (self.marker,) = self.view.ax.plot(
            [],
            [],
            marker="X",
            markersize=11,
            color="black",
            markeredgecolor="white",
            linestyle="none",
            zorder=7,
        )
        self.view.on_click = self._clicked
        self._compute()
        self._draw_overlay()
        self._show_text()
        self._relabel()
        for control in (self.side, self.layer, self.rules, self.lang):
            control.observe(self._changed, "value")
        # As the other panels: the controls in a row above, the board, the text beside it
        # when there is room and below it when not (never in a scroll box of its own).
        controls = wrap_row([self.side, self.layer, self.rules, self.lang, self.snap])
        self.widget = widgets.VBox(
            [
                controls,
                board_and_side(
                    self.view.widget, [self.hint, self.html, self.export_control.widget]
                ),
            ],
            layout=widgets.Layout(width="100%"),
        )
        self.view.invalidate()
        self.view.redraw()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the board as PNG and the answer as HTML for static views."""
        return static_bundle(
            self.widget,
            self.view.figure,
            self.view.said(self.html),
            self.lang.value,
            lock=self.view.lock,
        )

    # --- the one place that asks the rules -------------------------------------------------
    def _compute(self, moved: str | None = None) -> None:
        """The map; after a model moved, the previous map updated (``ThreatMap.update``
        recomputes only the cells the move can change)."""
        prior = self.result
        try:
            if (
                moved is not None
                and prior is not None
                and prior.side == self.side.value
                and prior.rules == self.rules.value
            ):
                self.result = prior.update(self.scenario, moved)
            else:
                self.result = fwwrules.threat_map(
                    self.scenario,
                    self.side.value,
                    base=self.base,
                    step=self.step,
                    rules=self.rules.value,
                    area=self.area,
                )
            self.error = None
        except FwwError as exc:
            self.result = None
            self.error = str(exc)
        self.rulings = []
        ok = self.result is not None and self.selected is not None
        if ok and self.selected < len(self.result.positions):  # type: ignore[union-attr,operator]
            self.rulings = self.result.rulings(self.selected)  # type: ignore[union-attr,arg-type]

    def _draw_overlay(self) -> None:
        if self.overlay is not None:
            self.overlay.remove()
            self.overlay = None
        if self.result is not None:
            self.overlay = draw_threat_map(
                self.result,
                self.view.ax,
                self.layer.value,
                lang=self.lang.value,
                style=self.view.style,
                board=self.board,  # titled with the map's title and laid out again
            )

    def _show_text(self) -> None:
        self.view.say(self.html, "value", self._text())

    def _text(self) -> str:
        lang = self.lang.value
        if self.result is None:
            return error_html(FwwError(self.error or ""), lang)
        if self.selected is None:
            return ""
        x, y = (float(v) for v in self.result.positions[self.selected])
        head = f"<p><b>{html.escape(ui('threat-position', lang))} ({x:g}, {y:g})</b></p>"
        if not self.result.placeable[self.selected]:
            return head + f"<p>{html.escape(ui('threat-unplaceable', lang))}</p>"
        return head + "".join(r.html(lang) for r in self.rulings)

    def refresh(self, moved: str | None = None) -> None:
        """Recompute the map (and the rulings at the selected position), redraw once;
        ``moved``: the model that moved since the last map (only what it changes is
        recomputed)."""
        self._compute(moved)
        update_board(self.board, self.scenario, lang=self.lang.value)
        self._draw_overlay()
        self._show_text()
        self.view.invalidate()
        self.view.redraw(moved)

    def move(self, model_id: str, x: float, y: float) -> None:
        """Put a model's centre at (x, y) in scenario units, at the placement rule's level
        (as every panel's ``move``: on top of a piece with a height under the centre, on the
        ground when it leaves one), and recompute the map."""
        self.scenario = put(self.scenario, model_id, x, y)
        self.refresh(moved=model_id)

    def select(self, x: float, y: float) -> None:
        """Show the rulings for a model standing at the position nearest (x, y) (units)."""
        if self.result is None:
            return
        self.selected = self.result.nearest(x, y)
        px, py = (float(v) for v in self.result.positions[self.selected])
        u = self.scenario.unit_mm
        self.marker.set_data([px * u], [py * u])
        self.rulings = self.result.rulings(self.selected)
        self._show_text()
        self.view.invalidate()
        self.view.redraw()

    # --- controls and mouse ----------------------------------------------------------------
    def _relabel(self) -> None:
        lang = self.lang.value
        self.side.description = ui("threat-side", lang)
        self.layer.description = ui("threat-layer", lang)
        self.rules.description = ui("rules", lang)
        self.lang.description = ui("lang", lang)
        with self._held():
            value = self.layer.value
            self.layer.options = [(ui(k, lang), k) for k in LAYERS]
            self.layer.value = value
            side = self.side.value
            self.side.options = [(side_name(s, lang), s) for _, s in self.side.options]
            self.side.value = side
        self.hint.value = f"<i>{html.escape(ui('threat-hint', lang))}</i>"
        self.snap.description = snap_label(self.scenario.units, lang)
        self.view.relabel(lang)
        for control in (self.side, self.layer, self.rules, self.lang):
            fit_control(control)

    def _dragged(self, model_id: str, x_mm: float, y_mm: float) -> tuple[float, float]:
        """While dragging only the base moves (the map follows on release), placed as in the
        other panels (:func:`fwwrules.placement.hand_placement`: snapped when ``snap`` is
        ticked, stopped at contact, at the file's precision). Returns where it is (mm)."""
        u = self.scenario.unit_mm
        placed = hand_placement(
            self.scenario, model_id, (x_mm / u, y_mm / u), snapped=bool(self.snap.value)
        )
        x, y = placed.at
        self.scenario = move_model(self.scenario, model_id, x, y, placed.elevation)
        update_board(self.board, self.scenario, lang=self.lang.value)
        return (x * u, y * u)

    def _dropped(self, model_id: str, x_mm: float, y_mm: float) -> None:
        """The drop: the map for the board as the last motion placed it."""
        self._compute(model_id)
        self._draw_overlay()
        self._show_text()

    def _clicked(self, x_mm: float, y_mm: float) -> None:
        """A click on the board off every base (a press and release without panning)."""
        u = self.scenario.unit_mm
        self.select(x_mm / u, y_mm / u)
