"""Secrets out of text the project prints: passwords in URIs, secret query parameters, tokens."""

from __future__ import annotations

import os
import re

# scheme://user:password@host -> scheme://user:***@host
_URI_PASSWORD = re.compile(r"(?P<head>[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)[^@\s/]*@")
# ?password=...&token=... and key=value pairs of settings that look secret
_SECRET_PAIR = re.compile(
    r"(?P<key>\b[\w.-]*(?:password|passwd|secret|token|api[_-]?key|auth)[\w.-]*\s*[=:]\s*)[^\s&;,'\"]+",
    re.IGNORECASE,
)
_TOKEN_SHAPES = re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})\b")
# Environment variables whose values must never appear in output.
SECRET_ENV_VARS = ("GITHUB_TOKEN", "NEO4J_PASSWORD", "NEO4J_READ_PASSWORD", "UPTAKE_ADMIN_KEY")
MASK = "***"


def redact_secrets(text: str) -> str:
    """The text with URI passwords, secret-looking key=value pairs, tokens and secret env values masked."""
    text = _URI_PASSWORD.sub(lambda m: f"{m['head']}{MASK}@", text)
    text = _SECRET_PAIR.sub(lambda m: f"{m['key']}{MASK}", text)
    text = _TOKEN_SHAPES.sub(MASK, text)
    for name in SECRET_ENV_VARS:
        value = os.environ.get(name, "")
        if len(value) >= 4:
            text = text.replace(value, MASK)
    return text


def redact_uri(uri: str) -> str:
    """A store target or URL safe to print: no password, no query string."""
    return redact_secrets(uri.split("?", 1)[0])
