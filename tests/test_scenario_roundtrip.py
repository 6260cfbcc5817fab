"""Saving and loading are inverse: ``parse(dump_text(s)) == s`` for YAML and JSON, and through
files with ``save``/``load_scenario``, for any valid scenario (hypothesis builds them).
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import fwwrules
from fwwrules.constants import MM_PER_INCH
from fwwrules.loading import parse_text
from fwwrules.placement import placement_problems
from fwwrules.scenario import (
    DICE_COLOURS,
    RULER_COLOURS,
    SKILL_ICONS,
    TERRAIN_KINDS,
    ChargeBonus,
    Circle,
    Model,
    Options,
    Rect,
    Scenario,
    Terrain,
    Weapon,
    dump_text,
    load_scenario,
    parse_scenario,
    save,
    to_data,
)

_ID_START = "abcdefghijklmnopqrstuvwxyz0123456789"
IDENT = st.builds(
    str.__add__, st.sampled_from(_ID_START), st.text(_ID_START + "-", max_size=11)
)  # [a-z0-9][a-z0-9-]*, the id pattern of the file format
# Display text: any character but control characters and lone surrogates (files are UTF-8).
TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)
SPACING_MM = 1000.0  # models stand this far apart, so bases (at most 300 mm) never overlap


def floats(low: float, high: float) -> st.SearchStrategy[float]:
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


@st.composite
def dice(draw: st.DrawFn) -> tuple[str, ...]:
    counts = [draw(st.integers(0, 4)) for _ in DICE_COLOURS]
    return tuple(c for c, n in zip(DICE_COLOURS, counts, strict=True) for _ in range(n))


@st.composite
def weapons(draw: st.DrawFn, ids: list[str], unit: float) -> tuple[Weapon, ...]:
    out = []
    length = floats(6 / unit, 1900 / unit)
    band = st.one_of(st.sampled_from(RULER_COLOURS), length)
    for ident in ids:
        kind = draw(st.sampled_from(SKILL_ICONS))
        name = draw(st.none() | TEXT)
        if kind == "melee":
            melee = draw(st.none() | dice())
            out.append(
                Weapon(ident, kind, dice={} if melee is None else {"melee": melee}, name=name)
            )
            continue
        short = draw(band)
        long = draw(st.none() | band)
        min_range = draw(st.none() | st.sampled_from(RULER_COLOURS) | floats(0.01, 10))
        bands = {"short": draw(dice())}
        if long is not None and draw(st.booleans()):
            bands["long"] = draw(dice())
        out.append(Weapon(ident, kind, short, long, min_range, bands, name))
    return tuple(out)


@st.composite
def shapes(draw: st.DrawFn, unit: float) -> tuple[tuple[float, float], ...] | Rect | Circle:
    at = (draw(floats(-5000 / unit, 5000 / unit)), draw(floats(-5000 / unit, 5000 / unit)))
    size = floats(1 / unit, 500 / unit)
    which = draw(st.sampled_from(("polygon", "rect", "circle")))
    if which == "rect":
        return Rect(at, (draw(size), draw(size)), draw(floats(-360, 360)))
    if which == "circle":
        return Circle(at, draw(size))
    n = draw(st.integers(3, 9))
    r = draw(size)
    turn = draw(floats(0, 2 * math.pi))
    return tuple(
        (
            at[0] + r * math.cos(turn + 2 * math.pi * k / n),
            at[1] + r * math.sin(turn + 2 * math.pi * k / n),
        )
        for k in range(n)
    )


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    units = draw(st.sampled_from(("mm", "in")))
    unit = MM_PER_INCH if units == "in" else 1.0
    n_models = draw(st.integers(0, 6))
    n_terrain = draw(st.integers(0, 4))
    ids = draw(
        st.lists(IDENT, min_size=n_models + n_terrain, max_size=n_models + n_terrain, unique=True)
    )
    weapon_ids = draw(
        st.lists(IDENT, max_size=4, unique=True).filter(lambda w: "improvised" not in w)
    )
    factions = draw(st.lists(IDENT, min_size=1, max_size=4, unique=True))
    model_ids = ids[:n_models]
    models = []
    for i, ident in enumerate(model_ids):
        others = [m for m in model_ids if m != ident]
        charge = None
        if others and draw(st.booleans()):
            markers = draw(st.lists(st.sampled_from(("black", "green")), min_size=1, max_size=2))
            charge = ChargeBonus(draw(st.sampled_from(others)), tuple(markers))
        models.append(
            Model(
                id=ident,
                faction=draw(st.sampled_from(factions)),
                base=draw(floats(10.5 / unit, 299 / unit)),
                at=(
                    i * SPACING_MM / unit + draw(floats(0, 100 / unit)),
                    draw(floats(-1000 / unit, 1000 / unit)),
                ),
                elevation=draw(st.just(0.0) | floats(0, 200 / unit)),
                name=draw(st.none() | TEXT),
                skills=draw(st.dictionaries(st.sampled_from(SKILL_ICONS), st.integers(0, 20))),
                strength=draw(st.none() | st.integers(1, 20)),
                keywords=tuple(draw(st.lists(IDENT, max_size=3))),
                status=draw(st.sampled_from(((), ("stunned",)))),
                charge_bonus=charge,
                weapons=tuple(
                    draw(st.lists(st.sampled_from([*weapon_ids, "improvised"]), max_size=3))
                ),
                move=draw(st.none() | floats(0.5, 20)),
            )
        )
    kind = st.sampled_from(TERRAIN_KINDS)
    terrain = tuple(
        Terrain(
            id=ident,
            kind=draw(kind),
            shape=draw(shapes(unit)),
            height=draw(st.none() | floats(0, 300 / unit)),
            huge=draw(st.none() | kind),
            elevated=draw(st.none() | kind),
            name=draw(st.none() | TEXT),
        )
        for ident in ids[n_models:]
    )
    # sides: each faction on at most one side; neutral factions are on none
    side_names = draw(st.lists(IDENT, max_size=2, unique=True))
    sides: dict[str, tuple[str, ...]] = {}
    neutral = []
    for faction in factions:
        choice = draw(st.integers(-1, len(side_names)))
        if choice == len(side_names):
            neutral.append(faction)
        elif choice >= 0:
            name = side_names[choice]
            sides[name] = (*sides.get(name, ()), faction)
    board = Scenario(
        models=tuple(models),
        terrain=terrain,
        weapons=draw(weapons(weapon_ids, unit)),
        rules=draw(st.sampled_from(("core", "vts"))),
        units=units,
        title=draw(
            st.none() | TEXT | st.dictionaries(st.sampled_from(("en", "de")), TEXT, min_size=1)
        ),
        options=Options(
            contact_tolerance=draw(st.none() | floats(0, 2 / unit)),
            cover_by=draw(st.sampled_from(("side", "faction"))),
            slide_through_engaged_enemy=draw(st.booleans()),
        ),
        rulers=draw(st.dictionaries(st.sampled_from(RULER_COLOURS), floats(6 / unit, 1900 / unit))),
        sides=sides,
        neutral=tuple(neutral),
    )
    assume(not placement_problems(board))  # bases where the placement rule lets them stand
    return board


SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@SETTINGS
@given(scenarios(), st.booleans())
def test_dump_then_parse_is_identity(scenario: Scenario, as_json: bool) -> None:
    text = dump_text(scenario, json_=as_json)
    back = parse_scenario(parse_text(text, "mem", json_=as_json))
    assert back == scenario
    assert to_data(back) == to_data(scenario)


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(scenarios())
def test_save_then_load_through_files(scenario: Scenario) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("board.yaml", "board.json"):
            path = Path(tmp) / name
            save(scenario, path)
            assert load_scenario(path) == scenario
            assert fwwrules.load(path) == scenario


@pytest.mark.parametrize("as_json", [False, True])
def test_round_trip_of_a_hand_written_file(good_yaml: str, as_json: bool) -> None:
    s = fwwrules.loads(good_yaml)
    again = fwwrules.loads(dump_text(s, json_=as_json), json=as_json)
    assert again == s
    assert dump_text(again, json_=as_json) == dump_text(s, json_=as_json)


def test_equal_scenarios_compare_equal_and_differences_show(good_yaml: str) -> None:
    """Control: the round-trip assertion can fail (equality sees a changed field)."""
    import dataclasses

    s = fwwrules.loads(good_yaml)
    moved = dataclasses.replace(
        s, models=(dataclasses.replace(s.models[0], at=(100.0, 100.5)), *s.models[1:])
    )
    assert moved != s


@settings(max_examples=40, deadline=None)
@given(scenarios(), st.sampled_from([2, None, "\t"]))
def test_json_line_locator_finds_every_model(scenario: Scenario, indent: int | str | None) -> None:
    """Messages about a JSON file name the right line, whatever the layout and the names."""
    import json

    text = json.dumps(to_data(scenario), indent=indent, ensure_ascii=False)
    doc = parse_text(text, "x.json", json_=True)
    assert doc.root is not None
    for i, model in enumerate(scenario.models):
        at = text.index(f'"id": {json.dumps(model.id)}')
        assert doc.line(("models", i, "id")) == text[:at].count("\n") + 1


# --- save never writes a board that load refuses (issue #21) ---------------------------------

ODD_NUMBERS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [0.0, -1.0, 1e6, 1e6 + 1, 1e307, 1e-320, -0.0]
)


@st.composite
def changed_in_python(draw: st.DrawFn) -> Scenario:
    """A valid scenario, then changed as a notebook user may (``dataclasses.replace``,
    ``move_model``): models moved anywhere (onto another, off any table, to NaN), odd bases,
    odd tolerances. Many such boards are ones the format refuses."""
    import dataclasses

    s: Scenario = draw(scenarios())
    for _ in range(draw(st.integers(0, 3))):
        if not s.models:
            break
        i = draw(st.integers(0, len(s.models) - 1))
        m = s.models[i]
        change = draw(st.sampled_from(("at", "onto", "base", "tolerance")))
        if change == "at":
            m = dataclasses.replace(m, at=(draw(ODD_NUMBERS), draw(ODD_NUMBERS)))
        elif change == "onto":
            m = dataclasses.replace(m, at=draw(st.sampled_from(s.models)).at)
        elif change == "base":
            m = dataclasses.replace(m, base=draw(ODD_NUMBERS))
        else:
            tolerance = draw(st.none() | ODD_NUMBERS)
            s = dataclasses.replace(
                s, options=dataclasses.replace(s.options, contact_tolerance=tolerance)
            )
        s = dataclasses.replace(s, models=(*s.models[:i], m, *s.models[i + 1 :]))
    return s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changed_in_python(), st.sampled_from(["board.yaml", "board.json"]))
def test_save_writes_only_what_loads_back_equal(scenario: Scenario, name: str) -> None:
    """Either ``save`` refuses (``ScenarioError``, nothing written: the old file stays as it
    was) or what it wrote loads back equal."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text("old\n")
        try:
            save(scenario, path)
        except fwwrules.ScenarioError:
            assert path.read_text() == "old\n"
            assert [p.name for p in Path(tmp).iterdir()] == [name]
            return
        assert fwwrules.load(path) == scenario


