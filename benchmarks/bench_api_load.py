"""Load test of the HTTP API on a generated graph of at least 1M relationships, on Ladybug and Neo4j.

The API runs in its own process (uvicorn on loopback); this process is the
client: a few concurrent workers send GET requests to three typical stored
queries, bounded both in count and in time. It prints requests/s and p50/p95
latency per query, and the ratio of the API's p50 to the baseline: the same
stored query run directly through `Store.read` in this process, one at a
time, measured in the same run (so the latency ratio includes HTTP, JSON and
queueing behind the concurrent requests; the throughput ratio compares the
API's requests/s with the direct single-threaded queries/s).

    python benchmarks/bench_api_load.py                        # Ladybug only
    python benchmarks/bench_api_load.py --neo4j bolt://127.0.0.1:7687   # and Neo4j ($NEO4J_PASSWORD)

The generated graph is cached under .cache/bench-api/ and reused when its
counts match (delete it to regenerate).
"""

from __future__ import annotations

import argparse
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
from uptake.graph.records import Edge, Node
from uptake.graph.store import Store, open_store
from uptake.queries.run import run_query

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "bench-api"
FRAMEWORKS = [f"fw{i}" for i in range(8)]
SIZES = {"methods": 2_000, "papers": 20_000, "commits": 400_000, "issues": 100_000, "releases": 2_000}
QUERIES = ("adoption-timeline", "paper-proposal-implementation", "resource-paper-graph")


# -- the generated graph ---------------------------------------------------------------


def _date(rng: random.Random, start_year: int = 2020) -> str:
    return f"{rng.randint(start_year, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def generate_records(seed: int = 7) -> Iterator[Node | Edge]:
    """An Uptake-shaped graph: hub methods with many implementing commits, like GRPO in real data."""
    rng = random.Random(seed)
    methods = [f"m{i}" for i in range(SIZES["methods"])]
    # Zipf-like popularity: a few methods carry most implementing commits.
    weights = [1 / (i + 1) for i in range(len(methods))]
    for slug in FRAMEWORKS:
        yield Node("Framework", slug, {"name": slug.upper(), "repo": f"example/{slug}"})
        yield Node("Organization", f"org-{slug}", {"name": f"Org {slug}"})
        yield Edge("MAINTAINED_BY", ("Framework", slug), ("Organization", f"org-{slug}"))
    for i, slug in enumerate(methods):
        yield Node("Method", slug, {"name": slug.upper(), "origin": "generated"})
        if i:
            yield Edge("EXTENDS", ("Method", slug), ("Method", methods[rng.randrange(i)]), {"change": "clip"})
    for i in range(SIZES["papers"]):
        arxiv_id = f"24{i // 10000:02d}.{i % 10000:05d}"
        yield Node(
            "Paper",
            arxiv_id,
            {"title": f"Paper {i}", "published_date": _date(rng), "is_general_method": rng.random() < 0.3},
        )
        if i < len(methods):
            yield Edge("PROPOSES", ("Paper", arxiv_id), ("Method", methods[i]))
        yield Edge("AFFILIATED_WITH", ("Paper", arxiv_id), ("Organization", f"org-{rng.choice(FRAMEWORKS)}"))
    for i in range(SIZES["releases"]):
        framework = FRAMEWORKS[i % len(FRAMEWORKS)]
        yield Node("Release", f"{framework}/v{i}", {"framework": framework, "tag": f"v{i}"})
    for i in range(SIZES["commits"]):
        sha = f"{i:040x}"
        framework = rng.choice(FRAMEWORKS)
        yield Node(
            "Commit", sha, {"framework": framework, "commit_date": _date(rng), "subject": f"change {i}"}
        )
        yield Edge("PART_OF", ("Commit", sha), ("Framework", framework))
        if i % 2 == 0:
            yield Edge("IMPLEMENTS", ("Commit", sha), ("Method", rng.choices(methods, weights)[0]))
        if i % 4 == 0:
            yield Edge("MENTIONS", ("Commit", sha), ("Paper", f"24{(i // 4) % 2:02d}.{(i // 4) % 10000:05d}"))
            yield Edge("RELEASED_IN", ("Commit", sha), ("Release", f"{framework}/v{rng.randrange(250)}"))
    for i in range(SIZES["issues"]):
        framework = rng.choice(FRAMEWORKS)
        issue = f"{framework}#{i}"
        yield Node("Issue", issue, {"framework": framework, "number": i, "title": f"issue {i}"})
        yield Edge("PART_OF", ("Issue", issue), ("Framework", framework))
        if i % 5 < 3:
            yield Edge("CITES", ("Issue", issue), ("Paper", f"24{i % 2:02d}.{i % 10000:05d}"))
            yield Edge("NAMES", ("Issue", issue), ("Method", rng.choices(methods, weights)[0]))
        if i % 5 < 2:
            yield Edge("FIXES", ("Commit", f"{rng.randrange(SIZES['commits']):040x}"), ("Issue", issue))


