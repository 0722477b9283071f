"""`--cache-dir DIR`: widget scans kept between runs, one small JSON file per widget content and scanner version.

`check` keeps what a widget needs (`ContentNeeds`, in `<key>.json`) and `scan` the whole scan it prints
(`WidgetScan`, in `<key>.scan.json`); the key is the content key (`widget_scans.content_key`: the SHA-256 of the
widget's bytes, field and MIME type, and the scanner's version) and each file says again which key and which scanner
wrote it. The directory is shared and may hold anything, so every file is untrusted input: only a regular file
(never a link, a FIFO or a device), no larger than `MAX_ENTRY_BYTES`, in exactly the form written, for the same key
and the same scanner, is a hit; anything else is a miss, silently (the widget is scanned again and its entry written
anew). Entries are written atomically (`output_files`), so a reader never sees half of one, and an entry larger than
the bound is not written.

The directory's entries together stay under a size bound (`--cache-max-mib`, `DEFAULT_MAX_MIB` by default): a hit
touches its entry's modification time, and once a run has written entries the least recently used ones are removed
until the rest fit. Only regular files named as entries (`ENTRY_NAME`) are counted or removed: links are never
followed, other names (a writer's temporary files among them) are left alone, and every step is relative to the
directory opened once, so nothing outside it is touched. Two processes may share the directory: an entry another one
removed, replaced or used meanwhile is skipped.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import HostCompatError, InvalidInput

if TYPE_CHECKING:
    from hostcompat.engine.scan.model import WidgetScan
    from hostcompat.widget_scans import ContentNeeds

CACHE_FORMAT: Final = "hostcompat.scan-cache/1"
"""The `format` of every entry; an entry in another format is a miss."""
MAX_ENTRY_BYTES: Final = 4 * 1024 * 1024
"""The largest entry read or written (a scan keeps a few dozen uses per need: real entries are a few KiB)."""
MIB: Final = 1024 * 1024
DEFAULT_MAX_MIB: Final = 256
"""The cache directory's size bound when none is given, in MiB."""
ENTRY_NAME: Final = regex(r"[0-9a-f]{64}(?:\.scan)?\.json")
"""The name of an entry (`fullmatch`): a content key, then `.json` (`check`) or `.scan.json` (`scan`)."""
_SWEEP_SHARE: Final = 8
"""A run that has written an eighth of the bound sweeps at once (otherwise when it closes the cache)."""
_NEEDS, _SCAN = "needs", "scan"
"""What an entry holds: a check's `ContentNeeds` or a scan's `WidgetScan` (the entry's payload key)."""


@dataclass(frozen=True)
class _Entry:
    """An entry file seen in the directory: what identifies it (so a replaced file is not removed), its size and
    when it was last used.
    """

    name: str
    inode: int
    size: int
    used: int


