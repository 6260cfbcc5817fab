"""The few words the drawing writes itself (legend entries, marks), in English and German.

Terrain kinds and range bands come from :data:`fwwrules.catalogue.WORDS`; everything else a
board shows is below. Rule texts never appear here: they come from the rulings.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..catalogue import WORDS as CATALOGUE_WORDS
from ..catalogue import check_lang

DRAW_WORDS: Mapping[str, Mapping[str, str]] = {
    "board": {"en": "Board", "de": "Spielfeld"},
    "x-axis": {"en": "x (mm)", "de": "x (mm)"},
    "y-axis": {"en": "y (mm)", "de": "y (mm)"},
    "side": {"en": "side", "de": "Seite"},
    "los": {"en": "line of sight (LoS)", "de": "Sichtlinie"},
    "no-los": {"en": "no LoS: blocked", "de": "keine Sichtlinie: blockiert"},
    "blocker": {"en": "blocks LoS", "de": "blockiert die Sichtlinie"},
    "loc": {"en": "Line of Cover (LoC)", "de": "Deckungslinie"},
    "crossed": {"en": "LoC passes through: cover", "de": "Deckungslinie durchquert: Deckung"},
    "grazed": {"en": "LoC only grazes: no cover", "de": "Deckungslinie streift nur: keine Deckung"},
    "ignored": {"en": "ignored", "de": "ignoriert"},
    "edge": {"en": "Significant Edge", "de": "Signifikante Kante"},
    "short-band": {"en": "short range", "de": "kurze Reichweite"},
    "long-band": {"en": "long range", "de": "lange Reichweite"},
    "engaged": {"en": "engaged", "de": "im Nahkampf gebunden"},
    "into-melee": {"en": "Armor die numbers", "de": "Zahlen des Rüstungswürfels"},
    "slide-legal": {"en": "Slide: legal", "de": "Slide: erlaubt"},
    "slide-illegal": {"en": "Slide: not legal", "de": "Slide: nicht erlaubt"},
    "breaks": {"en": "breaks", "de": "bricht"},
    "slide-breaks": {"en": "contact breaks", "de": "Kontakt reißt ab"},
    "free-attack": {"en": "free attack (withdrawal)", "de": "freier Angriff (Rückzug)"},
    "height": {"en": "height", "de": "Höhe"},
    "orange": {"en": "Orange", "de": "Orange"},
    "yellow": {"en": "Yellow", "de": "Gelb"},
    "red": {"en": "Red", "de": "Rot"},
    "green": {"en": "Green", "de": "Grün"},
    "blue": {"en": "Blue", "de": "Blau"},
    "black": {"en": "Black", "de": "Schwarz"},
    "x-axis-in": {"en": "x (in)", "de": "x (Zoll)"},
    "y-axis-in": {"en": "y (in)", "de": "y (Zoll)"},
    "cover-mark": {"en": "cover modifier", "de": "Deckungsmodifikator"},
    "key": {"en": "labels", "de": "Beschriftungen"},
    "elevation": {"en": "elevation", "de": "Erhöhung"},
}
"""Words of the drawing itself, by key; every key has ``en`` and ``de``."""


def draw_word(key: str, lang: str = "en") -> str:
    """A label of the drawing in ``lang``; falls back to the catalogue's ``WORDS``.

    >>> draw_word("loc", "de"), draw_word("dense-area", "de")
    ('Deckungslinie', 'dichtes Gebiet')
    >>> draw_word("no-such-word")
    'no-such-word'
    """
    check_lang(lang)
    entry = DRAW_WORDS.get(key) or CATALOGUE_WORDS.get(key)
    return key if entry is None else entry[lang]
