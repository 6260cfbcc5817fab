"""``fwwrules threat`` and ``fwwrules schema --threat``; drawing the threat map.

The JSON validates against the schema ``fwwrules schema --threat`` prints, and its cells equal
``fwwrules ruling`` for a model of that base and side standing there (the shooter's best
weapon). Bad queries exit 2 with one clear line.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest

import fwwrules
from fwwrules import Model
from fwwrules.cli import main
from fwwrules.constants import MAX_THREAT_POSITIONS

COVER_1 = str(fwwrules.example_path("cover-example-1"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_threat_json_matches_schema_and_rulings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema", "--threat")
    assert code == 0
    schema = json.loads(out)
    code, out, err = run(
        capsys, "threat", COVER_1, "--side", "brotherhood", "--step", "20", "--json"
    )
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, schema)
    assert doc["format"] == "fwwrules/threat@1"
    assert doc["shooters"] == ["brute"] and doc["side"] == "brotherhood"
    assert len(doc["positions"]) == len(doc["cells"]) > 20
    scn = fwwrules.load(COVER_1)
    for (x, y), row, elev in list(
        zip(doc["positions"], doc["cells"], doc["elevation"], strict=True)
    )[::7]:
        target = Model("target", "brotherhood", doc["base"], (x, y), elevation=elev)
        s2 = replace(scn, models=(*scn.models, target))
        (cell,) = row
        r = fwwrules.ruling(s2, "brute", "target", weapon=cell["weapon"])
        assert cell["allowed"] == r.allowed
        assert cell["modifier"] == (r.skill.modifier if r.allowed else None)
        assert cell["reason"] == (None if r.allowed else r.not_allowed[0])


def test_schema_without_flag_is_still_the_scenario_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    assert "fwwrules/scenario@1" in out and "threat@1" not in out


def test_threat_text_summary_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--step", "20")
    assert code == 0 and "safe from every shooter" in out and "brute" in out
    code, out, _ = run(
        capsys, "threat", COVER_1, "--side", "brotherhood", "--step", "20", "--lang", "de"
    )
    assert code == 0 and "vor jedem Schützen sicher" in out


def test_threat_refusals_exit_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "threat", COVER_1, "--side", "enclave")
    assert code == 2 and "unknown side 'enclave'" in err and "brotherhood" in err
    code, _, err = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--step", "0.1")
    assert code == 2 and f"limit of {MAX_THREAT_POSITIONS}" in err and "at least" in err
    assert "Traceback" not in err
    code, _, err = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--base", "-1")
    assert code == 2 and "base must be a positive number" in err
    grid = str(fwwrules.example_path("grid/cleric"))
    code, _, err = run(capsys, "threat", grid, "--side", "x")
    assert code == 2 and "scenario file" in err


def test_threat_picture(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_png = tmp_path / "map.png"
    code, _, err = run(
        capsys,
        "threat",
        COVER_1,
        "--side",
        "brotherhood",
        "--step",
        "20",
        "-o",
        str(out_png),
        "--layer",
        "best-modifier",
    )
    assert code == 0, err
    assert out_png.read_bytes()[:4] == b"\x89PNG"
    code, _, err = run(capsys, "threat", COVER_1, "--side", "brotherhood", "-o", "map.gif")
    assert code == 2 and ".png or .svg" in err


def test_draw_threat_map_legend_in_words() -> None:
    import matplotlib

    matplotlib.use("Agg")
    from fwwrules.draw.threat import LAYERS, classes_of, draw_threat_map
    from fwwrules.errors import QueryError

    scn = fwwrules.load(COVER_1)
    tm = fwwrules.threat_map(scn, "brotherhood", step=10)
    art = draw_threat_map(tm, layer="attackers")
    texts = [t.get_text() for t in art.legend.get_texts()]
    assert texts == ["none: safe here", "1", "2", "3 or more", "cannot stand here"]
    assert art.legend.get_title().get_text() == "shooters that can attack"
    cls = classes_of(tm, "attackers")
    assert set(cls.tolist()) <= {-1, 0, 1}
    assert (cls == 0).any() and (cls == 1).any() and (cls == -1).any()
    art_de = draw_threat_map(tm, layer="best-modifier", lang="de")
    assert "kein Angriff möglich" in [t.get_text() for t in art_de.legend.get_texts()]
    for layer in LAYERS:
        assert classes_of(tm, layer).shape == (len(tm.positions),)
    with pytest.raises(QueryError, match="unknown threat layer"):
        draw_threat_map(tm, layer="danger")


def test_threat_weapon_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """``--weapon W``: the shooters carrying W are judged with it alone (here the brute's
    improvised weapon: a melee weapon, so nowhere but in base contact); an unknown weapon
    exits 2 naming the choices."""
    code, out, err = run(
        capsys,
        "threat",
        COVER_1,
        "--side",
        "brotherhood",
        "--step",
        "20",
        "--json",
        "--weapon",
        "improvised",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["weapon"] == "improvised"
    assert {row[0]["weapon"] for row in doc["cells"]} == {"improvised"}
    assert {row[0]["reason"] for row in doc["cells"] if not row[0]["allowed"]} == {"melee.engaged"}
    code, out, err = run(capsys, "threat", COVER_1, "--side", "brotherhood", "--weapon", "nope")
    assert code == 2 and out == ""
    assert "unknown weapon 'nope'" in err and "improvised" in err and "Traceback" not in err
