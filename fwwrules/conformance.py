"""The conformance table's rows: every shipped example question a notebook asserts, as data.

``docs/conformance.md`` (written by ``make docs``, ``tools/make_conformance.py``) lists each row:
where the book shows the example (:data:`BOOK`), what the book says happens (the outcome the
named notebook cell asserts, read from that cell), what fwwrules answers and whether the two
agree. The translation review page links each example to its row (:func:`anchor`); a question
the notebooks do not assert links to its example's section (:func:`example_anchor`).

Nothing here states an outcome: the outcomes are the notebooks' own ``assert`` lines, so a row
can only say what a notebook already checks. Nothing here invents a page either: a page is the
one the example's title names ("RoP p.17"), and where the project does not know the book's
figure the row says so (``figure=None``).

>>> anchor(Question("cover-example-1", "ruling", "knight", "brute"))
'cover-example-1-knight-brute'
>>> anchor(Question("melee-behemoth-slide", "slide", "behemoth", (324.8, 343.4)))
'melee-behemoth-slide-slide-behemoth-324-8-343-4'
>>> anchor(Question("cover-example-1", "ruling", "brute", "knight", rules="vts"))
'cover-example-1-brute-knight-vts'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .pieces import BookSource

PAGE = "docs/conformance.md"
"""The page, from the repository's root."""

PAGE_URL = "https://github.com/fwwrules/fwwrules/blob/main/" + PAGE
"""Where the published page lives (the review page links here: it is a file of its own)."""

QuestionKind = Literal["ruling", "slide", "withdraw", "grid"]


@dataclass(frozen=True, slots=True)
class Question:
    """One question asked of an example: ``ruling`` (attacker, target), ``slide`` (model, the
    centre it slides to), ``withdraw`` (model) or ``grid`` (attacker, target, ``attack``).
    ``rules`` overrides the file's ruleset (``None``: the file's own); ``weapon`` the
    attacker's first weapon."""

    example: str
    kind: QuestionKind
    first: str
    second: str | tuple[float, float] | None = None
    attack: str = ""
    rules: str | None = None
    weapon: str | None = None

    @property
    def key(self) -> str:
        """The question as the review page's item ids write it (``example:...`` without the
        prefix), with the weapon and ruleset when the question names them."""
        if self.kind == "slide":
            assert isinstance(self.second, tuple)
            core = f"{self.example}:slide:{self.first}:{self.second[0]:g},{self.second[1]:g}"
        elif self.kind == "withdraw":
            core = f"{self.example}:withdraw:{self.first}"
        elif self.kind == "grid":
            core = f"{self.example}:{self.attack}:{self.first}>{self.second}"
        else:
            core = f"{self.example}:{self.first}>{self.second}"
        extras = [x for x in (self.weapon, self.rules) if x]
        return ":".join([core, *extras])


@dataclass(frozen=True, slots=True)
class Source:
    """A notebook cell that asserts the book's outcome: the notebook (file name without
    ``.ipynb``), the cell's id, and the expression that holds the answer in that cell
    (``r1``, ``r4["mutant-2"]``)."""

    notebook: str
    cell: str
    var: str


@dataclass(frozen=True, slots=True)
class Row:
    """One row: a question and the notebook cells that assert its outcome."""

    question: Question
    sources: tuple[Source, ...]


@dataclass(frozen=True, slots=True)
class BookRef:
    """Where the book shows an example: ``source`` (``RoP``: the *Rules of Play*; ``PRD``: the
    Pathfinder Reference Document; ``None``: no book, the project's own board), and the
    figure's catalogue key (``conformance/figure-<key>``; ``None``: the project does not know
    which figure). The page comes from the example's title (``RoP p.17``), never from here."""

    source: BookSource | None
    figure: str | None = None


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def anchor(question: Question) -> str:
    """The HTML anchor of a question's row on the page."""
    return _slug(question.key)


def example_anchor(example: str) -> str:
    """The HTML anchor of an example's section on the page."""
    return "example-" + _slug(example)


BOOK: dict[str, BookRef] = {
    "cover-example-1": BookRef("RoP", "cover-1"),
    "cover-example-2": BookRef("RoP", "cover-2"),
    "cover-example-3": BookRef("RoP", "cover-3"),
    "cover-example-4": BookRef("RoP", "cover-4"),
    "cover-example-4-dense": BookRef("RoP", "cover-4-dense"),
    "elevation-rooftop": BookRef("RoP"),
    "elevation-gantry": BookRef(None),
    "elevation-stacked-platform": BookRef(None),
    "melee-outnumbered-1": BookRef("RoP", "outnumbered-1"),
    "melee-outnumbered-2": BookRef("RoP", "outnumbered-2"),
    "melee-behemoth-slide": BookRef("RoP", "slide"),
    "melee-behemoth-after-slide": BookRef("RoP", "slide"),
    "melee-shoot-into-2": BookRef("RoP"),
    "melee-shoot-into-3": BookRef("RoP"),
    "melee-shoot-into-hidden": BookRef("RoP"),
    "grid/fighter": BookRef("PRD", "prd-cover"),
    "grid/rogue": BookRef("PRD", "prd-cover"),
    "grid/cleric": BookRef("PRD", "prd-cover"),
    "grid/sorcerer": BookRef("PRD", "prd-cover"),
    "grid/big": BookRef(None),
    "grid/border-walls": BookRef(None),
    "grid/corridor": BookRef(None),
    "grid/improved": BookRef(None),
    "grid/low-obstacle": BookRef(None),
    "grid/soft": BookRef(None),
    "grid/total": BookRef(None),
}
"""Where the book shows each shipped example (every example has an entry; a test checks)."""


