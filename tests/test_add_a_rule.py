"""docs/ARCHITECTURE.md, "How to add a rule", shown inside the repository: a house rule
``cover.barricade`` (a cover piece at least 50 mm high, crossed, gives −3) is added through the
rule table (one :class:`~fwwrules.cover.CoverRule` row) and its clause text record (one
:class:`~fwwrules.catalogue.ClauseText`) only, here for the length of a test. The ruling, its
JSON and text in both languages, the list of modifiers, the clause list that ``make docs``
writes, and the threat map on its fast path all take it up; nothing else is touched.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_threat_map import cells_of, reference

import fwwrules
from fwwrules import Model, Rect, Scenario, Terrain, Weapon, catalogue, cover
from fwwrules.catalogue import ClauseText
from fwwrules.cover import CoverPositions, CoverRule, CoverShot, Decided, Verdict, gives
from fwwrules.crossings import Met, VMet
from fwwrules.refs import TerrainRef
from fwwrules.threat import threat_map

REPO = Path(__file__).resolve().parents[1]
RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("black",)})

BARRICADE = ClauseText(
    "cover.barricade",
    rule={
        "en": "House rule: a cover piece at least 50 mm high that the Line of Cover passes "
        "through gives −3 instead of −2.",
        "de": "Hausregel: Ein Deckungsstück von mindestens 50 mm Höhe, durch das die "
        "Deckungslinie verläuft, gibt −3 statt −2.",
    },
    messages={
        "": {
            "en": "The Line of Cover passes through the barricade {source}: {modifier:+d}.",
            "de": "Die Deckungslinie verläuft durch die Barrikade {source}: {modifier:+d}.",
        }
    },
    modifier={"en": "barricade", "de": "Barrikade"},
)


def _barricade_piece(scenario: Scenario, ref: object) -> bool:
    """The house rule's condition, written once for both forms."""
    if not isinstance(ref, TerrainRef) or len(ref.ids) != 1:
        return False
    piece = scenario.board.terrain[ref.ids[0]]
    return piece.kind == "cover" and (piece.height or 0.0) >= 50.0


def _barricade(s: CoverShot, m: Met) -> Verdict | None:
    """cover.barricade: a cover piece 50 mm high or more, crossed, gives -3."""
    return gives("cover.barricade", modifier=-3) if _barricade_piece(s.scenario, m.ref) else None


def _barricade_v(p: CoverPositions, m: VMet) -> Decided:
    return Decided(gives=_barricade_piece(p.scenario, m.ref), modifier=-3)


@pytest.fixture
def house_rule(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The two additions: a row of the rule table (before ``cover.line``'s "crossed", where
    the first verdict for a piece decides) and the clause's text record."""
    row = CoverRule("barricade", "cover.barricade", cover.TERRAIN, _barricade, _barricade_v)
    rules = list(cover.COVER_RULES)
    at = next(i for i, r in enumerate(rules) if r.name == "line")
    monkeypatch.setattr(cover, "COVER_RULES", (*rules[:at], row, *rules[at:]))
    catalogue.add_clause(BARRICADE)
    try:
        yield
    finally:
        catalogue.remove_clause("cover.barricade")


def board() -> Scenario:
    return Scenario(
        models=(
            Model("gunner", "red", 32.0, (40.0, 150.0), skills={"rifle": 6}, weapons=("rifle",)),
            Model("target", "blue", 32.0, (260.0, 150.0)),
        ),
        terrain=(
            Terrain("barricade", "cover", Rect((150.0, 150.0), (20.0, 80.0)), height=60.0),
            Terrain("crate", "cover", Rect((150.0, 40.0), (20.0, 50.0)), height=10.0),
        ),
        weapons=(RIFLE,),
        sides={"red": ("red",), "blue": ("blue",)},
    )


def test_cover_barricade_the_ruling_applies_and_explains_it(house_rule: None) -> None:
    r = fwwrules.ruling(board(), "gunner", "target")
    assert [(c.source, c.clause, c.modifier) for c in r.cover] == [
        ("barricade", "cover.barricade", -3)
    ]
    assert r.modifiers == {"cover.barricade": -3} and r.skill.modifier == -3
    said = [x for x in r.to_dict("en")["reasons"] if x["clause"] == "cover.barricade"]
    assert said[0]["text"] == "The Line of Cover passes through the barricade barricade: −3."
    assert "durch die Barrikade barricade: −3" in r.explain("de")
    # a list of modifiers names it by its label, never by a raw token
    listed = catalogue.render(
        "melee.withdraw/free-attack",
        {"model": "gunner", "weapon": "rifle", "value": 6,
         "modifiers": [["cover.barricade", -3]], "target": 3},
        "de",
    )  # fmt: skip
    assert "−3 (Barrikade)" in listed and "modifier/" not in listed


def test_cover_barricade_the_clause_list_make_docs_writes_has_it(house_rule: None) -> None:
    spec = importlib.util.spec_from_file_location("make_docs", REPO / "tools" / "make_docs.py")
    assert spec is not None and spec.loader is not None
    make_docs = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_docs", make_docs)
    spec.loader.exec_module(make_docs)
    listed = make_docs.clauses_file().splitlines()
    assert listed[-1] == "cover.barricade"  # a real record sits in CLAUSE_TEXTS where it belongs


def test_cover_barricade_the_threat_map_takes_it_on_the_fast_path(house_rule: None) -> None:
    s = board()
    shooters_only = Scenario(
        models=s.models[:1], terrain=s.terrain, weapons=s.weapons, sides=s.sides
    )
    xs, ys = np.arange(200.0, 320.0, 10.0), np.arange(110.0, 200.0, 10.0)
    positions = [(float(x), float(y)) for x in xs for y in ys]
    tm = threat_map(shooters_only, "blue", base=32.0, positions=positions)
    j = tm.shooters.index("gunner")
    hit = tm.placeable & tm.allowed[:, j] & (tm.modifier[:, j] == -3)
    assert hit.any() and not tm.exact[hit, j].all()  # decided by the rule's vector form
    for i in np.flatnonzero(tm.placeable)[::5].tolist():
        at = (float(tm.positions[i, 0]), float(tm.positions[i, 1]))
        assert cells_of(tm, i) == reference(shooters_only, "blue", 32.0, at, 0.0), at
