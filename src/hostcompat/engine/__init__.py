"""The host-compatibility engine: pure functions from a server's tools and widgets to per-host verdicts."""

__all__: list[str] = []
