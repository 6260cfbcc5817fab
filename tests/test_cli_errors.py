"""The catalogue of bad scenario files: every one is refused with exit status 2, a message that
names the file, the line (where the text has one) and the place inside it, and no traceback.

Each file in ``tests/malformed/`` breaks one thing in ``conftest.GOOD_YAML``. ``CASES`` states,
per file, the line, the place and a fragment of what the message must say, so a test fails as
soon as a message stops naming its place. Files too large to commit are generated here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from fwwrules.cli import main
from fwwrules.constants import (
    MAX_FILE_BYTES,
    MAX_MODELS,
    MAX_POLYGON_VERTICES,
    MAX_REPORTED_PROBLEMS,
    MAX_TERRAIN,
)

MALFORMED = Path(__file__).parent / "malformed"

# file name -> (line or None, place, fragment of the message)
CASES: dict[str, tuple[int | None, str, str]] = {
    # format
    "format-missing.yaml": (1, "format", "required key 'format' is missing"),
    "format-wrong.yaml": (1, "format", "got 'fwwrules/scenario@2'"),
    "format-list.yaml": (1, "format", "expected 'fwwrules/scenario@1'"),
    "json-wrong-format.json": (2, "format", "got 'fwwrules/scenario'"),
    # unknown keys, top level and nested
    "unknown-key-top.yaml": (5, "scale", "unknown key 'scale'; expected one of format, title"),
    "unknown-key-model.yaml": (16, "models[1].colour", "unknown key 'colour'"),
    "unknown-key-options.yaml": (
        7,
        "options.cover_by_faction",
        "expected one of contact_tolerance",
    ),
    "unknown-key-rect.yaml": (22, "terrain[0].rect.rotation", "expected one of at, size, angle"),
    "json-unknown-key-nested.json": (45, "weapons[0].range", "unknown key 'range'"),
    "unknown-skill-icon.yaml": (10, "models[0].skills.sniper", "expected one of pistol, rifle"),
    "unknown-ruler-override.yaml": (5, "rulers.pink", "expected one of orange, yellow"),
    # unknown and duplicate ids
    "unknown-weapon.yaml": (11, "models[0].weapons[1]", "unknown weapon 'plasma-gun'"),
    "json-unknown-weapon-minified.json": (1, "models[0].weapons[1]", "'gatling-laser'"),
    "unknown-charge-target.yaml": (12, "models[0].charge_bonus.target", "'dogmeat'"),
    "duplicate-model-id.yaml": (12, "models[1].id", "duplicate id 'knight'"),
    "duplicate-model-terrain-id.yaml": (17, "terrain[0].id", "already used at models[1].id"),
    "duplicate-weapon-id.yaml": (26, "weapons[1].id", "duplicate weapon id"),
    "id-bad-characters.yaml": (6, "models[0].id", "lowercase letters"),
    "faction-on-two-sides.yaml": (7, "sides.bad[1]", "already on side 'good'"),
    # wrong types
    "string-for-number.yaml": (14, "models[1].base", "expected a number (got '40')"),
    "json-string-for-number.json": (36, "terrain[0].circle.diameter", "expected a number"),
    "bool-for-number.yaml": (9, "models[0].at[0]", "expected a number (got true)"),
    "string-for-int-skill.yaml": (10, "models[0].skills.rifle", "whole number (got 7.5)"),
    "list-for-mapping.yaml": (5, "options", "expected a mapping (key: value) (got a list)"),
    "mapping-for-list.yaml": (16, "terrain", "expected a list (got a mapping)"),
    "missing-required-key.yaml": (12, "models[1].faction", "required key 'faction' is missing"),
    # non-finite and negative numbers
    "yaml-nan.yaml": (14, "models[1].base", "finite number"),
    "yaml-inf.yaml": (9, "models[0].at[0]", "finite number"),
    "json-nan.json": (20, "models[1].base", "finite number"),
    "json-infinity.json": (36, "terrain[0].circle.diameter", "finite number"),
    "json-huge-number.json": (36, "terrain[0].circle.diameter", "finite number"),
    "negative-base.yaml": (8, "models[0].base", "above 0 (got -40)"),
    "negative-rect-size.yaml": (19, "terrain[0].rect.size[1]", "above 0 (got -10)"),
    "negative-elevation.yaml": (16, "models[1].elevation", "at least 0 (got -5)"),
    # the table (board: {size: [w, h]})
    "board-model-off-table.yaml": (16, "models[1].at", "lies partly off the table [0, 310]"),
    "board-size-three-numbers.yaml": (5, "board.size", "expected [width, height] (got 3 items)"),
    "board-size-zero.yaml": (5, "board.size[0]", "above 0 (got 0)"),
    # geometry
    "overlapping-bases.yaml": (15, "models[1].at", "overlaps 'knight' by 10.00 mm"),
    "polygon-self-intersecting.yaml": (19, "terrain[0].polygon", "cross each other at (200, 100)"),
    "polygon-two-points.yaml": (19, "terrain[0].polygon", "at least 3 points (got 2)"),
    "polygon-point-three-numbers.yaml": (19, "terrain[0].polygon", "expected a point [x, y]"),
    "terrain-two-shapes.yaml": (17, "terrain[0]", "exactly one shape"),
    "terrain-no-shape.yaml": (17, "terrain[0]", "exactly one shape"),
    # names from closed lists
    "unknown-terrain-kind.yaml": (
        18,
        "terrain[0].kind",
        "expected one of blocking, cover, area, dense-area, scenery (got 'wall')",
    ),
    "json-tabs-bad-type.json": (30, "terrain[0].kind", "(got 'hedge')"),
    "unknown-terrain-huge-kind.yaml": (19, "terrain[0].huge", "(got 'hard-cover')"),
    "unknown-ruler-colour.yaml": (23, "weapons[0].short", "ruler colour (orange, yellow"),
    "unknown-dice-colour.yaml": (25, "weapons[0].dice.short[1]", "(got 'red')"),
    "too-many-dice.yaml": (25, "weapons[0].dice.long", "at most 4 black dice"),
    "melee-weapon-with-band.yaml": (23, "weapons[0].short", "melee weapon has no range bands"),
    "unknown-rules.yaml": (3, "rules", "expected one of core, vts (got 'advanced')"),
    "unknown-units.yaml": (4, "units", "expected one of mm, in (got 'cm')"),
    "unknown-cover-by.yaml": (5, "options.cover_by", "expected one of side, faction"),
    "unknown-status.yaml": (16, "models[1].status[1]", "expected 'stunned' (got 'prone')"),
    "charge-bonus-bad-marker.yaml": (16, "models[1].charge_bonus.markers[0]", "black, green"),
    # values that make no sense
    "ruler-nonsense.yaml": (5, "rulers.red", "a ruler of 0.01 mm makes no sense"),
    "ruler-band-nonsense.yaml": (23, "weapons[0].short", "a ruler of 5000 mm makes no sense"),
    "base-nonsense-inches.yaml": (8, "models[0].base", "a base of 1016 mm makes no sense"),
    "base-nonsense-tiny.yaml": (8, "models[0].base", "a base of 0.5 mm makes no sense"),
    # the document itself
    "empty.yaml": (None, "(document)", "the file is empty"),
    "empty.json": (None, "(document)", "the file is empty"),
    "comments-only.yaml": (None, "(document)", "the file is empty"),
    "top-level-list.yaml": (1, "(document)", "expected a mapping (key: value) at the top level"),
    "top-level-list.json": (1, "(document)", "(got a list)"),
    "top-level-scalar.yaml": (1, "(document)", "(got text)"),
    "broken-yaml.yaml": (10, "(document)", "broken YAML"),
    "broken-yaml-indent.yaml": (13, "(document)", "check the indentation"),
    "multiple-documents.yaml": (16, "(document)", "single document"),
    "json-broken.json": (20, "(document)", "broken JSON: Expecting ',' delimiter"),
    "json-trailing-comma.json": (46, "(document)", "broken JSON"),
    "not-utf8.yaml": (8, "(document)", "not UTF-8"),
    "deeply-nested.yaml": (2, "(document)", "nested deeper than 32 levels"),
    "deeply-nested.json": (None, "(document)", "nested deeper than 32 levels"),
    "raw-nul-byte.yaml": (3, "(document)", "control character U+0000 (NUL) at column 10"),
    "raw-esc-byte.yaml": (2, "(document)", "control character U+001B (ESC) at column 18"),
    "json-raw-esc-byte.json": (3, "(document)", "control character U+001B (ESC) at column 23"),
    # things a safe loader must refuse
    "tag-python-apply.yaml": (2, "title", "YAML tag !!python/object/apply:os.system"),
    "tag-python-apply-nested.yaml": (12, "models[0].name", "!!python/object/apply:subprocess"),
    "tag-python-name.yaml": (14, "models[1].base", "YAML tag !!python/name:os.system"),
    "tag-custom.yaml": (5, "options", "YAML tag !include is not allowed"),
    "yaml-timestamp.yaml": (2, "title", "quote the value"),
    "alias-bomb.yaml": (2, "a", "YAML anchors (&a) and aliases are not allowed"),
    "duplicate-key.yaml": (16, "models[1].base", "duplicate key 'base'"),
    # one number grammar: JSON's numbers, in decimal; every other form refused by name
    "number-leading-zero.yaml": (8, "models[0].base", "the number 040 has a leading zero"),
    "number-leading-zero-in-point.yaml": (15, "models[1].at[0]", "0250 has a leading zero"),
    "number-base-60.yaml": (14, "models[1].base", "YAML 1.1 reads 1:00 as a base-60 number"),
    "number-hexadecimal.yaml": (8, "models[0].base", "the hexadecimal number 0x20 is not read"),
    "number-binary.yaml": (8, "models[0].base", "the binary number 0b100000 is not read"),
    "number-digit-groups.yaml": (8, "models[0].base", "the number 3_2 has digit groups"),
    "number-leading-plus.yaml": (15, "models[1].at[0]", "the number +300 has a leading '+'"),
    "number-bare-point.yaml": (19, "terrain[0].polygon[2][1]", "needs a digit on both sides"),
    "faction-octal.yaml": (13, "models[1].faction", "the number 010 has a leading zero"),
    "yaml11-boolean-word.yaml": (
        5,
        "options.slide_through_engaged_enemy",
        "yes is true in YAML 1.1 but text in YAML 1.2 and JSON; write true or false",
    ),
    "tag-bool-maybe.yaml": (
        5,
        "options.slide_through_engaged_enemy",
        "'maybe' is not a valid !!bool value (expected true or false)",
    ),
    "tag-int-text.yaml": (10, "models[0].skills.rifle", "'abc' is not a valid !!int value"),
    "tag-float-empty.yaml": (14, "models[1].base", "'' is not a valid !!float value"),
    "tag-int-no-digits.yaml": (10, "models[0].skills.rifle", "'0x' is not a valid !!int value"),
    "anchor-without-alias.yaml": (2, "title", "YAML anchors (&name) and aliases are not allowed"),
    "key-true.yaml": (11, "models[0].true", "expected a key of text; write it in quotes"),
    # limits that are ranges
    "contact-tolerance-beyond-limit.yaml": (
        5,
        "options.contact_tolerance",
        "a contact tolerance of 60 mm is too wide; the limit is 5 mm (MAX_CONTACT_TOLERANCE_MM)",
    ),
    "coordinate-beyond-limit.yaml": (15, "models[1].at[0]", "at most 1e+06 (got 2000000)"),
    "json-duplicate-key.json": (4, "title", "duplicate key 'title'"),
}

SUBPROCESS_CASES = [
    "tag-bool-maybe.yaml",
    "tag-int-no-digits.yaml",
    "tag-python-apply.yaml",
    "tag-python-apply-nested.yaml",
    "json-nan.json",
    "not-utf8.yaml",
    "raw-nul-byte.yaml",
    "broken-yaml.yaml",
    "deeply-nested.json",
    "unknown-terrain-kind.yaml",
]

# Tag cases whose payload would create a file in the working directory if it ran.
PAYLOADS = {
    "tag-python-apply.yaml": "pwned-apply",
    "tag-python-apply-nested.yaml": "pwned-call",
}


def where(path: Path, line: int | None, place: str) -> str:
    return f"{path}:{line}: {place}: " if line is not None else f"{path}: {place}: "


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def run_subprocess(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "FWWRULES_DEBUG"}
    return subprocess.run(
        [sys.executable, "-m", "fwwrules", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_catalogue_is_complete() -> None:
    """Every committed bad file has an expected place, and every expected file exists."""
    on_disk = {p.name for p in MALFORMED.iterdir() if p.is_file()}
    assert on_disk == set(CASES)
    assert len(CASES) >= 30


def test_catalogue_files_break_one_thing_each(good_yaml: str) -> None:
    """The base the catalogue was made from is itself valid (else every case proves nothing)."""
    from fwwrules import loads

    assert loads(good_yaml).summary().startswith("'Catalogue base'")


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_file_exit_2_names_file_and_place(
    name: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    line, place, fragment = CASES[name]
    path = MALFORMED / name
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    first = err.splitlines()[0]
    assert first.startswith(where(path, line, place)), err
    assert fragment in err, err
    # Every line is one problem in the form file:LINE: place: message.
    for text in err.splitlines():
        assert text.startswith(str(path)), text
    for payload in PAYLOADS.values():
        assert not (tmp_path / payload).exists()


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_malformed_file_in_a_real_process(name: str, tmp_path: Path) -> None:
    line, place, fragment = CASES[name]
    path = MALFORMED / name
    proc = run_subprocess(["check", str(path)], tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert proc.stderr.startswith(where(path, line, place)), proc.stderr
    assert fragment in proc.stderr
    assert list(tmp_path.iterdir()) == []  # nothing was created by the file


@pytest.mark.parametrize("name", sorted(PAYLOADS))
def test_tag_payloads_are_real_but_never_run(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Control: an unsafe loader really runs the payload; ``fwwrules.load`` never does."""
    import fwwrules

    monkeypatch.chdir(tmp_path)
    text = (MALFORMED / name).read_text()
    with pytest.raises(fwwrules.ScenarioError):
        fwwrules.load(MALFORMED / name)
    assert not (tmp_path / PAYLOADS[name]).exists()
    yaml.unsafe_load(text)  # what a careless loader would do
    assert (tmp_path / PAYLOADS[name]).exists()


