"""`HostContext`: what the host tells the view about where it renders (theme, display mode, size, locale, …).

The object is open: unknown keys are kept. `ui/notifications/host-context-changed` carries a partial one,
which the view merges into what it has with `merge_host_context`.
"""

from __future__ import annotations

from dataclasses import field
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.apps.bridge._wire import FieldReader, copied, no_extra, text_list, wire_object
from hostcompat.wire_json import WireJSON, WireObject

DISPLAY_MODES: Final = ("inline", "fullscreen", "pip")
"""The display modes the protocol names. Parsing keeps any string, so a newer mode still reads."""

THEMES: Final = ("light", "dark")
"""The themes the protocol names (read as any string)."""

PLATFORMS: Final = ("web", "desktop", "mobile")
"""The platforms the protocol names (read as any string)."""


@dataclass(frozen=True, slots=True)
class HostContext:
    """The host's rendering context (`McpUiHostContext`); every field is optional.

    Nested objects (`toolInfo`, `styles`, `containerDimensions`, …) are kept as plain mappings: they are
    checked to be objects, not modeled further. Enumerated strings (`theme`, `displayMode`, `platform`) are
    checked to be strings only, so a value a newer host adds still reads.
    """

    tool_info: WireJSON | None = None
    """`toolInfo`: `{id?, tool}`, the tool call this view renders."""
    theme: str | None = None
    """`theme`: one of `THEMES`."""
    styles: WireJSON | None = None
    """`styles`: `{variables?, css?}`, CSS custom properties and fonts."""
    display_mode: str | None = None
    """`displayMode`: one of `DISPLAY_MODES`."""
    available_display_modes: tuple[str, ...] | None = None
    """`availableDisplayModes`: the modes the host can switch to."""
    container_dimensions: WireJSON | None = None
    """`containerDimensions`: `height`/`maxHeight`, `width`/`maxWidth` in px."""
    locale: str | None = None
    """`locale`: a BCP 47 tag."""
    time_zone: str | None = None
    """`timeZone`: an IANA zone name."""
    user_agent: str | None = None
    """`userAgent`."""
    platform: str | None = None
    """`platform`: one of `PLATFORMS`."""
    device_capabilities: WireJSON | None = None
    """`deviceCapabilities`: `{touch?, hover?}`."""
    safe_area_insets: WireJSON | None = None
    """`safeAreaInsets`: `{top, right, bottom, left}`."""
    extra: WireJSON = field(default_factory=no_extra)
    """Keys this model does not know, kept verbatim."""

    @classmethod
    def from_wire(cls, data: object, where: str = "hostContext") -> HostContext:
        """Read a host context object; a field of the wrong type fails naming it."""
        fields = FieldReader(data, where)
        return cls(
            tool_info=fields.opt_object("toolInfo"),
            theme=fields.opt_text("theme"),
            styles=fields.opt_object("styles"),
            display_mode=fields.opt_text("displayMode"),
            available_display_modes=fields.opt_text_list("availableDisplayModes"),
            container_dimensions=fields.opt_object("containerDimensions"),
            locale=fields.opt_text("locale"),
            time_zone=fields.opt_text("timeZone"),
            user_agent=fields.opt_text("userAgent"),
            platform=fields.opt_text("platform"),
            device_capabilities=fields.opt_object("deviceCapabilities"),
            safe_area_insets=fields.opt_object("safeAreaInsets"),
            extra=fields.rest(),
        )

    def to_wire(self) -> WireObject:
        """The JSON object, with only the fields that are set."""
        return wire_object(
            {
                "toolInfo": copied(self.tool_info),
                "theme": self.theme,
                "styles": copied(self.styles),
                "displayMode": self.display_mode,
                "availableDisplayModes": text_list(self.available_display_modes),
                "containerDimensions": copied(self.container_dimensions),
                "locale": self.locale,
                "timeZone": self.time_zone,
                "userAgent": self.user_agent,
                "platform": self.platform,
                "deviceCapabilities": copied(self.device_capabilities),
                "safeAreaInsets": copied(self.safe_area_insets),
            },
            self.extra,
        )


def merge_host_context(current: HostContext, change: HostContext) -> HostContext:
    """The context after a `host-context-changed` notification: each top-level key `change` sets replaces
    the one in `current` (a shallow merge); keys it leaves out stay as they were.
    """
    return HostContext.from_wire({**current.to_wire(), **change.to_wire()})


__all__ = [
    "DISPLAY_MODES",
    "HostContext",
    "PLATFORMS",
    "THEMES",
    "merge_host_context",
]
