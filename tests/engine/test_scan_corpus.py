"""The scanner against hand-labelled real widgets (the npm MCP App example servers pinned in interop/)."""

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hostcompat.engine.scan import scan_widget_source
from hostcompat.engine.scan_model import WidgetScan

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "interop" / "node_modules"
LABELS: dict[str, Any] = json.loads((Path(__file__).parent / "widget_labels.json").read_text(encoding="utf-8"))
WIDGETS: dict[str, dict[str, Any]] = LABELS["widgets"]

pytestmark = pytest.mark.interop


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@cache
def scan_of(widget: str) -> WidgetScan:
    path = NODE_MODULES / widget
    if not path.is_file():
        message = f"{path} is missing: run `npm ci` in interop/ to install the widget corpus"
        if _in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return scan_widget_source(path.read_text(encoding="utf-8"))


def _matches(domain: str, pattern: str) -> bool:
    if pattern.startswith("https://*."):
        return domain.startswith("https://") and domain.endswith(pattern[len("https://*") :])
    return domain == pattern


@pytest.mark.parametrize("widget", sorted(WIDGETS))
def test_real_widget_needs_match_the_hand_labels(widget: str) -> None:
    scan = scan_of(widget)
    assert scan.code_analysed
    assert set(scan.needs_used()) == set(WIDGETS[widget]["needs"])


@pytest.mark.parametrize("widget", sorted(w for w in WIDGETS if WIDGETS[w].get("guarded")))
def test_real_widget_guarded_calls_are_reported_as_guarded(widget: str) -> None:
    scan = scan_of(widget)
    for need in WIDGETS[widget]["guarded"]:
        kinds = {f.kind for f in scan.findings_for(need) if f.counts}
        assert kinds == {"guarded-call"}, need


@pytest.mark.parametrize("widget", sorted(w for w in WIDGETS if WIDGETS[w].get("domains")))
def test_real_widget_domains_include_the_labelled_origins(widget: str) -> None:
    scan = scan_of(widget)
    found = {d.domain for d in scan.domains}
    assert set(WIDGETS[widget]["domains"]) <= found


@pytest.mark.parametrize("widget", sorted(w for w in WIDGETS if WIDGETS[w].get("declared_csp")))
def test_every_origin_found_is_one_the_server_declares_in_its_csp(widget: str) -> None:
    scan = scan_of(widget)
    declared = [p for patterns in WIDGETS[widget]["declared_csp"].values() for p in patterns]
    for use in scan.domains:
        if use.directive in ("connect", "resource"):
            assert any(_matches(use.domain, p) for p in declared), use.domain


@pytest.mark.parametrize("widget", sorted(w for w in WIDGETS if WIDGETS[w].get("declared_permissions")))
def test_permissions_found_in_code_are_ones_the_server_requests(widget: str) -> None:
    scan = scan_of(widget)
    used = {f.detail for f in scan.findings_for("sandboxPermissions")}
    assert used
    assert used <= set(WIDGETS[widget]["declared_permissions"])


def test_every_real_widget_bundles_the_ext_apps_sdk_that_a_naive_scan_would_count() -> None:
    for widget in sorted(WIDGETS):
        scan = scan_of(widget)
        assert ("ext-apps", "bundled") in {(s.name, s.how) for s in scan.sdks}, widget
