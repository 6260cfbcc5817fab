"""The standard-library ``.po`` reader (``fwwrules.pofile``) reads what Babel reads, and says
file and line for what it cannot read."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po as babel_read_po
from babel.messages.pofile import write_po
from hypothesis import given, settings
from hypothesis import strategies as st

from fwwrules.pofile import PoError, parse_po, read_po

SAMPLE = r"""# a translator's comment
msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#. extracted
#: somewhere.py:12
#, fuzzy, python-brace-format
msgctxt "ranged.range/in"
msgid "The target is {distance} away ({measure}): {band}."
msgstr ""
"Das Ziel ist {distance} entfernt "
"({measure}): {band}."

msgctxt "squares"
msgid "{n} square"
msgid_plural "{n} squares"
msgstr[0] "{n} Feld"
msgstr[1] "{n} Felder"

msgid "Tab\tnew line\n quote \" backslash \\ octal \101 hex \x42"
msgstr "ok"

#~ msgid "obsolete"
#~ msgstr "veraltet"
"""


def test_reads_context_plurals_flags_escapes_and_the_header() -> None:
    po = parse_po(SAMPLE.splitlines(), "de.po")
    assert po.header["Language"] == "de"
    assert po.header["Plural-Forms"] == "nplurals=2; plural=(n != 1);"
    m = po.messages[("ranged.range/in", "The target is {distance} away ({measure}): {band}.")]
    assert m.strings == ("Das Ziel ist {distance} entfernt ({measure}): {band}.",)
    assert m.fuzzy and "python-brace-format" in m.flags and m.line == 10
    plural = po.messages[("squares", "{n} square")]
    assert plural.plural == "{n} squares" and plural.strings == ("{n} Feld", "{n} Felder")
    assert not plural.flags
    odd = 'Tab\tnew line\n quote " backslash \\ octal A hex B'
    assert po.messages[(None, odd)].strings == ("ok",)
    assert len(po.messages) == 3  # the obsolete one is left out


def test_agrees_with_babel_on_the_sample() -> None:
    """(Babel leaves octal and hex escapes undecoded, GNU gettext decodes them: not compared.)"""
    po = parse_po(SAMPLE.splitlines())
    catalog = babel_read_po(io.StringIO(SAMPLE))
    for message in catalog:
        if not message.id or "octal" in str(message.id):
            continue
        key = message.id[0] if isinstance(message.id, tuple) else message.id
        mine = po.messages[(message.context, key)]
        theirs = message.string if isinstance(message.string, tuple) else (message.string,)
        assert mine.strings == tuple(theirs)
        assert mine.fuzzy == message.fuzzy


texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x0b\x0c"),
    max_size=120,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(texts, texts, texts), max_size=8, unique_by=lambda t: (t[0], t[1])))
def test_reads_back_whatever_babel_writes(entries: list[tuple[str, str, str]]) -> None:
    catalog = Catalog(locale="de")
    for context, msgid, msgstr in entries:
        if msgid:
            catalog.add(msgid, msgstr, context=context or None)
    buf = io.BytesIO()
    write_po(buf, catalog, width=40)
    po = parse_po(buf.getvalue().decode("utf-8").split("\n"))
    written = {(m.context, m.id): m.string for m in catalog if m.id}
    assert {k: v.strings[0] for k, v in po.messages.items()} == written


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        ('msgid "a"\nmsgstr "b"\nmsgid "a"\nmsgstr "c"\n', 3, "given twice"),
        ('msgid "a"\nmsgstr "b\n', 2, "quoted string"),
        ('msgid "a"\nmsgstr "b"c"\n', 2, "must be escaped"),
        ('msgid "a"\nmsgfoo "b"\n', 2, "cannot read"),
        ('"stray"\n', 1, "outside a message"),
        ('msgid "a"\n\nmsgstr "b"\n', 2, "without msgstr"),
        ('msgid "a"\nmsgid_plural "as"\nmsgstr[1] "b"\n', 3, "msgstr[0]"),
    ],
)
def test_what_cannot_be_read_names_the_file_and_the_line(text: str, line: int, says: str) -> None:
    with pytest.raises(PoError) as info:
        parse_po(text.splitlines(), "de.po")
    assert f"de.po:{line}" in str(info.value) and says in str(info.value)


def test_read_po_names_a_file_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(PoError, match="cannot read"):
        read_po(tmp_path / "missing.po")
    (tmp_path / "latin1.po").write_bytes(b'msgid "a"\nmsgstr "\xe4"\n')
    with pytest.raises(PoError, match=r"latin1\.po: cannot read"):
        read_po(tmp_path / "latin1.po")
