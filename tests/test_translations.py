"""Reading a language's texts from its gettext catalogue (``fwwrules.translations``): text ids
as contexts, plural forms by the file's rule, fuzzy texts not used."""

from __future__ import annotations

import pytest

from fwwrules.pofile import PoError, parse_po
from fwwrules.translations import from_po, plural_rule

DE = r"""
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgctxt "word:huge"
msgid "Huge"
msgstr "Riesig"

msgctxt "squares"
msgid "{count} square"
msgid_plural "{count} squares"
msgstr[0] "{count} Feld"
msgstr[1] "{count} Felder"

#, fuzzy
msgctxt "ranged.los/clear"
msgid "Line of sight."
msgstr "Sichtlinie (alt)."
"""


def test_texts_by_id_with_plural_forms_and_fuzzy_left_out() -> None:
    de = from_po(parse_po(DE.split("\n"), "de.po"), "de")
    assert de.get("word:huge") == "Riesig"
    assert [de.get("squares", n) for n in (0, 1, 2, 6)] == [
        "{count} Felder",
        "{count} Feld",
        "{count} Felder",
        "{count} Felder",
    ]
    assert de.get("squares") == "{count} Feld"
    assert de.get("ranged.los/clear") is None  # fuzzy: not used
    assert de.texts["ranged.los/clear"].source == "Line of sight."
    assert de.get("no-such-text") is None


def test_a_message_without_context_is_refused_with_its_line() -> None:
    text = 'msgid ""\nmsgstr ""\n\nmsgid "Huge"\nmsgstr "Riesig"\n'
    with pytest.raises(PoError, match=r"de\.po:4: a message without msgctxt"):
        from_po(parse_po(text.split("\n"), "de.po"), "de")


@pytest.mark.parametrize(
    ("forms", "counts", "expected"),
    [
        ("nplurals=1; plural=0;", (0, 1, 5), (0, 0, 0)),
        ("nplurals=2; plural=(n > 1);", (0, 1, 2), (0, 0, 1)),
        (
            "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
            "(n%100<10 || n%100>=20) ? 1 : 2);",
            (1, 3, 5, 11, 21),
            (0, 1, 2, 2, 0),
        ),
    ],
)
def test_plural_rules_of_other_languages(
    forms: str, counts: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    rule = plural_rule({"Plural-Forms": forms}, "x.po")
    assert tuple(rule(n) for n in counts) == expected


def test_a_broken_plural_rule_names_the_file() -> None:
    with pytest.raises(PoError, match=r"xx\.po: Plural-Forms"):
        plural_rule({"Plural-Forms": "nplurals=2; plural=(n !=;"}, "xx.po")
