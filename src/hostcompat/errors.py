"""The one error tree of hostcompat.

::

    HostCompatError
    ├── InvalidInput                  (also a ValueError) misuse or unusable input
    │   ├── InvalidUIURI              a `ui://` URI that breaks the rules
    │   ├── InvalidUIMeta             a `_meta.ui` (or flat `ui/resourceUri`) of the wrong shape
    │   ├── InvalidCapability         a UI capability payload of the wrong shape
    │   ├── InvalidBridgeMessage      a host<->view message that does not validate
    │   ├── InvalidOpenAIMeta         an `openai/*` key of the wrong shape
    │   ├── InvalidHostConfig         a host config file (`mcp.json`, ...) that lists no usable servers
    │   └── InvalidSnapshot           a probe snapshot file that is malformed or of an unknown version
    ├── ResourceError                 reading or building a `ui://` resource failed
    │   ├── MissingReader             no resource reader was given
    │   ├── ResourceReadFailed        the reader raised (the original error is the `__cause__`)
    │   ├── NoContents                the read returned no contents
    │   ├── ResourceNotFound          no content item has the requested URI
    │   ├── AmbiguousResource         more than one content item has the requested URI
    │   ├── WrongMimeType             the item is not `text/html;profile=mcp-app`
    │   ├── ResourceTooLarge          over the 1 MiB HTML budget (counted in bytes)
    │   ├── InvalidBlob               a `blob` that is not strict base64
    │   ├── NotUTF8                   bytes that are not UTF-8
    │   └── EmptyResource             empty name, HTML or text
    ├── ProbeError                    talking to a live server failed
    ├── InvalidMessage                a JSON-RPC message on the wire that is not valid
    ├── ScanTimedOut                  a widget scan ran past its deadline
    ├── WidgetNotAnalysed             a check could not analyse a widget (unread, cut, unscannable, elsewhere)
    │   └── WidgetLeftOut             the check's widget budget (time or characters) left it out
    └── CatalogError                  a host or rule data file is unusable

Findings (a server doing something wrong) are report data, not errors: only misuse of the API
or an unusable input raises. Every error carries the offending value, truncated.
"""

from __future__ import annotations

from typing import Any

_VALUE_PREVIEW = 200


def _preview(value: object) -> str:
    text = repr(value)
    if len(text) > _VALUE_PREVIEW:
        return text[: _VALUE_PREVIEW - 1] + "…"
    return text


class HostCompatError(Exception):
    """Root of every error hostcompat raises on purpose.

    `value` is the offending input (kept as given; its repr in messages is truncated),
    `rule_id` the id of the rule that raised it, when one did.
    """

    def __init__(self, message: str, *, value: Any = None, rule_id: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.value = value
        self.rule_id = rule_id

    @property
    def value_preview(self) -> str:
        """The offending value's repr, cut to a readable length."""
        return _preview(self.value)


class InvalidInput(HostCompatError, ValueError):
    """An input that cannot be used as given (also a `ValueError`)."""


class InvalidUIURI(InvalidInput):
    """A `ui://` URI that breaks the generic or the scoped rules."""


class InvalidUIMeta(InvalidInput):
    """A `_meta.ui` value, or the flat `ui/resourceUri`, of the wrong shape."""


class InvalidCapability(InvalidInput):
    """A UI extension capability payload of the wrong shape."""


class InvalidBridgeMessage(InvalidInput):
    """A host<->view (or legacy `mcpui:*`) message that does not validate."""


class InvalidOpenAIMeta(InvalidInput):
    """An OpenAI Apps SDK `openai/*` key of the wrong shape."""


class InvalidHostConfig(InvalidInput):
    """A host config file (`claude_desktop_config.json`, `.vscode/mcp.json`, ...) that cannot be read as servers."""


class InvalidSnapshot(InvalidInput):
    """A probe snapshot file that is malformed or of an unknown schema version."""


class ResourceError(HostCompatError):
    """Reading, checking or building a `ui://` resource failed."""


class MissingReader(ResourceError):
    """No resource reader was given."""


class ResourceReadFailed(ResourceError):
    """The resource reader raised; the original exception is the `__cause__`."""


class NoContents(ResourceError):
    """A resource read returned no contents."""


class ResourceNotFound(ResourceError):
    """No content item carries the requested URI exactly."""


class AmbiguousResource(ResourceError):
    """More than one content item carries the requested URI."""


class WrongMimeType(ResourceError):
    """A content item whose MIME type is not the MCP App MIME type."""


class ResourceTooLarge(ResourceError):
    """HTML over the budget (1 MiB, counted in UTF-8 bytes), or a blob too long to be under it."""


class InvalidBlob(ResourceError):
    """A `blob` that is not strict, padded base64."""


class NotUTF8(ResourceError):
    """Bytes that do not decode as UTF-8."""


class EmptyResource(ResourceError):
    """An empty name, HTML document or text where one is required."""


class ProbeError(HostCompatError):
    """Talking to a live server failed (timeout, crash, protocol garbage, a limit hit)."""


class InvalidMessage(HostCompatError):
    """A JSON-RPC message that is not valid: not JSON, not an object, no JSON-RPC 2.0 envelope, over a size limit,
    or holding something JSON cannot carry.

    It says what is wrong with one message (the proxy answers or logs it and goes on), where `ProbeError` says that
    talking to a server failed.
    """


class InvalidRequest(InvalidMessage):
    """A JSON-RPC request whose id can be read but whose envelope is invalid (its `params` not an object, say): it
    is answered with its own id (-32600), so the client waiting on that id gets an answer.
    """

    def __init__(self, message: str, *, request_id: int | str, value: Any = None) -> None:
        super().__init__(message, value=value)
        self.request_id = request_id


class CatalogError(HostCompatError):
    """A host-profile or client-rule data file is missing, malformed or inconsistent."""


class InvalidCatalogValue(CatalogError):
    """A catalog value (a fact's value, a date, a text) that breaks its schema: the message says why, and the
    reader of the catalog adds where.
    """


class ScanTimedOut(HostCompatError):
    """A widget scan ran past its deadline and was stopped; what it had found is not used."""


class WidgetNotAnalysed(HostCompatError):
    """A widget a check could not analyse; the message says why (a report note, never a crash of the check)."""


class WidgetLeftOut(WidgetNotAnalysed):
    """A widget the check's widget budget (its time or its characters) left out; reported as CHECK-SCAN-001."""


__all__ = [
    "AmbiguousResource",
    "CatalogError",
    "EmptyResource",
    "HostCompatError",
    "InvalidBlob",
    "InvalidBridgeMessage",
    "InvalidCapability",
    "InvalidCatalogValue",
    "InvalidHostConfig",
    "InvalidInput",
    "InvalidMessage",
    "InvalidOpenAIMeta",
    "InvalidRequest",
    "InvalidSnapshot",
    "InvalidUIMeta",
    "InvalidUIURI",
    "MissingReader",
    "NoContents",
    "NotUTF8",
    "ProbeError",
    "ResourceError",
    "ResourceNotFound",
    "ResourceReadFailed",
    "ResourceTooLarge",
    "ScanTimedOut",
    "WidgetLeftOut",
    "WidgetNotAnalysed",
    "WrongMimeType",
]
