"""Labels of the panels' controls, in English and German."""

from __future__ import annotations

from collections.abc import Mapping

from fwwrules.catalogue import check_lang

UI_WORDS: Mapping[str, Mapping[str, str]] = {
    "attacker": {"en": "Attacker", "de": "Angreifer"},
    "target": {"en": "Target", "de": "Ziel"},
    "weapon": {"en": "Weapon", "de": "Waffe"},
    "attack": {"en": "Attack", "de": "Angriff"},
    "band": {"en": "Range", "de": "Reichweite"},
    "rules": {"en": "Rules", "de": "Regeln"},
    "lang": {"en": "Language", "de": "Sprache"},
    "model": {"en": "Move", "de": "Bewegen"},
    "x": {"en": "x", "de": "x"},
    "y": {"en": "y", "de": "y"},
    "auto": {"en": "auto", "de": "automatisch"},
    "short": {"en": "short", "de": "kurz"},
    "long": {"en": "long", "de": "lang"},
    "none": {"en": "(none)", "de": "(keins)"},
    "prev": {"en": "◀ Previous", "de": "◀ Zurück"},
    "next": {"en": "Next ▶", "de": "Weiter ▶"},
    "withdraw": {"en": "Withdraws", "de": "Zieht sich zurück"},
    "slide": {"en": "Slides", "de": "Slide"},
    "shooter": {"en": "Shooter", "de": "Schütze"},
    "engagements": {"en": "Engagements", "de": "Nahkampfbindungen"},
    "outnumbered": {"en": "outnumbered", "de": "in Unterzahl"},
    "not-engaged": {"en": "No model is engaged.", "de": "Kein Modell ist im Nahkampf gebunden."},
    "error": {"en": "Cannot answer", "de": "Keine Antwort möglich"},
    "drag-hint": {
        "en": "Drag a base on the board with the mouse (it stops at contact), or set x and y.",
        "de": "Eine Base auf dem Spielfeld mit der Maus ziehen (sie hält bei Kontakt an) "
        "oder x und y setzen.",
    },
    "no-drag-hint": {
        "en": "Set x and y to move a model (install ipympl to drag bases with the mouse).",
        "de": "x und y setzen, um ein Modell zu bewegen (mit ipympl lassen sich Bases mit der "
        "Maus ziehen).",
    },
    "slide-to": {"en": "to x", "de": "nach x"},
}


def ui(key: str, lang: str) -> str:
    """A control label in ``lang`` (``en`` or ``de``; another language is an error, as in the
    catalogue)."""
    return UI_WORDS[key][check_lang(lang)]
