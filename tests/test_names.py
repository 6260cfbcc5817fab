"""Names per language (issue 32): a model's, terrain piece's, weapon's or creature's ``name``
may be one text or one per language, as a title can; every text, title, legend, picture label
and panel control shows the name in its language, and a plain name still works everywhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib
import pytest

import fwwrules
from fwwrules.errors import ScenarioError
from fwwrules.grid import GridScenario, grid_cover
from fwwrules.saving import dump_text

matplotlib.use("Agg")

BOARD = """\
format: fwwrules/scenario@1
title: {en: The yard, de: Der Hof}
models:
  - {id: raider, name: {en: Raider in the yard, de: Raider im Hof}, faction: raiders,
     base: 32, at: [0, 0], skills: {rifle: 5, melee: 4}, weapons: [rifle]}
  - {id: settler, name: {en: Settler behind the wall, de: Siedler hinter der Mauer},
     faction: minutemen, base: 32, at: [200, 0], skills: {melee: 3}}
  - {id: knight, name: Knight Patrol, faction: minutemen, base: 32, at: [0, 200],
     skills: {melee: 5}}
terrain:
  - {id: crate, name: {en: Crate near the Knight, de: Kiste nahe beim Knight}, kind: cover,
     rect: {at: [100, 0], size: [20, 60]}}
weapons:
  - {id: rifle, name: {en: Hunting Rifle, de: Jagdgewehr}, type: rifle, short: red, long: green}
"""

GRID = """\
format: fwwrules/grid@1
map: |
  .....
  ..#..
  .....
creatures:
  - {id: archer, name: {en: Archer, de: Bogenschütze}, at: [0, 1]}
  - {id: rat, name: {en: Rat, de: Ratte}, at: [4, 1]}
  - {id: hermit, name: Hermit, at: [4, 2]}
