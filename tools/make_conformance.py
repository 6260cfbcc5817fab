"""Write docs/conformance.md, the conformance table, and its pictures (``make docs``).

For every row of :data:`fwwrules.conformance.ROWS` (every question a notebook asserts about a
shipped example): where the book shows the example, what the book says happens, what fwwrules
answers (English and German, with the picture), whether they agree, and the notebook cell that
asserts it; then the property tests, one line each (what is checked, how many cases).

"What the book says" is read from the notebook cell (``tools/conformance_claims.py``): each
claim the cell's ``assert`` makes about the row's answer, shown with the label of its measure
(:data:`MEASURES`, texts in the catalogue's ``conformance/`` section). "What fwwrules answers"
is the same measure of a fresh answer from the public API. Pages come from the examples' titles
("RoP p.17"); where the project does not know a figure, the row says so.

The Markdown is deterministic (``tests/test_conformance.py`` compares it with the committed
file, and fails when a shipped example has no row). The pictures are drawn again only when what
they show may have changed (``docs/conformance/pictures.json`` keeps a digest of each one's
inputs: the answer, the scenario file, the drawing code and the catalogue); the test checks
that each one exists, not its bytes. Usage::

    python tools/make_conformance.py            # write the page and the changed pictures
    python tools/make_conformance.py --check    # exit 1 when docs/conformance.md is stale
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tools"))

from conformance_claims import (  # noqa: E402
    Cell,
    Claim,
    cell_claims,
    heading_before,
    mentions,
    normal,
    notebook_cells,
)

from fwwrules import catalogue  # noqa: E402
from fwwrules.conformance import (  # noqa: E402
    BOOK,
    PAGE,
    ROWS,
    Question,
    Row,
    anchor,
    example_anchor,
)

OUT = REPO / PAGE
PICTURES = OUT.parent / "conformance"
MANIFEST = PICTURES / "pictures.json"
PICTURE_WIDTH = 640
"""Pixels across each picture: legible on GitHub at its natural size."""
PICTURE_COLOURS = 128
"""Colours of each picture's palette (the pictures are flat: a quarter of the bytes)."""
LANGS = ("en", "de")


# --- measures: what a claim is about, how to read it off an answer and how to show it -------


@dataclass(frozen=True)
class Measure:
    """One thing a notebook asserts about an answer: its catalogue label
    (``conformance/m-<label>``), the expressions notebooks write for it (``{r}`` is the
    answer), whether it is compared (``==``) or searched (``contains``), how to read it off an
    answer and how to show a value."""

    label: str
    templates: tuple[str, ...]
    get: Callable[[Any], Any]
    show: str
    op: str = "=="


def _m(
    label: str,
    templates: str | tuple[str, ...],
    get: Callable[[Any], Any],
    show: str,
    op: str = "==",
) -> Measure:
    return Measure(label, (templates,) if isinstance(templates, str) else templates, get, show, op)


def _numbers(r: Any, i: int) -> Any:
    return None if r.into_melee is None or r.into_melee.numbers is None else r.into_melee.numbers[i]


