"""The translation review page: one self-contained HTML file (``fwwrules review -o FILE``).

For every clause its rule and ruling texts in English and German; for every shipped rulebook
example its picture and ruling in both languages; for every translation note both wordings and
the engine's answer, with a picture, under each reading. Each item has a checkbox and a comment
field; the page exports the review as a JSON file (``fwwrules/review@1``) and imports it again
to continue, all in the browser: no server, no network, pictures are ``data:`` URIs.

Boundary cases: an imported file of another format is refused with a message on the page and
changes nothing; ids in it that the page does not have (an older or newer page) are kept and
exported again, and counted in the message, so no comment is lost between versions.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import hashlib
import html
import io
import json
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..catalogue import CLAUSE_RULES, LANGS, MESSAGES, NOTES, check_lang, ui_section
from ..constants import MAX_CACHED_PICTURE_BYTES
from ..writing import write_atomic
from .board import draw_board
from .figure import figure_of, new_axes

REVIEW_FORMAT = "fwwrules/review@1"

#: The question each shipped example answers in the rulebook (or, for the grid figures, the
#: PRD): ``(example, kind, first, second, attack)``; kind is ``ruling`` (attacker, target),
#: ``slide`` (model, (x, y)), ``withdraw`` (model) or ``grid`` (attacker, target, attack).
EXAMPLE_QUESTIONS: tuple[tuple[str, str, str, Any, str], ...] = (
    ("cover-example-1", "ruling", "knight", "brute", ""),
    ("cover-example-1", "ruling", "brute", "knight", ""),
    ("cover-example-2", "ruling", "settler-a", "knight-1", ""),
    ("cover-example-2", "ruling", "knight-1", "settler-a", ""),
    ("cover-example-3", "ruling", "mutant", "knight", ""),
    ("cover-example-4", "ruling", "paladin", "mutant-1", ""),
    ("cover-example-4", "ruling", "paladin", "mutant-2", ""),
    ("cover-example-4", "ruling", "mutant-3", "paladin", ""),
    ("cover-example-4-dense", "ruling", "paladin", "mutant-3", ""),
    ("elevation-rooftop", "ruling", "knight", "sniper", ""),
    ("elevation-rooftop", "ruling", "knight", "lookout", ""),
    ("elevation-gantry", "ruling", "raider", "settler", ""),
    ("elevation-gantry", "ruling", "scavenger", "raider", ""),
    ("elevation-stacked-platform", "ruling", "gunner", "guard", ""),
    ("elevation-stacked-platform", "ruling", "gunner", "settler", ""),
    ("melee-outnumbered-1", "ruling", "brotherhood-a", "super-mutant-1", ""),
    ("melee-outnumbered-2", "ruling", "super-mutant-1", "brotherhood-a", ""),
    ("melee-behemoth-slide", "slide", "behemoth", (324.8, 343.4), ""),
    ("melee-behemoth-after-slide", "withdraw", "behemoth", None, ""),
    ("melee-shoot-into-2", "ruling", "minuteman", "raider", ""),
    ("melee-shoot-into-3", "ruling", "minuteman", "raider", ""),
    ("melee-shoot-into-hidden", "ruling", "minuteman", "raider", ""),
    ("grid/fighter", "grid", "fighter", "ogre", "melee"),
    ("grid/fighter", "grid", "ogre", "fighter", "reach"),
    ("grid/rogue", "grid", "rogue", "ogre", "melee"),
    ("grid/rogue", "grid", "ogre", "rogue", "reach"),
    ("grid/cleric", "grid", "cleric", "ogre", "ranged"),
    ("grid/sorcerer", "grid", "sorcerer", "ogre", "ranged"),
    ("grid/big", "grid", "ogre", "fighter", "melee"),
    ("grid/border-walls", "grid", "archer", "knight", "ranged"),
    ("grid/corridor", "grid", "archer", "rat", "ranged"),
    ("grid/improved", "grid", "archer", "guard", "ranged"),
    ("grid/low-obstacle", "grid", "archer", "guard", "ranged"),
    ("grid/low-obstacle", "grid", "scout", "runner", "ranged"),
    ("grid/soft", "grid", "archer", "wizard", "ranged"),
    ("grid/total", "grid", "guard", "prisoner", "ranged"),
)

UI: Mapping[str, Mapping[str, str]] = ui_section("review")
"""The page's own labels (the rule texts come from the catalogue too): the ``review/`` part
of the catalogue's :data:`~fwwrules.catalogue.UI_TEXT`."""


