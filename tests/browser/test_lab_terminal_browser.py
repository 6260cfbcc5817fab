"""`make lab` as a user meets it: the README's command runs in JupyterLab's own terminal,
and autosave is on.

Starts the lab exactly as a user does (``make lab``, with only a port, a token and empty
private Jupyter folders added, so the settings are the ones the project installs), from a
``PATH`` without the environment's ``bin/`` (a user who never activated it), opens a terminal
in Chromium, types ``fwwrules examples`` and reads the terminal's screen. Before, it said
``fwwrules: command not found``: the server's ``PATH`` lacked the environment, and a
terminal's login shell reads /etc/profile, which on Debian sets ``PATH`` anew. A screenshot
goes to ``artifacts/lab-terminal.png``.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import (
    ARTIFACTS,
    REPO,
    _free_port,
    _wait_for_server,
)

pytestmark = pytest.mark.browser

# Every line of the terminal's buffer (xterm.js draws on a canvas; its buffer holds the text).
JS_TERMINAL_TEXT = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const term = w && w.content && w.content._term;
  if (!term) return null;
  const buffer = term.buffer.active;
  const lines = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i).translateToString(true));
  return lines.join('\\n');
}"""
TYPED = "fwwrules examples"
# The setting the lab serves: the user's if any (none here), else the default, into which the
# server has merged the project's overrides.
JS_AUTOSAVE = """async () => {
  const plugin = await window.jupyterapp.serviceManager.settings.fetch(
    '@jupyterlab/docmanager-extension:plugin');
  const user = plugin.settings || {};
  return 'autosave' in user ? user.autosave : plugin.schema.properties.autosave.default;
}"""


def _user_env(tmp: Path, token: str) -> dict[str, str]:
    """A user's environment: no virtual environment on PATH; private Jupyter folders."""
    venv_bin = str(REPO / ".venv" / "bin")
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p and p.rstrip("/") != venv_bin
    )
    env.update(
        JUPYTER_TOKEN=token,
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        IPYTHONDIR=str(tmp / "ipython"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
    )
    return env


def test_make_lab_terminal_runs_fwwrules_and_autosave_is_on(browser: Any, tmp_path: Path) -> None:
    port, token = _free_port(), secrets.token_hex(16)
    env = _user_env(tmp_path, token)
    lab_args = "--no-browser --ServerApp.port_retries=0 --LabApp.expose_app_in_browser=True"
    # The lab settings are brought up to date as `make lab` does; the packages are this test
    # run's own and never reinstalled under it (`-o` the install stamp).
    cmd = ["make", "--no-print-directory", "-o", ".venv/.installed", "lab", f"LAB_PORT={port}"]
    log = tmp_path / "lab.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*cmd, f"LAB_ARGS={lab_args}"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # make, its shell and the lab: one group, stopped below
        )
    page = None
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for_server(proc, f"{url}/api/status?token={token}", log)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{url}/lab/workspaces/{secrets.token_hex(6)}?reset&token={token}")
        page.wait_for_function(
            "() => !!window.jupyterapp && window.jupyterapp.commands.hasCommand("
            "'terminal:create-new')",
            timeout=60_000,
        )
        page.evaluate("async () => { await window.jupyterapp.restored; }")
        assert page.evaluate(JS_AUTOSAVE) is True
        page.evaluate("() => { window.jupyterapp.commands.execute('terminal:create-new'); }")
        page.wait_for_selector(".jp-Terminal .xterm", timeout=60_000)
        # The shell's prompt first, then type as a person does.
        deadline = time.monotonic() + 60
        while not (page.evaluate(JS_TERMINAL_TEXT) or "").strip():
            assert time.monotonic() < deadline, "the terminal shows no prompt"
            page.wait_for_timeout(200)
        page.click(".jp-Terminal .xterm")
        page.keyboard.type(TYPED, delay=15)
        page.keyboard.press("Enter")
        deadline = time.monotonic() + 60
        text = ""
        while "melee-shoot-into-hidden" not in text:
            assert "command not found" not in text, text
            assert time.monotonic() < deadline, f"no listing in the terminal:\n{text}"
            page.wait_for_timeout(250)
            text = page.evaluate(JS_TERMINAL_TEXT) or ""
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "lab-terminal.png"))
        after = text.split(TYPED, 1)[1]
        for name in ("cover-example-1", "grid/rogue", "melee-behemoth-slide"):
            assert name in after, text
    finally:
        if page is not None:
            page.close()
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
