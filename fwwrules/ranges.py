"""Range rulers and range bands (``ranged.range``, ``ranged.min-range``).

Distances are base edge to base edge, top-down. The short band reaches from the attacker's
base edge out to the short ruler's length; the long band is the next stretch, the long ruler
laid end to end after the short one. A weapon with a minimum range has a short band that
starts there.

Boundary cases
--------------
* A target is in a band if any part of its base lies in it, within the ruler tolerance (the
  contact tolerance, :mod:`fwwrules.thresholds`). A base whose nearest point is at most the
  tolerance beyond the short ruler's end is in the short band; it also reaches into the long
  band only if its farthest point lies more than the tolerance beyond that end.
* ``ranged.min-range``: a base lying wholly inside the minimum range (its farthest point
  short of it by more than the tolerance) is out of range; one that reaches the minimum
  range is in the short band.
* A board built with a distance exactly at a ruler's length (as rulebook examples are) gets
  the same answer however it is moved, rotated or written (mm or inches).
* A base in both bands lets the attacker choose (a :class:`~fwwrules.rulings.Choice`).
* Overlapping or touching bases are at distance 0 (short band, unless a minimum range).
* A weapon without a long band cannot reach past its short ruler.
"""

from __future__ import annotations

from dataclasses import dataclass

from .context import AttackContext
from .data import Scenario
from .pieces import Band, TargetKind, Weapon
from .rulings import NO_FACTS, NO_STEP, Choice, Facts, RangeInfo, Reason, Step
from .thresholds import within_ruler


def band_limits(scenario: Scenario, weapon: Weapon) -> tuple[float, float | None]:
    """Where the short and long bands end, in mm from the attacker's base edge.

    ``(short_end, long_end)``; ``long_end`` is ``None`` for a weapon without a long band, and
    ``(0, None)`` for a melee weapon.
    """
    if weapon.short is None:
        return (0.0, None)
    short_end = scenario.length_mm(weapon.short)
    if weapon.long is None:
        return (short_end, None)
    return (short_end, short_end + scenario.length_mm(weapon.long))


def min_range_mm(scenario: Scenario, weapon: Weapon) -> float:
    """The weapon's minimum range in mm (0 when it has none)."""
    return 0.0 if weapon.min_range is None else scenario.length_mm(weapon.min_range)


@dataclass(frozen=True, slots=True)
class RangeResult:
    """Edge-to-edge ``distance`` (mm), the bands the target reaches, the band used.

    ``refusal`` is the clause that puts the target out of range (``ranged.range`` or
    ``ranged.min-range``), ``None`` when it is in a band.
    """

    distance: float
    bands: tuple[Band, ...]
    band: Band | None
    choice: Choice | None
    reasons: tuple[Reason, ...]
    refusal: str | None = None

    def step(self, weapon: Weapon, facts: Facts = NO_FACTS) -> Step:
        """The common step contract: the band's effect dice of ``weapon``, the band choice,
        and the refusing clause when the target is in no band; ``facts`` what the ruling keeps
        of it."""
        dice: dict[str, int] = {}
        if self.band is not None:
            for colour in weapon.dice.get(self.band, ()):
                dice[colour] = dice.get(colour, 0) + 1
        refusals = (self.refusal or "ranged.range",) if self.band is None else ()
        choices = () if self.choice is None else (self.choice,)
        return Step(
            dice=dice, choices=choices, refusals=refusals, reasons=self.reasons, facts=facts
        )


