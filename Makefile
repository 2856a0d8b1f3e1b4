# Developer commands. Each target creates .venv on first use (Python >= 3.10 and make are all it needs),
# and re-installs the package into it whenever pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/install.stamp
BENCHMARKS := $(sort $(wildcard benchmarks/bench_*.py))

.DEFAULT_GOAL := test
.PHONY: demo test bench lint dist docs clean

$(STAMP): pyproject.toml
	@$(BIN)/python -m pip --version >/dev/null 2>&1 || $(PYTHON) -m venv --clear $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	@touch $@

demo: $(STAMP)
	$(BIN)/python -m benchtrust._demo

# Bytecode caches kept even where PYTHONDONTWRITEBYTECODE is set: without them each xdist worker compiles the
# package and rewrites the asserts of every test module again on every run (22 s of collection, not 11).
# worksteal: the few minute-long tests do not end up queued behind each other on one worker.
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks docs/conf.py docs/_ext
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n auto --dist worksteal

bench: $(STAMP)
	@if [ -z "$(BENCHMARKS)" ]; then echo "make bench: no benchmarks/bench_*.py yet"; fi
	@for script in $(BENCHMARKS); do echo "== $$script"; $(BIN)/python "$$script" || exit 1; done

# The documentation site in docs/_build/html: the guide, the notebook, the API and command line reference.
# Warnings are errors (-W) and every reference to a public name must resolve (nitpicky, docs/conf.py);
# tests/test_docs_site.py builds it the same way in `make test`.
docs: $(STAMP)
	$(BIN)/python -m sphinx -W --keep-going -E -q -b html docs docs/_build/html
	@echo "open docs/_build/html/index.html"

# The sdist and wheel as released, in dist/, their metadata checked (tests/test_wheel.py installs the wheel
# into a fresh environment). --no-isolation: the build uses this environment's setuptools, no download.
dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --outdir dist .
	$(BIN)/python -m twine check --strict dist/*

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks docs/conf.py docs/_ext
	$(BIN)/ruff format --check src tests benchmarks docs/conf.py docs/_ext

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .mypy_cache .hypothesis demo-output docs/_build docs/api/generated
	find src tests benchmarks -name __pycache__ -type d -prune -exec rm -rf {} +
