"""The attack panel's side-view toggle (issue 36): ticking it shows the section along the Line
of Cover of the ruling the panel shows, drawn by ``fwwrules.draw.side``; a real drag of a model
(mouse events on the board) draws it again for where the model ends; unticking hides it. The
numbers are read from the side view's artists and compared with the panel's ruling."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import pytest
from panel_mouse import panel_mouse

import fwwrules
from fwwrules.draw.side import ORANGE_GID

ELEVATION = ("elevation.elevated", "elevation.edge-blocks-los", "elevation.edge-cover",
             "elevation.shooter-cover")  # fmt: skip


def _panel(lang: str = "en") -> object:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    return AttackPanel(s, attacker="lookout", target="knight", lang=lang, interactive=False)


def _check_side_is_the_ruling(panel: object) -> None:
    """The side view shown is the section of the panel's ruling: its length, the models'
    levels, and one Orange mark per elevation clause the ruling cites, as long as Orange."""
    r = panel.ruling  # type: ignore[attr-defined]
    s = panel.scenario  # type: ignore[attr-defined]
    art = panel.side.artists  # type: ignore[attr-defined]
    assert r is not None and r.sight is not None and art is not None
    (x0, y0), (x1, y1) = r.sight.loc
    length = math.hypot(x1 - x0, y1 - y0)
    assert art.section.length == pytest.approx(length)
    target = art.bases[r.target]
    assert target.get_x() + target.get_width() / 2 == pytest.approx(length)
    for m, base in art.bases.items():
        assert base.get_y() == pytest.approx(s.board.models[m].elevation)
    cited = {x.clause for x in r.reasons if x.clause in ELEVATION}
    assert set(art.orange) == cited
    for clause, line in art.orange.items():
        assert line.get_gid() == ORANGE_GID.format(clause)
        xs, ys = line.get_xdata(), line.get_ydata()
        drawn = math.hypot(max(xs) - min(xs), max(ys) - min(ys))
        assert drawn == pytest.approx(s.board.orange_mm)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_side_view_toggle_shows_the_rulings_section(lang: str) -> None:
    panel = _panel(lang)
    side = panel.side  # type: ignore[attr-defined]
    assert side.toggle.description == {"en": "Side view", "de": "Seitenansicht"}[lang]
    assert side.html.layout.display == "none" and side.html.value == ""
    assert side.artists is None
    side.toggle.value = True
    assert side.html.layout.display != "none"
    assert side.html.value.startswith('<img class="fwwrules-side-view" src="data:image/png')
    assert side.artists.lang == lang
    assert "elevation.elevated" in side.artists.orange  # the lookout on the roof is Elevated
    _check_side_is_the_ruling(panel)
    static = panel._repr_mimebundle_()["text/html"]  # type: ignore[attr-defined]
    # the saved view: the side view under the board picture, before the ruling column
    assert static.index('class="fwwrules-board"') < static.index("fwwrules-side-view")
    assert static.index("fwwrules-side-view") < static.index('class="fwwrules-ruling"')  # type: ignore[attr-defined]


def test_side_view_follows_a_real_drag_and_the_controls() -> None:
    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    before = side.artists.section.length
    shown = side.html.value
    x, y = panel.scenario.model("knight").at  # type: ignore[attr-defined]
    panel_mouse(panel, "button_press_event", x, y)
    assert panel.view.dragging == "knight"  # type: ignore[attr-defined]
    for k in range(1, 5):
        panel_mouse(panel, "motion_notify_event", x + 15.0 * k, y + 10.0 * k)
        # the old picture, dimmed until this position's side view is drawn (the pointer rests)
        assert "opacity:0.45" in side.html.value or side.current
    panel_mouse(panel, "button_release_event", x + 60.0, y + 40.0)
    assert panel.scenario.model("knight").at != (x, y)  # type: ignore[attr-defined]
    assert "opacity" not in side.html.value and side.html.value != shown
    assert side.artists.section.length != pytest.approx(before)
    _check_side_is_the_ruling(panel)
    # another target: the side view of the new shot
    panel.target.value = "sniper"  # type: ignore[attr-defined]
    assert side.artists.section.target.id == "sniper"
    _check_side_is_the_ruling(panel)
    panel.lang.value = "de"  # type: ignore[attr-defined]
    assert side.artists.lang == "de" and side.toggle.description == "Seitenansicht"


def _base64(png: bytes) -> str:
    import base64

    return base64.b64encode(png).decode("ascii")


def test_side_view_follows_the_drag_when_the_pointer_rests(monkeypatch: pytest.MonkeyPatch) -> None:
    """During a drag (the button held) the side view changes to the section of the position
    shown once the pointer rests: drawn by the side view's process, never by the drag step
    (the kernel draws no side view between the press and the release), byte for byte the
    picture the kernel draws of that position; a further motion dims it again."""
    import fwwrules_widgets.explain as explain
    from fwwrules_widgets.side_worker import side_picture

    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    first = side.html.value
    drawn_in_kernel: list[object] = []
    monkeypatch.setattr(
        explain, "side_picture", lambda *a: drawn_in_kernel.append(a) or side_picture(*a)
    )
    x, y = panel.scenario.model("knight").at  # type: ignore[attr-defined]
    panel_mouse(panel, "button_press_event", x, y)
    for k in range(1, 4):
        panel_mouse(panel, "motion_notify_event", x + 20.0 * k, y + 12.0 * k)
    assert side.wait(120.0), "the side view's process did not draw the rested position"
    assert panel.view.dragging == "knight"  # type: ignore[attr-defined]  # still dragging
    assert side.current and "opacity" not in side.html.value and side.html.value != first
    png, alt, _, _ = side_picture(
        panel.scenario,
        panel.ruling,
        "en",
        panel.view.ratio,
        side.style,  # type: ignore[attr-defined]
    )
    assert _base64(png) in side.html.value and f'alt="{alt}"' in side.html.value
    rested = panel.scenario.model("knight").at  # type: ignore[attr-defined]
    panel_mouse(panel, "motion_notify_event", x + 20.0 * 3, y + 12.0 * 3)  # where it rests
    assert side.current and "opacity" not in side.html.value  # no motion: nothing asked
    panel_mouse(panel, "motion_notify_event", x + 20.0, y + 12.0)  # back: a free place
    assert panel.scenario.model("knight").at != rested  # type: ignore[attr-defined]
    assert not side.current and "opacity:0.45" in side.html.value
    assert drawn_in_kernel == []  # no drag step drew a side view
    panel_mouse(panel, "button_release_event", x + 20.0, y + 12.0)
    assert len(drawn_in_kernel) == 1 and side.current  # the drop's, drawn once
    _check_side_is_the_ruling(panel)


class _Silent:
    """A side view's process that records the questions and answers none."""

    def __init__(self) -> None:
        self.sent: list[tuple[object, ...]] = []

    def alive(self) -> bool:
        return True

    def hold(self, lock: object) -> None:
        pass

    def send(self, message: tuple[object, ...]) -> None:
        self.sent.append(message)


