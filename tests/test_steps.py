"""Every rule family hands the fold one ``Step``: the ruling asks the families of its tables
(``attack.HEAD``, ``RANGED``, ``CLOSE_COMBAT``, ``TAIL``) with the attack's context, and the
facts a ruling keeps besides its terms (the kind of attack, range, line of sight, cover,
shooting into a melee) travel in the steps' ``facts``, folded by ``rulings.fold`` alone."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from example_pairs import example_paths, model_pairs

import fwwrules
from fwwrules.attack import CLOSE_COMBAT, HEAD, RANGED, TAIL, attack_context, attack_steps
from fwwrules.rulings import Facts, RangeInfo, Step, fold

REPO = Path(__file__).resolve().parents[1]
FAMILIES = (*HEAD, *RANGED, *CLOSE_COMBAT, *TAIL)


@pytest.mark.parametrize("path", example_paths(), ids=lambda p: p.stem)
def test_every_family_gives_a_step_for_every_pair_of_every_example(path: Path) -> None:
    for s, a, b in model_pairs(path):
        ctx = attack_context(s, a, b)
        for family in FAMILIES:
            step = family(ctx)
            assert isinstance(step, Step), (family.__name__, a, b, type(step))
            assert isinstance(step.facts, Facts), family.__name__


@pytest.mark.parametrize("path", example_paths(), ids=lambda p: p.stem)
def test_the_ruling_keeps_the_facts_its_steps_fold_to(path: Path) -> None:
    for s, a, b in model_pairs(path):
        facts = fold(attack_steps(attack_context(s, a, b))).facts
        r = fwwrules.ruling(s, a, b)
        assert r.kind == facts.kind
        assert r.range == facts.range
        assert r.line_of_sight == (None if facts.seen is None else facts.seen.visible)
        assert (facts.seen is None) == (r.kind == "melee")
        if r.allowed:
            assert r.into_melee == facts.into
            assert r.cover == (() if facts.covered is None else facts.covered.cover)


def test_fold_keeps_the_last_fact_each_step_decides_whether_or_not_allowed() -> None:
    near = RangeInfo(4.0, ("short",), "short")
    far = RangeInfo(9.0, ("long",), "long")
    steps = [
        Step(facts=Facts(kind="ranged", range=near)),
        Step(refusals=("ranged.los",)),
        Step(facts=Facts(range=far)),
        Step(),
    ]
    folded = fold(steps)
    assert not folded.allowed
    assert (folded.facts.kind, folded.facts.range) == ("ranged", far)


def _returns_tuple_with_step(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    ret = fn.returns
    if ret is None:
        return False
    text = ast.unparse(ret)
    return text.startswith("tuple[") and "Step" in text


def test_no_function_hands_a_step_inside_a_tuple() -> None:
    """The old shape, ``(info, Step)``: a family's facts go in ``Step.facts`` instead."""
    found = []
    for path in sorted((REPO / "fwwrules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            is_def = isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            if is_def and _returns_tuple_with_step(node):
                found.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}")
    assert not found, found


def test_the_ruling_asks_its_families_through_the_tables_only() -> None:
    """``ruling`` folds ``attack_steps``; no family's result is turned into a step there."""
    tree = ast.parse((REPO / "fwwrules" / "attack.py").read_text(encoding="utf-8"))
    ruling = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "ruling"
    )
    calls = {
        n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
        for n in ast.walk(ruling)
        if isinstance(n, ast.Call)
    }
    assert "attack_steps" in calls and "fold" in calls
    assert "step" not in calls
    assert {f.__name__ for f in FAMILIES} & calls == set()
