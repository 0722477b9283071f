"""What is known about a server beyond its tool list: the host APIs its widgets use, and its connection's facts.

Both are passed through requirement derivation to the verdicts. They read and write MCPJam's JSON shapes
(`WidgetUsage`, `ConnectionFacts`) so data from either tool can be compared or replayed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireJSON, WireObject

WIDGET_NEEDS: Final = (
    "serverTools",
    "serverResources",
    "message",
    "updateModelContext",
    "openLinks",
    "downloadFile",
    "sandboxPermissions",
    "cspFrameDomains",
    "logging",
)

"""MCPJam's nine widget capability needs, in the order its verdicts check them. Other need names are kept too."""

SANDBOX_PERMISSION_NAMES_KEY: Final = "sandboxPermissionNames"
SANDBOX_PERMISSION_TOOLS_KEY: Final = "sandboxPermissionTools"
GUARDED_CALLS_KEY: Final = "guardedCalls"
"""hostcompat's addition to MCPJam's JSON shape: need → the tools whose every use of it is a guarded call."""

MAX_USAGE_NAMES: Final = 10_000
"""The most tool (or permission) names one need or permission may list."""
MAX_NEEDS: Final = 256
"""The most distinct needs (or permissions) a usage may hold."""
MAX_FACT_CHARS: Final = 1024
"""The longest string a connection fact may hold."""

_NEED_NAME: Final = regex(r"\A[A-Za-z][A-Za-z0-9_.-]{0,63}\Z")
_EMPTY: Final[Mapping[str, tuple[str, ...]]] = MappingProxyType({})


def _empty() -> Mapping[str, tuple[str, ...]]:
    return _EMPTY


