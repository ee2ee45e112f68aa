"""`uptake export`: GraphML/GEXF/JSON/Mermaid of a lineage, a path query and a framework, on both stores."""

from __future__ import annotations

import json

import networkx as nx
import pytest
import typer
from conftest import NEO4J_PASSWORD, NEO4J_USER
from headless_chromium import chromium_page, mermaid_js
from study_fixture import COMMITS, EXTENDS, study_records
from typer.testing import CliRunner
from uptake.api.cli import export as export_commands
from uptake.api.cli.errors import fail
from uptake.api.cli.options import connect
from uptake.api.views.export import export_graph, to_mermaid
from uptake.api.views.graph import Graph, GraphNode, GraphRelationship
from uptake.api.views.graph_style import caption, shorten
from uptake.queries.run import run_query


@pytest.fixture
def cli(monkeypatch):
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    app = typer.Typer()
    app.command("noop")(lambda: None)  # a second command keeps `export` a named subcommand
    export_commands.register(app, typer.Typer(), connect, fail)
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, list(args), catch_exceptions=False)

    return run


@pytest.fixture
def filled(store):
    store.write_all(study_records())  # write_all makes the batch visible to other handles
    return store


def lineage_from_rows(store, slug: str) -> tuple[set[str], set[tuple[str, str, str]]]:
    """Nodes and EXTENDS edges read straight off the stored query's rows (child -> parent)."""
    rows = run_query(store, "method-lineage", {"slug": slug}).rows
    nodes, edges = {f"Method:{slug}"}, set()
    for row in rows:
        child, parent = (
            (row["via"], row["method"]) if row["direction"] == "ancestor" else (row["method"], row["via"])
        )
        nodes |= {f"Method:{child}", f"Method:{parent}"}
        edges.add((f"Method:{child}", f"Method:{parent}", row["change"]))
    return nodes, edges


def test_graphml_of_a_lineage_opens_in_networkx_with_the_query_nodes_and_edges(filled, cli, tmp_path):
    out = tmp_path / "grpo.graphml"
    result = cli(
        "export",
        "--format",
        "graphml",
        "--query",
        "method-lineage",
        "--param",
        "slug=grpo",
        "--out",
        str(out),
        "--store",
        filled.location,
    )
    assert result.exit_code == 0, result.output
    g = nx.read_graphml(out, force_multigraph=True)
    nodes, edges = lineage_from_rows(filled, "grpo")
    assert set(g.nodes) == nodes
    assert {(u, v, d["change"]) for u, v, d in g.edges(data=True)} == edges
    # ...and the rows agree with the fixture, so the comparison is not empty on both sides.
    assert edges == {(f"Method:{c}", f"Method:{p}", ch) for c, p, ch in EXTENDS}
    assert all(d["type"] == "EXTENDS" for _, _, d in g.edges(data=True))
    assert g.nodes["Method:dapo"]["caption"] == "DAPO" and g.nodes["Method:dapo"]["labels"] == "Method"


def test_a_descendant_lineage_exports_only_its_own_branch(filled, cli, tmp_path):
    out = tmp_path / "dapo.graphml"
    cli(
        "export",
        "-f",
        "graphml",
        "-q",
        "method-lineage",
        "-p",
        "slug=dapo",
        "-o",
        str(out),
        "-s",
        filled.location,
    )
    g = nx.read_graphml(out, force_multigraph=True)
    assert set(g.nodes) == {"Method:dapo", "Method:grpo", "Method:ppo"}
    assert {(u, v) for u, v in g.edges()} == {("Method:dapo", "Method:grpo"), ("Method:grpo", "Method:ppo")}


def test_path_query_exports_paper_proposal_and_implementing_commits(filled, cli, tmp_path):
    out = tmp_path / "path.json"
    result = cli(
        "export",
        "-f",
        "json",
        "-q",
        "paper-proposal-implementation",
        "-p",
        "arxiv_id=2402.03300",
        "-o",
        str(out),
        "-s",
        filled.location,
    )
    assert result.exit_code == 0, result.output
    body = json.loads(out.read_text())
    edges = {(r["source"], r["type"], r["target"]) for r in body["relationships"]}
    grpo_commits = {(sha, fw) for sha, fw, _, method, _ in COMMITS if method == "grpo"}
    expected = {("Paper:2402.03300", "PROPOSES", "Method:grpo")}
    expected |= {(f"Commit:{sha}", "IMPLEMENTS", "Method:grpo") for sha, _ in grpo_commits}
    expected |= {(f"Commit:{sha}", "PART_OF", f"Framework:{fw}") for sha, fw in grpo_commits}
    assert edges == expected
    commit = next(n for n in body["nodes"] if n["id"] == "Commit:c-trl-grpo")
    assert commit["caption"] == "c-trl-g"  # short sha
    assert (
        next(n for n in body["nodes"] if n["id"] == "Paper:2402.03300")["url"]
        == "https://arxiv.org/abs/2402.03300"
    )


