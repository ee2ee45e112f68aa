"""Screening papers: is it about RL training of language models, and does it propose a general method?

Pure functions over a title and an abstract. Every decision lists the rules
that fired and the words they fired on, so a reader can see why a paper was
kept or set aside, and a confidence derived from the margin to the threshold.

How it decides (thresholds are the module constants below):

1. **RL for language models** (`is_rl_llm`): the text must show reinforcement
   learning or preference optimisation (`rl-*` rules) *and* language models
   (`lm-*` rules). Each side needs a score of at least `RL_LLM_THRESHOLD`.
   Preference optimisation (DPO and kin) counts as RL training: it optimises
   a policy against a reward signal, and the study counts it.
2. **General method** (`is_general_method`): among those, positive rules (the
   paper proposes something, the something is an objective, estimator,
   clipping/masking/weighting rule, sampling or credit-assignment scheme, or
   is named like a policy-optimisation method) are weighed against the kinds
   of paper that are not general methods: application to one domain,
   benchmark, dataset, survey, reward model only, system, analysis. The paper
   is a general method when positives minus negatives reach
   `GENERAL_THRESHOLD`. Words in the title weigh `TITLE_WEIGHT` times more.
3. **Kind**: `general-method`, else the strongest negative kind, else
   `other-rl-llm`; papers that fail step 1 are `not-rl-llm`.

**Title only** (no abstract): titles rarely spell out "reinforcement learning"
or "LLM", so the title-only rules (`TITLE_RULES`, explained in title_cues.py)
read word forms and compounds, infer the learner from method and model names,
and subtract for other learners (`non-lm`) and for methods that train nothing
(`non-rl`); a `Name:` title counts as a proposal only when the name is not
named like a model, benchmark or agent (`title_cues.title_name_kind`). Any
method cue in the title then stands for the missing "we propose", and the
general-method threshold is `TITLE_ONLY_GENERAL_THRESHOLD`. The reasons say
`"input": "title"` and the confidence is scaled by `TITLE_ONLY_CONFIDENCE_SCALE`.
From a title alone, RL with no learner named and none contested counts as RL
for language models for a paper from `LM_ERA_FROM_YEAR` on (`lm-era`): titles
without abstracts come from RL-for-LM lists, where the rest of such titles are
classic RL from before that year. A title that names one application domain
(`application-domain`: audio, video, RAG, medical, search agents, ...) proposes
that domain's method, not a general one, with or without an abstract: real
abstracts propose the method in the title's own terms.

**List headings** (`HEADING_RULES`): a paper from a curated list comes with the
sections it is filed under ("Reward Design", "Policy Optimization", "Surveys").
They weigh `HEADING_WEIGHT`, like an abstract's words, and speak for the
learning signal, the learner and the kind of paper; the bare word "RL", which
lists put in every section's name, counts half. A section of method objects
stands for the missing proposal of a title (never a baseline's section, such as
"Proximal Policy Optimization"). The reasons say `"input": "title+headings"`.

**A second reading with an abstract** (screening_model.py): when the rules say
"general method" from a title and abstract, a small logistic model learnt from
our labels of real papers (rule names, title and abstract words) reads the
paper again and may overrule that yes, never make one. The reasons then carry
its probability, threshold and strongest features.

Every rule carries the literal stems its words start with; a rule runs only on
text containing one of them (the hits are the same, checked by a test).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .screening_model import ScreeningModel, abstract_features, load_model, title_features
from .title_cues import LM_ONLY_FAMILIES, title_name_kind

RL_LLM_THRESHOLD = 1.0
# A proposal plus one method object, or a named method, reaches it (measured on title + abstract, dev part).
GENERAL_THRESHOLD = 1.5
# With a title only there is less text to add up: one method cue in the title (weight 1 x TITLE_WEIGHT)
# with no negative kind is enough.
TITLE_ONLY_GENERAL_THRESHOLD = 1.0
# A decision from a title alone is less sure than one from an abstract: its confidence tops out at 0.9.
TITLE_ONLY_CONFIDENCE_SCALE = 0.8
TITLE_WEIGHT = 1.5
# A list heading covers a whole section of papers: it weighs no more than an abstract's word.
HEADING_WEIGHT = 1.0
# From a title alone, RL with no learner named reads as RL for language models for papers from this
# year on: in the RL-for-LM lists that give titles without abstracts, 23 of 24 such titles from
# 2025-26 were (development parts), and 0 of 5 from before 2025 (classic RL). See `_era_hit`.
LM_ERA_FROM_YEAR = 2025
# Negative kinds are discounted when the paper clearly proposes a method object:
# "we analyse X and propose a new clipping rule" is still a method paper.
NEGATIVE_DISCOUNT_WITH_METHOD = 0.5

NOT_GENERAL_KINDS = (
    "application",
    "benchmark",
    "dataset",
    "survey",
    "reward-model",
    "system",
    "analysis",
    "model",
)


@dataclass(frozen=True)
class Rule:
    name: str
    side: str  # rl, lm, both (RL words that only exist for language models), positive, or a negative kind
    pattern: re.Pattern
    weight: float
    fields: tuple[str, ...] = ("title", "abstract")
    # Lower-case fragments one of which any match contains; None when a word has no literal start.
    stems: tuple[str, ...] | None = None

    def may_match(self, lowered: str) -> bool:
        return self.stems is None or any(map(lowered.__contains__, self.stems))


_META = set("[](){}?*+|^$.")


def _group_end(pattern: str, start: int) -> int:
    """Index just past the group or class opening at `start`."""
    closing, depth, i = ("]" if pattern[start] == "[" else ")"), 0, start
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if closing == ")" and ch == "(":
            depth += 1
        elif ch == closing and (closing == "]" or depth == 1):
            return i + 1
        elif closing == ")" and ch == ")":
            depth -= 1
        i += 1
    return len(pattern)


def _skip_quantifier(pattern: str, i: int) -> int:
    if i < len(pattern) and pattern[i] in "?*+":
        return i + 1
    if i < len(pattern) and pattern[i] == "{":
        return pattern.index("}", i) + 1
    return i


def _alternatives(group: str) -> list[str]:
    """Top-level alternatives of a group's inside."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(group):
        ch = group[i]
        if ch == "\\":
            i += 2
            continue
        depth += ch in "([" and 1 or (-1 if ch in ")]" else 0)
        if ch == "|" and depth == 0:
            parts.append(group[start:i])
            start = i + 1
        i += 1
    return [*parts, group[start:]]


