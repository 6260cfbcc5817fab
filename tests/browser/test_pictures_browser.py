"""Pictures as a reader meets them in JupyterLab in Chromium (issue 22), with real clicks:

* the melee panel's export control writes the picture and its download link hands the same
  PNG (twice the panel's pixels) to the browser;
* the melee panel's play control steps the Behemoth's slide round Dogmeat to its end, in the
  kernel and on the canvas;
* notebook 05's animation (matplotlib's JavaScript player) shows its frames and steps through
  them, in JupyterLab and in the notebook's static HTML (nbconvert), opened from disk.

Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS, JS_SCROLL_TO, REPO, Lab, kernel_json, wait_until

pytestmark = pytest.mark.browser

MELEE = """\
import fwwrules
from fwwrules_widgets import MeleePanel

p = MeleePanel(fwwrules.load(fwwrules.example_path("melee-behemoth-slide")))
p.slider.value = "behemoth"
p.to_x.value, p.to_y.value = 324.8, 343.4
p"""

PROBE = """\
import json
c = p.artists.bases["behemoth"].center
print(json.dumps({"frame": p.frame.value, "x": round(c[0], 2), "y": round(c[1], 2),
                  "kept": bool(p.artists.state.get("animation", {}).get("kept")
                               and p.artists.state["animation"]["kept"].get_visible())}))"""


JS_PLAYER_CELL = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  return w.content.widgets.findIndex(c => c.model.type === 'code'
    && c.model.sharedModel.getSource().includes('slide_animation('));
}"""


def test_melee_panel_exports_a_picture_and_plays_the_slide(lab: Lab, tmp_path: Path) -> None:
    from PIL import Image

    name = lab.write_notebook("pictures-melee.ipynb", MELEE)
    with lab.session(1280, 800, downloads=True) as page:
        lab.open(page, name)
        button = page.get_by_role("button", name="Export picture")
        button.scroll_into_view_if_needed()
        button.click()
        link = page.locator("a[download]").first
        link.wait_for(timeout=60_000)
        assert "Wrote" in page.locator(".jp-OutputArea-output").last.inner_text()
        with page.expect_download() as info:
            link.click()
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        assert saved.name == "board.png"
        with Image.open(saved) as im:
            assert im.size == (1560, 1080)
        lab.screenshot(page, "pictures-melee-export-1280x800.png")

        play = page.locator(".widget-play button").first
        play.scroll_into_view_if_needed()
        play.click()
        page.wait_for_timeout(1200)
        lab.screenshot(page, "pictures-melee-playing-1280x800.png")
        state = wait_until(
            lambda: kernel_json(lab, page, PROBE),
            lambda s: s["frame"] == 23,
            page,
        )
        assert state == {"frame": 23, "x": 324.8, "y": 343.4, "kept": True}, state
        lab.screenshot(page, "pictures-melee-played-1280x800.png")


def player_steps(page: Any) -> None:
    """The player's picture is a frame, and its buttons step to another frame."""
    img = page.locator(".animation img").first
    img.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const i = document.querySelector('.animation img');"
        " return !!i && (i.src || '').startsWith('data:image/png') && i.naturalWidth > 300; }",
        timeout=30_000,
    )
    first = img.get_attribute("src")
    page.get_by_role("button", name="Last frame").first.click()
    page.wait_for_timeout(300)
    assert img.get_attribute("src") != first
    page.get_by_role("button", name="Previous frame").first.click()
    page.wait_for_timeout(300)
    assert img.get_attribute("src") not in (None, "", first)


def test_notebook_05_animation_plays_in_lab(lab: Lab) -> None:
    with lab.session(1280, 800) as page:
        lab.open(page, "05-slides-and-withdrawal.ipynb")
        page.evaluate(JS_SCROLL_TO, page.evaluate(JS_PLAYER_CELL))  # cells show when in view
        page.wait_for_timeout(500)
        player_steps(page)
        lab.screenshot(page, "pictures-05-player-1280x800.png")


def test_notebook_05_animation_plays_in_its_static_html(lab: Lab, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir",
         str(tmp_path), str(REPO / "notebooks" / "05-slides-and-withdrawal.ipynb")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = lab.browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        page.goto((tmp_path / "05-slides-and-withdrawal.html").as_uri())
        player_steps(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "pictures-05-static-html-1280x800.png"))
    finally:
        page.context.close()
