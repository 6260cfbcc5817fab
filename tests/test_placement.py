"""fwwrules.placement: a hand-moved base stops at contact and stays on the table."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fwwrules.board import TERRAIN
from fwwrules.constants import DEFAULT_CONTACT_TOLERANCE_MM
from fwwrules.errors import UnknownIdError
from fwwrules.placement import (
    CONTENT_MARGIN_MM,
    board_bounds,
    slide_at_contact,
    stop_at_contact,
)
from fwwrules.scenario import Model, Scenario

BIG = (-1000.0, -1000.0, 1000.0, 1000.0)
EXAMPLES = Path(__file__).resolve().parents[1] / "fwwrules" / "examples"


def two(units: str = "mm", gap_x: float = 50.0) -> Scenario:
    return Scenario(
        units=units,
        models=(
            Model("a", "red", 20.0, (0.0, 0.0)),
            Model("b", "blue", 20.0, (gap_x, 0.0)),
        ),
    )


def gap_mm(s: Scenario, a: str, b: str) -> float:
    return s.board.models[a].disc.gap(s.board.models[b].disc)


def moved(s: Scenario, mid: str, at: tuple[float, float]) -> Scenario:
    models = tuple(dataclasses.replace(m, at=at) if m.id == mid else m for m in s.models)
    return dataclasses.replace(s, models=models)


def test_move_straight_into_a_base_stops_at_contact_gap_zero() -> None:
    s = two()
    at = stop_at_contact(s, "a", (100.0, 0.0))
    after = moved(s, "a", at)
    assert 0.0 <= gap_mm(after, "a", "b") <= 1e-6
    assert at[1] == 0.0


def test_move_short_of_the_other_base_reaches_the_point() -> None:
    assert stop_at_contact(two(), "a", (20.0, 0.0)) == (20.0, 0.0)


def test_move_passing_beside_a_base_is_free() -> None:
    # b's centre is 50 mm away along x; passing 25 mm above it is clear (radii sum 20).
    s = two()
    s = moved(s, "a", (0.0, 25.0))
    assert stop_at_contact(s, "a", (100.0, 25.0), bounds=BIG) == (100.0, 25.0)


def test_move_grazing_a_base_tangentially_stops_where_it_touches() -> None:
    """Passing at exactly the radius sum touches the other base (gap 0) once: a contact."""
    s = moved(two(), "a", (0.0, 20.0))
    x, y = stop_at_contact(s, "a", (100.0, 20.0), bounds=BIG)
    assert (x, y) == (pytest.approx(50.0, abs=1e-6), 20.0)


def test_base_in_contact_may_move_away_but_not_closer() -> None:
    s = two(gap_x=20.0)  # touching
    assert stop_at_contact(s, "a", (-10.0, 0.0)) == (-10.0, 0.0)
    assert stop_at_contact(s, "a", (10.0, 0.0)) == (0.0, 0.0)


def test_inches_scenario_answers_in_inches() -> None:
    s = Scenario(
        units="in",
        models=(Model("a", "red", 1.0, (0.0, 0.0)), Model("b", "blue", 1.0, (3.0, 0.0))),
    )
    x, y = stop_at_contact(s, "a", (10.0, 0.0))
    assert x == pytest.approx(2.0, abs=1e-9)
    assert y == 0.0


def test_move_stops_at_the_table_edge_from_board_bounds() -> None:
    s = two()
    _, ymin, _, _ = board_bounds(s)
    x, y = stop_at_contact(s, "a", (0.0, -1000.0))
    assert y == pytest.approx(ymin + 10.0, abs=1e-6)
    assert y >= ymin + 10.0
    assert x == 0.0


def test_board_bounds_without_size_is_contents_plus_margin() -> None:
    s = two()
    assert board_bounds(s) == pytest.approx(
        (-10.0 - CONTENT_MARGIN_MM, -10.0 - CONTENT_MARGIN_MM, 60.0 + CONTENT_MARGIN_MM, 10.0 + 30)
    )


def test_board_bounds_uses_board_size_when_the_scenario_has_one() -> None:
    s = two()
    s = dataclasses.replace(s, board_size=(600.0, 400.0))
    assert board_bounds(s) == (0.0, 0.0, 600.0, 400.0)
    # a (centre 0, 0) hangs over the table's corner: it may not go further off ...
    assert stop_at_contact(s, "a", (-500.0, 0.0)) == (0.0, 0.0)
    # ... and b stops at the far edge of the 600 mm table, not at the contents' margin
    x, y = stop_at_contact(s, "b", (1000.0, 0.0))
    assert (x, y) == (pytest.approx(590.0, abs=1e-6), 0.0)


def test_explicit_bounds_override_the_scenario() -> None:
    s = two()
    x, _ = stop_at_contact(s, "a", (-100.0, 0.0), bounds=(-30.0, -30.0, 100.0, 30.0))
    assert x == pytest.approx(-20.0, abs=1e-6)


def test_unknown_model_is_an_error() -> None:
    with pytest.raises(UnknownIdError):
        stop_at_contact(two(), "nobody", (1.0, 1.0))


@settings(max_examples=200, deadline=None)
@given(
    tx=st.floats(-300, 300),
    ty=st.floats(-300, 300),
    bx=st.floats(-80, 80),
    by=st.floats(-80, 80),
)
def test_never_overlapping_never_off_the_table(tx: float, ty: float, bx: float, by: float) -> None:
    """Whatever the aim, the moved base never overlaps another by more than rounding, and
    stays within the table; a contact stop lies within the contact tolerance."""
    s = Scenario(
        models=(
            Model("a", "red", 25.0, (0.0, 0.0)),
            Model("b", "blue", 32.0, (bx, by)),
        )
    )
    if gap_mm(s, "a", "b") < 0:
        return  # not a valid starting board
    bounds = (-150.0, -150.0, 150.0, 150.0)
    x, y = stop_at_contact(s, "a", (tx, ty), bounds=bounds)
    after = moved(s, "a", (x, y))
    g = gap_mm(after, "a", "b")
    assert g >= -1e-9
    assert -150.0 + 12.5 - 1e-9 <= x <= 150.0 - 12.5 + 1e-9
    assert -150.0 + 12.5 - 1e-9 <= y <= 150.0 - 12.5 + 1e-9
    reached = math.isclose(x, tx, abs_tol=1e-9) and math.isclose(y, ty, abs_tol=1e-9)
    at_edge = min(x + 137.5, 137.5 - x, y + 137.5, 137.5 - y) <= 1e-6
    if not reached and not at_edge:
        assert g <= DEFAULT_CONTACT_TOLERANCE_MM


# --- move_model keeps what the terrain alone determines -------------------------------------


def _rulings(s: Scenario) -> list[object]:
    import fwwrules
    from fwwrules.errors import FwwError

    out: list[object] = []
    for a in s.models:
        for t in s.models:
            if a.id == t.id:
                continue
            try:
                out.append(fwwrules.ruling(s, a.id, t.id).to_dict())
            except FwwError as exc:
                out.append(str(exc))
    return out


@pytest.mark.parametrize("name", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_move_model_reuses_terrain_geometry_and_rules_as_a_fresh_scenario(name: str) -> None:
    """Every example: after rulings filled the cache, move each model 7 mm; the moved
    scenario shares the terrain geometry and merged solids, and every ruling on it equals the
    ruling on the same board built from scratch."""
    import fwwrules
    from fwwrules.placement import move_model

    s = fwwrules.load(EXAMPLES / name)
    _rulings(s)  # fills the cache: solids, kind maps, Significant Edges
    for m in s.models:
        moved_s = move_model(s, m.id, m.at[0] + 7.0, m.at[1])
        assert moved_s.board.terrain is s.board.terrain
        assert moved_s.board.models[m.id].disc.x == pytest.approx(
            s.board.models[m.id].disc.x + 7.0 * s.unit_mm
        )
        fresh = dataclasses.replace(moved_s)
        assert fresh.derived.get(TERRAIN) is None
        assert _rulings(moved_s) == _rulings(fresh)


def test_move_model_before_any_ruling_carries_nothing() -> None:
    from fwwrules.placement import move_model

    s = two()
    moved_s = move_model(s, "a", 5.0, 0.0)
    assert list(moved_s.derived.keys()) == []
    assert moved_s.board.models["a"].disc.x == 5.0


# --- slide_at_contact: a drag keeps the tangential part of the motion -----------------------


def test_drag_into_a_base_slides_round_it_keeping_contact() -> None:
    """From contact, aiming into the other base: the base goes round it (gap 0) to the point
    of contact nearest the aim, instead of sticking where it touched."""
    s = two(gap_x=20.0)  # a and b (20 mm bases) touching, b to the right
    assert stop_at_contact(s, "a", (5.0, 10.0)) == (0.0, 0.0)  # the straight move sticks
    x, y = slide_at_contact(s, "a", (5.0, 10.0))
    assert gap_mm(moved(s, "a", (x, y)), "a", "b") == pytest.approx(0.0, abs=1e-6)
    # the motion's tangential part (10 mm, upward) as 10 mm of arc round b
    angle = math.pi - 10.0 / 20.0
    assert (x, y) == pytest.approx((20.0 + 20.0 * math.cos(angle), 20.0 * math.sin(angle)))


def test_slide_stops_at_the_contact_point_facing_the_aim() -> None:
    """A long sideways motion into b: round b no further than the point facing the aim."""
    s = two(gap_x=20.0)
    x, y = slide_at_contact(s, "a", (20.0, 60.0), bounds=BIG)  # aim right above b's centre
    assert (x, y) == pytest.approx((20.0, 20.0))  # facing the aim, not past it


def test_drag_toward_a_base_stops_at_contact_then_slides_the_rest() -> None:
    s = two(gap_x=50.0)  # 30 mm apart edge to edge
    x, y = slide_at_contact(s, "a", (60.0, 10.0), bounds=BIG)  # the line meets b
    assert gap_mm(moved(s, "a", (x, y)), "a", "b") == pytest.approx(0.0, abs=1e-6)
    assert y > 10.0  # went round b toward the aim, not stuck on the line of the move


def test_drag_without_contact_is_the_straight_move() -> None:
    s = two()
    assert slide_at_contact(s, "a", (0.0, 25.0)) == stop_at_contact(s, "a", (0.0, 25.0))


def test_drag_straight_at_the_centre_of_the_touched_base_stays() -> None:
    s = two(gap_x=20.0)
    assert slide_at_contact(s, "a", (20.0, 0.0)) == pytest.approx((0.0, 0.0), abs=1e-6)


def test_wedged_base_does_not_slide_into_a_third() -> None:
    s = Scenario(
        models=(
            Model("a", "red", 20.0, (0.0, 0.0)),
            Model("b", "blue", 20.0, (20.0, 0.0)),
            Model("c", "blue", 20.0, (10.0, 10.0 * math.sqrt(3.0) + 1e-6)),
        )
    )
    x, y = slide_at_contact(s, "a", (15.0, 12.0), bounds=BIG)
    after = moved(s, "a", (x, y))
    assert gap_mm(after, "a", "b") >= -1e-9 and gap_mm(after, "a", "c") >= -1e-9
    assert math.hypot(x, y) < 0.5  # it cannot get round b without overlapping c


def test_drag_against_the_table_edge_slides_along_it() -> None:
    s = two()
    bounds = (-50.0, -50.0, 100.0, 50.0)
    x, y = slide_at_contact(s, "a", (-30.0, -90.0), bounds=bounds)
    assert y == pytest.approx(-40.0, abs=1e-6)  # on the edge (radius 10 from -50)
    assert x == pytest.approx(-30.0, abs=1e-6)  # and the sideways part of the motion kept


@settings(max_examples=200, deadline=None)
@given(
    tx=st.floats(-300, 300),
    ty=st.floats(-300, 300),
    bx=st.floats(-80, 80),
    by=st.floats(-80, 80),
    cx=st.floats(-80, 80),
    cy=st.floats(-80, 80),
)
def test_slide_never_overlapping_never_off_the_table(
    tx: float, ty: float, bx: float, by: float, cx: float, cy: float
) -> None:
    s = Scenario(
        models=(
            Model("a", "red", 25.0, (0.0, 0.0)),
            Model("b", "blue", 32.0, (bx, by)),
            Model("c", "blue", 40.0, (cx, cy)),
        )
    )
    if gap_mm(s, "a", "b") < 0 or gap_mm(s, "a", "c") < 0 or gap_mm(s, "b", "c") < 0:
        return  # not a valid starting board
    bounds = (-150.0, -150.0, 150.0, 150.0)
    x, y = slide_at_contact(s, "a", (tx, ty), bounds=bounds)
    after = moved(s, "a", (x, y))
    assert gap_mm(after, "a", "b") >= -1e-9 and gap_mm(after, "a", "c") >= -1e-9
    assert -150.0 + 12.5 - 1e-9 <= x <= 150.0 - 12.5 + 1e-9
    assert -150.0 + 12.5 - 1e-9 <= y <= 150.0 - 12.5 + 1e-9
