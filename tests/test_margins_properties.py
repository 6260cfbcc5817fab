"""Hypothesis properties of a ruling's margins (``fwwrules.margins``) on random boards.

The boards of once-known gaps (a model stepping off a piece it stands on, a band end beside a
piece, a piece touching the shooter, the line of sight past a dense area near the shooter,
the direction stated for a margin at a corner of two boundaries, a very narrow corner, a
shadow edge running into a piece that reaches into the other base, a contact ring crossed by
a piece's edge) stay as plain tests, most also worked out by hand here or in
tests/test_margins.py.

Each property runs on two kinds of random board: pieces clear of every base by the search
radius (they matter through the line of sight and the Line of Cover from afar), and small
boards with pieces close beside the bases (a piece the moving base must stand clear of,
touching a base, or under it), where the margin is often a searched one.
``FWWRULES_PROPERTY_EXAMPLES=N`` runs N examples of each (random boards, not the fixed ones:
``--hypothesis-seed`` picks them); by default a fixed set of 30.

* moving the named model by the smallest margin plus a hair in the named direction changes
  the ruling, and among what changes are the named decisions: a micrometre past (the
  engine's probe) always, 0.01 mm past unless the margin lies at a corner of two boundaries
  so narrow that no straight way into it a micrometre past stays in it that far (and a fifth
  farther: the stated way keeps some room at the probe);
* moving the attacker or the target by less than the margin (the margin minus a hair, and
  half of that) in any of 36 directions changes nothing a player acts on; with no change
  within the search radius, the same holds up to the radius. Positions where the moved base
  may not stand (the placement rule) are left out, as the margin leaves them out.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, Polygon

import fwwrules
from fwwrules.closeness import Margin
from fwwrules.constants import LENGTH_EPSILON_MM, MARGIN_PROBE_MM, MARGIN_RADIUS_MM
from fwwrules.margins import changed, outcome, standable
from fwwrules.placement import move_model, placement_problems
from fwwrules.scenario import Model, Scenario, Terrain, TerrainKind, Weapon

KINDS = ("blocking", "cover", "area", "dense-area", "scenery")
RIFLE = Weapon("rifle", "rifle", short="red", long="green", dice={"short": ("green",)})
coord = st.floats(-250, 250, allow_nan=False)
EXAMPLES = os.environ.get("FWWRULES_PROPERTY_EXAMPLES")
SETTINGS = settings(
    max_examples=int(EXAMPLES or 30),
    deadline=None,
    # the same boards on every default run: the known gaps below are not drawn at random
    derandomize=EXAMPLES is None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
HAIR_MM = 0.01
"""A hair: far above the search's precision (0.001 mm), far below anything a player sees."""
DIRECTIONS = 36


@st.composite
def boards(draw: st.DrawFn) -> Scenario:
    """Two or three models (the second often near the Red band's end from the first), and up
    to four pieces, each kept only when it lies farther from every base than the search
    radius (clear of the known gaps below: the pieces matter through the line of sight and
    the Line of Cover)."""
    models: list[Model] = []
    for i in range(draw(st.integers(2, 3))):
        base = draw(st.sampled_from((32.0, 40.0)))
        if i == 1:
            d, a = draw(st.floats(40, 200)), draw(st.floats(0, 2 * math.pi))
            at = (models[0].at[0] + d * math.cos(a), models[0].at[1] + d * math.sin(a))
        else:
            at = (draw(coord), draw(coord))
        for m in models:
            assume(math.dist(m.at, at) > (m.base + base) / 2 + 1)
        models.append(
            Model(f"m{i}", "xy"[i > 0], base, at, skills={"rifle": 6}, weapons=("rifle",))
        )
    pieces = []
    for i in range(draw(st.integers(0, 4))):
        cx, cy = draw(coord), draw(coord)
        w, h = draw(st.floats(5, 100)), draw(st.floats(5, 100))
        a = draw(st.floats(0, math.pi))
        ca, sa = math.cos(a), math.sin(a)
        pts = tuple(
            (cx + x * ca - y * sa, cy + x * sa + y * ca)
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
        )
        poly = Polygon(pts)
        if all(poly.distance(Point(m.at)) > m.base / 2 + MARGIN_RADIUS_MM for m in models):
            pieces.append(Terrain(f"t{i}", draw(st.sampled_from(KINDS)), pts))
    return Scenario(models=tuple(models), terrain=tuple(pieces), weapons=(RIFLE,))


def _rect(c: tuple[float, float], w: float, h: float, a: float) -> tuple[tuple[float, float], ...]:
    ca, sa = math.cos(a), math.sin(a)
    return tuple(
        (c[0] + x * ca - y * sa, c[1] + x * sa + y * ca)
        for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
    )


