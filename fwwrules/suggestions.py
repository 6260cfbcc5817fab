"""Suggested wordings from review exports as a gettext catalogue (``.po``) a maintainer merges.

The review page (``fwwrules review``) lets a reviewer edit any text of the catalogue in place;
its export (format ``fwwrules/review@1``) holds the suggestions under ``suggestions`` (by
language, then by text id), each with the English text and the translation the reviewer saw,
and other reviewers' suggestions under ``others``. :func:`suggestions_po` turns one or more
exports into one ``.po`` file for one language (``fwwrules review --suggestions FILE.json -o
de.po``): the text id as the message context (``msgctxt``), the current English text as the
``msgid``, the suggestion as the ``msgstr``, the reviewer in a comment.

Boundary cases (a suggestion is flagged ``fuzzy``, the gettext word for "check before use",
and the comment says why):

* the English text changed since the reviewer saw it (the old one is kept as ``#| msgid``), or
  the catalogue's translation changed since (someone else reworded it meanwhile);
* the suggestion's ``{placeholders}`` differ from the English text's (a missing ``{target}``
  would drop a model's name from every ruling that says it);
* two reviewers suggest different texts for one message: the first file's suggestion is the
  ``msgstr``, the others are comments.

A suggestion equal to the current translation is left out (nothing to merge). Text ids the
catalogue no longer has are left out and listed (:attr:`PoResult.unknown`). A file that is not
a review export is a :class:`~fwwrules.errors.QueryError` naming it.
"""

from __future__ import annotations

import datetime
import io
import json
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalogue import LANGS, check_lang, text_entry
from .constants import MAX_TEXT_FILE_BYTES
from .errors import QueryError, printable
from .writing import read_regular

REVIEW_FORMAT = "fwwrules/review@1"
"""The review page's export format (``fwwrules.draw.review`` writes it)."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """One reviewer's wording for one text in one language, with what they saw beside it."""

    reviewer: str
    lang: str
    msg: str
    text: str
    was: str
    english: str


@dataclass(frozen=True, slots=True)
class PoResult:
    """The ``.po`` text, how many messages it holds, and the text ids it left out (unknown to
    the catalogue)."""

    po: str
    count: int
    unknown: tuple[str, ...]


