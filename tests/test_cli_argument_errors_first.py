"""Argument errors come before any work (issue 31): a wrong output name is refused with exit 2
before the command reads its input or imports what the work needs (the threat map, the
drawing, matplotlib), so ``fwwrules threat FILE --json -o x.json`` answers at once."""

from __future__ import annotations

import pytest
from fresh_interpreter import printed

from fwwrules.errors import QueryError
from fwwrules.writing import check_output_name

HEAVY = ("fwwrules.threat", "fwwrules.draw", "matplotlib", "fwwrules.files", "fwwrules.attack")


def loaded_after(argv: list[str]) -> list[str]:
    """The exit status and which of HEAVY a fresh interpreter loaded running ``argv``."""
    code = (
        "import sys\nfrom fwwrules.cli import main\n"
        f"status = main({argv!r})\n"
        f"print(status, *[m for m in {HEAVY!r} if m in sys.modules])"
    )
    return printed(code)


@pytest.mark.parametrize(
    "argv",
    [
        ["threat", "no-such-board.yaml", "--side", "north", "--json", "-o", "x.json"],
        ["render", "no-such-board.yaml", "-o", "board.jpg"],
        ["render", "no-such-board.yaml", "--slide", "a", "--to", "1,1", "-o", "s.mp4"],
    ],
)
def test_a_wrong_output_name_is_refused_before_any_work(argv: list[str]) -> None:
    # The file does not exist either: the name is checked first, nothing heavy is loaded.
    assert loaded_after(argv) == ["2"]


def test_check_output_name_takes_pictures_and_with_animation_slides() -> None:
    assert check_output_name("a/B.PNG") == "png"
    assert check_output_name("slide.html", animation=True) == "html"
    for bad, animation in (("x.json", False), ("x.gif", False), ("x", True), (".png", False)):
        with pytest.raises(QueryError, match="cannot write"):
            check_output_name(bad, animation=animation)
