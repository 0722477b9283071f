"""The pytest plugin (entry point `pytest11`, in the `pytest` extra): the `hostcompat_check` fixture.

```python
def test_my_server_works_on_claude(hostcompat_check):
    report = hostcompat_check(["python", "-m", "my_server"])   # or a URL, a snapshot, an MCPServer/FastMCP object
    assert report.verdict("claude") == "works"
    report.assert_no_worse_than("tests/hostcompat-baseline.json")
```

pytest loads this module in every run of a project that installs the extra, so it imports nothing but pytest: the
check (and the `mcp` SDK) loads when a test first calls the fixture.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from hostcompat.testing.check import ServerUnderTest
    from hostcompat.testing.compat_report import CompatReport


class HostcompatCheck:
    """What the fixture gives: call it to check a server (`acheck` in async tests); `CompatReport` comes back."""

    def __call__(
        self,
        server: ServerUnderTest,
        *,
        hosts: Iterable[str] | None = None,
        timeout: float = 60.0,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        name: str | None = None,
        catalog: Sequence[str | os.PathLike[str]] = (),
    ) -> CompatReport:
        """Check `server` (see `hostcompat.testing.check_server`)."""
        from hostcompat.testing.check import check_server

        return check_server(server, hosts=hosts, timeout=timeout, env=env, cwd=cwd, name=name, catalog=catalog)

    async def acheck(
        self,
        server: ServerUnderTest,
        *,
        hosts: Iterable[str] | None = None,
        timeout: float = 60.0,
        env: Mapping[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
        name: str | None = None,
        catalog: Sequence[str | os.PathLike[str]] = (),
    ) -> CompatReport:
        """Check `server` from an async test (see `hostcompat.testing.acheck_server`)."""
        from hostcompat.testing.check import acheck_server

        return await acheck_server(server, hosts=hosts, timeout=timeout, env=env, cwd=cwd, name=name, catalog=catalog)


@pytest.fixture
def hostcompat_check() -> HostcompatCheck:
    """Check an MCP server on every MCP host: `hostcompat_check(server)` returns its `CompatReport`."""
    return HostcompatCheck()


__all__ = ["HostcompatCheck", "hostcompat_check"]
