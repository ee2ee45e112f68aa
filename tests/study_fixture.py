"""A small graph shaped like the study's: every label and relationship type, with known answers.

Shared by the API, report and both-backends query tests. The figures the
report must produce from it are computed in the tests themselves, from these
records, not from the report's code.
"""

from __future__ import annotations

import datetime as dt

from uptake.graph.records import Edge, Node

FRAMEWORKS = {"trl": "huggingface", "verl": "bytedance", "openrlhf": "openrlhf-community"}

# arxiv_id, published, general?, params_b, changes_loss, loss_changes, code_url, affiliations, method
PAPERS = [
    ("2402.03300", "2024-02-05", True, 7.0, False, [], None, ["deepseek"], "grpo"),
    ("2402.14740", "2024-02-22", True, None, False, [], None, ["cohere"], "rloo"),
    ("2404.00001", "2024-04-10", True, 70.0, True, ["clip"], "https://github.com/a/a", [], "method-a"),
    ("2405.00002", "2024-05-20", True, 3.0, False, [], None, [], "method-b"),
    ("2406.00007", "2024-06-15", True, 1.5, True, ["mask"], "https://github.com/f/f", [], "method-f"),
    ("2410.00003", "2024-10-01", True, None, None, [], None, [], "method-c"),
    (
        "2411.00004",
        "2024-11-11",
        True,
        8.0,
        True,
        ["weight"],
        "https://github.com/d/d",
        ["huggingface"],
        "method-d",
    ),
    ("2501.00005", "2025-01-15", True, 14.0, False, [], "https://github.com/e/e", [], "method-e"),
    ("2502.00006", "2025-02-01", False, 7.0, False, [], None, [], None),
    (
        "2503.14476",
        "2025-03-18",
        True,
        32.0,
        True,
        ["clip", "mask"],
        "https://github.com/b/dapo",
        ["bytedance"],
        "dapo",
    ),
    (
        "2503.20783",
        "2025-03-26",
        True,
        7.0,
        True,
        ["coefficient"],
        "https://github.com/s/drgrpo",
        ["sea-ai"],
        "dr-grpo",
    ),
    ("2507.18071", "2025-07-24", True, 30.0, True, ["weight"], None, ["alibaba"], "gspo"),
    ("1707.06347", "2017-07-20", False, None, None, [], None, [], "ppo"),
]

# sha, framework, commit_date, implemented method (or None), subject
COMMITS = [
    ("c-trl-grpo", "trl", "2024-03-20", "grpo", "Add GRPO trainer"),
    ("c-trl-grpo2", "trl", "2024-05-02", "grpo", "GRPO: fix advantage normalisation"),
    ("c-verl-grpo", "verl", "2024-12-01", "grpo", "support grpo"),
    ("c-verl-dapo", "verl", "2025-03-25", "dapo", "recipe: DAPO"),
    ("c-trl-dapo", "trl", "2025-05-01", "dapo", "loss_type dapo"),
    ("c-trl-drgrpo", "trl", "2025-04-10", "dr-grpo", "Dr. GRPO loss"),
    ("c-verl-gspo", "verl", "2025-08-05", "gspo", "GSPO sequence-level ratio"),
    ("c-trl-rloo", "trl", "2024-09-15", "rloo", "RLOO trainer"),
    ("c-orl-rloo", "openrlhf", "2024-06-01", "rloo", "add rloo advantage"),
    ("c-orl-f", "openrlhf", "2025-03-01", "method-f", "method F masking"),
    ("c-trl-ppo", "trl", "2023-01-10", "ppo", "PPO trainer"),
    ("c-verl-ppo", "verl", "2024-01-10", "ppo", "ppo"),
    ("c-orl-ppo", "openrlhf", "2023-08-01", "ppo", "ppo"),
    ("c-trl-fix", "trl", "2024-06-01", None, "Fix NaN loss in GRPO (#12)"),
]

# id, label, framework, number, reply date, cites paper, names method, created
THREADS = [
    ("trl#10", "Issue", "trl", 10, None, "2404.00001", None, "2024-05-01"),
    ("trl#11", "Issue", "trl", 11, "2025-03-22", None, "dapo", "2025-03-20"),
    ("verl#20", "PullRequest", "verl", 20, "2024-10-20", None, "method-c", "2024-10-15"),
    ("verl#21", "Issue", "verl", 21, None, "2502.00006", None, "2025-02-10"),
    ("openrlhf#30", "Issue", "openrlhf", 30, None, "2402.14740", None, "2024-03-01"),
    ("trl#12", "Issue", "trl", 12, "2024-05-30", None, None, "2024-05-29"),
    ("trl#13", "PullRequest", "trl", 13, "2024-05-31", None, None, "2024-05-31"),
]

MODEL_REPORTS = {
    "2505.09388": ("Qwen3 Technical Report", "qwen", "alibaba", ["grpo", "gspo"]),
    "2501.12948": ("DeepSeek-R1", "deepseek", "deepseek", ["grpo"]),
    "2407.21783": ("The Llama 3 Herd of Models", "llama", "meta", ["ppo"]),
}

EXTENDS = [
    ("dapo", "grpo", "clip"),
    ("dr-grpo", "grpo", "coefficient"),
    ("gspo", "grpo", "weight"),
    ("grpo", "ppo", "advantage"),
]
# Identifiers learned as a framework's spelling of a method: commit, method, identifier.
SPELLINGS = [
    ("c-verl-dapo", "dapo", "overlong_buffer"),
    ("c-trl-dapo", "dapo", "dapo"),
    ("c-trl-drgrpo", "dr-grpo", "scale_rewards"),
    ("c-trl-grpo", "grpo", "GRPOTrainer"),
]

