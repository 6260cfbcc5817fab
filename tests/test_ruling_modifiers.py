"""``AttackRuling.modifiers``: the skill modifier of each clause, summing to the total, and the
ruleset table (``fwwrules.rulesets``) behind every core/vts difference."""

from __future__ import annotations

import fwwrules
from fwwrules.data import Scenario
from fwwrules.rulesets import CORE, VTS, ruleset


def example(name: str) -> Scenario:
    s = fwwrules.load(fwwrules.example_path(name))
    assert isinstance(s, Scenario)
    return s


def test_modifiers_by_clause_sum_to_the_skill_modifier_on_every_example_pair() -> None:
    for path in sorted(fwwrules.examples_dir().glob("*.yaml")):
        s = example(path.stem)
        for a in s.models:
            for b in s.models:
                if a.id == b.id:
                    continue
                for rules in ("core", "vts"):
                    r = fwwrules.ruling(s, a.id, b.id, rules=rules)
                    assert sum(r.modifiers.values()) == r.skill.modifier
                    assert 0 not in r.modifiers.values()
                    assert r.to_dict()["modifiers"] == dict(r.modifiers)


def test_cover_example_1_names_the_cover_clause() -> None:
    r = fwwrules.ruling(example("cover-example-1"), "knight", "brute")
    assert r.modifiers == {"cover.line": -2}
    quick = fwwrules.ruling(example("cover-example-1"), "knight", "brute", quick=True)
    assert quick.modifiers == {"cover.line": -2, "action.quick": -2}


def test_shoot_into_modifier_comes_from_the_ruleset() -> None:
    s = example("melee-shoot-into-2")
    seen = set()
    for a in s.models:
        for b in s.models:
            if a.id != b.id:
                for rules in ("core", "vts"):
                    r = fwwrules.ruling(s, a.id, b.id, rules=rules)
                    if "melee.shoot-into" in r.modifiers:
                        assert r.modifiers["melee.shoot-into"] == ruleset(rules).shoot_into_modifier
                        seen.add(rules)
    assert seen == {"core", "vts"}


def test_ruleset_table_differences_are_data() -> None:
    assert (CORE.armor_step.bonus, CORE.armor_step.boost) == (1, 0)
    assert (VTS.armor_step.bonus, VTS.armor_step.boost) == (0, 1)
    assert CORE.slides and not VTS.slides
    assert CORE.super_mutant_melee and not VTS.super_mutant_melee
    assert ruleset("vts") is VTS and ruleset(CORE) is CORE


def test_ruling_folds_the_steps_of_the_families() -> None:
    """The common step contract (``rulings.Step``): close combat terms, range, line of sight and
    cover each give one; ``ruling()`` folds them, so its modifiers, armor and refusals are the
    fold of the families' steps."""
    from fwwrules.attack import attack_context
    from fwwrules.close_combat import close_combat_terms
    from fwwrules.cover import line_of_cover
    from fwwrules.los import shot_line_of_sight
    from fwwrules.rulings import Step, fold
    from fwwrules.shot import build_shot

    s = example("cover-example-1")
    shot = build_shot(s, "knight", "brute")
    los_step, cover_step = shot_line_of_sight(shot).step(), line_of_cover(shot, "core").step()
    assert isinstance(los_step, Step) and isinstance(cover_step, Step)
    r = fwwrules.ruling(s, "knight", "brute")
    folded = fold([los_step, cover_step])
    assert dict(folded.modifiers) == dict(r.modifiers) == {"cover.line": -2}
    assert folded.armor == r.armor
    assert set(folded.refusals) <= set(r.not_allowed)

    m = example("melee-outnumbered-1")
    seen = 0
    for a in m.models:
        for b in m.models:
            if a.id == b.id:
                continue
            w = m.weapons_of(a)[0]
            ruled = fwwrules.ruling(m, a.id, b.id, weapon=w.id)
            if ruled.kind != "melee":
                continue
            step = close_combat_terms(attack_context(m, a.id, b.id, w, "core")).step()
            assert dict(fold([step]).modifiers) == dict(ruled.modifiers)
            assert fold([step]).armor == ruled.armor
            seen += 1
    assert seen > 0
