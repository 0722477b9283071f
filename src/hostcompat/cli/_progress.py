"""Progress while many servers are probed: how many are done of how many, and which are running now.

On standard error, only when it is a terminal (a log or a pipe gets nothing): one line, rewritten in place as
probes start and end, and erased at the end so the report starts on a clean screen. Server names are a server's
or a config's text: each is one escaped line (`hostcompat.terminal.clean_line`), nothing a terminal obeys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from hostcompat.terminal import clean_line

_ERASE = "\r\x1b[K"
"""Back to the start of the line, and erase it."""


def progress_line(done: int, total: int, running: Sequence[str], width: int = 80) -> str:
    """`probing: 2/6 done, running: a, b (+1 more)`, at most `width - 1` columns (the last one is left free so
    the terminal never wraps the line); names that do not fit are counted, not cut.
    """
    line = f"probing: {done}/{total} done"
    if not running:
        return line[: max(width - 1, 1)]
    names = [clean_line(name) for name in running]
    limit = max(width - 1, 1)
    for shown in range(len(names), 0, -1):
        more = f" (+{len(names) - shown} more)" if shown < len(names) else ""
        candidate = f"{line}, running: {', '.join(names[:shown])}{more}"
        if len(candidate) <= limit:
            return candidate
    first = f"{line}, running: {names[0]}"
    return first if len(first) <= limit else first[: limit - 1] + "…"


class Progress:
    """The progress of probing `labels`, shown on `stream` only when it is a terminal."""

    def __init__(self, labels: Sequence[str], stream: TextIO, width: int) -> None:
        """Show nothing yet; `width` is the terminal's."""
        self._labels = list(labels)
        self._stream = stream
        self._width = width
        self._running: list[int] = []
        self._done = 0
        self._shown = _is_terminal(stream)

    def update(self, index: int, done: bool) -> None:
        """The probe of `labels[index]` started (`done` False) or ended."""
        if done:
            self._done += 1
            if index in self._running:
                self._running.remove(index)
        else:
            self._running.append(index)
        self._draw()

    def close(self) -> None:
        """Erase the line."""
        if self._shown:
            self._stream.write(_ERASE)
            self._stream.flush()

    def _draw(self) -> None:
        if not self._shown:
            return
        running = [self._labels[index] for index in self._running]
        self._stream.write(_ERASE + progress_line(self._done, len(self._labels), running, self._width))
        self._stream.flush()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed or detached
        return False


__all__ = ["Progress", "progress_line"]
