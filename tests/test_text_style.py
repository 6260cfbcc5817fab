"""Words a reader trusts: one style rule per kind of thing, over every shipped example's
rulings, in English and German.

The queries: for every shipped scenario (``fwwrules/examples``, ``notebooks/scenarios``) and
both rulesets, a ruling for every ordered pair of models, for every model at every terrain
piece and at a point, a withdrawal of every model and a slide of every model; for every
shipped grid, every ordered pair of creatures with every attack. Each answer's text
(``explain``) and its JSON reasons are checked.

The rules:

* names in text, ids only in params: with every named piece given an id that reads nowhere
  else (``zzid<n>``), no text shows such an id (the catalogue names pieces by their names);
* one minus sign: ``−`` (U+2212), never a hyphen-minus before a number;
* units as each language's rulebooks write them: millimetres with inches (two decimals at
  most), base sizes in mm alone, German decimal commas; Pathfinder distances in feet in
  English and in metres in German, ``9 m (6 Felder)``;
* points written as points: a point is never measured "edge to edge", never shows as
  ``point(x,y)``;
* German size classes are class names, capitalised: ``Größenklasse Riesig``, never
  ``riesig``; German writes the Vault-Tec Simulator's term as „Armor Boost“;
* an attack that is not allowed says why first and presents nothing as applying; the line on
  thrown weapons scattering belongs to thrown weapons only;
* every piece of a shipped example, and of a board a notebook writes in a cell, is named in
  English and German (but the rulebook's proper names), and no English word appears in a
  German text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import fwwrules
from fwwrules.data import Scenario
from fwwrules.grid import GridScenario
from fwwrules.pieces import ChargeBonus

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "de")


def _scenario_files() -> list[Path]:
    out = sorted(fwwrules.examples_dir().glob("*.yaml"))
    return out + sorted((ROOT / "notebooks" / "scenarios").glob("*.yaml"))


def _grid_files() -> list[Path]:
    return sorted((fwwrules.examples_dir() / "grid").glob("*.yaml"))


@cache
def _loaded(path: Path) -> Any:
    return fwwrules.load(path)


def _answers(s: Scenario) -> Iterator[tuple[str, Any]]:
    """Every query of the module docstring on one scenario: (what, answer)."""
    ids = [m.id for m in s.models]
    (x0, y0, x1, y1) = s.limits_mm()
    point = (s.from_mm((x0 + x1) / 2), s.from_mm((y0 + y1) / 2))
    for rules in ("core", "vts"):
        for a in ids:
            targets: list[Any] = [b for b in ids if b != a] + [t.id for t in s.terrain] + [point]
            for t in targets:
                yield f"ruling {a} {t} {rules}", fwwrules.ruling(s, a, t, rules=rules)
            yield f"withdraw {a} {rules}", fwwrules.withdraw(s, a, rules=rules)
            m = s.model(a)
            yield (
                f"slide {a} {rules}",
                fwwrules.slide(s, a, (m.at[0] + m.base, m.at[1]), rules=rules),
            )


def _grid_answers(g: GridScenario) -> Iterator[tuple[str, Any]]:
    ids = [c.id for c in g.creatures]
    for a in ids:
        for b in ids:
            if a != b:
                for attack in ("ranged", "melee", "reach"):
                    yield f"grid {a} {b} {attack}", fwwrules.grid_cover(g, a, b, attack)


def _texts(answer: Any, lang: str) -> list[str]:
    d = answer.to_dict(lang)
    return [answer.explain(lang)] + [r["text"] for r in d["reasons"]]


@cache
def _all(lang: str) -> list[tuple[str, Any, str]]:
    """(where, answer, text) for every query in ``lang``."""
    out: list[tuple[str, Any, str]] = []
    for path in _scenario_files():
        for what, answer in _answers(_loaded(path)):
            out += [(f"{path.name} {what}", answer, t) for t in _texts(answer, lang)]
    for path in _grid_files():
        for what, answer in _grid_answers(_loaded(path)):
            out += [(f"grid/{path.name} {what}", answer, t) for t in _texts(answer, lang)]
    return out


def _bad(lang: str, pattern: str, flags: int = 0) -> list[str]:
    rx = re.compile(pattern, flags)
    return [f"{where}: {text}" for where, _, text in _all(lang) if rx.search(text)]


def test_style_the_queries_cover_every_example_and_kind_of_answer() -> None:
    answers = {type(a).__name__ for _, a, _ in _all("en")}
    assert answers == {"AttackRuling", "WithdrawRuling", "SlideRuling", "GridRuling"}
    wheres = {w.split()[0] for w, _, _ in _all("en")}
    assert {p.name for p in _scenario_files()} <= wheres
    assert {f"grid/{p.name}" for p in _grid_files()} <= wheres


# --- names in text, ids only in params -------------------------------------------------------


def _renamed(s: Scenario) -> Scenario:
    """``s`` with every named model, terrain piece and weapon given the id ``zzid<n>``."""
    new: dict[str, str] = {}
    for piece in (*s.models, *s.terrain, *s.weapons):
        if piece.name:
            new[piece.id] = f"zzid{len(new)}"

    def ref(i: str) -> str:
        return new.get(i, i)

    models = tuple(
        replace(
            m,
            id=ref(m.id),
            weapons=tuple(new.get(w, w) for w in m.weapons),
            charge_bonus=(
                None
                if m.charge_bonus is None
                else ChargeBonus(ref(m.charge_bonus.target), m.charge_bonus.markers)
            ),
        )
        for m in s.models
    )
    terrain = tuple(replace(t, id=ref(t.id)) for t in s.terrain)
    weapons = tuple(replace(w, id=ref(w.id)) for w in s.weapons)
    return replace(s, models=models, terrain=terrain, weapons=weapons)


@pytest.mark.parametrize("lang", LANGS)
def test_style_names_in_text_never_ids_of_named_pieces(lang: str) -> None:
    bad: list[str] = []
    named = 0
    for path in _scenario_files():
        s = _renamed(_loaded(path))
        named += sum(1 for m in s.models if m.id.startswith("zzid"))
        for what, answer in _answers(s):
            bad += [f"{path.name} {what}: {t}" for t in _texts(answer, lang) if "zzid" in t]
    for path in _grid_files():
        g = _loaded(path)
        ids = {c.id: f"zzid{k}" for k, c in enumerate(g.creatures) if c.name}
        creatures = tuple(replace(c, id=ids.get(c.id, c.id)) for c in g.creatures)
        for what, answer in _grid_answers(replace(g, creatures=creatures)):
            bad += [f"grid/{path.name} {what}: {t}" for t in _texts(answer, lang) if "zzid" in t]
    assert named > 10  # the check has named pieces to look at
    assert bad == []


@pytest.mark.parametrize("lang", LANGS)
def test_style_no_piece_id_syntax_in_text(lang: str) -> None:
    """Significant Edges (``roof:north``), pieces acting as one (``a+b``) and points
    (``point(x,y)``) are named in words."""
    assert _bad(lang, r"point\(|\w:(north|south|east|west)|\w\+\w") == []


# --- one minus sign ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_style_one_minus_sign(lang: str) -> None:
    assert _bad(lang, r"(?<![\w\-])-\s?\d|\+-|-\+") == []
    assert any("−2" in text for _, _, text in _all(lang))


# --- units as each language's rulebooks write them ----------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_style_lengths_as_the_rulebooks_write_them(lang: str) -> None:
    # inches: at most 2 decimals; millimetres: 1 decimal, 2 below 1 mm (a small gap)
    assert _bad(lang, r"\d[.,]\d{3,}″|\b[1-9]\d*[.,]\d{2,} mm|\b0[.,]\d{3,} mm") == []
    assert _bad(lang, r" mm \(\d+(?:[.,]\d+)?″\)\s*mm") == []
    # base sizes in mm alone, as the rulebooks write them ("32 mm")
    assert _bad(lang, r"[Bb]ase (?:von |of )?\d+(?:[.,]\d+)? mm \(\d") == []
    assert any(re.search(r"[Bb]ase (?:von |of )?\d+ mm\b", t) for _, _, t in _all(lang))


def test_style_german_decimal_comma_and_english_decimal_point() -> None:
    assert _bad("de", r"(?<!Version )\b\d+\.\d") == []
    assert _bad("en", r"\d,\d") == []


def test_style_grid_distances_in_feet_in_english_and_metres_in_german() -> None:
    grid_de = [(w, t) for w, _, t in _all("de") if w.startswith("grid/")]
    grid_en = [(w, t) for w, _, t in _all("en") if w.startswith("grid/")]
    assert not [t for _, t in grid_de if re.search(r"\d ?(ft|Fuß)\b", t)]
    assert not [t for _, t in grid_en if re.search(r"\d m\b", t)]
    assert any(re.search(r"\d(,\d+)? m \(\d+ Feld(er)?\)", t) for _, t in grid_de)
    assert any(re.search(r"\d+ ft \(\d+ squares?\)", t) for _, t in grid_en)


# --- points written as points -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_style_a_point_or_a_piece_is_never_edge_to_edge(lang: str) -> None:
    edge = {"en": "edge to edge", "de": "Base-Kante zu Base-Kante"}[lang]
    bad = [
        f"{w}: {t}"
        for w, a, t in _all(lang)
        if type(a).__name__ == "AttackRuling"
        and a.sight is not None
        and edge in t
        and a.target not in {m for m in _model_ids(w)}
    ]
    assert bad == []
    assert any(("point" if lang == "en" else "Punkt") in t for w, _, t in _all(lang))


def _model_ids(where: str) -> set[str]:
    name = where.split()[0]
    path = next(p for p in _scenario_files() if p.name == name)
    return {m.id for m in _loaded(path).models}


# --- German words -------------------------------------------------------------------------------


def test_style_german_size_classes_are_capitalised_class_names() -> None:
    assert _bad("de", r"\briesig|\b(normale|große)[nmrs]? (Modell|Base)") == []
    assert any("Größenklasse Riesig" in t for _, _, t in _all("de"))


def test_style_armor_boost_in_german_quotes_as_the_german_texts_do() -> None:
    assert _bad("de", r"(?<!„)Armor Boost|Armor Boost(?!“)") == []
    assert _bad("en", r"„|“") == []
    assert any("„Armor Boost“" in t for _, _, t in _all("de"))


# --- what a ruling presents -----------------------------------------------------------------------

TERMS = {"cover.line", "cover.area", "cover.models", "cover.huge", "cover.armor", "action.quick"}


@pytest.mark.parametrize("lang", LANGS)
def test_style_a_refused_attack_leads_with_why_and_presents_nothing(lang: str) -> None:
    refused = {id(a): a for _, a, _ in _all(lang) if type(a).__name__ == "AttackRuling"}
    refused = {k: a for k, a in refused.items() if not a.allowed}
    assert len(refused) > 50
    for a in refused.values():
        head = a.explain(lang).splitlines()[0]
        assert head.endswith(a.why(lang)[-1] + ".") and a.why(lang)
        assert not TERMS & {r.clause for r in a.reasons}
        # the refusing clause's own reason says why; no other reason of these is presented
        presented = {r.clause for r in a.reasons if r.clause not in a.not_allowed}
        assert not {"melee.shoot-into", "melee.stunned", "melee.strength"} & presented


def test_style_scatter_line_only_for_thrown_weapons() -> None:
    for where, a, _ in _all("en"):
        if type(a).__name__ != "AttackRuling":
            continue
        scenario = _loaded(next(p for p in _scenario_files() if p.name == where.split()[0]))
        thrown = scenario.weapon(a.weapon).type == "thrown"
        assert any(r.key == "scatter" for r in a.reasons) <= thrown, where


# --- issue 32: words a reader trips over -----------------------------------------------------


def test_style_skill_icons_are_named_as_the_rulebook_names_them() -> None:
    """The icon a thrower needs is the Throw icon: never "Thrown skill"."""
    assert _bad("en", r"\bThrown skill\b") == []
    s = _loaded(ROOT / "notebooks" / "scenarios" / "ranged-basics.yaml")
    thrower = next(m.id for m in s.models if "grenade" in m.weapons)
    target = next(m.id for m in s.models if m.id != thrower)
    text = fwwrules.ruling(s, thrower, target, weapon="grenade").explain("en")
    assert "needs the Throw skill icon" in text and "Thrown skill" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_style_total_cover_says_nothing_that_no_longer_matters(lang: str) -> None:
    """Under total cover no line counts clear lines for partial cover nor lists soft cover;
    cover that is not partial is called cover, never "full cover" (which reads as total)."""
    assert _bad(lang, r"\bfull cover\b|\bvolle Deckung\b") == []
    total = [a for w, a, _ in _all(lang) if w.startswith("grid/") and a.cover == "total"]
    assert total
    for a in total:
        assert not {"grid.partial", "grid.soft"} & {r.clause for r in a.reasons}


_GRID_LENGTH = {
    "en": re.compile(
        r"(\d+(?:\.\d+)?) ft \((\d+) squares?(?: diagonally|, (\d+) of them diagonally)?\)"
    ),
    "de": re.compile(
        r"(\d+(?:,\d+)?) m \((\d+) Feld(?:er)?(?: diagonal|, davon (\d+) diagonal)?\)"
    ),
}


@pytest.mark.parametrize("lang", LANGS)
def test_style_grid_distances_say_the_rule_count_and_the_squares_a_reader_counts(
    lang: str,
) -> None:
    """A grid length is the rule's count (diagonals 1-2-1) with the squares a reader counts on
    the map beside it: both agree (every second diagonal step counts double)."""
    unit = 5.0 if lang == "en" else 1.5
    seen = diagonal = 0
    for where, _, text in _all(lang):
        for m in _GRID_LENGTH[lang].finditer(text):
            length = float(m.group(1).replace(",", "."))
            squares = int(m.group(2))
            diag = squares if m.group(0).endswith(("diagonally)", "diagonal)")) else 0
            diag = int(m.group(3)) if m.group(3) else diag
            assert length == pytest.approx(unit * (squares + diag // 2)), (where, text)
            seen += 1
            diagonal += diag > 1
    assert seen and diagonal  # the examples measure straight and diagonal distances


@pytest.mark.parametrize("lang", LANGS)
def test_style_no_plural_pronoun_for_the_models_named(lang: str) -> None:
    """A sentence about models names them: no "them"/"diese" standing for one model."""
    pattern = {
        "en": r"\b(attack|target|against|only) (only )?(them|they)\b",
        "de": r"\b(nur|gegen) (diese|sie)\b(?=\s*(angreifen|[,.:;)]))",
    }
    assert _bad(lang, pattern[lang]) == []


def test_style_significant_edges_are_named_as_the_pieces_sides() -> None:
    """ "the east edge of Roof", "Ostkante von Dach": never "Edge east of", "Kante Ost von"."""
    assert _bad("en", r"\bEdge (north|south|east|west)[\w-]* of\b") == []
    assert _bad("de", r"\bKante (Nord|Süd|Ost|West)\w* von\b") == []
    assert any("Significant Edge of" in t for _, _, t in _all("en"))
    assert any(re.search(r"(Nord|Süd|Ost|West)\w*kante von", t) for _, _, t in _all("de"))


def test_style_one_coordinate_style_per_language() -> None:
    """English writes points and squares "(2, 1.5)", German "(2; 1,5)", both alike."""
    assert _bad("de", r"\(-?\d+(?:,\d+)?, -?\d") == []
    assert _bad("en", r"\(-?\d+(?:\.\d+)?; ") == []
    assert any(re.search(r"Feld(es)? \(\d+; \d+\)", t) for _, _, t in _all("de"))


def test_style_german_verb_second_after_a_colon() -> None:
    """ "…: Es ist kein Fernkampfangriff möglich", never "kein Fernkampfangriff ist möglich"."""
    assert _bad("de", r"\bkeine?[nmrs]? [\w-]+ ist möglich\b") == []


def test_style_german_refers_back_to_a_name_without_fixing_its_gender() -> None:
    """A German name may be feminine ("Wache", "Ratte") or masculine ("Bogenschütze"): a text
    that refers back to a named piece repeats the name or uses the neuter forms the texts use
    for "das Modell", never a masculine-only pronoun ("Wache wählt den günstigsten Eckpunkt",
    never "den für ihn günstigsten")."""
    assert _bad("de", r"\b(ihn|er)\b") == []


# --- names in each language ----------------------------------------------------------------

PROPER_NAMES = (
    "Knight Patrol",
    "Super Mutant Brute",
    "Mutant Hound",
    "Raider Psycho",
    "Sole Survivor",
    "Sentry Bot",
    "Mirelurk Queen",
    "Paladin",
    "Raider",
    "Psycho",
    "Minuteman",
    "Gunner",
    "Deathclaw",
    "Dogmeat",
    "Behemoth",
    "Brotherhood",
    "Knight",
    "Minigun",
    "Gatling",
)
"""The rulebook's proper names, which stay as printed in every language: unit names, a
faction's name, the names of items the games keep (the German texts write them so too)."""


