"""What makes a scenario usable, decided once: for a file and for a board built in Python.

A scenario file is read by its format's grammar (:mod:`fwwrules.scenario_spec`, pydantic: the
keys, each field's type and range, for the file's messages and its JSON Schema), built, and
then checked here; a board built in Python (``Scenario``, ``Model``, ``Rect``, ``Circle``,
``dataclasses.replace``, ``move_model``) is checked here before anything rules on it, draws it
or maps it (:func:`checked`, which :func:`usable` calls for every public
entry point). Both paths run the same functions, so a board is refused for the same reasons,
in the same words, at the same place (``models[2].base``), whichever way it was made: every
field of every piece (types, finite numbers, ranges, ids, display texts, the words of the
vocabulary), then what the pieces say together (ids used once, references, factions and
sides, sane bases and rulers, the contact tolerance, simple polygons, the smallest feature,
the corner limit, weapons' bands and dice, where bases stand among each other and on the
table). This module imports no pydantic.

A scenario is checked once: the verdict is kept in its cache (:data:`CHECKED`), so asking again
costs a look-up; a scenario whose models moved (``move_model``, the panels' drags) carries the
verdict and has only its moved models checked (:func:`checked`).

Boundary cases
--------------
* An id is 1 to :data:`IDENT_MAX_LENGTH` characters, each a lowercase letter of any script
  (Unicode ``Ll``, or a letter without case: ``Lo``, ``Lm``), a digit (``Nd``), a combining
  mark after a letter or digit (``Mn``, ``Mc``: the vowel signs of Devanagari, an accent
  that has no composed form) or ``-``; no space, no capital, no punctuation or path
  character (``/``, ``\\``, ``:``, ``.``), nothing invisible. An id is read in NFC (a file
  that writes ``ö`` as ``o`` and a combining diaeresis names the same id as one that writes
  it as one character): ``ritter-größe`` and ``侦察兵`` are ids, ``Ritter``, ``ritter größe``
  and ``a/b`` are not.
* A display text (a name, a title) is at most :data:`TEXT_MAX_LENGTH` characters and holds
  none of these: control characters (C0, DEL, C1: ``\\x00``-``\\x1f``, ``\\x7f``-``\\x9f``;
  a tab is one), the bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E,
  U+2066-U+2069) and the zero-width and invisible characters (U+200B-U+200D, U+2060-U+2064,
  U+FEFF). A control character could drive a terminal; a bidirectional control reverses what
  follows it on a screen (a name ending in U+202E shows the rest of a ruling's line
  backwards) and an invisible character makes two different names look the same, in the
  terminal, the JSON, every panel's HTML and every SVG. Emoji and every script are text.
* A number is an ``int`` or a ``float`` (or another real number type, numpy's included), never
  a ``bool`` or text; NaN, infinities and magnitudes above ``MAX_COORDINATE`` are refused
  (``10**400`` too, without an overflow).
* Where bases may stand is the one placement rule (:mod:`fwwrules.placement`), checked once
  every other check passed: two bases on one level overlapping by more than the contact
  tolerance are refused (an overlap of exactly the tolerance is contact), and so is a base
  overlapping a blocking or cover piece it does not stand on, or standing lower than the top
  of the piece its centre lies on.
"""

from __future__ import annotations

import dataclasses
import math
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from numbers import Integral, Real
from typing import Any, get_args

import numpy as np
import shapely
import shapely.errors
from numpy.typing import NDArray
from shapely import validation as shapely_validation
from shapely.geometry import Polygon

from .arguments import describe as describe
from .arguments import scenario_object
from .board import TERRAIN_CIRCLE_QUAD_SEGMENTS
from .cache import Key, Moved
from .catalogue import LANGS
from .constants import (
    LENGTH_EPSILON_MM,
    MARGIN_RADIUS_MM,
    MAX_CONTACT_TOLERANCE_MM,
    MAX_COORDINATE,
    MAX_MODEL_WEAPONS,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_TOTAL_VERTICES,
    MAX_WEAPONS,
    MIN_FEATURE_MM,
    MM_PER_INCH,
    SANE_BASE_MM,
    SANE_RULER_MM,
)
from .data import Scenario
from .errors import Problem, ScenarioError, format_path
from .pieces import (
    DICE_COLOURS,
    IMPROVISED,
    MAX_DICE_PER_COLOUR,
    RULER_COLOURS,
    RULER_INCHES,
    RULESET_NAMES,
    SKILL_ICONS,
    TERRAIN_KINDS,
    ChargeBonus,
    ChargeMarker,
    Circle,
    CoverBy,
    DiceBand,
    Model,
    ModelRef,
    Options,
    Rect,
    Status,
    Terrain,
    Units,
    Weapon,
)
from .placement import Clash, clashes_at, on_table_v, placement_problems

Path = tuple[str | int, ...]

IDENT_MAX_LENGTH = 64
TEXT_MAX_LENGTH = 200

