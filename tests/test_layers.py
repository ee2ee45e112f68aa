"""The layering of ARCHITECTURE.md as a check over every import, read with `ast`.

loaders/ turn sources into records and never see a store; graph/ is the bottom; queries/ sits on
graph/ only; sync/ is the one place loaders meet stores, and nothing below api/ calls up into it.
Inside api/, the views import neither the CLI nor the HTTP app, the HTTP app never imports the CLI,
the CLI reaches the HTTP app only to serve it, and no module imports one that imports it back.
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
    "api/views": ("uptake.api.cli", "uptake.api.http"),
    "api/http": ("uptake.api.cli",),
    "api/cli": ("uptake.api.http",),
}
# (file, module) imports the rules above allow: `uptake serve` starts the HTTP app.
ALLOWED = {
    ("api/cli/serve.py", "uptake.api.http.app"),
    ("api/cli/serve.py", "uptake.api.http.app.ApiError"),
    ("api/cli/serve.py", "uptake.api.http.app.create_app"),
    ("api/cli/serve.py", "uptake.api.http.app.share_with_workers"),
    ("api/cli/serve.py", "uptake.api.http.settings"),
    ("api/cli/serve.py", "uptake.api.http.settings.ApiSettings"),
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
            relative = path.relative_to(root).as_posix()
            for line, module in imported_modules(path, root):
                if (relative, module) in ALLOWED:
                    continue
                if any(_matches(module, f) for f in forbidden):
                    problems.append(f"{relative}:{line} imports {module}")
    return sorted(set(problems))


def import_cycles(folder: str = "api", root: Path = ROOT) -> list[list[str]]:
    """Cycles among the modules under `folder`, function-level imports included (a deferred import
    is still a dependency), each as the modules in import order."""
    files = {".".join(_module_name(p, root)): p for p in sorted((root / folder).rglob("*.py"))}
    edges = {
        name: sorted({m for _, m in imported_modules(path, root) if m in files and m != name})
        for name, path in files.items()
    }
    cycles, done = [], set()

    def visit(name: str, stack: list[str]) -> None:
        if name in stack:
            cycles.append(stack[stack.index(name) :])
            return
        if name in done:
            return
        for target in edges[name]:
            visit(target, [*stack, name])
        done.add(name)

    for name in files:
        visit(name, [])
    return cycles


def test_no_layer_imports_a_layer_above_it():
    assert layer_violations() == []


def test_no_import_cycles_inside_api():
    assert import_cycles("api") == []


def test_the_cycle_check_sees_a_deferred_import_back(tmp_path):
    (tmp_path / "api" / "http").mkdir(parents=True)
    (tmp_path / "api" / "http" / "app.py").write_text("from . import explorer\n")
    (tmp_path / "api" / "http" / "explorer.py").write_text("def f():\n    from .app import stored\n")
    (tmp_path / "api" / "http" / "models.py").write_text("import pydantic\n")
    assert import_cycles("api", tmp_path) == [["uptake.api.http.app", "uptake.api.http.explorer"]]


def test_the_check_sees_relative_absolute_and_function_level_imports(tmp_path):
    for folder, text in {
        "loaders": "from ..graph.store import Store\n",
        "graph": "def f():\n    import uptake.sync.build\n",
        "queries": "from ..api import cli\n",
        "sync": "from ..api.display import print_report\n",
        "api/views": "from ..http.models import Rows\n",
        "api/http": "def f():\n    from ..cli import main\n",
        "api/cli": "from ..http.app import create_app\n",
    }.items():
        (tmp_path / folder / "inner").mkdir(parents=True)
        (tmp_path / folder / "inner" / "bad.py").write_text(text.replace("from ..", "from ..."))
        depth = "." * (folder.count("/") + 2)
        (tmp_path / folder / "ok.py").write_text(
            f"from .inner import bad\nfrom {depth}graph.records import Node\n"
        )
    assert layer_violations(tmp_path) == [
        "api/cli/inner/bad.py:1 imports uptake.api.http.app",
        "api/cli/inner/bad.py:1 imports uptake.api.http.app.create_app",
        "api/http/inner/bad.py:2 imports uptake.api.cli",
        "api/http/inner/bad.py:2 imports uptake.api.cli.main",
        "api/views/inner/bad.py:1 imports uptake.api.http.models",
        "api/views/inner/bad.py:1 imports uptake.api.http.models.Rows",
        "graph/inner/bad.py:2 imports uptake.sync.build",
        "loaders/inner/bad.py:1 imports uptake.graph.store",
        "loaders/inner/bad.py:1 imports uptake.graph.store.Store",
        "queries/inner/bad.py:1 imports uptake.api",
        "queries/inner/bad.py:1 imports uptake.api.cli",
        "sync/inner/bad.py:1 imports uptake.api.display",
        "sync/inner/bad.py:1 imports uptake.api.display.print_report",
    ]
