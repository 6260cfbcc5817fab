"""How close is the call (``fwwrules.margins``): margins worked out by hand.

Each board is also checked rotated and shifted, mirrored, and written in inches: the margin in
mm is the same, its distance scales with the file's unit, and its direction turns (or flips)
with the board.

* a target straddling the Red ruler's end: moving apart, the short band is lost after the
  band end's distance (how far the base's near point lies inside it) plus the ruler tolerance;
  moving together, the long band is lost after the far point's distance past the end less the
  tolerance; either model, each along the line of centres;
* a base contact: it breaks after the contact tolerance minus the gap;
* a line of sight through a gap between two blocks: it closes after the distance to the line
  through the gap's far corner tangent to the other base (the edge of the block's shadow) plus
  the moving base's radius;
* a shot in the open: nothing changes within the search radius.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

import pytest
from fresh_interpreter import printed
from transforms import moved

import fwwrules
from fwwrules import Model, Rect, Scenario, Terrain, Weapon
from fwwrules.closeness import Margin
from fwwrules.constants import (
    KNIFE_EDGE_MM,
    LENGTH_EPSILON_MM,
    MARGIN_PROBE_MM,
    MARGIN_RADIUS_MM,
)
from fwwrules.placement import move_model
from fwwrules.scenario import Circle, Shape

RED = 6 * 25.4
TOL = 0.5
Transform = Callable[[Scenario], Scenario]
Vec = tuple[float, float]


def _mirrored(s: Scenario) -> Scenario:
    """The board reflected in the y axis (x -> -x)."""

    def pt(p: Vec) -> Vec:
        return (-p[0], p[1])

    def shape(sh: Shape) -> Shape:
        if isinstance(sh, Rect):
            return Rect(pt(sh.at), sh.size, -sh.angle)
        if isinstance(sh, Circle):
            return Circle(pt(sh.at), sh.diameter)
        return tuple(pt(p) for p in sh)

    models = tuple(replace(m, at=pt(m.at)) for m in s.models)
    terrain = tuple(replace(t, shape=shape(t.shape)) for t in s.terrain)
    return replace(s, models=models, terrain=terrain)


ANGLE = 0.7
TRANSFORMS: dict[str, tuple[Transform, Callable[[Vec], Vec], float]] = {
    "as-built": (lambda s: s, lambda v: v, 1.0),
    "rotated": (
        lambda s: moved(s, ANGLE, 40.0, -25.0),
        lambda v: (
            v[0] * math.cos(ANGLE) - v[1] * math.sin(ANGLE),
            v[0] * math.sin(ANGLE) + v[1] * math.cos(ANGLE),
        ),
        1.0,
    ),
    "mirrored": (_mirrored, lambda v: (-v[0], v[1]), 1.0),
    "inches": (lambda s: replace(moved(s, 0.0, 0.0, 0.0, 1 / 25.4), units="in"), lambda v: v, 25.4),
}


def _same_way(got: Vec | None, want: Vec) -> None:
    assert got is not None
    assert got[0] == pytest.approx(want[0], abs=1e-9) and got[1] == pytest.approx(want[1], abs=1e-9)


def _rifle(short: str = "red", long: str | None = "green") -> Weapon:
    return Weapon("rifle", "rifle", short=short, long=long, dice={"short": ("green",)})


def straddling_red(inside: float) -> Scenario:
    """Attacker at the origin, the target's base (32 mm) reaching ``inside`` mm into the Red
    ruler's end along +x (its near point inside the short band, its far point beyond)."""
    a = Model("a", "us", 32.0, (0.0, 0.0), skills={"rifle": 6}, weapons=("rifle",))
    t = Model("t", "them", 32.0, (16.0 + RED - inside + 16.0, 0.0))
    return Scenario(models=(a, t), weapons=(_rifle(),))


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_band_end_straddling_red_is_its_distance_plus_the_ruler_tolerance(how: str) -> None:
    make, turn, unit = TRANSFORMS[how]
    inside = 3.0
    r = fwwrules.ruling(make(straddling_red(inside)), "a", "t")
    assert r.range is not None and r.range.bands == ("short", "long")
    for model, away in (("t", (1.0, 0.0)), ("a", (-1.0, 0.0))):
        m = r.margins_of(model)
        assert m is not None
        # moving apart: the near point leaves Red after inside + the ruler tolerance
        assert m.smallest.mm == pytest.approx(inside + TOL, abs=1e-9)
        assert m.smallest.model == model
        _same_way(m.smallest.direction, turn(away))
        assert m.smallest.changes == ("ranged.range",)
        assert m.to_dict()["margin"]["distance"] == pytest.approx((inside + TOL) / unit, abs=1e-6)
        bands = {f.params["band"]: f for f in m.decisions if f.decision == "band"}
        assert bands["short"].mm == pytest.approx(inside + TOL, abs=1e-9)
        assert bands["short"].change == "band-leaves"
        # moving together: the far point comes back within Red + tolerance: long is lost
        assert bands["long"].mm == pytest.approx((32.0 - inside) - TOL, abs=1e-9)
        _same_way(bands["long"].direction, turn((-away[0], -away[1])))
        assert bands["long"].method == "exact"


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_band_end_reached_from_outside(how: str) -> None:
    """A base 2 mm short of reaching Red's end plus the tolerance enters the short band after
    exactly those 2 mm toward the attacker (the end is inclusive)."""
    make, turn, _ = TRANSFORMS[how]
    s = straddling_red(-(TOL + 2.0))  # near point 2.5 mm beyond the end
    r = fwwrules.ruling(make(s), "a", "t")
    assert r.range is not None and r.range.bands == ("long",)
    m = r.margins_of("t")
    assert m is not None
    assert m.smallest.mm == pytest.approx(2.0, abs=1e-9)
    _same_way(m.smallest.direction, turn((-1.0, 0.0)))
    assert [f.change for f in m.smallest.flips] == ["band-enters"]


