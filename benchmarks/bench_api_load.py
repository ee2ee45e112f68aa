"""Concurrent reads: the HTTP API and the store under 16 clients, on the shipped and a 1M-relationship graph.

Two graphs: the shipped one (`uptake build` into a temporary directory) and a generated one
shaped like Uptake's with over a million relationships (cached under .cache/bench-api/, reused
while its counts match). For each, measured in the same run:

* stored-query throughput with 16 concurrent clients against a single client's (the baseline),
  both directly through `run_query` in this process and through the API (uvicorn on loopback,
  in its own process, read-only store);
* p50 latency of the anchored stored queries, directly and through the API;
* the store's own ceiling: one process per core, each with its own read-only handle, asking one
  query after another. No interpreter lock or HTTP work is shared, so no number of clients on this
  machine can get more answers a second, and the mean wait at N clients cannot fall below N / that
  rate (Little's law; served in arrival order, p50 is close to the mean);
* `/health` latency while a deliberately slow ad-hoc read (~10 s, cancelled by the server's
  timeout) runs, against `/health` on an idle server.

Every loop is bounded in requests and seconds; the run stops by itself.

    python benchmarks/bench_api_load.py                                  # Ladybug
    python benchmarks/bench_api_load.py --neo4j bolt://127.0.0.1:7687    # and the generated graph on Neo4j
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from uptake.graph.adhoc import AdhocLimits, run_adhoc
from uptake.graph.records import Edge, Node
from uptake.graph.store import Store, open_store
from uptake.queries.run import run_query

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache" / "bench-api"
FRAMEWORKS = [f"fw{i}" for i in range(8)]
SIZES = {"methods": 2_000, "papers": 20_000, "commits": 400_000, "issues": 100_000, "releases": 2_000}
# Anchored on one method or paper: the queries that must stay fast.
ANCHORED = ("method-lineage", "paper-proposal-implementation", "resource-paper-graph")
# Aggregates every implementing commit of a method: the heavy one.
HEAVY = ("adoption-timeline",)
SLUG_QUERIES = {"method-lineage", "adoption-timeline"}
# Billions of commit triples compared as they stream by: runs until the server's timeout.
SLOW = "MATCH (a:Commit), (b:Commit), (c:Commit) WHERE a.sha <> b.sha OR b.sha <> c.sha RETURN count(*) AS n"
SLOW_SECONDS = 10.0


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


# -- the graphs -----------------------------------------------------------------------


def shipped_graph(folder: Path) -> str:
    """The graph `uptake build` makes from what ships with Uptake."""
    target = str(folder / "shipped.lbug")
    command = [sys.executable, "-c", "from uptake.api.cli import main; main()", "build", "--store", target]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return target


def generated_graph(target: str) -> str:
    writer = open_store(target)
    writer.init()
    ensure_graph(writer)
    writer.close()
    return target


def anchors(store: Store) -> dict[str, list[str]]:
    """Methods and proposing papers of this graph, so requests rotate over real anchors."""
    slugs = store.read("MATCH (m:Method) RETURN m.slug AS k ORDER BY k LIMIT 20")
    papers = store.read(
        "MATCH (p:Paper)-[:PROPOSES]->(:Method) RETURN DISTINCT p.arxiv_id AS k ORDER BY k LIMIT 50"
    )
    return {"slug": [r["k"] for r in slugs], "arxiv_id": [r["k"] for r in papers]}


def request_params(name: str, i: int, anchor: dict[str, list[str]]) -> dict[str, str]:
    kind = "slug" if name in SLUG_QUERIES else "arxiv_id"
    values = anchor[kind]
    return {kind: values[(i * 7) % len(values)]}


# -- measuring ----------------------------------------------------------------------------


@dataclass
class Stats:
    requests: int
    errors: int
    rps: float
    p50_ms: float
    p99_ms: float
    max_ms: float


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] if ordered else float("nan")


def run_clients(call: Callable[[int], bool], clients: int, requests: int, seconds: float) -> Stats:
    """`clients` threads call `call(i)` until `requests` were sent or `seconds` passed."""
    latencies: list[float] = []
    errors = 0
    counter = iter(range(requests))
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client() -> None:
        nonlocal errors
        while time.monotonic() < deadline:
            with lock:
                i = next(counter, None)
            if i is None:
                return
            started = time.perf_counter()
            try:
                ok = call(i)
            except Exception:
                ok = False
            elapsed = time.perf_counter() - started
            with lock:
                latencies.append(elapsed)
                errors += not ok

    started = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - started
    return Stats(
        len(latencies),
        errors,
        len(latencies) / wall,
        percentile(latencies, 0.5) * 1000,
        percentile(latencies, 0.99) * 1000,
        max(latencies, default=float("nan")) * 1000,
    )


class Http:
    """One keep-alive loopback connection per thread: a light client, so the server gets the cores."""

    def __init__(self, port: int):
        self.port = port
        self._local = threading.local()

    def get(self, path: str, params: dict[str, str] | None = None) -> int:
        return self.request("GET", path + ("?" + urllib.parse.urlencode(params) if params else ""))

    def request(self, method: str, path: str, body: dict | None = None) -> int:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if body is not None else {}
        for attempt in range(2):
            conn = getattr(self._local, "conn", None)
            reused = conn is not None
            if conn is None:
                conn = self._local.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                conn.request(method, path, payload, headers)
                response = conn.getresponse()
                response.read()
                return response.status
            except (OSError, http.client.HTTPException):
                conn.close()
                self._local.conn = None
                if not reused or attempt:  # a kept-alive connection the server closed is retried once
                    raise
        raise AssertionError("unreachable")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(target: str, port: int, workers: int) -> subprocess.Popen:
    """The API as a user starts it: `uptake serve`, in its own process(es)."""
    uptake = str(Path(sys.executable).with_name("uptake"))
    command = [uptake, "serve", "--store", target, "--port", str(port), "--workers", str(workers)]
    server = subprocess.Popen([*command, "--log-level", "warning"], env=os.environ.copy())
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if Http(port).get("/health") == 200:
                return server
        except OSError:
            time.sleep(0.3)
    server.kill()
    raise SystemExit("the API server did not answer within 120 s")


# -- the run --------------------------------------------------------------------------------


def print_row(*cells: object) -> None:
    print("| " + " | ".join(str(c) for c in cells) + " |", flush=True)


def throughput(label: str, name: str, call: Callable[[int], bool], args: argparse.Namespace) -> Stats:
    """One client (the baseline), then `args.clients`; one table row each, the ratio on the second."""
    for i in range(3):  # warm-up, not counted
        call(i)
    single = run_clients(call, 1, args.requests, args.seconds)
    many = run_clients(call, args.clients, args.requests, args.seconds)
    for clients, stats in ((1, single), (args.clients, many)):
        ratio = f"{stats.rps / single.rps:.2f}x" if clients > 1 else "1.00x"
        print_row(
            label, name, clients, stats.requests, stats.errors, f"{stats.rps:.1f}",
            f"{stats.p50_ms:.1f}", f"{stats.p99_ms:.1f}", ratio,
        )  # fmt: skip
    return single


def _ceiling_worker(target: str, name: str, anchor: dict, seconds: float, out) -> None:
    store = open_store(target, read_only=True)
    latencies, i = [], 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        run_query(store, name, request_params(name, i, anchor), limit=100)
        latencies.append(time.perf_counter() - started)
        i += 1
    store.close()
    out.put(latencies)


def store_ceiling(target: str, name: str, anchor: dict, args: argparse.Namespace, single: Stats) -> None:
    """One process per core, nothing shared: the most answers a second this machine gives."""
    cores = os.cpu_count() or 1
    context = multiprocessing.get_context("spawn")  # no inherited store handle
    out = context.Queue()
    workers = [
        context.Process(target=_ceiling_worker, args=(target, name, anchor, args.seconds, out))
        for _ in range(cores)
    ]
    for worker in workers:
        worker.start()
    latencies = [t for _ in workers for t in out.get()]
    for worker in workers:
        worker.join()
    rps = len(latencies) / args.seconds
    print_row(
        "per-core processes", name, cores, len(latencies), 0, f"{rps:.1f}",
        f"{percentile(latencies, 0.5) * 1000:.1f}", f"{percentile(latencies, 0.99) * 1000:.1f}",
        f"{rps / single.rps:.2f}x",
    )  # fmt: skip
    print(
        f"  {name}: at {args.clients} clients the mean latency cannot fall below "
        f"{args.clients / rps * 1000:.0f} ms on this machine ({args.clients} / {rps:.0f} per second)",
        flush=True,
    )


def health_under_slow_query(port: int, args: argparse.Namespace) -> None:
    http = Http(port)
    idle = run_clients(lambda i: http.get("/health") == 200, 1, 200, 5)
    outcome: list[object] = []

    def slow() -> None:
        started = time.perf_counter()
        status = Http(port).request("POST", "/cypher", {"statement": SLOW, "timeout": SLOW_SECONDS})
        outcome.append((status, time.perf_counter() - started))

    thread = threading.Thread(target=slow)
    thread.start()
    time.sleep(0.5)  # let it reach the engine
    probes: list[float] = []
    errors = 0
    while thread.is_alive() and len(probes) < 2000:
        started = time.perf_counter()
        errors += http.get("/health") != 200
        probes.append(time.perf_counter() - started)
        time.sleep(0.01)
    thread.join()
    status, seconds = outcome[0]
    print(
        f"  /health idle: {idle.requests} probes, p50 {idle.p50_ms:.1f} ms, p99 {idle.p99_ms:.1f} ms; "
        f"during a {seconds:.1f} s slow query (answered {status}): {len(probes)} probes, {errors} errors, "
        f"p50 {percentile(probes, 0.5) * 1000:.1f} ms, p99 {percentile(probes, 0.99) * 1000:.1f} ms "
        f"({percentile(probes, 0.99) * 1000 / idle.p99_ms:.2f}x idle), max {max(probes) * 1000:.1f} ms",
        flush=True,
    )


def adhoc_latency(target: str, port: int, rounds: int = 20) -> None:
    """Ad-hoc statements one after another: a cold worker each time (the CLI's path, the baseline)
    against the API, which keeps a spare worker started ahead."""
    statement = "MATCH (m:Method) RETURN count(m) AS n"

    def timed(call: Callable[[], object]) -> list[float]:
        spent = []
        for _ in range(rounds):
            started = time.perf_counter()
            call()
            spent.append(time.perf_counter() - started)
        return spent

    limits = AdhocLimits.from_env()
    cold = timed(lambda: run_adhoc(target, statement, {}, limits=limits))
    http = Http(port)
    warm = timed(lambda: http.request("POST", "/cypher", {"statement": statement}))
    cold_ms, warm_ms = percentile(cold, 0.5) * 1000, percentile(warm, 0.5) * 1000
    print(
        f"  ad-hoc statement, {rounds} in a row: cold worker p50 {cold_ms:.0f} ms; "
        f"API with a spare worker p50 {warm_ms:.0f} ms ({cold_ms / warm_ms:.2f}x faster)",
        flush=True,
    )


def bench(graph: str, target: str, args: argparse.Namespace) -> None:
    store = open_store(target, read_only=True)
    counts = store.counts()
    relationships = sum(v for k, v in counts.items() if k.isupper())
    nodes = sum(v for k, v in counts.items() if not k.isupper())
    anchor = anchors(store)
    print(f"\n{graph} graph on {store.backend}: {nodes:,} nodes, {relationships:,} relationships")
    print_row("path", "query", "clients", "requests", "errors", "req/s", "p50 ms", "p99 ms", "x 1 client")
    print_row(*["---"] * 9)
    for name in ANCHORED + HEAVY:

        def direct(i: int, name: str = name) -> bool:
            run_query(store, name, request_params(name, i, anchor), limit=100)
            return True

        single = throughput("direct", name, direct, args)
        if store.backend == "ladybug" and not args.skip_ceiling:
            store_ceiling(target, name, anchor, args, single)
    store.close()  # the API opens its own
    port = _free_port()
    server = start_server(target, port, args.workers)
    try:
        http = Http(port)
        for name in ANCHORED + HEAVY:

            def over_http(i: int, name: str = name) -> bool:
                params = {**request_params(name, i, anchor), "limit": "100"}
                return http.get(f"/queries/{name}/rows", params) == 200

            throughput("HTTP", name, over_http, args)
        health_under_slow_query(port, args)
        adhoc_latency(target, port)
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ladybug", default=str(CACHE / "graph.lbug"), help="Ladybug store to generate/reuse"
    )
    parser.add_argument("--neo4j", default=None, help="bolt:// URI of a Neo4j to fill (it is emptied first)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients")
    parser.add_argument("--workers", type=int, default=1, help="API server processes (serve --workers)")
    parser.add_argument("--requests", type=int, default=1000, help="requests per measurement at most")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds per measurement at most")
    parser.add_argument("--skip-shipped", action="store_true")
    parser.add_argument("--skip-ceiling", action="store_true", help="skip the per-core process runs")
    parser.add_argument("--skip-generated", action="store_true")
    args = parser.parse_args()
    CACHE.mkdir(parents=True, exist_ok=True)
    print(f"load average before the run: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores", flush=True)
    if not args.skip_shipped:
        with tempfile.TemporaryDirectory() as folder:
            bench("shipped", shipped_graph(Path(folder)), args)
    if not args.skip_generated:
        bench("generated", generated_graph(args.ladybug), args)
        if args.neo4j:
            bench("generated", generated_graph(args.neo4j), args)
    print(f"load average after the run: {os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
