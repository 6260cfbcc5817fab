# Two commands on a bare machine with python3 and make:
#   make lab    creates/updates .venv and opens JupyterLab on notebooks/
#   make test   creates/updates .venv and runs every check
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed
NBVAL   = --nbval --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg
LAB_HOST ?= 127.0.0.1
LAB_PORT ?= 8888

.PHONY: help env lab test lint typecheck unit notebooks browser format bench notebooks-regen clean

help:
	@echo "make lab    - open JupyterLab on notebooks/ (creates the environment)"
	@echo "make test   - ruff, mypy --strict, pytest (unit, doctests, nbval, browser)"
	@echo "make format - apply ruff's formatter and fixes"
	@echo "make bench  - print the benchmark figures"
	@echo "make notebooks-regen - re-execute notebooks and store their outputs"

# The environment is rebuilt whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[lab,dev]'
	touch $(STAMP)

env: $(STAMP)

lab: $(STAMP)
	$(BIN)/jupyter lab --notebook-dir=notebooks --ip=$(LAB_HOST) --port=$(LAB_PORT) \
		$$( [ "$$(id -u)" = 0 ] && echo --allow-root )

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy fwwrules

unit: $(STAMP)
	$(BIN)/pytest $(NBVAL) tests fwwrules widgets notebooks

test: lint typecheck unit

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: $(STAMP)
	@for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done

notebooks-regen: $(STAMP)
	$(BIN)/python tools/regen_notebooks.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
