# The two commands of the README:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint catalogs bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

catalogs: $(STAMP)
	$(VENV)/bin/pybabel compile -q -d translations

setup: $(STAMP) catalogs

run: setup
	$(VENV)/bin/portal serve

lint: setup
	$(VENV)/bin/ruff check portal tests bench

test: setup lint
	$(PY) -m pytest $(PYTEST_ARGS)

bench: setup
	$(PY) bench/core_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
