from hostcompat.engine.scan.html import split_html


def test_scripts_handlers_and_urls_are_found_in_document_order() -> None:
    source = (
        '<link rel="stylesheet" href="https://cdn.test/a.css"><script>one()</script>'
        '<script type="module" src="https://cdn.test/b.js"></script>'
        '<img src="https://img.test/x.png" onload="two()"><iframe src="https://frame.test/"></iframe>'
    )
    parts = split_html(source, len(source))
    assert [b.kind for b in parts.scripts] == ["inline", "module", "handler"]
    inline = parts.scripts[0]
    assert source[inline.code_start : inline.code_end] == "one()"
    assert parts.scripts[1].src == "https://cdn.test/b.js"
    assert [(u.directive, u.url) for u in parts.urls] == [
        ("resource", "https://cdn.test/a.css"),
        ("resource", "https://img.test/x.png"),
        ("frame", "https://frame.test/"),
    ]


def test_script_text_ends_at_the_first_closing_tag_and_hides_markup_inside_it() -> None:
    source = '<script>const s = "<iframe src=https://x.test>";</script>'
    parts = split_html(source, len(source))
    assert parts.urls == ()
    assert len(parts.scripts) == 1


def test_html_comments_hide_scripts() -> None:
    source = "<!-- <script>app.openLink()</script> --><p>hi</p>"
    assert split_html(source, len(source)).scripts == ()


def test_entity_encoded_handler_code_is_decoded() -> None:
    source = '<button onclick="go(&quot;x&quot;)">b</button>'
    handler = split_html(source, len(source)).scripts[0]
    assert handler.decoded == 'go("x")'


def test_unclosed_tag_does_not_run_past_the_end() -> None:
    source = '<script src="a.js'
    parts = split_html(source, len(source))
    assert all(b.code_end <= len(source) for b in parts.scripts)


def test_tags_without_attributes_are_passed_over_but_still_make_a_document() -> None:
    plain = "<html><body><p>hi</p></body></html>"
    assert split_html(plain, len(plain)).looks_like_html
    closing_only = "text </p> more </div>"
    assert not split_html(closing_only, len(closing_only)).looks_like_html
    source = "<div><P>x</P><SCRIPT>one()</SCRIPT><Style>a{}</Style><scripts>two()</scripts></div>"
    parts = split_html(source, len(source))
    assert [source[b.code_start : b.code_end] for b in parts.scripts] == ["one()"]


def test_a_tag_cut_off_by_the_scan_end_reads_no_further() -> None:
    source = "<script>one()</script><p>"
    parts = split_html(source, len(source) - 1)  # the `>` of `<p>` lies past the end
    assert parts.looks_like_html and [b.kind for b in parts.scripts] == ["inline"]
    handler = '<a onclick="go()"/>'
    assert [b.kind for b in split_html(handler, len(handler) - 1).scripts] == ["handler"]  # `/>` across the end
