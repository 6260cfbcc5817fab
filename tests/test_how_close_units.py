"""How close a call is, in the file's unit first: on a board whose file is in inches the
panels' "how close" line (and the text's knife-edge sentence) wrote millimetres first, "50.8
mm (2″)"; now inches, then millimetres in brackets, "2″ (50.8 mm)", English and German. A
distance below 1 mm stays in millimetres alone, where inches would read 0.01″ or 0″. A
board in millimetres is written as before."""

from __future__ import annotations

from pathlib import Path
from string import Template

import pytest

import fwwrules
from fwwrules.catalogue import INCHES_FIRST_FROM_MM, length
from fwwrules.rulings import names_in

TABLE = Path(__file__).parent / "table-48.yaml"
EXAMPLE = Path(fwwrules.__file__).parent / "examples" / "cover-example-1.yaml"

OVER_THE_WALL = Template("""format: fwwrules/scenario@1
title: $title
rules: core
units: $units
models:
  - {id: gunner, name: Minuteman, faction: minutemen, base: $base, at: $gunner,
     skills: {rifle: 6}, weapons: [musket]}
  - {id: raider, name: Raider, faction: raiders, base: $base, at: $raider}
terrain:
  - {id: wall, name: Wall, kind: blocking, polygon: $wall}
weapons:
  - {id: musket, name: Laser Musket, type: rifle, short: green, long: blue,
     dice: {short: [black], long: [black]}}
""")


def over_the_wall(
    title: str,
    units: str,
    base: float,
    gunner: tuple[float, float],
    raider: tuple[float, float],
    wall: tuple[float, float, float, float],
) -> fwwrules.Scenario:
    """The gunner shooting at the raider over the north side of a wall between them (``wall``:
    west, south, east, north), in ``units``: how far north the wall reaches sets how close the
    call is."""
    west, south, east, north = wall
    s = fwwrules.loads(
        OVER_THE_WALL.substitute(
            title=title,
            units=units,
            base=base,
            gunner=list(gunner),
            raider=list(raider),
            wall=[[west, south], [east, south], [east, north], [west, north]],
        )
    )
    assert isinstance(s, fwwrules.Scenario)
    return s


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
    s = over_the_wall(
        title="Over the wall by a hair, in inches",
        units="in",
        base=1.26,
        gunner=(3.937, 3.937),
        raider=(15.748, 3.937),
        wall=(7.874, 0.787, 11.811, 4.5512),
    )
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


@pytest.mark.parametrize(("lang", "distance"), [("en", "0.08 mm south"), ("de", "0,08 mm nach")])
def test_a_millimetre_board_never_says_zero_inches(lang: str, distance: str) -> None:
    """A margin shorter than 0.005″ (0.127 mm) on a board in millimetres read "0.08 mm (0″)":
    the inches are left out where they would round to 0; an exact 0 keeps "(0″)"."""
    s = over_the_wall(
        title="Over the wall by less than a hair, in millimetres",
        units="mm",
        base=32,
        gunner=(100, 100),
        raider=(400, 100),
        wall=(200, 20, 300, 115.95),
    )
    sentence = said(s, "gunner", "raider", lang)
    assert distance in sentence and "″" not in sentence, sentence
    assert length(0.2, "mm", "en") == "0.2 mm (0.01″)"
    assert length(0.1, "mm", "en") == "0.1 mm"
    assert length(0.0, "mm", "de") == "0 mm (0″)"
