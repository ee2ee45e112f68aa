"""Recognising issues that report a failure of a run, with the reason why.

Explainable rules, in the manner of the paper screener: each symptom kind has
named patterns; a match counts unless it is negated ("no NaN"), sits in a
sentence about preventing or supporting something ("add an option to avoid
OOM"), is about packaging, CI or docs, or the issue is a feature request, an
RFC, a docs change or a chore (by its `[tag]`, its conventional-commit type or
its labels). How-to questions count only when the author says they ran into
the symptom.

The whole thread is read: title, body, human comments (`classify_thread`) and
labels. CJK text is tokenised first (`tokenised`: a space between CJK and
Latin runs) so `kl变为Nan` and `ppo训练` match. Symptoms run from specific
(KL blow-up, NaN, entropy or reward collapse, values stuck at zero or
constant, OOM, hangs and timeouts, divergence, regressions, install and version
conflicts) to generic
(`wrong-result`, `crash` for tracebacks, named error classes and "fails",
and `malfunction` for a fix title, a `bug` label or a bare "bug"/"issue");
the main symptom is the most specific one, the title's before the body's.
Confidence: 0.9 from the title, 0.8 from the body, 0.7 from a comment or a
log, 0.6 when only a generic malfunction signal fired; +0.05 (to 0.95) when
several symptoms agree. "KL divergence" names a quantity, not a symptom.
What a template put in the body (checklist lines, the common bug-report prompts, an
example traceback that ends in "...") is removed first, and a `bug` label counts
only beside at least five words of the reporter's own prose (`_FILLED_WORDS`).

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
from .threads import Thread, prose, tokenised

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
# Suffixes of a setting's name rather than of a measured value ("entropy_coeff", "kl_loss_weight").
_SETTING_SUFFIX = r"_(?:coef\w*|weight|ratio|scale|factor|threshold|penalty|bonus|clip\w*|type|mode|fn)\b"
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
        ("nan-named", r"\b(?:nan|NaN|NAN)s?\b"),
        ("nan-in-value", rf"\b(?:nan|inf)s?\b{_W}\b(?:{_VALUES}|training)\b"),
    ),
    "entropy-collapse": (
        (
            "entropy-collapses",
            rf"\bentropy\b{_W}\b(?:collaps\w*|drops?\b|dropp\w*|{_TO_ZERO}|"
            r"decreas\w* (?:to|rapidly|sharply|quickly)|vanish\w*|near(?:ly)? zero)",
        ),
        ("entropy-collapse", r"\bentropy collapse\b|熵(?:坍塌|崩溃|塌缩)"),
    ),
    "reward-collapse": (
        (
            "reward-collapses",
            rf"\b(?:rewards?|scores?)\b{_W}\b(?:collaps\w*|drops? (?:to|sharply|suddenly)|"
            rf"dropp\w* (?:to|sharply|suddenly)|suddenly drops?|{_TO_ZERO})",
        ),
        ("named-collapse", r"\b(?:reward|mode|model|response[ -]length|length|policy) collapse\b"),
    ),
    "stuck-values": (
        # "entropy_coeff=0" sets a weight; "pg_loss: 0.0" measures a value
        (
            "value-is-zero",
            rf"\b{_VALUES}(?!\w*{_SETTING_SUFFIX})\w*['\"]?\s*[:=]\s*['\"]?0(?:\.0+)?(?![\d.])",
        ),
        (
            "value-stuck",
            rf"\b{_VALUES}\b{_W}\b(?:(?:is |are |gets? |got )?stuck|stays?|remains?|always (?:0|zero)|"
            r"(?:is |are |stays? )?(?:constant|flat|unchanged)|oscillat\w*|fluctuat\w*|"
            r"(?:does ?n[o']t|did ?n[o']t|not|never) (?:chang|decreas|increas|improv|mov|go)\w*)",
        ),
        ("zero-value", rf"\b(?:zero|constant|flat)\s+{_VALUES}\b"),
        (
            "value-becomes-zero-cjk",
            rf"\b{_VALUES}\w*\s*(?:突然|一直|始终)?(?:变为|变成|为|是|等于)\s*0(?![\d.])",
        ),
        # "reward到一定step之后不上涨": a value that stops rising or falling, said in Chinese
        (
            "value-stalls-cjk",
            rf"\b{_VALUES}\w*[^。.\n]{{0,30}}?(?:不(?:再)?(?:上涨|增长|增加|提升|下降|降低|变化|变)|没有?(?:上涨|增长|提升|变化))",
        ),
        (
            "not-converging",
            r"\b(?:(?:does ?n[o']t|did ?n[o']t|not|never|fail\w* to|won'?t|can ?not|can't) converg\w*|"
            r"no convergence)\b|不收敛",
        ),
    ),
    "oom": (
        (
            "out-of-memory",
            r"\b(?:out of memory|outofmemoryerror|oom(?:ed|s)?|oom[- ]kill\w*|"
            r"(?:ran|runs?) out of (?:gpu |cpu |host )?memory|resource[_ ]exhausted)\b",
        ),
        ("memory-leak", r"\bmemory (?:leak\w*|(?:usage )?keeps (?:increasing|growing))\b"),
        # "显存不足", "内存溢出", and memory that "blew up" with a word between ("内存突然炸了")
        ("memory-cjk", r"(?:显存|内存)[^\s，。,.!?！？]{0,4}?(?:不足|溢出|爆|炸)|[爆炸]显存"),
    ),
    "hang": (
        (
            "hangs",
            # "reward stuck at 0" is a stuck value, not a hang
            r"\b(?:hangs?|hanging|hung|deadlock\w*|freez\w*|frozen|stuck)\b(?! on\b)"
            r"(?! at (?:zero|0|-?\d|nan|inf|a constant|the same))",
        ),
        (
            "collective-timeout",
            rf"\b(?:nccl|watchdog|collective|allreduce|all_reduce|barrier|ray)\b{_W}\btime[ ]?d? ?out\b",
        ),
        ("no-progress", r"\b(?:no progress|never (?:finishes|returns|ends|completes))\b"),
        ("timeout", r"\b(?:time[ -]?outs?|timed out)\b|\w*timeout\b|超时|卡住|卡死|卡在"),
    ),
    "divergence": (
        # "KL divergence", "f-divergence" name a quantity, not a run that diverges.
        ("diverges", r"(?<![kK][lL][ _-])(?<![fF]-)\b(?:diverg\w*|blows? up|blew up|explod\w*)\b"),
        (
            "sudden-increase",
            r"\b(?:unexpected|sudden|rapid|sharp|abnormal)\w* (?:increase|rise|jump|growth|spike)s? "
            r"(?:in|of) (?:the )?(?:entropy|loss|kl|grad\w*(?: norm)?|response length)\b",
        ),
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
    "install": (
        # an import that fails names a broken install, whatever the run
        ("import-fails", r"\b(?:ImportError|ModuleNotFoundError|cannot import name|no module named)\b"),
        (
            "version-question",
            r"\bwhich (?:\w+[ -])?versions? (?:of \w+ )?(?:for|to|should|do|does|is|works?|with)\b|"
            r"\bversion (?:conflicts?|mismatch\w*|incompatib\w*)|\bincompatib\w*|"
            r"\bdependency (?:conflicts?|issues?)\b",
        ),
        (
            "install-fails",
            r"\b(?:install\w*|pip|uv|docker image|setup) (?:\w+ )?(?:fails?|failed|failure|errors?)\b|"
            r"\b(?:can ?not|can't|unable to|fail\w* to) install\b",
        ),
    ),
    "wrong-result": (
        (
            "metric-debug",
            r"\b(?:accuracy|rewards?|loss|scores?|eval\w*|metrics?)\b "
            r"(?:\w+ )?(?:debug\w*|gap|discrepanc\w*)\b",
        ),
        (
            "wrong-output",
            # a run of "!!!!!" stands alone as generated output; after a word ("thx!!!!!") it is emphasis
            r"\b(?:wrong|incorrect\w*|corrupt\w*|garbled|gibberish|silently \w+)\b|乱码|"
            r"(?<![A-Za-z])[!！?？]{5,}",
        ),
        (
            "not-done-right",
            r"\b(?:is|are|was|were|not) (?:not )?(?:calculated|computed|applied|produced|generated|saved|"
            r"loaded|updated|synced|respected) (?:correctly|properly)\b|"
            r"\b(?:is|are|was|were) not "
            r"(?:produced|generated|saved|created|written|applied|updated|synced)\b",
        ),
        ("returns-nothing", r"\breturns? (?:a |an )?(?:zero|wrong|empty|incorrect|none|null)\b"),
        # a setting the run silently went without: "option not taking effect", "flag was ignored"
        (
            "setting-ignored",
            r"\b(?:not (?:taking|take|taken|having|have) effect|(?:has|had|have|takes?|took) no effect|"
            r"(?:is|are|was|were|being|gets?|got|silently) ignored|not (?:being )?(?:passed|forwarded|"
            r"propagated|honou?red|respected) (?:to|through|into|in|by)\b)",
        ),
        (
            "misbehaves",
            r"\b(?:(?:is|are) not|isn'?t|aren'?t|not|does ?n[o']t|do ?n[o']t|did ?n[o']t|stopped|no longer) "
            r"work(?:s|ing|ed)?\b|\bbroken\b|\bbreaks\b|\bunexpected(?:ly)?\b(?! keyword)|"
            r"\babnormal\w*|\banomal\w*|"
            r"\binconsistent\b|\bunstable\b|不对|不一致|不正确|无法|不能|不工作",
        ),
        (
            "repeats-output",
            r"(?:不停|一直|反复)重复|\brepeat\w* (?:the same )?(?:tokens?|outputs?|generations?)\b",
        ),
    ),
    "crash": (
        ("error-class", r"\b[A-Z][A-Za-z0-9_]*(?:Error|Exception)\b|\bCheck failed\b|\[FATAL\]"),
        (
            "error-named",
            r"\b(?:errors?|ERROR|exceptions?|traceback|segfault\w*|segmentation fault|core dumped|"
            r"illegal memory access|race condition)\b(?! messages?\b)|报错|错误|出错|异常|崩溃|吐核|例外",
        ),
        ("fails", r"\bfail(?:s|ed|ing|ures?)?\b|失败"),
        ("crashes", r"\b(?:crash\w*|killed|aborts?|aborted|dies|died)\b|中断"),
        (
            "unexpected-exit",
            r"\b(?:strange|unexpected|random|sudden|silent)\w* (?:kill|exit|termination|death)s?\b",
        ),
        (
            "stops",
            r"\b(?:training|run|job|process|worker|rollout|generation)s? (?:stops?|stopped|exits?|exited|"
            r"terminat\w*|quits?)\b",
        ),
        (
            "cannot-run",
            r"\b(?:unable to|can ?not|can't|could ?n[o']t) (?:run|start|launch|load|save|resume|replicate|"
            r"reproduce|initiali[sz]e|connect|train|use)\b|\bnot found\b|\bno module named\b",
        ),
        ("status-code", r"\b[45]\d\d (?:server |client )?error\b|\bservice unavailable\b"),
        # the words of an exception's message without its class: "object has no attribute 'x'"
        (
            "error-message",
            r"\b(?:has no attribute|is not defined|unexpected keyword|index out of (?:range|bounds)|"
            r"out of bounds|is not (?:subscriptable|callable|iterable)|no such file)\b",
        ),
    ),
    "malfunction": (
        ("bug-named", r"\bbugs?\b|\bbuggy\b"),
        # "issue" is a malfunction when someone has it, resolves it, or it is with something: not a
        # tracker's word ("before posting an issue", "daily issue processing")
        (
            "issue-named",
            r"\b(?:get\w*|got|hav\w*|has|had|fac\w*|encounter\w*|hit\w*|met|meet\w*|see\w*|saw|found)"
            r"\s+(?:(?:an?|the|this|that|some|same|weird|strange|an? \w+)\s+)?issues?\b|"
            r"\b(?:resolv\w*|solv\w*|address\w*|work\w* around)\s+(?:\w+\s+){0,2}?issues?\b|"
            r"\bfix\w*\s+(?:(?:the|an?|this|that|some)\s+)?(?!(?:tests?|ci|docs?|lint\w*|typos?)\s)(?:\w+\s+)?issues?\b|"
            r"\bissues? (?:with|when|while|during|after|on|in|running|training|using|loading|saving)\b",
        ),
    ),
}
_COMPILED = {
    symptom: tuple((name, re.compile(pattern, re.IGNORECASE)) for name, pattern in rules)
    for symptom, rules in SYMPTOM_RULES.items()
}
_VALUE_WORDS = (
    "loss",
    "grad",
    "reward",
    "logit",
    "log",
    "prob",
    "advantage",
    "entropy",
    "value",
    "weight",
    "output",
)
# Lower-case fragments, at least one of which every text a symptom's rules can match contains: a
# substring test is far cheaper than the rules, and most texts contain none. A new rule adds its words.
SYMPTOM_TRIGGERS: dict[str, tuple[str, ...]] = {
    "kl-blowup": ("kl",),
    "nan-loss": ("nan", "inf"),
    "entropy-collapse": ("entropy", "熵"),
    "reward-collapse": ("collaps", "drop", "to zero", "to 0"),
    "stuck-values": (
        *("0", "zero", "constant", "flat", "stuck", "stay", "remain", "always", "unchanged"),
        *("oscillat", "fluctuat", "not", "n't", "never", "converg", "不收敛", "不", "没"),
    ),
    "oom": ("memory", "oom", "exhausted", "显存", "内存"),
    "hang": (
        *("hang", "hung", "deadlock", "freez", "frozen", "stuck", "progress", "never"),
        *("timeout", "time out", "timed out", "timedout", "time-out", "超时", "卡"),
    ),
    "divergence": (
        *("diverg", "blow", "blew", "explod", "unstable", "instabilit", "spike"),
        *("unexpected", "sudden", "rapid", "sharp", "abnormal"),
    ),
    "throughput-regression": ("slow", "regress", "drop", "degrad", "worse", "decreas", "halved"),
    "accuracy-regression": (
        *("drop", "regress", "degrad", "worse", "decreas", "halved", "slow", "lower than", "reproduce"),
    ),
    "wrong-after-upgrade": ("after ", "since ", "worked", "works", "was fine", "was working"),
    "install": (
        "version",
        "incompatib",
        "dependency",
        "install",
        "pip",
        "uv",
        "docker",
        "setup",
        "import",
        "module",
    ),
    "wrong-result": (
        *("debug", "gap", "discrepanc"),
        *("wrong", "incorrect", "corrupt", "garbled", "gibberish", "silently", "correctly", "properly"),
        *(" not ", "n't", "stopped", "no longer", "return", "broken", "breaks", "unexpected", "abnormal"),
        *("anomal", "inconsistent", "unstable", "repeat", "!!!!!", "！！", "???", "？？", "乱码", "不对"),
        *("effect", "ignored"),
        *("不一致", "不正确", "无法", "不能", "不工作", "重复"),
    ),
    "crash": (
        *(
            "error",
            "exception",
            "check failed",
            "fatal",
            "traceback",
            "segfault",
            "segmentation",
            "core dumped",
        ),
        *("illegal memory", "race condition", "fail", "crash", "killed", "abort", "dies", "died", "stop"),
        *("exit", "terminat", "quit", "unable", "not ", "cannot", "can't", "could", "service unavailable"),
        *("attribute", "unexpected keyword", "out of", "no such file"),
        *("报错", "错误", "出错", "异常", "崩溃", "吐核", "例外", "失败", "中断", "kill"),
    ),
    "malfunction": ("bug", "issue"),
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
    r"^\s*(?:(?:feature request|rfc|proposal|roadmap)\b|revert\b|"
    r"(?:add|support|implement|allow|enable|expose|document|introduce|integrate|request)\b"
    r"(?!.*\b(?:bug|error|fail\w*|crash\w*)\b))",
    re.IGNORECASE,
)
# Leading "[tag]" / "(tag)" groups and a conventional-commit type ("feat(ppo):", "fix:").
_TAGS = re.compile(r"^\s*(?:[\[(【][^\])】\n]{1,40}[\])】]\s*)*")
_CONVENTIONAL = re.compile(r"^\(?([A-Za-z]+)\)?(?:\([^)\n]{0,40}\))?!?\s*:")
_REQUEST_TYPES = frozenset(
    "feature feat rfc proposal enhancement doc docs documentation roadmap discussion chore refactor "
    "style test tests ci build release".split()
)
_FIX_TYPES = frozenset({"fix", "fixes", "bugfix", "hotfix", "bug"})
_FIX_VERB = re.compile(
    r"^(?:(?:tiny|minor|small|quick) )?(?:fix(?:es|ed|ing)?|bugfix|hotfix)\b", re.IGNORECASE
)
# What a fix PR repairs when it is not a malfunction of the framework at run time.
_COSMETIC = re.compile(
    r"\b(?:docs?|documentation|typos?|lint\w*|format\w*|style|comments?|docstrings?|readme|links?|tests?|"
    r"ci|configs?|spelling|grammar|imports?|type hints?|annotations?|warnings?)\b",
    re.IGNORECASE,
)
# Packaging and CI failures are not failures of a run (the composed set labels them so).
_PACKAGING = re.compile(
    r"\b(?:pip install\w*|install(?:ing|ation)?|ImportError|ModuleNotFoundError|"
    r"build(?:ing)? (?:the )?wheels?|compil(?:e|er|ing)|CI|unit tests?)\b",
    re.IGNORECASE,
)
_BUILDING = re.compile(
    r"\b(?:build(?:ing)? (?:the )?wheels?|compil(?:e|er|ing)|CI|unit tests?)\b", re.IGNORECASE
)
_DOCS = re.compile(r"\b(?:docs?|documentation|readme|typos?|links?|docstrings?)\b", re.IGNORECASE)
_ERROR_QUANTITY = re.compile(
    r"\b(?:log[ _-]?probs?|approximation|relative|absolute|squared|rounding|numerical|quantization|"
    r"estimation|reconstruction)\s+$",
    re.IGNORECASE,
)
_SET_TO = re.compile(r"\w=\s*['\"]?$")
_ABOUT_REPORTING = re.compile(
    r"\s*(?:messages?|msgs?|logging|logs?|reporting|handling|handlers?)\b", re.IGNORECASE
)
_BUG_LABEL = re.compile(r"\b(?:bug|crash|regression|defect)\b", re.IGNORECASE)
# Symptoms that count only in text about training (the others are failures of any run).
_NEEDS_TRAINING_CONTEXT = frozenset({"throughput-regression", "accuracy-regression", "wrong-after-upgrade"})
_GENERIC = {"wrong-result": 1, "crash": 1, "malfunction": 2}
_PLACE_CONFIDENCE = {"title": 0.9, "body": 0.8, "comment": 0.7}
_PLACE_ORDER = ("title", "body", "comment", "labels")
_REQUEST_LABELS = {"enhancement", "feature", "feature request", "documentation", "rfc", "roadmap"}
_QUESTION_TITLE = re.compile(
    r"^\s*(?:[\[(]\s*question\s*[\])]|(?:[\[(]\s*question\s*[\])]\s*)?"
    r"(?:how (?:do|can|to|should)|is it possible|is there|does \w+ support|what is|"
    r"why (?:do|does|is) (?:the )?(?:default|recommended))\b)",
    re.IGNORECASE,
)
# Questions asked in Chinese: "请问…", "如何…", "是否支持…", "有没有办法…", "…吗？"; "[提问]" as a tag.
_QUESTION_TITLE_CJK = re.compile(
    r"请问|如何|怎么|怎样|是否|能否|有没有|是不是|提问|咨询|吗\s*[？?]?\s*$|呢\s*[？?]\s*$"
)
# Release notes and update summaries list problems that were fixed; they report none.
_ANNOUNCEMENT_TITLE = re.compile(
    r"\b(?:release notes?|updates? summary|changelog|announc\w*|newsletter|what'?s new)\b|"
    r"^\W*release\s+v?\d|更新汇总|更新总结",
    re.IGNORECASE,
)
# Lines an issue template fills in ("- [x] I have searched existing issues"): not the reporter's words.
_CHECKLIST_LINE = re.compile(r"^[ \t]*[-*][ \t]*\[[ xX]\].*$\n?", re.MULTILINE)
# The prompts of the common bug-report template, left in when nobody replaced them.
_TEMPLATE_PROMPT = re.compile(
    r"^.*\b(?:a clear and concise description of|steps to reproduce the behaviou?r|"
    r"add any other context (?:about|here)|if applicable, add screenshots|a helpful guide on|"
    r"please list \*?minimal\*? steps)\b.*$\n?",
    re.IGNORECASE | re.MULTILINE,
)
# A template's example traceback: frames that end in an elided line, with no exception after them.
_PLACEHOLDER_TRACEBACK = re.compile(
    r"Traceback \(most recent call last\):[ \t]*\n(?:[ \t]+\S.*\n)*?[ \t]*\.\.\.[ \t]*\n(?=[ \t]*```)"
)
_HEADING_LINE = re.compile(r"^[ \t]*(?:#+[ \t].*|\*\*[^*\n]+\*\*:?[ \t]*)$", re.MULTILINE)
_LINK = re.compile(r"!?\[[^\]\n]*\]\([^)\s]*\)|<img\b[^>]*>|https?://\S+")
# Below this many words of the reporter's own prose, a "bug" label is the template's, not theirs.
_FILLED_WORDS = 5
_EXPERIENCED = re.compile(
    r"\b(?:(?:i|we)\s+(?:\w+\s+)?(?:get|got|see|saw|hit|encounter\w*|observe\w*|notic\w*|am getting|"
    r"are getting|keep getting|run into|ran into|found|have)|"
    r"my (?:training|run|job|loss|model|reward|experiment)|keeps? (?:getting|happening)|"
    r"always (?:gets?|ends?))\b|"
    r"遇到|碰到|出现|发现|我的训练",  # "I ran into", "it appears", "I found", "my training"
    re.IGNORECASE,
)
_TRAINING = re.compile(
    r"\b(?:train\w*|rollout\w*|steps?|epochs?|loss|rewards?|grpo|ppo|dpo|fine-?tun\w*|trainer|actor|critic|policy|"
    r"generation|vllm|sglang|fsdp\d?|megatron|deepspeed|checkpoint\w*|gradients?|batch|rl|rlhf|sft|kl|entropy|"
    r"advantages?|gpus?|nodes?|ranks?|reproduc\w*|recipes?|examples?|scripts?|accuracy)\b|训练|微调|强化学习|复现",
    re.IGNORECASE,
)
# A run's identifier of several parts joined by underscores, hyphens, dots or slashes.
_JOINED_IDENTIFIER = re.compile(r"\b[A-Za-z0-9]+(?:[_.\-/][A-Za-z0-9]+)+\b")
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


def _ignored(hit_symptom: str, sentence: str) -> bool:
    """Matches that are about packaging, CI or documentation rather than a failing run."""
    if hit_symptom == "crash" and _PACKAGING.search(sentence):
        return True
    if hit_symptom == "install" and _BUILDING.search(sentence):
        return True  # building the package itself (wheels, compilers, CI) is not a user's run failing
    return hit_symptom in ("wrong-result", "malfunction", "crash") and bool(_DOCS.search(sentence))


def _not_a_crash(before: str, after: str) -> bool:
    """An error that is a measured quantity ("logprob error"), words about how errors are logged or
    handled ("crash logging", "error messages"), or a setting's value ("truncation='error'"), not a
    run that failed."""
    return bool(_ERROR_QUANTITY.search(before) or _ABOUT_REPORTING.match(after) or _SET_TO.search(before))


def _hits(place: str, text: str) -> Iterator[_Hit]:
    if not text:
        return
    lowered = text.lower()
    kept = prose(text)
    for symptom, rules in _COMPILED.items():
        if not any(map(lowered.__contains__, SYMPTOM_TRIGGERS[symptom])):
            continue
        for name, pattern in rules:
            for m in pattern.finditer(text):
                before = text[max(0, m.start() - 30) : m.start()]
                in_code = kept[m.start() : m.end()].strip() != m.group(0).strip()
                sentence = _sentence(text, m.start(), m.end())
                if not in_code and (_NEGATED.search(before) or _PREVENTIVE.search(sentence)):
                    continue
                if _ignored(symptom, sentence) or (
                    symptom == "crash" and _not_a_crash(before, text[m.end() :])
                ):
                    continue
                yield _Hit(symptom, name, m.group(0), place, in_code)


def _title_form(title: str) -> tuple[set[str], str]:
    """The title's leading tags and conventional-commit type (lower case), and the rest of it."""
    tags = _TAGS.match(title)
    words = {w.lower() for w in re.findall(r"[A-Za-z]+", tags.group(0))}
    rest = title[tags.end() :]
    kind = _CONVENTIONAL.match(rest)
    if kind:
        words.add(kind.group(1).lower())
        rest = rest[kind.end() :]
    return words, rest.strip()


