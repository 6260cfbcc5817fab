"""The optional table size ``board: {size: [w, h]}`` (docs/scenario-format.md): data, file,
save, schema, and the default table (contents' bounding box plus a margin). Bad files:
``test_cli_errors.py``."""

from __future__ import annotations

import dataclasses

import pytest

import fwwrules
from fwwrules.board import board_limits
from fwwrules.constants import BOARD_MARGIN_MM, MM_PER_INCH
from fwwrules.data import Scenario
from fwwrules.errors import ScenarioError
from fwwrules.pieces import Model, Rect, Terrain
from fwwrules.scenario import dump_text, json_schema

BASE = """\
format: fwwrules/scenario@1
units: {units}
{board}models:
  - id: a
    faction: x
    base: {base}
    at: [{x}, {y}]
"""


def text(board: str = "", units: str = "mm", base: float = 40, x: float = 100, y: float = 100):
    return BASE.format(board=board, units=units, base=base, x=x, y=y)


def test_board_size_loads_and_gives_the_table_from_the_origin() -> None:
    s = fwwrules.loads(text("board: {size: [1219.2, 900]}\n"))
    assert isinstance(s, Scenario)
    assert s.board_size == (1219.2, 900.0)
    assert s.limits_mm() == (0.0, 0.0, 1219.2, 900.0)


def test_board_size_in_inches_is_converted_for_the_limits() -> None:
    s = fwwrules.loads(text("board: {size: [48, 48]}\n", units="in", base=1.25, x=4, y=4))
    assert isinstance(s, Scenario)
    assert s.limits_mm() == pytest.approx((0.0, 0.0, 48 * MM_PER_INCH, 48 * MM_PER_INCH))


def test_default_table_is_bounding_box_plus_margin() -> None:
    s = Scenario(
        models=(Model("a", "x", 40, (100, 100)),),
        terrain=(Terrain("t", "cover", Rect((300, 50), (20, 10))),),
    )
    m = BOARD_MARGIN_MM
    assert s.board_size is None
    assert s.limits_mm() == pytest.approx((80 - m, 45 - m, 310 + m, 120 + m))
    assert board_limits(s.board, margin_mm=0) == pytest.approx((80, 45, 310, 120))
    assert Scenario().limits_mm() == (0.0, 0.0, 100.0, 100.0)


def test_default_table_of_a_moved_model_uses_the_terrain_measured_once() -> None:
    from fwwrules.placement import move_model

    s = Scenario(
        models=(Model("a", "x", 40, (100, 100)),),
        terrain=(
            Terrain("t", "cover", Rect((300, 50), (20, 10))),
            Terrain("u", "blocking", Rect((150, 400), (40, 20))),
        ),
    )
    assert s.board.terrain_extent == pytest.approx((130, 45, 310, 410))
    moved = move_model(s, "a", 500, 20)
    assert moved.board.terrain_extent is s.board.terrain_extent  # the terrain's, shared
    assert board_limits(moved.board, margin_mm=0) == pytest.approx((130, 0, 520, 410))
    assert Scenario(models=s.models).board.terrain_extent is None


def test_a_base_touching_the_table_edge_is_on_the_table() -> None:
    s = fwwrules.loads(text("board: {size: [120, 120]}\n", x=20, y=100))
    assert isinstance(s, Scenario)


def test_a_base_a_hair_over_the_edge_is_refused_naming_the_place() -> None:
    with pytest.raises(ScenarioError) as err:
        fwwrules.loads(text("board: {size: [120, 120]}\n", x=19.99, y=100), "t.yaml")
    assert "t.yaml:8: models[0].at:" in str(err.value)
    assert "off the table [0, 120] x [0, 120]" in str(err.value)


def test_without_board_any_position_is_fine() -> None:
    s = fwwrules.loads(text(x=-500, y=-500))
    assert isinstance(s, Scenario) and s.board_size is None


def test_board_size_round_trips_through_save() -> None:
    s = fwwrules.loads(text("board: {size: [600, 400]}\n"))
    assert isinstance(s, Scenario)
    again = fwwrules.loads(dump_text(s))
    assert again == s
    assert "board:" not in dump_text(dataclasses.replace(s, board_size=None))
    json_again = fwwrules.loads(dump_text(s, json_=True), json=True)
    assert json_again == s


def test_board_size_is_in_the_json_schema() -> None:
    schema = json_schema()
    assert "board" in schema["properties"]
    spec = schema["$defs"]["BoardSpec"]
    assert spec["required"] == ["size"]
    assert spec["additionalProperties"] is False
