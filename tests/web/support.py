"""A live `hostcompat serve` in a thread for the web tests: its address, token, and plain HTTP helpers."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.web import Guard, create_app
from hostcompat.web.server import bind

TOKEN = "test-token-0123456789"


@dataclass
class Served:
    port: int
    token: str

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: Mapping[str, str] | None = None
    ) -> tuple[int, Any]:
        """One request; returns the status and the JSON body (or the text when it is not JSON)."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        all_headers = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in all_headers.items():
            conn.putheader(name, value)
        conn.putheader("Content-Length", str(len(body or b"")))
        conn.endheaders(body or b"")
        response = conn.getresponse()
        raw = response.read()
        conn.close()
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw.decode("utf-8", "replace")

    def post_json(self, path: str, value: object, headers: Mapping[str, str] | None = None) -> tuple[int, Any]:
        return self.request(
            "POST", path, json.dumps(value).encode(), {"Content-Type": "application/json", **(headers or {})}
        )

    def wait_report(self, run_id: str, timeout: float = 60) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status, run = self.request("GET", f"/api/reports/{run_id}")
            assert status == 200, run
            if run["status"] != "running":
                return run
            time.sleep(0.05)
        raise AssertionError(f"check {run_id} still running after {timeout}s")

    def check(self, value: object, headers: Mapping[str, str] | None = None) -> Any:
        status, started = self.post_json("/api/check", value, headers)
        assert status == 202, started
        return self.wait_report(started["id"])


@contextmanager
def serving(max_reports: int = 32) -> Iterator[Served]:
    """`hostcompat serve` on a free loopback port, in a thread, until the block ends."""
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(Guard.for_address("127.0.0.1", port, TOKEN), load_catalog(), max_reports=max_reports)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield Served(port, TOKEN)
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
