"""fwwrules.translation: each note's texts exist in both languages, and its boards show what
the note claims (a note that "changes no ruling" gives equal answers under both readings)."""

from __future__ import annotations

import pytest

from fwwrules import catalogue, translation


def outcome(r: object) -> tuple[object, ...]:
    """What a player acts on: allowed, skill target, armor, cover sources (or a slide's verdict)."""
    if hasattr(r, "legal"):
        return (r.legal,)
    return (r.allowed, r.skill.target, r.armor.bonus, r.armor.boost, [c.source for c in r.cover])  # type: ignore[attr-defined]


@pytest.mark.parametrize("note", translation.NOTES, ids=lambda n: n.key)
def test_note_has_every_text_in_both_languages(note: translation.Note) -> None:
    for part in ("topic", "german", "original", "engine"):
        entry = catalogue.NOTES[f"{note.key}/{part}"]
        assert all(entry[lang].strip() for lang in catalogue.LANGS), (note.key, part)
    clauses = set(open_clauses())
    assert set(note.clauses) <= clauses


def open_clauses() -> list[str]:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "docs" / "clauses.txt"
    lines = path.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


@pytest.mark.parametrize("note", translation.NOTES, ids=lambda n: n.key)
def test_note_readings_agree_exactly_when_the_note_changes_no_ruling(
    note: translation.Note,
) -> None:
    readings = translation.readings(note.number)
    if note.number == 6:
        assert [r.kind for r in readings] == ["only"]
        r = readings[0].answer()
        assert r.allowed and r.into_melee.numbers[0] == "sentry"  # the friendly target is 1
        return
    assert [r.kind for r in readings] == ["original", "german"]
    original, german = (outcome(r.answer()) for r in readings)
    if note.changes_ruling:
        assert original != german
    else:
        assert original == german


def test_options_change_the_notes_they_name() -> None:
    """Note 2's German reading adds Settler B's cover; note 3's makes the slide legal."""
    orig2, de2 = (r.answer() for r in translation.readings(2))
    assert orig2.cover == () and [c.source for c in de2.cover] == ["settler-b"]
    orig3, de3 = (r.answer() for r in translation.readings(3))
    assert not orig3.legal and de3.legal
    assert de3.path_length < translation.SLIDE_MOVE_MM < orig3.path_length


def test_every_option_of_the_file_format_is_described() -> None:
    from fwwrules.scenario import OptionsSpec

    assert set(translation.OPTION_CLAUSES) == set(OptionsSpec.model_fields)
    for name in translation.OPTION_CLAUSES:
        entry = catalogue.NOTES[f"option/{name}"]
        assert all(entry[lang].strip() for lang in catalogue.LANGS)
