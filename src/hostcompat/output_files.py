"""Where `-o FILE` output goes: regular files written atomically, special files written through, nothing replaced.

Every command that writes a file (`snapshot -o`, `check -o`, `write_snapshot`) goes through `write_output`, and
checks the path with `check_output_path` before it does any work, so a bad path is an error before a probe runs:

- no file there yet, or a regular file: the text goes to a temporary file in the same directory, which is then
  renamed over the path (readers never see half a file; the mode of a file replaced is kept);
- a character device (`/dev/null`, a terminal) or a FIFO: the text is written through it, and the device stays
  what it is (renaming a file over `/dev/null` as root would replace the system's `/dev/null`); a FIFO that no
  process reads is an error, not a wait for a reader (one planted in a shared directory must not hang the run);
- a symbolic link is never replaced and never followed to a file or a device (a link planted in a shared directory
  must not redirect a report over another file); a link to a terminal, a FIFO or `/dev/null`, such as
  `/dev/stdout`, is written through;
- a directory, a block device, a socket, a missing or unwritable directory: an `InvalidInput` naming the problem.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from hostcompat._dataclass import dataclass
from hostcompat.errors import InvalidInput

Mode = Literal["atomic", "through"]
"""`atomic`: a temporary file renamed over the path; `through`: the path is opened and written as it is."""


@dataclass(frozen=True)
class OutputPath:
    """A checked output path and how it will be written."""

    path: Path
    mode: Mode


def check_output_path(path: str | os.PathLike[str]) -> OutputPath:
    """How `path` would be written, or `InvalidInput` saying why it cannot be.

    For a regular file (or none yet) this creates and removes a temporary file in its directory, so a directory
    that is missing, not a directory, read-only or full of the wrong permissions is found now, not after the work.
    """
    target = Path(path)
    if not str(path):
        raise InvalidInput("the output path is empty", value=str(path))
    mode = _mode(target)
    if mode == "atomic":
        _probe_directory(target)
    return OutputPath(target, mode)


def write_output(
    path: str | os.PathLike[str], text: str, *, for_terminal: Callable[[str], str] | None = None
) -> OutputPath:
    """Write `text` (UTF-8) to `path` as `check_output_path` describes; returns where and how it was written.

    `for_terminal` transforms the text when the path turns out to be a terminal (JSON escaped by
    `hostcompat.terminal.escape_json_text`, say). Lone surrogates are written as backslash escapes.
    """
    checked = check_output_path(path)

    def data_for(terminal: bool) -> bytes:
        shown = for_terminal(text) if terminal and for_terminal is not None else text
        return shown.encode("utf-8", "backslashreplace")

    if checked.mode == "through":
        _write_through(checked.path, data_for)
    else:
        _write_atomic(checked.path, data_for(False))
    return checked


def _mode(target: Path) -> Mode:
    """`atomic` or `through` for what is at `target` now, or `InvalidInput`."""
    try:
        link = target.lstat()
    except FileNotFoundError:
        return "atomic"
    except NotADirectoryError as error:
        raise _cannot(target, "a part of its directory is not a directory") from error
    except OSError as error:
        raise _cannot(target, error.strerror or str(error)) from error
    if stat.S_ISREG(link.st_mode):
        return "atomic"
    if stat.S_ISLNK(link.st_mode):
        try:
            followed = target.stat()
        except OSError:
            followed = None
        if followed is not None and _is_pass_through(followed.st_mode) and _linked_output(target, followed.st_mode):
            return "through"
        hint = " (for standard output, leave out -o)" if str(target).startswith(("/dev/", "/proc/")) else ""
        raise InvalidInput(
            f"refusing to write {str(target)!r}: it is a symbolic link, and hostcompat neither replaces a link "
            f"nor writes through one to anything but a terminal, a pipe or /dev/null; give the path it points "
            f"to{hint}",
            value=str(target),
        )
    if _is_pass_through(link.st_mode):
        return "through"
    raise _cannot(target, f"it is {_kind(link.st_mode)}, not a file")


def _cannot(target: Path, reason: str) -> InvalidInput:
    return InvalidInput(f"cannot write {str(target)!r}: {reason}", value=str(target))


def _linked_output(link: Path, mode: int) -> bool:
    """A link that may be written through: to a FIFO (`/dev/stdout` of a pipe), a terminal or `/dev/null`.

    Other character devices are written only when named directly: opening some has effects of its own.
    """
    if stat.S_ISFIFO(mode):
        return True
    real = os.path.realpath(link)
    return real == os.devnull or real.startswith(("/dev/pts/", "/dev/tty", "/dev/console"))


def _is_pass_through(mode: int) -> bool:
    """A character device (a terminal, `/dev/null`) or a FIFO: written through, never replaced."""
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _probe_directory(target: Path) -> None:
    """Create and remove a temporary file next to `target`: the directory exists and takes new files."""
    import tempfile  # only writers pay for it

    directory = target.parent
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except FileNotFoundError as error:
        raise _cannot(target, f"directory {str(directory)!r} does not exist") from error
    except NotADirectoryError as error:
        raise _cannot(target, f"{str(directory)!r} is not a directory") from error
    except OSError as error:
        raise _cannot(target, f"cannot create files in {str(directory)!r} ({error.strerror or error})") from error
    os.close(handle)
    os.unlink(temporary)


def _write_atomic(target: Path, data: bytes) -> None:
    import tempfile

    try:
        existing: int | None = stat.S_IMODE(target.stat().st_mode)
    except OSError:
        existing = None
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as error:
        raise _cannot(target, error.strerror or str(error)) from error
    try:
        try:
            os.fchmod(handle, existing if existing is not None else _default_mode())
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            if _mode(target) != "atomic":  # something else appeared at the path while we wrote
                raise _cannot(target, "something else appeared there while it was written")
            os.replace(temporary, target)
        except OSError as error:
            raise _cannot(target, error.strerror or str(error)) from error
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _default_mode() -> int:
    """The mode `open(..., "w")` would give a new file: 0o666 less the umask."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_through(target: Path, data_for: Callable[[bool], bytes]) -> None:
    # non-blocking to open: a pipe nobody reads is an error now (ENXIO), not a run that hangs until someone does
    flags = os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        handle = os.open(target, flags)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise _cannot(target, "it is a pipe that no process is reading") from error
        raise _cannot(target, error.strerror or str(error)) from error
    try:
        os.set_blocking(handle, True)  # then written as any output is, waiting for a slow reader
        opened = os.fstat(handle)
        if not _is_pass_through(opened.st_mode):  # it was swapped for something else since it was checked
            raise _cannot(target, "it changed while it was opened")
        data = data_for(os.isatty(handle))
        view = memoryview(data)
        while view:
            view = view[os.write(handle, view) :]
    except OSError as error:
        raise _cannot(target, error.strerror or str(error)) from error
    finally:
        os.close(handle)


__all__ = ["Mode", "OutputPath", "check_output_path", "write_output"]
