"""The hand-verified first-implementation labels of frameworks the catalog was not tuned against
are well-formed facts: full shas, parseable dates, catalog methods, one row per pair, and
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


POSITIVES = rows("new_implementations.jsonl")
NEGATIVES = rows("new_negatives.jsonl")
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
        assert SHA.match(alt["sha"]) and alt["sha"] != row["first_commit_sha"]
        assert dt.datetime.fromisoformat(alt["commit_date"]) >= dt.datetime.fromisoformat(row["commit_date"])
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


def test_at_least_two_frameworks_labelled():
    assert len({r["framework"] for r in POSITIVES}) >= 2
