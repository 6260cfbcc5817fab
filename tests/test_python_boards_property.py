"""Property (issue 31): a board built in Python with any field set to any value (NaN,
infinities, huge and negative numbers, odd text, the wrong type) is either refused with
:class:`ScenarioError` naming the field (its place, or the piece's id, or the field's name in
the words), or answered exactly as the same board saved and loaded is answered. Nothing else
happens: no other exception, no NaN in an answer.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import fwwrules
from fwwrules import (
    ChargeBonus,
    Circle,
    Model,
    Options,
    Rect,
    Scenario,
    ScenarioError,
    Terrain,
    Weapon,
)
from fwwrules.errors import format_path

WEAPONS = (
    Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("green",)}),
    Weapon("grenade", "thrown", dice={"short": ("black",)}),
)
BASE = Scenario(
    models=(
        Model("a", "x", 32.0, (0.0, 0.0), name="Shooter", skills={"rifle": 6, "thrown": 5},
              weapons=("rifle", "grenade"), throw_colour="red"),
        Model("b", "y", 40.0, (240.0, 10.0), skills={"melee": 5}, strength=4,
              keywords=("mutant",), charge_bonus=ChargeBonus("a", ("black",))),
        Model("c", "y", 25.0, (120.0, 90.0), elevation=30.0),
    ),
    terrain=(
        Terrain("crate", "cover", Rect((120.0, 0.0), (20.0, 30.0), 15.0), name="Crate"),
        Terrain("wall", "blocking", ((100.0, 70.0), (140.0, 70.0), (140.0, 110.0), (100.0, 110.0)),
                height=30.0),
        Terrain("pool", "area", Circle((180.0, -60.0), 40.0), huge="cover"),
    ),
    weapons=WEAPONS,
    title={"en": "Property", "de": "Eigenschaft"},
    rulers={"orange": 50.8},
    sides={"good": ("x",)},
)  # fmt: skip

ODD_TEXT = ["", "BAD ID", "a b", "knight\u202e", "x\x00", "\u200b", "lava", "red", "cover",
            "stunned", "black", "melee", "rifle", "in", "vts", "faction", "a" * 70, "Größe 🤖",
            "ritter-größe", "-", "a", "b", "improvised"]  # fmt: skip
NUMBERS = [0, -0.0, -1, -5, 0.001, 5e-3, 1e-9, 10, 32, 40, 60, 250, 301, 1e6, 1e6 + 1, 2e6,
           1e308, -1e308, 10**400, -(10**400), math.nan, math.inf, -math.inf]  # fmt: skip
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NUMBERS),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(ODD_TEXT),
    st.text(max_size=8),
)
WORDS = ["a", "b", "c", "d", "x", "y", "z", "good", "crate", "rifle", "grenade", "red", "orange",
         "green", "black", "cover", "blocking", "area", "dense-area", "scenery", "core", "vts",
         "mm", "in", "side", "faction", "stunned", "melee", "thrown", "short", "long", "en",
         "Name", "Ritter Größe"]  # fmt: skip
LENGTHS = st.floats(-10.0, 400.0, allow_nan=False).map(lambda v: round(v, 2))
PLAUSIBLE = st.one_of(
    LENGTHS,
    st.integers(0, 21),
    st.sampled_from(WORDS),
    st.tuples(LENGTHS, LENGTHS),
    st.lists(st.sampled_from(WORDS), max_size=2).map(tuple),
    st.dictionaries(st.sampled_from(["rifle", "melee", "thrown", "red", "short", "en", "de"]),
                    st.one_of(st.integers(0, 21), st.sampled_from(WORDS)), max_size=2),
)  # fmt: skip
VALUES = st.one_of(
    PLAUSIBLE,
    PLAUSIBLE,
    SCALARS,
    st.lists(SCALARS, max_size=3).map(tuple),
    st.lists(st.sampled_from(NUMBERS[:12]), min_size=2, max_size=2).map(tuple),
    st.lists(st.sampled_from(NUMBERS), min_size=2, max_size=2).map(tuple),
    st.dictionaries(st.sampled_from([*ODD_TEXT[:12], "rifle", "thrown", "en", "de"]), SCALARS,
                    max_size=2),
)  # fmt: skip

Path = tuple[str | int, ...]


def _piece(s: Scenario, where: str, i: int, **changes: Any) -> Scenario:
    pieces = list(getattr(s, where))
    pieces[i] = dataclasses.replace(pieces[i], **changes)
    return dataclasses.replace(s, **{where: tuple(pieces)})


def _shape(s: Scenario, i: int, **changes: Any) -> Scenario:
    """A field of a piece's shape changed (the board as it was when the shape, changed
    before, has no such field)."""
    shape: Any = s.terrain[i].shape
    if "corner" in changes:
        if not isinstance(shape, tuple) or len(shape) <= changes["corner"]:
            return s
        corners = list(shape)
        corners[changes["corner"]] = changes["value"]
        shape = tuple(corners)
    elif isinstance(shape, (Rect, Circle)) and all(hasattr(shape, k) for k in changes):
        shape = dataclasses.replace(shape, **changes)
    else:
        return s
    return _piece(s, "terrain", i, shape=shape)


# field name -> (how the value is put in, the place a refusal names, words it may use instead)
Mutation = tuple[Callable[[Scenario, Any], Scenario], Path]
MUTATIONS: dict[str, Mutation] = {}
for _i in range(3):
    for _f in ("id", "faction", "base", "at", "elevation", "name", "skills", "strength",
               "keywords", "status", "weapons", "move", "throw_colour",
               "charge_bonus"):  # fmt: skip
        MUTATIONS[f"models[{_i}].{_f}"] = (
            lambda s, v, i=_i, f=_f: _piece(s, "models", i, **{f: v}),
            ("models", _i),
        )
    MUTATIONS[f"models[{_i}].at[0]"] = (
        lambda s, v, i=_i: _piece(s, "models", i, at=(v, s.models[i].at[1])),
        ("models", _i),
    )
    for _f in ("id", "kind", "height", "huge", "elevated", "name", "shape"):
        MUTATIONS[f"terrain[{_i}].{_f}"] = (
            lambda s, v, i=_i, f=_f: _piece(s, "terrain", i, **{f: v}),
            ("terrain", _i),
        )
for _f in ("at", "size", "angle"):
    MUTATIONS[f"terrain[0].rect.{_f}"] = (lambda s, v, f=_f: _shape(s, 0, **{f: v}), ("terrain", 0))
MUTATIONS["terrain[1].polygon[2]"] = (
    lambda s, v: _shape(s, 1, corner=2, value=v),
    ("terrain", 1),
)
for _f in ("at", "diameter"):
    MUTATIONS[f"terrain[2].circle.{_f}"] = (
        lambda s, v, f=_f: _shape(s, 2, **{f: v}),
        ("terrain", 2),
    )
for _i in range(2):
    for _f in ("id", "type", "short", "long", "min_range", "dice", "name"):
        MUTATIONS[f"weapons[{_i}].{_f}"] = (
            lambda s, v, i=_i, f=_f: _piece(s, "weapons", i, **{f: v}),
            ("weapons", _i),
        )
for _f in ("rules", "units", "title", "rulers", "sides", "neutral", "board_size", "source"):
    MUTATIONS[_f] = (
        lambda s, v, f=_f: dataclasses.replace(s, **{f: v}),
        ("board",) if _f == "board_size" else (_f,),
    )


def _option(s: Scenario, **changes: Any) -> Scenario:
    """An option changed (the board as it was when ``options``, changed before, is no
    :class:`Options`)."""
    if not isinstance(s.options, Options):
        return s
    return dataclasses.replace(s, options=dataclasses.replace(s.options, **changes))


for _f in ("contact_tolerance", "cover_by", "slide_through_engaged_enemy"):
    MUTATIONS[f"options.{_f}"] = (lambda s, v, f=_f: _option(s, **{f: v}), ("options",))
MUTATIONS["options"] = (lambda s, v: dataclasses.replace(s, options=v), ("options",))


def _names(problem: Any, field: str, prefix: Path, before: Scenario, after: Scenario) -> bool:
    """Does this problem name the field that was changed: its place, the piece (by its id,
    as the board had it or has it now), or the field's name in the words?"""
    if problem.path[: len(prefix)] == prefix:
        return True
    words = problem.message
    key = field.split(".")[-1].split("[")[0]
    if key in words or (key == "board_size" and "'board'" in words):
        return True
    if len(prefix) == 2:
        kind, i = prefix
        for s in (before, after):
            ident = getattr(getattr(s, str(kind))[int(i)], "id", None)
            if isinstance(ident, str) and f"{ident!r}" in words:
                return True
    return False


