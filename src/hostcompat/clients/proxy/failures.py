"""The JSON-RPC errors the proxy itself answers with, worded so a person knows what happened upstream.

An upstream that exits, drops the connection, floods or stalls must never leave a client waiting: each request in
flight gets one of these errors instead. Pure values; the relay sends them. They name the failure, never the
upstream's credentials: the command line and URL are redacted, and the stderr tail and error texts lose every secret
value the upstream was given (`StdioUpstream.redactor`, `HttpUpstream.redactor`).
"""

from __future__ import annotations

import signal
from typing import Any, TypedDict

from hostcompat._dataclass import dataclass
from hostcompat.clients.proxy.config import HttpUpstream, ProxyConfig, StdioUpstream
from hostcompat.wire_json import WireObject

CONNECTION_CLOSED = -32000
"""The upstream went away before answering (the code the MCP SDKs use for a closed connection)."""

REQUEST_TIMEOUT = -32001
"""The upstream did not answer in time (the code the MCP SDKs use for a request timeout)."""

PROXY_OVERLOADED = -32010
"""Too many requests in flight on one session."""

INTERNAL_ERROR = -32603
"""The upstream's answer reached the proxy but could not be read (not UTF-8, nested too deeply)."""

INVALID_REQUEST = -32600
"""A client request that is JSON with a readable id, but no valid JSON-RPC request."""
PARSE_ERROR = -32700
"""A client message that is not JSON-RPC (or is too large to read)."""

PREFIX = "hostcompat proxy: "
MAX_STDERR_TAIL = 2000
"""The most characters of the upstream's last stderr output quoted in an error."""


class ErrorObject(TypedDict, total=False):
    """A JSON-RPC error object: `code`, `message` and optional `data`."""

    code: int
    message: str
    data: Any


@dataclass(frozen=True)
class UpstreamEnd:
    """How an upstream session ended: a sentence for people, plus the exit status and stderr when known."""

    summary: str
    exit_code: int | None = None
    stderr_tail: str = ""

    def data(self) -> WireObject:
        """The structured part of the error (`data`), for programs."""
        out: dict[str, Any] = {"reason": self.summary}
        if self.exit_code is not None:
            out["exitCode"] = self.exit_code
        if self.stderr_tail:
            out["stderr"] = self.stderr_tail
        return out


def describe_exit(returncode: int | None) -> str:
    """`exited with code 3`, `was killed by SIGKILL`, or `closed its output but is still running`."""
    if returncode is None:
        return "closed its output but is still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"was killed by {name}"
    return f"exited with code {returncode}"


def process_ended(upstream: StdioUpstream, returncode: int | None, stderr_tail: str = "") -> UpstreamEnd:
    """The end of a stdio upstream, from its exit status (None: still running) and the tail of its stderr (its
    start may be cut off: a secret it splits is redacted too).
    """
    tail = upstream.redactor().tail(stderr_tail).strip()[-MAX_STDERR_TAIL:]
    return UpstreamEnd(f"the upstream server ({upstream.describe()}) {describe_exit(returncode)}", returncode, tail)


def connection_ended(upstream: HttpUpstream, problem: str = "") -> UpstreamEnd:
    """The end of an HTTP upstream: the connection failed or was closed, and why if known."""
    because = f": {upstream.redactor().text(problem)}" if problem else ""
    return UpstreamEnd(f"the connection to the upstream server ({upstream.describe()}) was lost{because}")


def oversized(limit: int) -> UpstreamEnd:
    """The end of an upstream that sent a message over the size limit."""
    return UpstreamEnd(f"the upstream server sent a message over {limit} bytes, so the proxy closed the session")


def ended_error(method: str, end: UpstreamEnd) -> ErrorObject:
    """The error for a request in flight when the upstream ended."""
    message = f"{PREFIX}{end.summary} before answering {method}"
    if end.stderr_tail:
        last_line = end.stderr_tail.splitlines()[-1][:300]
        message += f" (last stderr line: {last_line})"
    return {"code": CONNECTION_CLOSED, "message": message, "data": end.data()}