"""


def board() -> Any:
    return fwwrules.loads(BOARD, "names.yaml")


def test_names_load_save_and_load_back_equal() -> None:
    s = board()
    assert s.model("raider").name == {"en": "Raider in the yard", "de": "Raider im Hof"}
    assert s.model("knight").name == "Knight Patrol"  # one text for every language still works
    text = dump_text(s)
    assert "name: {en: Raider in the yard, de: Raider im Hof}" in text
    assert fwwrules.loads(text, "again.yaml") == s
    g = fwwrules.loads(GRID, "grid.yaml")
    assert isinstance(g, GridScenario)
    assert g.creature("rat").label_in("de") == "Ratte" and g.creature("hermit").label == "Hermit"


def test_names_a_language_the_catalogue_lacks_is_refused_at_its_place() -> None:
    with pytest.raises(ScenarioError) as err:
        fwwrules.loads(BOARD.replace("de: Jagdgewehr", "fr: Fusil"), "names.yaml")
    assert "weapons[0].name.fr" in str(err.value) and "expected one of en, de" in str(err.value)
    with pytest.raises(ScenarioError) as empty:
        fwwrules.loads(GRID.replace("{en: Archer, de: Bogenschütze}", "{}"), "g.yaml")
    assert "creatures[0].name" in str(empty.value)


def test_names_the_json_schema_offers_one_text_or_one_per_language() -> None:
    from fwwrules.scenario_spec import json_schema

    schema = json.dumps(json_schema())
    for spec in ("ModelSpec", "TerrainSpec", "WeaponSpec"):
        name = json_schema()["$defs"][spec]["properties"]["name"]
        options = name.get("anyOf", [name])
        assert any("oneOf" in o for o in options), spec
    assert '"propertyNames": {"enum": ["en", "de"]}' in schema


def test_names_rulings_name_every_piece_in_the_readers_language() -> None:
    s = board()
    r = fwwrules.ruling(s, "raider", "settler")
    de, en = r.explain("de"), r.explain("en")
    assert de.startswith("Raider im Hof darf Siedler hinter der Mauer mit Jagdgewehr angreifen")
    assert "durch Kiste nahe beim Knight" in de and "in the yard" not in de
    assert en.startswith("Raider in the yard may attack Settler behind the wall with Hunting Rifle")
    assert all(
        "Kiste" in x["text"] for x in r.to_dict("de")["reasons"] if x["clause"] == "cover.line"
    )
    w = fwwrules.withdraw(s, "knight")
    assert "Knight Patrol" in w.explain("de") and "Knight Patrol" in w.explain("en")
    improvised = fwwrules.ruling(s, "knight", "raider", weapon="improvised")
    assert "Improvisierte Waffe" in improvised.explain("de")
    assert "Improvised Weapon" in improvised.explain("en")
    g = fwwrules.loads(GRID, "grid.yaml")
    cover = grid_cover(g, "archer", "rat")
    assert cover.headline("de").startswith("Ratte hat") and "Bogenschütze" in cover.headline("de")
    assert cover.headline("en").startswith("Rat has")


def test_names_pictures_label_pieces_in_the_pictures_language() -> None:
    from fwwrules.draw import draw_board, draw_grid
    from fwwrules.draw.figure import new_axes

    s = board()
    ruling = fwwrules.ruling(s, "raider", "settler")
    for lang, raider, crate in (
        ("de", "Raider im Hof", "Kiste"),
        ("en", "Raider in the yard", "Crate"),
    ):
        ax = new_axes((8, 6), 60, (0.1, 0.7, 0.1, 0.9))
        art = draw_board(s, ax, ruling=ruling, lang=lang)
        texts = [t.get_text() for t in ax.texts]
        assert any(t.startswith(raider) for t in texts), texts
        assert any(t.startswith(crate) for t in texts), texts
        assert art.title.get_text().startswith("Der Hof" if lang == "de" else "The yard")
    g = fwwrules.loads(GRID, "grid.yaml")
    ax = new_axes((8, 6), 60, (0.1, 0.7, 0.1, 0.9))
    grid_art = draw_grid(g, ax, ruling=grid_cover(g, "archer", "rat"), lang="de")
    assert grid_art.labels["archer"].get_text() == "Bogenschütze"
    assert grid_art.labels["hermit"].get_text() == "Hermit"


def test_names_the_attack_panel_names_pieces_in_its_language() -> None:
    from fwwrules_widgets import AttackPanel

    p = AttackPanel(board(), interactive=False)
    p.attacker.value, p.target.value = "raider", "settler"
    p.lang.value = "de"
    assert dict(p.attacker.options)["Raider im Hof"] == "raider"
    assert dict(p.weapon.options)["Jagdgewehr"] == "rifle"
    assert (p.attacker.value, p.target.value, p.weapon.value) == ("raider", "settler", "rifle")
    assert "Raider im Hof darf Siedler hinter der Mauer" in p.html.value
    labels = [t.get_text() for t in p.artists.ax.texts]
    assert any(t.startswith("Siedler hinter der Mauer") for t in labels)
    p.lang.value = "en"
    assert dict(p.target.options)["Settler behind the wall"] == "settler"


def test_names_the_editor_edits_the_name_of_the_language_it_shows(tmp_path: Path) -> None:
    from fwwrules_widgets import BoardEditor

    ed = BoardEditor(units="mm", size=(600, 400), interactive=False)
    ed.add_model((100, 100), name={"en": "Crate guard", "de": "Kistenwache"}, faction="a")
    ident = ed.selected
    assert ident == "crate-guard"
    ed.lang.value = "de"  # the form shows the name in the language shown
    assert ed.form.name.value == "Kistenwache"
    ed.form.name.value = "Wache an der Kiste"
    ed.apply_button.click()
    assert ed.scenario.model(ident).name == {"en": "Crate guard", "de": "Wache an der Kiste"}
    saved = ed.save(tmp_path / "board.yaml")
    again = fwwrules.load(saved)
    assert again.model(ident).label_in("de") == "Wache an der Kiste"
    assert again.model(ident).label_in("en") == "Crate guard"
