"""Where a base may stand is decided once (``fwwrules.placement``, ``elevation.standing-on``,
``cover.line``'s desk): ``fwwrules check``, the ruling, the threat map and a panel's drag agree
on every placement, on random boards (hypothesis) and on cover example 1 (the knight half over
the building's edge, and with its centre on it).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point
from test_threat_map import RIFLE, cells_of, reference

import fwwrules
from fwwrules import Model, Rect, Scenario, Terrain
from fwwrules.cli import main as cli_main
from fwwrules.elevation import pieces_under
from fwwrules.errors import ScenarioError
from fwwrules.placement import (
    clashes_at,
    hand_placement,
    move_model,
    placeable_v,
    placement_problems,
    standing_height_v,
)
from fwwrules.saving import to_data
from fwwrules.scalars import Dumper
from fwwrules.threat import threat_map

EXAMPLE = fwwrules.example_path("cover-example-1")
KINDS = ("blocking", "cover", "area", "dense-area", "scenery")
PROBE = "probe"


def _file_text(scenario: Scenario) -> str:
    """The file a scenario is, written without asking whether it may stand (``dump_text``
    refuses a board the check refuses): what ``fwwrules check`` then reads."""
    return str(
        yaml.dump(to_data(scenario), Dumper=Dumper, sort_keys=False, default_flow_style=None)
    )


def _checked(scenario: Scenario) -> bool:
    """``fwwrules check``'s answer for the scenario, as the file it saves to."""
    try:
        fwwrules.loads(_file_text(scenario), "board.yaml")
    except ScenarioError:
        return False
    return True


def _with_probe(s: Scenario, at: tuple[float, float], base: float, faction: str) -> Scenario:
    """The board with a probe model at ``at`` standing where the threat map puts it."""
    u = s.unit_mm
    level = float(standing_height_v(s.board, np.array([at[0] * u]), np.array([at[1] * u]))[0])
    probe = Model(PROBE, faction, base, at, elevation=level / u)
    return replace(s, models=(*s.models, probe))


@st.composite
def boards(draw: st.DrawFn) -> Scenario:
    """A few pieces of every kind (some with a height), two to four models that may stand
    where they are (one Huge now and then, one on a piece with a height now and then), and
    two sides."""
    terrain = []
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(KINDS))
        at = (draw(st.integers(60, 340)), draw(st.integers(60, 340)))
        size = (draw(st.integers(12, 90)), draw(st.integers(12, 90)))
        height = draw(st.sampled_from((None, None, 30.0, 60.0)))
        terrain.append(Terrain(f"t{i}", kind, Rect((float(at[0]), float(at[1])), size), height))
    table = draw(st.sampled_from((None, (400.0, 400.0))))
    s = Scenario(
        terrain=tuple(terrain),
        weapons=(RIFLE,),
        sides={"red": ("red",), "blue": ("blue",)},
        board_size=table,
    )
    models: list[Model] = []
    for i in range(draw(st.integers(2, 4))):
        base = draw(st.sampled_from((32.0, 32.0, 40.0, 60.0)))
        for _ in range(60):
            at = (float(draw(st.integers(20, 380))), float(draw(st.integers(20, 380))))
            level = float(standing_height_v(s.board, np.array([at[0]]), np.array([at[1]]))[0])
            side = ("red", "blue")[i % 2]
            m = Model(f"m{i}", side, base, at, level, skills={"rifle": 6}, weapons=("rifle",))
            trial = replace(s, models=(*models, m))
            if not placement_problems(trial) and _on_table(trial, at, base):
                models.append(m)
                break
    return replace(s, models=tuple(models))


positions = st.tuples(st.integers(0, 4000), st.integers(0, 4000)).map(
    lambda p: (p[0] / 10, p[1] / 10)
)


def _near(draw: st.DrawFn, board: Scenario, base: float) -> tuple[float, float]:
    """A position where the rule has something to say: on a piece, at its edge, touching a
    model (engaged, or on its level), or anywhere."""
    how = draw(st.sampled_from(("piece", "edge", "model", "table", "anywhere")))
    jitter = draw(st.integers(-30, 30)) / 10, draw(st.integers(-30, 30)) / 10
    if how in ("piece", "edge") and board.terrain:
        t = draw(st.sampled_from(board.terrain))
        assert isinstance(t.shape, Rect)
        (cx, cy), (w, _) = t.shape.at, t.shape.size
        dx = 0.0 if how == "piece" else w / 2 + draw(st.sampled_from((0.0, base / 2 - 1)))
        return (round(cx + dx + jitter[0], 1), round(cy + jitter[1], 1))
    if how == "model" and board.models:
        m = draw(st.sampled_from(board.models))
        d = (m.base + base) / 2 + draw(st.sampled_from((-0.4, 0.0, 0.3, -2.0)))
        return (round(m.at[0] + d, 1), round(m.at[1] + jitter[1] / 10, 1))
    if how == "table":  # at the table's edge: on it, touching it, a hair or more over it
        r = base / 2 + draw(st.sampled_from((0.0, -0.1, 0.1, -3.0, 3.0)))
        return (r, round(200 + jitter[1] * 10, 1))
    return draw(positions)


