import base64
import copy
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat import errors
from hostcompat.apps.constants import EXTENSION_ID, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import ResourceUI, ToolUI
from hostcompat.apps.modes import Mode, build_embedded_fallback, select_resource_mode, select_tool_mode

CAPABLE = {"extensions": {EXTENSION_ID: {"mimeTypes": [RESOURCE_MIME_TYPE]}}}
URI = "ui://x/widget"
HTML = "<!DOCTYPE html><html><body>ok</body></html>"


class DictReader:
    """A reader over fixed read results; records what it was asked."""

    def __init__(self, result: Any = None, error: Exception | None = None) -> None:
        self.result = result
        self.error = error
        self.asked: list[str] = []

    async def read_resource(self, uri: str, /) -> Any:
        self.asked.append(uri)
        if self.error is not None:
            raise self.error
        return self.result


def item(**fields: Any) -> dict[str, Any]:
    return {"uri": URI, "mimeType": RESOURCE_MIME_TYPE, **fields}


@pytest.mark.parametrize(
    ("caps", "ui", "expected"),
    [
        (CAPABLE, ToolUI(), Mode.NONE),
        (None, ToolUI(fallback="embedded"), Mode.NONE),
        (CAPABLE, ToolUI(resource_uri=URI), Mode.CAPABILITY),
        (CAPABLE, ToolUI(resource_uri=URI, fallback="embedded"), Mode.CAPABILITY),
        (None, ToolUI(resource_uri=URI, fallback="embedded"), Mode.EMBEDDED_FALLBACK),
        (None, ToolUI(resource_uri=URI), Mode.NONE),
        ({}, ToolUI(resource_uri=URI), Mode.NONE),
        (None, ToolUI(resource_uri=URI, fallback="iframe"), Mode.NONE),
    ],
)
def test_select_tool_mode_follows_the_exact_rule_k5(caps: Any, ui: ToolUI, expected: Mode) -> None:
    assert select_tool_mode(caps, ui) is expected


def test_select_tool_mode_without_any_tool_ui_is_none() -> None:
    assert select_tool_mode(CAPABLE, None) is Mode.NONE


def test_the_fallback_opt_in_is_case_sensitive() -> None:
    assert select_tool_mode(None, ToolUI(resource_uri=URI, fallback="Embedded")) is Mode.NONE


@pytest.mark.parametrize(
    ("caps", "ui", "expected"),
    [
        (CAPABLE, ResourceUI(), Mode.CAPABILITY),
        (None, ResourceUI(fallback="embedded"), Mode.EMBEDDED_FALLBACK),
        (None, ResourceUI(), Mode.NONE),
        (None, ResourceUI(fallback="something-else"), Mode.NONE),
    ],
)
def test_select_resource_mode_k6(caps: Any, ui: ResourceUI, expected: Mode) -> None:
    assert select_resource_mode(caps, ui) is expected


def test_mode_strings_are_stable() -> None:
    assert [str(mode) for mode in Mode] == ["none", "capability", "embedded-fallback"]
    assert Mode("embedded-fallback") is Mode.EMBEDDED_FALLBACK


@pytest.mark.anyio
async def test_fallback_picks_the_exact_uri_and_decodes_a_blob_k2() -> None:
    blob = base64.b64encode(HTML.encode()).decode()
    reader = DictReader(
        {
            "contents": [
                {"uri": "ui://other", "mimeType": RESOURCE_MIME_TYPE, "text": "wrong"},
                item(blob=blob),
            ]
        }
    )
    block = await build_embedded_fallback(reader, URI)
    assert reader.asked == [URI]
    assert block == {"type": "resource", "resource": {"uri": URI, "mimeType": RESOURCE_MIME_TYPE, "text": HTML}}


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("contents", "error"),
    [
        ([{"uri": "ui://other", "mimeType": RESOURCE_MIME_TYPE, "text": HTML}], errors.ResourceNotFound),
        ([item(text=HTML), item(text=HTML)], errors.AmbiguousResource),
        ([item(text=HTML, mimeType="text/html")], errors.WrongMimeType),
        ([item(blob="not-base64")], errors.InvalidBlob),
    ],
)
async def test_unsafe_reads_are_each_rejected_with_their_own_error_k3(
    contents: list[dict[str, Any]], error: type[Exception]
) -> None:
    with pytest.raises(error):
        await build_embedded_fallback(DictReader({"contents": contents}), URI)