EDITS = st.lists(
    st.tuples(
        st.sampled_from(("model", "rect", "circle", "polygon", "move", "delete", "rotate")),
        st.lists(st.floats(-5, 30, allow_nan=False), min_size=6, max_size=6),
        st.sampled_from(("normal", "large", "huge", 0.5, 3.0)),
    ),
    min_size=1,
    max_size=8,
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(EDITS, st.sampled_from(["board.yaml", "board.json"]))
def test_editor_boards_save_and_load_back_equal(
    edits: list[tuple[str, list[float], str | float]], name: str
) -> None:
    """Random boards built with the editor's own methods (refused edits are skipped) save and
    load back equal, or are refused while the editor lists problems."""
    from fwwrules_widgets import BoardEditor, EditRefused

    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    for kind, v, base in edits:
        ids = [m.id for m in ed.scenario.models] if ed.valid else []
        try:
            if kind == "model":
                ed.add_model((v[0], v[1]), base=base, faction=f"f{int(v[2]) % 3}")
            elif kind == "rect":
                ed.add_rect((v[0], v[1]), (v[2], v[3]), angle=v[4] * 12, kind="cover")
            elif kind == "circle":
                ed.add_circle((v[0], v[1]), abs(v[2]) + 0.1, kind="area")
            elif kind == "polygon":
                ed.add_polygon([(v[0], v[1]), (v[2], v[3]), (v[4], v[5])], kind="blocking")
            elif ids and kind == "move":
                ed.move(ids[int(abs(v[0])) % len(ids)], (v[1], v[2]))
            elif ids and kind == "delete":
                ed.delete(ids[int(abs(v[0])) % len(ids)])
        except EditRefused:
            continue
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        if not ed.valid:
            with pytest.raises(fwwrules.ScenarioError):
                ed.save(path)
            assert not path.exists()
            return
        ed.save(path)
        assert fwwrules.load(path) == ed.scenario
        save(ed.scenario, path)
        assert fwwrules.load(path) == ed.scenario
