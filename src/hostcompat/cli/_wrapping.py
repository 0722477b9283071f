"""Text wrapped to the terminal for the commands' own listings (`hosts`, `scan`): at spaces, never inside a word
(a rule id, a URL, a source) that fits on a line; only a word wider than the line itself (a long URL) is split, so
every line fits the width and nothing is cut.
"""

from __future__ import annotations

import textwrap


def wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """`text` in lines of at most `width` columns, the first indented by `first`, the others by `rest` (`first`
    and two more spaces when None); an empty text gives one line, the bare indent.
    """
    lines = textwrap.wrap(
        text,
        width,
        initial_indent=first,
        subsequent_indent=first + "  " if rest is None else rest,
        break_long_words=True,  # only a word wider than a whole line is split
        break_on_hyphens=False,
    )
    return lines or [first.rstrip()]


__all__ = ["wrap"]
