"""tools/regen_notebooks.py: stored notebooks are clean, and regenerating is reproducible."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat
import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "regen_notebooks", REPO / "tools" / "regen_notebooks.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regen_notebooks", module)
    spec.loader.exec_module(module)
    return module


regen = _tool()


def _notebook(*cells: Any) -> Any:
    nb = nbformat.v4.new_notebook()
    nb.cells = list(cells)
    return nb


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS, "notebooks/ holds no .ipynb"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_stored_by_the_regen_tool(path: Path) -> None:
    problems = regen.check(path)
    assert not problems, "\n".join(problems)


def test_regen_is_reproducible_and_strips_volatile_parts(tmp_path: Path) -> None:
    nb = _notebook(
        nbformat.v4.new_code_cell("import os; os.environ['PYTHONHASHSEED']"),
        nbformat.v4.new_code_cell("import ipywidgets; ipywidgets.IntSlider()"),
        nbformat.v4.new_code_cell("1 / 0", metadata={"tags": ["raises-exception"]}),
        nbformat.v4.new_markdown_cell("text"),
        nbformat.v4.new_code_cell("import sys; sys.executable", metadata={"collapsed": True}),
    )
    nb.metadata["widgets"] = {"state": {}}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    assert regen.check(path) != []

    regen.regenerate(path)
    first = path.read_text()
    assert regen.check(path) == []
    regen.regenerate(path)
    assert path.read_text() == first

    done = nbformat.read(path, as_version=4)
    assert "widgets" not in done.metadata
    assert "version" not in done.metadata["language_info"]
    assert [c.get("execution_count") for c in done.cells] == [1, 2, 3, None, 4]
    assert done.cells[0].outputs[0]["data"]["text/plain"] == "'0'"
    assert done.cells[2].outputs[0]["ename"] == "ZeroDivisionError"
    assert "collapsed" not in done.cells[4].metadata
    # The kernel is this interpreter (nbval's --nbval-current-env does the same).
    assert done.cells[4].outputs[0]["data"]["text/plain"] == repr(sys.executable)


def test_regen_rejects_a_raises_exception_cell_that_does_not_raise(tmp_path: Path) -> None:
    nb = _notebook(nbformat.v4.new_code_cell("1 + 1", metadata={"tags": ["raises-exception"]}))
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    before = path.read_text()
    with pytest.raises(AssertionError, match="raises-exception"):
        regen.regenerate(path)
    assert path.read_text() == before