ATTACK = (
    _m("allowed", "{r}.allowed", lambda r: r.allowed, "bool"),
    _m("not-allowed", "{r}.not_allowed", lambda r: r.not_allowed, "clauses"),
    _m("line-of-sight", "{r}.line_of_sight", lambda r: r.line_of_sight, "bool"),
    _m("skill-modifier", "{r}.skill.modifier", lambda r: r.skill.modifier, "signed"),
    _m("skill-value", "{r}.skill.value", lambda r: r.skill.value, "count"),
    _m("skill-target", "{r}.skill.target", lambda r: r.skill.target, "count"),
    _m("armor-bonus", "{r}.armor.bonus", lambda r: r.armor.bonus, "signed"),
    _m("armor-boost", "{r}.armor.boost", lambda r: r.armor.boost, "count"),
    _m(
        "cover",
        ("{r}.cover", "[c.source for c in {r}.cover]"),
        lambda r: tuple(c.source for c in r.cover),
        "ids",
    ),
    _m(
        "cover-clauses",
        "[c.clause for c in {r}.cover]",
        lambda r: tuple(c.clause for c in r.cover),
        "clauses",
    ),
    _m(
        "cover-modifiers",
        "[(c.clause, c.modifier) for c in {r}.cover]",
        lambda r: tuple((c.clause, c.modifier) for c in r.cover),
        "clause-modifier",
        "contains",
    ),
    _m(
        "ignored",
        "[(i.source, i.clause) for i in {r}.ignored]",
        lambda r: tuple((i.source, i.clause) for i in r.ignored),
        "id-clause",
        "contains",
    ),
    _m(
        "green",
        ('{r}.effect_dice.get("green")', '{r}.effect_dice.get("green", 0)'),
        lambda r: r.effect_dice.get("green", 0),
        "count",
    ),
    _m(
        "numbers",
        "{r}.into_melee.numbers",
        lambda r: None if r.into_melee is None else r.into_melee.numbers,
        "ids",
    ),
    _m("number-1", "{r}.into_melee.numbers[0]", lambda r: _numbers(r, 0), "ids"),
    _m("number-4", "{r}.into_melee.numbers[3]", lambda r: _numbers(r, 3), "ids"),
    _m(
        "numbers-2-3",
        "sorted({r}.into_melee.numbers[1:3])",
        lambda r: sorted(r.into_melee.numbers[1:3]),
        "ids",
    ),
)
SLIDE = (
    _m("legal", "{r}.legal", lambda r: r.legal, "bool"),
    _m("not-allowed", "{r}.not_allowed", lambda r: r.not_allowed, "clauses"),
    _m("breaks", "{r}.breaks", lambda r: r.breaks, "ids"),
    _m("overlaps", "{r}.overlaps", lambda r: r.overlaps, "ids"),
    _m("new-engagements", "{r}.new_engagements", lambda r: r.new_engagements, "ids"),
)
WITHDRAW = (
    _m(
        "free-attacks",
        ("{r}.free_attacks", "[f.attacker for f in {r}.free_attacks]"),
        lambda r: tuple(f.attacker for f in r.free_attacks),
        "ids",
    ),
    _m(
        "free-attacks",
        "sorted((f.attacker for f in {r}.free_attacks))",
        lambda r: sorted(f.attacker for f in r.free_attacks),
        "ids",
    ),
    _m(
        "free-attacks-minus-2",
        "all((f.skill.modifier == -2 for f in {r}.free_attacks))",
        lambda r: all(f.skill.modifier == -2 for f in r.free_attacks),
        "bool",
    ),
)
GRID = (
    _m("grid-cover", "{r}.cover", lambda r: r.cover, "grid-word"),
    _m("procedure", "{r}.procedure", lambda r: r.procedure, "grid-word"),
    _m("ac", "{r}.ac", lambda r: r.ac, "signed"),
    _m("reflex", "{r}.reflex", lambda r: r.reflex, "signed"),
    _m("soft", "{r}.soft", lambda r: r.soft, "bool"),
    _m("stealth", "{r}.stealth", lambda r: r.stealth, "bool"),
    _m("stealth-bonus", "{r}.stealth_bonus", lambda r: r.stealth_bonus, "signed"),
    _m("improved-evasion", "{r}.improved_evasion", lambda r: r.improved_evasion, "bool"),
    _m("attack-allowed", "{r}.attack_allowed", lambda r: r.attack_allowed, "bool"),
    _m("aoo", "{r}.attacks_of_opportunity", lambda r: r.attacks_of_opportunity, "bool"),
    _m("lines", "len({r}.lines)", lambda r: len(r.lines), "count"),
    _m("partial-clear", "{r}.partial.clear", lambda r: r.partial.clear, "count"),
    _m("partial-lines", "{r}.partial.lines", lambda r: r.partial.lines, "count"),
)
MEASURES: dict[str, tuple[Measure, ...]] = {
    "ruling": ATTACK,
    "slide": SLIDE,
    "withdraw": WITHDRAW,
    "grid": GRID,
}
"""The measures of each kind of question (:attr:`fwwrules.conformance.Question.kind`)."""


