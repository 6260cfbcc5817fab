"""The panels' side-view and compare toggles (issue 36) in a real JupyterLab in Chromium, English
and German, at 1280x800 and 1920x1080: ticked with the mouse, the side view (attack panel) and
the comparison of the rulesets (attack and melee panels) appear below the board, nothing sticks
out of the output area and it never scrolls sideways (scrollWidth <= clientWidth), and a real
mouse drag of a model updates them. Screenshots go to ``artifacts/`` (and to the folder named
by ``FWWRULES_SHOTS``, if set)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from .conftest import (
    Lab,
    canvas_box,
    check_panels,
    drag,
    kernel_json,
    mouse_drag,
    panel_probe,
    wait_until,
)

pytestmark = pytest.mark.browser

SIZES = ((1280, 800), (1920, 1080))
WORDS = {
    "en": {"side": "Side view", "compare": "Compare rulesets"},
    "de": {"side": "Seitenansicht", "compare": "Regelwerke vergleichen"},
}

ATTACK = """\
import fwwrules
from fwwrules_widgets import AttackPanel
s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
AttackPanel(s, attacker="lookout", target="knight", lang="{lang}")
"""
MELEE = """\
import fwwrules
from fwwrules_widgets import MeleePanel
s = fwwrules.load(fwwrules.example_path("melee-shoot-into-3"))
p = MeleePanel(s, lang="{lang}")
p.shooter.value, p.target.value = "minuteman", "raider"
p
"""

# The newest panel of a class: its bases (CSS px from the canvas's corner), what the side view
# and the comparison show, and what the panel asked.
PROBE = """
_side = getattr(_p, "side", None)
print(json.dumps({
    "bases": {m: list(_css(c.center)) for m, c in _p.artists.bases.items()},
    "at": {m.id: list(m.at) for m in _p.scenario.models},
    "side": None if _side is None or _side.artists is None else _side.artists.section.length,
    "side_html": "" if _side is None else _p.view.said(_side.html)[-80:],
    "side_src": None if _side is None or 'src="' not in _p.view.said(_side.html)
    else _p.view.said(_side.html).split('src="', 1)[1].split('"', 1)[0],
    "painted": _p.view.link is not None and not _p.view.link.sender.in_flight
    and not _p.view.link.sender.dirty,
    "compare": _p.view.said(_p.compare.html),
    "differences": [[d.clause for d in c.differences] for c in _p.compare.comparisons],
    "distance": [c.core.range.distance for c in _p.compare.comparisons],
}))
"""

# Problems of the page's panel output: sideways scrolling, and the explanations' boxes.
JS_LAYOUT = """() => {
  const problems = [];
  document.querySelectorAll('.jp-OutputArea-output').forEach(a => {
    if (!a.querySelector('.jupyter-widgets')) return;
    if (a.scrollWidth > a.clientWidth + 1)
      problems.push('output area scrolls sideways: ' + a.scrollWidth + ' > ' + a.clientWidth);
  });
  const side = document.querySelector('img.fwwrules-side-view');
  const cmp = document.querySelector('.fwwrules-compare');
  const rect = e => e ? e.getBoundingClientRect() : null;
  return {problems, side: rect(side), compare: rect(cmp),
          sideLoaded: !!(side && side.complete && side.naturalWidth > 0),
          board: rect(document.querySelector('.fwwrules-board-canvas'))};
}"""


def _probe(lab: Lab, page: Any, cls: str, body: str = PROBE) -> dict[str, Any]:
    return kernel_json(lab, page, panel_probe(cls, body))


# While the button is held: the side view the kernel draws for the position the board shows
# (the one function the panel's drawing process uses too).
MID_DRAG = """
import base64
from fwwrules_widgets.side_worker import side_picture
_png = side_picture(_p.scenario, _p.ruling, _p.lang.value, _p.view.ratio, _p.side.style)[0]
print(json.dumps({
    "dragging": _p.view.dragging,
    "current": _p.side.current,
    "src": "data:image/png;base64," + base64.b64encode(_png).decode("ascii"),
}))
"""
JS_SIDE_CHANGED = """(old) => {
  const img = document.querySelector('img.fwwrules-side-view');
  return !!img && img.complete && img.naturalWidth > 0 && img.src !== old
    && !img.closest('[style*="opacity"]');
}"""


def _shot(lab: Lab, page: Any, name: str) -> None:
    path = lab.screenshot(page, name)
    folder = os.environ.get("FWWRULES_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(folder) / name)


def _tick(page: Any, label: str) -> None:
    """Click the checkbox labelled ``label`` with the mouse."""
    box = page.locator(".widget-checkbox", has_text=label).first
    box.scroll_into_view_if_needed()
    box.locator("input").click()


def _layout(page: Any, name: str, want_side: bool) -> dict[str, Any]:
    page.wait_for_function(
        "(s) => !!document.querySelector('.fwwrules-compare') && (!s || "
        "[...document.querySelectorAll('img.fwwrules-side-view')].some(i => i.complete "
        "&& i.naturalWidth > 0))",
        arg=want_side,
        timeout=60_000,
    )
    got: dict[str, Any] = page.evaluate(JS_LAYOUT)
    assert not got["problems"], (name, got["problems"])
    assert got["compare"]["width"] > 300, (name, got)
    if want_side:
        assert got["sideLoaded"] and got["side"]["width"] > 300, (name, got)
        board = got["board"]
        assert got["side"]["top"] >= board["top"] + board["height"] - 1, "side view not below"
    return got


JS_SIDE_SRC = """() => {
  const img = document.querySelector('img.fwwrules-side-view');
  return img ? img.src : null;
}"""
JS_SIDE_IS = """(want) => {
  const img = document.querySelector('img.fwwrules-side-view');
  return !!img && img.complete && img.naturalWidth > 0 && img.src === want
    && !img.closest('[style*="opacity"]');
}"""


def _below(lab: Lab, page: Any, name: str, selector: str) -> None:
    """A screenshot with the explanation below the board in view."""
    page.evaluate("(s) => document.querySelector(s).scrollIntoView({block: 'start'})", selector)
    page.wait_for_timeout(300)
    _shot(lab, page, name)


def _check_sizes(lab: Lab, page: Any, name: str, stem: str, want_side: bool) -> None:
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)
        problems = check_panels(lab, page, name, (width, height))
        assert not problems, "\n".join(problems)
        _layout(page, f"{stem} {width}x{height}", want_side)
        canvas_box(page, 0)  # the board at the top of the view, the explanations below
        _shot(lab, page, f"{stem}-{width}x{height}.png")
        _below(lab, page, f"{stem}-{width}x{height}-below.png", ".fwwrules-differences")


def _open_and_tick(lab: Lab, page: Any, name: str, *labels: str) -> None:
    """Open the notebook ``name`` (file browser folded away) and tick the toggles ``labels``
    with the mouse, once its board is shown."""
    lab.open(page, name)
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    canvas_box(page, 0)
    for label in labels:
        _tick(page, label)


def _first_size(page: Any) -> dict[str, float]:
    """Back at the first size of :data:`SIZES`: the board canvas's box, scrolled to the top."""
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.wait_for_timeout(600)
    return canvas_box(page, 0)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_attack_panel_side_view_and_compare_toggles(lab: Lab, lang: str) -> None:
    name = lab.write_notebook(f"explain-attack-{lang}.ipynb", ATTACK.format(lang=lang))
    with lab.session(*SIZES[0], failure_shot=f"explain-attack-{lang}-failed.png") as page:
        _open_and_tick(lab, page, name, WORDS[lang]["side"], WORDS[lang]["compare"])
        before = wait_until(
            lambda: _probe(lab, page, "AttackPanel"),
            lambda s: s["side"] is not None and bool(s["compare"]),
            page,
        )
        assert before["side"] is not None and "fwwrules-compare" in before["compare"]
        _check_sizes(lab, page, name, f"explain-attack-{lang}", want_side=True)
        box = _first_size(page)
        src = page.evaluate(JS_SIDE_SRC)
        kx, ky = before["bases"]["knight"]
        shot = f"explain-attack-{lang}-{SIZES[0][0]}x{SIZES[0][1]}-mid-drag.png"
        _drag_and_rest(lab, page, box, (kx, ky), (box["width"] / 8, box["height"] / 8), src, shot)
        after = wait_until(
            lambda: _probe(lab, page, "AttackPanel"),
            lambda s: (
                s["at"]["knight"] != before["at"]["knight"]
                and s["side"] != before["side"]
                and s["distance"] != before["distance"]
                and "opacity" not in s["side_html"]
                and s["painted"]
            ),
            page,
        )
        assert after["at"]["knight"] != before["at"]["knight"], "the knight did not move"
        assert after["side"] != before["side"], "the side view was not drawn again"
        assert after["distance"] != before["distance"], "the comparison did not follow"
        # the browser shows the drop's side view (not a dimmed one): every frame is painted
        page.wait_for_function(JS_SIDE_IS, arg=after["side_src"], timeout=60_000)
        _layout(page, "after the drag", want_side=True)
        canvas_box(page, 0)
        _shot(lab, page, f"explain-attack-{lang}-dragged.png")
        _below(lab, page, f"explain-attack-{lang}-dragged-below.png", "img.fwwrules-side-view")
        # at the larger size: up and to the left, the side view following again
        width, height = SIZES[1]
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(600)
        box = canvas_box(page, 0)
        (kx, ky), src = (
            _probe(lab, page, "AttackPanel")["bases"]["knight"],
            page.evaluate(JS_SIDE_SRC),
        )
        shot = f"explain-attack-{lang}-{width}x{height}-mid-drag.png"
        _drag_and_rest(
            lab, page, box, (kx, ky), (-box["width"] / 10, -box["height"] / 10), src, shot
        )
        dropped = wait_until(
            lambda: _probe(lab, page, "AttackPanel"),
            lambda s: "opacity" not in s["side_html"] and s["side_src"] != src and s["painted"],
            page,
        )
        page.wait_for_function(JS_SIDE_IS, arg=dropped["side_src"], timeout=60_000)


