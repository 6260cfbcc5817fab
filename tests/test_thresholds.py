"""One predicate per threshold (``fwwrules.thresholds``): the drift bugs they fixed.

Before, ``elevation`` compared heights with Orange less 1e-6 mm while ``melee`` compared with
no tolerance at all, so a model could be Elevated over its neighbour and engaged with it at the
same time. Both now ask :func:`~fwwrules.thresholds.reaches_ruler` with the ruler tolerance
(the contact tolerance, docs/rules.md "Conventions").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fwwrules.data import Scenario
from fwwrules.elevation import is_elevated
from fwwrules.engagement import engagements, same_level
from fwwrules.pieces import Model, Options
from fwwrules.thresholds import reaches_ruler, touching, within_ruler

ORANGE = 2 * 25.4


def pair(height: float, tol: float | None = None) -> Scenario:
    """Two enemy 32 mm bases in contact; ``b`` stands ``height`` mm above ``a``."""
    a = Model("a", "x", 32, (0, 0))
    b = Model("b", "y", 32, (32, 0), elevation=height)
    return Scenario(models=(a, b), options=Options(contact_tolerance=tol))


@pytest.mark.parametrize("height", [ORANGE - 1e-7, ORANGE - 0.3, ORANGE - 0.5, ORANGE, ORANGE + 1])
def test_elevated_and_engaged_never_both(height: float) -> None:
    s = pair(height)
    elevated = is_elevated(s, "b", "a")
    engaged = "a" in engagements(s)["b"]
    assert elevated != engaged
    assert same_level(s, s.model("a"), s.model("b")) == (not elevated)


def test_the_drift_case_orange_less_a_hair_is_another_level() -> None:
    """The case that failed before: Elevated by elevation's reading, engaged by melee's."""
    s = pair(ORANGE - 1e-7)
    assert is_elevated(s, "b", "a")
    assert engagements(s)["b"] == ()


def test_ruler_tolerance_is_the_contact_tolerance() -> None:
    s = pair(ORANGE - 0.6, tol=0.5)
    assert s.ruler_tolerance_mm == 0.5
    assert not is_elevated(s, "b", "a") and engagements(s)["b"] == ("a",)
    wider = pair(ORANGE - 0.6, tol=0.7)
    assert is_elevated(wider, "b", "a") and engagements(wider)["b"] == ()


def test_predicates_at_their_boundaries() -> None:
    assert within_ruler(10.5, 10.0, 0.5) and not within_ruler(10.5001, 10.0, 0.5)
    assert reaches_ruler(9.5, 10.0, 0.5) and not reaches_ruler(9.4999, 10.0, 0.5)
    assert touching(0.5, 0.5) and touching(-3.0, 0.5) and not touching(0.5001, 0.5)


def _inline(pattern: Any) -> list[str]:
    """Every line of code in ``fwwrules`` and ``widgets`` (comments left out, thresholds.py
    itself excepted) where ``pattern`` (a compiled regex) finds arithmetic written inline."""
    root = Path(__file__).resolve().parents[1]
    found = []
    for folder in ("fwwrules", "widgets"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == "thresholds.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line.split("#", 1)[0]):
                    found.append(f"{path.relative_to(root)}:{n}: {line.strip()}")
    return found


def test_no_contact_tolerance_arithmetic_outside_thresholds() -> None:
    """Every comparison with the contact tolerance goes through :mod:`fwwrules.thresholds`
    (``touching``, ``overlapping``, ``contact_reach``): no ``contact_tolerance + ...`` (nor
    ``... + contact_tolerance``) written inline anywhere else."""
    import re

    inline = re.compile(r"contact_tolerance(?:_mm)?\s*[+-]|[+-]\s*(?:\w+\.)*contact_tolerance\b")
    assert not _inline(inline), _inline(inline)


def test_no_ruler_tolerance_arithmetic_outside_thresholds() -> None:
    """Every threshold measured with a ruler goes through :mod:`fwwrules.thresholds`
    (``within_ruler``, ``reaches_ruler``, ``ruler_reach``, ``ruler_floor``, ``levels_apart``):
    no ``ruler_tolerance + ...`` nor ``orange + tol`` (nor the other way round) written inline
    anywhere else (``margins`` wrote "within Orange" as ``orange_mm + ruler_tolerance_mm``)."""
    import re

    tol = r"ruler_tolerance(?:_mm)?"
    inline = re.compile(
        rf"\b{tol}\s*[+-](?!=)|[+-]\s*(?:\w+\.)*{tol}\b"
        r"|\borange\w*\s*[+-]\s*(?:\w+\.)*tol\w*\b"
    )
    assert not _inline(inline), _inline(inline)
    assert inline.search("x = s.board.orange_mm + s.ruler_tolerance_mm")
    assert inline.search("d <= orange + tol") and not inline.search("orange = ruler(orange)")


def test_size_classes_and_the_default_base_are_defined_once() -> None:
    """``size.classes``: the 32, 40 and 60 mm bases are named once (``fwwrules.constants``,
    gathered in ``board.BASE_SIZES_MM``); the size class, the editor's base sizes, the threat
    map's and its panel's default base read them, and no ``32.0``, ``40.0`` or ``60.0`` is
    written anywhere else in the code (angles in degrees excepted)."""
    import ast
    from pathlib import Path

    from fwwrules.board import BASE_SIZES_MM, size_class
    from fwwrules.constants import SIZE_CLASS_TOLERANCE_MM
    from fwwrules.threat import DEFAULT_BASE_MM

    for cls, mm in BASE_SIZES_MM.items():
        assert size_class(mm) == cls and size_class(mm - SIZE_CLASS_TOLERANCE_MM) == cls
    assert size_class(BASE_SIZES_MM["large"] - 2 * SIZE_CLASS_TOLERANCE_MM) == "normal"
    assert size_class(BASE_SIZES_MM["huge"] - 2 * SIZE_CLASS_TOLERANCE_MM) == "large"
    assert BASE_SIZES_MM["normal"] == DEFAULT_BASE_MM
    root = Path(__file__).resolve().parents[1]
    degrees = {"SUGGESTED_TURNS"}  # the melee panel's turns, in degrees
    found = []
    for folder in ("fwwrules", "widgets"):
        for path in sorted((root / folder).rglob("*.py")):
            if path.name == "constants.py":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            skip = {
                id(n)
                for a in ast.walk(tree)
                if isinstance(a, ast.Assign | ast.AnnAssign)
                and any(isinstance(t, ast.Name) and t.id in degrees for t in ast.walk(a))
                for n in ast.walk(a)
            }
            found += [
                f"{path.relative_to(root)}:{n.lineno}"
                for n in ast.walk(tree)
                if isinstance(n, ast.Constant)
                and type(n.value) is float
                and n.value in (32.0, 40.0, 60.0)
                and id(n) not in skip
            ]
    assert not found, found