_CONTROLS = r"\x00-\x1f\x7f-\x9f"
_BIDI_AND_INVISIBLE = r"\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_ASCII_NOT_IN_IDS = r"A-Z!-,./:-@\[-`{-~"
IDENT_PATTERN = rf"^[^\s{_ASCII_NOT_IN_IDS}{_CONTROLS}{_BIDI_AND_INVISIBLE}]+$"
"""What a JSON Schema can say of an id (the file formats' schema states it; a pattern there
has no Unicode categories): no space, no control, bidirectional or invisible character, and
of ASCII only ``a-z``, ``0-9`` and ``-``. The full rule is :func:`ident_problem`'s."""
_ID_CATEGORIES = frozenset({"Ll", "Lo", "Lm", "Nd"})
_MARKS = frozenset({"Mn", "Mc"})
TEXT_PATTERN = rf"^[^{_CONTROLS}{_BIDI_AND_INVISIBLE}]*$"
"""Display text: none of the characters this module's docstring lists (the file formats' JSON
Schema states this pattern)."""

_CONTROL = re.compile(f"[{_CONTROLS}]")
_REFUSED = re.compile(f"[{_CONTROLS}{_BIDI_AND_INVISIBLE}]")

IDENT_EXPECTED = (
    "expected an id: lowercase letters of any script, digits and '-', no spaces "
    "(such as 'laser-rifle' or 'ritter-größe')"
)


def nfc(value: Any) -> Any:
    """Text in Unicode's composed form (NFC); anything else as it is.

    >>> nfc("gro\u0308\u00dfe") == "größe"
    True
    """
    return unicodedata.normalize("NFC", value) if isinstance(value, str) else value


def _id_char(char: str, after: str) -> bool:
    """``char`` may stand in an id after ``after`` (``""`` at the start)."""
    if char == "-":
        return True
    category = unicodedata.category(char)
    if category in _MARKS:
        return after != "" and after != "-"
    return category in _ID_CATEGORIES


_ASCII_ID_CHARS = frozenset(c for c in map(chr, range(128)) if _id_char(c, "a"))
"""The ASCII characters :func:`_id_char` allows (``a``–``z``, ``0``–``9``, ``-``): no ASCII
character is a mark, so for these the character before does not matter. Derived from
:func:`_id_char`, never written twice."""


UNITS: tuple[Units, ...] = get_args(Units)
STATUSES: tuple[Status, ...] = get_args(Status)
CHARGE_MARKERS: tuple[ChargeMarker, ...] = get_args(ChargeMarker)
DICE_BANDS: tuple[DiceBand, ...] = get_args(DiceBand)
COVER_BY: tuple[CoverBy, ...] = get_args(CoverBy)
SKILL_RANGE = (0, 20)
"""A skill value: a whole number from 0 to 20 (the file format's ``SkillValue``)."""
STRENGTH_RANGE = (1, 20)
ANGLE_LIMIT = 360.0
"""A rectangle's angle lies within ±360 degrees."""


# ---------------------------------------------------------------------------------------------
# One value: the words a file's message uses
# ---------------------------------------------------------------------------------------------


def ident_problem(value: Any) -> str | None:
    """Why ``value`` is not an id (the words of a file's message), or ``None``. ``value`` is
    taken as it is: a file's ids are read in NFC first (:func:`nfc`), so text in another
    form is refused here.

    >>> ident_problem("laser-rifle") is None, ident_problem("ritter-größe") is None
    (True, True)
    >>> ident_problem("BAD ID") == IDENT_EXPECTED, ident_problem("a/b") == IDENT_EXPECTED
    (True, True)
    """
    if not isinstance(value, str):
        return "expected text"
    if len(value) > IDENT_MAX_LENGTH:
        return f"expected at most {IDENT_MAX_LENGTH} characters"
    if not value or value != nfc(value):
        return IDENT_EXPECTED
    if value.isascii():  # the same verdict as the loop below, in one set operation
        return None if _ASCII_ID_CHARS.issuperset(value) else IDENT_EXPECTED
    if not all(_id_char(c, value[i - 1] if i else "") for i, c in enumerate(value)):
        return IDENT_EXPECTED
    return None


def ident_from(text: str, most: int = 40) -> str:
    """An id made of a display text (a name): in NFC, lower-cased, every run of characters an
    id cannot hold (spaces, punctuation) turned into one ``-``, no ``-`` at either end, at
    most ``most`` characters; ``""`` when nothing is left. Letters of every script stay.

    >>> ident_from("Ritter Größe"), ident_from("Knight Patrol (2)"), ident_from("?!")
    ('ritter-größe', 'knight-patrol-2', '')
    """
    out: list[str] = []
    for char in nfc(text).lower():
        keep = char != "-" and _id_char(char, out[-1] if out else "")
        if keep:
            out.append(char)
        elif out and out[-1] != "-":
            out.append("-")
    return unicodedata.normalize("NFC", "".join(out).strip("-")[:most].rstrip("-"))


def text_problem(value: Any) -> str | None:
    """Why ``value`` is not a display text (a name, a title), or ``None``; the first character
    refused is named by its code point and place, never shown.

    >>> text_problem("Knight Patrol") is None, text_problem("Größe 🤖") is None
    (True, True)
    >>> text_problem("evil\\u202e")  # doctest: +NORMALIZE_WHITESPACE
    'expected text without control characters, bidirectional controls or invisible
    characters: U+202E (RIGHT-TO-LEFT OVERRIDE) at character 5 reorders or hides what a
    screen shows'
    """
    if not isinstance(value, str):
        return "expected text"
    if len(value) > TEXT_MAX_LENGTH:
        return f"expected at most {TEXT_MAX_LENGTH} characters"
    found = _REFUSED.search(value)
    if found is None:
        return None
    char = found.group()
    where = f"U+{ord(char):04X}"
    if _CONTROL.match(char):
        return f"expected text without control characters ({where} at character {found.end()})"
    name = unicodedata.name(char, "")
    return (
        "expected text without control characters, bidirectional controls or invisible "
        f"characters: {where}{f' ({name})' if name else ''} at character {found.end()} "
        "reorders or hides what a screen shows"
    )


_PLAIN_NUMBERS = (int, float)
"""The types :func:`number_problem` tells apart without ``numbers.Real``/``Integral`` (``bool``
is a subclass of ``int``, not ``int`` itself: it takes the general path)."""


def number_problem(
    value: Any, *, low: float = -MAX_COORDINATE, above: bool = False, whole: bool = False
) -> str | None:
    """Why ``value`` is not a number of the file format from ``low`` (or ``above`` it) to
    ``MAX_COORDINATE``, or ``None``. A huge integer is compared exactly (no overflow).

    >>> number_problem(-5, low=0, above=True), number_problem(float("nan"))
    ('expected a number above 0', 'expected a finite number (not NaN or infinity)')
    >>> number_problem(10**400), number_problem(True), number_problem(7.5, whole=True)
    ('expected a number of at most 1e+06', 'expected a number', 'expected a whole number')
    """
    plain = type(value) in _PLAIN_NUMBERS  # int or float itself: no abstract-class checks
    if not plain and (isinstance(value, bool) or not isinstance(value, Real)):
        return "expected a whole number" if whole else "expected a number"
    integral = type(value) is int if plain else isinstance(value, Integral)
    if whole and not integral:
        return "expected a whole number"
    if not integral:
        try:
            if not math.isfinite(float(value)):
                return "expected a finite number (not NaN or infinity)"
        except (OverflowError, ValueError):
            return "expected a finite number (not NaN or infinity)"
    v: Any = value  # a real number; a huge int stays exact
    if above and v <= low:
        return f"expected a number above {low:g}"
    if v < low:
        return f"expected a number of at least {low:g}"
    if v > MAX_COORDINATE:
        return f"expected a number of at most {MAX_COORDINATE:g}"
    return None


def _choice_problem(value: Any, choices: Sequence[str]) -> str | None:
    if isinstance(value, str) and value in choices:
        return None
    if len(choices) == 1:
        return f"expected {choices[0]!r}"
    return f"expected one of {', '.join(choices)}"


def _is_list(value: Any) -> bool:
    """A list of the file format: a tuple or a list (never text or a mapping)."""
    return isinstance(value, (tuple, list))


# ---------------------------------------------------------------------------------------------
# Every field of every piece
# ---------------------------------------------------------------------------------------------


class _Found:
    """The problems found so far, and the checks of one value at a place that add to them."""

    __slots__ = ("problems",)

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, path: Path, message: str | None, value: Any = None, *, got: bool = True) -> bool:
        """Add ``message`` at ``path`` (with "(got ...)" for ``value``); True when there was
        nothing to add."""
        if message is None:
            return True
        self.problems.append(
            Problem(path, f"{message} (got {describe(value)})" if got else message)
        )
        return False

    def number(self, value: Any, path: Path, **limits: Any) -> bool:
        return self.add(path, number_problem(value, **limits), value)

    def optional_number(self, value: Any, path: Path, **limits: Any) -> None:
        if value is not None:
            self.number(value, path, **limits)

    def ident(self, value: Any, path: Path) -> bool:
        return self.add(path, ident_problem(value), value)

    def text(self, value: Any, path: Path) -> None:
        if value is not None:
            self.add(path, text_problem(value), value)

    def choice(self, value: Any, path: Path, choices: Sequence[str]) -> bool:
        return self.add(path, _choice_problem(value, choices), value)

    def point(self, value: Any, path: Path, what: str = "a point [x, y]") -> bool:
        """Two numbers (a tuple or a list), each within the coordinate limit."""
        if not _is_list(value):
            return self.add(path, f"expected {what}", value)
        if len(value) != 2:
            n = len(value)
            return self.add(
                path, f"expected {what} (got {n} item{'' if n == 1 else 's'})", got=False
            )
        ok = self.number(value[0], (*path, 0))
        return self.number(value[1], (*path, 1)) and ok

    def size(self, value: Any, path: Path) -> bool:
        """``[width, height]``: two numbers above 0."""
        if not _is_list(value) or len(value) != 2:
            return self.point(value, path, "[width, height]")
        ok = self.number(value[0], (*path, 0), low=0, above=True)
        return self.number(value[1], (*path, 1), low=0, above=True) and ok

    def items(self, value: Any, path: Path, limit: int | None = None) -> Sequence[Any]:
        """The items of a list (a tuple or a list), or none when it is not one or is too long."""
        if not _is_list(value):
            self.add(path, "expected a list", value)
            return ()
        if limit is not None and len(value) > limit:
            self.add(path, f"expected at most {limit} items (got {len(value)})", got=False)
            return ()
        items: Sequence[Any] = value
        return items

    def mapping(self, value: Any, path: Path) -> Mapping[Any, Any]:
        if not isinstance(value, Mapping):
            self.add(path, "expected a mapping (key: value)", value)
            return {}
        return value

    def key(self, key: Any, path: Path, choices: Sequence[str]) -> bool:
        """A mapping's key from a closed list (``skills``, ``rulers``, ``dice``)."""
        if isinstance(key, str) and key in choices:
            return True
        self.problems.append(
            Problem((*path, str(key)), f"unknown key {key!r}; expected one of {', '.join(choices)}")
        )
        return False


def _model_fields(m: Any, at: Path, found: _Found) -> None:
    """Every field of one model (``models[i]``)."""
    if not isinstance(m, Model):
        found.add(at, "expected a model (fwwrules.Model)", m)
        return
    found.ident(m.id, (*at, "id"))
    _title(m.name, (*at, "name"), found)
    found.ident(m.faction, (*at, "faction"))
    found.number(m.base, (*at, "base"), low=0, above=True)
    found.point(m.at, (*at, "at"))
    found.number(m.elevation, (*at, "elevation"), low=0)
    _skills(m, (*at, "skills"), found)
    if m.strength is not None:
        _whole(m.strength, (*at, "strength"), STRENGTH_RANGE, found)
    for key in ("keywords", "weapons"):
        for j, word in enumerate(found.items(getattr(m, key), (*at, key), MAX_MODEL_WEAPONS)):
            found.ident(word, (*at, key, j))
    for j, word in enumerate(found.items(m.status, (*at, "status"), MAX_MODEL_WEAPONS)):
        found.choice(word, (*at, "status", j), STATUSES)
    if m.charge_bonus is not None:
        _charge_bonus(m.charge_bonus, (*at, "charge_bonus"), found)
    found.optional_number(m.move, (*at, "move"), low=0, above=True)


def _whole(value: Any, path: Path, limits: tuple[int, int], found: _Found) -> None:
    low, high = limits
    if not found.number(value, path, low=low, whole=True):
        return
    if value > high:
        found.add(path, f"expected a number of at most {high}", value)


def _skills(m: Model, path: Path, found: _Found) -> None:
    """Skill values by icon (whole numbers 0 to 20); the Throw colour needs the Throw value."""
    for icon, value in found.mapping(m.skills, path).items():
        if found.key(icon, path, SKILL_ICONS):
            _whole(value, (*path, icon), SKILL_RANGE, found)
    if m.throw_colour is None:
        return
    if isinstance(m.skills, Mapping) and "thrown" not in m.skills:
        found.add(
            (*path, "thrown"),
            "a Throw colour (throw_colour) needs the Throw skill's value (skills['thrown'])",
            got=False,
        )
    found.choice(m.throw_colour, (*path, "thrown", "colour"), RULER_COLOURS)


def _charge_bonus(bonus: Any, path: Path, found: _Found) -> None:
    if not isinstance(bonus, ChargeBonus):
        found.add(path, "expected Charge Bonus markers (fwwrules.ChargeBonus)", bonus)
        return
    found.ident(bonus.target, (*path, "target"))
    markers = found.items(bonus.markers, (*path, "markers"), 2)
    if _is_list(bonus.markers) and not bonus.markers:
        found.add((*path, "markers"), "expected at least 1 item", got=False)
    for j, marker in enumerate(markers):
        found.choice(marker, (*path, "markers", j), CHARGE_MARKERS)


def _terrain_fields(t: Any, at: Path, found: _Found) -> None:
    """Every field of one terrain piece (``terrain[i]``)."""
    if not isinstance(t, Terrain):
        found.add(at, "expected a terrain piece (fwwrules.Terrain)", t)
        return
    found.ident(t.id, (*at, "id"))
    _title(t.name, (*at, "name"), found)
    found.choice(t.kind, (*at, "kind"), TERRAIN_KINDS)
    _shape_fields(t.shape, at, found)
    found.optional_number(t.height, (*at, "height"), low=0)
    for key in ("huge", "elevated"):
        if getattr(t, key) is not None:
            found.choice(getattr(t, key), (*at, key), TERRAIN_KINDS)


def _shape_fields(shape: Any, at: Path, found: _Found) -> None:
    """A polygon's corners, a :class:`Rect` or a :class:`Circle`."""
    if isinstance(shape, Rect):
        found.point(shape.at, (*at, "rect", "at"))
        found.size(shape.size, (*at, "rect", "size"))
        angle = (*at, "rect", "angle")
        if found.number(shape.angle, angle, low=-ANGLE_LIMIT) and shape.angle > ANGLE_LIMIT:
            found.add(angle, f"expected a number of at most {ANGLE_LIMIT:g}", shape.angle)
    elif isinstance(shape, Circle):
        found.point(shape.at, (*at, "circle", "at"))
        found.number(shape.diameter, (*at, "circle", "diameter"), low=0, above=True)
    elif _is_list(shape):
        corners = found.items(shape, (*at, "polygon"), MAX_POLYGON_VERTICES)
        for k, corner in enumerate(corners):
            found.point(corner, (*at, "polygon", k))
    else:
        found.add(at, "expected a shape: a polygon's corners, a Rect or a Circle", shape)


def _range_problem(value: Any) -> bool:
    """A band or minimum range that is neither absent, a ruler colour nor a length above 0."""
    if value is None or (isinstance(value, str) and value in RULER_COLOURS):
        return False
    return isinstance(value, str) or number_problem(value, low=0, above=True) is not None


def _weapon_fields(w: Any, at: Path, found: _Found) -> None:
    """Every field of one weapon (``weapons[i]``)."""
    if not isinstance(w, Weapon):
        found.add(at, "expected a weapon (fwwrules.Weapon)", w)
        return
    found.ident(w.id, (*at, "id"))
    _title(w.name, (*at, "name"), found)
    found.choice(w.type, (*at, "type"), SKILL_ICONS)
    for key in ("short", "long", "min_range"):
        value = getattr(w, key)
        if _range_problem(value):
            colours = ", ".join(RULER_COLOURS)
            found.add((*at, key), f"expected a ruler colour ({colours}) or a length", value)
    dice = found.mapping(w.dice, (*at, "dice"))
    for band, colours in dice.items():
        if not found.key(band, (*at, "dice"), DICE_BANDS):
            continue
        path = (*at, "dice", band)
        listed = found.items(colours, path, MAX_DICE_PER_COLOUR * len(DICE_COLOURS))
        for j, colour in enumerate(listed):
            found.choice(colour, (*path, j), DICE_COLOURS)
        for colour in DICE_COLOURS:
            n = sum(1 for c in listed if c == colour)
            if n > MAX_DICE_PER_COLOUR:
                found.add(
                    path,
                    f"at most {MAX_DICE_PER_COLOUR} {colour} dice in one test (got {n})",
                    got=False,
                )


def _scenario_fields(s: Scenario, found: _Found) -> None:
    """Every field of the scenario itself and of each of its pieces."""
    found.choice(s.rules, ("rules",), RULESET_NAMES)
    found.choice(s.units, ("units",), UNITS)
    if not isinstance(s.source, str):
        found.add(("source",), "expected text (a name for messages)", s.source)
    _title(s.title, ("title",), found)
    _options(s.options, found)
    for colour, length in found.mapping(s.rulers, ("rulers",)).items():
        if found.key(colour, ("rulers",), RULER_COLOURS):
            found.number(length, ("rulers", colour), low=0, above=True)
    if s.board_size is not None:
        found.size(s.board_size, ("board", "size"))
    for side, factions in found.mapping(s.sides, ("sides",)).items():
        if found.ident(side, ("sides", str(side))):
            for j, faction in enumerate(found.items(factions, ("sides", side))):
                found.ident(faction, ("sides", side, j))
    for j, faction in enumerate(found.items(s.neutral, ("neutral",))):
        found.ident(faction, ("neutral", j))
    for key, limit, fields in (
        ("models", MAX_MODELS, _model_fields),
        ("terrain", MAX_TERRAIN, _terrain_fields),
        ("weapons", MAX_WEAPONS, _weapon_fields),
    ):
        for i, piece in enumerate(found.items(getattr(s, key), (key,), limit)):
            fields(piece, (key, i), found)


def _title(title: Any, path: Path, found: _Found) -> None:
    """No text, one text, or one text per language (at least one): a title or a piece's
    name."""
    if title is None or isinstance(title, str):
        found.text(title, path)
        return
    texts = found.mapping(title, path)
    if isinstance(title, Mapping) and not title:
        found.add(path, "expected text, or a text per language such as {en: ..., de: ...}")
    for lang, text in texts.items():
        if found.key(lang, path, LANGS):
            found.add((*path, lang), text_problem(text), text)


def _options(o: Any, found: _Found) -> None:
    if not isinstance(o, Options):
        found.add(("options",), "expected options (fwwrules.Options)", o)
        return
    found.optional_number(o.contact_tolerance, ("options", "contact_tolerance"), low=0)
    found.optional_number(o.knife_edge, ("options", "knife_edge"), low=0)
    found.choice(o.cover_by, ("options", "cover_by"), COVER_BY)
    if not isinstance(o.slide_through_engaged_enemy, bool):
        path = ("options", "slide_through_engaged_enemy")
        found.add(path, "expected true or false", o.slide_through_engaged_enemy)


# ---------------------------------------------------------------------------------------------
# What the pieces say together
# ---------------------------------------------------------------------------------------------


def _fmt(path: Path) -> str:
    return format_path(path)


def _semantic_problems(s: Scenario, indices: Sequence[int] | None = None) -> list[Problem]:
    """Cross-references and geometry that one field alone cannot show: of the whole scenario,
    or (``indices``) only what the models at those indices take part in (a model moved or
    added: its id, references, base, Throw colour and place on the table); then, when all
    that holds, where the bases stand (:func:`_placement_problems`)."""
    unit = s.unit_mm
    every = range(len(s.models)) if indices is None else indices
    problems = _id_problems(s, indices)
    problems += _reference_problems(s, every)
    problems += _base_problems(s, every, unit)
    problems += _skill_problems(s, every)
    if indices is None:
        problems += _faction_problems(s)
        problems += [
            p for c, v in s.rulers.items() for p in _ruler_problems(v * unit, ("rulers", c))
        ]
        problems += _tolerance_problems(s, unit)
        problems += _knife_edge_problems(s, unit)
        problems += _shape_problems(s, unit)
        problems += _total_vertex_problems(s)
        for i, weapon in enumerate(s.weapons):
            problems += _weapon_problems(weapon, ("weapons", i))
    problems += _off_board_problems(s, every, unit)
    if problems:
        return problems
    return _placement_problems(s, indices)  # the board's geometry needs sane pieces


def _id_problems(s: Scenario, indices: Sequence[int] | None) -> list[Problem]:
    """Ids used twice (models and terrain share one namespace; weapons have their own, and
    ``improvised`` is built in): each later use is reported, naming the first."""
    problems: list[Problem] = []
    owner: dict[str, Path] = {}
    ids = [(("models", i, "id"), m.id) for i, m in enumerate(s.models)]
    ids += [(("terrain", i, "id"), t.id) for i, t in enumerate(s.terrain)]
    for path, ident in ids:
        owner.setdefault(ident, path)
    scope = ids if indices is None else [ids[i] for i in indices]
    for path, ident in scope:
        first = owner[ident]
        if first != path:
            problems.append(
                Problem(path, f"duplicate id {ident!r} (already used at {_fmt(first)})")
            )
    if indices is not None:
        return problems
    weapon_ids: set[str] = set()
    for i, weapon in enumerate(s.weapons):
        if weapon.id == IMPROVISED:
            problems.append(
                Problem(("weapons", i, "id"), "'improvised' is built in; choose another id")
            )
        elif weapon.id in weapon_ids:
            problems.append(Problem(("weapons", i, "id"), f"duplicate weapon id {weapon.id!r}"))
        weapon_ids.add(weapon.id)
    return problems


def _reference_problems(s: Scenario, indices: Collection[int]) -> list[Problem]:
    """A model's weapons and charge bonus target must name what the scenario holds."""
    problems: list[Problem] = []
    weapon_ids = {w.id for w in s.weapons}
    model_ids = {m.id for m in s.models}
    known = _id_list(sorted(weapon_ids))
    for i in indices:
        m = s.models[i]
        for j, w in enumerate(m.weapons):
            if w not in weapon_ids and w != IMPROVISED:
                problems.append(
                    Problem(
                        ("models", i, "weapons", j),
                        f"unknown weapon {w!r}; expected one of the ids under 'weapons' ({known})",
                    )
                )
        if m.charge_bonus is not None:
            t = m.charge_bonus.target
            where = ("models", i, "charge_bonus", "target")
            if t not in model_ids:
                problems.append(Problem(where, f"unknown model id {t!r}"))
            elif t == m.id:
                problems.append(Problem(where, "a model cannot charge itself"))
    return problems


def _faction_problems(s: Scenario) -> list[Problem]:
    """A faction belongs to one side at most, and a neutral faction to none."""
    problems: list[Problem] = []
    seen_faction: dict[str, str] = {}
    for side, factions in s.sides.items():
        for j, f in enumerate(factions):
            if f in seen_faction:
                problems.append(
                    Problem(
                        ("sides", side, j), f"faction {f!r} is already on side {seen_faction[f]!r}"
                    )
                )
            seen_faction[f] = side
    for j, f in enumerate(s.neutral):
        if f in seen_faction:
            problems.append(
                Problem(
                    ("neutral", j), f"faction {f!r} is on side {seen_faction[f]!r}; not neutral"
                )
            )
    return problems


def _base_problems(s: Scenario, indices: Collection[int], unit: float) -> list[Problem]:
    """Bases of a sensible size."""
    problems: list[Problem] = []
    low, high = SANE_BASE_MM
    for i in indices:
        mm = s.models[i].base * unit
        if not low <= mm <= high:
            problems.append(
                Problem(
                    ("models", i, "base"),
                    f"a base of {mm:g} mm makes no sense; expected {low:g} to {high:g} mm"
                    " (32, 40, 60 ...; check 'units')",
                )
            )
    return problems


def _skill_problems(s: Scenario, indices: Collection[int]) -> list[Problem]:
    """``ranged.skill``: a model that carries a thrown weapon without a range of its own needs
    its Throw skill's colour (else it could throw the weapon nowhere)."""
    out: list[Problem] = []
    rangeless = {w.id for w in s.weapons if w.range_from_thrower}
    for i in indices:
        m = s.models[i]
        throw = m.skills.get("thrown")
        if throw is None or m.throw_colour is not None:
            continue
        for j, w in enumerate(m.weapons):
            if w in rangeless:
                out.append(
                    Problem(
                        ("models", i, "skills", "thrown"),
                        f"weapon {w!r} (weapons[{j}]) is thrown and has no range of its own: "
                        f"it reaches the colour of the Throw skill icon; give it, e.g. "
                        f"thrown: {{value: {throw}, colour: red}}",
                    )
                )
    return out


def _id_list(ids: list[str], most: int = 12) -> str:
    """Ids for a message: all of them, or the first ``most`` and how many more (a file may
    declare hundreds; one message per unknown id must stay short)."""
    if not ids:
        return "none"
    if len(ids) <= most:
        return ", ".join(ids)
    return ", ".join(ids[:most]) + f" and {len(ids) - most} more"


def _ruler_problems(mm: float, path: Path) -> list[Problem]:
    """A ruler (or a band given as a length) outside a sane range: likely a unit mistake."""
    low, high = SANE_RULER_MM
    if low <= mm <= high:
        return []
    return [
        Problem(
            path,
            f"a ruler of {mm:g} mm makes no sense; expected {low:g} to {high:g} mm (check 'units')",
        )
    ]


def _tolerance_problems(s: Scenario, unit: float) -> list[Problem]:
    """``options.contact_tolerance`` above :data:`MAX_CONTACT_TOLERANCE_MM`, or above half
    of the shortest ruler (the ruler tolerance follows it)."""
    tolerance = s.options.contact_tolerance
    if tolerance is None:
        return []
    rulers = {c: RULER_INCHES[c] * MM_PER_INCH for c in RULER_INCHES}
    rulers.update({c: v * unit for c, v in s.rulers.items()})
    shortest = min(rulers, key=lambda c: rulers[c])
    limit = min(MAX_CONTACT_TOLERANCE_MM, rulers[shortest] / 2)
    if tolerance * unit <= limit:
        return []
    why = (
        "MAX_CONTACT_TOLERANCE_MM"
        if limit == MAX_CONTACT_TOLERANCE_MM
        else f"half the {shortest} ruler"
    )
    return [
        Problem(
            ("options", "contact_tolerance"),
            f"a contact tolerance of {tolerance * unit:g} mm is too wide; the limit is "
            f"{limit:g} mm ({why}): rulers and elevation use it too",
        )
    ]


def _knife_edge_problems(s: Scenario, unit: float) -> list[Problem]:
    """``options.knife_edge`` wider than the margin search reaches (:data:`MARGIN_RADIUS_MM`):
    a margin beyond the search radius is not known, so it cannot be called a knife edge."""
    value = s.options.knife_edge
    if value is None or value * unit <= MARGIN_RADIUS_MM + LENGTH_EPSILON_MM:
        return []
    return [
        Problem(
            ("options", "knife_edge"),
            f"a knife edge of {value * unit:g} mm is wider than the margin search reaches "
            f"({MARGIN_RADIUS_MM:g} mm, MARGIN_RADIUS_MM)",
        )
    ]


def _shape_problems(s: Scenario, unit: float) -> list[Problem]:
    """Weapon bands of a sensible length; terrain polygons valid, not too thin, not too small."""
    problems: list[Problem] = []
    for i, weapon in enumerate(s.weapons):
        for band in ("short", "long"):
            value = getattr(weapon, band)
            if value is not None and not isinstance(value, str):
                problems.extend(_ruler_problems(value * unit, ("weapons", i, band)))
    outlines = [
        (i, [(float(x), float(y)) for x, y in piece.shape])
        for i, piece in enumerate(s.terrain)
        if not isinstance(piece.shape, (Rect, Circle))
    ]
    paths: list[Path] = [("terrain", i, "polygon") for i, _ in outlines]
    found = _polygons_problems([corners for _, corners in outlines], paths)
    simple = [k for k, wrong in enumerate(found) if not wrong]  # then: not too thin
    corners = [outlines[k][1] for k in simple]
    thin = _thin_polygons_problems(corners, unit, [paths[k] for k in simple])
    for k, wrong in zip(simple, thin, strict=True):
        found[k] = wrong
    of_piece = {i: wrong for (i, _), wrong in zip(outlines, found, strict=True)}
    for i, piece in enumerate(s.terrain):
        problems.extend(of_piece.get(i, ()))
        problems.extend(_small_shape_problems(piece.shape, unit, ("terrain", i)))
    return problems


MIN_POLYGON_POINTS = 3
"""Fewest corners a terrain polygon may have (the file's loader and the board editor both
refuse fewer, with :func:`polygon_point_count_problem`'s message)."""


def polygon_point_count_problem(count: int) -> str | None:
    """The message refusing a polygon of ``count`` corners, or None when it has enough.

    Only the count: two equal corners among three still pass here (the loader's shape check
    finds them). The loader and the board editor both call this, so they say the same thing.

    >>> polygon_point_count_problem(2)
    'expected at least 3 points (got 2)'
    >>> polygon_point_count_problem(3) is None
    True
    """
    if count < MIN_POLYGON_POINTS:
        return f"expected at least {MIN_POLYGON_POINTS} points (got {count})"
    return None


def _polygons_problems(
    polygons: Sequence[list[tuple[float, float]]], paths: Sequence[Path]
) -> list[list[Problem]]:
    """:func:`_polygon_problems` of each polygon: shapely asked about all of them at once (the
    same rings, the same validity and area), and one by one only about those it finds wrong
    (for the message), or all one by one when a ring cannot even be built."""
    counted = [k for k, corners in enumerate(polygons) if len(corners) >= MIN_POLYGON_POINTS]
    fine = np.zeros(len(polygons), dtype=bool)
    if counted:
        sizes = [len(polygons[k]) for k in counted]
        xy = np.asarray([p for k in counted for p in polygons[k]], dtype=float)
        try:
            rings = shapely.linearrings(xy, indices=np.repeat(np.arange(len(counted)), sizes))
            shapes = shapely.polygons(rings)
            fine[counted] = shapely.is_valid(shapes) & (shapely.area(shapes) > 0)
        except (ValueError, shapely.errors.GEOSException):
            pass  # each polygon's own check says what is wrong
    return [
        [] if ok else _polygon_problems(corners, path)
        for ok, corners, path in zip(fine.tolist(), polygons, paths, strict=True)
    ]


def _polygon_problems(points: list[tuple[float, float]], path: Path) -> list[Problem]:
    """A terrain polygon must be simple: 3 or more corners, an area, no edge crossing another.

    Touching itself at a corner counts as crossing (shapely calls such a ring invalid).
    """
    too_few = polygon_point_count_problem(len(points))
    if too_few is not None:
        return [Problem(path, too_few)]
    poly = Polygon(points)
    if not poly.is_valid:
        why = shapely_validation.explain_validity(poly)
        match = re.fullmatch(r"(.*)\[(\S+) (\S+)\]", why)
        if match and "self-intersection" in match.group(1).lower():
            x, y = float(match.group(2)), float(match.group(3))
            msg = (
                f"the polygon's edges cross each other at ({x:g}, {y:g}); expected a simple outline"
            )
        elif match and "too few points" in match.group(1).lower():
            msg = "expected at least 3 distinct points"
        else:
            msg = f"expected a simple polygon ({why})"
        return [Problem(path, msg)]
    if poly.area <= 0:
        return [Problem(path, "the polygon has no area (all points on one line)")]
    return []


def _terrain_corners(shape: Any) -> int:
    """Corners a piece has on the board: a polygon its own, a rectangle 4, a circle 128."""
    if isinstance(shape, Rect):
        return 4
    if isinstance(shape, Circle):
        return 4 * TERRAIN_CIRCLE_QUAD_SEGMENTS
    return len(shape)


def _total_vertex_problems(s: Scenario) -> list[Problem]:
    """:data:`~fwwrules.constants.MAX_TOTAL_VERTICES` over all pieces."""
    total = sum(_terrain_corners(t.shape) for t in s.terrain)
    if total <= MAX_TOTAL_VERTICES:
        return []
    return [
        Problem(
            ("terrain",),
            f"the terrain has {total} corners in all (a rectangle counts 4, a circle "
            f"{4 * TERRAIN_CIRCLE_QUAD_SEGMENTS}): the limit is {MAX_TOTAL_VERTICES} "
            "(MAX_TOTAL_VERTICES)",
        )
    ]


def _small_shape_problems(shape: Any, unit: float, at: Path) -> list[Problem]:
    """A rectangle side or circle diameter below :data:`~fwwrules.constants.MIN_FEATURE_MM`."""
    low = MIN_FEATURE_MM
    below = low - LENGTH_EPSILON_MM  # exactly the minimum is allowed, rounding aside
    if isinstance(shape, Rect):
        for k, name in enumerate(("width", "height")):
            mm = shape.size[k] * unit
            if mm < below:
                return [
                    Problem(
                        (*at, "rect", "size", k),
                        f"a {name} of {mm:g} mm is below the smallest feature allowed, "
                        f"{low:g} mm (MIN_FEATURE_MM)",
                    )
                ]
    if isinstance(shape, Circle) and shape.diameter * unit < below:
        mm = shape.diameter * unit
        return [
            Problem(
                (*at, "circle", "diameter"),
                f"a diameter of {mm:g} mm is below the smallest feature allowed, "
                f"{low:g} mm (MIN_FEATURE_MM)",
            )
        ]
    return []


def _thin_polygon_problems(
    points: list[tuple[float, float]], unit: float, path: Path
) -> list[Problem]:
    """A simple polygon with a feature below :data:`~fwwrules.constants.MIN_FEATURE_MM`: an
    edge that short, or a corner that close to an edge it is not on (a sliver, a spike, a
    near-touch). Boundary case: exactly the minimum is allowed. The one-polygon case of
    :func:`_thin_polygons_problems`."""
    return _thin_polygons_problems([points], unit, [path])[0]


def _thin_polygons_problems(
    polygons: Sequence[list[tuple[float, float]]], unit: float, paths: Sequence[Path]
) -> list[list[Problem]]:
    """:func:`_thin_polygon_problems` of each polygon (simple, so of 3 corners or more), in one
    vectorised pass over all their corners (each polygon's numbers are those of a pass over it
    alone: the same operations on the same corners)."""
    sizes = np.array([len(c) for c in polygons], dtype=np.intp)
    xy = np.asarray([p for c in polygons for p in c], dtype=float).reshape(-1, 2) * unit
    first = np.cumsum(sizes) - sizes  # each polygon's first corner
    start, n = np.repeat(first, sizes), np.repeat(sizes, sizes)  # per corner
    d = xy[start + (np.arange(len(xy)) - start + 1) % n] - xy  # to corner i + 1
    lengths = np.hypot(d[:, 0], d[:, 1])
    below = MIN_FEATURE_MM - LENGTH_EPSILON_MM  # exactly the minimum is allowed, rounding aside
    short = lengths < below
    has_short = np.logical_or.reduceat(short, first)  # every polygon has 3 corners or more
    out: list[list[Problem]] = [[] for _ in polygons]
    for k in np.flatnonzero(has_short).tolist():
        at, size = int(first[k]), int(sizes[k])
        j = int(np.flatnonzero(short[at : at + size])[0])
        out[k] = [_short_edge_problem(paths[k], j, size, lengths[at + j])]
    whole = np.flatnonzero(~has_short)  # polygons without a short edge: corners against edges
    if not len(whole):
        return out
    gap, blocks = _corner_edge_gaps(xy, d, lengths, first[whole], sizes[whole])
    nearest = np.minimum.reduceat(gap, blocks[:-1])
    for w in np.flatnonzero(nearest < below).tolist():
        k, size = int(whole[w]), int(sizes[whole[w]])
        g = gap[blocks[w] : blocks[w + 1]].reshape(size, size)
        i, j = (int(v) for v in np.unravel_index(int(np.argmin(g)), g.shape))
        out[k] = [_near_edge_problem(paths[k], i, j, size, g[i, j])]
    return out


def _corner_edge_gaps(
    xy: NDArray[np.float64],
    d: NDArray[np.float64],
    lengths: NDArray[np.float64],
    first: NDArray[np.intp],
    sizes: NDArray[np.intp],
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """The distance (mm) from every corner i to every edge j that does not end at i (infinite
    for the two that do) of each polygon (its corners from ``first``, ``sizes`` of them), the
    polygons' (i, j) in rows one after another; and where each polygon's rows start (and the
    last ends)."""
    squares = sizes * sizes
    blocks = np.concatenate(([0], np.cumsum(squares)))
    pair_of = np.repeat(np.arange(len(sizes)), squares)
    n = sizes[pair_of]
    k = np.arange(blocks[-1]) - blocks[pair_of]
    i, j = k // n, k % n
    ci, ej = first[pair_of] + i, first[pair_of] + j  # corner i, edge j (from corner j)
    rel = xy[ci] - xy[ej]  # corner i from the start of edge j
    dj = d[ej]
    t = np.clip((rel[:, 0] * dj[:, 0] + rel[:, 1] * dj[:, 1]) / (lengths[ej] ** 2), 0.0, 1.0)
    gap = np.hypot(rel[:, 0] - t * dj[:, 0], rel[:, 1] - t * dj[:, 1])
    gap[(j == i) | (j == (i - 1) % n)] = np.inf  # edge i starts at corner i, edge i - 1 ends there
    return gap, blocks


def _short_edge_problem(path: Path, k: int, n: int, length: float) -> Problem:
    return Problem(
        (*path, k),
        f"the edge from corner {k} to corner {(k + 1) % n} is {length:.3g} mm long; "
        f"the shortest allowed is {MIN_FEATURE_MM:g} mm (MIN_FEATURE_MM)",
    )


def _near_edge_problem(path: Path, i: int, j: int, n: int, gap: float) -> Problem:
    return Problem(
        (*path, i),
        f"corner {i} is {gap:.3g} mm from the edge from corner {j} to "
        f"corner {(j + 1) % n}; the smallest feature allowed is {MIN_FEATURE_MM:g} mm "
        "(MIN_FEATURE_MM)",
    )


def _weapon_problems(w: Weapon, at: Path) -> list[Problem]:
    """Bands and dice that do not fit the weapon's type (``ranged.range``, ``melee.skill``)."""
    out: list[Problem] = []
    if w.type == "melee":
        for band in ("short", "long", "min_range"):
            if getattr(w, band) is not None:
                out.append(Problem((*at, band), "a melee weapon has no range bands"))
        for band in sorted(set(w.dice) - {"melee"}):
            out.append(Problem((*at, "dice", band), "a melee weapon lists its dice under 'melee'"))
        return out
    if w.short is None and w.type != "thrown":
        out.append(
            Problem(
                (*at, "short"),
                f"required key 'short' is missing: a {w.type} weapon needs a short band",
            )
        )
    if w.short is None and w.type == "thrown":
        for key in ("long", "min_range"):
            if getattr(w, key) is not None:
                out.append(
                    Problem(
                        (*at, key),
                        f"a thrown weapon without 'short' reaches its thrower's Throw colour "
                        f"only; give 'short' too, or leave '{key}' out",
                    )
                )
    if "melee" in w.dice:
        out.append(
            Problem(
                (*at, "dice", "melee"),
                f"a {w.type} weapon lists its dice by band (short, long), not under 'melee'",
            )
        )
    if "long" in w.dice and w.long is None:
        out.append(Problem((*at, "dice", "long"), "dice for a long band, but 'long' is not given"))
    return out


def _other_id(clash: Any) -> str:
    return clash.other.id if isinstance(clash.other, ModelRef) else ""


def _placement_problems(s: Scenario, indices: Sequence[int] | None) -> list[Problem]:
    """Where bases stand, by the one placement rule (:mod:`fwwrules.placement`): two bases on
    one level overlapping by more than the contact tolerance, a base overlapping a solid piece
    it does not stand on, a base below the top of the piece its centre is on. Of every model
    (each base against the bases listed before it, and every piece), or (``indices``) of the
    models at those indices against every other base and every piece. Each problem is at the
    later model's ``at``, naming both."""
    if indices is None:
        found = placement_problems(s)
    else:
        board, ids = s.board, [m.id for m in s.models]
        at = {mid: i for i, mid in enumerate(ids)}
        found = []
        for k in sorted(set(indices)):
            later = frozenset(ids[o] for o in indices if o > k)
            mg = board.models[ids[k]]
            for c in clashes_at(board, ids[k], mg.disc.center, mg.disc.r, mg.elevation, later):
                o = at[c.other.id] if isinstance(c.other, ModelRef) else -1
                if o > k:  # said of the later base, as the whole check says it
                    c = Clash(ids[o], ModelRef(ids[k]), c.how, c.mm)
                found.append((max(o, k), c))
        found.sort(key=lambda f: (f[0], f[1].how != "bases", at.get(_other_id(f[1]), 0)))
    return [Problem(("models", i, "at"), clash.message(s)) for i, clash in found]


def _off_board_problems(s: Scenario, indices: Collection[int], unit: float) -> list[Problem]:
    """With a table size, every base lies on the table (the placement rule's
    :func:`~fwwrules.placement.on_table_v`; touching an edge is on it)."""
    if s.board_size is None or not indices:
        return []
    w, h = s.board_size
    rows = sorted(indices)
    ms = [s.models[i] for i in rows]
    on = on_table_v(
        s,
        np.array([m.at[0] * unit for m in ms], dtype=float),
        np.array([m.at[1] * unit for m in ms], dtype=float),
        np.array([m.base * unit / 2 for m in ms], dtype=float),
    )
    return [
        Problem(
            ("models", i, "at"),
            f"the base of {m.id!r} (centre [{m.at[0]:g}, {m.at[1]:g}], diameter {m.base:g}) "
            f"lies partly off the table [0, {w:g}] x [0, {h:g}] given under 'board'",
        )
        for i, m, ok in zip(rows, ms, on, strict=True)
        if not ok
    ]


# ---------------------------------------------------------------------------------------------
# The check, once per scenario
# ---------------------------------------------------------------------------------------------


def scenario_problems(s: Scenario) -> list[Problem]:
    """Everything wrong with a scenario, at its places in the file format (``models[2].base``):
    every field first; when every field is right, what the pieces say together. Empty for a
    usable scenario. The file load (:func:`fwwrules.scenario_spec.parse_scenario`) and
    :func:`checked` both ask this."""
    found = _Found()
    _scenario_fields(s, found)
    if found.problems:
        return found.problems
    return _semantic_problems(s)


def _moved_problems(
    s: Scenario, indices: Sequence[int], placed: Sequence[int] = ()
) -> list[Problem]:
    """What is wrong with the models at ``indices`` (added, or changed since the scenario they
    were carried from was checked): their fields, then what they take part in; and with those
    at ``placed`` (moved only: nothing but the centre and the elevation changed), where they
    stand: those two numbers, on the table, and the placement rule (their id, references,
    base and skills were found usable before the move, and no check of those looks at where
    a base stands)."""
    found = _Found()
    for i in indices:
        _model_fields(s.models[i], ("models", i), found)
    for i in placed:
        found.point(s.models[i].at, ("models", i, "at"))
        found.number(s.models[i].elevation, ("models", i, "elevation"), low=0)
    if found.problems:
        return found.problems
    if not indices:
        problems = _off_board_problems(s, placed, s.unit_mm)
        return problems or _placement_problems(s, placed)
    return _semantic_problems(s, sorted({*indices, *placed}))


_WHOLE = ""
"""The entry of :data:`CHECKED` that says the whole scenario was checked (ids are never
empty)."""


def _carry_checked(old: dict[str, bool], moved: Moved) -> dict[str, bool] | None:
    """A moved scenario keeps the verdict on everything but the models that moved or were
    added (checked when it is next asked: :func:`checked`); a model found usable before that
    only moved (its centre or elevation changed, nothing else) is kept as ``False``: only
    where it stands is checked again."""
    if _WHOLE not in old:
        return None
    out = {k: v for k, v in old.items() if k not in moved.ids}
    for mid in moved.ids:
        if old.get(mid) is not None and _only_moved(moved.old, moved.new, mid):
            out[mid] = False
    return out


def _only_moved(old: Scenario, new: Scenario, model_id: str) -> bool:
    """Whether ``model_id`` is in both scenarios, with nothing changed but its centre and its
    elevation."""
    before, after = old._by_id.get(model_id), new._by_id.get(model_id)
    if before is None or after is None:
        return False
    return dataclasses.replace(after, at=before.at, elevation=before.elevation) == before


CHECKED: Key[dict[str, bool]] = Key("checked", terrain_only=False, make=dict, carry=_carry_checked)
"""What of a scenario was found usable: ``""`` for the whole scenario, and each model's id
(:func:`checked`), ``True`` when usable, ``False`` when usable but for where it stands (a
model that only moved); a moved scenario carries it without the models that moved or were
added, but for those that only moved (as ``False``)."""


def checked(scenario: Scenario, source: str | None = None) -> Scenario:
    """``scenario`` once it is found usable, else a :class:`~fwwrules.errors.ScenarioError`
    naming each problem's place (``models[2].base``), the piece's id and what was expected
    (``source``, or the scenario's own ``source``, names the board).

    The verdict is kept in the scenario's cache (:data:`CHECKED`): a scenario is checked once
    (a file's scenario was checked as it was read); one whose models moved (``move_model``, a
    drag in a panel) has only the moved models checked, against the rest.
    """
    done = scenario.derived.get(CHECKED)
    models = scenario.models
    if done is not None and _WHOLE in done and len(done) == len(models) + 1 and all(done.values()):
        return scenario
    if done is None or _WHOLE not in done:
        problems = scenario_problems(scenario)
    else:
        fresh = [i for i, m in enumerate(models) if m.id not in done]
        placed = [i for i, m in enumerate(models) if done.get(m.id) is False]
        problems = _moved_problems(scenario, fresh, placed)
    if problems:
        raise ScenarioError(_source(scenario, source), _naming_pieces(scenario, problems))
    return mark_checked(scenario)


def usable(value: Any, what: str) -> Scenario:
    """``value`` if it is a usable scenario (``fwwrules/scenario@1``): else a
    :class:`QueryError` saying what it is (a grid scenario goes to
    :func:`fwwrules.grid_cover`), or, for a scenario the file format would refuse (a board
    built or changed in Python), the :class:`~fwwrules.errors.ScenarioError` of
    :func:`checked` naming each piece and field. Checked once per scenario
    (kept in its cache); a moved scenario has only its moved models checked."""
    return checked(scenario_object(value, what))


def mark_checked(scenario: Scenario) -> Scenario:
    """Keep the verdict "usable" in ``scenario``'s cache: for a scenario found so by
    :func:`scenario_problems` already (the file load), or whose added models were placed by a
    rule of their own (the threat map's target at each position it can stand on)."""
    entry = scenario.derived.entry(CHECKED)
    entry.update((m.id, True) for m in scenario.models)
    entry[_WHOLE] = True
    return scenario


def _source(scenario: Scenario, source: str | None) -> str:
    if source is not None:
        return source
    return scenario.source if isinstance(scenario.source, str) else "<scenario>"


_KINDS = {"models": "model", "terrain": "terrain piece", "weapons": "weapon"}


def _naming_pieces(s: Scenario, problems: list[Problem]) -> list[Problem]:
    """Each problem of a piece with the piece's id added (a board built in Python has no line
    to point at): ``models[2].base: expected a number above 0 (got -5) (model 'brute')``."""
    out = []
    for p in problems:
        kind, index = (p.path[0], p.path[1]) if len(p.path) >= 3 else (None, None)
        if not (isinstance(kind, str) and kind in _KINDS and isinstance(index, int)):
            out.append(p)
            continue
        ident = getattr(getattr(s, kind)[index], "id", None)
        if isinstance(ident, str) and p.path[2] != "id":
            p = Problem(p.path, f"{p.message} ({_KINDS[kind]} {ident!r})", p.line)
        out.append(p)
    return out
