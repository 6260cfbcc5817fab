"""BoardEditor: build a scenario with the mouse (or with method calls) inside a notebook.

The editor is a view of :mod:`fwwrules.editing`: its model is a history of drafts, each a
frozen :class:`~fwwrules.data.Scenario` and what ``fwwrules check`` says of the file it
would save to. Every change is one of that module's pure functions; the board is drawn by
:func:`fwwrules.draw.draw_board` on a :class:`~fwwrules_widgets.view.BoardView`, as every
panel draws it, with the editor's marks over it (:mod:`.editor_marks`: the selection, the
pieces the check names, the rotation handle, the tools' previews).

What an action does when its result would be wrong (:mod:`fwwrules.editing`):

* **Refused** (nothing changes, the panel says why in the loader's words): a model placed
  where its base may not stand, a value the file cannot hold, a polygon with fewer than three
  corners, an unknown id. A dragged base never stops where it may not stand: it stops at
  contact and at the table's edge (:func:`fwwrules.placement.hand_placement`).
* **Flagged** (the change is kept, the piece outlined red and the reason listed): anything
  else the loader rejects, such as a self-intersecting outline. Undo, delete or fix it;
  :meth:`BoardEditor.save` refuses while any problem remains and never touches the file then.

Coordinates of the methods are scenario units (``in`` or ``mm``) with the origin at the
board's lower-left corner; the snap grid is a quarter inch (6.35 mm) or a millimetre. The
board's artists (``artists``, ``marks``) are in millimetres, as every board is drawn.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import html
import math
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.backend_bases import MouseEvent
from matplotlib.figure import Figure

from fwwrules import editing
from fwwrules.arguments import table_size
from fwwrules.catalogue import check_lang
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardArtists, BoardStyle, draw_board, update_board
from fwwrules.draw.board import TERRAIN_DRAW_ORDER, VIEW_MARGIN
from fwwrules.draw.labels import BASE_RINGS
from fwwrules.editing import Draft, EditRefused, History, problem_text
from fwwrules.errors import FwwError, Problem, ScenarioError
from fwwrules.pieces import Bounds, Circle, Model, Terrain, title_in
from fwwrules.saving import save as save_scenario
from fwwrules.saving import to_data
from fwwrules.scenario_spec import load_scenario

from . import arguments as args
from .board_canvas import live_canvas_available
from .editor_form import EditorForm
from .editor_marks import INVALID_COLOUR, RING_GAP_MM, RING_WIDTH_PT, EditorMarks
from .layout import board_and_side, wrap_row
from .panel import ControlPanel
from .text import snap_label, ui
from .view import BoardView, Framing, png_bytes

__all__ = ["CANVAS_PX", "TOOLS", "BoardEditor", "EditRefused", "editor_style"]

XY = tuple[float, float]

CANVAS_PX = round(DEFAULT_STYLE.figsize[0] * DEFAULT_STYLE.dpi)
"""Width of the board canvas in CSS pixels by default: the panels' board (780 x 540), so the
editor draws a board at the size the panels do."""

TOOLS = ("select", "model", "rect", "polygon", "circle")
HANDLE_SHARE = 1 / 80
"""The rotation handle's radius, as a share of the width of the board shown."""


def editor_style(style: BoardStyle = DEFAULT_STYLE, canvas_px: int | None = None) -> BoardStyle:
    """The board's style in the editor: ``style`` (the panels' board: pieces named as every
    picture names them; a selected piece's id is said beside the board), at ``canvas_px``
    CSS pixels wide (the height in proportion) when given. The editor lays its own light
    grid over the table (:meth:`EditorMarks.show_grid`)."""
    if canvas_px is None:
        return style
    w, h = style.figsize
    scale = canvas_px / (w * style.dpi)
    return dataclasses.replace(style, figsize=(w * scale, h * scale))


@dataclasses.dataclass(frozen=True)
class Gesture:
    """A tool's press, drag and release in progress (scenario units): ``what`` is ``rect`` or
    ``circle`` (a new piece spanned from ``start``), ``terrain`` (the piece ``ident`` moved
    by the pointer's way from ``start``) or ``handle`` (the piece ``ident`` turned toward the
    pointer); ``to`` is where the pointer is now (the press itself before any motion)."""

    what: str
    start: XY
    to: XY
    ident: str = ""


def _interactive_default() -> bool:
    """The live board canvas is available and a Jupyter kernel runs this code."""
    if not live_canvas_available():
        return False
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


