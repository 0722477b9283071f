"""Types of the optional C lexer (`_clexer.c`); see `lexer.py`, whose Python code it mirrors."""

from collections.abc import Callable, Sequence

def lex(
    source: str, start: int, stop: int, wide: bool, check: Callable[[], None] | None, /
) -> tuple[bytes, bytes, bytes]:
    """The spans of `lex_js` as the bytes of array("i") (wide: "q"), twice, and of array("b")."""

def index_braces(
    source: str,
    start: int,
    stop: int,
    starts: Sequence[int],
    ends: Sequence[int],
    wide: bool,
    check: Callable[[], None] | None,
    /,
) -> tuple[bytes, bytes, bytes]:
    """The brace positions, mates and parents of `_index_braces` as the bytes of array("i") (wide: "q")."""

def ascii_fold(source: str, start: int, stop: int, /) -> bytes:
    """`source[start:stop]` one byte per character: ASCII as itself, anything else as 0x80."""
