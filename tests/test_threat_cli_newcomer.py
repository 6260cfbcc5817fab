"""``fwwrules threat`` as a newcomer meets it: the help says what ``--json`` prints, an area
given the wrong way round is refused in the user's own words, a ``--weapon`` that only some
(or none) of the shooters carry is said, and the summary names the grid step it used.
"""

from __future__ import annotations

import json
from dataclasses import replace

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


STEP_CASES = [  # (extra arguments, English line, German line); cover-example-1 is in mm
    (
        (),
        "Grid step: 6.4 mm (0.25″), the default.",
        "Rasterweite: 6,4 mm (0,25″), der Standardwert.",
    ),
    (
        ("--area", "0,0,3000,3000"),  # 472 x 472 quarter inches: beyond the positions limit
        "Grid step: 12.4 mm (0.49″), widened from the default 6.4 mm (0.25″) to keep the map "
        "within its limits of positions and time (--step sets it).",
        "Rasterweite: 12,4 mm (0,49″), vom Standardwert 6,4 mm (0,25″) vergrößert, damit die "
        "Karte in ihren Grenzen für Positionen und Rechenzeit bleibt (--step legt sie fest).",
    ),
    (("--step", "20"), "Grid step: 20 mm (0.79″).", "Rasterweite: 20 mm (0,79″)."),
]


@pytest.mark.parametrize(("extra", "en", "de"), STEP_CASES)
def test_the_summary_says_the_step_used(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...], en: str, de: str
) -> None:
    for lang, line in (("en", en), ("de", de)):
        code, out, err = run(
            capsys, "threat", COVER_1, "--side", "brotherhood", *extra, "--lang", lang
        )
        assert code == 0, err
        assert out.splitlines()[1] == line


def test_the_json_already_carries_the_step_used(capsys: pytest.CaptureFixture[str]) -> None:
    """The JSON's ``step`` is the step used (the schema's field since threat@1): unchanged."""
    area = ("--area", "0,0,3000,3000")
    code, out, _ = run(capsys, "threat", COVER_1, "--side", "brotherhood", *area, "--json")
    assert code == 0 and json.loads(out)["step"] == pytest.approx(12.40234375)


def test_the_help_says_the_default_step_may_widen(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "threat", "--help")
    assert "default 1/4 in, widened on a large area or a costly board" in " ".join(out.split())


def test_a_maps_update_keeps_whether_its_step_was_the_default() -> None:
    from fwwrules.threat.text import step_text

    scenario = fwwrules.load(COVER_1)
    tm = fwwrules.threat_map(scenario, "brotherhood")
    assert tm.step_default == pytest.approx(6.35) and tm.step == pytest.approx(6.35)
    assert step_text(tm.update(scenario, "brute"), "en") == step_text(tm, "en")
    assert fwwrules.threat_map(scenario, "brotherhood", step=20).step_default is None
    assert step_text(fwwrules.threat_map(scenario, "brotherhood", positions=[(0, 0)])) is None


def test_a_weapon_no_shooter_carries_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    """The brute (the only enemy of the brotherhood) carries a hunting rifle, no laser rifle:
    the map is each shooter's best weapon, as the definitions promise, and the summary says
    why; the JSON's cells name the weapon each shooter was judged with."""
    ask = ("threat", COVER_1, "--side", "brotherhood", "--step", "20", "--weapon")
    code, out, _ = run(capsys, *ask, "laser-rifle")
    assert code == 0
    assert out.splitlines()[2] == (
        "Weapon laser-rifle: no enemy shooter carries it, so each uses its best weapon."
    )
    code, out, _ = run(capsys, *ask, "laser-rifle", "--lang", "de")
    assert out.splitlines()[2] == (
        "Waffe laser-rifle: kein feindlicher Schütze führt sie, daher nutzt jeder seine beste "
        "Waffe."
    )
    code, out, _ = run(capsys, *ask, "laser-rifle", "--json")
    doc = json.loads(out)
    assert doc["weapon"] == "laser-rifle"
    assert {cell["weapon"] for row in doc["cells"] for cell in row} == {"hunting-rifle"}
    code, out, _ = run(capsys, *ask, "hunting-rifle")
    assert out.splitlines()[2] == "Weapon hunting-rifle: carried by every shooter."
    code, out, _ = run(capsys, *ask, "hunting-rifle", "--lang", "de")
    assert out.splitlines()[2] == "Waffe hunting-rifle: jeder Schütze führt sie."
    code, out, _ = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--step", "20")
    assert not any(line.startswith("Weapon") for line in out.splitlines())


def test_the_shooters_carrying_a_weapon_are_named() -> None:
    from fwwrules.threat.text import summary_text

    scenario = fwwrules.load(fwwrules.example_path("cover-example-2"))
    models = tuple(
        replace(m, weapons=("laser-rifle",)) if m.id == "settler-b" else m for m in scenario.models
    )
    tm = fwwrules.threat_map(
        replace(scenario, models=models), "brotherhood", step=40, weapon="laser-rifle"
    )
    assert tm.shooters == ("settler-a", "settler-b")
    assert summary_text(tm, "en").splitlines()[2] == (
        "Weapon laser-rifle: carried by settler-b; the other shooters use their best weapon."
    )
    assert summary_text(tm, "de").splitlines()[2] == (
        "Waffe laser-rifle: geführt von settler-b; die übrigen Schützen nutzen ihre beste Waffe."
    )
    weapons = {(c["weapon"]) for row in tm.to_dict()["cells"] for c in row[1:]}
    assert weapons == {"laser-rifle"}
