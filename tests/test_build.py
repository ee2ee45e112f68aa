"""`uptake build` gives the same graph whether it runs once or twice, on both stores.

The build reads back what earlier steps wrote (model reports read the papers' abstracts), so
its steps must run in dependency order: a build that depended on its own earlier runs would
write more the second time.
"""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from git_history import crafted_history
from uptake.graph.schema import NODE_TYPES, REL_TYPES
from uptake.loaders.cache import clone_path
from uptake.loaders.catalog import read_catalog
from uptake.sync.build import run_build
from uptake.sync.git import sync_git

PAPERS = [
    {
        "id": "2506.13585",
        "title": "MiniMax-M1: Scaling Test-Time Compute Efficiently with Lightning Attention",
        "abstract": "We train the model with CISPO, our clipped importance-sampling objective, and compare "
        "it with GSPO. We also used GSPO for an ablation.",
        "categories": "cs.CL cs.LG",
        "versions": [{"version": "v1", "created": "Mon, 16 Jun 2025 12:00:00 GMT"}],
        "update_date": "2025-06-17",
    },
    {
        "id": "2501.12948",
        "title": "DeepSeek-R1: Incentivizing Reasoning Capability in LLMs via Reinforcement Learning",
        "abstract": "Our reinforcement learning stage uses GRPO, and we used PPO as a baseline.",
        "categories": "cs.CL",
        "versions": [{"version": "v1", "created": "Wed, 22 Jan 2025 12:00:00 GMT"}],
        "update_date": "2025-01-23",
    },
]


@pytest.fixture
def local_sources(tmp_path, monkeypatch):
    """A papers snapshot and a clone of one catalog framework, where the build looks for them."""
    snapshot = tmp_path / "papers.jsonl"
    snapshot.write_text("".join(json.dumps(p) + "\n" for p in PAPERS))
    monkeypatch.setenv("UPTAKE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("UPTAKE_ARXIV_SNAPSHOT", str(snapshot))
    monkeypatch.delenv("UPTAKE_ARXIV_ATOM", raising=False)
    repo, _ = crafted_history(clone_path(read_catalog().frameworks["trl"].repo))
    repo.commit("Ownership", {".github/CODEOWNERS": "* @maintainers\n/fw/ @trainers\n"})
    return repo


def build(store, repo) -> list[str]:
    """What `uptake build` runs, then an incremental mine of the framework's clone."""
    reports = [str(r) for r in run_build(store)]
    methods = list(read_catalog().methods.values())
    reports.append(str(sync_git(store, "trl", repo.path, methods, workers=1)))
    return reports


def graph_digest(store) -> str:
    """Every node and relationship with all its properties, in a stable order."""
    rows = []
    for label in NODE_TYPES:
        for row in store.read(f"MATCH (n:{label}) RETURN n"):
            rows.append(json.dumps(row["n"], sort_keys=True, default=str))
    for rel in REL_TYPES.values():
        for src, dst in rel.endpoints:
            src_key, dst_key = NODE_TYPES[src].key, NODE_TYPES[dst].key
            for row in store.read(
                f"MATCH (a:{src})-[r:{rel.type}]->(b:{dst}) RETURN a.{src_key} AS a, r, b.{dst_key} AS b"
            ):
                rows.append(json.dumps([src, row["a"], row["r"], dst, row["b"]], sort_keys=True, default=str))
    return hashlib.sha256("\n".join(sorted(rows)).encode()).hexdigest()


def _abstract_states(store) -> set[tuple[str, str]]:
    rows = store.read(
        "MATCH (r:ModelReport)-[s:STATES_USE_OF]->(m:Method) WHERE s.source_kind = 'abstract' "
        "RETURN r.arxiv_id AS report, m.slug AS method"
    )
    return {(r["report"], r["method"]) for r in rows}


def test_one_build_equals_two(store, local_sources):
    first = build(store, local_sources)
    counts, digest = store.counts(), graph_digest(store)
    # Reports read the abstracts the papers step wrote in this same build.
    assert {("2506.13585", "gspo"), ("2501.12948", "ppo")} <= _abstract_states(store)
    assert counts["Commit"] > 0 and counts["ContributionRule"] > 0 and counts["Paper"] > 0
    assert any(line.startswith("papers: ") and "snapshot" in line for line in first)

    second = build(store, local_sources)
    assert store.counts() == counts
    assert graph_digest(store) == digest
    created = re.findall(r"(\d+) (?:nodes|relationships) created", " ".join(second))
    assert created and set(created) == {"0"}, second  # the second build only found what it had
    assert "up to date" in second[-1]
