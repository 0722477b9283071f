import base64
import copy
import hashlib
from collections.abc import Callable
from typing import Any

import mcp.types as sdk
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.apps.constants import MAX_HTML_BLOB_CHARS, MAX_HTML_BYTES, RESOURCE_MIME_TYPE
from hostcompat.apps.meta.access import (
    ResourceCSP,
    ResourceUI,
    get_embedded_resource_ui,
    get_resource_ui,
)
from hostcompat.apps.resource import (
    CONTENT_HASH_PREFIX,
    check_html_budget,
    content_hash,
    decode_html_blob,
    embedded_html_resource,
    encode_html_blob,
    html_byte_size,
    html_contents,
    html_resource,
    read_result,
)
from hostcompat.errors import (
    EmptyResource,
    InvalidBlob,
    InvalidInput,
    InvalidUIMeta,
    InvalidUIURI,
    NotUTF8,
    ResourceError,
    ResourceTooLarge,
)

R1_URI = "ui://agently.wk_ab12cd34ef56ab78/demo/show_widget"
GENERIC_URIS = [
    "ui://weather-dashboard",
    "ui://weather-server/dashboard-template",
    "ui://server/templates/chart.html?theme=dark#v2",
    "ui://x/unknown/y",
]
UI = ResourceUI(
    content_hash="sha256:abc",
    protocol_version="1.0.0",
    csp=ResourceCSP(connect_domains=("https://api.example",)),
)


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


HTML_BUILDERS: list[Callable[[str, str], dict[str, Any]]] = [html_contents, read_result, embedded_html_resource]


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<html>ok</html>", "sha256:b6c951ed9485262465aa9b940f7e9b7df577e3a299a33f8c86fdda98f66a9fdc"),
        ("", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("é", "sha256:4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c"),
    ],
)
def test_case_19_content_hash_matches_the_pinned_values(html: str, expected: str) -> None:
    assert content_hash(html) == expected


def test_content_hash_is_stable_changes_with_the_html_and_does_not_normalize() -> None:
    assert content_hash("<html>ok</html>") == content_hash("<html>ok</html>")
    assert content_hash("<html>ok</html>") != content_hash("<html>changed</html>")
    assert content_hash("e\u0301") != content_hash("\u00e9")
    assert content_hash("<p>\r\n") != content_hash("<p>\n")


def test_content_hash_rejects_non_strings_and_lone_surrogates_with_clear_errors() -> None:
    with pytest.raises(InvalidInput, match="html must be a string"):
        content_hash(b"<p>")  # type: ignore[arg-type]  # the wrong type is the input under test
    with pytest.raises(NotUTF8):
        content_hash("\ud800")


@given(st.text())
def test_content_hash_is_sha256_of_the_utf8_bytes(html: str) -> None:
    digest = content_hash(html)
    assert digest == CONTENT_HASH_PREFIX + hashlib.sha256(html.encode("utf-8")).hexdigest()
    assert digest == digest.lower()


def test_html_byte_size_counts_utf8_bytes() -> None:
    assert html_byte_size("abc") == 3
    assert html_byte_size("é") == 2
    assert html_byte_size("€") == 3
    assert html_byte_size("😀") == 4


def test_exactly_one_mebibyte_is_within_budget_and_one_byte_more_is_not() -> None:
    assert check_html_budget("a" * MAX_HTML_BYTES) == MAX_HTML_BYTES
    with pytest.raises(ResourceTooLarge, match="1048577 bytes > 1048576"):
        check_html_budget("a" * (MAX_HTML_BYTES + 1))