@dataclass(frozen=True)
class WidgetUsage:
    """Which tools' widgets use which host capability (MCPJam's `WidgetUsage`).

    `needs` maps a need (see `WIDGET_NEEDS`) to tool names; `sandbox_permission_names` lists the exact
    permissions requested (None = not known) and `sandbox_permission_tools` maps each to the tools asking for it.
    `guarded` (hostcompat's addition) maps a need to those of its tools whose widget only ever uses it behind a
    host-capability check (`getHostCapabilities()?.downloadFile && app.downloadFile(...)`); each must also be
    listed under `needs`. A usage with no needs means "scanned and clean"; the absence of a usage (None) means
    "not scanned". Lists become tuples and mappings become read-only copies.
    """

    needs: Mapping[str, tuple[str, ...]] = field(default_factory=_empty, hash=False)
    sandbox_permission_names: tuple[str, ...] | None = None
    sandbox_permission_tools: Mapping[str, tuple[str, ...]] = field(default_factory=_empty, hash=False)
    guarded: Mapping[str, tuple[str, ...]] = field(default_factory=_empty, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "needs", _name_map(self.needs, "WidgetUsage.needs", need_keys=True))
        if self.sandbox_permission_names is not None:
            names = _names(self.sandbox_permission_names, "WidgetUsage.sandbox_permission_names")
            object.__setattr__(self, "sandbox_permission_names", names)
        tools = _name_map(self.sandbox_permission_tools, "WidgetUsage.sandbox_permission_tools", need_keys=False)
        object.__setattr__(self, "sandbox_permission_tools", tools)
        guarded = _name_map(self.guarded, "WidgetUsage.guarded", need_keys=True)
        for need, guarded_tools in guarded.items():
            stray = set(guarded_tools).difference(self.needs.get(need, ()))
            if stray:
                raise InvalidInput(
                    f"WidgetUsage.guarded[{need!r}] names tools that do not use {need!r}", value=sorted(stray)
                )
        object.__setattr__(self, "guarded", guarded)

    def tools_for(self, need: str) -> tuple[str, ...]:
        """The tools whose widgets use `need` (empty when none does)."""
        return self.needs.get(need, ())

    def guarded_tools_for(self, need: str) -> tuple[str, ...]:
        """The tools whose widgets use `need` only behind a host-capability check (empty when none)."""
        return self.guarded.get(need, ())

    @classmethod
    def from_dict(cls, raw: object) -> WidgetUsage:
        """Parse MCPJam's JSON shape: need → tool names, plus `sandboxPermissionNames` / `sandboxPermissionTools`.

        Raises:
            InvalidInput: not an object, a need name that is not an identifier, or a value of the wrong type.
        """
        if not isinstance(raw, Mapping):
            raise InvalidInput(f"widget usage must be an object, got {type(raw).__name__}", value=raw)
        special = (SANDBOX_PERMISSION_NAMES_KEY, SANDBOX_PERMISSION_TOOLS_KEY, GUARDED_CALLS_KEY)
        permission_tools = raw.get(SANDBOX_PERMISSION_TOOLS_KEY)
        guarded = raw.get(GUARDED_CALLS_KEY)
        return cls(
            needs={key: value for key, value in raw.items() if key not in special},
            sandbox_permission_names=raw.get(SANDBOX_PERMISSION_NAMES_KEY),
            sandbox_permission_tools={} if permission_tools is None else permission_tools,
            guarded={} if guarded is None else guarded,
        )

    def to_dict(self) -> WireObject:
        """MCPJam's JSON shape (permission tools written whenever names are); `from_dict` reads it back equal."""
        out: WireObject = {need: list(tools) for need, tools in self.needs.items()}
        if self.sandbox_permission_names is not None:
            out[SANDBOX_PERMISSION_NAMES_KEY] = list(self.sandbox_permission_names)
        if self.sandbox_permission_tools or self.sandbox_permission_names is not None:
            out[SANDBOX_PERMISSION_TOOLS_KEY] = {
                name: list(tools) for name, tools in self.sandbox_permission_tools.items()
            }
        if self.guarded:
            out[GUARDED_CALLS_KEY] = {need: list(tools) for need, tools in self.guarded.items()}
        return out

    @classmethod
    def from_tool_uses(
        cls,
        uses: Iterable[tuple[str, str, bool]],
        *,
        sandbox_permissions: Mapping[str, Iterable[str]] | None = None,
    ) -> WidgetUsage:
        """Build a usage from (tool, need, guarded) uses, e.g. one per counting finding of a widget scan.

        A tool's use of a need is guarded only when every one of its uses of that need is. Tools keep their
        first-seen order. `sandbox_permissions` maps a tool to the permission names its widget requests; without
        it the permission names stay unknown (None).

        Raises:
            InvalidInput: a use that is not a (tool, need, bool) triple, or names of the wrong type.
        """
        needs: dict[str, dict[str, bool]] = {}
        for use in uses:
            if (
                not isinstance(use, tuple)
                or len(use) != 3
                or not isinstance(use[0], str)
                or not isinstance(use[1], str)
                or not isinstance(use[2], bool)
            ):
                raise InvalidInput("a widget use must be a (tool name, need, guarded flag) triple", value=use)
            tool, need, guarded = use
            tools = needs.setdefault(need, {})
            tools[tool] = tools.get(tool, True) and guarded
        if sandbox_permissions is not None and not isinstance(sandbox_permissions, Mapping):
            raise InvalidInput("sandbox_permissions must map tool names to permission names", value=sandbox_permissions)
        permission_tools: dict[str, list[str]] = {}
        for tool, names in (sandbox_permissions or {}).items():
            if isinstance(names, str) or not isinstance(names, Iterable):
                raise InvalidInput(f"the permission names of tool {tool!r} must be a list", value=names)
            for name in names:
                if not isinstance(name, str):
                    raise InvalidInput("a permission name must be a string", value=name)
                holders = permission_tools.setdefault(name, [])
                if tool not in holders:
                    holders.append(tool)
        return cls(
            needs={need: tuple(tools) for need, tools in needs.items()},
            sandbox_permission_names=None if sandbox_permissions is None else tuple(permission_tools),
            sandbox_permission_tools={name: tuple(tools) for name, tools in permission_tools.items()},
            guarded={
                need: only_guarded
                for need, tools in needs.items()
                if (only_guarded := tuple(tool for tool, guarded in tools.items() if guarded))
            },
        )


