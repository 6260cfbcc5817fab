"""Pictures that line up across languages (issue 34): the same board at the same size puts
the board's axes in the same pixel box in every language (the title's room is that of the
longest language's title), at 1x and 2x; ``fwwrules render --lang en,de`` and
``save_picture(..., lang=("en", "de"))`` write every language at once, one file each."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import fwwrules
from fwwrules.catalogue import LANGS
from fwwrules.cli import main
from fwwrules.draw.export import save_picture
from fwwrules.draw.render import render_figure
from fwwrules.errors import FwwError

BOARDS = sorted(fwwrules.examples_dir().glob("*.yaml"))
GRIDS = sorted((fwwrules.examples_dir() / "grid").glob("*.yaml"))


def board_box(fig: Any) -> tuple[int, int, int, int, int]:
    """The board's axes in the picture's pixels, from its top left corner (rounded to
    whole pixels), and the picture's width."""
    renderer = fig.canvas.get_renderer()
    b = fig.axes[0].get_window_extent(renderer)
    h = fig.bbox.height
    return (round(b.x0), round(h - b.y1), round(b.x1), round(h - b.y0), round(fig.bbox.width))


def pair(s: Any) -> tuple[str, str] | None:
    """An attacker and target of two sides (the ruling's headline differs by language)."""
    ids = [c.id for c in getattr(s, "creatures", ())]
    if ids:
        return (ids[0], ids[-1]) if len(ids) > 1 else None
    for a in s.models:
        for b in s.models:
            if a.id != b.id and s.side_of(a.faction) != s.side_of(b.faction):
                try:
                    fwwrules.ruling(s, a.id, b.id)
                except FwwError:
                    continue
                return a.id, b.id
    return None


@pytest.mark.parametrize("path", BOARDS + GRIDS, ids=lambda p: p.stem)
def test_every_example_puts_its_board_in_the_same_pixels_in_every_language(path: Path) -> None:
    s = fwwrules.load(path)
    problems = []
    for who in (None, pair(s)):
        for scale in (1, 2):
            kw: dict[str, Any] = {"scale": scale}
            if who is not None:
                kw.update(attacker=who[0], target=who[1])
            boxes = {lang: board_box(render_figure(s, lang=lang, **kw)) for lang in LANGS}
            if len(set(boxes.values())) != 1:
                problems.append(f"{who} x{scale}: {boxes}")
    assert not problems, "\n".join(problems)


def test_render_writes_every_language_at_once(tmp_path: Path, capsys: Any) -> None:
    example = str(fwwrules.example_path("cover-example-1"))
    out = tmp_path / "board.png"
    args = ["render", example, "-o", str(out), "--attacker", "brute", "--target", "knight"]
    assert main([*args, "--lang", "en,de", "--scale", "2"]) == 0
    files = [tmp_path / "board.en.png", tmp_path / "board.de.png"]
    assert all(f.exists() for f in files) and not out.exists()
    sizes = {Image.open(f).size for f in files}
    assert len(sizes) == 1 and sizes.pop()[0] == 1560
    assert "board.de.png" in capsys.readouterr().out
    assert main([*args, "--lang", "de"]) == 0 and out.exists()  # one language: the name as given


def test_render_refuses_an_unknown_language_naming_the_choices(capsys: Any) -> None:
    example = str(fwwrules.example_path("cover-example-1"))
    with pytest.raises(SystemExit) as exc:
        main(["render", example, "--lang", "en,fr"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "'fr'" in err and "en, de" in err


def test_save_picture_draws_a_board_again_in_every_language_and_frame(tmp_path: Path) -> None:
    from fwwrules.draw import DEFAULT_STYLE, draw_board
    from fwwrules.draw.figure import new_axes

    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    art = draw_board(s, ax, ruling=fwwrules.ruling(s, "brute", "knight"), lang="en")
    title = art.title.get_text()
    written = save_picture(art.figure, tmp_path / "p.png", lang=("en", "de"), scale=2)
    assert [p.name for p in written] == ["p.en.png", "p.de.png"]
    assert art.title.get_text() == title  # the figure itself is left as it was
    one = save_picture(art.figure, tmp_path / "models.png", frame="models")
    assert Image.open(one).size == (780, 540)
    assert sys.modules["fwwrules.draw.export"].redrawn(art.figure, frame="models")


def _panel_box(fig: Any) -> tuple[int, int, int, int, int]:
    fig.canvas.draw()
    return board_box(fig)


def _panels(lang: str) -> dict[str, Any]:
    """Every board panel and the grid panel, headless (no browser), in ``lang``: the
    crowded 4' benchmark board (its key does not fit the column), a melee example, a grid."""
    from fwwrules_widgets import AttackPanel, GridPanel, MeleePanel, ThreatPanel

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
    try:
        from _board import crowded_board
    finally:
        sys.path.pop(0)
    crowded = crowded_board(heights=True)
    melee = fwwrules.load(fwwrules.example_path("melee-outnumbered-1"))
    grid = fwwrules.load(fwwrules.example_path("grid/big"))
    return {
        "attack": AttackPanel(
            crowded, attacker="north-00", target="south-00", lang=lang, interactive=False
        ).view.figure,
        "melee": MeleePanel(melee, lang=lang, interactive=False).view.figure,
        "threat": ThreatPanel(
            crowded, "north", step=60.0, lang=lang, interactive=False
        ).view.figure,
        "grid": GridPanel(grid, lang=lang).figure,
    }


def test_every_panels_figure_puts_its_board_in_the_same_pixels_in_every_language() -> None:
    """Issue 34 for the panels: a panel's figure keeps its size, and its key stays in the
    column (shortened to fit), so the board's box is the same in English and German for the
    attack, melee, threat and grid panels (their title keeps the longest language's room)."""
    boxes = {lang: {k: _panel_box(f) for k, f in _panels(lang).items()} for lang in LANGS}
    first = boxes[LANGS[0]]
    for lang in LANGS[1:]:
        assert boxes[lang] == first, f"{lang}: {boxes[lang]} != {LANGS[0]}: {first}"