_NB = {
    "cover": "02-line-of-sight-and-cover",
    "elevation": "03-elevation",
    "melee": "04-close-combat",
    "slides": "05-slides-and-withdrawal",
    "into": "06-shooting-into-melee",
    "vts": "07-core-vs-vault-tec",
    "grid": "08-pathfinder-grid-cover",
}
"""The notebooks that assert the rows, by topic."""


def _cover_rows() -> list[Row]:
    """Cover examples 1 to 4 (notebook 02; their Vault-Tec Simulator side in notebook 07)."""
    q, s, nb = Question, Source, _NB["cover"]
    c1, c4, c4d = "cover-example-1", "cover-example-4", "cover-example-4-dense"
    mutants = ("mutant-1", "mutant-2", "mutant-3")
    return [
        Row(q(c1, "ruling", "knight", "brute"), (s(nb, "c004", "r1"),)),
        Row(
            q(c1, "ruling", "brute", "knight"),
            (s(nb, "c007", "r1_back"), s(_NB["vts"], "c004", "core")),
        ),
        Row(q(c1, "ruling", "brute", "knight", rules="vts"), (s(_NB["vts"], "c004", "vts"),)),
        Row(q("cover-example-2", "ruling", "settler-a", "knight-1"), (s(nb, "c010", "r2"),)),
        Row(q("cover-example-2", "ruling", "knight-1", "settler-a"), (s(nb, "c012", "r2_back"),)),
        Row(q("cover-example-3", "ruling", "mutant", "knight"), (s(nb, "c015", "r3"),)),
        *(Row(q(c4, "ruling", "paladin", m), (s(nb, "c018", f'r4["{m}"]'),)) for m in mutants),
        *(Row(q(c4, "ruling", m, "paladin"), (s(nb, "c021", f'r4_back["{m}"]'),)) for m in mutants),
        *(Row(q(c4d, "ruling", "paladin", m), (s(nb, "c024", f'r4d["{m}"]'),)) for m in mutants),
    ]


def _elevation_rows() -> list[Row]:
    """The elevation examples (notebook 03)."""
    q, s, nb = Question, Source, _NB["elevation"]
    roof, gantry, tower = "elevation-rooftop", "elevation-gantry", "elevation-stacked-platform"
    pairs = (("gunner", "guard"), ("gunner", "settler"), ("guard", "settler"), ("settler", "guard"))
    return [
        Row(q(roof, "ruling", "sniper", "knight"), (s(nb, "c007", "r_sniper"),)),
        Row(q(roof, "ruling", "knight", "sniper"), (s(nb, "c007", "r_at_sniper"),)),
        Row(q(roof, "ruling", "lookout", "knight"), (s(nb, "c010", "r_down"),)),
        Row(q(roof, "ruling", "knight", "lookout"), (s(nb, "c013", "r_up"),)),
        Row(q(gantry, "ruling", "raider", "settler"), (s(nb, "c016", "r_ground"),)),
        Row(q(gantry, "ruling", "scavenger", "raider"), (s(nb, "c016", "r_from_gantry"),)),
        Row(q(gantry, "ruling", "raider", "scavenger"), (s(nb, "c016", "r_to_gantry"),)),
        *(
            Row(q(tower, "ruling", a, t), (s(nb, "c019", f'r_tower[("{a}", "{t}")]'),))
            for a, t in pairs
        ),
    ]


