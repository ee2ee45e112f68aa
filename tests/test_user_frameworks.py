"""Frameworks a user adds without code: checked on the way in, kept in a file beside the store,
mined like shipped ones, and seen by every stored query, the HTTP API, the explorer and the report."""

from __future__ import annotations

import json
import subprocess

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from git_history import Repo
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.api.views.report import StudyWindow, build_report
from uptake.graph.store import open_store
from uptake.loaders.cache import clone_path
from uptake.loaders.catalog import read_catalog
from uptake.loaders.user_frameworks import FrameworkArgumentError, plan_addition, plan_removal
from uptake.queries.run import run_query
from uptake.sync.frameworks import user_frameworks_path

runner = CliRunner()
SLUG = "acme-rlkit"


def uptake(*args: str):
    return runner.invoke(app, list(args))


def one_line_error(result) -> str:
    assert result.exit_code == 1, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output
    assert "Traceback" not in result.output
    return lines[0]


def acme_history(path) -> tuple[Repo, dict[str, str]]:
    """A framework nobody shipped: a start, then a commit implementing GRPO from the catalog."""
    r = Repo(path)
    shas = {"root": r.commit("Initial commit", {"README.md": "# rlkit\n", "rlkit/__init__.py": ""})}
    shas["grpo"] = r.commit(
        "Add a GRPO trainer (#4)",
        {"rlkit/grpo_trainer.py": "class GRPOTrainer:\n    beta: float = 0.0\n"},
    )
    r.git("tag", "v0.1")
    return r, shas


@pytest.fixture
def home(tmp_path, monkeypatch):
    """Nothing of this machine's user leaks in or out: cache and config live in the test folder."""
    monkeypatch.setenv("UPTAKE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("UPTAKE_FRAMEWORKS", raising=False)
    monkeypatch.delenv("UPTAKE_STORE", raising=False)
    return tmp_path


# --- deciding an addition (pure) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("repo", "options", "field", "words"),
    [
        ("acme", {}, "OWNER/REPO", "not a GitHub repository as owner/name"),
        ("acme/rl/kit", {}, "OWNER/REPO", "not a GitHub repository"),
        ("https://gitlab.com/acme/rlkit", {}, "OWNER/REPO", "not a GitHub repository"),
        ("huggingface/TRL", {}, "OWNER/REPO", "shipped with Uptake as 'trl'"),
        ("acme/rlkit", {"slug": "verl"}, "--slug", "slug of volcengine/verl (shipped"),
        ("acme/rlkit", {"slug": "Acme_Kit"}, "--slug", "not a slug"),
        ("acme/rl", {}, "--slug", "'rl' already names 'nemo-rl'"),  # NVIDIA-NeMo/RL's repository
        ("acme/rlkit", {"name": "OpenRLHF"}, "--name", "already names 'openrlhf'"),
        ("acme/rlkit", {"name": " padded"}, "--name", "without surrounding spaces"),
    ],
)
def test_a_bad_addition_is_refused_naming_the_argument(repo, options, field, words):
    with pytest.raises(FrameworkArgumentError) as err:
        plan_addition(read_catalog(), repo, **options)
    assert err.value.field == field and words in str(err.value), str(err.value)


def test_slug_and_name_default_to_the_repository_and_a_github_url_is_read(tmp_path):
    addition = plan_addition(read_catalog(), "https://github.com/acme/Trinity_Kit.git")
    assert (addition.entry.slug, addition.entry.name, addition.entry.repo) == (
        "trinity-kit",
        "Trinity_Kit",
        "acme/Trinity_Kit",
    )
    assert addition.change == "added" and addition.entry.source == "user"


def test_shipped_frameworks_cannot_be_removed():
    with pytest.raises(FrameworkArgumentError, match="'trl' is shipped with Uptake"):
        plan_removal(read_catalog(), "huggingface/trl")
    with pytest.raises(FrameworkArgumentError, match="no framework 'nope'; added by you: none"):
        plan_removal(read_catalog(), "nope")


# --- where the user's catalog lives ----------------------------------------------------------


