"""The threat map's work is bounded by design (issue 21): a step, base, area or positions out
of range is refused with a ``QueryError`` (exit 2 on the command line), and a map whose
estimated time exceeds the budget (``fwwrules.threat.cost``: positions x shooters x corners)
is refused naming what to reduce, or, on the default grid, made coarser until it fits.

The cases on eight 256-corner stars run in a subprocess under a CPU and memory cap
(:func:`run_capped`): a regression that lets such a map through fails there instead of
running for minutes."""

from __future__ import annotations

import math

import pytest
from capped_threat import run_capped

import fwwrules
from fwwrules.cli import main
from fwwrules.constants import MAX_THREAT_POSITIONS
from fwwrules.errors import QueryError
from fwwrules.pieces import Model, Terrain, Weapon
from fwwrules.threat import threat_map

COVER_1 = str(fwwrules.example_path("cover-example-1"))
RIFLE = Weapon("rifle", "rifle", short="red", long="green")


def star(cx: float, cy: float, n: int = 256) -> tuple[tuple[float, float], ...]:
    r = (60.0, 30.0)
    return tuple(
        (
            cx + r[k % 2] * math.cos(2 * math.pi * k / n),
            cy + r[k % 2] * math.sin(2 * math.pi * k / n),
        )
        for k in range(n)
    )


def stars_board(shooters: int, stars: int = 8) -> fwwrules.Scenario:
    """``stars`` blocking 256-corner stars in a row and ``shooters`` models of each side."""
    terrain = tuple(
        Terrain(f"t{i}", "blocking", star(200.0 + 180.0 * i, 900.0)) for i in range(stars)
    )
    models = []
    for k in range(shooters):
        x = 60.0 + 1600.0 * (k % 40) / 39
        row = 50.0 * (k // 40)
        for side, y in (("north", 60.0 + row), ("south", 1740.0 - row)):
            models.append(
                Model(f"{side}{k}", side, 32.0, (x, y), skills={"rifle": 5}, weapons=("rifle",))
            )
    return fwwrules.Scenario(models=tuple(models), terrain=terrain, weapons=(RIFLE,))


def test_threat_refuses_a_step_base_or_area_out_of_range() -> None:
    s = fwwrules.load(COVER_1)
    with pytest.raises(QueryError, match=f"limit of {MAX_THREAT_POSITIONS}.*at least"):
        threat_map(s, "brotherhood", step=1e-320)
    with pytest.raises(QueryError, match="step 1e\\+308 lies beyond the coordinate limit"):
        threat_map(s, "brotherhood", step=1e308)
    with pytest.raises(QueryError, match="base 1e\\+308 lies beyond the coordinate limit"):
        threat_map(s, "brotherhood", base=1e308)
    with pytest.raises(QueryError, match="outside the bases a scenario may hold"):
        threat_map(s, "brotherhood", base=5000)
    with pytest.raises(QueryError, match="area's x1 1e\\+308 lies beyond"):
        threat_map(s, "brotherhood", area=(0, 0, 1e308, 1e308))
    with pytest.raises(QueryError, match="step must be a positive number"):
        threat_map(s, "brotherhood", step=True)  # type: ignore[arg-type]
    with pytest.raises(QueryError, match="coordinate limit"):
        threat_map(s, "brotherhood", positions=[(0.0, 0.0), (1e307, 0.0)])
    with pytest.raises(QueryError, match="list of \\(x, y\\) points"):
        threat_map(s, "brotherhood", positions=[("a", "b")])  # type: ignore[list-item]


def test_threat_refuses_a_grid_scenario() -> None:
    grid = fwwrules.load(fwwrules.example_path("grid/cleric"))
    with pytest.raises(QueryError, match="threat_map needs a fwwrules/scenario@1 scenario"):
        threat_map(grid, "x")  # type: ignore[arg-type]


def test_a_huge_area_gets_a_coarser_default_grid() -> None:
    tm = threat_map(fwwrules.load(COVER_1), "brotherhood", area=(0, 0, 1e6, 1e6))
    assert len(tm.positions) <= MAX_THREAT_POSITIONS and tm.step is not None


def test_the_cost_model_coarsens_the_default_grid_to_fit_the_budget() -> None:
    run_capped(__file__, "coarsened_default_grid")


def coarsened_default_grid() -> None:
    """Eight stars, 20 shooters: the default grid's step grows until the map fits."""
    from fwwrules.constants import THREAT_BUDGET_S
    from fwwrules.threat.cost import load_of

    s = stars_board(shooters=20)
    load = load_of(s, 20)
    assert load.corners == 8 * 256
    most = load.most_positions()
    assert 0 < most < MAX_THREAT_POSITIONS  # the positions limit alone would allow more
    tm = threat_map(s, "north")
    assert len(tm.positions) <= most and load.seconds(len(tm.positions)) <= THREAT_BUDGET_S
    with pytest.raises(QueryError, match=f"at most {most} positions fit; use a step of at least"):
        threat_map(s, "north", step=10.0)
    with pytest.raises(QueryError, match=f"at most {most} positions fit; ask for fewer"):
        threat_map(s, "north", positions=[(900.0, 300.0 + k * 1e-3) for k in range(most + 1)])


def test_too_many_shooters_against_too_many_corners_are_refused_at_any_step() -> None:
    run_capped(__file__, "refused_at_any_step")


def refused_at_any_step() -> None:
    """Eight stars, 40 shooters: refused before the first position."""
    from fwwrules.threat.cost import load_of

    s = stars_board(shooters=40)
    assert load_of(s, 40).most_positions() == 0
    with pytest.raises(QueryError, match=r"40 shooters against 2048 corners .* fewer enemy models"):
        threat_map(s, "north")


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--step", "1e-320"), f"limit of {MAX_THREAT_POSITIONS}"),
        (("--base", "1e308"), "base 1e+308 lies beyond the coordinate limit"),
        (("--area", "0,0,1e308,1e308"), "area's x1 1e+308 lies beyond"),
        (("--step", "nan"), "step must be a positive number"),
    ],
)
def test_threat_cli_exits_2_for_an_argument_out_of_range(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], says: str
) -> None:
    code = main(["threat", COVER_1, "--side", "brotherhood", *args])
    err = capsys.readouterr().err
    assert code == 2 and says in err and "Traceback" not in err


def test_the_threat_panel_shows_the_refusal_instead_of_running_away() -> None:
    """The panel asks threat_map as the CLI does: a map over the budget is not computed, the
    panel says why and what to reduce (in its text), and draws the board without a map."""
    run_capped(__file__, "panel_refusal")


def panel_refusal() -> None:
    """The panel on eight stars and 40 shooters, and on a step far too small."""
    from fwwrules_widgets import ThreatPanel

    p = ThreatPanel(stars_board(shooters=40), "north", interactive=False)
    assert p.result is None and p.error is not None
    assert "fewer enemy models" in p.error and "fewer enemy models" in p.html.value
    p = ThreatPanel(fwwrules.load(COVER_1), "brotherhood", step=1e-320, interactive=False)
    assert p.result is None and "use a step of at least" in (p.error or "")
