"""The derived-data cache: what the rules compute from one scenario, kept under typed keys.

Every entry is declared where its data is made, as a :class:`Key` naming the value's type,
whether it depends on the terrain alone (``terrain_only``) and, for an entry that depends on
the models, how a scenario whose models moved derives it from the old scenario's (``carry``).
This module knows none of them: it sits below every module that declares one, so the cache
belongs to no single layer (``fwwrules.board`` declares the board's entries,
``fwwrules.elevation`` the Significant Edges, ``fwwrules.los`` the sight lines, and so on;
docs/ARCHITECTURE.md lists them all and ``tests/test_caches.py`` checks the list).

A :class:`~fwwrules.data.Scenario` holds one :class:`Derived`, empty when it is built
(``dataclasses.replace`` included), so nothing stale survives a change. The one way to start
a changed scenario's cache from an old one is :meth:`Derived.carry_moved`: for a scenario
that differs from the old one only in where some models stand, or in models added (what
``placement.move_model`` and the threat map's ``with_model`` make).

Boundary cases
--------------
* An entry is never changed once filled; a dict-valued entry (``make=dict``) only gains
  items. Two threads racing to fill one at worst compute it twice.
* A terrain-only entry is *shared* by the old and the moved scenario (filling it from either
  fills it for both); an entry the old scenario has not computed is not carried.
* An entry that depends on the models and has no ``carry`` starts empty in the moved
  scenario; a ``carry`` returning ``None`` leaves it empty too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Moved:
    """What changed between a scenario and the one derived from it: both scenarios (each a
    :class:`fwwrules.data.Scenario`; this module sits below ``data`` and does not name the
    type) and the ids of the models that moved or were added."""

    old: Any
    new: Any
    ids: frozenset[str]


class Key(Generic[T]):
    """One entry of :class:`Derived`: its name, its value type ``T``, whether it depends on
    the terrain alone, how to make an empty one (``make``, for entries filled item by item)
    and how a moved scenario derives it from the old value (``carry``)."""

    __slots__ = ("carry", "make", "name", "terrain_only")

    def __init__(
        self,
        name: str,
        *,
        terrain_only: bool,
        make: Callable[[], T] | None = None,
        carry: Callable[[T, Moved], T | None] | None = None,
    ) -> None:
        if terrain_only and carry is not None:
            raise ValueError(f"cache key {name!r}: a terrain-only entry is shared, not carried")
        self.name = name
        self.terrain_only = terrain_only
        self.make = make
        self.carry = carry

    def __repr__(self) -> str:
        kind = "terrain-only" if self.terrain_only else "models"
        return f"Key({self.name!r}, {kind})"


class Derived:
    """The cache of one scenario: a value per :class:`Key`, each filled on first use by the
    module that declares the key.

    >>> SQUARES: Key[dict[int, int]] = Key("squares", terrain_only=True, make=dict)
    >>> d = Derived()
    >>> d.get(SQUARES) is None
    True
    >>> d.entry(SQUARES)[3] = 9
    >>> d.get(SQUARES)
    {3: 9}
    """

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[Key[Any], Any] = {}

    def get(self, key: Key[T]) -> T | None:
        """The entry, or ``None`` when it has not been computed."""
        value: T | None = self._entries.get(key)
        return value

    def put(self, key: Key[T], value: T) -> T:
        """Keep ``value`` as the entry (the first one wins) and return the entry."""
        kept: T = self._entries.setdefault(key, value)
        return kept

    def entry(self, key: Key[T]) -> T:
        """The entry, made empty (``key.make()``) on first use: for entries filled item by
        item (a dict per shot kind, per pair ...)."""
        if key.make is None:
            raise TypeError(f"cache key {key.name!r} has no empty value (make=)")
        found = self.get(key)
        return found if found is not None else self.put(key, key.make())

    def keys(self) -> Iterator[Key[Any]]:
        """The keys filled so far."""
        return iter(tuple(self._entries))

    def carry_moved(self, old: Derived, moved: Moved) -> None:
        """Start this (empty) cache from ``old``, the cache of ``moved.old``: terrain-only
        entries shared, every other entry carried by its key's ``carry`` (or left empty).

        The only way a changed scenario's cache starts from another's; only for a scenario
        that differs from ``moved.old`` in where the ``moved.ids`` models stand, or in those
        models being added, and in nothing else (same terrain, units, tolerances, rulers,
        options and sides).
        """
        for key, value in old._entries.items():
            if key.terrain_only:
                self._entries[key] = value
            elif key.carry is not None:
                carried = key.carry(value, moved)
                if carried is not None:
                    self._entries[key] = carried
