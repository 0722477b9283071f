"""hostcompat: make MCP servers work on every MCP host.

Layers (imports point one way, top to bottom):

- `hostcompat.apps`: the MCP Apps model (SEP-1865): capabilities, `_meta.ui`, `ui://` resources,
  CSP, the host<->view bridge, the OpenAI mapping, mode selection and server helpers.

Importing `hostcompat` is cheap: it never imports the `mcp` SDK.
"""

from hostcompat._version import __version__
from hostcompat.errors import HostCompatError

__all__ = ["HostCompatError", "__version__"]
