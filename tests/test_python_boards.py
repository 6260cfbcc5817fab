"""Boards built in Python are checked as a file is before anything rules on them, draws them or
maps them (issue 31): ``fwwrules.Model``, ``Rect``, ``Circle``, ``dataclasses.replace`` and
``move_model`` made boards that nothing checked. ``base=-5`` turned the book's "allowed, −4"
into "no line of sight", a terrain kind ``"lava"`` was answered as no cover, a bow-tie polygon,
a negative rectangle, id ``BAD ID`` and base 0 were all answered; NaN positions put NaN into
``to_dict()``, ``Circle(diameter=nan)`` raised shapely's ValueError, ``skills={'rifle': 'x'}`` a
TypeError, ``move_model(x=10**400)`` an OverflowError, ``loads(..., source=None)`` and
``dump_text(None)`` AttributeErrors, ``threat_map(area=(0, 0, 1))`` a ValueError.

Now each is refused with the package's own error: a :class:`ScenarioError` naming the piece
and the field (``models[0].base ... (model 'a')``) for a board, a :class:`QueryError` for an
argument; the same check (one implementation, :mod:`fwwrules.checks`) runs on a file as it is
read, so a board refused in Python is refused in a file with the same words.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

import pytest

import fwwrules
from fwwrules import Circle, Model, Rect, Scenario, ScenarioError, Terrain, Weapon
from fwwrules.errors import QueryError

RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("green",)})


def board(**changes: Any) -> Scenario:
    """A shooter ``a`` and a target ``b`` 200 mm apart, a crate between them."""
    a = Model("a", "x", 32.0, (0.0, 0.0), skills={"rifle": 6}, weapons=("rifle",))
    b = Model("b", "y", 32.0, (200.0, 0.0), skills={"rifle": 6}, weapons=("rifle",))
    crate = Terrain("crate", "cover", Rect((100.0, 0.0), (20.0, 20.0)))
    return Scenario(models=(a, b), terrain=(crate,), weapons=(RIFLE,), **changes)


def with_model(i: int, **changes: Any) -> Scenario:
    s = board()
    models = list(s.models)
    models[i] = dataclasses.replace(models[i], **changes)
    return dataclasses.replace(s, models=tuple(models))


def with_terrain(piece: Terrain) -> Scenario:
    return dataclasses.replace(board(), terrain=(piece,))


# finding -> (the board, the place the refusal names, a fragment of its words)
FINDINGS: dict[str, tuple[Callable[[], Scenario], str, str]] = {
    "negative base": (lambda: with_model(0, base=-5), "models[0].base", "above 0 (got -5)"),
    "base 0": (lambda: with_model(0, base=0), "models[0].base", "above 0 (got 0)"),
    "terrain kind lava": (
        lambda: with_terrain(Terrain("t", "lava", Rect((100.0, 0.0), (10.0, 10.0)))),  # type: ignore[arg-type]
        "terrain[0].kind",
        "expected one of blocking, cover, area, dense-area, scenery (got 'lava')",
    ),
    "bow-tie polygon": (
        lambda: with_terrain(
            Terrain("t", "blocking", ((90.0, -10.0), (110.0, 10.0), (110.0, -10.0), (90.0, 10.0)))
        ),
        "terrain[0].polygon",
        "edges cross each other at (100, 0)",
    ),
    "negative rectangle": (
        lambda: with_terrain(Terrain("t", "blocking", Rect((100.0, 0.0), (-10.0, 10.0)))),
        "terrain[0].rect.size[0]",
        "above 0 (got -10.0)",
    ),
    "id with a space": (lambda: with_model(0, id="BAD ID"), "models[0].id", "expected an id"),
    "NaN position": (lambda: with_model(0, at=(math.nan, 0.0)), "models[0].at[0]", "finite"),
    "infinite elevation": (
        lambda: with_model(1, elevation=math.inf),
        "models[1].elevation",
        "finite",
    ),
    "NaN circle": (
        lambda: with_terrain(Terrain("t", "blocking", Circle((100.0, 0.0), math.nan))),
        "terrain[0].circle.diameter",
        "finite",
    ),
    "skill as text": (
        lambda: with_model(0, skills={"rifle": "x"}),
        "models[0].skills.rifle",
        "expected a whole number (got 'x')",
    ),
    "a name that spoofs": (
        lambda: with_model(1, name="Brute\u202e"),
        "models[1].name",
        "U+202E (RIGHT-TO-LEFT OVERRIDE)",
    ),
    "a name per language that spoofs": (
        lambda: with_model(1, name={"en": "Brute", "de": "Rohling\u2066"}),
        "models[1].name.de",
        "U+2066 (LEFT-TO-RIGHT ISOLATE)",
    ),
    "a name in an unknown language": (
        lambda: with_model(1, name={"xx": "Brute"}),
        "models[1].name.xx",
        "unknown key 'xx'",
    ),
    "a knife edge wider than the margin search": (
        lambda: board(options=fwwrules.Options(knife_edge=5000.0)),
        "options.knife_edge",
        "wider than the margin search reaches",
    ),
    "overlapping bases": (
        lambda: with_model(1, at=(10.0, 0.0)),
        "models[1].at",
        "the base of 'b' overlaps 'a'",
    ),
    "a huge coordinate": (
        lambda: with_model(1, at=(10**400, 0.0)),
        "models[1].at[0]",
        "at most 1e+06",
    ),
    "unknown weapon": (
        lambda: with_model(0, weapons=("plasma",)),
        "models[0].weapons[0]",
        "unknown weapon 'plasma'",
    ),
}


def _moved_and_ruled(s: Scenario) -> object:
    """``move_model`` takes any board (moving a model off another base makes a refused board
    usable); the moved board is checked when next ruled on. Here each model is moved where it
    stands (one that cannot be, at NaN or beyond the limit, is left)."""
    a, b = s.models
    moved = s
    for m in (b, a):
        if all(isinstance(v, float) and math.isfinite(v) for v in m.at):
            moved = fwwrules.move_model(moved, m.id, *m.at)
    return fwwrules.ruling(moved, a.id, b.id)


ENTRY_POINTS: dict[str, Callable[[Scenario], object]] = {
    "ruling": lambda s: fwwrules.ruling(s, s.models[0].id, s.models[1].id),
    "withdraw": lambda s: fwwrules.withdraw(s, s.models[0].id),
    "slide": lambda s: fwwrules.slide(s, s.models[0].id, (0.0, 40.0)),
    "move_model": lambda s: _moved_and_ruled(s),
    "threat_map": lambda s: fwwrules.threat_map(s, "y", step=20.0),
    "dump_text": lambda s: fwwrules.dump_text(s),
}


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
@pytest.mark.parametrize("finding", sorted(FINDINGS))
def test_a_board_built_in_python_is_refused_naming_the_piece_and_the_field(
    finding: str, entry: str
) -> None:
    make, place, words = FINDINGS[finding]
    s = make()
    with pytest.raises(ScenarioError) as caught:
        ENTRY_POINTS[entry](s)
    text = str(caught.value)
    assert f"<scenario>: {place}: " in text
    assert words in text


@pytest.mark.parametrize("finding", ["negative base", "terrain kind lava", "NaN position"])
def test_a_board_built_in_python_is_refused_before_it_is_drawn(finding: str) -> None:
    from fwwrules.draw import draw_board
    from fwwrules.draw.render import render_figure

    make, place, _ = FINDINGS[finding]
    for draw in (draw_board, render_figure):
        with pytest.raises(ScenarioError, match=re.escape(f"<scenario>: {place}: ")):
            draw(make())


def test_the_refusal_names_the_piece_by_its_id() -> None:
    with pytest.raises(ScenarioError) as caught:
        fwwrules.ruling(with_model(1, base=-5), "a", "b")
    assert str(caught.value) == (
        "<scenario>: models[1].base: expected a number above 0 (got -5) (model 'b')"
    )


@pytest.mark.parametrize("finding", sorted(FINDINGS))
def test_a_file_is_refused_for_the_same_reason_in_the_same_words(finding: str) -> None:
    """One implementation: the board written out as a file is refused at the same place with
    the same words (the file's message has a line and no id, as it points at the line)."""
    from fwwrules.saving import to_data

    make, place, words = FINDINGS[finding]
    s = make()
    with pytest.raises(ScenarioError) as in_python:
        fwwrules.ruling(s, "a", "b")
    data = to_data(s)
    if finding == "a huge coordinate":  # a file cannot hold 10**400 (MAX_NUMBER_CHARS)
        data["models"][1]["at"][0] = 2e6
        words = "at most 1e+06 (got 2000000.0)"
    with pytest.raises(ScenarioError) as in_file:
        fwwrules.loads(_json(data), "board.json", json=True)
    first = in_file.value.problems[0]
    assert words in first.message
    assert any(p.path == first.path for p in in_python.value.problems)
    assert f": {place}: " in in_file.value.render()


def _json(data: Any) -> str:
    import json

    return json.dumps(data, allow_nan=True)


def test_the_rulebook_board_with_a_negative_base_is_not_answered() -> None:
    """``base=-5`` turned cover example 1's "allowed, −4" into "no line of sight"."""
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    assert fwwrules.ruling(s, "brute", "knight").skill.modifier == -4
    models = tuple(dataclasses.replace(m, base=-5) if m.id == "brute" else m for m in s.models)
    with pytest.raises(ScenarioError, match=r"models\[\d\]\.base: expected a number above 0"):
        fwwrules.ruling(dataclasses.replace(s, models=models), "brute", "knight")


def test_a_name_per_language_built_in_python_is_ruled_and_saved_as_loaded() -> None:
    s = with_model(1, name={"en": "Brute", "de": "Rohling"})
    back = fwwrules.loads(fwwrules.dump_text(s), source="back.yaml")
    assert back.model("b").name == {"en": "Brute", "de": "Rohling"}
    assert fwwrules.ruling(s, "a", "b").to_dict() == fwwrules.ruling(back, "a", "b").to_dict()


def test_move_model_far_beyond_the_limit_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="beyond the coordinate limit"):
        fwwrules.move_model(board(), "a", 10**400, 0)


