"""Client compatibility profiles: detect the client, rewrite only what is known to break it."""

__all__: list[str] = []
