# The two commands of the README: `make run` and `make test`. Both set everything up first.
# Python 3.11: the distribution's own build where there is one (built with profile-guided and link-time
# optimisation: here it ran pure Python in 30 % less time and the site's move path in about 14 % less CPU
# than a plain source build such as pyenv's) when it can make a venv with pip (Debian's python3.11-venv),
# else whichever python3.11 or python3 comes first on the PATH.
PYTHON ?= $(firstword $(shell /usr/bin/python3.11 -c 'import ensurepip, venv' 2>/dev/null && echo /usr/bin/python3.11) \
                      $(shell command -v python3.11 || command -v python3))
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test install migrate seed ci lint e2e-under-load messages
MESSAGE_SOURCES := -e html,py,txt --no-obsolete --ignore '.venv/*' --ignore 'var/*' --ignore 'bench/*' --ignore 'tests/*' \
                   --ignore 'staticfiles/*' --ignore '*.egg-info/*'

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The German catalogue is compiled at every install (its .mo files are not committed).
install: $(STAMP)
	@command -v msgfmt >/dev/null || { echo "The German translations are compiled with GNU gettext's msgfmt:" \
	  "apt-get install gettext (Debian, Ubuntu) or brew install gettext (macOS), then run this again."; exit 1; }
	$(BIN)/python manage.py compilemessages --ignore '.venv' --ignore 'var' -v 0

# Extract every marked string into locale/<language>/LC_MESSAGES/django.po (keeps the translations there).
messages: install
	$(BIN)/python manage.py makemessages -l de $(MESSAGE_SOURCES)

migrate: install
	$(BIN)/python manage.py migrate --noinput

seed: migrate
	$(BIN)/python manage.py seed

run: seed
	@echo "The Card Club: http://127.0.0.1:8000  (demo members: see README)"
	$(BIN)/daphne -b 127.0.0.1 -p 8000 config.asgi:application

# The default tier in one process per core (pytest-xdist; each process has its own SQLite test database).
test: install
	$(BIN)/pytest -n auto --dist loadfile

lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports

ci:
	bash .ci/run

# The e2e tier RUNS times in a row while stress-ng keeps every core busy (a loaded CI machine); stops at the
# first failure. Not part of CI (it takes about half an hour); run it after changing anything the browser sees.
RUNS ?= 10
e2e-under-load: install
	command -v stress-ng >/dev/null || (apt-get update -qq && apt-get install -y -qq stress-ng)
	stress-ng --cpu $$(nproc) --timeout 3h --quiet & load=$$!; trap 'kill $$load' EXIT; \
	for run in $$(seq $(RUNS)); do \
	  echo "e2e run $$run of $(RUNS), load $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	  $(BIN)/pytest -m e2e -p no:cacheprovider -q || exit 1; \
	done
