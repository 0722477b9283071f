"""The era gateway: a legacy (handshake-era) client before a 2026-07-28 server, or the other way round.

The pure translations are in `translate`; `open_era_link` wraps an upstream so the proxy's relay talks to it in the
client's era. Importing this package is cheap: every name loads on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.clients.proxy.era.gateway import era_opener as era_opener
    from hostcompat.clients.proxy.era.gateway import open_era_link as open_era_link
    from hostcompat.clients.proxy.era.translate import Envelope as Envelope
    from hostcompat.clients.proxy.era.translate import Era as Era

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.clients.proxy.era.gateway": ["era_opener", "open_era_link"],
        "hostcompat.clients.proxy.era.translate": ["Envelope", "Era"],
    },
)

__all__ = ["Envelope", "Era", "era_opener", "open_era_link"]