@st.composite
def near_boards(draw: st.DrawFn) -> Scenario:
    """Two or three models (each within 120 mm of the first's edge), and one to three small
    pieces (2 to 40 mm a side) each beside a base: its centre within 40 mm of the base's edge
    (under it, touching it, or a little off), kept only where every base may still stand
    (the placement rule)."""
    models: list[Model] = []
    for i in range(draw(st.integers(2, 3))):
        base = draw(st.sampled_from((32.0, 40.0)))
        d, a = draw(st.floats(1, 120)), draw(st.floats(0, 2 * math.pi))
        d += (base + (models[0].base if models else 0.0)) / 2
        at = (0.0, 0.0) if i == 0 else (d * math.cos(a), d * math.sin(a))
        for m in models:
            assume(math.dist(m.at, at) > (m.base + base) / 2 + 1)
        models.append(
            Model(f"m{i}", "xy"[i > 0], base, at, skills={"rifle": 6}, weapons=("rifle",))
        )
    s = Scenario(models=tuple(models), weapons=(RIFLE,))
    for i in range(draw(st.integers(1, 3))):
        near = models[draw(st.integers(0, len(models) - 1))]
        d, a = near.base / 2 + draw(st.floats(-10, 40)), draw(st.floats(0, 2 * math.pi))
        w, h, turn = draw(st.floats(2, 40)), draw(st.floats(2, 40)), draw(st.floats(0, math.pi))
        pts = _rect((near.at[0] + d * math.cos(a), near.at[1] + d * math.sin(a)), w, h, turn)
        piece = Terrain(f"t{i}", draw(st.sampled_from(KINDS)), pts)
        grown = Scenario(models=s.models, terrain=(*s.terrain, piece), weapons=(RIFLE,))
        if not placement_problems(grown):
            s = grown
    return s


BOARDS: dict[str, Callable[[], st.SearchStrategy[Scenario]]] = {
    "far": boards,
    "near": near_boards,
}


def _moved(s: Scenario, model: str, way: tuple[float, float], mm: float) -> Scenario | None:
    """``s`` with ``model`` moved ``mm`` along ``way``; ``None`` where its base may not stand."""
    g = s.board.models[model].disc
    x, y = g.x + way[0] * mm, g.y + way[1] * mm
    if not bool(standable(s, model, np.array([[x, y]]))[0]):
        return None
    return move_model(s, model, x / s.unit_mm, y / s.unit_mm)


def _ask(s: Scenario) -> fwwrules.AttackRuling:
    return fwwrules.ruling(s, "m0", "m1", weapon="rifle")


def _past(s: Scenario, base: fwwrules.AttackRuling, model: str, way: tuple[float, float],
          mm: float) -> tuple[str, ...] | None:  # fmt: skip
    """What changes once ``model`` moved ``mm`` along ``way``; ``None`` where it may not stand."""
    after = _moved(s, model, way, mm)
    return None if after is None else changed(base, outcome(base), _ask(after))


def _changes_past_by_each_hair(
    s: Scenario, base: fwwrules.AttackRuling, m: Margin, decision: str
) -> None:
    """Moving the margin's model along its way a micrometre and 0.01 mm past the margin
    changes ``decision`` (asserted)."""
    assert m.mm is not None and m.model is not None and m.direction is not None
    for hair in (MARGIN_PROBE_MM, HAIR_MM):
        got = _past(s, base, m.model, m.direction, m.mm + hair)
        assert got is not None and decision in got, hair


def _no_way_changes_both(
    s: Scenario, base: fwwrules.AttackRuling, m: Margin, hair: float = HAIR_MM
) -> bool:
    """Whether no straight way from where the margin's model stands changes the ruling both
    :data:`MARGIN_PROBE_MM` and ``hair`` past the margin: a corner of two boundaries so
    narrow that every way into it a micrometre past the margin leaves it again sooner. The
    ways that change it a micrometre past form a narrow fan round the stated way (which does):
    its ends are found by bisection (to a millionth of the fan), 41 ways evenly across it are
    tried."""
    assert m.mm is not None and m.model is not None and m.direction is not None
    model, mm = m.model, m.mm
    ahead = math.atan2(m.direction[1], m.direction[0])

    def way(turn: float) -> tuple[float, float]:
        return (math.cos(ahead + turn), math.sin(ahead + turn))

    def enters(turn: float) -> bool:
        return bool(_past(s, base, model, way(turn), mm + MARGIN_PROBE_MM))

    limit = 1.5 * math.acos(mm / (mm + MARGIN_PROBE_MM))  # no place farther round lies near
    ends = []
    for sign in (1.0, -1.0):
        inside, outside = 0.0, sign * limit
        for _ in range(40):
            mid = (inside + outside) / 2
            inside, outside = (mid, outside) if enters(mid) else (inside, mid)
        ends.append(inside)
    for k in range(41):
        turn = ends[1] + (ends[0] - ends[1]) * k / 40
        if enters(turn) and _past(s, base, model, way(turn), mm + hair):
            return False
    return True


@pytest.mark.parametrize("kind", list(BOARDS))
@SETTINGS
@given(data=st.data())
def test_moving_past_the_margin_changes_the_named_decisions(kind: str, data: st.DataObject) -> None:
    """Moving a hair past the margin changes the named decisions: a micrometre past always,
    0.01 mm past unless no straight way into a narrow corner of two boundaries stays in it
    that far (a fifth farther: the stated way keeps some room in the corner)."""
    s = data.draw(BOARDS[kind](), label="board")
    base = _ask(s)
    m = base.margin
    assert m is not None
    assume(m.mm is not None and m.model is not None and m.direction is not None)
    assert m.mm is not None and m.model is not None and m.direction is not None
    for hair in (MARGIN_PROBE_MM, HAIR_MM):
        got = _past(s, base, m.model, m.direction, m.mm + hair)
        assume(got is not None)
        assert got is not None
        if not got and hair == HAIR_MM and _no_way_changes_both(s, base, m, 1.2 * HAIR_MM):
            continue
        assert got, f"{m.model} moved {m.mm + hair} mm {m.direction}: nothing changed"
        assert set(m.changes) & set(got), (m.changes, got)


