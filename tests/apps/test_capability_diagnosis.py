from typing import Any

import mcp.types as mcp_types
import pytest
from hypothesis import given

from hostcompat.apps import capabilities
from hostcompat.apps.capabilities.access import client_ui_capable, set_client_capability
from hostcompat.apps.capabilities.diagnosis import CapabilityDiagnosis, diagnose_ui_capability
from hostcompat.apps.constants import (
    EXTENSION_ID,
    LEGACY_RESOURCE_MIME_TYPE,
    OPENAI_WIDGET_MIME_TYPE,
    RESOURCE_MIME_TYPE,
)
from hostcompat.errors import HostCompatError
from tests.apps.capability_strategies import VENDOR, LegacyClientCapabilities, caps_values, ui_caps


def test_the_diagnosis_is_still_importable_from_the_capabilities_module() -> None:
    assert capabilities.diagnose_ui_capability is diagnose_ui_capability
    assert capabilities.CapabilityDiagnosis is CapabilityDiagnosis
    assert {"CapabilityDiagnosis", "DiagnosisCode", "diagnose_ui_capability"} <= set(capabilities.__all__)


# --- near misses ---------------------------------------------------------------------------------------


def codes(caps: Any) -> list[str]:
    return [note.code for note in diagnose_ui_capability(caps)]


@pytest.mark.parametrize(
    ("caps", "expected"),
    [
        (None, ["CAP-ABSENT"]),
        ({}, ["CAP-ABSENT"]),
        ({"extensions": {VENDOR: {}}}, ["CAP-ABSENT"]),
        ({"extensions": "nope"}, ["CAP-MALFORMED"]),
        (ui_caps({"mimeTypes": "text/html"}), ["CAP-MALFORMED"]),
        (ui_caps({"mimeTypes": [RESOURCE_MIME_TYPE]}, slot="experimental"), ["CAP-EXPERIMENTAL-ONLY"]),
        ({"extensions": {"io.modelcontextprotocol/apps": {}}}, ["CAP-KEY-TYPO"]),
        ({"extensions": {"IO.ModelContextProtocol/UI": {}}}, ["CAP-KEY-TYPO"]),
        ({"extensions": {"io.modelcontextprotocol.ui": {}}}, ["CAP-KEY-TYPO"]),
        ({"extensions": {"io.modelcontextprotcol/ui": {}}}, ["CAP-KEY-TYPO"]),
        ({"experimental": {"modelcontextprotocol/ui": {}}}, ["CAP-KEY-TYPO"]),
        ({EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}, ["CAP-MISPLACED"]),
        (ui_caps({}), ["CAP-MIME-MISSING"]),
        (ui_caps({"mimeTypes": None}), ["CAP-MIME-MISSING"]),
        (ui_caps({"mimeTypes": []}), ["CAP-MIME-EMPTY"]),
        (ui_caps({"mimeTypes": ["TEXT/HTML;profile=MCP-APP"]}), ["CAP-MIME-CASE"]),
        (ui_caps({"mimeTypes": ["text/html; profile=mcp-app"]}), ["CAP-MIME-SPACES"]),
        (ui_caps({"mimeTypes": ["Text/html; profile=mcp-app"]}), ["CAP-MIME-SPACES", "CAP-MIME-CASE"]),
        (ui_caps({"mimeTypes": ["text/html"]}), ["CAP-MIME-NO-PROFILE"]),
        (ui_caps({"mimeTypes": ["text/html;charset=utf-8"]}), ["CAP-MIME-NO-PROFILE"]),
        (ui_caps({"mimeTypes": ['text/html;profile="mcp-app"']}), ["CAP-MIME-NOT-EXACT"]),
        (ui_caps({"mimeTypes": ["text/html;profile=mcp-app;charset=utf-8"]}), ["CAP-MIME-NOT-EXACT"]),
        (ui_caps({"mimeTypes": [LEGACY_RESOURCE_MIME_TYPE]}), ["CAP-MIME-LEGACY"]),
        (ui_caps({"mimeTypes": [OPENAI_WIDGET_MIME_TYPE]}), ["CAP-MIME-SKYBRIDGE"]),
        (ui_caps({"mimeTypes": ["application/json", "text/html;profile=other"]}), ["CAP-MIME-NOT-FOUND"]),
        (ui_caps({"mimeTypes": ["text/html"]}, slot="experimental"), ["CAP-EXPERIMENTAL-ONLY", "CAP-MIME-NO-PROFILE"]),
    ],
)
def test_diagnosis_names_each_near_miss_with_a_stable_code(caps: Any, expected: list[str]) -> None:
    assert codes(caps) == expected
    assert not client_ui_capable(caps)


def test_diagnosis_carries_the_offending_value() -> None:
    notes = diagnose_ui_capability(ui_caps({"mimeTypes": ["text/html+mcp", "text/html"]}))
    assert [(note.code, note.value) for note in notes] == [
        ("CAP-MIME-LEGACY", "text/html+mcp"),
        ("CAP-MIME-NO-PROFILE", "text/html"),
    ]
    assert all(isinstance(note, CapabilityDiagnosis) and note.message for note in notes)


def test_diagnosis_is_empty_for_a_capable_peer_even_with_other_problems_elsewhere() -> None:
    caps = {**ui_caps({"mimeTypes": ["text/html", RESOURCE_MIME_TYPE]}), "experimental": "garbage"}
    assert diagnose_ui_capability(caps) == []
    assert diagnose_ui_capability(set_client_capability(mcp_types.ClientCapabilities())) == []


def test_diagnosis_does_not_flag_other_official_extensions_as_typos() -> None:
    caps: dict[str, Any] = {
        "extensions": {"io.modelcontextprotocol/tasks": {}, "io.modelcontextprotocol/oauth-client-credentials": {}}
    }
    assert codes(caps) == ["CAP-ABSENT"]


def test_diagnosis_reports_a_non_object_caps_as_malformed_instead_of_raising() -> None:
    notes = diagnose_ui_capability(["extensions"])
    assert [(note.code, note.value) for note in notes] == [("CAP-MALFORMED", ["extensions"])]


def test_diagnosis_reads_sdk_models() -> None:
    caps = mcp_types.ClientCapabilities(experimental={EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}})
    assert codes(caps) == ["CAP-EXPERIMENTAL-ONLY"]
    legacy = LegacyClientCapabilities.model_validate(ui_caps({"mimeTypes": ["text/html"]}))
    assert codes(legacy) == ["CAP-MIME-NO-PROFILE"]


# --- properties ----------------------------------------------------------------------------------------


@given(caps_values)
def test_diagnosis_is_empty_exactly_when_capable_and_never_raises(caps: Any) -> None:
    notes = diagnose_ui_capability(caps)
    try:
        capable = client_ui_capable(caps)
    except HostCompatError:
        assert [note.code for note in notes] == ["CAP-MALFORMED"]
    else:
        assert (notes == []) == capable
