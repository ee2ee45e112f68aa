"""The graph's schema, declared once.

Both stores derive everything from these declarations: Ladybug DDL, Neo4j
constraints and indexes, record validation, and the day-number columns that
let stored queries do date arithmetic identically on both engines.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

# Bump when a declaration below changes in a way an existing store cannot absorb.
SCHEMA_VERSION = 4

PROPERTY_TYPES = ("STRING", "INT64", "DOUBLE", "BOOL", "DATE", "STRING[]")


@dataclass(frozen=True)
class Prop:
    name: str
    type: str = "STRING"
    indexed: bool = False
    doc: str = ""

    def __post_init__(self) -> None:
        if self.type not in PROPERTY_TYPES:
            raise ValueError(f"property {self.name}: unknown type {self.type}")


def day_column(date_prop: str) -> str:
    """Name of the integer day-number column derived from a DATE property."""
    stem = date_prop[: -len("_date")] if date_prop.endswith("_date") else date_prop
    return f"{stem}_day"


@dataclass(frozen=True)
class NodeType:
    label: str
    key: str
    props: tuple[Prop, ...] = ()
    doc: str = ""

    @cached_property
    def all_props(self) -> tuple[Prop, ...]:
        """Key first, then declared properties, then derived day numbers."""
        derived = tuple(
            Prop(day_column(p.name), "INT64", indexed=p.indexed) for p in self.props if p.type == "DATE"
        )
        return (Prop(self.key),) + self.props + derived

    @cached_property
    def prop_types(self) -> dict[str, str]:
        return {p.name: p.type for p in self.all_props}


@dataclass(frozen=True)
class RelType:
    type: str
    endpoints: tuple[tuple[str, str], ...]
    props: tuple[Prop, ...] = ()
    doc: str = ""

    @cached_property
    def all_props(self) -> tuple[Prop, ...]:
        derived = tuple(Prop(day_column(p.name), "INT64") for p in self.props if p.type == "DATE")
        return self.props + derived

    @cached_property
    def prop_types(self) -> dict[str, str]:
        return {p.name: p.type for p in self.all_props}


# Every inferred link carries these, so a person can audit why it exists.
EVIDENCE = (
    Prop("source_kind", doc="commit-message, diff, issue-body, abstract, catalog, ..."),
    Prop("location", doc="where: path:line, issue#12 body, abstract"),
    Prop("identifier", doc="the matched text: arXiv id, alias, option value"),
    Prop("rule", doc="name of the rule that made the link"),
    Prop("confidence", "DOUBLE"),
)

# What a commit's link to a method adds to its evidence: the kind of implementation, and whether
# it was found in a copied tree of another framework (so queries can leave it out).
COMMIT_EVIDENCE = EVIDENCE + (
    Prop(
        "implementation",
        doc="IMPLEMENTS only: code (package code users run) or recipe (a runnable example "
        "config or script that enables the method)",
    ),
    Prop(
        "vendored",
        "BOOL",
        doc="true when the evidence is in a copied tree of another framework, not the framework's own code "
        "(such an implementation is stored as VENDORS)",
    ),
)

_THREAD_PROPS = (
    Prop("framework", indexed=True),
    Prop("number", "INT64"),
    Prop("title"),
    Prop("state"),
    Prop("author"),
    Prop("author_association"),
    Prop("created_date", "DATE"),
    Prop("closed_date", "DATE"),
    Prop("updated_at", doc="ISO timestamp of the last update, for incremental loads"),
    Prop("comments", "INT64"),
    Prop("first_maintainer_reply_date", "DATE"),
    Prop("labels", "STRING[]"),
    Prop("url"),
    Prop("source_kind", doc="git: known from commit messages only; github: read from the API"),
)

NODE_TYPES: dict[str, NodeType] = {
    n.label: n
    for n in (
        NodeType(
            "Paper",
            "arxiv_id",
            (
                Prop("title"),
                Prop("abstract"),
                Prop("authors", "STRING[]"),
                Prop("categories", "STRING[]"),
                Prop("primary_category"),
                Prop("published_date", "DATE", indexed=True, doc="first version"),
                Prop("updated_date", "DATE"),
                Prop("year_month"),
                Prop(
                    "month_date",
                    "DATE",
                    doc="first day of year_month: latencies count from it where the day is unknown",
                ),
                Prop("source_tags", "STRING[]"),
                Prop("sources", "STRING[]"),
                Prop("is_rl_llm", "BOOL"),
                Prop("is_general_method", "BOOL"),
                Prop("screening_confidence", "DOUBLE"),
                Prop("screening_reasons"),
                Prop(
                    "screened_on",
                    doc="what screening read, joined by +: title, abstract, headings (a list's sections)",
                ),
                Prop("max_policy_params_b", "DOUBLE"),
                Prop("loss_changes", "STRING[]", doc="coefficient, clip, mask, weight"),
                Prop("changes_existing_loss", "BOOL"),
                Prop("code_url"),
                Prop("organizations", "STRING[]"),
            ),
            "An arXiv paper.",
        ),
        NodeType(
            "Method",
            "slug",
            (
                Prop("name"),
                Prop("aliases", "STRING[]"),
                Prop(
                    "ambiguous_aliases",
                    "STRING[]",
                    doc="aliases that also mean something else; matchers need more context",
                ),
                Prop("arxiv_id"),
                Prop("family", doc="policy-gradient, preference, distillation, ..."),
                Prop("loss_change", doc="what it changes relative to its parent"),
                Prop("description"),
                Prop("origin", doc="catalog or extracted"),
            ),
            "An RL training method for language models.",
        ),
        NodeType(
            "Framework",
            "slug",
            (
                Prop("name"),
                Prop("repo"),
                Prop("license"),
                Prop("language"),
                Prop("default_branch"),
                Prop("first_commit_date", "DATE"),
                Prop("maintainer"),
                Prop("mined_head", doc="last commit the git miner finished; the next run starts there"),
                Prop("mined_tags", doc="digest of the tags seen by the last mining run"),
            ),
            "An open-source RL post-training framework.",
        ),
        NodeType(
            "Commit",
            "sha",
            (
                Prop("framework", indexed=True),
                Prop("parents", "STRING[]"),
                Prop("author_name"),
                Prop("author_domain"),
                Prop("author_date", "DATE"),
                Prop("commit_date", "DATE", indexed=True),
                Prop("committed_at", doc="ISO timestamp with offset"),
                Prop("commit_ts", "INT64", doc="committer time in seconds since 1970 (UTC), for ordering"),
                Prop("subject"),
                Prop("pr_number", "INT64"),
                Prop("files_changed", "INT64"),
                Prop("insertions", "INT64"),
                Prop("deletions", "INT64"),
                Prop("paths", "STRING[]"),
                Prop("is_merge", "BOOL"),
                Prop(
                    "excluded",
                    doc="why this commit never counts as an implementation: reverted, force-pushed away",
                ),
                Prop(
                    "incomplete",
                    "BOOL",
                    doc="some files' contents were missing from the mined copy; mined again when present",
                ),
                Prop("missing_files", "INT64", doc="how many changed files could not be read"),
                Prop("missing_paths", "STRING[]", doc="the first 50 of them"),
            ),
            "A commit of a framework's history.",
        ),
        NodeType(
            "Release",
            "id",
            (
                Prop("framework", indexed=True),
                Prop("tag"),
                Prop("release_date", "DATE"),
                Prop("commit_sha"),
            ),
            "A tagged release; id is framework/tag.",
        ),
        NodeType(
            "PullRequest",
            "id",
            _THREAD_PROPS
            + (
                Prop("merged_date", "DATE"),
                Prop("merge_commit_sha"),
            ),
            "A pull request; id is framework#number.",
        ),
        NodeType("Issue", "id", _THREAD_PROPS, "An issue; id is framework#number."),
        NodeType(
            "FailureReport",
            "id",
            (
                Prop("symptom", doc="nan-loss, divergence, collapse, kl-blowup, oom, hang, ..."),
                Prop("symptoms", "STRING[]"),
                Prop("component"),
                Prop("framework", indexed=True),
                Prop("reported_date", "DATE"),
                Prop("rule"),
                Prop("confidence", "DOUBLE"),
                Prop("location"),
                Prop("identifier"),
                Prop("source_kind", doc="issue: from the thread; git: from a fix commit's subject"),
            ),
            "A training failure reported in an issue, or stated by the commit that fixed it.",
        ),
        NodeType(
            "ModelReport",
            "arxiv_id",
            (
                Prop("title"),
                Prop("model_family"),
                Prop("organization"),
                Prop("largest_params_b", "DOUBLE"),
                Prop("open_weights", "BOOL"),
                Prop("published_date", "DATE"),
            ),
            "The technical report of a large model.",
        ),
        NodeType(
            "Organization",
            "slug",
            (Prop("name"), Prop("kind", doc="company, lab, university, community")),
            "A company, lab or university.",
        ),
        NodeType(
            "ContributionRule",
            "id",
            (
                Prop("framework", indexed=True),
                Prop("kind", doc="contributing-guide, pr-template, cla, dco, lint, ..."),
                Prop("value"),
                Prop("source_path"),
                Prop("commit_sha"),
                Prop("rule_date", "DATE"),
            ),
            "What a framework asks of contributions; id is framework/kind[/detail].",
        ),
    )
}

REL_TYPES: dict[str, RelType] = {
    r.type: r
    for r in (
        RelType("PROPOSES", (("Paper", "Method"),), EVIDENCE),
        RelType(
            "EXTENDS",
            (("Method", "Method"),),
            (
                Prop("change", doc="coefficient, clip, mask, weight, advantage, sampling, other"),
                Prop("detail"),
            ),
        ),
        RelType(
            "PART_OF",
            (
                ("Commit", "Framework"),
                ("Release", "Framework"),
                ("PullRequest", "Framework"),
                ("Issue", "Framework"),
            ),
        ),
        RelType("IMPLEMENTS", (("Commit", "Method"),), COMMIT_EVIDENCE),
        RelType(
            "VENDORS",
            (("Commit", "Method"),),
            COMMIT_EVIDENCE,
            "a commit brings in another framework's implementation of a method in a copied tree (the "
            "evidence an IMPLEMENTS would carry, `vendored` true): kept apart, so that every IMPLEMENTS "
            "is the framework's own",
        ),
        RelType("MENTIONS", (("Commit", "Paper"), ("Commit", "Method")), COMMIT_EVIDENCE),
        RelType(
            "SPELLS",
            (("Commit", "Method"),),
            COMMIT_EVIDENCE,
            "a framework's own identifier for a method (an option value, flag, class or config key), "
            "learned from a change whose subject names the method; `identifier` holds it",
        ),
        RelType("RELEASED_IN", (("Commit", "Release"),)),
        RelType("MERGED_AS", (("PullRequest", "Commit"),), EVIDENCE),
        RelType("CITES", (("Issue", "Paper"), ("PullRequest", "Paper")), EVIDENCE),
        RelType("NAMES", (("Issue", "Method"), ("PullRequest", "Method")), EVIDENCE),
        RelType("FIXES", (("Commit", "Issue"), ("PullRequest", "Issue")), EVIDENCE),
        RelType("REPORTED_IN", (("FailureReport", "Issue"), ("FailureReport", "Commit"))),
        RelType("AFFECTS", (("FailureReport", "Method"), ("FailureReport", "Framework")), EVIDENCE),
        RelType("STATES_USE_OF", (("ModelReport", "Method"),), EVIDENCE),
        RelType("SUPPORTS", (("Framework", "Method"),), EVIDENCE),
        RelType("MAINTAINED_BY", (("Framework", "Organization"),)),
        RelType("AFFILIATED_WITH", (("Paper", "Organization"),), EVIDENCE),
        RelType("PUBLISHED_BY", (("ModelReport", "Organization"),)),
        RelType("HAS_RULE", (("Framework", "ContributionRule"),)),
    )
}

# The store's own bookkeeping, kept out of user-facing counts.
META_LABEL = "UptakeMeta"


def schema_markdown() -> str:
    """The schema as Markdown tables, for ARCHITECTURE.md and `uptake db schema`."""
    lines = ["| label | key | properties |", "| --- | --- | --- |"]
    for node in NODE_TYPES.values():
        props = ", ".join(f"{p.name} {p.type}" for p in node.all_props[1:])
        lines.append(f"| {node.label} | {node.key} | {props} |")
    lines += ["", "| relationship | from → to | properties |", "| --- | --- | --- |"]
    for rel in REL_TYPES.values():
        ends = ", ".join(f"{a} → {b}" for a, b in rel.endpoints)
        props = ", ".join(f"{p.name} {p.type}" for p in rel.all_props) or "—"
        lines.append(f"| {rel.type} | {ends} | {props} |")
    return "\n".join(lines) + "\n"
