import pytest

from hostcompat.clients.proxy.event_loop import LOOP_CHOICES, loop_options
from hostcompat.errors import InvalidInput


def test_auto_takes_uvloop_when_it_is_installed_and_the_standard_loop_otherwise() -> None:
    assert loop_options("auto", uvloop_installed=True) == {"use_uvloop": True}
    assert loop_options("auto", uvloop_installed=False) == {}


def test_asyncio_is_the_standard_loop_even_where_uvloop_is_installed() -> None:
    assert loop_options("asyncio", uvloop_installed=True) == {}


def test_uvloop_is_given_when_installed_and_refused_with_the_fix_when_not() -> None:
    assert loop_options("uvloop", uvloop_installed=True) == {"use_uvloop": True}
    with pytest.raises(InvalidInput, match=r"uvloop is not installed: pip install 'mcp-hostcompat\[fast\]'"):
        loop_options("uvloop", uvloop_installed=False)


def test_an_unknown_loop_is_named_with_the_choices() -> None:
    with pytest.raises(InvalidInput, match="unknown event loop 'trio'; expected one of: auto, asyncio, uvloop"):
        loop_options("trio", uvloop_installed=True)
    assert LOOP_CHOICES == ("auto", "asyncio", "uvloop")
