import base64
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan.model import WidgetScan
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source
from hostcompat.errors import HostCompatError, InvalidInput
from testkit.widget_corpus import FIXTURES


def scan_fixture(name: str) -> WidgetScan:
    return scan_widget_source((FIXTURES / name).read_text(encoding="utf-8"))


def kinds_of(scan: WidgetScan, need: str) -> set[str]:
    return {f.kind for f in scan.findings_for(need) if f.counts}


# --- widget styles -----------------------------------------------------------------------------


def test_raw_json_rpc_widget_reports_the_methods_it_posts_and_nothing_it_only_mentions() -> None:
    scan = scan_fixture("raw_jsonrpc.html")
    assert scan.needs_used() == ("serverTools", "openLinks", "sizeChanged")
    assert scan.code_analysed and scan.complete
    tool_call = scan.findings_for("serverTools")[0]
    assert tool_call.via == "json-rpc" and tool_call.confidence == "high"
    assert "tools/call" in tool_call.evidence.snippet if tool_call.evidence else False


APP_PAGE = (
    '<script type="module">import { App } from "@modelcontextprotocol/ext-apps";'
    "const app = new App({name: 'x', version: '1'}, {}, {autoResize: false});\n%s\n</script>"
)


@pytest.mark.parametrize(
    ("code", "needs"),
    [
        ('app["openLink"]({url: "https://a.example"});', ("openLinks",)),
        ("app?.['callServerTool']({name: 'refresh'});", ("serverTools",)),
        ('app["sendMessage"].bind(app)({role: "user", content: []});', ("message",)),
        ('app["oncalltool"] = async () => ({content: []});', ("appTools",)),
        ('const names = ["openLink", "sendMessage"]; names.forEach(run);', ()),
        ('const table = {"openLink": 1}; show(table["openLink"]);', ()),
        ('// app["openLink"]({url: "https://a.example"})', ()),
        ('log(`app["openLink"]({url})`);', ()),
    ],
)
def test_a_method_reached_by_a_string_subscript_counts_only_when_called(code: str, needs: tuple[str, ...]) -> None:
    assert scan_widget_source(APP_PAGE % code).needs_used() == needs


@pytest.mark.parametrize(
    ("code", "needs"),
    [
        ('window["openai"].callTool("a", {});', ("serverTools", "openaiApps")),
        ("globalThis?.['openai']?.requestDisplayMode({mode: 'fullscreen'});", ("requestDisplayMode", "openaiApps")),
        ('window.openai["openExternal"]({href: "https://a.example"});', ("openLinks", "openaiApps")),
        ('const keys = ["openai"]; config["openai"] = 1;', ()),
        ("log('window[\"openai\"].callTool');", ()),
    ],
)
def test_the_openai_runtime_reached_by_string_subscripts_is_found(code: str, needs: tuple[str, ...]) -> None:
    assert scan_widget_source(f"<script>{code}</script>").needs_used() == needs


def test_an_app_method_name_in_a_page_without_any_bridge_is_another_librarys_method() -> None:
    page = '<script>const chat = connect("wss://chat.example"); chat.sendMessage("hi"); doc.openLink(u);</script>'
    scan = scan_widget_source(page)
    assert "message" not in scan.needs_used() and "openLinks" not in scan.needs_used()
    (finding,) = scan.findings_for("message")
    assert (finding.kind, finding.confidence) == ("declaration", "low")
    assert "another library's method" in finding.detail


@pytest.mark.parametrize(
    "bridge",
    [
        '<script src="/static/bridge.js"></script>',  # code nobody read may hold the App
        '<script>parent.postMessage({jsonrpc: "2.0", id: 1, method: "tools/call", params: {}}, "*");</script>',
    ],
)
def test_an_app_method_name_counts_where_the_page_may_hold_an_app(bridge: str) -> None:
    scan = scan_widget_source(bridge + "<script>app.sendMessage({role: 'user', content: []});</script>")
    assert "message" in scan.needs_used()


@pytest.mark.parametrize(
    ("receiver", "needs"),
    [
        ("window.parent", ("openLinks",)),
        ("host", ("openLinks",)),  # an alias of the parent window: still the host
        ("worker", ()),
        ("this.searchWorker", ()),
        ("channel.port1", ()),
        ("frame.contentWindow", ()),
    ],
)
def test_mcp_ui_actions_count_only_when_posted_towards_the_host(receiver: str, needs: tuple[str, ...]) -> None:
    page = f'<script>{receiver}.postMessage({{type: "link", payload: {{url: "https://a.example"}}}}, "*");</script>'
    assert scan_widget_source(page).needs_used() == needs


