"""Engagement (``melee.engaged``, ``melee.outnumbered``): who is in base contact with whom.

Boundary cases
--------------
* Contact: two bases are in contact when their gap is at most the contact tolerance
  (``scenario.board.contact_tolerance``, default 0.5 mm). A gap of exactly the tolerance is
  contact; so is any overlap the scenario allows (at most the tolerance). The comparison
  allows :data:`~fwwrules.constants.LENGTH_EPSILON_MM` more for floating-point rounding, so a
  rotated or translated board keeps its contacts.
* Levels: models whose elevations differ by the Orange ruler or more (less the ruler
  tolerance, the same predicate as ``elevation.elevated``) stand on different levels
  and are never in contact, whatever their footprints do (a model on a roof is not engaged
  with one in the street below). Smaller differences are the same level.
* Only opposing models (enemy or neutral, :meth:`Scenario.opposing`) engage; friendly bases in
  contact are just touching.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import numpy as np
from numpy.typing import NDArray

from .board import Disc, ModelGeometry
from .cache import Key, Moved
from .data import Scenario
from .pieces import Model
from .thresholds import contact_reach, levels_apart
from .thresholds import touching as gap_touches

Array = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def same_level(scenario: Scenario, a: Model, b: Model) -> bool:
    """True when two models stand on one level: elevations differ by less than Orange.

    A difference of Orange (less the ruler tolerance, :mod:`fwwrules.thresholds`) or more is
    another level (``elevation.elevated`` makes
    such a model Elevated), so the two are never in base contact.
    """
    ga, gb = scenario.board.models[a.id], scenario.board.models[b.id]
    return not levels_apart(
        abs(ga.elevation - gb.elevation), scenario.ruler_mm("orange"), scenario.ruler_tolerance_mm
    )


def touching(scenario: Scenario, a: Disc, b: Disc) -> bool:
    """Two bases in contact: gap at most the contact tolerance (rounding allowed)."""
    return gap_touches(a.gap(b), scenario.board.contact_tolerance)


def in_contact_v(
    scenario: Scenario, model_id: str, px: Array, py: Array, r: float, elevation_mm: Array
) -> tuple[Array, BoolArray]:
    """Base contact with ``model_id`` for a base of radius ``r`` (mm) at many centres
    ``(px, py)`` standing at ``elevation_mm``: the gaps (mm, edge to edge) and where the two
    are in contact (one level, gap at most the contact tolerance), as :func:`in_contact`
    decides it for one pair."""
    mg = scenario.board.models[model_id]
    gap = np.hypot(px - mg.disc.x, py - mg.disc.y) - mg.disc.r - r
    apart = levels_apart(
        np.abs(elevation_mm - mg.elevation),
        scenario.ruler_mm("orange"),
        scenario.ruler_tolerance_mm,
    )
    return gap, np.asarray(~apart & gap_touches(gap, scenario.board.contact_tolerance))


def in_contact(scenario: Scenario, a_id: str, b_id: str) -> bool:
    """Base contact between two models (any sides): same level and gap at most the tolerance.

    A model is not in contact with itself.
    """
    if a_id == b_id:
        return False
    a, b = scenario.model(a_id), scenario.model(b_id)
    if not same_level(scenario, a, b):
        return False
    return touching(scenario, scenario.board.models[a_id].disc, scenario.board.models[b_id].disc)


def contacts(scenario: Scenario, model_id: str) -> tuple[str, ...]:
    """Every model in base contact with ``model_id``, friend or foe, in file order."""
    scenario.model(model_id)
    return tuple(m.id for m in scenario.models if in_contact(scenario, model_id, m.id))


def engagements(scenario: Scenario) -> Mapping[str, tuple[str, ...]]:
    """``melee.engaged``: for every model id, the opposing models it is engaged with.

    Engaged means in base contact (:func:`in_contact`) with an opposing model (enemy or
    neutral). Every model id is a key (an empty tuple when it is not engaged); the ids follow
    the file order. The relation is symmetric.

    Boundary cases: a gap of exactly the contact tolerance engages; a gap a hair above it does
    not; models an Orange ruler or more apart in elevation never engage.

    >>> from fwwrules.data import Model, Scenario
    >>> a, b = Model("a", "x", 32, (0, 0)), Model("b", "y", 32, (32.5, 0))  # gap 0.5 mm
    >>> engagements(Scenario(models=(a, b)))["a"]
    ('b',)
    >>> engagements(Scenario(models=(a, Model("b", "y", 32, (32.51, 0)))))["a"]
    ()
    >>> engagements(Scenario(models=(a, Model("b", "x", 32, (32, 0)))))["a"]  # a friend
    ()

    The graph is computed once per scenario and kept in its cache (:data:`ENGAGEMENTS`); a
    scenario whose models moved recomputes only the pairs with a moved model.
    """
    d = scenario.derived
    graph = d.get(ENGAGEMENTS)
    if graph is None:
        graph = d.put(ENGAGEMENTS, MappingProxyType(_engagement_graph(scenario)))
    return graph


def _engage(scenario: Scenario, a: Model, ga: ModelGeometry, b: Model, gb: ModelGeometry) -> bool:
    """``melee.engaged`` for one pair: same level, opposing, bases in contact."""
    orange = scenario.ruler_mm("orange")
    if levels_apart(abs(ga.elevation - gb.elevation), orange, scenario.ruler_tolerance_mm):
        return False
    return scenario.opposing(a, b) and touching(scenario, ga.disc, gb.disc)


def _engagement_graph(
    scenario: Scenario,
    old: Mapping[str, tuple[str, ...]] | None = None,
    changed: frozenset[str] = frozenset(),
) -> dict[str, tuple[str, ...]]:
    """The engagement graph; with ``old`` (the graph before the ``changed`` models moved or
    were added) only the pairs with a changed model are looked at again: the others keep
    what ``old`` says of them."""
    models = scenario.models
    out: dict[str, list[str]] = {m.id: [] for m in models}
    geo = scenario.board.models
    rows = None
    if old is not None:
        for a_id, others in old.items():
            if a_id in out and a_id not in changed:
                out[a_id] += [b for b in others if b in out and b not in changed]
        rows = [k for k, m in enumerate(models) if m.id in changed]
    for i, j in _close_pairs(scenario, rows):
        a, b = models[i], models[j]
        if _engage(scenario, a, geo[a.id], b, geo[b.id]):
            out[a.id].append(b.id)
            out[b.id].append(a.id)
    order = {m.id: k for k, m in enumerate(models)}
    return {k: tuple(sorted(v, key=order.__getitem__)) for k, v in out.items()}


CLOSE_SLACK_MM = 1.0
"""How much farther apart than the contact tolerance two bases may be and still have their
contact decided one by one (:func:`_close_pairs`): any pair farther apart is not in
contact, whatever the rounding."""


def _close_pairs(scenario: Scenario, rows: list[int] | None = None) -> list[tuple[int, int]]:
    """The pairs ``(i, j)``, ``i < j``, of models (file order) whose bases lie within the
    contact tolerance plus :data:`CLOSE_SLACK_MM` of each other: the only pairs that can be
    in contact, found at once (numpy) instead of deciding every pair of a crowded board.
    With ``rows``, only the pairs with one of those models (a moved board's moved models)."""
    import numpy as np

    geo = scenario.board.models
    discs = [geo[m.id].disc for m in scenario.models]
    if len(discs) < 2 or rows == []:
        return []
    x = np.array([d.x for d in discs])
    y = np.array([d.y for d in discs])
    r = np.array([d.r for d in discs])
    reach = contact_reach(scenario.board.contact_tolerance) + CLOSE_SLACK_MM
    if rows is None:
        gap = np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) - r[:, None] - r[None, :]
        ii, jj = np.nonzero(np.triu(gap <= reach, k=1))
        return list(zip(ii.tolist(), jj.tolist(), strict=True))
    at = np.asarray(rows)
    gap = np.hypot(x[at, None] - x[None, :], y[at, None] - y[None, :]) - r[at, None] - r[None, :]
    out: set[tuple[int, int]] = set()
    for k, j in zip(*np.nonzero(gap <= reach), strict=True):
        i, j = int(at[k]), int(j)
        if i != j:
            out.add((min(i, j), max(i, j)))
    return sorted(out)


def _carry_engagements(
    old: Mapping[str, tuple[str, ...]], moved: Moved
) -> Mapping[str, tuple[str, ...]]:
    return MappingProxyType(_engagement_graph(moved.new, old, moved.ids))


ENGAGEMENTS: Key[Mapping[str, tuple[str, ...]]] = Key(
    "engagements", terrain_only=False, carry=_carry_engagements
)
"""The engagement graph (:func:`engagements`)."""


def is_engaged(scenario: Scenario, model_id: str) -> bool:
    """True when the model is engaged with at least one opposing model."""
    scenario.model(model_id)
    return bool(engagements(scenario)[model_id])


def is_outnumbered(scenario: Scenario, model_id: str) -> bool:
    """``melee.outnumbered``: engaged with more than one opposing model.

    Engaged with exactly one: not outnumbered. A model that is not a model id (a terrain target
    or a point) is never outnumbered.
    """
    return len(engagements(scenario).get(model_id, ())) > 1
