"""The bundled host catalog's content: MCPJam parity, sourcing, the JSON Schema, notes and rule links."""

import json
from importlib import resources
from typing import Any

import jsonschema
import pytest

from hostcompat.engine.catalog.load import BUNDLED_SOURCE_NAME, Catalog, Fact, load_catalog
from hostcompat.engine.catalog.schema import (
    FACT_FIELDS,
    KINDS,
    LEVELS,
    MCP_APPS_FEATURES,
    PROVENANCES,
    SCHEMA_VERSION,
    date_problem,
)


@pytest.fixture(scope="module")
def bundled() -> Catalog:
    return load_catalog()


# ---- reference data: MCPJam's bundled catalog, transcribed from host-compat.md §3 -------------------------------

NINE = (
    "serverTools",
    "serverResources",
    "message",
    "updateModelContext",
    "openLinks",
    "downloadFile",
    "logging",
    "sandboxPermissions",
    "cspFrameDomains",
)
V3 = ("2025-03-26", "2025-06-18", "2025-11-25")
V4 = (*V3, "2026-07-28")
# id: provenance, verifiedAt, renders MCP Apps, renders OpenAI Apps, protocol versions, nine capabilities, allowlist
MCPJAM: dict[str, tuple[str, str, bool, bool, tuple[str, ...] | None, str | None, tuple[str, ...] | None]] = {
    "mcpjam": (
        "assumed",
        "2026-07-23",
        True,
        True,
        None,
        "YYYYYYYYY",
        ("camera", "microphone", "geolocation", "clipboardWrite"),
    ),
    "claude": ("probe", "2026-08-19", True, False, V4, "YYYYYYYYn", ("clipboardWrite",)),
    "claude-code": ("probe", "2026-08-19", False, False, V3, None, None),
    "chatgpt": ("probe", "2026-08-19", True, True, V4, "YYYYYnYYY", ("microphone", "clipboardWrite")),
    "mistral": ("probe", "2026-07-23", True, False, ("2025-11-25",), "YYYYYnYYn", ("clipboardWrite",)),
    "goose": ("probe", "2026-08-14", True, False, ("2025-03-26",), "nnnnYnnnn", ()),
    "slack": ("probe", "2026-07-23", True, False, ("2025-06-18",), "YYnnYnYnn", ()),
    "cursor": ("probe", "2026-08-14", True, False, ("2025-11-25",), "YYnnYYYYY", ("clipboardWrite",)),
    "codex": ("probe", "2026-08-19", True, True, V3, "YYYYYnYnY", None),
    "copilot": ("vendor-doc", "2026-07-23", True, True, ("2025-11-25",), "YnYYYnnnn", ()),
    "vscode": ("probe", "2026-07-23", True, False, ("2025-11-25",), "YYnYYYYYY", ("clipboardWrite",)),
    "agentcore": ("vendor-doc", "2026-07-23", False, False, ("2025-06-18",), None, None),
    "n8n": ("probe", "2026-07-23", False, False, ("2025-11-25",), None, None),
    "perplexity": ("probe", "2026-07-23", False, False, ("2025-06-18",), None, None),
    "cline": ("probe", "2026-07-23", False, False, ("2025-11-25",), None, None),
    "notion": ("probe", "2026-07-23", False, False, ("2025-11-25",), None, None),
}

ISSUE_HOSTS = (
    "claude",
    "claude-desktop",
    "claude-code",
    "chatgpt",
    "vscode",
    "cursor",
    "codex",
    "goose",
    "copilot",
    "mistral",
    "slack",
    "postman",
    "librechat",
    "windsurf",
    "zed",
    "jetbrains-ai-assistant",
    "gemini-cli",
)


def _expected_level(flag: bool) -> str:
    return "supported" if flag else "unsupported"


def _check_or_note(fact: Fact | None, expected: object, where: str) -> None:
    assert fact is not None, where
    if fact.value != expected:
        assert fact.note and "MCPJam" in fact.note, f"{where}: {fact.value!r} != MCPJam's {expected!r} without a note"


# ---- the bundled catalog -----------------------------------------------------------------------------------------


def test_the_bundled_catalog_validates_and_has_a_header(bundled: Catalog) -> None:
    assert bundled.header.schema_version == SCHEMA_VERSION
    assert date_problem(bundled.header.date, full=True) is None
    assert bundled.sources == (BUNDLED_SOURCE_NAME,)
    assert len(bundled.hosts) >= len(MCPJAM)


