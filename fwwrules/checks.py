"""What makes a scenario usable, decided once: for a file and for a board built in Python.

This module holds the rules of a valid id and a valid display text, which the file formats'
field types (:mod:`fwwrules.filespec`, pydantic) and the check of a board built in Python
share; it imports no pydantic.

Boundary cases
--------------
* An id is 1 to :data:`IDENT_MAX_LENGTH` characters of ``a-z``, ``0-9`` and ``-``.
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

IDENT_PATTERN = r"^[a-z0-9-]+$"  # docs/scenario-format.md: [a-z0-9-]+
IDENT_MAX_LENGTH = 64
TEXT_MAX_LENGTH = 200

_CONTROLS = r"\x00-\x1f\x7f-\x9f"
_BIDI_AND_INVISIBLE = r"\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
TEXT_PATTERN = rf"^[^{_CONTROLS}{_BIDI_AND_INVISIBLE}]*$"
"""Display text: none of the characters this module's docstring lists (the file formats' JSON
Schema states this pattern)."""

_IDENT = re.compile(IDENT_PATTERN)
_CONTROL = re.compile(f"[{_CONTROLS}]")
_REFUSED = re.compile(f"[{_CONTROLS}{_BIDI_AND_INVISIBLE}]")

IDENT_EXPECTED = "expected an id: lowercase letters, digits and '-' (such as 'laser-rifle')"


def ident_problem(value: Any) -> str | None:
    """Why ``value`` is not an id (the words of a file's message), or ``None``.

    >>> ident_problem("laser-rifle") is None, ident_problem("BAD ID")
    (True, "expected an id: lowercase letters, digits and '-' (such as 'laser-rifle')")
    """
    if not isinstance(value, str):
        return "expected an id (text)"
    if len(value) > IDENT_MAX_LENGTH:
        return f"expected at most {IDENT_MAX_LENGTH} characters"
    if not _IDENT.match(value):
        return IDENT_EXPECTED
    return None


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
