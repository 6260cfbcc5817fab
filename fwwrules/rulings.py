"""Ruling objects: what was decided, plus the reasons, each citing a clause id.

Every ruling is frozen data with three views:

* ``to_dict(lang)``: the ruling JSON of the public interface (``fwwrules ... --json``);
* ``explain(lang)``: readable text, English or German;
* ``_repr_html_()``: the same in a notebook.

(The module is ``rulings``, plural, so that ``fwwrules.ruling`` stays the public function.)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from .catalogue import MESSAGES, check_lang, render, word
from .errors import QueryError
from .pieces import MAX_DICE_PER_COLOUR, AttackKind, Band, CrossingHow, Name, Rules, title_in
from .refs import REF_TYPES, PieceRef, TargetRef

if TYPE_CHECKING:  # the margins load when a ruling's margins are first asked for
    from .closeness import LazyMargins, Margin, Margins


def names_in(labels: Mapping[str, Name] | None, lang: str) -> Mapping[str, str]:
    """Display names by id in ``lang``: each name read with
    :func:`~fwwrules.pieces.title_in` (a name given per language shows the reader's one),
    when it is first looked up (a ruling's sentence names two or three of a board's dozens
    of pieces; the headline alone read every name three times).

    >>> names_in({"crate": {"en": "Crate", "de": "Kiste"}, "t": "Tom"}, "de")
    {'crate': 'Kiste', 't': 'Tom'}
    """
    return _Names(labels or {}, lang)


class _Names(Mapping[str, str]):
    """:func:`names_in`'s mapping: ``labels`` read in ``lang`` one id at a time."""

    __slots__ = ("_labels", "_lang", "_read")

    def __init__(self, labels: Mapping[str, Name], lang: str) -> None:
        self._labels = labels
        self._lang = lang
        self._read: dict[str, str] = {}

    def __getitem__(self, key: str) -> str:
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = title_in(self._labels[key], self._lang) or key
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._labels

    def __iter__(self) -> Iterator[str]:
        return iter(self._labels)

    def __len__(self) -> int:
        return len(self._labels)

    def __repr__(self) -> str:
        return repr(dict(self))


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: a clause id, the variant of its message, and the values it needs.

    ``params`` name models and weapons by id, and pieces, Significant Edges and points by typed
    reference (:mod:`fwwrules.refs`); :meth:`text` shows them by the names in ``labels`` (one
    text, or one per language: the reader's one is shown; an id without a label is shown as it
    is), the JSON by id (:meth:`to_dict`).

    >>> r = Reason("size.classes", params={"model": "dogmeat", "diameter": 40, "size": "large"})
    >>> r.text("en", {"dogmeat": "Dogmeat"})
    'Dogmeat stands on a base of 40 mm: Large.'
    """

    clause: str
    key: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message_id(self) -> str:
        return f"{self.clause}/{self.key}" if self.key else self.clause

    def text(self, lang: str = "en", labels: Mapping[str, Name] | None = None) -> str:
        """The reason in words; ``labels`` maps ids to names (:func:`names_in`)."""
        return self.shown(lang, names_in(labels, lang))

    def shown(self, lang: str, names: Mapping[str, str]) -> str:
        """The reason in words, ``names`` the display names in ``lang`` (:func:`names_in`,
        read once for all the reasons of a ruling)."""
        return render(self.message_id, self.params, lang, names)

    def to_dict(self, lang: str = "en", labels: Mapping[str, Name] | None = None) -> dict[str, Any]:
        return {
            "clause": self.clause,
            "key": self.key,
            "params": _jsonable(dict(self.params)),
            "text": self.text(lang, labels),
        }


def _jsonable(value: Any) -> Any:
    if isinstance(value, REF_TYPES):
        return value.name  # the public id of a reference (``crate-1+crate-2``, ``roof:north``)
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, float):
        return round(value, 3)
    return value


MARKED_STYLE = "background:#fff3bf"
"""How a reason is highlighted in HTML when it cites a clause where two rulesets differ."""


class Explained:
    """Mixin: ``explain`` and ``_repr_html_`` from ``headline()`` and ``reasons``.

    Subclasses are frozen dataclasses with a ``reasons`` field and a ``headline(lang)`` method.
    """

    __slots__ = ()
    reasons: tuple[Reason, ...]

    def headline(self, lang: str = "en") -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def display_names(self) -> Mapping[str, Name]:
        """Ids to names (one text, or one per language), used when rendering reasons in a
        language (``labels`` field if present)."""
        labels = getattr(self, "labels", None)
        return labels if isinstance(labels, Mapping) else {}

    def explain(self, lang: str = "en") -> str:
        check_lang(lang)
        names = names_in(self.display_names(), lang)
        lines = [self.headline(lang)]
        lines += [f"  [{r.clause}] {r.shown(lang, names)}" for r in self.reasons]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return self.html("en")

    def html(self, lang: str = "en", *, marked: Collection[str] = ()) -> str:
        """The headline and the reasons, each with its clause id; the reasons citing a clause
        of ``marked`` are highlighted (class ``fwwrules-differs``: where two rulesets differ)."""
        from html import escape  # only a notebook or a page shows HTML

        check_lang(lang)
        names = names_in(self.display_names(), lang)
        opening = {False: "<li>", True: f'<li class="fwwrules-differs" style="{MARKED_STYLE}">'}
        items = "".join(
            f"{opening[r.clause in marked]}<code>{escape(r.clause)}</code> "
            f"{escape(r.shown(lang, names))}</li>"
            for r in self.reasons
        )
        return (
            f'<div class="fwwrules-ruling"><p><b>{escape(self.headline(lang))}</b></p>'
            f"<ul>{items}</ul></div>"
        )

    def __str__(self) -> str:
        return self.explain("en")


# --- parts of an attack ruling --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RangeInfo:
    """Edge-to-edge ``distance`` in scenario units, the bands the base reaches, the band used."""

    distance: float
    bands: tuple[Band, ...]
    band: Band | None

    def to_dict(self) -> dict[str, Any]:
        return {"distance": round(self.distance, 3), "bands": list(self.bands), "band": self.band}


@dataclass(frozen=True, slots=True)
class CoverEntry:
    """A piece (terrain, model or Significant Edge) that gives cover, with its modifier."""

    ref: PieceRef
    clause: str
    modifier: int

    @property
    def source(self) -> str:
        """The piece's name as the JSON gives it (``crate-1+crate-2``, ``roof:north``)."""
        return self.ref.name

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "clause": self.clause, "modifier": self.modifier}


