"""One JupyterLab server and one Chromium for the whole browser suite, and the helpers every
browser test shares.

The server runs on 127.0.0.1 (free port, random token, its own settings, workspaces and
Jupyter folders) over a *copy* of ``notebooks/`` plus the notebooks the tests write
(``Lab.write_notebook``); it is stopped by its PID at the end of the session. Chromium is
Debian's (``/usr/bin/chromium`` or ``$FWWRULES_CHROMIUM``), driven by Playwright and launched
in one place (:func:`chromium_browser`: the ``lab`` fixture for notebooks, the ``browser``
fixture for a page opened from disk); tests make their own pages (``Lab.open``) and resize the
viewport instead of restarting anything.

Helpers: :func:`mouse_drag` / :func:`drag` (real mouse: press, moves in steps, release),
:func:`canvas_box`, :func:`board_synced` (the kernel has handled the board's messages so far:
probe after it), :func:`kernel_json` (a probe printed by the kernel), :func:`wait_until`
(probe until the *final* condition holds: the kernel answers a probe between any two of a
panel's updates, so waiting for the first change sees half-updated states), and
:func:`check_panels` (every panel of the open notebook fits and shows its board).

Without Chromium or playwright the tests skip, unless ``FWWRULES_REQUIRE_BROWSER`` is set
(``.ci/run`` sets it): then a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
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
# Seconds. Generous: CI machines have 2 cores shared with other work.
SERVER_START_TIMEOUT = 90
KERNEL_IDLE_TIMEOUT = 120
RUN_ALL_TIMEOUT = 240
OVERRIDES = REPO / "binder" / "overrides.json"
REQUIRED_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
}
# The tests' own settings on top of the shipped overrides (users keep autosave on): the server
# serves a copy of notebooks/, and no save during a run changes what a test reads.
TEST_ONLY_SETTINGS: dict[str, dict[str, Any]] = {
    "@jupyterlab/docmanager-extension:plugin": {"autosave": False},
}

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
# Runs Python in the open notebook's kernel and returns its stdout (for coordinates).
JS_KERNEL_RUN = """async (code) => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w.sessionContext.session.kernel;
  const future = k.requestExecute({code: code, silent: false, store_history: false});
  let out = '';
  let err = '';
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') err += msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  if (err) throw new Error(err);
  return out;
}"""


def require_or_skip(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (FWWRULES_REQUIRE_BROWSER is set, so this is a failure)")
    pytest.skip(f"{reason}; set FWWRULES_REQUIRE_BROWSER=1 to make this a failure")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _seed_user_settings(folder: Path) -> None:
    """Writes binder/overrides.json, plus the tests' own settings, as user settings (one file
    per plugin)."""
    overrides: dict[str, dict[str, Any]] = json.loads(OVERRIDES.read_text())
    for plugin, wanted in REQUIRED_SETTINGS.items():
        for key, value in wanted.items():
            assert overrides.get(plugin, {}).get(key) == value, (plugin, key)
    for plugin, values in TEST_ONLY_SETTINGS.items():
        overrides[plugin] = {**overrides.get(plugin, {}), **values}
    for plugin, values in overrides.items():
        package, name = plugin.split(":")
        path = folder / package / f"{name}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values, indent=2))


def _ignore_checkpoints(_dir: str, names: list[str]) -> list[str]:
    return [n for n in names if n == ".ipynb_checkpoints"]


def _wait_for_server(proc: subprocess.Popen[bytes], status_url: str, log: Path) -> None:
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(status_url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise RuntimeError(
        f"JupyterLab did not answer within {SERVER_START_TIMEOUT} s:\n{log.read_text()}"
    )


def code_notebook(*cells: str) -> dict[str, Any]:
    """A notebook (nbformat 4 JSON) with one code cell per source."""
    return {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "cells": [
            {
                "cell_type": "code",
                "id": f"cell-{i}",
                "metadata": {},
                "source": src,
                "outputs": [],
                "execution_count": None,
            }
            for i, src in enumerate(cells)
        ],
    }


@dataclass
class Lab:
    """The running server and the browser; ``open`` gives a page with a notebook running."""

    url: str
    token: str
    root: Path
    log: Path
    browser: Any
    console: list[str] = field(default_factory=list)

    def write_notebook(self, name: str, *cells: str) -> str:
        """Write a notebook into the server's ``notebooks/`` folder; returns its name."""
        (self.root / "notebooks" / name).write_text(json.dumps(code_notebook(*cells)))
        return name

    def new_page(
        self, width: int, height: int, scale: float = 1.0, *, downloads: bool = False
    ) -> Any:
        context = self.browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=scale,
            accept_downloads=downloads,
        )
        page = context.new_page()
        page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        return page

    @contextlib.contextmanager
    def session(
        self,
        width: int,
        height: int,
        scale: float = 1.0,
        *,
        downloads: bool = False,
        failure_shot: str | None = None,
    ) -> Iterator[Any]:
        """A new page for one test: on a failure the whole page is kept as ``failure_shot``
        (if named) and the browser console and the lab log are printed; afterwards the page
        is closed and every kernel stopped."""
        page = self.new_page(width, height, scale, downloads=downloads)
        try:
            yield page
        except Exception:
            if failure_shot is not None:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / failure_shot), full_page=True)
            print(self.tail())
            raise
        finally:
            page.context.close()
            self.shutdown_kernels()

    def open(self, page: Any, notebook: str, *, run_all: bool = True) -> None:
        """Open ``notebooks/<notebook>`` in a fresh workspace, wait for the kernel, Run All
        and wait until every cell has run."""
        workspace = secrets.token_hex(6)
        url = (
            f"{self.url}/lab/workspaces/{workspace}/tree/notebooks/{notebook}"
            f"?reset&token={self.token}"
        )
        page.goto(url)
        page.wait_for_function(JS_KERNEL_IDLE, timeout=KERNEL_IDLE_TIMEOUT * 1000)
        if not run_all:
            return
        # Not awaited: awaiting the command's promise inside evaluate hangs.
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        page.wait_for_timeout(500)
        page.wait_for_function(JS_ALL_RUN, timeout=RUN_ALL_TIMEOUT * 1000)

    def kernel(self, page: Any, code: str) -> str:
        """Run ``code`` in the open notebook's kernel; its printed output."""
        out: str = page.evaluate(JS_KERNEL_RUN, code)
        return out

    def shutdown_kernels(self) -> None:
        """Stop every kernel of the server (a notebook's kernel outlives its page)."""
        request = urllib.request.Request(f"{self.url}/api/sessions?token={self.token}")
        with urllib.request.urlopen(request, timeout=10) as response:
            sessions = json.loads(response.read())
        for s in sessions:
            req = urllib.request.Request(
                f"{self.url}/api/sessions/{s['id']}?token={self.token}", method="DELETE"
            )
            with contextlib.suppress(urllib.error.URLError):
                urllib.request.urlopen(req, timeout=20).close()

    def screenshot(self, page: Any, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / name
        page.screenshot(path=str(path))
        return path

    def tail(self) -> str:
        log = self.log.read_text(errors="replace")[-4000:].splitlines()
        lines = ["--- browser console ---", *self.console[-40:], "--- lab log ---", *log]
        return "\n".join(lines)


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium and the playwright package, or a skip (a failure in CI)."""
    if not CHROMIUM.exists():
        require_or_skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        require_or_skip("the playwright package is not installed (pip install -e '.[dev]')")
    return CHROMIUM


@contextmanager
def lab_server(tmp: Path) -> Iterator[Lab]:
    """A JupyterLab server over a copy of notebooks/, stopped by its PID afterwards."""
    root = tmp / "root"
    shutil.copytree(REPO / "notebooks", root / "notebooks", ignore=_ignore_checkpoints)
    settings = tmp / "user-settings"
    _seed_user_settings(settings)
    token = secrets.token_hex(16)
    port = _free_port()
    log = tmp / "lab.log"
    env = dict(os.environ)
    # Only this server's folders: no user config, kernelspecs or runtime files leak in.
    env.update(
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        IPYTHONDIR=str(tmp / "ipython"),
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
        f"--LabApp.workspaces_dir={tmp / 'workspaces'}",
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
        yield Lab(url=url, token=token, root=root, log=log, browser=None)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=20)


@contextmanager
def chromium_browser(chromium: Path) -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (the suite's flags), closed afterwards: the one
    place the suite launches a browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(chromium), args=CHROMIUM_FLAGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def with_browser(server: Lab, chromium: Path) -> Iterator[Lab]:
    """The server with a Chromium driven by Playwright, closed afterwards.

    Playwright's sync API allows one instance at a time in a thread, so a test module holds
    the browser only while its tests run (the ``lab`` fixture); others may start their own.
    """
    with chromium_browser(chromium) as browser:
        yield dataclasses.replace(server, browser=browser, console=[])


@contextmanager
def lab_session(tmp: Path, chromium: Path) -> Iterator[Lab]:
    """A server and a browser together (``bench/browser_latency.py``)."""
    with lab_server(tmp) as server, with_browser(server, chromium) as lab:
        yield lab


@pytest.fixture(scope="session")
def lab_instance(chromium: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The one JupyterLab server of the whole session."""
    with lab_server(tmp_path_factory.mktemp("lab")) as server:
        yield server


@pytest.fixture(scope="module")
def lab(lab_instance: Lab, chromium: Path) -> Iterator[Lab]:
    """The session's JupyterLab server with a Chromium for this test module's tests.

    Playwright's sync API allows one instance at a time in a thread: the browser lives as
    long as the module's tests, so a module may instead take a plain one (``browser``).
    """
    with with_browser(lab_instance, chromium) as session:
        yield session


@pytest.fixture(scope="module")
def browser(chromium: Path) -> Iterator[Any]:
    """A Chromium without a Lab server, for this test module (pages opened from disk)."""
    with chromium_browser(chromium) as b:
        yield b


# --- the mouse and the kernel -----------------------------------------------------------------

DRAG_STEPS = 12
"""Mouse moves between press and release: enough for a panel to see a drag, not a click."""
DRAG_PAUSE_MS = 60
WAIT_TIMEOUT = 60.0
"""Seconds :func:`wait_until` probes before it gives up (2 shared cores, a kernel per test)."""


def mouse_drag(
    page: Any,
    start: tuple[float, float],
    end: tuple[float, float],
    *,
    steps: int = DRAG_STEPS,
    pause_ms: int = DRAG_PAUSE_MS,
    before_release: Callable[[], None] | None = None,
) -> None:
    """A real drag in page pixels: press at ``start``, move in ``steps`` equal steps to
    ``end`` (pausing ``pause_ms`` after each), call ``before_release`` (e.g. a screenshot of
    the drag as the reader sees it), release."""
    (x0, y0), (x1, y1) = start, end
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, steps + 1):
        page.mouse.move(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps)
        page.wait_for_timeout(pause_ms)
    if before_release is not None:
        before_release()
    page.mouse.up()


