"""The behavioural rules over one run's record: from what the widget did under an emulated host to an `ObservedRun`
the engine cites (status, methods sent, needs reached and refused, the `OBS-…` rules that fired). Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final
from urllib.parse import urlsplit

from hostcompat.engine.server.observed import ObservedIssue, ObservedRun
from hostcompat.observe.host_profile import METHOD_NEEDS, EmulatedHost
from hostcompat.observe.record import BridgeMessage, RunRecord

REFUSAL_WINDOW_MS: Final = 2_000
"""An uncaught error this soon after a refused request counts as the view failing on the refusal."""

EXT_APPS_CHECKS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "OBS-INIT-001": "APP-100 (sends ui/initialize)",
        "OBS-INIT-003": "APP-100 (ui/initialize with appCapabilities)",
        "OBS-INIT-002": "APP-101 (sends initialized)",
        "OBS-JSONRPC-001": "APP-102 (well-formed JSON-RPC)",
        "OBS-SIZE-001": "APP-103 (size-changed, a warning)",
        "OBS-APPTOOLS-001": "APP-104 (answers tools/list when it declares tools)",
        "OBS-MODE-001": "APP-105 (display-mode requests within availableDisplayModes)",
    }
)
"""The ext-apps validator's behavioural check (APP-100…106, open PR #722, src/validator/rules.ts @15688f93) each
rule matches, numbered in the order the validator's doc lists its checks (the number of each check is not in the
sources read; APP-106 was not identified). The other OBS rules have no validator counterpart."""

APP_TOOLS_REQUEST_ID: Final = "hostcompat-tools-list"
"""The id of the tools/list request the host page sends a view that declares app tools."""


def run_status(record: RunRecord) -> str:
    """How the run ended (one of `engine.observed.RUN_STATUSES`)."""
    if record.failure is not None:
        return "failed"
    if record.crashed:
        return "crashed"
    if record.flooded:
        return "flooded"
    if record.timed_out:
        return "timeout"
    if record.painted is False:
        return "blank"
    if not any(message.method == "ui/initialize" for message in record.sent()):
        return "no-bridge"
    return "rendered"


def judge_run(
    record: RunRecord,
    host: EmulatedHost,
    *,
    uri: str,
    tools: Sequence[str],
    model_only_tools: Iterable[str] = (),
    declared_origins: Sequence[str] = (),
) -> ObservedRun:
    """The engine's view of one run of the widget `uri` (shown by `tools`) under `host`."""
    sent = record.sent()
    methods = tuple(dict.fromkeys(message.method for message in sent if message.method is not None))
    needs = [METHOD_NEEDS[method] for method in methods if method in METHOD_NEEDS]
    if _answered_app_tools(sent):
        needs.append("appTools")
    reached = tuple(dict.fromkeys(needs))
    errors = _refusals(record)
    refusals = [(method, at) for method, at in errors if _host_refuses(host, method)]
    server_errors = [method for method, _ in errors if not _host_refuses(host, method)]
    refused = tuple(dict.fromkeys(METHOD_NEEDS[method] for method, _ in refusals if method in METHOD_NEEDS))
    issues: list[ObservedIssue] = []
    offline = [url for url in record.network if declared_origins and origin_declared(url, declared_origins)]
    notes: list[str] = []
    if offline:
        notes.append(
            f"It reached for origins it declares ({', '.join(dict.fromkeys(_origin(url) for url in offline[:3]))}); "
            "observed runs are offline, so what depends on them was not seen."
        )
    if record.failure is None:
        issues.extend(_bridge_issues(record, sent, host, frozenset(model_only_tools), offline=bool(offline)))
        issues.extend(_refusal_issues(record, refusals))
        issues.extend(_ending_issues(record, declared_origins))
    notes.extend([*_after_refusal(record, refusals), *_quirk_effects(host, record, methods), *_unknowns(host, reached)])
    if server_errors:
        notes.append(
            f"The server side answered {', '.join(dict.fromkeys(server_errors))} with an error (from the snapshot: "
            "what it asked for was not captured)."
        )
    return ObservedRun(
        host_id=host.host_id,
        uri=uri,
        tools=tuple(tools),
        seconds=record.seconds,
        status=run_status(record),
        methods=methods[:256],
        reached=reached,
        refused=refused,
        issues=tuple(issues),
        explored=record.explored > 0,
        notes=tuple(notes),
        offered=offered_needs(host),
    )


def offered_needs(host: EmulatedHost) -> tuple[str, ...]:
    """The needs the emulated host answers or accepts (each once, in `METHOD_NEEDS` order)."""
    return tuple(
        dict.fromkeys(need for method, need in METHOD_NEEDS.items() if host.policy.get(method) in ("answer", "drop"))
    )


def _after_refusal(record: RunRecord, refusals: list[tuple[str, int]]) -> list[str]:
    """What the view did after the first refusal: an uncaught error (also OBS-REFUSE-001), an error it logged, or
    nothing visible.
    """
    if not refusals:
        return []
    method, at = refusals[0]
    errors = [text for when, text in record.page_errors if at <= when <= at + REFUSAL_WINDOW_MS]
    if errors:
        return [f"After {method} was refused the view threw: {errors[0].splitlines()[0][:200]}."]
    logged = [text for kind, text in record.console if kind == "error"]
    if logged:
        return [f"After {method} was refused the view logged: {logged[0].splitlines()[0][:200]} and went on."]
    return [f"After {method} was refused the view went on without an error."]