def _pattern_stems(pattern: str) -> list[str] | None:
    """Lower-case literals one of which every match of `pattern` contains, or None if there are none.

    Leading anchors, lookarounds, classes and optional groups are skipped (what follows them must
    still occur); a leading group of alternatives gives one literal per alternative.
    """
    i = 0
    while i < len(pattern):
        if pattern.startswith(("(?<!", "(?<=", "(?!", "(?="), i):
            i = _group_end(pattern, i)
        elif pattern[i] == "^" or pattern.startswith(("\\b", "\\s", "\\w", "\\W", "\\d"), i):
            i = _skip_quantifier(pattern, i + (1 if pattern[i] == "^" else 2))
        elif pattern[i] == "[":
            i = _skip_quantifier(pattern, _group_end(pattern, i))
        elif pattern[i] == "(":
            end = _group_end(pattern, i)
            if end < len(pattern) and pattern[end] in "?*":
                i = _skip_quantifier(pattern, end)
                continue
            inner = pattern[i + (3 if pattern.startswith("(?:", i) else 1) : end - 1]
            stems = [_pattern_stems(alt + pattern[end:]) for alt in _alternatives(inner)]
            return None if None in stems else [st for group in stems for st in group]
        else:
            break
    stem = _literal_start(pattern[i:])
    return [stem] if stem else None


def _literal_start(pattern: str) -> str | None:
    stem, i = "", 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 < len(pattern) and not pattern[i + 1].isalnum():
                stem, i = stem + pattern[i + 1], i + 2
                continue
            break
        if ch in "?*{":
            stem = stem[:-1]  # the character before an optional quantifier may be absent
            break
        if ch in _META:
            break
        stem, i = stem + ch, i + 1
    return stem.lower() if len(stem) >= 2 else None


def _stems(words: tuple[str, ...]) -> tuple[str, ...] | None:
    stems = [_pattern_stems(alt) for w in words for alt in _alternatives(w)]
    return None if None in stems else tuple(dict.fromkeys(st for group in stems for st in group))


def _rule(
    name: str,
    side: str,
    weight: float,
    *words: str,
    case: bool = False,
    title_only: bool = False,
    fields: tuple[str, ...] | None = None,
) -> Rule:
    flags = 0 if case else re.IGNORECASE
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(words) + r")(?![\w])", flags)
    fields = fields or (("title",) if title_only else ("title", "abstract"))
    return Rule(name, side, pattern, weight, fields, _stems(words))


# Methods everyone builds on: naming them is not proposing them.
_BASELINE_NAMES = r"(?!(?:PPO|DPO|GRPO|TRPO|RLOO|KTO|IPO)\b)"
# A negative kind mentioned as something the paper does without ("without a reward model") is no evidence.
_NEGATED = re.compile(
    r"(?:without|no need for|instead of|rather than|remov\w*|replac\w*|free of|no)\W+(?:\w+\W+){0,3}$",
    re.IGNORECASE,
)


def _raw_rule(name: str, side: str, weight: float, pattern: str, case: bool = True) -> Rule:
    """A title-only rule whose pattern sets its own boundaries (compounds such as "ComputerRL")."""
    compiled = re.compile(pattern, 0 if case else re.IGNORECASE)
    return Rule(name, side, compiled, weight, ("title",), _stems((pattern,)))


