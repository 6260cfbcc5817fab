"""Reading scenario files safely: YAML or JSON in, plain data and a line locator out.

Nothing in a file is ever executed. YAML goes through a strict safe loader that refuses tags
(``!!python/object`` and friends, custom ``!tags``), anchors and aliases (no "billion laughs"),
duplicate keys and nesting deeper than :data:`~fwwrules.constants.MAX_NESTING`; JSON refuses
duplicate keys and the same depth. Every refusal is a :class:`~fwwrules.errors.ScenarioError`
naming the file, the place inside it and, where the text gives one, the line.

Boundary cases
--------------
* A file of exactly :data:`~fwwrules.constants.MAX_FILE_BYTES` bytes is read; one byte more is
  refused before parsing.
* A UTF-8 byte order mark is accepted (editors on Windows write one).
* JSON's ``NaN`` and ``Infinity`` parse, and are then refused by the schema with their path, as
  YAML's ``.nan`` and ``.inf`` are.
* Implicitly typed YAML values other than text, numbers, booleans and null (dates such as
  ``2024-01-01``) are refused with a hint to quote them.
* Plain values are read by one grammar for both formats (:mod:`fwwrules.scalars`): the numbers
  JSON allows; YAML 1.1's other number forms (``040``, ``1:00``, ``0x20``, ``3_2``) and its
  ``yes``/``no``/``on``/``off`` are refused naming the form; explicit tags take only values of
  their kind (``!!bool maybe`` is refused with the place).
* An anchor (``&name``) is refused even without an alias.
"""

from __future__ import annotations

import errno
import json
import os
import re
import types
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from . import scalars
from .checks import describe as describe
from .checks import text_problem
from .constants import (
    MAX_FILE_BYTES,
    MAX_GRID_WALLS,
    MAX_MODEL_WEAPONS,
    MAX_MODELS,
    MAX_NESTING,
    MAX_NUMBER_CHARS,
    MAX_POLYGON_VERTICES,
    MAX_TERRAIN,
    MAX_WEAPONS,
)
from .errors import FwwError, Problem, QueryError, ScenarioError, printable
from .writing import NotARegularFile, read_regular

_YAML = "tag:yaml.org,2002:"
_PLAIN_TAGS = frozenset(_YAML + name for name in ("str", "int", "float", "bool", "null"))
_COLLECTION_TAGS = frozenset(_YAML + name for name in ("map", "seq"))
_IMPLICIT_TAGS = frozenset(_YAML + name for name in ("timestamp", "merge", "value"))

Path_ = tuple[str | int, ...]


class Document:
    """A parsed file: its data, the name used in messages, and where each value stands.

    ``root`` is the YAML node tree (JSON text is composed as YAML for this); it is ``None``
    when no line numbers are known. It is composed from the text only when first asked for
    (a message needs a line): composing costs several times more than reading the data.
    """

    __slots__ = ("_index", "_json", "_root", "_text", "data", "source")

    def __init__(
        self,
        data: Any,
        source: str,
        root: yaml.Node | None = None,
        *,
        text: str | None = None,
        json_: bool = False,
    ) -> None:
        self.data = data
        self.source = source
        self._root = root
        self._text = text
        self._json = json_
        self._index: dict[tuple[str | int, ...], int] | None = None

    @property
    def root(self) -> yaml.Node | None:
        if self._root is None and self._text is not None:
            text, self._text = self._text, None
            self._root = _json_nodes(text) if self._json else _yaml_nodes(text)
        return self._root

    def line(self, path: Sequence[str | int]) -> int | None:
        """The 1-based line of the value at ``path``, or of its nearest ancestor.

        A mapping entry is located by its key, so ``models[2].base`` points at the line of
        ``base:`` even when the value starts on the next line. Text read by this module is
        located from one more pass over its events (no node tree is built for it).
        """
        if self._root is None and self._text is not None:
            if self._index is None:
                text = _for_yaml(self._text) if self._json else self._text
                try:
                    self._index = _line_index(text)
                except (yaml.YAMLError, LimitError):  # pragma: no cover - the text was read
                    self._index = {}
            return _lookup(self._index, path)
        node = self.root
        line = None if node is None else node.start_mark.line + 1
        for part in path:
            child: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                        child = value
                        line = key.start_mark.line + 1
                        break
            elif (
                isinstance(node, yaml.SequenceNode)
                and isinstance(part, int)
                and 0 <= part < len(node.value)
            ):
                child = node.value[part]
                line = child.start_mark.line + 1
            if child is None:
                break
            node = child
        return line

    def problem(self, path: Sequence[str | int], message: str) -> Problem:
        return Problem(tuple(path), message, self.line(path))

    def fail(self, path: Sequence[str | int], message: str) -> ScenarioError:
        return ScenarioError(self.source, [self.problem(path, message)])


