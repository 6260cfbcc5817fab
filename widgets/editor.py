"""BoardEditor: build a scenario with the mouse (or with method calls) inside a notebook.

The editor holds the board as plain data in the file format (docs/scenario-format.md), in
the board's ``units``. Every change makes a new copy of that data, runs it through the
loader's own validation (:func:`fwwrules.scenario_spec.parse_scenario`) and keeps the copy on the
undo stack, so the messages in the panel are the messages ``fwwrules check`` prints, and what
:meth:`BoardEditor.save` writes is exactly what loads back.

What an action does when its result would be wrong
--------------------------------------------------
* **Refused** (nothing changes, the panel says why in the loader's words): a model placed so
  that its base overlaps another base on the same level, a polygon with fewer than three
  corners, an id that is unknown. A dragged base never overlaps: it stops at contact
  (gap 0) on its way from where it was, and at the board's edge.
* **Flagged** (the change is kept, the piece is drawn red and the reason listed): anything
  else the loader rejects, such as a self-intersecting outline or a skill that is not a whole
  number. Undo, delete or fix it; :meth:`BoardEditor.save` refuses while any problem remains
  and never touches the file then.

Coordinates are scenario units (``in`` or ``mm``) with the origin at the board's lower-left
corner; the snap grid is a quarter inch (6.35 mm) in either unit.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import html
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.backend_bases import MouseEvent
from matplotlib.figure import Figure
from matplotlib.patches import Circle as CirclePatch
from matplotlib.patches import Polygon as PolygonPatch
from matplotlib.patches import Rectangle as RectanglePatch
from matplotlib.path import Path as MplPath
from matplotlib.text import Text

from fwwrules.arguments import table_size
from fwwrules.catalogue import check_lang
from fwwrules.checks import ident_from
from fwwrules.constants import MM_PER_INCH
from fwwrules.data import Scenario
from fwwrules.draw import DEFAULT_STYLE, BoardStyle
from fwwrules.draw.board import label_box, side_look, tick_step
from fwwrules.errors import FwwError, Problem, ScenarioError, format_path
from fwwrules.loading import Document, parse_text
from fwwrules.pieces import SCENARIO_FORMAT, TERRAIN_KINDS, Bounds, Model, Rect, title_in
from fwwrules.placement import place_by_hand, snap_step
from fwwrules.saving import dump_text, to_data
from fwwrules.scenario_spec import load_scenario, parse_scenario, polygon_point_count_problem
from fwwrules.writing import write_atomic

from .board_canvas import live_canvas_available
from .panel import ControlPanel
from .text import snap_label, ui
from .view import BoardView, png_bytes

XY = tuple[float, float]
Data = dict[str, Any]

BASE_CLASSES_MM: Mapping[str, float] = {"normal": 32.0, "large": 40.0, "huge": 60.0}
"""The rulebook's base sizes (``size.classes``): Normal 32 mm, Large 40 mm, Huge 60 mm."""

HISTORY_LIMIT = 200
"""Undo steps kept; older ones are dropped (the board itself is never lost)."""

DRAW_REACH = 1.0
"""How far beyond the table's edge a piece may reach, as a multiple of the table's larger side:
the view grows to show a piece off the table (drawn red: the loader refuses it there), so a
piece reaching further would shrink the table to a dot (and a circle a mile wide cost
gigabytes to draw); such an edit is refused."""

GRID_LINES = 200
"""Most lines of one kind of grid the editor draws across the table (1" and 6" lines); on a
larger table a coarser grid follows the axis ticks, so the drawing never grows with its size."""

DIGITS = 4
"""Decimals kept for a coordinate written by the editor (1e-4 in or mm: below any tolerance)."""

STOCK_WEAPONS: Mapping[str, Data] = {
    "pistol": {"id": "pistol", "type": "pistol", "short": "yellow", "long": "red"},
    "rifle": {"id": "rifle", "type": "rifle", "short": "red", "long": "green"},
    "heavy-gun": {"id": "heavy-gun", "type": "heavy", "short": "green", "long": "blue"},
    "grenade": {"id": "grenade", "type": "thrown", "short": "orange", "long": "yellow"},
    "club": {"id": "club", "type": "melee"},
}
"""Generic weapon profiles the model form offers (the file lists a weapon once it is used).
They are placeholders with plain ruler bands, not the cards of any product."""

CANVAS_PX = 504
"""Side of the square board canvas in CSS pixels: beside the controls, with the messages
under it, it fits a 1280x800 window in JupyterLab with the file browser open (520 stuck
out by a couple of pixels)."""

TOOLS = ("select", "model", "rect", "polygon", "circle")
INVALID_COLOUR = "#D55E00"
SELECTED_COLOUR = "#0072B2"
NONE = ""


class EditRefused(FwwError, ValueError):
    """An editor action that was not done; the message says why (in the loader's words)."""


# --- plain helpers -------------------------------------------------------------------------


def _round(value: float) -> float:
    out = round(float(value), DIGITS)
    return 0.0 if out == 0 else out


def rect_corners(at: Sequence[float], size: Sequence[float], angle: float) -> list[XY]:
    """The four corners of a rectangle given by centre, size and angle (degrees, CCW):
    :meth:`fwwrules.Rect.corners`, as the rules see the piece."""
    shape = Rect((float(at[0]), float(at[1])), (float(size[0]), float(size[1])), float(angle))
    return shape.corners()


def _centroid(points: Sequence[Sequence[float]]) -> XY:
    """The mean of the corners (a rotation centre; need not be the area centroid)."""
    n = len(points)
    return (sum(float(p[0]) for p in points) / n, sum(float(p[1]) for p in points) / n)


def _rotate(p: Sequence[float], centre: XY, degrees: float) -> XY:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    dx, dy = float(p[0]) - centre[0], float(p[1]) - centre[1]
    return (centre[0] + c * dx - s * dy, centre[1] + s * dx + c * dy)


def _normal_angle(degrees: float) -> float:
    """An angle in (-180, 180]."""
    a = math.fmod(degrees, 360.0)
    if a <= -180:
        a += 360
    elif a > 180:
        a -= 360
    return _round(a)


def piece_outline(piece: Mapping[str, Any]) -> list[XY] | None:
    """A terrain piece's outline as file data states it (``None`` for a circle)."""
    if "rect" in piece:
        r = piece["rect"]
        return rect_corners(r["at"], r["size"], float(r.get("angle", 0.0)))
    if "polygon" in piece:
        return [(float(x), float(y)) for x, y in piece["polygon"]]
    return None


def piece_centre(piece: Mapping[str, Any]) -> XY:
    """Where a terrain piece is moved by (rect and circle: ``at``; polygon: mean corner)."""
    for key in ("rect", "circle"):
        if key in piece:
            at = piece[key]["at"]
            return (float(at[0]), float(at[1]))
    return _centroid(piece["polygon"])


def _placement_scenario(models: Sequence[Mapping[str, Any]], units: str) -> Scenario:
    """The bases of file data as a models-only scenario, for :mod:`fwwrules.placement`.

    Entries the loader would reject (no positive base, no point, a repeated id) are left out:
    they are flagged red already, and cannot hold another base back.
    """
    out: list[Model] = []
    seen: set[str] = set()
    for m in models:
        try:
            base, x, y = float(m["base"]), float(m["at"][0]), float(m["at"][1])
            ident = str(m["id"])
        except (KeyError, TypeError, ValueError, IndexError):
            continue
        if base > 0 and ident not in seen and all(map(math.isfinite, (base, x, y))):
            seen.add(ident)
            out.append(Model(ident, str(m.get("faction", "")), base, (x, y)))
    return Scenario(models=tuple(out), units="in" if units == "in" else "mm")


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


# --- the editor --------------------------------------------------------------------------