@dataclass(frozen=True, slots=True)
class Item:
    """One reviewable item: a stable id (kept across versions), a heading and its HTML body."""

    id: str
    heading: str
    body: str


def _t(key: str, lang: str) -> str:
    return UI[key][lang]


def _e(text: str) -> str:
    return html.escape(text, quote=True)


PICTURE_DPI = 80.0
"""Pictures are drawn at the drawing styles' sizes and margins, at this resolution (the page
holds about 60 of them as PNG data URIs)."""


PICTURE_CACHE_ENV = "FWWRULES_CACHE_DIR"
"""Environment variable naming the folder ``fwwrules review`` keeps its pictures in (default:
``$XDG_CACHE_HOME/fwwrules`` or ``~/.cache/fwwrules``)."""


def default_cache_dir() -> Path:
    """Where ``fwwrules review`` keeps pictures between runs (see :data:`PICTURE_CACHE_ENV`)."""
    named = os.environ.get(PICTURE_CACHE_ENV)
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fwwrules"


@functools.lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of every file of the installed ``fwwrules`` package (code, examples, data) and
    of the matplotlib version: anything that could change a picture changes it."""
    import matplotlib

    root = Path(__file__).resolve().parent.parent
    h = hashlib.sha256(f"matplotlib {matplotlib.__version__}\n".encode())
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            h.update(path.relative_to(root).as_posix().encode() + b"\0")
            h.update(path.read_bytes())
    return h.hexdigest()


_DIGEST_FOLDER = re.compile(r"[0-9a-f]{24}")
"""A folder of the picture cache: the first 24 hex digits of a :func:`code_digest`."""
_OWN_FILE = re.compile(r"[0-9a-f]{32}\.png|\.[0-9a-f]{32}\.png\.[0-9a-f]{12}\.tmp")
"""A file the picture cache made: a picture, or the temporary file of one being written
(:func:`fwwrules.writing.atomic_open` names it ``.<name>.<random>.tmp``)."""


class PictureCache:
    """The review page's PNG pictures on disk, so that a second ``fwwrules review`` draws
    nothing that has not changed.

    A picture is filed under :func:`code_digest` (the package's files and matplotlib's version),
    the language, the resolution and the item's id: a change to any code, example or catalogue
    text makes every picture new, so an outdated picture is never shown. Only one digest is
    kept (older ones are removed when the first picture of a new one is stored), so the folder
    holds at most one page's pictures per language. A folder that cannot be read or written
    only means no caching: the page is drawn as without a cache. Pictures are written through
    :func:`fwwrules.writing.write_atomic`, so an interrupted run or a full disk leaves no half
    picture and no temporary file.

    Boundary cases (the cache lives in a folder others may write too):

    * The cache's own folder (``review-pictures``) must be a real folder: when it is a
      symbolic link (or anything but a folder) the cache is not used at all, and nothing it
      points to is read, written or removed.
    * Pruning removes only what the cache made: folders named as its digests hold only its
      pictures and their temporary files; each such file is removed, then the folder if it is
      empty. Links, other files and other folders are left as they are (never descended into).
    * A picture is read only when it is a regular file (never through a link: a FIFO or a link
      to ``/dev/zero`` is a miss, at once) of at most :data:`MAX_CACHED_PICTURE_BYTES`.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root) / "review-pictures"
        self.digest = code_digest()
        self.hits = 0
        self.misses = 0
        self._pruned = False

    def _folder(self) -> Path:
        return self.root / self.digest[:24]

    def _name(self, key: str, lang: str) -> str:
        return hashlib.sha256(f"{lang}\0{PICTURE_DPI!r}\0{key}".encode()).hexdigest()[:32] + ".png"

    def _path(self, key: str, lang: str) -> Path:
        return self._folder() / self._name(key, lang)

    def _real_folder(self, path: Path) -> bool:
        """``path`` is a folder itself, not a link to one (nor a file, nor missing)."""
        try:
            return stat.S_ISDIR(path.lstat().st_mode)
        except OSError:
            return False

    def get(self, key: str, lang: str) -> bytes | None:
        data = self._read(key, lang)
        if data is None or not data.startswith(b"\x89PNG\r\n\x1a\n"):
            self.misses += 1
            return None
        self.hits += 1
        return data

    def _read(self, key: str, lang: str) -> bytes | None:
        """The stored bytes, read through real folders only, from a regular file of bounded
        size; ``None`` for anything else (never blocks, never reads without bound)."""
        if not (self._real_folder(self.root) and self._real_folder(self._folder())):
            return None
        flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self._path(key, lang), flags)
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_CACHED_PICTURE_BYTES:
                return None
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(MAX_CACHED_PICTURE_BYTES + 1)
            return data if len(data) <= MAX_CACHED_PICTURE_BYTES else None
        except OSError:
            return None
        finally:
            os.close(fd)

    def put(self, key: str, lang: str, data: bytes) -> None:
        folder = self._folder()
        try:
            if os.path.lexists(self.root) and not self._real_folder(self.root):
                return  # a link or a file where the cache's folder belongs: no cache
            folder.mkdir(parents=True, exist_ok=True)
            if not self._real_folder(folder):
                return
            if not self._pruned:
                self._pruned = True
                self._prune(keep=folder.name)
            write_atomic(self._path(key, lang), data)
        except OSError:
            pass  # no cache, same page

    def _prune(self, keep: str) -> None:
        """Remove the pictures of other digests (see the class's boundary cases)."""
        with os.scandir(self.root) as entries:
            old = [
                e.path
                for e in entries
                if e.name != keep
                and _DIGEST_FOLDER.fullmatch(e.name)
                and e.is_dir(follow_symlinks=False)
            ]
        for path in old:
            with contextlib.suppress(OSError):
                with os.scandir(path) as files:
                    own = [
                        f.path
                        for f in files
                        if _OWN_FILE.fullmatch(f.name) and f.is_file(follow_symlinks=False)
                    ]
                for name in own:
                    os.unlink(name)
                os.rmdir(path)  # fails, harmlessly, when something else is left in it