def test_loads_with_a_source_that_is_not_text_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="source must be text"):
        fwwrules.loads("format: fwwrules/scenario@1\nmodels: 5\n", source=None)  # type: ignore[arg-type]


def test_dump_text_of_something_else_is_a_query_error() -> None:
    with pytest.raises(QueryError, match="dump_text needs a fwwrules/scenario@1 scenario"):
        fwwrules.dump_text(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("area", [(0, 0, 1), (0, 0, 1, "x"), 5, (0, 0, math.nan, 1)])
def test_a_threat_map_area_that_is_not_four_numbers_is_a_query_error(area: Any) -> None:
    with pytest.raises(QueryError, match="area"):
        fwwrules.threat_map(board(), "y", area=area)


def test_a_move_onto_another_base_is_refused_at_the_next_ruling() -> None:
    """``move_model`` checks the id and the point; the placement is checked with the moved
    model alone, when the moved board is next ruled on, drawn or mapped."""
    moved = fwwrules.move_model(board(), "b", 20.0, 0.0)
    with pytest.raises(ScenarioError, match=r"models\[1\]\.at: the base of 'b' overlaps 'a'"):
        fwwrules.ruling(moved, "a", "b")
    touching = fwwrules.move_model(board(), "b", 32.0, 0.0)  # base contact: a gap of 0
    assert fwwrules.ruling(touching, "a", "b").kind == "melee"


def test_a_board_is_checked_once_and_a_moved_one_only_for_its_moved_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from fwwrules import checks

    whole, moved = [], []
    real_whole, real_moved = checks.scenario_problems, checks._moved_problems
    monkeypatch.setattr(checks, "scenario_problems", lambda s: whole.append(s) or real_whole(s))

    def moved_problems(s: Scenario, idx: Any, placed: Any = ()) -> Any:
        moved.append((list(idx), list(placed)))
        return real_moved(s, idx, placed)

    monkeypatch.setattr(checks, "_moved_problems", moved_problems)
    s = board()
    for _ in range(3):
        fwwrules.ruling(s, "a", "b")
    assert len(whole) == 1
    m = fwwrules.move_model(s, "b", 150.0, 30.0)
    fwwrules.ruling(m, "a", "b")
    fwwrules.ruling(m, "b", "a")
    assert (len(whole), moved) == (1, [([], [1])])  # only moved: where it stands alone
    loaded = fwwrules.load(fwwrules.example_path("cover-example-1"))
    before = len(whole)
    fwwrules.ruling(loaded, "brute", "knight")  # checked as it was read: not again
    assert len(whole) == before


def test_a_model_that_only_moved_is_checked_where_it_stands() -> None:
    """A moved model is checked again for where it stands only (its other fields were found
    usable before the move): a move onto another base, off the table, or to a negative
    elevation is still refused, after one move or several."""
    s = fwwrules.move_model(board(), "b", 150.0, 30.0)
    fwwrules.ruling(s, "a", "b")
    again = fwwrules.move_model(fwwrules.move_model(s, "b", 160.0, 30.0), "b", 20.0, 0.0)
    with pytest.raises(ScenarioError, match=r"models\[1\]\.at: the base of 'b' overlaps 'a'"):
        fwwrules.ruling(again, "a", "b")
    low = fwwrules.move_model(s, "b", 150.0, 30.0, -1.0)
    with pytest.raises(ScenarioError, match=r"models\[1\]\.elevation"):
        fwwrules.ruling(low, "a", "b")
    sized = fwwrules.move_model(board(board_size=(400.0, 400.0)), "a", 50.0, 50.0)
    sized = fwwrules.move_model(sized, "b", 250.0, 50.0)
    fwwrules.ruling(sized, "a", "b")
    off = fwwrules.move_model(sized, "b", 390.0, 50.0)
    with pytest.raises(ScenarioError, match=r"models\[1\]\.at: .*off the table"):
        fwwrules.ruling(off, "a", "b")
