"""Registry entries (`registry_json.Launch`) as targets to check: how each package kind is started.

- npm: `npx [runtimeArguments] -y IDENTIFIER@VERSION [packageArguments]`;
- PyPI: `uvx [runtimeArguments] IDENTIFIER@VERSION [packageArguments]` when `uvx` is on PATH, else the package's
  console script from a virtual environment of its own, created once per package and version under the cache
  directory (`$HOSTCOMPAT_CACHE`, else `$XDG_CACHE_HOME/hostcompat`, else `~/.cache/hostcompat`) and installed
  with pip; the install runs only for an entry this run checks (after `--shard`), under a lock, bounded in time;
- OCI: `docker run -i --rm -e NAME… [runtimeArguments] IMAGE:VERSION [packageArguments]`, an error unless docker is
  on PATH;
- remotes: the URL, streamable HTTP or SSE, with the entry's headers.

The environment of a package goes to the server process (to docker's, which passes the names on with `-e`), never
to a report: its values, the headers' and the secret inputs' are in `Planned.secrets`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from hostcompat._regex import regex
from hostcompat.cli._targets import Planned
from hostcompat.cli.registry_json import Launch, RegistryEntry
from hostcompat.errors import InvalidInput

if TYPE_CHECKING:
    from hostcompat.probe.target import Target

INSTALL_SECONDS: Final = 600.0
"""How long one PyPI package's virtual environment may take to create and install."""

_DIST = regex(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_SCRIPTS = (
    "import importlib.metadata as m, sys\n"
    "for e in m.distribution(sys.argv[1]).entry_points:\n"
    "    e.group == 'console_scripts' and print(e.name)\n"
)


def planned_from_registry(entry: RegistryEntry) -> Planned:
    """The entry as a target (or as its error); a PyPI package without uvx is installed by `Planned.prepare`."""
    if entry.launch is None:
        return Planned(entry.label, config=entry.source, error=entry.error or "cannot be started")
    launch = entry.launch
    try:
        if launch.kind == "remote":
            from hostcompat.probe.target import HttpTarget, SseTarget

            assert launch.url is not None  # a remote Launch always has its URL
            kind = HttpTarget if launch.transport == "http" else SseTarget
            return _planned(entry, kind(launch.url, dict(launch.headers)))
        if launch.kind == "npm":
            return _command(entry, "npx", [*launch.runtime_args, "-y", _pinned(launch, "@"), *launch.package_args])
        if launch.kind == "oci":
            image = launch.identifier if _tagged(launch.identifier) else _pinned(launch, ":")
            names = [part for name in launch.env for part in ("-e", name)]
            run = ["run", "-i", "--rm", *names, *launch.runtime_args, image, *launch.package_args]
            return _command(entry, "docker", run, needs="the OCI image needs docker")
        if shutil.which("uvx") is not None:
            return _command(entry, "uvx", [*launch.runtime_args, _pinned(launch, "@"), *launch.package_args])
    except InvalidInput as error:  # a value the target refuses (a NUL byte, a bad header name, a URL with no host)
        return Planned(entry.label, config=entry.source, error=f"{entry.label}: {error.message}")
    return Planned(entry.label, config=entry.source, secrets=launch.secrets, prepare=lambda: _venv_planned(entry))


def _planned(entry: RegistryEntry, target: Target) -> Planned:
    secrets = () if entry.launch is None else entry.launch.secrets
    return Planned(entry.label, target, config=entry.source, secrets=secrets)


def _command(entry: RegistryEntry, program: str, args: list[str], *, needs: str | None = None) -> Planned:
    from hostcompat.probe.target import StdioTarget

    found = shutil.which(program)
    if found is None:
        why = needs or f"{program} is needed to start it"
        return Planned(entry.label, config=entry.source, error=f"{entry.label}: {why}, and {program} is not on PATH")
    assert entry.launch is not None
    env = dict(entry.launch.env)
    if program == "docker":  # docker passes the names given with -e from its own environment
        env.setdefault("PATH", os.environ.get("PATH", os.defpath))
    return _planned(entry, StdioTarget(found, args, env))


def _pinned(launch: Launch, separator: str) -> str:
    return f"{launch.identifier}{separator}{launch.version}" if launch.version else launch.identifier


def _tagged(image: str) -> bool:
    return "@sha256:" in image or ":" in image.rsplit("/", 1)[-1]


def cache_directory() -> Path:
    """Where PyPI packages' virtual environments are kept between runs."""
    explicit = os.environ.get("HOSTCOMPAT_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hostcompat"


def _venv_planned(entry: RegistryEntry) -> Planned:
    """Install the PyPI package into its own cached environment (once) and start its console script."""
    from hostcompat.probe.target import StdioTarget

    assert entry.launch is not None
    launch = entry.launch
    try:
        script = _install(launch.identifier, launch.version)
    except InvalidInput as error:
        return Planned(entry.label, config=entry.source, error=f"{entry.label}: {error.message}")
    args = [*launch.runtime_args, *launch.package_args]
    return _planned(entry, StdioTarget(str(script), args, dict(launch.env)))


def _install(identifier: str, version: str) -> Path:
    """The console script of `identifier==version`, installed in a virtual environment of its own under the cache."""
    if not _DIST.fullmatch(identifier) or (version and not _DIST.fullmatch(version)):
        raise InvalidInput(f"PyPI package {identifier!r} version {version!r}: not a package name and version")
    tag = f"py{sys.version_info.major}{sys.version_info.minor}"
    home = cache_directory() / "pypi" / f"{identifier.lower()}-{version or 'latest'}-{tag}"
    python = home / "bin" / "python"
    done = home / ".installed"
    home.parent.mkdir(parents=True, exist_ok=True)
    with open(home.parent / f".{home.name}.lock", "w") as lock:
        import fcntl

        fcntl.flock(lock, fcntl.LOCK_EX)  # parallel shards on one machine install each package once
        if not done.exists():
            shutil.rmtree(home, ignore_errors=True)
            requirement = f"{identifier}=={version}" if version else identifier
            _run([sys.executable, "-m", "venv", str(home)], f"creating a virtual environment for {requirement}")
            pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", requirement]
            _run(pip, f"pip install {requirement}")
            done.write_text(requirement + "\n", "utf-8")
    scripts = _run([str(python), "-c", _SCRIPTS, identifier], f"reading {identifier}'s console scripts").split()
    if not scripts:
        raise InvalidInput(f"PyPI package {identifier} has no console script to start the server with")
    wanted = identifier.lower().replace("_", "-")
    chosen = next((name for name in scripts if name.lower().replace("_", "-") == wanted), scripts[0])
    return home / "bin" / chosen


def _run(argv: list[str], what: str) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=INSTALL_SECONDS, check=False)
    except subprocess.TimeoutExpired as error:
        raise InvalidInput(f"{what}: took longer than {INSTALL_SECONDS:g} s") from error
    except OSError as error:
        raise InvalidInput(f"{what}: {error.strerror or error}") from error
    if done.returncode != 0:
        tail = " ".join((done.stderr or done.stdout).strip().splitlines()[-3:])[-500:]
        raise InvalidInput(f"{what} failed (exit {done.returncode}): {tail}")
    return done.stdout


__all__ = ["cache_directory", "planned_from_registry"]