# Title-only cues (title_cues.py explains them); they also fire on titles that come with an abstract.
TITLE_RULES: tuple[Rule, ...] = (
    _rule(
        "rl-word-forms",
        "rl",
        1.0,
        r"reinforc\w*",
        r"incentiv\w*",
        r"self-rewarding",
        r"reward(?:ed|ing)",
        r"[\w-]+-rewarded",
        r"preference (?:learning|data|pairs|datasets?|trees?)",
        r"preference \w+ optimi[sz]ation",
        title_only=True,
    ),
    _rule("rl-lm-distillation", "both", 1.0, r"on-policy distillation", title_only=True),
    # Compounds and acronyms of the LLM era ("ComputerRL", "RLVR", "TreeRPO") imply the learner too.
    _raw_rule(
        "rl-compound",
        "both",
        1.0,
        r"(?<![\w-])(?:[A-Za-z0-9]*[a-z0-9]RL|[\w-]+-RL|RL[A-Z0-9][\w]*|RL-[\w-]+|"
        r"[A-Z][\w$^{}-]*PO)(?![\w])",
    ),
    _raw_rule(
        "rl-lm-family",
        "both",
        1.0,
        rf"(?<![\w])(?:[\w-]*[\w-]{LM_ONLY_FAMILIES}[\w-]*|{LM_ONLY_FAMILIES}[\w-]+)",
    ),
    _rule(
        "rl-reward-signal",
        "rl",
        1.0,
        r"reward models?",
        r"reward modell?ing",
        r"process rewards?",
        r"process[- ]supervis\w*",
        r"PRMs?",
        r"verifiers?",
        r"verifier-free",
        r"critics?",
        title_only=True,
    ),
    _rule(
        "rl-weak",
        "rl",
        0.5,
        r"post-training",
        r"self-(?:improv|evolv|correct|verif|reflect|distill)\w*",
        r"exploration",
        r"polic(?:y|ies)",
        r"feedback",
        r"align(?:s|ing|ed)?",
        r"verifiable",
        r"rubrics?",
        title_only=True,
    ),
    # How reasoning models and agents are trained today: by RL, even when the title does not say so.
    # Training verbs of that kind count alone; the kinds of model so trained need a second cue.
    # Surveys, benchmarks and datasets cancel either (non-rl-artefact).
    _rule(
        "rl-inferred",
        "rl",
        0.67,
        r"incentiviz\w*",
        r"teach(?:es|ing)?",
        r"learn(?:s|ing)? to",
        r"bootstrap\w*",
        r"(?:slow|fast-slow)[- ]thinking",
        r"self-play",
        r"curricul\w*",
        r"without labels",
        r"label-free",
        r"self-verifiable",
        title_only=True,
    ),
    _rule(
        "rl-inferred-weak",
        "rl",
        0.4,
        r"reasoning models?",
        r"search agents?",
        r"deep research\w*",
        r"long-horizon",
        r"agentic",
        title_only=True,
    ),
    _rule(
        "non-rl-artefact",
        "non-rl",
        0.75,
        r"surveys?",
        r"benchmark\w*",
        r"evaluat\w*",
        r"datasets?",
        r"leaderboards?",
        r"a review",
        title_only=True,
    ),
    # Reward models, verifiers and rubrics are, in practice, reward signals for language models.
    _rule(
        "lm-reward-signal",
        "lm",
        0.7,
        r"reward models?",
        r"reward modell?ing",
        r"process rewards?",
        r"process[- ]supervis\w*",
        r"PRMs?",
        r"verifiers?",
        r"rubrics?",
        title_only=True,
    ),
    # "X-R1" names a model trained the DeepSeek-R1 way: RL with verifiable rewards on a language model.
    _raw_rule("r1-compound", "both", 1.0, r"(?<![\w])[\w-]+-R1\b|\bR1-[\w-]+"),
    _rule(
        "lm-reasoning",
        "lm",
        0.75,
        r"reason(?:ing|ers?)",
        r"think(?:ing)?",
        r"thoughts?",
        r"chain-of-\w+",
        r"long-CoT",
        r"R1",
        r"o1",
        title_only=True,
    ),
    _rule(
        "lm-agents",
        "lm",
        1.0,
        r"agentic",
        r"(?:LLM|language|search|web|GUI|software engineering|research|tool-use) agents?",
        r"tool[- ](?:use|learning|integrated)",
        r"multi-tool",
        r"deep research\w*",
        r"multi-turn",
        r"information seeking",
        r"AI agents?",
        title_only=True,
    ),
    _rule("lm-agents-weak", "lm", 0.35, r"agents?", title_only=True),
    _rule(
        "lm-modal",
        "lm",
        1.0,
        r"LVLMs?",
        r"VLMs?",
        r"MLLMs?",
        r"LMMs?",
        r"multi-?modal",
        r"vision-language",
        r"diffusion language models?",
        r"sequence models?",
        title_only=True,
    ),
    _raw_rule(
        "lm-compound", "lm", 1.0, r"(?<=-)(?:LLMs?|LMs?|VLMs?|MLLMs?|LRMs?)(?![\w])|(?:LLMs?|LRMs?)-\w+"
    ),
    _rule(
        "lm-family-more",
        "lm",
        1.0,
        r"Intern[\w.\-]*",
        r"GLM[\w.\-]*",
        r"Kimi[\w.\-]*",
        r"MiniMax[\w.\-]*",
        r"Hunyuan[\w.\-]*",
        r"Nemotron[\w.\-]*",
        r"Magistral",
        r"MiMo[\w.\-]*",
        r"gpt-oss[\w.\-]*",
        r"Gemini",
        r"Claude",
        title_only=True,
    ),
    _rule(
        "lm-task",
        "lm",
        0.7,
        r"text",
        r"dialogues?",
        r"question answering",
        r"retrieval(?:-augmented)?",
        r"RAG",
        r"search",
        r"hallucinat\w*",
        r"long-context",
        r"quer(?:y|ies)",
        r"conversational",
        r"instructions?",
        r"chat\w*",
        r"SQL",
        r"autoformali\w*",
        r"theorem",
        r"essays?",
        r"unit tests?",
        r"code generation",
        r"coding",
        r"code",
        r"[\w-]+-to-code",
        r"natural language",
        r"math\w*",
        r"tokens?",
        r"questions?",
        r"MoE",
        r"GUI",
        r"fine-tun\w*",
        r"language model\w*",
        title_only=True,
    ),
    _rule(
        "non-lm-learner",
        "non-lm",
        1.5,
        r"robot\w*",
        r"manipulations?",
        r"locomotion",
        r"continuous control",
        r"Atari",
        r"Minecraft",
        r"chess",
        r"games?",
        r"coordination",
        r"(?:text-to-image|image|video|flow) diffusion models?",
        r"diffusion-based",
        r"flow models?",
        r"text-to-(?:image|video|speech)",
        r"(?:image|video|motion) generation",
        r"architecture search",
        r"skills",
        r"mixture-of-experts layer",
        title_only=True,
    ),
    _rule(
        "non-lm-tool",
        "non-lm",
        1.0,
        r"(?:using|from|via|by) (?:\w+ )?(?:large )?(?:language models?|LLMs?)",
        r"(?:LLMs?|language models?) (?:for|as) (?:reinforcement learning|RL|decision[- ]makers?)",
        r"(?:LLMs?|language models?) for (?:\w+ )?reinforcement learning",
        title_only=True,
    ),
    _rule(
        "non-rl-no-training",
        "non-rl",
        1.0,
        r"test-time (?:scaling|alignment|preference\w*|adaptation|reasoning)",
        r"training-free",
        r"without (?:model )?(?:training|fine-?tuning)",
        r"decoding-time",
        r"inference-time",
        r"serving",
        title_only=True,
    ),
    _rule(
        "method-title",
        "positive",
        0.75,
        r"self-distill\w*",
        r"distill\w*",
        r"self-play",
        r"self-reward\w*",
        r"unsupervised",
        r"label-free",
        r"without (?:labels|verifiers|supervision)",
        r"verifier-free",
        r"reference-free",
        r"few-shot RL",
        r"test-time reinforcement learning",
        r"stabili[sz]\w*",
        r"stable",
        r"efficient",
        r"interleav\w*",
        r"unif\w*",
        r"bridging",
        r"cooperative",
        r"hybrid",
        r"mixed",
        r"value[- ](?:model\w*|optimi[sz]ation|based)",
        r"calibrat\w*",
        r"policy optimi[sz]ation",
        r"preference (?:optimi[sz]ation|learning)",
        r"regulari[sz]ed",
        r"iterative",
        r"offline",
        r"online",
        r"data selection",
        r"broaden\w*",
        r"guid\w*",
        r"augmentation",
        r"minimi[sz]ation",
        r"penali[sz]\w*",
        r"distributional",
        r"self-(?:reflect|correct|verif)\w*",
        r"learnability",
        r"meta-\w+",
        title_only=True,
    ),
    _rule(
        "application-title",
        "application",
        1.0,
        r"search agents?",
        r"agentic (?:search|RAG|retrieval)",
        r"deep research\w*",
        r"deep search",
        r"web search",
        r"information seeking",
        r"retriev\w*",
        r"chest x-ray",
        r"biolog\w*",
        r"DNA",
        r"3D",
        r"grounding",
        r"geo-localization",
        r"essays?",
        r"unit tests?",
        r"relation extraction",
        r"autoformali\w*",
        r"image quality",
        r"UI",
        r"social simulations?",
        r"unlearning",
        r"memor(?:y|ies)",
        r"software engineering",
        r"mobile",
        r"computer-use",
        r"scientific",
        r"predict the future",
        r"forecast\w*",
        r"(?:visual )?perception",
        r"goal-oriented dialogue",
        r"query reformulation",
        r"images?",
        r"cod(?:e|ing)",
        r"image generation",
        r"unified multimodal",
        r"(?<![Tt]ree )search",
        r"tools?",
        r"multi-tool",
        r"(?:visual|video|image) generation",
        r"text-image",
        r"code generation",
        r"code efficiency",
        r"chart-to-code",
        r"decision-making agents?",
        title_only=True,
    ),
    _rule(
        "system-title",
        "system",
        1.0,
        r"framework",
        r"trainer",
        r"rollout-as-a-service",
        r"technical report",
        r"model card",
        r"foundation models?",
        r"open recipe",
        title_only=True,
    ),
    _rule(
        "analysis-title",
        "analysis",
        1.0,
        r"on the \w+(?: \w+)? of",
        r"what'?s behind",
        r"a critical perspective",
        r"comparative",
        r"secretly",
        r"neither",
        r"limitations",
        r"effects? of",
        r"measuring",
        r"trends",
        r"revisit\w*",
        r"empirical",
        r"analy[sz]\w*",
        r"investigat\w*",
        r"the unreasonable effectiveness",
        r"a study",
        r"case study",
        r"exploring",
        r"towards understanding",
        title_only=True,
    ),
    _rule("survey-title", "survey", 1.5, r"deep dive", r"landscape", r"frontiers?", title_only=True),
    _rule("dataset-title", "dataset", 1.0, r"datasets?", r"\d+[KM] data", r"\w+ synthesis", title_only=True),
)


