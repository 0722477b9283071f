"""Secrets in what starts a server: its command-line arguments (a secret-named flag's value, a header, an
assignment, a JSON object or `;`-list of settings, URL credentials), its header values, and a target as a snapshot
describes it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from typing import Final

from hostcompat._regex import regex
from hostcompat.redaction.names import REDACTED, is_secret_name
from hostcompat.redaction.urls import redact_url, redact_url_collecting
from hostcompat.wire_json import WireJSON, WireObject

_HEADER_FLAGS: Final = frozenset({"-H", "--header", "--headers", "-header", "-headers", "--http-header"})
_ASSIGNMENT: Final = regex(r"([A-Za-z_][A-Za-z0-9_.\-]*)=(.*)", re.DOTALL)
_AUTH_SCHEME: Final = regex(r"([A-Za-z][A-Za-z0-9_\-]*)\s+(\S.*)", re.DOTALL)

# --- headers -------------------------------------------------------------------------------------------------------


def header_secrets(value: str) -> list[str]:
    """The secret parts of a header value: the whole value, and the credential after an auth scheme (`Bearer X`)."""
    found = [value]
    scheme = _AUTH_SCHEME.fullmatch(value.strip())
    if scheme is not None:
        found.append(scheme.group(2).strip())
    return found


def _redact_header_text(text: str, found: list[str]) -> str:
    """`Name: value` with the value replaced (any header given on a command line may carry a credential)."""
    name, colon, value = text.partition(":")
    if not colon or not name.strip() or " " in name.strip():
        found.extend(header_secrets(text))
        return REDACTED
    if not value.strip():
        return text
    found.extend(header_secrets(value.strip()))
    spacing = value[: len(value) - len(value.lstrip())]
    return f"{name}:{spacing}{REDACTED}"


# --- command lines -------------------------------------------------------------------------------------------------


def _looks_like_flag(arg: str) -> bool:
    return arg.startswith("--") or (arg.startswith("-") and len(arg) <= 2 and arg != "-")


def _redact_item(arg: str, found: list[str]) -> str:
    """One argument that is not after a secret-named flag: `NAME=value` with a secret name, a JSON object (`--config
    '{"apiKey": …}'`), a `;`-separated list of assignments (`Server=db;Password=…`), or any text with URLs in it.
    """
    assignment = _ASSIGNMENT.fullmatch(arg)
    if assignment is not None and is_secret_name(assignment.group(1)):
        if assignment.group(2):
            found.append(assignment.group(2))
            return f"{assignment.group(1)}={REDACTED}"
        return arg
    if arg.lstrip().startswith("{"):
        arg = _redact_json_argument(arg, found)
    elif ";" in arg and "=" in arg:
        arg = ";".join(_redact_item(part, found) if "=" in part else part for part in arg.split(";"))
    return redact_url_collecting(arg, found)


_MAX_JSON_ARGUMENT: Final = 1 << 20
"""The longest argument read as JSON (a longer one is searched for URLs only)."""


def _redact_json_argument(arg: str, found: list[str]) -> str:
    """A JSON object argument with the strings under its secret-named keys replaced where they are written."""
    secrets: list[str] = []
    try:
        if len(arg) <= _MAX_JSON_ARGUMENT:
            _strings_under_secrets(json.loads(arg), False, secrets)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than it is worth reading
        return arg
    secrets = [secret for secret in secrets if secret]
    found.extend(secrets)
    for secret in sorted(set(secrets), key=len, reverse=True):
        arg = arg.replace(json.dumps(secret)[1:-1], REDACTED).replace(secret, REDACTED)
    return arg


def _strings_under_secrets(value: object, secret: bool, out: list[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _strings_under_secrets(item, secret or is_secret_name(str(key)), out)
    elif isinstance(value, list):
        for item in value:
            _strings_under_secrets(item, secret, out)
    elif secret and isinstance(value, str | int | float) and not isinstance(value, bool):
        out.append(str(value))


def _scan_args(args: Iterable[str]) -> tuple[list[str], list[str]]:
    redacted: list[str] = []
    found: list[str] = []
    expecting: str | None = None  # "header" or "value": what the previous flag says this argument is
    for arg in args:
        if expecting == "header":
            expecting = None
            redacted.append(_redact_header_text(arg, found))
            continue
        if expecting == "value":
            expecting = None
            if not _looks_like_flag(arg):
                found.append(arg)
                redacted.append(REDACTED)
                continue
        if not arg.startswith("-") or arg == "-":
            redacted.append(_redact_item(arg, found))
            continue
        flag, equals, value = arg.partition("=")
        if flag in _HEADER_FLAGS:
            if equals:
                redacted.append(f"{flag}={_redact_header_text(value, found)}")
            else:
                redacted.append(arg)
                expecting = "header"
        elif flag.startswith("-H") and not flag.startswith("--") and ":" in arg:  # -H'Authorization: …', curl style
            redacted.append(f"-H{_redact_header_text(arg[2:], found)}")
        elif is_secret_name(flag.lstrip("-")):
            if equals:
                if value:
                    found.append(value)
                redacted.append(f"{flag}={REDACTED}" if value else arg)
            else:
                redacted.append(arg)
                expecting = "value"
        elif equals:
            redacted.append(f"{flag}={_redact_item(value, found)}")
        else:
            redacted.append(redact_url_collecting(arg, found))
    return redacted, found


def redact_args(args: Iterable[str]) -> list[str]:
    """Command-line arguments with their secrets replaced by `REDACTED`, everything else as given.

    Caught: a secret-named flag's value (`--api-key X`, `--api-key=X`, `--token X`, `--bearer X`, `--pat X`,
    `--password X`, `--client-secret X`, `-token X`); a header's value (`-H 'Authorization: Bearer X'`,
    `--header 'X-Api-Key: X'`, `--header=Authorization: X`); a secret-named assignment (`API_KEY=X`, also after a
    flag: `--env=API_KEY=X`); and URL credentials in any argument (`postgresql://user:pw@…`, `?token=`,
    `#access_token=`). A secret-named flag followed by another flag (`--no-auth --port 1`) hides nothing.
    """
    return _scan_args(args)[0]


def args_secrets(args: Iterable[str]) -> list[str]:
    """The secret values `redact_args` replaces, for a `Redactor`."""
    return _scan_args(args)[1]


def redact_description(described: WireJSON) -> WireObject:
    """A target as a snapshot describes it (`args`, `url`, `env`, `headers`), redacted by its structure: arguments
    and URL as `redact_args` and `redact_url` do, every env and header value replaced. Idempotent, so the target of
    a snapshot written by an older version, before some rule existed, is cleaned when read again.
    """
    redacted = dict(described)
    args = redacted.get("args")
    if isinstance(args, list | tuple) and all(isinstance(arg, str) for arg in args):
        redacted["args"] = redact_args(args)
    url = redacted.get("url")
    if isinstance(url, str):
        redacted["url"] = redact_url(url)
    for key in ("env", "headers"):
        values = redacted.get(key)
        if isinstance(values, Mapping):
            redacted[key] = dict.fromkeys(values, REDACTED)
    return redacted


__all__ = ["args_secrets", "header_secrets", "redact_args", "redact_description"]
