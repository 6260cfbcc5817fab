"""Pathfinder grid: lines along walls, walled-in squares and the reach diagonal (issue 23).

The grid geometry decision "lines along walls": a line that only touches a wall at a point is
not blocked by it; a line that runs along a wall for some length is judged on the side of the
squares it joins, as if its ends sat an infinitesimal distance inside them. So a wall along a
corridor does not block a line between two of its squares, a wall between two adjacent squares
blocks the line along it from one to the other, and no line reaches a walled-in square by
running along its walls (``grid.total``). Every case is also checked in its seven rotated and
mirrored copies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

import fwwrules
from fwwrules.grid import Creature, GridScenario, Wall, grid_cover
from fwwrules.grid.geometry import Tracer, centre, frac

Corner = tuple[int, int]
ATTACKS = ("ranged", "melee", "reach")


def grid(width: int, height: int, walls: list[tuple[Corner, Corner]], **at: Corner) -> GridScenario:
    """An open map with border walls and size-1 creatures at the given squares."""
    kinds = tuple(tuple("open" for _ in range(width)) for _ in range(height))
    creatures = tuple(Creature(name, sq) for name, sq in at.items())
    return GridScenario(kinds, creatures, tuple(Wall(a, b) for a, b in walls))  # type: ignore[arg-type]


def symmetries(s: GridScenario) -> Iterator[tuple[str, GridScenario]]:
    """``s`` and its seven copies under the rotations and mirrors of the square grid."""
    w, h = s.width, s.height

    def maps() -> Iterator[tuple[str, Callable[[Corner], Corner], int, int]]:
        yield "identity", lambda p: p, w, h
        yield "rotated 90", lambda p: (h - p[1], p[0]), h, w
        yield "rotated 180", lambda p: (w - p[0], h - p[1]), w, h
        yield "rotated 270", lambda p: (p[1], w - p[0]), h, w
        yield "transposed", lambda p: (p[1], p[0]), h, w
        yield "mirrored", lambda p: (w - p[0], p[1]), w, h
        yield "flipped", lambda p: (p[0], h - p[1]), w, h
        yield "anti-transposed", lambda p: (h - p[1], w - p[0]), h, w

    for name, f, w2, h2 in maps():

        def square(c: int, r: int, size: int = 1, f: Callable[[Corner], Corner] = f) -> Corner:
            a, b = f((c, r)), f((c + size, r + size))
            return (min(a[0], b[0]), min(a[1], b[1]))

        kinds = [["open"] * w2 for _ in range(h2)]
        for r, row in enumerate(s.kinds):
            for c, k in enumerate(row):
                c2, r2 = square(c, r)
                kinds[r2][c2] = k
        yield (
            name,
            GridScenario(
                tuple(tuple(row) for row in kinds),  # type: ignore[misc]
                tuple(
                    Creature(cr.id, square(*cr.at, cr.size), cr.size, cr.reach, cr.name)
                    for cr in s.creatures
                ),
                tuple(Wall(f(wl.start), f(wl.end)) for wl in s.walls),
            ),
        )


BOX = [((3, 3), (4, 3)), ((4, 3), (4, 4)), ((3, 4), (4, 4)), ((3, 3), (3, 4))]
"""Walls on all four borders of square (3, 3) of a 7 x 7 map."""

AROUND = [(c, r) for c in range(7) for r in range(7) if (c, r) != (3, 3)]
"""Every other square: in its row and column (each side, adjacent or not), on its diagonals
(its corners) and elsewhere."""


# --- grid.total: the walled-in square ---------------------------------------------------------


@pytest.mark.parametrize("attack", ATTACKS)
def test_grid_total_walled_in_square_from_every_side_and_corner(attack: str) -> None:
    """Total cover from every square outside, whatever the attack; in each copy the same."""
    for at in AROUND:
        s = grid(7, 7, BOX, a=at, t=(3, 3))
        for name, copy in symmetries(s):
            r = grid_cover(copy, "a", "t", attack)
            assert (r.cover, r.attack_allowed, r.line_of_effect) == ("total", False, False), (
                at,
                name,
            )
            # every line drawn is blocked: none slips in along the walls or by a wall's end
            assert r.lines and all(ln.verdict == "border-wall" for ln in r.lines), (at, name)


def test_grid_total_walled_in_square_in_its_row_was_the_leak() -> None:
    """The audit's case: from the target's row the one "clear" line ran along the box's wall."""
    s = grid(7, 7, BOX, a=(0, 3), t=(3, 3))
    r = grid_cover(s, "a", "t")
    assert r.cover == "total" and "grid.total" in {x.clause for x in r.reasons}
    assert "no attack possible" in r.explain("en") and "kein Angriff möglich" in r.explain("de")


