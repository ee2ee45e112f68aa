"""Catalog aliases found in prose and in code, by shape."""

from __future__ import annotations

import re

import pytest
import re2
from git_history import METHODS, Method
from uptake.loaders.catalog import read_catalog
from uptake.loaders.link.literals import (
    LiteralScanner,
    PatternSet,
    Prefiltered,
    Screens,
    may_match,
    relaxed,
    required_fragments,
)
from uptake.loaders.link.methods import CodeAliasIndex, MethodMatcher, classify_alias, spelled_out


@pytest.mark.parametrize(
    ("alias", "kind", "token", "value"),
    [
        ("GRPOTrainer", "class", "grpotrainer", ""),
        ("DPOLossFn", "class", "dpolossfn", ""),
        ("epsilon_high", "identifier", "epsilon_high", ""),
        ("--use-opsm", "identifier", "use-opsm", ""),
        ("grpo", "word", "grpo", ""),
        ("PPO", "word", "ppo", ""),
        ("loss_type=dapo", "setting", "loss_type", "dapo"),
        ("std_level: batch", "setting", "std_level", "batch"),
        ("scale_rewards=False", "setting", "scale_rewards", "false"),
        ("recipe/prime", "path", "recipe/prime", ""),
        ("example_raft_pp.yaml", "path", "example_raft_pp.yaml", ""),
        ("implicit PRM", "prose", "implicit prm", ""),
        ("reinforce++", "prose", "reinforce++", ""),
    ],
)
def test_alias_shapes(alias, kind, token, value):
    shaped = classify_alias("m", alias)
    assert (shaped.kind, shaped.token, shaped.value) == (kind, token, value)


def test_code_scan_finds_whole_tokens_only():
    index = CodeAliasIndex(METHODS)
    text = "use_dr_grpo = GRPOTrainer(x)\nepsilon_highest = 1\nkind = 'dr_grpo'\nEPSILON_HIGH = 2"
    hits = [(h.alias.slug, text[h.start : h.end]) for h in index.scan(text)]
    assert ("grpo", "GRPOTrainer") in hits
    assert ("dr-grpo", "dr_grpo") in hits
    assert ("dapo", "EPSILON_HIGH") in hits
    assert not any(found == "grpo" for _, found in hits)  # never inside use_dr_grpo
    assert not any(found.lower().startswith("epsilon_highest") for _, found in hits)


def test_path_hits_prefer_the_longest_alias():
    index = CodeAliasIndex(METHODS)
    assert [a.slug for a in index.path_hits("fw/trainer/dr_grpo_trainer.py")] == ["dr-grpo"]
    assert [a.slug for a in index.path_hits("fw/trainer/grpo_trainer.py")] == ["grpo"]
    assert {a.slug for a in index.path_hits("recipe/prime/prime_core.py")} == {"prime"}
    assert index.path_hits("fw/trainer/grpotools.py") == []


def test_method_matcher_prefers_longer_names_and_needs_context_for_ambiguous_ones():
    matcher = MethodMatcher(METHODS)
    found = {m.slug: m for m in matcher.find("We add Dr. GRPO and DAPO to the trainer.")}
    assert set(found) == {"dr-grpo", "dapo"}  # "GRPO" inside "Dr. GRPO" is taken
    assert found["dapo"].rule == "alias-exact"
    assert matcher.find("The IPO of the company") == []  # ambiguous, no RL context
    assert [m.slug for m in matcher.find("IPO loss for preference policy training")] == ["ipo"]
    assert matcher.find("grpo_helper and dapo-like tricks") == []


