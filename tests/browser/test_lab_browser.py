"""JupyterLab in a real browser: the attack panel of notebook 01 answers its controls.

Starts JupyterLab on 127.0.0.1 (free port, random token, its own settings and workspaces
folders) over a *copy* of ``notebooks/``, drives Debian's Chromium with Playwright, runs
every cell, and checks that choosing another target in the panel changes the ruling it
shows. A screenshot goes to ``artifacts/``.

Skips only when ``/usr/bin/chromium`` (or ``$FWWRULES_CHROMIUM``) is missing and
``FWWRULES_REQUIRE_BROWSER`` is unset; with it set (``.ci/run`` sets it) a missing browser
is a failure.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from .conftest import (  # the suite's one Lab server and Chromium (re-exported for others)
    ARTIFACTS,
    CHROMIUM_FLAGS,
    JS_KERNEL_IDLE,
    KERNEL_IDLE_TIMEOUT,
    REPO,
    RUN_ALL_TIMEOUT,
    Lab,
    chromium,
    lab,
)

pytestmark = pytest.mark.browser
__all__ = ["ARTIFACTS", "CHROMIUM_FLAGS", "JS_KERNEL_IDLE", "KERNEL_IDLE_TIMEOUT", "Lab"]
__all__ += ["RUN_ALL_TIMEOUT"]
__all__ += ["chromium", "lab"]  # fixtures, used by name

NOTEBOOK = "01-ranged-attacks.ipynb"
RULING_CHANGE_TIMEOUT = 30

# DOM: the output area of the panel's cell holds ipywidgets Dropdowns (<select>) and an
# HTML widget with the ruling in <div class="fwwrules-ruling">.
PANEL = ".jp-OutputArea-output"
RULING = ".fwwrules-ruling"
TARGET_LABEL = re.compile(r"^\s*(Target|Ziel)\s*$", re.IGNORECASE)


def test_attack_panel_ruling_follows_target_choice(lab: Lab) -> None:
    assert (REPO / "notebooks" / NOTEBOOK).exists(), f"notebooks/{NOTEBOOK} is missing"
    with lab.session(1400, 1200, failure_shot="browser-failure.png") as page:
        lab.open(page, NOTEBOOK)
        _drive(page)


def _drive(page: Any) -> None:
    # The attack panel's output: a ruling and a dropdown labelled Target (Ziel in German).
    target_label = page.locator(".widget-dropdown label", has_text=TARGET_LABEL)
    panel = page.locator(PANEL).filter(has=page.locator(RULING)).filter(has=target_label)
    ruling = panel.first.locator(RULING).first
    ruling.wait_for(state="visible", timeout=RUN_ALL_TIMEOUT * 1000)
    errors = panel.first.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0, errors.all_inner_texts()

    before = _text(ruling)
    assert before.strip(), "the attack panel shows an empty ruling"
    attacker = _selected(_dropdown(panel.first, "attacker", "angreifer"))
    target = _dropdown(panel.first, "target", "ziel")
    current = _selected(target)
    assert current in before, f"the ruling does not name the target {current!r}:\n{before}"
    labels = target.locator("option").all_text_contents()
    choices = [label for label in labels if _plain(label) not in (current, attacker)]
    assert choices, f"the target dropdown offers no other model: {labels}"
    target.select_option(label=choices[0])
    choice = _plain(choices[0])
    deadline = time.monotonic() + RULING_CHANGE_TIMEOUT
    after = before
    while (after == before or choice not in after) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        after = _text(ruling)
    # The panel's top (controls) and its ruling in view, without the file browser.
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    panel.first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(500)
    page.screenshot(path=str(ARTIFACTS / "browser-attack-panel.png"))
    assert after != before, (
        f"choosing target {choice!r} instead of {current!r} left the ruling unchanged:\n{before}"
    )
    assert choice in after, f"the ruling does not name the new target {choice!r}:\n{after}"
    assert panel.first.locator(".fwwrules-error").count() == 0, after


def _selected(select: Any) -> str:
    text: str = select.evaluate("s => s.options[s.selectedIndex].textContent")
    return _plain(text)


def _plain(text: str) -> str:
    """Dropdown labels use no-break spaces (ipywidgets keeps runs of spaces that way)."""
    return text.replace("\xa0", " ")


def _text(ruling: Any) -> str:
    """The ruling's text; the panel may swap the element while it updates, so retry."""
    from playwright.sync_api import Error

    for _ in range(20):
        try:
            text: str = ruling.inner_text(timeout=5000)
            return _plain(text)
        except Error:
            time.sleep(0.1)
    text = ruling.inner_text(timeout=5000)
    return _plain(text)


def _dropdown(panel: Any, *names: str) -> Any:
    """The <select> of the panel's Dropdown whose label starts with one of ``names``."""
    dropdowns = panel.locator(".widget-dropdown")
    labels = [t.strip().lower() for t in dropdowns.locator("label").all_inner_texts()]
    for index in range(dropdowns.count()):
        label = dropdowns.nth(index).locator("label").inner_text().strip().lower()
        if label.startswith(names):
            return dropdowns.nth(index).locator("select")
    raise AssertionError(f"no {names[0]} dropdown in the attack panel; labels: {labels}")
