"""The ``fwwrules`` command line (also ``python -m fwwrules``).

Exit status: 0 for any answer (an attack that is not allowed is still an answer), 2 for an
unusable file, an unknown id or a bad argument. Errors are one clear message each on stderr,
never a traceback.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import errno
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from . import __version__
from .arguments import area_order, point
from .catalogue import LANGS
from .checks import nfc
from .errors import FwwError, QueryError, ScenarioError, printable
from .pieces import BANDS, RULESET_NAMES, Bounds
from .writing import WriteError, check_output_name, refuse_onto_inputs, write_atomic

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERNAL = 1


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse already exits 2; keep its one line
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class _StdoutFailed(Exception):
    """Standard output could not take the answer (a closed pipe, a full disk, an encoding)."""


def _say(text: str) -> None:
    """Print one answer line (or block) on stdout; a failure there ends the command quietly
    with exit status 2 (:func:`main`), never a traceback or an "internal error"."""
    try:
        sys.stdout.write(text + "\n")
    except (OSError, UnicodeEncodeError) as exc:
        raise _StdoutFailed() from exc


def _wrote(path: str | os.PathLike[str], *, to_stderr: bool = False) -> None:
    """``wrote /full/path`` (escaped for the terminal: a name may hold anything)."""
    line = f"wrote {printable(str(Path(path).resolve()))}"
    if to_stderr:
        print(line, file=sys.stderr)
    else:
        _say(line)


def _point(text: str) -> tuple[float, float]:
    """``X,Y``: two finite numbers within the coordinate limit (``MAX_COORDINATE``)."""
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected X,Y (two numbers), got {printable(repr(text))}"
        ) from None
    try:
        return point((x, y), "the point")
    except QueryError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _check_folder(path: str) -> None:
    """Refuse an output file whose folder does not exist before any work is done (the write
    itself reports every other failure: :class:`~fwwrules.writing.WriteError`)."""
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        reason = f"no folder {printable(folder)}"
        if os.path.exists(folder):
            reason = f"{printable(folder)} is not a folder"
        raise WriteError(path, reason, errno.ENOENT)


def _outputs(output: str, langs: Sequence[str]) -> list[str]:
    """The files a command writes for ``-o output``: the file itself, or one per language
    (``board.en.png``, :func:`~fwwrules.draw.export.language_path`'s names) for several."""
    if len(langs) == 1:
        return [output]
    out = Path(output)
    return [str(out.with_name(f"{out.stem}.{lang}{out.suffix}")) for lang in langs]


def _not_onto_inputs(outputs: Sequence[str], inputs: Sequence[str | os.PathLike[str]]) -> None:
    """Refuse (exit 2, before any work) to write an output onto one of the command's inputs:
    the same file, a hard link of it or a symbolic link to it
    (:func:`~fwwrules.writing.refuse_onto_inputs`)."""
    for output in outputs:
        refuse_onto_inputs(output, inputs)


def _json(data: Any, **kwargs: Any) -> str:
    """JSON text; never NaN or Infinity (they are not JSON: a value that would need one is a
    bug, reported as such, since every number entering a command is checked)."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, **kwargs)


def _positive(text: str) -> float:
    """A positive finite number (a picture's width, dpi or scale)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not (value > 0 and value != float("inf")):
        raise argparse.ArgumentTypeError(f"expected a positive number, got {text!r}")
    return value


def _emit(result: Any, args: argparse.Namespace) -> None:
    if args.json:
        _say(_json(result.to_dict(args.lang), indent=2))
    else:
        _say(result.explain(args.lang))


def cmd_check(args: argparse.Namespace) -> int:
    """``fwwrules check FILE``: ``FILE: ok: <summary>`` on stdout, or the problems (exit 2)."""
    from . import load

    scenario = load(args.file)
    summary = scenario.summary() if hasattr(scenario, "summary") else None
    _say(f"{printable(args.file)}: ok" + (f": {summary}" if summary else ""))
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    if getattr(args, "threat", False):
        from .threat import json_schema as threat_schema

        _say(_json(threat_schema(), indent=2))
        return EXIT_OK
    from .scenario_spec import json_schema

    _say(_json(json_schema(), indent=2))
    return EXIT_OK


def _id(text: str) -> str:
    """An id as the command line gives it, in NFC as a file's ids are read (a terminal may
    pass ``ö`` as ``o`` and a combining diaeresis)."""
    return str(nfc(text))


def _area(text: str) -> Bounds:
    """``X0,Y0,X1,Y1``: four numbers with ``X0 < X1`` and ``Y0 < Y1``; a refusal quotes the
    text as given and says what is wrong with it (:func:`~fwwrules.arguments.area_order`)."""
    try:
        x0, y0, x1, y1 = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected X0,Y0,X1,Y1 (four numbers), got {printable(repr(text))}"
        ) from None
    wrong = area_order(x0, y0, x1, y1) if all(map(math.isfinite, (x0, y0, x1, y1))) else None
    if wrong:
        raise argparse.ArgumentTypeError(f"{printable(text)}: {wrong}")
    return Bounds(x0, y0, x1, y1)  # the numbers' range: threat_map (arguments.area)


def cmd_threat(args: argparse.Namespace) -> int:
    """``fwwrules threat FILE --side SIDE``: the threat map (text summary, JSON, picture)."""
    if args.output:  # a wrong name or folder costs no work: checked before any import
        check_output_name(args.output)
        _check_folder(args.output)
        _not_onto_inputs([args.output], [args.file])
    from .files import load
    from .grid import GridScenario
    from .threat import summary_text, threat_map

    scenario = load(args.file)
    if isinstance(scenario, GridScenario):
        raise QueryError(
            f"{printable(args.file)}: a threat map needs a scenario file, not a grid file"
        )
    result = threat_map(
        scenario,
        args.side,
        base=args.base,
        step=args.step,
        rules=args.rules,
        weapon=args.weapon,
        area=args.area,
    )
    if args.output:
        try:
            from .draw.threat import save_threat_map
        except ImportError as exc:  # matplotlib is an optional extra
            raise QueryError(
                f"drawing needs matplotlib: pip install 'fwwrules[draw]' ({exc})"
            ) from None
        out = save_threat_map(result, args.output, layer=args.layer, lang=args.lang)
        _wrote(out, to_stderr=args.json)
    if args.json:
        _say(_json(result.to_dict()))
    elif not args.output:
        _say(summary_text(result, args.lang))
    return EXIT_OK


def _target(text: str) -> str | tuple[float, float]:
    """A target id, or a point ``X,Y`` in the scenario's units (ids never hold a comma)."""
    if "," not in text:
        return text
    try:
        return _point(text)
    except argparse.ArgumentTypeError as exc:
        raise QueryError(f"--target: {exc}") from None


def cmd_ruling(args: argparse.Namespace) -> int:
    """``fwwrules ruling FILE --attacker A --target T``; with ``--compare`` the attack under
    both rulesets and where they differ (``--rules`` then makes no sense: refused)."""
    from . import ruling
    from .files import load_scenario_file

    if args.compare and args.rules is not None:
        raise QueryError("--compare rules under both rulesets: leave out --rules")
    scenario = load_scenario_file(args.file)
    query: dict[str, Any] = {
        "weapon": args.weapon,
        "band": args.band,
        "quick": args.quick,
        "reacting_to_charge": args.reacting_to_charge,
    }
    if args.compare:
        from .compare import compare

        _emit(compare(scenario, args.attacker, _target(args.target), **query), args)
        return EXIT_OK
    result = ruling(scenario, args.attacker, _target(args.target), rules=args.rules, **query)
    _emit(result, args)
    return EXIT_OK


def cmd_withdraw(args: argparse.Namespace) -> int:
    from . import withdraw
    from .files import load_scenario_file

    _emit(withdraw(load_scenario_file(args.file), args.model, rules=args.rules), args)
    return EXIT_OK


def cmd_slide(args: argparse.Namespace) -> int:
    from . import slide
    from .files import load_scenario_file

    _emit(slide(load_scenario_file(args.file), args.model, args.to, rules=args.rules), args)
    return EXIT_OK


def cmd_render(args: argparse.Namespace) -> int:
    """``fwwrules render FILE [-o board.png] [--attacker A --target T] [size, rules, band,
    title, language]``, or with ``--slide MODEL --to X,Y`` the slide (a GIF or HTML
    animation, or the still picture of where it ends)."""
    # Argument errors come before any work: the names, the folder, the inputs.
    if (args.attacker is None) != (args.target is None):
        raise QueryError("give both --attacker and --target, or neither")
    if (args.slide is None) != (args.to is None):
        raise QueryError("give both --slide MODEL and --to X,Y, or neither")
    check_output_name(args.output, animation=args.slide is not None)
    _check_folder(args.output)
    langs: list[str] = args.lang
    _not_onto_inputs(_outputs(args.output, langs), [args.file])
    from . import load
    from .files import load_scenario_file
    from .grid import GridScenario

    # A slide needs a scenario file (a grid file is refused with a clear error).
    scenario = load_scenario_file(args.file) if args.slide is not None else load(args.file)
    target = args.target
    if target is not None and not isinstance(scenario, GridScenario):
        target = _target(target)  # a point X,Y, as `ruling` takes it
    try:
        from .draw import render_file
    except ImportError as exc:  # matplotlib is an optional extra
        raise QueryError(
            f"drawing needs matplotlib: pip install 'fwwrules[draw]' ({exc})"
        ) from None
    size = {"scale": args.scale, "dpi": args.dpi, "width": args.width}
    if args.slide is not None:
        from .draw.animate import render_slide
        from .draw.export import language_path

        for lang in langs:
            _wrote(
                render_slide(
                    scenario,  # type: ignore[arg-type]
                    args.slide,
                    args.to,
                    args.output if len(langs) == 1 else language_path(args.output, lang),
                    rules=args.rules,
                    lang=lang,
                    title=args.title,
                    frames=args.frames,
                    **size,
                )
            )
        return EXIT_OK
    if args.side_view:
        return _render_side_view(scenario, args, langs, target, size)
    from .draw.render import render_files

    options = {
        "attacker": args.attacker, "target": target, "weapon": args.weapon, "rules": args.rules,
        "band": args.band, "title": args.title, "attack": args.attack, "frame": args.frame,
        **size,
    }  # fmt: skip
    if len(langs) == 1:
        outs = [render_file(scenario, args.output, lang=langs[0], **options)]
    else:
        outs = render_files(scenario, args.output, langs, **options)
    # Without -o the picture goes to board.png in the current folder: say where, in full.
    for out in outs:
        _wrote(out)
    return EXIT_OK


def _render_side_view(
    scenario: Any, args: argparse.Namespace, langs: list[str], target: Any, size: dict[str, Any]
) -> int:
    """``fwwrules render ... --side-view``: the board with the shot's side view below it, one
    file per language (as without it)."""
    from .draw.export import language_path
    from .draw.side import render_side_view
    from .grid import GridScenario

    if isinstance(scenario, GridScenario):
        raise QueryError("--side-view needs a scenario file, not a grid file")
    if args.attacker is None:
        raise QueryError("--side-view needs --attacker and --target: the shot it shows")
    options = {
        "weapon": args.weapon, "rules": args.rules, "band": args.band, "title": args.title,
        "frame": args.frame, **size,
    }  # fmt: skip
    for lang in langs:
        out = args.output if len(langs) == 1 else language_path(args.output, lang)
        _wrote(
            render_side_view(
                scenario, out, attacker=args.attacker, target=target, lang=lang, **options
            )
        )
    return EXIT_OK


def _langs(text: str) -> list[str]:
    """``--lang en,de``: one language or several, comma-separated, each one of LANGS."""
    langs = [part.strip() for part in text.split(",")]
    bad = [lang for lang in langs if lang not in LANGS]
    if bad or not langs:
        raise argparse.ArgumentTypeError(
            f"unknown language {', '.join(map(repr, bad)) or repr(text)}; "
            f"expected one or more of {', '.join(LANGS)}, comma-separated (en,de)"
        )
    return list(dict.fromkeys(langs))


def cmd_examples(args: argparse.Namespace) -> int:
    """``fwwrules examples``: list the shipped examples; with NAME print it, with -o copy it."""
    from . import example_path, examples

    if args.name is None:
        if args.output is not None:
            raise QueryError("-o needs an example NAME (see `fwwrules examples`)")
        titles = examples()
        width = max(len(name) for name in titles)
        for name, title in titles.items():
            _say(f"{name:<{width}}  {title}")
        return EXIT_OK
    source = example_path(args.name)
    text = source.read_text(encoding="utf-8")
    if args.output is None:
        _say(text.removesuffix("\n"))
        return EXIT_OK
    _not_onto_inputs([args.output], [source])
    _wrote(write_atomic(args.output, text))
    return EXIT_OK


def cmd_review(args: argparse.Namespace) -> int:
    """``fwwrules review -o FILE [--lang de] [--no-cache]``: write the translation review page;
    ``fwwrules review --suggestions FILE.json [...] -o de.po``: turn the suggested wordings of
    review exports into a gettext file."""
    if args.suggestions:
        return _review_suggestions(args)
    try:
        from .draw.review import PictureCache, build_review, default_cache_dir
    except ImportError as exc:  # matplotlib is an optional extra
        raise QueryError(
            f"the review page draws pictures and needs matplotlib: pip install 'fwwrules[draw]' "
            f"({exc})"
        ) from None
    output = args.output or "review.html"
    _check_folder(output)  # say so before spending half a minute on the pictures
    cache = None if args.no_cache else PictureCache(default_cache_dir())
    page = build_review(args.lang or "en", cache=cache)
    _wrote(write_atomic(output, page))
    return EXIT_OK


def _review_suggestions(args: argparse.Namespace) -> int:
    """The suggestions of every ``--suggestions`` file for one language as a ``.po`` file:
    the language is ``--lang``, else the output's name (``de.po``), else the one language the
    exports' pages were in."""
    from .suggestions import read_export, suggestions_po

    exports = [read_export(path) for path in args.suggestions]
    lang = args.lang
    if lang is None and args.output and Path(args.output).stem in LANGS:
        lang = Path(args.output).stem
    if lang is None:
        langs = {str(e.get("lang")) for e in exports}
        if len(langs) != 1 or not langs <= set(LANGS):
            raise QueryError("say which language the .po file is for: --lang " + "|".join(LANGS))
        (lang,) = langs
    output = args.output or f"{lang}.po"
    _check_folder(output)
    _not_onto_inputs([output], args.suggestions)
    result = suggestions_po(exports, lang, __version__)
    if result.unknown:
        print(
            f"fwwrules: {len(result.unknown)} suggestion(s) for texts the catalogue no longer "
            f"has, left out: {', '.join(result.unknown)}",
            file=sys.stderr,
        )
    _wrote(write_atomic(output, result.po))
    _say(f"{result.count} suggested wording(s) for {lang}")
    return EXIT_OK


def cmd_grid(args: argparse.Namespace) -> int:
    from . import grid_cover, load

    grid = load(args.file)  # grid_cover refuses a scenario file with a clear error
    _emit(grid_cover(grid, args.attacker, args.target, attack=args.attack), args)  # type: ignore[arg-type]
    return EXIT_OK


GRID_ATTACKS = ("ranged", "melee", "reach")
"""``fwwrules.grid.ATTACKS``, written out so that the command line starts without loading the
grid (tests/test_literals.py keeps the two equal)."""


def _command(sub: Any, name: str, func: Callable[[argparse.Namespace], int], help_: str) -> Any:
    """A sub-command of ``fwwrules`` that runs ``func``."""
    sp = sub.add_parser(name, help=help_, description=help_)
    sp.set_defaults(func=func)
    return sp


def _answer_options(sp: Any, json_help: str = "print the ruling as JSON") -> None:
    sp.add_argument("--lang", choices=LANGS, default="en", help="language of the text")
    sp.add_argument("--json", action="store_true", help=json_help)


def build_parser() -> argparse.ArgumentParser:
    """The command line: one sub-command per question, in the order ``--help`` lists them."""
    p = _Parser(prog="fwwrules", description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sp = _command(sub, "check", cmd_check, "validate a scenario or grid file")
    sp.add_argument("file")

    sp = _command(sub, "schema", cmd_schema, "print the JSON Schema of the scenario file")
    sp.add_argument(
        "--threat", action="store_true", help="the schema of `fwwrules threat --json` instead"
    )
    _add_threat(sub)
    _add_rulings(sub)
    _add_render(sub)
    _add_files(sub)
    return p


def _add_threat(sub: Any) -> None:
    """``fwwrules threat``."""
    sp = _command(
        sub,
        "threat",
        cmd_threat,
        "the threat map: what the enemy can do to a model at each position",
    )
    sp.add_argument("file")
    sp.add_argument(
        "--side", type=_id, required=True, help="the side of the model standing at each position"
    )
    sp.add_argument("--base", type=float, help="its base diameter in the file's units (32 mm)")
    sp.add_argument(
        "--step",
        type=float,
        help="grid step in the file's units; default 1/4 in, widened on a large area or a "
        "costly board so the map stays within its limits of positions and time (the summary "
        "and the JSON's step say the step used)",
    )
    sp.add_argument(
        "--area",
        type=_area,
        metavar="X0,Y0,X1,Y1",
        help="the part of the table, in the file's units: two opposite corners, "
        "X0 < X1 and Y0 < Y1",
    )
    sp.add_argument("--rules", choices=RULESET_NAMES)
    sp.add_argument(
        "--weapon",
        default="best",
        help="best (each shooter's best weapon), or a weapon id: shooters carrying it use it, "
        "the others their best weapon (the summary names who carries it; the JSON's cells, "
        "the weapon each was judged with)",
    )
    sp.add_argument(
        "--layer",
        choices=("attackers", "uncovered", "best-modifier"),
        default="attackers",
        help="the layer drawn with -o",
    )
    sp.add_argument("-o", "--output", metavar="FILE", help="draw the map as PNG or SVG")
    _answer_options(
        sp,
        "print the threat map as JSON instead of the summary: every shooter's cell at every "
        "position (format fwwrules/threat@1; its schema: fwwrules schema --threat)",
    )


def _add_rulings(sub: Any) -> None:
    """``fwwrules ruling``, ``withdraw`` and ``slide``."""
    sp = _command(sub, "ruling", cmd_ruling, "may the attacker attack the target, and how")
    sp.add_argument("file")
    sp.add_argument("--attacker", type=_id, required=True)
    sp.add_argument(
        "--target", type=_id, required=True, help="a model id, a terrain id, or a point X,Y"
    )
    sp.add_argument("--weapon", type=_id)
    sp.add_argument("--rules", choices=RULESET_NAMES)
    sp.add_argument("--band", choices=BANDS)
    sp.add_argument("--quick", action="store_true", help="a Quick Action attack (-2)")
    sp.add_argument(
        "--reacting-to-charge",
        action="store_true",
        help="the attacker shoots in reaction to being charged by the target: a ranged weapon "
        "in close combat suffers none of its penalties (RoP p.41); a reaction is a Quick "
        "Action (-2), may target only the charger, and a charge with a won Battle Cry (two "
        "markers) triggers none",
    )
    sp.add_argument(
        "--compare",
        action="store_true",
        help="rule under the core rules and the Vault-Tec Simulator side by side, with the "
        "differences and their clauses first (JSON: {core, vts, differences})",
    )
    _answer_options(sp)

    sp = _command(sub, "withdraw", cmd_withdraw, "the free attacks a withdrawal provokes")
    sp.add_argument("file")
    sp.add_argument("--model", type=_id, required=True)
    sp.add_argument("--rules", choices=RULESET_NAMES)
    _answer_options(sp)

    sp = _command(sub, "slide", cmd_slide, "whether a slide to a new centre is legal")
    sp.add_argument("file")
    sp.add_argument("--model", type=_id, required=True)
    sp.add_argument("--to", required=True, type=_point, metavar="X,Y")
    sp.add_argument("--rules", choices=RULESET_NAMES)
    _answer_options(sp)


def _add_render(sub: Any) -> None:
    """``fwwrules render``."""
    sp = _command(
        sub,
        "render",
        cmd_render,
        "draw the board as PNG or SVG, or a slide as a GIF or HTML animation",
    )
    sp.add_argument("file")
    sp.add_argument(
        "-o",
        "--output",
        default="board.png",
        help="the picture: .png or .svg (with --slide also .gif or .html); default board.png",
    )
    sp.add_argument("--attacker", type=_id, help="a model id: draw its ruling against --target")
    sp.add_argument(
        "--target", type=_id, help="a model id, a terrain id, or a point X,Y (with --attacker)"
    )
    sp.add_argument("--weapon", type=_id, help="a weapon id (default: the attacker's first weapon)")
    sp.add_argument("--rules", choices=RULESET_NAMES, help="the ruleset (default: the file's)")
    sp.add_argument("--band", choices=BANDS, help="the range band the attacker chooses")
    sp.add_argument("--title", help="the picture's title (default: the file's, in --lang)")
    sp.add_argument(
        "--attack",
        choices=GRID_ATTACKS,
        default="ranged",
        help="for a grid file: the attack whose lines are drawn",
    )
    sp.add_argument(
        "--lang",
        type=_langs,
        default=["en"],
        metavar="LANG[,LANG]",
        help="language of every text in the picture; several (en,de) write one file each, "
        "named board.en.png, board.de.png, with the board in the same pixels",
    )
    sp.add_argument(
        "--frame",
        choices=("table", "models"),
        default="table",
        help="show the whole table (default) or the models with a margin",
    )
    size = sp.add_mutually_exclusive_group()
    size.add_argument(
        "--width", type=_positive, metavar="PX", help="picture width in pixels (the height follows)"
    )
    size.add_argument("--dpi", type=_positive, help="dots per inch (the board is 7.8 in wide)")
    size.add_argument(
        "--scale", type=_positive, help="times the panel's own size: 2 gives 1560 x 1080 pixels"
    )
    sp.add_argument(
        "--slide", type=_id, metavar="MODEL", help="animate this model's slide (melee.slide)"
    )
    sp.add_argument("--to", type=_point, metavar="X,Y", help="where the slide ends (--slide)")
    sp.add_argument(
        "--frames", type=int, default=None, help="frames of a slide animation (default 24)"
    )
    sp.add_argument(
        "--side-view",
        action="store_true",
        help="with --attacker and --target (models): add the shot seen from the side below "
        "the board, a section along the Line of Cover with heights, Significant Edges and the "
        "Orange ruler where the rules use it",
    )


def _add_files(sub: Any) -> None:
    """``fwwrules examples``, ``review`` and ``grid``."""
    sp = _command(sub, "examples", cmd_examples, "list the shipped examples, or print or copy one")
    sp.add_argument("name", nargs="?", metavar="NAME", help="an example name, e.g. cover-example-1")
    sp.add_argument("-o", "--output", metavar="FILE", help="copy the example to FILE")

    sp = _command(
        sub,
        "review",
        cmd_review,
        "write the translation review page (one self-contained HTML file)",
    )
    sp.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="the page (default review.html), or with --suggestions the .po file (default "
        "<lang>.po)",
    )
    sp.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the page (default en), or of the .po file",
    )
    sp.add_argument(
        "--suggestions",
        action="append",
        metavar="FILE.json",
        help="instead of the page: turn the suggested wordings of this review export (repeat "
        "for several) into a gettext .po file a maintainer can merge",
    )
    sp.add_argument(
        "--no-cache",
        action="store_true",
        help="draw every picture (default: reuse those an earlier run of the same version drew, "
        "kept in $FWWRULES_CACHE_DIR or ~/.cache/fwwrules)",
    )

    sp = _command(sub, "grid", cmd_grid, "Pathfinder 1e grid cover")
    sp.add_argument("file")
    sp.add_argument("--attacker", type=_id, required=True)
    sp.add_argument("--target", type=_id, required=True)
    sp.add_argument("--attack", choices=GRID_ATTACKS, default="ranged")
    _answer_options(sp)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit status (argparse's own usage errors exit 2 directly).

    A :class:`~fwwrules.errors.ScenarioError` prints one ``file:LINE: path: message`` line per
    problem (the form editors and CI logs link to); other user errors print one
    ``fwwrules: error: ...`` line. Either way exit status 2 and no traceback. A bug in fwwrules
    itself prints one line and exits 1; ``FWWRULES_DEBUG=1`` shows its traceback. A standard
    output that cannot take the answer (a closed pipe, a full disk) ends the command with exit
    status 2 and nothing more said, unless it cannot encode the text (then one line says so).
    """
    try:
        args = build_parser().parse_args(argv)
    except SystemExit:  # --help, --version or a usage error: argparse printed it
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            _silence_stdout()
            return EXIT_USAGE
        raise
    try:
        code = int(args.func(args))
        try:
            sys.stdout.flush()
        except (OSError, ValueError) as exc:
            raise _StdoutFailed() from exc
        return code
    except _StdoutFailed as exc:
        _silence_stdout()
        if isinstance(exc.__cause__, UnicodeEncodeError):
            encoding = getattr(sys.stdout, "encoding", "?")
            print(
                f"fwwrules: error: standard output cannot show this text (encoding {encoding}); "
                "use a UTF-8 locale or PYTHONIOENCODING=utf-8",
                file=sys.stderr,
            )
        return EXIT_USAGE
    except ScenarioError as exc:
        print(exc.render(), file=sys.stderr)
        return EXIT_USAGE
    except FwwError as exc:
        print(f"fwwrules: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("fwwrules: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        if os.environ.get("FWWRULES_DEBUG"):
            raise
        name = type(exc).__name__
        print(
            f"fwwrules: internal error ({name}: {exc}); this is a bug in fwwrules, please "
            "report it (FWWRULES_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _silence_stdout() -> None:
    """Point stdout at devnull so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - stdout without a file descriptor
        pass


def run() -> NoReturn:
    """The ``fwwrules`` command and ``python -m fwwrules``: :func:`main` on the process's
    arguments, then the process ends without tearing the interpreter down.

    Freeing every module and object one by one at exit (matplotlib's, pydantic's, the
    figure's) took 0.15 to 0.2 s of a render's 1.3 s of CPU, after the picture was written:
    time a user waits for and nothing needs. The exit handlers still run, as the interpreter
    runs them (``atexit``), and the standard streams are flushed; nothing else is pending, as
    every file a command writes is closed and renamed into place before :func:`main` returns
    (:mod:`fwwrules.writing`). What escapes :func:`main` (``--help``, a usage error, a bug's
    traceback with ``FWWRULES_DEBUG=1``) ends the process the usual way.
    """
    status = main()
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # main already answered for stdout
            stream.flush()
    os._exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