# ---------------------------------------------------------------------------------------------
# YAML
# ---------------------------------------------------------------------------------------------


_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's safe loader when PyYAML was built with it (about ten times faster), else PyYAML's."""


SEQUENCE_LIMITS: tuple[tuple[tuple[str | None, ...], int, str, str], ...] = (
    (("models",), MAX_MODELS, "MAX_MODELS", "models"),
    (("terrain",), MAX_TERRAIN, "MAX_TERRAIN", "terrain pieces"),
    (("weapons",), MAX_WEAPONS, "MAX_WEAPONS", "weapons"),
    (("terrain", None, "polygon"), MAX_POLYGON_VERTICES, "MAX_POLYGON_VERTICES", "corners"),
    (("models", None, "weapons"), MAX_MODEL_WEAPONS, "MAX_MODEL_WEAPONS", "weapons"),
    (("models", None, "keywords"), MAX_MODEL_WEAPONS, "MAX_MODEL_WEAPONS", "keywords"),
    (("models", None, "status"), MAX_MODEL_WEAPONS, "MAX_MODEL_WEAPONS", "status markers"),
    (("walls",), MAX_GRID_WALLS, "MAX_GRID_WALLS", "walls"),
    (("creatures",), MAX_MODELS, "MAX_MODELS", "creatures"),
)
"""Lists whose length is limited, by path (``None`` stands for any index): the limit, its
name in :mod:`fwwrules.constants` and what the items are. Checked while the file is read,
before anything is built, for YAML and JSON alike; the schemas state the same limits."""


class LimitError(ValueError):
    """A file goes over one of the limits of :mod:`fwwrules.constants` (path, message)."""

    def __init__(self, path: Path_, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.message = message
        self.line = line


_LIMITS_BY_PATTERN: dict[tuple[str | None, ...], tuple[int, str, str]] = {}
for _pattern, _limit, _name, _what in SEQUENCE_LIMITS:
    _LIMITS_BY_PATTERN.setdefault(_pattern, (_limit, _name, _what))
_LONGEST_PATTERN = max(len(p) for p in _LIMITS_BY_PATTERN)


def _sequence_limit(path: Path_) -> tuple[int, str, str] | None:
    """The limit of the list at ``path`` (:data:`SEQUENCE_LIMITS`), or None: one lookup (it
    runs for every list of a file, tens of thousands in a big grid file)."""
    if len(path) > _LONGEST_PATTERN:
        return None
    return _LIMITS_BY_PATTERN.get(tuple(None if isinstance(p, int) else p for p in path))


def _too_many(path: Path_, limit: tuple[int, str, str]) -> str:
    n, name, what = limit
    return f"more than {n} {what}: the limit is {n} ({name})"


def _too_long(value: str) -> str:
    return (
        f"a number of {len(value)} characters ({value[:12]}...): the limit is "
        f"{MAX_NUMBER_CHARS} characters (MAX_NUMBER_CHARS)"
    )


_NUMBER_TAGS = frozenset((_YAML + "int", _YAML + "float"))


class _Frame:
    """One open collection while the event stream is read: the place of its current child."""

    __slots__ = ("count", "is_seq", "key_line", "key_next", "limit", "line", "part")

    def __init__(self, is_seq: bool, limit: tuple[int, str, str] | None, line: int) -> None:
        self.is_seq = is_seq
        self.part: str | int = 0
        self.key_next = True
        self.count = 0
        self.limit = limit
        self.line = line  # where the collection is named: its key's line, or its own start
        self.key_line = line


def _resolve(loader: Any, value: str, implicit: tuple[bool, bool]) -> str:
    """The tag YAML gives a plain scalar (``!!int``, ``!!float``, ``!!str`` ...)."""
    return str(loader.resolve(yaml.ScalarNode, value, implicit))


def _walk(loader: Any, *, limits: bool = True) -> Iterator[tuple[Any, list[_Frame], bool]]:
    """The one walk over a YAML event stream that every reader here shares.

    Yields ``(event, stack, is_key)``: for a node event, ``stack`` holds the open collections
    (outermost first), each ``part`` already set to this event's place (a list index, or the
    key a mapping value belongs to), and ``is_key`` says whether the event is a mapping key; a
    collection's start opens its frame only after the consumer has seen the event. Other events
    (a collection's end, after its frame is closed; document and stream events) come with
    ``is_key`` False. Reading events is iterative, so neither a "billion laughs" nor
    ``[[[[...]]]]`` can expand or recurse.

    Refuses, at the first offending event: aliases and nesting deeper than
    :data:`MAX_NESTING` (YAML errors), and with ``limits`` lists over
    :data:`SEQUENCE_LIMITS` (:class:`LimitError`: a list of a million models is refused at
    its 201st).
    """
    stack: list[_Frame] = []
    while loader.check_event():
        event: Any = loader.get_event()
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            yield event, stack, False
            continue
        if not isinstance(event, yaml.NodeEvent):
            yield event, stack, False
            continue
        mark: Any = event.start_mark
        if isinstance(event, yaml.AliasEvent):
            msg = "YAML anchors and aliases (*name) are not allowed"
            raise yaml.MarkedYAMLError(None, None, msg, mark)
        is_key = False
        if stack:
            parent = stack[-1]
            if parent.is_seq:
                parent.part = parent.count
                parent.count += 1
                if parent.limit is not None and parent.count > parent.limit[0]:
                    path = tuple(f.part for f in stack[:-1])
                    raise LimitError(path, _too_many(path, parent.limit), parent.line)
            else:
                is_key = parent.key_next
                parent.key_next = not is_key
                if is_key:
                    parent.part = event.value if isinstance(event, yaml.ScalarEvent) else "?"
                    parent.key_line = mark.line + 1
        if event.anchor is not None:
            path = tuple(f.part for f in stack)
            msg = f"YAML anchors (&{event.anchor}) and aliases are not allowed: write the value out"
            raise LimitError(path, msg, mark.line + 1)
        start = isinstance(event, yaml.CollectionStartEvent)
        if start and len(stack) >= MAX_NESTING:
            msg = f"nested deeper than {MAX_NESTING} levels"
            raise yaml.MarkedYAMLError(None, None, msg, mark)
        yield event, stack, is_key
        if start:
            seq = isinstance(event, yaml.SequenceStartEvent)
            path = tuple(f.part for f in stack)
            line = mark.line + 1
            if stack and not stack[-1].is_seq:
                line = stack[-1].key_line
            limit = _sequence_limit(path) if seq and limits else None
            stack.append(_Frame(seq, limit, line))


def _precheck(text: str) -> None:
    """Refuse aliases, deep nesting, over-long numbers and over-long lists (see
    :data:`SEQUENCE_LIMITS`) from the event stream (:func:`_walk`), before any tree is built:
    for JSON text composed as YAML to locate a problem (YAML text is only composed after
    :func:`_build_yaml` accepted it, which refuses all of these itself). Raises
    :class:`LimitError` for a limit, YAML errors otherwise.
    """
    loader = _Loader(text)
    try:
        for event, stack, is_key in _walk(loader):
            if not isinstance(event, yaml.ScalarEvent):
                continue
            value = event.value
            if (
                len(value) > MAX_NUMBER_CHARS
                and event.implicit[0]
                and _resolve(loader, value, event.implicit) in _NUMBER_TAGS
            ):
                path = tuple(f.part for f in (stack[:-1] if is_key else stack))
                mark: Any = event.start_mark
                raise LimitError(path, _too_long(value), mark.line + 1)
    finally:
        loader.dispose()


def check_data_limits(data: Any) -> None:
    """:data:`MAX_NESTING` and :data:`SEQUENCE_LIMITS` on plain data (JSON text, already
    parsed); iterative. Raises :class:`LimitError` for the first list over its limit."""
    stack: list[tuple[Any, Path_]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if len(path) >= MAX_NESTING:
            raise LimitError((), f"nested deeper than {MAX_NESTING} levels")
        if isinstance(value, dict):
            stack.extend((v, (*path, k)) for k, v in value.items() if isinstance(v, (dict, list)))
        elif isinstance(value, list):
            limit = _sequence_limit(path)
            if limit is not None and len(value) > limit[0]:
                raise LimitError(path, _too_many(path, limit))
            stack.extend(
                (v, (*path, i)) for i, v in enumerate(value) if isinstance(v, (dict, list))
            )


def _walk_nodes(root: yaml.Node) -> Iterator[tuple[yaml.Node, Path_, yaml.Node | None]]:
    """Every node with its path; mapping values come with their key node."""
    stack: list[tuple[yaml.Node, Path_, yaml.Node | None]] = [(root, (), None)]
    while stack:
        node, path, key = stack.pop()
        yield node, path, key
        if isinstance(node, yaml.MappingNode):
            for k, v in reversed(node.value):
                part: str | int = k.value if isinstance(k, yaml.ScalarNode) else "?"
                stack.append((v, (*path, part), k))
                if not isinstance(k, yaml.ScalarNode) or k.tag not in _PLAIN_TAGS:
                    stack.append((k, (*path, part), None))
        elif isinstance(node, yaml.SequenceNode):
            for i in reversed(range(len(node.value))):
                stack.append((node.value[i], (*path, i), None))


def _duplicate_in(node: yaml.MappingNode, path: Path_) -> Problem | None:
    seen: set[str] = set()
    for key, _value in node.value:
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                return Problem(
                    (*path, key.value),
                    f"duplicate key {key.value!r} (each key may appear once)",
                    key.start_mark.line + 1,
                )
            seen.add(key.value)
    return None


def _duplicate_key(root: yaml.Node) -> Problem | None:
    """The first duplicate mapping key in the tree, if any."""
    for node, path, _ in _walk_nodes(root):
        if isinstance(node, yaml.MappingNode):
            dup = _duplicate_in(node, path)
            if dup is not None:
                return dup
    return None


def _compose(text: str) -> yaml.Node | None:
    """The node tree of a single YAML document (``None`` when empty); tags are not applied.
    Only for text already checked (:func:`_build_yaml` or :func:`_precheck`): composing is
    recursive."""
    loader = _Loader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    finally:
        loader.dispose()


def _yaml_problem(exc: yaml.YAMLError, text: str) -> Problem:
    """The problem a YAML error states, at its line.

    A character YAML refuses anywhere (a raw NUL, ESC or other control character) is named
    with its code point, line and column, not the reader's offset into the whole text.
    """
    found = _NOT_YAML_PRINTABLE.search(text) if isinstance(exc, yaml.reader.ReaderError) else None
    if found is not None:  # the reader's position counts bytes or characters, by loader
        at = found.start()
        column = at - (text.rfind("\n", 0, at) + 1) + 1
        what = _control_character(ord(found.group()), column)
        return Problem((), f"broken YAML: {what}", text.count("\n", 0, at) + 1)
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        line = None if mark is None else mark.line + 1
        what = " ".join(p for p in (exc.context, exc.problem) if p) or "unreadable YAML"
        if "block" in what:  # PyYAML's words for an indentation mistake
            what += " (check the indentation)"
        return Problem((), f"broken YAML: {what}", line)
    return Problem((), f"broken YAML: {exc}")


_NOT_YAML_PRINTABLE = re.compile(
    r"[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"
)
"""A character YAML refuses anywhere in a stream (YAML 1.1 and 1.2: ``c-printable``)."""
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "backspace", 0x1B: "ESC", 0x7F: "DEL"}
"""Names of the control characters a file most often holds by mistake, for messages."""


def _control_character(character: int, column: int) -> str:
    """``the control character U+001B (ESC) at column 12 cannot stand ...``."""
    code = f"U+{character:04X}"
    name = _CONTROL_NAMES.get(character)
    what = f"{code} ({name})" if name else code
    return f"the control character {what} at column {column} cannot stand in the file; remove it"


def _line_index(text: str) -> dict[tuple[str | int, ...], int]:
    """The line of every value of a YAML text by its path (mapping values: their key's line;
    list items: their own), from one pass over the events (:func:`_walk`, no list limits:
    the text was read already)."""
    loader = _Loader(text)
    index: dict[tuple[str | int, ...], int] = {}
    try:
        for event, stack, is_key in _walk(loader, limits=False):
            if is_key or not isinstance(event, yaml.NodeEvent):
                continue
            mark: Any = event.start_mark
            line = mark.line + 1
            if stack and not stack[-1].is_seq:
                line = stack[-1].key_line
            index.setdefault(tuple(f.part for f in stack), line)
    finally:
        loader.dispose()
    return index


def _lookup(index: Mapping[tuple[str | int, ...], int], path: Sequence[str | int]) -> int | None:
    """The line of ``path`` in a :func:`_line_index`, or of its nearest ancestor."""
    found: tuple[str | int, ...] = ()
    line = index.get(found)
    for part in path:
        for key in (part, str(part)) if isinstance(part, int) else (str(part),):
            if (*found, key) in index:
                found = (*found, key)
                line = index[found]
                break
        else:
            break
    return line


def _yaml_nodes(text: str) -> yaml.Node | None:
    """The node tree of text that :func:`_build_yaml` accepted (for line numbers only)."""
    try:
        return _compose(text)
    except (yaml.YAMLError, RecursionError, LimitError):  # pragma: no cover - text passed
        return None


def _build_yaml(text: str, source: str) -> Any:
    """The data of a single YAML document, read in one pass over the event stream.

    Refuses, at the first offending event and before anything else is built: aliases,
    nesting deeper than :data:`MAX_NESTING`, lists over :data:`SEQUENCE_LIMITS`, numbers over
    :data:`MAX_NUMBER_CHARS`, tags other than plain data (explicit ``!tags`` and implicitly
    typed values such as dates or merge keys), duplicate keys, and a second document.
    """
    loader = _Loader(text)
    values: list[Any] = []  # the collection being built for each open frame
    keys: list[Any] = []  # the pending key of each open mapping frame
    seen: list[set[str] | None] = []
    root: Any = None
    documents = 0
    try:
        for event, stack, is_key in _walk(loader):
            mark: Any = event.start_mark
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise yaml.MarkedYAMLError(
                        "expected a single document in the stream",
                        None,
                        "but found another document",
                        mark,
                    )
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                seen.pop()
                keys.pop()
                done = values.pop()
                _attach(done, stack, values, keys)
                if not stack:
                    root = done
                continue
            if not isinstance(event, yaml.NodeEvent):
                continue
            path = tuple(f.part for f in stack)
            if isinstance(event, yaml.ScalarEvent):
                value = event.value
                if is_key:
                    key_set = seen[-1]
                    assert key_set is not None
                    if value in key_set:
                        msg = f"duplicate key {value!r} (each key may appear once)"
                        raise LimitError(path, msg, mark.line + 1)
                    key_set.add(value)
                data = _scalar(event, path, mark.line + 1)
                if not stack:
                    root = data
                else:
                    _attach(data, stack, values, keys, is_key=is_key)
            elif isinstance(event, yaml.CollectionStartEvent):
                seq = isinstance(event, yaml.SequenceStartEvent)
                tag = event.tag
                if tag is None or tag == "!":
                    tag = _YAML + ("seq" if seq else "map")
                if tag not in _COLLECTION_TAGS:
                    raise LimitError(path, _tag_message(tag, "", scalar=False), mark.line + 1)
                if is_key:
                    msg = "broken YAML: a mapping key must be text, not a list or mapping"
                    raise LimitError(path[:-1], msg, mark.line + 1)
                # _walk opens the frame when this loop asks for the next event
                values.append([] if seq else {})
                keys.append(None)
                seen.append(None if seq else set())
    finally:
        loader.dispose()
    return root


def _scalar(event: Any, path: Path_, line: int) -> Any:
    """The value of one scalar by the grammar of :mod:`fwwrules.scalars`, or a
    :class:`LimitError` naming the place and the form (numbers over :data:`MAX_NUMBER_CHARS`,
    forms the grammar refuses, tags other than plain data)."""
    value: str = event.value
    tag = event.tag
    try:
        if tag == "!" or (tag is None and not event.implicit[0]):
            tag = scalars.STR  # quoted, or the non-specific tag: text
        elif tag is None:
            tag = scalars.plain_tag(value)
        if tag not in _PLAIN_TAGS:
            raise LimitError(path, _tag_message(tag, value, scalar=True), line)
        if len(value) > MAX_NUMBER_CHARS and tag in _NUMBER_TAGS:
            raise LimitError(path, _too_long(value), line)
        return scalars.construct(tag, value)
    except scalars.ScalarFormError as exc:
        if len(value) > MAX_NUMBER_CHARS and event.tag is None:
            raise LimitError(path, _too_long(value), line) from None
        raise LimitError(path, str(exc), line) from None


def _attach(
    data: Any, stack: list[_Frame], values: list[Any], keys: list[Any], *, is_key: bool = False
) -> None:
    """Put a finished value into the open collection (or remember it as the pending key)."""
    if not stack:
        return
    target = values[-1]
    if stack[-1].is_seq:
        target.append(data)
    elif is_key:
        keys[-1] = data
    else:
        target[keys[-1]] = data


def _tag_message(tag: str, value: str, *, scalar: bool) -> str:
    short = tag.replace(_YAML, "!!")
    if tag == _YAML + "merge":
        return "YAML merge keys (<<) are not allowed: write the keys out"
    if scalar and tag in _IMPLICIT_TAGS:
        return f"values of type {short} are not supported; quote the value (got {value!r})"
    return f"YAML tag {short} is not allowed: scenario files are plain data"


def _parse_yaml(text: str, source: str) -> Document:
    try:
        data = _build_yaml(text, source)
    except yaml.YAMLError as exc:
        raise ScenarioError(source, [_yaml_problem(exc, text)]) from None
    except LimitError as exc:
        raise ScenarioError(source, [Problem(exc.path, exc.message, exc.line)]) from None
    return Document(data, source, text=text)


# ---------------------------------------------------------------------------------------------
# JSON
# ---------------------------------------------------------------------------------------------


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


_JSON_TO_YAML = str.maketrans({"\t": " ", "\x85": " ", "\u2028": " ", "\u2029": " "})
"""Characters YAML reads as line breaks or refuses between tokens, but JSON does not."""
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _json_nodes(text: str) -> yaml.Node | None:
    """JSON text composed as YAML, for line numbers only (best effort: ``None`` on failure).

    JSON allows tabs between tokens where YAML does not; a tab outside a string is whitespace,
    and inside a JSON string it must be escaped, so replacing tabs keeps every line and value.
    YAML counts U+0085, U+2028 and U+2029 as line breaks, JSON (and editors) do not.
    YAML also refuses escaped UTF-16 surrogates (``"\\ud83d\\ude00"``, an emoji); they can
    only stand in text values, so they are blanked for this purpose.
    """
    try:
        text = _for_yaml(text)
        _precheck(text)
        return _compose(text)
    except (yaml.YAMLError, RecursionError, LimitError):
        return None


def _for_yaml(text: str) -> str:
    """JSON text made readable by the YAML reader with every line in place (see above)."""
    return _SURROGATE_ESCAPE.sub(" ", text.translate(_JSON_TO_YAML))


def _json_nodes_unchecked(text: str) -> yaml.Node | None:
    """Like :func:`_json_nodes` without the list limits (to locate a list over its limit)."""
    text = _SURROGATE_ESCAPE.sub(" ", text.translate(_JSON_TO_YAML))
    loader = _Loader(text)
    try:
        node: yaml.Node | None = loader.get_single_node()
        return node
    except (yaml.YAMLError, RecursionError):
        return None
    finally:
        loader.dispose()


def _json_number(kind: type[int] | type[float]) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        if len(text) > MAX_NUMBER_CHARS:
            raise _LongNumber(text)
        return kind(text)

    return parse


class _LongNumber(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _parse_json(text: str, source: str) -> Document:
    if not text.strip():
        return Document(None, source)
    try:
        data = json.loads(
            text,
            object_pairs_hook=_no_duplicates,
            parse_int=_json_number(int),
            parse_float=_json_number(float),
        )
    except json.JSONDecodeError as exc:
        msg = f"broken JSON: {exc.msg} (column {exc.colno})"
        if exc.msg.startswith("Invalid control character") and exc.pos < len(text):
            msg = f"broken JSON: {_control_character(ord(text[exc.pos]), exc.colno)}"
        raise ScenarioError(source, [Problem((), msg, exc.lineno)]) from None
    except _LongNumber as exc:
        line = text.count("\n", 0, max(text.find(exc.text), 0)) + 1
        raise ScenarioError(source, [Problem((), _too_long(exc.text), line)]) from None
    except _DuplicateKey as exc:
        root = _json_nodes(text)
        dup = None if root is None else _duplicate_key(root)
        raise ScenarioError(
            source, [dup or Problem((), f"duplicate key {exc.key!r} (each key may appear once)")]
        ) from None
    except RecursionError:
        problem = Problem((), f"nested deeper than {MAX_NESTING} levels")
        raise ScenarioError(source, [problem]) from None
    try:
        check_data_limits(data)
    except LimitError as exc:
        doc = Document(data, source, _json_nodes_unchecked(text))
        raise doc.fail(exc.path, exc.message) from None
    return Document(data, source, text=text, json_=True)


# ---------------------------------------------------------------------------------------------
# Files and text
# ---------------------------------------------------------------------------------------------


def read_document(path: str | os.PathLike[str]) -> Document:
    """Read a YAML or JSON file (by suffix; anything but ``.json`` is read as YAML).

    Refuses files over :data:`~fwwrules.constants.MAX_FILE_BYTES` (without reading more than
    one byte past the limit), non-UTF-8 text (naming the line of the first bad byte), empty
    files and documents whose top level is not a mapping.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise QueryError(f"a file name must be text or a path, got {type(path).__name__}")
    p = Path(path)
    source = str(path)  # the messages escape it (errors.printable)
    raw = _read_file(p, source)
    if len(raw) > MAX_FILE_BYTES:
        msg = f"the file is larger than the limit of {MAX_FILE_BYTES} bytes"
        raise ScenarioError(source, [Problem((), msg)])
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        offset = exc.start
        line = raw[:offset].count(b"\n") + 1
        byte = raw[offset : offset + 1]
        msg = f"not UTF-8 text (byte {byte!r} at offset {offset}); save the file as UTF-8"
        raise ScenarioError(source, [Problem((), msg, line)]) from None
    return parse_text(text, source, json_=p.suffix.lower() == ".json")


def _read_file(path: Path, source: str) -> bytes:
    """At most ``MAX_FILE_BYTES + 1`` bytes of the regular file ``path``, through
    :func:`~fwwrules.writing.read_regular` (never blocks: a FIFO, a device or a folder is
    refused at once); an :class:`~fwwrules.errors.FwwError` naming the file when it cannot
    be read."""
    try:
        return read_regular(path, MAX_FILE_BYTES)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            what = "no such file"
        elif isinstance(exc, NotARegularFile) or exc.errno == errno.EISDIR:
            what = "not a regular file"
        else:
            what = exc.strerror or str(exc)
        raise FwwError(f"{printable(source)}: cannot read the file ({what})") from None


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "text"
    return describe(value)


def parse_text(text: str, source: str = "<string>", *, json_: bool = False) -> Document:
    """Parse scenario text already in memory (the notebooks' "write your own" cells use it)."""
    if not isinstance(text, str):
        raise QueryError(f"scenario text must be a str, got {type(text).__name__}")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        msg = f"the text is larger than the limit of {MAX_FILE_BYTES} bytes"
        raise ScenarioError(source, [Problem((), msg)])
    doc = _parse_json(text, source) if json_ else _parse_yaml(text, source)
    if doc.data is None:
        raise doc.fail((), "the file is empty; expected a mapping that starts with 'format:'")
    if not isinstance(doc.data, dict):
        raise doc.fail(
            (), f"expected a mapping (key: value) at the top level (got {_kind(doc.data)})"
        )
    return doc


# ---------------------------------------------------------------------------------------------
# pydantic findings as readable problems
# ---------------------------------------------------------------------------------------------

_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _clean_loc(data: Any, loc: Sequence[Any]) -> tuple[Path_, bool]:
    """The part of pydantic's ``loc`` that is a real place in the data.

    pydantic inserts names of union members and validators (``literal['a','b']``,
    ``function-after[...]``, ``constrained-float``) and ``[key]`` for a bad mapping key. Walking
    the data along the location keeps exactly the keys and indexes that exist; a last key that
    does not exist is kept too (a missing key). Returns the path and whether the finding is
    about a mapping key rather than a value.
    """
    out: list[str | int] = []
    cur = data
    is_key = False
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        in_dict = isinstance(cur, dict) and _hashable(part) and part in cur
        in_list = isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur)
        if in_dict:
            # pydantic reports a key ``true`` as 1 (True == 1): take the key the data holds,
            # and show a non-text key (YAML ``1:``, ``true:``) as written, never as an index
            key = next((k for k in cur if k == part and type(k) is type(part)), None)
            key = next(k for k in cur if k == part) if key is None else key
            out.append(key if isinstance(key, str) else describe(key))
            cur = cur[key]
        elif in_list:
            out.append(part)
            cur = cur[part]
        elif part == "[key]":
            is_key = True
        elif last and isinstance(cur, dict) and isinstance(part, (str, int)):
            out.append(part)
    return tuple(out), is_key


