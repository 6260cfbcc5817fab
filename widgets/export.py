"""Every panel's picture, exported: ``panel.save_picture(path, scale=2)`` and the export
control (format, size, file name, a button) that does the same from the panel.

The picture is the panel's figure as the panel shows it (laid out so that nothing is cut,
:mod:`fwwrules.draw.layout`), at the size asked (:mod:`fwwrules.draw.export`): ``scale=2``
gives twice the panel's pixels, sharp on a high-density screen or in a blog post. The file
goes through the one atomic writer (:func:`fwwrules.writing.write_atomic`); the control then
says where it went and offers the same bytes as a download link, so a reader on Binder gets
the picture onto their own machine.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from fwwrules.draw.export import (
    export_dpi,
    picture_bytes,
    picture_path,
    pixel_size,
    save_picture,
)
from fwwrules.draw.side import stacked
from fwwrules.errors import FwwError
from fwwrules.writing import write_atomic

from .layout import fit_control
from .text import ui

SCALES: tuple[float, ...] = (1.0, 2.0, 3.0, 4.0)
"""The sizes the control offers, as multiples of the panel's own size."""
MIME = {"png": "image/png", "svg": "image/svg+xml"}


class ExportControl:
    """Format (PNG or SVG), size (1x to 4x), file name and an export button, for the figure
    ``figure()`` returns, with the figure ``below()`` returns (if any) under it at the same
    resolution (a panel's side view); ``lang()`` is the panel's language. ``widget`` is the
    control; ``status`` says what was written (with a download link) or why not."""

    def __init__(
        self,
        figure: Callable[[], Figure],
        lang: Callable[[], str],
        stem: str = "board",
        below: Callable[[], Figure | None] = lambda: None,
    ) -> None:
        self._figure = figure
        self._lang = lang
        self._below = below
        self.format = widgets.Dropdown(options=[("PNG", "png"), ("SVG", "svg")], value="png")
        self.scale = widgets.Dropdown(options=[(f"{s:g}×", s) for s in SCALES], value=2.0)
        self.name = widgets.Text(value=f"{stem}.png", continuous_update=False)
        self.button = widgets.Button(icon="download")
        self.status = widgets.HTML()
        self.format.observe(self._format_changed, "value")
        self.button.on_click(lambda _button: self.export())
        self.widget = widgets.VBox(
            [
                widgets.HBox(
                    [self.format, self.scale, self.name, self.button],
                    layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
                ),
                self.status,
            ]
        )
        self.relabel()

    def relabel(self) -> None:
        """Every label in the panel's language."""
        lang = self._lang()
        self.format.description = ui("export-format", lang)
        self.scale.description = ui("export-scale", lang)
        self.name.description = ui("export-file", lang)
        self.name.style.description_width = "initial"
        self.button.description = ui("export", lang)
        self.button.layout.width = "auto"
        for control in (self.format, self.scale):
            fit_control(control)
        self.name.layout.width = "220px"

    def _format_changed(self, change: dict[str, Any]) -> None:
        stem = Path(self.name.value).with_suffix("")
        self.name.value = f"{stem}.{change['new']}"

    def export(self) -> Path | None:
        """Write the picture to the file named in the control; show where, with a download
        link to the same bytes, or why not (nothing is raised into the notebook)."""
        lang = self._lang()
        try:
            fig, extra = self._figure(), self._below()
            out, fmt = picture_path(self.name.value, self.format.value)
            data = picture_data(fig, extra, fmt, scale=self.scale.value)
            write_atomic(out, data)
        except (FwwError, OSError) as exc:
            self.status.value = f'<span style="color:#B00020">{html.escape(str(exc))}</span>'
            return None
        width, height = pixel_size(fig, scale=self.scale.value)
        if extra is not None:
            height += pixel_size(extra, dpi=export_dpi(fig, scale=self.scale.value))[1]
            if fmt == "png":  # the stacked picture's own size (a part may round either way)
                width, height = _png_size(data)
        uri = f"data:{MIME[fmt]};base64," + base64.b64encode(data).decode("ascii")
        said = ui("exported", lang).format(path=out.resolve(), width=width, height=height)
        self.status.value = (
            f'{html.escape(said)} <a download="{html.escape(out.name)}" href="{uri}" '
            f'style="color:#0072B2;text-decoration:underline;font-weight:bold">'
            f"{html.escape(ui('download', lang))}: {html.escape(out.name)}</a>"
        )
        return out