def _heading_rule(name: str, side: str, weight: float, *words: str, case: bool = False) -> Rule:
    return _rule(name, side, weight, *words, case=case, fields=("headings",))


# The headings a curated list files a paper under are its editors' reading of the paper. They speak
# for the learning signal, the learner and the kind of paper; only a section of method objects
# stands in for the proposal a title-only general-method claim needs.
HEADING_RULES: tuple[Rule, ...] = (
    # What RL trains with or optimises (a reward, a policy, preferences) says more than the bare word
    # "RL", which many lists put in every section's name ("RL Applications", "Memory RL").
    _heading_rule("heading-rl-objects", "rl", 1.0, r"(?:PPO|GRPO|DPO|PRMs?|RLHF|RLAIF|RLVR)\w*", case=True),
    _heading_rule(
        "heading-rl-object-words",
        "rl",
        1.0,
        r"reward (?:design|model\w*|shaping|learning)",
        r"rewards?",
        r"polic(?:y|ies)",
        r"preference (?:optimi[sz]ation|learning)",
        r"on-policy distillation",
        r"credit assignment",
        r"critic[\w-]*",
        r"self-(?:play|rewarding)",
    ),
    _heading_rule("heading-rl-theme", "rl", 0.5, r"RL", r"[\w-]*[a-z]RL", r"reinforc\w*", case=True),
    _heading_rule(
        "heading-lm",
        "lm",
        1.0,
        r"L[LR]Ms?",
        r"MLLMs?",
        r"VLMs?",
        r"LVLMs?",
        r"(?:large )?(?:vision-)?language models?",
        r"reasoning",
        r"agents?",
        r"agentic",
    ),
    # Sections of training-method objects: the editors read the paper as proposing one.
    _heading_rule(
        "heading-method",
        "positive",
        1.0,
        # Not a baseline's name ("Proximal Policy Optimization"): its section holds papers that use it.
        r"(?<!proximal )(?<!relative )(?<!direct )policy optimi[sz]ation",
        r"(?:critic-(?:free|based) |policy-gradient )?algorithms?",
        r"(?:off|on)-policy optimi[sz]ation",
        r"sampling(?: strateg(?:y|ies))?",
        r"credit assignment",
        r"advantage estimation",
        r"(?:pairwise|pointwise|listwise) (?:contrasts|methods)",
        r"objectives?",
    ),
    # Sections of surveys, benchmarks and datasets: papers about RL for language models that propose no
    # method (the lists file them as such; whether they train anything, the title says).
    _heading_rule("heading-survey", "survey", 1.0, r"surveys?", r"tutorials?"),
    _heading_rule("heading-benchmark", "benchmark", 1.0, r"benchmark\w*", r"evaluations?"),
    _heading_rule("heading-dataset", "dataset", 1.0, r"datasets?", r"data collection"),
    _heading_rule("heading-system", "system", 1.0, r"infra\w*", r"frameworks?", r"training resources?"),
    _heading_rule("heading-application", "application", 0.5, r"applications?"),
    _heading_rule("heading-analysis", "analysis", 1.0, r"analys[ie]s", r"challenges", r"understanding"),
)

