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
import io
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import conformance
from ..catalogue import (
    CLAUSE_RULES,
    LANGS,
    MESSAGES,
    NOTES,
    UI_TEXT,
    WORDS,
    Entry,
    check_lang,
    ui_section,
)
from ..constants import MAX_CACHED_PICTURE_BYTES
from ..pieces import title_in
from ..suggestions import REVIEW_FORMAT
from ..writing import remove_stale_temporaries, write_atomic
from .board import draw_board
from .figure import figure_of, new_axes

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
class Part:
    """One piece of an item's body, as the template shows it (``kind`` says which fields count):

    * ``texts``: a text in every language side by side (``texts`` by language); with a ``msg``
      (the catalogue text's id: a message id, ``rule:<clause>``, ``note:<key>``,
      ``word:<token>`` or ``ui:<key>``) each language's text can be edited in place as a
      suggested wording; without one (a ruling's whole explanation) it is read only;
    * ``heading`` (``text``, ``css``), ``key`` (a catalogue key shown as code), ``meta``
      (``text`` then ``code``), ``picture`` (``text``: a ``data:`` URI), ``cites`` (the
      ``clauses`` an answer cites, linked to their items), ``link`` (``text`` linking to the
      address in ``code``).
    """

    kind: str
    text: str = ""
    msg: str = ""
    texts: Mapping[str, str] | None = None
    clauses: tuple[str, ...] = ()
    css: str = ""
    code: str = ""


@dataclass(frozen=True, slots=True)
class Item:
    """One reviewable item: a stable id (kept across versions), a heading and its parts; an
    ``anchor`` (the HTML id) where other items link to it."""

    id: str
    heading: str
    parts: tuple[Part, ...]
    anchor: str = ""


def _t(key: str, lang: str) -> str:
    return UI[key][lang]


PICTURE_DPI = 80.0
"""Pictures are drawn at the drawing styles' sizes and margins, at this resolution (the page
holds about 60 of them as PNG data URIs)."""


PICTURE_CACHE_ENV = "FWWRULES_CACHE_DIR"
"""Environment variable naming the folder ``fwwrules review`` keeps its pictures in (default:
the platform's cache folder, :func:`default_cache_dir`)."""


def default_cache_dir() -> Path:
    """Where ``fwwrules review`` keeps pictures between runs: ``$FWWRULES_CACHE_DIR``
    (:data:`PICTURE_CACHE_ENV`), else the platform's folder for a user's caches
    (``platformdirs.user_cache_dir``: ``$XDG_CACHE_HOME/fwwrules`` or ``~/.cache/fwwrules`` on
    Linux, ``~/Library/Caches/fwwrules`` on macOS, ``%LOCALAPPDATA%\\fwwrules\\Cache`` on
    Windows)."""
    named = os.environ.get(PICTURE_CACHE_ENV)
    if named:
        return Path(named)
    import platformdirs

    return Path(platformdirs.user_cache_dir("fwwrules", appauthor=False))


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
    picture and no temporary file; the temporary file of a run killed while storing a picture
    is removed by the next run that stores one
    (:func:`fwwrules.writing.remove_stale_temporaries`).

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
                remove_stale_temporaries(folder)  # of a run killed while storing a picture
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
) -> Part:
    """One item's picture as a ``data:`` URI: from ``cache`` when it holds ``key``, else drawn
    (and stored)."""
    data = None if cache is None else cache.get(key, lang)
    if data is None:
        data = _draw_picture(scenario, answer, kind, lang)
        if cache is not None:
            cache.put(key, lang, data)
    return Part("picture", "data:image/png;base64," + base64.b64encode(data).decode("ascii"))


def _texts(entry: Mapping[str, str], msg: str = "") -> Part:
    """A text in every language side by side (pre-wrapped, as rulings print them); editable as
    a suggested wording when it is the catalogue text ``msg``."""
    return Part("texts", msg=msg, texts={lang: entry[lang] for lang in LANGS})


def _answer(scenario: Any, kind: str, first: str, second: Any, attack: str) -> Any:
    import fwwrules

    if kind == "slide":
        return fwwrules.slide(scenario, first, second)
    if kind == "withdraw":
        return fwwrules.withdraw(scenario, first)
    if kind == "grid":
        return fwwrules.grid_cover(scenario, first, second, attack=attack)
    return fwwrules.ruling(scenario, first, second)


def _explained(answer: Any) -> tuple[Part, ...]:
    """An answer's explanation in every language, and the clauses its reasons cite (linked to
    their items, where a suggested wording of each message is made)."""
    reasons = getattr(answer, "reasons", ())
    cited = tuple(dict.fromkeys(r.clause for r in reasons if r.clause in CLAUSE_RULES))
    text = _texts({lang: answer.explain(lang) for lang in LANGS})
    return (text, Part("cites", clauses=cited)) if cited else (text,)


