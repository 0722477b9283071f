"""`hostcompat serve`: the compatibility page and its HTTP API, local and offline, over the same check pipeline.

A face above `pipeline` and `report`, like the CLI: Starlette and uvicorn are imported only here. `create_app` builds
the guarded application; `serve` runs it; `Guard` holds the Host/Origin checks and the start-up token.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.web.api import MAX_CHECK_BYTES as MAX_CHECK_BYTES
    from hostcompat.web.api import MAX_SCAN_BYTES as MAX_SCAN_BYTES
    from hostcompat.web.api import PAGE_CSP as PAGE_CSP
    from hostcompat.web.api import create_app as create_app
    from hostcompat.web.guard import TOKEN_HEADER as TOKEN_HEADER
    from hostcompat.web.guard import Guard as Guard
    from hostcompat.web.guard import new_token as new_token
    from hostcompat.web.openapi import openapi_document as openapi_document
    from hostcompat.web.server import serve as serve

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.web.api": ["MAX_CHECK_BYTES", "MAX_SCAN_BYTES", "PAGE_CSP", "create_app"],
        "hostcompat.web.guard": ["Guard", "TOKEN_HEADER", "new_token"],
        "hostcompat.web.openapi": ["openapi_document"],
        "hostcompat.web.server": ["serve"],
    },
)

__all__ = [
    "Guard",
    "MAX_CHECK_BYTES",
    "MAX_SCAN_BYTES",
    "PAGE_CSP",
    "TOKEN_HEADER",
    "create_app",
    "new_token",
    "openapi_document",
    "serve",
]
