"""One predicate per threshold, each with its named tolerance (docs/rules.md, "Conventions").

* Contact: two bases touch when their gap is at most the contact tolerance
  (:func:`touching`; rounding allowed by :data:`~fwwrules.constants.LENGTH_EPSILON_MM`);
  :func:`contact_reach` is that largest gap, for the code that needs it as a distance, and
  :func:`overlapping` its other side: a base overlapping another base or a solid piece by more
  than the contact tolerance (a placement the rules refuse).
* Rulers: every comparison against a ruler length (range band ends, minimum range, Orange for
  Elevated, levels and Significant Edges, "within Orange") goes through :func:`within_ruler`
  or :func:`reaches_ruler` with the ruler tolerance, which is the contact tolerance
  (``scenario.ruler_tolerance_mm``, scenario option ``contact_tolerance``), in the rulebook's
  favour of "within". :func:`levels_apart` is the one height comparison of
  ``elevation.elevated``: a base Orange or more higher is Elevated, and two bases that far
  apart in height stand on different levels (never in contact, free to share a footprint).

The predicates take plain floats or numpy arrays alike.

>>> within_ruler(50.8 + 0.5, 50.8, 0.5), within_ruler(50.8 + 0.51, 50.8, 0.5)
(True, False)
>>> reaches_ruler(50.8 - 0.5, 50.8, 0.5), reaches_ruler(50.8 - 0.51, 50.8, 0.5)
(True, False)
>>> touching(0.5, 0.5), touching(0.51, 0.5)
(True, False)
>>> overlapping(-0.5, 0.5), overlapping(-0.51, 0.5)
(False, True)
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from .constants import LENGTH_EPSILON_MM

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


def contact_reach(contact_tolerance_mm: float) -> float:
    """The largest gap (mm) at which two bases, or a base and a piece, still touch: the contact
    tolerance plus the rounding a moved board brings (:func:`touching` compares with it)."""
    return contact_tolerance_mm + LENGTH_EPSILON_MM


@overload
def touching(gap_mm: float, contact_tolerance_mm: float) -> bool: ...
@overload
def touching(gap_mm: FloatArray, contact_tolerance_mm: float) -> BoolArray: ...
def touching(gap_mm: Any, contact_tolerance_mm: float) -> Any:
    """Bases in contact: the gap (negative for an overlap) is at most the contact tolerance."""
    return gap_mm <= contact_reach(contact_tolerance_mm)


@overload
def overlapping(gap_mm: float, contact_tolerance_mm: float) -> bool: ...
@overload
def overlapping(gap_mm: FloatArray, contact_tolerance_mm: float) -> BoolArray: ...
def overlapping(gap_mm: Any, contact_tolerance_mm: float) -> Any:
    """Overlapping by more than the contact tolerance (the gap, negative for an overlap, is
    below minus :func:`contact_reach`): bases, or a base and a solid piece, that may not stand
    so. An overlap of exactly the tolerance is contact, and allowed."""
    return gap_mm < -contact_reach(contact_tolerance_mm)


def ruler_reach(ruler_mm: float, tolerance_mm: float) -> float:
    """The longest distance (mm) still within the ruler: its length plus the ruler tolerance
    (:func:`within_ruler` compares with it; where a ruling that measures with the ruler
    flips)."""
    return ruler_mm + tolerance_mm


def ruler_floor(ruler_mm: float, tolerance_mm: float) -> float:
    """The shortest length (mm) that still reaches the ruler: its length less the ruler
    tolerance (:func:`reaches_ruler` compares with it)."""
    return ruler_mm - tolerance_mm


@overload
def within_ruler(distance_mm: float, ruler_mm: float, tolerance_mm: float) -> bool: ...
@overload
def within_ruler(distance_mm: FloatArray, ruler_mm: float, tolerance_mm: float) -> BoolArray: ...
def within_ruler(distance_mm: Any, ruler_mm: float, tolerance_mm: float) -> Any:
    """``distance_mm`` lies within the ruler: at most its length plus the tolerance."""
    return distance_mm <= ruler_reach(ruler_mm, tolerance_mm)


@overload
def reaches_ruler(length_mm: float, ruler_mm: float, tolerance_mm: float) -> bool: ...
@overload
def reaches_ruler(length_mm: FloatArray, ruler_mm: float, tolerance_mm: float) -> BoolArray: ...
def reaches_ruler(length_mm: Any, ruler_mm: float, tolerance_mm: float) -> Any:
    """``length_mm`` is at least the ruler's length (less the tolerance): "Orange or more"."""
    return length_mm >= ruler_floor(ruler_mm, tolerance_mm)


@overload
def levels_apart(height_difference_mm: float, orange_mm: float, tolerance_mm: float) -> bool: ...
@overload
def levels_apart(
    height_difference_mm: FloatArray, orange_mm: float, tolerance_mm: float
) -> BoolArray: ...
def levels_apart(height_difference_mm: Any, orange_mm: float, tolerance_mm: float) -> Any:
    """``elevation.elevated``: a base ``height_difference_mm`` higher than another stands at
    least Orange higher (:func:`reaches_ruler`): it is Elevated, and the two stand on different
    levels. Pass ``abs(difference)`` to ask whether two bases share a level.

    >>> levels_apart(50.8, 50.8, 0.5), levels_apart(50.2, 50.8, 0.5), levels_apart(-60, 50.8, 0.5)
    (True, False, False)
    """
    return reaches_ruler(height_difference_mm, orange_mm, tolerance_mm)
