"""The data of every finding rule: stable id, title, default severity, lane, what it checks and its source.

Plain strings only; `hostcompat.engine.findings.rules` checks them and builds the registry at import.
A rule id never changes meaning once published; retire an id instead of reusing it.
"""

from __future__ import annotations

from typing import Final

from hostcompat.engine.findings.rule_table_check import CHECK_RULE_ROWS
from hostcompat.engine.findings.rule_table_evidence import EVIDENCE_RULE_ROWS

_SPEC: Final = "MCP Apps specification 2026-01-26 (ext-apps specification/2026-01-26/apps.mdx)"
_DRAFT: Final = "MCP Apps draft specification, 'Metadata Location' (ext-apps specification/draft/apps.mdx)"
_VALIDATOR: Final = "ext-apps mcp-app-validator static server rules (src/validator/rules.ts)"
_NPM: Final = "@modelcontextprotocol/ext-apps getToolUiResourceUri and registerAppTool"
_MIGRATION: Final = "ext-apps docs/migrate_from_openai_apps.md"
_MCPJAM: Final = "MCPJam host-compat engine (MCPJam/inspector sdk/src/host-compat)"
_VIANT: Final = "viant/mcp-ui resource and meta packages"
_MCP: Final = "MCP specification, tools/list"
_CATALOG: Final = "hostcompat host catalog (hostcompat/data/hosts.json)"
_CONTEXT: Final = "Facts limited to an OS, a registration path or a gate give this lane another verdict there."

RuleRow = tuple[str, str, str, str, str, str]
"""(rule id, title, default severity, lane, description, source)."""

