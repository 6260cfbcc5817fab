"""Ids from any letters (issue 33): an id is a lowercase word of any script, read in NFC, with
no spaces or path characters; a name becomes an id by lower-casing and joining its words with
'-'. Such ids round-trip through the editor, the file, the loader and the command line."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

import fwwrules
from fwwrules import cli
from fwwrules.checks import IDENT_EXPECTED, IDENT_PATTERN, ident_from, ident_problem

NFD = unicodedata.normalize("NFD", "ritter-größe")


@pytest.mark.parametrize(
    "ident",
    ["ritter-größe", "laser-rifle", "a", "-", "侦察兵", "नमस्ते", "çavuş-2", "٣", "ʰx", "ø-ß"],
)
def test_an_id_may_hold_lowercase_letters_of_any_script(ident: str) -> None:
    assert ident_problem(ident) is None


@pytest.mark.parametrize(
    "ident",
    [
        "Ritter",  # a capital
        "ritter größe",  # a space
        "a/b",
        "a\\b",
        "a:b",
        "a.b",
        "a_b",
        "größe\u200b",  # invisible
        "\u0308a",  # a combining mark with nothing to combine with
        "a-\u0308",
        "ǅ",  # titlecase
        "ÄRGER",
        NFD,  # not composed: a file's ids are read in NFC first
        "",
    ],
)
def test_an_id_holds_no_capital_space_punctuation_or_path_character(ident: str) -> None:
    assert ident_problem(ident) == IDENT_EXPECTED


def test_a_name_becomes_an_id_keeping_umlauts_and_sharp_s() -> None:
    assert ident_from("Ritter Größe") == "ritter-größe"
    assert ident_from("  Knight  Patrol (2) ") == "knight-patrol-2"
    assert ident_from(unicodedata.normalize("NFD", "Größe")) == "größe"
    assert ident_from("ÄRGER/Ärger") == "ärger-ärger"
    assert ident_from("...") == ""
    for name in ["Ritter Größe", "侦察兵 Zwei", "Ça va?", "x" * 90]:
        made = ident_from(name)
        assert ident_problem(made) is None and len(made) <= 40, made


def _board(first: str, second: str) -> str:
    return (
        "format: fwwrules/scenario@1\nunits: in\nmodels:\n"
        f"  - {{id: {first}, name: Ritter Größe, faction: bos, base: 1.26, at: [4, 4],"
        " weapons: [gewehr]}\n"
        f"  - {{id: {second}, faction: raiders, base: 1.26, at: [12, 4]}}\n"
        "weapons:\n  - {id: gewehr, type: rifle, short: red, long: green}\n"
    )


def test_a_file_id_is_read_in_nfc_so_both_spellings_name_one_model() -> None:
    board = fwwrules.loads(_board(NFD, "plünderer"))
    assert [m.id for m in board.models] == ["ritter-größe", "plünderer"]
    assert board.model("ritter-größe").label == "Ritter Größe"
    with pytest.raises(fwwrules.ScenarioError, match="duplicate id 'ritter-größe'"):
        fwwrules.loads(_board(NFD, "ritter-größe"))


def test_a_capital_in_another_script_is_refused_with_the_file_and_line() -> None:
    with pytest.raises(fwwrules.ScenarioError) as info:
        fwwrules.loads(_board("ritter-größe", "Plünderer"), source="b.yaml")
    assert str(info.value) == f"b.yaml:5: models[1].id: {IDENT_EXPECTED} (got 'Plünderer')"


def test_the_schema_takes_unicode_ids_and_refuses_ascii_it_cannot_hold() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    yaml = pytest.importorskip("yaml")
    from fwwrules.scenario_spec import json_schema

    schema = json.loads(json.dumps(json_schema()))
    validator = jsonschema.Draft202012Validator(schema)
    good = yaml.safe_load(_board("ritter-größe", "侦察兵"))
    assert list(validator.iter_errors(good)) == []
    for bad in ("Ritter", "a b", "a/b", "a.b"):
        data = yaml.safe_load(_board("ritter-größe", "x"))
        data["models"][1]["id"] = bad
        assert list(validator.iter_errors(data)) != [], bad
    assert schema["$defs"]["ModelSpec"]["properties"]["id"]["pattern"] == IDENT_PATTERN


def test_unicode_ids_round_trip_through_editor_save_load_and_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from fwwrules_widgets import BoardEditor

    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    knight = ed.add_model((4, 4), name="Ritter Größe", faction="bruderschaft", weapons=["rifle"])
    raider = ed.add_model((14, 4), name="Plünderer", faction="plünderer")
    crate = ed.add_rect((8, 2), (10, 6), kind="cover", name="Kiste Ä")
    assert (knight, raider, crate) == ("ritter-größe", "plünderer", "kiste-ä")
    saved = ed.save(tmp_path / "größe.yaml")
    assert "ritter-größe" in saved.read_text(encoding="utf-8")
    back = fwwrules.load(saved)
    assert back == ed.scenario
    assert [m.id for m in back.models] == ["ritter-größe", "plünderer"]
    again = BoardEditor.from_file(saved, interactive=False)
    assert again.scenario == ed.scenario
    assert again.add_model((20, 20), name="Ritter Größe") == "ritter-größe-2"

    assert cli.main(["check", str(saved)]) == 0
    capsys.readouterr()
    for attacker in (knight, unicodedata.normalize("NFD", knight)):  # as a terminal may pass it
        args = ["ruling", str(saved), "--attacker", attacker, "--target", raider, "--json"]
        assert cli.main(args) == 0
        ruling = json.loads(capsys.readouterr().out)
        assert (ruling["attacker"], ruling["target"]) == (knight, raider)
