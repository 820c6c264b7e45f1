# The two commands a host needs:  make run   (start the app)   make test   (run every test)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: run test lint benchmark clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.run-deps: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test-deps: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[test]"
	touch $@

run: $(VENV)/.run-deps
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py serve --port $(PORT)

test: $(VENV)/.test-deps
	@test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium; \
	  else echo "The browser tests need Chromium: sudo apt-get install -y chromium"; exit 1; fi; }
	$(PY) -m ruff check .
	$(PY) -m pytest -n 2 -q

lint: $(VENV)/.test-deps
	$(PY) -m ruff check .

benchmark: $(VENV)/.run-deps
	$(PY) manage.py benchmark

clean:
	rm -rf $(VENV) var
