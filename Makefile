# gamerec: every target installs what it needs first, so `make demo` and `make test`
# work on a fresh machine that has only Python 3.11 and make.
#
# What is installed is uv.lock, exactly: uv (itself installed from the hashes in
# scripts/uv-requirements.txt) syncs .venv to the lock and never resolves anew; `make lock` is
# the only target that moves a version (docs/contributing.md, "Dependencies").
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
TOOLS  := .tools
UV     := $(TOOLS)/bin/uv
STAMP  := $(VENV)/.installed-stamp
RUNTIME_STAMP := $(VENV)/.runtime-stamp

# uv uses this machine's Python (never one it downloads) and keeps quiet about what it does.
# It compiles what it installs to bytecode: where PYTHONDONTWRITEBYTECODE is set (as on these
# machines and their CI), a process would otherwise compile every module it imports from
# source, each time (a `gamerec` command then starts in about 0.2 s instead of 0.08 s).
export UV_PYTHON_DOWNLOADS := never
export UV_NO_PROGRESS := 1
UV_SYNC := $(UV) sync --quiet --compile-bytecode --python $(PYTHON)

.PHONY: install runtime bytecode demo test test-all lint typecheck proto proto-check bench bench-peers fuzz load \
	clean \
	node-client browser docs docs-serve docs-update lock lock-check web web-deps web-check

$(UV): scripts/uv-requirements.txt
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install -qq --disable-pip-version-check --no-deps \
		--require-hashes -r scripts/uv-requirements.txt
	touch $(UV)

# The runtime alone (what the main job needs), added to whatever .venv holds.
$(RUNTIME_STAMP): pyproject.toml uv.lock $(UV)
	$(UV_SYNC) --frozen --inexact
	touch $(RUNTIME_STAMP)

runtime: $(RUNTIME_STAMP)

# gamerec's own modules as bytecode too (see UV_SYNC): uv compiles what it installs, but the
# editable install runs the sources in place. compileall skips the symlinked packages under
# gamerec/ unless they are named. Quick when nothing changed; a changed file is compiled again.
bytecode: $(RUNTIME_STAMP)
	$(PY) -m compileall -q -j 0 gamerec cli recorder validator

# The developer's toolchain (the dev extra, with the docs, cluster and postgresql extras it
# names): .venv becomes exactly that part of the lock. --locked fails when pyproject.toml and
# uv.lock disagree, so a change of dependencies without `make lock` stops here.
$(STAMP): pyproject.toml uv.lock $(UV)
	$(UV_SYNC) --locked --extra dev
	touch $(STAMP) $(RUNTIME_STAMP)

install: $(STAMP)

# Move the lock on purpose: every package to the newest release pyproject.toml allows
# (`make lock LOCK_ARGS="--upgrade-package grpcio-tools"` for one), then the generated code
# from the new grpcio-tools. Commit uv.lock and gamerec/v1 together.
LOCK_ARGS ?= --upgrade

lock: $(UV)
	$(UV) lock $(LOCK_ARGS)
	$(MAKE) proto

lock-check: $(UV)
	$(UV) lock --check

# The main job on the bundled fixtures: complete games (valid), records with a wrong move or a
# wrong claim (invalid: validate then exits 1, which the demo expects), and one ruling.
DEMO_INVALID := fixtures/invalid/one-landing-occupied.grn fixtures/invalid/oust-must-place-again.grn \
	fixtures/invalid/result-mismatch.grn

demo: runtime bytecode
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

# The Node.js example client of the gRPC service (examples/node-client), which the tests run:
# `npm ci` installs exactly what its committed package-lock.json names.
NODE_CLIENT := examples/node-client
NODE_STAMP  := $(NODE_CLIENT)/node_modules/.package-lock.json

$(NODE_STAMP): $(NODE_CLIENT)/package.json $(NODE_CLIENT)/package-lock.json
	cd $(NODE_CLIENT) && npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

node-client: $(NODE_STAMP)

