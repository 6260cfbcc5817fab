"""Each vocabulary (a ``Literal`` of several words) is defined once, under a name, and imported
where it is used (issue 24): no two ``Literal[...]`` in ``fwwrules/`` or ``widgets/`` hold the
same words, and none of several words is written inline in an annotation. The tuples of words
are derived from the ``Literal`` (``typing.get_args``), and the command line offers the same
words."""

from __future__ import annotations

import ast
import typing
from collections.abc import Iterator
from pathlib import Path

import fwwrules.grid
from fwwrules import catalogue, pieces
from fwwrules.cli import GRID_ATTACKS, build_parser

REPO = Path(__file__).resolve().parent.parent
FOLDERS = (REPO / "fwwrules", REPO / "widgets")


def literals(source: str) -> Iterator[tuple[int, str | None, frozenset[object]]]:
    """(line, alias name or None when written inline, words) of every ``Literal[...]``."""
    tree = ast.parse(source)
    named: dict[int, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and isinstance(node.value, ast.Subscript):
                named[id(node.value)] = target.id
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript):
            continue
        if not (isinstance(node.value, ast.Name) and node.value.id == "Literal"):
            continue
        elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        words = frozenset(e.value for e in elts if isinstance(e, ast.Constant))
        yield node.lineno, named.get(id(node)), words


def _all() -> list[tuple[str, str | None, frozenset[object]]]:
    out = []
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            rel = str(path.relative_to(REPO))
            for line, name, words in literals(path.read_text(encoding="utf-8")):
                out.append((f"{rel}:{line}", name, words))
    return out


def test_every_vocabulary_is_defined_once() -> None:
    seen: dict[frozenset[object], str] = {}
    twice = []
    for where, _, words in _all():
        if words in seen:
            twice.append(f"{where} repeats {seen[words]}: {sorted(map(str, words))}")
        seen.setdefault(words, where)
    assert not twice, "\n".join(twice)


def test_no_vocabulary_of_several_words_is_written_inline() -> None:
    inline = [
        f"{where}: {sorted(map(str, w))}" for where, name, w in _all() if not name and len(w) > 1
    ]
    assert not inline, "give these a name (fwwrules.pieces) and import it:\n" + "\n".join(inline)


def test_the_check_sees_a_repeated_and_an_inline_literal() -> None:
    code = 'A = Literal["x", "y"]\ndef f(v: Literal["x", "y"]) -> None: ...\nB = Literal["z"]\n'
    found = sorted((line, name or "", sorted(map(str, w))) for line, name, w in literals(code))
    assert found == [(1, "A", ["x", "y"]), (2, "", ["x", "y"]), (3, "B", ["z"])]


def test_word_tuples_come_from_their_literals() -> None:
    assert pieces.RULESET_NAMES == typing.get_args(pieces.Rules) == ("core", "vts")
    assert typing.get_args(pieces.Band) == pieces.BANDS
    assert catalogue.LANGS == typing.get_args(pieces.Lang) == ("en", "de")
    assert typing.get_args(pieces.DiceColour) == pieces.DICE_COLOURS
    assert GRID_ATTACKS == fwwrules.grid.ATTACKS


def test_the_command_line_offers_the_same_words() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    choices = {
        (name, opt): tuple(action.choices)
        for name, sp in sub.choices.items()  # type: ignore[union-attr]
        for action in sp._actions
        for opt in action.option_strings
        if action.choices is not None
    }
    assert choices[("ruling", "--rules")] == pieces.RULESET_NAMES
    assert choices[("ruling", "--band")] == pieces.BANDS
    assert choices[("ruling", "--lang")] == catalogue.LANGS
    assert choices[("grid", "--attack")] == fwwrules.grid.ATTACKS
