"""References to the things a ruling names: a model, a terrain piece (or touching pieces acting
as one), a Significant Edge, a point on the table.

Reasons carry these typed references, never names glued into text: the catalogue renders each
in the reader's language with the ruling's display names (``Crate 1 + Crate 2``, ``the west
edge of Building``, ``point (200, −0.5)``), and the JSON gives each by its :attr:`name`, the
stable id of the public interface (``crate-1+crate-2``, ``building:west``, ``point(200,-0.5)``).
Nothing parses a name back.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ModelRef:
    """A model, by id (a base that gives cover or blocks line of sight)."""

    id: str

    @property
    def name(self) -> str:
        """The name rulings and their JSON use: the id."""
        return self.id


@dataclass(frozen=True, slots=True)
class TerrainRef:
    """A terrain piece, or touching pieces of one kind acting as one (ids in file order)."""

    ids: tuple[str, ...]

    @property
    def name(self) -> str:
        """The name rulings and their JSON use: the ids joined by ``+`` (``crate-1+crate-2``).

        >>> TerrainRef(("crate-1", "crate-2")).name
        'crate-1+crate-2'
        """
        return "+".join(self.ids)


@dataclass(frozen=True, slots=True)
class EdgeRef:
    """A Significant Edge: its terrain piece and the compass side it faces."""

    terrain: str
    side: str

    @property
    def name(self) -> str:
        """The name rulings and their JSON use: ``<terrain>:<side>`` (``roof:north``)."""
        return f"{self.terrain}:{self.side}"


@dataclass(frozen=True, slots=True)
class PointRef:
    """A point on the table, in the scenario's units (a target that is a point)."""

    x: float
    y: float

    @property
    def name(self) -> str:
        """The name rulings and their JSON use: ``point(x,y)`` (``%g`` numbers).

        >>> PointRef(200.0, -0.5).name
        'point(200,-0.5)'
        """
        return f"point({self.x:g},{self.y:g})"


PieceRef = ModelRef | TerrainRef | EdgeRef
"""What a cover entry, an ignored entry, a crossing or a line-of-sight blocker names."""

TargetRef = ModelRef | TerrainRef | PointRef
"""What a shot is aimed at: a model, a terrain piece or a point."""

Ref = ModelRef | TerrainRef | EdgeRef | PointRef
"""Any reference a reason may carry."""

REF_TYPES = (ModelRef, TerrainRef, EdgeRef, PointRef)
"""The reference classes, for ``isinstance``."""