def _answer(s: Scenario) -> dict[str, Any]:
    a, b = s.models[0].id, s.models[1].id
    out = fwwrules.ruling(s, a, b).to_dict()
    out["back"] = fwwrules.ruling(s, b, a, weapon=None).to_dict()
    json.dumps(out, allow_nan=False)  # never NaN or Infinity
    return out


IDS = st.sampled_from(["a", "b", "c", "d", "x", "y", "z", "crate", "wall", "rifle", "grenade"])
POINTS = st.tuples(st.floats(-400.0, 400.0), st.floats(-400.0, 400.0))
FIELD_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "id": IDS,
    "faction": IDS,
    "base": st.floats(5.0, 320.0),
    "at": POINTS,
    "at[0]": st.floats(-400.0, 400.0),
    "elevation": st.floats(0.0, 60.0),
    "height": st.floats(0.0, 60.0),
    "strength": st.integers(0, 21),
    "move": st.floats(0.0, 200.0),
    "skills": st.dictionaries(st.sampled_from(["rifle", "melee", "thrown"]), st.integers(0, 21)),
    "kind": st.sampled_from(["cover", "blocking", "area", "dense-area", "scenery"]),
    "huge": st.sampled_from(["cover", "blocking", "area", "dense-area", "scenery"]),
    "elevated": st.sampled_from(["cover", "blocking", "area", "dense-area", "scenery"]),
    "size": st.tuples(st.floats(0.0, 80.0), st.floats(0.0, 80.0)),
    "angle": st.floats(-400.0, 400.0),
    "diameter": st.floats(0.0, 120.0),
    "polygon[2]": POINTS,
    "short": st.one_of(st.sampled_from(["orange", "red", "green", "blue"]), st.floats(0, 3000)),
    "long": st.one_of(st.sampled_from(["orange", "red", "green", "black"]), st.floats(0, 3000)),
    "min_range": st.one_of(st.none(), st.sampled_from(["orange"]), st.floats(0.0, 100.0)),
    "contact_tolerance": st.floats(0.0, 6.0),
    "rulers": st.dictionaries(st.sampled_from(["orange", "red"]), st.floats(0.0, 2500.0)),
    "board_size": st.tuples(st.floats(100.0, 600.0), st.floats(100.0, 600.0)),
    "title": st.one_of(
        st.text(max_size=5), st.dictionaries(st.sampled_from(["en", "de"]), st.text(max_size=3))
    ),
    "units": st.sampled_from(["mm", "in"]),
    "rules": st.sampled_from(["core", "vts"]),
    "name": st.one_of(
        st.none(),
        st.text(max_size=6),
        st.dictionaries(st.sampled_from(["en", "de", "fr"]), st.text(max_size=4), max_size=2),
    ),
    "status": st.sampled_from([(), ("stunned",), ("prone",)]),
    "keywords": st.lists(IDS, max_size=2).map(tuple),
    "weapons": st.lists(st.sampled_from(["rifle", "grenade", "improvised", "x"]), max_size=2).map(
        tuple
    ),
    "charge_bonus": st.one_of(
        st.none(),
        st.builds(ChargeBonus, IDS, st.sampled_from([("black",), ("green", "black"), ()])),
    ),
    "throw_colour": st.sampled_from([None, "red", "orange", "pink"]),
    "type": st.sampled_from(["pistol", "rifle", "heavy", "melee", "thrown"]),
    "dice": st.dictionaries(
        st.sampled_from(["short", "long", "melee"]),
        st.lists(st.sampled_from(["black", "green", "yellow", "blue"]), max_size=5).map(tuple),
        max_size=2,
    ),
    "neutral": st.lists(IDS, max_size=2).map(tuple),
    "sides": st.dictionaries(IDS, st.lists(IDS, max_size=2).map(tuple), max_size=2),
    "cover_by": st.sampled_from(["side", "faction"]),
    "slide_through_engaged_enemy": st.booleans(),
    "source": st.text(max_size=5),
    "options": st.builds(Options),
    "shape": st.one_of(
        st.builds(Rect, POINTS, st.tuples(st.floats(0.0, 60.0), st.floats(0.0, 60.0))),
        st.builds(Circle, POINTS, st.floats(0.0, 60.0)),
        st.lists(POINTS, min_size=2, max_size=5).map(tuple),
    ),
}


