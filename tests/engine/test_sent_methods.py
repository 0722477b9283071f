"""The `ui/…` methods a widget sends, found from the literal `ui/`, are exactly the regex's matches, in order."""

from __future__ import annotations

import json
import random
import re

import pytest

from hostcompat.engine.hygiene.sent_methods import SENT_UI_METHOD, sent_ui_methods
from testkit.widget_corpus import corpus_dir

CASES = [
    'method:"ui/open-link"',
    "x={'method' : 'ui/message'}",
    '"method"  :\n "ui/initialize"',
    'request("ui/x")sendRequest( "ui/y")sendNotification(\'ui/z\')notify("ui/a")send("ui/b")',
    'asendRequest("ui/no")',
    'xmethod:"ui/no"',
    'method:"ui/method":"ui/b"',
    '"method:"ui/a"method:"ui/b"',
    'method:"ui/a"\'method\':"ui/b"',
    'method:"ui/' + "a" * 81 + '"',
    'method:"ui/' + "a" * 80 + '"',
    'method:"ui/a b"',
    "ui/ at the start",
    '(ui/"ui/x")',
    "method:\u00a0'ui/nbsp'",
    'request("ui/x"',
]


def found(text: str) -> list[tuple[int, int, str | None, str | None]]:
    return [(m.start(), m.end(), m.group(1), m.group(2)) for m in sent_ui_methods(text)]


def expected(text: str) -> list[tuple[int, int, str | None, str | None]]:
    return [(m.start(), m.end(), m.group(1), m.group(2)) for m in SENT_UI_METHOD.finditer(text)]


@pytest.mark.parametrize("text", CASES)
def test_the_literal_search_finds_what_the_regex_finds(text: str) -> None:
    assert found(text) == expected(text)


def test_the_literal_search_finds_what_the_regex_finds_in_random_text() -> None:
    pieces = ["method", "'", '"', ":", " ", "\n", "(", "ui/", "a", "request", "send", "Request", "x", "-", "\u2003"]
    generator = random.Random(18)
    for _ in range(3000):
        text = "".join(generator.choice(pieces) for _ in range(generator.randint(1, 30)))
        assert found(text) == expected(text), text


def test_whitespace_is_what_the_regex_calls_whitespace() -> None:
    spaces = [chr(code) for code in range(0x3000) if re.fullmatch(r"\s", chr(code))]
    assert spaces == [chr(code) for code in range(0x3000) if chr(code).isspace()]


def test_the_captured_widgets_give_the_same_matches() -> None:
    folder = corpus_dir()
    pages = [
        item["text"]
        for path in sorted(folder.glob("*__*.json")) + sorted(folder.glob("s*.json"))
        for entry in json.loads(path.read_text(encoding="utf-8")).get("uiResources", {}).values()
        for item in entry.get("contents") or ()
        if isinstance(item.get("text"), str)
    ]
    if not pages:
        pytest.skip("no widget corpus (scripts/capture_widgets.py)")
    assert sum(len(found(page)) for page in pages) > 0  # real widgets do send ui/ methods
    for page in pages:
        assert found(page) == expected(page)
