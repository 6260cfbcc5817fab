"""What a notebook's ``assert`` cell claims, as data: the conformance table's book outcomes.

A notebook asserts a rulebook example's stated outcome in one line, for instance::

    assert r1.skill.modifier == -2 and [c.source for c in r1.cover] == ["crate"]

:func:`cell_claims` splits such an ``assert`` into atomic claims, each an expression and the
literal it is compared with: ``r1.skill.modifier == -2`` and
``[c.source for c in r1.cover] == ['crate']``. It understands what the notebooks write:

* ``and`` chains, ``not x`` (``x == False``), ``not (a or b)`` (``not a and not b``), a bare
  ``x`` (``x == True``), ``x is None``;
* tuples compared with tuples (``(a.ac, a.reflex) == (4, 2)``: two claims), chained ``==``
  (``n[0] == n[3] == "raider"``);
* a list comprehension over a literal compared with a list (``[r[m].x for m in ("a", "b")] ==
  [1, 2]``: one claim per item), ``all(... for m in <literal>)`` (each item's claims);
* ``<literal> in <expression>`` (a ``contains`` claim);
* names bound earlier in the same cell to part of an answer (``numbers = r.into_melee.numbers``)
  are replaced by what they hold; names bound to a literal in an earlier cell (``pairs =
  [...]``) may be iterated, and so may ``d.values()`` of a dictionary built from literal keys
  (``{m: ... for m in ("a", "b")}``): each value as ``d["a"]``.

Anything else (a comparison of two computed values, ``all`` over a computed sequence) yields no
claim: the table then shows only what it understood, and the test that every claim about a row
is used makes sure nothing a row's notebook says is dropped silently.
"""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Claim:
    """``expr op value``: ``op`` is ``==`` or ``contains`` (``value in expr``); ``expr`` is the
    expression as :func:`ast.unparse` writes it."""

    expr: str
    op: str
    value: Any
    node: ast.expr


def normal(source: str) -> str:
    """An expression as :func:`ast.unparse` writes it (quotes, spaces, brackets made one way)."""
    return ast.unparse(ast.parse(source.strip(), mode="eval").body)


@dataclass(frozen=True)
class Cell:
    """One code cell of a notebook: its id, source and index."""

    notebook: str
    id: str
    index: int
    source: str


def notebook_cells(notebook: str) -> list[Cell]:
    """The code cells of ``notebooks/<notebook>.ipynb`` in order."""
    path = REPO / "notebooks" / f"{notebook}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for i, c in enumerate(nb.get("cells", [])):
        if c.get("cell_type") != "code":
            continue
        src = c.get("source", "")
        out.append(
            Cell(notebook, str(c.get("id", "")), i, src if isinstance(src, str) else "".join(src))
        )
    return out


def heading_before(notebook: str, index: int) -> str:
    """The last Markdown heading above cell ``index`` (without its ``#``)."""
    path = REPO / "notebooks" / f"{notebook}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    heading = ""
    for c in nb.get("cells", [])[:index]:
        if c.get("cell_type") != "markdown":
            continue
        src = c.get("source", "")
        for line in (src if isinstance(src, str) else "".join(src)).splitlines():
            if line.startswith("#"):
                heading = line.lstrip("#").strip()
    return heading


def _literal(node: ast.expr, literals: Mapping[str, Any]) -> tuple[bool, Any]:
    """``(True, value)`` when ``node`` is a literal (or a name bound to one), else
    ``(False, None)``."""
    if isinstance(node, ast.Name) and node.id in literals:
        return True, literals[node.id]
    try:
        return True, ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


class _Substitute(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, ast.expr]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.expr:
        found = self.names.get(node.id)
        return copy.deepcopy(found) if found is not None else node


def _subst(node: ast.expr, names: Mapping[str, ast.expr]) -> ast.expr:
    out = _Substitute(names).visit(copy.deepcopy(node))
    assert isinstance(out, ast.expr)
    return out


def _value_node(value: Any) -> ast.expr:
    return ast.parse(repr(value), mode="eval").body


def _unrolled(
    comp: ast.ListComp | ast.GeneratorExp, literals: Mapping[str, Any]
) -> list[ast.expr] | None:
    """The element of a one-generator comprehension over a literal, once per item; over
    ``d.values()`` of a dictionary ``d`` built from literal keys (:func:`prelude_literals`
    records them as ``d.keys()``), once per key, as ``d[key]``."""
    if len(comp.generators) != 1 or comp.generators[0].ifs:
        return None
    gen = comp.generators[0]
    if not isinstance(gen.target, ast.Name):
        return None
    it = gen.iter
    if (
        isinstance(it, ast.Call)
        and isinstance(it.func, ast.Attribute)
        and it.func.attr == "values"
        and isinstance(it.func.value, ast.Name)
        and f"{it.func.value.id}.keys()" in literals
    ):
        d = it.func.value.id
        return [
            _subst(comp.elt, {gen.target.id: _value_node_in(d, key)})
            for key in literals[f"{d}.keys()"]
        ]
    ok, items = _literal(it, literals)
    if not ok:
        return None
    return [_subst(comp.elt, {gen.target.id: _value_node(item)}) for item in items]


