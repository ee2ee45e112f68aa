"""The graph a stored query draws is declared by its `// graph:` header, and the header matches the query.

Every header is checked against the rows its query really returns on a store
(with its defaults and the samples in query_samples.json): each column it names
comes back (or is a parameter), and each node and edge it declares is drawn by
some sample, so a renamed or always-empty column cannot silently drop an edge.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from study_fixture import study_records
from uptake.api.views.subgraph import query_graph
from uptake.graph.store import open_store
from uptake.queries import QUERY_DIR, QueryError, load_queries, parse_graph_shape
from uptake.queries.run import run_query

SAMPLES = json.loads((Path(__file__).parent / "query_samples.json").read_text())
SHAPED = [name for name, query in load_queries().items() if query.graph is not None]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = open_store(str(tmp_path_factory.mktemp("graphs") / "graph.lbug"))
    s.init()
    s.write(study_records())
    yield s
    s.close()


def test_almost_every_query_declares_its_graph():
    # Only lists that are no graph (a search box's hits, rule texts, population counts, a key look-up)
    # go without a header.
    assert set(load_queries()) - set(SHAPED) == {
        "contribution-rules",
        "explore-search",
        "report-population",
        "resource-key",
    }


@pytest.mark.parametrize("name", SHAPED)
def test_header_names_columns_the_query_returns_and_each_declared_edge_is_drawn(store, name):
    query = load_queries()[name]
    shape = query.graph
    params = {p.name for p in query.params}
    labels, types = set(), set()
    for values in [{}, *(case["params"] for case in SAMPLES.get(name, []))]:
        result = run_query(store, query, values)
        for row in result.rows:
            missing = shape.columns - set(row) - params
            assert not missing, f"{name}: graph header names {missing}, not in its rows {sorted(row)}"
        graph = query_graph(query, result.params, result.rows)
        labels |= {n.label for n in graph.nodes}
        types |= {r.type for r in graph.relationships}
    assert labels >= {n.label for n in shape.nodes}, f"{name}: declared nodes never drawn"
    assert types >= {e.type for e in shape.edges}, f"{name}: declared edges never drawn"
    assert labels, f"{name}: its samples draw nothing"


def test_a_column_renamed_without_its_header_fails_when_the_queries_load(tmp_path):
    folder = tmp_path / "queries"
    folder.mkdir()
    source = QUERY_DIR / "paper-proposal-implementation.cypher"
    text = source.read_text()
    assert "c.sha AS commit," in text and "framework, commit," in text
    renamed = text.replace("c.sha AS commit,", "c.sha AS commit_sha,").replace(
        "framework, commit,", "framework, commit_sha,"
    )
    (folder / source.name).write_text(renamed)
    with pytest.raises(QueryError, match="graph names commit,"):
        load_queries(folder)
    shutil.copy(source, folder / source.name)
    assert load_queries(folder)["paper-proposal-implementation"].graph.edges


@pytest.mark.parametrize(
    ("header", "problem"),
    [
        ("nodes=paper:Paperz", "no node label 'Paperz'"),
        ("nodes=paper:Paper,method:Method edges=method-PROPOSES->paper", "no Method-PROPOSES->Paper"),
        ("nodes=paper:Paper edges=paper-PROPOSES->method", "does not declare"),
        ("nodes=c:Commit,m:Method edges=c-IMPLEMENTS->m{colour=x}", "no property 'colour'"),
        ("values=a nodes=b:Paper", "stands alone"),
        ("nodes=c:Commit,m:Method edges=c-IMPLEMENTS->m[kind]", "an edge reads"),
        ("shapes=a", "expected"),
    ],
)
def test_a_bad_header_is_an_error_naming_the_problem(header, problem):
    with pytest.raises(QueryError, match=problem):
        parse_graph_shape(header)