def _is_request(form: tuple[set[str], str], labels: tuple[str, ...]) -> bool:
    words, rest = form
    if words & _REQUEST_TYPES and not words & _FIX_TYPES:
        return True
    return bool(_REQUEST_TITLE.search(rest)) or any(_label_words(lb) in _REQUEST_LABELS for lb in labels)


def _label_words(label: str) -> str:
    """A label as its words: "✨ enhancement", "type: feature" and "kind/feature" read as the plain name."""
    words = re.findall(r"[a-z]+", label.lower())
    return " ".join(words[1:] if words[:1] in (["type"], ["kind"]) else words)


def _fix_pr(title: str, form: tuple[set[str], str]) -> _Hit | None:
    """A title that says it fixes something names a malfunction, unless the something is cosmetic."""
    words, rest = form
    verb = _FIX_VERB.match(rest)
    if not (words & _FIX_TYPES or verb) or _COSMETIC.search(rest):
        return None
    return _Hit(
        "malfunction",
        "fix-title",
        verb.group(0) if verb else title[: len(title) - len(rest)].strip(),
        "title",
        False,
    )


def _label_hit(labels: tuple[str, ...]) -> _Hit | None:
    for label in labels:
        m = _BUG_LABEL.search(label)
        if m:
            return _Hit("malfunction", "bug-label", label, "labels", False)
    return None


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
    for text in (title, body):
        named = _identifier_part(text, matcher)
        if named:
            return named
    return None


