"""Every call a notebook user makes refuses wrong ids, wrong types, non-finite values and
positions beyond the coordinate limit with the package's own errors (``QueryError`` and
``ScenarioError`` are ``ValueError`` s, ``UnknownIdError`` a ``KeyError``), never a raw Python
error or a ruling that carries NaN; and the command line refuses them with exit status 2
(issue #21; issue #23: JSON output never holds NaN or Infinity)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import fwwrules
from fwwrules.cli import main
from fwwrules.constants import MAX_COORDINATE
from fwwrules.placement import slide_at_contact, stop_at_contact

SCENARIO = fwwrules.load(fwwrules.example_path("cover-example-1"))
GRID = fwwrules.load(fwwrules.example_path("grid/cleric"))
KNIGHT, BRUTE = "knight", "brute"

CALLS: dict[str, tuple[Callable[[], Any], str]] = {
    "move_model nan": (lambda: fwwrules.move_model(SCENARIO, KNIGHT, math.nan, 0), "finite"),
    "move_model inf": (lambda: fwwrules.move_model(SCENARIO, KNIGHT, 0, math.inf), "finite"),
    "move_model far": (lambda: fwwrules.move_model(SCENARIO, KNIGHT, 1e307, 0), "limit of 1e+06"),
    "move_model text": (lambda: fwwrules.move_model(SCENARIO, KNIGHT, "1", 0), "must be a number"),
    "move_model bool": (lambda: fwwrules.move_model(SCENARIO, KNIGHT, True, 0), "must be a number"),
    "move_model list id": (lambda: fwwrules.move_model(SCENARIO, [KNIGHT], 0, 0), "must be text"),
    "move_model grid": (lambda: fwwrules.move_model(GRID, "cleric", 0, 0), "GridScenario"),
    "ruling three numbers": (lambda: fwwrules.ruling(SCENARIO, KNIGHT, (1, 2, 3)), "3 items"),
    "ruling far point": (lambda: fwwrules.ruling(SCENARIO, KNIGHT, (1e307, 0)), "limit of 1e+06"),
    "ruling nan point": (lambda: fwwrules.ruling(SCENARIO, KNIGHT, (math.nan, 0)), "finite"),
    "ruling number target": (lambda: fwwrules.ruling(SCENARIO, KNIGHT, 5), "got 5"),
    "ruling list attacker": (lambda: fwwrules.ruling(SCENARIO, [KNIGHT], BRUTE), "must be text"),
    "ruling grid": (lambda: fwwrules.ruling(GRID, "cleric", "ogre"), "grid_cover"),
    "withdraw grid": (lambda: fwwrules.withdraw(GRID, "cleric"), "grid_cover"),
    "slide grid": (lambda: fwwrules.slide(GRID, "cleric", (0, 0)), "grid_cover"),
    "threat_map grid": (lambda: fwwrules.threat_map(GRID, "x"), "grid_cover"),
    "slide far": (lambda: fwwrules.slide(SCENARIO, KNIGHT, (1e307, 1e307)), "limit of 1e+06"),
    "slide text": (lambda: fwwrules.slide(SCENARIO, KNIGHT, "1,2"), "point (x, y)"),
    "save grid": (lambda: fwwrules.save(GRID, "/nonexistent/g.yaml"), "grid scenario"),
    "save list": (lambda: fwwrules.save([1], "/nonexistent/g.yaml"), "not a fwwrules/scenario"),
    "ruling quick text": (
        lambda: fwwrules.ruling(SCENARIO, KNIGHT, BRUTE, quick="no"),
        "quick must be True or False",
    ),
    "loads a number": (lambda: fwwrules.loads(5), "scenario text must be a str"),
    "load None": (lambda: fwwrules.load(None), "a file name must be text or a path"),
    "save to a number": (lambda: fwwrules.save(SCENARIO, 5), "must be text or a path"),
    "stop_at_contact nan": (lambda: stop_at_contact(SCENARIO, KNIGHT, (math.nan, 0)), "finite"),
    "slide_at_contact far": (lambda: slide_at_contact(SCENARIO, KNIGHT, (0, -1e9)), "limit"),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_python_calls_refuse_bad_arguments_with_the_packages_errors(name: str) -> None:
    call, fragment = CALLS[name]
    with pytest.raises(fwwrules.QueryError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert fragment in str(info.value)


def test_scenario_error_is_a_value_error() -> None:
    assert issubclass(fwwrules.ScenarioError, ValueError)
    assert issubclass(fwwrules.QueryError, ValueError)


def test_a_point_may_be_any_pair_of_numbers() -> None:
    """A list or a numpy array is a point as a tuple is (a list raised a TypeError)."""
    as_tuple = fwwrules.ruling(SCENARIO, KNIGHT, (200.0, 150.0)).to_dict()
    assert fwwrules.ruling(SCENARIO, KNIGHT, [200, 150]).to_dict() == as_tuple
    assert fwwrules.ruling(SCENARIO, KNIGHT, np.array([200.0, 150.0])).to_dict() == as_tuple
    edge = fwwrules.ruling(SCENARIO, KNIGHT, (MAX_COORDINATE, 0)).to_dict()
    assert math.isfinite(edge["range"]["distance"])
    moved = fwwrules.move_model(SCENARIO, KNIGHT, np.float64(100), 50)
    assert moved.model(KNIGHT).at == (100.0, 50.0)
    assert type(moved.model(KNIGHT).at[0]) is float


def test_save_refuses_a_board_that_load_would_refuse(tmp_path: Path) -> None:
    """``save`` wrote boards that ``load`` then refused (its docstring said it never does)."""
    import dataclasses

    bad = dataclasses.replace(
        SCENARIO,
        models=(dataclasses.replace(SCENARIO.models[0], at=(math.nan, 0.0)), *SCENARIO.models[1:]),
    )
    overlapping = fwwrules.move_model(SCENARIO, KNIGHT, *SCENARIO.model(BRUTE).at)
    for scenario in (bad, overlapping):
        for name in ("b.yaml", "b.json"):
            with pytest.raises(fwwrules.ScenarioError, match=r"\(not saved\)"):
                fwwrules.save(scenario, tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one command (argparse's own errors included)."""
    try:
        code = main(args)
    except SystemExit as exc:  # argparse refuses an argument of the wrong form itself
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


