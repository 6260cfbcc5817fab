"""The margins' work bound (issue 31): a ruling's margins among eight 256-corner stars with
heights (``bench/worst_case.py``'s "stars+heights ruling": 41 s of CPU and 1.7 GB before) are
counted before they are computed and, past :data:`MAX_MARGIN_CORNER_PAIRS`, not measured:
said so in English and German, in the JSON and in the knife-edge question the text asks. The
stars case runs in a fresh interpreter under the CPU and memory cap of the bounded-work tests
(:func:`capped_threat.run_capped`); normal boards keep exact margins (tests/test_margins.py
and the properties)."""

from __future__ import annotations

import math

from capped_threat import run_capped

import fwwrules
from fwwrules.constants import MAX_MARGIN_CORNER_PAIRS
from fwwrules.pieces import Model, Terrain, Weapon

RIFLE = Weapon("rifle", "rifle", short="red", long="green")


def _star(cx: float, cy: float, n: int = 256) -> tuple[tuple[float, float], ...]:
    r = (50.0, 30.0)
    return tuple(
        (cx + r[k % 2] * math.cos(a), cy + r[k % 2] * math.sin(a))
        for k, a in enumerate(2 * math.pi * k / n for k in range(n))
    )


def stars_heights() -> fwwrules.Scenario:
    """Eight overlapping blocking stars with heights (one blob), the attacker at elevation
    127 mm at one corner of the cluster, the target at the other (as the bench's case)."""
    terrain = tuple(
        Terrain(f"t{i}", "blocking", _star(700.0 + (i % 3) * 70.0, 700.0 + (i // 3) * 70.0),
                height=25.4 * (1 + i % 5))
        for i in range(8)
    )  # fmt: skip
    kw = {"skills": {"rifle": 5}, "weapons": ("rifle",)}
    models = (
        Model("m900", "north", 32.0, (640.0, 640.0), elevation=127.0, **kw),  # type: ignore[arg-type]
        Model("m901", "south", 32.0, (910.0, 910.0), **kw),  # type: ignore[arg-type]
    )
    return fwwrules.Scenario(models=models, terrain=terrain, weapons=(RIFLE,))


def stars_not_measured() -> None:
    """Run under the cap: the ruling, its knife-edge question and all its margins."""
    r = fwwrules.ruling(stars_heights(), "m900", "m901", weapon="rifle")
    for lang, words in (("en", "was not measured"), ("de", "wurde nicht gemessen")):
        said = r.close_call(lang)
        assert said is not None and words in said, said
        assert f"{MAX_MARGIN_CORNER_PAIRS}" in said.replace(",", "").replace(".", "")
    m = r.margins
    assert m is not None and not m.measured and m.work > MAX_MARGIN_CORNER_PAIRS
    got = r.to_dict()
    assert got["margin"]["measured"] is False and got["margin"]["mm"] is None
    assert got["margins"] == []
    assert "was not measured" in m.sentence("en")


def stars_panel_line_not_measured() -> None:
    """Run under the cap: the panels' "how close" line (the measuring process's answer)."""
    from fwwrules_widgets.margin_worker import _answer

    query = ("m900", "m901", "rifle", "core", None)
    for lang, words in (("en", "was not measured"), ("de", "wurde nicht gemessen")):
        _, (line, knife) = _answer(stars_heights(), {}, query, lang)
        assert line is not None and words in line and not knife, line


def test_stars_with_heights_margins_not_measured_under_the_cap() -> None:
    run_capped(__file__, "stars_not_measured")


def test_stars_with_heights_panel_line_says_not_measured_under_the_cap() -> None:
    run_capped(__file__, "stars_panel_line_not_measured")


def test_a_normal_board_is_measured() -> None:
    """Two models and a crate between them: measured, the work counted well within the bound."""
    kw = {"skills": {"rifle": 5}, "weapons": ("rifle",)}
    s = fwwrules.Scenario(
        models=(Model("a", "north", 32.0, (0.0, 0.0), **kw),  # type: ignore[arg-type]
                Model("b", "south", 32.0, (200.0, 10.0), **kw)),  # type: ignore[arg-type]
        terrain=(Terrain("crate", "blocking", ((90.0, -20.0), (110.0, -20.0), (110.0, 0.0),
                                               (90.0, 0.0))),),
        weapons=(RIFLE,),
    )  # fmt: skip
    r = fwwrules.ruling(s, "a", "b", weapon="rifle")
    m = r.margins
    assert m is not None and m.measured and m.smallest.mm is not None
    assert r.to_dict()["margin"]["measured"] is True
