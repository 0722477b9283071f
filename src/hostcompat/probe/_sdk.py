"""The official `mcp` SDK's client side, imported without its server side: the one place the probe imports `mcp`.

`import mcp.client` first runs `mcp/__init__.py`, which imports the whole SDK, servers included; and
`mcp.client.client` imports the in-memory transport and the server classes (starlette, uvicorn, sse_starlette,
cryptography, OpenTelemetry …) only to recognise an in-process server handed to `Client`, and the HTTP transport
(`httpx2`) only to open a URL handed to it. The probe hands it a transport, always. Importing all that costs a
live `check` more time than the protocol exchange itself (`python -X importtime`; `bench/bench_startup.py --live`).

So, when nothing has imported `mcp` yet, `mcp` is registered without running its `__init__` (which runs on the first
name it is asked for that is not loaded yet: `import mcp; mcp.Client` still works), and `mcp.client` is imported
with stand-ins for those five modules, removed from `sys.modules` right after. What `mcp.client.client` keeps of
them: `Server` and `MCPServer` are classes whose `isinstance` asks the real class when its module is loaded (no
instance can exist before), and the three functions import the real one on their first call. Every later import of
`mcp.server…` or `mcp.client.streamable_http` gets the real module. When `mcp` is already imported, this module
imports normally and changes nothing.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any, Final

_STAND_INS: Final = {
    "mcp.server": {"Server": ("mcp.server.lowlevel.server", "Server")},
    "mcp.server.mcpserver": {"MCPServer": ("mcp.server.mcpserver.server", "MCPServer")},
    "mcp.server.runner": {"modern_on_request": ("mcp.server.runner", "modern_on_request")},
    "mcp.client._memory": {"InMemoryTransport": ("mcp.client._memory", "InMemoryTransport")},
    "mcp.client.streamable_http": {"streamable_http_client": ("mcp.client.streamable_http", "streamable_http_client")},
}
"""What `mcp.client.client` imports from the server side (and the HTTP transport): module → name → where it lives."""

_CLASSES: Final = ("Server", "MCPServer")


class _RealCheck(type):
    """The metaclass of a stand-in class: `isinstance` asks the real class, if its module was ever loaded."""

    home: tuple[str, str]

    def __instancecheck__(cls, instance: object) -> bool:
        module = sys.modules.get(cls.home[0])
        real = getattr(module, cls.home[1], None) if module is not None else None
        return isinstance(real, type) and not isinstance(real, _RealCheck) and isinstance(instance, real)


def _stand_in_class(name: str, home: tuple[str, str]) -> type:
    doc = f"Stands for `{home[0]}.{home[1]}` (see hostcompat.probe._sdk)."
    return _RealCheck(name, (), {"home": home, "__doc__": doc})


def _stand_in_function(name: str, home: tuple[str, str]) -> Any:
    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(home[0]), home[1])(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"Imports `{home[0]}.{home[1]}` and calls it (see hostcompat.probe._sdk)."
    return call


def _register_package_without_init() -> None:
    """`mcp` in `sys.modules` with its `__path__`, its `__init__` deferred to the first name asked of it."""
    spec = importlib.util.find_spec("mcp")
    if spec is None or spec.loader is None:  # pragma: no cover - the SDK is a dependency
        raise ModuleNotFoundError("No module named 'mcp'", name="mcp")
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def finish(name: str) -> Any:
        del package.__dict__["__getattr__"]
        loader.exec_module(package)  # the SDK's own `__init__`, into the same module object
        return getattr(package, name)

    package.__getattr__ = finish  # type: ignore[method-assign]
    sys.modules["mcp"] = package


def _import_client_side() -> None:
    if "mcp" in sys.modules:
        importlib.import_module("mcp.client")
        return
    try:
        _import_lean()
    except ImportError:  # pragma: no cover - an SDK whose client imports more of its server side: import it all
        for name in [name for name in sys.modules if name == "mcp" or name.startswith("mcp.")]:
            del sys.modules[name]
        importlib.import_module("mcp.client")


def _import_lean() -> None:
    _register_package_without_init()
    placed: dict[str, ModuleType] = {}
    for module_name, names in _STAND_INS.items():
        module = ModuleType(module_name, "A stand-in while mcp.client is imported (see hostcompat.probe._sdk).")
        for name, home in names.items():
            maker = _stand_in_class if name in _CLASSES else _stand_in_function
            setattr(module, name, maker(name, home))
        placed[module_name] = sys.modules[module_name] = module
    try:
        importlib.import_module("mcp.client")
    finally:
        for module_name, module in placed.items():
            if sys.modules.get(module_name) is module:
                del sys.modules[module_name]


_import_client_side()

from mcp.client import Client, ClientExtension, ClientSession, Transport  # noqa: E402  # after the import above
from mcp.client import advertise as advertise  # noqa: E402
from mcp.client.stdio import get_default_environment  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp.shared.message import SessionMessage  # noqa: E402

__all__ = [
    "Client",
    "ClientExtension",
    "ClientSession",
    "MCPError",
    "SessionMessage",
    "Transport",
    "advertise",
    "get_default_environment",
]
