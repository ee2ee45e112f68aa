"""Request bodies over the cap are refused with 413 before any route parses them."""

from __future__ import annotations

from fastapi.testclient import TestClient
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.store import open_store


def client_over_fresh_store(tmp_path, monkeypatch, cap: int) -> TestClient:
    monkeypatch.setenv("UPTAKE_MAX_BODY_BYTES", str(cap))
    target = str(tmp_path / "g.lbug")
    with open_store(target) as s:
        s.init()
    return TestClient(create_app(target, ApiSettings(refresh_interval=0, connect_attempts=1)))


def test_a_body_over_the_cap_is_413_naming_the_limit(tmp_path, monkeypatch):
    with client_over_fresh_store(tmp_path, monkeypatch, 2_000) as client:
        big = {"statement": "RETURN $x AS x", "params": {"x": "a" * 5_000}}
        response = client.post("/cypher", json=big)
        assert response.status_code == 413
        error = response.json()["error"]
        assert error["code"] == "body_too_large" and "limit of 2000 bytes" in error["message"]
        assert client.get("/health").status_code == 200


def test_a_chunked_body_over_the_cap_is_413_and_one_under_it_is_served(tmp_path, monkeypatch):
    def chunks(total: int):
        body = ('{"statement": "RETURN $x AS x", "params": {"x": "' + "a" * total + '"}}').encode()
        for start in range(0, len(body), 500):
            yield body[start : start + 500]

    headers = {"content-type": "application/json"}
    with client_over_fresh_store(tmp_path, monkeypatch, 2_000) as client:
        refused = client.post("/cypher", content=chunks(5_000), headers=headers)
        assert refused.status_code == 413 and refused.json()["error"]["code"] == "body_too_large"
        served = client.post("/cypher", content=chunks(100), headers=headers)
        assert served.status_code == 200 and served.json()["data"] == [{"x": "a" * 100}]
