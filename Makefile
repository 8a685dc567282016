# gamerec: every target installs what it needs first, so `make demo` and `make test`
# work on a fresh machine that has only Python 3.11 and make.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: install demo test test-all lint typecheck proto proto-check bench fuzz load clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

# The main job on the bundled fixtures: complete games (valid), records with a wrong move or a
# wrong claim (invalid: validate then exits 1, which the demo expects), and one ruling.
DEMO_INVALID := fixtures/invalid/one-landing-occupied.grn fixtures/invalid/oust-must-place-again.grn \
	fixtures/invalid/result-mismatch.grn

demo: install
	$(VENV)/bin/gamerec validate fixtures/games $(DEMO_INVALID) || [ $$? -eq 1 ]
	$(VENV)/bin/gamerec adjudicate fixtures/games/aronda-timeout.grn

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: install
	$(PY) -m mypy

proto: install
	$(PY) scripts/gen_proto.py

proto-check: install
	$(PY) scripts/gen_proto.py --check
	$(VENV)/bin/buf lint protos

test: install proto-check lint typecheck
	$(PY) -m pytest -n auto

test-all: install
	$(PY) -m pytest -n auto -m ''

bench: install
	$(PY) -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
