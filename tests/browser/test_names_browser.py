"""Names per language in a real JupyterLab (issue 32): an attack panel and a grid panel opened
in German show the shipped examples' German names in their dropdowns, on the board and in the
ruling text, and English ones after switching to English; at 1280x800 and 1920x1080, with
screenshots in ``artifacts/`` (``names-<panel>-<lang>-<width>.png``)."""

from __future__ import annotations

import pytest

from .conftest import Lab, wait_until

pytestmark = pytest.mark.browser

SIZES = ((1280, 800), (1920, 1080))

CELLS = (
    "%matplotlib inline\nimport fwwrules\nfrom fwwrules_widgets import AttackPanel, GridPanel",
    'roof = fwwrules.load(fwwrules.example_path("elevation-rooftop"))\n'
    'attack = AttackPanel(roof, attacker="knight", target="lookout", lang="de")\nattack',
    'walls = fwwrules.load(fwwrules.example_path("grid/border-walls"))\n'
    'grid = GridPanel(walls, attacker="archer", target="knight", lang="de")\ngrid',
)


def _select_texts(page: object) -> list[str]:
    """The text of every dropdown option the page shows (ipywidgets render <select>)."""
    texts: list[str] = page.evaluate(  # type: ignore[attr-defined]
        "() => [...document.querySelectorAll('.jp-OutputArea select option')]"
        ".map(o => o.textContent)"
    )
    return texts


def test_panels_name_pieces_in_their_language_in_the_browser(lab: Lab) -> None:
    notebook = lab.write_notebook("names-per-language.ipynb", *CELLS)
    for width, height in SIZES:
        with lab.session(width, height, failure_shot=f"names-failure-{width}.png") as page:
            lab.open(page, notebook)
            state = wait_until(
                lambda: {"options": _select_texts(page)},
                lambda s: "Raider-Späher" in s["options"],
                page,
            )
            options = state["options"]
            assert "Kiste nahe beim Knight" not in options  # terrain is no attacker
            assert {"Raider-Späher", "Raider-Scharfschütze", "Lasergewehr"} <= set(options)
            assert "Raider Lookout" not in options
            text = page.inner_text(".jp-Notebook")
            assert "Knight Patrol darf Raider-Späher mit Lasergewehr angreifen" in text
            assert "Ritter hat Deckung gegen den Fernkampfangriff von Bogenschütze" in text
            lab.screenshot(page, f"names-panels-de-{width}.png")
            lab.kernel(page, 'attack.lang.value = "en"\ngrid.lang.value = "en"')
            wait_until(
                lambda: {"options": _select_texts(page)},
                lambda s: "Raider Lookout" in s["options"],
                page,
            )
            text = page.inner_text(".jp-Notebook")
            assert "Knight Patrol may attack Raider Lookout with Laser Rifle" in text
            assert "Knight has cover against the ranged attack of Archer" in text
            lab.screenshot(page, f"names-panels-en-{width}.png")
