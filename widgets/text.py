"""Labels of the panels' controls, in English and German (kept in the catalogue's UI text,
:data:`fwwrules.catalogue.UI_TEXT`, with every other label a reader sees)."""

from __future__ import annotations

from collections.abc import Mapping

from fwwrules.catalogue import check_lang, ui_section

UI_WORDS: Mapping[str, Mapping[str, str]] = ui_section("panel")
"""The controls' labels: the ``panel/`` part of the catalogue's
:data:`~fwwrules.catalogue.UI_TEXT`."""


def snap_label(units: str, lang: str) -> str:
    """The snap box's label: the grid of ``units`` (¼″ in inch files, 1 mm in mm files)."""
    step = "¼″" if units == "in" else "1 mm"
    return ui("snap", lang).format(step=step)


def ui(key: str, lang: str) -> str:
    """A control label in ``lang`` (``en`` or ``de``; another language is an error, as in the
    catalogue)."""
    return UI_WORDS[key][check_lang(lang)]
