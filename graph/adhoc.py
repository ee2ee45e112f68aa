"""Ad-hoc statements in a worker process with a memory limit and a hard wall-clock kill.

A statement that crashes the engine, exhausts memory or ignores its timeout costs one short-lived
process, never the API or the CLI. The worker opens the store read-only; the caller checks the
statement (cypher_guard) before it gets here. A fresh process per statement keeps it simple:
start-up is the interpreter plus opening the store.
"""

from __future__ import annotations

import multiprocessing
import os
import resource
from multiprocessing.connection import Connection
from typing import Any

from .store import QueryTimeout, ReadOnlyError, StoreError, open_store

DEFAULT_MEMORY_BYTES = 2 << 30
# Time for the worker to start and open the store before its own timeout starts to matter.
GRACE_SECONDS = 10.0


class WorkerFailed(StoreError):
    """The worker ran out of memory, overran its time or crashed; the caller is unaffected."""


def memory_limit_bytes() -> int:
    """UPTAKE_ADHOC_MEMORY_MB, else 2 GiB."""
    megabytes = int(os.environ.get("UPTAKE_ADHOC_MEMORY_MB", "0"))
    return megabytes * 1024 * 1024 if megabytes > 0 else DEFAULT_MEMORY_BYTES


def _describe(limit: int) -> str:
    return f"{limit / (1 << 30):g} GiB" if limit >= 1 << 30 else f"{limit >> 20} MiB"


def run_in_worker(
    target: str,
    statement: str,
    params: dict[str, Any],
    *,
    timeout: float,
    limit: int,
    memory_bytes: int | None = None,
) -> list[dict[str, Any]]:
    """Rows of one read-only statement run in a fresh process; its errors raised here as StoreError."""
    memory = memory_bytes or memory_limit_bytes()
    context = multiprocessing.get_context("spawn")
    receiver, sender = context.Pipe(duplex=False)
    worker = context.Process(
        target=_work, args=(sender, target, statement, params, timeout, limit, memory), daemon=True
    )
    worker.start()
    sender.close()
    try:
        if not receiver.poll(timeout + GRACE_SECONDS):
            raise WorkerFailed(f"query exceeded {timeout:g} s and was stopped")
        kind, payload = receiver.recv()
    except EOFError:
        worker.join(5)
        if worker.exitcode is not None and worker.exitcode < 0:
            raise WorkerFailed(
                f"the query crashed the worker (signal {-worker.exitcode}); the server is unaffected"
            ) from None
        raise WorkerFailed(
            f"the query worker stopped without an answer (exit {worker.exitcode}, memory limit "
            f"{_describe(memory)}); the server is unaffected"
        ) from None
    finally:
        if worker.is_alive():
            worker.kill()
        worker.join(5)
        receiver.close()
    if kind == "rows":
        return payload
    raise {"timeout": QueryTimeout, "read_only": ReadOnlyError, "memory": WorkerFailed}.get(kind, StoreError)(
        payload
    )


def _work(
    sender: Connection,
    target: str,
    statement: str,
    params: dict[str, Any],
    timeout: float,
    limit: int,
    memory: int,
) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # Ladybug's default page cache and address reservation exceed any sensible limit.
    os.environ.setdefault("UPTAKE_LADYBUG_BUFFER_MB", str(max(64, memory // 8 >> 20)))
    os.environ.setdefault("UPTAKE_LADYBUG_MAX_DB_MB", str(max(256, memory // 4 >> 20)))
    try:
        with open_store(target, read_only=True) as store:
            sender.send(("rows", store.read(statement, params, timeout=timeout, limit=limit)))
    except QueryTimeout as exc:
        sender.send(("timeout", str(exc)))
    except ReadOnlyError as exc:
        sender.send(("read_only", str(exc)))
    except (MemoryError, StoreError, RuntimeError) as exc:
        if isinstance(exc, MemoryError) or "bad_alloc" in str(exc):
            sender.send(("memory", f"query ran out of memory (limit {_describe(memory)})"))
        else:
            sender.send(("error", str(exc)))
    except Exception as exc:  # the worker reports every failure instead of dying silently
        sender.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        sender.close()