def test_the_catalog_file_sits_beside_a_ladybug_store_and_per_server_for_neo4j(home, monkeypatch):
    assert user_frameworks_path(str(home / "g.lbug")) == home / "g.frameworks.jsonl"
    assert user_frameworks_path(str(home / "graph")) == home / "graph.frameworks.jsonl"
    neo4j = user_frameworks_path("bolt://reader:secret@db.example.org:7999")
    assert neo4j == home / "config" / "uptake" / "neo4j" / "db.example.org-7999-default.frameworks.jsonl"
    assert "secret" not in str(neo4j)
    monkeypatch.setenv("UPTAKE_FRAMEWORKS", str(home / "team.jsonl"))
    assert user_frameworks_path("bolt://localhost") == home / "team.jsonl"


def test_a_hand_edited_catalog_file_is_checked_like_the_shipped_one(home):
    target = str(home / "g.lbug")
    path = user_frameworks_path(target)
    path.write_text(
        json.dumps({"slug": SLUG, "name": "Kit", "repo": "acme/rlkit"})
        + "\n"
        + json.dumps({"slug": "other", "name": "Other", "repo": "acme/other", "licence": "MIT"})
        + "\n"
    )
    line = one_line_error(uptake("framework", "list", "--store", target))
    assert f"{path}:2: field 'licence': unknown field" in line
    path.write_text(json.dumps({"slug": "trl", "name": "Mine", "repo": "acme/trl-fork"}) + "\n")
    line = one_line_error(uptake("load", "git", "--framework", "trl", "--store", target))
    assert f"{path}:1: field 'slug': 'trl' is the slug of huggingface/trl" in line


# --- end to end, on both stores --------------------------------------------------------------


def _client(target: str, monkeypatch) -> TestClient:
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    return TestClient(create_app(target, ApiSettings(refresh_interval=0, connect_attempts=1)))


def test_an_added_framework_is_mined_and_seen_everywhere(home, store_target, monkeypatch):
    repo, shas = acme_history(home / "rlkit")
    added = uptake(
        "framework", "add", "acme/rlkit", "--slug", SLUG, "--name", "Acme RL Kit", "--store", store_target
    )
    assert added.exit_code == 0, added.output
    assert f"framework {SLUG} added" in added.output
    again = uptake("framework", "add", "acme/rlkit", "--slug", SLUG, "--store", store_target)
    assert again.exit_code == 0 and f"framework {SLUG} unchanged: " in again.output
    assert "nothing written" in again.output or "0 nodes created" in again.output  # Neo4j counts merges
    rows = [json.loads(line) for line in user_frameworks_path(store_target).read_text().splitlines()]
    assert rows == [{"slug": SLUG, "name": "Acme RL Kit", "repo": "acme/rlkit"}]

    mined = uptake("load", "git", "--framework", SLUG, "--repo", str(repo.path), "--store", store_target)
    assert mined.exit_code == 0, mined.output

    with open_store(store_target) as s:
        methods = run_query(s, "framework-methods", {"framework": SLUG}).rows
        assert [(r["method"], r["commit"], r["release"]) for r in methods] == [("grpo", shas["grpo"], "v0.1")]
        papers = run_query(s, "paper-implementations", {"arxiv_id": "2402.03300"}).rows
        assert [(r["framework"], r["commit"]) for r in papers] == [(SLUG, shas["grpo"])]
        listed = {r["slug"]: r["name"] for r in run_query(s, "resource-frameworks", {}).rows}
        assert listed[SLUG] == "Acme RL Kit" and "trl" in listed
        report = build_report(s, StudyWindow(frameworks=(SLUG,), widely=1))
        assert report["window"]["frameworks"] == [SLUG]
        assert [m["method"] for m in report["widely_included_methods"]["list"]] == ["grpo"]

    with _client(store_target, monkeypatch) as client:
        page = client.get("/frameworks", params={"limit": 100}).json()
        assert SLUG in [f["slug"] for f in page["data"]]
        one = client.get(f"/frameworks/{SLUG}").json()
        assert "acme/rlkit" in json.dumps(one)
        found = client.get("/explore/search", params={"q": "acme rl"}).json()
        assert SLUG in json.dumps(found)
        lineage = client.get("/explore/lineage/grpo").json()
        assert SLUG in json.dumps(lineage)

    listed = uptake("framework", "list", "--store", store_target, "--format", "json")
    entries = {f["slug"]: f["source"] for f in json.loads(listed.stdout)}
    assert entries[SLUG] == "user" and entries["trl"] == "shipped"

    removed = uptake("framework", "remove", SLUG, "--store", store_target)
    assert removed.exit_code == 0, removed.output
    assert user_frameworks_path(store_target).read_text() == ""
    with open_store(store_target) as s:
        assert s.read("MATCH (f:Framework {slug: $s}) RETURN f.slug AS s", {"s": SLUG}) == []
        assert s.read("MATCH (c:Commit {sha: $sha}) RETURN c.sha AS s", {"sha": shas["grpo"]}) == []
        assert run_query(s, "paper-implementations", {"arxiv_id": "2402.03300"}).rows == []
        assert s.read("MATCH (f:Framework {slug: 'trl'}) RETURN f.slug AS s") == [{"s": "trl"}]
    line = one_line_error(uptake("load", "git", "--framework", SLUG, "--store", store_target))
    assert f"unknown framework '{SLUG}'" in line