def drag(page: Any, box: dict[str, float], start: Any, end: Any) -> None:
    """:func:`mouse_drag` from ``start`` to ``end`` given in CSS px from the top-left corner
    of ``box`` (a canvas's :func:`canvas_box`)."""
    mouse_drag(
        page,
        (box["x"] + start[0], box["y"] + start[1]),
        (box["x"] + end[0], box["y"] + end[1]),
    )


def canvas_box(page: Any, index: int = -1) -> dict[str, float]:
    """Page coordinates of the index-th board canvas of the open notebook."""
    canvases = page.locator(".fwwrules-board-canvas")
    count = canvases.count()
    assert count > 0, "no board canvas on the page: the board cannot be dragged"
    c = canvases.nth(index if index >= 0 else count + index)
    c.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    box: dict[str, float] = c.bounding_box()
    return box


PANEL_PROBE = """
import gc, json
from fwwrules_widgets import {cls}
_p = [o for o in gc.get_objects() if isinstance(o, {cls})][-1]
_fig = _p.view.figure
_ratio = float(getattr(_fig.canvas, "device_pixel_ratio", 1.0) or 1.0)
_h = _fig.bbox.height
def _css(xy):
    px, py = _p.view.ax.transData.transform(xy)
    return (px / _ratio, (_h - py) / _ratio)
"""


