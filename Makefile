# Doppel — the two Quick start commands (`make run`, `make test`) and a few more.
# Every target creates .venv and installs the project into it first, if needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SAMPLES := resources/samples

.PHONY: setup run run-cli test lint format bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

## Open the app on the bundled sample essays, the comparison done.
run: $(STAMP)
	$(BIN)/doppel gui --demo

## The same comparison on the command line.
run-cli: $(STAMP)
	$(BIN)/doppel compare $(SAMPLES)/original-essay.txt $(SAMPLES)/reworded-copy.docx

## Lint, then the whole test suite.
test: lint
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## Benchmarks (not part of the tests): writes bench/results/*.json, see docs/benchmarks.md.
bench: $(STAMP)
	$(BIN)/python bench/bench_compare.py
	$(BIN)/python bench/bench_preprocess.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python bench/bench_ui.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
