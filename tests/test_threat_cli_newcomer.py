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


@pytest.mark.parametrize(
    ("area", "wrong"),
    [
        ("30,30,10,10", "x1 (10) must be greater than x0 (30) and y1 (10) greater than y0 (30)"),
        ("30,0,10,10", "x1 (10) must be greater than x0 (30)"),
        ("0,5,3,5", "y1 (5) must be greater than y0 (5)"),
    ],
)
def test_area_the_wrong_way_round_is_said_in_the_users_words(
    capsys: pytest.CaptureFixture[str], area: str, wrong: str
) -> None:
    code, out, err = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--area", area)
    assert code == 2 and not out
    assert f"--area: {area}: {wrong}: X0,Y0 is one corner" in err
    assert "Bounds(" not in err and "xmin" not in err and "Traceback" not in err


def test_area_the_wrong_way_round_in_python_names_the_numbers() -> None:
    scenario = fwwrules.load(COVER_1)
    with pytest.raises(fwwrules.QueryError) as info:
        fwwrules.threat_map(scenario, "brotherhood", area=(30, 30, 10, 10))
    assert str(info.value).startswith("area (30, 30, 10, 10): x1 (10) must be greater than x0")
    assert "Bounds(" not in str(info.value)
