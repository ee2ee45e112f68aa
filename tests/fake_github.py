"""A local HTTP server that answers like the GitHub REST API, for the loader's tests.

It serves the three lists the loader reads (issues, pulls, issue comments)
with GitHub's parameters (`state`, `sort`, `direction`, `since`, `per_page`,
`page`), `Link` pagination headers and rate-limit headers, and can be told to
misbehave: spend its rate limit (403 or 429 with reset headers), answer a 5xx,
or send a malformed body. Every request is logged so tests can assert what
was fetched. The items are built by the helpers below: REST-shaped JSON with
texts written for these tests.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

API = "http://fake.invalid"  # replaced by the server's own address in html/issue URLs


def _user(login: str, type_: str = "User") -> dict[str, Any]:
    return {"login": login, "id": abs(hash(login)) % 10**8, "type": type_}


def make_issue(
    number: int,
    title: str,
    body: str = "",
    *,
    repo: str = "acme/rlkit",
    state: str = "open",
    author: str = "alice",
    association: str = "NONE",
    created_at: str = "2025-03-01T10:00:00Z",
    updated_at: str | None = None,
    closed_at: str | None = None,
    comments: int = 0,
    labels: tuple[str, ...] = (),
    pull_merged_at: str | None = None,
    is_pull: bool = False,
) -> dict[str, Any]:
    item = {
        "id": 1_000_000 + number,
        "number": number,
        "title": title,
        "body": body,
        "state": state,
        "user": _user(author),
        "author_association": association,
        "created_at": created_at,
        "updated_at": updated_at or created_at,
        "closed_at": closed_at,
        "comments": comments,
        "labels": [{"name": name} for name in labels],
        "html_url": f"https://github.com/{repo}/{'pull' if is_pull else 'issues'}/{number}",
        "url": f"{API}/repos/{repo}/issues/{number}",
    }
    if is_pull:
        item["pull_request"] = {"url": f"{API}/repos/{repo}/pulls/{number}", "merged_at": pull_merged_at}
    return item


def make_pull(
    number: int,
    title: str,
    body: str = "",
    *,
    repo: str = "acme/rlkit",
    state: str = "open",
    author: str = "bob",
    association: str = "CONTRIBUTOR",
    created_at: str = "2025-03-01T10:00:00Z",
    updated_at: str | None = None,
    closed_at: str | None = None,
    merged_at: str | None = None,
    merge_commit_sha: str | None = None,
) -> dict[str, Any]:
    return {
        "id": 2_000_000 + number,
        "number": number,
        "title": title,
        "body": body,
        "state": state,
        "user": _user(author),
        "author_association": association,
        "created_at": created_at,
        "updated_at": updated_at or created_at,
        "closed_at": closed_at,
        "merged_at": merged_at,
        "merge_commit_sha": merge_commit_sha,
        "labels": [],
        "head": {"ref": f"feature-{number}"},
        "base": {"ref": "main"},
        "html_url": f"https://github.com/{repo}/pull/{number}",
    }


def make_comment(
    comment_id: int,
    number: int,
    body: str,
    *,
    repo: str = "acme/rlkit",
    author: str = "carol",
    association: str = "NONE",
    created_at: str = "2025-03-02T10:00:00Z",
    updated_at: str | None = None,
    bot: bool = False,
) -> dict[str, Any]:
    return {
        "id": comment_id,
        "body": body,
        "user": _user(author, "Bot" if bot else "User"),
        "author_association": association,
        "created_at": created_at,
        "updated_at": updated_at or created_at,
        "issue_url": f"{API}/repos/{repo}/issues/{number}",
        "html_url": f"https://github.com/{repo}/issues/{number}#issuecomment-{comment_id}",
    }


@dataclass
class Fault:
    """Answer the next `count` matching requests badly instead of normally."""

    kind: str  # rate-limit-403, rate-limit-429, server-error, malformed, html
    path_contains: str = ""
    count: int = 1
    reset_in: int = 3600  # seconds until the rate limit resets
    after: int = 0  # let this many matching requests through first


@dataclass
class FakeRepo:
    issues: list[dict[str, Any]] = field(default_factory=list)  # issues list items (PRs included)
    pulls: list[dict[str, Any]] = field(default_factory=list)
    comments: list[dict[str, Any]] = field(default_factory=list)


class FakeGitHub:
    """The server; use as a context manager. `url` is the API base URL."""

    def __init__(self, repos: dict[str, FakeRepo], *, rate_limit: int = 5000):
        self.repos = repos
        self.rate_limit = rate_limit
        self.remaining = rate_limit
        self.faults: list[Fault] = []
        self.requests: list[tuple[str, dict[str, str]]] = []  # (path, query) of every request
        self.served: list[tuple[str, int]] = []  # (list, number or comment id) of every item sent
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> FakeGitHub:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def requests_to(self, fragment: str) -> list[dict[str, str]]:
        return [q for p, q in self.requests if p.endswith(fragment)]

    # -- answering ---------------------------------------------------------

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                status, headers, body = fake.answer(self.path)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        return Handler

    def _rate_headers(self) -> dict[str, str]:
        return {
            "X-RateLimit-Limit": str(self.rate_limit),
            "X-RateLimit-Remaining": str(max(self.remaining, 0)),
            "X-RateLimit-Reset": str(int(time.time()) + 3600),
            "X-RateLimit-Resource": "core",
        }

    def _fault_for(self, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.path_contains in path and fault.count > 0:
                if fault.after > 0:
                    fault.after -= 1
                    return None
                fault.count -= 1
                return fault
        return None

    def answer(self, raw_path: str) -> tuple[int, dict[str, str], bytes]:
        with self._lock:
            parsed = urlparse(raw_path)
            query = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
            self.requests.append((parsed.path, query))
            fault = self._fault_for(parsed.path)
            if fault is None and self.remaining <= 0:
                fault = Fault("rate-limit-403")
            if fault is not None:
                return self._faulty(fault)
            self.remaining -= 1
            return self._list(parsed.path, query)

    def _faulty(self, fault: Fault) -> tuple[int, dict[str, str], bytes]:
        json_type = {"Content-Type": "application/json; charset=utf-8"}
        if fault.kind.startswith("rate-limit"):
            headers = {
                **json_type,
                "X-RateLimit-Limit": str(self.rate_limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": str(int(time.time()) + fault.reset_in),
            }
            message = {
                "message": "API rate limit exceeded for 127.0.0.1.",
                "documentation_url": "https://docs",
            }
            return (429 if fault.kind.endswith("429") else 403), headers, json.dumps(message).encode()
        if fault.kind == "server-error":
            return 502, json_type, json.dumps({"message": "Server Error"}).encode()
        if fault.kind == "malformed":
            return 200, {**json_type, **self._rate_headers()}, b'[{"id": 1, "number": 1, "title": "cut'
        if fault.kind == "html":
            return 200, {"Content-Type": "text/html", **self._rate_headers()}, b"<html>unicorn</html>"
        raise AssertionError(fault.kind)

    def _list(self, path: str, query: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
        parts = path.strip("/").split("/")
        if len(parts) < 4 or parts[0] != "repos" or f"{parts[1]}/{parts[2]}" not in self.repos:
            return 404, {"Content-Type": "application/json"}, b'{"message": "Not Found"}'
        repo = self.repos[f"{parts[1]}/{parts[2]}"]
        rest = "/".join(parts[3:])
        lists = {"issues": repo.issues, "pulls": repo.pulls, "issues/comments": repo.comments}
        if rest not in lists:
            return 404, {"Content-Type": "application/json"}, b'{"message": "Not Found"}'
        items = list(lists[rest])
        state = query.get("state", "open")
        if state != "all" and rest != "issues/comments":
            items = [i for i in items if i.get("state") == state]
        if "since" in query and rest != "pulls":  # the pulls list has no `since`, like GitHub's
            items = [i for i in items if i["updated_at"] >= query["since"]]
        sort_key = "updated_at" if query.get("sort") == "updated" else "created_at"
        default_direction = "asc" if rest == "issues/comments" else "desc"
        items.sort(
            key=lambda i: (i[sort_key], i["id"]), reverse=query.get("direction", default_direction) == "desc"
        )
        per_page = int(query.get("per_page", 30))
        page = int(query.get("page", 1))
        chunk = items[(page - 1) * per_page : page * per_page]
        name = "comments" if rest == "issues/comments" else rest
        self.served.extend((name, i.get("number", i["id"])) for i in chunk)
        headers = {"Content-Type": "application/json; charset=utf-8", **self._rate_headers()}
        last = max(1, -(-len(items) // per_page))
        links = []
        if page < last:
            links.append(f'<{self.url}{path}?{urlencode({**query, "page": page + 1})}>; rel="next"')
            links.append(f'<{self.url}{path}?{urlencode({**query, "page": last})}>; rel="last"')
        if links:
            headers["Link"] = ", ".join(links)
        return 200, headers, json.dumps(chunk).encode()
