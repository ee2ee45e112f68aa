"""Pull requests, issue fixes, failure reports and contribution rules known from git history:
found in commit messages, shipped in the data release, loaded, then completed by the GitHub loader."""

from __future__ import annotations

import json

import pytest
from fake_github import FakeGitHub, FakeRepo, make_issue, make_pull
from git_history import METHODS, Repo
from uptake.graph.store import open_store
from uptake.loaders.git import mine_repository
from uptake.loaders.link.history import HistoryCommit, history_facts, merged_pull, stated_failure
from uptake.loaders.link.methods import MethodMatcher
from uptake.loaders.release import FILES, ReleaseError, framework_history, write_release
from uptake.loaders.rules import GitTree, rule_records
from uptake.queries.run import run_query
from uptake.sync.git import sync_git
from uptake.sync.github import sync_github
from uptake.sync.release import sync_data_release

REPO = "acme/rlkit"
MATCHER = MethodMatcher(METHODS)


def commit(message: str, sha: str = "a" * 40, date: str = "2025-03-01T10:00:00+00:00") -> HistoryCommit:
    return HistoryCommit(sha, date, message)


def test_squash_and_merge_subjects_give_the_pull_request_and_its_title():
    squash = merged_pull(commit("Add GRPO trainer (#5)"))
    assert (squash.number, squash.title, squash.rule) == (5, "Add GRPO trainer", "squash-subject")
    merge = merged_pull(commit("Merge pull request #12 from bob/kl\n\nFix KL blow-up in PPO"))
    assert (merge.number, merge.title, merge.rule) == (12, "Fix KL blow-up in PPO", "merge-commit-subject")
    assert merged_pull(commit("Bump version to 0.3")) is None


def test_a_failure_needs_a_fix_and_a_symptom_in_the_subject():
    nan = stated_failure(commit("Fix NaN loss in GRPO trainer (#7)"), MATCHER)
    assert nan.symptom == "nan-loss" and nan.method == "grpo"
    assert stated_failure(commit("Fix OOM when saving checkpoints"), MATCHER).symptom == "oom"
    assert stated_failure(commit("Fix typo in README"), MATCHER) is None  # a fix, no symptom
    assert stated_failure(commit("Add option to avoid OOM on small GPUs"), MATCHER) is None  # no fix
    assert stated_failure(commit('Revert "Fix NaN loss in GRPO (#7)" (#8)'), MATCHER) is None
    # The body of a squash merge is not read for symptoms (templates, lists of other changes).
    assert stated_failure(commit("Fix logging (#9)\n\n* crash on NaN in other PR"), MATCHER) is None


def test_issue_numbers_that_are_pull_requests_are_never_issues():
    commits = [
        commit("Add KTO (#3)", "1" * 40, "2025-03-01T00:00:00+00:00"),
        commit("Fix hang in rollout (#9)\n\nFixes #6, fixes #3", "2" * 40, "2025-03-02T00:00:00+00:00"),
    ]
    facts = history_facts(commits, REPO, MATCHER)
    assert sorted(p.number for p in facts.pulls) == [3, 9]
    assert [(f.issue, f.pull, f.rule) for f in facts.fixes] == [(6, 9, "closing-keyword")]
    assert [(f.verdict.symptom, f.issue) for f in facts.failures] == [("hang", 6)]


def history(tmp_path) -> tuple[Repo, dict[str, str]]:
    r = Repo(tmp_path / "rlkit")
    s = {"root": r.commit("Initial commit", {"README.md": "# rlkit\n", "CONTRIBUTING.md": CONTRIBUTING})}
    s["grpo"] = r.commit("Add GRPO trainer (#5)", {"rlkit/grpo_trainer.py": "class GRPOTrainer:\n    pass\n"})
    s["nan"] = r.commit(
        "Fix NaN loss in GRPO trainer (#7)\n\nFixes #6",
        {"rlkit/grpo_trainer.py": "class GRPOTrainer:\n  x=1\n"},
    )
    s["oom"] = r.commit("Fix OOM when saving checkpoints (#9)", {"rlkit/save.py": "x = 1\n"})
    r.git("tag", "v0.2")
    s["plain"] = r.commit("Tidy imports (#10)", {"rlkit/save.py": "x = 2\n"})
    return r, s


CONTRIBUTING = "# Contributing\n\nPlease open an issue first before a new algorithm from a paper.\n"


@pytest.fixture
def release(tmp_path):
    r, shas = history(tmp_path)
    facts = mine_repository("rlkit", r.path, METHODS, workers=1)
    extras = {
        "rlkit": (
            framework_history(facts, REPO, MATCHER, r.path),
            list(rule_records("rlkit", GitTree(r.path))),
        )
    }
    folder = tmp_path / "release"
    counts = write_release([facts], folder, extras)
    return folder, shas, counts


