"""No function in ``fwwrules/`` or ``widgets/`` is longer than :data:`MAX_LINES` lines (issue 24:
a function should be readable at once), unless its docstring says why it is long: a line of
its docstring starting with :data:`MARKER` followed by the reason (docs/ARCHITECTURE.md,
"Conventions").

A function's length is counted from its ``def`` line to its last line, docstring, comments
and blank lines included (decorators not); a nested function counts in its parent too.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FOLDERS = (REPO / "fwwrules", REPO / "widgets")
MAX_LINES = 80
MARKER = "Long on purpose:"
PENDING: dict[str, str] = {}
"""Functions still over the limit whose split another change owns: ``path::name`` -> why. Each
entry must still be long (a stale one fails), so the list only shrinks."""


def long_functions(source: str, limit: int = MAX_LINES) -> Iterator[tuple[str, int, int]]:
    """(qualified name, first line, length) of each function over ``limit`` lines whose
    docstring does not say why it is long."""
    tree = ast.parse(source)

    def walk(node: ast.AST, prefix: str) -> Iterator[tuple[str, int, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                yield from walk(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                assert child.end_lineno is not None
                length = child.end_lineno - child.lineno + 1
                doc = ast.get_docstring(child) or ""
                explained = any(
                    line.strip().startswith(MARKER) and line.strip() != MARKER
                    for line in doc.splitlines()
                )
                if length > limit and not explained:
                    yield name, child.lineno, length
                yield from walk(child, f"{name}.")
            else:
                yield from walk(child, prefix)

    yield from walk(tree, "")


def _offenders() -> dict[str, str]:
    """``path::name`` -> where and how long, for every function over the limit."""
    out = {}
    for folder in FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            rel = path.relative_to(REPO).as_posix()
            for name, line, length in long_functions(path.read_text(encoding="utf-8")):
                out[f"{rel}::{name}"] = f"{rel}:{line} {name} ({length} lines)"
    return out


def test_no_function_over_the_limit_without_a_reason() -> None:
    found = _offenders()
    offenders = [where for key, where in found.items() if key not in PENDING]
    assert not offenders, (
        f"functions over {MAX_LINES} lines (split them, or say why in the docstring with a "
        f"line starting {MARKER!r}):\n" + "\n".join(offenders)
    )
    stale = sorted(set(PENDING) - set(found))
    assert not stale, f"no longer over the limit: remove from PENDING: {stale}"


def test_the_check_sees_a_long_function_and_its_reason() -> None:
    body = "".join(f"    x{k} = {k}\n" for k in range(MAX_LINES))
    long = f"def f():\n{body}"
    assert [n for n, _, _ in long_functions(long)] == ["f"]
    method = "class C:\n" + "".join("    " + line + "\n" for line in long.splitlines())
    assert [n for n, _, _ in long_functions(method)] == ["C.f"]
    reason = (
        f'def f():\n    """Does much.\n\n    {MARKER} one table, read top to bottom.\n    """\n'
    )
    assert list(long_functions(reason + body)) == []
    bare = f'def f():\n    """{MARKER}\n    """\n'  # the marker without a reason is not one
    assert [n for n, _, _ in long_functions(bare + body)] == ["f"]
    short = "def f():\n" + "".join(f"    x{k} = {k}\n" for k in range(MAX_LINES - 1))
    assert list(long_functions(short)) == []