@dataclass(frozen=True)
class Fact:
    """One claim of a notebook about a row's answer, with the answer's own value."""

    measure: Measure
    claim: Claim
    source_cell: str
    engine: Any

    @property
    def agrees(self) -> bool:
        book = _plain(self.claim.value)
        mine = _plain(self.engine)
        if self.claim.op == "contains":
            return isinstance(mine, tuple) and book in mine
        return bool(mine == book)


def _plain(value: Any) -> Any:
    """Lists and tuples alike (a notebook writes either), recursively."""
    if isinstance(value, (list, tuple)):
        return tuple(_plain(v) for v in value)
    return value


def matching(measures: Sequence[Measure], var: str, claim: Claim) -> Measure | None:
    """The measure ``claim`` is about, for the answer held by ``var`` (``None``: none)."""
    for m in measures:
        if m.op == claim.op and any(normal(t.format(r=var)) == claim.expr for t in m.templates):
            return m
    return None


@cache
def _cells(notebook: str) -> tuple[Cell, ...]:
    return tuple(notebook_cells(notebook))


@cache
def _claims(notebook: str, cell: str) -> tuple[Claim, ...]:
    return tuple(cell_claims(list(_cells(notebook)), cell))


def row_claims(row: Row) -> Iterator[tuple[str, Claim, Measure | None]]:
    """Every claim the row's cells make about its answer: (cell, claim, its measure or None)."""
    for src in row.sources:
        for claim in _claims(src.notebook, src.cell):
            if mentions(claim, src.var):
                yield src.cell, claim, matching(MEASURES[row.question.kind], src.var, claim)


# --- answers --------------------------------------------------------------------------------


@cache
def scenario(example: str) -> Any:
    import fwwrules

    return fwwrules.load(fwwrules.example_path(example))


@cache
def answer(question: Question) -> Any:
    """The public API's answer to ``question``, asked afresh."""
    import fwwrules

    s = scenario(question.example)
    q = question
    if q.kind == "slide":
        assert isinstance(q.second, tuple)
        return fwwrules.slide(s, q.first, q.second, rules=q.rules)
    if q.kind == "withdraw":
        return fwwrules.withdraw(s, q.first, rules=q.rules)
    if q.kind == "grid":
        assert isinstance(q.second, str)
        return fwwrules.grid_cover(s, q.first, q.second, attack=q.attack)
    assert isinstance(q.second, str)
    return fwwrules.ruling(s, q.first, q.second, weapon=q.weapon, rules=q.rules)


def facts(row: Row) -> list[Fact]:
    """The row's facts: each claim with a measure, and the fresh answer's value of it."""
    got = answer(row.question)
    return [Fact(m, claim, cell, m.get(got)) for cell, claim, m in row_claims(row) if m is not None]


# --- words ----------------------------------------------------------------------------------


def ui(key: str, lang: str, **values: Any) -> str:
    text = catalogue.ui_text(f"conformance/{key}", lang)
    return text.format(**values) if values else text


def names(question: Question, lang: str = "en") -> dict[str, str]:
    """The display names of the answer's pieces in ``lang`` (a name may be given per
    language)."""
    from fwwrules.rulings import names_in

    got = answer(question)
    return names_in(getattr(got, "labels", None) or {}, lang)


def clause_link(clause: str) -> str:
    """A clause id linked to its entry in the rules reference (docs/rules.md)."""
    return f"[`{clause}`](rules.md#{clause.replace('.', '-')})"


