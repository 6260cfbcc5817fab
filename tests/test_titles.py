"""Titles per language: ``title: {en: ..., de: ...}`` in a scenario or grid file (a plain
string is still one title for every language), through loading, saving and pictures."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest

import fwwrules
from fwwrules.catalogue import LANGS
from fwwrules.errors import ScenarioError
from fwwrules.pieces import Lang, title_in

HEAD = "format: fwwrules/scenario@1\n"
BODY = "models:\n  - {id: a, faction: x, base: 32, at: [0, 0]}\n"


def scenario(title_line: str) -> fwwrules.Scenario:
    s = fwwrules.loads(HEAD + title_line + "\n" + BODY, "t.yaml")
    assert isinstance(s, fwwrules.Scenario)
    return s


def test_title_languages_are_the_catalogue_languages() -> None:
    assert set(typing.get_args(Lang)) == set(LANGS)


def test_title_per_language_loads_and_each_language_sees_its_own() -> None:
    s = scenario("title: {en: Crates, de: Kisten}")
    assert s.title == {"en": "Crates", "de": "Kisten"}
    assert (s.title_in("en"), s.title_in("de")) == ("Crates", "Kisten")


def test_plain_title_is_every_language_title() -> None:
    s = scenario("title: Crates")
    assert s.title == "Crates"
    assert s.title_in("en") == s.title_in("de") == "Crates"


def test_missing_language_falls_back_to_english_then_the_first() -> None:
    assert scenario("title: {en: Crates}").title_in("de") == "Crates"
    assert scenario("title: {de: Kisten}").title_in("en") == "Kisten"
    assert title_in(None, "de") is None


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("title: {en: Crates, fr: Caisses}", "t.yaml:2: title.fr: unknown key 'fr'"),
        ("title: {}", "t.yaml:2: title: expected text, or a text per language"),
        ("title: {en: 3}", "t.yaml:2: title.en: expected text (got 3)"),
        ("title: [Crates]", "t.yaml:2: title: expected text (got a list)"),
        ('title: {de: "a\\tb"}', "t.yaml:2: title.de: expected text without control"),
    ],
)
def test_bad_titles_are_refused_at_their_place(line: str, message: str) -> None:
    with pytest.raises(ScenarioError) as err:
        scenario(line)
    assert err.value.render().startswith(message), err.value.render()


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("title", ["Crates", {"en": "Crates", "de": "Kisten"}, {"de": "Kisten"}])
def test_titles_round_trip_through_save(tmp_path: Path, suffix: str, title: object) -> None:
    s = scenario("title: " + json.dumps(title))
    out = tmp_path / f"board{suffix}"
    fwwrules.save(s, out)
    back = fwwrules.load(out)
    assert back == s
    assert back.title == title


def test_grid_files_take_titles_per_language_too() -> None:
    text = 'format: fwwrules/grid@1\ntitle: {en: Corridor, de: Gang}\nmap: "..."\n'
    grid = fwwrules.loads(text, "g.yaml")
    assert grid.summary().startswith("'Corridor': grid")
    assert grid.title == {"en": "Corridor", "de": "Gang"}


def test_schema_allows_a_text_or_a_text_per_language() -> None:
    from fwwrules.scenario_spec import json_schema

    title = json_schema()["properties"]["title"]
    forms = json.dumps(title)
    assert '"propertyNames": {"enum": ["en", "de"]}' in forms
    assert '"minProperties": 1' in forms


def test_picture_title_is_the_language_title() -> None:
    pytest.importorskip("matplotlib")
    from fwwrules.draw import draw_board
    from fwwrules.draw.figure import new_axes

    s = scenario("title: {en: Crates, de: Kisten}")
    for lang, word in (("en", "Crates"), ("de", "Kisten")):
        art = draw_board(s, new_axes((7.8, 5.4), 100, (0.1, 0.7, 0.1, 0.9)), lang=lang)
        assert art.title.get_text().splitlines()[0] == word