def contact(gap: float) -> Scenario:
    """Two enemy bases (32 and 40 mm) ``gap`` mm apart along +x, in contact."""
    a = Model("a", "us", 32.0, (0.0, 0.0), skills={"melee": 6})
    t = Model("t", "them", 40.0, (16.0 + 20.0 + gap, 0.0))
    return Scenario(models=(a, t))


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_contact_is_the_tolerance_minus_the_gap(how: str) -> None:
    make, turn, unit = TRANSFORMS[how]
    gap = 0.2
    r = fwwrules.ruling(make(contact(gap)), "a", "t")
    assert r.kind == "melee" and r.allowed
    m = r.margins
    assert m is not None
    assert m.smallest.mm == pytest.approx(TOL - gap, abs=1e-9)
    assert m.smallest.changes == ("melee.engaged",)
    assert m.smallest.knife_edge
    for model, away in (("a", (-1.0, 0.0)), ("t", (1.0, 0.0))):
        mine = r.margins_of(model)
        assert mine is not None
        assert mine.smallest.mm == pytest.approx(TOL - gap, abs=1e-9)
        _same_way(mine.smallest.direction, turn(away))
        contacts = [f for f in mine.decisions if f.decision == "contact"]
        assert [(f.source.name if f.source else None, f.change) for f in contacts] == [
            ("t" if model == "a" else "a", "contact-breaks")
        ]
    assert m.to_dict()["margin"]["distance"] == pytest.approx((TOL - gap) / unit, abs=1e-6)


def gap_between_blocks() -> Scenario:
    """Two blocking pieces (x 100..120) leave a gap from y = -5 to 5; the attacker (0, 0) sees
    the target (180, 0) only through it. Rulers long enough that no band end is near."""
    a = Model("a", "us", 32.0, (0.0, 0.0), skills={"rifle": 6}, weapons=("rifle",))
    t = Model("t", "them", 32.0, (180.0, 0.0))
    top = Terrain("top", "blocking", Rect((110.0, 55.0), (20.0, 100.0)))
    bottom = Terrain("bottom", "blocking", Rect((110.0, -55.0), (20.0, 100.0)))
    return Scenario(models=(a, t), terrain=(top, bottom), weapons=(_rifle("blue", "black"),))


