"""Threat map: what the enemy can do to a model standing at each position of the board.

:func:`threat_map` places a model of one side (its base given) at every position of a grid,
or at given positions, and asks for each enemy model what :func:`fwwrules.ruling` says about
an attack on it: allowed or not (and the first clause that refuses it), the total skill
modifier and whether cover applies. Summary layers count the shooters that can attack, those
that can attack without cover, and the best modifier among them.

Every cell equals what :func:`fwwrules.ruling` says for a model of that base and side
standing there (``tests/test_threat_map.py`` checks random boards, random positions and
boundary positions against it). Most cells are decided by a vectorised fast path, per
shooter: the same rule tables as a ruling in their vector forms (the line-of-sight blockers
of :mod:`fwwrules.los`, the cover rules of :mod:`fwwrules.cover`); every cell the fast path
cannot decide with a margin of :data:`~fwwrules.constants.THREAT_SURE_MARGIN_MM` from every
boundary, or whose rules have no vector form, is decided by :func:`fwwrules.ruling` itself,
on the scenario with the target model added.

The package, by job: :mod:`.positions` (the grid, standing, placing), :mod:`.shooter` (one
shooter's layer), :mod:`.sight` (line-of-sight proofs), :mod:`.compute` (orchestration, the
exact path, what a move changes), :mod:`.map` (the result and :func:`threat_map`),
:mod:`.document` (the JSON and its schema, one typed model) and :mod:`.text` (title and
summary from the catalogue). The vector kernels live in the geometry layer
(:mod:`fwwrules.kernels`, :mod:`fwwrules.convex`).
"""

from __future__ import annotations

from .compute import Query, with_model
from .document import THREAT_FORMAT, ThreatDocument, json_schema
from .map import ThreatCell, ThreatMap, threat_map
from .positions import DEFAULT_BASE_MM, DEFAULT_STEP_MM, default_area, sides_of
from .shooter import NO_REASON, choose, weapon_indices
from .text import summary_text, title

__all__ = [
    "DEFAULT_BASE_MM",
    "DEFAULT_STEP_MM",
    "NO_REASON",
    "THREAT_FORMAT",
    "Query",
    "ThreatCell",
    "ThreatDocument",
    "ThreatMap",
    "choose",
    "default_area",
    "json_schema",
    "sides_of",
    "summary_text",
    "threat_map",
    "title",
    "weapon_indices",
    "with_model",
]
