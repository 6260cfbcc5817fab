"""Field types shared by the file formats (``fwwrules/scenario@1`` and ``fwwrules/grid@1``).

One definition of each: an id, a display text, a strict number, a point. Importing this module
imports pydantic, so only the readers of files (and ``fwwrules schema``) import it.

Boundary cases
--------------
* :data:`Text` is one line of at most 200 characters with no control character (C0, DEL or
  C1: ``\\x00``-``\\x1f``, ``\\x7f``-``\\x9f``), so a name can never drive a terminal (a
  tab is a control character too), and no bidirectional control or invisible character, so a
  name can neither reverse the line it stands in nor pass for another
  (:mod:`fwwrules.checks` states the rule; the check of a board built in Python uses it too).
* Numbers are strict: a string (``"40"``) or a boolean (``true``) is an error, never converted;
  infinities and NaN are refused; absolute values above ``MAX_COORDINATE`` are refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StringConstraints,
    Tag,
    WithJsonSchema,
)

from .catalogue import Lang
from .checks import IDENT_MAX_LENGTH as IDENT_MAX_LENGTH
from .checks import IDENT_PATTERN as IDENT_PATTERN
from .checks import TEXT_MAX_LENGTH as TEXT_MAX_LENGTH
from .checks import TEXT_PATTERN as TEXT_PATTERN
from .checks import ident_problem, nfc
from .constants import MAX_COORDINATE
from .loading import describe


def _ident(value: str) -> str:
    problem = ident_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


Ident = Annotated[
    str,
    BeforeValidator(nfc),
    StringConstraints(strict=True),
    AfterValidator(_ident),
    WithJsonSchema({"type": "string", "pattern": IDENT_PATTERN, "maxLength": IDENT_MAX_LENGTH}),
]
"""An id, read in NFC (:func:`fwwrules.checks.ident_problem` states the rule: lowercase
letters of any script, digits and ``-``)."""

Text = Annotated[
    str, StringConstraints(strict=True, max_length=TEXT_MAX_LENGTH, pattern=TEXT_PATTERN)
]


def _title_form(value: Any) -> str:
    return "languages" if isinstance(value, dict) else "text"


def _some_title(value: Any) -> Any:
    if isinstance(value, dict) and not value:
        raise ValueError("expected text, or a text per language such as {en: ..., de: ...}")
    return value


Title = Annotated[
    Annotated[Text, Tag("text")] | Annotated[dict[Lang, Text], Tag("languages")],
    Discriminator(_title_form),
    AfterValidator(_some_title),
    WithJsonSchema(
        {
            "oneOf": [
                {"type": "string", "maxLength": TEXT_MAX_LENGTH, "pattern": TEXT_PATTERN},
                {
                    "type": "object",
                    "propertyNames": {"enum": ["en", "de"]},
                    "additionalProperties": {
                        "type": "string",
                        "maxLength": TEXT_MAX_LENGTH,
                        "pattern": TEXT_PATTERN,
                    },
                    "minProperties": 1,
                },
            ]
        }
    ),
]
"""A title: one text, or one per language of the catalogue (``{en: ..., de: ...}``, at least
one). A mapping is checked as a mapping and anything else as text, so a problem is reported
once, at its place (``title.fr``)."""


Name = Title
"""A piece's display name, in the same two forms as a title: one text, or one per language
(``name: {en: Crate, de: Kiste}``)."""


def title_value(title: str | Mapping[Any, str] | None) -> str | dict[str, str] | None:
    """A parsed title (or name) as the model keeps it: the text, or a plain dict by
    language."""
    return (
        title if title is None or isinstance(title, str) else {str(k): v for k, v in title.items()}
    )


Number = Annotated[
    float, Field(strict=True, allow_inf_nan=False, ge=-MAX_COORDINATE, le=MAX_COORDINATE)
]
NonNegative = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=MAX_COORDINATE)]
Positive = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_COORDINATE)]
Point = tuple[Number, Number]


class Spec(BaseModel):
    """Base of every file-format model: unknown keys are errors; parsed values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


def items(n: int) -> str:
    """``1 item``, ``2 items``."""
    return f"{n} item" + ("" if n == 1 else "s")


def point_before(value: Any) -> Any:
    """A point is a list of exactly two numbers; say so in one message, not per index."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"expected a point [x, y] (got {describe(value)})")
    if len(value) != 2:
        raise ValueError(f"expected a point [x, y] (got {items(len(value))})")
    return value


def pair_before(value: Any) -> Any:
    """A size is a list of exactly two numbers ``[width, height]``."""
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"expected [width, height] (got {describe(value)})")
    if len(value) != 2:
        raise ValueError(f"expected [width, height] (got {items(len(value))})")
    return value
