import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.clients.proxy.lines import LineBuffer, Oversized
from hostcompat.errors import InvalidInput


def test_complete_lines_come_out_and_the_unfinished_tail_waits() -> None:
    lines = LineBuffer(100)
    assert lines.feed(b'{"a":1}\n{"b"') == [b'{"a":1}']
    assert lines.buffered == 4
    assert lines.feed(b":2}\n\n") == [b'{"b":2}', b""]
    assert lines.buffered == 0


def test_a_line_over_the_limit_becomes_one_marker_and_its_rest_is_skipped() -> None:
    lines = LineBuffer(10)
    assert lines.feed(b"12345678901") == [Oversized(11)]
    assert lines.buffered == 0
    assert lines.feed(b"still the same line") == []
    assert lines.feed(b"...end\nnext\n") == [b"next"]


def test_a_long_line_ending_in_the_same_chunk_is_flagged_and_the_next_kept() -> None:
    lines = LineBuffer(5)
    assert lines.feed(b"short\ntoo long\nok\n") == [b"short", Oversized(8), b"ok"]


def test_a_buffer_is_at_a_line_start_only_when_it_holds_nothing_and_skips_nothing() -> None:
    lines = LineBuffer(10)
    seen = [lines.at_line_start]
    for chunk in (b'{"a"', b":1}\n", b"12345678901", b"23\n"):  # the third is over the limit, with no newline yet
        out = lines.feed(chunk)
        seen.append(lines.at_line_start)
    assert out == []  # the rest of the long line was skipped
    assert seen == [True, False, True, False, True]
    assert lines.buffered == 0


def test_a_whole_line_is_one_newline_at_the_end_within_the_limit_at_a_line_start() -> None:
    lines = LineBuffer(5)
    assert lines.whole_line(b"12345\n") and lines.whole_line(b"\n")
    assert not lines.whole_line(b"123456\n")  # over the limit
    assert not lines.whole_line(b"a\nb\n") and not lines.whole_line(b"ab") and not lines.whole_line(b"")
    lines.feed(b"ab")
    assert not lines.whole_line(b"c\n")  # the end of a line already begun


def test_flush_hands_back_a_last_line_without_newline() -> None:
    lines = LineBuffer(100)
    lines.feed(b"a\nlast")
    assert lines.flush() == b"last"
    assert lines.flush() == b""


def test_the_limit_must_be_a_positive_integer() -> None:
    with pytest.raises(InvalidInput):
        LineBuffer(0)
    with pytest.raises(InvalidInput):
        LineBuffer(True)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.binary(max_size=30).map(lambda b: b.replace(b"\n", b"")), max_size=10),
    st.lists(st.integers(min_value=1, max_value=40), min_size=1, max_size=10),
)
def test_any_chunking_gives_the_same_lines_and_never_holds_more_than_the_limit(
    records: list[bytes], cuts: list[int]
) -> None:
    data = b"".join(record + b"\n" for record in records)
    lines, out, position, turn = LineBuffer(20), [], 0, 0
    while position < len(data):
        size = cuts[turn % len(cuts)]
        out.extend(lines.feed(data[position : position + size]))
        assert lines.buffered <= 20
        position, turn = position + size, turn + 1
    expected = [record if len(record) <= 20 else "big" for record in records]
    assert [line if isinstance(line, bytes) else "big" for line in out] == expected
