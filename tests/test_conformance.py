"""docs/conformance.md, the conformance table: current, complete, and agreeing with the book.

The page is written by ``make docs`` (tools/make_conformance.py) from
:data:`fwwrules.conformance.ROWS`, the notebooks' ``assert`` cells, the examples and the
catalogue. These tests fail when the page is stale, when a shipped example has no row, when a
row's notebook cell says something the table does not show, when the engine's answer and the
book's stated outcome differ, or when a picture the page shows is missing.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from dataclasses import replace
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

import fwwrules
from fwwrules.conformance import BOOK, ROWS, Question, Row, Source, anchor, example_anchor

REPO = Path(__file__).resolve().parents[1]


def _tool(name: str) -> ModuleType:
    sys.path.insert(0, str(REPO / "tools"))
    spec = importlib.util.spec_from_file_location(name, REPO / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


make_conformance = _tool("make_conformance")
claims = _tool("conformance_claims")


@cache
def generated() -> str:
    return str(make_conformance.generate())


def test_conformance_page_is_up_to_date() -> None:
    current = (REPO / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert current == generated(), (
        "docs/conformance.md is out of date (a row, notebook assert, example, answer or text "
        "changed): run `make docs` and commit docs/conformance.md and docs/conformance/"
    )


def test_every_shipped_example_has_a_book_entry_and_a_row() -> None:
    shipped = set(fwwrules.examples())
    assert set(BOOK) == shipped
    with_rows = {r.question.example for r in ROWS}
    assert shipped - with_rows == set(), "shipped examples without a row in the table"
    page = generated()
    for example in shipped:
        assert f'<a id="{example_anchor(example)}"></a>' in page, example


def test_every_row_agrees_with_the_book() -> None:
    differ = [
        (row.question.key, f.claim.expr, f.claim.value, f.engine)
        for row in ROWS
        for f in make_conformance.facts(row)
        if not f.agrees
    ]
    assert differ == []
    assert "✗" not in generated()


def test_every_claim_a_rows_cell_makes_about_it_is_shown() -> None:
    """Each row shows at least one claim, and every claim its cells make about its answer has
    a measure (so the table drops nothing a notebook says about the example)."""
    for row in ROWS:
        found = list(make_conformance.row_claims(row))
        assert found, f"{row.question.key}: its cells say nothing about {row.sources}"
        unread = [(cell, c.expr) for cell, c, m in found if m is None]
        assert unread == [], f"{row.question.key}: claims without a measure"


def test_rows_ask_what_their_notebook_asks() -> None:
    """The notebook loads the row's example before the cell, and the cell that binds the
    answer names the row's ids (a row cannot silently point at another question)."""
    for row in ROWS:
        q = row.question
        short = q.example.removeprefix("grid/")
        for src in row.sources:
            cells = claims.notebook_cells(src.notebook)
            cell = next(c for c in cells if c.id == src.cell)
            before = "\n".join(c.source for c in cells if c.index <= cell.index)
            assert f'"{q.example}"' in before or f'example("{short}")' in before, q.key
            binding = _binding_source(cells, cell.index, src.var)
            for ident in (q.first, q.second):
                if isinstance(ident, str):
                    assert f'"{ident}"' in binding, (q.key, src)
            if isinstance(q.second, tuple):
                assert f"{q.second[0]:g}, {q.second[1]:g}" in binding, (q.key, src)
            if q.rules:
                assert q.rules in binding, (q.key, src)


def _binding_source(cells: list[claims.Cell], upto: int, var: str) -> str:
    """The source of the last cell (up to ``upto``) that binds the name ``var`` starts with;
    for an answer asked inside the assert (``fwwrules.ruling(...)``), the expression."""
    node = ast.parse(var, mode="eval").body
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    if not isinstance(node, ast.Name) or node.id == "fwwrules":
        return var
    bound = re.compile(rf"^\s*(?:{node.id}\s*=|[\w\s,]*\b{node.id}\b[\w\s,]*=)", re.M)
    found = [c.source for c in cells if c.index <= upto and bound.search(c.source)]
    assert found, f"nothing binds {node.id}"
    return found[-1]


def test_pages_come_from_the_titles_never_invented() -> None:
    """A Rules of Play example names its page in its title (``RoP p.17``); nothing else has a
    page; a figure is named only where BOOK names it, and the page says when it is unknown."""
    for example, ref in BOOK.items():
        page = make_conformance.page_of(example)
        if ref.source == "RoP":
            assert page is not None, example
        else:
            assert page is None, example
        where = make_conformance.where(example, "en")
        if ref.source is not None and ref.figure is None:
            assert "does not know" in where
        if ref.source is None:
            assert where.startswith("not in the book")


def test_anchors_are_unique_and_on_the_page() -> None:
    page = generated()
    anchors = [anchor(r.question) for r in ROWS]
    assert len(set(anchors)) == len(anchors)
    for a in anchors:
        assert f'<a id="{a}"></a>' in page
    for target in re.findall(r"\]\(#([^)]+)\)", page):
        assert f'<a id="{target}"></a>' in page, target


