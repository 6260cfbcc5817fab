"""``fwwrules threat`` as a newcomer meets it: the help says what ``--json`` prints, an area
given the wrong way round is refused in the user's own words, a ``--weapon`` that only some
(or none) of the shooters carry is said, and the summary names the grid step it used.
"""

from __future__ import annotations

import pytest

import fwwrules
from fwwrules.cli import main

COVER_1 = str(fwwrules.example_path("cover-example-1"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # --help and argparse's own errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_help_says_json_prints_the_threat_map(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "threat", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert "print the threat map as JSON" in text and "fwwrules/threat@1" in text
    assert "ruling as JSON" not in text
    code, out, _ = run(capsys, "ruling", "--help")  # the ruling's own help is unchanged
    assert "print the ruling as JSON" in " ".join(out.split())
