"""Parsing arXiv inputs: ids, snapshot lines, Atom responses. No network, no store."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from fake_arxiv import atom_feed
from uptake.loaders.arxiv import ArxivLoadError, ArxivQuery, parse_atom, parse_snapshot_line, read_snapshot
from uptake.loaders.link.arxiv_ids import ArxivIdError, normalize_arxiv_id, year_month


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2503.14476v2", "2503.14476"),
        ("https://arxiv.org/abs/2503.14476v3", "2503.14476"),
        ("http://arxiv.org/pdf/2503.14476v1.pdf", "2503.14476"),
        ("arxiv.org/pdf/2503.14476.pdf", "2503.14476"),
        ("arXiv:2402.03300", "2402.03300"),
        ("hep-th/9901001", "hep-th/9901001"),
        ("hep-th/9901001v2", "hep-th/9901001"),
        ("https://arxiv.org/abs/math.GT/0309136v1", "math/0309136"),
        ("http://arxiv.org/abs/cond-mat/0102536v1", "cond-mat/0102536"),
        ("0704.0001", "0704.0001"),
    ],
)
def test_ids_are_normalised_everywhere(raw, expected):
    assert normalize_arxiv_id(raw) == expected


@pytest.mark.parametrize("raw", ["2513.12345", "2503.1234", "1412.12345", "hep-th/9913001", "GRPO", ""])
def test_impossible_ids_are_refused(raw):
    with pytest.raises(ArxivIdError):
        normalize_arxiv_id(raw)


def test_year_month_of_new_and_old_ids():
    assert year_month("2503.14476") == "2025-03"
    assert year_month("hep-th/9901001") == "1999-01"
    assert year_month("math/0309136") == "2003-09"


def _snapshot_obj(**overrides):
    obj = {
        "id": "2503.14476",
        "submitter": "Someone",
        "authors": "Ann Lee (Example Lab), Bo Chen (Sample University)",
        "title": "A  Composed\n Title",
        "abstract": "  We compose an abstract\n for the test. ",
        "categories": "cs.LG cs.CL",
        "versions": [
            {"version": "v2", "created": "Tue, 20 May 2025 10:00:00 GMT"},
            {"version": "v1", "created": "Tue, 18 Mar 2025 17:59:46 GMT"},
        ],
        "update_date": "2025-05-21",
        "authors_parsed": [["Lee", "Ann", ""], ["Chen", "Bo", ""]],
    }
    obj.update(overrides)
    return json.dumps(obj)


def test_snapshot_line_gives_first_version_date_and_clean_fields():
    paper = parse_snapshot_line(_snapshot_obj(), "snap.jsonl:1")
    assert paper.arxiv_id == "2503.14476"
    assert paper.published_date == dt.date(2025, 3, 18)  # v1, though listed second
    assert paper.updated_date == dt.date(2025, 5, 21)
    assert paper.title == "A Composed Title"
    assert paper.abstract == "We compose an abstract for the test."
    assert paper.authors == ("Ann Lee", "Bo Chen")
    assert paper.affiliations == ("Example Lab", "Sample University")
    assert paper.categories == ("cs.LG", "cs.CL") and paper.primary_category == "cs.LG"


def test_snapshot_line_with_versioned_or_old_style_id():
    assert parse_snapshot_line(_snapshot_obj(id="2503.14476v3"), "s:1").arxiv_id == "2503.14476"
    old = parse_snapshot_line(_snapshot_obj(id="hep-th/9901001"), "s:1")
    assert old.arxiv_id == "hep-th/9901001"


@pytest.mark.parametrize(
    ("line", "field"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        (_snapshot_obj(id="banana"), "field 'id'"),
        (_snapshot_obj(title=""), "field 'title'"),
        (_snapshot_obj(versions=[{"version": "v1", "created": "yesterday"}]), "field 'versions'"),
        (_snapshot_obj(update_date="21/05/2025"), "field 'update_date'"),
        (_snapshot_obj(categories=["cs.LG"]), "field 'categories'"),
    ],
)
def test_bad_snapshot_lines_name_the_file_line_and_field(line, field):
    with pytest.raises(ArxivLoadError) as error:
        parse_snapshot_line(line, "dump.jsonl:7")
    assert "dump.jsonl:7" in str(error.value) and field in str(error.value)


def test_snapshot_stream_stops_at_the_bad_line_after_yielding_the_good_ones(tmp_path):
    path = tmp_path / "snap.jsonl"
    good = [_snapshot_obj(id=f"2501.0000{i}") for i in range(1, 4)]
    path.write_text("\n".join(good[:2] + ["{broken"] + good[2:]) + "\n")
    seen = []
    with pytest.raises(ArxivLoadError, match=rf"{path.name}:3: not valid JSON"):
        for paper in read_snapshot(path):
            seen.append(paper.arxiv_id)
    assert seen == ["2501.00001", "2501.00002"]


def test_atom_response_is_parsed_with_affiliations_and_dates():
    feed = atom_feed(
        [
            {
                "arxiv_id": "2507.18071",
                "version": 3,
                "title": "Sequence-level\n  ratios",
                "abstract": "We compose this.",
                "published": "2025-07-24T17:50:36Z",
                "updated": "2025-07-28T09:00:00Z",
                "authors": ["Ann Lee", "Bo Chen"],
                "affiliations": {"Ann Lee": ["Example Lab"]},
                "categories": ["cs.LG", "cs.AI"],
                "comment": "Code: https://github.com/example/repo",
            }
        ]
    )
    (paper,) = parse_atom(feed, "page.atom")
    assert paper.arxiv_id == "2507.18071"
    assert paper.title == "Sequence-level ratios"
    assert paper.published_date == dt.date(2025, 7, 24) and paper.updated_date == dt.date(2025, 7, 28)
    assert paper.affiliations == ("Example Lab",)
    assert paper.primary_category == "cs.LG" and paper.comment.startswith("Code:")


def test_malformed_atom_names_file_and_line():
    broken = atom_feed([]).replace(b"</feed>", b"<entry><id>oops</feed>")
    with pytest.raises(ArxivLoadError, match=r"saved/p1\.atom:\d+: malformed Atom"):
        parse_atom(broken, "saved/p1.atom")


def test_atom_error_feed_is_an_error():
    feed = atom_feed([]).replace(
        b"</feed>",
        b"<entry><id>http://arxiv.org/api/errors#incorrect_id_format_for_1234</id>"
        b"<summary>incorrect id format for 1234</summary></entry></feed>",
    )
    with pytest.raises(ArxivLoadError, match="incorrect id format"):
        parse_atom(feed, "err.atom")


def test_query_string_combines_categories_keywords_and_window():
    query = ArxivQuery(
        categories=("cs.LG", "cs.CL"),
        keywords=("reinforcement learning", "GRPO"),
        submitted_from=dt.date(2025, 1, 1),
        submitted_to=dt.date(2026, 6, 30),
    )
    assert query.search_query() == (
        '(cat:cs.LG OR cat:cs.CL) AND (abs:"reinforcement learning" OR abs:GRPO) '
        "AND submittedDate:[202501010000 TO 202606302359]"
    )
    with pytest.raises(ArxivLoadError):
        ArxivQuery(categories=(), keywords=()).search_query()
