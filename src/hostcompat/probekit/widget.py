"""The probe's widget: one HTML page shipped in the package, in two variants that differ only in what they declare.

The `declared` variant declares a CSP origin per directive (`connectDomains`, `resourceDomains`, `frameDomains`)
and every sandbox permission, and tries every bridge request; the `plain` variant declares nothing, so the host's
default policy applies and the view can see whether undeclared origins and permissions are refused. The origins
are under `.invalid` (RFC 2606): they never resolve, so the probe reaches no third party, and a CSP refusal shows
as a `securitypolicyviolation` event before any network. Pure, but for reading the shipped page.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final, Literal

from hostcompat.apps.constants import LATEST_PROTOCOL_VERSION
from hostcompat.apps.meta.model import ResourceUI
from hostcompat.apps.meta.sandbox import ResourceCSP, ResourcePermissions
from hostcompat.wire_json import WireObject

Variant = Literal["declared", "plain"]
VARIANTS: Final[tuple[Variant, ...]] = ("declared", "plain")

WIDGET_URIS: Final[dict[Variant, str]] = {
    "declared": "ui://hostcompat-probe/declared.html",
    "plain": "ui://hostcompat-probe/plain.html",
}
"""The `ui://` resource of each variant."""

SHOW_TOOL: Final = "probe_host"
"""Model-visible: shows the declared variant (the one a user asks the model to run)."""
SHOW_PLAIN_TOOL: Final = "probe_host_plain"
"""Model-visible: shows the plain variant (the second run, for the host's default policy)."""
ECHO_TOOL: Final = "probe_echo"
"""App-only: the view calls it to see whether the host forwards its tools/call."""
MODEL_ONLY_TOOL: Final = "probe_model_only"
"""Model-only (`visibility: ["model"]`): a host that guards visibility refuses the view's call."""
REPORT_TOOL: Final = "probe_report"
"""App-only: the view sends what it saw."""
CONFIRM_TOOL: Final = "probe_confirm"
"""Model-visible: the model calls it with a token it read in a ui/message or ui/update-model-context."""

_INVALID: Final = "probe.hostcompat.invalid"
ORIGINS: Final[dict[str, dict[str, str]]] = {
    kind: {"declared": f"https://{kind}-declared.{_INVALID}", "undeclared": f"https://{kind}-undeclared.{_INVALID}"}
    for kind in ("connect", "resource", "frame")
}
"""Per CSP check, the origin the declared variant names and one nobody names."""

DISPLAY_MODES: Final = ("fullscreen", "pip", "inline")
"""The modes the view asks for, in order (inline last, so the view ends where it started)."""
LINK: Final = "https://modelcontextprotocol.io/extensions/apps/overview"
"""The page `ui/open-link` asks the host to open."""


@cache
def _template() -> str:
    return resources.files("hostcompat.probekit").joinpath("widget.html").read_text(encoding="utf-8")


def widget_config(variant: Variant, kit_version: str) -> WireObject:
    """What the page reads from its configuration block."""
    return {
        "kit": kit_version,
        "variant": variant,
        "uri": WIDGET_URIS[variant],
        "protocolVersion": LATEST_PROTOCOL_VERSION,
        "origins": ORIGINS,
        "modes": list(DISPLAY_MODES),
        "link": LINK,
        "tools": {
            "echo": ECHO_TOOL,
            "modelOnly": MODEL_ONLY_TOOL,
            "report": REPORT_TOOL,
            "confirm": CONFIRM_TOOL,
            "plain": SHOW_PLAIN_TOOL,
        },
        "timeoutMs": 5000,
        "resultWaitMs": 4000,
        "cspWaitMs": 4000,
    }


def widget_html(variant: Variant, kit_version: str) -> str:
    """The page of `variant`, its configuration escaped so no text in it can close the script element."""
    text = json.dumps(widget_config(variant, kit_version), ensure_ascii=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return _template().replace("__PROBE_CONFIG__", text)


def widget_ui(variant: Variant) -> ResourceUI:
    """The resource `_meta.ui` of `variant`: the declared one names an origin per directive and every permission."""
    if variant == "plain":
        return ResourceUI(prefers_border=True)
    return ResourceUI(
        prefers_border=True,
        csp=ResourceCSP(
            connect_domains=(ORIGINS["connect"]["declared"],),
            resource_domains=(ORIGINS["resource"]["declared"],),
            frame_domains=(ORIGINS["frame"]["declared"],),
        ),
        permissions=ResourcePermissions(camera=True, microphone=True, geolocation=True, clipboard_write=True),
    )


__all__ = [
    "CONFIRM_TOOL",
    "DISPLAY_MODES",
    "ECHO_TOOL",
    "LINK",
    "MODEL_ONLY_TOOL",
    "ORIGINS",
    "REPORT_TOOL",
    "SHOW_PLAIN_TOOL",
    "SHOW_TOOL",
    "VARIANTS",
    "WIDGET_URIS",
    "Variant",
    "widget_config",
    "widget_html",
    "widget_ui",
]
