"""Model technical reports: facts file, nodes and STATES_USE_OF edges with evidence, on both stores."""

from __future__ import annotations

import json

import pytest
from catalog_entries import method, org
from uptake.loaders.arxiv import PaperAnalyzer, PaperRecord
from uptake.loaders.reports import REPORTS_FILE, ReportError, read_report_facts
from uptake.sync.arxiv import sync_papers
from uptake.sync.reports import sync_reports

METHODS = [
    method("grpo", "GRPO", ("GRPO", "grpo"), "2402.03300"),
    method("ppo", "PPO", ("PPO", "ppo"), "1707.06347"),
    method("cispo", "CISPO", ("CISPO", "cispo"), "2506.13585"),
    method("dpo", "DPO", ("DPO", "dpo"), "2305.18290"),
    method("icepop", "IcePop", ("IcePop", "icepop"), "2510.18855"),
    method("gspo", "GSPO", ("GSPO", "gspo"), "2507.18071"),
]
ORGS = [
    org("deepseek", "DeepSeek"),
    org("minimax", "MiniMax"),
    org("tsinghua", "Tsinghua University", "university"),
]


def test_the_shipped_facts_agree_with_the_study(shared_data):
    ours = {f.arxiv_id: f for f in read_report_facts()}
    study = [json.loads(line) for line in (shared_data / "model_reports.jsonl").read_text().splitlines()]
    assert set(ours) == {row["arxiv_id"] for row in study}
    for row in study:
        mine = ours[row["arxiv_id"]]
        assert mine.largest_params_b == row["largest_params_b"]
        assert mine.open_weights == row["open_weights"]
        assert list(mine.rl_methods_stated) == row["rl_methods_stated"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"arxiv_id": "2501.12948"}', "field 'model_family': missing"),
        (
            '{"arxiv_id": "2501.12948", "model_family": "X", "organizations": [], "largest_params_b": 1, '
            '"open_weights": true, "rl_methods_stated": [], "rl_method_stated": ["GRPO"]}',
            "field 'rl_method_stated': unknown field",
        ),
        (
            '{"arxiv_id": "nope", "model_family": "X", "organizations": [], "largest_params_b": 1, '
            '"open_weights": true, "rl_methods_stated": []}',
            "field 'arxiv_id'",
        ),
        (
            '{"arxiv_id": "2501.12948", "model_family": "X", "organizations": [], "largest_params_b": "big", '
            '"open_weights": true, "rl_methods_stated": []}',
            "field 'largest_params_b'",
        ),
    ],
)
def test_bad_facts_name_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "reports.jsonl"
    path.write_text(REPORTS_FILE.read_text().splitlines()[0] + "\n" + line + "\n")
    with pytest.raises(ReportError, match=rf"reports\.jsonl:2: .*{message}"):
        read_report_facts(path)


def _states(store) -> dict[tuple[str, str], dict]:
    rows = store.read(
        "MATCH (r:ModelReport)-[s:STATES_USE_OF]->(m:Method) "
        "RETURN r.arxiv_id AS report, m.slug AS method, s.rule AS rule, s.location AS location, "
        "s.identifier AS identifier, s.confidence AS confidence"
    )
    return {(r["report"], r["method"]): r for r in rows}


