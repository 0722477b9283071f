"""Hostile: reads every request and never answers, not even `initialize`."""

from tests.probe.servers._jsonrpc import hang, serve

if __name__ == "__main__":
    serve({"initialize": hang, "server/discover": hang}, name="hang-initialize")
