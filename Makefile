# The two commands of the README:  `make run`  and  `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: bench-core bench-postgres bench-roll setup run test test-deep lint catalogs translations bench clean cluster-test

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

catalogs: $(STAMP)
	$(VENV)/bin/pybabel compile -d translations --statistics

# Front-end assets and browser-test tools from npm (package-lock.json): USWDS is copied into
# portal/static/vendor/ (not committed); axe-core and vnu-jar stay in node_modules/.
VENDOR := portal/static/vendor/.installed
$(VENDOR): package-lock.json
	npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
	rm -rf portal/static/vendor/uswds && mkdir -p portal/static/vendor/uswds
	cp -R node_modules/@uswds/uswds/dist/css node_modules/@uswds/uswds/dist/js \
	  node_modules/@uswds/uswds/dist/fonts node_modules/@uswds/uswds/dist/img portal/static/vendor/uswds/
	find portal/static/vendor -name '*.map' -delete
	touch $(VENDOR)

setup: $(STAMP) catalogs $(VENDOR)

# Set up, migrate, load the demo District when the database is empty, serve on 127.0.0.1:5000
# (`make run PORT=8080` elsewhere: the links and the payment's return follow the port unless
# PORTAL_BASE_URL says otherwise) with the background jobs' worker beside it (`portal serve --worker`: Ctrl-C stops both).
# The demo District is placed around the day it is loaded (the real date), so its lump sum, a
# demand in its window and the court list are there on any day; `make run PORTAL_TODAY=2026-11-30`
# pins a day (the tests' day; load the demo into an empty database on it). The tests set the
# clock they need and pass on any real date.
PORTAL_TODAY ?=
PORT ?= 5000
DEMO_ENV := PORTAL_TODAY=$(PORTAL_TODAY)

run: setup
	$(DEMO_ENV) $(VENV)/bin/portal db upgrade
	$(DEMO_ENV) $(VENV)/bin/portal demo --if-empty
	$(DEMO_ENV) $(VENV)/bin/portal serve --host 127.0.0.1 --port $(PORT) --worker

# Style, then the layer contract (pyproject.toml [tool.importlinter]): a wrong-way import fails.
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache

# The suite in TEST_WORKERS processes (pytest-xdist; a test file stays in one process, so its
# module fixtures are built once): every test makes its own databases, ports and folders.
# `make test TEST_WORKERS=0` runs it in this one process.
TEST_WORKERS ?= 2

test: setup lint
	env -u PORTAL_TODAY $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# The portal in production's shape alone (tests/test_cluster.py, marker `cluster`; part of
# `make test` too): HAProxy (Debian's `haproxy`) in front of three gunicorn instances, two
# workers, a throwaway PostgreSQL database, Redis, moto's S3 and an SMTP relay on free ports;
# and the restore drill (tests/test_restore_drill.py: dump, restore, the same pages).
cluster-test: setup
	env -u PORTAL_TODAY $(PY) -m pytest -q -m cluster -p no:cacheprovider tests/test_cluster.py tests/test_restore_drill.py $(PYTEST_ARGS)

# The property tests with many more examples, unseeded (nightly-style; not part of `make test`).
test-deep: setup
	env -u PORTAL_TODAY HYPOTHESIS_PROFILE=deep $(PY) -m pytest -q tests/core/test_properties.py tests/payments/test_properties.py $(PYTEST_ARGS)

bench: setup
	$(PY) bench/core_bench.py
	$(PY) bench/core_oracle_bench.py
	$(PY) bench/web_bench.py
	$(PY) bench/trivial_bench.py
	$(PY) bench/roll_bench.py
	$(PY) bench/document_bench.py

# The roll at island scale on PostgreSQL, the whole path at two sizes: an N-parcel CSV checked,
# imported, computed and published on a throwaway database per size, each stage printed, then
# each stage's CPU per parcel (the bench's and the server's) at both sizes and each size's peak
# memory (`make bench-roll PARCELS=20000,80000` for less; docs/ROLL_IMPORT.md).
PARCELS ?= 300000,1500000
bench-roll: setup
	$(PY) bench/import_bench.py --parcels $(PARCELS) --postgres $(PG)
	$(PY) bench/pdf_bench.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache

# Extract the messages into translations/messages.pot and update both catalogs from it; then
# translate the new Spanish entries in translations/es/LC_MESSAGES/messages.po (the only copy of
# the reviewed Spanish) with any PO editor (poedit, Lokalize, or a text editor), then
# `make catalogs`. `--width 100` writes the .po files as wide as the Spanish one is committed.
translations: $(STAMP)
	$(VENV)/bin/pybabel extract -F babel.cfg -k _l -k N_ --no-location --sort-output -o translations/messages.pot .
	$(VENV)/bin/pybabel update -i translations/messages.pot -d translations --no-fuzzy-matching --ignore-obsolete --width 100

bench-core: setup
	$(PY) bench/core_bench.py
	$(PY) bench/core_oracle_bench.py

# The web benchmark on PostgreSQL (a throwaway database on 127.0.0.1:5432, or
# `make bench-postgres PG=postgresql+psycopg://user@host:port/db`).
PG ?= postgresql+psycopg://postgres@127.0.0.1:5432/test
bench-postgres: setup
	$(PY) bench/web_bench.py --postgres $(PG)

# A screenshot of each main page in both languages at 375 and 1,280 px (a throwaway demo
# District in Chromium), into instance/screenshots/ (`make screenshots SHOTS=DIR` elsewhere).
SHOTS ?= instance/screenshots
.PHONY: screenshots
screenshots: setup
	env -u PORTAL_TODAY $(PY) scripts/screenshots.py --out $(SHOTS)
