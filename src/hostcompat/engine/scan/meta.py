"""What a widget resource's `_meta` declares: CSP domains, sandbox permissions, in both dialects.

Reads `_meta.ui.csp` / `_meta.ui.permissions` (MCP Apps) and `openai/widgetCSP` (OpenAI Apps SDK).
A declaration of the wrong shape is the server's problem, so it becomes a reported problem, not
an exception; only a `_meta` that is not a mapping at all is misuse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hostcompat.apps.constants import META_UI_KEY
from hostcompat.engine.scan.model import MetaScan, NeedFinding, ScanLimit
from hostcompat.engine.scan.needs import ALL_NEEDS
from hostcompat.errors import InvalidUIMeta
from hostcompat.wire_json import WireJSON

__all__ = ["OPENAI_WIDGET_CSP_KEY", "scan_widget_meta"]

OPENAI_WIDGET_CSP_KEY: Final = "openai/widgetCSP"
"""The OpenAI Apps SDK resource key carrying `resource_domains`, `connect_domains`, `frame_domains`."""

_MCP_CSP_KEYS: Final = (
    ("frameDomains", "frame", "cspFrameDomains"),
    ("connectDomains", "connect", "cspConnectDomains"),
    ("resourceDomains", "resource", "cspResourceDomains"),
    ("baseUriDomains", "base_uri", None),
)
_OPENAI_CSP_KEYS: Final = (
    ("frame_domains", "frame", "cspFrameDomains"),
    ("connect_domains", "connect", "cspConnectDomains"),
    ("resource_domains", "resource", "cspResourceDomains"),
)

_MAX_DOMAINS = 256
_MAX_DOMAIN_CHARS = 2048
_NEED_ORDER = {need: index for index, need in enumerate(ALL_NEEDS)}


def scan_widget_meta(meta: WireJSON | None) -> MetaScan:
    """Read the needs a resource `_meta` declares (None or an empty mapping declares nothing).

    Raises:
        InvalidUIMeta: `meta` is neither None nor a mapping.
    """
    if meta is None:
        meta = {}
    if not isinstance(meta, Mapping):
        raise InvalidUIMeta(f"resource _meta must be a mapping, got {type(meta).__name__}", value=meta)
    findings: list[NeedFinding] = []
    domains: dict[str, list[str]] = {"frame": [], "connect": [], "resource": [], "base_uri": []}
    problems: list[ScanLimit] = []
    permission_names: list[str] = []
    ui = meta.get(META_UI_KEY)
    if ui is not None:
        if isinstance(ui, Mapping):
            _read_csp(ui.get("csp"), "_meta.ui.csp", _MCP_CSP_KEYS, findings, domains, problems)
            permission_names = _read_permissions(ui.get("permissions"), findings, problems)
        else:
            problems.append(ScanLimit(code="meta_invalid", detail="_meta.ui is not an object", offset=None))
    _read_csp(meta.get(OPENAI_WIDGET_CSP_KEY), OPENAI_WIDGET_CSP_KEY, _OPENAI_CSP_KEYS, findings, domains, problems)
    findings.sort(key=lambda f: _NEED_ORDER.get(f.need, 99))
    return MetaScan(
        findings=tuple(findings),
        connect_domains=_distinct(domains["connect"]),
        resource_domains=_distinct(domains["resource"]),
        frame_domains=_distinct(domains["frame"]),
        base_uri_domains=_distinct(domains["base_uri"]),
        permission_names=tuple(permission_names),
        problems=tuple(problems),
    )


def _read_csp(
    csp: object,
    path: str,
    keys: tuple[tuple[str, str, str | None], ...],
    findings: list[NeedFinding],
    domains: dict[str, list[str]],
    problems: list[ScanLimit],
) -> None:
    if csp is None:
        return
    if not isinstance(csp, Mapping):
        problems.append(ScanLimit(code="meta_invalid", detail=f"{path} is not an object", offset=None))
        return
    for key, directive, need in keys:
        value = csp.get(key)
        if value is None:
            continue
        names = _domain_list(value, f"{path}.{key}", problems)
        domains[directive].extend(names)
        if names and need is not None:
            findings.append(
                NeedFinding(
                    need=need, kind="meta", confidence="high", via="meta", detail=f"{path}.{key}", evidence=None
                )
            )


def _domain_list(value: object, path: str, problems: list[ScanLimit]) -> list[str]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        problems.append(ScanLimit(code="meta_invalid", detail=f"{path} is not a list of origins", offset=None))
        return []
    names: list[str] = []
    for item in value[:_MAX_DOMAINS]:
        if isinstance(item, str) and item.strip() and len(item) <= _MAX_DOMAIN_CHARS:
            names.append(item.strip())
        else:
            problems.append(
                ScanLimit(code="meta_invalid", detail=f"{path} holds a value that is not an origin string", offset=None)
            )
    if len(value) > _MAX_DOMAINS:
        problems.append(
            ScanLimit(code="meta_truncated", detail=f"{path} lists over {_MAX_DOMAINS} origins", offset=None)
        )
    return names


def _read_permissions(value: object, findings: list[NeedFinding], problems: list[ScanLimit]) -> list[str]:
    """Permission names from `_meta.ui.permissions` (an object of `{}` values; an array is tolerated)."""
    if value is None:
        return []
    if isinstance(value, Mapping):
        names = [str(k) for k in value if isinstance(k, str) and k][:_MAX_DOMAINS]
    elif isinstance(value, (list, tuple)):
        problems.append(
            ScanLimit(code="meta_invalid", detail="_meta.ui.permissions is an array, not an object", offset=None)
        )
        names = [item for item in value if isinstance(item, str) and item][:_MAX_DOMAINS]
    else:
        problems.append(ScanLimit(code="meta_invalid", detail="_meta.ui.permissions is not an object", offset=None))
        return []
    if names:
        findings.append(
            NeedFinding(
                need="sandboxPermissions",
                kind="meta",
                confidence="high",
                via="meta",
                detail="_meta.ui.permissions",
                evidence=None,
            )
        )
    return sorted(set(names))


def _distinct(values: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(values))
