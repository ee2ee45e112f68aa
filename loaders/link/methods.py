"""Finding catalog methods in text by their aliases.

Shared by the commit linker, the paper screener and the GitHub loader, so that
"this names DAPO" means the same thing everywhere. Aliases are matched as whole
identifiers (never inside a longer word), and aliases the catalog marks as
ambiguous (common words, other meanings) need the method's exact display-name
spelling or a nearby RL word before they count.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .literals import LiteralScanner

# Words near an ambiguous alias that show it is meant as an RL method.
_RL_CONTEXT = re.compile(
    r"\b(loss|advantage|estimator|policy|objective|trainer|reward|rl|rlhf|rlvr|grpo|ppo|clip|"
    r"baseline|algorithm|optimi[sz]ation|kl|rollout)\b",
    re.IGNORECASE,
)
_CONTEXT_WINDOW = 80
# "IPO and RPO", "DPO/IPO": an alias listed next to another method's exact spelling is a method too.
_LIST_JOIN = r"\s*(?:,|/|&|\band\b|\bor\b|\bvs\.?)\s*"
_LISTED_AFTER = re.compile(_LIST_JOIN + r"([\w+.-]+)")
_LISTED_BEFORE = re.compile(r"([\w+.-]+)" + _LIST_JOIN + r"$")


AMBIGUOUS_RULE = "ambiguous-alias-in-context"
# A long name written wholly in capitals among words that are not ("correct REINFORCE to resume"):
# writers capitalise a word whole to name it, not to use the ordinary word. Short capitals (TPO,
# SPIN) are other acronyms too, and in a line of capitals no word stands out.
CAPITALS_RULE = "ambiguous-alias-in-capitals"
_LONG_CAPITALS = re.compile(r"[A-Z]{5,}")
_WORD_BEFORE = re.compile(r"([A-Za-z]{2,})[^A-Za-z]*$")
_WORD_AFTER = re.compile(r"[^A-Za-z]*([A-Za-z]{2,})")


@dataclass(frozen=True)
class MethodMatch:
    slug: str
    alias: str  # the alias that matched
    text: str  # the text as found
    start: int
    rule: str  # alias-exact, alias-ci, ambiguous-alias-in-context or -in-capitals
    confidence: float


@functools.cache  # compiled on first use: most aliases never occur in a given history
def _alias_pattern(alias: str) -> re.Pattern:
    # Identifiers: not preceded/followed by a letter, digit or underscore; hyphen
    # continuations ("ORPO-like") are excluded too, so a mention of a family is not the method.
    # The continuation test is case-sensitive: "DPO-Trainer" still names DPO.
    return re.compile(rf"(?<![\w-]){re.escape(alias)}(?![\w]|-(?-i:[a-z]))", re.IGNORECASE)


_PARENTHESISED = re.compile(r"^(?P<name>[^()]+?)\s*\((?P<inner>[^()]+)\)$")
_ACRONYM = re.compile(r"^(?=.*[A-Z])[A-Za-z][A-Za-z0-9+.-]*$")
_CAPITALS = re.compile(r"^[A-Z]{2,6}$")
_SNAKE = re.compile(r"^[a-z0-9]+(?:_[a-z0-9]+)+$", re.IGNORECASE)


def method_names(method) -> tuple[str, ...]:
    """A method's name and aliases, with the spellings they imply: a name with its acronym in
    parentheses is both ("Truncated Importance Sampling (TIS)"), and an identifier of words joined
    by underscores is also written with hyphens and spaces in prose (`dual_clip`: "dual-clip")."""
    names = [method.name, *method.aliases]
    m = _PARENTHESISED.match(method.name.strip())
    if m:  # the acronym only when it is one ("(80/20)" is a remark, not a name)
        names.append(m.group("name").strip())
        if _ACRONYM.match(m.group("inner").strip()):
            names.append(m.group("inner").strip())
    if words := spelled_out(method):
        names.append(words)
    for alias in method.aliases:
        if _SNAKE.match(alias):
            names += [alias.replace("_", "-"), alias.replace("_", " ")]
    names += [variant for name in names for variant in _separator_variants(name)]
    return tuple(dict.fromkeys(n for n in names if len(n) >= 2))


_PROSE_NAME = re.compile(r"^(?=.*[A-Z])[\w+.\- ]+$")  # capitals, no underscore, remark or list: a name
_PLURAL_END = re.compile(r"[a-z]{3,}[^s]s$")
_WORD_SEPARATOR = re.compile(r"(?<=[\w+.])(?:-|\.? )(?=\w)")  # "GSPO-token", "Dr. GRPO", "Online DPO"


def _separator_variants(name: str) -> list[str]:
    """A name of several words as writers also join them: a hyphen for a space and back, and an
    abbreviation's dot dropped ("REINFORCE++ baseline", "Dr GRPO"), its last word also in the
    singular. Only names written with capitals: a lower-case hyphenated value (`token-mask`) is
    a config spelling, not prose."""
    if not _PROSE_NAME.match(name) or not _WORD_SEPARATOR.search(name):
        return []
    joined = [_WORD_SEPARATOR.sub(sep, name) for sep in ("-", " ")]
    # The last word in the singular as well ("high-entropy minority token training").
    return joined + [n[:-1] for n in [name, *joined] if _PLURAL_END.search(n)]


def ambiguous_names(method) -> set[str]:
    """The lower-cased spellings of `method_names` that need context: those of ambiguous aliases."""
    listed = getattr(method, "ambiguous_aliases", ()) or ()
    ambiguous = {a.lower() for a in listed}
    spelled = {a.replace("_", sep) for a in ambiguous for sep in "- " if _SNAKE.match(a)}
    return ambiguous | spelled | {v.lower() for a in listed for v in _separator_variants(a)}


def spelled_out(method) -> str | None:
    """The words an acronym name abbreviates, when its paper's title starts with them ("Binary
    Classifier Optimization for Large Language Model Alignment" for BCO): the name in words."""
    name, title = method.name.strip(), getattr(method, "paper_title", None) or ""
    words = [w.rstrip(":,") for w in title.split()[: len(name)]]
    if not _CAPITALS.match(name) or len(words) != len(name):
        return None
    spelled = all(
        w[:1] == letter and w[1:].isalpha() and w[1:].islower() for w, letter in zip(words, name, strict=True)
    )
    return " ".join(words) if spelled else None