def _on_table(s: Scenario, at: tuple[float, float], base: float) -> bool:
    """The whole base inside the table's size (any position without one), worked out here."""
    if s.board_size is None:
        return True
    (w, h), r = s.board_size, base / 2
    return r <= at[0] <= w - r and r <= at[1] <= h - r


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(), base=st.sampled_from((32.0, 40.0, 60.0)), data=st.data())
def test_check_ruling_threat_map_and_drag_agree_on_every_placement(
    board: Scenario, base: float, data: st.DataObject
) -> None:
    assert placement_problems(board) == []
    at = _near(data.draw, board, base)
    s = _with_probe(board, at, base, "blue")
    rule = not any(i == len(s.models) - 1 for i, _ in placement_problems(s))
    rule = rule and _on_table(s, at, base)
    event(f"may stand: {rule}; stands on a piece: {bool(pieces_under(s, PROBE))}")
    event(f"on a table of a given size: {s.board_size is not None and _on_table(s, at, base)}")
    event(f"standing height above 0: {s.model(PROBE).elevation > 0}")
    # fwwrules check (the file's check) says the same
    assert _checked(s) == rule
    # the threat map's "cannot stand here", at the same standing height
    tm = threat_map(board, "blue", base=base, positions=[at])
    assert bool(tm.placeable[0]) == rule
    assert float(tm.elevation[0]) == s.model(PROBE).elevation
    # the vector form at one position is the scalar form
    mg = s.board.models[PROBE]
    one = placeable_v(s.board, np.array([mg.disc.x]), np.array([mg.disc.y]), mg.disc.r,
                      np.array([mg.elevation]), skip=frozenset({PROBE}))  # fmt: skip
    assert bool(one[0]) == (not clashes_at(s.board, PROBE, mg.disc.center, mg.disc.r, mg.elevation))
    if rule:
        # a panel's drag leaves a base that may stand where it is where it is
        placed = hand_placement(s, PROBE, at, snapped=False, bounds=(0.0, 0.0, 400.0, 400.0))
        assert placed.at == at and placed.elevation == s.model(PROBE).elevation
        # and the threat map's cell is the ruling's, on the piece, Elevated, engaged or Huge
        assert cells_of(tm, 0) == reference(board, "blue", base, at, s.model(PROBE).elevation)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board=boards(), to=positions)
def test_a_drag_ends_where_the_base_may_stand(board: Scenario, to: tuple[float, float]) -> None:
    """Wherever the pointer goes, the dragged base ends where ``check`` accepts it, standing
    on the pieces the rule says (the board's own models dragged)."""
    m = board.models[0]
    placed = hand_placement(board, m.id, to, snapped=True)
    moved = move_model(board, m.id, *placed.at, placed.elevation)
    assert placement_problems(moved) == []
    assert _checked(moved)
    assert pieces_under(moved, m.id) == placed.on


# --- cover example 1 ---------------------------------------------------------------------------


def _example_at(tmp_path: Path, at: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8").replace("    at: [100, 100]", f"    at: {at}")
    path = tmp_path / "cover-example-1.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(list(args))
    return code, out.getvalue(), err.getvalue()


def test_elevation_standing_on_knight_half_over_the_building_is_refused_naming_both(
    tmp_path: Path,
) -> None:
    path = _example_at(tmp_path, "[110, 130]")
    code, _, err = _cli("check", str(path))
    assert code == 2
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "[110, 130]" in t)
    assert f"{path}:{line}: models[0].at:" in err
    assert "'knight'" in err and "'building'" in err and "without standing on it" in err


@pytest.mark.parametrize("at", ["[120.2, 130]", "[145, 160]", "[120.2, 98]"])
def test_elevation_standing_on_knight_centre_on_the_buildings_outline_is_refused(
    tmp_path: Path, at: str
) -> None:
    """A centre on the outline (an edge, a corner) is not on the piece (RULES: touching a
    boundary is not entering it; ``cover.line``: a model stands on the piece its centre lies
    inside): the base hangs half over the edge, refused as any base over a building. It used
    to stand on it and see through the whole building."""
    path = _example_at(tmp_path, at)
    code, _, err = _cli("check", str(path))
    assert code == 2, err
    assert "'knight'" in err and "'building'" in err and "without standing on it" in err


