"""Every text of the catalogue, in every language: present, not empty, with the same
``{placeholders}`` (and format specs) as the English text, so no language drops a model's name
or writes a number another way. The texts are read through their ids (``catalogue.TEXT_KINDS``,
the ids the review page and the gettext files use)."""

from __future__ import annotations

import string
from typing import Any

import pytest
from fresh_interpreter import printed

from fwwrules.catalogue import LANGS, TEXT_KINDS, text_entry

IDS = [prefix + key for prefix, table in TEXT_KINDS for key in table]


def fields(text: str) -> set[tuple[str, str]]:
    """The replacement fields of a template with their format specs (a language may name one
    twice: German repeats a name where English has a pronoun)."""
    return {(f, spec or "") for _, f, spec, _ in string.Formatter().parse(text) if f is not None}


def test_every_text_has_one_id() -> None:
    assert len(IDS) == len(set(IDS))
    for text_id in IDS:
        assert text_entry(text_id) is not None
    with pytest.raises(KeyError):
        text_entry("word:no-such-word")


@pytest.mark.parametrize("text_id", IDS)
def test_every_text_has_every_language_with_the_same_placeholders(text_id: str) -> None:
    entry = text_entry(text_id)
    assert set(entry) == set(LANGS), text_id
    for lang in LANGS:
        assert isinstance(entry[lang], str) and entry[lang].strip(), (text_id, lang)
        assert fields(entry[lang]) == fields(entry["en"]), (text_id, lang)


# --- the gettext files: fwwrules/locale/<lang>.po ------------------------------------------


def _files() -> dict[str, Any]:
    from fwwrules.pofile import read_po
    from fwwrules.translations import LOCALE_DIR

    return {lang: read_po(LOCALE_DIR / f"{lang}.po") for lang in LANGS}


def test_every_language_has_a_gettext_file_and_no_other_file_is_there() -> None:
    from fwwrules.translations import LOCALE_DIR, languages

    assert languages() == LANGS
    assert sorted(p.name for p in LOCALE_DIR.iterdir()) == sorted(f"{lang}.po" for lang in LANGS)


def test_every_file_holds_every_text_by_its_id_with_the_english_source() -> None:
    """Each file has exactly the catalogue's text ids as contexts, each with the English text
    as its msgid (the files are in step with ``en.po``, whose translations are its msgids)."""
    files = _files()
    english = {m.context: m.msgid for m in files["en"].messages.values()}
    assert set(english) == set(IDS)
    for lang, po in files.items():
        assert po.header["Language"] == lang
        got = {m.context: m.msgid for m in po.messages.values()}
        assert got == english, lang
    for m in files["en"].messages.values():
        assert m.strings == (m.msgid,) or m.plural is not None, m.context


def test_nothing_is_fuzzy_and_every_template_is_flagged_as_one() -> None:
    for lang, po in _files().items():
        for m in po.messages.values():
            assert not m.fuzzy, (lang, m.context)
            assert all(s for s in m.strings), (lang, m.context)
            templated = bool(fields(m.msgid))
            assert ("python-brace-format" in m.flags) == templated, (lang, m.context)


def test_each_file_states_its_languages_plural_rule() -> None:
    from babel import Locale

    for lang, po in _files().items():
        forms = len(Locale.parse(lang).plural_form.tags) + 1  # CLDR's tags, and "other"
        rule = po.header["Plural-Forms"]
        assert rule.startswith(f"nplurals={forms};"), (lang, rule)


def test_import_fwwrules_loads_no_gettext_reader_until_a_text_is_shown() -> None:
    """The .po files and their reader (translations, pofile, writing) cost nothing at
    ``import fwwrules``: they load with the first text a ruling shows, and only then."""
    reader = ("fwwrules.translations", "fwwrules.pofile", "fwwrules.writing")
    code = (
        "import sys, fwwrules\n"
        f"reader = {reader!r}\n"
        "print(sum(m in sys.modules for m in reader))\n"
        "s = fwwrules.Scenario(models=(fwwrules.Model('a', 'x', 32, (0, 0)),))\n"
        "r = fwwrules.ruling(s, 'a', (100.0, 0.0))\n"
        "print(bool(r.explain('de')), sum(m in sys.modules for m in reader))\n"
    )
    assert printed(code) == ["0", "True", "3"]


@pytest.mark.parametrize(("lang", "pairs", "bound"), [
    ("en", "16,528,375", "100,000"), ("de", "16.528.375", "100.000"),
])  # fmt: skip
def test_a_count_of_millions_is_grouped_in_each_language(lang: str, pairs: str, bound: str) -> None:
    # the margins' "not measured" sentence read "16528375 pairs ... its bound of 100000"
    from fwwrules.catalogue import render

    text = render("margin/not-measured", {"pairs": 16528375, "bound": 100000}, lang)
    assert pairs in text and bound in text, text
