"""The board editor headless (Agg): its public methods and real matplotlib mouse events.

Every check compares with what the loader says (``fwwrules.loads``/``fwwrules check``), never
with what the editor computed for itself.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import replace
from pathlib import Path

import matplotlib
import pytest
from fwwrules_widgets import AttackPanel, BoardEditor, EditRefused
from matplotlib.backend_bases import MouseButton, MouseEvent

import fwwrules
from fwwrules import cli
from fwwrules.constants import MM_PER_INCH
from fwwrules.data import Scenario
from fwwrules.errors import format_path

matplotlib.use("Agg")

NORMAL_IN = round(32 / MM_PER_INCH, 4)


def mouse(ed: BoardEditor, kind: str, x: float, y: float) -> None:
    """A real matplotlib mouse event at board point (x, y) (scenario units; the board is drawn
    in mm), through the canvas callbacks."""
    px, py = ed.ax.transData.transform((x * ed.unit_mm, y * ed.unit_mm))
    button = None if kind == "motion_notify_event" else MouseButton.LEFT
    event = MouseEvent(kind, ed.figure.canvas, px, py, button=button)
    ed.figure.canvas.callbacks.process(kind, event)


def drag(ed: BoardEditor, start: tuple[float, float], end: tuple[float, float]) -> None:
    mouse(ed, "button_press_event", *start)
    for k in range(1, 5):
        t = k / 4
        mouse(
            ed,
            "motion_notify_event",
            start[0] + t * (end[0] - start[0]),
            start[1] + t * (end[1] - start[1]),
        )
    mouse(ed, "button_release_event", *end)


def small_board() -> BoardEditor:
    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    ed.add_model((4, 4), name="Knight", faction="bos", skills={"rifle": 7}, weapons=["rifle"])
    ed.add_model((14, 4), name="Raider", faction="raiders", weapons=["pistol"])
    ed.add_rect((8, 2), (10, 6), kind="cover", name="Crate", height=1.0)
    return ed


def test_editor_methods_build_a_board_that_saves_checks_and_loads_back_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ed = small_board()
    ed.add_circle((18, 18), 2, kind="area", name="Bush")
    ed.add_polygon([(2, 16), (6, 16), (6, 20)], kind="blocking")
    assert ed.valid and ed.problems == ()
    out = ed.save(tmp_path / "my-board.yaml")
    assert cli.main(["check", str(out)]) == 0
    assert "2 models, 3 terrain pieces, 2 weapons" in capsys.readouterr().out
    back = fwwrules.load(out)
    assert back == ed.scenario
    assert [m.id for m in back.models] == ["knight", "raider"]
    assert back.model("knight").base == NORMAL_IN  # Normal class, 32 mm, in inches
    assert {w.id for w in back.weapons} == {"rifle", "pistol"}
    assert back.terrain_piece("crate").height == 1.0
    # JSON too
    out_json = ed.save(tmp_path / "my-board.json")
    assert fwwrules.load(out_json) == ed.scenario


def test_editor_board_size_is_saved_and_loads_back(tmp_path: Path) -> None:
    ed = BoardEditor(units="in", size=(30, 22), interactive=False)
    ed.add_model((3, 3))
    ed.add_model((9, 3))
    out = ed.save(tmp_path / "sized.yaml")
    text = out.read_text()
    assert "board:" in text
    assert fwwrules.load(out).board_size == (30.0, 22.0) == ed.scenario.board_size
    reopened = BoardEditor.from_file(out, interactive=False)
    assert reopened.size == (30.0, 22.0)
    assert reopened.scenario == ed.scenario


def test_editor_mouse_drag_moves_a_model_and_undo_redo(tmp_path: Path) -> None:
    ed = small_board()
    ed.tool.value = "select"
    drag(ed, (14, 4), (16, 10))
    assert ed.scenario.model("raider").at == (16.0, 10.0)
    assert ed.artists is not None  # the board drawn by fwwrules.draw, in mm
    assert ed.artists.bases["raider"].center == pytest.approx(
        (16.0 * MM_PER_INCH, 10.0 * MM_PER_INCH)
    )
    assert ed.undo() and ed.scenario.model("raider").at == (14.0, 4.0)
    assert ed.redo() and ed.scenario.model("raider").at == (16.0, 10.0)
    assert not ed.redo()
    ed.save(tmp_path / "b.yaml")
    assert fwwrules.load(tmp_path / "b.yaml").model("raider").at == (16.0, 10.0)


def test_editor_dragged_base_stops_at_contact_never_overlapping() -> None:
    ed = small_board()
    drag(ed, (14, 4), (4, 4))  # straight at the knight, through the crate (terrain does not stop)
    x, y = ed.scenario.model("raider").at
    # at contact, to the file's hundredth of an inch, on the free side (never overlapping)
    assert y == 4.0 and x == 5.26 and x >= 4 + NORMAL_IN
    knight, raider = ed.scenario.model("knight"), ed.scenario.model("raider")
    gap_mm = (math.dist(knight.at, raider.at) - (knight.base + raider.base) / 2) * MM_PER_INCH
    assert 0 <= gap_mm <= ed.scenario.contact_tolerance_mm  # in contact: the loader agrees
    assert ed.valid


def test_editor_dragged_base_stops_at_the_board_edge() -> None:
    ed = small_board()
    ed.snap_box.value = False
    end = ed.move("raider", (40, 4))
    assert end == (23.37, 4.0)  # at the edge, to a hundredth of an inch, on the table
    assert end[0] <= 24 - NORMAL_IN / 2


def test_editor_base_placed_overlapping_is_refused_with_the_loaders_message() -> None:
    ed = small_board()
    before = ed.data
    with pytest.raises(EditRefused) as err:
        ed.add_model((14.5, 4), name="Ghoul", faction="ghouls")
    assert ed.data == before  # nothing changed
    loader = "\n".join(  # the same board written by hand, through the loader
        [
            "format: fwwrules/scenario@1",
            "units: in",
            "models:",
            f"  - {{id: raider, faction: raiders, base: {NORMAL_IN}, at: [14, 4]}}",
            f"  - {{id: ghoul, faction: ghouls, base: {NORMAL_IN}, at: [14.5, 4]}}",
        ]
    )
    with pytest.raises(fwwrules.ScenarioError) as want:
        fwwrules.loads(loader)
    message = want.value.problems[0].message
    assert message in str(err.value)
    assert message in ed.message.value.replace("&#x27;", "'")
    # by mouse: a click on a base with the model tool gives the message and adds nothing
    ed.tool.value = "model"
    mouse(ed, "button_press_event", 14, 4)
    assert ed.data == before and "overlaps" in ed.message.value


def test_editor_model_placed_off_the_table_is_refused_with_the_loaders_message() -> None:
    ed = small_board()
    before = ed.data
    with pytest.raises(EditRefused, match="partly off the table"):
        ed.add_model((23.8, 10))  # 24" table: the base would stick out
    assert ed.data == before


def test_editor_polygon_with_two_points_is_refused_and_never_saved(tmp_path: Path) -> None:
    ed = small_board()
    out = ed.save(tmp_path / "board.yaml")
    saved = out.read_text()
    with pytest.raises(EditRefused, match=r"expected at least 3 points \(got 2\)"):
        ed.add_polygon([(1, 1), (3, 3)])
    assert "expected at least 3 points (got 2)" in ed.message.value
    ed.save(out)
    assert out.read_text() == saved


@pytest.mark.parametrize("count", [0, 1, 2])
def test_editor_polygon_refusal_is_the_loaders_problem_word_for_word(count: int) -> None:
    # The editor asks the loader's own check: a file holding the same polygon at the same
    # place gets the same path and message.
    ed = small_board()
    points = [[1.0 + k, 1.0 + 2 * k] for k in range(count)]
    with pytest.raises(EditRefused) as refused:
        ed.add_polygon(points)
    data = ed.data
    data["terrain"].append({"id": "p", "kind": "cover", "polygon": points})
    with pytest.raises(fwwrules.ScenarioError) as loaded:
        fwwrules.loads(json.dumps(data), json=True)
    said = [f"{format_path(p.path)}: {p.message}" for p in loaded.value.problems]
    assert said == [str(refused.value)]


def test_editor_self_intersecting_outline_is_red_with_the_reason_and_blocks_saving(
    tmp_path: Path,
) -> None:
    ed = small_board()
    out = ed.save(tmp_path / "board.yaml")
    saved = out.read_text()
    tie = ed.add_polygon([(16, 16), (20, 20), (20, 16), (16, 20)], kind="blocking", name="Tie")
    assert not ed.valid
    reason = "the polygon's edges cross each other at (18, 18); expected a simple outline"
    assert [p.message for p in ed.problems] == [reason]
    assert ed.marks is not None  # the flagged piece is outlined red, the crate is not
    assert matplotlib.colors.to_hex(ed.marks.flagged.get_color()) == "#d55e00"
    flagged = {(round(x / MM_PER_INCH, 6), round(y / MM_PER_INCH, 6))
               for x, y in ed.marks.flagged.get_xydata() if not math.isnan(x)}  # fmt: skip
    assert {(16.0, 16.0), (20.0, 20.0), (20.0, 16.0), (16.0, 20.0)} <= flagged
    assert (8.0, 2.0) not in flagged and tie == "tie"
    assert "terrain[1].polygon" in ed.message.value and "cross each other" in ed.message.value
    with pytest.raises(fwwrules.ScenarioError):
        ed.save(out)
    with pytest.raises(fwwrules.ScenarioError):
        _ = ed.scenario
    assert out.read_text() == saved  # the file is untouched
    ed.undo()
    assert ed.valid and "Tie" not in ed.save(out).read_text()


def test_editor_rectangle_tool_draws_by_dragging_a_corner() -> None:
    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    ed.tool.value = "rect"
    ed.form.kind.value = "blocking"
    drag(ed, (2.1, 3.9), (8, 6.1))
    (piece,) = ed.scenario.terrain
    assert piece.kind == "blocking"
    assert piece.shape == fwwrules.Rect(at=(5.0, 5.0), size=(6.0, 2.0), angle=0.0)  # snapped


def test_editor_polygon_tool_by_clicking_vertices() -> None:
    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    ed.tool.value = "polygon"
    for x, y in [(2, 2), (8, 2), (8, 8), (2, 2)]:  # the last click closes it
        mouse(ed, "motion_notify_event", x, y)
        mouse(ed, "button_press_event", x, y)
        mouse(ed, "button_release_event", x, y)
    (piece,) = ed.scenario.terrain
    assert piece.shape == ((2.0, 2.0), (8.0, 2.0), (8.0, 8.0))
    for x, y in [(12, 12), (16, 12), (14, 16), (12, 12)]:  # the tool draws a second one
        mouse(ed, "motion_notify_event", x, y)
        mouse(ed, "button_press_event", x, y)
        mouse(ed, "button_release_event", x, y)
    assert ed.scenario.terrain[1].shape == ((12.0, 12.0), (16.0, 12.0), (14.0, 16.0))


def test_editor_circle_tool_press_at_centre_drag_to_edge() -> None:
    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    ed.tool.value = "circle"
    drag(ed, (10, 10), (12, 10))
    (piece,) = ed.scenario.terrain
    assert piece.shape == fwwrules.Circle(at=(10.0, 10.0), diameter=4.0)


def test_editor_rotate_by_the_handle_and_by_method() -> None:
    ed = small_board()
    ed.tool.value = "select"
    mouse(ed, "button_press_event", 9, 4)  # select the crate
    mouse(ed, "button_release_event", 9, 4)
    assert ed.selected == "crate" and ed.marks is not None and ed.marks.handle.get_visible()
    hx, hy = (v / MM_PER_INCH for v in ed.marks.handle.center)  # the board is drawn in mm
    assert hx == pytest.approx(9.0) and hy > 6  # above the crate's top edge
    drag(ed, (hx, hy), (2, 4))  # pull the handle to the left: a quarter turn
    assert ed.scenario.terrain_piece("crate").shape == fwwrules.Rect((9.0, 4.0), (2.0, 4.0), 90.0)
    ed.rotate("crate", 100)
    shape = ed.scenario.terrain_piece("crate").shape
    assert isinstance(shape, fwwrules.Rect) and shape.angle == -170.0
    tri = ed.add_polygon([(0, 10), (3, 10), (0, 13)], kind="cover")
    ed.rotate(tri, 90)
    assert ed.scenario.terrain_piece(tri).shape == ((2.0, 10.0), (2.0, 13.0), (-1.0, 10.0))


def test_editor_move_and_delete_terrain_by_mouse() -> None:
    ed = small_board()
    drag(ed, (9, 3), (15, 13))  # grab the crate below its centre
    assert ed.scenario.terrain_piece("crate").shape == fwwrules.Rect((15.0, 14.0), (2.0, 4.0))
    ed.delete_button.click()
    assert [t.id for t in ed.scenario.terrain] == []
    ed.undo()
    assert [t.id for t in ed.scenario.terrain] == ["crate"]


def test_editor_snaps_to_a_millimetre_in_mm_boards_a_quarter_inch_in_inch_boards() -> None:
    ed = BoardEditor(units="mm", size=(600, 600), interactive=False)
    a = ed.add_model((100.4, 99.6))
    assert ed.scenario.model(a).at == (100.0, 100.0)
    inch = BoardEditor(units="in", size=(24, 24), interactive=False)
    b = inch.add_model((7.13, 11.9))
    assert inch.scenario.model(b).at == (7.25, 12.0)
    assert "¼″" in inch.snap_box.description and "1 mm" in ed.snap_box.description
    ed.snap_box.value = False
    b = ed.add_model((200.0, 100.0))
    assert ed.scenario.model(b).at == (200.0, 100.0)
    assert ed.scenario.model(b).base == 32.0


def test_editor_set_properties_kind_height_huge_elevated() -> None:
    ed = small_board()
    ed.set_terrain("crate", kind="blocking", height=2.5, huge="cover", elevated="scenery")
    crate = ed.scenario.terrain_piece("crate")
    assert (crate.kind, crate.height, crate.huge, crate.elevated) == (
        "blocking",
        2.5,
        "cover",
        "scenery",
    )
    ed.set_terrain("crate", huge=None)
    assert ed.scenario.terrain_piece("crate").huge is None
    ed.set_model("knight", base="huge", name="Big Knight")
    assert ed.scenario.model("knight").base == round(60 / MM_PER_INCH, 4)
    # a base that would grow into another one is refused
    ed.move("raider", (4, 12))  # round the crate (a solid piece stops a base, as a base does)
    ed.move("raider", (4, 7))
    with pytest.raises(EditRefused, match="overlaps 'knight'"):
        ed.set_model("raider", base=4.0)
    with pytest.raises(EditRefused, match="makes no sense"):  # 304.8 mm
        ed.set_model("raider", base=12.0)
    assert ed.scenario.model("raider").base == NORMAL_IN


def test_editor_form_values_go_through_the_loader(tmp_path: Path) -> None:
    ed = small_board()
    before = ed.data
    ed.tool.value = "model"
    ed.form.name.value = "Scout"
    ed.form.skills.value = "rifle seven"
    mouse(ed, "button_press_event", 20, 20)
    # a value a file cannot hold is refused, in the loader's words at the place it would take
    assert ed.data == before and ed.valid
    said = html.unescape(ed.message.value)
    assert "models[2].skills.rifle: expected a whole number (got 'seven')" in said
    ed.form.skills.value = "rifle 7, melee 5"
    mouse(ed, "button_press_event", 20, 20)
    assert ed.selected == "scout"
    assert ed.valid and ed.scenario.model("scout").skills == {"rifle": 7, "melee": 5}
    # the Throw skill may carry its icon's colour (ranged.skill: a thrown weapon's range)
    ed.form.skills.value = "melee 5, thrown 4 red"
    ed.apply_button.click()
    scout = ed.scenario.model("scout")
    assert ed.valid and (scout.skills, scout.throw_colour) == ({"melee": 5, "thrown": 4}, "red")
    ed.form.skills.value = ""
    ed.refresh()  # the form shows the selected model's skills, colour included
    assert ed.form.skills.value == "melee 5, thrown 4 red"


def test_editor_from_file_round_trip_of_a_shipped_example(tmp_path: Path) -> None:
    path = fwwrules.example_path("cover-example-1")
    ed = BoardEditor.from_file(path, interactive=False)
    original = fwwrules.load(path)
    assert isinstance(original, Scenario) and original.board_size is None
    # The file gives no table size: the editor adds one that holds every piece, nothing else.
    size = ed.scenario.board_size
    assert size is not None
    assert replace(ed.scenario, board_size=None) == original
    out = ed.save(tmp_path / "copy.yaml")
    assert fwwrules.load(out) == replace(original, board_size=size)


def test_editor_apply_keeps_a_loaded_models_own_weapons() -> None:
    ed = BoardEditor.from_file(fwwrules.example_path("cover-example-1"), interactive=False)
    knight = ed.scenario.model("knight")
    assert knight.weapons and all(w in ed.form.weapons.options for w in knight.weapons)
    ed.tool.value = "select"
    mouse(ed, "button_press_event", *knight.at)  # select it: the form shows its values
    mouse(ed, "button_release_event", *knight.at)
    assert ed.selected == "knight" and ed.form.weapons.value == knight.weapons
    ed.form.name.value = "Sir Knight"
    ed.apply_button.click()
    assert ed.scenario.model("knight").weapons == knight.weapons
    assert ed.scenario.model("knight").name == "Sir Knight"


def test_editor_german_labels() -> None:
    ed = BoardEditor(interactive=False, lang="de")
    assert ed.undo_button.description == "Rückgängig"
    assert ("Rechteck", "rect") in ed.tool.options
    ed.lang.value = "en"
    assert ed.undo_button.description == "Undo"
    assert ("Rectangle", "rect") in ed.tool.options


def test_editor_german_placeholders_skill_names_and_legend_sides() -> None:
    """In German the form's placeholders are German (and what they show can be typed: the
    skills example reads back as the file's words), a model drawn with the faction left empty
    is the placeholder's ``player``, and the legend names known factions in German."""
    ed = BoardEditor(units="in", size=(24, 24), interactive=False, lang="de")
    assert ed.form.faction.value == "" and ed.form.faction.placeholder == "player (Spieler)"
    assert ed.form.skills.placeholder == "Gewehr 6, Wurfwaffe 5 rot"
    ed.tool.value = "model"
    ed.form.name.value = "Späher"
    ed.form.skills.value = ed.form.skills.placeholder + ", Nahkampf 5, schwere Waffe 4"
    mouse(ed, "button_press_event", 6, 6)
    scout = ed.scenario.models[-1]
    assert scout.faction == "player" and scout.throw_colour == "red"
    assert scout.skills == {"rifle": 6, "melee": 5, "thrown": 5, "heavy": 4}
    loaded = fwwrules.loads(json.dumps(ed.data), json=True)  # the file holds it
    assert loaded.model(scout.id).skills == scout.skills
    ed.add_model((14, 6), name="Bruder", faction="brotherhood")
    legend = [t.get_text() for t in ed.ax.get_legend().get_texts()]
    assert "Seite: Spieler" in legend and "Seite: Bruderschaft" in legend
    ed.tool.value = "select"
    mouse(ed, "button_press_event", 6, 6)  # selected: its skills in German, read back alike
    mouse(ed, "button_release_event", 6, 6)
    shown = set(ed.form.skills.value.split(", "))
    assert shown == {"Gewehr 6", "Nahkampf 5", "Wurfwaffe 5 rot", "schwere Waffe 4"}
    assert ed.form.model_fields("de")["skills"]["thrown"] == {"value": 5, "colour": "red"}
    ed.lang.value = "en"
    assert ed.form.faction.placeholder == "player"
    assert ed.form.skills.placeholder == "rifle 6, melee 5, thrown 5 red"
    assert "side: Player" in [t.get_text() for t in ed.ax.get_legend().get_texts()]


