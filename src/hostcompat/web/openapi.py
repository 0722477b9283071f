"""The API described in OpenAPI 3.1, written by hand: the routes, their bodies, and the error shape."""

from __future__ import annotations

from hostcompat._version import __version__
from hostcompat.wire_json import WireObject

_ERROR = {"$ref": "#/components/schemas/Error"}
_CONFIG = (
    "a host config file (claude_desktop_config.json, .mcp.json, .vscode/mcp.json, Zed settings.json, Codex "
    "config.toml …): every enabled server in it is probed and checked; its ${env:NAME} variables resolve from the "
    "server's environment"
)


def _json(schema: WireObject, description: str) -> WireObject:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _errors(*statuses: int) -> WireObject:
    return {str(status): _json(_ERROR, "refused: the message names the problem") for status in statuses}


def openapi_document() -> WireObject:
    """The OpenAPI 3.1 document of `hostcompat serve`."""
    run = {"$ref": "#/components/schemas/Run"}
    report_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "hostcompat serve",
            "version": __version__,
            "description": "Local API of the compatibility page. Every request must carry this server's own Host and "
            "no foreign Origin. Probing a command, a URL or a config file's servers needs the start-up token in the "
            "X-Hostcompat-Token header.",
        },
        "paths": {
            "/api/hosts": {
                "get": {
                    "summary": "The host catalog",
                    "responses": {"200": _json({"type": "object"}, "the catalog header and every host profile")},
                }
            },
            "/api/check": {
                "post": {
                    "summary": "Start a check of a snapshot, a URL, a command or every server of a host config file",
                    "parameters": [
                        {"name": "X-Hostcompat-Token", "in": "header", "required": False, "schema": {"type": "string"}}
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CheckRequest"}}},
                    },
                    "responses": {
                        "202": _json({"$ref": "#/components/schemas/Started"}, "the check started"),
                        **_errors(400, 403, 413),
                    },
                }
            },
            "/api/scan": {
                "post": {
                    "summary": "Scan one widget's HTML: what it calls of its host, with evidence",
                    "requestBody": {"required": True, "content": {"text/html": {"schema": {"type": "string"}}}},
                    "responses": {"200": _json({"type": "object"}, "the widget scan"), **_errors(400, 413)},
                }
            },
            "/api/reports/{id}": {
                "get": {
                    "summary": "A check: its status, events, and report (hostcompat.report/1) when done",
                    "parameters": [report_id],
                    "responses": {"200": _json(run, "the check"), **_errors(404)},
                }
            },
            "/api/reports/{id}/events": {
                "get": {
                    "summary": "Progress of a check as server-sent events (progress, then done or failed)",
                    "parameters": [report_id],
                    "responses": {
                        "200": {"description": "the event stream", "content": {"text/event-stream": {}}},
                        **_errors(404),
                    },
                }
            },
            "/api/openapi.json": {
                "get": {"summary": "This document", "responses": {"200": _json({"type": "object"}, "OpenAPI 3.1")}}
            },
        },
        "components": {
            "schemas": {
                "Error": {
                    "type": "object",
                    "required": ["error"],
                    "properties": {
                        "error": {
                            "type": "object",
                            "required": ["code", "message"],
                            "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
                        }
                    },
                },
                "CheckRequest": {
                    "type": "object",
                    "description": "exactly one of snapshot, url, command and config",
                    "properties": {
                        "snapshot": {"type": "object", "description": "a snapshot document (hostcompat snapshot)"},
                        "url": {"type": "string", "format": "uri"},
                        "command": {
                            "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]
                        },
                        "config": {
                            "type": "object",
                            "description": _CONFIG,
                            "required": ["text"],
                            "properties": {
                                "text": {"type": "string", "description": "the file's content"},
                                "name": {"type": "string", "description": "the file's name (.toml: Codex)"},
                            },
                            "additionalProperties": False,
                        },
                        "inputs": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                            "description": "the values of the config's VS Code ${input:NAME} variables",
                        },
                        "hosts": {"type": "array", "items": {"type": "string"}},
                    },
                    "additionalProperties": False,
                },
                "Started": {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "status": {"const": "running"},
                        "links": {"type": "object"},
                    },
                },
                "Run": {
                    "type": "object",
                    "required": ["id", "status", "events"],
                    "properties": {
                        "id": {"type": "string"},
                        "status": {"enum": ["running", "done", "failed"]},
                        "events": {"type": "array", "items": {"type": "object"}},
                        "error": {"type": "string"},
                        "report": {"type": "object", "description": "hostcompat.report/1 (data/report.schema.json)"},
                    },
                },
            }
        },
    }


__all__ = ["openapi_document"]
