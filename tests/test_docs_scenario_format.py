"""docs/scenario-format.md: every example in it loads as written, and it names every field.

The page has one complete scenario, one complete grid and one bad file whose error lines it
shows verbatim; each ``yaml`` block is loaded here, and the bad one must give exactly the
``text`` block that follows it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import fwwrules
from fwwrules.errors import ScenarioError

DOC = Path(__file__).resolve().parents[1] / "docs" / "scenario-format.md"
TEXT = DOC.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```yaml\n(.*?)```", TEXT, re.S)


def test_the_page_has_a_scenario_a_grid_and_a_bad_file() -> None:
    formats = [re.search(r"^format: (\S+)", b, re.M) for b in BLOCKS]
    assert [m.group(1) if m else None for m in formats] == [
        "fwwrules/scenario@1",
        "fwwrules/grid@1",
        "fwwrules/scenario@1",
    ]


def test_the_scenario_example_loads_and_answers() -> None:
    scenario = fwwrules.loads(BLOCKS[0], "scenario-format.md")
    r = fwwrules.ruling(scenario, "knight", "brute")
    assert r.allowed and [c.source for c in r.cover] == ["crate"]
    assert {m.id for m in scenario.models} == {"knight", "brute"}
    assert {t.id for t in scenario.terrain} == {"crate", "wall", "tree"}


def test_the_grid_example_loads_and_answers() -> None:
    grid = fwwrules.loads(BLOCKS[1], "scenario-format.md")
    answer = fwwrules.grid_cover(grid, "cleric", "goblin").to_dict()
    assert (answer["cover"], answer["soft"]) == ("cover", False)  # behind the wall square


def test_the_bad_example_gives_exactly_the_lines_shown(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BLOCKS[2], encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        fwwrules.load(bad)
    shown = re.search(r"prints\n\n```text\n(.*?)```", TEXT, re.S)
    assert shown is not None
    expected = shown.group(1).strip().replace("bad.yaml", str(bad))
    assert info.value.render().strip() == expected


@pytest.mark.parametrize(
    "spec",
    ["ScenarioSpec", "ModelSpec", "TerrainSpec", "WeaponSpec", "OptionsSpec", "RectSpec"],
)
def test_every_scenario_field_is_described(spec: str) -> None:
    from fwwrules import scenario

    for name in getattr(scenario, spec).model_fields:
        assert f"`{name}`" in TEXT or f"{name}:" in TEXT, f"{spec}.{name} is not described"


@pytest.mark.parametrize("spec", ["GridSpec", "CreatureSpec"])
def test_every_grid_field_is_described(spec: str) -> None:
    from fwwrules import grid

    for name in getattr(grid, spec).model_fields:
        assert f"`{name}`" in TEXT, f"{spec}.{name} is not described"
