"""One grammar for the plain values of both file formats: what ``40``, ``true`` or ``1e3`` mean.

JSON and YAML disagree about numbers, and so do YAML's two versions: PyYAML (YAML 1.1) reads
``040`` as the octal number 32, ``1:00`` as 60 (base 60), ``0x20``, ``0b100000`` and ``3_2`` as
32 and ``1e3`` as text, where YAML 1.2 reads ``040`` as 40 and ``1e3`` as 1000, and JSON refuses
all of them but ``1e3``. A scenario file must mean one thing to every reader, so an unquoted
YAML value is read here by the rules of JSON (and YAML 1.2's core schema, which agrees with JSON
on every form JSON allows):

* ``null``, ``~`` or nothing: null; ``true`` / ``false`` (also ``True``, ``TRUE`` ...): booleans;
* a number exactly as JSON writes it: an optional minus, digits without a leading zero, an
  optional fraction with digits on both sides of the point, an optional exponent (``40``,
  ``-2.5``, ``1e3``, ``2.5E-3``); a whole number without fraction or exponent is an integer;
* ``.inf`` and ``.nan`` are read as numbers so that the format can refuse them by name;
* every other form that some reader takes for a number or a boolean is **refused**, naming the
  form: a leading zero (``040``), a leading ``+``, hexadecimal, octal or binary (``0x20``,
  ``0o40``, ``0b100000``), digit groups (``3_2``), base 60 (``1:00``), a bare point (``.5``,
  ``5.``) and YAML 1.1's ``yes``/``no``/``on``/``off``. Quoted, any of them is text;
* anything else is text.

Explicit tags get the same grammar: ``!!str`` (or ``!``) makes text of anything, ``!!int``,
``!!float``, ``!!bool`` and ``!!null`` accept only what a plain value of that type may be
(``!!float 1`` is 1.0; ``!!bool maybe``, ``!!int 0x`` and ``!!float ""`` are refused).

The writer (:class:`Dumper`, used by :func:`fwwrules.saving.dump_text`) quotes every text that
this grammar would not read back as the same text, so what is saved loads back equal.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL = (TAG + n for n in ("str", "int", "float", "bool", "null"))

_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))
_YAML11_BOOLS = frozenset(w for b in ("yes", "no", "on", "off") for w in (b, b.title(), b.upper()))

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_SPECIAL_FLOAT = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_CORE12_NUMBER = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
)
_YAML11: Any = yaml.resolver.Resolver()

GRAMMAR_HINT = "write numbers in decimal as JSON does (40, -2.5, 1e3), or quote text"


class ScalarFormError(ValueError):
    """A value written in a form the grammar refuses; the message names the form."""


def _number_form(value: str) -> str:
    """Why ``value``, a number to some YAML reader, is not one of JSON's numbers."""
    body = value.lstrip("+-")
    if value.startswith("+"):
        return f"the number {value} has a leading '+' (JSON has none)"
    if body[:2].lower() in ("0x", "0o", "0b"):
        base = {"0x": "hexadecimal", "0o": "octal", "0b": "binary"}[body[:2].lower()]
        return f"the {base} number {value} is not read (only decimal is)"
    if "_" in body:
        return f"the number {value} has digit groups '_' (YAML 1.1 reads it as {_yaml11(value)})"
    if ":" in body:
        return f"YAML 1.1 reads {value} as a base-60 number ({_yaml11(value)})"
    if re.match(r"0[0-9]", body):
        return f"the number {value} has a leading zero (YAML 1.1 reads it as {_yaml11(value)})"
    if body.startswith(".") or re.search(r"\.(?![0-9])", body):
        return f"the number {value} needs a digit on both sides of the point"
    return f"the number {value} is not written as JSON writes numbers"


def _yaml11(value: str) -> str:
    """What PyYAML (YAML 1.1) reads ``value`` as, for the message."""
    tag = _YAML11.resolve(yaml.ScalarNode, value, (True, False))
    try:
        node = yaml.ScalarNode(tag, value)
        read = yaml.SafeLoader("").construct_object(node)
    except (yaml.YAMLError, ValueError, KeyError, IndexError):
        return "something else"
    return repr(read) if isinstance(read, (int, float)) else "text"


def plain_tag(value: str) -> str:
    """The tag an unquoted, untagged YAML value has under this grammar.

    Returns one of :data:`STR`, :data:`INT`, :data:`FLOAT`, :data:`BOOL`, :data:`NULL`, or
    YAML 1.1's tag for other implicit types (a date is ``!!timestamp``, ``<<`` is ``!!merge``)
    for the reader to refuse by name. Raises :class:`ScalarFormError` for the refused forms.

    >>> [plain_tag(v).rsplit(":", 1)[1] for v in ("40", "-2.5", "1e3", "true", "~", "3d6")]
    ['int', 'float', 'float', 'bool', 'null', 'str']
    >>> try:
    ...     plain_tag("040")
    ... except ScalarFormError as exc:
    ...     print(str(exc).split(";")[0])
    the number 040 has a leading zero (YAML 1.1 reads it as 32)
    """
    if value in _NULLS:
        return NULL
    if value in _TRUE or value in _FALSE:
        return BOOL
    match = _JSON_NUMBER.fullmatch(value)
    if match:
        return FLOAT if match.group(1) or match.group(2) else INT
    if _SPECIAL_FLOAT.fullmatch(value):
        return FLOAT
    if value in _YAML11_BOOLS:
        raise ScalarFormError(
            f"{value} is {'true' if value.lower() in ('yes', 'on') else 'false'} in YAML 1.1 "
            "but text in YAML 1.2 and JSON; write true or false, or quote text"
        )
    tag: str = _YAML11.resolve(yaml.ScalarNode, value, (True, False))
    if tag in (INT, FLOAT) or _CORE12_NUMBER.fullmatch(value):
        raise ScalarFormError(f"{_number_form(value)}; {GRAMMAR_HINT}")
    return tag


def construct(tag: str, value: str) -> Any:
    """The value of a scalar whose tag :func:`plain_tag` gave, or that a file tagged
    explicitly (``!!int 40``); raises :class:`ScalarFormError` when the text is not a value of
    that type in this grammar (``!!bool maybe``)."""
    if tag == STR:
        return value
    try:
        implicit = plain_tag(value)
    except ScalarFormError:
        implicit = STR
    if tag == FLOAT and implicit in (INT, FLOAT):
        return _special_float(value) if _SPECIAL_FLOAT.fullmatch(value) else float(value)
    if tag != implicit:
        short = tag.replace(TAG, "!!")
        want = {
            INT: "a whole number in decimal, such as 40",
            FLOAT: "a number in decimal, such as 2.5",
            BOOL: "true or false",
            NULL: "null or nothing",
        }[tag]
        raise ScalarFormError(f"{value!r} is not a valid {short} value (expected {want})")
    if tag == INT:
        return int(value)
    if tag == BOOL:
        return value in _TRUE
    return None


def _special_float(value: str) -> float:
    if value.lstrip("+-").lower() == ".nan":
        return float("nan")
    return float("-inf") if value.startswith("-") else float("inf")


class Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, deciding plain or quoted by this grammar: a text that would not
    read back as the same text (``1e3``, ``010``, ``yes``, ``null``) is written in quotes."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if kind is yaml.ScalarNode and implicit[0]:
            try:
                return plain_tag(value)
            except ScalarFormError:
                return TAG + "refused"  # matches no node: the emitter quotes the text
        return super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