@pytest.mark.parametrize(
    ("code", "needs"),
    [
        (
            "var _a; (_a = app.callServerTool) === null || _a === void 0 ? void 0 : _a.call(app, {name: 'x'});",
            ("serverTools",),
        ),
        ("var _b; (_b = this.app.sendLog) == null ? void 0 : _b.call(this.app, {level: 'info'});", ("logging",)),
        ("var _c; const has = ((_c = app.openLink) !== null); show(has);", ()),
    ],
)
def test_optional_calls_compiled_for_old_targets_are_calls(code: str, needs: tuple[str, ...]) -> None:
    """`app.callServerTool?.(…)` as TypeScript and Babel write it below ES2020."""
    assert scan_widget_source(APP_PAGE % code).needs_used() == needs


def test_a_double_optional_call_on_the_openai_runtime_compiled_for_old_targets_is_a_call() -> None:
    code = (
        "var _b, _c; (_c = (_b = window.openai) == null ? void 0 : _b.sendFollowUpMessage) == null ? void 0 : "
        "_c.call(_b, {prompt: 'x'});"
    )
    assert scan_widget_source(f"<script>{code}</script>").needs_used() == ("message", "openaiApps")


def test_raw_json_rpc_helper_call_counts_through_the_function_that_posts() -> None:
    scan = scan_fixture("raw_jsonrpc.html")
    link = scan.findings_for("openLinks")
    assert [f.detail for f in link] == ["ui/open-link"]
    assert link[0].confidence == "high"


def test_openai_apps_sdk_widget_maps_window_openai_calls_to_needs() -> None:
    scan = scan_fixture("openai_apps_sdk.html")
    assert set(scan.needs_used()) == {"serverTools", "message", "updateModelContext", "openLinks", "openaiApps"}
    assert "requestDisplayMode" not in scan.needs_used("low")
    assert [s.name for s in scan.sdks] == ["openai-apps-sdk"]


def test_openai_call_behind_a_feature_check_is_a_guarded_call() -> None:
    scan = scan_fixture("openai_apps_sdk.html")
    assert kinds_of(scan, "openLinks") == {"guarded-call"}
    assert kinds_of(scan, "serverTools") == {"call"}


def test_legacy_mcp_ui_actions_count_only_when_posted_with_a_payload() -> None:
    scan = scan_fixture("mcp_ui_legacy.html")
    assert scan.needs_used() == ("serverTools", "openLinks", "logging")
    assert "message" not in scan.needs_used("low")
    assert {f.via for f in scan.findings if f.counts} == {"mcp-ui"}
    assert any(s.name == "mcp-ui" for s in scan.sdks)


def test_widget_loading_its_code_from_a_cdn_is_not_analysed_and_never_clean() -> None:
    scan = scan_fixture("cdn_script_src.html")
    assert not scan.code_analysed
    assert not scan.complete
    assert [(e.kind, e.domain) for e in scan.external_code] == [("script-src", "https://cdn.example.com")]
    assert scan.domains_for("resource") == ("https://cdn.example.com",)
    assert any(limit.code == "external_code_not_analysed" for limit in scan.limits)


def test_inline_module_importing_the_sdk_from_a_cdn_is_analysed_but_incomplete() -> None:
    scan = scan_fixture("cdn_module_import.html")
    assert scan.code_analysed and not scan.complete
    assert {"serverTools", "sizeChanged"} <= set(scan.needs_used())
    assert kinds_of(scan, "sizeChanged") == {"automatic"}
    assert ("ext-apps", "imported") in {(s.name, s.how) for s in scan.sdks}
    assert scan.domains_for("connect") == ("https://api.example.net", "wss://live.example.org")
    assert {e.kind for e in scan.external_code} == {"module-import"}


def test_mentions_in_comments_strings_templates_regexes_and_markup_are_not_calls() -> None:
    scan = scan_fixture("mentions_only.html")
    assert scan.needs_used("low") == ()
    assert scan.findings == ()
    assert scan.code_analysed and scan.complete


def test_calls_behind_host_capability_checks_are_guarded_and_others_are_not() -> None:
    scan = scan_fixture("guarded_calls.html")
    assert kinds_of(scan, "downloadFile") == {"guarded-call"}
    assert kinds_of(scan, "updateModelContext") == {"guarded-call"}
    assert kinds_of(scan, "message") == {"call"}
    assert kinds_of(scan, "openLinks") == {"call"}


def test_auto_resize_turned_off_means_no_automatic_size_change() -> None:
    scan = scan_fixture("guarded_calls.html")
    assert "sizeChanged" not in scan.needs_used("low")


