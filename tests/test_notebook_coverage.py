"""Coverage of the clause ids: every clause is shown, worded, cited and tested.

A clause id (``ranged.los``, ``melee.slide``, ``grid.partial``) names one rule of the project's
rules reference. The list of ids is ``docs/clauses.txt`` (one id a line, in the order of
``docs/rules.md``); it is the source: add a line there when a rule gains a clause.

For every clause id, four things must exist:

* a notebook cell (markdown or code) under ``notebooks/`` that names it;
* catalogue text (``fwwrules.catalogue.MESSAGES``, key ``clause`` or ``clause/variant``) in
  English and German;
* code under ``fwwrules/`` (other than the catalogue) that cites it in a docstring or comment;
* a test function ``tests/test_*.py::test_*`` whose name holds the id with dots and dashes
  written as underscores (``cover.shooter-contact`` -> ``test_cover_shooter_contact_...``).

Each (clause, requirement) pair is its own test case, so a failure names what is missing.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CLAUSES_FILE = REPO / "docs" / "clauses.txt"
_CLAUSE_ID = re.compile(r"^[a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+$")


def parse_clause_ids(text: str) -> list[str]:
    """The clause ids of a ``docs/clauses.txt`` text, in order (``#`` lines are comments).

    >>> parse_clause_ids("# ids\\nranged.los\\n\\n  cover.line  \\n")
    ['ranged.los', 'cover.line']
    """
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


def clause_ids() -> list[str]:
    return parse_clause_ids(CLAUSES_FILE.read_text(encoding="utf-8"))


CLAUSES = clause_ids()


def mentions(text: str, clause: str) -> bool:
    """Whether ``text`` names ``clause`` as a whole id (``ranged.los`` is not in
    ``ranged.los.models``, nor in ``my_ranged.los``).

    >>> mentions("see `ranged.los.models`", "ranged.los")
    False
    >>> mentions("clauses ranged.los, cover.line.", "ranged.los")
    True
    >>> mentions("messages['ranged.los/clear']", "ranged.los")
    True
    """
    pattern = rf"(?<![\w.-]){re.escape(clause)}(?![\w-]|\.\w)"
    return re.search(pattern, text) is not None


@cache
def notebook_cells() -> tuple[str, ...]:
    cells: list[str] = []
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        for cell in nb.get("cells", []):
            src = cell.get("source", "")
            cells.append(src if isinstance(src, str) else "".join(src))
    return tuple(cells)


@cache
def code_texts() -> tuple[str, ...]:
    root = REPO / "fwwrules"
    return tuple(
        p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.py"))
        if p.name != "catalogue.py"
    )


@cache
def named_test_functions() -> tuple[str, ...]:
    names: list[str] = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        if path.resolve() == Path(__file__).resolve():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith(
                "test_"
            ):
                names.append(node.name)
    return tuple(names)


def test_clause_list_is_not_empty_and_has_the_known_families() -> None:
    families = {c.split(".")[0] for c in CLAUSES}
    assert {"size", "ranged", "cover", "elevation", "melee", "grid"} <= families
    assert len(CLAUSES) >= 40


def test_clause_list_is_well_formed() -> None:
    """Each id is dotted lowercase (``family.rule``) and listed once."""
    bad = [c for c in CLAUSES if not _CLAUSE_ID.match(c)]
    assert not bad, f"docs/clauses.txt: malformed clause ids {bad}"
    repeated = sorted({c for c in CLAUSES if CLAUSES.count(c) > 1})
    assert not repeated, f"docs/clauses.txt: ids listed twice {repeated}"


@pytest.mark.parametrize("clause", CLAUSES)
def test_clause_has_a_notebook_cell(clause: str) -> None:
    assert any(mentions(cell, clause) for cell in notebook_cells()), (
        f"no notebook cell names {clause}"
    )


@pytest.mark.parametrize("clause", CLAUSES)
def test_clause_has_catalogue_text_in_both_languages(clause: str) -> None:
    from fwwrules.catalogue import LANGS, MESSAGES

    entries = {k: v for k, v in MESSAGES.items() if k.split("/")[0] == clause}
    assert entries, f"no catalogue message for {clause}"
    for key, entry in entries.items():
        for lang in LANGS:
            assert entry.get(lang, "").strip(), f"{key} has no {lang} text"


@pytest.mark.parametrize("clause", CLAUSES)
def test_clause_is_cited_in_code(clause: str) -> None:
    assert any(mentions(text, clause) for text in code_texts()), (
        f"no module under fwwrules/ (besides the catalogue) cites {clause}"
    )


@pytest.mark.parametrize("clause", CLAUSES)
def test_clause_has_a_named_test(clause: str) -> None:
    token = re.sub(r"[.-]", "_", clause)
    assert any(token in name for name in named_test_functions()), (
        f"no test function named after {clause} (expected a name containing {token})"
    )


@pytest.mark.parametrize("clause", CLAUSES)
def test_clause_has_a_rule_statement_in_both_languages(clause: str) -> None:
    """The rules reference (docs/rules.md) states each rule in the project's own words."""
    from fwwrules.catalogue import CLAUSE_RULES, LANGS

    entry = CLAUSE_RULES.get(clause)
    assert entry is not None, f"no rule statement for {clause} in catalogue.CLAUSE_RULES"
    for lang in LANGS:
        assert entry.get(lang, "").strip(), f"{clause} has no {lang} rule statement"