def test_placement_messages_give_lengths_in_the_files_units() -> None:
    """An inch file's overlap and contact tolerance read in inches, millimetres beside them
    (the tolerance is written in the file's units; the overlap used to read in mm alone);
    a millimetre file's in millimetres."""
    said = {}
    for units, f in (("in", 1.0), ("mm", 25.4)):
        building = Terrain("building", "blocking", Rect((24 * f, 24 * f), (8 * f, 6 * f)))
        models = (
            Model("a", "x", 1.26 * f, (19.9 * f, 24 * f)),
            Model("b", "y", 1.26 * f, (10 * f, 10 * f)),
            Model("c", "y", 1.26 * f, (10.5 * f, 10 * f)),
        )
        s = Scenario(models=models, terrain=(building,), units=units)
        said[units] = [c.message(s) for _, c in placement_problems(s)]
    assert "'building' by 0.53 in (13.46 mm) without" in said["in"][0]
    assert (
        "'b' by 0.76 in (19.30 mm) (more than the contact tolerance 0.0197 in (0.5 mm))"
        in (said["in"][1])
    )
    assert "'building' by 13.46 mm without" in said["mm"][0]
    assert "'b' by 19.30 mm (more than the contact tolerance 0.5 mm)" in said["mm"][1]


def test_elevation_standing_on_a_crate_says_it_gives_no_cover(tmp_path: Path) -> None:
    """On a cover piece without a height the ruling says the crate gives no cover (it never
    blocked line of sight; ``cover.line``'s desk), on a building that it blocks nothing."""
    s = fwwrules.load(_example_at(tmp_path, "[275, 135]"))  # the knight's centre on the crate
    assert pieces_under(s, "knight") == ("crate",)
    r = fwwrules.ruling(s, "brute", "knight")
    said = [x for x in r.reasons if x.clause == "elevation.standing-on"]
    assert [x.key for x in said] == ["no-height-cover"]
    assert (
        said[0]
        .text("en", r.labels)
        .endswith("Crate gives no cover to shots to or from Knight Patrol.")
    )
    assert (
        said[0]
        .text("de", r.labels)
        .endswith("Kiste gibt Schüssen zu oder von Knight Patrol keine Deckung.")
    )
    assert not r.cover  # the crate it stands on covers nothing


def test_elevation_standing_on_a_hair_inside_the_outline_stands_on_it(tmp_path: Path) -> None:
    path = _example_at(tmp_path, "[120.21, 130]")
    assert _cli("check", str(path))[0] == 0
    assert pieces_under(fwwrules.load(path), "knight") == ("building",)


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0, 90.0])
def test_elevation_standing_on_centre_on_an_inch_edge_is_refused_whatever_the_rounding(
    angle: float,
) -> None:
    """On an inch table the edge and the centre are each turned into millimetres (and a turned
    piece's corners through sine and cosine): the centre can land a rounding error inside or
    outside the outline. Within the boundary tolerance it is on the outline: never on the
    piece, on every surface."""
    c, a = (24.0, 24.0), math.radians(angle)
    edge = (c[0] + 4.0 * math.cos(a), c[1] + 4.0 * math.sin(a))  # the middle of an 8" side
    building = Terrain("building", "blocking", Rect(c, (8.0, 6.0), angle))
    for x in (edge[0], math.nextafter(edge[0], 0.0), math.nextafter(edge[0], 99.0)):
        knight = Model("knight", "brotherhood", 1.26, (x, edge[1]))
        s = Scenario(models=(knight,), terrain=(building,), units="in", board_size=(48.0, 48.0))
        assert pieces_under(s, "knight") == ()
        assert [p.how for _, p in placement_problems(s)] == ["piece"], (angle, x)


