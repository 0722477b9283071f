"""The SDK's validators rebuilt from its stored core schemas (`_sdk_schemas`) give the SDK's verdicts, word for word.

Every result the tests and the widget corpus hold, malformed ones included, and random JSON, is checked both ways:
by `mcp_types` itself and by the stored schemas; the outcome (accepted, or the list of errors with their locations,
messages and inputs) must be the same. The stored file must be what the generator writes for the installed SDK.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import mcp_types
import mcp_types.methods as methods
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp_types.jsonrpc import jsonrpc_message_adapter
from pydantic import ValidationError

from hostcompat.probe import _sdk_schemas
from tests.probe.strategies import json_objects, json_values

REPO = Path(__file__).resolve().parents[2]
VERSIONS = ("2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28")
LISTS = {"tools/list": "tools", "resources/list": "resources", "prompts/list": "prompts"}


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_sdk_schemas", REPO / "scripts" / "gen_sdk_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stored_schemas_are_the_installed_sdks() -> None:
    generator = _generator()
    assert generator.OUTPUT.read_text("utf-8") == generator.render(generator.build())


def validators() -> _sdk_schemas.SdkValidators:
    loaded = _sdk_schemas.load()
    assert loaded is not None, "the stored schemas do not match the installed SDK: run scripts/gen_sdk_schemas.py"
    return loaded


def outcome(check: Callable[[], object]) -> object:
    """What a check came to: "ok", the SDK's missing-model `KeyError`, or every error as the SDK words it."""
    try:
        check()
    except KeyError:
        return "no model"
    except ValidationError as error:
        return [(item["type"], item["loc"], item["msg"], repr(item["input"])) for item in error.errors()]
    return "ok"


def same_result_verdict(method: str, raw: Any) -> None:
    stored = validators()
    for version in VERSIONS:
        sdk = outcome(lambda: methods.validate_server_result(method, version, raw))  # noqa: B023
        ours = outcome(lambda: stored.result(method, version, raw))  # noqa: B023
        assert ours == sdk, (method, version, raw)


def _corpus_results() -> Iterator[tuple[str, Any]]:
    corpus = REPO / "interop" / "corpus"
    for path in sorted(corpus.glob("*.json")) if corpus.is_dir() else ():
        entry = json.loads(path.read_text("utf-8"))
        if "tools" not in entry:
            continue
        yield "tools/list", {"tools": entry["tools"]}
        yield "resources/list", {"resources": entry.get("resources", [])}
        for capture in entry.get("uiResources", {}).values():
            contents = capture.get("contents") if isinstance(capture, dict) else None
            if contents is not None:
                yield "resources/read", {"contents": contents}


def _snapshot_results() -> Iterator[tuple[str, Any]]:
    board = json.loads((REPO / "tests" / "probe" / "fixtures" / "board-snapshot-v1.json").read_text("utf-8"))
    yield "initialize", board["initialize"]
    yield "tools/list", {"tools": board["tools"]}
    yield "resources/list", {"resources": board["resources"]}
    for capture in board.get("uiResources", {}).values():
        yield "resources/read", {"contents": capture.get("contents", [])}
    for call in board.get("calls", []):
        if call.get("result") is not None:
            yield "tools/call", call["result"]


MALFORMED: list[tuple[str, Any]] = [
    ("tools/list", {"tools": [{"name": "no-schema"}, "not an object", {"name": 3, "inputSchema": {"type": "array"}}]}),
    ("tools/list", {"tools": "nope", "nextCursor": 5}),
    ("tools/list", {"tools": [{"name": "x", "inputSchema": {"type": "object"}, "icons": [{"src": 1}]}]}),
    ("tools/list", {"tools": [{"name": "x", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "y"}}]}),
    ("tools/list", {"tools": [{"name": "x", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "z"}}]}),
    ("resources/list", {"resources": {"uri": "ui://x"}}),
    ("resources/list", {"resources": [{"uri": "ui://x"}, {"name": "n"}]}),
    ("resources/templates/list", {"resourceTemplates": [{"name": "t"}]}),
    ("prompts/list", {"prompts": [{"name": "p", "arguments": [{"required": "yes"}]}]}),
    ("resources/read", {"contents": "not a list"}),
    ("resources/read", {"contents": [{"uri": "u"}, {"uri": "u", "blob": 3}, 5, {"uri": "u", "text": None}]}),
    ("initialize", {"protocolVersion": 1, "capabilities": [], "serverInfo": {}}),
    ("initialize", {"protocolVersion": "2025-11-25", "capabilities": {"tools": 1}, "serverInfo": {"name": "a"}}),
    ("tools/call", {"content": [{"type": "text"}, {"type": "image", "data": "x"}, {"type": "weird"}]}),
    ("tools/call", {"content": [{"type": "text", "text": "hi"}], "isError": "no", "structuredContent": []}),
    ("tools/call", {"content": [{"type": "resource", "resource": {"uri": "u"}}], "ttlMs": -5}),
    ("tools/call", {"resultType": "input_required", "inputRequests": 3}),
    ("tools/list", {"tools": [], "ttlMs": 1.5, "cacheScope": "everyone"}),
]