def _identifier_part(text: str, matcher: MethodMatcher) -> tuple[str, str, str, float] | None:
    """The method a run's own identifiers name by one of their parts: the script it ran
    (`run_grpo_puzzle.py`), the module it launched (`cli.train_ppo_ray`), the test or example that
    failed (`vlm_grpo-qwen-3b`), where no word of the text names one."""
    for m in _JOINED_IDENTIFIER.finditer(text):
        for part in re.split(r"[_.\-/]+", m.group(0)):
            if len(part) < 3:
                continue
            named = [f for f in matcher.find(part) if f.rule == "alias-exact" and f.text == part]
            if len(named) == 1:
                return named[0].slug, m.group(0), "identifier-part", 0.6
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
    title: str,
    body: str,
    matcher: MethodMatcher | None = None,
    labels: tuple[str, ...] = (),
    comments: tuple[str, ...] = (),
) -> FailureVerdict | None:
    """A verdict if the issue reports a failure of a run (training, rollout, serving, saving), else None.

    Title, body, human comments and labels are read; CJK text is tokenised first.
    """
    title = tokenised(title or "")
    body = tokenised(_unfilled_removed(body or ""))
    comments = tuple(tokenised(_unfilled_removed(c)) for c in comments if c)
    form = _title_form(title)
    if _is_request(form, labels) or _ANNOUNCEMENT_TITLE.search(title):
        return None
    whole = "\n".join((title, body, *comments))
    method = _method(title, body, matcher) if matcher else None
    places = [("title", title), ("body", body), *(("comment", c) for c in comments)]
    # "bug" or "issue" is a report only in the title: in a body or comment it is as often a template's
    # or a bot's word ("This issue has been marked stale", "search existing issues").
    hits = [
        h
        for place, text in places
        if text
        for h in _hits(place, text)
        if h.symptom != "malfunction" or place == "title"
    ]
    if not _TRAINING.search(whole) and method is None:
        hits = [h for h in hits if h.symptom not in _NEEDS_TRAINING_CONTEXT]
    label = _label_hit(labels)
    hits += filter(None, (_fix_pr(title, form), label if label and _filled_in(body) else None))
    if not hits:
        return None
    asks = _QUESTION_TITLE.search(title) or _QUESTION_TITLE_CJK.search(title)
    if asks and not _EXPERIENCED.search(whole) and not any(h.in_code for h in hits):
        return None
    found = {h.symptom for h in hits}
    if "wrong-after-upgrade" in found and len(found) == 1 and not _WRONG.search(whole):
        return None
    return _verdict(hits, title, body, method)