def test_update_and_build_include_the_added_framework(home):
    target = str(home / "g.lbug")
    repo, shas = acme_history(home / "rlkit")
    assert uptake("framework", "add", "acme/rlkit", "--slug", SLUG, "--store", target).exit_code == 0
    # `uptake update` fetches into the cache; a mirror of the local history stands in for GitHub.
    mirror = clone_path("acme/rlkit")
    subprocess.run(["git", "clone", "-q", "--mirror", str(repo.path), str(mirror)], check=True)
    shas["later"] = repo.commit("Support Dr. GRPO", {"rlkit/adv.py": 'MODES = {"dr_grpo": 1}\n'})

    updated = uptake("update", "--framework", SLUG, "--store", target)
    assert updated.exit_code == 0, updated.output
    with open_store(target) as s:
        methods = {
            r["method"]: r["commit"] for r in run_query(s, "framework-methods", {"framework": SLUG}).rows
        }
    assert methods == {"grpo": shas["grpo"], "dr-grpo": shas["later"]}  # fetched, then mined

    rebuilt = str(home / "rebuilt.lbug")
    user_frameworks_path(rebuilt).write_text(user_frameworks_path(target).read_text())
    built = uptake("build", "--store", rebuilt)
    assert built.exit_code == 0, built.output
    with open_store(rebuilt) as s:
        assert s.read("MATCH (f:Framework {slug: $s}) RETURN f.repo AS r", {"s": SLUG}) == [
            {"r": "acme/rlkit"}
        ]
    rules = next(line for line in built.output.splitlines() if line.startswith("contribution rules"))
    assert SLUG in rules.split(" from ")[1]  # its clone in the cache was read like a shipped one's


def test_a_refused_addition_leaves_file_and_store_as_they_were(home):
    target = str(home / "g.lbug")
    assert uptake("framework", "add", "acme/rlkit", "--slug", SLUG, "--store", target).exit_code == 0
    before = user_frameworks_path(target).read_text()
    with open_store(target) as s:
        counts = s.counts()
    for args, words in (
        (["acme/rlkit", "--slug", "kit-two"], f"already added as '{SLUG}'"),
        (["acme/other", "--slug", SLUG], f"'{SLUG}' is the slug of acme/rlkit (already added)"),
        (["acme"], "not a GitHub repository"),
    ):
        line = one_line_error(uptake("framework", "add", *args, "--store", target))
        assert words in line, line
    assert user_frameworks_path(target).read_text() == before
    assert not list(home.glob("*.tmp"))
    with open_store(target) as s:
        assert s.counts() == counts
    line = one_line_error(uptake("framework", "remove", "trl", "--store", target))
    assert "'trl' is shipped with Uptake and cannot be removed" in line