def test_release_ships_fix_commits_their_pulls_and_rules(release):
    folder, shas, counts = release
    assert set(counts) == set(FILES)
    commits = {json.loads(line)["sha"] for line in (folder / "commits.jsonl").open()}
    assert {shas["grpo"], shas["nan"], shas["oom"]} <= commits  # linked, or fixing a failure
    assert shas["plain"] not in commits
    pulls = [json.loads(line) for line in (folder / "pulls.jsonl").open()]
    # Only pull requests whose merge commit is shipped: their edges land on a whole Commit node.
    assert [(p["number"], p["title"]) for p in pulls] == [
        (5, "Add GRPO trainer"),
        (7, "Fix NaN loss in GRPO trainer"),
        (9, "Fix OOM when saving checkpoints"),
    ]
    rules = [json.loads(line)["kind"] for line in (folder / "rules.jsonl").open()]
    assert "contributing-guide" in rules


def test_loaded_history_gives_failure_to_fix_to_release_paths(release, store):
    folder, shas, _ = release
    sync_data_release(store, folder)
    sync_data_release(store, folder)  # idempotent
    rows = run_query(store, "failure-fixes", {"framework": "rlkit"}).rows
    by_failure = {r["failure"]: r for r in rows}
    nan = by_failure["rlkit#6/failure"]  # reported in the issue the commit closes
    assert (nan["symptom"], nan["issue"], nan["fix_commit"], nan["fix_pr"]) == (
        "nan-loss",
        "rlkit#6",
        shas["nan"],
        "rlkit#7",
    )
    assert nan["release"] == "v0.2" and nan["method"] == "grpo"
    oom = by_failure[f"rlkit@{shas['oom'][:12]}/failure"]  # no issue: stated by the fix itself
    assert (oom["symptom"], oom["issue"], oom["fix_commit"], oom["release"]) == (
        "oom",
        None,
        shas["oom"],
        "v0.2",
    )
    assert oom["fix_subject"] == "Fix OOM when saving checkpoints"
    kinds = store.read("MATCH (n:PullRequest) RETURN DISTINCT n.source_kind AS k")
    assert kinds == [{"k": "git"}]
    rules = store.read("MATCH (:Framework {slug: 'rlkit'})-[:HAS_RULE]->(r) RETURN count(r) AS n")
    assert rules[0]["n"] >= 1


def test_github_fills_in_the_same_pull_requests_and_issues_without_duplicates(release, store, tmp_path):
    folder, shas, _ = release
    sync_data_release(store, folder)
    fake_repo = FakeRepo(
        issues=[
            make_issue(6, "Loss is NaN after 20 steps with GRPO", repo=REPO, state="closed"),
            make_issue(7, "Fix NaN loss in GRPO trainer", repo=REPO, is_pull=True, state="closed"),
        ],
        pulls=[
            make_pull(
                7,
                "Fix NaN loss in GRPO trainer",
                "Fixes #6",
                repo=REPO,
                state="closed",
                merged_at="2025-03-05T00:00:00Z",
                merge_commit_sha=shas["nan"],
            )
        ],
    )
    with FakeGitHub({REPO: fake_repo}) as fake:
        sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path / "cache",
            client_options={"seconds_between_requests": 0},
        )
    counts = store.read("MATCH (n:PullRequest) RETURN count(n) AS n")[0]["n"]
    assert counts == 3  # 5, 7, 9: the API's #7 is the history's #7
    pr = store.read("MATCH (n:PullRequest {id: 'rlkit#7'}) RETURN n.source_kind AS k, n.author AS a")
    assert pr == [{"k": "github", "a": "bob"}]
    issue = store.read("MATCH (i:Issue {id: 'rlkit#6'}) RETURN i.title AS t, i.source_kind AS k")
    assert issue == [{"t": "Loss is NaN after 20 steps with GRPO", "k": "github"}]
    assert store.read("MATCH (i:Issue) RETURN count(i) AS n") == [{"n": 1}]
    reports = store.read(
        "MATCH (x:FailureReport)-[:REPORTED_IN]->(:Issue {id: 'rlkit#6'}) RETURN count(x) AS n"
    )
    assert reports == [{"n": 1}]  # the history's report and the issue's are one node


def test_a_fix_pointing_at_an_unshipped_commit_is_named(release, store):
    folder, _, _ = release
    with (folder / "fixes.jsonl").open("a") as out:
        out.write(
            json.dumps({"framework": "rlkit", "sha": "f" * 40, "issue": 4, "rule": "closing-keyword"}) + "\n"
        )
    with pytest.raises(ReleaseError, match=r"fixes.jsonl:2: field 'sha': commit f+ is not in commits.jsonl"):
        sync_data_release(store, folder)
    assert store.read("MATCH (c:Commit) RETURN count(c) AS n") == [{"n": 0}]