def test_every_picture_the_page_shows_exists() -> None:
    page = generated()
    shown = re.findall(r"!\[[^\]]*\]\((conformance/[^)]+)\)", page)
    assert len(shown) == 2 * len(ROWS)
    for rel in shown:
        assert (REPO / "docs" / rel).is_file(), f"{rel}: run `make docs`"
    manifest = json.loads((REPO / "docs" / "conformance" / "pictures.json").read_text())
    assert sorted(manifest) == sorted(p.removeprefix("conformance/") for p in shown)


def test_every_relative_link_resolves() -> None:
    for target in re.findall(r"\]\((?!#|https?:)([^)#]+)", generated()):
        assert (REPO / "docs" / target).exists(), target


def test_every_property_test_is_listed_with_its_cases() -> None:
    page = generated()
    tests = make_conformance.property_tests()
    assert len(tests) >= 30
    for t in tests:
        assert f"[`{t.name}`](../{t.file})" in page
        assert t.cases > 0
    ranged = {t.name: t.cases for t in tests if t.file.endswith("test_ranged_properties.py")}
    assert ranged["test_ranged_los_symmetric_for_equal_bases"] == 40  # SETTINGS of that file
    # a count an environment variable may raise: the page gives the default run's
    margins = {t.name: t.cases for t in tests if t.file.endswith("test_margins_properties.py")}
    assert margins["test_moving_less_than_the_margin_changes_nothing"] == 30


def test_a_disagreeing_engine_is_shown_as_differing() -> None:
    """The verdict comes from the comparison: a claim the engine does not meet differs."""
    row = next(r for r in ROWS if r.question.key == "cover-example-1:knight>brute")
    fact = next(f for f in make_conformance.facts(row) if f.measure.label == "skill-modifier")
    assert fact.agrees
    assert not replace(fact, engine=-4).agrees
    contains = next(
        f
        for r in ROWS
        if r.question.key == "elevation-rooftop:lookout>knight"
        for f in make_conformance.facts(r)
        if f.claim.op == "contains"
    )
    assert contains.agrees and not replace(contains, engine=()).agrees


def test_claims_of_the_forms_the_notebooks_write() -> None:
    def of(src: str, literals: dict[str, object] | None = None) -> list[tuple[str, str, object]]:
        tree = ast.parse(src)
        test = next(s for s in tree.body if isinstance(s, ast.Assert)).test
        return [(c.expr, c.op, c.value) for c in claims._walk(test, literals or {})]

    assert of("assert r.allowed and not r.line_of_sight and r.x is None") == [
        ("r.allowed", "==", True),
        ("r.line_of_sight", "==", False),
        ("r.x", "==", None),
    ]
    assert of("assert not (a.legal or b.legal)") == [
        ("a.legal", "==", False),
        ("b.legal", "==", False),
    ]
    assert of("assert (r.ac, r.reflex) == (4, 2)") == [("r.ac", "==", 4), ("r.reflex", "==", 2)]
    assert of('assert [d[m].x for m in ("a", "b")] == [1, 2]') == [
        ("d['a'].x", "==", 1),
        ("d['b'].x", "==", 2),
    ]
    assert of('assert all(("f", "c") in r[m].i for m in ("a",))') == [
        ("r['a'].i", "contains", ("f", "c"))
    ]
    assert of('assert n[0] == n[3] == "raider"') == [
        ("n[0]", "==", "raider"),
        ("n[3]", "==", "raider"),
    ]
    assert of("assert [r.x for r in d.values()] == [1]", {"d.keys()": ["k"]}) == [
        ("d['k'].x", "==", 1)
    ]
    assert of("assert a.x == b.x") == []  # two computed values: no claim


def test_a_question_key_matches_the_review_pages_ids() -> None:
    from fwwrules.draw import review

    for name, kind, first, second, attack in review.EXAMPLE_QUESTIONS:
        q = Question(name, kind, first, second, attack)  # type: ignore[arg-type]
        assert "example:" + q.key == review._question_id(name, kind, first, second, attack)


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r.question.key)
def test_row_sources_are_assert_cells(row: Row) -> None:
    for src in row.sources:
        assert isinstance(src, Source)
        cells = claims.notebook_cells(src.notebook)
        assert claims.cell_claims(cells, src.cell)


def test_the_review_page_links_each_example_to_its_row() -> None:
    """Every example item of the translation review page links into the table: to its row,
    or (a question no notebook asserts) to its example's section; each target is on the page."""
    from fwwrules.conformance import PAGE_URL
    from fwwrules.draw import review

    page = generated()
    to_rows = 0
    for name, kind, first, second, attack in review.EXAMPLE_QUESTIONS:
        link = review.conformance_link(name, kind, first, second, attack)
        assert link.startswith(PAGE_URL + "#")
        target = link.split("#", 1)[1]
        assert f'<a id="{target}"></a>' in page, link
        to_rows += not target.startswith("example-")
    assert to_rows >= len(review.EXAMPLE_QUESTIONS) - 5
