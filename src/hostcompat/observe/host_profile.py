"""The bridge a catalog host speaks, as data for the test host page: capabilities, context, what it refuses.

Pure. `emulate_host(profile)` reads the host's `ui.mcpApps.*` facts and says, for every view→host method, whether
this host answers it, refuses it, accepts and drops it, or proxies it to the server; a feature the catalog does not
know is neither offered nor answered, and the run says so (`unknown`) instead of guessing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS
from hostcompat.engine.catalog.host_context import HostContext, holds_in
from hostcompat.engine.catalog.model import HostProfile, QuirkRef
from hostcompat.engine.verdicts.conditions import compare_versions
from hostcompat.wire_json import WireJSON, WireObject

FEATURES: Final = "ui.mcpApps.features."
DISPLAY_MODES: Final = "ui.mcpApps.displayModes"
APPS_PROTOCOL_VERSIONS: Final = "ui.mcpApps.protocolVersions"
"""The MCP Apps protocol versions a host answers ui/initialize with (the spec's own list when the catalog is silent)."""
DEFAULT_CONTEXT_KEYS: Final = ("theme", "locale", "timeZone", "containerDimensions", "safeAreaInsets")
"""hostContext fields no catalog fact gives: the test host sends neutral values and the run lists them as assumed."""
PLATFORMS: Final = "platforms"

METHOD_NEEDS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "tools/call": "serverTools",
        "tools/list": "serverTools",
        "resources/read": "serverResources",
        "resources/list": "serverResources",
        "resources/templates/list": "serverResources",
        "notifications/message": "logging",
        "sampling/createMessage": "sampling",
        "ui/open-link": "openLinks",
        "ui/download-file": "downloadFile",
        "ui/message": "message",
        "ui/update-model-context": "updateModelContext",
        "ui/request-display-mode": "requestDisplayMode",
        "ui/notifications/size-changed": "sizeChanged",
        "ui/notifications/request-teardown": "requestTeardown",
    }
)
"""View→host method → the widget need (and catalog feature) it uses."""

PROXIED: Final = frozenset({"tools/call", "tools/list", "resources/read", "resources/list", "resources/templates/list"})
"""Requests a host forwards to the MCP server (answered by the runner's server side)."""

_CAPABILITY_KEYS: Final = {
    "openLinks": ("openLinks", {}),
    "serverTools": ("serverTools", {"listChanged": True}),
    "serverResources": ("serverResources", {"listChanged": True}),
    "logging": ("logging", {}),
    "downloadFile": ("downloadFile", {}),
    "updateModelContext": ("updateModelContext", {"text": {}}),
    "message": ("message", {"text": {}}),
    "sampling": ("sampling", {}),
}
"""Catalog feature → the `hostCapabilities` key (and value) a host offering it sends."""

QUIRK_REPLAYS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "claude-desktop-tool-result-strips-structured": "stripStructuredContent",
        "chatgpt-first-widget-no-tool-result": "noToolResult",
        "vscode-ui-message-prefills-input": "messagePrefillOnly",
        "claude-update-model-context-dropped": "dropUpdateModelContext",
    }
)
"""Catalog quirk id → what the test host page does to replay it: strip structuredContent and _meta from the
tool-result notification; send no tool result; answer ui/message without sending it; accept
ui/update-model-context and drop it. A quirk is replayed when it holds in the judged context and for the judged
version: between its `since` and `fixedIn` versions when a version is given, else when no fixed version is known."""

METHOD_NOT_FOUND: Final = -32601
REFUSED: Final = -32000


@dataclass(frozen=True)
class EmulatedHost:
    """One host's side of the bridge.

    `policy` maps each view→host method with a need to `answer` (supported), `drop` (partial: accepted, `{}`, and
    nothing happens), `refuse` (unsupported: the JSON-RPC error hosts without the handler send) or `unknown` (the
    catalog does not say: refused like `refuse`, and reported as unknown). `display_modes` are the modes the host
    offers (`inline` alone when the catalog does not say, listed in `assumed`).
    """

    host_id: str
    label: str
    host_capabilities: WireJSON = field(hash=False)
    display_modes: tuple[str, ...]
    platform: str
    policy: Mapping[str, str] = field(hash=False)
    unknown: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()
    replayed: tuple[str, ...] = ()
    """The catalog quirks (ids of `QUIRK_REPLAYS`) this emulation replays."""
    protocol_versions: tuple[str, ...] = SUPPORTED_PROTOCOL_VERSIONS
    version: str | None = None
    """The host version judged (`--host-version`), which decided the quirks replayed; None: the current one."""
    sources: Mapping[str, str] = field(default_factory=dict, hash=False)
    """Replayed quirk id → its catalog source and date."""

    @property
    def knobs(self) -> dict[str, bool]:
        """The host page's quirk switches for the replayed quirks."""
        return {QUIRK_REPLAYS[quirk]: True for quirk in self.replayed}

    @property
    def signature(self) -> tuple[Any, ...]:
        """Equal for hosts whose emulated bridges behave alike (observed once, cited for each)."""
        return (
            repr(sorted(self.host_capabilities.items())),
            self.display_modes,
            self.platform,
            tuple(sorted(self.policy.items())),
            self.replayed,
            self.protocol_versions,
        )

    def page_config(self) -> WireObject:
        """The JSON the test host page reads: initialize answer parts and the answer policy per method."""
        return {
            "hostInfo": {"name": f"{self.label} (hostcompat emulation)", "version": "0"},
            "hostCapabilities": dict(self.host_capabilities),
            "displayModes": list(self.display_modes),
            "platform": self.platform,
            "policy": dict(self.policy),
            "proxied": sorted(PROXIED),
            "protocolVersions": list(self.protocol_versions),
            "latestProtocolVersion": self.protocol_versions[0] if self.protocol_versions else LATEST_PROTOCOL_VERSION,
            "errors": {"refuse": METHOD_NOT_FOUND, "denied": REFUSED},
        }


