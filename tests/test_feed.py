"""What is new through the API: `/whatsnew` as JSON and `/feed.atom` as a feed a reader can
subscribe to, both from the stored query `whats-new` on the study fixture."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from study_fixture import study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def client(store, monkeypatch):
    store.write_all(study_records())
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    with TestClient(create_app(store.location, ApiSettings(refresh_interval=0, connect_attempts=1))) as c:
        yield c


def test_whatsnew_lists_items_since_a_day_newest_first(client):
    body = client.get("/whatsnew", params={"since": "2024-01-01"}).json()
    dates = [str(i["date"]) for i in body["items"]]
    assert dates == sorted(dates, reverse=True) and body["count"] == len(body["items"])
    kinds = {i["kind"] for i in body["items"]}
    assert {"first-implementation", "failure"} <= kinds
    failure = next(i for i in body["items"] if i["kind"] == "failure")
    assert failure["subject"] == "trl#12/nan-loss" and failure["headline"].startswith(
        "nan-loss failure in trl"
    )
    later = client.get("/whatsnew", params={"since": "2025-01-01"}).json()
    assert all(str(i["date"]) >= "2025-01-01" for i in later["items"]) and later["count"] < body["count"]
    bad = client.get("/whatsnew", params={"since": "last week"})
    assert bad.status_code == 422 and "since" in bad.text


def test_feed_is_atom_with_stable_ids_and_links_to_the_evidence(client):
    response = client.get("/feed.atom", params={"since": "2024-01-01"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed" and feed.find(f"{ATOM}title").text == "Uptake: what is new"
    entries = feed.findall(f"{ATOM}entry")
    json_items = client.get("/whatsnew", params={"since": "2024-01-01"}).json()["items"]
    assert [e.find(f"{ATOM}title").text for e in entries] == [i["headline"] for i in json_items]
    ids = [e.find(f"{ATOM}id").text for e in entries]
    assert len(set(ids)) == len(ids)
    again = ET.fromstring(client.get("/feed.atom", params={"since": "2024-01-01"}).content)
    assert [e.find(f"{ATOM}id").text for e in again.findall(f"{ATOM}entry")] == ids
    grpo_in_trl = next(
        e for e in entries if e.find(f"{ATOM}title").text.startswith("GRPO first implemented in trl")
    )
    link = grpo_in_trl.find(f"{ATOM}link").get("href")
    assert link == "https://github.com/example/trl/commit/c-trl-grpo"
    assert all(e.find(f"{ATOM}updated").text.endswith("Z") for e in entries)
    assert feed.find(f"{ATOM}updated").text == entries[0].find(f"{ATOM}updated").text
