"""Write `src/hostcompat/probe/sdk-schemas.jsonl`: the official SDK's own validation schemas, for the stdio probe.

A live stdio probe talks JSON-RPC itself (`hostcompat.probe._session`) instead of through the `mcp` client, whose
import costs more than the whole exchange. The verdicts must stay the SDK's: whether its client accepts each result,
and its exact errors. pydantic compiles every model of `mcp_types` into a core schema, which `pydantic_core` turns
into a validator; this writes the core schemas of what the probe validates (the results of the requests it makes,
the JSON-RPC envelope, the handshake's models and the requests a server may send), so the probe builds the very
validators the SDK would without importing a single model. The model classes are named, not stored: the probe
gives each one a stand-in class of the same name, which is all a validator needs of it (error messages name it).

The file is keyed by a fingerprint of the installed `mcp_types` sources, pydantic and pydantic-core
(`hostcompat.probe._sdk_schemas.fingerprint`): with any other SDK the probe uses the SDK itself.

Run: `python scripts/gen_sdk_schemas.py` rewrites the file when it changed; `--check` writes nothing and exits 1 when
it is stale (`tests/probe/test_sdk_schemas.py` checks it too).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Mapping
from pathlib import Path
from types import UnionType
from typing import Any, Final, get_args

ROOT: Final = Path(__file__).resolve().parent.parent
OUTPUT: Final = ROOT / "src" / "hostcompat" / "probe" / "sdk-schemas.jsonl"
sys.path.insert(0, str(ROOT / "src"))  # this checkout's hostcompat, whatever is installed

PROBE_METHODS: Final = (
    "initialize",
    "tools/list",
    "resources/list",
    "resources/templates/list",
    "prompts/list",
    "resources/read",
    "tools/call",
)
"""The requests whose results the probe validates as the SDK's client does (`server/discover` is validated whole,
with the version-free `DiscoverResult`)."""

MONOLITH: Final = ("InitializeResult", "DiscoverResult", "UnsupportedProtocolVersionErrorData")
"""Version-free models the SDK's client validates during the handshake."""

_REF_ID: Final = re.compile(r":\d+$")


def _name(target: Any) -> str:
    if isinstance(target, UnionType):
        return " | ".join(_name(member) for member in get_args(target))
    return f"{target.__module__}.{target.__qualname__}"


def _encode(node: Any, refs: dict[str, str]) -> Any:
    """A core schema as JSON: classes named, pydantic's JSON-schema metadata and the serializers (both unused by a
    validator) left out, and the refs pydantic makes unique with an object id made stable.
    """
    if isinstance(node, (list, tuple)):
        return [_encode(item, refs) for item in node]
    if not isinstance(node, dict):
        if node is None or isinstance(node, (str, int, float, bool)):
            return node
        raise TypeError(f"a core schema holds {node!r}, which cannot be stored")
    schema_node = isinstance(node.get("type"), str)  # a field mapping may hold a field named `type`: a dict
    out: dict[str, Any] = {}
    for key, value in node.items():
        if schema_node and key in ("metadata", "serialization"):
            continue
        if schema_node and key == "cls":
            out[key] = {"$class": value.__name__}
        elif schema_node and key in ("ref", "schema_ref"):
            stable = _REF_ID.sub("", value)
            if refs.setdefault(stable, value) != value:
                raise ValueError(f"two refs read {stable!r} once their ids are left out")
            out[key] = stable
        else:
            out[key] = _encode(value, refs)
    return out


def _stored(schemas: dict[str, Any], name: str, validator: Any) -> str:
    """Store the schema and the config `validator` was built from (what it pickles as) under `name`; the name."""
    if name not in schemas:
        core_schema, config = validator.__reduce__()[1][:2]
        schemas[name] = {"config": _encode(config, {}), "schema": _encode(core_schema, {})}
    return name


def build() -> dict[str, Any]:
    """The file's content, from the installed SDK."""
    import mcp_types
    import mcp_types.methods as methods
    from mcp_types import version
    from mcp_types.jsonrpc import jsonrpc_message_adapter
    from pydantic import TypeAdapter

    from hostcompat.probe._sdk_schemas import fingerprint

    schemas: dict[str, Any] = {}
    results: dict[str, dict[str, str]] = {}
    for (method, protocol), target in methods.SERVER_RESULTS.items():
        if method in PROBE_METHODS:
            stored = _stored(schemas, _name(target), TypeAdapter(target).validator)  # type: ignore[arg-type]
            results.setdefault(method, {})[protocol] = stored
    requests: dict[str, dict[str, str]] = {}
    for (method, protocol), model in methods.SERVER_REQUESTS.items():
        requests.setdefault(method, {})[protocol] = _stored(schemas, _name(model), model.__pydantic_validator__)
    whole: dict[str, Any] = {method: methods.MONOLITH_REQUESTS[method] for method in requests}
    whole.update((name, getattr(mcp_types, name)) for name in MONOLITH)
    return {
        "about": "The core schemas of the mcp SDK's models the stdio probe validates with; generated by "
        "scripts/gen_sdk_schemas.py, never edited by hand.",
        "fingerprint": fingerprint(),
        "versions": {
            "known": list(version.KNOWN_PROTOCOL_VERSIONS),
            "handshake": list(version.HANDSHAKE_PROTOCOL_VERSIONS),
            "modern": list(version.MODERN_PROTOCOL_VERSIONS),
        },
        "message": _stored(schemas, "mcp_types.jsonrpc.JSONRPCMessage", jsonrpc_message_adapter.validator),
        "results": results,
        "requests": requests,
        "whole": {key: _stored(schemas, _name(model), model.__pydantic_validator__) for key, model in whole.items()},
        "schemas": schemas,
    }


def render(content: Mapping[str, Any]) -> str:
    """The file's text, JSON lines: the head (everything but the schemas, and their `names`) first, then one schema
    a line in that order, so the probe parses only the schemas it uses.
    """
    head = {key: value for key, value in content.items() if key != "schemas"}
    head["names"] = list(content["schemas"])
    lines = [json.dumps(head, separators=(",", ":"))]
    lines += [json.dumps(stored, separators=(",", ":")) for stored in content["schemas"].values()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the file (or with `--check`, compare it); the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the file is stale")
    args = parser.parse_args(argv)
    text = render(build())
    current = OUTPUT.read_text("utf-8") if OUTPUT.is_file() else None
    if args.check:
        if current != text:
            sys.stderr.write(f"{OUTPUT.relative_to(ROOT)} is stale: run python scripts/gen_sdk_schemas.py\n")
            return 1
        return 0
    if current != text:
        OUTPUT.write_text(text, "utf-8", newline="\n")
        sys.stdout.write(f"wrote {OUTPUT.relative_to(ROOT)} ({len(text)} bytes)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