def _question_id(name: str, kind: str, first: str, second: Any, attack: str) -> str:
    if kind == "slide":
        return f"example:{name}:slide:{first}:{second[0]:g},{second[1]:g}"
    if kind == "withdraw":
        return f"example:{name}:withdraw:{first}"
    if kind == "grid":
        return f"example:{name}:{attack}:{first}>{second}"
    return f"example:{name}:{first}>{second}"


def clause_items(clauses: Sequence[str], lang: str) -> list[Item]:
    """One item per clause: its rule and every ruling text, English beside German, each one
    editable as a suggested wording."""
    items: list[Item] = []
    for clause in clauses:
        rule = CLAUSE_RULES.get(clause) or dict.fromkeys(LANGS, "")
        parts = [Part("heading", _t("rule", lang)), _texts(rule, f"rule:{clause}")]
        messages = [(k, v) for k, v in MESSAGES.items() if k.split("/")[0] == clause]
        if messages:
            parts.append(Part("heading", _t("messages", lang)))
            for key, entry in messages:
                parts += [Part("key", key), _texts(entry, key)]
        items.append(Item(f"clause:{clause}", clause, tuple(parts), anchor=f"clause-{clause}"))
    return items


def word_items(lang: str) -> list[Item]:
    """The words rulings are made of (``catalogue.WORDS``), the headlines and refusals no one
    clause owns, and the labels of each surface (``catalogue.UI_TEXT``: panels, pictures,
    threat map, this page): one item each, every text editable as a suggested wording."""

    def item(item_id: str, heading: str, entries: Sequence[tuple[str, str, Entry]]) -> Item:
        parts: list[Part] = []
        for key, msg, entry in entries:
            parts += [Part("key", key), _texts(entry, msg)]
        return Item(item_id, heading, tuple(parts))

    from .. import translation

    clause_ids = set(CLAUSE_RULES)
    general = [(k, k, v) for k, v in MESSAGES.items() if k.split("/")[0] not in clause_ids]
    in_notes = {f"{n.key}/{p}" for n in translation.NOTES for p in _NOTE_PARTS}
    notes = [(k, f"note:{k}", v) for k, v in NOTES.items() if k not in in_notes]
    items = [
        item("texts:general", _t("general", lang), general),
        item("texts:notes", _t("notes-words", lang), notes),
        item("texts:words", _t("words", lang), [(k, f"word:{k}", v) for k, v in WORDS.items()]),
    ]
    surfaces = dict.fromkeys(k.split("/")[0] for k in UI_TEXT)
    for surface in surfaces:
        entries = [(k, f"ui:{k}", v) for k, v in UI_TEXT.items() if k.startswith(surface + "/")]
        items.append(item(f"texts:ui:{surface}", _t(f"surface-{surface}", lang), entries))
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
        what = {
            "slide": f"{first} → {second}",
            "withdraw": _t("withdraws", lang).format(model=first),
        }.get(kind, f"{first} → {second}" + (f" ({attack})" if attack else ""))
        heading = f"{title_in(scenario.title, lang) or titles.get(name) or name}: {what}"
        qid = _question_id(name, kind, first, second, attack)
        link = conformance_link(name, kind, first, second, attack)
        parts = (
            _picture(scenario, answer, kind, lang, qid, cache),
            *_explained(answer),
            Part("link", _t("conformance", lang), code=link),
        )
        items.append(Item(qid, heading, parts))
    return items


def conformance_link(name: str, kind: str, first: str, second: Any, attack: str) -> str:
    """Where the conformance table (``docs/conformance.md``) shows an example question: its
    row, or, for a question the notebooks do not assert, the example's section."""
    question = conformance.Question(name, kind, first, second, attack)  # type: ignore[arg-type]
    row = conformance.row_for(question)
    target = conformance.anchor(question) if row else conformance.example_anchor(name)
    return f"{conformance.PAGE_URL}#{target}"


_NOTE_PARTS = ("topic", "german", "original", "engine")
"""The texts of one translation note (``catalogue.NOTES["<note>/<part>"]``)."""


