"""hostcompat in a server's own tests: check a server (a command, a URL, a snapshot, or an in-process server object)
and assert on its verdicts, with messages that name the findings.

`check_server` / `acheck_server` return a `CompatReport` (`verdict("claude")`, `findings`, `assert_verdict`,
`assert_works`, `assert_no_worse_than(baseline)`, `save`). The pytest plugin (`hostcompat.testing.plugin`, entry
point `pytest11` of the `pytest` extra) gives the same as the `hostcompat_check` fixture. A face above `pipeline`,
like the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.testing.check import ServerUnderTest as ServerUnderTest
    from hostcompat.testing.check import acheck_server as acheck_server
    from hostcompat.testing.check import check_server as check_server
    from hostcompat.testing.compat_report import CompatAssertionError as CompatAssertionError
    from hostcompat.testing.compat_report import CompatReport as CompatReport
    from hostcompat.testing.compat_report import describe_finding as describe_finding

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.testing.check": ["ServerUnderTest", "acheck_server", "check_server"],
        "hostcompat.testing.compat_report": ["CompatAssertionError", "CompatReport", "describe_finding"],
    },
)

__all__ = [
    "CompatAssertionError",
    "CompatReport",
    "ServerUnderTest",
    "acheck_server",
    "check_server",
    "describe_finding",
]
