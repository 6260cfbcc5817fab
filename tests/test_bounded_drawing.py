"""Drawing work bounded by design for every accepted input (issue #21): tick steps grow with
the span, so two models 1,000,000 in apart are a dozen ticks, not 83,335 (``render`` took 186 s
and 2.2 GB); the editor refuses a piece beyond its drawing limit (a huge circle cost up to
3.75 GB), draws a huge table with a bounded grid, and a failed redraw leaves it working.
``bench/worst_case.py`` measures the same cases (time and peak memory)."""

from __future__ import annotations

from typing import Any

import pytest
from fwwrules_widgets import BoardEditor, EditRefused

import fwwrules
from fwwrules.draw import draw_board
from fwwrules.draw.figure import new_axes


def far_apart(units: str, distance: float) -> fwwrules.Scenario:
    base = 1.25 if units == "in" else 32
    text = (
        f"format: fwwrules/scenario@1\nunits: {units}\nmodels:\n"
        f"  - {{id: a, faction: x, base: {base}, at: [0, 0]}}\n"
        f"  - {{id: b, faction: y, base: {base}, at: [{distance:.0f}, 0]}}\n"
    )
    s = fwwrules.loads(text)
    assert isinstance(s, fwwrules.Scenario)
    return s


@pytest.mark.parametrize(
    ("units", "distance"), [("in", 1e6), ("mm", 1e6), ("in", 1e4), ("mm", 100)]
)
def test_render_ticks_stay_a_dozen_whatever_the_span(units: str, distance: float) -> None:
    ax = new_axes((6, 4), 100, (0.1, 0.7, 0.1, 0.9))
    draw_board(far_apart(units, distance), ax)
    for axis in (ax.xaxis, ax.yaxis):
        assert 2 <= len(axis.get_major_locator()()) <= 14


def test_tick_steps_are_the_tables_measures_then_1_2_5() -> None:
    from fwwrules.draw.board import tick_step

    inches = (1.0, 2.0, 6.0, 12.0, 24.0)
    assert [tick_step(s, inches) for s in (10, 24, 48, 72, 288)] == [1.0, 2.0, 6.0, 6.0, 24.0]
    assert [tick_step(s, inches) for s in (1000, 1e6, 2.4e6)] == [100.0, 1e5, 2e5]


FAR_RENDER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
resource.setrlimit(resource.RLIMIT_CPU, (30, 30))
import fwwrules
from fwwrules.draw import render_file
s = fwwrules.loads(sys.argv[2])
print(render_file(s, sys.argv[1]).name)
"""


def test_render_of_models_a_million_inches_apart(tmp_path: Any) -> None:
    """Under a 1.5 GB address-space cap and 30 s of CPU (it takes about 1 s and 100 MB; the
    starting code took 186 s and 2.2 GB, and was killed by these caps)."""
    import subprocess
    import sys

    from fwwrules.saving import dump_text

    out = tmp_path / "far.png"
    proc = subprocess.run(
        [sys.executable, "-c", FAR_RENDER, str(out), dump_text(far_apart("in", 1e6))],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, "far.png\n"), proc.stderr[-2000:]
    assert out.read_bytes().startswith(b"\x89PNG")


def editor(size: tuple[float, float] = (48, 48)) -> BoardEditor:
    ed = BoardEditor(units="in", size=size, interactive=False)
    ed.add_model((10, 10), faction="a")
    return ed


@pytest.mark.parametrize(
    "edit",
    [
        lambda ed: ed.add_circle((24, 24), 1e6, kind="area"),
        lambda ed: ed.add_rect((0, 0), (1e6, 1e6), kind="cover"),
        lambda ed: ed.add_polygon([(0, 0), (5e5, 0), (0, 5e5)], kind="blocking"),
        lambda ed: ed.move(ed.add_circle((24, 24), 4, kind="area"), (9e5, 24)),
    ],
)
def test_the_editor_refuses_a_piece_beyond_its_drawing_limit(edit: Any) -> None:
    ed = editor()
    before = ed.data
    with pytest.raises(EditRefused, match="the editor draws pieces up to 48 in off the table"):
        edit(ed)
    assert ed.data["models"] == before["models"]
    assert len(ed.data["terrain"]) <= 1
    ed.add_model((30, 30), faction="b")  # and it goes on working
    assert len(ed.scenario.models) == 2


def test_a_piece_off_the_table_within_the_limit_is_drawn() -> None:
    ed = editor()
    ed.add_circle((60, 24), 10, kind="area")
    assert ed.ax.get_xlim()[1] > 65 * ed.unit_mm  # the board is drawn in mm


def test_a_huge_table_draws_a_bounded_grid_and_ticks() -> None:
    ed = editor(size=(1e6, 1e6))
    ed.add_model((5e5, 5e5), faction="b")
    assert ed.marks is not None  # the editor's grid over the table: left out when too fine
    assert sum(len(line.get_xdata()) for line in ed.marks.grid) < 3 * 2 * 2 * 21 * 3
    assert len(ed.ax.xaxis.get_major_locator()()) <= 22
    assert ed.png().startswith(b"\x89PNG")


def test_a_failed_redraw_undoes_the_edit_and_leaves_the_editor_working(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ed = editor()
    real = ed.view.draw
    calls = {"n": 0}

    def failing_once() -> None:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OverflowError("Exceeded cell block limit in Agg")
        real()

    monkeypatch.setattr(ed.view, "draw", failing_once)
    with pytest.raises(EditRefused, match=r"could not be drawn .*the edit was undone"):
        ed.add_model((30, 30), faction="b")
    assert len(ed.scenario.models) == 1
    ed.add_model((30, 30), faction="b")
    assert len(ed.scenario.models) == 2
    assert ed.png().startswith(b"\x89PNG")
