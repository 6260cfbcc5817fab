"""The threat map in words: its title and the summary ``fwwrules threat`` prints, English or
German, from the catalogue (``threat/`` in :data:`~fwwrules.catalogue.UI_TEXT`); lengths
through the catalogue's one length formatter."""

from __future__ import annotations

from ..catalogue import check_lang, length, side_name, ui_text
from .map import ThreatMap


def _base(result: ThreatMap, lang: str) -> str:
    """The target's base as bases are sized: in mm (``32 mm``), whatever the board's units."""
    return length(result.base * result.scenario.unit_mm, "mm", lang, inches=False)


def title(result: ThreatMap, lang: str = "en") -> str:
    """The map's title: the target's base and side (``Threat map for a 32 mm base of side
    Vault``; the side named as the legend names it, :func:`fwwrules.catalogue.side_name`)."""
    check_lang(lang)
    side = side_name(result.side, lang)
    return ui_text("threat/title", lang).format(base=_base(result, lang), side=side)


def step_text(result: ThreatMap, lang: str = "en") -> str | None:
    """The grid step the map used, in the board's units (``Grid step: 0.25″, the
    default.``), saying so where the default grew to keep the map within its limits of
    positions and time (:attr:`~fwwrules.threat.ThreatMap.step_default`); ``None`` for a map
    of given positions."""
    check_lang(lang)
    if result.step is None:
        return None
    units = result.scenario.units
    step = length(result.step, units, lang)
    default = result.step_default
    if default is None:
        return ui_text("threat/summary-step", lang).format(step=step)
    if result.step <= default * (1 + 1e-9):
        return ui_text("threat/summary-step-default", lang).format(step=step)
    return ui_text("threat/summary-step-widened", lang).format(
        step=step, default=length(default, units, lang)
    )


def weapon_text(result: ThreatMap, lang: str = "en") -> str | None:
    """Which shooters carry the weapon asked for (``--weapon``), ``None`` for each shooter's
    best weapon. A decision (the module :mod:`fwwrules.threat.map`'s definitions): shooters
    carrying it are judged with it alone, the others keep their best weapon, so the map stays
    a map of every enemy model; this line says who carries it, and that none does (``Weapon
    laser-rifle: no enemy shooter carries it, so each uses its best weapon.``)."""
    check_lang(lang)
    weapon = result.weapon_choice
    if weapon == "best":
        return None
    scenario = result.scenario
    carriers = [
        sid
        for sid in result.shooters
        if any(w.id == weapon for w in scenario.weapons_of(scenario.model(sid)))
    ]
    if not carriers:
        key = "threat/summary-weapon-none"
    elif len(carriers) == len(result.shooters):
        key = "threat/summary-weapon-all"
    else:
        key = "threat/summary-weapon"
    return ui_text(key, lang).format(weapon=weapon, carriers=", ".join(carriers))


def summary_text(result: ThreatMap, lang: str = "en") -> str:
    """A few lines for ``fwwrules threat`` without ``--json`` (English or German)."""
    check_lang(lang)
    att = result.attackers[result.placeable]

    def count(label: str, n: int) -> str:
        return ui_text("threat/summary-count", lang).format(label=label, count=n)

    lines = [
        ui_text("threat/summary", lang).format(
            base=_base(result, lang),
            side=result.side,
            rules=result.rules,
            n=len(result.positions),
            placeable=int(result.placeable.sum()),
            k=len(result.shooters),
            shooters=", ".join(result.shooters) or "-",
        ),
        *filter(None, [step_text(result, lang), weapon_text(result, lang)]),
        count(ui_text("threat/summary-safe", lang), int((att == 0).sum())),
    ]
    for n in range(1, int(att.max(initial=0)) + 1):
        by = ui_text("threat/summary-by", lang).format(n=n)
        lines.append(count(by, int((att == n).sum())))
    unc = result.uncovered[result.placeable]
    lines.append(count(ui_text("threat/summary-uncovered", lang), int((unc > 0).sum())))
    lines.append(ui_text("threat/summary-exact", lang).format(**result.stats))
    return "\n".join(lines)
