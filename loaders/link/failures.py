"""Recognising issues that report a training failure, with the reason why.

Explainable rules, in the manner of the paper screener: each symptom kind has
named patterns; a match counts unless it is negated ("no NaN"), sits in a
sentence about preventing or supporting something ("add an option to avoid
OOM"), or the issue is a feature request, an RFC or a documentation issue.
How-to questions count only when the author says they ran into the symptom.
The verdict names the symptom(s), the rule, the matched text and where it was
found, the method named (catalog aliases, or a trainer class like
`GRPOTrainer`) and the framework component (trainer class, engine, role).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...graph.records import Edge, Evidence, Node
from .methods import MethodMatcher
from .threads import Thread, prose

_W = r"[^.\n]{0,40}?"  # a short stretch within one sentence


def _any(*words: str) -> str:
    return "(?:" + "|".join(words) + ")"


_VALUES = _any(
    r"loss",
    r"grad(?:ient)?s?(?:[ _]norm)?",
    r"rewards?",
    r"logits?",
    r"log[ _-]?probs?",
    r"advantages?",
    r"entropy",
    r"values?",
    r"weights",
    r"outputs?",
    r"pg_loss",
    r"policy_loss",
)
_UP = _any(
    r"explod\w*",
    r"blows? up",
    r"blew up",
    r"blowing up",
    r"spik\w*",
    r"skyrocket\w*",
    r"huge",
    r"very (?:large|high|big)",
    r"increas\w* (?:rapidly|sharply|quickly|exponentially)",
    r"(?:goes|went|shoots?|shot) up",
    r"becomes? (?:inf|nan|large|huge)",
)
_TO_ZERO = _any(r"goes to (?:zero|0)", r"went to (?:zero|0)", r"falls? to (?:zero|0)")
_DOWN = _any(r"drop\w*", r"regress\w*", r"degrad\w*", r"worse", r"decreas\w*", r"halved", r"slow\w*")
_EVALS = _any(
    r"accuracy", r"acc", r"eval\w*", r"benchmark", r"pass@\d+", r"gsm8k", r"math500", r"aime", r"performance"
)
_SPEEDS = _any(
    r"throughput",
    r"tokens?/s",
    r"tok/s",
    r"tps",
    r"samples?/s",
    r"it/s",
    r"step time",
    r"generation speed",
    r"training speed",
    r"speed",
)
_NEW_VERSION = _any(
    r"v?\d+\.\d+[\w.]*", r"version", r"latest", r"main", r"nightly", r"new(?:est)? (?:version|release)"
)

# symptom -> (rule name, pattern); symptoms listed from most to least specific.
SYMPTOM_RULES: dict[str, tuple[tuple[str, str], ...]] = {
    "kl-blowup": (
        ("kl-explodes", rf"\bkl(?:[ _-]?(?:div(?:ergence)?|loss|penalty|coef\w*))?\b{_W}\b{_UP}"),
        ("kl-is-inf", r"\bkl\w*['\"]?\s*[:=]\s*['\"]?(?:inf|nan|[1-9]\d{3,}(?:\.\d+)?)\b"),
    ),
    "nan-loss": (
        ("value-is-nan", rf"\b{_VALUES}\w*['\"]?\s*[:=]\s*['\"]?(?:nan|-?inf)\b"),
        ("value-becomes-nan", rf"\b{_VALUES}\b{_W}\b(?:nan|inf|infinity)s?\b"),
        ("nan-in-value", rf"\b(?:nan|inf)s?\b{_W}\b(?:{_VALUES}|training)\b"),
    ),
    "entropy-collapse": (
        (
            "entropy-collapses",
            rf"\bentropy\b{_W}\b(?:collaps\w*|drops?\b|dropp\w*|{_TO_ZERO}|"
            r"decreas\w* (?:to|rapidly|sharply|quickly)|vanish\w*|near(?:ly)? zero)",
        ),
        ("entropy-collapse", r"\bentropy collapse\b"),
    ),
    "reward-collapse": (
        (
            "reward-collapses",
            rf"\b(?:rewards?|scores?)\b{_W}\b(?:collaps\w*|drops? (?:to|sharply|suddenly)|"
            rf"dropp\w* (?:to|sharply|suddenly)|suddenly drops?|{_TO_ZERO})",
        ),
        ("named-collapse", r"\b(?:reward|mode|model|response[ -]length|length|policy) collapse\b"),
    ),
    "oom": (
        (
            "out-of-memory",
            r"\b(?:out of memory|outofmemoryerror|oom(?:ed|s)?|oom[- ]kill\w*|"
            r"(?:ran|runs?) out of (?:gpu |cpu |host )?memory)\b",
        ),
        ("memory-leak", r"\bmemory (?:leak\w*|(?:usage )?keeps (?:increasing|growing))\b"),
    ),
    "hang": (
        ("hangs", r"\b(?:hangs?|hanging|hung|deadlock\w*|freez\w*|frozen|stuck)\b(?! on\b)"),
        (
            "collective-timeout",
            rf"\b(?:nccl|watchdog|collective|allreduce|all_reduce|barrier|ray)\b{_W}\btime[ ]?d? ?out\b",
        ),
        ("no-progress", r"\b(?:no progress|never (?:finishes|returns|ends|completes))\b"),
    ),
    "divergence": (
        ("diverges", r"\b(?:diverg\w*|blows? up|blew up|explod\w*)\b"),
        (
            "unstable-training",
            r"\b(?:unstable training|training (?:is |becomes |gets )?(?:very )?unstable|instabilit\w*|"
            r"loss spikes?|spikes? in (?:the )?loss)\b",
        ),
    ),
    "throughput-regression": (
        (
            "slower",
            r"\b(?:\d+(?:\.\d+)?x|much|significantly|way|far|a lot|considerably) slower\b|"
            r"\bslower than\b|\bperformance regression\b",
        ),
        ("throughput-drops", rf"\b{_SPEEDS}\b{_W}\b{_DOWN}"),
    ),
    "accuracy-regression": (
        (
            "accuracy-drops",
            rf"\b{_EVALS}\b{_W}\b(?:{_DOWN}|lower than (?:expected|reported|before|the paper))",
        ),
        ("cannot-reproduce", r"\b(?:can ?not|can't|unable to|fail(?:ed)? to|couldn't|could not) reproduce\b"),
    ),
    "wrong-after-upgrade": (
        (
            "after-upgrade",
            r"\b(?:after|since) (?:upgrad\w*|updat\w*|bump\w*|switch\w* to|moving to|pulling|installing) "
            rf"(?:to )?(?:the )?{_NEW_VERSION}",
        ),
        (
            "worked-before",
            r"\b(?:worked|works|was fine|was working) (?:fine |well |correctly )?"
            r"(?:in|with|on|before) v?\d+\.\d+",
        ),
    ),
}
_COMPILED = {
    symptom: tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in rules)
    for symptom, rules in SYMPTOM_RULES.items()
}
_WRONG = re.compile(
    r"\b(?:different|wrong|worse|broken|incorrect|no longer|changed|regress\w*|breaks?|mismatch\w*|"
    r"fails?|failing)\b",
    re.IGNORECASE,
)
# Reasons a matched symptom is not a report of one.
_NEGATED = re.compile(
    r"\b(?:no|not|without|never|zero|didn't|did not|doesn't|does not|won't|free of|any)\s+(?:\w+\s+){0,2}$",
    re.IGNORECASE,
)
_PREVENTIVE = re.compile(
    r"\b(?:avoid\w*|prevent\w*|reduc\w* the (?:risk|chance)|to save memory|would be (?:nice|great|helpful)|"
    r"could we|can we add|please add|feature|option to|support for|in order not to|help(?:s)? with)\b",
    re.IGNORECASE,
)
_REQUEST_TITLE = re.compile(
    r"^\s*(?:[\[(]\s*(?:feature|feat|rfc|proposal|enhancement|docs?|documentation|roadmap|discussion)\b|"
    r"(?:feature request|rfc|proposal|roadmap)\b|"
    r"(?:add|support|implement|allow|enable|expose|document|introduce|integrate|request)\b(?!.*\b(?:bug|error|fail\w*|crash\w*)\b))",
    re.IGNORECASE,
)
_REQUEST_LABELS = {"enhancement", "feature", "feature request", "documentation", "rfc", "roadmap"}
_QUESTION_TITLE = re.compile(
    r"^\s*(?:[\[(]\s*question\s*[\])]\s*)?(?:how (?:do|can|to|should)|is it possible|is there|"
    r"does \w+ support|what is|why (?:do|does|is) (?:the )?(?:default|recommended))\b",
    re.IGNORECASE,
)
_EXPERIENCED = re.compile(
    r"\b(?:(?:i|we)\s+(?:\w+\s+)?(?:get|got|see|saw|hit|encounter\w*|observe\w*|notic\w*|am getting|"
    r"are getting|keep getting|run into|ran into|found|have)|"
    r"my (?:training|run|job|loss|model|reward|experiment)|keeps? (?:getting|happening)|"
    r"always (?:gets?|ends?))\b",
    re.IGNORECASE,
)
_TRAINING = re.compile(
    r"\b(?:train\w*|rollout\w*|steps?|epochs?|loss|rewards?|grpo|ppo|dpo|fine-?tun\w*|trainer|actor|critic|policy|"
    r"generation|vllm|sglang|fsdp\d?|megatron|deepspeed|checkpoint\w*|gradients?|batch|rl|rlhf|sft|kl|entropy|"
    r"advantages?|gpus?|nodes?|ranks?|reproduc\w*|recipes?|examples?|scripts?|accuracy)\b",
    re.IGNORECASE,
)
_TRAINER_CLASS = re.compile(r"\b([A-Z][A-Za-z0-9]*?)(?:Trainer|Config)\b|\b([a-z0-9]+)_trainer\b")
_COMPONENTS = re.compile(
    r"\b(vllm|sglang|fsdp2?|megatron(?:-core|-lm)?|deepspeed(?: zero-?[123])?|zero-?[123]|ray|nccl|"
    r"reward model|reference model|ref model|critic|actor|rollout(?: worker)?|checkpoint\w*|dataloader|"
    r"lora|peft|liger|flash[- ]?attn|flash[- ]attention|sequence packing|padding[- ]free|ulysses|"
    r"tensor parallel\w*|pipeline parallel\w*)\b",
    re.IGNORECASE,
)
SYMPTOMS = tuple(SYMPTOM_RULES)


@dataclass(frozen=True)
class FailureVerdict:
    """Why an issue is a failure report: the first symptom is the main one."""

    symptoms: tuple[str, ...]
    rule: str  # "<symptom>/<rule name>" of the main symptom
    identifier: str  # the text it matched
    place: str  # title or body
    confidence: float
    method: str | None = None
    method_identifier: str | None = None
    method_rule: str | None = None
    method_confidence: float | None = None
    component: str | None = None

    @property
    def symptom(self) -> str:
        return self.symptoms[0]


@dataclass(frozen=True)
class _Hit:
    symptom: str
    rule: str
    text: str
    place: str
    in_code: bool


def _sentence(text: str, start: int, end: int) -> str:
    left = max(text.rfind(".", 0, start), text.rfind("\n", 0, start)) + 1
    right_candidates = [i for i in (text.find(".", end), text.find("\n", end)) if i != -1]
    return text[left : min(right_candidates) if right_candidates else len(text)]


def _hits(place: str, text: str) -> Iterator[_Hit]:
    kept = prose(text)
    for symptom, rules in _COMPILED.items():
        for name, pattern in rules:
            for m in pattern.finditer(text):
                before = text[max(0, m.start() - 30) : m.start()]
                in_code = kept[m.start() : m.end()].strip() != m.group(0).strip()
                if not in_code and (
                    _NEGATED.search(before) or _PREVENTIVE.search(_sentence(text, m.start(), m.end()))
                ):
                    continue
                yield _Hit(symptom, name, m.group(0), place, in_code)


def _is_request(title: str, labels: tuple[str, ...]) -> bool:
    return bool(_REQUEST_TITLE.search(title)) or any(lb.lower() in _REQUEST_LABELS for lb in labels)


def _method(title: str, body: str, matcher: MethodMatcher) -> tuple[str, str, str, float] | None:
    for text in (title, body):
        found = matcher.find(text)
        if found:
            m = found[0]
            return m.slug, m.text, m.rule, m.confidence
        for m in _TRAINER_CLASS.finditer(text):
            prefix = m.group(1) or m.group(2)
            named = matcher.find(prefix) if prefix else []
            if named:
                return named[0].slug, m.group(0), "trainer-class", 0.8
    return None


def _component(title: str, body: str) -> str | None:
    for text in (title, body):
        trainer = re.search(r"\b[A-Z][A-Za-z0-9]*Trainer\b", text)
        if trainer:
            return trainer.group(0)
        m = _COMPONENTS.search(text)
        if m:
            return m.group(0).lower()
    return None


def classify_failure(
    title: str, body: str, matcher: MethodMatcher | None = None, labels: tuple[str, ...] = ()
) -> FailureVerdict | None:
    """A verdict if the issue reports a training failure, else None."""
    title, body = title or "", body or ""
    if _is_request(title, labels):
        return None
    whole = f"{title}\n{body}"
    method = _method(title, body, matcher) if matcher else None
    if not _TRAINING.search(whole) and method is None:
        return None
    hits = [*_hits("title", title), *_hits("body", body)]
    if not hits:
        return None
    if _QUESTION_TITLE.search(title) and not _EXPERIENCED.search(whole) and not any(h.in_code for h in hits):
        return None
    found = {h.symptom for h in hits}
    if "wrong-after-upgrade" in found and len(found) == 1 and not _WRONG.search(whole):
        return None
    symptoms = tuple(s for s in SYMPTOMS if s in found)
    # What the title says is the main symptom; within a place, the most specific one.
    main = min(hits, key=lambda h: (h.place != "title", SYMPTOMS.index(h.symptom), h.in_code))
    confidence = 0.9 if main.place == "title" else (0.7 if main.in_code else 0.8)
    if len(symptoms) > 1:
        confidence = min(0.95, confidence + 0.05)
    return FailureVerdict(
        symptoms=(main.symptom, *(s for s in symptoms if s != main.symptom)),
        rule=f"{main.symptom}/{main.rule}",
        identifier=main.text,
        place=main.place,
        confidence=confidence,
        method=method[0] if method else None,
        method_identifier=method[1] if method else None,
        method_rule=method[2] if method else None,
        method_confidence=method[3] if method else None,
        component=_component(title, body),
    )


def failure_records(thread: Thread, verdict: FailureVerdict) -> Iterator[Node | Edge]:
    """A FailureReport node linked to its Issue, its Framework and, when named, its Method."""
    key = f"{thread.key}/failure"
    location = f"{thread.key} {verdict.place}"
    yield Node(
        "FailureReport",
        key,
        {
            "symptom": verdict.symptom,
            "symptoms": list(verdict.symptoms),
            "component": verdict.component,
            "framework": thread.framework,
            "reported_date": thread.created_at[:10] if thread.created_at else None,
            "rule": verdict.rule,
            "confidence": verdict.confidence,
            "location": location,
            "identifier": verdict.identifier,
        },
        origin=location,
    )
    yield Edge("REPORTED_IN", ("FailureReport", key), ("Issue", thread.key))
    yield Edge(
        "AFFECTS",
        ("FailureReport", key),
        ("Framework", thread.framework),
        Evidence("issue", thread.key, thread.framework, "reported-in-framework-tracker", 1.0).props(),
    )
    if verdict.method:
        yield Edge(
            "AFFECTS",
            ("FailureReport", key),
            ("Method", verdict.method),
            Evidence(
                "issue-text",
                location,
                verdict.method_identifier,
                verdict.method_rule,
                verdict.method_confidence,
            ).props(),
        )