EXAMPLE = str(fwwrules.example_path("cover-example-1"))


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["ruling", EXAMPLE, "--attacker", KNIGHT, "--target", "1e307,0", "--json"], "1e+06"),
        (["ruling", EXAMPLE, "--attacker", KNIGHT, "--target", "nan,0", "--json"], "finite"),
        (["slide", EXAMPLE, "--model", KNIGHT, "--to", "1e307,1e307"], "1e+06"),
        (["slide", EXAMPLE, "--model", KNIGHT, "--to", "inf,0"], "finite"),
        (["render", EXAMPLE, "--attacker", KNIGHT, "--target", "1e307,0"], "1e+06"),
    ],
)
def test_cli_points_beyond_the_table_exit_2(
    args: list[str],
    fragment: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``ruling --target 1e307,0 --json`` printed ``"distance": Infinity``; ``slide --to
    1e307,1e307`` died of a GEOS error."""
    monkeypatch.chdir(tmp_path)
    code, out, err = run(args, capsys)
    assert code == 2 and out == "", err
    assert fragment in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_render_takes_a_point_target_as_ruling_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``render --target X,Y`` said "unknown target id"."""
    out = tmp_path / "p.png"
    code, _, err = run(
        ["render", EXAMPLE, "--attacker", KNIGHT, "--target", "200,150", "-o", str(out)], capsys
    )
    assert code == 0, err
    assert out.read_bytes().startswith(b"\x89PNG")


def test_json_output_is_strict_json(capsys: pytest.CaptureFixture[str]) -> None:
    for target in (BRUTE, "200,150", f"{MAX_COORDINATE:g},{-MAX_COORDINATE:g}"):
        code, out, err = run(
            ["ruling", EXAMPLE, "--attacker", KNIGHT, "--target", target, "--json"], capsys
        )
        assert code == 0, err
        json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
