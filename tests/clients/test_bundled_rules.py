"""One case per bundled rule: the trigger from the rule's source, for the client it names, and what comes out."""

import copy
import json
from dataclasses import dataclass
from typing import Any

import pytest

from hostcompat.apps.constants import RESOURCE_MIME_TYPE
from hostcompat.clients.detect import parse_client_spec
from hostcompat.clients.rewrite import SessionState, plan_rewrites, rewrite_request, rewrite_result
from hostcompat.clients.rewrites.tool_catalog import HASH_SUFFIX_LENGTH, name_digest
from hostcompat.clients.rules import Rule, find_rule, load_bundled_rules

BUNDLED = load_bundled_rules()


@dataclass(frozen=True)
class Case:
    client: str
    method: str
    given: dict[str, Any]
    expected: dict[str, Any]
    direction: str = "result"
    server: dict[str, Any] | None = None
    """The server's capabilities, as the session saw them (None: not known)."""


def _tools(*names: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"name": name, "inputSchema": {"type": "object"}, **extra} for name in names]


def _numbered(count: int) -> list[dict[str, Any]]:
    return _tools(*(f"tool_{index}" for index in range(count)))


def _truncated(name: str, budget: int) -> str:
    return name[: budget - HASH_SUFFIX_LENGTH] + "_" + name_digest(name)


IMAGE = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
SHEETS = "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER"
ADVISORIES = "list_repository_security_advisories_for_the_whole_organization"
MEHO_LONG = "broadcast_overrides_list_for_every_tenant_region_and_delivery_channel"
LONGEST = "report_" + "_".join(["quarterly_revenue_by_region_product_line_and_sales_channel"] * 2)
GIT_BRANCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "repo_path": {"title": "Repo Path"},
        "branch_type": {"title": "Branch Type", "enum": ["local", "remote", "all"]},
        "contains": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None, "title": "Contains"},
    },
    "required": ["repo_path", "branch_type"],
}
PAGERDUTY_SCHEMA: dict[str, Any] = {
    "$defs": {
        "ScheduleQuery": {
            "properties": {"query": {"type": "string", "default": None}, "limit": {"type": "integer", "default": 20}},
            "type": "object",
        }
    },
    "properties": {"query_model": {"$ref": "#/$defs/ScheduleQuery"}},
    "required": ["query_model"],
    "type": "object",
}
CATEGORY_SCHEMA = {
    "$defs": {"Category": {"enum": ["food", "transport"], "type": "string"}},
    "properties": {"category": {"$ref": "#/$defs/Category"}},
}
OUTPUT_SCHEMA = {"type": "object", "properties": {"temperature": {"type": "number"}}, "required": ["temperature"]}
WEAVE_SPEC = {"spec": {"kind": "chart", "series": [1, 2, 3]}}
"""The result shape of modelcontextprotocol/ext-apps #696: text for the model, the view's data in structuredContent."""
CLAUDE_WEB_CAPABILITIES = {"roots": {"listChanged": True}, "elicitation": {}}
"""claude.ai's initialize capabilities as claude-ai-mcp #61 reports them: roots and elicitation, no extensions."""
UI_EXTENSION = {"io.modelcontextprotocol/ui": {"mimeTypes": [RESOURCE_MIME_TYPE]}}

