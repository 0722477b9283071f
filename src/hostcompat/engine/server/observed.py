"""Observed evidence: what a widget was seen to do when it ran in a browser under an emulated host.

The browser run itself lives in `hostcompat.observe` (I/O); this is its pure result as the engine reads it, one
`ObservedRun` per widget and judged host, so verdicts can cite `observed` evidence beside the static scan.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Final

from hostcompat._dataclass import dataclass
from hostcompat._regex import regex
from hostcompat.errors import InvalidInput
from hostcompat.wire_json import WireObject

RUN_STATUSES: Final = ("rendered", "blank", "no-bridge", "timeout", "crashed", "flooded", "failed")
"""How a run ended: painted something; painted nothing; never spoke the bridge; stopped at its time limit; the
renderer died (e.g. out of memory); stopped for sending too many messages; could not run at all."""

_RULE_ID: Final = regex(r"\AOBS-[A-Z]+-\d{3}\Z")
_MAX_ITEMS: Final = 256
_MAX_TEXT: Final = 2_000


@dataclass(frozen=True)
class ObservedIssue:
    """One behavioural rule that fired in a run: its rule id (`OBS-…`) and what was seen."""

    rule_id: str
    detail: str

    def __post_init__(self) -> None:
        if not isinstance(self.rule_id, str) or not _RULE_ID.match(self.rule_id):
            raise InvalidInput(f"an observed rule id must look like OBS-INIT-001, got {self.rule_id!r}")
        if not isinstance(self.detail, str) or not self.detail:
            raise InvalidInput("an observed issue needs a detail", value=self.detail)
        object.__setattr__(self, "detail", self.detail[:_MAX_TEXT])

    def to_dict(self) -> WireObject:
        """The JSON form."""
        return {"ruleId": self.rule_id, "detail": self.detail}


@dataclass(frozen=True)
class ObservedRun:
    """One widget run under one emulated host.

    `host_id` is the judged host whose bridge was emulated; `uri` the widget; `tools` the tools naming it;
    `seconds` how long the widget ran; `status` one of `RUN_STATUSES`; `methods` the bridge methods the view sent,
    in first-seen order; `reached` the needs (`WIDGET_NEEDS` names and the other capability needs) those methods
    use; `refused` the needs the emulated host refused; `issues` the behavioural rules that fired; `explored` says
    the runner also pressed the widget's buttons; `notes` say what the view did after a refusal and what the
    emulation could not know (catalog facts it lacked); `offered` the needs the emulated host offered (answered
    or accepted), so a need it offered that the view never used was not reached for want of the host.
    """

    host_id: str
    uri: str
    tools: tuple[str, ...]
    seconds: float
    status: str
    methods: tuple[str, ...] = ()
    reached: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()
    issues: tuple[ObservedIssue, ...] = ()
    explored: bool = False
    notes: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("host_id", "uri"):
            value = getattr(self, name)
            if not isinstance(value, str) or not value:
                raise InvalidInput(f"ObservedRun.{name} must be a non-empty string", value=value)
        if self.status not in RUN_STATUSES:
            raise InvalidInput(f"ObservedRun.status must be one of {', '.join(RUN_STATUSES)}", value=self.status)
        if (
            isinstance(self.seconds, bool)
            or not isinstance(self.seconds, (int, float))
            or not math.isfinite(self.seconds)
        ):
            raise InvalidInput("ObservedRun.seconds must be a finite number", value=self.seconds)
        for name in ("tools", "methods", "reached", "refused", "notes", "offered"):
            value = tuple(getattr(self, name))
            if len(value) > _MAX_ITEMS or not all(isinstance(item, str) and item for item in value):
                raise InvalidInput(f"ObservedRun.{name} must be at most {_MAX_ITEMS} non-empty strings", value=value)
            object.__setattr__(self, name, tuple(item[:_MAX_TEXT] for item in value))
        issues = tuple(self.issues)
        if not all(isinstance(issue, ObservedIssue) for issue in issues):
            raise InvalidInput("ObservedRun.issues must hold ObservedIssue values", value=issues)
        object.__setattr__(self, "issues", issues[:_MAX_ITEMS])

    def to_dict(self) -> WireObject:
        """The JSON form (camelCase keys); `from_dict` reads it back equal."""
        return {
            "hostId": self.host_id,
            "uri": self.uri,
            "tools": list(self.tools),
            "seconds": round(self.seconds, 3),
            "status": self.status,
            "methods": list(self.methods),
            "reached": list(self.reached),
            "refused": list(self.refused),
            "issues": [issue.to_dict() for issue in self.issues],
            "explored": self.explored,
            "notes": list(self.notes),
            "offered": list(self.offered),
        }

    @classmethod
    def from_dict(cls, raw: object) -> ObservedRun:
        """Parse the JSON form.

        Raises:
            InvalidInput: not an object, or a field of the wrong type.
        """
        if not isinstance(raw, Mapping):
            raise InvalidInput("an observed run must be an object", value=raw)
        issues = raw.get("issues", [])
        if not isinstance(issues, list) or not all(isinstance(item, Mapping) for item in issues):
            raise InvalidInput("observed run issues must be a list of objects", value=issues)
        lists = {}
        for key in ("tools", "methods", "reached", "refused", "notes", "offered"):
            value = raw.get(key, [])
            if not isinstance(value, list):
                raise InvalidInput(f"observed run {key} must be a list", value=value)
            lists[key] = tuple(value)
        return cls(
            host_id=raw.get("hostId"),  # type: ignore[arg-type]  # checked in __post_init__
            uri=raw.get("uri"),  # type: ignore[arg-type]
            seconds=raw.get("seconds"),  # type: ignore[arg-type]
            status=raw.get("status"),  # type: ignore[arg-type]
            issues=tuple(ObservedIssue(item.get("ruleId"), item.get("detail")) for item in issues),
            explored=raw.get("explored") is True,
            **lists,
        )


def covers_entry_paths(run: ObservedRun, need: str) -> bool:
    """Whether `run` went through the widget's entry paths with `need` on offer: it opened the bridge, rendered,
    and had its buttons pressed, under a host that offers the need. A need such a run never reached was not
    reached for want of the host or of a user's click.
    """
    return (
        run.status == "rendered"
        and run.explored
        and "ui/notifications/initialized" in run.methods
        and need in run.offered
    )


__all__ = ["RUN_STATUSES", "ObservedIssue", "ObservedRun", "covers_entry_paths"]
