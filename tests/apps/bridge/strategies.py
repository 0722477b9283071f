"""Hypothesis strategies for bridge messages: arbitrary JSON, and near-valid messages built from the examples."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

from hostcompat.apps.bridge import methods as m
from tests.apps.bridge.examples import EXAMPLES, LEGACY_EXAMPLES, RESULTS

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)

json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)

WIRE_KEYS = sorted(
    {
        "jsonrpc",
        "id",
        "method",
        "params",
        "result",
        "error",
        "code",
        "message",
        "data",
        "url",
        "role",
        "content",
        "mode",
        "width",
        "height",
        "arguments",
        "reason",
        "contents",
        "html",
        "sandbox",
        "csp",
        "permissions",
        "theme",
        "structuredContent",
        "isError",
        "_meta",
        "appInfo",
        "appCapabilities",
        "protocolVersion",
        "name",
        "version",
        "type",
        "text",
        "tools",
        "listChanged",
        "availableDisplayModes",
        "windowId",
        "resourceUri",
        "toolName",
        "toolInput",
        "allowedTools",
        "metadata",
    }
)

keys = st.sampled_from(WIRE_KEYS) | st.text(max_size=6)

methods = st.sampled_from(sorted(m.KNOWN_METHODS | set(m.LEGACY_METHOD_RENAMES) | {"prompts/get"}))

ids = st.integers() | st.text(max_size=6) | json_values


def _replies() -> list[dict[str, Any]]:
    replies: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": index, "result": copy.deepcopy(result)}
        for index, result in enumerate(RESULTS.values())
    ]
    replies.append({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}})
    replies.append({"jsonrpc": "2.0", "id": "e", "error": {"code": -32000, "message": "denied", "data": {"k": 1}}})
    return replies


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a container inside `value` (the root included)."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(item, (dict, list)):
                found.extend(_paths(item, (*prefix, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                found.extend(_paths(item, (*prefix, index)))
    return found


@st.composite
def mutated(draw: st.DrawFn, bases: list[dict[str, Any]]) -> dict[str, Any]:
    """A base message with up to three random edits: a key set to arbitrary JSON, deleted, or added."""
    base: dict[str, Any] = draw(st.sampled_from(bases))
    message = copy.deepcopy(base)
    for _ in range(draw(st.integers(min_value=0, max_value=3))):
        path = draw(st.sampled_from(_paths(message)))
        target: Any = message
        for step in path:
            target = target[step]
        if isinstance(target, dict):
            key = draw(st.sampled_from(sorted(target)) | keys) if target else draw(keys)
            if key in target and draw(st.booleans()):
                del target[key]
            else:
                target[key] = draw(json_values | methods | ids)
        elif target:
            target[draw(st.integers(min_value=0, max_value=len(target) - 1))] = draw(json_values)
    return message


official_messages = mutated([*(copy.deepcopy(example) for example in EXAMPLES.values()), *_replies()])
legacy_envelopes = mutated([copy.deepcopy(example) for example in LEGACY_EXAMPLES.values()])
