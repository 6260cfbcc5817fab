"""fwwrules.draw: the board picture, checked through its artists (never golden images)."""

from __future__ import annotations

import dataclasses
import math

import matplotlib
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.patches import Circle
from shapely.geometry import Polygon

import fwwrules
from fwwrules.draw import BoardStyle, draw_board, draw_word, moving_artists, update_board
from fwwrules.draw.board import side_look
from fwwrules.elevation import significant_edges
from fwwrules.melee import FreeAttack, SlideRuling, WithdrawRuling
from fwwrules.pieces import EdgeRef, TerrainRef
from fwwrules.ranges import band_limits
from fwwrules.rulings import AttackRuling, Crossing, IgnoredEntry, IntoMelee, Sight, SkillInfo

matplotlib.use("Agg")

BOARD = """
format: fwwrules/scenario@1
title: Test board
units: {units}
models:
  - {{id: knight, name: Knight, faction: bos, base: {b40}, at: [{x50}, {x100}],
     skills: {{rifle: 7}}, weapons: [laser]}}
  - {{id: brute, name: Brute, faction: mutants, base: {b40}, at: [{x250}, {x100}]}}
  - {{id: dog, faction: mutants, base: {b32}, at: [{x250}, {x140}]}}
terrain:
  - {{id: wall, kind: blocking, rect: {{at: [{x150}, {x160}], size: [{x20}, {x80}]}},
     height: {x50}}}
  - {{id: crate, kind: cover, polygon: [[{x140}, {x80}], [{x160}, {x80}], [{x160}, {x120}],
     [{x140}, {x120}]]}}
  - {{id: wood, kind: area, circle: {{at: [{x150}, {x30}], diameter: {x60}}}}}
weapons:
  - {{id: laser, type: rifle, short: red, long: green, dice: {{short: [green], long: [black]}}}}
"""


def board(units: str = "mm") -> fwwrules.Scenario:
    k = 1 / 25.4 if units == "in" else 1.0
    values = {f"x{n}": round(n * k, 6) for n in (20, 30, 50, 60, 80, 100, 120, 140, 150, 160, 250)}
    values |= {"b40": round(40 * k, 6), "b32": round(32 * k, 6), "units": units}
    return fwwrules.loads(BOARD.format(**values))


def attack(**kw: object) -> AttackRuling:
    """A ruling as the rules layer would return it (data only: drawing decides nothing)."""
    sight = Sight(
        witness=((70.0, 100.0), (230.0, 100.0)),
        loc=((50.0, 100.0), (250.0, 100.0)),
        crossings=(
            Crossing(TerrainRef(("crate",)), "crossed", ((140.0, 100.0), (160.0, 100.0))),
            Crossing(TerrainRef(("wall",)), "grazed", ((140.0, 120.0),)),
        ),
    )
    values: dict[str, object] = {
        "attacker": "knight",
        "target": "brute",
        "weapon": "laser",
        "rules": "core",
        "kind": "ranged",
        "allowed": True,
        "line_of_sight": True,
        "sight": sight,
    }
    values.update(kw)
    return AttackRuling(**values)  # type: ignore[arg-type]


def blocked() -> AttackRuling:
    sight = Sight(
        witness=None, loc=((50.0, 100.0), (250.0, 100.0)), blockers=(TerrainRef(("wall",)),)
    )
    return attack(allowed=False, line_of_sight=False, sight=sight, not_allowed=("ranged.los",))


def axes() -> tuple[Figure, object]:
    fig = Figure(figsize=(9, 6))
    return fig, fig.add_subplot()


def data(line: object) -> list[tuple[float, float]]:
    xs, ys = line.get_data()  # type: ignore[attr-defined]
    return [(float(x), float(y)) for x, y in zip(xs, ys, strict=True)]


def points(line: object) -> list[tuple[float, float]]:
    """The line's points without the NaN separators between pieces."""
    return [p for p in data(line) if not math.isnan(p[0])]


@pytest.mark.parametrize("units", ["mm", "in"])
def test_size_classes_bases_are_exact_circles_true_to_size_in_mm(units: str) -> None:
    s = board(units)
    _, ax = axes()
    art = draw_board(s, ax)
    for m in s.models:
        base = art.bases[m.id]
        assert type(base) is Circle
        assert base.center == pytest.approx(tuple(v * s.unit_mm for v in m.at))
        assert base.get_radius() == pytest.approx(m.base * s.unit_mm / 2)
    assert art.bases["knight"].get_radius() == pytest.approx(20.0, abs=1e-4)
    assert ax.get_aspect() == 1.0
    # drawn in mm, labelled in the file's units
    unit = "in" if units == "in" else "mm"
    assert f"({unit})" in ax.get_xlabel() and f"({unit})" in ax.get_ylabel()
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    locs = ax.get_xticks()
    assert ticks and all(t == f"{v / s.unit_mm:.4g}" for t, v in zip(ticks, locs, strict=True))
    # y grows upwards, as in the scenario file
    lo, hi = ax.get_ylim()
    assert lo < hi