def _capitals_of_short_value(text: str, alias: str) -> bool:
    """ "OPD" for the option value `opd`: a short lower-case value written in capitals is its acronym,
    as exact as the catalog's own spelling (an ambiguous one still needs its context)."""
    return alias.isalpha() and alias.islower() and len(alias) <= 5 and text == alias.upper()


def own_words(framework: str) -> frozenset[str]:
    """The words of a framework's name or repository (`PrimeIntellect-ai/prime-rl`: primeintellect,
    prime). Words shorter than three letters ("rl", "ai") name nothing."""
    return frozenset(w for w in re.split(r"[^a-z0-9]+", framework.lower()) if len(w) >= 3)


def _squeezed(name: str) -> str:
    return re.sub(r"[^a-z0-9+]", "", name.lower())


@dataclass(frozen=True)
class OwnName:
    """How a framework's own name reads in its own history. A word of it that is also a method's
    ambiguous name speaks of the framework ("the prime monitor" in prime-rl), not of the method
    (PRIME); an unambiguous method name in it still names the method (GRPO-Zero's GRPO). A
    framework whose whole name is a method's name is that method's code (the PRIME repository):
    there the name is the method's, and a second signal for the method's ambiguous aliases."""

    words: frozenset[str]
    method: str | None  # the slug of the method the framework is named after

    def speaks_of_framework(self, match: MethodMatch) -> bool:
        return (
            match.rule in (AMBIGUOUS_RULE, CAPITALS_RULE)
            and match.text.lower() in self.words
            and match.slug != self.method
        )