def test_a_warm_cache_gives_a_second_store_the_same_threads(store, tmp_path):
    fake_repo = FakeRepo(
        issues=[
            make_issue(6, "Loss is NaN after 20 steps with GRPO", repo=REPO),
            make_issue(8, "Support DAPO", "See https://arxiv.org/abs/2503.14476", repo=REPO),
        ]
    )
    first = open_store(str(tmp_path / "first.lbug"))
    first.init()
    options = {"seconds_between_requests": 0}
    with FakeGitHub({REPO: fake_repo}) as fake:
        for target in (first, store):  # the second load finds nothing new on the server
            sync_github(
                target,
                "rlkit",
                REPO,
                METHODS,
                api_url=fake.url,
                token="",
                cache_root=tmp_path,
                client_options=options,
            )
        again = sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            client_options=options,
        )
    shape = "MATCH (i:Issue) OPTIONAL MATCH (i)-[r]->() RETURN count(DISTINCT i) AS issues, count(r) AS links"
    loaded = first.read(shape)
    assert loaded[0]["issues"] == 2 and loaded[0]["links"] >= 4  # PART_OF, CITES, NAMES
    assert store.read(shape) == loaded
    assert again.threads == 0  # a third load of an up-to-date store writes nothing
    first.close()


def _history_counts(store) -> dict[str, int]:
    return {
        label: store.read(f"MATCH (n:{label}) RETURN count(n) AS n")[0]["n"]
        for label in ("PullRequest", "Issue", "FailureReport")
    } | {"FIXES": store.read("MATCH ()-[r:FIXES]->() RETURN count(r) AS n")[0]["n"]}


def test_mining_a_history_adds_its_pull_requests_fixes_and_failures_incrementally(tmp_path, store):
    """`uptake load git` / `update` read the same facts from messages as the release, and only
    from the commits they have not read before."""
    r, shas = history(tmp_path)
    first = sync_git(store, "rlkit", r.path, METHODS, workers=1, repo=REPO)
    assert "4 pull requests, 1 issue fixes, 2 failure reports" in str(first)
    rows = run_query(store, "failure-fixes", {"framework": "rlkit"}).rows
    assert {(x["failure"], x["fix_commit"], x["fix_pr"]) for x in rows} == {
        ("rlkit#6/failure", shas["nan"], "rlkit#7"),
        (f"rlkit@{shas['oom'][:12]}/failure", shas["oom"], "rlkit#9"),
    }
    before = _history_counts(store)
    assert before == {"PullRequest": 4, "Issue": 1, "FailureReport": 2, "FIXES": 2}

    hang = r.commit("Fix hang in rollout workers (#12)\n\nCloses acme/rlkit#11", {"rlkit/roll.py": "y = 1\n"})
    again = sync_git(store, "rlkit", r.path, METHODS, workers=1, repo=REPO)
    assert "1 pull requests, 1 issue fixes, 1 failure reports" in str(again)
    rows = run_query(store, "failure-fixes", {"framework": "rlkit"}).rows
    assert ("rlkit#11/failure", hang, "rlkit#12") in {
        (x["failure"], x["fix_commit"], x["fix_pr"]) for x in rows
    }
    assert _history_counts(store) == {"PullRequest": 5, "Issue": 2, "FailureReport": 3, "FIXES": 4}

    quiet = sync_git(store, "rlkit", r.path, METHODS, workers=1, repo=REPO)
    assert quiet.mined.up_to_date and _history_counts(store)["FailureReport"] == 3


def test_a_store_loaded_from_the_release_mines_only_what_came_after_it(release, store, tmp_path):
    """The release's heads are the frameworks' mined state, so `uptake update` reads only newer
    commits; loading the release again never sends a store mined further back."""
    folder, shas, _ = release
    sync_data_release(store, folder)
    r = Repo(tmp_path / "rlkit")  # the history the release was built from, one commit on
    newer = r.commit("Fix OOM in rollout buffer (#11)", {"rlkit/buffer.py": "y = 1\n"})
    mined = sync_git(store, "rlkit", r.path, METHODS, workers=1, repo=REPO)
    assert mined.mined.new_commits == 1 and not mined.mined.force_push
    assert "0 pull requests" not in str(mined) and "1 failure reports" in str(mined)
    sync_data_release(store, folder)
    head = store.read("MATCH (f:Framework {slug: 'rlkit'}) RETURN f.mined_head AS h")
    assert head == [{"h": newer}]
    excluded = store.read("MATCH (c:Commit) WHERE c.excluded IS NOT NULL RETURN count(c) AS n")
    assert excluded == [{"n": 0}]


def test_a_copy_without_the_releases_head_is_read_whole_and_drops_nothing(release, store, tmp_path):
    folder, shas, _ = release
    sync_data_release(store, folder)
    other = Repo(tmp_path / "elsewhere")  # a copy that never had the release's head
    other.commit("Initial commit", {"README.md": "# rlkit\n"})
    mined = sync_git(store, "rlkit", other.path, METHODS, workers=1, repo=REPO)
    assert mined.mined.new_commits == 1 and not mined.mined.force_push
    excluded = store.read("MATCH (c:Commit) WHERE c.excluded IS NOT NULL RETURN count(c) AS n")
    assert excluded == [{"n": 0}]
