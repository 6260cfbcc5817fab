"""Write docs/rules.md, the project's rules reference, from the code (``make docs``).

Sources, all inside the repository: the clause ids of ``docs/clauses.txt`` (in order), each
clause's rule and ruling texts from ``fwwrules/catalogue.py`` (English and German), the modules
that cite it, the tests named after it, the notebook cells that name it, the scenario options
and translation notes of ``fwwrules/translation.py``, and the constants of
``fwwrules/constants.py``. Nothing is copied from a rulebook.

The output is deterministic (sorted, no dates, no absolute paths) and takes about a second, so
``tests/test_docs_rules.py`` compares it with the committed file. Usage::

    python tools/make_docs.py            # write docs/rules.md
    python tools/make_docs.py --check    # exit 1 when docs/rules.md is out of date
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "rules.md"
CLAUSES_FILE = REPO / "docs" / "clauses.txt"

# Sections of the reference, by the first part of a clause id.
FAMILIES: dict[str, str] = {
    "size": "Base sizes",
    "ranged": "Ranged attacks, terrain and cover",
    "terrain": "Ranged attacks, terrain and cover",
    "cover": "Ranged attacks, terrain and cover",
    "elevation": "Elevation",
    "melee": "Close combat",
    "action": "Close combat",
    "grid": "Grid cover (Pathfinder 1st edition)",
}


def clause_ids() -> list[str]:
    lines = CLAUSES_FILE.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.startswith("#")]


def mentions(text: str, clause: str) -> bool:
    """Whether ``text`` names ``clause`` as a whole id (as the coverage test decides it)."""
    if clause not in text:  # cheap first look; most texts do not name the clause at all
        return False
    pattern = rf"(?<![\w.-]){re.escape(clause)}(?![\w-]|\.\w)"
    return re.search(pattern, text) is not None


def cell(text: str) -> str:
    """Text for one Markdown table cell."""
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def anchor(clause: str) -> str:
    return clause.replace(".", "-")


def code_modules() -> dict[str, str]:
    root = REPO / "fwwrules"
    return {
        p.relative_to(REPO).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(root.rglob("*.py"))
        if p.name != "catalogue.py"
    }


def test_functions() -> list[tuple[str, str]]:
    """(file, function name) of every test function, in file and line order."""
    out: list[tuple[str, str]] = []
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        found = [
            (node.lineno, node.name)
            for node in ast.walk(tree)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test_")
        ]
        out.extend((path.relative_to(REPO).as_posix(), name) for _, name in sorted(found))
    return out


def notebook_sections() -> list[tuple[str, str, str]]:
    """(notebook file, section heading, cell text) for every cell of every notebook."""
    out: list[tuple[str, str, str]] = []
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        heading = ""
        for c in nb.get("cells", []):
            src = c.get("source", "")
            text = src if isinstance(src, str) else "".join(src)
            if c.get("cell_type") == "markdown":
                for line in text.splitlines():
                    if line.startswith("#"):
                        heading = line.lstrip("#").strip()
                        break
            out.append((path.name, heading, text))
    return out


def constants() -> list[tuple[str, str, str]]:
    """(name, value, first sentence of its docstring) of each constant in constants.py."""
    path = REPO / "fwwrules" / "constants.py"
    body = ast.parse(path.read_text(encoding="utf-8")).body
    out: list[tuple[str, str, str]] = []
    for node, nxt in zip(body, [*body[1:], None], strict=True):
        if not (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)):
            continue
        doc = ""
        if (
            isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
            and isinstance(nxt.value.value, str)
        ):
            doc = " ".join(nxt.value.value.split("\n\n")[0].split())
        value = ast.unparse(node.value) if node.value is not None else ""
        out.append((node.target.id, value, doc))
    return out


def generate() -> str:
    sys.path.insert(0, str(REPO))
    from fwwrules import catalogue, translation
    from fwwrules.scenario import RULER_COLOURS, RULER_INCHES

    clauses = clause_ids()
    modules = code_modules()
    tests = test_functions()
    cells = notebook_sections()
    w: list[str] = []
    add = w.append

    add("# Rules reference")
    add("")
    add(
        "<!-- Generated by `make docs` (tools/make_docs.py) from docs/clauses.txt, "
        "fwwrules/catalogue.py, fwwrules/translation.py, the tests and the notebooks. "
        "Do not edit by hand: change the sources and run `make docs`. -->"
    )
    add("")
    add(
        "Every rule fwwrules implements, one clause id each, in the project's own words "
        "(English and German side by side). A ruling cites these ids in its reasons; the "
        "texts a ruling shows are listed under each clause, followed by the code that decides "
        "it, the tests named after it and the notebook cells that show it. Two rulesets are "
        "covered: `core` (the *Rules of Play*) and `vts` (the *Vault-Tec Simulator* variant); "
        "where they differ, the rule says so. Where the German fan translation reads "
        "otherwise, the engine follows the original and offers the German reading as a "
        "scenario option: see [Translation notes](#translation-notes) and "
        "[Scenario options](#scenario-options). File formats: "
        "[scenario-format.md](scenario-format.md)."
    )
    add("")
    add("## Contents")
    add("")
    add("- [Conventions](#conventions)")
    sections: list[str] = []
    for c in clauses:
        title = FAMILIES.get(c.split(".")[0], "Other rules")
        if title not in sections:
            sections.append(title)
    for title in sections:
        members = [c for c in clauses if FAMILIES.get(c.split(".")[0], "Other rules") == title]
        links = ", ".join(f"[`{c}`](#{anchor(c)})" for c in members)
        add(f"- {title}: {links}")
    add("- [Scenario options](#scenario-options)")
    add("- [Translation notes](#translation-notes)")
    add("")

    add("## Conventions")
    add("")
    add(
        "The table is seen from above and every length is in millimetres (1 inch = 25.4 mm). "
        "Bases are exact circles. Touching an outline without entering it (a grazed corner, a "
        "line along an edge, a tangent to a base) is never crossing and never blocking. Each "
        "tolerance and limit is one named constant of `fwwrules/constants.py`:"
    )
    add("")
    add("| constant | value | meaning |")
    add("| --- | --- | --- |")
    for name, value, doc in constants():
        add(f"| `{name}` | `{cell(value)}` | {cell(doc)} |")
    add("")
    add("### Range rulers")
    add("")
    add("Default lengths; a scenario may override them (`rulers:`).")
    add("")
    add("| ruler | inches | mm |")
    add("| --- | --- | --- |")
    for colour in RULER_COLOURS:
        inches = RULER_INCHES[colour]
        add(f"| {colour} | {inches:g} | {inches * 25.4:g} |")
    add("")

    current = None
    for clause in clauses:
        title = FAMILIES.get(clause.split(".")[0], "Other rules")
        if title != current:
            add(f"## {title}")
            add("")
            current = title
        add(f'<a id="{anchor(clause)}"></a>')
        add("")
        add(f"### `{clause}`")
        add("")
        rule = catalogue.CLAUSE_RULES.get(clause)
        add("| English | Deutsch |")
        add("| --- | --- |")
        if rule is None:
            add("| *(no rule text yet: add it to `CLAUSE_RULES` in fwwrules/catalogue.py)* | |")
        else:
            add(f"| {cell(rule['en'])} | {cell(rule['de'])} |")
        add("")
        messages = [(k, v) for k, v in catalogue.MESSAGES.items() if k.split("/")[0] == clause]
        if messages:
            add("What a ruling says (`{…}` are filled in from the board):")
            add("")
            add("| message | English | Deutsch |")
            add("| --- | --- | --- |")
            for key, entry in messages:
                add(f"| `{key}` | {cell(entry['en'])} | {cell(entry['de'])} |")
            add("")
        code = [name for name, text in modules.items() if mentions(text, clause)]
        token = re.sub(r"[.-]", "_", clause)
        named = [f"{file}::{name}" for file, name in tests if token in name]
        by_notebook: dict[str, list[str]] = {}
        for nb, heading, text in cells:
            if mentions(text, clause):
                headings = by_notebook.setdefault(nb, [])
                if heading and heading not in headings:
                    headings.append(heading)
        shown = [
            f"[{nb}](../notebooks/{nb})" + (f" ({'; '.join(hs)})" if hs else "")
            for nb, hs in by_notebook.items()
        ]
        add("- Code: " + (", ".join(f"`{c}`" for c in code) or "none"))
        add("- Tests: " + (", ".join(f"`{t}`" for t in named) or "none"))
        add("- Notebooks: " + ("; ".join(shown) or "none"))
        opts = translation.options_for(clause)
        if opts:
            add(
                "- Options that change it: "
                + ", ".join(f"[`{o}`](#scenario-options)" for o in opts)
            )
        notes = translation.notes_for(clause)
        if notes:
            add(
                "- Translation notes: "
                + ", ".join(f"[note {n.number}](#note-{n.number})" for n in notes)
            )
        add("")

    add("## Scenario options")
    add("")
    add(
        "Set under `options:` in a scenario file; each defaults to the original rulebook's reading."
    )
    add("")
    add("| option | clauses | English | Deutsch |")
    add("| --- | --- | --- | --- |")
    for name, touched in translation.OPTION_CLAUSES.items():
        entry = catalogue.NOTES[f"option/{name}"]
        links = ", ".join(f"[`{c}`](#{anchor(c)})" for c in touched)
        add(f"| `{name}` | {links} | {cell(entry['en'])} | {cell(entry['de'])} |")
    add("")

    add("## Translation notes")
    add("")
    add(
        "Where the German fan translation and the original *Rules of Play* differ. Each row "
        "gives both wordings (in the project's words) and what the engine does. "
        "`fwwrules review -o review.html --lang de` writes a page with the engine's answer "
        "and picture under each reading, and notebook "
        "[09](../notebooks/09-translation-review.ipynb) steps through the same boards."
    )
    add("")
    for note in translation.NOTES:
        t = {part: catalogue.NOTES[f"{note.key}/{part}"] for part in ("topic", "german")}
        t["original"] = catalogue.NOTES[f"{note.key}/original"]
        t["engine"] = catalogue.NOTES[f"{note.key}/engine"]
        add(f'<a id="note-{note.number}"></a>')
        add("")
        add(f"### Note {note.number}: {t['topic']['en']} ({t['topic']['de']})")
        add("")
        add("| | English | Deutsch |")
        add("| --- | --- | --- |")
        add(f"| German text | {cell(t['german']['en'])} | {cell(t['german']['de'])} |")
        add(f"| Original | {cell(t['original']['en'])} | {cell(t['original']['de'])} |")
        add(f"| Engine | {cell(t['engine']['en'])} | {cell(t['engine']['de'])} |")
        add("")
        links = ", ".join(f"[`{c}`](#{anchor(c)})" for c in note.clauses)
        option = f"`{note.option}`" if note.option else "none"
        changes = "yes" if note.changes_ruling else "no"
        add(f"Clauses: {links}. Option: {option}. Can change a ruling: {changes}.")
        add("")
    return "\n".join(w).rstrip("\n") + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--check", action="store_true", help="exit 1 if docs/rules.md is stale")
    args = p.parse_args(argv)
    text = generate()
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.is_file() else ""
        if current != text:
            print("docs/rules.md is out of date: run `make docs`", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
