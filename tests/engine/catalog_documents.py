"""Small catalog documents the catalog tests build on."""

from typing import Any

from hostcompat.engine.catalog.schema import SCHEMA_VERSION


def fact(value: Any, **extra: Any) -> dict[str, Any]:
    return {"value": value, "provenance": "observed", "source": "a test", "date": "2026-01-02", **extra}


def minimal_document() -> dict[str, Any]:
    return {
        "catalog": {"schemaVersion": SCHEMA_VERSION, "date": "2026-12-02"},
        "hosts": [
            {
                "id": "alpha",
                "displayName": "Alpha",
                "kind": "chat",
                "aliases": ["alpha-desktop"],
                "ui": {"formats": {"mcp-apps": fact("supported")}},
                "server": {"limits": {"maxTools": fact(40)}},
                "quirks": [{"id": "alpha-quirk", "text": "t", "provenance": "observed", "source": "s", "date": "2026"}],
            },
            {"id": "beta", "displayName": "Beta", "kind": "ide"},
        ],
    }
