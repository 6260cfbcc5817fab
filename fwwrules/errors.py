"""Errors a user can act on: every one names the file and the place inside it.

The CLI turns each of them into a message on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .constants import MAX_REPORTED_PROBLEMS

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")


def format_path(path: Sequence[str | int]) -> str:
    """Render a location inside a document the way a reader writes it.

    Keys that are not plain words are quoted, so a key holding spaces, dots or terminal control
    characters can neither be misread nor reach the terminal raw.

    >>> format_path(("models", 2, "base"))
    'models[2].base'
    >>> format_path(("rulers", "dark red"))
    "rulers['dark red']"
    >>> format_path(())
    '(document)'
    """
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.fullmatch(part):
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]"
    return out or "(document)"


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written as an escape.

    File names come from the user's disk and may hold anything but ``/`` and NUL: a newline
    could forge a line of output (``x\\n/tmp/good.yaml: ok``), an ESC drive the terminal, a
    byte that is not UTF-8 (kept by Python as a surrogate) break a strict UTF-8 stdout. Such
    characters become Python-style escapes (``\\n``, ``\\x1b``, ``\\u202e``; an undecodable
    byte ``\\xff``); everything printable, accents and emoji included, is kept as it is.

    >>> printable("board.yaml"), printable("a\\nb"), printable("caf\\udce9.yaml")
    ('board.yaml', 'a\\\\nb', 'caf\\\\xe9.yaml')
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable():
            out.append(ch)
        elif "\udc80" <= ch <= "\udcff":  # a byte that was not UTF-8 (surrogateescape)
            out.append(f"\\x{ord(ch) - 0xDC00:02x}")
        else:
            out.append(repr(ch)[1:-1])
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a file: where (path inside the document, line if known) and what."""

    path: tuple[str | int, ...]
    message: str
    line: int | None = None

    def render(self, source: str) -> str:
        where = printable(source) if self.line is None else f"{printable(source)}:{self.line}"
        return f"{where}: {format_path(self.path)}: {self.message}"


class FwwError(Exception):
    """Base class of the errors the CLI reports with exit status 2."""


class ScenarioError(FwwError, ValueError):
    """A scenario file that cannot be used (a ``ValueError``). ``problems`` lists every
    finding."""

    def __init__(self, source: str, problems: Iterable[Problem]) -> None:
        self.source = source
        self.problems = tuple(problems)
        super().__init__(self.render())

    def render(self) -> str:
        """One line per problem, ``file:LINE: path: message``.

        At most :data:`~fwwrules.constants.MAX_REPORTED_PROBLEMS` lines are shown, then a line
        counting the rest (a generated file may have thousands of the same mistake).
        """
        shown = self.problems[:MAX_REPORTED_PROBLEMS]
        lines = [p.render(self.source) for p in shown]
        rest = len(self.problems) - len(shown)
        if rest:
            more = f"... and {rest} more problem{'s' if rest > 1 else ''}"
            lines.append(f"{printable(self.source)}: {more}")
        return "\n".join(lines) if lines else f"{printable(self.source)}: unusable scenario"


class UnknownIdError(FwwError, KeyError):
    """A query named an id that the scenario does not have."""

    def __init__(self, kind: str, ident: str, known: Iterable[str], source: str = "") -> None:
        self.kind = kind
        self.ident = ident
        self.known = tuple(sorted(known))
        self.source = source
        super().__init__(self.render())

    def render(self) -> str:
        where = f"{printable(self.source)}: " if self.source else ""
        known = ", ".join(self.known) if self.known else "none"
        return f"{where}unknown {self.kind} id {self.ident!r} (known: {known})"

    def __str__(self) -> str:  # KeyError would quote the message
        return self.render()


class QueryError(FwwError, ValueError):
    """A query that makes no sense for this scenario (a bad position, a wrong option)."""