def test_grid_total_a_walled_in_attacker_cannot_attack_out() -> None:
    for at in ((0, 3), (6, 6), (3, 5)):
        s = grid(7, 7, BOX, a=(3, 3), t=at)
        for _, copy in symmetries(s):
            assert grid_cover(copy, "a", "t").cover == "total"


def test_grid_total_three_walls_leave_the_fourth_side_open() -> None:
    """The same box without its south wall: seen from the south, no cover; from the north,
    cover only around the open side's corners, or total."""
    s = grid(7, 7, BOX[:2] + BOX[3:], a=(3, 6), t=(3, 3))
    for _, copy in symmetries(s):
        r = grid_cover(copy, "a", "t")
        assert (r.cover, r.attack_allowed) == ("none", True)
    north = grid(7, 7, BOX[:2] + BOX[3:], a=(3, 0), t=(3, 3))
    assert grid_cover(north, "a", "t").cover == "total"


# --- lines along walls ------------------------------------------------------------------------


@pytest.mark.parametrize("attack", ["ranged", "reach"])
def test_grid_total_corridor_along_a_wall_gives_no_cover(attack: str) -> None:
    """A corridor of border walls (both sides of row 1): lines between two of its squares run
    along the walls, judged inside the corridor: no cover."""
    walls = [((0, 1), (9, 1)), ((0, 2), (9, 2))]
    s = grid(9, 3, walls, a=(0, 1), t=(2, 1) if attack == "reach" else (7, 1))
    for name, copy in symmetries(s):
        r = grid_cover(copy, "a", "t", attack)
        assert (r.cover, r.soft, r.ac, r.attack_allowed) == ("none", False, 0, True), name
        assert all(ln.clear for ln in r.lines), name


def test_grid_total_corridor_of_wall_squares_gives_no_cover() -> None:
    s = fwwrules.load(fwwrules.example_path("grid/corridor"))
    assert isinstance(s, GridScenario)
    ids = [c.id for c in s.creatures]
    for _, copy in symmetries(s):
        assert grid_cover(copy, ids[0], ids[1]).cover == "none"


@pytest.mark.parametrize("attack", ATTACKS)
def test_grid_total_wall_between_adjacent_squares(attack: str) -> None:
    """A wall across the map between two adjacent squares: total cover, in every copy (the
    line along the wall used to slip through: issue 11's archer and rat)."""
    s = grid(4, 4, [((1, 0), (1, 4))], a=(0, 1), t=(1, 1))
    for name, copy in symmetries(s):
        r = grid_cover(copy, "a", "t", attack)
        assert (r.cover, r.attack_allowed) == ("total", False), name


@pytest.mark.parametrize("attack", ATTACKS)
def test_grid_total_wall_along_the_whole_border_of_two_neighbouring_squares(attack: str) -> None:
    """Issue 32: a wall on just the shared border of two adjacent squares gives total cover
    across it, for melee, ranged and reach attacks, in all eight copies. Every line is blocked:
    the one along the wall, the ones that end on one of its end points (nudged into their
    squares they cross it), the zero-length ones at the two corners the squares share, and the
    ones along the squares' common sides that pass through its end points."""
    s = grid(4, 4, [((1, 1), (1, 2))], a=(0, 1), t=(1, 1))
    for name, copy in symmetries(s):
        r = grid_cover(copy, "a", "t", attack)
        assert (r.cover, r.attack_allowed, r.line_of_effect) == ("total", False, False), name
        assert r.lines and all(ln.verdict == "border-wall" for ln in r.lines), name
        along = [ln for ln in r.lines if ln.start != ln.end and _on_the_wall(copy, ln)]
        assert all(not ln.clear for ln in along), name
        keys = {x.message_id for x in r.reasons}
        assert "grid.total" in {x.clause for x in r.reasons}, name
        assert "grid.partial/not" not in keys and "grid.soft/through" not in keys, name


