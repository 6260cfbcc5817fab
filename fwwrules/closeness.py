"""How close a ruling is to changing: its margins as data, their JSON and their words.

A *margin* is how far one model (the attacker or the target, moved alone in the table's plane,
terrain and every other model fixed) must travel before a decision of a ruling changes.
:mod:`fwwrules.margins` computes them; this module holds the results:

* :class:`Flip`: one decision (the line of sight, a range band's end, a piece's cover, a base
  contact) and where it changes: how far (mm), which model, which way (a unit vector in the
  file's axes and its compass heading), the pinch point (the grazed corner, the band's end,
  the contact) and whether the distance is exact (closed form, or a boundary found in closed
  form and confirmed by a ruling) or found by search (with its precision);
* :class:`Margin`: the smallest of them that changes the ruling (a position where the moved
  model cannot stand changes nothing), the clause ids that change there, and whether it is a
  knife-edge call (below the scenario's ``knife_edge``, 1 mm by default);
* :class:`Margins`: both, with the search radius; ``to_dict`` gives the ruling JSON's ``margin``
  and ``margins`` (docs/scenario-format.md), :meth:`Margins.sentence` the words, English or
  German;
* :class:`LazyMargins`: what a ruling holds: the margins are computed when first asked
  (``to_dict``, ``explain``, a panel's line), never by the ruling itself.

Boundary cases
--------------
* A margin is a boundary: moving the model exactly the margin may or may not change the
  ruling (a base exactly at a band's end plus the ruler tolerance is still in the band; a gap of
  exactly the contact tolerance is contact), moving it any farther in that direction does.
* Nothing changes within the search radius: ``mm``, ``model`` and ``direction`` are ``None`` and
  ``changes`` is empty (JSON ``null`` and ``[]``).
* A margin smaller than 0.01 mm is written "less than 0.01 mm" (JSON keeps the number).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .catalogue import check_lang, render
from .constants import MAX_MARGIN_CORNER_PAIRS, MAX_MARGIN_PROBES, MM_PER_INCH
from .refs import PieceRef

Method = Literal["exact", "search"]
Decision = Literal["ruling", "los", "band", "min-range", "cover", "contact", "slide", "path"]
Point2 = tuple[float, float]

TINY_MARGIN_MM = 0.01
"""Below this a margin is written "less than 0.01 mm" (the text's smallest step)."""


@dataclass(frozen=True, slots=True)
class Flip:
    """One decision and where it changes.

    ``decision`` names what is decided (``los``, ``band``, ``min-range``, ``cover``,
    ``contact``; ``slide`` and ``path`` for a slide's end); ``clause`` the clause id deciding it;
    ``source`` the piece or model it is about (``None`` for the line of sight and the bands);
    ``change`` the key of the phrase saying what happens (``los-closes``, ``band-leaves``,
    ``cover-gained``, ``contact-breaks`` ...; ``""`` when it does not change within the
    radius) and ``params`` its values (ids and references). ``mm`` is the margin (``None``: no
    change within the radius), ``model`` the model that moves, ``direction`` the unit vector it
    moves along (file axes), ``heading`` its compass name, ``at`` the pinch point (mm).
    ``method``: ``exact`` (closed form, or a boundary found in closed form and confirmed by a
    ruling just past it) or ``search`` (sampled and bisected; ``precision_mm`` says how
    closely).
    """

    decision: Decision
    clause: str
    source: PieceRef | None = None
    change: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    mm: float | None = None
    model: str | None = None
    direction: Point2 | None = None
    heading: str | None = None
    at: Point2 | None = None
    method: Method = "exact"
    precision_mm: float = 0.0

    def to_dict(self, unit_mm: float) -> dict[str, Any]:
        """The JSON of one entry of ``margins`` (lengths in the file's units, ``mm`` too)."""
        return {
            "clause": self.clause,
            "source": None if self.source is None else self.source.name,
            "decision": self.decision,
            "change": self.change or None,
            "band": self.params.get("band") if self.decision == "band" else None,
            **_where(self.mm, self.model, self.direction, self.at, unit_mm),
            "method": self.method,
            "precision_mm": self.precision_mm,
        }

    def what(self, lang: str, labels: Mapping[str, str]) -> str:
        """What happens there, in words (``the line of sight closes``)."""
        return render(f"margin/change/{self.change}", self.params, lang, labels)


def _where(
    mm: float | None,
    model: str | None,
    direction: Point2 | None,
    at: Point2 | None,
    unit_mm: float,
) -> dict[str, Any]:
    return {
        "mm": None if mm is None else round(mm, 6),
        "distance": None if mm is None else round(mm / unit_mm, 6),
        "model": model,
        "direction": None if direction is None else [_r(direction[0], 6), _r(direction[1], 6)],
        "at": None if at is None else [_r(at[0] / unit_mm, 4), _r(at[1] / unit_mm, 4)],
    }


def _r(value: float, digits: int) -> float:
    """Rounded for the JSON, never ``-0.0``."""
    return round(value, digits) + 0.0


@dataclass(frozen=True, slots=True)
class Margin:
    """The smallest margin of a ruling: how far ``model`` must move along ``direction`` before
    the ruling changes, the clause ids that change there (``changes``) and the decisions that
    do (``flips``, for the words). ``mm`` is ``None`` when nothing changes within the radius.
    ``knife_edge``: ``mm`` is below the scenario's knife-edge length."""

    mm: float | None = None
    model: str | None = None
    direction: Point2 | None = None
    heading: str | None = None
    at: Point2 | None = None
    changes: tuple[str, ...] = ()
    flips: tuple[Flip, ...] = ()
    knife_edge: bool = False
    method: Method = "exact"
    precision_mm: float = 0.0

    def to_dict(self, unit_mm: float) -> dict[str, Any]:
        """The JSON ``margin`` object."""
        return {
            **_where(self.mm, self.model, self.direction, self.at, unit_mm),
            "changes": list(self.changes),
            "knife_edge": self.knife_edge,
            "method": self.method,
            "precision_mm": self.precision_mm,
        }


@dataclass(frozen=True, slots=True)
class Margins:
    """A ruling's margins: the smallest (:class:`Margin`) and one :class:`Flip` per decision.

    ``radius_mm`` is how far the search moved the models, ``knife_edge_mm`` the knife-edge
    length, ``unit_mm`` the file's unit in mm (for the JSON). ``complete`` is False when only
    the knife edge was looked for (the text's question: is this a close call?) or the search
    was cut short at :data:`~fwwrules.constants.MAX_MARGIN_PROBES`; ``probes`` counts the
    rulings it asked.
    """

    smallest: Margin
    decisions: tuple[Flip, ...] = ()
    radius_mm: float = 0.0
    knife_edge_mm: float = 0.0
    unit_mm: float = 1.0
    complete: bool = True
    probes: int = 0
    measured: bool = True
    work: int = 0

    @property
    def knife_edge(self) -> bool:
        return self.smallest.knife_edge

    def to_dict(self) -> dict[str, Any]:
        """``{"margin": {...}, "margins": [...]}``: the ruling JSON's two fields."""
        return {
            "margin": {**self.smallest.to_dict(self.unit_mm), "measured": self.measured},
            "margins": [f.to_dict(self.unit_mm) for f in self.decisions],
        }

    def sentence(self, lang: str = "en", labels: Mapping[str, str] | None = None) -> str:
        """How close the call is, in words: a knife-edge call (``A knife-edge call: it changes
        if Knight Patrol moves 0.4 mm east: the line of sight closes.``), how far it is from
        changing, or that nothing changes within the radius.

        Distances are in the file's unit first: in millimetres (inches in brackets) on a
        board whose file is in millimetres, ``4.2 mm (0.17″)``; in inches (millimetres in
        brackets) on one in inches, ``2″ (50.8 mm)``, except below 1 mm, written in
        millimetres alone (``0.3 mm``: inches would read ``0.01″``;
        :func:`~fwwrules.catalogue.length`, ``"mm-in"``)."""
        check_lang(lang)
        names = labels or {}
        m = self.smallest
        units = "mm-in" if self.unit_mm == MM_PER_INCH else "mm"
        if not self.measured:
            if self.work:
                work = {"pairs": self.work, "bound": MAX_MARGIN_CORNER_PAIRS}
                return render("margin/not-measured", work, lang)
            return render("margin/not-measured-probes", {"probes": MAX_MARGIN_PROBES}, lang)
        if m.mm is None or m.model is None:
            if not self.complete:
                return render(
                    "margin/none-near", {"distance": self.knife_edge_mm, "units": units}, lang
                )
            return render("margin/none", {"distance": self.radius_mm, "units": units}, lang)
        what = "; ".join(dict.fromkeys(f.what(lang, names) for f in m.flips)) or render(
            "margin/change/other", {"clauses": ", ".join(m.changes)}, lang
        )
        if lang == "de":  # a whole sentence after a colon starts with a capital in German
            what = what[:1].upper() + what[1:]
        values = {
            "model": m.model,
            "distance": m.mm,
            "step": TINY_MARGIN_MM,
            "units": units,
            "heading": f"heading/{m.heading}",
            "what": what,
        }
        tiny = "-tiny" if m.mm < TINY_MARGIN_MM else ""
        key = "margin/knife-edge" if m.knife_edge else "margin/changes"
        return render(key + tiny, values, lang, names)


@dataclass(slots=True)
class LazyMargins:
    """A ruling's margins, computed when first asked and kept (a ruling is never slowed by
    margins nobody reads).

    ``compute(ruling, knife_only, only)`` gives the :class:`Margins` of ``ruling`` (the ruling
    holding this, which passes itself): with ``knife_only`` only up to the knife edge (enough
    to say whether the call is close: the text asks this), else up to the search radius (the
    JSON, the panels); ``only`` moves that one model (``None``: the attacker and the target).
    A full result answers the knife-edge question too.
    """

    compute: Callable[[Any, bool, str | None], Margins]
    done: dict[tuple[bool, str | None], Margins] = field(default_factory=dict)

    def get(self, ruling: Any, knife_only: bool = False, only: str | None = None) -> Margins:
        full = self.done.get((False, only))
        if full is not None:
            return full
        key = (knife_only, only)
        if key not in self.done:
            self.done[key] = self.compute(ruling, knife_only, only)
        return self.done[key]