class BoardEditor(ControlPanel):
    """A board editor: models, terrain, undo/redo, snap, live validation, save.

    ``BoardEditor(scenario=None, units="in", size=(48, 48))`` starts from ``scenario`` (its
    units and, when the file gives one, its ``board`` size; else ``size``, or without it a
    table from the origin holding every piece with an inch to spare) or from an empty board
    of ``size`` in ``units``. Without ``size`` the table is
    48" x 48" (1219.2 mm when ``units="mm"``). Everything the mouse does is also a method
    (``add_model``, ``move``, ``rotate``, ``add_rect``, ``add_polygon``, ``add_circle``, ``delete``,
    ``set_model``, ``set_terrain``, ``undo``, ``redo``, ``save``), in scenario units.

    Read ``scenario`` for the frozen :class:`~fwwrules.data.Scenario` (it raises
    :class:`~fwwrules.errors.ScenarioError` while the board has problems), ``problems`` for
    the loader's findings, ``data`` for a copy of the file data, ``message`` for the panel's
    message widget and ``widget`` for the whole panel.
    """

    canvas_widget: widgets.DOMWidget
    figure: Figure

    def __init__(
        self,
        scenario: Scenario | None = None,
        units: str = "in",
        size: Sequence[float] | None = None,
        *,
        lang: str = "en",
        style: BoardStyle = DEFAULT_STYLE,
        interactive: bool | None = None,
        canvas_px: int = CANVAS_PX,
        source: str = "board.yaml",
    ) -> None:
        self.source = source
        if size is not None:  # refused before anything is drawn (a figure of no size warns)
            size = table_size(size, scenario.units if scenario is not None else units)
        if scenario is not None:
            data = to_data(scenario)
            units = scenario.units
            board = data.get("board")
            if isinstance(board, dict) and "size" in board:
                size = (float(board["size"][0]), float(board["size"][1]))
            elif size is None:
                size = _extent(scenario)
        else:
            if units not in ("in", "mm"):
                raise ValueError(f"units must be 'in' or 'mm' (got {units!r})")
            data = {"format": SCENARIO_FORMAT, "rules": "core", "units": units}
            data.update(models=[], terrain=[], weapons=[])
        self.units = units
        if size is None:
            size = _default_size(units)
        self.size: XY = (float(size[0]), float(size[1]))
        data["board"] = {"size": [_round(self.size[0]), _round(self.size[1])]}
        for key in ("models", "terrain", "weapons"):
            data.setdefault(key, [])
        self.unit_mm = MM_PER_INCH if units == "in" else 1.0
        self.style = style
        self._history: list[Data] = [data]
        self._at = 0
        self.problems: tuple[Problem, ...] = ()
        self._scenario: Scenario | None = None
        self.selected: str | None = None
        self._form_for: str | None = None
        """The piece whose values the forms show (None: the forms hold what the user typed)."""
        self.note = ""
        self._validate()
        self.interactive = _interactive_default() if interactive is None else interactive
        self._build_controls(lang)
        self._build_canvas(canvas_px)
        self._connect()
        # The messages and the hint sit under the board, where the eye is while drawing.
        board = widgets.VBox(
            [self.canvas_widget, self.message, self.hint],
            layout=widgets.Layout(width=f"{canvas_px + 10}px"),
        )
        self.widget = widgets.VBox([widgets.HBox([self.controls, board]), self.attack_box])
        self._relabel()
        self._show()

    # === state ==============================================================================
    @property
    def data(self) -> Data:
        """A copy of the current file data."""
        return copy.deepcopy(self._history[self._at])

    @property
    def _data(self) -> Data:
        return self._history[self._at]

    @property
    def scenario(self) -> Scenario:
        """The frozen scenario; raises :class:`ScenarioError` (the loader's) while invalid."""
        if self._scenario is None:
            raise ScenarioError(self.source, self.problems)
        return self._scenario

    @property
    def valid(self) -> bool:
        return not self.problems

    def _check(self, data: Data) -> tuple[Scenario | None, tuple[Problem, ...]]:
        """Run file data through the loader's validation (a deep copy; nothing shared)."""
        try:
            return parse_scenario(Document(copy.deepcopy(data), self.source)), ()
        except ScenarioError as exc:
            return None, exc.problems

    def _validate(self) -> None:
        self._scenario, self.problems = self._check(self._data)

    def _commit(self, data: Data, note: str = "") -> None:
        """Make ``data`` the current state (a new undo step) and show it.

        Refused (:class:`EditRefused`, nothing changed) when a piece would reach beyond the
        drawing limit (:data:`DRAW_REACH`), or when the board cannot be drawn: the editor
        then goes back to the state before, drawn again, so it never stays broken.
        """
        too_far = self._beyond_drawing(data)
        if too_far is not None:
            raise self._refuse(too_far)
        before = (list(self._history), self._at, self.selected)
        del self._history[self._at + 1 :]
        self._history.append(data)
        if len(self._history) > HISTORY_LIMIT:
            del self._history[0]
        self._at = len(self._history) - 1
        self.note = note
        self._validate()
        if self.selected is not None and self._find(self.selected) is None:
            self.selected = None
        try:
            self._show()
        except (MemoryError, OverflowError, RuntimeError, ValueError) as exc:
            self._history, self._at, self.selected = before
            self._validate()
            self._show()
            why = f"{type(exc).__name__}: {exc}"[:200]
            raise self._refuse(
                f"the board could not be drawn ({why}); the edit was undone"
            ) from None

    def _beyond_drawing(self, data: Data) -> str | None:
        """Why ``data`` cannot be drawn (a piece beyond :data:`DRAW_REACH`), or None."""
        w, h = self.size
        reach = DRAW_REACH * max(w, h)
        x0, y0, x1, y1 = self._content_box(data)
        if x0 >= -reach and y0 >= -reach and x1 <= w + reach and y1 <= h + reach:
            return None
        return (
            f"a piece would reach to [{x0:.6g}, {x1:.6g}] x [{y0:.6g}, {y1:.6g}]: the editor "
            f"draws pieces up to {reach:g} {self.units} off the table [0, {w:g}] x [0, {h:g}]"
        )

    def _refuse(self, problems: Sequence[Problem] | str) -> EditRefused:
        """Show why an action was not done; return the error for the caller to raise."""
        if isinstance(problems, str):
            text = problems
        else:
            text = "\n".join(self._problem_text(p) for p in problems)
        self.note = f"{ui('refused', self.lang.value)} {text}"
        self._show_message()
        return EditRefused(text)

    def _problem_text(self, p: Problem) -> str:
        return f"{format_path(p.path)}: {p.message}"

    def undo(self) -> bool:
        """Go one step back; False when there is nothing to undo."""
        if self._at == 0:
            return False
        self._at -= 1
        self._after_history()
        return True

    def redo(self) -> bool:
        """Go one step forward again; False when there is nothing to redo."""
        if self._at >= len(self._history) - 1:
            return False
        self._at += 1
        self._after_history()
        return True

    def _after_history(self) -> None:
        self.note = ""
        self._validate()
        if self.selected is not None and self._find(self.selected) is None:
            self.selected = None
        self._show()

    # --- lookups ------------------------------------------------------------------------
    def _find(self, ident: str, data: Data | None = None) -> tuple[str, int] | None:
        d = self._data if data is None else data
        for key in ("models", "terrain"):
            for i, item in enumerate(d[key]):
                if item.get("id") == ident:
                    return key, i
        return None

    def _where(self, ident: str, data: Data) -> tuple[str, int]:
        found = self._find(ident, data)
        if found is None:
            known = [m["id"] for m in data["models"]] + [t["id"] for t in data["terrain"]]
            raise self._refuse(f"unknown id {ident!r} (known: {', '.join(known) or 'none'})")
        return found

    def _new_id(self, stem: str, data: Data) -> str:
        stem = ident_from(stem) or "piece"
        used = {m["id"] for m in data["models"]} | {t["id"] for t in data["terrain"]}
        if stem not in used:
            return stem
        n = 2
        while f"{stem}-{n}" in used:
            n += 1
        return f"{stem}-{n}"

    @property
    def bounds(self) -> Bounds:
        """The board's :class:`~fwwrules.pieces.Bounds` in scenario units (origin [0, 0])."""
        return Bounds(0.0, 0.0, self.size[0], self.size[1])

    def snap(self, p: Sequence[float]) -> XY:
        """The point on the snap grid (¼″ in inch boards, 1 mm in mm boards) nearest ``p``
        when snapping is on, else ``p`` rounded."""
        if not self.snap_box.value:
            return (_round(p[0]), _round(p[1]))
        step = snap_step(self.units)
        return (_round(round(p[0] / step) * step), _round(round(p[1] / step) * step))

    def _snap_length(self, value: float) -> float:
        if not self.snap_box.value:
            return _round(value)
        step = snap_step(self.units)
        return _round(max(step, round(value / step) * step))

    # === actions (public, scenario units) ===================================================
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
        """Place a model with its base centre at ``at``; returns its id.

        ``base`` is a size class (``normal``, the default, ``large``, ``huge``: 32, 40, 60 mm)
        or a diameter in scenario units; ``faction`` defaults to ``player``; ``name`` is one
        text or one per language (``{"en": ..., "de": ...}``); the id is made from the
        (English) name (or the faction) unless ``ident`` gives one. Weapons named
        from the stock profiles (``pistol``, ``rifle`` ...) are added to the file's weapon
        list. Refused when the base would overlap another base on the same level.
        """
        base = "normal" if base is None else base
        if isinstance(base, str):
            if base not in BASE_CLASSES_MM:
                raise self._refuse(
                    f"unknown base size {base!r}; expected {', '.join(BASE_CLASSES_MM)} "
                    "or a diameter"
                )
            base = _round(BASE_CLASSES_MM[base] / self.unit_mm)
        data = self.data
        faction = "player" if faction is None else faction
        label = title_in(name, "en") if name else None
        model: Data = {"id": ident or self._new_id(label or faction or "model", data)}
        if name:
            model["name"] = name if isinstance(name, str) else dict(name)
        model.update(faction=faction, base=base, at=list(self.snap(at)))
        if skills:
            model["skills"] = dict(skills)
        if weapons:
            model["weapons"] = list(weapons)
            self._add_stock_weapons(data, weapons)
        data["models"].append(model)
        self._refuse_if(data, ("models", len(data["models"]) - 1), ("at", "id", "base"))
        self.selected = model["id"]
        self._commit(data)
        return str(model["id"])

    def _add_stock_weapons(self, data: Data, weapons: Sequence[str]) -> None:
        have = {w.get("id") for w in data["weapons"]}
        for w in weapons:
            if w not in have and w in STOCK_WEAPONS:
                data["weapons"].append(dict(STOCK_WEAPONS[w]))
                have.add(w)

    def _refuse_if(self, data: Data, where: tuple[str, int], fields: Sequence[str]) -> None:
        """Refuse the action when the loader finds a problem at ``where`` in one of
        ``fields`` (or at the piece itself) that the current board does not have."""
        _, problems = self._check(data)
        before = {(p.path, p.message) for p in self.problems}
        bad = [
            p
            for p in problems
            if tuple(p.path[:2]) == where
            and (len(p.path) == 2 or p.path[2] in fields)
            and (p.path, p.message) not in before
        ]
        if bad:
            raise self._refuse(bad)

    def move(self, ident: str, to: Sequence[float]) -> XY:
        """Move a model's base centre, or a terrain piece's centre, toward ``to``.

        A base stops at contact with another base and at the board's edge
        (:func:`fwwrules.placement.stop_at_contact`); returns where it ended. A piece of
        terrain goes to ``to``.
        """
        data = self.data
        key, i = self._where(ident, data)
        target = self.snap(to)
        if key == "models":
            end = self._stop(data["models"], ident, target)
            data["models"][i]["at"] = list(end)
        else:
            piece = data["terrain"][i]
            cx, cy = piece_centre(piece)
            end = target
            self._translate(piece, end[0] - cx, end[1] - cy)
        self._commit(data)
        return end

    def _stop(self, models: Sequence[Mapping[str, Any]], ident: str, to: XY) -> XY:
        """Where a base moved toward ``to`` ends, as the panels place bases
        (:func:`fwwrules.placement.place_by_hand` on this board's table: stopped at contact
        and slid round it, at the file's precision on the free side)."""
        scenario = _placement_scenario(models, self.units)
        if ident not in {m.id for m in scenario.models}:
            return to  # its own entry is unusable (flagged red): nothing to stop it
        return place_by_hand(scenario, ident, to, snapped=False, bounds=self.bounds)

    @staticmethod
    def _translate(piece: Data, dx: float, dy: float) -> None:
        for key in ("rect", "circle"):
            if key in piece:
                at = piece[key]["at"]
                piece[key]["at"] = [_round(at[0] + dx), _round(at[1] + dy)]
        if "polygon" in piece:
            piece["polygon"] = [[_round(x + dx), _round(y + dy)] for x, y in piece["polygon"]]

    def rotate(self, ident: str, degrees: float) -> None:
        """Turn a terrain piece by ``degrees`` (counter-clockwise) about its centre.

        A rectangle keeps its size and changes its ``angle`` (kept in (-180, 180]); a polygon's
        corners turn about their mean; a circle does not change.
        """
        data = self.data
        key, i = self._where(ident, data)
        if key != "terrain":
            raise self._refuse(f"{ident!r} is a model; only terrain is rotated")
        piece = data["terrain"][i]
        if "rect" in piece:
            piece["rect"]["angle"] = _normal_angle(float(piece["rect"].get("angle", 0)) + degrees)
        elif "polygon" in piece:
            c = _centroid(piece["polygon"])
            piece["polygon"] = [
                [_round(x) for x in _rotate(p, c, degrees)] for p in piece["polygon"]
            ]
        self._commit(data)

    def delete(self, ident: str) -> None:
        """Remove a model or terrain piece."""
        data = self.data
        key, i = self._where(ident, data)
        del data[key][i]
        if self.selected == ident:
            self.selected = None
        self._commit(data)

    def _add_terrain(self, shape: Data, **props: Any) -> str:
        form: Data = {"kind": "cover"}
        form.update({k: v for k, v in props.items() if v is not None})
        data = self.data
        name = form.get("name") or None
        label = title_in(name, "en") if name else None
        piece: Data = {"id": form.get("ident") or self._new_id(label or form["kind"], data)}
        if name:
            piece["name"] = name if isinstance(name, str) else dict(name)
        piece["kind"] = form["kind"]
        piece.update(shape)
        for key in ("height", "huge", "elevated"):
            if form.get(key) not in (None, NONE):
                piece[key] = form[key]
        data["terrain"].append(piece)
        self._refuse_if(data, ("terrain", len(data["terrain"]) - 1), ("id",))
        self.selected = piece["id"]
        self._commit(data)
        return str(piece["id"])

    def add_rect(
        self, corner: Sequence[float], opposite: Sequence[float], angle: float = 0.0, **props: Any
    ) -> str:
        """Add a rectangle spanned by two opposite corners (axis-parallel, then turned by
        ``angle``); ``props`` are ``kind`` (default ``cover``), ``name``, ``height``, ``huge``,
        ``elevated`` and ``ident``. A rectangle of no width or height is refused."""
        a, b = self.snap(corner), self.snap(opposite)
        w, h = _round(abs(b[0] - a[0])), _round(abs(b[1] - a[1]))
        if w <= 0 or h <= 0:
            raise self._refuse(
                f"a rectangle needs a width and a height above 0 (got {w:g} x {h:g})"
            )
        at = [_round((a[0] + b[0]) / 2), _round((a[1] + b[1]) / 2)]
        return self._add_terrain({"rect": {"at": at, "size": [w, h], "angle": angle}}, **props)

    def add_polygon(self, points: Sequence[Sequence[float]], **props: Any) -> str:
        """Add a polygon by its corners. Fewer than three corners is refused (the loader's
        message); a self-intersecting outline is kept, drawn red and listed, and blocks
        saving until it is fixed, deleted or undone."""
        pts = [list(self.snap(p)) for p in points]
        too_few = polygon_point_count_problem(len(pts))
        if too_few is not None:
            at = ("terrain", len(self._data["terrain"]), "polygon")
            raise self._refuse([Problem(at, too_few)])
        return self._add_terrain({"polygon": pts}, **props)

    def add_circle(self, at: Sequence[float], diameter: float, **props: Any) -> str:
        """Add a round piece of ``diameter`` (scenario units) centred at ``at``."""
        d = self._snap_length(diameter)
        return self._add_terrain({"circle": {"at": list(self.snap(at)), "diameter": d}}, **props)

    def set_terrain(self, ident: str, **props: Any) -> None:
        """Change ``kind``, ``name``, ``height``, ``huge`` or ``elevated`` of a piece; ``None``
        or ``""`` removes an optional one."""
        self._set(ident, "terrain", props, ("kind", "name", "height", "huge", "elevated"))

    def set_title(self, text: str, lang: str | None = None) -> None:
        """Set the board's title in ``lang`` (default: the editor's language); saved in the
        file. A title in English only is one line of text (``title: ...``); titles in more
        languages are saved per language (``title: {en: ..., de: ...}``); an empty text
        removes that language's title. A plain title a file gave is taken as the English one
        when another language gets its own."""
        lang = check_lang(lang or self.lang.value)
        data = self.data
        data["title"] = titled(data.get("title"), lang, text)
        if data["title"] is None:
            del data["title"]
        if data.get("title") != self._data.get("title"):
            self._commit(data)

    def _title_changed(self, change: dict[str, Any]) -> None:
        if not self._hold:
            self.set_title(str(change["new"]))

    def picture_figure(self) -> Figure:
        """The board as ``fwwrules render`` draws it, in the editor's language, with its title
        (what the export control writes; the editing canvas has handles and previews). Raises
        the loader's error while the board has problems."""
        from fwwrules.draw.render import render_figure

        return render_figure(self.scenario, lang=self.lang.value, style=self.style)

    def set_model(self, ident: str, **props: Any) -> None:
        """Change ``name``, ``faction``, ``base``, ``skills``, ``weapons`` or ``elevation`` of a
        model (``None`` or ``""`` removes an optional one). A base that grows into another
        base is refused."""
        fields = ("name", "faction", "base", "skills", "weapons", "elevation")
        self._set(ident, "models", props, fields)

    def _set(self, ident: str, key: str, props: Mapping[str, Any], fields: Sequence[str]) -> None:
        data = self.data
        found = self._where(ident, data)
        if found[0] != key:
            raise self._refuse(f"{ident!r} is not a {'model' if key == 'models' else 'piece'}")
        item = data[key][found[1]]
        for name, value in props.items():
            if name not in fields:
                raise self._refuse(f"unknown property {name!r}; expected one of {fields}")
            if name == "base" and isinstance(value, str):
                if value not in BASE_CLASSES_MM:
                    raise self._refuse(f"unknown base size {value!r}")
                value = _round(BASE_CLASSES_MM[value] / self.unit_mm)
            if value is None or value == NONE or value == [] or value == {}:
                if name in ("kind", "faction", "base"):
                    raise self._refuse(f"{name!r} is required")
                item.pop(name, None)
            else:
                item[name] = list(value) if isinstance(value, (list, tuple)) else value
            if name == "weapons" and value:
                self._add_stock_weapons(data, value)
        if key == "models":
            self._refuse_if(data, found, ("at", "base"))
        self._commit(data)

    # === saving and loading ==================================================================
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the board to ``path`` (YAML, or JSON for ``.json``) and return the path.

        Refuses (:class:`ScenarioError`, also shown in the panel) while the board has
        problems; the file is then left untouched. The text is checked to load back equal
        before it replaces the file, and written to a temporary file first, so an
        interrupted save never leaves half a file.
        """
        p = Path(path)
        if self._scenario is None:
            error = ScenarioError(str(p), self.problems)
            self.note = f"{ui('invalid', self.lang.value)} {error}"
            self._show_message()
            raise error
        text = dump_text(self._scenario, json_=p.suffix.lower() == ".json")
        back = parse_scenario(parse_text(text, str(p), json_=p.suffix.lower() == ".json"))
        if back != self._scenario:  # pragma: no cover - the format guarantees it
            raise ScenarioError(str(p), [Problem((), "the saved text does not load back equal")])
        write_atomic(p, text)  # keeps an existing file's mode; a new one follows the umask
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

    # === the attack panel ====================================================================
    def attack_panel(self) -> Any:
        """An :class:`~fwwrules_widgets.AttackPanel` on the current board, shown below the
        editor (the button does this). Refused while the board is invalid or has fewer
        than two models."""
        from .attack_panel import AttackPanel

        if self._scenario is None:
            raise self._refuse(
                "; ".join(self._problem_text(p) for p in self.problems) or "invalid board"
            )
        if len(self._scenario.models) < 2:
            raise self._refuse("an attack needs at least two models on the board")
        panel = AttackPanel(self._scenario, lang=self.lang.value, interactive=self.interactive)
        self.attack_box.children = [panel.widget]
        return panel

    # === the panel ===========================================================================
    def _build_controls(self, lang: str) -> None:
        wide = widgets.Layout(width="318px")
        kw: dict[str, Any] = {"layout": wide, "style": {"description_width": "100px"}}
        self.tool = widgets.ToggleButtons(
            options=[(t, t) for t in TOOLS],
            value="select",
            style={"button_width": "102px"},
            layout=widgets.Layout(width="330px"),
        )
        self.snap_box = widgets.Checkbox(value=True, indent=False)
        self.undo_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.redo_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.delete_button = widgets.Button(layout=widgets.Layout(width="104px"))
        self.lang = widgets.Dropdown(
            options=[("English", "en"), ("Deutsch", "de")], value=lang, **kw
        )
        self.selected_label = widgets.HTML()
        self.model_head = widgets.HTML()
        self.faction = widgets.Text(value="player", **kw)
        self.name = widgets.Text(value="", **kw)
        self.base_class = widgets.Dropdown(
            options=[*BASE_CLASSES_MM, "other"], value="normal", **kw
        )
        self.diameter = widgets.BoundedFloatText(
            value=_round(32.0 / self.unit_mm), min=0.0, max=1e6, step=0.01, **kw
        )
        self.skills = widgets.Text(value="", placeholder="rifle 6, melee 5, thrown 5 red", **kw)
        self.weapons = widgets.SelectMultiple(options=list(STOCK_WEAPONS), value=(), rows=3, **kw)
        self.terrain_head = widgets.HTML()
        self.kind = widgets.Dropdown(options=list(TERRAIN_KINDS), value="cover", **kw)
        self.piece_name = widgets.Text(value="", **kw)
        self.height = widgets.Text(value="", placeholder="-", **kw)
        self.huge = widgets.Dropdown(options=[NONE, *TERRAIN_KINDS], value=NONE, **kw)
        self.elevated = widgets.Dropdown(options=[NONE, *TERRAIN_KINDS], value=NONE, **kw)
        self.apply_button = widgets.Button(layout=widgets.Layout(width="318px"))
        self.path = widgets.Text(value="my-board.yaml", **kw)
        self.title = widgets.Text(value="", continuous_update=False, **kw)
        self.save_button = widgets.Button(layout=widgets.Layout(width="140px"))
        self.attack_button = widgets.Button(layout=widgets.Layout(width="318px"))
        self.hint = widgets.HTML(layout=widgets.Layout(width="95%"))
        self.message = widgets.HTML(layout=widgets.Layout(width="95%"))
        self.attack_box = widgets.VBox()
        self.controls = widgets.VBox(
            [
                self.tool,
                widgets.HBox([self.undo_button, self.redo_button, self.delete_button]),
                self.snap_box,
                self.selected_label,
                self.model_head,
                self.faction,
                self.name,
                self.base_class,
                self.diameter,
                self.skills,
                self.weapons,
                self.terrain_head,
                self.kind,
                self.piece_name,
                self.height,
                self.huge,
                self.elevated,
                self.apply_button,
                self.title,
                widgets.HBox([self.path]),
                self.save_button,
                self.attack_button,
                self.lang,
                self.export_control.widget,
            ],
            layout=widgets.Layout(width="336px"),
        )

    def _build_canvas(self, px: int) -> None:
        """The board view (the panels' :class:`~fwwrules_widgets.view.BoardView`: its figure,
        its canvas in the browser, its blitting), square, with the tools' preview artists."""
        style = dataclasses.replace(
            self.style,
            figsize=(px / 100.0, px / 100.0),
            dpi=100.0,
            margins=(0.08, 0.98, 0.07, 0.97),
        )
        self.view = BoardView(style, interactive=self.interactive)
        self.canvas_widget = self.view.widget
        self._px: int = px
        self.figure = self.view.figure
        self.ax = self.view.ax
        self.ax.set_aspect("equal", adjustable="box")
        self.ax.set_xlabel(self.units, fontsize=8)
        self.ax.tick_params(labelsize=7)
        self._artists: list[Artist] = []
        self.bases: dict[str, CirclePatch] = {}
        self.pieces: dict[str, PolygonPatch | CirclePatch] = {}
        self.labels: dict[str, Text] = {}
        self.handle: CirclePatch | None = None
        dashed: dict[str, Any] = {"fill": False, "edgecolor": SELECTED_COLOUR, "ls": "--"}
        self.preview = CirclePatch((0, 0), 1, visible=False, zorder=9, lw=1.5, **dashed)
        self.rubber_band = RectanglePatch((0, 0), 0, 0, visible=False, zorder=9, lw=1.5, **dashed)
        self.ax.add_patch(self.preview)
        self.ax.add_patch(self.rubber_band)
        (self.outline,) = self.ax.plot(
            [], [], color=SELECTED_COLOUR, ls="--", lw=1.5, marker="o", ms=4, zorder=9
        )
        self.outline.set_visible(False)
        self._corners: list[XY] = []
        self._drag: dict[str, Any] | None = None

    def _connect(self) -> None:
        self.tool.observe(self._tool_changed, "value")
        self.lang.observe(self._changed, "value")
        self.title.observe(self._title_changed, "value")
        self.base_class.observe(self._base_class_changed, "value")
        self.undo_button.on_click(lambda _b: self.undo())
        self.redo_button.on_click(lambda _b: self.redo())
        self.delete_button.on_click(lambda _b: self._guard(self._delete_selected))
        self.apply_button.on_click(lambda _b: self._guard(self._apply_selected))
        self.save_button.on_click(lambda _b: self._guard(lambda: self.save(self.path.value)))
        self.attack_button.on_click(lambda _b: self._guard(self.attack_panel))
        canvas = self.figure.canvas
        canvas.mpl_connect("button_press_event", self._press)
        canvas.mpl_connect("motion_notify_event", self._motion)
        canvas.mpl_connect("button_release_event", self._release)

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
        import base64

        bundle["image/png"] = base64.b64encode(self.png()).decode("ascii")
        return bundle

    def summary(self) -> str:
        """One line: units, board size, counts, and whether the board is valid."""
        d = self._data
        state = "valid" if self.valid else f"{len(self.problems)} problem(s)"
        return (
            f"BoardEditor: {self.size[0]:g} x {self.size[1]:g} {self.units}, "
            f"{len(d['models'])} model(s), {len(d['terrain'])} terrain piece(s), {state}"
        )

    # --- forms ------------------------------------------------------------------------------
    def _model_form(self) -> Data:
        skills: Data = {}
        for part in re.split(r"[,;]", self.skills.value):
            words = part.split()
            if not words:
                continue
            value: Any = words[1] if len(words) > 1 else ""
            if re.fullmatch(r"\d{1,3}", str(value)):
                value = int(value)
            if len(words) > 2:  # the Throw skill's icon colour: "thrown 5 red"
                value = {"value": value, "colour": words[2]}
            skills[words[0]] = value  # a wrong icon or value: the loader says so
        base: str | float = self.base_class.value
        if base == "other":
            base = _round(self.diameter.value)
        return {
            "faction": self.faction.value.strip(),
            "name": titled(None, self.lang.value, self.name.value),  # in the language shown
            "base": base,
            "skills": skills,
            "weapons": list(self.weapons.value),
        }

    def _terrain_form(self) -> Data:
        height: Any = self.height.value.strip()
        if height:
            with contextlib.suppress(ValueError):  # else kept as text: the loader names it
                height = float(height)
        return {
            "kind": self.kind.value,
            "name": titled(None, self.lang.value, self.piece_name.value),
            "height": height or None,
            "huge": self.huge.value or None,
            "elevated": self.elevated.value or None,
        }

    def _base_class_changed(self, change: dict[str, Any]) -> None:
        if change["new"] in BASE_CLASSES_MM:
            self.diameter.value = _round(BASE_CLASSES_MM[change["new"]] / self.unit_mm)

    def _apply_selected(self) -> None:
        """Write the form into the selected piece (the Apply button)."""
        if self.selected is None:
            raise self._refuse(ui("nothing-selected", self.lang.value))
        where = self._find(self.selected)
        assert where is not None
        item = self._data[where[0]][where[1]]
        form = self._model_form() if where[0] == "models" else self._terrain_form()
        # the name field edits the name in the editor's language (a name per language keeps
        # the other languages' names, as the title does)
        text = (self.name if where[0] == "models" else self.piece_name).value
        form["name"] = titled(item.get("name"), self.lang.value, text)
        if where[0] == "models":
            base = form.pop("base")
            self.set_model(self.selected, base=base, **form)
        else:
            self.set_terrain(self.selected, **form)

    def _delete_selected(self) -> None:
        if self.selected is None:
            raise self._refuse(ui("nothing-selected", self.lang.value))
        self.delete(self.selected)

    def _fill_form(self) -> None:
        """Show the selected piece's properties in its form; the weapon list offers the file's
        weapons and the stock profiles."""
        known = [str(w.get("id")) for w in self._data["weapons"]]
        options = known + [w for w in STOCK_WEAPONS if w not in known]
        if list(self.weapons.options) != options:
            with self._held():
                value = tuple(v for v in self.weapons.value if v in options)
                self.weapons.options = options
                self.weapons.value = value
        where = None if self.selected is None else self._find(self.selected)
        shown, self._form_for = self._form_for, self.selected if where is not None else None
        if where is None:
            if shown is not None:  # the selection went: the form no longer shows its values
                self._clear_form()
            return
        item = self._data[where[0]][where[1]]
        with self._held():
            if where[0] == "models":
                self.faction.value = str(item.get("faction", ""))
                self.name.value = title_in(item.get("name"), self.lang.value) or ""
                base = float(item["base"])
                cls = next(
                    (k for k, mm in BASE_CLASSES_MM.items() if _round(mm / self.unit_mm) == base),
                    "other",
                )
                self.base_class.value = cls
                self.diameter.value = base
                skills = item.get("skills") or {}
                self.skills.value = ", ".join(
                    f"{k} {v['value']} {v['colour']}" if isinstance(v, dict) else f"{k} {v}"
                    for k, v in skills.items()
                )
                offered = [w for w in item.get("weapons", []) if w in options]
                self.weapons.value = tuple(offered)
            else:
                self.kind.value = item.get("kind", "cover")
                self.piece_name.value = title_in(item.get("name"), self.lang.value) or ""
                h = item.get("height")
                self.height.value = "" if h is None else f"{h:g}"
                self.huge.value = item.get("huge") or NONE
                self.elevated.value = item.get("elevated") or NONE

    def _clear_form(self) -> None:
        """The forms as a new editor has them (for the next model or piece drawn)."""
        with self._held():
            self.faction.value = "player"
            self.name.value = ""
            self.base_class.value = "normal"
            self.diameter.value = _round(BASE_CLASSES_MM["normal"] / self.unit_mm)
            self.skills.value = ""
            self.weapons.value = ()
            self.kind.value = "cover"
            self.piece_name.value = ""
            self.height.value = ""
            self.huge.value = NONE
            self.elevated.value = NONE

    def refresh(self) -> None:
        self._show()

    def _relabel(self) -> None:
        lang = self.lang.value
        with self._held():
            self.tool.options = [(ui(f"tool-{t}", lang), t) for t in TOOLS]
            value = self.base_class.value
            self.base_class.options = [
                (ui(f"base-{c}", lang), c) for c in (*BASE_CLASSES_MM, "other")
            ]
            self.base_class.value = value
        for key in ("faction", "name", "diameter", "skills", "weapons"):
            getattr(self, key).description = ui(key, lang)
        self.base_class.description = ui("base", lang)
        for key in ("kind", "height", "huge", "elevated", "lang"):
            getattr(self, key).description = ui(key, lang)
        self.piece_name.description = ui("name", lang)
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
        self.model_head.value = f"<b>{html.escape(ui('models-head', lang))}</b>"
        self.terrain_head.value = f"<b>{html.escape(ui('terrain-head', lang))}</b>"
        self.hint.value = f"<i>{html.escape(ui('editor-hint', lang))}</i>"

    def _tool_changed(self, change: dict[str, Any]) -> None:
        """A new tool: whatever the last one was drawing is dropped, and the board is shown
        whole again."""
        with self._locked():
            self._cancel_gesture()
            # the polygon's next edge follows the mouse between clicks
            self.view.set_hover(change["new"] == "polygon")
            self._render()

    # --- display ---------------------------------------------------------------------------
    def _show(self) -> None:
        with self._locked():
            self._draw()
            self._show_message()
            self._fill_form()
            with self._held():  # the title of the language shown
                self.title.value = title_in(self._data.get("title"), self.lang.value) or ""

    def _show_message(self) -> None:
        lang = self.lang.value
        parts = []
        if self.note:
            parts.append(f"<p>{html.escape(self.note)}</p>".replace("\n", "<br>"))
        if self.problems:
            items = "".join(f"<li>{html.escape(self._problem_text(p))}</li>" for p in self.problems)
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

    def _bad_ids(self) -> dict[str, str]:
        """Piece id -> the first problem's text, for pieces the loader complains about."""
        out: dict[str, str] = {}
        d = self._data
        for p in self.problems:
            if (
                len(p.path) >= 2
                and p.path[0] in ("models", "terrain")
                and isinstance(p.path[1], int)
            ):
                items = d[str(p.path[0])]
                if 0 <= p.path[1] < len(items):
                    out.setdefault(str(items[p.path[1]].get("id")), p.message)
        return out

    def _draw(self) -> None:
        """Draw the whole board again (the editor's boards are small; a drag moves one artist)."""
        for a in self._artists:
            a.remove()
        self._artists = []
        self.bases, self.pieces, self.labels = {}, {}, {}
        self.handle = None
        bad = self._bad_ids()
        self._draw_table()
        for piece in self._data["terrain"]:
            self._draw_piece(piece, bad)
        for m in self._data["models"]:
            self._draw_model(m, bad)
        self._draw_handle()
        self._limits()
        self._render()

    def _draw_table(self) -> None:
        """The table, its edge and a light 1" grid (the snap grid is a quarter of it in
        inch boards), each grid as one line artist: one Line2D per grid line would make
        every full draw several times slower."""
        w, h = self.size
        self._add(RectanglePatch((0, 0), w, h, facecolor="#FAFAF5", edgecolor="none", zorder=0))
        border = RectanglePatch((0, 0), w, h, fill=False, edgecolor="#444444", lw=1.5, zorder=0.9)
        self._add(border)  # the table's edge, over the grid
        inch = MM_PER_INCH / self.unit_mm
        steps = [(inch, "#E6E6E6")]
        if self.units == "in":
            steps.append((6.0, "#C8C8C8"))  # every 6", where the axes are labelled
        steps = [(s, c) for s, c in steps if max(w, h) / s <= GRID_LINES]
        if not steps:  # a huge table: one grid at the axis ticks' step
            steps = [(tick_step(max(w, h), (inch, 6.0 * inch), most=20), "#C8C8C8")]
        for step, colour in steps:
            xs: list[float] = []
            ys: list[float] = []
            for k in range(1, int(w / step + 1e-9) + 1):
                xs += [k * step, k * step, math.nan]
                ys += [0.0, h, math.nan]
            for k in range(1, int(h / step + 1e-9) + 1):
                xs += [0.0, w, math.nan]
                ys += [k * step, k * step, math.nan]
            (grid,) = self.ax.plot(xs, ys, color=colour, linewidth=0.6, zorder=0.5)
            self._artists.append(grid)

    def _draw_piece(self, piece: Mapping[str, Any], bad: Mapping[str, str]) -> None:
        """A terrain piece and its label: red when the loader complains, blue when
        selected."""
        ident = str(piece.get("id"))
        look = self.style.terrain_look(str(piece.get("kind")))
        colour = INVALID_COLOUR if ident in bad else look.edge
        if ident == self.selected and ident not in bad:
            colour = SELECTED_COLOUR
        kw: dict[str, Any] = {
            "facecolor": look.face,
            "edgecolor": colour,
            "hatch": look.hatch or None,
            "alpha": look.alpha,
            "linewidth": 2.5 if ident in bad or ident == self.selected else 1.0,
            "zorder": 1,
        }
        outline = piece_outline(piece)
        patch: PolygonPatch | CirclePatch
        if outline is None:
            c = piece["circle"]
            patch = CirclePatch(tuple(c["at"]), float(c["diameter"]) / 2, **kw)
        else:
            patch = PolygonPatch(outline, closed=True, **kw)
        self._add(patch)
        self.pieces[ident] = patch
        cx, cy = piece_centre(piece)
        text = title_in(piece.get("name"), self.lang.value) or ident
        self.labels[ident] = self._add(
            self.ax.text(
                cx,
                cy,
                text,
                fontsize=self.style.font_size,
                ha="center",
                va="center",
                zorder=2,
                parse_math=False,
                bbox=label_box(self.style),
            )
        )

    def _draw_model(self, m: Mapping[str, Any], bad: Mapping[str, str]) -> None:
        """A model's base (its side's colour, as on every board) and its name."""
        ident = str(m.get("id"))
        faction = str(m.get("faction"))
        sides = self._data.get("sides") or {}
        side = next((k for k, fs in sides.items() if faction in (fs or ())), faction)
        face, hatch = side_look(side)
        edge = INVALID_COLOUR if ident in bad else self.style.base_edge
        if ident == self.selected and ident not in bad:
            edge = SELECTED_COLOUR
        at = (float(m["at"][0]), float(m["at"][1]))
        base = CirclePatch(
            at,
            float(m["base"]) / 2,
            facecolor=face,
            edgecolor=edge,
            hatch=hatch or None,
            alpha=self.style.base_alpha,
            linewidth=2.5 if ident in bad or ident == self.selected else 1.0,
            zorder=3,
        )
        self._add(base)
        self.bases[ident] = base
        name = title_in(m.get("name"), self.lang.value) or ident
        self.labels[ident] = self._add(
            self.ax.text(
                *at,
                name,
                fontsize=self.style.font_size,
                ha="center",
                va="center",
                zorder=4,
                parse_math=False,
                bbox=label_box(self.style),
            )
        )

    def _draw_handle(self) -> None:
        where = None if self.selected is None else self._find(self.selected)
        if where is None or where[0] != "terrain":
            return
        piece = self._data["terrain"][where[1]]
        if "circle" in piece:
            return
        hx, hy = self._handle_at(piece)
        r = self._handle_radius()
        self.handle = CirclePatch(
            (hx, hy), r, facecolor="white", edgecolor=SELECTED_COLOUR, linewidth=2, zorder=8
        )
        self._add(self.handle)

    def _handle_radius(self) -> float:
        return max(self.size) / 80

    def _handle_at(self, piece: Mapping[str, Any]) -> XY:
        """The rotation handle: beyond the piece's top edge, along its own 'up'."""
        cx, cy = piece_centre(piece)
        outline = piece_outline(piece) or []
        angle = float(piece["rect"].get("angle", 0)) if "rect" in piece else 0.0
        up = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
        reach = max((px - cx) * up[0] + (py - cy) * up[1] for px, py in outline)
        reach += 3 * self._handle_radius()
        return (cx + up[0] * reach, cy + up[1] * reach)

    def _add(self, artist: Any) -> Any:
        if isinstance(artist, Text):
            pass  # ax.text added it already
        else:
            self.ax.add_patch(artist)
        self._artists.append(artist)
        return artist

    def _content_box(self, data: Data) -> Bounds:
        """The :class:`~fwwrules.pieces.Bounds` of the table and every piece of ``data``."""
        w, h = self.size
        xs, ys = [0.0, w], [0.0, h]
        for m in data["models"]:
            r = float(m["base"]) / 2
            xs += [float(m["at"][0]) - r, float(m["at"][0]) + r]
            ys += [float(m["at"][1]) - r, float(m["at"][1]) + r]
        for piece in data["terrain"]:
            outline = piece_outline(piece)
            if outline is None:
                c = piece["circle"]
                r = float(c["diameter"]) / 2
                outline = [(c["at"][0] - r, c["at"][1] - r), (c["at"][0] + r, c["at"][1] + r)]
            xs += [float(p[0]) for p in outline]
            ys += [float(p[1]) for p in outline]
        return Bounds(min(xs), min(ys), max(xs), max(ys))

    def _limits(self) -> None:
        """The board plus a margin, grown to show any piece outside it; ticks that keep a
        readable number whatever the size (every 6" on a table up to 10 feet)."""
        w, h = self.size
        x0, y0, x1, y1 = self._content_box(self._data)
        margin = 0.03 * max(w, h)
        x0, x1, y0, y1 = x0 - margin, x1 + margin, y0 - margin, y1 + margin
        side = max(x1 - x0, y1 - y0)  # a square view, the table in its middle
        x0 -= (side - (x1 - x0)) / 2
        y0 -= (side - (y1 - y0)) / 2
        self.ax.set_xlim(x0, x0 + side)
        self.ax.set_ylim(y0, y0 + side)
        if self.units == "in":
            from matplotlib.ticker import MultipleLocator

            step = tick_step(side, (6.0, 12.0, 24.0), most=20)
            for axis in (self.ax.xaxis, self.ax.yaxis):
                axis.set_major_locator(MultipleLocator(step))

    def _render(self) -> None:
        """Draw the whole board and show it (a frame to the browser, or the PNG)."""
        self.view.draw()

    def png(self) -> bytes:
        """The board as a PNG (for static views and tests)."""
        return png_bytes(self.figure)

    # --- the mouse ---------------------------------------------------------------------------
    def _hit(self, x: float, y: float) -> tuple[str, str] | None:
        """What the point (scenario units) is on: ``("handle", id)``, ``("models", id)`` or
        ``("terrain", id)``; the one drawn on top wins."""
        if self.handle is not None and self.selected is not None:
            hx, hy = self.handle.center
            if math.hypot(x - hx, y - hy) <= 1.5 * self.handle.get_radius():
                return ("handle", self.selected)
        for m in reversed(self._data["models"]):
            if math.hypot(x - float(m["at"][0]), y - float(m["at"][1])) <= float(m["base"]) / 2:
                return ("models", str(m["id"]))
        for piece in reversed(self._data["terrain"]):
            outline = piece_outline(piece)
            if outline is None:
                c = piece["circle"]
                inside = math.hypot(x - c["at"][0], y - c["at"][1]) <= float(c["diameter"]) / 2
            else:
                inside = MplPath(outline).contains_point((x, y))
            if inside:
                return ("terrain", str(piece["id"]))
        return None

    def _press(self, event: MouseEvent) -> None:
        if event.inaxes is not self.ax or event.button != 1 or event.xdata is None:
            return
        assert event.ydata is not None
        x, y = float(event.xdata), float(event.ydata)
        tool = self.tool.value
        if tool == "model":
            self._guard(lambda: self.add_model((x, y), **self._model_form()))
        elif tool == "polygon":
            self._polygon_click(x, y)
        elif tool in ("circle", "rect"):
            start = self.snap((x, y))
            self._drag = {"what": tool, "start": start, "to": (x, y)}
            self._preview_shape((x, y))
            self._start_blit()
        elif tool == "select":
            self._select_press(x, y)

    def _select_press(self, x: float, y: float) -> None:
        """The Select tool's press: select what is under the pointer (the board is drawn
        again with the new selection) and start dragging it."""
        hit = self._hit(x, y)
        if hit is None:
            if self.selected is not None:
                self.selected = None
                self._show()
            return
        kind, ident = hit
        if ident != self.selected:
            self.selected = ident
            self._show()
        self._drag = {"what": kind, "id": ident, "start": (x, y), "to": (x, y)}
        self._start_blit()

    def _preview_shape(self, to: XY) -> None:
        """The rubber band (rectangle tool) or the circle's radius (circle tool) from the
        press to ``to``, snapped as the piece will be."""
        assert self._drag is not None
        sx, sy = self._drag["start"]
        if self._drag["what"] == "circle":
            self.preview.set_center((sx, sy))
            self.preview.set_radius(max(1e-9, math.hypot(to[0] - sx, to[1] - sy)))
            self.preview.set_visible(True)
            return
        ex, ey = self.snap(to)
        self.rubber_band.set_bounds(min(sx, ex), min(sy, ey), abs(ex - sx), abs(ey - sy))
        self.rubber_band.set_visible(True)

    def _polygon_click(self, x: float, y: float) -> None:
        """A corner of the polygon being drawn; a click on its first corner (or on the last
        again) closes it (three corners at least, else the loader's refusal is shown)."""
        p = self.snap((x, y))
        if self._corners and self._closes(p):
            points = list(self._corners)
            self._cancel_gesture()
            self._guard(lambda: self.add_polygon(points, **self._terrain_form()))
            self._render()
            return
        self._corners.append(p)
        self._show_outline(p)
        if len(self._corners) == 1:
            self.view.start_blit([self.outline])
        else:
            self.view.blit()

    def _closes(self, p: XY) -> bool:
        near = 1.5 * self._handle_radius()
        first, last = self._corners[0], self._corners[-1]
        return math.dist(p, first) <= near or (len(self._corners) > 2 and p == last)

    def _show_outline(self, mouse: XY) -> None:
        """The polygon's corners so far, its open edges and the next edge to the mouse."""
        xs = [c[0] for c in self._corners] + [mouse[0]]
        ys = [c[1] for c in self._corners] + [mouse[1]]
        self.outline.set_data(xs, ys)
        self.outline.set_visible(True)

    def _cancel_gesture(self) -> None:
        """Drop a drag or a polygon in progress and hide the previews."""
        self._drag = None
        self._corners = []
        for a in (self.preview, self.rubber_band, self.outline):
            a.set_visible(False)
        self.view.end_blit()

    def _moving(self) -> list[Artist]:
        """What a drag redraws over the kept background: the tool's preview, or the dragged
        piece (base or outline), its label and its rotation handle."""
        drag = self._drag or {}
        what = drag.get("what")
        if what == "circle":
            return [self.preview]
        if what == "rect":
            return [self.rubber_band]
        ident = str(drag.get("id"))
        items: list[Artist] = []
        for table in (self.bases, self.pieces, self.labels):
            if ident in table:
                items.append(table[ident])
        if self.handle is not None and what in ("terrain", "handle"):
            items.append(self.handle)
        return sorted(items, key=lambda a: a.get_zorder())

    def _start_blit(self) -> None:
        if self._drag is not None:
            self.view.start_blit(self._moving())

    def _motion(self, event: MouseEvent) -> None:
        if event.inaxes is not self.ax or event.xdata is None or event.ydata is None:
            return
        x, y = float(event.xdata), float(event.ydata)
        if self._drag is None:
            if self._corners:
                self._show_outline(self.snap((x, y)))
                self.view.blit()
            return
        self._drag["to"] = (x, y)
        what = self._drag["what"]
        if what in ("circle", "rect"):
            self._preview_shape((x, y))
        elif what == "models":
            self._drag_model(x, y)
        elif what in ("terrain", "handle"):
            self._drag_piece(what, x, y)
        self.view.blit()

    def _drag_model(self, x: float, y: float) -> None:
        assert self._drag is not None
        ident = self._drag["id"]
        where = self._find(ident)
        if where is None:
            return
        models = self._data["models"]
        m = models[where[1]]
        sx, sy = self._drag["start"]
        to = self.snap((float(m["at"][0]) + x - sx, float(m["at"][1]) + y - sy))
        end = self._stop(models, ident, to)
        self.bases[ident].set_center(end)
        self.labels[ident].set_position(end)

    def _drag_piece(self, what: str, x: float, y: float) -> None:
        """A piece of terrain follows the pointer (``terrain``) or turns toward it
        (``handle``), as the drop will place it."""
        assert self._drag is not None
        ident = self._drag["id"]
        piece = self._data["terrain"][self._where(ident, self._data)[1]]
        moved = copy.deepcopy(piece)
        if what == "terrain":
            sx, sy = self._drag["start"]
            cx, cy = piece_centre(piece)
            nx, ny = self.snap((cx + x - sx, cy + y - sy))
            self._translate(moved, nx - cx, ny - cy)
        else:
            self._turn(moved, self._drag_angle(piece, (x, y)))
        self._show_piece(ident, moved)

    def _show_piece(self, ident: str, piece: Mapping[str, Any]) -> None:
        patch = self.pieces[ident]
        outline = piece_outline(piece)
        if outline is None and isinstance(patch, CirclePatch):
            patch.set_center(tuple(piece["circle"]["at"]))
        elif outline is not None and isinstance(patch, PolygonPatch):
            patch.set_xy(outline)
        self.labels[ident].set_position(piece_centre(piece))
        if self.handle is not None:
            self.handle.set_center(self._handle_at(piece))

    def _drag_angle(self, piece: Mapping[str, Any], to: XY) -> float:
        """Degrees to turn so that the handle points at ``to`` (15° steps when snapping)."""
        cx, cy = piece_centre(piece)
        hx, hy = self._handle_at(piece)
        now = math.degrees(math.atan2(hy - cy, hx - cx))
        want = math.degrees(math.atan2(to[1] - cy, to[0] - cx))
        turn = want - now
        if self.snap_box.value:
            current = float(piece["rect"].get("angle", 0)) if "rect" in piece else 0.0
            turn = round((current + turn) / 15) * 15 - current
        return _normal_angle(turn)

    @staticmethod
    def _turn(piece: Data, degrees: float) -> None:
        if "rect" in piece:
            piece["rect"]["angle"] = _normal_angle(float(piece["rect"].get("angle", 0)) + degrees)
        elif "polygon" in piece:
            c = _centroid(piece["polygon"])
            piece["polygon"] = [list(_rotate(p, c, degrees)) for p in piece["polygon"]]

    def _release(self, event: MouseEvent) -> None:
        drag, self._drag = self._drag, None
        if drag is None:
            return
        self.view.end_blit()
        for a in (self.preview, self.rubber_band):
            a.set_visible(False)
        x, y = drag["to"]
        if event.inaxes is self.ax and event.xdata is not None and event.ydata is not None:
            x, y = float(event.xdata), float(event.ydata)
        try:
            self._drop(drag, x, y)
        finally:
            self._render()  # the whole board again (also after a refusal or a click)

    def _drop(self, drag: Mapping[str, Any], x: float, y: float) -> None:
        what = drag["what"]
        sx, sy = drag["start"]
        if what == "circle":
            r = math.hypot(x - sx, y - sy)
            diameter = 2 * r if r > 0 else MM_PER_INCH / self.unit_mm  # a click: 1"
            self._guard(lambda: self.add_circle((sx, sy), diameter, **self._terrain_form()))
            return
        if what == "rect":
            self._guard(lambda: self.add_rect((sx, sy), (x, y), **self._terrain_form()))
            return
        if (x, y) == (sx, sy):
            return  # a click: selection only
        ident = drag["id"]
        where = self._find(ident)
        if where is None:
            return
        if what == "handle":
            piece = self._data["terrain"][where[1]]
            self._guard(lambda: self.rotate(ident, self._drag_angle(piece, (x, y))))
        else:
            item = self._data[where[0]][where[1]]
            at = item["at"] if what == "models" else piece_centre(item)
            to = (float(at[0]) + x - sx, float(at[1]) + y - sy)
            self._guard(lambda: self.move(ident, to))


