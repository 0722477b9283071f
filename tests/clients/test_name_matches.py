"""A rule's client name pattern matches as `fnmatch.fnmatchcase` says, with or without glob characters."""

from __future__ import annotations

import fnmatch

from hypothesis import given, settings
from hypothesis import strategies as st

from hostcompat.clients.rule_model import name_matches

NAMES = st.text(alphabet=st.sampled_from("abcC-_.*?[]!xé "), max_size=10)


@settings(max_examples=800, deadline=None)
@given(name=NAMES, pattern=NAMES)
def test_a_pattern_matches_as_fnmatchcase_says(name: str, pattern: str) -> None:
    assert name_matches(name, pattern) == fnmatch.fnmatchcase(name, pattern)


def test_exact_names_and_globs() -> None:
    assert name_matches("codex-mcp-client", "codex-mcp-client")
    assert not name_matches("Codex-mcp-client", "codex-mcp-client")  # case-sensitive
    assert name_matches("claude-ai", "claude-*") and not name_matches("claude", "claude-*")
    assert name_matches("a.b", "a.b") and not name_matches("axb", "a.b")  # `.` is no wildcard
