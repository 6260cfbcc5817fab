# Two commands on a bare machine with python3 and make:
#   make lab    creates/updates .venv and opens JupyterLab on notebooks/
#   make test   creates/updates .venv and runs every check
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
# JupyterLab settings overrides, installed by binder/postBuild exactly as on Binder.
LAB_SETTINGS = $(VENV)/share/jupyter/lab/settings/overrides.json
NBVAL   = --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg
# Extra pytest options, e.g. `make test PYTEST_ARGS="-x -k cover"` (.ci/run adds --junitxml).
PYTEST_ARGS ?=
LAB_HOST ?= 127.0.0.1
LAB_PORT ?= 8888
# Extra options for `jupyter lab`, e.g. `make lab LAB_ARGS=--no-browser`.
LAB_ARGS ?=
# The same settings tools/regen_notebooks.py gives the kernel that stores the notebooks'
# outputs, so nbval compares like with like.
export PYTHONHASHSEED = 0
export TZ = UTC

.PHONY: help env lab test lint typecheck unit test-binder test-installed dist format bench \
	notebooks-regen docs clean

help:
	@echo "make lab    - open JupyterLab on notebooks/ (creates the environment)"
	@echo "make test   - ruff, mypy --strict, pytest (unit, doctests, nbval, browser)"
	@echo "make test-binder - build a venv the way Binder does and run a notebook in it"
	@echo "make test-installed - build wheel and sdist, install each outside the repository, use them"
	@echo "make dist   - build the wheel and the sdist into dist/"
	@echo "make format - apply ruff's formatter and fixes"
	@echo "make bench  - print the benchmark figures"
	@echo "make notebooks-regen - re-execute notebooks and store their outputs"
	@echo "make docs   - regenerate docs/rules.md and docs/conformance.md (with its pictures)"

# The environment is rebuilt whenever pyproject.toml changes. pip only brings uv, which
# installs the rest (several times faster than pip here). Never let uv fetch an interpreter;
# compile bytecode at install, or every kernel start pays for it (PYTHONDONTWRITEBYTECODE).
export UV_PYTHON_DOWNLOADS = never
export UV_COMPILE_BYTECODE = 1
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[lab,dev]'
	touch $(STAMP)

# No "Select Kernel" dialog, no news popup (autosave stays on): the same overrides as on Binder.
$(LAB_SETTINGS): binder/overrides.json binder/postBuild $(STAMP)
	NB_PYTHON_PREFIX=$(VENV) bash binder/postBuild

env: $(STAMP) $(LAB_SETTINGS)

# The lab's root is the repository, as on Binder, so that the notebooks' links to docs/ open;
# it starts in notebooks/. Its terminals and kernels find this environment's commands
# (`fwwrules ...` as the README writes them): the environment's bin/ leads PATH, and a
# terminal starts your shell as an interactive non-login shell, as a desktop terminal does
# (a login shell reads /etc/profile, which on Debian sets PATH anew).
lab: env
	exec env PATH="$(abspath $(BIN)):$$PATH" VIRTUAL_ENV="$(abspath $(VENV))" \
		$(BIN)/jupyter lab --ServerApp.root_dir=. --LabApp.default_url=/lab/tree/notebooks \
		--ServerApp.terminado_settings="shell_command=['$${SHELL:-/bin/sh}']" \
		--ServerApp.ip=$(LAB_HOST) \
		--ServerApp.port=$(LAB_PORT) $$( [ "$$(id -u)" = 0 ] && echo --allow-root ) $(LAB_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy fwwrules widgets

# Unit tests, doctests, the widgets, nbval on every notebook and the browser test.
# pytest's exit 5 ("no tests collected") is an error, and says so.
unit: $(STAMP)
	@rc=0; $(BIN)/pytest $(NBVAL) $(PYTEST_ARGS) tests fwwrules widgets notebooks || rc=$$?; \
	if [ $$rc = 5 ]; then echo "make: pytest collected no tests (exit 5)" >&2; fi; \
	exit $$rc

test: lint typecheck unit

# The slow Binder check (about a minute; .ci/run runs it through FWWRULES_BINDER_BUILD=1).
test-binder: $(STAMP)
	FWWRULES_BINDER_BUILD=1 $(BIN)/pytest $(PYTEST_ARGS) tests/test_binder.py

# The slow installed-package check (about two minutes; .ci/run runs it through
# FWWRULES_INSTALLED_TEST=1): wheel and sdist from the tracked files, each installed into a new
# venv outside the repository, then the README's commands, the panels and a notebook.
test-installed: $(STAMP)
	FWWRULES_INSTALLED_TEST=1 $(BIN)/pytest $(PYTEST_ARGS) tests/test_installed.py

# The release files: the wheel and the sdist, from this checkout (README: release checklist).
dist: $(STAMP)
	rm -rf dist
	$(BIN)/uv build --out-dir dist

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

notebooks-regen: $(STAMP)
	$(BIN)/python tools/regen_notebooks.py

# docs/rules.md is generated (about a second); tests/test_docs_rules.py checks it is current.
# docs/conformance.md too (tests/test_conformance.py); its pictures are drawn again only when
# what they show may have changed (a few seconds each).
docs: $(STAMP)
	$(BIN)/python tools/make_docs.py
	$(BIN)/python tools/make_conformance.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache artifacts build dist *.egg-info
