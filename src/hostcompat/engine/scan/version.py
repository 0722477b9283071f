"""The scanner's version: what a cached scan result is keyed by, besides the widget's bytes.

A scan is a pure function of a widget's content and of the scanner's code, so a result may be reused for the same
bytes (in one run, or from `check --cache-dir`) only while the scanner reads them the same way. Raise
`SCANNER_REVISION` with any change that can change what a scan reports; a new package version changes the key too.
"""

from __future__ import annotations

from typing import Final

from hostcompat._version import __version__

SCANNER_REVISION: Final = 1
"""Raised by hand whenever the scanner's results for the same bytes may change."""
SCANNER_VERSION: Final = f"{__version__}+scan.{SCANNER_REVISION}"
"""The package version and the scanner's revision: part of every scan cache key."""

__all__ = ["SCANNER_REVISION", "SCANNER_VERSION"]
