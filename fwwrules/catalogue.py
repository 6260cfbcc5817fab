"""The message catalogue: every text a ruling shows, in English and German, keyed by clause id.

Reasons are data (:class:`~fwwrules.rulings.Reason`: clause id, variant key, values); this is
the one place that turns them into sentences. A message id is the clause id, or
``"<clause>/<key>"`` for one of several messages of a clause. Templates use ``str.format``
fields named after the reason's values.

German uses the rulebook's terms: Sichtlinie (LoS), Deckungslinie (LoC), Deckung,
Fertigkeitswert, Effektwürfel, Rüstung, Nahkampf, gebunden, Slide, Überzahl.

Each rule family owns one section below; keep entries in the order of RULES.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS: tuple[str, ...] = ("en", "de")

Entry = Mapping[str, str]

# --- general: headlines and words the renderers share ---------------------------------------
_GENERAL: dict[str, Entry] = {
    "ruling/allowed": {
        "en": "{attacker} may attack {target} with {weapon} ({kind}).",
        "de": "{attacker} darf {target} mit {weapon} angreifen ({kind}).",
    },
    "ruling/not-allowed": {
        "en": "{attacker} may not attack {target} with {weapon}.",
        "de": "{attacker} darf {target} nicht mit {weapon} angreifen.",
    },
    "option/used": {
        "en": "Option {option} = {value} (translation note; the original reads otherwise).",
        "de": "Option {option} = {value} (Übersetzungshinweis; das Original liest es anders).",
    },
}

# --- size.* ---------------------------------------------------------------------------------
_SIZE: dict[str, Entry] = {
    "size.classes": {
        "en": "{model}: a {diameter:g} mm base is {size}.",
        "de": "{model}: eine Base von {diameter:g} mm ist {size}.",
    },
}

# --- ranged.*, terrain.*, cover.* (issue: ranged attacks) -----------------------------------
_RANGED: dict[str, Entry] = {}

# --- elevation.* ----------------------------------------------------------------------------
_ELEVATION: dict[str, Entry] = {}

# --- melee.*, action.quick ------------------------------------------------------------------
_MELEE: dict[str, Entry] = {}

# --- grid.* (Pathfinder 1e) -----------------------------------------------------------------
_GRID: dict[str, Entry] = {}

# Words that appear inside messages (values are translated through this table when a
# reason's value is one of these tokens, e.g. size classes, kinds, dice colours).
WORDS: dict[str, Entry] = {
    "normal": {"en": "Normal", "de": "Normal"},
    "large": {"en": "Large", "de": "Groß"},
    "huge": {"en": "Huge", "de": "Riesig"},
    "ranged": {"en": "ranged attack", "de": "Fernkampfangriff"},
    "melee": {"en": "close combat attack", "de": "Nahkampfangriff"},
    "short": {"en": "short range", "de": "kurze Reichweite"},
    "long": {"en": "long range", "de": "lange Reichweite"},
    "black": {"en": "black (Damage)", "de": "schwarz (Schaden)"},
    "green": {"en": "green (Accuracy)", "de": "grün (Genauigkeit)"},
    "yellow": {"en": "yellow (Armor Reduction)", "de": "gelb (Rüstungsreduktion)"},
    "blue": {"en": "blue (Special)", "de": "blau (Spezial)"},
    "blocking": {"en": "blocking terrain", "de": "sichtblockierendes Gelände"},
    "cover": {"en": "cover", "de": "Deckung"},
    "area": {"en": "area terrain", "de": "Gebietsgelände"},
    "dense-area": {"en": "dense area", "de": "dichtes Gebiet"},
    "scenery": {"en": "scenery", "de": "Kulisse"},
    "friendly": {"en": "friendly", "de": "verbündet"},
    "enemy": {"en": "enemy", "de": "feindlich"},
    "neutral": {"en": "neutral", "de": "neutral"},
}

MESSAGES: dict[str, Entry] = {}
for _section in (_GENERAL, _SIZE, _RANGED, _ELEVATION, _MELEE, _GRID):
    _dupes = MESSAGES.keys() & _section.keys()
    if _dupes:  # pragma: no cover - a programming error caught at import
        raise RuntimeError(f"message ids defined twice: {sorted(_dupes)}")
    MESSAGES.update(_section)


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    return lang


def word(token: str, lang: str) -> str:
    """A translated word, or the token itself when it is not in :data:`WORDS`."""
    entry = WORDS.get(token)
    return token if entry is None else entry[lang]


class _Values(dict[str, Any]):
    """Template values: strings found in :data:`WORDS` are translated on the fly."""

    def __init__(self, values: Mapping[str, Any], lang: str) -> None:
        super().__init__(values)
        self.lang = lang

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        if isinstance(value, str):
            return word(value, self.lang)
        if isinstance(value, (list, tuple)):
            return ", ".join(word(v, self.lang) if isinstance(v, str) else str(v) for v in value)
        return value


def render(message_id: str, values: Mapping[str, Any], lang: str = "en") -> str:
    """The text of one message.

    >>> render("size.classes", {"model": "Dogmeat", "diameter": 40, "size": "large"}, "de")
    'Dogmeat: eine Base von 40 mm ist Groß.'
    """
    check_lang(lang)
    entry = MESSAGES.get(message_id)
    if entry is None:
        raise KeyError(f"no message {message_id!r} in the catalogue")
    return entry[lang].format_map(_Values(values, lang))
