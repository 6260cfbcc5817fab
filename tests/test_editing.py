"""The board editor's model without a browser or a figure (:mod:`fwwrules.editing`): every
change as a pure function on a draft, undo and redo, and every verdict compared with what
``fwwrules check`` says of the same board written to a file."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fwwrules
from fwwrules import cli, editing
from fwwrules.constants import MM_PER_INCH
from fwwrules.editing import Draft, EditRefused, History
from fwwrules.errors import format_path
from fwwrules.pieces import Circle, Rect
from fwwrules.saving import dump_text, to_data

NORMAL_IN = round(32 / MM_PER_INCH, 4)


def small() -> Draft:
    d = editing.new_draft(units="in", size=(24, 24))
    d, _ = editing.add_model(d, (4, 4), {"name": "Knight", "faction": "bos", "weapons": ["rifle"]})
    d, _ = editing.add_model(d, (14, 4), {"name": "Raider", "faction": "raiders"})
    d, _ = editing.add_terrain(
        d, editing.rect_between((8, 2), (10, 6)), {"kind": "cover", "name": "Crate"}
    )
    return d


def loader_problems(data: dict[str, object]) -> list[str]:
    """What the file check says of ``data`` (``place: message``), through the loader."""
    try:
        fwwrules.loads(json.dumps(data), json=True)
    except fwwrules.ScenarioError as exc:
        return [f"{format_path(p.path)}: {p.message}" for p in exc.problems]
    return []


def test_a_draft_is_a_scenario_with_a_table_and_the_checks_verdict() -> None:
    d = small()
    assert d.valid and d.problems == () and d.size == (24.0, 24.0)
    s = d.scenario
    assert [m.id for m in s.models] == ["knight", "raider"]
    assert s.model("knight").base == NORMAL_IN  # Normal class, from the rules layer's sizes
    assert {w.id for w in s.weapons} == {"rifle"}  # a stock weapon, added when carried
    assert s.terrain_piece("crate").shape == Rect((9.0, 4.0), (2.0, 4.0), 0.0)
    assert fwwrules.loads(dump_text(s)) == s  # what is saved loads back equal


def test_history_undo_redo_and_a_new_step_drops_the_undone_ones() -> None:
    first = editing.new_draft(units="mm", size=(600, 600))
    h = History((first,))
    assert h.undo() is None and h.redo() is None
    a, _ = editing.add_model(first, (100, 100), {})
    b, _ = editing.add_model(a, (200, 100), {})
    h = h.then(a).then(b)
    back = h.undo()
    assert back is not None and back.now is a
    again = back.redo()
    assert again is not None and again.now is b
    c = editing.delete(a, "player")
    branched = back.then(c)
    assert branched.drafts == (first, a, c) and branched.redo() is None


def test_history_keeps_the_last_steps_only() -> None:
    d = editing.new_draft(units="mm", size=(600, 600))
    h = History((d,))
    for k in range(editing.HISTORY_LIMIT + 5):
        d = editing.set_title(d, f"t{k}", "en")
        h = h.then(d)
    assert len(h.drafts) == editing.HISTORY_LIMIT and h.now is d


def test_a_base_placed_overlapping_is_refused_with_the_checks_words() -> None:
    d = small()
    with pytest.raises(EditRefused) as refused:
        editing.add_model(d, (14.5, 4), {"name": "Ghoul", "faction": "ghouls"})
    data = to_data(d.scenario)
    data["models"].append(
        {"id": "ghoul", "name": "Ghoul", "faction": "ghouls", "base": NORMAL_IN, "at": [14.5, 4]}
    )
    assert str(refused.value).splitlines() == loader_problems(data)
    assert "overlaps 'raider'" in str(refused.value)


def test_a_base_off_the_table_is_refused_as_the_check_refuses_it() -> None:
    d = small()
    with pytest.raises(EditRefused, match="partly off the table"):
        editing.add_model(d, (23.8, 10), {})


@settings(max_examples=60, deadline=None)
@given(
    x=st.floats(-2, 26, allow_nan=False),
    y=st.floats(-2, 26, allow_nan=False),
    base=st.sampled_from(["normal", "large", "huge", 0.5, 2.0]),
)
def test_placing_a_model_agrees_with_the_file_check_everywhere(
    x: float, y: float, base: str | float
) -> None:
    """Refused exactly where ``fwwrules check`` refuses the same model in the file, with the
    same words; accepted, the draft's problems are the check's."""
    d = small()
    at = editing.snapped((x, y), "in")
    data = to_data(d.scenario)
    entry = {"id": "probe", "faction": "probe", "base": editing.base_diameter(base, "in")}
    entry["at"] = list(at)
    data["models"].append(entry)
    expected = loader_problems(data)
    try:
        after, _ = editing.add_model(d, at, {"faction": "probe", "base": base}, ident="probe")
    except EditRefused as refused:
        assert expected and str(refused).splitlines() == expected
        return
    assert expected == []
    assert after.valid and fwwrules.loads(dump_text(after.scenario)) == after.scenario


def test_a_value_a_file_cannot_hold_is_refused_at_its_place() -> None:
    d = small()
    with pytest.raises(EditRefused) as refused:
        editing.add_model(d, (20, 20), {"skills": {"rifle": "seven"}})
    assert str(refused.value) == "models[2].skills.rifle: expected a whole number (got 'seven')"
    with pytest.raises(EditRefused, match=r"models\[2\]\.name: expected text without control"):
        editing.add_model(d, (20, 20), {"name": "bad\x1b[31m"})
    with pytest.raises(EditRefused, match=r"terrain\[1\]\.height: expected a number"):
        editing.add_terrain(d, editing.rect_between((1, 1), (3, 3)), {"height": "tall"})
    with pytest.raises(EditRefused, match=r"unknown base size 'giant'"):
        editing.add_model(d, (20, 20), {"base": "giant"})


def test_a_crossing_outline_is_kept_and_flagged_as_the_check_flags_it(tmp_path: Path) -> None:
    d = small()
    bow = editing.polygon_of(d, [(16, 16), (20, 20), (20, 16), (16, 20)])
    flagged, tie = editing.add_terrain(d, bow, {"kind": "blocking"})
    assert not flagged.valid and flagged.bad_ids() == {
        tie: "the polygon's edges cross each other at (18, 18); expected a simple outline"
    }
    assert [f"{format_path(p.path)}: {p.message}" for p in flagged.problems] == loader_problems(
        to_data(flagged.scenario)
    )
    path = tmp_path / "bow.json"  # the file's data (dump_text writes usable boards only)
    path.write_text(json.dumps(to_data(flagged.scenario)), encoding="utf-8")
    assert cli.main(["check", str(path)]) == 2  # the file check says the same
    assert editing.delete(flagged, tie).valid


@pytest.mark.parametrize("count", [0, 1, 2])
def test_a_polygon_of_too_few_corners_is_refused_in_the_loaders_words(count: int) -> None:
    d = small()
    points = [(1.0 + k, 1.0 + 2 * k) for k in range(count)]
    with pytest.raises(EditRefused) as refused:
        editing.polygon_of(d, points)
    data = to_data(d.scenario)
    data["terrain"].append({"id": "p", "kind": "cover", "polygon": [list(p) for p in points]})
    assert [str(refused.value)] == loader_problems(data)


def test_a_model_moved_by_hand_stops_at_contact_and_at_the_edge() -> None:
    d = small()
    at_crate, end = editing.move(d, "raider", (4, 4))  # the crate (cover) is in the way
    assert end == (10.63, 4.0) and at_crate.valid  # stopped at its edge, as at a base
    above, _ = editing.move(d, "raider", (4, 12))
    after, end = editing.move(above, "raider", (4, 4))  # straight at the knight
    assert end == (4.0, 5.26) and after.valid  # in contact, on the free side
    k, r = after.scenario.model("knight"), after.scenario.model("raider")
    gap = (math.dist(k.at, r.at) - (k.base + r.base) / 2) * MM_PER_INCH
    assert 0 <= gap <= after.scenario.contact_tolerance_mm
    _, edge = editing.move(d, "raider", (40, 4), snapped=False)
    assert edge == (23.37, 4.0)
    scenario, placed = editing.placed(d, "raider", (16.1, 9.9))  # a drag's step: snapped
    assert placed == (16.0, 10.0) and scenario.model("raider").at == placed


def test_terrain_moves_turns_and_is_deleted() -> None:
    d = small()
    moved, centre = editing.move(d, "crate", (15, 14))
    assert centre == (15.0, 14.0)
    assert moved.scenario.terrain_piece("crate").shape == Rect((15.0, 14.0), (2.0, 4.0), 0.0)
    turned = editing.rotate(moved, "crate", 100)
    turned = editing.rotate(turned, "crate", 170)
    shape = turned.scenario.terrain_piece("crate").shape
    assert isinstance(shape, Rect) and shape.angle == -90.0
    tri, tid = editing.add_terrain(d, editing.polygon_of(d, [(0, 10), (3, 10), (0, 13)]), {})
    tri = editing.rotate(tri, tid, 90)
    assert tri.scenario.terrain_piece(tid).shape == ((2.0, 10.0), (2.0, 13.0), (-1.0, 10.0))
    ring, rid = editing.add_terrain(d, {"circle": {"at": [18, 18], "diameter": 4}}, {})
    assert editing.rotate(ring, rid, 45).scenario == ring.scenario
    assert ring.scenario.terrain_piece(rid).shape == Circle((18.0, 18.0), 4.0)
    with pytest.raises(EditRefused, match="is a model; only terrain is rotated"):
        editing.rotate(d, "knight", 10)
    gone = editing.delete(d, "crate")
    assert [t.id for t in gone.scenario.terrain] == [] and d.scenario.terrain  # d unchanged
    with pytest.raises(EditRefused, match=r"unknown id 'nope' \(known: crate, knight, raider\)"):
        editing.delete(d, "nope")


def test_setting_properties_goes_through_the_loader() -> None:
    d = small()
    d = editing.set_terrain(d, "crate", kind="blocking", height=2.5, huge="cover")
    crate = d.scenario.terrain_piece("crate")
    assert (crate.kind, crate.height, crate.huge) == ("blocking", 2.5, "cover")
    d = editing.set_terrain(d, "crate", huge=None)
    assert d.scenario.terrain_piece("crate").huge is None
    d = editing.set_model(d, "knight", base="huge", name="Big Knight")
    assert d.scenario.model("knight").base == round(60 / MM_PER_INCH, 4)
    d, _ = editing.move(d, "raider", (4, 12))
    d, _ = editing.move(d, "raider", (4, 7))
    with pytest.raises(EditRefused, match="overlaps 'knight'"):
        editing.set_model(d, "raider", base=4.0)
    with pytest.raises(EditRefused, match="makes no sense"):  # 304.8 mm
        editing.set_model(d, "raider", base=12.0)
    with pytest.raises(EditRefused, match="'faction' is required"):
        editing.set_model(d, "raider", faction="")
    with pytest.raises(EditRefused, match="'crate' is not a model"):
        editing.set_model(d, "crate", name="x")


def test_titles_per_language() -> None:
    d = small()
    d = editing.set_title(d, "Crates", "en")
    assert d.scenario.title == "Crates"
    d = editing.set_title(d, "Kisten", "de")
    assert d.scenario.title == {"en": "Crates", "de": "Kisten"}
    assert editing.set_title(d, "Kisten", "de") is d  # nothing changed, no new step
    with pytest.raises(EditRefused, match=r"title\.de: expected text without control"):
        editing.set_title(d, "Kis\u202eten", "de")


def test_ids_are_made_of_names_keeping_every_letter() -> None:
    d = small()
    d, first = editing.add_model(d, (20, 20), {"name": "Ritter Größe"})
    d, second = editing.add_model(d, (20, 14), {"name": "Ritter Größe"})
    assert (first, second) == ("ritter-größe", "ritter-größe-2")
    with pytest.raises(EditRefused, match="duplicate id 'knight'"):
        editing.add_model(d, (20, 8), {}, ident="knight")


def test_a_table_from_a_file_without_one_holds_every_piece() -> None:
    scenario = fwwrules.load(fwwrules.example_path("cover-example-1"))
    d = editing.new_draft(scenario)
    assert scenario.board_size is None and d.scenario.board_size == editing.extent(scenario)
    box = editing.content_box(d.scenario, d.size)
    assert box.xmin >= 0 and box.ymin >= 0 and box.xmax <= d.size[0] and box.ymax <= d.size[1]


def test_a_piece_reaching_far_off_the_table_is_refused() -> None:
    d = small()
    with pytest.raises(EditRefused, match="the editor draws pieces up to 24 in off the table"):
        editing.move(d, "crate", (100, 4))
    far = editing.rect_between((30, 30), (40, 40))
    flagged, _ = editing.add_terrain(d, far, {})  # off the table, within reach: kept
    assert flagged.scenario.terrain[-1].shape == Rect((35.0, 35.0), (10.0, 10.0), 0.0)


def test_the_model_layer_loads_no_drawing_or_widgets() -> None:
    import subprocess
    import sys

    code = (
        "import sys, fwwrules.editing\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'matplotlib', 'ipywidgets'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_model_dropped_on_a_piece_with_a_height_stands_on_top_and_off_it_on_the_ground() -> None:
    """``elevation.standing-on`` through the placement rule's whole answer: position and
    elevation, on a drop, on a drag's step and on adding a model."""
    d = editing.new_draft(units="in", size=(24, 24))
    d, _ = editing.add_model(d, (4, 4), {"name": "Knight", "faction": "bos"})
    d, _ = editing.add_terrain(
        d, editing.rect_between((10, 10), (16, 16)), {"kind": "blocking", "height": 3}
    )
    up, end = editing.move(d, "knight", (13, 13))
    assert end == (13.0, 13.0) and up.valid
    assert up.scenario.model("knight").elevation == 3.0
    step, _ = editing.placed(d, "knight", (12, 12))
    assert step.model("knight").elevation == 3.0
    down, end = editing.move(up, "knight", (4, 20))
    assert end == (4.0, 20.0) and down.valid
    assert down.scenario.model("knight").elevation == 0.0
    on_top, ident = editing.add_model(d, (14, 14), {"faction": "bos"})
    assert on_top.valid and on_top.scenario.model(ident).elevation == 3.0
    ground, ident = editing.add_model(d, (20, 4), {"faction": "bos"})
    assert ground.scenario.model(ident).elevation == 0.0


def test_unicode_ids_round_trip_on_a_real_table_through_save_load_and_check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 48" x 48" table with a dozen models named in German and Japanese: the ids keep every
    letter, and the saved file loads back equal and is ``ok`` for ``fwwrules check``."""
    d = editing.new_draft(units="in", size=(48, 48))
    names = ["Größe", "Ritter Ä", "狙撃手", "Über-Späher"] * 3
    for i, name in enumerate(names):
        d, _ = editing.add_model(d, (4 + 3.5 * i, 6 + (i % 3) * 10), {"name": name})
    d, _ = editing.add_terrain(
        d, editing.rect_between((30, 34), (40, 44)), {"kind": "blocking", "name": "Turm"}
    )
    ids = [m.id for m in d.scenario.models]
    assert ids[:4] == ["größe", "ritter-ä", "狙撃手", "über-späher"] and len(set(ids)) == 12
    assert d.valid
    path = tmp_path / "tisch.yaml"
    path.write_text(dump_text(d.scenario), encoding="utf-8")
    assert fwwrules.load(path) == d.scenario
    assert cli.main(["check", str(path)]) == 0
    assert "12 models" in capsys.readouterr().out