def test_sides_differ_by_hatch_and_legend_not_colour_alone() -> None:
    s = board()
    art = draw_board(s, axes()[1])
    b = art.bases
    assert b["brute"].get_hatch() == b["dog"].get_hatch()
    assert b["knight"].get_hatch() != b["brute"].get_hatch()
    assert b["knight"].get_facecolor() != b["brute"].get_facecolor()
    texts = art.legend_texts()
    assert "side: Bos" in texts and "side: Mutants" in texts
    assert art.labels["knight"].get_text() == "Knight"


def test_terrain_kinds_hatched_labelled_and_in_legend() -> None:
    s = board()
    art = draw_board(s, axes()[1])
    # one patch per kind (a compound path of its pieces), each kind its own hatch
    assert set(art.terrain) == {"blocking", "cover", "area"}
    hatches = {k: p.get_hatch() for k, p in art.terrain.items()}
    assert len(set(hatches.values())) == 3
    texts = art.legend_texts()
    for kind in ("blocking", "cover", "area"):
        assert draw_word(kind) in texts
    assert "50" in art.terrain_labels["wall"].get_text()
    assert "height" in art.terrain_labels["wall"].get_text()
    # an unnamed piece without a height carries no label unless the style asks for one
    assert "crate" not in art.terrain_labels or not art.terrain_labels["crate"].get_visible()
    named = draw_board(s, axes()[1], style=BoardStyle(label_unnamed_terrain=True))
    assert named.terrain_labels["crate"].get_text() == "crate"
    assert named.terrain_labels["crate"].get_visible()
    # the blocking patch is the rules' polygon of the wall (the only blocking piece), turned
    # counter-clockwise and closed
    (ring,) = art.terrain["blocking"].get_path().to_polygons()
    assert Polygon(ring).equals(s.board.terrain["wall"].polygon)
    assert Polygon(ring).exterior.is_ccw


def test_elevation_significant_edge_drawn_thick_dashed() -> None:
    s = fwwrules.loads(
        """
format: fwwrules/scenario@1
models: [{id: a, faction: x, base: 32, at: [20, 20]}]
terrain: [{id: roof, kind: blocking, rect: {at: [100, 100], size: [60, 60]}, height: 60}]
"""
    )
    edges = significant_edges(s.board)
    assert edges
    art = draw_board(s, axes()[1])
    pts = points(art.edges)
    for e in edges:
        assert (e.a[0], e.a[1]) in pts and (e.b[0], e.b[1]) in pts
    assert art.edges.get_linestyle() == "--"
    assert art.edges.get_linewidth() >= 3
    assert draw_word("edge") in art.legend_texts()


def test_ranged_los_witness_line_drawn_and_no_fan() -> None:
    art = draw_board(board(), axes()[1], ruling=attack())
    assert art.sight.get_visible()
    assert data(art.sight) == [(70.0, 100.0), (230.0, 100.0)]
    assert not art.fan.get_visible() and not art.fan_label.get_visible()
    assert data(art.loc) == [(50.0, 100.0), (250.0, 100.0)]


def test_ranged_los_blocked_fan_drawn_faint_and_marked() -> None:
    s = board()
    art = draw_board(s, axes()[1], ruling=blocked())
    style = art.style
    assert not art.sight.get_visible()
    assert art.fan.get_visible() and art.fan.get_alpha() == style.fan_alpha < 1
    xs, _ = art.fan.get_data()
    assert sum(1 for x in xs if math.isnan(x)) == style.fan_lines - 1  # NaN separators
    pts = points(art.fan)
    # fan lines run from the attacker's base to the target's base
    for p in pts[::2]:
        assert abs(p[0] - 50.0) < 1e-9 and abs(p[1] - 100.0) <= 20.0
    assert art.fan_label.get_visible()
    assert draw_word("no-los") in art.fan_label.get_text()
    assert art.blockers.get_visible()
    wall_x = {round(x) for x, _ in points(art.blockers)}
    assert wall_x == {140, 160}


