"""What one sync step did, in a form the CLI prints the same way for every command."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..graph.store import WriteStats


def describe_writes(stats: WriteStats) -> str:
    if not (stats.nodes_created or stats.nodes_updated or stats.edges_created or stats.edges_updated):
        return "nothing written"
    return (
        f"{stats.nodes_created} nodes created, {stats.nodes_updated} updated, "
        f"{stats.edges_created} relationships created, {stats.edges_updated} updated"
    )


@dataclass
class SyncReport:
    """One step: what it wrote, what it read from (`sources`), what else it found (`notes`), and
    what it skipped with the reason and the command that would fill the gap (`skipped`)."""

    step: str
    written: WriteStats = field(default_factory=WriteStats)
    sources: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def add(self, stats: WriteStats) -> None:
        self.written += stats

    def details(self) -> list[str]:
        """What else the step found, after what it wrote; a step with more to say adds to it."""
        return list(self.notes)

    def __str__(self) -> str:
        line = f"{self.step}: {describe_writes(self.written)}"
        if self.sources:
            line += f" from {'; '.join(self.sources)}"
        parts = [line, *self.details(), *(f"skipped: {why}" for why in self.skipped)]
        return "; ".join(parts)
