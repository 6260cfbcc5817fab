"""Good scenario files load, summarise and answer lookups; the JSON Schema matches the loader.

Bad files are in ``test_cli_errors.py``; this file covers what a valid file gives back and the
boundary cases of the loading rules (docs/scenario-format.md, "Errors and limits").
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

import fwwrules
from fwwrules.cli import main
from fwwrules.constants import DEFAULT_CONTACT_TOLERANCE_MM, MM_PER_INCH
from fwwrules.errors import FwwError, QueryError, ScenarioError, UnknownIdError
from fwwrules.loading import parse_text
from fwwrules.scenario import (
    IMPROVISED,
    Circle,
    Rect,
    Scenario,
    json_schema,
    load_scenario,
    parse_scenario,
)

INCHES = """\
format: fwwrules/scenario@1
title: Skirmish at the crossroads
rules: vts
units: in
options:
  contact_tolerance: 0.02
  cover_by: faction
  slide_through_engaged_enemy: true
rulers: {orange: 2.5}
sides:
  order: [brotherhood, minutemen]
  chaos: [raiders]
neutral: [wildlife]
models:
  - id: knight
    name: Knight Patrol
    faction: brotherhood
    base: 1.25
    at: [4, 4]
    elevation: 0.5
    skills: {rifle: 7, melee: 6}
    strength: 5
    keywords: [power-armor]
    weapons: [laser-rifle, combat-knife]
  - id: preston
    faction: minutemen
    base: 1.25
    at: [4, 6]
  - id: raider
    faction: raiders
    base: 1.25
    at: [12, 4]
    status: [stunned]
    charge_bonus: {target: knight, markers: [black, green]}
  - id: radroach
    faction: wildlife
    base: 1.25
    at: [12, 8]
terrain:
  - id: crate
    kind: cover
    polygon: [[7, 3], [9, 3], [9, 5], [7, 5]]
    height: 1
  - id: wall
    kind: blocking
    rect: {at: [8, 10], size: [6, 0.5], angle: 30}
    huge: cover
  - id: pond
    name: Irradiated pond
    kind: area
    circle: {at: [16, 16], diameter: 4}
    elevated: scenery
weapons:
  - id: laser-rifle
    type: rifle
    short: red
    long: 10
    dice: {short: [green], long: [black, black]}
  - id: combat-knife
    type: melee
    dice: {melee: [black]}