class MethodMatcher:
    """Compiled alias patterns for a set of catalog methods."""

    def __init__(self, methods: Iterable):
        self._entries: list[tuple[str, str, bool]] = []  # slug, alias, ambiguous
        self._spellings: dict[str, set[str]] = {}
        own_names: dict[str, str] = {}  # slug -> its own name, lower case
        for method in methods:
            names = method_names(method)
            self._spellings[method.slug] = set(names)
            own_names[method.slug] = method.name.lower()
            ambiguous = ambiguous_names(method)
            for alias in names:
                self._entries.append((method.slug, alias, alias.lower() in ambiguous))
        self._all_spellings = {a for names in self._spellings.values() for a in names if len(a) >= 2}
        # A method's own name that another method lists among its aliases ("reinforce": REINFORCE,
        # and REINFORCE++'s early framework value): read alone, it names its owner.
        slugs_of: dict[str, set[str]] = {}
        for slug, names in self._spellings.items():
            for name in names:
                slugs_of.setdefault(name.lower(), set()).add(slug)
        self.owner_of_shared = {name: slug for slug, name in own_names.items() if len(slugs_of[name]) > 1}
        self._slug_of_name = {_squeezed(name): slug for slug, name in own_names.items()}
        # A spelling one method's alias has exactly names every method spelled so up to case:
        # "reinforce" is REINFORCE as much as the framework value the catalog lists elsewhere.
        self._exact_folded: dict[str, set[str]] = {}
        for spelled in self._all_spellings:
            self._exact_folded.setdefault(spelled.lower(), set()).add(spelled)
        # Longest aliases first, so "Dr. GRPO" wins over the "GRPO" inside it.
        self._entries.sort(key=lambda e: -len(e[1]))
        # One case-folded pass finds which aliases occur at all; only those run their own pattern.
        # Only whole words: a spelling that starts inside a word ("ld dpo" in "old dpo") must not
        # hide the shorter one after it.
        self._by_folded: dict[str, list[int]] = {}
        for i, (_, alias, _) in enumerate(self._entries):
            self._by_folded.setdefault(alias.lower(), []).append(i)
        self._prefilter = LiteralScanner(self._by_folded, whole_identifiers=True)

    def own_name(self, framework: str) -> OwnName:
        """How `framework`'s name (a slug or OWNER/REPO) reads in its own history."""
        return OwnName(own_words(framework), self._slug_of_name.get(_squeezed(framework.rpartition("/")[2])))

    def names_its_method(self, match: MethodMatch) -> bool:
        """Whether a match names its method, not another method whose own name the matched word
        is ("reinforce" names REINFORCE, though REINFORCE++ lists the word among its aliases)."""
        return self.owner_of_shared.get(match.text.lower(), match.slug) == match.slug

    def may_name(self, text: str) -> bool:
        """False when no alias is spelled in `text` in any case, so `find` finds nothing."""
        return next(self._prefilter.find(text), None) is not None

    def find(self, text: str) -> list[MethodMatch]:
        """One match per method: the longest, most certain alias found."""
        taken: list[tuple[int, int, str]] = []  # spans matched, with the spelling they matched
        found: dict[str, MethodMatch] = {}
        positions: dict[int, list[int]] = {}  # entry -> where its spelling occurs, in any case
        for start, _, word in self._prefilter.find(text):
            for i in self._by_folded[word]:
                positions.setdefault(i, []).append(start)
        for i in sorted(positions):
            slug, alias, ambiguous = self._entries[i]
            pattern = _alias_pattern(alias)
            # Try the alias's own pattern only where its spelling occurs: long messages stay cheap.
            for m in filter(None, (pattern.match(text, p) for p in positions[i])):
                folded = alias.lower()
                if any(
                    (s <= m.start() < e or s < m.end() <= e) and (s, e, w) != (m.start(), m.end(), folded)
                    for s, e, w in taken
                ):
                    continue  # inside a longer name; the same spelling may name several methods
                match = self._judge(text, m, slug, alias, ambiguous)
                if match is None:
                    continue
                taken.append((m.start(), m.end(), folded))
                best = found.get(slug)
                if best is None or match.confidence > best.confidence:
                    found[slug] = match
        return sorted(found.values(), key=lambda match: match.start)

    def _judge(self, text: str, m: re.Match, slug: str, alias: str, ambiguous: bool) -> MethodMatch | None:
        # Exact when the text is spelled like any of the method's names, not only this alias.
        exact = (
            m.group(0) == alias
            or m.group(0) in self._spellings.get(slug, ())
            or m.group(0) in self._exact_folded.get(alias.lower(), ())
            or _capitals_of_short_value(m.group(0), alias)
        )
        if not ambiguous:
            rule, confidence = ("alias-exact", 0.9) if exact else ("alias-ci", 0.75)
            return MethodMatch(slug, alias, m.group(0), m.start(), rule, confidence)
        if exact and _stands_out_in_capitals(text, m):
            return MethodMatch(slug, alias, m.group(0), m.start(), CAPITALS_RULE, 0.6)
        window = text[max(0, m.start() - _CONTEXT_WINDOW) : m.end() + _CONTEXT_WINDOW]
        if exact and (
            _RL_CONTEXT.search(window.replace(m.group(0), " ")) or self._listed_with_method(text, m)
        ):
            return MethodMatch(slug, alias, m.group(0), m.start(), AMBIGUOUS_RULE, 0.6)
        return None

    def _listed_with_method(self, text: str, m: re.Match) -> bool:
        after = _LISTED_AFTER.match(text, m.end())
        before = _LISTED_BEFORE.search(text[max(0, m.start() - 40) : m.start()])
        return any(
            n and n.group(1) != m.group(0) and n.group(1) in self._all_spellings for n in (after, before)
        )