def titled(title: Any, lang: str, text: str) -> str | dict[str, str] | None:
    """A file's ``title`` with ``lang``'s set to ``text`` (``""`` removes it): English alone
    stays one line of text; a plain title becomes the English one when another language is
    added.

    >>> titled(None, "en", "Crates"), titled("Crates", "de", "Kisten")
    ('Crates', {'en': 'Crates', 'de': 'Kisten'})
    >>> titled({"en": "Crates", "de": "Kisten"}, "de", ""), titled("Crates", "en", "")
    ('Crates', None)
    """
    if title is None:
        titles: dict[str, str] = {}
    elif isinstance(title, str):
        titles = {"en": title}
    else:
        titles = dict(title)
    text = text.strip()
    if text:
        titles[lang] = text
    else:
        titles.pop(lang, None)
    if not titles:
        return None
    if set(titles) == {"en"}:
        return titles["en"]
    return titles


def _default_size(units: str) -> XY:
    """A 48" square table (4' x 4', the usual skirmish table) in ``units``."""
    side = 48.0 if units == "in" else 48.0 * MM_PER_INCH
    return (side, side)


def _extent(scenario: Scenario) -> XY:
    """A table from the origin that holds every base and piece of ``scenario`` with an inch
    to spare, in whole inches (scenario units). Pieces at negative coordinates stay off it
    (the loader then says so: move them on, or give the file a ``board`` size)."""
    inch = MM_PER_INCH / scenario.unit_mm
    w = h = 0.0
    for m in scenario.models:
        w = max(w, m.at[0] + m.base / 2)
        h = max(h, m.at[1] + m.base / 2)
    for t in scenario.terrain:
        _, _, x1, y1 = scenario.board.terrain[t.id].polygon.bounds
        w = max(w, x1 / scenario.unit_mm)
        h = max(h, y1 / scenario.unit_mm)
    return (
        _round(math.ceil(w / inch + 1) * inch),
        _round(math.ceil(h / inch + 1) * inch),
    )
