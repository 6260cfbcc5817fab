"""Reading scenario files safely: YAML or JSON in, plain data and a line locator out.

Nothing in a file is ever executed. YAML goes through a strict safe loader that refuses tags
(``!!python/object`` and friends), anchors and aliases (no "billion laughs") and duplicate keys;
JSON refuses duplicate keys. Every refusal is a :class:`~fwwrules.errors.ScenarioError` naming
the file and the line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from .constants import MAX_FILE_BYTES
from .errors import FwwError, Problem, ScenarioError

_PLAIN_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
)


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed file: its data, the name used in messages, and where each value stands."""

    data: Any
    source: str
    root: yaml.Node | None = None

    def line(self, path: Sequence[str | int]) -> int | None:
        """The 1-based line of the value at ``path``, or of its nearest ancestor (YAML only)."""
        node = self.root
        line = None if node is None else node.start_mark.line + 1
        for part in path:
            child: yaml.Node | None = None
            if isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode) and key.value == str(part):
                        child = value
                        break
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
                if 0 <= part < len(node.value):
                    child = node.value[part]
            if child is None:
                break
            node = child
            line = node.start_mark.line + 1
        return line

    def problem(self, path: Sequence[str | int], message: str) -> Problem:
        return Problem(tuple(path), message, self.line(path))

    def fail(self, path: Sequence[str | int], message: str) -> ScenarioError:
        return ScenarioError(self.source, [self.problem(path, message)])


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses aliases; tags and duplicate keys are checked on the node tree."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                None, None, "YAML anchors and aliases are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)


def _check_nodes(node: yaml.Node, source: str) -> None:
    """Refuse non-plain tags and duplicate mapping keys anywhere in the tree."""
    stack = [node]
    while stack:
        current = stack.pop()
        line = current.start_mark.line + 1
        if current.tag not in _PLAIN_TAGS:
            tag = current.tag.replace("tag:yaml.org,2002:", "!!")
            if isinstance(current, yaml.ScalarNode) and not tag.startswith("!"):
                msg = f"values of type {tag} are not supported; quote the value"
            else:
                msg = f"YAML tag {tag} is not allowed: scenario files are plain data"
            raise ScenarioError(source, [Problem((), msg, line)])
        if isinstance(current, yaml.MappingNode):
            seen: set[str] = set()
            for key, value in current.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value in seen:
                        problem = Problem(
                            (), f"duplicate key {key.value!r}", key.start_mark.line + 1
                        )
                        raise ScenarioError(source, [problem])
                    seen.add(key.value)
                stack.extend((key, value))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)


def _parse_yaml(text: str, source: str) -> Document:
    loader = _StrictLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return Document(None, source)
        _check_nodes(root, source)
        data = loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = None if mark is None else mark.line + 1
        what = exc.problem or exc.context or "unreadable YAML"
        raise ScenarioError(source, [Problem((), f"broken YAML: {what}", line)]) from None
    except yaml.YAMLError as exc:
        raise ScenarioError(source, [Problem((), f"broken YAML: {exc}")]) from None
    finally:
        loader.dispose()  # type: ignore[no-untyped-call]
    return Document(data, source, root)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _parse_json(text: str, source: str) -> Document:
    if not text.strip():
        return Document(None, source)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except json.JSONDecodeError as exc:
        raise ScenarioError(source, [Problem((), f"broken JSON: {exc.msg}", exc.lineno)]) from None
    except ValueError as exc:
        raise ScenarioError(source, [Problem((), str(exc))]) from None
    # Reuse YAML's node tree for line numbers: JSON text is (nearly always) YAML too.
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        root = None
    return Document(data, source, root)


def read_document(path: str | os.PathLike[str]) -> Document:
    """Read a YAML or JSON file (by suffix; anything but ``.json`` is read as YAML).

    Refuses files over :data:`~fwwrules.constants.MAX_FILE_BYTES`, non-UTF-8 text, empty files
    and documents whose top level is not a mapping.
    """
    p = Path(path)
    source = str(path)
    try:
        size = p.stat().st_size
    except OSError as exc:
        raise FwwError(f"{source}: cannot read the file ({exc.strerror or exc})") from None
    if not p.is_file():
        raise FwwError(f"{source}: not a file")
    if size > MAX_FILE_BYTES:
        raise ScenarioError(
            source, [Problem((), f"file is {size} bytes; the limit is {MAX_FILE_BYTES} bytes")]
        )
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        msg = f"not UTF-8 text (byte {exc.start})"
        raise ScenarioError(source, [Problem((), msg)]) from None
    except OSError as exc:
        raise FwwError(f"{source}: cannot read the file ({exc.strerror or exc})") from None
    return parse_text(text, source, json_=p.suffix.lower() == ".json")


def parse_text(text: str, source: str = "<string>", *, json_: bool = False) -> Document:
    """Parse scenario text already in memory (the notebooks' "write your own" cells use it)."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise ScenarioError(source, [Problem((), f"text exceeds {MAX_FILE_BYTES} bytes")])
    doc = _parse_json(text, source) if json_ else _parse_yaml(text, source)
    if doc.data is None:
        raise doc.fail((), "the file is empty; expected a mapping that starts with 'format:'")
    if not isinstance(doc.data, dict):
        kind = type(doc.data).__name__
        kind = {"list": "a list", "str": "a string", "int": "a number"}.get(kind, kind)
        raise doc.fail((), f"expected a mapping at the top level, got {kind}")
    return doc


def problems_from_validation(doc: Document, exc: ValidationError) -> list[Problem]:
    """Turn pydantic's findings into :class:`Problem` s with paths and lines."""
    problems = []
    for err in exc.errors(include_url=False):
        loc = tuple(part for part in err["loc"] if isinstance(part, (str, int)))
        # pydantic appends tagged-union and function-validator names; drop what is not a key.
        path = tuple(p for p in loc if not (isinstance(p, str) and ("[" in p or "-" in p and p.startswith("function"))))
        msg = err["msg"]
        if err["type"] == "extra_forbidden":
            msg = "unknown key"
            if path:
                msg = f"unknown key {path[-1]!r}"
        elif err["type"] == "missing":
            msg = "required key is missing"
        elif err["type"] in ("finite_number",):
            msg = "expected a finite number (no NaN or infinity)"
        if "input" in err and err["type"] not in ("missing", "extra_forbidden"):
            shown = repr(err["input"])
            if len(shown) <= 40:
                msg = f"{msg} (got {shown})"
        problems.append(doc.problem(path, msg))
    return problems


Parser = Callable[[Document], Any]


def load_any(path: str | os.PathLike[str], parsers: Mapping[str, Parser]) -> Any:
    """Read a file and hand it to the parser registered for its ``format``."""
    doc = read_document(path)
    return parse_document(doc, parsers)


def parse_document(doc: Document, parsers: Mapping[str, Parser]) -> Any:
    fmt = doc.data.get("format")
    expected = " or ".join(repr(k) for k in parsers)
    if fmt is None:
        raise doc.fail(("format",), f"required key is missing; expected {expected}")
    if fmt not in parsers:
        raise doc.fail(("format",), f"unknown format {fmt!r}; expected {expected}")
    return parsers[fmt](doc)