def _pieces(path: Path) -> list[tuple[str, Any]]:
    return _pieces_of(_loaded(path))


def _pieces_of(s: Scenario | GridScenario) -> list[tuple[str, Any]]:
    if isinstance(s, GridScenario):
        return [(f"creature {c.id}", c) for c in s.creatures]
    pieces = [*s.models, *s.terrain, *s.weapons]
    return [(f"{type(p).__name__.lower()} {p.id}", p) for p in pieces]


def _proper(text: str) -> bool:
    """Whether ``text`` is made of the rulebook's proper names (and numbers, letters)."""
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    return not re.search(r"[^\W\d_]{2,}", text)


def test_style_every_shipped_piece_is_named_in_each_language() -> None:
    """Every model, terrain piece, weapon and creature of a shipped example has a name in
    English and German (``name: {en: ..., de: ...}``); one text for every language only
    where it is the rulebook's proper name."""
    bad = []
    for path in [*_scenario_files(), *_grid_files()]:
        bad += _not_named_in_each_language(path.name, _loaded(path))
    assert bad == []


def _not_named_in_each_language(where: str, s: Scenario | GridScenario) -> list[str]:
    bad = []
    for what, piece in _pieces_of(s):
        name = piece.name
        if isinstance(name, str) and _proper(name):
            continue
        if not (isinstance(name, Mapping) and set(LANGS) <= set(name)):
            bad.append(f"{where} {what}: {name!r}")
    title = s.title
    if isinstance(title, str) and not _proper(title):
        bad.append(f"{where} title: {title!r}")
    return bad


