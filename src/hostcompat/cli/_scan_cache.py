"""`--cache-dir DIR`: widget scans kept between runs, one small JSON file per widget content and scanner version.

A file is named by the content key (`widget_scans.content_key`: the SHA-256 of the widget's bytes and the scanner's
version) and says again which key and which scanner wrote it. The directory is shared and may hold anything, so
every file is untrusted input: only a regular file (never a link, a FIFO or a device), no larger than
`MAX_ENTRY_BYTES`, in exactly the form written, for the same key and the same scanner, is a hit; anything else is a
miss, silently (the widget is scanned again and its entry written anew). Entries are written atomically
(`output_files`), so a reader never sees half of one, and an entry larger than the bound is not written.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Final

from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.widget_scans import ContentNeeds, needs_from_json, needs_to_json

CACHE_FORMAT: Final = "hostcompat.scan-cache/1"
"""The `format` of every entry; an entry in another format is a miss."""
MAX_ENTRY_BYTES: Final = 4 * 1024 * 1024
"""The largest entry read or written (a scan keeps a few dozen uses per need: real entries are a few KiB)."""


class DiskScanCache:
    """The scans kept in one directory (created when missing)."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        """Use `directory` for the cache.

        Raises:
            InvalidInput: it is not a directory and cannot be made one.
        """
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InvalidInput(
                f"--cache-dir {str(directory)!r}: not a usable directory ({error.strerror or error})",
                value=str(directory),
            ) from error

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def read(self, key: str) -> ContentNeeds | None:
        """The scan kept for `key`, or None: none, or not one this version wrote for this key (see the module)."""
        from hostcompat.engine.scan.version import SCANNER_VERSION

        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            handle = os.open(self._path(key), flags)
        except OSError:
            return None
        try:
            with os.fdopen(handle, "rb") as stream:
                status = os.fstat(stream.fileno())
                if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_ENTRY_BYTES:
                    return None
                data = stream.read(MAX_ENTRY_BYTES + 1)
            entry = json.loads(data) if len(data) <= MAX_ENTRY_BYTES else None
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(entry, dict) or set(entry) != {"format", "scanner", "key", "needs"}:
            return None
        if entry["format"] != CACHE_FORMAT or entry["scanner"] != SCANNER_VERSION or entry["key"] != key:
            return None
        return needs_from_json(entry["needs"])

    def write(self, key: str, needs: ContentNeeds) -> bool:
        """Keep `needs` for `key` (replacing a regular file there); False when it was not written (too large, or
        something other than a regular file is in the way, or the directory refuses): a cache never fails a run.
        """
        from hostcompat.engine.scan.version import SCANNER_VERSION
        from hostcompat.output_files import write_output

        entry = {"format": CACHE_FORMAT, "scanner": SCANNER_VERSION, "key": key, "needs": needs_to_json(needs)}
        text = json.dumps(entry, ensure_ascii=True, separators=(",", ":"))
        if len(text) > MAX_ENTRY_BYTES:
            return False
        path = self._path(key)
        try:
            if not stat.S_ISREG(path.lstat().st_mode):
                return False  # never written through a FIFO or a device, never replaces a link or a directory
        except FileNotFoundError:
            pass
        except OSError:
            return False
        try:
            write_output(path, text)
        except (HostCompatError, OSError):
            return False
        return True


__all__ = ["CACHE_FORMAT", "MAX_ENTRY_BYTES", "DiskScanCache"]