def _png_size(data: bytes) -> tuple[int, int]:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        return (int(img.size[0]), int(img.size[1]))


def picture_data(fig: Figure, below: Figure | None, fmt: str, **size: float | None) -> bytes:
    """The picture of ``fig`` at the size asked (``scale``, ``dpi`` or ``width``), with
    ``below`` (if any) under it at the same resolution."""
    if below is None:
        return picture_bytes(fig, fmt, **size)
    return stacked(fig, below, fmt, dpi=export_dpi(fig, **size))


class PictureExport:
    """What every panel shares for its picture: :meth:`save_picture` and the export control
    (:attr:`export_control`, made on first use; put ``export_control.widget`` in the
    panel's layout). The picture is :meth:`picture_figure`'s: the panel's board view, or its
    own figure."""

    _export: ExportControl | None = None

    def picture_figure(self) -> Figure:
        """The figure the panel shows."""
        view = getattr(self, "view", None)
        figure = getattr(view, "figure", None) if view is not None else None
        if figure is None:
            figure = getattr(self, "figure", None)
        if not isinstance(figure, Figure):  # pragma: no cover - every panel has one
            raise TypeError(f"{type(self).__name__} has no picture")
        return figure

    def picture_below(self) -> Figure | None:
        """A figure the panel shows under its picture, exported with it (None: nothing; the
        attack panel's side view, when ticked)."""
        return None

    def _picture_lang(self) -> str:
        lang = getattr(self, "lang", None)
        value = getattr(lang, "value", "en")
        return value if isinstance(value, str) else "en"

    @property
    def export_control(self) -> ExportControl:
        """The panel's export control (format, size, file name, button)."""
        if self._export is None:
            self._export = ExportControl(
                self.picture_figure, self._picture_lang, below=self.picture_below
            )
        return self._export

    def save_picture(
        self,
        path: str | os.PathLike[str],
        *,
        scale: float | None = 2.0,
        format: str | None = None,
        dpi: float | None = None,
        width: float | None = None,
    ) -> Path:
        """Write the panel's picture as PNG or SVG, as the panel shows it, at ``scale`` times
        its size (default 2: 1560 x 1080 pixels for a board), or ``dpi`` dots per inch, or
        ``width`` pixels wide; ``format`` (``"png"``, ``"svg"``) or the name's suffix picks
        the format (a name without one gets it). What the panel shows under its picture
        (:meth:`picture_below`: the attack panel's side view, while ticked) is written under
        it, at the same resolution. Returns the path written.

        >>> import tempfile, fwwrules
        >>> from pathlib import Path
        >>> from fwwrules_widgets import AttackPanel
        >>> panel = AttackPanel(fwwrules.load(fwwrules.example_path("cover-example-1")),
        ...                     interactive=False)
        >>> folder = Path(tempfile.mkdtemp())
        >>> panel.save_picture(folder / "cover.png").name              # 1560 x 1080 pixels
        'cover.png'
        >>> panel.save_picture(folder / "cover", format="svg").name    # the suffix is added
        'cover.svg'
        >>> import shutil; shutil.rmtree(folder)
        """
        if dpi is not None or width is not None:
            scale = None
        below = self.picture_below()
        if below is not None:
            out, fmt = picture_path(path, format)
            data = picture_data(
                self.picture_figure(), below, fmt, scale=scale, dpi=dpi, width=width
            )
            write_atomic(out, data)
            return out
        return save_picture(
            self.picture_figure(), path, scale=scale, format=format, dpi=dpi, width=width
        )

    def _relabel_export(self) -> None:
        if self._export is not None:
            self._export.relabel()
