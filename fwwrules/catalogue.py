"""The message catalogue: every text a ruling shows, in English and German, keyed by clause id.

The texts themselves are in the gettext catalogues ``fwwrules/locale/<lang>.po`` (one file per
language, English the source language, each message's context the text's id): this module
names every text by its id (``_T("<clause>/<key>")``, one :class:`ClauseText` record per
clause) and reads the files the first time a text is shown (:mod:`fwwrules.translations`).
docs/translating.md says how to change a text or add a language.

Reasons are data (:class:`~fwwrules.rulings.Reason`: clause id, variant key, values); this is
the one place that turns them into sentences. A message id is the clause id, or
``"<clause>/<key>"`` for one of several messages of a clause. Templates use ``str.format``
fields named after the reason's values.

German uses the rulebook's terms: Sichtlinie (LoS), Deckungslinie (LoC), Deckung,
Fertigkeitswert, Effektwürfel, Rüstung, Nahkampf, gebunden, Slide, Überzahl.

Each rule family owns one section below; keep entries in the order of docs/clauses.txt.
Labels that are not rulings (the panels' controls, the words a picture writes, the threat map
and the review page) are the UI text section (:data:`UI_TEXT`), in the same shape.
"""

from __future__ import annotations

import functools
import importlib
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, get_args

from .refs import REF_TYPES, EdgeRef, ModelRef, PointRef, Ref, TerrainRef

if TYPE_CHECKING:
    import string
    from decimal import Decimal

    from .translations import Translations

Lang = Literal["en", "de"]
"""The catalogue's languages (every text has both)."""
LANGS: tuple[Lang, ...] = get_args(Lang)

Entry = Mapping[str, str]


def translations(lang: str) -> Translations:
    """The texts of ``lang`` (:func:`fwwrules.translations.translations`, read once): the
    gettext reader (:mod:`fwwrules.translations`, :mod:`fwwrules.pofile`,
    :mod:`fwwrules.writing`) is imported on the first text shown, not at ``import fwwrules``,
    as the package's own lazy names are (about 10 ms of import time)."""
    module = sys.modules.get(_READER) or importlib.import_module(_READER)
    found: Translations = module.translations(lang)
    return found


_READER = f"{__package__}.translations"
"""The gettext reader's module (looked up in ``sys.modules`` once imported: every message
rendered asks for it, a dozen times per ruling's text)."""


class _T(Mapping[str, str]):
    """One text of the catalogue in every language (a read-only ``{lang: text}``), named by its
    id and read from ``locale/<lang>.po`` when first asked for (never at import).

    A language whose file lacks the text, or holds it only as ``fuzzy`` (not checked since the
    English changed), shows the English text, as gettext does; ``KeyError`` when even English
    lacks it (a test checks that every id is in every file).
    """

    __slots__ = ("id",)

    def __init__(self, text_id: str) -> None:
        self.id = text_id

    def __getitem__(self, lang: str) -> str:
        if lang not in LANGS:
            raise KeyError(lang)
        text = translations(lang).get(self.id)
        if text is None and lang != "en":
            text = translations("en").get(self.id)
        if text is None:
            raise KeyError(f"no text {self.id!r} in {lang}.po (fwwrules/locale)")
        return text

    def __iter__(self) -> Iterator[str]:
        return iter(LANGS)

    def __len__(self) -> int:
        return len(LANGS)

    def __repr__(self) -> str:
        return f"_T({self.id!r})"


# --- general: headlines and words the renderers share ---------------------------------------
_GENERAL: dict[str, Entry] = {
    "compare/headline": _T("compare/headline"),
    "compare/none": _T("compare/none"),
    "compare/core": _T("compare/core"),
    "compare/vts": _T("compare/vts"),
    "ruling/allowed": _T("ruling/allowed"),
    "ruling/not-allowed": _T("ruling/not-allowed"),
    "ruling/skill": _T("ruling/skill"),
    "ruling/skill-plain": _T("ruling/skill-plain"),
    "ruling/skill-below-one": _T("ruling/skill-below-one"),
    "ruling/dice": _T("ruling/dice"),
    "ruling/no-dice": _T("ruling/no-dice"),
    "option/used": _T("option/used"),
}

# --- grid/: words of the Pathfinder grid's headlines, drawing and panel ---------------------
_GRID: dict[str, Entry] = {
    # words used by headlines, the drawing and the panel
    "grid/attack/ranged": _T("grid/attack/ranged"),
    "grid/attack/melee": _T("grid/attack/melee"),
    "grid/attack/reach": _T("grid/attack/reach"),
    "grid/kind/open": _T("grid/kind/open"),
    "grid/kind/wall": _T("grid/kind/wall"),
    "grid/kind/low": _T("grid/kind/low"),
    "grid/kind/arrow-slit": _T("grid/kind/arrow-slit"),
    "grid/kind/border-wall": _T("grid/kind/border-wall"),
    "grid/kind/creature": _T("grid/kind/creature"),
    "grid/verdict/clear": _T("grid/verdict/clear"),
    "grid/verdict/wall": _T("grid/verdict/wall"),
    "grid/verdict/border-wall": _T("grid/verdict/border-wall"),
    "grid/verdict/arrow-slit": _T("grid/verdict/arrow-slit"),
    "grid/verdict/low": _T("grid/verdict/low"),
    "grid/verdict/creature": _T("grid/verdict/creature"),
    "grid/word/corner": _T("grid/word/corner"),
    "grid/word/attacker": _T("grid/word/attacker"),
    "grid/word/target": _T("grid/word/target"),
    "grid/word/ignored": _T("grid/word/ignored"),
    # headlines
    "grid/headline/none": _T("grid/headline/none"),
    "grid/headline/soft": _T("grid/headline/soft"),
    "grid/headline/partial": _T("grid/headline/partial"),
    "grid/headline/cover": _T("grid/headline/cover"),
    "grid/headline/improved": _T("grid/headline/improved"),
    "grid/headline/total": _T("grid/headline/total"),
    "grid/headline/out-of-reach": _T("grid/headline/out-of-reach"),
}


# --- the clauses: one record per clause id, every text of it ----------------------------------


@dataclass(frozen=True, slots=True)
class ClauseText:
    """Every text of one clause of docs/rules.md, in English and German: the rule stated in the
    project's own words (never the rulebook's sentences; docs/rules.md and the review page show
    it), the messages its reasons render, the short phrases a refused attack's headline gives,
    and the label of the skill modifier the clause gives, if it gives one.

    The ids stay those of the flat tables built from the records: a message is
    ``"<clause>/<key>"`` (key ``""``: the clause id alone) in :data:`MESSAGES`, a headline phrase
    ``"why/<message id>"`` (key ``""``: ``"why/<clause>"``), the rule statement ``rule:<clause>``
    (:data:`CLAUSE_RULES`) and the modifier's label ``word:modifier/<clause>`` (:data:`WORDS`).
    A clause that gives a skill modifier must have a ``modifier`` label (a test checks every
    clause a ruling's modifiers name): a list of modifiers shows ``−2 (<label>)``.

    Adding a rule adds one record to :data:`CLAUSE_TEXTS`, where the rulebook orders it; the
    clause list ``docs/clauses.txt`` and ``docs/rules.md`` are generated from the records
    (``make docs``).
    """

    clause: str
    rule: Entry
    messages: Mapping[str, Entry] = field(default_factory=dict)
    why: Mapping[str, Entry] = field(default_factory=dict)
    modifier: Entry | None = None

    def message_ids(self) -> dict[str, Entry]:
        """The clause's messages by message id (``clause`` or ``clause/key``).

        >>> sorted(clause_text("cover.huge").message_ids())[:2]
        ['cover.huge', 'cover.huge/engaged']
        """
        return {_joined_id(self.clause, k): v for k, v in self.messages.items()}

    def why_ids(self) -> dict[str, Entry]:
        """The clause's headline phrases by id (``why/<clause>`` or ``why/<clause>/<key>``)."""
        return {"why/" + _joined_id(self.clause, k): v for k, v in self.why.items()}


def _joined_id(clause: str, key: str) -> str:
    return f"{clause}/{key}" if key else clause


