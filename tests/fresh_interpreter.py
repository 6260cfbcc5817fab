"""A statement run in a fresh Python interpreter, for tests of what an import or a call loads
(``sys.modules`` of the test process has everything loaded already)."""

from __future__ import annotations

import subprocess
import sys


def printed(code: str) -> list[str]:
    """The words ``code`` prints when run by a fresh interpreter (it must exit 0)."""
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.split()
