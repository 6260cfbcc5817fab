"""The translation review page in a real browser: a reviewer's work survives a reload, the
page warns before unexported work is lost, two reviewers' exports merge, suggested wordings
are made in place, and every link of the contents lands on its heading below the header.

Writes the page with ``fwwrules review`` (German and English labels), opens it from disk in
Debian's Chromium through Playwright (no server), and works it with real mouse clicks and key
presses. A file of another format is refused and changes nothing; ids the page does not have
survive an import and the next export. Every picture is a ``data:`` URI that the browser
decodes, and the page asks for nothing over the network. Screenshots at 1280x800 and
1920x1080, in German and English, go to ``artifacts/``.

Chromium is the suite's (``conftest.py``: launched there; skips only when it is missing
and ``FWWRULES_REQUIRE_BROWSER`` is unset).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from .conftest import ARTIFACTS  # the suite's Chromium comes as the ``browser`` fixture

pytestmark = pytest.mark.browser

LOS_CLEAR_DE = "ranged.los/clear"
SUGGESTION = "Sichtlinie frei: {attacker} sieht {target} ungehindert."
HANS_SUGGESTION = "Sichtlinie: {attacker} sieht {target}."


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from fwwrules.cli import main

    folder = tmp_path_factory.mktemp("review")
    out = {}
    for lang in ("de", "en"):
        out[lang] = folder / f"review-{lang}.html"
        assert main(["review", "-o", str(out[lang]), "--lang", lang]) == 0
    return out


@contextmanager
def opened(browser: Any, page_file: Path, width: int, height: int) -> Iterator[Any]:
    """A page of its own browser context (its own local storage), asking for nothing over the
    network; every dialog (the warning before leaving) is recorded in ``page.dialogs`` and
    accepted (dismissed once the test sets ``page.leave = False``)."""
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
    page.dialogs = []  # the dialogs' types, in order
    page.leave = True  # how a dialog is answered: leave (accept) or stay (dismiss)

    def on_dialog(dialog: Any) -> None:
        page.dialogs.append(dialog.type)
        dialog.accept() if page.leave else dialog.dismiss()

    page.on("dialog", on_dialog)
    page.goto(page_file.as_uri())
    page.wait_for_selector("section.item")
    try:
        yield page
    finally:
        context.close()
    assert requests == []


def _item(page: Any, item_id: str) -> Any:
    return page.locator(f'section.item[data-id="{item_id}"]')


def _text(page: Any, msg: str, lang: str = "de") -> Any:
    return page.locator(f'.col[lang="{lang}"] pre.text[data-msg="{msg}"]')


def _export(page: Any, path: Path, button: str = "Prüfung exportieren") -> dict[str, Any]:
    with page.expect_download() as info:
        page.get_by_role("button", name=button).click()
    info.value.save_as(path)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _suggest(page: Any, msg: str, text: str) -> None:
    """Click into a catalogue text, select all of it and type a new wording (real keys)."""
    pre = _text(page, msg)
    pre.scroll_into_view_if_needed()
    pre.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(text)


def _progress(page: Any) -> str:
    return str(page.locator("#progress").inner_text())


def test_review_page_exports_and_imports_in_chromium(
    browser: Any, pages: dict[str, Path], tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with opened(browser, pages["de"], 1280, 800) as page:
        n = page.locator("section.item").count()
        assert n >= 42 + 30 + 6  # clauses, example questions, translation notes
        assert _progress(page) == f"0 / {n} geprüft"

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
        assert _progress(page) == f"2 / {n} geprüft"

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
        assert exported["suggestions"] == {} and exported["others"] == {}

    # A fresh page (another browser profile): import the file, find everything back; ids from
    # another version survive.
    exported["items"]["clause:from-another-version"] = {"checked": True, "comment": "alt"}
    (tmp_path / "more.json").write_text(json.dumps(exported), encoding="utf-8")
    with opened(browser, pages["de"], 1920, 1080) as page:
        assert _progress(page) == f"0 / {n} geprüft"
        page.locator("#import").set_input_files(str(tmp_path / "more.json"))
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('importiert')"
        )
        assert "1 nicht auf dieser Seite" in page.locator("#status").inner_text()
        assert _progress(page) == f"2 / {n} geprüft"
        assert _item(page, "note:2").locator("input.ok").is_checked()
        assert _item(page, "note:2").locator("textarea").input_value().startswith("Fraktion")
        assert not _item(page, "clause:size.classes").locator("input.ok").is_checked()
        assert page.locator("#reviewer").input_value() == "Erika"
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
        assert _progress(page) == f"2 / {n} geprüft"
        assert _item(page, "note:2").locator("input.ok").is_checked()


def test_review_work_survives_a_reload_and_leaving_unexported_work_warns(
    browser: Any, pages: dict[str, Path], tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with opened(browser, pages["de"], 1280, 800) as page:
        n = page.locator("section.item").count()
        assert page.locator("#saved").inner_text() == ""  # nothing to keep yet
        page.locator("#reviewer").fill("Erika")
        _item(page, "clause:ranged.los").locator("input.ok").click()
        _item(page, "clause:cover.line").locator("input.ok").click()
        comment = _item(page, "note:2").locator("textarea")
        comment.scroll_into_view_if_needed()
        comment.click()
        page.keyboard.type("Bitte „Seite“ statt „Fraktion“.")
        _suggest(page, LOS_CLEAR_DE, SUGGESTION)
        pre = _text(page, LOS_CLEAR_DE)
        assert "suggested" in (pre.get_attribute("class") or "")
        assert page.locator("#suggestions").inner_text() == "Vorschläge: 1"
        saved = page.locator("#saved")
        assert saved.inner_text() == "✓ In diesem Browser gespeichert, noch nicht exportiert"
        pre.evaluate("p => p.blur()")
        page.screenshot(path=str(ARTIFACTS / "review-de-suggestion-1280x800.png"))

        # Reload: the browser asks before leaving, then everything is back.
        page.reload()
        page.wait_for_selector("section.item")
        assert page.dialogs == ["beforeunload"]
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('wieder da')"
        )
        assert "(Punkte: 3, Vorschläge: 1)" in page.locator("#status").inner_text()
        assert _progress(page) == f"2 / {n} geprüft"
        assert _item(page, "clause:ranged.los").locator("input.ok").is_checked()
        assert _item(page, "clause:cover.line").locator("input.ok").is_checked()
        assert comment.input_value() == "Bitte „Seite“ statt „Fraktion“."
        assert pre.inner_text() == SUGGESTION
        assert "suggested" in (pre.get_attribute("class") or "")
        assert page.locator("#reviewer").input_value() == "Erika"
        assert saved.inner_text() == "✓ In diesem Browser gespeichert, noch nicht exportiert"
        page.screenshot(path=str(ARTIFACTS / "review-de-restored-1280x800.png"))

        # The export holds the suggestion with what the reviewer saw; then leaving is quiet.
        exported = _export(page, tmp_path / "erika.json")
        suggestion = exported["suggestions"]["de"][LOS_CLEAR_DE]
        assert suggestion["text"] == SUGGESTION
        assert suggestion["english"].startswith("Line of sight: a straight line joins")
        assert suggestion["was"].startswith("Sichtlinie: Eine gerade Linie verbindet")
        assert saved.inner_text() == "✓ In diesem Browser gespeichert"
        page.reload()
        page.wait_for_selector("section.item")
        assert page.dialogs == ["beforeunload"]  # no second warning: nothing unexported
        assert _progress(page) == f"2 / {n} geprüft"

        # Undo the suggestion: the text is the catalogue's again, and that is new work.
        pre.scroll_into_view_if_needed()
        _item(page, "clause:ranged.los").get_by_role("button", name="Vorschlag verwerfen").click()
        assert pre.inner_text() == suggestion["was"]
        assert page.locator("#suggestions").inner_text() == ""

        # Closing with unexported work: the browser asks; staying keeps the page open.
        page.leave = False
        page.close(run_before_unload=True)
        page.wait_for_function("() => true")  # the page still answers
        assert page.dialogs == ["beforeunload", "beforeunload"]
        assert not page.is_closed()
        assert pre.inner_text() == suggestion["was"]
        page.leave = True


def test_review_imports_a_second_reviewers_export_and_shows_both(
    browser: Any, pages: dict[str, Path], tmp_path: Path
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with opened(browser, pages["de"], 1920, 1080) as page:
        page.locator("#reviewer").fill("Hans")
        _item(page, "clause:ranged.los").locator("input.ok").click()
        _item(page, "clause:ranged.range").locator("textarea").fill("„Base-Kante“ passt.")
        _suggest(page, LOS_CLEAR_DE, HANS_SUGGESTION)
        hans = _export(page, tmp_path / "hans.json")
    assert hans["reviewer"] == "Hans"

    with opened(browser, pages["de"], 1920, 1080) as page:
        n = page.locator("section.item").count()
        page.locator("#reviewer").fill("Erika")
        _item(page, "clause:cover.line").locator("input.ok").click()
        _item(page, "clause:ranged.range").locator("textarea").fill("Gut.")
        _suggest(page, LOS_CLEAR_DE, SUGGESTION)
        page.locator("#import").set_input_files(str(tmp_path / "hans.json"))
        page.wait_for_function(
            "() => document.getElementById('status').textContent.includes('Hans')"
        )
        assert page.locator("#status").inner_text() == (
            "Prüfung von Hans importiert (Punkte: 2, Vorschläge: 1; nicht auf dieser Seite, "
            "für den nächsten Export behalten: 0)."
        )
        # Erika's work is hers still; Hans's appears beside it under his name.
        assert _progress(page) == f"1 / {n} geprüft"
        assert not _item(page, "clause:ranged.los").locator("input.ok").is_checked()
        theirs = _item(page, "clause:ranged.los").locator('li.other[data-reviewer="Hans"]')
        assert theirs.inner_text() == "Hans: ✓ geprüft"
        range_item = _item(page, "clause:ranged.range")
        assert range_item.locator("textarea").input_value() == "Gut."
        other = range_item.locator('li.other[data-reviewer="Hans"]')
        assert "„„Base-Kante“ passt.“" in other.inner_text()
        pre = _text(page, LOS_CLEAR_DE)
        assert pre.inner_text() == SUGGESTION
        their_text = page.locator(f'.col[lang="de"]:has(pre[data-msg="{LOS_CLEAR_DE}"]) .theirs')
        assert their_text.inner_text() == f"Hans schlägt vor: {HANS_SUGGESTION}"
        their_text.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "review-de-merged-1920x1080.png"))

        both = _export(page, tmp_path / "both.json")
        assert both["reviewer"] == "Erika"
        assert both["items"]["clause:cover.line"]["checked"] is True
        assert both["others"]["Hans"]["items"]["clause:ranged.los"]["checked"] is True
        assert both["others"]["Hans"]["suggestions"]["de"][LOS_CLEAR_DE]["text"] == (
            HANS_SUGGESTION
        )
        assert both["suggestions"]["de"][LOS_CLEAR_DE]["text"] == SUGGESTION

        # The merge is kept in the browser too.
        page.reload()
        page.wait_for_selector("section.item")
        assert theirs.inner_text() == "Hans: ✓ geprüft"
        assert their_text.inner_text() == f"Hans schlägt vor: {HANS_SUGGESTION}"

    # A maintainer turns the merged export into a .po file: Erika's wording, Hans's beside it.
    from babel.messages.pofile import read_po

    from fwwrules.cli import main

    assert (
        main(
            ["review", "--suggestions", str(tmp_path / "both.json"), "-o", str(tmp_path / "de.po")]
        )
        == 0
    )
    with open(tmp_path / "de.po", "rb") as f:
        catalog = read_po(f)
    message = catalog.get(_english_of(LOS_CLEAR_DE), context=LOS_CLEAR_DE)
    assert message is not None and message.string == SUGGESTION
    assert any("Hans suggests" in c for c in message.user_comments)

    # ... merges it into the shipped file and loads it: the ruling says Erika's wording.
    _rulings_say_it(tmp_path, (tmp_path / "de.po").read_text("utf-8"))


def _rulings_say_it(tmp_path: Path, po_text: str) -> None:
    import shutil

    from babel.messages.pofile import read_po, write_po

    import fwwrules
    from fwwrules import translations

    locale = tmp_path / "locale"
    locale.mkdir()
    shutil.copy(translations.LOCALE_DIR / "en.po", locale / "en.po")
    with open(translations.LOCALE_DIR / "de.po", "rb") as f:
        shipped = read_po(f)
    for message in read_po(io.StringIO(po_text)):  # what msgcat --use-first does
        if message.id and message.context:
            shipped.get(message.id, context=message.context).string = message.string
    with open(locale / "de.po", "wb") as f:
        write_po(f, shipped, width=100)
    board = fwwrules.load(fwwrules.example_path("cover-example-1"))
    shipped = translations.LOCALE_DIR
    translations.LOCALE_DIR = locale
    translations.translations.cache_clear()
    try:
        text = fwwrules.ruling(board, "brute", "knight").explain("de")
    finally:
        translations.LOCALE_DIR = shipped
        translations.translations.cache_clear()
    assert "Sichtlinie frei: Super Mutant Brute sieht Knight Patrol ungehindert." in text


def _english_of(msg: str) -> str:
    from fwwrules.catalogue import text_entry

    return text_entry(msg)["en"]


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("width", "height"), [(1280, 800), (1920, 1080)])
def test_review_every_contents_link_lands_on_its_heading_below_the_header(
    browser: Any, pages: dict[str, Path], lang: str, width: int, height: int
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    with opened(browser, pages[lang], width, height) as page:
        page.screenshot(path=str(ARTIFACTS / f"review-{lang}-{width}x{height}.png"))
        links = page.locator("nav a")
        assert links.count() == 4
        targets = [links.nth(k).get_attribute("href") for k in range(links.count())]
        # and a sample of the links from an answer to the clauses it cites (on the page; the
        # link to the example's conformance row leaves it)
        cites = page.locator('p.cites a[href^="#"]')
        assert cites.count() > 30
        for k in range(len(targets)):
            page.evaluate("() => window.scrollTo(0, 0)")
            links.nth(k).click()
            _assert_in_view(page, targets[k])
            if k == 1:
                page.screenshot(
                    path=str(ARTIFACTS / f"review-{lang}-examples-{width}x{height}.png")
                )
        for k in (0, cites.count() // 2, cites.count() - 1):
            cite = cites.nth(k)
            cite.scroll_into_view_if_needed()
            href = cite.get_attribute("href")
            cite.click()
            _assert_in_view(page, href)


def _assert_in_view(page: Any, href: str) -> None:
    """The element ``href`` names starts below the sticky header, inside the window."""
    page.wait_for_function(f"() => location.hash === {json.dumps(href)}")
    page.wait_for_timeout(100)
    box = page.evaluate(
        """(id) => {
          const el = document.getElementById(id);
          const h = document.querySelector('header').getBoundingClientRect();
          const shown = el.tagName === 'SECTION' ? el.querySelector('h3') : el;
          const r = shown.getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, header: h.bottom, height: window.innerHeight};
        }""",
        href[1:],
    )
    assert box["header"] <= box["top"] and box["bottom"] <= box["height"], (href, box)