def _quirk_effects(host: EmulatedHost, record: RunRecord, methods: tuple[str, ...]) -> list[str]:
    """What each replayed quirk did to this view, when the view's behaviour triggered it."""
    notes = []
    results = [m for m in record.messages if m.direction == "out" and m.method == "ui/notifications/tool-result"]
    initialized = "ui/notifications/initialized" in methods
    if "chatgpt-first-widget-no-tool-result" in host.replayed and initialized and not results:
        notes.append("Replayed quirk chatgpt-first-widget-no-tool-result: the view got no tool result.")
    if "claude-desktop-tool-result-strips-structured" in host.replayed and results:
        notes.append(
            "Replayed quirk claude-desktop-tool-result-strips-structured: the tool result the view got had no "
            "structuredContent or _meta."
        )
    if "claude-update-model-context-dropped" in host.replayed and "ui/update-model-context" in methods:
        notes.append(
            "Replayed quirk claude-update-model-context-dropped: ui/update-model-context was accepted and dropped."
        )
    if "vscode-ui-message-prefills-input" in host.replayed and "ui/message" in methods:
        notes.append(
            "Replayed quirk vscode-ui-message-prefills-input: ui/message was answered but only pre-fills the input; "
            "nothing is sent."
        )
    return notes


def _unknowns(host: EmulatedHost, reached: tuple[str, ...]) -> list[str]:
    unknown = [need for need in reached if need in host.unknown]
    notes = []
    if unknown:
        notes.append(
            f"The catalog does not say whether {host.label} offers {', '.join(unknown)}: the emulation refused it."
        )
    if host.replayed:
        quirks = "; ".join(f"{quirk} ({host.sources.get(quirk, 'catalog')})" for quirk in host.replayed)
        version = f" {host.version}" if host.version else ""
        notes.append(f"Replayed {host.label}{version}'s catalog quirks: {quirks}.")
    assumed = []
    if "displayModes" in host.assumed:
        assumed.append("display modes (inline only was offered)")
    if "protocolVersion" in host.assumed:
        assumed.append(f"the MCP Apps protocol version ({', '.join(host.protocol_versions)}, the spec's)")
    assumed.extend(
        item.replace("/", ", ") + " (neutral values)" for item in host.assumed if item.startswith("hostContext.")
    )
    if assumed:
        notes.append(f"Not in the catalog for {host.label}, so assumed: {'; '.join(assumed)}.")
    return notes


def timings(record: RunRecord) -> dict[str, int | None]:
    """Milliseconds from the run's start to ui/initialize, ui/notifications/initialized and the first size-changed,
    and from the widget frame's start to its first paint (None: not seen).
    """
    first: dict[str, int | None] = {
        "initialize": None,
        "initialized": None,
        "sizeChanged": None,
        "firstPaint": record.first_paint_ms,
    }
    names = {
        "ui/initialize": "initialize",
        "ui/notifications/initialized": "initialized",
        "ui/notifications/size-changed": "sizeChanged",
    }
    for message in record.sent():
        key = names.get(message.method or "")
        if key is not None and first[key] is None:
            first[key] = message.at_ms
    return first


def _refusals(record: RunRecord) -> list[tuple[str, int]]:
    """(method, time) of each view request the host answered with an error."""
    asked: dict[Any, str] = {}
    out: list[tuple[str, int]] = []
    for message in record.messages:
        summary = message.summary or {}
        if message.direction == "in" and message.is_request:
            asked[_key(summary.get("id"))] = message.method or ""
        elif message.direction == "out" and message.is_error and "method" not in summary:
            method = asked.get(_key(summary.get("id")))
            if method is not None:
                out.append((method, message.at_ms))
    return out


def _host_refuses(host: EmulatedHost, method: str) -> bool:
    """Whether the emulated host itself refuses `method` (not the server behind it)."""
    if method in ("ui/initialize", "ping"):
        return False
    return host.policy.get(method, "refuse") in ("refuse", "unknown")


def _answered_app_tools(sent: list[BridgeMessage]) -> bool:
    return any(
        (message.summary or {}).get("id") == APP_TOOLS_REQUEST_ID and "method" not in (message.summary or {})
        for message in sent
    )


def _key(value: object) -> str:
    return repr(value)