def test_every_host_of_mcpjams_catalog_is_present_with_mcpjams_values_unless_a_note_explains(bundled: Catalog) -> None:
    for host_id, (provenance, verified, apps, openai, versions, nine, allow) in MCPJAM.items():
        host = bundled.get(host_id)
        assert host.id == host_id
        apps_fact = host.fact("ui.formats.mcp-apps")
        _check_or_note(apps_fact, _expected_level(apps), f"{host_id} mcp-apps")
        _check_or_note(host.fact("ui.formats.openai-apps-sdk"), _expected_level(openai), f"{host_id} openai")
        assert apps_fact is not None
        if apps_fact.value != _expected_level(apps):  # a newer source on the common path: MCPJam's is a variant
            apps_fact = next(v.fact for v in host.variants if v.path == "ui.formats.mcp-apps")
        assert (apps_fact.provenance, apps_fact.date) == (provenance, verified)
        if versions is None:
            assert host.fact("server.protocolVersions") is None
        else:
            _check_or_note(host.fact("server.protocolVersions"), versions, f"{host_id} versions")
        for need, flag in zip(NINE, nine or "", strict=False):
            _check_or_note(host.fact(f"ui.mcpApps.features.{need}"), _expected_level(flag == "Y"), f"{host_id} {need}")
        if nine is None:
            assert not [path for path in host.facts if path.startswith("ui.mcpApps.")], host_id
        allow_fact = host.fact("ui.mcpApps.sandboxPermissionAllow")
        assert (allow_fact.value if allow_fact else None) == allow, host_id


def test_the_hosts_named_in_the_issue_are_all_in_the_catalog(bundled: Catalog) -> None:
    for name in ISSUE_HOSTS:
        assert bundled.get(name).display_name


def test_every_fact_and_quirk_carries_provenance_source_and_a_date(bundled: Catalog) -> None:
    for host in bundled.hosts:
        assert host.kind in KINDS
        stamps = [(fact.provenance, fact.source, fact.date) for fact in host.facts.values()]
        stamps += [(quirk.provenance, quirk.source, quirk.date) for quirk in host.quirks]
        for provenance, source, date in stamps:
            assert provenance in PROVENANCES, host.id
            assert source.strip(), host.id
            assert date_problem(date) is None, (host.id, date)


def test_the_bundled_file_reproduces_exactly_from_the_loaded_catalog(bundled: Catalog) -> None:
    text = resources.files("hostcompat").joinpath("data/hosts.json").read_text(encoding="utf-8")
    on_disk = json.loads(text)
    assert json.dumps(on_disk) == json.dumps({"$schema": "./hosts.schema.json", **bundled.to_dict()})


def test_the_bundled_file_validates_against_its_json_schema() -> None:
    data = resources.files("hostcompat").joinpath("data")
    schema = json.loads(data.joinpath("hosts.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    document = json.loads(data.joinpath("hosts.json").read_text(encoding="utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(document)) == []


def test_the_json_schema_knows_the_same_fact_paths_and_levels_as_the_validator() -> None:
    schema = json.loads(resources.files("hostcompat").joinpath("data/hosts.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]

    def leaves(node: dict[str, Any], prefix: str) -> set[str]:
        found: set[str] = set()
        for key, child in node.get("properties", {}).items():
            path = f"{prefix}{key}"
            found |= {path} if "$ref" in child else leaves(child, f"{path}.")
        return found

    host_properties = {
        key: value
        for key, value in defs["host"]["properties"].items()
        if key in ("vendor", "platforms", "clientInfoNames", "ui", "server")
    }
    assert leaves({"properties": host_properties}, "") == set(FACT_FIELDS)
    assert defs["level"]["enum"] == list(LEVELS)
    assert defs["provenance"]["enum"] == list(PROVENANCES)
    assert defs["host"]["properties"]["kind"]["enum"] == list(KINDS)
    mcp_apps = defs["host"]["properties"]["ui"]["properties"]["mcpApps"]["properties"]
    assert set(mcp_apps["features"]["properties"]) == set(MCP_APPS_FEATURES)


def test_the_legacy_mcp_ui_format_is_a_third_ui_format_where_hosts_render_it(bundled: Catalog) -> None:
    librechat = bundled.get("librechat")
    assert librechat.level("ui.formats.mcp-apps") == "unsupported"
    assert librechat.level("ui.formats.mcp-ui-legacy") == "partial"
    assert bundled.get("nanobot").level("ui.formats.mcp-ui-legacy") == "supported"


def test_disagreements_between_sources_are_kept_as_notes_naming_the_other_value(bundled: Catalog) -> None:
    update = bundled.get("claude").fact("ui.mcpApps.features.updateModelContext")
    assert update is not None and update.value == "supported"
    assert update.note and "presets" in update.note
    versions = bundled.get("cursor").fact("server.protocolVersions")
    assert versions is not None and versions.note and "2025-06-18" in versions.note


def test_a_quirk_id_means_the_same_thing_on_every_host_that_has_it(bundled: Catalog) -> None:
    texts: dict[str, str] = {}
    for host in bundled.hosts:
        for quirk in host.quirks:
            assert texts.setdefault(quirk.id, quirk.text) == quirk.text, quirk.id
    assert "codex-resource-link-unexpected-response" in {quirk.id for quirk in bundled.get("codex").quirks}


def test_every_client_rule_a_quirk_links_to_exists_in_the_bundled_client_rules(bundled: Catalog) -> None:
    rules_text = resources.files("hostcompat").joinpath("data/client-rules.json").read_text(encoding="utf-8")
    rule_ids = {rule["id"] for rule in json.loads(rules_text)["rules"]}
    linked = {quirk.rule for host in bundled.hosts for quirk in host.quirks if quirk.rule is not None}
    assert linked, "no quirk links to a client rule"
    assert linked <= rule_ids, sorted(linked - rule_ids)
