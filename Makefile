# The two commands of the README: `make run` and `make test`. Both set up .venv first.
# SERVE_ARGS passes options to the server: make run SERVE_ARGS='--port 8080'.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Bytecode caching on, whatever the shell says: without it every test process (and
# every `noughts` command the tests start) compiles the sources and re-does pytest's
# assertion rewriting, seconds each time.
unexport PYTHONDONTWRITEBYTECODE
# Test processes for `make test`: twice the cores (at least 2), since many of its tests
# spend their time waiting on servers, browsers and other processes rather than
# computing. (make check's tests compute: one process a core.)
WORKERS ?= $(shell $(PYTHON) -c 'import os; print(max(2, 2 * (os.cpu_count() or 1)))')

.PHONY: run test test-slow check lint typecheck clean web-checks

$(STAMP): pyproject.toml requirements.lock package-lock.json
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python 3.11 or newer is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	@# uv installs (its version from the lock file, with pip): 5 s where pip took 22. Like
	@# pip with --no-compile, it leaves the packages' bytecode to be written on first
	@# import, for the modules actually used. -c requirements.lock: every package at the
	@# version the lock file names (pyproject declares ranges, for the library's users;
	@# the set-up and CI are reproducible).
	$(BIN)/pip install --quiet --no-compile -c requirements.lock uv
	@# Every extra, and the dev dependency group (pyproject.toml: not published, as an extra would be).
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c requirements.lock -e '.[kernels,server,scale,arena,rl,openspiel]' --group dev
	@# The browser tests drive Debian's Chromium: installed here when root on Debian, else explained.
	@test -x /usr/bin/chromium || if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo 'installing Debian chromium for the browser tests (apt-get, a minute)'; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "note: the browser tests need Chromium: run 'apt-get install -y chromium' as root (they skip without it)"; fi
	@# The browser game's checks (tsc, ESLint; package-lock.json's versions), where Node.js is.
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error; \
	else echo "note: the browser game's type check, lint and unit tests need Node.js and npm (they are skipped without them)"; fi
	touch $(STAMP)

# The computer's fast engine is compiled before the server starts, once per machine (a
# second's check afterwards), not during someone's first game.
run: $(STAMP)
	$(BIN)/noughts prepare
	$(BIN)/noughts serve $(SERVE_ARGS)

# The suite without the exhaustive checks (docs/development.md: its time on two cores).
test: $(STAMP)
	@# Before the tests, each on one core and all at once: compiling the fast engine (half
	@# a minute, once per machine; a second's check afterwards), the lint and type checks,
	@# and collecting the tests once, which writes the bytecode of everything they import
	@# (on a fresh clone, else compiled again by each of the test processes, all starting
	@# at once). So the test processes start and collect on both cores, their kernels
	@# ready. src's doctests run in a process of their own beside them: collected by every
	@# test process, they cost each 6 s of CPU. Like the tests (tests/conftest.py), they
	@# get cache and data folders of their own.
	@$(BIN)/noughts prepare --quiet >/dev/null & preparing=$$!; \
	$(BIN)/pytest --collect-only -q -p no:cacheprovider -m "not slow" tests >/dev/null 2>&1 & collecting=$$!; \
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/lint-imports && $(BIN)/mypy && $(MAKE) --no-print-directory web-checks; checked=$$?; \
	wait $$collecting; wait $$preparing || { echo "compiling the fast engine failed: run $(BIN)/noughts prepare"; exit 1; }; \
	exit $$checked
	@scratch=$$(mktemp -d); \
	NOUGHTS_CACHE_DIR=$$scratch/cache NOUGHTS_DATA_DIR=$$scratch/data \
	$(BIN)/pytest -q -p no:cacheprovider -m "not slow" src >$(VENV)/doctests.log 2>&1 & doctests=$$!; \
	$(BIN)/pytest -n $(WORKERS) --dist worksteal -m "not slow" tests; tested=$$?; \
	wait $$doctests; doctested=$$?; rm -rf $$scratch; \
	if [ $$doctested = 0 ]; then echo "doctests (src): $$(tail -n 1 $(VENV)/doctests.log)"; else cat $(VENV)/doctests.log; fi; \
	[ $$tested = 0 ] && [ $$doctested = 0 ]

# The browser game's modules: type-checked (JSDoc, tsc --checkJs: jsconfig.json), linted
# (ESLint: eslint.config.js), their pure parts unit-tested (node --test tests/web/js/).
web-checks:
	@if [ -d node_modules ]; then \
		node_modules/.bin/tsc -p jsconfig.json && node_modules/.bin/eslint src/noughts/web/js tests/web/js \
		&& node --test --test-reporter=dot tests/web/js/; \
	else echo "web checks skipped: no node_modules (Node.js and npm are needed: npm ci)"; fi

# The exhaustive and long-running checks; CI runs them after `make test`. Gobblet's
# solved table first (minutes on every core, once per machine: it stays in the cache
# folder), so that the checks of the table, its opening book and the gobblet puzzles
# run; with NOUGHTS_TESTS_NEED_GOBBLET_TABLE they fail, not skip, if it is missing.
test-slow: $(STAMP)
	$(BIN)/noughts prepare --quiet
	$(BIN)/noughts solve gobblet
	NOUGHTS_TESTS_NEED_GOBBLET_TABLE=1 $(BIN)/pytest -n auto --dist worksteal -m slow
	@# A sample of the server and browser tests again, beside two busy processes a core:
	@# they pass on a busy machine as on an idle one.
	$(BIN)/python tests/under_load.py -n 2 --dist worksteal -q -p no:cacheprovider -m "not slow" $(UNDER_LOAD)

# The sample test-slow runs under load: online play, its bots and its bad input, and the
# browser playing the computer and another person.
UNDER_LOAD := tests/server/online/test_play.py tests/server/online/test_bots.py tests/server/online/test_faults.py \
	tests/web/test_play.py tests/server/online/test_live_browser.py

# Lint, types and the quick tests: no browser, no server processes, nothing slow.
check: $(STAMP)
	$(BIN)/noughts prepare --quiet
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy
	$(MAKE) --no-print-directory web-checks
	$(BIN)/pytest -n auto --dist worksteal -m "not slow and not integration"

lint: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis .import_linter_cache site
