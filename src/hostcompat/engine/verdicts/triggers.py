"""The triggers of conditional host facts, evaluated on this server's own data: fired, provably absent, or undecided.

A host fact such as "only structuredContent reaches the model when both are present" bites only some servers. Its
trigger (`catalog_schema.TRIGGERS`) names the server data that makes it bite; `evaluate_trigger` reads that data
from the server surface (tool schemas and captured tools/call results) and says which tools fire it, with the
evidence, and which tools could fire it but were not called, so the finding can say what would decide it.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Mapping, Sequence
from itertools import islice
from typing import Any, Final

from hostcompat._dataclass import dataclass
from hostcompat.engine.catalog.schema import TRIGGERS
from hostcompat.engine.findings.make import make_evidence
from hostcompat.engine.findings.model import Evidence, cut_snippet
from hostcompat.engine.server.facts import WidgetUsage
from hostcompat.engine.server.surface import MAX_RESULT_BLOCKS, ServerSurface
from hostcompat.wire_json import WireJSON

SPEC_CONTENT_TYPES: Final = frozenset({"text", "image", "audio", "resource", "resource_link"})
"""The content block types the MCP spec defines for a tool result."""

MAX_COMPARED_CHARS: Final = 1_000_000
"""The most text of one result compared with its structuredContent; longer text is not parsed (undecided)."""

_MAX_EVIDENCE: Final = 20


class TriggerState(enum.Enum):
    """Whether this server's data makes a conditional fact bite."""

    FIRED = "fired"
    ABSENT = "absent"
    UNDECIDED = "undecided"


@dataclass(frozen=True, kw_only=True)
class TriggerOutcome:
    """What a trigger found: the tools whose data fires it (with evidence), and the tools that might but whose
    results were not captured (`undecided`).
    """

    trigger: str
    fired: tuple[str, ...] = ()
    evidence: tuple[Evidence, ...] = ()
    undecided: tuple[str, ...] = ()

    @property
    def state(self) -> TriggerState:
        """Fired when any tool fires it; undecided when none does but some could; absent otherwise."""
        if self.fired:
            return TriggerState.FIRED
        return TriggerState.UNDECIDED if self.undecided else TriggerState.ABSENT

    @property
    def condition(self) -> str:
        """The trigger in words."""
        return TRIGGERS[self.trigger]


_Check = Callable[[str, WireJSON, ServerSurface], "str | None"]
"""(tool, its captured result, surface) → the evidence detail when the result fires the trigger, else None."""


def evaluate_trigger(
    trigger: str,
    surface: ServerSurface,
    usage: WidgetUsage | None = None,
    widget_tools: frozenset[str] = frozenset(),
) -> TriggerOutcome:
    """Evaluate `trigger` (an id of `TRIGGERS`) on the server's surface and widget usage. Pure; never raises.

    Result triggers look at captured results only; a tool that could fire the trigger (one declaring an
    outputSchema, for the structured-content triggers) but was not called is undecided. Widget triggers read the
    scanned widget usage; widgets that were not analysed (`usage` None) leave every widget tool undecided.
    `widget_tools` names the tools that have a widget (for the triggers about widget tools' results).
    """
    if trigger == "widget-mcp-ui-actions":
        return _widget_actions(trigger, surface, usage)
    if trigger == "widget-update-model-context":
        return _widget_need(trigger, usage, "updateModelContext", "sends ui/update-model-context")
    if trigger == "widget-message":
        return _widget_need(trigger, usage, "message", "sends ui/message")
    if trigger == "widget-result-structured-not-in-text":
        return _result_trigger(trigger, surface, _structured_not_in_text, surface.output_schema_tools, widget_tools)
    if trigger == "tool-output-schema":
        tools = surface.output_schema_tools
        return _outcome(trigger, tools, (_declared(tool, "outputSchema") for tool in tools), ())
    if trigger == "input-schema-closed":
        tools = surface.closed_input_tools
        return _outcome(
            trigger, tools, (_declared(tool, "inputSchema.additionalProperties = false") for tool in tools), ()
        )
    check, could_fire = _RESULT_CHECKS[trigger]
    return _result_trigger(trigger, surface, check, could_fire(surface), None)


