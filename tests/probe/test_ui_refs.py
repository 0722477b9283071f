"""Which `ui://` resources a probe reads: nested, flat and OpenAI keys, listed resources, findings for bad metas."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import MAX_UI_URI_BYTES, RESOURCE_URI_META_KEY
from hostcompat.probe import ui_references
from tests.probe.strategies import json_objects


def test_uris_come_from_tools_then_the_listing_in_first_seen_order() -> None:
    tools: list[dict[str, Any]] = [
        {"name": "nested", "_meta": {"ui": {"resourceUri": "ui://a/one.html"}}},
        {"name": "flat", "_meta": {RESOURCE_URI_META_KEY: "ui://a/two.html"}},
        {"name": "openai", "_meta": {"openai/outputTemplate": "ui://a/three.html"}},
        {"name": "again", "_meta": {"ui": {"resourceUri": "ui://a/one.html"}}},
        {"name": "plain"},
    ]
    resources = [{"uri": "ui://a/two.html"}, {"uri": "ui://a/four.html"}, {"uri": "https://x/notes"}]
    refs, findings = ui_references(tools, resources)
    assert refs == {
        "ui://a/one.html": ("tool:nested", "tool:again"),
        "ui://a/two.html": ("tool:flat", "resources/list"),
        "ui://a/three.html": ("tool:openai",),
        "ui://a/four.html": ("resources/list",),
    }
    assert findings == ()


def test_the_nested_key_wins_over_the_flat_one() -> None:
    tool = {"name": "t", "_meta": {"ui": {"resourceUri": "ui://a/new.html"}, RESOURCE_URI_META_KEY: "ui://a/old.html"}}
    refs, _ = ui_references([tool], [])
    assert list(refs) == ["ui://a/new.html"]


def test_malformed_metas_are_findings_not_errors() -> None:
    tools: list[dict[str, Any]] = [
        {"name": "string-ui", "_meta": {"ui": "ui://a/x.html"}},
        {"name": "http-uri", "_meta": {"ui": {"resourceUri": "https://a/x.html"}}},
        {"name": "bad-template", "_meta": {"openai/outputTemplate": 7}},
        {"name": "meta-list", "_meta": ["ui"]},
        {"name": "huge", "_meta": {"ui": {"resourceUri": "ui://a/" + "x" * MAX_UI_URI_BYTES}}},
        {"_meta": {"ui": {"resourceUri": 3}}},
    ]
    refs, findings = ui_references(tools, [])
    assert refs == {}
    assert [finding.code for finding in findings] == ["PROBE-INVALID-UI-META"] * 6
    assert [finding.detail["reference"] for finding in findings] == [
        "tool:string-ui",
        "tool:http-uri",
        "tool:bad-template",
        "tool:meta-list",
        "tool:huge",
        "tool:#5",
    ]


@given(st.lists(json_objects, max_size=5), st.lists(json_objects, max_size=5))
def test_any_listing_gives_references_and_findings_without_raising(
    tools: list[dict[str, Any]], resources: list[dict[str, Any]]
) -> None:
    before = copy.deepcopy((tools, resources))
    refs, findings = ui_references(tools, resources)
    assert all(uri.startswith("ui://") and names for uri, names in refs.items())
    assert all(finding.code == "PROBE-INVALID-UI-META" for finding in findings)
    assert (tools, resources) == before


uri_like = st.text(max_size=8).map(lambda tail: f"ui://{tail}") | st.text(max_size=8)
scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=4)
metas = st.fixed_dictionaries(
    {},
    optional={
        "ui": st.fixed_dictionaries({}, optional={"resourceUri": uri_like | scalars}) | scalars,
        RESOURCE_URI_META_KEY: uri_like | scalars,
        "openai/outputTemplate": uri_like | scalars,
    },
)


@given(st.lists(metas, max_size=4))
def test_every_good_uri_is_read_and_every_bad_template_is_reported(tool_metas: list[dict[str, Any]]) -> None:
    tools = [{"name": f"t{index}", "_meta": meta} for index, meta in enumerate(tool_metas)]
    refs, findings = ui_references(tools, [])
    reported = {finding.detail["reference"] for finding in findings}
    for index, meta in enumerate(tool_metas):
        label = f"tool:t{index}"
        template = meta.get("openai/outputTemplate")
        if isinstance(template, str) and template.startswith("ui://"):
            assert label in refs[template]
        elif template is not None:
            assert label in reported
        ui = meta.get("ui")
        nested = ui.get("resourceUri") if isinstance(ui, dict) else None
        if isinstance(nested, str) and nested.startswith("ui://"):
            assert label in refs[nested]
