"""Layers import one way: ``fwwrules`` (rules) <- ``fwwrules.draw`` (matplotlib) <-
``fwwrules_widgets`` (ipywidgets). ``import fwwrules`` must stay light for scripts, the CLI and
a Binder kernel, so it loads neither matplotlib nor ipywidgets nor IPython.

Checked twice: in fresh interpreters (what really gets loaded) and statically over the source
(so an import hidden behind a branch that the fresh interpreter did not take is caught too).
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fresh_interpreter import printed

PACKAGE = Path(__file__).resolve().parent.parent / "fwwrules"
WIDGETS = PACKAGE.parent / "widgets"
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


def _modules_after(statement: str, names: tuple[str, ...]) -> set[str]:
    code = (
        f"{statement}\n"
        "import json, sys\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & {set(names)!r})))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_import_fwwrules_loads_no_file_format_libraries() -> None:
    """pydantic and yaml load only when a file is read or written or a schema is asked for;
    asking for a lazy name (``fwwrules.load``) loads its module."""
    assert _modules_after("import fwwrules", ("pydantic", "yaml")) == set()
    assert _modules_after("import fwwrules; fwwrules.ruling", ("pydantic", "yaml")) == set()
    loaded = _modules_after(
        "import fwwrules; fwwrules.load(fwwrules.example_path('cover-example-1'))",
        ("pydantic", "yaml"),
    )
    assert loaded == {"pydantic", "yaml"}


def test_import_fwwrules_loads_no_locale_data() -> None:
    """Babel (numbers and lengths in the reader's locale) loads when a text is first rendered,
    never at ``import fwwrules`` (bench/import_time.py)."""
    assert _modules_after("import fwwrules", ("babel",)) == set()
    rendered = "import fwwrules.catalogue as c; c.number(1.5, 1, 'de')"
    assert _modules_after(rendered, ("babel",)) == {"babel"}


RULING_MODULES = (
    "fwwrules.attack",
    "fwwrules.rulings",
    "fwwrules.checks",
    "fwwrules.close_combat",
    "fwwrules.cover",
    "fwwrules.crossings",
    "fwwrules.elevation",
    "fwwrules.geometry",
    "fwwrules.los",
    "fwwrules.placement",
    "fwwrules.shot",
)
"""The attack ruling, its types and the rule families it runs (cover, line of sight,
elevation, close combat, the file check and placement): loaded by the first
``fwwrules.ruling`` (or ``fwwrules.AttackRuling``, ``fwwrules.Reason``)."""


def _loaded_of(statement: str, modules: tuple[str, ...]) -> list[str]:
    """Which of ``modules`` (full dotted names) a fresh interpreter has loaded after
    ``statement``."""
    return printed(f"{statement}\nimport sys\nprint(*[m for m in {modules!r} if m in sys.modules])")


def test_import_fwwrules_loads_the_ruling_on_first_use() -> None:
    """``import fwwrules`` (and building a scenario) loads none of the ruling's modules
    (bench/import_time.py); asking for ``fwwrules.ruling`` (attribute or ``from fwwrules import
    ruling``) loads them all and gives the one function of ``fwwrules.attack``; the ruling's
    types are ``fwwrules.rulings``' classes; ``dir(fwwrules)`` lists them before."""
    assert _loaded_of("import fwwrules", RULING_MODULES) == []
    assert _loaded_of("import fwwrules; fwwrules.Scenario, fwwrules.Model", RULING_MODULES) == []
    listed = "import fwwrules; print('ruling' in dir(fwwrules), 'load' in dir(fwwrules))"
    assert _loaded_of(listed, RULING_MODULES) == ["True", "True"]
    assert _loaded_of("from fwwrules import ruling", RULING_MODULES) == list(RULING_MODULES)
    same = "import fwwrules, fwwrules.attack as a; print(fwwrules.ruling is a.ruling)"
    assert printed(same) == ["True"]
    types = "from fwwrules import AttackRuling, Reason; import fwwrules.rulings as r"
    assert printed(f"{types}; print(AttackRuling is r.AttackRuling, Reason is r.Reason)") == [
        "True",
        "True",
    ]


def test_import_fwwrules_defers_what_only_texts_and_margins_need() -> None:
    """``import fwwrules`` loads neither ``fwwrules.closeness`` (a ruling's margins, loaded by
    the ruling) nor the standard library's ``html`` (a ruling in HTML), ``decimal`` (rounding a
    written number) and ``string`` (the texts' formatter); a ruling shown in HTML loads them."""
    lazy = ("fwwrules.closeness", "html", "decimal", "string")
    assert _loaded_of("import fwwrules", lazy) == []
    shown = (
        "import fwwrules\n"
        "s = fwwrules.load(fwwrules.example_path('cover-example-1'))\n"
        "fwwrules.ruling(s, 'knight', 'brute').html('de')"
    )
    assert _loaded_of(shown, lazy) == list(lazy)


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
                if name.split(".")[0] in ("ipywidgets", "fwwrules_widgets", "anywidget"):
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


# --- one-way imports inside the package ----------------------------------------------------

FUNCTION_IMPORTS_ALLOWED = ("cli.py", "draw")
"""Where a function may import a sibling module: the CLI (each command loads only what it
needs) and the drawing layer (optional pieces of the picture)."""

ARCHITECTURE = PACKAGE.parent / "docs" / "ARCHITECTURE.md"


def _module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _targets(node: ast.AST, module: str, package: bool, known: set[str]) -> list[str]:
    """The package modules an import statement runs (submodules named in ``from . import x``
    count; the implicit import of a parent package does not)."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name in known]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        parts = module.split(".")
        base_parts = parts if package else parts[:-1]
        base_parts = base_parts[: len(base_parts) - (node.level - 1)]
        base = ".".join(base_parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
    names_from_base = len(subs) < len(node.names)
    return ([base] if base in known and names_from_base else []) + subs


def import_graph(files: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """Module -> every package module it imports: at import time, in ``if TYPE_CHECKING:``
    blocks (an annotation's dependency is a dependency) and inside functions. ``files`` maps
    module name to (source, is package)."""
    known = set(files)
    graph: dict[str, set[str]] = {}
    for module, (source, package) in files.items():
        tree = ast.parse(source)
        edges = graph.setdefault(module, set())
        for node in ast.walk(tree):
            edges.update(t for t in _targets(node, module, package, known) if t != module)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or ``None``."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def _package_files() -> dict[str, tuple[str, bool]]:
    return {_module_name(p): (p.read_text(encoding="utf-8"), _is_package(p)) for p in _sources()}


def layer_order(text: str, folder: str = "fwwrules/") -> list[str]:
    """The rows of a module table of docs/ARCHITECTURE.md ("Modules of `fwwrules/`" or of
    `widgets/`), bottom to top: a module (``board``) or a sub-package (``grid/``, every
    module in it)."""
    section = text.split(f"# Modules of `{folder}`", 1)[1].split("\n#", 1)[0]
    return [name.rstrip("/") for name in re.findall(r"^\| `([a-z_]+/?)` \|", section, re.M)]


def _rank(module: str, order: list[str]) -> int:
    """A module's row in the table (the package itself is the row ``__init__``); -1 when the
    table does not list it."""
    parts = module.split(".")
    row = parts[1] if len(parts) > 1 else "__init__"
    return order.index(row) if row in order else -1


def upward_imports(graph: dict[str, set[str]], order: list[str]) -> list[str]:
    """Every import of a module from a higher row of the table (``a -> b``)."""
    return sorted(
        f"{a} -> {b}"
        for a, targets in graph.items()
        for b in targets
        if _rank(b, order) > _rank(a, order)
    )


def test_the_module_table_lists_every_module() -> None:
    order = layer_order(ARCHITECTURE.read_text(encoding="utf-8"))
    missing = [m for m in _package_files() if _rank(m, order) < 0]
    assert missing == []
    assert len(order) == len(set(order))


def test_no_module_imports_a_higher_one_type_checking_included() -> None:
    """Each module imports only modules of lower rows of docs/ARCHITECTURE.md's table (or of
    its own sub-package), whether at import time, for annotations (``if TYPE_CHECKING:``) or
    inside a function; and nothing imports in a cycle."""
    graph = import_graph(_package_files())
    assert "fwwrules.attack" in graph["fwwrules"]  # the walker sees relative imports
    assert upward_imports(graph, layer_order(ARCHITECTURE.read_text(encoding="utf-8"))) == []
    assert find_cycle(graph) is None


def test_the_layer_check_catches_an_upward_import_in_type_checking() -> None:
    """Control: an upward import only for annotations, a relative one and one in a function
    are each reported; downward ones are not."""
    files = {
        "pkg": ("", True),
        "pkg.low": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .high import H\n",
            False,
        ),
        "pkg.mid": ("from . import low\ndef f():\n    from pkg import high\n", False),
        "pkg.high": ("from .low import x\n", False),
        "pkg.sub": ("", True),
        "pkg.sub.a": ("from .b import z\nfrom ..low import w\n", False),
        "pkg.sub.b": ("", False),
    }
    graph = import_graph(files)
    order = ["low", "mid", "sub", "high", "__init__"]
    assert upward_imports(graph, order) == ["pkg.low -> pkg.high", "pkg.mid -> pkg.high"]
    assert find_cycle(graph) == ["pkg.high", "pkg.low", "pkg.high"]  # low's annotation
    files["pkg.low"] = ("x = 1\n", False)
    graph = import_graph(files)
    assert upward_imports(graph, order) == ["pkg.mid -> pkg.high"]
    assert find_cycle(graph) is None


def test_cycle_check_finds_a_cycle() -> None:
    """Control: a cycle through ``from . import`` and a relative import is reported, and so
    is one closed by an annotation-only import."""
    files = {
        "pkg": ("", True),
        "pkg.a": ("from .b import x\n", False),
        "pkg.b": ("from . import c\n", False),
        "pkg.c": ("if TYPE_CHECKING:\n    from .a import y\n", False),
        "pkg.d": ("def f():\n    from .e import x\n", False),
        "pkg.e": ("", False),
    }
    graph = import_graph(files)
    assert graph["pkg.d"] == {"pkg.e"}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    files["pkg.c"] = ("x = 1\n", False)
    assert find_cycle(import_graph(files)) is None


def _function_imports(tree: ast.AST) -> Iterator[ast.ImportFrom | ast.Import]:
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.ImportFrom)
                    and (node.level or (node.module or "").split(".")[0] == "fwwrules")
                ) or (
                    isinstance(node, ast.Import)
                    and any(a.name.split(".")[0] == "fwwrules" for a in node.names)
                ):
                    yield node


def test_no_function_level_imports_of_package_modules_outside_cli_and_draw() -> None:
    """An import inside a function hides a dependency (and once hid two import cycles)."""
    offenders = []
    for path in _sources():
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in FUNCTION_IMPORTS_ALLOWED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        offenders += [f"{rel}:{node.lineno}" for node in _function_imports(tree)]
    assert offenders == []


def test_function_import_check_sees_one() -> None:
    tree = ast.parse("def f():\n    from .melee import x\n    import os\n")
    assert [n.lineno for n in _function_imports(tree)] == [2]


def test_import_fwwrules_loads_no_pydantic() -> None:
    """pydantic (the file specs) loads when a file is read or a schema is asked for."""
    code = (
        "import sys, fwwrules\n"
        "s = fwwrules.Scenario(models=(fwwrules.Model('a', 'x', 32, (0, 0)),))\n"
        "fwwrules.ruling(s, 'a', (100.0, 0.0))\n"
        "before = 'pydantic' in sys.modules\n"
        "fwwrules.loads('format: fwwrules/scenario@1\\n')\n"
        "print(before, 'pydantic' in sys.modules)\n"
    )
    assert printed(code) == ["False", "True"]


SHIMS = ("fwwrules.scenario", "fwwrules.melee")
"""Old module paths kept for outside callers (notebooks, users' scripts): thin re-exports."""


def test_nothing_inside_imports_a_shim() -> None:
    """The package and the panels import each name from the module that defines it; the
    shims exist for outside callers only."""
    widgets = PACKAGE.parent / "widgets"
    offenders = []
    for path in [*_sources(), *sorted(widgets.rglob("*.py"))]:
        module = _module_name(path) if path.is_relative_to(PACKAGE) else f"widgets.{path.stem}"
        if module in SHIMS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names = _imported(node)
            if isinstance(node, ast.ImportFrom) and node.level:
                base = module.split(".")[: -node.level] if not _is_package(path) else None
                names = [".".join([*(base or []), node.module or ""]).rstrip(".")]
            if isinstance(node, ast.ImportFrom) and node.module in ("fwwrules",):
                names += [f"fwwrules.{a.name}" for a in node.names]
            offenders += [f"{path.name}:{node.lineno}: {n}" for n in names if n in SHIMS]
    assert offenders == []


# --- the panels (widgets/, imported as fwwrules_widgets) -------------------------------------


def _widget_files() -> dict[str, tuple[str, bool]]:
    """``fwwrules_widgets.<module>`` -> (source, is package), for every module of widgets/."""
    out = {}
    for path in sorted(WIDGETS.rglob("*.py")):
        parts = ["fwwrules_widgets", *path.relative_to(WIDGETS).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = (path.read_text(encoding="utf-8"), _is_package(path))
    assert len(out) > 5
    return out


def test_the_widgets_table_lists_every_module() -> None:
    order = layer_order(ARCHITECTURE.read_text(encoding="utf-8"), "widgets/")
    missing = [m for m in _widget_files() if _rank(m, order) < 0]
    assert missing == []
    assert len(order) == len(set(order))


def test_no_widgets_module_imports_a_higher_one_and_none_in_a_cycle() -> None:
    """The panels' modules import one way too: only lower rows of the widgets table (at
    import time, for annotations and inside functions), never in a cycle (``panel`` and
    ``export`` once imported each other)."""
    graph = import_graph(_widget_files())
    assert "fwwrules_widgets.view" in graph["fwwrules_widgets.attack_panel"]  # relative seen
    order = layer_order(ARCHITECTURE.read_text(encoding="utf-8"), "widgets/")
    assert upward_imports(graph, order) == []
    assert find_cycle(graph) is None


def test_the_widget_layers_sit_on_the_rules_and_the_drawing_only() -> None:
    """The one-way layering across packages: the panels import ``fwwrules`` (the rules and
    ``fwwrules.draw``), and no module of ``fwwrules`` or ``fwwrules.draw`` imports a panel
    (:func:`test_nothing_in_fwwrules_imports_widgets`); a panel imports no test or bench
    helper."""
    outside = []
    for module, (source, _) in _widget_files().items():
        for node in ast.walk(ast.parse(source)):
            for name in _imported(node):
                if name.split(".")[0] in ("tests", "bench", "tools", "widgets"):
                    outside.append(f"{module}:{node.lineno}: {name}")
    assert outside == []
