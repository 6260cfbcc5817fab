"""What the panels share: a guard against reacting to their own control changes."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


class ControlPanel:
    """Base of the panels with a language control, a ``_relabel()`` and a ``refresh()``.

    Control callbacks do nothing while the panel itself sets control values
    (``with self._held(): ...``), so one user change recomputes the ruling once.
    """

    lang: Any
    _hold: int = 0

    @contextmanager
    def _held(self) -> Iterator[None]:
        self._hold += 1
        try:
            yield
        finally:
            self._hold -= 1

    def _changed(self, change: dict[str, Any]) -> None:
        """Any control: relabel when it is the language, then recompute and redraw."""
        if self._hold:
            return
        if change["owner"] is self.lang:
            self._relabel()
        self.refresh()

    def _relabel(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError

    def refresh(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError
