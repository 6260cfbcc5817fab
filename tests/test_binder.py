"""Binder (repo2docker) setup in binder/: the files, and a build the way Binder does it.

The quick tests read the files. ``test_binder_build_runs_a_notebook`` builds a fresh venv
from ``binder/requirements.txt`` (the package built and installed, not editable), runs
``binder/postBuild`` into it and runs nbval on one notebook with it (about a minute). It
runs when ``FWWRULES_BINDER_BUILD=1`` (``make test-binder``; ``.ci/run`` sets it) and skips
otherwise.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import tomllib

REPO = Path(__file__).resolve().parents[1]
BINDER = REPO / "binder"
OVERRIDES = BINDER / "overrides.json"
NOTEBOOK = "notebooks/01-ranged-attacks.ipynb"
# What a visitor must not see: a "Select Kernel" dialog, a news popup.
REQUIRED_OVERRIDES: dict[str, dict[str, Any]] = {
    "@jupyterlab/notebook-extension:tracker": {"autoStartDefaultKernel": True},
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
}
# What the settings must leave as JupyterLab has it: a user's notebook is saved by autosave.
KEPT_DEFAULTS: dict[str, dict[str, Any]] = {
    "@jupyterlab/docmanager-extension:plugin": {"autosave": True},
}
BUILD = os.environ.get("FWWRULES_BINDER_BUILD", "") not in ("", "0")


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())


def _requirement_lines() -> list[str]:
    lines = (BINDER / "requirements.txt").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def test_binder_is_the_only_repo2docker_folder() -> None:
    # repo2docker reads binder/ or .binder/, never both, and then ignores the root files.
    assert BINDER.is_dir()
    assert not (REPO / ".binder").exists()


def test_binder_requirements_install_this_checkout_with_the_lab_extra() -> None:
    """Not editable: Binder builds and installs the package as a user's pip does."""
    lines = _requirement_lines()
    assert lines == [".[lab]"], lines
    extras = _pyproject()["project"]["optional-dependencies"]
    lab = " ".join(extras["lab"] + extras["widgets"] + extras["draw"])
    assert "fwwrules[widgets]" in extras["lab"] and "fwwrules[draw]" in extras["widgets"]
    for package in ("jupyterlab", "ipywidgets", "anywidget", "matplotlib"):
        assert package in lab, f"the lab extra lacks {package}"


def test_binder_runtime_is_a_supported_python() -> None:
    runtime = (BINDER / "runtime.txt").read_text().strip()
    match = re.fullmatch(r"python-3\.(\d+)", runtime)
    assert match, runtime
    minimum = re.fullmatch(r">=3\.(\d+)", _pyproject()["project"]["requires-python"])
    assert minimum, "requires-python is not of the form >=3.N"
    assert int(match.group(1)) >= int(minimum.group(1))


def test_binder_overrides_are_valid_lab_settings() -> None:
    """Every override names an installed plugin's property and fits its schema."""
    from jupyterlab.commands import get_app_dir

    overrides: dict[str, dict[str, Any]] = json.loads(OVERRIDES.read_text())
    for plugin, wanted in REQUIRED_OVERRIDES.items():
        assert {k: overrides.get(plugin, {}).get(k) for k in wanted} == wanted, plugin
    schemas = Path(get_app_dir()) / "schemas"
    for plugin, values in overrides.items():
        package, name = plugin.split(":")
        schema = json.loads((schemas / package / f"{name}.json").read_text())
        for key, value in values.items():
            assert key in schema["properties"], f"{plugin} has no setting {key!r}"
            jsonschema.validate(value, schema["properties"][key])


def test_lab_settings_keep_autosave_on() -> None:
    """The overrides (Binder and `make lab`) never switch autosave off: a user's own notebook
    must reach the disk."""
    overrides: dict[str, dict[str, Any]] = json.loads(OVERRIDES.read_text())
    docmanager = overrides.get("@jupyterlab/docmanager-extension:plugin", {})
    assert docmanager.get("autosave", True) is True
    assert docmanager.get("autosaveInterval", 120) <= 120


def test_binder_postbuild_installs_the_overrides(tmp_path: Path) -> None:
    postbuild = BINDER / "postBuild"
    text = postbuild.read_text()
    assert text.startswith("#!/bin/bash\n")
    assert re.search(r"^set -e", text, re.MULTILINE)
    assert os.access(postbuild, os.X_OK), "binder/postBuild must be executable"
    env = {**os.environ, "NB_PYTHON_PREFIX": str(tmp_path)}
    subprocess.run([str(postbuild)], cwd=REPO, env=env, check=True, capture_output=True)
    installed = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    assert installed.read_text() == OVERRIDES.read_text()


WIDGET_SETTINGS = REPO / "jupyter-config" / "lab" / "overrides.d" / "fwwrules_widgets.json"


def test_notebooks_are_saved_with_their_widget_state() -> None:
    """fwwrules_widgets' settings default (the wheel's overrides.d file, postBuild's copy): the
    widget manager saves widget state with the notebook, a valid setting of its schema."""
    from jupyterlab.commands import get_app_dir

    settings: dict[str, dict[str, Any]] = json.loads(WIDGET_SETTINGS.read_text())
    plugin = "@jupyter-widgets/jupyterlab-manager:plugin"
    assert settings == {plugin: {"saveState": True}}
    package, name = plugin.split(":")
    # a prebuilt extension keeps its settings schema beside it, next to the lab's own folder
    prebuilt = Path(get_app_dir()).parent / "labextensions" / package
    schema = json.loads((prebuilt / "schemas" / package / f"{name}.json").read_text())
    jsonschema.validate(True, schema["properties"]["saveState"])
    data = _pyproject()["tool"]["setuptools"]["data-files"]
    relative = str(WIDGET_SETTINGS.relative_to(REPO))
    assert data["share/jupyter/lab/settings/overrides.d"] == [relative]