CLAUSE_TEXTS: tuple[ClauseText, ...] = (
    # --- size.* -------------------------------------------------------------------------------
    ClauseText(
        "size.classes",
        rule=_T("rule:size.classes"),
        messages={
            "": _T("size.classes"),
        },
    ),
    # --- ranged.*, terrain.*, cover.* (ranged attacks) ----------------------------------------
    ClauseText(
        "ranged.skill",
        rule=_T("rule:ranged.skill"),
        messages={
            "has": _T("ranged.skill/has"),
            "missing": _T("ranged.skill/missing"),
            "below-one": _T("ranged.skill/below-one"),
            "throw-range": _T("ranged.skill/throw-range"),
            "own-range": _T("ranged.skill/own-range"),
            "own-range-no-colour": _T("ranged.skill/own-range-no-colour"),
            "no-throw-range": _T("ranged.skill/no-throw-range"),
            "dice-cap": _T("ranged.skill/dice-cap"),
        },
        why={
            "missing": _T("why/ranged.skill/missing"),
            "no-throw-range": _T("why/ranged.skill/no-throw-range"),
        },
    ),
    ClauseText(
        "ranged.range",
        rule=_T("rule:ranged.range"),
        messages={
            "in": _T("ranged.range/in"),
            "both": _T("ranged.range/both"),
            "out": _T("ranged.range/out"),
            "out-short-only": _T("ranged.range/out-short-only"),
            "band-unavailable": _T("ranged.range/band-unavailable"),
        },
        why={
            "": _T("why/ranged.range"),
        },
    ),
    ClauseText(
        "ranged.min-range",
        rule=_T("rule:ranged.min-range"),
        messages={
            "inside": _T("ranged.min-range/inside"),
            "reaches": _T("ranged.min-range/reaches"),
        },
        why={
            "": _T("why/ranged.min-range"),
        },
    ),
    ClauseText(
        "ranged.los",
        rule=_T("rule:ranged.los"),
        messages={
            "clear": _T("ranged.los/clear"),
            "blocked": _T("ranged.los/blocked"),
        },
        why={
            "": _T("why/ranged.los"),
        },
    ),
    ClauseText(
        "ranged.los.models",
        rule=_T("rule:ranged.los.models"),
        messages={
            "": _T("ranged.los.models"),
        },
    ),
    ClauseText(
        "ranged.los.huge",
        rule=_T("rule:ranged.los.huge"),
        messages={
            "": _T("ranged.los.huge"),
        },
    ),
    ClauseText(
        "terrain.kinds",
        rule=_T("rule:terrain.kinds"),
        messages={
            "huge-variant": _T("terrain.kinds/huge-variant"),
            "huge-variant-sight": _T("terrain.kinds/huge-variant-sight"),
        },
    ),
    ClauseText(
        "cover.line",
        rule=_T("rule:cover.line"),
        messages={
            "crossed": _T("cover.line/crossed"),
            "grazed": _T("cover.line/grazed"),
            "entered-only": _T("cover.line/entered-only"),
            "none": _T("cover.line/none"),
        },
        modifier=_T("word:modifier/cover.line"),
    ),
    ClauseText(
        "cover.shooter-contact",
        rule=_T("rule:cover.shooter-contact"),
        messages={
            "": _T("cover.shooter-contact"),
        },
    ),
    ClauseText(
        "cover.armor",
        rule=_T("rule:cover.armor"),
        messages={
            "compare": _T("cover.armor/compare"),
            "core": _T("cover.armor/core"),
            "vts": _T("cover.armor/vts"),
        },
    ),
    ClauseText(
        "cover.area",
        rule=_T("rule:cover.area"),
        messages={
            "": _T("cover.area"),
        },
        modifier=_T("word:modifier/cover.area"),
    ),
    ClauseText(
        "cover.models",
        rule=_T("rule:cover.models"),
        messages={
            "enemy": _T("cover.models/enemy"),
            "neutral": _T("cover.models/neutral"),
            "other-faction": _T("cover.models/other-faction"),
            "friendly": _T("cover.models/friendly"),
            "tangent": _T("cover.models/tangent"),
            "by-faction": _T("cover.models/by-faction"),
        },
        modifier=_T("word:modifier/cover.models"),
    ),
    ClauseText(
        "cover.huge",
        rule=_T("rule:cover.huge"),
        messages={
            "": _T("cover.huge"),
            "engaged": _T("cover.huge/engaged"),
            "not-smaller": _T("cover.huge/not-smaller"),
            "no-base": _T("cover.huge/no-base"),
        },
        modifier=_T("word:modifier/cover.huge"),
    ),
    # --- elevation.* --------------------------------------------------------------------------
    ClauseText(
        "elevation.elevated",
        rule=_T("rule:elevation.elevated"),
        messages={
            "yes": _T("elevation.elevated/yes"),
            "neither": _T("elevation.elevated/neither"),
        },
    ),
    ClauseText(
        "elevation.significant-edge",
        rule=_T("rule:elevation.significant-edge"),
        messages={
            "": _T("elevation.significant-edge"),
        },
    ),
    ClauseText(
        "elevation.edge-blocks-los",
        rule=_T("rule:elevation.edge-blocks-los"),
        messages={
            "far": _T("elevation.edge-blocks-los/far"),
            "near": _T("elevation.edge-blocks-los/near"),
        },
    ),
    ClauseText(
        "elevation.edge-cover",
        rule=_T("rule:elevation.edge-cover"),
        messages={
            "crossed": _T("elevation.edge-cover/crossed"),
            "near": _T("elevation.edge-cover/near"),
        },
        modifier=_T("word:modifier/elevation.edge-cover"),
    ),
    ClauseText(
        "elevation.shooter-cover",
        rule=_T("rule:elevation.shooter-cover"),
        messages={
            "ignored": _T("elevation.shooter-cover/ignored"),
            "applies": _T("elevation.shooter-cover/applies"),
        },
    ),
    ClauseText(
        "elevation.terrain-variant",
        rule=_T("rule:elevation.terrain-variant"),
        messages={
            "": _T("elevation.terrain-variant"),
        },
    ),
    ClauseText(
        "elevation.standing-on",
        rule=_T("rule:elevation.standing-on"),
        messages={
            "": _T("elevation.standing-on"),
            "no-height": _T("elevation.standing-on/no-height"),
            "no-height-cover": _T("elevation.standing-on/no-height-cover"),
        },
    ),
    # --- melee.*, action.quick ----------------------------------------------------------------
    ClauseText(
        "melee.engaged",
        rule=_T("rule:melee.engaged"),
        messages={
            "close-combat": _T("melee.engaged/close-combat"),
            "only-engaged": _T("melee.engaged/only-engaged"),
            "no-contact": _T("melee.engaged/no-contact"),
        },
        why={
            "only-engaged": _T("why/melee.engaged/only-engaged"),
            "no-contact": _T("why/melee.engaged/no-contact"),
        },
    ),
    ClauseText(
        "melee.skill",
        rule=_T("rule:melee.skill"),
        messages={
            "melee": _T("melee.skill/melee"),
            "weapon": _T("melee.skill/weapon"),
            "missing": _T("melee.skill/missing"),
        },
        why={
            "": _T("why/melee.skill"),
        },
    ),
    ClauseText(
        "melee.ranged-weapon",
        rule=_T("rule:melee.ranged-weapon"),
        messages={
            "compare": _T("melee.ranged-weapon/compare"),
            "core": _T("melee.ranged-weapon/core"),
            "vts": _T("melee.ranged-weapon/vts"),
            "charge-reaction": _T("melee.ranged-weapon/charge-reaction"),
            "charge-reaction-melee": _T("melee.ranged-weapon/charge-reaction-melee"),
            "charge-reaction-unused": _T("melee.ranged-weapon/charge-reaction-unused"),
            "min-range": _T("melee.ranged-weapon/min-range"),
            "dice": _T("melee.ranged-weapon/dice"),
        },
        why={
            "": _T("why/melee.ranged-weapon"),
        },
        modifier=_T("word:modifier/melee.ranged-weapon"),
    ),
    ClauseText(
        "melee.charge-reaction",
        rule=_T("rule:melee.charge-reaction"),
        messages={
            "not-charger": _T("melee.charge-reaction/not-charger"),
            "no-charger": _T("melee.charge-reaction/no-charger"),
            "battle-cry": _T("melee.charge-reaction/battle-cry"),
            "quick": _T("melee.charge-reaction/quick"),
        },
        why={
            "not-charger": _T("why/melee.charge-reaction/not-charger"),
            "no-charger": _T("why/melee.charge-reaction/no-charger"),
        },
    ),
    ClauseText(
        "melee.strength",
        rule=_T("rule:melee.strength"),
        messages={
            "": _T("melee.strength"),
        },
    ),
    ClauseText(
        "melee.super-mutant",
        rule=_T("rule:melee.super-mutant"),
        messages={
            "compare": _T("melee.super-mutant/compare"),
            "used": _T("melee.super-mutant/used"),
            "not-used": _T("melee.super-mutant/not-used"),
            "vts": _T("melee.super-mutant/vts"),
        },
    ),
    ClauseText(
        "melee.outnumbered",
        rule=_T("rule:melee.outnumbered"),
        messages={
            "": _T("melee.outnumbered"),
        },
    ),
    ClauseText(
        "melee.charge-bonus",
        rule=_T("rule:melee.charge-bonus"),
        messages={
            "one": _T("melee.charge-bonus/one"),
            "two": _T("melee.charge-bonus/two"),
            "discarded": _T("melee.charge-bonus/discarded"),
        },
    ),
    ClauseText(
        "melee.stunned",
        rule=_T("rule:melee.stunned"),
        messages={
            "attack": _T("melee.stunned/attack"),
            "no-withdraw": _T("melee.stunned/no-withdraw"),
            "stays": _T("melee.stunned/stays"),
            "no-free-attack": _T("melee.stunned/no-free-attack"),
            "attacker": _T("melee.stunned/attacker"),
            "attacker-reaction": _T("melee.stunned/attacker-reaction"),
        },
        why={
            "attacker": _T("why/melee.stunned/attacker"),
            "attacker-reaction": _T("why/melee.stunned/attacker-reaction"),
        },
        modifier=_T("word:modifier/melee.stunned"),
    ),
    ClauseText(
        "melee.slide",
        rule=_T("rule:melee.slide"),
        messages={
            "compare": _T("melee.slide/compare"),
            "headline-legal": _T("melee.slide/headline-legal"),
            "headline-illegal": _T("melee.slide/headline-illegal"),
            "vts": _T("melee.slide/vts"),
            "not-engaged": _T("melee.slide/not-engaged"),
            "keeps": _T("melee.slide/keeps"),
            "breaks": _T("melee.slide/breaks"),
            "overlap": _T("melee.slide/overlap"),
            "new": _T("melee.slide/new"),
            "path": _T("melee.slide/path"),
            "path-move": _T("melee.slide/path-move"),
            "too-far": _T("melee.slide/too-far"),
            "no-path": _T("melee.slide/no-path"),
            "breaks-on-path": _T("melee.slide/breaks-on-path"),
            "through-engaged": _T("melee.slide/through-engaged"),
            "option-needed": _T("melee.slide/option-needed"),
            "friends": _T("melee.slide/friends"),
            "no-free-attacks": _T("melee.slide/no-free-attacks"),
            "terrain": _T("melee.slide/terrain"),
        },
    ),
    ClauseText(
        "melee.withdraw",
        rule=_T("rule:melee.withdraw"),
        messages={
            "headline-refused": _T("melee.withdraw/headline-refused"),
            "headline-none": _T("melee.withdraw/headline-none"),
            "headline-one": _T("melee.withdraw/headline-one"),
            "headline": _T("melee.withdraw/headline"),
            "not-engaged": _T("melee.withdraw/not-engaged"),
            "move": _T("melee.withdraw/move"),
            "free-attack": _T("melee.withdraw/free-attack"),
            "still-engaged": _T("melee.withdraw/still-engaged"),
            "no-weapon": _T("melee.withdraw/no-weapon"),
        },
    ),
    ClauseText(
        "action.quick",
        rule=_T("rule:action.quick"),
        messages={
            "": _T("action.quick"),
        },
        modifier=_T("word:modifier/action.quick"),
    ),
    ClauseText(
        "melee.shoot-into",
        rule=_T("rule:melee.shoot-into"),
        messages={
            "compare": _T("melee.shoot-into/compare"),
            "core": _T("melee.shoot-into/core"),
            "vts": _T("melee.shoot-into/vts"),
            "numbers": _T("melee.shoot-into/numbers"),
            "unseen": _T("melee.shoot-into/unseen"),
            "not-in-melee": _T("melee.shoot-into/not-in-melee"),
            "too-many": _T("melee.shoot-into/too-many"),
            "scatter": _T("melee.shoot-into/scatter"),
        },
        modifier=_T("word:modifier/melee.shoot-into"),
    ),
    # --- grid.* (Pathfinder 1e) ---------------------------------------------------------------
    ClauseText(
        "grid.ranged",
        rule=_T("rule:grid.ranged"),
        messages={
            "corner": _T("grid.ranged/corner"),
            "corner-all": _T("grid.ranged/corner-all"),
            "wall": _T("grid.ranged/wall"),
            "wall-corner": _T("grid.ranged/wall-corner"),
            "border-wall": _T("grid.ranged/border-wall"),
            "border-wall-end": _T("grid.ranged/border-wall-end"),
            "arrow-slit": _T("grid.ranged/arrow-slit"),
            "result-none": _T("grid.ranged/result-none"),
            "result-soft": _T("grid.ranged/result-soft"),
            "result-cover": _T("grid.ranged/result-cover"),
            "result-partial": _T("grid.ranged/result-partial"),
        },
    ),
    ClauseText(
        "grid.melee",
        rule=_T("rule:grid.melee"),
        messages={
            "adjacent-clear": _T("grid.melee/adjacent-clear"),
            "adjacent-wall": _T("grid.melee/adjacent-wall"),
            "reach": _T("grid.melee/reach"),
            "reach-creature": _T("grid.melee/reach-creature"),
            "out-of-reach": _T("grid.melee/out-of-reach"),
            "wall": _T("grid.melee/wall"),
            "wall-corner": _T("grid.melee/wall-corner"),
            "border-wall": _T("grid.melee/border-wall"),
            "border-wall-end": _T("grid.melee/border-wall-end"),
            "arrow-slit": _T("grid.melee/arrow-slit"),
            "result-none": _T("grid.melee/result-none"),
            "result-cover": _T("grid.melee/result-cover"),
        },
    ),
    ClauseText(
        "grid.low-obstacle",
        rule=_T("rule:grid.low-obstacle"),
        messages={
            "counts": _T("grid.low-obstacle/counts"),
            "far": _T("grid.low-obstacle/far"),
            "attacker-closer": _T("grid.low-obstacle/attacker-closer"),
        },
    ),
    ClauseText(
        "grid.soft",
        rule=_T("rule:grid.soft"),
        messages={
            "through": _T("grid.soft/through"),
            "": _T("grid.soft"),
        },
    ),
    ClauseText(
        "grid.big",
        rule=_T("rule:grid.big"),
        messages={
            "attacker": _T("grid.big/attacker"),
            "target": _T("grid.big/target"),
            "target-ranged": _T("grid.big/target-ranged"),
        },
    ),
    ClauseText(
        "grid.partial",
        rule=_T("rule:grid.partial"),
        messages={
            "suggested": _T("grid.partial/suggested"),
            "not": _T("grid.partial/not"),
        },
    ),
    ClauseText(
        "grid.total",
        rule=_T("rule:grid.total"),
        messages={
            "": _T("grid.total"),
        },
    ),
    ClauseText(
        "grid.reach",
        rule=_T("rule:grid.reach"),
        messages={
            "diagonal": _T("grid.reach/diagonal"),
        },
    ),
    ClauseText(
        "grid.improved",
        rule=_T("rule:grid.improved"),
        messages={
            "": _T("grid.improved"),
            "behind": _T("grid.improved/behind"),
            "not-behind": _T("grid.improved/not-behind"),
        },
    ),
    ClauseText(
        "grid.consequences",
        rule=_T("rule:grid.consequences"),
        messages={
            "no-aoo": _T("grid.consequences/no-aoo"),
            "reflex": _T("grid.consequences/reflex"),
            "stealth": _T("grid.consequences/stealth"),
            "aoo-none": _T("grid.consequences/aoo-none"),
            "aoo-soft": _T("grid.consequences/aoo-soft"),
        },
    ),
)
"""Every clause's texts, in the order of docs/rules.md (``docs/clauses.txt`` is generated
from it by ``make docs``)."""