CASES: dict[str, Case] = {
    "codex.round-annotation-priority": Case(
        "codex-mcp-client@0.148.0-alpha.9",
        "tools/call",
        {
            "content": [{"type": "text", "text": "Issue #42", "annotations": {"audience": ["user"], "priority": 0.6}}],
            "structuredContent": {"iid": 42},
        },
        {
            "content": [{"type": "text", "text": "Issue #42", "annotations": {"audience": ["user"], "priority": 1}}],
            "structuredContent": {"iid": 42},
        },
    ),
    "codex.resource-link-to-text": Case(
        "Codex@0.150.0-alpha.8",
        "tools/call",
        {
            "content": [
                {"type": "text", "text": "Opened the dashboard"},
                {
                    "type": "resource_link",
                    "uri": "ui://dashboard/main.html",
                    "name": "dashboard",
                    "mimeType": RESOURCE_MIME_TYPE,
                },
            ]
        },
        {
            "content": [
                {"type": "text", "text": "Opened the dashboard"},
                {"type": "text", "text": f"[Resource link] dashboard: ui://dashboard/main.html ({RESOURCE_MIME_TYPE})"},
            ]
        },
    ),
    "goose.resource-link-to-text": Case(
        "goose@1.0.35",
        "tools/call",
        {
            "content": [
                {
                    "type": "resource_link",
                    "uri": "file:///tmp/report.md",
                    "name": "report.md",
                    "mimeType": "text/markdown",
                }
            ]
        },
        {"content": [{"type": "text", "text": "[Resource link] report.md: file:///tmp/report.md (text/markdown)"}]},
    ),
    "claude-code.drop-structured-content-with-images": Case(
        "claude-code@2.1.121",
        "tools/call",
        {"content": [IMAGE], "structuredContent": {"width": 1, "height": 1}},
        {"content": [IMAGE]},
    ),
    "codex.add-missing-schema-types": Case(
        "codex-mcp-client@0.14.0",
        "tools/list",
        {"tools": [{"name": "git_branch", "inputSchema": GIT_BRANCH_SCHEMA}]},
        {
            "tools": [
                {
                    "name": "git_branch",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "repo_path": {"title": "Repo Path", "type": "string"},
                            "branch_type": {
                                "title": "Branch Type",
                                "enum": ["local", "remote", "all"],
                                "type": "string",
                            },
                            "contains": GIT_BRANCH_SCHEMA["properties"]["contains"],  # anyOf [string, null]
                        },
                        "required": ["repo_path", "branch_type"],
                    },
                }
            ]
        },
    ),
    "codex.sanitize-tool-names": Case(
        "codex-mcp-client@0.72.0",
        "tools/list",
        {"tools": _tools("statamic.entries.list", "statamic-blueprints")},
        {"tools": _tools("statamic_entries_list", "statamic-blueprints")},
    ),
    "codex.truncate-tool-names": Case(
        "codex-mcp-client@0.2.0",
        "tools/list",
        {"tools": _tools(ADVISORIES)},
        {"tools": _tools(_truncated(ADVISORIES, 46))},
    ),
    "cursor.sanitize-tool-names": Case(
        "cursor-vscode@1.2.0",
        "tools/list",
        {"tools": _tools("meta.index", "components.coverage-plan")},
        {"tools": _tools("meta_index", "components_coverage-plan")},
    ),
    "cursor.truncate-tool-names": Case(
        "cursor-vscode@1.6.14",
        "tools/list",
        {"tools": _tools(SHEETS)},
        {"tools": _tools(_truncated(SHEETS, 40))},
    ),
    "claude-code.sanitize-tool-names": Case(
        "claude-code@1.0.80",
        "tools/list",
        {"tools": _tools("local:time-server/time.get-current-time")},
        {"tools": _tools("local_time-server_time_get-current-time")},
    ),
    "claude.truncate-tool-names": Case(
        "claude-ai@0.1.0",
        "tools/list",
        {"tools": _tools(MEHO_LONG)},
        {"tools": _tools(_truncated(MEHO_LONG, 64))},
    ),
    "claude-code.truncate-tool-names": Case(
        "claude-code@2.1.280",
        "tools/list",
        {"tools": _tools(LONGEST)},
        {"tools": _tools(_truncated(LONGEST, 105))},
    ),
    "librechat.truncate-tool-names": Case(
        "@librechat/api-client@0.7.8",
        "tools/list",
        {"tools": _tools(SHEETS)},
        {"tools": _tools(_truncated(SHEETS, 43))},
    ),
    "cursor.cap-tool-count": Case(
        "cursor-vscode@2.4.0",
        "tools/list",
        {"tools": _numbered(157)},
        {"tools": _numbered(100)},
    ),
    "windsurf.cap-tool-count": Case(
        "windsurf-client@1.6.0",
        "tools/list",
        {"tools": _numbered(60), "nextCursor": "page-2"},
        {"tools": _numbered(50)},
    ),
    "copilot.cap-tool-count": Case(
        "Visual Studio Code@1.101.0",
        "tools/list",
        {"tools": _numbered(130)},
        {"tools": _numbered(128)},
    ),
    "zed.cap-tool-count": Case(
        "Zed@0.190.0",
        "tools/list",
        {"tools": _numbered(150)},
        {"tools": _numbered(128)},
    ),
    "vscode.inline-schema-refs": Case(
        "Visual Studio Code@1.104.0",
        "tools/list",
        {"tools": [{"name": "add_expense", "inputSchema": CATEGORY_SCHEMA}]},
        {
            "tools": [
                {
                    "name": "add_expense",
                    "inputSchema": {"properties": {"category": {"enum": ["food", "transport"], "type": "string"}}},
                }
            ]
        },
    ),
    "copilot-cli.inline-schema-refs": Case(
        "github-copilot-developer@0.0.423",
        "tools/list",
        {"tools": [{"name": "list_schedules", "inputSchema": PAGERDUTY_SCHEMA}]},
        {
            "tools": [
                {
                    "name": "list_schedules",
                    "inputSchema": {
                        "properties": {"query_model": PAGERDUTY_SCHEMA["$defs"]["ScheduleQuery"]},
                        "required": ["query_model"],
                        "type": "object",
                    },
                }
            ]
        },
    ),
    "gemini-cli.inline-schema-refs": Case(
        "gemini-cli-mcp-client@0.15.1",
        "tools/list",
        {"tools": [{"name": "write_note", "inputSchema": CATEGORY_SCHEMA, "outputSchema": PAGERDUTY_SCHEMA}]},
        {
            "tools": [
                {
                    "name": "write_note",
                    "inputSchema": {"properties": {"category": {"enum": ["food", "transport"], "type": "string"}}},
                    "outputSchema": {
                        "properties": {"query_model": PAGERDUTY_SCHEMA["$defs"]["ScheduleQuery"]},
                        "required": ["query_model"],
                        "type": "object",
                    },
                }
            ]
        },
    ),
    "gemini-cli.drop-schema-dialect": Case(
        "gemini-cli-mcp-client@0.25.0",
        "tools/list",
        {
            "tools": [
                {
                    "name": "echo",
                    "inputSchema": {
                        "$schema": "https://json-schema.org/draft/2020-12/schema",
                        "type": "object",
                        "properties": {"text": {"type": "string"}},
                    },
                }
            ]
        },
        {"tools": [{"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}}]},
    ),
    "gemini-cli.move-type-into-anyof": Case(
        "gemini-cli-mcp-client@0.1.13",
        "tools/list",
        {
            "tools": [
                {
                    "name": "schedule",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "when": {"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}
                        },
                    },
                }
            ]
        },
        {
            "tools": [
                {
                    "name": "schedule",
                    "inputSchema": {
                        "type": "object",
                        "properties": {
                            "when": {
                                "anyOf": [
                                    {"format": "date", "type": "string"},
                                    {"format": "date-time", "type": "string"},
                                ]
                            }
                        },
                    },
                }
            ]
        },
    ),
    "gemini-cli.drop-output-schema": Case(
        "gemini-cli-mcp-client@0.32.0",
        "tools/list",
        {"tools": _tools("get_weather", outputSchema=OUTPUT_SCHEMA)},
        {"tools": _tools("get_weather")},
    ),
    "n8n.drop-output-schema": Case(
        "@n8n/n8n-nodes-langchain.mcpClientTool@1",
        "tools/list",
        {"tools": _tools("get_weather", outputSchema=OUTPUT_SCHEMA)},
        {"tools": _tools("get_weather")},
    ),
    "claude-desktop.mirror-structured-content": Case(
        "claude-ai@0.1.0",
        "tools/call",
        {"content": [{"type": "text", "text": "Chart of 3 points"}], "structuredContent": WEAVE_SPEC},
        {
            "content": [
                {"type": "text", "text": json.dumps(WEAVE_SPEC, separators=(",", ":"))},
                {"type": "text", "text": "Chart of 3 points"},
            ],
            "structuredContent": WEAVE_SPEC,
        },
    ),
    "claude-ai.declare-ui-capability": Case(
        "claude-ai@0.1.0",
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": CLAUDE_WEB_CAPABILITIES,
            "clientInfo": {"name": "claude-ai", "version": "0.1.0"},
        },
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {**CLAUDE_WEB_CAPABILITIES, "extensions": UI_EXTENSION},
            "clientInfo": {"name": "claude-ai", "version": "0.1.0"},
        },
        direction="request",
    ),
    "goose.write-flat-ui-uri": Case(
        "goose@1.19.0",
        "tools/list",
        {"tools": _tools("show_board", _meta={"ui": {"resourceUri": "ui://board/view.html"}})},
        {
            "tools": _tools(
                "show_board",
                _meta={"ui": {"resourceUri": "ui://board/view.html"}, "ui/resourceUri": "ui://board/view.html"},
            )
        },
    ),
    "vscode.drop-unserved-output-template": Case(
        "Visual Studio Code@1.110.1",
        "tools/list",
        {"tools": _tools("getJiraIssue", _meta={"openai/outputTemplate": "ui://widget/jira-widget.html"})},
        {"tools": _tools("getJiraIssue", _meta={})},
        server={"tools": {"listChanged": True}},
    ),
    "n8n.strip-tool-call-id": Case(
        "@n8n/n8n-nodes-langchain.mcpClientTool@1",
        "tools/call",
        {"name": "Fulltext", "arguments": {"guid": "CED78EA9", "toolCallId": "call_0BCIShth4lxZuYr4coSp4E5E"}},
        {"name": "Fulltext", "arguments": {"guid": "CED78EA9"}},
        direction="request",
    ),
}

