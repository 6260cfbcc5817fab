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

import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = "01-ranged-attacks.ipynb"
ARTIFACTS = REPO / "artifacts"
CHROMIUM = Path(os.environ.get("FWWRULES_CHROMIUM", "/usr/bin/chromium"))
REQUIRE = os.environ.get("FWWRULES_REQUIRE_BROWSER", "") not in ("", "0")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
# Seconds. Generous: CI machines have 2 cores, and the first kernel start compiles nothing
# but still imports numpy, shapely, matplotlib and ipywidgets.
SERVER_START_TIMEOUT = 90
KERNEL_IDLE_TIMEOUT = 120
RUN_ALL_TIMEOUT = 180
RULING_CHANGE_TIMEOUT = 30
# The lab settings a visitor gets on Binder (binder/overrides.json), seeded as user settings.
OVERRIDES = REPO / "binder" / "overrides.json"
REQUIRED_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}

# DOM: the output area of the panel's cell holds ipywidgets Dropdowns (<select>) and an
# HTML widget with the ruling in <div class="fwwrules-ruling">.
PANEL = ".jp-OutputArea-output"
RULING = ".fwwrules-ruling"
TARGET_LABEL = re.compile(r"^\s*(Target|Ziel)\s*$", re.IGNORECASE)

JS_KERNEL_IDLE = """() => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session
    && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""
# Every code cell has run (no "[*]" or "[ ]" prompt left) and the kernel is idle.
JS_ALL_RUN = """() => {
  const app = window.jupyterapp;
  const w = app && app.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session
    && w.sessionContext.session.kernel;
  if (!k || k.status !== 'idle') return false;
  const cells = w.content.widgets.filter(c => c.model.type === 'code');
  return cells.length > 0 && cells.every(c => c.model.executionCount !== null);
}"""


def _require_or_skip(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (FWWRULES_REQUIRE_BROWSER is set, so this is a failure)")
    pytest.skip(f"{reason}; set FWWRULES_REQUIRE_BROWSER=1 to make this a failure")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _seed_user_settings(folder: Path) -> None:
    """Writes binder/overrides.json as user settings (one file per plugin)."""
    overrides: dict[str, dict[str, Any]] = json.loads(OVERRIDES.read_text())
    for plugin, wanted in REQUIRED_SETTINGS.items():
        for key, value in wanted.items():
            assert overrides.get(plugin, {}).get(key) == value, (plugin, key)
    for plugin, values in overrides.items():
        package, name = plugin.split(":")
        path = folder / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2))


@dataclass(frozen=True)
class Lab:
    url: str
    token: str
    log: Path


@pytest.fixture
def chromium() -> Path:
    """Debian's Chromium and the playwright package, or a skip (a failure in CI)."""
    if not CHROMIUM.exists():
        _require_or_skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _require_or_skip("the playwright package is not installed (pip install -e '.[dev]')")
    return CHROMIUM


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Lab]:
    """A JupyterLab server over a copy of notebooks/, stopped by its PID afterwards."""
    root = tmp_path / "root"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=_ignore_checkpoints)
    settings = tmp_path / "user-settings"
    _seed_user_settings(settings)
    token = secrets.token_hex(16)
    port = _free_port()
    log = tmp_path / "lab.log"
    env = dict(os.environ)
    # Only this server's folders: no user config, kernelspecs or runtime files leak in.
    env.update(
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        IPYTHONDIR=str(tmp_path / "ipython"),
    )
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
        f"--LabApp.user_settings_dir={settings}",
        "--LabApp.expose_app_in_browser=True",
    ]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=root)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for_server(proc, f"{url}/api/status?token={token}", log)
        yield Lab(url=url, token=token, log=log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


def _ignore_checkpoints(_dir: str, names: list[str]) -> list[str]:
    return [n for n in names if n == ".ipynb_checkpoints"]


def _wait_for_server(proc: subprocess.Popen[bytes], status_url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"JupyterLab exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(status_url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    pytest.fail(f"JupyterLab did not answer within {SERVER_START_TIMEOUT} s:\n{log.read_text()}")


def test_attack_panel_ruling_follows_target_choice(chromium: Path, lab: Lab) -> None:
    from playwright.sync_api import sync_playwright

    assert (REPO / "notebooks" / NOTEBOOK).exists(), f"notebooks/{NOTEBOOK} is missing"

    ARTIFACTS.mkdir(exist_ok=True)
    workspace = secrets.token_hex(6)
    url = f"{lab.url}/lab/workspaces/{workspace}/tree/notebooks/{NOTEBOOK}?reset&token={lab.token}"
    console: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1200})
            page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
            page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
            try:
                _drive(page, url)
            except Exception:
                page.screenshot(path=str(ARTIFACTS / "browser-failure.png"), full_page=True)
                print("--- browser console ---", *console[-50:], sep="\n")
                print("--- lab log ---", lab.log.read_text()[-5000:], sep="\n")
                raise
        finally:
            browser.close()


def _drive(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_function(JS_KERNEL_IDLE, timeout=KERNEL_IDLE_TIMEOUT * 1000)
    # Not awaited: awaiting the command's promise inside evaluate hangs.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")

    # The attack panel's output: a ruling and a dropdown labelled Target (Ziel in German).
    target_label = page.locator(".widget-dropdown label", has_text=TARGET_LABEL)
    panel = page.locator(PANEL).filter(has=page.locator(RULING)).filter(has=target_label)
    ruling = panel.first.locator(RULING).first
    ruling.wait_for(state="visible", timeout=RUN_ALL_TIMEOUT * 1000)
    page.wait_for_function(JS_ALL_RUN, timeout=RUN_ALL_TIMEOUT * 1000)
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
