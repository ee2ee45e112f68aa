"""Real-text evaluation sets: where they live, how they are split, how they are scored.

The titles live in a sibling data folder (`../shared/data/` from the repository
root); the repository keeps only ids and our own labels. Every set is split
deterministically by a hash of its id: one fifth is held out from all rule
design and reported separately.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
PAPER_LABELS = REPO / "tests" / "data" / "papers_labelled.jsonl"
# Abstracts we wrote ourselves for a sample of the labelled papers (what each paper does, as its title
# implies, in our words): the titles' data carry no abstracts.
COMPOSED_ABSTRACTS = REPO / "tests" / "data" / "composed_abstracts.jsonl"
# Labelled after the rules above were written, and scored before any rule changed for them.
FRESH_PAPER_LABELS = REPO / "benchmarks" / "data" / "fresh_papers.jsonl"
BLIND_PAPER_LABELS = REPO / "benchmarks" / "data" / "blind_papers.jsonl"
# Labelled from title and abstract (the others from titles and what the labellers knew).
FOURTH_PAPER_LABELS = REPO / "benchmarks" / "data" / "fourth_papers.jsonl"
FIFTH_PAPER_LABELS = REPO / "benchmarks" / "data" / "fifth_papers.jsonl"
SPLIT_FILE = REPO / "tests" / "data" / "real_text_split.json"
HELD_OUT_BUCKET = 0  # sha256(id) mod 5 == 0 is held out


def thread_id(row: dict) -> str:
    return f"{row['repo']}#{row['number']}"


def part(item_id: str) -> str:
    """'heldout' for one fifth of ids, 'dev' for the rest; stable across runs and machines."""
    bucket = int(hashlib.sha256(item_id.encode()).hexdigest(), 16) % 5
    return "heldout" if bucket == HELD_OUT_BUCKET else "dev"


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def available() -> bool:
    return (SHARED / "threads_dev.jsonl").exists() and (SHARED / "papers.jsonl").exists()


def threads() -> list[dict]:
    return read_jsonl(SHARED / "threads_dev.jsonl")


def labelled_papers(path: Path = PAPER_LABELS) -> list[dict]:
    """Our labels joined with the titles and list headings (`source_tags`) from the shared folder."""
    papers = {p["arxiv_id"]: p for p in read_jsonl(SHARED / "papers.jsonl")}
    return [
        {
            **row,
            "title": papers[row["arxiv_id"]]["title"],
            "headings": tuple(papers[row["arxiv_id"]].get("source_tags") or ()),
        }
        for row in read_jsonl(path)
    ]


def fresh_papers() -> list[dict]:
    """A second, later sample of labelled papers, all held out (benchmarks/data/README.md)."""
    return labelled_papers(FRESH_PAPER_LABELS)


def fourth_papers() -> list[dict]:
    """A fourth sample, labelled from each paper's own abstract; its held-out fifth is read by no rule."""
    return labelled_papers(FOURTH_PAPER_LABELS)


def fifth_papers() -> list[dict]:
    """A fifth sample, labelled from each paper's own abstract after the abstract model was trained;
    read by no rule and no model, all of it held out."""
    return labelled_papers(FIFTH_PAPER_LABELS)


def blind_papers() -> list[dict]:
    """A third sample, labelled after the last screening rule and read by no rule since."""
    return labelled_papers(BLIND_PAPER_LABELS)


def _method_keys(name: str, long_name: str | None = None) -> set[str]:
    from uptake.loaders.link.proposals import initials, name_key

    keys = {name_key(n) for n in (name, long_name) if n}
    return keys | {initials(n) for n in (name, long_name) if n and " " in n.strip()}


def names_the_method(label: str, name: str, long_name: str | None) -> bool:
    """Whether a proposal (name, long name) is the labelled method: same spelling up to case, dots,
    hyphens and spaces (a lower-case prefix still counts), or an acronym and its spelled-out name."""
    return bool(_method_keys(label) & _method_keys(name, long_name))