def test_editor_terrain_form_names_the_kinds_in_the_editors_language() -> None:
    """The terrain form's kinds are named as the pictures and rulings name them, in the
    editor's language; the value stays the file's word, and a piece drawn keeps it."""
    ed = BoardEditor(interactive=False, lang="de")
    for box in (ed.form.kind, ed.form.huge, ed.form.elevated):
        assert ("sichtblockierendes Gelände", "blocking") in box.options
        assert ("dichtes Gebiet", "dense-area") in box.options
        assert not any(
            label == value for label, value in box.options if value in ("blocking", "area")
        )
    ed.form.kind.value = "dense-area"
    ed.lang.value = "en"
    assert ("blocking terrain", "blocking") in ed.form.kind.options
    assert ed.form.kind.value == "dense-area" and ed.form.kind.label == "dense area"
    assert ed.form.huge.options[0] == ("", "")  # none: the piece is not huge


def test_editor_opens_the_board_in_the_attack_panel() -> None:
    ed = small_board()
    panel = ed.attack_panel()
    assert isinstance(panel, AttackPanel)
    assert panel.scenario == ed.scenario and ed.attack_box.children == (panel.widget,)
    assert panel.ruling is not None
    one = BoardEditor(interactive=False)
    one.add_model((5, 5))
    one.attack_button.click()  # a refusal in the panel, not an exception
    assert "at least two models" in one.message.value


