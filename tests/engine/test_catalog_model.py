"""Reading a host profile: facts by path, levels, and finding hosts by id or alias."""

import re

import pytest

from hostcompat.engine.catalog.load import Catalog, hosts_with_alias, load_catalog
from hostcompat.errors import CatalogError


@pytest.fixture(scope="module")
def bundled() -> Catalog:
    return load_catalog()


def test_a_fact_the_sources_do_not_give_reads_as_unknown(bundled: Catalog) -> None:
    cursor = bundled.get("cursor")
    assert cursor.fact("server.features.audio") is None
    assert cursor.level("server.features.audio") == "unknown"
    assert bundled.get("claude").level("ui.mcpApps.features.downloadFile") == "supported"


def test_asking_for_a_path_the_catalog_does_not_know_raises_with_a_suggestion(bundled: Catalog) -> None:
    claude = bundled.get("claude")
    with pytest.raises(CatalogError, match=re.escape("did you mean ui.mcpApps.features.downloadFile")):
        claude.fact("ui.mcpApps.features.downloadFiles")
    with pytest.raises(CatalogError, match="support-level fact"):
        claude.level("server.limits.maxTools")


# ---- names and aliases -------------------------------------------------------------------------------------------


def test_aliases_and_spoken_names_resolve_to_their_host(bundled: Catalog) -> None:
    assert bundled.get("claude-desktop").id == "claude"
    assert bundled.get("Claude Desktop").id == "claude"
    assert bundled.get("VS Code").id == "vscode"
    assert bundled.get("codex_cli").id == "codex"
    assert [host.id for host in hosts_with_alias(bundled, "claude.ai")] == ["claude"]


def test_an_alias_shared_by_several_hosts_is_ambiguous_and_lists_them(bundled: Catalog) -> None:
    shared = {host.id for host in hosts_with_alias(bundled, "jetbrains")}
    assert shared == {"jetbrains-ai-assistant", "jetbrains-junie", "copilot-jetbrains"}
    with pytest.raises(CatalogError, match="ambiguous") as caught:
        bundled.get("jetbrains")
    assert caught.value.value == "jetbrains"


def test_an_unknown_host_raises_with_close_matches(bundled: Catalog) -> None:
    with pytest.raises(CatalogError, match="did you mean claude-code") as caught:
        bundled.get("claud-code")
    assert caught.value.value == "claud-code"
    with pytest.raises(CatalogError, match="known hosts"):
        bundled.get("zzzzzzzz")
    with pytest.raises(CatalogError, match="must be a string"):
        bundled.get(42)  # type: ignore[arg-type]  # misuse on purpose
