"""Decision 1 (issue 22/23), as the picture shows it: an attack that is not allowed presents
no cover, armor or dice as applying. Its text leads with why; its picture draws the line of
sight (or the blocked fan) and the range rings, and nothing of cover: no modifier badge, no
Line of Cover, no piece highlighted as crossed, grazed or ignored, no such legend entry."""

from __future__ import annotations

import dataclasses

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board, draw_word
from fwwrules.draw.figure import new_axes


def out_of_range() -> fwwrules.Scenario:
    """Cover example 1 with short rulers: the Brute is beyond the Laser Rifle's long range,
    in plain sight, with the crate across the Line of Cover (cover would apply)."""
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    return dataclasses.replace(s, rulers={"red": 40.0, "green": 60.0})


def picture(s: fwwrules.Scenario, ruling: object, lang: str = "en") -> object:
    st = DEFAULT_STYLE
    return draw_board(s, new_axes(st.figsize, st.dpi, st.margins), ruling=ruling, lang=lang)  # type: ignore[arg-type]


def test_ranged_range_refusal_picture_draws_sight_and_no_cover() -> None:
    s = out_of_range()
    allowed = fwwrules.ruling(fwwrules.load(fwwrules.example_path("cover-example-1")),
                              "knight", "brute")  # fmt: skip
    assert allowed.allowed and [c.source for c in allowed.cover] == ["crate"]
    r = fwwrules.ruling(s, "knight", "brute")
    assert not r.allowed and r.not_allowed == ("ranged.range",)
    assert r.line_of_sight is True and not r.cover and not r.ignored
    assert r.skill.modifier == 0 and r.armor.bonus == 0
    for lang in ("en", "de"):
        art = picture(s, r, lang)
        assert art.sight.get_visible()  # the line of sight is still drawn
        assert art.bands["short"].get_visible()  # and the rulers that say why
        for hidden in (art.loc, art.cover_outline, art.crossings, art.crossing_points,
                       art.grazes, art.graze_points, art.ignored):  # fmt: skip
            assert not hidden.get_visible()
        assert not any(t.get_visible() and t.get_text() for t in art.cover_labels)  # no badge
        assert not any(t.get_visible() and t.get_text() for t in art.ignored_labels)
        legend = " | ".join(art.legend_texts())
        for kind in ("loc", "crossed", "grazed", "ignored"):
            assert draw_word(kind, lang) not in legend, legend
        headline = art.title.get_text().replace("\n", " ")
        assert r.headline(lang) in headline or r.headline(lang).replace("\n", " ") in headline
        text = r.explain(lang)
        assert text.splitlines()[0] == r.headline(lang)  # leads with why
        assert "−2" not in text and "-2" not in text


def test_ranged_los_refusal_picture_draws_the_blocked_fan_and_no_cover() -> None:
    s = fwwrules.load(fwwrules.example_path("elevation-rooftop"))
    r = fwwrules.ruling(s, "knight", "sniper")
    assert not r.allowed and r.not_allowed == ("ranged.los",) and not r.cover
    assert r.sight is not None and r.sight.crossings  # the geometry knows the crossings
    art = picture(s, r)
    assert art.fan.get_visible() and art.fan_label.get_visible()
    assert not art.loc.get_visible() and not art.crossing_points.get_visible()
    assert not any(t.get_visible() and t.get_text() for t in art.cover_labels)


def test_allowed_attack_still_draws_its_cover() -> None:
    s = fwwrules.load(fwwrules.example_path("cover-example-1"))
    art = picture(s, fwwrules.ruling(s, "knight", "brute"))
    assert art.loc.get_visible() and art.crossing_points.get_visible()
    assert [t.get_text() for t in art.cover_labels if t.get_visible()] == ["−2"]