def _shadow_edge(corner: Vec, centre: Vec, r: float, below: bool) -> tuple[Vec, Vec]:
    """The line through ``corner`` tangent to the circle ``(centre, r)`` on its lower (or upper)
    side, worked out with plain trigonometry: a point on it and its unit direction."""
    dx, dy = corner[0] - centre[0], corner[1] - centre[1]
    dist = math.hypot(dx, dy)
    turn = math.acos(r / dist) * (-1.0 if below else 1.0)
    ang = math.atan2(dy, dx) + turn
    touch = (centre[0] + r * math.cos(ang), centre[1] + r * math.sin(ang))
    ux, uy = corner[0] - touch[0], corner[1] - touch[1]
    n = math.hypot(ux, uy)
    return touch, (ux / n, uy / n)


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_los_through_a_gap_is_the_tangent_distance(how: str) -> None:
    make, turn, _ = TRANSFORMS[how]
    r = fwwrules.ruling(make(gap_between_blocks()), "a", "t")
    assert r.line_of_sight
    # The target loses sight when its base is wholly beyond the line through the gap's far
    # upper corner (120, 5) that touches the attacker's base from below (or the mirror image).
    touch, way = _shadow_edge((120.0, 5.0), (0.0, 0.0), 16.0, below=True)
    normal = (-way[1], way[0])
    edge_normal = normal
    off = (180.0 - touch[0]) * normal[0] + (0.0 - touch[1]) * normal[1]
    want = abs(off) + 16.0
    m = r.margins_of("t")
    assert m is not None
    los = next(f for f in m.decisions if f.decision == "los")
    assert los.mm == pytest.approx(want, abs=1e-6)
    assert los.change == "los-closes" and los.method == "exact"
    assert los.at is not None
    # and the attacker, against the target's base, through the gap's corner (100, 5)
    touch, way = _shadow_edge((100.0, 5.0), (180.0, 0.0), 16.0, below=False)
    normal = (-way[1], way[0])
    want_a = abs((0.0 - touch[0]) * normal[0] + (0.0 - touch[1]) * normal[1]) + 16.0
    ma = r.margins_of("a")
    assert ma is not None
    los_a = next(f for f in ma.decisions if f.decision == "los")
    assert los_a.mm == pytest.approx(want_a, abs=1e-6)
    # the direction is perpendicular to the shadow's edge (the upper block's, or by symmetry
    # the lower one's), away from the gap
    assert los.direction is not None
    edges = [turn(edge_normal), turn((edge_normal[0], -edge_normal[1]))]
    best = max(abs(los.direction[0] * n[0] + los.direction[1] * n[1]) for n in edges)
    assert best == pytest.approx(1.0, abs=1e-6)


def open_shot() -> Scenario:
    """Two models 300 mm apart on an empty table with Red/Green: the band ends lie far away."""
    a = Model("a", "us", 32.0, (0.0, 0.0), skills={"rifle": 6}, weapons=("rifle",))
    t = Model("t", "them", 32.0, (300.0, 0.0))
    return Scenario(models=(a, t), weapons=(_rifle(),))


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_none_within_the_search_radius(how: str) -> None:
    make, _, _ = TRANSFORMS[how]
    r = fwwrules.ruling(make(open_shot()), "a", "t")
    m = r.margins
    assert m is not None and m.complete
    assert m.smallest.mm is None and m.smallest.model is None and m.smallest.changes == ()
    assert m.to_dict()["margin"] == {
        "mm": None,
        "distance": None,
        "model": None,
        "direction": None,
        "at": None,
        "changes": [],
        "knife_edge": False,
        "method": "exact",
        "precision_mm": 0.0,
        "measured": True,
    }
    assert m.radius_mm == MARGIN_RADIUS_MM
    assert r.close_call() is None
    assert "Nothing changes" in m.sentence("en") and "Nichts ändert sich" in m.sentence("de")


def test_margin_knife_edge_text_en_and_de() -> None:
    """The text flags a knife-edge call in words, both languages; the option moves the edge."""
    s = straddling_red(0.2)  # 0.7 mm from leaving the short band
    r = fwwrules.ruling(s, "a", "t")
    en, de = r.explain("en"), r.explain("de")
    assert (
        "A knife-edge call: it changes if a moves 0.7 mm (0.03″) west: t leaves short range." in en
    )
    assert "Messers Schneide" in de and "0,7 mm" in de and "nach Westen" in de
    assert "verlässt die kurze Reichweite" in de
    loose = replace(s, options=replace(s.options, knife_edge=0.5))
    assert fwwrules.ruling(loose, "a", "t").close_call() is None
    assert KNIFE_EDGE_MM == 1.0


