"""Finding and starting the browser that observed runs use: Chromium from the system, driven by Playwright.

No browser is downloaded: the executable is `$HOSTCOMPAT_CHROMIUM`, else the first `chromium`, `chromium-browser`,
`google-chrome` on PATH. `BrowserUnavailable` says what is missing, so a check without a browser still runs.
"""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Final

from hostcompat.errors import HostCompatError

if TYPE_CHECKING:
    from playwright.async_api import Browser, Playwright

CHROMIUM_ENV: Final = "HOSTCOMPAT_CHROMIUM"
_NAMES: Final = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

HEAP_MB: Final = 256
"""The JavaScript heap of a renderer, in MiB: a widget allocating more crashes its own renderer."""
PROCESS_DATA_MB: Final = 2048
"""The writable memory of each browser process, in MiB (`RLIMIT_DATA`): the JavaScript heap limit leaves out array
buffers, which a widget could otherwise grow to the machine's memory (4 GiB of `Uint8Array` ran to the end)."""

LAUNCH_ARGS: Final = (
    "--no-sandbox",  # the OS sandbox needs a non-root user; widgets stay in the iframe sandbox, CSP and no network
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-extensions",
    "--disable-sync",
    "--disable-gpu",
    "--dns-prefetch-disable",
    "--metrics-recording-only",
    "--mute-audio",
    "--no-default-browser-check",
    "--no-first-run",
    "--no-pings",
    "--password-store=basic",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AutofillServerCommunication,InterestFeedContentSuggestions",
    f"--js-flags=--max-old-space-size={HEAP_MB}",
    "--proxy-server=http://127.0.0.1:9",  # a dead proxy: a context without its own refusing proxy gets no network
    "--proxy-bypass-list=<-loopback>",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",  # WebRTC's UDP (STUN, ICE) goes round any proxy
)


class BrowserUnavailable(HostCompatError):
    """No usable browser: Playwright is not installed, or no Chromium executable was found or could start."""


def find_chromium() -> str:
    """The Chromium executable to drive.

    Raises:
        BrowserUnavailable: none found.
    """
    override = os.environ.get(CHROMIUM_ENV, "").strip()
    if override:
        if os.path.isfile(override) and os.access(override, os.X_OK):
            return override
        raise BrowserUnavailable(f"{CHROMIUM_ENV}={override!r} is not an executable file")
    for name in _NAMES:
        found = shutil.which(name)
        if found is not None:
            return found
    raise BrowserUnavailable(
        "no Chromium found (install the system's chromium package, or set HOSTCOMPAT_CHROMIUM to its executable)"
    )


def browser_status() -> str | None:
    """None when observed runs can work here, else why not (Playwright or Chromium missing)."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright; no browser download is needed)"
    try:
        find_chromium()
    except BrowserUnavailable as error:
        return str(error)
    return None


async def launch(playwright: Playwright) -> Browser:
    """Start headless Chromium with the observed-run flags.

    Raises:
        BrowserUnavailable: it could not start.
    """
    from playwright.async_api import Error as PlaywrightError

    executable = find_chromium()
    with tempfile.TemporaryDirectory(prefix="hostcompat-chromium-") as folder:
        try:
            return await playwright.chromium.launch(
                executable_path=_bounded(executable, Path(folder)),
                headless=True,
                args=list(LAUNCH_ARGS),
                timeout=60_000,
            )
        except PlaywrightError as error:
            raise BrowserUnavailable(f"Chromium ({executable}) did not start: {str(error).splitlines()[0]}") from error


def _bounded(executable: str, folder: Path) -> str:
    """A launcher in `folder` that starts `executable` with its writable memory bounded (`PROCESS_DATA_MB`, inherited
    by every process it starts); `executable` itself where there is no POSIX shell to set the limit.
    """
    if os.name != "posix" or not os.path.isfile("/bin/sh"):
        return executable
    launcher = folder / "chromium"
    launcher.write_text(f'#!/bin/sh\nulimit -d {PROCESS_DATA_MB * 1024}\nexec {shlex.quote(executable)} "$@"\n')
    launcher.chmod(0o700)
    return str(launcher)


__all__ = [
    "CHROMIUM_ENV",
    "HEAP_MB",
    "LAUNCH_ARGS",
    "PROCESS_DATA_MB",
    "BrowserUnavailable",
    "browser_status",
    "find_chromium",
    "launch",
]
