"""`uptake serve --workers N`: several server processes over one store, one view of admin jobs."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from study_fixture import study_records
from uptake.graph.store import open_store

KEY = "workers-test-key"
UPTAKE = str(Path(sys.executable).with_name("uptake"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port: int, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"X-API-Key": KEY, "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def wait_for_health(port: int, server: subprocess.Popen) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read()
        try:
            if call(port, "/health")[0] == 200:
                return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the server did not answer within 120 s")


def test_every_worker_answers_for_a_job_any_of_them_started(tmp_path):
    target = str(tmp_path / "g.lbug")
    with open_store(target) as store:
        store.init()
        store.write(study_records())
    port = free_port()
    env = {**os.environ, "UPTAKE_ADMIN_API_KEY": KEY}
    server = subprocess.Popen(
        [UPTAKE, "serve", "--store", target, "--port", str(port), "--workers", "2", "--log-level", "warning"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_health(port, server)
        status, job = call(port, "/admin/loads", {"loader": "no-such-loader"})
        assert status == 202
        answers = [call(port, f"/admin/loads/{job['id']}") for _ in range(40)]  # a new connection each
        assert {status for status, _ in answers} == {200}, answers
        assert all(body["id"] == job["id"] for _, body in answers)
        status, rows = call(port, "/cypher", {"statement": "MATCH (f:Framework) RETURN count(f) AS n"})
        assert status == 200 and rows["data"] == [{"n": 3}]
    finally:
        server.terminate()
        server.wait(timeout=60)