def show_value(value: Any, how: str, lang: str, labels: dict[str, str]) -> str:
    """A value as the table shows it (names for ids, clause ids as code, one minus sign)."""
    if value is None or (isinstance(value, (tuple, list)) and not value):
        return ui("none", lang)
    if how == "bool":
        return ui("yes" if value else "no", lang)
    if how == "signed":
        return catalogue.signed(value, lang)
    if how == "count":
        return catalogue.number(value, 0, lang)
    if how == "grid-word":
        return ui(f"grid-{value}", lang)
    items = list(value) if isinstance(value, (tuple, list)) else [value]
    if how == "clauses":
        return ", ".join(clause_link(c) for c in items)
    if how == "id-clause":
        return f"{labels.get(items[0], items[0])} ({clause_link(items[1])})"
    if how == "clause-modifier":
        return f"{clause_link(items[0])} {catalogue.signed(items[1], lang)}"
    return ", ".join(labels.get(i, i) for i in items)


def show_fact(fact: Fact, value: Any, lang: str, labels: dict[str, str]) -> str:
    """``label: value``; a ``contains`` claim shows the item it looks for (``includes ...``),
    or, for an answer without it, everything the answer has."""
    label = ui(f"m-{fact.measure.label}", lang)
    how = fact.measure.show
    if fact.claim.op != "contains":
        return f"{label}: {show_value(value, how, lang, labels)}"
    item = show_value(fact.claim.value, how, lang, labels)
    if value is fact.claim.value or fact.agrees:
        return f"{label}: {ui('includes', lang, value=item)}"
    every = [show_value(v, how, lang, labels) for v in value or ()]
    return f"{label}: {', '.join(every) or ui('none', lang)}"


def _said(row: Row, lang: str, book: bool) -> str:
    labels = names(row.question, lang)
    seen: list[str] = []
    for f in facts(row):
        text = show_fact(f, f.claim.value if book else f.engine, lang, labels)
        if text not in seen:
            seen.append(text)
    return "; ".join(seen)


def book_said(row: Row, lang: str) -> str:
    """What the book says happens: the row's notebook claims, in ``lang``."""
    return _said(row, lang, True)


def engine_said(row: Row, lang: str) -> str:
    """What fwwrules answers, measured as the claims are, in ``lang``."""
    return _said(row, lang, False)


def question_words(q: Question) -> str:
    """The question in a few words (English names)."""
    labels = names(q)
    first = labels.get(q.first, q.first)
    extras = [x for x in (q.weapon and labels.get(q.weapon, q.weapon), q.rules) if x]
    if q.kind == "slide":
        assert isinstance(q.second, tuple)
        text = f"{first} slides to ({q.second[0]:g}, {q.second[1]:g})"
    elif q.kind == "withdraw":
        text = f"{first} withdraws"
    else:
        second = labels.get(str(q.second), str(q.second))
        text = f"{first} → {second}"
        if q.kind == "grid":
            extras.insert(0, q.attack)
    return text + (f" ({', '.join(extras)})" if extras else "")


def title(example: str, lang: str) -> str:
    from fwwrules.pieces import title_in

    return title_in(scenario(example).title, lang) or example


def page_of(example: str) -> int | None:
    """The book's page, as the example's English title gives it (``RoP p.17``)."""
    import re

    found = re.search(r"\bRoP p\.(\d+)", title(example, "en"))
    return int(found.group(1)) if found else None


def where(example: str, lang: str) -> str:
    """Where the book shows the example: source, page and figure (or that it does not)."""
    ref = BOOK[example]
    if ref.source is None:
        return ui("own-board", lang)
    parts = [ui(f"source-{ref.source}", lang)]
    page = page_of(example)
    if ref.source == "RoP":
        parts.append(ui("page", lang, page=page) if page else ui("no-page", lang))
    parts.append(ui(f"figure-{ref.figure}", lang) if ref.figure else ui("no-figure", lang))
    return ", ".join(parts)


# --- pictures -------------------------------------------------------------------------------


def picture_name(row: Row, lang: str) -> str:
    return f"{anchor(row.question)}.{lang}.png"


