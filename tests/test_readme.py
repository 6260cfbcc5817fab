"""The README's Python example runs and its assertion (the rulebook's outcome) holds."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README shows a Python example"
    for code in blocks:
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
