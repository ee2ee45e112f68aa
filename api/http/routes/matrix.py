"""`/matrix`: methods by frameworks, each cell the first implementing commit and whether the
catalog's claim agrees with it (the stored query `method-framework-matrix`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ...views.graph_style import evidence_url
from ..dependencies import HolderDep, SettingsDep
from ..running import stored_result
from . import route

router = APIRouter()
get = route(router, "GET")


class Matrix(BaseModel):
    """Rows are methods, columns frameworks; a cell exists where there is evidence or a claim."""

    methods: list[dict[str, Any]] = Field(description="slug, name, family, change of each row, by slug")
    frameworks: list[str] = Field(description="the columns: every framework with a cell, by slug")
    cells: list[dict[str, Any]] = Field(
        description="one per (method, framework): first_commit, commit_date, release, identifier, "
        "evidence (file:line), url (the commit), commits, implemented, claimed, and agreement: "
        "agree, evidence only (no catalog claim) or claim only (no mined commit)"
    )
    count: int = Field(description="cells in all")
    implemented: int = Field(description="cells with mined evidence: the rows of framework-methods")


@get("/matrix", Matrix, "get_matrix", "resources")
def get_matrix(holder: HolderDep, settings: SettingsDep, family: str = "", change: str = "") -> Matrix:
    """Where each method runs and how it is turned on there, filtered by family or by what it changes."""
    rows = stored_result(
        holder, settings, "method-framework-matrix", {"family": family, "change": change}
    ).rows
    repos = {r["slug"]: r["repo"] for r in stored_result(holder, settings, "resource-frameworks", {}).rows}
    cells = sorted(rows, key=lambda r: (r["method"], r["framework"]))
    for cell in cells:
        sha = cell["first_commit"]
        cell["url"] = evidence_url("Commit", sha, {}, repos.get(cell["framework"])) if sha else None
    methods = {
        c["method"]: {"slug": c["method"], "name": c["name"], "family": c["family"], "change": c["change"]}
        for c in cells
    }
    return Matrix(
        methods=[methods[m] for m in sorted(methods)],
        frameworks=sorted({c["framework"] for c in cells}),
        cells=cells,
        count=len(cells),
        implemented=sum(1 for c in cells if c["implemented"]),
    )