RULES: tuple[Rule, ...] = (
    # --- reinforcement learning / preference optimisation ---
    _rule(
        "rl-term",
        "rl",
        1.0,
        r"reinforcement[- ]learning",
        r"policy[- ]gradients?",
        r"RL",
        r"on-policy",
        r"off-policy",
        r"policy optimi[sz]ation",
        r"self-play",
        r"actor-critic",
        r"REINFORCE",
    ),
    _rule(
        "rl-for-lm",
        "both",
        1.0,
        r"RLHF",
        r"RLVR",
        r"RLAIF",
        r"GRPO",
        r"RLOO",
        r"DPO",
        r"preference "
        r"optimi[sz]ation",
        r"direct preference",
        r"(?:learning )?(?:from|with) (?:human|AI) feedback",
        r"alignment",
        r"verifiable rewards?",
        r"reward hacking",
    ),
    _rule(
        "rl-reward",
        "rl",
        0.5,
        r"rewards?",
        r"advantages?",
        r"rollouts?",
        r"policy model",
        r"critic",
        r"PPO",
        r"preferences?",
        r"value (?:function|model|network)",
    ),
    # --- language models ---
    _rule(
        "lm-term",
        "lm",
        1.0,
        r"(?:large )?language models?",
        r"LLMs?",
        r"LMs?",
        r"LRMs?",
        r"VLMs?",
        r"MLLMs?",
        r"reasoning models?",
        r"chatbots?",
        r"instruction[- ]tuned",
        r"post-training",
        r"chain[- ]of[- ]thought",
        r"CoT",
        r"tokens?",
        r"vision[- ]language models?",
        r"autoregressive",
    ),
    _rule(
        "lm-family",
        "lm",
        1.0,
        r"Qwen[\w.\-]*",
        r"Llama[\w.\-]*",
        r"LLaMA[\w.\-]*",
        r"DeepSeek[\w.\-]*",
        r"Mistral[\w.\-]*",
        r"Gemma[\w.\-]*",
        r"GPT-[\w.]+",
        r"Phi-[\w.]+",
        r"OLMo[\w.\-]*",
    ),
    _rule(
        "lm-context",
        "lm",
        0.5,
        r"reasoning",
        r"prompts?",
        r"responses?",
        r"instruction following",
        r"math(?:ematical)?",
        r"code",
    ),
    # --- the paper proposes something ---
    _rule(
        "proposes",
        "positive",
        1.0,
        r"propos(?:e|es|ed|ing)",
        r"we introduce",
        r"we present",
        r"we develop",
        r"we design",
        r"we derive",
        r"we generali[sz]e",
        r"this paper introduces",
        r"a novel",
        r"a new",
        r"a simple yet effective",
        r"we devise",
    ),
    _rule(
        "title-name",
        "positive",
        1.5,
        _BASELINE_NAMES + r"[A-Z][\w\-$^{}]*PO",
        r"[A-Z][\w\-]* (?:Policy|Preference|Reward) Optimi[sz]ation",
        case=True,
        title_only=True,
    ),
    # --- ...and it is a training-method object ---
    _rule(
        "method-objective",
        "positive",
        1.0,
        r"objectives?",
        r"loss(?: function)?",
        r"surrogate",
        r"regulari[sz](?:ation|er)",
        r"KL (?:penalty|regulari[sz]ation|divergence|term)",
        r"entropy",
    ),
    _rule(
        "method-estimator",
        "positive",
        1.0,
        r"(?:advantage|gradient|value) estimat(?:ion|or|es)",
        r"estimators?",
        r"baselines? for",
        r"variance reduction",
        r"normali[sz]\w* (?:\w+ )?within (?:each )?"
        r"(?:prompt )?groups?",
        r"advantage normali[sz]ation",
        r"group[- ]relative",
        r"dense (?:advantages|"
        r"rewards|signal|feedback)",
        r"intrinsic rewards?",
    ),
    _rule(
        "method-clip-mask-weight",
        "positive",
        1.0,
        r"clip(?:ping|ped)?",
        r"trust region",
        r"mask(?:s|ing|ed)?",
        r"re-?weight(?:ing|s|ed)?",
        r"weighting",
        r"weighted",
        r"[\w-]+-dependent weights?",
        r"importance (?:sampling|ratios?|weights?)",
        r"importance-corrected",
        r"token-level (?:weights?|"
        r"weighting|credit)",
        r"coefficients?",
    ),
    _rule(
        "method-sampling-credit",
        "positive",
        1.0,
        r"credit assignment",
        r"dynamic sampling",
        r"(?:\w+ )?sampling (?:strategy|scheme)",
        r"curriculum",
        r"rollout (?:strategy|allocation|sampling)",
        r"allocation rule",
        r"exploration",
        r"reward shaping",
        r"[\w-]+-adaptive rewards?",
        r"off-policy correction",
        r"replay buffer",
    ),
    _rule(
        "method-algorithm",
        "positive",
        0.75,
        r"algorithms?",
        r"training (?:method|procedure|scheme|recipe|paradigm|strategy)",
        r"optimi[sz]ation (?:method|"
        r"scheme)",
        r"update rule",
        r"stabili[sz]es? (?:training|RL)",
    ),
    _rule(
        "method-general",
        "positive",
        1.0,
        r"plug-and-play",
        r"drop-in",
        r"general(?:ly applicable|-purpose)?",
        r"across (?:tasks|domains|model (?:sizes|families|scales))",
        r"algorithm-agnostic",
        r"model-agnostic",
        r"task-agnostic",
        r"one[- ]line (?:of code|change)",
        r"simple modification",
        r"applies (?:beyond|to any)",
        r"applicable to any",
        r"usable in any",
        r"any (?:group-based |policy[- ]gradient )?(?:RL )?"
        r"(?:method|algorithm|trainer)",
    ),
    # --- kinds of paper that are not a general method ---
    _rule(
        "application-domain",
        "application",
        1.0,
        r"medical",
        r"clinical",
        r"radiology",
        r"legal",
        r"financ\w*",
        r"text-to-SQL",
        r"SQL",
        r"(?:machine )?translation",
        r"recommend\w*",
        r"autonomous driving",
        r"robot\w*",
        r"GUI",
        r"web (?:agents?|navigation)",
        r"search engines?",
        r"(?:deep )?search agents?",
        r"agentic search",
        r"deep research",
        r"search-augmented",
        r"retrieval-augmented",
        r"RAG",
        r"molecul\w*",
        r"protein",
        r"chemistry",
        r"theorem prov\w*",
        r"provers?",
        r"Lean ?4?",
        r"Verilog",
        r"speech",
        r"audio",
        r"video",
        r"image generation",
        r"text-to-image",
        r"summari[sz]ation",
        r"e-commerce",
        r"customer service",
        r"education\w*",
        r"tutor\w*",
        r"geometry",
        r"charts?",
        r"tables?",
        r"tabular",
        r"spatial",
        r"embodied",
        r"diagnos\w*",
        r"hardware",
    ),
    _rule(
        "application-for",
        "application",
        0.75,
        r"for (?:the )?(?:task of|domain of)",
        r"domain-specific",
        r"in the (?:medical|legal|financial) domain",
        r"a case study",
        r"tailored (?:to|for)",
    ),
    _rule(
        "benchmark",
        "benchmark",
        1.5,
        r"benchmarks? (?:for|to evaluate|that|suite)",
        r"we (?:build|construct|"
        r"introduce|present|propose) \w* ?(?:a |an )?(?:new |challenging |comprehensive )?(?:cross-domain )?"
        r"benchmark",
        r"evaluation suite",
        r"leaderboard",
        r"evaluation (?:framework|protocol)",
        r"[\w-]*Bench",
        r"Eval\b",
    ),
    _rule(
        "dataset",
        "dataset",
        1.5,
        r"datasets? of",
        r"we (?:release|curate|collect|construct) (?:a |an )?"
        r"(?:large-scale |high-quality |new |open )?(?:dataset|corpus|collection)",
        r"open-source dataset",
        r"data (?:synthesis|curation|pipeline)",
        r"annotated",
        r"(?:post-)?training data",
    ),
    _rule(
        "survey",
        "survey",
        2.5,
        r"survey",
        r"a review of",
        r"systematic review",
        r"we review",
        r"taxonomy",
        r"position paper",
        r"overview of",
        r"tutorial",
        r"we give an overview",
    ),
    _rule(
        "reward-model",
        "reward-model",
        1.0,
        r"reward models?",
        r"process reward models?",
        r"PRMs?",
        r"ORMs?",
        r"verifiers?",
        r"generative reward",
        r"reward modell?ing",
        r"LLM-as-a-judge",
        r"judges?",
    ),
    _rule(
        "system",
        "system",
        1.0,
        r"systems?",
        r"infrastructure",
        r"throughput",
        r"asynchronous",
        r"distributed",
        r"GPUs?",
        r"speedups?",
        r"latency",
        r"memory (?:footprint|usage|efficient)",
        r"open-source (?:library|"
        r"framework|toolkit)",
        r"scalable",
        r"rollout engine",
        r"inference engine",
        r"pipelin\w*",
        r"serving",
        r"implementation",
        r"clusters?",
    ),
    _rule(
        "analysis",
        "analysis",
        1.0,
        r"we (?:study|investigate|analy[sz]e|examine|revisit|systematically "
        r"compare|compare)",
        r"empirical (?:study|analysis|investigation)",
        r"understanding",
        r"rethinking",
        r"systematic(?:ally)? (?:study|compare|comparison)",
        r"ablations?",
        r"insights? into",
        r"scaling laws?",
        r"an investigation",
        r"illusion",
    ),
    _rule(
        "analysis-finding", "analysis", 0.5, r"we (?:find|show|observe) that", r"we find", r"surprising\w*"
    ),
    _rule(
        "analysis-question",
        "analysis",
        1.0,
        # "When X Happens: a named fix" is a hook before a proposal, not a question the paper studies.
        r"^(?:does|do(?! not)|is|are|can|why|when|how|what)\b(?![^:]*:)",
        r"\?",
        title_only=True,
    ),
    *TITLE_RULES,
    *HEADING_RULES,
)


