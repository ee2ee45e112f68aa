"""How each kind of node looks and is named, in one place.

The web explorer, the Neo4j Browser style sheet (GraSS), the GEXF export's
colours and the Mermaid export's classes all read these tables, so a Paper is
the same colour and reads the same way everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...graph.schema import NODE_TYPES

TITLE_CHARS = 42
SHA_CHARS = 7


@dataclass(frozen=True)
class LabelStyle:
    color: str
    border: str
    text: str
    caption: str
    """The property Neo4j Browser shows inside the node (its GraSS caption)."""
    diameter: int = 50


# Colours chosen to be told apart by people with the common colour-vision deficiencies
# (Okabe-Ito based), with text colours that keep a 4.5:1 contrast on the fill.
STYLES: dict[str, LabelStyle] = {
    "Paper": LabelStyle("#56B4E9", "#2A7FB0", "#10222E", "title", 70),  # wide enough for an arXiv id
    "Method": LabelStyle("#E69F00", "#A87300", "#1F1500", "name", 65),
    "Framework": LabelStyle("#009E73", "#006B4E", "#FFFFFF", "name", 70),
    "Commit": LabelStyle("#B8B8B8", "#7A7A7A", "#111111", "sha", 40),
    "Release": LabelStyle("#F0E442", "#B3A900", "#222000", "tag", 45),
    "PullRequest": LabelStyle("#CC79A7", "#93507A", "#1E0B16", "id", 45),
    "Issue": LabelStyle("#D55E00", "#9A4300", "#FFFFFF", "id", 45),
    "FailureReport": LabelStyle("#A6192E", "#6E0F1E", "#FFFFFF", "symptom", 50),
    "ModelReport": LabelStyle("#0072B2", "#004F7C", "#FFFFFF", "title", 70),
    "Organization": LabelStyle("#6B5B95", "#483C66", "#FFFFFF", "name", 45),
    "ContributionRule": LabelStyle("#8C8C5A", "#5F5F3A", "#FFFFFF", "kind", 40),
}
DEFAULT_STYLE = LabelStyle("#DDDDDD", "#999999", "#111111", "name")
# Labels whose caption property a node may lack (a paper the catalog names before any source gave
# its title); Browser captions have no fallback, so these show their key before it, never a blank.
KEY_IN_CAPTION = {"Paper", "ModelReport"}


def style_for(label: str) -> LabelStyle:
    return STYLES.get(label, DEFAULT_STYLE)


def shorten(text: str, limit: int = TITLE_CHARS) -> str:
    """Cut at a word boundary and mark the cut, so long titles stay readable in a node."""
    text = " ".join(str(text).split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,.:;-") + "…"


def caption(label: str, key: Any, props: dict[str, Any] | None = None, name: Any = None) -> str:
    """The short text a node is drawn with: shortened titles, method names, short commit shas."""
    props = props or {}
    key = str(key)
    if label == "Commit":
        return key[:SHA_CHARS]
    if label in ("Paper", "ModelReport"):
        title = props.get("title") or name
        return shorten(title) if title else key
    if label == "Method":
        return str(props.get("name") or name or key)
    if label == "Release":
        return str(props.get("tag") or key.rsplit("/", 1)[-1])
    if label == "FailureReport":
        symptom = props.get("symptom") or name
        return f"{symptom} ({key.split('/', 1)[0]})" if symptom else key
    if label in ("Issue", "PullRequest", "ContributionRule"):
        return key
    return str(props.get("name") or name or key)


def evidence_url(
    label: str, key: Any, props: dict[str, Any] | None = None, repo: str | None = None
) -> str | None:
    """Where a person can read the thing itself: the arXiv page, the commit, the issue or PR on GitHub.

    `repo` is the framework's `owner/name` (Framework.repo); without it commits and threads have no address.
    """
    props = props or {}
    key = str(key)
    if label in ("Paper", "ModelReport"):
        return f"https://arxiv.org/abs/{key}"
    if label == "Method" and props.get("arxiv_id"):
        return f"https://arxiv.org/abs/{props['arxiv_id']}"
    if label in ("Issue", "PullRequest") and props.get("url"):
        return str(props["url"])
    if label == "Framework":
        repo = props.get("repo") or repo
        return f"https://github.com/{repo}" if repo else None
    if not repo:
        return None
    if label == "Commit":
        return f"https://github.com/{repo}/commit/{key}"
    if label == "Issue":
        return f"https://github.com/{repo}/issues/{key.rpartition('#')[2]}"
    if label == "PullRequest":
        return f"https://github.com/{repo}/pull/{key.rpartition('#')[2]}"
    if label == "Release":
        return f"https://github.com/{repo}/releases/tag/{key.split('/', 1)[-1]}"
    if label == "FailureReport":
        return f"https://github.com/{repo}/issues/{key.split('/', 1)[0].rpartition('#')[2]}"
    return None


def grass() -> str:
    """A Neo4j Browser style sheet: a colour and a readable caption per label.

    Browser captions can only name properties, so Commit uses `sha` (the
    Browser has no substring), and a label whose caption property may be
    missing shows its key first; the guide's queries return what reads best.
    """
    lines = [
        "node {",
        "  diameter: 50px;",
        "  color: #DDDDDD;",
        "  border-color: #999999;",
        "  border-width: 2px;",
        "  text-color-internal: #111111;",
        "  font-size: 10px;",
        "}",
        "relationship {",
        "  color: #A5ABB6;",
        "  shaft-width: 1px;",
        "  font-size: 8px;",
        "  padding: 3px;",
        "  text-color-external: #000000;",
        "  text-color-internal: #FFFFFF;",
        "  caption: '<type>';",
        "}",
    ]
    for label, node_type in NODE_TYPES.items():
        s = style_for(label)
        shown = f"{{{node_type.key}}} {{{s.caption}}}" if label in KEY_IN_CAPTION else f"{{{s.caption}}}"
        lines += [
            f"node.{label} {{",
            f"  color: {s.color};",
            f"  border-color: {s.border};",
            f"  text-color-internal: {s.text};",
            f"  diameter: {s.diameter}px;",
            f"  caption: '{shown}';",
            "}",
        ]
    lines += [
        "relationship.EXTENDS {",
        "  caption: '{change}';",
        "  shaft-width: 3px;",
        "  color: #A87300;",
        "}",
    ]
    return "\n".join(lines) + "\n"
