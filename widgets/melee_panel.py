"""MeleePanel: engagements, who is outnumbered, withdraw and slide previews, and the Armor-die
numbers of a shot into a melee. It asks :mod:`fwwrules.engagement` and :func:`fwwrules.ruling`.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets

import fwwrules
from fwwrules import engagement
from fwwrules.compare import Comparison, compare_slide
from fwwrules.compare import compare as compare_rulesets
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.draw.animate import (
    DEFAULT_FRAMES,
    SlideFrames,
    hide_contacts,
    show_contacts_in_legend,
    show_frame,
    slide_frames,
)
from fwwrules.errors import FwwError
from fwwrules.pieces import RULESET_NAMES
from fwwrules.placement import snap_step

from . import arguments as args
from .attack_panel import error_html
from .explain import CompareView
from .how_close import HowClose
from .layout import below_board, board_and_side, fit_control, wrap_row
from .panel import MovablePanel
from .text import snap_label, ui
from .view import BoardView, static_bundle

NONE = ""
GHOST = "slide:to"
"""The id the slide's ghost is dragged by (a model id holds no ':')."""
SUGGESTED_TURNS = (30.0, -30.0, 60.0, -60.0, 90.0, -90.0, 135.0, -135.0)
"""Degrees round the first model it is engaged with, tried in turn for the slide's first
destination: the first the rules allow is offered (a slide of 0 mm never is)."""


def suggested_slide(scenario: Scenario, model: str, rules: str) -> tuple[float, float]:
    """Where the ghost of a model chosen to slide starts (scenario units): turned round the
    first model it is engaged with, keeping contact, by the first of
    :data:`SUGGESTED_TURNS` that :func:`fwwrules.slide` allows (else the first of them);
    a model engaged with nobody (the rules refuse its slide) an inch (25 mm) to the right.
    Never where it stands. Rounded to a hundredth of an inch (a tenth of a millimetre), well
    inside the contact tolerance."""
    me = scenario.model(model)
    digits = 2 if scenario.units == "in" else 1
    foes = engagement.engagements(scenario).get(model, ())
    if not foes:
        step = 1.0 if scenario.units == "in" else 25.0
        return (round(me.at[0] + step, digits), round(me.at[1], digits))
    fx, fy = scenario.model(foes[0]).at
    dx, dy = me.at[0] - fx, me.at[1] - fy
    spots = []
    for turn in SUGGESTED_TURNS:
        a = math.radians(turn)
        spot = (
            round(fx + dx * math.cos(a) - dy * math.sin(a), digits),
            round(fy + dx * math.sin(a) + dy * math.cos(a), digits),
        )
        spots.append(spot)
        try:
            if fwwrules.slide(scenario, model, spot, rules=rules).legal:
                return spot
        except FwwError:
            continue
    return spots[0]


