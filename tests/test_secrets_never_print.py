"""Failing commands run as real processes with planted secrets; no secret may appear in any output."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from uptake.graph.redaction import redact_secrets, redact_uri

UPTAKE = str(Path(sys.executable).with_name("uptake"))
TOKEN = "ghp_PLANTEDtoken0123456789abcdefABCDEF"
PASSWORD = "PLANTED-pw-7f3a9"
QUERY_SECRET = "PLANTED-query-51c2"


def run(args: list[str], **env: str) -> str:
    done = subprocess.run(
        [UPTAKE, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COLUMNS": "200", **env},
        timeout=180,
    )
    assert done.returncode != 0, args
    return done.stdout + done.stderr


@pytest.mark.parametrize(
    "args, env",
    [
        (["load", "github", "-F", "verl", "--api-url", "http://127.0.0.1:1"], {"GITHUB_TOKEN": TOKEN}),
        (["db", "info", "--store", f"bolt://neo4j:{PASSWORD}@127.0.0.1:1/db?x=1"], {}),
        (["db", "info", "--store", f"bolt://127.0.0.1:1/db?password={QUERY_SECRET}"], {}),
        (["db", "info", "--store", "bolt://127.0.0.1:1"], {"NEO4J_PASSWORD": PASSWORD}),
        (["cypher", "RETURN 1", "--store", f"neo4j://neo4j:{PASSWORD}@127.0.0.1:1"], {}),
        (["query", "method-lineage", "--store", f"bolt://u:{PASSWORD}@127.0.0.1:1?token={QUERY_SECRET}"], {}),
    ],
)
def test_failing_commands_print_no_planted_secret(args, env):
    output = run(args, **env)
    for secret in (TOKEN, PASSWORD, QUERY_SECRET):
        assert secret not in output, output
    assert "error" in output.lower()


def test_redaction_masks_uri_passwords_query_secrets_and_tokens():
    assert (
        redact_uri(f"bolt://neo4j:{PASSWORD}@host:7687/db?x={QUERY_SECRET}")
        == "bolt://neo4j:***@host:7687/db"
    )
    text = redact_secrets(f"failed at https://h/x?password={QUERY_SECRET}&a=1 with {TOKEN}")
    assert QUERY_SECRET not in text and TOKEN not in text and "a=1" in text
    assert redact_secrets("bolt://127.0.0.1:7687 is down") == "bolt://127.0.0.1:7687 is down"
