"""Core rules and Vault-Tec Simulator side by side (``fwwrules.compare``, ``fwwrules ruling
--compare``): one test per difference on a shipped example, and on every shipped board the
differences explain exactly where the two rulings differ."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import fwwrules
from fwwrules.compare import DIFFERENCES, Comparison, compare, compare_slide, differences
from fwwrules.rulings import AttackRuling

REPO = Path(__file__).resolve().parents[1]


def _example(name: str) -> fwwrules.Scenario:
    return fwwrules.load(fwwrules.example_path(name))


def _clauses(c: Comparison) -> list[str]:
    return [d.clause for d in c.differences]


def test_cover_armor_compare_armor_plus_one_or_an_armor_boost() -> None:
    c = compare(_example("cover-example-1"), "brute", "knight")
    assert _clauses(c) == ["cover.armor"]
    (d,) = c.differences
    assert (d.core, d.vts) == ({"bonus": 1, "boost": 0}, {"bonus": 0, "boost": 1})
    assert c.core.skill == c.vts.skill  # −4 either way: cover itself is the same
    assert "Armor Boost" in d.text("en") and "„Armor Boost“" in d.text("de")


def test_melee_slide_compare_only_the_core_rules_slide() -> None:
    c = compare(_example("melee-behemoth-slide"), "behemoth", "dogmeat")
    assert _clauses(c) == ["melee.slide"]
    (d,) = c.differences
    assert (d.core, d.vts) == (True, False)
    assert fwwrules.slide(_example("melee-behemoth-slide"), "behemoth", (324.8, 343.4)).legal
    # a ranged attack has no slide to differ in
    assert "melee.slide" not in _clauses(compare(_example("cover-example-1"), "knight", "brute"))


def test_melee_slide_compare_slide_legal_only_under_core() -> None:
    """The same table compares a slide (``compare_slide``): legal under the core rules, never
    under the Vault-Tec Simulator; a slide the core rules refuse too differs in nothing."""
    s = _example("melee-behemoth-slide")
    c = compare_slide(s, "behemoth", (324.8, 343.4))
    assert _clauses(c) == ["melee.slide"] and (c.core.legal, c.vts.legal) == (True, False)
    assert c.to_dict()["differences"][0]["clause"] == "melee.slide"
    assert '<li class="fwwrules-differs"' in c.html("de")
    assert compare_slide(s, "behemoth", (10.0, 10.0)).differences == ()


@pytest.mark.parametrize("rules", ["core", "vts"])
def test_compare_uses_the_known_ruling_for_its_ruleset_and_asks_the_other(rules: str) -> None:
    """A panel's own ruling stands for its ruleset (not asked again); the comparison is the
    one asked from scratch. A ruling of another question is not used."""
    s = _example("cover-example-1")
    own = fwwrules.ruling(s, "brute", "knight", rules=rules)
    c = compare(s, "brute", "knight", known=own)
    other = c.vts if rules == "core" else c.core
    assert (c.core if rules == "core" else c.vts) is own and other is not own
    fresh = compare(s, "brute", "knight")
    assert c.to_dict() == fresh.to_dict() and _clauses(c) == ["cover.armor"]
    elsewhere = fwwrules.ruling(s, "knight", "brute", rules=rules)
    not_used = [
        compare(s, "brute", "knight", known=elsewhere),  # another attacker and target
        compare(s, "brute", "knight", reacting_to_charge=True, known=own),  # another reaction
    ]
    for c2 in not_used:
        assert all(r is not own and r is not elsewhere for r in (c2.core, c2.vts))


def test_compare_slide_uses_the_known_slide_for_its_ruleset() -> None:
    s = _example("melee-behemoth-slide")
    own = fwwrules.slide(s, "behemoth", (324.8, 343.4), rules="core")
    c = compare_slide(s, "behemoth", (324.8, 343.4), known=own)
    assert c.core is own and (c.core.legal, c.vts.legal) == (True, False)
    assert compare_slide(s, "behemoth", (10.0, 10.0), known=own).core is not own


def test_melee_super_mutant_compare_melee_skill_only_under_core() -> None:
    """No file of fwwrules/examples has a Super Mutant with a pistol or rifle in close combat:
    the board of notebooks 04 and 07 (shipped with the notebooks) has."""
    fight = fwwrules.load(REPO / "notebooks" / "scenarios" / "close-combat.yaml")
    c = compare(fight, "brute", "knight", weapon="hunting-rifle")
    assert _clauses(c) == ["melee.ranged-weapon", "melee.super-mutant", "melee.slide"]
    sm = c.differences[1]
    assert (sm.core, sm.vts) == ({"icon": "melee", "value": 6}, {"icon": "rifle", "value": 4})
    assert (c.core.skill.target, c.vts.skill.target) == (4, 2)
    ranged = c.differences[0]
    assert (ranged.core, ranged.vts) == ({"bonus": 1, "boost": 0}, {"bonus": 0, "boost": 1})


def test_melee_shoot_into_compare_plus_two_and_numbers_or_minus_two() -> None:
    c = compare(_example("melee-shoot-into-3"), "minuteman", "raider")
    assert _clauses(c) == ["melee.shoot-into"]
    (d,) = c.differences
    assert d.core["modifier"] == 2 and d.core["numbers"][0] == d.core["numbers"][3] == "raider"
    assert d.vts == {"modifier": -2, "numbers": None}
    assert "1: Raider" in d.text("en", c.labels) and "−2" in d.text("de", c.labels)
    two = compare(_example("melee-shoot-into-2"), "minuteman", "raider")
    assert _clauses(two) == ["melee.shoot-into"]


def _pairs() -> Iterator[tuple[str, fwwrules.Scenario, str, str, str]]:
    boards = [(n, _example(n)) for n in fwwrules.examples() if not n.startswith("grid/")]
    boards.append(("close-combat", fwwrules.load(REPO / "notebooks/scenarios/close-combat.yaml")))
    for name, s in boards:
        for a in s.models:
            for t in s.models:
                for w in (*a.weapons, "improvised"):
                    if a.id != t.id:
                        yield name, s, a.id, t.id, w


def _differing(core: AttackRuling, vts: AttackRuling) -> set[str]:
    """The outcome fields in which two rulings differ."""
    out = set()
    for field in ("allowed", "not_allowed", "armor", "effect_dice", "into_melee"):
        if getattr(core, field) != getattr(vts, field):
            out.add(field)
    if (core.skill.icon, core.skill.value) != (vts.skill.icon, vts.skill.value):
        out.add("skill")
    for clause in set(core.modifiers) | set(vts.modifiers):
        if core.modifiers.get(clause) != vts.modifiers.get(clause):
            out.add(f"modifier:{clause}")
    return out


EXPLAINS: dict[str, set[str]] = {
    "cover.armor": {"armor"},
    "melee.ranged-weapon": {"armor"},
    "melee.super-mutant": {"skill"},
    "melee.shoot-into": {"into_melee", "modifier:melee.shoot-into"},
    "melee.slide": set(),  # from the rulesets: core slides after a close combat attack
}


def test_differences_explain_every_difference_of_the_two_rulings_on_every_shipped_board() -> None:
    """Every ordered pair of models with every weapon of the attacker: the differences name
    exactly the outcome fields in which the two rulings differ, and each finder speaks."""
    seen: set[str] = set()
    for name, s, a, t, w in _pairs():
        c = compare(s, a, t, weapon=w)
        differ = _differing(c.core, c.vts)
        explained = set().union(*(EXPLAINS[d.clause] for d in c.differences))
        assert differ == explained, (name, a, t, w, differ, _clauses(c))
        slides = c.core.kind == "melee" and c.core.allowed
        assert ("melee.slide" in _clauses(c)) == slides, (name, a, t, w)
        seen.update(_clauses(c))
        for d in c.differences:
            for lang in ("en", "de"):
                text = d.text(lang, c.labels)
                assert not re.search(r"(?<![\w-])-\d", text), text  # the minus sign is −
                assert not re.search(r"\b(?:zzid|super-mutant|knight)\b", text), text  # names
            assert "Armor Boost" not in d.text("de", c.labels).replace("„Armor Boost“", "")
    assert seen == {clause for clause, _, _ in DIFFERENCES}


def test_differences_need_a_core_and_a_vts_ruling() -> None:
    s = _example("cover-example-1")
    r = fwwrules.ruling(s, "brute", "knight")
    with pytest.raises(ValueError):
        differences(r, r)


def test_compare_text_puts_the_differences_first_in_both_languages() -> None:
    c = compare(_example("cover-example-1"), "brute", "knight")
    for lang, words in (("en", "Core rules"), ("de", "Grundregeln")):
        lines = c.explain(lang).splitlines()
        assert lines[0].endswith("1.")
        assert lines[1].startswith("  [cover.armor] ")
        assert any(ln.startswith(words) for ln in lines)
        assert c.core.explain(lang).splitlines()[0] in c.explain(lang)
    same = compare(_example("cover-example-4"), "paladin", "mutant-1")
    assert same.differences == () and "alike" in same.explain("en")
    assert "<code>cover.armor</code>" in c._repr_html_()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fwwrules", *args], capture_output=True, text=True, check=False
    )


def test_cli_ruling_compare_json_and_text() -> None:
    path = str(fwwrules.example_path("melee-shoot-into-2"))
    done = _cli(
        "ruling", path, "--attacker", "minuteman", "--target", "raider", "--compare", "--json"
    )
    assert done.returncode == 0, done.stderr
    got: dict[str, Any] = json.loads(done.stdout)
    assert set(got) == {"core", "vts", "differences"}
    assert (got["core"]["rules"], got["vts"]["rules"]) == ("core", "vts")
    assert (
        got["core"]
        == fwwrules.ruling(_example("melee-shoot-into-2"), "minuteman", "raider").to_dict()
    )
    (d,) = got["differences"]
    assert d["clause"] == "melee.shoot-into" and d["core"]["modifier"] == 2 and d["text"]
    text = _cli(
        "ruling", path, "--attacker", "minuteman", "--target", "raider", "--compare", "--lang", "de"
    )
    assert text.returncode == 0 and text.stdout.startswith("Unterschiede zwischen")
    refused = _cli(
        "ruling",
        path,
        "--attacker",
        "minuteman",
        "--target",
        "raider",
        "--compare",
        "--rules",
        "vts",
    )
    assert (
        refused.returncode == 2
        and "--rules" in refused.stderr
        and "Traceback" not in refused.stderr
    )