def test_editor_interactive_canvas_is_the_board_views_widget_with_an_explicit_size() -> None:
    pytest.importorskip("anywidget")
    ed = BoardEditor(interactive=True, canvas_px=500)
    assert ed.canvas_widget is ed.view.widget
    assert (ed.canvas_widget.width, ed.canvas_widget.height) == (500, round(500 * 540 / 780))
    ed.add_model((5, 5))
    assert ed.artists is not None and ed.artists.bases


def test_editor_interactive_drag_blits_the_moving_base_then_draws_all() -> None:
    pytest.importorskip("anywidget")
    ed = BoardEditor(units="in", size=(24, 24), interactive=True)
    ed.add_model((4, 4), name="Knight")
    ed.add_model((14, 4), name="Raider")
    ed.figure.canvas.draw()  # the layout the mouse sees
    mouse(ed, "button_press_event", 14, 4)
    mouse(ed, "motion_notify_event", 15, 6)
    assert ed.artists is not None and ed.marks is not None
    base = ed.artists.bases["raider"]
    assert base.get_animated()  # drawn over the background
    assert base.center == pytest.approx((15.0 * MM_PER_INCH, 6.0 * MM_PER_INCH))
    assert ed.marks.selection.get_animated()  # the selection ring moves with it
    assert not ed.artists.bases["knight"].get_animated()
    mouse(ed, "button_release_event", 15, 6)
    assert ed.scenario.model("raider").at == (15.0, 6.0)
    assert not any(a.get_animated() for a in ed.artists.bases.values())


