"""docs/rules.md, the generated rules reference, is current and complete.

It is written by ``make docs`` (tools/make_docs.py) from the clause list, the catalogue, the
code, the tests and the notebooks; any change to those can make it stale. The fix is always
``make docs`` and committing the result.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_docs", REPO / "tools" / "make_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_docs", module)
    spec.loader.exec_module(module)
    return module


make_docs = _tool()


@cache
def generated() -> str:
    return str(make_docs.generate())


def test_docs_rules_md_is_up_to_date() -> None:
    current = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    fresh = generated()
    assert current == fresh, (
        "docs/rules.md is out of date (a clause, catalogue text, test or notebook changed): "
        "run `make docs` and commit docs/rules.md"
    )


def test_docs_rules_md_names_every_clause_with_both_texts() -> None:
    from fwwrules.catalogue import CLAUSE_RULES

    text = generated()
    for clause in make_docs.clause_ids():
        assert f"### `{clause}`" in text, clause
        section = text.split(f"### `{clause}`", 1)[1].split("\n### ", 1)[0]
        rule = CLAUSE_RULES[clause]
        assert make_docs.cell(rule["en"]) in section and make_docs.cell(rule["de"]) in section
        assert "- Tests: `tests/" in section, f"{clause}: no test listed"
        assert "- Notebooks: [" in section, f"{clause}: no notebook listed"


def test_docs_rules_md_links_resolve_inside_the_repository() -> None:
    text = generated()
    anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
    anchors |= {"contents", "conventions", "scenario-options", "translation-notes"}
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if target.startswith("#"):
            assert target[1:] in anchors, target
        else:
            assert not target.startswith(("http:", "https:", "/")), target
            assert (REPO / "docs" / target.split("#")[0]).resolve().is_file(), target


def test_docs_rules_md_generation_is_deterministic() -> None:
    assert make_docs.generate() == generated()


def test_docs_clauses_txt_is_generated_from_the_clause_text_records() -> None:
    current = (REPO / "docs" / "clauses.txt").read_text(encoding="utf-8")
    assert current == make_docs.clauses_file(), "docs/clauses.txt is out of date: run `make docs`"
