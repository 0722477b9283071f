"""Apply a session's client rules to plain-JSON MCP results and tools/call requests, copy-on-write.

`plan_rewrites` picks the rules for a client once per session; `rewrite_result` applies them to each
result. Nothing is mutated: the input itself comes back when no rule changes it, otherwise only the
containers on the changed paths are new. Renamed tools are remembered in a `SessionState` (a value,
returned anew) so `rewrite_request` can route a tools/call for the new name to the real tool.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from functools import cached_property
from types import MappingProxyType
from typing import Any, TypeGuard

from hostcompat._dataclass import dataclass
from hostcompat.clients.detect import ClientIdentity
from hostcompat.clients.rewrites.copy_on_write import with_key
from hostcompat.clients.rewrites.operations import (
    OPERATIONS,
    REQUEST_METHODS,
    RESULT_METHODS,
    TRIGGERS,
    RenameOperation,
    RequestOperation,
    ResultOperation,
)
from hostcompat.clients.rewrites.tool_catalog import Renamed, RenameStep, rename_tools
from hostcompat.clients.rules import Rule
from hostcompat.wire_json import WireJSON

MAX_REMEMBERED_RENAMES = 10_000
"""The most renamed tools a session remembers (the oldest are forgotten first)."""

_NO_NAMES: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True)
class SessionProfile:
    """The rules that apply to one client session (enabled, and naming this client and version)."""

    identity: ClientIdentity | None
    rules: tuple[Rule, ...] = ()

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The ids of the planned rules, in rule-file order."""
        return tuple(rule.id for rule in self.rules)

    @cached_property
    def _result_plans(self) -> dict[str, _ResultPlan]:
        """Result method -> the rules that act on its results (filled in on first use; a speed-up only)."""
        return {}

    @property
    def renames_tools(self) -> bool:
        """Whether a rule of this profile renames tools (so a tools/call may need routing back)."""
        return bool(self._result_plan("tools/list").renames)

    def _result_plan(self, method: str) -> _ResultPlan:
        plans = self._result_plans
        plan = plans.get(method)
        if plan is None:  # at most one per result method
            plan = plans[method] = _plan_results(self.rules, method)
        return plan


@dataclass(frozen=True)
class _ResultPlan:
    """The rules of a profile that act on one method's results, in rule-file order, with their operations, and
    the words one of which a result must hold for any of them to change it (None: any result may change).
    """

    patches: tuple[tuple[Rule, ResultOperation], ...]
    renames: tuple[tuple[Rule, RenameOperation], ...]
    needles: tuple[bytes, ...] | None = None


def _plan_results(rules: tuple[Rule, ...], method: str) -> _ResultPlan:
    patches: list[tuple[Rule, ResultOperation]] = []
    renames: list[tuple[Rule, RenameOperation]] = []
    for rule in rules:
        operation = OPERATIONS.get(rule.rewrite.op)
        if method not in rule.methods or operation is None:
            continue
        if isinstance(operation, RenameOperation):
            renames.append((rule, operation))
        elif isinstance(operation, ResultOperation):
            patches.append((rule, operation))
    needles: set[bytes] | None = set()
    for _, operation in patches:
        if needles is None or operation.needles is None:
            needles = None
        else:
            needles.update(needle.encode("ascii") for needle in operation.needles)
    if renames:  # renames run over every page, and keep the session's names
        needles = None
    return _ResultPlan(tuple(patches), tuple(renames), None if needles is None else tuple(sorted(needles)))


@dataclass(frozen=True)
class SessionState:
    """What a session must remember between messages: exposed tool name -> the server's tool name, and the
    server's capabilities once the session has seen them (a trigger may need them; None: not known).
    """

    tool_names: Mapping[str, str] = field(default_factory=lambda: _NO_NAMES)
    server_capabilities: WireJSON | None = field(default=None, hash=False)


EMPTY_SESSION = SessionState()
"""The state of a session before its first tools/list."""


@dataclass(frozen=True)
class Rewrite:
    """A rewritten result, the session state after it, and the ids of the rules that changed something."""

    result: Any
    state: SessionState
    applied: tuple[str, ...] = ()


@dataclass(frozen=True)
class RequestRewrite:
    """Rewritten request params and the ids of the rules that changed them (routing a renamed tool is not a rule)."""

    params: Any
    applied: tuple[str, ...] = ()


def _is_object(value: object) -> TypeGuard[Mapping[str, Any]]:
    return type(value) is dict or isinstance(value, Mapping)  # a decoded object is a dict: skip the ABC check


def plan_rewrites(identity: ClientIdentity | None, rules: Iterable[Rule]) -> SessionProfile:
    """The rules for this client: enabled ones whose client name and version range match `identity`.

    No identity (the client said nothing) or a client no rule names gets an empty profile: no rewrite.
    """
    if identity is None:
        return SessionProfile(None)
    return SessionProfile(identity, tuple(rule for rule in rules if rule.applies_to(identity)))


def _rename_step(rule: Rule, operation: RenameOperation) -> RenameStep:
    params = rule.rewrite.params

    def transform(name: str) -> str:
        return operation.transform(name, params)

    budget = params.get(operation.budget_param) if operation.budget_param else None
    return RenameStep(rule.id, transform, budget if isinstance(budget, int) else None)