BUNDLED_IDS = [rule.id for rule in BUNDLED]


def _run(case: Case, rules: tuple[Rule, ...] | list[Rule], client: str | None = None) -> tuple[Any, tuple[str, ...]]:
    profile = plan_rewrites(parse_client_spec(client or case.client), rules)
    if case.direction == "request":
        request = rewrite_request(case.method, case.given, profile)
        return request.params, request.applied
    rewrite = rewrite_result(case.method, case.given, profile, SessionState(server_capabilities=case.server))
    return rewrite.result, rewrite.applied


def test_every_bundled_rule_has_a_case_and_every_case_a_rule() -> None:
    assert set(CASES) == set(BUNDLED_IDS)


@pytest.mark.parametrize("rule_id", BUNDLED_IDS)
def test_the_trigger_from_the_source_is_rewritten_for_the_client_it_names(rule_id: str) -> None:
    case = CASES[rule_id]
    before = copy.deepcopy(case.given)
    output, applied = _run(case, [find_rule(BUNDLED, rule_id)])
    assert output == case.expected
    assert applied == (rule_id,)
    assert case.given == before


@pytest.mark.parametrize("rule_id", BUNDLED_IDS)
def test_the_rule_is_planned_for_its_client_among_all_bundled_rules(rule_id: str) -> None:
    assert rule_id in plan_rewrites(parse_client_spec(CASES[rule_id].client), BUNDLED).rule_ids


