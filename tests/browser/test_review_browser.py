"""The translation review page in a real browser: ticks and comments export and import.

Writes the page with ``fwwrules review`` (German labels), opens it from disk in Debian's
Chromium through Playwright (no server), and with real mouse clicks and key presses ticks two
items, writes comments and a reviewer name, exports the review (a download), reloads the page,
imports the file and finds everything back. A file of another format is refused and changes
nothing; ids the page does not have survive an import and the next export. Every picture is a
``data:`` URI that the browser decodes, and the page asks for nothing over the network.
Screenshots at 1280x800 and 1920x1080 go to ``artifacts/``.

Chromium is the suite's (``conftest.py``: launched there; skips only when it is missing
and ``FWWRULES_REQUIRE_BROWSER`` is unset).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS  # the suite's Chromium comes as the ``browser`` fixture

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from fwwrules.cli import main

    out = tmp_path_factory.mktemp("review") / "review.html"
    assert main(["review", "-o", str(out), "--lang", "de"]) == 0
    return out


def _open(browser: Any, page_file: Path, width: int, height: int) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, accept_downloads=True
    )
    page = context.new_page()
    requests: list[str] = []
    page.on(
        "request",
        lambda r: (
            requests.append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None
        ),
    )
    page.goto(page_file.as_uri())
    page.wait_for_selector("section.item")
    return context, page, requests


def _item(page: Any, item_id: str) -> Any:
    return page.locator(f'section.item[data-id="{item_id}"]')


def _export(page: Any, path: Path) -> dict[str, Any]:
    with page.expect_download() as info:
        page.get_by_role("button", name="Prüfung exportieren").click()
    info.value.save_as(path)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_review_page_exports_and_imports_in_chromium(
    browser: Any, page_file: Path, tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    context, page, requests = _open(browser, page_file, 1280, 800)
    items = page.locator("section.item")
    n = items.count()
    assert n >= 42 + 30 + 6  # clauses, example questions, translation notes
    assert page.locator("#progress").inner_text() == f"0 / {n} geprüft"

    # Every picture is inline and decodes.
    sources = page.eval_on_selector_all("img", "els => els.map(e => e.src.slice(0, 22))")
    assert sources and set(sources) == {"data:image/png;base64,"}
    widths = page.eval_on_selector_all("img", "els => els.map(e => e.naturalWidth)")
    assert min(widths) > 300

    # Real mouse clicks and typing.
    first, note = _item(page, "clause:ranged.los"), _item(page, "note:2")
    first.locator("input.ok").click()
    note.scroll_into_view_if_needed()
    note.locator("input.ok").click()
    note.locator("textarea").click()
    page.keyboard.type("Fraktion/Seite: bitte „Seite“ verwenden.")
    _item(page, "example:cover-example-1:knight>brute").locator("textarea").fill("Bild passt")
    page.locator("#reviewer").fill("Erika")
    assert page.locator("#progress").inner_text() == f"2 / {n} geprüft"
    page.screenshot(path=str(ARTIFACTS / "review-1280x800.png"))

    exported = _export(page, tmp_path / "review.json")
    assert exported["format"] == "fwwrules/review@1" and exported["lang"] == "de"
    assert exported["reviewer"] == "Erika"
    assert len(exported["items"]) == n
    assert exported["items"]["clause:ranged.los"] == {"checked": True, "comment": ""}
    assert exported["items"]["note:2"] == {
        "checked": True,
        "comment": "Fraktion/Seite: bitte „Seite“ verwenden.",
    }
    assert exported["items"]["example:cover-example-1:knight>brute"] == {
        "checked": False,
        "comment": "Bild passt",
    }
    context.close()

    # A fresh page: import the file, find everything back; ids from another version survive.
    exported["items"]["clause:from-another-version"] = {"checked": True, "comment": "alt"}
    (tmp_path / "more.json").write_text(json.dumps(exported), encoding="utf-8")
    context, page, requests2 = _open(browser, page_file, 1920, 1080)
    assert page.locator("#progress").inner_text() == f"0 / {n} geprüft"
    page.locator("#import").set_input_files(str(tmp_path / "more.json"))
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('importiert')"
    )
    assert "1 nicht auf dieser Seite" in page.locator("#status").inner_text()
    assert page.locator("#progress").inner_text() == f"2 / {n} geprüft"
    assert _item(page, "note:2").locator("input.ok").is_checked()
    assert _item(page, "note:2").locator("textarea").input_value().startswith("Fraktion/Seite")
    assert not _item(page, "clause:size.classes").locator("input.ok").is_checked()
    assert page.locator("#reviewer").input_value() == "Erika"
    page.screenshot(path=str(ARTIFACTS / "review-1920x1080.png"))
    again = _export(page, tmp_path / "again.json")
    assert again["items"]["clause:from-another-version"] == {"checked": True, "comment": "alt"}
    assert again["items"]["note:2"] == exported["items"]["note:2"]

    # Another file format is refused and changes nothing.
    (tmp_path / "bad.json").write_text('{"format": "something/else", "items": {}}', "utf-8")
    page.locator("#import").set_input_files(str(tmp_path / "bad.json"))
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Keine Prüfdatei')"
    )
    assert _item(page, "note:2").locator("input.ok").is_checked()
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    page.evaluate("() => { document.getElementById('status').textContent = ''; }")
    page.locator("#import").set_input_files(str(tmp_path / "broken.json"))
    # The file is read asynchronously: wait for its verdict before asserting nothing changed.
    page.wait_for_function(
        "() => document.getElementById('status').textContent.includes('Keine Prüfdatei')"
    )
    assert page.locator("#progress").inner_text() == f"2 / {n} geprüft"
    assert _item(page, "note:2").locator("input.ok").is_checked()
    context.close()
    assert requests == [] and requests2 == []