_NOTEBOOK_BOARD = re.compile(r'fwwrules\.loads\(\s*"""(.*?)"""', re.S)


def _notebook_boards() -> list[tuple[str, Scenario | GridScenario]]:
    """Every board a notebook writes in a cell (``fwwrules.loads(\"\"\"...\"\"\")``)."""
    out = []
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "code":
                for m in _NOTEBOOK_BOARD.finditer("".join(cell["source"])):
                    out.append((f"{nb.name} cell {i}", fwwrules.loads(m.group(1))))
    return out


def test_style_every_notebook_board_is_named_in_each_language() -> None:
    """The boards the notebooks write in their cells name their pieces (and themselves) in
    English and German, as the shipped examples do: a German ruling printed from them reads
    "Ratte hat vollständige Deckung gegen Bogenschütze", never "Rat ... Archer"."""
    boards = _notebook_boards()
    assert len(boards) >= 5  # the throwers (01), the walled-in square, the walls, the reach (08)
    bad = [line for where, s in boards for line in _not_named_in_each_language(where, s)]
    assert bad == []


def _words(text: str) -> set[str]:
    for name in PROPER_NAMES:
        text = text.replace(name, " ")
    text = re.sub(r"\{[^{}]*\}", " ", text)  # a template's fields
    text = re.sub(r"\b[a-z]+(?:\.[a-z-]+)+", " ", text)  # clause ids (``[cover.area]``)
    return set(re.findall(r"[^\W\d_]{2,}", text))


