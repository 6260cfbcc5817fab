"""Names that spoof are refused at load (issue 31): a model, weapon or terrain name, a title or
a creature's name holding a bidirectional control (U+202A-U+202E, U+2066-U+2069, U+061C,
U+200E, U+200F) or a zero-width or invisible character passed ``check`` and reached the
terminal, the JSON, the panels' HTML and the SVGs: a name ending in U+202E showed the rest of
the ruling's line reversed. Each is refused with exit status 2 naming the file, the line, the
place and the character by its code point (never printed itself); C0 and C1 control
characters are refused as before.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from fwwrules.cli import main

SPOOFERS = {
    "U+202A": "\u202a",
    "U+202B": "\u202b",
    "U+202C": "\u202c",
    "U+202D": "\u202d",
    "U+202E": "\u202e",
    "U+2066": "\u2066",
    "U+2067": "\u2067",
    "U+2068": "\u2068",
    "U+2069": "\u2069",
    "U+061C": "\u061c",
    "U+200E": "\u200e",
    "U+200F": "\u200f",
    "U+200B": "\u200b",
    "U+200C": "\u200c",
    "U+200D": "\u200d",
    "U+2060": "\u2060",
    "U+FEFF": "\ufeff",
}

SCENARIO = {
    "format": "fwwrules/scenario@1",
    "title": "Bidi",
    "models": [
        {"id": "a", "faction": "x", "base": 32, "at": [0, 0], "name": "Knight",
         "skills": {"rifle": 6}, "weapons": ["rifle"]},
        {"id": "b", "faction": "y", "base": 32, "at": [200, 0]},
    ],
    "terrain": [{"id": "t", "kind": "cover", "rect": {"at": [100, 0], "size": [10, 10]},
                 "name": "Crate"}],
    "weapons": [{"id": "rifle", "type": "rifle", "short": "red", "name": "Rifle"}],
}  # fmt: skip

# place -> (the file's path to it, the value with ``{x}`` where the character goes)
PLACES = {
    "title": (("title",), "Bidi{x}"),
    "title.de": (("title",), {"en": "Bidi", "de": "Bidi{x}"}),
    "models[0].name": (("models", 0, "name"), "Knight{x} Patrol"),
    "terrain[0].name": (("terrain", 0, "name"), "Crate{x}"),
    "weapons[0].name": (("weapons", 0, "name"), "{x}Rifle"),
}


def _with(place: str, char: str) -> dict[str, object]:
    data = json.loads(json.dumps(SCENARIO))
    path, value = PLACES[place]
    if isinstance(value, dict):
        value = {k: v.format(x=char) for k, v in value.items()}
    else:
        value = value.format(x=char)
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize("place", sorted(PLACES))
@pytest.mark.parametrize("code", sorted(SPOOFERS))
def test_a_name_holding_a_bidi_control_or_invisible_character_is_refused(
    code: str, place: str, suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _with(place, SPOOFERS[code])
    path = tmp_path / f"board{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert re.search(rf"^{re.escape(str(path))}:\d+: {re.escape(place)}: ", err, re.M), err
    assert code in err
    assert SPOOFERS[code] not in err  # named, never printed


@pytest.mark.parametrize("code", ["U+202E", "U+200B"])
def test_a_grid_creature_name_or_title_that_spoofs_is_refused(
    code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    char = SPOOFERS[code]
    path = tmp_path / "grid.yaml"
    path.write_text(
        "format: fwwrules/grid@1\n"
        f'title: "Ogre{char}"\n'
        "map: |\n  ....\ncreatures:\n"
        f'  - {{id: a, at: [0, 0], name: "Cleric{char}"}}\n'
        "  - {id: b, at: [3, 0]}\n",
        encoding="utf-8",
    )
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"{path}:2: title: " in err and f"{path}:6: creatures[0].name: " in err
    assert code in err


def test_the_schema_states_the_same_rule() -> None:
    """An editor checking against ``fwwrules schema`` refuses the same names."""
    from fwwrules.scenario_spec import json_schema

    name = json_schema()["$defs"]["ModelSpec"]["properties"]["name"]["anyOf"][0]
    # a name is one text or one per language (issue 32): both forms state the rule
    forms = name.get("oneOf", [name])
    text = next(f for f in forms if f.get("type") == "string")
    per_language = [f["additionalProperties"] for f in forms if f.get("type") == "object"]
    assert per_language
    for schema in (text, *per_language):
        pattern = re.compile(schema["pattern"])
        assert pattern.match("Ritter Größe 🤖")
        for char in SPOOFERS.values():
            assert not pattern.match(f"Knight{char}")


def test_scripts_and_emoji_are_still_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Control: right-to-left script itself (Arabic, Hebrew) and emoji are text."""
    data = _with("models[0].name", "")
    data["models"][0]["name"] = "فارس 🛡 אביר"
    path = tmp_path / "board.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["check", str(path)]) == 0, capsys.readouterr().err