# --- translation notes and interpretation options ------------------------------------------
# Where the German fan translation and the original Rules of Play read differently (see
# fwwrules.translation for the data: clauses, options, boards). Keys: "note-N/<part>" with the
# parts topic, german, original, engine; "option/<name>" for the scenario's options.
NOTES: dict[str, Entry] = {
    "note-1/topic": _T("note:note-1/topic"),
    "note-1/german": _T("note:note-1/german"),
    "note-1/original": _T("note:note-1/original"),
    "note-1/engine": _T("note:note-1/engine"),
    "note-2/topic": _T("note:note-2/topic"),
    "note-2/german": _T("note:note-2/german"),
    "note-2/original": _T("note:note-2/original"),
    "note-2/engine": _T("note:note-2/engine"),
    "note-3/topic": _T("note:note-3/topic"),
    "note-3/german": _T("note:note-3/german"),
    "note-3/original": _T("note:note-3/original"),
    "note-3/engine": _T("note:note-3/engine"),
    "note-4/topic": _T("note:note-4/topic"),
    "note-4/german": _T("note:note-4/german"),
    "note-4/original": _T("note:note-4/original"),
    "note-4/engine": _T("note:note-4/engine"),
    "note-5/topic": _T("note:note-5/topic"),
    "note-5/german": _T("note:note-5/german"),
    "note-5/original": _T("note:note-5/original"),
    "note-5/engine": _T("note:note-5/engine"),
    "note-6/topic": _T("note:note-6/topic"),
    "note-6/german": _T("note:note-6/german"),
    "note-6/original": _T("note:note-6/original"),
    "note-6/engine": _T("note:note-6/engine"),
    "reading/original": _T("note:reading/original"),
    "reading/german": _T("note:reading/german"),
    "reading/only": _T("note:reading/only"),
    "option/contact_tolerance": _T("note:option/contact_tolerance"),
    "option/cover_by": _T("note:option/cover_by"),
    "option/slide_through_engaged_enemy": _T("note:option/slide_through_engaged_enemy"),
    "option/knife_edge": _T("note:option/knife_edge"),
}

