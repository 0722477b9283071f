"""The console script imports the named command with the garbage collector paused, freezes what it imported, and
lets the collector pass less often.
"""

from __future__ import annotations

import subprocess
import sys

from hostcompat.cli import command_line

PROBE = """
import gc, sys
import hostcompat.cli.command_line as command_line
command_line._import_command_frozen(sys.argv[1:])
print(gc.isenabled(), gc.get_freeze_count() > 0, "hostcompat.cli.check" in sys.modules, gc.get_threshold()[0])
"""


def after(*arguments: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *arguments], capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout.strip()


def test_a_command_is_imported_and_frozen_with_the_collector_back_on() -> None:
    assert after("check", "snapshot.json") == f"True True True {command_line._YOUNG_PER_PASS}"


def test_no_command_imports_and_freezes_nothing() -> None:
    assert after("--version") == "True False False 700"  # as Python starts