def _png(draw: Callable[[Any], object], grid: bool) -> bytes:
    """A PNG drawn by ``draw(ax)`` on a fresh Agg figure."""
    from .board import DEFAULT_STYLE
    from .grid import DEFAULT_GRID_STYLE

    style = DEFAULT_GRID_STYLE if grid else DEFAULT_STYLE
    ax = new_axes(style.figsize, PICTURE_DPI, style.margins)
    draw(ax)
    buf = io.BytesIO()
    fig = figure_of(ax)
    # Nothing sticks out of the figure (fwwrules.draw.layout): it is saved as it is.
    fig.savefig(buf, format="png", metadata={"Software": None})
    return buf.getvalue()


def _draw_picture(scenario: Any, answer: Any, kind: str, lang: str) -> bytes:
    if kind == "grid":
        from .grid import draw_grid

        return _png(lambda ax: draw_grid(scenario, ax, ruling=answer, lang=lang), True)
    if kind == "slide":
        return _png(lambda ax: draw_board(scenario, ax, slide=answer, lang=lang), False)
    if kind == "withdraw":
        return _png(lambda ax: draw_board(scenario, ax, withdraw=answer, lang=lang), False)
    return _png(lambda ax: draw_board(scenario, ax, ruling=answer, lang=lang), False)


