"""Keep secrets out of the tool calls a probe records: the arguments it was told to send, and what came back.

A call is recorded with the values under secret-looking argument keys (`api_key`, `password`, `auth`, …) and URL
credentials redacted, as the target is. The secret values of those arguments also join the target's `Redactor`,
which removes them (and the target's env, header and URL secrets) from the results wherever a tool echoes them.
Pure: no SDK, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from hostcompat.probe._json import copy_object
from hostcompat.probe.calls import CallPlan
from hostcompat.redaction import REDACTED, is_secret_name, redact_url, url_secrets
from hostcompat.wire_json import WireJSON, WireObject


def redact_arguments(arguments: WireJSON) -> WireObject:
    """Call arguments as a snapshot records them: values under secret-looking keys and URL credentials redacted."""
    redacted: WireObject = _redact(copy_object(arguments, "arguments"))
    return redacted


def _redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: REDACTED if is_secret_name(key) else _redact(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact(item) for item in value]
    return redact_url(value) if isinstance(value, str) else value


def argument_secrets(plan: CallPlan) -> list[str]:
    """The secret values in the arguments of the named calls (every string under a secret-looking key, and URL
    credentials anywhere), for the probe's `Redactor`.
    """
    return [secret for call in plan.explicit for secret in _secret_strings(call.arguments, under_secret=False)]


def _secret_strings(value: Any, *, under_secret: bool) -> Iterator[str]:
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _secret_strings(item, under_secret=under_secret or is_secret_name(key))
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _secret_strings(item, under_secret=under_secret)
    elif isinstance(value, str):
        yield from [value] if under_secret else url_secrets(value)


__all__ = ["argument_secrets", "redact_arguments"]