def test_elevation_standing_on_knight_centre_on_the_building_stands_on_it(tmp_path: Path) -> None:
    path = _example_at(tmp_path, "[145, 130]")
    assert _cli("check", str(path))[0] == 0
    s = fwwrules.load(path)
    assert pieces_under(s, "knight") == ("building",)
    for attacker, target in (("knight", "brute"), ("brute", "knight")):
        r = fwwrules.ruling(s, attacker, target)
        said = [x for x in r.reasons if x.clause == "elevation.standing-on"]
        assert [x.key for x in said] == ["no-height"]
        assert "stands on it" in said[0].text("en", r.labels)
        assert "steht also darauf" in said[0].text("de", r.labels)
        assert r.line_of_sight  # the building it stands on blocks none of its lines
    # the picture writes it under the model
    from fwwrules.draw import draw_board

    for lang, words in (("en", "Knight Patrol on Building"), ("de", "Knight Patrol auf Gebäude")):
        artists = draw_board(s, lang=lang)
        assert any(t.get_text().startswith(words) for t in artists.labels.values())


def test_elevation_standing_on_threat_map_agrees_with_check_on_every_position(
    tmp_path: Path,
) -> None:
    """``fwwrules threat --json`` and ``fwwrules check`` with a probe model at every grid
    position near the pieces: the map lists exactly the positions the check accepts."""
    code, out, _ = _cli("threat", str(EXAMPLE), "--side", "brotherhood", "--step", "7", "--json")
    assert code == 0
    doc = json.loads(out)
    listed = {tuple(p) for p in doc["positions"]}
    s = fwwrules.load(EXAMPLE)
    grid = threat_map(s, "brotherhood", step=7.0).positions  # every position of the map's grid
    left_out = {(float(x), float(y)) for x, y in grid} - listed
    assert doc["unplaceable"] == len(left_out)
    near = [
        p
        for p in listed | left_out
        if any(s.board.terrain[t.id].polygon.distance(Point(*p)) < 30.0 for t in s.terrain)
    ]
    assert len(near) > 100 and any(p in left_out for p in near)
    for at in near:
        probe = _with_probe(s, at, doc["base"], "brotherhood")
        path = tmp_path / "probe.yaml"
        path.write_text(_file_text(probe), encoding="utf-8")
        assert (_cli("check", str(path))[0] == 0) == (at in listed), at


def test_elevation_standing_on_a_panel_drag_stops_at_the_edge_or_stands_on_it() -> None:
    from fwwrules_widgets import AttackPanel

    panel = AttackPanel(fwwrules.load(EXAMPLE), interactive=False)
    u = panel.scenario.unit_mm
    panel._dragged("knight", 112 * u, 100 * u)  # toward the building: stops at its edge
    x, y = panel.scenario.model("knight").at
    assert math.isclose(x, 100.2, abs_tol=0.11) and y == 100.0
    assert pieces_under(panel.scenario, "knight") == ()
    panel._dragged("knight", 145 * u, 130 * u)  # the pointer over it: the knight stands on it
    assert panel.scenario.model("knight").at == (145.0, 130.0)
    assert pieces_under(panel.scenario, "knight") == ("building",)
    assert any(r.key == "no-height" for r in panel.ruling.reasons)  # type: ignore[union-attr]
    assert placement_problems(panel.scenario) == []


@pytest.mark.parametrize(
    "path", sorted(fwwrules.examples_dir().glob("*.yaml")), ids=lambda p: p.stem
)
def test_every_shipped_example_keeps_to_the_placement_rule(path: Path) -> None:
    s = fwwrules.load(path)
    assert isinstance(s, Scenario)
    assert placement_problems(s) == []


# --- every kind of placement the threat map must get right, on one board ------------------------


def _cases_board() -> Scenario:
    """Red shooters (one on a 60 mm Huge base, one to engage); a roof 60 mm high, a desk and a
    wall without a height, and open ground."""

    def red(mid: str, base: float, at: tuple[float, float]) -> Model:
        return Model(mid, "red", base, at, skills={"rifle": 6}, weapons=("rifle",))

    return Scenario(
        models=(
            red("gunner", 32.0, (40.0, 200.0)),
            red("ogre", 60.0, (40.0, 60.0)),
            red("brawler", 32.0, (330.0, 330.0)),
        ),
        terrain=(
            Terrain("roof", "blocking", Rect((250.0, 200.0), (70.0, 70.0)), height=60.0),
            Terrain("desk", "cover", Rect((170.0, 100.0), (40.0, 40.0))),
            Terrain("wall", "blocking", Rect((150.0, 300.0), (20.0, 80.0))),
        ),
        weapons=(RIFLE,),
        sides={"red": ("red",), "blue": ("blue",)},
    )


