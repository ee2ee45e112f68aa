"""The HTTP API on a real store of each backend, through FastAPI's in-process client."""

from __future__ import annotations

import time

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from study_fixture import COMMITS, PAPERS, study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.records import Node
from uptake.queries import load_queries


def make_client(store, monkeypatch, **settings) -> TestClient:
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    config = ApiSettings(refresh_interval=0, connect_attempts=1, **settings)
    return TestClient(create_app(store.location, config))


@pytest.fixture
def client(store, monkeypatch):
    store.write(study_records())
    with make_client(store, monkeypatch) as c:
        yield c


def assert_error(response, status: int, code: str, *words: str) -> dict:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code
    for word in words:
        assert word in error["message"]
    return error


def test_stored_queries_are_listed_with_paging_and_described(client):
    queries = load_queries()
    first = client.get("/queries", params={"limit": 3, "offset": 0}).json()
    rest = client.get("/queries", params={"limit": 1000, "offset": 3}).json()
    assert first["count"] == rest["count"] == len(queries)
    names = [q["name"] for q in first["data"] + rest["data"]]
    assert names == list(queries)
    detail = client.get("/queries/report-general-papers").json()
    params = {p["name"]: p for p in detail["parameters"]}
    assert params["frameworks"]["type"] == "STRING[]" and params["frameworks"]["default"] == []
    assert params["since"]["default"] == "1990-01-01"
    assert detail["run_path"] == "/queries/report-general-papers/rows"
    assert_error(client.get("/queries/no-such-query"), 404, "not_found", "no-such-query")


def test_openapi_documents_each_stored_query_parameter_with_its_type(client):
    doc = client.get("/openapi.json").json()
    operation = doc["paths"]["/queries/report-general-papers/rows"]["get"]
    assert operation["operationId"] == "run_report_general_papers"
    schemas = {p["name"]: p["schema"] for p in operation["parameters"]}
    assert schemas["since"]["format"] == "date"
    assert schemas["frameworks"]["type"] == "array"
    lineage = doc["paths"]["/queries/methods-no-report-states/rows"]["get"]
    assert {p["name"]: p["schema"]["type"] for p in lineage["parameters"]}["min_frameworks"] == "integer"


def test_typed_stored_query_run_returns_rows_computed_from_the_fixture(client):
    body = client.get("/queries/adoption-timeline/rows", params={"slug": "rloo"}).json()
    published = {p[0]: p[1] for p in PAPERS}["2402.14740"]
    expected = {}
    for _, framework, date, method, _ in COMMITS:
        if method == "rloo":
            expected[framework] = min(expected.get(framework, date), date)
    got = {row["framework"]: row["first_commit_date"] for row in body["data"]}
    assert got == expected
    days = {row["framework"]: row["days_after_paper"] for row in body["data"]}
    import datetime as dt

    assert days["trl"] == (dt.date.fromisoformat(expected["trl"]) - dt.date.fromisoformat(published)).days
    assert body["count"] == 2 and body["truncated"] is False


def test_bad_parameters_get_a_422_naming_the_parameter(client):
    error = assert_error(
        client.get("/queries/methods-no-report-states/rows", params={"min_frameworks": "many"}),
        422,
        "invalid_parameter",
        "min_frameworks",
    )
    assert error["detail"][0]["parameter"] == "min_frameworks"
    assert_error(
        client.get("/queries/adoption-timeline/rows", params={"colour": "red"}),
        422,
        "invalid_parameter",
        "colour",
    )
    assert_error(
        client.post("/queries/report-general-papers/rows", json={"params": {"since": "last tuesday"}}),
        422,
        "invalid_parameter",
        "since",
    )
    assert_error(
        client.post("/queries/adoption-timeline/rows", json={"params": {"slugg": "grpo"}}),
        422,
        "invalid_parameter",
        "slugg",
    )
    assert_error(client.get("/papers", params={"limit": 0}), 422, "invalid_parameter", "limit")


