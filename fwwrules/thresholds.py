"""One predicate per threshold, each with its named tolerance (docs/rules.md, "Conventions").

* Contact: two bases touch when their gap is at most the contact tolerance
  (:func:`touching`; rounding allowed by :data:`~fwwrules.constants.LENGTH_EPSILON_MM`).
* Rulers: every comparison against a ruler length (range band ends, minimum range, Orange for
  Elevated, levels and Significant Edges, "within Orange") goes through :func:`within_ruler`
  or :func:`reaches_ruler` with the ruler tolerance, which is the contact tolerance
  (``scenario.ruler_tolerance_mm``, scenario option ``contact_tolerance``), in the rulebook's
  favour of "within".

The predicates take plain floats or numpy arrays alike.

>>> within_ruler(50.8 + 0.5, 50.8, 0.5), within_ruler(50.8 + 0.51, 50.8, 0.5)
(True, False)
>>> reaches_ruler(50.8 - 0.5, 50.8, 0.5), reaches_ruler(50.8 - 0.51, 50.8, 0.5)
(True, False)
>>> touching(0.5, 0.5), touching(0.51, 0.5)
(True, False)
"""

from __future__ import annotations

from typing import Any, overload

import numpy as np
from numpy.typing import NDArray

from .constants import LENGTH_EPSILON_MM

FloatArray = NDArray[np.float64]
BoolArray = NDArray[np.bool_]


@overload
def touching(gap_mm: float, contact_tolerance_mm: float) -> bool: ...
@overload
def touching(gap_mm: FloatArray, contact_tolerance_mm: float) -> BoolArray: ...
def touching(gap_mm: Any, contact_tolerance_mm: float) -> Any:
    """Bases in contact: the gap (negative for an overlap) is at most the contact tolerance."""
    return gap_mm <= contact_tolerance_mm + LENGTH_EPSILON_MM


@overload
def within_ruler(distance_mm: float, ruler_mm: float, tolerance_mm: float) -> bool: ...
@overload
def within_ruler(distance_mm: FloatArray, ruler_mm: float, tolerance_mm: float) -> BoolArray: ...
def within_ruler(distance_mm: Any, ruler_mm: float, tolerance_mm: float) -> Any:
    """``distance_mm`` lies within the ruler: at most its length plus the tolerance."""
    return distance_mm <= ruler_mm + tolerance_mm


@overload
def reaches_ruler(length_mm: float, ruler_mm: float, tolerance_mm: float) -> bool: ...
@overload
def reaches_ruler(length_mm: FloatArray, ruler_mm: float, tolerance_mm: float) -> BoolArray: ...
def reaches_ruler(length_mm: Any, ruler_mm: float, tolerance_mm: float) -> Any:
    """``length_mm`` is at least the ruler's length (less the tolerance): "Orange or more"."""
    return length_mm >= ruler_mm - tolerance_mm