def test_a_longer_spelling_inside_a_word_hides_no_name_after_it():
    # The catalog spells LD-DPO "LD DPO" too: in "old dpo" it starts inside a word and names nothing.
    matcher = MethodMatcher(read_catalog().methods.values())
    assert [m.slug for m in matcher.find("warn about the old dpo dataset format")] == ["dpo"]
    assert [m.slug for m in matcher.find("add LD DPO")] == ["ld-dpo"]


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        # A long name in capitals among words that are not names the method, not the verb.
        ("fix: correct REINFORCE to resume training", "ambiguous-alias-in-capitals"),
        ("Why is vanilla REINFORCE not implemented?", "ambiguous-alias-in-capitals"),
        ("tests reinforce the guarantees", None),
        ("FIX REINFORCE CRASH", None),  # a line of capitals: no word stands out
        ("TAPERED OFF-POLICY REINFORCE", "ambiguous-alias-in-context"),  # "policy" is the context
    ],
)
def test_a_long_ambiguous_name_in_capitals_stands_out_as_the_name(text, rule):
    found = MethodMatcher(read_catalog().methods.values()).find(text)
    assert [m.rule for m in found if m.slug == "reinforce"] == ([rule] if rule else [])


def _reference(words: list[str], text: str, whole: bool) -> list[tuple[int, int, str]]:
    """What Python's own `re` finds with a longest-first alternation."""
    body = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    pattern = rf"(?<![a-z0-9_])(?:{body})(?![a-z0-9_])" if whole else f"(?:{body})"
    return [(m.start(), m.end(), m.group(0)) for m in re.finditer(pattern, text)]


@pytest.mark.parametrize("whole", [True, False])
@pytest.mark.parametrize(
    "text",
    [
        "grpo ppo,dr_grpo xppo ppo --use-opsm grpo",  # adjacent tokens share one separator
        "support dr. grpo grpox ppo_ppo grpo-x",  # inside longer words, and after a longer token
        "é grpo — ppo 日本 dr_grpo\n+ ppo\t\u00ffgrpo",  # multi-byte text before and between hits
        "GRPO Ppo DR_GRPO xGRPO ÉGRPO",  # any case
        "",
        "ppo",
    ],
)
def test_literal_scanner_finds_what_re_finds(text, whole):
    words = ["grpo", "ppo", "dr_grpo", "use-opsm", "opsm", "dr. grpo"]
    found = LiteralScanner(words, whole_identifiers=whole).find(text)
    assert list(found) == _reference(words, text.lower(), whole)


@pytest.mark.parametrize(
    ("pattern", "matching", "lacking"),
    [
        (r"(?m)^\+\s*\w*(?:mask|keep)\w*\s*=\s*ratio\s*<\s*lo", "+ keep = ratio < lo", "+ keep = ratio < h"),
        (r"log(?:sigmoid|_sigmoid)\(\s*\w+ - \w+\)", "F.logsigmoid(a - b)", "log_softmax(a - b)"),
        (r"(a|bc)+x?(?:yz){2}", "bcyzyz", "bcxy"),  # a required repeat keeps its body's needs
        (r"(?:ab)?c*(?:de|\w)", "q", ""),  # optional parts and a class alternative need nothing
        (r"(?i)grpo", "GRPO", ""),  # any case: nothing is required literally
        (r"abc(?i:de)f", "abcDEf", "abDEf"),  # the case-insensitive group is skipped, the rest is not
        (r"(\w+)/\(\1-1\)", "n/(n-1)", "n/(n+1)"),
    ],
)
def test_required_fragments_never_hide_a_match(pattern, matching, lacking):
    compiled = re.compile(pattern)
    needs = required_fragments(compiled)
    assert compiled.search(matching) and may_match(needs, matching)
    if lacking:  # a text without what every match needs is ruled out before the pattern runs
        assert not compiled.search(lacking) and not may_match(needs, lacking)
    else:
        assert needs == ()


def test_every_catalog_computation_is_ruled_out_by_fragments_first():
    computations = [m.computation for m in read_catalog().methods.values() if m.computation]
    assert computations and all(required_fragments(re.compile(c)) for c in computations)


