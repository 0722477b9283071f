"""The steps after the handshake: page through each listing and read each `ui://` resource, within the limits.

Requests go through the session (`ProbeSession`: the official client's, or the probe's own that does what it
does), one at a time; the result kept is the raw one the `Wire` recorded, so fields the SDK would sieve away survive
and a result the SDK rejects is still kept (with a finding). No step raises for anything a server does: it records
an event and says whether the probe can go on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any, Final

import anyio
from pydantic_core import ValidationError

from hostcompat._dataclass import dataclass
from hostcompat.probe._rpc import METHOD_NOT_FOUND as NOT_FOUND_CODE
from hostcompat.probe._rpc import REQUEST_TIMEOUT, ProbeSession, RpcError
from hostcompat.probe._wire import Wire
from hostcompat.probe.events import (
    BYTE_BUDGET,
    CONNECTION_CLOSED,
    CURSOR_REPEATED,
    ERROR_RESPONSE,
    INTERNAL_ERROR,
    INVALID_RESULT,
    ITEM_CAP,
    MALFORMED_RESULT,
    MESSAGE_TOO_LARGE,
    METHOD_NOT_FOUND,
    NESTING_TOO_DEEP,
    PAGE_CAP,
    RESOURCE_TRUNCATED,
    UI_RESOURCE_CAP,
    Coverage,
    Dimension,
    Step,
    timeout_code,
)
from hostcompat.probe.snapshot import UIResourceCapture

_MAX_ERRORS_SHOWN: Final = 5


@dataclass(frozen=True)
class Listing:
    """One paginated list method: the dimension it fills, its wire method, and the result key."""

    dimension: Dimension
    method: Step
    key: str


LISTINGS: Final = (
    Listing("tools", "tools/list", "tools"),
    Listing("resources", "resources/list", "resources"),
    Listing("resourceTemplates", "resources/templates/list", "resourceTemplates"),
    Listing("prompts", "prompts/list", "prompts"),
)


@dataclass
class Reply:
    """What one request came to: the raw result (if any), and whether the probe can carry on at all."""

    result: dict[str, Any] | None
    fatal: bool = False
    problem: dict[str, Any] = field(default_factory=dict)
    """For a failure: the server's error (`code`, `message`) or the probe's (`probe` event code, `message`)."""


def _validation_summary(error: ValidationError) -> list[str]:
    return [
        f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}"
        for item in error.errors(include_url=False)[:_MAX_ERRORS_SHOWN]
    ]


async def send(session: ProbeSession, method: Step, params: dict[str, Any] | None, wire: Wire) -> Reply:
    """Send one request with the step time limit; every outcome becomes a `Reply` (and, if bad, an event)."""
    wire.step = method
    if wire.closed:
        return Reply(None, fatal=True, problem={"probe": CONNECTION_CLOSED, "message": "connection closed"})
    if wire.over_budget:
        if not wire.has_event(BYTE_BUDGET):
            wire.event(BYTE_BUDGET, "warning", f"{wire.received_bytes} bytes received; later captures were skipped")
        return Reply(None, fatal=True, problem={"probe": BYTE_BUDGET, "message": "byte budget spent"})
    limit = wire.limits.step_timeout
    rejected: ValidationError | None = None
    with anyio.move_on_after(limit) as scope:
        try:
            await session.request(method, params)
        except ValidationError as error:
            rejected = error
        except RpcError as error:
            return _failed(error, method, wire)
        except Exception as error:  # the SDK's own surprises must not end the probe
            wire.event(INTERNAL_ERROR, "error", f"{method} failed inside the client: {type(error).__name__}: {error}")
            return Reply(None, problem={"probe": INTERNAL_ERROR, "message": str(error)})
    if scope.cancelled_caught:
        return _timed_out(method, wire)
    raw = wire.take_result(method)
    if raw is None:  # pragma: no cover - a result always passes the tee first
        return Reply(None, problem={"probe": INTERNAL_ERROR, "message": "no raw result recorded"})
    if rejected is not None:
        wire.event(
            INVALID_RESULT,
            "warning",
            f"the official client rejects this {method} result; it is kept as sent",
            {"errors": _validation_summary(rejected)},
        )
    return Reply(raw)


def _timed_out(method: Step, wire: Wire) -> Reply:
    limit = wire.limits.step_timeout
    wire.event(timeout_code(method), "error", f"no answer to {method} within {limit:g} s")
    return Reply(None, problem={"probe": timeout_code(method), "message": f"no answer within {limit:g} s"})


def _failed(error: RpcError, method: Step, wire: Wire) -> Reply:
    if wire.was_dropped(method):
        return Reply(None, problem={"probe": MESSAGE_TOO_LARGE, "message": "the reply was over the limit"})
    if wire.was_too_deep(method):
        return Reply(None, problem={"probe": NESTING_TOO_DEEP, "message": "the reply's nesting is too deep to read"})
    if wire.closed:
        return Reply(None, fatal=True, problem={"probe": CONNECTION_CLOSED, "message": "connection closed"})
    if error.code == REQUEST_TIMEOUT:
        return _timed_out(method, wire)
    if error.code == NOT_FOUND_CODE and method != "resources/read":
        optional = method == "resources/templates/list"  # often left out by servers that declare `resources`
        wire.event(
            METHOD_NOT_FOUND,
            "info" if optional else "warning",
            f"the server declares the capability but answers {method} with 'method not found'",
            {"code": error.code, "message": error.message},
        )
        return Reply(None, problem={"code": error.code, "message": error.message})
    wire.event(
        ERROR_RESPONSE,
        "error",
        f"the server answered {method} with error {error.code}: {error.message}",
        {"code": error.code, "message": error.message},
    )
    return Reply(None, problem={"code": error.code, "message": error.message})


@dataclass
class Gathered:
    """The items of one listing and how much of it they are."""

    items: list[Mapping[str, Any]] = field(default_factory=list)
    coverage: Coverage = "complete"
    fatal: bool = False


async def gather(session: ProbeSession, listing: Listing, wire: Wire, out: Gathered) -> Gathered:
    """Page through one listing into `out` (so an interrupted probe keeps what it got), within the limits."""
    limits = wire.limits
    cursor: str | None = None
    seen: set[str] = set()
    for _page in range(limits.max_pages):
        params = None if cursor is None else {"cursor": cursor}
        reply = await send(session, listing.method, params, wire)
        if reply.result is None:
            missing = reply.problem.get("code") == NOT_FOUND_CODE and not out.items
            out.coverage, out.fatal = ("not-declared" if missing else "failed"), reply.fatal
            return out
        if not _take_page(reply.result, listing, out, wire):
            return out
        cursor = reply.result.get("nextCursor")
        if cursor is None:
            return out
        if not isinstance(cursor, str) or cursor in seen:
            code, what = (CURSOR_REPEATED, "a cursor it sent before") if cursor in seen else (MALFORMED_RESULT, "")
            wire.event(code, "warning", f"{listing.method}: the server sent {what or 'a non-string cursor'}")
            out.coverage = "truncated"
            return out
        seen.add(cursor)
    wire.event(PAGE_CAP, "warning", f"{listing.method}: stopped after {limits.max_pages} pages")
    out.coverage = "truncated"
    return out


def _take_page(result: Mapping[str, Any], listing: Listing, out: Gathered, wire: Wire) -> bool:
    page = result.get(listing.key)
    if not isinstance(page, list):
        wire.event(MALFORMED_RESULT, "error", f"{listing.method}: the result has no {listing.key!r} list")
        out.coverage = "failed"
        return False
    objects = [item for item in page if isinstance(item, Mapping)]
    if len(objects) < len(page):
        wire.event(
            MALFORMED_RESULT,
            "warning",
            f"{listing.method}: {len(page) - len(objects)} item(s) are not objects and were left out",
        )
    room = wire.limits.max_items - len(out.items)
    out.items.extend(objects[:room])
    if len(objects) > room or wire.was_cut(listing.method):
        wire.event(ITEM_CAP, "warning", f"{listing.method}: stopped at {wire.limits.max_items} items")
        out.coverage = "truncated"
        return False
    return True


# --- ui:// resources ---------------------------------------------------------------------------------------------


def _blob_bytes(blob: str) -> int:
    return len(blob) * 3 // 4 - (len(blob) - len(blob.rstrip("=")))


def _cut_text(text: str, limit: int) -> str:
    return text.encode("utf-8", "surrogatepass")[:limit].decode("utf-8", "ignore")


def _cut_item(item: Mapping[str, Any], limit: int) -> tuple[dict[str, Any], int, bool]:
    copied = dict(item)
    text, blob = item.get("text"), item.get("blob")
    if isinstance(text, str):
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            copied["text"] = _cut_text(text, limit)
            return copied, size, True
        return copied, size, False
    if isinstance(blob, str):
        size = _blob_bytes(blob)
        if size > limit:
            copied["blob"] = blob[: (limit // 3) * 4]  # whole base64 quads, so the cut blob still decodes
            return copied, size, True
        return copied, size, False
    return copied, 0, False


def resource_capture(uri: str, refs: Sequence[str], reply: Reply, wire: Wire) -> UIResourceCapture:
    """A `UIResourceCapture` from one `resources/read` reply, texts and blobs cut to the per-resource limit."""
    if reply.result is None:
        dropped = reply.problem.get("probe") == MESSAGE_TOO_LARGE
        return UIResourceCapture(uri, error=reply.problem, truncated=dropped, referenced_by=tuple(refs))
    contents = reply.result.get("contents")
    if not isinstance(contents, list):
        wire.event(MALFORMED_RESULT, "error", f"resources/read {uri}: the result has no 'contents' list")
        problem = {"probe": MALFORMED_RESULT, "message": "no contents list"}
        return UIResourceCapture(uri, error=problem, referenced_by=tuple(refs))
    limit = wire.limits.max_bytes_per_resource
    kept: list[dict[str, Any]] = []
    total, cut = 0, False
    for item in contents[: wire.limits.max_items]:
        if not isinstance(item, Mapping):
            wire.event(MALFORMED_RESULT, "warning", f"resources/read {uri}: a contents item is not an object")
            continue
        copied, size, was_cut = _cut_item(item, limit)
        kept.append(copied)
        total, cut = total + size, cut or was_cut
    too_many = len(contents) > wire.limits.max_items
    if too_many:
        wire.event(ITEM_CAP, "warning", f"resources/read {uri}: stopped at {wire.limits.max_items} contents items")
    if cut:
        wire.event(
            RESOURCE_TRUNCATED,
            "warning",
            f"{uri}: {total} bytes, cut to {limit} bytes per item",
            {"uri": uri, "bytes": total, "limit": limit},
        )
    return UIResourceCapture(uri, tuple(kept), None, cut or too_many, total, tuple(refs))


async def read_ui_resources(
    session: ProbeSession, refs: Mapping[str, Sequence[str]], wire: Wire, captures: dict[str, UIResourceCapture]
) -> tuple[Coverage, bool]:
    """Read each referenced `ui://` resource (up to the limit) into `captures`; their coverage, and whether fatal."""
    limit = wire.limits.max_ui_resources
    uris = list(refs)
    coverage: Coverage = "complete"
    if len(uris) > limit:
        wire.event(UI_RESOURCE_CAP, "warning", f"{len(uris)} ui:// resources named; the first {limit} were read")
        uris, coverage = uris[:limit], "truncated"
    for uri in uris:
        reply = await send(session, "resources/read", {"uri": uri}, wire)
        captures[uri] = resource_capture(uri, refs[uri], reply, wire)
        if reply.result is None and "probe" in reply.problem:
            coverage = "failed"
        elif captures[uri].truncated and coverage == "complete":
            coverage = "truncated"
        if reply.fatal:
            return "failed", True
    return coverage, False


__all__ = [
    "Gathered",
    "LISTINGS",
    "Listing",
    "Reply",
    "gather",
    "read_ui_resources",
    "resource_capture",
    "send",
]