def test_margin_json_has_margin_and_margins() -> None:
    r = fwwrules.ruling(straddling_red(3.0), "a", "t")
    d = r.to_dict()
    assert d["margin"]["model"] == "a" and d["margin"]["changes"] == ["ranged.range"]
    assert d["margin"]["direction"] == [-1.0, 0.0]
    assert {e["decision"] for e in d["margins"]} >= {"los", "band"}
    short = next(e for e in d["margins"] if e.get("band") == "short")
    assert short["clause"] == "ranged.range" and short["source"] is None
    assert short["mm"] == pytest.approx(3.5)


def test_margins_module_loads_when_a_margin_is_first_asked_not_at_import() -> None:
    """``fwwrules.margins`` (the largest rule module) costs nothing at ``import fwwrules`` nor
    for a ruling nobody asks how close it is: it loads with the first margin asked."""
    code = (
        "import sys, fwwrules\n"
        "print('fwwrules.margins' in sys.modules)\n"
        "s = fwwrules.load(fwwrules.example_path('cover-example-1'))\n"
        "r = fwwrules.ruling(s, 'brute', 'knight')\n"
        "print('fwwrules.margins' in sys.modules)\n"
        "print(r.margins.smallest is not None, 'fwwrules.margins' in sys.modules)\n"
    )
    assert printed(code) == ["False", "False", "True", "True"]


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_cover_area_target_leaving_an_area_margin_is_its_side_toward_the_shooter(turn: int) -> None:
    """Worked by hand: the target's centre at the middle of a 5 mm area square, the shooter
    36 mm north. The Line of Cover ends inside the square (cover, ``cover.area``) until the
    target's centre crosses a side; only crossing the north side (toward the shooter) makes
    the line stop entering it, so the margin is 2.5 mm, the target, north (the centre is as
    near every side: each side is a candidate). Turned with the board, the way turns too."""
    a = math.radians(turn)

    def rot(x: float, y: float) -> tuple[float, float]:
        return (x * math.cos(a) - y * math.sin(a), x * math.sin(a) + y * math.cos(a))

    rifle = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("green",)})
    square = tuple(rot(x, y) for x, y in ((-2.5, -2.5), (2.5, -2.5), (2.5, 2.5), (-2.5, 2.5)))
    rm: dict[str, object] = {"skills": {"rifle": 6}, "weapons": ("rifle",)}
    s = Scenario(
        models=(
            Model("m0", "x", 32.0, rot(0.0, 36.0), **rm),  # type: ignore[arg-type]
            Model("m1", "y", 32.0, (0.0, 0.0), **rm),  # type: ignore[arg-type]
        ),
        terrain=(Terrain("t0", "area", square),),
        weapons=(rifle,),
    )
    r = fwwrules.ruling(s, "m0", "m1")
    assert [(c.source, c.clause) for c in r.cover] == [("t0", "cover.area")]
    m = r.margin
    assert m is not None and m.mm == pytest.approx(2.5, abs=1e-6) and m.model == "m1"
    assert m.direction == pytest.approx(rot(0.0, 1.0), abs=1e-6)
    assert "cover.area" in m.changes and m.method == "exact"


def _riflemen(m0: Vec, m1: Vec, base0: float, *pieces: Terrain) -> Scenario:
    rm: dict[str, object] = {"skills": {"rifle": 6}, "weapons": ("rifle",)}
    return Scenario(
        models=(
            Model("m0", "x", base0, m0, **rm),  # type: ignore[arg-type]
            Model("m1", "y", 32.0, m1, **rm),  # type: ignore[arg-type]
        ),
        terrain=pieces,
        weapons=(_rifle(),),
    )


