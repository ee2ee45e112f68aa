"""Loads started by an admin, each `uptake load ...` in its own process, into the API's store only.

A job's state is a small JSON file in the jobs folder, so that with several server processes
(`uptake serve --workers N`, which share one folder through $UPTAKE_JOBS_DIR) any of them answers
for a job another one started.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import uuid
from pathlib import Path

from .errors import ApiError
from .models import LoadJob, LoadRequest

JOBS_DIR_VARIABLE = "UPTAKE_JOBS_DIR"
_JOB_ID = re.compile(r"[0-9a-f]{12}")


class LoadJobs:
    def __init__(self, target: str, folder: Path | None = None):
        self.target = target
        shared = os.environ.get(JOBS_DIR_VARIABLE)
        self._owned = folder is None and not shared  # a folder of its own is removed on close
        self.folder = folder or (Path(shared) if shared else Path(tempfile.mkdtemp(prefix="uptake-jobs-")))
        self.folder.mkdir(parents=True, exist_ok=True)

    def close(self) -> None:
        if self._owned:
            shutil.rmtree(self.folder, ignore_errors=True)

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
        self._save(job)
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        threading.Thread(target=self._wait, args=(job, process), daemon=True).start()
        return job

    def _wait(self, job: LoadJob, process: subprocess.Popen) -> None:
        output, _ = process.communicate()
        status = "succeeded" if process.returncode == 0 else "failed"
        self._save(
            job.model_copy(
                update={"exit_code": process.returncode, "status": status, "output": output[-4000:]}
            )
        )

    def _save(self, job: LoadJob) -> None:
        # Written whole, then renamed: a reader never sees half a file.
        staged = self.folder / f".{job.id}.json"
        staged.write_text(job.model_dump_json())
        staged.replace(self.folder / f"{job.id}.json")

    def get(self, job_id: str) -> LoadJob:
        path = self.folder / f"{job_id}.json"
        if not _JOB_ID.fullmatch(job_id) or not path.exists():
            raise ApiError(404, "not_found", f"no load job {job_id!r}")
        return LoadJob.model_validate_json(path.read_text())


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
