"""From what the probe saw to catalog facts: each one a level the evidence decides, with a note saying why. Pure.

A request the host refused (a JSON-RPC error, or no answer in time) is `unsupported`; one it answered is
`supported` where the view can see the effect (a tool called, a resource read, a mode switched) or where only the
host's acceptance matters (a link, a download). `ui/message` and `ui/update-model-context` reach the model, which
the view cannot see: they count as supported only once the model called `probe_confirm` with the token they
carried, and stay undecided (no fact, a line in the summary) until then.
"""

from __future__ import annotations

from collections.abc import Mapping

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.schema import DISPLAY_MODES, SANDBOX_PERMISSIONS
from hostcompat.probekit.report import Answer, ViewReport
from hostcompat.probekit.widget import DISPLAY_MODES as REQUESTED_MODES

FEATURES = "ui.mcpApps.features."
NO_REPORT = (
    "No widget report yet: if none comes, the host did not render the probe's widget, or did not pass its "
    "tools/call to the server."
)


@dataclass(frozen=True)
class Observed:
    """One fact the probe decided: its catalog path, value, a note, and the trigger it bites on (if any)."""

    path: str
    value: str | tuple[str, ...]
    note: str
    trigger: str | None = None


@dataclass(frozen=True)
class Derived:
    """The facts decided, and the lines of what stayed undecided or is worth saying but is no catalog fact."""

    facts: tuple[Observed, ...]
    remarks: tuple[str, ...]


def _level(answer: Answer | None) -> str | None:
    if answer is None or answer.outcome == "sent":
        return None
    return "supported" if answer.answered else "unsupported" if answer.refused else "partial"


def _how(method: str, answer: Answer) -> str:
    if answer.outcome == "error":
        return f"{method}: the host answered error {answer.code}"
    if answer.outcome == "timeout":
        return f"{method}: no answer within the view's time limit"
    return f"{method}: the host answered" + (" isError: true" if answer.is_error else "")


def _request_facts(view: ViewReport, confirmed: frozenset[str], out: list[Observed], remarks: list[str]) -> None:
    requests = view.requests
    echo = requests.get("tools/call:app")
    if echo is not None:
        level = _level(echo)
        if level == "supported" and echo.echoed != view.tokens.get("echo"):
            level = "partial"
        note = _how("tools/call to the app-only tool probe_echo", echo)
        out.append(Observed(FEATURES + "serverTools", level or "unknown", note))
    read = requests.get("resources/read")
    if read is not None:
        level = _level(read) or "unknown"
        note = _how("resources/read of the probe's widget", read)
        if level == "supported" and not read.has_contents:
            level, note = "partial", note + " with no contents"
        out.append(Observed(FEATURES + "serverResources", level, note))
    for need, method, effect in (
        ("openLinks", "ui/open-link", "whether a page opened is not visible to the view"),
        ("downloadFile", "ui/download-file", "whether a file was saved is not visible to the view"),
    ):
        answer = requests.get(method)
        if answer is not None:
            level = "unsupported" if answer.refused else "supported"  # isError: the user may have declined
            note = _how(method, answer) + (f"; {effect}" if level == "supported" else "")
            out.append(Observed(FEATURES + need, level, note))
    for need, method in (("message", "ui/message"), ("updateModelContext", "ui/update-model-context")):
        answer = requests.get(method)
        if answer is None:
            continue
        token = view.tokens.get(method)
        if answer.refused:
            out.append(Observed(FEATURES + need, "unsupported", _how(method, answer)))
        elif token is not None and token in confirmed:
            note = f"{method}: the host answered and the model called probe_confirm with the token it carried"
            out.append(Observed(FEATURES + need, "supported", note))
        else:
            remarks.append(f"{method}: accepted, but the model never confirmed its token (undecided, no fact)")
    modes = {mode: requests.get(f"ui/request-display-mode:{mode}") for mode in REQUESTED_MODES}
    answered = {mode: answer for mode, answer in modes.items() if answer is not None}
    if answered:
        switched = [mode for mode, answer in answered.items() if answer.answered and answer.mode == mode]
        any_answer = any(answer.answered for answer in answered.values())
        detail = ", ".join(f"{mode}: {answer.mode or answer.outcome}" for mode, answer in answered.items())
        out.append(
            Observed(
                FEATURES + "requestDisplayMode",
                "supported" if any_answer else "unsupported",
                f"ui/request-display-mode per mode asked → mode granted ({detail})",
            )
        )
        if any_answer:
            granted = tuple(mode for mode in DISPLAY_MODES if mode in switched or mode == "inline")
            out.append(Observed("ui.mcpApps.displayModes", granted, f"modes the host switched to ({detail})"))
    guard = requests.get("tools/call:model-only")
    if guard is not None and guard.answered:
        remarks.append("the host forwarded the view's call to a model-only tool: visibility is no guard here")


