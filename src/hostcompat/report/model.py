"""The report document's shape (`hostcompat.report/1`), as TypedDicts: every key and nesting level a check writes.

A key every part of that kind carries is required; a key only some carry is in the part's `total=False` half (the
`_…Keys` base it extends), so the types say what the JSON really holds. `src/hostcompat/data/report.schema.json` is
generated from these types (`hostcompat.report.json_schema`), and the tests validate every document a check builds
against it.

A document read back from a file (`read_report`) is only checked down to what the renderers index into: its values
may be of other types than these say, and the renderers read them as the untrusted JSON they are.
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

VerdictName = Literal["works", "unknown", "degraded", "blocked"]
"""A host's (or a lane's) verdict, best to worst."""
ProvenanceName = Literal["observed", "vendor-doc", "probe", "assumed"]
"""Where a host fact comes from, strongest to weakest."""
SeverityName = Literal["blocker", "degraded", "info"]
"""How much a finding matters."""
LaneName = Literal["apps", "server"]
"""The lane a finding belongs to: widget rendering and host APIs, or the server's protocol and tools."""
EventSeverity = Literal["error", "warning", "info"]
"""How much a probe event matters."""
BridgeName = Literal["mcp-apps", "openai-sdk", "openai-sdk-and-mcp-apps"]
"""Which widget bridge a tool declares."""
Scalar = str | int | float | bool | None
"""A server-sent value on the report's server line: a string (cut), a number, a boolean or null."""


class ToolInfo(TypedDict):
    """The tool that wrote the report."""

    name: str
    version: str


class TargetInfo(TypedDict, total=False):
    """What was checked: where the check found it, and the probe's (redacted) description of the target as its
    snapshot recorded it. A snapshot file may hold anything there (another version, a hand edit): the recorded keys
    are any JSON, and keys beyond these are kept as they are.
    """

    display: str
    """One line naming the target (secrets redacted), as the reports show it."""
    config: str
    """The host config file the server's entry came from."""
    snapshot: str
    """The snapshot file the server was checked from."""
    kind: object
    """As recorded: `stdio`, `http`, `sse` or `transport`."""
    command: object
    """As recorded: a stdio server's command."""
    args: object
    """As recorded: its arguments (secrets redacted)."""
    env: object
    """As recorded: variable name → the redaction marker (the values are never recorded)."""
    cwd: object
    """As recorded: its working directory, or null."""
    url: object
    """As recorded: an HTTP or SSE server's URL (secrets redacted)."""
    headers: object
    """As recorded: header name → the redaction marker."""
    label: object
    """As recorded: the label of an in-memory transport."""
    name: object
    """A server name, when the snapshot recorded one (the SARIF output names its artifact after it)."""
    artifact: object
    """A file to point code-scanning results at, when the snapshot recorded one (read by the SARIF output)."""


class ServerInfo(TypedDict):
    """What the server said about itself in its handshake (strings cut; any other JSON as a short preview)."""

    name: Scalar
    version: Scalar
    protocolVersion: Scalar


class WidgetBuckets(TypedDict):
    """The widget tools by the bridge they declare."""

    mcpAppsOnly: list[str]
    openaiAppsOnly: list[str]
    dual: list[str]


class WidgetUsageEntry(TypedDict, total=False):
    """Need → the tools whose widget uses it (MCPJam's shape), and the sandbox permissions and guarded calls.

    Only the needs some widget uses are present; a need outside these names is kept too (a list of tool names).
    """

    serverTools: list[str]
    serverResources: list[str]
    message: list[str]
    updateModelContext: list[str]
    openLinks: list[str]
    downloadFile: list[str]
    logging: list[str]
    sandboxPermissions: list[str]
    cspFrameDomains: list[str]
    requestDisplayMode: list[str]
    sizeChanged: list[str]
    appTools: list[str]
    sampling: list[str]
    requestTeardown: list[str]
    openaiApps: list[str]
    mcpUiActions: list[str]
    cspResourceDomains: list[str]
    cspConnectDomains: list[str]
    sandboxPermissionNames: list[str]
    """The permission names the widgets request (absent: not known)."""
    sandboxPermissionTools: dict[str, list[str]]
    """Permission name → the tools whose widget requests it."""
    guardedCalls: dict[str, list[str]]
    """Need → the tools whose every use of it is behind a host-capability check."""


class HandshakeInfo(TypedDict, total=False):
    """The server's name and version as connection facts (only those it sent)."""

    name: str
    version: str


class ConnectionFactsEntry(TypedDict, total=False):
    """What the connection says about the server (only the facts known)."""

    protocolVersion: str
    transport: str
    serverInfo: HandshakeInfo


class WidgetTool(TypedDict):
    """One tool that declares a widget."""

    name: str
    bridge: BridgeName | None
    resourceUri: str | None
    openaiTemplate: str | None
    visibility: list[str] | None
    appOnly: bool


class _EvidenceKeys(TypedDict, total=False):
    detail: str
    offset: int
    line: int
    snippet: str


class EvidenceEntry(_EvidenceKeys):
    """Where a finding was seen: `source` names the place; `detail`, `offset` (0-based), `line` (1-based) and
    `snippet` point into it when known.
    """

    source: str


class _FindingKeys(TypedDict, total=False):
    remediation: str
    resources: list[str]
    provenance: ProvenanceName
    factSource: str
    factDate: str
    factSince: str
    """The first host version the fact holds for, when its source gives one."""
    factFixedIn: str
    """The first host version where it no longer holds, when its source gives one."""


