"""Property tests: pages assembled from the bridge vocabulary of the corpus widgets never break the scanner."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan.needs import ALL_NEEDS
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source
from hostcompat.errors import HostCompatError

TOKENS = [
    "<script>",
    "</script>",
    "<script type=module>",
    "window.openai",
    "this.openai",
    ".openai",
    " = ",
    "==",
    "===",
    ".callTool(",
    ".openExternal(",
    "?.(",
    "postMessage(",
    "window.parent.",
    "function send(t,p){",
    "const post = (m) => ",
    "sendAction(",
    "send(",
    "request(",
    "const OPEN = ",
    "Methods.CALL_TOOL",
    "Methods = {CALL_TOOL: ",
    '"ui/open-link"',
    '"tools/call"',
    "'tool'",
    '"prompt"',
    '"ui-size-change"',
    "case ",
    "switch(m.type){",
    "class A{",
    "class B extends C{",
    "callTool = async (n, a) => {",
    "sendFollowUpMessage(p){",
    "requestClose(){",
    "type: ",
    "payload: {}",
    "{",
    "}",
    "(",
    ")",
    ",",
    ";",
    ":",
    "\n",
    "// ",
    "/*",
    "*/",
    "`",
    "${",
    "navigator.geolocation.getCurrentPosition(",
    "this.options.geolocation.watchPosition(",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=80))
def test_pages_built_from_bridge_tokens_scan_to_a_result_with_known_needs(tokens: list[str]) -> None:
    source = "".join(tokens)
    scan = scan_widget_source(source)
    assert set(scan.needs_used("low")) <= set(ALL_NEEDS)
    assert scan.to_dict() == scan_widget_source(source).to_dict()


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["uri", "mimeType", "text", "blob", "_meta"]),
        st.one_of(st.none(), st.text(max_size=60), st.sampled_from(["text/uri-list", "text/uri-list; x=1"])),
    )
)
def test_any_content_item_gives_a_scan_or_a_hostcompat_error_and_is_left_unchanged(item: dict[str, object]) -> None:
    before = copy.deepcopy(item)
    try:
        scan = scan_widget_content(item)
    except HostCompatError:
        pass
    else:
        assert scan.scanned_chars <= scan.total_chars or scan.total_chars == 0
    assert item == before
