import base64
import contextlib
import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.apps.constants import (
    LEGACY_RESOURCE_MIME_TYPE,
    MAX_HTML_BYTES,
    OPENAI_WIDGET_MIME_TYPE,
    RESOURCE_MIME_TYPE,
    RESOURCE_URI_META_KEY,
)
from hostcompat.apps.resource import content_hash
from hostcompat.engine.findings.model import Finding, Severity
from hostcompat.engine.findings.rules import RULES
from hostcompat.engine.hygiene.check import check_server_hygiene, is_meaningful_content
from hostcompat.errors import InvalidInput, ResourceReadFailed

URI = "ui://shop/cart.html"
HTML = "<!DOCTYPE html><html><head><title>Cart</title></head><body><div id='app'></div></body></html>"
API = "https://api.shop.example"
Server = dict[str, Any]


def resource_ui(html: str = HTML) -> dict[str, Any]:
    return {"csp": {"connectDomains": [API]}, "contentHash": content_hash(html)}


def clean_server() -> Server:
    """A dual-bridge widget server that breaks no hygiene rule."""
    return {
        "tools": [
            {
                "name": "show_cart",
                "_meta": {
                    "ui": {"resourceUri": URI, "visibility": ["model", "app"]},
                    RESOURCE_URI_META_KEY: URI,
                    "openai/outputTemplate": URI,
                    "openai/widgetAccessible": True,
                    "openai/visibility": "public",
                },
            },
            {"name": "add_item", "inputSchema": {"type": "object"}},
        ],
        "resources": [
            {"uri": URI, "name": "cart", "mimeType": RESOURCE_MIME_TYPE, "_meta": {"ui": resource_ui()}},
            {"uri": "file:///catalog.json", "name": "catalog", "mimeType": "application/json"},
        ],
        "ui_resources": {
            URI: {
                "contents": [
                    {
                        "uri": URI,
                        "mimeType": RESOURCE_MIME_TYPE,
                        "text": HTML,
                        "_meta": {
                            "ui": resource_ui(),
                            "openai/widgetCSP": {"connect_domains": [API], "resource_domains": []},
                        },
                    }
                ]
            }
        },
        "call_results": {
            "show_cart": {"content": [{"type": "text", "text": "Cart: 2 items"}], "structuredContent": {"n": 2}}
        },
    }


def run(server: Server) -> list[Finding]:
    return check_server_hygiene(
        server["tools"], server["resources"], server["ui_resources"], call_results=server["call_results"]
    )


def rule_ids(server: Server) -> list[str]:
    return [finding.rule_id for finding in run(server)]


# --- accessors used by the cases ---------------------------------------------------------------------------------


def tool_meta(server: Server) -> dict[str, Any]:
    meta: dict[str, Any] = server["tools"][0]["_meta"]
    return meta


def tool_ui(server: Server) -> dict[str, Any]:
    ui: dict[str, Any] = tool_meta(server)["ui"]
    return ui


def listing(server: Server) -> dict[str, Any]:
    entry: dict[str, Any] = server["resources"][0]
    return entry


def item(server: Server) -> dict[str, Any]:
    content: dict[str, Any] = server["ui_resources"][URI]["contents"][0]
    return content


def with_html(server: Server, html: str) -> None:
    item(server)["text"] = html
    for holder in (item(server), listing(server)):
        holder["_meta"]["ui"]["contentHash"] = content_hash(html)


def with_uri(server: Server, uri: str) -> None:
    meta = tool_meta(server)
    meta["ui"]["resourceUri"] = meta[RESOURCE_URI_META_KEY] = meta["openai/outputTemplate"] = uri
    listing(server)["uri"] = uri
    read = server["ui_resources"].pop(URI)
    read["contents"][0]["uri"] = uri
    server["ui_resources"][uri] = read


def with_blob(server: Server, blob: str, *, text: bool = False) -> None:
    if not text:
        del item(server)["text"]
    item(server)["blob"] = blob


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


