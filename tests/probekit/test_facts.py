"""From a view's report to catalog facts and an override document: each level decided by the evidence, hostile input
read as nothing, and the document always passing the catalog's validator."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.catalog.load import apply_overrides, load_catalog
from hostcompat.probekit.facts import derive_facts
from hostcompat.probekit.override import Seen, build_override, find_host, os_of
from hostcompat.probekit.report import read_report

CATALOG = load_catalog()
SCHEMA = jsonschema.Draft202012Validator(
    json.loads(resources.files("hostcompat").joinpath("data/hosts.schema.json").read_text(encoding="utf-8"))
)
SEEN = Seen(client_name="goose", client_version="1.30.0", os="linux", kit_version="0.1.0", date="2026-12-04")


def _facts(report: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    derived = derive_facts({"declared": read_report(report)}, **kwargs)
    return {item.path.removeprefix("ui.mcpApps.features."): item for item in derived.facts}


def test_a_refusal_is_unsupported_an_answer_supported_and_a_timeout_refused() -> None:
    facts = _facts(
        {
            "requests": {
                "ui/open-link": {"outcome": "result", "result": {"isError": True}},  # the user declined
                "ui/download-file": {"outcome": "timeout"},
                "resources/read": {"outcome": "error", "code": -32601},
            }
        }
    )
    assert facts["openLinks"].value == "supported" and "isError" in facts["openLinks"].note
    assert facts["downloadFile"].value == "unsupported" and "no answer" in facts["downloadFile"].note
    assert facts["serverResources"].value == "unsupported" and "-32601" in facts["serverResources"].note


def test_messages_to_the_model_count_only_once_the_model_confirms_their_token() -> None:
    report = {"requests": {"ui/message": {"outcome": "result"}}, "tokens": {"ui/message": "msg-1"}}
    derived = derive_facts({"declared": read_report(report)})
    assert "ui.mcpApps.features.message" not in {item.path for item in derived.facts}
    assert any("never confirmed" in line for line in derived.remarks)
    assert _facts(report, confirmed=frozenset({"msg-1"}))["message"].value == "supported"
    assert "message" not in _facts(report, confirmed=frozenset({"msg-2"}))  # another token decides nothing


def test_a_stripped_tool_result_is_partial_with_the_trigger_that_makes_it_bite() -> None:
    whole = _facts({"delivery": {"toolResult": True, "structuredContent": True, "nonce": "n1"}}, nonce="n1")
    assert whole["toolResult"].value == "supported"
    stripped = _facts({"delivery": {"toolResult": True, "structuredContent": False}}, nonce="n1")["toolResult"]
    assert (stripped.value, stripped.trigger) == ("partial", "widget-result-structured-not-in-text")
    assert _facts({"delivery": {}})["toolResult"].value == "unsupported"


def test_csp_and_permissions() -> None:
    report = {
        "csp": {"connect:declared": "allowed", "connect:undeclared": "allowed", "frame:declared": "blocked"},
        "permissions": {"policy": {"camera": False, "clipboardWrite": True, "microphone": "yes"}},
    }
    derived = derive_facts({"declared": read_report(report)})
    facts = {item.path: item for item in derived.facts}
    assert facts["ui.mcpApps.features.cspConnectDomains"].value == "supported"
    assert facts["ui.mcpApps.features.cspFrameDomains"].value == "unsupported"
    assert facts["ui.mcpApps.sandboxPermissionAllow"].value == ("clipboardWrite",)
    assert any("does not enforce" in line for line in derived.remarks)


def test_os_and_host_from_what_was_seen() -> None:
    assert os_of("MacIntel") == "macos" and os_of("", "Mozilla/5.0 (Windows NT 10.0)") == "windows"
    assert os_of("Linux x86_64") == "linux" and os_of("iPhone") == "ios" and os_of("") is None
    assert find_host(CATALOG, "goose-desktop") is CATALOG.get("goose")
    assert find_host(CATALOG, "nobody", "claude-ai") is CATALOG.get("claude")
    assert find_host(CATALOG, "Claude Desktop") is CATALOG.get("claude")  # by the slug of an alias
    assert find_host(CATALOG, "nobody") is None


def test_the_document_scopes_facts_to_what_was_seen_unless_told_they_are_common() -> None:
    derived = derive_facts({"declared": read_report({"requests": {"ui/open-link": {"outcome": "result"}}})})
    scoped = build_override(CATALOG, SEEN, derived)
    (host,) = scoped["hosts"]
    assert host["id"] == "goose" and all(variant["os"] == ["linux"] for variant in host["variants"])
    common = build_override(CATALOG, SEEN, derived, common=True)["hosts"][0]
    assert "variants" not in common and common["ui"]["mcpApps"]["features"]["openLinks"]["value"] == "supported"
    new = build_override(CATALOG, dataclasses.replace(SEEN, client_name="Acme Chat 2"), derived)["hosts"][0]
    assert (new["id"], new["displayName"], new["kind"]) == ("acme-chat-2", "Acme Chat 2", "other")
    assert new["clientInfoNames"]["value"] == ["Acme Chat 2"]
    for document in (scoped, {"catalog": scoped["catalog"], "hosts": [common]}, {**scoped, "hosts": [new]}):
        SCHEMA.validate(document)  # the published schema of catalog files accepts it too


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=30),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
        max_leaves=30,
    ),
    st.text(max_size=40),
)
def test_any_report_gives_a_valid_override(raw: Any, name: str) -> None:
    derived = derive_facts({"declared": read_report(raw)})
    seen = dataclasses.replace(SEEN, client_name=name or None, host_name=name or None)
    try:
        document = build_override(CATALOG, seen, derived)
    except Exception as error:  # pragma: no cover - the failure is the finding
        pytest.fail(f"{type(error).__name__}: {error}")
    apply_overrides(CATALOG, document, source_name="test")
    SCHEMA.validate(document)