def _draw(row: Row, lang: str) -> bytes:
    """The row's picture in ``lang``: the board with the answer drawn, PICTURE_WIDTH wide."""
    from matplotlib.figure import Figure

    from fwwrules.draw.board import DEFAULT_STYLE, draw_board
    from fwwrules.draw.export import export_dpi
    from fwwrules.draw.figure import figure_bytes, figure_of, new_axes
    from fwwrules.draw.render import render_figure

    q = row.question
    s = scenario(q.example)
    if q.kind == "ruling" and q.example.startswith("elevation-"):
        from fwwrules.draw.side import render_side_view

        return _small_png(_side_view_png(s, q, lang, render_side_view))
    if q.kind in ("ruling", "grid"):
        fig = render_figure(
            s,
            attacker=q.first,
            target=q.second if isinstance(q.second, str) else None,
            weapon=q.weapon,
            rules=q.rules,
            attack=q.attack or "ranged",
            lang=lang,
            width=PICTURE_WIDTH,
        )
    else:
        dpi = export_dpi(
            Figure(figsize=DEFAULT_STYLE.figsize, dpi=DEFAULT_STYLE.dpi), width=PICTURE_WIDTH
        )
        ax = new_axes(DEFAULT_STYLE.figsize, dpi, DEFAULT_STYLE.margins)
        got = answer(q)
        if q.kind == "slide":
            draw_board(s, ax, slide=got, lang=lang)
        else:
            draw_board(s, ax, withdraw=got, lang=lang)
        fig = figure_of(ax)
    return _small_png(figure_bytes(fig, "png", dpi=fig.dpi))


def _side_view_png(s: Any, q: Question, lang: str, render: Callable[..., Any]) -> bytes:
    """An elevation example's picture: the board with the shot's side view below it
    (``fwwrules render --side-view``)."""
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "picture.png"
        render(
            s, out, attacker=q.first, target=q.second, weapon=q.weapon, rules=q.rules,
            lang=lang, width=PICTURE_WIDTH,
        )  # fmt: skip
        return out.read_bytes()


def _small_png(data: bytes) -> bytes:
    """The PNG with a palette of PICTURE_COLOURS colours."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(data)).convert("RGB")
    small = image.quantize(
        PICTURE_COLOURS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE
    )
    out = io.BytesIO()
    small.save(out, format="png", optimize=True)
    return out.getvalue()


@cache
def _code_digest() -> str:
    """What every picture depends on besides its answer: the drawing code, the catalogue (its
    code and its gettext files), matplotlib's version and the picture's size and colours."""
    import matplotlib

    h = hashlib.sha256(matplotlib.__version__.encode())
    for path in sorted((REPO / "fwwrules" / "draw").rglob("*.py")):
        h.update(path.read_bytes())
    h.update((REPO / "fwwrules" / "catalogue.py").read_bytes())
    for path in sorted((REPO / "fwwrules" / "locale").glob("*.po")):  # the catalogue's texts
        h.update(path.read_bytes())
    h.update(f"{PICTURE_WIDTH} {PICTURE_COLOURS}".encode())
    return h.hexdigest()


def picture_digest(row: Row, lang: str) -> str:
    import fwwrules

    q = row.question
    h = hashlib.sha256(_code_digest().encode())
    h.update(fwwrules.example_path(q.example).read_bytes())
    h.update(repr(q).encode())
    h.update(json.dumps(answer(q).to_dict(lang), sort_keys=True, default=str).encode())
    h.update(lang.encode())
    return h.hexdigest()[:32]


def write_pictures(rows: Sequence[Row]) -> int:
    """Draw the pictures whose inputs changed; remove pictures no row has. Returns how many
    were drawn."""
    from fwwrules.writing import write_atomic

    PICTURES.mkdir(parents=True, exist_ok=True)
    old = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else {}
    new: dict[str, str] = {}
    drawn = 0
    for row in rows:
        for lang in LANGS:
            name = picture_name(row, lang)
            digest = picture_digest(row, lang)
            new[name] = digest
            if old.get(name) == digest and (PICTURES / name).is_file():
                continue
            write_atomic(PICTURES / name, _draw(row, lang))
            drawn += 1
    for path in PICTURES.glob("*.png"):
        if path.name not in new:
            path.unlink()
    write_atomic(MANIFEST, (json.dumps(new, indent=1, sort_keys=True) + "\n").encode())
    return drawn


# --- property tests -------------------------------------------------------------------------


@dataclass(frozen=True)
class PropertyTest:
    file: str
    name: str
    checks: str
    cases: int


HYPOTHESIS_DEFAULT_EXAMPLES = 100
"""Cases hypothesis runs when a test sets no ``max_examples`` (no profile is loaded)."""


def _count(node: ast.expr) -> int | None:
    """A ``max_examples`` value as written: a number, or ``int(<override> or <number>)`` (a
    count an environment variable may raise: the number is what a default run uses)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "int" and node.args:
        return _count(node.args[0])
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return _count(node.values[-1])
    return None


