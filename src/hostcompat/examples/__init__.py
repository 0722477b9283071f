"""Small, real MCP App servers used by the tests and as the built-in demo."""

__all__: list[str] = []
