"""`uptake update` on the shipped graph with nothing new: the whole command, from process start,
against `uptake db info` on the same store in the same run (what any command pays to start,
import and open the store).

Every source is local, as a user's would be once fetched: each catalog framework's copy in the
cache is a clone of a fetched repository under `--mirrors` (frameworks with none are left out),
each curated list a small local repository, GitHub and arXiv local servers that answer like the
real ones (the test suite's fakes). The first update reads everything once (arXiv is asked for
every paper the graph has no abstract of, three seconds apart as the API asks); the next ones
find nothing new, and are what is timed.

Usage: python -m benchmarks.bench_update --mirrors DIR [--rounds 5] [--profile]

`--profile` runs one more update with nothing new under cProfile and prints where its time went.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the local GitHub and arXiv servers of the test suite


def uptake(args: list[str], env: dict[str, str]) -> tuple[float, str]:
    """Wall seconds of one whole command, and its output."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from uptake.api.cli import main; main()", *args],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"uptake {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return wall, done.stdout + done.stderr


def local_sources(mirrors: Path, cache: Path) -> tuple[list[str], list[str]]:
    """Clones of the fetched frameworks and a small repository per curated list, in the cache
    where `uptake update` looks; returns the frameworks' slugs and the lists' names."""
    from uptake.loaders.cache import clone_path
    from uptake.loaders.catalog import read_catalog
    from uptake.loaders.paper_lists import read_list_catalog
    from uptake.loaders.release import find_repository

    slugs = []
    for entry in read_catalog().frameworks.values():
        try:
            source = find_repository(mirrors, entry.repo)
        except FileNotFoundError:
            continue
        target = clone_path(entry.repo)
        subprocess.run(["git", "clone", "-q", "--bare", "--shared", str(source), str(target)], check=True)
        slugs.append(entry.slug)
    lists = []
    for entry in read_list_catalog().values():
        if entry.kind != "curated":
            continue
        origin = cache.parent / "lists" / entry.repo.replace("/", "+")
        origin.mkdir(parents=True)
        (origin / "README.md").write_text(
            "## Policy optimisation\n- [DAPO](https://arxiv.org/abs/2503.14476)\n"
        )
        git = ["git", "-C", str(origin), "-c", "user.name=u", "-c", "user.email=u@example.org"]
        subprocess.run([*git, "init", "-q"], check=True)
        subprocess.run([*git, "add", "-A"], check=True)
        subprocess.run([*git, "commit", "-q", "-m", "list"], check=True)
        target = clone_path(entry.repo)
        subprocess.run(["git", "clone", "-q", "--bare", str(origin), str(target)], check=True)
        lists.append(entry.repo)
    return slugs, lists


def profile(command: list[str], env: dict[str, str], out: Path) -> None:
    """One more whole command under cProfile; the functions that took longest, with callees."""
    import pstats

    script = out.with_suffix(".py")
    script.write_text("from uptake.api.cli import main\n\nmain()\n")
    subprocess.run([sys.executable, "-m", "cProfile", "-o", str(out), str(script), *command],
                   capture_output=True, env=env, check=True)  # fmt: skip
    pstats.Stats(str(out)).sort_stats("cumulative").print_stats(40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--mirrors", type=Path, required=True, help="folder of fetched framework repositories"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="profile one more update with nothing new")
    args = parser.parse_args()
    from fake_arxiv import FakeArxiv
    from fake_github import FakeGitHub, FakeRepo, make_issue

    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        cache, store = tmp_path / "cache", str(tmp_path / "graph.lbug")
        env = {**os.environ, "UPTAKE_CACHE": str(cache), "GITHUB_TOKEN": "local"}
        os.environ["UPTAKE_CACHE"] = str(cache)
        wall, _ = uptake(["build", "--store", store], env)
        print(f"uptake build (shipped data): {wall:.2f} s")
        slugs, lists = local_sources(args.mirrors, cache)
        from uptake.loaders.catalog import read_catalog

        # One old issue each, as every real tracker has: the next runs ask only for changes since it.
        repos = {
            e.repo: FakeRepo(issues=[make_issue(1, "How do I set the batch size?", repo=e.repo)])
            for e in read_catalog().frameworks.values()
            if e.slug in slugs
        }
        with FakeArxiv([]) as arxiv, FakeGitHub(repos) as github:
            command = [
                "update",
                "--store",
                store,
                "--arxiv-url",
                arxiv.url_format,
                "--github-url",
                github.url,
            ]
            command += [f"--framework={s}" for s in slugs] + [f"--list={name}" for name in lists]
            first, out = uptake(command, env)
            print(f"first update ({len(slugs)} frameworks, {len(lists)} lists): {first:.2f} s")
            updates, infos = [], []
            for _ in range(args.rounds):  # alternating, so machine load hits both alike
                wall, out = uptake(command, env)
                updates.append(wall)
                infos.append(uptake(["db", "info", "--store", store], env)[0])
            if "nothing new" not in out.split("What is new:")[-1]:
                raise SystemExit(f"the last update found something new:\n{out}")
            update, info = statistics.median(updates), statistics.median(infos)
            print(
                f"update with nothing new: median {update:.2f} s of {args.rounds} "
                f"(min {min(updates):.2f}, max {max(updates):.2f}); "
                f"uptake db info: median {info:.2f} s; ratio {update / info:.2f}x"
            )
            if args.profile:
                profile(command, env, tmp_path / "update.prof")


if __name__ == "__main__":
    main()
