"""The HTTP API's guards: trusted hosts, `Allow` on 405, strict dates, admin loads confined to its store.

Backend-independent guards, so they run on a real Ladybug store only.
"""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from study_fixture import study_records
from uptake.api.http.app import create_app
from uptake.api.http.hosts import host_name
from uptake.api.http.settings import ApiSettings
from uptake.graph.store import open_store

KEY = {"X-API-Key": "s3cret"}


@pytest.fixture
def store_path(tmp_path) -> str:
    path = str(tmp_path / "graph.lbug")
    with open_store(path) as store:
        store.init()
        store.write(study_records())
    return path


def make_client(store_path: str, **settings) -> TestClient:
    return TestClient(create_app(store_path, ApiSettings(refresh_interval=0, connect_attempts=1, **settings)))


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_host_names_are_read_without_port_and_case():
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("[::1]") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("::1") == "::1"


def test_requests_for_another_host_are_refused_before_any_route(store_path):
    with make_client(store_path) as client:
        for host in ("localhost:8000", "127.0.0.1", "[::1]:8000", "testserver"):
            assert client.get("/health", headers={"Host": host}).status_code == 200, host
        for path in ("/health", "/", "/queries", "/browser/guide"):
            error = error_of(client.get(path, headers={"Host": "rebound.example:8000"}), 400)
            assert error["code"] == "untrusted_host" and "rebound.example" in error["message"]
        refused = client.post("/cypher", json={"statement": "RETURN 1 AS x"}, headers={"Host": "evil"})
        assert error_of(refused, 400)["code"] == "untrusted_host"


def test_trusted_hosts_are_configurable(store_path, monkeypatch):
    monkeypatch.setenv("UPTAKE_TRUSTED_HOSTS", '["uptake.internal"]')
    with make_client(store_path) as client:
        assert client.get("/health", headers={"Host": "uptake.internal:8000"}).status_code == 200
        assert error_of(client.get("/health", headers={"Host": "localhost"}), 400)["code"] == "untrusted_host"
    with make_client(store_path, trusted_hosts=["*"]) as client:
        assert client.get("/health", headers={"Host": "anything.example"}).status_code == 200


def test_method_not_allowed_says_which_methods_are(store_path):
    with make_client(store_path) as client:
        for method, path, allowed in (
            ("DELETE", "/queries", {"GET"}),
            ("GET", "/cypher", {"POST"}),
            ("PUT", "/admin/loads", {"POST"}),
            ("DELETE", "/queries/method-lineage/rows", {"GET", "POST"}),
        ):
            response = client.request(method, path)
            assert error_of(response, 405)["code"] == "method_not_allowed"
            assert {m.strip() for m in response.headers["allow"].split(",")} == allowed, path


@pytest.mark.parametrize("value", ["0", "1700000000", "20240101", "2024-13-01", "yesterday", "2024-1-1"])
def test_date_parameters_take_only_iso_dates(store_path, value):
    with make_client(store_path) as client:
        for path, name in (("/papers", "until"), ("/queries/report-general-papers/rows", "since")):
            error = error_of(client.get(path, params={name: value}), 422)
            assert error["code"] == "invalid_parameter" and repr(name) in error["message"], path
        posted = client.post("/queries/report-general-papers/rows", json={"params": {"since": value}})
        assert "'since'" in error_of(posted, 422)["message"]


def test_iso_dates_still_filter(store_path):
    with make_client(store_path) as client:
        everything = client.get("/papers", params={"limit": 1000}).json()["count"]
        assert everything > 0
        assert client.get("/papers", params={"until": "1990-01-01"}).json()["count"] == 0
        assert (
            client.get("/papers", params={"since": "1990-01-01", "until": "2100-12-31"}).json()["count"]
            == everything
        )


@pytest.mark.parametrize(
    "args", [["--store", "OTHER"], ["--store=OTHER"], ["-s", "OTHER"], ["-sOTHER"], ["--st", "OTHER"]]
)
def test_admin_loads_cannot_point_at_another_store(store_path, tmp_path, args):
    other = tmp_path / "other.lbug"
    args = [a.replace("OTHER", str(other)) for a in args]
    with make_client(store_path, admin_api_key="s3cret") as client:
        response = client.post("/admin/loads", json={"loader": "catalog", "args": args}, headers=KEY)
        error = error_of(response, 422)
        assert error["code"] == "invalid_parameter" and "API's store" in error["message"]
    assert not other.exists()


def test_admin_loads_write_into_the_apis_store(store_path):
    with make_client(store_path, admin_api_key="s3cret") as client:
        before = client.get("/methods", params={"limit": 1000}).json()["count"]
        started = client.post("/admin/loads", json={"loader": "catalog", "args": []}, headers=KEY)
        assert started.status_code == 202, started.text
        job_id = started.json()["id"]
        while (job := client.get(f"/admin/loads/{job_id}", headers=KEY).json())["status"] == "running":
            time.sleep(0.2)
        assert job["status"] == "succeeded", job["output"]
        assert client.get("/methods", params={"limit": 1000}).json()["count"] > before