def set_csp(server: Server, domains: Any) -> None:
    for holder in (item(server), listing(server)):
        holder["_meta"]["ui"]["csp"] = {"connectDomains": domains}


def add_openai_only_widget(server: Server, mime: str) -> None:
    other = "ui://shop/legacy.html"
    server["tools"].append({"name": "legacy", "_meta": {"openai/outputTemplate": other}})
    server["resources"].append({"uri": other, "name": "legacy", "mimeType": mime})


@dataclass(frozen=True)
class Case:
    rule_id: str
    trigger: Callable[[Server], object]
    near_miss: Callable[[Server], object]


def assign(path: Callable[[Server], dict[str, Any]], key: str, value: Any) -> Callable[[Server], None]:
    return lambda server: path(server).__setitem__(key, value)


def drop(path: Callable[[Server], dict[str, Any]], key: str) -> Callable[[Server], None]:
    return lambda server: path(server).pop(key)


def nothing(server: Server) -> None:
    return None


CASES = [
    Case(
        "TOOL-SHAPE-001", lambda s: s["tools"].append({"title": "no name"}), lambda s: s["tools"].append({"name": "x"})
    ),
    Case(
        "TOOL-SHAPE-002", lambda s: s["tools"].append({"name": "add_item"}), lambda s: s["tools"].append({"name": "y"})
    ),
    Case("META-SHAPE-001", assign(tool_ui, "allowedTools", "add_item"), assign(tool_ui, "allowedTools", ["add_item"])),
    Case("META-SHAPE-002", assign(tool_ui, "csp", {"connectDomains": [API]}), assign(tool_ui, "fallback", "embedded")),
    Case("META-URI-001", assign(tool_ui, "resourceUri", "https://shop.example/cart.html"), nothing),
    Case("META-FLAT-001", drop(tool_ui, "resourceUri"), assign(tool_meta, RESOURCE_URI_META_KEY, URI)),
    Case(
        "META-FLAT-002",
        assign(tool_meta, RESOURCE_URI_META_KEY, "ui://shop/old.html"),
        drop(tool_meta, RESOURCE_URI_META_KEY),
    ),
    Case("META-VIS-001", assign(tool_ui, "visibility", "app"), assign(tool_ui, "visibility", ["app"])),
    Case("META-VIS-002", assign(tool_ui, "visibility", ["model", "user"]), assign(tool_ui, "visibility", ["model"])),
    Case("META-VIS-003", assign(tool_ui, "visibility", []), drop(tool_ui, "visibility")),
    Case("META-OPENAI-001", assign(tool_meta, "openai/outputTemplate", ""), drop(tool_meta, "openai/outputTemplate")),
    Case(
        "META-OPENAI-001",
        assign(tool_meta, "openai/widgetAccessible", "yes"),
        assign(tool_meta, "openai/widgetAccessible", True),
    ),
    Case("META-OPENAI-002", assign(tool_meta, "openai/outputTemplate", "ui://shop/other.html"), nothing),
    Case(
        "META-OPENAI-003",
        assign(tool_meta, "openai/widgetAccessible", False),
        drop(tool_meta, "openai/widgetAccessible"),
    ),
    Case(
        "TOOL-CONTENT-001",
        lambda s: s["call_results"]["show_cart"].__setitem__("content", [{"type": "text", "text": "  "}]),
        lambda s: s["call_results"]["show_cart"].__setitem__(
            "content", [{"type": "image", "data": "", "mimeType": "image/png"}]
        ),
    ),
    Case(
        "TOOL-CONTENT-002",
        lambda s: s.__setitem__("call_results", None),
        lambda s: s["call_results"].pop("add_item", None),
    ),
    Case(
        "RES-URI-001",
        lambda s: s["resources"].append({"uri": "https://x/w.html", "name": "w", "mimeType": RESOURCE_MIME_TYPE}),
        lambda s: s["resources"].append({"uri": "https://x/data.json", "name": "d", "mimeType": "application/json"}),
    ),
    Case("RES-URI-002", lambda s: with_uri(s, "ui://shop/a%zz.html"), lambda s: with_uri(s, "ui://shop/a%20b.html")),
    Case("RES-MIME-001", assign(item, "mimeType", "text/html"), drop(listing, "mimeType")),
    Case("RES-MIME-001", drop(item, "mimeType"), nothing),
    Case(
        "RES-MIME-002",
        assign(item, "mimeType", OPENAI_WIDGET_MIME_TYPE),
        lambda s: add_openai_only_widget(s, OPENAI_WIDGET_MIME_TYPE),
    ),
    Case("RES-MIME-003", assign(listing, "mimeType", LEGACY_RESOURCE_MIME_TYPE), nothing),
    Case(
        "RES-READ-001",
        lambda s: s["ui_resources"].__setitem__(URI, {"error": {"code": -32002, "message": "no"}}),
        nothing,
    ),
    Case("RES-READ-001", lambda s: s["ui_resources"].__setitem__(URI, {"contents": []}), nothing),
    Case("RES-READ-001", assign(item, "uri", "ui://shop/cart.html?v=2"), nothing),
    Case("RES-READ-001", lambda s: s["ui_resources"].__setitem__(URI, ResourceReadFailed("boom")), nothing),
    Case(
        "RES-REF-001",
        lambda s: (s["resources"].pop(0), s["ui_resources"].__setitem__(URI, {"error": "not found"})),
        lambda s: s["resources"].pop(0),
    ),
    Case(
        "RES-REF-002",
        lambda s: (s["resources"].pop(0), s["ui_resources"].clear()),
        lambda s: s["ui_resources"].clear(),
    ),
    Case("RES-CONTENT-001", lambda s: with_blob(s, b64(HTML), text=True), lambda s: with_blob(s, b64(HTML))),
    Case("RES-CONTENT-001", drop(item, "text"), nothing),
    Case("RES-CONTENT-001", assign(item, "text", 42), nothing),
    Case("RES-CONTENT-002", lambda s: with_blob(s, "not base64!"), lambda s: with_blob(s, b64(HTML) + "\r\n")),
    Case("RES-CONTENT-002", lambda s: with_blob(s, base64.b64encode(b"\xff\xfe").decode()), nothing),
    Case("RES-CONTENT-002", assign(item, "text", "<!DOCTYPE html>\ud800"), nothing),
    Case(
        "RES-HTML-001",
        lambda s: with_html(s, "<div>a fragment</div>"),
        lambda s: with_html(s, "<html><body>x</body></html>"),
    ),
    Case(
        "RES-HTML-001",
        lambda s: with_html(s, "<script>const t = '<html>'</script>"),
        lambda s: with_html(s, "<!doctype HTML>x"),
    ),
    Case(
        "RES-HTML-001",
        lambda s: with_html(s, "<!-- <!DOCTYPE html> -->"),
        lambda s: with_html(s, "\n  <!DOCTYPE html>\n<p>"),
    ),
    Case("RES-HTML-001", lambda s: with_html(s, " \n "), nothing),
    Case(
        "RES-BRIDGE-001",
        lambda s: with_html(s, HTML + "<script>send({method: 'ui/openLink'})</script>"),
        lambda s: with_html(s, HTML + "<script>send({method: 'ui/open-link'})</script>"),
    ),
    Case(
        "RES-SIZE-001",
        lambda s: with_html(s, HTML + "a" * (MAX_HTML_BYTES - len(HTML) + 1)),
        lambda s: with_html(s, HTML + "a" * (MAX_HTML_BYTES - len(HTML))),
    ),
    Case(
        "RES-SIZE-001",
        lambda s: with_blob(s, b64(HTML + "é" * MAX_HTML_BYTES)),
        lambda s: with_blob(s, b64(HTML + "é" * ((MAX_HTML_BYTES - len(HTML)) // 2))),
    ),
    Case("RES-HASH-001", lambda s: item(s)["_meta"]["ui"].__setitem__("contentHash", content_hash("x")), nothing),
    Case("RES-HASH-002", lambda s: item(s)["_meta"]["ui"].__setitem__("contentHash", "sha256:ABC"), nothing),
    Case("RES-META-001", lambda s: set_csp(s, API), lambda s: set_csp(s, [API, API])),
    Case("RES-META-001", assign(item, "_meta", ["ui"]), drop(item, "_meta")),
    Case(
        "RES-META-002", lambda s: listing(s)["_meta"]["ui"].__setitem__("prefersBorder", True), drop(listing, "_meta")
    ),
    Case(
        "RES-CSP-001", lambda s: set_csp(s, ["api.shop.example"]), lambda s: set_csp(s, ["https://*.shop.example:443"])
    ),
    Case(
        "RES-CSP-002",
        lambda s: [holder["_meta"]["ui"].__setitem__("csp", "default-src 'none'") for holder in (item(s), listing(s))],
        nothing,
    ),
    Case(
        "RES-OPENAI-001",
        lambda s: item(s)["_meta"].__setitem__("openai/widgetCSP", {"connect_domains": ["https://other.example"]}),
        lambda s: item(s)["_meta"].__setitem__("openai/widgetCSP", {"connect_domains": [API]}),
    ),
    Case(
        "RES-OPENAI-002",
        lambda s: item(s)["_meta"].__setitem__("openai/widgetPrefersBorder", "yes"),
        lambda s: item(s)["_meta"].__setitem__("openai/widgetPrefersBorder", True),
    ),
]
CASE_IDS = [f"{case.rule_id}-{index}" for index, case in enumerate(CASES)]


def test_a_clean_widget_server_has_no_hygiene_findings() -> None:
    assert run(clean_server()) == []


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_hygiene_rule_fires_on_its_trigger(case: Case) -> None:
    server = clean_server()
    case.trigger(server)
    findings = [finding for finding in run(server) if finding.rule_id == case.rule_id]
    assert findings, rule_ids(server)
    for finding in findings:
        assert finding.evidence
        assert finding.remediation
        nameless_entry = finding.evidence[0].source.startswith("tools[")
        assert finding.tools or finding.resources or nameless_entry
        assert finding.severity is RULES.lookup(case.rule_id).severity


@pytest.mark.parametrize("case", CASES, ids=CASE_IDS)
def test_each_hygiene_rule_stays_silent_on_its_near_miss(case: Case) -> None:
    server = clean_server()
    case.near_miss(server)
    assert case.rule_id not in rule_ids(server)


def test_every_tool_and_resource_rule_has_a_trigger_case() -> None:
    hygiene_rules = {rule.rule_id for rule in RULES if rule.rule_id.startswith(("TOOL-", "META-", "RES-"))}
    assert hygiene_rules == {case.rule_id for case in CASES}


# --- specific behaviours ----------------------------------------------------------------------------------------


def test_resource_findings_name_the_resource_and_the_tools_rendering_it() -> None:
    server = clean_server()
    item(server)["mimeType"] = "text/html"
    [finding] = run(server)
    assert finding.rule_id == "RES-MIME-001"
    assert finding.resources == (URI,)
    assert finding.tools == ("show_cart",)
    assert finding.evidence[0].source == f"resource-read:{URI}"
    assert finding.severity is Severity.BLOCKER


def test_without_captured_results_every_ui_tool_is_reported_unchecked_once() -> None:
    server = clean_server()
    server["tools"].append({"name": "other_widget", "_meta": {"ui": {"resourceUri": URI}}})
    server["call_results"] = None
    [finding] = run(server)
    assert finding.rule_id == "TOOL-CONTENT-002"
    assert finding.tools == ("show_cart", "other_widget")
    assert "no tool results were captured" in finding.detail


def test_a_failed_call_counts_as_unchecked_not_as_empty_content() -> None:
    server = clean_server()
    server["call_results"]["show_cart"] = {"error": {"code": -32603, "message": "boom"}}
    assert rule_ids(server) == ["TOOL-CONTENT-002"]


@pytest.mark.parametrize(
    ("content", "meaningful"),
    [
        ([{"type": "text", "text": "ok"}], True),
        ([{"type": "resource_link", "uri": "file:///x", "name": "x"}], True),
        ([{"type": "text", "text": ""}, {"type": "text"}], False),
        ([], False),
        (None, False),
        ("text", False),
        ([{"type": "widget"}], False),
    ],
)
def test_meaningful_content_needs_text_or_a_non_text_block(content: Any, meaningful: bool) -> None:
    assert is_meaningful_content(content) is meaningful


def test_an_unlisted_but_readable_resource_exists() -> None:
    server = clean_server()
    server["resources"] = None
    assert run(server) == []


def test_an_unchecked_reference_says_whether_the_listing_was_captured() -> None:
    server = clean_server()
    server["resources"], server["ui_resources"] = None, {}
    [finding] = run(server)
    assert finding.rule_id == "RES-REF-002"
    assert "resources/list not captured" in finding.detail


def test_a_skybridge_resource_used_only_as_an_openai_template_is_fine() -> None:
    server = clean_server()
    add_openai_only_widget(server, OPENAI_WIDGET_MIME_TYPE)
    server["call_results"]["legacy"] = {"content": [{"type": "text", "text": "ok"}]}
    assert run(server) == []


def test_an_openai_only_widget_still_needs_a_widget_mime_type() -> None:
    server = clean_server()
    add_openai_only_widget(server, "text/html")
    assert "RES-MIME-001" in rule_ids(server)


def test_the_html_check_reads_only_a_bounded_prefix() -> None:
    server = clean_server()
    with_html(server, " " * 70_000 + "<!DOCTYPE html><html></html>")
    assert rule_ids(server) == ["RES-HTML-001"]


def test_a_malformed_tool_meta_still_lets_the_other_tools_and_resources_be_checked() -> None:
    server = clean_server()
    server["tools"].insert(0, {"name": "broken", "_meta": {"ui": {"resourceUri": None}}})
    item(server)["mimeType"] = LEGACY_RESOURCE_MIME_TYPE
    assert rule_ids(server) == ["META-URI-001", "RES-MIME-003"]


@pytest.mark.parametrize(
    ("argument", "value"),
    [
        ("tools", {"tools": []}),
        ("resources", {"resources": []}),
        ("ui_resources", [URI]),
        ("ui_resources", {1: {}}),
        ("call_results", ["show_cart"]),
    ],
)
def test_a_container_of_the_wrong_type_is_invalid_input(argument: str, value: Any) -> None:
    server = clean_server()
    server[argument] = value
    with pytest.raises(InvalidInput):
        run(server)


def test_nothing_captured_means_no_findings() -> None:
    assert check_server_hygiene(None, None, None) == []


# --- properties -------------------------------------------------------------------------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
uris = st.sampled_from([URI, "ui://shop/b.html", "https://x", "ui://"]) | json_scalars
mimes = st.sampled_from([RESOURCE_MIME_TYPE, OPENAI_WIDGET_MIME_TYPE, LEGACY_RESOURCE_MIME_TYPE, "text/html"])
ui_meta = st.fixed_dictionaries(
    {},
    optional={
        "resourceUri": uris,
        "visibility": st.sampled_from([["app"], [], ["x"]]) | json_values,
        "csp": json_values | st.fixed_dictionaries({"connectDomains": st.lists(st.text(max_size=12), max_size=2)}),
        "contentHash": st.sampled_from([content_hash(HTML), "sha256:0"]) | json_scalars,
    },
)
metas = json_values | st.fixed_dictionaries(
    {},
    optional={
        "ui": ui_meta | json_values,
        RESOURCE_URI_META_KEY: uris,
        "openai/outputTemplate": uris,
        "openai/widgetAccessible": json_values,
        "openai/widgetCSP": json_values,
    },
)
holders = st.fixed_dictionaries(
    {"uri": uris},
    optional={
        "mimeType": mimes | json_scalars,
        "text": st.sampled_from([HTML, "<p>", ""]) | json_scalars,
        "blob": st.sampled_from([b64(HTML), "!!"]) | json_scalars,
        "_meta": metas,
    },
)
tools = st.lists(
    st.fixed_dictionaries({"name": st.sampled_from(["a", "b"]) | json_scalars}, optional={"_meta": metas})
    | json_values,
    max_size=4,
)
reads = st.dictionaries(
    st.sampled_from([URI, "ui://shop/b.html", "https://x"]),
    st.fixed_dictionaries({"contents": st.lists(holders | json_values, max_size=2)}) | json_values,
    max_size=3,
)
results = st.dictionaries(
    st.sampled_from(["a", "b"]),
    st.fixed_dictionaries(
        {
            "content": json_values
            | st.lists(st.fixed_dictionaries({"type": st.just("text"), "text": st.text(max_size=4)}))
        }
    )
    | json_values,
    max_size=2,
)


@settings(max_examples=300)
@given(tools, st.none() | st.lists(holders | json_values, max_size=3), st.none() | reads, st.none() | results)
def test_any_captured_json_gives_findings_without_mutating_it(
    tool_list: list[Any], resources: list[Any] | None, ui_resources: dict[str, Any] | None, call_results: Any
) -> None:
    before = copy.deepcopy((tool_list, resources, ui_resources, call_results))
    found = check_server_hygiene(tool_list, resources, ui_resources, call_results=call_results)
    assert (tool_list, resources, ui_resources, call_results) == before
    for finding in found:
        assert finding.rule_id in RULES
        assert finding.evidence
        assert finding.remediation
    json.dumps([finding.to_dict() for finding in found])


@given(json_values, json_values, json_values, json_values)
def test_any_json_value_as_an_argument_gives_findings_or_invalid_input(
    tool_list: Any, resources: Any, ui_resources: Any, call_results: Any
) -> None:
    before = copy.deepcopy((tool_list, resources, ui_resources, call_results))
    with contextlib.suppress(InvalidInput):
        check_server_hygiene(tool_list, resources, ui_resources, call_results=call_results)
    assert (tool_list, resources, ui_resources, call_results) == before


markup = st.text(alphabet="<>!-/ \n[]&;'\"=abhtmlDOCTYPEscript?%", max_size=200) | st.text(max_size=100)


@given(markup, st.booleans())
def test_any_text_or_blob_as_the_html_gives_findings(html: str, as_blob: bool) -> None:
    server = clean_server()
    if as_blob:
        with_blob(server, b64(html) if html.isascii() else html)
    else:
        item(server)["text"] = html
    found = run(server)
    assert all(finding.rule_id.startswith("RES-") for finding in found)


def test_a_widget_that_sends_a_bridge_method_no_spec_defines_is_told_no_host_answers_it() -> None:
    page = (
        "<!DOCTYPE html><html><script>"
        'parent.postMessage({jsonrpc: "2.0", id: 1, method: "ui/updateModelContext", params: {}}, "*");'
        'parent.postMessage({jsonrpc: "2.0", method: "ui/size-change", params: {}}, "*");'
        'parent.postMessage({jsonrpc: "2.0", id: 2, method: "ui/open-link", params: {url: "https://a"}}, "*");'
        "</script></html>"
    )
    tools = [{"name": "t", "inputSchema": {"type": "object"}, "_meta": {"ui": {"resourceUri": "ui://w/a.html"}}}]
    reads = {"ui://w/a.html": {"contents": [{"uri": "ui://w/a.html", "mimeType": RESOURCE_MIME_TYPE, "text": page}]}}
    found = [f for f in check_server_hygiene(tools, [], reads) if f.rule_id == "RES-BRIDGE-001"]
    assert [f.detail.partition(": ")[2] for f in found] == [
        "the widget sends 'ui/updateModelContext', which no MCP Apps spec defines: no host will answer it.",
        "the widget sends 'ui/size-change', an early-draft name hosts no longer answer "
        "(now 'ui/notifications/size-changed').",
    ]
    assert "Did you mean 'ui/update-model-context'?" in (found[0].remediation or "")