def ensure_graph(store: Store) -> dict[str, int]:
    counts = store.counts()
    relationships = sum(v for k, v in counts.items() if k.isupper())
    if relationships >= 1_000_000 and counts["Commit"] == SIZES["commits"]:
        return counts
    print(f"generating the graph into {store.backend} ...", flush=True)
    store.reset()
    started = time.monotonic()
    store.write_all(generate_records(), batch_size=100_000)
    print(f"  written in {time.monotonic() - started:.0f} s", flush=True)
    return store.counts()


# -- requests -----------------------------------------------------------------------


def request_params(name: str, i: int) -> dict[str, str]:
    """Rotate through anchors so the run is not one cached request repeated."""
    popular = [f"m{k}" for k in (0, 1, 2, 3, 5, 8, 13, 21, 34, 55)]
    if name == "adoption-timeline":
        return {"slug": popular[i % len(popular)]}
    return {"arxiv_id": f"2400.{(i * 37) % 2000:05d}"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(target: str, port: int) -> subprocess.Popen:
    code = (
        "import sys, uvicorn; from uptake.api.http.app import create_app; "
        "uvicorn.run(create_app(sys.argv[1]), host='127.0.0.1', port=int(sys.argv[2]), log_level='warning')"
    )
    server = subprocess.Popen([sys.executable, "-c", code, target, str(port)], env=os.environ.copy())
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=30).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("the API server did not answer within 120 s")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def load_test(port: int, name: str, requests: int, seconds: float, workers: int) -> dict[str, float]:
    latencies: list[float] = []
    errors = 0
    deadline = time.monotonic() + seconds

    def one(i: int, client: httpx.Client) -> tuple[float, bool]:
        if time.monotonic() > deadline:
            return -1.0, True
        started = time.perf_counter()
        response = client.get(f"/queries/{name}/rows", params={**request_params(name, i), "limit": 100})
        return time.perf_counter() - started, response.status_code == 200

    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        for i in range(workers):  # warm-up, not counted
            client.get(f"/queries/{name}/rows", params=request_params(name, i))
        started = time.perf_counter()
        with ThreadPoolExecutor(workers) as pool:
            for latency, ok in pool.map(lambda i: one(i, client), range(requests)):
                if latency < 0:
                    continue
                latencies.append(latency)
                errors += not ok
        wall = time.perf_counter() - started
    return {
        "requests": len(latencies),
        "errors": errors,
        "rps": len(latencies) / wall,
        "p50_ms": percentile(latencies, 0.5) * 1000,
        "p95_ms": percentile(latencies, 0.95) * 1000,
    }


def direct_baseline(store: Store, name: str, n: int = 30) -> float:
    """p50 ms of the same stored query run in this process: the engine's own cost, without HTTP."""
    times = []
    for i in range(n):
        started = time.perf_counter()
        run_query(store, name, request_params(name, i), limit=1000)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def bench(target: str, args: argparse.Namespace) -> None:
    writer = open_store(target)
    writer.init()
    counts = ensure_graph(writer)
    relationships = sum(v for k, v in counts.items() if k.isupper())
    nodes = sum(v for k, v in counts.items() if not k.isupper())
    baselines = {name: direct_baseline(writer, name) for name in QUERIES}
    writer.close()  # the API opens its own handle
    print(f"\n{writer.backend}: {nodes:,} nodes, {relationships:,} relationships")
    port = _free_port()
    server = start_server(target, port)
    try:
        print(
            "| backend | query | requests | errors | req/s | p50 ms | p95 ms "
            "| direct p50 ms | API p50 / direct | API req/s / direct q/s |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for name in QUERIES:
            r = load_test(port, name, args.requests, args.seconds, args.workers)
            print(
                f"| {writer.backend} | {name} | {r['requests']} | {r['errors']} | {r['rps']:.1f} | "
                f"{r['p50_ms']:.1f} | {r['p95_ms']:.1f} | {baselines[name]:.1f} | "
                f"{r['p50_ms'] / baselines[name]:.2f}x | {r['rps'] * baselines[name] / 1000:.2f}x |",
                flush=True,
            )
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ladybug", default=str(CACHE / "graph.lbug"), help="Ladybug store to generate/reuse"
    )
    parser.add_argument("--neo4j", default=None, help="bolt:// URI of a Neo4j to fill (it is emptied first)")
    parser.add_argument("--requests", type=int, default=400, help="requests per query at most")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds per query at most")
    parser.add_argument("--workers", type=int, default=4, help="concurrent client connections")
    parser.add_argument("--skip-ladybug", action="store_true")
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    if not args.skip_ladybug:
        bench(args.ladybug, args)
    if args.neo4j:
        bench(args.neo4j, args)


if __name__ == "__main__":
    main()