def _picture(
    scenario: Any, answer: Any, kind: str, lang: str, key: str, cache: PictureCache | None
) -> str:
    """The ``<img>`` of one item's picture: from ``cache`` when it holds ``key``, else drawn
    (and stored)."""
    data = None if cache is None else cache.get(key, lang)
    if data is None:
        data = _draw_picture(scenario, answer, kind, lang)
        if cache is not None:
            cache.put(key, lang, data)
    uri = "data:image/png;base64," + base64.b64encode(data).decode("ascii")
    return f'<img class="picture" alt="" src="{uri}">'


def _two(en: str, de: str) -> str:
    """English and German side by side (pre-wrapped, as rulings print them)."""
    return (
        '<div class="two"><div lang="en"><b>English</b><pre>'
        + _e(en)
        + '</pre></div><div lang="de"><b>Deutsch</b><pre>'
        + _e(de)
        + "</pre></div></div>"
    )


def _answer(scenario: Any, kind: str, first: str, second: Any, attack: str) -> Any:
    import fwwrules

    if kind == "slide":
        return fwwrules.slide(scenario, first, second)
    if kind == "withdraw":
        return fwwrules.withdraw(scenario, first)
    if kind == "grid":
        return fwwrules.grid_cover(scenario, first, second, attack=attack)
    return fwwrules.ruling(scenario, first, second)


def _question_id(name: str, kind: str, first: str, second: Any, attack: str) -> str:
    if kind == "slide":
        return f"example:{name}:slide:{first}:{second[0]:g},{second[1]:g}"
    if kind == "withdraw":
        return f"example:{name}:withdraw:{first}"
    if kind == "grid":
        return f"example:{name}:{attack}:{first}>{second}"
    return f"example:{name}:{first}>{second}"


def clause_items(clauses: Sequence[str], lang: str) -> list[Item]:
    """One item per clause: its rule and every ruling text, English beside German."""
    items: list[Item] = []
    for clause in clauses:
        rule = CLAUSE_RULES.get(clause) or dict.fromkeys(LANGS, "")
        parts = [f"<h4>{_e(_t('rule', lang))}</h4>", _two(rule["en"], rule["de"])]
        messages = [(k, v) for k, v in MESSAGES.items() if k.split("/")[0] == clause]
        if messages:
            parts.append(f"<h4>{_e(_t('messages', lang))}</h4>")
            for key, entry in messages:
                parts.append(f'<p class="key"><code>{_e(key)}</code></p>')
                parts.append(_two(entry["en"], entry["de"]))
        items.append(Item(f"clause:{clause}", clause, "".join(parts)))
    return items


def example_items(lang: str, cache: PictureCache | None = None) -> list[Item]:
    """One item per question of :data:`EXAMPLE_QUESTIONS`: picture and ruling in both
    languages (the picture's labels in ``lang``; pictures from ``cache`` when it has them)."""
    import fwwrules

    items: list[Item] = []
    titles = fwwrules.examples()
    loaded: dict[str, Any] = {}
    for name, kind, first, second, attack in EXAMPLE_QUESTIONS:
        if name not in loaded:
            loaded[name] = fwwrules.load(fwwrules.example_path(name))
        scenario = loaded[name]
        answer = _answer(scenario, kind, first, second, attack)
        what = {"slide": f"{first} → {second}", "withdraw": f"{first} withdraws"}.get(
            kind, f"{first} → {second}" + (f" ({attack})" if attack else "")
        )
        heading = f"{titles.get(name) or name}: {what}"
        qid = _question_id(name, kind, first, second, attack)
        body = _picture(scenario, answer, kind, lang, qid, cache) + _two(
            answer.explain("en"), answer.explain("de")
        )
        items.append(Item(qid, heading, body))
    return items


