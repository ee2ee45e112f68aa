"""A local HTTP server that answers like the arXiv API (Atom 1.0), for the real `arxiv` client.

It serves papers given as dicts, pages with `start`/`max_results`, answers
`id_list` and `search_query` requests (a query returns every paper, newest
update first, which is what the loader asks for), and can be told to fail:
answer 503, or stall longer than the client's timeout, for the next requests.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse
from xml.sax.saxutils import escape


def atom_entry(paper: dict) -> str:
    """One <entry>; `paper` has arxiv_id, title, abstract, published, updated and optional extras."""
    version = paper.get("version", 1)
    authors = "".join(
        f"<author><name>{escape(name)}</name>"
        + "".join(
            f"<arxiv:affiliation>{escape(a)}</arxiv:affiliation>"
            for a in paper.get("affiliations", {}).get(name, [])
        )
        + "</author>"
        for name in paper.get("authors", ["A. Author"])
    )
    categories = paper.get("categories", ["cs.LG"])
    comment = f"<arxiv:comment>{escape(paper['comment'])}</arxiv:comment>" if paper.get("comment") else ""
    return (
        "<entry>"
        f"<id>http://arxiv.org/abs/{paper['arxiv_id']}v{version}</id>"
        f"<updated>{paper['updated']}</updated><published>{paper['published']}</published>"
        f"<title>{escape(paper['title'])}</title><summary>{escape(paper.get('abstract', ''))}</summary>"
        f"{authors}{comment}"
        f'<link href="http://arxiv.org/abs/{paper["arxiv_id"]}v{version}" rel="alternate" type="text/html"/>'
        f'<link title="pdf" href="http://arxiv.org/pdf/{paper["arxiv_id"]}v{version}" rel="related" '
        'type="application/pdf"/>'
        f'<arxiv:primary_category term="{categories[0]}" scheme="http://arxiv.org/schemas/atom"/>'
        + "".join(f'<category term="{c}" scheme="http://arxiv.org/schemas/atom"/>' for c in categories)
        + "</entry>"
    )


def atom_feed(papers: list[dict], total: int | None = None, start: int = 0) -> bytes:
    total = len(papers) if total is None else total
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom">\n'
        "<title>arXiv Query</title><id>http://arxiv.org/api/test</id><updated>2026-01-01T00:00:00Z</updated>\n"
        f"<opensearch:totalResults>{total}</opensearch:totalResults>\n"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>\n"
        f"<opensearch:itemsPerPage>{len(papers)}</opensearch:itemsPerPage>\n"
        + "\n".join(atom_entry(p) for p in papers)
        + "\n</feed>\n"
    ).encode()


class FakeArxiv:
    """Start with `with FakeArxiv(papers) as api:`; point the client at `api.url_format`."""

    def __init__(self, papers: list[dict]):
        self.papers = list(papers)
        self.requests: list[dict[str, list[str]]] = []
        self.fail_next: list[str] = []  # "503" or "stall", consumed one per request
        self.stall_seconds = 2.0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 (the http.server API)
                params = parse_qs(urlparse(self.path).query, keep_blank_values=True)
                fake.requests.append(params)
                failure = fake.fail_next.pop(0) if fake.fail_next else None
                if failure == "stall":
                    time.sleep(fake.stall_seconds)
                if failure == "503":
                    self.send_response(503)
                    self.end_headers()
                    return
                body = fake.answer(params)
                self.send_response(200)
                self.send_header("Content-Type", "application/atom+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                try:
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up on a stalled request

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url_format = f"http://127.0.0.1:{self.server.server_address[1]}/api/query?{{}}"

    def answer(self, params: dict[str, list[str]]) -> bytes:
        start = int(params.get("start", ["0"])[0])
        size = int(params.get("max_results", ["10"])[0])
        ids = [i for i in params.get("id_list", [""])[0].split(",") if i]
        if ids:
            by_id = {p["arxiv_id"]: p for p in self.papers}
            matched = [by_id[i] for i in ids if i in by_id]
        else:
            matched = sorted(self.papers, key=lambda p: p["updated"], reverse=True)
        return atom_feed(matched[start : start + size], total=len(matched), start=start)

    def __enter__(self) -> FakeArxiv:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()
