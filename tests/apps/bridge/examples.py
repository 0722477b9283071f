"""Realistic example messages of the view protocol, one for every (method, direction) row, plus replies."""

from __future__ import annotations

from typing import Any

from hostcompat.apps.bridge import methods as m
from hostcompat.apps.bridge.methods import Direction

V2H, H2V = Direction.VIEW_TO_HOST, Direction.HOST_TO_VIEW


def request(method: str, params: dict[str, Any] | None = None, request_id: int | str = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


INITIALIZE_PARAMS: dict[str, Any] = {
    "appInfo": {"name": "weather-view", "version": "1.4.0", "title": "Weather"},
    "appCapabilities": {
        "availableDisplayModes": ["inline", "fullscreen"],
        "tools": {"listChanged": True},
        "experimental": {"vendor.example/feature": {}},
    },
    "protocolVersion": "2026-01-26",
}

HOST_CONTEXT: dict[str, Any] = {
    "toolInfo": {"id": 42, "tool": {"name": "get_weather", "inputSchema": {"type": "object"}}},
    "theme": "dark",
    "styles": {"variables": {"--color-background-primary": "#111"}, "css": {"fonts": "@font-face {}"}},
    "displayMode": "inline",
    "availableDisplayModes": ["inline", "fullscreen", "pip"],
    "containerDimensions": {"width": 720, "maxHeight": 600},
    "locale": "fr-FR",
    "timeZone": "Europe/Paris",
    "userAgent": "ExampleHost/2.1",
    "platform": "desktop",
    "deviceCapabilities": {"touch": False, "hover": True},
    "safeAreaInsets": {"top": 0, "right": 0, "bottom": 12, "left": 0},
}

HOST_CAPABILITIES: dict[str, Any] = {
    "experimental": {"vendor.example/feature": {}},
    "openLinks": {},
    "serverTools": {"listChanged": True},
    "serverResources": {"listChanged": False},
    "logging": {},
    "sandbox": {"permissions": {"clipboardWrite": {}}, "csp": {"connectDomains": ["https://api.example.com"]}},
    "downloadFile": {},
    "updateModelContext": {"text": {}, "image": {}, "structuredContent": {}},
    "message": {"text": {}, "resourceLink": {}},
    "sampling": {"tools": {}},
}

INITIALIZE_RESULT: dict[str, Any] = {
    "protocolVersion": "2026-01-26",
    "hostInfo": {"name": "ExampleHost", "version": "2.1.0"},
    "hostCapabilities": HOST_CAPABILITIES,
    "hostContext": HOST_CONTEXT,
}

SANDBOX_HTML = "<!doctype html><html><body><div id=app></div><script>start()</script></body></html>"

EXAMPLES: dict[tuple[str, Direction], dict[str, Any]] = {
    (m.UI_INITIALIZE, V2H): request(m.UI_INITIALIZE, INITIALIZE_PARAMS),
    (m.UI_INITIALIZED, V2H): notification(m.UI_INITIALIZED, {}),
    (m.PING, V2H): request(m.PING, request_id="view-ping-1"),
    (m.PING, H2V): request(m.PING, {}, request_id="host-ping-1"),
    (m.TOOLS_CALL, V2H): request(m.TOOLS_CALL, {"name": "get_weather", "arguments": {"city": "Paris"}}, 2),
    (m.TOOLS_LIST, V2H): request(m.TOOLS_LIST, {"cursor": "page-2"}, 3),
    (m.TOOLS_LIST_CHANGED, H2V): notification(m.TOOLS_LIST_CHANGED),
    (m.RESOURCES_READ, V2H): request(m.RESOURCES_READ, {"uri": "ui://weather/view.html"}, 4),
    (m.RESOURCES_LIST, V2H): request(m.RESOURCES_LIST, {}, 5),
    (m.RESOURCES_TEMPLATES_LIST, V2H): request(m.RESOURCES_TEMPLATES_LIST, None, 6),
    (m.LOGGING_MESSAGE, V2H): notification(
        m.LOGGING_MESSAGE, {"level": "info", "logger": "weather-view", "data": {"rendered": True}}
    ),
    (m.SAMPLING_CREATE_MESSAGE, V2H): request(
        m.SAMPLING_CREATE_MESSAGE,
        {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarise"}}], "maxTokens": 200},
        7,
    ),
    (m.UI_OPEN_LINK, V2H): request(m.UI_OPEN_LINK, {"url": "https://example.com/forecast?city=Paris"}, 8),
    (m.UI_DOWNLOAD_FILE, V2H): request(
        m.UI_DOWNLOAD_FILE,
        {
            "contents": [
                {
                    "type": "resource",
                    "resource": {"uri": "file:///forecast.csv", "mimeType": "text/csv", "text": "day,temp\nmon,18"},
                },
                {"type": "resource_link", "uri": "https://example.com/forecast.pdf", "name": "forecast.pdf"},
            ]
        },
        9,
    ),
    (m.UI_MESSAGE, V2H): request(
        m.UI_MESSAGE, {"role": "user", "content": [{"type": "text", "text": "Show me tomorrow"}]}, 10
    ),
    (m.UI_UPDATE_MODEL_CONTEXT, V2H): request(
        m.UI_UPDATE_MODEL_CONTEXT,
        {"content": [{"type": "text", "text": "The user picked Paris"}], "structuredContent": {"city": "Paris"}},
        11,
    ),
    (m.UI_REQUEST_DISPLAY_MODE, V2H): request(m.UI_REQUEST_DISPLAY_MODE, {"mode": "fullscreen"}, 12),
    (m.UI_SIZE_CHANGED, V2H): notification(m.UI_SIZE_CHANGED, {"width": 640, "height": 480.5}),
    (m.UI_REQUEST_TEARDOWN, V2H): notification(m.UI_REQUEST_TEARDOWN, {}),
    (m.TOOLS_LIST_CHANGED, V2H): notification(m.TOOLS_LIST_CHANGED, {}),
    (m.UI_TOOL_INPUT, H2V): notification(m.UI_TOOL_INPUT, {"arguments": {"city": "Paris", "days": 3}}),
    (m.UI_TOOL_INPUT_PARTIAL, H2V): notification(m.UI_TOOL_INPUT_PARTIAL, {"arguments": {"city": "Pa"}}),
    (m.UI_TOOL_RESULT, H2V): notification(
        m.UI_TOOL_RESULT,
        {
            "content": [{"type": "text", "text": "18 °C, clear"}],
            "structuredContent": {"temperature": 18, "sky": "clear"},
            "_meta": {"source": "test"},
        },
    ),
    (m.UI_TOOL_CANCELLED, H2V): notification(m.UI_TOOL_CANCELLED, {"reason": "user aborted"}),
    (m.UI_HOST_CONTEXT_CHANGED, H2V): notification(
        m.UI_HOST_CONTEXT_CHANGED, {"theme": "light", "containerDimensions": {"maxHeight": 800}}
    ),
    (m.UI_RESOURCE_TEARDOWN, H2V): request(m.UI_RESOURCE_TEARDOWN, {"reason": "conversation closed"}, "td-1"),
    (m.TOOLS_CALL, H2V): request(m.TOOLS_CALL, {"name": "select_city", "arguments": {"city": "Lyon"}}, "h-2"),
    (m.TOOLS_LIST, H2V): request(m.TOOLS_LIST, {}, "h-3"),
    (m.UI_SANDBOX_PROXY_READY, Direction.PROXY_TO_HOST): notification(m.UI_SANDBOX_PROXY_READY, {}),
    (m.UI_SANDBOX_RESOURCE_READY, Direction.HOST_TO_PROXY): notification(
        m.UI_SANDBOX_RESOURCE_READY,
        {
            "html": SANDBOX_HTML,
            "sandbox": "allow-scripts allow-same-origin allow-forms",
            "csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]},
            "permissions": {"clipboardWrite": {}},
        },
    ),
}
"""One realistic message for every row of the method table."""

RESULTS: dict[str, dict[str, Any]] = {
    m.UI_INITIALIZE: INITIALIZE_RESULT,
    m.PING: {},
    m.UI_OPEN_LINK: {"isError": True},
    m.UI_DOWNLOAD_FILE: {},
    m.UI_MESSAGE: {},
    m.UI_UPDATE_MODEL_CONTEXT: {},
    m.UI_REQUEST_DISPLAY_MODE: {"mode": "inline"},
    m.UI_RESOURCE_TEARDOWN: {},
}
"""One realistic result for each request the view protocol defines."""

LEGACY_URI = "ui://agently.wk_ab/view/order"

LEGACY_EXAMPLES: dict[str, dict[str, Any]] = {
    "mcpui:tools-call": {
        "version": "1.0.0",
        "method": "mcpui:tools-call",
        "params": {
            "windowId": "w1",
            "resourceUri": LEGACY_URI,
            "name": "ui/window:get",
            "arguments": {"windowId": "w1"},
        },
    },
    "mcpui:message": {
        "version": "1.0.0",
        "method": "mcpui:message",
        "params": {"windowId": "w1", "resourceUri": LEGACY_URI, "content": "Add to order", "metadata": {"k": 1}},
    },
    "mcpui:open-link": {
        "version": "1.0.0",
        "method": "mcpui:open-link",
        "params": {"windowId": "w1", "resourceUri": LEGACY_URI, "url": "https://example.com/order/7"},
    },
    "mcpui:host-ready": {
        "version": "1.0.0",
        "method": "mcpui:host-ready",
        "params": {
            "windowId": "w1",
            "resourceUri": LEGACY_URI,
            "allowedTools": ["message:add"],
            "protocolVersion": "1.0.0",
        },
    },
    "mcpui:tool-input": {
        "version": "1.0.0",
        "method": "mcpui:tool-input",
        "params": {
            "windowId": "w1",
            "resourceUri": LEGACY_URI,
            "toolName": "show_order",
            "toolInput": {"orderId": 7},
            "protocolVersion": "1.0.0",
        },
    },
    "mcpui:tool-input-partial": {
        "version": "1.0.0",
        "method": "mcpui:tool-input-partial",
        "params": {
            "windowId": "w1",
            "resourceUri": LEGACY_URI,
            "toolName": "show_order",
            "toolInput": {"orderId": 7},
            "protocolVersion": "1.0.0",
        },
    },
    "mcpui:tool-result": {
        "version": "1.0.0",
        "method": "mcpui:tool-result",
        "params": {
            "windowId": "w1",
            "resourceUri": LEGACY_URI,
            "toolName": "show_order",
            "content": [{"type": "text", "text": "ok"}],
            "structuredContent": {"ok": True},
            "_meta": {"source": "test"},
            "protocolVersion": "1.0.0",
        },
    },
    "mcpui:teardown": {
        "version": "1.0.0",
        "method": "mcpui:teardown",
        "params": {"windowId": "w1", "resourceUri": LEGACY_URI, "reason": "window closed"},
    },
    "mcpui:size-changed": {
        "version": "1.0.0",
        "method": "mcpui:size-changed",
        "params": {"windowId": "w1", "resourceUri": LEGACY_URI, "width": 640, "height": 480},
    },
}
"""One realistic envelope for each of the nine legacy methods."""