class MeleePanel(MovablePanel):
    """Close combat on ``scenario``.

    Controls: ``withdrawer`` (a model that withdraws, or ``""``), ``slider`` with ``to_x`` /
    ``to_y`` (a model that slides and where its centre ends, scenario units), ``shooter`` and
    ``target`` (a shot into a melee), ``rules``, ``lang``. Answers: ``engagements``
    (``fwwrules.engagement.engagements``), ``outnumbered`` (ids, ``engagement.is_outnumbered``),
    ``withdrawal``, ``slide``, ``ruling`` (each None when not asked or not answerable;
    ``errors`` says why); ``compare`` (ticked: the shot or attack and the slide under both
    rulesets below the board, :class:`~.explain.CompareView`). ``artists`` is the board,
    updated in place, redrawn once per change.
    Models move as in :class:`~fwwrules_widgets.AttackPanel`: drag a base (it stops at
    contact: drag one into contact and a new engagement appears), or ``model``, ``x``, ``y``.
    """

    def __init__(
        self,
        scenario: Scenario,
        *,
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
    ) -> None:
        args.scenario("MeleePanel", scenario, Scenario)
        lang, interactive = args.language(lang), args.interactive(interactive)
        args.style(style, BoardStyle)
        self.scenario = scenario
        self.engagements: Mapping[str, tuple[str, ...]] = {}
        self.outnumbered: tuple[str, ...] = ()
        self.withdrawal: Any = None
        self.slide: Any = None
        self.to: tuple[float, float] | None = None
        """Where the slide ends (scenario units): the ghost's centre, the "to" fields."""
        self.ruling: Any = None
        self.errors: dict[str, str] = {}
        self._hold = 0
        self._make_controls(lang)
        self.view = BoardView(style, interactive=interactive)
        self.how_close = HowClose(self.view, scenario)
        """The live "how close" line of the shot into the melee (empty without a shooter)."""
        self.compare = CompareView(self.view)
        """The shot (or melee attack) and the slide under both rulesets, below the board."""
        self._make_move_controls(scenario.models[0].id)
        self._compute()
        self.artists: BoardArtists = draw_board(
            scenario, self.view.ax, style=style, lang=lang, margin=True, **self._overlays()
        )
        self.view.artists = self.artists
        self.view.frame_board(lambda: self.artists, lambda: self.scenario)
        self.view.handles[GHOST] = self.artists.slide_ghost  # drag it: where the slide ends
        self.slide_hint = widgets.HTML()
        self._show_text()
        self._relabel()
        self.to_x.observe(self._destination_typed, "value")
        self.to_y.observe(self._destination_typed, "value")
        for control in (
            self.withdrawer,
            self.shooter,
            self.target,
            self.rules,
            self.lang,
        ):
            control.observe(self._changed, "value")
        self.slider.observe(self._slider_changed, "value")
        self.compare.toggle.observe(self._compare_toggled, "value")
        self.frame.observe(self._frame_changed, "value")
        rows = widgets.VBox(
            [
                wrap_row([self.rules, self.lang, self.withdrawer, self.compare.toggle]),
                wrap_row(
                    [self.slider, self.to_x, self.to_y, self.play, self.frame, self.slide_hint]
                ),
                wrap_row([self.shooter, self.target]),
            ]
        )
        moves = wrap_row([self.model, self.x, self.y, self.snap, self.hint])
        self.widget = widgets.VBox(
            [
                rows,
                board_and_side(
                    below_board(self.view.widget, self.view.size_px[0], [self.compare.html]),
                    [
                        self.engaged_html,
                        self.how_close.html,
                        self.html,
                        moves,
                        self.export_control.widget,
                    ],
                ),
            ],
            layout=widgets.Layout(width="100%"),
        )
        self._reset_play()
        self.view.redraw()

    def _make_controls(self, lang: str) -> None:
        ids = [(m.label, m.id) for m in self.scenario.models]
        none = [(ui("none", lang), NONE)]
        self.withdrawer = widgets.Dropdown(options=none + ids, value=NONE)
        self.slider = widgets.Dropdown(options=none + ids, value=NONE)
        step = 0.1 if self.scenario.units == "in" else 1.0
        self.to_x = widgets.FloatText(value=0.0, step=step)
        self.to_y = widgets.FloatText(value=0.0, step=step)
        self.shooter = widgets.Dropdown(options=none + ids, value=NONE)
        self.target = widgets.Dropdown(options=ids)
        self.rules = widgets.Dropdown(options=list(RULESET_NAMES), value=self.scenario.rules)
        self.lang = widgets.Dropdown(options=[("English", "en"), ("Deutsch", "de")], value=lang)
        self.engaged_html = widgets.HTML()
        # Play the slide: the browser's timer steps ``frame`` (a slider linked to ``play``);
        # each step shows the sliding base further along its path (show_frame).
        self.play = widgets.Play(value=0, min=0, max=DEFAULT_FRAMES - 1, step=1, interval=125)
        self.frame = widgets.IntSlider(
            value=0, min=0, max=DEFAULT_FRAMES - 1, readout=False,
            layout=widgets.Layout(width="160px"),
        )  # fmt: skip
        widgets.jslink((self.play, "value"), (self.frame, "value"))
        self._frames: SlideFrames | None = None
        self.html = widgets.HTML()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The widget, plus the board as PNG and the answers as HTML for static views."""
        return static_bundle(
            self.widget,
            self.view.figure,
            self.view.said(self.engaged_html) + self.view.said(self.html),
            self.lang.value,
            below=self.compare.shown_html(),
            lock=self.view.lock,
        )

    # --- asking the rules ---------------------------------------------------------------------
    def _ask(self, key: str, fn: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FwwError as exc:
            self.errors[key] = str(exc)
            return None

    def _compute(self) -> None:
        s, rules = self.scenario, self.rules.value
        self.errors = {}
        self.engagements = engagement.engagements(s)
        self.outnumbered = tuple(m.id for m in s.models if engagement.is_outnumbered(s, m.id))
        self.withdrawal = None
        if self.withdrawer.value:
            self.withdrawal = self._ask(
                "withdraw", fwwrules.withdraw, s, self.withdrawer.value, rules=rules
            )
        self.slide = None
        if self.slider.value and self.to is not None:
            self.slide = self._ask(
                "slide", fwwrules.slide, s, self.slider.value, self.to, rules=rules
            )
        self.ruling = None
        if self.shooter.value:
            self.ruling = self._ask(
                "ruling", fwwrules.ruling, s, self.shooter.value, self.target.value, rules=rules
            )

    def _overlays(self) -> dict[str, Any]:
        return {
            "ruling": self.ruling,
            "slide": self.slide,
            "withdraw": self.withdrawal,
            "show_bands": False,
        }

    def refresh(self, moved: str | None = None) -> None:
        """Ask again, update the artists in place, show the texts, redraw once."""
        self._stop_play()
        self._update(place_labels=True)
        self._reset_play()
        self.view.redraw(moved)

    # --- playing the slide --------------------------------------------------------------------
    def _stop_play(self) -> None:
        """Before a new question: no frames, no contact markers (nor their legend entries)."""
        self._frames = None
        hide_contacts(self.artists)

    def _reset_play(self) -> None:
        """After a new question: the slide is shown as a still (the base where it stands, the
        ghost where it ends); its frames are made when it is played."""
        with self._held():
            self.play.playing = False
            self.play.value = 0
            self.frame.value = 0
        ready = self.slide is not None
        self.play.disabled = self.frame.disabled = not ready

    def play_frame(self, k: int) -> None:
        """Show frame ``k`` of the slide (what the play control does at each tick): the
        sliding base along the ruling's path, its contacts kept (dot) or broken (cross)."""
        if self.slide is None:
            return
        if self._frames is None:
            self._frames = slide_frames(self.scenario, self.slide, self.frame.max + 1)
            show_contacts_in_legend(self.artists, self.scenario, self._frames)
        k = max(0, min(k, len(self._frames) - 1))
        show_frame(self.artists, self.scenario, self.slide.model, self._frames, k)
        self.view.redraw(self.slide.model)

    def _frame_changed(self, change: dict[str, Any]) -> None:
        if not self._hold:
            self.play_frame(int(change["new"]))

    def _settle(self) -> None:
        self._update(place_labels=True)

    def _drag_update(self) -> None:
        self._update(place_labels=False)  # placed once, on the drop

    def _update(self, *, place_labels: bool) -> None:
        self._compute()
        update_board(
            self.artists,
            self.scenario,
            lang=self.lang.value,
            place_labels=place_labels,
            legend=place_labels,  # a drag frame leaves the legend to the drop
            margin=place_labels,  # a knife-edge call's marks: on the drop, not every motion
            **self._overlays(),
        )
        self._show_text(close_call=place_labels)  # a drag step: no knife-edge sentence
        self.compare.show(self._questions(), self.lang.value)

    def _questions(self) -> list[Callable[[], Comparison]]:
        """The panel's questions whose answers depend on the ruleset, to be asked under both
        (:mod:`fwwrules.compare`): the shot into the melee (or close combat attack; the panel's
        own ruling stands for its ruleset), the slide (the panel's own too)."""
        s, out = self.scenario, []
        shooter, target, slider, to = (
            self.shooter.value, self.target.value, self.slider.value, self.to
        )  # fmt: skip
        known = self.ruling  # the panel's own: it stands for its ruleset
        if shooter:
            out.append(lambda: compare_rulesets(s, shooter, target, known=known))
        slid = self.slide
        if slider and to is not None:
            out.append(lambda: compare_slide(s, slider, to, known=slid))
        return out

    def _compare_toggled(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._locked():
            self.compare.show(self._questions(), self.lang.value)
            self.view.publish_texts()

    # --- text ---------------------------------------------------------------------------------
    def _show_text(self, *, close_call: bool = True) -> None:
        lang = self.lang.value
        s = self.scenario
        items = []
        outnumbered = f" <b>({html.escape(ui('outnumbered', lang))})</b>"
        for mid, foes in self.engagements.items():
            if not foes:
                continue
            mark = outnumbered if mid in self.outnumbered else ""
            names = ", ".join(html.escape(s.model(f).label_in(lang)) for f in foes)
            items.append(f"<li>{html.escape(s.model(mid).label_in(lang))}: {names}{mark}</li>")
        body = (
            f"<ul>{''.join(items)}</ul>"
            if items
            else f"<p>{html.escape(ui('not-engaged', lang))}</p>"
        )
        engaged = f"<h4>{html.escape(ui('engagements', lang))}</h4>{body}"
        self.view.say(self.engaged_html, "value", engaged)
        parts = [r.html(lang) for r in (self.withdrawal, self.slide) if r is not None]
        if self.ruling is not None:
            parts.append(self.ruling.html(lang, close_call=close_call))
        parts += [error_html(FwwError(e), lang) for e in self.errors.values()]
        self.view.say(self.html, "value", "".join(parts))
        if self.ruling is None:
            self.how_close.clear()
        else:
            query = (self.shooter.value, self.target.value, None, self.rules.value, None)
            self.how_close.ask(self.scenario, query, lang)

    def _relabel(self) -> None:
        lang = self.lang.value
        names = {
            "withdrawer": "withdraw",
            "slider": "slide",
            "to_x": "slide-to",
            "to_y": "y",
            "shooter": "shooter",
            "target": "target",
            "play": "play",
            "rules": "rules",
            "lang": "lang",
            "model": "model",
            "x": "x",
            "y": "y",
        }
        for attr, key in names.items():
            getattr(self, attr).description = ui(key, lang)
        self.snap.description = snap_label(self.scenario.units, lang)
        with self._held():
            for control in (self.withdrawer, self.slider, self.shooter):
                value = control.value
                control.options = [(ui("none", lang), NONE), *control.options[1:]]
                control.value = value
        controls = (self.withdrawer, self.slider, self.shooter, self.target, self.model)
        self._show_names(controls, self.scenario.display_names(lang))
        self.hint.value = self._move_hint(lang)
        self._show_slide_hint()
        self.play.tooltip = ui("play", lang)
        self.compare.relabel(lang)
        self.view.relabel(lang)
        for control in (
            self.rules,
            self.lang,
            self.withdrawer,
            self.slider,
            self.to_x,
            self.to_y,
            self.shooter,
            self.target,
            self.model,
            self.x,
            self.y,
        ):
            fit_control(control)

    # --- callbacks ----------------------------------------------------------------------------

    def _slider_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._locked():
            self.to = None
            if change["new"]:
                self.to = suggested_slide(self.scenario, change["new"], self.rules.value)
                self._show_destination(*self.to)
            self._show_slide_hint()
            self.refresh()

    def _destination_typed(self, change: dict[str, Any]) -> None:
        """The reader typed where the slide ends."""
        if self._hold:
            return
        with self._locked():
            self.to = (float(self.to_x.value), float(self.to_y.value))
            self._show_destination(*self.to)
            self.refresh()

    # --- the slide's ghost, dragged on the board ----------------------------------------------
    def _show_destination(self, x: float, y: float) -> None:
        """The "to" fields show (x, y) (scenario units) with the next picture drawn."""
        self.view.say(self.to_x, "value", float(x))
        self.view.say(self.to_y, "value", float(y))

    def _show_slide_hint(self) -> None:
        hint = ui("slide-hint", self.lang.value) if self.slider.value else ""
        self.slide_hint.value = f"<i>{html.escape(hint)}</i>" if hint else ""

    def _dragged(self, model_id: str, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A motion of a base, or of the slide's ghost: the slide's destination follows the
        pointer (on the snap grid when ``snap`` is ticked; the rules judge wherever it is),
        and the ruling, the ghost and the fields with it."""
        if model_id != GHOST:
            return super()._dragged(model_id, x_mm, y_mm)
        u = self.scenario.unit_mm
        x, y = x_mm / u, y_mm / u
        if self.snap.value:
            step = snap_step(self.scenario.units)
            x, y = round(x / step) * step, round(y / step) * step
        digits = 2 if self.scenario.units == "in" else 1  # as the offered destination
        x, y = round(x, digits), round(y, digits)
        self.to = (x, y)
        self._show_destination(x, y)
        self._frames = None  # the slide played before is another one
        self._update(place_labels=False)
        return (x * u, y * u)

    def _dropped(self, model_id: str, x_mm: float, y_mm: float) -> None:
        if model_id != GHOST:
            super()._dropped(model_id, x_mm, y_mm)
            return
        self._stop_play()
        self._update(place_labels=True)
        self._reset_play()