# --- generated files: limits ------------------------------------------------------------------


def _models_yaml(n: int) -> str:
    lines = ["format: fwwrules/scenario@1", "models:"]
    for i in range(n):
        lines.append(f"  - {{id: m{i}, faction: f, base: 30, at: [{i * 50}, 0]}}")
    return "\n".join(lines) + "\n"


def test_file_over_the_size_limit(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    body = "format: fwwrules/scenario@1\n"
    path = write("big.yaml", body + "#" * (MAX_FILE_BYTES - len(body)) + "\n")
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{path}: (document): the file is larger than the limit")


def test_file_at_the_size_limit_is_read(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    body = "format: fwwrules/scenario@1\n"
    path = write("limit.yaml", body + "#" * (MAX_FILE_BYTES - len(body) - 1) + "\n")
    assert path.stat().st_size == MAX_FILE_BYTES
    code, out, _ = run_main(["check", str(path)], capsys)
    assert code == 0
    assert out.startswith(f"{path}: ok: untitled: core rules, units mm, 0 models")


def test_too_many_models(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("crowd.yaml", _models_yaml(MAX_MODELS + 1))
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{path}:2: models: more than {MAX_MODELS} models: the limit is")
    assert "(MAX_MODELS)" in err  # refused while reading: the rest is never counted


def test_as_many_models_as_allowed(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    path = write("crowd.yaml", _models_yaml(MAX_MODELS))
    code, out, _ = run_main(["check", str(path)], capsys)
    assert code == 0
    assert f"{MAX_MODELS} models" in out


def test_too_many_terrain_pieces(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["format: fwwrules/scenario@1", "terrain:"]
    for i in range(MAX_TERRAIN + 1):
        lines.append(f"  - {{id: t{i}, kind: cover, circle: {{at: [{i * 50}, 0], diameter: 10}}}}")
    path = write("forest.yaml", "\n".join(lines) + "\n")
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{path}:2: terrain: more than {MAX_TERRAIN} terrain pieces")


def test_polygon_over_the_vertex_limit(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    import math

    n = MAX_POLYGON_VERTICES + 1
    points = ", ".join(
        f"[{100 * math.cos(2 * math.pi * k / n):.4f}, {100 * math.sin(2 * math.pi * k / n):.4f}]"
        for k in range(n)
    )
    text = (
        "format: fwwrules/scenario@1\nterrain:\n  - id: ring\n    kind: area\n"
        f"    polygon: [{points}]\n"
    )
    path = write("ring.yaml", text)
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"{path}:5: terrain[0].polygon: more than {MAX_POLYGON_VERTICES} corners")


def test_many_problems_are_listed_then_counted(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    n = MAX_REPORTED_PROBLEMS + 7
    lines = ["format: fwwrules/scenario@1", "models:"]
    for i in range(n):
        lines.append(f"  - {{id: m{i}, faction: f, base: wide, at: [{i * 50}, 0]}}")
    path = write("typos.yaml", "\n".join(lines) + "\n")
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    out_lines = err.splitlines()
    assert len(out_lines) == MAX_REPORTED_PROBLEMS + 1
    assert out_lines[0] == f"{path}:3: models[0].base: expected a number (got 'wide')"
    assert out_lines[-1] == f"{path}: ... and 7 more problems"


# --- other errors the CLI must report in one line ---------------------------------------------


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nope.yaml"
    code, _, err = run_main(["check", str(path)], capsys)
    assert code == 2
    assert err == f"fwwrules: error: {path}: cannot read the file (no such file)\n"


def test_directory_instead_of_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(["check", str(tmp_path)], capsys)
    assert code == 2
    assert "not a regular file" in err


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["check"])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_internal_error_is_one_line_exit_1(
    write: Callable[[str, str], Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    good_yaml: str,
) -> None:
    """A bug in fwwrules is not the user's fault: exit 1, one line, no traceback."""
    import fwwrules.scenario

    def broken(self: object) -> str:
        raise ZeroDivisionError("oops")

    monkeypatch.delenv("FWWRULES_DEBUG", raising=False)
    monkeypatch.setattr(fwwrules.scenario.Scenario, "summary", broken)
    code, _, err = run_main(["check", str(write("ok.yaml", good_yaml))], capsys)
    assert code == 1
    assert err.startswith("fwwrules: internal error (ZeroDivisionError: oops)")
    assert len(err.splitlines()) == 1


def test_schema_output_into_a_closed_pipe(tmp_path: Path) -> None:
    """``fwwrules schema | head -1``: no BrokenPipeError noise on stderr."""
    proc = subprocess.run(
        f'"{sys.executable}" -m fwwrules schema | head -c 1',
        shell=True,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.stdout == "{"
    assert proc.stderr == ""


def test_good_file_in_a_real_process(
    write: Callable[[str, str], Path], good_yaml: str, tmp_path: Path
) -> None:
    path = write("good.yaml", good_yaml)
    proc = run_subprocess(["check", str(path)], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        f"{path}: ok: 'Catalogue base': core rules, units mm, 2 models, 1 terrain piece, 1 weapon\n"
    )
    assert proc.stderr == ""
