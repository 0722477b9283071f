"""The MCP Apps model (SEP-1865): capabilities, `_meta.ui`, `ui://` resources, CSP, the bridge, modes."""

__all__: list[str] = []
