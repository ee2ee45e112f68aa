"""docker-compose.yml cannot run here (no Docker engine); check it says what the app reads."""

from __future__ import annotations

from pathlib import Path

import yaml
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.store import NEO4J_SCHEMES

REPO = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((REPO / "docker-compose.yml").read_text())


def test_neo4j_service_is_526_community_with_healthcheck_and_volume():
    neo4j = COMPOSE["services"]["neo4j"]
    assert neo4j["image"] == "neo4j:5.26-community"
    loopback = "${UPTAKE_PUBLISH_ADDRESS:-127.0.0.1}"
    assert {f"{loopback}:7474:7474", f"{loopback}:7687:7687"} == set(neo4j["ports"])
    assert neo4j["environment"]["NEO4J_dbms_security_allow__csv__import__from__file__urls"] == "false"
    assert neo4j["environment"]["NEO4J_dbms_security_procedures_allowlist"] == "db.*"
    assert neo4j["healthcheck"]["test"] and neo4j["healthcheck"]["retries"] > 0
    volume = neo4j["volumes"][0].split(":")
    assert volume[1] == "/data" and volume[0] in COMPOSE["volumes"]
    assert neo4j["environment"]["NEO4J_AUTH"].startswith("neo4j/${NEO4J_PASSWORD")


def test_api_service_points_at_the_neo4j_service_with_the_variables_the_app_reads():
    api = COMPOSE["services"]["api"]
    assert api["depends_on"]["neo4j"]["condition"] == "service_healthy"
    env = api["environment"]
    store = env["UPTAKE_STORE"]
    assert store.startswith(NEO4J_SCHEMES) and store.split("//")[1].split(":")[0] == "neo4j"
    assert store.rsplit(":", 1)[1] == "7687"
    # open_store reads exactly these; the user in NEO4J_AUTH must match NEO4J_USER.
    assert env["NEO4J_USER"] == COMPOSE["services"]["neo4j"]["environment"]["NEO4J_AUTH"].split("/")[0]
    assert env["NEO4J_PASSWORD"].startswith("${NEO4J_PASSWORD")


def test_api_service_runs_commands_the_cli_has():
    command = " ".join(COMPOSE["services"]["api"]["command"])
    address, port, _ = COMPOSE["services"]["api"]["ports"][0].rsplit(":", 2)
    assert address == "${UPTAKE_PUBLISH_ADDRESS:-127.0.0.1}"  # loopback unless the user opts in
    assert f"--port {port}" in command
    runner = CliRunner()
    for sub in ("build", "serve"):
        assert f"uptake {sub}" in command
        assert runner.invoke(app, [sub, "--help"]).exit_code == 0


def test_dockerfile_installs_the_package_and_serves():
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "pip install" in dockerfile and '"uptake", "serve"' in dockerfile


def test_every_published_port_binds_to_loopback_unless_the_user_opts_in():
    for service in COMPOSE["services"].values():
        for mapping in service.get("ports", []):
            assert mapping.startswith("${UPTAKE_PUBLISH_ADDRESS:-127.0.0.1}:"), mapping
