"""The board editor's forms: a model's and a terrain piece's properties.

The forms show the selected model's or piece's values (:meth:`EditorForm.show`), are cleared
when nothing is selected (:meth:`EditorForm.clear`: what is typed then is for the next model
or piece drawn), and read back as the file's fields, values as typed
(:meth:`EditorForm.model_fields`, :meth:`EditorForm.terrain_fields`): the loader reads them
(:mod:`fwwrules.editing`), so a mistake is named in its words.
"""

from __future__ import annotations

import contextlib
import html
import re
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from fwwrules.board import BASE_SIZES_MM
from fwwrules.catalogue import word
from fwwrules.data import Scenario
from fwwrules.editing import (
    DEFAULT_FACTION,
    STOCK_WEAPONS,
    base_diameter,
    size_class_of,
    titled,
)
from fwwrules.pieces import RULER_COLOURS, SKILL_ICONS, TERRAIN_KINDS, Model, Terrain, title_in

from .text import ui

NONE = ""
"""The choice "none" of the optional kind dropdowns (``huge``, ``elevated``)."""
OTHER = "other"
"""The base choice of a diameter of one's own."""
FIELD_PX = 318


def _file_words(lang: str) -> dict[str, str]:
    """The skill icons' and ruler colours' names a reader may type in the skills field, lower
    case, to the file's word: the file's words, and their names in English and in ``lang``
    (German: ``Gewehr 6, Nahkampf 5, Wurfwaffe 5 rot``)."""
    out: dict[str, str] = {}
    for key in (*SKILL_ICONS, *(f"ruler-{c}" for c in RULER_COLOURS)):
        file_word = key.removeprefix("ruler-")
        for name in {file_word, word(key, "en"), word(key, lang)}:
            out[name.lower()] = file_word
    return out


def _read_skill(part: str, names: dict[str, str]) -> tuple[str, list[str]] | None:
    """One comma-separated part of the skills field as (icon, the words after it): the
    longest known name it starts with (a name may be two words: "schwere Waffe"), else its
    first word as typed (the loader names a wrong icon); None for an empty part."""
    words = part.split()
    if not words:
        return None
    for n in range(len(words), 0, -1):
        icon = names.get(" ".join(words[:n]).lower())
        if icon is not None and icon in SKILL_ICONS:
            return icon, words[n:]
    return words[0], words[1:]


def _kind_choices(lang: str, blank: bool) -> list[tuple[str, str]]:
    """The terrain kinds as (name in ``lang``, the file's word) choices, the names the
    pictures and rulings use (``blocking`` shows as "blocking terrain", in German
    "sichtblockierendes Gelände"); ``blank`` puts the empty choice (none) first."""
    kinds: list[tuple[str, str]] = [(word(kind, lang), kind) for kind in TERRAIN_KINDS]
    return [(NONE, NONE), *kinds] if blank else kinds


