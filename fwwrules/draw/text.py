"""The few words the drawing writes itself (legend entries, marks), in English and German.

Terrain kinds and range bands come from :data:`fwwrules.catalogue.WORDS`; everything else a
board shows is the ``draw/`` part of :data:`fwwrules.catalogue.UI_TEXT`. Rule texts never
appear here: they come from the rulings.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..catalogue import WORDS as CATALOGUE_WORDS
from ..catalogue import check_lang, ui_section

DRAW_WORDS: Mapping[str, Mapping[str, str]] = ui_section("draw")
"""Words of the drawing itself, by key: the ``draw/`` part of the catalogue's
:data:`~fwwrules.catalogue.UI_TEXT` (every key has ``en`` and ``de``)."""


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