def placeholders(text: str) -> set[str]:
    """The ``str.format`` field names of a text (what a translation must keep).

    >>> sorted(placeholders("{attacker} may attack {target}: {why}."))
    ['attacker', 'target', 'why']
    >>> placeholders("no fields, {{braces}} doubled")
    set()
    """
    try:
        return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def read_export(path: str | Path) -> dict[str, Any]:
    """A review export read from ``path``; :class:`QueryError` naming the file when it cannot
    be read or is not one."""
    shown = printable(str(path))
    try:
        raw = read_regular(path, MAX_TEXT_FILE_BYTES)  # never blocks on a FIFO
        if len(raw) > MAX_TEXT_FILE_BYTES:
            raise QueryError(f"{shown}: larger than {MAX_TEXT_FILE_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise QueryError(f"{shown}: cannot read: {why}") from None
    except json.JSONDecodeError as exc:
        raise QueryError(f"{shown}:{exc.lineno}: not JSON: {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != REVIEW_FORMAT:
        raise QueryError(f"{path}: not a review export (expected format {REVIEW_FORMAT})")
    return data


def _one_reviewer(name: str, suggestions: Any) -> list[Suggestion]:
    out: list[Suggestion] = []
    if not isinstance(suggestions, dict):
        return out
    for lang, texts in suggestions.items():
        if not isinstance(texts, dict):
            continue
        for msg, s in texts.items():
            if isinstance(s, dict) and isinstance(s.get("text"), str):
                was, english = s.get("was"), s.get("english")
                out.append(
                    Suggestion(
                        name,
                        str(lang),
                        str(msg),
                        s["text"],
                        was if isinstance(was, str) else "",
                        english if isinstance(english, str) else "",
                    )
                )
    return out


def collect(exports: Sequence[Mapping[str, Any]]) -> list[Suggestion]:
    """Every suggestion of the exports, in order: each file's own reviewer first, then the
    other reviewers it holds (a name met twice is taken once, from the first file)."""
    out: list[Suggestion] = []
    seen: set[str] = set()
    for data in exports:
        name = data.get("reviewer")
        name = name.strip() if isinstance(name, str) and name.strip() else "?"
        others = data.get("others")
        groups = [(name, data.get("suggestions"))]
        if isinstance(others, dict):
            groups += [
                (str(k), v.get("suggestions")) for k, v in others.items() if isinstance(v, dict)
            ]
        for who, suggestions in groups:
            if who in seen and who != "?":
                continue
            seen.add(who)
            out += _one_reviewer(who, suggestions)
    return out


def _why_fuzzy(
    first: Suggestion, english: str, current: str, rivals: list[Suggestion]
) -> list[str]:
    why = []
    if first.english and first.english != english:
        why.append("the English text changed since the review")
    if first.was and first.was != current:
        why.append("the translation changed since the review")
    if placeholders(first.text) != placeholders(english):
        missing = sorted(placeholders(english) - placeholders(first.text))
        extra = sorted(placeholders(first.text) - placeholders(english))
        why.append(f"placeholders differ (missing: {missing or '-'}; unknown: {extra or '-'})")
    if any(r.text != first.text for r in rivals):
        why.append("reviewers disagree")
    return why


def suggestions_po(exports: Sequence[Mapping[str, Any]], lang: str, version: str = "") -> PoResult:
    """The suggestions for ``lang`` of ``exports`` as a ``.po`` file (see the module's
    boundary cases); ``version`` goes into the header's ``Project-Id-Version``.

    >>> export = {"format": "fwwrules/review@1", "reviewer": "Erika", "suggestions": {"de": {
    ...     "word:huge": {"text": "Riesenhaft", "english": "Huge"}}}}
    >>> result = suggestions_po([export], "de")
    >>> result.count, 'msgctxt "word:huge"' in result.po, 'msgstr "Riesenhaft"' in result.po
    (1, True, True)
    """
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    check_lang(lang)
    found = [s for s in collect(exports) if s.lang == lang]
    catalog = Catalog(
        locale=lang,
        project="fwwrules",
        version=version or None,
        fuzzy=False,
        header_comment=f"# Suggested wordings ({lang}) from fwwrules translation reviews:\n"
        "# fwwrules review --suggestions FILE.json. Each message's context is the text's id\n"
        "# in the catalogue; fuzzy ones say why in a comment.",
        language_team="fwwrules translation review",
        msgid_bugs_address="https://github.com/fwwrules/fwwrules/issues",
        last_translator=", ".join(dict.fromkeys(s.reviewer for s in found)) or None,
        revision_date=datetime.datetime.now(datetime.timezone.utc),
    )
    by_msg: dict[str, list[Suggestion]] = {}
    for s in found:
        by_msg.setdefault(s.msg, []).append(s)
    unknown: list[str] = []
    for msg, same in by_msg.items():
        try:
            entry = text_entry(msg)
        except KeyError:
            unknown.append(msg)
            continue
        first, rivals = same[0], same[1:]
        if first.text == entry[lang] and not rivals:
            continue
        why = _why_fuzzy(first, entry["en"], entry[lang], rivals)
        comments = [f"suggested by {first.reviewer}"]
        comments += [f"{r.reviewer} suggests: {r.text}" for r in rivals if r.text != first.text]
        comments += [f"fuzzy: {w}" for w in why]
        flags = ["fuzzy"] if why else []
        if placeholders(entry["en"]):
            flags.append("python-brace-format")
        previous = [first.english] if first.english and first.english != entry["en"] else []
        catalog.add(
            entry["en"],
            first.text,
            context=msg,
            user_comments=comments,
            flags=flags,
            previous_id=previous,
        )
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, include_previous=True, omit_header=False)
    return PoResult(buf.getvalue().decode("utf-8"), len(catalog), tuple(unknown))


__all__ = [
    "LANGS",
    "REVIEW_FORMAT",
    "PoResult",
    "Suggestion",
    "collect",
    "placeholders",
    "read_export",
    "suggestions_po",
]
