"""Secrets in what hostcompat is given (a server's command line, URL, headers, environment), kept out of everything it
writes: snapshots, reports, logs, and the errors the proxy sends its clients.

Pure, standard library only, and outside the layers, so the probe and the proxy (which must not import each other)
share one implementation. Two tools: structural redaction, which replaces a value where its place says it is a secret
(`--api-key X`, `-H 'Authorization: …'`, `user:pw@` in a URL, `?token=`), and a `Redactor`, which knows the secret
values of one target and removes them from any text or JSON wherever they show up (a server echoing its key on
stderr, say).
"""

from hostcompat.redaction.args import args_secrets, header_secrets, redact_args, redact_description
from hostcompat.redaction.known import MIN_SECRET_CHARS, Redactor
from hostcompat.redaction.names import REDACTED, environment_secrets, is_secret_name
from hostcompat.redaction.urls import (
    redact_url,
    strip_url_credentials,
    url_credentials_note,
    url_has_credentials,
    url_secrets,
)

__all__ = [
    "MIN_SECRET_CHARS",
    "REDACTED",
    "Redactor",
    "args_secrets",
    "environment_secrets",
    "header_secrets",
    "is_secret_name",
    "redact_args",
    "redact_description",
    "redact_url",
    "strip_url_credentials",
    "url_credentials_note",
    "url_has_credentials",
    "url_secrets",
]
