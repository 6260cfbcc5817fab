"""The panels' arguments checked before any control is made: a wrong value is refused with
a message that names it and what would do (an ipywidgets Dropdown refuses it with a bare
``TraitError: Invalid selection: value not found``).

Wrong ids are :class:`~fwwrules.errors.UnknownIdError` (a ``KeyError``), like the same typo in
:func:`fwwrules.ruling`; other wrong values are :class:`~fwwrules.errors.QueryError` (a
``ValueError``); a wrong kind of thing (a file name where a scenario belongs) is a
``TypeError``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from fwwrules.catalogue import LANGS
from fwwrules.errors import QueryError, UnknownIdError


def one_of(what: str, value: Any, choices: Iterable[Any], whose: str = "") -> Any:
    """``value`` when it is one of ``choices``; else a QueryError naming both (``whose``
    follows the value: " for Knight"):

    >>> one_of("language", "fr", ("en", "de"))
    Traceback (most recent call last):
    ...
    fwwrules.errors.QueryError: unknown language 'fr'; expected one of en, de
    """
    known = list(choices)
    if not isinstance(value, str | int | float | None) or value not in known:
        listed = ", ".join(str(k) for k in known) or "none"
        raise QueryError(f"unknown {what} {value!r}{whose}; expected one of {listed}")
    return value


def language(value: Any) -> str:
    """A language the panels speak (``en``, ``de``)."""
    return str(one_of("language", value, LANGS))


def an_id(role: str, value: Any, ids: Sequence[str], source: str = "") -> str:
    """``value`` when it is one of ``ids`` (``role``: "attacker", "target", ...); else an
    UnknownIdError naming the role, the value and the ids."""
    if not isinstance(value, str) or value not in ids:
        raise UnknownIdError(role, value if isinstance(value, str) else repr(value), ids, source)
    return value


def interactive(value: Any) -> bool | None:
    """The ``interactive`` argument: True, False or None (the live canvas when installed)."""
    if value is not None and not isinstance(value, bool):
        raise QueryError(f"interactive must be True, False or None, got {value!r}")
    return value


def scenario(panel: str, value: Any, kind: type) -> Any:
    """``value`` when it is a ``kind`` (a loaded scenario); else a TypeError saying how to
    get one."""
    if not isinstance(value, kind):
        how = "fwwrules.load(path) or fwwrules.loads(text)"
        got = f"the text {value!r}" if isinstance(value, str) else type(value).__name__
        raise TypeError(f"{panel} needs a {kind.__name__} ({how}), not {got}")
    return value


def style(value: Any, kind: type) -> Any:
    """``value`` when it is a ``kind`` (a board or grid style); else a TypeError saying how
    to make one."""
    if not isinstance(value, kind):
        raise TypeError(
            f"style must be a {kind.__name__} (dataclasses.replace(DEFAULT_STYLE, ...) from "
            f"{kind.__module__}), not {value!r}"
        )
    return value


def pixels(what: str, value: Any) -> int | None:
    """None, or a whole number of CSS pixels from 100 to 10000 (a canvas of fewer pixels shows
    no board; more is no screen)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 10_000:
        raise QueryError(
            f"{what} must be a whole number of pixels from 100 to 10000, got {value!r}"
        )
    return value


def positive(what: str, value: Any) -> float | None:
    """None, or a finite number above 0."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise QueryError(f"{what} must be a positive number, got {value!r}")
    if not math.isfinite(value):
        raise QueryError(f"{what} must be a positive number, got {value!r}")
    return float(value)


def area(value: Any) -> tuple[float, float, float, float] | None:
    """None, or ``(x0, y0, x1, y1)``: four finite numbers with x0 < x1 and y0 < y1."""
    if value is None:
        return None
    try:
        x0, y0, x1, y1 = (float(v) for v in value)
    except (TypeError, ValueError):
        raise QueryError(f"area must be (x0, y0, x1, y1), four numbers; got {value!r}") from None
    if not all(math.isfinite(v) for v in (x0, y0, x1, y1)) or not (x0 < x1 and y0 < y1):
        raise QueryError(
            f"area must be (x0, y0, x1, y1) with x0 < x1 and y0 < y1, finite; got {value!r}"
        )
    return (x0, y0, x1, y1)
