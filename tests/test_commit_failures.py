"""Failure reports stated by fix commits: each kind of subject the rule reads, on subjects written
here, and the shape of the hand-labelled set the benchmark scores it on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from git_history import METHODS
from uptake.benchmarks.eval_commit_failures import FRAMEWORKS, HELD_OUT, LABELS, STRATA, stratum_weights
from uptake.loaders.link.failures import SYMPTOMS, classify_failure
from uptake.loaders.link.history import HistoryCommit, stated_failure
from uptake.loaders.link.methods import MethodMatcher

MATCHER = MethodMatcher(METHODS)


def verdict(subject: str):
    return stated_failure(HistoryCommit("b" * 40, "2025-05-01T09:00:00+00:00", subject), MATCHER)


@pytest.mark.parametrize(
    "subject",
    [
        "Fix padding bug in the critic's value head (#41)",
        "[BUG] fix reward bug when the batch holds one sample",
        "Sequence packing bug fix for multi-turn rollouts",
        "fix: two bugs in checkpoint resumption",
    ],
)
def test_a_fix_that_names_a_bug_is_a_malfunction(subject):
    found = verdict(subject)
    assert found is not None and found.symptom == "malfunction" and found.confidence == 0.6


@pytest.mark.parametrize(
    "subject",
    [
        "[bugfix] update the rollout config defaults",  # a tag that only says "fix"
        "bugfix: rename the sampler arguments",
        "Fix bug in the docs of the PPO trainer",  # a bug of the docs
        "fix tests bug on multi-GPU runners",
        "Fix logging bug in the progress bar",
        "Bump accelerate to a release with bug fixes",
    ],
)
def test_a_bug_tag_or_a_bug_outside_the_run_is_no_failure(subject):
    assert verdict(subject) is None


@pytest.mark.parametrize(
    "subject",
    [
        "fix: pass the seed to the rollout workers (#88)",
        "[trainer] fix: honor the clip ratio setting in the critic loss",
        "hotfix: always pass the generation kwargs",
        "fix: respect max_new_tokens on the async path",
    ],
)
def test_a_fix_that_passes_on_or_obeys_a_setting_says_the_run_went_without_it(subject):
    found = verdict(subject)
    assert found.symptom == "wrong-result" and found.rule == "wrong-result/setting-not-passed"
    assert found.confidence == 0.7


def test_passing_needs_a_destination_so_a_noun_is_not_read_as_the_verb():
    assert verdict("fix forward pass for encoder-decoder models") is None
    assert verdict("fix: forward the tokenizer to the reward workers").symptom == "wrong-result"


@pytest.mark.parametrize(
    "subject",
    [
        "Fix warmup ratio not taking effect in the scheduler",
        "fix: lr_decay_style has no effect",
        "Fix the eval batch size option being ignored",
    ],
)
def test_a_setting_that_did_not_take_effect_is_a_wrong_result(subject):
    assert verdict(subject).rule == "wrong-result/setting-ignored"


@pytest.mark.parametrize(
    "subject",
    [
        "fix: 'NoneType' object has no attribute 'shape' in the collator",
        "fix name 'torch' is not defined in the sampler",
        "fix index out of range when a group has one response",
        "fix: reward fn got an unexpected keyword argument (#12) [skip ci]",
    ],
)
def test_an_exception_message_without_its_class_is_a_crash(subject):
    assert verdict(subject).symptom == "crash"


@pytest.mark.parametrize(
    "subject",
    [
        "Fix syntax error",
        "fix merge conflict in the trainer",
        "Fix incorrect merge of the rollout refactor",
        "fix mypy errors in the workers",
        "fix ruff error",
        "fix: raise error if the reward model has no tokenizer",
        "[rollout] fix: add a clear error when the processor is missing",
        "fix: crash logging in the async loop",
        "fix: better error messages for bad configs",
        "fix: use the median of the logprob error in the nightly check",
    ],
)
def test_development_slips_guards_and_words_about_errors_are_no_failure(subject):
    assert verdict(subject) is None


def test_a_run_that_crashed_still_counts_beside_the_new_exclusions():
    assert verdict("fix: crash when the eval set is empty").symptom == "crash"
    assert verdict("Fix crash for the logprob error plot").symptom == "crash"


def test_issue_threads_keep_the_same_reading_of_errors():
    # The thread classifier shares the symptom rules: logged errors and error metrics are not crashes.
    assert classify_failure("Async loop crash logging is too verbose", "") is None
    thread = classify_failure("Training crashes: 'NoneType' object has no attribute 'shape'", "")
    assert thread is not None and thread.symptom == "crash"


def test_the_labelled_set_holds_facts_only_and_covers_both_parts():
    rows = [json.loads(line) for line in Path(LABELS).read_text().splitlines()]
    assert len(rows) >= 280
    assert all(set(r) == {"framework", "sha", "stratum", "failure", "symptom", "reason"} for r in rows)
    assert {r["framework"] for r in rows} <= set(FRAMEWORKS) and len({r["framework"] for r in rows}) >= 6
    assert HELD_OUT < {r["framework"] for r in rows}
    assert all(r["symptom"] in SYMPTOMS for r in rows if r["failure"])
    assert all(r["symptom"] is None for r in rows if not r["failure"])
    assert len({r["sha"] for r in rows}) == len(rows)
    assert all(len(r["reason"]) <= 80 for r in rows)  # a few words of ours, no copied message


def test_each_labelled_commit_stands_for_its_share_of_its_stratum():
    sizes = json.loads(Path(STRATA).read_text())
    rows = [{"framework": "trl", "stratum": "flagged"}] * 2 + [
        {"framework": "trl", "stratum": "fix-word"}
    ] * 4
    weights = stratum_weights(rows)
    assert weights["trl", "flagged"] == sizes["trl"]["flagged"] / 2
    assert weights["trl", "fix-word"] == sizes["trl"]["fix-word"] / 4


@pytest.mark.parametrize(
    "subject",
    [
        "fix: handle empty reward lists in the advantage estimator",
        "[trainer] fix: handle None tool outputs in multi-turn rollouts",
        "fix: catch any error raised by a user reward function",
    ],
)
def test_a_fix_that_copes_with_a_bad_input_or_an_error_says_the_run_crashed_on_it(subject):
    found = verdict(subject)
    assert found.symptom == "crash" and found.rule == "crash/handles-bad-input"


def test_coping_is_read_only_as_what_the_fix_does():
    assert verdict("fix: handle large batches faster in the collator") is None
    assert verdict("feat: handle missing values in the dataset preview") is None  # not a fix