EV = {"source_kind": "fixture", "location": "fixture", "rule": "fixture", "confidence": 1.0}


def study_records() -> list[Node | Edge]:
    records: list[Node | Edge] = []
    add = records.append
    for slug, org in FRAMEWORKS.items():
        add(
            Node(
                "Framework", slug, {"name": slug.upper(), "repo": f"example/{slug}", "license": "Apache-2.0"}
            )
        )
        add(Node("Organization", org, {"name": org, "kind": "company"}))
        add(Edge("MAINTAINED_BY", ("Framework", slug), ("Organization", org)))
        add(
            Node(
                "ContributionRule",
                f"{slug}/dco",
                {"framework": slug, "kind": "dco", "value": "Signed-off-by"},
            )
        )
        add(Edge("HAS_RULE", ("Framework", slug), ("ContributionRule", f"{slug}/dco")))
    for arxiv_id, date, general, params, changes, loss_changes, code, orgs, method in PAPERS:
        props = {
            "title": f"Paper {arxiv_id}",
            "published_date": date,
            "is_general_method": general,
            "max_policy_params_b": params,
            "changes_existing_loss": changes,
            "loss_changes": loss_changes,
            "code_url": code,
            "organizations": orgs,
        }
        add(Node("Paper", arxiv_id, props))
        for org in orgs:
            add(Node("Organization", org, {"name": org}))
            add(Edge("AFFILIATED_WITH", ("Paper", arxiv_id), ("Organization", org), EV))
        if method:
            add(Node("Method", method, {"name": method.upper(), "arxiv_id": arxiv_id, "origin": "catalog"}))
            add(Edge("PROPOSES", ("Paper", arxiv_id), ("Method", method), EV))
    for child, parent, change in EXTENDS:
        add(Edge("EXTENDS", ("Method", child), ("Method", parent), {"change": change}))
    for sha, framework, date, method, subject in COMMITS:
        noon = dt.datetime.fromisoformat(f"{date}T12:00:00+00:00")
        props = {
            "framework": framework,
            "commit_date": date,
            "commit_ts": int(noon.timestamp()),
            "subject": subject,
        }
        add(Node("Commit", sha, props))
        add(Edge("PART_OF", ("Commit", sha), ("Framework", framework)))
        if method:
            kind = "recipe" if subject.startswith("recipe:") else "code"
            add(Edge("IMPLEMENTS", ("Commit", sha), ("Method", method), {**EV, "implementation": kind}))
            add(Edge("SUPPORTS", ("Framework", framework), ("Method", method), EV))
    for sha, method, identifier in SPELLINGS:
        add(Edge("SPELLS", ("Commit", sha), ("Method", method), {**EV, "identifier": identifier}))
    add(Edge("MENTIONS", ("Commit", "c-trl-grpo"), ("Paper", "2402.03300"), EV))
    add(Node("Release", "trl/v0.14.0", {"framework": "trl", "tag": "v0.14.0", "release_date": "2024-04-01"}))
    add(Edge("RELEASED_IN", ("Commit", "c-trl-grpo"), ("Release", "trl/v0.14.0")))
    add(Edge("PART_OF", ("Release", "trl/v0.14.0"), ("Framework", "trl")))
    for tid, label, framework, number, reply, paper, method, created in THREADS:
        props = {
            "framework": framework,
            "number": number,
            "title": f"thread {tid}",
            "state": "open",
            "created_date": created,
            "first_maintainer_reply_date": reply,
        }
        add(Node(label, tid, props))
        add(Edge("PART_OF", (label, tid), ("Framework", framework)))
        if paper:
            add(Edge("CITES", (label, tid), ("Paper", paper), EV))
        if method:
            add(Edge("NAMES", (label, tid), ("Method", method), EV))
    add(Edge("MERGED_AS", ("PullRequest", "trl#13"), ("Commit", "c-trl-fix"), EV))
    add(Edge("FIXES", ("Commit", "c-trl-fix"), ("Issue", "trl#12"), EV))
    add(Edge("FIXES", ("PullRequest", "trl#13"), ("Issue", "trl#12"), EV))
    add(
        Node(
            "FailureReport",
            "trl#12/nan-loss",
            {"symptom": "nan-loss", "framework": "trl", "reported_date": "2024-05-29"},
        )
    )
    add(Edge("REPORTED_IN", ("FailureReport", "trl#12/nan-loss"), ("Issue", "trl#12")))
    add(Edge("AFFECTS", ("FailureReport", "trl#12/nan-loss"), ("Method", "grpo"), EV))
    add(Edge("AFFECTS", ("FailureReport", "trl#12/nan-loss"), ("Framework", "trl"), EV))
    for arxiv_id, (title, family, org, methods) in MODEL_REPORTS.items():
        add(
            Node(
                "ModelReport",
                arxiv_id,
                {"title": title, "model_family": family, "organization": org, "published_date": "2025-01-01"},
            )
        )
        add(Node("Organization", org, {"name": org}))
        add(Edge("PUBLISHED_BY", ("ModelReport", arxiv_id), ("Organization", org)))
        for method in methods:
            add(Edge("STATES_USE_OF", ("ModelReport", arxiv_id), ("Method", method), EV))
    return records
