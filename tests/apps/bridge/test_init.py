import hostcompat.apps.bridge as bridge


def test_all_is_sorted_and_every_name_in_it_exists() -> None:
    assert bridge.__all__ == sorted(bridge.__all__)
    assert len(bridge.__all__) == len(set(bridge.__all__))
    for name in bridge.__all__:
        assert hasattr(bridge, name), name


def test_the_package_re_exports_every_public_name_of_its_modules() -> None:
    from hostcompat.apps.bridge import (
        codes,
        context,
        handshake,
        legacy,
        legacy_mapping,
        legacy_params,
        messages,
        methods,
        negotiate,
        parse,
    )

    modules = (codes, context, handshake, legacy, legacy_mapping, legacy_params, messages, methods, negotiate, parse)
    exported = {name for module in modules for name in module.__all__}
    assert exported == set(bridge.__all__)