CASES = {
    # name: (probe base, position, where a drag starts, what a ruling against it must show)
    "on-a-piece-with-a-height": (32.0, (250.0, 200.0), (250.0, 260.0), "elevation.elevated"),
    "on-a-cover-piece-without-one": (32.0, (170.0, 100.0), (170.0, 150.0), "elevation.standing-on"),
    "on-a-blocking-piece-without-one": (
        32.0,
        (150.0, 300.0),
        (200.0, 300.0),
        "elevation.standing-on",
    ),
    "engaged": (32.0, (362.0, 330.0), (362.0, 380.0), "melee.shoot-into"),
    "huge": (60.0, (120.0, 380.0), (60.0, 380.0), "huge"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_elevation_standing_on_every_kind_of_placement_agrees_everywhere(case: str) -> None:
    """A probe standing on a piece with a height (Elevated over the shooters), on cover and
    blocking pieces without one, engaged with a shooter and on a Huge base: ``check`` accepts
    it, the threat map places it at the same height and its cells are the rulings', and a
    panel's drag puts the model there, at that height."""
    from fwwrules_widgets import AttackPanel

    base, at, start_at, shows = CASES[case]
    board = _cases_board()
    s = _with_probe(board, at, base, "blue")
    assert placement_problems(s) == [] and _checked(s)
    tm = threat_map(board, "blue", base=base, positions=[at])
    assert bool(tm.placeable[0]) and float(tm.elevation[0]) == s.model(PROBE).elevation
    assert cells_of(tm, 0) == reference(board, "blue", base, at, s.model(PROBE).elevation)
    rulings = [fwwrules.ruling(s, sid, PROBE) for sid in ("gunner", "ogre", "brawler")]
    if shows == "huge":
        assert s.board.models[PROBE].size == "huge"
    else:
        assert any(r.clause == shows for ruling in rulings for r in ruling.reasons), shows
    # a panel's drag: the probe dragged there from open ground nearby ends there, at that height
    start = replace(s, models=(*board.models, replace(s.model(PROBE), at=start_at, elevation=0)))
    panel = AttackPanel(start, interactive=False)
    u = panel.scenario.unit_mm
    panel._dragged(PROBE, at[0] * u, at[1] * u)
    assert panel.scenario.model(PROBE).at == at
    assert panel.scenario.model(PROBE).elevation == s.model(PROBE).elevation


def _tower_table() -> Scenario:
    """An inch table with a 3 in tower a model stands on, and one on the ground beside it."""
    tower = Terrain("tower", "blocking", Rect((20.0, 12.0), (4.0, 4.0)), height=3.0)
    models = (
        Model("initiate", "brotherhood", 1.2598, (20.0, 12.0), elevation=3.0, skills={"rifle": 4}),
        Model("raider", "raiders", 1.2598, (30.0, 12.0), skills={"rifle": 4}),
    )
    return Scenario(models=models, terrain=(tower,), units="in", board_size=(48.0, 48.0))


@pytest.mark.parametrize(
    ("model", "to", "level"),
    [
        ("initiate", (30.0, 30.0), 0.0),
        ("raider", (21.25, 13.25), 3.0),
        ("raider", (30.0, 30.0), 0.0),
    ],
    ids=["off-the-tower", "onto-the-tower", "on-the-ground"],
)
def test_elevation_standing_on_panel_fields_drag_and_editor_give_one_level(
    model: str, to: tuple[float, float], level: float
) -> None:
    """Typed x/y fields (``move``), a drag and the editor's move put a base at the same
    elevation, the number a file holds (3.0, not 2.9999999999999996): on top of a piece with a
    height under its centre, on the ground when it leaves one (it used to stay 3 in up in the
    open when moved by the fields; the ThreatPanel's ``move`` kept the old level until the
    cross-surface audit found it: 3 in up in the open, or a "stands 3 in lower" error
    instead of a map when moved onto the tower)."""
    from fwwrules_widgets import AttackPanel, BoardEditor, MeleePanel, ThreatPanel

    s = _tower_table()
    fields = AttackPanel(s, attacker="initiate", target="raider", interactive=False)
    fields.move(model, *to)
    dragged = AttackPanel(s, attacker="initiate", target="raider", interactive=False)
    dragged._dragged(model, to[0] * s.unit_mm, to[1] * s.unit_mm)
    melee = MeleePanel(s, interactive=False)
    melee.move(model, *to)
    threat = ThreatPanel(s, "raiders" if model == "initiate" else "brotherhood", step=4.0,
                         interactive=False)  # fmt: skip
    threat.move(model, *to)
    assert threat.error is None, threat.error
    editor = BoardEditor(s)
    editor.move(model, to)
    for scenario in (fields.scenario, dragged.scenario, melee.scenario, threat.scenario,
                     editor.scenario):  # fmt: skip
        assert scenario.model(model).at == to
        assert repr(scenario.model(model).elevation) == repr(level)
