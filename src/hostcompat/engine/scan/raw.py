"""Raw, offset-only results of the JavaScript passes, before evidence and lines are attached."""

from __future__ import annotations

from hostcompat._dataclass import dataclass
from hostcompat.engine.scan.needs import Confidence, Directive, EmbeddedMedia, ExternalKind, Kind, SdkHow, SdkName, Via

__all__ = ["RawEmbedded", "RawExternal", "RawNeed", "RawSdk", "RawUrl"]


@dataclass(frozen=True, kw_only=True)
class RawNeed:
    """A need seen at `offset` of the scanned text."""

    need: str
    kind: Kind
    confidence: Confidence
    via: Via
    detail: str
    offset: int


@dataclass(frozen=True, kw_only=True)
class RawUrl:
    """A URL used at `offset`, under a CSP directive ("resource", "connect", "frame" or "mention")."""

    url: str
    directive: Directive
    offset: int
    confidence: Confidence = "high"


@dataclass(frozen=True, kw_only=True)
class RawExternal:
    """Code loaded from `url` ("script-src", "module-import", "dynamic-import", "importmap", "worker")."""

    url: str
    kind: ExternalKind
    offset: int


@dataclass(frozen=True, kw_only=True)
class RawSdk:
    """A bridge SDK seen at `offset`."""

    name: SdkName
    how: SdkHow
    detail: str
    offset: int


@dataclass(frozen=True, kw_only=True)
class RawEmbedded:
    """Code embedded at `offset`: base64 or plain text (`media` "js"), or a whole `data:` URL (`media` "data-url")."""

    offset: int
    payload: str
    base64: bool
    media: EmbeddedMedia
