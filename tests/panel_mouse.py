"""A real matplotlib mouse event on a panel's board, as the board canvas hands it on."""

from __future__ import annotations

from matplotlib.backend_bases import MouseButton, MouseEvent


def panel_mouse(panel: object, kind: str, x_mm: float, y_mm: float) -> None:
    """Send ``kind`` (``button_press_event``, ``motion_notify_event``, ...) at board point
    (``x_mm``, ``y_mm``) to ``panel``'s canvas callbacks, under the view's lock as the board
    canvas's messages are handled in the kernel (left button, none for a motion)."""
    view = panel.view  # type: ignore[attr-defined]
    canvas = view.figure.canvas
    px, py = view.ax.transData.transform((x_mm, y_mm))
    button = None if kind == "motion_notify_event" else MouseButton.LEFT
    with view.lock:
        canvas.callbacks.process(kind, MouseEvent(kind, canvas, px, py, button=button))
