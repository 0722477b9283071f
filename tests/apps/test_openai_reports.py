import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given

from hostcompat.apps import openai
from hostcompat.apps.meta.access import ResourceCSP, ResourcePermissions, ResourceUI, ToolUI
from hostcompat.apps.openai.mapping import (
    OPENAI_FILE_PARAMS,
    OPENAI_INVOKED,
    OPENAI_INVOKING,
    OPENAI_OUTPUT_TEMPLATE,
    OPENAI_VISIBILITY,
    OPENAI_WIDGET_ACCESSIBLE,
    OPENAI_WIDGET_CSP,
    OPENAI_WIDGET_DESCRIPTION,
    OPENAI_WIDGET_DOMAIN,
    OPENAI_WIDGET_PREFERS_BORDER,
    resource_openai_from_ui,
)
from hostcompat.apps.openai.reports import (
    OpenAIConflict,
    Untranslated,
    openai_conflicts,
    untranslated_openai_keys,
    untranslated_ui_keys,
)
from hostcompat.errors import HostCompatError, InvalidOpenAIMeta
from tests.apps.openai_strategies import MCP_RESOURCE_UI, URI, metas


def test_the_reports_are_still_importable_from_the_openai_module() -> None:
    assert openai.openai_conflicts is openai_conflicts
    assert openai.untranslated_openai_keys is untranslated_openai_keys
    assert openai.untranslated_ui_keys is untranslated_ui_keys
    assert (openai.OpenAIConflict, openai.Untranslated) == (OpenAIConflict, Untranslated)
    assert {"OpenAIConflict", "Untranslated", "openai_conflicts"} <= set(openai.__all__)


# --- untranslated keys ---------------------------------------------------------------------------------


def test_mcp_only_fields_are_not_written_and_are_reported() -> None:
    ui = ResourceUI(
        csp=ResourceCSP(base_uri_domains=("https://base.example",), wasm_unsafe_eval=True),
        permissions=ResourcePermissions(camera=True),
    )
    out = resource_openai_from_ui(ui)
    assert out == {OPENAI_WIDGET_CSP: {"connect_domains": [], "resource_domains": []}}
    assert [note.key for note in untranslated_ui_keys(ui)] == [
        "ui.csp.baseUriDomains",
        "ui.csp.wasmUnsafeEval",
        "ui.permissions",
    ]
    assert untranslated_ui_keys(MCP_RESOURCE_UI) == []
    assert untranslated_ui_keys(ToolUI(visibility=("model", "agent"))) == [
        Untranslated("ui.visibility", "audiences other than model/app", ["agent"])
    ]


def test_keys_without_equivalent_are_reported_and_mapped_keys_are_not() -> None:
    meta = {
        OPENAI_OUTPUT_TEMPLATE: URI,
        OPENAI_INVOKING: "Searching…",
        OPENAI_INVOKED: "Done",
        OPENAI_WIDGET_DESCRIPTION: "A kanban board",
        OPENAI_FILE_PARAMS: ["upload"],
        OPENAI_WIDGET_CSP: {"connect_domains": [], "script_domains": ["https://x"]},
        "openai/resultCanProduceWidget": True,
        "vendor/other": 1,
    }
    notes = untranslated_openai_keys(meta)
    assert [(note.key, note.value) for note in notes] == [
        (OPENAI_INVOKING, "Searching…"),
        (OPENAI_INVOKED, "Done"),
        (OPENAI_WIDGET_DESCRIPTION, "A kanban board"),
        (OPENAI_FILE_PARAMS, ["upload"]),
        (f"{OPENAI_WIDGET_CSP}.script_domains", ["https://x"]),
        ("openai/resultCanProduceWidget", True),
    ]
    assert all(note.reason for note in notes)


def test_wrong_unmapped_keys_raise_too() -> None:
    with pytest.raises(InvalidOpenAIMeta):
        untranslated_openai_keys({OPENAI_WIDGET_DESCRIPTION: {"text": "x"}})
    with pytest.raises(InvalidOpenAIMeta):
        untranslated_openai_keys({OPENAI_FILE_PARAMS: "upload"})