# Words that appear inside messages (values are translated through this table when a
# reason's value is one of these tokens, e.g. size classes, kinds, dice colours).
WORDS: dict[str, Entry] = {
    "normal": _T("word:normal"),
    "large": _T("word:large"),
    "huge": _T("word:huge"),
    "ranged-attack": _T("word:ranged-attack"),
    "melee-attack": _T("word:melee-attack"),
    "pistol": _T("word:pistol"),
    "rifle": _T("word:rifle"),
    "heavy": _T("word:heavy"),
    "melee": _T("word:melee"),
    "thrown": _T("word:thrown"),
    "short": _T("word:short"),
    "long": _T("word:long"),
    "black": _T("word:black"),
    "green": _T("word:green"),
    "yellow": _T("word:yellow"),
    "blue": _T("word:blue"),
    "blocking": _T("word:blocking"),
    "cover": _T("word:cover"),
    "area": _T("word:area"),
    "dense-area": _T("word:dense-area"),
    "scenery": _T("word:scenery"),
    "friendly": _T("word:friendly"),
    "side": _T("word:side"),
    "faction": _T("word:faction"),
    "faction/player": _T("word:faction/player"),
    "faction/brotherhood": _T("word:faction/brotherhood"),
    "faction/super-mutants": _T("word:faction/super-mutants"),
    "faction/raiders": _T("word:faction/raiders"),
    "faction/survivors": _T("word:faction/survivors"),
    "faction/settlers": _T("word:faction/settlers"),
    "faction/minutemen": _T("word:faction/minutemen"),
    "faction/creatures": _T("word:faction/creatures"),
    "enemy": _T("word:enemy"),
    "neutral": _T("word:neutral"),
    "north": _T("word:north"),
    "north-east": _T("word:north-east"),
    "east": _T("word:east"),
    "south-east": _T("word:south-east"),
    "south": _T("word:south"),
    "south-west": _T("word:south-west"),
    "west": _T("word:west"),
    "north-west": _T("word:north-west"),
    # how a range is measured (ranged.range), by the kind of target
    "edge-to-model": _T("word:edge-to-model"),
    "edge-to-terrain": _T("word:edge-to-terrain"),
    "edge-to-point": _T("word:edge-to-point"),
    "point": _T("word:point"),
    "no-modifier": _T("word:no-modifier"),
    # grid distances: the unit a language writes them in (ft, or m as the German rules do:
    # FEET_TO_METRES) and the count of squares (plural forms, plural_text)
    "grid-length-unit": _T("word:grid-length-unit"),
    "grid-squares": _T("word:grid-squares"),
    "grid-squares-diagonal": _T("word:grid-squares-diagonal"),
    "grid-squares-some-diagonal": _T("word:grid-squares-some-diagonal"),
    # which way a model moves (a margin's direction, fwwrules.closeness)
    "heading/north": _T("word:heading/north"),
    "heading/north-east": _T("word:heading/north-east"),
    "heading/east": _T("word:heading/east"),
    "heading/south-east": _T("word:heading/south-east"),
    "heading/south": _T("word:heading/south"),
    "heading/south-west": _T("word:heading/south-west"),
    "heading/west": _T("word:heading/west"),
    "heading/north-west": _T("word:heading/north-west"),
}
for _colour in ("orange", "yellow", "red", "green", "blue", "black"):
    WORDS[f"ruler-{_colour}"] = _T(f"word:ruler-{_colour}")


CLAUSES: dict[str, ClauseText] = {}
"""The record of each clause id (:data:`CLAUSE_TEXTS`, and any added by :func:`add_clause`)."""
CLAUSE_RULES: dict[str, Entry] = {}
"""The rule statement of each clause id (``rule:<clause>``), from the records."""
MESSAGES: dict[str, Entry] = {}
"""Every message by id: the general ones (headlines, the skill test's lines), then the
clauses' headline phrases and messages (from the records), then the grid's words."""


def _add(table: dict[str, Entry], entries: Mapping[str, Entry]) -> None:
    dupes = table.keys() & entries.keys()
    if dupes:
        raise ValueError(f"text ids defined twice: {sorted(dupes)}")
    table.update(entries)


def add_clause(record: ClauseText) -> None:
    """Index one clause's record: its rule statement, messages, headline phrases and modifier
    label join :data:`CLAUSE_RULES`, :data:`MESSAGES` and :data:`WORDS` under their ids
    (``ValueError`` for an id already taken). The shipped records are added at import; a test
    adding a house rule adds its record the same way (and :func:`remove_clause` after)."""
    if record.clause in CLAUSES:
        raise ValueError(f"clause {record.clause!r} defined twice")
    _add(MESSAGES, {**record.why_ids(), **record.message_ids()})
    if record.modifier is not None:
        _add(WORDS, {"modifier/" + record.clause: record.modifier})
    CLAUSES[record.clause] = record
    CLAUSE_RULES[record.clause] = record.rule


def remove_clause(clause: str) -> None:
    """Undo :func:`add_clause` (for tests that add a rule for a while)."""
    record = CLAUSES.pop(clause)
    del CLAUSE_RULES[clause]
    for key in (*record.why_ids(), *record.message_ids()):
        del MESSAGES[key]
    WORDS.pop("modifier/" + clause, None)


def clause_text(clause: str) -> ClauseText:
    """The record of a clause id; ``KeyError`` naming it when the catalogue has none."""
    try:
        return CLAUSES[clause]
    except KeyError:
        raise KeyError(f"no texts for clause {clause!r} in the catalogue") from None


def modifier_label(clause: str, lang: str) -> str:
    """What a skill modifier given by ``clause`` is called in a list of modifiers (``Quick
    Action``, ``cover``); ``KeyError`` for a clause without a ``modifier`` label, never the
    raw token.

    >>> modifier_label("action.quick", "de"), modifier_label("cover.line", "en")
    ('Schnellaktion', 'cover')
    """
    label = clause_text(clause).modifier
    if label is None:
        raise KeyError(f"clause {clause!r} gives a skill modifier but has no modifier label")
    return label[check_lang(lang)]


# --- margin/: how close a ruling is to changing (fwwrules.closeness, fwwrules.margins) --------
# Not rules: what a ruling's margins say. {what} is one or more margin/change/ phrases.
_MARGIN: dict[str, Entry] = {
    "margin/knife-edge": _T("margin/knife-edge"),
    "margin/knife-edge-tiny": _T("margin/knife-edge-tiny"),
    "margin/changes": _T("margin/changes"),
    "margin/changes-tiny": _T("margin/changes-tiny"),
    "margin/none": _T("margin/none"),
    "margin/none-near": _T("margin/none-near"),
    "margin/not-measured": _T("margin/not-measured"),
    "margin/not-measured-probes": _T("margin/not-measured-probes"),
    "margin/change/los-closes": _T("margin/change/los-closes"),
    "margin/change/los-opens": _T("margin/change/los-opens"),
    "margin/change/band-leaves": _T("margin/change/band-leaves"),
    "margin/change/band-enters": _T("margin/change/band-enters"),
    "margin/change/min-range-inside": _T("margin/change/min-range-inside"),
    "margin/change/min-range-outside": _T("margin/change/min-range-outside"),
    "margin/change/cover-gained": _T("margin/change/cover-gained"),
    "margin/change/cover-lost": _T("margin/change/cover-lost"),
    "margin/change/contact-made": _T("margin/change/contact-made"),
    "margin/change/contact-breaks": _T("margin/change/contact-breaks"),
    "margin/change/other": _T("margin/change/other"),
}

_add(MESSAGES, _GENERAL)
for _record in CLAUSE_TEXTS:
    add_clause(_record)
_add(MESSAGES, _GRID)
_add(MESSAGES, _MARGIN)


