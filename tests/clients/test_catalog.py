import copy
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from hostcompat.clients.rewrites.tool_catalog import (
    HASH_SUFFIX_LENGTH,
    RenameStep,
    cap_tool_count,
    name_digest,
    rename_tools,
    sanitize_name,
    truncate_name,
)

OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]+")
CURSOR_NAME = re.compile(r"[A-Za-z0-9_]+")


def _steps(punctuation: str = "_-", max_length: int | None = None) -> list[RenameStep]:
    steps = [RenameStep("test.sanitize", lambda name: sanitize_name(name, punctuation))]
    if max_length is not None:
        steps.append(RenameStep("test.truncate", lambda name: truncate_name(name, max_length), max_length))
    return steps


def _tools(*names: str) -> dict[str, Any]:
    return {"tools": [{"name": name, "inputSchema": {"type": "object"}} for name in names]}


def test_sanitizing_replaces_each_character_outside_the_charset_with_an_underscore() -> None:
    assert sanitize_name("local:time-server/time.get-current-time", "_-") == "local_time-server_time_get-current-time"
    assert sanitize_name("components.coverage-plan", "_") == "components_coverage_plan"
    assert sanitize_name("café", "_-") == "caf_"


def test_a_valid_name_comes_back_as_the_same_object() -> None:
    name = "".join(["get", "_", "weather"])
    assert sanitize_name(name, "_-") is name
    assert truncate_name(name, 40) is name


def test_truncation_keeps_a_head_and_a_stable_digest_within_the_budget() -> None:
    name = "GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER"
    short = truncate_name(name, 40)
    assert len(short) == 40
    assert short.startswith(name[: 40 - HASH_SUFFIX_LENGTH] + "_")
    assert short.endswith(name_digest(name))
    assert truncate_name(name, 40) == short
    assert truncate_name(name + "_X", 40) != short


def test_the_digest_is_eight_hex_digits_and_handles_lone_surrogates() -> None:
    assert re.fullmatch(r"[0-9a-f]{8}", name_digest("\ud800tool"))
    assert name_digest("a", salt=1) != name_digest("a")


def test_capping_keeps_the_first_tools_and_drops_the_cursor_only_when_it_cut() -> None:
    page = {**_tools("a", "b", "c"), "nextCursor": "page-2"}
    capped = cap_tool_count("tools/list", page, {"max_tools": 2})
    assert [tool["name"] for tool in capped["tools"]] == ["a", "b"]
    assert "nextCursor" not in capped
    assert capped["tools"][0] is page["tools"][0]
    assert cap_tool_count("tools/list", page, {"max_tools": 3}) is page
    assert cap_tool_count("tools/call", page, {"max_tools": 1}) is page


def test_renaming_records_exposed_to_original_and_leaves_valid_tools_shared() -> None:
    page = _tools("time.get", "echo")
    before = copy.deepcopy(page)
    renamed = rename_tools(page, _steps(), {})
    assert [tool["name"] for tool in renamed.result["tools"]] == ["time_get", "echo"]
    assert renamed.exposed_to_original == {"time_get": "time.get"}
    assert renamed.kept_names == {"echo"}
    assert renamed.applied == ("test.sanitize",)
    assert renamed.result["tools"][1] is page["tools"][1]
    assert renamed.result["tools"][0]["inputSchema"] is page["tools"][0]["inputSchema"]
    assert page == before


def test_a_rename_that_would_collide_with_a_kept_name_gets_a_digest_suffix() -> None:
    renamed = rename_tools(_tools("a.b", "a_b", "a:b"), _steps(), {})
    names = [tool["name"] for tool in renamed.result["tools"]]
    assert names[1] == "a_b"
    assert len(set(names)) == 3
    assert all(OPENAI_NAME.fullmatch(name) for name in names)
    assert {renamed.exposed_to_original[name] for name in (names[0], names[2])} == {"a.b", "a:b"}


def test_collision_suffixes_respect_the_tightest_length_budget() -> None:
    long_a = "x" * 50 + ".a"
    long_b = "x" * 50 + ":a"
    renamed = rename_tools(_tools(long_a, long_b), _steps("_", 20), {})
    names = [tool["name"] for tool in renamed.result["tools"]]
    assert len(set(names)) == 2
    assert all(len(name) <= 20 and CURSOR_NAME.fullmatch(name) for name in names)


def test_an_earlier_name_for_the_same_tool_is_reused() -> None:
    first = rename_tools(_tools("a.b", "a:b"), _steps(), {})
    # The server reorders its tools; each keeps the exposed name it had.
    again = rename_tools(_tools("a:b", "a.b"), _steps(), first.exposed_to_original)
    assert dict(again.exposed_to_original) == dict(first.exposed_to_original)


def test_a_name_exposed_for_another_tool_on_an_earlier_page_is_not_reused() -> None:
    page_one = rename_tools(_tools("a.b"), _steps(), {})
    page_two = rename_tools(_tools("a:b"), _steps(), page_one.exposed_to_original)
    assert next(iter(page_two.exposed_to_original)) != "a_b"


def test_nothing_to_rename_returns_the_same_page() -> None:
    page = _tools("ok", "fine-too")
    assert rename_tools(page, _steps(), {}).result is page
    odd: dict[str, Any] = {"tools": [None, {"name": 5}, "x"]}
    assert rename_tools(odd, _steps(), {}).result is odd


names = st.text(min_size=1, max_size=80)


@given(st.lists(names, max_size=12), st.sampled_from(["_", "_-"]), st.integers(min_value=16, max_value=64))
def test_renamed_pages_always_hold_unique_valid_names_that_map_back(
    raw_names: list[str], punctuation: str, budget: int
) -> None:
    unique = list(dict.fromkeys(raw_names))
    page = _tools(*unique)
    renamed = rename_tools(page, _steps(punctuation, budget), {})
    out = [tool["name"] for tool in renamed.result["tools"]]
    pattern = CURSOR_NAME if punctuation == "_" else OPENAI_NAME
    assert len(set(out)) == len(out)
    for original, exposed in zip(unique, out, strict=True):
        assert len(exposed) <= budget
        assert pattern.fullmatch(exposed)
        assert renamed.exposed_to_original.get(exposed, exposed) == original
