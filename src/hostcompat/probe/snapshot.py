"""A versioned, JSON-serialisable record of what one MCP server said, so a check can run offline and later.

Pure: no SDK import, no network. Listings, `ui://` contents and tool results are kept as the server sent them on the
wire (unknown fields included), so a snapshot attached to a bug report replays the whole check. What the probe had
to cut, and why, is in `coverage` and `events`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import field, replace
from pathlib import Path
from types import MappingProxyType
from typing import IO, Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput, InvalidSnapshot
from hostcompat.probe._json import (
    check_json,
    copy_json,
    copy_object,
    expect_bool,
    expect_choice,
    expect_list,
    expect_number,
    expect_object,
    expect_optional_int,
    expect_optional_str,
    expect_str,
)
from hostcompat.probe._json_stream import JSONTooLarge, load_json
from hostcompat.probe._whole_json import load_whole_json
from hostcompat.probe.calls import CallOutcome, CallRecord, call_outcomes, call_results, records_from_json
from hostcompat.probe.events import COVERAGES, DIMENSIONS, UNKNOWN_COVERAGES, Coverage, Dimension, ProbeEvent
from hostcompat.probe.limits import Limits
from hostcompat.redaction import Redactor, redact_description
from hostcompat.wire_json import WireJSON, WireObject

SCHEMA_VERSION: Final = "hostcompat.snapshot/2"
"""The format written by this version (version 1 had no tool calls)."""

READABLE_VERSIONS: Final = ("hostcompat.snapshot/1", SCHEMA_VERSION)
"""The formats `read_snapshot` reads; a version-1 snapshot reads as one without calls."""

MAX_SNAPSHOT_FILE_BYTES: Final = 512 * 1024 * 1024
"""The largest snapshot file `read_snapshot` opens by default."""

_SERVER_INFO_STAMP: Final = "io.modelcontextprotocol/serverInfo"
"""Where a 2026-07-28 `server/discover` result names the server (in its `_meta`)."""

_REQUESTED: Final = "requestedProtocolVersion"

_NO_META: Final[WireJSON] = MappingProxyType({})


def _own_object(value: object, what: str, copy: bool = True) -> WireJSON:
    """A JSON object of the snapshot: copied (the caller may change its own), or only checked (a fresh parse)."""
    return copy_object(value, what) if copy else check_json(expect_object(value, what), what)


def _raw_items(items: object, what: str, copy: bool = True) -> tuple[WireJSON, ...]:
    return tuple(_own_object(item, f"{what} item", copy) for item in expect_list(items, what))


def _optional_raw(value: object, what: str, copy: bool = True) -> WireJSON | None:
    return None if value is None else _own_object(value, what, copy)


LISTING_REFERENCE: Final = "resources/list"
"""How `UIResourceCapture.referenced_by` names the resource listing (a tool is `tool:<name>`)."""


@dataclass(frozen=True)
class UIResourceCapture:
    """One `ui://` resource as read with `resources/read`: the raw `contents`, or the `error` that stopped it.

    `bytes` is the size the server sent (UTF-8 bytes of `text`, decoded bytes of `blob`, summed over items), or
    `None` when unknown (the message was dropped as too large). `truncated` says a text or blob was cut to the
    per-resource limit (the size is still the full one). `referenced_by` names who pointed at it: `tool:<name>`
    or `resources/list`.
    """

    uri: str
    contents: tuple[WireJSON, ...] = ()
    error: WireJSON | None = None
    truncated: bool = False
    bytes: int | None = None
    referenced_by: tuple[str, ...] = ()

    def to_dict(self) -> WireObject:
        """Plain JSON data, as written in a snapshot (without the URI, which is the key)."""
        return {
            "contents": [copy_json(item, "contents") for item in self.contents],
            "error": None if self.error is None else copy_json(self.error, "error"),
            "truncated": self.truncated,
            "bytes": self.bytes,
            "referencedBy": list(self.referenced_by),
        }

    @classmethod
    def from_dict(cls, uri: str, data: object, *, copy: bool = True) -> UIResourceCapture:
        """A capture from `to_dict` output (with `copy=False` its objects are checked and kept, not copied).

        Raises:
            InvalidInput: a field of the wrong type.
        """
        obj = expect_object(data, f"uiResources[{uri!r}]")
        return cls(
            uri=uri,
            contents=_raw_items(obj.get("contents", []), "uiResources contents", copy),
            error=_optional_raw(obj.get("error"), "uiResources error", copy),
            truncated=expect_bool(obj.get("truncated", False), "uiResources truncated"),
            bytes=expect_optional_int(obj.get("bytes"), "uiResources bytes"),
            referenced_by=tuple(
                expect_str(ref, "uiResources referencedBy") for ref in expect_list(obj.get("referencedBy", []), "refs")
            ),
        )


@dataclass(frozen=True)
class Snapshot:
    """What a server said to one probe, and what the probe could not capture.

    `initialize` is the raw result of `initialize` (handshake era) or `server/discover` (2026-07-28 era);
    `connection` says which (`era`, `method`, `protocolVersion`). `tools`, `resources`, `resource_templates`
    and `prompts` are the raw listing items in server order, every page concatenated. `coverage` says per dimension
    whether that listing is `complete`; anything in `UNKNOWN_COVERAGES` must be treated as unknown by a check.
    `target` and `client` describe who probed what (secrets redacted); `process` is the stdio child's fate.
    `calls` are the tools/call requests the probe made, in order, each with its raw result (see `CallRecord`).
    `requested_protocol_version` is the version the probe asked for (optional: older snapshots do not say).
    The mappings are shared, not copied: treat a snapshot as read-only.
    """

    target: WireJSON
    captured_at: str
    client: WireJSON
    connection: WireJSON | None
    initialize: WireJSON | None
    tools: tuple[WireJSON, ...]
    resources: tuple[WireJSON, ...]
    resource_templates: tuple[WireJSON, ...]
    prompts: tuple[WireJSON, ...]
    ui_resources: Mapping[str, UIResourceCapture]
    limits: Limits
    coverage: Mapping[Dimension, Coverage]
    events: tuple[ProbeEvent, ...] = ()
    process: WireJSON | None = None
    duration_seconds: float = 0.0
    calls: tuple[CallRecord, ...] = ()
    requested_protocol_version: str | None = None
    """The protocol version the probe asked for in the request that opened the connection (`initialize`'s
    `protocolVersion`, or `server/discover`'s); None when it never connected, or in a snapshot taken before the
    probe recorded it (such a probe asked for `options.PROBE_HANDSHAKE_VERSION` in a handshake)."""
    schema_version: str = field(default=SCHEMA_VERSION)

    def __post_init__(self) -> None:
        if self.schema_version != SCHEMA_VERSION:
            raise InvalidInput(f"unknown snapshot version {self.schema_version!r}", value=self.schema_version)
        missing = [dimension for dimension in DIMENSIONS if dimension not in self.coverage]
        unknown = sorted(set(self.coverage) - set(DIMENSIONS))
        if missing or unknown:
            problem = f"misses {missing}" if missing else f"has unknown dimensions {unknown}"
            raise InvalidInput(f"snapshot coverage {problem}", value=dict(self.coverage))
        for dimension in DIMENSIONS:
            expect_choice(self.coverage[dimension], COVERAGES, f"coverage[{dimension!r}]")
        for name in ("tools", "resources", "resource_templates", "prompts", "events", "calls"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        object.__setattr__(self, "coverage", MappingProxyType({key: self.coverage[key] for key in DIMENSIONS}))
        object.__setattr__(self, "ui_resources", MappingProxyType(dict(self.ui_resources)))

    # --- reading ---------------------------------------------------------------------------------------------------

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version, or `None` when the probe never connected."""
        version = (self.connection or {}).get("protocolVersion")
        return version if isinstance(version, str) else None

    @property
    def server_info(self) -> WireJSON | None:
        """`serverInfo` from `initialize`, or the `server/discover` `_meta` stamp; `None` when absent or malformed."""
        init = self.initialize or _NO_META
        info = init.get("serverInfo")
        if info is None:
            meta = init.get("_meta")
            info = meta.get(_SERVER_INFO_STAMP) if isinstance(meta, Mapping) else None
        return info if isinstance(info, Mapping) else None

    @property
    def capabilities(self) -> WireJSON:
        """The server's capabilities as sent (`{}` when absent or malformed)."""
        caps = (self.initialize or _NO_META).get("capabilities")
        return caps if isinstance(caps, Mapping) else _NO_META

    @property
    def instructions(self) -> str | None:
        """The server's instructions, when it sent a string."""
        text = (self.initialize or _NO_META).get("instructions")
        return text if isinstance(text, str) else None

    @property
    def truncated(self) -> Mapping[Dimension, bool]:
        """Per dimension: true when the snapshot does not hold all of it (cut, failed or never tried)."""
        return MappingProxyType({key: self.is_unknown(key) for key in DIMENSIONS})

    @property
    def listed_tools(self) -> tuple[WireJSON, ...] | None:
        """The tools the server listed; None when it gave no list (it was never connected, or `tools/list` failed or
        was never sent before any tool came): a check reads that as "not loaded", not as a list cut short.
        """
        if self.initialize is None or (not self.tools and self.coverage["tools"] in ("failed", "not-attempted")):
            return None
        return self.tools

    def is_unknown(self, dimension: Dimension) -> bool:
        """True when a check must treat `dimension` as unknown rather than as what the snapshot lists."""
        return self.coverage[dimension] in UNKNOWN_COVERAGES

    def events_with(self, code: str) -> tuple[ProbeEvent, ...]:
        """The events with this code, in order."""
        return tuple(event for event in self.events if event.code == code)

    def resource_listing(self, uri: str) -> WireJSON | None:
        """The `resources/list` entry for `uri` (its `_meta.ui` is the listing-level one), or `None`."""
        return next((item for item in self.resources if item.get("uri") == uri), None)

    def redacted(self, redactor: Redactor) -> Snapshot:
        """This snapshot without the secret values `redactor` knows, wherever they are: the target, the listings,
        `initialize`, the `ui://` contents, the calls (arguments, results, errors), events and the process record.
        The target is redacted again by its structure (`redact_description`), and events, call arguments and errors
        and the process record lose URL credentials too. What holds no secret is shared, not copied; with no known
        value, the listings are not even read.
        """
        known = redactor.known
        changes: dict[str, Any] = {"target": redactor.json(redact_description(self.target), urls=False)}
        if redactor:
            changes |= {
                "connection": redactor.json(self.connection, urls=False),
                "initialize": redactor.json(self.initialize, urls=False),
                "tools": redactor.json(self.tools, urls=False),
                "resources": redactor.json(self.resources, urls=False),
                "resource_templates": redactor.json(self.resource_templates, urls=False),
                "prompts": redactor.json(self.prompts, urls=False),
                "ui_resources": {
                    known(uri): replace(
                        capture,
                        uri=known(uri),
                        contents=redactor.json(capture.contents, urls=False),
                        error=redactor.json(capture.error, urls=False),
                        referenced_by=tuple(map(known, capture.referenced_by)),
                    )
                    for uri, capture in self.ui_resources.items()
                },
            }
            changes["calls"] = tuple(
                replace(
                    record,
                    arguments=redactor.json(record.arguments),
                    result=redactor.json(record.result, urls=False),
                    error=redactor.json(record.error),
                )
                for record in self.calls
            )
        text, json_data = redactor.text, redactor.json
        events = tuple(
            ProbeEvent(event.code, event.severity, event.step, text(event.message), json_data(event.detail))
            for event in self.events
        )
        return replace(self, **changes, events=events, process=redactor.json(self.process))

    @property
    def call_results(self) -> Mapping[str, WireJSON]:
        """Tool name → the raw result the server returned (its first `ok` call's, else its first `isError` one):
        the evidence of the result-based checks.
        """
        return call_results(self.calls)

    @property
    def call_outcomes(self) -> Mapping[str, CallOutcome]:
        """Tool name → how calling it went (`ok` if any call succeeded, else the last one's outcome); a tool that
        is not a key was not called.
        """
        return call_outcomes(self.calls)

    # --- plain data ----------------------------------------------------------------------------------------------

    def to_dict(self) -> WireObject:
        """The snapshot as plain JSON data (fresh copies), in the file layout."""
        return {
            "schemaVersion": self.schema_version,
            "capturedAt": self.captured_at,
            "durationSeconds": self.duration_seconds,
            "target": copy_json(self.target, "target"),
            "client": copy_json(self.client, "client"),
            "connection": copy_json(self.connection, "connection"),
            _REQUESTED: self.requested_protocol_version,
            "initialize": copy_json(self.initialize, "initialize"),
            "process": copy_json(self.process, "process"),
            "limits": self.limits.to_dict(),
            "coverage": dict(self.coverage),
            "truncated": dict(self.truncated),
            "events": [event.to_dict() for event in self.events],
            "tools": [copy_json(item, "tools") for item in self.tools],
            "resources": [copy_json(item, "resources") for item in self.resources],
            "resourceTemplates": [copy_json(item, "resourceTemplates") for item in self.resource_templates],
            "prompts": [copy_json(item, "prompts") for item in self.prompts],
            "uiResources": {uri: capture.to_dict() for uri, capture in self.ui_resources.items()},
            "calls": [record.to_dict() for record in self.calls],
        }

    @classmethod
    def from_dict(cls, data: object, *, copy: bool = True) -> Snapshot:
        """A snapshot from `to_dict` output (or a parsed snapshot file of any of `READABLE_VERSIONS`; version 1 has
        no calls; a file without `requestedProtocolVersion` reads as a snapshot that does not say). Unknown top-level
        keys are ignored, so a version-2 reader also reads files with optional fields it does not know.

        With `copy=False` the objects of `data` are checked and kept rather than copied: for a tree nobody else
        holds (one just parsed), which then never exists twice in memory.

        Raises:
            InvalidInput: an unknown `schemaVersion`, a missing field, or a field of the wrong shape.
        """
        obj = expect_object(data, "snapshot")
        version = obj.get("schemaVersion")
        if version not in READABLE_VERSIONS:
            expected = " or ".join(READABLE_VERSIONS)
            raise InvalidSnapshot(f"not a {expected} snapshot (schemaVersion is {version!r})", value=version)
        for key in ("target", "capturedAt", "client", "limits", "coverage"):
            if key not in obj:
                raise InvalidInput(f"snapshot has no {key!r}", value=sorted(obj))
        coverage_obj = expect_object(obj["coverage"], "coverage")
        coverage = {
            dimension: expect_choice(coverage_obj.get(dimension), COVERAGES, f"coverage[{dimension!r}]")
            for dimension in DIMENSIONS
        }
        if "truncated" in obj:
            for flag in expect_object(obj["truncated"], "truncated").values():
                expect_bool(flag, "truncated flag")
        ui_obj = expect_object(obj.get("uiResources", {}), "uiResources")
        return cls(
            target=_own_object(obj["target"], "target", copy),
            captured_at=expect_str(obj["capturedAt"], "capturedAt"),
            client=_own_object(obj["client"], "client", copy),
            connection=_optional_raw(obj.get("connection"), "connection", copy),
            initialize=_optional_raw(obj.get("initialize"), "initialize", copy),
            tools=_raw_items(obj.get("tools", []), "tools", copy),
            resources=_raw_items(obj.get("resources", []), "resources", copy),
            resource_templates=_raw_items(obj.get("resourceTemplates", []), "resourceTemplates", copy),
            prompts=_raw_items(obj.get("prompts", []), "prompts", copy),
            ui_resources={uri: UIResourceCapture.from_dict(uri, entry, copy=copy) for uri, entry in ui_obj.items()},
            limits=Limits.from_dict(obj["limits"]),
            coverage=coverage,
            events=tuple(ProbeEvent.from_dict(event) for event in expect_list(obj.get("events", []), "events")),
            process=_optional_raw(obj.get("process"), "process", copy),
            duration_seconds=expect_number(obj.get("durationSeconds", 0.0), "durationSeconds", positive=False),
            calls=records_from_json(obj.get("calls", [])) if version == SCHEMA_VERSION else (),
            requested_protocol_version=expect_optional_str(obj.get(_REQUESTED), _REQUESTED),
        )


def snapshot_to_json(snapshot: Snapshot) -> str:
    """The snapshot as JSON text (UTF-8 safe, two-space indent, newline-terminated)."""
    return json.dumps(snapshot.to_dict(), ensure_ascii=False, indent=2, allow_nan=False) + "\n"


def snapshot_from_json(text: str | bytes) -> Snapshot:
    """A snapshot from JSON text.

    Raises:
        InvalidSnapshot: not UTF-8, not JSON, nested too deeply, or not a snapshot of a readable version.
    """
    return _parse_snapshot(text, len(text), preview=text[:200])


def _parse_snapshot(
    source: IO[bytes] | bytes | str, max_bytes: int, *, preview: object, chunk: int = 1 << 20
) -> Snapshot:
    """Parse and check a snapshot from a stream (read `chunk` bytes and up at a time), a whole file's bytes or a
    text; the parsed tree is not copied.
    """
    try:
        if isinstance(source, bytes):
            data = load_whole_json(source, max_bytes=max_bytes)
        else:
            data = load_json(source, max_bytes=max_bytes, chunk=chunk)
    except JSONTooLarge:
        raise
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise InvalidSnapshot(f"not a JSON snapshot: {_short(error)}", value=preview) from error
    try:
        return Snapshot.from_dict(data, copy=False)
    except InvalidSnapshot:
        raise
    except InvalidInput as error:
        raise InvalidSnapshot(f"not a valid snapshot: {error.message}", value=error.value) from error


def _short(error: BaseException) -> str:
    """An error's text without the document a `JSONDecodeError` carries (it may be megabytes long)."""
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} (at character {error.pos} of the part being read)"
    text = str(error)
    return text if len(text) <= 300 else text[:299] + "…"