def timeout_error(method: str, seconds: float) -> ErrorObject:
    """The error for a request the upstream left unanswered, with no progress, for `seconds`."""
    message = (
        f"{PREFIX}the upstream server did not answer {method} within {seconds:g} s and sent no progress; "
        "the request was cancelled upstream"
    )
    return {"code": REQUEST_TIMEOUT, "message": message, "data": {"reason": "timeout", "seconds": seconds}}


def unreadable_reply_error(method: str, problem: str) -> ErrorObject:
    """The error for a request whose answer from the upstream could not be read (`problem`: "is not valid UTF-8")."""
    message = f"{PREFIX}the upstream server's answer to {method} {problem}, so it could not be passed on"
    return {"code": INTERNAL_ERROR, "message": message, "data": {"reason": "unreadable", "problem": problem}}


def undrained_error(method: str, seconds: float) -> ErrorObject:
    """The error for a request still unanswered `seconds` after the client closed its input (the proxy stopped)."""
    message = f"{PREFIX}no answer to {method} within {seconds:g} s of the client closing its input; the proxy stopped"
    return {"code": REQUEST_TIMEOUT, "message": message, "data": {"reason": "closing", "seconds": seconds}}


def overloaded_error(method: str, limit: int) -> ErrorObject:
    """The error for a request over the session's limit of requests in flight."""
    message = f"{PREFIX}{limit} requests are already in flight on this session; {method} was not sent upstream"
    return {"code": PROXY_OVERLOADED, "message": message, "data": {"reason": "overloaded", "limit": limit}}


def invalid_request_error(problem: str) -> ErrorObject:
    """The error (with the request's own id) for a request the proxy could read but not relay."""
    return {"code": INVALID_REQUEST, "message": f"{PREFIX}{problem}"}


def unreadable_error(problem: str) -> ErrorObject:
    """The error (with a null id) for a client message the proxy could not read."""
    return {"code": PARSE_ERROR, "message": f"{PREFIX}{problem}"}


def _leaves(error: BaseException) -> list[BaseException]:
    inner = getattr(error, "exceptions", None)  # an exception group (a builtin only from Python 3.11)
    if isinstance(inner, (list, tuple)) and inner:
        return [leaf for each in inner if isinstance(each, BaseException) for leaf in _leaves(each)]
    return [error]


def describe_failure(config: ProxyConfig, error: BaseException, *, started: bool = False) -> UpstreamEnd:
    """The end of an upstream that failed with `error`: it could not start (`started` false: command not found,
    connection refused) or its transport broke mid-session.
    """
    leaf = _leaves(error)[0]
    problem = f"{type(leaf).__name__}: {leaf}" if str(leaf) else type(leaf).__name__
    target = config.upstream
    if isinstance(target, StdioUpstream):
        what = "failed" if started else "could not be run"
        return UpstreamEnd(f"the upstream server ({target.describe()}) {what}: {target.redactor().text(problem)}")
    return connection_ended(target, problem)


def cancel_params(request_id: int | str, reason: str) -> WireObject:
    """The params of the `notifications/cancelled` the proxy sends upstream for a request it gave up on."""
    return {"requestId": request_id, "reason": f"{PREFIX}{reason}"}


__all__ = [
    "CONNECTION_CLOSED",
    "ErrorObject",
    "INTERNAL_ERROR",
    "INVALID_REQUEST",
    "MAX_STDERR_TAIL",
    "PARSE_ERROR",
    "PREFIX",
    "PROXY_OVERLOADED",
    "REQUEST_TIMEOUT",
    "UpstreamEnd",
    "cancel_params",
    "connection_ended",
    "describe_exit",
    "describe_failure",
    "ended_error",
    "invalid_request_error",
    "overloaded_error",
    "oversized",
    "process_ended",
    "timeout_error",
    "undrained_error",
    "unreadable_error",
    "unreadable_reply_error",
]
