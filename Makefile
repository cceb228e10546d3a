# Doppel — the two Quick start commands (`make run`, `make test`) and a few more.
# Every target creates .venv and installs the project into it first, if needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SAMPLES := resources/samples

.PHONY: setup run run-cli test lint format bench evaluate package package-check clean

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

## The packaged app for this machine (dist/Doppel, or dist/Doppel.app on macOS); see
## docs/packaging.md. `make package ONEFILE=1` builds a single executable instead.
PACKAGE_STAMP := $(VENV)/.package-stamp
$(PACKAGE_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,package]'
	touch $(PACKAGE_STAMP)

package: $(PACKAGE_STAMP)
	$(BIN)/python packaging/build.py $(if $(ONEFILE),--onefile)

## Build, then run the bundle's --self-test and a demo screenshot offscreen (what CI does).
package-check: $(PACKAGE_STAMP)
	$(BIN)/python packaging/build.py --check $(if $(ONEFILE),--onefile)

## Benchmarks (not part of the tests): writes bench/results/*.json, see docs/benchmarks.md.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	$(BIN)/python bench/bench_compare.py
	$(BIN)/python bench/bench_preprocess.py
	QT_QPA_PLATFORM=offscreen $(BIN)/python bench/bench_ui.py
	$(BIN)/python bench/bench_phrases.py

## The evaluation (issue 7): SL+ST against shingling, SpotSigs, Wang's method and a phrase
## matcher on a generated labelled corpus; writes docs/evaluation.md and its plot.
evaluate: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	$(BIN)/python bench/evaluate.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
