# Doppel — the two Quick start commands (`make run`, `make test`) and a few more.
# Every target creates .venv and installs the project into it first, if needed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SAMPLES := resources/samples

.PHONY: setup run run-cli test test-headless lint format bench evaluate package package-check clean \
	fuzz fuzz-atheris

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

## Lint, then the whole test suite, with FUZZ_CI_SECONDS of fuzzing the importers in it
## (tests/fuzz; docs/reliability.md, "Fuzzing").
FUZZ_CI_SECONDS ?= 150
test: lint
	DOPPEL_FUZZ_SECONDS=$(FUZZ_CI_SECONDS) $(BIN)/python -m pytest

## The headless lane (CI runs it too): Doppel installed as a user would (`pip install
## doppel-check`, from a built wheel, not editable) without the `gui` extra, so PySide6 is
## absent; the installed `doppel` must work from outside the source tree, and the engine and
## command-line tests run there, so a stray Qt import fails. docs/architecture.md lists them.
HEADLESS := .venv-headless
HEADLESS_STAMP := $(HEADLESS)/.installed-stamp
HEADLESS_TESTS := tests/core tests/cli tests/gui_logic tests/bench tests/test_architecture.py \
	tests/test_packaging.py
$(HEADLESS_STAMP): pyproject.toml
	$(PYTHON) -m venv $(HEADLESS)
	$(HEADLESS)/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
	$(HEADLESS)/bin/python -m pip install --quiet --disable-pip-version-check '.[test]'
	touch $(HEADLESS_STAMP)

test-headless: $(HEADLESS_STAMP)
	$(HEADLESS)/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall .
	@$(HEADLESS)/bin/python -c 'import importlib.util, sys; sys.exit("PySide6 is installed in the headless lane" if importlib.util.find_spec("PySide6") else 0)'
	cd / && $(CURDIR)/$(HEADLESS)/bin/doppel compare $(CURDIR)/$(SAMPLES)/original-essay.txt $(CURDIR)/$(SAMPLES)/reworded-copy.docx --json > /dev/null
	cd / && $(CURDIR)/$(HEADLESS)/bin/doppel languages | grep -q '^en  english .*stems: Snowball$$'
	cd / && $(CURDIR)/$(HEADLESS)/bin/doppel gui --demo 2>&1 | grep -q "doppel-check\[gui\]"
	$(HEADLESS)/bin/python -m pytest $(HEADLESS_TESTS)

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
	$(BIN)/python bench/bench_phrases_memory.py
	$(BIN)/python bench/bench_normalize.py
	$(BIN)/python bench/bench_cache_codec.py

## The evaluation (issue 7): SL+ST against shingling, SpotSigs, Wang's method and a phrase
## matcher on a generated labelled corpus; writes docs/evaluation.md and its plot.
evaluate: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,bench]'
	$(BIN)/python bench/evaluate.py

## The longer fuzzing run, before a release (docs/reliability.md, "Fuzzing"): FUZZ_SECONDS
## over every importer, failing inputs and build/fuzz/report.json, then the regressions.
FUZZ_SECONDS ?= 1800
fuzz: $(STAMP)
	$(BIN)/python tests/fuzz/run_fuzz.py --seconds $(FUZZ_SECONDS)
	$(BIN)/python -m pytest tests/fuzz/test_fuzz_regressions.py

## The same time under atheris, coverage-guided (Linux: its wheels; the `fuzz` extra).
fuzz-atheris: $(STAMP)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,fuzz]'
	$(BIN)/python tests/fuzz/run_fuzz.py --engine atheris --seconds $(FUZZ_SECONDS)

clean:
	rm -rf $(VENV) $(HEADLESS) build dist *.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis
