"""The notebooks' worked examples read in one language: every ``Step`` an ``ExampleStepper``
shows gives its title and narrative in English and German (``{"en": ..., "de": ...}``), so a
reader who switches the stepper to Deutsch sees no English title or narrative beside the
German ruling.

The steps are read from the notebooks' code cells (``ast``, nothing is executed): each
``Step(title, scenario, query, narrative)`` written there, its title and narrative taken as
the stepper shows them in each language (``widgets.stepper._text``). A German text may use no
word that only English uses: a word of the English catalogue, names or step texts that no
German catalogue text or German name uses ("gets", "the", "Crate").
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from fwwrules_widgets.stepper import _text

import fwwrules
from fwwrules import catalogue

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
LANGS = ("en", "de")
# Notebooks whose steps are not translated yet: each must fail here (strict), so the entry
# goes when its steps are.
NOT_YET: dict[str, str] = {}
_BOARD = re.compile(r'fwwrules\.loads\(\s*"""(.*?)"""', re.S)


def _code_cells(path: Path) -> Iterator[tuple[int, str]]:
    for index, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
        if cell["cell_type"] == "code":
            yield index, "".join(cell["source"])


def _argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    return next((k.value for k in call.keywords if k.arg == name), None)


def steps(path: Path) -> list[tuple[str, str, ast.expr | None]]:
    """(where, "title" or "narrative", the argument as written) for every ``Step(...)``."""
    out = []
    for index, source in _code_cells(path):
        if "Step(" not in source:
            continue
        lines = [ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!"))]
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Step":
                where = f"{path.name} cell {index} line {node.lineno}"
                out.append((where, "title", _argument(node, 0, "title")))
                out.append((where, "narrative", _argument(node, 3, "narrative")))
    return out


def _with_steps() -> list[Any]:
    params = []
    for path in NOTEBOOKS:
        if not steps(path):
            continue
        reason = NOT_YET.get(path.stem)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\W\d_]{2,}", text))


def _names(node: Any) -> Iterator[Any]:
    """Every ``name:`` value in a scenario file's data, at any depth."""
    if isinstance(node, Mapping):
        for key, value in node.items():
            if key == "name":
                yield value
            yield from _names(value)
    elif isinstance(node, list):
        for item in node:
            yield from _names(item)


@cache
def _vocabulary(lang: str) -> frozenset[str]:
    """The words the catalogue writes in ``lang`` and the names every shipped board and every
    board a notebook writes give in it (a plain-string name is a proper name: any language)."""
    words: set[str] = set()
    for table in (catalogue.MESSAGES, catalogue.CLAUSE_RULES, catalogue.WORDS, catalogue.UI_TEXT):
        for entry in table.values():
            words |= _words(entry[lang])
    folders = (fwwrules.examples_dir(), REPO / "notebooks" / "scenarios")
    texts = [p.read_text(encoding="utf-8") for f in folders for p in sorted(f.rglob("*.yaml"))]
    texts += [m.group(1) for p in NOTEBOOKS for _, s in _code_cells(p) for m in _BOARD.finditer(s)]
    for text in texts:
        for name in _names(yaml.safe_load(text)):
            if isinstance(name, str):
                words |= _words(name)
            elif isinstance(name, Mapping) and isinstance(name.get(lang), str):
                words |= _words(name[lang])
    return frozenset(words)


def _shown(node: ast.expr | None, lang: str) -> str:
    return "" if node is None else _text(ast.literal_eval(node), lang)


def test_the_notebooks_have_steppers_to_check() -> None:
    """01-07 show 47 worked examples; the parser finds them (no vacuous pass)."""
    counts = {p.stem[:2]: len(steps(p)) // 2 for p in NOTEBOOKS}
    assert [counts[n] for n in ("01", "02", "03", "04", "05", "06", "07")] == [
        6,
        10,
        7,
        8,
        4,
        4,
        8,
    ]


@pytest.mark.parametrize("path", _with_steps())
def test_every_step_has_its_title_and_narrative_in_english_and_german(path: Path) -> None:
    bad = []
    for where, what, node in steps(path):
        if what == "narrative" and node is None:
            continue  # no narrative: nothing is shown in either language
        try:
            value = ast.literal_eval(node) if node is not None else None
        except ValueError:
            value = None
        texts = value if isinstance(value, Mapping) else {}
        if not all(isinstance(texts.get(lang), str) and texts[lang].strip() for lang in LANGS):
            bad.append(f"{where}: {what} {ast.unparse(node) if node else None}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("path", _with_steps())
def test_no_step_shows_english_words_in_german(path: Path) -> None:
    found = steps(path)
    english = _vocabulary("en") | {w for _, _, n in found for w in _words(_shown(n, "en"))}
    only_english = english - _vocabulary("de")
    bad = []
    for where, what, node in found:
        text = _shown(node, "de")
        if words := sorted(_words(text) & only_english):
            bad.append(f"{where}: {what} {text!r} has {words}")
    assert not bad, "\n".join(bad)