def test_editor_static_view_has_a_png_and_a_plain_summary() -> None:
    ed = small_board()
    bundle = ed._repr_mimebundle_()
    assert bundle["text/plain"] == (
        "BoardEditor: 24 x 24 in, 2 model(s), 1 terrain piece(s), valid"
    )
    assert ed.png().startswith(b"\x89PNG")


def test_editor_form_clears_when_nothing_is_selected() -> None:
    ed = small_board()
    mouse(ed, "button_press_event", 4, 4)  # select the knight: the form shows its values
    mouse(ed, "button_release_event", 4, 4)
    assert (ed.selected, ed.form.name.value, ed.form.faction.value) == ("knight", "Knight", "bos")
    assert ed.form.skills.value == "rifle 7" and ed.form.weapons.value == ("rifle",)
    mouse(ed, "button_press_event", 20, 20)  # empty board: nothing selected
    mouse(ed, "button_release_event", 20, 20)
    assert ed.selected is None and "nothing" in ed.selected_label.value
    assert (ed.form.name.value, ed.form.faction.value, ed.form.skills.value) == ("", "", "")
    assert ed.form.faction.placeholder == "player"  # what a model drawn now gets
    assert (ed.form.weapons.value, ed.form.base_class.value) == ((), "normal")
    assert (ed.form.piece_name.value, ed.form.height.value, ed.form.kind.value) == ("", "", "cover")
    # what the user then types for the next model stays while nothing is selected
    ed.form.name.value = "Scout"
    ed.set_title("A board")
    assert ed.form.name.value == "Scout"
    ed.selected = "crate"
    ed.refresh()
    assert (ed.form.piece_name.value, ed.form.height.value) == ("Crate", "1")
    ed.delete("crate")  # the selected piece is gone: the form clears again
    assert ed.selected is None and (ed.form.piece_name.value, ed.form.height.value) == ("", "")