# --- UI text: labels of the panels, pictures and pages (never a ruling) --------------------
# One table for every label a reader sees besides the rulings, keyed "<surface>/<key>":
# panel/ (widgets' controls), draw/ (board pictures), threat/ (threat map), review/ (review
# page). Each surface reads its part with ui_section(); a test checks both languages.
UI_TEXT: dict[str, Entry] = {
    # --- panel/: the panels' controls (fwwrules_widgets)
    "panel/attacker": _T("ui:panel/attacker"),
    "panel/target": _T("ui:panel/target"),
    "panel/weapon": _T("ui:panel/weapon"),
    "panel/attack": _T("ui:panel/attack"),
    "panel/band": _T("ui:panel/band"),
    "panel/rules": _T("ui:panel/rules"),
    "panel/lang": _T("ui:panel/lang"),
    "panel/model": _T("ui:panel/model"),
    "panel/x": _T("ui:panel/x"),
    "panel/y": _T("ui:panel/y"),
    "panel/auto": _T("ui:panel/auto"),
    "panel/short": _T("ui:panel/short"),
    "panel/long": _T("ui:panel/long"),
    "panel/none": _T("ui:panel/none"),
    "panel/prev": _T("ui:panel/prev"),
    "panel/next": _T("ui:panel/next"),
    "panel/withdraw": _T("ui:panel/withdraw"),
    "panel/slide": _T("ui:panel/slide"),
    "panel/shooter": _T("ui:panel/shooter"),
    "panel/engagements": _T("ui:panel/engagements"),
    "panel/outnumbered": _T("ui:panel/outnumbered"),
    "panel/not-engaged": _T("ui:panel/not-engaged"),
    "panel/error": _T("ui:panel/error"),
    "panel/how-close": _T("ui:panel/how-close"),
    "panel/measuring": _T("ui:panel/measuring"),
    "panel/side-view": _T("ui:panel/side-view"),
    "panel/side-view-none": _T("ui:panel/side-view-none"),
    "panel/compare": _T("ui:panel/compare"),
    "panel/compare-nothing": _T("ui:panel/compare-nothing"),
    # --- the board editor ---------------------------------------------------------------
    "panel/tool": _T("ui:panel/tool"),
    "panel/tool-select": _T("ui:panel/tool-select"),
    "panel/tool-model": _T("ui:panel/tool-model"),
    "panel/tool-rect": _T("ui:panel/tool-rect"),
    "panel/tool-polygon": _T("ui:panel/tool-polygon"),
    "panel/tool-circle": _T("ui:panel/tool-circle"),
    "panel/snap": _T("ui:panel/snap"),
    "panel/undo": _T("ui:panel/undo"),
    "panel/redo": _T("ui:panel/redo"),
    "panel/delete": _T("ui:panel/delete"),
    "panel/apply": _T("ui:panel/apply"),
    "panel/save": _T("ui:panel/save"),
    "panel/file": _T("ui:panel/file"),
    "panel/open-attack": _T("ui:panel/open-attack"),
    "panel/models-head": _T("ui:panel/models-head"),
    "panel/terrain-head": _T("ui:panel/terrain-head"),
    "panel/faction": _T("ui:panel/faction"),
    "panel/name": _T("ui:panel/name"),
    "panel/base": _T("ui:panel/base"),
    "panel/diameter": _T("ui:panel/diameter"),
    "panel/skills": _T("ui:panel/skills"),
    "panel/faction-default": _T("ui:panel/faction-default"),
    "panel/skills-example": _T("ui:panel/skills-example"),
    "panel/weapons": _T("ui:panel/weapons"),
    "panel/kind": _T("ui:panel/kind"),
    "panel/height": _T("ui:panel/height"),
    "panel/huge": _T("ui:panel/huge"),
    "panel/elevated": _T("ui:panel/elevated"),
    "panel/base-normal": _T("ui:panel/base-normal"),
    "panel/base-large": _T("ui:panel/base-large"),
    "panel/base-huge": _T("ui:panel/base-huge"),
    "panel/base-other": _T("ui:panel/base-other"),
    "panel/selected": _T("ui:panel/selected"),
    "panel/nothing-selected": _T("ui:panel/nothing-selected"),
    "panel/valid": _T("ui:panel/valid"),
    "panel/invalid": _T("ui:panel/invalid"),
    "panel/refused": _T("ui:panel/refused"),
    "panel/saved": _T("ui:panel/saved"),
    "panel/export": _T("ui:panel/export"),
    "panel/export-format": _T("ui:panel/export-format"),
    "panel/export-scale": _T("ui:panel/export-scale"),
    "panel/export-file": _T("ui:panel/export-file"),
    "panel/exported": _T("ui:panel/exported"),
    "panel/download": _T("ui:panel/download"),
    "panel/title": _T("ui:panel/title"),
    "panel/play": _T("ui:panel/play"),
    "panel/frame": _T("ui:panel/frame"),
    "panel/editor-hint": _T("ui:panel/editor-hint"),
    "panel/threat-side": _T("ui:panel/threat-side"),
    "panel/threat-layer": _T("ui:panel/threat-layer"),
    "panel/threat-step": _T("ui:panel/threat-step"),
    "panel/attackers": _T("ui:panel/attackers"),
    "panel/uncovered": _T("ui:panel/uncovered"),
    "panel/best-modifier": _T("ui:panel/best-modifier"),
    "panel/threat-hint": _T("ui:panel/threat-hint"),
    "panel/threat-position": _T("ui:panel/threat-position"),
    "panel/threat-unplaceable": _T("ui:panel/threat-unplaceable"),
    "panel/drag-hint": _T("ui:panel/drag-hint"),
    "panel/no-drag-hint": _T("ui:panel/no-drag-hint"),
    "panel/kernel-restarted": _T("ui:panel/kernel-restarted"),
    "panel/saved-picture": _T("ui:panel/saved-picture"),
    "panel/slide-to": _T("ui:panel/slide-to"),
    "panel/slide-hint": _T("ui:panel/slide-hint"),
    "panel/zoom-in": _T("ui:panel/zoom-in"),
    "panel/zoom-out": _T("ui:panel/zoom-out"),
    "panel/fit-table": _T("ui:panel/fit-table"),
    "panel/fit-models": _T("ui:panel/fit-models"),
    "panel/zoom-help": _T("ui:panel/zoom-help"),
    # --- draw/: words a board picture writes itself (legend entries, marks)
    "draw/board": _T("ui:draw/board"),
    "draw/x-axis": _T("ui:draw/x-axis"),
    "draw/y-axis": _T("ui:draw/y-axis"),
    "draw/side": _T("ui:draw/side"),
    "draw/los": _T("ui:draw/los"),
    "draw/no-los": _T("ui:draw/no-los"),
    "draw/blocker": _T("ui:draw/blocker"),
    "draw/loc": _T("ui:draw/loc"),
    "draw/crossed": _T("ui:draw/crossed"),
    "draw/grazed": _T("ui:draw/grazed"),
    "draw/ignored": _T("ui:draw/ignored"),
    "draw/edge": _T("ui:draw/edge"),
    "draw/short-band": _T("ui:draw/short-band"),
    "draw/long-band": _T("ui:draw/long-band"),
    "draw/engaged": _T("ui:draw/engaged"),
    "draw/into-melee": _T("ui:draw/into-melee"),
    "draw/slide-legal": _T("ui:draw/slide-legal"),
    "draw/slide-illegal": _T("ui:draw/slide-illegal"),
    "draw/breaks": _T("ui:draw/breaks"),
    "draw/slide-breaks": _T("ui:draw/slide-breaks"),
    "draw/free-attack": _T("ui:draw/free-attack"),
    "draw/height": _T("ui:draw/height"),
    "draw/orange": _T("ui:draw/orange"),
    "draw/yellow": _T("ui:draw/yellow"),
    "draw/red": _T("ui:draw/red"),
    "draw/green": _T("ui:draw/green"),
    "draw/blue": _T("ui:draw/blue"),
    "draw/black": _T("ui:draw/black"),
    "draw/x-axis-in": _T("ui:draw/x-axis-in"),
    "draw/y-axis-in": _T("ui:draw/y-axis-in"),
    "draw/cover-mark": _T("ui:draw/cover-mark"),
    "draw/key": _T("ui:draw/key"),
    "draw/key-dropped": _T("ui:draw/key-dropped"),
    "draw/elevation": _T("ui:draw/elevation"),
    "draw/on-piece": _T("ui:draw/on-piece"),
    "draw/rules-core": _T("ui:draw/rules-core"),
    "draw/rules-vts": _T("ui:draw/rules-vts"),
    "draw/contact-kept": _T("ui:draw/contact-kept"),
    "draw/contact-broken": _T("ui:draw/contact-broken"),
    "draw/small-bases": _T("ui:draw/small-bases"),
    "draw/side-title": _T("ui:draw/side-title"),
    "draw/side-x": _T("ui:draw/side-x"),
    "draw/side-y": _T("ui:draw/side-y"),
    "draw/side-figures": _T("ui:draw/side-figures"),
    "draw/side-scaled": _T("ui:draw/side-scaled"),
    "draw/side-flat": _T("ui:draw/side-flat"),
    "draw/side-orange": _T("ui:draw/side-orange"),
    "draw/side-no-height": _T("ui:draw/side-no-height"),
    "draw/side-drop": _T("ui:draw/side-drop"),
    "draw/side-elevated": _T("ui:draw/side-elevated"),
    "draw/side-not-elevated": _T("ui:draw/side-not-elevated"),
    "draw/side-edge-far": _T("ui:draw/side-edge-far"),
    "draw/side-edge-near": _T("ui:draw/side-edge-near"),
    "draw/side-edge-cover": _T("ui:draw/side-edge-cover"),
    "draw/side-within": _T("ui:draw/side-within"),
    "draw/knife-edge": _T("ui:draw/knife-edge"),
    # --- threat/: the threat map's overlay
    "threat/attackers": _T("ui:threat/attackers"),
    "threat/uncovered": _T("ui:threat/uncovered"),
    "threat/best-modifier": _T("ui:threat/best-modifier"),
    "threat/none": _T("ui:threat/none"),
    "threat/none-covered": _T("ui:threat/none-covered"),
    "threat/one": _T("ui:threat/one"),
    "threat/two": _T("ui:threat/two"),
    "threat/many": _T("ui:threat/many"),
    "threat/no-attack": _T("ui:threat/no-attack"),
    "threat/low": _T("ui:threat/low"),
    "threat/mid": _T("ui:threat/mid"),
    "threat/high": _T("ui:threat/high"),
    "threat/unplaceable": _T("ui:threat/unplaceable"),
    "threat/title": _T("ui:threat/title"),
    "threat/summary": _T("ui:threat/summary"),
    "threat/summary-count": _T("ui:threat/summary-count"),
    "threat/summary-safe": _T("ui:threat/summary-safe"),
    "threat/summary-by": _T("ui:threat/summary-by"),
    "threat/summary-uncovered": _T("ui:threat/summary-uncovered"),
    "threat/summary-exact": _T("ui:threat/summary-exact"),
    "threat/summary-step": _T("ui:threat/summary-step"),
    "threat/summary-step-default": _T("ui:threat/summary-step-default"),
    "threat/summary-step-widened": _T("ui:threat/summary-step-widened"),
    "threat/summary-weapon": _T("ui:threat/summary-weapon"),
    "threat/summary-weapon-all": _T("ui:threat/summary-weapon-all"),
    "threat/summary-weapon-none": _T("ui:threat/summary-weapon-none"),
    # --- review/: the translation review page's own labels
    "review/title": _T("ui:review/title"),
    "review/intro": _T("ui:review/intro"),
    "review/intro-suggest": _T("ui:review/intro-suggest"),
    "review/reviewer": _T("ui:review/reviewer"),
    "review/export": _T("ui:review/export"),
    "review/import": _T("ui:review/import"),
    "review/done": _T("ui:review/done"),
    "review/ok": _T("ui:review/ok"),
    "review/comment": _T("ui:review/comment"),
    "review/clauses": _T("ui:review/clauses"),
    "review/examples": _T("ui:review/examples"),
    "review/notes": _T("ui:review/notes"),
    "review/rule": _T("ui:review/rule"),
    "review/messages": _T("ui:review/messages"),
    "review/german": _T("ui:review/german"),
    "review/original": _T("ui:review/original"),
    "review/engine": _T("ui:review/engine"),
    "review/option": _T("ui:review/option"),
    "review/topic": _T("ui:review/topic"),
    "review/texts": _T("ui:review/texts"),
    "review/general": _T("ui:review/general"),
    "review/notes-words": _T("ui:review/notes-words"),
    "review/words": _T("ui:review/words"),
    "review/surface-panel": _T("ui:review/surface-panel"),
    "review/surface-draw": _T("ui:review/surface-draw"),
    "review/surface-threat": _T("ui:review/surface-threat"),
    "review/surface-review": _T("ui:review/surface-review"),
    "review/cites": _T("ui:review/cites"),
    "review/edit-hint": _T("ui:review/edit-hint"),
    "review/suggested": _T("ui:review/suggested"),
    "review/revert": _T("ui:review/revert"),
    "review/suggestions": _T("ui:review/suggestions"),
    "review/they-suggest": _T("ui:review/they-suggest"),
    "review/not-done": _T("ui:review/not-done"),
    "review/anonymous": _T("ui:review/anonymous"),
    "review/saved": _T("ui:review/saved"),
    "review/saved-dirty": _T("ui:review/saved-dirty"),
    "review/not-saved": _T("ui:review/not-saved"),
    "review/leave": _T("ui:review/leave"),
    "review/restored": _T("ui:review/restored"),
    "review/other-build": _T("ui:review/other-build"),
    "review/take-over": _T("ui:review/take-over"),
    "review/imported-other": _T("ui:review/imported-other"),
    "review/imported": _T("ui:review/imported"),
    "review/bad-file": _T("ui:review/bad-file"),
    "review/surface-conformance": _T("ui:review/surface-conformance"),
    "review/conformance": _T("ui:review/conformance"),
    "review/withdraws": _T("ui:review/withdraws"),
    # --- conformance/: the conformance table (docs/conformance.md, tools/make_conformance.py)
    "conformance/book": _T("ui:conformance/book"),
    "conformance/rules-say": _T("ui:conformance/rules-say"),
    "conformance/engine": _T("ui:conformance/engine"),
    "conformance/ruling": _T("ui:conformance/ruling"),
    "conformance/agrees": _T("ui:conformance/agrees"),
    "conformance/differs": _T("ui:conformance/differs"),
    "conformance/yes": _T("ui:conformance/yes"),
    "conformance/no": _T("ui:conformance/no"),
    "conformance/none": _T("ui:conformance/none"),
    "conformance/includes": _T("ui:conformance/includes"),
    "conformance/page": _T("ui:conformance/page"),
    "conformance/no-page": _T("ui:conformance/no-page"),
    "conformance/no-figure": _T("ui:conformance/no-figure"),
    "conformance/own-board": _T("ui:conformance/own-board"),
    "conformance/source-RoP": _T("ui:conformance/source-RoP"),
    "conformance/source-PRD": _T("ui:conformance/source-PRD"),
    "conformance/figure-cover-1": _T("ui:conformance/figure-cover-1"),
    "conformance/figure-cover-2": _T("ui:conformance/figure-cover-2"),
    "conformance/figure-cover-3": _T("ui:conformance/figure-cover-3"),
    "conformance/figure-cover-4": _T("ui:conformance/figure-cover-4"),
    "conformance/figure-cover-4-dense": _T("ui:conformance/figure-cover-4-dense"),
    "conformance/figure-outnumbered-1": _T("ui:conformance/figure-outnumbered-1"),
    "conformance/figure-outnumbered-2": _T("ui:conformance/figure-outnumbered-2"),
    "conformance/figure-slide": _T("ui:conformance/figure-slide"),
    "conformance/figure-prd-cover": _T("ui:conformance/figure-prd-cover"),
    "conformance/m-allowed": _T("ui:conformance/m-allowed"),
    "conformance/m-not-allowed": _T("ui:conformance/m-not-allowed"),
    "conformance/m-line-of-sight": _T("ui:conformance/m-line-of-sight"),
    "conformance/m-skill-modifier": _T("ui:conformance/m-skill-modifier"),
    "conformance/m-skill-value": _T("ui:conformance/m-skill-value"),
    "conformance/m-skill-target": _T("ui:conformance/m-skill-target"),
    "conformance/m-armor-bonus": _T("ui:conformance/m-armor-bonus"),
    "conformance/m-armor-boost": _T("ui:conformance/m-armor-boost"),
    "conformance/m-cover": _T("ui:conformance/m-cover"),
    "conformance/m-cover-clauses": _T("ui:conformance/m-cover-clauses"),
    "conformance/m-cover-modifiers": _T("ui:conformance/m-cover-modifiers"),
    "conformance/m-ignored": _T("ui:conformance/m-ignored"),
    "conformance/m-green": _T("ui:conformance/m-green"),
    "conformance/m-numbers": _T("ui:conformance/m-numbers"),
    "conformance/m-number-1": _T("ui:conformance/m-number-1"),
    "conformance/m-number-4": _T("ui:conformance/m-number-4"),
    "conformance/m-numbers-2-3": _T("ui:conformance/m-numbers-2-3"),
    "conformance/m-legal": _T("ui:conformance/m-legal"),
    "conformance/m-breaks": _T("ui:conformance/m-breaks"),
    "conformance/m-overlaps": _T("ui:conformance/m-overlaps"),
    "conformance/m-new-engagements": _T("ui:conformance/m-new-engagements"),
    "conformance/m-free-attacks": _T("ui:conformance/m-free-attacks"),
    "conformance/m-free-attacks-minus-2": _T("ui:conformance/m-free-attacks-minus-2"),
    "conformance/m-grid-cover": _T("ui:conformance/m-grid-cover"),
    "conformance/m-ac": _T("ui:conformance/m-ac"),
    "conformance/m-reflex": _T("ui:conformance/m-reflex"),
    "conformance/m-procedure": _T("ui:conformance/m-procedure"),
    "conformance/m-soft": _T("ui:conformance/m-soft"),
    "conformance/m-stealth": _T("ui:conformance/m-stealth"),
    "conformance/m-stealth-bonus": _T("ui:conformance/m-stealth-bonus"),
    "conformance/m-improved-evasion": _T("ui:conformance/m-improved-evasion"),
    "conformance/m-attack-allowed": _T("ui:conformance/m-attack-allowed"),
    "conformance/m-aoo": _T("ui:conformance/m-aoo"),
    "conformance/m-lines": _T("ui:conformance/m-lines"),
    "conformance/m-partial-clear": _T("ui:conformance/m-partial-clear"),
    "conformance/m-partial-lines": _T("ui:conformance/m-partial-lines"),
    "conformance/grid-none": _T("ui:conformance/grid-none"),
    "conformance/grid-partial": _T("ui:conformance/grid-partial"),
    "conformance/grid-cover": _T("ui:conformance/grid-cover"),
    "conformance/grid-improved": _T("ui:conformance/grid-improved"),
    "conformance/grid-total": _T("ui:conformance/grid-total"),
    "conformance/grid-ranged": _T("ui:conformance/grid-ranged"),
    "conformance/grid-melee": _T("ui:conformance/grid-melee"),
}


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    return lang


