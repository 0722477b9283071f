"""Client compatibility profiles: detect the client, rewrite only what is known to break it.

The core (detection, version ranges, rules as data, copy-on-write rewrites) is pure and never imports the `mcp`
SDK; the middleware and the proxy adapt it to the SDK at the edge.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hostcompat._lazy import lazy_exports

if TYPE_CHECKING:
    from hostcompat.clients.detect import CLIENT_CAPABILITIES_META_KEY as CLIENT_CAPABILITIES_META_KEY
    from hostcompat.clients.detect import CLIENT_INFO_META_KEY as CLIENT_INFO_META_KEY
    from hostcompat.clients.detect import MAX_CLIENT_VERSION_LENGTH as MAX_CLIENT_VERSION_LENGTH
    from hostcompat.clients.detect import MAX_NAME_LENGTH as MAX_NAME_LENGTH
    from hostcompat.clients.detect import PROTOCOL_VERSION_META_KEY as PROTOCOL_VERSION_META_KEY
    from hostcompat.clients.detect import ClientIdentity as ClientIdentity
    from hostcompat.clients.detect import IdentitySource as IdentitySource
    from hostcompat.clients.detect import detect_client as detect_client
    from hostcompat.clients.detect import parse_client_spec as parse_client_spec
    from hostcompat.clients.fastmcp import fastmcp_sdk_server as fastmcp_sdk_server
    from hostcompat.clients.fastmcp import install_fastmcp as install_fastmcp
    from hostcompat.clients.middleware import DISABLED_VALUE as DISABLED_VALUE
    from hostcompat.clients.middleware import ENVIRONMENT_VARIABLE as ENVIRONMENT_VARIABLE
    from hostcompat.clients.middleware import MAX_STATELESS_CLIENTS as MAX_STATELESS_CLIENTS
    from hostcompat.clients.middleware import REWRITTEN_METHODS as REWRITTEN_METHODS
    from hostcompat.clients.middleware import ClientCompatMiddleware as ClientCompatMiddleware
    from hostcompat.clients.middleware import ClientSessions as ClientSessions
    from hostcompat.clients.middleware import RewriteSession as RewriteSession
    from hostcompat.clients.middleware import enabled as enabled
    from hostcompat.clients.middleware import install as install
    from hostcompat.clients.rewrite import EMPTY_SESSION as EMPTY_SESSION
    from hostcompat.clients.rewrite import MAX_REMEMBERED_RENAMES as MAX_REMEMBERED_RENAMES
    from hostcompat.clients.rewrite import RequestRewrite as RequestRewrite
    from hostcompat.clients.rewrite import Rewrite as Rewrite
    from hostcompat.clients.rewrite import SessionProfile as SessionProfile
    from hostcompat.clients.rewrite import SessionState as SessionState
    from hostcompat.clients.rewrite import infer_method as infer_method
    from hostcompat.clients.rewrite import plan_rewrites as plan_rewrites
    from hostcompat.clients.rewrite import resolve_tool_name as resolve_tool_name
    from hostcompat.clients.rewrite import rewrite_request as rewrite_request
    from hostcompat.clients.rewrite import rewrite_result as rewrite_result
    from hostcompat.clients.rule_model import ClientMatch as ClientMatch
    from hostcompat.clients.rule_model import RewriteSpec as RewriteSpec
    from hostcompat.clients.rule_model import Rule as Rule
    from hostcompat.clients.rule_model import RuleFile as RuleFile
    from hostcompat.clients.rule_model import Source as Source
    from hostcompat.clients.rule_model import Trigger as Trigger
    from hostcompat.clients.rules import BUNDLED_RULES_FILE as BUNDLED_RULES_FILE
    from hostcompat.clients.rules import MAX_RULE_FILE_BYTES as MAX_RULE_FILE_BYTES
    from hostcompat.clients.rules import MAX_RULES as MAX_RULES
    from hostcompat.clients.rules import RULES_FORMAT as RULES_FORMAT
    from hostcompat.clients.rules import SOURCE_KINDS as SOURCE_KINDS
    from hostcompat.clients.rules import SourceKind as SourceKind
    from hostcompat.clients.rules import find_rule as find_rule
    from hostcompat.clients.rules import load_bundled_rules as load_bundled_rules
    from hostcompat.clients.rules import load_rule_file as load_rule_file
    from hostcompat.clients.rules import load_rules as load_rules
    from hostcompat.clients.rules import merge_rules as merge_rules
    from hostcompat.clients.rules import parse_rule as parse_rule
    from hostcompat.clients.rules import parse_rule_document as parse_rule_document
    from hostcompat.clients.rules import parse_rule_text as parse_rule_text
    from hostcompat.clients.versions import ANY_VERSION as ANY_VERSION
    from hostcompat.clients.versions import MAX_RANGE_LENGTH as MAX_RANGE_LENGTH
    from hostcompat.clients.versions import MAX_VERSION_LENGTH as MAX_VERSION_LENGTH
    from hostcompat.clients.versions import Comparator as Comparator
    from hostcompat.clients.versions import Operator as Operator
    from hostcompat.clients.versions import PreReleasePart as PreReleasePart
    from hostcompat.clients.versions import Version as Version
    from hostcompat.clients.versions import VersionRange as VersionRange
    from hostcompat.clients.versions import parse_version as parse_version
    from hostcompat.clients.versions import parse_version_range as parse_version_range
    from hostcompat.clients.versions import try_parse_version as try_parse_version

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "hostcompat.clients.detect": [
            "CLIENT_CAPABILITIES_META_KEY",
            "CLIENT_INFO_META_KEY",
            "ClientIdentity",
            "IdentitySource",
            "MAX_CLIENT_VERSION_LENGTH",
            "MAX_NAME_LENGTH",
            "PROTOCOL_VERSION_META_KEY",
            "detect_client",
            "parse_client_spec",
        ],
        "hostcompat.clients.fastmcp": ["fastmcp_sdk_server", "install_fastmcp"],
        "hostcompat.clients.middleware": [
            "ClientCompatMiddleware",
            "ClientSessions",
            "DISABLED_VALUE",
            "ENVIRONMENT_VARIABLE",
            "MAX_STATELESS_CLIENTS",
            "REWRITTEN_METHODS",
            "RewriteSession",
            "enabled",
            "install",
        ],
        "hostcompat.clients.rewrite": [
            "EMPTY_SESSION",
            "MAX_REMEMBERED_RENAMES",
            "RequestRewrite",
            "Rewrite",
            "SessionProfile",
            "SessionState",
            "infer_method",
            "plan_rewrites",
            "resolve_tool_name",
            "rewrite_request",
            "rewrite_result",
        ],
        "hostcompat.clients.rule_model": ["ClientMatch", "RewriteSpec", "Rule", "RuleFile", "Source", "Trigger"],
        "hostcompat.clients.rules": [
            "BUNDLED_RULES_FILE",
            "MAX_RULES",
            "MAX_RULE_FILE_BYTES",
            "RULES_FORMAT",
            "SOURCE_KINDS",
            "SourceKind",
            "find_rule",
            "load_bundled_rules",
            "load_rule_file",
            "load_rules",
            "merge_rules",
            "parse_rule",
            "parse_rule_document",
            "parse_rule_text",
        ],
        "hostcompat.clients.versions": [
            "ANY_VERSION",
            "Comparator",
            "MAX_RANGE_LENGTH",
            "MAX_VERSION_LENGTH",
            "Operator",
            "PreReleasePart",
            "Version",
            "VersionRange",
            "parse_version",
            "parse_version_range",
            "try_parse_version",
        ],
    },
)

__all__ = [
    "ANY_VERSION",
    "BUNDLED_RULES_FILE",
    "CLIENT_CAPABILITIES_META_KEY",
    "CLIENT_INFO_META_KEY",
    "ClientCompatMiddleware",
    "ClientIdentity",
    "ClientMatch",
    "ClientSessions",
    "Comparator",
    "DISABLED_VALUE",
    "EMPTY_SESSION",
    "ENVIRONMENT_VARIABLE",
    "IdentitySource",
    "MAX_CLIENT_VERSION_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_RANGE_LENGTH",
    "MAX_REMEMBERED_RENAMES",
    "MAX_RULES",
    "MAX_RULE_FILE_BYTES",
    "MAX_STATELESS_CLIENTS",
    "MAX_VERSION_LENGTH",
    "Operator",
    "PROTOCOL_VERSION_META_KEY",
    "PreReleasePart",
    "REWRITTEN_METHODS",
    "RULES_FORMAT",
    "RequestRewrite",
    "Rewrite",
    "RewriteSession",
    "RewriteSpec",
    "Rule",
    "RuleFile",
    "SOURCE_KINDS",
    "SessionProfile",
    "SessionState",
    "Source",
    "SourceKind",
    "Trigger",
    "Version",
    "VersionRange",
    "detect_client",
    "enabled",
    "fastmcp_sdk_server",
    "find_rule",
    "infer_method",
    "install",
    "install_fastmcp",
    "load_bundled_rules",
    "load_rule_file",
    "load_rules",
    "merge_rules",
    "parse_client_spec",
    "parse_rule",
    "parse_rule_document",
    "parse_rule_text",
    "parse_version",
    "parse_version_range",
    "plan_rewrites",
    "resolve_tool_name",
    "rewrite_request",
    "rewrite_result",
    "try_parse_version",
]