def emulate_host(
    profile: HostProfile, *, version: str | None = None, context: HostContext | None = None
) -> EmulatedHost:
    """The bridge `profile` speaks, from its catalog facts, at `version` (None: the current one) in `context`
    (None: the common path).
    """
    capabilities: dict[str, Any] = {}
    policy: dict[str, str] = {}
    unknown: list[str] = []
    for method, need in METHOD_NEEDS.items():
        level = _level(profile, need)
        if level == "unknown" and need in ("sizeChanged", "requestDisplayMode"):
            level = "supported"  # every spec host follows size changes and answers mode requests (its current one)
        policy[method] = {"supported": "answer", "partial": "drop", "unsupported": "refuse"}.get(level, "unknown")
        if level == "unknown" and need not in unknown:
            unknown.append(need)
    for need, (key, value) in _CAPABILITY_KEYS.items():
        if _level(profile, need) in ("supported", "partial"):
            capabilities[key] = value
    modes_fact = profile.facts.get(DISPLAY_MODES)
    assumed: list[str] = []
    if modes_fact is not None and isinstance(modes_fact.value, tuple) and modes_fact.value:
        modes = tuple(str(mode) for mode in modes_fact.value)
    else:
        modes = ("inline",)
        assumed.append("displayModes")
    platforms = profile.facts.get(PLATFORMS)
    platform_values = platforms.value if platforms is not None and isinstance(platforms.value, tuple) else ()
    platform = next((p for p in ("web", "desktop", "mobile") if p in platform_values), "web")
    replayed_quirks = [quirk for quirk in profile.quirks if replays(quirk, version, context or HostContext())]
    replayed = tuple(quirk.id for quirk in replayed_quirks)
    versions_fact = profile.facts.get(APPS_PROTOCOL_VERSIONS)
    if versions_fact is not None and isinstance(versions_fact.value, tuple) and versions_fact.value:
        protocol_versions = tuple(str(item) for item in versions_fact.value)
    else:
        protocol_versions = SUPPORTED_PROTOCOL_VERSIONS
        assumed.append("protocolVersion")
    assumed.append("hostContext." + "/".join(DEFAULT_CONTEXT_KEYS))
    if "claude-update-model-context-dropped" in replayed and policy["ui/update-model-context"] == "answer":
        policy["ui/update-model-context"] = "drop"
    return EmulatedHost(
        host_id=profile.id,
        label=profile.display_name,
        host_capabilities=MappingProxyType(capabilities),
        display_modes=modes,
        platform=platform,
        policy=MappingProxyType(policy),
        unknown=tuple(unknown),
        assumed=tuple(assumed),
        replayed=replayed,
        protocol_versions=protocol_versions,
        version=version,
        sources=MappingProxyType({quirk.id: f"{quirk.source} ({quirk.date})" for quirk in replayed_quirks}),
    )


def replays(quirk: QuirkRef, version: str | None, context: HostContext) -> bool:
    """Whether the test host replays `quirk` for the host at `version` in `context`."""
    if quirk.id not in QUIRK_REPLAYS or not holds_in(quirk, context):
        return False
    if version is None:
        return quirk.fixed_in is None
    if quirk.fixed_in is not None and compare_versions(version, quirk.fixed_in) >= 0:
        return False
    return quirk.since is None or compare_versions(version, quirk.since) >= 0


def _level(profile: HostProfile, need: str) -> str:
    fact = profile.facts.get(FEATURES + need)
    return "unknown" if fact is None else str(fact.value)


def renders_mcp_apps(profile: HostProfile) -> bool:
    """Whether the catalog says the host renders MCP Apps at all (supported or partly)."""
    fact = profile.facts.get("ui.formats.mcp-apps")
    return fact is not None and fact.value in ("supported", "partial")


__all__ = [
    "METHOD_NEEDS",
    "PROXIED",
    "QUIRK_REPLAYS",
    "EmulatedHost",
    "emulate_host",
    "renders_mcp_apps",
    "replays",
]