class BoardEditor(ControlPanel):
    """A board editor: models, terrain, undo/redo, snap, live validation, save.

    ``BoardEditor(scenario=None, units="in", size=(48, 48))`` starts from ``scenario`` (its
    units and, when the file gives one, its ``board`` size; else ``size``, or without it a
    table from the origin holding every piece with an inch to spare) or from an empty board
    of ``size`` in ``units``. Without ``size`` the table is 48" x 48" (1219.2 mm when
    ``units="mm"``); a size that is not two positive numbers is refused. Everything the mouse
    does is also a method (``add_model``, ``move``, ``rotate``, ``add_rect``,
    ``add_polygon``, ``add_circle``, ``delete``, ``set_model``, ``set_terrain``,
    ``set_title``, ``undo``, ``redo``, ``save``), in scenario units.

    Read ``scenario`` for the frozen :class:`~fwwrules.data.Scenario` (it raises
    :class:`~fwwrules.errors.ScenarioError` while the board has problems), ``draft`` for the
    board as it is with ``problems`` (the loader's findings), ``data`` for its file data,
    ``message`` for the panel's message widget and ``widget`` for the whole panel.
    """

    def __init__(
        self,
        scenario: Scenario | None = None,
        units: str = "in",
        size: Sequence[float] | None = None,
        *,
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
        canvas_px: int | None = None,
        source: str = "board.yaml",
    ) -> None:
        if scenario is not None:  # every argument checked before anything is drawn
            args.scenario("BoardEditor", scenario, Scenario)
        args.one_of("units", units, ("in", "mm"))
        lang, interactive = args.language(lang), args.interactive(interactive)
        style, canvas_px = args.style(style, BoardStyle), args.pixels("canvas_px", canvas_px)
        if not isinstance(source, str):
            raise TypeError(f"source must be a file name (text), not {source!r}")
        if size is not None:  # refused before anything is drawn (a figure of no size warns)
            size = table_size(size, scenario.units if scenario is not None else units)
        start = editing.new_draft(
            scenario, units=units, size=None if size is None else (size[0], size[1]),
            source=source,
        )  # fmt: skip
        self.history = History((start,))
        self.style = style
        self.selected: str | None = None
        self.note = ""
        self.interactive = _interactive_default() if interactive is None else interactive
        self.view = BoardView(editor_style(style, canvas_px), interactive=self.interactive)
        self.zoomed: Bounds | None = None
        """The view the wheel, +/−, a pan or a fit button chose (board mm); None: the table
        and every piece (:meth:`_view_mm`)."""
        self.view.set_framing(Framing(self._view_mm, self._models_view, self._show_view))
        self.artists: BoardArtists | None = None
        self.marks: EditorMarks | None = None
        self._drawn: tuple[tuple[Terrain, ...], str] | None = None
        self._gesture: Gesture | None = None
        self._corners: list[XY] = []
        self._dragged: Scenario | None = None
        self._flagged: frozenset[str] = frozenset()
        self.form = EditorForm(self.units, self._held)
        self._build_controls(lang)
        self._connect()
        self.widget = self._layout()
        self._relabel()
        self._show()

    # === state ==============================================================================
    @property
    def draft(self) -> Draft:
        """The board as it is: the scenario and what the file check says of it."""
        return self.history.now

    @property
    def problems(self) -> tuple[Problem, ...]:
        """The loader's findings on the board (empty: ``fwwrules check`` says ``ok``)."""
        return self.draft.problems

    @property
    def valid(self) -> bool:
        return self.draft.valid

    @property
    def scenario(self) -> Scenario:
        """The frozen scenario; raises :class:`ScenarioError` (the loader's) while invalid."""
        if not self.draft.valid:
            raise ScenarioError(self.source, self.problems)
        return self.draft.scenario

    @property
    def data(self) -> dict[str, Any]:
        """The board as the file's data (a new copy)."""
        return to_data(self.draft.scenario)

    @property
    def source(self) -> str:
        return self.draft.source

    @property
    def units(self) -> str:
        return self.draft.scenario.units

    @property
    def unit_mm(self) -> float:
        return self.draft.scenario.unit_mm

    @property
    def size(self) -> XY:
        """The table's width and height (scenario units)."""
        return self.draft.size

    @property
    def bounds(self) -> Bounds:
        """The table's :class:`~fwwrules.pieces.Bounds` in scenario units (origin [0, 0])."""
        return self.draft.table

    @property
    def figure(self) -> Figure:
        return self.view.figure

    @property
    def ax(self) -> Any:
        return self.view.ax

    @property
    def canvas_widget(self) -> widgets.DOMWidget:
        return self.view.widget

    def snap(self, p: Sequence[float]) -> XY:
        """The point on the snap grid (¼″ in inch boards, 1 mm in mm boards) nearest ``p``
        when snapping is on, else ``p`` rounded."""
        return editing.snapped(p, self.units, bool(self.snap_box.value))

    # === changes =============================================================================
    def _refuse(self, why: str | Sequence[Problem] | EditRefused) -> EditRefused:
        """Show why an action was not done; return the error for the caller to raise."""
        error = why if isinstance(why, EditRefused) else EditRefused(why)
        self.note = f"{ui('refused', self.lang.value)} {error}"
        self._show_message()
        return error

    def _edit(
        self, change: Callable[[Draft], Draft | tuple[Draft, str]], *, draw: bool = True
    ) -> str | None:
        """Make ``change(draft)`` the current board (a new undo step) and show it (drawn
        unless ``draw`` is False: the view draws next); a change that makes a piece gives its
        id too, and the piece is selected (the id is returned). A refusal is shown and
        raised. A board that cannot be drawn is taken back, and refused."""
        with self._locked():
            try:
                done = change(self.draft)
            except EditRefused as refused:
                raise self._refuse(refused) from None
            after, made = done if isinstance(done, tuple) else (done, None)
            if after is self.draft:
                return made
            before = (self.history, self.selected)
            self.history = self.history.then(after)
            self.selected = made if made is not None else self.selected
            self.note = ""
            try:
                self._show(draw)
            except (MemoryError, OverflowError, RuntimeError, ValueError) as exc:
                self.history, self.selected = before
                self._show()
                why = f"{type(exc).__name__}: {exc}"[:200]
                raise self._refuse(
                    f"the board could not be drawn ({why}); the edit was undone"
                ) from None
            return made

    def undo(self) -> bool:
        """Go one step back; False when there is nothing to undo."""
        return self._travel(self.history.undo())

    def redo(self) -> bool:
        """Go one step forward again; False when there is nothing to redo."""
        return self._travel(self.history.redo())

    def _travel(self, history: History | None) -> bool:
        if history is None:
            return False
        with self._locked():
            self._cancel_gesture()
            self.history = history
            self.note = ""
            self._show()
        return True

    def add_model(
        self,
        at: Sequence[float],
        *,
        base: str | float | None = None,
        faction: str | None = None,
        name: str | Mapping[str, str] | None = None,
        skills: Mapping[str, Any] | None = None,
        weapons: Sequence[str] | None = None,
        ident: str | None = None,
    ) -> str:
        """Place a model with its base centre at ``at`` (snapped); returns its id.

        ``base`` is a size class (``normal``, the default, ``large``, ``huge``: 32, 40, 60 mm)
        or a diameter in scenario units; ``faction`` defaults to ``player``; ``name`` is one
        text or one per language (``{"en": ..., "de": ...}``); the id is made from the
        (English) name (or the faction: lower-cased, words joined by ``-``, every letter
        kept) unless ``ident`` gives one. Weapons named from the stock profiles (``pistol``,
        ``rifle`` ...) are added to the file's weapon list. Refused where the base may not
        stand (another base, the table's edge) and for a value the file cannot hold.
        """
        fields: dict[str, Any] = {"base": base, "faction": faction, "name": name}
        fields.update(skills=skills, weapons=list(weapons) if weapons else None)
        made = self._edit(lambda d: editing.add_model(d, self.snap(at), fields, ident))
        assert made is not None
        return made

    def move(self, ident: str, to: Sequence[float]) -> XY:
        """Move a model's base centre, or a terrain piece's centre, toward ``to`` (snapped).

        A base stops at contact with another base and at the board's edge and slides along
        them, and stands on a piece with a height it is put on
        (:func:`fwwrules.placement.hand_placement`); returns where it ended. A piece of
        terrain goes to ``to``.
        """
        ended: list[XY] = []

        def change(d: Draft) -> Draft:
            after, end = editing.move(d, ident, self.snap(to), snapped=False)
            ended.append(end)
            return after

        self._edit(change)
        return ended[-1]

    def rotate(self, ident: str, degrees: float) -> None:
        """Turn a terrain piece by ``degrees`` (counter-clockwise) about its centre: a
        rectangle keeps its size and changes its ``angle`` (kept in (-180, 180]); a polygon's
        corners turn about their mean; a circle does not change."""
        self._edit(lambda d: editing.rotate(d, ident, degrees))

    def delete(self, ident: str) -> None:
        """Remove a model or terrain piece."""
        self._edit(lambda d: editing.delete(d, ident))

    def _add_terrain(self, shape: Callable[[Draft], dict[str, Any]], props: Any) -> str:
        fields = dict(props)
        ident = fields.pop("ident", None)
        made = self._edit(lambda d: editing.add_terrain(d, shape(d), fields, ident))
        assert made is not None
        return made

    def add_rect(
        self, corner: Sequence[float], opposite: Sequence[float], angle: float = 0.0, **props: Any
    ) -> str:
        """Add a rectangle spanned by two opposite corners (snapped; axis-parallel, then
        turned by ``angle``); ``props`` are ``kind`` (default ``cover``), ``name``,
        ``height``, ``huge``, ``elevated`` and ``ident``. A rectangle of no width or height
        is refused."""
        a, b = self.snap(corner), self.snap(opposite)

        def shape(_d: Draft) -> dict[str, Any]:
            out = editing.rect_between(a, b)
            out["rect"]["angle"] = editing.normal_angle(angle)
            return out

        return self._add_terrain(shape, props)

    def add_polygon(self, points: Sequence[Sequence[float]], **props: Any) -> str:
        """Add a polygon by its corners (snapped). Fewer than three corners is refused (the
        loader's message); a self-intersecting outline is kept, outlined red and listed, and
        blocks saving until it is fixed, deleted or undone."""
        corners = [self.snap(p) for p in points]
        return self._add_terrain(lambda d: editing.polygon_of(d, corners), props)

    def add_circle(self, at: Sequence[float], diameter: float, **props: Any) -> str:
        """Add a round piece of ``diameter`` (scenario units) centred at ``at``."""
        centre = self.snap(at)
        d = editing.snapped_length(diameter, self.units, bool(self.snap_box.value))
        shape = {"circle": {"at": list(centre), "diameter": d}}
        return self._add_terrain(lambda _d: shape, props)

    def set_model(self, ident: str, **props: Any) -> None:
        """Change ``name``, ``faction``, ``base``, ``skills``, ``weapons`` or ``elevation`` of a
        model (``None`` or ``""`` removes an optional one). A base that grows where it may not
        stand is refused."""
        self._edit(lambda d: editing.set_model(d, ident, **props))

    def set_terrain(self, ident: str, **props: Any) -> None:
        """Change ``kind``, ``name``, ``height``, ``huge`` or ``elevated`` of a piece; ``None``
        or ``""`` removes an optional one."""
        self._edit(lambda d: editing.set_terrain(d, ident, **props))

    def set_title(self, text: str, lang: str | None = None) -> None:
        """Set the board's title in ``lang`` (default: the editor's language); saved in the
        file. A title in English only is one line of text (``title: ...``); titles in more
        languages are saved per language (``title: {en: ..., de: ...}``); an empty text
        removes that language's title. A plain title a file gave is taken as the English one
        when another language gets its own."""
        lang = check_lang(lang or self.lang.value)
        self._edit(lambda d: editing.set_title(d, text, lang))

    def _title_changed(self, change: dict[str, Any]) -> None:
        if not self._hold:
            with self._locked():
                self._guard(lambda: self.set_title(str(change["new"])))

    # === saving and loading ==================================================================
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the board to ``path`` (YAML, or JSON for ``.json``) and return the path.

        Refuses (:class:`ScenarioError`, also shown in the panel) while the board has
        problems; the file is then left untouched. What is written loads back equal and is
        written to a temporary file first (:func:`fwwrules.save`), so an interrupted save
        never leaves half a file.
        """
        p = Path(path)
        if not self.valid:
            error = ScenarioError(str(p), self.problems)
            self.note = f"{ui('invalid', self.lang.value)} {error}"
            self._show_message()
            raise error
        save_scenario(self.draft.scenario, p)
        self.note = f"{ui('saved', self.lang.value)} {p}"
        self._show_message()
        return p

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], **kwargs: Any) -> BoardEditor:
        """An editor on a scenario file (it must load; the loader's error says why not).

        Comments and the layout of the file are not kept: saving writes the data in the
        library's own layout (as ``fwwrules.save`` does). Without a ``board`` size in the
        file, the table is the ``size`` argument, or else one from the origin that holds every
        piece with an inch to spare; saving then writes that size into the file.
        """
        scenario = load_scenario(path)
        kwargs.setdefault("source", str(path))
        return cls(scenario, **kwargs)

    def picture_figure(self) -> Figure:
        """The board as ``fwwrules render`` draws it, in the editor's language, with its title
        (what the export control writes; the editing canvas has marks and previews). Raises
        the loader's error while the board has problems."""
        from fwwrules.draw.render import render_figure

        return render_figure(self.scenario, lang=self.lang.value, style=self.style)

    def attack_panel(self) -> Any:
        """An :class:`~fwwrules_widgets.AttackPanel` on the current board, shown below the
        editor (the button does this). Refused while the board is invalid or has fewer
        than two models."""
        from .attack_panel import AttackPanel

        if not self.valid:
            raise self._refuse("; ".join(problem_text(p) for p in self.problems))
        if len(self.draft.scenario.models) < 2:
            raise self._refuse("an attack needs at least two models on the board")
        scenario = self.draft.scenario
        panel = AttackPanel(scenario, lang=self.lang.value, interactive=self.interactive)
        self.attack_box.children = [panel.widget]
        return panel

    # === the panel ===========================================================================
    def _build_controls(self, lang: str) -> None:
        wide = widgets.Layout(width=f"{318}px")
        kw: dict[str, Any] = {"layout": wide, "style": {"description_width": "100px"}}
        self.tool = widgets.ToggleButtons(
            options=[(t, t) for t in TOOLS], value="select", style={"button_width": "96px"}
        )
        self.snap_box = widgets.Checkbox(value=True, indent=False)
        self.undo_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.redo_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.delete_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.lang = widgets.Dropdown(
            options=[("English", "en"), ("Deutsch", "de")], value=check_lang(lang), **kw
        )
        self.selected_label = widgets.HTML()
        self.apply_button = widgets.Button(layout=wide)
        self.path = widgets.Text(value="my-board.yaml", **kw)
        self.title = widgets.Text(value="", continuous_update=False, **kw)
        self.save_button = widgets.Button(layout=widgets.Layout(width="140px"))
        self.attack_button = widgets.Button(layout=wide)
        self.hint = widgets.HTML(layout=widgets.Layout(width="95%"))
        self.message = widgets.HTML(layout=widgets.Layout(width="95%"))
        self.attack_box = widgets.VBox()

    def _layout(self) -> widgets.Widget:
        """The tools above the board; the messages under it, where the eye is while drawing;
        the forms beside it (below it when the notebook is narrow)."""
        tools = wrap_row(
            [self.tool, self.undo_button, self.redo_button, self.delete_button, self.snap_box]
        )
        board = widgets.VBox(
            [self.view.widget, self.message, self.hint],
            layout=widgets.Layout(width=f"{self.view.size_px[0] + 10}px", flex="0 0 auto"),
        )
        side = [self.selected_label, *self.form.controls, self.apply_button, self.title,
                self.path, self.save_button, self.attack_button, self.lang,
                self.export_control.widget]  # fmt: skip
        return widgets.VBox([tools, board_and_side(board, side), self.attack_box])

    def _connect(self) -> None:
        self.tool.observe(self._tool_changed, "value")
        self.lang.observe(self._changed, "value")
        self.title.observe(self._title_changed, "value")
        self.undo_button.on_click(lambda _b: self.undo())
        self.redo_button.on_click(lambda _b: self.redo())
        self.delete_button.on_click(lambda _b: self._guard(self._delete_selected))
        self.apply_button.on_click(lambda _b: self._guard(self._apply_selected))
        self.save_button.on_click(lambda _b: self._guard(lambda: self.save(self.path.value)))
        self.attack_button.on_click(lambda _b: self._guard(self.attack_panel))
        view = self.view
        view.on_press = self._on_press
        view.on_pick = self._picked
        view.on_move = self._dragged_model
        view.on_drop = self._dropped_model
        view.on_click = self._clicked
        view.client_moving = self._moving_marks
        view.texts.hold = self._held
        self.figure.canvas.mpl_connect("motion_notify_event", self._motion)
        self.figure.canvas.mpl_connect("button_release_event", self._release)

    def _guard(self, action: Callable[[], Any]) -> None:
        """Run a button's action; a refusal or an unusable board is shown, never raised."""
        with contextlib.suppress(FwwError):  # the message is already in the panel
            action()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = self.widget._repr_mimebundle_(**kwargs)
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        bundle = dict(bundle or {})
        bundle["text/plain"] = self.summary()
        # Static views (nbconvert, GitHub) cannot run the widget: they show the board.
        bundle["image/png"] = base64.b64encode(self.png()).decode("ascii")
        return bundle

    def png(self) -> bytes:
        """The board as a PNG (for static views and tests), drawn under the board view's
        lock: the board's mouse may be sending frames of the same canvas on another thread."""
        with self._locked():
            return png_bytes(self.figure)

    def summary(self) -> str:
        """One line: units, board size, counts, and whether the board is valid."""
        s = self.draft.scenario
        state = "valid" if self.valid else f"{len(self.problems)} problem(s)"
        return (
            f"BoardEditor: {self.size[0]:g} x {self.size[1]:g} {self.units}, "
            f"{len(s.models)} model(s), {len(s.terrain)} terrain piece(s), {state}"
        )

    # --- the forms --------------------------------------------------------------------------
    def _piece(self, ident: str | None) -> Model | Terrain | None:
        """The selected model or piece (None: nothing selected, or it is gone)."""
        s = self.draft.scenario
        found = [m for m in s.models if m.id == ident] + [t for t in s.terrain if t.id == ident]
        return found[0] if found else None

    def _apply_selected(self) -> None:
        """Write the form into the selected piece (the Apply button)."""
        piece = self._piece(self.selected)
        if piece is None:
            raise self._refuse(ui("nothing-selected", self.lang.value))
        # the name field edits the name in the editor's language; a name given per language
        # keeps the other languages' names (as the title does)
        lang = self.lang.value
        if isinstance(piece, Model):
            self.set_model(piece.id, **self.form.model_fields(lang, piece.name))
        else:
            self.set_terrain(piece.id, **self.form.terrain_fields(lang, piece.name))

    def _delete_selected(self) -> None:
        if self._piece(self.selected) is None:
            raise self._refuse(ui("nothing-selected", self.lang.value))
        assert self.selected is not None
        self.delete(self.selected)

    def refresh(self) -> None:
        self._show()

    def _relabel(self) -> None:
        lang = self.lang.value
        with self._held():
            self.tool.options = [(ui(f"tool-{t}", lang), t) for t in TOOLS]
        self.form.relabel(lang)
        self.lang.description = ui("lang", lang)
        self.path.description = ui("file", lang)
        self.title.description = ui("title", lang)
        self.snap_box.description = snap_label(self.units, lang)
        self.view.relabel(lang)
        buttons = {
            "undo": self.undo_button,
            "redo": self.redo_button,
            "delete": self.delete_button,
            "apply": self.apply_button,
            "save": self.save_button,
            "open-attack": self.attack_button,
        }
        for key, button in buttons.items():
            button.description = ui(key, lang)
        self.hint.value = f"<i>{html.escape(ui('editor-hint', lang))}</i>"

    def _tool_changed(self, change: dict[str, Any]) -> None:
        """A new tool: whatever the last one was drawing is dropped, and the board is shown
        whole again."""
        with self._locked():
            self._cancel_gesture()
            # the polygon's next edge follows the mouse between clicks
            self.view.set_hover(change["new"] == "polygon")
            self.view.draw()

    # --- display ---------------------------------------------------------------------------
    def _show(self, draw: bool = True) -> None:
        """The board, the message and the forms as the draft and the selection are."""
        with self._locked():
            if self._piece(self.selected) is None:
                self.selected = None
            self._draw_board(draw)
            self._show_message()
            self.form.offer_weapons(self.draft.scenario)
            self.form.show(self._piece(self.selected), self.lang.value)
            with self._held():  # the title of the language shown
                self.title.value = title_in(self.draft.scenario.title, self.lang.value) or ""

    def _show_message(self) -> None:
        lang = self.lang.value
        parts = []
        if self.note:
            parts.append(f"<p>{html.escape(self.note)}</p>".replace("\n", "<br>"))
        if self.problems:
            items = "".join(f"<li>{html.escape(problem_text(p))}</li>" for p in self.problems)
            parts.append(
                f'<p style="color:{INVALID_COLOUR}"><b>{html.escape(ui("invalid", lang))}</b></p>'
                f"<ul>{items}</ul>"
            )
        else:
            parts.append(f"<p>{html.escape(ui('valid', lang))}</p>")
        self.message.value = '<div class="fwwrules-editor-message">' + "".join(parts) + "</div>"
        sel = self.selected or ui("nothing-selected", lang)
        self.selected_label.value = (
            f"{html.escape(ui('selected', lang))}: <b>{html.escape(sel)}</b>"
        )

    def _view_mm(self) -> Bounds:
        """The part of the board shown (mm): the table and every piece, with a margin."""
        u = self.unit_mm
        d = self.draft
        box = editing.content_box(d.scenario, d.size).scaled(u)
        margin = max(1.0, VIEW_MARGIN * max(d.size) * u)
        return Bounds(box.xmin - margin, box.ymin - margin, box.xmax + margin, box.ymax + margin)

    def _models_view(self) -> Bounds:
        from fwwrules.draw.board import frame_view

        return frame_view(self.draft.scenario, "models", self.view.style)

    def _show_view(self, view: Bounds | None, final: bool) -> None:
        """Show ``view`` (the view's zoom and pan; None: the view shown, laid out again)."""
        from fwwrules.draw.board import fit_limits, set_view

        if self.artists is None:
            return
        view = view or self.zoomed or self._view_mm()
        self.zoomed = None if view == self._view_mm() else view
        if final:
            set_view(self.artists, self.draft.scenario, view)
            self._show_marks(self.draft.scenario)  # the handle's size follows the scale
        else:
            self.artists.state["view"] = view
            fit_limits(self.view.ax, view)

    def _draw_board(self, draw: bool = True) -> None:
        """The board by :func:`~fwwrules.draw.draw_board` (drawn anew when its terrain or
        language changed, else brought up to date in place), the marks over it, then one
        full draw (unless ``draw`` is False: the view draws next)."""
        s, lang = self.draft.scenario, self.lang.value
        rings = self._rings(s)
        if self.artists is None or self._drawn != (s.terrain, lang):
            self.view.clear()
            self.artists = draw_board(
                s,
                self.view.ax,
                style=self.view.style,
                lang=lang,
                view=self.zoomed or self._view_mm(),
                flagged=not self.draft.valid,  # outlined red by the marks
            )
            self.marks = EditorMarks(self.view.ax, self.view.style)
            self.marks.show_grid(self.size, self.units)
            self._drawn = (s.terrain, lang)
            if rings:  # the names placed again, outside the rings
                self.artists.state[BASE_RINGS] = rings
                update_board(self.artists, s, lang=lang)
        else:
            self.artists.state[BASE_RINGS] = rings
            self.artists.state["view"] = self.zoomed or self._view_mm()
            update_board(self.artists, s, lang=lang)
        self.view.artists = self.artists
        self._show_marks(s)
        self.view.invalidate()
        if draw:
            self.view.draw()

    def _rings(self, s: Scenario) -> dict[str, tuple[float, float]]:
        """The models of ``s`` the marks ring (the selected one, the flagged ones), for label
        placement (:data:`fwwrules.draw.labels.BASE_RINGS`: no name covers a ring)."""
        ringed = {*self.draft.bad_ids(), *([self.selected] if self.selected else [])}
        models = s.board.models
        return {i: (RING_GAP_MM, RING_WIDTH_PT) for i in sorted(ringed) if i in models}

    def _show_marks(self, s: Scenario) -> None:
        """The selection, the flagged pieces and the rotation handle for the board ``s``."""
        assert self.marks is not None
        self.marks.show(s, self.selected, self.draft.bad_ids())
        piece = self._piece(self.selected)
        at = self._handle_at(piece) if isinstance(piece, Terrain) else None
        u = self.unit_mm
        self.marks.show_handle(
            None if at is None else (at[0] * u, at[1] * u), self._handle_radius() * u
        )

    def _handle_radius(self) -> float:
        """The rotation handle's radius (scenario units): a share of the board shown."""
        box = self.view.view_box
        return (box.xmax - box.xmin) * HANDLE_SHARE / self.unit_mm

    def _handle_at(self, piece: Terrain) -> XY | None:
        """The rotation handle (scenario units): beyond the piece's top edge, along its own
        'up'; none for a round piece."""
        outline = editing.outline_of(piece)
        if outline is None or isinstance(piece.shape, Circle):
            return None
        cx, cy = editing.centre_of(piece)
        angle = getattr(piece.shape, "angle", 0.0)
        up = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
        reach = max((px - cx) * up[0] + (py - cy) * up[1] for px, py in outline)
        reach += 3 * self._handle_radius()
        return (cx + up[0] * reach, cy + up[1] * reach)

    # --- the mouse: what is under it --------------------------------------------------------
    def _hit(self, p: XY) -> tuple[str, str] | None:
        """What the point (scenario units) is on: ``("handle", id)``, ``("models", id)`` or
        ``("terrain", id)``; the one drawn on top wins."""
        piece = self._piece(self.selected)
        if isinstance(piece, Terrain):
            at = self._handle_at(piece)
            if at is not None and math.dist(p, at) <= 1.5 * self._handle_radius():
                return ("handle", piece.id)
        s = self.draft.scenario
        model = editing.model_at(s, *p)
        if model is not None:
            return ("models", model)
        rank = {kind: i for i, kind in enumerate(TERRAIN_DRAW_ORDER)}
        kinds = {t.id: t.kind for t in s.terrain}
        under = editing.terrain_at(s, *p)
        if not under:
            return None
        return ("terrain", max(reversed(under), key=lambda i: rank.get(kinds[i], len(rank))))

    def _point(self, event: MouseEvent, fallback: XY | None = None) -> XY | None:
        """The event's point in scenario units (``fallback`` outside the board)."""
        if event.inaxes is not self.ax or event.xdata is None or event.ydata is None:
            return fallback
        return (float(event.xdata) / self.unit_mm, float(event.ydata) / self.unit_mm)

    def _mm(self, p: XY) -> XY:
        return (p[0] * self.unit_mm, p[1] * self.unit_mm)

    # --- the mouse: presses (the view asks the editor first) --------------------------------
    def _on_press(self, x_mm: float, y_mm: float) -> bool:
        """A left press: the tool's, or (False) the view's: a model to drag, the board to pan
        or a click."""
        p = (x_mm / self.unit_mm, y_mm / self.unit_mm)
        tool = self.tool.value
        if tool == "select":
            return self._select_press(p)
        if tool == "model":
            self._guard(lambda: self.add_model(p, **self.form.model_fields(self.lang.value)))
        elif tool == "polygon":
            self._polygon_click(p)
        else:  # rect, circle: a rubber band from the press
            self._gesture = Gesture(tool, self.snap(p), p)
            self._preview_shape(p)
            assert self.marks is not None
            self.view.start_blit([self.marks.preview, self.marks.rubber_band])
        return True

    def _select_press(self, p: XY) -> bool:
        """The Select tool's press on a piece or its handle: select it (the board is drawn
        again with the new selection) and start dragging it. A model is the view's to drag
        (:meth:`_picked`); empty board is the view's (a click deselects)."""
        hit = self._hit(p)
        if hit is None or hit[0] == "models":
            return False
        kind, ident = hit
        if ident != self.selected:
            self.selected = ident
            self._show()
        self._gesture = Gesture(kind, p, p, ident)
        assert self.marks is not None
        self._ghost(p)
        self.view.start_blit([self.marks.ghost, self.marks.selection, self.marks.handle])
        return True

    def _clicked(self, _x_mm: float, _y_mm: float) -> None:
        """A click on empty board with the Select tool: nothing is selected."""
        if self.tool.value == "select" and self.selected is not None:
            self.selected = None
            self._show()

    # --- the mouse: dragging a model (the view's drag) --------------------------------------
    def _picked(self, model_id: str) -> None:
        """A press on a model: it is selected, and the view drags it."""
        self.selected = model_id
        self._show_message()
        self.form.show(self._piece(model_id), self.lang.value)
        self._dragged = self.draft.scenario
        self._flagged = frozenset(self.draft.bad_ids())
        self._show_marks(self._dragged)

    def _moving_marks(self, model_id: str) -> list[Artist]:
        """The marks that move with a dragged model: its selection ring, the red outlines."""
        if self.marks is None or model_id != self.selected:
            return []
        return [self.marks.flagged, self.marks.selection]

    def _dragged_model(self, model_id: str, x_mm: float, y_mm: float) -> XY:
        """A motion: the base goes where a hand places it (on the snap grid when ticked,
        stopped at contact and slid round it, :func:`fwwrules.editing.placed`); the board's
        artists follow (the view blits). Returns where it is (mm)."""
        base = self._dragged or self.draft.scenario
        at = (x_mm / self.unit_mm, y_mm / self.unit_mm)
        moving = dataclasses.replace(self.draft, scenario=base)
        self._dragged, end = editing.placed(moving, model_id, at, snapped=self.snap_box.value)
        assert self.artists is not None
        update_board(
            self.artists, self._dragged, lang=self.lang.value, place_labels=False, legend=False
        )
        assert self.marks is not None
        self.marks.follow(self._dragged, model_id, self._flagged)
        label = self.artists.labels.get(model_id)
        if label is not None and model_id == self.selected:  # its ring is drawn: clear of it
            self.marks.name_below_ring(label, self._dragged, model_id)
        return self._mm(end)

    def _dropped_model(self, model_id: str, _x_mm: float, _y_mm: float) -> None:
        """The release: the board as the last motion left it is the new board (the view draws
        it next)."""
        dragged, self._dragged = self._dragged, None
        if dragged is None or dragged == self.draft.scenario:
            self._show(draw=False)  # a click: selected only
            return
        try:
            self._edit(lambda d: editing.revised(d, dragged), draw=False)
        except FwwError:  # shown in the panel; the board as it was
            self._show(draw=False)

    # --- the mouse: the tools' gestures -------------------------------------------------------
    def _preview_shape(self, to: XY) -> None:
        """The rubber band (rectangle tool) or the circle's radius (circle tool) from the
        press to ``to``, snapped as the piece will be (mm)."""
        assert self._gesture is not None and self.marks is not None
        sx, sy = self._mm(self._gesture.start)
        if self._gesture.what == "circle":
            tx, ty = self._mm(to)
            self.marks.preview.set_center((sx, sy))
            self.marks.preview.set_radius(max(1e-9, math.hypot(tx - sx, ty - sy)))
            self.marks.preview.set_visible(True)
            return
        ex, ey = self._mm(self.snap(to))
        self.marks.rubber_band.set_bounds(min(sx, ex), min(sy, ey), abs(ex - sx), abs(ey - sy))
        self.marks.rubber_band.set_visible(True)

    def _polygon_click(self, p: XY) -> None:
        """A corner of the polygon being drawn; a click on its first corner (or on the last
        again) closes it (three corners at least, else the loader's refusal is shown)."""
        q = self.snap(p)
        assert self.marks is not None
        if self._corners and self._closes(q):
            points = list(self._corners)
            self._cancel_gesture()
            self._guard(
                lambda: self.add_polygon(points, **self.form.terrain_fields(self.lang.value))
            )
            self._show()
            return
        self._corners.append(q)
        self.marks.show_corners([self._mm(c) for c in self._corners], self._mm(q))
        if len(self._corners) == 1:
            self.view.start_blit([self.marks.corners])
        else:
            self.view.blit()

    def _closes(self, p: XY) -> bool:
        near = 1.5 * self._handle_radius()
        first, last = self._corners[0], self._corners[-1]
        return math.dist(p, first) <= near or (len(self._corners) > 2 and p == last)

    def _cancel_gesture(self) -> None:
        """Drop a drag or a polygon in progress and hide the previews."""
        self._gesture = None
        self._corners = []
        if self.marks is not None:
            self.marks.hide_previews()
        self.view.end_blit()

    def _motion(self, event: MouseEvent) -> None:
        p = self._point(event)
        if p is None:
            return
        if self._gesture is None:
            if self._corners and self.marks is not None:
                corners = [self._mm(c) for c in self._corners]
                self.marks.show_corners(corners, self._mm(self.snap(p)))
                self.view.blit()
            return
        self._gesture = dataclasses.replace(self._gesture, to=p)
        if self._gesture.what in ("circle", "rect"):
            self._preview_shape(p)
        else:
            self._ghost(p)
        self.view.blit()

    def _moved(self, piece: Terrain, gesture: Gesture, to: XY) -> Terrain:
        """``piece`` as the gesture leaves it with the pointer at ``to``: moved by the
        pointer's way (its centre snapped), or turned toward it by the handle."""
        if gesture.what == "handle":
            return editing.turned_piece(piece, self._drag_angle(piece, to))
        sx, sy = gesture.start
        cx, cy = editing.centre_of(piece)
        nx, ny = self.snap((cx + to[0] - sx, cy + to[1] - sy))
        return editing.moved_piece(piece, nx - cx, ny - cy)

    def _ghost(self, to: XY) -> None:
        """The dragged piece where the drop will put it, and its handle."""
        assert self._gesture is not None and self.marks is not None
        piece = self._piece(self._gesture.ident)
        if not isinstance(piece, Terrain):
            return
        moved = self._moved(piece, self._gesture, to)
        s = self.draft.scenario
        self.marks.show_ghost(Scenario(terrain=(moved,), units=s.units))
        at = self._handle_at(moved)
        u = self.unit_mm
        self.marks.show_handle(
            None if at is None else (at[0] * u, at[1] * u), self._handle_radius() * u
        )

    def _drag_angle(self, piece: Terrain, to: XY) -> float:
        """Degrees to turn so that the handle points at ``to`` (15° steps when snapping)."""
        cx, cy = editing.centre_of(piece)
        at = self._handle_at(piece)
        assert at is not None
        now = math.degrees(math.atan2(at[1] - cy, at[0] - cx))
        want = math.degrees(math.atan2(to[1] - cy, to[0] - cx))
        turn = want - now
        if self.snap_box.value:
            current = float(getattr(piece.shape, "angle", 0.0))
            turn = round((current + turn) / 15) * 15 - current
        return editing.normal_angle(turn)

    def _release(self, event: MouseEvent) -> None:
        gesture, self._gesture = self._gesture, None
        if gesture is None:
            return
        self.view.end_blit()
        if self.marks is not None:
            self.marks.hide_previews()
        p = self._point(event, gesture.to)
        assert p is not None
        try:
            self._guard(lambda: self._drop(gesture, p))
        finally:
            self._show()  # the whole board again (also after a refusal or a click)

    def _drop(self, gesture: Gesture, p: XY) -> None:
        what, (sx, sy) = gesture.what, gesture.start
        if what == "circle":
            r = math.hypot(p[0] - sx, p[1] - sy)
            diameter = 2 * r if r > 0 else 25.4 / self.unit_mm  # a click: 1"
            self.add_circle((sx, sy), diameter, **self.form.terrain_fields(self.lang.value))
        elif what == "rect":
            self.add_rect((sx, sy), p, **self.form.terrain_fields(self.lang.value))
        elif p != (sx, sy):  # a click only selects
            piece = self._piece(gesture.ident)
            if not isinstance(piece, Terrain):
                return
            if what == "handle":
                self.rotate(piece.id, self._drag_angle(piece, p))
            else:
                cx, cy = editing.centre_of(piece)
                self.move(piece.id, (cx + p[0] - sx, cy + p[1] - sy))
