"""Every label a reader sees besides the rulings is in one table, the catalogue's UI text
(``fwwrules.catalogue.UI_TEXT``), in English and German; the panels, pictures, threat map,
review page and conformance table (docs/conformance.md) only read their part of it."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from fwwrules_widgets import text as widget_text

from fwwrules.catalogue import LANGS, UI_TEXT, ui_section, ui_text
from fwwrules.draw import review, text, threat

ROOT = Path(__file__).resolve().parents[1]
SURFACES = {"panel", "draw", "threat", "review", "conformance"}


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("key", sorted(UI_TEXT))
def test_ui_text_every_key_has_both_languages_with_the_same_fields(key: str) -> None:
    entry = UI_TEXT[key]
    assert key.split("/", 1)[0] in SURFACES, key
    assert set(entry) == set(LANGS), key
    assert all(isinstance(entry[lang], str) and entry[lang].strip() for lang in LANGS), key
    assert fields(entry["en"]) == fields(entry["de"]), key


def test_ui_text_surfaces_read_their_part_of_the_one_table() -> None:
    assert ui_section("panel") == widget_text.UI_WORDS
    assert ui_section("draw") == text.DRAW_WORDS
    assert ui_section("threat") == threat.THREAT_WORDS
    assert ui_section("review") == review.UI
    assert sum(len(ui_section(s)) for s in SURFACES) == len(UI_TEXT)
    assert widget_text.ui("attacker", "de") == ui_text("panel/attacker", "de") == "Angreifer"
    assert threat.threat_word("none", "de") == UI_TEXT["threat/none"]["de"]
    with pytest.raises(ValueError):
        ui_text("panel/attacker", "fr")


def _language_tables(path: Path) -> list[int]:
    """Lines of dict literals keyed by the languages (``{"en": ..., "de": ...}``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if set(LANGS) <= keys:
                found.append(node.lineno)
    return found


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "widgets").glob("*.py")) + sorted((ROOT / "fwwrules" / "draw").glob("*.py")),
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_ui_text_no_panel_or_picture_module_keeps_a_text_table_of_its_own(path: Path) -> None:
    assert _language_tables(path) == [], f"{path.name}: move the labels into UI_TEXT"
