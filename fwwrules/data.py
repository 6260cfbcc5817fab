"""The frozen :class:`Scenario`: a whole board as its file states it.

Building a scenario (directly, by :func:`~fwwrules.load`, or by ``dataclasses.replace``) runs no
rule and computes no geometry; nothing here imports pydantic. The file format lives in
:mod:`fwwrules.scenario_spec`, saving in :mod:`fwwrules.saving`.

Boundary cases
--------------
* Ids are unique across models and terrain, because a target may be either (checked when a
  file is read). Weapon ids live in their own namespace; ``improvised`` is built in.
* A model is friendly to itself; a faction without a ``sides`` entry is its own side.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Literal

from .cache import Derived, Key
from .constants import BOARD_MARGIN_MM, DEFAULT_CONTACT_TOLERANCE_MM, KNIFE_EDGE_MM, MM_PER_INCH
from .errors import QueryError, UnknownIdError
from .pieces import (
    IMPROVISED,
    IMPROVISED_WEAPON,
    RULER_INCHES,
    Bounds,
    Model,
    Name,
    Options,
    Rules,
    Terrain,
    Title,
    Units,
    Weapon,
    title_in,
)

if TYPE_CHECKING:  # the board's geometry loads when a scenario's board is first built (_board)
    from .board import Board


@functools.cache
def _board() -> ModuleType:
    """:mod:`fwwrules.board` (the board's geometry classes), imported when a scenario's board
    is first built, not at ``import fwwrules``."""
    return importlib.import_module(f"{__package__}.board")


Relation = Literal["friendly", "neutral", "enemy"]

LABELS: Key[Mapping[str, Name]] = Key("labels", terrain_only=False)
"""Name by weapon, model and terrain id, in every language given (:meth:`Scenario.names`)."""


@dataclass(frozen=True, slots=True)
class Scenario:
    """A whole board, as a file states it (lengths in :attr:`units`).

    :func:`~fwwrules.load` checks everything the loading rules of docs/scenario-format.md
    name. Building one directly (or with ``dataclasses.replace``) neither checks nor computes
    anything: the derived geometry (:attr:`board`, Significant Edges, engagements ...) is
    computed on first use and kept in the scenario's one cache
    (:class:`~fwwrules.cache.Derived`). The same check as a file's
    (:func:`fwwrules.checks.checked`) runs once before anything rules on it, draws it or maps
    it, and raises :class:`~fwwrules.errors.ScenarioError` naming each piece and field.

    ``board_size`` is the table's ``[width, height]`` (file key ``board: {size: ...}``), origin
    at ``[0, 0]``; ``None``: the contents' bounding box plus a margin (:meth:`limits_mm`).
    """

    models: tuple[Model, ...] = ()
    terrain: tuple[Terrain, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    rules: Rules = "core"
    units: Units = "mm"
    title: Title | None = None
    """One text, or one per language (:data:`~fwwrules.pieces.Title`); see :meth:`title_in`."""
    options: Options = field(default_factory=Options)
    rulers: Mapping[str, float] = field(default_factory=dict)
    sides: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    neutral: tuple[str, ...] = ()
    board_size: tuple[float, float] | None = None
    source: str = field(default="<scenario>", compare=False)
    _by_id: Mapping[str, Model] = field(init=False, compare=False, repr=False)
    derived: Derived = field(init=False, compare=False, repr=False)
    """The cache of what the rules derive from this scenario (:mod:`fwwrules.cache`), empty
    until something is asked."""

    def __post_init__(self) -> None:
        # Built from anything (checks.checked says what is wrong before any rule runs):
        # only models with a text id can be looked up.
        models = self.models if isinstance(self.models, (tuple, list)) else ()
        by_id = {m.id: m for m in models if isinstance(getattr(m, "id", None), str)}
        object.__setattr__(self, "_by_id", by_id)
        object.__setattr__(self, "derived", Derived())

    @property
    def board(self) -> Board:
        """The derived geometry in millimetres, built on first use."""
        board_module = _board()
        d = self.derived
        board: Board | None = d.get(board_module.BOARD)
        if board is None:
            board = d.put(
                board_module.BOARD,
                board_module.build_board(
                    self.models,
                    self.terrain,
                    unit_mm=self.unit_mm,
                    contact_tolerance_mm=self.contact_tolerance_mm,
                    orange_mm=self.ruler_mm("orange"),
                    derived=d,
                ),
            )
        return board

    def limits_mm(self, margin_mm: float = BOARD_MARGIN_MM) -> Bounds:
        """The table's :class:`~fwwrules.pieces.Bounds` in mm: ``board_size`` from the origin, or
        (without it) the contents' bounding box plus ``margin_mm`` (:func:`board_limits`)."""
        size = self.board_size
        size_mm = None if size is None else (size[0] * self.unit_mm, size[1] * self.unit_mm)
        limits: Bounds = _board().board_limits(self.board, size_mm, margin_mm)
        return limits

    # --- lookups ----------------------------------------------------------------------------
    @property
    def unit_mm(self) -> float:
        """Millimetres per scenario unit."""
        return MM_PER_INCH if self.units == "in" else 1.0

    def model(self, ident: str) -> Model:
        if not isinstance(ident, str):
            raise QueryError(f"a model id must be text, got {type(ident).__name__}")
        m = self._by_id.get(ident)
        if m is None:
            raise UnknownIdError("model", ident, (m.id for m in self.models), self.source)
        return m

    def terrain_piece(self, ident: str) -> Terrain:
        for t in self.terrain:
            if t.id == ident:
                return t
        raise UnknownIdError("terrain", ident, (t.id for t in self.terrain), self.source)

    def weapon(self, ident: str) -> Weapon:
        if ident == IMPROVISED:
            return IMPROVISED_WEAPON
        for w in self.weapons:
            if w.id == ident:
                return w
        known = [w.id for w in self.weapons] + [IMPROVISED]
        raise UnknownIdError("weapon", ident, known, self.source)

    def weapons_of(self, model: Model) -> tuple[Weapon, ...]:
        """The model's weapons in card order, with the Improvised Weapon last, as the model
        uses them (:meth:`Weapon.held_by`: a thrown weapon without a range of its own takes
        the model's Throw colour, ``ranged.skill``)."""
        listed = tuple(self.weapon(w).held_by(model) for w in model.weapons)
        if IMPROVISED in model.weapons:
            return listed
        return (*listed, IMPROVISED_WEAPON)

    def weapon_of(self, model: str | Model, ident: str | None = None) -> Weapon:
        """The weapon ``ident`` as ``model`` (an id or a model) uses it; ``None``: its first.

        Raises :class:`UnknownIdError` for an unknown model or weapon id, and
        :class:`~fwwrules.errors.QueryError` for a weapon the model does not carry.
        """
        m = self.model(model) if isinstance(model, str) else model
        carried = self.weapons_of(m)
        if ident is None:
            return carried[0]
        self.weapon(ident)  # an unknown id: UnknownIdError, naming the known ones
        for w in carried:
            if w.id == ident:
                return w
        raise QueryError(
            f"{m.id!r} does not carry weapon {ident!r} (it has: {', '.join(w.id for w in carried)})"
        )

    def names(self) -> Mapping[str, Name]:
        """Name by id, as given (one text, or one per language; the id when a piece has no
        name): weapons, then models and terrain (kept in the scenario's cache). Reason params
        carry ids; rulings keep this map and render it in the reader's language.

        A weapon whose id is also a model's or terrain piece's id shows that piece's name
        here (the ids live in separate namespaces); an attack ruling maps its own weapon's id
        to the weapon's name.
        """
        d = self.derived
        labels = d.get(LABELS)
        if labels is None:
            made: dict[str, Name] = {}
            pieces: tuple[Weapon | Model | Terrain, ...] = (
                *self.weapons,
                IMPROVISED_WEAPON,
                *self.models,
                *self.terrain,
            )
            for piece in pieces:
                made[piece.id] = piece.id if piece.name is None else piece.name
            labels = d.put(LABELS, made)
        return labels

    def display_names(self, lang: str = "en") -> Mapping[str, str]:
        """Display name by id in ``lang`` (:meth:`names`, each read with
        :func:`~fwwrules.pieces.title_in`): what the catalogue, the pictures and the panels
        show for a piece."""
        return {k: title_in(v, lang) or k for k, v in self.names().items()}

    # --- sides ------------------------------------------------------------------------------
    def side_of(self, faction: str) -> str:
        """The side a faction plays on; without a ``sides`` entry a faction is its own side."""
        for side, factions in self.sides.items():
            if faction in factions:
                return side
        return faction

    def relation(self, a: Model, b: Model, *, by: str = "side") -> Relation:
        """``friendly``, ``neutral`` or ``enemy`` between two models.

        ``by="faction"`` compares factions instead of sides (the German reading of
        ``cover.models``). A model is friendly to itself; neutral factions are neutral to
        everyone else.
        """
        if a.id == b.id:
            return "friendly"
        if by == "faction":
            same = a.faction == b.faction
        else:
            same = self.side_of(a.faction) == self.side_of(b.faction)
        if same:
            return "friendly"
        if a.faction in self.neutral or b.faction in self.neutral:
            return "neutral"
        return "enemy"

    def opposing(self, a: Model, b: Model) -> bool:
        """True when ``b`` is not on ``a``'s side (enemy or neutral): whom one fights."""
        return self.relation(a, b) != "friendly"

    @property
    def contact_tolerance_mm(self) -> float:
        tol = self.options.contact_tolerance
        return DEFAULT_CONTACT_TOLERANCE_MM if tol is None else tol * self.unit_mm

    @property
    def knife_edge_mm(self) -> float:
        """A margin below this (mm) makes a knife-edge call (option ``knife_edge``)."""
        value = self.options.knife_edge
        return KNIFE_EDGE_MM if value is None else value * self.unit_mm

    @property
    def ruler_tolerance_mm(self) -> float:
        """Every comparison against a ruler length allows this much: the contact tolerance
        (docs/rules.md, "Conventions"; :mod:`fwwrules.thresholds`)."""
        return self.contact_tolerance_mm

    def ruler_mm(self, colour: str) -> float:
        """A ruler's length in millimetres, with the scenario's overrides."""
        if colour in self.rulers:
            return self.rulers[colour] * self.unit_mm
        return RULER_INCHES[colour] * MM_PER_INCH

    def length_mm(self, value: str | float) -> float:
        """A ruler colour or a length in scenario units, as millimetres."""
        if isinstance(value, str):
            return self.ruler_mm(value)
        return float(value) * self.unit_mm

    def to_mm(self, value: float) -> float:
        return value * self.unit_mm

    def from_mm(self, value: float) -> float:
        return value / self.unit_mm

    def title_in(self, lang: str) -> str | None:
        """The title in ``lang`` (:func:`~fwwrules.pieces.title_in`), ``None`` without one."""
        return title_in(self.title, lang)

    def summary(self) -> str:
        """One line for ``fwwrules check``: title, rules, units and what the board holds.

        >>> Scenario(title="Demo", units="in").summary()
        "'Demo': core rules, units in, 0 models, 0 terrain pieces, 0 weapons"
        """
        title = "untitled" if self.title is None else repr(self.title_in("en"))

        def count(n: int, word: str) -> str:
            return f"{n} {word}" + ("" if n == 1 else "s")

        return (
            f"{title}: {self.rules} rules, units {self.units}, "
            f"{count(len(self.models), 'model')}, {count(len(self.terrain), 'terrain piece')}, "
            f"{count(len(self.weapons), 'weapon')}"
        )
