"""Each apps-lane fix names something the author can act on: an ext-apps API, a `_meta.ui` key, a catalog fact."""

import pytest

from hostcompat.engine.catalog.load import load_catalog
from hostcompat.engine.findings.fixes import GUARDED_FIX, OVERRIDE_HELP, capability_fix, record_fact_fix
from hostcompat.engine.verdicts.capabilities import NEED_FACTS


@pytest.mark.parametrize("need", ["serverTools", "serverResources", "message", "updateModelContext", "openLinks"])
def test_a_host_api_need_says_which_host_capability_to_check(need: str) -> None:
    fix = capability_fix(need, "unsupported")
    assert f"app.getHostCapabilities().{need} before using it" in fix
    assert "the host lacks it" in fix
    assert "only partly supports it" in capability_fix(need, "partial")


@pytest.mark.parametrize(
    ("need", "key", "instead"),
    [
        ("cspConnectDomains", "connectDomains", "app.callServerTool"),
        ("cspResourceDomains", "resourceDomains", "bundle"),
        ("cspFrameDomains", "frameDomains", "app.openLink"),
        ("cspBaseUriDomains", "baseUriDomains", "absolute URLs"),
    ],
)
def test_a_csp_need_names_its_key_where_the_host_tells_the_approved_origins_and_what_to_do_instead(
    need: str, key: str, instead: str
) -> None:
    fix = capability_fix(need, "unsupported")
    assert f"getHostCapabilities().sandbox.csp.{key}" in fix
    assert f"_meta.ui.csp.{key}" in fix
    assert instead in fix


def test_every_evaluated_need_gets_a_fix_that_is_not_the_bare_need_name() -> None:
    for need in NEED_FACTS:
        fix = capability_fix(need, "unsupported")
        assert fix.endswith(".") and len(fix) > 40, need


def test_an_unknown_fact_says_which_fact_of_which_host_to_record_and_where() -> None:
    postman = load_catalog().get("postman")
    fix = record_fact_fix(postman, "ui.mcpApps.features.serverTools", "the widget")
    assert fix.startswith("Try the widget on Postman, then record")
    assert "the fact ui.mcpApps.features.serverTools of host 'postman'" in fix
    assert "supported, partial or unsupported" in fix
    assert "hostcompat check --catalog FILE" in OVERRIDE_HELP and OVERRIDE_HELP in fix


def test_a_guarded_call_is_told_what_to_verify() -> None:
    assert "fallback" in GUARDED_FIX