"""


@pytest.fixture
def inches(write: Callable[[str, str], Path]) -> Path:
    return write("crossroads.yaml", INCHES)


def test_good_yaml_file_loads_in_inches(inches: Path) -> None:
    s = load_scenario(inches)
    assert s.units == "in" and s.rules == "vts" and s.unit_mm == MM_PER_INCH
    assert s.title == "Skirmish at the crossroads"
    knight = s.model("knight")
    assert knight.label == "Knight Patrol" and knight.base == 1.25 and knight.at == (4.0, 4.0)
    assert knight.skills == {"rifle": 7, "melee": 6} and knight.strength == 5
    assert s.model("raider").stunned
    assert s.model("raider").charge_bonus == fwwrules.ChargeBonus("knight", ("black", "green"))
    # the board is in millimetres, built once
    disc = s.board.models["knight"].disc
    assert disc.r == pytest.approx(1.25 * MM_PER_INCH / 2)
    assert disc.center == pytest.approx((4 * MM_PER_INCH, 4 * MM_PER_INCH))
    assert s.board.models["knight"].elevation == pytest.approx(0.5 * MM_PER_INCH)
    assert s.source == str(inches)


def test_good_file_terrain_of_all_three_shapes(inches: Path) -> None:
    s = load_scenario(inches)
    crate, wall, pond = (s.terrain_piece(t) for t in ("crate", "wall", "pond"))
    assert crate.shape == ((7.0, 3.0), (9.0, 3.0), (9.0, 5.0), (7.0, 5.0))
    assert wall.shape == Rect((8.0, 10.0), (6.0, 0.5), 30.0) and wall.huge == "cover"
    assert pond.shape == Circle((16.0, 16.0), 4.0) and pond.label == "Irradiated pond"
    assert s.board.terrain["crate"].polygon.area == pytest.approx(4 * MM_PER_INCH**2)
    assert s.board.terrain["wall"].polygon.area == pytest.approx(3 * MM_PER_INCH**2)


def test_good_file_options_and_rulers(inches: Path) -> None:
    s = load_scenario(inches)
    assert s.options == fwwrules.Options(0.02, "faction", True)
    assert s.contact_tolerance_mm == pytest.approx(0.02 * MM_PER_INCH)
    assert s.board.contact_tolerance == s.contact_tolerance_mm
    assert s.ruler_mm("orange") == pytest.approx(2.5 * MM_PER_INCH)  # overridden
    assert s.ruler_mm("red") == pytest.approx(6 * MM_PER_INCH)  # the default ruler length
    assert s.length_mm("red") == s.ruler_mm("red")
    assert s.length_mm(10) == pytest.approx(254.0)
    assert s.from_mm(s.to_mm(3.5)) == pytest.approx(3.5)


def test_default_options_in_mm(good_yaml: str) -> None:
    s = fwwrules.loads(good_yaml)
    assert s.options == fwwrules.Options()
    assert s.contact_tolerance_mm == DEFAULT_CONTACT_TOLERANCE_MM
    assert s.ruler_mm("red") == pytest.approx(6 * MM_PER_INCH)


def test_sides_and_neutral_relations(inches: Path) -> None:
    s = load_scenario(inches)
    knight, preston, raider, roach = (
        s.model(m) for m in ("knight", "preston", "raider", "radroach")
    )
    assert s.side_of("minutemen") == "order"
    assert s.side_of("unlisted") == "unlisted"  # a faction without a side is its own side
    assert s.relation(knight, preston) == "friendly"
    assert s.relation(knight, preston, by="faction") == "enemy"
    assert s.relation(knight, raider) == "enemy"
    assert s.relation(raider, roach) == "neutral" == s.relation(roach, knight)
    assert s.relation(roach, roach) == "friendly"
    assert s.opposing(knight, raider) and s.opposing(knight, roach)
    assert not s.opposing(knight, preston)


def test_weapons_and_improvised(inches: Path) -> None:
    s = load_scenario(inches)
    knight = s.model("knight")
    assert [w.id for w in s.weapons_of(knight)] == ["laser-rifle", "combat-knife", IMPROVISED]
    assert [w.id for w in s.weapons_of(s.model("preston"))] == [IMPROVISED]
    assert s.weapon(IMPROVISED).type == "melee"
    rifle = s.weapon("laser-rifle")
    assert rifle.short == "red" and rifle.long == 10.0
    assert rifle.dice == {"short": ("green",), "long": ("black", "black")}


@pytest.mark.parametrize(
    ("method", "kind"),
    [("model", "model"), ("terrain_piece", "terrain"), ("weapon", "weapon")],
)
def test_unknown_ids_raise_unknown_id_error(inches: Path, method: str, kind: str) -> None:
    """Queries with an unknown id: a FwwError (CLI exit 2) that names the id and the known ones."""
    s = load_scenario(inches)
    with pytest.raises(UnknownIdError) as info:
        getattr(s, method)("dogmeat")
    err = info.value
    assert isinstance(err, FwwError) and isinstance(err, KeyError)
    assert (err.kind, err.ident) == (kind, "dogmeat")
    assert str(err).startswith(f"{inches}: unknown {kind} id 'dogmeat' (known: ")
    if kind == "model":
        assert err.known == ("knight", "preston", "radroach", "raider")
    if kind == "weapon":
        assert IMPROVISED in err.known


def test_unknown_id_error_goes_through_cli_main_as_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], inches: Path
) -> None:
    """The path `cli.main` takes for any command that looks up an id (stubbed command here)."""
    import fwwrules.cli as cli

    def lookup(args: Any) -> int:
        load_scenario(args.file).model("dogmeat")
        return 0

    monkeypatch.setattr(cli, "cmd_check", lookup)
    code = main(["check", str(inches)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"fwwrules: error: {inches}: unknown model id 'dogmeat' " + (
        "(known: knight, preston, radroach, raider)\n"
    )


def test_query_error_is_a_fww_error() -> None:
    assert issubclass(QueryError, FwwError) and issubclass(ScenarioError, FwwError)


def test_check_prints_one_line_summary(inches: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(inches)]) == 0
    out, err = capsys.readouterr()
    assert out == (
        f"{inches}: ok: 'Skirmish at the crossroads': vts rules, units in, "
        "4 models, 3 terrain pieces, 2 weapons\n"
    )
    assert err == ""


def test_check_json_file(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    data = yaml.safe_load(INCHES)
    path = write("crossroads.json", json.dumps(data, indent=2))
    assert main(["check", str(path)]) == 0
    assert "4 models, 3 terrain pieces, 2 weapons" in capsys.readouterr().out
    assert load_scenario(path) == load_scenario(write("same.yaml", INCHES))


def test_utf8_bom_and_unicode_names(write: Callable[[str, bytes], Path], good_yaml: str) -> None:
    text = good_yaml.replace("Catalogue base", "Kämpfer über Ödland – ☢")
    s = load_scenario(write("bom.yaml", b"\xef\xbb\xbf" + text.encode()))
    assert s.title == "Kämpfer über Ödland – ☢"


# --- boundary cases of the loading rules ------------------------------------------------------


def _two_bases(distance: float, *, tolerance: float | None = None, elevation: float = 0) -> str:
    opts = "" if tolerance is None else f"options: {{contact_tolerance: {tolerance}}}\n"
    return (
        "format: fwwrules/scenario@1\n" + opts + "models:\n"
        "  - {id: a, faction: x, base: 40, at: [0, 0]}\n"
        f"  - {{id: b, faction: y, base: 40, at: [{distance}, 0], elevation: {elevation}}}\n"
    )


def test_bases_overlapping_by_exactly_the_tolerance_are_accepted() -> None:
    """Gap of exactly -0.5 mm (default tolerance) counts as contact, not as overlap."""
    s = fwwrules.loads(_two_bases(40 - DEFAULT_CONTACT_TOLERANCE_MM))
    assert s.board.models["a"].disc.gap(s.board.models["b"].disc) == -0.5


def test_bases_overlapping_beyond_the_tolerance_are_refused() -> None:
    with pytest.raises(ScenarioError) as info:
        fwwrules.loads(_two_bases(39.4))
    (problem,) = info.value.problems
    assert problem.path == ("models", 1, "at") and problem.line == 4
    assert "overlaps 'a' by 0.60 mm" in problem.message


def test_contact_tolerance_option_moves_the_overlap_limit() -> None:
    fwwrules.loads(_two_bases(39.0, tolerance=1.0))
    with pytest.raises(ScenarioError):
        fwwrules.loads(_two_bases(39.0, tolerance=0.9))


def test_stacked_models_at_different_elevations_may_share_a_footprint() -> None:
    """Bases on different levels (elevations Orange or more apart, as ``melee.engaged`` has
    it) may share a footprint; less than Orange apart they stand on one level and may not."""
    s = fwwrules.loads(_two_bases(0, elevation=60))
    assert s.board.models["b"].elevation == 60
    with pytest.raises(ScenarioError, match=r"overlaps 'a' by 40\.00 mm"):
        fwwrules.loads(_two_bases(0, elevation=30))


def test_all_problems_are_reported_at_once(good_yaml: str) -> None:
    text = good_yaml.replace("kind: cover", "kind: wall").replace("units: mm", "units: cm")
    with pytest.raises(ScenarioError) as info:
        fwwrules.loads(text, source="two.yaml")
    paths = [p.path for p in info.value.problems]
    assert paths == [("units",), ("terrain", 0, "kind")]
    assert str(info.value).splitlines()[0].startswith("two.yaml:4: units: expected one of mm, in")


def test_json_line_locator_pretty_minified_and_tabs() -> None:
    data = yaml.safe_load(INCHES)
    for indent, line in ((2, None), (None, 1), ("\t", None)):
        text = json.dumps(data, indent=indent)
        doc = parse_text(text, "x.json", json_=True)
        expected = line
        if expected is None:
            lines = text.splitlines()
            expected = 1 + next(i for i, t in enumerate(lines) if '"Irradiated pond"' in t)
        assert doc.line(("terrain", 2, "name")) == expected


def test_yaml_line_locator_points_at_the_key() -> None:
    doc = parse_text("format: x\nmodels:\n  - id: a\n    at:\n      - 1\n      - 2\n")
    assert doc.line(("models",)) == 2
    assert doc.line(("models", 0, "at")) == 4  # the key, though the list starts on line 5
    assert doc.line(("models", 0, "at", 1)) == 6
    assert doc.line(("models", 0, "nope")) == 3  # nearest existing ancestor
    assert doc.line(("models", 7)) == 2


def test_control_characters_in_names_are_refused(good_yaml: str) -> None:
    """A title could otherwise drive the terminal that `check` prints it to."""
    text = good_yaml.replace("title: Catalogue base", 'title: "red \\e[31m alert"')
    with pytest.raises(ScenarioError) as info:
        fwwrules.loads(text)
    assert info.value.problems[0].path == ("title",)
    assert "control characters" in info.value.problems[0].message


def test_odd_keys_are_quoted_in_paths(good_yaml: str) -> None:
    text = good_yaml.replace("units: mm", 'units: mm\n"bad key\\e[2J": 1')
    with pytest.raises(ScenarioError) as info:
        fwwrules.loads(text, source="k.yaml")
    assert str(info.value).startswith("k.yaml:5: ['bad key\\x1b[2J']: unknown key")


def test_parse_scenario_directly_from_a_document(good_yaml: str) -> None:
    s = parse_scenario(parse_text(good_yaml, "mem.yaml"))
    assert isinstance(s, Scenario) and s.source == "mem.yaml"


# --- JSON Schema --------------------------------------------------------------------------


def _schema_from_cli(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["schema"]) == 0
    schema: dict[str, Any] = json.loads(capsys.readouterr().out)
    return schema


def _good_documents(good_yaml: str) -> list[tuple[str, Any]]:
    docs = [("GOOD_YAML", yaml.safe_load(good_yaml)), ("INCHES", yaml.safe_load(INCHES))]
    for path in sorted(fwwrules.examples_dir().rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(data, dict) and data.get("format") == "fwwrules/scenario@1":
            docs.append((path.name, data))
    return docs


def test_schema_command_prints_a_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    schema = _schema_from_cli(capsys)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema == json_schema()
    assert schema["properties"]["format"]["const"] == "fwwrules/scenario@1"
    assert schema["additionalProperties"] is False
    assert set(schema["required"]) == {"format"}


def test_every_good_file_validates_against_the_schema(
    capsys: pytest.CaptureFixture[str], good_yaml: str
) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = _schema_from_cli(capsys)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    docs = _good_documents(good_yaml)
    assert len(docs) >= 2
    for name, data in docs:
        errors = [e.message for e in validator.iter_errors(data)]
        assert errors == [], name


@pytest.mark.parametrize(
    "name",
    [
        "unknown-key-top.yaml",
        "unknown-key-rect.yaml",
        "unknown-terrain-kind.yaml",
        "string-for-number.yaml",
        "bool-for-number.yaml",
        "unknown-ruler-colour.yaml",
        "negative-base.yaml",
        "id-bad-characters.yaml",
        "unknown-skill-icon.yaml",
        "polygon-point-three-numbers.yaml",
    ],
)
def test_schema_refuses_what_the_loader_refuses(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Field-level mistakes are caught by an editor using the schema too."""
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(_schema_from_cli(capsys))
    data = yaml.safe_load((Path(__file__).parent / "malformed" / name).read_text())
    assert list(validator.iter_errors(data)) != []


