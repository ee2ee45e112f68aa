"""Which method a paper proposes, from its title and abstract.

A paper proposes a method when it *names* it as its own: "DAPO: ...",
"Group Sequence Policy Optimization (GSPO)", "we propose GFPO", "ProRL, a
...". A method merely mentioned ("improves over GRPO", "an ORPO-like loss") is
not proposed. Names are matched to the catalog by their normalised spelling
(case, dots, hyphens and spaces ignored), so a common word ("prime", "sapo")
or a name inside a longer word ("MAPPO", "PPOTrainer") never becomes a link:
only a token shaped like a method name, in a proposing position, is a
candidate at all. Unknown names become new methods with a slug.

Names are compared by `name_key`: case, dots, hyphens and spaces ignored
("Vapo" is VAPO, "Reinforce++" is REINFORCE++), except a leading lower-case
prefix before capitals, which marks a different method ("sDPO" is not SDPO)
unless the paper's arXiv id is the catalog method's own. A catalog acronym
proposed in the title of a paper with another arXiv id is another method that
shares the acronym (a method is proposed once), so it gets its own slug.

An abstract names its proposal in many ways; each is read after a proposing
verb ("we propose/introduce/present/develop", "and introduce" later in a
sentence that began with "we", "we address this challenge with", "our
framework,"): a spelled-out name with its short form in parentheses or after
", or"; the name a sentence "calls" it; the parenthesised name closing the noun
phrase ("a novel PSRL framework (AttnRL)"); or the first name-shaped token. A
run of capitalised words is read whole: a name when it ends in a method head
noun or is followed by a short form, otherwise a description. TeX markup kept
in arXiv abstracts ("\\textbf{DAPO}") is dropped first.

Each proposal says what the name is (`kind`): a `method`, or a `model`,
`benchmark` or `not-method` (title_cues.title_name_kind reads the title). A new
Method node is made only for a method (`creates_method`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .title_cues import title_name_kind

# A token shaped like a method name: at least two capitals, or a capital after
# lower case (ProRL, GiGPO), or capitals and digits (C3PO, M2PO); may end in ++.
_NAME = r"[$A-Za-z][A-Za-z0-9$^{}*]*(?:[-.][$A-Za-z0-9^{}]+)*(?:\+\+)?"
_SUFFIX_NOT_A_NAME = re.compile(r"-(?:like|style|based|type|inspired|free|only|aware|level|specific)$", re.I)
# Acronyms that name things other than a proposed training method.
_NOT_METHODS = {
    "llm",
    "llms",
    "lm",
    "lms",
    "rl",
    "rlhf",
    "rlvr",
    "rlaif",
    "sft",
    "cot",
    "ai",
    "gpu",
    "gpus",
    "kl",
    "moe",
    "nlp",
    "vlm",
    "vlms",
    "mllm",
    "mllms",
    "lrm",
    "lrms",
    "api",
    "qa",
    "sota",
    "aime",
    "math",
    "gsm8k",
    "ppo",
    "dpo",
    "grpo",
    "pass@k",
    "rm",
    "prm",
    "orm",
    "ii",
    "iii",
    "iv",
    "us",
    "we",
    "usa",
    "r1",
    "o1",
    "gpt",
}

_TITLE_COLON = re.compile(r"^\s*(?P<name>[^:]{2,40}?)\s*:")
# Two names before one colon: "X and Y:", "X & Y:", "X/Y:", "X, Y:".
_NAME_LIST = re.compile(r"\s*(?:,|&|/|\band\b)\s*")
# A spelled-out method name in a title: capitalised words ending in a training-method head noun
# ("Group Expectation Policy Optimization", "Proximal Supervised Fine-Tuning"), at the start of the
# title, after "via/with/using/through/by", or after "for" at the very end of the title, and followed
# by the end, a colon or a preposition.
_HEADS = (
    r"Optimi[sz]ation|Fine-?[Tt]uning|Finetuning|Estimation|REINFORCE|Sampling|Clipping|Masking|"
    r"Weighting|Normali[sz]ation|Distillation|Regulari[sz]ation|Policy Gradients?"
)
_HEAD_AT_END = re.compile(rf"(?:{_HEADS})$")
_CAP_WORD = r"(?:[A-Z][\w$^{}*+']*(?:-[\w$^{}]+)*)"
_LONG_NAME = re.compile(
    rf"(?:^|(?<=:\s)|\b(?:via|with|using|through|by)\s+|\bfor\s+(?=(?:{_CAP_WORD}\s+){{1,6}}(?:{_HEADS})\s*$))"
    rf"(?P<long>(?:{_CAP_WORD}\s+){{1,6}}(?:{_HEADS}))(?=\s*$|\s*[:(,]|\s+(?:for|in|and|with|via|to|on|of|from|under|towards?|beyond)\b)"
)
# First words of a capitalised run that are the sentence around a name, not part of it.
_NOT_NAME_START = re.compile(
    r"^(?:Beyond|Towards?|On|Rethinking|Revisiting|Understanding|When|Why|How|What|Does|Do|Is|Are|Can|"
    r"The|A|An|Learning|Training|Scaling|Improving|Enhancing|Boosting|Mitigating|Efficient|Simple|Stable|"
    r"Better|Unified|Unifying|Towards|Bridging|From|Through|Via|With|Using|For|And|Or|Not|No|Just|All|One)$"
)
# Long names of the methods everyone builds on, by their initials: naming them is not proposing them.
_BASELINE_INITIALS = {"ppo", "dpo", "grpo", "trpo", "po"}
_LONG_WITH_ACRONYM = re.compile(
    rf"(?P<long>(?:[A-Z][\w-]*\s+){{1,6}}(?:Optimi[sz]ation|Learning|Training|Gradient|Estimat\w+|Alignment|"
    rf"Reinforcement|Sampling|Clipping|Masking|Weighting|Regulari[sz]ation|Policy|Objective))\s*"
    rf"\((?P<name>{_NAME})\)"
)
_PROPOSE = re.compile(
    r"\b(?:we|this (?:paper|work))\s+(?:(?:also|further|then|first|additionally)\s+)?"
    r"(?:propose|introduce|present|develop|call|name|term)s?\b"
    # "We formalize this setting ... and introduce X": the second verb of the same sentence.
    r"|\bwe\s+[a-z]+\b[^.;:!?]{0,120}?\band\s+(?:then\s+)?(?:propose|introduce|present|develop)\b"
    # "We address this challenge with X", "Our framework, X, ...": the answer the paper offers.
    r"|\bwe\s+(?:address|tackle|solve|answer)\b[^.;:!?]{0,80}?\b(?:with|by|via)\b"
    r"|\bour\s+(?:new\s+|novel\s+|proposed\s+)?(?:method|framework|approach|algorithm|objective),",
    re.IGNORECASE,
)
# After the verb, the name comes before any of these: "a clipping rule for GSPO" proposes no GSPO.
_CLAUSE_END = re.compile(
    r"[.;:!?](?:\s|$)|\b(?:for|to|in|into|on|of|over|than|with|from|based|by|that|which)\b"
)
_NAMING = re.compile(r"\b(?:called|named|dubbed|termed)\s+$", re.IGNORECASE)
# "We propose ... and introduce X": a second proposing verb in a sentence that began with "we".
_AND_PROPOSE = re.compile(r"\band\s+(?:then\s+)?(?:propose|introduce|present|develop)s?\b")
# "an RL algorithm called X": the name a sentence gives its proposal, however long the description.
_CALLED = re.compile(
    rf"\b(?:called|named|dubbed|termed)\s+[\"“]?(?P<name>{_NAME}(?:\s+[A-Z][\w-]*){{0,3}})(?=[\s,;.:\"”)]|$)"
)
# "X, a method for ...": an abstract saying its name is a training method, whatever the title calls it.
_METHOD_APPOSITIVE = re.compile(
    r"^,\s+(?:a|an)\s+(?:(?:[\w-]+|\([\w-]+\))\s+){0,5}?(?:method|algorithm|objective|loss|estimator|technique)\b"
)
# "Meta Reinforcement Fine-Tuning, or MRT,": a spelled-out name and its short form.
_OR_SHORT = re.compile(rf"\s*(?P<long>(?:[A-Z][\w-]*\s+){{0,7}}[A-Z][\w-]*),\s+or\s+(?P<name>{_NAME})\b")
# "a novel PSRL framework (AttnRL)", "reinforcement learning with performance feedback (RLPF)": the
# noun phrase after a proposing verb, closed by the name in parentheses.
_PHRASE_THEN_NAME = re.compile(rf"\s*(?P<long>[^.;:!?()]{{3,100}}?)\s*\((?P<name>{_NAME})\s*\)")
_ARTICLES = re.compile(r"^(?:(?:a|an|the|our|new|novel|simple|general|unified)\s+)*", re.IGNORECASE)
# Text markup that arXiv abstracts keep: "\textbf{DAPO}" is DAPO.
_TEX_MARKUP = re.compile(r"\\(?:textbf|textit|textsc|texttt|emph|mathbf|mathrm|text)\{([^{}]*)\}")
_TEX_PLAIN_MATH = re.compile(r"\$([A-Za-z0-9]+)\$")  # "$D$ecoupled" once the markup inside is gone
# Pieces of a proposing sentence: a name token, a short name in parentheses, a run of capitalised
# words ("Long-Short Memory Sampling"), a hyphenated title-case compound ("Self-Reflection").
_NAME_TOKEN = re.compile(_NAME)
_PAREN_NAME = re.compile(rf"\s*\(({_NAME})\s*\)")
_CAPITAL_RUN = re.compile(r"(?:[A-Z][\w-]*\s+(?:&\s+)?)+[A-Z][\w-]*")
_TITLE_CASE_COMPOUND = re.compile(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)+")
_SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")
# Right after a proposing verb, a spelled-out name and its short name in parentheses: "we introduce
# Reinforcement Pre-Training (RPT)", "we propose Self-Principled Critique Tuning (SPCT)". The short
# name is the name; the capitalised words (with the small words a name may hold) are its long name.
_PROPOSED_WITH_SHORT_NAME = re.compile(
    r"\s*(?:(?:a|an|the)\s+)?(?:(?:new|novel|simple|general|unified)\s+)*[\"“]?"
    r"(?P<long>[A-Z][\w-]*(?:\s+(?:[A-Za-z][\w-]*))*?)[\"”]?\s*"
    rf"\((?P<name>{_NAME})\s*\)"
)
_APPOSITION = re.compile(
    rf"(?:^|[.!?]\s+)(?P<name>{_NAME}),\s+(?:a|an)\s+(?:(?:new|novel|simple|general|principled|scalable|"
    rf"unified|efficient|stable|effective|lightweight|critic-free|value-based)\s+)*"
    rf"(?:[\w-]+\s+){{0,4}}(?:algorithm|method|objective|approach|framework|technique|estimator|loss|variant|"
    rf"recipe|strategy|rule|scheme|mechanism|regulari[sz]er|penalty|baseline)"
)


def normalize_name(name: str) -> str:
    """`Dr. GRPO`, `dr_grpo` and `DrGRPO` are one name; `C3PO++` keeps its pluses."""
    return re.sub(r"[^a-z0-9+]", "", name.lower())


# A lower-case prefix before capitals is part of the name: sDPO and SDPO are two methods.
_CASE_PREFIX = re.compile(r"^([a-z]{1,3})(?=[A-Z].*[A-Z])")


def name_key(name: str) -> str:
    """The spelling-free identity of a name: `normalize_name`, keeping a lower-case prefix apart."""
    if m := _CASE_PREFIX.match(name.strip("$ ")):
        return m.group(1) + "_" + normalize_name(name.strip("$ ")[m.end() :])
    return normalize_name(name)


def slugify(name: str) -> str:
    if m := _CASE_PREFIX.match(name.strip("$ ")):
        return slugify(m.group(1)) + "-" + slugify(name.strip("$ ")[m.end() :])
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("++", "-pp")).strip("-")


def initials(long_name: str) -> str:
    """`Group Relative Policy Optimization` -> grpo; `Fine-Tuning` counts both halves."""
    return "".join(w[0] for w in re.split(r"[\s-]+", long_name) if w and w[0].isalpha()).lower()


def acronym_fits(name: str, long_name: str) -> bool:
    """Whether a title's `name` and spelled-out `long_name` can be one method: same first letter.

    Acronyms skip and add letters freely (VESPO, "Variational Sequence-Level Soft Policy
    Optimization"), so only the first letter is held to; both come from one title."""
    letters = re.sub(r"\$[^$]*\$|[^A-Za-z]", "", name)
    return bool(letters) and letters[0].lower() == long_name.lstrip()[0].lower()


def looks_like_method_name(token: str) -> bool:
    if normalize_name(token) in _NOT_METHODS or _SUFFIX_NOT_A_NAME.search(token):
        return False
    token = re.sub(r"\$[^$]*\$", "", token)  # "AT$^2$PO": the TeX part is decoration
    capitals = sum(c.isupper() for c in token)
    camel = re.search(r"[a-z][A-Z]", token) is not None
    return capitals >= 2 or camel or (capitals >= 1 and any(c.isdigit() for c in token))


@dataclass(frozen=True)
class Proposal:
    slug: str
    name: str  # as the paper writes it
    long_name: str | None
    known: bool  # a catalog method
    # catalog-arxiv-id, title-name, title-long-name, title-acronym, abstract-acronym, we-propose, apposition
    rule: str
    field: str  # title, abstract, catalog
    text: str  # the words matched
    confidence: float
    kind: str = "method"  # method, model, benchmark or not-method: what the name names


_RULE_CONFIDENCE = {
    "catalog-arxiv-id": 1.0,
    "title-name": 0.85,
    "title-acronym": 0.85,
    "title-long-name": 0.8,
    "abstract-acronym": 0.8,
    "we-propose": 0.8,
    "apposition": 0.7,
}


def plain_text(text: str) -> str:
    """Text without the TeX markup arXiv abstracts keep ("\\textbf{S}elf" is "Self")."""
    if "\\" not in text:
        return text
    return _TEX_PLAIN_MATH.sub(r"\1", _TEX_MARKUP.sub(r"\1", text)).replace("\\%", "%")


def _sentence_after(text: str, start: int) -> str:
    tail = text[start : start + 240]
    end = _SENTENCE_END.search(tail)
    return tail[: end.start()] if end else tail


def _capital_run(runs: list[re.Match], token: re.Match) -> re.Match | None:
    """The run of capitalised words (`_CAPITAL_RUN` matches) a token belongs to."""
    return next((m for m in runs if m.start() <= token.start() < m.end()), None)


def _describes(word: str) -> bool:
    """A capitalised word that starts a description rather than a name: not name-shaped, or words
    joined by hyphens ("Self-Reflection", "Multi-Agent")."""
    return not looks_like_method_name(word) or _TITLE_CASE_COMPOUND.fullmatch(word) is not None


def _named_after(text: str, start: int) -> tuple[str, str | None] | None:
    """(name, long name) of the method a proposing verb names, within its clause: a name the sentence
    calls it, a spelled-out name with its short form, or the first method-shaped token. A token inside
    a run of capitalised words is that run: a name when it ends in a method head noun ("Long-Short
    Memory Sampling"), otherwise a description passed over."""
    sentence = _sentence_after(text, start)
    if called := _CALLED.search(sentence):
        # "called TreeRL", "called Absolute Zero": a name-shaped token, or the capitalised words.
        words = called.group("name").split()
        name = words[0] if looks_like_method_name(words[0]) else " ".join(words)
        if name != words[0] and (short := _PAREN_NAME.match(sentence, called.end())):
            return short.group(1), name  # "called Retrospective Replay-based RL (RRL)"
        if looks_like_method_name(name):
            return name, None
    if (short := _OR_SHORT.match(sentence)) and looks_like_method_name(short.group("name")):
        return short.group("name"), short.group("long")
    tail = text[start : start + 160]
    runs = list(_CAPITAL_RUN.finditer(tail))
    skip_to = 0
    for token in _NAME_TOKEN.finditer(tail):
        if token.start() < skip_to:
            continue
        before = tail[: token.start()]
        end = _CLAUSE_END.search(before)
        if end and not _NAMING.search(before):
            return None
        if tail[token.end() : token.end() + 1] not in ("", " ", ",", ".", ";", ":", ")"):
            continue  # "DAPO's", "GRPO-like" (hyphens are inside the token already)
        run = _capital_run(runs, token)
        if run and _describes(run.group(0).split()[0]):
            if short := _PAREN_NAME.match(tail, run.end()):
                return short.group(1), run.group(0)  # "Unified Reward & Policy Optimization (URPO)"
            if _HEAD_AT_END.search(run.group(0)):
                return run.group(0), None
            skip_to = run.end()
            continue
        if looks_like_method_name(token.group(0)):
            return token.group(0), None
    return None


def _phrase_then_name(text: str, start: int) -> re.Match | None:
    """ "we introduce a novel PSRL framework (AttnRL)": the parenthesised name that closes the noun
    phrase after the verb, when the phrase holds no clause break or spells the name out."""
    m = _PHRASE_THEN_NAME.match(text, start)
    if not m or not looks_like_method_name(m.group("name")):
        return None
    phrase = _ARTICLES.sub("", m.group("long").strip())
    if len(phrase.split()) > 8 or "," in phrase:
        return None
    spelled = phrase[:1].lower() == m.group("name")[:1].lower()
    return m if spelled or not _CLAUSE_END.search(phrase) else None


def _spelled_out(m: re.Match) -> bool:
    """Whether a long name before a parenthesised short name spells it out: at most eight words, and
    the short name's first letter is its first word's ("Reinforcement Pre-Training (RPT)")."""
    words = m.group("long").split()
    return len(words) <= 8 and m.group("name")[:1].lower() == words[0][:1].lower()


def _title_case_word(token: str) -> bool:
    """ "Remax", "Vapo", "V-star": a name whose capitals a title's casing may have lost."""
    return re.fullmatch(r"[A-Z](?:[a-z]{2,}(?:-[A-Za-z]+)?|-[a-z]{3,})(?:\+\+)?", token) is not None


def _two_word_name(prefix: str) -> str | None:
    """ "Constitutional AI", "S2 R": two capitalised words, one of them capitals or digits only, read
    as one name (the spaces are dropped for matching, kept in the name)."""
    words = prefix.split()
    if (
        len(words) == 2
        and all(w[:1].isupper() for w in words)
        and any(re.fullmatch(r"[A-Z0-9]+", w) for w in words)
    ):
        return prefix if looks_like_method_name(prefix.replace(" ", "")) else None
    return None


def _long_names(title: str) -> list[tuple[str, str]]:
    """(long name, matched words) of the spelled-out method names in a title."""
    found = []
    for m in _LONG_NAME.finditer(title):
        words = m.group("long").split()
        long_name = " ".join(words)
        generic = any(normalize_name(w) in ("rl", "llm", "llms", "lm", "rlhf", "rlvr") for w in words)
        if (
            not generic
            and not _NOT_NAME_START.match(words[0])
            and len(words) >= 2
            and initials(long_name) not in _BASELINE_INITIALS
        ):
            found.append((long_name, m.group(0).strip()))
    return found


# Screening evidence against a new method: the learner is not a language model, nothing is trained,
# or the paper is about one application domain. Any of these in a title makes its name a poor Method.
NODE_VETO_SIDES = ("non-lm", "non-rl")
NODE_VETO_RULES = ("application-domain",)


def creates_method(proposal: Proposal, screening) -> bool:
    """Whether a proposal becomes a new Method node: a training method the catalog lacks, from a
    paper screened as proposing a general method with no evidence against it (otherwise the name
    is more likely a system, benchmark, model or an application's recipe). `screening` is a
    screening.Screening."""
    if proposal.known or proposal.kind != "method" or not screening.is_general_method:
        return False
    if any(h.side in NODE_VETO_SIDES or h.rule in NODE_VETO_RULES for h in screening.hits):
        return False
    # The text must also say what kind of method the name is: shaped like a policy-optimisation name,
    # spelled out, or next to a method cue. A bare acronym may as well be a model or a system.
    return method_shaped(proposal) or any(
        h.side == "positive" and h.rule != "title-name" for h in screening.hits
    )


def method_shaped(proposal: Proposal) -> bool:
    """A "-PO" name (GiGPO, AT$^2$PO), or a name the paper spells out with a method head noun."""
    letters = re.sub(r"\$[^$]*\$|[^A-Za-z]", "", proposal.name)
    return letters.endswith("PO") or proposal.long_name is not None or proposal.rule == "title-long-name"


def _proposing_verbs(abstract: str) -> list[tuple[int, int]]:
    """(start, end) of each proposing verb: "we propose", and "and introduce" later in a sentence
    that began with "we"."""
    verbs = {m.end(): m.start() for m in _PROPOSE.finditer(abstract)}
    for m in _AND_PROPOSE.finditer(abstract):
        sentence = re.split(r"[.;!?]\s", abstract[: m.start()])[-1]
        if re.search(r"\bwe\b", sentence, re.IGNORECASE):
            verbs.setdefault(m.end(), m.start())
    return sorted((start, end) for end, start in verbs.items())


class ProposalFinder:
    """Finds proposed methods; built once from the catalog's methods."""

    def __init__(self, methods: Iterable):
        self._methods = list(methods)
        self._by_name: dict[str, str] = {}  # name_key -> slug
        self._keys: dict[str, set[str]] = {}  # slug -> its names, case folded: for the arXiv-id exception
        self._by_paper: dict[str, list[str]] = {}
        self._paper_of: dict[str, str] = {}
        for method in self._methods:
            for alias in (method.name, *method.aliases, method.slug):
                # Code identifiers (snake_case, key=value) are not how papers name methods.
                if "_" in alias or "=" in alias or "/" in alias:
                    continue
                self._by_name.setdefault(name_key(alias), method.slug)
                self._keys.setdefault(method.slug, set()).add(normalize_name(alias))
            if getattr(method, "arxiv_id", None):
                self._by_paper.setdefault(method.arxiv_id, []).append(method.slug)
                self._paper_of[method.slug] = method.arxiv_id

    def _title_candidates(self, title: str) -> Iterable[tuple[str, str | None, str, str, str, str]]:
        named = title_name_kind(title)
        kind = named[0] if named else "method"
        long_names = _long_names(title)
        named_method = False
        if m := _TITLE_COLON.match(title):
            prefix = m.group("name")
            # "Dr. GRPO:" is a catalog name with a space; otherwise each listed part must be one name.
            parts = [prefix] if name_key(prefix) in self._by_name else _NAME_LIST.split(prefix)
            for part in parts:
                two_words = _two_word_name(part)
                part = two_words or part
                if not (name_key(part) in self._by_name or re.fullmatch(_NAME, part) or two_words):
                    continue
                if not looks_like_method_name(part) and not (kind == "method" and _title_case_word(part)):
                    continue
                long_name = next((ln for ln in long_names if acronym_fits(part, ln[0])), None)
                if long_name:
                    long_names.remove(long_name)
                named_method = named_method or kind == "method"
                yield part, long_name and long_name[0], "title-name", "title", m.group(0), kind
        for m in _LONG_WITH_ACRONYM.finditer(title):
            long_names = [ln for ln in long_names if ln[0] not in m.group("long")]
            yield m.group("name"), m.group("long").strip(), "title-acronym", "title", m.group(0), "method"
        if named_method:
            # "CE-GPPO: Coordinating Entropy via Gradient-Preserving Clipping Policy Optimization": the
            # title proposes its named method; a spelled-out name its acronym does not fit is how it works.
            return
        for long_name, words in long_names:
            # The recipe of a model or benchmark paper ("MiroMind-M1: ... via X Policy Optimization")
            # is that paper's training, not a method it offers: it takes the title's kind.
            yield long_name, None, "title-long-name", "title", words, kind

    def _candidates(self, title: str, abstract: str) -> Iterable[tuple[str, str | None, str, str, str, str]]:
        """(name, long name, rule, field, matched text, kind), in order of certainty."""
        yield from self._title_candidates(title)
        for m in _LONG_WITH_ACRONYM.finditer(abstract):
            yield (
                m.group("name"),
                m.group("long").strip(),
                "abstract-acronym",
                "abstract",
                m.group(0),
                "method",
            )
        for start, end in _proposing_verbs(abstract):
            if (short := _PROPOSED_WITH_SHORT_NAME.match(abstract, end)) and _spelled_out(short):
                text = abstract[start : short.end()]
                yield short.group("name"), short.group("long"), "we-propose", "abstract", text, "method"
            elif phrase := _phrase_then_name(abstract, end):
                text = abstract[start : phrase.end()]
                yield phrase.group("name"), None, "we-propose", "abstract", text, "method"
            elif named := _named_after(abstract, end):
                after = abstract[abstract.find(named[0], end) + len(named[0]) :]
                appositive = _METHOD_APPOSITIVE.match(after)
                text = abstract[start:end] + " ... " + named[0] + (appositive.group(0) if appositive else "")
                yield named[0], named[1], "we-propose", "abstract", text, "method"
        for m in _APPOSITION.finditer(abstract):
            yield m.group("name"), None, "apposition", "abstract", m.group(0).strip(" .!?"), "method"

    def _resolve(self, name: str, long_name: str | None, arxiv_id: str | None, rule: str) -> tuple[str, bool]:
        """(slug, known) for a proposed name."""
        own = self._by_paper.get(arxiv_id or "", [])
        keys = {normalize_name(name), *(initials(n) for n in (name, long_name) if n and " " in n)}
        for slug in own:  # the arXiv id says the paper's names are its catalog method's
            if keys & self._keys.get(slug, set()):
                return slug, True
        slug = self._by_name.get(name_key(name)) or (long_name and self._by_name.get(name_key(long_name)))
        if slug and rule.startswith("title") and arxiv_id and self._paper_of.get(slug, arxiv_id) != arxiv_id:
            # A method is proposed once: a title naming a catalog acronym under another id shares the acronym.
            return slugify(long_name) if long_name else f"{slugify(name)}-{slugify(arxiv_id)}", False
        return (slug, True) if slug else (slugify(name), False)

    @staticmethod
    def _spelled_in(found: dict[str, Proposal], long_name: str) -> str | None:
        """The slug of a found new proposal named exactly `long_name` (a title's spelled-out name)."""
        key = normalize_name(long_name)
        new = ((slug, p) for slug, p in found.items() if not (p.known or p.long_name))
        return next((slug for slug, p in new if normalize_name(p.name) == key), None)

    def find(self, arxiv_id: str | None, title: str, abstract: str = "") -> list[Proposal]:
        found: dict[str, Proposal] = {}
        title, abstract = plain_text(title), plain_text(abstract)
        for slug in self._by_paper.get(arxiv_id or "", []):
            found[slug] = Proposal(slug, slug, None, True, "catalog-arxiv-id", "catalog", arxiv_id, 1.0)
        for name, long_name, rule, field, text, kind in self._candidates(title, abstract):
            if (
                rule == "abstract-acronym"
                and not _PROPOSE.search(abstract)
                and not _APPOSITION.search(abstract)
            ):
                continue  # "... Policy Optimization (GRPO)" in an abstract is usually a citation
            shaped = looks_like_method_name(name) or rule in ("title-long-name", "title-name")
            if not shaped:
                continue
            slug, known = self._resolve(name, long_name, arxiv_id, rule)
            if slug in found:
                spelled_as_method = long_name or _METHOD_APPOSITIVE.search(text.split(name, 1)[-1])
                if (
                    kind == "method"
                    and spelled_as_method
                    and found[slug].kind != "method"
                    and field == "abstract"
                ):
                    # A title may call the whole work a system ("DAPO: ... System at Scale"); an abstract
                    # spelling the name out, or calling it "a method", says what the name names.
                    found[slug] = dataclasses.replace(found[slug], kind="method")
                continue
            if long_name and (same := self._spelled_in(found, long_name)):
                # The title's spelled-out name, and the abstract's acronym for it: one method.
                del found[same]
            confidence = _RULE_CONFIDENCE[rule] + (0.05 if known else 0.0)
            if rule == "title-name" and not looks_like_method_name(name):
                confidence -= 0.15  # "Remax:": a title-case word, read as a name only for its position
            found[slug] = Proposal(slug, name, long_name, known, rule, field, text, confidence, kind)
        return list(found.values())
