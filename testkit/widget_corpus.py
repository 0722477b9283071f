"""The labelled widget corpus shared by the corpus tests and the scan benchmark.

Widgets come from two places: the corpus folder written by `scripts/capture_widgets.py` (what the npm servers
really serve through `resources/read`), and the hand-written pages in `testkit/widget_pages`. Labels for both
are in `widget_labels.json`. The plain string scan is the baseline the scanner must beat on every need.
"""

from __future__ import annotations

import base64
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

from hostcompat.engine.scan.needs import (
    ALL_NEEDS,
    APP_HANDLER_PROPERTIES,
    APP_METHOD_NEEDS,
    MCP_UI_TYPE_NEEDS,
    OPENAI_METHOD_NEEDS,
    WIRE_METHOD_NEEDS,
)

ROOT: Final = Path(__file__).resolve().parents[1]
FIXTURES: Final = Path(__file__).parent / "widget_pages"
LABELS_PATH: Final = Path(__file__).parent / "widget_labels.json"
CORPUS_SCHEMA: Final = "hostcompat.widget-corpus/1"
CORPUS_ENV: Final = "HOSTCOMPAT_WIDGET_CORPUS"
"""Environment variable naming another corpus folder (default `interop/corpus`)."""


def corpus_dir() -> Path:
    """Where the captured corpus is read from."""
    override = os.environ.get(CORPUS_ENV, "").strip()
    return Path(override) if override else ROOT / "interop" / "corpus"


@cache
def labels() -> Mapping[str, Any]:
    """The parsed label file."""
    loaded: dict[str, Any] = json.loads(LABELS_PATH.read_text(encoding="utf-8"))
    return loaded


@dataclass(frozen=True)
class Widget:
    """One labelled widget: where it came from, the content item a host reads, and its label."""

    key: str
    origin: str
    """"corpus" (captured from an npm package) or "fixture" (hand-written here)."""
    content: Mapping[str, Any]
    label: Mapping[str, Any]

    @property
    def expected(self) -> frozenset[str]:
        """The needs the label says the widget uses."""
        return frozenset(self.label.get("needs", {}))

    @property
    def source(self) -> str:
        """The widget's HTML as text (`text`, else the decoded `blob`; "" when neither)."""
        text = self.content.get("text")
        if isinstance(text, str):
            return text
        blob = self.content.get("blob")
        if isinstance(blob, str):
            return base64.b64decode(blob).decode("utf-8", errors="replace")
        return ""


def fixture_widgets() -> list[Widget]:
    """The labelled hand-written pages."""
    found = []
    for name, label in sorted(labels()["fixtures"].items()):
        text = (FIXTURES / name).read_text(encoding="utf-8")
        found.append(Widget(name, "fixture", {"uri": f"fixture:{name}", "text": text}, label))
    return found


def read_corpus(folder: Path | None = None) -> dict[str, tuple[Mapping[str, Any], str]]:
    """Every captured widget: `"<package> <uri>"` -> (first content item, package version).

    Raises:
        FileNotFoundError: no corpus index in the folder.
        ValueError: the index or a package file is of another format.
    """
    base = corpus_dir() if folder is None else folder
    index = json.loads((base / "index.json").read_text(encoding="utf-8"))
    if index.get("schema") != CORPUS_SCHEMA:
        raise ValueError(f"{base / 'index.json'} is not a {CORPUS_SCHEMA} index")
    widgets: dict[str, tuple[Mapping[str, Any], str]] = {}
    for entry in index["packages"]:
        record = json.loads((base / entry["file"]).read_text(encoding="utf-8"))
        if record.get("schema") != CORPUS_SCHEMA or record.get("package") != entry["package"]:
            raise ValueError(f"{entry['file']} does not hold {entry['package']}")
        for uri, captured in record.get("uiResources", {}).items():
            contents = captured.get("contents") or [{}]
            widgets[f"{entry['package']} {uri}"] = (contents[0], str(record.get("version")))
    return widgets


def corpus_widgets(captured: Mapping[str, tuple[Mapping[str, Any], str]]) -> list[Widget]:
    """The labelled captured widgets that are present in `captured`."""
    return [
        Widget(key, "corpus", captured[key][0], label)
        for key, label in sorted(labels()["corpus"].items())
        if key in captured
    ]


def _spellings(table: Mapping[str, str], need: str) -> list[str]:
    return [name for name, target in table.items() if target == need]


