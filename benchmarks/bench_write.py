"""Write path: Uptake's idempotent batched writer against each engine's own fast path.

Ladybug: a fresh build through `Store.write_all` against Ladybug's own bulk
`COPY FROM` of the same rows (Arrow tables, one COPY per table) into a fresh
database, measured in the same run; then a re-run of the same build (every
record already stored) and the writer's peak memory at two graph sizes.
Neo4j: `UNWIND` batches against one record per transaction, same records.

    python -m benchmarks.bench_write --scale 1.0
    python -m benchmarks.bench_write --neo4j bolt://127.0.0.1:7687 --neo4j-records 20000
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ladybug
import pyarrow as pa
from uptake.graph.batch import prepare_batch
from uptake.graph.ladybug_store import LadybugStore, buffer_pool_bytes, full_width_table, ladybug_ddl
from uptake.graph.schema import NODE_TYPES, REL_TYPES, Prop
from uptake.graph.store import open_store

from benchmarks.generated_graph import generate


def copy_tables(records: list) -> list[tuple[str, pa.Table]]:
    """The COPY statement and full-width Arrow table of every table the records fill."""
    batch = prepare_batch(records)
    tables = []
    for nodes in batch.nodes:
        spec = NODE_TYPES[nodes.label]
        keys = {spec.key: nodes.key_column}
        table = full_width_table(spec.all_props, keys, nodes.props, list(range(len(nodes.keys))))
        tables.append((f"COPY {nodes.label} FROM $rows", table))
    for edges in batch.edges:
        spec = REL_TYPES[edges.type]
        ends = {"from": edges.src_column, "to": edges.dst_column}
        columns = (Prop("from"), Prop("to"), *spec.all_props)
        table = full_width_table(columns, ends, edges.props, list(range(len(edges.identities))))
        option = f" (from='{edges.src_label}', to='{edges.dst_label}')" if len(spec.endpoints) > 1 else ""
        tables.append((f"COPY {edges.type} FROM $rows{option}", table))
    return tables


def copy_baseline(records: list, path: Path, from_rows: bool) -> float:
    """Ladybug's own COPY FROM of the same rows into a fresh database.

    `from_rows=False`: Arrow tables built before the clock starts (the engine's floor).
    `from_rows=True`: the clock also covers turning the rows, already grouped per table as
    dicts, into Arrow tables, as a bulk load from a loader's rows must.
    """
    tables = copy_tables(records)
    rows = (
        [(statement, table.schema, table.to_pylist()) for statement, table in tables] if from_rows else None
    )
    db = ladybug.Database(str(path), buffer_pool_size=buffer_pool_bytes())
    conn = ladybug.Connection(db)
    for statement in ladybug_ddl():
        conn.execute(statement)
    start = time.perf_counter()
    if from_rows:
        for statement, schema, table_rows in rows:
            conn.execute(statement, {"rows": pa.Table.from_pylist(table_rows, schema=schema)})
    else:
        for statement, table in tables:
            conn.execute(statement, {"rows": table})
    elapsed = time.perf_counter() - start
    conn.close()
    db.close()
    return elapsed


def uptake_build(records: list, path: Path, batch_size: int) -> tuple[float, float]:
    store = open_store(str(path))
    store.init()
    start = time.perf_counter()
    store.write_all(records, batch_size=batch_size)
    fresh = time.perf_counter() - start
    start = time.perf_counter()
    stats = store.write_all(records, batch_size=batch_size)
    again = time.perf_counter() - start
    assert stats.nodes_created == stats.edges_created == 0, stats
    store.close()
    return fresh, again


def peak_memory_mb(scale: float, batch_size: int) -> dict[str, float]:
    """Peak memory of a fresh build streamed from the generator, in a child process.

    `writer` is what Uptake's own code holds: Python objects (tracemalloc) plus Arrow
    buffers. `process` is the whole process's peak RSS (VmHWM, which unlike ru_maxrss does
    not inherit this large parent's high-water mark), Ladybug's page cache included.
    """
    code = (
        "import tempfile, os, tracemalloc, pyarrow as pa\n"
        "from benchmarks.generated_graph import generate\n"
        "from uptake.graph.store import open_store\n"
        "d = tempfile.mkdtemp()\n"
        "s = open_store(os.path.join(d, 'g')); s.init()\n"
        "tracemalloc.start()\n"
        f"s.write_all(generate({scale}), batch_size={batch_size})\n"
        "python_peak = tracemalloc.get_traced_memory()[1]\n"
        "arrow_peak = pa.default_memory_pool().max_memory() or 0\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "print((python_peak + arrow_peak) / 2**20, int(hwm.split()[1]) / 1024)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    writer, process = map(float, out.stdout.strip().splitlines()[-1].split())
    return {"writer_mb": round(writer), "process_mb": round(process)}


def neo4j_bench(uri: str, n_records: int, batch_size: int) -> dict:
    store = open_store(uri)
    store.reset()
    records = [r for r, _ in zip(generate(1.0), range(n_records), strict=False)]
    single = records[: max(1, n_records // 10)]  # one-per-transaction is slow: a tenth of them
    start = time.perf_counter()
    for record in single:
        store.write([record])
    per_record_rate = len(single) / (time.perf_counter() - start)
    store.reset()
    start = time.perf_counter()
    store.write_all(records, batch_size=batch_size)
    batched_rate = len(records) / (time.perf_counter() - start)
    store.reset()
    store.close()
    return {
        "records": n_records,
        "one_per_tx_per_s": round(per_record_rate),
        "unwind_batches_per_s": round(batched_rate),
        "speedup": round(batched_rate / per_record_rate, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0, help="1.0 = 270k nodes, ~1M relationships")
    parser.add_argument("--batch-size", type=int, default=LadybugStore.batch_size)
    parser.add_argument("--neo4j", help="also benchmark a Neo4j at this URI (it is reset!)")
    parser.add_argument("--neo4j-records", type=int, default=20_000)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--memory-batch-size", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=3, help="medians over this many interleaved rounds")
    args = parser.parse_args()

    records = list(generate(args.scale))
    result = {"records": len(records), "batch_size": args.batch_size}
    work = Path(tempfile.mkdtemp(prefix="uptake-bench-"))
    try:
        runs = []
        for round_ in range(args.rounds):  # interleaved, so drifting load hits all alike
            floor = copy_baseline(records, work / f"floor{round_}", from_rows=False)
            baseline = copy_baseline(records, work / f"rows{round_}", from_rows=True)
            fresh, again = uptake_build(records, work / f"uptake{round_}", args.batch_size)
            runs.append((floor, baseline, fresh, again))
        floor, baseline, fresh, again = (statistics.median(column) for column in zip(*runs, strict=True))
        result["rounds"] = args.rounds
        result["copy_prebuilt_arrow_s"] = round(floor, 2)
        result["copy_from_rows_s"] = round(baseline, 2)
        result["uptake_fresh_s"] = round(fresh, 2)
        result["uptake_rerun_s"] = round(again, 2)
        result["fresh_vs_copy_from_rows"] = round(fresh / baseline, 2)
        result["rerun_vs_copy_from_rows"] = round(again / baseline, 2)
        result["fresh_vs_prebuilt_arrow"] = round(fresh / floor, 2)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    del records
    if not args.skip_memory:
        # Both sizes must span several full batches for the comparison to mean anything.
        small, full = args.scale / 2, args.scale
        result["peak_memory_batch_size"] = args.memory_batch_size
        result["peak_memory"] = {
            str(small): peak_memory_mb(small, args.memory_batch_size),
            str(full): peak_memory_mb(full, args.memory_batch_size),
        }
    if args.neo4j:
        result["neo4j"] = neo4j_bench(args.neo4j, args.neo4j_records, 5_000)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
