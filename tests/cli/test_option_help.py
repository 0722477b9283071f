"""Every option of every command has help, and the help shows the option's default when it has one."""

import argparse

from hostcompat.cli.command_line import HelpFormatter, build_parser


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def _options() -> list[tuple[str, argparse.Action]]:
    return [
        (name, action)
        for name, sub in _subparsers().items()
        for action in sub._actions
        if action.option_strings and not isinstance(action, argparse._HelpAction)
    ]


def test_every_option_has_help() -> None:
    missing = [f"{name} {action.option_strings[0]}" for name, action in _options() if not action.help]
    assert missing == []


def test_every_default_is_shown_in_the_help() -> None:
    formatter = HelpFormatter("hostcompat")
    hidden = []
    for name, action in _options():
        default = action.default
        if action.help == argparse.SUPPRESS or default is None or isinstance(default, bool) or default == []:
            continue
        shown = formatter._expand_help(action)
        forms = {str(default)} | ({f"{default:g}"} if isinstance(default, float) else set())
        if "default" not in shown or not any(form in shown for form in forms):
            hidden.append(f"{name} {action.option_strings[0]}: {shown!r}")
    assert hidden == []


def test_check_help_names_transport_format_timeout_and_concurrency_defaults() -> None:
    text = " ".join(_subparsers()["check"].format_help().split())
    assert "(default: auto)" in text
    assert "(default: text)" in text
    assert "(default: 60.0)" in text
    assert "(default: all at once)" in text