def paper_year(arxiv_id: str) -> int:
    """The year an arXiv id was submitted in (`2503.14476` -> 2025), as the loader reads it."""
    from uptake.loaders.link.arxiv_ids import year_month

    return int(year_month(arxiv_id)[:4])


def composed_abstracts() -> dict[str, str]:
    return {r["arxiv_id"]: r["abstract"] for r in read_jsonl(COMPOSED_ABSTRACTS)}


def real_abstracts(path: Path) -> dict[str, str]:
    """The papers' own abstracts, gathered apart from the repository (they are the authors' prose):
    a JSON-lines file, or a folder of them, with rows {"arxiv_id", "source_url", "abstract"}; rows
    whose abstract was not found (null) are left out."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return {r["arxiv_id"]: r["abstract"] for f in files for r in read_jsonl(f) if r.get("abstract")}


def extraction_counts(
    rows: list[dict], finder, abstracts: dict[str, str] | None = None, errors=None, nodes_read_abstracts=False
) -> dict:
    """Method extraction on labelled papers (see eval_real_text.extraction_report for what is counted).

    `finder` is a proposals.ProposalFinder; `errors`, when a list, collects (what, row, names);
    `nodes_read_abstracts`: the new Method nodes are made as the arXiv loader makes them, from
    title + abstract (no list headings), instead of from the title and headings alone."""
    from uptake.loaders.link.proposals import creates_method
    from uptake.loaders.link.screening import screen_paper

    counts = dict.fromkeys(
        (
            "labelled",
            "from_text",
            "with_abstract",
            "with_abstract_right",
            "general_with_abstract",
            "general_with_abstract_right",
            "nodes",
            "right",
        ),
        0,
    )
    for r in rows:
        label = r["method_name"]
        if label:
            counts["labelled"] += 1
            text_only = [p for p in finder.find(None, r["title"]) if p.kind == "method"]
            hit = any(names_the_method(label, p.name, p.long_name) for p in text_only)
            counts["from_text"] += hit
            if not hit and errors is not None:
                errors.append(("missed", r, [p.name for p in text_only]))
            if abstracts and r["arxiv_id"] in abstracts:
                both = [
                    p for p in finder.find(None, r["title"], abstracts[r["arxiv_id"]]) if p.kind == "method"
                ]
                counts["with_abstract"] += 1
                right = any(names_the_method(label, p.name, p.long_name) for p in both)
                counts["with_abstract_right"] += right
                # The "method papers": those labelled as proposing a general method.
                counts["general_with_abstract"] += r["is_general_method"]
                counts["general_with_abstract_right"] += right and r["is_general_method"]
                if not right and errors is not None:
                    errors.append(("missed with the abstract", r, [p.name for p in both]))
        # As the loaders screen it.
        year = paper_year(r["arxiv_id"])
        if nodes_read_abstracts:
            abstract = abstracts[r["arxiv_id"]]
            decision = screen_paper(r["title"], abstract, year=year)
        else:
            abstract, decision = "", screen_paper(r["title"], headings=r.get("headings", ()), year=year)
        for p in finder.find(r["arxiv_id"], r["title"], abstract):
            if creates_method(p, decision):
                counts["nodes"] += 1
                # Right when it is the labelled method; for a method paper whose method we left
                # unnamed, the name the title gives it is that training method.
                ok = names_the_method(label, p.name, p.long_name) if label else r["is_general_method"]
                counts["right"] += ok
                if not ok and errors is not None:
                    errors.append(("not a training method", r, [p.name]))
    return counts


def precision_recall(pairs: Iterable[tuple[bool, bool]]) -> tuple[float, float, int, int, int]:
    """(predicted, true) pairs -> precision, recall, tp, fp, fn."""
    tp = fp = fn = 0
    for predicted, true in pairs:
        tp += predicted and true
        fp += predicted and not true
        fn += true and not predicted
    return tp / ((tp + fp) or 1), tp / ((tp + fn) or 1), tp, fp, fn
