"""The registry of finding rules: every stable rule id with its default title, severity, lane and source.

Built once at import from the data file `hostcompat/data/finding-rules.json` (read and checked by
`hostcompat.engine.findings.rule_data`); looking up an unknown id raises, so a typo can never become a silent new
rule. `finding_for` makes a finding with a rule's defaults.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.findings.make import make_finding
from hostcompat.engine.findings.model import (
    Evidence,
    Finding,
    Lane,
    Provenance,
    Severity,
    cut_snippet,
)
from hostcompat.engine.findings.rule_data import RuleRow, bundled_rows, check_rows
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireObject


@dataclass(frozen=True)
class RuleInfo:
    """A registered rule: its stable id, default title, severity and lane, what it checks and its source."""

    rule_id: str
    title: str
    severity: Severity
    lane: Lane
    description: str
    source: str

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys), e.g. for a SARIF rule descriptor."""
        return {
            "ruleId": self.rule_id,
            "title": self.title,
            "severity": self.severity.value,
            "lane": self.lane.value,
            "description": self.description,
            "source": self.source,
        }


class RuleRegistry:
    """A read-only set of rules by id; `lookup` of an unknown id raises `InvalidInput` (with a close match)."""

    def __init__(self, rows: Iterable[RuleRow]) -> None:
        """Build the registry from (id, title, severity, lane, description, source) rows, checked by `check_rows`.

        Raises:
            InvalidInput: a row is malformed or repeats an id.
        """
        rules: dict[str, RuleInfo] = {}
        for rule_id, title, severity, lane, description, source in check_rows(rows, where="rule registry"):
            rules[rule_id] = RuleInfo(rule_id, title, Severity(severity), Lane(lane), description, source)
        self._rules: Final = rules

    def lookup(self, rule_id: str) -> RuleInfo:
        """The rule registered under `rule_id`; `InvalidInput` for any other value."""
        rule = self._rules.get(rule_id) if isinstance(rule_id, str) else None
        if rule is None:
            close = difflib.get_close_matches(str(rule_id), list(self._rules), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise InvalidInput(f"unknown rule id {cut_snippet(repr(rule_id))}{hint}", value=rule_id)
        return rule

    def ids(self) -> tuple[str, ...]:
        """Every registered id, in registration order."""
        return tuple(self._rules)

    def __contains__(self, rule_id: object) -> bool:
        """True when `rule_id` is registered."""
        return isinstance(rule_id, str) and rule_id in self._rules

    def __iter__(self) -> Iterator[RuleInfo]:
        """The rules in registration order."""
        return iter(self._rules.values())

    def __len__(self) -> int:
        """How many rules are registered."""
        return len(self._rules)


RULES: Final = RuleRegistry(bundled_rows())
"""Every rule the engine can report (the rules of `data/finding-rules.json`, in file order)."""


def rule_info(rule_id: str) -> RuleInfo:
    """The registered rule `rule_id`; `InvalidInput` for an unknown id."""
    return RULES.lookup(rule_id)


def finding_for(
    rule_id: str,
    *,
    detail: str,
    remediation: str | None = None,
    tools: Iterable[str] = (),
    resources: Iterable[str] = (),
    evidence: Iterable[Evidence] = (),
    title: str | None = None,
    severity: Severity | None = None,
    provenance: Provenance | None = None,
    fact_source: str | None = None,
    fact_date: str | None = None,
    fact_since: str | None = None,
    fact_fixed_in: str | None = None,
) -> Finding:
    """A finding of the registered rule `rule_id`, with the rule's title, severity and lane unless overridden."""
    rule = RULES.lookup(rule_id)
    return make_finding(
        rule.rule_id,
        rule.lane,
        rule.severity if severity is None else severity,
        rule.title if title is None else title,
        detail,
        remediation,
        tools if type(tools) is tuple else tuple(tools),
        evidence if type(evidence) is tuple else tuple(evidence),
        provenance,
        fact_source,
        fact_date,
        resources if type(resources) is tuple else tuple(resources),
        fact_since,
        fact_fixed_in,
    )


__all__ = [
    "RULES",
    "RuleInfo",
    "RuleRegistry",
    "finding_for",
    "rule_info",
]