def _stands_out_in_capitals(text: str, m: re.Match) -> bool:
    if not _LONG_CAPITALS.fullmatch(m.group(0)):
        return False
    before = _WORD_BEFORE.search(text, max(0, m.start() - 40), m.start())
    after = _WORD_AFTER.match(text, m.end())
    return not any(w and w.group(1).isupper() for w in (before, after))


# --- Aliases as they appear in code and configs -------------------------------------------------
#
# Catalog aliases come in a few shapes, and each shape is recognised differently in code:
#   class names  `GRPOTrainer`          -> the identifier, case-sensitive
#   identifiers  `epsilon_high`, `--use-opsm`, `dr_grpo` -> the identifier, case-insensitive
#   plain words  `grpo`, `ipo`          -> only as an option value ("ipo", --ipo, `key: ipo`)
#   settings     `loss_type=dapo`, `std_level: batch` -> the key with that value on one line
#   paths        `recipe/prime`, `example_raft_pp.yaml` -> the path of an added file
#   prose        `implicit PRM`, `reinforce++` -> only in messages and documents

ALIAS_KINDS = ("class", "identifier", "word", "setting", "path", "prose")
_SETTING = re.compile(r"^\s*(?P<key>[A-Za-z_][\w.-]*)\s*(?:=|:)\s*(?P<value>[^\s=:]+)\s*$")
_IDENT = re.compile(r"^-{0,2}[A-Za-z_][\w-]*$")
_BOOLS = {"true", "false", "none", "null"}
_CAMEL_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_ROLE_WORDS = {"trainer", "config", "args", "arguments", "estimator", "loss", "fn", "model", "module"}


@dataclass(frozen=True)
class CodeAlias:
    slug: str
    alias: str  # as the catalog spells it
    kind: str  # one of ALIAS_KINDS
    token: str  # the lowercase token the scanner looks for (key for settings, path for paths)
    value: str = ""  # settings only: the lowercase value

    @property
    def bool_setting(self) -> bool:
        return self.kind == "setting" and self.value in _BOOLS


def symbol_spellings(method) -> list[str]:
    """Identifiers a method's name forces on code: `++` cannot appear in one, so REINFORCE++ is
    written `reinforce_plus_plus`."""
    out = []
    for name in (method.name, *method.aliases):
        if "++" in name:
            spelled = re.sub(r"[^a-z0-9]+", "_", name.lower().replace("++", "_plus_plus")).strip("_")
            if _IDENT.match(spelled):
                out.append(spelled)
    return out


def classify_alias(slug: str, alias: str) -> CodeAlias:
    """Which shape a catalog alias has, and the token that finds it in code."""
    text = alias.strip()
    m = _SETTING.match(text)
    if m and not text.startswith("-"):
        value = m.group("value").strip("\"'").lower()
        return CodeAlias(slug, text, "setting", m.group("key").lower(), value)
    if "/" in text or re.search(r"\.(py|ya?ml|sh|toml|json)$", text):
        return CodeAlias(slug, text, "path", text.lower().strip("/"))
    if not _IDENT.match(text):
        return CodeAlias(slug, text, "prose", text.lower())
    token = text.lstrip("-").lower()
    if re.search(r"[a-z][A-Z]|[A-Z]{2,}[a-z]", text) and "_" not in text:
        return CodeAlias(slug, text, "class", token)
    if "_" in token or "-" in token:
        return CodeAlias(slug, text, "identifier", token)
    return CodeAlias(slug, text, "word", token)


