"""Print the JSON of every example query, to compare rulings before and after a change.

For every shipped scenario (``fwwrules/examples`` and ``notebooks/scenarios``), both rulesets:
``ruling()`` for every ordered pair of models, ``withdraw()`` for every model, and ``slide()``
of every model by one base diameter along +x and -y; for every shipped grid
(``fwwrules/examples/grid``) ``grid_cover()`` for every ordered pair of creatures and every
attack. Errors are recorded as their message. Each answer's JSON is in English; ``--lang de``
records the German one instead (the texts differ, the decisions do not).

    python tools/ruling_snapshot.py > before.json
    python tools/ruling_snapshot.py > after.json
    python tools/ruling_snapshot.py --diff before.json after.json

``--root DIR`` reads the examples of another checkout (the interpreter's ``fwwrules`` answers):
run this file with the other checkout's interpreter and ``--root`` to compare its code with
the same files.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _files(root: Path) -> list[Path]:
    out = sorted((root / "fwwrules" / "examples").glob("*.yaml"))
    out += sorted((root / "notebooks" / "scenarios").glob("*.yaml"))
    return out


def _call(fn: Any, *args: Any, lang: str = "en", **kw: Any) -> Any:
    import fwwrules

    try:
        return fn(*args, **kw).to_dict(lang)
    except fwwrules.FwwError as exc:
        return {"error": str(exc)}


def _grids(root: Path, lang: str) -> dict[str, Any]:
    import fwwrules

    out: dict[str, Any] = {}
    for path in sorted((root / "fwwrules" / "examples" / "grid").glob("*.yaml")):
        g = fwwrules.load(path)
        name = str(path.relative_to(root))
        ids = [c.id for c in g.creatures]
        for a in ids:
            for b in ids:
                if a == b:
                    continue
                for attack in ("ranged", "melee", "reach"):
                    key = f"{name} grid {a} {b} {attack}"
                    out[key] = _call(fwwrules.grid_cover, g, a, b, attack, lang=lang)
    return out


def snapshot(root: Path = ROOT, lang: str = "en") -> dict[str, Any]:
    import fwwrules

    out: dict[str, Any] = {}
    for path in _files(root):
        s = fwwrules.load(path)
        name = str(path.relative_to(root))
        ids = [m.id for m in s.models]
        for rules in ("core", "vts"):
            for a in ids:
                for b in ids:
                    if a != b:
                        key = f"{name} ruling {a} {b} {rules}"
                        out[key] = _call(fwwrules.ruling, s, a, b, rules=rules, lang=lang)
                key = f"{name} withdraw {a} {rules}"
                out[key] = _call(fwwrules.withdraw, s, a, rules=rules, lang=lang)
                m = s.model(a)
                for dx, dy in ((m.base, 0.0), (0.0, -m.base)):
                    to = (m.at[0] + dx, m.at[1] + dy)
                    key = f"{name} slide {a} {to} {rules}"
                    out[key] = _call(fwwrules.slide, s, a, to, rules=rules, lang=lang)
    out.update(_grids(root, lang))
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
    p.add_argument("--root", type=Path, default=ROOT, help="checkout whose examples to read")
    p.add_argument("--lang", choices=("en", "de"), default="en")
    args = p.parse_args()
    if args.diff:
        before, after = (json.loads(Path(f).read_text(encoding="utf-8")) for f in args.diff)
        lines: list[str] = []
        _diff(before, after, "", lines)
        print("\n".join(lines))
        print(f"{len(lines)} differences in {len(before)} -> {len(after)} queries", file=sys.stderr)
        return 0
    data = snapshot(args.root.resolve(), args.lang)
    json.dump(data, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
