"""Threat-map work under a cap, for the tests of bounded work: a fresh interpreter limited to
:data:`CPU_S` seconds of CPU and :data:`MEMORY_BYTES` of address space (the threat map's
budget is 2.5 s: a run past the cap is killed, a failure, never a hang)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

CPU_S = 8
MEMORY_BYTES = 1_500_000_000
_LIMITS = f"""
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_BYTES}, {MEMORY_BYTES}))
resource.setrlimit(resource.RLIMIT_CPU, ({CPU_S}, {CPU_S}))
"""
_THREAT = (
    _LIMITS
    + """
from fwwrules.cli import main
sys.exit(main(["threat", *sys.argv[1:]]))
"""
)
_TEST = (
    _LIMITS
    + """
import importlib
sys.path.insert(0, sys.argv[1])
getattr(importlib.import_module(sys.argv[2]), sys.argv[3])()
"""
)
_STEP_NAMED = re.compile(r"a step of (?:at least )?([0-9.]+)(?: mm or more fits)?")


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def capped_threat(*args: str) -> subprocess.CompletedProcess[str]:
    """``fwwrules threat ARGS`` under the cap."""
    return _run(_THREAT, *args)


def run_capped(test_file: str, body: str) -> None:
    """Run the function ``body`` of the test module ``test_file`` (its ``__file__``) in a
    fresh interpreter under the cap; its assertions fail the calling test (a process killed
    by the cap too)."""
    path = Path(test_file).resolve()
    proc = _run(_TEST, str(path.parent), path.stem, body)
    assert proc.returncode == 0, f"{body} exited {proc.returncode}: {proc.stderr[-2000:]}"


def follow_refusals(board: str, step: str) -> list[str]:
    """Ask for ``board``'s threat map (side ``north``, JSON) at ``step``; while it is refused
    (exit 2, no traceback, a step named), ask again at the step named, at most three times.
    Asserts a map is made at the last step asked; returns the refusals' messages."""
    said: list[str] = []
    for _ in range(3):
        proc = capped_threat(board, "--side", "north", "--step", step, "--json")
        if proc.returncode == 0:
            break
        assert proc.returncode == 2, proc.stderr[-2000:]
        assert "Traceback" not in proc.stderr
        said.append(proc.stderr)
        found = _STEP_NAMED.search(proc.stderr)
        assert found, proc.stderr
        step = found.group(1)
    assert proc.returncode == 0, said
    assert json.loads(proc.stdout)["step"] == float(step)
    return said
