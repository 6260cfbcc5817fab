"""tools/ci_check.py: CI fails unless notebooks, browser and Binder checks ran and passed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_check", REPO / "tools" / "ci_check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("ci_check", module)
    spec.loader.exec_module(module)
    return module


ci = _tool()
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
BROWSER = ("tests.browser.test_lab_browser", "test_attack_panel_ruling_follows_target_choice")
BINDER = ("tests.test_binder", "test_binder_build_runs_a_notebook")
EDITOR = (
    "tests.browser.test_editor_browser",
    "test_editor_builds_a_board_with_the_mouse_and_saves_a_valid_file",
)
TERMINAL = (
    "tests.browser.test_lab_terminal_browser",
    "test_make_lab_terminal_runs_fwwrules_and_autosave_is_on",
)
INSTALLED = "tests.test_installed"
INSTALLED_TESTS = {
    "wheel": "test_installed_package_runs_the_readme_panels_and_a_notebook[wheel]",
    "sdist": "test_installed_package_runs_the_readme_panels_and_a_notebook[sdist]",
}
PANELS = "tests.browser.test_panels_browser"
PANEL_TESTS = {
    "layout": "test_every_panel_fits_and_shows_its_board",
    "attack-drag": "test_attack_panel_drag_in_notebook_01",
    "readme-drag": "test_readme_snippet_in_a_fresh_notebook_drags",
    "melee-drag": "test_melee_panel_drag_into_contact_makes_an_engagement",
}


def _case(classname: str, name: str, outcome: str = "") -> str:
    inner = {"": "", "skipped": "<skipped/>", "failed": "<failure/>", "error": "<error/>"}
    return f'<testcase classname="{classname}" name="{name}">{inner[outcome]}</testcase>'


def _junit(tmp_path: Path, *cases: str) -> Path:
    path = tmp_path / "junit.xml"
    body = "".join(cases)
    path.write_text(f'<testsuites><testsuite name="pytest">{body}</testsuite></testsuites>')
    return path


def _complete(**outcomes: str) -> list[str]:
    cases = [_case(f"notebooks.{nb.name}", "Cell 0") for nb in NOTEBOOKS]
    cases.append(_case(*BROWSER, outcomes.get("browser", "")))
    cases.append(_case(*BINDER, outcomes.get("binder", "")))
    cases.append(_case(*EDITOR, outcomes.get("editor", "")))
    cases.append(_case(*TERMINAL, outcomes.get("terminal", "")))
    cases += [_case(PANELS, name, outcomes.get(key, "")) for key, name in PANEL_TESTS.items()]
    cases += [_case(INSTALLED, n, outcomes.get(key, "")) for key, n in INSTALLED_TESTS.items()]
    return cases


def test_ci_check_passes_when_everything_required_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert NOTEBOOKS
    assert ci.main([str(_junit(tmp_path, *_complete()))]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    passed = len(NOTEBOOKS) + 4 + len(PANEL_TESTS) + len(INSTALLED_TESTS)
    assert last == f"ci: {passed} passed, 0 failed, 0 skipped"


@pytest.mark.parametrize(
    "which", ["browser", "binder", "editor", "terminal", *PANEL_TESTS, *INSTALLED_TESTS]
)
@pytest.mark.parametrize("outcome", ["skipped", "failed"])
def test_ci_check_fails_on_a_required_test_that_did_not_pass(
    tmp_path: Path, which: str, outcome: str
) -> None:
    junit = _junit(tmp_path, *_complete(**{which: outcome}))
    assert ci.main([str(junit)]) == 1


@pytest.mark.parametrize("missing", list(INSTALLED_TESTS))
def test_ci_check_fails_when_the_installed_test_did_not_run_for_one_artifact(
    tmp_path: Path, missing: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [c for c in _complete() if INSTALLED_TESTS[missing] not in c]
    assert ci.main([str(_junit(tmp_path, *cases))]) == 1
    assert f"installed {missing}: " in capsys.readouterr().out


def test_ci_check_fails_when_a_notebook_did_not_run(tmp_path: Path) -> None:
    cases = _complete()[1:]  # the first notebook's cell is missing
    assert ci.main([str(_junit(tmp_path, *cases))]) == 1


def test_ci_check_fails_when_nothing_ran(tmp_path: Path) -> None:
    assert ci.main([str(_junit(tmp_path))]) == 1
    assert ci.main([str(tmp_path / "missing.xml")]) == 1


def test_ci_check_counts_a_failed_make_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "make.log"
    log.write_text("...\nmake: *** [Makefile:52: lint] Error 1\n")
    junit = _junit(tmp_path, *_complete())
    assert ci.main([str(junit), "--make-log", str(log)]) == 1
    out = capsys.readouterr().out
    assert "make step failed: lint" in out
    assert out.strip().splitlines()[-1].endswith(" 1 failed, 0 skipped")
