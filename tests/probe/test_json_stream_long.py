"""Long values in a streamed JSON file are walked (objects, arrays) or decoded a piece at a time (strings), never
held twice; the result is what `json.loads` gives, whatever the window cuts through (escapes, surrogate pairs)."""

from __future__ import annotations

import io
import json
import random

import pytest

from hostcompat.probe import _json_stream
from hostcompat.probe._json_stream import load_json


@pytest.fixture(autouse=True)
def small_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_json_stream, "_LARGE", 40)


def streamed(text: str, chunk: int) -> object:
    return load_json(io.BytesIO(text.encode("utf-8")), max_bytes=10**8, chunk=chunk)


PIECES = ["a", "é", "😀", '"', "\\", "\n", "\t", "/", "\u2028", "\x01", "<script>", " ", "\ud7ff", "\ue000"]


def random_text(generator: random.Random, length: int) -> str:
    return "".join(generator.choice(PIECES) for _ in range(length))


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_long_strings_read_as_json_loads_reads_them(ensure_ascii: bool) -> None:
    generator = random.Random(18)
    for _ in range(150):
        value = {
            "uiResources": {
                "ui://w": {"contents": [{"uri": "ui://w", "text": random_text(generator, generator.randint(0, 400))}]}
            },
            "tools": [{"name": random_text(generator, 30)} for _ in range(generator.randint(0, 3))],
            "list": [random_text(generator, 90), 1.5, None, True, [random_text(generator, 70)]],
        }
        text = json.dumps(value, ensure_ascii=ensure_ascii)
        for chunk in (1, 3, 7, 64):
            assert streamed(text, chunk) == json.loads(text) == value


def test_a_long_string_is_decoded_in_pieces_not_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = _json_stream._scanstring

    def counted(text: str, end: int, strict: bool = True) -> tuple[str, int]:
        calls.append(len(text))
        decoded: tuple[str, int] = real(text, end, strict)
        return decoded

    monkeypatch.setattr(_json_stream, "_scanstring", counted)
    body = "x" * 5000 + "\\n" + "y" * 5000
    assert streamed('{"a": {"b": "' + body + '"}}', 256) == {"a": {"b": "x" * 5000 + "\n" + "y" * 5000}}
    assert calls and max(calls) < 2000  # never the whole 10,000-character string at once


@pytest.mark.parametrize(
    "text",
    [
        '{"a": {"b": "' + "x" * 200,
        '{"a": {"b": "' + "x" * 200 + '\\q"}}',
        '{"a": {"b": "' + "x" * 200 + '\x01"}}',
        '{"a": {"b": ["' + "x" * 200 + '", }}',
        '{"a": {"b": "' + "x" * 200 + '"} x',
    ],
)
def test_bad_long_values_are_still_errors(text: str) -> None:
    with pytest.raises(ValueError):
        json.loads(text)
    with pytest.raises(ValueError):
        streamed(text, 16)