def test_side_view_answer_older_than_the_picture_is_not_shown() -> None:
    """A picture the process drew for a position the drag left is shown only while nothing
    newer is shown, and dimmed; after the drop's picture, a late one is dropped."""
    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    silent = _Silent()
    side._worker = silent  # the test plays the process: it answers nothing by itself
    x, y = panel.scenario.model("knight").at  # type: ignore[attr-defined]
    panel_mouse(panel, "button_press_event", x, y)
    panel_mouse(panel, "motion_notify_event", x + 20.0, y)
    old = side.generation
    panel_mouse(panel, "motion_notify_event", x + 40.0, y)
    asked = [m for m in silent.sent if m[0] == "ask"]
    assert [m[2] for m in asked] == [old, old + 1]  # one question per drag step
    assert asked[-1][3]["knight"][:2] == panel.scenario.model("knight").at  # type: ignore[attr-defined]
    side.answer(old, None)  # the first position's answer: no Line of Cover there, say
    assert not side.current and "opacity:0.45" in side.html.value
    assert "fwwrules-side-view" not in side.html.value
    panel_mouse(panel, "button_release_event", x + 40.0, y)
    dropped = side.html.value
    side.answer(old, None)
    side.answer(side.generation - 1, None)
    assert side.html.value == dropped and side.current and side.artists is not None


