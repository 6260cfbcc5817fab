"""Grid drawing, checked through its artists: squares by kind with hatches, border walls,
creatures, and ruling lines whose verdicts differ by dash pattern as well as colour."""

from __future__ import annotations

import math

import pytest

pytest.importorskip("matplotlib")

import matplotlib

matplotlib.use("Agg")

from matplotlib.figure import Figure

import fwwrules
from fwwrules.draw import draw_grid as exported_draw_grid
from fwwrules.draw.grid import DEFAULT_GRID_STYLE, draw_grid, update_grid
from fwwrules.grid import grid_cover
from fwwrules.pieces import title_in


def _axes():  # type: ignore[no-untyped-def]
    return Figure(figsize=(8, 5)).add_subplot()


def _pieces(line) -> list[tuple[float, float, float, float]]:  # type: ignore[no-untyped-def]
    xs, ys = list(line.get_xdata()), list(line.get_ydata())
    out = []
    for i in range(0, len(xs), 3):
        out.append((xs[i], ys[i], xs[i + 1], ys[i + 1]))
        assert math.isnan(xs[i + 2])
    return out


def test_grid_draw_is_exported_by_fwwrules_draw() -> None:
    assert exported_draw_grid is draw_grid


def test_grid_draw_lines_follow_the_ruling() -> None:
    s = fwwrules.load(fwwrules.example_path("grid/sorcerer"))
    r = grid_cover(s, "ogre", "sorcerer")
    art = draw_grid(s, _axes(), ruling=r)
    for verdict, line in art.lines.items():
        expected = [
            (ln.start[0], ln.start[1], ln.end[0], ln.end[1])
            for ln in r.lines
            if ln.verdict == verdict
        ]
        assert _pieces(line) == expected
    assert list(art.corner.get_xdata()) == [r.corner[0]]
    expected = " ".join(t for t in (title_in(s.title, "en"), r.headline("en")) if t)
    assert art.title.get_text().replace("\n", " ") == expected  # the file's title, then why


def test_grid_picture_is_titled_with_the_files_title_in_its_language() -> None:
    """A grid file's title (one per language) heads its picture, the ruling's headline under
    it; a grid without a ruling shows its title alone."""
    s = fwwrules.load(fwwrules.example_path("grid/cleric"))
    assert isinstance(s.title, dict) and s.title["en"] != s.title["de"]
    for lang in ("en", "de"):
        assert draw_grid(s, _axes(), lang=lang).title.get_text().replace("\n", " ") == s.title[lang]
        r = grid_cover(s, "cleric", "ogre")
        text = draw_grid(s, _axes(), ruling=r, lang=lang).title.get_text().replace("\n", " ")
        assert text == f"{s.title[lang]} {r.headline(lang)}"


def test_grid_draw_verdicts_differ_by_dash_and_colour() -> None:
    looks = dict(DEFAULT_GRID_STYLE.lines)
    dashes = [repr(look.dashes) for look in looks.values()]
    assert len(set(dashes)) == len(dashes)  # meaning never by colour alone
    s = fwwrules.load(fwwrules.example_path("grid/sorcerer"))
    art = draw_grid(s, _axes(), ruling=grid_cover(s, "ogre", "sorcerer"))
    assert art.lines["clear"].get_linestyle() == "-"
    assert all(art.lines[v].get_linestyle() == "--" for v in art.lines if v != "clear")
    assert art.lines["clear"].get_color() != art.lines["wall"].get_color()


def test_grid_draw_squares_walls_and_creatures() -> None:
    s = fwwrules.load(fwwrules.example_path("grid/total"))
    art = draw_grid(s, _axes())
    walls = art.squares["wall"]
    assert sum(int(p.get_width()) for p in walls) == sum(row.count("wall") for row in s.kinds)
    assert all(p.get_hatch() == "xx" for p in walls)
    assert _pieces(art.border_walls) == [(7, 2, 7, 3)]
    assert set(art.creatures) == {"guard", "prisoner", "jailer"}
    assert art.creatures["guard"].center == (0.5, 2.5)
    assert all(len(line.get_xdata()) == 0 for line in art.lines.values())
    ylo, yhi = art.ax.get_ylim()
    assert ylo > yhi  # rows grow downward


def test_grid_draw_update_in_place_and_german_legend() -> None:
    s = fwwrules.load(fwwrules.example_path("grid/rogue"))
    ax = _axes()
    art = draw_grid(s, ax, ruling=grid_cover(s, "ogre", "rogue", attack="reach"))
    first = art.lines["wall"]
    update_grid(art, s, grid_cover(s, "rogue", "ogre", attack="melee"), lang="de")
    assert art.lines["wall"] is first  # same artist, new data
    assert len(_pieces(art.lines["clear"])) + len(_pieces(art.lines["wall"])) == 16
    legend = [t.get_text() for t in art.legend.get_texts()]
    assert {"Mauer", "Angreifer", "Ziel", "freie Linie", "gewählter Eckpunkt"} <= set(legend)
    assert len(ax.get_legend().get_texts()) == len(legend)