def test_cover_line_crossing_and_graze_differ_in_marker_and_line_style() -> None:
    art = draw_board(board(), axes()[1], ruling=attack())
    assert data(art.crossings) == [(140.0, 100.0), (160.0, 100.0)]
    assert points(art.crossing_points) == [(140.0, 100.0), (160.0, 100.0)]
    assert points(art.graze_points) == [(140.0, 120.0)]
    assert art.crossing_points.get_marker() != art.graze_points.get_marker()
    assert art.crossings.get_linestyle() != art.grazes.get_linestyle()
    # the crossed piece is outlined as cover, the grazed one only dotted
    assert {round(x) for x, _ in points(art.cover_outline)} == {140, 160}
    assert art.grazes.get_visible()
    assert draw_word("grazed") in art.legend_texts()


def test_cover_shooter_contact_ignored_piece_marked_ignored_never_in_cover_colour() -> None:
    """The clause's text is in the ruling beside the board; the board marks the piece
    "ignored", in the ignored style, and draws none of its crossing in the cover colour."""
    r = attack(ignored=(IgnoredEntry(TerrainRef(("crate",)), "cover.shooter-contact"),))
    art = draw_board(board(), axes()[1], ruling=r)
    shown = [t.get_text() for t in art.ignored_labels if t.get_visible()]
    assert shown == ["crate: ignored"]
    assert art.ignored.get_visible()
    assert to_hex(art.ignored.get_color()) != to_hex(art.style.cover_colour)
    # an ignored piece is not outlined as cover, nor its crossing drawn as one
    assert not art.cover_outline.get_visible()
    assert not art.crossings.get_visible() and not art.crossing_points.get_visible()
    assert draw_word("crossed") not in art.legend_texts()
    assert draw_word("ignored") in art.legend_texts()


def test_ranged_range_band_rings_at_base_radius_plus_band_end() -> None:
    s = board()
    art = draw_board(s, axes()[1], ruling=attack())
    short_end, long_end = band_limits(s, s.weapon("laser"))
    assert long_end is not None
    (x0, x1), (y0, y1) = art.ax.get_xlim(), art.ax.get_ylim()
    for name, end in (("short", short_end), ("long", long_end)):
        ring = art.bands[name]
        assert ring.center == pytest.approx((50.0, 100.0))
        assert ring.get_radius() == pytest.approx(20.0 + end)
        # drawn (and in the legend) only when some of it lies on the board in view
        r = 20.0 + end
        far = max(math.hypot(x - 50.0, y - 100.0) for x in (x0, x1) for y in (y0, y1))
        assert ring.get_visible() == (r < far)
        assert (draw_word(f"{name}-band") in " ".join(art.legend_texts())) == (r < far)
    assert art.bands["short"].get_visible()
    art2 = draw_board(s, axes()[1], ruling=attack(), show_bands=False)
    assert not any(r.get_visible() for r in art2.bands.values())


def test_range_band_names_placed_again_only_when_their_ring_or_the_view_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A ring's name keeps its measured place while the ring, its name and the view stay as
    they were (the drag steps of the target), the place measuring would give; a new view
    measures again."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    import fwwrules.draw.board as board_module

    s = board()
    fig, ax = axes()
    FigureCanvasAgg(fig)
    art = draw_board(s, ax, ruling=attack())
    measured: list[str] = []
    whole_inside = board_module._whole_inside

    def counted(ax: object, label: object, spots: object, renderer: object) -> object:
        measured.append(label.get_text())  # type: ignore[attr-defined]
        return whole_inside(ax, label, spots, renderer)  # type: ignore[arg-type]

    monkeypatch.setattr(board_module, "_whole_inside", counted)
    brute = next(m for m in s.models if m.id == "brute")
    moved = dataclasses.replace(
        s, models=tuple(dataclasses.replace(m, at=(250.0, 60.0)) if m is brute else m
                        for m in s.models)
    )  # fmt: skip

    def drag_step() -> dict[str, tuple[float, float]]:
        update_board(art, moved, ruling=attack(), place_labels=False, legend=False)
        return {n: t.get_position() for n, t in art.band_labels.items()}

    kept = drag_step()  # measured: the label placer centred the names it placed
    measured.clear()
    assert drag_step() == kept and not measured
    art.state["band_spots"].clear()  # measured afresh: the same places
    assert drag_step() == kept and measured
    measured.clear()
    ax.set_xlim(ax.get_xlim()[0] + 30.0, ax.get_xlim()[1])  # another view: measured again
    drag_step()
    assert measured