@cache
def _vocabulary(lang: str) -> frozenset[str]:
    """The words the catalogue writes in ``lang`` and the names the examples give in it."""
    from fwwrules import catalogue

    words: set[str] = set()
    for table in (catalogue.MESSAGES, catalogue.CLAUSE_RULES, catalogue.WORDS, catalogue.UI_TEXT):
        for entry in table.values():
            words |= _words(entry[lang])
    for path in [*_scenario_files(), *_grid_files()]:
        names = [p.name for _, p in _pieces(path)] + [_loaded(path).title]
        for name in names:
            if isinstance(name, Mapping) and lang in name:
                words |= _words(name[lang])
            elif isinstance(name, str) and lang == "en":
                words |= _words(name)
    return frozenset(words)


def test_style_no_english_word_in_a_german_text() -> None:
    """A German text uses the German names: no word that only the English texts and names
    use ("in the yard", "Crate") appears in it, but for the rulebook's proper names."""
    english = {w for _, _, t in _all("en") for w in _words(t)} | _vocabulary("en")
    only_english = english - _vocabulary("de")
    bad: dict[str, str] = {}
    for where, _, text in _all("de"):
        found = _words(text) & only_english
        for word in sorted(found):
            bad.setdefault(word, f"{where}: {text}")
    assert bad == {}
