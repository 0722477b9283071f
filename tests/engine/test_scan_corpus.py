"""The scanner against hand-labelled real widgets: what the npm servers serve (captured) and hand-written pages.

The captured corpus is written by `scripts/capture_widgets.py` after `npm ci` in interop/. Without it the
corpus tests skip with a message, except under CI=true, where they fail: a missing corpus must not pass.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import cache
from typing import Any, NoReturn

import pytest

from hostcompat.engine.scan.model import WidgetScan
from hostcompat.engine.scan.needs import ALL_NEEDS
from hostcompat.engine.scan.widget import scan_widget_content
from testkit.widget_corpus import (
    ROOT,
    Widget,
    corpus_dir,
    corpus_widgets,
    fixture_widgets,
    labels,
    naive_scan,
    predictions,
    read_corpus,
    score,
)

CORPUS_KEYS = sorted(labels()["corpus"])
FIXTURE_KEYS = sorted(labels()["fixtures"])
TARGET = 0.95


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def _missing(message: str) -> NoReturn:
    if _in_ci():
        pytest.fail(message)
    pytest.skip(message)


@cache
def captured() -> Mapping[str, tuple[Mapping[str, Any], str]]:
    try:
        return read_corpus()
    except FileNotFoundError:
        folder = corpus_dir()
        _missing(f"no widget corpus in {folder}: run `npm ci` in interop/, then `python scripts/capture_widgets.py`")


@cache
def corpus_by_key() -> Mapping[str, Widget]:
    return {widget.key: widget for widget in corpus_widgets(captured())}


@cache
def fixtures_by_key() -> Mapping[str, Widget]:
    return {widget.key: widget for widget in fixture_widgets()}


@cache
def scan_of(key: str, origin: str) -> WidgetScan:
    widgets = corpus_by_key() if origin == "corpus" else fixtures_by_key()
    if key not in widgets:
        pytest.fail(f"{key} is labelled but the corpus in {corpus_dir()} does not hold it: capture again")
    return scan_widget_content(widgets[key].content)


def widget(key: str, origin: str) -> Widget:
    return (corpus_by_key() if origin == "corpus" else fixtures_by_key())[key]


ALL_CASES = [(key, "corpus") for key in CORPUS_KEYS] + [(key, "fixture") for key in FIXTURE_KEYS]


def _label(key: str, origin: str) -> Mapping[str, Any]:
    section: Mapping[str, Any] = labels()["fixtures" if origin == "fixture" else "corpus"]
    label: Mapping[str, Any] = section[key]
    return label


def _cases(field: str = "") -> list[Any]:
    """Parameters for the labelled widgets (those whose label has `field`); captured ones are marked interop."""
    return [
        pytest.param(key, origin, id=key, marks=[pytest.mark.interop] if origin == "corpus" else [])
        for key, origin in ALL_CASES
        if not field or _label(key, origin).get(field)
    ]


@pytest.mark.parametrize(("key", "origin"), _cases())
def test_widget_needs_match_the_hand_labels(key: str, origin: str) -> None:
    scan = scan_of(key, origin)
    assert scan.code_analysed
    assert set(scan.needs_used()) == set(widget(key, origin).expected)


@pytest.mark.parametrize(("key", "origin"), _cases("guarded"))
def test_guarded_calls_are_reported_as_guarded(key: str, origin: str) -> None:
    scan = scan_of(key, origin)
    for need in widget(key, origin).label["guarded"]:
        kinds = {f.kind for f in scan.findings_for(need) if f.counts}
        assert kinds == {"guarded-call"}, need


@pytest.mark.parametrize(("key", "origin"), _cases("not_needs"))
def test_tempting_mentions_are_not_reported_as_needs(key: str, origin: str) -> None:
    used = set(scan_of(key, origin).needs_used(min_confidence="low"))
    assert not used & set(widget(key, origin).label["not_needs"])


@pytest.mark.parametrize(("key", "origin"), _cases("domains"))
def test_widget_domains_include_the_labelled_origins(key: str, origin: str) -> None:
    found = {d.domain for d in scan_of(key, origin).domains}
    assert set(widget(key, origin).label["domains"]) <= found


def _matches(domain: str, pattern: str) -> bool:
    if pattern.startswith("https://*."):
        return domain.startswith("https://") and domain.endswith(pattern[len("https://*") :])
    return domain == pattern


@pytest.mark.parametrize(("key", "origin"), _cases("declared_csp"))
def test_every_origin_found_is_one_the_server_declares_in_its_csp(key: str, origin: str) -> None:
    declared = [p for patterns in widget(key, origin).label["declared_csp"].values() for p in patterns]
    for use in scan_of(key, origin).domains:
        if use.directive in ("connect", "resource"):
            assert any(_matches(use.domain, p) for p in declared), use.domain


@pytest.mark.parametrize(("key", "origin"), _cases("declared_permissions"))
def test_permissions_found_in_code_are_ones_the_server_requests(key: str, origin: str) -> None:
    used = {f.detail for f in scan_of(key, origin).findings_for("sandboxPermissions")}
    assert used
    assert used <= set(widget(key, origin).label["declared_permissions"])


@pytest.mark.interop
def test_every_captured_widget_is_labelled() -> None:
    unlabelled = sorted(set(captured()) - set(CORPUS_KEYS))
    assert not unlabelled, f"label these captured widgets in widget_labels.json: {unlabelled}"


@pytest.mark.interop
def test_every_labelled_widget_was_captured() -> None:
    missing = sorted(set(CORPUS_KEYS) - set(captured()))
    assert not missing, f"the corpus in {corpus_dir()} lacks {missing}: run scripts/capture_widgets.py again"


@pytest.mark.interop
def test_the_corpus_was_captured_from_the_pinned_package_versions() -> None:
    pinned: dict[str, str] = json.loads((ROOT / "interop" / "package.json").read_text("utf-8"))["dependencies"]
    for key, (_, version) in captured().items():
        package = key.split(" ", 1)[0]
        assert pinned.get(package) == version, (
            f"{key} was captured from {version}, package.json pins {pinned.get(package)}"
        )


@pytest.mark.interop
def test_captured_widgets_are_what_resources_read_returns_not_files() -> None:
    for key, (content, _) in captured().items():
        assert content.get("uri") == key.split(" ", 1)[1], key
        assert isinstance(content.get("text") or content.get("blob"), str), key


@pytest.mark.interop
def test_the_ext_apps_example_widgets_bundle_the_sdk_a_naive_scan_would_count() -> None:
    for key in CORPUS_KEYS:
        if key.startswith("@modelcontextprotocol/server-"):
            scan = scan_of(key, "corpus")
            assert ("ext-apps", "bundled") in {(s.name, s.how) for s in scan.sdks}, key


@pytest.mark.interop
def test_mcp_ui_host_adapters_are_recognised_as_wiring() -> None:
    for key in CORPUS_KEYS:
        if key.endswith("-adapter"):
            sdks = {s.name for s in scan_of(key, "corpus").sdks}
            assert "mcp-ui-adapter" in sdks, key


def test_fixtures_alone_meet_the_precision_and_recall_target() -> None:
    widgets = fixture_widgets()
    pairs = predictions(widgets, lambda w: set(scan_of(w.key, "fixture").needs_used()))
    for result in score(pairs, ALL_NEEDS):
        assert result.precision >= TARGET and result.recall >= TARGET, result


@pytest.mark.interop
def test_each_need_meets_the_target_and_beats_a_plain_string_scan_over_the_whole_corpus() -> None:
    widgets = [*corpus_widgets(captured()), *fixture_widgets()]
    assert len(widgets) == len(ALL_CASES)
    ours = score(predictions(widgets, lambda w: set(scan_of(w.key, w.origin).needs_used())), ALL_NEEDS)
    naive = score(predictions(widgets, lambda w: naive_scan(w.source)), ALL_NEEDS)
    for mine, plain in zip(ours, naive, strict=True):
        assert mine.precision >= TARGET and mine.recall >= TARGET, mine
        assert mine.f1 >= plain.f1, (mine, plain)


def test_an_external_page_widget_is_not_analysed_and_names_its_url() -> None:
    content = {"uri": "ui://x/page", "mimeType": "text/uri-list", "text": "# dashboard\nhttps://example.com/d/1\n"}
    scan = scan_widget_content(content)
    assert not scan.code_analysed and not scan.complete and scan.needs_used() == ()
    assert [(e.url, e.kind, e.evidence.line if e.evidence else None) for e in scan.external_code] == [
        ("https://example.com/d/1", "iframe-url", 2)
    ]