@dataclass(frozen=True)
class RuleHit:
    rule: str
    side: str
    field: str  # title, abstract or headings
    words: tuple[str, ...]
    score: float


@dataclass(frozen=True)
class Screening:
    is_rl_llm: bool
    is_general_method: bool
    kind: str  # general-method, a NOT_GENERAL_KINDS entry, other-rl-llm, not-rl-llm
    confidence: float  # of the general-method decision, 0.5..1
    rl_score: float
    lm_score: float
    method_score: float  # positives minus (discounted) negatives
    hits: tuple[RuleHit, ...]
    input: str = "title+abstract"  # what the decision was made from: title, abstract, headings joined by +
    model: dict | None = None  # a model decided: its probabilities, thresholds, strongest features

    @property
    def had_abstract(self) -> bool:
        return "abstract" in self.input.split("+")

    def reasons(self) -> str:
        """The decision and every rule that fired, as compact JSON for the Paper node."""
        return json.dumps(
            {
                "kind": self.kind,
                "rl": round(self.rl_score, 2),
                "lm": round(self.lm_score, 2),
                "method": round(self.method_score, 2),
                "input": self.input,
                "thresholds": {
                    "rl_llm": RL_LLM_THRESHOLD,
                    "general": GENERAL_THRESHOLD if self.had_abstract else TITLE_ONLY_GENERAL_THRESHOLD,
                },
                "rules": [[h.rule, h.field, list(h.words), round(h.score, 2)] for h in self.hits],
                **({"model": self.model} if self.model else {}),
            },
            separators=(",", ":"),
        )