def range_bands(
    scenario: Scenario,
    weapon: Weapon,
    nearest: float,
    farthest: float,
    *,
    band: Band | None = None,
    target_kind: TargetKind = "model",
) -> RangeResult:
    """``ranged.range``: which bands a target spans, given its nearest and farthest distance.

    ``nearest``/``farthest`` are the distances (mm) from the attacker's base edge to the
    nearest and farthest point of the target (a point target has ``nearest == farthest``).
    ``band`` is the attacker's choice when the target is in both bands; a band the target is
    not in is ignored with a reason. ``target_kind`` says what the distance is measured to
    (a model's base edge, a terrain piece, a point), for the reasons.

    >>> from fwwrules.scenario import Scenario, Weapon
    >>> s, w = Scenario(units="in"), Weapon("gun", "rifle", short="red", long="green")
    >>> range_bands(s, w, 6 * 25.4, 6 * 25.4 + 32).bands    # touching the red ruler's end
    ('short', 'long')
    >>> range_bands(s, w, 6 * 25.4, 6 * 25.4).bands         # a point exactly at the end
    ('short',)
    >>> range_bands(s, w, 14 * 25.4 + 0.5, 15 * 25.4).bands  # within the ruler tolerance
    ('long',)
    >>> range_bands(s, w, 14 * 25.4 + 0.6, 15 * 25.4).bands  # beyond red + green
    ()
    """
    short_end, long_end = band_limits(scenario, weapon)
    tol = scenario.ruler_tolerance_mm
    nearest = max(nearest, 0.0)
    min_end = min_range_mm(scenario, weapon)
    if min_end > 0 and not within_ruler(min_end, max(farthest, 0.0), tol):
        # ranged.min-range: the whole base lies inside the minimum range
        values = {
            "weapon": weapon.id,
            "min_range": scenario.from_mm(min_end),
            "farthest": scenario.from_mm(max(farthest, 0.0)),
            "units": scenario.units,
        }
        reason = Reason("ranged.min-range", "inside", values)
        return RangeResult(nearest, (), None, None, (reason,), "ranged.min-range")
    bands: list[Band] = []
    if within_ruler(nearest, short_end, tol):
        bands.append("short")
    if (
        long_end is not None
        and within_ruler(nearest, long_end, tol)
        and not within_ruler(farthest, short_end, tol)
    ):
        bands.append("long")
    reasons: list[Reason] = []
    if min_end > 0:
        values = {"min_range": scenario.from_mm(min_end), "units": scenario.units}
        reasons.append(Reason("ranged.min-range", "reaches", values))
    return _banded(scenario, nearest, (short_end, long_end), bands, band, target_kind, reasons)


def _banded(
    scenario: Scenario,
    nearest: float,
    ends: tuple[float, float | None],
    bands: list[Band],
    band: Band | None,
    target_kind: TargetKind,
    reasons: list[Reason],
) -> RangeResult:
    """``ranged.range``: the band used among ``bands`` (the attacker's choice of two), or out
    of range; the reasons say which, with the distance and the bands' ends."""
    short_end, long_end = ends
    values = {
        "distance": scenario.from_mm(nearest),
        "units": scenario.units,
        "short": scenario.from_mm(short_end),
        "long": None if long_end is None else scenario.from_mm(long_end),
        "measure": f"edge-to-{target_kind}",
    }
    choice = None
    chosen: Band
    if not bands:
        key = "out" if long_end is not None else "out-short-only"
        reasons.append(Reason("ranged.range", key, values))
        return RangeResult(nearest, (), None, None, tuple(reasons), "ranged.range")
    if len(bands) == 2:
        chosen = band if band in bands and band is not None else "short"
        choice = Choice("band", "ranged.range", tuple(bands), chosen)
        reasons.append(Reason("ranged.range", "both", {**values, "band": chosen}))
    else:
        chosen = bands[0]
        reasons.append(Reason("ranged.range", "in", {**values, "band": chosen}))
    if band is not None and band not in bands:
        reasons.append(Reason("ranged.range", "band-unavailable", {"band": band}))
    return RangeResult(nearest, tuple(bands), chosen, choice, tuple(reasons))


def ranges_step(ctx: AttackContext) -> Step:
    """``ranged.range`` for one attack: the band's dice, the choice, the refusal, and the range
    facts the ruling keeps (``facts.range``, in scenario units). A weapon without a short band
    (melee) gives an empty step."""
    weapon, scenario, shot = ctx.weapon, ctx.scenario, ctx.shot
    if weapon.type == "melee" or weapon.short is None:
        return NO_STEP
    near, far = shot.target_distances()
    rng = range_bands(scenario, weapon, near, far, band=ctx.band, target_kind=shot.target_type)
    info = RangeInfo(scenario.from_mm(max(rng.distance, 0.0)), rng.bands, rng.band)
    return rng.step(weapon, Facts(range=info))
