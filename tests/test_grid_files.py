"""Grid files (``fwwrules/grid@1``): what loads, and every bad file in ``tests/malformed_grid/``
refused with exit status 2 and a message naming the line, the place and what was expected.

Each bad file breaks one thing in :data:`BASE`; :data:`CASES` lists, per file, the line, the
place and a fragment of the message, so a test fails as soon as a message stops naming its
place.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

import fwwrules
from fwwrules.cli import main
from fwwrules.constants import MAX_GRID_CELLS
from fwwrules.errors import ScenarioError
from fwwrules.grid import Creature, GridScenario, Wall, grid_cover

MALFORMED = Path(__file__).parent / "malformed_grid"

BASE = """\
format: fwwrules/grid@1
title: Malformed grid base
square: 5
map: |
  ........
  ...#....
  ....o...
  ........
walls: [[[2, 0], [2, 2]]]
creatures:
  - {id: archer, at: [0, 1]}
  - {id: ogre, at: [5, 1], size: 2, reach: 2}
"""

# file name -> (line or None, place, fragment of the message)
CASES: dict[str, tuple[int | None, str, str]] = {
    "ragged-row.yaml": (7, "map", "row 3: has 7 squares but row 1 has 8"),
    "empty-row.yaml": (7, "map", "row 3: is empty"),
    "unknown-map-character.yaml": (6, "map", "column 7: unknown map character 'x'"),
    "map-missing.yaml": (1, "map", "required key 'map' is missing"),
    "map-empty.yaml": (4, "map", "the map is empty"),
    "map-number.yaml": (4, "map", "got 12"),
    "legend-unknown-kind.yaml": (4, "legend['~']", "expected one of open, wall, low, arrow-slit"),
    "legend-two-characters.yaml": (4, "legend", "single map characters (got '##')"),
    "square-negative.yaml": (3, "square", "above 0 (got -5)"),
    "square-text.yaml": (3, "square", "expected a number (got '5')"),
    "square-octal.yaml": (3, "square", "the number 05 has a leading zero"),
    "unknown-top-key.yaml": (4, "scale", "unknown key 'scale'"),
    "wall-diagonal.yaml": (9, "walls[0]", "not horizontal or vertical"),
    "wall-outside-map.yaml": (9, "walls[0]", "corner (2, 9) is outside the map"),
    "wall-zero-length.yaml": (9, "walls[0]", "two different corners"),
    "wall-three-numbers.yaml": (9, "walls[0][0]", "at most 2 items"),
    "wall-through-big-creature.yaml": (9, "walls[0]", "runs through the space of 'ogre'"),
    "creature-outside-map.yaml": (12, "creatures[1].at", "does not fit inside the 8x4 map"),
    "creature-overlap.yaml": (12, "creatures[1].at", "'ogre' overlaps 'archer' at square (0, 1)"),
    "creature-on-wall.yaml": (11, "creatures[0].at", "stands on the wall square (3, 1)"),
    "duplicate-creature-id.yaml": (12, "creatures[1].id", "duplicate id 'archer'"),
    "creature-bad-id.yaml": (11, "creatures[0].id", "(got 'Archer')"),
    "creature-unknown-key.yaml": (11, "creatures[0].hp", "unknown key 'hp'"),
    "creature-size-zero.yaml": (12, "creatures[1].size", "at least 1 (got 0)"),
    "creature-float-square.yaml": (11, "creatures[0].at[0]", "whole number (got 0.5)"),
    "creature-at-bool.yaml": (11, "creatures[0].at[0]", "(got true)"),
    # issue 11: the grid file's text is the scenario file's shared text type
    "title-escape-sequence.yaml": (2, "title", "without control characters"),
    "creature-name-control-character.yaml": (11, "creatures[0].name", "without control characters"),
}


def test_grid_malformed_catalogue_is_complete() -> None:
    on_disk = {p.name for p in MALFORMED.glob("*.yaml")}
    assert on_disk == set(CASES)
    for name in CASES:
        assert (MALFORMED / name).read_text() != BASE


@pytest.mark.parametrize("name", sorted(CASES))
def test_grid_malformed_file_is_refused_with_place_and_line(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    line, place, fragment = CASES[name]
    path = MALFORMED / name
    with pytest.raises(ScenarioError) as info:
        fwwrules.load(path)
    rendered = [p.render(str(path)) for p in info.value.problems]
    where = f"{path}:{line}: {place}: " if line is not None else f"{path}: {place}: "
    assert any(r.startswith(where) and fragment in r for r in rendered), rendered
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err
    assert main(["grid", str(path), "--attacker", "archer", "--target", "ogre"]) == 2


def test_grid_base_of_the_catalogue_loads(write: Callable[[str, str], Path]) -> None:
    s = fwwrules.load(write("base.yaml", BASE))
    assert isinstance(s, GridScenario)
    assert (s.width, s.height, s.square) == (8, 4, 5.0)
    assert s.kind((3, 1)) == "wall" and s.kind((4, 2)) == "low" and s.kind((0, 0)) == "open"
    assert s.occupant((6, 2)) == "ogre" and s.occupant((0, 0)) is None
    assert s.walls == (Wall((2, 0), (2, 2)),)
    assert s.creature("ogre") == Creature("ogre", (5, 1), 2, 2)


def test_grid_too_many_squares_is_refused(write: Callable[[str, str], Path]) -> None:
    side = int(MAX_GRID_CELLS**0.5) + 1
    text = "format: fwwrules/grid@1\nmap: |\n" + ("  " + "." * side + "\n") * side
    with pytest.raises(ScenarioError, match=f"the limit is {MAX_GRID_CELLS}"):
        fwwrules.load(write("huge.yaml", text))


def test_grid_map_as_a_list_reports_row_lines(write: Callable[[str, str], Path]) -> None:
    text = "format: fwwrules/grid@1\nmap:\n  - '....'\n  - '..'\ncreatures: []\n"
    with pytest.raises(ScenarioError) as info:
        fwwrules.load(write("list.yaml", text))
    assert info.value.problems[0].line == 4
    assert "row 2: has 2 squares" in info.value.problems[0].message


def test_grid_json_file_and_legend_override(write: Callable[[str, str], Path]) -> None:
    text = """{
  "format": "fwwrules/grid@1",
  "map": "....\\n.X..\\n",
  "legend": {"X": "arrow-slit", "#": "low"},
  "creatures": [{"id": "a", "at": [0, 1]}, {"id": "b", "at": [3, 1]}]
}
"""
    s = fwwrules.load(write("g.json", text))
    assert isinstance(s, GridScenario)
    assert s.kind((1, 1)) == "arrow-slit"
    assert grid_cover(s, "b", "a").cover == "improved"  # "a" stands behind the slit


def test_grid_trailing_blanks_are_ignored(write: Callable[[str, str], Path]) -> None:
    text = 'format: fwwrules/grid@1\nmap: "...  \\n...\\n\\n"\n'
    s = fwwrules.load(write("t.yaml", text))
    assert (s.width, s.height) == (3, 2)


def test_grid_scenario_built_directly_validates_itself() -> None:
    kinds = (("open", "open"), ("open", "wall"))
    GridScenario(kinds=kinds, creatures=(Creature("a", (0, 0)),))
    with pytest.raises(ScenarioError, match="stands on the wall square"):
        GridScenario(kinds=kinds, creatures=(Creature("a", (1, 1)),))
    with pytest.raises(ScenarioError, match="not horizontal or vertical"):
        GridScenario(kinds=kinds, walls=(Wall((0, 0), (1, 1)),))
    with pytest.raises(ScenarioError, match="unknown kind 'lava'"):
        GridScenario(kinds=(("lava",),))


def test_grid_walls_longer_than_the_limit_are_refused(write: Callable[[str, str], Path]) -> None:
    from fwwrules.constants import MAX_GRID_WALL_EDGES

    n = MAX_GRID_WALL_EDGES // 4 + 1
    walls = "  - [[0, 0], [4, 0]]\n" * n
    text = f"format: fwwrules/grid@1\nmap: |\n  ....\n  ....\nwalls:\n{walls}"
    path = write("long-walls.yaml", text)
    with pytest.raises(ScenarioError, match="MAX_GRID_WALL_EDGES"):
        fwwrules.load(path)
    assert main(["check", str(path)]) == 2


def _pillars(last: int) -> str:
    """Two 3x3 creatures at either end of a corridor with pillars (wall squares) on every
    other column from 5 to ``last``."""
    row = "".join("#" if 5 <= c <= last and c % 2 else "." for c in range(36))
    rows = "".join(f"  {row}\n" for _ in range(6))
    return (
        f"format: fwwrules/grid@1\nmap: |\n{rows}creatures:\n"
        "  - {id: a, at: [0, 1], size: 3}\n  - {id: b, at: [33, 1], size: 3}\n"
    )


def test_grid_line_of_effect_over_the_line_limit_is_refused(
    write: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A line-of-effect search needing more than MAX_GRID_EFFECT_LINES candidate lines is
    refused (exit 2, the limit's name and the pair), not worked through; with fewer pillars
    the same corridor is answered."""
    from fwwrules.constants import MAX_GRID_EFFECT_LINES
    from fwwrules.errors import QueryError

    over = write("pillars.yaml", _pillars(29))
    with pytest.raises(QueryError, match=f"the limit is {MAX_GRID_EFFECT_LINES}") as info:
        grid_cover(fwwrules.load(over), "a", "b")  # type: ignore[arg-type]
    assert "MAX_GRID_EFFECT_LINES" in str(info.value)
    assert "'a'" in str(info.value) and "'b'" in str(info.value)
    capsys.readouterr()
    assert main(["grid", str(over), "--attacker", "a", "--target", "b"]) == 2
    err = capsys.readouterr().err
    assert "MAX_GRID_EFFECT_LINES" in err and "Traceback" not in err
    under = write("few-pillars.yaml", _pillars(9))
    ruling = grid_cover(fwwrules.load(under), "a", "b")  # type: ignore[arg-type]
    assert ruling.to_dict()["attacker"] == "a"


def test_grid_too_many_wall_entries_are_refused_while_reading(
    write: Callable[[str, str], Path],
) -> None:
    from fwwrules.constants import MAX_GRID_WALLS

    walls = "  - [[0, 0], [1, 0]]\n" * (MAX_GRID_WALLS + 1)
    path = write("walls.yaml", f"format: fwwrules/grid@1\nmap: |\n  ..\nwalls:\n{walls}")
    with pytest.raises(ScenarioError, match=rf"more than {MAX_GRID_WALLS} walls.*MAX_GRID_WALLS"):
        fwwrules.load(path)