def test_side_view_toggle_off_hides_it_and_draws_nothing() -> None:
    panel = _panel()
    side = panel.side  # type: ignore[attr-defined]
    side.toggle.value = True
    assert side.artists is not None
    drawn = side.artists
    panel.compare.toggle.value = True  # type: ignore[attr-defined]
    assert side.artists is drawn  # ticking the comparison leaves the side view as drawn
    side.toggle.value = False
    assert side.html.layout.display == "none" and side.html.value == ""
    assert side.artists is None
    assert panel.compare.comparisons  # type: ignore[attr-defined]  # and unticking it, the comparison
    panel.move("knight", 150.0, 320.0)  # type: ignore[attr-defined]
    assert side.artists is None and side.html.value == ""
    assert "fwwrules-side-view" not in panel._repr_mimebundle_()["text/html"]  # type: ignore[attr-defined]


# --- core rules and Vault-Tec Simulator side by side ------------------------------------------


def _clauses(panel: object) -> list[list[str]]:
    return [[d.clause for d in c.differences] for c in panel.compare.comparisons]  # type: ignore[attr-defined]


def _check_compare_is_the_rulings(panel: object, attacker: str, target: str) -> None:
    """The comparison shown asks the rules about the board as the panel has it now; the
    panel's own ruling stands for its ruleset (not asked again)."""
    s = panel.scenario  # type: ignore[attr-defined]
    c = panel.compare.comparisons[0]  # type: ignore[attr-defined]
    own = panel.ruling  # type: ignore[attr-defined]
    assert (c.core if own.rules == "core" else c.vts) is own
    for rules, shown in (("core", c.core), ("vts", c.vts)):
        r = fwwrules.ruling(s, attacker, target, rules=rules)
        assert (shown.rules, shown.allowed, shown.skill, shown.armor) == (
            rules, r.allowed, r.skill, r.armor
        )  # fmt: skip
        assert shown.range.distance == pytest.approx(r.range.distance)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_attack_panel_compare_cover_armor_plus_one_or_an_armor_boost(lang: str) -> None:
    """cover-example-1: the Super Mutant Brute shoots the Knight in cover: armor +1 (core)
    or an Armor Boost (vts), the difference highlighted with its clause id."""
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    panel = AttackPanel(s, attacker="brute", target="knight", lang=lang, interactive=False)
    box = panel.compare
    assert (
        box.toggle.description == {"en": "Compare rulesets", "de": "Regelwerke vergleichen"}[lang]
    )
    assert box.html.layout.display == "none" and box.comparisons == ()
    box.toggle.value = True
    assert _clauses(panel) == [["cover.armor"]]
    shown = box.html.value
    assert box.html.layout.display != "none"
    assert "<code>cover.armor</code>" in shown
    assert '<li class="fwwrules-differs"' in shown and "background:#fff3bf" in shown
    heads = {"en": ("Core rules", "Vault-Tec Simulator"), "de": ("Grundregeln", "Vault-Tec")}
    assert all(h in shown for h in heads[lang])
    assert {"en": "Armor Boost", "de": "„Armor Boost“"}[lang] in shown
    _check_compare_is_the_rulings(panel, "brute", "knight")
    assert "fwwrules-compare" in panel._repr_mimebundle_()["text/html"]
    box.toggle.value = False
    assert box.html.layout.display == "none" and box.html.value == "" and box.comparisons == ()


def test_attack_panel_compare_follows_a_real_drag() -> None:
    from fwwrules_widgets import AttackPanel

    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    panel = AttackPanel(s, attacker="brute", target="knight", interactive=False)
    panel.compare.toggle.value = True
    before = panel.compare.comparisons[0].core.range.distance
    x, y = s.model("brute").at
    panel_mouse(panel, "button_press_event", x, y)
    assert panel.view.dragging == "brute"
    for k in range(1, 4):
        panel_mouse(panel, "motion_notify_event", x - 20.0 * k, y + 5.0 * k)
        _check_compare_is_the_rulings(panel, "brute", "knight")  # with every drag step
    panel_mouse(panel, "button_release_event", x - 60.0, y + 15.0)
    assert panel.compare.comparisons[0].core.range.distance != pytest.approx(before)
    _check_compare_is_the_rulings(panel, "brute", "knight")