@pytest.mark.parametrize(
    ("added", "expected"),
    [
        ("1: x", "f.yaml:2: 1: expected a key of text; write it in quotes (got 1)"),
        ("<<: {rules: vts}", "f.yaml:2: ['<<']: YAML merge keys (<<) are not allowed"),
        ("? [a, b]\n: x", "f.yaml:2: (document): broken YAML"),
    ],
)
def test_odd_yaml_keys_are_refused_cleanly(good_yaml: str, added: str, expected: str) -> None:
    text = good_yaml.replace("\n", f"\n{added}\n", 1)
    with pytest.raises(ScenarioError) as info:
        fwwrules.loads(text, source="f.yaml")
    assert str(info.value).startswith(expected)


def test_every_shipped_scenario_example_loads() -> None:
    paths = [
        p
        for p in sorted(fwwrules.examples_dir().rglob("*.yaml"))
        if "fwwrules/scenario@1" in p.read_text(encoding="utf-8")
    ]
    for path in paths:
        assert isinstance(load_scenario(path), Scenario), path


def test_ids_follow_the_spec_pattern() -> None:
    """docs/scenario-format.md: ids are ``[a-z0-9-]+`` (a leading dash included); capitals
    and '_' are not."""
    import fwwrules

    text = (
        "format: fwwrules/scenario@1\nmodels:\n"
        "  - {id: -scout, faction: x, base: 32, at: [0, 0]}\n"
        "  - {id: 2nd, faction: y, base: 32, at: [100, 0]}\n"
    )
    s = fwwrules.loads(text)
    assert [m.id for m in s.models] == ["-scout", "2nd"]
    with pytest.raises(fwwrules.ScenarioError, match=r"models\[0\]\.id"):
        fwwrules.loads(text.replace("-scout", "Scout_1"))
