"""`--as-host`: the probe meets a server as a catalog host would (its clientInfo name, its MCP Apps support)."""

import json
from pathlib import Path

import pytest

from hostcompat.cli._as_host import Presentation, present_as
from hostcompat.engine.catalog.load import load_catalog
from hostcompat.probe.options import MCP_APPS
from tests.cli.test_check import run

CATALOG = load_catalog()


def test_a_host_that_renders_mcp_apps_is_met_with_the_extension_and_its_client_name() -> None:
    assert present_as(CATALOG.get("claude")) == Presentation(MCP_APPS, {"name": "claude-ai", "version": "0"})


def test_a_host_without_mcp_apps_gets_no_extension() -> None:
    gemini = present_as(CATALOG.get("gemini-cli"))
    assert gemini.advertise is None
    assert gemini.client_info == {"name": "gemini-cli-mcp-client", "version": "0"}


def test_a_host_whose_support_is_unknown_gets_no_extension_and_partial_support_gets_it() -> None:
    assert present_as(CATALOG.get("copilot-cli")).advertise is None
    assert present_as(CATALOG.get("continue")).advertise == MCP_APPS


def test_a_host_without_a_recorded_client_name_says_so_and_keeps_the_probe_name() -> None:
    archestra = present_as(CATALOG.get("archestra"))
    assert archestra.client_info is None
    assert archestra.note is not None and "no clientInfo name for Archestra" in archestra.note


def snapshot_client(tmp_path: Path, *options: str) -> dict[str, object]:
    path = tmp_path / "snap.json"
    code, _, err = run("snapshot", "--demo", *options, "-o", str(path))
    assert code == 0, err
    client: dict[str, object] = json.loads(path.read_text())["client"]
    return client


def test_snapshot_as_a_host_sends_that_hosts_client_name_and_capability(tmp_path: Path) -> None:
    client = snapshot_client(tmp_path, "--as-host", "gemini-cli")
    assert client["clientInfo"] == {"name": "gemini-cli-mcp-client", "version": "0.19.0"}  # the newest a source names
    assert not client.get("extensions")
    client = snapshot_client(tmp_path, "--as-host", "Claude")  # names are matched as catalog aliases are
    assert client["clientInfo"] == {"name": "claude-ai", "version": "1.18286.2"}  # the newest a source names
    assert "io.modelcontextprotocol/ui" in client["extensions"]  # type: ignore[operator]


def test_explicit_advertise_and_client_name_win_over_the_host(tmp_path: Path) -> None:
    client = snapshot_client(tmp_path, "--as-host", "claude", "--advertise", "none", "--client-name", "mine")
    assert client["clientInfo"] == {"name": "mine", "version": "0"}
    assert not client.get("extensions")


def test_check_as_a_host_judges_that_host_unless_told_which() -> None:
    code, out, err = run("check", "--demo", "--as-host", "cursor", "--format", "json")
    assert code == 0, err
    hosts = [host["hostId"] for host in json.loads(out)["servers"][0]["hosts"]]
    assert hosts == ["cursor"]
    code, out, err = run("check", "--demo", "--as-host", "cursor", "--host", "claude", "--format", "json")
    assert [host["hostId"] for host in json.loads(out)["servers"][0]["hosts"]] == ["claude"]


@pytest.mark.parametrize("command", ["snapshot", "check"])
def test_an_unknown_host_is_a_usage_error_before_any_probe(command: str, tmp_path: Path) -> None:
    code, _, err = run(command, "--demo", "--as-host", "nosuch", "-o", str(tmp_path / "x.json"))
    assert code == 2
    assert "unknown host 'nosuch'" in err
    assert not (tmp_path / "x.json").exists()


def test_as_codex_sends_a_real_version_that_version_ranged_rules_match(tmp_path: Path) -> None:
    from hostcompat.clients.detect import ClientIdentity
    from hostcompat.clients.rules import find_rule, load_bundled_rules

    client = snapshot_client(tmp_path, "--as-host", "codex")
    info = client["clientInfo"]
    assert info == {"name": "codex-mcp-client", "version": "0.14.0"}
    rule = find_rule(load_bundled_rules(), "codex.add-missing-schema-types")  # clients: >=0.14.0
    assert any(match.matches(ClientIdentity("codex-mcp-client", "0.14.0")) for match in rule.clients)


def test_as_host_sends_the_host_version_asked_for() -> None:
    import argparse

    from hostcompat.cli._probing import probe_options

    args = argparse.Namespace(
        advertise=None, client_name=None, era="auto", timeout=5.0, calls=[], call=[], no_calls=False,
        host_version=["openai-codex=0.148.0"],
    )  # fmt: skip
    options = probe_options(args, CATALOG.get("codex"))
    assert options.client_info == {"name": "codex-mcp-client", "version": "0.148.0"}


def test_known_version_is_none_for_a_host_no_source_versions() -> None:
    from hostcompat.cli._as_host import known_version

    assert known_version(CATALOG.get("zed")) is None
    assert known_version(CATALOG.get("goose")) == "1.30.0"