def _trie_regex(words: Iterable[str]) -> str:
    """One regex for many literal words, shaped as a trie: Python's `re` scans it several times
    faster than a flat alternation, because each position tries one branch per first character."""
    trie: dict = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def render(node: dict) -> str:
        end = "" in node
        branches = [re.escape(ch) + render(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if end:
            return f"(?:{body})?"
        return body

    return render(trie)


@dataclass(frozen=True)
class CodeHit:
    alias: CodeAlias
    start: int  # offset of the token in the scanned text
    end: int


class CodeAliasIndex:
    """Every catalog alias compiled into one scanner for code, configs and diff text."""

    def __init__(self, methods: Iterable):
        self.aliases: list[CodeAlias] = []
        self.ambiguous: set[tuple[str, str]] = set()
        for method in methods:
            seen = set()
            for alias in (*method.aliases, *symbol_spellings(method)):
                shaped = classify_alias(method.slug, alias)
                shape = (shaped.kind, shaped.token, shaped.value)
                if len(alias.strip()) < 2 or shape in seen:
                    continue
                seen.add(shape)
                self.aliases.append(shaped)
            for alias in getattr(method, "ambiguous_aliases", ()) or ():
                self.ambiguous.add((method.slug, classify_alias(method.slug, alias).token))
        self.by_token: dict[str, list[CodeAlias]] = {}
        for a in self.aliases:
            if a.kind in ("class", "identifier", "word", "setting"):
                self.by_token.setdefault(a.token, []).append(a)
        self._slugs_of: dict[tuple[str, str, str], set[str]] = {}
        for a in self.aliases:
            self._slugs_of.setdefault((a.kind, a.token, a.value), set()).add(a.slug)
        # Which methods' settings use each key (`loss_type` is nine methods', `importance_sampling_level`
        # GSPO's alone).
        self._key_users: dict[str, set[str]] = {}
        for a in self.aliases:
            if a.kind == "setting":
                self._key_users.setdefault(a.token, set()).add(a.slug)
        self.paths = [a for a in self.aliases if a.kind == "path"]
        self.path_words = [a for a in self.aliases if a.kind in ("word", "identifier")]
        # Whole tokens only: never inside a longer identifier (`grpo` is not in `dr_grpo`).
        self._tokens = LiteralScanner(self.by_token, whole_identifiers=True)
        self._path_pattern = (
            re.compile(rf"(?<![a-z0-9]){_trie_regex(sorted({a.token for a in self.path_words}))}(?![a-z0-9])")
            if self.path_words
            else None
        )

    def owns_key(self, alias: CodeAlias) -> bool:
        """Whether a setting's key belongs to its method alone, so that the key names the method even
        where the value is left to the user (`importance_sampling_level=self.importance_sampling_level`)."""
        return alias.kind == "setting" and self._key_users.get(alias.token) == {alias.slug}

    def is_ambiguous(self, alias: CodeAlias) -> bool:
        return (alias.slug, alias.token) in self.ambiguous

    @staticmethod
    def is_generic(alias: CodeAlias) -> bool:
        """A class named by one common word and a role (`RewardTrainer`, `RewardConfig`) names a
        role every framework may define for its own purpose, not a method; an acronym or a name
        of several words (`GRPOTrainer`, `ReMax`, `GeneralizedAdvantageEstimator`) does."""
        if alias.kind != "class":
            return False
        parts = _CAMEL_PART.findall(alias.alias)
        rest = [p for p in parts if p.lower() not in _ROLE_WORDS]
        return len(parts) > len(rest) == 1 and rest[0].istitle()

    def sharing(self, alias: CodeAlias) -> list[str]:
        """Other methods spelled by the same alias (`reinforce`), sorted."""
        return sorted(self._slugs_of.get((alias.kind, alias.token, alias.value), set()) - {alias.slug})

    def scan(self, text: str, data: bytes | None = None) -> Iterable[CodeHit]:
        """Token hits in `text` (any case; `data`: its bytes, if the caller has them); callers judge
        each hit by its line."""
        for start, end, token in self._tokens.find(text, data):
            for alias in self.by_token[token]:
                yield CodeHit(alias, start, end)

    def path_hits(self, path: str) -> list[CodeAlias]:
        """Aliases named by a file's path (`trl/trainer/dpo_trainer.py` names `dpo`); longest wins.
        `++` reads as `_plus_plus`, as in identifiers: `reinforce++/` names REINFORCE++."""
        lowered = path.lower().replace("++", "_plus_plus")
        found: list[tuple[int, int, CodeAlias]] = []
        for a in self.paths:
            if re.search(rf"(?<![a-z0-9]){re.escape(a.token)}(?![a-z0-9])", lowered):
                found.append((0, len(lowered), a))
        if self._path_pattern is not None:
            for m in self._path_pattern.finditer(lowered):
                for a in self.by_token.get(m.group(0), ()):
                    if a.kind in ("word", "identifier"):
                        found.append((m.start(), m.end(), a))
        found.sort(key=lambda f: f[0] - f[1])
        kept: list[tuple[int, int, CodeAlias]] = []
        for s, e, a in found:
            if a.kind == "path" or not any(s < ke and ks < e for ks, ke, ka in kept if ka.kind != "path"):
                kept.append((s, e, a))
        return [a for _, _, a in kept]
