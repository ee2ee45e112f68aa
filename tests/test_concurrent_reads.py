"""Reads side by side on a real read-only Ladybug store: a slow query holds one connection, not all.

No durations are asserted: only what finishes before what, and what each read returns.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from fastapi.testclient import TestClient
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.records import Node
from uptake.graph.store import QueryTimeout, StoreError, open_store

# Billions of method triples, each compared (the filter keeps the engine from counting the cross
# product without forming it) as they stream by in bounded memory: it runs until its timeout.
SLOW = (
    "MATCH (a:Method), (b:Method), (c:Method) WHERE a.name <> b.name OR b.name <> c.name RETURN count(*) AS n"
)
SLOW_TIMEOUT = 4.0
METHODS = 1_500


@pytest.fixture
def method_store(tmp_path) -> str:
    path = str(tmp_path / "graph.lbug")
    with open_store(path) as writable:
        writable.init()
        writable.write([Node("Method", f"m{i}", {"name": f"M{i}"}) for i in range(METHODS)])
    return path


def start_slow_read(store) -> tuple[threading.Thread, list]:
    """The slow query in a thread; its outcome (an exception or rows) lands in the list."""
    outcome: list = []
    started = threading.Event()

    def run() -> None:
        started.set()
        try:
            outcome.append(store.read(SLOW, timeout=SLOW_TIMEOUT))
        except StoreError as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    time.sleep(0.3)  # let it reach the engine; nothing below depends on how long this takes
    return thread, outcome


def test_a_slow_query_blocks_neither_health_nor_a_second_query(method_store):
    settings = ApiSettings(refresh_interval=0, connect_attempts=1)
    with TestClient(create_app(method_store, settings)) as client:
        store = client.app.state.holder.store()
        slow, outcome = start_slow_read(store)
        health = client.get("/health")
        second = client.get("/methods/m7")
        still_running = slow.is_alive()
        slow.join()
    assert health.status_code == 200 and health.json()["status"] == "ok"
    assert second.status_code == 200 and second.json()["node"]["name"] == "M7"
    assert still_running, "health and the second query had to wait for the slow one"
    assert len(outcome) == 1 and isinstance(outcome[0], QueryTimeout)


def test_closing_the_store_under_a_running_query_waits_for_it_and_reopens_after(method_store):
    store = open_store(method_store, read_only=True)
    slow, outcome = start_slow_read(store)
    store.close()  # retires the database; the running query keeps its connection
    assert store.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": METHODS}]
    slow.join()
    assert len(outcome) == 1 and isinstance(outcome[0], QueryTimeout)
    store.close()


WRITER = """
import sys
from uptake.graph.records import Node
from uptake.graph.store import open_store

path, batches, size = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open_store(path) as store:
    for b in range(batches):
        store.write([Node("Method", f"w{b}-{i}") for i in range(size)])
"""


def test_reads_running_while_another_process_writes_see_whole_batches_or_a_clear_error(tmp_path):
    """Each write is one batch of 10 methods; the pool swaps databases as the files change."""
    path = str(tmp_path / "graph.lbug")
    with open_store(path) as writable:
        writable.init()
    batches, size = 25, 10
    reader = open_store(path, read_only=True, refresh_interval=0)
    writer = subprocess.Popen([sys.executable, "-c", WRITER, path, str(batches), str(size)])
    seen: list[list[int]] = [[] for _ in range(4)]
    errors: list[str] = []
    crashes: list[BaseException] = []

    def read_until_written(mine: list[int]) -> None:
        while writer.poll() is None:
            try:
                mine.append(reader.read("MATCH (m:Method) RETURN count(m) AS n")[0]["n"])
            except StoreError as exc:
                errors.append(str(exc))
            except BaseException as exc:  # anything but the store's own error is a failure
                crashes.append(exc)
                return

    threads = [threading.Thread(target=read_until_written, args=(mine,)) for mine in seen]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert writer.wait() == 0
    final = reader.read("MATCH (m:Method) RETURN count(m) AS n")[0]["n"]
    reader.close()
    assert not crashes, crashes
    assert final == batches * size
    counts = [n for mine in seen for n in mine]
    assert counts, f"no read succeeded: {errors[:3]}"
    assert all(n % size == 0 for n in counts), "a read saw part of a batch"
    assert all(mine == sorted(mine) for mine in seen), "a read went back to an older snapshot"
    assert all(message for message in errors)
