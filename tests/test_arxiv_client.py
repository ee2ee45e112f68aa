"""The real `arxiv` client against a local server speaking the arXiv API's Atom format."""

from __future__ import annotations

import datetime as dt

import pytest
from fake_arxiv import FakeArxiv
from uptake.loaders.arxiv import ArxivFetcher, ArxivLoadError, ArxivQuery, read_atom_dir


def _paper(n: int, updated_day: int) -> dict:
    return {
        "arxiv_id": f"2505.{n:05d}",
        "version": 2,
        "title": f"Composed paper {n}",
        "abstract": "We compose an abstract about reinforcement learning for LLMs.",
        "published": f"2025-05-{n:02d}T08:00:00Z",
        "updated": f"2025-06-{updated_day:02d}T08:00:00Z",
        "authors": ["Ann Lee"],
        "affiliations": {"Ann Lee": ["Example Lab"]},
    }


@pytest.fixture
def api():
    with FakeArxiv([_paper(n, n) for n in range(1, 6)]) as server:
        yield server


def _fetcher(api, tmp_path, **kwargs) -> ArxivFetcher:
    options = {"page_size": 2, "delay_seconds": 0.0, "num_retries": 2, "timeout": 0.5} | kwargs
    return ArxivFetcher(tmp_path / "cache", api_url=api.url_format, **options)


def test_ids_are_fetched_once_and_replayed_offline(api, tmp_path):
    fetcher = _fetcher(api, tmp_path)
    papers = list(fetcher.fetch_ids(["2505.00001v2", "https://arxiv.org/abs/2505.00003", "2505.00004"]))
    assert [p.arxiv_id for p in papers] == ["2505.00001", "2505.00003", "2505.00004"]
    assert papers[0].published_date == dt.date(2025, 5, 1)
    assert papers[0].affiliations == ("Example Lab",)
    assert api.requests[0]["id_list"] == ["2505.00001,2505.00003"]  # page_size 2: two requests
    assert len(api.requests) == 2

    # A second run asks only for the id it has not seen.
    again = list(_fetcher(api, tmp_path).fetch_ids(["2505.00001", "2505.00003", "2505.00005"]))
    assert [p.arxiv_id for p in again] == ["2505.00005"]
    assert api.requests[-1]["id_list"] == ["2505.00005"] and len(api.requests) == 3

    # Every raw response is on disk and reads back without the network.
    offline = {p.arxiv_id for p in read_atom_dir(tmp_path / "cache" / "responses")}
    assert offline == {"2505.00001", "2505.00003", "2505.00004", "2505.00005"}


def test_query_pages_and_a_rerun_fetches_only_updated_papers(api, tmp_path):
    query = ArxivQuery(categories=("cs.LG",), keywords=("GRPO",))
    first = list(_fetcher(api, tmp_path).fetch_query(query))
    assert len(first) == 5 and len(api.requests) == 3  # pages of 2, 2, 1
    assert api.requests[0]["search_query"] == ["(cat:cs.LG) AND (abs:GRPO)"]
    assert api.requests[0]["sortBy"] == ["lastUpdatedDate"]

    api.papers.append(_paper(6, 20))  # a new paper
    api.papers[1] = _paper(2, 21)  # and an updated one
    before = len(api.requests)
    second = list(_fetcher(api, tmp_path).fetch_query(query))
    assert [p.arxiv_id for p in second] == ["2505.00002", "2505.00006"]
    assert len(api.requests) - before == 2  # stops on the page that reaches last run's mark

    before = len(api.requests)
    assert list(_fetcher(api, tmp_path).fetch_query(query)) == []
    assert len(api.requests) - before == 1


def test_a_503_is_retried_by_the_client(api, tmp_path):
    api.fail_next = ["503"]
    papers = list(_fetcher(api, tmp_path).fetch_ids(["2505.00002"]))
    assert [p.arxiv_id for p in papers] == ["2505.00002"]
    assert len(api.requests) == 2


def test_a_timeout_is_retried(api, tmp_path):
    api.fail_next = ["stall"]
    api.stall_seconds = 1.5
    papers = list(_fetcher(api, tmp_path, timeout=0.3).fetch_ids(["2505.00002"]))
    assert [p.arxiv_id for p in papers] == ["2505.00002"]
    assert len(api.requests) == 2


def test_persistent_failure_is_a_clear_error_and_nothing_is_marked_seen(api, tmp_path):
    api.fail_next = ["503"] * 3
    with pytest.raises(ArxivLoadError, match=r"HTTP 503 .* after 2 retries"):
        list(_fetcher(api, tmp_path).fetch_ids(["2505.00002"]))
    assert len(api.requests) == 3
    # The next run tries again: the failed id was not recorded as fetched.
    assert [p.arxiv_id for p in _fetcher(api, tmp_path).fetch_ids(["2505.00002"])] == ["2505.00002"]
