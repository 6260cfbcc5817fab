"""How the panels lay out their controls: control widths from their words, rows that wrap,
and the board with a column beside it (below it when the notebook is narrow)."""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

CHAR_PX = 8.0
"""Width of one character of a control's text at JupyterLab's 13 px UI font, generously."""
DROPDOWN_CHROME_PX = 44
"""A dropdown's arrow, padding and border, beside its text."""
SIDE_MIN_PX = 300
"""The ruling column's smallest width; below it the column wraps under the board."""


def text_px(text: str) -> int:
    """A generous estimate of ``text``'s width in the notebook's UI font."""
    return int(CHAR_PX * len(text)) + 1


def fit_control(control: widgets.Widget, *, min_px: int = 90) -> None:
    """Size a Dropdown or FloatText to its label and its longest choice, never clipped."""
    label = str(getattr(control, "description", "") or "")
    label_px = text_px(label) + 10 if label else 0
    if isinstance(control, widgets.Dropdown):
        longest = max((text_px(str(o[0] if isinstance(o, tuple) else o)) for o in control.options),
                      default=0)  # fmt: skip
        body = longest + DROPDOWN_CHROME_PX
    else:
        body = 90
    width = max(min_px, label_px + body)
    control.layout.width = f"{width}px"
    control.style.description_width = f"{label_px}px" if label else "0px"


def wrap_row(children: Sequence[widgets.Widget]) -> widgets.HBox:
    """Controls side by side, wrapping to the next line when the output area is narrow."""
    return widgets.HBox(
        list(children),
        layout=widgets.Layout(flex_flow="row wrap", align_items="center", width="100%"),
    )


def board_and_side(board: widgets.Widget, side: Sequence[widgets.Widget]) -> widgets.HBox:
    """The board first, the ruling beside it when there is room and below it when not."""
    column = widgets.VBox(
        list(side),
        layout=widgets.Layout(
            flex="1 1 320px", min_width=f"{SIDE_MIN_PX}px", max_width="560px", overflow="hidden"
        ),
    )
    return widgets.HBox(
        [board, column],
        layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"),
    )


def below_board(
    board: widgets.Widget, width_px: int, below: Sequence[widgets.Widget]
) -> widgets.VBox:
    """The board (``width_px`` CSS pixels wide) with ``below`` under it (a panel's side view,
    its comparison), as wide as the board: what is below never widens the board's box (which
    would push the ruling column off the board's row), and shrinks with a narrower output
    area."""
    return widgets.VBox(
        [board, *below],
        layout=widgets.Layout(
            flex="0 1 auto", width=f"{width_px}px", max_width="100%", align_items="flex-start"
        ),
    )