def _hashable(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) or value is None


def _strip(tp: Any) -> Any:
    """Remove ``Annotated`` and ``| None`` around a type."""
    while True:
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            tp = typing.get_args(tp)[0]
            continue
        if origin in (typing.Union, types.UnionType):
            args = [a for a in typing.get_args(tp) if a is not type(None)]
            if len(args) == 1:
                tp = args[0]
                continue
        return tp


def _type_at(model: type[BaseModel], path: Sequence[str | int]) -> Any:
    """The declared type at ``path`` inside ``model``, or ``None`` when it cannot be told."""
    tp: Any = model
    for part in path:
        tp = _strip(tp)
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            fields = tp.model_fields
            if not isinstance(part, str) or part not in fields:
                return None
            tp = fields[part].annotation
            continue
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is list and isinstance(part, int) and args:
            tp = args[0]
        elif origin is tuple and isinstance(part, int) and args:
            tp = args[min(part, len(args) - 1)]
        elif origin is dict and len(args) == 2:
            tp = args[1]
        else:
            return None
    return _strip(tp)


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _expected(err: Mapping[str, Any], path: Path_, model: type[BaseModel] | None) -> str:
    """What was expected, in words (without the "(got ...)" part)."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind == "literal_error":
        choices = _QUOTED.findall(str(ctx.get("expected", "")))
        if len(choices) == 1:
            return f"expected {choices[0]!r}"
        if choices:
            return f"expected one of {', '.join(choices)}"
    if kind in ("float_type", "float_parsing"):
        return "expected a number"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return "expected a whole number"
    if kind in ("bool_type", "bool_parsing"):
        return "expected true or false"
    if kind in ("string_type", "string_unicode"):
        return "expected text"
    if kind == "string_pattern_mismatch":
        return text_problem(err.get("input")) or "expected text without control characters"
    if kind == "string_too_long":
        return f"expected at most {ctx.get('max_length')} characters"
    if kind in ("dict_type", "model_type", "model_attributes_type", "mapping_type"):
        return "expected a mapping (key: value)"
    if kind in ("list_type", "tuple_type", "set_type", "iterable_type"):
        return "expected a list"
    if kind == "too_short":
        return f"expected at least {_plural(int(ctx.get('min_length', 0)), 'item')}"
    if kind == "too_long":
        return f"expected at most {_plural(int(ctx.get('max_length', 0)), 'item')}"
    if kind == "greater_than":
        return f"expected a number above {_number(ctx.get('gt'))}"
    if kind == "greater_than_equal":
        return f"expected a number of at least {_number(ctx.get('ge'))}"
    if kind == "less_than":
        return f"expected a number below {_number(ctx.get('lt'))}"
    if kind == "less_than_equal":
        return f"expected a number of at most {_number(ctx.get('le'))}"
    if kind == "finite_number":
        return "expected a finite number (not NaN or infinity)"
    if kind in ("value_error", "assertion_error"):
        return str(ctx.get("error", err["msg"]))
    if kind == "invalid_key":
        return "expected a key of text; write it in quotes"
    if kind == "missing":
        return f"required key {path[-1]!r} is missing" if path else "a required key is missing"
    if kind == "extra_forbidden":
        name = path[-1] if path else "?"
        msg = f"unknown key {name!r}"
        parent = None if model is None else _type_at(model, path[:-1])
        if isinstance(parent, type) and issubclass(parent, BaseModel):
            msg += f"; expected one of {', '.join(parent.model_fields)}"
        return msg
    return str(err["msg"])


def problems_from_validation(
    doc: Document, exc: ValidationError, model: type[BaseModel] | None = None
) -> list[Problem]:
    """Turn pydantic's findings into :class:`Problem` s with clean paths, lines and words.

    ``model`` (the schema class validated against) lets an unknown key list the known ones.
    Findings at the same place (the members of a union) become one problem.
    """
    grouped: dict[tuple[Path_, bool], list[Mapping[str, Any]]] = {}
    for err in exc.errors(include_url=False):
        key = _clean_loc(doc.data, err["loc"])
        grouped.setdefault(key, []).append(dict(err))
    problems = []
    for (path, is_key), errs in grouped.items():
        texts: list[str] = []
        for found in errs:
            text = _expected(found, path, model)
            if text not in texts:
                texts.append(text)
        msg = " or ".join([texts[0], *(t.removeprefix("expected ") for t in texts[1:])])
        first = errs[0]
        if is_key:
            msg = f"unknown key {path[-1]!r}" + (
                f"; {msg}" if first["type"] == "literal_error" else f": {msg}"
            )
        elif first["type"] not in ("missing", "extra_forbidden") and "input" in first:
            value = first["input"]
            if first["type"] == "too_long" and isinstance(value, (list, dict)):
                msg += f" (got {len(value)})"
            elif first["type"] != "value_error" or not isinstance(value, (list, dict)):
                got = describe(value)
                if f"(got {got})" not in msg:
                    msg += f" (got {got})"
        problems.append(doc.problem(path, msg))
    return problems


# ---------------------------------------------------------------------------------------------
# Dispatch by format
# ---------------------------------------------------------------------------------------------

Parser = Callable[[Document], Any]


def load_any(path: str | os.PathLike[str], parsers: Mapping[str, Parser]) -> Any:
    """Read a file and hand it to the parser registered for its ``format``."""
    doc = read_document(path)
    return parse_document(doc, parsers)


def parse_document(doc: Document, parsers: Mapping[str, Parser]) -> Any:
    """Hand a document to the parser of its ``format`` (a required, exact string)."""
    fmt = doc.data.get("format")
    expected = " or ".join(repr(k) for k in parsers)
    if "format" not in doc.data:
        raise doc.fail(("format",), f"required key 'format' is missing; expected {expected}")
    if not isinstance(fmt, str) or fmt not in parsers:
        raise doc.fail(("format",), f"unknown format; expected {expected} (got {describe(fmt)})")
    return parsers[fmt](doc)