def _nothing_changes_within(s: Scenario) -> bool:
    """Moving the attacker or the target by less than the margin changes nothing (asserted);
    ``False`` when the margin is too small to leave room for a hair."""
    base = _ask(s)
    m = base.margin
    assert m is not None
    # a searched margin is good to its stated precision
    reach = MARGIN_RADIUS_MM if m.mm is None else m.mm - m.precision_mm
    if reach <= 2 * HAIR_MM:
        return False
    before = outcome(base)
    for model in ("m0", "m1"):
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            way = (math.cos(a), math.sin(a))
            for mm in (reach - HAIR_MM, (reach - HAIR_MM) / 2):
                after = _moved(s, model, way, mm)
                if after is None:
                    continue
                got = changed(base, before, _ask(after))
                assert not got, f"{model} moved {mm:.4f} mm at {math.degrees(a):.0f}°: {got}"
    return True


@pytest.mark.parametrize("kind", list(BOARDS))
@SETTINGS
@given(data=st.data())
def test_moving_less_than_the_margin_changes_nothing(kind: str, data: st.DataObject) -> None:
    assume(_nothing_changes_within(data.draw(BOARDS[kind](), label="board")))


SQUARE = ((-2.5, -2.5), (2.5, -2.5), (2.5, 2.5), (-2.5, 2.5))


def _square(x: float, y: float) -> tuple[tuple[float, float], ...]:
    return tuple((px + x, py + y) for px, py in SQUARE)


def _known_gap(m0: tuple[float, float], m1: tuple[float, float], base0: float,
               *pieces: tuple[TerrainKind, tuple[tuple[float, float], ...]]) -> None:  # fmt: skip
    rifleman = {"skills": {"rifle": 6}, "weapons": ("rifle",)}
    s = Scenario(
        models=(
            Model("m0", "x", base0, m0, **rifleman),  # type: ignore[arg-type]
            Model("m1", "y", 32.0, m1, **rifleman),  # type: ignore[arg-type]
        ),
        terrain=tuple(Terrain(f"t{i}", kind, pts) for i, (kind, pts) in enumerate(pieces)),
        weapons=(RIFLE,),
    )
    assert _nothing_changes_within(s)


def test_known_gap_mended_stepping_off_a_piece() -> None:
    """m1 stands on a small blocking piece (its centre on it); stepping off it south, the
    piece gives cover once the base may stand beside it. Once a gap (the margin said 18.5 mm,
    m0 coming into contact: the side's nearest point was a place m1 cannot stand and had no
    boundary to search along); the search now goes on straight past it to where the base may
    stand again: 18 mm."""
    _known_gap((0.0, 51.0), (0.0, 0.0), 32.0, ("blocking", SQUARE))


def test_known_gap_mended_band_end_beside_a_piece() -> None:
    """m0's straight move toward m1 to the Red band end is blocked by a piece 2 mm ahead of
    its base. Once a gap (the margin said 4.07 mm, a cover): the search along the band's ring
    found where the base may stand, but the ruling a hair past it, straight on from m0, was
    inside the piece again and the place was dropped; it now follows the ring on until the
    hair past it stands too: 3.39 mm, the precision stated."""
    wall = ((-2.5, -170.0), (2.5, -170.0), (2.5, -164.0), (-2.5, -164.0))
    _known_gap((7.0, -192.0), (0.0, 0.0), 40.0, ("blocking", SQUARE), ("blocking", wall))


def test_known_gap_mended_target_leaving_an_area() -> None:
    """m1's centre is inside a small area piece; 2.5 mm toward m0 the Line of Cover no longer
    enters it (cover lost). Once a gap (the margin said 2.68 mm, the ray through its corner:
    only the outline's nearest point, a side away from m0, was a candidate); every side's
    nearest point is one now (tests/test_margins.py works the 2.5 mm out by hand)."""
    _known_gap((0.0, 36.0), (0.0, 0.0), 32.0, ("area", SQUARE), ("blocking", _square(0, 54)))


def test_known_gap_mended_shooter_contact_breaking() -> None:
    """A blocking piece touches m0's base, and the Line of Cover passes beside it: no cover.
    Moving m0 away and a little across breaks the contact and brings the line through the
    piece: cover. Once a gap (the margin said 12.08 mm: each change alone was a candidate,
    neither changed anything); the corner where both boundaries meet is one now: 1.049 mm."""
    _known_gap((0.0, 0.0), (6.0, 36.0), 32.0, ("blocking", _square(0, 18)))


def _open_pieces(
    models: tuple[tuple[str, str, tuple[float, float]], ...],
    *pieces: tuple[TerrainKind, Sequence[tuple[float, float]]],
) -> Scenario:
    rifleman = {"skills": {"rifle": 6}, "weapons": ("rifle",)}
    return Scenario(
        models=tuple(Model(i, side, 32.0, at, **rifleman) for i, side, at in models),  # type: ignore[arg-type]
        terrain=tuple(Terrain(f"t{i}", kind, tuple(pts)) for i, (kind, pts) in enumerate(pieces)),
        weapons=(RIFLE,),
    )


