"""Why a peer is not UI-capable: near misses of the MCP Apps UI capability, each with a stable code.

A peer that almost declares the capability (a misspelt extension id, the wrong slot, a MIME type off by case,
spaces or a parameter) is told exactly what to fix instead of silently getting no UI. Never raises.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any, Literal

from hostcompat._dataclass import dataclass
from hostcompat.apps.capabilities.model import (
    EXPERIMENTAL,
    EXTENSIONS,
    MIME_TYPES,
    CapabilitySource,
    UICapability,
    extension_entry,
    lookup,
    parse_payload,
    resolve,
    ui_capable,
)
from hostcompat.apps.constants import (
    EXTENSION_ID,
    LEGACY_RESOURCE_MIME_TYPE,
    OPENAI_WIDGET_MIME_TYPE,
    RESOURCE_MIME_TYPE,
)
from hostcompat.errors import InvalidCapability

DiagnosisCode = Literal[
    "CAP-ABSENT",
    "CAP-MALFORMED",
    "CAP-EXPERIMENTAL-ONLY",
    "CAP-KEY-TYPO",
    "CAP-MISPLACED",
    "CAP-MIME-MISSING",
    "CAP-MIME-EMPTY",
    "CAP-MIME-CASE",
    "CAP-MIME-SPACES",
    "CAP-MIME-NO-PROFILE",
    "CAP-MIME-NOT-EXACT",
    "CAP-MIME-LEGACY",
    "CAP-MIME-SKYBRIDGE",
    "CAP-MIME-NOT-FOUND",
]
"""The stable codes of `CapabilityDiagnosis`."""

_MAX_MIME_CHARS = 1024
_MAX_KEYS_SCANNED = 64
_MAX_KEY_CHARS = 128
_TYPO_SIMILARITY = 0.9
_UI_ALIASES = frozenset({"ui", "app", "apps", "mcp-ui", "mcp-app", "mcp-apps", "mcpui"})


@dataclass(frozen=True)
class CapabilityDiagnosis:
    """Why a peer is not UI-capable: a stable `code`, a sentence, and the value that caused it."""

    code: DiagnosisCode
    message: str
    value: Any = field(default=None, hash=False)


def diagnose_ui_capability(caps: object) -> list[CapabilityDiagnosis]:
    """Why `caps` is not UI-capable, as near misses with stable codes; empty exactly when it is capable.

    Never raises: a value of the wrong shape becomes a `CAP-MALFORMED` diagnosis.
    """
    try:
        resolved = resolve(caps)
    except InvalidCapability as error:
        return [_malformed(error)]
    if resolved is None:
        return [CapabilityDiagnosis("CAP-ABSENT", "no capabilities were given", None)]
    if ui_capable(resolved):
        return []
    notes = _diagnose_slot(resolved, EXTENSIONS)
    if not notes:
        notes = [
            *_diagnose_slot(resolved, EXPERIMENTAL),
            *_diagnose_key_typos(resolved),
            *_diagnose_misplaced(resolved),
        ]
    return notes or [CapabilityDiagnosis("CAP-ABSENT", f"capabilities.extensions has no {EXTENSION_ID!r}", None)]


def _malformed(error: InvalidCapability) -> CapabilityDiagnosis:
    return CapabilityDiagnosis("CAP-MALFORMED", error.message, error.value)


def _diagnose_slot(caps: object, slot: CapabilitySource) -> list[CapabilityDiagnosis]:
    try:
        payload = extension_entry(caps, slot)
    except InvalidCapability as error:
        return [_malformed(error)]
    if payload is None:
        return []
    notes: list[CapabilityDiagnosis] = []
    if slot == EXPERIMENTAL:
        message = "the extension is declared under capabilities.experimental, not capabilities.extensions"
        notes.append(CapabilityDiagnosis("CAP-EXPERIMENTAL-ONLY", message, EXTENSION_ID))
    try:
        capability = parse_payload(payload, slot)
    except InvalidCapability as error:
        return [*notes, _malformed(error)]
    if capability.supports(RESOURCE_MIME_TYPE):
        return notes
    return [*notes, *_diagnose_mime_types(payload, capability)]


def _diagnose_mime_types(payload: Mapping[str, Any], capability: UICapability) -> list[CapabilityDiagnosis]:
    if payload.get(MIME_TYPES) is None:
        return [CapabilityDiagnosis("CAP-MIME-MISSING", f"the payload has no {MIME_TYPES} (it is required)", None)]
    if not capability.mime_types:
        return [CapabilityDiagnosis("CAP-MIME-EMPTY", f"{MIME_TYPES} is empty", [])]
    notes = [note for mime in capability.mime_types[:_MAX_KEYS_SCANNED] for note in _diagnose_mime(mime)]
    missing = f"{MIME_TYPES} does not list {RESOURCE_MIME_TYPE!r}"
    return notes or [CapabilityDiagnosis("CAP-MIME-NOT-FOUND", missing, list(capability.mime_types))]


def _diagnose_mime(mime: str) -> list[CapabilityDiagnosis]:
    if len(mime) > _MAX_MIME_CHARS:
        return []
    compact = "".join(mime.split())
    folded = compact.lower()
    if folded == LEGACY_RESOURCE_MIME_TYPE:
        return [CapabilityDiagnosis("CAP-MIME-LEGACY", "the obsolete early-draft MIME type", mime)]
    if folded == OPENAI_WIDGET_MIME_TYPE:
        return [CapabilityDiagnosis("CAP-MIME-SKYBRIDGE", "the OpenAI Apps SDK MIME type, not MCP Apps", mime)]
    notes: list[CapabilityDiagnosis] = []
    if folded == RESOURCE_MIME_TYPE.lower():
        if compact != mime:
            notes.append(CapabilityDiagnosis("CAP-MIME-SPACES", "the MIME type must have no whitespace", mime))
        if compact != RESOURCE_MIME_TYPE:
            notes.append(CapabilityDiagnosis("CAP-MIME-CASE", "the MIME type is compared case-sensitively", mime))
        return notes
    base, _, params = folded.partition(";")
    if base != "text/html":
        return notes
    profiles = [
        value.strip('"') for name, _, value in (p.partition("=") for p in params.split(";")) if name == "profile"
    ]
    if not profiles:
        notes.append(CapabilityDiagnosis("CAP-MIME-NO-PROFILE", "text/html without profile=mcp-app", mime))
    elif "mcp-app" in profiles:
        exact = f"only the exact string {RESOURCE_MIME_TYPE!r} counts"
        notes.append(CapabilityDiagnosis("CAP-MIME-NOT-EXACT", exact, mime))
    return notes


def _diagnose_key_typos(caps: object) -> list[CapabilityDiagnosis]:
    notes: list[CapabilityDiagnosis] = []
    for slot in (EXTENSIONS, EXPERIMENTAL):
        container = lookup(caps, slot)
        if not isinstance(container, Mapping):
            continue
        for key in itertools.islice(container, _MAX_KEYS_SCANNED):
            if isinstance(key, str) and _looks_like_extension_id(key):
                message = f"capabilities.{slot} key {key!r} looks like a misspelling of {EXTENSION_ID!r}"
                notes.append(CapabilityDiagnosis("CAP-KEY-TYPO", message, key))
    return notes


def _diagnose_misplaced(caps: object) -> list[CapabilityDiagnosis]:
    if lookup(caps, EXTENSION_ID) is None:
        return []
    message = f"{EXTENSION_ID!r} sits directly in capabilities; it belongs in capabilities.extensions"
    return [CapabilityDiagnosis("CAP-MISPLACED", message, EXTENSION_ID)]


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text)


def _looks_like_extension_id(key: str) -> bool:
    if key == EXTENSION_ID or len(key) > _MAX_KEY_CHARS:
        return False
    folded = "".join(key.split()).lower()
    if _squash(folded) == _squash(EXTENSION_ID):
        return True
    head, _, tail = folded.rpartition("/")
    if tail in _UI_ALIASES and (not head or "modelcontextprotocol" in head):
        return True
    return difflib.SequenceMatcher(None, folded, EXTENSION_ID).ratio() >= _TYPO_SIMILARITY


__all__ = [
    "CapabilityDiagnosis",
    "DiagnosisCode",
    "diagnose_ui_capability",
]
