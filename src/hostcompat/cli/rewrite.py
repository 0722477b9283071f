"""`hostcompat rewrite`: show what the client rules would do to one MCP result, for one client.

`hostcompat rewrite --client codex-mcp-client@0.148.0 < result.json` prints the rewritten JSON on stdout
and the ids of the rules that changed it (and any tool renames) on stderr. A whole JSON-RPC response is
accepted too; only its `result` is rewritten.

The client is a clientInfo name, or a catalog host id or alias (`codex`, as every other command names hosts): a
name no rule names that is a catalog host stands for the clientInfo that host sends (`cli._as_host.client_for_host`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn, TextIO

from hostcompat.cli._command import Command
from hostcompat.clients.detect import ClientIdentity, parse_client_spec
from hostcompat.clients.rewrite import infer_method, plan_rewrites, rewrite_result
from hostcompat.clients.rewrites.operations import RESULT_METHODS
from hostcompat.clients.rule_model import Rule, name_matches
from hostcompat.clients.rules import load_rules
from hostcompat.errors import CatalogError, InvalidInput
from hostcompat.terminal import clean_line, write_json

USAGE_ERROR = 2
"""The exit code for unusable input: bad JSON, a bad client spec or method, a rule file that does not load."""

MAX_INPUT_CHARS = 16 * 1024 * 1024
"""The largest result read from stdin."""

MAX_DEPTH = 256
"""The deepest nesting of arrays and objects accepted."""


def _reject(problem: str) -> NoReturn:
    raise ValueError(problem)


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            _reject(f"duplicate key {key!r}")
        out[key] = value
    return out


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _reject(f"number {text} is out of range")
    return value


def _depth(document: Any) -> int:
    deepest, stack = 0, [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def parse_result_text(text: str) -> Any:
    """Parse an MCP result (or JSON-RPC response) strictly: no NaN or infinities, no duplicate keys, bounded.

    Raises:
        InvalidInput: too large, not JSON, or nested deeper than `MAX_DEPTH`.
    """
    if len(text) > MAX_INPUT_CHARS:
        raise InvalidInput(f"the input is over {MAX_INPUT_CHARS} characters", value=len(text))
    try:
        document = json.loads(
            text,
            object_pairs_hook=_unique_keys,
            parse_constant=lambda name: _reject(f"{name} is not JSON"),
            parse_float=_finite,
        )
    except RecursionError as error:
        raise InvalidInput(f"the input is nested deeper than {MAX_DEPTH} levels", value=text[:80]) from error
    except ValueError as error:
        raise InvalidInput(f"the input is not valid JSON: {error}", value=text[:80]) from error
    if _depth(document) > MAX_DEPTH:
        raise InvalidInput(f"the input is nested deeper than {MAX_DEPTH} levels", value=text[:80])
    return document


def _read(stdin: TextIO) -> str:
    try:
        return stdin.read(MAX_INPUT_CHARS + 1)
    except UnicodeDecodeError as error:
        raise InvalidInput(f"the input is not UTF-8 text: {error.reason}", value=error.object[:80]) from error


def _is_response(document: Any) -> bool:
    return isinstance(document, Mapping) and "jsonrpc" in document and "result" in document


def _method(requested: str | None, result: Any) -> str:
    method = requested if requested is not None else infer_method(result)
    if method is None:
        raise InvalidInput(
            f"cannot tell which method this result answers; pass --method (one of {', '.join(sorted(RESULT_METHODS))})",
            value=sorted(result) if isinstance(result, Mapping) else type(result).__name__,
        )
    if method not in RESULT_METHODS:
        raise InvalidInput(f"--method must be one of {', '.join(sorted(RESULT_METHODS))}", value=method)
    return method


def _client(spec: str, rules: Sequence[Rule], err: TextIO) -> ClientIdentity:
    """The client `spec` names: as typed when a rule names it, else the catalog host of that id or alias, if any."""
    identity = parse_client_spec(spec)
    if any(name_matches(identity.name, match.name) for rule in rules for match in rule.clients):
        return identity
    from hostcompat.cli._as_host import client_for_host
    from hostcompat.engine.catalog.load import load_catalog

    try:
        host = load_catalog().get(identity.name)
    except CatalogError:
        return identity
    name, version = client_for_host(host, rules, identity.version)
    resolved = parse_client_spec(f"{name}@{version}" if version else name)
    err.write(f"hostcompat rewrite: {clean_line(identity.name)} is the catalog host {host.id}: client {resolved}\n")
    return resolved


def run_rewrite(
    client: str, method: str | None, rule_files: Sequence[str], stdin: TextIO, out: TextIO, err: TextIO
) -> int:
    """Rewrite the result read from `stdin` for `client`; the JSON goes to `out`, what happened to `err`.

    Returns 0, or 2 (with the problem on `err`) for bad JSON, a bad client spec or method, or a rule
    file that does not load.
    """
    try:
        rules = load_rules(*rule_files)
        identity = _client(client, rules, err)
        document = parse_result_text(_read(stdin))
        result = document["result"] if _is_response(document) else document
        chosen = _method(method, result)
    except (InvalidInput, CatalogError) as error:
        err.write(f"hostcompat rewrite: {clean_line(error.message)}\n")
        return USAGE_ERROR
    profile = plan_rewrites(identity, rules)
    rewritten = rewrite_result(chosen, result, profile)
    output = {**document, "result": rewritten.result} if _is_response(document) else rewritten.result
    write_json(out, json.dumps(output, indent=2, ensure_ascii=False, allow_nan=False) + "\n")
    planned = ", ".join(profile.rule_ids) or "none"
    err.write(f"hostcompat rewrite: {chosen} for {identity}; rules for this client: {planned}\n")
    err.write(f"applied: {', '.join(rewritten.applied) or 'none'}\n")
    for exposed, original in rewritten.state.tool_names.items():
        err.write(f"renamed: {clean_line(original)} -> {clean_line(exposed)}\n")
    return 0


def _add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--client",
        required=True,
        metavar="NAME@VERSION",
        help="the client, as its clientInfo says (version optional), or a catalog host id or alias (codex)",
    )
    parser.add_argument(
        "--method",
        choices=sorted(RESULT_METHODS),
        metavar="METHOD",
        help="the method the result answers (default: guessed from the result's keys)",
    )
    parser.add_argument(
        "--rules", action="append", default=[], metavar="FILE", help="a user rule file merged over the bundled rules"
    )


def _run(args: argparse.Namespace) -> int:
    return run_rewrite(args.client, args.method, args.rules, sys.stdin, sys.stdout, sys.stderr)


COMMAND = Command(
    name="rewrite",
    help="show what the client rules do to one MCP result: rewritten JSON on stdout, applied rule ids on stderr",
    description=(
        "Read an MCP result (or a JSON-RPC response) from stdin and print it as the middleware would send it to "
        "the given client; the ids of the rules that changed it go to stderr."
    ),
    add_arguments=_add_arguments,
    run=_run,
)


__all__ = ["COMMAND", "MAX_DEPTH", "MAX_INPUT_CHARS", "USAGE_ERROR", "parse_result_text", "run_rewrite"]
