"""A moved board's engagement graph, carried from the board before (only the pairs with a
moved model looked at again), is the graph made afresh: on a crowd of 200 bases, each move
setting a base at, just off or near another's edge."""

from __future__ import annotations

import math
import random

import fwwrules
from fwwrules.engagement import _engagement_graph, engagements
from fwwrules.scenario import Model, Scenario


def crowd() -> Scenario:
    models = tuple(
        Model(f"m{i}", "north" if i % 2 else "south", 60.0 if i % 7 == 0 else 32.0,
              (float(40 * (i % 20)), float(40 * (i // 20))), elevation=25.4 * (i % 3 == 0))
        for i in range(200)
    )  # fmt: skip
    return Scenario(models=models)


def test_a_carried_engagement_graph_is_the_graph_made_afresh() -> None:
    rng = random.Random(3)
    s = crowd()
    ids = [m.id for m in s.models]
    engagements(s)
    engaged = 0
    for _ in range(60):
        mid, other = rng.sample(ids, 2)
        m, o = s.board.models[mid].disc, s.board.models[other].disc
        a = rng.uniform(0, 2 * math.pi)
        d = o.r + m.r + rng.choice([0.0, 0.1, 0.5, 1.0, 1.6, 5.0])
        try:
            moved = fwwrules.move_model(s, mid, o.x + d * math.cos(a), o.y + d * math.sin(a))
        except fwwrules.FwwError:
            continue
        carried = dict(engagements(moved))
        assert carried == _engagement_graph(moved), mid
        engaged += sum(map(len, carried.values()))
        s = moved
    assert engaged > 0
