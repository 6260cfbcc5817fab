"""Every panel exports its picture (issue 22): ``panel.save_picture(path, scale=2)`` and the
export control (format, size, file name, button, a download link), headless on Agg; the
editor's title field (saved in the file, per language); the melee panel's play control."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as widgets
import matplotlib
import pytest
from fwwrules_widgets import (
    AttackPanel,
    BoardEditor,
    ExampleStepper,
    GridPanel,
    MeleePanel,
    Step,
    ThreatPanel,
)
from PIL import Image

import fwwrules

matplotlib.use("Agg")


def example(name: str) -> Any:
    return fwwrules.load(fwwrules.example_path(name))


def editor() -> BoardEditor:
    ed = BoardEditor(units="in", size=(24, 24), interactive=False)
    ed.add_model((4, 4), name="Knight", faction="bos", skills={"rifle": 7}, weapons=["rifle"])
    ed.add_model((16, 10), name="Brute", faction="mutants")
    ed.add_rect((9, 5), (11, 7), kind="cover", name="Crate")
    return ed


PANELS = {
    "attack": lambda: AttackPanel(example("cover-example-1"), interactive=False),
    "melee": lambda: MeleePanel(example("melee-behemoth-slide"), interactive=False),
    "threat": lambda: ThreatPanel(
        example("cover-example-1"), "brotherhood", step=20, interactive=False
    ),
    "grid": lambda: GridPanel(example("grid/rogue")),
    "stepper": lambda: ExampleStepper(
        [Step("Cover 1", example("cover-example-1"), {"attacker": "knight", "target": "brute"})],
        interactive=False,
    ),
    "editor": editor,
}


def contains(tree: widgets.Widget, part: widgets.Widget) -> bool:
    if tree is part:
        return True
    return any(contains(c, part) for c in getattr(tree, "children", ()))


def size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


@pytest.mark.parametrize("name", sorted(PANELS))
def test_every_panel_has_an_export_control_and_method(name: str, tmp_path: Path) -> None:
    panel = PANELS[name]()
    control = panel.export_control
    assert contains(panel.widget, control.widget)
    fig = panel.picture_figure()
    w_in, h_in = fig.get_size_inches()
    out = panel.save_picture(tmp_path / "one.png", scale=2)
    got_w, got_h = size(out)  # whole pixels: a grid's height is fractional at 100 dpi
    assert abs(got_w - w_in * 200) < 1 and abs(got_h - h_in * 200) < 1
    svg = panel.save_picture(tmp_path / "two", format="svg")
    assert svg.name == "two.svg" and svg.read_text().lstrip().startswith("<?xml")
    assert size(panel.save_picture(tmp_path / "three.png", width=1000))[0] == 1000


@pytest.mark.parametrize("name", ["attack", "melee", "editor"])
def test_export_control_writes_the_file_and_offers_a_download(name: str, tmp_path: Path) -> None:
    panel = PANELS[name]()
    control = panel.export_control
    control.format.value = "svg"
    assert control.name.value == "board.svg"  # the suffix follows the format
    control.name.value = str(tmp_path / "post.svg")
    control.scale.value = 3.0
    control.button.click()
    assert (tmp_path / "post.svg").exists()
    assert "Wrote" in control.status.value and "2340 × 1620 px" in control.status.value
    assert 'download="post.svg"' in control.status.value
    assert 'href="data:image/svg+xml;base64,' in control.status.value
    panel.lang.value = "de"
    assert control.button.description == "Bild exportieren"
    assert control.scale.description == "Größe"
    control.name.value = str(tmp_path / "no-such-folder" / "x.png")
    control.format.value = "png"
    control.button.click()  # refused: said in the panel, nothing raised
    assert "no-such-folder" in control.status.value and "<a " not in control.status.value


def test_export_control_refuses_a_contradicting_name(tmp_path: Path) -> None:
    panel = PANELS["attack"]()
    control = panel.export_control
    control.format.value = "svg"
    control.name.value = str(tmp_path / "board.svg")
    control.format.value = "png"  # the name follows: board.png
    assert control.name.value.endswith("board.png")
    control.name.value = str(tmp_path / "board.jpg")
    control.button.click()
    assert "does not end in .png" in control.status.value
    assert not list(tmp_path.iterdir())


def test_editor_title_field_saved_in_the_file_per_language(tmp_path: Path) -> None:
    ed = editor()
    assert ed.title.value == ""
    ed.title.value = "Crate and knight"
    assert ed.data["title"] == "Crate and knight"  # English only: one line of text
    ed.lang.value = "de"
    assert ed.title.value == "Crate and knight"  # the English one, until German is given
    ed.title.value = "Kiste und Ritter"
    assert ed.data["title"] == {"en": "Crate and knight", "de": "Kiste und Ritter"}
    out = ed.save(tmp_path / "board.yaml")
    back = fwwrules.load(out)
    assert back.title == {"en": "Crate and knight", "de": "Kiste und Ritter"}
    assert "title: {en: Crate and knight, de: Kiste und Ritter}" in out.read_text()
    again = BoardEditor.from_file(out, interactive=False, lang="de")
    assert again.title.value == "Kiste und Ritter"
    again.lang.value = "en"
    assert again.title.value == "Crate and knight"
    again.undo()  # nothing to undo: the title came from the file
    assert again.data["title"] == back.title
    ed.set_title("", lang="de")  # removing German leaves the English line
    assert ed.data["title"] == "Crate and knight"
    ed.undo()
    assert ed.data["title"] == {"en": "Crate and knight", "de": "Kiste und Ritter"}


def test_editor_picture_is_the_board_with_its_title(tmp_path: Path) -> None:
    ed = editor()
    ed.set_title("My board")
    fig = ed.picture_figure()
    assert fig.axes[0].get_title().splitlines()[0] == "My board"
    ed.lang.value = "de"
    ed.set_title("Mein Spielfeld")
    assert ed.picture_figure().axes[0].get_title().splitlines()[0] == "Mein Spielfeld"
    assert size(ed.save_picture(tmp_path / "b.png", scale=1)) == (780, 540)


def test_melee_slide_play_control_steps_the_base_along_the_path() -> None:
    p = MeleePanel(example("melee-behemoth-slide"), interactive=False)
    assert p.play.disabled and p.frame.disabled  # no slide asked
    p.slider.value = "behemoth"
    p.to_x.value, p.to_y.value = 324.8, 343.4
    assert p.slide is not None and p.slide.legal
    assert not p.play.disabled and p.play.max == p.frame.max == 23
    start = p.artists.bases["behemoth"].center
    shown = p.view.widget.value
    p.frame.value = 12  # what the play control's timer does, step by step
    middle = p.artists.bases["behemoth"].center
    assert middle != start and p.view.widget.value != shown
    dots = p.artists.state["animation"]["kept"]
    assert dots.get_visible() and len(dots.get_xdata()) == 1  # touching Dogmeat
    assert "contact kept" in p.artists.legend_texts()
    p.frame.value = 23
    assert p.artists.bases["behemoth"].center == pytest.approx((324.8, 343.4))
    p.to_y.value = 343.0  # a new question: the still picture again, from the start
    assert p.frame.value == 0 and not dots.get_visible()
    assert p.artists.bases["behemoth"].center == start
    assert "contact kept" not in p.artists.legend_texts()