@pytest.mark.parametrize(("method", "raw"), [*_corpus_results(), *_snapshot_results(), *MALFORMED])
def test_every_held_result_gets_the_sdks_verdict(method: str, raw: Any) -> None:
    same_result_verdict(method, raw)


@settings(max_examples=150, deadline=None)
@given(
    method=st.sampled_from(sorted(_generator().PROBE_METHODS)),
    raw=json_objects,
    items=st.lists(json_objects | json_values, max_size=3),
)
def test_random_results_get_the_sdks_verdict(method: str, raw: dict[str, Any], items: list[Any]) -> None:
    same_result_verdict(method, raw)
    key = LISTS.get(method, "contents" if method == "resources/read" else "content")
    same_result_verdict(method, {**raw, key: items})


WHOLE = ("InitializeResult", "DiscoverResult", "UnsupportedProtocolVersionErrorData")


@pytest.mark.parametrize(
    "raw",
    [
        {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "a", "version": "1"}},
        {"protocol_version": "2025-11-25", "capabilities": {}, "server_info": {"name": "a", "version": "1"}},
        {"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "a", "version": "1"}},
        {"supportedVersions": "2026-07-28", "ttlMs": -1},
        {"supported": ["2026-07-28"], "requested": "x"},
        {"supported": 1},
        {},
    ],
)
def test_the_handshake_models_give_the_sdks_verdict(raw: dict[str, Any]) -> None:
    for name in WHOLE:
        model = getattr(mcp_types, name)
        assert outcome(lambda: validators().whole(name, raw)) == outcome(lambda: model.model_validate(raw))  # noqa: B023


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("ping", None),
        ("ping", {"_meta": {"progressToken": 1}}),
        ("roots/list", {}),
        ("sampling/createMessage", {"messages": [], "maxTokens": 5}),
        ("sampling/createMessage", {"messages": "no"}),
        ("elicitation/create", {"message": "m", "requestedSchema": {"type": "object", "properties": {}}}),
        ("elicitation/create", {"mode": "url"}),
        ("tools/list", None),
    ],
)
def test_requests_from_a_server_get_the_sdks_verdict(method: str, params: dict[str, Any] | None) -> None:
    for version in VERSIONS:
        sdk = outcome(lambda: methods.parse_server_request(method, version, params))  # noqa: B023
        assert outcome(lambda: validators().server_request(method, version, params)) == sdk  # noqa: B023


def parsed(parse: Callable[[str], Any], line: str) -> object:
    try:
        message = parse(line)
    except ValueError as error:
        return ("rejected", str(error).splitlines()[0])
    fields = {key: value for key, value in vars(message).items() if not key.startswith("__")}
    data = fields.get("error")
    if data is not None:  # an `ErrorData`: a model of its own
        fields["error"] = (type(data).__name__, {key: value for key, value in vars(data).items() if key[:2] != "__"})
    return (type(message).__name__, repr(fields))


@pytest.mark.parametrize(
    "line",
    [
        '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
        '{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found","data":"x"}}',
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
        '{"jsonrpc":"2.0","id":7,"method":"ping"}',
        '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}',
        '{"jsonrpc":"2.0","id":1.5,"result":{}}',
        '{"jsonrpc":"2.0","id":true,"result":{}}',
        '{"jsonrpc":"1.0","id":1,"result":{}}',
        '{"jsonrpc":"2.0","id":1,"result":[1]}',
        '{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"both"}}',
        '{"result":{"a":NaN},"jsonrpc":"2.0","id":1}',
        "not json",
        "[" * 300 + "]" * 300,
        '{"jsonrpc":"2.0","id":1,"result":{"a":1,"a":2}}',
    ],
)
def test_the_envelope_is_parsed_as_the_sdks_transports_parse_it(line: str) -> None:
    sdk = parsed(lambda text: jsonrpc_message_adapter.validate_json(text, by_name=False), line)
    assert parsed(validators().message, line) == sdk


def test_another_sdk_gets_no_stored_validators(monkeypatch: pytest.MonkeyPatch) -> None:
    _sdk_schemas.load.cache_clear()
    try:
        monkeypatch.setattr(_sdk_schemas, "fingerprint", lambda: {"mcp_types": "another"})
        assert _sdk_schemas.load() is None
        monkeypatch.undo()
        _sdk_schemas.load.cache_clear()
        monkeypatch.setenv("HOSTCOMPAT_STDIO_CLIENT", "sdk")
        assert _sdk_schemas.load() is None
    finally:
        _sdk_schemas.load.cache_clear()
