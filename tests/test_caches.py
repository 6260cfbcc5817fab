"""One typed cache: everything derived from a scenario lives in ``board.Derived``.

The rule modules keep no state of their own (no module-level caches); a scenario whose models
alone moved (``placement.move_model``) keeps what was derived from the terrain, and rules on
it exactly as on the same scenario built afresh; docs/ARCHITECTURE.md names every entry.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import re
from pathlib import Path

import fwwrules
from fwwrules.board import TERRAIN_ENTRIES, Derived
from fwwrules.data import Scenario
from fwwrules.geometry import Prepared, find_clear_segment, passage
from fwwrules.placement import move_model

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fwwrules"


FILLED_AT_IMPORT = {"catalogue.py": {"MESSAGES"}, "loading.py": {"_LIMITS_BY_PATTERN"}}
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
    assert s.derived.prepared is None
    fwwrules.ruling(s, "knight", "brute")
    assert isinstance(s.derived.prepared, Prepared) and len(s.derived.prepared) > 0
    other = _example("cover-example-1")
    assert other.derived.prepared is None  # nothing shared through a module


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


def test_moving_a_model_keeps_the_terrain_entries_and_drops_the_rest() -> None:
    s = _example("elevation-rooftop")
    ids = [m.id for m in s.models]
    for a, b in itertools.permutations(ids, 2):
        fwwrules.ruling(s, a, b)
    m = s.model(ids[0])
    moved = move_model(s, m.id, m.at[0] + 1.0, m.at[1])
    for name in TERRAIN_ENTRIES:
        assert getattr(moved.derived, name) is getattr(s.derived, name), name
    assert moved.derived.board is None and moved.derived.engagements is None
    assert moved.derived.sight == {} and moved.derived.pieces_under == {}
    assert moved.board.terrain is s.board.terrain
    assert moved.board.models[m.id].disc != s.board.models[m.id].disc


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
            assert fresh.derived.terrain is None
            for a, b in itertools.permutations(ids, 2):
                for rules in ("core", "vts"):
                    got = fwwrules.ruling(moved, a, b, rules=rules).to_dict()
                    assert got == fwwrules.ruling(fresh, a, b, rules=rules).to_dict()


def test_architecture_names_every_cache_entry() -> None:
    text = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    section = text.split("## Caches", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M))
    assert named == set(Derived.__slots__)