def _melee_rows() -> list[Row]:
    """Outnumbered, slides and withdrawals, shooting into a melee (notebooks 04 to 07)."""
    q, s, nb = Question, Source, _NB
    out1, out2 = "melee-outnumbered-1", "melee-outnumbered-2"
    slide, after = "melee-behemoth-slide", "melee-behemoth-after-slide"
    two, three, hidden = "melee-shoot-into-2", "melee-shoot-into-3", "melee-shoot-into-hidden"
    to = (324.8, 343.4)
    melee, slides, into = nb["melee"], nb["slides"], nb["into"]
    return [
        Row(
            q(out1, "ruling", "brotherhood-a", "super-mutant-1", weapon="improvised"),
            (s(melee, "c020", "r_on_sm1"),),
        ),
        Row(
            q(out1, "ruling", "super-mutant-1", "brotherhood-a"), (s(melee, "c020", "r_from_sm1"),)
        ),
        Row(q(out2, "ruling", "super-mutant-2", "brotherhood-a"), (s(melee, "c023", "r_on_a"),)),
        Row(q(out2, "ruling", "super-mutant-1", "brotherhood-b"), (s(melee, "c023", "r_on_b"),)),
        Row(q(slide, "slide", "behemoth", to), (s(slides, "c004", "slide_1"),)),
        Row(q(slide, "slide", "behemoth", (250, 360)), (s(slides, "c007", "slide_away"),)),
        Row(q(slide, "slide", "behemoth", (350, 300)), (s(slides, "c007", "slide_onto"),)),
        Row(
            q(slide, "slide", "behemoth", to, rules="vts"),
            (s(slides, "c007", "slide_vts"), s(nb["vts"], "c010", "slide_vts")),
        ),
        Row(q(slide, "withdraw", "behemoth"), (s(slides, "c010", "walk_away"),)),
        Row(q(after, "withdraw", "behemoth"), (s(slides, "c013", "w_behemoth"),)),
        Row(q(after, "withdraw", "sole-survivor"), (s(slides, "c016", "w_survivor"),)),
        Row(q(after, "withdraw", "dogmeat"), (s(slides, "c016", "w_dogmeat"),)),
        Row(q(two, "ruling", "minuteman", "raider"), (s(into, "c004", "r_two"),)),
        Row(q(two, "ruling", "minuteman", "sentry"), (s(into, "c007", "r_friend"),)),
        Row(
            q(three, "ruling", "minuteman", "raider"),
            (s(into, "c010", "r_three"), s(nb["vts"], "c013", "core")),
        ),
        Row(
            q(three, "ruling", "minuteman", "raider", rules="vts"),
            (s(into, "c016", "r_vts"), s(nb["vts"], "c013", "vts")),
        ),
        Row(q(hidden, "ruling", "minuteman", "raider"), (s(into, "c013", "r_hidden"),)),
        Row(
            q(hidden, "ruling", "minuteman", "settler"),
            (s(into, "c013", 'fwwrules.ruling(hidden, "minuteman", "settler")'),),
        ),
    ]


def _grid_rows() -> list[Row]:
    """The Pathfinder grid rows (notebook 08)."""
    q, s, nb08 = Question, Source, _NB["grid"]

    def g(example: str, a: str, t: str, attack: str, *cells: tuple[str, str]) -> Row:
        return Row(q(f"grid/{example}", "grid", a, t, attack), tuple(s(nb08, *c) for c in cells))

    return [
        g("fighter", "fighter", "ogre", "melee", ("c004", "r_fighter"), ("c019", "r_fighter")),
        g("fighter", "ogre", "fighter", "melee", ("c004", "r_fighter_back")),
        g("rogue", "rogue", "ogre", "melee", ("c007", "r_rogue"), ("c019", "r_rogue")),
        g("rogue", "ogre", "rogue", "melee", ("c010", "r_reach"), ("c019", "r_reach")),
        g("cleric", "cleric", "ogre", "ranged", ("c013", "r_cleric"), ("c019", "r_cleric")),
        g("sorcerer", "sorcerer", "ogre", "ranged", ("c016", "r_sorc")),
        g("big", "ogre", "fighter", "melee", ("c022", "r_big")),
        g("big", "fighter", "ogre", "melee", ("c022", "r_big_back")),
        *(
            g("low-obstacle", a, t, "ranged", ("c025", f'r_low[("{a}", "{t}")]'))
            for a, t in (("archer", "guard"), ("scout", "runner"), ("sniper", "wanderer"))
        ),
        g("soft", "archer", "wizard", "ranged", ("c028", "r_soft")),
        g("soft", "fighter", "wizard", "melee", ("c028", "r_soft_melee")),
        g("improved", "archer", "guard", "ranged", ("c031", "r_slit")),
        g("improved", "guard", "archer", "ranged", ("c031", "r_out")),
        g("total", "guard", "prisoner", "ranged", ("c034", "r_total")),
        g("corridor", "archer", "rat", "ranged", ("c037", "r_corr")),
        g("border-walls", "archer", "cat", "ranged", ("c037", "r_cat")),
        g("border-walls", "archer", "knight", "ranged", ("c037", "r_knight")),
    ]


ROWS: tuple[Row, ...] = (*_cover_rows(), *_elevation_rows(), *_melee_rows(), *_grid_rows())
"""Every row of the table, in notebook order."""


def row_for(question: Question) -> Row | None:
    """The row asking exactly ``question``, if there is one."""
    return next((r for r in ROWS if r.question == question), None)