def _value_node_in(name: str, key: Any) -> ast.expr:
    return ast.parse(f"{name}[{key!r}]", mode="eval").body


def _claim(node: ast.expr, op: str, value: Any) -> Claim:
    return Claim(ast.unparse(node), op, value, node)


def _compare(node: ast.Compare, literals: Mapping[str, Any]) -> Iterator[Claim]:
    terms = [node.left, *node.comparators]
    if len(node.ops) == 1 and isinstance(node.ops[0], ast.In):
        ok, value = _literal(node.left, literals)
        if ok:
            yield _claim(node.comparators[0], "contains", value)
        return
    if not all(isinstance(op, (ast.Eq, ast.Is)) for op in node.ops):
        return
    known = [_literal(t, literals) for t in terms]
    values = [v for ok, v in known if ok]
    if not values:
        return
    value = values[0]
    for term, (ok, _) in zip(terms, known, strict=True):
        if not ok:
            yield from _equal(term, value, literals)


def _equal(term: ast.expr, value: Any, literals: Mapping[str, Any]) -> Iterator[Claim]:
    """Claims of ``term == value``, element-wise for tuples and unrollable comprehensions."""
    if (
        isinstance(term, ast.Tuple)
        and isinstance(value, (tuple, list))
        and len(term.elts) == len(value)
    ):
        for elt, v in zip(term.elts, value, strict=True):
            yield from _equal(elt, v, literals)
        return
    if isinstance(term, ast.ListComp) and isinstance(value, (tuple, list)):
        items = _unrolled(term, literals)
        if items is not None and len(items) == len(value):
            for elt, v in zip(items, value, strict=True):
                yield from _equal(elt, v, literals)
            return
    yield _claim(term, "==", value)


def _walk(node: ast.expr, literals: Mapping[str, Any]) -> Iterator[Claim]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        for v in node.values:
            yield from _walk(v, literals)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        if isinstance(inner, ast.BoolOp) and isinstance(inner.op, ast.Or):
            for v in inner.values:
                yield from _walk(ast.UnaryOp(ast.Not(), v), literals)
        elif isinstance(inner, (ast.Attribute, ast.Subscript, ast.Call)):
            yield _claim(inner, "==", False)
    elif isinstance(node, ast.Compare):
        yield from _compare(node, literals)
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "all"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.GeneratorExp)
        and (items := _unrolled(node.args[0], literals)) is not None
    ):
        for item in items:
            yield from _walk(item, literals)
    elif isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        yield _claim(node, "==", True)


def prelude_literals(cells: list[Cell], before: int) -> dict[str, Any]:
    """Names bound to a literal at the top level of the code cells before index ``before``."""
    out: dict[str, Any] = {}
    for cell in cells:
        if cell.index >= before:
            break
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:  # a cell magic (%matplotlib inline)
            tree = ast.parse(
                "\n".join(ln for ln in cell.source.splitlines() if not ln.startswith("%"))
            )
        for stmt in tree.body:
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1):
                continue
            target = stmt.targets[0]
            if not isinstance(target, ast.Name):
                continue
            ok, value = _literal(stmt.value, out)
            if ok:
                out[target.id] = value
            keys = _dict_keys(stmt.value, out)
            if keys is not None:
                out[f"{target.id}.keys()"] = keys
    return out


def _dict_keys(node: ast.expr, literals: Mapping[str, Any]) -> list[Any] | None:
    """The keys of ``{k: ... for k in <literal>}``, in order (``None`` for anything else)."""
    if not (isinstance(node, ast.DictComp) and len(node.generators) == 1):
        return None
    gen = node.generators[0]
    if gen.ifs or not isinstance(gen.target, ast.Name) or not isinstance(node.key, ast.Name):
        return None
    if node.key.id != gen.target.id:
        return None
    ok, items = _literal(gen.iter, literals)
    return list(items) if ok else None


def cell_claims(cells: list[Cell], cell_id: str) -> list[Claim]:
    """Every claim of the ``assert`` statements of the cell ``cell_id`` (:class:`ValueError`
    when the notebook has no such cell or the cell asserts nothing)."""
    found = [c for c in cells if c.id == cell_id]
    if not found:
        raise ValueError(f"no code cell {cell_id!r}")
    cell = found[0]
    literals = prelude_literals(cells, cell.index)
    names: dict[str, ast.expr] = {}
    claims: list[Claim] = []
    asserts = 0
    for stmt in ast.parse(cell.source).body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            # A name that holds part of an answer (``numbers = r.into_melee.numbers``) is
            # replaced by it; one that holds an answer of its own (a call) stays a name.
            if isinstance(target, ast.Name) and not any(
                isinstance(n, ast.Call) for n in ast.walk(stmt.value)
            ):
                names[target.id] = _subst(stmt.value, names)
        elif isinstance(stmt, ast.Assert):
            asserts += 1
            claims.extend(_walk(_subst(stmt.test, names), literals))
    if not asserts:
        raise ValueError(f"cell {cell_id!r} asserts nothing")
    return claims


def mentions(claim: Claim, var: str) -> bool:
    """Whether ``claim`` is about ``var`` (an expression such as ``r4['mutant-2']``)."""
    want = normal(var)
    return any(isinstance(n, ast.expr) and ast.unparse(n) == want for n in ast.walk(claim.node))
