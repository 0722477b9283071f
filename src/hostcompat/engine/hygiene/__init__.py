"""A server's own MCP Apps hygiene, whatever the host: tool metadata, widget resources and their declarations."""