def test_known_gap_mended_los_beside_a_dense_area() -> None:
    """Found by the properties with pieces near the bases (seed 2): a dense-area strip 0.36 mm
    from m0's base blocks its line of sight to m1; an enemy of m0 stands 6 mm behind it. Once
    a gap (the margin said 5.5 mm, that contact; moving m0 5.49 mm at 80 degrees opened the
    line of sight): the base reaching past the strip's far side was a candidate only with its
    centre inside the strip, and the strip is thinner than the base. It is one now on the
    strip's side of the edge: 5.3608 mm north (tests/test_margins.py works a like case out by
    hand)."""
    strip = ((-14.0138, 54.3608), (50.9862, 54.3608), (50.9862, 59.3608), (-14.0138, 59.3608))
    s = _open_pieces(
        (("m0", "x", (0.0, 38.0)), ("m1", "y", (18.4862, 90.8608)), ("m2", "y", (0.0, 0.0))),
        ("dense-area", strip),
    )
    m = _ask(s).margin
    assert m is not None and m.mm == pytest.approx(59.3608 - 16.0 - 38.0, abs=1e-6)
    assert _nothing_changes_within(s)


def test_known_gap_mended_direction_into_a_corner_of_two_boundaries() -> None:
    """Found by the properties with pieces near the bases (seed 3): a blocking strip touching
    m1, 5.4 mm from m0. The margin (12.24 mm) is where the contact's reach from the strip and
    the ray grazing its corner meet (the nearest place where both change, exact). Once a gap:
    the change lies in the narrow corner between them, and moving straight toward that place
    a hair past it changed nothing; the stated direction leads into the corner now (to the
    place the ruling is asked, the margin plus the probe away; tests/test_margins.py works a
    like case out by hand)."""
    strip = ((-3.1278, -57.3795), (1.8722, -57.3795), (1.8722, -21.3795), (-3.1278, -21.3795))
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (-19.6278, -39.3795))), ("blocking", strip)
    )
    base = _ask(s)
    m = base.margin
    assert m is not None and m.mm is not None and m.model is not None and m.direction is not None
    after = _moved(s, m.model, m.direction, m.mm + HAIR_MM)
    assert after is not None
    assert changed(base, outcome(base), _ask(after))


def test_known_gap_mended_very_narrow_corner_of_two_boundaries() -> None:
    """Found by the properties with pieces near the bases (more examples, seed 7): a small
    blocking piece 1 mm from m0's base, beside the Line of Cover. The margin (2.7327 mm, the
    piece's cover gained) lies at a corner of two boundaries so narrow that no way from m0
    enters it within the probe and stays in it for good (the piece's grown outline bends back
    across the way). Once a gap: the stated way (toward a place on the corner's bisector) left
    the corner again 7 µm on, so the margin plus 10 µm changed nothing. Of the ways that enter
    it within the probe, the one that stays in it farthest is stated now (about 50 µm here).
    The distance holds (exact)."""
    piece = (
        (-14.286040504378523, -13.883113394816263),
        (-12.6651335867741, -11.358700440392575),
        (-17.71395949562148, -8.116886605183737),
        (-19.3348664132259, -10.641299559607425),
    )
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (-37.45826749163185, -14.031329107584794))),
        ("blocking", piece),
    )
    base = _ask(s)
    m = base.margin
    assert m is not None and m.mm is not None and m.model is not None and m.direction is not None
    assert m.mm == pytest.approx(2.732654565733956, abs=1e-9) and m.method == "exact"
    for hair in (MARGIN_PROBE_MM, HAIR_MM, 3 * HAIR_MM):
        after = _moved(s, m.model, m.direction, m.mm + hair)
        assert after is not None
        assert changed(base, outcome(base), _ask(after)), hair
    assert _nothing_changes_within(s)


def test_narrow_corner_where_no_way_changes_the_ruling_both_hairs_past() -> None:
    """Found by the properties with pieces near the bases (1000 examples, seed 13): a thin
    blocking strip beside m0's base (0.04 mm short of touching it: ignored as touching), the
    Line of Cover to m1 passing north of it. The strip gives cover once the contact breaks and
    the line passes through it: nearest where the ray from m1's centre through the strip's
    corner (17.14, 16.07) meets the contact's reach round the strip, 0.632 mm away (exact).
    The corner between the two is so narrow that every straight way from m0 into it a
    micrometre past the margin leaves it again within 6 µm (none changes the ruling both 1 µm
    and 10 µm past); the stated way changes it at 1 µm and still at 5 µm."""
    piece = (
        (17.864447253222835, -16.066025588166426),
        (20.128037706589325, 15.853813983163317),
        (17.135552746777165, 16.066025588166426),
        (14.871962293410673, -15.853813983163317),
    )
    m1 = (29.999243623826658, 27.9471891609567)
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", m1)), ("blocking", piece))
    base = _ask(s)
    assert base.cover == () and [i.clause for i in base.ignored] == ["cover.shooter-contact"]
    m = base.margin
    assert m is not None and m.mm is not None and m.model == "m0" and m.direction is not None
    assert m.method == "exact" and m.mm == pytest.approx(0.632055, abs=1e-6)
    # the place: on the ray from m1 through the corner, the contact's reach from the strip
    v, reach, strip = piece[2], 16.0 + 0.5 + LENGTH_EPSILON_MM, Polygon(piece)
    w = (v[0] - m1[0], v[1] - m1[1])
    lo, hi = 0.0, 2.0  # along the ray, in lengths of w (the distance grows along it)
    for _ in range(80):
        t = (lo + hi) / 2
        lo, hi = (
            (t, hi) if strip.distance(Point(v[0] + t * w[0], v[1] + t * w[1])) < reach else (lo, t)
        )
    assert m.mm == pytest.approx(math.hypot(v[0] + lo * w[0], v[1] + lo * w[1]), abs=1e-9)
    for hair in (MARGIN_PROBE_MM, 5 * MARGIN_PROBE_MM):
        assert _past(s, base, "m0", m.direction, m.mm + hair), hair
    assert not _past(s, base, "m0", m.direction, m.mm + HAIR_MM)
    assert _no_way_changes_both(s, base, m)
    assert _nothing_changes_within(s)


