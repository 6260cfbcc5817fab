"""The cover rules are one table (``fwwrules.cover.COVER_RULES``) that the ruling and the
threat map both walk: a rule added to the table alone (here, in the test) is applied by
``fwwrules.ruling`` and by ``fwwrules.threat_map``, on the threat map's fast path through the
rule's vector form and on its exact path without one, and the two agree cell by cell.

The line-of-sight blockers are a table too (``fwwrules.los.BLOCKERS``); a blocker rule
without a vector form sends its shooter's cells to the exact path.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from test_threat_map import cells_of, reference

import fwwrules
from fwwrules import cover, los
from fwwrules.cover import CoverRule, CoverShot, Decided, Verdict, gives
from fwwrules.crossings import Met, VMet
from fwwrules.pieces import Model, Rect, Terrain, TerrainRef, Weapon
from fwwrules.threat import threat_map

SHIPPED_RULES = cover.COVER_RULES
RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("black",)})


def board() -> fwwrules.Scenario:
    """Two shooters of side ``red``; a tall crate (height 40 mm), a low crate, a wood."""
    return fwwrules.Scenario(
        models=(
            Model("gunner", "red", 32.0, (40.0, 150.0), skills={"rifle": 6}, weapons=("rifle",)),
            Model("sniper", "red", 32.0, (40.0, 40.0), skills={"rifle": 7}, weapons=("rifle",)),
        ),
        terrain=(
            Terrain("tall", "cover", Rect((150.0, 150.0), (20.0, 80.0)), height=40.0),
            Terrain("low", "cover", Rect((150.0, 40.0), (20.0, 50.0)), height=10.0),
            Terrain("wood", "area", Rect((230.0, 260.0), (60.0, 40.0))),
        ),
        weapons=(RIFLE,),
        sides={"red": ("red",), "blue": ("blue",)},
    )


def _tall(scenario: fwwrules.Scenario, ref: object) -> bool:
    """A single cover piece at least 30 mm high (the throw-away rule's condition)."""
    if not isinstance(ref, TerrainRef) or len(ref.ids) != 1:
        return False
    piece = scenario.board.terrain[ref.ids[0]]
    return piece.kind == "cover" and (piece.height or 0.0) >= 30.0


def _barricade(s: CoverShot, m: Met) -> Verdict | None:
    """test.barricade: a cover piece 30 mm high or more, crossed, gives -3."""
    return gives("test.barricade", modifier=-3) if _tall(s.scenario, m.ref) else None


def _barricade_v(p: cover.CoverPositions, m: VMet) -> Decided:
    return Decided(gives=_tall(p.scenario, m.ref), modifier=-3)


def _with_rule(monkeypatch: pytest.MonkeyPatch, vector: bool) -> None:
    """The table with the throw-away rule just before ``cover.line``'s "crossed"."""
    rule = CoverRule(
        "barricade",
        "test.barricade",
        frozenset({"terrain"}),
        _barricade,
        _barricade_v if vector else None,
    )
    rules = list(SHIPPED_RULES)
    at = next(i for i, r in enumerate(rules) if r.name == "line")
    monkeypatch.setattr(cover, "COVER_RULES", (*rules[:at], rule, *rules[at:]))


POSITIONS = [(x, y) for x in np.arange(185.0, 330.0, 9.0) for y in np.arange(20.0, 300.0, 9.0)]


def test_a_rule_added_to_the_table_is_applied_by_the_ruling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = dataclasses.replace(
        board(), models=(*board().models, Model("target", "blue", 32.0, (260.0, 150.0)))
    )
    before = fwwrules.ruling(s, "gunner", "target")
    assert [(c.source, c.clause, c.modifier) for c in before.cover] == [("tall", "cover.line", -2)]
    _with_rule(monkeypatch, vector=True)
    r = fwwrules.ruling(s, "gunner", "target")
    assert [(c.source, c.clause, c.modifier) for c in r.cover] == [("tall", "test.barricade", -3)]
    assert r.skill.modifier == -3 and r.modifiers == {"test.barricade": -3}
    low = dataclasses.replace(
        s, models=(*board().models, Model("target", "blue", 32.0, (260.0, 40.0)))
    )
    r = fwwrules.ruling(low, "sniper", "target")  # over the low crate: the old rule
    assert [(c.source, c.clause, c.modifier) for c in r.cover] == [("low", "cover.line", -2)]


def test_the_threat_map_applies_a_new_rule_by_its_vector_form_and_by_the_exact_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = board()
    plain = threat_map(s, "blue", base=32.0, positions=POSITIONS)
    _with_rule(monkeypatch, vector=True)
    fast = threat_map(s, "blue", base=32.0, positions=POSITIONS)
    _with_rule(monkeypatch, vector=False)
    exact = threat_map(s, "blue", base=32.0, positions=POSITIONS)
    live = fast.placeable
    # the rule changes cells, and on the fast path (not left to the ruling)
    changed = live[:, None] & (fast.modifier != plain.modifier) & fast.allowed
    assert changed.any() and (fast.modifier[changed] - plain.modifier[changed] == -1).all()
    assert not (fast.exact & changed).any()
    # without its vector form the same cells go to the exact path, with the same answers
    assert exact.exact[changed].all()
    for name in ("allowed", "modifier", "covered", "weapon"):
        assert np.array_equal(getattr(fast, name)[live], getattr(exact, name)[live]), name
    # and both are what the rulings say, cell by cell
    for i in np.flatnonzero(live)[::7].tolist():
        at = (float(fast.positions[i, 0]), float(fast.positions[i, 1]))
        want = reference(s, "blue", 32.0, at, float(fast.elevation[i]))
        assert cells_of(fast, i) == want, at
        assert cells_of(exact, i) == want, at


def test_a_blocker_rule_without_a_vector_form_sends_its_shooters_cells_to_the_exact_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = board()
    fast = threat_map(s, "blue", base=32.0, positions=POSITIONS)
    rules = [dataclasses.replace(r, vector=None) if r.name == "huge" else r for r in los.BLOCKERS]
    monkeypatch.setattr(los, "BLOCKERS", tuple(rules))
    slow = threat_map(s, "blue", base=32.0, positions=POSITIONS)
    live = fast.placeable
    assert slow.exact[live].sum() > fast.exact[live].sum()
    for name in ("allowed", "modifier", "covered", "weapon"):
        assert np.array_equal(getattr(fast, name)[live], getattr(slow, name)[live]), name
