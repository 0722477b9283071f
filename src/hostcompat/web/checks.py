"""What a check request asks for, read strictly from its JSON, and running it: a snapshot, a URL or a command.

A request names exactly one of `snapshot` (a snapshot document), `url` or `command` (a string split like a shell,
or a list of arguments), and may name `hosts` (ids or aliases). The probe and the check run off the event loop's
thread where they compute; progress goes to the run's events.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.engine.catalog.model import Catalog
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.report.model import ReportDocument
    from hostcompat.web.store import Run

_KINDS = ("snapshot", "url", "command")


@dataclass(frozen=True)
class CheckRequest:
    """One check: exactly one of a snapshot, a URL or a command line, and the hosts to judge (none: all)."""

    snapshot: Snapshot | None = None
    url: str | None = None
    command: tuple[str, ...] | str | None = None
    hosts: tuple[str, ...] = ()

    @property
    def live(self) -> bool:
        """Whether it probes a live server (a URL or a command): these need the token."""
        return self.snapshot is None


def parse_check_request(body: WireJSON) -> CheckRequest:
    """The request in a `POST /api/check` body.

    Raises:
        InvalidInput: not exactly one of snapshot, url and command; a field of the wrong type; an unreadable snapshot.
    """
    from hostcompat.probe.snapshot import Snapshot

    named = [kind for kind in _KINDS if body.get(kind) is not None]
    if len(named) != 1:
        raise InvalidInput("name exactly one of 'snapshot', 'url' and 'command'", value=named)
    unknown = sorted(set(body) - {*_KINDS, "hosts"})
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(unknown)[:200]}", value=unknown)
    hosts = body.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        raise InvalidInput("'hosts' must be a list of host ids", value=hosts)
    kind = named[0]
    value = body[kind]
    if kind == "snapshot":
        if not isinstance(value, dict):
            raise InvalidInput("'snapshot' must be a snapshot document (a JSON object)")
        return CheckRequest(snapshot=Snapshot.from_dict(value), hosts=tuple(hosts))
    if kind == "url":
        if not isinstance(value, str) or not value.startswith(("http://", "https://")):
            raise InvalidInput("'url' must be an http:// or https:// URL")
        return CheckRequest(url=value, hosts=tuple(hosts))
    if isinstance(value, str) and value.strip():
        return CheckRequest(command=value, hosts=tuple(hosts))
    if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
        return CheckRequest(command=tuple(value), hosts=tuple(hosts))
    raise InvalidInput("'command' must be a non-empty string or list of strings")


def check_host_ids(request: CheckRequest, catalog: Catalog) -> tuple[str, ...]:
    """The request's hosts as catalog ids (an unknown one raises `CatalogError`, a `HostCompatError`)."""
    return tuple(catalog.get(name).id for name in request.hosts)


async def run_check(run: Run, request: CheckRequest, catalog: Catalog, host_ids: Sequence[str]) -> None:
    """Run one check to its end, reporting progress on `run`; never raises (a failure ends the run with its error)."""
    try:
        snapshot = request.snapshot
        if snapshot is None:
            snapshot = await _probe(run, request)
        await run.add("progress", "checking the server against the host catalog")
        document = await anyio.to_thread.run_sync(_check, snapshot, catalog, tuple(host_ids), _label(request))
    except HostCompatError as error:
        await run.finish(None, error.message)
        return
    except Exception as error:  # a bug must not leave the run hanging: it fails with its type
        await run.finish(None, f"the check failed unexpectedly ({type(error).__name__})")
        return
    failure = _probe_failure(document)
    await run.finish(document, failure)


def _label(request: CheckRequest) -> str:
    if request.snapshot is not None:
        return "uploaded snapshot"
    if request.url is not None:
        return request.url
    command = request.command
    return command if isinstance(command, str) else " ".join(command or ())


async def _probe(run: Run, request: CheckRequest) -> Snapshot:
    from hostcompat.probe import capture
    from hostcompat.probe.target import parse_target

    spec: str | list[str] = request.url if request.url is not None else _command(request.command)
    target = parse_target(spec)
    await run.add("progress", f"probing {_label(request)[:200]}")
    snapshot = await capture(target)
    await run.add("progress", "probe finished")
    return snapshot


def _command(command: tuple[str, ...] | str | None) -> str | list[str]:
    return command if isinstance(command, str) else list(command or ())


def _check(snapshot: Snapshot, catalog: Catalog, host_ids: tuple[str, ...], label: str) -> ReportDocument:
    from hostcompat.pipeline import check_snapshot
    from hostcompat.redaction import Redactor
    from hostcompat.report import report_document

    entry = check_snapshot(
        snapshot.redacted(Redactor()),
        catalog,
        host_ids=host_ids or None,
        target={"display": label},
        as_of=time.strftime("%Y-%m-%d"),
    )
    return report_document([entry])


def _probe_failure(document: ReportDocument) -> str | None:
    """The error a probed server's entry carries (it could not be reached, crashed …), if any."""
    for server in document.get("servers", []):
        error = server.get("error")
        if isinstance(error, str) and error:
            return error
    return None


__all__ = ["CheckRequest", "check_host_ids", "parse_check_request", "run_check"]
