from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan.js.lexer import (
    COMMENT,
    REGEX,
    STRING,
    TEMPLATE,
    enclosing_open_brace,
    is_code,
    lex_js,
    matching_close_brace,
    next_code_index,
    prev_code_index,
)


def kinds_and_texts(source: str) -> list[tuple[int, str]]:
    layout = lex_js(source)
    return [(k, source[s:e]) for s, e, k in zip(layout.starts, layout.ends, layout.kinds, strict=True)]


def test_strings_with_escaped_quotes_are_one_span() -> None:
    assert kinds_and_texts(r'a("x\"y", ' + r"'it\'s')") == [(STRING, r'"x\"y"'), (STRING, r"'it\'s'")]


def test_line_and_block_comments_are_comment_spans() -> None:
    source = 'a=1 // note \'quote\nb=2 /* block "x" */ c=3'
    assert kinds_and_texts(source) == [(COMMENT, "// note 'quote"), (COMMENT, '/* block "x" */')]


def test_template_expressions_are_code_and_their_text_is_template() -> None:
    source = "`a${ f({k: 1}) }b${`inner${x}`}c`"
    spans = kinds_and_texts(source)
    assert spans == [
        (TEMPLATE, "`a${"),
        (TEMPLATE, "}b${"),
        (TEMPLATE, "`inner${"),
        (TEMPLATE, "}`"),
        (TEMPLATE, "}c`"),
    ]
    layout = lex_js(source)
    assert is_code(layout, source.index("f("))
    assert is_code(layout, source.index("x}"))
    assert not is_code(layout, source.index("b$"))


def test_regex_literal_after_an_operator_and_division_after_an_operand() -> None:
    source = "x = a / b / c; y = /'[/]'/g.test(s); return /\"/.source"
    spans = kinds_and_texts(source)
    assert spans == [(REGEX, "/'[/]'/g"), (REGEX, '/"/')]


def test_unterminated_literals_end_without_error() -> None:
    for source in ['"abc', "'abc\n", "`abc${x", "/* abc", "a = /abc"]:
        layout = lex_js(source)
        assert all(0 <= s <= e <= len(source) for s, e in zip(layout.starts, layout.ends, strict=True))


def test_neighbours_skip_blanks_and_comments() -> None:
    source = "app /* c */ . callTool ( 1 )"
    layout = lex_js(source)
    name = source.index("callTool")
    assert source[prev_code_index(source, layout, name)] == "."
    assert source[next_code_index(source, layout, name + len("callTool"))] == "("


def test_braces_inside_strings_do_not_confuse_brace_matching() -> None:
    source = 'f(){ a="}"; if(x){ b=`{${y}}` } }'
    layout = lex_js(source)
    open_at = source.index("{")
    assert matching_close_brace(source, layout, open_at, 1000) == len(source) - 1
    assert enclosing_open_brace(source, layout, source.index("b="), 1000) == source.index("{ b=")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab/*'\"`${}\\\n ()=+")), max_size=300))
def test_spans_are_sorted_disjoint_and_inside_the_input(source: str) -> None:
    layout = lex_js(source)
    previous_end = 0
    for start, end in zip(layout.starts, layout.ends, strict=True):
        assert previous_end <= start < end <= len(source)
        previous_end = end
