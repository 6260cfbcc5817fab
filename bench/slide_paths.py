"""Slide paths among many opposing bases (``melee.slide``; issue 14's "~cubic" figure).

Three boards of 200 models, each a slider engaged with one opposing model:

(a) ``rings``: 198 opposing 32 mm bases in rings well away from the fight (none reaches the
    slider's contact disc): the slide half way round its foe;
(b) ``crowd``: a 250 mm Huge foe and about 190 opposing 10 mm bases on three rings that reach
    into the contact disc, with gaps: slides a quarter and half way round (refused, with the
    places where contact would break);
(c) ``free``: the same crowd, slider's goal right beside its start.

A slide keeps contact with every engaged model at every point, so the search only looks at
the opposing bases that reach the engaged models' contact discs; the rest cannot touch a legal
path. Prints wall-clock and CPU time per slide (the best of ``--repeat`` runs; CPU time is the
steadier figure on a shared machine).

Usage: ``python bench/slide_paths.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import math
import time

import fwwrules
from fwwrules import Model, Scenario


def _model(ident: str, faction: str, at: tuple[float, float], base: float = 32.0) -> Model:
    return Model(ident, faction, base, at, skills={"melee": 5})


def rings() -> Scenario:
    models = [_model("s", "x", (-32.0, 0.0)), _model("d", "y", (0.0, 0.0))]
    ring = 1
    while len(models) < 200:
        radius = 80 + 40 * ring
        n = int(2 * math.pi * radius // 40)
        for j in range(n):
            if len(models) >= 200:
                break
            a = 2 * math.pi * j / n
            models.append(
                _model(f"e{len(models)}", "y", (radius * math.cos(a), radius * math.sin(a)))
            )
        ring += 1
    return Scenario(models=tuple(models))


def crowd() -> Scenario:
    models = [_model("s", "x", (-141.0, 0.0)), _model("d", "y", (0.0, 0.0), 250.0)]
    for radius, n, offset in ((136, 70, 0.5), (160, 80, 0.0), (185, 48, 0.25)):
        for j in range(n):
            a = 2 * math.pi * (j + offset) / n
            at = (radius * math.cos(a), radius * math.sin(a))
            if math.hypot(at[0] + 141, at[1]) < 16 + 5 + 1 or len(models) >= 200:
                continue
            models.append(_model(f"e{len(models)}", "y", at, 10.0))
    return Scenario(models=tuple(models))


def timed(s: Scenario, to: tuple[float, float], repeat: int) -> tuple[float, float, object]:
    best_wall = best_cpu = math.inf
    answer = None
    for _ in range(repeat):
        fresh = Scenario(models=s.models, terrain=s.terrain, weapons=s.weapons)
        w0, c0 = time.perf_counter(), time.process_time()
        answer = fwwrules.slide(fresh, "s", to)
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best_wall, best_cpu, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    cases = [
        ("rings, half way round", rings(), (32.0, 0.0)),
        ("crowd, a quarter round", crowd(), (0.0, 141.0)),
        ("crowd, half way round", crowd(), (141.0, 0.0)),
        ("crowd, a short step", crowd(), (-140.5, 5.0)),
    ]
    for name, s, to in cases:
        wall, cpu, r = timed(s, to, args.repeat)
        legal = getattr(r, "legal", None)
        print(
            f"{name:26} {len(s.models)} models: {wall * 1000:7.1f} ms wall, "
            f"{cpu * 1000:7.1f} ms CPU, legal={legal}"
        )


if __name__ == "__main__":
    main()