class EditorForm:
    """The model form (faction, name, base, diameter, skills, weapons) and the terrain form
    (kind, name, height, huge, elevated) of a board in ``units``. ``held()`` is the panel's
    guard against reacting to its own control changes."""

    def __init__(self, units: str, held: Callable[[], contextlib.AbstractContextManager[Any]]):
        self.units = units
        self._held = held
        kw: dict[str, Any] = {
            "layout": widgets.Layout(width=f"{FIELD_PX}px"),
            "style": {"description_width": "100px"},
        }
        self.model_head = widgets.HTML()
        self.faction = widgets.Text(value="", placeholder=DEFAULT_FACTION, **kw)
        self.name = widgets.Text(value="", **kw)
        self.base_class = widgets.Dropdown(options=[*BASE_SIZES_MM, OTHER], value="normal", **kw)
        self.diameter = widgets.BoundedFloatText(
            value=base_diameter("normal", units), min=0.0, max=1e6, step=0.01, **kw
        )
        self.skills = widgets.Text(value="", **kw)
        self.weapons = widgets.SelectMultiple(options=list(STOCK_WEAPONS), value=(), rows=3, **kw)
        self.terrain_head = widgets.HTML()
        self.kind = widgets.Dropdown(options=list(TERRAIN_KINDS), value="cover", **kw)
        self.piece_name = widgets.Text(value="", **kw)
        self.height = widgets.Text(value="", placeholder="-", **kw)
        self.huge = widgets.Dropdown(options=[NONE, *TERRAIN_KINDS], value=NONE, **kw)
        self.elevated = widgets.Dropdown(options=[NONE, *TERRAIN_KINDS], value=NONE, **kw)
        self.base_class.observe(self._base_class_changed, "value")
        self.shows: str | None = None
        """The model or piece whose values the forms show (None: what the user typed)."""

    @property
    def controls(self) -> list[widgets.Widget]:
        """The forms' controls, top to bottom."""
        return [
            self.model_head, self.faction, self.name, self.base_class, self.diameter,
            self.skills, self.weapons, self.terrain_head, self.kind, self.piece_name,
            self.height, self.huge, self.elevated,
        ]  # fmt: skip

    # --- reading ---------------------------------------------------------------------------
    def model_fields(self, lang: str, name: Any = None) -> dict[str, Any]:
        """The model form as the file's fields; the name field is the name in ``lang``
        (``name``, the model's names so far, keeps the other languages'); a skill is ``icon
        value`` or, for the Throw skill, ``thrown value colour``, separated by commas, the
        icon and colour as the file writes them or named in English or ``lang`` ("Gewehr 6,
        Wurfwaffe 5 rot"); an empty faction is :data:`DEFAULT_FACTION`."""
        names = _file_words(lang)
        skills: dict[str, Any] = {}
        for part in re.split(r"[,;]", self.skills.value):
            read = _read_skill(part, names)
            if read is None:
                continue
            icon, words = read
            value: Any = words[0] if words else ""
            if re.fullmatch(r"\d{1,3}", str(value)):
                value = int(value)
            if len(words) > 1:  # the Throw skill's icon colour: "thrown 5 red"
                value = {"value": value, "colour": names.get(words[1].lower(), words[1])}
            skills[icon] = value  # a wrong icon or value: the loader says so
        base: str | float = self.base_class.value
        if base == OTHER:
            base = float(self.diameter.value)
        return {
            "faction": self.faction.value.strip() or DEFAULT_FACTION,
            "name": titled(name, lang, self.name.value),
            "base": base,
            "skills": skills,
            "weapons": list(self.weapons.value),
        }

    def terrain_fields(self, lang: str, name: Any = None) -> dict[str, Any]:
        """The terrain form as the file's fields (the name as :meth:`model_fields` takes
        it; a height that is not a number is kept as typed: the loader names it)."""
        height: Any = self.height.value.strip()
        if height:
            with contextlib.suppress(ValueError):
                height = float(height)
        return {
            "kind": self.kind.value,
            "name": titled(name, lang, self.piece_name.value),
            "height": height or None,
            "huge": self.huge.value or None,
            "elevated": self.elevated.value or None,
        }

    # --- showing ---------------------------------------------------------------------------
    def offer_weapons(self, scenario: Scenario) -> None:
        """The weapon list offers the file's weapons, then the stock profiles."""
        known = [w.id for w in scenario.weapons]
        options = known + [w for w in STOCK_WEAPONS if w not in known]
        if list(self.weapons.options) != options:
            with self._held():
                value = tuple(v for v in self.weapons.value if v in options)
                self.weapons.options = options
                self.weapons.value = value

    def show(self, piece: Model | Terrain | None, lang: str) -> None:
        """Show ``piece``'s values; with nothing selected, clear the forms once (they no
        longer show the piece that was selected; what is typed afterwards stays)."""
        shown, self.shows = self.shows, None if piece is None else piece.id
        if piece is None:
            if shown is not None:
                self.clear()
            return
        with self._held():
            if isinstance(piece, Model):
                self._show_model(piece, lang)
            else:
                self.kind.value = piece.kind
                self.piece_name.value = title_in(piece.name, lang) or ""
                self.height.value = "" if piece.height is None else f"{piece.height:g}"
                self.huge.value = piece.huge or NONE
                self.elevated.value = piece.elevated or NONE

    def _show_model(self, m: Model, lang: str) -> None:
        self.faction.value = m.faction
        self.name.value = title_in(m.name, lang) or ""
        self.base_class.value = size_class_of(m.base, self.units) or OTHER
        self.diameter.value = m.base
        self.skills.value = ", ".join(_skill_text(m, k, v, lang) for k, v in m.skills.items())
        self.weapons.value = tuple(w for w in m.weapons if w in self.weapons.options)

    def clear(self) -> None:
        """The forms as a new editor has them (for the next model or piece drawn)."""
        with self._held():
            self.faction.value = ""
            self.name.value = ""
            self.base_class.value = "normal"
            self.diameter.value = base_diameter("normal", self.units)
            self.skills.value = ""
            self.weapons.value = ()
            self.kind.value = "cover"
            self.piece_name.value = ""
            self.height.value = ""
            self.huge.value = NONE
            self.elevated.value = NONE

    def relabel(self, lang: str) -> None:
        """Every label in ``lang``."""
        with self._held():
            value = self.base_class.value
            self.base_class.options = [(ui(f"base-{c}", lang), c) for c in (*BASE_SIZES_MM, OTHER)]
            self.base_class.value = value
            for box, blank in ((self.kind, False), (self.huge, True), (self.elevated, True)):
                value = box.value
                box.options = _kind_choices(lang, blank)
                box.value = value
        for key in ("faction", "name", "diameter", "skills", "weapons"):
            getattr(self, key).description = ui(key, lang)
        self.base_class.description = ui("base", lang)
        for key in ("kind", "height", "huge", "elevated"):
            getattr(self, key).description = ui(key, lang)
        self.piece_name.description = ui("name", lang)
        self.faction.placeholder = ui("faction-default", lang)
        self.skills.placeholder = ui("skills-example", lang)
        self.model_head.value = f"<b>{html.escape(ui('models-head', lang))}</b>"
        self.terrain_head.value = f"<b>{html.escape(ui('terrain-head', lang))}</b>"

    def _base_class_changed(self, change: dict[str, Any]) -> None:
        if change["new"] in BASE_SIZES_MM:
            self.diameter.value = base_diameter(change["new"], self.units)


def _skill_text(m: Model, icon: str, value: Any, lang: str) -> str:
    """A model's skill as the skills field shows it: the file's words in English ("thrown 5
    red"), the names in another language ("Wurfwaffe 5 rot"; :meth:`EditorForm.model_fields`
    reads both)."""
    colour = m.throw_colour if icon == "thrown" else None
    if lang == "en":
        return " ".join(str(w) for w in (icon, value, colour) if w is not None and w != "")
    parts = [word(icon, lang), value, word(f"ruler-{colour}", lang).lower() if colour else None]
    return " ".join(str(w) for w in parts if w is not None and w != "")