def _drag_and_rest(
    lab: Lab, page: Any, box: dict[str, float], at: Any, by: Any, old: str, name: str
) -> None:
    """Drag the base at ``at`` (CSS px in the canvas ``box``) by ``by`` with fast real mouse
    events, rest there holding the button: the side view must change to the picture the
    kernel draws for the position the board shows, before the release."""

    def rested() -> None:
        page.wait_for_function(JS_SIDE_CHANGED, arg=old, timeout=90_000)
        shown = page.evaluate(JS_SIDE_SRC)
        kernel = _probe(lab, page, "AttackPanel", MID_DRAG)
        assert kernel["dragging"] == "knight", "the drag ended before the side view changed"
        assert kernel["current"], "the side view shown is not of the position on the board"
        assert shown == kernel["src"], "the side view is not the section of the shown position"
        _shot(lab, page, name)  # no scrolling while the button is held: the board stays put

    start = (box["x"] + at[0], box["y"] + at[1])
    end = (start[0] + by[0], start[1] + by[1])
    mouse_drag(page, start, end, steps=12, pause_ms=16, before_release=rested)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_melee_panel_compare_toggle(lab: Lab, lang: str) -> None:
    name = lab.write_notebook(f"explain-melee-{lang}.ipynb", MELEE.format(lang=lang))
    with lab.session(*SIZES[0], failure_shot=f"explain-melee-{lang}-failed.png") as page:
        _open_and_tick(lab, page, name, WORDS[lang]["compare"])
        before = wait_until(
            lambda: _probe(lab, page, "MeleePanel"),
            lambda s: s["differences"] == [["melee.shoot-into"]],
            page,
        )
        assert before["differences"] == [["melee.shoot-into"]], before["differences"]
        _check_sizes(lab, page, name, f"explain-melee-{lang}", want_side=False)
        box = _first_size(page)
        mx, my = before["bases"]["minuteman"]
        drag(page, box, [mx, my], (mx, my + box["height"] / 6))
        after = wait_until(
            lambda: _probe(lab, page, "MeleePanel"),
            lambda s: (
                s["distance"] != before["distance"]
                and s["compare"] != before["compare"]
                and s["differences"] == [["melee.shoot-into"]]
            ),
            page,
        )
        assert after["at"]["minuteman"] != before["at"]["minuteman"]
        assert after["distance"] != before["distance"], "the comparison did not follow"
        assert after["differences"] == [["melee.shoot-into"]]
        _layout(page, "after the drag", want_side=False)
        canvas_box(page, 0)
        _shot(lab, page, f"explain-melee-{lang}-dragged.png")
        _below(lab, page, f"explain-melee-{lang}-dragged-below.png", ".fwwrules-differences")