class DiskScanCache:
    """The scans kept in one directory (created when missing), its entries bounded to `max_bytes` together."""

    def __init__(self, directory: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_MIB * MIB) -> None:
        """Use `directory` for the cache; `max_bytes` bounds its entries together (0: no bound).

        Raises:
            InvalidInput: it is not a directory and cannot be made one.
        """
        self.directory = Path(directory)
        self.max_bytes = max(0, max_bytes)
        self._written = 0
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise InvalidInput(
                f"--cache-dir {str(directory)!r}: not a usable directory ({error.strerror or error})",
                value=str(directory),
            ) from error

    def read(self, key: str) -> ContentNeeds | None:
        """The needs kept for `key` by `check`, or None: none, or not one this version wrote for this key."""
        from hostcompat.widget_scans import needs_from_json

        data = self._read(f"{key}.json", key, _NEEDS)
        return None if data is None else needs_from_json(data)

    def write(self, key: str, needs: ContentNeeds) -> bool:
        """Keep `needs` for `key` (replacing a regular file there); False when it was not written (too large, or
        something other than a regular file is in the way, or the directory refuses): a cache never fails a run.
        """
        from hostcompat.widget_scans import needs_to_json

        return self._write(f"{key}.json", key, _NEEDS, needs_to_json(needs))

    def read_scan(self, key: str) -> WidgetScan | None:
        """The whole scan kept for `key` by `scan`, or None (as `read`)."""
        from hostcompat.engine.scan.scan_json import scan_from_json

        data = self._read(f"{key}.scan.json", key, _SCAN)
        return None if data is None else scan_from_json(data)

    def write_scan(self, key: str, scan: WidgetScan) -> bool:
        """Keep `scan` for `key` (as `write`)."""
        return self._write(f"{key}.scan.json", key, _SCAN, scan.to_dict())

    def _read(self, name: str, key: str, payload: str) -> object | None:
        """The payload of the entry `name` if it is one this version wrote for `key` (its use noted); else None."""
        from hostcompat.engine.scan.version import SCANNER_VERSION

        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            handle = os.open(self.directory / name, flags)
        except OSError:
            return None
        try:
            with os.fdopen(handle, "rb") as stream:
                status = os.fstat(stream.fileno())
                if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_ENTRY_BYTES:
                    return None
                data = stream.read(MAX_ENTRY_BYTES + 1)
                entry = json.loads(data) if len(data) <= MAX_ENTRY_BYTES else None
                if not (
                    isinstance(entry, dict)
                    and set(entry) == {"format", "scanner", "key", payload}
                    and entry["format"] == CACHE_FORMAT
                    and entry["scanner"] == SCANNER_VERSION
                    and entry["key"] == key
                ):
                    return None
                _touch(stream.fileno())
        except (OSError, ValueError, RecursionError):
            return None
        found: object = entry[payload]
        return found

    def _write(self, name: str, key: str, payload: str, value: object) -> bool:
        from hostcompat.engine.scan.version import SCANNER_VERSION
        from hostcompat.output_files import write_output

        entry = {"format": CACHE_FORMAT, "scanner": SCANNER_VERSION, "key": key, payload: value}
        text = json.dumps(entry, ensure_ascii=True, separators=(",", ":"))
        if len(text) > MAX_ENTRY_BYTES:
            return False
        path = self.directory / name
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
        self._written += len(text)
        if self.max_bytes and self._written * _SWEEP_SHARE >= self.max_bytes:
            self.sweep()
        return True

    def close(self) -> None:
        """Keep the directory within its bound if this run wrote to it (never raises)."""
        if self._written and self.max_bytes:
            self.sweep()

    def sweep(self) -> int:
        """Remove the least recently used entries until the rest fit the bound; how many were removed.

        Never raises: a directory that cannot be read or a file that cannot be removed leaves the cache larger.
        """
        self._written = 0
        if not self.max_bytes:
            return 0
        if not _BY_DESCRIPTOR:  # no `dir_fd` here (Windows): by path, the directory given
            return _evict(str(self.directory), self.max_bytes)
        try:
            directory = os.open(self.directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
        except OSError:
            return 0
        try:
            return _evict(directory, self.max_bytes)
        finally:
            os.close(directory)


_BY_DESCRIPTOR: Final = (
    os.scandir in os.supports_fd and os.stat in os.supports_dir_fd and os.unlink in os.supports_dir_fd
)
"""Whether the sweep can list, look at and remove files relative to the directory opened once."""


def _touch(handle: int) -> None:
    """Mark an entry used now (its modification time): the least recently used ones go first."""
    with contextlib.suppress(OSError, NotImplementedError):  # another user's entry: it ages, nothing more
        os.utime(handle)


def _entries(directory: int | str) -> list[_Entry]:
    """The regular files in `directory` named as entries (links, directories and other names are not seen)."""
    found = []
    try:
        with os.scandir(directory) as listing:
            for item in listing:
                if not ENTRY_NAME.fullmatch(item.name):
                    continue
                try:
                    status = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(status.st_mode):
                    found.append(_Entry(item.name, status.st_ino, status.st_size, status.st_mtime_ns))
    except OSError:
        pass
    return found


def _evict(directory: int | str, max_bytes: int) -> int:
    """Remove the least recently used entries of `directory` (a descriptor, or a path) until the others total
    `max_bytes` at most; how many were removed. An entry replaced or used since it was listed stays.
    """
    entries = _entries(directory)
    total = sum(entry.size for entry in entries)
    removed = 0
    for entry in sorted(entries, key=lambda e: (e.used, e.name)):
        if total <= max_bytes:
            break
        name, where = (
            (entry.name, directory) if isinstance(directory, int) else (os.path.join(directory, entry.name), None)
        )
        try:
            now = os.stat(name, dir_fd=where, follow_symlinks=False)
            if not stat.S_ISREG(now.st_mode) or now.st_ino != entry.inode or now.st_mtime_ns != entry.used:
                continue
            os.unlink(name, dir_fd=where)
        except FileNotFoundError:  # another process removed it first
            total -= entry.size
            continue
        except OSError:
            continue
        total -= entry.size
        removed += 1
    return removed


def add_cache_arguments(parser: argparse.ArgumentParser) -> None:
    """`--cache-dir DIR` and `--cache-max-mib MIB`, as `check` and `scan` take them."""
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="keep widget scans in this directory, by the widget's content and the scanner's version, and reuse "
        "them in later runs",
    )
    parser.add_argument(
        "--cache-max-mib",
        type=int,
        default=DEFAULT_MAX_MIB,
        metavar="MIB",
        help=f"with --cache-dir: the size its entries may take together, in MiB; the least recently used go first "
        f"(default {DEFAULT_MAX_MIB}; 0: no bound)",
    )


def open_cache(args: argparse.Namespace) -> DiskScanCache | None:
    """The cache `--cache-dir` names (None without it).

    Raises:
        InvalidInput: the directory is unusable, or the bound is negative.
    """
    if args.cache_dir is None:
        return None
    if args.cache_max_mib < 0:
        raise InvalidInput("--cache-max-mib must be 0 (no bound) or more", value=args.cache_max_mib)
    return DiskScanCache(args.cache_dir, args.cache_max_mib * MIB)


__all__ = [
    "CACHE_FORMAT",
    "DEFAULT_MAX_MIB",
    "ENTRY_NAME",
    "MAX_ENTRY_BYTES",
    "DiskScanCache",
    "add_cache_arguments",
    "open_cache",
]
