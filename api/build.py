"""`uptake build`: every loader that has data, in dependency order.

The catalog comes first (methods and frameworks every other loader links to),
then what Uptake ships offline, then live sources when asked for. A step whose
module or input is not there is skipped with a line saying why, so a build on
a machine without network still gives a useful graph.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from dataclasses import dataclass

import typer

from ..graph.store import Store, WriteStats


@dataclass(frozen=True)
class BuildStep:
    name: str
    module: str  # under uptake.loaders
    function: str  # called as function(store, progress=...)
    offline: bool = True  # runs without network


STEPS = (
    BuildStep("catalog", "catalog", "load_catalog"),
    BuildStep("framework histories (data release)", "release", "load_data_release"),
    BuildStep("model reports", "reports", "load_reports"),
    BuildStep("papers", "arxiv", "load_papers_offline"),
    BuildStep("contribution rules", "rules", "load_rules_offline"),
    BuildStep("github threads", "github", "load_github_offline"),
)


def _resolve(step: BuildStep) -> Callable | None:
    try:
        module = importlib.import_module(f"uptake.loaders.{step.module}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("uptake.loaders"):
            return None
        raise
    return getattr(module, step.function, None)


def run_build(store: Store, *, offline: bool = True, progress=None) -> dict[str, WriteStats]:
    """Run each available step; returns what each one wrote."""
    results: dict[str, WriteStats] = {}
    for step in STEPS:
        if offline and not step.offline:
            typer.echo(f"skipped {step.name}: needs network (run `uptake update`)")
            continue
        function = _resolve(step)
        if function is None:
            typer.echo(f"skipped {step.name}: not available in this version")
            continue
        try:
            stats = _run_step(step, function, store, progress)
        except FileNotFoundError as exc:
            typer.echo(f"skipped {step.name}: {exc}")
            continue
        results[step.name] = stats
        typer.echo(f"{step.name}: {stats}")
    return results


def _run_step(step: BuildStep, function: Callable, store: Store, progress) -> WriteStats:
    if progress is None or "progress" not in inspect.signature(function).parameters:
        return function(store)
    with progress(step.name) as advance:
        return function(store, progress=advance)
