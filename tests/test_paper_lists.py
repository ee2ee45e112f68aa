"""Curated paper lists: Markdown tables and links, BibTeX and JSON read from a real git
repository, loaded title-screened into real stores, dated by month where only the id is known."""

from __future__ import annotations

import gzip
import json

import pytest
from git_history import Repo
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.records import Edge, Node
from uptake.graph.store import WriteStats, open_store
from uptake.loaders.paper_lists import (
    ListRepository,
    PaperList,
    bibtex_papers,
    clean_heading,
    list_entry_for,
    markdown_papers,
    merge_papers,
    read_list,
)
from uptake.loaders.paper_release import PaperReleaseError, paper_rows, read_papers, write_papers
from uptake.queries.run import run_query
from uptake.sync.papers_lists import sync_paper_list, sync_paper_release

DAPO_ROW = (
    "| 2025-03 | `DAPO` | DAPO: An Open-Source LLM Reinforcement Learning System at Scale | "
    "[![Paper](https://img.shields.io/badge/paper-A42C25)](https://arxiv.org/abs/2503.14476v2) |"
)
README = """# Awesome RL for Reasoning

## 📄 Paper List
### 3.1 Policy Optimization
| Date | Name | Title | Paper |
| --- | --- | --- | --- |
{DAPO_ROW}

### 2024
- [Group Robust Preference Optimization in Reward-free RLHF](https://arxiv.org/pdf/2405.20304.pdf) [code](https://github.com/x/y)
- **Direct Preference Optimization: Your Language Model is Secretly a Reward Model** arXiv:2305.18290
- [arXiv:2402.03300](https://arxiv.org/abs/2402.03300)

```
https://arxiv.org/abs/2501.00001 inside a code block is not listed
```
""".replace("{DAPO_ROW}", DAPO_ROW)

BIB = """# Reward Design
@article{a2025,
  title   = {Process Reward Models {That} Think \\& Verify},
  journal = {arXiv preprint arXiv:2504.16828},
  year    = {2025}
}
@inproceedings{b2023, title={Not on arXiv}, booktitle={Conf}}
"""

PAPERS_JSON = json.dumps(
    {
        "papers": [
            {
                "title": "Kimi k1.5: Scaling RL with LLMs",
                "url": "https://arxiv.org/abs/2501.12599",
                "category": "Models",
            }
        ]
    }
)


def test_markdown_tables_links_and_labels():
    found = {p.arxiv_id: p for p in markdown_papers(README, "README.md", "acme/list")}
    assert set(found) == {"2503.14476", "2405.20304", "2305.18290", "2402.03300"}
    dapo = found["2503.14476"]
    assert dapo.title == "DAPO: An Open-Source LLM Reinforcement Learning System at Scale"  # Title column
    assert dapo.tags == ("Policy Optimization",) and dapo.location == "README.md:7"
    assert found["2405.20304"].title == "Group Robust Preference Optimization in Reward-free RLHF"
    assert found["2405.20304"].tags == ()  # a year heading is no topic
    assert found["2305.18290"].title.startswith("Direct Preference Optimization")  # bold text
    assert found["2402.03300"].title is None  # the link's text is the id, not a title


def test_headings_lose_numbering_emoji_years_and_generic_words():
    assert clean_heading("3.2 Critic-Free Algorithms") == "Critic-Free Algorithms"
    assert clean_heading("Part 3: Reward Design") == "Reward Design"
    assert clean_heading("📄 Paper List") is None
    assert clean_heading("2025") is None


def test_bibtex_entries_with_an_arxiv_id_and_their_comment_heading():
    found = list(bibtex_papers(BIB, "reference.bib", "acme/list"))
    assert [(p.arxiv_id, p.title, p.tags) for p in found] == [
        ("2504.16828", "Process Reward Models That Think & Verify", ("Reward Design",))
    ]


@pytest.fixture
def list_repo(tmp_path):
    r = Repo(tmp_path / "acme+list")
    r.commit("Add list", {"README.md": README, "reference.bib": BIB, "data/papers.json": PAPERS_JSON})
    bare = tmp_path / "mirror" / "acme+list.git"
    r.git("clone", "-q", "--bare", str(r.path), str(bare))
    return r.path, bare


def test_a_bare_repository_reads_like_its_work_tree(list_repo):
    tree, bare = list_repo
    entry = PaperList("acme/list", ("README.md", "*.bib", "data/*.json"))
    from_tree = sorted((p.arxiv_id, p.title, p.tags) for p in read_list(ListRepository(tree), entry))
    from_bare = sorted((p.arxiv_id, p.title, p.tags) for p in read_list(ListRepository(bare), entry))
    assert from_tree == from_bare and len(from_tree) == 6
    assert ("2501.12599", "Kimi k1.5: Scaling RL with LLMs", ("Models",)) in from_tree


def test_merged_papers_keep_the_first_title_and_every_source(list_repo):
    tree, _ = list_repo
    listed = list(read_list(ListRepository(tree), PaperList("acme/list", ("README.md",))))
    other = [p.__class__(p.arxiv_id, "Another spelling", ("Other",), "other/list", "x:1") for p in listed]
    merged = {m.arxiv_id: m for m in merge_papers(other + listed, ["acme/list", "other/list"])}
    dapo = merged["2503.14476"]
    assert dapo.title.startswith("DAPO:") and dapo.sources == ["acme/list", "other/list"]
    assert dapo.tags == ["Policy Optimization", "Other"]
    assert merged["2402.03300"].title == "Another spelling"  # the only list that titles it