def _naive_patterns() -> dict[str, re.Pattern[str]]:
    """Per need, every spelling the bridge tables know (method names, wire literals, action types)."""
    words: dict[str, list[str]] = {need: [] for need in ALL_NEEDS}
    for table in (APP_METHOD_NEEDS, OPENAI_METHOD_NEEDS, APP_HANDLER_PROPERTIES):
        for name, need in table.items():
            words[need].append(r"\b" + re.escape(name) + r"\b")
    for method, need in WIRE_METHOD_NEEDS.items():
        words[need].append(re.escape(method))
    for action, need in MCP_UI_TYPE_NEEDS.items():
        words[need].append(r"type[\"']?\s*:\s*[\"']" + re.escape(action) + "[\"']")
    words["openaiApps"].append(r"window\.openai\b")
    words["sandboxPermissions"].append(r"getUserMedia|SpeechRecognition|geolocation|clipboard\.write")
    words["cspResourceDomains"].append(r"(?:src|href)\s*=\s*[\"']https?://|import[^;\n]{0,200}[\"']https?://")
    words["cspConnectDomains"].append(r"(?:fetch|WebSocket|EventSource)\s*\(\s*[\"'`](?:https?|wss?)://")
    words["cspFrameDomains"].append(r"<iframe[^>]{0,200}src\s*=\s*[\"']https?://")
    return {need: re.compile("|".join(spellings)) for need, spellings in words.items() if spellings}


NAIVE_PATTERNS: Final = _naive_patterns()
"""The plain string scan: a need is used when any of its spellings occurs anywhere in the text."""

MCPJAM_PATTERNS: Final[dict[str, re.Pattern[str]]] = {
    "serverTools": re.compile(r"tools/call|\bcallTool\b|\bcallServerTool\b"),
    "serverResources": re.compile(r"resources/read|\breadResource\b"),
    "message": re.compile(r"ui/message|\b(?i:sendFollowUpMessage)\b"),
    "updateModelContext": re.compile(r"ui/update-model-context|\bsetWidgetState\b"),
    "openLinks": re.compile(r"ui/open-link|\bopenExternal\b"),
    "downloadFile": re.compile(r"ui/download-file|\bgetFileDownloadUrl\b|\buploadFile\b"),
    "logging": re.compile(r"notifications/message"),
}
"""MCPJam's scanner (its seven source-detectable needs), for reference."""


def _needles() -> dict[str, tuple[str, ...]]:
    words: dict[str, list[str]] = {need: [] for need in ALL_NEEDS}
    for table in (APP_METHOD_NEEDS, OPENAI_METHOD_NEEDS, APP_HANDLER_PROPERTIES, WIRE_METHOD_NEEDS):
        for name, need in table.items():
            words[need].append(name)
    words["openaiApps"].append("window.openai")
    words["sandboxPermissions"].extend(("getUserMedia", "SpeechRecognition", "geolocation", "clipboard"))
    for need in ("cspResourceDomains", "cspConnectDomains", "cspFrameDomains"):
        words[need].append("://")
    return {need: tuple(found) for need, found in words.items() if found}


NAIVE_NEEDLES: Final = _needles()
"""The plain string scan as literal needles (one `str.find` pass per needle), for the throughput comparison."""


def needle_scan(source: str) -> set[str]:
    """The needs whose literal spellings occur in `source` (the plain string scan at `str.find` speed)."""
    return {need for need, needles in NAIVE_NEEDLES.items() if any(needle in source for needle in needles)}


def naive_scan(source: str) -> set[str]:
    """The needs a plain string scan reports."""
    return {need for need, pattern in NAIVE_PATTERNS.items() if pattern.search(source)}


def mcpjam_scan(source: str) -> set[str]:
    """The needs MCPJam's regex scan reports."""
    return {need for need, pattern in MCPJAM_PATTERNS.items() if pattern.search(source)}


@dataclass(frozen=True)
class Score:
    """Counts and rates for one need over a set of widgets."""

    need: str
    true_pos: int
    false_pos: int
    false_neg: int

    @property
    def precision(self) -> float:
        """TP / (TP + FP); 1.0 when nothing was predicted."""
        return self.true_pos / (self.true_pos + self.false_pos) if self.true_pos + self.false_pos else 1.0

    @property
    def recall(self) -> float:
        """TP / (TP + FN); 1.0 when nothing was expected."""
        return self.true_pos / (self.true_pos + self.false_neg) if self.true_pos + self.false_neg else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0

    @property
    def support(self) -> int:
        """How many widgets the labels say use the need."""
        return self.true_pos + self.false_neg


def score(pairs: Iterable[tuple[set[str] | frozenset[str], frozenset[str]]], needs: Iterable[str]) -> list[Score]:
    """Per-need scores of (predicted, expected) pairs."""
    listed = list(pairs)
    scores = []
    for need in needs:
        tp = sum(1 for predicted, expected in listed if need in predicted and need in expected)
        fp = sum(1 for predicted, expected in listed if need in predicted and need not in expected)
        fn = sum(1 for predicted, expected in listed if need not in predicted and need in expected)
        scores.append(Score(need, tp, fp, fn))
    return scores


def predictions(widgets: Iterable[Widget], scan: Callable[[Widget], set[str]]) -> list[tuple[set[str], frozenset[str]]]:
    """(predicted, expected) per widget."""
    return [(scan(widget), widget.expected) for widget in widgets]
