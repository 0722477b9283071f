"""Run widgets in headless Chromium under emulated hosts and record what they do, each within its time limit.

Each run gets a fresh browser context: the test host page (`host.html`) served from an origin of its own, the
widget in its sandboxed srcdoc frame, every other request and WebSocket refused (and recorded, by the context's
refusing proxy and by request interception), dialogs dismissed,
downloads and service workers off. The runner waits until the view has been quiet for a while (or its time is up),
optionally presses its buttons, then screenshots the frame and compares it with a blank frame. A run that hangs,
crashes or floods is stopped and recorded as such; one browser serves many runs and is restarted if it breaks.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import field
from importlib import resources
from typing import TYPE_CHECKING, Any, Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.observe.browser import BrowserUnavailable, launch
from hostcompat.observe.host_profile import EmulatedHost
from hostcompat.observe.netguard import BYPASS_NONE, RefusingProxy
from hostcompat.observe.record import MAX_TEXT, RunRecord
from hostcompat.observe.widget import SANDBOX, WidgetJob
from hostcompat.wire_json import WireJSON, WireObject

if TYPE_CHECKING:
    from playwright.async_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Dialog,
        Error,
        Frame,
        Page,
        Playwright,
        Route,
        WebSocketRoute,
    )

_CSP_REFUSAL: Final = regex(
    r"'([a-z][a-z0-9+.-]*://[^'\s]+)' (?:because it )?violates the following Content Security Policy", re.IGNORECASE
)
"""Chromium's console line for a request the CSP stopped ("Connecting to 'URL' violates…", "Refused to load …")."""

HOST_ORIGIN: Final = "https://test-host.hostcompat.invalid"
"""The test host page's origin (never resolved: the runner serves the page itself and refuses all else)."""

CLICK_MS: Final = 3_000
"""How long one button press may wait for its button (a busy machine needs more than a second)."""
RESPONSIVE_SECONDS: Final = 6.0
"""How long the widget's script may take to answer once the run is over before it counts as never yielding (long
enough for a heavy but finite start, such as a PDF renderer without its worker, on a loaded machine)."""

ServerHandler = Callable[[str, Any], Awaitable[Mapping[str, Any]]]
"""(method, params) → `{"result": …}` or `{"error": {code, message}}`: the MCP server behind the host."""


@dataclass(frozen=True)
class RunLimits:
    """How long and how much one run may take.

    `settle` ends a run once the bridge has been quiet for that long after its first message (a view that sends
    nothing runs its whole `run` time); `run` is the most it may run before pressing buttons; `explore` the most
    spent pressing them; `hard` the most a run takes in all, teardown included.
    """

    settle: float = 1.5
    run: float = 15.0
    explore: float = 5.0
    max_clicks: int = 6
    hard: float = 30.0
    max_messages: int = 2_000
    width: int = 720
    height: int = 540
    max_param_chars: int = 4_000


@dataclass
class _Run:
    record: RunRecord
    started: float
    last_message: float = 0.0
    page: Page | None = None
    tasks: list[asyncio.Task[Any]] = field(default_factory=list)

    def elapsed_ms(self) -> int:
        return int((time.monotonic() - self.started) * 1000)