def _delivery_facts(view: ViewReport, nonce: str | None, out: list[Observed]) -> None:
    out.append(
        Observed(
            FEATURES + "toolInput",
            "supported" if view.tool_input else "unsupported",
            "ui/notifications/tool-input reached the view"
            if view.tool_input
            else "no ui/notifications/tool-input reached the view before its checks",
        )
    )
    if not view.tool_result:
        note = "no ui/notifications/tool-result reached the view within 4 s"
        out.append(Observed(FEATURES + "toolResult", "unsupported", note))
    elif view.structured_content and (nonce is None or view.nonce == nonce):
        out.append(Observed(FEATURES + "toolResult", "supported", "the tool result reached the view whole"))
    else:
        stripped = "structuredContent" + (" and _meta" if not view.result_meta else "")
        note = f"the tool result reached the view without its {stripped}; a view reading content alone still works"
        out.append(Observed(FEATURES + "toolResult", "partial", note, "widget-result-structured-not-in-text"))
    if view.initialized:
        has_info = "toolInfo" in view.context_keys
        note = "hostContext.toolInfo " + ("present" if has_info else "absent") + " in the ui/initialize answer"
        out.append(Observed(FEATURES + "toolInfo", "supported" if has_info else "unsupported", note))
        logging = "logging" in view.host_capabilities
        note = "hostCapabilities " + ("declares" if logging else "does not declare") + " logging"
        out.append(Observed(FEATURES + "logging", "supported" if logging else "unsupported", note))


def _csp_facts(declared: ViewReport | None, plain: ViewReport | None, out: list[Observed], remarks: list[str]) -> None:
    names = {"connect": "cspConnectDomains", "resource": "cspResourceDomains", "frame": "cspFrameDomains"}
    for kind, need in names.items():
        undeclared = [view.csp.get(f"{kind}:undeclared") for view in (declared, plain) if view is not None]
        if "allowed" in undeclared:
            remarks.append(f"CSP {kind}: an undeclared origin was not refused (the host does not enforce it)")
        state = declared.csp.get(f"{kind}:declared") if declared is not None else None
        if state is None:
            continue
        note = f"a {kind} request to the declared origin was " + (
            "refused by the CSP" if state == "blocked" else "not refused"
        )
        if "blocked" in undeclared:
            note += "; one to an undeclared origin was refused"
        out.append(Observed(FEATURES + need, "unsupported" if state == "blocked" else "supported", note))


def _permission_facts(
    declared: ViewReport | None, plain: ViewReport | None, out: list[Observed], remarks: list[str]
) -> None:
    if plain is not None:
        granted = [name for name, allowed in plain.policy.items() if allowed]
        if granted:
            remarks.append(f"permissions granted without being declared: {', '.join(sorted(granted))}")
        if plain.clipboard == "ok":
            remarks.append("the clipboard was written without the clipboardWrite permission")
    if declared is None:
        return
    if declared.policy:
        allowed = tuple(name for name in SANDBOX_PERMISSIONS if declared.policy.get(name))
        note = "the view's permissions policy with all four declared: " + (", ".join(allowed) or "none") + " allowed"
        out.append(Observed("ui.mcpApps.sandboxPermissionAllow", allowed, note))
        out.append(Observed(FEATURES + "sandboxPermissions", "supported" if allowed else "unsupported", note))
    if declared.clipboard:
        remarks.append(f"clipboard write with the permission declared: {declared.clipboard}")


def derive_facts(
    views: Mapping[str, ViewReport], *, confirmed: frozenset[str] = frozenset(), nonce: str | None = None
) -> Derived:
    """The facts the views' reports decide (`views` by variant), `confirmed` the tokens the model sent back and
    `nonce` the one the server put in its tool results' structuredContent.
    """
    out: list[Observed] = []
    remarks: list[str] = []
    declared, plain = views.get("declared"), views.get("plain")
    first = declared or plain
    if first is None:
        return Derived((), (NO_REPORT,))
    note = "the probe's widget ran and reported back through an app-only tool call"
    out.append(Observed("ui.formats.mcp-apps", "supported", note))
    if declared is not None:
        _request_facts(declared, confirmed, out, remarks)
    _delivery_facts(first, nonce, out)
    _csp_facts(declared, plain, out, remarks)
    _permission_facts(declared, plain, out, remarks)
    return Derived(tuple(out), tuple(remarks))


__all__ = ["FEATURES", "NO_REPORT", "Derived", "Observed", "derive_facts"]
