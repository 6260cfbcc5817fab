"""Fuzzing the command line with mutated shipped examples (issue 14: bounded work, no crashes).

Hypothesis takes a shipped example (scenario or grid), mutates its data or its text, writes
it as YAML or JSON and runs ``fwwrules check`` and one answer command on it (``ruling``,
``withdraw`` or ``grid``), in-process through :func:`fwwrules.cli.main`. Every run must end
with exit status 0 or 2, one message and no traceback: exit 1 is an internal error, a bug.

Each run is made under an address-space cap (``RLIMIT_AS``, :data:`CAP_BYTES` above what the
test process already maps), so a blow-up fails deterministically as an internal error instead
of eating the machine. Times are not asserted here; ``bench/worst_case.py`` reports them.
"""

from __future__ import annotations

import copy
import json
import math
import resource
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fwwrules
from fwwrules.cli import main

CAP_BYTES = 1_500_000_000
"""Address space a single run may add (the budget is 500 MB resident; allocators reserve)."""

EXAMPLES = sorted(fwwrules.examples_dir().rglob("*.yaml"))
SOURCES = {p.relative_to(fwwrules.examples_dir()).as_posix(): p.read_text() for p in EXAMPLES}

ODD_VALUES: list[Any] = [
    0,
    -0.0,
    1e-12,
    -1,
    0.004,
    7.7,
    1 / 3,
    1e6,
    1e6 + 1,
    -1e6,
    1e308,
    2**63,
    True,
    None,
    "",
    "x",
    "improvised",
    "red",
    "9" * 40,
    [],
    [0, 0],
    [1e-9, 1e-9],
    [[0, 0], [0, 0], [0, 0]],
    [[0, 0], [0.005, 0], [0, 0.005]],
    {},
    {"at": [0, 0], "diameter": 0.001},
    {"at": [0, 0], "size": [0.001, 50]},
    list(range(40)),
]


def _leaves(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in the data (mappings' values and lists' items), the root first."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _leaves(v, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(data, path[:-1])[path[-1]] = value
    return data


POSITIONS = frozenset({"at", "polygon"})
LENGTHS = frozenset({"at", "polygon", "size", "diameter", "base", "elevation", "height", "move"})


def _numbers(data: Any, f: Any, keys: frozenset[str], inside: bool = False) -> Any:
    """``data`` with ``f`` applied to every number under one of ``keys`` (a scenario's
    positions or lengths), booleans left alone."""
    if isinstance(data, dict):
        return {k: _numbers(v, f, keys, inside or k in keys) for k, v in data.items()}
    if isinstance(data, list):
        return [_numbers(v, f, keys, inside) for v in data]
    if inside and isinstance(data, (int, float)) and not isinstance(data, bool):
        return f(data)
    return data


def _rot90(data: Any, inside: bool = False) -> Any:
    """The board turned by exactly 90 degrees: (x, y) -> (-y, x); rectangles turn too."""
    if isinstance(data, dict):
        out = {k: _rot90(v, inside or k in POSITIONS) for k, v in data.items()}
        if "size" in data and "at" in data and isinstance(data.get("angle", 0), (int, float)):
            out["angle"] = (
                float(data.get("angle", 0)) + 90 - (360 if data.get("angle", 0) > 270 else 0)
            )
        return out
    if isinstance(data, list):
        if inside and len(data) == 2 and all(isinstance(v, (int, float)) for v in data):
            return [-data[1], data[0]]
        return [_rot90(v, inside) for v in data]
    return data


@st.composite
def mutated_files(draw: st.DrawFn) -> tuple[str, str, str]:
    """(example name, file text, suffix) for one mutated example."""
    name = draw(st.sampled_from(sorted(SOURCES)))
    text = SOURCES[name]
    data = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "delete", "duplicate", "shift", "scale", "text"]))
        places = list(_leaves(data))
        if kind == "replace":
            path = draw(st.sampled_from(places))
            data = _set(data, path, copy.deepcopy(draw(st.sampled_from(ODD_VALUES))))
        elif kind == "delete":
            path = draw(st.sampled_from(places[1:] or [()]))
            if path:
                parent = _get(data, path[:-1])
                del parent[path[-1]]
        elif kind == "duplicate":
            lists = [p for p in places if isinstance(_get(data, p), list) and _get(data, p)]
            if lists:
                target = _get(data, draw(st.sampled_from(lists)))
                target.extend(copy.deepcopy(target) * draw(st.integers(1, 3)))
        elif kind == "shift":
            d = draw(st.sampled_from([0.1, 7.7, 1 / 3, -1e-9, 1e-7, 123.456]))
            data = _numbers(data, lambda v, d=d: v + d, POSITIONS)
        elif kind == "scale":
            k = draw(st.sampled_from([1 / 25.4, 25.4, 1e-3, 1e3, -1.0, 0.5]))
            data = _numbers(data, lambda v, k=k: v * k, LENGTHS)
        elif kind == "rot90":
            data = _rot90(data)
        else:  # a text-level mutation of the written file
            dumped = yaml.safe_dump(data, sort_keys=False)
            at = draw(st.integers(0, max(0, len(dumped) - 1)))
            junk = draw(
                st.sampled_from(["", "\t", ":", "- ", "[", "&a ", "*a", "!!x ", "\x00", "é"])
            )
            return name, dumped[:at] + junk + dumped[at + draw(st.integers(0, 5)) :], ".yaml"
    as_json = draw(st.booleans())
    if as_json:
        try:
            return name, json.dumps(data, allow_nan=True), ".json"
        except (TypeError, ValueError):
            pass
    return name, yaml.safe_dump(data, sort_keys=False, allow_unicode=True), ".yaml"


@contextmanager
def address_space_cap(extra: int) -> Iterator[None]:
    """Lower the soft ``RLIMIT_AS`` to what is mapped now plus ``extra`` bytes; restore it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as f:
        mapped = int(f.read().split()[0]) * resource.getpagesize()
    cap = mapped + extra
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _ids(data: Any, key: str) -> list[str]:
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    return [str(m["id"]) for m in items if isinstance(m, dict) and isinstance(m.get("id"), str)]


def _answer_commands(text: str, suffix: str, path: str) -> list[list[str]]:
    try:
        data = json.loads(text) if suffix == ".json" else yaml.safe_load(text)
    except Exception:  # the file is broken: `check` covers it
        return []
    models, creatures = _ids(data, "models"), _ids(data, "creatures")
    out: list[list[str]] = []
    if len(models) >= 2:
        out.append(["ruling", path, "--attacker", models[0], "--target", models[-1], "--json"])
        out.append(["ruling", path, "--attacker", models[0], "--target", "1e6,-1e6"])
        out.append(["withdraw", path, "--model", models[0]])
    if len(creatures) >= 2:
        out.append(["grid", path, "--attacker", creatures[0], "--target", creatures[-1]])
    return out


@pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="needs Linux /proc")
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(mutated_files())
def test_fuzzed_examples_exit_0_or_2_without_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: tuple[str, str, str]
) -> None:
    name, text, suffix = case
    path = tmp_path / f"fuzz{suffix}"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    for args in [["check", str(path)], *_answer_commands(text, suffix, str(path))]:
        with address_space_cap(CAP_BYTES):
            code = main(args)
        out, err = capsys.readouterr()
        where = f"{name} mutated, fwwrules {' '.join(args[:1] + args[2:])}:\n{err[-2000:]}"
        assert code in (0, 2), where
        assert "Traceback" not in err and "internal error" not in err, where
        if code == 2:
            assert err.strip(), where
        if "--json" in args and code == 0:
            json.loads(out)
        assert math.isfinite(len(out))