def test_post_run_takes_parameters_as_json_and_pages(client):
    everything = client.post("/queries/resource-papers/rows", json={"params": {"general_only": True}}).json()
    general = sorted((p[1], p[0]) for p in PAPERS if p[2])
    assert [r["arxiv_id"] for r in everything["data"]] == [a for _, a in general]
    page = client.post(
        "/queries/resource-papers/rows",
        params={"limit": 2, "offset": 3},
        json={"params": {"general_only": True}},
    ).json()
    assert [r["arxiv_id"] for r in page["data"]] == [a for _, a in general][3:5]
    assert page["count"] == len(general)


def test_paper_resource_carries_a_drawable_graph(client):
    body = client.get("/papers/2402.03300").json()
    assert body["node"]["arxiv_id"] == "2402.03300" and body["node"]["published_date"] == "2024-02-05"
    graph = body["graph"]
    ids = {n["id"] for n in graph["nodes"]}
    for rel in graph["relationships"]:
        assert rel["source"] in ids and rel["target"] in ids
    edges = {(r["source"], r["type"], r["target"]) for r in graph["relationships"]}
    assert ("Paper:2402.03300", "PROPOSES", "Method:grpo") in edges
    assert ("Framework:verl", "SUPPORTS", "Method:grpo") in edges
    assert ("Commit:c-trl-grpo", "MENTIONS", "Paper:2402.03300") in edges
    assert_error(client.get("/papers/0000.00000"), 404, "not_found", "0000.00000")


def test_method_framework_lineage_and_failure_resources(client):
    method = client.get("/methods/grpo").json()
    edges = {(r["source"], r["type"], r["target"]) for r in method["graph"]["relationships"]}
    assert ("ModelReport:2505.09388", "STATES_USE_OF", "Method:grpo") in edges
    assert ("FailureReport:trl#12/nan-loss", "AFFECTS", "Method:grpo") in edges
    lineage = client.get("/methods/grpo/lineage").json()
    edges = {(r["source"], r["type"], r["target"]) for r in lineage["graph"]["relationships"]}
    assert edges == {
        ("Method:dapo", "EXTENDS", "Method:grpo"),
        ("Method:dr-grpo", "EXTENDS", "Method:grpo"),
        ("Method:gspo", "EXTENDS", "Method:grpo"),
        ("Method:grpo", "EXTENDS", "Method:ppo"),
    }
    framework = client.get("/frameworks/trl").json()
    rules = [r for r in framework["graph"]["relationships"] if r["type"] == "HAS_RULE"]
    assert [r["target"] for r in rules] == ["ContributionRule:trl/dco"]
    fixes = client.get("/failures/trl%2312/nan-loss/fixes").json()
    fixers = {(r["source"], r["type"], r["target"]) for r in fixes["graph"]["relationships"]}
    assert ("Commit:c-trl-fix", "FIXES", "Issue:trl#12") in fixers
    assert ("PullRequest:trl#13", "FIXES", "Issue:trl#12") in fixers
    assert_error(client.get("/failures/none/fixes"), 404, "not_found")
    methods = client.get("/methods", params={"limit": 5, "offset": 5}).json()
    slugs = sorted({p[8] for p in PAPERS if p[8]})
    assert methods["count"] == len(slugs) and [m["slug"] for m in methods["data"]] == slugs[5:10]


def test_cypher_endpoint_refuses_writes_and_passes_parameters_as_parameters(client):
    assert_error(
        client.post("/cypher", json={"statement": "CREATE (:Framework {slug: 'evil'})"}),
        403,
        "statement_refused",
        "CREATE writes the graph",
    )
    assert client.get("/frameworks/evil").status_code == 404
    tricky = "grpo'}) DETACH DELETE m //"
    body = client.post(
        "/cypher",
        json={
            "statement": "MATCH (m:Method) WHERE m.slug = $s RETURN m.slug AS slug",
            "params": {"s": tricky},
        },
    ).json()
    assert body["data"] == []
    nodes = client.post("/cypher", json={"statement": "MATCH (m:Method {slug: 'grpo'}) RETURN m"}).json()
    assert nodes["graph"]["nodes"][0]["id"] == "Method:grpo"
    assert_error(client.post("/cypher", json={"statement": "THIS IS NOT CYPHER"}), 403, "statement_refused")
    assert_error(client.post("/cypher", json={"statement": "MATCH n RETURN n"}), 400, "cypher_error")