def test_the_budget_counts_multibyte_text_in_bytes() -> None:
    two_byte = "é" * (MAX_HTML_BYTES // 2)
    assert check_html_budget(two_byte) == MAX_HTML_BYTES
    with pytest.raises(ResourceTooLarge):
        check_html_budget(two_byte + "a")
    assert len(two_byte + "a") < MAX_HTML_BYTES


def test_empty_html_is_an_empty_resource() -> None:
    with pytest.raises(EmptyResource, match="html text is required"):
        check_html_budget("")


def test_a_huge_string_is_rejected_without_being_encoded() -> None:
    with pytest.raises(ResourceTooLarge, match="at least"):
        check_html_budget("\ud800" * (MAX_HTML_BYTES + 1))


def test_a_blob_decodes_to_the_html_text() -> None:
    html = "<html><body>héllo 😀</body></html>"
    assert decode_html_blob(b64(html.encode())) == html
    assert decode_html_blob(b64(html.encode()).encode("ascii")) == html


def test_line_breaks_inside_a_blob_are_ignored_as_go_does() -> None:
    html = "<html>" + "x" * 200 + "</html>"
    encoded = b64(html.encode())
    wrapped = "\r\n".join(encoded[index : index + 76] for index in range(0, len(encoded), 76)) + "\n"
    assert decode_html_blob(wrapped) == html


def test_case_24_a_blob_one_char_over_the_precheck_is_too_large_before_decoding() -> None:
    # Not base64 at all: only a length check that runs first can report it as too large.
    with pytest.raises(ResourceTooLarge, match="1398105 characters"):
        decode_html_blob("!" * (MAX_HTML_BLOB_CHARS + 1))
    with pytest.raises(ResourceTooLarge):
        decode_html_blob(b"!" * (MAX_HTML_BLOB_CHARS + 1))


def test_the_blob_precheck_is_the_base64_length_of_the_budget() -> None:
    exactly = encode_html_blob("a" * MAX_HTML_BYTES)
    assert len(exactly) == MAX_HTML_BLOB_CHARS
    assert decode_html_blob(exactly) == "a" * MAX_HTML_BYTES


def test_a_blob_within_the_precheck_that_decodes_over_budget_is_too_large() -> None:
    blob = b64(b"a" * (MAX_HTML_BYTES + 2))
    assert len(blob) == MAX_HTML_BLOB_CHARS
    with pytest.raises(ResourceTooLarge, match="bytes > 1048576"):
        decode_html_blob(blob)


@pytest.mark.parametrize(
    "blob",
    [
        "not-base64",
        "YQ",
        "YQ=",
        "YQ===",
        "YQ==YQ==",
        "Y Q==",
        "YQ==\t",
        "-_-_",
        "YWJj\x00",
        "YWJjé===",
        "=YWJ",
    ],
)
def test_a_blob_that_is_not_strict_padded_base64_is_invalid(blob: str) -> None:
    with pytest.raises(InvalidBlob) as caught:
        decode_html_blob(blob)
    assert caught.value.value == blob


@pytest.mark.parametrize("blob", [None, 42, ["YQ=="], {"blob": "YQ=="}])
def test_a_blob_that_is_not_text_is_invalid(blob: object) -> None:
    with pytest.raises(InvalidBlob, match="must be base64 text"):
        decode_html_blob(blob)


@pytest.mark.parametrize("raw", [b"\xff\xfe", b"<p>\xc3</p>", b"\xed\xa0\x80", b"\xc0\xaf"])
def test_a_blob_that_decodes_to_non_utf8_bytes_is_rejected(raw: bytes) -> None:
    with pytest.raises(NotUTF8, match="not UTF-8"):
        decode_html_blob(b64(raw))


def test_an_empty_blob_is_an_empty_resource() -> None:
    with pytest.raises(EmptyResource):
        decode_html_blob("")
    with pytest.raises(EmptyResource):
        decode_html_blob("\r\n")


def test_encoding_html_checks_the_budget() -> None:
    with pytest.raises(EmptyResource):
        encode_html_blob("")
    with pytest.raises(ResourceTooLarge):
        encode_html_blob("a" * (MAX_HTML_BYTES + 1))


@given(st.text(min_size=1))
def test_encoding_then_decoding_gives_back_the_html(html: str) -> None:
    blob = encode_html_blob(html)
    assert blob.isascii()
    assert decode_html_blob(blob) == html


@given(st.one_of(st.text(max_size=200), st.binary(max_size=200)))
def test_arbitrary_blobs_give_text_or_a_resource_error_only(blob: str | bytes) -> None:
    try:
        html = decode_html_blob(blob)
    except ResourceError as error:
        assert error.value == blob
    else:
        assert html and html_byte_size(html) <= MAX_HTML_BYTES


@given(st.binary(min_size=1, max_size=300))
def test_arbitrary_bytes_encoded_decode_to_their_utf8_text_or_not_utf8(raw: bytes) -> None:
    try:
        expected = raw.decode("utf-8")
    except UnicodeDecodeError:
        with pytest.raises(NotUTF8):
            decode_html_blob(b64(raw))
    else:
        assert decode_html_blob(b64(raw)) == expected


@pytest.mark.parametrize("uri", [*GENERIC_URIS, R1_URI])
def test_r4_builders_accept_every_generic_uri_unchanged(uri: str) -> None:
    assert html_contents(uri, "<p>")["uri"] == uri
    assert read_result(uri, "<p>")["contents"][0]["uri"] == uri
    assert embedded_html_resource(uri, "<p>")["resource"]["uri"] == uri
    assert html_resource(uri, "name")["uri"] == uri


def test_r7_listing_entry_carries_the_mime_and_readable_ui_meta() -> None:
    entry = html_resource(R1_URI, "Show widget", title="Widget", description="A widget", ui=UI)
    assert entry["mimeType"] == RESOURCE_MIME_TYPE
    assert (entry["name"], entry["title"], entry["description"]) == ("Show widget", "Widget", "A widget")
    assert get_resource_ui(entry) == UI


def test_r7_contents_item_carries_the_mime_text_and_readable_ui_meta() -> None:
    item = html_contents(R1_URI, "<p>hi</p>", ui=UI)
    assert item["mimeType"] == RESOURCE_MIME_TYPE
    assert item["text"] == "<p>hi</p>"
    assert "blob" not in item
    assert get_resource_ui(item) == UI


def test_a_contents_item_can_carry_the_html_as_a_blob() -> None:
    item = html_contents(R1_URI, "<p>héllo</p>", as_blob=True)
    assert "text" not in item
    assert decode_html_blob(item["blob"]) == "<p>héllo</p>"
    assert read_result(R1_URI, "<p>héllo</p>", as_blob=True)["contents"] == [item]


def test_r7_read_result_has_exactly_one_item_equal_to_the_contents_item() -> None:
    result = read_result(R1_URI, "<p>hi</p>", ui=UI)
    assert result == {"contents": [html_contents(R1_URI, "<p>hi</p>", ui=UI)]}


def test_r7_embedded_block_has_type_resource_and_ui_meta_in_both_places() -> None:
    block = embedded_html_resource(R1_URI, "<p>hi</p>", annotations={"audience": ["user"]}, ui=UI)
    assert block["type"] == "resource"
    assert block["resource"] == {
        "uri": R1_URI,
        "mimeType": RESOURCE_MIME_TYPE,
        "text": "<p>hi</p>",
        "_meta": block["resource"]["_meta"],
    }
    assert block["annotations"] == {"audience": ["user"]}
    assert block["_meta"]["ui"] == block["resource"]["_meta"]["ui"] == UI.to_wire()
    assert block["_meta"]["ui"] is not block["resource"]["_meta"]["ui"]
    assert get_embedded_resource_ui(block) == UI
    assert get_resource_ui(block) == UI


def test_builders_without_ui_write_no_meta() -> None:
    assert "_meta" not in html_resource(R1_URI, "n")
    assert "_meta" not in html_contents(R1_URI, "<p>")
    block = embedded_html_resource(R1_URI, "<p>")
    assert "_meta" not in block
    assert "_meta" not in block["resource"]
    assert "annotations" not in block


def test_r8_an_empty_uri_is_rejected_by_every_builder() -> None:
    with pytest.raises(InvalidUIURI, match="empty"):
        html_resource("", "name")
    for build in HTML_BUILDERS:
        with pytest.raises(InvalidUIURI, match="empty"):
            build("", "<p>")


def test_r8_an_empty_name_is_rejected() -> None:
    with pytest.raises(EmptyResource, match="name is required"):
        html_resource(R1_URI, "")


@pytest.mark.parametrize("build", HTML_BUILDERS)
def test_r8_empty_html_is_rejected(build: Callable[[str, str], dict[str, Any]]) -> None:
    with pytest.raises(EmptyResource, match="html text is required"):
        build(R1_URI, "")


@pytest.mark.parametrize("build", HTML_BUILDERS)
def test_r9_case_20_builders_accept_one_mebibyte_and_reject_one_byte_more_counting_bytes(
    build: Callable[[str, str], dict[str, Any]],
) -> None:
    assert build(R1_URI, "a" * MAX_HTML_BYTES)
    with pytest.raises(ResourceTooLarge):
        build(R1_URI, "a" * (MAX_HTML_BYTES + 1))
    assert build(R1_URI, "€" * (MAX_HTML_BYTES // 3))
    with pytest.raises(ResourceTooLarge):
        build(R1_URI, "€" * (MAX_HTML_BYTES // 3 + 1))


@pytest.mark.parametrize("build", HTML_BUILDERS)
def test_builders_validate_the_uri_before_the_html(build: Callable[[str, str], dict[str, Any]]) -> None:
    with pytest.raises(InvalidUIURI, match="userinfo"):
        build("ui://u@h/x", "")
    with pytest.raises(InvalidUIURI, match="scheme"):
        build("https://h/x", "<p>")


def test_a_listing_entry_writes_optional_fields_only_when_given() -> None:
    icons = [{"src": "https://cdn.example/icon.png", "sizes": ["48x48"]}]
    entry = html_resource(R1_URI, "n", annotations={"priority": 0.5}, icons=icons, size=1234)
    assert entry == {
        "uri": R1_URI,
        "name": "n",
        "mimeType": RESOURCE_MIME_TYPE,
        "annotations": {"priority": 0.5},
        "icons": icons,
        "size": 1234,
    }
    assert entry["icons"] is not icons
    assert entry["icons"][0]["sizes"] is not icons[0]["sizes"]


def test_a_declared_size_must_be_a_byte_count_within_budget() -> None:
    assert html_resource(R1_URI, "n", size=MAX_HTML_BYTES)["size"] == MAX_HTML_BYTES
    with pytest.raises(ResourceTooLarge):
        html_resource(R1_URI, "n", size=MAX_HTML_BYTES + 1)
    for bad in (-1, True, 1.5, "10"):
        with pytest.raises(InvalidInput, match="size"):
            html_resource(R1_URI, "n", size=bad)  # type: ignore[arg-type]  # wrong types are the input under test


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": 3}, "name must be a string"),
        ({"title": 3}, "title must be a string"),
        ({"description": ["d"]}, "description must be a string"),
        ({"annotations": ["a"]}, "annotations must be an object"),
        ({"annotations": {1: "a"}}, "non-string key"),
        ({"icons": "https://x/i.png"}, "icons must be a list"),
        ({"icons": ["https://x/i.png"]}, "icons item must be an object"),
    ],
)
def test_a_listing_entry_rejects_wrong_types_with_invalid_input(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"name": "n", **kwargs}
    with pytest.raises(InvalidInput, match=message):
        html_resource(R1_URI, **arguments)


def test_deeply_nested_annotations_are_rejected_cleanly() -> None:
    nested: dict[str, Any] = {}
    cursor = nested
    for _ in range(100):
        cursor["a"] = {}
        cursor = cursor["a"]
    with pytest.raises(InvalidInput, match="nested deeper"):
        embedded_html_resource(R1_URI, "<p>", annotations=nested)


def test_a_ui_that_is_not_a_resource_ui_is_rejected() -> None:
    with pytest.raises(InvalidUIMeta):
        html_contents(R1_URI, "<p>", ui={"contentHash": "sha256:1"})  # type: ignore[arg-type]  # wrong type under test


def test_builders_do_not_mutate_or_alias_their_inputs() -> None:
    annotations: dict[str, Any] = {"audience": ["user"], "priority": 1}
    before = copy.deepcopy(annotations)
    block = embedded_html_resource(R1_URI, "<p>", annotations=annotations, ui=UI)
    block["annotations"]["audience"].append("assistant")
    block["_meta"]["ui"]["contentHash"] = "changed"
    assert annotations == before
    assert UI.content_hash == "sha256:abc"
    assert html_contents(R1_URI, "<p>", ui=UI)["_meta"]["ui"]["contentHash"] == "sha256:abc"


def test_builder_output_validates_as_the_sdk_wire_types() -> None:
    entry = sdk.Resource.model_validate(html_resource(R1_URI, "n", title="t", size=3, ui=UI))
    assert entry.mime_type == RESOURCE_MIME_TYPE
    assert entry.meta is not None and entry.meta["ui"] == UI.to_wire()
    result = sdk.ReadResourceResult.model_validate(read_result(R1_URI, "<p>", ui=UI))
    item = result.contents[0]
    assert isinstance(item, sdk.TextResourceContents)
    assert (item.uri, item.mime_type, item.text) == (R1_URI, RESOURCE_MIME_TYPE, "<p>")
    blob_item = sdk.BlobResourceContents.model_validate(html_contents(R1_URI, "<p>", as_blob=True))
    assert decode_html_blob(blob_item.blob) == "<p>"
    block = sdk.EmbeddedResource.model_validate(embedded_html_resource(R1_URI, "<p>", ui=UI))
    assert block.type == "resource"
    assert block.meta is not None and block.meta["ui"] == UI.to_wire()


@given(st.text(min_size=1, max_size=200))
def test_builders_accept_any_nonempty_html_and_keep_it_verbatim(html: str) -> None:
    assert html_contents(R1_URI, html)["text"] == html
    assert embedded_html_resource(R1_URI, html)["resource"]["text"] == html
    assert decode_html_blob(html_contents(R1_URI, html, as_blob=True)["blob"]) == html
