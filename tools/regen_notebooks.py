#!/usr/bin/env python3
"""Re-execute the notebooks in place and store clean, reproducible reference outputs.

    python tools/regen_notebooks.py [NOTEBOOK ...]    # default: notebooks/*.ipynb
    python tools/regen_notebooks.py --check [NOTEBOOK ...]

Each notebook runs top to bottom in a fresh kernel of *this* Python (as nbval's
``--nbval-current-env`` does), with its own folder as working directory and the
deterministic settings of ``DETERMINISTIC_ENV`` (the Makefile exports the same ones for
nbval), and an empty IPython profile whose PNG figures carry no matplotlib version.
Then the volatile parts are removed, so re-running on an unchanged notebook gives an
unchanged file:

- notebook metadata: widget state, the Python patch version, editor leftovers;
- cell metadata: execution timings, UI state (``collapsed``, ``scrolled``);
- widget views get model ids derived from notebook name and cell position instead of
  random ones (nbval ignores widget views; the ids only made diffs noisy).

A cell tagged ``raises-exception`` must raise: one that does not is an error here (nbval
would let it pass). Any other error stops the run and leaves the file untouched.

``--check`` executes nothing: it reports notebooks that were not stored by this tool
(unrun cells, execution counts out of order, volatile metadata).
Exit status: 0 fine, 1 a notebook failed or is not clean, 2 usage error.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
DETERMINISTIC_ENV = {"PYTHONHASHSEED": "0", "TZ": "UTC"}
CELL_TIMEOUT_S = 300
KERNEL_CONFIG = """\
c.InlineBackend.print_figure_kwargs = {"bbox_inches": "tight", "metadata": {"Software": None}}
"""
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# language_info keys that do not change between machines (the version does).
LANGUAGE_INFO_KEYS = (
    "name",
    "codemirror_mode",
    "file_extension",
    "mimetype",
    "nbconvert_exporter",
    "pygments_lexer",
)
VOLATILE_NOTEBOOK_METADATA = ("widgets", "vscode", "toc", "varInspector", "colab", "execution")
VOLATILE_CELL_METADATA = ("execution", "collapsed", "scrolled", "ExecuteTime")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
RAISES = "raises-exception"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/*.ipynb")
    parser.add_argument("--check", action="store_true", help="only check, execute nothing")
    args = parser.parse_args(argv)
    paths: list[Path] = args.notebooks or sorted(NOTEBOOKS.glob("*.ipynb"))
    if not paths:
        print(f"no notebooks in {NOTEBOOKS}", file=sys.stderr)
        return 1
    failed = 0
    for path in paths:
        if args.check:
            problems = check(path)
            for problem in problems:
                print(f"{path}: {problem}", file=sys.stderr)
            failed += bool(problems)
            continue
        try:
            regenerate(path)
            print(f"regenerated {path}")
        except Exception as error:  # report and carry on with the next notebook
            print(f"FAILED {path}: {type(error).__name__}: {error}", file=sys.stderr)
            failed += 1
    if failed:
        print(f"{failed} of {len(paths)} notebooks failed", file=sys.stderr)
    return 1 if failed else 0


def regenerate(path: Path) -> None:
    """Executes ``path`` in a fresh current-env kernel and rewrites it cleaned."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    os.environ.update(DETERMINISTIC_ENV)  # inherited by the kernel
    # A private IPython profile: no user startup files, and PNGs without the
    # "Software: Matplotlib version …" chunk (it changes with every matplotlib release).
    ipython_dir = Path(tempfile.mkdtemp(prefix="regen-ipython-"))
    profile = ipython_dir / "profile_default"
    profile.mkdir()
    (profile / "ipython_kernel_config.py").write_text(KERNEL_CONFIG)
    os.environ["IPYTHONDIR"] = str(ipython_dir)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        kernel_manager_class=_current_env_kernel_manager_class(),
        timeout=CELL_TIMEOUT_S,
        record_timing=False,
        store_widget_state=False,
        resources={"metadata": {"path": str(path.parent.resolve())}},
    )
    try:
        client.execute()
    finally:
        shutil.rmtree(ipython_dir, ignore_errors=True)
    for index, cell in enumerate(nb.cells):
        if _tagged(cell, RAISES) and not _has_error(cell):
            raise AssertionError(f"cell {index} is tagged {RAISES} but did not raise")
    clean(nb, path.stem)
    nbformat.validate(nb)
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]


