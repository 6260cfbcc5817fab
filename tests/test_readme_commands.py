"""Every ``fwwrules`` command in the README's shell blocks runs as written and exits 0.

The commands run one after another in one empty folder (later ones use the files earlier ones
copied there with ``fwwrules examples NAME -o FILE``), through a shell, with the ``fwwrules``
script of this environment first on ``PATH``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def readme_commands(text: str) -> list[str]:
    """The ``fwwrules`` lines of the ``sh`` blocks, in order (comments kept; the shell drops them).

    >>> readme_commands("```sh\\nmake lab\\nfwwrules check a.yaml  # ok\\n```\\n")
    ['fwwrules check a.yaml  # ok']
    """
    out: list[str] = []
    for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, re.S):
        out.extend(ln.strip() for ln in block.splitlines() if ln.strip().startswith("fwwrules "))
    return out


def test_readme_fwwrules_commands_run_as_written(tmp_path: Path) -> None:
    commands = readme_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 10, "the README shows the fwwrules commands"
    for name in (
        "examples",
        "check",
        "ruling",
        "withdraw",
        "slide",
        "render",
        "grid",
        "schema",
        "review",
    ):
        assert any(c.split()[1] == name for c in commands), f"the README shows `fwwrules {name}`"
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env.pop("FWWRULES_DEBUG", None)
    for command in commands:
        proc = subprocess.run(
            command, shell=True, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
        )
        assert proc.returncode == 0, f"README: `{command}` exited {proc.returncode}:\n{proc.stderr}"
        assert "Traceback" not in proc.stderr, command
    assert (tmp_path / "board.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert (tmp_path / "review.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert '"$schema"' in (tmp_path / "scenario.schema.json").read_text(encoding="utf-8")


def test_readme_binder_link_and_badge_match_the_project_urls() -> None:
    """The badge, the launch link and pyproject's ``Binder`` URL are one address, on the
    repository that ``Source`` names, and open a notebook that exists."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    urls = tomllib.loads((README.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "urls"
    ]
    text = README.read_text(encoding="utf-8")
    binder = urls["Binder"]
    links = re.findall(r"\]\((https://mybinder\.org/v2/[^)\s]+)\)", text)
    assert len(links) >= 2, "the README has a Binder badge and a launch link"
    assert set(links) == {binder}, links
    owner_repo = urls["Source"].removeprefix("https://github.com/")
    assert binder.startswith(f"https://mybinder.org/v2/gh/{owner_repo}/main?urlpath=lab/tree/")
    notebook = binder.split("urlpath=lab/tree/", 1)[1]
    assert (README.parent / notebook).is_file(), notebook
    assert "[![Binder](https://mybinder.org/badge_logo.svg)](" + binder + ")" in text
    for key in ("Homepage", "Issues", "Documentation", "Changelog"):
        assert urls[key].startswith(urls["Source"]), key
    for doc in ("Documentation", "Changelog"):
        local = urls[doc].split("/blob/main/", 1)[1]
        assert (README.parent / local).is_file(), local