def note_items(lang: str, cache: PictureCache | None = None) -> list[Item]:
    """One item per translation note: both wordings side by side, then the engine's answer
    and picture under each reading (original first; pictures from ``cache`` when it has
    them)."""
    from .. import translation

    items: list[Item] = []
    reading_word = {k: NOTES[f"reading/{k}"] for k in ("original", "german", "only")}
    for note in translation.NOTES:
        texts = {p: NOTES[f"{note.key}/{p}"] for p in ("topic", "german", "original", "engine")}
        parts = []
        for part in ("german", "original", "engine"):
            parts.append(f"<h4>{_e(_t(part, lang))}</h4>")
            parts.append(_two(texts[part]["en"], texts[part]["de"]))
        clauses = ", ".join(note.clauses)
        option = note.option or "—"
        parts.append(
            f'<p class="meta">{_e(clauses)} · {_e(_t("option", lang))}: <code>{_e(option)}'
            "</code></p>"
        )
        for k, reading in enumerate(translation.readings(note.number)):
            answer = reading.answer()
            kind = reading.query[0]
            key = f"note:{note.number}:{k}:{reading.kind}"
            parts.append(f'<h4 class="reading">{_e(reading_word[reading.kind][lang])}</h4>')
            parts.append(_picture(reading.scenario, answer, kind, lang, key, cache))
            parts.append(_two(answer.explain("en"), answer.explain("de")))
        heading = f"{note.number}. {texts['topic'][lang]}"
        items.append(Item(f"note:{note.number}", heading, "".join(parts)))
    return items


_CSS = """
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fafafa}
header{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ccc;
 padding:.6em 1.2em;display:flex;gap:1em;flex-wrap:wrap;align-items:center}
header h1{font-size:1.15em;margin:0 1em 0 0}
main{max-width:1500px;margin:0 auto;padding:0 1.2em 4em}
section.item{background:#fff;border:1px solid #ddd;border-radius:6px;margin:1em 0;padding:.6em 1em}
section.item.ok{border-color:#2e7d32;background:#f4fbf4}
.two{display:grid;grid-template-columns:1fr 1fr;gap:1em}
.two pre{white-space:pre-wrap;font:inherit;margin:.2em 0}
img.picture{max-width:100%;height:auto;display:block;margin:.4em 0}
textarea{width:100%;min-height:3em;box-sizing:border-box;font:inherit}
.review{margin-top:.5em;border-top:1px dashed #ccc;padding-top:.4em}
#status{color:#8a4b00}
h2{margin-top:1.6em}h3{margin:.2em 0}h4{margin:.6em 0 .2em;font-size:.95em;color:#444}
@media (max-width:900px){.two{grid-template-columns:1fr}}
"""

_JS = """
(function(){
const FORMAT = %(format)s, LANG = %(lang)s, UI = %(ui)s;
let extra = {};
const items = () => Array.from(document.querySelectorAll("section.item"));
function state(){
  const out = Object.assign({}, extra);
  for (const s of items()){
    out[s.dataset.id] = {checked: s.querySelector("input.ok").checked,
                         comment: s.querySelector("textarea").value};
  }
  return out;
}
function progress(){
  const all = items(), done = all.filter(s => s.querySelector("input.ok").checked).length;
  for (const s of all) s.classList.toggle("ok", s.querySelector("input.ok").checked);
  document.getElementById("progress").textContent = done + " / " + all.length + " " + UI.done;
}
document.addEventListener("change", progress);
document.getElementById("export").addEventListener("click", () => {
  const data = {format: FORMAT, lang: LANG, generator: %(generator)s,
                reviewer: document.getElementById("reviewer").value, items: state()};
  const blob = new Blob([JSON.stringify(data, null, 2) + "\\n"], {type: "application/json"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "fwwrules-review.json";
  document.body.appendChild(a); a.click(); a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
});
function load(data){
  const status = document.getElementById("status");
  if (!data || data.format !== FORMAT || typeof data.items !== "object" || !data.items){
    status.textContent = UI.bad; return;
  }
  const byId = new Map(items().map(s => [s.dataset.id, s]));
  extra = {}; let n = 0, unknown = 0;
  for (const [id, v] of Object.entries(data.items)){
    const s = byId.get(id);
    if (!s){ extra[id] = v; unknown++; continue; }
    s.querySelector("input.ok").checked = !!(v && v.checked);
    s.querySelector("textarea").value = (v && typeof v.comment === "string") ? v.comment : "";
    n++;
  }
  if (typeof data.reviewer === "string") document.getElementById("reviewer").value = data.reviewer;
  status.textContent = UI.imported.replace("{n}", n).replace("{unknown}", unknown);
  progress();
}
document.getElementById("import").addEventListener("change", ev => {
  const f = ev.target.files[0]; if (!f) return;
  const r = new FileReader();
  r.onload = () => { let d = null; try { d = JSON.parse(r.result); } catch (e) {} load(d); };
  r.readAsText(f); ev.target.value = "";
});
window.fwwReview = {state, load};
progress();
})();
"""


