"""Accuracy of first implementations against the hand-verified development set.

    python -m benchmarks.eval_implementations --mirrors DIR [--workers 2] [--show-all]

DIR holds fetched framework repositories, found as DIR/<owner>+<name>/repo, DIR/<owner>+<name>.git,
DIR/<owner>+<name> or DIR/<name>. The development set is read from ../shared/data beside the
repository. Each framework's full history is mined with the product's miner and linker; the first
implementation of a method is the earliest non-excluded IMPLEMENTS commit (what the stored query
`paper-implementations` returns). A found pair is correct when its commit is the verified first
commit or one of the verified alternatives (partial landings, re-lands).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from uptake.loaders.git import MinedCommit, mine_commits, resolve_repository

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared" / "data"
FRAMEWORK_SLUGS = {"nemo_rl": "nemo-rl"}


def catalog_methods() -> list:
    """The product catalog's methods; while the catalog is incomplete, its raw method rows."""
    try:
        from uptake.loaders.catalog import read_catalog

        return list(read_catalog().methods.values())
    except Exception as exc:  # the catalog module is still being written
        print(f"(catalog not loadable: {exc}; using loaders/data/methods.jsonl rows)", file=sys.stderr)
        rows = [json.loads(line) for line in (REPO / "loaders" / "data" / "methods.jsonl").open()]
        return [
            SimpleNamespace(
                slug=r["slug"],
                name=r["name"],
                aliases=tuple(r["aliases"]),
                ambiguous_aliases=tuple(r.get("ambiguous_aliases") or ()),
                arxiv_id=r.get("arxiv_id"),
            )
            for r in rows
        ]


def vendored_packages(framework: str) -> tuple[str, ...]:
    """Other catalog frameworks' package names, as the product passes them to the miner."""
    try:
        from uptake.loaders.catalog import read_catalog

        return read_catalog().vendored_packages(FRAMEWORK_SLUGS.get(framework, framework))
    except Exception:  # the catalog module is still being written
        return ()


def find_mirror(mirrors: Path, repo: str) -> Path:
    owner, name = repo.split("/")
    for candidate in (
        mirrors / f"{owner}+{name}" / "repo",
        mirrors / f"{owner}+{name}.git",
        mirrors / f"{owner}+{name}",
        mirrors / name,
    ):
        if candidate.exists():
            return candidate
    raise SystemExit(f"no repository for {repo} under {mirrors}")


def slug(method: str) -> str:
    return method.replace("_", "-")


def first_implementations(commits: list[MinedCommit]) -> dict[str, tuple[MinedCommit, object]]:
    """Earliest IMPLEMENTS commit per method, skipping reverted commits (as the stored query does)."""
    reverted = {c.reverts for c in commits if c.reverts}
    first: dict[str, tuple[MinedCommit, object]] = {}
    for c in commits:
        if any(c.sha.startswith(r) for r in reverted):
            continue
        for link in c.links:
            if link.rel != "IMPLEMENTS" or link.vendored:  # a copied tree is not the framework's own
                continue
            best = first.get(link.key)
            if best is None or (c.commit_ts, c.sha) < (best[0].commit_ts, best[0].sha):
                first[link.key] = (c, link)
    return first


def mine_all(path: Path, methods: list, workers: int, vendored: tuple[str, ...] = ()) -> list[MinedCommit]:
    import subprocess

    git_dir = resolve_repository(path)
    shas = subprocess.run(
        ["git", "--git-dir", str(git_dir), "rev-list", "--reverse", "HEAD"], capture_output=True, text=True
    ).stdout.split()
    out: list[MinedCommit] = []
    for _, mined in mine_commits([(str(git_dir), shas)], methods, workers, vendored=vendored):
        out.extend(mined)
    return out


def days(a: str, b: str) -> int:
    return abs((dt.date.fromisoformat(a[:10]) - dt.date.fromisoformat(b[:10])).days)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=SHARED)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--show-all", action="store_true", help="print every pair, not only the wrong ones")
    args = ap.parse_args(argv)
    if not (args.data / "dev_implementations.jsonl").exists():
        print(f"skipped: no development set at {args.data}")
        return 0
    positives = [json.loads(line) for line in (args.data / "dev_implementations.jsonl").open()]
    negatives = [json.loads(line) for line in (args.data / "dev_negatives.jsonl").open()]
    methods = catalog_methods()
    known = {m.slug for m in methods}
    by_fw: dict[str, dict] = {}
    for row in positives + negatives:
        by_fw.setdefault(row["framework"], {"repo": row["repo"]})
    tp = fp = fn = 0
    errors: list[int] = []
    lines: list[str] = []
    for fw, info in by_fw.items():
        t0 = time.perf_counter()
        vendored = vendored_packages(fw)
        commits = mine_all(find_mirror(args.mirrors, info["repo"]), methods, args.workers, vendored)
        first = first_implementations(commits)
        print(f"{fw}: {len(commits)} commits mined in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        for row in (r for r in positives if r["framework"] == fw):
            m = slug(row["method"])
            ok_shas = [row["first_commit_sha"]] + [
                a if isinstance(a, str) else a.get("sha", "") for a in row.get("alternative_commits") or []
            ]
            found = first.get(m)
            if m not in known:
                fn += 1
                lines.append(f"MISS  {fw:9} {m:22} not in the catalog")
                continue
            if found is None:
                fn += 1
                lines.append(f"MISS  {fw:9} {m:22} no IMPLEMENTS (truth {row['first_commit_sha'][:10]})")
                continue
            c, link = found
            err = days(c.commit_date, row["commit_date"])
            if any(s and c.sha.startswith(s[:10]) for s in ok_shas):
                tp += 1
                errors.append(err)
                if args.show_all:
                    lines.append(f"ok    {fw:9} {m:22} {c.sha[:10]} {link.rule} {link.location}")
            else:
                fp += 1
                fn += 1
                lines.append(
                    f"WRONG {fw:9} {m:22} found {c.sha[:10]} {c.commit_date[:10]} ({link.rule} "
                    f"{link.location} {link.identifier!r}); truth {row['first_commit_sha'][:10]} "
                    f"{row['commit_date'][:10]}; date error {err} d"
                )
        for row in (r for r in negatives if r["framework"] == fw):
            m = slug(row["method"])
            if m in first:
                c, link = first[m]
                fp += 1
                lines.append(
                    f"FALSE {fw:9} {m:22} found {c.sha[:10]} "
                    f"({link.rule} {link.location} {link.identifier!r})"
                )
    print("\n".join(sorted(lines)))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    median = statistics.median(errors) if errors else float("nan")
    print(
        f"\nfirst-implementation pairs: {tp} correct, {fp} wrong or false, {fn} missed\n"
        f"precision {precision:.3f}  recall {recall:.3f}  "
        f"date error of correct pairs: median {median} d, max {max(errors) if errors else 'n/a'} d"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