def test_known_gap_mended_cover_ray_nearest_before_its_corner() -> None:
    """Issue 35's counterexample: a 3 mm blocking square beside m1's base (within the contact
    tolerance). The ray from m0's centre through the square's corner (68.46, -15.28) gives
    cover past it, but m1's nearest point of it lay before the corner, where the ray does not
    matter, and the ray was dropped: the margin said 29.5 mm (m0 coming into contact) though
    moving m1 29.33 mm at 320 degrees gives cover. The nearest place of the ray is its corner;
    m1 cannot stand there, and the search along the ray finds 28.863 mm
    (tests/test_margins.py works it out by hand)."""
    square = ((65.46, -18.28), (68.46, -18.28), (68.46, -15.28), (65.46, -15.28))
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (62.0, 0.0))), ("blocking", square))
    base = _ask(s)
    a = math.radians(320.0)
    assert _past(s, base, "m1", (math.cos(a), math.sin(a)), 29.33)
    m = base.margin
    assert m is not None and m.mm is not None and m.mm <= 29.33
    assert _nothing_changes_within(s)


def test_known_gap_mended_shooter_standing_on_a_piece_steps_off_it() -> None:
    """Found by the properties on small boards (pieces beside the bases): m0 stands on a
    blocking piece (its centre 0.32 mm inside the north side) that it touches, so ignored;
    stepping off north, the piece gives cover once the contact breaks (the centre 16.5 mm
    past the side: 16.817 mm). The contact's candidates skipped a centre on the piece (its
    distance to the piece is 0): the margin said 17.10 mm though 17.09 mm at 50 degrees
    changed the ruling. Each side's nearest point, the contact's reach on past it, is a
    candidate now."""
    piece = ((-16.4687, -8.6832), (0.5313, -8.6832), (0.5313, 0.3168), (-16.4687, 0.3168))
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (-32.6822, -37.8401))),
                     ("blocking", piece))  # fmt: skip
    m = _ask(s).margin
    assert m is not None and m.model == "m0" and m.method == "exact"
    assert m.mm == pytest.approx(0.3168 + 16.5 + LENGTH_EPSILON_MM, abs=1e-6)
    assert _nothing_changes_within(s)


def test_known_gap_mended_target_standing_on_a_side_of_a_piece() -> None:
    """Found by the properties on small boards (shrunk): m1's centre lay on the east side of
    a 2 mm blocking square (then it stood on it; since a centre on an outline is off the
    piece, it stands a hair, 0.01 mm, inside). Moving east, its base may stand again once
    15.5 mm clear of the square, and the Line of Cover then passes through it: cover. The
    side's nearest point was where m1 stands (distance 0) and was dropped: the margin said
    17.5 mm (m0 coming into contact). Straight across the side, either way, is a candidate
    now: 15.51 mm east (searched)."""
    square = ((48.0, -1.0), (50.0, -1.0), (50.0, 1.0), (48.0, 1.0))
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (49.99, 0.0))), ("blocking", square))
    m = _ask(s).margin
    assert m is not None and m.model == "m1" and m.method == "search" and m.mm is not None
    assert m.mm - m.precision_mm <= 15.51 - LENGTH_EPSILON_MM <= m.mm + 1e-9
    assert _nothing_changes_within(s)


def test_known_gap_mended_los_closing_where_two_of_its_boundaries_meet() -> None:
    """Found by the properties on small boards (300 random examples, seed 1, shrunk): m0
    stands just inside a dense area, and sees m1 only past the area's corner (1.16, -2.61).
    Its line of sight closes only once its base neither reaches past the area's south-east
    side nor below the line through that corner tangent to m1's base: beyond both
    boundaries, nearest where they meet, 14.4875 mm north. Each boundary alone is a
    candidate (13.14 mm across the side) and changes nothing there; the place where they
    meet is none, so the margin says 14.5 mm (m0 coming into contact) though moving m0
    14.49 mm north closes the line of sight. Mending it wants the corners of pairs of such
    boundaries as candidates (asked into the corner, as for a piece touching the shooter)."""
    area = (
        (25.706040776329075, 8.624597641817427),
        (16.1346635357448, 29.538438458808105),
        (-8.416366988548605, 18.30247387203526),
        (1.1550102520356713, -2.6113669449554173),
    )
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (47.0, 0.0))), ("dense-area", area))
    assert _past(s, _ask(s), "m0", (0.0, 1.0), 14.49) == ("ranged.los",)
    assert _nothing_changes_within(s)


def test_known_gap_mended_shooter_going_round_an_area_beside_it() -> None:
    """Found by the properties on small boards (200 random examples, seed 2): a thin area
    strip 14.5 mm west of m0's centre, clear of its base. The strip gives cover once m0
    stands beyond it, clear of it by the contact's reach (area touching the shooter is
    ignored): nearest 16.5 mm past the strip's far side, straight across it, 30.9635 mm
    (14.4635 to the side's line plus the reach). The margin said 31.106 mm (the corner
    where a ray through the strip's corner meets that reach), though 31.096 mm at 200
    degrees gave cover; the far sides moved out by the reach are candidates now."""
    strip = (
        (-8.272233134027168, -11.87469186370589),
        (-21.588931903535723, 17.222825794715924),
        (-23.407526757187085, 16.39053212162164),
        (-10.09082798767853, -12.706985536800174),
    )
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (64.0, 0.0))), ("area", strip))
    base = _ask(s)
    a = math.radians(200.0)
    assert _past(s, base, "m0", (math.cos(a), math.sin(a)), 31.0963)
    (x0, y0), (x1, y1) = strip[2], strip[3]  # the far (west) side's line
    across = abs((x1 - x0) * (0.0 - y0) - (y1 - y0) * (0.0 - x0)) / math.hypot(x1 - x0, y1 - y0)
    assert across == pytest.approx(14.4635, abs=1e-4)
    m = base.margin
    assert m is not None and m.model == "m0" and m.method == "exact"
    assert m.mm == pytest.approx(across + 16.5 + LENGTH_EPSILON_MM, abs=1e-6)
    assert _nothing_changes_within(s)


