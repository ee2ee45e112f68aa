"""Loads started by an admin, each `uptake load ...` in its own process, into the API's store only."""

from __future__ import annotations

import subprocess
import sys
import threading
import uuid

from .errors import ApiError
from .models import LoadJob, LoadRequest


class LoadJobs:
    def __init__(self, target: str):
        self.target = target
        self._jobs: dict[str, LoadJob] = {}
        self._lock = threading.Lock()

    def start(self, request: LoadRequest) -> LoadJob:
        _refuse_other_stores(request.args)
        job = LoadJob(id=uuid.uuid4().hex[:12], loader=request.loader, status="running")
        command = [
            sys.executable,
            "-c",
            "from uptake.api.cli import main; main()",
            "load",
            request.loader,
            "--store",
            self.target,
            *request.args,
        ]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with self._lock:
            self._jobs[job.id] = job
        threading.Thread(target=self._wait, args=(job.id, process), daemon=True).start()
        return job

    def _wait(self, job_id: str, process: subprocess.Popen) -> None:
        output, _ = process.communicate()
        with self._lock:
            job = self._jobs[job_id]
            job.exit_code = process.returncode
            job.status = "succeeded" if process.returncode == 0 else "failed"
            job.output = output[-4000:]

    def get(self, job_id: str) -> LoadJob:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                raise ApiError(404, "not_found", f"no load job {job_id!r}")
            return job.model_copy()


def _refuse_other_stores(args: list[str]) -> None:
    """A load writes into the API's own store: a store option in its arguments is refused, in any
    spelling click accepts (`--store X`, `--store=X`, `-sX`, an unambiguous prefix such as `--st`)."""
    for arg in args:
        if arg == "--":
            break
        name = arg.split("=", 1)[0]
        long_prefix = name.startswith("--") and len(name) > 2 and "--store".startswith(name)
        if long_prefix or name == "-s" or (name.startswith("-s") and not name.startswith("--")):
            raise ApiError(
                422,
                "invalid_parameter",
                f"parameter 'args': {arg!r} is refused; an admin load writes only into the API's store",
            )
