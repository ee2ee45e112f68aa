"""Ad-hoc Cypher in a sandbox: the statement check, then a worker process with hard limits.

`run_adhoc` is the one path for ad-hoc statements (API and CLI). The statement is checked
(cypher_guard) before any database sees it; it then runs in a fresh child process that opens the
store read-only under a memory limit (RLIMIT_AS) and is killed when it overruns its time. A
statement that crashes the engine, exhausts memory or ignores its timeout costs that process,
never the caller. The child answers in JSON (not pickle: it ran a stranger's statement) and cuts
its rows at the row and byte caps, so a huge result never reaches the caller's memory.

A long-lived caller (the API) keeps one spare child started ahead (`keep_spare=True`): it has
paid for the interpreter and imports while idle and only waits for its request, so a statement
costs the store's open and the query, not a process start. A spare serves one statement only.
"""

from __future__ import annotations

import datetime
import json
import os
import resource
import signal
import subprocess
import sys
import threading
from dataclasses import asdict, dataclass
from typing import Any

from .cypher_guard import MAX_TIMEOUT, MIN_TIMEOUT, check_statement
from .redaction import redact_secrets
from .store import QueryTimeout, ReadOnlyError, StoreError, open_store

GIB = 1 << 30
MIB = 1 << 20
# Time for the child to start and open the store, on top of the statement's own timeout.
GRACE_SECONDS = 10.0
# Workers at once (UPTAKE_ADHOC_WORKERS, else the core count): with the memory limit this bounds
# what ad-hoc queries can take from the machine together.
_WORKER_SLOTS = threading.BoundedSemaphore(int(os.environ.get("UPTAKE_ADHOC_WORKERS") or os.cpu_count() or 2))


class WorkerFailed(StoreError):
    """The worker ran out of memory or crashed; the caller is unaffected."""


class WorkersBusy(StoreError):
    """Every worker slot stayed taken for the statement's whole timeout; try again later."""


@dataclass(frozen=True)
class AdhocLimits:
    """Bounds on one ad-hoc statement. Environment: UPTAKE_ADHOC_MEMORY_MB, UPTAKE_ADHOC_MAX_BYTES."""

    timeout: float = 10.0
    max_rows: int = 1000
    max_bytes: int = 16 * MIB  # of the rows as JSON
    memory_bytes: int = 2 * GIB

    def __post_init__(self) -> None:
        # A timeout of 0 means "none" to Ladybug, so a tiny one must never round down to it.
        if not MIN_TIMEOUT <= self.timeout <= MAX_TIMEOUT:
            raise ValueError(
                f"timeout must be between {MIN_TIMEOUT} and {MAX_TIMEOUT:g} seconds, got {self.timeout:g}"
            )
        if self.max_rows < 1 or self.max_bytes < 1:
            raise ValueError("the row and byte caps must be positive")
        if self.memory_bytes < 256 * MIB:
            raise ValueError(
                f"the worker memory limit must be at least 256 MiB, got {_size(self.memory_bytes)}"
            )

    @classmethod
    def from_env(cls, **values: Any) -> AdhocLimits:
        """Limits from the given values, the environment for memory and bytes, else the defaults."""
        if memory := os.environ.get("UPTAKE_ADHOC_MEMORY_MB"):
            values.setdefault("memory_bytes", int(memory) * MIB)
        if max_bytes := os.environ.get("UPTAKE_ADHOC_MAX_BYTES"):
            values.setdefault("max_bytes", int(max_bytes))
        return cls(**values)


@dataclass(frozen=True)
class AdhocResult:
    rows: list[dict[str, Any]]
    truncated: bool = False
    cut_by: str | None = None  # which cap cut the rows: "the row cap of 1000 rows", ...


def run_adhoc(
    target: str, statement: str, params: dict[str, Any], *, limits: AdhocLimits, keep_spare: bool = False
) -> AdhocResult:
    """One checked, read-only statement run in a worker; StatementRefused, QueryTimeout or StoreError."""
    return run_in_worker(target, check_statement(statement), params, limits=limits, keep_spare=keep_spare)


def run_in_worker(
    target: str, statement: str, params: dict[str, Any], *, limits: AdhocLimits, keep_spare: bool = False
) -> AdhocResult:
    """The statement as given (unchecked) in a child process under the limits."""
    if not _WORKER_SLOTS.acquire(timeout=limits.timeout):
        raise WorkersBusy(f"every ad-hoc query worker stayed busy for {limits.timeout:g} s; try again")
    try:
        return _run_child(_SPARES.take(limits.memory_bytes), target, statement, params, limits)
    finally:
        _WORKER_SLOTS.release()
        if keep_spare:  # after the statement, so the new child's start does not slow it down
            _SPARES.refill(limits.memory_bytes)


def _start_child(memory: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", f"from {__name__} import serve_one; serve_one()"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_child_env(memory),
    )