@pytest.mark.parametrize("size", [(0, 0), (-5, 10), (24, float("nan")), (24,), "24x24"])
def test_editor_refuses_a_table_size_that_is_not_two_positive_numbers(
    size: object, recwarn: pytest.WarningsRecorder
) -> None:
    with pytest.raises(ValueError, match=r"the table's size must be|finite number"):
        BoardEditor(units="in", size=size, interactive=False)  # type: ignore[arg-type]
    assert [str(w.message) for w in recwarn] == []


def test_selection_and_problem_rings_look_like_no_side() -> None:
    # a selected Raiders base got a ring in the first side's blue and read as a base of that
    # side (editor screenshot); a flagged one a solid ring in the second side's vermillion
    from matplotlib.colors import to_hex

    from fwwrules.draw.board import SIDE_LOOKS, SIDE_PALETTE

    ed = BoardEditor(units="in", size=(24, 24))
    ed.add_model((4, 4), faction="bos", name="Knight")
    ed.add_model((14, 4), faction="raiders", name="Raider")
    ed.figure.canvas.draw()
    assert ed.marks is not None and ed.artists is not None
    sides = {c.lower() for c, _ in (*SIDE_PALETTE, *SIDE_LOOKS.values())}
    for ring in (ed.marks.selection, ed.marks.flagged):
        assert ring.get_linestyle() != "-", "a solid ring reads as a base's rim"
        colours = {to_hex(ring.get_color()), to_hex(ring.get_gapcolor())}
        assert "#ffffff" in colours  # dashes over white: visible on any base and the table
    assert to_hex(ed.marks.selection.get_color()) == "#000000"
    drawn = {to_hex(b.get_facecolor()) for b in ed.artists.bases.values()}
    assert to_hex(ed.marks.selection.get_color()) not in drawn
    assert to_hex(ed.marks.selection.get_color()) not in sides - {"#000000"}  # black: dashed