def _hits(title: str, abstract: str, headings: str = "") -> list[RuleHit]:
    hits = []
    fields = [
        (name, text, text.lower(), factor)
        for name, text, factor in (
            ("title", title, TITLE_WEIGHT),
            ("abstract", abstract, 1.0),
            ("headings", headings, HEADING_WEIGHT),
        )
        if text
    ]
    for rule in RULES:
        for field_name, text, lowered, factor in fields:
            if field_name not in rule.fields or not rule.may_match(lowered):
                continue
            words = [
                m.group(0)
                for m in rule.pattern.finditer(text)
                if rule.side not in NOT_GENERAL_KINDS
                or not _NEGATED.search(text[max(0, m.start() - 40) : m.start()])
            ]
            if words:
                distinct = tuple(dict.fromkeys(w.lower() for w in words))
                # Repeats add little: a second distinct word adds half, the rest nothing.
                score = rule.weight * factor * (1.0 + 0.5 * (len(distinct) > 1))
                hits.append(RuleHit(rule.name, rule.side, field_name, distinct[:5], score))
    return hits


def _side(hits: list[RuleHit], side: str) -> float:
    """A side's score; for rl and lm, minus the vetoes (non-rl, non-lm)."""
    sides = (side, "both") if side in ("rl", "lm") else (side,)
    score = sum(h.score for h in hits if h.side in sides)
    if side in ("rl", "lm"):
        score -= sum(h.score for h in hits if h.side == f"non-{side}")
    return score


# What the name before a title's colon is (title_cues.title_name_kind) -> (rule, side, weight).
_NAME_KIND_RULES = {
    "method": ("title-name", "positive", 1.5),
    "model": ("title-name-model", "model", 1.5),
    "benchmark": ("title-name-benchmark", "benchmark", 1.5),
}


def _name_hit(title: str) -> RuleHit | None:
    named = title_name_kind(title)
    if named is None or named[0] not in _NAME_KIND_RULES:
        return None
    rule, side, weight = _NAME_KIND_RULES[named[0]]
    if rule == "title-name" and re.fullmatch(r"(?:PPO|DPO|GRPO|TRPO|RLOO|KTO|IPO)", named[1]):
        return None
    return RuleHit(rule, side, "title", (named[1],), weight * TITLE_WEIGHT)


def _confidence(margin: float, scale: float = 1.0) -> float:
    """0.5 at the threshold, approaching 0.5 + scale/2 as the margin grows in either direction."""
    return round(0.5 + 0.5 * scale * math.tanh(abs(margin) / 2.0), 3)


def screen_paper(
    title: str, abstract: str = "", headings: Sequence[str] = (), year: int | None = None
) -> Screening:
    """Decide (a) RL training of language models and (b) a general RL training method, with reasons.

    `headings` are the sections of curated lists the paper is filed under (HEADING_RULES); `year`
    is the paper's (for `LM_ERA_FROM_YEAR`). Where a model is shipped for the input (title alone,
    or with an abstract; screening_model.py), it decides over the rules' cues."""
    decision = screen_by_rules(title, abstract, headings, year)
    if decision.input == "title":
        model = load_model("title")
        return decision if model is None else _with_title_model(decision, title or "", model)
    if not (abstract or "").strip():
        return decision
    model = load_model("abstract")
    return decision if model is None else _with_abstract_model(decision, title or "", abstract, model)


def _method_hits(hits: list[RuleHit], title_only: bool) -> list[RuleHit]:
    """The hits that count toward a method claim. From a title alone, a "-PO" phrase in the title of
    a model or benchmark ("Model-M1: ... via X Policy Optimization") is that model's recipe."""
    if title_only and any(h.rule in ("title-name-model", "title-name-benchmark") for h in hits):
        return [h for h in hits if h.rule != "title-name"]
    return hits


def _era_hit(hits: list[RuleHit], year: int | None) -> RuleHit | None:
    """From a title alone, RL shown and no learner named, none contested, in the LM era: the
    learner is a language model, as it is for nearly every such paper in the lists that give no
    abstract. Just enough to pass, so a veto or a second doubt still outweighs it."""
    if year is None or year < LM_ERA_FROM_YEAR or any(h.side in ("lm", "both", "non-lm") for h in hits):
        return None
    if _side(hits, "rl") < RL_LLM_THRESHOLD:
        return None
    return RuleHit("lm-era", "lm", "year", (str(year),), RL_LLM_THRESHOLD)