def _bridge_issues(
    record: RunRecord, sent: list[BridgeMessage], host: EmulatedHost, model_only: frozenset[str], *, offline: bool
) -> list[ObservedIssue]:
    issues: list[ObservedIssue] = []
    initialize = next((message for message in sent if message.method == "ui/initialize"), None)
    stopped = record.crashed or record.timed_out
    if initialize is None:
        if not stopped and not offline:  # a view waiting on its declared origins is undecided offline
            issues.append(ObservedIssue("OBS-INIT-001", f"no ui/initialize in {record.seconds:.1f} s"))
    else:
        params = initialize.params()
        app_capabilities = params.get("appCapabilities") if isinstance(params, dict) else None
        if isinstance(params, dict) and not isinstance(app_capabilities, dict):
            issues.append(ObservedIssue("OBS-INIT-003", "ui/initialize carried no appCapabilities object"))
        if not any(message.method == "ui/notifications/initialized" for message in sent):
            issues.append(
                ObservedIssue("OBS-INIT-002", "ui/initialize was answered, but ui/notifications/initialized never came")
            )
        elif not any(message.method == "ui/notifications/size-changed" for message in sent):
            issues.append(ObservedIssue("OBS-SIZE-001", f"no ui/notifications/size-changed in {record.seconds:.1f} s"))
        declares_tools = isinstance(app_capabilities, dict) and app_capabilities.get("tools") not in (None, False)
        if declares_tools and not _answered_app_tools(sent):
            issues.append(ObservedIssue("OBS-APPTOOLS-001", "appCapabilities declares tools; tools/list got no answer"))
        issues.extend(_mode_issues(sent, host, app_capabilities))
    invalid = [message for message in sent if message.valid is False]
    if invalid:
        example = invalid[0].summary or {}
        shape = {key: example[key] for key in ("shape", "jsonrpc", "method") if key in example}
        issues.append(ObservedIssue("OBS-JSONRPC-001", f"{len(invalid)} message(s) not JSON-RPC 2.0, first {shape}"))
    for message in sent:
        if message.method == "tools/call":
            params = message.params()
            name = params.get("name") if isinstance(params, dict) else None
            if isinstance(name, str) and name in model_only:
                issues.append(ObservedIssue("OBS-VIS-001", f"tools/call {name!r}, a tool visible to the model only"))
                break
    return issues


def _mode_issues(sent: list[BridgeMessage], host: EmulatedHost, app_capabilities: object) -> list[ObservedIssue]:
    declared = app_capabilities.get("availableDisplayModes") if isinstance(app_capabilities, dict) else None
    declared_modes = [mode for mode in declared if isinstance(mode, str)] if isinstance(declared, list) else None
    for message in sent:
        if message.method != "ui/request-display-mode":
            continue
        params = message.params()
        mode = params.get("mode") if isinstance(params, dict) else None
        if declared_modes is not None and mode not in declared_modes:
            return [ObservedIssue("OBS-MODE-001", f"requested {mode!r}, declared only {declared_modes}")]
        if mode not in host.display_modes:
            return [ObservedIssue("OBS-MODE-001", f"requested {mode!r}; the host offers {list(host.display_modes)}")]
    return []


def _refusal_issues(record: RunRecord, refusals: list[tuple[str, int]]) -> list[ObservedIssue]:
    for method, at in refusals:
        after = [text for when, text in record.page_errors if at <= when <= at + REFUSAL_WINDOW_MS]
        if after:
            return [ObservedIssue("OBS-REFUSE-001", f"{method} was refused, then: {after[0][:300]}")]
    return []


def _ending_issues(record: RunRecord, declared_origins: Sequence[str]) -> list[ObservedIssue]:
    issues: list[ObservedIssue] = []
    if record.crashed:
        issues.append(ObservedIssue("OBS-HOSTILE-001", "the widget's renderer crashed (out of memory or killed)"))
    elif record.timed_out:
        issues.append(
            ObservedIssue("OBS-HOSTILE-001", f"stopped after {record.seconds:.1f} s: its script never yielded")
        )
    elif record.flooded:
        issues.append(ObservedIssue("OBS-HOSTILE-001", "sent more messages than the host accepts; the rest ignored"))
    if record.painted is False and not (record.crashed or record.timed_out):
        issues.append(ObservedIssue("OBS-RENDER-001", f"the frame stayed blank for {record.seconds:.1f} s"))
    undeclared = [url for url in record.network if not origin_declared(url, declared_origins)]
    if undeclared:
        origins = list(dict.fromkeys(_origin(url) for url in undeclared))[:5]
        issues.append(ObservedIssue("OBS-NET-001", f"requested {', '.join(origins)} (blocked)"))
    return issues


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else url[:100]


def origin_declared(url: str, declared: Sequence[str]) -> bool:
    """Whether `url`'s origin is one of the CSP sources `declared` (an origin, or `https://*.example.com`)."""
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    host = (parts.hostname or "").lower()
    for source in declared:
        wanted = urlsplit(source if "://" in source else f"{parts.scheme}://{source}")
        if wanted.scheme and wanted.scheme != parts.scheme:
            continue
        pattern = (wanted.hostname or "").lower()
        if pattern.startswith("*."):
            if host.endswith(pattern[1:]) and host != pattern[2:]:
                return True
        elif host == pattern and (wanted.port is None or wanted.port == parts.port):
            return True
    return False


__all__ = [
    "APP_TOOLS_REQUEST_ID",
    "EXT_APPS_CHECKS",
    "REFUSAL_WINDOW_MS",
    "judge_run",
    "offered_needs",
    "origin_declared",
    "run_status",
    "timings",
]
