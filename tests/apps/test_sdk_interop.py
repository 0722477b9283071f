"""`hostcompat.apps` accepts the MCP Apps objects the `mcp` SDK and FastMCP 4 already ship."""

from fastmcp.apps.config import AppConfig
from fastmcp.apps.config import ResourceCSP as FastMCPResourceCSP
from mcp.server.apps import ResourceCsp, ResourcePermissions

from hostcompat.apps import ResourceCSP, ResourceUI, ToolUI, build_allow_attribute, build_csp


def test_the_sdk_csp_and_permissions_models_read_as_typed_values() -> None:
    csp = ResourceCSP.from_wire(ResourceCsp(connect_domains=["https://api.example.com"]))
    assert csp.connect_domains == ("https://api.example.com",)
    assert "connect-src 'self' https://api.example.com" in build_csp(csp)
    ui = ResourceUI.from_wire({"permissions": ResourcePermissions(camera={})})
    assert ui.permissions is not None and ui.permissions.camera
    assert build_allow_attribute(ui.permissions) == "camera"


def test_a_fastmcp_app_config_reads_as_a_tool_ui_and_a_resource_ui() -> None:
    tool = ToolUI.from_wire(AppConfig(resource_uri="ui://x/app.html", visibility=["app"]))
    assert tool == ToolUI(resource_uri="ui://x/app.html", visibility=("app",))
    resource = ResourceUI.from_wire(
        AppConfig(csp=FastMCPResourceCSP(resource_domains=["https://cdn.example.com"]), prefers_border=False)
    )
    assert resource.csp is not None and resource.csp.resource_domains == ("https://cdn.example.com",)
    assert resource.prefers_border is False
