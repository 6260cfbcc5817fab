"""render_file / ``fwwrules render``: PNG and SVG, byte-stable, nothing but data in them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import fwwrules
from fwwrules.draw import render_file
from fwwrules.errors import QueryError

SCENARIO = """
format: fwwrules/scenario@1
title: Render
models:
  - {id: a, faction: x, base: 32, at: [20, 20]}
  - {id: b, faction: y, base: 40, at: [150, 60]}
terrain:
  - {id: crate, kind: cover, rect: {at: [80, 40], size: [20, 20], angle: 30}}
"""


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_render_file_is_byte_stable(tmp_path: Path, suffix: str) -> None:
    s = fwwrules.loads(SCENARIO)
    one = render_file(s, tmp_path / f"one{suffix}")
    two = render_file(s, tmp_path / f"two{suffix}")
    assert one.read_bytes() == two.read_bytes()
    assert one.stat().st_size > 1000


def test_render_file_png_has_no_software_and_svg_no_date(tmp_path: Path) -> None:
    s = fwwrules.loads(SCENARIO)
    png = render_file(s, tmp_path / "b.png").read_bytes()
    assert png.startswith(b"\x89PNG") and b"matplotlib" not in png.lower()
    svg = render_file(s, tmp_path / "b.svg").read_text()
    assert "<dc:date>" not in svg and "<svg" in svg


def test_render_file_lang_changes_the_picture(tmp_path: Path) -> None:
    s = fwwrules.loads(SCENARIO)
    en = render_file(s, tmp_path / "en.svg").read_text()
    de = render_file(s, tmp_path / "de.svg", lang="de").read_text()
    assert en != de


def test_render_file_rejects_other_suffixes_and_half_pairs(tmp_path: Path) -> None:
    s = fwwrules.loads(SCENARIO)
    with pytest.raises(QueryError):
        render_file(s, tmp_path / "board.jpg")
    with pytest.raises(QueryError):
        render_file(s, tmp_path / "board.png", attacker="a")


def test_import_draw_loads_matplotlib_but_not_ipywidgets() -> None:
    code = (
        "import sys, fwwrules.draw; "
        "print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules, "
        "'IPython' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "False", "False"]


def test_cli_render_with_attacker_and_target_draws_the_ruling(tmp_path: Path) -> None:
    from fwwrules.cli import main

    example = fwwrules.example_path("cover-example-1")
    out = tmp_path / "board.svg"
    code = main(
        ["render", str(example), "-o", str(out), "--attacker", "knight", "--target", "brute"]
    )
    assert code == 0 and out.is_file()
    plain = tmp_path / "plain.svg"
    assert main(["render", str(example), "-o", str(plain)]) == 0
    assert out.read_bytes() != plain.read_bytes()  # the lines of the ruling are in it
    assert (
        main(["render", str(example), "-o", str(tmp_path / "x.png"), "--attacker", "knight"]) == 2
    )


def test_render_grid_file_draws_the_grid_with_the_lines(tmp_path: Path) -> None:
    from fwwrules.cli import main

    out = tmp_path / "grid.svg"
    path = str(fwwrules.example_path("grid/cleric"))
    assert main(["render", path, "-o", str(out), "--attacker", "ogre", "--target", "cleric"]) == 0
    text = out.read_text(encoding="utf-8")
    assert "<svg" in text and "Cleric" in text
