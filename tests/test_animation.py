"""Slides animated (issue 22, ``melee.slide``): the sliding base moves along the exact path
of the ruling, keeps contact with every model it was engaged with in every frame of a legal
slide, and shows where contact breaks in a refused one; written as a GIF (Pillow), as HTML
(matplotlib's JavaScript player) or as the still of where it ends."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import fwwrules
from fwwrules.draw.animate import ARC_SNAP_MM, SlideAnimation, path_points, slide_animation
from fwwrules.errors import QueryError

BEHEMOTH = str(fwwrules.example_path("melee-behemoth-slide"))
TO = (324.8, 343.4)  # RoP p.25: round Dogmeat, into contact with the Sole Survivor


@pytest.fixture(scope="module")
def legal() -> SlideAnimation:
    return slide_animation(fwwrules.load(BEHEMOTH), "behemoth", TO, frames=12)


def drawn_gaps(anim: SlideAnimation, k: int) -> dict[str, float]:
    """In frame ``k`` as drawn: the gap (mm) between the sliding base's circle and each model
    it was engaged with (the artists, not the rules, are measured)."""
    anim.show(k)
    bases = anim.artists.bases
    slider = bases[anim.ruling.model]
    (x, y), r = slider.center, slider.get_radius()
    gaps = {}
    for other in anim.engaged:
        (ox, oy), orad = bases[other].center, bases[other].get_radius()
        gaps[other] = math.hypot(ox - x, oy - y) - r - orad
    return gaps


def test_melee_slide_animation_keeps_contact_in_every_frame(legal: SlideAnimation) -> None:
    s = legal.scenario
    assert legal.ruling.legal
    assert len(legal) == 12 and len(legal.positions) == 12
    assert legal.engaged == ("dogmeat",)
    assert legal.positions[0] == pytest.approx(s.model("behemoth").at)
    assert legal.positions[-1] == pytest.approx(TO)
    tolerance = s.contact_tolerance_mm
    for k in range(len(legal)):
        for other, gap in drawn_gaps(legal, k).items():
            assert abs(gap) <= tolerance + 1e-6, (k, other, gap)  # touching, never apart
        assert all(legal.contact[k])
        assert legal.state["kept"].get_visible() and not legal.state["broken"].get_visible()


def test_melee_slide_animation_follows_the_rulings_path(legal: SlideAnimation) -> None:
    """Every frame lies on the ruling's path (a polyline round Dogmeat), in equal steps."""
    from shapely.geometry import LineString, Point

    path = LineString(legal.ruling.path)
    steps = [math.dist(a, b) for a, b in zip(legal.positions, legal.positions[1:], strict=False)]
    for p in legal.positions:  # on the path; round a base on its arc, not the drawn chord
        assert path.distance(Point(p)) < ARC_SNAP_MM
    assert max(steps) - min(steps) < 0.05 * max(steps)  # equal arc length (chords: nearly)
    assert sum(steps) == pytest.approx(path.length, rel=0.01)


def test_melee_slide_refused_animation_shows_where_contact_breaks() -> None:
    anim = slide_animation(fwwrules.load(BEHEMOTH), "behemoth", (200.0, 300.0), frames=6)
    assert not anim.ruling.legal and "dogmeat" in anim.ruling.breaks
    assert anim.contact[0] == (True,) and anim.contact[-1] == (False,)
    anim.show(len(anim) - 1)
    assert anim.state["broken"].get_visible()
    assert drawn_gaps(anim, len(anim) - 1)["dogmeat"] > anim.scenario.contact_tolerance_mm


def test_path_points_boundaries() -> None:
    assert path_points([(0, 0), (3, 4)], 2) == [(0.0, 0.0), (3.0, 4.0)]
    assert len(path_points([(0, 0), (1, 0), (1, 1)], 7)) == 7


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fwwrules", "render", BEHEMOTH, *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_render_slide_gif_opens_with_pillow(tmp_path: Path) -> None:
    out = tmp_path / "slide.gif"
    done = run("--slide", "behemoth", "--to", "324.8,343.4", "--frames", "10", "-o", str(out))
    assert done.returncode == 0, done.stderr
    with Image.open(out) as gif:
        assert gif.format == "GIF" and gif.n_frames == 10 and gif.size == (780, 540)
        assert gif.info["loop"] == 0
        gif.seek(gif.n_frames - 1)
        assert gif.info["duration"] > 1000  # the end is held
    assert (out.stat().st_mode & 0o777) == 0o666 & ~_umask()


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_render_slide_html_is_matplotlibs_player_and_stable(tmp_path: Path) -> None:
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    for out in (one, two):
        done = run("--slide", "behemoth", "--to", "324.8,343.4", "--frames", "6", "--lang",
                   "de", "-o", str(out))  # fmt: skip
        assert done.returncode == 0, done.stderr
    page = one.read_text(encoding="utf-8")
    assert page == two.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Animation" in page
    assert len(re.findall(r'frames\[\d+\] = "data:image/png;base64,', page)) == 6 + 3  # + held
    assert "anim_step_" in page or "_anim_slider" in page


def test_render_slide_still_and_bad_arguments(tmp_path: Path) -> None:
    done = run("--slide", "behemoth", "--to", "324.8,343.4", "-o", str(tmp_path / "end.png"))
    assert done.returncode == 0 and (tmp_path / "end.png").exists()
    for args, message in (
        (["--slide", "behemoth", "-o", "x.gif"], "give both --slide MODEL and --to X,Y"),
        (["--slide", "behemoth", "--to", "1,1", "--frames", "1"], "frames must be from 2"),
        (["--slide", "behemoth", "--to", "1,1", "-o", "x.mp4"], "must end in .gif or .html"),
        (["--slide", "nobody", "--to", "1,1", "-o", "x.gif"], "nobody"),
    ):
        done = run(*args)
        assert done.returncode == 2, (args, done.stderr)
        assert message in done.stderr and "Traceback" not in done.stderr


def test_slide_animation_from_python_saves_every_format(
    tmp_path: Path, legal: SlideAnimation
) -> None:
    assert legal.save(tmp_path / "s.gif", scale=0.5).stat().st_size > 1000
    with Image.open(tmp_path / "s.gif") as gif:
        assert gif.size == (390, 270)
    assert "<script" in legal._repr_html_()
    with pytest.raises(QueryError):
        legal.save(tmp_path / "s.avi")


def test_the_html_player_needs_no_network_and_its_frames_are_sharp(legal: SlideAnimation) -> None:
    """Nothing is fetched (matplotlib's player links Font Awesome from a CDN: offline its
    buttons were empty squares), and the frames are drawn at twice the board's own size and
    shown at that size, as a panel's board is on a high-density screen (the notebook's
    player drew them at 72 dpi, its text about 7 px high)."""
    import base64
    import io as _io

    page = legal._repr_html_()
    assert not re.search(r"https?://", page) and "<link" not in page
    assert "font-awesome" not in page and 'class="fa ' not in page
    shown = re.search(r'<img id="_anim_img[0-9a-f]+" src="data:image/png;base64,([^"]+)"'
                      r' alt="" style="width:(\d+)px', page)  # fmt: skip
    assert shown is not None
    css = int(shown.group(2))
    assert css == round(legal.figure.get_figwidth() * legal.artists.style.dpi) == 780
    with Image.open(_io.BytesIO(base64.b64decode(shown.group(1)))) as first:
        assert first.size[0] == 2 * css
