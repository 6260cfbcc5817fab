"""GridPanel: Pathfinder 1e grid cover in a notebook. Pick the attacker, the target, the
attack type and the language; the panel asks :func:`fwwrules.grid_cover` and shows the
picture (:func:`fwwrules.draw.grid.draw_grid`) and the ruling. It decides nothing itself.

The figure is drawn on an Agg canvas and shown as a PNG :class:`ipywidgets.Image`, so the
panel works the same in JupyterLab, on Binder and in a headless test. A change updates the
artists in place (:func:`~fwwrules.draw.grid.update_grid`) and draws once. Over the picture
lies a restart notice (:func:`~fwwrules_widgets.board_canvas.restart_notice`): after a kernel
restart the panel says so in words, as the board panels do.
"""

from __future__ import annotations

import html
import io

import ipywidgets as widgets

import fwwrules
from fwwrules.catalogue import render
from fwwrules.draw.figure import figure_of, new_axes
from fwwrules.draw.grid import DEFAULT_GRID_STYLE, GridArtists, GridStyle, draw_grid, update_grid
from fwwrules.errors import FwwError
from fwwrules.grid import ATTACKS, GridRuling, GridScenario

from . import arguments as args
from .board_canvas import live_canvas_available, restart_notice
from .layout import board_and_side, fit_control, text_px, wrap_row
from .panel import ControlPanel
from .text import ui
from .view import PNG_PIXEL_RATIO, static_bundle

LANGS = (("English", "en"), ("Deutsch", "de"))


class GridPanel(ControlPanel):
    """Grid cover on ``scenario``.

    Controls: ``attacker``, ``target`` (creature ids), ``attack`` (``ranged``, ``melee``,
    ``reach``), ``lang`` (``en``, ``de``). Answers: ``ruling`` (a
    :class:`~fwwrules.grid.GridRuling`, or None when the query cannot be answered: ``error``
    says why). ``artists`` is the picture; ``text`` the HTML shown beside it. ``widget`` is
    the whole panel (a notebook displays the panel itself too).
    """

    def __init__(
        self,
        scenario: GridScenario,
        *,
        attacker: str | None = None,
        target: str | None = None,
        attack: str = "ranged",
        lang: str = "en",
        style: GridStyle = DEFAULT_GRID_STYLE,
    ) -> None:
        args.scenario("GridPanel", scenario, GridScenario)
        lang = args.language(lang)
        args.style(style, GridStyle)
        args.one_of("attack", attack, ATTACKS)
        if len(scenario.creatures) < 2:
            raise ValueError("GridPanel needs a grid with at least two creatures")
        known = [c.id for c in scenario.creatures]
        for role, given in (("attacker", attacker), ("target", target)):
            if given is not None:
                args.an_id(role, given, known, scenario.source)
        self.scenario = scenario
        self.ruling: GridRuling | None = None
        self.error: str | None = None
        ids = [(c.label, c.id) for c in scenario.creatures]
        first, second = ids[0][1], ids[1][1]
        self.attacker = widgets.Dropdown(options=ids, value=attacker or first)
        self.target = widgets.Dropdown(
            options=ids,
            value=target or (second if (attacker or first) == first else first),
        )
        self.attack = widgets.ToggleButtons(options=[(a, a) for a in ATTACKS], value=attack)
        self.lang = widgets.ToggleButtons(options=LANGS, value=lang)
        self.text = widgets.HTML()
        ax = new_axes(style.figsize, style.dpi, style.margins)
        self.figure = figure_of(ax)
        self.artists: GridArtists = draw_grid(scenario, ax, lang=lang, style=style)
        width_px = round(style.figsize[0] * style.dpi)
        self.image = widgets.Image(
            format="png",
            layout=widgets.Layout(width=f"{width_px}px", min_width=f"{width_px}px"),
        )
        for control in (self.attacker, self.target, self.attack, self.lang):
            control.observe(self._changed, names="value")
        self.notice = (
            restart_notice(ui("kernel-restarted", lang)) if live_canvas_available() else None
        )
        picture: widgets.Widget = self.image
        if self.notice is not None:  # after a kernel restart it says so over the picture
            picture = widgets.Box([self.image, self.notice], layout=widgets.Layout(flex="0 0 auto"))
            picture.add_class("fwwrules-overlaid")
        self.widget = widgets.VBox(
            [
                wrap_row([self.attacker, self.target]),
                wrap_row([self.attack, self.lang]),
                board_and_side(picture, [self.text, self.export_control.widget]),
            ],
            layout=widgets.Layout(width="100%"),
        )
        self._relabel()
        self.refresh()

    # --- behaviour --------------------------------------------------------------------------
    def refresh(self) -> None:
        """Ask the rules again, then update the labels, the picture and the text."""
        lang = self.lang.value
        try:
            self.ruling = fwwrules.grid_cover(
                self.scenario, self.attacker.value, self.target.value, attack=self.attack.value
            )
            self.error = None
        except FwwError as exc:
            self.ruling = None
            self.error = str(exc)
        update_grid(self.artists, self.scenario, self.ruling, lang=lang)
        if self.ruling is not None:
            self.text.value = self.ruling.html(lang)
        else:
            self.text.value = f'<p class="fwwrules-error">{html.escape(self.error or "")}</p>'
        self._publish()

    def _relabel(self) -> None:
        lang = self.lang.value
        for key in ("attacker", "target", "attack", "lang"):
            getattr(self, key).description = ui(key, lang)
        options = [(render(f"grid/attack/{a}", {}, lang), a) for a in ATTACKS]
        if list(self.attack.options) != options:
            value = self.attack.value
            with self._held():
                self.attack.options = options
                self.attack.value = value
        # every button as wide as the longest choice ('Nahkampfangriff mit Reichweite' was cut)
        self.attack.style.button_width = f"{max(text_px(o[0]) for o in options) + 24}px"
        names = {c.id: c.label_in(lang) for c in self.scenario.creatures}
        self._show_names((self.attacker, self.target), names)
        fit_control(self.attacker)
        fit_control(self.target)
        if self.notice is not None:
            self.notice.restarted_text = ui("kernel-restarted", lang)

    def _publish(self) -> None:
        """The picture at :data:`~fwwrules_widgets.view.PNG_PIXEL_RATIO` pixels per CSS pixel,
        shown at its CSS size: sharp on high-density screens."""
        out = io.BytesIO()
        self.figure.savefig(
            out,
            format="png",
            dpi=self.figure.dpi * PNG_PIXEL_RATIO,
            metadata={"Software": None},
        )
        self.image.value = out.getvalue()

    def _repr_mimebundle_(self, **kwargs: object) -> dict[str, object]:
        """The widget, plus the grid as PNG and the ruling as HTML for static views."""
        return static_bundle(self.widget, self.figure, self.text.value, self.lang.value)
