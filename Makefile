# pbem — the two set-up commands are `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
OUT ?= demo-out

.PHONY: demo test test-slow bench golden install-test clean messages docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

install-test: $(VENV)/.installed

demo: $(VENV)/.installed
	rm -rf $(OUT) && mkdir -p $(OUT)
	$(BIN)/pbem --db $(OUT)/pbem.db demo --out $(OUT)

# the fast suite (every test but the long campaigns); CI runs both (.ci/run)
test: $(VENV)/.installed
	$(BIN)/python -m pytest -m "not slow"

# the long campaigns: many seeded games, whole demos by mail, every turn re-rendered
test-slow: $(VENV)/.installed
	$(BIN)/python -m pytest -m slow

bench: $(VENV)/.installed
	$(BIN)/python -m bench

golden: $(VENV)/.installed
	$(BIN)/python -m tests.golden_regen

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache

# the players' languages: collect the texts of the code, templates and data files into the
# template reports/locale/pbem.pot and merge it into every catalogue (reports/i18n.py)
messages: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -c TRANSLATORS: --add-location=file --sort-output --project pbem \
	    --version 1 --copyright-holder pbem -o reports/locale/pbem.pot .
	$(BIN)/pybabel update -i reports/locale/pbem.pot -d reports/locale -D pbem --no-fuzzy-matching -w 100
	$(BIN)/python -m reports.docs_i18n messages

# docs/hu and docs/de: the players' references made from the English pages and docs/locale
docs: $(VENV)/.installed
	$(BIN)/python -m reports.docs_i18n build