@dataclass(frozen=True)
class ConnectionFacts:
    """What the initialize exchange established: protocol version, transport and the server's own identity."""

    protocol_version: str | None = None
    """The protocol version negotiated at initialize (MCPJam's only connection fact)."""
    transport: str | None = None
    """How the server was reached, e.g. `stdio`, `streamable-http`, `sse`."""
    server_name: str | None = None
    """`serverInfo.name` from the initialize result."""
    server_version: str | None = None
    """`serverInfo.version` from the initialize result."""

    def __post_init__(self) -> None:
        for name in ("protocol_version", "transport", "server_name", "server_version"):
            _fact_text(getattr(self, name), f"ConnectionFacts.{name}")

    @classmethod
    def from_dict(cls, raw: object) -> ConnectionFacts:
        """Parse `{protocolVersion?, transport?, serverInfo?: {name?, version?}}`; other keys are ignored.

        Raises:
            InvalidInput: not an object, or a known key of the wrong type.
        """
        if not isinstance(raw, Mapping):
            raise InvalidInput(f"connection facts must be an object, got {type(raw).__name__}", value=raw)
        info = raw.get("serverInfo")
        if info is not None and not isinstance(info, Mapping):
            raise InvalidInput("connection facts serverInfo must be an object", value=info)
        info = info or {}
        return cls(
            protocol_version=raw.get("protocolVersion"),
            transport=raw.get("transport"),
            server_name=info.get("name"),
            server_version=info.get("version"),
        )

    def to_dict(self) -> WireObject:
        """The JSON form read by `from_dict` (unset facts left out)."""
        out: WireObject = {}
        if self.protocol_version is not None:
            out["protocolVersion"] = self.protocol_version
        if self.transport is not None:
            out["transport"] = self.transport
        info = {key: value for key, value in (("name", self.server_name), ("version", self.server_version)) if value}
        if info:
            out["serverInfo"] = info
        return out


def as_widget_usage(value: WidgetUsage | WireJSON | None) -> WidgetUsage | None:
    """`value` as a `WidgetUsage`: kept when it is one, parsed when it is MCPJam's JSON shape, None stays None."""
    if value is None or isinstance(value, WidgetUsage):
        return value
    return WidgetUsage.from_dict(value)


def as_connection_facts(value: ConnectionFacts | WireJSON | None) -> ConnectionFacts | None:
    """`value` as `ConnectionFacts`: kept, parsed from its JSON shape, or None."""
    if value is None or isinstance(value, ConnectionFacts):
        return value
    return ConnectionFacts.from_dict(value)


def _names(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{where} must be a list of names, got {type(value).__name__}", value=value)
    if len(value) > MAX_USAGE_NAMES:
        raise InvalidInput(f"{where} has more than {MAX_USAGE_NAMES} names", value=value)
    for item in value:
        if not isinstance(item, str) or not item:
            raise InvalidInput(f"{where} must hold only non-empty strings", value=item)
    return tuple(value)


def _name_map(value: object, where: str, *, need_keys: bool) -> Mapping[str, tuple[str, ...]]:
    if isinstance(value, MappingProxyType) and not value:
        return value
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{where} must be an object of name → list, got {type(value).__name__}", value=value)
    if len(value) > MAX_NEEDS:
        raise InvalidInput(f"{where} has more than {MAX_NEEDS} entries", value=value)
    out: dict[str, tuple[str, ...]] = {}
    for key, names in value.items():
        if not isinstance(key, str) or not key or (need_keys and not _NEED_NAME.match(key)):
            raise InvalidInput(f"{where} has an invalid key {key!r}", value=key)
        out[key] = _names(names, f"{where}[{key!r}]")
    return MappingProxyType(out)


def _fact_text(value: object, where: str) -> None:
    if value is None:
        return
    if not isinstance(value, str) or not value or len(value) > MAX_FACT_CHARS:
        raise InvalidInput(f"{where} must be a non-empty string of at most {MAX_FACT_CHARS} characters", value=value)


__all__ = [
    "GUARDED_CALLS_KEY",
    "MAX_FACT_CHARS",
    "MAX_NEEDS",
    "MAX_USAGE_NAMES",
    "SANDBOX_PERMISSION_NAMES_KEY",
    "SANDBOX_PERMISSION_TOOLS_KEY",
    "WIDGET_NEEDS",
    "ConnectionFacts",
    "WidgetUsage",
    "as_connection_facts",
    "as_widget_usage",
]
