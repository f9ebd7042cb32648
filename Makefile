# The two commands of the README:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: setup run test lint catalogs translations bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

catalogs: $(STAMP)
	$(VENV)/bin/pybabel compile -d translations --statistics

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

# Extract new messages into the catalogs (then translate the Spanish ones and `make catalogs`).
translations: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -k N_ --no-location --sort-output -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete
