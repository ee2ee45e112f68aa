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
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass

RL_LLM_THRESHOLD = 1.0
GENERAL_THRESHOLD = 2.0
TITLE_WEIGHT = 1.5
# Negative kinds are discounted when the paper clearly proposes a method object:
# "we analyse X and propose a new clipping rule" is still a method paper.
NEGATIVE_DISCOUNT_WITH_METHOD = 0.5

NOT_GENERAL_KINDS = ("application", "benchmark", "dataset", "survey", "reward-model", "system", "analysis")


@dataclass(frozen=True)
class Rule:
    name: str
    side: str  # rl, lm, both (RL words that only exist for language models), positive, or a negative kind
    pattern: re.Pattern
    weight: float
    fields: tuple[str, ...] = ("title", "abstract")


def _rule(
    name: str, side: str, weight: float, *words: str, case: bool = False, title_only: bool = False
) -> Rule:
    flags = 0 if case else re.IGNORECASE
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(words) + r")(?![\w])", flags)
    return Rule(name, side, pattern, weight, ("title",) if title_only else ("title", "abstract"))


# Methods everyone builds on: naming them is not proposing them.
_BASELINE_NAMES = r"(?!(?:PPO|DPO|GRPO|TRPO|RLOO|KTO|IPO)\b)"
# A negative kind mentioned as something the paper does without ("without a reward model") is no evidence.
_NEGATED = re.compile(
    r"(?:without|no need for|instead of|rather than|remov\w*|replac\w*|free of|no)\W+(?:\w+\W+){0,3}$",
    re.IGNORECASE,
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
        r"(?:learning )?from (?:human|AI) feedback",
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
        _BASELINE_NAMES + r"[A-Z][\w\-+.]*[A-Z][\w\-+.]*(?=:)",
        _BASELINE_NAMES + r"[A-Z][\w\-]*PO",
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
        r"off-policy correction",
        r"replay buffer",
    ),
    _rule(
        "method-algorithm",
        "positive",
        0.75,
        r"algorithms?",
        r"training method",
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
        r"retrieval-augmented",
        r"RAG",
        r"molecul\w*",
        r"protein",
        r"chemistry",
        r"theorem proving",
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
        r"^(?:does|do|is|are|can|why|when|how|what)",
        r"\?",
        title_only=True,
    ),
)


@dataclass(frozen=True)
class RuleHit:
    rule: str
    side: str
    field: str  # title or abstract
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

    def reasons(self) -> str:
        """The decision and every rule that fired, as compact JSON for the Paper node."""
        return json.dumps(
            {
                "kind": self.kind,
                "rl": round(self.rl_score, 2),
                "lm": round(self.lm_score, 2),
                "method": round(self.method_score, 2),
                "thresholds": {"rl_llm": RL_LLM_THRESHOLD, "general": GENERAL_THRESHOLD},
                "rules": [[h.rule, h.field, list(h.words), round(h.score, 2)] for h in self.hits],
            },
            separators=(",", ":"),
        )


def _hits(title: str, abstract: str) -> list[RuleHit]:
    hits = []
    for rule in RULES:
        for field_name, text, factor in (("title", title, TITLE_WEIGHT), ("abstract", abstract, 1.0)):
            if field_name not in rule.fields:
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
    sides = (side, "both") if side in ("rl", "lm") else (side,)
    return sum(h.score for h in hits if h.side in sides)


def _confidence(margin: float) -> float:
    """0.5 at the threshold, approaching 1 as the margin grows in either direction."""
    return round(0.5 + 0.5 * math.tanh(abs(margin) / 2.0), 3)


def screen_paper(title: str, abstract: str = "") -> Screening:
    """Decide (a) RL training of language models and (b) a general RL training method, with reasons."""
    hits = _hits(title or "", abstract or "")
    rl, lm = _side(hits, "rl"), _side(hits, "lm")
    is_rl_llm = rl >= RL_LLM_THRESHOLD and lm >= RL_LLM_THRESHOLD
    positive = _side(hits, "positive")
    proposes = any(h.rule in ("proposes", "title-name") for h in hits)
    method_objects = {h.rule for h in hits if h.rule.startswith("method-") and h.rule != "method-algorithm"}
    negatives = {kind: _side(hits, kind) for kind in NOT_GENERAL_KINDS}
    discount = NEGATIVE_DISCOUNT_WITH_METHOD if proposes and len(method_objects) >= 2 else 1.0
    method_score = positive - discount * sum(negatives.values())
    if not proposes:
        method_score = min(method_score, GENERAL_THRESHOLD - 0.5)  # no proposal, no method
    general = is_rl_llm and method_score >= GENERAL_THRESHOLD
    if not is_rl_llm:
        kind = "not-rl-llm"
        margin = min(rl, lm) - RL_LLM_THRESHOLD
    else:
        strongest = max(negatives, key=lambda k: negatives[k])
        kind = "general-method" if general else (strongest if negatives[strongest] > 0 else "other-rl-llm")
        margin = method_score - GENERAL_THRESHOLD
    return Screening(
        is_rl_llm=is_rl_llm,
        is_general_method=general,
        kind=kind,
        confidence=_confidence(margin),
        rl_score=rl,
        lm_score=lm,
        method_score=method_score,
        hits=tuple(hits),
    )
