# Two commands: `make run` (set up and serve the embedded mode) and `make test`.
# Needs only Python 3.11+ (with venv) and make.

# The first of these that runs and is 3.11+ (pyenv shims may exist for versions not selected).
ifndef PYTHON
PYTHON := $(shell for p in python3 python3.13 python3.12 python3.11; do \
            $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 \
            && { command -v $$p; break; }; done)
endif
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
HOST ?= 127.0.0.1

.PHONY: run dev test lint migrate seed messages compilemessages clean venv bench-load

$(PY):
	@[ -n "$(PYTHON)" ] || { echo "Python 3.11 or newer (with venv) is required"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# Stamps live inside .venv: deleting .venv forces a reinstall, an unchanged requirements file
# skips it.
$(VENV)/.runtime-installed: requirements.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements.txt requirements-dev.txt | $(PY)
	$(PY) -m pip install --disable-pip-version-check -q -r requirements-dev.txt
	touch $(VENV)/.runtime-installed $@

venv: $(VENV)/.runtime-installed

migrate: $(VENV)/.runtime-installed
	$(PY) manage.py migrate --noinput

seed: migrate
	$(PY) manage.py seed_demo

# uvicorn serves the pages, their WebSockets and the standings they re-read when told (/live-read/),
# all in one process: the in-process channel layer and the local-memory cache need no Redis;
# whitenoise serves the static files in DEBUG.
run: seed
	@echo "Serving on http://$(HOST):$(PORT)/"
	$(PY) -m uvicorn config.asgi:application --host $(HOST) --port $(PORT) --ws-max-size 4096

# As run, with Django's debug pages (a 404's URL list, a 500's traceback): development only;
# `make run` shows the site's own translated pages, as the hall should see them.
dev:
	DEBUG_PAGES=1 $(MAKE) run

test: $(VENV)/.dev-installed
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.dev-installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict rules/

# 100 referees and 50 spectators against gunicorn + Celery on a scratch PostgreSQL database
# (docs/reliability.md). Needs DATABASE_URL=postgres://… and Redis on 127.0.0.1:6379.
bench-load: $(VENV)/.dev-installed
	$(PY) bench/load_hall.py $(BENCH_ARGS)

# Regenerate the catalogues after changing user-visible strings (needs GNU gettext), then
# fill in locale/ru/LC_MESSAGES/django.po and run `make compilemessages`.
messages: $(VENV)/.runtime-installed
	$(PY) manage.py makemessages -l ru -l en --no-obsolete --no-location \
	  --ignore '.venv/*' --ignore 'rules/*' --ignore 'staticfiles/*'

compilemessages: $(VENV)/.runtime-installed
	$(PY) manage.py compilemessages --ignore '.venv/*'

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache
