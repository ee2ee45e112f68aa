"""The GitHub loader against a local server answering in the REST API's format.

The real PyGithub client talks HTTP to `FakeGitHub`; nothing is mocked. The
server paginates with Link headers, reports rate limits, and misbehaves on
request (rate-limit 403/429, 5xx, malformed bodies).
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fake_github import FakeGitHub, FakeRepo, Fault, make_comment, make_issue, make_pull
from uptake.loaders.cache import github_cache_folder
from uptake.loaders.catalog import MethodEntry
from uptake.loaders.github import (
    GitHubClient,
    GitHubError,
    RateLimited,
)
from uptake.sync.github import sync_github

REPO = "acme/rlkit"
METHODS = [
    MethodEntry("grpo", "GRPO", ("GRPO",), "2402.03300", None, None, None, "", "policy-gradient"),
    MethodEntry("dapo", "DAPO", ("DAPO",), "2503.14476", None, "grpo", "clip", "", "policy-gradient"),
]


def _day(n: int) -> str:
    return f"2025-03-{n:02d}T08:00:00Z"


def sample_repo(issues: int = 7) -> FakeRepo:
    repo = FakeRepo()
    for n in range(1, issues + 1):
        repo.issues.append(
            make_issue(n, f"Question number {n}", "How do I set the batch size?", updated_at=_day(n))
        )
    repo.issues.append(
        make_issue(
            20, "Add DAPO", "Proposal: https://arxiv.org/abs/2503.14476", updated_at=_day(10), is_pull=True
        )
    )
    repo.pulls.append(
        make_pull(
            20,
            "Add DAPO",
            "Proposal: https://arxiv.org/abs/2503.14476\n\nFixes #3",
            updated_at=_day(10),
            merged_at=_day(10),
            state="closed",
            merge_commit_sha="c" * 40,
        )
    )
    repo.comments.append(make_comment(501, 3, "Same here.", created_at=_day(4), updated_at=_day(4)))
    return repo


def client(fake: FakeGitHub, tmp_path, **options) -> GitHubClient:
    slept: list[float] = []
    c = GitHubClient(
        REPO,
        github_cache_folder(REPO, tmp_path / "cache"),
        api_url=fake.url,
        token="",
        seconds_between_requests=0,
        per_page=options.pop("per_page", 3),
        sleep=slept.append,
        **options,
    )
    c.slept = slept  # type: ignore[attr-defined]
    return c


def test_paginates_with_link_headers_and_caches_every_item(tmp_path):
    with FakeGitHub({REPO: sample_repo()}) as fake:
        report = client(fake, tmp_path).fetch()
    # 8 issue-list items in pages of 3 -> 3 requests; 1 pull, 1 comment -> 1 each.
    assert len(fake.requests_to("/issues")) == 3
    assert report.items == {"issues": 8, "pulls": 1, "comments": 1}
    assert report.requests == 5
    cached = (tmp_path / "cache" / "acme+rlkit" / "issues.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["number"] for line in cached) == [1, 2, 3, 4, 5, 6, 7, 20]


def test_incremental_load_fetches_only_what_changed(tmp_path):
    repo = sample_repo()
    with FakeGitHub({REPO: repo}) as fake:
        client(fake, tmp_path).fetch()
        first = len(fake.served)
        repo.issues[4] = make_issue(
            5, "Question number 5", "Edited: loss is nan", updated_at="2025-04-01T00:00:00Z"
        )
        repo.comments.append(make_comment(502, 2, "Any news?", created_at=_day(12), updated_at=_day(12)))
        report = client(fake, tmp_path).fetch()
    served_again = [item for item in fake.served[first:] if item[0] != "pulls"]
    assert sorted(served_again) == [("comments", 502), ("issues", 5)]
    # The pulls list takes no `since`: one page is read, the unchanged PR on it is not kept again.
    assert len(fake.requests_to("/pulls")) == 2 and report.items["pulls"] == 0
    assert report.numbers == {2, 5}
    issue_query = fake.requests_to("/issues")[-1]
    assert issue_query["since"] == "2025-03-10T08:00:01Z"  # one second after the newest seen


def test_a_run_after_a_whole_one_with_no_issue_changed_asks_once(tmp_path):
    """New pull requests and comments move their issue's `updated_at`, so an unchanged issue list
    means the pulls and comments passes would find nothing: one request, not three."""
    repo = sample_repo()
    with FakeGitHub({REPO: repo}) as fake:
        client(fake, tmp_path).fetch()
        asked = len(fake.requests)
        quiet = client(fake, tmp_path).fetch()
        assert len(fake.requests) - asked == 1 and fake.requests[-1][0].endswith("/issues")
        assert quiet.items == {"issues": 0, "pulls": 0, "comments": 0}
        repo.issues[1] = make_issue(
            2, "Question number 2", "How do I set the batch size?", updated_at=_day(20)
        )
        repo.comments.append(make_comment(503, 2, "Solved by #20.", created_at=_day(20), updated_at=_day(20)))
        asked = len(fake.requests)
        again = client(fake, tmp_path).fetch()
    assert len(fake.requests) - asked == 3 and again.items["comments"] == 1


def test_a_run_after_an_interrupted_one_reads_every_pass(tmp_path):
    with FakeGitHub({REPO: sample_repo()}) as fake:
        first = client(fake, tmp_path)
        first.fetch()
        first.cache.save_state(complete=False)  # as a run stopped by a rate limit leaves it
        asked = len(fake.requests)
        client(fake, tmp_path).fetch()
    assert len(fake.requests) - asked == 3


def test_full_then_incremental_load_into_store(store, tmp_path):
    repo = sample_repo()
    with FakeGitHub({REPO: repo}) as fake:
        options = {"seconds_between_requests": 0, "per_page": 3}
        sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            client_options=options,
        )
        repo.issues.append(make_issue(8, "GRPO loss becomes NaN after 10 steps", "", updated_at=_day(20)))
        second = sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            client_options=options,
        )
    assert second.fetched.items["issues"] == 1
    assert second.threads == 1
    rows = store.read("MATCH (i:Issue) RETURN count(i) AS n")
    assert rows[0]["n"] == 8
    failure = store.read(
        "MATCH (f:FailureReport)-[:REPORTED_IN]->(i:Issue) MATCH (f)-[:AFFECTS]->(m:Method) "
        "RETURN i.number AS number, f.symptom AS symptom, m.slug AS method"
    )
    assert failure == [{"number": 8, "symptom": "nan-loss", "method": "grpo"}]
    pr = store.read(
        "MATCH (p:PullRequest)-[c:CITES]->(x:Paper) MATCH (p)-[:MERGED_AS]->(k:Commit) "
        "RETURN p.state AS state, x.arxiv_id AS paper, c.rule AS rule, k.sha AS sha"
    )
    assert pr == [{"state": "merged", "paper": "2503.14476", "rule": "arxiv-url", "sha": "c" * 40}]


def test_interrupted_load_resumes_without_duplicates(store, tmp_path):
    repo = sample_repo(issues=10)
    options = {"seconds_between_requests": 0, "per_page": 3}
    with FakeGitHub({REPO: repo}) as fake:
        # The third page of issues fails for good (more than the retries allow).
        fake.faults.append(Fault("server-error", "/issues", count=10, after=2))
        with pytest.raises(GitHubError, match="HTTP 502.*kept"):
            sync_github(
                store,
                "rlkit",
                REPO,
                METHODS,
                api_url=fake.url,
                token="",
                cache_root=tmp_path,
                client_options=options,
            )
        fake.faults.clear()
        before = len(fake.served)
        sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            client_options=options,
        )
    # Resumed from the cursor: only the boundary second of page 2 is asked again, not pages 1-2.
    resumed = [n for kind, n in fake.served[before:] if kind == "issues"]
    assert resumed[0] == 6 and 1 not in resumed
    cached = (tmp_path / "acme+rlkit" / "issues.jsonl").read_text().splitlines()
    numbers = [json.loads(line)["number"] for line in cached]
    assert len(numbers) == len(set(numbers)) == 11  # compacted after the complete run
    assert store.read("MATCH (i:Issue) RETURN count(i) AS n")[0]["n"] == 10


def test_rate_limit_with_long_reset_stops_naming_the_time_and_keeps_what_was_fetched(store, tmp_path):
    repo = sample_repo()
    options = {"seconds_between_requests": 0, "per_page": 3}
    with FakeGitHub({REPO: repo}) as fake:
        fake.faults.append(Fault("rate-limit-403", "/issues", count=1, after=1, reset_in=7200))
        result = sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            max_wait=60,
            client_options=options,
        )
        assert result.stopped is not None
        assert "Resume after" in result.stopped and result.resume_at.strftime("%H:%M") in result.stopped
        assert result.resume_at > dt.datetime.now(dt.UTC) + dt.timedelta(minutes=100)
        # The first page was written to the store before stopping.
        assert store.read("MATCH (i:Issue) RETURN count(i) AS n")[0]["n"] == 3
        rerun = sync_github(
            store,
            "rlkit",
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path,
            client_options=options,
        )
    assert rerun.stopped is None
    assert store.read("MATCH (i:Issue) RETURN count(i) AS n")[0]["n"] == 7


@pytest.mark.parametrize("kind", ["rate-limit-403", "rate-limit-429"])
def test_rate_limit_with_short_reset_waits_then_continues(tmp_path, kind):
    with FakeGitHub({REPO: sample_repo()}) as fake:
        fake.faults.append(Fault(kind, "/pulls", count=1, reset_in=30))
        c = client(fake, tmp_path, max_wait=120)
        report = c.fetch()
    assert report.items["pulls"] == 1
    assert len(c.slept) == 1 and 25 <= c.slept[0] <= 40


def test_spent_limit_in_headers_stops_before_the_server_refuses(tmp_path):
    # Budget of 2: the second response says 0 remain, so the client must not ask a third time.
    with FakeGitHub({REPO: sample_repo()}, rate_limit=2) as fake:
        c = client(fake, tmp_path, max_wait=60)
        with pytest.raises(RateLimited, match="rate limit spent"):
            c.fetch()
    assert len(fake.requests) == 2


def test_server_error_and_malformed_bodies_are_retried_with_backoff(tmp_path):
    with FakeGitHub({REPO: sample_repo()}) as fake:
        fake.faults += [
            Fault("server-error", "/issues", count=2),
            Fault("malformed", "/pulls", count=1),
            Fault("html", "/comments", count=1),
        ]
        c = client(fake, tmp_path)
        report = c.fetch()
    assert report.items == {"issues": 8, "pulls": 1, "comments": 1}
    assert c.slept == [2.0, 4.0, 2.0, 2.0]


def test_a_body_that_stays_malformed_is_an_error_naming_the_request(tmp_path):
    with FakeGitHub({REPO: sample_repo()}) as fake:
        fake.faults.append(Fault("malformed", "/issues", count=10))
        with pytest.raises(GitHubError, match=r"/repos/acme/rlkit/issues answered a malformed body 4 times"):
            client(fake, tmp_path).fetch()
