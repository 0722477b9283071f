import subprocess
import sys

import hostcompat
from hostcompat import errors


def test_version_is_a_release_string() -> None:
    parts = hostcompat.__version__.split(".")
    assert len(parts) == 3
    assert all(part.isdigit() for part in parts)


def test_every_error_is_a_hostcompat_error() -> None:
    for name in errors.__all__:
        cls = getattr(errors, name)
        assert issubclass(cls, hostcompat.HostCompatError), name


def test_input_errors_are_value_errors_and_resource_errors_are_not() -> None:
    assert issubclass(errors.InvalidUIURI, ValueError)
    assert not issubclass(errors.ResourceTooLarge, ValueError)


def test_error_keeps_the_offending_value_and_truncates_its_preview() -> None:
    value = "x" * 1000
    err = errors.InvalidUIURI("bad", value=value, rule_id="URI-001")
    assert err.value is value
    assert err.rule_id == "URI-001"
    assert len(err.value_preview) <= 200


def test_python_dash_m_prints_the_version_without_importing_the_sdk() -> None:
    code = (
        "import os, sys, runpy\n"
        "def leave(status):\n"  # cli.run() ends by os._exit: here it must come back to the check below
        "    raise SystemExit(status)\n"
        "os._exit = leave\n"
        "sys.argv = ['hostcompat', '--version']\n"
        "try:\n"
        "    runpy.run_module('hostcompat', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('mcp' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [f"hostcompat {hostcompat.__version__}", "False"]
