"""The texts of one language, read from its gettext catalogue: ``locale/<lang>.po`` beside the
code, one file per language, English the source language.

Every message's context (``msgctxt``) is the text's id in the catalogue (a message id such as
``<clause>/<key>``, or ``rule:<clause>``, ``note:<key>``, ``word:<token>``,
``ui:<surface>/<key>``); its ``msgid`` is the English text, its ``msgstr`` the language's text
(in ``en.po`` the same as the ``msgid``). A message whose text depends on a count has a
``msgid_plural`` and one ``msgstr[N]`` per plural form of the language (the file's
``Plural-Forms`` header says how many and which to take); its count is the value ``count``.

The files are read with the standard library (:mod:`fwwrules.pofile`) the first time a text of
the language is needed, never at ``import fwwrules``.

Boundary cases: a ``fuzzy`` message (a translation not checked since its English text changed)
is not used: its English text is shown, as gettext does (the catalogue test fails on any). A
message without a context, or a file that cannot be read, is a :class:`~fwwrules.pofile.PoError`
naming the file and the line.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .pofile import PoError, PoFile, read_po

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""The folder of the shipped catalogues, ``<lang>.po`` each."""


@dataclass(frozen=True, slots=True)
class Text:
    """One message of one language: its text, or its plural forms (``forms[N]``), with the
    English ``source`` it translates and whether it is ``fuzzy``."""

    forms: tuple[str, ...]
    source: str
    plural_source: str | None = None
    fuzzy: bool = False

    @property
    def text(self) -> str:
        return self.forms[0]


@dataclass(frozen=True, slots=True)
class Translations:
    """The texts of one language by id, in file order, and the language's plural rule."""

    lang: str
    path: str
    texts: Mapping[str, Text]
    plural: Callable[[int], int]

    def get(self, text_id: str, count: int | None = None) -> str | None:
        """The text of ``text_id`` (for ``count`` when it has plural forms); ``None`` when the
        file has no such text or it is fuzzy."""
        found = self.texts.get(text_id)
        if found is None or found.fuzzy:
            return None
        if count is None or len(found.forms) == 1:
            return found.forms[0]
        index = self.plural(abs(int(count)))
        return found.forms[min(index, len(found.forms) - 1)]


def plural_rule(header: Mapping[str, str], where: str) -> Callable[[int], int]:
    """The plural rule of a catalogue's ``Plural-Forms`` header (``nplurals=2; plural=(n !=
    1);``), as gettext evaluates it; one form when the header has none.

    >>> rule = plural_rule({"Plural-Forms": "nplurals=2; plural=(n != 1);"}, "de.po")
    >>> rule(1), rule(0), rule(6)
    (0, 1, 1)
    """
    forms = header.get("Plural-Forms", "")
    expression = next(
        (p.split("=", 1)[1].strip() for p in forms.split(";") if p.strip().startswith("plural=")),
        None,
    )
    if expression is None:
        return lambda n: 0
    import gettext  # (its plural expressions only, when a catalogue is read)

    try:
        rule: Callable[[int], int] = gettext.c2py(expression)
    except (ValueError, SyntaxError) as exc:
        raise PoError(f"{where}: Plural-Forms: {exc}") from None
    return rule


def from_po(po: PoFile, lang: str) -> Translations:
    """The texts of a read catalogue (see the module's boundary cases)."""
    texts: dict[str, Text] = {}
    for message in po.messages.values():
        if message.context is None:
            raise PoError(f"{po.path}:{message.line}: a message without msgctxt (the text id)")
        forms = message.strings
        if message.plural is not None and not any(forms):
            forms = ()
        texts[message.context] = Text(
            forms or (message.msgid,), message.msgid, message.plural, message.fuzzy
        )
    return Translations(lang, po.path, texts, plural_rule(po.header, po.path))


@functools.cache
def translations(lang: str) -> Translations:
    """The shipped texts of ``lang`` (``locale/<lang>.po``), read once per process."""
    return from_po(read_po(LOCALE_DIR / f"{lang}.po"), lang)


def languages() -> tuple[str, ...]:
    """The languages that have a shipped catalogue, English first."""
    found = sorted(p.stem for p in LOCALE_DIR.glob("*.po"))
    return tuple(sorted(found, key=lambda code: code != "en"))


__all__ = [
    "LOCALE_DIR",
    "Text",
    "Translations",
    "from_po",
    "languages",
    "plural_rule",
    "translations",
]