@pytest.mark.parametrize("rule_id", BUNDLED_IDS)
def test_a_client_no_rule_names_gets_the_input_object_itself(rule_id: str) -> None:
    case = CASES[rule_id]
    output, applied = _run(case, BUNDLED, client="mcp@0.1.0")
    assert output is case.given
    assert applied == ()


@pytest.mark.parametrize("rule_id", BUNDLED_IDS)
def test_the_matching_client_gets_already_safe_output_back_as_the_same_object(rule_id: str) -> None:
    case = CASES[rule_id]
    safe = Case(case.client, case.method, copy.deepcopy(case.expected), case.expected, case.direction, case.server)
    output, applied = _run(safe, [find_rule(BUNDLED, rule_id)])
    assert output is safe.given
    assert applied == ()


@pytest.mark.parametrize(
    ("rule_id", "outside"),
    [
        ("goose.resource-link-to-text", "goose@1.0.36"),
        ("codex.add-missing-schema-types", "codex-mcp-client@0.13.0"),
        ("codex.add-missing-schema-types", "codex-mcp-client@0.14.0-alpha.1"),
        ("goose.write-flat-ui-uri", "goose@1.20.0"),
        ("goose.write-flat-ui-uri", "goose@1.18.2"),
        ("vscode.drop-unserved-output-template", "Visual Studio Code@1.109.0-insider"),
    ],
)
def test_a_client_outside_the_version_range_gets_the_input_object_itself(rule_id: str, outside: str) -> None:
    case = CASES[rule_id]
    output, _ = _run(case, [find_rule(BUNDLED, rule_id)], client=outside)
    assert output is case.given