def _max_examples(node: ast.expr, module_settings: dict[str, int]) -> int | None:
    if isinstance(node, ast.Name):
        return module_settings.get(node.id)
    if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "settings":
        for kw in node.keywords:
            if kw.arg == "max_examples":
                return _count(kw.value)
    return None


def property_tests() -> list[PropertyTest]:
    """Every hypothesis test of tests/ (``@given``): what it checks (its docstring's first
    sentence, else its name in words) and how many cases it runs (``max_examples``)."""
    out: list[PropertyTest] = []
    for path in sorted((REPO / "tests").glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_settings: dict[str, int] = {}
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                n = _max_examples(stmt.value, {})
                if isinstance(target, ast.Name) and n is not None:
                    module_settings[target.id] = n
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = node.decorator_list
            if not any(
                isinstance(d, ast.Call) and getattr(d.func, "id", "") == "given" for d in decorators
            ):
                continue
            found = [n for d in decorators if (n := _max_examples(d, module_settings))]
            cases = found[0] if found else HYPOTHESIS_DEFAULT_EXAMPLES
            doc = ast.get_docstring(node)
            checks = _first_sentence(doc) if doc else _name_words(node.name)
            out.append(PropertyTest(path.relative_to(REPO).as_posix(), node.name, checks, cases))
    return out


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.split("\n\n")[0].split())
    for end in (". ", ".\n"):
        if end in text:
            return text.split(end, 1)[0] + "."
    return text


def _name_words(name: str) -> str:
    words = name.removeprefix("test_").replace("_", " ")
    return words[:1].upper() + words[1:] + "."


# --- the page -------------------------------------------------------------------------------


def both(key: str) -> str:
    """A label of the catalogue in English and German (``the book says · das Buch sagt``)."""
    return " · ".join(dict.fromkeys(ui(key, la) for la in LANGS))


