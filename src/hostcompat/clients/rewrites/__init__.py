"""Rewrite operations over plain JSON, copy-on-write: tool catalog, content blocks, annotations and schemas."""