def panel_probe(cls: str, body: str) -> str:
    """Kernel code that finds the newest panel of class ``cls`` as ``_p`` (its figure
    ``_fig``, device pixel ratio ``_ratio``, height ``_h`` in pixels, ``_css(xy)``: board
    millimetres to CSS pixels from the canvas's top left corner), then runs ``body``."""
    return PANEL_PROBE.replace("{cls}", cls) + body


# Asks the kernel to answer once it has handled every message the board canvas sent before
# (board_canvas.js: "sync"); then the answer to sync n and the frame the browser shows.
JS_SYNC = """(n) => {
  const c = document.querySelector('.fwwrules-board-canvas');
  if (!c) return false;
  c.dispatchEvent(new CustomEvent('fwwrules-sync', {detail: n}));
  return true;
}"""
JS_SYNC_ANSWER = """(n) => {
  const c = document.querySelector('.fwwrules-board-canvas');
  const s = c && c.dataset.synced ? JSON.parse(c.dataset.synced) : null;
  if (!s || s.n !== n) return null;
  return {n: s.n, last: s.last, busy: s.busy, frame: +c.dataset.frame};
}"""
_SYNCS = itertools.count(1)


def board_synced(page: Any, timeout: float = WAIT_TIMEOUT) -> dict[str, Any]:
    """Wait until the kernel has handled every message the page's board canvas sent before
    this call (the mouse moves so far) and the browser shows the last frame that followed.

    Call it before probing the kernel about a drag: the kernel may handle the board's
    messages on a subshell thread and a probe (an execute request, on the main shell) before
    them, so a probe alone can describe the board before the mouse moved. Returns the last
    answer (``last``: the kernel's last frame, ``busy``: one still due, ``frame``: the one
    the browser shows).
    """
    deadline = time.monotonic() + timeout
    while True:
        n = next(_SYNCS)
        assert page.evaluate(JS_SYNC, n), "no board canvas on the page"
        handle = page.wait_for_function(JS_SYNC_ANSWER, arg=n, timeout=timeout * 1000)
        answer: dict[str, Any] = handle.json_value()
        if (not answer["busy"] and answer["frame"] == answer["last"]) or (
            time.monotonic() > deadline
        ):
            return answer
        page.wait_for_timeout(100)