def test_melee_shoot_into_numbers_written_beside_bases() -> None:
    r = attack(into_melee=IntoMelee(2, ("brute", "dog", "brute", "dog")))
    art = draw_board(board(), axes()[1], ruling=r)
    shown = {t.get_text(): t.get_position() for t in art.numbers if t.get_visible()}
    assert set(shown) == {"1 3", "2 4"}
    assert shown["1 3"][0] > 250 and shown["2 4"][1] > 140
    art2 = draw_board(board(), axes()[1], ruling=r, into_melee=False)
    assert not any(t.get_visible() for t in art2.numbers)


@pytest.mark.parametrize("legal", [True, False])
def test_melee_slide_ghost_base_legal_and_illegal_by_style_and_label(legal: bool) -> None:
    s = board()
    slide = SlideRuling(model="knight", to=(60.0, 130.0), rules="core", legal=legal)
    art = draw_board(s, axes()[1], slide=slide)
    ghost = art.slide_ghost
    assert ghost.get_visible() and ghost.center == (60.0, 130.0)
    assert ghost.get_radius() == art.bases["knight"].get_radius()
    style = art.style
    expected = style.slide_legal_linestyle if legal else style.slide_illegal_linestyle
    assert ghost.get_linestyle() == expected
    assert art.slide_label.get_text() == draw_word("slide-legal" if legal else "slide-illegal")


def test_melee_withdraw_free_attack_arrows_from_each_attacker() -> None:
    s = board()
    skill = SkillInfo(None, None, 0)
    wd = WithdrawRuling(
        model="knight",
        rules="core",
        engaged=("brute", "dog"),
        free_attacks=(FreeAttack("brute", "claws", skill), FreeAttack("dog", "bite", skill)),
        no_attack=(),
        reasons=(),
    )
    art = draw_board(s, axes()[1], withdraw=wd)
    arrows = [a for a in art.free_attacks if a.get_visible()]
    assert len(arrows) == 2
    for a in arrows:
        assert a.xy[0] < a.get_position()[0]  # pointing at the knight on the left
    assert draw_word("free-attack") in art.legend_texts()


def test_everything_skipped_gracefully_without_ruling() -> None:
    art = draw_board(board(), axes()[1])
    for a in art.overlays():
        assert not a.get_visible()


def test_update_board_moves_same_artists_in_place() -> None:
    s = board()
    _, ax = axes()
    art = draw_board(s, ax, ruling=attack())
    base, ring, legend = art.bases["knight"], art.bands["short"], art.legend
    moved = dataclasses.replace(
        s,
        models=tuple(
            dataclasses.replace(m, at=(60.0, 20.0)) if m.id == "knight" else m for m in s.models
        ),
    )
    update_board(art, moved, ruling=attack())
    assert art.legend is legend  # the same kinds drawn: relabelled in place
    update_board(art, moved, ruling=blocked())
    assert art.bases["knight"] is base and base.center == (60.0, 20.0)
    assert art.labels["knight"].get_position()[1] < 20.0
    assert art.bands["short"] is ring and ring.center == (60.0, 20.0)
    assert art.fan.get_visible() and not art.sight.get_visible()
    assert len(ax.patches) == len(draw_board(s, axes()[1], ruling=attack()).ax.patches)


def test_lang_de_relabels_legend_and_axes_in_place() -> None:
    s = board()
    art = draw_board(s, axes()[1], ruling=blocked())
    texts = art.legend.get_texts()
    update_board(art, s, ruling=blocked(), lang="de")
    assert art.legend.get_texts() == texts  # same Text objects
    de = art.legend_texts()
    # blocked: not allowed, so no Line of Cover is drawn (decision 1); the fan is
    assert "keine Sichtlinie: blockiert" in de and "Deckungslinie" not in de
    assert "sichtblockierendes Gelände" in de and "Seite: Bos" in de
    assert "blockiert" in art.fan_label.get_text()
    with pytest.raises(ValueError):
        update_board(art, s, lang="fr")


def test_moving_artists_are_the_base_label_and_overlays() -> None:
    art = draw_board(board(), axes()[1], ruling=attack())
    moving = moving_artists(art, "knight")
    assert art.bases["knight"] in moving and art.labels["knight"] in moving
    assert art.sight in moving and art.bands["short"] in moving
    assert art.bases["brute"] not in moving


