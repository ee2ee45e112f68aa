"""The graph a view draws: nodes and relationships, shared by the HTTP API, the explorer and exports."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class GraphNode(BaseModel):
    id: str = Field(description="Label:key, unique in the graph")
    label: str
    key: str
    name: str | None = None
    properties: dict[str, Any] = Field(default_factory=dict)


class GraphRelationship(BaseModel):
    id: str = Field(description="source id, type and target id")
    type: str
    source: str
    target: str
    properties: dict[str, Any] = Field(default_factory=dict)


class Graph(BaseModel):
    """Nodes and relationships a graph view can draw as they are."""

    nodes: list[GraphNode] = Field(default_factory=list)
    relationships: list[GraphRelationship] = Field(default_factory=list)