def ui_text(key: str, lang: str) -> str:
    """A label of :data:`UI_TEXT` (``"<surface>/<key>"``) in ``lang``; ``KeyError`` for an
    unknown key, ``ValueError`` for an unknown language.

    >>> ui_text("panel/attacker", "de"), ui_text("draw/loc", "en")
    ('Angreifer', 'Line of Cover (LoC)')
    """
    return UI_TEXT[key][check_lang(lang)]


def ui_section(surface: str) -> dict[str, Entry]:
    """The labels of one surface of :data:`UI_TEXT` (``panel``, ``draw``, ``threat``,
    ``review``), keyed without the ``"<surface>/"`` prefix; empty for an unknown surface.

    >>> ui_section("review")["title"]["de"]
    'fwwrules Übersetzungsprüfung'
    """
    head = surface + "/"
    return {k.removeprefix(head): v for k, v in UI_TEXT.items() if k.startswith(head)}


TEXT_KINDS: tuple[tuple[str, Mapping[str, Entry]], ...] = (
    ("rule:", CLAUSE_RULES),
    ("note:", NOTES),
    ("word:", WORDS),
    ("ui:", UI_TEXT),
    ("", MESSAGES),
)
"""Every text of the catalogue has one id (the review page's suggestions and a gettext file's
message context use it): a message's id (``ranged.los/clear``), or a prefix naming the table
and its key: ``rule:<clause>`` (the rule statement), ``note:<key>``, ``word:<token>``,
``ui:<surface>/<key>``."""


def text_entry(text_id: str) -> Entry:
    """The texts (by language) of one catalogue text id (:data:`TEXT_KINDS`); ``KeyError`` for
    an id the catalogue does not have.

    >>> text_entry("rule:size.classes")["en"][:27], text_entry("word:huge")["de"]
    ("A model's size class comes ", 'Riesig')
    """
    for prefix, table in TEXT_KINDS:
        if text_id.startswith(prefix) and text_id[len(prefix) :] in table:
            return table[text_id[len(prefix) :]]
    raise KeyError(f"no text {text_id!r} in the catalogue")


def plural_text(text_id: str, count: float, lang: str) -> str:
    """The form of a text with plural forms (``msgid_plural`` in the gettext files) for
    ``count`` in ``lang``, by the file's ``Plural-Forms`` rule; a count that is not whole takes
    the form of 2 (in English and German, the plural). English when the language lacks it.

    >>> plural_text("word:grid-squares", 1, "de"), plural_text("word:grid-squares", 6, "de")
    ('{count} Feld', '{count} Felder')
    """
    n = int(count) if float(count).is_integer() else 2
    text = translations(check_lang(lang)).get(text_id, n)
    if text is None:
        text = translations("en").get(text_id, n)
    if text is None:
        raise KeyError(f"no text {text_id!r} in the catalogue")
    return text


def word(token: str, lang: str) -> str:
    """A translated word, or the token itself when it is not in :data:`WORDS`."""
    entry = WORDS.get(token)
    return token if entry is None else entry[lang]