def test_board_style_is_frozen_and_colour_blind_palette() -> None:
    style = BoardStyle()
    with pytest.raises(dataclasses.FrozenInstanceError):
        style.fan_lines = 3  # type: ignore[misc]
    assert side_look("brotherhood") == ("#0072B2", "")
    custom = BoardStyle(fan_lines=3)
    art = draw_board(board(), axes()[1], ruling=blocked(), style=custom)
    xs, _ = art.fan.get_data()
    assert sum(1 for x in xs if math.isnan(x)) == 2


def test_draw_board_without_ax_makes_fixed_size_figure() -> None:
    import matplotlib.pyplot as plt

    art = draw_board(board())
    try:
        assert tuple(art.figure.get_size_inches()) == BoardStyle().figsize
    finally:
        plt.close(art.figure)  # type: ignore[arg-type]


@settings(max_examples=25, deadline=None)
@given(
    ax_=st.floats(0, 400),
    ay=st.floats(0, 400),
    angle=st.floats(0, 2 * math.pi),
    dist=st.floats(45, 300),
)
def test_ranged_los_fan_and_loc_join_the_two_bases(
    ax_: float, ay: float, angle: float, dist: float
) -> None:
    """Property: wherever the bases stand, every fan line starts in the attacker's base and
    ends in the target's, and each base is drawn at its exact centre and radius."""
    s = fwwrules.Scenario(
        models=(
            fwwrules.Model("a", "x", 40.0, (ax_, ay)),
            fwwrules.Model(
                "t", "y", 32.0, (ax_ + dist * math.cos(angle), ay + dist * math.sin(angle))
            ),
        )
    )
    a, t = s.board.models["a"].disc, s.board.models["t"].disc
    sight = Sight(witness=None, loc=((a.x, a.y), (t.x, t.y)), blockers=())
    r = AttackRuling(
        "a", "t", "improvised", "core", "ranged", False, line_of_sight=False, sight=sight
    )
    art = draw_board(s, axes()[1], ruling=r)
    for disc, base in ((a, art.bases["a"]), (t, art.bases["t"])):
        assert base.center == (disc.x, disc.y) and base.get_radius() == disc.r
    pts = points(art.fan)
    assert len(pts) == 2 * art.style.fan_lines
    for start, end in zip(pts[::2], pts[1::2], strict=True):
        assert math.dist(start, (a.x, a.y)) <= a.r + 1e-9
        assert math.dist(end, (t.x, t.y)) <= t.r + 1e-9


def test_elevation_edge_cover_highlights_the_significant_edge_crossed() -> None:
    s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    r = fwwrules.ruling(s, "knight", "lookout")
    assert r.sight is not None
    edge_crossings = [c for c in r.sight.crossings if c.how == "edge"]
    assert edge_crossings
    art = draw_board(s, axes()[1], ruling=r)
    outlined = points(art.cover_outline)
    ref = edge_crossings[0].ref
    assert isinstance(ref, EdgeRef) and edge_crossings[0].source == f"{ref.terrain}:{ref.side}"
    parts = [e for e in significant_edges(s.board) if e.ref == ref]
    assert parts
    for e in parts:
        assert (e.a[0], e.a[1]) in outlined and (e.b[0], e.b[1]) in outlined
    for p in edge_crossings[0].points:
        assert (p[0], p[1]) in points(art.crossing_points)


def test_melee_slide_drawn_along_the_legal_path_around_a_base() -> None:
    """The slide overlay follows the ruling's path (bending round Dogmeat), not a straight line."""
    import matplotlib.pyplot as plt

    import fwwrules
    from fwwrules.draw import draw_board

    s = fwwrules.load(fwwrules.example_path("melee-behemoth-slide"))
    r = fwwrules.slide(s, "behemoth", (324.8, 343.4))
    assert r.legal and len(r.path) > 2  # it bends round Dogmeat
    fig = plt.figure()
    try:
        arts = draw_board(s, fig.add_subplot(), slide=r)
        xs, ys = arts.slide_path.get_data()
        assert len(xs) == len(r.path)
        assert (xs[0], ys[0]) == pytest.approx(s.model("behemoth").at)
        assert (xs[-1], ys[-1]) == pytest.approx((324.8, 343.4))
    finally:
        plt.close(fig)


