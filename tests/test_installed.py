"""fwwrules as users install it: built, installed outside the repository, used from an empty
folder.

From the files git tracks (what a fresh clone has, with this working tree's edits; nothing
untracked or ignored), it builds

* the wheel straight from the source, with the *lowest* setuptools that ``pyproject.toml``
  allows (so the build floor is true), and
* the sdist, and a wheel from the sdist (the current setuptools), the way ``uv build`` and
  ``python -m build`` do.

The two wheels must hold the same files with the same contents. Then the source copy is deleted
and each of (the wheel with ``[lab]``, the sdist with ``[widgets]``) is installed into a new
environment in a temporary folder. With no source tree on ``sys.path`` (checked), from an empty
folder, it runs every ``fwwrules`` command of the README's shell blocks (read from the
README, not copied here), imports every module and panel, builds an ``AttackPanel`` and a
``BoardEditor`` headless and saves a board, and runs notebook 10 with nbval against the
installed package.

The build and the file lists run in every ``make test`` (a few seconds). Installing and running
(about a minute with uv's cache warm) runs when ``FWWRULES_INSTALLED_TEST=1``
(``make test-installed``; ``.ci/run`` sets it, and tools/ci_check.py fails CI when it did not
run). Timings go to ``artifacts/installed-test.txt`` when that folder exists.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
import tomllib
from test_readme_commands import readme_commands

REPO = Path(__file__).resolve().parents[1]
RUN = os.environ.get("FWWRULES_INSTALLED_TEST", "") not in ("", "0")
NOTEBOOK = "10-write-your-own-scenario.ipynb"
# Each artifact with the extra a user would install it with: the issue's `pip install
# fwwrules-*.whl[lab]`, and a Jupyter of one's own with the panels only.
INSTALLS = {"wheel": "lab", "sdist": "widgets"}
# Test tools for the notebook run; not part of what ships.
NOTEBOOK_TOOLS = ("pytest", "nbval")
TIMINGS: dict[str, float] = {}


@dataclass
class Built:
    """The artifacts, and what the test needs from the source copy (deleted after the build)."""

    wheel: Path
    sdist: Path
    wheel_from_sdist: Path
    version: str
    readme: str
    material: Path  # the notebook, its scenarios/ and notebooks/sanitize.cfg
    tracked: list[str] = field(default_factory=list)


def _run(cmd: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (
        f"{' '.join(map(str, cmd))} exited {done.returncode}:\n"
        f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def _uv() -> str:
    uv = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    assert uv, "uv is missing (it comes with the dev extra)"
    return uv


def _uv_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(UV_PYTHON_DOWNLOADS="never", UV_COMPILE_BYTECODE="1", UV_NO_PROGRESS="1")
    return env


def _tracked_copy(dest: Path) -> list[str]:
    """The files git tracks, as this working tree has them, copied to ``dest``."""
    out = _run(["git", "ls-files", "-z"], cwd=REPO)
    names = [n for n in out.split("\0") if n and (REPO / n).is_file()]
    for name in names:
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    return names


def _setuptools_floor(pyproject: Path) -> str:
    """The lowest setuptools that the build requirements allow (``setuptools>=X``)."""
    requires = tomllib.loads(pyproject.read_text())["build-system"]["requires"]
    floors = [re.fullmatch(r"setuptools>=([\d.]+)", r.replace(" ", "")) for r in requires]
    found = [m.group(1) for m in floors if m]
    assert len(found) == 1, f"no single setuptools>=X build requirement in {requires}"
    return found[0]


def _one(folder: Path, pattern: str) -> Path:
    (found,) = folder.glob(pattern)
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("installed")
    assert not root.is_relative_to(REPO)
    src = root / "src"
    start = time.perf_counter()
    tracked = _tracked_copy(src)
    floor = root / "build-floor.txt"
    floor.write_text(f"setuptools=={_setuptools_floor(src / 'pyproject.toml')}\n")
    uv, env = _uv(), _uv_env()
    _run(
        [uv, "build", "--wheel", "--build-constraint", floor, "-o", root / "tree", src],
        cwd=root,
        env=env,
    )
    _run([uv, "build", "-o", root / "dist", src], cwd=root, env=env)
    TIMINGS["build (wheel at the floor, sdist, wheel from the sdist)"] = time.perf_counter() - start

    material = root / "material"
    (material / "scenarios").mkdir(parents=True)
    shutil.copy2(src / "notebooks" / NOTEBOOK, material / NOTEBOOK)
    shutil.copy2(src / "notebooks" / "sanitize.cfg", material / "sanitize.cfg")
    for scenario in (src / "notebooks" / "scenarios").iterdir():
        shutil.copy2(scenario, material / "scenarios" / scenario.name)
    version = re.search(
        r'^__version__ = "([^"]+)"', (src / "fwwrules/__init__.py").read_text(), re.M
    )
    assert version
    built = Built(
        wheel=_one(root / "tree", "*.whl"),
        sdist=_one(root / "dist", "*.tar.gz"),
        wheel_from_sdist=_one(root / "dist", "*.whl"),
        version=version.group(1),
        readme=(src / "README.md").read_text(encoding="utf-8"),
        material=material,
        tracked=tracked,
    )
    shutil.rmtree(src)  # nothing installed may lean on the source copy
    return built


def _wheel_files(wheel: Path) -> dict[str, str]:
    """Every file of the wheel with its sha256 from RECORD (RECORD itself without one)."""
    with zipfile.ZipFile(wheel) as z:
        (record,) = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")]
        rows = csv.reader(io.StringIO(z.read(record).decode()))
        files = {name: digest for name, digest, *_ in rows}
        assert set(files) == set(z.namelist())
        for name in z.namelist():
            if name != record:
                digest = base64.urlsafe_b64encode(hashlib.sha256(z.read(name)).digest())
                assert files[name] == "sha256=" + digest.rstrip(b"=").decode(), name
        return files


def _wheel_text(wheel: Path, name: str) -> list[str]:
    """A text file of the wheel, without the line naming the tool that built it."""
    with zipfile.ZipFile(wheel) as z:
        lines = z.read(name).decode().splitlines()
    return [line for line in lines if not line.startswith("Generator:")]


def _expected_package_files(tracked: list[str]) -> set[str]:
    """The tracked files the wheel must carry (every file of both packages' folders), by
    their installed names."""
    names = {"fwwrules": "fwwrules", "widgets": "fwwrules_widgets"}
    out = set()
    for name in tracked:
        top, _, rest = name.partition("/")
        if top in names and rest:
            out.add(f"{names[top]}/{rest}")
    return out


def test_wheel_holds_every_package_file_and_the_sdist_builds_the_same_wheel(built: Built) -> None:
    files = _wheel_files(built.wheel)
    from_sdist = _wheel_files(built.wheel_from_sdist)
    dist_info = f"fwwrules-{built.version}.dist-info/"
    expected = _expected_package_files(built.tracked)
    assert {"fwwrules/grid/__init__.py", "fwwrules/examples/grid/rogue.yaml"} <= expected
    data = f"fwwrules-{built.version}.data/data/"
    package_files = {n for n in files if not n.startswith((dist_info, data))}
    assert package_files == expected
    # the Jupyter server extension's switch (fwwrules_widgets.server) and JupyterLab's setting
    # that saves the panels' state with a notebook (a restarted kernel's panels say so over
    # their last picture), and nothing else
    server_config = "etc/jupyter/jupyter_server_config.d/fwwrules_widgets.json"
    lab_setting = "share/jupyter/lab/settings/overrides.d/fwwrules_widgets.json"
    assert {n for n in files if n.startswith(data)} == {data + server_config, data + lab_setting}
    assert {"fwwrules/py.typed", "fwwrules_widgets/py.typed"} <= package_files
    assert f"{dist_info}licenses/LICENSE" in files
    # The same wheel: the same files with the same bytes, but for RECORD (the hashes) and
    # WHEEL's `Generator:` line (two setuptools versions built them).
    assert files.keys() == from_sdist.keys()
    differ = [n for n in files if files[n] != from_sdist[n] and not n.endswith("/RECORD")]
    assert differ in ([], [f"{dist_info}WHEEL"]), differ
    wheel_file = [
        _wheel_text(w, f"{dist_info}WHEEL") for w in (built.wheel, built.wheel_from_sdist)
    ]
    assert wheel_file[0] == wheel_file[1]
    with zipfile.ZipFile(built.wheel) as z:
        metadata = z.read(f"{dist_info}METADATA").decode()
        entry_points = z.read(f"{dist_info}entry_points.txt").decode()
    assert f"\nVersion: {built.version}\n" in metadata
    assert "\nLicense-Expression: MIT\n" in metadata
    for extra in ("draw", "widgets", "lab", "dev"):
        assert f"\nProvides-Extra: {extra}\n" in metadata, extra
    assert "fwwrules = fwwrules.cli:run" in entry_points


def test_sdist_holds_the_sources_license_and_changelog(built: Built) -> None:
    with tarfile.open(built.sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    for name in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in"):
        assert name in names, name
    sources = {
        n.replace("fwwrules_widgets/", "widgets/", 1)
        for n in _expected_package_files(built.tracked)
    }
    assert sources <= names, sorted(sources - names)
    assert not [n for n in names if n.startswith(("tests/", "notebooks/", ".ci/"))]


# -- installed into a new environment, used from an empty folder ------------------------------

_WHERE = """
import json, sys
import fwwrules, fwwrules_widgets
print(json.dumps({"path": sys.path, "prefix": sys.prefix, "fwwrules": fwwrules.__file__,
                  "fwwrules_widgets": fwwrules_widgets.__file__}))
"""

# Imports every module of both packages, then the README's panels, headless.
_PANELS = """
import importlib, pkgutil, sys
import matplotlib
matplotlib.use("Agg")
import fwwrules, fwwrules_widgets
for package in (fwwrules, fwwrules_widgets):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if info.name != "fwwrules.__main__":
            importlib.import_module(info.name)
for name in fwwrules_widgets.__all__:
    getattr(fwwrules_widgets, name)
from fwwrules_widgets import AttackPanel, BoardEditor, GridPanel, MeleePanel, ThreatPanel

board = fwwrules.load(fwwrules.example_path("cover-example-1"))
panel = AttackPanel(board, attacker="brute", target="knight", interactive=False)
assert panel.ruling.skill.modifier == -4 and panel.ruling.armor.bonus == 1, panel.ruling
assert panel.artists and "data:image/png" in panel._repr_mimebundle_()["text/html"]

editor = BoardEditor(units="in", size=(24, 24), interactive=False)
editor.add_model((4, 4), name="Knight", faction="bos", skills={"rifle": 7}, weapons=["rifle"])
editor.add_model((14, 4), name="Raider", faction="raiders", weapons=["pistol"])
editor.add_rect((8, 2), (10, 6), kind="cover", name="Crate", height=1.0)
saved = editor.save("editor-board.yaml")
assert fwwrules.load(saved) == editor.scenario
again = BoardEditor.from_file(saved, interactive=False)
assert again.scenario == editor.scenario
MeleePanel(fwwrules.load(fwwrules.example_path("melee-outnumbered-1")), interactive=False)
GridPanel(fwwrules.load(fwwrules.example_path("grid/rogue")))
# the browser halves are files of the installed package, read by the widget classes
from fwwrules_widgets.board_canvas import _board_canvas_class, restart_notice
for widget in (_board_canvas_class(), restart_notice("restarted")):
    assert "export default" in widget._esm and ".fwwrules-" in widget._css, widget
print("panels ok")
"""

# A first cell for the notebook copy: its kernel imports the installed package.
_KERNEL_CHECK = (
    "import sys, fwwrules, fwwrules_widgets\n"
    "assert fwwrules.__file__.startswith(sys.prefix), fwwrules.__file__\n"
    "assert fwwrules_widgets.__file__.startswith(sys.prefix), fwwrules_widgets.__file__"
)


def _record(lines: list[str]) -> None:
    artifacts = REPO / "artifacts"
    if artifacts.is_dir():
        with (artifacts / "installed-test.txt").open("a", encoding="utf-8") as out:
            out.write("\n".join(lines) + "\n")


@pytest.mark.installed
@pytest.mark.skipif(not RUN, reason="slow: set FWWRULES_INSTALLED_TEST=1 (make test-installed)")
@pytest.mark.parametrize("artifact", list(INSTALLS))
def test_installed_package_runs_the_readme_panels_and_a_notebook(
    built: Built, artifact: str, tmp_path: Path
) -> None:
    extra = INSTALLS[artifact]
    source = built.wheel if artifact == "wheel" else built.sdist
    venv, work = tmp_path / "venv", tmp_path / "empty"
    work.mkdir()
    assert not tmp_path.is_relative_to(REPO)
    uv, env = _uv(), _uv_env()
    python = venv / "bin" / "python"
    times: dict[str, float] = {}

    start = time.perf_counter()
    _run([uv, "venv", "--quiet", "--python", sys.executable, venv], cwd=tmp_path, env=env)
    install = [uv, "pip", "install", "--quiet", "--python", python]
    _run([*install, f"fwwrules[{extra}] @ {source.as_uri()}"], cwd=tmp_path, env=env)
    times["install"] = time.perf_counter() - start
    _run([*install, *NOTEBOOK_TOOLS], cwd=tmp_path, env=env)

    # The environment a user's shell has: its bin/ first, nothing of the repository.
    user = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "FWWRULES_"))}
    user.update(PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", VIRTUAL_ENV=str(venv))
    user.update(PYTHONHASHSEED="0", TZ="UTC", MPLBACKEND="Agg")
    user["FWWRULES_CACHE_DIR"] = str(tmp_path / "cache")  # a new user's: no pictures yet
    where = json.loads(_run([python, "-c", _WHERE], cwd=work, env=user))
    for entry in where["path"]:
        assert not Path(entry or work).resolve().is_relative_to(REPO), where["path"]
    site = Path(where["prefix"]).resolve()
    assert site == venv.resolve()
    for module in ("fwwrules", "fwwrules_widgets"):
        assert Path(where[module]).resolve().is_relative_to(site), where
    assert shutil.which("fwwrules", path=user["PATH"]) == str(venv / "bin" / "fwwrules")
    assert _run(["fwwrules", "--version"], cwd=work, env=user).split() == [
        "fwwrules",
        built.version,
    ]

    start = time.perf_counter()
    commands = readme_commands(built.readme)
    assert len(commands) >= 10
    for command in commands:
        done = subprocess.run(
            command, shell=True, cwd=work, env=user, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"README: `{command}` exited {done.returncode}:\n{done.stderr}"
        assert "Traceback" not in done.stderr, command
    assert (work / "board.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert (work / "review.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    times["README commands"] = time.perf_counter() - start

    if extra == "lab":  # the server extension is enabled in the environment, and loads
        listed = _run([venv / "bin" / "jupyter", "server", "extension", "list"], cwd=work, env=user)
        assert re.search(r"fwwrules_widgets\.server\s+(\x1b\[\d+m)?enabled", listed), listed
        assert re.search(r"fwwrules_widgets\.server\s+(\x1b\[\d+m)?OK", listed), listed

    start = time.perf_counter()
    assert _run([python, "-c", _PANELS], cwd=work, env=user).strip() == "panels ok"
    times["modules and panels"] = time.perf_counter() - start

    start = time.perf_counter()
    notebook_dir = tmp_path / "notebook"
    shutil.copytree(built.material, notebook_dir)
    nb = nbformat.read(notebook_dir / NOTEBOOK, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(_KERNEL_CHECK))
    nbformat.write(nb, notebook_dir / NOTEBOOK)
    out = _run(
        [
            python,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--nbval",
            "--nbval-current-env",
            "--nbval-sanitize-with",
            "sanitize.cfg",
            NOTEBOOK,
        ],
        cwd=notebook_dir,
        env=user,
    )
    cells = re.search(r"(\d+) passed", out)
    assert cells and int(cells.group(1)) == sum(c.cell_type == "code" for c in nb.cells), out
    assert not re.search(r"\d+ (failed|error)", out), out[-2000:]
    times["nbval"] = time.perf_counter() - start

    _record(
        [f"{artifact} [{extra}]: {source.name} {source.stat().st_size} bytes"]
        + [f"  {k}: {v:.1f} s" for k, v in {**TIMINGS, **times}.items()]
    )
