"""Documentation that must not drift from the code."""

from __future__ import annotations

import re
from pathlib import Path

from uptake.graph.schema import schema_markdown
from uptake.queries import load_queries

REPO = Path(__file__).resolve().parent.parent


def test_architecture_schema_table_matches_the_code():
    text = (REPO / "ARCHITECTURE.md").read_text()
    block = re.search(r"<!-- schema:start -->\n(.*?)<!-- schema:end -->", text, re.S)
    assert block, "ARCHITECTURE.md lost its schema markers"
    assert block.group(1) == schema_markdown(), "run `uptake db schema` and paste the tables"


def test_every_stored_query_is_documented():
    for query in load_queries().values():
        assert len(query.description) > 15, f"{query.name}: description too short"
        assert query.returns, f"{query.name}: no result columns named"
        for param in query.params:
            assert param.doc, f"{query.name}: parameter {param.name} has no description"


def test_readme_leads_with_the_two_commands_ci_runs():
    readme = (REPO / "README.md").read_text()
    first_block = re.search(r"```sh\n(.*?)```", readme, re.S).group(1).strip().splitlines()
    commands = [line.split("#")[0].strip() for line in first_block]
    assert commands == ["make run", "make test"]
    assert "make test" in (REPO / ".ci" / "run").read_text()
