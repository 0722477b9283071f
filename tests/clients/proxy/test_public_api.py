import importlib

import pytest

MODULES = [
    "hostcompat.clients.proxy",
    "hostcompat.clients.proxy.config",
    "hostcompat.clients.proxy.failures",
    "hostcompat.clients.proxy.session.front_http",
    "hostcompat.clients.proxy.pipe.frames",
    "hostcompat.clients.proxy.session.front_stdio",
    "hostcompat.clients.proxy.lines",
    "hostcompat.clients.proxy.links",
    "hostcompat.clients.proxy.pipe.relay",
    "hostcompat.clients.proxy.pipe.pipes",
    "hostcompat.clients.proxy.session.relay",
    "hostcompat.clients.proxy.serve",
    "hostcompat.clients.proxy.tracker",
    "hostcompat.clients.proxy.session.upstream",
    "hostcompat.clients.proxy.session.upstream_stdio",
    "hostcompat.clients.proxy.session.wire",
    "hostcompat.cli.proxy",
]


@pytest.mark.parametrize("name", MODULES)
def test_every_proxy_module_has_a_docstring_and_a_sorted_all_that_resolves(name: str) -> None:
    module = importlib.import_module(name)
    assert module.__doc__ and module.__doc__.strip()
    exported = list(module.__all__)
    assert exported == sorted(exported)
    assert len(set(exported)) == len(exported)
    for public in exported:
        assert getattr(module, public) is not None, public


def test_an_unknown_name_of_the_proxy_package_raises_attribute_error() -> None:
    proxy = importlib.import_module("hostcompat.clients.proxy")
    with pytest.raises(AttributeError):
        proxy.NoSuchThing  # noqa: B018 - the attribute access is the test
