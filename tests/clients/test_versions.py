import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostcompat.clients.versions import (
    ANY_VERSION,
    Version,
    parse_version,
    parse_version_range,
    try_parse_version,
)
from hostcompat.errors import InvalidInput

ASCENDING = [
    "0.1",
    "0.14.0",
    "0.139.0",
    "0.148.0-alpha.1",
    "0.148.0-alpha.9",
    "0.148.0-alpha.10",
    "0.148.0-beta.1",
    "0.148.0-rc.1",
    "0.148.0",
    "0.148.0.post1",
    "0.148.1",
    "0.149.0",
    "0.150.0-alpha.8",
    "0.150.0",
    "1.0.0.dev1",
    "1.0.0a1",
    "1.0.0b2",
    "1.0.0rc1",
    "1.0.0",
    "26.820.60940",
]


@pytest.mark.parametrize(("lower", "higher"), list(itertools.pairwise(ASCENDING)))
def test_versions_order_as_versions_not_as_strings(lower: str, higher: str) -> None:
    assert parse_version(lower) < parse_version(higher)
    assert parse_version(higher) > parse_version(lower)


def test_a_prerelease_sorts_before_its_release() -> None:
    assert parse_version("0.148.0-alpha.9") < parse_version("0.148.0")
    assert parse_version("0.148.0-alpha.9").is_prerelease
    assert not parse_version("0.148.0").is_prerelease


def test_string_order_would_get_these_wrong_but_versions_do_not() -> None:
    assert "0.9.0" > "0.10.0"
    assert parse_version("0.9.0") < parse_version("0.10.0")
    assert "0.148.0-alpha.10" < "0.148.0-alpha.9"
    assert parse_version("0.148.0-alpha.10") > parse_version("0.148.0-alpha.9")


def test_trailing_zeros_leading_v_and_build_metadata_do_not_change_equality() -> None:
    assert parse_version("1.0") == parse_version("1.0.0") == parse_version("v1.0.0") == parse_version("1.0.0+build.7")
    assert hash(parse_version("1.0")) == hash(parse_version("1.0.0"))


def test_pep440_and_semver_spellings_of_a_prerelease_are_equal() -> None:
    assert parse_version("1.0.0a1") == parse_version("1.0.0-alpha.1")
    assert parse_version("1.0.0rc2") == parse_version("1.0.0-rc.2") == parse_version("1.0.0-preview.2")


def test_a_parsed_version_keeps_its_text_and_parts() -> None:
    version = parse_version(" 0.148.0-alpha.9 ")
    assert str(version) == "0.148.0-alpha.9"
    assert version.release == (0, 148, 0)
    assert version.pre == ("alpha", 9)
    assert version.post is None


def test_a_version_built_from_parts_renders_its_text() -> None:
    assert str(Version(release=(1, 2), pre=("rc", 1))) == "1.2-rc.1"


@pytest.mark.parametrize("text", ["", "   ", "latest", "alpha", "1.0 beta", "1.0!", "1.0+", "9" * 200])
def test_garbage_versions_raise_invalid_input_carrying_the_text(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_version(text)
    assert caught.value.value == text


def test_a_non_string_version_raises_invalid_input() -> None:
    with pytest.raises(InvalidInput):
        parse_version(148)  # type: ignore[arg-type]  # deliberately the wrong type


def test_try_parse_version_returns_none_for_what_does_not_parse() -> None:
    assert try_parse_version("unknown") is None
    assert try_parse_version(None) is None
    assert try_parse_version("2.1.121") == parse_version("2.1.121")


def test_a_range_holds_all_its_clauses() -> None:
    window = parse_version_range(">=0.1,<0.150")
    assert window.contains("0.148.0-alpha.9")
    assert window.contains("0.1")
    assert not window.contains("0.150.0")
    assert not window.contains("0.0.9")


def test_a_prerelease_of_the_upper_bound_is_inside_a_less_than_range() -> None:
    assert parse_version_range("<0.150").contains("0.150.0-alpha.8")


@pytest.mark.parametrize(
    ("expression", "inside", "outside"),
    [
        ("<=1.0.35", "1.0.35", "1.0.36"),
        (">0.138.0", "0.139.0", "0.138.0"),
        ("==0.148.0-alpha.9", "0.148.0-alpha.9", "0.148.0"),
        ("0.148.0", "0.148", "0.148.1"),
        ("!=2.0", "2.1", "2.0.0"),
    ],
)
def test_each_operator_means_what_it_says(expression: str, inside: str, outside: str) -> None:
    window = parse_version_range(expression)
    assert window.contains(inside)
    assert not window.contains(outside)


def test_star_accepts_every_version_even_unparsable_ones() -> None:
    for expression in ("*", "", " any "):
        window = parse_version_range(expression)
        assert window.is_any
        assert window.contains("whatever this is")
    assert ANY_VERSION.contains("")


def test_a_constrained_range_rejects_a_version_that_does_not_parse() -> None:
    assert not parse_version_range(">=0").contains("unknown")


@pytest.mark.parametrize("expression", [">=", ">=1.0,", ",<2", ">=one", "~>1.0", "x" * 600])
def test_bad_ranges_raise_invalid_input_carrying_the_expression(expression: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        parse_version_range(expression)
    assert caught.value.value == expression


release = st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=5)
pre = st.lists(
    st.one_of(st.integers(min_value=0, max_value=999), st.sampled_from(["alpha", "beta", "rc", "dev"])), max_size=6
)


@given(release, pre, st.one_of(st.none(), st.integers(min_value=0, max_value=99)))
def test_rendering_a_version_and_parsing_it_back_gives_an_equal_version(
    parts: list[int], pre_parts: list[int | str], post: int | None
) -> None:
    original = Version(release=tuple(parts), pre=tuple(pre_parts), post=None if pre_parts else post)
    assert parse_version(str(original)) == original


@given(st.text(max_size=40))
def test_any_text_parses_to_a_version_or_raises_invalid_input(text: str) -> None:
    try:
        version = parse_version(text)
    except InvalidInput:
        return
    assert isinstance(version, Version)


@given(st.text(max_size=60))
def test_any_text_parses_to_a_range_or_raises_invalid_input(text: str) -> None:
    try:
        window = parse_version_range(text)
    except InvalidInput:
        return
    assert window.contains("1.0.0") in (True, False)


@given(st.lists(st.sampled_from(ASCENDING), min_size=2, max_size=8))
def test_sorting_versions_matches_the_known_ascending_order(texts: list[str]) -> None:
    ordered = sorted(texts, key=parse_version)
    assert [ASCENDING.index(text) for text in ordered] == sorted(ASCENDING.index(text) for text in texts)