def _remember(state: SessionState, renamed: Renamed) -> SessionState:
    stale_exposed = renamed.kept_names & state.tool_names.keys()
    if not renamed.exposed_to_original and not stale_exposed:
        return state
    originals = set(renamed.exposed_to_original.values())
    names = {
        exposed: original
        for exposed, original in state.tool_names.items()
        if exposed not in renamed.kept_names and original not in originals
    }
    names.update(renamed.exposed_to_original)
    if len(names) > MAX_REMEMBERED_RENAMES:
        names = dict(list(names.items())[-MAX_REMEMBERED_RENAMES:])
    if names == state.tool_names:
        return state
    return SessionState(MappingProxyType(names), state.server_capabilities)


def rewrite_result(method: str, result: Any, profile: SessionProfile, state: SessionState = EMPTY_SESSION) -> Rewrite:
    """Apply the profile's rules to the result of `method`; `Rewrite.result is result` when none changed it.

    Total over JSON: a result of an unexpected shape is passed through untouched, never an error.
    Rules run in rule-file order; tool renames run last, over the whole page, and update the state.
    """
    if not profile.rules or method not in RESULT_METHODS or not _is_object(result):
        return Rewrite(result, state)
    plan = profile._result_plan(method)
    current: Mapping[str, Any] = result
    applied: set[str] = set()
    for rule, operation in plan.patches:
        trigger = rule.trigger
        if not TRIGGERS[trigger.kind].fires(method, current, trigger.params, state.server_capabilities):
            continue
        patched = operation.patch(method, current, rule.rewrite.params)
        if patched is not current:
            applied.add(rule.id)
            current = patched
    if plan.renames:
        steps = [_rename_step(rule, operation) for rule, operation in plan.renames]
        renamed = rename_tools(current, steps, state.tool_names)
        current = renamed.result
        applied.update(renamed.applied)
        state = _remember(state, renamed)
    if not applied:
        return Rewrite(current, state)
    return Rewrite(current, state, tuple(rule_id for rule_id in profile.rule_ids if rule_id in applied))


def may_rewrite_result(method: str, text: bytes, profile: SessionProfile) -> bool:
    """Whether a rule of `profile` could change the result of `method` that `text`, JSON as received, holds.

    False only when that is certain without decoding: every rule acting on the method's results names the words
    it needs (`ResultOperation.needles`), none of them occurs in `text`, and `text` holds no `\\u` escape (which
    could spell one). `text` may hold more than the result, the whole JSON-RPC message say: more text can only
    answer True. When False, `rewrite_result` would hand back the result itself, the state unchanged.
    """
    if not profile.rules or method not in RESULT_METHODS:
        return False
    plan = profile._result_plans.get(method) or profile._result_plan(method)  # planned once: no call after that
    needles = plan.needles
    if needles is None:
        return True
    if not needles:
        return False
    for needle in needles:  # a loop, not any(): this runs for every result
        if needle in text:
            return True
    return b"\\u" in text


def with_server_capabilities(state: SessionState, capabilities: object) -> SessionState:
    """`state` knowing the server's capabilities (an `initialize` or `server/discover` result's `capabilities`).

    Anything but an object is ignored (the state comes back as it was).
    """
    if not _is_object(capabilities):
        return state
    return SessionState(state.tool_names, MappingProxyType(dict(capabilities)))


def resolve_tool_name(state: SessionState, name: str) -> str:
    """The server's name for a tool the client calls `name` (itself when it was never renamed)."""
    return state.tool_names.get(name, name)


def rewrite_request(
    method: str, params: Any, profile: SessionProfile, state: SessionState = EMPTY_SESSION
) -> RequestRewrite:
    """Route and clean an incoming request: a renamed tool's name goes back to the server's, request rules apply.

    `RequestRewrite.params is params` when nothing changed; params of an unexpected shape pass through.
    """
    if method not in REQUEST_METHODS or not _is_object(params):
        return RequestRewrite(params)
    current: Mapping[str, Any] = params
    name = params.get("name")
    if method == "tools/call" and isinstance(name, str):
        original = resolve_tool_name(state, name)
        if original != name:
            current = with_key(current, "name", original)
    applied: list[str] = []
    for rule in profile.rules:
        operation = OPERATIONS.get(rule.rewrite.op)
        if method not in rule.methods or not isinstance(operation, RequestOperation):
            continue
        patched = operation.patch(method, current, rule.rewrite.params)
        if patched is not current:
            applied.append(rule.id)
            current = patched
    return RequestRewrite(current, tuple(applied))


_METHOD_BY_KEY = (
    ("tools", "tools/list"),
    ("content", "tools/call"),
    ("structuredContent", "tools/call"),
    ("resourceTemplates", "resources/templates/list"),
    ("resources", "resources/list"),
    ("contents", "resources/read"),
    ("prompts", "prompts/list"),
    ("messages", "prompts/get"),
)


def infer_method(result: Any) -> str | None:
    """The method a bare result most likely answers, from its keys (`tools` -> tools/list, …), or None."""
    if not isinstance(result, Mapping):
        return None
    for key, method in _METHOD_BY_KEY:
        if key in result:
            return method
    return None


__all__ = [
    "EMPTY_SESSION",
    "MAX_REMEMBERED_RENAMES",
    "RequestRewrite",
    "Rewrite",
    "SessionProfile",
    "SessionState",
    "infer_method",
    "may_rewrite_result",
    "plan_rewrites",
    "resolve_tool_name",
    "rewrite_request",
    "rewrite_result",
    "with_server_capabilities",
]