# --- conflicts -----------------------------------------------------------------------------------------


def conflict_keys(meta: dict[str, Any]) -> list[str]:
    return [conflict.openai_key for conflict in openai_conflicts(meta)]


@pytest.mark.parametrize(
    ("meta", "expected"),
    [
        ({"ui": {"resourceUri": URI}, OPENAI_WIDGET_ACCESSIBLE: False}, [OPENAI_WIDGET_ACCESSIBLE]),
        ({"ui": {"visibility": ["model"]}, OPENAI_WIDGET_ACCESSIBLE: True}, [OPENAI_WIDGET_ACCESSIBLE]),
        ({"ui": {"visibility": ["model", "app"]}, OPENAI_VISIBILITY: "private"}, [OPENAI_VISIBILITY]),
        ({"ui": {"visibility": ["app"]}, OPENAI_VISIBILITY: "public"}, [OPENAI_VISIBILITY]),
        ({"ui/resourceUri": URI, OPENAI_OUTPUT_TEMPLATE: "ui://other"}, [OPENAI_OUTPUT_TEMPLATE]),
        ({"ui": {}, OPENAI_WIDGET_CSP: {"frame_domains": ["https://f"]}}, [f"{OPENAI_WIDGET_CSP}.frame_domains"]),
        (
            {"ui": {"linkTrustedDomains": ["https://a"]}, OPENAI_WIDGET_CSP: {"redirect_domains": ["https://b"]}},
            [f"{OPENAI_WIDGET_CSP}.redirect_domains"],
        ),
        ({"ui": {"domain": "a.example"}, OPENAI_WIDGET_DOMAIN: "b.example"}, [OPENAI_WIDGET_DOMAIN]),
        ({"ui": {"prefersBorder": True}, OPENAI_WIDGET_PREFERS_BORDER: False}, [OPENAI_WIDGET_PREFERS_BORDER]),
    ],
)
def test_conflicts_name_each_disagreement(meta: dict[str, Any], expected: list[str]) -> None:
    assert conflict_keys(meta) == expected
    assert all(isinstance(conflict, OpenAIConflict) for conflict in openai_conflicts(meta))


@pytest.mark.parametrize(
    "meta",
    [
        {},
        {OPENAI_OUTPUT_TEMPLATE: URI, OPENAI_WIDGET_ACCESSIBLE: False},
        {"ui": {"resourceUri": URI}},
        {"ui": {"resourceUri": URI}, OPENAI_OUTPUT_TEMPLATE: URI, OPENAI_WIDGET_ACCESSIBLE: True},
        {
            "ui": {"csp": {"connectDomains": ["https://a", "https://b"]}},
            OPENAI_WIDGET_CSP: {"connect_domains": ["https://b", "https://a"]},
        },
        {"ui": {}, OPENAI_WIDGET_DOMAIN: "a.example", OPENAI_WIDGET_PREFERS_BORDER: True},
    ],
)
def test_no_conflict_when_a_side_is_silent_or_they_agree(meta: dict[str, Any]) -> None:
    assert openai_conflicts(meta) == []


def test_conflicts_of_no_meta_are_empty() -> None:
    assert openai_conflicts(None) == []


# --- properties ----------------------------------------------------------------------------------------


@given(metas)
def test_reports_on_arbitrary_meta_give_findings_or_hostcompat_errors_and_never_mutate(meta: dict[str, Any]) -> None:
    before = copy.deepcopy(meta)
    conflicts = attempt(openai_conflicts, meta)
    assert isinstance(conflicts, HostCompatError) or all(isinstance(item, OpenAIConflict) for item in conflicts)
    untranslated = attempt(untranslated_openai_keys, meta)
    assert isinstance(untranslated, HostCompatError) or all(isinstance(item, Untranslated) for item in untranslated)
    assert meta == before


def attempt(report: Callable[[Any], list[Any]], meta: Any) -> list[Any] | HostCompatError:
    try:
        return report(meta)
    except HostCompatError as error:
        return error