def screen_by_rules(
    title: str, abstract: str = "", headings: Sequence[str] = (), year: int | None = None
) -> Screening:
    """The rule table's decision alone: what the models learn from and what they may overrule."""
    title_only = not (abstract or "").strip()
    heading_text = " ; ".join(h.strip() for h in headings if h and h.strip())
    hits = _hits(title or "", abstract or "", heading_text)
    named = _name_hit(title or "")
    # The same name can already count as a "-PO" name; it counts once.
    if named and not any(h.rule == named.rule and named.words[0].lower() in h.words for h in hits):
        hits.append(named)
    if title_only and (era := _era_hit(hits, year)):
        hits.append(era)
    rl, lm = _side(hits, "rl"), _side(hits, "lm")
    is_rl_llm = rl >= RL_LLM_THRESHOLD and lm >= RL_LLM_THRESHOLD
    weighed = _method_hits(hits, title_only)
    positive = _side(weighed, "positive")
    # A title alone proposes when it names a method or a method object; with an abstract, it must say so.
    proposing_rules = ("proposes", "title-name", "method-title") if title_only else ("proposes", "title-name")
    proposes = any(
        h.rule in proposing_rules or (title_only and h.rule.startswith("method-")) for h in weighed
    ) or (title_only and any(h.rule == "heading-method" for h in weighed))
    method_objects = {
        h.rule for h in weighed if h.rule.startswith("method-") and h.rule != "method-algorithm"
    }
    negatives = {kind: _side(hits, kind) for kind in NOT_GENERAL_KINDS}
    # With an abstract, a title that names the method (or its object) and an abstract that proposes it
    # outweigh the kind words around it ("the model judges its own answers" is not a reward-model paper).
    named_in_title = not title_only and any(
        h.field == "title" and (h.rule in ("title-name", "method-title") or h.rule.startswith("method-"))
        for h in hits
    )
    clear_method = len(method_objects) >= 2 or (named_in_title and any(h.rule == "proposes" for h in hits))
    # A title naming one application domain ("video", "GUI", "audio") is not discounted: the method
    # is that domain's, whatever the abstract proposes.
    domain_title = any(h.rule == "application-domain" and h.field == "title" for h in hits)
    discount = NEGATIVE_DISCOUNT_WITH_METHOD if proposes and clear_method and not domain_title else 1.0
    method_score = positive - discount * sum(negatives.values())
    if not proposes:
        method_score = min(method_score, GENERAL_THRESHOLD - 0.5)  # no proposal, no method
        if title_only:
            method_score = min(method_score, TITLE_ONLY_GENERAL_THRESHOLD - 0.5)
    threshold = TITLE_ONLY_GENERAL_THRESHOLD if title_only else GENERAL_THRESHOLD
    # Contested evidence (another learner, or no training at all) keeps a paper, not a method claim;
    # so does one application domain named in the title: the method is that domain's.
    contested = domain_title or (title_only and any(h.side in ("non-lm", "non-rl") for h in hits))
    general = is_rl_llm and not contested and method_score >= threshold
    if not is_rl_llm:
        kind = "not-rl-llm"
        margin = min(rl, lm) - RL_LLM_THRESHOLD
    else:
        strongest = max(negatives, key=lambda k: negatives[k])
        kind = "general-method" if general else (strongest if negatives[strongest] > 0 else "other-rl-llm")
        margin = method_score - threshold
    return Screening(
        is_rl_llm=is_rl_llm,
        is_general_method=general,
        kind=kind,
        confidence=_confidence(margin, TITLE_ONLY_CONFIDENCE_SCALE if title_only else 1.0),
        rl_score=rl,
        lm_score=lm,
        method_score=method_score,
        hits=tuple(hits),
        input="+".join(
            ("title", *(() if title_only else ("abstract",)), *(("headings",) if heading_text else ()))
        ),
    )


def rule_features(decision: Screening) -> set[str]:
    """What the models read from the rules: which fired, and what they decided."""
    names = {h.rule for h in decision.hits}
    names |= {"decided-rl-llm"} if decision.is_rl_llm else set()
    return names | ({"decided-general"} if decision.is_general_method else set())


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def _with_title_model(decision: Screening, title: str, model: ScreeningModel) -> Screening:
    """The rules' decision on a title, re-decided by the title model; the rules' hits stay as reasons."""
    features = title_features(title, rule_features(decision))
    p_rl, p_general = model.probability("rl_llm", features), model.probability("general", features)
    is_rl_llm = p_rl >= model.thresholds["rl_llm"]
    general = is_rl_llm and p_general >= model.thresholds["general"]
    if not is_rl_llm:
        kind, margin = "not-rl-llm", _logit(p_rl) - _logit(model.thresholds["rl_llm"])
    else:
        kind = "general-method" if general else decision.kind
        if kind in ("general-method", "not-rl-llm") and not general:
            kind = "other-rl-llm"
        margin = _logit(p_general) - _logit(model.thresholds["general"])
    reasons = {
        "rl_llm": round(p_rl, 3),
        "general": round(p_general, 3),
        "thresholds": model.thresholds,
        "strongest": {t: model.strongest(t, features) for t in ("rl_llm", "general")},
    }
    return Screening(
        is_rl_llm=is_rl_llm,
        is_general_method=general,
        kind=kind,
        confidence=_confidence(margin, TITLE_ONLY_CONFIDENCE_SCALE),
        rl_score=decision.rl_score,
        lm_score=decision.lm_score,
        method_score=decision.method_score,
        hits=decision.hits,
        input="title",
        model=reasons,
    )


def _with_abstract_model(decision: Screening, title: str, abstract: str, model: ScreeningModel) -> Screening:
    """A second reading of the rules' "general method" on a title and abstract, by the abstract model.

    It may overrule that yes, never make one: on real abstracts the rules' yes is often wrong (a
    method for one application, a framework, a model's recipe), while a model that could also
    overrule their no took yeses from papers they call surveys, benchmarks or one domain's method,
    which cost precision where such a kind is stated plainly. The rules' hits stay as reasons."""
    if not decision.is_general_method:
        return decision
    features = abstract_features(title, abstract, rule_features(decision))
    p_general = model.probability("general", features)
    threshold = model.thresholds["general"]
    reasons = {
        "general": round(p_general, 3),
        "thresholds": model.thresholds,
        "strongest": {"general": model.strongest("general", features)},
    }
    general = p_general >= threshold
    return replace(
        decision,
        is_general_method=general,
        kind="general-method" if general else "other-rl-llm",
        confidence=_confidence(_logit(p_general) - _logit(threshold)),
        model=reasons,
    )