def cell_text(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def examples_in_order() -> list[str]:
    order: list[str] = []
    for row in ROWS:
        if row.question.example not in order:
            order.append(row.question.example)
    return order


def _summary(w: list[str]) -> None:
    w += ["## Summary", ""]
    w += [
        "| # | example | question | the book | agrees | asserted in |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for n, row in enumerate(ROWS, 1):
        q = row.question
        verdict = "✓" if all(f.agrees for f in facts(row)) else "✗ " + ui("differs", "en")
        cells = ", ".join(f"`{s.notebook}` `{s.cell}`" for s in row.sources)
        w.append(
            f"| {n} | [{q.example}](#{example_anchor(q.example)}) "
            f"| [{cell_text(question_words(q))}](#{anchor(q)}) "
            f"| {cell_text(where(q.example, 'en'))} | {verdict} | {cells} |"
        )
    agree = sum(all(f.agrees for f in facts(r)) for r in ROWS)
    w += ["", f"{agree} of {len(ROWS)} rows agree.", ""]


def _row(w: list[str], row: Row) -> None:
    q = row.question
    fs = facts(row)
    w += [f'<a id="{anchor(q)}"></a>', "", f"#### {question_words(q)}", ""]
    w += ["| | English | Deutsch |", "| --- | --- | --- |"]
    said = "book" if BOOK[q.example].source else "rules-say"
    got = answer(q)
    for key, text in (
        (said, lambda la: book_said(row, la)),
        ("engine", lambda la: engine_said(row, la)),
        ("ruling", lambda la: got.explain(la).splitlines()[0]),
    ):
        w.append(f"| {both(key)} | " + " | ".join(cell_text(text(la)) for la in LANGS) + " |")
    verdict = "✓ " + both("agrees") if all(f.agrees for f in fs) else "✗ " + both("differs")
    w += ["", f"**{verdict}.** Asserted in:", ""]
    for src in row.sources:
        cells = _cells(src.notebook)
        cell = next(c for c in cells if c.id == src.cell)
        heading = heading_before(src.notebook, cell.index)
        w.append(
            f"- [notebooks/{src.notebook}.ipynb](../notebooks/{src.notebook}.ipynb), cell "
            f"`{src.cell}` (section “{heading}”), about `{src.var}`:"
        )
        w += ["", "  ```python"]
        w += ["  " + ln if ln else "" for ln in cell.source.strip().splitlines()]
        w += ["  ```", ""]
    for lang in LANGS:
        w += [f"![{q.key} ({lang})](conformance/{picture_name(row, lang)})", ""]


def generate() -> str:
    """The page's Markdown (no pictures are drawn)."""
    w: list[str] = ["# Conformance: the rulebook examples, checked", ""]
    w.append(
        "<!-- Generated by `make docs` (tools/make_conformance.py) from "
        "fwwrules/conformance.py, the notebooks' assert cells, the examples and the "
        "catalogue. Do not edit by hand: change the sources and run `make docs`. -->"
    )
    w += [
        "",
        "Every question the notebooks ask of a shipped example "
        "(`fwwrules/examples/`), with what the book says happens and what "
        "fwwrules answers. *The book says* is read from the notebook cell that asserts it "
        "(each claim of its `assert` line about that answer), so this page says nothing a "
        "notebook does not check; *fwwrules answers* is the same measure of a fresh answer "
        "from the public API (`fwwrules.ruling`, `slide`, `withdraw`, `grid_cover`). Pages "
        "are the ones the examples' titles name; where the project does not know the book's "
        "figure, or the board is the project's own, the row says so. Pictures: the answer "
        "drawn, in English and German (an elevation example with the shot seen from the side "
        "below the board). The clause ids link to the [rules reference](rules.md).",
        "",
    ]
    _summary(w)
    w += ["## Examples", ""]
    for example in examples_in_order():
        w += [f'<a id="{example_anchor(example)}"></a>', "", f"### {title(example, 'en')}", ""]
        w += [
            f"{title(example, 'de')}",
            "",
            f"- Where the book shows it: {where(example, 'en')} ({where(example, 'de')})",
            f"- File: [fwwrules/examples/{example}.yaml](../fwwrules/examples/{example}.yaml)",
            "",
        ]
        for row in ROWS:
            if row.question.example == example:
                _row(w, row)
    tests = property_tests()
    w += ["## Property tests", ""]
    w.append(
        f"{len(tests)} hypothesis properties run with every `make test`; each draws random "
        "boards (or files) and checks one invariant on each. *Cases* is the number of "
        "examples hypothesis generates per run (`max_examples`)."
    )
    w += ["", "| test | what is checked | cases |", "| --- | --- | --- |"]
    for t in tests:
        w.append(f"| [`{t.name}`](../{t.file}) | {cell_text(t.checks)} | {t.cases} |")
    return "\n".join(w).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--check", action="store_true", help="exit 1 if the page is stale")
    args = p.parse_args(argv)
    text = generate()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.is_file() else ""
        if current != text:
            print(f"{PAGE} is out of date: run `make docs`", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    drawn = write_pictures(ROWS)
    print(f"wrote {PAGE} ({len(ROWS)} rows; {drawn} pictures drawn)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
