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
    # --- the board editor ---------------------------------------------------------------
    "tool": {"en": "Tool", "de": "Werkzeug"},
    "tool-select": {"en": "Select", "de": "Auswahl"},
    "tool-model": {"en": "Model", "de": "Modell"},
    "tool-rect": {"en": "Rectangle", "de": "Rechteck"},
    "tool-polygon": {"en": "Polygon", "de": "Polygon"},
    "tool-circle": {"en": "Circle", "de": "Kreis"},
    "snap": {"en": 'Snap to ¼" grid', "de": 'Am ¼"-Raster einrasten'},
    "undo": {"en": "Undo", "de": "Rückgängig"},
    "redo": {"en": "Redo", "de": "Wiederholen"},
    "delete": {"en": "Delete", "de": "Löschen"},
    "apply": {"en": "Apply to selected", "de": "Auf Auswahl anwenden"},
    "save": {"en": "Save", "de": "Speichern"},
    "file": {"en": "File", "de": "Datei"},
    "open-attack": {"en": "Open in attack panel", "de": "Im Angriffspanel öffnen"},
    "models-head": {"en": "Model (new or selected)", "de": "Modell (neu oder ausgewählt)"},
    "terrain-head": {"en": "Terrain (new or selected)", "de": "Gelände (neu oder ausgewählt)"},
    "faction": {"en": "Faction", "de": "Fraktion"},
    "name": {"en": "Name", "de": "Name"},
    "base": {"en": "Base", "de": "Base"},
    "diameter": {"en": "Diameter", "de": "Durchmesser"},
    "skills": {"en": "Skills", "de": "Fertigkeiten"},
    "weapons": {"en": "Weapons", "de": "Waffen"},
    "kind": {"en": "Kind", "de": "Art"},
    "height": {"en": "Height", "de": "Höhe"},
    "huge": {"en": "Huge kind", "de": "Art (Riesig)"},
    "elevated": {"en": "Elevated kind", "de": "Art (Erhöht)"},
    "base-normal": {"en": "Normal (32 mm)", "de": "Normal (32 mm)"},
    "base-large": {"en": "Large (40 mm)", "de": "Groß (40 mm)"},
    "base-huge": {"en": "Huge (60 mm)", "de": "Riesig (60 mm)"},
    "base-other": {"en": "other diameter", "de": "anderer Durchmesser"},
    "selected": {"en": "Selected", "de": "Ausgewählt"},
    "nothing-selected": {"en": "nothing", "de": "nichts"},
    "valid": {"en": "The board is valid.", "de": "Das Spielfeld ist gültig."},
    "invalid": {
        "en": "Not saved while these problems remain:",
        "de": "Nicht gespeichert, solange diese Probleme bestehen:",
    },
    "refused": {"en": "Not done:", "de": "Nicht ausgeführt:"},
    "saved": {"en": "Saved", "de": "Gespeichert"},
    "editor-hint": {
        "en": "Rectangle: drag a corner to the opposite one. Polygon: click the corners, then "
        "the first one again. Circle: press at the centre, drag to the edge. Select: drag a "
        "piece; drag the round handle to rotate.",
        "de": "Rechteck: von einer Ecke zur gegenüberliegenden ziehen. Polygon: die Ecken "
        "anklicken, dann wieder die erste. Kreis: in der Mitte drücken, zum Rand ziehen. "
        "Auswählen: ein Teil ziehen; am runden Griff ziehen, um es zu drehen.",
    },
    "threat-side": {"en": "Side standing", "de": "Seite, die steht"},
    "threat-layer": {"en": "Show", "de": "Anzeigen"},
    "threat-step": {"en": "Step", "de": "Raster"},
    "attackers": {"en": "shooters that can attack", "de": "Schützen, die angreifen können"},
    "uncovered": {"en": "... without cover", "de": "... ohne Deckung"},
    "best-modifier": {"en": "best modifier", "de": "bester Modifikator"},
    "threat-hint": {
        "en": "Drag a shooter: the map is recomputed when you let go. Click a free spot: the "
        "rulings for a model standing there.",
        "de": "Einen Schützen ziehen: die Karte wird beim Loslassen neu berechnet. Eine freie "
        "Stelle anklicken: die Entscheidungen für ein Modell, das dort steht.",
    },
    "threat-position": {"en": "A model standing at", "de": "Ein Modell bei"},
    "threat-unplaceable": {
        "en": "A model cannot stand here.",
        "de": "Hier kann kein Modell stehen.",
    },
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
