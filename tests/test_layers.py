"""The layering of ARCHITECTURE.md as a check over every import, read with `ast`.

loaders/ turn sources into records and never see a store; graph/ is the bottom; queries/ sits on
graph/ only; sync/ is the one place loaders meet stores, and nothing below api/ calls up into it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# folder -> modules it must never import (a module or anything under it)
FORBIDDEN = {
    "loaders": ("uptake.graph.store", "uptake.queries", "uptake.sync", "uptake.api"),
    "graph": ("uptake.loaders", "uptake.queries", "uptake.sync", "uptake.api"),
    "queries": ("uptake.loaders", "uptake.sync", "uptake.api"),
    "sync": ("uptake.api",),
}


def _module_name(path: Path, root: Path) -> list[str]:
    parts = ["uptake", *path.relative_to(root).with_suffix("").parts]
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_modules(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file, function-level ones included;
    `from x import y` also counts as importing `x.y`, which may be a module."""
    package = _module_name(path, root)
    if path.name != "__init__.py":
        package = package[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - (node.level - 1)]
                base = ".".join([*parent, *([base] if base else [])])
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return found


def _matches(module: str, forbidden: str) -> bool:
    return module == forbidden or module.startswith(forbidden + ".")


def layer_violations(root: Path = ROOT) -> list[str]:
    problems = []
    for folder, forbidden in FORBIDDEN.items():
        for path in sorted((root / folder).rglob("*.py")):
            for line, module in imported_modules(path, root):
                if any(_matches(module, f) for f in forbidden):
                    problems.append(f"{path.relative_to(root)}:{line} imports {module}")
    return sorted(set(problems))


def test_no_layer_imports_a_layer_above_it():
    assert layer_violations() == []


def test_the_check_sees_relative_absolute_and_function_level_imports(tmp_path):
    for folder, text in {
        "loaders": "from ..graph.store import Store\n",
        "graph": "def f():\n    import uptake.sync.build\n",
        "queries": "from ..api import cli\n",
        "sync": "from ..api.display import print_report\n",
    }.items():
        (tmp_path / folder / "inner").mkdir(parents=True)
        (tmp_path / folder / "inner" / "bad.py").write_text(text.replace("from ..", "from ..."))
        (tmp_path / folder / "ok.py").write_text("from .inner import bad\nfrom ..graph.records import Node\n")
    assert layer_violations(tmp_path) == [
        "graph/inner/bad.py:2 imports uptake.sync.build",
        "loaders/inner/bad.py:1 imports uptake.graph.store",
        "loaders/inner/bad.py:1 imports uptake.graph.store.Store",
        "queries/inner/bad.py:1 imports uptake.api",
        "queries/inner/bad.py:1 imports uptake.api.cli",
        "sync/inner/bad.py:1 imports uptake.api.display",
        "sync/inner/bad.py:1 imports uptake.api.display.print_report",
    ]
