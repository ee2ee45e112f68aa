"""REST JSON to records: dumps, thread merging, CITES/NAMES evidence, maintainer replies, FIXES."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from fake_github import make_comment, make_issue, make_pull
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.records import Edge
from uptake.loaders.catalog import MethodEntry
from uptake.loaders.github import (
    DumpError,
    RawThreads,
    build_threads,
    fixes_from_git,
    read_dump,
    thread_records,
)
from uptake.loaders.link.fixes import closing_references, squash_subject_references
from uptake.loaders.link.methods import MethodMatcher
from uptake.loaders.link.threads import Thread, cited_papers, maintainer_first_reply, named_methods

REPO = "acme/rlkit"
METHODS = [
    MethodEntry("grpo", "GRPO", ("grpo",), "2402.03300", None, None, None, "", "policy-gradient"),
    MethodEntry("dapo", "DAPO", ("dapo",), "2503.14476", None, "grpo", "clip", "", "policy-gradient"),
    MethodEntry("gpg", "GPG", ("gpg",), None, None, None, None, "", "policy-gradient", ("GPG", "gpg")),
]
MATCHER = MethodMatcher(METHODS)


def _thread(issue, comments=(), pull=None):
    raw = RawThreads([issue], [pull] if pull else [], list(comments))
    return build_threads("rlkit", raw)[0]


def test_dump_of_concatenated_pages_is_read_and_deduplicated(tmp_path):
    # `gh api --paginate` writes one JSON array per page, back to back.
    page1 = [make_issue(1, "A", updated_at="2025-03-01T00:00:00Z"), make_issue(2, "B")]
    page2 = [make_issue(1, "A edited", updated_at="2025-03-05T00:00:00Z")]
    (tmp_path / "issues.json").write_text(json.dumps(page1) + json.dumps(page2))
    (tmp_path / "comments.json").write_text(json.dumps([make_comment(7, 1, "hello")]))
    raw = read_dump(tmp_path)
    assert sorted((i["number"], i["title"]) for i in raw.issues) == [(1, "A edited"), (2, "B")]
    assert len(raw.comments) == 1


def test_malformed_dump_names_file_and_line(tmp_path):
    (tmp_path / "issues.json").write_text('[\n{"number": 1,\n "title": oops}]')
    with pytest.raises(DumpError, match=r"issues\.json:3: not JSON"):
        read_dump(tmp_path)
    (tmp_path / "issues.json").write_text(json.dumps([{"login": "x"}]))
    with pytest.raises(DumpError, match=r"issues\.json:1: not an issue"):
        read_dump(tmp_path)


def test_maintainer_first_reply_skips_the_author_bots_and_outsiders():
    issue = make_issue(4, "Loss is nan", author="maint", association="MEMBER")
    comments = [
        make_comment(
            1, 4, "self follow-up", author="maint", association="MEMBER", created_at="2025-03-02T00:00:00Z"
        ),
        make_comment(
            2, 4, "bot", author="ci[bot]", association="MEMBER", bot=True, created_at="2025-03-03T00:00:00Z"
        ),
        make_comment(3, 4, "me too", author="x", association="NONE", created_at="2025-03-04T00:00:00Z"),
        make_comment(
            4, 4, "on it", author="lead", association="COLLABORATOR", created_at="2025-03-05T00:00:00Z"
        ),
    ]
    reply = maintainer_first_reply(_thread(issue, comments))
    assert reply.author == "lead" and reply.created_at == "2025-03-05T00:00:00Z"


def test_citations_keep_evidence_and_skip_bare_ids_in_logs():
    body = "Paper: arXiv:2503.14476\n```\nstep 2301.12345 loss 0.1\n```\nsee 2402.03300 too"
    thread = _thread(
        make_issue(5, "Proposal", body), [make_comment(9, 5, "https://arxiv.org/abs/2501.12948v2")]
    )
    cited = cited_papers(thread)
    assert set(cited) == {"2503.14476", "2402.03300", "2501.12948"}  # not 2301.12345 from the log
    assert cited["2503.14476"].rule == "arxiv-label" and cited["2503.14476"].location == "rlkit#5 body"
    assert cited["2501.12948"].location == "rlkit#5 comment 9"
    assert cited["2402.03300"].rule == "bare-id" and cited["2402.03300"].confidence < 0.7


def test_names_use_the_shared_matcher_guards():
    thread = _thread(make_issue(6, "Add DAPO", "Also sign releases with gpg."))
    named = named_methods(thread, MATCHER)
    assert set(named) == {"dapo"}  # "gpg" the signing tool is not the GPG method
    assert named["dapo"].location == "rlkit#6 title" and named["dapo"].identifier == "DAPO"


NAMING_METHODS = METHODS + [
    MethodEntry("gkd", "GKD", ("gkd", "opd"), None, None, None, None, "", "distillation", ("opd",)),
    MethodEntry("reinforce", "REINFORCE", ("REINFORCE",), None, None, None, None, "", "policy-gradient"),
    MethodEntry(
        "reinforce-pp",
        "REINFORCE++",
        ("REINFORCE++", "reinforce"),
        "2501.03262",
        None,
        "reinforce",
        "advantage",
        "",
        "policy-gradient",
        ("reinforce",),
    ),
]


@pytest.mark.parametrize(
    ("title", "names"),
    [
        # A file name says where something is; the class a method's capitals start names it.
        ("Now `grpo.py` metrics match `dapo_cache.yaml`", set()),
        ("Make grpo.py log the DAPO loss", {"dapo"}),
        ("Add a YAML config for grpo.main", set()),  # a module path
        ("Fix deprecation of REINFORCE.max_length", {"reinforce"}),  # a class's attribute
        ("Add gradient accumulation to `DAPOTrainModule`", {"dapo"}),
        ("Detach the backend from RayGRPOTrainer", {"grpo"}),
        ("Fix SkyRLGymGenerator retries", set()),
        # A short lower-case value written in capitals is its acronym, which still needs its context.
        ("Add unified trainer OPD docs page", {"gkd"}),
        ("Add OPD docs page", set()),
        # A word that is one method's own name and another's alias names its owner.
        ("Add reinforce algorithm in train_ppo.py", {"reinforce"}),
        ("Support REINFORCE++ in the trainer", {"reinforce-pp"}),
    ],
)
def test_what_a_title_names(title, names):
    thread = _thread(make_issue(9, title, ""))
    assert set(named_methods(thread, MethodMatcher(NAMING_METHODS))) == names


def test_pull_request_merges_both_lists_and_links_its_merge_commit_only_when_merged():
    issue = make_issue(8, "Add DAPO", "", is_pull=True, labels=("algo",), comments=3, pull_merged_at=None)
    pull = make_pull(8, "Add DAPO", "Closes #2", merge_commit_sha="d" * 40, state="open")
    thread = _thread(issue, pull=pull)
    assert thread.is_pr and thread.state == "open" and thread.merge_commit_sha is None
    records = list(thread_records([thread], repo=REPO, matcher=MATCHER))
    assert not [r for r in records if isinstance(r, Edge) and r.type == "MERGED_AS"]
    node = records[0]
    assert node.label == "PullRequest" and node.props["labels"] == ["algo"] and node.props["comments"] == 3


def test_closing_keywords():
    text = (
        "Fixes #12, #13 and #14. closes acme/rlkit#20, resolves other/repo#30, "
        "fixed https://github.com/acme/rlkit/issues/40"
    )
    refs = closing_references(text, REPO)
    assert [(n, c) for n, _, c in refs] == [(12, 0.95), (13, 0.8), (14, 0.8), (20, 0.95), (40, 0.95)]
    assert closing_references("prefix #12 suffix", REPO) == []
    assert squash_subject_references("Fix NaN in GRPO loss, #7 (#31)") == [(7, "#7")]
    assert squash_subject_references("Refactor trainer #7 (#31)") == []  # no fix-like verb


def test_fixes_from_commit_messages_of_a_real_repository(tmp_path):
    repo = tmp_path / "r"
    repo.mkdir()
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "a",
        "GIT_AUTHOR_EMAIL": "a@x",
        "GIT_COMMITTER_NAME": "a",
        "GIT_COMMITTER_EMAIL": "a@x",
    }

    def commit(message: str) -> str:
        subprocess.run(
            ["git", "-C", str(repo), "commit", "-q", "--allow-empty", "-m", message], check=True, env=env
        )
        return subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()

    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    a = commit("Handle empty groups, fixes #3 (#12)")
    b = commit("Fix hang in weight sync #4 (#13)")
    commit("Bump version, see #5 (#14)")
    c = commit("Fix #12 follow-up (#15)")  # #12 is a pull request, never an issue
    threads = build_threads(
        "rlkit",
        RawThreads(
            [make_issue(3, "x"), make_issue(4, "y"), make_issue(5, "z"), make_issue(12, "pr", is_pull=True)],
            [],
            [],
        ),
    )
    edges = {(e.src[1], e.dst[1], e.props["rule"]) for e in fixes_from_git("rlkit", REPO, repo, threads)}
    assert edges == {(a, "rlkit#3", "closing-keyword"), (b, "rlkit#4", "issue-ref-in-squash-subject")}
    assert c not in {src for src, _, _ in edges}


def test_cli_loads_a_dump_and_runs_the_stored_query(tmp_path):
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "issues.json").write_text(
        json.dumps([make_issue(1, "Support DAPO", "https://arxiv.org/abs/2503.14476")])
    )
    store = str(tmp_path / "g.lbug")
    runner = CliRunner()
    result = runner.invoke(
        app, ["load", "github", "--framework", "trl", "--dump", str(dump), "--store", store]
    )
    assert result.exit_code == 0, result.output
    result = runner.invoke(
        app,
        [
            "query",
            "earlier-proposals",
            "-p",
            "framework=trl",
            "-p",
            "paper=2503.14476",
            "--store",
            store,
            "-f",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout[result.stdout.index("[") :])
    assert {(r["thread"], r["via"]) for r in rows} >= {("trl#1", "cites 2503.14476")}


def test_a_word_of_the_frameworks_own_name_names_no_method_in_its_threads():
    prime = MethodEntry(
        "prime", "PRIME", ("PRIME",), "2502.01456", None, None, None, "", "policy-gradient", ("PRIME",)
    )
    matcher = MethodMatcher([*METHODS, prime])
    title = "Recipe: the PRIME algorithm"
    assert "prime" in named_methods(Thread("verl", 3, False, title, "", "open"), matcher)
    assert "prime" not in named_methods(Thread("prime-rl", 3, False, title, "", "open"), matcher)
    # The repository named after the method is the method's: there the word is the method.
    assert "prime" in named_methods(Thread("PRIME-RL/PRIME", 3, False, title, "", "open"), matcher)


def test_an_unambiguous_method_name_in_the_frameworks_name_still_names_the_method():
    matcher = MethodMatcher(METHODS)
    title = "Fix the GRPO advantage"
    assert "grpo" in named_methods(Thread("grpo-zero", 3, False, title, "", "open"), matcher)


@pytest.mark.parametrize(
    ("title", "named"),
    [
        ("Support PRM with soft labels", True),
        ("add PRM training with hard estimation", True),
        ("Fix the prm800k loader", False),  # a dataset's name
    ],
)
def test_the_shipped_catalog_names_a_process_reward_model_by_its_acronym(title, named):
    from uptake.loaders.catalog import read_catalog

    matcher = MethodMatcher(read_catalog().methods.values())
    assert ("prm" in named_methods(_thread(make_issue(9, title, "")), matcher)) is named