def test_melee_panel_compare_shoot_into_and_slide() -> None:
    """melee-shoot-into-3: +2 and the Armor die's numbers (core) against −2 (vts); then a
    slide (melee-behemoth-slide) the core rules allow and the Vault-Tec Simulator does not."""
    from fwwrules_widgets import MeleePanel

    panel = MeleePanel(
        fwwrules.load(fwwrules.example_path("melee-shoot-into-3")), interactive=False
    )
    box = panel.compare
    box.toggle.value = True
    assert box.comparisons == () and "Choose a shooter" in box.html.value
    panel.shooter.value = "minuteman"
    panel.target.value = "raider"
    assert _clauses(panel) == [["melee.shoot-into"]]
    assert "<code>melee.shoot-into</code>" in box.html.value
    static = panel._repr_mimebundle_()["text/html"]
    assert static.index("fwwrules-compare") < static.index("<h4>")  # under the board picture
    _check_compare_is_the_rulings(panel, "minuteman", "raider")
    # the shooter dragged: the comparison follows every step
    x, y = panel.scenario.model("minuteman").at
    panel_mouse(panel, "button_press_event", x, y)
    for k in range(1, 4):
        panel_mouse(panel, "motion_notify_event", x, y + 15.0 * k)
        _check_compare_is_the_rulings(panel, "minuteman", "raider")
    panel_mouse(panel, "button_release_event", x, y + 45.0)
    assert panel.scenario.model("minuteman").at != (x, y)
    _check_compare_is_the_rulings(panel, "minuteman", "raider")

    panel = MeleePanel(fwwrules.load(fwwrules.example_path("melee-behemoth-slide")), lang="de",
                       interactive=False)  # fmt: skip
    panel.compare.toggle.value = True
    assert "Einen Schützen oder ein Modell" in panel.compare.html.value
    panel.slider.value = "behemoth"
    (c,) = panel.compare.comparisons
    assert (c.core.rules, c.core.legal, c.vts.legal) == ("core", True, False)
    assert c.core.to == panel.to and _clauses(panel) == [["melee.slide"]]
    assert c.core is panel.slide  # the panel's own slide, not asked again
    assert "<code>melee.slide</code>" in panel.compare.html.value
    assert "Slide" in panel.compare.html.value


def test_side_view_is_exported_under_the_board_while_ticked(tmp_path: Path) -> None:
    """``save_picture`` and the export control write the side view under the board at the
    same resolution while it is ticked, and the board alone when it is not."""
    from PIL import Image

    panel = _panel("de")
    board = panel.save_picture(tmp_path / "board.png", scale=1)  # type: ignore[attr-defined]
    bw, bh = Image.open(board).size
    panel.side.toggle.value = True  # type: ignore[attr-defined]
    both = panel.save_picture(tmp_path / "both.png", scale=2)  # type: ignore[attr-defined]
    side = panel.side.artists.figure  # type: ignore[attr-defined]
    sw, sh = (round(v * 100 * 2) for v in side.get_size_inches())
    assert Image.open(both).size == (2 * bw, 2 * bh + sh) and sw == 2 * bw
    svg = panel.save_picture(tmp_path / "both.svg")  # type: ignore[attr-defined]
    text = svg.read_text(encoding="utf-8")
    assert text.count("<svg") == 3 and "Seitenansicht" in text
    control = panel.export_control  # type: ignore[attr-defined]
    control.name.value = str(tmp_path / "button.png")
    control.scale.value = 1.0
    out = control.export()
    assert out is not None and Image.open(out).size == (bw, bh + sh // 2)
    assert f"{bw} × {bh + sh // 2} px" in control.status.value
    panel.side.toggle.value = False  # type: ignore[attr-defined]
    assert Image.open(panel.save_picture(tmp_path / "off.png", scale=1)).size == (bw, bh)  # type: ignore[attr-defined]
