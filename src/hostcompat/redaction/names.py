"""Which names say a secret follows: a flag, variable, header, query parameter or JSON key (`--api-key`,
`GITHUB_TOKEN`, `clientSecret`), and which only look like it (`--token-file`, `--max-tokens`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from hostcompat._regex import regex

REDACTED: Final = "<redacted>"
"""What replaces a secret."""

_WORDS: Final = regex(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
# fmt: off
_SECRET_WORDS: Final = frozenset({
    "apikey", "auth", "authentication", "authorization", "bearer", "cookie", "cookies", "credential", "credentials",
    "creds", "jwt", "key", "keys", "oauth", "otp", "pass", "passphrase", "passwd", "password", "pat", "pw", "pwd",
    "secret", "secrets", "session", "sig", "signature", "token"
})
# fmt: on
_SECRET_PARTS: Final = ("token", "secret", "passw", "apikey", "credential", "bearer", "signature")
"""Found inside a longer word too: `accesstoken`, `clientsecret`, `dbpassword`."""
_COUNTS: Final = frozenset({"tokens", "tokenizer", "tokenize", "tokenization"})
"""Words about language-model tokens, not credentials (`--tokens 100`)."""
# fmt: off
_NOT_A_SECRET_SUFFIX: Final = frozenset({
    "alg", "algorithm", "audience", "cache", "cmd", "command", "count", "dir", "directory", "endpoint", "env",
    "expires", "expiry", "file", "files", "format", "header", "helper", "id", "issuer", "kind", "len", "length",
    "limit", "location", "method", "mode", "name", "path", "prefix", "provider", "scope", "scopes", "size",
    "source", "stdin", "timeout", "ttl", "type", "uri", "url", "var", "variable"
})
# fmt: on
"""A name ending in one of these names something about a secret, not the secret: `--token-file`, `token_type`."""
_NOT_A_SECRET_PREFIX: Final = frozenset({"disable", "ignore", "max", "min", "no", "num", "skip", "without"})
"""A name starting with one of these is a switch or a count, not a secret: `--no-auth`, `--max-tokens 100`."""


def is_secret_name(name: str) -> bool:
    """Whether a flag, variable, header or query parameter of this name holds a secret.

    `--api-key`, `GITHUB_TOKEN`, `clientSecret`, `access_token`, `X-Amz-Signature`, `--pat` do; `--token-file`,
    `token_type`, `--no-auth`, `--max-tokens`, `--port`, `--keyboard` do not (the name is split into words,
    camelCase included).
    """
    words = [word.lower() for word in _WORDS.split(name) if word]
    if not words or words[-1] in _NOT_A_SECRET_SUFFIX or words[0] in _NOT_A_SECRET_PREFIX:
        return False
    return any(
        word in _SECRET_WORDS or (word not in _COUNTS and any(part in word for part in _SECRET_PARTS)) for word in words
    )


_PLAIN_VARIABLES: Final = frozenset({"PWD", "OLDPWD"})
"""Variables whose names look secret but are not (the shell's working directories)."""


def environment_secrets(environ: Mapping[str, str]) -> list[str]:
    """The values of the secret-named variables of an environment (`GITHUB_TOKEN`, `OPENAI_API_KEY`, …)."""
    return [value for name, value in environ.items() if name not in _PLAIN_VARIABLES and is_secret_name(name)]


__all__ = ["REDACTED", "environment_secrets", "is_secret_name"]