def test_cypher_row_cap_and_timeout(store, monkeypatch):
    store.write(study_records())
    with make_client(store, monkeypatch, max_rows=5, query_timeout=0.5) as c:
        capped = c.post("/cypher", json={"statement": "UNWIND range(1, 100) AS x RETURN x"}).json()
        assert [r["x"] for r in capped["data"]] == [1, 2, 3, 4, 5] and capped["truncated"] is True
        slow = (
            "UNWIND range(1, 200000) AS a UNWIND range(1, 200000) AS b "
            "WITH a * b AS p WHERE p % 7 = 3 RETURN sum(p) AS n"
        )
        started = time.monotonic()
        assert_error(c.post("/cypher", json={"statement": slow, "timeout": 60}), 408, "query_timeout", "0.5")
        assert time.monotonic() - started < 20
        # Cancelled, not left running: the store answers at once, and Neo4j lists no such transaction.
        assert c.get("/frameworks").json()["count"] == 3
        if store.backend == "neo4j":
            running = store.read("SHOW TRANSACTIONS YIELD currentQuery RETURN currentQuery")
            assert not [r for r in running if "200000" in (r["currentQuery"] or "")]


def test_every_error_has_one_shape(client):
    for response in (
        client.get("/nowhere"),
        client.delete("/queries"),
        client.post("/cypher", json={"nope": 1}),
        client.post("/cypher", content=b"not json", headers={"content-type": "application/json"}),
    ):
        assert response.status_code >= 400
        assert set(response.json()) == {"error"}
        assert set(response.json()["error"]) == {"code", "message", "detail"}


def test_admin_loads_are_off_by_default_and_need_the_key(store, monkeypatch):
    store.write(study_records())
    with make_client(store, monkeypatch) as c:
        assert_error(c.post("/admin/loads", json={"loader": "catalog"}), 403, "admin_disabled")
    with make_client(store, monkeypatch, admin_api_key="s3cret") as c:
        assert_error(c.post("/admin/loads", json={"loader": "catalog"}), 401, "unauthorized")
        started = c.post("/admin/loads", json={"loader": "no-such-loader"}, headers={"X-API-Key": "s3cret"})
        assert started.status_code == 202
        job_id = started.json()["id"]
        deadline = time.monotonic() + 60
        while (job := c.get(f"/admin/loads/{job_id}", headers={"X-API-Key": "s3cret"}).json())[
            "status"
        ] == "running":
            assert time.monotonic() < deadline
            time.sleep(0.2)
        # A real `uptake load` process ran and its refusal is reported.
        assert job["status"] == "failed" and job["exit_code"] != 0 and "no-such-loader" in job["output"]


def test_ladybug_reader_sees_writes_made_after_it_opened(store, monkeypatch):
    if store.backend != "ladybug":
        pytest.skip("only a Ladybug read-only handle can go stale")
    store.write(study_records())
    with make_client(store, monkeypatch) as c:
        assert c.get("/papers/2601.00001").status_code == 404
        store.write([Node("Paper", "2601.00001", {"title": "Late", "published_date": "2026-01-02"})])
        assert c.get("/papers/2601.00001").json()["node"]["title"] == "Late"


def test_uptake_cypher_refuses_writes_and_reports_timeouts(store, monkeypatch):
    from typer.testing import CliRunner
    from uptake.api import cli

    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    store.write(study_records())
    runner = CliRunner()
    write = runner.invoke(
        cli.app, ["cypher", "CREATE (:Framework {slug: 'evil'})", "--store", store.location]
    )
    assert write.exit_code == 1 and "refused: CREATE writes the graph" in write.output
    assert store.read("MATCH (f:Framework {slug: 'evil'}) RETURN count(f) AS n")[0]["n"] == 0
    slow = (
        "UNWIND range(1, 200000) AS a UNWIND range(1, 200000) AS b "
        "WITH a * b AS p WHERE p % 7 = 3 RETURN sum(p)"
    )
    started = time.monotonic()
    timed_out = runner.invoke(cli.app, ["cypher", slow, "--store", store.location, "--timeout", "0.5"])
    assert timed_out.exit_code == 1 and "cancelled" in timed_out.output
    assert time.monotonic() - started < 20
