"""The MCP Apps UI extension capability: its payload, reading and setting it, and diagnosing a wrong one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.apps.capabilities.access import client_ui_capable as client_ui_capable
    from hostcompat.apps.capabilities.access import server_ui_capable as server_ui_capable
    from hostcompat.apps.capabilities.access import set_client_capability as set_client_capability
    from hostcompat.apps.capabilities.access import set_server_capability as set_server_capability
    from hostcompat.apps.capabilities.diagnosis import CapabilityDiagnosis as CapabilityDiagnosis
    from hostcompat.apps.capabilities.diagnosis import DiagnosisCode as DiagnosisCode
    from hostcompat.apps.capabilities.diagnosis import diagnose_ui_capability as diagnose_ui_capability
    from hostcompat.apps.capabilities.model import CapabilitySource as CapabilitySource
    from hostcompat.apps.capabilities.model import UICapability as UICapability
    from hostcompat.apps.capabilities.model import get_ui_capability as get_ui_capability

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.apps.capabilities.access": [
            "client_ui_capable",
            "server_ui_capable",
            "set_client_capability",
            "set_server_capability",
        ],
        "hostcompat.apps.capabilities.diagnosis": ["CapabilityDiagnosis", "DiagnosisCode", "diagnose_ui_capability"],
        "hostcompat.apps.capabilities.model": ["CapabilitySource", "UICapability", "get_ui_capability"],
    },
)

__all__ = [
    "CapabilityDiagnosis",
    "CapabilitySource",
    "client_ui_capable",
    "diagnose_ui_capability",
    "DiagnosisCode",
    "get_ui_capability",
    "server_ui_capable",
    "set_client_capability",
    "set_server_capability",
    "UICapability",
]