def test_binder_postbuild_installs_the_widget_settings(tmp_path: Path) -> None:
    env = {**os.environ, "NB_PYTHON_PREFIX": str(tmp_path)}
    subprocess.run([str(BINDER / "postBuild")], cwd=REPO, env=env, check=True, capture_output=True)
    installed = tmp_path / "share/jupyter/lab/settings/overrides.d/fwwrules_widgets.json"
    assert installed.read_text() == WIDGET_SETTINGS.read_text()


def test_binder_postbuild_fails_without_nb_python_prefix() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NB_PYTHON_PREFIX"}
    done = subprocess.run([str(BINDER / "postBuild")], cwd=REPO, env=env, capture_output=True)
    assert done.returncode != 0
    assert b"NB_PYTHON_PREFIX" in done.stderr


# The lab settings a server started from the Binder venv would serve.
_EFFECTIVE_DEFAULTS = """
import json, os, sys
from jupyter_core.paths import jupyter_path
from jupyterlab.commands import get_app_dir
from jupyterlab_server.settings_utils import get_settings
app = get_app_dir()
wanted = json.loads(sys.argv[1])
out = {}
for plugin, keys in wanted.items():
    # prebuilt extensions (the widget manager) keep their schemas in labextensions folders
    result, _ = get_settings(os.path.join(app, "settings"), os.path.join(app, "schemas"),
                             os.path.join(sys.argv[2]), schema_name=plugin,
                             labextensions_path=jupyter_path("labextensions"))
    props = result["schema"]["properties"]
    out[plugin] = {k: props[k]["default"] for k in keys}
print(json.dumps(out))
"""


# Where the environment's fwwrules comes from (run outside the repository).
_INSTALLED_FROM = """
import importlib.metadata, json
import fwwrules, fwwrules_widgets
url = importlib.metadata.distribution("fwwrules").read_text("direct_url.json") or "{}"
print(json.dumps({"editable": json.loads(url).get("dir_info", {}).get("editable", False),
                  "fwwrules": fwwrules.__file__, "fwwrules_widgets": fwwrules_widgets.__file__}))
"""


def _copy_repo(dest: Path) -> Path:
    """The checkout as repo2docker copies it (without local environments and caches)."""
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "artifacts"
    )
    shutil.copytree(REPO, dest, ignore=ignore)
    return dest


@pytest.mark.binder
@pytest.mark.skipif(not BUILD, reason="slow: set FWWRULES_BINDER_BUILD=1 (make test-binder)")
def test_binder_build_runs_a_notebook(tmp_path: Path) -> None:
    repo = _copy_repo(tmp_path / "repo")
    prefix = tmp_path / "notebook-env"
    python = prefix / "bin" / "python"

    def run(*cmd: str | Path, cwd: Path = repo, **env: str) -> str:
        done = subprocess.run(
            [str(c) for c in cmd],
            cwd=cwd,
            env={**os.environ, **env},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"{cmd} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
        return done.stdout

    # What repo2docker's Python build pack does, in order: runtime.txt's Python,
    # `pip install -r binder/requirements.txt` in the copied repo, then postBuild (as
    # `repo2docker --no-build --debug .` shows in the Dockerfile it would use).
    runtime = (repo / "binder" / "runtime.txt").read_text().strip()
    assert runtime == f"python-{sys.version_info.major}.{sys.version_info.minor}", (
        f"this check needs the Python of runtime.txt ({runtime})"
    )
    # uv stands in for pip (the same requirements, several times faster, and its cache is
    # warm from `make env`).
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is missing (it comes with the dev extra)"
    install = (uv, "pip", "install", "--quiet", "--python", python)
    uv_env = {"UV_PYTHON_DOWNLOADS": "never", "UV_COMPILE_BYTECODE": "1"}
    run(sys.executable, "-m", "venv", prefix)
    run(*install, "-r", "binder/requirements.txt", **uv_env)
    run("binder/postBuild", NB_PYTHON_PREFIX=str(prefix))

    expected = {**REQUIRED_OVERRIDES, **KEPT_DEFAULTS, **json.loads(WIDGET_SETTINGS.read_text())}
    wanted = {plugin: list(keys) for plugin, keys in expected.items()}
    served = json.loads(
        run(python, "-c", _EFFECTIVE_DEFAULTS, json.dumps(wanted), tmp_path / "no-user-settings")
    )
    assert served == expected

    # Installed as a user's pip installs it: files in the environment, not links to the copy.
    where = json.loads(run(python, "-c", _INSTALLED_FROM, cwd=tmp_path))
    assert not where["editable"], where
    for module in ("fwwrules", "fwwrules_widgets"):
        assert Path(where[module]).is_relative_to(prefix), where

    # The test tools are not part of the image; the notebook runs in the image's Python.
    run(*install, "pytest", "nbval", **uv_env)
    out = run(
        python,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "--nbval",
        "--nbval-current-env",
        "--nbval-sanitize-with",
        "notebooks/sanitize.cfg",
        NOTEBOOK,
        PYTHONHASHSEED="0",
        TZ="UTC",
    )
    counts = re.search(r"(\d+) passed", out)
    assert counts and int(counts.group(1)) > 0, out[-2000:]
    assert not re.search(r"\d+ (failed|error)", out), out[-2000:]