class _Spares:
    """At most one idle child per memory limit (its environment depends on the limit)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._idle: dict[int, subprocess.Popen] = {}

    def take(self, memory: int) -> subprocess.Popen:
        with self._lock:
            child = self._idle.pop(memory, None)
        if child is not None and child.poll() is None:
            return child
        return _start_child(memory)

    def refill(self, memory: int) -> None:
        with self._lock:
            if memory not in self._idle:
                self._idle[memory] = _start_child(memory)

    def close(self) -> None:
        """Stop the idle children (closing stdin is enough: a spare exits on an empty request)."""
        with self._lock:
            idle, self._idle = list(self._idle.values()), {}
        for child in idle:
            child.communicate()


_SPARES = _Spares()
prestart_worker = _SPARES.refill
stop_spare_workers = _SPARES.close


def _run_child(
    child: subprocess.Popen, target: str, statement: str, params: dict[str, Any], limits: AdhocLimits
) -> AdhocResult:
    request = json.dumps(
        {"target": target, "statement": statement, "params": params, "limits": asdict(limits)}
    )
    try:
        out, err = child.communicate(request.encode(), timeout=limits.timeout + GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        raise QueryTimeout(f"query exceeded {limits.timeout:g} s and was stopped") from None
    if child.returncode != 0 or not out:
        raise WorkerFailed(_crash_message(child.returncode, err, limits.memory_bytes))
    return _answer(json.loads(out))


def _child_env(memory: int) -> dict[str, str]:
    env = dict(os.environ)
    # Ladybug's default page cache and address reservation exceed any sensible memory limit.
    env.setdefault("UPTAKE_LADYBUG_BUFFER_MB", str(max(64, memory // 8 // MIB)))
    env.setdefault("UPTAKE_LADYBUG_MAX_DB_MB", str(max(256, memory // 4 // MIB)))
    return env


def _crash_message(returncode: int, err: bytes, memory: int) -> str:
    if b"MemoryError" in err or b"bad_alloc" in err:
        return f"query ran out of memory (limit {_size(memory)}); the server is unaffected"
    if returncode < 0:
        name = signal.Signals(-returncode).name if -returncode in signal.valid_signals() else -returncode
        # The engine may crash when an allocation fails under the limit, so both causes are named.
        return f"query crashed the worker ({name}; memory limit {_size(memory)}); the server is unaffected"
    return f"query worker stopped without an answer (exit {returncode}); the server is unaffected"


def _answer(answer: dict[str, Any]) -> AdhocResult:
    kind, message = answer["kind"], answer.get("message", "")
    if kind == "rows":
        return AdhocResult(answer["rows"], answer["cut_by"] is not None, answer["cut_by"])
    raise {"timeout": QueryTimeout, "read_only": ReadOnlyError, "memory": WorkerFailed}.get(kind, StoreError)(
        message
    )


def _size(n: int) -> str:
    if n >= GIB:
        return f"{n / GIB:g} GiB"
    return f"{n / MIB:g} MiB" if n >= MIB else f"{n} bytes"


# -- the child process -------------------------------------------------------------------


def serve_one() -> None:
    """Child side: read one request on stdin, write one JSON answer on stdout, exit."""
    # Both backends' imports happen before the wait, so a spare pays for them while idle.
    from . import ladybug_store, neo4j_store  # noqa: F401

    raw = sys.stdin.buffer.read()
    if not raw:  # a spare that was never used: its parent closed the pipe
        return
    request = json.loads(raw)
    limits = AdhocLimits(**request["limits"])
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    answer_fd = os.dup(1)
    os.dup2(2, 1)  # whatever the engine prints cannot corrupt the answer
    try:
        answer = _rows_answer(request, limits)
    except QueryTimeout as exc:
        answer = {"kind": "timeout", "message": str(exc)}
    except ReadOnlyError as exc:
        answer = {"kind": "read_only", "message": str(exc)}
    except (MemoryError, StoreError, RuntimeError, ValueError, TypeError, OverflowError) as exc:
        # The engine reports a failed allocation under RLIMIT_AS as bad_alloc.
        if isinstance(exc, MemoryError) or "bad_alloc" in str(exc):
            answer = {
                "kind": "memory",
                "message": f"query ran out of memory (limit {_size(limits.memory_bytes)})",
            }
        else:
            answer = {"kind": "error", "message": redact_secrets(str(exc))}
    with os.fdopen(answer_fd, "w") as out:
        out.write(json.dumps(answer, default=_json_value))


def _rows_answer(request: dict[str, Any], limits: AdhocLimits) -> dict[str, Any]:
    with open_store(request["target"], read_only=True) as store:
        rows = store.read(
            request["statement"], request["params"], timeout=limits.timeout, limit=limits.max_rows + 1
        )
    kept, size, cut_by = [], 0, None
    for row in rows[: limits.max_rows]:
        size += len(json.dumps(row, default=_json_value))
        if size > limits.max_bytes:
            cut_by = f"the byte cap of {_size(limits.max_bytes)}"
            break
        kept.append(row)
    if cut_by is None and len(rows) > limits.max_rows:
        cut_by = f"the row cap of {limits.max_rows} rows"
    return {"kind": "rows", "rows": kept, "cut_by": cut_by}


def _json_value(value: Any) -> Any:
    if isinstance(value, (datetime.date, datetime.time)) or hasattr(value, "iso_format"):
        return value.isoformat() if hasattr(value, "isoformat") else value.iso_format()
    return str(value)
