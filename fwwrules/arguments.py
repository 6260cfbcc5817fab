"""What a caller passes to a rule, checked once: scenarios, points and lengths.

Every public call a notebook user makes (:func:`fwwrules.ruling`, ``withdraw``, ``slide``,
``move_model``, ``save`` ...) and every command-line argument that is a position goes through
these checks, so a wrong type, a NaN or a position beyond what a table can be is refused with
the package's own :class:`~fwwrules.errors.QueryError` (a ``ValueError``; the CLI's exit 2)
instead of a raw Python error deep inside, or a ruling that carries NaN or Infinity.

Boundary cases
--------------
* A point is any sequence of exactly two real numbers (a tuple, a list, a numpy array);
  booleans and text are not numbers.
* Coordinates may be as large as the file format allows, :data:`MAX_COORDINATE` in the
  scenario's units (a position at exactly the limit is accepted), so any board a file can hold
  can be asked about, and nothing beyond it.
"""

from __future__ import annotations

import math
import os
from numbers import Integral, Real
from typing import Any

from .constants import MAX_COORDINATE
from .data import Scenario
from .errors import QueryError
from .pieces import Bounds


def describe(value: Any) -> str:
    """A short, safe rendering of a value, for "(got ...)" in messages (quoted text escapes
    every character a terminal would act on).

    >>> describe("wall"), describe(True), describe(None), describe(2.5), describe([1])
    ("'wall'", 'true', 'null', '2.5', 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and value.bit_length() > 128:  # str() of 10**5000 fails
        return f"a whole number of about {int(value.bit_length() * math.log10(2))} digits"
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= 40 else repr(value[:30]) + "..."
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def _describe(value: Any) -> str:
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:30]) + "..."
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)} item{'s' if len(value) != 1 else ''}"
    return type(value).__name__ if not isinstance(value, Real) else repr(value)


def number(value: Any, what: str, *, limit: float = MAX_COORDINATE) -> float:
    """``value`` as a finite float of absolute value at most ``limit``, else a
    :class:`QueryError` naming ``what``.

    >>> number(3, "x")
    3.0
    >>> number(float("nan"), "x")
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: x must be a finite number, got nan
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        raise QueryError(f"{what} must be a number, got {_describe(value)}")
    if isinstance(value, Integral) and abs(int(value)) > limit:  # 10**400 is no float
        raise QueryError(
            f"{what} lies beyond the coordinate limit of {limit:g} (MAX_COORDINATE, in the "
            f"scenario's units): got {describe(value)}"
        )
    try:
        v = float(value)
    except (OverflowError, ValueError):
        raise QueryError(f"{what} must be a finite number, got {describe(value)}") from None
    if not math.isfinite(v):
        raise QueryError(f"{what} must be a finite number, got {v!r}")
    if abs(v) > limit:
        raise QueryError(
            f"{what} {v:g} lies beyond the coordinate limit of {limit:g} "
            "(MAX_COORDINATE, in the scenario's units)"
        )
    return v


def point(value: Any, what: str) -> tuple[float, float]:
    """``value`` as a point ``(x, y)`` of finite floats within :data:`MAX_COORDINATE`.

    >>> point([10, 20.5], "the target")
    (10.0, 20.5)
    >>> point((1e307, 0), "the target")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: the target's x 1e+307 lies beyond the coordinate limit of 1e+06 ...
    """
    if isinstance(value, (str, bytes, dict)) or not (
        hasattr(value, "__len__") and hasattr(value, "__iter__")
    ):
        raise QueryError(f"{what} must be a point (x, y) of two numbers, got {_describe(value)}")
    items = list(value)
    if len(items) != 2:
        raise QueryError(
            f"{what} must be a point (x, y) of two numbers, got {len(items)} item"
            + ("" if len(items) == 1 else "s")
        )
    return (number(items[0], f"{what}'s x"), number(items[1], f"{what}'s y"))


