"""One typed cache: everything derived from a scenario lives in its ``cache.Derived``, under
keys the owning modules declare (``cache.Key``, each terrain-only or not).

The rule modules keep no state of their own (no module-level caches); a scenario whose models
alone moved (``placement.move_model``) shares what was derived from the terrain, carries what
the move cannot change, and rules exactly as on the same scenario built afresh;
docs/ARCHITECTURE.md names every key with its owner.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import itertools
import pkgutil
import re
from pathlib import Path
from typing import Any

import fwwrules
from fwwrules.board import BOARD
from fwwrules.cache import Key
from fwwrules.data import Scenario
from fwwrules.elevation import PIECES_UNDER
from fwwrules.engagement import ENGAGEMENTS, engagements
from fwwrules.geometry import PREPARED, Prepared, find_clear_segment, passage
from fwwrules.los import SIGHT
from fwwrules.placement import move_model

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fwwrules"


FILLED_AT_IMPORT = {
    "catalogue.py": {"MESSAGES", "CLAUSES", "CLAUSE_RULES"},
    "loading.py": {"_LIMITS_BY_PATTERN"},
}
"""Module-level tables of constant data that start empty and are filled once at import."""


def _example(name: str) -> Scenario:
    s = fwwrules.load(fwwrules.example_path(name))
    assert isinstance(s, Scenario)
    return s


def _module_level_mutables(path: Path) -> set[str]:
    """Names bound at module level to an empty ``{}``/``[]``/``dict()``/``set()``: a cache."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        empty = (isinstance(value, ast.Dict) and not value.keys) or (
            isinstance(value, (ast.List, ast.Set)) and not value.elts
        )
        empty = empty or (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Name)
            and value.func.id in ("dict", "set", "list", "OrderedDict", "WeakKeyDictionary")
            and not value.args
        )
        if empty:
            out |= {t.id for t in targets if isinstance(t, ast.Name)}
    return out


def test_rule_modules_keep_no_module_level_cache() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "draw" in path.relative_to(PACKAGE).parts:
            continue
        names = _module_level_mutables(path) - FILLED_AT_IMPORT.get(path.name, set())
        if names:
            found[str(path.relative_to(ROOT))] = sorted(names)
    assert found == {}


def test_the_probe_sees_a_module_level_cache(tmp_path: Path) -> None:
    """Control: the AST probe reports the shapes the old caches had."""
    p = tmp_path / "m.py"
    p.write_text("_A: dict[int, int] = {}\n_B = {}\nC = dict()\nD = {'x': 1}\n")
    assert _module_level_mutables(p) == {"_A", "_B", "C"}


def test_a_ruling_fills_the_scenarios_prepared_obstacles_only() -> None:
    s = _example("cover-example-1")
    assert s.derived.get(PREPARED) is None
    fwwrules.ruling(s, "knight", "brute")
    prepared = s.derived.get(PREPARED)
    assert isinstance(prepared, Prepared) and len(prepared) > 0
    other = _example("cover-example-1")
    assert other.derived.get(PREPARED) is None  # nothing shared through a module


def test_geometry_without_a_prepared_keeps_nothing() -> None:
    """Given no ``prepared=``, the geometry functions prepare per call; given one, they fill it
    and reuse it (same answers either way)."""
    from shapely.geometry import box

    from fwwrules.board import Disc

    wall = box(40, -50, 60, 5)
    a, b = Disc(0, 0, 10), Disc(100, 0, 10)
    prep = Prepared()
    assert find_clear_segment(a, b, [wall]) == find_clear_segment(a, b, [wall], prepared=prep)
    assert len(prep) == 1
    assert passage((-5, 0), (105, 0), wall) == passage((-5, 0), (105, 0), wall, prepared=prep)
    assert len(prep) == 1  # the same geometry object: reused


def test_moving_a_model_shares_the_terrain_entries_and_carries_the_rest() -> None:
    s = _example("elevation-rooftop")
    ids = [m.id for m in s.models]
    for a, b in itertools.permutations(ids, 2):
        fwwrules.ruling(s, a, b)
    filled = set(s.derived.keys())
    assert {BOARD, ENGAGEMENTS, PIECES_UNDER, SIGHT, PREPARED} <= filled
    m = s.model(ids[0])
    moved = move_model(s, m.id, m.at[0] + 1.0, m.at[1])
    for key in filled:
        if key.terrain_only:
            assert moved.derived.get(key) is s.derived.get(key), key
    assert moved.derived.get(SIGHT) is None  # no carry: every pair is searched again
    under = moved.derived.get(PIECES_UNDER)
    assert under is not None and m.id not in under and set(under) == set(ids[1:]) & set(under)
    assert moved.board.terrain is s.board.terrain
    assert moved.board.models[m.id].disc != s.board.models[m.id].disc
    assert all(moved.board.models[i] is s.board.models[i] for i in ids[1:])
    assert moved.board.derived is moved.derived
    assert dict(engagements(moved)) == dict(engagements(dataclasses.replace(moved)))