# The browser client (web/, docs/web-client.md): `npm ci` installs exactly the toolchain its
# package-lock.json pins (protoc-gen-es, connect-web, esbuild); `make web` generates its code
# from protos/ into web/gen and bundles it into validator/web/static/, which is committed so
# that `pip install` alone serves it; `make web-check` builds into a temporary folder and
# fails when the committed files differ (as proto-check does for gamerec/v1).
WEB_STAMP := web/node_modules/.package-lock.json

$(WEB_STAMP): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $(WEB_STAMP)

web-deps: $(WEB_STAMP)

web: install web-deps
	$(PY) -m scripts.gen_web

web-check: install web-deps
	$(PY) -m scripts.gen_web --check

# Debian's chromium for the viewer's browser tests (tests/viewer/test_browser.py), installed
# when it is missing (as root, or through sudo).
SUDO := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

browser:
	@command -v chromium >/dev/null 2>&1 || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends \
		chromium fonts-dejavu-core; }

# The documentation site (mkdocs.yml, docs/): built into build/site with every warning, broken
# link or anchor an error; the reference pages are made from the code as it builds. The tests
# (tests/docs) build it too, run every console session of the pages and open it in chromium.
DOCS_ENV := NO_MKDOCS_2_WARNING=1

docs: install
	$(DOCS_ENV) $(PY) -m mkdocs build --strict

docs-serve: install
	$(DOCS_ENV) $(PY) -m mkdocs serve --strict --dev-addr 127.0.0.1:8000

# Run the console sessions of README.md and docs/ and write what the commands print now.
docs-update: install node-client
	$(PY) -m scripts.docs_site.sessions --update

# --dist loadgroup: the tests that share one real Dask cluster (tests/cluster) run in one
# pytest process, one after another; the rest spread over the cores as usual.
test: lock-check install proto-check web-check lint typecheck node-client browser bench-peers \
	bytecode
	$(PY) -m pytest -n auto --dist loadgroup

test-all: install node-client browser bytecode
	$(PY) -m pytest -n auto --dist loadgroup -m ''

# Benchmarks beside their peers (open_spiel, python-chess, sgfmill: the `bench` extra), one
# table; `make bench BENCH_ARGS=--quick` for a smoke run, `BENCH_ARGS="--sections engines"`.
BENCH_STAMP := $(VENV)/.bench-stamp
BENCH_ARGS  ?=

$(BENCH_STAMP): pyproject.toml uv.lock $(STAMP)
	$(UV_SYNC) --frozen --inexact --extra dev --extra bench
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP) bytecode
	$(PY) -m bench $(BENCH_ARGS)

# The peers too, for the tests that play or compare against them (tests/search's OpenSpiel
# referee): the `bench` extra, from the lock, beside the dev toolchain.
bench-peers: $(BENCH_STAMP)

# Fuzzing: every decoder for 100,000 coverage-guided inputs (atheris, the `fuzz` extra), the
# sniffer and the validator for 20,000, then the hypothesis fuzzers with 1,000 examples each.
FUZZ_STAMP := $(VENV)/.fuzz-stamp

$(FUZZ_STAMP): pyproject.toml uv.lock $(STAMP)
	$(UV_SYNC) --frozen --inexact --extra dev --extra fuzz
	touch $(FUZZ_STAMP)

fuzz: $(FUZZ_STAMP)
	$(PY) -m tests.robustness.fuzz_all --runs 100000 --extra-runs 20000
	GAMEREC_FUZZ_EXAMPLES=1000 $(PY) -m pytest -n auto -q \
		tests/robustness/test_fuzz_decoders.py tests/robustness/test_fuzz_validator.py

# The load test: 32 callers of every RPC for 60 s against `gamerec serve` on 127.0.0.1, every
# answer checked against the library; fails on any error or on memory growth past 10%.
LOAD_ARGS ?=

load: install
	$(PY) -m bench.load $(LOAD_ARGS)

clean:
	rm -rf $(VENV) $(TOOLS) .pytest_cache .mypy_cache .ruff_cache .hypothesis build/site

# The long differential run: engines against the second referee of tests/reference/.
.PHONY: differential
differential: install
	$(PY) -m pytest -n auto -m slow -rP tests/reference
