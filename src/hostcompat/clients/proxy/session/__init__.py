"""The proxy relay over SDK messages: one front session (stdio or streamable HTTP) to its own upstream session."""
