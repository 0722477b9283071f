"""What one front session of the proxy remembers: who the client is, its rules, and which requests are in flight.

The relay shows every message to a `SessionTracker` and forwards what it hands back. The tracker does no I/O and
never mutates the messages it is shown: rewritten params and results are new objects (copy-on-write), everything
else comes back as the very same object.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from types import MappingProxyType
from typing import Any, TypeAlias, TypeGuard

from hostcompat._dataclass import dataclass
from hostcompat.clients.detect import (
    CLIENT_INFO_META_KEY,
    PROTOCOL_VERSION_META_KEY,
    ClientIdentity,
    detect_client,
)
from hostcompat.clients.rewrite import (
    EMPTY_SESSION,
    SessionProfile,
    SessionState,
    may_rewrite_result,
    plan_rewrites,
    rewrite_request,
    rewrite_result,
    with_server_capabilities,
)
from hostcompat.clients.rewrites.operations import OPERATIONS, REQUEST_METHODS, RequestOperation
from hostcompat.clients.rules import Rule
from hostcompat.errors import HostCompatError

RequestId: TypeAlias = int | str
"""A JSON-RPC request id (`1` and `"1"` are different ids)."""

PROGRESS_METHOD = "notifications/progress"
CANCELLED_METHOD = "notifications/cancelled"
INITIALIZE_METHOD = "initialize"
DISCOVER_METHOD = "server/discover"
_MAX_PROTOCOL_VERSION = 64
_NO_META: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True)
class Pending:
    """A client request the upstream has not answered yet: its method, its progress token, if any, and the rules of
    the client that sent it (its answer is rewritten for that client, whoever a later request names).
    """

    method: str
    progress_token: RequestId | None = None
    profile: SessionProfile | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Answer:
    """An upstream result on its way to the client: the request it answers and the result to send."""

    pending: Pending
    result: Any
    applied: tuple[str, ...] = ()


def is_request_id(value: object) -> TypeGuard[RequestId]:
    """Whether `value` may be a JSON-RPC request id: a string or an integer (a bool is neither)."""
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _is_object(value: object) -> TypeGuard[Mapping[str, Any]]:
    return type(value) is dict or isinstance(value, Mapping)  # a decoded object is a dict: skip the ABC check


def _meta(params: object) -> Mapping[str, Any]:
    if _is_object(params):
        meta = params.get("_meta")
        if meta is not None and _is_object(meta):
            return meta
    return _NO_META


def _progress_token(params: object) -> RequestId | None:
    token = _meta(params).get("progressToken")
    return token if is_request_id(token) else None


def _identity(message: Mapping[str, Any]) -> ClientIdentity | None:
    try:
        return detect_client(message)
    except HostCompatError:
        return None  # a malformed clientInfo is the server's business; the proxy just rewrites nothing


def _rewrites_requests(profile: SessionProfile) -> bool:
    return any(isinstance(OPERATIONS.get(rule.rewrite.op), RequestOperation) for rule in profile.rules)


def _same_client(left: ClientIdentity | None, right: ClientIdentity | None) -> bool:
    if left is None or right is None:
        return left is right
    return (left.name, left.version) == (right.name, right.version)


class SessionTracker:
    """The memory of one front session: identity, profile, rename state and the requests in flight.

    Methods take the plain parts of JSON-RPC messages (ids, method names, `params` and `result` objects) and return
    what to forward. They never raise on odd input: whatever the proxy does not understand passes through untouched.
    """

    def __init__(self, rules: Sequence[Rule] = (), *, max_pending: int = 10_000) -> None:
        self._rules = tuple(rules)
        self._max_pending = max_pending
        self.identity: ClientIdentity | None = None
        self.profile = SessionProfile(None)
        self._request_rules = False
        """Whether a rule of the profile may patch a request's params (else only renamed tools are routed)."""
        self.state: SessionState = EMPTY_SESSION
        self.protocol_version: str | None = None
        self._pending: dict[RequestId, Pending] = {}
        self._by_token: dict[RequestId, RequestId] = {}
        self.applied: dict[str, int] = {}
        """How many messages each rule changed in this session, by rule id."""

    # -- what the client sends -------------------------------------------------------------------------------

    def _observe_client(self, method: str, params: Any) -> None:
        if not _is_object(params):
            return
        if method == INITIALIZE_METHOD:
            found = _identity(params)
        else:
            meta = _meta(params)
            if meta.get(CLIENT_INFO_META_KEY) is None:
                return
            found = _identity(meta)
            version = meta.get(PROTOCOL_VERSION_META_KEY)
            if isinstance(version, str) and len(version) <= _MAX_PROTOCOL_VERSION:
                self.protocol_version = version
        if not _same_client(found, self.identity) or method == INITIALIZE_METHOD:
            self.identity = found
            self.profile = plan_rewrites(found, self._rules)
            self._request_rules = _rewrites_requests(self.profile)

    def is_full(self) -> bool:
        """Whether the session already has the most requests in flight it may have."""
        return len(self._pending) >= self._max_pending

    def client_request(self, request_id: RequestId, method: str, params: Any) -> Any:
        """Record a request on its way upstream; returns its params to forward (rewritten for tools/call)."""
        forwarded = self.request_params(method, params)
        self.record_request(request_id, method, params)
        return forwarded

    def request_params(self, method: str, params: Any) -> Any:
        """The params to forward for a client request (rewritten for tools/call), learning who the client is.

        The first half of `client_request`: a relay that writes the request before it records it calls this, then
        `record_request` with the same id, method and params.
        """
        if (  # the common case, as below in fewer steps: nothing to learn, nothing to rewrite
            type(params) is dict
            and params.get("_meta") is None
            and method != INITIALIZE_METHOD
            and not self._request_rules
            and (method != "tools/call" or not self.state.tool_names)
        ):
            return params
        self._observe_client(method, params)
        routes = method == "tools/call" and bool(self.state.tool_names)
        if method in REQUEST_METHODS and (self._request_rules or routes):
            rewritten = rewrite_request(method, params, self.profile, self.state)
            self._count(rewritten.applied)
            return rewritten.params
        return params

    def record_request(self, request_id: RequestId, method: str, params: Any) -> None:
        """Remember a request as in flight (the second half of `client_request`)."""
        old = self._pending.pop(request_id, None)
        if old is not None and old.progress_token is not None:
            self._by_token.pop(old.progress_token, None)
        if type(params) is dict and params.get("_meta") is None:  # the common case: no progress token
            self._pending[request_id] = Pending(method, None, self.profile)
            return
        token = _progress_token(params)
        self._pending[request_id] = Pending(method, token, self.profile)
        if token is not None:
            self._by_token[token] = request_id

    def client_notification(self, method: str, params: Any) -> RequestId | None:
        """Record a notification on its way upstream; for a cancellation, the id of the request it cancels."""
        if method != CANCELLED_METHOD or not isinstance(params, Mapping):
            return None
        request_id = params.get("requestId")
        if not is_request_id(request_id) or request_id not in self._pending:
            return None
        self.forget(request_id)
        return request_id

    # -- what the upstream sends -----------------------------------------------------------------------------

    def server_result(self, request_id: Any, result: Any, text: bytes | None = None) -> Answer | None:
        """The answer to forward for an upstream result, rewritten for this client; None for an id not in flight.

        An id not in flight was cancelled or timed out (the client already had its answer), or never existed:
        forwarding it would hand the client a duplicate or a stray response. `text`, the message as received
        (when the caller has it), lets a result no rule could change skip the rewrite (`may_rewrite_result`).
        """
        pending = self.forget(request_id)
        if pending is None:
            return None
        if pending.method in (INITIALIZE_METHOD, DISCOVER_METHOD) and isinstance(result, Mapping):
            version = result.get("protocolVersion")
            if isinstance(version, str) and len(version) <= _MAX_PROTOCOL_VERSION:
                self.protocol_version = version
            self.state = with_server_capabilities(self.state, result.get("capabilities"))
        profile = self.profile if pending.profile is None else pending.profile
        if not profile.rules or (text is not None and not may_rewrite_result(pending.method, text, profile)):
            return Answer(pending, result)
        rewritten = rewrite_result(pending.method, result, profile, self.state)
        self.state = rewritten.state
        self._count(rewritten.applied)
        return Answer(pending, rewritten.result, rewritten.applied)

    def server_error(self, request_id: Any) -> Pending | None:
        """The request an upstream error answers (now no longer in flight), or None for an id not in flight."""
        return self.forget(request_id)

    def related_request(self, method: str, params: Any, *, standalone_stream: bool) -> RequestId | None:
        """The client request an upstream notification or request belongs with, for transports that route by it.

        Progress goes with the request that asked for it. Anything else goes on the client's standalone stream
        when it has one, otherwise with the newest request still in flight (the call that most likely caused it).
        """
        if method == PROGRESS_METHOD and isinstance(params, Mapping):
            token = params.get("progressToken")
            found = self._by_token.get(token) if is_request_id(token) else None
            if found is not None:
                return found
        if standalone_stream or not self._pending:
            return None
        return next(reversed(self._pending))

    # -- bookkeeping -----------------------------------------------------------------------------------------

    def pending(self) -> Mapping[RequestId, Pending]:
        """The requests in flight, oldest first (a read-only snapshot)."""
        return dict(self._pending)

    def forget(self, request_id: Any) -> Pending | None:
        """Stop tracking a request (answered, cancelled or timed out); the request, or None if not in flight."""
        if type(request_id) is not str and type(request_id) is not int and not is_request_id(request_id):
            return None  # (the exact types first: the common case, without a call)
        pending = self._pending.pop(request_id, None)
        token = None if pending is None else pending.progress_token
        if token is not None and self._by_token.get(token) == request_id:
            del self._by_token[token]
        return pending

    def drain(self) -> list[tuple[RequestId, Pending]]:
        """Every request in flight, oldest first, and forget them all (the upstream is gone)."""
        drained = list(self._pending.items())
        self._pending.clear()
        self._by_token.clear()
        return drained

    def _count(self, rule_ids: tuple[str, ...]) -> None:
        for rule_id in rule_ids:
            self.applied[rule_id] = self.applied.get(rule_id, 0) + 1


__all__ = [
    "Answer",
    "CANCELLED_METHOD",
    "DISCOVER_METHOD",
    "INITIALIZE_METHOD",
    "PROGRESS_METHOD",
    "Pending",
    "RequestId",
    "SessionTracker",
    "is_request_id",
]