def note_items(lang: str, cache: PictureCache | None = None) -> list[Item]:
    """One item per translation note: both wordings side by side, then the engine's answer
    and picture under each reading (original first; pictures from ``cache`` when it has
    them)."""
    from .. import translation

    items: list[Item] = []
    reading_word = {k: NOTES[f"reading/{k}"] for k in ("original", "german", "only")}
    for note in translation.NOTES:
        texts = {p: NOTES[f"{note.key}/{p}"] for p in _NOTE_PARTS}
        parts = [
            Part("heading", _t("topic", lang)),
            _texts(texts["topic"], f"note:{note.key}/topic"),
        ]
        for part in ("german", "original", "engine"):
            parts.append(Part("heading", _t(part, lang)))
            parts.append(_texts(texts[part], f"note:{note.key}/{part}"))
        option = note.option or "—"
        meta = f"{', '.join(note.clauses)} · {_t('option', lang)}: "
        parts.append(Part("meta", meta, code=option))
        for k, reading in enumerate(translation.readings(note.number)):
            answer = reading.answer()
            kind = reading.query[0]
            key = f"note:{note.number}:{k}:{reading.kind}"
            parts.append(Part("heading", reading_word[reading.kind][lang], css="reading"))
            parts.append(_picture(reading.scenario, answer, kind, lang, key, cache))
            parts.extend(_explained(answer))
        heading = f"{note.number}. {texts['topic'][lang]}"
        items.append(Item(f"note:{note.number}", heading, tuple(parts)))
    return items


_SCRIPT_UI = {
    # the script's words: its key -> the catalogue's review/ key
    "done": "done",
    "notDone": "not-done",
    "imported": "imported",
    "importedOther": "imported-other",
    "restored": "restored",
    "otherBuild": "other-build",
    "saved": "saved",
    "savedDirty": "saved-dirty",
    "notSaved": "not-saved",
    "leave": "leave",
    "anonymous": "anonymous",
    "theySuggest": "they-suggest",
    "suggestions": "suggestions",
    "editHint": "edit-hint",
    "suggested": "suggested",
    "revert": "revert",
}


def language_name(code: str) -> str:
    """A language's name in that language, from the locale data (CLDR, through Babel), as a
    column heading: ``English``, ``Deutsch`` (a third language needs no code here).

    >>> language_name("en"), language_name("de")
    ('English', 'Deutsch')
    """
    from babel import Locale

    name: str = Locale.parse(code).get_display_name(code) or code
    return name[:1].upper() + name[1:]


def _environment() -> Any:
    """The Jinja2 environment of the page's template (``templates/`` beside this module, in
    the wheel as package data): HTML-escaped by default, an unknown name is an error."""
    import jinja2

    return jinja2.Environment(
        loader=jinja2.PackageLoader("fwwrules.draw", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=False,
    )


def _build_id(lang: str, sections: Sequence[tuple[str, str, list[Item]]]) -> str:
    """The page's build: a digest of its language, version and every item (what the reviewer
    sees), so that work kept in the browser belongs to the page it was done on."""
    import fwwrules

    h = hashlib.sha256(f"{fwwrules.__version__}\0{lang}\0".encode())
    for key, _, items in sections:
        h.update(key.encode() + b"\0")
        for item in items:
            h.update(repr(item).encode())
    return h.hexdigest()[:20]


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

    The page is ``templates/review.html.j2`` with ``review.css`` and ``review.js`` inlined
    (one file, no network). In the browser the reviewer's work is kept in local storage
    under the page's build (:func:`_build_id`) and restored on reload; the export
    (``fwwrules/review@1``) holds ticks, comments, suggested wordings and the work of other
    reviewers imported into the page, by name.
    """
    import fwwrules

    check_lang(lang)
    if clauses is None:
        clauses = list(CLAUSE_RULES)
    sections = [
        ("clauses", _t("clauses", lang), clause_items(clauses, lang)),
        ("examples", _t("examples", lang), example_items(lang, cache)),
        ("notes", _t("notes", lang), note_items(lang, cache)),
        ("texts", _t("texts", lang), word_items(lang)),
    ]
    env = _environment()
    script = env.loader.get_source(env, "review.js")[0]
    if "</script" in script.lower():  # pragma: no cover - a programming error
        raise RuntimeError("review.js must not contain '</script'")
    ui = {name: _t(key, lang) for name, key in _SCRIPT_UI.items()}
    ui["bad"] = _t("bad-file", lang).replace("{format}", REVIEW_FORMAT)
    build = _build_id(lang, sections)
    generator = f"fwwrules {fwwrules.__version__}"
    config = {"format": REVIEW_FORMAT, "lang": lang, "build": build, "generator": generator}
    page: str = env.get_template("review.html.j2").render(
        lang=lang,
        ui={key: entry[lang] for key, entry in UI.items()},
        languages=[(code, language_name(code)) for code in LANGS],
        sections=[{"key": k, "title": t, "items": items} for k, t, items in sections],
        build=build,
        generator=generator,
        config={**config, "ui": ui},
        css=env.loader.get_source(env, "review.css")[0],
        script=script,
    )
    return page


__all__ = [
    "EXAMPLE_QUESTIONS",
    "LANGS",
    "PICTURE_CACHE_ENV",
    "REVIEW_FORMAT",
    "Item",
    "Part",
    "PictureCache",
    "build_review",
    "default_cache_dir",
]
