"""The method catalog: the packaged data validates, bad rows are named, loads are atomic and idempotent."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from uptake.loaders.catalog import (
    CHANGES,
    DATA_FOLDER,
    CatalogError,
    catalog_records,
    read_catalog,
)
from uptake.sync.catalog import sync_catalog

# --- a small valid catalog the malformed cases start from ----------------------

ORGS = [{"slug": "acme", "name": "Acme", "kind": "company"}]
METHODS = [
    {
        "slug": "ppo",
        "name": "PPO",
        "aliases": ["PPO", "ppo", "PPOTrainer"],
        "arxiv_id": "1707.06347",
        "paper_title": "Proximal Policy Optimization Algorithms",
        "parent": None,
        "change": None,
        "change_detail": "clipped surrogate with a critic",
        "family": "policy-gradient",
    },
    {
        "slug": "grpo",
        "name": "GRPO",
        "aliases": ["grpo", "group_norm"],
        "ambiguous_aliases": ["group_norm"],
        "arxiv_id": "2402.03300",
        "paper_title": "DeepSeekMath",
        "parent": "ppo",
        "change": "advantage",
        "change_detail": "group-normalised reward, no critic",
        "family": "policy-gradient",
    },
    {
        "slug": "dr-grpo",
        "name": "Dr. GRPO",
        "aliases": ["dr_grpo"],
        "arxiv_id": "2503.20783",
        "paper_title": "Understanding R1-Zero-Like Training",
        "parent": "grpo",
        "change": "advantage",
        "change_detail": "no std scaling",
        "family": "policy-gradient",
    },
]
FRAMEWORKS = [
    {
        "slug": "acme-rl",
        "name": "Acme RL",
        "repo": "acme/rl",
        "organization": "acme",
        "license": "Apache-2.0",
        "language": "Python",
        "default_branch": "main",
        "first_commit_date": "2024-01-02T03:04:05+00:00",
        "supports": [{"method": "grpo", "evidence": "docs/grpo.md"}],
    }
]


def write_catalog(folder: Path, methods=METHODS, frameworks=FRAMEWORKS, orgs=ORGS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in (
        ("methods.jsonl", methods),
        ("frameworks.jsonl", frameworks),
        ("organizations.jsonl", orgs),
    ):
        (folder / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return folder


_DROP = object()  # marks a field to remove


def changed(rows: list[dict], index: int, **fields) -> list[dict]:
    rows = [dict(r) for r in rows]
    rows[index].update(fields)
    for name, value in list(fields.items()):
        if value is _DROP:
            del rows[index][name]
    return rows


# --- the packaged catalog ------------------------------------------------------


def test_packaged_catalog_validates_and_holds_the_core_methods():
    catalog = read_catalog()
    assert len(catalog.methods) >= 45
    dr = catalog.methods["dr-grpo"]
    assert (dr.parent, dr.change, dr.arxiv_id) == ("grpo", "advantage", "2503.20783")
    assert "dr_grpo" in dr.aliases
    assert catalog.methods["tis"].arxiv_id is None
    assert "gpg" in catalog.methods["gpg"].ambiguous_aliases
    for slug in ("trl", "verl", "openrlhf", "nemo-rl", "roll", "areal", "slime", "prime-rl", "skyrl"):
        framework = catalog.frameworks[slug]
        assert framework.organization in catalog.organizations
        assert framework.supports, f"{slug} documents no method"


def test_packaged_lineage_is_acyclic_and_every_parent_exists():
    methods = read_catalog().methods
    for slug, method in methods.items():
        seen = {slug}
        parent = method.parent
        while parent is not None:
            assert parent in methods, f"{slug}: parent {parent} missing"
            assert parent not in seen, f"{slug}: lineage loops at {parent}"
            seen.add(parent)
            parent = methods[parent].parent
        assert method.change in CHANGES if method.parent else method.change is None


def test_packaged_aliases_are_unique_unless_marked_ambiguous():
    owners: dict[str, set[str]] = {}
    methods = read_catalog().methods
    for method in methods.values():
        for alias in method.aliases:
            owners.setdefault(alias.casefold(), set()).add(method.slug)
    for alias, slugs in owners.items():
        if len(slugs) > 1:
            for slug in slugs:
                ambiguous = {a.casefold() for a in methods[slug].ambiguous_aliases}
                assert alias in ambiguous, f"{alias} shared by {slugs}"


def test_packaged_frameworks_match_the_shared_framework_list(shared_data):
    catalog = read_catalog()
    repos = {f.repo: f for f in catalog.frameworks.values()}
    for line in (shared_data / "frameworks.jsonl").read_text().splitlines():
        row = json.loads(line)
        framework = repos[row["repo"]]
        assert (framework.license, framework.first_commit_date) == (row["license"], row["first_commit_date"])


def test_records_carry_papers_lineage_and_evidence(tmp_path):
    catalog = read_catalog(write_catalog(tmp_path / "c"))
    records = list(catalog_records(catalog))
    edges = {(r.type, r.src[1], r.dst[1]): r.props for r in records if hasattr(r, "type")}
    assert edges[("EXTENDS", "dr-grpo", "grpo")]["change"] == "advantage"
    assert edges[("PROPOSES", "2402.03300", "grpo")]["source_kind"] == "catalog"
    supports = edges[("SUPPORTS", "acme-rl", "grpo")]
    assert (supports["source_kind"], supports["location"], supports["rule"]) == (
        "framework-docs",
        "docs/grpo.md",
        "catalog",
    )
    assert ("MAINTAINED_BY", "acme-rl", "acme") in edges
    papers = {r.key: r.props["title"] for r in records if getattr(r, "label", None) == "Paper"}
    assert papers["1707.06347"] == "Proximal Policy Optimization Algorithms"


# --- malformed rows: file, line and field are named ----------------------------

BAD_METHODS = [
    ("unknown-parent", changed(METHODS, 2, parent="grpoo"), 3, "parent", "unknown method 'grpoo'"),
    ("bad-change", changed(METHODS, 1, change="loss"), 2, "change", "'loss' is not one of"),
    ("bad-arxiv", changed(METHODS, 1, arxiv_id="2402.3300"), 2, "arxiv_id", "five digits after the dot"),
    ("bad-month", changed(METHODS, 1, arxiv_id="2413.03300"), 2, "arxiv_id", "not a new-style arXiv id"),
    ("versioned", changed(METHODS, 1, arxiv_id="2402.03300v2"), 2, "arxiv_id", "not a new-style"),
    ("bad-slug", changed(METHODS, 2, slug="Dr_GRPO"), 3, "slug", "is not a slug"),
    ("duplicate-slug", changed(METHODS, 2, slug="ppo"), 3, "slug", "already defined on line 1"),
    ("missing-field", changed(METHODS, 0, name=_DROP), 1, "name", "missing"),
    ("unknown-field", changed(METHODS, 0, parnet="x"), 1, "parnet", "unknown field"),
    ("aliases-not-list", changed(METHODS, 0, aliases="ppo"), 1, "aliases", "must be a list"),
    ("no-aliases", changed(METHODS, 0, aliases=[]), 1, "aliases", "at least 1"),
    (
        "shared-alias",
        changed(METHODS, 2, aliases=["dr_grpo", "grpo"]),
        3,
        "aliases",
        "also an alias of 'grpo'",
    ),
    ("shared-alias-case", changed(METHODS, 2, aliases=["GRPO"]), 3, "aliases", "also an alias of 'grpo'"),
    (
        "ambiguous-not-alias",
        changed(METHODS, 2, ambiguous_aliases=["drgrpo"]),
        3,
        "ambiguous_aliases",
        "not one of the row's aliases",
    ),
    ("bad-family", changed(METHODS, 0, family="rl"), 1, "family", "'rl' is not one of"),
    ("change-without-parent", changed(METHODS, 0, change="clip"), 1, "change", "exactly when parent"),
    ("title-missing", changed(METHODS, 0, paper_title=None), 1, "paper_title", "required when arxiv_id"),
    ("cycle", changed(METHODS, 0, parent="dr-grpo", change="other"), 1, "parent", "lineage loops"),
    ("not-text", changed(METHODS, 0, name=3), 1, "name", "must be a string"),
    ("bad-computation", changed(METHODS, 0, computation="log(", computation_context="rm"), 1, "computation",
     "is not a regular expression"),
    ("computation-alone", changed(METHODS, 0, computation="logsigmoid"), 1, "computation_context",
     "exactly when computation"),
    ("bad-shipped-with", changed(METHODS, 0, shipped_with="critic("), 1, "shipped_with",
     "is not a regular expression"),
    ("spelling-not-ambiguous", changed(METHODS, 1, package_spellings={"acme_rl": ["grpo"]}), 2,
     "package_spellings", "not one of the row's ambiguous_aliases"),
    ("spelling-bad-package", changed(METHODS, 1, package_spellings={"Acme-RL": ["group_norm"]}), 2,
     "package_spellings", "is not a package name"),
    ("spelling-not-object", changed(METHODS, 1, package_spellings=["acme_rl"]), 2, "package_spellings",
     "must be an object"),
    ("spelling-empty", changed(METHODS, 1, package_spellings={"acme_rl": []}), 2, "package_spellings",
     "at least 1"),
    ("spelled-twice", changed(
        changed(METHODS, 1, package_spellings={"acme_rl": ["group_norm"]}), 2,
        aliases=["dr_grpo", "group_norm"], ambiguous_aliases=["group_norm"],
        package_spellings={"acme_rl": ["group_norm"]},
    ), 3, "package_spellings", "'acme_rl' already spells 'group_norm' for 'grpo'"),
]  # fmt: skip


@pytest.mark.parametrize(
    "methods,line,field,problem", [c[1:] for c in BAD_METHODS], ids=[c[0] for c in BAD_METHODS]
)
def test_malformed_method_row_is_named(tmp_path, methods, line, field, problem):
    folder = write_catalog(tmp_path / "bad", methods=methods)
    with pytest.raises(CatalogError) as err:
        read_catalog(folder)
    message = str(err.value)
    assert message.startswith(f"{folder / 'methods.jsonl'}:{line}: field {field!r}: "), message
    assert problem in message


BAD_FRAMEWORKS = [
    ("unknown-org", changed(FRAMEWORKS, 0, organization="nobody"), "organization", "unknown organization"),
    (
        "unknown-method",
        changed(FRAMEWORKS, 0, supports=[{"method": "grpoo", "evidence": "x.md"}]),
        "supports",
        "unknown method 'grpoo'",
    ),
    (
        "absolute-evidence",
        changed(FRAMEWORKS, 0, supports=[{"method": "grpo", "evidence": "/etc/x"}]),
        "supports",
        "path inside the repository",
    ),
    ("bad-repo", changed(FRAMEWORKS, 0, repo="acme"), "repo", "not owner/name"),
    ("bad-date", changed(FRAMEWORKS, 0, first_commit_date="last year"), "first_commit_date", "not an ISO"),
]


@pytest.mark.parametrize(
    "frameworks,field,problem", [c[1:] for c in BAD_FRAMEWORKS], ids=[c[0] for c in BAD_FRAMEWORKS]
)
def test_malformed_framework_row_is_named(tmp_path, frameworks, field, problem):
    folder = write_catalog(tmp_path / "bad", frameworks=frameworks)
    with pytest.raises(CatalogError) as err:
        read_catalog(folder)
    assert str(err.value).startswith(f"{folder / 'frameworks.jsonl'}:1: field {field!r}: ")
    assert problem in str(err.value)


def test_invalid_json_and_bad_org_kind_are_named(tmp_path):
    folder = write_catalog(tmp_path / "json")
    (folder / "methods.jsonl").write_text(
        (folder / "methods.jsonl").read_text() + "\n{not json\n", encoding="utf-8"
    )
    with pytest.raises(CatalogError, match=r"methods\.jsonl:5: not valid JSON"):
        read_catalog(folder)
    folder = write_catalog(tmp_path / "kind", orgs=[{"slug": "acme", "name": "Acme", "kind": "guild"}])
    with pytest.raises(CatalogError, match=r"organizations\.jsonl:1: field 'kind': 'guild'"):
        read_catalog(folder)


def test_missing_file_is_named(tmp_path):
    folder = write_catalog(tmp_path / "c")
    (folder / "frameworks.jsonl").unlink()
    with pytest.raises(CatalogError, match="frameworks.jsonl: file not found"):
        read_catalog(folder)


# --- loading into a store ------------------------------------------------------


def test_loading_twice_gives_identical_counts(store):
    sync_catalog(store)
    first = store.counts()
    catalog = read_catalog()
    assert first["Method"] == len(catalog.methods)
    assert first["Framework"] == len(catalog.frameworks)
    assert first["SUPPORTS"] == sum(len(f.supports) for f in catalog.frameworks.values())
    assert first["EXTENDS"] == sum(1 for m in catalog.methods.values() if m.parent)
    sync_catalog(store)
    assert store.counts() == first
    rows = store.read(
        "MATCH (:Method {slug: 'dr-grpo'})-[e:EXTENDS]->(p:Method) RETURN p.slug AS parent, e.change AS c"
    )
    assert rows == [{"parent": "grpo", "c": "advantage"}]
    rows = store.read(
        "MATCH (:Framework {slug: 'openrlhf'})-[r:SUPPORTS]->(:Method {slug: 'dr-grpo'}) "
        "RETURN r.location AS location"
    )
    assert rows == [{"location": "README.md"}]


def test_malformed_catalog_leaves_a_loaded_graph_unchanged(store, tmp_path):
    sync_catalog(store)
    before = store.counts()
    folder = tmp_path / "bad"
    shutil.copytree(DATA_FOLDER, folder)
    lines = (folder / "methods.jsonl").read_text().splitlines()
    # An edit early in the file that a partial write would expose, and a bad row at the end.
    first = json.loads(lines[0])
    first["name"] = "Renamed"
    lines[0] = json.dumps(first)
    bad = json.loads(lines[-1])
    bad.update(slug="new-method", aliases=["new_method"], parent="no-such-method", change="other")
    lines.append(json.dumps(bad))
    (folder / "methods.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(CatalogError, match=rf"methods\.jsonl:{len(lines)}: field 'parent'"):
        sync_catalog(store, folder)
    assert store.counts() == before
    name = store.read("MATCH (m:Method {slug: $s}) RETURN m.name AS n", {"s": first["slug"]})
    assert name == [{"n": read_catalog().methods[first["slug"]].name}]


def test_unknown_facts_are_null_and_draw_no_maintainer(tmp_path):
    unknown = changed(FRAMEWORKS, 0, organization=None, license=None, first_commit_date=None, supports=_DROP)
    catalog = read_catalog(write_catalog(tmp_path / "c", frameworks=unknown))
    records = list(catalog_records(catalog))
    framework = next(r for r in records if getattr(r, "label", None) == "Framework")
    assert framework.props["license"] is None and framework.props["maintainer"] is None
    assert not [r for r in records if getattr(r, "type", None) in ("MAINTAINED_BY", "SUPPORTS")]
    dropped = changed(FRAMEWORKS, 0, license=_DROP)  # the shipped file spells every fact out
    with pytest.raises(CatalogError, match=r"frameworks\.jsonl:1: field 'license': missing"):
        read_catalog(write_catalog(tmp_path / "d", frameworks=dropped))


def test_the_five_added_frameworks_ship_with_their_checked_facts():
    catalog = read_catalog()
    facts = {
        slug: (f.repo, f.license, f.first_commit_date, f.organization)
        for slug, f in catalog.frameworks.items()
        if slug in ("ms-swift", "axolotl", "trinity-rft", "art", "rllm")
    }
    assert facts == {
        "ms-swift": ("modelscope/ms-swift", "Apache-2.0", "2023-08-01T23:06:40+08:00", "modelscope"),
        "axolotl": ("axolotl-ai-cloud/axolotl", "Apache-2.0", "2023-04-13T17:49:54-04:00", "axolotl-ai"),
        "trinity-rft": ("modelscope/Trinity-RFT", None, None, "modelscope"),  # no copy to check against
        "art": ("OpenPipe/ART", "Apache-2.0", "2025-03-10T12:25:48-06:00", "openpipe"),
        "rllm": ("rllm-org/rllm", "Apache-2.0", "2025-01-10T22:21:10-08:00", "rllm"),
    }
    assert not catalog.frameworks["trinity-rft"].supports


def test_a_user_framework_file_may_not_reuse_a_shipped_repository(tmp_path):
    user = tmp_path / "mine.jsonl"
    user.write_text(json.dumps({"slug": "my-trl", "name": "Mine", "repo": "huggingface/trl"}) + "\n")
    with pytest.raises(
        CatalogError, match=rf"{user}:1: field 'repo': huggingface/trl is already the repository"
    ):
        read_catalog(user_frameworks=user)
    user.write_text(
        json.dumps({"slug": "kit", "name": "Kit", "repo": "acme/kit", "organization": "acme"}) + "\n"
    )
    with pytest.raises(CatalogError, match=rf"{user}:1: field 'organization': unknown organization 'acme'"):
        read_catalog(user_frameworks=user)
    user.write_text(
        json.dumps({"slug": "kit", "name": "Kit", "repo": "acme/kit", "organization": "nvidia"}) + "\n"
    )
    assert read_catalog(user_frameworks=user).frameworks["kit"].source == "user"
