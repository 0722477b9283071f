"""`--as-host ID`: probe a server the way a catalog host would meet it, to see what the server does for that host.

Servers adapt to their client: some read `clientInfo.name`, most check whether the client advertised the MCP Apps
extension. The catalog knows both for many hosts (`clientInfoNames`, `ui.formats.mcp-apps`); this turns them into the
probe's `client_info` and `advertise`. Pure: the caller loads the catalog and the client rules.

The `clientInfo.version` sent is the host version asked for (`--host-version ID=VERSION`), else the newest version
the sources name for the host (the versions its facts and quirks hold since or until, and the bounds of the client
rules for its clientInfo names): the catalog records no release number, and the newest version a source names is the
closest to the current one it knows, so version-ranged rules (`>=0.14.0`) can be tried.
"""

from __future__ import annotations

from collections.abc import Mapping

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.model import HostProfile
from hostcompat.probe.options import MCP_APPS, Advertise
from hostcompat.with_proxy import CLIENT_NAMES_FACT, client_for_host, known_version

MCP_APPS_FORMAT_FACT = "ui.formats.mcp-apps"
CLIENT_VERSION = "0"
"""The `clientInfo.version` sent with `--client-name`, and as a host no source names a version of."""


@dataclass(frozen=True)
class Presentation:
    """How the probe presents itself as a host: what it advertises, the `clientInfo` it sends, and a note for the
    user when the catalog could not say something (the probe's own name is sent then).
    """

    advertise: Advertise
    client_info: Mapping[str, str] | None
    note: str | None = None


def present_as(host: HostProfile, version: str | None = None) -> Presentation:
    """The MCP Apps extension only if the catalog says the host renders MCP Apps (fully or partly), and the first
    `clientInfo` name the catalog records for it, with `version` (`CLIENT_VERSION` when None).
    """
    renders = host.level(MCP_APPS_FORMAT_FACT) in ("supported", "partial")
    advertise: Advertise = MCP_APPS if renders else None
    names = host.fact(CLIENT_NAMES_FACT)
    if names is None or not isinstance(names.value, tuple) or not names.value:
        note = f"the catalog has no clientInfo name for {host.display_name}: the probe sends its own"
        return Presentation(advertise, None, note)
    return Presentation(advertise, {"name": names.value[0], "version": version or CLIENT_VERSION})


__all__ = ["CLIENT_VERSION", "Presentation", "client_for_host", "known_version", "present_as"]
