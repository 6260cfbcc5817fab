"""Pictures a tutorial author can publish (issue 22): every shipped example and the crowded
benchmark board, without a pair and with an opposing attacker/target pair, in every language
of the catalogue and at two export sizes, drawn as ``fwwrules render`` draws them:

* no text and no legend outside the figure (nothing cut in a saved picture or a panel), and
  the blocks around the board (title, legends, key, caption, axis labels) overlap neither each
  other nor the board;
* no label overlapping another label, a base, a badge (the cover modifier), a numbered disc
  (the Armor-die numbers, the key's markers), a marker (crossing, graze, where contact breaks)
  or the scale bar; every label on a contrasting box (readable on a hatch, on dark terrain or
  across a line);
* on the shipped examples, no label across one of the ruling's lines (sight, cover, the
  blocked fan, crossings, engagement links, the slide's path): there is room for all of them.

Grid examples: nothing outside the figure, no two labels overlapping, no label on the chosen
corner. Threat maps (the German legend was cut): nothing outside, the legends apart.

The pictures are measured with the figure's renderer and never written to a file (the run
costs about as much as drawing them: ~15 s). ``tests/picture_audit.py`` does the measuring
with matplotlib's public API only, so this file also runs against the drawing code before
issue 22, where it fails (run it with that version's Python).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import matplotlib
import pytest

import fwwrules
from fwwrules.catalogue import LANGS
from fwwrules.draw import DEFAULT_STYLE, draw_board, draw_grid, draw_word
from fwwrules.draw.figure import new_axes
from fwwrules.draw.grid import DEFAULT_GRID_STYLE
from fwwrules.errors import FwwError

sys.path.insert(0, str(Path(__file__).resolve().parent))
import picture_audit as audit

matplotlib.use("Agg")

REPO = Path(fwwrules.__file__).resolve().parents[1]
SCALES = (1, 2)
"""Two export sizes: the panel's 780 x 540 and twice that (``--scale 2``)."""
BOARDS = sorted(p for p in fwwrules.examples_dir().glob("*.yaml"))
GRIDS = sorted((fwwrules.examples_dir() / "grid").glob("*.yaml"))


def crowded() -> Any:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from _board import crowded_board
    finally:
        sys.path.pop(0)
    return crowded_board(heights=True)


def opposing_pair(s: Any) -> Any:
    """The ruling of the first attacker/target pair of opposing sides that has one."""
    for a in s.models:
        for b in s.models:
            if a.id != b.id and s.side_of(a.faction) != s.side_of(b.faction):
                try:
                    return fwwrules.ruling(s, a.id, b.id)
                except FwwError:
                    continue
    raise AssertionError("no opposing pair")


def ruling_lines(art: Any) -> list[Any]:
    return [art.sight, art.loc, art.fan, art.crossings, art.engagements, art.slide_path]


def board_problems(s: Any, *, strict_lines: bool) -> list[str]:
    """Every problem of every picture of one board (see the module's docstring)."""
    problems: list[str] = []
    pair = opposing_pair(s)
    for ruling in (None, pair):
        for lang in LANGS:
            for scale in SCALES:
                st = DEFAULT_STYLE
                ax = new_axes(st.figsize, st.dpi * scale, st.margins)
                art = draw_board(s, ax, ruling=ruling, lang=lang)
                where = f"[{'pair' if ruling else 'no pair'}, {lang}, x{scale}]"
                found = (
                    audit.outside(art.figure)
                    + audit.blocks_overlaps(art.figure)
                    + audit.board_overlaps(art, lines=ruling_lines(art))
                    + audit.unboxed_labels(art)
                )
                if strict_lines:
                    found += audit.labels_across(art, ruling_lines(art))
                problems += [f"{where} {p}" for p in found]
                art.figure.clear()
    return problems


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.stem)
def test_example_pictures_hold_everything_and_keep_labels_clear(path: Path) -> None:
    problems = board_problems(fwwrules.load(path), strict_lines=True)
    assert not problems, "\n".join(problems)


def test_crowded_board_pictures_hold_everything_and_keep_labels_clear() -> None:
    problems = board_problems(crowded(), strict_lines=False)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", GRIDS, ids=lambda p: p.stem)