def test_framework_export_as_gexf_has_its_methods_rules_and_fixed_failures(filled, cli, tmp_path):
    out = tmp_path / "trl.gexf"
    result = cli("export", "-f", "gexf", "--framework", "trl", "-o", str(out), "-s", filled.location)
    assert result.exit_code == 0, result.output
    g = nx.read_gexf(out)
    trl_methods = {m for _, fw, _, m, _ in COMMITS if fw == "trl" and m}
    assert {n for n in g.nodes if n.startswith("Method:")} >= {f"Method:{m}" for m in trl_methods}
    assert g.has_edge("Framework:trl", "ContributionRule:trl/dco")
    assert g.has_edge("FailureReport:trl#12/nan-loss", "Issue:trl#12")
    assert g.has_edge("Commit:c-trl-fix", "Issue:trl#12")
    assert g.nodes["Framework:trl"]["label"] == "TRL"


def test_export_errors_name_the_problem(filled, cli):
    result = cli("export", "-f", "svg", "-q", "method-lineage", "-s", filled.location)
    assert result.exit_code == 1 and "graphml, gexf, json, mermaid" in result.output
    result = cli("export", "-f", "json", "-s", filled.location)
    assert result.exit_code == 1 and "exactly one of --query" in result.output
    result = cli("export", "-f", "json", "-q", "no-such", "-s", filled.location)
    assert result.exit_code == 1 and "no-such" in result.output
    result = cli("export", "-f", "json", "-q", "method-lineage", "-p", "slugg=grpo", "-s", filled.location)
    assert result.exit_code == 1 and "slugg" in result.output
    result = cli("export", "-f", "json", "--framework", "nope", "-s", filled.location)
    assert result.exit_code == 1 and "nope" in result.output


def test_captions_shorten_titles_at_a_word_and_cut_shas():
    title = "Group Relative Policy Optimization for Mathematical Reasoning in Open Language Models"
    short = shorten(title)
    assert short.endswith("…") and len(short) <= 42 and title.startswith(short[:-1])
    assert caption("Paper", "2402.03300", {"title": title}) == short
    assert caption("Commit", "0123456789abcdef") == "0123456"
    assert caption("Method", "dr-grpo", {"name": "Dr. GRPO"}) == "Dr. GRPO"


def tricky_graph() -> Graph:
    nodes = [
        GraphNode(id="Paper:1", label="Paper", key="1", properties={"title": 'A "quoted" <b>title</b> | #1'}),
        GraphNode(id="Method:a", label="Method", key="a", name="A-PO"),
        GraphNode(id="Method:b", label="Method", key="b", name="B`PO"),
    ]
    rels = [
        GraphRelationship(id="r1", type="PROPOSES", source="Paper:1", target="Method:a"),
        GraphRelationship(
            id="r2", type="EXTENDS", source="Method:b", target="Method:a", properties={"change": "clip"}
        ),
    ]
    return Graph(nodes=nodes, relationships=rels)


def render_mermaid(texts: list[str]) -> list[dict]:
    """Render each diagram with Mermaid's own renderer in Chromium; the SVG's text or the parse error."""
    with chromium_page() as page:
        page.set_content("<html><body></body></html>")
        page.add_script_tag(path=str(mermaid_js()))
        return page.evaluate(
            """async (texts) => {
                mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
                const out = [];
                for (const [i, text] of texts.entries()) {
                    try {
                        const {svg} = await mermaid.render('d' + i, text);
                        const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
                        out.push({ok: true, nodes: doc.querySelectorAll('g.node').length,
                                  edges: doc.querySelectorAll('.edgePaths path').length,
                                  text: doc.documentElement.textContent});
                    } catch (e) { out.push({ok: false, error: String(e && e.message || e)}); }
                }
                return out;
            }""",
            texts,
        )


def test_mermaid_exports_render_with_mermaid(filled, cli):
    lineage = cli("export", "-f", "mermaid", "-q", "method-lineage", "-p", "slug=grpo", "-s", filled.location)
    path = cli("export", "-f", "mermaid", "-q", "paper-proposal-implementation", "-s", filled.location)
    framework = cli("export", "-f", "mermaid", "--framework", "trl", "-s", filled.location)
    texts = [lineage.stdout, path.stdout, framework.stdout, to_mermaid(tricky_graph())]
    assert lineage.stdout.startswith("flowchart BT")
    results = render_mermaid(texts + ['flowchart LR\n  a["unclosed\n'])
    for text, result in zip(texts, results[:-1], strict=True):
        assert result["ok"], (result, text)
    assert results[0]["nodes"] == 5 and results[0]["edges"] == 4
    for word in ("DAPO", "GSPO", "PPO", "extends: clip"):
        assert word in results[0]["text"]
    assert '"quoted"' in results[3]["text"] and "<b>title</b>" in results[3]["text"]
    assert not results[-1]["ok"]  # the check can fail: a broken diagram does not render


def test_every_format_writes_to_stdout_without_out(filled, cli):
    for fmt, marker in (
        ("graphml", "<graphml"),
        ("gexf", "<gexf"),
        ("json", '"nodes"'),
        ("mermaid", "flowchart"),
    ):
        result = cli("export", "-f", fmt, "-q", "method-lineage", "-s", filled.location)
        assert result.exit_code == 0 and marker in result.stdout
    assert "Paper:1" in export_graph(tricky_graph(), "graphml")