def clean(nb: Any, name: str) -> None:
    """Removes volatile metadata in place and gives widget views stable model ids."""
    metadata = nb.metadata
    for key in VOLATILE_NOTEBOOK_METADATA:
        metadata.pop(key, None)
    metadata["kernelspec"] = dict(KERNELSPEC)
    info = metadata.get("language_info", {})
    metadata["language_info"] = {k: info[k] for k in LANGUAGE_INFO_KEYS if k in info}
    for index, cell in enumerate(nb.cells):
        for key in VOLATILE_CELL_METADATA:
            cell.metadata.pop(key, None)
        if "outputs" in cell:
            cell.outputs = _joined_streams(cell.outputs)
        for number, output in enumerate(cell.get("outputs", [])):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is not None:
                view["model_id"] = _stable_model_id(name, index, number)


def _joined_streams(outputs: list[Any]) -> list[Any]:
    """``outputs`` with each run of stream outputs of one name (stdout, stderr) joined into
    one: the kernel splits a cell's printing into chunks by timing, so the stored outputs
    would change from run to run while the text does not."""
    joined: list[Any] = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            output.get("output_type") == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        ):
            last["text"] = "".join(last["text"]) + "".join(output["text"])
            continue
        joined.append(output)
    return joined


def check(path: Path) -> list[str]:
    """Problems that show ``path`` was not stored by :func:`regenerate` (empty: clean)."""
    import nbformat

    nb = nbformat.read(path, as_version=4)  # type: ignore[no-untyped-call]
    problems: list[str] = []
    for key in VOLATILE_NOTEBOOK_METADATA:
        if key in nb.metadata:
            problems.append(f"notebook metadata {key!r} is volatile")
    if nb.metadata.get("kernelspec") != KERNELSPEC:
        problems.append(f"kernelspec is {nb.metadata.get('kernelspec')!r}, not {KERNELSPEC!r}")
    if "version" in nb.metadata.get("language_info", {}):
        problems.append("language_info names the Python version")
    expected = 1
    for index, cell in enumerate(nb.cells):
        for key in VOLATILE_CELL_METADATA:
            if key in cell.metadata:
                problems.append(f"cell {index}: metadata {key!r} is volatile")
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        if cell.execution_count != expected:
            problems.append(
                f"cell {index}: execution count {cell.execution_count}, expected {expected}"
            )
        expected = (cell.execution_count or expected) + 1
        if _tagged(cell, RAISES) and not _has_error(cell):
            problems.append(f"cell {index}: tagged {RAISES} but stores no error")
        for number, output in enumerate(cell.get("outputs", [])):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view is not None and view.get("model_id") != _stable_model_id(
                path.stem, index, number
            ):
                problems.append(f"cell {index}: widget view with a random model id")
    if problems:
        problems.append("run `make notebooks-regen` to store it cleanly")
    return problems


def _current_env_kernel_manager_class() -> type[Any]:
    """A kernel manager whose ``python3`` is this interpreter, whatever kernelspecs exist."""
    from ipykernel.kernelspec import RESOURCES, get_kernel_dict
    from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
    from jupyter_client.manager import AsyncKernelManager
    from traitlets import default

    class CurrentEnvSpecs(KernelSpecManager):
        def get_kernel_spec(self, kernel_name: str) -> KernelSpec:
            return KernelSpec(resource_dir=RESOURCES, **get_kernel_dict())

    class CurrentEnvKernelManager(AsyncKernelManager):
        @default("kernel_spec_manager")
        def _kernel_spec_manager_default(self) -> KernelSpecManager:
            return CurrentEnvSpecs()

    return CurrentEnvKernelManager


def _stable_model_id(name: str, cell: int, output: int) -> str:
    return uuid.uuid5(uuid.NAMESPACE_URL, f"fwwrules-notebook:{name}/{cell}/{output}").hex


def _tagged(cell: Any, tag: str) -> bool:
    return tag in cell.get("metadata", {}).get("tags", [])


def _has_error(cell: Any) -> bool:
    return any(o.get("output_type") == "error" for o in cell.get("outputs", []))


if __name__ == "__main__":
    sys.exit(main())