def _values(field: str) -> st.SearchStrategy[Any]:
    key = field.split(".")[-1]
    plausible = FIELD_VALUES.get(key, FIELD_VALUES.get(key.split("[")[0], PLAUSIBLE))
    return st.one_of(plausible, plausible, plausible, plausible, plausible, VALUES)


CHANGES = st.lists(
    st.sampled_from(sorted(MUTATIONS)).flatmap(lambda f: st.tuples(st.just(f), _values(f))),
    min_size=1,
    max_size=2,
)


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(CHANGES)
def test_a_board_built_in_python_is_refused_naming_the_field_or_answered_as_when_loaded(
    changes: list[tuple[str, Any]],
) -> None:
    """One or two fields of a valid board set to anything: refused naming the field, or
    answered exactly as the board saved and loaded is (and never NaN in the answer)."""
    s = BASE
    for field, value in changes:
        s = MUTATIONS[field][0](s, value)
    try:
        answer = _answer(s)
    except ScenarioError as exc:
        event("refused")
        assert exc.problems
        assert any(
            _names(p, field, MUTATIONS[field][1], BASE, s)
            for p in exc.problems
            for field, _ in changes
        ), (changes, str(exc))
        assert all(format_path(p.path) for p in exc.problems)
        return
    event("answered")
    loaded = fwwrules.loads(fwwrules.dump_text(s), "saved.yaml")
    assert isinstance(loaded, Scenario)
    assert loaded == s or _same_values(loaded, s)
    assert _answer(loaded) == answer, changes


def _same_values(loaded: Scenario, built: Scenario) -> bool:
    """The board the file holds is the built one (ints written as they are, tuples as lists
    read back as tuples)."""
    return fwwrules.dump_text(loaded) == fwwrules.dump_text(built)


def test_the_base_board_is_answered() -> None:
    """Control: the board every example changes is valid and answered."""
    assert _answer(BASE)["attacker"] == "a"