def test_a_moved_scenario_carries_the_engagements_into_and_out_of_contact() -> None:
    """The engagement graph of a moved scenario (carried: only pairs with the moved model
    decided again) equals the graph of the same scenario built afresh."""
    s = _example("melee-outnumbered-1")
    engagements(s)
    for mover in [m.id for m in s.models]:
        m = s.model(mover)
        for dx, dy in ((0.0, 0.0), (m.base, 0.0), (-0.5 * m.base, 0.3 * m.base), (40.0, 40.0)):
            moved = move_model(s, mover, m.at[0] + dx, m.at[1] + dy)
            assert moved.derived.get(ENGAGEMENTS) is not None
            assert dict(engagements(moved)) == dict(engagements(dataclasses.replace(moved)))


def test_a_moved_scenario_rules_as_one_built_afresh() -> None:
    for name in ("elevation-rooftop", "cover-example-4", "melee-shoot-into-2"):
        s = _example(name)
        ids = [m.id for m in s.models]
        for a, b in itertools.permutations(ids, 2):
            fwwrules.ruling(s, a, b)
        for mover in ids[:3]:
            m = s.model(mover)
            moved = move_model(s, mover, m.at[0] + 0.37 * m.base, m.at[1] - 0.21 * m.base)
            fresh = dataclasses.replace(moved)  # same contents, empty cache
            assert list(fresh.derived.keys()) == []
            refused = _refusal(moved)  # a move onto another base: both refuse it alike
            assert refused == _refusal(fresh)
            if refused is not None:
                continue
            for a, b in itertools.permutations(ids, 2):
                for rules in ("core", "vts"):
                    got = fwwrules.ruling(moved, a, b, rules=rules).to_dict()
                    assert got == fwwrules.ruling(fresh, a, b, rules=rules).to_dict()


def _refusal(s: Scenario) -> str | None:
    """The ScenarioError a ruling on ``s`` raises (its words), or None when it answers."""
    try:
        fwwrules.ruling(s, s.models[0].id, s.models[1].id)
    except fwwrules.ScenarioError as exc:
        return str(exc)
    return None


def declared_keys() -> dict[str, tuple[str, Key[Any]]]:
    """Every cache key the package declares: name -> (the module declaring it, key)."""
    found: dict[str, tuple[str, Key[Any]]] = {}
    for info in pkgutil.walk_packages(fwwrules.__path__, "fwwrules."):
        if info.name.startswith("fwwrules.draw") or info.name == "fwwrules.__main__":
            continue
        module = importlib.import_module(info.name)
        source = Path(str(module.__file__)).read_text(encoding="utf-8")
        for attr, value in vars(module).items():
            if isinstance(value, Key) and re.search(rf"^{attr}: Key\[", source, flags=re.M):
                assert value.name not in found, (value.name, info.name, found[value.name][0])
                found[value.name] = (info.name, value)
    return found


def test_every_key_in_the_package_is_declared_under_its_own_name() -> None:
    """A key lives in one module (others import it), as ``NAME: Key[...] = Key("name", ...)``."""
    declared = declared_keys()
    assert {"board", "terrain", "sight", "engagements"} <= set(declared)
    for name, (owner, key) in declared.items():
        assert getattr(importlib.import_module(owner), name.upper()) is key


def test_architecture_names_every_cache_entry() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Caches", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| `([a-z_.]+)` \| (yes|no) \|", section, flags=re.M)
    named = {name: (f"fwwrules.{owner}", flag == "yes") for name, owner, flag in rows}
    declared = {n: (owner, key.terrain_only) for n, (owner, key) in declared_keys().items()}
    assert named == declared


def test_only_carry_moved_starts_a_cache_from_another() -> None:
    """One way to derive a moved scenario's cache: ``Derived.carry_moved``, used by
    ``placement.move_model`` and the threat map alike; nothing else copies entries."""
    users = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        if ".carry_moved(" in text:
            users.add(path.relative_to(PACKAGE).as_posix())
        assert "._entries" not in text or path.name == "cache.py", path
    assert users == {"placement.py", "threat/compute.py"}