@pytest.mark.anyio
async def test_fallback_keeps_the_source_ui_meta_in_both_places_k7() -> None:
    ui = {"contentHash": "sha256:abc", "protocolVersion": "1.0.0", "futureKey": {"kept": True}}
    result = {"contents": [item(text=HTML, _meta={"ui": ui, "other": 1})]}
    before = copy.deepcopy(result)
    block = await build_embedded_fallback(DictReader(result), URI)
    assert block["_meta"] == {"ui": ui}
    assert block["resource"]["_meta"] == {"ui": ui}
    assert block["resource"]["text"] == HTML
    assert result == before
    assert block["_meta"]["ui"] is not block["resource"]["_meta"]["ui"]


@pytest.mark.anyio
async def test_fallback_defaults_an_absent_mime_type_k8() -> None:
    block = await build_embedded_fallback(DictReader({"contents": [{"uri": URI, "text": HTML}]}), URI)
    assert block["resource"]["mimeType"] == RESOURCE_MIME_TYPE


@pytest.mark.anyio
async def test_fallback_needs_a_reader() -> None:
    with pytest.raises(errors.MissingReader):
        await build_embedded_fallback(None, URI)


@pytest.mark.anyio
async def test_fallback_checks_the_uri_before_reading() -> None:
    reader = DictReader({"contents": [item(text=HTML)]})
    with pytest.raises(errors.InvalidUIURI):
        await build_embedded_fallback(reader, "")
    assert reader.asked == []


@pytest.mark.anyio
@pytest.mark.parametrize("result", [{"contents": []}, {}, None, {"contents": "nope"}])
async def test_fallback_without_contents_fails(result: Any) -> None:
    with pytest.raises(errors.NoContents):
        await build_embedded_fallback(DictReader(result), URI)


@pytest.mark.anyio
@pytest.mark.parametrize("fields", [{}, {"text": ""}, {"text": "", "blob": ""}])
async def test_fallback_without_text_fails_as_empty(fields: dict[str, Any]) -> None:
    with pytest.raises(errors.EmptyResource):
        await build_embedded_fallback(DictReader({"contents": [item(**fields)]}), URI)


@pytest.mark.anyio
async def test_a_reader_error_is_kept_as_the_cause_k9() -> None:
    boom = RuntimeError("boom")
    with pytest.raises(errors.ResourceReadFailed) as caught:
        await build_embedded_fallback(DictReader(error=boom), URI)
    assert caught.value.__cause__ is boom


@pytest.mark.anyio
async def test_an_oversized_blob_is_rejected_before_decoding() -> None:
    blob = "A" * 1_398_105
    with pytest.raises(errors.ResourceTooLarge):
        await build_embedded_fallback(DictReader({"contents": [item(blob=blob)]}), URI)


@pytest.mark.anyio
async def test_a_blob_that_is_not_utf8_is_rejected() -> None:
    blob = base64.b64encode(b"\xff\xfe<html>").decode()
    with pytest.raises(errors.NotUTF8):
        await build_embedded_fallback(DictReader({"contents": [item(blob=blob)]}), URI)


@pytest.mark.anyio
async def test_oversized_text_is_rejected() -> None:
    with pytest.raises(errors.ResourceTooLarge):
        await build_embedded_fallback(DictReader({"contents": [item(text="é" * 524_289)]}), URI)


@pytest.mark.anyio
async def test_fallback_reads_sdk_models_too() -> None:
    from mcp_types import ReadResourceResult, TextResourceContents

    result = ReadResourceResult(
        contents=[TextResourceContents(uri=URI, mime_type=RESOURCE_MIME_TYPE, text=HTML, _meta={"ui": {"x": 1}})]
    )
    block = await build_embedded_fallback(DictReader(result), URI)
    assert block["resource"]["text"] == HTML
    assert block["_meta"] == {"ui": {"x": 1}}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.anyio
@given(
    contents=st.lists(
        st.fixed_dictionaries(
            {"uri": st.sampled_from([URI, "ui://other", 3])},
            optional={
                "mimeType": st.sampled_from([RESOURCE_MIME_TYPE, "text/html", None, 5]),
                "text": st.one_of(st.text(max_size=30), json_values),
                "blob": st.one_of(st.text(max_size=30), json_values),
                "_meta": json_values,
            },
        ),
        max_size=3,
    )
)
async def test_any_read_result_gives_a_block_or_a_hostcompat_error(contents: list[Mapping[str, Any]]) -> None:
    before = copy.deepcopy(contents)
    try:
        block = await build_embedded_fallback(DictReader({"contents": contents}), URI)
    except errors.HostCompatError:
        pass
    else:
        assert block["type"] == "resource"
        assert isinstance(block["resource"]["text"], str) and block["resource"]["text"]
    assert contents == before