def _result_trigger(
    trigger: str,
    surface: ServerSurface,
    check: _Check,
    could_fire: tuple[str, ...],
    only: frozenset[str] | None,
) -> TriggerOutcome:
    """Run `check` on each captured result (of the tools in `only`, when given); tools of `could_fire` that were
    not called are undecided.
    """
    fired: list[str] = []
    evidence: list[Evidence] = []
    for tool, result in surface.results.items():
        if only is not None and tool not in only:
            continue
        detail = check(tool, result, surface)
        if detail is not None:
            fired.append(tool)
            if len(evidence) < _MAX_EVIDENCE:
                evidence.append(make_evidence(f"call:{cut_snippet(tool)}", cut_snippet(detail)))
    undecided = tuple(tool for tool in could_fire if tool not in surface.results and (only is None or tool in only))
    return _outcome(trigger, fired, evidence, undecided)


def _widget_actions(trigger: str, surface: ServerSurface, usage: WidgetUsage | None) -> TriggerOutcome:
    if usage is None:
        return TriggerOutcome(trigger=trigger)
    tools = usage.tools_for("mcpUiActions")
    evidence = (make_evidence(f"widget:{cut_snippet(tool)}", "legacy mcp-ui actions, no adapter") for tool in tools)
    return _outcome(trigger, tools, evidence, ())


def _widget_need(trigger: str, usage: WidgetUsage | None, need: str, detail: str) -> TriggerOutcome:
    if usage is None:
        return TriggerOutcome(trigger=trigger)
    tools = usage.tools_for(need)
    evidence = (make_evidence(f"widget:{cut_snippet(tool)}", detail) for tool in tools)
    return _outcome(trigger, tools, evidence, ())


def _outcome(trigger: str, fired: Sequence[str], evidence: Any, undecided: Sequence[str]) -> TriggerOutcome:
    found = tuple(islice(evidence, _MAX_EVIDENCE)) if fired else ()
    return TriggerOutcome(trigger=trigger, fired=tuple(fired), evidence=found, undecided=tuple(undecided))


def _declared(tool: str, detail: str) -> Evidence:
    return make_evidence(f"tools/list:{cut_snippet(tool)}", detail)


# ---- reading one captured result ----------------------------------------------------------------------------------


def _blocks(result: WireJSON) -> list[WireJSON]:
    content = result.get("content")
    if not isinstance(content, list):
        return []
    return [block for block in content[:MAX_RESULT_BLOCKS] if isinstance(block, Mapping)]


def _has_structured(result: WireJSON) -> bool:
    return result.get("structuredContent") is not None


def _is_error(result: WireJSON) -> bool:
    return result.get("isError") is True


