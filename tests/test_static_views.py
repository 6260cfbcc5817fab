"""Static views of the notebooks (GitHub, nbviewer, nbconvert): every panel shows its board
as a picture and its ruling as text, never a widget's repr (``HBox(children=...)``).

The stored outputs are converted with nbconvert's HTML exporter as they are (nothing runs);
the panel cells are found by their widget view.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((REPO / "notebooks").glob("*.ipynb"))
WIDGET = "application/vnd.jupyter.widget-view+json"
REPR = re.compile(r"\b[HV]Box\(children=|\bDropdown\(|\bCanvas\(|\bImage\(value=")


def panel_outputs(nb: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        o
        for c in nb["cells"]
        if c["cell_type"] == "code"
        for o in c.get("outputs", [])
        if WIDGET in o.get("data", {})
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_nbconvert_shows_pictures_and_text_not_widget_reprs(path: Path) -> None:
    from nbconvert import HTMLExporter

    nb = json.loads(path.read_text())
    panels = panel_outputs(nb)
    for o in panels:
        data = o["data"]
        html = "".join(data.get("text/html", ""))
        picture = "image/png" in data or "data:image/png;base64," in html
        assert picture, f"{path.name}: a panel output without a picture"
        assert not REPR.search("".join(data.get("text/plain", ""))), data.get("text/plain")
        if "Panel" in "".join(data.get("text/plain", "")):  # pragma: no cover - a guard
            raise AssertionError(f"{path.name}: a panel's text is its repr")
    body, _ = HTMLExporter().from_filename(str(path))
    assert not REPR.search(body), f"{path.name}: a widget repr in the static view"
    # every panel's picture reaches the page (as the HTML view's <img> or the PNG itself)
    assert body.count("<img") >= len(panels), f"{path.name}: a panel without its picture"


def test_attack_and_melee_panels_carry_their_ruling_as_html() -> None:
    """The rules panels' static view is the board beside the ruling's text."""
    found = 0
    for path in NOTEBOOKS:
        nb = json.loads(path.read_text())
        for cell in nb["cells"]:
            source = "".join(cell.get("source", ""))
            if cell["cell_type"] != "code" or not re.search(
                r"\b(AttackPanel|MeleePanel|ExampleStepper)\(", source
            ):
                continue
            for o in cell.get("outputs", []):
                html = "".join(o.get("data", {}).get("text/html", ""))
                if WIDGET in o.get("data", {}):
                    found += 1
                    assert 'class="fwwrules-board"' in html, path.name
                    assert "fwwrules-ruling" in html or "<h4>" in html, path.name
    assert found >= 9
