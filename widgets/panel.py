"""What the panels share: a guard against reacting to their own control changes, and moving
models by mouse or by x/y controls (the layouts that fit the notebook's width are
:mod:`.layout`'s)."""

from __future__ import annotations

import html
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from typing import Any

import ipywidgets as widgets

from fwwrules.data import Scenario
from fwwrules.pieces import Bounds
from fwwrules.placement import board_bounds, hand_placement, level_at, move_model, snap_step

from .export import PictureExport
from .text import ui


def put(scenario: Scenario, model_id: str, x: float, y: float) -> Scenario:
    """``scenario`` with the model's centre at (x, y) (scenario units) at the placement rule's
    level (:func:`fwwrules.placement.level_at`): what every panel's ``move`` does."""
    return move_model(scenario, model_id, x, y, level_at(scenario, model_id, (x, y)))


class ControlPanel(PictureExport):
    """Base of the panels with a language control, a ``_relabel()`` and a ``refresh()``;
    every panel exports its picture (:meth:`save_picture`, :attr:`export_control`).

    Control callbacks do nothing while the panel itself sets control values
    (``with self._held(): ...``), so one user change recomputes the ruling once.
    """

    lang: Any
    _hold: int = 0

    @contextmanager
    def _held(self) -> Iterator[None]:
        self._hold += 1
        try:
            yield
        finally:
            self._hold -= 1

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the board view's lock (the board's mouse may be handled on another thread)."""
        view = getattr(self, "view", None)
        with view.lock if view is not None else nullcontext():
            yield

    def _changed(self, change: dict[str, Any]) -> None:
        """Any control: relabel when it is the language, then recompute and redraw."""
        if self._hold:
            return
        with self._locked():
            if change["owner"] is self.lang:
                self._relabel()
                self._relabel_export()
            self.refresh()

    def _relabel(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError

    def _show_names(self, controls: Iterable[Any], names: Mapping[str, str]) -> None:
        """Label each dropdown's options (ids) by their names in the panel's language
        (``names``: id -> name; an option not in it keeps its label), keeping the value."""
        for control in controls:
            pairs = [o if isinstance(o, tuple) else (str(o), o) for o in control.options]
            options = [(names.get(v, label), v) for label, v in pairs]
            if [tuple(p) for p in pairs] != options:
                with self._held():
                    value = control.value
                    control.options = options
                    control.value = value

    def refresh(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError


class MovablePanel(ControlPanel):
    """A panel whose models move: by mouse on the board (the live canvas) or with the ``model``,
    ``x`` and ``y`` controls (scenario units). A drag stops at contact with another base and
    at the table's edge and slides along it (:func:`fwwrules.placement.slide_at_contact`)."""

    scenario: Scenario
    bounds: Bounds
    model: widgets.Dropdown
    x: widgets.FloatText
    y: widgets.FloatText
    snap: widgets.Checkbox
    hint: widgets.HTML
    view: Any
    _drag_at: tuple[float, float, float] | None = None
    """Where the drag's last motion put the base (x, y, elevation; None: no motion yet)."""

    def _make_move_controls(self, selected: str) -> None:
        s = self.scenario
        self.bounds = board_bounds(s)
        ids = [(m.label, m.id) for m in s.models]
        step = snap_step(s.units)
        self.model = widgets.Dropdown(options=ids, value=selected)
        at = s.model(selected).at
        self.x = widgets.FloatText(value=at[0], step=step)
        self.y = widgets.FloatText(value=at[1], step=step)
        self.snap = widgets.Checkbox(value=True, indent=False, layout=widgets.Layout(width="auto"))
        self.hint = widgets.HTML()
        self.model.observe(self._model_changed, "value")
        self.x.observe(self._position_changed, "value")
        self.y.observe(self._position_changed, "value")
        self.view.on_move = self._dragged
        self.view.on_drop = self._dropped
        self.view.on_pick = self._picked
        self.view.texts.hold = self._held
        self._show_position(*at)

    def _show_position(self, x: float, y: float) -> None:
        """The x/y fields show (x, y) (scenario units) with the next picture drawn."""
        self.view.say(self.x, "value", float(x))
        self.view.say(self.y, "value", float(y))

    def _move_hint(self, lang: str) -> str:
        key = "drag-hint" if self.view.interactive else "no-drag-hint"
        return f"<i>{html.escape(ui(key, lang))}</i>"

    def move(self, model_id: str, x: float, y: float) -> None:
        """Put a model's centre at (x, y) in scenario units and refresh (one redraw).

        Unlike a drag, this places the centre exactly where asked (a file may do the same);
        the rules then judge the board as it is. Its elevation is the placement rule's, as
        a drag's and the editor's (:func:`fwwrules.placement.level_at`): on top of a piece
        with a height under the centre, on the ground when it leaves one, else as it was.
        """
        self.scenario = put(self.scenario, model_id, x, y)
        if model_id == self.model.value:
            self._show_position(x, y)
        self.refresh(moved=model_id)

    def _model_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._locked():
            self._show_position(*self.scenario.model(change["new"]).at)
            self.view.publish_texts()

    def _position_changed(self, change: dict[str, Any]) -> None:
        if self._hold:
            return
        with self._locked():
            self.move(self.model.value, self.x.value, self.y.value)

    # --- mouse (the live board canvas) ------------------------------------------------------
    def _picked(self, model_id: str) -> None:
        self._drag_at = None  # a drag starts: its first motion is drawn as a drag step
        with self._held():
            self.model.value = model_id
        self._show_position(*self.scenario.model(model_id).at)

    def _dragged(self, model_id: str, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A motion while dragging: the base moves toward the pointer (on the snap grid when
        ``snap`` is ticked), stops at contact and slides round the touched base (or along the
        table's edge) with the rest of the motion, stops at a solid piece's edge, and stands on
        a piece once the pointer is over it, at the numbers a file would hold
        (:func:`fwwrules.placement.hand_placement`); new scenario, ruling and artists (the
        view blits); a motion that leaves the base where the drag's last motion put it changes
        nothing. Returns where it is (mm)."""
        u = self.scenario.unit_mm
        placed = hand_placement(
            self.scenario,
            model_id,
            (x_mm / u, y_mm / u),
            snapped=bool(self.snap.value),
            bounds=self.bounds,
        )
        x, y = placed.at
        if self._drag_at == (x, y, placed.elevation):
            # held where the last motion left it (at contact, at the table's edge): nothing
            # to recompute, no words to say again ("how close" would measure the same board)
            return (x * u, y * u)
        self.scenario = move_model(self.scenario, model_id, x, y, placed.elevation)
        self._show_position(x, y)  # mid-drag the fields say where the base is drawn
        self._drag_update()
        self._drag_at = (x, y, placed.elevation)
        return (x * u, y * u)

    def _drag_update(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError

    def refresh(self, moved: str | None = None) -> None:  # pragma: no cover - overridden
        raise NotImplementedError

    def _settle(self) -> None:  # pragma: no cover - every panel overrides it
        """After a drop: update the artists with labels placed (the view then redraws)."""
        raise NotImplementedError

    def _dropped(self, model_id: str, x_mm: float, y_mm: float) -> None:
        self._show_position(*self.scenario.model(model_id).at)
        self._settle()
