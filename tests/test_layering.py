"""Layers import one way: ``fwwrules`` (rules) <- ``fwwrules.draw`` (matplotlib) <-
``fwwrules_widgets`` (ipywidgets). ``import fwwrules`` must stay light for scripts, the CLI and
a Binder kernel, so it loads neither matplotlib nor ipywidgets nor IPython.

Checked twice: in fresh interpreters (what really gets loaded) and statically over the source
(so an import hidden behind a branch that the fresh interpreter did not take is caught too).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "fwwrules"
HEAVY = ("matplotlib", "ipywidgets", "IPython")


def loaded_after(statement: str) -> set[str]:
    """Top-level names among HEAVY that a fresh interpreter has loaded after ``statement``."""
    code = (
        f"{statement}\n"
        "import json, sys\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize(
    "statement",
    [
        "import fwwrules",
        "import fwwrules.scenario",
        "import fwwrules.cli",
        "import fwwrules.loading, fwwrules.board, fwwrules.errors",
        "from fwwrules.cli import build_parser; build_parser()",
    ],
)
def test_rules_layer_loads_no_drawing_or_widgets(statement: str) -> None:
    assert loaded_after(statement) == set()


def test_the_probe_can_see_a_heavy_import() -> None:
    """Control: the probe does report matplotlib when it is loaded."""
    assert "matplotlib" in loaded_after("import matplotlib")


def test_draw_layer_may_load_matplotlib_but_not_widgets() -> None:
    loaded = loaded_after("import fwwrules.draw")
    assert "ipywidgets" not in loaded
    assert "IPython" not in loaded


def test_widgets_package_is_importable() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", "import fwwrules_widgets"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr


# --- static check -----------------------------------------------------------------------------


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Statements run at import: the module body, into if/try/with/class bodies, not into
    functions, and not into ``if TYPE_CHECKING:`` blocks."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            for part in (node.body, node.orelse, node.finalbody):
                yield from _module_level(part)
            for handler in node.handlers:
                yield from _module_level(handler.body)
        elif isinstance(node, (ast.With, ast.ClassDef)):
            yield from _module_level(node.body)


def _imported(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module]
    return []


def _sources() -> list[Path]:
    files = sorted(PACKAGE.rglob("*.py"))
    assert len(files) > 5
    return files


def test_no_module_level_matplotlib_outside_draw() -> None:
    offenders = []
    for path in _sources():
        if "draw" in path.relative_to(PACKAGE).parts[:-1]:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in _module_level(tree.body):
            for name in _imported(node):
                if name.split(".")[0] in ("matplotlib", "IPython"):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {name}")
    assert offenders == []


def test_nothing_in_fwwrules_imports_widgets() -> None:
    offenders = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            for name in _imported(node):
                if name.split(".")[0] in ("ipywidgets", "fwwrules_widgets", "ipympl"):
                    offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {name}")
    assert offenders == []


def test_static_check_sees_a_module_level_import() -> None:
    """Control for the walker: a guarded or nested module-level import is still seen."""
    tree = ast.parse(
        "try:\n    import matplotlib.pyplot\nexcept ImportError:\n    pass\n"
        "if TYPE_CHECKING:\n    import IPython\n"
        "def f():\n    import ipywidgets\n"
    )
    names = [n for node in _module_level(tree.body) for n in _imported(node)]
    assert names == ["matplotlib.pyplot"]
