"""Where a rule keeps two bodies, a scalar form (one ruling) and a vector form (the threat map,
many positions at once), both run on the same random inputs here and must agree everywhere.

The families whose vector form is the scalar one's own body (the scalar verdict is the one- or
0-d case) need no such test; docs/ARCHITECTURE.md ("How to add a rule") lists which is which.
Cover rules, line of sight blockers and what the Line of Cover meets are compared cell by cell
through the whole threat map (tests/test_threat_map.py); the placement rule through
``check``, the ruling, the threat map and a drag (tests/test_placement_rule.py). This file
compares the base contact of ``melee.engaged`` directly: ``engagement.in_contact`` (two models
of a scenario) and ``engagement.in_contact_v`` (a base at many centres and elevations); and the
terrain polygon checks of a whole board at once against one polygon at a time (the validity
verdict has a vector body of its own; the thin-feature check of many polygons lays their corners
side by side).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from test_threat_map import random_board

from fwwrules import Model
from fwwrules.checks import (
    _polygon_problems,
    _polygons_problems,
    _thin_polygon_problems,
    _thin_polygons_problems,
)
from fwwrules.engagement import in_contact, in_contact_v


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 30), data=st.data())
def test_melee_engaged_contact_scalar_and_vector_agree(seed: int, data: st.DataObject) -> None:
    scn = random_board(seed)
    other = data.draw(st.sampled_from(scn.models), label="other")
    base = data.draw(st.sampled_from((25.0, 32.0, 40.0, 60.0)), label="base")
    board = scn.board
    tol, orange, rtol = board.contact_tolerance, scn.ruler_mm("orange"), scn.ruler_tolerance_mm
    # gaps at and around the contact tolerance, elevations at and around Orange apart
    gaps = [0.0, tol, -tol, math.nextafter(tol, math.inf), tol + 1e-6, 0.3, -0.3, 2.0]
    gap = data.draw(st.sampled_from(gaps) | st.floats(-2 * tol, 3 * tol), label="gap")
    levels = [0.0, orange, orange - rtol, orange - rtol - 1e-6, orange + rtol, 2 * orange]
    mine = other.elevation * scn.unit_mm
    diff = data.draw(st.sampled_from(levels) | st.floats(0, 2 * orange), label="diff")
    elevation_mm = max(0.0, mine + data.draw(st.sampled_from((1.0, -1.0))) * diff)
    angle = data.draw(st.floats(0, 2 * math.pi), label="angle")
    d = other.base / 2 + base / 2 + gap
    cx, cy = (v * scn.unit_mm for v in other.at)
    x, y = cx + d * math.cos(angle), cy + d * math.sin(angle)
    u = scn.unit_mm
    probe = Model("probe", "probe-side", base, (x / u, y / u), elevation=elevation_mm / u)
    scalar = in_contact(replace(scn, models=(*scn.models, probe)), "probe", other.id)
    _, touch = in_contact_v(
        scn, other.id, np.array([x]), np.array([y]), base / 2, np.array([elevation_mm])
    )
    assert bool(touch[0]) == scalar, (seed, other.id, gap, elevation_mm)


_QUARTERS = st.integers(0, 48).map(lambda v: v / 4)  # features at and around 1 mm, exactly
_CORNERS = st.lists(st.tuples(_QUARTERS, _QUARTERS), min_size=1, max_size=9)


@settings(max_examples=300, deadline=None)
@given(polygons=st.lists(_CORNERS, min_size=1, max_size=6), unit=st.sampled_from((1.0, 25.4)))
def test_polygon_checks_of_many_and_of_one_agree(
    polygons: list[list[tuple[float, float]]], unit: float
) -> None:
    paths = [("terrain", k, "polygon") for k in range(len(polygons))]
    one = [_polygon_problems(c, p) for c, p in zip(polygons, paths, strict=True)]
    assert _polygons_problems(polygons, paths) == one
    simple = [k for k, found in enumerate(one) if not found]
    many = _thin_polygons_problems([polygons[k] for k in simple], unit, [paths[k] for k in simple])
    each = [_thin_polygon_problems(polygons[k], unit, paths[k]) for k in simple]
    assert many == each