def kernel_json(lab: Lab, page: Any, code: str) -> dict[str, Any]:
    """Run ``code`` in the open notebook's kernel; the JSON object its last printed line is."""
    out = lab.kernel(page, code)
    data: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return data


def wait_until(
    probe: Callable[[], dict[str, Any]],
    done: Callable[[dict[str, Any]], bool],
    page: Any,
    timeout: float = WAIT_TIMEOUT,
) -> dict[str, Any]:
    """Probe until ``done`` holds for the probed state, or ``timeout`` seconds pass; returns
    the last state (the caller's asserts then say what is missing).

    Give ``done`` the *final* condition, every field the test then asserts: the kernel answers
    a probe between any two of a panel's updates, so a state where one field has changed and
    the next has not been written yet can be seen.
    """
    deadline = time.monotonic() + timeout
    now = probe()
    while not done(now) and time.monotonic() < deadline:
        page.wait_for_timeout(300)
        now = probe()
    return now


# --- every panel fits and shows its board -----------------------------------------------------

MIN_BOARD_PX = 300
CANVAS_TIMEOUT = 30

# A panel: an output area holding a widget view with a board (a board canvas or an image).
JS_PANEL_CELLS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const out = [];
  w.content.widgets.forEach((c, i) => {
    if (c.model.type !== 'code') return;
    const n = c.node;
    if (n.querySelector('.jupyter-widgets') || /Loading widget|Error displaying widget/
        .test(n.innerText)) out.push(i);
  });
  return out;
}"""
JS_SCROLL_TO = """async (i) => {
  const w = window.jupyterapp.shell.currentWidget;
  await w.content.scrollToItem(i, 'start');
  const node = w.content.widgets[i].node;
  const out = node.querySelector('.jp-Cell-outputWrapper') || node;
  out.scrollIntoView({block: 'start'});
}"""
JS_CANVASES_SIZED = """(i) => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[i];
  return [...cell.node.querySelectorAll('.fwwrules-board-canvas')]
    .every(c => c.getBoundingClientRect().width > 0 && +c.dataset.frame > 0);
}"""
# Problems of the panel in cell i, as text.
JS_CHECK_PANEL = """(i) => {
  const w = window.jupyterapp.shell.currentWidget;
  const cell = w.content.widgets[i];
  const problems = [];
  const text = cell.node.innerText;
  if (/Loading widget/.test(text)) problems.push('shows "Loading widget"');
  if (/Error displaying widget/.test(text)) problems.push('shows "Error displaying widget"');
  const errors = cell.node.querySelectorAll(
    '[data-mime-type="application/vnd.jupyter.stderr"], .jp-OutputArea-output.jp-mod-error');
  errors.forEach(e => problems.push('error output: ' + e.innerText.slice(0, 300)));
  const areas = cell.node.querySelectorAll('.jp-OutputArea-output');
  const boards = [];
  areas.forEach(area => {
    if (!area.querySelector('.jupyter-widgets')) return;
    const box = area.getBoundingClientRect();
    area.querySelectorAll('.fwwrules-board-canvas, .widget-image').forEach(b => {
      const r = b.getBoundingClientRect();
      const style = getComputedStyle(b);
      boards.push({w: r.width, h: r.height, visible: style.visibility !== 'hidden'
                   && style.display !== 'none' && r.width > 0 && r.height > 0});
    });
    area.querySelectorAll('.jupyter-widgets *').forEach(e => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) return;
      if (e.closest('option')) return;
      if (r.right > box.right + 1 || r.left < box.left - 1) {
        problems.push('sticks out of the output area by ' + Math.round(r.right - box.right)
          + ' px: <' + e.tagName.toLowerCase() + ' class="' + e.className + '"> '
          + (e.innerText || '').slice(0, 40));
      }
    });
    const ctx = document.createElement('canvas').getContext('2d');
    area.querySelectorAll('.widget-dropdown select').forEach(s => {
      const cs = getComputedStyle(s);
      ctx.font = cs.font;
      const opt = s.options[s.selectedIndex];
      const label = opt ? opt.textContent : '';
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
      const need = ctx.measureText(label).width;
      if (need > room) problems.push('dropdown text cut: "' + label + '" needs '
        + Math.round(need) + ' px, has ' + Math.round(room));
    });
  });
  if (!boards.length) problems.push('no board (canvas or picture) in the panel');
  boards.forEach(b => {
    if (!b.visible) problems.push('board not visible: ' + JSON.stringify(b));
    else if (b.w < MIN) problems.push('board only ' + Math.round(b.w) + ' px wide');
  });
  return problems;
}""".replace("MIN", str(MIN_BOARD_PX))


def check_panels(lab: Lab, page: Any, notebook: str, size: tuple[int, int]) -> list[str]:
    """Problems of every panel of the open notebook at ``size`` (screenshots of each go to
    ``artifacts/``); empty when all fit and show their board."""
    cells: list[int] = page.evaluate(JS_PANEL_CELLS)
    problems = []
    for n, i in enumerate(cells):
        page.evaluate(JS_SCROLL_TO, i)
        page.wait_for_timeout(400)
        # The canvases get their size once the kernel answers the browser's first call; a
        # canvas that never does is reported below as "board not visible".
        with contextlib.suppress(Exception):
            page.wait_for_function(JS_CANVASES_SIZED, arg=i, timeout=CANVAS_TIMEOUT * 1000)
        found: list[str] = page.evaluate(JS_CHECK_PANEL, i)
        problems += [f"{notebook} cell {i} at {size[0]}x{size[1]}: {p}" for p in found]
        stem = notebook.removesuffix(".ipynb")
        lab.screenshot(page, f"panel-{stem}-{n + 1}-{size[0]}x{size[1]}.png")
    if not cells and _has_panel(notebook):
        problems.append(f"{notebook}: no panel found")
    return problems


def _has_panel(notebook: str) -> bool:
    """Whether the notebook makes a panel (an AttackPanel, ExampleStepper ... in a cell)."""
    path = REPO / "notebooks" / notebook
    if not path.exists():
        return True  # the tests' own notebooks all hold one
    nb = json.loads(path.read_text())
    sources = ("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    return any(re.search(r"\b(\w*Panel|ExampleStepper|BoardEditor)\(", s) for s in sources)