@dataclass(frozen=True, slots=True)
class IgnoredEntry:
    """A piece the Line of Cover meets that gives no cover, and the clause that says why."""

    ref: PieceRef
    clause: str

    @property
    def source(self) -> str:
        """The piece's name as the JSON gives it."""
        return self.ref.name

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "clause": self.clause}


@dataclass(frozen=True, slots=True)
class SkillInfo:
    """The skill test: icon used, base value, total modifier, ``target = value + modifier``."""

    icon: str | None
    value: int | None
    modifier: int

    @property
    def target(self) -> int | None:
        return None if self.value is None else self.value + self.modifier

    def to_dict(self) -> dict[str, Any]:
        return {
            "icon": self.icon,
            "value": self.value,
            "modifier": self.modifier,
            "target": self.target,
        }


@dataclass(frozen=True, slots=True)
class ArmorInfo:
    """The target's armor bonus (``core``) and Armor Boosts (``vts``) for this attack."""

    bonus: int = 0
    boost: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"bonus": self.bonus, "boost": self.boost}


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision left to the attacker: ``kind`` (``band``, ``charge-marker``), its options."""

    kind: str
    clause: str
    options: tuple[str, ...]
    chosen: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "clause": self.clause,
            "options": list(self.options),
            "chosen": self.chosen,
        }


@dataclass(frozen=True, slots=True)
class IntoMelee:
    """Shooting into a melee: the skill modifier and (``core``) the Armor-die numbers 1-4."""

    modifier: int
    numbers: tuple[str, ...] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "modifier": self.modifier,
            "numbers": None if self.numbers is None else list(self.numbers),
        }


@dataclass(frozen=True, slots=True)
class Facts:
    """What rule families found that a ruling keeps, each when a family decides it (``None``:
    it does not): the kind of attack (``melee.engaged``), the range (``ranged.range``), what
    the line of sight search found (``ranged.los``: :class:`Seen`), what the Line of Cover met
    (``cover.*``: :class:`Covered`) and shooting into a melee (``melee.shoot-into``).

    >>> into = IntoMelee(-1, None)
    >>> f = Facts.merged([Facts(kind="melee"), Facts(into=into), Facts(kind="ranged")])
    >>> f.kind, f.into, f.range
    ('ranged', IntoMelee(modifier=-1, numbers=None), None)
    """

    kind: AttackKind | None = None
    range: RangeInfo | None = None
    seen: Seen | None = None
    covered: Covered | None = None
    into: IntoMelee | None = None

    @classmethod
    def merged(cls, decided: Iterable[Facts]) -> Facts:
        """The facts of steps in order, each the last one a step decided."""
        found: dict[str, Any] = {}
        for f in decided:
            for n, v in zip(_FACT_NAMES, _fact_values(f), strict=True):
                if v is not None:
                    found[n] = v
        return cls(**found)


_FACT_NAMES = tuple(f.name for f in fields(Facts))
"""The fields of :class:`Facts` (what :meth:`Facts.merged` reads of each step), named once."""

_fact_values = attrgetter(*_FACT_NAMES)
"""The values of :data:`_FACT_NAMES` of one :class:`Facts`, as a tuple (one call)."""

NO_FACTS = Facts()
"""A step that decides none of the facts (the default)."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one rule family contributes to an attack ruling: the common contract of the steps
    :func:`fwwrules.ruling` folds (:func:`fold`).

    ``modifiers`` are (clause id, skill modifier) pairs in the order applied; ``dice`` effect
    dice by colour; ``armor`` the target's armor for this attack when the step decides it
    (``None``: it does not); ``choices`` decisions left to the attacker; ``refusals`` the
    clause ids that forbid the attack; ``reasons`` the step's facts and refusals, in order;
    ``terms`` the reasons that present a modifier, cover, armor or effect dice as applying
    (shown after ``reasons``, and only when the attack is allowed); ``skill`` the skill icon
    and the attacker's value for it when the step decides them (``None``: it does not; a
    value of ``None``: the attacker lacks the icon); ``facts`` what the family found that the
    ruling keeps besides (:class:`Facts`: the kind of attack, the range, line of sight, cover,
    shooting into a melee).

    Every rule family hands :func:`fold` one ``Step``, whatever else it decides: there is no
    other shape (``tests/test_steps.py``).
    """

    modifiers: tuple[tuple[str, int], ...] = ()
    dice: Mapping[str, int] = field(default_factory=dict)
    armor: ArmorInfo | None = None
    choices: tuple[Choice, ...] = ()
    refusals: tuple[str, ...] = ()
    reasons: tuple[Reason, ...] = ()
    terms: tuple[Reason, ...] = ()
    skill: tuple[str | None, int | None] | None = None
    facts: Facts = NO_FACTS


NO_STEP = Step()
"""The step of a family that contributes nothing to an attack (no modifier, die, armor,
choice, refusal, reason or fact): one shared value, built once; read-only like every step."""


@dataclass(frozen=True, slots=True)
class Folded:
    """Steps folded in order (:func:`fold`): the skill modifier of each clause (clauses adding 0
    left out) and their sum, the dice (at most
    :data:`~fwwrules.pieces.MAX_DICE_PER_COLOUR` of a colour), the last armor decided, every
    choice, each refusing clause once (first-seen order), the reasons, and the skill (icon,
    value and total modifier; the last one a step decided) and the facts (:class:`Facts`; each
    the last one a step decided, whether or not the attack is allowed).

    An attack that is not allowed (some step refuses it) presents nothing as applying: no
    modifiers (sum 0), no dice, no armor, and only the steps' ``reasons`` (never their
    ``terms``)."""

    modifiers: Mapping[str, int]
    modifier: int
    dice: Mapping[str, int]
    armor: ArmorInfo
    choices: tuple[Choice, ...]
    refusals: tuple[str, ...]
    reasons: tuple[Reason, ...]
    skill: SkillInfo = SkillInfo(None, None, 0)
    facts: Facts = NO_FACTS

    @property
    def allowed(self) -> bool:
        return not self.refusals


def add_modifiers(by_clause: dict[str, Any], modifiers: Iterable[tuple[str, Any]]) -> None:
    """Add skill modifiers to ``by_clause`` (clause -> sum, first-seen order): the one way
    modifiers combine, for one ruling (ints) and for the threat map (one int per position,
    numpy arrays). A plain 0 adds no clause.

    >>> total = {"cover.line": -2}
    >>> add_modifiers(total, [("cover.line", -2), ("melee.stunned", 0), ("action.quick", -2)])
    >>> total
    {'cover.line': -4, 'action.quick': -2}
    """
    for clause, value in modifiers:
        if isinstance(value, int) and not value:
            continue
        by_clause[clause] = by_clause[clause] + value if clause in by_clause else value


def fold(steps: Sequence[Step]) -> Folded:
    """Fold steps in order into one :class:`Folded`.

    >>> cover = Reason("cover.line", "crossed", {"source": "crate", "modifier": -2})
    >>> a = Step(modifiers=(("cover.line", -2),), dice={"green": 1}, terms=(cover,))
    >>> b = Step(modifiers=(("action.quick", -2), ("melee.stunned", 0)), dice={"green": 1},
    ...          armor=ArmorInfo(1, 0))
    >>> f = fold([a, b])
    >>> dict(f.modifiers), f.modifier, dict(f.dice), f.refusals, f.armor
    ({'cover.line': -2, 'action.quick': -2}, -4, {'green': 2}, (), ArmorInfo(bonus=1, boost=0))
    >>> [r.clause for r in f.reasons]
    ['cover.line']

    A refusal anywhere: nothing applies, and only the facts and refusals are told.

    >>> no = Reason("ranged.los", "blocked", {})
    >>> f = fold([a, b, Step(refusals=("ranged.los",), reasons=(no,))])
    >>> dict(f.modifiers), f.modifier, dict(f.dice), f.refusals, f.armor
    ({}, 0, {}, ('ranged.los',), ArmorInfo(bonus=0, boost=0))
    >>> [r.clause for r in f.reasons]
    ['ranged.los']
    """
    by_clause: dict[str, int] = {}
    dice: dict[str, int] = {}
    armor = ArmorInfo()
    choices: list[Choice] = []
    refusals: list[str] = []
    reasons: list[Reason] = []
    icon_value: tuple[str | None, int | None] = (None, None)
    steps = [step for step in steps if step is not NO_STEP]  # it adds nothing to any total
    for step in steps:
        if step.refusals:
            refusals.extend(c for c in step.refusals if c not in refusals)
        if step.skill is not None:
            icon_value = step.skill
    allowed = not refusals
    for step in steps:
        reasons.extend(step.reasons)
        choices.extend(step.choices)
        if not allowed:
            continue
        reasons.extend(step.terms)
        if step.modifiers:
            add_modifiers(by_clause, step.modifiers)
        for colour, n in step.dice.items():
            dice[colour] = dice.get(colour, 0) + n
        if step.armor is not None:
            armor = step.armor
    skill = SkillInfo(*icon_value, sum(by_clause.values()))
    facts = Facts.merged([s.facts for s in steps if s.facts is not NO_FACTS])
    reasons.extend(_total_reasons(skill, dice, allowed))
    return Folded(
        by_clause,
        skill.modifier,
        {colour: min(n, MAX_DICE_PER_COLOUR) for colour, n in dice.items()},
        armor,
        tuple(choices),
        tuple(refusals),
        tuple(reasons),
        skill,
        facts,
    )


def _total_reasons(skill: SkillInfo, dice: Mapping[str, int], allowed: bool) -> list[Reason]:
    """``ranged.skill``: what the totals say (a skill target below 1; dice over the cap)."""
    out = []
    if skill.target is not None and skill.target < 1 and allowed:
        out.append(Reason("ranged.skill", "below-one", {"target": skill.target}))
    for colour, count in dice.items():
        if count > MAX_DICE_PER_COLOUR:
            out.append(Reason("ranged.skill", "dice-cap", {"colour": colour, "count": count}))
    return out


Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True, slots=True)
class Crossing:
    """How the Line of Cover meets one piece (for drawing and for the reasons).

    ``how`` is ``crossed`` (entered and exited), ``entered`` (entered only: area terrain or the
    piece the target stands on), ``grazed`` (touched its boundary only) or ``edge`` (a
    Significant Edge). ``points`` are where it enters and leaves, in millimetres.

    ``ref`` is a terrain piece or touching pieces of one kind acting as one
    (:class:`~fwwrules.pieces.TerrainRef`), a model (:class:`~fwwrules.pieces.ModelRef`) or a
    Significant Edge (:class:`~fwwrules.pieces.EdgeRef`); the same references appear in
    ``cover``, ``ignored`` and ``Sight.blockers``.
    """

    ref: PieceRef
    how: CrossingHow
    points: tuple[tuple[float, float], ...] = ()

    @property
    def source(self) -> str:
        """The piece's name as rulings give it (``crate-1+crate-2``, ``roof:north``)."""
        return self.ref.name


