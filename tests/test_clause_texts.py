"""One :class:`~fwwrules.catalogue.ClauseText` record per clause holds every text of it: the
rule statement, its messages, the short phrases of a refused attack's headline and the label
of the skill modifier it gives. The flat tables (``MESSAGES``, ``CLAUSE_RULES``, ``WORDS``)
keep their ids and are built from the records; ``docs/clauses.txt`` is generated from them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from example_pairs import example_paths, model_pairs

import fwwrules
from fwwrules import catalogue
from fwwrules.catalogue import CLAUSE_TEXTS, CLAUSES, ClauseText, modifier_label

REPO = Path(__file__).resolve().parents[1]


def test_one_record_per_clause_in_the_order_of_the_clause_list() -> None:
    ids = [r.clause for r in CLAUSE_TEXTS]
    assert len(ids) == len(set(ids))
    listed = (REPO / "docs" / "clauses.txt").read_text(encoding="utf-8").splitlines()
    assert [ln for ln in listed if ln and not ln.startswith("#")] == ids


def test_the_flat_tables_are_built_from_the_records() -> None:
    for record in CLAUSE_TEXTS:
        assert catalogue.CLAUSE_RULES[record.clause] is record.rule
        for key, entry in record.message_ids().items():
            assert catalogue.MESSAGES[key] is entry and key.split("/")[0] == record.clause
        for key, entry in record.why_ids().items():
            assert catalogue.MESSAGES[key] is entry and key.startswith("why/" + record.clause)
        if record.modifier is not None:
            assert catalogue.WORDS["modifier/" + record.clause] is record.modifier
    owned = {k for r in CLAUSE_TEXTS for k in (*r.message_ids(), *r.why_ids())}
    for key in catalogue.MESSAGES.keys() - owned:  # the rest are no clause's
        head = key.split("/")[0] if not key.startswith("why/") else key.split("/")[1]
        assert head not in CLAUSES, key


def _literal_modifier_clauses(tree: ast.AST) -> Iterator[str]:
    """Clause ids written where a skill modifier is given: ``gives("<clause>", ...)`` (a cover
    rule's verdict) and ``("<clause>", value)`` pairs under ``modifiers=`` or appended to a
    ``.modifiers`` list or assigned to a name ``modifiers``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):  # modifiers = (("<clause>", value),)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {t.id for t in targets if isinstance(t, ast.Name)}
            if "modifiers" in names and isinstance(node.value, ast.Tuple):
                yield from _pair_clauses(node.value.elts)
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        pairs: list[ast.expr] = []
        first = node.args[0] if node.args else None
        if name == "gives" and isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield first.value
        if (
            name == "append"
            and isinstance(f, ast.Attribute)
            and isinstance(f.value, ast.Attribute)
            and f.value.attr == "modifiers"
        ):
            pairs += node.args
        for kw in node.keywords:
            if kw.arg == "modifiers" and isinstance(kw.value, ast.Tuple):
                pairs += kw.value.elts
        yield from _pair_clauses(pairs)


def _pair_clauses(pairs: list[ast.expr]) -> Iterator[str]:
    for pair in pairs:
        if isinstance(pair, ast.Tuple) and isinstance(pair.elts[0], ast.Constant):
            yield str(pair.elts[0].value)


def test_every_clause_the_code_gives_a_modifier_by_has_a_modifier_label() -> None:
    found: set[str] = set()
    for path in (REPO / "fwwrules").rglob("*.py"):
        found |= set(_literal_modifier_clauses(ast.parse(path.read_text(encoding="utf-8"))))
    assert {"cover.line", "cover.huge", "action.quick", "melee.stunned"} <= found
    labelled = {r.clause for r in CLAUSE_TEXTS if r.modifier is not None}
    # the scan sees every place a modifier is given: each label's clause is found giving one
    assert labelled <= found, f"labels of clauses the scan finds no modifier of: {labelled - found}"
    unlabelled = sorted(c for c in found if CLAUSES[c].modifier is None)
    assert not unlabelled, f"clauses giving a skill modifier without a modifier label: {unlabelled}"


@pytest.mark.parametrize("path", example_paths(notebooks=True), ids=lambda p: p.stem)
def test_every_modifier_a_ruling_gives_has_a_label_in_both_languages(path: Path) -> None:
    for s, a, b in model_pairs(path):
        for clause in fwwrules.ruling(s, a, b).modifiers:
            for lang in catalogue.LANGS:
                assert modifier_label(clause, lang).strip(), (clause, lang)


def test_a_modifier_without_a_label_is_an_error_not_a_raw_token() -> None:
    with pytest.raises(KeyError, match="no modifier label"):
        modifier_label("cover.shooter-contact", "en")


def test_a_clause_added_for_a_while_joins_every_table_and_leaves_them_as_they_were() -> None:
    before = (dict(catalogue.MESSAGES), dict(catalogue.WORDS), dict(catalogue.CLAUSE_RULES))
    record = ClauseText(
        "cover.barricade",
        rule={"en": "A barricade gives −3.", "de": "Eine Barrikade gibt −3."},
        messages={"": {"en": "{source} is a barricade.", "de": "{source} ist eine Barrikade."}},
        modifier={"en": "barricade", "de": "Barrikade"},
    )
    catalogue.add_clause(record)
    try:
        assert catalogue.render("cover.barricade", {"source": "x"}, "de") == "x ist eine Barrikade."
        assert modifier_label("cover.barricade", "de") == "Barrikade"
        assert catalogue.text_entry("word:modifier/cover.barricade")["en"] == "barricade"
        with pytest.raises(ValueError, match="defined twice"):
            catalogue.add_clause(record)
    finally:
        catalogue.remove_clause("cover.barricade")
    after = (dict(catalogue.MESSAGES), dict(catalogue.WORDS), dict(catalogue.CLAUSE_RULES))
    assert after == before