# Seed 002 (the Go `clientcompat` Codex profile): round `priority` to the nearest spec-legal integer in
# content, resource and embedded-resource annotations, for Codex sessions only; everything else as is.
SEED_CALL: dict[str, Any] = {
    "content": [
        {"type": "text", "text": "hello", "annotations": {"audience": ["user", "assistant"], "priority": 0.5}},
        {**IMAGE, "annotations": {"priority": 0.25}},
        {
            "type": "resource",
            "resource": {"uri": "file:///notes.md", "text": "# Notes", "annotations": {"priority": 0.5}},
            "annotations": {"audience": ["assistant"], "priority": 0.75, "lastModified": "2026-08-17T00:00:00Z"},
        },
    ],
    "structuredContent": {"annotations": {"priority": 0.5}, "score": 0.5},
    "_meta": {"x.vendor/keep": {"priority": 0.5}},
}
SEED_TOOLS: dict[str, Any] = {
    "tools": [
        {
            "name": "get_issue",
            "title": "Get issue",
            "icons": [{"src": "https://example.org/icon.png", "mimeType": "image/png", "sizes": ["48x48"]}],
            "annotations": {"readOnlyHint": True, "destructiveHint": False, "openWorldHint": True},
            "inputSchema": {"type": "object", "properties": {"iid": {"type": "integer"}}, "required": ["iid"]},
            "outputSchema": {"type": "object", "properties": {"priority": {"type": "number", "default": 0.5}}},
            "_meta": {"fastmcp": {"tags": []}},
        }
    ]
}
SEED_RESOURCES: dict[str, Any] = {
    "resources": [
        {
            "uri": "file:///notes.md",
            "name": "notes",
            "icons": [{"src": "https://example.org/notes.png"}],
            "annotations": {"audience": ["user"], "priority": 0.5, "lastModified": "2026-08-17T00:00:00Z"},
        }
    ]
}


def test_seed_002_codex_rounds_priority_in_content_and_embedded_resources_only() -> None:
    codex = plan_rewrites(parse_client_spec("codex-mcp-client@0.148.0-alpha.9"), BUNDLED)
    out = rewrite_result("tools/call", SEED_CALL, codex).result
    text, image, embedded = out["content"]
    assert text["annotations"] == {"audience": ["user", "assistant"], "priority": 1}
    assert text["annotations"]["audience"] is SEED_CALL["content"][0]["annotations"]["audience"]
    assert image["annotations"] == {"priority": 0}
    assert embedded["annotations"]["priority"] == 1
    assert embedded["annotations"]["lastModified"] == "2026-08-17T00:00:00Z"
    assert embedded["resource"]["annotations"] == {"priority": 1}
    assert embedded["resource"]["text"] == "# Notes"
    assert out["structuredContent"] is SEED_CALL["structuredContent"]
    assert out["_meta"] is SEED_CALL["_meta"]


def test_seed_002_codex_keeps_tool_annotations_output_schema_and_icons() -> None:
    codex = plan_rewrites(parse_client_spec("codex-mcp-client@0.148.0-alpha.9"), BUNDLED)
    assert rewrite_result("tools/list", SEED_TOOLS, codex).result is SEED_TOOLS
    resources = rewrite_result("resources/list", SEED_RESOURCES, codex).result
    assert resources["resources"][0]["annotations"]["priority"] == 1
    assert resources["resources"][0]["icons"] is SEED_RESOURCES["resources"][0]["icons"]
    assert resources["resources"][0]["annotations"]["audience"] == ["user"]


@pytest.mark.parametrize("other", ["claude-code@2.1.220", "cursor-vscode@1.6.14", "mcp@0.1.0", "Codex-like@1.0"])
def test_seed_002_every_other_client_keeps_the_exact_float_values(other: str) -> None:
    profile = plan_rewrites(parse_client_spec(other), BUNDLED)
    call = {key: value for key, value in SEED_CALL.items() if key != "structuredContent"}
    assert rewrite_result("tools/call", call, profile).result is call
    assert rewrite_result("resources/list", SEED_RESOURCES, profile).result is SEED_RESOURCES
    assert rewrite_result("tools/list", SEED_TOOLS, profile).result is SEED_TOOLS