def _unfilled_removed(text: str) -> str:
    """The text without what a template put there: checklist lines, prompts, example tracebacks."""
    return _PLACEHOLDER_TRACEBACK.sub("", _TEMPLATE_PROMPT.sub("", _CHECKLIST_LINE.sub("", text)))


def _filled_in(body: str) -> bool:
    """Whether the reporter wrote prose of their own, beyond headings, links and code."""
    own = _LINK.sub(" ", _HEADING_LINE.sub(" ", prose(body)))
    return len(re.findall(r"\w+", own)) >= _FILLED_WORDS


def _verdict(
    hits: list[_Hit], title: str, body: str, method: tuple[str, str, str, float] | None
) -> FailureVerdict:
    symptoms = tuple(s for s in SYMPTOMS if s in {h.symptom for h in hits})
    # A specific symptom beats a generic one (an error, a wrong result), which beats a bare "bug" or
    # "fix"; then what the title says; then the most specific one.
    main = min(
        hits,
        key=lambda h: (
            _GENERIC.get(h.symptom, 0),
            _PLACE_ORDER.index(h.place),
            SYMPTOMS.index(h.symptom),
            h.in_code,
        ),
    )
    if main.symptom == "malfunction":
        confidence = 0.6  # only a fix title, a bug label or the word "bug"/"issue"
    else:
        confidence = 0.7 if main.in_code else _PLACE_CONFIDENCE[main.place]
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


def classify_thread(thread: Thread, matcher: MethodMatcher | None = None) -> FailureVerdict | None:
    """classify_failure over a whole thread: title, body, human comments and labels."""
    comments = tuple(text for place, _, text in thread.texts() if place == "comment")
    return classify_failure(thread.title, thread.body, matcher, thread.labels, comments)


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
            "source_kind": "issue",
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