def write_snapshot(snapshot: Snapshot, path: str | os.PathLike[str]) -> Path:
    """Write the snapshot to `path`: atomically for a regular file, through a device or FIFO, never over a link.

    Raises:
        InvalidInput: the path cannot be written (see `hostcompat.output_files`).
    """
    from hostcompat.output_files import write_output  # only writers pay for it: offline checks only read
    from hostcompat.terminal import escape_json_text

    return write_output(path, snapshot_to_json(snapshot), for_terminal=escape_json_text).path


_WHOLE_FILE_BYTES: Final = 8 * 1024 * 1024
"""A snapshot file this small is read in one piece: each value is then parsed once, where pieces of a megabyte made
the parser try a 4 MB widget three times (the pdf example: 50 ms to read instead of 10)."""


def read_snapshot(path: str | os.PathLike[str], *, max_bytes: int = MAX_SNAPSHOT_FILE_BYTES) -> Snapshot:
    """Read a snapshot file written by `write_snapshot` (or attached to a bug report).

    The file is read and parsed piece by piece, at most `max_bytes` of it, so its text and its parsed tree are
    never both in memory (but for a file of at most 8 MiB, read whole).

    Raises:
        InvalidSnapshot: the file is missing, larger than `max_bytes`, not JSON, or not a snapshot of a readable
            version.
    """
    source = Path(path)
    try:
        with source.open("rb") as stream:
            size = os.fstat(stream.fileno()).st_size  # 0 for a pipe or a device: read in pieces
            if 0 < size <= min(_WHOLE_FILE_BYTES, max_bytes):
                whole = stream.read(size + 1)
                if len(whole) == size:  # all of it (a file that grows or shrinks meanwhile is read in pieces)
                    return _parse_snapshot(whole, max_bytes, preview=str(source))
                stream.seek(0)
            chunk = size + 1 if 0 < size <= _WHOLE_FILE_BYTES else 1 << 20
            return _parse_snapshot(stream, max_bytes, preview=str(source), chunk=chunk)
    except JSONTooLarge as error:
        raise InvalidSnapshot(
            f"snapshot {str(source)!r} is larger than {max_bytes} bytes", value=str(source)
        ) from error
    except OSError as error:
        reason = error.strerror or str(error)
        raise InvalidSnapshot(f"cannot read snapshot {str(source)!r}: {reason}", value=str(source)) from error
    except InvalidSnapshot as error:
        raise InvalidSnapshot(f"{source}: {error.message}", value=error.value) from error


def coverage_of(**dimensions: Coverage) -> dict[Dimension, Coverage]:
    """A full coverage map: every dimension `not-attempted` unless given (keyword names are the dimensions)."""
    unknown = sorted(set(dimensions) - set(DIMENSIONS))
    if unknown:
        raise InvalidInput(f"unknown coverage dimensions {unknown}", value=unknown)
    coverage: dict[Dimension, Coverage] = dict.fromkeys(DIMENSIONS, "not-attempted")
    for dimension in DIMENSIONS:
        if dimension in dimensions:
            coverage[dimension] = dimensions[dimension]
    return coverage


__all__ = [
    "LISTING_REFERENCE",
    "MAX_SNAPSHOT_FILE_BYTES",
    "READABLE_VERSIONS",
    "SCHEMA_VERSION",
    "Snapshot",
    "UIResourceCapture",
    "coverage_of",
    "read_snapshot",
    "snapshot_from_json",
    "snapshot_to_json",
    "write_snapshot",
]
