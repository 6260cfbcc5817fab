"""Every text of the catalogue, in every language: present, not empty, with the same
``{placeholders}`` (and format specs) as the English text, so no language drops a model's name
or writes a number another way. The texts are read through their ids (``catalogue.TEXT_KINDS``,
the ids the review page and the gettext files use)."""

from __future__ import annotations

import string

import pytest

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