def test_reports_load_with_stated_methods_and_evidence(store, tmp_path):
    # The MiniMax-M1 abstract, as composed here, says it uses CISPO and GSPO.
    papers = [
        PaperRecord(
            "2506.13585",
            "A composed title",
            "We train the model with CISPO, our clipped importance-sampling objective, and compare it "
            "with GSPO. We also used GSPO for an ablation.",
        )
    ]
    sync_papers(store, papers)
    full_text = tmp_path / "r1.txt"
    full_text.write_text("Our RL stage uses PPO as a baseline. Unrelated: DPO exists.")
    stats = sync_reports(store, catalog=(METHODS, ORGS), full_texts={"2501.12948v2": full_text})
    assert stats.written.nodes_created > 31

    reports = store.read(
        "MATCH (r:ModelReport) RETURN r.arxiv_id AS id, r.largest_params_b AS size, r.open_weights AS open, "
        "r.model_family AS family"
    )
    by_id = {r["id"]: r for r in reports}
    assert len(by_id) == 31
    assert by_id["2501.12948"]["size"] == 671 and by_id["2501.12948"]["open"] is True
    assert by_id["2501.12599"]["size"] is None and by_id["2501.12599"]["open"] is False

    states = _states(store)
    assert states[("2501.12948", "grpo")]["rule"] == "stated-in-report-facts"
    assert states[("2501.12948", "grpo")]["location"].startswith("model_reports.jsonl:")
    assert states[("2506.13585", "cispo")]["rule"] == "stated-in-report-facts"  # facts win over text
    assert states[("2506.13585", "gspo")]["rule"] == "use-statement-in-text"
    assert states[("2506.13585", "gspo")]["location"] == "arXiv:2506.13585 abstract"
    assert states[("2501.12948", "ppo")]["location"] == "arXiv:2501.12948 full text"
    assert ("2501.12948", "dpo") not in states  # named, but not as used
    # Methods the catalog does not know become Method nodes of their own.
    assert ("2510.22115", "evo-cot") in states and ("2510.18855", "icepop") in states

    publishers = store.read(
        "MATCH (r:ModelReport {arxiv_id: '2503.24290'})-[:PUBLISHED_BY]->(o:Organization) "
        "RETURN o.slug AS slug"
    )
    assert sorted(r["slug"] for r in publishers) == ["stepfun", "tsinghua"]

    before = store.counts()
    again = sync_reports(store, catalog=(METHODS, ORGS), full_texts={"2501.12948": full_text})
    assert again.written.nodes_created == 0 and again.written.edges_created == 0
    assert store.counts() == before


def test_analyzed_papers_carry_screening_features_and_proposals(store):
    analyzer = PaperAnalyzer(METHODS, ORGS)
    paper = PaperRecord(
        "2507.18071",
        "GSPO: Sequence-Level Ratios for Stable RL of Language Models",
        "We propose a sequence-level importance ratio and clipping for the GRPO objective in reinforcement "
        "learning of LLMs, training Qwen3-235B-A22B. We also introduce SeqMask, a new masking rule. "
        "Code: https://github.com/example/gspo",
        affiliations=("MiniMax, Shanghai",),
    )
    sync_papers(store, [paper], analyzer)
    (row,) = store.read(
        "MATCH (p:Paper {arxiv_id: '2507.18071'}) RETURN p.is_general_method AS general, p.is_rl_llm AS rl, "
        "p.max_policy_params_b AS size, p.loss_changes AS changes, p.code_url AS code, "
        "p.screening_reasons AS reasons, p.organizations AS orgs"
    )
    assert row["general"] and row["rl"] and row["size"] == 235
    assert set(row["changes"]) == {"clip", "mask"} and row["code"] == "https://github.com/example/gspo"
    assert json.loads(row["reasons"])["kind"] == "general-method" and row["orgs"] == ["minimax"]
    proposed = store.read(
        "MATCH (:Paper {arxiv_id: '2507.18071'})-[e:PROPOSES]->(m:Method) "
        "RETURN m.slug AS slug, m.origin AS origin, e.rule AS rule ORDER BY slug"
    )
    assert [(r["slug"], r["rule"]) for r in proposed] == [
        ("gspo", "catalog-arxiv-id"),
        ("seqmask", "we-propose"),
    ]
    assert proposed[1]["origin"] == "extracted"
    affiliated = store.read("MATCH (:Paper)-[e:AFFILIATED_WITH]->(o:Organization) RETURN o.slug AS slug")
    assert [r["slug"] for r in affiliated] == ["minimax"]
