"""The hand-verified first-implementation labels of every set kept in benchmarks/data are well-formed
facts: full shas, parseable dates, catalog methods, one row per pair, and
negatives that never contradict a positive."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from uptake.loaders.catalog import read_catalog

DATA = Path(__file__).resolve().parent.parent / "benchmarks" / "data"
SHA = re.compile(r"^[0-9a-f]{40}$")


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


# Every label set kept here (new, unseen, fresh, blind, ...), each with its negatives.
SETS = sorted(p.name.removesuffix("_implementations.jsonl") for p in DATA.glob("*_implementations.jsonl"))
POSITIVES = [r for s in SETS for r in rows(f"{s}_implementations.jsonl")]
NEGATIVES = [r for s in SETS for r in rows(f"{s}_negatives.jsonl")]
METHODS = set(read_catalog().methods)


def pair(row: dict) -> tuple[str, str]:
    return row["framework"], row["method"].replace("_", "-")


def test_every_label_names_a_catalog_method_and_a_repository():
    for row in POSITIVES + NEGATIVES:
        assert pair(row)[1] in METHODS, row
        assert re.match(r"^[\w.-]+/[\w.-]+$", row["repo"]), row


@pytest.mark.parametrize("row", POSITIVES, ids=lambda r: "/".join(pair(r)))
def test_positive_shas_and_dates(row):
    assert SHA.match(row["first_commit_sha"])
    for field in ("commit_date", "author_date"):
        assert dt.datetime.fromisoformat(row[field]).tzinfo is not None
    for alt in row["alternative_commits"]:
        # Later sets also list earlier partial landings, so an alternative may predate the label.
        assert SHA.match(alt["sha"]) and alt["sha"] != row["first_commit_sha"]
        assert dt.datetime.fromisoformat(alt["commit_date"]).tzinfo is not None
    assert row["confidence"] in {"high", "medium", "low"}
    assert row["evidence"] and row["evidence_kind"]


@pytest.mark.parametrize("row", NEGATIVES, ids=lambda r: "/".join(pair(r)))
def test_negative_head_and_checks(row):
    assert row["verdict"] == "absent"
    assert SHA.match(row["head_sha"])
    dt.datetime.fromisoformat(row["head_date"])
    re.compile(row["checked_regex_case_insensitive"])
    assert row["notes"]


def test_no_duplicate_pairs_and_negatives_disjoint_from_positives():
    positive = [pair(r) for r in POSITIVES]
    negative = [pair(r) for r in NEGATIVES]
    assert len(positive) == len(set(positive))
    assert len(negative) == len(set(negative))
    assert not set(positive) & set(negative)


def test_every_set_labels_at_least_one_framework_and_none_twice():
    for name in SETS:
        frameworks = {r["framework"] for r in rows(f"{name}_implementations.jsonl")}
        assert frameworks, name
        others = {r["framework"] for s in SETS if s != name for r in rows(f"{s}_implementations.jsonl")}
        assert not frameworks & others, name  # a framework is labelled in one set only
