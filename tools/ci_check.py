#!/usr/bin/env python3
"""Read pytest's JUnit XML after `make test` and check that CI covered what it must.

    python tools/ci_check.py artifacts/junit.xml [--make-log artifacts/make-test.log]

CI fails when any of these did not run *and pass* (a skip counts as not run):
- at least one test at all (pytest's exit 5 must never pass silently);
- nbval on every ``notebooks/*.ipynb`` (at least one cell each, none failed or skipped);
- the browser test (``tests/browser/test_lab_browser.py``), in every variant;
- the board editor's browser test (``tests/browser/test_editor_browser.py``);
- ``make lab``'s terminal and autosave (``tests/browser/test_lab_terminal_browser.py``);
- the Binder build check (``test_binder_build_runs_a_notebook``);
- the installed-package test (``tests/test_installed.py``), for the wheel and for the sdist.

It prints a breakdown and, last, one line ``ci: N passed, N failed, N skipped``, where
"failed" also counts failed make steps (from ``--make-log``) and unmet requirements.
Exit status 0 only when nothing failed.
"""

from __future__ import annotations

import argparse
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# label: test function name (any parametrized variant counts), or name[variant] (that one)
REQUIRED_TESTS = {
    "browser test": "test_attack_panel_ruling_follows_target_choice",
    "editor browser test": "test_editor_builds_a_board_with_the_mouse_and_saves_a_valid_file",
    "panels at 1280x800 and 1920x1080": "test_every_panel_fits_and_shows_its_board",
    "attack panel drag": "test_attack_panel_drag_in_notebook_01",
    "README snippet drag": "test_readme_snippet_in_a_fresh_notebook_drags",
    "melee panel drag": "test_melee_panel_drag_into_contact_makes_an_engagement",
    "make lab terminal": "test_make_lab_terminal_runs_fwwrules_and_autosave_is_on",
    "Binder build": "test_binder_build_runs_a_notebook",
    "installed wheel": "test_installed_package_runs_the_readme_panels_and_a_notebook[wheel]",
    "installed sdist": "test_installed_package_runs_the_readme_panels_and_a_notebook[sdist]",
}
# `make: *** [Makefile:47: lint] Error 1`
MAKE_FAILURE = re.compile(r"^make(?:\[\d+\])?: \*\*\* \[[^:\]]+:\d+: ([\w.-]+)\] Error (\d+)", re.M)


@dataclass(frozen=True, slots=True)
class Case:
    file: str
    classname: str
    name: str
    outcome: str  # passed, failed, error, skipped

    def where(self) -> str:
        return f"{self.file or self.classname}::{self.name}"


def read_cases(junit: Path) -> list[Case]:
    cases = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        outcome = "passed"
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = {"failure": "failed"}.get(child.tag, child.tag)
                break
        cases.append(
            Case(
                file=case.get("file", ""),
                classname=case.get("classname", ""),
                name=case.get("name", ""),
                outcome=outcome,
            )
        )
    return cases


def requirement_problems(cases: list[Case], notebooks: list[Path]) -> list[str]:
    problems = []
    if not cases:
        problems.append("pytest ran no test")
    for label, name in REQUIRED_TESTS.items():
        mine = [c for c in cases if (c.name if "[" in name else c.name.split("[")[0]) == name]
        if not mine:
            problems.append(f"{label}: {name} did not run")
        problems += [f"{label}: {c.where()} {c.outcome}" for c in mine if c.outcome != "passed"]
    for notebook in notebooks:
        stem = notebook.stem
        # nbval items: classname "notebooks.01-ranged-attacks.ipynb", name "Cell 3"
        cells = [c for c in cases if c.classname.endswith(f"{stem}.ipynb")]
        if not cells:
            problems.append(f"nbval: no cell of notebooks/{notebook.name} ran")
        bad = Counter(c.outcome for c in cells if c.outcome != "passed")
        if bad:
            problems.append(f"nbval: notebooks/{notebook.name}: {dict(bad)}")
    if not notebooks:
        problems.append("nbval: notebooks/ holds no notebook")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("junit", type=Path)
    parser.add_argument("--make-log", type=Path)
    args = parser.parse_args(argv)

    cases = read_cases(args.junit) if args.junit.exists() else []
    counts = Counter(c.outcome for c in cases)
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    problems = [] if args.junit.exists() else [f"pytest did not run ({args.junit} missing)"]
    problems += requirement_problems(cases, notebooks)
    failed_steps = []
    if args.make_log and args.make_log.exists():
        failed_steps = [m.group(1) for m in MAKE_FAILURE.finditer(args.make_log.read_text())]

    print("--- ci check ---")
    print(f"pytest: {dict(counts) or 'nothing ran'}")
    for case in cases:
        if case.outcome in ("failed", "error"):
            print(f"  {case.outcome}: {case.where()}")
        elif case.outcome == "skipped":
            print(f"  skipped: {case.where()}")
    for step in failed_steps:
        print(f"make step failed: {step}")
    for problem in problems:
        print(f"required: {problem}")
    # `unit` fails exactly when pytest reports failures: count it once.
    failed = (
        counts["failed"]
        + counts["error"]
        + len([s for s in failed_steps if s not in ("unit", "test")])
        + len(problems)
    )
    print(f"ci: {counts['passed']} passed, {failed} failed, {counts['skipped']} skipped")
    return 1 if failed or failed_steps else 0


if __name__ == "__main__":
    sys.exit(main())
