"""Coverage of the clause ids of RULES.md: every clause is shown, worded, cited and tested.

A clause id (``ranged.los``, ``melee.slide``, ``grid.partial``) is the backticked id at the
start of a bullet line of RULES.md. The digest lives beside the repository
(``../shared/RULES.md``, overridable with ``FWWRULES_RULES_MD``); a checkout without it falls
back to ``docs/clauses.txt``, the committed copy of the ids. When both exist they must agree.

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
import os
import re
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DEFAULT_RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
RULES_MD = Path(os.environ.get("FWWRULES_RULES_MD", str(DEFAULT_RULES_MD)))
CLAUSES_COPY = REPO / "docs" / "clauses.txt"

# A bullet line that starts with a backticked id holding at least one dot.
# ("- `core`: ..." names a ruleset, not a clause: no dot, not matched.)
_CLAUSE_LINE = re.compile(r"^- `([a-z][a-z0-9-]*(?:\.[a-z0-9-]+)+)`", re.MULTILINE)


def parse_clause_ids(text: str) -> list[str]:
    """The clause ids of a RULES.md text, in order, without repeats.

    >>> parse_clause_ids("- `core`: the Rules\\n- `ranged.los`: LoS\\n  - `x.y` nested\\n")
    ['ranged.los']
    """
    seen: dict[str, None] = {}
    for m in _CLAUSE_LINE.finditer(text):
        seen.setdefault(m.group(1), None)
    return list(seen)


def read_copy() -> list[str]:
    lines = CLAUSES_COPY.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def clause_ids() -> list[str]:
    if RULES_MD.is_file():
        return parse_clause_ids(RULES_MD.read_text(encoding="utf-8"))
    return read_copy()


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


def test_clause_copy_matches_rules_md() -> None:
    """docs/clauses.txt is the committed copy; regenerate it when RULES.md gains a clause."""
    if not RULES_MD.is_file():
        pytest.skip(f"{RULES_MD} not found; the copy docs/clauses.txt is used instead")
    assert read_copy() == parse_clause_ids(RULES_MD.read_text(encoding="utf-8"))


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
