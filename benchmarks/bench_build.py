"""`uptake build` on the shipped data, whole command from process start, against a baseline
revision of Uptake measured in the same run (alternating, so machine load hits both alike).

The baseline is any git revision of this repository (default: `main`): it is checked out into a
temporary worktree and run with the same Python, the package found through a temporary folder
holding one `uptake` link to that worktree. Each round builds a fresh Ladybug store with each.

Usage: python -m benchmarks.bench_build [--baseline main] [--rounds 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def timed_build(python_path: Path | None, store: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole `uptake build`: CPU of the process and its children."""
    env_path = {"PYTHONPATH": str(python_path)} if python_path else {}
    command = [
        sys.executable,
        "-c",
        "from uptake.api.cli import main; main()",
        "build",
        "--store",
        str(store),
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, env={**_env(), **env_path}, cwd=store.parent)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="main")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        base_tree, base_link = tmp_path / "baseline", tmp_path / "pkg"
        subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", str(base_tree), args.baseline],
            check=True,
            capture_output=True,
        )
        base_link.mkdir()
        (base_link / "uptake").symlink_to(base_tree)
        try:
            times: dict[str, list[tuple[float, float]]] = {"baseline": [], "this": []}
            for n in range(args.rounds):
                times["baseline"].append(timed_build(base_link, tmp_path / f"base{n}.lbug"))
                times["this"].append(timed_build(None, tmp_path / f"this{n}.lbug"))
        finally:
            subprocess.run(
                ["git", "-C", str(REPO), "worktree", "remove", "--force", str(base_tree)], check=False
            )
    for what, index in (("wall", 0), ("CPU", 1)):
        base = statistics.median(t[index] for t in times["baseline"])
        this = statistics.median(t[index] for t in times["this"])
        print(
            f"{what}: baseline {args.baseline} median {base:.2f} s, this checkout median {this:.2f} s, "
            f"ratio {this / base:.2f}x  (baseline {[round(t[index], 2) for t in times['baseline']]}, "
            f"this {[round(t[index], 2) for t in times['this']]})"
        )


if __name__ == "__main__":
    main()