def build_review(
    lang: str = "en",
    *,
    clauses: Sequence[str] | None = None,
    cache: PictureCache | None = None,
) -> str:
    """The whole review page as one HTML string; ``lang`` picks the page's own labels and the
    pictures' labels (every text to review is shown in both languages anyway).

    ``clauses`` defaults to every clause with a rule statement in the catalogue
    (``CLAUSE_RULES``, in the order of ``docs/clauses.txt``; the package ships without
    ``docs/``). Drawing the pictures is nearly all the work (about 0.1 s each); with a
    ``cache`` (``fwwrules review`` uses :func:`default_cache_dir`) pictures drawn by an earlier
    run of the same code are taken from it, and the page is the same byte for byte. Raises
    ``ValueError`` for an unknown language.
    """
    import fwwrules

    check_lang(lang)
    if clauses is None:
        clauses = list(CLAUSE_RULES)
    sections = [
        ("clauses", clause_items(clauses, lang)),
        ("examples", example_items(lang, cache)),
        ("notes", note_items(lang, cache)),
    ]
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(_t('title', lang))}</title><style>{_CSS}</style></head><body>",
        f"<header><h1>{_e(_t('title', lang))}</h1>",
        f'<label>{_e(_t("reviewer", lang))} <input id="reviewer" type="text" size="18"></label>',
        f'<button id="export" type="button">{_e(_t("export", lang))}</button>',
        f'<label class="import">{_e(_t("import", lang))} '
        '<input id="import" type="file" accept=".json,application/json"></label>',
        '<span id="progress"></span> <span id="status" role="status"></span></header><main>',
        f"<p>{_e(_t('intro', lang))}</p>",
        "<nav><ul>"
        + "".join(f'<li><a href="#{k}">{_e(_t(k, lang))}</a></li>' for k, _ in sections)
        + "</ul></nav>",
    ]
    for key, items in sections:
        out.append(f'<h2 id="{key}">{_e(_t(key, lang))} ({len(items)})</h2>')
        for item in items:
            out.append(
                f'<section class="item" data-id="{_e(item.id)}"><h3>{_e(item.heading)}</h3>'
                f"{item.body}"
                f'<div class="review"><label><input class="ok" type="checkbox"> '
                f"{_e(_t('ok', lang))}</label><br><label>{_e(_t('comment', lang))}"
                f'<textarea aria-label="{_e(_t("comment", lang))}"></textarea></label></div>'
                "</section>"
            )
    ui = {
        "done": _t("done", lang),
        "imported": _t("imported", lang),
        "bad": _t("bad-file", lang).replace("{format}", REVIEW_FORMAT),
    }
    script = _JS % {
        "format": json.dumps(REVIEW_FORMAT),
        "lang": json.dumps(lang),
        "ui": json.dumps(ui, ensure_ascii=False),
        "generator": json.dumps(f"fwwrules {fwwrules.__version__}"),
    }
    out.append(f"</main><script>{script}</script></body></html>")
    return "\n".join(out) + "\n"


__all__ = [
    "EXAMPLE_QUESTIONS",
    "LANGS",
    "PICTURE_CACHE_ENV",
    "REVIEW_FORMAT",
    "Item",
    "PictureCache",
    "build_review",
    "default_cache_dir",
]
