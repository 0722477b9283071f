"""What a check request asks for, read strictly from its JSON, and running it: a snapshot, a URL, a command or a
host config file.

A request names exactly one of `snapshot` (a snapshot document), `url`, `command` (a string split like a shell, or a
list of arguments) or `config` (a host config file's `text` and file `name`, such as `claude_desktop_config.json`,
`.vscode/mcp.json` or Codex's `config.toml`: every enabled server in it is checked), and may name `hosts` (ids or
aliases) and, for a config, `inputs` (the values of VS Code `${input:NAME}` variables). The config is read by the same
reader as `hostcompat check --config` (`hostcompat.probe.host_configs`); its `${env:NAME}` variables resolve from the
environment of `hostcompat serve`, as the host would resolve them from its own.

No secret reaches a report: each server's env and header values, its secret arguments and URL credentials, the
`inputs` and the environment values the config names are redacted from its snapshot and from its part of the report.
The probe and the check run off the event loop's thread where they compute; progress goes to the run's events.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import PurePosixPath, PureWindowsPath
from typing import TYPE_CHECKING, Final

import anyio

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import HostCompatError, InvalidInput
from hostcompat.redaction import Redactor
from hostcompat.wire_json import WireJSON

if TYPE_CHECKING:
    from hostcompat.engine.catalog.model import Catalog
    from hostcompat.probe.host_configs import ServerConfig
    from hostcompat.probe.snapshot import Snapshot
    from hostcompat.probe.target import Target
    from hostcompat.report.model import ReportDocument, ServerEntry, TargetInfo
    from hostcompat.web.store import Run

_KINDS: Final = ("snapshot", "url", "command", "config")
CONFIG_PROBES_AT_ONCE: Final = 4
"""How many servers of a config are probed at once (a config may list dozens; the machine may be small)."""
_ENV_REFERENCE: Final = regex(r"\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}")


@dataclass(frozen=True)
class CheckRequest:
    """One check: exactly one of a snapshot, a URL, a command line or a config's servers, and the hosts to judge
    (none: all). `secrets` are values no report may show (a config's inputs and the environment values it names).
    """

    snapshot: Snapshot | None = None
    url: str | None = None
    command: tuple[str, ...] | str | None = None
    config: tuple[ServerConfig, ...] = ()
    config_name: str | None = None
    hosts: tuple[str, ...] = ()
    secrets: tuple[str, ...] = field(default=(), repr=False)

    @property
    def live(self) -> bool:
        """Whether it probes live servers (a URL, a command, a config's servers): these need the token."""
        return self.snapshot is None


@dataclass(frozen=True)
class _Item:
    """One server to check: its label, and the target to probe or why it cannot be."""

    label: str
    target: Target | None = None
    error: str | None = None


def parse_check_request(body: WireJSON, *, environ: Mapping[str, str] | None = None) -> CheckRequest:
    """The request in a `POST /api/check` body (`environ` resolves a config's `${env:NAME}`; default: this process's).

    Raises:
        InvalidInput: not exactly one of snapshot, url, command and config; a field of the wrong type; an unreadable
            snapshot; a config file that cannot be read as a server list (`InvalidHostConfig`, naming the problem).
    """
    named = [kind for kind in _KINDS if body.get(kind) is not None]
    if len(named) != 1:
        raise InvalidInput("name exactly one of 'snapshot', 'url', 'command' and 'config'", value=named)
    unknown = sorted(set(body) - {*_KINDS, "hosts", "inputs"})
    if unknown:
        raise InvalidInput(f"unknown field(s): {', '.join(unknown)[:200]}", value=unknown)
    hosts = body.get("hosts", [])
    if not isinstance(hosts, list) or not all(isinstance(h, str) for h in hosts):
        raise InvalidInput("'hosts' must be a list of host ids", value=hosts)
    kind = named[0]
    if body.get("inputs") is not None and kind != "config":
        raise InvalidInput("'inputs' gives values to a config's ${input:NAME} variables, and no 'config' is given")
    value = body[kind]
    if kind == "snapshot":
        from hostcompat.probe.snapshot import Snapshot

        if not isinstance(value, dict):
            raise InvalidInput("'snapshot' must be a snapshot document (a JSON object)")
        return CheckRequest(snapshot=Snapshot.from_dict(value), hosts=tuple(hosts))
    if kind == "config":
        return _config_request(value, body.get("inputs"), tuple(hosts), os.environ if environ is None else environ)
    if kind == "url":
        if not isinstance(value, str) or not value.startswith(("http://", "https://")):
            raise InvalidInput("'url' must be an http:// or https:// URL")
        return CheckRequest(url=value, hosts=tuple(hosts))
    if isinstance(value, str) and value.strip():
        return CheckRequest(command=value, hosts=tuple(hosts))
    if isinstance(value, list) and value and all(isinstance(part, str) for part in value):
        return CheckRequest(command=tuple(value), hosts=tuple(hosts))
    raise InvalidInput("'command' must be a non-empty string or list of strings")


def _config_request(
    value: object, raw_inputs: object, hosts: tuple[str, ...], environ: Mapping[str, str]
) -> CheckRequest:
    from hostcompat.probe.host_configs import MAX_CONFIG_BYTES, parse_host_config

    if not isinstance(value, dict) or not isinstance(value.get("text"), str):
        raise InvalidInput("'config' must be an object with the file's 'text' (and its file 'name')")
    if set(value) - {"text", "name"}:
        raise InvalidInput("'config' takes only 'text' and 'name'", value=sorted(value))
    name = value.get("name", "mcp.json")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput("'config.name' must be the file's name, such as claude_desktop_config.json")
    name = _base_name(name)
    text: str = value["text"]
    if len(text.encode("utf-8", "surrogatepass")) > MAX_CONFIG_BYTES:
        raise InvalidInput(f"the config file is larger than {MAX_CONFIG_BYTES} bytes, too large for a config file")
    inputs = {} if raw_inputs is None else raw_inputs
    if not isinstance(inputs, dict) or not all(isinstance(v, str) for v in inputs.values()):
        raise InvalidInput("'inputs' must be an object of ${input:NAME} values (strings)")
    servers = tuple(
        server
        for server in parse_host_config(text.removeprefix("\ufeff"), name, environ=environ, inputs=inputs)
        if not server.disabled
    )
    if not servers:
        raise InvalidInput(f"{name} lists no enabled server")
    named = {match.group(1) for match in _ENV_REFERENCE.finditer(text)}
    secrets = (*inputs.values(), *(environ[key] for key in sorted(named) if key in environ))
    return CheckRequest(config=servers, config_name=name, hosts=hosts, secrets=tuple(secrets))


def _base_name(name: str) -> str:
    """The file name alone (a browser sends only that; a client might send a path), without control characters."""
    base = PureWindowsPath(PurePosixPath(name).name).name or "mcp.json"
    return "".join(ch for ch in base if ch.isprintable())[:200] or "mcp.json"


def check_host_ids(request: CheckRequest, catalog: Catalog) -> tuple[str, ...]:
    """The request's hosts as catalog ids (an unknown one raises `CatalogError`, a `HostCompatError`)."""
    return tuple(catalog.get(name).id for name in request.hosts)


async def run_check(run: Run, request: CheckRequest, catalog: Catalog, host_ids: Sequence[str]) -> None:
    """Run one check to its end, reporting progress on `run`; never raises (a failure ends the run with its error)."""
    try:
        if request.snapshot is not None:
            await run.add("progress", "checking the server against the host catalog")
            uploaded: TargetInfo = {"display": "uploaded snapshot"}
            entry = await anyio.to_thread.run_sync(
                _check, request.snapshot, Redactor(), catalog, tuple(host_ids), uploaded
            )
            entries = [entry]
        else:
            entries = await _probe_and_check(run, request, catalog, tuple(host_ids))
    except HostCompatError as error:
        await run.finish(None, error.message)
        return
    except Exception as error:  # a bug must not leave the run hanging: it fails with its type
        await run.finish(None, f"the check failed unexpectedly ({type(error).__name__})")
        return
    from hostcompat.report import report_document

    document = report_document(entries)
    await run.finish(document, _probe_failure(document))


def _items(request: CheckRequest) -> list[_Item]:
    """The servers a live request probes: its URL or command, or each enabled server of its config."""
    from hostcompat.probe.host_configs import config_target
    from hostcompat.probe.target import display_target, parse_target

    if not request.config:
        spec: str | list[str] = request.url if request.url is not None else _command(request.command)
        target = parse_target(spec)  # a command or URL the target refuses: the whole request fails, and says why
        return [_Item(display_target(target), target)]  # redacted: the label goes into progress events
    items = []
    for server in request.config:
        label = f"{server.name} ({request.config_name})"
        try:
            items.append(_Item(label, config_target(server)))
        except InvalidInput as error:  # InvalidHostConfig: the entry cannot be used, and this names why
            items.append(_Item(label, error=error.message))
    return items


async def _probe_and_check(
    run: Run, request: CheckRequest, catalog: Catalog, host_ids: tuple[str, ...]
) -> list[ServerEntry]:
    """Probe each server (a few at a time), then check each snapshot; entries in the request's order."""
    from hostcompat.probe import capture
    from hostcompat.report import server_entry

    items = _items(request)
    entries: list[ServerEntry | None] = [None] * len(items)
    slots = anyio.Semaphore(CONFIG_PROBES_AT_ONCE)
    secrets = Redactor.of(request.secrets)
    total = len(items)

    async def one(index: int, item: _Item) -> None:
        info: TargetInfo = {"display": item.label}
        if request.config_name is not None:
            info["config"] = request.config_name
        if item.target is None:
            entries[index] = server_entry(target=info, server=None, hosts=[], error=item.error)
            await run.add("progress", f"{item.label[:200]}: cannot be checked as configured")
            return
        async with slots:
            await run.add("progress", f"probing {_counted(item.label, index, total)}")
            snapshot = await capture(item.target)
        await run.add("progress", f"checking {_counted(item.label, index, total)} against the host catalog")
        from hostcompat.probe.target import target_redactor

        redactor = target_redactor(item.target) | secrets
        entries[index] = await anyio.to_thread.run_sync(_check, snapshot, redactor, catalog, host_ids, info)

    async with anyio.create_task_group() as group:
        for index, item in enumerate(items):
            group.start_soon(one, index, item)
    return [entry for entry in entries if entry is not None]


def _counted(label: str, index: int, total: int) -> str:
    return label[:200] if total == 1 else f"{label[:200]} ({index + 1} of {total})"


def _command(command: tuple[str, ...] | str | None) -> str | list[str]:
    return command if isinstance(command, str) else list(command or ())


def _check(
    snapshot: Snapshot, redactor: Redactor, catalog: Catalog, host_ids: tuple[str, ...], target: TargetInfo
) -> ServerEntry:
    """One server's part of the report, with the client rules in front (`withProxy`) as `hostcompat check` does,
    and no value `redactor` knows anywhere in it.
    """
    from hostcompat.clients.rules import load_bundled_rules
    from hostcompat.pipeline import check_snapshot

    entry = check_snapshot(
        snapshot.redacted(redactor),
        catalog,
        host_ids=host_ids or None,
        target=dict(target),
        as_of=time.strftime("%Y-%m-%d"),
        client_rules=load_bundled_rules(),
    )
    shown: ServerEntry = redactor.json(entry, urls=False) if redactor else entry
    return shown


def _probe_failure(document: ReportDocument) -> str | None:
    """Why the check failed: the error of its only server (it could not be reached, crashed …), or, for a config,
    a count when no server of it could be checked (some errors among several are shown on their rows instead).
    """
    servers = document.get("servers", [])
    errors = [str(server.get("error")) for server in servers if server.get("error")]
    if not servers or len(errors) < len(servers):
        return None
    if len(servers) == 1:
        return errors[0]
    return f"none of the {len(servers)} servers could be checked; each row says why"


__all__ = ["CONFIG_PROBES_AT_ONCE", "CheckRequest", "check_host_ids", "parse_check_request", "run_check"]
