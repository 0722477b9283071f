"""What a server is and needs, independent of any host: requirements, facts, tool metadata and schema constructs."""
