"""A generated graph shaped like Uptake's, for write and read benchmarks.

Shape at scale 1.0: 270,508 nodes (200k Commit, 20k Paper, 500 Method, 50k Issue,
8 Framework) and about 990k relationships, with hub nodes (8 frameworks, a few
very popular methods) as in the real graph. Deterministic for a given seed.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

from uptake.graph.records import Edge, Node, Record

BASE = dt.date(2023, 1, 1)


def sizes(scale: float) -> dict[str, int]:
    return {
        "Commit": int(200_000 * scale),
        "Paper": int(20_000 * scale),
        "Method": max(10, int(500 * scale)),
        "Issue": int(50_000 * scale),
        "Framework": 8,
    }


def sha(i: int) -> str:
    return f"{i:040x}"


def generate(scale: float = 1.0, seed: int = 7) -> Iterator[Record]:
    """Nodes of each label, then the relationships between them, as records."""
    rnd = random.Random(seed)
    n = sizes(scale)
    frameworks = [f"fw{i}" for i in range(n["Framework"])]
    for f in frameworks:
        yield Node("Framework", f, {"name": f.upper(), "repo": f"org/{f}"})
    for m in range(n["Method"]):
        yield Node("Method", f"m{m}", {"name": f"M{m}", "aliases": [f"m{m}", f"method_{m}"]})
    for p in range(n["Paper"]):
        yield Node(
            "Paper",
            f"25{p % 12 + 1:02d}.{p:05d}",
            {"title": f"Paper {p}", "published_date": BASE + dt.timedelta(days=p % 900)},
        )
    for c in range(n["Commit"]):
        yield Node(
            "Commit",
            sha(c),
            {
                "framework": frameworks[c % len(frameworks)],
                "subject": f"change {c} (#{c})",
                "commit_date": BASE + dt.timedelta(days=c % 1200),
                "pr_number": c,
                "insertions": c % 97,
            },
        )
    for i in range(n["Issue"]):
        yield Node("Issue", f"fw{i % 8}#{i}", {"number": i, "title": f"issue {i}", "state": "open"})

    # Popular methods are hubs: a Zipf-like pick concentrates edges on a few.
    def method() -> str:
        return f"m{min(int(rnd.paretovariate(1.2)) - 1, n['Method'] - 1)}"

    def paper() -> str:
        p = rnd.randrange(n["Paper"])
        return f"25{p % 12 + 1:02d}.{p:05d}"

    ev = {"rule": "generated", "confidence": 0.9}
    for p in range(n["Paper"]):
        yield Edge(
            "PROPOSES", ("Paper", f"25{p % 12 + 1:02d}.{p:05d}"), ("Method", f"m{p % n['Method']}"), ev
        )
    for c in range(n["Commit"]):
        s = ("Commit", sha(c))
        yield Edge("PART_OF", s, ("Framework", frameworks[c % len(frameworks)]))
        yield Edge("MENTIONS", s, ("Paper", paper()), ev)
        if c % 4 == 0:
            yield Edge("MENTIONS", s, ("Method", method()), ev)
        if c % 7 == 0:
            yield Edge("IMPLEMENTS", s, ("Method", method()), {**ev, "location": f"pkg/x{c}.py:{c % 300}"})
        yield Edge("FIXES", s, ("Issue", f"fw{c % 8}#{rnd.randrange(n['Issue'])}"), ev)
    for i in range(n["Issue"]):
        s = ("Issue", f"fw{i % 8}#{i}")
        yield Edge("PART_OF", s, ("Framework", f"fw{i % 8}"))
        for _ in range(3):
            yield Edge("CITES", s, ("Paper", paper()), ev)
        for _ in range(2):
            yield Edge("NAMES", s, ("Method", method()), ev)
