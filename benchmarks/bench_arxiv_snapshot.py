"""Snapshot loading: throughput (papers/s) and peak memory, against parsing alone in the same run.

Generates an arXiv metadata snapshot (JSON Lines, the public format) of N
lines with composed titles and abstracts, then runs each stage in its own
process so that each peak RSS is its own:

  baseline   read lines and json.loads them (the floor any loader pays)
  records    read_snapshot: validated PaperRecords with normalised ids and dates
  analyzed   records + screening, features, proposed methods (PaperAnalyzer over the catalog)
  stored     analyzed + written to a fresh Ladybug store in batches (sync_papers)

Usage: python benchmarks/bench_arxiv_snapshot.py [--lines 100000] [--stages baseline,records,analyzed,stored]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_WORDS = (
    "policy gradient clipping advantage group reward verifier rollout token entropy objective language model "
    "reasoning math code alignment preference sampling baseline variance estimator curriculum agent tool"
).split()
_TITLES = ("{A} {B} for {C} {D}", "{A}PO: {B} {C} Optimization", "On {A} {B} in {C} Reinforcement Learning")


def generate(path: Path, lines: int, seed: int = 7) -> None:
    rng = random.Random(seed)
    with path.open("w") as out:
        for n in range(lines):
            yymm = f"{rng.randint(15, 26):02d}{rng.randint(1, 12):02d}"
            words = [rng.choice(_WORDS).capitalize() for _ in range(4)]
            title = rng.choice(_TITLES).format(A=words[0], B=words[1], C=words[2], D=words[3])
            abstract = (
                f"We propose a new {rng.choice(_WORDS)} {rng.choice(_WORDS)} "
                "for reinforcement learning of LLMs. "
                + " ".join(rng.choice(_WORDS) for _ in range(120))
                + f" We train Qwen2.5-{rng.choice([7, 14, 32, 72])}B."
            )
            obj = {
                "id": f"{yymm}.{n % 100000:05d}",
                "submitter": "Test",
                "authors": "Ann Lee (Example Lab), Bo Chen",
                "title": title,
                "comments": "12 pages",
                "categories": "cs.LG cs.CL",
                "abstract": abstract,
                "versions": [{"version": "v1", "created": "Mon, 3 Mar 2025 10:00:00 GMT"}],
                "update_date": "2025-03-04",
                "authors_parsed": [["Lee", "Ann", ""], ["Chen", "Bo", ""]],
            }
            out.write(json.dumps(obj) + "\n")


def run_stage(stage: str, snapshot: Path, workdir: Path) -> dict:
    """In a child process: run one stage, print papers, seconds, CPU seconds and peak RSS.

    Imports happen before the clock starts and the RSS after them is recorded,
    so the figures are the loading itself.
    """
    if stage != "baseline":
        import uptake.graph.store  # noqa: F401
        import uptake.loaders.arxiv  # noqa: F401
    start_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start, cpu = time.perf_counter(), time.process_time()
    papers = 0
    if stage == "baseline":
        with snapshot.open() as lines:
            for line in lines:
                json.loads(line)
                papers += 1
    else:
        from uptake.loaders.arxiv import catalog_analyzer, read_snapshot

        if stage == "records":
            papers = sum(1 for _ in read_snapshot(snapshot))
        elif stage == "analyzed":
            analyze = catalog_analyzer()
            for paper in read_snapshot(snapshot):
                analyze(paper)
                papers += 1
        elif stage == "stored":
            from uptake.graph.store import open_store
            from uptake.sync.arxiv import sync_papers

            store = open_store(str(workdir / "bench.lbug"))
            store.init()
            counted = [0]
            sync_papers(
                store,
                read_snapshot(snapshot),
                catalog_analyzer(),
                progress=lambda n: counted.__setitem__(0, counted[0] + n),
            )
            papers = counted[0]
            store.close()
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "stage": stage,
        "papers": papers,
        "seconds": time.perf_counter() - start,
        "cpu_seconds": time.process_time() - cpu,
        "peak_mb": peak_kb / 1024,
        "start_mb": start_kb / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--stages", default="baseline,records,analyzed,stored")
    parser.add_argument("--child", nargs=3, metavar=("STAGE", "SNAPSHOT", "WORKDIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        stage, snapshot, workdir = args.child
        print(json.dumps(run_stage(stage, Path(snapshot), Path(workdir))))
        return
    with tempfile.TemporaryDirectory() as tmp:
        snapshot = Path(tmp) / "snapshot.jsonl"
        generate(snapshot, args.lines)
        size_mb = snapshot.stat().st_size / 1e6
        print(f"snapshot: {args.lines} lines, {size_mb:.1f} MB")
        results = []
        for stage in args.stages.split(","):
            out = subprocess.run(
                [sys.executable, __file__, "--child", stage, str(snapshot), tmp],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            results.append(json.loads(out.strip().splitlines()[-1]))
        base = results[0]
        print(
            f"{'stage':<10} {'papers':>8} {'wall s':>8} {'cpu s':>8} {'papers/s':>9} {'peak MB':>8} "
            f"{'after imports MB':>16} {'wall x base':>11} {'cpu x base':>10}"
        )
        for r in results:
            rate = r["papers"] / r["seconds"]
            print(
                f"{r['stage']:<10} {r['papers']:>8} {r['seconds']:>8.2f} {r['cpu_seconds']:>8.2f} "
                f"{rate:>9.0f} {r['peak_mb']:>8.1f} {r['start_mb']:>16.1f} "
                f"{r['seconds'] / base['seconds']:>11.2f} {r['cpu_seconds'] / base['cpu_seconds']:>10.2f}"
            )


if __name__ == "__main__":
    main()