@dataclass(frozen=True, slots=True)
class Seen:
    """What the line of sight search found (``ranged.los``): ``visible`` with a ``witness``
    segment (mm) when true; the ``blockers`` in the way when false."""

    visible: bool
    witness: Segment | None
    blockers: tuple[PieceRef, ...]


@dataclass(frozen=True, slots=True)
class Covered:
    """What the Line of Cover met (``cover.*``): the pieces that give cover, those it ignores
    and how it meets each piece."""

    cover: tuple[CoverEntry, ...]
    ignored: tuple[IgnoredEntry, ...]
    crossings: tuple[Crossing, ...]


@dataclass(frozen=True, slots=True)
class Sight:
    """The geometry behind a ruling, in millimetres, for the drawing layer.

    ``witness`` is a clear segment proving LoS (``None`` when there is none); ``loc`` the Line
    of Cover; ``crossings`` how it meets each piece; ``blockers`` the pieces that block LoS.
    """

    witness: Segment | None
    loc: Segment
    crossings: tuple[Crossing, ...] = ()
    blockers: tuple[PieceRef, ...] = ()


DICE_ORDER = ("green", "black", "yellow", "blue")


@dataclass(frozen=True, slots=True)
class AttackRuling(Explained):
    """The answer to "may A attack T with W, and how?" (``fwwrules ruling``)."""

    attacker: str
    target: str
    weapon: str
    rules: Rules
    kind: AttackKind
    allowed: bool
    not_allowed: tuple[str, ...] = ()
    line_of_sight: bool | None = None
    range: RangeInfo | None = None
    cover: tuple[CoverEntry, ...] = ()
    ignored: tuple[IgnoredEntry, ...] = ()
    skill: SkillInfo = SkillInfo(None, None, 0)
    armor: ArmorInfo = ArmorInfo()
    effect_dice: Mapping[str, int] = field(default_factory=dict)
    choices: tuple[Choice, ...] = ()
    into_melee: IntoMelee | None = None
    reasons: tuple[Reason, ...] = ()
    sight: Sight | None = field(default=None, compare=False)
    labels: Mapping[str, Name] = field(default_factory=dict, compare=False)
    """Name by id (one text, or one per language) of the pieces the reasons name."""
    modifiers: Mapping[str, int] = field(default_factory=dict)
    """The skill modifier of each clause (``cover.line``, ``melee.shoot-into``, ...), in the
    order they were applied; they sum to ``skill.modifier``. Clauses adding 0 are left out."""
    reacting_to_charge: bool = False
    """The query said the attacker shoots in reaction to being charged (``melee.ranged-weapon``,
    RoP p.41)."""
    target_ref: TargetRef | None = field(default=None, compare=False)
    """What ``target`` names, typed (a point target reads as its coordinates in the text)."""
    margins_box: LazyMargins | None = field(default=None, compare=False, repr=False)
    """How close the call is (:mod:`fwwrules.margins`), computed when first asked."""

    @property
    def margins(self) -> Margins | None:
        """How far each model must move before each decision changes, and the smallest such
        move (:class:`~fwwrules.closeness.Margins`); computed on first use (``None`` for a
        ruling built by hand)."""
        return None if self.margins_box is None else self.margins_box.get(self)

    def margins_of(self, model: str) -> Margins | None:
        """The margins with only ``model`` (the attacker or the target) moving."""
        if model not in (self.attacker, self.target):
            raise QueryError(f"{model!r} is neither the attacker nor the target of this ruling")
        return None if self.margins_box is None else self.margins_box.get(self, only=model)

    @property
    def margin(self) -> Margin | None:
        """The smallest margin: how far which model must move which way before the ruling
        changes (:class:`~fwwrules.closeness.Margin`)."""
        m = self.margins
        return None if m is None else m.smallest

    def knife_edge(self) -> Margin | None:
        """The smallest margin when the call is a knife edge (below the scenario's
        ``knife_edge``), else ``None``; only looks as far as the knife edge."""
        if self.margins_box is None:
            return None
        m = self.margins_box.get(self, knife_only=True)
        return m.smallest if m.knife_edge else None

    def close_call(self, lang: str = "en") -> str | None:
        """The knife-edge sentence when the call is one (:meth:`knife_edge`), the sentence
        saying it was not measured when its work passed the bound, else ``None``."""
        if self.margins_box is None:
            return None
        m = self.margins_box.get(self, knife_only=True)
        if not (m.knife_edge or not m.measured):
            return None
        return m.sentence(lang, names_in(self.labels, lang))

    def headline(self, lang: str = "en") -> str:
        """One sentence: whether the attack is allowed; when it is not, why (each refusing
        clause's short reason, in the order checked)."""
        values: dict[str, Any] = {
            "attacker": self.attacker,
            "target": self.target if self.target_ref is None else self.target_ref,
            "weapon": self.weapon,
            "kind": f"{self.kind}-attack",
        }
        if self.allowed:
            return render("ruling/allowed", values, lang, names_in(self.labels, lang))
        values["why"] = "; ".join(self.why(lang))
        return render("ruling/not-allowed", values, lang, names_in(self.labels, lang))

    def why(self, lang: str = "en") -> tuple[str, ...]:
        """Why the attack is not allowed, short: for each refusing clause (in the order
        checked) the ``why/<message id>`` phrase of each of its reasons that has one, else the
        clause's ``why/<clause>`` phrase. Empty when the attack is allowed."""
        out: list[str] = []
        for clause in self.not_allowed:
            mine = [r for r in self.reasons if r.clause == clause]
            found = [(f"why/{r.message_id}", r.params) for r in mine]
            found = [(k, v) for k, v in found if k in MESSAGES]
            if not found:
                found = [(f"why/{clause}", mine[0].params if mine else {})]
            for key, params in found:
                names = names_in(self.labels, lang)
                text = render(key, params, lang, names) if key in MESSAGES else clause
                if text not in out:
                    out.append(text)
        return tuple(out)

    def summary(self, lang: str = "en") -> tuple[str, ...]:
        """The roll an allowed attack makes: the adjusted skill value (value + modifiers) and
        what a success needs, then the effect dice that join the roll. Empty when refused."""
        check_lang(lang)
        if not self.allowed or self.skill.value is None or self.skill.target is None:
            return ()
        values = {
            "icon": self.skill.icon,
            "value": self.skill.value,
            "op": "−" if self.skill.modifier < 0 else "+",
            "amount": abs(self.skill.modifier),
            "target": self.skill.target,
        }
        if self.skill.target < 1:
            key = "ruling/skill-below-one"
        elif self.skill.modifier == 0:
            key = "ruling/skill-plain"
        else:
            key = "ruling/skill"
        dice = [
            f"{self.effect_dice[c]} {word(c, lang)}"
            for c in DICE_ORDER
            if self.effect_dice.get(c, 0) > 0
        ]
        dice_line = (
            render("ruling/dice", {"dice": "; ".join(dice)}, lang)
            if dice
            else render("ruling/no-dice", {}, lang)
        )
        return (render(key, values, lang), dice_line)

    def explain(self, lang: str = "en") -> str:
        """The headline, the roll (:meth:`summary`), the knife-edge sentence when the call is
        one (:meth:`close_call`), then the reasons."""
        text = Explained.explain(self, lang)
        lines = [*self.summary(lang), *filter(None, [self.close_call(lang)])]
        if not lines:
            return text
        head, _, rest = text.partition("\n")
        return "\n".join([head, *(f"  {x}" for x in lines), *([rest] if rest else [])])

    def html(
        self, lang: str = "en", *, close_call: bool = True, marked: Collection[str] = ()
    ) -> str:
        """As :meth:`explain`, in HTML; without ``close_call`` the knife-edge sentence is left
        out (nothing of the margins is computed: a panel's drag step); ``marked`` as in
        :meth:`Explained.html`."""
        from html import escape

        text = Explained.html(self, lang, marked=marked)
        close = self.close_call(lang) if close_call else None
        lines = [*self.summary(lang), *filter(None, [close])]
        if not lines:
            return text
        extra = "".join(f"<p>{escape(x)}</p>" for x in lines)
        return text.replace("</b></p>", "</b></p>" + extra, 1)

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "summary": list(self.summary(lang)),
            "attacker": self.attacker,
            "target": self.target,
            "weapon": self.weapon,
            "rules": self.rules,
            "kind": self.kind,
            "allowed": self.allowed,
            "not_allowed": list(self.not_allowed),
            "line_of_sight": self.line_of_sight,
            "range": None if self.range is None else self.range.to_dict(),
            "cover": [c.to_dict() for c in self.cover],
            "ignored": [i.to_dict() for i in self.ignored],
            "skill": self.skill.to_dict(),
            "armor": self.armor.to_dict(),
            "effect_dice": {c: int(self.effect_dice.get(c, 0)) for c in DICE_ORDER},
            "choices": [c.to_dict() for c in self.choices],
            "into_melee": None if self.into_melee is None else self.into_melee.to_dict(),
            "reasons": [r.to_dict(lang, self.labels) for r in self.reasons],
            "modifiers": dict(self.modifiers),
            "reacting_to_charge": self.reacting_to_charge,
            **({"margin": None, "margins": []} if self.margins is None else self.margins.to_dict()),
        }
