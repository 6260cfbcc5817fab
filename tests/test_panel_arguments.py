"""Every panel argument a notebook user can get wrong is refused with a message that names the
wrong value and what would do (issue 33: ``AttackPanel(..., target="brtue")`` and
``lang="fr"`` raised a bare ``TraitError: Invalid selection: value not found``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from fwwrules_widgets import (
    AttackPanel,
    BoardEditor,
    ExampleStepper,
    GridPanel,
    MeleePanel,
    Step,
    ThreatPanel,
)

import fwwrules

S = fwwrules.load(fwwrules.example_path("cover-example-1"))
G = fwwrules.load(fwwrules.example_path("grid/rogue"))
CREATURES = "cleric, fighter, ogre, rogue, sorcerer"
OFF = {"interactive": False}

CASES: dict[str, tuple[Callable[[], Any], type[Exception], list[str]]] = {
    "attack attacker": (
        lambda: AttackPanel(S, attacker="brtue", **OFF),
        fwwrules.UnknownIdError,
        ["attacker", "'brtue'", "brute, knight"],
    ),
    "attack target": (
        lambda: AttackPanel(S, target="brtue", **OFF),
        fwwrules.UnknownIdError,
        ["target", "'brtue'", "brute, knight"],
    ),
    "attack weapon": (
        lambda: AttackPanel(S, attacker="knight", weapon="laser", **OFF),
        fwwrules.QueryError,
        ["weapon 'laser' for Knight Patrol", "laser-rifle, improvised"],
    ),
    "attack lang": (
        lambda: AttackPanel(S, lang="fr", **OFF),
        fwwrules.QueryError,
        ["language 'fr'", "en, de"],
    ),
    "attack interactive": (
        lambda: AttackPanel(S, interactive="yes"),  # type: ignore[arg-type]
        fwwrules.QueryError,
        ["'yes'", "True, False or None"],
    ),
    "attack a file name": (
        lambda: AttackPanel("board.yaml", **OFF),  # type: ignore[arg-type]
        TypeError,
        ["'board.yaml'", "fwwrules.load(path)"],
    ),
    "melee lang": (
        lambda: MeleePanel(S, lang="fr", **OFF),
        fwwrules.QueryError,
        ["language 'fr'", "en, de"],
    ),
    "melee a grid": (
        lambda: MeleePanel(G, **OFF),  # type: ignore[arg-type]
        TypeError,
        ["needs a Scenario", "not GridScenario"],
    ),
    "threat side": (
        lambda: ThreatPanel(S, "mutants", **OFF),
        fwwrules.QueryError,
        ["side 'mutants'", "brotherhood, super-mutants"],
    ),
    "threat layer": (
        lambda: ThreatPanel(S, layer="cover", **OFF),
        fwwrules.QueryError,
        ["layer 'cover'", "attackers, uncovered, best-modifier"],
    ),
    "threat lang": (
        lambda: ThreatPanel(S, lang="fr", **OFF),
        fwwrules.QueryError,
        ["language 'fr'", "en, de"],
    ),
    "threat step": (
        lambda: ThreatPanel(S, step=-1, **OFF),
        fwwrules.QueryError,
        ["step", "-1", "positive number"],
    ),
    "threat base": (
        lambda: ThreatPanel(S, base="32", **OFF),  # type: ignore[arg-type]
        fwwrules.QueryError,
        ["base", "'32'", "positive number"],
    ),
    "threat area": (
        lambda: ThreatPanel(S, area=(0, 0, 100), **OFF),  # type: ignore[arg-type]
        fwwrules.QueryError,
        ["(0, 0, 100)", "(x0, y0, x1, y1)"],
    ),
    "grid attacker": (
        lambda: GridPanel(G, attacker="rouge"),
        fwwrules.UnknownIdError,
        ["attacker", "'rouge'", CREATURES],
    ),
    "grid target": (
        lambda: GridPanel(G, target="ogr"),
        fwwrules.UnknownIdError,
        ["target", "'ogr'", CREATURES],
    ),
    "grid attack": (
        lambda: GridPanel(G, attack="ranged-touch"),
        fwwrules.QueryError,
        ["attack 'ranged-touch'", "ranged, melee, reach"],
    ),
    "grid lang": (lambda: GridPanel(G, lang="fr"), fwwrules.QueryError, ["'fr'", "en, de"]),
    "grid a scenario": (
        lambda: GridPanel(S),  # type: ignore[arg-type]
        TypeError,
        ["needs a GridScenario", "not Scenario"],
    ),
    "attack style": (
        lambda: AttackPanel(S, style="dark", **OFF),  # type: ignore[arg-type]
        TypeError,
        ["style must be a BoardStyle", "'dark'"],
    ),
    "melee style": (
        lambda: MeleePanel(S, style=None, **OFF),  # type: ignore[arg-type]
        TypeError,
        ["style must be a BoardStyle", "None"],
    ),
    "threat style": (
        lambda: ThreatPanel(S, style=3, **OFF),  # type: ignore[arg-type]
        TypeError,
        ["style must be a BoardStyle", "3"],
    ),
    "grid style": (
        lambda: GridPanel(G, style="big"),  # type: ignore[arg-type]
        TypeError,
        ["style must be a GridStyle", "'big'"],
    ),
    "stepper style": (
        lambda: ExampleStepper(
            [Step("t", S, {"attacker": "knight", "target": "brute"})],
            style={},
            **OFF,  # type: ignore[arg-type]
        ),
        TypeError,
        ["style must be a BoardStyle", "{}"],
    ),
    "editor a file name": (
        lambda: BoardEditor("board.yaml", **OFF),  # type: ignore[arg-type]
        TypeError,
        ["BoardEditor needs a Scenario", "'board.yaml'", "fwwrules.load(path)"],
    ),
    "editor units": (
        lambda: BoardEditor(units="cm", **OFF),
        fwwrules.QueryError,
        ["units 'cm'", "in, mm"],
    ),
    "editor lang": (
        lambda: BoardEditor(lang="fr", **OFF),
        fwwrules.QueryError,
        ["language 'fr'", "en, de"],
    ),
    "editor interactive": (
        lambda: BoardEditor(interactive="yes"),  # type: ignore[arg-type]
        fwwrules.QueryError,
        ["'yes'", "True, False or None"],
    ),
    "editor size": (
        lambda: BoardEditor(size=(0, 0), **OFF),
        fwwrules.QueryError,
        ["(0, 0)", "two numbers above 0"],
    ),
    "editor canvas_px": (
        lambda: BoardEditor(canvas_px=-3, **OFF),
        fwwrules.QueryError,
        ["canvas_px", "-3", "from 100 to 10000"],
    ),
    "editor style": (
        lambda: BoardEditor(style="dark", **OFF),  # type: ignore[arg-type]
        TypeError,
        ["style must be a BoardStyle", "'dark'"],
    ),
    "editor source": (
        lambda: BoardEditor(source=None, **OFF),  # type: ignore[arg-type]
        TypeError,
        ["source", "None"],
    ),
    "stepper lang": (
        lambda: ExampleStepper(
            [Step("t", S, {"attacker": "knight", "target": "brute"})], lang="fr", **OFF
        ),
        fwwrules.QueryError,
        ["language 'fr'", "en, de"],
    ),
    "stepper query key": (
        lambda: ExampleStepper([Step("t", S, {"atacker": "knight", "target": "brute"})], **OFF),
        fwwrules.QueryError,
        ["no key 'attacker'", "unknown key 'atacker'", "needs attacker, target", "weapon, rules"],
    ),
    "stepper slide query": (
        lambda: ExampleStepper([Step("t", S, {"kind": "slide", "model": "knight"})], **OFF),
        fwwrules.QueryError,
        ["a slide step's query has no key 'to'", "needs model, to"],
    ),
    "stepper one step": (
        lambda: ExampleStepper(Step("t", S, {"attacker": "knight", "target": "brute"})),  # type: ignore[arg-type]
        TypeError,
        ["a list of Step"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_wrong_argument_is_named_with_what_would_do(name: str) -> None:
    make, kind, fragments = CASES[name]
    with pytest.raises(kind) as info:
        make()
    for fragment in fragments:
        assert fragment in str(info.value), (fragment, str(info.value))


def test_a_steps_query_keys_are_the_arguments_of_the_question_it_asks() -> None:
    import inspect

    from fwwrules_widgets.stepper import QUERY_KEYS

    for kind, ask in (
        ("attack", fwwrules.ruling),
        ("withdraw", fwwrules.withdraw),
        ("slide", fwwrules.slide),
    ):
        params = list(inspect.signature(ask).parameters.values())[1:]  # after the scenario
        needed = tuple(p.name for p in params if p.default is inspect.Parameter.empty)
        optional = tuple(p.name for p in params if p.default is not inspect.Parameter.empty)
        renamed = {"model_id": "model"}
        assert QUERY_KEYS[kind] == (
            tuple(renamed.get(n, n) for n in needed),
            tuple(renamed.get(n, n) for n in optional),
        ), kind
