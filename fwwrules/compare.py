"""Core rules and Vault-Tec Simulator side by side (``fwwrules ruling ... --compare``).

:func:`compare` asks :func:`fwwrules.ruling` the same question under both rulesets and finds
where the answers differ, each difference with the clause that makes it. The differences are
read off the two rulings' public data and the :class:`~fwwrules.rulesets.Ruleset` values, never
decided again here (:data:`DIFFERENCES`, one finder per clause, in the rulebook's order):

* ``cover.armor``: cover raises the target's armor by 1 (core) or gives one Armor Boost (vts);
* ``melee.ranged-weapon``: the same for a ranged weapon used in close combat;
* ``melee.super-mutant``: a Super Mutant's Melee skill value for a pistol or rifle (core only);
* ``melee.slide``: after a close combat attack the attacker may slide (core only); a slide
  itself (:func:`compare_slide`) is legal under the core rules only;
* ``melee.shoot-into``: +2 and the Armor die's numbers (core), −2 and the target always hit
  (vts).

A finder speaks only when the two rulesets differ in what it reads (``Ruleset`` attribute) and
the two answers show it: an attack that is not allowed under both has no armor to differ, a
Super Mutant whose weapon skill is higher than its Melee value does not use the rule, a
ranged attack has no slide, and a slide the core rules refuse too is refused alike. The same
table compares attacks (:func:`compare`) and slides (:func:`compare_slide`): the CLI and the
panels show the one list. So two rulings that agree have no differences:

>>> import fwwrules
>>> board = fwwrules.load(fwwrules.example_path("cover-example-1"))
>>> c = compare(board, "brute", "knight")
>>> [(d.clause, d.core, d.vts) for d in c.differences]
[('cover.armor', {'bonus': 1, 'boost': 0}, {'bonus': 0, 'boost': 1})]
>>> forest = fwwrules.load(fwwrules.example_path("cover-example-4"))
>>> compare(forest, "paladin", "mutant-1").differences
()
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .attack import ruling
from .catalogue import check_lang, render
from .data import Scenario
from .movement import SlideRuling, slide
from .pieces import Name
from .rulesets import CORE, VTS, Ruleset
from .rulings import MARKED_STYLE, AttackRuling, Reason
from .shot import Target

Ruling = AttackRuling | SlideRuling
"""What can be compared: an attack (:func:`compare`) or a slide (:func:`compare_slide`)."""


@dataclass(frozen=True, slots=True)
class Difference:
    """One point where the rulesets rule differently: the clause, each ruleset's value (as the
    JSON gives it) and the reason that tells it (the clause's ``compare`` message)."""

    clause: str
    core: Any
    vts: Any
    reason: Reason

    def text(self, lang: str = "en", labels: Mapping[str, Name] | None = None) -> str:
        return self.reason.text(lang, labels)

    def to_dict(self, lang: str = "en", labels: Mapping[str, Name] | None = None) -> dict[str, Any]:
        return {
            "clause": self.clause,
            "core": self.core,
            "vts": self.vts,
            "text": self.text(lang, labels),
        }


Finder = Callable[[Ruling, Ruling], "Difference | None"]


def _cites(r: Ruling, clause: str, key: str | None = None) -> bool:
    return any(x.clause == clause and (key is None or x.key == key) for x in r.reasons)


def _of_attacks(find: Callable[[AttackRuling, AttackRuling], Difference | None]) -> Finder:
    """A finder of what only attacks have (armor, skill, a shot into a melee): two slides
    have none of it."""

    def of_attacks(core: Ruling, vts: Ruling) -> Difference | None:
        if isinstance(core, AttackRuling) and isinstance(vts, AttackRuling):
            return find(core, vts)
        return None

    return of_attacks


def _armor(clause: str) -> Finder:
    """The target's armor, when ``clause`` gave it (``cover.armor``, ``melee.ranged-weapon``)."""

    def find(core: AttackRuling, vts: AttackRuling) -> Difference | None:
        if core.armor == vts.armor or not (_cites(core, clause) or _cites(vts, clause)):
            return None
        params = {
            "core": core.armor.bonus,
            "vts": vts.armor.boost,
            "target": core.target,
            "weapon": core.weapon,
        }
        return Difference(
            clause, core.armor.to_dict(), vts.armor.to_dict(), Reason(clause, "compare", params)
        )

    return _of_attacks(find)


def _super_mutant(core: AttackRuling, vts: AttackRuling) -> Difference | None:
    """``melee.super-mutant``: the skill value the core rules let a Super Mutant use."""
    clause = "melee.super-mutant"
    if not _cites(core, clause, "used") or core.skill == vts.skill:
        return None
    params = {
        "attacker": core.attacker,
        "core": core.skill.value,
        "vts": vts.skill.value,
        "icon": vts.skill.icon,
    }
    return Difference(
        clause,
        {"icon": core.skill.icon, "value": core.skill.value},
        {"icon": vts.skill.icon, "value": vts.skill.value},
        Reason(clause, "compare", params),
    )


def _slide(core: Ruling, vts: Ruling) -> Difference | None:
    """``melee.slide``: a close combat attack may be followed by a slide (core only); a slide
    the core rules allow, the Vault-Tec Simulator refuses."""
    if isinstance(core, SlideRuling) and isinstance(vts, SlideRuling):
        if not core.legal or vts.legal:
            return None
        who = core.model
    elif isinstance(core, AttackRuling) and isinstance(vts, AttackRuling):
        if core.kind != "melee" or not (core.allowed and vts.allowed):
            return None
        who = core.attacker
    else:
        return None
    clause = "melee.slide"
    return Difference(clause, CORE.slides, VTS.slides, Reason(clause, "compare", {"attacker": who}))


def _shoot_into(core: AttackRuling, vts: AttackRuling) -> Difference | None:
    """``melee.shoot-into``: the skill modifier, and whether the Armor die picks the model."""
    if core.into_melee is None or vts.into_melee is None or core.into_melee == vts.into_melee:
        return None
    clause = "melee.shoot-into"
    params = {
        "core": core.into_melee.modifier,
        "vts": vts.into_melee.modifier,
        "numbers": list(core.into_melee.numbers or ()),
        "target": core.target,
    }
    return Difference(
        clause,
        core.into_melee.to_dict(),
        vts.into_melee.to_dict(),
        Reason(clause, "compare", params),
    )


DIFFERENCES: tuple[tuple[str, Callable[[Ruleset], object], Finder], ...] = (
    ("cover.armor", lambda rs: rs.armor_step, _armor("cover.armor")),
    ("melee.ranged-weapon", lambda rs: rs.armor_step, _armor("melee.ranged-weapon")),
    ("melee.super-mutant", lambda rs: rs.super_mutant_melee, _of_attacks(_super_mutant)),
    ("melee.slide", lambda rs: rs.slides, _slide),
    (
        "melee.shoot-into",
        lambda rs: (rs.shoot_into_modifier, rs.shoot_into_numbers),
        _of_attacks(_shoot_into),
    ),
)
"""One finder per clause where the rulesets differ: ``(clause, what the ruleset says, finder)``.
A finder runs only when :data:`~fwwrules.rulesets.CORE` and :data:`~fwwrules.rulesets.VTS`
differ in what the ruleset says for its clause."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """The same attack (or slide) under the core rules and the Vault-Tec Simulator, and where
    they differ (``fwwrules ruling ... --compare``)."""

    core: Ruling
    vts: Ruling
    differences: tuple[Difference, ...]

    @property
    def labels(self) -> Mapping[str, Name]:
        """Name by id (one text, or one per language), as the rulings keep them."""
        return self.core.labels

    def headline(self, lang: str = "en") -> str:
        """How many differences there are, or that there are none."""
        if not self.differences:
            return render("compare/none", {}, lang)
        return render("compare/headline", {"n": len(self.differences)}, lang)

    def explain(self, lang: str = "en") -> str:
        """The differences first (each with its clause), then each ruling in full."""
        check_lang(lang)
        lines = [self.headline(lang)]
        lines += [f"  [{d.clause}] {d.text(lang, self.labels)}" for d in self.differences]
        for key, r in (("compare/core", self.core), ("compare/vts", self.vts)):
            lines += ["", render(key, {}, lang) + ":"]
            lines += ["  " + ln for ln in r.explain(lang).splitlines()]
        return "\n".join(lines)

    def html(self, lang: str = "en", *, close_call: bool = True) -> str:
        """The differences (highlighted, each with its clause id), then both rulings side by
        side (one above the other where they do not fit), their reasons that cite a clause of
        a difference highlighted too. Without ``close_call`` an attack's knife-edge sentence
        is left out (nothing of the margins is computed)."""
        check_lang(lang)
        items = "".join(
            f"<li><code>{html.escape(d.clause)}</code> {html.escape(d.text(lang, self.labels))}"
            "</li>"
            for d in self.differences
        )
        box = f' style="{MARKED_STYLE};padding:2px 8px"' if self.differences else ""
        marked = {d.clause for d in self.differences}
        cols = "".join(
            '<div style="flex:1 1 260px;min-width:0;overflow-wrap:anywhere">'
            f"<b>{html.escape(render(k, {}, lang))}</b>{_ruling_html(r, lang, marked, close_call)}"
            "</div>"
            for k, r in (("compare/core", self.core), ("compare/vts", self.vts))
        )
        return (
            f'<div class="fwwrules-compare"><div class="fwwrules-differences"{box}>'
            f"<p><b>{html.escape(self.headline(lang))}</b></p><ul>{items}</ul></div>"
            f'<div style="display:flex;flex-wrap:wrap;gap:12px">{cols}</div></div>'
        )

    def _repr_html_(self) -> str:
        return self.html("en")

    def __str__(self) -> str:
        return self.explain("en")

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """``{"core": {ruling}, "vts": {ruling}, "differences": [...]}``."""
        return {
            "core": self.core.to_dict(lang),
            "vts": self.vts.to_dict(lang),
            "differences": [d.to_dict(lang, self.labels) for d in self.differences],
        }


def _ruling_html(r: Ruling, lang: str, marked: set[str], close_call: bool) -> str:
    if isinstance(r, AttackRuling):
        return r.html(lang, close_call=close_call, marked=marked)
    return r.html(lang, marked=marked)


def differences(core: Ruling, vts: Ruling) -> tuple[Difference, ...]:
    """Where two rulings of one attack (or one slide), one per ruleset, differ
    (:data:`DIFFERENCES`)."""
    if (core.rules, vts.rules) != ("core", "vts"):
        raise ValueError(f"expected a core and a vts ruling, got {core.rules} and {vts.rules}")
    found = []
    for _clause, says, finder in DIFFERENCES:
        if says(CORE) == says(VTS):
            continue
        got = finder(core, vts)
        if got is not None:
            found.append(got)
    return tuple(found)


def compare(
    scenario: Scenario,
    attacker: str,
    target: Target,
    weapon: str | None = None,
    band: str | None = None,
    quick: bool = False,
    reacting_to_charge: bool = False,
    *,
    known: AttackRuling | None = None,
) -> Comparison:
    """The attack of :func:`fwwrules.ruling` under both rulesets, and where they differ (the
    arguments are :func:`fwwrules.ruling`'s, without ``rules``).

    ``known`` is this attack's ruling under one of the rulesets, already asked on this
    ``scenario`` with these arguments (a panel's own ruling): it stands for that ruleset and
    only the other one is asked. A ruling of another attacker, target (a model id; a point
    target is always asked again), weapon or reaction is not used.
    """

    def under(name: str) -> AttackRuling:
        if known is not None and _answers(known, name, attacker, target, weapon,
                                          reacting_to_charge):  # fmt: skip
            return known
        return ruling(
            scenario,
            attacker,
            target,
            weapon=weapon,
            rules=name,
            band=band,
            quick=quick,
            reacting_to_charge=reacting_to_charge,
        )

    core, vts = under("core"), under("vts")
    return Comparison(core, vts, differences(core, vts))


def _answers(
    known: AttackRuling,
    rules: str,
    attacker: str,
    target: Target,
    weapon: str | None,
    reacting_to_charge: bool,
) -> bool:
    """Whether ``known`` is the ruling :func:`compare` would ask for under ``rules``."""
    return (
        known.rules == rules
        and known.attacker == attacker
        and isinstance(target, str)
        and known.target == target
        and (weapon is None or known.weapon == weapon)
        and known.reacting_to_charge == reacting_to_charge
    )


def compare_slide(
    scenario: Scenario,
    model: str,
    to: tuple[float, float],
    *,
    known: SlideRuling | None = None,
) -> Comparison:
    """The slide of :func:`fwwrules.slide` (``model`` to ``to``, scenario units) under both
    rulesets, and where they differ (``melee.slide`` when the core rules allow it).

    ``known`` is this slide's ruling under one of the rulesets, already asked on this
    ``scenario`` (a panel's own): it stands for that ruleset and only the other one is asked
    (a slide of another model or to another point is not used)."""
    both = [
        known
        if known is not None
        and (known.rules, known.model, tuple(known.to)) == (name, model, tuple(to))
        else slide(scenario, model, to, rules=name)
        for name in ("core", "vts")
    ]
    return Comparison(both[0], both[1], differences(both[0], both[1]))
