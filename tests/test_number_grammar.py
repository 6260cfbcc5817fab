"""One number grammar for YAML and JSON (``fwwrules.scalars``): the numbers JSON allows, read
the same in both formats; every other form some YAML reader takes for a number or a boolean is
refused by name (the refusals are in the malformed-file catalogue, ``tests/test_cli_errors.py``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import fwwrules
from fwwrules.scalars import Dumper, ScalarFormError, construct, plain_tag

BASE = """\
format: fwwrules/scenario@1
models:
  - {id: a, faction: x, base: BASE, at: [AT, 0]}
  - {id: b, faction: FACTION, base: 40, at: [300, 0]}
"""


def board(base: str = "40", at: str = "0", faction: str = "y") -> str:
    return BASE.replace("BASE", base).replace("AT", at).replace("FACTION", faction)


@pytest.mark.parametrize(
    ("written", "value"),
    [("4e1", 40.0), ("4E1", 40.0), ("0.4e2", 40.0), ("400e-1", 40.0), ("40.0", 40.0), ("40", 40)],
)
def test_json_numbers_read_the_same_in_yaml_and_json(written: str, value: float) -> None:
    """``1e3`` (no point) was text in YAML and a number in JSON."""
    from_yaml = fwwrules.loads(board(base=written))
    data = yaml.safe_load(board(base="BASE"))
    text = json.dumps(data).replace('"BASE"', written)
    assert f'"base": {written},' in text
    from_json = fwwrules.loads(text, json=True)
    assert from_yaml.model("a").base == value == from_json.model("a").base


def test_a_faction_written_as_a_number_is_refused_naming_the_form() -> None:
    """``faction: 010`` was reported as "got 8"."""
    with pytest.raises(fwwrules.ScenarioError) as info:
        fwwrules.loads(board(faction="010"), source="f.yaml")
    assert "got 8" not in str(info.value)
    assert str(info.value).startswith("f.yaml:4: models[1].faction: the number 010 has a leading")
    assert fwwrules.loads(board(faction='"010"')).model("b").faction == "010"


@pytest.mark.parametrize("form", ["040", "0250", "1:00", "0x20", "0b100000", "3_2", "0o40", "+5"])
def test_yaml_11_number_forms_never_read_as_a_number(form: str) -> None:
    with pytest.raises(fwwrules.ScenarioError, match="write numbers in decimal as JSON does"):
        fwwrules.loads(board(base=form))


@pytest.mark.parametrize(
    ("tag", "text"), [("!!bool", "maybe"), ("!!int", "abc"), ("!!float", '""'), ("!!int", "0x")]
)
def test_explicit_tags_with_bad_values_are_refused_with_the_place(tag: str, text: str) -> None:
    """These raised a raw KeyError, ValueError or IndexError (exit 1)."""
    with pytest.raises(fwwrules.ScenarioError) as info:
        fwwrules.loads(board(base=f"{tag} {text}"), source="f.yaml")
    assert str(info.value).startswith(f"f.yaml:3: models[0].base: {text.strip(chr(34))!r} is not")


def test_explicit_tags_with_good_values_read_by_the_same_grammar() -> None:
    assert fwwrules.loads(board(base="!!float 40")).model("a").base == 40.0
    assert fwwrules.loads(board(faction="!!str 010")).model("b").faction == "010"
    with pytest.raises(fwwrules.ScenarioError, match="not a valid !!int"):
        fwwrules.loads(board(base="!!int 40.5"))


@given(st.text(alphabet="0123456789+-._:eExXoObB ", max_size=8))
def test_the_writer_quotes_every_text_the_reader_would_not_read_back(text: str) -> None:
    """What ``save`` writes loads back equal: a name like ``1e3`` or ``010`` is quoted."""
    dumped = yaml.dump({"name": text}, Dumper=Dumper)
    node = yaml.compose(dumped)
    value = node.value[0][1]
    if value.style is None:  # written plain: the grammar reads it back as this very text
        assert plain_tag(value.value).endswith(":str")
        assert construct(plain_tag(value.value), value.value) == text
    assert yaml.safe_load(dumped)["name"] == text


@pytest.mark.parametrize("name", ["1e3", "010", "yes", "null", "1:00", "0x20", "true", "-.5"])
def test_a_name_that_looks_like_a_number_survives_save_and_load(name: str, tmp_path: Path) -> None:
    s = fwwrules.loads(board())
    s = replace(s, models=(replace(s.models[0], name=name), s.models[1]))
    fwwrules.save(s, tmp_path / "b.yaml")
    back = fwwrules.load(tmp_path / "b.yaml")
    assert isinstance(back, fwwrules.Scenario) and back.model("a").name == name


def test_plain_tag_refuses_yaml_11_booleans() -> None:
    for word in ("yes", "No", "ON", "off"):
        with pytest.raises(ScalarFormError, match="write true or false"):
            plain_tag(word)


def test_the_format_guide_shows_the_real_message() -> None:
    """docs/scenario-format.md quotes the refusal of ``base: 040`` as the loader words it."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md"
    shown = next(line for line in doc.read_text(encoding="utf-8").splitlines() if "040 has" in line)
    bad = Path(__file__).parent / "malformed" / "number-leading-zero.yaml"
    with pytest.raises(fwwrules.ScenarioError) as info:
        fwwrules.loads(bad.read_text(), source="bad.yaml")
    assert str(info.value) == shown
