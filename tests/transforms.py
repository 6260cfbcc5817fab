"""Rigid motions (and scaling) of a whole scenario, for the invariance properties."""

from __future__ import annotations

import math
from dataclasses import replace

from fwwrules.scenario import Circle, Rect, Scenario, Shape


def moved(s: Scenario, angle: float, dx: float, dy: float, scale: float = 1.0) -> Scenario:
    """Rotate the board by ``angle`` radians about the origin, shift it by ``(dx, dy)``, then
    scale every length (positions, bases, sizes, heights, elevations) by ``scale``."""
    c, sn = math.cos(angle), math.sin(angle)

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] * c - p[1] * sn + dx) * scale, (p[0] * sn + p[1] * c + dy) * scale)

    def shape(sh: Shape) -> Shape:
        if isinstance(sh, Rect):
            size = (sh.size[0] * scale, sh.size[1] * scale)
            return Rect(pt(sh.at), size, sh.angle + math.degrees(angle))
        if isinstance(sh, Circle):
            return Circle(pt(sh.at), sh.diameter * scale)
        return tuple(pt(p) for p in sh)

    def length(v: float | None) -> float | None:
        return None if v is None else v * scale

    models = tuple(
        replace(
            m,
            at=pt(m.at),
            base=m.base * scale,
            elevation=m.elevation * scale,
            move=length(m.move),
        )
        for m in s.models
    )
    terrain = tuple(replace(t, shape=shape(t.shape), height=length(t.height)) for t in s.terrain)
    return replace(s, models=models, terrain=terrain)