def host_page(config: WireJSON) -> str:
    """The test host page with `config` in it (escaped so no text in it can close its script element)."""
    template = resources.files("hostcompat.observe").joinpath("host.html").read_text(encoding="utf-8")
    text = json.dumps(config, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return template.replace("__HOSTCOMPAT_CONFIG__", text)


def page_config(job: WidgetJob, host: EmulatedHost, limits: RunLimits, quirks: Mapping[str, bool]) -> WireObject:
    """What the host page needs for one run."""
    tool_info = {"tool": dict(job.tool)} if job.tool is not None else None
    return {
        "host": host.page_config(),
        "srcdoc": job.srcdoc,
        "sandbox": SANDBOX,
        "allow": job.allow,
        "width": limits.width,
        "height": limits.height,
        "toolInput": dict(job.tool_input),
        "toolResult": dict(job.tool_result) if job.tool_result is not None else None,
        "toolInfo": tool_info,
        "quirks": {**host.knobs, **{key: bool(value) for key, value in quirks.items()}},
        "maxMessages": limits.max_messages,
        "maxRecordChars": limits.max_param_chars * 3 + 1_000,
        "maxParamsChars": limits.max_param_chars,
    }


class Observer:
    """One Chromium for many runs (`reuse=False` starts one per run, for comparison); use as an async context."""

    def __init__(self, *, reuse: bool = True) -> None:
        """An observer; the browser starts on entry."""
        self._reuse = reuse
        self._playwright: Playwright | None = None
        self._manager: Any = None
        self._browser: Browser | None = None
        self._lock = asyncio.Lock()
        self._blank: dict[tuple[int, int], bytes] = {}

    async def __aenter__(self) -> Observer:
        try:
            from playwright.async_api import async_playwright
        except ImportError as error:
            raise BrowserUnavailable("Playwright for Python is not installed (pip install playwright)") from error
        self._manager = async_playwright()
        self._playwright = await self._manager.start()
        if self._reuse:
            await self._browser_for_run()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._browser is not None:
            await _bounded(self._browser.close(), 10.0)
            self._browser = None
        if self._manager is not None:
            await _bounded(self._manager.__aexit__(None, None, None), 10.0)

    async def _browser_for_run(self) -> Browser:
        async with self._lock:
            if self._browser is None or not self._browser.is_connected():
                assert self._playwright is not None
                self._browser = await launch(self._playwright)
            return self._browser

    async def observe(
        self,
        job: WidgetJob,
        host: EmulatedHost,
        server: ServerHandler,
        *,
        limits: RunLimits | None = None,
        explore: bool = True,
        quirks: Mapping[str, bool] | None = None,
    ) -> RunRecord:
        """Run `job` under `host`, its server requests answered by `server`; never raises for the widget's sake."""
        limits = limits or RunLimits()
        run = _Run(RunRecord(), time.monotonic())
        proxy = RefusingProxy(ignore_hosts=(HOST_ORIGIN.partition("://")[2],))
        browser = await self._browser_for_run() if self._reuse else None
        own: Browser | None = None
        try:
            if browser is None:
                assert self._playwright is not None
                browser = own = await launch(self._playwright)
            context = await browser.new_context(
                proxy={"server": await proxy.start(), "bypass": BYPASS_NONE},
                viewport={"width": limits.width, "height": limits.height},
                service_workers="block",
                accept_downloads=False,
                java_script_enabled=True,
            )
            try:
                config = page_config(job, host, limits, quirks or {})
                done = await _bounded(
                    self._drive(context, run, config, server, limits, explore), limits.hard - 2.0, default=False
                )
                if done is False:
                    run.record.timed_out = True
            finally:
                for task in run.tasks:
                    task.cancel()
                if not await _bounded(_close(context), 5.0, default=False):
                    await self._restart(browser)
        except BrowserUnavailable:
            raise
        except Exception as error:  # the browser itself failed: the run says so, the check goes on
            run.record.failure = (
                f"{type(error).__name__}: {str(error).splitlines()[0][:MAX_TEXT] if str(error) else ''}"
            )
            if browser is not None:
                await self._restart(browser)
        finally:
            await proxy.close()
            for url in proxy.targets:
                run.record.add_event(run.record.network, url)
            if own is not None:
                await _bounded(own.close(), 10.0)
            run.record.seconds = time.monotonic() - run.started
        return run.record

    async def _restart(self, browser: Browser) -> None:
        """Drop a browser that would not close a context (the next run starts a new one)."""
        await _bounded(browser.close(), 5.0)
        async with self._lock:
            if self._browser is browser:
                self._browser = None

    async def _drive(
        self,
        context: BrowserContext,
        run: _Run,
        config: Mapping[str, Any],
        server: ServerHandler,
        limits: RunLimits,
        explore: bool,
    ) -> bool:
        record = run.record
        html = host_page(config)
        await context.route("**/*", lambda route: _route(route, html, record))
        await context.route_web_socket("**/*", lambda ws: _refuse_socket(ws, record))

        def from_host(source: Mapping[str, Any]) -> bool:
            page = source.get("page")
            if page is None or source.get("frame") is not page.main_frame:
                record.spoofed_bindings += 1
                return False
            return True

        def on_record(source: Mapping[str, Any], kind: str, _at: int, text: str) -> None:
            if not from_host(source):
                return
            if kind in ("in", "out"):
                record.add_message(kind, run.elapsed_ms(), text)
                run.last_message = time.monotonic()
            elif kind == "flood":
                record.flooded = True

        async def on_server(source: Mapping[str, Any], text: str) -> str:
            if not from_host(source):
                return json.dumps({"error": {"code": -32000, "message": "refused"}})
            try:
                request = json.loads(text)
                reply = await asyncio.wait_for(server(str(request.get("method")), request.get("params")), 10.0)
            except Exception as error:
                reply = {"error": {"code": -32603, "message": f"host error: {type(error).__name__}"}}
            return json.dumps(reply)

        await context.expose_binding("hcRecord", on_record)
        await context.expose_binding("hcServer", on_server)
        page = run.page = await context.new_page()
        _watch(page, run)
        await page.goto(HOST_ORIGIN + "/", wait_until="commit", timeout=limits.run * 1000)
        await self._wait_quiet(run, limits.run, limits.settle)
        if explore and not (record.crashed or record.flooded):
            record.explored = await _bounded(_press_buttons(page, run, limits), limits.explore, default=0)
            await self._wait_quiet(run, limits.settle, limits.settle / 2)
        await _check_responsive(page, record)
        if not (record.crashed or record.timed_out):
            record.first_paint_ms = await _bounded(_first_paint(page), 3.0)
        if not (record.crashed or record.timed_out):
            try:
                record.painted = await asyncio.wait_for(self._painted(context, page, limits), 8.0)
            except Exception as error:
                record.notes.append(f"no screenshot: {type(error).__name__}: {str(error).splitlines()[0][:200]}")
        return True

    async def _wait_quiet(self, run: _Run, budget: float, settle: float) -> None:
        end = time.monotonic() + budget
        while time.monotonic() < end and not (run.record.crashed or run.record.flooded):
            if run.last_message and time.monotonic() - run.last_message >= settle:
                return
            await asyncio.sleep(0.1)

    async def _painted(self, context: BrowserContext, page: Page, limits: RunLimits) -> bool | None:
        frame = page.locator("iframe")
        shot = await frame.screenshot(timeout=6_000)
        blank = await self._blank_frame(context, limits)
        return shot != blank

    async def _blank_frame(self, context: BrowserContext, limits: RunLimits) -> bytes:
        key = (limits.width, limits.height)
        if key not in self._blank:
            page = await context.new_page()
            try:
                await page.set_content(
                    "<style>html,body{margin:0;background:#fff}iframe{border:0;display:block}</style>"
                    f'<iframe sandbox="" srcdoc="" style="width:{limits.width}px;height:{limits.height}px"></iframe>'
                )
                self._blank[key] = await page.locator("iframe").screenshot(timeout=6_000)
            finally:
                await _bounded(page.close(), 3.0)
        return self._blank[key]


def _watch(page: Page, run: _Run) -> None:
    """Record the page's console errors, uncaught errors, crash, dialogs (dismissed) and the widget frame's
    navigations.
    """
    record = run.record

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            record.add_event(record.console, (message.type, message.text[:MAX_TEXT]))
            blocked = _CSP_REFUSAL.search(message.text[:4_000])
            if blocked is not None:  # the CSP stopped it before the network: still where the widget reached
                record.add_event(record.csp_violations, blocked.group(1)[:MAX_TEXT])
                record.add_event(record.network, blocked.group(1)[:MAX_TEXT])

    def on_error(error: Error) -> None:
        record.add_event(record.page_errors, (run.elapsed_ms(), str(error)[:MAX_TEXT]))

    def on_crash(_page: Page) -> None:
        record.crashed = True

    def on_dialog(dialog: Dialog) -> None:
        run.tasks.append(asyncio.ensure_future(_dismiss(dialog, record)))

    def on_navigated(frame: Frame) -> None:
        if frame.parent_frame is not None and frame.url not in ("about:srcdoc", "about:blank"):
            record.add_event(record.navigations, frame.url[:MAX_TEXT])

    page.on("console", on_console)
    page.on("pageerror", on_error)
    page.on("crash", on_crash)
    page.on("dialog", on_dialog)
    page.on("framenavigated", on_navigated)


async def _route(route: Route, html: str, record: RunRecord) -> None:
    url = route.request.url
    if url == HOST_ORIGIN + "/":
        await route.fulfill(status=200, content_type="text/html; charset=utf-8", body=html)
        return
    record.add_event(record.network, url[:MAX_TEXT])
    await route.abort("blockedbyclient")


def _refuse_socket(socket: WebSocketRoute, record: RunRecord) -> Any:
    record.add_event(record.network, socket.url[:MAX_TEXT])
    return socket.close(code=1008, reason="blocked")


async def _dismiss(dialog: Dialog, record: RunRecord) -> None:
    record.add_event(record.dialogs, f"{dialog.type}: {str(dialog.message)[:200]}")
    await _bounded(dialog.dismiss(), 2.0)


async def _press_buttons(page: Page, run: _Run, limits: RunLimits) -> int:
    """Press the widget's visible buttons one by one, letting each settle; returns how many were pressed."""
    frame = _widget_frame(page)
    if frame is None:
        return 0
    buttons = frame.locator("button:visible, [role=button]:visible")
    count = min(await buttons.count(), limits.max_clicks)
    pressed = 0
    for index in range(count):
        if run.record.crashed or run.record.flooded:
            break
        try:
            await buttons.nth(index).click(timeout=CLICK_MS, no_wait_after=True)
            pressed += 1
        except Exception:  # a button that went away or is covered is skipped
            continue
        await asyncio.sleep(0.3)
    return pressed


async def _check_responsive(page: Page, record: RunRecord) -> None:
    """A widget whose script never yields (a busy loop, an endless DOM build) is stopped and recorded as such."""
    frame = _widget_frame(page)
    if frame is None or record.crashed:
        return
    try:
        await asyncio.wait_for(frame.evaluate("0"), RESPONSIVE_SECONDS)
    except asyncio.TimeoutError:
        record.timed_out = True
        record.notes.append("the widget stopped responding: its script never yields")
    except Exception as error:  # a frame that went away (navigated, crashed) answers nothing either
        record.notes.append(f"responsiveness not checked: {type(error).__name__}")


_FIRST_PAINT: Final = (
    "(() => { const p = performance.getEntriesByName('first-contentful-paint')[0]"
    " || performance.getEntriesByName('first-paint')[0]; return p ? Math.round(p.startTime) : null; })()"
)


async def _first_paint(page: Page) -> int | None:
    """The widget frame's first (contentful) paint, in ms from its own start, read from its paint timing."""
    frame = _widget_frame(page)
    if frame is None:
        return None
    value = await frame.evaluate(_FIRST_PAINT)
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**7 else None


def _widget_frame(page: Page) -> Frame | None:
    return next((frame for frame in page.frames if frame.parent_frame is page.main_frame), None)


async def _close(context: BrowserContext) -> bool:
    await context.close()
    return True


async def _bounded(awaitable: Awaitable[Any], seconds: float, *, default: Any = None) -> Any:
    """`awaitable`'s value, or `default` when it takes longer than `seconds` or fails."""
    try:
        return await asyncio.wait_for(asyncio.ensure_future(awaitable), max(seconds, 0.1))
    except (asyncio.TimeoutError, Exception):
        return default


def observe_all(
    runs: Sequence[tuple[WidgetJob, EmulatedHost]],
    server: ServerHandler,
    *,
    limits: RunLimits | None = None,
    explore: bool = True,
    concurrency: int = 2,
    reuse: bool = True,
    open_server: Callable[[], AbstractAsyncContextManager[ServerHandler]] | None = None,
) -> list[RunRecord]:
    """Run each (widget, host) pair, at most `concurrency` at once, in one browser; records in the same order.

    `open_server`, when given, opens the server the runs forward to (a live connection, held for all the runs)
    in place of `server`.

    Raises:
        BrowserUnavailable: Playwright or Chromium is missing or does not start.
    """

    async def main() -> list[RunRecord]:
        gate = asyncio.Semaphore(max(1, concurrency))
        async with (
            Observer(reuse=reuse) as observer,
            open_server() if open_server is not None else nullcontext(server) as handler,
        ):

            async def one(job: WidgetJob, host: EmulatedHost) -> RunRecord:
                async with gate:
                    return await observer.observe(job, host, handler, limits=limits, explore=explore)

            return list(await asyncio.gather(*(one(job, host) for job, host in runs)))

    return asyncio.run(main())


__all__ = ["HOST_ORIGIN", "Observer", "RunLimits", "ServerHandler", "host_page", "observe_all", "page_config"]