def test_base64_script_and_atob_payloads_are_decoded_and_scanned() -> None:
    scan = scan_fixture("base64_blob.html")
    assert scan.needs_used() == ("message", "requestDisplayMode")
    message = scan.findings_for("message")[0]
    assert message.evidence is not None and "ui/message" in message.evidence.snippet
    assert message.evidence.line == 4


def test_a_wrapper_that_defines_many_bridge_methods_counts_only_the_ones_called() -> None:
    scan = scan_fixture("sdk_lookalike_wrapper.html")
    assert scan.needs_used("low") == ("openLinks",)


# --- technique details -------------------------------------------------------------------------


def test_bundled_sdk_class_definitions_are_not_calls_but_app_calls_on_it_are() -> None:
    sdk = (
        "const Q=class Q extends P{constructor(a,b={},c={autoResize:!0}){super(c)}"
        "async callServerTool(e,t){return this._assertInitialized('x'),"
        'this.request({method:"tools/call",params:e},t)}'
        'sendMessage(e,t){return this.request({method:"ui/message",params:e},t)}'
        'openLink(e,t){return this.request({method:"ui/open-link",params:e},t)}'
        "getHostCapabilities(){return this._c}};"
    )
    app = "const app=new Q({name:'a',version:'1'});app.openLink({url:'https://x.test'});"
    scan = scan_widget_source(f"<script type=module>{sdk}{app}</script>")
    assert scan.needs_used() == ("openLinks", "sizeChanged")
    assert [(s.name, s.how) for s in scan.sdks] == [("ext-apps", "bundled")]


def test_schema_literals_and_dispatch_tables_do_not_count() -> None:
    source = (
        '<script>const S=z.object({method:z.literal("ui/message")});'
        'const T={"tools/call":CallToolSchema};const list=["ui/open-link"];'
        'function handle(m){switch(m.method){case "resources/read":return 1}}</script>'
    )
    assert scan_widget_source(source).needs_used("low") == ()


def test_view_that_dispatches_host_tool_calls_serves_app_tools() -> None:
    source = '<script>addEventListener("message",e=>{if(e.data.method==="tools/call")reply(e.data)})</script>'
    scan = scan_widget_source(source)
    assert scan.needs_used() == ("appTools",)


def test_inline_event_handler_attributes_are_read_as_code() -> None:
    source = '<button onclick="window.openai.callTool(&quot;refresh&quot;, {})">go</button>'
    scan = scan_widget_source(source)
    assert {"serverTools", "openaiApps"} <= set(scan.needs_used())


def test_script_types_that_are_not_javascript_are_skipped() -> None:
    source = (
        '<script type="application/json">{"method":"tools/call"}</script>'
        '<script type="text/template">app.openLink()</script>'
    )
    assert scan_widget_source(source).needs_used("low") == ()


def test_iframe_to_an_external_origin_needs_frame_domains() -> None:
    scan = scan_widget_source('<iframe src="https://player.example.com/embed/1"></iframe>')
    assert scan.needs_used() == ("cspFrameDomains",)
    assert scan.domains_for("frame") == ("https://player.example.com",)


def test_permission_gated_browser_apis_need_sandbox_permissions() -> None:
    source = (
        "<script>navigator.mediaDevices.getUserMedia({video:true});navigator.geolocation.getCurrentPosition(f)</script>"
    )
    scan = scan_widget_source(source)
    assert {f.detail for f in scan.findings_for("sandboxPermissions")} == {"camera", "geolocation"}


def test_bare_javascript_without_markup_is_scanned_as_a_script() -> None:
    scan = scan_widget_source("window.parent.postMessage({jsonrpc:'2.0',method:'ui/open-link',params:{url:u}},'*')")
    assert scan.needs_used() == ("openLinks",)


def test_evidence_has_offset_line_and_a_short_snippet_containing_the_match() -> None:
    source = "<html>\n<body>\n<script>\n" + "x=1;" * 100 + "app.callServerTool({name:'t'})\n</script>"
    finding = scan_widget_source(source).findings_for("serverTools")[0]
    assert finding.evidence is not None
    assert source[finding.evidence.offset : finding.evidence.offset + len("callServerTool")] == "callServerTool"
    assert finding.evidence.line == 4
    assert len(finding.evidence.snippet) <= 120
    assert "callServerTool" in finding.evidence.snippet


# --- budgets, errors, serialisation --------------------------------------------------------------


def test_input_over_the_budget_is_cut_and_reported_not_scanned_whole() -> None:
    source = "<script>app.callServerTool({})</script>" + "<p>filler</p>" * 100
    scan = scan_widget_source(source, max_chars=60)
    assert scan.scanned_chars == 60 and scan.total_chars == len(source)
    assert any(limit.code == "input_truncated" for limit in scan.limits)
    assert not scan.complete


