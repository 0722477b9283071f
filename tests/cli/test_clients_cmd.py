"""`hostcompat clients` and `hostcompat rewrite` through `hostcompat.cli.main`, stdout and stderr captured."""

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hostcompat.cli
import hostcompat.cli.command_line
from hostcompat.cli.rewrite import MAX_DEPTH, run_rewrite
from hostcompat.clients.rules import load_bundled_rules

BUNDLED = load_bundled_rules()
LONG_NAME = "fetch_the_quarterly_financial_report_for_every_region_at_once"
CALL_RESULT = {"content": [{"type": "text", "text": "x", "annotations": {"priority": 0.5}}], "isError": False}
USER_RULE = {
    "id": "acme.drop-output-schema",
    "title": "Acme: drop outputSchema",
    "clients": [{"name": "acme-client", "versions": "<2"}],
    "methods": ["tools/list"],
    "trigger": {"kind": "always"},
    "rewrite": {"op": "drop-output-schema"},
    "source": {"url": "https://example.com/acme/issues/1", "kind": "issue"},
    "date": "2026-11",
}


@pytest.fixture(autouse=True)
def with_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the two commands whether or not the CLI lists them yet."""
    modules = tuple(dict.fromkeys((*hostcompat.cli.COMMAND_MODULES, "clients", "rewrite")))
    monkeypatch.setattr(hostcompat.cli.command_line, "COMMAND_MODULES", modules)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = hostcompat.cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def user_file(tmp_path: Path, document: dict[str, Any]) -> str:
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def test_clients_lists_every_rule_with_its_clients_source_and_date(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, ["clients"])
    assert code == 0
    assert out.startswith(f"{len(BUNDLED)} client rules ({len(BUNDLED)} enabled)")
    for rule in BUNDLED:
        block = out.split(f"\n{rule.id}\n", 1)[1].split("\n\n", 1)[0]
        assert f"source:   {rule.source.url} ({rule.source.kind}, {rule.date})" in block
        assert rule.rewrite.op in block
        for match in rule.clients:
            assert match.name in block
    assert "goose <=1.0.35" in out
    assert "codex-mcp-client (any version)" in out


def test_clients_as_json_describes_each_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, ["clients", "--format", "json"])
    assert code == 0
    described = {rule["id"]: rule for rule in json.loads(out)["rules"]}
    assert list(described) == [rule.id for rule in BUNDLED]
    truncate = described["codex.truncate-tool-names"]
    assert truncate["rewrite"] == {
        "op": "truncate-tool-names",
        "summary": truncate["rewrite"]["summary"],
        "max_length": 46,
    }
    assert truncate["rewrite"]["summary"]
    assert truncate["source"] == {"url": "https://github.com/openai/codex/pull/1371", "kind": "pr"}
    assert described["goose.resource-link-to-text"]["clients"] == [{"name": "goose", "versions": "<=1.0.35"}]
    assert described["goose.resource-link-to-text"]["trigger"] == {"kind": "content-types", "types": ["resource_link"]}


def test_a_user_rule_file_adds_and_disables_rules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = user_file(tmp_path, {"format": 1, "rules": [USER_RULE], "disabled": ["codex.truncate-tool-names"]})
    code, out, _ = run(capsys, monkeypatch, ["clients", "--rules", path, "--format", "json"])
    assert code == 0
    described = {rule["id"]: rule for rule in json.loads(out)["rules"]}
    assert described["acme.drop-output-schema"]["origin"] == path
    assert described["codex.truncate-tool-names"]["enabled"] is False
    code, out, _ = run(capsys, monkeypatch, ["clients", "--rules", path])
    assert "\ncodex.truncate-tool-names  [disabled]\n" in out
    assert "acme-client <2" in out


def test_a_bad_rule_file_is_a_usage_error_naming_the_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = user_file(tmp_path, {"format": 1, "rules": [{**USER_RULE, "date": "soon"}]})
    code, out, err = run(capsys, monkeypatch, ["clients", "--rules", path])
    assert (code, out) == (2, "")
    assert path in err and "date" in err


def test_rewrite_rounds_priority_for_codex_and_names_the_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["rewrite", "--client", "codex-mcp-client@0.148.0"]
    code, out, err = run(capsys, monkeypatch, argv, json.dumps(CALL_RESULT))
    assert code == 0
    assert json.loads(out)["content"][0]["annotations"] == {"priority": 1}
    assert "tools/call for codex-mcp-client@0.148.0" in err
    assert "applied: codex.round-annotation-priority\n" in err


def test_rewrite_keeps_a_json_rpc_envelope(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    response = {"jsonrpc": "2.0", "id": 7, "result": CALL_RESULT}
    code, out, _ = run(capsys, monkeypatch, ["rewrite", "--client", "Codex"], json.dumps(response))
    printed = json.loads(out)
    assert code == 0
    assert (printed["jsonrpc"], printed["id"]) == ("2.0", 7)
    assert printed["result"]["content"][0]["annotations"]["priority"] == 1


def test_rewrite_reports_renamed_tools(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    listing = {"tools": [{"name": LONG_NAME, "inputSchema": {"type": "object"}}]}
    code, out, err = run(capsys, monkeypatch, ["rewrite", "--client", "cursor-vscode@1.6.14"], json.dumps(listing))
    exposed = json.loads(out)["tools"][0]["name"]
    assert code == 0
    assert len(exposed) == 40
    assert f"renamed: {LONG_NAME} -> {exposed}\n" in err
    assert "cursor.truncate-tool-names" in err.split("applied: ", 1)[1]


def test_rewrite_applies_a_user_rule(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = user_file(tmp_path, {"format": 1, "rules": [USER_RULE]})
    listing = {"tools": [{"name": "t", "inputSchema": {"type": "object"}, "outputSchema": {"type": "object"}}]}
    argv = ["rewrite", "--client", "acme-client@1.2", "--rules", path, "--method", "tools/list"]
    code, out, err = run(capsys, monkeypatch, argv, json.dumps(listing))
    assert code == 0
    assert json.loads(out) == {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}
    assert "applied: acme.drop-output-schema\n" in err


def test_rewrite_leaves_an_unknown_clients_result_as_it_is(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, ["rewrite", "--client", "some-new-client@1"], json.dumps(CALL_RESULT))
    assert code == 0
    assert json.loads(out) == CALL_RESULT
    assert "rules for this client: none" in err
    assert "applied: none\n" in err


@pytest.mark.parametrize(
    ("argv", "stdin", "problem"),
    [
        (["--client", "codex"], "{not json", "not valid JSON"),
        (["--client", "codex"], '{"content": [], "x": NaN}', "NaN is not JSON"),
        (["--client", "codex"], '{"content": [1e999]}', "out of range"),
        (["--client", "codex"], '{"content": [], "content": []}', "duplicate key"),
        (["--client", "codex"], "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested deeper"),
        (["--client", "codex"], "[" * 100_000, "nested deeper"),
        (["--client", "codex"], '{"unexpected": 1}', "pass --method"),
        (["--client", "  @1.0"], json.dumps(CALL_RESULT), "needs a name"),
        (["--client", "x" * 300], json.dumps(CALL_RESULT), "over 256 characters"),
    ],
)
def test_rewrite_rejects_bad_input_with_a_clear_message_and_exit_code_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str, problem: str
) -> None:
    code, out, err = run(capsys, monkeypatch, ["rewrite", *argv], stdin)
    assert (code, out) == (2, "")
    assert err.startswith("hostcompat rewrite: ") and problem in err


def test_an_unknown_method_is_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit) as exited:
        run(capsys, monkeypatch, ["rewrite", "--client", "codex", "--method", "sampling/createMessage"], "{}")
    assert exited.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_command_modules_do_not_import_the_sdk() -> None:
    code = "import sys, hostcompat.cli.clients, hostcompat.cli.rewrite\nprint('mcp' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(["tools", "content", "name", "annotations", "priority", "type", "x"]) | st.text(max_size=6),
            children,
            max_size=4,
        )
    ),
    max_leaves=25,
)
CLIENTS = st.sampled_from(["codex-mcp-client@0.148.0", "claude-code@2.0", "cursor-vscode@1.6.14", "nobody@1"])


@settings(max_examples=200, deadline=None)
@given(document=JSON, client=CLIENTS, method=st.none() | st.sampled_from(["tools/list", "tools/call", "prompts/get"]))
def test_any_json_is_rewritten_or_refused_never_a_crash(document: Any, client: str, method: str | None) -> None:
    out, err = io.StringIO(), io.StringIO()
    code = run_rewrite(client, method, [], io.StringIO(json.dumps(document)), out, err)
    assert code in (0, 2)
    if code == 0:
        printed = json.loads(out.getvalue())
        if client == "nobody@1":
            assert printed == document
    else:
        assert out.getvalue() == "" and err.getvalue().startswith("hostcompat rewrite: ")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_any_text_on_stdin_is_rewritten_or_refused_never_a_crash(text: str) -> None:
    out, err = io.StringIO(), io.StringIO()
    assert run_rewrite("codex-mcp-client", None, [], io.StringIO(text), out, err) in (0, 2)


@pytest.mark.parametrize("client", ["codex", "openai-codex", "codex-cli@0.148.0"])
def test_rewrite_accepts_the_catalog_host_id_or_alias(
    client: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, ["rewrite", "--client", client], json.dumps(CALL_RESULT))
    assert code == 0
    assert json.loads(out)["content"][0]["annotations"] == {"priority": 1}
    assert "is the catalog host codex: client codex-mcp-client@" in err
    assert "codex.add-missing-schema-types" in err  # a version-ranged rule (>=0.14.0) matches too
    assert "applied: codex.round-annotation-priority\n" in err