LENGTH_KEYS: frozenset[str] = frozenset(
    {
        "distance",
        "farthest",
        "short",
        "long",
        "min_range",
        "gap",
        "overlap",
        "length",
        "move",
        "difference",
        "orange",
        "top",
        "bottom",
        "height",
    }
)
"""Value names that are lengths in the scenario's units, when the reason carries its ``units``
(or ``unit``) value; a reason without one (grid squares) keeps plain numbers.

They are shown with their unit, and in a millimetre scenario also in inches, since the rulers
are in inches: ``265.9 mm (10.47″)``; German with a decimal comma: ``265,9 mm (10,47″)``
(:func:`length`).
"""

WORD_KEYS: frozenset[str] = frozenset(
    {
        "icon",
        "weapon_icon",
        "size",
        "kind",
        "declared",
        "usual",
        "band",
        "by",
        "colour",
        "side",
        "measure",
        "heading",
    }
)
"""Value names that are vocabulary (skill icons, size classes, kinds, bands, colours): always
shown as the word of :data:`WORDS` in the reader's language, never as a display name, even
when a weapon or model happens to have that id (a weapon called ``rifle``)."""


MINUS = "\u2212"
"""The one minus sign of every text shown to people (``−2``, ``6 − 2 = 4``), in both languages;
JSON and reason params keep plain numbers."""

FEET_TO_METRES = 0.3
"""Grid distances in a language whose ``word:grid-length-unit`` is ``m`` (German: the German
Pathfinder rules write 5 ft as 1,5 m, so 30 ft is 9 m), not the exact 0.3048 m per foot."""


def side_name(side: str, lang: str = "en") -> str:
    """A side id as text for people shows it (legends, titles): the catalogue's name of a
    known faction (``word:faction/<id>``) in ``lang``, else its words capitalised.

    >>> side_name("super-mutants"), side_name("brotherhood"), side_name("raiders_2")
    ('Super Mutants', 'Brotherhood', 'Raiders 2')
    >>> side_name("player", "de"), side_name("super-mutants", "de"), side_name("bos", "de")
    ('Spieler', 'Supermutanten', 'Bos')
    """
    entry = WORDS.get(f"faction/{side}")
    if entry is not None:
        return entry[check_lang(lang)]
    return " ".join(w[:1].upper() + w[1:] for w in side.replace("_", "-").split("-") if w)


@functools.cache
def _locale(lang: str) -> Any:
    """Babel's locale data (CLDR) for a language of the catalogue, loaded on first use (Babel
    costs about 30 ms to import and load: never at ``import fwwrules``)."""
    from babel import Locale

    return Locale.parse(check_lang(lang))


def _rounded(value: float, decimals: int) -> Decimal:
    """``value`` rounded half away from zero to ``decimals`` places (as rulers are read: 1.125
    is 1.13), never ``-0``. (:mod:`decimal` loads on the first number written, with Babel.)"""
    from decimal import ROUND_HALF_UP, Decimal

    quantum = Decimal(1).scaleb(-decimals)
    rounded = Decimal(repr(float(value))).quantize(quantum, rounding=ROUND_HALF_UP)
    return rounded if rounded else Decimal(0)


def _pattern(decimals: int) -> str:
    """A CLDR number pattern: up to ``decimals`` places, trailing zeros dropped, no grouping."""
    return "0." + "#" * decimals if decimals > 0 else "0"


def number(value: float, decimals: int, lang: str) -> str:
    """``value`` rounded half away from zero to ``decimals`` places, trailing zeros dropped,
    without thousands separators, in the locale's digits and decimal mark (Babel, CLDR data:
    German has a decimal comma); a negative number with the minus sign :data:`MINUS` in every
    language (the project's typography, not the locale's hyphen-minus).

    >>> number(10.5, 1, "de"), number(2.0, 1, "en"), number(-0.25, 2, "de")
    ('10,5', '2', '−0,25')
    >>> number(1.125, 2, "en"), number(-0.004, 2, "en"), number(1219.2, 1, "de")
    ('1.13', '0', '1219,2')
    """
    return _number(value, decimals, lang)


WRITTEN_KEPT = 1024
"""How many numbers and lengths the catalogue keeps as written (:func:`number`,
:func:`_unit`: pure, and a panel's drag writes the same base sizes and ruler lengths at every
step, Babel taking a tenth of a millisecond for each)."""


@functools.lru_cache(maxsize=WRITTEN_KEPT)
def _number(value: float, decimals: int, lang: str) -> str:
    from babel.numbers import format_decimal

    rounded = _rounded(value, decimals)
    text: str = format_decimal(abs(rounded), format=_pattern(decimals), locale=_locale(lang))
    return MINUS + text if rounded < 0 else text


@functools.cache
def decimal_mark(lang: str) -> str:
    """The locale's decimal mark (``.`` in English, ``,`` in German; CLDR through Babel).

    >>> decimal_mark("en"), decimal_mark("de")
    ('.', ',')
    """
    from babel.numbers import get_decimal_symbol

    mark: str = get_decimal_symbol(_locale(lang))
    return mark


@functools.lru_cache(maxsize=WRITTEN_KEPT)
def _unit(value: float, decimals: int, unit: str, lang: str) -> str:
    """A length with its unit as the locale writes it (CLDR's short form through Babel:
    ``265.9 mm``, ``265,9 mm``, ``30 ft``, ``9 m``); :data:`MINUS` before a negative one."""
    from babel.units import format_unit

    rounded = _rounded(value, decimals)
    text: str = format_unit(
        abs(rounded), unit, "short", format=_pattern(decimals), locale=_locale(lang)
    )
    return MINUS + text if rounded < 0 else text


def signed(value: float, lang: str, decimals: int = 0) -> str:
    """A modifier with its sign: ``+2``, ``−2`` (:data:`MINUS`), ``0``.

    >>> signed(2, "en"), signed(-2, "de"), signed(0, "en"), signed(1.5, "de", 1)
    ('+2', '−2', '0', '+1,5')
    """
    text = number(value, decimals, lang)
    return text if text == "0" or text.startswith(MINUS) else "+" + text


def length(
    value: float,
    units: str,
    lang: str,
    *,
    inches: bool = True,
    squares: float | None = None,
    diagonal: int = 0,
) -> str:
    """THE formatter of lengths shown to people (rulings, panels, pictures, threat map).

    ``units`` is the unit ``value`` is in:

    * ``"mm"``: millimetres with one decimal (two below 1 mm, so a 0.25 mm gap stays
      visible), followed by the length in inches, since the rulers are in inches
      (``inches=False`` leaves them out: base sizes are written in mm alone, ``32 mm``; so
      does a length other than 0 shorter than 0.005″, 0.127 mm, which would read ``0″``);
    * ``"mm-in"``: millimetres measured on a board whose file is in inches (how close a call
      is): the file's inches first and the millimetres in brackets, ``2″ (50.8 mm)``; below
      :data:`INCHES_FIRST_FROM_MM` millimetres alone, ``0.3 mm``, since inches would read
      ``0.01″`` or ``0″`` (:func:`_inches_first`);
    * ``"in"``: inches alone, as the rulebooks write them: the ″ sign, up to two decimals
      (quarter inches are exact: ``1.25″``; a ruler: ``2″``);
    * ``"ft"`` (the Pathfinder grid): feet in English, metres in German as the German rules
      write them (5 ft = 1,5 m, :data:`FEET_TO_METRES`); ``squares`` adds the count of
      squares, ``30 ft (6 squares)``, ``9 m (6 Felder)``. The length is the rule's count
      (diagonals 1-2-1), the squares are those a reader counts on the map: with ``diagonal``
      steps among them the text says so, ``15 ft (2 squares diagonally)``, ``20 ft (3
      squares, 2 of them diagonally)``.

    German uses a decimal comma, both languages the minus sign :data:`MINUS`.

    >>> length(265.92, "mm", "de")
    '265,9 mm (10,47″)'
    >>> length(50.8, "mm", "en"), length(6, "in", "en"), length(0.25, "mm", "en")
    ('50.8 mm (2″)', '6″', '0.25 mm (0.01″)')
    >>> length(32, "mm", "en", inches=False), length(1.25, "in", "de")
    ('32 mm', '1,25″')
    >>> length(0.1, "mm", "en"), length(0, "mm", "de")
    ('0.1 mm', '0 mm (0″)')
    >>> length(50.8, "mm-in", "en"), length(50.8, "mm-in", "de"), length(0.3, "mm-in", "en")
    ('2″ (50.8 mm)', '2″ (50,8 mm)', '0.3 mm')
    >>> length(30, "ft", "en", squares=6), length(30, "ft", "de", squares=6)
    ('30 ft (6 squares)', '9 m (6 Felder)')
    >>> length(5, "ft", "de", squares=1), length(7.5, "ft", "de")
    ('1,5 m (1 Feld)', '2,25 m')
    >>> length(15, "ft", "en", squares=2, diagonal=2), length(20, "ft", "de", squares=3, diagonal=2)
    ('15 ft (2 squares diagonally)', '6 m (3 Felder, davon 2 diagonal)')
    """
    check_lang(lang)
    if units == "in":
        return f"{number(value, 2, lang)}″"
    if units == "mm-in":
        return _inches_first(value, lang)
    if units == "ft":
        if word("grid-length-unit", lang) == "m":
            text = _unit(value * FEET_TO_METRES, 2, "length-meter", lang)
        else:
            text = _unit(value, 1, "length-foot", lang)
        if squares is not None:
            key = "grid-squares"
            if diagonal:
                key += "-diagonal" if diagonal == squares else "-some-diagonal"
            phrase = plural_text(f"word:{key}", squares, lang)
            count, steps = number(squares, 1, lang), number(diagonal or 0, 1, lang)
            text += f" ({phrase.format(count=count, diagonal=steps)})"
        return text
    if units != "mm":
        raise ValueError(f"unknown unit {units!r}; expected mm, mm-in, in or ft")
    mm = _unit(value, 2 if abs(value) < 1 else 1, "length-millimeter", lang)
    if not inches or (value and not round(value / 25.4, 2)):  # would read a length of 0″
        return mm
    return f"{mm} ({number(value / 25.4, 2, lang)}″)"