def test_terrain_drawn_as_one_patch_per_kind_every_piece_outlined_ccw() -> None:
    """Hundreds of pieces cost one hatched fill per kind: each kind is one compound path
    holding every piece's outline (the rules' polygon, counter-clockwise so that the
    non-zero fill covers overlapping pieces); ground areas lie under the pieces."""
    s = fwwrules.loads(
        """
format: fwwrules/scenario@1
models: [{id: a, faction: x, base: 32, at: [20, 20]}]
terrain:
  - {id: w1, kind: blocking, polygon: [[100, 100], [100, 140], [140, 140], [140, 100]]}
  - {id: w2, kind: blocking, rect: {at: [130, 130], size: [40, 20], angle: 30}}
  - {id: w3, kind: blocking, circle: {at: [300, 100], diameter: 50}}
  - {id: field, kind: area, rect: {at: [200, 200], size: [300, 300]}}
"""
    )
    art = draw_board(s, axes()[1])
    assert list(art.terrain) == ["area", "blocking"]
    rings = art.terrain["blocking"].get_path().to_polygons()
    assert len(rings) == 3
    for ring, tid in zip(rings, ("w1", "w2", "w3"), strict=True):
        outline = Polygon(ring)
        assert outline.exterior.is_ccw  # w1 is given clockwise
        assert outline.equals(s.board.terrain[tid].polygon)
    assert art.terrain["area"].get_zorder() < art.terrain["blocking"].get_zorder()
    assert all(p in art.ax.patches for p in art.terrain.values())


def test_terrain_label_made_when_a_piece_gains_a_height() -> None:
    s = board()
    art = draw_board(s, axes()[1])
    assert "crate" not in art.terrain_labels
    raised = dataclasses.replace(
        s,
        terrain=tuple(
            dataclasses.replace(t, height=30.0) if t.id == "crate" else t for t in s.terrain
        ),
    )
    update_board(art, raised)
    assert art.terrain_labels["crate"].get_visible()
    assert "30" in art.terrain_labels["crate"].get_text()


def test_melee_slide_refused_on_the_way_marks_where_the_contact_breaks() -> None:
    """#12: a slide refused because every way round breaks contact shows a cross at each point
    where it breaks (the ruling's ``breaks_at``), naming the model it would leave; a legal slide
    shows none."""
    import matplotlib.pyplot as plt

    import fwwrules
    from fwwrules.draw import draw_board
    from fwwrules.draw.board import drawn_kinds

    def piece(ident: str, faction: str, x: float, y: float) -> str:
        at = f"at: [{x}, {y}]"
        return f"  - {{id: {ident}, name: {ident.title()}, faction: {faction}, base: 32, {at}}}\n"

    head = "format: fwwrules/scenario@1\nrules: core\nunits: mm\nboard: {size: [300, 300]}\n"
    models = piece("s", "x", 118, 150) + piece("dogmeat", "y", 150, 150)
    closed = fwwrules.loads(
        head + "models:\n" + models + piece("r", "y", 150, 182) + piece("q", "y", 150, 118)
    )
    refused = fwwrules.slide(closed, "s", (182, 150))
    assert not refused.legal and refused.breaks == () and len(refused.breaks_at) == 2
    fig = plt.figure(figsize=(6, 6))
    try:
        art = draw_board(closed, fig.add_subplot(), slide=refused, lang="de")
        assert art.slide_breaks is not None and art.slide_breaks.get_visible()
        xs, ys = art.slide_breaks.get_data()
        pairs = zip((float(x) for x in xs), (float(y) for y in ys), strict=True)
        drawn = sorted(p for p in pairs if not math.isnan(p[0]))  # pieces split by NaN
        expected = sorted((bx, by) for _, _, (bx, by) in refused.breaks_at)
        assert [c for p in drawn for c in p] == pytest.approx([c for p in expected for c in p])
        for bx, by in drawn:  # on the ring round Dogmeat's centre, where contact still holds
            assert math.hypot(bx - 150, by - 150) == pytest.approx(32, abs=1e-6)
        texts = [t.get_text() for t in art.slide_break_labels if t.get_visible()]
        assert texts == ["Kontakt reißt ab: Dogmeat"] * 2
        assert "slide-breaks" in drawn_kinds(art)
        assert "Kontakt reißt ab" in art.legend_texts()
    finally:
        plt.close(fig)
    free = fwwrules.loads(head + "models:\n" + models)
    legal = fwwrules.slide(free, "s", (182, 150))
    assert legal.legal and legal.breaks_at == ()
    fig = plt.figure(figsize=(6, 6))
    try:
        art = draw_board(free, fig.add_subplot(), slide=legal)
        assert art.slide_breaks is not None and not art.slide_breaks.get_visible()
        assert not any(t.get_visible() for t in art.slide_break_labels)
        assert "slide-breaks" not in drawn_kinds(art)
    finally:
        plt.close(fig)
