"""Which asyncio event loop the proxy runs on: uvloop when it is installed (the `fast` extra), else the standard one.

A relayed message costs the proxy a few event-loop turns (a readable pipe, a write), and uvloop's turns are cheaper
than the standard loop's: a smaller share of a round trip, which `bench/bench_proxy.py` prints side by side. Both
loops run the same code: the choice is an option, not a code path.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Final, Literal, TypedDict

from hostcompat.errors import InvalidInput

LoopChoice = Literal["auto", "asyncio", "uvloop"]
LOOP_CHOICES: Final[tuple[LoopChoice, ...]] = ("auto", "asyncio", "uvloop")
"""`auto` picks uvloop when it can be imported, `asyncio` the standard loop, `uvloop` insists on uvloop."""


def uvloop_available() -> bool:
    """Whether uvloop can be imported here (it is not built for Windows)."""
    return sys.platform != "win32" and importlib.util.find_spec("uvloop") is not None


class LoopOptions(TypedDict, total=False):
    """The `backend_options` of `anyio.run` for the asyncio backend that this module sets."""

    use_uvloop: bool


def loop_options(choice: str, *, uvloop_installed: bool) -> LoopOptions:
    """The `backend_options` for `anyio.run` that give the chosen loop.

    Raises:
        InvalidInput: an unknown choice, or `uvloop` asked for where it is not installed.
    """
    if choice not in LOOP_CHOICES:
        raise InvalidInput(f"unknown event loop {choice!r}; expected one of: {', '.join(LOOP_CHOICES)}", value=choice)
    if choice == "asyncio" or (choice == "auto" and not uvloop_installed):
        return {}
    if not uvloop_installed:
        raise InvalidInput("uvloop is not installed: pip install 'mcp-hostcompat[fast]', or use --loop asyncio")
    return {"use_uvloop": True}


__all__ = ["LOOP_CHOICES", "LoopChoice", "LoopOptions", "loop_options", "uvloop_available"]
