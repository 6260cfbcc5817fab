"""``fwwrules review``: the translation review page holds every clause, every shipped example
and every translation note, and needs nothing outside itself.

(The browser check of export and import is ``tests/browser/test_review_browser.py``.)
"""

from __future__ import annotations

import re
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
        assert html.escape(rule["en"]) in page and html.escape(rule["de"]) in page


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
            assert html.escape(entry["en"]) in body and html.escape(entry["de"]) in body
        for reading in readings:
            answer = reading.answer()
            assert html.escape(answer.explain("en")) in body
            assert html.escape(answer.explain("de")) in body


def test_review_page_is_self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", page)
    assert "http://" not in page and "https://" not in page
    assert page.count('<input class="ok" type="checkbox">') == len(ids(page))
    assert page.count("<textarea") == len(ids(page))


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