def test_known_gap_mended_los_closing_behind_a_dense_strip() -> None:
    """Found by the properties on small boards (200 random examples, seed 2, after the gap
    above): a dense-area strip (34 mm long) west of m0, m1 63 mm east. m0's line of sight
    closes once its whole base is in the strip's shadow: past two shadow edges at once,
    nearest in the corner where they meet; neither edge alone changes it. The margin says
    30.5 mm (m0 coming into contact with m1), though moving m0 30.49 mm at 210 degrees
    closes the line of sight (the same gap as above)."""
    strip = (
        (-2.4745042856906885, -27.150749344416298),
        (-16.62349672829353, 3.7653631676568797),
        (-18.442091581944894, 2.9330694945625946),
        (-4.293099139342052, -27.98304301751058),
    )
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (63.0, 0.0))), ("dense-area", strip))
    a = math.radians(210.0)
    assert _past(s, _ask(s), "m0", (math.cos(a), math.sin(a)), 30.49) == ("ranged.los",)
    assert _nothing_changes_within(s)


def test_known_gap_mended_target_going_behind_a_piece_past_its_corner() -> None:
    """Found by the properties on small boards (200 random examples, seed 3): a small
    blocking piece 0.95 mm from m1's base, beside the Line of Cover. It gives cover once
    m1's centre lies past the ray from m0's centre through its corner (-48.06, -30.32),
    beyond it. The ray's nearest place is that corner, where m1 would stand on the piece
    (no cover: asked, nothing changed), and the ray beyond it was never searched: the
    margin said 25.5 mm (contact with m0) though 25.49 mm at 170 degrees gave cover. A
    ray's end m1 can stand on whose ray it cannot stand on just past the end is searched
    along now: 25.022 mm."""
    piece = (
        (-48.064097091818404, -30.319916910474166),
        (-46.98349248008213, -28.636974940858376),
        (-55.3982023281611, -23.233951882176978),
        (-56.478806939897375, -24.916893851792768),
    )
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (-37.91133001008949, -43.89454472785984))),
        ("blocking", piece),
    )
    base = _ask(s)
    a = math.radians(170.0)
    assert _past(s, base, "m1", (math.cos(a), math.sin(a)), 25.49)
    m = base.margin
    assert m is not None and m.model == "m1" and m.method == "search" and m.mm is not None
    assert m.mm < 25.1
    assert _nothing_changes_within(s)


def test_known_crash_mended_no_way_into_a_corner_beside_a_walked_line() -> None:
    """Found by the properties on small boards (300 random examples, seed 5): a blocking
    strip north of m0's base. Where a ray searched along met the edge of where m0's base may
    stand, no way from m0 reached inside the corner between them (every depth below zero),
    and choosing the way among none raised ValueError; such a corner is skipped now (no
    room between the boundaries), and the margin is m0 coming into contact."""
    strip = (
        (32.08816225843977, 23.719716589813203),
        (-2.911837741560227, 23.71971658981321),
        (-2.911837741560227, 21.71971658981321),
        (32.08816225843977, 21.719716589813203),
    )
    s = _open_pieces((("m0", "x", (0.0, 0.0)), ("m1", "y", (55.0, 0.0))), ("blocking", strip))
    m = _ask(s).margin
    assert m is not None and m.model == "m0" and m.mm == pytest.approx(22.5)
    assert _nothing_changes_within(s)


