"""Turn a resource's `_meta.ui.csp` and `_meta.ui.permissions` into the iframe's CSP and `allow` attribute.

Every declared origin is checked as a CSP source expression first, so metadata can widen the policy only by
the origins it names and can never add or end a directive.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from hostcompat._regex import regex
from hostcompat.apps.meta.access import ResourceCSP, ResourcePermissions
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON

DEFAULT_CSP: Final = (
    "default-src 'none'; "
    "script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; "
    "media-src 'self' data:; "
    "connect-src 'none'; "
    "object-src 'none'"
)
"""The restrictive CSP for a resource that declares no `csp` (the draft revision's default, see `build_csp`)."""

MAX_CSP_SOURCE_CHARS: Final = 1024
"""The longest origin accepted as a CSP source; longer ones are invalid (real origins are far shorter)."""

_SCHEME: Final = r"[A-Za-z][A-Za-z0-9+.\-]*"
_HOST: Final = r"(?:\*\.)?[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*"
_PORT: Final = r"(?::(?:[0-9]+|\*))?"
_SOURCE: Final = regex(rf"{_SCHEME}://{_HOST}{_PORT}")

_ALLOW_FEATURES: Final = (
    ("camera", "camera"),
    ("microphone", "microphone"),
    ("geolocation", "geolocation"),
    ("clipboard_write", "clipboard-write"),
)


def csp_source_is_valid(origin: object) -> bool:
    """True when `origin` is a CSP source of the shape `scheme://host[:port]`.

    The host is dot-separated labels of letters, digits and `-` (ASCII; use punycode), optionally led by
    one `*.` wildcard; the port is digits or `*`. Keywords (`'self'`, `'unsafe-eval'`), bare hosts, a
    lone `*`, paths, IP-literal brackets, quotes, `;`, `,` and any whitespace are all invalid, so a valid
    source can never add or end a directive. Never raises.
    """
    if not isinstance(origin, str) or len(origin) > MAX_CSP_SOURCE_CHARS:
        return False
    return _SOURCE.fullmatch(origin) is not None


def build_csp(csp: WireJSON | ResourceCSP | None) -> str:
    """The Content-Security-Policy for a view, from its resource's `_meta.ui.csp`.

    `csp` is the wire object (camelCase keys `connectDomains`, `resourceDomains`, `frameDomains`,
    `baseUriDomains`, `wasmUnsafeEval`; unknown keys are ignored), a `ResourceCSP`, or None.

    None gives `DEFAULT_CSP`. Its base is the stable text's default (`connect-src 'none'`: a resource that
    declares nothing may not talk to the network, unlike the built form's `connect-src 'self'`), plus the
    draft revision's `object-src 'none'`, which only restricts further and so satisfies both revisions.

    Any object, even an empty one, gives the built form of the spec example, where R is `resourceDomains`:
    `default-src 'none'; script-src 'self' 'unsafe-inline' R; style-src 'self' 'unsafe-inline' R;
    connect-src 'self' <connectDomains>; img-src 'self' data: R; font-src 'self' R; media-src 'self' data: R;
    frame-src <frameDomains or 'none'>; object-src 'none'; base-uri <baseUriDomains or 'self'>`.
    `wasmUnsafeEval: true` adds `'wasm-unsafe-eval'` to script-src, after `'unsafe-inline'`. Repeated
    origins are written once, in first-seen order.

    Raises `InvalidUIMeta` for a wrong shape (a legacy CSP string, a non-list, a non-string origin) and
    for any origin that `csp_source_is_valid` rejects.
    """
    if csp is None:
        return DEFAULT_CSP
    parsed = _as_resource_csp(csp)
    connect = _sources(parsed.connect_domains, "connectDomains")
    resource = _sources(parsed.resource_domains, "resourceDomains")
    frame = _sources(parsed.frame_domains, "frameDomains")
    base_uri = _sources(parsed.base_uri_domains, "baseUriDomains")
    script_keywords = ["'self'", "'unsafe-inline'"]
    if parsed.wasm_unsafe_eval:
        script_keywords.append("'wasm-unsafe-eval'")
    directives = [
        ("default-src", ["'none'"]),
        ("script-src", [*script_keywords, *resource]),
        ("style-src", ["'self'", "'unsafe-inline'", *resource]),
        ("connect-src", ["'self'", *connect]),
        ("img-src", ["'self'", "data:", *resource]),
        ("font-src", ["'self'", *resource]),
        ("media-src", ["'self'", "data:", *resource]),
        ("frame-src", frame or ["'none'"]),
        ("object-src", ["'none'"]),
        ("base-uri", base_uri or ["'self'"]),
    ]
    return "; ".join(f"{name} {' '.join(values)}" for name, values in directives)


def build_allow_attribute(permissions: WireJSON | ResourcePermissions | None) -> str:
    """The iframe `allow` attribute for `_meta.ui.permissions`, as hosts may map it.

    Requested features appear in the order camera, microphone, geolocation, clipboard-write, joined by
    `"; "`; None or nothing requested gives `""`. On the wire each requested feature is an object (`{}`);
    a present non-object value, or a non-object `permissions`, raises `InvalidUIMeta`. Unknown keys are
    ignored: only these four features are ever delegated.
    """
    if permissions is None:
        return ""
    if isinstance(permissions, ResourcePermissions):
        parsed = permissions
    elif isinstance(permissions, Mapping):
        parsed = ResourcePermissions.from_wire(permissions)
    else:
        raise InvalidUIMeta(
            f"_meta.ui.permissions must be an object or ResourcePermissions, got {type(permissions).__name__}",
            value=permissions,
        )
    return "; ".join(feature for field, feature in _ALLOW_FEATURES if getattr(parsed, field))


def _as_resource_csp(csp: object) -> ResourceCSP:
    if isinstance(csp, ResourceCSP):
        return csp
    if isinstance(csp, str):
        raise InvalidUIMeta(
            "_meta.ui.csp is a legacy raw CSP string; only the official object can be built into a policy",
            value=csp,
        )
    if not isinstance(csp, Mapping):
        raise InvalidUIMeta(
            f"_meta.ui.csp must be an object or ResourceCSP, got {type(csp).__name__}",
            value=csp,
        )
    return ResourceCSP.from_wire(csp)


def _sources(origins: Sequence[str], key: str) -> list[str]:
    for origin in origins:
        if not csp_source_is_valid(origin):
            raise InvalidUIMeta(
                f"_meta.ui.csp.{key} holds {origin!r}, which is not a CSP source of the form scheme://host[:port]",
                value=origin,
            )
    return list(dict.fromkeys(origins))


__all__ = [
    "DEFAULT_CSP",
    "MAX_CSP_SOURCE_CHARS",
    "build_allow_attribute",
    "build_csp",
    "csp_source_is_valid",
]
