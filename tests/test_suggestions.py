"""Suggested wordings from review exports become a gettext file a maintainer can merge:
``fwwrules review --suggestions FILE.json -o de.po`` (the browser half, editing on the page
and exporting, is tests/browser/test_review_browser.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from fwwrules.catalogue import text_entry
from fwwrules.cli import main
from fwwrules.suggestions import suggestions_po

LOS = "ranged.los/clear"


def export(reviewer: str, suggestions: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "format": "fwwrules/review@1",
        "lang": "de",
        "reviewer": reviewer,
        "items": {},
        "suggestions": suggestions,
        **more,
    }


def seen(msg: str, text: str, lang: str = "de") -> dict[str, str]:
    """A suggestion as the page exports it: with the texts the reviewer saw."""
    entry = text_entry(msg)
    return {"text": text, "was": entry[lang], "english": entry["en"]}


def parse(po: str) -> Any:
    return read_po(io.BytesIO(po.encode("utf-8")), abort_invalid=True)


def test_a_suggestion_is_a_message_with_its_text_id_as_context() -> None:
    text = "Sichtlinie frei: {attacker} sieht {target}."
    result = suggestions_po([export("Erika", {"de": {LOS: seen(LOS, text)}})], "de", "1.2.3")
    catalog = parse(result.po)
    assert result.count == 1 and result.unknown == ()
    assert str(catalog.locale) == "de" and catalog.plural_forms == "nplurals=2; plural=(n != 1);"
    message = catalog.get(text_entry(LOS)["en"], context=LOS)
    assert message.string == text
    assert message.user_comments == ["suggested by Erika"]
    assert "fuzzy" not in message.flags and "python-brace-format" in message.flags
    assert "Project-Id-Version: fwwrules 1.2.3" in result.po


def test_every_kind_of_catalogue_text_can_be_suggested() -> None:
    ids = [
        "rule:ranged.los",
        "note:reading/german",
        "word:huge",
        "ui:review/title",
        "why/ranged.los",
    ]
    suggestions = {msg: seen(msg, text_entry(msg)["de"] + " (neu)") for msg in ids}
    result = suggestions_po([export("Erika", {"de": suggestions})], "de")
    catalog = parse(result.po)
    for msg in ids:
        assert catalog.get(text_entry(msg)["en"], context=msg).string.endswith(" (neu)")


def test_a_changed_source_text_or_translation_makes_the_suggestion_fuzzy() -> None:
    old = {"text": "Neu: {attacker} sieht {target}.", "was": "alt", "english": "Old English"}
    po = suggestions_po([export("Erika", {"de": {LOS: old}})], "de").po
    message = parse(po).get(text_entry(LOS)["en"], context=LOS)
    assert "fuzzy" in message.flags
    assert '#| msgid "Old English"' in po  # the English text the reviewer saw
    comments = " ".join(message.user_comments)
    assert "English text changed" in comments and "translation changed" in comments


def test_placeholders_that_differ_make_the_suggestion_fuzzy_and_say_which() -> None:
    text = "Sichtlinie frei: {attacker} sieht {ziel}."
    result = suggestions_po([export("Erika", {"de": {LOS: seen(LOS, text)}})], "de")
    message = parse(result.po).get(text_entry(LOS)["en"], context=LOS)
    assert "fuzzy" in message.flags
    assert any(
        "missing: ['target']" in c and "unknown: ['ziel']" in c for c in message.user_comments
    )


def test_two_reviewers_merged_the_first_wins_the_others_are_comments() -> None:
    mine = "Sichtlinie frei: {attacker} sieht {target}."
    theirs = "Sichtlinie: {attacker} sieht {target}."
    merged = export(
        "Erika",
        {"de": {LOS: seen(LOS, mine)}},
        others={"Hans": {"items": {}, "suggestions": {"de": {LOS: seen(LOS, theirs)}}}},
    )
    message = parse(suggestions_po([merged], "de").po).get(text_entry(LOS)["en"], context=LOS)
    assert message.string == mine and "fuzzy" in message.flags
    assert f"Hans suggests: {theirs}" in message.user_comments
    # the same two files given separately say the same
    hans = export("Hans", {"de": {LOS: seen(LOS, theirs)}})
    again = suggestions_po([export("Erika", {"de": {LOS: seen(LOS, mine)}}), hans], "de")
    assert parse(again.po).get(text_entry(LOS)["en"], context=LOS).string == mine


def test_unchanged_unknown_and_other_language_suggestions_are_left_out() -> None:
    same = seen(LOS, text_entry(LOS)["de"])
    gone = {"text": "x", "was": "y", "english": "z"}
    english = seen(LOS, "Line of sight is clear.", "en")
    data = export("Erika", {"de": {LOS: same, "no.such/message": gone}, "en": {LOS: english}})
    result = suggestions_po([data], "de")
    assert result.count == 0 and result.unknown == ("no.such/message",)
    assert suggestions_po([data], "en").count == 1


def test_cli_writes_the_po_file_named_after_its_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "review.json"
    text = "Sichtlinie frei: {attacker} sieht {target}."
    path.write_text(json.dumps(export("Erika", {"de": {LOS: seen(LOS, text)}})), "utf-8")
    out = tmp_path / "de.po"
    assert main(["review", "--suggestions", str(path), "-o", str(out)]) == 0
    assert "1 suggested wording(s) for de" in capsys.readouterr().out
    assert parse(out.read_text("utf-8")).get(text_entry(LOS)["en"], context=LOS).string == text
    # no -o: <lang>.po from the export's language, in the working folder
    other = tmp_path / "elsewhere"
    other.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(other)
        assert main(["review", "--suggestions", str(path)]) == 0
    assert (other / "de.po").is_file()


def test_cli_refuses_a_file_that_is_not_a_review_export(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "notes.json"
    bad.write_text('{"format": "something/else"}', "utf-8")
    assert main(["review", "--suggestions", str(bad), "-o", str(tmp_path / "de.po")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "not a review export" in err and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{\n  not json", "utf-8")
    assert main(["review", "--suggestions", str(broken), "-o", str(tmp_path / "de.po")]) == 2
    assert f"{broken}:2: not JSON" in capsys.readouterr().err
    assert main(["review", "--suggestions", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert not (tmp_path / "de.po").exists()


def test_cli_asks_for_the_language_when_the_exports_disagree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = []
    for lang in ("de", "en"):
        files.append(tmp_path / f"{lang}-review.json")
        files[-1].write_text(json.dumps({**export("X", {}), "lang": lang}), "utf-8")
    args = ["review", "--suggestions", str(files[0]), "--suggestions", str(files[1])]
    assert main([*args, "-o", str(tmp_path / "out.po")]) == 2
    assert "--lang" in capsys.readouterr().err
    assert main([*args, "--lang", "en", "-o", str(tmp_path / "out.po")]) == 0


def merged_into_shipped(po_text: str, lang: str) -> str:
    """What a maintainer does with the file (``msgcat --use-first`` or Poedit): the suggested
    messages replace the shipped ones of the same context."""
    from babel.messages.pofile import write_po

    from fwwrules.translations import LOCALE_DIR

    with open(LOCALE_DIR / f"{lang}.po", "rb") as f:
        shipped = read_po(f)
    for message in parse(po_text):
        if message.id and message.context:
            target = shipped.get(message.id, context=message.context)
            assert target is not None, message.context
            target.string = message.string
    out = io.BytesIO()
    write_po(out, shipped, width=100)
    return out.getvalue().decode("utf-8")


def test_a_suggested_wording_round_trips_into_the_rulings_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Export (as the page writes it), convert to .po, merge, load: the ruling says it."""
    import shutil

    import fwwrules
    from fwwrules import translations

    text = "Freie Sicht: {attacker} sieht {target} ungehindert."
    path = tmp_path / "review.json"
    path.write_text(json.dumps(export("Erika", {"de": {LOS: seen(LOS, text)}})), "utf-8")
    assert main(["review", "--suggestions", str(path), "-o", str(tmp_path / "de.po")]) == 0
    locale = tmp_path / "locale"
    locale.mkdir()
    shutil.copy(translations.LOCALE_DIR / "en.po", locale / "en.po")
    merged = merged_into_shipped((tmp_path / "de.po").read_text("utf-8"), "de")
    (locale / "de.po").write_text(merged, "utf-8")

    board = fwwrules.load(fwwrules.example_path("cover-example-1"))
    before = fwwrules.ruling(board, "brute", "knight").explain("de")
    assert "Freie Sicht" not in before
    monkeypatch.setattr(translations, "LOCALE_DIR", locale)
    translations.translations.cache_clear()
    try:
        after = fwwrules.ruling(board, "brute", "knight").explain("de")
        assert "Freie Sicht: Super Mutant Brute sieht Knight Patrol ungehindert." in after
    finally:
        monkeypatch.undo()
        translations.translations.cache_clear()
    assert fwwrules.ruling(board, "brute", "knight").explain("de") == before
