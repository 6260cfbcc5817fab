"""Translation notes: where the German fan translation and the original Rules of Play differ.

The engine follows the original; where the German reading could change a ruling it is a named
scenario option (:class:`~fwwrules.scenario.Options`). Each note here is data: the clauses it
touches, the option (if any), and the boards that show it under each reading. Its wording
(what each text says, what the engine does) is in the catalogue (``catalogue.NOTES``, keys
``note-N/...``), in English and German. ``docs/rules.md`` and the review page
(``fwwrules review``) are built from this module; notebook 09 walks through the same boards.

Boundary cases: note 6 has one reading only (the German text is silent, not contrary), so
:func:`readings` returns a single ``"only"`` reading for it. Notes 1, 4 and 5 change no ruling;
their two readings give equal answers, and a test checks that they do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .attack import ruling
from .data import Scenario
from .files import load_scenario_file
from .movement import slide
from .resources import example_path

#: The options of a scenario file that change a ruling, and the clauses each one changes.
OPTION_CLAUSES: dict[str, tuple[str, ...]] = {
    "contact_tolerance": ("melee.engaged", "cover.shooter-contact"),
    "cover_by": ("cover.models",),
    "slide_through_engaged_enemy": ("melee.slide",),
    "knife_edge": (),  # not a reading of the rules: how close a call must be to be flagged
}


@dataclass(frozen=True, slots=True)
class Note:
    """One translation note: its number, the clauses it touches and the option that gives the
    German reading (``None`` when no option is needed)."""

    number: int
    clauses: tuple[str, ...]
    option: str | None
    changes_ruling: bool

    @property
    def key(self) -> str:
        """The catalogue prefix of its texts (``note-2``)."""
        return f"note-{self.number}"


NOTES: tuple[Note, ...] = (
    Note(1, ("size.classes",), None, False),
    Note(2, ("cover.models",), "cover_by", True),
    Note(3, ("melee.slide",), "slide_through_engaged_enemy", True),
    Note(4, ("cover.area", "cover.shooter-contact"), None, False),
    Note(5, ("cover.line", "cover.armor"), None, False),
    Note(6, ("melee.shoot-into",), None, False),
)


@dataclass(frozen=True, slots=True)
class Reading:
    """One reading of a note on one board: ``kind`` is ``"original"``, ``"german"`` or
    ``"only"``; ``query`` is ``("ruling", attacker, target)`` or ``("slide", model, (x, y))``."""

    kind: str
    scenario: Scenario
    query: tuple[str, str, Any]

    def answer(self) -> Any:
        """The engine's ruling for this reading (an attack ruling or a slide ruling)."""
        what, first, second = self.query
        if what == "slide":
            return slide(self.scenario, first, second)
        return ruling(self.scenario, first, second)


def _example(name: str) -> Scenario:
    return load_scenario_file(example_path(name))


def _with_model(scenario: Scenario, model_id: str, **changes: Any) -> Scenario:
    models = tuple(
        dataclasses.replace(m, **changes) if m.id == model_id else m for m in scenario.models
    )
    return dataclasses.replace(scenario, models=models)


def _with_options(scenario: Scenario, **options: Any) -> Scenario:
    return dataclasses.replace(scenario, options=dataclasses.replace(scenario.options, **options))


def _note1() -> tuple[Reading, ...]:
    ex2 = _example("cover-example-2")
    german = _with_model(_with_model(ex2, "settler-a", base=30.0), "settler-b", base=30.0)
    q = ("ruling", "settler-a", "knight-1")
    return (Reading("original", ex2, q), Reading("german", german, q))


def _note2() -> tuple[Reading, ...]:
    # Allied factions on one side: Settler B becomes a Minuteman, Settlers and Minutemen ally.
    allied = dataclasses.replace(
        _with_model(_example("cover-example-2"), "settler-b", faction="minutemen"),
        sides={"commonwealth": ("settlers", "minutemen")},
    )
    q = ("ruling", "settler-a", "knight-1")
    return (
        Reading("original", allied, q),
        Reading("german", _with_options(allied, cover_by="faction"), q),
    )


SLIDE_MOVE_MM = 95.0
"""Note 3's move limit: between the path through Dogmeat (~86.5 mm) and around it (~103.5)."""
SLIDE_TO = (324.8, 343.4)


def _note3() -> tuple[Reading, ...]:
    limited = _with_model(_example("melee-behemoth-slide"), "behemoth", move=SLIDE_MOVE_MM)
    q = ("slide", "behemoth", SLIDE_TO)
    return (
        Reading("original", limited, q),
        Reading("german", _with_options(limited, slide_through_engaged_enemy=True), q),
    )


def _note4() -> tuple[Reading, ...]:
    ex4 = _example("cover-example-4")
    raider = _with_model(ex4, "paladin", name="Raider", faction="raiders")
    q = ("ruling", "mutant-3", "paladin")
    return (Reading("original", raider, q), Reading("german", ex4, q))


def _note5() -> tuple[Reading, ...]:
    ex1 = _example("cover-example-1")
    q = ("ruling", "brute", "knight")
    return (
        Reading("original", ex1, q),
        Reading(
            "german",
            _with_model(ex1, "brute", name={"en": "Super Mutant", "de": "Supermutant"}),
            q,
        ),
    )


def _note6() -> tuple[Reading, ...]:
    return (Reading("only", _example("melee-shoot-into-2"), ("ruling", "minuteman", "sentry")),)


_READINGS: dict[int, Callable[[], tuple[Reading, ...]]] = {
    1: _note1,
    2: _note2,
    3: _note3,
    4: _note4,
    5: _note5,
    6: _note6,
}


def readings(number: int) -> tuple[Reading, ...]:
    """The boards of note ``number`` under each reading (original first).

    Raises ``KeyError`` for a note that does not exist.
    """
    return _READINGS[number]()


def options_for(clause: str) -> tuple[str, ...]:
    """The scenario options that change ``clause`` (``()`` for none).

    >>> options_for("cover.models")
    ('cover_by',)
    >>> options_for("ranged.los")
    ()
    """
    return tuple(name for name, clauses in OPTION_CLAUSES.items() if clause in clauses)


def notes_for(clause: str) -> tuple[Note, ...]:
    """The translation notes that touch ``clause``."""
    return tuple(n for n in NOTES if clause in n.clauses)
