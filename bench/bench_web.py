"""Benchmark the compatibility page and the HTML report: time to first render of a 50-server by 42-host report in
headless Chromium (the page, fed by the API, and the one-file `--format html` report), and the latency of
`POST /api/scan` on the largest captured widget of the corpus.

Uses the example board server (probed once), the captured widget corpus (interop/corpus) and the system's Chromium.
Run: `python bench/bench_web.py [--servers 50] [--rounds 5] [--scans 20]`.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import uvicorn

from hostcompat.clients.rules import load_bundled_rules
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.observe.browser import LAUNCH_ARGS, browser_status, find_chromium
from hostcompat.pipeline import check_snapshot
from hostcompat.probe import capture
from hostcompat.probe.target import parse_target
from hostcompat.report import render_report, report_document
from hostcompat.web import Guard, create_app
from hostcompat.web.server import bind

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # testkit: the corpus helpers shared with the tests
from testkit.widget_corpus import read_corpus  # noqa: E402

BOARD = [sys.executable, "-m", "hostcompat.examples.board"]


def big_report(servers: int) -> Any:
    """`servers` copies of the board server's entry, each named apart, judged on every catalog host (with the client
    rules in front, as the page's checks are).
    """
    catalog = load_catalog()
    snapshot = anyio.run(lambda: capture(parse_target(BOARD)))
    entry = check_snapshot(snapshot, catalog, target={"display": "board"}, client_rules=load_bundled_rules())
    entries = []
    for index in range(servers):
        copy = dict(entry)
        copy["server"] = {**dict(entry["server"] or {}), "name": f"server-{index:02d}"}
        entries.append(copy)
    return report_document(entries)


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.0f} ms, min {min(values) * 1000:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--servers", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scans", type=int, default=20)
    args = parser.parse_args()
    problem = browser_status()
    if problem is not None:
        print(f"no browser: {problem}")
        return 1
    report = big_report(args.servers)
    hosts = len(report["servers"][0]["hosts"])
    print(f"report: {args.servers} servers x {hosts} hosts")

    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    app = create_app(Guard.for_address("127.0.0.1", port, "bench"), load_catalog())
    state = app.app.state.web  # type: ignore[attr-defined]  # the guarded Starlette app's state
    run = state.store.new()
    run.report, run.status = report, "done"
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    try:
        _browser(report, port, run.id, args)
        _scan(port, args.scans)
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


def _browser(report: Any, port: int, run_id: str, args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    flags = [a for a in LAUNCH_ARGS if not a.startswith(("--proxy-server", "--proxy-bypass-list"))]
    last = f"tbody tr:nth-child({args.servers})"
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        path = Path(folder) / "report.html"
        text = render_report(report, "html")
        path.write_text(text, encoding="utf-8")
        browser = playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=flags)
        page_times, file_times = [], []
        for _ in range(args.rounds):
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/?report={run_id}")
            page.wait_for_selector(f"#matrix {last} button.chip")
            page_times.append(time.perf_counter() - started)
            page.close()
            page = browser.new_page()
            started = time.perf_counter()
            page.goto(path.as_uri())
            page.wait_for_selector(f".matrix {last} .chip")
            file_times.append(time.perf_counter() - started)
            page.close()
        browser.close()
    print(f"page first render (API + matrix): {ms(page_times)}")
    print(f"HTML report first render ({len(text.encode()) / 1e6:.1f} MB file): {ms(file_times)}")


def _scan(port: int, rounds: int) -> None:
    widgets = read_corpus()
    key, (content, _) = max(widgets.items(), key=lambda item: len(str(item[1][0].get("text") or "")))
    body = str(content.get("text") or "").encode()
    times = []
    for _ in range(rounds):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        started = time.perf_counter()
        conn.request("POST", "/api/scan", body, {"Host": f"127.0.0.1:{port}", "Content-Type": "text/html"})
        response = conn.getresponse()
        response.read()
        times.append(time.perf_counter() - started)
        conn.close()
        assert response.status == 200, response.status
    p95 = sorted(times)[max(0, int(len(times) * 0.95) - 1)]
    print(f"POST /api/scan on {key} ({len(body) / 1e3:.0f} kB): {ms(times)}, p95 {p95 * 1000:.0f} ms")


if __name__ == "__main__":
    raise SystemExit(main())