def _searched(got: float | None, precision: float, want: float) -> None:
    """A searched margin: ``want`` lies within its stated precision below it."""
    assert got is not None and 0.0 < precision <= 0.01
    assert got - precision - 1e-9 <= want <= got + 1e-9


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_stepping_off_a_piece_is_where_the_base_may_stand_again(how: str) -> None:
    """Worked by hand: the target's centre stands on a 5 mm blocking square (no cover: the
    Line of Cover ends on it), the shooter 51 mm north. Once its centre is off the square its
    base may overlap it by the contact tolerance at most, so the nearest place off it is half
    the square plus the radius minus the tolerance, 2.5 + 16 - 0.5 = 18 mm from the middle of
    a side; south (away from the shooter) the line then crosses the square: cover."""
    make, turn, unit = TRANSFORMS[how]
    square = Terrain("t0", "blocking", ((-2.5, -2.5), (2.5, -2.5), (2.5, 2.5), (-2.5, 2.5)))
    r = fwwrules.ruling(make(_riflemen((0.0, 51.0), (0.0, 0.0), 32.0, square)), "m0", "m1")
    assert r.cover == () and [i.source for i in r.ignored] == ["t0"]
    m = r.margin
    assert m is not None and m.model == "m1" and m.method == "search"
    _searched(m.mm, m.precision_mm, 2.5 + 16.0 - TOL)
    assert m.mm is not None
    assert m.direction == pytest.approx(turn((0.0, -1.0)), abs=1e-6)
    assert {"cover.line", "cover.armor"} <= set(m.changes)
    assert r.margins is not None
    assert r.margins.to_dict()["margin"]["distance"] == pytest.approx(m.mm / unit, abs=1e-6)


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_band_end_beside_a_piece_is_where_the_ring_meets_the_piece(how: str) -> None:
    """Worked by hand: the target (32 mm) at the origin, the shooter (40 mm) at (7, -192), a
    wall (x -2.5..2.5, y -170..-164) 2 mm ahead of its base. The short band begins where the
    centres are Red + tolerance + both radii apart, a ring of 152.4 + 0.5 + 20 + 16 = 188.9 mm;
    straight toward the target the wall is in the way, so the nearest place is where that ring
    meets the circle of 20 - 0.5 = 19.5 mm round the wall's corner (2.5, -170): two circles'
    intersection, 3.3903 mm away."""
    make, turn, _ = TRANSFORMS[how]
    wall = Terrain("wall", "blocking", Rect((0.0, -167.0), (5.0, 6.0)))
    r = fwwrules.ruling(make(_riflemen((7.0, -192.0), (0.0, 0.0), 40.0, wall)), "m0", "m1")
    assert r.range is not None and r.range.bands == ("long",)
    ring, rho, corner = RED + TOL + 20.0 + 16.0, 20.0 - TOL, (2.5, -170.0)
    d = math.hypot(*corner)
    along = (ring * ring - rho * rho + d * d) / (2 * d)
    h = math.sqrt(ring * ring - along * along)
    e = (corner[0] / d, corner[1] / d)
    meet = (along * e[0] - h * e[1], along * e[1] + h * e[0])  # the one east of the wall
    want = math.dist(meet, (7.0, -192.0))
    assert want == pytest.approx(3.3903, abs=1e-4)
    m = r.margins_of("m0")
    assert m is not None and m.smallest.model == "m0" and m.smallest.method == "search"
    _searched(m.smallest.mm, m.smallest.precision_mm, want)
    way = ((meet[0] - 7.0) / want, (meet[1] + 192.0) / want)
    # the place found lies a few micrometres on along the ring (the ring meets the circle at
    # a narrow angle): its distance within the precision, its bearing within 0.005
    assert m.smallest.direction == pytest.approx(turn(way), abs=5e-3)
    assert m.smallest.changes == ("ranged.range",)
    assert [f.change for f in m.smallest.flips] == ["band-enters"]


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_shooter_contact_breaking_is_where_the_line_and_the_contact_meet(how: str) -> None:
    """Worked by hand: a 5 mm blocking square (x -2.5..2.5, y 15.5..20.5) overlaps the
    shooter's base (at the origin, 32 mm) by 0.5 mm: touching, ignored. The Line of Cover to
    the target (6, 36) passes east of it: no cover either way. The piece gives cover only once
    the contact breaks (the centre more than 16 + 0.5 = 16.5 mm from the square: below
    y = -1) and the line passes through it (the centre west of the ray from (6, 36) through the
    corner (2.5, 15.5)). Both hold nearest where that ray crosses y = -1: x = 2.5 - 3.5 * 16.5
    / 20.5 = -0.3171, so the margin is sqrt(0.3171² + 1²) = 1.0491 mm, exact."""
    make, turn, unit = TRANSFORMS[how]
    square = Terrain("t0", "blocking", Rect((0.0, 18.0), (5.0, 5.0)))
    s = _riflemen((0.0, 0.0), (6.0, 36.0), 32.0, square)
    r = fwwrules.ruling(make(s), "m0", "m1")
    assert r.cover == ()
    below = 1.0 + LENGTH_EPSILON_MM  # contact holds up to the tolerance plus the rounding allowance
    x = 2.5 - 3.5 * (15.5 + below) / 20.5
    want = math.hypot(x, below)
    assert want == pytest.approx(1.0491, abs=1e-4)
    m = r.margin
    assert m is not None and m.model == "m0" and m.method == "exact"
    assert m.mm == pytest.approx(want, abs=1e-6)
    # the way into the corner of the two boundaries, within a tenth of a degree of the way
    # to that place (:func:`test_margin_at_a_corner_of_two_boundaries_states_a_way_into_the_corner`)
    assert m.direction == pytest.approx(turn((x / want, -below / want)), abs=2e-3)
    assert _moved_on(make(s), m, MARGIN_PROBE_MM, unit).cover != ()
    assert {"cover.line", "cover.armor"} <= set(m.changes)
    assert [f.change for f in m.flips if f.decision == "cover"] == ["cover-gained"]
    assert r.margins is not None
    assert r.margins.to_dict()["margin"]["distance"] == pytest.approx(want / unit, abs=1e-6)


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_los_opens_where_the_base_reaches_past_a_thin_dense_area(how: str) -> None:
    """Worked by hand: a dense-area strip (x -14..51, y 16.4..21.4) lies 0.4 mm north of the
    shooter's base (32 mm, at the origin) and blocks its line of sight to the target (18.5,
    52.9); an enemy 6 mm south of its base. Moving north, the shooter's base may stand across
    the strip (a dense area is not solid) and sees once it reaches past the strip's north side:
    centre at 21.4 - 16 = 5.4 mm north, exact (the base poking through a strip thinner than
    itself: its centre is then south of the strip, not inside it). Nearer than the contact
    with the enemy (6 - 0.5 = 5.5 mm south) and the line round the strip's west end."""
    make, turn, unit = TRANSFORMS[how]
    strip = Terrain("t0", "dense-area", ((-14.0, 16.4), (51.0, 16.4), (51.0, 21.4), (-14.0, 21.4)))
    s = _riflemen((0.0, 0.0), (18.5, 52.9), 32.0, strip)
    s = replace(s, models=(*s.models, Model("m2", "y", 32.0, (0.0, -38.0))))
    r = fwwrules.ruling(make(s), "m0", "m1")
    assert r.line_of_sight is False
    m = r.margin
    assert m is not None and m.model == "m0" and m.method == "exact"
    assert m.mm == pytest.approx(21.4 - 16.0, abs=1e-6)
    _same_way(m.direction, turn((0.0, 1.0)))
    assert m.changes == ("ranged.los",)
    assert [f.change for f in m.flips] == ["los-opens"]
    assert r.margins is not None
    assert r.margins.to_dict()["margin"]["distance"] == pytest.approx(5.4 / unit, abs=1e-6)
    contact = [f for f in r.margins.decisions if f.decision == "contact" and f.direction]
    assert min(f.mm for f in contact if f.mm is not None) == pytest.approx(6.0 - TOL, abs=1e-6)


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_at_a_corner_of_two_boundaries_states_a_way_into_the_corner(how: str) -> None:
    """Worked by hand: a blocking strip (x -3..2, y -57..-21) 5 mm south of the shooter's base
    (32 mm, at the origin); the target (-19.5, -39) touches it. The Line of Cover passes west
    of the strip: no cover. The strip gives cover once the line passes through it (the
    shooter's centre east of the ray from the target's centre through the corner (-3, -21),
    along (16.5, 18)) while not touching the shooter (the centre more than 16 + 0.5 = 16.5 mm
    from the strip). Both hold nearest where the ray meets the circle of 16.5 mm round the
    corner (2, -21): |(-5, 0) + t w| = 16.5, t = 19.4617 along the ray, P = (10.1507,
    -6.6537), 12.1371 mm away, exact. Straight toward P the way runs almost along that circle
    and stays inside it (contact kept): the stated direction leads into the corner instead,
    to the place the ruling is asked, the margin plus the probe away."""
    make, turn, unit = TRANSFORMS[how]
    strip = Terrain("t0", "blocking", ((-3.0, -57.0), (2.0, -57.0), (2.0, -21.0), (-3.0, -21.0)))
    s = _riflemen((0.0, 0.0), (-19.5, -39.0), 32.0, strip)
    r = fwwrules.ruling(make(s), "m0", "m1")
    assert r.cover == ()
    reach = 16.0 + TOL + LENGTH_EPSILON_MM
    w = (16.5 / math.hypot(16.5, 18.0), 18.0 / math.hypot(16.5, 18.0))
    t = (10.0 * w[0] + math.sqrt(100.0 * w[0] ** 2 - 4.0 * (25.0 - reach * reach))) / 2.0
    p = (-3.0 + t * w[0], -21.0 + t * w[1])
    assert math.hypot(*p) == pytest.approx(12.1371, abs=1e-4)
    m = r.margin
    assert m is not None and m.model == "m0" and m.method == "exact" and m.mm is not None
    assert m.mm == pytest.approx(math.hypot(*p), abs=1e-6)
    assert {"cover.line", "cover.armor"} <= set(m.changes)
    assert m.direction is not None
    # within a few hundredths of a degree of the way to P, and inside the corner
    straight = turn((p[0] / m.mm, p[1] / m.mm))
    assert m.direction == pytest.approx(straight, abs=1e-3)
    for hair in (MARGIN_PROBE_MM, 0.01):
        assert _moved_on(make(s), m, hair, unit).cover != (), hair
    assert _moved_on(make(s), replace(m, direction=straight), 0.01, unit).cover == ()