class FindingEntry(_FindingKeys):
    """One finding: its stable rule id, what it says, the tools (and resources) it concerns, its evidence, and the
    host fact behind it (`provenance`, `factSource`, `factDate`, the versions `factSince`/`factFixedIn` its source
    bounds it to; absent for the server's own hygiene).
    """

    ruleId: str
    lane: LaneName
    severity: SeverityName
    title: str
    detail: str
    tools: list[str]
    evidence: list[EvidenceEntry]


class _RequirementsKeys(TypedDict, total=False):
    widgetUsage: WidgetUsageEntry
    connectionFacts: ConnectionFactsEntry


class RequirementsEntry(_RequirementsKeys):
    """What the server needs of a host (MCPJam's shape plus hostcompat's keys)."""

    widgets: WidgetBuckets
    appOnlyWidgets: list[str]
    hasWidgets: bool
    unknownDimensions: list[str]
    widgetTools: list[WidgetTool]
    toolFindings: list[FindingEntry]


class LaneEntry(TypedDict):
    """One lane's verdict on one host, the weakest provenance of the host facts it used, and why it is unknown."""

    verdict: VerdictName
    provenance: ProvenanceName | None
    unknown: list[str]


class Lanes(TypedDict):
    """Each lane's verdict."""

    apps: LaneEntry
    server: LaneEntry


class WithProxyEntry(TypedDict):
    """The verdict on the host with hostcompat in front (`hostcompat proxy`, or the middleware in a Python server):
    the client its rules were planned for, the client rules that changed the server's captured data, the verdict on
    the rewritten data, and the findings that went away.
    """

    client: str
    rules: list[str]
    verdict: VerdictName
    fixed: list[str]


class _HostKeys(TypedDict, total=False):
    hostKind: str
    """The host's kind in the catalog (`desktop-chat`, `ide`, `cli` …)."""
    withProxy: WithProxyEntry


class HostEntry(_HostKeys):
    """How the server fares on one host: the verdict, each lane's, and the findings behind them (and, where
    hostcompat's client rules improve it, the verdict with them in front).
    """

    hostId: str
    hostLabel: str
    verdict: VerdictName
    lanes: Lanes
    findings: list[FindingEntry]
    provenance: ProvenanceName | None


class _EventKeys(TypedDict, total=False):
    severity: EventSeverity


class EventEntry(_EventKeys):
    """Something the probe (or the check) saw happen: a timeout, a crash, a cap hit, a widget not analysed."""

    code: str
    message: str


class Summary(TypedDict):
    """How many hosts got each verdict."""

    works: int
    unknown: int
    degraded: int
    blocked: int


class _NeedUseKeys(TypedDict, total=False):
    line: int
    snippet: str


class NeedUseEntry(_NeedUseKeys):
    """One place a widget uses a need: the spelling that matched (`detail`), whether a capability check guards it,
    and its 1-based `line` and a `snippet` of the widget's code (absent for a need its `_meta` declares).
    """

    need: str
    detail: str
    guarded: bool


class WidgetEntry(TypedDict):
    """One scanned widget: its URI, the tools that name it, the uses of needs found in it (the first ones) and how
    many more there were.
    """

    uri: str
    tools: list[str]
    needs: list[NeedUseEntry]
    moreNeeds: int


class _ServerEntryKeys(TypedDict, total=False):
    widgets: list[WidgetEntry]


class ServerEntry(_ServerEntryKeys):
    """One server's part of the report.

    `error` says why the server could not be checked; then `server` (and `requirements`) may be null and `hosts`
    empty. `widgets` is there when widgets were scanned: each with the needs it uses and where.
    """

    target: TargetInfo
    error: str | None
    server: ServerInfo | None
    requirements: RequirementsEntry | None
    hosts: list[HostEntry]
    hygiene: list[FindingEntry]
    events: list[EventEntry]
    summary: Summary


class ShardInfo(TypedDict):
    """Which part of the server list a sharded run (`check --shard I/N`) checked: the `index`-th of `count`."""

    index: int
    count: int


class HostTally(TypedDict):
    """One host across the servers of a merged report: how many servers got each verdict on it."""

    hostId: str
    hostLabel: str
    works: int
    unknown: int
    degraded: int
    blocked: int


class _ReportDocumentKeys(TypedDict, total=False):
    shard: ShardInfo
    hostSummary: list[HostTally]
    notChecked: int


class ReportDocument(_ReportDocumentKeys):
    """The whole report of one run.

    `shard` is set by a sharded run; `hostSummary` (per host, how many servers got each verdict) and `notChecked`
    (how many servers could not be checked) by `hostcompat merge`.
    """

    schema: Literal["hostcompat.report/1"]
    tool: ToolInfo
    servers: list[ServerEntry]


EXTRA_KEYS: Final[dict[str, object]] = {
    "TargetInfo": object,
    "WidgetUsageEntry": list[str],
}
"""The parts that may hold keys beyond those declared, and the type of those keys' values (`object`: any JSON): a
target keeps what its snapshot recorded, and a widget usage names any need. Every other part holds its keys only.
"""

__all__ = [
    "EXTRA_KEYS",
    "BridgeName",
    "ConnectionFactsEntry",
    "EventEntry",
    "EventSeverity",
    "EvidenceEntry",
    "FindingEntry",
    "HandshakeInfo",
    "HostEntry",
    "HostTally",
    "LaneEntry",
    "LaneName",
    "Lanes",
    "NeedUseEntry",
    "WithProxyEntry",
    "ProvenanceName",
    "ReportDocument",
    "RequirementsEntry",
    "Scalar",
    "ServerEntry",
    "ServerInfo",
    "SeverityName",
    "ShardInfo",
    "Summary",
    "TargetInfo",
    "ToolInfo",
    "VerdictName",
    "WidgetBuckets",
    "WidgetEntry",
    "WidgetTool",
    "WidgetUsageEntry",
]
