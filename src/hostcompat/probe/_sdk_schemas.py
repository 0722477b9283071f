"""The official SDK's validators, built from its own core schemas without importing it: the stdio probe's verdicts.

A live stdio probe speaks JSON-RPC itself (`_session`), because importing the `mcp` client (its `mcp_types` models
above all) costs more than the whole exchange with a server. What the SDK's client accepts must stay the verdict:
`sdk-schemas.jsonl` (written by `scripts/gen_sdk_schemas.py`) holds the pydantic core schemas, and the configs, the
SDK's own validators are built from, for the results the probe validates, the JSON-RPC envelope, the handshake's
models and the requests a server may send. `pydantic_core` builds the same validators from them in about a
millisecond, each model class replaced by a stand-in of the same name (a validator only instantiates it and names it
in its errors), so every result gets the SDK's verdict and the SDK's errors, word for word.

The schemas hold for the SDK they were generated from only: `load()` compares the file's fingerprint (a digest of
the installed `mcp_types` sources, pydantic's and pydantic-core's versions) and returns None for any other, and the
probe then uses the SDK itself. So does `HOSTCOMPAT_STDIO_CLIENT=sdk` in the environment.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final

from hostcompat._regex import regex

_FILE: Final = Path(__file__).with_name("sdk-schemas.jsonl")
_VERSION_LINE: Final = regex(r"^VERSION\s*=\s*['\"]([^'\"]+)['\"]", re.MULTILINE)
_ENVELOPE: Final = {"jsonrpc": "2.0", "id": 0}
"""What `mcp_types.methods` wraps a request's method and params in to validate it against its wire model."""


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)  # finds, imports nothing
    locations = None if spec is None else spec.submodule_search_locations
    return Path(next(iter(locations))) if locations else None


def fingerprint() -> dict[str, str]:
    """What the stored schemas depend on: a digest of the `mcp_types` sources, and pydantic's and pydantic-core's
    versions (empty strings for what cannot be found, which then matches nothing).
    """
    import pydantic_core

    digest = hashlib.sha256()
    types_dir = _package_dir("mcp_types")
    if types_dir is not None:
        for path in sorted(types_dir.rglob("*.py")):
            digest.update(path.relative_to(types_dir).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    pydantic_dir = _package_dir("pydantic")
    version_file = pydantic_dir / "version.py" if pydantic_dir is not None else None
    found = _VERSION_LINE.search(version_file.read_text("utf-8")) if version_file and version_file.is_file() else None
    return {
        "mcp_types": digest.hexdigest() if types_dir is not None else "",
        "pydantic": found.group(1) if found else "",
        "pydantic_core": str(pydantic_core.__version__),
    }


class SdkValidators:
    """The SDK's validators, each built on first use from its stored schema.

    Each check raises what the SDK's does: `pydantic_core.ValidationError` (what `pydantic.ValidationError` is) for
    a value the SDK rejects, `KeyError` for a method the SDK has no model for at that version.
    """

    def __init__(self, head: Mapping[str, Any], lines: Mapping[str, str]) -> None:
        self._head = head
        self._lines = lines
        self._built: dict[str, Any] = {}
        self._stand_ins: dict[str, type] = {}
        versions = head["versions"]
        self.known_versions: tuple[str, ...] = tuple(versions["known"])
        self.handshake_versions: tuple[str, ...] = tuple(versions["handshake"])
        self.modern_versions: tuple[str, ...] = tuple(versions["modern"])

    def _stand_in(self, name: str) -> type:
        found = self._stand_ins.get(name)
        if found is None:
            doc = f"Stands for the SDK's model `{name}` in a validator built by hostcompat.probe._sdk_schemas."
            found = self._stand_ins[name] = type(name, (), {"__module__": __name__, "__doc__": doc})
        return found

    def _decoded(self, node: Any) -> Any:
        if isinstance(node, dict):
            if len(node) == 1 and "$class" in node:
                return self._stand_in(node["$class"])
            return {key: self._decoded(value) for key, value in node.items()}
        if isinstance(node, list):
            return [self._decoded(item) for item in node]
        return node

    def _validator(self, name: str) -> Any:
        validator = self._built.get(name)
        if validator is None:
            from pydantic_core import SchemaValidator

            stored = json.loads(self._lines[name])
            validator = self._built[name] = SchemaValidator(self._decoded(stored["schema"]), stored["config"])
        return validator

    def _check_version(self, version: str) -> None:
        if version not in self.known_versions:  # as `mcp_types.methods` says it
            raise ValueError(f"version must be a known protocol version, got {version!r}")

    def message(self, text: str) -> Any:
        """One JSON-RPC message parsed as the SDK's transports parse a line (`jsonrpc_message_adapter`): an object
        whose class is named `JSONRPCRequest`, `JSONRPCNotification`, `JSONRPCResponse` or `JSONRPCError`.

        Raises:
            ValueError: not JSON, or not a JSON-RPC message (a `ValidationError`).
        """
        return self._validator(self._head["message"]).validate_json(text, by_name=False)

    def result(self, method: str, version: str, raw: Mapping[str, Any]) -> None:
        """Check a result as the SDK's `ClientSession.send_request` does (`mcp_types.methods.validate_server_result`).

        Raises:
            ValueError: `version` is not one the SDK knows.
            KeyError: the SDK has no model for `method` at `version` (it then checks nothing).
            pydantic_core.ValidationError: the SDK's client rejects the result.
        """
        self._check_version(version)
        self._validator(self._head["results"][method][version]).validate_python(raw, by_name=False)

    def whole(self, name: str, raw: Any, *, by_name: bool | None = None) -> Any:
        """`raw` validated as `mcp_types.<name>.model_validate(raw, by_name=by_name)` validates it
        (`InitializeResult`, `DiscoverResult`, `UnsupportedProtocolVersionErrorData`): a stand-in instance holding
        the validated fields under their Python names.

        Raises:
            pydantic_core.ValidationError: the model rejects it.
        """
        return self._validator(self._head["whole"][name]).validate_python(raw, by_name=by_name)

    def server_request(self, method: str, version: str, params: Mapping[str, Any] | None) -> None:
        """Check a request a server sends as the SDK's client does (`mcp_types.methods.parse_server_request`).

        Raises:
            ValueError: `version` is not one the SDK knows.
            KeyError: the SDK's client does not take `method` at `version`.
            pydantic_core.ValidationError: the request's params are invalid.
        """
        self._check_version(version)
        wire = self._head["requests"][method][version]
        body: dict[str, Any] = {"method": method} if params is None else {"method": method, "params": params}
        self._validator(wire).validate_python({**_ENVELOPE, **body}, by_name=False)
        self._validator(self._head["whole"][method]).validate_python(body, by_name=False)


@cache
def load() -> SdkValidators | None:
    """The SDK's validators when the stored schemas are the installed SDK's; None otherwise (the probe then uses
    the SDK), and when `HOSTCOMPAT_STDIO_CLIENT=sdk` asks for the SDK.
    """
    if os.environ.get("HOSTCOMPAT_STDIO_CLIENT") == "sdk":
        return None
    try:
        first, *rest = _FILE.read_text("utf-8").splitlines()
        head = json.loads(first)
    except (OSError, ValueError):
        return None
    if head.get("fingerprint") != fingerprint():
        return None
    names = head.get("names", [])
    return SdkValidators(head, dict(zip(names, rest, strict=True))) if len(names) == len(rest) else None


__all__ = ["SdkValidators", "fingerprint", "load"]
