"""Client compatibility profiles: detect the client, rewrite only what is known to break it.

The core (detection, version ranges, rules as data, copy-on-write rewrites) is pure and never imports the `mcp`
SDK; the middleware and the proxy adapt it to the SDK at the edge.
"""

from hostcompat.clients.detect import (
    CLIENT_CAPABILITIES_META_KEY as CLIENT_CAPABILITIES_META_KEY,
)
from hostcompat.clients.detect import (
    CLIENT_INFO_META_KEY as CLIENT_INFO_META_KEY,
)
from hostcompat.clients.detect import (
    MAX_CLIENT_VERSION_LENGTH as MAX_CLIENT_VERSION_LENGTH,
)
from hostcompat.clients.detect import (
    MAX_NAME_LENGTH as MAX_NAME_LENGTH,
)
from hostcompat.clients.detect import (
    PROTOCOL_VERSION_META_KEY as PROTOCOL_VERSION_META_KEY,
)
from hostcompat.clients.detect import (
    ClientIdentity as ClientIdentity,
)
from hostcompat.clients.detect import (
    IdentitySource as IdentitySource,
)
from hostcompat.clients.detect import (
    detect_client as detect_client,
)
from hostcompat.clients.detect import (
    parse_client_spec as parse_client_spec,
)
from hostcompat.clients.rewrite import (
    EMPTY_SESSION as EMPTY_SESSION,
)
from hostcompat.clients.rewrite import (
    MAX_REMEMBERED_RENAMES as MAX_REMEMBERED_RENAMES,
)
from hostcompat.clients.rewrite import (
    RequestRewrite as RequestRewrite,
)
from hostcompat.clients.rewrite import (
    Rewrite as Rewrite,
)
from hostcompat.clients.rewrite import (
    SessionProfile as SessionProfile,
)
from hostcompat.clients.rewrite import (
    SessionState as SessionState,
)
from hostcompat.clients.rewrite import (
    infer_method as infer_method,
)
from hostcompat.clients.rewrite import (
    plan_rewrites as plan_rewrites,
)
from hostcompat.clients.rewrite import (
    resolve_tool_name as resolve_tool_name,
)
from hostcompat.clients.rewrite import (
    rewrite_request as rewrite_request,
)
from hostcompat.clients.rewrite import (
    rewrite_result as rewrite_result,
)
from hostcompat.clients.rules import (
    BUNDLED_RULES_FILE as BUNDLED_RULES_FILE,
)
from hostcompat.clients.rules import (
    MAX_RULE_FILE_BYTES as MAX_RULE_FILE_BYTES,
)
from hostcompat.clients.rules import (
    MAX_RULES as MAX_RULES,
)
from hostcompat.clients.rules import (
    RULES_FORMAT as RULES_FORMAT,
)
from hostcompat.clients.rules import (
    SOURCE_KINDS as SOURCE_KINDS,
)
from hostcompat.clients.rules import (
    ClientMatch as ClientMatch,
)
from hostcompat.clients.rules import (
    RewriteSpec as RewriteSpec,
)
from hostcompat.clients.rules import (
    Rule as Rule,
)
from hostcompat.clients.rules import (
    RuleFile as RuleFile,
)
from hostcompat.clients.rules import (
    Source as Source,
)
from hostcompat.clients.rules import (
    SourceKind as SourceKind,
)
from hostcompat.clients.rules import (
    Trigger as Trigger,
)
from hostcompat.clients.rules import (
    find_rule as find_rule,
)
from hostcompat.clients.rules import (
    load_bundled_rules as load_bundled_rules,
)
from hostcompat.clients.rules import (
    load_rule_file as load_rule_file,
)
from hostcompat.clients.rules import (
    load_rules as load_rules,
)
from hostcompat.clients.rules import (
    merge_rules as merge_rules,
)
from hostcompat.clients.rules import (
    parse_rule as parse_rule,
)
from hostcompat.clients.rules import (
    parse_rule_document as parse_rule_document,
)
from hostcompat.clients.rules import (
    parse_rule_text as parse_rule_text,
)
from hostcompat.clients.versions import (
    ANY_VERSION as ANY_VERSION,
)
from hostcompat.clients.versions import (
    MAX_RANGE_LENGTH as MAX_RANGE_LENGTH,
)
from hostcompat.clients.versions import (
    MAX_VERSION_LENGTH as MAX_VERSION_LENGTH,
)
from hostcompat.clients.versions import (
    Comparator as Comparator,
)
from hostcompat.clients.versions import (
    Operator as Operator,
)
from hostcompat.clients.versions import (
    PreReleasePart as PreReleasePart,
)
from hostcompat.clients.versions import (
    Version as Version,
)
from hostcompat.clients.versions import (
    VersionRange as VersionRange,
)
from hostcompat.clients.versions import (
    parse_version as parse_version,
)
from hostcompat.clients.versions import (
    parse_version_range as parse_version_range,
)
from hostcompat.clients.versions import (
    try_parse_version as try_parse_version,
)

__all__ = [
    "ANY_VERSION",
    "BUNDLED_RULES_FILE",
    "CLIENT_CAPABILITIES_META_KEY",
    "CLIENT_INFO_META_KEY",
    "ClientIdentity",
    "ClientMatch",
    "Comparator",
    "EMPTY_SESSION",
    "IdentitySource",
    "MAX_CLIENT_VERSION_LENGTH",
    "MAX_NAME_LENGTH",
    "MAX_RANGE_LENGTH",
    "MAX_REMEMBERED_RENAMES",
    "MAX_RULES",
    "MAX_RULE_FILE_BYTES",
    "MAX_VERSION_LENGTH",
    "Operator",
    "PROTOCOL_VERSION_META_KEY",
    "PreReleasePart",
    "RULES_FORMAT",
    "RequestRewrite",
    "Rewrite",
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
    "find_rule",
    "infer_method",
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
