"""Finding catalog methods in text by their aliases.

Shared by the commit linker, the paper screener and the GitHub loader, so that
"this names DAPO" means the same thing everywhere. Aliases are matched as whole
identifiers (never inside a longer word), and aliases the catalog marks as
ambiguous (common words, other meanings) need the method's exact display-name
spelling or a nearby RL word before they count.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# Words near an ambiguous alias that show it is meant as an RL method.
_RL_CONTEXT = re.compile(
    r"\b(loss|advantage|estimator|policy|objective|trainer|reward|rl|rlhf|rlvr|grpo|ppo|clip|"
    r"baseline|algorithm|optimi[sz]ation|kl|rollout)\b",
    re.IGNORECASE,
)
_CONTEXT_WINDOW = 80


@dataclass(frozen=True)
class MethodMatch:
    slug: str
    alias: str  # the alias that matched
    text: str  # the text as found
    start: int
    rule: str  # alias-exact, alias-ci, ambiguous-alias-in-context
    confidence: float


def _boundary(alias: str) -> str:
    # Identifiers: not preceded/followed by a letter, digit or underscore; hyphen
    # continuations ("ORPO-like") are excluded too, so a mention of a family is not the method.
    return rf"(?<![\w-]){re.escape(alias)}(?![\w]|-(?=[a-z]))"


class MethodMatcher:
    """Compiled alias patterns for a set of catalog methods."""

    def __init__(self, methods: Iterable):
        self._entries: list[tuple[re.Pattern, str, str, bool]] = []
        for method in methods:
            ambiguous = {a.lower() for a in getattr(method, "ambiguous_aliases", ())}
            for alias in {method.name, *method.aliases}:
                if len(alias) < 2:
                    continue
                is_ambiguous = alias.lower() in ambiguous
                self._entries.append(
                    (re.compile(_boundary(alias), re.IGNORECASE), method.slug, alias, is_ambiguous)
                )
        # Longest aliases first, so "Dr. GRPO" wins over the "GRPO" inside it.
        self._entries.sort(key=lambda e: -len(e[2]))

    def find(self, text: str) -> list[MethodMatch]:
        """One match per method: the longest, most certain alias found."""
        taken: list[tuple[int, int]] = []
        found: dict[str, MethodMatch] = {}
        for pattern, slug, alias, ambiguous in self._entries:
            for m in pattern.finditer(text):
                if any(s <= m.start() < e or s < m.end() <= e for s, e in taken):
                    continue
                match = self._judge(text, m, slug, alias, ambiguous)
                if match is None:
                    continue
                taken.append((m.start(), m.end()))
                best = found.get(slug)
                if best is None or match.confidence > best.confidence:
                    found[slug] = match
        return sorted(found.values(), key=lambda match: match.start)

    @staticmethod
    def _judge(text: str, m: re.Match, slug: str, alias: str, ambiguous: bool) -> MethodMatch | None:
        exact = m.group(0) == alias
        if not ambiguous:
            rule, confidence = ("alias-exact", 0.9) if exact else ("alias-ci", 0.75)
            return MethodMatch(slug, alias, m.group(0), m.start(), rule, confidence)
        window = text[max(0, m.start() - _CONTEXT_WINDOW) : m.end() + _CONTEXT_WINDOW]
        if exact and _RL_CONTEXT.search(window.replace(m.group(0), " ")):
            return MethodMatch(slug, alias, m.group(0), m.start(), "ambiguous-alias-in-context", 0.6)
        return None
