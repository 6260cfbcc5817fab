"""How close a call is, in the file's unit first: on a board whose file is in inches the
panels' "how close" line (and the text's knife-edge sentence) wrote millimetres first, "50.8
mm (2″)"; now inches, then millimetres in brackets, "2″ (50.8 mm)", English and German. A
distance below 1 mm stays in millimetres alone, where inches would read 0.01″ or 0″. A
board in millimetres is written as before."""

from __future__ import annotations

from pathlib import Path

import pytest

import fwwrules
from fwwrules.catalogue import INCHES_FIRST_FROM_MM, length
from fwwrules.rulings import names_in

TABLE = Path(__file__).parent / "table-48.yaml"
EXAMPLE = Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml"

OVER_THE_WALL_IN_INCHES = """format: fwwrules/scenario@1
title: Over the wall by a hair, in inches
rules: core
units: in
models:
  - {id: gunner, name: Minuteman, faction: minutemen, base: 1.26, at: [3.937, 3.937],
     skills: {rifle: 6}, weapons: [musket]}
  - {id: raider, name: Raider, faction: raiders, base: 1.26, at: [15.748, 3.937]}
terrain:
  - {id: wall, name: Wall, kind: blocking,
     polygon: [[7.874, 0.787], [11.811, 0.787], [11.811, 4.5512], [7.874, 4.5512]]}
weapons:
  - {id: musket, name: Laser Musket, type: rifle, short: green, long: blue,
     dice: {short: [black], long: [black]}}
"""


def said(s: fwwrules.Scenario, attacker: str, target: str, lang: str) -> str:
    r = fwwrules.ruling(s, attacker, target)
    assert r.margins is not None
    return r.margins.sentence(lang, names_in(r.labels, lang))


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", "Nothing changes while either model moves up to 2″ (50.8 mm)."),
        ("de", "Nichts ändert sich, solange sich eines der Modelle bis zu 2″ (50,8 mm) bewegt."),
    ],
)
def test_an_inch_board_says_inches_first(lang: str, expected: str) -> None:
    assert said(fwwrules.load(TABLE), "paladin", "boss", lang) == expected


@pytest.mark.parametrize(
    ("lang", "distance"), [("en", "moves 1.64″ (41.7 mm) north-west"), ("de", "1,64″ (41,7 mm)")]
)
def test_a_margin_on_an_inch_board_is_in_inches_first(lang: str, distance: str) -> None:
    assert distance in said(fwwrules.load(TABLE), "waster", "paladin", lang)


@pytest.mark.parametrize(("lang", "distance"), [("en", "0.6 mm south"), ("de", "0,6 mm nach")])
def test_a_sub_millimetre_knife_edge_on_an_inch_board_stays_in_millimetres(
    lang: str, distance: str
) -> None:
    s = fwwrules.loads(OVER_THE_WALL_IN_INCHES)
    assert isinstance(s, fwwrules.Scenario)
    sentence = said(s, "gunner", "raider", lang)
    assert distance in sentence and "″" not in sentence, sentence
    r = fwwrules.ruling(s, "gunner", "raider")
    assert r.close_call(lang) == sentence  # the text's knife-edge line says the same


@pytest.mark.parametrize(("lang", "distance"), [("en", "0.3 mm (0.01″)"), ("de", "0,3 mm (0,01″)")])
def test_a_millimetre_board_is_written_as_before(lang: str, distance: str) -> None:
    assert distance in said(fwwrules.load(EXAMPLE), "knight", "brute", lang)


def test_the_threshold_is_one_millimetre() -> None:
    assert INCHES_FIRST_FROM_MM == 1.0
    assert length(1.0, "mm-in", "en") == "0.04″ (1 mm)"
    assert length(0.99, "mm-in", "en") == "0.99 mm"
    assert length(0.0, "mm-in", "de") == "0 mm"


OVER_THE_WALL_IN_MM = """format: fwwrules/scenario@1
title: Over the wall by less than a hair, in millimetres
rules: core
units: mm
models:
  - {id: gunner, name: Minuteman, faction: minutemen, base: 32, at: [100, 100],
     skills: {rifle: 6}, weapons: [musket]}
  - {id: raider, name: Raider, faction: raiders, base: 32, at: [400, 100]}
terrain:
  - {id: wall, name: Wall, kind: blocking,
     polygon: [[200, 20], [300, 20], [300, 115.95], [200, 115.95]]}
weapons:
  - {id: musket, name: Laser Musket, type: rifle, short: green, long: blue,
     dice: {short: [black], long: [black]}}
"""


@pytest.mark.parametrize(("lang", "distance"), [("en", "0.08 mm south"), ("de", "0,08 mm nach")])
def test_a_millimetre_board_never_says_zero_inches(lang: str, distance: str) -> None:
    """A margin shorter than 0.005″ (0.127 mm) on a board in millimetres read "0.08 mm (0″)":
    the inches are left out where they would round to 0; an exact 0 keeps "(0″)"."""
    s = fwwrules.loads(OVER_THE_WALL_IN_MM)
    assert isinstance(s, fwwrules.Scenario)
    sentence = said(s, "gunner", "raider", lang)
    assert distance in sentence and "″" not in sentence, sentence
    assert length(0.2, "mm", "en") == "0.2 mm (0.01″)"
    assert length(0.1, "mm", "en") == "0.1 mm"
    assert length(0.0, "mm", "de") == "0 mm (0″)"
