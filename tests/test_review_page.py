"""``fwwrules review``: the translation review page holds every clause, every shipped example
and every translation note, and needs nothing outside itself.

(The browser check of export and import is ``tests/browser/test_review_browser.py``.)
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import fwwrules
from fwwrules import translation
from fwwrules.catalogue import CLAUSE_RULES, NOTES
from fwwrules.cli import main
from fwwrules.draw.review import EXAMPLE_QUESTIONS


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("review") / "review.html"
    assert main(["review", "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def ids(page: str) -> list[str]:
    return re.findall(r'<section class="item" data-id="([^"]+)"', page)


def test_review_lists_every_clause_with_both_texts(page: str) -> None:
    import html

    for clause, rule in CLAUSE_RULES.items():
        assert f"clause:{clause}" in ids(page)
        shown = html.unescape(page)
        assert rule["en"] in shown and rule["de"] in shown


def test_review_asks_a_question_of_every_shipped_example(page: str) -> None:
    asked = {name for name, *_ in EXAMPLE_QUESTIONS}
    assert asked == set(fwwrules.examples())
    example_ids = [i for i in ids(page) if i.startswith("example:")]
    assert len(example_ids) == len(EXAMPLE_QUESTIONS) == len(set(example_ids))


def test_review_shows_each_note_under_each_reading_with_pictures(page: str) -> None:
    import html

    for note in translation.NOTES:
        start = page.index(f'data-id="note:{note.number}"')
        body = page[start : page.index("</section>", start)]
        readings = translation.readings(note.number)
        assert body.count("<img ") == len(readings)
        for part in ("german", "original"):
            entry = NOTES[f"{note.key}/{part}"]
            assert entry["en"] in html.unescape(body) and entry["de"] in html.unescape(body)
        for reading in readings:
            answer = reading.answer()
            assert answer.explain("en") in html.unescape(body)
            assert answer.explain("de") in html.unescape(body)


def test_review_page_is_self_contained(page: str) -> None:
    """Nothing is loaded from elsewhere; the only addresses are the links from each example to
    its row of the published conformance table (a link to follow, nothing fetched)."""
    from fwwrules.conformance import PAGE_URL

    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    links = re.findall(rf'<a href="{re.escape(PAGE_URL)}#[a-z0-9-]+">', page)
    assert len(links) == len(EXAMPLE_QUESTIONS)
    rest = re.sub(rf'<a href="{re.escape(PAGE_URL)}#[a-z0-9-]+">', "<a>", page)
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", rest)
    assert "http://" not in rest and "https://" not in rest
    assert page.count('<input class="ok" type="checkbox">') == len(ids(page))
    assert page.count("<textarea") == len(ids(page))


class _Texts(HTMLParser):
    """The editable catalogue texts of a page: ``(data-msg, column language) -> text``."""

    def __init__(self) -> None:
        super().__init__()
        self.lang = ""
        self.msg: str | None = None
        self.found: dict[tuple[str, str], str] = {}
        self.twice: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "div" and a.get("class") == "col":
            self.lang = a.get("lang") or ""
        if tag == "pre" and a.get("data-msg"):
            self.msg = a["data-msg"]
            key = (self.msg, self.lang)
            if key in self.found:
                self.twice.append(key)
            self.found[key] = ""

    def handle_data(self, data: str) -> None:
        if self.msg is not None:
            self.found[(self.msg, self.lang)] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "pre":
            self.msg = None


def test_review_every_catalogue_text_is_editable_once_in_each_language(page: str) -> None:
    """Every text of the catalogue (rules, messages, notes, words, labels) is on the page once
    per language, as the catalogue has it, under the id its suggestion is exported with."""
    from fwwrules.catalogue import LANGS, TEXT_KINDS, text_entry

    parser = _Texts()
    parser.feed(page)
    assert parser.twice == []
    expected = {
        (prefix + key, lang) for prefix, table in TEXT_KINDS for key in table for lang in LANGS
    }
    assert expected - set(parser.found) == set()
    for (msg, lang), text in parser.found.items():
        assert text == text_entry(msg)[lang], (msg, lang)


def test_review_answers_link_to_the_clauses_they_cite(page: str) -> None:
    anchors = set(re.findall(r'<section class="item" data-id="[^"]+" id="([^"]+)"', page))
    links = set(re.findall(r'<a href="#(clause-[^"]+)">', page))
    assert links and links <= anchors


def test_review_build_names_the_page_s_contents() -> None:
    """The build (the key of the work kept in the browser) is the same for the same page and
    differs for another language or other contents."""
    from fwwrules.draw import review

    def build(lang: str, clauses: list[str]) -> str:
        found = re.search(r'data-build="([0-9a-f]+)"', _page_without_pictures(lang, clauses))
        assert found
        return found.group(1)

    assert build("de", ["ranged.los"]) == build("de", ["ranged.los"])
    assert build("de", ["ranged.los"]) != build("en", ["ranged.los"])
    assert build("de", ["ranged.los"]) != build("de", ["ranged.los", "cover.line"])
    assert review.REVIEW_FORMAT == "fwwrules/review@1"


def _page_without_pictures(lang: str, clauses: list[str]) -> str:
    import unittest.mock

    from fwwrules.draw import review

    png = b"\x89PNG\r\n\x1a\n"
    with unittest.mock.patch.object(review, "_draw_picture", lambda *a: png):
        return review.build_review(lang, clauses=clauses)


def test_review_cache_folder_is_the_platform_s_unless_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import platformdirs

    from fwwrules.draw.review import default_cache_dir

    monkeypatch.setenv("FWWRULES_CACHE_DIR", str(tmp_path / "mine"))
    assert default_cache_dir() == tmp_path / "mine"
    monkeypatch.delenv("FWWRULES_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == Path(platformdirs.user_cache_dir("fwwrules", appauthor=False))
    if sys.platform.startswith("linux"):
        assert default_cache_dir() == tmp_path / "xdg" / "fwwrules"


def test_review_german_labels_and_bad_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fwwrules.draw.review import build_review

    with pytest.raises(ValueError):
        build_review("fr", clauses=[])
    with pytest.raises(SystemExit) as info:
        main(["review", "--lang", "fr", "-o", str(tmp_path / "x.html")])
    assert info.value.code == 2
    capsys.readouterr()
    assert main(["review", "-o", str(tmp_path / "missing" / "x.html")]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_review_second_run_takes_every_picture_from_the_cache_and_gives_the_same_page(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page fixture ran the CLI with the session's cache (``FWWRULES_CACHE_DIR``): running
    it again draws nothing and writes the same page byte for byte."""
    from fwwrules.draw import review

    def no_drawing(*args: object) -> bytes:
        raise AssertionError("a picture was drawn although the cache holds it")

    monkeypatch.setattr(review, "_draw_picture", no_drawing)
    out = tmp_path / "again.html"
    assert main(["review", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == page


def _picture_count() -> int:
    readings = sum(len(translation.readings(n.number)) for n in translation.NOTES)
    return len(EXAMPLE_QUESTIONS) + readings


def _fake_drawing(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace drawing by a tiny PNG-looking result; returns the list of what was drawn."""
    from fwwrules.draw import review

    drawn: list[str] = []

    def fake(scenario: object, answer: object, kind: str, lang: str) -> bytes:
        drawn.append(kind)
        return b"\x89PNG\r\n\x1a\n" + f"{len(drawn)}".encode()

    monkeypatch.setattr(review, "_draw_picture", fake)
    return drawn


def test_review_cache_is_keyed_by_the_code_and_keeps_one_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fwwrules.draw import review

    drawn = _fake_drawing(monkeypatch)
    pictures = _picture_count()
    first = review.build_review("de", clauses=[], cache=review.PictureCache(tmp_path))
    assert len(drawn) == pictures
    cache = review.PictureCache(tmp_path)
    assert review.build_review("de", clauses=[], cache=cache) == first
    assert len(drawn) == pictures and (cache.hits, cache.misses) == (pictures, 0)
    # another language is another picture
    review.build_review("en", clauses=[], cache=review.PictureCache(tmp_path))
    assert len(drawn) == 2 * pictures
    # any change to the package (its digest) draws everything again and drops the old files
    monkeypatch.setattr(review, "code_digest", lambda: "f" * 64)
    second = review.build_review("de", clauses=[], cache=review.PictureCache(tmp_path))
    assert len(drawn) == 3 * pictures and second != first
    assert [p.name for p in (tmp_path / "review-pictures").iterdir()] == ["f" * 24]


def test_review_cache_that_cannot_be_written_or_holds_a_broken_file_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fwwrules.draw import review

    drawn = _fake_drawing(monkeypatch)
    pictures = _picture_count()
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    a = review.build_review("en", clauses=[], cache=review.PictureCache(blocked))
    b = review.build_review("en", clauses=[], cache=review.PictureCache(blocked))
    assert len(drawn) == 2 * pictures  # both drawn in full, no error
    assert a != b  # (the fake numbers its pictures)
    review.build_review("en", clauses=[], cache=review.PictureCache(tmp_path / "c"))
    stored = list((tmp_path / "c").rglob("*.png"))
    assert len(stored) == pictures and not list((tmp_path / "c").rglob("*.tmp"))
    for png in stored:
        png.write_bytes(b"half a pict")  # a damaged file is drawn again, never shown
    review.build_review("en", clauses=[], cache=review.PictureCache(tmp_path / "c"))
    assert len(drawn) == 4 * pictures


def test_review_no_cache_option_neither_reads_nor_writes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = _fake_drawing(monkeypatch)
    monkeypatch.setenv("FWWRULES_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["review", "--no-cache", "-o", str(tmp_path / "a.html")]) == 0
    assert not (tmp_path / "cache").exists() and drawn
    n = len(drawn)
    assert main(["review", "-o", str(tmp_path / "b.html")]) == 0
    assert len(drawn) == 2 * n and (tmp_path / "cache" / "review-pictures").is_dir()
    assert main(["review", "-o", str(tmp_path / "c.html")]) == 0
    assert len(drawn) == 2 * n  # the second run with the cache draws nothing


def test_review_picture_holds_a_long_german_legend_entry() -> None:
    """ "Deckungslinie durchquert: Deckung" is wrapped in the legend's column: the review's
    picture keeps its size in both languages and the legend lies inside it."""
    from fwwrules.draw import review
    from fwwrules.draw.board import DEFAULT_STYLE, draw_board
    from fwwrules.draw.figure import figure_of, new_axes

    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    r = fwwrules.ruling(s, "brute", "knight")
    ax = new_axes(DEFAULT_STYLE.figsize, review.PICTURE_DPI, DEFAULT_STYLE.margins)
    draw_board(s, ax, ruling=r, lang="de")
    fig = figure_of(ax)
    legend = ax.get_legend().get_window_extent(fig.canvas.get_renderer())
    assert fig.bbox.x0 <= legend.x0 and legend.x1 <= fig.bbox.x1
    assert any("\n" in t.get_text() for t in ax.get_legend().get_texts())  # wrapped
    for lang in ("de", "en"):
        png = review._draw_picture(s, r, "ruling", lang)
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert (width, height) == (round(fig.bbox.width), round(fig.bbox.height))
