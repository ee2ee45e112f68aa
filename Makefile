# Two entry points for a fresh machine: `make run` and `make test`.
# Both create the virtual environment they need on first use.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STORE  ?= uptake.lbug

.PHONY: run test test-deps lint neo4j-start neo4j-stop clean

$(BIN)/uptake: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	@touch $@

# Build the graph on the embedded store from what Uptake ships, then show GRPO's family tree
# and how DAPO (arXiv 2503.14476) reached each framework.
run: $(BIN)/uptake
	$(BIN)/uptake build --store $(STORE)
	$(BIN)/uptake query method-lineage --param slug=grpo --store $(STORE)
	$(BIN)/uptake query paper-implementations --param arxiv_id=2503.14476 --store $(STORE)

test: $(BIN)/uptake
	$(BIN)/python -m pytest

# What the browser tests need beyond Python: Debian's Chromium (never a downloaded browser)
# and Mermaid from npm. Without them those tests skip locally; CI installs them.
test-deps:
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium chromium-driver)
	npm ci --prefix tests/js --no-audit --no-fund

lint: $(BIN)/uptake
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

neo4j-start:
	scripts/neo4j-local start

neo4j-stop:
	scripts/neo4j-local stop

clean:
	rm -rf $(STORE) .pytest_cache
