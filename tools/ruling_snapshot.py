"""Print the JSON of every example query, to compare rulings before and after a change.

For every shipped scenario (``fwwrules/examples`` and ``notebooks/scenarios``), both rulesets:
``ruling()`` for every ordered pair of models, ``withdraw()`` for every model, and ``slide()``
of every model by one base diameter along +x and -y. Errors are recorded as their message.

    python tools/ruling_snapshot.py > before.json
    python tools/ruling_snapshot.py > after.json
    python tools/ruling_snapshot.py --diff before.json after.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _files() -> list[Path]:
    out = sorted((ROOT / "fwwrules" / "examples").glob("*.yaml"))
    out += sorted((ROOT / "notebooks" / "scenarios").glob("*.yaml"))
    return out


def _call(fn: Any, *args: Any, **kw: Any) -> Any:
    import fwwrules

    try:
        return fn(*args, **kw).to_dict()
    except fwwrules.FwwError as exc:
        return {"error": str(exc)}


def snapshot() -> dict[str, Any]:
    import fwwrules

    out: dict[str, Any] = {}
    for path in _files():
        s = fwwrules.load(path)
        name = str(path.relative_to(ROOT))
        ids = [m.id for m in s.models]
        for rules in ("core", "vts"):
            for a in ids:
                for b in ids:
                    if a != b:
                        key = f"{name} ruling {a} {b} {rules}"
                        out[key] = _call(fwwrules.ruling, s, a, b, rules=rules)
                out[f"{name} withdraw {a} {rules}"] = _call(fwwrules.withdraw, s, a, rules=rules)
                m = s.model(a)
                for dx, dy in ((m.base, 0.0), (0.0, -m.base)):
                    to = (m.at[0] + dx, m.at[1] + dy)
                    key = f"{name} slide {a} {to} {rules}"
                    out[key] = _call(fwwrules.slide, s, a, to, rules=rules)
    return out


def _diff(a: Any, b: Any, path: str, out: list[str]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a:
                out.append(f"{path}.{k}: added")
            elif k not in b:
                out.append(f"{path}.{k}: removed")
            else:
                _diff(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _diff(x, y, f"{path}[{i}]", out)
    elif a != b:
        out.append(
            f"{path}: {json.dumps(a, ensure_ascii=False)} -> {json.dumps(b, ensure_ascii=False)}"
        )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    args = p.parse_args()
    if args.diff:
        before, after = (json.loads(Path(f).read_text(encoding="utf-8")) for f in args.diff)
        lines: list[str] = []
        _diff(before, after, "", lines)
        print("\n".join(lines))
        print(f"{len(lines)} differences in {len(before)} -> {len(after)} queries", file=sys.stderr)
        return 0
    json.dump(snapshot(), sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