def test_grid_pictures_hold_everything(path: Path) -> None:
    grid = fwwrules.load(path)
    ids = [c.id for c in grid.creatures]
    pair = None
    for a in ids:
        for b in ids:
            if a != b and pair is None:
                pair = fwwrules.grid_cover(grid, a, b)  # type: ignore[arg-type]
    problems = []
    for ruling in (None, pair):
        for lang in LANGS:
            for scale in SCALES:
                g = DEFAULT_GRID_STYLE
                ax = new_axes(g.figsize, g.dpi * scale, g.margins)
                art = draw_grid(grid, ax, ruling=ruling, lang=lang)  # type: ignore[arg-type]
                where = f"[{'pair' if ruling else 'no pair'}, {lang}, x{scale}]"
                found = audit.outside(art.figure) + audit.blocks_overlaps(art.figure)
                found += audit.grid_overlaps(art)
                problems += [f"{where} {p}" for p in found]
                art.figure.clear()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_threat_map_pictures_hold_their_legends(lang: str) -> None:
    """The threat map's class legend (the German one lost most of its words) and the board's
    legend, in the column beside the board, inside the figure and apart."""
    from fwwrules.draw.threat import draw_threat_map

    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    result = fwwrules.threat_map(s, "super-mutants", step=25.4)
    problems = []
    for layer in ("attackers", "uncovered", "best-modifier"):
        st = DEFAULT_STYLE
        ax = new_axes(st.figsize, st.dpi, st.margins)
        board = draw_board(s, ax, lang=lang)
        try:
            draw_threat_map(result, ax, layer, lang=lang, board=board)
        except TypeError:  # the drawing before issue 22 took no board: titled afterwards
            from fwwrules.draw.threat import threat_word

            draw_threat_map(result, ax, layer, lang=lang)
            board.title.set_text(
                threat_word("title", lang).format(base="32", units="mm", side=result.side)
            )
        found = audit.outside(board.figure) + audit.blocks_overlaps(board.figure)
        problems += [f"[{layer}] {p}" for p in found + audit.board_overlaps(board)]
    assert not problems, "\n".join(problems)


def test_a_picture_that_grows_puts_the_key_below_the_board() -> None:
    """The crowded board's key does not fit the column: the figure grows by the key's strip
    and the key goes below the board, in columns (no tall column beside empty space)."""
    from fwwrules.draw.layout import KEY_BELOW_GID, find_key

    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    art = draw_board(crowded(), ax, lang="de")
    fig = art.figure
    key = find_key(ax)
    assert key is not None and key.get_gid() == KEY_BELOW_GID and key._ncols >= 2
    renderer = audit.renderer_of(fig)
    board = ax.get_tightbbox(renderer)
    assert key.get_window_extent(renderer).y1 <= board.y0  # under the board and its ticks
    _w, h = fig.get_size_inches()
    assert h > st.figsize[1] and h < 1.5 * st.figsize[1]
    assert not audit.outside(fig) + audit.blocks_overlaps(fig)


@pytest.mark.parametrize("lang", LANGS)
def test_panel_pictures_of_fixed_size_hold_everything_at_both_export_sizes(lang: str) -> None:
    """A panel's figure keeps its size (its key stays in the column beside the board,
    shortened to what fits and counting the rest, so the board's box never depends on the
    key) and is exported at another resolution without being laid out again
    (``panel.save_picture(path, scale=2)``): the crowded board, with and without a pair,
    measured as laid out and as exported at twice the size."""
    from fwwrules.draw.board import FIXED_SIZE_GID
    from fwwrules.draw.figure import figure_of
    from fwwrules.draw.layout import KEY_GID, find_key

    s = crowded()
    problems = []
    for ruling in (None, opposing_pair(s)):
        st = DEFAULT_STYLE
        ax = new_axes(st.figsize, st.dpi, st.margins)
        figure_of(ax).set_gid(FIXED_SIZE_GID)
        art = draw_board(s, ax, ruling=ruling, lang=lang)
        assert tuple(art.figure.get_size_inches()) == tuple(st.figsize)
        key = find_key(ax)
        assert key is not None and key.get_gid() == KEY_GID  # in the column, never below
        lines = [t.get_text().replace("\n", " ") for t in key.get_texts()]
        more = draw_word("key-dropped", lang).split("{n}")[1].strip()
        assert more in lines[-1]  # the column had no room for every entry: they are counted
        shown = {line.split(":")[0] for line in lines[:-1]}
        markers = {m.get_text() for m in art.state.get("markers", []) if m.get_visible()}
        assert markers <= shown  # every number on the board is in the key
        for scale in SCALES:
            art.figure.set_dpi(st.dpi * scale)  # what savefig(dpi=...) does for the export
            where = f"[{'pair' if ruling else 'no pair'}, x{scale}]"
            found = (
                audit.outside(art.figure)
                + audit.blocks_overlaps(art.figure)
                + audit.board_overlaps(art, lines=ruling_lines(art))
            )
            problems += [f"{where} {p}" for p in found]
        art.figure.clear()
    assert not problems, "\n".join(problems)
