# Developer commands. Each target creates .venv on first use (Python >= 3.10 and make are all it needs),
# and re-installs the package into it whenever pyproject.toml changes.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/install.stamp
BENCHMARKS := $(sort $(wildcard benchmarks/bench_*.py))

.DEFAULT_GOAL := test
.PHONY: demo test bench lint clean

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
	$(BIN)/ruff check src tests benchmarks
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest -n auto --dist worksteal

bench: $(STAMP)
	@if [ -z "$(BENCHMARKS)" ]; then echo "make bench: no benchmarks/bench_*.py yet"; fi
	@for script in $(BENCHMARKS); do echo "== $$script"; $(BIN)/python "$$script" || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .ruff_cache .hypothesis demo-output
	find src tests benchmarks -name __pycache__ -type d -prune -exec rm -rf {} +