def _moved_on(s: Scenario, m: Margin, hair: float, unit: float) -> fwwrules.AttackRuling:
    """The ruling once the margin's model moved the margin plus ``hair`` (mm) its way."""
    assert m.mm is not None and m.model is not None and m.direction is not None
    start = s.model(m.model).at
    step = (m.mm + hair) / unit
    there = move_model(
        s, m.model, start[0] + step * m.direction[0], start[1] + step * m.direction[1]
    )
    return fwwrules.ruling(there, "m0", "m1")


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_at_a_very_narrow_corner_states_the_way_that_stays_in_it(how: str) -> None:
    """A small blocking square 1 mm from the shooter's base (32 mm, at the origin), beside the
    Line of Cover to the target. It gives cover once the line passes through it (the centre
    past the ray from the target's centre through the corner (-17.714, -8.117)) while not
    touching the shooter (the centre more than 16.5 mm from the square): nearest where that
    ray meets the circle of 16.5 mm round the square's corner (-12.665, -11.359), 2.7327 mm
    away (exact). The
    corner between the ray and the circle is so narrow that the way toward a place on its
    bisector leaves it 7 µm on; the way stated stays in it for the probe, 10 µm and 30 µm, on
    every copy of the board (the choice does not depend on how the board is turned or in
    which units it is written)."""
    make, _, unit = TRANSFORMS[how]
    corners = (
        (-14.286040504378523, -13.883113394816263),
        (-12.6651335867741, -11.358700440392575),
        (-17.71395949562148, -8.116886605183737),
        (-19.3348664132259, -10.641299559607425),
    )
    target = (-37.45826749163185, -14.031329107584794)
    s = make(_riflemen((0.0, 0.0), target, 32.0, Terrain("t0", "blocking", corners)))
    r = fwwrules.ruling(s, "m0", "m1")
    assert r.cover == ()
    (vx, vy), (cx, cy) = corners[2], corners[1]
    w = (vx - target[0], vy - target[1])
    w = (w[0] / math.hypot(*w), w[1] / math.hypot(*w))
    b = (vx - cx) * w[0] + (vy - cy) * w[1]
    reach = 16.0 + TOL + LENGTH_EPSILON_MM
    t = -b + math.sqrt(b * b - ((vx - cx) ** 2 + (vy - cy) ** 2 - reach * reach))
    want = math.hypot(vx + t * w[0], vy + t * w[1])
    assert want == pytest.approx(2.7327, abs=1e-4)
    m = r.margin
    assert m is not None and m.model == "m0" and m.method == "exact"
    assert m.mm == pytest.approx(want, abs=1e-6)
    for hair in (MARGIN_PROBE_MM, 0.01, 0.03):
        assert _moved_on(s, m, hair, unit).cover != (), hair


