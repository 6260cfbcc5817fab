"""Reading files: :func:`load` and :func:`loads` for both formats (``fwwrules/scenario@1`` and
``fwwrules/grid@1``).

Importing this module imports pydantic (the file specs); ``import fwwrules`` reaches it only
when ``fwwrules.load`` or ``fwwrules.loads`` is first asked for.
"""

from __future__ import annotations

import os

from .data import Scenario
from .errors import QueryError
from .grid.fileformat import parse_grid
from .grid.model import GridScenario
from .grid.vocabulary import GRID_FORMAT
from .loading import Parser, load_any, parse_document, parse_text, read_document
from .pieces import SCENARIO_FORMAT, title_in
from .resources import examples_dir
from .scenario_spec import parse_scenario

PARSERS: dict[str, Parser] = {SCENARIO_FORMAT: parse_scenario, GRID_FORMAT: parse_grid}
"""The readers by the file's ``format`` value."""


def load(path: str | os.PathLike[str]) -> Scenario | GridScenario:
    """Load a scenario (``fwwrules/scenario@1``) or a grid (``fwwrules/grid@1``) file.

    Raises :class:`~fwwrules.errors.ScenarioError` naming the file and the place inside it
    when the file is unusable.
    """
    result: Scenario | GridScenario = load_any(path, PARSERS)
    return result


def examples() -> dict[str, str]:
    """The shipped examples: name (as :func:`~fwwrules.example_path` takes it) to title, sorted
    by name.

    A file without a ``title`` maps to ``""``. Grid examples are named ``grid/<name>``.
    """
    base = examples_dir()
    out: dict[str, str] = {}
    for p in base.rglob("*.yaml"):
        data = read_document(p).data
        title = data.get("title") if isinstance(data, dict) else None
        if isinstance(title, dict):  # one per language: the English one (else the first)
            title = title_in(title, "en")
        out[p.relative_to(base).with_suffix("").as_posix()] = (
            title if isinstance(title, str) else ""
        )
    return dict(sorted(out.items()))


def load_scenario_file(path: str | os.PathLike[str]) -> Scenario:
    """Like :func:`load`, for a query that needs a scenario: a grid file is a
    :class:`~fwwrules.errors.QueryError` (exit status 2), not a crash."""
    result = load(path)
    if not isinstance(result, Scenario):
        raise QueryError(
            f"{os.fspath(path)}: this needs a {SCENARIO_FORMAT} file, not {GRID_FORMAT}"
        )
    return result


def loads(text: str, source: str = "<string>", *, json: bool = False) -> Scenario | GridScenario:
    """Like :func:`load`, for text in memory (notebooks build scenarios this way).

    ``source`` names the text in messages: text (anything else is a
    :class:`~fwwrules.errors.QueryError`, as a text that is not a ``str`` is).
    """
    if not isinstance(source, str):
        raise QueryError(
            "source must be text (the name messages give the scenario), got "
            f"{type(source).__name__}"
        )
    result: Scenario | GridScenario = parse_document(parse_text(text, source, json_=json), PARSERS)
    return result
