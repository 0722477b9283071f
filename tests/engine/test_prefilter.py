"""The scanner's native prefilter: anchors are found wherever they lie, and gating never changes a scan."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.engine.scan import prefilter as _prefilter
from hostcompat.engine.scan.prefilter import ALL_OPEN, find_anchors, gate, native_prefilter
from hostcompat.engine.scan.widget import scan_widget_content, scan_widget_source
from testkit.widget_corpus import Widget, corpus_widgets, fixture_widgets, read_corpus
from tests.engine.test_scan_corpus_properties import TOKENS

needs_native = pytest.mark.skipif(
    not native_prefilter() and not os.environ.get("CI"),
    reason="Hyperscan (the `fast` extra) is not installed: only the gate-less path runs",
)


@pytest.fixture
def without_prefilter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_prefilter, "_load_matcher", lambda: None)


def test_ci_runs_the_native_prefilter() -> None:
    if os.environ.get("CI"):
        assert native_prefilter(), "CI installs the `fast` extra: the native prefilter must load"


def test_a_gate_needs_non_empty_ascii_literals() -> None:
    with pytest.raises(ValueError, match="at least one"):
        gate()
    with pytest.raises(ValueError, match="ASCII"):
        gate("ok", "")
    with pytest.raises(ValueError, match="ASCII"):
        gate("caf\u00e9")


def test_without_the_native_matcher_every_gate_is_open(without_prefilter: None) -> None:
    assert find_anchors("nothing here", 0, 12) is ALL_OPEN
    assert ALL_OPEN.open(gate("postMessage"))


@needs_native
def test_anchors_are_found_inside_the_stretch_only() -> None:
    post, openai = gate("postMessage"), gate("openai")
    text = "window.openai.callTool(); parent.postMessage(x)"
    inner = find_anchors(text, 0, 25)
    assert inner.open(openai) and not inner.open(post)
    assert find_anchors(text, 0, len(text)).open(post)
    assert not find_anchors(text, 5, 5).open(openai)


@needs_native
def test_an_anchor_across_a_chunk_boundary_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    post = gate("postMessage")
    monkeypatch.setattr(_prefilter, "_CHUNK_CHARS", 8)
    for shift in range(12):
        text = "x" * shift + "postMessage" + "y" * 5
        assert find_anchors(text, 0, len(text)).open(post), shift
        assert not find_anchors(text, shift + 1, len(text)).open(post), shift


@needs_native
def test_anchors_after_non_ascii_text_and_lone_surrogates_are_found(monkeypatch: pytest.MonkeyPatch) -> None:
    post = gate("postMessage")
    monkeypatch.setattr(_prefilter, "_CHUNK_CHARS", 5)
    text = "\u00e9\U0001f600\ud800 // \u4e2d\u6587 postMessage(1)"
    assert find_anchors(text, 0, len(text)).open(post)
    assert not find_anchors(text, 0, text.index("post") + 4).open(post)


def _scans(widgets: list[Widget]) -> list[dict[str, object]]:
    return [scan_widget_content(w.content).to_dict() for w in widgets]


def _labelled_widgets() -> list[Widget]:
    try:
        return corpus_widgets(read_corpus()) + fixture_widgets()
    except FileNotFoundError:
        return fixture_widgets()


@needs_native
def test_gating_changes_no_scan_of_a_labelled_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    widgets = _labelled_widgets()
    gated = _scans(widgets)
    monkeypatch.setattr(_prefilter, "_load_matcher", lambda: None)
    assert _scans(widgets) == gated


@needs_native
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=80))
def test_gating_changes_no_scan_of_pages_built_from_bridge_tokens(tokens: list[str]) -> None:
    source = "".join(tokens)
    gated = scan_widget_source(source).to_dict()
    real = _prefilter._load_matcher
    try:
        _prefilter._load_matcher = lambda: None
        ungated = scan_widget_source(source).to_dict()
    finally:
        _prefilter._load_matcher = real
    assert gated == ungated
