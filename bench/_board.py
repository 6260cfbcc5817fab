"""A deterministic, crowded 4' x 4' benchmark board (shared by the benchmarks in ``bench/``).

``crowded_board()`` returns a :class:`fwwrules.Scenario` in millimetres with

* 24 models (12 per side) on 32, 40 and 60 mm bases, no two bases overlapping and no base
  touching a ``blocking`` or ``dense-area`` piece (with ``heights``, nor a ``cover`` piece):
  every base may stand where it is (``fwwrules.placement``);
* 40 terrain pieces of every kind (blocking, cover, area, dense-area, scenery), as rectangles
  at angles, polygons (convex and L-shaped) and circles;
* with ``heights=True``, every second terrain piece gets a height (for elevation and
  Significant Edges); models stay at table level (elevation 0).

Run ``python bench/_board.py`` for a summary (and a check that the board validates as a file).
"""

from __future__ import annotations

import math
import random

from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from fwwrules import Circle, Model, Rect, Scenario, Terrain, Weapon
from fwwrules.board import terrain_polygon

BOARD_MM = 1219.2
"""Four feet."""

SEED = 20240611

KINDS = ["blocking"] * 12 + ["cover"] * 10 + ["area"] * 6 + ["dense-area"] * 6 + ["scenery"] * 6
SIZES = [32.0] * 8 + [40.0] * 3 + [60.0]  # per side
LOS_KINDS = ("blocking", "dense-area")


def _shape(
    rng: random.Random, kind: str, i: int
) -> Rect | Circle | tuple[tuple[float, float], ...]:
    margin = 60.0
    cx = rng.uniform(margin, BOARD_MM - margin)
    cy = rng.uniform(margin, BOARD_MM - margin)
    style = i % 4
    if kind in ("area", "dense-area") and style == 0:
        return Circle((cx, cy), rng.uniform(80.0, 160.0))
    if style == 1 and kind != "scenery":
        # an L-shaped polygon (a ruin corner), rotated
        w, h, t = rng.uniform(80, 180), rng.uniform(80, 180), rng.uniform(10, 25)
        pts = [(0, 0), (w, 0), (w, t), (t, t), (t, h), (0, h)]
        return _place(pts, cx, cy, rng.uniform(0, 360))
    if style == 2:
        # a convex polygon (a scrap pile, a car)
        n = rng.randint(5, 8)
        r = rng.uniform(25, 60)
        angs = sorted(rng.uniform(0, 2 * math.pi) for _ in range(n))
        pts = [(r * math.cos(a) * rng.uniform(0.8, 1.2), r * math.sin(a)) for a in angs]
        poly = Polygon(pts).convex_hull
        return _place(list(poly.exterior.coords)[:-1], cx, cy, 0.0)
    if kind == "blocking":
        size = (rng.uniform(100.0, 260.0), rng.uniform(12.0, 120.0))
    elif kind == "cover":
        size = (rng.uniform(25.0, 80.0), rng.uniform(15.0, 40.0))
    else:
        size = (rng.uniform(50.0, 150.0), rng.uniform(40.0, 120.0))
    return Rect(
        (round(cx, 2), round(cy, 2)),
        (round(size[0], 2), round(size[1], 2)),
        round(rng.uniform(0.0, 180.0), 1),
    )


def _place(
    pts: list[tuple[float, float]], cx: float, cy: float, angle: float
) -> tuple[tuple[float, float], ...]:
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    out = []
    for x, y in pts:
        x, y = x - mx, y - my
        out.append((round(cx + x * ca - y * sa, 2), round(cy + x * sa + y * ca, 2)))
    return tuple(out)


def crowded_board(*, heights: bool = False, seed: int = SEED) -> Scenario:
    """The benchmark board. Deterministic for a given ``seed``."""
    rng = random.Random(seed)
    terrain: list[Terrain] = []
    solids: list[BaseGeometry] = []
    for i, kind in enumerate(KINDS):
        shape = _shape(rng, kind, i)
        height = None
        if heights and i % 2 == 0:
            height = round(rng.choice([25.4, 50.8, 76.2, 101.6]), 1)
        t = Terrain(id=f"{kind}-{i:02d}", kind=kind, shape=shape, height=height)
        terrain.append(t)
        if kind in LOS_KINDS or (heights and kind == "cover"):
            # with heights a base may not overlap a cover piece either (fwwrules.placement:
            # it would stand below its top); without, no base comes near one on this seed
            solids.append(terrain_polygon(t, 1.0))
    models: list[Model] = []
    bases: list[tuple[float, float, float]] = []
    for side, faction, y0, y1 in (
        ("north", "vault", 620.0, 1180.0),
        ("south", "raiders", 40.0, 600.0),
    ):
        for k, base in enumerate(SIZES):
            r = base / 2
            for _ in range(10_000):
                x = rng.uniform(r + 5, BOARD_MM - r - 5)
                y = rng.uniform(y0 + r, y1 - r)
                if any(math.hypot(x - bx, y - by) < r + br + 2.0 for bx, by, br in bases):
                    continue
                disc = Point(x, y).buffer(r + 1.0)
                if any(s.intersects(disc) for s in solids):
                    continue
                break
            else:  # pragma: no cover - the seed is chosen so this never happens
                raise RuntimeError("could not place a model")
            x, y = round(x, 2), round(y, 2)
            bases.append((x, y, r))
            models.append(
                Model(
                    id=f"{side}-{k:02d}",
                    faction=faction,
                    base=base,
                    at=(x, y),
                    skills={"rifle": 6, "pistol": 5, "melee": 5},
                    weapons=("rifle",),
                )
            )
    weapons = (
        Weapon(
            id="rifle",
            type="rifle",
            short="black",
            long="black",
            dice={"short": ("black",), "long": ("green",)},
            name="Long Rifle",
        ),
    )
    return Scenario(
        models=tuple(models),
        terrain=tuple(terrain),
        weapons=weapons,
        title="Crowded benchmark board",
        sides={"north": ("vault",), "south": ("raiders",)},
    )


if __name__ == "__main__":
    import fwwrules

    for h in (False, True):
        s = crowded_board(heights=h)
        again = fwwrules.loads(fwwrules.dump_text(s), "<crowded board>")
        kinds: dict[str, int] = {}
        for t in s.terrain:
            kinds[t.kind] = kinds.get(t.kind, 0) + 1
        sizes: dict[float, int] = {}
        for m in s.models:
            sizes[m.base] = sizes.get(m.base, 0) + 1
        print(
            f"heights={h}: {len(s.models)} models {sizes}, {len(s.terrain)} pieces {kinds}, "
            f"{sum(t.height is not None for t in s.terrain)} with heights; "
            f"round-trips: {again == s}"
        )
