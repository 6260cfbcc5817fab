"""Hypothesis properties of ranged rulings on random boards.

* ``ranged.los`` is symmetric for equal bases;
* rotating or translating the whole board, or writing it in inches, changes no ruling;
* a clear segment found by sampling the bases is never denied;
* adding a friendly Normal/Large model never changes the shooter's cover (``cover.models``).
"""

from __future__ import annotations

import math
from dataclasses import replace

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from transforms import moved

import fwwrules
from fwwrules.geometry import segment_clear
from fwwrules.los import obstacles
from fwwrules.placement import placement_problems
from fwwrules.scenario import MM_PER_INCH, Model, Scenario, Terrain, Weapon
from fwwrules.shot import build_shot

KINDS = ("blocking", "cover", "area", "dense-area", "scenery")
RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("green",)})
coord = st.floats(-250, 250, allow_nan=False)
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@st.composite
def boards(draw: st.DrawFn, equal_bases: bool = False) -> Scenario:
    pieces = []
    for i in range(draw(st.integers(0, 5))):
        cx, cy = draw(coord), draw(coord)
        w, h = draw(st.floats(5, 120)), draw(st.floats(5, 120))
        a = draw(st.floats(0, math.pi))
        ca, sa = math.cos(a), math.sin(a)
        pts = tuple(
            (cx + x * ca - y * sa, cy + x * sa + y * ca)
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
        )
        pieces.append(Terrain(f"t{i}", draw(st.sampled_from(KINDS)), pts))
    models: list[Model] = []
    sizes = st.just(32.0) if equal_bases else st.sampled_from((32.0, 40.0, 60.0))
    for i in range(draw(st.integers(2, 5))):
        base = draw(sizes)
        at = (draw(coord), draw(coord))
        for m in models:
            assume(math.dist(m.at, at) > (m.base + base) / 2 + 1)
        faction = "x" if i == 0 else draw(st.sampled_from(("x", "y", "z")))
        models.append(Model(f"m{i}", faction, base, at, skills={"rifle": 6}, weapons=("rifle",)))
    models[1] = replace(models[1], faction="y")
    board = Scenario(models=tuple(models), terrain=tuple(pieces), weapons=(RIFLE,))
    assume(not placement_problems(board))  # bases where the placement rule lets them stand
    return board


def summary(r: fwwrules.AttackRuling) -> tuple[object, ...]:
    dist = None if r.range is None else round(r.range.distance, 4)
    return (
        r.allowed,
        r.not_allowed,
        r.line_of_sight,
        sorted((c.source, c.clause) for c in r.cover),
        sorted((i.source, i.clause) for i in r.ignored),
        r.skill.to_dict(),
        r.armor,
        None if r.range is None else r.range.bands,
        dist,
    )


@SETTINGS
@given(boards(equal_bases=True))
def test_ranged_los_symmetric_for_equal_bases(s: Scenario) -> None:
    ab = fwwrules.ruling(s, "m0", "m1")
    # A fresh copy: the board memoises LoS per unordered pair, so the same board would
    # answer the return shot from the memo instead of searching again.
    ba = fwwrules.ruling(replace(s), "m1", "m0")
    assert ab.line_of_sight == ba.line_of_sight
    assert fwwrules.ruling(s, "m1", "m0").line_of_sight == ab.line_of_sight


@SETTINGS
@given(boards(), st.floats(0, 2 * math.pi), coord, coord)
def test_ranged_rulings_invariant_under_rotation_and_translation(
    s: Scenario, angle: float, dx: float, dy: float
) -> None:
    other = moved(s, angle, dx, dy)
    assert summary(fwwrules.ruling(s, "m0", "m1")) == summary(fwwrules.ruling(other, "m0", "m1"))


@SETTINGS
@given(boards())
def test_ranged_rulings_same_in_inches(s: Scenario) -> None:
    inches = replace(moved(s, 0.0, 0.0, 0.0, 1 / MM_PER_INCH), units="in")
    a, b = fwwrules.ruling(s, "m0", "m1"), fwwrules.ruling(inches, "m0", "m1")
    assert summary(a)[:-1] == summary(b)[:-1]
    if a.range is not None and b.range is not None:
        assert math.isclose(a.range.distance / MM_PER_INCH, b.range.distance, abs_tol=1e-6)


@SETTINGS
@given(boards())
def test_ranged_los_sampled_clear_segment_never_denied(s: Scenario) -> None:
    r = fwwrules.ruling(s, "m0", "m1")
    if r.line_of_sight:
        return
    shot = build_shot(s, "m0", "m1")
    obs, _ = obstacles(shot)
    a, b = shot.a, shot.b
    assert b is not None
    n = 16
    pts_a = [
        (
            a.x + f * a.r * math.cos(2 * math.pi * k / n),
            a.y + f * a.r * math.sin(2 * math.pi * k / n),
        )
        for k in range(n)
        for f in (1.0, 0.5)
    ]
    pts_b = [
        (
            b.x + f * b.r * math.cos(2 * math.pi * k / n),
            b.y + f * b.r * math.sin(2 * math.pi * k / n),
        )
        for k in range(n)
        for f in (1.0, 0.5)
    ]
    for p in pts_a:
        for q in pts_b:
            assert not segment_clear(p, q, obs), (p, q)


@SETTINGS
@given(boards(), coord, coord, st.sampled_from((32.0, 40.0)))
def test_cover_models_friendly_model_never_changes_shooters_cover(
    s: Scenario, x: float, y: float, base: float
) -> None:
    for m in s.models:
        assume(math.dist(m.at, (x, y)) > (m.base + base) / 2 + 1)
    friend = Model("friend", s.model("m0").faction, base, (x, y))
    more = replace(s, models=(*s.models, friend))
    assume(not placement_problems(more))
    before, after = fwwrules.ruling(s, "m0", "m1"), fwwrules.ruling(more, "m0", "m1")
    assert before.cover == after.cover and before.armor == after.armor
