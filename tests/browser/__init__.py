"""The browser suite, a package so that its conftest.py is ``browser.conftest``.

Without it, ``tests/conftest.py`` and ``tests/browser/conftest.py`` are both the top-level module
``conftest``, and ``--doctest-modules`` refuses to collect the second (import file mismatch):
``make test`` stopped before running any test. Test modules here import their helpers
relatively (``from .conftest import ...``).
"""