# Texts where look-arounds, back-references, `$` before a last line break and non-ASCII word or
# space characters decide whether and where `re` matches.
_TRICKY = [
    "+ mask = ratio < low & ratio > high\n",
    "+ keep = w < lo\n+ & w > hi\n",
    "+ mask = adv < low & adv > high\n",
    "x = n/(n-1) - m/(n-1)\nabc\n",
    "ratio\u00e9 < low and ratio\u00e9 > high\u2003end\n",
    "abab abba ba\n",
    "\u00e9 abab \u4e2d abba \u00fc ba\n+ keep = w\u00e9 < lo & w\u00e9 > hi\n+ x\u00e9 = y\n",
    "",
]


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?m)^\+\s*(?:mask|keep)\w*\s*=(?!=)(?![^\n]*adv)[^#\n]*?(?P<r>\b\w*(?:ratio|w)\w*)\s*<.*?(?P=r)\s*>",
        r"(\w+)/\((\w)-1\)\s*-\s*\w+/\(\2-1\)",
        r"(?<![a-z])ab(?=a)|ba$",
        r"(?i)RATIO\w*\s*<\s*LOW(?#a comment)",
        r"\w+\s+>\s*high\s\w+",
        r"[^\w\s]+|(?>ab)ba",
        r"\bhigh\b\Z",
        r"(?m)^\+ \w+ = \w+$",
        r"o\Z|b$",
    ],
)
def test_relaxed_patterns_find_every_match_and_prefiltered_finds_exactly_re(pattern):
    compiled = re.compile(pattern)
    screen = Prefiltered(compiled)
    loose = re2.compile(relaxed(pattern))
    for text in _TRICKY:
        expected = [(m.start(), m.end(), m.groups()) for m in compiled.finditer(text)]
        # Wherever `re` matches, the relaxation matches from the same place on.
        for start, _, _ in expected:
            assert loose.match(text, start) is not None, (pattern, text, start)
        assert [(m.start(), m.end(), m.groups()) for m in screen.finditer(text)] == expected
        found = screen.search(text)
        assert (found and (found.start(), found.end(), found.groups())) == (expected[0] if expected else None)
        # Within a span, as `re` reads one: `$` and `\Z` match at its end.
        for pos, endpos in ((1, len(text) - 1), (2, len(text) // 2)):
            spanned = [(m.start(), m.end(), m.groups()) for m in compiled.finditer(text, pos, endpos)]
            assert [(m.start(), m.end(), m.groups()) for m in screen.finditer(text, pos, endpos)] == spanned


def test_relaxation_drops_assertions_and_widens_classes_only_where_re_is_wider():
    assert relaxed(r"a(?=b)(?<!c)\bd\B") == "ad"
    assert relaxed(r"(?P<x>a+)b(?P=x)\1") == "(?:a+)b(?:a+)(?:a+)"
    # A negated class is wider in RE2 already; a positive one takes non-ASCII characters too.
    assert relaxed(r"[^\w]") == r"[^\w]"
    assert relaxed(r"[\w.]") == r"[\w.\x{80}-\x{10ffff}]"


def test_screens_never_rule_out_a_pattern_that_matches():
    patterns = [re.compile(p) for p in (r"(?<![a-z])ab(?=a)", r"(?m)^\+ \w+ = \w+$", r"(\w)x\1", r"zzz")]
    screens = Screens(patterns)
    for text in _TRICKY + ["+ a = b\n", "axa and ab a"]:
        matching = {i for i, p in enumerate(patterns) if p.search(text)}
        may = screens.may_match(text)
        assert matching <= may
        if text.isascii():  # RE2 reads it: a pattern that cannot occur is ruled out
            assert 3 not in may


def test_pattern_set_says_which_patterns_a_text_holds():
    # RE2 cannot run the third: `re` reads it.
    patterns = [r"rollout|vllm", r"\brm\b", r"(?<=a)b", r"leave[-_ ]?one[-_ ]?out"]
    found = PatternSet(patterns, ignore_case=True)
    for text in ("Use vLLM with the RM", "ab and Leave-one-out", "nothing here", "ab\ud800"):
        assert found.matching(text) == {i for i, p in enumerate(patterns) if re.search(p, text, re.I)}


def test_names_imply_their_spellings_in_prose_and_code():
    tis = Method("tis", "Truncated Importance Sampling (TIS)", ("tis", "dual_clip"), ("tis",))
    minority = Method("hem", "High-entropy minority tokens (80/20)", ("top_entropy_quantile",))
    plus = Method("reinforce-pp", "REINFORCE++", ("REINFORCE++",))
    matcher = MethodMatcher([tis, minority, plus])
    named = {m.slug: m.text for m in matcher.find("feat: support truncated importance sampling")}
    assert named == {"tis": "truncated importance sampling"}  # the name without its acronym
    # An identifier alias of words is written with hyphens or spaces in prose.
    assert [m.text for m in matcher.find("feat: dual-clip in the loss")] == ["dual-clip"]
    assert [m.text for m in matcher.find("add a dual clip to the loss")] == ["dual clip"]
    # A parenthesised remark is not an acronym, and the acronym stays as ambiguous as the catalog says.
    assert matcher.find("the 80/20 split") == []
    assert matcher.find("TIS of the company") == []
    # `++` cannot appear in an identifier: the name is spelled out for code.
    hits = [(h.alias.slug, h.alias.kind) for h in CodeAliasIndex([plus]).scan("est == 'reinforce_plus_plus'")]
    assert hits == [("reinforce-pp", "identifier")]


def test_a_name_of_several_words_is_found_however_its_words_are_joined():
    baseline = Method("reinforce-pp-baseline", "REINFORCE++-baseline", ("reinforce_plus_plus_baseline",))
    plus = Method("reinforce-pp", "REINFORCE++", ("REINFORCE++",))
    dr = Method("dr-grpo", "Dr. GRPO", ("Dr. GRPO",))
    mask = Method("icepop", "IcePop", ("token-mask",), ("token-mask",))
    matcher = MethodMatcher([baseline, plus, dr, mask])
    for text, slug in (
        ("[algo] support reinforce++ baseline (#6385)", "reinforce-pp-baseline"),
        ("Add Dr GRPO loss", "dr-grpo"),
        ("Add Dr-GRPO loss", "dr-grpo"),
    ):
        assert [m.slug for m in matcher.find(text)] == [slug], text
    minority = Method("hem", "High-entropy minority tokens", ("High-entropy minority tokens",))
    assert [m.slug for m in MethodMatcher([minority]).find("high entropy minority token training")] == ["hem"]
    # A lower-case hyphenated value is a config spelling: its words in prose name nothing.
    assert matcher.find("fix the token mask of padded prompts") == []


BCO_TITLE = "Binary Classifier Optimization for Large Language Model Alignment"
DPO_TITLE = "Direct Preference Optimization: Your Language Model is Secretly a Reward Model"


@pytest.mark.parametrize(
    ("name", "title", "words"),
    [
        ("BCO", BCO_TITLE, "Binary Classifier Optimization"),
        ("DPO", DPO_TITLE, "Direct Preference Optimization"),
        ("KTO", "KTO: Model Alignment as Prospect Theoretic Optimization", None),  # starts with the name
        ("GRPO", "DeepSeekMath: Pushing the Limits of Mathematical Reasoning", None),
        ("SimPO", "Simple Preference Optimization with a Reference-Free Reward", None),  # not all capitals
    ],
)
def test_an_acronym_is_also_named_by_the_title_words_it_abbreviates(name, title, words):
    method = Method("m", name, (name,), paper_title=title)
    assert spelled_out(method) == words
    if words:
        found = MethodMatcher([method]).find(f"The {words.lower()} coefficient.")
        assert [(m.slug, m.text) for m in found] == [("m", words.lower())]
