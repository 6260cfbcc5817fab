"""What makes a scenario usable, decided once: for a file and for a board built in Python.

This module holds the rules of a valid id and a valid display text, which the file formats'
field types (:mod:`fwwrules.filespec`, pydantic) and the check of a board built in Python
share; it imports no pydantic.

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
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

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
        return "expected an id (text)"
    if len(value) > IDENT_MAX_LENGTH:
        return f"expected at most {IDENT_MAX_LENGTH} characters"
    if not value or value != nfc(value):
        return IDENT_EXPECTED
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