INCHES_FIRST_FROM_MM = 1.0
"""On a board whose file is in inches, a length in millimetres (how close a call is) of at
least this is written in inches first, ``0.04″ (1 mm)``; a shorter one in millimetres alone
(two decimals: ``0.25 mm``), as inches to two decimals would read ``0.01″`` or ``0″``."""


def _inches_first(mm: float, lang: str) -> str:
    """``mm`` (millimetres) for a reader of inches: ``2″ (50.8 mm)``, and below
    :data:`INCHES_FIRST_FROM_MM` millimetres alone.

    >>> _inches_first(1.0, "en"), _inches_first(0.99, "de"), _inches_first(-25.4, "en")
    ('0.04″ (1 mm)', '0,99 mm', '−1″ (−25.4 mm)')
    """
    if abs(mm) < INCHES_FIRST_FROM_MM:
        return _unit(mm, 2, "length-millimeter", lang)
    return f"{number(mm / 25.4, 2, lang)}″ ({_unit(mm, 1, 'length-millimeter', lang)})"


RULER_KEYS: frozenset[str] = frozenset({"ruler"})
"""Value names that are a ruler's colour, shown as the ruler's name (``red``: Red, Rot)."""


def point_text(point: PointRef, lang: str) -> str:
    """How a point target (coordinates in scenario units) reads in text. German separates the
    coordinates by a semicolon, since its decimal mark is a comma.

    >>> point_text(PointRef(200, -0.5), "en"), point_text(PointRef(200, -0.5), "de")
    ('point (200, −0.5)', 'Punkt (200; −0,5)')
    """
    sep = "; " if decimal_mark(lang) == "," else ", "
    x, y = number(point.x, 2, lang), number(point.y, 2, lang)
    return f"{word('point', lang)} ({x}{sep}{y})"


def ref_text(ref: Ref, lang: str, labels: Mapping[str, str]) -> str:
    """A reference (:mod:`fwwrules.refs`) named in text with the display names ``labels`` (an
    id without one shows as it is): a model or piece by its name, touching pieces acting as
    one joined by ``+``, a Significant Edge by its side and piece, a point by its coordinates.

    >>> names = {"c1": "Crate 1", "c2": "Crate 2", "b": "Building"}
    >>> ref_text(TerrainRef(("c1", "c2")), "en", names), ref_text(EdgeRef("b", "west"), "de", names)
    ('Crate 1 + Crate 2', 'Westkante von Building')
    """
    if isinstance(ref, ModelRef):
        return labels.get(ref.id, ref.id)
    if isinstance(ref, TerrainRef):
        return " + ".join(labels.get(i, i) for i in ref.ids)
    if isinstance(ref, EdgeRef):
        return render_edge(labels.get(ref.terrain, ref.terrain), ref.side, lang)
    return point_text(ref, lang)


MODIFIER_KEYS: frozenset[str] = frozenset({"modifiers"})
"""Value names holding skill modifiers as ``[clause, value]`` pairs, shown with their sign and
what they are: ``−2 (Quick Action), +2 (Stunned target)``; none: ``no modifier``."""

BASE_KEYS: frozenset[str] = frozenset({"diameter", "smaller", "target_diameter", "step"})
"""Value names that are base diameters in millimetres (whatever the scenario's units), written
as the rulebooks write base sizes: ``32 mm``, no inches; and ``step``, a margin's smallest
written step (``less than 0.01 mm``: in inches it would read ``0″``)."""

NUMBERED_KEYS: frozenset[str] = frozenset({"numbers"})
"""Value names whose list is numbered from 1 when shown (the Armor die's numbers of
``melee.shoot-into``: ``["brute", "knight"]`` reads ``1: Brute, 2: Knight``)."""


COUNT_KEYS: frozenset[str] = frozenset({"pairs", "bound", "probes"})
"""Value names holding large counts, shown with the locale's digit grouping (:func:`count`)."""


def count(value: int, lang: str) -> str:
    """A whole number with the locale's digit grouping (CLDR through Babel), so that a count
    of millions reads at a glance.

    >>> count(16528375, "en"), count(16528375, "de"), count(400, "de")
    ('16,528,375', '16.528.375', '400')
    """
    from babel.numbers import format_decimal

    text: str = format_decimal(value, locale=_locale(lang))
    return text.replace("-", MINUS)


def render_edge(piece: str, side: str, lang: str) -> str:
    """A Significant Edge named in text: the ``side`` edge of the terrain piece ``piece``.

    >>> render_edge("Building", "west", "en"), render_edge("Building", "north-west", "de")
    ('the west edge of Building', 'Nordwestkante von Building')
    """
    if lang == "de":
        return f"{word(side, lang)}kante von {piece}"
    return f"the {word(side, lang)} edge of {piece}"


class _Values(dict[str, Any]):
    """Template values: references (:mod:`fwwrules.refs`, :func:`ref_text`) and ids become
    display names, tokens in :data:`WORDS` are translated, lengths get their unit
    (:func:`length`); an empty list reads ``—``, a list under a key of :data:`NUMBERED_KEYS` is
    numbered from 1."""

    def __init__(self, values: Mapping[str, Any], lang: str, labels: Mapping[str, str]) -> None:
        super().__init__(values)
        self.lang = lang
        self.labels = labels
        units = values.get("units", values.get("unit"))
        self.units = None if units is None else str(units)

    def _one(self, value: str | Ref, key: str) -> str:
        if isinstance(value, REF_TYPES):
            return ref_text(value, self.lang, self.labels)
        if key in RULER_KEYS:
            return word(f"ruler-{value}", self.lang)
        if key not in WORD_KEYS and value in self.labels:
            return self.labels[value]
        return word(value, self.lang)

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        square = super().get("square")
        if key in BASE_KEYS and isinstance(value, (int, float)) and not isinstance(value, bool):
            return length(float(value), "mm", self.lang, inches=False)
        if key.endswith("_ft") and isinstance(value, (int, float)) and square:
            # a Pathfinder grid length in feet (the rule's count), with the squares a reader
            # counts (``<name>_squares``, ``<name>_diagonal``; else the rule's count)
            stem = key[: -len("_ft")]
            squares = super().get(f"{stem}_squares", value / square)
            diagonal = int(super().get(f"{stem}_diagonal", 0))
            return length(float(value), "ft", self.lang, squares=squares, diagonal=diagonal)
        if (
            self.units is not None
            and key in LENGTH_KEYS
            and isinstance(value, (int, float))
            and not isinstance(value, bool)
        ):
            return length(float(value), self.units, self.lang)
        if isinstance(value, (str, *REF_TYPES)):
            return self._one(value, key)
        if key in COUNT_KEYS and isinstance(value, int) and not isinstance(value, bool):
            return count(value, self.lang)
        if key in MODIFIER_KEYS and isinstance(value, (list, tuple)):
            parts = [f"{signed(v, self.lang)} ({modifier_label(c, self.lang)})" for c, v in value]
            return ", ".join(parts) or word("no-modifier", self.lang)
        if isinstance(value, (list, tuple)):
            if not value:
                return "—"  # nothing (never a hyphen, which would read as a minus)
            parts = [
                self._one(v, key) if isinstance(v, (str, *REF_TYPES)) else str(v) for v in value
            ]
            if key in NUMBERED_KEYS:
                parts = [f"{k}: {p}" for k, p in enumerate(parts, start=1)]
            return ", ".join(parts)
        return value


@functools.cache
def _formatter_type() -> Callable[[str], string.Formatter]:
    """The formatter of :func:`render`, built on the first text shown (:mod:`string` loads
    then, not at ``import fwwrules``)."""
    import string

    class _Formatter(string.Formatter):
        """``str.format`` whose numbers use the reader's decimal separator and the minus sign
        :data:`MINUS`."""

        def __init__(self, lang: str) -> None:
            self.lang = lang

        def format_field(self, value: Any, format_spec: str) -> str:
            text: str = format(value, format_spec)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                text = text.replace("-", MINUS)
                if isinstance(value, float):
                    text = text.replace(".", decimal_mark(self.lang))
            return text

    return _Formatter


def render(
    message_id: str,
    values: Mapping[str, Any],
    lang: str = "en",
    labels: Mapping[str, str] | None = None,
) -> str:
    """The text of one message; ``labels`` maps ids to display names.

    >>> render("size.classes", {"model": "dogmeat", "diameter": 40, "size": "large"}, "de",
    ...        {"dogmeat": "Dogmeat"})
    'Dogmeat steht auf einer Base von 40 mm: Größenklasse Groß.'
    """
    check_lang(lang)
    entry = MESSAGES.get(message_id)
    if entry is None:
        raise KeyError(f"no message {message_id!r} in the catalogue")
    return _formatter_type()(lang).vformat(entry[lang], (), _Values(values, lang, labels or {}))