RULE_ROWS: Final[tuple[RuleRow, ...]] = (
    # --- per-host verdict rules (MCPJam's four finding codes) ------------------------------------------------------
    (
        "APPS-RENDER-001",
        "App-only widget tool cannot render on this host",
        "degraded",
        "apps",
        "A widget tool whose visibility is exactly ['app'] uses a bridge the host does not render: no widget there "
        "calls it, and a host that does not hide app-only tools lists it to the model as an ordinary tool "
        "(MCPJam code app_only_unrenderable, which MCPJam makes a blocker; the server's model-facing tools still "
        "work, so hostcompat says degraded, and info where the host hides app-only tools).",
        _MCPJAM,
    ),
    (
        "APPS-RENDER-002",
        "Widget falls back to text on this host",
        "degraded",
        "apps",
        "A widget tool uses a bridge the host does not render, so the host shows only its text content "
        "(MCPJam code widget_text_fallback).",
        _MCPJAM,
    ),
    (
        "APPS-CAP-001",
        "Host lacks a capability the widget uses",
        "degraded",
        "apps",
        "A widget uses a host capability the host's matrix does not confirm (MCPJam code capability_unsupported; "
        "logging alone is info).",
        _MCPJAM,
    ),
    (
        "SERVER-PROTO-001",
        "Negotiated protocol version not in the host's list",
        "info",
        "server",
        "The protocol version negotiated at initialize is not one the host is known to support "
        "(MCPJam code protocol_version_mismatch).",
        _MCPJAM,
    ),
    # --- per-host verdict rules beyond MCPJam (hostcompat.engine.verdicts.evaluate) -------------------------------
    (
        "APPS-RENDER-003",
        "Unknown whether this host renders the widget",
        "info",
        "apps",
        "The catalog does not say whether the host renders the widget's format, so its apps verdict is unknown "
        "(MCPJam reads a missing fact as 'does not render').",
        _CATALOG,
    ),
    (
        "APPS-RENDER-004",
        "Host renders this widget format only partly",
        "degraded",
        "apps",
        "The catalog rates the host's support for the widget's format as partial; the fact's note says what is "
        "missing.",
        _CATALOG,
    ),
    (
        "APPS-CAP-002",
        "Unknown whether this host supports a capability the widget uses",
        "info",
        "apps",
        "The catalog has no (or an 'unknown') fact for a host capability the widget uses, so the apps verdict is "
        "unknown (MCPJam reads a missing capability as unsupported: degraded).",
        _CATALOG,
    ),
    (
        "APPS-CAP-003",
        "Widget checks for a capability this host lacks before using it",
        "info",
        "apps",
        "Every use of the capability sits behind a host-capability check (getHostCapabilities()), so the widget "
        "degrades on its own; MCPJam cannot see guards and reports these as degraded.",
        f"{_SPEC} (hostCapabilities in ui/initialize)",
    ),
    (
        "SERVER-LIMIT-001",
        "More tools than this host accepts",
        "degraded",
        "server",
        "The server lists more tools than the host's documented cap; the host drops the excess or refuses the "
        "request. The user's other servers count toward the same cap.",
        "bun913/mcp-testrail #6, Snowflake-Labs/mcp #77, DaxianLee/cocos-mcp-server #11 (Cursor); "
        "microsoft/vscode-copilot-release #11653 (Copilot); Zhwt/go-mcp-mysql #3 (Windsurf); "
        "akbxr/gitlab-mcp-zed #8 (Zed)",
    ),
    (
        "SERVER-NAME-001",
        "Tool name too long for this host",
        "degraded",
        "server",
        "The tool name, with the server-name prefix where the host counts it, is longer than the host's limit; the "
        "host filters the tool or the model API refuses the request.",
        "awslabs/mcp #1283 (Cursor 60); sparfenyuk/mcp-proxy #45, microsoft/wassette #56 (Claude 64); "
        "openai/codex PR #1371 (Codex 64); danny-avila/LibreChat #7435 (LibreChat 64)",
    ),
    (
        "SERVER-NAME-002",
        "Tool name has characters this host rejects",
        "degraded",
        "server",
        "The tool name has a character outside the host's allowed set (e.g. [A-Za-z0-9_] for Cursor).",
        "webstudio-is/webstudio #5960 (Cursor); microsoft/wassette #56 (Claude Code); openai/codex PR #8694 (Codex)",
    ),
    (
        "SERVER-SCHEMA-001",
        "Input schema uses a construct this host rejects",
        "degraded",
        "server",
        "The tool's inputSchema uses a JSON Schema construct ($ref, $defs, type beside anyOf, type arrays, a "
        "2020-12 $schema, ...) the host or its model API refuses; the tool is dropped or its calls fail.",
        "google-gemini/gemini-cli #13326, #4121, #14970; openai/codex #2058; google/adk-python #5940; "
        "fastmcp 4.1.6 dereference middleware (VS Code)",
    ),
    (
        "SERVER-SCHEMA-002",
        "Input schema uses a construct this host rejects in some setups",
        "info",
        "server",
        "The tool's inputSchema uses a JSON Schema construct the host refuses only under a condition the catalog "
        "names (a strict-mode model, an opt-in setting, older versions); in its default setup the tool works.",
        "langchain-ai/langchainjs #9496, kagent-dev/kagent #1888, FlowiseAI/Flowise #5109 (OpenAI strict mode); "
        "openai/openai-agents-python #449 (convert_schemas_to_strict); CopilotKit/CopilotKit #3114 (ag-ui-adk)",
    ),
    (
        "SERVER-OUTPUT-001",
        "Host mishandles outputSchema",
        "degraded",
        "server",
        "The tool declares an outputSchema and the host validates results against it strictly or ignores it.",
        "google-gemini/gemini-cli #21053; nerding-io/n8n-nodes-mcp #255; langchain-mcp-adapters #308",
    ),
    (
        "SERVER-OUTPUT-002",
        "Host mishandles structuredContent",
        "degraded",
        "server",
        "The tool returns structuredContent (it declares an outputSchema, or a captured result has it) and the "
        "host shows it instead of content, drops it, or fails on it.",
        "anthropics/claude-code #9962, #54737; github/copilot-cli #3258; openai/codex #29002; "
        "langchain-ai/langchain-mcp-adapters #283",
    ),
    (
        "SERVER-CONTENT-001",
        "Host mishandles a content type the tool returns",
        "degraded",
        "server",
        "A captured result carries a content block (resource_link, embedded resource, image, audio) the host "
        "ignores, shows as a placeholder, or fails the whole call on.",
        "openai/codex #41280; anthropics/claude-code #53453; aaif-goose/goose #3346",
    ),
    ("APPS-CONTEXT-001", "Widgets fare differently in another host context", "info", "apps", _CONTEXT, _CATALOG),
    ("SERVER-CONTEXT-001", "Server fares differently in another host context", "info", "server", _CONTEXT, _CATALOG),
    # --- the tool list --------------------------------------------------------------------------------------------
    (
        "TOOL-SHAPE-001",
        "Tool list entry is not an object with a name",
        "degraded",
        "server",
        "An entry of tools/list is not an object with a non-empty string 'name'; it is skipped.",
        _MCP,
    ),
    (
        "TOOL-SHAPE-002",
        "Duplicate tool name",
        "degraded",
        "server",
        "Two tools share a name; hosts keep one of them, so only the first is evaluated.",
        _MCP,
    ),
    # --- a tool's _meta -------------------------------------------------------------------------------------------
    (
        "META-SHAPE-001",
        "Malformed tool _meta.ui",
        "degraded",
        "apps",
        "The tool's _meta or _meta.ui is not an object, or a _meta.ui field has the wrong type.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "META-SHAPE-002",
        "Resource-only keys on a tool's _meta.ui",
        "info",
        "apps",
        "csp and permissions belong on the UI resource's _meta.ui; hosts ignore them on a tool.",
        "@modelcontextprotocol/ext-apps McpUiToolMeta (csp and permissions typed never)",
    ),
    (
        "META-URI-001",
        "Tool UI resource URI is not a ui:// string",
        "blocker",
        "apps",
        "A present _meta.ui.resourceUri (or, when that is absent, the flat ui/resourceUri) is not a string starting "
        "with ui://; ext-apps hosts throw on it and MCPJam aborts the whole evaluation.",
        f"{_NPM}; {_VALIDATOR}",
    ),
    (
        "META-FLAT-001",
        "Only the deprecated flat ui/resourceUri is set",
        "degraded",
        "apps",
        "The tool declares its UI with the flat _meta['ui/resourceUri'] key alone; hosts reading only "
        "_meta.ui.resourceUri do not see a UI.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "META-FLAT-002",
        "Flat ui/resourceUri disagrees with _meta.ui.resourceUri",
        "degraded",
        "apps",
        "The flat and nested URI keys name different resources; hosts reading different keys render different "
        "widgets (the nested key wins where both are read).",
        _NPM,
    ),
    (
        "META-VIS-001",
        "_meta.ui.visibility is not a list of strings",
        "degraded",
        "apps",
        "visibility must be a list of 'model'/'app'; hosts read a malformed one differently (deny-all, default or "
        "error).",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "META-VIS-002",
        "_meta.ui.visibility holds unknown audiences",
        "degraded",
        "apps",
        "visibility may only hold 'model' and 'app'.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "META-VIS-003",
        "_meta.ui.visibility is empty",
        "degraded",
        "apps",
        "An empty visibility list allows neither the model nor the app: nobody can use the tool.",
        _SPEC,
    ),
    (
        "META-OPENAI-001",
        "Malformed openai/* tool key",
        "degraded",
        "apps",
        "openai/outputTemplate is present but not a non-empty string (so no OpenAI host renders it), or another "
        "openai/* tool key has the wrong type.",
        f"{_MIGRATION}; {_MCPJAM}",
    ),
    (
        "META-OPENAI-002",
        "OpenAI template and MCP Apps resource URI disagree",
        "degraded",
        "apps",
        "openai/outputTemplate and _meta.ui.resourceUri name different resources: OpenAI hosts and MCP Apps hosts "
        "render different widgets.",
        _MIGRATION,
    ),
    (
        "META-OPENAI-003",
        "OpenAI visibility keys disagree with _meta.ui.visibility",
        "info",
        "apps",
        "openai/widgetAccessible or openai/visibility says something else than the visibility MCP Apps hosts "
        "apply, so the tool is callable by different audiences on different hosts.",
        _MIGRATION,
    ),
    (
        "TOOL-CONTENT-001",
        "UI tool result has no meaningful content",
        "degraded",
        "apps",
        "A UI tool must still return a meaningful content array: text-only hosts and the model see nothing else.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "TOOL-CONTENT-002",
        "UI tool results not captured",
        "info",
        "apps",
        "No call result was captured for these UI tools, so their text fallback was not checked.",
        _VALIDATOR,
    ),
    # --- UI resources ---------------------------------------------------------------------------------------------
    (
        "RES-URI-001",
        "UI resource URI is not ui://",
        "blocker",
        "apps",
        "A resource served or referenced as a UI template does not use the reserved ui:// scheme.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-URI-002",
        "UI resource URI breaks the ui:// grammar",
        "degraded",
        "apps",
        "The URI starts with ui:// but has no host, userinfo, whitespace, a bad port or a bad %-escape; strict "
        "hosts refuse it.",
        _VIANT,
    ),
    (
        "RES-MIME-001",
        "UI resource MIME type is not text/html;profile=mcp-app",
        "blocker",
        "apps",
        "The content item (MUST) or listing entry (SHOULD) of a UI resource declares another MIME type, or none; "
        "hosts compare it byte for byte.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-MIME-002",
        "ui:// resource served as text/html+skybridge",
        "degraded",
        "apps",
        "text/html+skybridge is the OpenAI Apps SDK widget type; MCP Apps hosts do not render it.",
        _MIGRATION,
    ),
    (
        "RES-MIME-003",
        "Obsolete MIME type text/html+mcp",
        "blocker",
        "apps",
        "text/html+mcp is the early-draft MIME type, renamed to text/html;profile=mcp-app before the stable text.",
        "MCP Apps early draft (ext-apps specification/draft/apps.mdx @ cc69797)",
    ),
    (
        "RES-READ-001",
        "UI resource read failed",
        "blocker",
        "apps",
        "resources/read of the UI resource failed, returned no contents, or no (or more than one) item carries the "
        "requested URI.",
        f"{_SPEC}; {_VIANT}",
    ),
    (
        "RES-REF-001",
        "Tool references a UI resource that does not exist",
        "blocker",
        "apps",
        "The tool's UI resource is neither listed by resources/list nor readable with resources/read.",
        _VALIDATOR,
    ),
    (
        "RES-REF-002",
        "Tool's UI resource was not checked",
        "info",
        "apps",
        "The tool's UI resource is not listed (servers may omit UI resources) and no read of it was captured, so "
        "its existence is unknown.",
        _VALIDATOR,
    ),
    (
        "RES-CONTENT-001",
        "UI resource content needs exactly one of text or blob",
        "blocker",
        "apps",
        "A UI resource content item must carry the HTML as a text string or a base64 blob, not neither or both.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-CONTENT-002",
        "UI resource content does not decode",
        "blocker",
        "apps",
        "The blob is not strict base64, or the HTML is not valid UTF-8.",
        _VIANT,
    ),
    (
        "RES-HTML-001",
        "UI resource is not an HTML document",
        "degraded",
        "apps",
        "The content must be a valid HTML5 document; no <!DOCTYPE html> or <html> element was found near its start.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-SIZE-001",
        "UI resource over the 1 MiB HTML budget",
        "info",
        "apps",
        "The HTML is over 1,048,576 UTF-8 bytes: hosts built on viant/mcp-ui refuse it and every host loads it "
        "slowly. The MCP Apps text itself sets no limit.",
        _VIANT,
    ),
    (
        "RES-HASH-001",
        "Declared contentHash does not match the HTML",
        "degraded",
        "apps",
        "_meta.ui.contentHash differs from sha256 of the served HTML; hosts that pin templates by hash refuse it.",
        f"{_VIANT}; {_SPEC} (resource review)",
    ),
    (
        "RES-HASH-002",
        "Malformed contentHash",
        "degraded",
        "apps",
        "_meta.ui.contentHash must be 'sha256:' followed by 64 lowercase hex digits.",
        _VIANT,
    ),
    (
        "RES-META-001",
        "Malformed resource _meta.ui",
        "degraded",
        "apps",
        "The UI resource's _meta or _meta.ui (on the listing or the content item) is not an object, or a field "
        "has the wrong type; hosts may drop the whole sandbox configuration.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-META-002",
        "Listing and content _meta.ui disagree",
        "info",
        "apps",
        "The content item's _meta.ui wins; hosts and reviewers reading the listing see a different configuration.",
        _DRAFT,
    ),
    (
        "RES-CSP-001",
        "Malformed CSP origin",
        "degraded",
        "apps",
        "A _meta.ui.csp origin is not a CSP source of the form scheme://host[:port]; hosts drop or refuse it.",
        f"{_SPEC}; {_VALIDATOR}",
    ),
    (
        "RES-CSP-002",
        "Legacy CSP string in _meta.ui.csp",
        "degraded",
        "apps",
        "_meta.ui.csp is a raw CSP string (viant's legacy form); MCP Apps hosts expect the domains object.",
        _VIANT,
    ),
    (
        "RES-OPENAI-001",
        "openai/* resource keys disagree with _meta.ui",
        "degraded",
        "apps",
        "openai/widgetCSP, openai/widgetDomain or openai/widgetPrefersBorder says something else than _meta.ui, so "
        "OpenAI hosts and MCP Apps hosts sandbox the widget differently.",
        _MIGRATION,
    ),
    (
        "RES-OPENAI-002",
        "Malformed openai/* resource key",
        "degraded",
        "apps",
        "An openai/* resource key (openai/widgetCSP, openai/widgetDomain, openai/widgetPrefersBorder) has the wrong "
        "type; OpenAI hosts ignore it.",
        _MIGRATION,
    ),
    *CHECK_RULE_ROWS,
    *EVIDENCE_RULE_ROWS,
)

__all__ = ["RULE_ROWS", "RuleRow"]
