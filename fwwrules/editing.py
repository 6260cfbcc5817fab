"""Editing a scenario by hand: each change a new :class:`~fwwrules.data.Scenario`, judged as
``fwwrules check`` judges the file it would save to, kept on an undo history.

This is the board editor's model (``fwwrules_widgets.BoardEditor`` is its view): pure
functions from a :class:`Draft` (a scenario and what the file check says of it) to a new
one, and a :class:`History` of drafts for undo and redo. Nothing here draws or holds a
widget; a test drives it without a browser.

What a change does when its result would be wrong
--------------------------------------------------
* **Refused** (:class:`EditRefused`, the draft is unchanged; the message is the loader's): a
  model placed where its base may not stand (overlapping another base, off the table, where
  :mod:`fwwrules.placement` refuses it), a value the file format cannot hold (a skill
  ``seven``, a name with a control character), a polygon of fewer than three corners, an id
  that is unknown or taken, a piece reaching further off the table than :data:`REACH`.
* **Kept and flagged** (the draft's :attr:`Draft.problems`, the loader's words with the
  place in the file): anything else the file check refuses, such as a self-intersecting
  outline or a piece moved onto a base. Undo, delete or fix it; the file is not written while
  any problem remains.

Every check is the loader's own (:func:`fwwrules.scenario_spec.read_scenario` on the data
:func:`fwwrules.saving.to_data` writes): a board the editor calls valid is a file ``fwwrules
check`` calls ``ok``, and a refusal says what ``check`` would say. A model dragged by hand is
placed by :func:`fwwrules.placement.hand_placement` (where it ends and at what height), as
the panels place it.

Coordinates are scenario units (``in`` or ``mm``) with the origin at the table's lower left
corner; the snap grid is :func:`fwwrules.placement.snap_step` (a quarter inch, a millimetre).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

import numpy as np
from shapely.geometry import Point

from .board import BASE_SIZES_MM
from .checks import ident_from
from .constants import MM_PER_INCH
from .data import Scenario
from .errors import FwwError, Problem, ScenarioError, format_path
from .loading import Document
from .pieces import Bounds, Circle, Rect, Terrain, title_in
from .placement import hand_placement, move_model, snap, snap_step, standing_height_v
from .saving import to_data
from .scenario_spec import polygon_point_count_problem, read_scenario

XY = tuple[float, float]

HISTORY_LIMIT = 200
"""Undo steps kept; older ones are dropped (the board itself is never lost)."""

REACH = 1.0
"""How far beyond the table's edge a piece may reach, as a multiple of the table's larger
side: a piece further off would shrink the table to a dot in any picture of the board (and
a circle a mile wide costs gigabytes to draw); such a change is refused."""

DIGITS = 4
"""Decimals kept for a coordinate or length the editor writes (1e-4 in or mm: below any
tolerance)."""

STOCK_WEAPONS: Mapping[str, Mapping[str, Any]] = MappingProxyType(
    {
        "pistol": {"id": "pistol", "type": "pistol", "short": "yellow", "long": "red"},
        "rifle": {"id": "rifle", "type": "rifle", "short": "red", "long": "green"},
        "heavy-gun": {"id": "heavy-gun", "type": "heavy", "short": "green", "long": "blue"},
        "grenade": {"id": "grenade", "type": "thrown", "short": "orange", "long": "yellow"},
        "club": {"id": "club", "type": "melee"},
    }
)
"""Generic weapon profiles a new model may carry by name (the file lists a weapon once a
model carries it). They are placeholders with plain ruler bands, not the cards of any
product."""

MODEL_FIELDS = ("name", "faction", "base", "skills", "weapons", "elevation")
"""What :func:`set_model` changes (the model's place is :func:`move`'s)."""
TERRAIN_FIELDS = ("kind", "name", "height", "huge", "elevated")
"""What :func:`set_terrain` changes (the shape is :func:`move`'s and :func:`rotate`'s)."""
REQUIRED = frozenset({"kind", "faction", "base"})
DEFAULT_FACTION = "player"
"""The faction of a model added without one (the editor's empty faction field says so)."""


class EditRefused(FwwError, ValueError):
    """A change that was not made; the message says why, in the loader's words (each problem
    as ``place: message``), and :attr:`problems` holds them."""

    def __init__(self, why: str | Sequence[Problem]) -> None:
        self.problems: tuple[Problem, ...] = () if isinstance(why, str) else tuple(why)
        text = why if isinstance(why, str) else "\n".join(problem_text(p) for p in why)
        super().__init__(text)


def problem_text(p: Problem) -> str:
    """A problem as the editor lists it: its place in the file, then the loader's words."""
    return f"{format_path(p.path)}: {p.message}"


def rounded(value: float) -> float:
    """``value`` to :data:`DIGITS` decimals (never ``-0.0``)."""
    out = round(float(value), DIGITS)
    return 0.0 if out == 0 else out


def snapped(p: Sequence[float], units: str, on: bool = True) -> XY:
    """The point on the snap grid nearest ``p`` (``on``), else ``p`` rounded."""
    if not on:
        return (rounded(p[0]), rounded(p[1]))
    return (rounded(snap(float(p[0]), units)), rounded(snap(float(p[1]), units)))


def snapped_length(value: float, units: str, on: bool = True) -> float:
    """A length on the snap grid (at least one step) when ``on``, else rounded."""
    if not on:
        return rounded(value)
    return rounded(max(snap_step(units), snap(value, units)))


def base_diameter(base: str | float, units: str) -> float:
    """A base given as a size class (``normal``, ``large``, ``huge``: 32, 40, 60 mm,
    :data:`fwwrules.board.BASE_SIZES_MM`) or as a diameter, in ``units``. An unknown class is
    refused.

    >>> base_diameter("large", "mm"), base_diameter("normal", "in"), base_diameter(1.5, "in")
    (40.0, 1.2598, 1.5)
    """
    if isinstance(base, str):
        if base not in BASE_SIZES_MM:
            raise EditRefused(
                f"unknown base size {base!r}; expected {', '.join(BASE_SIZES_MM)} or a diameter"
            )
        return rounded(BASE_SIZES_MM[base] / (MM_PER_INCH if units == "in" else 1.0))
    if isinstance(base, (int, float)) and not isinstance(base, bool) and math.isfinite(base):
        return rounded(base)
    return base  # not a number: the loader names it


def size_class_of(diameter: float, units: str) -> str | None:
    """The size class whose rulebook base is ``diameter`` (in ``units``, as the editor writes
    it), or None for another diameter."""
    for name in BASE_SIZES_MM:
        if base_diameter(name, units) == diameter:
            return name
    return None


def titled(title: Any, lang: str, text: str) -> str | dict[str, str] | None:
    """A title (or a name) with ``lang``'s set to ``text`` (``""`` removes it): English alone
    stays one line of text; a plain title becomes the English one when another language is
    added.

    >>> titled(None, "en", "Crates"), titled("Crates", "de", "Kisten")
    ('Crates', {'en': 'Crates', 'de': 'Kisten'})
    >>> titled({"en": "Crates", "de": "Kisten"}, "de", ""), titled("Crates", "en", "")
    ('Crates', None)
    """
    titles: dict[str, str] = (
        {} if title is None else {"en": title} if isinstance(title, str) else dict(title)
    )
    text = text.strip()
    if text:
        titles[lang] = text
    else:
        titles.pop(lang, None)
    if not titles:
        return None
    if set(titles) == {"en"}:
        return titles["en"]
    return titles


# --- the pieces' places ---------------------------------------------------------------------


def centre_of(t: Terrain) -> XY:
    """Where a piece is moved by: a rectangle's or circle's ``at``, a polygon's mean corner
    (the centre it turns about; not always the area's centroid)."""
    s = t.shape
    if isinstance(s, (Rect, Circle)):
        return (float(s.at[0]), float(s.at[1]))
    return (sum(p[0] for p in s) / len(s), sum(p[1] for p in s) / len(s))


def outline_of(t: Terrain) -> list[XY] | None:
    """A piece's corners as the file states them (``None`` for a circle)."""
    s = t.shape
    if isinstance(s, Rect):
        return list(s.corners())
    if isinstance(s, Circle):
        return None
    return [(float(x), float(y)) for x, y in s]


def _rotated(p: Sequence[float], centre: XY, degrees: float) -> XY:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    dx, dy = float(p[0]) - centre[0], float(p[1]) - centre[1]
    return (rounded(centre[0] + c * dx - s * dy), rounded(centre[1] + s * dx + c * dy))


def normal_angle(degrees: float) -> float:
    """An angle in (-180, 180], rounded.

    >>> normal_angle(190), normal_angle(-180), normal_angle(540)
    (-170.0, 180.0, 180.0)
    """
    a = math.fmod(degrees, 360.0)
    if a <= -180:
        a += 360
    elif a > 180:
        a -= 360
    return rounded(a)


def moved_piece(t: Terrain, dx: float, dy: float) -> Terrain:
    """The piece shifted by ``(dx, dy)``."""
    s = t.shape
    if isinstance(s, Rect):
        return replace(t, shape=replace(s, at=(rounded(s.at[0] + dx), rounded(s.at[1] + dy))))
    if isinstance(s, Circle):
        return replace(t, shape=replace(s, at=(rounded(s.at[0] + dx), rounded(s.at[1] + dy))))
    return replace(t, shape=tuple((rounded(x + dx), rounded(y + dy)) for x, y in s))


def turned_piece(t: Terrain, degrees: float) -> Terrain:
    """The piece turned by ``degrees`` (counter-clockwise) about its centre: a rectangle keeps
    its size and changes its angle, a polygon's corners turn about their mean, a circle stays.
    """
    s = t.shape
    if isinstance(s, Rect):
        return replace(t, shape=replace(s, angle=normal_angle(s.angle + degrees)))
    if isinstance(s, Circle):
        return t
    centre = centre_of(t)
    return replace(t, shape=tuple(_rotated(p, centre, degrees) for p in s))


def terrain_at(scenario: Scenario, x: float, y: float) -> list[str]:
    """The pieces whose outline holds the point (scenario units), in file order."""
    u = scenario.unit_mm
    p = Point(x * u, y * u)
    return [t.id for t in scenario.terrain if scenario.board.terrain[t.id].polygon.covers(p)]


def model_at(scenario: Scenario, x: float, y: float) -> str | None:
    """The model whose base holds the point (scenario units); the last listed when stacked."""
    found = None
    for m in scenario.models:
        if math.hypot(x - m.at[0], y - m.at[1]) <= m.base / 2:
            found = m.id
    return found


# --- a draft: a board and what the file check says of it --------------------------------------


def check(scenario: Scenario, source: str = "board.yaml") -> tuple[Problem, ...]:
    """What ``fwwrules check`` says of the file :func:`fwwrules.save` would write for
    ``scenario`` (empty: the file is ``ok``). Raises :class:`EditRefused` when the scenario
    holds a value the file format cannot hold at all."""
    try:
        return tuple(read_scenario(Document(to_data(scenario), source))[1])
    except ScenarioError as exc:
        raise EditRefused(exc.problems) from None


@dataclass(frozen=True, slots=True)
class Draft:
    """A board being edited: the scenario (always with a table size) and what the file check
    says of it, each problem with its place in the file (``models[1].at``)."""

    scenario: Scenario
    problems: tuple[Problem, ...] = ()
    source: str = "board.yaml"

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def size(self) -> XY:
        """The table's width and height (scenario units)."""
        assert self.scenario.board_size is not None
        return self.scenario.board_size

    @property
    def table(self) -> Bounds:
        """The table, from the origin (scenario units)."""
        w, h = self.size
        return Bounds(0.0, 0.0, w, h)

    def bad_ids(self) -> dict[str, str]:
        """Model or piece id -> the first problem's words, for the pieces the check names."""
        out: dict[str, str] = {}
        for p in self.problems:
            if len(p.path) >= 2 and p.path[0] in ("models", "terrain"):
                items = self.scenario.models if p.path[0] == "models" else self.scenario.terrain
                index = p.path[1]
                if isinstance(index, int) and 0 <= index < len(items):
                    out.setdefault(items[index].id, p.message)
        return out

    def ids(self) -> set[str]:
        """Every model and terrain id (one namespace)."""
        return {m.id for m in self.scenario.models} | {t.id for t in self.scenario.terrain}

    def where(self, ident: str) -> tuple[str, int]:
        """``("models", i)`` or ``("terrain", i)`` for an id; an unknown one is refused."""
        for i, m in enumerate(self.scenario.models):
            if m.id == ident:
                return ("models", i)
        for i, t in enumerate(self.scenario.terrain):
            if t.id == ident:
                return ("terrain", i)
        known = ", ".join(sorted(self.ids())) or "none"
        raise EditRefused(f"unknown id {ident!r} (known: {known})")


def new_draft(
    scenario: Scenario | None = None,
    *,
    units: str = "in",
    size: XY | None = None,
    source: str = "board.yaml",
) -> Draft:
    """A draft of ``scenario`` (or of an empty table in ``units``) on a table of ``size``:
    the file's own size, else ``size``, else (for a scenario) a table from the origin holding
    every piece with an inch to spare, else a 48" square (1219.2 mm)."""
    if scenario is None:
        if units not in ("in", "mm"):
            raise EditRefused(f"units must be 'in' or 'mm' (got {units!r})")
        scenario = Scenario(units="in" if units == "in" else "mm")
        size = size or default_size(units)
    if scenario.board_size is None:
        size = size or extent(scenario)
        scenario = replace(scenario, board_size=(rounded(size[0]), rounded(size[1])))
    return Draft(scenario, check(scenario, source), source)


def default_size(units: str) -> XY:
    """A 48" square table (4' x 4', the usual skirmish table) in ``units``."""
    side = 48.0 if units == "in" else 48.0 * MM_PER_INCH
    return (side, side)


def extent(scenario: Scenario) -> XY:
    """A table from the origin that holds every base and piece of ``scenario`` with an inch
    to spare, in whole inches (scenario units). Pieces at negative coordinates stay off it
    (the file check then says so: move them on, or give the file a ``board`` size)."""
    inch = MM_PER_INCH / scenario.unit_mm
    w = h = 0.0
    for m in scenario.models:
        w = max(w, m.at[0] + m.base / 2)
        h = max(h, m.at[1] + m.base / 2)
    for t in scenario.terrain:
        _, _, x1, y1 = scenario.board.terrain[t.id].polygon.bounds
        w = max(w, x1 / scenario.unit_mm)
        h = max(h, y1 / scenario.unit_mm)
    return (rounded(math.ceil(w / inch + 1) * inch), rounded(math.ceil(h / inch + 1) * inch))


def content_box(scenario: Scenario, size: XY) -> Bounds:
    """The table (``size`` from the origin) and every base and piece (scenario units)."""
    w, h = size
    box = [0.0, 0.0, w, h]
    u = scenario.unit_mm
    for m in scenario.models:
        r = m.base / 2
        box = _grow(box, (m.at[0] - r, m.at[1] - r, m.at[0] + r, m.at[1] + r))
    for t in scenario.terrain:
        box = _grow(box, tuple(v / u for v in scenario.board.terrain[t.id].polygon.bounds))
    return Bounds(*box)


def _grow(box: list[float], other: Sequence[float]) -> list[float]:
    return [min(box[0], other[0]), min(box[1], other[1]), max(box[2], other[2]),
            max(box[3], other[3])]  # fmt: skip


def _beyond_reach(scenario: Scenario, size: XY) -> str | None:
    """Why ``scenario`` reaches too far off its table (:data:`REACH`), or None."""
    w, h = size
    reach = REACH * max(w, h)
    x0, y0, x1, y1 = content_box(scenario, size)
    if x0 >= -reach and y0 >= -reach and x1 <= w + reach and y1 <= h + reach:
        return None
    return (
        f"a piece would reach to [{x0:.6g}, {x1:.6g}] x [{y0:.6g}, {y1:.6g}]: the editor "
        f"draws pieces up to {reach:g} {scenario.units} off the table [0, {w:g}] x [0, {h:g}]"
    )


def revised(
    d: Draft,
    scenario: Scenario,
    *,
    at: tuple[str, int] | None = None,
    fields: Sequence[str] = (),
) -> Draft:
    """The draft of a changed ``scenario``: checked as its file would be. Refused when a
    piece reaches beyond :data:`REACH`, and when the check finds a problem at ``at``
    (``("models", 2)``: the entry itself or one of its ``fields``) that the draft did not
    have; every other new problem is kept and flagged."""
    too_far = _beyond_reach(scenario, d.size)
    if too_far is not None:
        raise EditRefused(too_far)
    problems = check(scenario, d.source)
    if at is not None:
        before = {(p.path, p.message) for p in d.problems}
        bad = [
            p
            for p in problems
            if tuple(p.path[:2]) == at
            and (len(p.path) == 2 or p.path[2] in fields)
            and (p.path, p.message) not in before
        ]
        if bad:
            raise EditRefused(bad)
    return Draft(scenario, problems, d.source)


def _read_entry(d: Draft, key: str, index: int, entry: Mapping[str, Any]) -> Scenario:
    """The scenario with the file entry ``entry`` (a model or a piece in the file's words,
    values as a person typed them) at ``key[index]`` (``index`` past the end: added), read by
    the loader: a value the format cannot hold is refused in its words, at its place."""
    data = to_data(d.scenario)
    items = data[key]
    if index < len(items):
        items[index] = dict(entry)
    else:
        items.append(dict(entry))
    carried = entry.get("weapons") if key == "models" else None
    if isinstance(carried, (list, tuple)):
        have = {w["id"] for w in data["weapons"]}
        data["weapons"] += [dict(STOCK_WEAPONS[w]) for w in carried
                            if w in STOCK_WEAPONS and w not in have]  # fmt: skip
    try:
        scenario, _ = read_scenario(Document(data, d.source))
    except ScenarioError as exc:
        raise EditRefused(exc.problems) from None
    return replace(scenario, source=d.scenario.source)


def new_id(stem: str, d: Draft) -> str:
    """An unused id made of a name (:func:`fwwrules.checks.ident_from`): ``stem``, else
    ``stem-2``, ``stem-3`` ..."""
    base = ident_from(stem) or "piece"
    used = d.ids()
    if base not in used:
        return base
    n = 2
    while f"{base}-{n}" in used:
        n += 1
    return f"{base}-{n}"


# --- the changes --------------------------------------------------------------------------


def add_model(
    d: Draft, at: Sequence[float], fields: Mapping[str, Any], ident: str | None = None
) -> tuple[Draft, str]:
    """A model with its base centre at ``at`` (scenario units, as given: snap first); returns
    the draft and the new id. ``fields`` are the file's (``faction``, default ``player``;
    ``name``: a text or one per language; ``base``: a size class or a diameter, default
    Normal; ``skills``; ``weapons``: ids, the :data:`STOCK_WEAPONS` among them are added to
    the file; ``elevation``: without it, the placement rule's, on top of the highest piece with
    a height under ``at``), values as typed: the loader reads them. The id is made of the
    (English) name or the faction unless ``ident`` gives one. Refused where the base may not
    stand (the placement rule), and for any value the file format cannot hold."""
    units = d.scenario.units
    faction = fields.get("faction") or DEFAULT_FACTION
    name = fields.get("name") or None
    stem = title_in(name, "en") if name else None
    entry: dict[str, Any] = {"id": ident or new_id(stem or str(faction) or "model", d)}
    if name:
        entry["name"] = name if isinstance(name, str) else dict(name)
    base = fields.get("base")
    entry.update(
        faction=faction,
        base=base_diameter("normal" if base in (None, "") else base, units),
        at=[rounded(at[0]), rounded(at[1])],
    )
    for key in ("skills", "weapons", "elevation"):
        if fields.get(key):
            entry[key] = fields[key]
    if not fields.get("elevation"):
        level = _standing_level(d.scenario, at)
        if level > 0:
            entry["elevation"] = level
    index = len(d.scenario.models)
    scenario = _read_entry(d, "models", index, entry)
    return revised(d, scenario, at=("models", index), fields=("at", "id", "base")), entry["id"]


def _standing_level(scenario: Scenario, at: Sequence[float]) -> float:
    """The elevation (scenario units) a base put down by hand at ``at`` takes by the placement
    rule (:func:`fwwrules.placement.standing_height_v`): on top of the highest piece with a
    height under its centre, 0 on the ground."""
    u = scenario.unit_mm
    mm = standing_height_v(
        scenario.board, np.array([float(at[0]) * u]), np.array([float(at[1]) * u])
    )
    return rounded(float(mm[0]) / u)


def add_terrain(
    d: Draft, shape: Mapping[str, Any], fields: Mapping[str, Any], ident: str | None = None
) -> tuple[Draft, str]:
    """A terrain piece of ``shape`` (the file's words: ``{"rect": {...}}``, ``{"circle":
    ...}``, ``{"polygon": [...]}``); ``fields`` are ``kind`` (default ``cover``), ``name``,
    ``height``, ``huge``, ``elevated``, as typed. Refused for a value the format cannot hold
    and a taken id; a problem of the shape (a crossing outline) is kept and flagged."""
    kind = fields.get("kind") or "cover"
    name = fields.get("name") or None
    stem = title_in(name, "en") if name else None
    entry: dict[str, Any] = {"id": ident or new_id(stem or str(kind), d)}
    if name:
        entry["name"] = name if isinstance(name, str) else dict(name)
    entry["kind"] = kind
    entry.update(shape)
    for key in ("height", "huge", "elevated"):
        if fields.get(key) not in (None, ""):
            entry[key] = fields[key]
    index = len(d.scenario.terrain)
    scenario = _read_entry(d, "terrain", index, entry)
    return revised(d, scenario, at=("terrain", index), fields=("id",)), entry["id"]


def rect_between(corner: XY, opposite: XY) -> dict[str, Any]:
    """The file's words for the axis-parallel rectangle spanned by two corners; one of no
    width or height is refused."""
    w, h = rounded(abs(opposite[0] - corner[0])), rounded(abs(opposite[1] - corner[1]))
    if w <= 0 or h <= 0:
        raise EditRefused(f"a rectangle needs a width and a height above 0 (got {w:g} x {h:g})")
    at = [rounded((corner[0] + opposite[0]) / 2), rounded((corner[1] + opposite[1]) / 2)]
    return {"rect": {"at": at, "size": [w, h], "angle": 0.0}}


def polygon_of(d: Draft, points: Sequence[Sequence[float]]) -> dict[str, Any]:
    """The file's words for a polygon of ``points``; fewer than three is refused in the
    loader's words, at the place the piece would take."""
    too_few = polygon_point_count_problem(len(points))
    if too_few is not None:
        at = ("terrain", len(d.scenario.terrain), "polygon")
        raise EditRefused([Problem(at, too_few)])
    return {"polygon": [[rounded(p[0]), rounded(p[1])] for p in points]}


def placed(d: Draft, ident: str, to: XY, *, snapped: bool = True) -> tuple[Scenario, XY]:
    """The scenario with a model moved toward ``to`` by hand, and where it ended: every step
    of a drag, and its drop (:func:`move`). The placement rule's whole answer
    (:func:`fwwrules.placement.hand_placement` on the table: on the snap grid when
    ``snapped``, stopped at contact and slid round it, at the file's precision): its centre
    and its elevation, so a base put on a piece with a height stands on top of it
    (``elevation.standing-on``) and one put down off it stands on the ground again."""
    p = hand_placement(d.scenario, ident, to, snapped=snapped, bounds=d.table)
    scenario = move_model(d.scenario, ident, rounded(p.x), rounded(p.y), rounded(p.elevation))
    return scenario, scenario.model(ident).at


def move(d: Draft, ident: str, to: XY, *, snapped: bool = True) -> tuple[Draft, XY]:
    """A model (:func:`placed`: it never stops where it may not stand) or a terrain piece
    (its centre, :func:`centre_of`, goes to ``to``; a problem that makes is flagged) moved;
    returns the draft and where it ended."""
    key, i = d.where(ident)
    if key == "models":
        scenario, end = placed(d, ident, to, snapped=snapped)
        return revised(d, scenario), end
    t = d.scenario.terrain[i]
    cx, cy = centre_of(t)
    piece = moved_piece(t, to[0] - cx, to[1] - cy)
    return _with_piece(d, i, piece), centre_of(piece)


def _with_piece(d: Draft, index: int, piece: Terrain) -> Draft:
    terrain = list(d.scenario.terrain)
    terrain[index] = piece
    return revised(d, replace(d.scenario, terrain=tuple(terrain)))


def rotate(d: Draft, ident: str, degrees: float) -> Draft:
    """A terrain piece turned by ``degrees`` (:func:`turned_piece`); a model is refused."""
    key, i = d.where(ident)
    if key != "terrain":
        raise EditRefused(f"{ident!r} is a model; only terrain is rotated")
    return _with_piece(d, i, turned_piece(d.scenario.terrain[i], degrees))


def delete(d: Draft, ident: str) -> Draft:
    """A model or piece removed (the weapons stay in the file)."""
    key, i = d.where(ident)
    s = d.scenario
    if key == "models":
        return revised(d, replace(s, models=s.models[:i] + s.models[i + 1 :]))
    return revised(d, replace(s, terrain=s.terrain[:i] + s.terrain[i + 1 :]))


def _set(d: Draft, ident: str, key: str, props: Mapping[str, Any], allowed: Sequence[str]) -> Draft:
    """``props`` written into the entry of ``ident`` (``None`` or ``""`` removes an optional
    one), read by the loader."""
    found, i = d.where(ident)
    if found != key:
        raise EditRefused(f"{ident!r} is not a {'model' if key == 'models' else 'piece'}")
    data = to_data(d.scenario)
    entry = data[key][i]
    for name, value in props.items():
        if name not in allowed:
            raise EditRefused(f"unknown property {name!r}; expected one of {tuple(allowed)}")
        if name == "base" and isinstance(value, str) and value:
            value = base_diameter(value, d.scenario.units)
        if value is None or value == "" or value == [] or value == {}:
            if name in REQUIRED:
                raise EditRefused(f"{name!r} is required")
            entry.pop(name, None)
        else:
            entry[name] = list(value) if isinstance(value, (list, tuple)) else value
    scenario = _read_entry(d, key, i, entry)
    fields = ("at", "base") if key == "models" else ()
    return revised(d, scenario, at=(key, i) if fields else None, fields=fields)


def set_model(d: Draft, ident: str, **props: Any) -> Draft:
    """A model's ``name``, ``faction``, ``base``, ``skills``, ``weapons`` or ``elevation``
    changed (:data:`MODEL_FIELDS`); a base that grows where it may not stand is refused."""
    return _set(d, ident, "models", props, MODEL_FIELDS)


def set_terrain(d: Draft, ident: str, **props: Any) -> Draft:
    """A piece's ``kind``, ``name``, ``height``, ``huge`` or ``elevated`` changed."""
    return _set(d, ident, "terrain", props, TERRAIN_FIELDS)


def set_title(d: Draft, text: str, lang: str) -> Draft:
    """The board's title in ``lang`` set to ``text`` (:func:`titled`; ``""`` removes it);
    a title the format cannot hold is refused."""
    title = titled(d.scenario.title, lang, text)
    if title == d.scenario.title:
        return d
    data = to_data(d.scenario)
    data["title"] = title
    if title is None:
        del data["title"]
    try:
        scenario, _ = read_scenario(Document(data, d.source))
    except ScenarioError as exc:
        raise EditRefused(exc.problems) from None
    return revised(d, replace(d.scenario, title=scenario.title))


# --- the history ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class History:
    """The drafts of an editing session, oldest first, and which one is shown (``at``); at
    most :data:`HISTORY_LIMIT` (older steps are dropped, the board itself is never lost)."""

    drafts: tuple[Draft, ...]
    at: int = 0

    @property
    def now(self) -> Draft:
        return self.drafts[self.at]

    def then(self, d: Draft) -> History:
        """``d`` as the next step (the steps undone before it are dropped)."""
        drafts = (*self.drafts[: self.at + 1], d)[-HISTORY_LIMIT:]
        return History(drafts, len(drafts) - 1)

    def undo(self) -> History | None:
        """One step back, or None at the first."""
        return None if self.at == 0 else dataclasses.replace(self, at=self.at - 1)

    def redo(self) -> History | None:
        """One step forward again, or None at the last."""
        if self.at >= len(self.drafts) - 1:
            return None
        return dataclasses.replace(self, at=self.at + 1)
