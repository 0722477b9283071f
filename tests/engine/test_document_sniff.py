"""The hygiene check's shortcut for a page opening with `<!DOCTYPE html>` says what the HTML parser says."""

from __future__ import annotations

import pytest

from hostcompat.engine.hygiene import resources


@pytest.mark.parametrize(
    "prefix",
    [
        "<!DOCTYPE html><html>",
        "  \n<!doctype   HTML >x",
        "<!DOCTYPE html",
        "<!DOCTYPE htmlx>",
        "<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0//EN'>",
        "\ufeff<!DOCTYPE html>",
        "<p>no document</p>",
        "<html lang=en>",
        "",
    ],
)
def test_the_doctype_shortcut_agrees_with_the_html_parser(prefix: str) -> None:

    parser = resources._sniffer_class()()
    parser.feed(prefix)
    assert resources._looks_like_document(prefix) is parser.is_document
