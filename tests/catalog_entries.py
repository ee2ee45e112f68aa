"""Real catalog entries for tests that need a few methods or organisations, not the whole catalog."""

from __future__ import annotations

from uptake.loaders.catalog import MethodEntry, OrganizationEntry


def method(
    slug: str,
    name: str,
    aliases: tuple[str, ...] = (),
    arxiv_id: str | None = None,
    ambiguous_aliases: tuple[str, ...] = (),
) -> MethodEntry:
    return MethodEntry(
        slug=slug,
        name=name,
        aliases=aliases,
        arxiv_id=arxiv_id,
        paper_title=None,
        parent=None,
        change=None,
        change_detail="",
        family="policy-gradient",
        ambiguous_aliases=ambiguous_aliases,
    )


def org(slug: str, name: str, kind: str = "company") -> OrganizationEntry:
    return OrganizationEntry(slug, name, kind)