def test_truncated_input_with_nothing_found_is_not_analysed() -> None:
    source = "<p>" + "x" * 200 + "</p><script>app.callServerTool({})</script>"
    scan = scan_widget_source(source, max_chars=50)
    assert not scan.code_analysed
    assert scan.needs_used("low") == ()


@pytest.mark.parametrize(
    "hostile",
    [
        "{" * 200_000,
        "'" * 200_000,
        "/" * 200_000,
        "`${" * 100_000,
        "<script>" + "a(" * 100_000,
        "<script>" + "callServerTool(" * 50_000,
        "<" + "a " * 100_000,
    ],
)
def test_hostile_inputs_finish_in_linear_time(hostile: str) -> None:
    started = time.perf_counter()
    scan_widget_source(hostile)
    assert time.perf_counter() - started < 10


def test_non_string_source_is_an_invalid_input_carrying_the_value() -> None:
    with pytest.raises(InvalidInput) as caught:
        scan_widget_source(b"<html>")  # type: ignore[arg-type]  # deliberately wrong type
    assert caught.value.value == b"<html>"


def test_non_positive_budget_is_rejected() -> None:
    with pytest.raises(InvalidInput):
        scan_widget_source("<p>", max_chars=0)


def test_content_item_blob_is_decoded_and_scanned_like_text() -> None:
    html = "<script>app.sendMessage({role:'user',content:[]});app.callServerTool({name:'x'})</script>"
    item = {"uri": "ui://w", "blob": base64.b64encode(html.encode()).decode()}
    assert scan_widget_content(item).needs_used() == scan_widget_source(html).needs_used()


def test_content_item_with_undecodable_blob_is_reported_not_analysed() -> None:
    scan = scan_widget_content({"uri": "ui://w", "blob": "@@not base64@@"})
    assert not scan.code_analysed
    assert [limit.code for limit in scan.limits] == ["blob_undecodable"]


def test_content_item_without_text_or_blob_is_invalid() -> None:
    with pytest.raises(InvalidInput):
        scan_widget_content({"uri": "ui://w"})


def test_to_dict_is_json_ready_and_lists_the_used_needs() -> None:
    scan = scan_fixture("guarded_calls.html")
    data = json.loads(json.dumps(scan.to_dict()))
    assert data["needs_used"] == list(scan.needs_used())
    assert {f["kind"] for f in data["findings"]} >= {"call", "guarded-call"}
    assert data["findings"][0]["evidence"]["line"] >= 1


def test_scanning_does_not_mutate_the_content_item() -> None:
    item = {"uri": "ui://w", "text": "<script>app.openLink({url:'https://a.test'})</script>", "_meta": {"ui": {}}}
    before = json.dumps(item, sort_keys=True)
    scan_widget_content(item)
    assert json.dumps(item, sort_keys=True) == before


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>/\\'\"`${}()[];:=.,!?* \nabcimnoprst-_")), max_size=400))
def test_arbitrary_text_scans_to_a_result_never_an_unexpected_exception(source: str) -> None:
    scan = scan_widget_source(source)
    assert scan.total_chars == len(source)
    for finding in scan.findings:
        assert finding.evidence is None or 0 <= finding.evidence.offset <= len(source)


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=20,
    )
)
def test_arbitrary_json_content_item_gives_a_scan_or_a_hostcompat_error(item: object) -> None:
    try:
        scan = scan_widget_content(item)  # type: ignore[arg-type]  # arbitrary JSON on purpose
    except HostCompatError:
        return
    assert isinstance(scan, WidgetScan)


def test_call_on_the_right_of_a_capability_check_in_one_expression_is_guarded() -> None:
    source = (
        '<script type=module>import {App} from "https://esm.sh/@modelcontextprotocol/ext-apps";'
        "const e=new App({});function B(){var A;return (A=e.getHostCapabilities())!=null&&A.downloadFile"
        '&&jsx("button",{onClick:()=>e.downloadFile({contents:[]})})}</script>'
    )
    assert kinds_of(scan_widget_source(source), "downloadFile") == {"guarded-call"}


def test_a_check_that_only_shapes_the_arguments_does_not_guard_the_call() -> None:
    source = (
        "<script>function f(){const c=[];if(app.getHostCapabilities()?.updateModelContext?.image)"
        "{c.push(img)}app.updateModelContext({content:c})}</script>"
    )
    assert kinds_of(scan_widget_source(source), "updateModelContext") == {"call"}
