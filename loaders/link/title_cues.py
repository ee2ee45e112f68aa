"""Screening cues that a paper title alone carries, for when there is no abstract.

Titles of method papers rarely say "LLM" or "reinforcement learning" in full.
They say it through word forms and compounds ("Reinforcing", "ComputerRL",
"Critique-GRPO", "TreeRPO"), through the model family or the task ("Qwen",
"reasoning", "search agents"), and through the name before a colon. These
rules are added to the screener's rule table (see screening.py); each is a
named, weighted pattern so that every decision still lists what fired.

Sides, besides those of screening.py: `non-lm` (the learner is not a language
model: robots, games, diffusion image and video models, or language models are
only a tool for another learner) and `non-rl` (the paper changes no weights:
test-time, training-free or decoding-time methods). Both subtract from their
side's score.

How a `Name:` title is read (`title_name_kind`): the name before the colon is a
method proposal only when it is not named like a model, system, benchmark,
agent or dataset. Models carry version or release suffixes ("-R1", "-o1",
"-Zero", "-V2", "-3.5", a letter-digit release such as "-G1" or "-M1", an
"R1-" prefix, a trailing version digit ("MEM1"), size tags such as "7B", a model
family's name first: "Llama-Nemotron");
benchmarks and datasets carry
"Bench", "Eval", "Gym", "Arena", "QA", "Set" or "Data"; agents and models are
named as actors ("Agent", "Searcher", "Seeker", "Researcher", "Reasoner",
"Coder", "Mind", "GPT"). Failing those, the words after the colon decide
("a benchmark", "dataset", "technical report", "foundation model", "framework",
"agents", "reward model": a named reward model is a model, not a training
method). A name that survives is a method proposal.
"""

from __future__ import annotations

import re

# Names in the GRPO/DPO family exist only for language models, whatever their prefix or suffix.
LM_ONLY_FAMILIES = r"(?:GRPO|DPO|RLHF|RLVR|RLAIF|RLOO|ORPO|SimPO|KTO|DAPO|GSPO)"

_MODEL_NAME = re.compile(
    r"(?:-R1\+*|-o1|-?Zero|-[Vv]\d[\w.]*|-\d+(?:\.\d+)*|-[A-Z]\d+(?:\.\d+)?|\d+(?:\.\d+)?[BMK]|"
    r"-Flash|-Thinking)$"
    r"|^(?:R1|o1)-|(?<=[A-Za-z])\d$"
    r"|^(?:Qwen|Llama|LLaMA|DeepSeek|Mistral|Gemma|Phi-|OLMo|Nemotron)"  # a model family's own name
    r"|(?:Agent|Searcher|Seeker|Researcher|Reasoner|Coder|Mind|GPT|Bot|Assistant|Med|VL)",
)
_BENCHMARK_NAME = re.compile(r"(?:Bench|Eval|Gym|Arena|QA|Suite|Set|Data)", re.IGNORECASE)
_DESCRIBED_AS_NOT_METHOD = re.compile(
    r"\b(?:benchmark\w*|dataset|corpus|technical report|model card|foundation models?|"
    # "a scalable framework", "an open-source platform"; a bare "environment" may be what a method
    # learns from
    r"\b(?:an?|the|open[- ]source)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:framework|system|library|toolkit|platform|environment)s?\b|"
    r"^\s*(?:framework|system|library|toolkit|platform)s?\b|"
    r"^\s*(?:[\w-]+\s+){0,4}?agents?\b|evaluation suite|survey|open recipe|"
    r"rewards? model(?:s|l?ing)?\b|"
    # "a ... Video-R1 Model with ...": a singular model, named as the paper's artefact
    r"\b(?!(?:reference|value|policy|critic|teacher|base|proxy|world|language)\b)[\w-]+ model"
    r"(?=\s+(?:with|for|via|through|that|of)\b|\s*[,:;]|\s*$))",
    re.IGNORECASE,
)
_TITLE_NAME = re.compile(r"^\s*([^\s:][^:]{0,40}?)\s*:\s*(.+)$")


def title_name_kind(title: str) -> tuple[str, str] | None:
    """(kind, name) for a `Name: description` title; kind is method, model, benchmark or not-method."""
    m = _TITLE_NAME.match(title)
    if not m or " " in m.group(1).strip() and not re.search(r"[A-Z]{2}", m.group(1)):
        return None  # "Understanding R1-Zero-Like Training: ..." is a phrase, not a name
    name, description = m.group(1).strip(), m.group(2)
    if len(name.split()) > 3:
        return None
    if _BENCHMARK_NAME.search(name):
        return "benchmark", name
    if _MODEL_NAME.search(name):
        return "model", name
    if _DESCRIBED_AS_NOT_METHOD.search(description):
        return "not-method", name
    return "method", name