def test_release_file_is_deterministic_and_checked(tmp_path):
    rows = paper_rows([], ["2402.03300", "2503.14476"])
    assert rows == [
        {"arxiv_id": "2402.03300", "year_month": "2024-02"},
        {"arxiv_id": "2503.14476", "year_month": "2025-03"},
    ]
    write_papers(rows, tmp_path / "a.jsonl.gz")
    write_papers(rows, tmp_path / "b.jsonl.gz")
    assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()
    with gzip.open(tmp_path / "bad.jsonl.gz", "wt") as out:
        out.write('{"arxiv_id": "2402.03300"}\n{"arxiv_id": "2402.3300"}\n')
    with pytest.raises(PaperReleaseError, match=r"bad.jsonl.gz:2: field 'arxiv_id'"):
        list(read_papers(tmp_path / "bad.jsonl.gz"))


def test_release_papers_load_screened_on_titles_and_headings_with_month_latency(tmp_path, store):
    listed = [
        p
        for p in markdown_papers(README, "README.md", "acme/list")
        if p.arxiv_id in ("2503.14476", "2402.03300")
    ]
    write_papers(paper_rows(merge_papers(listed), []), tmp_path / "papers.jsonl.gz")
    store.write(
        [
            Node("Method", "dapo", {"arxiv_id": "2503.14476"}),
            Node("Framework", "fw", {}),
            Node("Commit", "c1", {"framework": "fw", "commit_date": "2025-05-01", "commit_ts": 1746057600}),
            Edge("IMPLEMENTS", ("Commit", "c1"), ("Method", "dapo"), {"rule": "r", "confidence": 1.0}),
            Edge("PART_OF", ("Commit", "c1"), ("Framework", "fw")),
        ]
    )
    sync_paper_release(store, path=tmp_path / "papers.jsonl.gz")
    dapo = store.read(
        "MATCH (p:Paper {arxiv_id: '2503.14476'}) RETURN p.title AS t, p.screened_on AS s, "
        "p.is_rl_llm AS rl, p.year_month AS ym, p.sources AS src"
    )
    assert dapo == [
        {
            "t": "DAPO: An Open-Source LLM Reinforcement Learning System at Scale",
            "s": "title+headings",  # the list files it under a heading: that is read too
            "rl": True,
            "ym": "2025-03",
            "src": ["acme/list"],
        }
    ]
    rows = run_query(store, "paper-implementations", {"arxiv_id": "2503.14476"}).rows
    assert [(r["days_after_paper"], r["date_precision"]) for r in rows] == [(61, "month")]  # from 2025-03-01


def test_cli_loads_a_fetched_list_and_keeps_other_sources(list_repo, tmp_path):
    _, bare = list_repo
    store = tmp_path / "g.lbug"
    with open_store(str(store)) as s:
        s.init()
        s.write([Node("Paper", "2503.14476", {"sources": ["other/list"]})])
    assert list_entry_for(bare).repo == "acme+list"  # not in the catalog: the folder's name
    result = CliRunner().invoke(
        app, ["load", "lists", "--repo", str(bare), "--name", "acme/list", "--store", str(store)]
    )
    assert result.exit_code == 0, result.output
    with open_store(str(store)) as s:
        row = s.read("MATCH (p:Paper {arxiv_id: '2503.14476'}) RETURN p.sources AS src, p.title AS t")
    assert row[0]["src"] == ["other/list", "acme/list"] and row[0]["t"].startswith("DAPO")
    missing = CliRunner().invoke(
        app, ["load", "lists", "--repo", str(tmp_path / "nope"), "--store", str(store)]
    )
    assert missing.exit_code != 0 and "no such repository" in missing.output


def test_a_list_loaded_again_unchanged_writes_nothing_and_a_changed_paper_is_written(list_repo, tmp_path):
    tree, bare = list_repo
    entry = PaperList("acme/list", ("README.md", "*.bib", "data/*.json"))
    with open_store(str(tmp_path / "g.lbug")) as s:
        s.init()
        first = sync_paper_list(s, bare, entry)
        assert first.written.nodes_created >= 6 and "6 new or changed" in first.notes[0]
        again = sync_paper_list(s, bare, entry)
        assert again.written == WriteStats() and "0 new or changed" in again.notes[0]
        # A new heading above one paper: that paper alone is written again, with both headings kept.
        Repo(tree).commit("Move Kimi", {"data/papers.json": PAPERS_JSON.replace('"Models"', '"Reports"')})
        Repo(tree).git(
            "push", "-q", str(bare), "HEAD:refs/heads/" + Repo(tree).git("branch", "--show-current").strip()
        )
        moved = sync_paper_list(s, bare, entry)
        assert "1 new or changed" in moved.notes[0]
        tags = s.read("MATCH (p:Paper {arxiv_id: '2501.12599'}) RETURN p.source_tags AS tags")[0]["tags"]
        assert tags == ["Models", "Reports"]