def _content_not_in_structured(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    """What content carries that structuredContent does not, when a result has both (None: nothing is lost)."""
    if not _has_structured(result):
        return None
    structured = result["structuredContent"]
    for block in _blocks(result):
        kind = block.get("type")
        if kind != "text":
            return f"content has a {cut_snippet(str(kind))} block; structuredContent replaces it"
        text = block.get("text")
        if isinstance(text, str) and not text_in_structured(text, structured):
            return f"content text {cut_snippet(repr(text))} is not in structuredContent"
    return None


def _text_not_in_structured(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    """A text block whose text structuredContent does not carry, when a result has both (non-text blocks are kept)."""
    if not _has_structured(result):
        return None
    structured = result["structuredContent"]
    for block in _blocks(result):
        text = block.get("text") if block.get("type") == "text" else None
        if isinstance(text, str) and not text_in_structured(text, structured):
            return f"content text {cut_snippet(repr(text))} is not in structuredContent, which replaces it"
    return None


def text_in_structured(text: str, structured: object) -> bool:
    """Whether `text` says nothing `structured` does not: empty, a JSON text of it or of a value in it, or equal to
    one of its strings (the SDKs put `json.dumps(structured)`, or the one string field, in the text block).
    """
    stripped = text.strip()
    if not stripped:
        return True
    values = list(_values(structured))
    if any(isinstance(value, str) and value.strip() == stripped for value in values):
        return True
    if len(stripped) > MAX_COMPARED_CHARS or stripped[0] not in '[{"-0123456789tfn':
        return False
    try:
        parsed = json.loads(stripped)
    except (ValueError, RecursionError):
        return False
    return any(parsed == value for value in values)


def _values(node: object, depth: int = 0) -> Any:
    """`node` and every value nested in it (objects and lists), to a bounded depth."""
    yield node
    if depth >= 8:
        return
    children = node.values() if isinstance(node, Mapping) else node if isinstance(node, list) else ()
    for child in list(children)[:MAX_RESULT_BLOCKS]:
        yield from _values(child, depth + 1)


def _missing_structured(tool: str, result: WireJSON, surface: ServerSurface) -> str | None:
    schema = surface.output_schemas.get(tool)
    if schema is None or _is_error(result):
        return None
    if not _has_structured(result):
        return "a tool with an outputSchema returned no structuredContent"
    structured = result["structuredContent"]
    if schema.get("type") == "object" and not isinstance(structured, Mapping):
        return f"structuredContent is {type(structured).__name__}, the outputSchema says object"
    required = schema.get("required")
    if isinstance(structured, Mapping) and isinstance(required, list):
        missing = [key for key in required if isinstance(key, str) and key not in structured]
        if missing:
            return f"structuredContent lacks required {', '.join(repr(key) for key in missing[:5])}"
    return None


def _structured_not_in_text(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    """Whether no text block carries the structuredContent of a non-error result (None: one does, or none is set)."""
    if not _has_structured(result) or _is_error(result):
        return None
    structured = result["structuredContent"]
    texts = [block.get("text") for block in _blocks(result) if block.get("type") == "text"]
    for text in texts:
        if isinstance(text, str) and _carries(text, structured):
            return None
    if not texts:
        return "structuredContent with no text block in content"
    return "no text block of content carries structuredContent"


def _structured_without_text(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    """Whether a non-error result has structuredContent and no non-empty text block (None: it has one)."""
    if not _has_structured(result) or _is_error(result):
        return None
    for block in _blocks(result):
        text = block.get("text")
        if block.get("type") == "text" and isinstance(text, str) and text.strip():
            return None
    return "structuredContent with no text block in content"


def _carries(text: str, structured: object) -> bool:
    stripped = text.strip()
    if not stripped or len(stripped) > MAX_COMPARED_CHARS or stripped[0] not in "[{":
        return False
    try:
        return bool(json.loads(stripped) == structured)
    except (ValueError, RecursionError):
        return False


def _structured_on_error(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    return "an isError result carries structuredContent" if _is_error(result) and _has_structured(result) else None


def _image_with_structured(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    if _has_structured(result) and any(block.get("type") == "image" for block in _blocks(result)):
        return "an image block beside structuredContent"
    return None


def _priority_non_integer(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    for block in _blocks(result):
        annotations = block.get("annotations")
        priority = annotations.get("priority") if isinstance(annotations, Mapping) else None
        if isinstance(priority, float) and not priority.is_integer():
            return f"content[].annotations.priority = {priority!r}"
    return None


def _nonspec_type(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
    for block in _blocks(result):
        kind = block.get("type")
        if not isinstance(kind, str) or kind not in SPEC_CONTENT_TYPES:
            return f"content[].type = {cut_snippet(repr(kind))}"
    return None


def _content_type(kind: str) -> _Check:
    def check(_tool: str, result: WireJSON, _surface: ServerSurface) -> str | None:
        return f"content[].type = {kind}" if any(block.get("type") == kind for block in _blocks(result)) else None

    return check


def _structured_tools(surface: ServerSurface) -> tuple[str, ...]:
    return surface.output_schema_tools


def _no_tools(_surface: ServerSurface) -> tuple[str, ...]:
    return ()


_RESULT_CHECKS: Final[Mapping[str, tuple[_Check, Callable[[ServerSurface], tuple[str, ...]]]]] = {
    "result-structured-replaces-content": (_content_not_in_structured, _structured_tools),
    "result-structured-replaces-text": (_text_not_in_structured, _structured_tools),
    "result-missing-structured": (_missing_structured, _structured_tools),
    "result-structured-on-error": (_structured_on_error, _no_tools),
    "result-structured-without-text": (_structured_without_text, _structured_tools),
    "result-image-with-structured": (_image_with_structured, _no_tools),
    "result-annotation-priority-non-integer": (_priority_non_integer, _no_tools),
    "result-nonspec-content-type": (_nonspec_type, _no_tools),
    "result-content-image": (_content_type("image"), _no_tools),
    "result-content-audio": (_content_type("audio"), _no_tools),
    "result-content-resource": (_content_type("resource"), _no_tools),
    "result-content-resource-link": (_content_type("resource_link"), _no_tools),
}
"""Each result trigger: its check of one captured result, and the tools that could fire it if called."""

EVALUATED_TRIGGERS: Final = frozenset(
    {
        *_RESULT_CHECKS,
        "tool-output-schema",
        "input-schema-closed",
        "widget-mcp-ui-actions",
        "widget-update-model-context",
        "widget-message",
        "widget-result-structured-not-in-text",
    }
)
"""Every trigger `evaluate_trigger` evaluates (the test suite holds it equal to `TRIGGERS`)."""

__all__ = [
    "EVALUATED_TRIGGERS",
    "MAX_COMPARED_CHARS",
    "SPEC_CONTENT_TYPES",
    "TriggerOutcome",
    "TriggerState",
    "evaluate_trigger",
    "text_in_structured",
]
