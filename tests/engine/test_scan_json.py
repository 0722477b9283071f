"""A scan kept as JSON reads back as the same scan, and anything not exactly that form reads back as none."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from hostcompat.engine.scan.scan_json import MAX_ITEMS, scan_from_json
from hostcompat.engine.scan.widget import scan_widget_source
from testkit.widget_corpus import fixture_widgets

PAGE = (
    '<script src="https://cdn.test/lib.js"></script><img src="https://img.test/a.png">'
    "<script>const app = new App(); app.callServerTool({name: 'x'}); window.openai.callTool('y', {});"
    "fetch('https://api.test/v1'); // app.openLink()\n</script>"
)


def as_json(text: str) -> Any:
    return json.loads(json.dumps(scan_widget_source(text).to_dict()))


@pytest.mark.parametrize("widget", fixture_widgets(), ids=lambda w: w.key)
def test_every_labelled_page_reads_back_as_its_scan(widget: Any) -> None:
    scan = scan_widget_source(widget.source)
    assert scan_from_json(json.loads(json.dumps(scan.to_dict()))) == scan


def test_a_scan_with_every_part_reads_back() -> None:
    data = as_json(PAGE)
    assert data["findings"] and data["external_code"] and data["domains"] and data["sdks"] and data["limits"]
    assert scan_from_json(data) == scan_widget_source(PAGE)


def first(key: str) -> Callable[[Any], Any]:
    return lambda data: data[key][0]


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(extra=1),
        lambda d: d.pop("limits"),
        lambda d: d.update(needs_used=[]),  # not what the findings say
        lambda d: d.update(code_analysed=1),
        lambda d: d.update(scanned_chars=True),
        lambda d: d.update(total_chars=-1),
        lambda d: d.update(findings={}),
        lambda d: d.update(domains=d["domains"][:1] * (MAX_ITEMS + 1)),  # well formed, but too many
        lambda d: first("findings")(d).update(kind="shout"),
        lambda d: first("findings")(d).update(need="teleport"),
        lambda d: first("findings")(d).update(detail=None),
        lambda d: first("findings")(d)["evidence"].update(line="1"),
        lambda d: first("findings")(d)["evidence"].pop("snippet"),
        lambda d: first("external_code")(d).update(kind="ftp"),
        lambda d: first("domains")(d).update(directive="everywhere"),
        lambda d: first("sdks")(d).update(version=3),
        lambda d: first("limits")(d).update(code="oops"),
    ],
)
def test_anything_else_reads_back_as_no_scan(change: Callable[[Any], Any]) -> None:
    data = copy.deepcopy(as_json(PAGE))
    change(data)
    assert scan_from_json(data) is None


@pytest.mark.parametrize("data", [None, [], "scan", 3, {"findings": []}])
def test_what_is_not_a_mapping_of_the_fields_is_no_scan(data: object) -> None:
    assert scan_from_json(data) is None