def ring_clearance_px(ed: BoardEditor, ident: str) -> float:
    """How far the name of ``ident`` lies outside its selection ring's outer edge, in display
    pixels (negative: the name's box covers the ring)."""
    import numpy as np

    from fwwrules.draw.labels import text_rect

    assert ed.marks is not None and ed.artists is not None
    xs, ys = ed.marks.selection.get_data()
    pts = np.column_stack([np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)])
    pts = ed.ax.transData.transform(pts[~np.isnan(pts).any(axis=1)])
    cx, cy = pts.mean(axis=0)
    outer = float(np.hypot(pts[:, 0] - cx, pts[:, 1] - cy).max())
    outer += ed.marks.selection.get_linewidth() * ed.figure.dpi / 72.0 / 2
    x0, y0, x1, y1 = text_rect(ed.artists.labels[ident], ed.figure.canvas.get_renderer())
    nx, ny = min(max(cx, x0), x1), min(max(cy, y0), y1)
    return math.hypot(nx - cx, ny - cy) - outer


@pytest.mark.parametrize("dpi", [100, 200])
def test_editor_dragged_models_name_keeps_clear_of_its_selection_ring(dpi: int) -> None:
    # mid-drag the name sat 1.5 mm under the base (a drag places no label), over the ring's
    # lower dashes; now it keeps clear of the ring at every motion, at 1x and 2x
    ed = small_board()
    ed.tool.value = "select"
    ed.figure.set_dpi(dpi)
    mouse(ed, "button_press_event", 14, 4)
    for p in [(14.5, 6), (15, 8), (16, 10)]:
        mouse(ed, "motion_notify_event", *p)
        assert ed.view.dragging == "raider"
        assert ring_clearance_px(ed, "raider") > 0.0
    mouse(ed, "button_release_event", 16, 10)
    assert ed.scenario.model("raider").at == (16.0, 10.0)
    ed.figure.canvas.draw()
    assert ring_clearance_px(ed, "raider") > 0.0  # and where the drop places it


@pytest.mark.parametrize("move", [True, False])
def test_editor_selected_models_name_keeps_clear_of_its_ring_when_zoomed(move: bool) -> None:
    # zoomed onto the Waster (3" round it), the name placed on the drop (or on a click that
    # selects it) lay over its ring (-3 px): label placement did not know the editor's ring
    from fwwrules.pieces import Bounds

    ed = BoardEditor(fwwrules.load(Path(__file__).with_name("table-48.yaml")), interactive=False)
    ed.tool.value = "select"
    mm = MM_PER_INCH
    ed._show_view(Bounds(27 * mm, 33 * mm, 33 * mm, 39 * mm), final=True)
    if move:
        drag(ed, (30, 36), (30.5, 35))
    else:
        mouse(ed, "button_press_event", 30, 36)
        mouse(ed, "button_release_event", 30, 36)
    assert ed.selected == "waster"
    ed.figure.canvas.draw()
    assert ring_clearance_px(ed, "waster") > 0.0