def area(value: Any, what: str) -> Bounds:
    """``value`` as :class:`~fwwrules.pieces.Bounds` ``(x0, y0, x1, y1)``: four finite numbers
    within the coordinate limit with ``x0 < x1`` and ``y0 < y1`` (:func:`area_order`), else a
    :class:`QueryError` saying the numbers given and what is wrong.

    >>> area((0, 0, 1), "area")
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: area must be (x0, y0, x1, y1), four numbers, got a tuple of 3 items
    """
    if isinstance(value, (str, bytes, dict)) or not (
        hasattr(value, "__len__") and hasattr(value, "__iter__")
    ):
        raise QueryError(f"{what} must be (x0, y0, x1, y1), four numbers, got {_describe(value)}")
    items = list(value)
    if len(items) != 4:
        raise QueryError(f"{what} must be (x0, y0, x1, y1), four numbers, got {_describe(value)}")
    x0, y0, x1, y1 = (
        number(v, f"{what}'s {n}") for v, n in zip(items, ("x0", "y0", "x1", "y1"), strict=True)
    )
    wrong = area_order(x0, y0, x1, y1)
    if wrong:
        raise QueryError(f"{what} ({x0:g}, {y0:g}, {x1:g}, {y1:g}): {wrong}")
    return Bounds(x0, y0, x1, y1)


def area_order(x0: float, y0: float, x1: float, y1: float) -> str | None:
    """What is wrong with the corners of an area ``(x0, y0, x1, y1)`` (``x0 < x1`` and
    ``y0 < y1``: an area of no width or height is none), or ``None``.

    >>> area_order(30, 0, 10, 10)  # doctest: +ELLIPSIS
    'x1 (10) must be greater than x0 (30): X0,Y0 is one corner, X1,Y1 the opposite one ...'
    >>> area_order(0, 0, 10, 10) is None
    True
    """
    wrong = []
    if not x0 < x1:
        wrong.append(f"x1 ({x1:g}) must be greater than x0 ({x0:g})")
    if not y0 < y1:
        wrong.append(f"y1 ({y1:g}) {'' if wrong else 'must be '}greater than y0 ({y0:g})")
    if not wrong:
        return None
    return " and ".join(wrong) + (
        ": X0,Y0 is one corner, X1,Y1 the opposite one with the larger x and y"
    )


def table_size(value: Any, units: str, what: str = "the table's size") -> tuple[float, float]:
    """``value`` as a table size ``(width, height)``: two finite numbers above 0 and within
    :data:`MAX_COORDINATE`, in ``units`` (a file's ``board: {size: ...}`` holds the same).

    >>> table_size((48, 30), "in")
    (48.0, 30.0)
    >>> table_size((-5, 10), "in")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: the table's size must be (width, height), two numbers above 0 ...
    """
    unit = "inches" if units == "in" else "millimetres"
    expected = f"{what} must be (width, height), two numbers above 0 in {unit}"
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
        raise QueryError(f"{expected}; got {_describe(value)}")
    items = list(value)
    if len(items) != 2 or any(isinstance(v, bool) or not isinstance(v, Real) for v in items):
        raise QueryError(f"{expected}; got {_describe(value)}")
    width, height = (number(v, what) for v in items)
    if width <= 0 or height <= 0:
        raise QueryError(f"{expected}; got ({width:g}, {height:g})")
    return (width, height)


def scenario_object(value: Any, what: str) -> Scenario:
    """``value`` if it is a :class:`~fwwrules.data.Scenario`, checked or not (``move_model``
    takes any board: moving a model off another base makes a refused board usable; what it
    makes is checked when it is ruled on, drawn or mapped: :func:`fwwrules.checks.usable`);
    else a :class:`QueryError` saying what it is (a grid scenario goes to
    :func:`fwwrules.grid_cover`)."""
    if isinstance(value, Scenario):
        return value
    name = type(value).__name__
    hint = "; grid files are asked with grid_cover" if name == "GridScenario" else ""
    raise QueryError(f"{what} needs a fwwrules/scenario@1 scenario, got a {name}{hint}")


def flag(value: Any, what: str) -> bool:
    """``value`` if it is ``True`` or ``False`` (a numpy boolean too), else a
    :class:`QueryError`: ``quick="no"`` must not count as true."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return bool(value)
    raise QueryError(f"{what} must be True or False, got {_describe(value)}")


def file_name(value: Any, what: str = "the file name") -> str:
    """``value`` (text or a path) as a string, else a :class:`QueryError`."""
    if isinstance(value, (str, os.PathLike)):
        name = os.fspath(value)
        if isinstance(name, str):
            return name
    raise QueryError(f"{what} must be text or a path, got {_describe(value)}")


def ident(value: Any, what: str) -> str:
    """``value`` if it is text (an id), else a :class:`QueryError`."""
    if isinstance(value, str):
        return value
    raise QueryError(f"{what} must be an id (text), got {_describe(value)}")