def test_known_gap_mended_los_closing_past_a_dense_strip_and_a_shadow_edge() -> None:
    """Found by the near-board property (1000 random examples, seed 7, shrunk): a dense-area
    strip x 15..17, y -17.5..17.5 east of m0 (base 32 at the origin), m1 west-south-west.
    m0's line of sight closes once its base is wholly past the strip's west side (centre
    x >= 15 + 16 = 31) and below the strip's south-east corner's shadow edge moved out by
    the radius, above it again past the north-west corner's: nearest where x = 31 meets the
    line through (17, -17.5) tangent to m1's base, 16 mm to its right. By hand: that corner is
    (31, 3.0415), 31.1488 mm; the margin said 31.5 mm (contact with m2) though 31.49 mm at 10
    degrees closed the line of sight. Neither boundary alone closes it: their corner is a
    candidate now."""
    rifleman = {"skills": {"rifle": 6}, "weapons": ("rifle",)}
    m1 = (-59.933227986610966, -22.45012657213567)
    s = Scenario(
        models=(
            Model("m0", "x", 32.0, (0.0, 0.0), **rifleman),  # type: ignore[arg-type]
            Model("m1", "y", 32.0, m1, **rifleman),  # type: ignore[arg-type]
            Model("m2", "y", 32.0, (64.0, 0.0), **rifleman),  # type: ignore[arg-type]
        ),
        terrain=(Terrain("t0", "dense-area", ((15.0, -17.5), (17.0, -17.5), (17.0, 17.5),
                                              (15.0, 17.5))),),
        weapons=(RIFLE,),
    )  # fmt: skip
    corner, r = (17.0, -17.5), 16.0
    toward = math.atan2(m1[1] - corner[1], m1[0] - corner[0])
    a = toward + math.asin(r / math.dist(corner, m1))  # the tangent grazing m1's base
    way = (math.cos(a), math.sin(a))
    o = (corner[0] + r * way[1], corner[1] - r * way[0])  # moved 16 mm to its right
    y = o[1] + (31.0 - o[0]) / way[0] * way[1]
    assert y == pytest.approx(3.0415, abs=1e-4)
    hand = math.hypot(31.0, y)
    assert hand == pytest.approx(31.1488, abs=1e-4)
    base = _ask(s)
    m = base.margin
    assert m is not None and m.model == "m0" and m.method == "exact" and m.direction is not None
    assert m.mm == pytest.approx(hand, abs=1e-6)
    assert "ranged.los" in m.changes
    assert _past(s, base, "m0", m.direction, m.mm + HAIR_MM) == ("ranged.los",)
    assert _past(s, base, "m0", (math.cos(math.radians(10)), math.sin(math.radians(10))), 31.49)
    assert _nothing_changes_within(s)


def _tangent_right_of(corner: tuple[float, float], r: float) -> tuple[tuple[float, float], ...]:
    """The line through ``corner`` tangent to the base of radius ``r`` at the origin with the
    base on its left: its touching point and unit direction (toward the corner)."""
    d, toward = math.hypot(*corner), math.atan2(corner[1], corner[0])
    a = toward - math.acos(r / d)
    touch = (r * math.cos(a), r * math.sin(a))
    w = (corner[0] - touch[0], corner[1] - touch[1])
    n = math.hypot(*w)
    return touch, (w[0] / n, w[1] / n)


def test_known_gap_mended_los_closing_where_a_shadow_edge_runs_into_a_piece() -> None:
    """Found by the near-board property (500 random examples, seed 11; coordinates rounded to
    0.0001 mm): m1 north-east of m0 past a blocking block, a small dense area reaching into
    m1's base. m0 sees m1 two ways: along the tangent right of both bases, past the dense
    area's south-east corner (55.18, 56.12); and past the block's south-east corner
    (30.26, 21.82) to the sliver of m1's base west of the dense area, below that corner's
    shadow edge: the sliver narrows to the point P where the shadow edge runs into the dense
    area's west side (x = 50.18), no corner of any piece. The line of sight closes once m1's
    centre lies more than its radius left of the dense corner's shadow edge and more than
    its radius from P: nearest where that circle meets that line. By hand: P = (50.18,
    58.0412), 1.4829 mm at 113.6 degrees. The margin said 3.3392 mm (the circle round the
    dense area's north-west corner), though 3.3292 mm north closed the line of sight; the
    places where two line-of-sight lines cross, or one meets a blocker's side, are pinch
    points now, and where their circles meet the other boundaries is a candidate."""
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (48.1444, 72.4646))),
        ("blocking", ((-9.74, 21.82), (30.26, 21.82), (30.26, 54.82), (-9.74, 54.82))),
        ("dense-area", ((50.18, 56.12), (55.18, 56.12), (55.18, 58.12), (50.18, 58.12))),
    )
    r, p0 = 16.0, (48.1444, 72.4646)
    t1, w1 = _tangent_right_of((30.26, 21.82), r)  # the block corner's shadow edge
    pinch = (50.18, t1[1] + (50.18 - t1[0]) / w1[0] * w1[1])
    assert pinch[1] == pytest.approx(58.0412, abs=1e-4)
    t3, w3 = _tangent_right_of((55.18, 56.12), r)  # the dense corner's, moved r to its left
    o = (t3[0] - r * w3[1], t3[1] + r * w3[0])
    rel = (o[0] - pinch[0], o[1] - pinch[1])
    b = rel[0] * w3[0] + rel[1] * w3[1]
    k = -b + math.sqrt(b * b - (rel[0] ** 2 + rel[1] ** 2 - r * r))  # the nearer crossing
    hand = math.dist(p0, (o[0] + k * w3[0], o[1] + k * w3[1]))
    assert hand == pytest.approx(1.4829, abs=1e-4)
    base = _ask(s)
    m = base.margin
    assert m is not None and m.model == "m1" and m.method == "exact" and m.direction is not None
    assert m.mm == pytest.approx(hand, abs=1e-6)
    assert m.changes == ("ranged.los",) and m.at == pytest.approx(pinch, abs=1e-6)
    for hair in (MARGIN_PROBE_MM, HAIR_MM):
        assert _past(s, base, "m1", m.direction, m.mm + hair) == ("ranged.los",)
    north = (0.0, 1.0)
    assert _past(s, base, "m1", north, 3.3292) == ("ranged.los",)
    assert _nothing_changes_within(s)


