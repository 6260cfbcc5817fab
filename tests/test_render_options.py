"""``fwwrules render`` for authors (issue 22): the picture's size (``--width``, ``--dpi``,
``--scale``), the ruleset and band (``--rules``, ``--band``) and the title (``--title``) in
the language asked (``--lang``), and the same from Python (``render_file``,
``render_figure``, ``fwwrules.draw.export``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import fwwrules
from fwwrules.draw import render_file
from fwwrules.draw.export import MAX_DPI, export_dpi, picture_path, save_picture
from fwwrules.draw.render import render_figure
from fwwrules.errors import QueryError

COVER_1 = str(fwwrules.example_path("cover-example-1"))
PAIR = ["--attacker", "knight", "--target", "brute"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fwwrules", "render", *args],
        capture_output=True,
        text=True,
        check=False,
    )


def pixels(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        return im.size


@pytest.mark.parametrize(
    ("option", "expected"),
    [([], (780, 540)), (["--scale", "2"], (1560, 1080)), (["--width", "1200"], (1200, 830)),
     (["--dpi", "300"], (2340, 1620))],
)  # fmt: skip
def test_render_size_options_set_the_pixels(
    tmp_path: Path, option: list[str], expected: tuple[int, int]
) -> None:
    out = tmp_path / "board.png"
    done = run(COVER_1, *PAIR, "-o", str(out), *option)
    assert done.returncode == 0, done.stderr
    assert pixels(out) == expected


@pytest.mark.parametrize(
    ("option", "message"),
    [
        (["--scale", "2", "--dpi", "300"], "not allowed with argument"),
        (["--scale", "0"], "expected a positive number"),
        (["--width", "nan"], "expected a positive number"),
        (["--dpi", "-3"], "expected a positive number"),
        (["--width", "90000"], "out of range"),
        (["--dpi", "5"], "out of range"),
        (["--band", "long"], "a band applies to an attack"),
        (["-o", "board.jpg"], "must end in .png or .svg"),
    ],
)
def test_render_refuses_bad_options_with_exit_2(
    tmp_path: Path, option: list[str], message: str
) -> None:
    done = run(COVER_1, "-o", str(tmp_path / "b.png"), *option)
    assert done.returncode == 2
    assert message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "b.png").exists()


def svg_text(tmp_path: Path, *args: str) -> str:
    out = tmp_path / "board.svg"
    done = run(COVER_1, "-o", str(out), *args)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8")


def test_render_picture_names_the_ruleset_and_band(tmp_path: Path) -> None:
    """The caption says which rules the picture shows: the file's (core), or --rules; with
    --band the ruling uses that band and the caption says so."""
    assert "core rules · long range" in svg_text(tmp_path, *PAIR)
    vts = svg_text(tmp_path, *PAIR, "--rules", "vts")
    assert "Vault-Tec Simulator" in vts and "core rules" not in vts
    assert "Vault-Tec Simulator" in svg_text(tmp_path, "--rules", "vts")  # no pair
    german = svg_text(tmp_path, *PAIR, "--lang", "de")
    assert "Grundregeln · lange Reichweite" in german


def test_render_band_goes_to_the_ruling() -> None:
    s = fwwrules.load(COVER_1)
    fig = render_figure(s, attacker="knight", target="brute", band="long")
    caption = [t.get_text() for t in fig.texts]
    assert any("long range" in c for c in caption), caption
    with pytest.raises(QueryError):
        render_figure(s, attacker="knight", target="brute", band="middle")


def test_render_title_replaces_the_files_title_in_every_language(tmp_path: Path) -> None:
    for lang in ("en", "de"):
        svg = svg_text(tmp_path, *PAIR, "--title", "Crate & wall", "--lang", lang)
        assert "Crate &amp; wall" in svg
        assert "Cover example 1" not in svg
    german = svg_text(tmp_path, *PAIR, "--lang", "de")
    assert "darf" in german and "Seite: Bruderschaft" in german


def test_render_svg_is_byte_stable_with_every_option(tmp_path: Path) -> None:
    args = [*PAIR, "--rules", "vts", "--title", "Stable", "--lang", "de", "--scale", "2"]
    assert svg_text(tmp_path, *args) == svg_text(tmp_path, *args)


def test_render_options_do_not_apply_to_a_grid(tmp_path: Path) -> None:
    grid = str(fwwrules.example_path("grid/corridor"))
    done = run(grid, "--attacker", "archer", "--target", "rat", "--rules", "vts", "-o",
               str(tmp_path / "g.png"))  # fmt: skip
    assert done.returncode == 2 and "does not apply to a Pathfinder grid" in done.stderr
    done = run(grid, "--attacker", "archer", "--target", "rat", "--scale", "2", "--title",
               "Corridor", "-o", str(tmp_path / "g.png"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert pixels(tmp_path / "g.png")[0] == 1600
    done = run(grid, "--attacker", "archer", "--target", "rat", "--title", "Corridor & rat",
               "-o", str(tmp_path / "g.svg"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Corridor &amp; rat" in (tmp_path / "g.svg").read_text(encoding="utf-8")


def test_render_file_from_python_takes_the_same_options(tmp_path: Path) -> None:
    s = fwwrules.load(COVER_1)
    out = render_file(s, tmp_path / "b.png", attacker="knight", target="brute", width=1000,
                      rules="vts", title="Python", lang="de")  # fmt: skip
    assert pixels(out)[0] == 1000


def test_export_dpi_and_picture_path_boundaries(tmp_path: Path) -> None:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.8, 5.4), dpi=100)
    assert export_dpi(fig, scale=2) == 200
    assert export_dpi(fig, dpi=MAX_DPI) == MAX_DPI
    with pytest.raises(QueryError, match="out of range"):
        export_dpi(fig, dpi=MAX_DPI + 1)
    with pytest.raises(QueryError, match="positive"):
        export_dpi(fig, scale=float("inf"))
    assert picture_path("a", "svg") == (Path("a.svg"), "svg")
    with pytest.raises(QueryError, match=r"does not end in \.png"):
        picture_path("a.svg", "png")
    with pytest.raises(QueryError, match="expected png or svg"):
        picture_path("a.gif", "gif")


def test_save_picture_of_a_high_density_canvas_uses_the_figure_own_size(tmp_path: Path) -> None:
    """A panel's canvas draws at dpi x device pixel ratio; scale 1 is still 780 px wide."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7.8, 5.4), dpi=100)
    canvas = FigureCanvasAgg(fig)
    canvas._set_device_pixel_ratio(2.0)
    assert pixels(save_picture(fig, tmp_path / "p.png")) == (780, 540)
    assert pixels(save_picture(fig, tmp_path / "q", format="png", scale=3)) == (2340, 1620)
