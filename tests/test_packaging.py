"""What pyproject.toml declares matches the code: imports, extras, version, license, py.typed.

These read files only (fast). tests/test_installed.py builds the wheel and the sdist and
uses them as a user would.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import sys
from pathlib import Path
from typing import Any

import pytest
import tomllib

import fwwrules

REPO = Path(__file__).resolve().parents[1]
PYPROJECT: dict[str, Any] = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT: dict[str, Any] = PYPROJECT["project"]
OWN = {"fwwrules", "fwwrules_widgets"}
REQUIREMENT_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _parse(requirement: str) -> tuple[str, list[str]]:
    match = REQUIREMENT_NAME.match(requirement)
    assert match, requirement
    extras = [e.strip() for e in (match.group(2) or "").split(",") if e.strip()]
    return _canonical(match.group(1)), extras


def declared(*extras: str) -> set[str]:
    """The distributions the base install plus ``extras`` bring directly (own extras followed).

    >>> "shapely" in declared() and "matplotlib" in declared("draw")
    True
    """
    names: set[str] = set()
    todo, seen = [None, *extras], set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        reqs = PROJECT["dependencies"] if extra is None else PROJECT["optional-dependencies"][extra]
        for requirement in reqs:
            name, sub = _parse(requirement)
            if name == "fwwrules":
                todo.extend(sub)
            else:
                names.add(name)
    return names


def imported_modules(files: list[Path]) -> set[str]:
    """Top-level third-party modules imported anywhere in ``files``."""
    found: set[str] = set()
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return {m for m in found if m not in sys.stdlib_module_names and m not in OWN}


def distributions_of(modules: set[str]) -> set[str]:
    """The distributions providing ``modules`` in this environment (the helpers that tests and
    benchmarks import from each other's folders are skipped)."""
    providers = importlib.metadata.packages_distributions()
    out: set[str] = set()
    for module in modules:
        if any((REPO / d / f"{module}.py").exists() for d in ("tests", "bench", "tools")):
            continue
        assert module in providers, f"{module} is imported but no installed distribution has it"
        out.update(_canonical(d) for d in providers[module])
    return out


@pytest.mark.parametrize(
    ("folder", "extras"),
    [
        ("fwwrules", ()),
        ("fwwrules/draw", ("draw",)),
        ("widgets", ("widgets",)),
        ("tests", ("dev",)),
        ("tools", ("dev",)),
        ("bench", ("dev",)),
    ],
)
def test_every_imported_distribution_is_declared(folder: str, extras: tuple[str, ...]) -> None:
    root = REPO / folder
    files = sorted(root.rglob("*.py"))
    if folder == "fwwrules":  # the rules layer alone: the drawing layer has its own extra
        files = [f for f in files if (root / "draw") not in f.parents]
    missing = distributions_of(imported_modules(files)) - declared(*extras)
    assert not missing, f"{folder}/ imports {sorted(missing)}, not declared for {extras or 'base'}"


def test_extras_nest_draw_widgets_lab_dev() -> None:
    assert declared("draw") - declared() == {"matplotlib", "pillow", "jinja2", "platformdirs"}
    assert declared("widgets") - declared("draw") == {
        "ipywidgets",
        "anywidget",
        "ipython",
        "traitlets",
    }
    assert "jupyterlab" not in declared("widgets")
    assert declared("lab") - declared("widgets") == {"jupyterlab"}
    assert declared("lab") <= declared("dev")


def test_one_version_source() -> None:
    assert "version" not in PROJECT
    assert "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "fwwrules.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", fwwrules.__version__)
    # Nowhere else: no second `__version__ = "..."` or `version = "..."` in the packages.
    for folder in ("fwwrules", "widgets"):
        for path in (REPO / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            hits = re.findall(r"^__version__\s*=", text, re.M)
            expected = 1 if path == REPO / "fwwrules" / "__init__.py" else 0
            assert len(hits) == expected, path


def test_changelog_has_a_heading_for_this_version() -> None:
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    first = re.search(r"^## \[([^\]]+)\]", text, re.M)
    assert first and first.group(1) == fwwrules.__version__, "the top CHANGELOG heading"


def test_license_file_is_declared_and_is_mit() -> None:
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text(encoding="utf-8").startswith("MIT License\n")


def test_build_floor_reads_pep_639_metadata() -> None:
    """setuptools reads a license *expression* (``license = "MIT"``) from 77.0.1 on."""
    (requirement,) = PYPROJECT["build-system"]["requires"]
    match = re.fullmatch(r"setuptools>=(\d+)\.(\d+)\.(\d+)", requirement)
    assert match, requirement
    assert tuple(int(g) for g in match.groups()) >= (77, 0, 1)


def test_both_import_packages_are_typed() -> None:
    for folder in ("fwwrules", "widgets"):
        assert (REPO / folder / "py.typed").is_file(), folder
    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    assert "py.typed" in data["fwwrules"] and "py.typed" in data["fwwrules_widgets"]


def test_package_dir_maps_the_widgets_folder_and_nothing_is_listed_by_hand() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"fwwrules": "fwwrules", "fwwrules_widgets": "widgets"}
    assert "packages" not in setuptools, "let setuptools find the packages"


def test_the_widgets_browser_modules_are_files_shipped_as_package_data() -> None:
    """Every file the panels read beside their code (the anywidget ES modules and their
    style) exists and is matched by the package data, and no ES module hides in a Python
    string (the restart notice's once did)."""
    import fnmatch

    sources = {p.name: p.read_text(encoding="utf-8") for p in (REPO / "widgets").glob("*.py")}
    named = {n for text in sources.values() for n in re.findall(r'"(\w+\.(?:js|css))"', text)}
    assert {"board_canvas.js", "board_canvas.css", "restart_notice.js"} <= named
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["fwwrules_widgets"]
    for name in sorted(named):
        assert (REPO / "widgets" / name).is_file(), name
        assert any(fnmatch.fnmatch(name, g) for g in globs), name
    inline = [name for name, text in sources.items() if "export default" in text]
    assert inline == []