def _moved_by(s: Scenario, model: str, way: Vec, mm: float, unit: float) -> fwwrules.AttackRuling:
    """The ruling once ``model`` moved ``mm`` (mm) along ``way`` (the board's axes)."""
    start = s.model(model).at
    there = move_model(s, model, start[0] + mm / unit * way[0], start[1] + mm / unit * way[1])
    return fwwrules.ruling(there, "m0", "m1")


@pytest.mark.parametrize("how", list(TRANSFORMS))
def test_margin_cover_ray_whose_nearest_point_lies_before_the_corner(how: str) -> None:
    """Worked by hand (issue 35's counterexample): a 3 mm blocking square (x 65.46..68.46,
    y -18.28..-15.28) beside the target (62, 0), whose base overlaps it by 0.33 mm (within
    the contact tolerance); the shooter at the origin. The Line of Cover passes north of the
    square: no cover. The square gives cover once the target's centre lies past the ray from
    the shooter's centre through the corner (68.46, -15.28), beyond the square. The target's
    nearest point of that ray lies before the corner, where the ray does not matter (the
    margin said 29.5 mm, m0 coming into contact, though moving the target 29.33 mm at 320
    degrees gives cover). The ray's nearest point is the corner; the target cannot stand
    there, nor along the ray until its base overlaps the square by no more than the
    tolerance: where the ray meets the circle of 16 - 0.5 mm round the corner (68.46,
    -18.28): (83.9532, -18.7380), 28.8627 mm away (searched: within its stated precision)."""
    make, turn, unit = TRANSFORMS[how]
    square = ((65.46, -18.28), (68.46, -18.28), (68.46, -15.28), (65.46, -15.28))
    s = _riflemen((0.0, 0.0), (62.0, 0.0), 32.0, Terrain("t0", "blocking", square))
    r = fwwrules.ruling(make(s), "m0", "m1")
    assert r.cover == () and r.line_of_sight
    # the move the issue found changes the ruling: the margin may not exceed it
    a = math.radians(320.0)
    found = _moved_by(make(s), "m1", turn((math.cos(a), math.sin(a))), 29.33, unit)
    assert [c.source for c in found.cover] == ["t0"]
    # by hand: the ray from the origin through (68.46, -15.28) meets the circle of the
    # placement's reach round (68.46, -18.28)
    v, c = (68.46, -15.28), (68.46, -18.28)
    reach = 16.0 - TOL - LENGTH_EPSILON_MM
    w = (v[0] / math.hypot(*v), v[1] / math.hypot(*v))
    b = (v[0] - c[0]) * w[0] + (v[1] - c[1]) * w[1]
    t = -b + math.sqrt(b * b - ((v[0] - c[0]) ** 2 + (v[1] - c[1]) ** 2 - reach * reach))
    p = (v[0] + t * w[0], v[1] + t * w[1])
    want = math.hypot(p[0] - 62.0, p[1])
    assert p == pytest.approx((83.9532, -18.7380), abs=1e-4)
    assert want == pytest.approx(28.8627, abs=1e-4)
    m = r.margin
    assert m is not None and m.model == "m1" and m.method == "search"
    _searched(m.mm, m.precision_mm, want)
    assert m.mm is not None and m.mm <= 29.33
    assert {"cover.line", "cover.armor"} <= set(m.changes)
    assert [f.change for f in m.flips if f.decision == "cover"] == ["cover-gained"]
    assert _moved_on(make(s), m, MARGIN_PROBE_MM, unit).cover != ()
    assert m.direction == pytest.approx(turn(((p[0] - 62.0) / want, p[1] / want)), abs=1e-4)
