"""Renders that stay bounded however many pieces a board holds (issue 31): label placement
asks an index of what lies near each label instead of testing every obstacle, labels of one
text share one key entry, and a board too crowded for its labels draws a bounded number of
texts and says how many it leaves out. ``bench/render_scaling.py`` prints the figures (CPU
time and peak memory per board size); the tests below cap CPU and memory instead of timing.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import fwwrules
from fwwrules.draw import DEFAULT_STYLE, draw_board
from fwwrules.draw.figure import new_axes
from fwwrules.draw.labels import MAX_KEY_ENTRIES, MAX_MARKERS
from fwwrules.draw.layout import find_key

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _scaling import scaling_board

CAPPED_RENDER = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
resource.setrlimit(resource.RLIMIT_CPU, (8, 8))
from fwwrules.cli import main
sys.exit(main(["render", sys.argv[1], "-o", sys.argv[2], "--lang", "de"]))
"""


def board(models: int, pieces: int, **kw: Any) -> Any:
    return fwwrules.loads(json.dumps(scaling_board(models, pieces, **kw)), source="board.json")


def test_render_of_the_fullest_board_runs_under_a_cpu_and_memory_cap(tmp_path: Path) -> None:
    """200 named models among 500 named pieces with heights and elevations, in German, under
    8 s of CPU and a 1.5 GB address space (about 1.5 s and 110 MB here; the code before took
    14 to 19 s and was killed by the CPU cap)."""
    data = tmp_path / "full.json"
    data.write_text(json.dumps(scaling_board(200, 500, heights=True, elevations=True)))
    out = tmp_path / "full.png"
    proc = subprocess.run(
        [sys.executable, "-c", CAPPED_RENDER, str(data), str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert out.read_bytes().startswith(b"\x89PNG")


def drawn_texts(art: Any) -> int:
    return sum(1 for t in art.ax.texts if t.get_visible() and t.get_text())


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_crowded_board_draws_a_bounded_key_and_says_what_it_leaves_out(lang: str) -> None:
    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    art = draw_board(board(200, 500, heights=True), ax, lang=lang)
    key = find_key(ax)
    assert key is not None
    lines = [t.get_text().replace("\n", " ") for t in key.get_texts()]
    assert len(lines) <= MAX_KEY_ENTRIES + 1
    more = "more labels not shown" if lang == "en" else "weitere Beschriftungen nicht gezeigt"
    assert more in lines[-1] and int(lines[-1].split()[1]) > 300
    markers = [m for m in art.state.get("markers", []) if m.get_visible()]
    assert 0 < len(markers) <= MAX_MARKERS
    assert drawn_texts(art) < 250  # of 700 labels: what the board has room for, and markers


def test_labels_of_one_text_share_one_key_entry_and_number() -> None:
    """500 crates of three heights: three texts, so at most three numbered entries whatever
    the number of pieces; every marker carries one of those numbers."""
    data = scaling_board(10, 500, heights=True)
    for piece in data["terrain"]:
        piece["name"] = "Crate"
    st = DEFAULT_STYLE
    ax = new_axes(st.figsize, st.dpi, st.margins)
    art = draw_board(fwwrules.loads(json.dumps(data), source="crates.json"), ax)
    key = find_key(ax)
    assert key is not None
    entries = [t.get_text().replace("\n", " ") for t in key.get_texts()]
    numbered = [e for e in entries if e.split(":")[0].isdigit()]
    assert 1 <= len(numbered) <= 3
    assert len({e.split(": ", 1)[1] for e in numbered}) == len(numbered)
    numbers = {e.split(":")[0] for e in numbered}
    markers = [m for m in art.state.get("markers", []) if m.get_visible()]
    assert len(markers) > len(numbered)  # markers share numbers
    assert {m.get_text() for m in markers} <= numbers