def test_known_gap_mended_contact_where_the_ring_meets_a_piece() -> None:
    """Found by the near-board property (1000 random examples, seed 7, shrunk): m1 stands on
    a thin blocking strip (its centre on it), m0 on another, 43 mm apart. m1 comes into
    contact with m0 inside the contact ring, centres 31.5 to 32.5 mm apart (overlapping by
    up to the tolerance, 0.5 mm, or a gap up to it), once its base may stand there: clear of
    its strip by 15.5 mm (the tolerance again). The ring's outer circle meets that edge
    17.3079 mm away; its inner circle, the nearest the bases may stand, 17.2076 mm away (by
    hand: the circles of 31.5 mm round m0 and 15.5 mm round the strip's corner). The margin
    said 17.3087 mm (the outer circle, searched along) though 17.2978 mm at 120 degrees made
    contact; the ring's inner edge is searched along too now, and asked a hair into the
    places the base may stand where it meets the strip's."""
    west, east, south, north = (-11.073028683931536, 24.926971316068464, -44.06466252436008,
                                -41.06466252436008)  # fmt: skip
    strip = ((west, south), (east, south), (east, north), (west, north))
    p1 = (-9.064219375523527, -42.03379505959917)
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", p1)),
        ("blocking", ((-2.0, -1.0), (34.0, -1.0), (34.0, 1.0), (-2.0, 1.0))),
        ("blocking", strip),
    )
    # where the circle of 31.5 mm round m0 meets the one of 15.5 mm round the strip's corner
    c, r0, r1 = strip[3], 31.5, 15.5
    d = math.hypot(*c)
    a = (r0 * r0 - r1 * r1 + d * d) / (2 * d)
    h = math.sqrt(r0 * r0 - a * a)
    x = (a * c[0] / d + h * c[1] / d, a * c[1] / d - h * c[0] / d)
    hand = math.dist(p1, x)
    assert hand == pytest.approx(17.2076, abs=1e-4)
    base = _ask(s)
    m = base.margin
    assert m is not None and m.model == "m1" and m.method == "search" and m.mm is not None
    assert m.direction is not None and "melee.engaged" in m.changes
    assert m.mm - m.precision_mm - 1e-6 <= hand <= m.mm + 1e-6
    _changes_past_by_each_hair(s, base, m, "melee.engaged")
    a120 = math.radians(120.0)
    assert _past(s, base, "m1", (math.cos(a120), math.sin(a120)), 17.2978)
    assert _nothing_changes_within(s)


def test_known_gap_mended_shooter_stepping_clear_of_two_touching_areas() -> None:
    """Found by the near-board property (1000 random examples, seed 11, shrunk; after the two
    gaps above were mended): two area pieces that touch each other (one cover source, t0+t1)
    both reach into m0's base, so their cover is ignored (touching the shooter). m0 gains
    their cover once its centre is more than 16.5 mm (the radius plus the contact tolerance)
    from both: past t0's west side moved out by that reach (x = -4) and outside the circle
    of that reach round t1's corner (12.04, -3.40), nearest where the two meet: by hand
    (-4, 0.4874), 4.0296 mm. Each piece's own reach alone changes nothing (the other still
    touches): the margin said 4.5 mm (contact with m1) though 4.49 mm at 160 degrees gave
    cover. Where the grown outlines of two touching pieces meet is a candidate now."""
    corner = (12.036281993447457, -3.3969014652372733)
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (37.0, 0.0))),
        ("area", ((12.5, -1.0), (19.5, -1.0), (19.5, 1.0), (12.5, 1.0))),
        ("area", ((14.560694947871145, -5.017808382841692),
                  (19.963718006552543, 3.3969014652372733),
                  (17.439305052128855, 5.017808382841692), corner)),
    )  # fmt: skip
    base = _ask(s)
    assert base.cover == () and [i.clause for i in base.ignored] == ["cover.shooter-contact"]
    reach = 16.0 + 0.5 + LENGTH_EPSILON_MM
    x = 12.5 - reach
    hand = math.hypot(x, corner[1] + math.sqrt(reach * reach - (corner[0] - x) ** 2))
    assert hand == pytest.approx(4.0296, abs=1e-4)
    m = base.margin
    assert m is not None and m.model == "m0" and m.method == "exact" and m.direction is not None
    assert m.mm == pytest.approx(hand, abs=1e-9)
    assert "cover.area" in m.changes
    _changes_past_by_each_hair(s, base, m, "cover.area")
    a160 = math.radians(160.0)
    assert _past(s, base, "m0", (math.cos(a160), math.sin(a160)), 4.49)
    assert _nothing_changes_within(s)


def test_probes_not_flooded_by_corners_round_a_crossed_dense_area() -> None:
    """Found by the near-board property (1000 random examples, seed 13, shrunk): two small
    dense areas crossing each other reach into m0's base; the line of sight to m1 stays open
    within the radius. The corners where circles round every blocker corner met every
    line-of-sight boundary were all asked while the line of sight's first change was looked
    for: 400 probes (the limit) before the nearest change (contact with m1, 6.5 mm) was
    reached, so the margin was not measured and read as no change within 2 inches, though
    moving m0 50.79 mm at 280 degrees gives cover. Only the circles round places where two
    lines cross or one runs into a blocker's side meet the boundaries now."""
    s = _open_pieces(
        (("m0", "x", (0.0, 0.0)), ("m1", "y", (21.071789928857452, 32.81736840750796))),
        ("dense-area", ((14.5, -1.0), (17.5, -1.0), (17.5, 1.0), (14.5, 1.0))),
        ("dense-area", ((15.0, -1.5), (17.0, -1.5), (17.0, 1.5), (15.0, 1.5))),
    )
    margins = _ask(s).margins
    assert margins is not None and margins.measured and margins.complete
    m = margins.smallest
    assert m.model == "m0" and m.mm == pytest.approx(6.5) and "melee.engaged" in m.changes
    assert _nothing_changes_within(s)