def test_grid_total_a_line_ending_on_a_wall_end_is_judged_from_inside_its_square() -> None:
    """The nudge at a line's end: from the attacker's corner (1, 1) (the wall's end) to the far
    corner of the target's top side, and the zero-length line at (1, 1): both blocked, and the
    reasons say the line only meets the wall's end (``nudged``), in both languages."""
    s = grid(4, 4, [((1, 1), (1, 2))], a=(0, 1), t=(1, 1))
    tracer = Tracer(s, ("a", "t"))
    inside_a, inside_t = centre((0, 1)), centre((1, 1))
    for q in ((1, 1), (2, 1), (2, 2)):
        through = tracer.trace(frac((1, 1)), frac(q), inside_a, inside_t)
        assert [(o.kind, o.nudged) for o in through] == [("border-wall", True)], q
    # a line that leaves the wall's end away from the wall only touches it
    assert tracer.trace(frac((1, 1)), frac((1, 0)), inside_a, centre((1, 0))) == ()
    r = grid_cover(s, "a", "t", "melee")
    assert "grid.melee/border-wall-end" in {x.message_id for x in r.reasons}
    assert "end of a wall" in r.explain("en") and "Ende einer Mauer" in r.explain("de")


def _on_the_wall(s: GridScenario, ln: object) -> bool:
    (x0, y0), (x1, y1) = ln.start, ln.end  # type: ignore[attr-defined]
    (a, b) = s.walls[0].start, s.walls[0].end
    if a[0] == b[0]:
        return x0 == x1 == a[0] and {y0, y1} == {a[1], b[1]}
    return y0 == y1 == a[1] and {x0, x1} == {a[0], b[0]}


def test_grid_total_a_line_touching_a_wall_end_only_is_not_blocked() -> None:
    """The shipped border-walls example: archer to cat runs along y = 3 through the free end
    of the wall: no cover, and the reasons name no wall."""
    s = fwwrules.load(fwwrules.example_path("grid/border-walls"))
    assert isinstance(s, GridScenario)
    for name, copy in symmetries(s):
        r = grid_cover(copy, "archer", "cat")
        assert r.cover == "none", name
        assert grid_cover(copy, "archer", "knight").cover == "cover", name


# --- grid.reach: the diagonal exception ---------------------------------------------------------


def test_grid_reach_two_squares_diagonally_is_in_reach_and_says_why() -> None:
    s = grid(5, 5, [], o=(0, 0), t=(2, 2))
    for name, copy in symmetries(s):
        r = grid_cover(copy, "o", "t", "reach")
        assert r.attack_allowed and r.in_reach, name
        keys = [x.message_id for x in r.reasons]
        assert "grid.reach/diagonal" in keys, name
    text = grid_cover(s, "o", "t", "reach").explain("en")
    assert "15 ft (2 squares diagonally) away by the 1-2-1 count" in text
    assert "reach of 10 ft (2 squares)" in text
    de = grid_cover(s, "o", "t", "reach").explain("de")
    assert "nach der 1-2-1-Zählung 4,5 m (2 Felder diagonal) entfernt" in de
    assert "3 m (2 Felder)" in de


def test_grid_reach_needs_no_exception_in_a_straight_line_nor_beyond() -> None:
    s = grid(5, 5, [], o=(0, 0), t=(2, 0), far=(3, 3))
    plain = grid_cover(s, "o", "t", "reach")
    assert plain.attack_allowed and "grid.reach" not in {x.clause for x in plain.reasons}
    far = grid_cover(s, "o", "far", "reach")
    assert not far.attack_allowed and not far.in_reach
    assert "grid.reach" not in {x.clause for x in far.reasons}
    knight = grid_cover(s, "o", "t", "melee")  # reach 1 (no reach weapon): no exception
    assert not knight.attack_allowed


def test_grid_reach_reasons_name_creatures_by_their_names() -> None:
    """Headline and reasons both use names (the JSON's reason texts too)."""
    s = fwwrules.load(fwwrules.example_path("grid/rogue"))
    assert isinstance(s, GridScenario)
    r = grid_cover(s, "ogre", "rogue", "reach")
    d = r.to_dict("en")
    assert "Ogre" in d["headline"]
    assert all("ogre" not in x["text"] for x in d["reasons"])
    assert any("Ogre fills 2x2 squares" in x["text"] for x in d["reasons"])
