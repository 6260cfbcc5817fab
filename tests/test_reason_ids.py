"""Reason params carry ids, never display names; the catalogue names them when rendering.

Every reason of every ruling on every shipped scenario (both rulesets: every ordered pair,
every withdrawal, a slide of each model; every grid pair and attack) is checked: each value
under a key that names a model, creature, terrain piece or weapon is an id present in the
scenario, or a typed reference to its pieces (:mod:`fwwrules.refs`: a Significant Edge, touching
pieces acting as one, a point): nothing in a reason is a name glued into text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

import fwwrules
from fwwrules.data import Scenario
from fwwrules.refs import REF_TYPES, EdgeRef, ModelRef, PointRef, TerrainRef
from fwwrules.rulings import Reason

ROOT = Path(__file__).resolve().parent.parent

NAMING_KEYS = frozenset(
    {
        "attacker",
        "target",
        "model",
        "models",
        "engaged",
        "foes",
        "charged",
        "withdrawer",
        "others",
        "piece",
        "pieces",
        "high",
        "low",
        "source",
        "blockers",
        "blocker",
        "numbers",
        "creature",
        "weapon",
    }
)
"""Param names whose values name a model, creature, terrain piece or weapon."""


def _scenarios() -> list[Path]:
    out = sorted(fwwrules.examples_dir().glob("*.yaml"))
    return out + sorted((ROOT / "notebooks" / "scenarios").glob("*.yaml"))


def _ids(s: Scenario) -> set[str]:
    ids = {m.id for m in s.models} | {t.id for t in s.terrain} | {w.id for w in s.weapons}
    return ids | {"improvised"}


def _known(value: object, ids: set[str], terrain: set[str]) -> bool:
    """An id of the scenario, or a typed reference (:mod:`fwwrules.refs`) to its pieces: a
    model, touching pieces of one kind acting as one, a Significant Edge, a point."""
    if isinstance(value, str):
        return value in ids
    if isinstance(value, ModelRef):
        return value.id in ids
    if isinstance(value, TerrainRef):
        return all(part in terrain for part in value.ids)
    if isinstance(value, EdgeRef):
        return value.terrain in terrain
    return isinstance(value, PointRef)


def _bad_params(reasons: tuple[Reason, ...], ids: set[str], terrain: set[str]) -> Iterator[str]:
    for r in reasons:
        for key, value in r.params.items():
            if key not in NAMING_KEYS:
                continue
            values = value if isinstance(value, (list, tuple)) else [value]
            for v in values:
                if isinstance(v, (str, *REF_TYPES)) and not _known(v, ids, terrain):
                    yield f"{r.message_id}: {key}={v!r}"


def _rulings(s: Scenario) -> Iterator[Any]:
    for rules in ("core", "vts"):
        for a in s.models:
            for b in s.models:
                if a.id != b.id:
                    for w in s.weapons_of(a):
                        yield fwwrules.ruling(s, a.id, b.id, weapon=w.id, rules=rules)
            yield fwwrules.withdraw(s, a.id, rules=rules)
            for dx, dy in ((a.base, 0.0), (0.0, -a.base), (a.base / 4, a.base / 4)):
                yield fwwrules.slide(s, a.id, (a.at[0] + dx, a.at[1] + dy), rules=rules)


@pytest.mark.parametrize("path", _scenarios(), ids=lambda p: p.stem)
def test_reason_params_name_models_and_pieces_by_id(path: Path) -> None:
    s = fwwrules.load(path)
    assert isinstance(s, Scenario)
    ids, terrain = _ids(s), {t.id for t in s.terrain}
    bad: list[str] = []
    checked = 0
    for r in _rulings(s):
        bad += _bad_params(r.reasons, ids, terrain)
        checked += sum(1 for x in r.reasons if NAMING_KEYS & x.params.keys())
    assert not bad, bad[:10]
    assert checked > 0  # every shipped scenario has reasons naming something


def test_grid_reason_params_name_creatures_by_id() -> None:
    for path in sorted((fwwrules.examples_dir() / "grid").glob("*.yaml")):
        g = fwwrules.load(path)
        ids = {c.id for c in g.creatures}  # type: ignore[union-attr]
        for a in ids:
            for b in ids - {a}:
                for attack in ("ranged", "melee", "reach"):
                    r = fwwrules.grid_cover(g, a, b, attack=attack)  # type: ignore[arg-type]
                    assert not list(_bad_params(r.reasons, ids, set())), (path.name, a, b)


def _names(s: Scenario) -> Mapping[str, str]:
    return {m.id: m.label for m in s.models}


def test_texts_show_names_while_params_carry_ids() -> None:
    """``melee-shoot-into-2``: the Armor die's numbers list ids; the text shows the names."""
    s = fwwrules.load(fwwrules.example_path("melee-shoot-into-2"))
    assert isinstance(s, Scenario)
    names = _names(s)
    seen = 0
    for a in s.models:
        for b in s.models:
            if a.id == b.id:
                continue
            r = fwwrules.ruling(s, a.id, b.id, rules="core")
            for reason in r.reasons:
                if reason.message_id != "melee.shoot-into/numbers":
                    continue
                numbers = list(reason.params["numbers"])
                assert numbers == list(r.into_melee.numbers or ())  # type: ignore[union-attr]
                listing = ", ".join(f"{k}: {names[m]}" for k, m in enumerate(numbers, start=1))
                assert r.to_dict("en")["reasons"][r.reasons.index(reason)]["text"].endswith(
                    f": {listing}."
                )
                seen += 1
    assert seen


def test_withdraw_json_text_names_the_weapon_and_models() -> None:
    s = fwwrules.load(fwwrules.example_path("melee-outnumbered-1"))
    assert isinstance(s, Scenario)
    for m in s.models:
        w = fwwrules.withdraw(s, m.id)
        for r, d in zip(w.reasons, w.to_dict("de")["reasons"], strict=True):
            for key in ("model", "withdrawer", "weapon"):
                ident = r.params.get(key)
                if isinstance(ident, str):
                    names = s.display_names("de")  # the German text names the German names
                    assert ident not in d["text"] or ident == names[ident]
                    assert names[ident] in d["text"]
