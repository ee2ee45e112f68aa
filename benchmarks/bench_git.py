"""Speed and memory of the git miner against the raw `git log -p` floor, measured in one run.

    python -m benchmarks.bench_git --mirrors DIR [--framework trl --framework verl ...]
                                   [--rounds 3] [--workers 2] [--pydriller openrlhf] [--no-catalog]

For each framework's fetched repository (see `eval_implementations.find_mirror` for layouts):

* raw floor: one `git log -p HEAD > /dev/null` (a single git process computing every diff);
* miner: the product's full-history mining (messages and diffs, linking included) in a child
  process, wall time, CPU time and peak memory (the largest single process, and the sum of the
  parent and its largest worker);
* with `--no-catalog`, the same miner with an empty method catalog: reading and parsing every
  diff with no linking, so the linker's share of the miner's time shows as the difference;
* they alternate round by round and the medians are compared, so all see the same machine;
* incremental: mining into a fresh Ladybug store, then the re-run with no new commits, timed in
  process and as a whole `uptake load git` command;
* optionally PyDriller doing the same traversal (message, dates, every file's diff) on one
  framework, as a reference point.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from uptake.loaders.git import mine_commits, resolve_repository
from uptake.sync.git import sync_git

from benchmarks.eval_implementations import find_mirror

REPOS = {
    "trl": "huggingface/trl",
    "verl": "volcengine/verl",
    "openrlhf": "OpenRLHF/OpenRLHF",
    "nemo-rl": "NVIDIA-NeMo/RL",
    "roll": "alibaba/ROLL",
    "areal": "inclusionAI/AReaL",
    "slime": "THUDM/slime",
    "prime-rl": "PrimeIntellect-ai/prime-rl",
    "skyrl": "NovaSky-AI/SkyRL",
}


def _methods() -> list:
    from uptake.loaders.catalog import read_catalog

    return list(read_catalog().methods.values())


def child_mine(git_dir: str, workers: int, catalog: bool = True) -> None:
    """Run in a child process: mine everything (with no method catalog when `catalog` is false),
    print JSON figures."""
    methods = _methods() if catalog else []  # reading the catalog is start-up, not mining
    t0, c0 = time.perf_counter(), time.process_time()
    shas = subprocess.run(
        ["git", "--git-dir", git_dir, "rev-list", "--reverse", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    commits = links = 0
    for _, mined in mine_commits([(git_dir, shas)], methods, workers):
        commits += len(mined)
        links += sum(len(c.links) for c in mined)
    wall = time.perf_counter() - t0
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": time.process_time() - c0 + kids.ru_utime + kids.ru_stime,
                "commits": commits,
                "links": links,
                "rss_self_mb": _peak_rss_mb(),
                "rss_child_max_mb": kids.ru_maxrss / 1024,
            }
        )
    )


def _peak_rss_mb() -> float:
    """This process's own peak RSS (VmHWM): unlike ru_maxrss it does not inherit the parent's
    high-water mark across fork and exec."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def raw_floor(git_dir: str) -> tuple[float, float] | None:
    """Wall and CPU time of one `git log -p`; None where git cannot read every diff (a partial
    clone lacking some file contents, which the miner reads around)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    log = ["git", "--git-dir", git_dir, "log", "-p", "HEAD"]
    if subprocess.run(log, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return None
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def miner_run(git_dir: str, workers: int, catalog: bool = True) -> dict:
    t0 = time.perf_counter()
    empty = [] if catalog else ["--child-no-catalog"]
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_git", "--child", git_dir, "--workers", str(workers), *empty],
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    figures["process_wall"] = time.perf_counter() - t0
    return figures


def pydriller_run(path: str) -> float:
    from pydriller import Repository

    with tempfile.TemporaryDirectory() as tmp:
        # PyDriller wants a work-tree repository; a shared clone reuses the objects, copies nothing.
        clone = str(Path(tmp) / "clone")
        subprocess.run(["git", "clone", "-q", "--no-checkout", "--shared", path, clone], check=True)
        t0 = time.perf_counter()
        for commit in Repository(clone).traverse_commits():
            _ = (commit.msg, commit.author_date, commit.committer_date)
            for mod in commit.modified_files:
                _ = mod.diff
        return time.perf_counter() - t0


def incremental(framework: str, path: Path, workers: int) -> dict:
    """In a child process, so the store's memory never counts against the miner's figures."""
    out = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_git", "--child-incremental", framework, str(path),
         "--workers", str(workers)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def child_incremental(framework: str, path: Path, workers: int) -> dict:
    from uptake.graph.store import open_store

    with tempfile.TemporaryDirectory() as tmp:
        target = str(Path(tmp) / "graph.lbug")
        store = open_store(target)
        store.init()
        t0 = time.perf_counter()
        first = sync_git(store, framework, path, _methods(), workers=workers).mined
        full = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = sync_git(store, framework, path, _methods(), workers=workers).mined
        rerun = time.perf_counter() - t0
        store.close()
        assert again.up_to_date, again
        t0 = time.perf_counter()
        subprocess.run(
            [
                str(Path(sys.executable).with_name("uptake")),
                "load",
                "git",
                "--framework",
                framework,
                "--repo",
                str(path),
                "--store",
                target,
            ],
            check=True,
            capture_output=True,
        )
        command = time.perf_counter() - t0
    return {"first_with_writes": full, "commits": first.new_commits, "rerun": rerun, "rerun_command": command}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", type=Path)
    ap.add_argument("--framework", action="append")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument(
        "--pydriller", action="append", default=[], help="frameworks to also traverse with PyDriller"
    )
    ap.add_argument("--no-incremental", action="store_true")
    ap.add_argument(
        "--no-catalog", action="store_true", help="also time the miner with an empty catalog (no linking)"
    )
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-no-catalog", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--child-incremental", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_incremental:
        fw, path = args.child_incremental
        print(json.dumps(child_incremental(fw, Path(path), args.workers)))
        return 0
    if args.child:
        child_mine(args.child, args.workers, catalog=not args.child_no_catalog)
        return 0
    if not args.mirrors:
        ap.error("--mirrors is required")
    print(f"machine: {os.cpu_count()} cores; workers {args.workers}; rounds {args.rounds}")
    for fw in args.framework or ["trl", "verl", "openrlhf"]:
        path = find_mirror(args.mirrors, REPOS[fw])
        git_dir = str(resolve_repository(path))
        raws, mines, bare = [], [], []
        for _ in range(args.rounds):
            raws.append(raw_floor(git_dir))
            mines.append(miner_run(git_dir, args.workers))
            if args.no_catalog:
                bare.append(miner_run(git_dir, args.workers, catalog=False))
        raw = None if None in raws else [statistics.median(column) for column in zip(*raws, strict=True)]
        mine_wall = statistics.median(m["wall"] for m in mines)
        mine_cpu = statistics.median(m["cpu"] for m in mines)
        rss = max(m["rss_self_mb"] for m in mines)
        rss_child = max(m["rss_child_max_mb"] for m in mines)
        start_up = statistics.median(m["process_wall"] for m in mines)
        print(f"\n{fw}: {mines[0]['commits']} commits, {mines[0]['links']} links")
        if raw:
            rounds = f"(median of {args.rounds})"
            print(f"  raw git log -p     wall {raw[0]:6.2f} s   cpu {raw[1]:6.2f} s  {rounds}")
        else:
            print("  raw git log -p     fails: this copy lacks some file contents (a partial clone)")
        print(
            f"  miner (linking)    wall {mine_wall:6.2f} s   cpu {mine_cpu:6.2f} s   "
            f"(process incl. start-up {start_up:.2f} s)"
        )
        if raw:
            print(f"  ratio miner/raw    wall {mine_wall / raw[0]:5.2f}x   cpu {mine_cpu / raw[1]:5.2f}x")
        if bare:
            wall = statistics.median(m["wall"] for m in bare)
            cpu = statistics.median(m["cpu"] for m in bare)
            ratio = f"   ratio to raw wall {wall / raw[0]:5.2f}x   cpu {cpu / raw[1]:5.2f}x" if raw else ""
            print(f"  miner, no catalog  wall {wall:6.2f} s   cpu {cpu:6.2f} s{ratio}")
            print(f"  linking (the rest) wall {mine_wall - wall:6.2f} s   cpu {mine_cpu - cpu:6.2f} s")
        print(
            f"  peak memory        main {rss:.0f} MB, largest worker or git {rss_child:.0f} MB, "
            f"sum {rss + rss_child:.0f} MB"
        )
        if fw in args.pydriller:
            try:
                pd = pydriller_run(str(path))
                ratio = f"   ratio to raw {pd / raw[0]:5.1f}x" if raw else ""
                print(f"  PyDriller          wall {pd:6.2f} s{ratio}")
            except ImportError:
                print("  PyDriller          not installed (pip install pydriller)")
        if not args.no_incremental:
            inc = incremental(fw, path, args.workers)
            print(
                f"  incremental        first run with store writes {inc['first_with_writes']:.1f} s; "
                f"re-run with no new commits {inc['rerun'] * 1000:.0f} ms in process, "
                f"{inc['rerun_command']:.2f} s as `uptake load git`"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
